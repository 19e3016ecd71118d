/* SPDX-License-Identifier: MIT */
/* Template: the closest-point traversal of a BVH view, once per precision.
 *
 * Included by prox/bvh.h (the header-only, device-callable form: leaves
 * evaluated by prox_point_triangle() in a loop) and again by
 * src/mesh/bvh_query.c with PROX_BVHQ_CUSTOM defined and its own
 * PROX_BVHQ_NAME, PROX_BVHQ_QUAL and PROX_BVHQ_LEAF (the SIMD leaf kernel of
 * prox/batch.h), so that both forms are one traversal. Both give the same
 * answers: the minimum and the lowest index among ties do not depend on
 * the order of the visit or on which kernel evaluates a leaf (the SIMD
 * leaf kernels give prox_point_triangle()'s bits).
 *
 * Pruning. A box is skipped only when the kernel's error bound proves that
 * every triangle inside is strictly worse than the current best b. The
 * bound used is of the form of the error near the surface, where most
 * queries end: prox_point_triangle()'s squared distance is within
 * K eps S d + K'' eps d^2 + K' eps^2 S^2 of the true one (S the largest
 * coordinate magnitude, d the true distance): its closest point is within
 * a few eps S of the exact one across the normal (the vertex, edge and face
 * points; the face normal's direction within about 20 eps since the
 * kernel takes it at the vertex with the largest sine, sin^2 >= 1/8) and
 * within second-order terms along it, and the squares and sums add a few
 * eps d^2. tests/test_closest.c asserts the error within 8 of
 * eps (S d + d^2) + 8 eps^2 S^2 on every point-triangle case (largest seen
 * at test scales 1 to 4: 3.0 in double, 2.6 in float; with eps^2 S^2 alone
 * a float case at d = 2 eps S, where the error is the closest point's
 * rounding squared, reached 7.5); here
 * K = 128, K' = 4096, K'' = 16: 16x, 64x and 2x the asserted K = 8,
 * K' = 64, K'' = 8. A
 * triangle whose kernel distance is <= b then has d <= (sqrt(b + K' eps^2
 * S^2) + K eps S) / (1 - K'' eps), and the box's squared distance is
 * computed with a relative error of at most 3 eps: so a box whose computed
 * distance exceeds (sqrt(b + 4096 (eps S)^2) + 128 eps S)^2 (1 + 64 eps)
 * holds no triangle whose kernel distance is <= b (ties included). Near
 * the surface this is far below the earlier b + 128 eps S^2 (in float,
 * 1.5e-5 S^2, a large part of b at 1% of S from the surface), which
 * rested on the kernel's 8 eps max(S, d)^2. */

/* Called when a leaf improves the best (its triangle at position pos):
 * the compiled signed distance fetches its record there. */
#ifndef PROX_BVHQ_IMPROVED
#define PROX_BVHQ_IMPROVED(view, pos) ((void)0)
#endif

/* The 4 box distances of a node into d[] and, as bits (slot i: bit i),
 * the used slots whose distance is within thr; the compiled form may give
 * its own (SIMD, the same values). */
#ifndef PROX_BVHQ_VALID4
#define PROX_BVHQ_VALID4(nd, p, thr, d) PROX_FN(prox_bvh_detail_valid4)(nd, p, thr, d)
#endif

#ifndef PROX_BVHQ_CUSTOM
#define PROX_BVHQ_NAME(name) PROX_FN(name)
#define PROX_BVHQ_QUAL PROX_HD static inline
/* The minimum of the kernel over the n triangles at positions first..,
 * the lowest position of it in *pos (when below +inf or equal to it). */
#define PROX_BVHQ_LEAF(view, p, first, n, pos)                                                     \
  PROX_FN(prox_bvh_detail_leaf_scalar)(view, p, first, n, pos)
#define PROX_BVHQ_DEFAULTS 1
#ifndef PROX_BVHQ_PREFETCH
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
/* A hint to fetch the cache line at a (no effect on results). */
#define PROX_BVHQ_PREFETCH(a) __builtin_prefetch(a)
#else
#define PROX_BVHQ_PREFETCH(a) ((void)(a))
#endif
#endif

/// Internal: the triangle at position pos of the leaf of n triangles that
/// starts at position first.
PROX_HD static inline PROX_FN(prox_triangle)
    PROX_FN(prox_bvh_detail_tri)(const PROX_FN(prox_bvh_view) * v, uint32_t first, uint32_t n,
                                 uint32_t pos) {
  const PROX_REAL *b = v->tri + 9 * (size_t)first + (pos - first);
  PROX_FN(prox_triangle) t;
  int k;
  for (k = 0; k < 3; ++k) {
    t.v[k].x = b[(size_t)k * n];
    t.v[k].y = b[(size_t)(3 + k) * n];
    t.v[k].z = b[(size_t)(6 + k) * n];
  }
  return t;
}

