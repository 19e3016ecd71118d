/* SPDX-License-Identifier: MIT */
/* The AVX2 kernels of the batch queries: 4 doubles or 8 floats per vector,
 * comparisons into all-ones lanes, arrays of triangles and points read by
 * plain loads and transposed in registers, masked loads and stores for the
 * tails. Built with -mavx2 -mfma; used only when the CPU has them
 * (src/simd/dispatch.c). */
#include "batch_impl.h"

#if defined(__AVX2__)

#include <immintrin.h>

/* Horizontal minimum of a vector without NaN lanes. */
static inline double pb_hmin_pd(__m256d v) {
  __m128d m = _mm_min_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_min_sd(m, _mm_unpackhi_pd(m, m)));
}
static inline float pb_hmin_ps(__m256 v) {
  __m128 m = _mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_min_ps(m, _mm_movehl_ps(m, m));
  return _mm_cvtss_f32(_mm_min_ss(m, _mm_shuffle_ps(m, m, 1)));
}

/* The loads of PB_LOAD9 and PB_LOAD9_N: the reals p[q], p[q + 1], ... of a
 * vector; all of them when lim < 0, else those before p[lim], the others 0.
 * Only the vector that straddles p[lim] takes a masked load (which reads
 * nothing it leaves out; p + q may lie past the array, so its address is
 * formed as an integer, PB_AT); those before it take plain loads, those after
 * it none. Masked loads of every vector, which need no branches, measured
 * slower here (Zen 5 VM), streamed from memory most of all, even with the
 * count of triangles changing at random from call to call. */
static inline __attribute__((always_inline)) __m128d pb_load2_pd(const double *p, int q, int lim) {
  if (lim < 0 || q + 2 <= lim) return _mm_loadu_pd(p + q);
  if (q >= lim) return _mm_setzero_pd();
  return _mm_maskload_pd(PB_AT(p, q),
                         _mm_cmpgt_epi64(_mm_set1_epi64x(lim), _mm_set_epi64x(q + 1, q)));
}
static inline __attribute__((always_inline)) __m256d pb_load4_pd(const double *p, int q, int lim) {
  if (lim < 0 || q + 4 <= lim) return _mm256_loadu_pd(p + q);
  if (q >= lim) return _mm256_setzero_pd();
  return _mm256_maskload_pd(
      PB_AT(p, q),
      _mm256_cmpgt_epi64(_mm256_set1_epi64x(lim), _mm256_setr_epi64x(q, q + 1, q + 2, q + 3)));
}
static inline __attribute__((always_inline)) __m128 pb_load4_ps(const float *p, int q, int lim) {
  if (lim < 0 || q + 4 <= lim) return _mm_loadu_ps(p + q);
  if (q >= lim) return _mm_setzero_ps();
  return _mm_maskload_ps(
      PB_AT(p, q), _mm_cmpgt_epi32(_mm_set1_epi32(lim), _mm_setr_epi32(q, q + 1, q + 2, q + 3)));
}
static inline __attribute__((always_inline)) __m256 pb_load8_ps(const float *p, int q, int lim) {
  if (lim < 0 || q + 8 <= lim) return _mm256_loadu_ps(p + q);
  if (q >= lim) return _mm256_setzero_ps();
  return _mm256_maskload_ps(
      PB_AT(p, q),
      _mm256_cmpgt_epi32(_mm256_set1_epi32(lim),
                         _mm256_setr_epi32(q, q + 1, q + 2, q + 3, q + 4, q + 5, q + 6, q + 7)));
}

/* The blocks of the AoS leaf loop: lane k of o[j] gets p[9k + j] for j < 9,
 * that is coordinate j of triangle k (PB_LOAD9 of batch_simd.inl), 0 past
 * p[lim] when lim >= 0. Plain loads and shuffles, which cost less than a
 * gather per coordinate. Coordinates j and j + 1 come from 128-bit loads:
 * triangles 0 and 2 in one vector, 1 and 3 in another, interleaved by
 * unpack. Coordinate 8 comes from a diagonal: p[9k + 8] is lane k of the
 * load at p + 8k + 8. (Blends of the 9 vectors at p + 4m, then rotations,
 * also work, as in src/simd/batch_avx512.c, but measured slower here.) */
