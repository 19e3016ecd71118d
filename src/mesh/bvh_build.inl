/* SPDX-License-Identifier: MIT */
/* Template: the BVH builder and refit for one precision
 * (src/mesh/bvh_build.c). The layout it produces is described in
 * prox/detail/bvh_layout.h.
 *
 * Build: binned SAH (32 bins on the centroids, all three axes), top-down,
 * into a binary tree. A subtree over primitives [b, e) works on its own
 * part of the primitive array, and its thread takes the nodes it makes
 * from a chunk of a pool that is its own (pbb_new2), so any subtree can
 * be built by any thread; the binary tree's shape does not depend on
 * which thread built what (only where its nodes sit in the pool, which
 * nothing after reads: the collapse follows the shape). With threads, every
 * split queues its right child (from 2048 primitives) for whichever
 * thread is free and goes on with its left, so both threads work from the
 * root's first split on; the passes over the mesh before and after (the
 * primitives' boxes, the triangles' copy into the leaves) run in chunks.
 * The binary tree is then collapsed into 4-wide nodes in depth-first
 * preorder (each node takes the children of its largest inner children
 * until it has 4); with threads, the subtrees below a few levels are
 * counted and written in parallel at the places their counts give
 * (pbb_subs): the result is the same for any thread count. Centroids that coincide on every axis,
 * and depths past PB_SAH_DEPTH, are split at the middle index, so the depth stays within
 * PROX_BVH_MAX_DEPTH and a million copies of one triangle build a
 * balanced tree.
 *
 * Float: the builder works in float for both precisions (PB_REAL), on
 * each triangle's box rounded outward to float. Rounding is monotone, so
 * every box it merges is the exact box rounded outward, the float box the
 * nodes store anyway: the nodes are as tight as before, and only the SAH's
 * arithmetic (areas, centroids, bins) is in float for a double mesh. A
 * float mesh's tree is the one the earlier (per-axis, exact) builder made,
 * bit for bit; a double mesh's differs from it where float ties differ
 * (query instruction counts equal to 1e-5). A double mesh with coordinates
 * beyond float range gets infinite boxes (as its nodes always had) and
 * infinite or NaN centroids, which bin to bin 0: correct, a poorer tree.
 *
 * Speed: the primitives are records (box and triangle index, 32 bytes)
 * that the partition moves in place, so every pass over a node reads
 * memory in order; one pass bins the three axes at once, with boxes as 8
 * lanes merged by one vector min (below); a child's box is the merge of
 * its side's bins, and the partition, which has no branch on a
 * primitive's side (pbb_partition), gathers each child's centroid box, so
 * no child needs a pass of its own for its bounds; the SAH sweeps of the
 * three axes run at once. The binning and the splits are the same
 * arithmetic, in the same order, as a pass per axis does (min and max are
 * exact). */

/* The builder's boxes are 8 reals: lo x, y, z, a pad, then -hi x, y, z
 * and a pad (negating is exact), so that merging two boxes is one min of
 * 8 lanes (SSE2 where there is SSE2); an empty box is all +inf. The pads
 * are never read: a merged box's pads are whatever the merge made them. */

/* A primitive: its triangle's box (as above, rounded outward), whose pads
 * hold the triangle's index (its two 16-bit halves: exact small floats),
 * so that a record is 32 bytes, the memory every pass streams. The
 * centroid is not stored: lo / 2 + hi / 2, recomputed, is the same value
 * every time. */
typedef struct PROX_FN(pbb_prim) {
  PB_REAL box[PB_LANES];
} PROX_FN(pbb_prim);

static void PROX_FN(pbb_set_id)(PROX_FN(pbb_prim) * p, uint32_t id) {
  p->box[3] = (PB_REAL)(id >> 16);
  p->box[7] = (PB_REAL)(id & 0xffffu);
}

static uint32_t PROX_FN(pbb_id)(const PROX_FN(pbb_prim) * p) {
  return (uint32_t)p->box[3] << 16 | (uint32_t)p->box[7];
}

/* A node's box and the box of its primitives' centroids (both as above). */
typedef struct PROX_FN(pbb_bounds) {
  PB_REAL box[PB_LANES], cbox[PB_LANES];
} PROX_FN(pbb_bounds);

/* A binary node: its box (float, rounded outward); a leaf holds
 * positions [first, first + count); an inner node's children are the
 * binary nodes `left` and left + 1 (first and left share a field). */
typedef struct PROX_FN(pbb_node) {
  PB_REAL lo[3], hi[3];
  uint32_t first_or_left; /* leaf: first position; inner: left child */
  uint32_t count;         /* count > 0: leaf */
} PROX_FN(pbb_node);

/* A thread's share of the binary nodes: it takes the pairs of children
 * it makes from [next, end), a chunk of the pool it takes under the
 * queue's lock when that is used up. */
typedef struct PROX_FN(pbb_cursor) {
  uint32_t next, end;
} PROX_FN(pbb_cursor);

typedef struct PROX_FN(pbb_task) {
  uint32_t idx, b, e;
  int depth;
  PROX_FN(pbb_bounds) bd;
} PROX_FN(pbb_task);

typedef struct PROX_FN(pbb_ctx) {
  PROX_FN(pbb_prim) * prim; /* n records, partitioned in place */
  uint32_t *ids;            /* the tree's ids: a leaf's, sorted, when made */
  PROX_FN(pbb_node) * bn;   /* the pool of binary nodes, the root at 0 */
  size_t bn_next;           /* the start of the chunk a thread takes next */
  int leaf_size;
  PB_REAL unit; /* the SAH's unit (pbb_unit of the root's box) */
  /* Threads: with parallel set, a split's right child of at least
   * spawn_min primitives becomes a task of a shared queue (tasks[next_task
   * .. n_tasks) waiting, `pending` pushed and not finished), which every
   * worker takes from; the left child is built on. */
  int parallel;
  uint32_t spawn_min;
  PROX_FN(pbb_task) * tasks;
  size_t n_tasks, cap_tasks, next_task, pending;
  pthread_mutex_t lock;
  pthread_cond_t cv;
} PROX_FN(pbb_ctx);

/* The SAH's unit: the power of two 2^-E by which its areas multiply every
 * extent, E the exponent of the longest side of the root's box (lo, hi),
 * so that the areas and the costs (an area times a count) stay clear of
 * float overflow and underflow at every scale where the boxes are normal
 * floats (unscaled, they overflowed for extents above about 2^56 and
 * underflowed below about 2^-60: every split then cost the same, and the
 * tree came out far from the SAH's; tests/test_bvh_domain.c,
 * test_tree_scale). Scaling by a power of two is exact, so wherever
 * nothing overflowed or underflowed before, every cost and comparison,
 * and so the tree, is the same bit for bit. 1 for an empty, flat-to-a-
 * point or infinite box. */
static PB_REAL PROX_FN(pbb_unit)(const PB_REAL *lo, const PB_REAL *hi) {
  PB_REAL ext = 0;
  int ax, e = 0;
  for (ax = 0; ax < 3; ++ax)
    if (hi[ax] - lo[ax] > ext) ext = hi[ax] - lo[ax];
  if (!(ext > 0 && ext < PB_INF)) return 1;
  (void)frexp((double)ext, &e);
  return (PB_REAL)ldexp(1.0, -e);
}

/* The half area of the box (lo, hi) in the unit u (pbb_unit). */
static PB_REAL PROX_FN(pbb_half_area)(const PB_REAL *lo, const PB_REAL *hi, PB_REAL u) {
  PB_REAL dx = (hi[0] - lo[0]) * u, dy = (hi[1] - lo[1]) * u, dz = (hi[2] - lo[2]) * u;
  if (!(dx >= 0)) return 0; /* empty */
  return dx * dy + dy * dz + dz * dx;
}

