/* SPDX-License-Identifier: MIT */
/* Template: the BVH builder and refit for one precision
 * (src/mesh/bvh_build.c). The layout it produces is described in
 * prox/detail/bvh_layout.h.
 *
 * Build: binned SAH (32 bins on the centroids, all three axes), top-down,
 * into a binary tree whose subtree over primitives [b, e) occupies the
 * binary nodes [base, base + 2 (e - b) - 1): each subtree's nodes and its
 * part of the permutation are disjoint from every other's, so subtrees
 * below a size fixed by n alone are built by worker threads without any
 * shared state, and the binary tree does not depend on which thread built
 * what. The binary tree is then collapsed into 4-wide nodes in depth-first
 * preorder (each node takes the children of its largest inner children
 * until it has 4), sequentially: the result is the same for any thread
 * count. Centroids that coincide on every axis, and depths past
 * PB_SAH_DEPTH, are split at the middle index, so the depth stays within
 * PROX_BVH_MAX_DEPTH and a million copies of one triangle build a balanced
 * tree. */

/* A binary node: its box (exact, in the mesh's precision); a leaf holds
 * primitives [first, first + count) of the permutation; an inner node its
 * children's binary indices. */
typedef struct PROX_FN(pbb_node) {
  PROX_REAL lo[3], hi[3];
  uint32_t first, count; /* count > 0: leaf */
  uint32_t left, right;
} PROX_FN(pbb_node);

typedef struct PROX_FN(pbb_task) {
  uint32_t idx, b, e;
  int depth;
} PROX_FN(pbb_task);

typedef struct PROX_FN(pbb_ctx) {
  const PROX_REAL *pbox; /* 6 per primitive: lo xyz, hi xyz */
  const PROX_REAL *pcen; /* 3 per primitive */
  uint32_t *perm;
  PROX_FN(pbb_node) * bn;
  int leaf_size;
  uint32_t task_min; /* subtrees below this many primitives become tasks */
  PROX_FN(pbb_task) * tasks;
  size_t n_tasks, cap_tasks;
  int deferring;
#if !defined(__STDC_NO_ATOMICS__)
  _Atomic size_t next_task;
#else
  size_t next_task;
  pthread_mutex_t lock;
#endif
} PROX_FN(pbb_ctx);

static PROX_REAL PROX_FN(pbb_half_area)(const PROX_REAL *lo, const PROX_REAL *hi) {
  PROX_REAL dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
  if (!(dx >= 0)) return 0; /* empty */
  return dx * dy + dy * dz + dz * dx;
}

/* Sorts perm[b..e) increasingly (a leaf's ids, small). */
static void PROX_FN(pbb_sort_leaf)(uint32_t *perm, uint32_t b, uint32_t e) {
  uint32_t i, j;
  for (i = b + 1; i < e; ++i) {
    uint32_t x = perm[i];
    for (j = i; j > b && perm[j - 1] > x; --j)
      perm[j] = perm[j - 1];
    perm[j] = x;
  }
}

static void PROX_FN(pbb_build)(PROX_FN(pbb_ctx) * c, uint32_t idx, uint32_t b, uint32_t e,
                               int depth);

static void PROX_FN(pbb_make_leaf)(PROX_FN(pbb_ctx) * c, PROX_FN(pbb_node) * nd, uint32_t b,
                                   uint32_t e) {
  nd->first = b;
  nd->count = e - b;
  nd->left = nd->right = PROX_BVH_NONE;
  PROX_FN(pbb_sort_leaf)(c->perm, b, e);
}

/* Builds the subtree over [b, e) at binary index idx (or records it as a
 * task when deferring and small enough). */
