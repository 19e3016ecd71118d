/* SPDX-License-Identifier: MIT */
/* The AVX-512 kernels of the batch queries: 8 doubles or 16 floats per
 * vector, comparisons into mask registers, arrays of triangles and points
 * read by plain loads and transposed in registers, masked loads and stores
 * for the tails. Built with -mavx512f -mavx512dq -mavx512vl -mavx2 -mfma;
 * used only when the CPU has them (src/simd/dispatch.c). */
#include "batch_impl.h"

#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__)

#include <immintrin.h>

/* The loads of PB_LOAD9 and PB_LOAD9_N: the reals p[q], p[q + 1], ... of a
 * vector; all of them when lim < 0, else those before p[lim], the others 0.
 * Only the vector that straddles p[lim] takes a masked load (which reads
 * nothing it leaves out; p + q may lie past the array, so its address is
 * formed as an integer, PB_AT); those before it take plain loads, those after
 * it none. Masked loads of every vector, which need no branches, measured
 * slower here (Zen 5 VM), streamed from memory most of all, even with the
 * count of triangles changing at random from call to call. */
static inline __attribute__((always_inline)) __m256d pb_load4_pd(const double *p, int q, int lim) {
  if (lim < 0 || q + 4 <= lim) return _mm256_loadu_pd(p + q);
  if (q >= lim) return _mm256_setzero_pd();
  return _mm256_maskz_loadu_pd(
      _mm256_cmpgt_epi64_mask(_mm256_set1_epi64x(lim), _mm256_setr_epi64x(q, q + 1, q + 2, q + 3)),
      PB_AT(p, q));
}
static inline __attribute__((always_inline)) __m256 pb_load8_ps(const float *p, int q, int lim) {
  if (lim < 0 || q + 8 <= lim) return _mm256_loadu_ps(p + q);
  if (q >= lim) return _mm256_setzero_ps();
  return _mm256_maskz_loadu_ps(
      _mm256_cmpgt_epi32_mask(
          _mm256_set1_epi32(lim),
          _mm256_setr_epi32(q, q + 1, q + 2, q + 3, q + 4, q + 5, q + 6, q + 7)),
      PB_AT(p, q));
}

/* The blocks of the AoS leaf loop: lane k of o[j] gets p[9k + j] for j < 9,
 * that is coordinate j of triangle k (PB_LOAD9 of batch_simd.inl), 0 past
 * p[lim] when lim >= 0.
 * Contiguous loads and shuffles; a gather per coordinate is slower. The 9
 * vectors at p + W m (W lanes) hold p[e] in lane e mod W; as 9 and W are
 * coprime, the W reals of a coordinate sit in W distinct lanes, so blends
 * gather them into one vector and a permutation puts them in order (lane k
 * from lane (9k + j) mod W). In two steps: first, of the three vectors of
 * each third of the block (3 W reals), the reals of each residue c mod 3
 * (x, y or z of some vertex); then coordinate j (residue j mod 3) from
 * those of the three thirds.
 *
 * Each vector is loaded as two 256-bit halves: on the Zen 5 this was
 * measured on, 512-bit loads of a triangle array streamed from memory ran
 * 2 to 4 times slower (about as slow as the gathers), whatever their
 * alignment, while from cache the two forms cost the same. */
#define PB_BLEND3_PD(a, b, c, mb, mc) _mm512_mask_blend_pd(mc, _mm512_mask_blend_pd(mb, a, b), c)
#define PB_ROT_PD(v, j)                                                                            \
  _mm512_permutexvar_pd(_mm512_setr_epi64(j, j + 1, j + 2, j + 3, j + 4, j + 5, j + 6, j + 7), v)