/* pbb_half_area of a box of 8 lanes (-(-hi) - lo is hi - lo exactly). */
static PB_REAL PROX_FN(pbb_half_area8)(const PB_REAL *box, PB_REAL u) {
  PB_REAL dx = (-box[4] - box[0]) * u, dy = (-box[5] - box[1]) * u, dz = (-box[6] - box[2]) * u;
  if (!(dx >= 0)) return 0; /* empty */
  return dx * dy + dy * dz + dz * dx;
}

static void PROX_FN(pbb_box_empty)(PB_REAL *box) {
  int j;
  for (j = 0; j < PB_LANES; ++j)
    box[j] = PB_INF;
}

/* min as the x86 instruction does it (x unless y is below it): written
 * so, the compilers emit it, vectorized, instead of branches, which the
 * bins' random updates mispredict. */
#if !defined(PB_V)
static PB_REAL PROX_FN(pbb_min)(PB_REAL x, PB_REAL y) {
  return y < x ? y : x;
}
#endif

/* box := box merged with y (8 lanes each). */
static void PROX_FN(pbb_box_add)(PB_REAL *box, const PB_REAL *y) {
  int j;
#if defined(PB_V)
  for (j = 0; j < PB_LANES; j += PB_VW)
    PB_VSTORE(box + j, PB_VMIN(PB_VLOAD(y + j), PB_VLOAD(box + j)));
#else
  for (j = 0; j < PB_LANES; ++j)
    box[j] = PROX_FN(pbb_min)(box[j], y[j]);
#endif
}

/* The centroid of a primitive, lanes 0-2 (lo / 2 + hi / 2, halves first:
 * no overflow), and its negation in lanes 4-6: a box of one point. */
static void PROX_FN(pbb_centroid8)(const PROX_FN(pbb_prim) * p, PB_REAL *c) {
  int j;
#if defined(PB_V)
  const PB_V half = PB_VSET1(PB_R(0.5)), sign = PB_VSET1(PB_R(-0.0));
  for (j = 0; j < 4; j += PB_VW) {
    PB_V v = PB_VSUB(PB_VMUL(PB_VLOAD(p->box + j), half), PB_VMUL(PB_VLOAD(p->box + 4 + j), half));
    PB_VSTORE(c + j, v);
    PB_VSTORE(c + 4 + j, PB_VXOR(v, sign));
  }
#else
  for (j = 0; j < 4; ++j) {
    c[j] = p->box[j] * PB_R(0.5) - p->box[4 + j] * PB_R(0.5);
    c[4 + j] = -c[j];
  }
#endif
}

/* The bin of centroid coordinate x: (x - lo) scale clamped to [0, nb - 1]
 * (a NaN product, from an infinite extent, goes to bin 0). */
static int PROX_FN(pbb_bin)(PB_REAL x, PB_REAL lo, PB_REAL scale, int nb) {
  PB_REAL f = (x - lo) * scale;
  f = f > 0 ? f : 0;
  f = f < (PB_REAL)(nb - 1) ? f : (PB_REAL)(nb - 1);
  return (int)f;
}

static void PROX_FN(pbb_bounds_empty)(PROX_FN(pbb_bounds) * bd) {
  PROX_FN(pbb_box_empty)(bd->box);
  PROX_FN(pbb_box_empty)(bd->cbox);
}

static inline void PROX_FN(pbb_bounds_add)(PROX_FN(pbb_bounds) * bd, const PROX_FN(pbb_prim) * p) {
  PB_REAL c[PB_LANES];
  PROX_FN(pbb_centroid8)(p, c);
  PROX_FN(pbb_box_add)(bd->box, p->box);
  PROX_FN(pbb_box_add)(bd->cbox, c);
}

/* The bounds of primitives [b, e) by a pass over them. */
static void PROX_FN(pbb_bounds_of)(const PROX_FN(pbb_ctx) * c, uint32_t b, uint32_t e,
                                   PROX_FN(pbb_bounds) * bd) {
  uint32_t i;
  PROX_FN(pbb_bounds_empty)(bd);
  for (i = b; i < e; ++i)
    PROX_FN(pbb_bounds_add)(bd, c->prim + i);
}

/* The centroids' extent along ax. */
static PB_REAL PROX_FN(pbb_cext)(const PROX_FN(pbb_bounds) * bd, int ax) {
  return -bd->cbox[4 + ax] - bd->cbox[ax];
}

static void PROX_FN(pbb_sweep)(PB_REAL bins[3][32][PB_LANES], uint32_t bcnt[32][4], int nb,
                               int axes, PB_REAL u, int *best_ax, int *best_split,
                               PB_REAL *best_cost);

/* Empties the first nb bins of each axis: boxes all +inf, counts 0. */
static void PROX_FN(pbb_bins_clear)(PB_REAL bins[3][32][PB_LANES], uint32_t bcnt[32][4], int nb) {
  int ax, k;
  for (ax = 0; ax < 3; ++ax)
    for (k = 0; k < nb; ++k)
      PROX_FN(pbb_box_empty)(bins[ax][k]);
  memset(bcnt, 0, (size_t)nb * sizeof *bcnt);
}

/* Bins primitive p on the three axes (centroid box low corner clo, bin
 * scales sc, nb bins): its count and box merged into its bins. */
static inline void PROX_FN(pbb_bin_one)(const PROX_FN(pbb_prim) * p, const PB_REAL *clo,
                                        const PB_REAL *sc, int nb, PB_REAL bins[3][32][PB_LANES],
                                        uint32_t bcnt[32][4]) {
  PB_REAL cen[PB_LANES];
  int bin[4], ax;
  PROX_FN(pbb_centroid8)(p, cen);
#if defined(PB_VBINS)
  PB_VBINS(cen, clo, sc, (PB_REAL)(nb - 1), bin);
#else
  for (ax = 0; ax < 4; ++ax)
    bin[ax] = PROX_FN(pbb_bin)(cen[ax], clo[ax], sc[ax], nb);
#endif
  for (ax = 0; ax < 3; ++ax) {
    ++bcnt[bin[ax]][ax];
    PROX_FN(pbb_box_add)(bins[ax][bin[ax]], p->box);
  }
}

/* The binned SAH's best split of [b, e) (bounds bd) with nb bins: sets
 * *best_ax (-1: none, every axis' centroids coincide), *best_split (the
 * first bin of the right side), *best_cost (A_L n_L + A_R n_R),
 * scale[3] and, for a split, the boxes of its sides (8 lanes each). Apart
 * from the recursion so that its bins do not sit on the stack of every
 * level. */