static void PROX_FN(pbb_build)(PROX_FN(pbb_ctx) * c, uint32_t idx, uint32_t b, uint32_t e,
                               int depth) {
  enum { NB = 32 };
  PROX_FN(pbb_node) *nd = c->bn + idx;
  uint32_t n = e - b, i, m;
  PROX_REAL clo[3], chi[3];
  int ax, best_ax = -1, best_split = 0, nb;
  PROX_REAL best_cost = PROX_INF;
  if (c->deferring && n < c->task_min && c->n_tasks < c->cap_tasks) {
    PROX_FN(pbb_task) *t = c->tasks + c->n_tasks++;
    t->idx = idx;
    t->b = b;
    t->e = e;
    t->depth = depth;
    return;
  }
  /* Box and centroid box. */
  for (ax = 0; ax < 3; ++ax) {
    nd->lo[ax] = clo[ax] = PROX_INF;
    nd->hi[ax] = chi[ax] = -PROX_INF;
  }
  for (i = b; i < e; ++i) {
    const PROX_REAL *pb = c->pbox + 6 * (size_t)c->perm[i];
    const PROX_REAL *pc = c->pcen + 3 * (size_t)c->perm[i];
    for (ax = 0; ax < 3; ++ax) {
      if (pb[ax] < nd->lo[ax]) nd->lo[ax] = pb[ax];
      if (pb[3 + ax] > nd->hi[ax]) nd->hi[ax] = pb[3 + ax];
      if (pc[ax] < clo[ax]) clo[ax] = pc[ax];
      if (pc[ax] > chi[ax]) chi[ax] = pc[ax];
    }
  }
  if (n == 1) {
    PROX_FN(pbb_make_leaf)(c, nd, b, e);
    return;
  }
  /* Fewer bins for small nodes, where the sweeps would cost more than
   * the binning (a function of n only: the tree stays deterministic). */
  nb = n <= 16 ? 8 : n <= 128 ? 16 : NB;
  if (depth < PB_SAH_DEPTH) {
    /* Binned SAH on each axis with a nonzero centroid extent. */
    for (ax = 0; ax < 3; ++ax) {
      PROX_REAL ext = chi[ax] - clo[ax], scale;
      PROX_REAL blo[NB][3], bhi[NB][3], rarea[NB];
      uint32_t bcnt[NB], rcnt[NB];
      PROX_REAL alo[3], ahi[3];
      int k, j;
      if (!(ext > 0)) continue;
      scale = (PROX_REAL)nb * (PROX_R(1.0) - PROX_R(4.0) * PROX_EPS) / ext;
      for (k = 0; k < nb; ++k) {
        bcnt[k] = 0;
        for (j = 0; j < 3; ++j) {
          blo[k][j] = PROX_INF;
          bhi[k][j] = -PROX_INF;
        }
      }
      for (i = b; i < e; ++i) {
        const PROX_REAL *pb = c->pbox + 6 * (size_t)c->perm[i];
        const PROX_REAL *pc = c->pcen + 3 * (size_t)c->perm[i];
        int bin = (int)((pc[ax] - clo[ax]) * scale);
        if (bin < 0) bin = 0;
        if (bin > nb - 1) bin = nb - 1;
        ++bcnt[bin];
        for (j = 0; j < 3; ++j) {
          if (pb[j] < blo[bin][j]) blo[bin][j] = pb[j];
          if (pb[3 + j] > bhi[bin][j]) bhi[bin][j] = pb[3 + j];
        }
      }
      /* Sweep from the right: the area and count right of each split. */
      for (j = 0; j < 3; ++j) {
        alo[j] = PROX_INF;
        ahi[j] = -PROX_INF;
      }
      {
        uint32_t cnt = 0;
        for (k = nb - 1; k > 0; --k) {
          for (j = 0; j < 3; ++j) {
            if (blo[k][j] < alo[j]) alo[j] = blo[k][j];
            if (bhi[k][j] > ahi[j]) ahi[j] = bhi[k][j];
          }
          cnt += bcnt[k];
          rcnt[k] = cnt;
          rarea[k] = PROX_FN(pbb_half_area)(alo, ahi);
        }
      }
      for (j = 0; j < 3; ++j) {
        alo[j] = PROX_INF;
        ahi[j] = -PROX_INF;
      }
      {
        uint32_t cnt = 0;
        for (k = 0; k < nb - 1; ++k) {
          PROX_REAL cost;
          for (j = 0; j < 3; ++j) {
            if (blo[k][j] < alo[j]) alo[j] = blo[k][j];
            if (bhi[k][j] > ahi[j]) ahi[j] = bhi[k][j];
          }
          cnt += bcnt[k];
          if (cnt == 0 || rcnt[k + 1] == 0) continue;
          cost = PROX_FN(pbb_half_area)(alo, ahi) * (PROX_REAL)cnt +
                 rarea[k + 1] * (PROX_REAL)rcnt[k + 1];
          if (cost < best_cost) {
            best_cost = cost;
            best_ax = ax;
            best_split = k + 1;
          }
        }
      }
    }
  }
  if (best_ax >= 0) {
    /* SAH: leaf cost n C_I against C_T + C_I (A_L n_L + A_R n_R) / A. */
    PROX_REAL area = PROX_FN(pbb_half_area)(nd->lo, nd->hi);
    PROX_REAL split_cost =
        PB_COST_TRAV + PB_COST_TRI * (area > 0 ? best_cost / area : (PROX_REAL)n);
    if ((int)n <= c->leaf_size && (PROX_REAL)n * PB_COST_TRI <= split_cost) {
      PROX_FN(pbb_make_leaf)(c, nd, b, e);
      return;
    }
    {
      PROX_REAL ext = chi[best_ax] - clo[best_ax];
      PROX_REAL scale = (PROX_REAL)nb * (PROX_R(1.0) - PROX_R(4.0) * PROX_EPS) / ext;
      uint32_t lo_i = b, hi_i = e;
      /* Partition: bins below best_split to the left (stable enough: the
       * same input gives the same output). */
      while (lo_i < hi_i) {
        const PROX_REAL *pc = c->pcen + 3 * (size_t)c->perm[lo_i];
        int bin = (int)((pc[best_ax] - clo[best_ax]) * scale);
        if (bin < 0) bin = 0;
        if (bin > nb - 1) bin = nb - 1;
        if (bin < best_split) {
          ++lo_i;
        } else {
          uint32_t tmp = c->perm[lo_i];
          c->perm[lo_i] = c->perm[--hi_i];
          c->perm[hi_i] = tmp;
        }
      }
      m = lo_i;
    }
    if (m == b || m == e) m = b + n / 2; /* cannot happen; be safe */
  } else {
    /* Coinciding centroids or too deep: the middle index. */
    if ((int)n <= c->leaf_size) {
      PROX_FN(pbb_make_leaf)(c, nd, b, e);
      return;
    }
    m = b + n / 2;
  }
  nd->count = 0;
  nd->first = b;
  nd->left = idx + 1;
  nd->right = idx + 2 * (m - b);
  PROX_FN(pbb_build)(c, nd->left, b, m, depth + 1);
  PROX_FN(pbb_build)(c, nd->right, m, e, depth + 1);
}