/// Internal: the portable leaf loop (prox_point_triangle per triangle,
/// first strict minimum).
PROX_HD static inline PROX_REAL
PROX_FN(prox_bvh_detail_leaf_scalar)(const PROX_FN(prox_bvh_view) * v, PROX_FN(prox_vec3) p,
                                     uint32_t first, uint32_t n, uint32_t *pos) {
  PROX_REAL best = PROX_INF;
  uint32_t i;
  *pos = first;
  for (i = first; i < first + n; ++i) {
    PROX_FN(prox_triangle) t = PROX_FN(prox_bvh_detail_tri)(v, first, n, i);
    PROX_REAL d = PROX_FN(prox_point_triangle)(p, &t, NULL);
    if (d < best) {
      best = d;
      *pos = i;
    }
  }
  return best;
}

/// Internal: a triangle's position and its leaf (first position, count).
typedef struct PROX_FN(prox_bvh_detail_hit) {
  uint32_t pos, first, count;
} PROX_FN(prox_bvh_detail_hit);

/// Internal: whether a leaf's minimum dl, at position pos, beats the best
/// so far (best, at position hit->pos, PROX_BVH_NONE when none): smaller,
/// or equal with a lower triangle index (the indices are read only then).
PROX_HD static inline int
PROX_FN(prox_bvh_detail_better)(const PROX_FN(prox_bvh_view) * v, PROX_REAL dl, PROX_REAL best,
                                uint32_t pos, const PROX_FN(prox_bvh_detail_hit) * hit) {
  return dl < best || (dl == best && (hit->pos == PROX_BVH_NONE || v->ids[pos] < v->ids[hit->pos]));
}

/// Internal: the unit of the pruning test for query point p (see above):
/// eps S, S the largest coordinate magnitude of p and the mesh.
PROX_HD static inline PROX_REAL PROX_FN(prox_bvh_detail_slack)(const PROX_FN(prox_bvh_view) * v,
                                                               PROX_FN(prox_vec3) p) {
  PROX_REAL s = v->max_abs;
  PROX_REAL a = PROX_FABS(p.x), b = PROX_FABS(p.y), c = PROX_FABS(p.z);
  if (a > s) s = a;
  if (b > s) s = b;
  if (c > s) s = c;
  return PROX_EPS * s;
}

/// Internal: the threshold at which a box of computed squared distance
/// above it is pruned, for the best squared distance b and the unit
/// es = eps S (see above): (sqrt(b + 4096 es^2) + 128 es)^2 (1 + 64 eps).
PROX_HD static inline PROX_REAL PROX_FN(prox_bvh_detail_thr)(PROX_REAL b, PROX_REAL es) {
  PROX_REAL r = PROX_SQRT(b + PROX_R(4096.0) * (es * es)) + PROX_R(128.0) * es;
  return r * r * (PROX_R(1.0) + PROX_R(64.0) * PROX_EPS);
}

/// Internal: squared distances of p to the 4 boxes of a node into d[]
/// (+inf for an empty slot, whose box is empty: lo = +inf, hi = -inf).
/// Branch-free, so that compilers can vectorise it.
PROX_HD static inline void PROX_FN(prox_bvh_detail_boxd4)(const prox_bvh_node *nd,
                                                          PROX_FN(prox_vec3) p, PROX_REAL d[4]) {
  int i;
  for (i = 0; i < 4; ++i) {
    PROX_REAL dx = (PROX_REAL)nd->lo_x[i] - p.x, ex = p.x - (PROX_REAL)nd->hi_x[i];
    PROX_REAL dy = (PROX_REAL)nd->lo_y[i] - p.y, ey = p.y - (PROX_REAL)nd->hi_y[i];
    PROX_REAL dz = (PROX_REAL)nd->lo_z[i] - p.z, ez = p.z - (PROX_REAL)nd->hi_z[i];
    dx = ex > dx ? ex : dx;
    dy = ey > dy ? ey : dy;
    dz = ez > dz ? ez : dz;
    dx = dx > 0 ? dx : 0;
    dy = dy > 0 ? dy : 0;
    dz = dz > 0 ? dz : 0;
    d[i] = (dx * dx + dy * dy) + dz * dz;
  }
}