static void PROX_FN(pbb_find_split)(const PROX_FN(pbb_ctx) * c, uint32_t b, uint32_t e,
                                    const PROX_FN(pbb_bounds) * bd, int nb, int *best_ax,
                                    int *best_split, PB_REAL *best_cost, PB_REAL scale[3],
                                    PB_REAL *lbox, PB_REAL *rbox) {
  enum { NB = 32 };
  PB_REAL bins[3][NB][PB_LANES];
  uint32_t bcnt[NB][4]; /* bin k's count on each axis (lane 3 unused) */
  PB_REAL clo[4], sc[4];
  uint32_t i;
  int ax, k, axes = 0;
  *best_ax = -1;
  *best_split = 0;
  *best_cost = PB_INF;
  for (ax = 0; ax < 3; ++ax) {
    PB_REAL ext = PROX_FN(pbb_cext)(bd, ax);
    /* An axis without extent bins everything into bin 0 and is skipped
     * below (cheaper than a branch per primitive). */
    scale[ax] = ext > 0 ? (PB_REAL)nb * (PB_R(1.0) - PB_R(4.0) * FLT_EPSILON) / ext : 0;
    clo[ax] = bd->cbox[ax];
    sc[ax] = scale[ax];
    if (ext > 0) axes |= 1 << ax;
  }
  PROX_FN(pbb_bins_clear)(bins, bcnt, nb);
  clo[3] = sc[3] = 0;
  /* One pass, three axes. Consecutive primitives often fall into the same
   * bins, and each bin update waits for the one before: a large node's
   * even and odd primitives go to two sets of bins, merged after (two
   * chains half as long; the merges are exact). */
  if (e - b >= PB_BIN_TWICE) {
    PB_REAL bins2[3][NB][PB_LANES];
    uint32_t bcnt2[NB][4];
    PROX_FN(pbb_bins_clear)(bins2, bcnt2, nb);
    for (i = b; i + 1 < e; i += 2) {
      PROX_FN(pbb_bin_one)(c->prim + i, clo, sc, nb, bins, bcnt);
      PROX_FN(pbb_bin_one)(c->prim + i + 1, clo, sc, nb, bins2, bcnt2);
    }
    if (i < e) PROX_FN(pbb_bin_one)(c->prim + i, clo, sc, nb, bins, bcnt);
    for (k = 0; k < nb; ++k)
      for (ax = 0; ax < 3; ++ax) {
        PROX_FN(pbb_box_add)(bins[ax][k], bins2[ax][k]);
        bcnt[k][ax] += bcnt2[k][ax];
      }
  } else {
    for (i = b; i < e; ++i)
      PROX_FN(pbb_bin_one)(c->prim + i, clo, sc, nb, bins, bcnt);
  }
#if defined(PB_VSWEEP)
  /* The three axes' sweeps at once (bvh_build.c), the same arithmetic
   * and the same choice; counts below 2^31 (as float conversions go). */
  if (e - b < 0x80000000u)
    PB_VSWEEP(bins, bcnt, nb, axes, c->unit, best_ax, best_split, best_cost);
  else
#endif
    PROX_FN(pbb_sweep)(bins, bcnt, nb, axes, c->unit, best_ax, best_split, best_cost);
  /* The children's boxes: their bins' (the partition puts a primitive on
   * the side of its bin). */
  PROX_FN(pbb_box_empty)(lbox);
  PROX_FN(pbb_box_empty)(rbox);
  if (*best_ax >= 0)
    for (k = 0; k < nb; ++k)
      PROX_FN(pbb_box_add)(k < *best_split ? lbox : rbox, bins[*best_ax][k]);
}

/* The SAH sweeps of find_split, an axis at a time. */
static void PROX_FN(pbb_sweep)(PB_REAL bins[3][32][PB_LANES], uint32_t bcnt[32][4], int nb,
                               int axes, PB_REAL u, int *best_ax, int *best_split,
                               PB_REAL *best_cost) {
  enum { NB = 32 };
  int ax, k;
  for (ax = 0; ax < 3; ++ax) {
    PB_REAL rarea[NB], acc[PB_LANES], area = 0;
    uint32_t rcnt[NB], cnt;
    if (!(axes >> ax & 1)) continue;
    /* Sweep from the right: the area and count right of each split. */
    PROX_FN(pbb_box_empty)(acc);
    cnt = 0;
    for (k = nb - 1; k > 0; --k) {
      /* An empty bin changes nothing (its box is all +inf). */
      if (bcnt[k][ax]) {
        PROX_FN(pbb_box_add)(acc, bins[ax][k]);
        cnt += bcnt[k][ax];
        area = PROX_FN(pbb_half_area8)(acc, u);
      }
      rcnt[k] = cnt;
      rarea[k] = area;
    }
    PROX_FN(pbb_box_empty)(acc);
    cnt = 0;
    for (k = 0; k < nb - 1; ++k) {
      PB_REAL cost;
      /* A split after an empty bin has the sides, so the cost, of the
       * split before it, which was tried first and wins the tie (or had
       * an empty left side, as this one). */
      if (!bcnt[k][ax]) continue;
      PROX_FN(pbb_box_add)(acc, bins[ax][k]);
      cnt += bcnt[k][ax];
      if (rcnt[k + 1] == 0) continue;
      cost = PROX_FN(pbb_half_area8)(acc, u) * (PB_REAL)cnt + rarea[k + 1] * (PB_REAL)rcnt[k + 1];
      if (cost < *best_cost) {
        *best_cost = cost;
        *best_ax = ax;
        *best_split = k + 1;
      }
    }
  }
}

/* Sorts ids[b..e) increasingly (a leaf's, small). */
static void PROX_FN(pbb_sort_leaf)(uint32_t *ids, uint32_t b, uint32_t e) {
  uint32_t i, j;
  for (i = b + 1; i < e; ++i) {
    uint32_t x = ids[i];
    for (j = i; j > b && ids[j - 1] > x; --j)
      ids[j] = ids[j - 1];
    ids[j] = x;
  }
}

static void PROX_FN(pbb_make_leaf)(PROX_FN(pbb_ctx) * c, PROX_FN(pbb_node) * nd, uint32_t b,
                                   uint32_t e) {
  uint32_t i;
  nd->first_or_left = b;
  nd->count = e - b;
  for (i = b; i < e; ++i)
    c->ids[i] = PROX_FN(pbb_id)(c->prim + i);
  PROX_FN(pbb_sort_leaf)(c->ids, b, e);
}

/* Queues the subtree over [b, e) as a task; 0 when the queue is full
 * (it cannot be: every task but the first has spawn_min primitives of its
 * own). */
static int PROX_FN(pbb_push)(PROX_FN(pbb_ctx) * c, uint32_t idx, uint32_t b, uint32_t e, int depth,
                             const PROX_FN(pbb_bounds) * bd) {
  PROX_FN(pbb_task) * t;
  pthread_mutex_lock(&c->lock);
  if (c->n_tasks == c->cap_tasks) {
    pthread_mutex_unlock(&c->lock);
    return 0;
  }
  t = c->tasks + c->n_tasks++;
  t->idx = idx;
  t->b = b;
  t->e = e;
  t->depth = depth;
  t->bd = *bd;
  ++c->pending;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&c->lock);
  return 1;
}

/* The centroid boxes of a partition's two sides (8 lanes each, as
 * pbb_bounds' cbox), in registers where there is SIMD. */
typedef struct PROX_FN(pbb_cacc) {
#if defined(PB_V)
  PB_V l[PB_LANES / PB_VW], r[PB_LANES / PB_VW];
#else
  PB_REAL l[PB_LANES], r[PB_LANES];
#endif
} PROX_FN(pbb_cacc);

/* The split a partition makes: axis, bins and the first bin of the
 * right side (pbb_find_split's). */
typedef struct PROX_FN(pbb_cut) {
  int ax, nb, split;
  PB_REAL lo, scale;
} PROX_FN(pbb_cut);

/* 1 if primitive p goes left in cut, and its centroid merged into that
 * side's centroid box (the other side's merged with +inf: unchanged). */
static inline int PROX_FN(pbb_side)(PROX_FN(pbb_cacc) * a, const PROX_FN(pbb_prim) * p,
                                    const PROX_FN(pbb_cut) * cut) {
  PB_REAL cen[PB_LANES];
  int left, j;
  PROX_FN(pbb_centroid8)(p, cen);
  left = PROX_FN(pbb_bin)(cen[cut->ax], cut->lo, cut->scale, cut->nb) < cut->split;
#if defined(PB_V)
  {
    PB_V m = PB_VMASK(left), inf = PB_VSET1(PB_INF);
    for (j = 0; j < PB_LANES / PB_VW; ++j) {
      PB_V v = PB_VLOAD(cen + j * PB_VW);
      a->l[j] = PB_VMIN(PB_VSEL(m, v, inf), a->l[j]);
      a->r[j] = PB_VMIN(PB_VSEL(m, inf, v), a->r[j]);
    }
  }
#else
  (void)j;
  PROX_FN(pbb_box_add)(left ? a->l : a->r, cen);
#endif
  return left;
}