static inline __attribute__((always_inline)) void pb_load9_pd(const double *p, int lim,
                                                              __m512d o[9]) {
  __m512d l[9], r[3][3];
  int m;
  for (m = 0; m < 9; ++m)
    l[m] = _mm512_insertf64x4(_mm512_castpd256_pd512(pb_load4_pd(p, 8 * m, lim)),
                              pb_load4_pd(p, 8 * m + 4, lim), 1);
  for (m = 0; m < 3; ++m) {
    r[m][0] = PB_BLEND3_PD(l[3 * m], l[3 * m + 1], l[3 * m + 2], 0x92, 0x24);
    r[m][1] = PB_BLEND3_PD(l[3 * m], l[3 * m + 1], l[3 * m + 2], 0x24, 0x49);
    r[m][2] = PB_BLEND3_PD(l[3 * m], l[3 * m + 1], l[3 * m + 2], 0x49, 0x92);
  }
  o[0] = PB_BLEND3_PD(r[0][0], r[1][0], r[2][0], 0x38, 0xc0);
  o[1] = PB_ROT_PD(PB_BLEND3_PD(r[0][1], r[1][1], r[2][1], 0x70, 0x81), 1);
  o[2] = PB_ROT_PD(PB_BLEND3_PD(r[0][2], r[1][2], r[2][2], 0xe0, 0x03), 2);
  o[3] = PB_ROT_PD(PB_BLEND3_PD(r[0][0], r[1][0], r[2][0], 0xc0, 0x07), 3);
  o[4] = PB_ROT_PD(PB_BLEND3_PD(r[0][1], r[1][1], r[2][1], 0x81, 0x0e), 4);
  o[5] = PB_ROT_PD(PB_BLEND3_PD(r[0][2], r[1][2], r[2][2], 0x03, 0x1c), 5);
  o[6] = PB_ROT_PD(PB_BLEND3_PD(r[0][0], r[1][0], r[2][0], 0x07, 0x38), 6);
  o[7] = PB_ROT_PD(PB_BLEND3_PD(r[0][1], r[1][1], r[2][1], 0x0e, 0x70), 7);
  o[8] = PB_BLEND3_PD(r[0][2], r[1][2], r[2][2], 0x1c, 0xe0);
}

/* As pb_load9_pd, 16 lanes; permutexvar reads 4 bits of 9k + j. */
#define PB_BLEND3_PS(a, b, c, mb, mc) _mm512_mask_blend_ps(mc, _mm512_mask_blend_ps(mb, a, b), c)
#define PB_PERM9_PS(v, j)                                                                          \
  _mm512_permutexvar_ps(_mm512_setr_epi32(j, 9 + j, 18 + j, 27 + j, 36 + j, 45 + j, 54 + j,        \
                                          63 + j, 72 + j, 81 + j, 90 + j, 99 + j, 108 + j,         \
                                          117 + j, 126 + j, 135 + j),                              \
                        v)
static inline __attribute__((always_inline)) void pb_load9_ps(const float *p, int lim,
                                                              __m512 o[9]) {
  __m512 l[9], r[3][3];
  int m;
  for (m = 0; m < 9; ++m)
    l[m] = _mm512_insertf32x8(_mm512_castps256_ps512(pb_load8_ps(p, 16 * m, lim)),
                              pb_load8_ps(p, 16 * m + 8, lim), 1);
  for (m = 0; m < 3; ++m) {
    r[m][0] = PB_BLEND3_PS(l[3 * m], l[3 * m + 1], l[3 * m + 2], 0x4924, 0x2492);
    r[m][1] = PB_BLEND3_PS(l[3 * m], l[3 * m + 1], l[3 * m + 2], 0x9249, 0x4924);
    r[m][2] = PB_BLEND3_PS(l[3 * m], l[3 * m + 1], l[3 * m + 2], 0x2492, 0x9249);
  }
  o[0] = PB_PERM9_PS(PB_BLEND3_PS(r[0][0], r[1][0], r[2][0], 0x8542, 0x50a8), 0);
  o[1] = PB_PERM9_PS(PB_BLEND3_PS(r[0][1], r[1][1], r[2][1], 0x0a85, 0xa150), 1);
  o[2] = PB_PERM9_PS(PB_BLEND3_PS(r[0][2], r[1][2], r[2][2], 0x150a, 0x42a1), 2);
  o[3] = PB_PERM9_PS(PB_BLEND3_PS(r[0][0], r[1][0], r[2][0], 0x2a15, 0x8542), 3);
  o[4] = PB_PERM9_PS(PB_BLEND3_PS(r[0][1], r[1][1], r[2][1], 0x542a, 0x0a85), 4);
  o[5] = PB_PERM9_PS(PB_BLEND3_PS(r[0][2], r[1][2], r[2][2], 0xa854, 0x150a), 5);
  o[6] = PB_PERM9_PS(PB_BLEND3_PS(r[0][0], r[1][0], r[2][0], 0x50a8, 0x2a15), 6);
  o[7] = PB_PERM9_PS(PB_BLEND3_PS(r[0][1], r[1][1], r[2][1], 0xa150, 0x542a), 7);
  o[8] = PB_PERM9_PS(PB_BLEND3_PS(r[0][2], r[1][2], r[2][2], 0x42a1, 0xa854), 8);
}