static inline __attribute__((always_inline)) void pb_load9_pd(const double *p, int lim,
                                                              __m256d o[9]) {
  int j;
  for (j = 0; j < 8; j += 2) {
    __m256d t02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(pb_load2_pd(p, j, lim)),
                                       pb_load2_pd(p, 18 + j, lim), 1);
    __m256d t13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(pb_load2_pd(p, 9 + j, lim)),
                                       pb_load2_pd(p, 27 + j, lim), 1);
    o[j] = _mm256_unpacklo_pd(t02, t13);
    o[j + 1] = _mm256_unpackhi_pd(t02, t13);
  }
  o[8] = _mm256_blend_pd(
      _mm256_blend_pd(_mm256_blend_pd(pb_load4_pd(p, 8, lim), pb_load4_pd(p, 16, lim), 2),
                      pb_load4_pd(p, 24, lim), 4),
      pb_load4_pd(p, 32, lim), 8);
}

/* The 4 reals at p + lo, then the 4 at p + hi. */
static inline __attribute__((always_inline)) __m256 pb_load2x4_ps(const float *p, int lo, int hi,
                                                                  int lim) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(pb_load4_ps(p, lo, lim)),
                              pb_load4_ps(p, hi, lim), 1);
}

/* Transposes, in each 128-bit half, the 4 x 4 matrix of rows s0..s3 into
 * o[0..3]. */
static inline __attribute__((always_inline)) void pb_transpose4_ps(__m256 s0, __m256 s1, __m256 s2,
                                                                   __m256 s3, __m256 *o) {
  __m256d t0 = _mm256_castps_pd(_mm256_unpacklo_ps(s0, s1));
  __m256d t1 = _mm256_castps_pd(_mm256_unpackhi_ps(s0, s1));
  __m256d t2 = _mm256_castps_pd(_mm256_unpacklo_ps(s2, s3));
  __m256d t3 = _mm256_castps_pd(_mm256_unpackhi_ps(s2, s3));
  o[0] = _mm256_castpd_ps(_mm256_unpacklo_pd(t0, t2));
  o[1] = _mm256_castpd_ps(_mm256_unpackhi_pd(t0, t2));
  o[2] = _mm256_castpd_ps(_mm256_unpacklo_pd(t1, t3));
  o[3] = _mm256_castpd_ps(_mm256_unpackhi_pd(t1, t3));
}

/* As pb_load9_pd for 8 triangles of floats: coordinates 0..3, then 4..7,
 * from two 4 x 4 transposes per 128-bit half (triangles 0..3 in the low
 * half, 4..7 in the high one); coordinate 8 from the diagonal of the 8
 * loads at p + 8k + 8. (Blends and rotations, as in src/simd/batch_avx512.c,
 * measured slightly slower.) */
static inline __attribute__((always_inline)) void pb_load9_ps(const float *p, int lim,
                                                              __m256 o[9]) {
  __m256 v;
  pb_transpose4_ps(pb_load2x4_ps(p, 0, 36, lim), pb_load2x4_ps(p, 9, 45, lim),
                   pb_load2x4_ps(p, 18, 54, lim), pb_load2x4_ps(p, 27, 63, lim), o);
  pb_transpose4_ps(pb_load2x4_ps(p, 4, 40, lim), pb_load2x4_ps(p, 13, 49, lim),
                   pb_load2x4_ps(p, 22, 58, lim), pb_load2x4_ps(p, 31, 67, lim), o + 4);
  v = pb_load8_ps(p, 8, lim);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 16, lim), 0x02);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 24, lim), 0x04);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 32, lim), 0x08);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 40, lim), 0x10);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 48, lim), 0x20);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 56, lim), 0x40);
  v = _mm256_blend_ps(v, pb_load8_ps(p, 64, lim), 0x80);
  o[8] = v;
}

/* PB_LOAD3 and PB_LOAD3_N: lane k of o[c] gets p[3k + c] for c < 3, that
 * is coordinate c of point k, 0 past p[lim] when lim >= 0. The 3 vectors
 * at p + W m (W lanes) hold p[e] in lane e mod W; as 3 and W are coprime,
 * the W reals of a coordinate sit in W distinct lanes: two blends gather
 * them into one vector and a permutation puts them in order (lane k from
 * lane (3k + c) mod W). */