static void PROX_FN(pbb_swap)(PROX_FN(pbb_prim) * x, PROX_FN(pbb_prim) * y) {
  PROX_FN(pbb_prim) t = *x;
  *x = *y;
  *y = t;
}

/* Partitions [b, e) in place, the left side first, and returns where the
 * right side starts; lcb and rcb receive the sides' centroid boxes. No
 * branch on a primitive's side (they are as good as random): blocks of 64
 * at both ends record the offsets of the primitives on the wrong side,
 * which are then swapped in pairs (the block partition of Edelkamp and
 * Weiss, BlockQuicksort, 2016); fewer than 128 left are sided first and
 * their misplaced ones swapped. A primitive seen twice is merged twice,
 * which min does not mind. The same permutation with or without SIMD. */
static uint32_t PROX_FN(pbb_partition)(PROX_FN(pbb_prim) * pr, uint32_t b, uint32_t e,
                                       const PROX_FN(pbb_cut) * cut, PB_REAL *lcb, PB_REAL *rcb) {
  enum { BL = 64 };
  PROX_FN(pbb_cacc) a;
  unsigned char offl[2 * BL], offr[2 * BL], side[2 * BL];
  uint32_t i = b, j = e, nside; /* [b, i) left and [j, e) right, settled */
  int nl = 0, nr = 0, sl = 0, sr = 0, k, t;
#if defined(PB_V)
  for (k = 0; k < PB_LANES / PB_VW; ++k)
    a.l[k] = a.r[k] = PB_VSET1(PB_INF);
#else
  PROX_FN(pbb_box_empty)(a.l);
  PROX_FN(pbb_box_empty)(a.r);
#endif
  while (j - i >= 2 * BL) {
    if (nl == 0)
      for (sl = 0, k = 0; k < BL; ++k) {
        offl[nl] = (unsigned char)k;
        nl += !PROX_FN(pbb_side)(&a, pr + i + k, cut);
      }
    if (nr == 0)
      for (sr = 0, k = 0; k < BL; ++k) {
        offr[nr] = (unsigned char)k;
        nr += PROX_FN(pbb_side)(&a, pr + j - 1 - k, cut);
      }
    t = nl < nr ? nl : nr;
    for (k = 0; k < t; ++k)
      PROX_FN(pbb_swap)(pr + i + offl[sl + k], pr + j - 1 - offr[sr + k]);
    nl -= t;
    nr -= t;
    sl += t;
    sr += t;
    if (nl == 0) i += BL;
    if (nr == 0) j -= BL;
  }
  /* The rest: count the left ones, then swap the right ones before that
   * count with the left ones after it. */
  nside = 0;
  for (k = 0; k < (int)(j - i); ++k) {
    side[k] = (unsigned char)PROX_FN(pbb_side)(&a, pr + i + k, cut);
    nside += side[k];
  }
  nl = nr = 0;
  for (k = 0; k < (int)nside; ++k) {
    offl[nl] = (unsigned char)k;
    nl += !side[k];
  }
  for (k = (int)nside; k < (int)(j - i); ++k) {
    offr[nr] = (unsigned char)k;
    nr += side[k];
  }
  for (k = 0; k < nl; ++k)
    PROX_FN(pbb_swap)(pr + i + offl[k], pr + i + offr[k]);
#if defined(PB_V)
  for (k = 0; k < PB_LANES / PB_VW; ++k) {
    PB_VSTORE(lcb + k * PB_VW, a.l[k]);
    PB_VSTORE(rcb + k * PB_VW, a.r[k]);
  }
#else
  memcpy(lcb, a.l, sizeof a.l);
  memcpy(rcb, a.r, sizeof a.r);
#endif
  return i + nside;
}

/* Two binary nodes from cur (a chunk of PB_CHUNK more from the pool
 * where it has none left): the index of the first. The pool has room for
 * the root, a pad, the n - 1 pairs of children a binary tree over n
 * primitives has at most, and the unused end of each thread's last
 * chunk (prox_bvh_build sizes it). */
static uint32_t PROX_FN(pbb_new2)(PROX_FN(pbb_ctx) * c, PROX_FN(pbb_cursor) * cur) {
  uint32_t k;
  if (cur->end - cur->next < 2) {
    if (c->parallel) pthread_mutex_lock(&c->lock);
    cur->next = (uint32_t)c->bn_next;
    c->bn_next += PB_CHUNK;
    if (c->parallel) pthread_mutex_unlock(&c->lock);
    cur->end = cur->next + PB_CHUNK;
  }
  k = cur->next;
  cur->next += 2;
  return k;
}

/* Builds the subtree over [b, e) (bounds bd) at binary index idx (its
 * right part queued as a task where it is large and the build parallel). */
static void PROX_FN(pbb_build)(PROX_FN(pbb_ctx) * c, PROX_FN(pbb_cursor) * cur, uint32_t idx,
                               uint32_t b, uint32_t e, int depth, const PROX_FN(pbb_bounds) * bd) {
  PROX_FN(pbb_node) *nd = c->bn + idx;
  PROX_FN(pbb_bounds) lb, rb;
  uint32_t n = e - b, m, kid;
  int ax, best_ax = -1, best_split = 0, nb;
  PB_REAL best_cost = PB_INF, scale[3];
  for (ax = 0; ax < 3; ++ax) {
    nd->lo[ax] = bd->box[ax];
    nd->hi[ax] = -bd->box[4 + ax];
  }
  /* A split costs at least C_T (best_cost / area >= 0): a node of at
   * most C_T / C_I primitives that fits a leaf becomes one whatever its
   * best split, so its search is skipped (the tree is the same). */
  if ((int)n <= c->leaf_size && (PB_REAL)n * PB_COST_TRI <= PB_COST_TRAV) {
    PROX_FN(pbb_make_leaf)(c, nd, b, e);
    return;
  }
  /* Fewer bins for small nodes, where the sweeps would cost more than
   * the binning (a function of n only: the tree stays deterministic). */
  nb = n <= 16 ? 8 : n <= 128 ? 16 : 32;
  if (depth < PB_SAH_DEPTH) {
    PROX_FN(pbb_find_split)
    (c, b, e, bd, nb, &best_ax, &best_split, &best_cost, scale, lb.box, rb.box);
  }
  if (best_ax >= 0) {
    /* SAH: leaf cost n C_I against C_T + C_I (A_L n_L + A_R n_R) / A. */
    PB_REAL area = PROX_FN(pbb_half_area8)(bd->box, c->unit);
    PB_REAL split_cost = PB_COST_TRAV + PB_COST_TRI * (area > 0 ? best_cost / area : (PB_REAL)n);
    PROX_FN(pbb_cut) cut;
    if ((int)n <= c->leaf_size && (PB_REAL)n * PB_COST_TRI <= split_cost) {
      PROX_FN(pbb_make_leaf)(c, nd, b, e);
      return;
    }
    /* Partition: bins below best_split to the left (the same input gives
     * the same output); the sides' boxes came with the split, their
     * centroid boxes come with the partition. */
    cut.ax = best_ax;
    cut.nb = nb;
    cut.split = best_split;
    cut.lo = bd->cbox[best_ax];
    cut.scale = scale[best_ax];
    m = PROX_FN(pbb_partition)(c->prim, b, e, &cut, lb.cbox, rb.cbox);
    if (m == b || m == e) { /* cannot happen; be safe */
      m = b + n / 2;
      PROX_FN(pbb_bounds_of)(c, b, m, &lb);
      PROX_FN(pbb_bounds_of)(c, m, e, &rb);
    }
  } else {
    /* Coinciding centroids or too deep: the middle index. */
    if ((int)n <= c->leaf_size) {
      PROX_FN(pbb_make_leaf)(c, nd, b, e);
      return;
    }
    m = b + n / 2;
    PROX_FN(pbb_bounds_of)(c, b, m, &lb);
    PROX_FN(pbb_bounds_of)(c, m, e, &rb);
  }
  nd->count = 0;
  nd->first_or_left = kid = PROX_FN(pbb_new2)(c, cur);
  if (!(c->parallel && e - m >= c->spawn_min &&
        PROX_FN(pbb_push)(c, kid + 1, m, e, depth + 1, &rb)))
    PROX_FN(pbb_build)(c, cur, kid + 1, m, e, depth + 1, &rb);
  PROX_FN(pbb_build)(c, cur, kid, b, m, depth + 1, &lb);
}