static void PROX_FN(pbb_worker)(void *arg) {
  PROX_FN(pbb_ctx) *c = (PROX_FN(pbb_ctx) *)arg;
  for (;;) {
    size_t t;
#if !defined(__STDC_NO_ATOMICS__)
    t = atomic_fetch_add(&c->next_task, 1);
#else
    pthread_mutex_lock(&c->lock);
    t = c->next_task++;
    pthread_mutex_unlock(&c->lock);
#endif
    if (t >= c->n_tasks) return;
    PROX_FN(pbb_build)
    (c, c->tasks[t].idx, c->tasks[t].b, c->tasks[t].e, c->tasks[t].depth);
  }
}

/* Float bounds rounded outward: below (lo) or above (hi) x, nearest. */
static float PROX_FN(pbb_down)(PROX_REAL x) {
  float f = (float)x;
  if ((PROX_REAL)f > x) f = nextafterf(f, -INFINITY);
  return f;
}
static float PROX_FN(pbb_up)(PROX_REAL x) {
  float f = (float)x;
  if ((PROX_REAL)f < x) f = nextafterf(f, INFINITY);
  return f;
}

static void PROX_FN(pbb_set_slot)(prox_bvh_node *out, int s, const PROX_REAL *lo,
                                  const PROX_REAL *hi) {
  out->lo_x[s] = PROX_FN(pbb_down)(lo[0]);
  out->lo_y[s] = PROX_FN(pbb_down)(lo[1]);
  out->lo_z[s] = PROX_FN(pbb_down)(lo[2]);
  out->hi_x[s] = PROX_FN(pbb_up)(hi[0]);
  out->hi_y[s] = PROX_FN(pbb_up)(hi[1]);
  out->hi_z[s] = PROX_FN(pbb_up)(hi[2]);
}

static void PROX_FN(pbb_empty_slot)(prox_bvh_node *out, int s) {
  out->lo_x[s] = out->lo_y[s] = out->lo_z[s] = INFINITY;
  out->hi_x[s] = out->hi_y[s] = out->hi_z[s] = -INFINITY;
  out->child[s] = PROX_BVH_NONE;
  out->count[s] = 0;
}

/* The binary children that binary node idx's 4-wide node takes: its two
 * children, then repeatedly the largest inner one opened, up to 4. */
static int PROX_FN(pbb_gather)(const PROX_FN(pbb_node) * bn, uint32_t idx, uint32_t kids[4]) {
  int nk = 2, i;
  kids[0] = bn[idx].left;
  kids[1] = bn[idx].right;
  while (nk < 4) {
    int best = -1;
    PROX_REAL ba = -1;
    for (i = 0; i < nk; ++i) {
      const PROX_FN(pbb_node) *k = bn + kids[i];
      PROX_REAL a;
      if (k->count) continue;
      a = PROX_FN(pbb_half_area)(k->lo, k->hi);
      if (a > ba) {
        ba = a;
        best = i;
      }
    }
    if (best < 0) break;
    {
      uint32_t open = kids[best];
      kids[best] = bn[open].left;
      kids[nk++] = bn[open].right;
    }
  }
  return nk;
}