static inline __attribute__((always_inline)) void pb_load3_pd(const double *p, int lim,
                                                              __m256d o[3]) {
  __m256d l0 = pb_load4_pd(p, 0, lim), l1 = pb_load4_pd(p, 4, lim);
  __m256d l2 = pb_load4_pd(p, 8, lim);
  o[0] = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(l0, l1, 0x4), l2, 0x2), 0x6c);
  o[1] = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(l0, l1, 0x9), l2, 0x4), 0xb1);
  o[2] = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(l0, l1, 0x2), l2, 0x9), 0xc6);
}
static inline __attribute__((always_inline)) void pb_load3_ps(const float *p, int lim,
                                                              __m256 o[3]) {
  __m256 l0 = pb_load8_ps(p, 0, lim), l1 = pb_load8_ps(p, 8, lim);
  __m256 l2 = pb_load8_ps(p, 16, lim);
  __m256i idx = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
  __m256i one = _mm256_set1_epi32(1);
  o[0] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(l0, l1, 0x92), l2, 0x24), idx);
  idx = _mm256_add_epi32(idx, one);
  o[1] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(l0, l1, 0x24), l2, 0x49), idx);
  idx = _mm256_add_epi32(idx, one);
  o[2] = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(l0, l1, 0x49), l2, 0x92), idx);
}

/* The structure-of-arrays loads (PB_LOADU), each vector read as two
 * 128-bit halves: on the Zen 5 this was measured on, 256-bit loads from the
 * nine coordinate arrays streamed from memory ran the leaf query 1.2-1.3x
 * (leaf of 64) to 1.6-1.9x (leaf of 8) slower, while from cache the halves
 * cost 5-8% more in double and about 2% in float. (With AVX-512 the SoA
 * loads stay whole: halves measured no faster streamed, slower cached.) */
static inline __attribute__((always_inline)) __m256d pb_loadu_pd(const double *p) {
  return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p)), _mm_loadu_pd(p + 2), 1);
}
static inline __attribute__((always_inline)) __m256 pb_loadu_ps(const float *p) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 4), 1);
}

#define PB_W 4
#define PB_HMIN(v) pb_hmin_pd(v)
#define PB_V __m256d
#define PB_M __m256d
#define PB_SET1(x) _mm256_set1_pd(x)
#define PB_ADD(a, b) _mm256_add_pd(a, b)
#define PB_SUB(a, b) _mm256_sub_pd(a, b)
#define PB_MUL(a, b) _mm256_mul_pd(a, b)
#define PB_MIN(a, b) _mm256_min_pd(a, b) /* a < b ? a : b */
#define PB_MAX(a, b) _mm256_max_pd(a, b) /* a > b ? a : b */
#define PB_DIV(a, b) _mm256_div_pd(a, b)
#define PB_LT(a, b) _mm256_cmp_pd(a, b, _CMP_LT_OQ)
#define PB_LE(a, b) _mm256_cmp_pd(a, b, _CMP_LE_OQ)
#define PB_GT(a, b) _mm256_cmp_pd(a, b, _CMP_GT_OQ)
#define PB_GE(a, b) _mm256_cmp_pd(a, b, _CMP_GE_OQ)
#define PB_EQ(a, b) _mm256_cmp_pd(a, b, _CMP_EQ_OQ)
#define PB_ISNAN(a) _mm256_cmp_pd(a, a, _CMP_UNORD_Q)
#define PB_SELECT(m, t, f) _mm256_blendv_pd(f, t, m)
#define PB_AND(a, b) _mm256_and_pd(a, b)
#define PB_OR(a, b) _mm256_or_pd(a, b)
#define PB_ANDNOT(a, b) _mm256_andnot_pd(b, a)
#define PB_NOT(a) _mm256_xor_pd(a, PB_ALL)
#define PB_ALL _mm256_castsi256_pd(_mm256_set1_epi64x(-1))
#define PB_FIRST(k)                                                                                \
  _mm256_cmp_pd(_mm256_setr_pd(0, 1, 2, 3), _mm256_set1_pd((double)(k)), _CMP_LT_OQ)
#define PB_BITS(m) ((unsigned)_mm256_movemask_pd(m))
#define PB_LOADU(p) pb_loadu_pd(p)
#define PB_LOADU_M(p, m) _mm256_maskload_pd(p, _mm256_castpd_si256(m))
#define PB_STOREU(p, v) _mm256_storeu_pd(p, v)
#define PB_STOREU_M(p, m, v) _mm256_maskstore_pd(p, _mm256_castpd_si256(m), v)
#define PB_LOAD9(p, o) pb_load9_pd(p, -1, o)
#define PB_LOAD9_N(p, r, o) pb_load9_pd(p, 9 * (int)(r), o)
#define PB_LOAD3(p, o) pb_load3_pd(p, -1, o)
#define PB_LOAD3_N(p, r, o) pb_load3_pd(p, 3 * (int)(r), o)
#include <prox/detail/real_double.h>
#include "batch_simd.inl"
#include <prox/detail/real_end.h>

