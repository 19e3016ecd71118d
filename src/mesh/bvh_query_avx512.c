/* SPDX-License-Identifier: MIT */
/* The node step of the closest-point packet walk
 * (src/mesh/bvh_query_packet.inl) with AVX-512, for double meshes: the
 * eight points of a packet in one vector of doubles per box of the node
 * (AVX2 takes two; float packets fit one AVX2 vector and stay there). The
 * operations are those of src/mesh/bvh_query_avx2.c's double step, lane by
 * lane, so the distances, masks and keys are the same bit for bit. Without
 * the instruction set the entry point exists and reports itself
 * unavailable (ok 0). */
#include "bvh_query_pk.h"

#if defined(__AVX512F__) && defined(__AVX512DQ__)
#include <immintrin.h>
#include <math.h>

const int prox_detail_pk_ok_avx512 = 1;

int prox_detail_pk_node_avx512(const prox_bvh_node *nd, const double *px, const double *py,
                               const double *pz, const double *thr, int m, double (*ds)[PBQ_PK],
                               double *key, int *ms) {
  const __m512d zero = _mm512_setzero_pd(), inf = _mm512_set1_pd(INFINITY);
  const __m512d x = _mm512_loadu_pd(px), y = _mm512_loadu_pd(py), z = _mm512_loadu_pd(pz);
  const __m512d t = _mm512_loadu_pd(thr);
  const __mmask8 lanes = (__mmask8)m;
  int s, mask = 0;
  for (s = 0; s < 4; ++s) {
    __m512d dx = _mm512_max_pd(_mm512_max_pd(_mm512_sub_pd(_mm512_set1_pd((double)nd->lo_x[s]), x),
                                             _mm512_sub_pd(x, _mm512_set1_pd((double)nd->hi_x[s]))),
                               zero);
    __m512d dy = _mm512_max_pd(_mm512_max_pd(_mm512_sub_pd(_mm512_set1_pd((double)nd->lo_y[s]), y),
                                             _mm512_sub_pd(y, _mm512_set1_pd((double)nd->hi_y[s]))),
                               zero);
    __m512d dz = _mm512_max_pd(_mm512_max_pd(_mm512_sub_pd(_mm512_set1_pd((double)nd->lo_z[s]), z),
                                             _mm512_sub_pd(z, _mm512_set1_pd((double)nd->hi_z[s]))),
                               zero);
    __m512d d = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy)),
                              _mm512_mul_pd(dz, dz));
    __mmask8 ok = _mm512_mask_cmp_pd_mask(lanes, d, t, _CMP_LE_OQ);
    _mm512_storeu_pd(ds[s], d);
    /* The least d where ok (d >= 0), else +inf. */
    key[s] = _mm512_reduce_min_pd(_mm512_mask_blend_pd(ok, inf, d));
    ms[s] = s < nd->n_child ? (int)ok : 0;
    mask |= (ms[s] != 0) << s;
  }
  return mask;
}

#else /* !AVX-512 */

const int prox_detail_pk_ok_avx512 = 0;

int prox_detail_pk_node_avx512(const prox_bvh_node *nd, const double *px, const double *py,
                               const double *pz, const double *thr, int m, double (*ds)[PBQ_PK],
                               double *key, int *ms) {
  (void)nd, (void)px, (void)py, (void)pz, (void)thr, (void)m, (void)ds, (void)key, (void)ms;
  return 0;
}

#endif
