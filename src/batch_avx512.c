/* SPDX-License-Identifier: MIT */
/* The AVX-512 kernels of the batch queries: 8 doubles or 16 floats per
 * vector, comparisons into mask registers, masked gathers and stores for
 * the tails. Built with -mavx512f -mavx512dq -mavx512vl -mavx2 -mfma; used
 * only when the CPU has them (src/batch.c). */
#include "batch_impl.h"

#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__)

#include <immintrin.h>

/* Without optimisation gcc's gather intrinsics are macros whose mask
 * conversions trip -Wsign-conversion (part of -Wconversion in C). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif

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
#define PB_I __m256i
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
#define PB_GATHER(base, idx, m)                                                \
  _mm512_mask_i32gather_pd(_mm512_setzero_pd(), m, idx, base, 8)
#define PB_HMIN(v) _mm512_reduce_min_pd(v)
#define PB_STRIDE(s)                                                           \
  _mm256_mullo_epi32(_mm256_set1_epi32(s),                                     \
                     _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
#include <prox/detail/real_double.h>
#include "batch_simd.inl"
#include <prox/detail/real_end.h>

/* The float instantiation redefines the vector macros. */
#undef PB_W
#undef PB_V
#undef PB_M
#undef PB_I
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
#undef PB_GATHER
#undef PB_STRIDE
#undef PB_HMIN

#define PB_W 16
#define PB_V __m512
#define PB_M __mmask16
#define PB_I __m512i
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
#define PB_GATHER(base, idx, m)                                                \
  _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, idx, base, 4)
#define PB_HMIN(v) _mm512_reduce_min_ps(v)
#define PB_STRIDE(s)                                                           \
  _mm512_mullo_epi32(                                                          \
      _mm512_set1_epi32(s),                                                    \
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#include <prox/detail/real_float.h>
#include "batch_simd.inl"
#include <prox/detail/real_end.h>

static const prox_batch_ops prox_batch_avx512 = {
    pb_point_triangles,  pb_point_triangles_soa, pb_points_triangle,
    pb_points_aabb,      pb_point_trianglesf,    pb_point_triangles_soaf,
    pb_points_trianglef, pb_points_aabbf};

const prox_batch_ops *prox_batch_ops_avx512(void) {
  return &prox_batch_avx512;
}

#else

const prox_batch_ops *prox_batch_ops_avx512(void) {
  return NULL;
}

#endif