/// Internal: the box distances of a node into d[] (boxd4) and, as bits,
/// the slots below n_child whose distance is <= thr.
PROX_HD static inline int PROX_FN(prox_bvh_detail_valid4)(const prox_bvh_node *nd,
                                                          PROX_FN(prox_vec3) p, PROX_REAL thr,
                                                          PROX_REAL d[4]) {
  int i, mask = 0;
  PROX_FN(prox_bvh_detail_boxd4)(nd, p, d);
  for (i = 0; i < 4; ++i)
    mask |= ((i < nd->n_child) & (d[i] <= thr)) << i;
  return mask;
}

/// Internal: a hint to fetch what a slot of `count` and `child` leads to
/// (a node's 2 lines, a leaf's first 4; child 0, the start of an array,
/// for a slot that is skipped); no effect on results.
PROX_HD static inline void PROX_FN(prox_bvh_detail_fetch)(const PROX_FN(prox_bvh_view) * v,
                                                          uint8_t count, uint32_t child) {
  const char *a =
      count ? (const char *)(v->tri + 9 * (size_t)child) : (const char *)(v->nodes + child);
  PROX_BVHQ_PREFETCH(a);
  PROX_BVHQ_PREFETCH(a + 64);
  PROX_BVHQ_PREFETCH(a + 128);
  PROX_BVHQ_PREFETCH(a + 192);
}

/// Internal: squared distance of p to slot i's box of a node.
PROX_HD static inline PROX_REAL PROX_FN(prox_bvh_detail_boxd)(const prox_bvh_node *nd, int i,
                                                              PROX_FN(prox_vec3) p) {
  PROX_REAL d[4];
  PROX_FN(prox_bvh_detail_boxd4)(nd, p, d);
  return d[i];
}
#endif

/// Internal: the nearest triangle to p within max_sqdist: returns its
/// squared distance (max_sqdist when none) and its position and leaf in
/// *hit (pos PROX_BVH_NONE when none). hit->pos, when not PROX_BVH_NONE on
/// entry, is a triangle to try first (with its leaf). p must be finite and
/// max_sqdist not NaN.
PROX_BVHQ_QUAL PROX_REAL
PROX_BVHQ_NAME(prox_bvh_detail_nearest)(const PROX_FN(prox_bvh_view) * v, PROX_FN(prox_vec3) p,
                                        PROX_REAL max_sqdist, PROX_FN(prox_bvh_detail_hit) * hit) {
  /* One slot more than the stack needs: where skipped children go. */
  uint32_t stack_node[PROX_BVH_STACK + 1];
  uint8_t stack_cnt[PROX_BVH_STACK + 1];
  PROX_REAL stack_d[PROX_BVH_STACK + 1];
  int top = 0;
  PROX_REAL slack = PROX_FN(prox_bvh_detail_slack)(v, p);
  PROX_REAL best = max_sqdist;
  PROX_REAL thr;
  if (hit->pos != PROX_BVH_NONE) {
    PROX_FN(prox_triangle)
    t = PROX_FN(prox_bvh_detail_tri)(v, hit->first, hit->count, hit->pos);
    PROX_REAL d = PROX_FN(prox_point_triangle)(p, &t, NULL);
    if (d <= best)
      best = d;
    else
      hit->pos = PROX_BVH_NONE;
  }
  thr = PROX_FN(prox_bvh_detail_thr)(best, slack);
  stack_node[0] = 0;
  stack_cnt[0] = 0;
  stack_d[0] = 0;
  top = 1;
  while (top > 0) {
    const prox_bvh_node *nd;
    PROX_REAL d[4];
    int valid[4], m = 0, i, j, mask;
    --top;
    if (stack_d[top] > thr) continue;
    if (stack_cnt[top]) {
      /* A leaf, popped nearest first. The triangle indices (for ties)
       * are read only at a tie. */
      uint32_t pos, first = stack_node[top], cnt = stack_cnt[top];
      PROX_REAL dl = PROX_BVHQ_LEAF(v, p, first, cnt, &pos);
      if (PROX_FN(prox_bvh_detail_better)(v, dl, best, pos, hit)) {
        best = dl;
        hit->pos = pos;
        hit->first = first;
        hit->count = cnt;
        thr = PROX_FN(prox_bvh_detail_thr)(best, slack);
        /* The answer reads the triangle's id: fetched while the walk goes
         * on instead of a cache miss after it. */
        PROX_BVHQ_PREFETCH(v->ids + pos);
        PROX_BVHQ_IMPROVED(v, pos);
      }
      continue;
    }
    nd = v->nodes + stack_node[top];
    mask = PROX_BVHQ_VALID4(nd, p, thr, d);
    if (!(mask & (mask - 1))) {
      /* Most nodes once the bound is tight: one child within it or none. */
      if (mask) {
        i = (mask >> 1) - (mask >> 3); /* the bit's index: 1, 2, 4, 8 -> 0 .. 3 */
        PROX_FN(prox_bvh_detail_fetch)(v, nd->count[i], nd->child[i]);
        stack_node[top] = nd->child[i];
        stack_cnt[top] = nd->count[i];
        stack_d[top] = d[i];
        ++top;
      }
      continue;
    }
    /* The children within the threshold, pushed farthest first (ties: the
     * lower slot first) so that the nearest is popped next, without a
     * data-dependent branch: each child's place is its rank among them,
     * and the others go to a slot past the stack's end. */
    for (i = 0; i < 4; ++i)
      valid[i] = (mask >> i) & 1;
    for (i = 0; i < 4; ++i) {
      int rank = 0, at;
      for (j = 0; j < 4; ++j)
        rank += valid[j] & ((d[j] > d[i]) | ((d[j] == d[i]) & (j < i)));
      PROX_FN(prox_bvh_detail_fetch)(v, nd->count[i], valid[i] ? nd->child[i] : 0);
      at = valid[i] ? top + rank : PROX_BVH_STACK;
      stack_node[at] = nd->child[i];
      stack_cnt[at] = nd->count[i];
      stack_d[at] = d[i];
      m += valid[i];
    }
    top += m;
  }
  return best;
}