/* PB_LOAD3 and PB_LOAD3_N: lane k of o[c] gets p[3k + c] for c < 3, that
 * is coordinate c of point k, 0 past p[lim] when lim >= 0: the blends of
 * the first step of pb_load9_pd, then a permutation (lane k from lane
 * (3k + c) mod W; permutexvar reads only those bits). */
static inline __attribute__((always_inline)) void pb_load3_pd(const double *p, int lim,
                                                              __m512d o[3]) {
  __m512d l[3];
  __m512i idx = _mm512_setr_epi64(0, 3, 6, 9, 12, 15, 18, 21);
  __m512i one = _mm512_set1_epi64(1);
  int m;
  for (m = 0; m < 3; ++m)
    l[m] = _mm512_insertf64x4(_mm512_castpd256_pd512(pb_load4_pd(p, 8 * m, lim)),
                              pb_load4_pd(p, 8 * m + 4, lim), 1);
  o[0] = _mm512_permutexvar_pd(idx, PB_BLEND3_PD(l[0], l[1], l[2], 0x92, 0x24));
  idx = _mm512_add_epi64(idx, one);
  o[1] = _mm512_permutexvar_pd(idx, PB_BLEND3_PD(l[0], l[1], l[2], 0x24, 0x49));
  idx = _mm512_add_epi64(idx, one);
  o[2] = _mm512_permutexvar_pd(idx, PB_BLEND3_PD(l[0], l[1], l[2], 0x49, 0x92));
}
static inline __attribute__((always_inline)) void pb_load3_ps(const float *p, int lim,
                                                              __m512 o[3]) {
  __m512 l[3];
  __m512i idx = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45);
  __m512i one = _mm512_set1_epi32(1);
  int m;
  for (m = 0; m < 3; ++m)
    l[m] = _mm512_insertf32x8(_mm512_castps256_ps512(pb_load8_ps(p, 16 * m, lim)),
                              pb_load8_ps(p, 16 * m + 8, lim), 1);
  o[0] = _mm512_permutexvar_ps(idx, PB_BLEND3_PS(l[0], l[1], l[2], 0x4924, 0x2492));
  idx = _mm512_add_epi32(idx, one);
  o[1] = _mm512_permutexvar_ps(idx, PB_BLEND3_PS(l[0], l[1], l[2], 0x9249, 0x4924));
  idx = _mm512_add_epi32(idx, one);
  o[2] = _mm512_permutexvar_ps(idx, PB_BLEND3_PS(l[0], l[1], l[2], 0x2492, 0x9249));
}

/* Macros common to both precisions. */
#define PB_AND(a, b) ((PB_M)((a) & (b)))
#define PB_OR(a, b) ((PB_M)((a) | (b)))
#define PB_ANDNOT(a, b) ((PB_M)((a) & ~(b)))
#define PB_NOT(a) ((PB_M) ~(a))
#define PB_BITS(m) ((unsigned)(m))
#define PB_FIRST(k) ((PB_M)((1u << (k)) - 1u))

#define PB_W 8
#define PB_V __m512d
#define PB_M __mmask8
#define PB_ALL ((PB_M)0xFF)
#define PB_SET1(x) _mm512_set1_pd(x)
#define PB_ADD(a, b) _mm512_add_pd(a, b)
#define PB_SUB(a, b) _mm512_sub_pd(a, b)
#define PB_MUL(a, b) _mm512_mul_pd(a, b)
#define PB_MIN(a, b) _mm512_min_pd(a, b) /* a < b ? a : b */
#define PB_MAX(a, b) _mm512_max_pd(a, b) /* a > b ? a : b */
#define PB_DIV(a, b) _mm512_div_pd(a, b)
#define PB_LT(a, b) _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ)
#define PB_LE(a, b) _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ)
#define PB_GT(a, b) _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ)
#define PB_GE(a, b) _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ)
#define PB_EQ(a, b) _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ)
#define PB_ISNAN(a) _mm512_cmp_pd_mask(a, a, _CMP_UNORD_Q)
#define PB_SELECT(m, t, f) _mm512_mask_blend_pd(m, f, t)
#define PB_LOADU(p) _mm512_loadu_pd(p)
#define PB_LOADU_M(p, m) _mm512_maskz_loadu_pd(m, p)
#define PB_STOREU(p, v) _mm512_storeu_pd(p, v)
#define PB_STOREU_M(p, m, v) _mm512_mask_storeu_pd(p, m, v)
#define PB_HMIN(v) _mm512_reduce_min_pd(v)
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
#undef PB_HMIN
#undef PB_LOAD9
#undef PB_LOAD9_N
#undef PB_LOAD3
#undef PB_LOAD3_N