/* A worker: takes tasks until none is waiting and none is running (a
 * running task may still queue more). */
static void PROX_FN(pbb_worker)(void *arg) {
  PROX_FN(pbb_ctx) *c = (PROX_FN(pbb_ctx) *)arg;
  PROX_FN(pbb_cursor) cur = {0, 0};
  pthread_mutex_lock(&c->lock);
  for (;;) {
    PROX_FN(pbb_task) t;
    while (c->next_task == c->n_tasks && c->pending > 0)
      pthread_cond_wait(&c->cv, &c->lock);
    if (c->next_task == c->n_tasks) break;
    t = c->tasks[c->next_task++];
    pthread_mutex_unlock(&c->lock);
    PROX_FN(pbb_build)(c, &cur, t.idx, t.b, t.e, t.depth, &t.bd);
    pthread_mutex_lock(&c->lock);
    if (--c->pending == 0) pthread_cond_broadcast(&c->cv);
  }
  pthread_mutex_unlock(&c->lock);
}

/* Float bounds rounded outward: above (hi) or below (lo) x, nearest
 * (pb_step_up in bvh_build.c: nextafterf without the call or a branch).
 * Rounding to nearest is symmetric, so the float below x is minus the
 * float above -x. */
static float PROX_FN(pbb_up)(PROX_REAL x) {
  float f = (float)x;
  return pb_step_up(f, (PROX_REAL)f < x);
}
static float PROX_FN(pbb_down)(PROX_REAL x) {
  return -PROX_FN(pbb_up)(-x);
}

/* Slot s's box from exact bounds (refit), rounded outward. */
static void PROX_FN(pbb_set_slot)(prox_bvh_node *out, int s, const PROX_REAL *lo,
                                  const PROX_REAL *hi) {
  out->lo_x[s] = PROX_FN(pbb_down)(lo[0]);
  out->lo_y[s] = PROX_FN(pbb_down)(lo[1]);
  out->lo_z[s] = PROX_FN(pbb_down)(lo[2]);
  out->hi_x[s] = PROX_FN(pbb_up)(hi[0]);
  out->hi_y[s] = PROX_FN(pbb_up)(hi[1]);
  out->hi_z[s] = PROX_FN(pbb_up)(hi[2]);
}

/* Slot s's box from a binary node's (already float, rounded outward).
 * A zero is stored as +0: the builder's merges (min) keep whichever zero
 * they met first, so the sign would depend on the order of merges that
 * are otherwise exact (bins merged in two sets, the threads' chunks). */
static void PROX_FN(pbb_set_slotb)(prox_bvh_node *out, int s, const PB_REAL *lo,
                                   const PB_REAL *hi) {
  out->lo_x[s] = lo[0] + PB_R(0.0);
  out->lo_y[s] = lo[1] + PB_R(0.0);
  out->lo_z[s] = lo[2] + PB_R(0.0);
  out->hi_x[s] = hi[0] + PB_R(0.0);
  out->hi_y[s] = hi[1] + PB_R(0.0);
  out->hi_z[s] = hi[2] + PB_R(0.0);
}

static void PROX_FN(pbb_empty_slot)(prox_bvh_node *out, int s) {
  out->lo_x[s] = out->lo_y[s] = out->lo_z[s] = INFINITY;
  out->hi_x[s] = out->hi_y[s] = out->hi_z[s] = -INFINITY;
  out->child[s] = PROX_BVH_NONE;
  out->count[s] = 0;
}

/* The binary children that binary node idx's 4-wide node takes: its two
 * children, then repeatedly the largest inner one opened, up to 4. u: the
 * SAH's unit (the builder's, pbb_unit of the root's box). */
static int PROX_FN(pbb_gather)(const PROX_FN(pbb_node) * bn, PB_REAL u, uint32_t idx,
                               uint32_t kids[4]) {
  int nk = 2, i;
  kids[0] = bn[idx].first_or_left;
  kids[1] = kids[0] + 1;
  while (nk < 4) {
    int best = -1;
    PB_REAL ba = -1;
    for (i = 0; i < nk; ++i) {
      const PROX_FN(pbb_node) *k = bn + kids[i];
      PB_REAL a;
      if (k->count) continue;
      a = PROX_FN(pbb_half_area)(k->lo, k->hi, u);
      if (a > ba) {
        ba = a;
        best = i;
      }
    }
    if (best < 0) break;
    {
      uint32_t open = kids[best];
      kids[best] = bn[open].first_or_left;
      kids[nk++] = kids[best] + 1;
    }
  }
  return nk;
}

/* A collapse shared among threads: the inner binary nodes that become
 * 4-wide nodes at level `lim` (the root's is 0), in preorder (at most 4^lim
 * of them), each the root of a subtree that a thread counts and later
 * writes from `start`; the levels above are counted and written by one
 * thread, which takes each subtree's count, leaves and depth as given. */
typedef struct PROX_FN(pbb_sub) {
  uint32_t idx, count, start;
  int depth;
  size_t leaves;
} PROX_FN(pbb_sub);

typedef struct PROX_FN(pbb_subs) {
  PROX_FN(pbb_sub) s[PB_SUBS];
  int n, k, lim, writing, next_job;
  const PROX_FN(pbb_node) * bn;
  PB_REAL unit; /* the SAH's unit, for pbb_gather */
  prox_bvh_node *out;
  pthread_mutex_t lock;
} PROX_FN(pbb_subs);

/* Counts (out NULL) or writes the 4-wide nodes of the binary subtree at
 * idx (inner, at 4-wide level `level`) in preorder from *next; returns
 * the depth below it. With subs, the inner children at subs->lim are not
 * entered: counting lists them, writing places them (their counts known). */