#if defined(PROX_BVHQ_DEFAULTS)
/// Internal: fills a found closest point from the winning position pos
/// (squared distance d) and the kernel's result r on its triangle.
PROX_HD static inline void PROX_FN(prox_bvh_detail_fill_found)(const PROX_FN(prox_bvh_view) * v,
                                                               PROX_REAL d, uint32_t pos,
                                                               const PROX_FN(prox_closest) * r,
                                                               PROX_FN(prox_mesh_closest) * out) {
  out->found = 1;
  out->triangle = v->ids[pos];
  out->sqdist = d;
  out->point = r->point;
  out->bary[0] = r->param[0];
  out->bary[1] = r->param[1];
  out->bary[2] = r->param[2];
  out->feature = r->feature;
}

/// Internal: fills a closest-point result from the winning position.
PROX_HD static inline PROX_REAL
PROX_FN(prox_bvh_detail_fill)(const PROX_FN(prox_bvh_view) * v, PROX_FN(prox_vec3) p, PROX_REAL d,
                              const PROX_FN(prox_bvh_detail_hit) * hit,
                              PROX_FN(prox_mesh_closest) * out) {
  PROX_FN(prox_closest) r;
  PROX_FN(prox_triangle) t;
  if (!hit || hit->pos == PROX_BVH_NONE) {
    if (out) {
      out->found = 0;
      out->triangle = PROX_BVH_NONE;
      out->sqdist = d;
      out->point = PROX_FN(prox_v3)(PROX_NAN, PROX_NAN, PROX_NAN);
      out->bary[0] = out->bary[1] = out->bary[2] = PROX_NAN;
      out->feature.kind = PROX_FEATURE_NONE;
      out->feature.index = 0;
    }
    return d;
  }
  if (!out) return d;
  t = PROX_FN(prox_bvh_detail_tri)(v, hit->first, hit->count, hit->pos);
  PROX_FN(prox_point_triangle)(p, &t, &r);
  PROX_FN(prox_bvh_detail_fill_found)(v, d, hit->pos, &r, out);
  return d;
}

/* prox_bvh_view_closest(), declared with its contract in prox/bvh.h. */
PROX_HD static inline PROX_REAL PROX_FN(prox_bvh_view_closest)(const PROX_FN(prox_bvh_view) * v,
                                                               PROX_FN(prox_vec3) p,
                                                               PROX_REAL max_sqdist,
                                                               PROX_FN(prox_mesh_closest) * out) {
  PROX_FN(prox_bvh_detail_hit) hit;
  PROX_REAL d;
  if (!(PROX_FABS(p.x) <= PROX_REAL_MAX && PROX_FABS(p.y) <= PROX_REAL_MAX &&
        PROX_FABS(p.z) <= PROX_REAL_MAX) ||
      max_sqdist != max_sqdist)
    return PROX_FN(prox_bvh_detail_fill)(v, p, PROX_NAN, NULL, out);
  hit.pos = hit.first = hit.count = PROX_BVH_NONE;
  d = PROX_FN(prox_bvh_detail_nearest)(v, p, max_sqdist, &hit);
  return PROX_FN(prox_bvh_detail_fill)(v, p, d, &hit, out);
}

#undef PROX_BVHQ_NAME
#undef PROX_BVHQ_QUAL
#undef PROX_BVHQ_LEAF
#undef PROX_BVHQ_DEFAULTS
#endif
#undef PROX_BVHQ_VALID4
#undef PROX_BVHQ_IMPROVED