/* Counts (out NULL) or writes the 4-wide nodes of the binary subtree at
 * idx (inner) in preorder from *next; returns the depth below it. */
static int PROX_FN(pbb_collapse)(const PROX_FN(pbb_node) * bn, uint32_t idx, prox_bvh_node *out,
                                 uint32_t *next, size_t *leaves) {
  uint32_t kids[4], me = (*next)++;
  int nk = PROX_FN(pbb_gather)(bn, idx, kids), i, depth = 1;
  if (out) {
    memset(out + me, 0, sizeof *out);
    out[me].n_child = (uint8_t)nk;
    for (i = nk; i < 4; ++i)
      PROX_FN(pbb_empty_slot)(out + me, i);
  }
  for (i = 0; i < nk; ++i) {
    const PROX_FN(pbb_node) *k = bn + kids[i];
    if (out) PROX_FN(pbb_set_slot)(out + me, i, k->lo, k->hi);
    if (k->count) {
      ++*leaves;
      if (out) {
        out[me].child[i] = k->first;
        out[me].count[i] = (uint8_t)k->count;
      }
    } else {
      uint32_t ci = *next;
      int d = 1 + PROX_FN(pbb_collapse)(bn, kids[i], out, next, leaves);
      if (d > depth) depth = d;
      if (out) {
        out[me].child[i] = ci;
        out[me].count[i] = 0;
      }
    }
  }
  return depth;
}

/* Copies the triangles of every leaf from the mesh, through ids, into
 * the leaf blocks (layout in prox/detail/bvh_layout.h); returns the largest
 * coordinate magnitude. */
static PROX_REAL PROX_FN(pbb_copy_tris)(PROX_REAL *tri, const uint32_t *ids,
                                        const prox_bvh_node *nodes, size_t node_count,
                                        const PROX_FN(prox_mesh) * mesh) {
  size_t ni;
  PROX_REAL mx = 0;
  for (ni = 0; ni < node_count; ++ni) {
    const prox_bvh_node *nd = nodes + ni;
    int s;
    for (s = 0; s < nd->n_child; ++s) {
      uint32_t first = nd->child[s], n = nd->count[s], j;
      PROX_REAL *b = tri + 9 * (size_t)first;
      if (!n) continue;
      for (j = 0; j < n; ++j) {
        PROX_FN(prox_triangle)
        t = PROX_FN(prox_mesh_triangle)(mesh, ids[first + j]);
        int k;
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
  PROX_REAL *pbox = NULL, *pcen = NULL;
  PROX_FN(pbb_node) *bn = NULL;
  PROX_FN(pbb_task) *tasks = NULL;
  size_t n, i, cap_tasks = 0, n_bn;
  PROX_FN(pbb_ctx) c;
  uint32_t next = 0;
  size_t leaves = 0;
  int threads, depth;
  if (!out) return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  if (alloc && (!alloc->alloc || !alloc->free))
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "allocator without alloc or free");
  st = PROX_FN(prox_mesh_validate)(mesh, err);
  if (st != PROX_OK) return st;
  if (opt) o = *opt;
  if (o.leaf_size < 1 || o.threads < 0)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "options: leaf_size %d, threads %d", o.leaf_size, o.threads);
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
  pbox = (PROX_REAL *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n, 6 * sizeof *pbox));
  if (!pbox) goto oom;
  pcen = (PROX_REAL *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n, 3 * sizeof *pcen));
  if (!pcen) goto oom;
  n_bn = 2 * n - 1;
  bn = (PROX_FN(pbb_node) *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n_bn, sizeof *bn));
  if (!bn) goto oom;

  for (i = 0; i < n; ++i) {
    PROX_FN(prox_triangle) tr = PROX_FN(prox_mesh_triangle)(mesh, (uint32_t)i);
    PROX_REAL *pb = pbox + 6 * i, *pc = pcen + 3 * i;
    int ax, k;
    for (ax = 0; ax < 3; ++ax) {
      PROX_REAL v0 = ax == 0 ? tr.v[0].x : ax == 1 ? tr.v[0].y : tr.v[0].z;
      pb[ax] = pb[3 + ax] = v0;
      for (k = 1; k < 3; ++k) {
        PROX_REAL v = ax == 0 ? tr.v[k].x : ax == 1 ? tr.v[k].y : tr.v[k].z;
        if (v < pb[ax]) pb[ax] = v;
        if (v > pb[3 + ax]) pb[3 + ax] = v;
      }
      /* The box's centre (halves first: no overflow). */
      pc[ax] = pb[ax] * PROX_R(0.5) + pb[3 + ax] * PROX_R(0.5);
    }
    t->ids[i] = (uint32_t)i;
  }

  memset(&c, 0, sizeof c);
  c.pbox = pbox;
  c.pcen = pcen;
  c.perm = t->ids;
  c.bn = bn;
  c.leaf_size = o.leaf_size;
  /* Tasks: a size fixed by n alone (the tree does not depend on it, only
   * the division of the work). */
  c.task_min = (uint32_t)(n / 64 > 4096 ? n / 64 : 4096);
  if (threads > 1 && n > 2 * (size_t)c.task_min) {
    cap_tasks = 4 * (n / c.task_min) + 8;
    tasks = (PROX_FN(pbb_task) *)prox_mesh_detail_alloc(
        alloc, prox_mesh_detail_mul(cap_tasks, sizeof *tasks));
    if (!tasks) goto oom;
    c.tasks = tasks;
    c.cap_tasks = cap_tasks;
    c.deferring = 1;
  }