static int PROX_FN(pbb_collapse)(const PROX_FN(pbb_node) * bn, PB_REAL unit, uint32_t idx,
                                 prox_bvh_node *out, uint32_t *next, size_t *leaves, int level,
                                 PROX_FN(pbb_subs) * subs) {
  uint32_t kids[4], me = (*next)++;
  int nk = PROX_FN(pbb_gather)(bn, unit, idx, kids), i, depth = 1;
  /* The children's children, which their gathers read first: the
   * binary nodes are far apart, and the walk waits for each. */
  for (i = 0; i < nk; ++i)
    if (!bn[kids[i]].count) PB_PREFETCH(bn + bn[kids[i]].first_or_left);
  if (out) {
    memset(out + me, 0, sizeof *out);
    out[me].n_child = (uint8_t)nk;
    for (i = nk; i < 4; ++i)
      PROX_FN(pbb_empty_slot)(out + me, i);
  }
  for (i = 0; i < nk; ++i) {
    const PROX_FN(pbb_node) *k = bn + kids[i];
    if (out) PROX_FN(pbb_set_slotb)(out + me, i, k->lo, k->hi);
    if (k->count) {
      ++*leaves;
      if (out) {
        out[me].child[i] = k->first_or_left;
        out[me].count[i] = (uint8_t)k->count;
      }
    } else {
      uint32_t ci = *next;
      int d;
      if (subs && level + 1 == subs->lim) {
        PROX_FN(pbb_sub) *sb = subs->s + (out ? subs->k++ : subs->n++);
        if (!out) sb->idx = kids[i];
        sb->start = ci;
        *next += sb->count; /* 0 while listing */
        *leaves += sb->leaves;
        d = 1 + sb->depth;
      } else {
        d = 1 + PROX_FN(pbb_collapse)(bn, unit, kids[i], out, next, leaves, level + 1, subs);
      }
      if (d > depth) depth = d;
      if (out) {
        out[me].child[i] = ci;
        out[me].count[i] = 0;
      }
    }
  }
  return depth;
}

/* A worker of a shared collapse: counts, or writes, the listed subtrees
 * it takes. */
static void PROX_FN(pbb_sub_worker)(void *arg) {
  PROX_FN(pbb_subs) *u = (PROX_FN(pbb_subs) *)arg;
  for (;;) {
    PROX_FN(pbb_sub) * sb;
    uint32_t nx = 0;
    size_t lv = 0;
    int j;
    pthread_mutex_lock(&u->lock);
    j = u->next_job++;
    pthread_mutex_unlock(&u->lock);
    if (j >= u->n) return;
    sb = u->s + j;
    if (u->writing) {
      nx = sb->start;
      PROX_FN(pbb_collapse)(u->bn, u->unit, sb->idx, u->out, &nx, &lv, 0, NULL);
    } else {
      sb->depth = PROX_FN(pbb_collapse)(u->bn, u->unit, sb->idx, NULL, &nx, &lv, 0, NULL);
      sb->count = nx;
      sb->leaves = lv;
    }
  }
}

/* Runs the listed subtrees' counts or writes in `threads` threads. */
static void PROX_FN(pbb_sub_run)(PROX_FN(pbb_subs) * u, int threads) {
  u->next_job = 0;
  pthread_mutex_init(&u->lock, NULL);
  prox_mesh_detail_parallel(threads, PROX_FN(pbb_sub_worker), u);
  pthread_mutex_destroy(&u->lock);
}

/* Copies the triangles of every leaf from the mesh, through ids, into
 * the leaf blocks (layout in prox/detail/bvh_layout.h); returns the largest
 * coordinate magnitude. */
static PROX_REAL PROX_FN(pbb_copy_tris)(PROX_REAL *tri, const uint32_t *ids,
                                        const prox_bvh_node *nodes, size_t node_begin,
                                        size_t node_end, const PROX_FN(prox_mesh) * mesh) {
  size_t ni, n_tri = mesh->triangle_count;
  size_t vs = mesh->stride ? mesh->stride / sizeof(PROX_REAL) : 3;
  PROX_REAL mx = 0;
  for (ni = node_begin; ni < node_end; ++ni) {
    const prox_bvh_node *nd = nodes + ni;
    int s;
    for (s = 0; s < nd->n_child; ++s) {
      uint32_t first = nd->child[s], n = nd->count[s], j;
      PROX_REAL *b = tri + 9 * (size_t)first;
      if (!n) continue;
      for (j = 0; j < n; ++j) {
        size_t pos = (size_t)first + j;
        PROX_FN(prox_triangle) t;
        int k;
        /* The ids are in leaf order, the mesh's arrays in its own: fetch
         * ahead (the leaves come roughly in position order), the indices
         * of the triangle 16 positions on, the vertices of the one 8 on. */
        if (pos + PB_AHEAD < n_tri) PB_PREFETCH(mesh->indices + 3 * (size_t)ids[pos + PB_AHEAD]);
        if (pos + PB_AHEAD / 2 < n_tri) {
          const uint32_t *ix = mesh->indices + 3 * (size_t)ids[pos + PB_AHEAD / 2];
          for (k = 0; k < 3; ++k)
            PB_PREFETCH(mesh->vertices + vs * ix[k]);
        }
        t = PROX_FN(prox_mesh_triangle)(mesh, ids[pos]);
        for (k = 0; k < 3; ++k) {
          PROX_REAL a = PROX_FABS(t.v[k].x), bb = PROX_FABS(t.v[k].y), cc = PROX_FABS(t.v[k].z);
          b[(size_t)k * n + j] = t.v[k].x;
          b[(size_t)(3 + k) * n + j] = t.v[k].y;
          b[(size_t)(6 + k) * n + j] = t.v[k].z;
          if (a > mx) mx = a;
          if (bb > mx) mx = bb;
          if (cc > mx) mx = cc;
        }
      }
    }
  }
  return mx;
}

/* The primitives of triangles [b, e) of the mesh, and their bounds. */
static void PROX_FN(pbb_prims)(const PROX_FN(prox_mesh) * mesh, PROX_FN(pbb_prim) * prim, size_t b,
                               size_t e, PROX_FN(pbb_bounds) * bd) {
  size_t i;
  PROX_FN(pbb_bounds_empty)(bd);
  for (i = b; i < e; ++i) {
    PROX_FN(prox_triangle) tr = PROX_FN(prox_mesh_triangle)(mesh, (uint32_t)i);
    PROX_FN(pbb_prim) *p = prim + i;
    PROX_REAL lo[3], hi[3];
    int k, ax;
    lo[0] = hi[0] = tr.v[0].x;
    lo[1] = hi[1] = tr.v[0].y;
    lo[2] = hi[2] = tr.v[0].z;
    for (k = 1; k < 3; ++k) {
      PROX_REAL v[3];
      v[0] = tr.v[k].x;
      v[1] = tr.v[k].y;
      v[2] = tr.v[k].z;
      for (ax = 0; ax < 3; ++ax) {
        if (v[ax] < lo[ax]) lo[ax] = v[ax];
        if (v[ax] > hi[ax]) hi[ax] = v[ax];
      }
    }
    /* Rounded outward to float: the same for a float mesh; for a double
     * one, every bound the builder computes (min and max commute with a
     * monotone rounding) is the float box the nodes store anyway. */
    for (ax = 0; ax < 3; ++ax) {
      p->box[ax] = PROX_FN(pbb_down)(lo[ax]);
      p->box[4 + ax] = -PROX_FN(pbb_up)(hi[ax]);
    }
    PROX_FN(pbb_set_id)(p, (uint32_t)i);
    PROX_FN(pbb_bounds_add)(bd, p);
  }
}

/* The two passes over the mesh that do not depend on the tree's shape,
 * the primitives' setup (kind 0) and the triangles' copy into the leaves
 * (kind 1), in chunks that threads take in turn. The chunks' results
 * merge by min and max, exact, so in any order to the same values. */
typedef struct PROX_FN(pbb_pass) {
  int kind;
  const PROX_FN(prox_mesh) * mesh;
  PROX_FN(pbb_prim) * prim;
  PROX_FN(pbb_bounds) bounds;
  PROX_REAL *tri;
  const uint32_t *ids;
  const prox_bvh_node *nodes;
  PROX_REAL mx;
  size_t n, chunk, next;
  pthread_mutex_t lock;
} PROX_FN(pbb_pass);

