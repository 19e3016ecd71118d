/* SPDX-License-Identifier: MIT */
/* Template: the vector code of the packet ray casts (prox/packet.h) for
 * one instruction set, and its table of entry points for the SIMD dispatch
 * (src/simd/dispatch.h). Included by src/simd/packet_avx2.c (AVX2 + FMA)
 * and src/simd/packet_avx512.c (AVX-512 F/DQ/VL: PROX_PK_AVX512 defined,
 * 8 doubles per 512-bit register and mask registers for every
 * comparison), which define:
 *   PROX_PK_OPS   the name of the table (prox_detail_simd_packet_<isa>)
 *   PROX_PK_HAVE  when the compiler targets the instruction set; without
 *                 it (another architecture, or a build without the -m
 *                 flags) the table has built = 0 and no entry points.
 *
 * Each lane evaluates the operations of the scalar kernels in their order
 * (see src/simd/packet_api.inl), so the answers are the scalar kernels'
 * answers; a triangle lane whose edge signs the fast path cannot certify
 * is handed to prox_raycast_triangle() itself. src/simd/packet_vec_type.inl
 * holds the code of one vector type, included once per type below. */
#include "packet_impl.h"
#include "rc_bound2_vec.h"

#if defined(PROX_PK_HAVE)
#include <immintrin.h>

/* Helpers inlined into each entry point (their int arguments are then
 * constants). */
#define PK_INLINE static inline __attribute__((always_inline))

/* The scalar kernel on one lane of a triangle packet, the fallback of
 * uncertain lanes: prox_pk_tri_lane(), prox_pk_tri_lanef(). */
#include <prox/detail/real_double.h>
#include "packet_scalar_lane.inl"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "packet_scalar_lane.inl"
#include <prox/detail/real_end.h>

/* ---- vector types: 8 floats (256 bits) ---- */
#define PK_NAME(n) n##_f8
#define PK_S float
#define PK_W 8
#define PK_RAYT prox_packet_rayf
#define PK_HITT prox_packet_hit8f
#define PK_SCALAR_TRI prox_pk_tri_lanef
#define PK_EPS FLT_EPSILON
#define PK_MAXR FLT_MAX
#define PK_MINR FLT_MIN
#define PK_V __m256
#define PL(p) _mm256_loadu_ps(p)
#define PS1(x) _mm256_set1_ps(x)
#define PADD _mm256_add_ps
#define PSUB _mm256_sub_ps
#define PMUL _mm256_mul_ps
#define PDIV _mm256_div_ps
#define PMIN _mm256_min_ps
#define PMAX _mm256_max_ps
#define PABS(a) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), (a))
#define PSTOREU(p, v) _mm256_storeu_ps((p), (v))
#if defined(PROX_PK_AVX512)
#define PK_M __mmask8
#define PCMP(a, b, c) _mm256_cmp_ps_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm256_mask_blend_ps((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PK_M __m256
#define PCMP(a, b, c) _mm256_cmp_ps((a), (b), (c))
#define PBLEND(a, b, m) _mm256_blendv_ps((a), (b), (m))
#define MAND _mm256_and_ps
#define MOR _mm256_or_ps
#define MINT(m) _mm256_movemask_ps(m)
#endif
#include "packet_vec_type.inl"

/* ---- 4 floats (128 bits) ---- */
#define PK_NAME(n) n##_f4
#define PK_S float
#define PK_W 4
#define PK_RAYT prox_packet_rayf
#define PK_HITT prox_packet_hit8f
#define PK_SCALAR_TRI prox_pk_tri_lanef
#define PK_EPS FLT_EPSILON
#define PK_MAXR FLT_MAX
#define PK_MINR FLT_MIN
#define PK_V __m128
#define PL(p) _mm_loadu_ps(p)
#define PS1(x) _mm_set1_ps(x)
#define PADD _mm_add_ps
#define PSUB _mm_sub_ps
#define PMUL _mm_mul_ps
#define PDIV _mm_div_ps
#define PMIN _mm_min_ps
#define PMAX _mm_max_ps
#define PABS(a) _mm_andnot_ps(_mm_set1_ps(-0.0f), (a))
#define PSTOREU(p, v) _mm_storeu_ps((p), (v))
#if defined(PROX_PK_AVX512)
#define PK_M __mmask8
#define PCMP(a, b, c) _mm_cmp_ps_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm_mask_blend_ps((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PK_M __m128
#define PCMP(a, b, c) _mm_cmp_ps((a), (b), (c))
#define PBLEND(a, b, m) _mm_blendv_ps((a), (b), (m))
#define MAND _mm_and_ps
#define MOR _mm_or_ps
#define MINT(m) _mm_movemask_ps(m)
#endif
#include "packet_vec_type.inl"