/* The float instantiation redefines the vector macros. */
#undef PB_W
#undef PB_V
#undef PB_M
#undef PB_ALL
#undef PB_SET1
#undef PB_ADD
#undef PB_SUB
#undef PB_MUL
#undef PB_MIN
#undef PB_MAX
#undef PB_DIV
#undef PB_LT
#undef PB_LE
#undef PB_GT
#undef PB_GE
#undef PB_EQ
#undef PB_ISNAN
#undef PB_SELECT
#undef PB_LOADU
#undef PB_LOADU_M
#undef PB_STOREU
#undef PB_STOREU_M
#undef PB_LOAD9
#undef PB_LOAD9_N
#undef PB_LOAD3
#undef PB_LOAD3_N
#undef PB_HMIN
#undef PB_AND
#undef PB_OR
#undef PB_ANDNOT
#undef PB_NOT
#undef PB_FIRST
#undef PB_BITS

#define PB_W 8
#define PB_HMIN(v) pb_hmin_ps(v)
#define PB_V __m256
#define PB_M __m256
#define PB_SET1(x) _mm256_set1_ps(x)
#define PB_ADD(a, b) _mm256_add_ps(a, b)
#define PB_SUB(a, b) _mm256_sub_ps(a, b)
#define PB_MUL(a, b) _mm256_mul_ps(a, b)
#define PB_MIN(a, b) _mm256_min_ps(a, b) /* a < b ? a : b */
#define PB_MAX(a, b) _mm256_max_ps(a, b) /* a > b ? a : b */
#define PB_DIV(a, b) _mm256_div_ps(a, b)
#define PB_LT(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define PB_LE(a, b) _mm256_cmp_ps(a, b, _CMP_LE_OQ)
#define PB_GT(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OQ)
#define PB_GE(a, b) _mm256_cmp_ps(a, b, _CMP_GE_OQ)
#define PB_EQ(a, b) _mm256_cmp_ps(a, b, _CMP_EQ_OQ)
#define PB_ISNAN(a) _mm256_cmp_ps(a, a, _CMP_UNORD_Q)
#define PB_SELECT(m, t, f) _mm256_blendv_ps(f, t, m)
#define PB_AND(a, b) _mm256_and_ps(a, b)
#define PB_OR(a, b) _mm256_or_ps(a, b)
#define PB_ANDNOT(a, b) _mm256_andnot_ps(b, a)
#define PB_NOT(a) _mm256_xor_ps(a, PB_ALL)
#define PB_ALL _mm256_castsi256_ps(_mm256_set1_epi32(-1))
#define PB_FIRST(k)                                                                                \
  _mm256_cmp_ps(_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_ps((float)(k)), _CMP_LT_OQ)
#define PB_BITS(m) ((unsigned)_mm256_movemask_ps(m))
#define PB_LOADU(p) pb_loadu_ps(p)
#define PB_LOADU_M(p, m) _mm256_maskload_ps(p, _mm256_castps_si256(m))
#define PB_STOREU(p, v) _mm256_storeu_ps(p, v)
#define PB_STOREU_M(p, m, v) _mm256_maskstore_ps(p, _mm256_castps_si256(m), v)
#define PB_LOAD9(p, o) pb_load9_ps(p, -1, o)
#define PB_LOAD9_N(p, r, o) pb_load9_ps(p, 9 * (int)(r), o)
#define PB_LOAD3(p, o) pb_load3_ps(p, -1, o)
#define PB_LOAD3_N(p, r, o) pb_load3_ps(p, 3 * (int)(r), o)
#include <prox/detail/real_float.h>
#include "batch_simd.inl"
#include <prox/detail/real_end.h>

const prox_simd_batch prox_detail_simd_batch_avx2 = {
    .built = 1,
    .point_triangles = pb_point_triangles,
    .point_triangles_soa = pb_point_triangles_soa,
    .points_triangle = pb_points_triangle,
    .points_aabb = pb_points_aabb,
    .point_trianglesf = pb_point_trianglesf,
    .point_triangles_soaf = pb_point_triangles_soaf,
    .point_triangles_soa_multi = pb_point_triangles_soa_multi,
    .point_triangles_soa_multif = pb_point_triangles_soa_multif,
    .points_trianglef = pb_points_trianglef,
    .points_triangles_each = pb_points_triangles_each,
    .points_triangles_eachf = pb_points_triangles_eachf,
    .points_aabbf = pb_points_aabbf,
};

#else

const prox_simd_batch prox_detail_simd_batch_avx2 = {.built = 0};

#endif