static void PROX_FN(pbb_pass_worker)(void *arg) {
  PROX_FN(pbb_pass) *w = (PROX_FN(pbb_pass) *)arg;
  for (;;) {
    size_t a, b;
    PROX_FN(pbb_bounds) bd;
    PROX_REAL mx = 0;
    pthread_mutex_lock(&w->lock);
    a = w->next;
    w->next = a < w->n ? a + w->chunk : a;
    pthread_mutex_unlock(&w->lock);
    if (a >= w->n) return;
    b = w->n - a > w->chunk ? a + w->chunk : w->n;
    if (w->kind == 0)
      PROX_FN(pbb_prims)(w->mesh, w->prim, a, b, &bd);
    else
      mx = PROX_FN(pbb_copy_tris)(w->tri, w->ids, w->nodes, a, b, w->mesh);
    pthread_mutex_lock(&w->lock);
    if (w->kind == 0) {
      PROX_FN(pbb_box_add)(w->bounds.box, bd.box);
      PROX_FN(pbb_box_add)(w->bounds.cbox, bd.cbox);
    } else if (mx > w->mx) {
      w->mx = mx;
    }
    pthread_mutex_unlock(&w->lock);
  }
}

/* Runs a pass over n items (triangles, or 4-wide nodes, which hold about
 * 13 triangles each) with up to `threads` threads (one below 2 chunks). */
static void PROX_FN(pbb_run_pass)(PROX_FN(pbb_pass) * w, size_t n, int threads) {
  w->n = n;
  w->chunk = w->kind == 0 ? 16384 : 1024;
  w->next = 0;
  w->mx = 0;
  PROX_FN(pbb_bounds_empty)(&w->bounds);
  pthread_mutex_init(&w->lock, NULL);
  if (threads > 1 && n >= 2 * w->chunk)
    prox_mesh_detail_parallel(threads, PROX_FN(pbb_pass_worker), w);
  else
    PROX_FN(pbb_pass_worker)(w);
  pthread_mutex_destroy(&w->lock);
}

static void PROX_FN(pbb_set_view)(PROX_FN(prox_bvh) * t, PROX_REAL max_abs) {
  t->view.nodes = t->nodes;
  t->view.tri = t->tri;
  t->view.ids = t->ids;
  t->view.node_count = (uint32_t)t->node_count;
  t->view.triangle_count = (uint32_t)t->tri_count;
  t->view.max_abs = max_abs;
}

void PROX_FN(prox_bvh_free)(PROX_FN(prox_bvh) * t) {
  prox_allocator a;
  const prox_allocator *ap;
  if (!t) return;
  a = t->alloc;
  ap = t->has_alloc ? &a : NULL;
  prox_mesh_detail_free(ap, t->nodes, t->node_count * sizeof *t->nodes);
  prox_mesh_detail_free(ap, t->tri, 9 * t->tri_count * sizeof *t->tri);
  prox_mesh_detail_free(ap, t->ids, t->tri_count * sizeof *t->ids);
  prox_mesh_detail_free(ap, t, sizeof *t);
}

prox_status PROX_FN(prox_bvh_build)(const PROX_FN(prox_mesh) * mesh, const prox_bvh_options *opt,
                                    const prox_allocator *alloc, PROX_FN(prox_bvh) * *out,
                                    prox_error *err) {
  prox_bvh_options o = prox_bvh_options_default();
  prox_status st;
  PROX_FN(prox_bvh) *t = NULL;
  PROX_FN(pbb_prim) *prim = NULL;
  PROX_FN(pbb_bounds) root;
  PROX_FN(pbb_node) *bn = NULL;
  PROX_FN(pbb_task) *tasks = NULL;
  size_t n, i, cap_tasks = 0, n_bn = 0;
  PROX_FN(pbb_ctx) c;
  PROX_FN(pbb_pass) pass;
  PROX_FN(pbb_subs) subs;
  uint32_t next = 0;
  size_t leaves = 0;
  int threads, depth = 1;
  if (!out) return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  if (alloc && (!alloc->alloc || !alloc->free))
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "allocator without alloc or free");
  /* The binary nodes are numbered in 32 bits: 2 n of them and a chunk for
   * each thread (before validation, which would read every index). */
  if (mesh && mesh->triangle_count > PB_MAX_TRIANGLES)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_MESH,
                                  "%zu triangles: a tree holds at most %zu", mesh->triangle_count,
                                  (size_t)PB_MAX_TRIANGLES);
  st = PROX_FN(prox_mesh_validate)(mesh, err);
  if (st != PROX_OK) return st;
  if (opt) o = *opt;
  if (o.leaf_size < 0 || o.threads < 0)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "options: leaf_size %d, threads %d", o.leaf_size, o.threads);
  /* The default leaf size (prox/bvh.h): 16 in a float tree where the
   * closest-point leaf kernel takes 16 floats a step (AVX-512), else 8. */
  if (o.leaf_size == 0)
    o.leaf_size = !PROX_IS_DOUBLE && prox_simd_level() >= PROX_SIMD_AVX512 ? 16 : 8;
  if (o.leaf_size > PROX_BVH_MAX_LEAF) o.leaf_size = PROX_BVH_MAX_LEAF;
  threads = o.threads ? o.threads : prox_mesh_detail_cores();
  n = mesh->triangle_count;

  t = (PROX_FN(prox_bvh) *)prox_mesh_detail_alloc(alloc, sizeof *t);
  if (!t) goto oom;
  memset(t, 0, sizeof *t);
  if (alloc) {
    t->alloc = *alloc;
    t->has_alloc = 1;
  }
  t->tri_count = n;
  t->ids = (uint32_t *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n, sizeof *t->ids));
  if (!t->ids) goto oom;
  prim = (PROX_FN(pbb_prim) *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n, sizeof *prim));
  if (!prim) goto oom;
  /* The root, a pad (so that pairs of children share a cache line), the
   * n - 1 pairs of a binary tree's inner nodes at most, and the unused
   * end of each thread's last chunk: only what is used is written. */
  n_bn = 2 * n + ((size_t)(threads < PROX_MESH_MAX_THREADS ? threads : PROX_MESH_MAX_THREADS) + 1) *
                     PB_CHUNK;
  bn = (PROX_FN(pbb_node) *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n_bn, sizeof *bn));
  if (!bn) goto oom;

  memset(&pass, 0, sizeof pass);
  pass.kind = 0;
  pass.mesh = mesh;
  pass.prim = prim;
  PROX_FN(pbb_run_pass)(&pass, n, threads);
  root = pass.bounds;

  memset(&c, 0, sizeof c);
  c.prim = prim;
  c.ids = t->ids;
  c.bn = bn;
  c.bn_next = 2;
  c.leaf_size = o.leaf_size;
  {
    PB_REAL lo[3], hi[3];
    int ax;
    for (ax = 0; ax < 3; ++ax) {
      lo[ax] = root.box[ax];
      hi[ax] = -root.box[4 + ax];
    }
    c.unit = PROX_FN(pbb_unit)(lo, hi);
  }
  /* Tasks: which thread builds a subtree does not change it (see the top
   * of this file); spawn_min only sets the grain of the work. */
  c.spawn_min = 2048;
  if (threads > 1 && n >= 2 * (size_t)c.spawn_min) {
    cap_tasks = n / c.spawn_min + 2;
    tasks = (PROX_FN(pbb_task) *)prox_mesh_detail_alloc(
        alloc, prox_mesh_detail_mul(cap_tasks, sizeof *tasks));
    if (!tasks) goto oom;
    c.tasks = tasks;
    c.cap_tasks = cap_tasks;
    c.parallel = 1;
  }
  if (c.parallel) {
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cv, NULL);
    PROX_FN(pbb_push)(&c, 0, 0, (uint32_t)n, 1, &root);
    prox_mesh_detail_parallel(threads, PROX_FN(pbb_worker), &c);
    pthread_cond_destroy(&c.cv);
    pthread_mutex_destroy(&c.lock);
  } else {
    PROX_FN(pbb_cursor) cur = {0, 0};
    PROX_FN(pbb_build)(&c, &cur, 0, 0, (uint32_t)n, 1, &root);
  }
  prox_mesh_detail_free(alloc, prim, n * sizeof *prim);
  prim = NULL;

  /* Collapse: count, allocate, write (an array sized by a bound instead,
   * written once, took up to 128 more bytes a triangle at the peak with
   * leaves of one triangle). With threads, the subtrees below level
   * PB_SUB_LEVEL are counted and written in parallel, at the places the
   * counts give: the same nodes. */
  memset(&subs, 0, sizeof subs);
  if (threads > 1 && n >= PB_SUB_MIN) {
    subs.lim = PB_SUB_LEVEL;
    subs.bn = bn;
    subs.unit = c.unit;
  }
  if (bn[0].count) {
    t->node_count = 1;
  } else {
    next = 0;
    PROX_FN(pbb_collapse)(bn, c.unit, 0, NULL, &next, &leaves, 0, subs.lim ? &subs : NULL);
    if (subs.n) PROX_FN(pbb_sub_run)(&subs, threads);
    for (i = 0; i < (size_t)subs.n; ++i)
      next += subs.s[i].count;
    t->node_count = next;
  }
  t->nodes = (prox_bvh_node *)prox_mesh_detail_alloc(
      alloc, prox_mesh_detail_mul(t->node_count, sizeof *t->nodes));
  if (!t->nodes) goto oom;
  leaves = 0;
  if (bn[0].count) {
    memset(t->nodes, 0, sizeof *t->nodes);
    t->nodes[0].n_child = 1;
    PROX_FN(pbb_set_slotb)(t->nodes, 0, bn[0].lo, bn[0].hi);
    t->nodes[0].child[0] = 0;
    t->nodes[0].count[0] = (uint8_t)bn[0].count;
    for (i = 1; i < 4; ++i)
      PROX_FN(pbb_empty_slot)(t->nodes, (int)i);
    leaves = 1;
    depth = 1;
  } else {
    next = 0;
    depth =
        PROX_FN(pbb_collapse)(bn, c.unit, 0, t->nodes, &next, &leaves, 0, subs.lim ? &subs : NULL);
    if (subs.n) {
      subs.out = t->nodes;
      subs.writing = 1;
      PROX_FN(pbb_sub_run)(&subs, threads);
    }
  }
  t->leaves = leaves;
  t->depth = depth;
  prox_mesh_detail_free(alloc, tasks, cap_tasks * sizeof *tasks);
  tasks = NULL;
  prox_mesh_detail_free(alloc, bn, n_bn * sizeof *bn);
  bn = NULL;

  t->tri = (PROX_REAL *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n, 9 * sizeof *t->tri));
  if (!t->tri) goto oom;
  pass.kind = 1;
  pass.tri = t->tri;
  pass.ids = t->ids;
  pass.nodes = t->nodes;
  PROX_FN(pbb_run_pass)(&pass, t->node_count, threads);
  PROX_FN(pbb_set_view)(t, pass.mx);
  *out = t;
  prox_mesh_detail_ok(err);
  return PROX_OK;