#if defined(__STDC_NO_ATOMICS__)
  pthread_mutex_init(&c.lock, NULL);
#endif
  PROX_FN(pbb_build)(&c, 0, 0, (uint32_t)n, 1);
  if (c.deferring) {
    c.deferring = 0;
    prox_mesh_detail_parallel(threads, PROX_FN(pbb_worker), &c);
    /* Inner nodes above the tasks were given their boxes from their
     * primitives directly, before the tasks ran: nothing to fix. */
  }
#if defined(__STDC_NO_ATOMICS__)
  pthread_mutex_destroy(&c.lock);
#endif

  /* Collapse: count, allocate, write. */
  if (bn[0].count) {
    t->node_count = 1;
  } else {
    next = 0;
    PROX_FN(pbb_collapse)(bn, 0, NULL, &next, &leaves);
    t->node_count = next;
  }
  t->nodes = (prox_bvh_node *)prox_mesh_detail_alloc(
      alloc, prox_mesh_detail_mul(t->node_count, sizeof *t->nodes));
  if (!t->nodes) goto oom;
  leaves = 0;
  if (bn[0].count) {
    memset(t->nodes, 0, sizeof *t->nodes);
    t->nodes[0].n_child = 1;
    PROX_FN(pbb_set_slot)(t->nodes, 0, bn[0].lo, bn[0].hi);
    t->nodes[0].child[0] = 0;
    t->nodes[0].count[0] = (uint8_t)bn[0].count;
    for (i = 1; i < 4; ++i)
      PROX_FN(pbb_empty_slot)(t->nodes, (int)i);
    leaves = 1;
    depth = 1;
  } else {
    next = 0;
    depth = PROX_FN(pbb_collapse)(bn, 0, t->nodes, &next, &leaves);
  }
  t->leaves = leaves;
  t->depth = depth;
  prox_mesh_detail_free(alloc, tasks, cap_tasks * sizeof *tasks);
  tasks = NULL;
  prox_mesh_detail_free(alloc, bn, n_bn * sizeof *bn);
  bn = NULL;
  prox_mesh_detail_free(alloc, pcen, 3 * n * sizeof *pcen);
  pcen = NULL;
  prox_mesh_detail_free(alloc, pbox, 6 * n * sizeof *pbox);
  pbox = NULL;

  t->tri = (PROX_REAL *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(n, 9 * sizeof *t->tri));
  if (!t->tri) goto oom;
  PROX_FN(pbb_set_view)
  (t, PROX_FN(pbb_copy_tris)(t->tri, t->ids, t->nodes, t->node_count, mesh));
  *out = t;
  prox_mesh_detail_ok(err);
  return PROX_OK;

oom:
  prox_mesh_detail_free(alloc, tasks, cap_tasks * sizeof *tasks);
  prox_mesh_detail_free(alloc, bn, (2 * n - 1) * sizeof *bn);
  prox_mesh_detail_free(alloc, pcen, 3 * n * sizeof *pcen);
  prox_mesh_detail_free(alloc, pbox, 6 * n * sizeof *pbox);
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
  mx = PROX_FN(pbb_copy_tris)(t->tri, t->ids, t->nodes, t->node_count, mesh);
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
