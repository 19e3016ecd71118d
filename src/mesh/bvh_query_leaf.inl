/* SPDX-License-Identifier: MIT */
/* Template, once per precision: the pieces of the compiled closest-point
 * walk that every instantiation of prox/detail/bvh_query.inl in src/mesh/
 * shares (the queries of bvh_query_impl.inl, the signed distance of
 * sign_impl.inl): the SIMD leaf and the SSE2 node test. Defines
 * PROX_BVHQ_VALID4 for the walk (where SSE2 is there; the walk #undefs
 * it) and PBQ_BOXD4 for other loops (the includer #undefs it). */

/* 1 when every coordinate of p is finite. */
static inline int PROX_FN(pbq_finite)(PROX_FN(prox_vec3) p) {
  return PROX_FABS(p.x) <= PROX_REAL_MAX && PROX_FABS(p.y) <= PROX_REAL_MAX &&
         PROX_FABS(p.z) <= PROX_REAL_MAX;
}

/* The leaf: prox_point_triangles_soa (dispatched to AVX2/AVX-512 or the
 * scalar loop; the same bits at every level). */
static inline PROX_REAL PROX_FN(pbq_leaf)(const PROX_FN(prox_bvh_view) * v, PROX_FN(prox_vec3) p,
                                          uint32_t first, uint32_t n, uint32_t *pos) {
  PROX_FN(prox_triangle_soa) s;
  size_t bi = 0;
  PROX_REAL d;
  int k;
  const PROX_REAL *b = v->tri + 9 * (size_t)first;
  for (k = 0; k < 3; ++k) {
    s.x[k] = b + (size_t)k * n;
    s.y[k] = b + (size_t)(3 + k) * n;
    s.z[k] = b + (size_t)(6 + k) * n;
  }
  d = PROX_FN(prox_point_triangles_soa)(p, &s, n, &bi, NULL);
  *pos = first + (uint32_t)bi;
  return d;
}

/* The leaf for the points of q in the mask m at once (a packet's points,
 * bvh_query_packet.inl) by the SIMD level's kernel for several points,
 * which makes each block's triangle part once: into best[i] and pos[i]
 * for each i of m, the values pbq_leaf gives for q[i]. 0 (and nothing
 * written) where the level has no such kernel (scalar). */
static inline int PROX_FN(pbq_leaf_multi)(const PROX_FN(prox_bvh_view) * v,
                                          const PROX_FN(prox_vec3) * q, int m, uint32_t first,
                                          uint32_t n, PROX_REAL *best, uint32_t *pos) {
  const prox_simd_batch *t = prox_simd_table_get()->batch;
  PROX_FN(prox_triangle_soa) s;
  PROX_FN(prox_vec3) pts[8];
  PROX_REAL b[8];
  size_t bi[8];
  int k, np = 0, at[8];
  const PROX_REAL *blk = v->tri + 9 * (size_t)first;
  if (!t->PROX_FN(point_triangles_soa_multi)) return 0;
  for (k = 0; k < 3; ++k) {
    s.x[k] = blk + (size_t)k * n;
    s.y[k] = blk + (size_t)(3 + k) * n;
    s.z[k] = blk + (size_t)(6 + k) * n;
  }
  for (; m && np < 8; m &= m - 1) {
    at[np] = __builtin_ctz((unsigned)m);
    pts[np] = q[at[np]];
    ++np;
  }
  t->PROX_FN(point_triangles_soa_multi)(pts, np, &s, n, b, bi);
  for (k = 0; k < np; ++k) {
    best[at[k]] = b[k];
    pos[at[k]] = first + (uint32_t)bi[k];
  }
  return 1;
}

/* The 4 box distances of a node with SSE2 (every x86-64 CPU has it): the
 * operations of prox_bvh_detail_boxd4 in the same order, so the same
 * values (no NaN arises: p is finite and empty slots give +inf), without
 * its branches. Elsewhere the portable loop. */