/* ---- 4 doubles (256 bits) ---- */
#define PK_NAME(n) n##_d4
#define PK_S double
#define PK_W 4
#define PK_RAYT prox_packet_ray
#define PK_HITT prox_packet_hit8
#define PK_SCALAR_TRI prox_pk_tri_lane
#define PK_EPS DBL_EPSILON
#define PK_MAXR DBL_MAX
#define PK_MINR DBL_MIN
#define PK_V __m256d
#define PL(p) _mm256_loadu_pd(p)
#define PS1(x) _mm256_set1_pd(x)
#define PADD _mm256_add_pd
#define PSUB _mm256_sub_pd
#define PMUL _mm256_mul_pd
#define PDIV _mm256_div_pd
#define PMIN _mm256_min_pd
#define PMAX _mm256_max_pd
#define PABS(a) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (a))
#define PSTOREU(p, v) _mm256_storeu_pd((p), (v))
#if defined(PROX_PK_AVX512)
#define PK_M __mmask8
#define PCMP(a, b, c) _mm256_cmp_pd_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm256_mask_blend_pd((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PK_M __m256d
#define PCMP(a, b, c) _mm256_cmp_pd((a), (b), (c))
#define PBLEND(a, b, m) _mm256_blendv_pd((a), (b), (m))
#define MAND _mm256_and_pd
#define MOR _mm256_or_pd
#define MINT(m) _mm256_movemask_pd(m)
#endif
#include "packet_vec_type.inl"

#if defined(PROX_PK_AVX512)
/* ---- 8 doubles (512 bits) ---- */
#define PK_NAME(n) n##_d8
#define PK_S double
#define PK_W 8
#define PK_RAYT prox_packet_ray
#define PK_HITT prox_packet_hit8
#define PK_SCALAR_TRI prox_pk_tri_lane
#define PK_EPS DBL_EPSILON
#define PK_MAXR DBL_MAX
#define PK_MINR DBL_MIN
#define PK_V __m512d
#define PL(p) _mm512_loadu_pd(p)
#define PS1(x) _mm512_set1_pd(x)
#define PADD _mm512_add_pd
#define PSUB _mm512_sub_pd
#define PMUL _mm512_mul_pd
#define PDIV _mm512_div_pd
#define PMIN _mm512_min_pd
#define PMAX _mm512_max_pd
#define PABS(a) _mm512_abs_pd(a)
#define PSTOREU(p, v) _mm512_storeu_pd((p), (v))
#define PK_M __mmask8
#define PCMP(a, b, c) _mm512_cmp_pd_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm512_mask_blend_pd((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#include "packet_vec_type.inl"
#endif

static int prox_pk_aabb4(const prox_packet_ray *r, const prox_box4 *b, double *tn) {
  if (!r->valid) return 0;
  return prox_pk_box_d4(r, &b->lo[0][0], &b->hi[0][0], 4, tn, 1);
}

static int prox_pk_aabb8(const prox_packet_ray *r, const prox_box8 *b, double *tn) {
  if (!r->valid) return 0;
#if defined(PROX_PK_AVX512)
  return prox_pk_box_d8(r, &b->lo[0][0], &b->hi[0][0], 8, tn, 1);
#else
  /* Two vectors of 4 doubles, the ray's values loaded once. */
  return prox_pk_box_d4(r, &b->lo[0][0], &b->hi[0][0], 8, tn, 2);
#endif
}

static int prox_pk_aabb4f(const prox_packet_rayf *r, const prox_box4f *b, float *tn) {
  if (!r->valid) return 0;
  return prox_pk_box_f4(r, &b->lo[0][0], &b->hi[0][0], 4, tn, 1);
}

static int prox_pk_aabb8f(const prox_packet_rayf *r, const prox_box8f *b, float *tn) {
  if (!r->valid) return 0;
  return prox_pk_box_f8(r, &b->lo[0][0], &b->hi[0][0], 8, tn, 1);
}

static int prox_pk_triangle4(const prox_packet_ray *r, const prox_tri4 *t, prox_packet_hit8 *hit) {
  if (!r->tri_valid) return 0;
  return prox_pk_tri_d4(r, &t->v[0][0][0], 4, hit, 0);
}

static int prox_pk_triangle8(const prox_packet_ray *r, const prox_tri8 *t, prox_packet_hit8 *hit) {
  if (!r->tri_valid) return 0;
#if defined(PROX_PK_AVX512)
  return prox_pk_tri_d8(r, &t->v[0][0][0], 8, hit, 0);
#else
  return prox_pk_tri_d4(r, &t->v[0][0][0], 8, hit, 0) |
         prox_pk_tri_d4(r, &t->v[0][0][4], 8, hit, 4);
#endif
}

static int prox_pk_triangle4f(const prox_packet_rayf *r, const prox_tri4f *t,
                              prox_packet_hit8f *hit) {
  if (!r->tri_valid) return 0;
  return prox_pk_tri_f4(r, &t->v[0][0][0], 4, hit, 0);
}

static int prox_pk_triangle8f(const prox_packet_rayf *r, const prox_tri8f *t,
                              prox_packet_hit8f *hit) {
  if (!r->tri_valid) return 0;
  return prox_pk_tri_f8(r, &t->v[0][0][0], 8, hit, 0);
}

const prox_simd_packet PROX_PK_OPS = {
    .built = 1,
    .aabb4 = prox_pk_aabb4,
    .aabb8 = prox_pk_aabb8,
    .triangle4 = prox_pk_triangle4,
    .triangle8 = prox_pk_triangle8,
    .aabb4f = prox_pk_aabb4f,
    .aabb8f = prox_pk_aabb8f,
    .triangle4f = prox_pk_triangle4f,
    .triangle8f = prox_pk_triangle8f,
};

#else /* !PROX_PK_HAVE: this level is not available in this build */

const prox_simd_packet PROX_PK_OPS = {.built = 0};

#endif /* PROX_PK_HAVE */