oom:
  prox_mesh_detail_free(alloc, tasks, cap_tasks * sizeof *tasks);
  prox_mesh_detail_free(alloc, bn, n_bn * sizeof *bn);
  prox_mesh_detail_free(alloc, prim, n * sizeof *prim);
  PROX_FN(prox_bvh_free)(t);
  return prox_mesh_detail_error(err, PROX_ERROR_OUT_OF_MEMORY,
                                "out of memory building a tree of %zu "
                                "triangles",
                                n);
}

prox_status PROX_FN(prox_bvh_refit)(PROX_FN(prox_bvh) * t, const PROX_FN(prox_mesh) * mesh,
                                    prox_error *err) {
  prox_status st;
  size_t ni;
  PROX_REAL mx;
  if (!t) return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "tree is NULL");
  st = PROX_FN(prox_mesh_validate)(mesh, err);
  if (st != PROX_OK) return st;
  if (mesh->triangle_count != t->tri_count)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_MESH,
                                  "refit: mesh has %zu triangles, the tree %zu",
                                  mesh->triangle_count, t->tri_count);
  mx = PROX_FN(pbb_copy_tris)(t->tri, t->ids, t->nodes, 0, t->node_count, mesh);
  /* Preorder: children after parents, so backwards is bottom-up. */
  for (ni = t->node_count; ni-- > 0;) {
    prox_bvh_node *nd = t->nodes + ni;
    int s;
    for (s = 0; s < nd->n_child; ++s) {
      if (nd->count[s]) {
        PROX_REAL lo[3], hi[3];
        uint32_t pos, e = nd->child[s] + nd->count[s];
        int c, k;
        for (c = 0; c < 3; ++c) {
          lo[c] = PROX_INF;
          hi[c] = -PROX_INF;
        }
        for (pos = nd->child[s]; pos < e; ++pos)
          for (c = 0; c < 3; ++c)
            for (k = 0; k < 3; ++k) {
              PROX_REAL v = t->tri[9 * (size_t)nd->child[s] + (size_t)(3 * c + k) * nd->count[s] +
                                   (pos - nd->child[s])];
              if (v < lo[c]) lo[c] = v;
              if (v > hi[c]) hi[c] = v;
            }
        PROX_FN(pbb_set_slot)(nd, s, lo, hi);
      } else {
        const prox_bvh_node *ch = t->nodes + nd->child[s];
        float lo[3] = {INFINITY, INFINITY, INFINITY};
        float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        int k;
        for (k = 0; k < ch->n_child; ++k) {
          if (ch->lo_x[k] < lo[0]) lo[0] = ch->lo_x[k];
          if (ch->lo_y[k] < lo[1]) lo[1] = ch->lo_y[k];
          if (ch->lo_z[k] < lo[2]) lo[2] = ch->lo_z[k];
          if (ch->hi_x[k] > hi[0]) hi[0] = ch->hi_x[k];
          if (ch->hi_y[k] > hi[1]) hi[1] = ch->hi_y[k];
          if (ch->hi_z[k] > hi[2]) hi[2] = ch->hi_z[k];
        }
        nd->lo_x[s] = lo[0];
        nd->lo_y[s] = lo[1];
        nd->lo_z[s] = lo[2];
        nd->hi_x[s] = hi[0];
        nd->hi_y[s] = hi[1];
        nd->hi_z[s] = hi[2];
      }
    }
  }
  t->view.max_abs = mx;
  prox_mesh_detail_ok(err);
  return PROX_OK;
}

size_t PROX_FN(prox_bvh_memory)(const PROX_FN(prox_bvh) * t) {
  if (!t) return 0;
  return sizeof *t + t->node_count * sizeof *t->nodes + 9 * t->tri_count * sizeof *t->tri +
         t->tri_count * sizeof *t->ids;
}

void PROX_FN(prox_bvh_get_stats)(const PROX_FN(prox_bvh) * t, prox_bvh_stats *s) {
  if (!s) return;
  memset(s, 0, sizeof *s);
  if (!t) return;
  s->bytes = PROX_FN(prox_bvh_memory)(t);
  s->nodes = t->node_count;
  s->leaves = t->leaves;
  s->triangles = t->tri_count;
  s->depth = t->depth;
  s->bytes_per_triangle = (double)s->bytes / (double)t->tri_count;
}

void PROX_FN(prox_bvh_get_view)(const PROX_FN(prox_bvh) * t, PROX_FN(prox_bvh_view) * v) {
  if (!v) return;
  if (!t) {
    memset(v, 0, sizeof *v);
    return;
  }
  *v = t->view;
}