#if defined(PBQ_SSE2)
#if !PROX_IS_DOUBLE
/* The 4 box distances in a register. */
static inline __m128 PROX_FN(pbq_boxv)(const prox_bvh_node *nd, PROX_FN(prox_vec3) p) {
  const __m128 z = _mm_setzero_ps();
  __m128 px = _mm_set1_ps(p.x), py = _mm_set1_ps(p.y), pz = _mm_set1_ps(p.z);
  __m128 dx =
      _mm_max_ps(_mm_sub_ps(_mm_load_ps(nd->lo_x), px), _mm_sub_ps(px, _mm_load_ps(nd->hi_x)));
  __m128 dy =
      _mm_max_ps(_mm_sub_ps(_mm_load_ps(nd->lo_y), py), _mm_sub_ps(py, _mm_load_ps(nd->hi_y)));
  __m128 dz =
      _mm_max_ps(_mm_sub_ps(_mm_load_ps(nd->lo_z), pz), _mm_sub_ps(pz, _mm_load_ps(nd->hi_z)));
  dx = _mm_max_ps(dx, z);
  dy = _mm_max_ps(dy, z);
  dz = _mm_max_ps(dz, z);
  return _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
}
static inline void PROX_FN(pbq_boxd4)(const prox_bvh_node *nd, PROX_FN(prox_vec3) p,
                                      PROX_REAL d[4]) {
  _mm_storeu_ps(d, PROX_FN(pbq_boxv)(nd, p));
}
/* The distances into d[] and, as bits, the used slots within thr. */
static inline int PROX_FN(pbq_valid4)(const prox_bvh_node *nd, PROX_FN(prox_vec3) p, PROX_REAL thr,
                                      PROX_REAL d[4]) {
  __m128 v = PROX_FN(pbq_boxv)(nd, p);
  _mm_storeu_ps(d, v);
  return _mm_movemask_ps(_mm_cmple_ps(v, _mm_set1_ps(thr))) & ((1 << nd->n_child) - 1);
}
#else
/* The box distances of slots h, h + 1 in a register. */
static inline __m128d PROX_FN(pbq_boxv)(const prox_bvh_node *nd, PROX_FN(prox_vec3) p, int h) {
  const __m128d z = _mm_setzero_pd();
  __m128d px = _mm_set1_pd(p.x), py = _mm_set1_pd(p.y), pz = _mm_set1_pd(p.z);
  __m128d dx = _mm_max_pd(
      _mm_sub_pd(_mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(nd->lo_x + h))), px),
      _mm_sub_pd(px, _mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(nd->hi_x + h)))));
  __m128d dy = _mm_max_pd(
      _mm_sub_pd(_mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(nd->lo_y + h))), py),
      _mm_sub_pd(py, _mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(nd->hi_y + h)))));
  __m128d dz = _mm_max_pd(
      _mm_sub_pd(_mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(nd->lo_z + h))), pz),
      _mm_sub_pd(pz, _mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(nd->hi_z + h)))));
  dx = _mm_max_pd(dx, z);
  dy = _mm_max_pd(dy, z);
  dz = _mm_max_pd(dz, z);
  return _mm_add_pd(_mm_add_pd(_mm_mul_pd(dx, dx), _mm_mul_pd(dy, dy)), _mm_mul_pd(dz, dz));
}
static inline void PROX_FN(pbq_boxd4)(const prox_bvh_node *nd, PROX_FN(prox_vec3) p,
                                      PROX_REAL d[4]) {
  _mm_storeu_pd(d, PROX_FN(pbq_boxv)(nd, p, 0));
  _mm_storeu_pd(d + 2, PROX_FN(pbq_boxv)(nd, p, 2));
}
static inline int PROX_FN(pbq_valid4)(const prox_bvh_node *nd, PROX_FN(prox_vec3) p, PROX_REAL thr,
                                      PROX_REAL d[4]) {
  __m128d t = _mm_set1_pd(thr), a = PROX_FN(pbq_boxv)(nd, p, 0), b = PROX_FN(pbq_boxv)(nd, p, 2);
  _mm_storeu_pd(d, a);
  _mm_storeu_pd(d + 2, b);
  return (_mm_movemask_pd(_mm_cmple_pd(a, t)) | _mm_movemask_pd(_mm_cmple_pd(b, t)) << 2) &
         ((1 << nd->n_child) - 1);
}
#endif
#define PROX_BVHQ_VALID4(nd, p, thr, d) PROX_FN(pbq_valid4)(nd, p, thr, d)
#define PBQ_BOXD4(nd, p, d) PROX_FN(pbq_boxd4)(nd, p, d)
#else
#define PBQ_BOXD4(nd, p, d) PROX_FN(prox_bvh_detail_boxd4)(nd, p, d)
#endif
