/* SPDX-License-Identifier: MIT */
/* The node step of the closest-point packet walk
 * (src/mesh/bvh_query_packet.inl) with AVX2: the eight points of a packet
 * in one vector of floats, or two of doubles, per box of the node. The
 * operations are those of prox_bvh_detail_boxd4 lane by lane, without
 * fused multiply-adds (the library is built with -ffp-contract=off), so
 * the distances are the portable walk's bit for bit. Without AVX2 the
 * entry points exist and report themselves unavailable (ok 0). */
#include "bvh_query_pk.h"

#if defined(__AVX2__)
#include <immintrin.h>
#include <math.h>

const int prox_detail_pk_ok_avx2 = 1;

/* The least of the 4 lanes. */
static inline double pk_hmin4d(__m256d a) {
  __m128d b = _mm_min_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
  return _mm_cvtsd_f64(_mm_min_pd(b, _mm_unpackhi_pd(b, b)));
}

/* The least of the 8 lanes. */
static inline float pk_hmin8f(__m256 a) {
  __m128 b = _mm_min_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
  b = _mm_min_ps(b, _mm_shuffle_ps(b, b, _MM_SHUFFLE(1, 0, 3, 2)));
  b = _mm_min_ps(b, _mm_shuffle_ps(b, b, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtss_f32(b);
}

int prox_detail_pk_node_avx2(const prox_bvh_node *nd, const double *px, const double *py,
                             const double *pz, const double *thr, int m, double (*ds)[PBQ_PK],
                             double *key, int *ms) {
  const __m256d zero = _mm256_setzero_pd(), inf = _mm256_set1_pd(INFINITY);
  const __m256i bits = _mm256_setr_epi64x(1, 2, 4, 8);
  __m256d x[2], y[2], z[2], t[2], lanes[2];
  int s, h, mask = 0;
  for (h = 0; h < 2; ++h) {
    x[h] = _mm256_loadu_pd(px + 4 * h);
    y[h] = _mm256_loadu_pd(py + 4 * h);
    z[h] = _mm256_loadu_pd(pz + 4 * h);
    t[h] = _mm256_loadu_pd(thr + 4 * h);
    lanes[h] = _mm256_castsi256_pd(
        _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((m >> (4 * h)) & 15), bits), bits));
  }
  for (s = 0; s < 4; ++s) {
    const __m256d lx = _mm256_set1_pd((double)nd->lo_x[s]),
                  hx = _mm256_set1_pd((double)nd->hi_x[s]);
    const __m256d ly = _mm256_set1_pd((double)nd->lo_y[s]),
                  hy = _mm256_set1_pd((double)nd->hi_y[s]);
    const __m256d lz = _mm256_set1_pd((double)nd->lo_z[s]),
                  hz = _mm256_set1_pd((double)nd->hi_z[s]);
    __m256d kv = inf;
    int in = 0;
    for (h = 0; h < 2; ++h) {
      __m256d dx =
          _mm256_max_pd(_mm256_max_pd(_mm256_sub_pd(lx, x[h]), _mm256_sub_pd(x[h], hx)), zero);
      __m256d dy =
          _mm256_max_pd(_mm256_max_pd(_mm256_sub_pd(ly, y[h]), _mm256_sub_pd(y[h], hy)), zero);
      __m256d dz =
          _mm256_max_pd(_mm256_max_pd(_mm256_sub_pd(lz, z[h]), _mm256_sub_pd(z[h], hz)), zero);
      __m256d d = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)),
                                _mm256_mul_pd(dz, dz));
      __m256d ok = _mm256_and_pd(_mm256_cmp_pd(d, t[h], _CMP_LE_OQ), lanes[h]);
      _mm256_storeu_pd(ds[s] + 4 * h, d);
      in |= _mm256_movemask_pd(ok) << (4 * h);
      /* d where ok (d >= 0), else +inf. */
      kv = _mm256_min_pd(kv, _mm256_max_pd(d, _mm256_andnot_pd(ok, inf)));
    }
    key[s] = pk_hmin4d(kv);
    ms[s] = s < nd->n_child ? in : 0;
    mask |= (ms[s] != 0) << s;
  }
  return mask;
}

int prox_detail_pk_node_avx2f(const prox_bvh_node *nd, const float *px, const float *py,
                              const float *pz, const float *thr, int m, float (*ds)[PBQ_PK],
                              float *key, int *ms) {
  const __m256 zero = _mm256_setzero_ps(), inf = _mm256_set1_ps(INFINITY);
  const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256 x = _mm256_loadu_ps(px), y = _mm256_loadu_ps(py), z = _mm256_loadu_ps(pz);
  const __m256 t = _mm256_loadu_ps(thr);
  const __m256 lanes =
      _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(m), bits), bits));
  int s, mask = 0;
  for (s = 0; s < 4; ++s) {
    __m256 dx = _mm256_max_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_set1_ps(nd->lo_x[s]), x),
                                            _mm256_sub_ps(x, _mm256_set1_ps(nd->hi_x[s]))),
                              zero);
    __m256 dy = _mm256_max_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_set1_ps(nd->lo_y[s]), y),
                                            _mm256_sub_ps(y, _mm256_set1_ps(nd->hi_y[s]))),
                              zero);
    __m256 dz = _mm256_max_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_set1_ps(nd->lo_z[s]), z),
                                            _mm256_sub_ps(z, _mm256_set1_ps(nd->hi_z[s]))),
                              zero);
    __m256 d = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                             _mm256_mul_ps(dz, dz));
    __m256 ok = _mm256_and_ps(_mm256_cmp_ps(d, t, _CMP_LE_OQ), lanes);
    int in = _mm256_movemask_ps(ok);
    _mm256_storeu_ps(ds[s], d);
    key[s] = pk_hmin8f(_mm256_max_ps(d, _mm256_andnot_ps(ok, inf)));
    ms[s] = s < nd->n_child ? in : 0;
    mask |= (ms[s] != 0) << s;
  }
  return mask;
}

#else /* !__AVX2__ */

const int prox_detail_pk_ok_avx2 = 0;

int prox_detail_pk_node_avx2(const prox_bvh_node *nd, const double *px, const double *py,
                             const double *pz, const double *thr, int m, double (*ds)[PBQ_PK],
                             double *key, int *ms) {
  (void)nd, (void)px, (void)py, (void)pz, (void)thr, (void)m, (void)ds, (void)key, (void)ms;
  return 0;
}

int prox_detail_pk_node_avx2f(const prox_bvh_node *nd, const float *px, const float *py,
                              const float *pz, const float *thr, int m, float (*ds)[PBQ_PK],
                              float *key, int *ms) {
  (void)nd, (void)px, (void)py, (void)pz, (void)thr, (void)m, (void)ds, (void)key, (void)ms;
  return 0;
}

#endif