#define PB_W 16
#define PB_V __m512
#define PB_M __mmask16
#define PB_ALL ((PB_M)0xFFFF)
#define PB_SET1(x) _mm512_set1_ps(x)
#define PB_ADD(a, b) _mm512_add_ps(a, b)
#define PB_SUB(a, b) _mm512_sub_ps(a, b)
#define PB_MUL(a, b) _mm512_mul_ps(a, b)
#define PB_MIN(a, b) _mm512_min_ps(a, b) /* a < b ? a : b */
#define PB_MAX(a, b) _mm512_max_ps(a, b) /* a > b ? a : b */
#define PB_DIV(a, b) _mm512_div_ps(a, b)
#define PB_LT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define PB_LE(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ)
#define PB_GT(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)
#define PB_GE(a, b) _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ)
#define PB_EQ(a, b) _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ)
#define PB_ISNAN(a) _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q)
#define PB_SELECT(m, t, f) _mm512_mask_blend_ps(m, f, t)
#define PB_LOADU(p) _mm512_loadu_ps(p)
#define PB_LOADU_M(p, m) _mm512_maskz_loadu_ps(m, p)
#define PB_STOREU(p, v) _mm512_storeu_ps(p, v)
#define PB_STOREU_M(p, m, v) _mm512_mask_storeu_ps(p, m, v)
#define PB_HMIN(v) _mm512_reduce_min_ps(v)
#define PB_LOAD9(p, o) pb_load9_ps(p, -1, o)
#define PB_LOAD9_N(p, r, o) pb_load9_ps(p, 9 * (int)(r), o)
#define PB_LOAD3(p, o) pb_load3_ps(p, -1, o)
#define PB_LOAD3_N(p, r, o) pb_load3_ps(p, 3 * (int)(r), o)
#include <prox/detail/real_float.h>
#include "batch_simd.inl"
#include <prox/detail/real_end.h>

/* A float set of at most 8 triangles (a tree's leaf) fills half of the
 * 16 lanes: the AVX2 code's 8 lanes do the same work without the masked
 * loads (the closest-point walk 3-5% faster in a scratch loop on an Intel
 * Xeon, BENCHMARKS.md; equal on the AMD machine before). Both give
 * prox_point_triangle's bits. */
static float pb_point_triangles_soaf_small(prox_vec3f p, const prox_triangle_soaf *tris, size_t n,
                                           size_t *best_index) {
  if (n <= 8 && prox_detail_simd_batch_avx2.built)
    return prox_detail_simd_batch_avx2.point_triangles_soaf(p, tris, n, best_index);
  return pb_point_triangles_soaf(p, tris, n, best_index);
}

/* The same for several points (as above: leaves of at most 8). */
static void pb_point_triangles_soa_multif_small(const prox_vec3f *p, int np,
                                                const prox_triangle_soaf *tris, size_t n,
                                                float *best, size_t *best_index) {
  if (n <= 8 && prox_detail_simd_batch_avx2.built)
    prox_detail_simd_batch_avx2.point_triangles_soa_multif(p, np, tris, n, best, best_index);
  else
    pb_point_triangles_soa_multif(p, np, tris, n, best, best_index);
}

const prox_simd_batch prox_detail_simd_batch_avx512 = {
    .built = 1,
    .point_triangles = pb_point_triangles,
    .point_triangles_soa = pb_point_triangles_soa,
    .points_triangle = pb_points_triangle,
    .points_aabb = pb_points_aabb,
    .point_trianglesf = pb_point_trianglesf,
    .point_triangles_soaf = pb_point_triangles_soaf_small,
    .point_triangles_soa_multi = pb_point_triangles_soa_multi,
    .point_triangles_soa_multif = pb_point_triangles_soa_multif_small,
    .points_trianglef = pb_points_trianglef,
    .points_triangles_each = pb_points_triangles_each,
    .points_triangles_eachf = pb_points_triangles_eachf,
    .points_aabbf = pb_points_aabbf,
};

#else

const prox_simd_batch prox_detail_simd_batch_avx512 = {.built = 0};

#endif
