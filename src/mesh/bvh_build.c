/* SPDX-License-Identifier: MIT */
/* The BVH builder, refit and statistics (prox/bvh.h), both precisions, from
 * the template bvh_build.inl. */
#include "mesh_internal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif

/* Depth (binary levels) below which splits follow the SAH; deeper ones
 * split at the middle index, so the depth stays below PROX_BVH_MAX_DEPTH
 * (64 + 32 levels for 2^32 triangles). */
#define PB_SAH_DEPTH 62
/* The SAH's costs: a node visit against one triangle of a SIMD leaf. */
#define PB_COST_TRAV PROX_R(1.0)
#define PB_COST_TRI PROX_R(0.15)
/* A hint to fetch memory soon to be read (none where the compiler has no
 * such builtin), and how many triangles ahead the copy asks for. */
#if defined(__GNUC__) || defined(__clang__)
#define PB_PREFETCH(p) __builtin_prefetch(p)
#else
#define PB_PREFETCH(p) ((void)(p))
#endif
#define PB_AHEAD 16
/* Reals in one of the builder's boxes (bvh_build.inl: lo, pad, -hi, pad). */
#define PB_LANES 8

/* The builder's box merges in SSE2 where there is SSE2 (every x86-64):
 * PB_V a vector of PB_VW reals of the precision being built, and its
 * operations, each the IEEE operation of the scalar code it replaces
 * (min as `y < x ? y : x`), so the tree is the same with or without. */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define PB_SSE2 1

/* The bins of 4 centroid coordinates c (the scalar pbb_bin of each):
 * (c - lo) sc, NaN and below 0 to 0, above top to top, truncated. */
static void pb_bins_d(const double *c, const double *lo, const double *sc, double top, int *out) {
  const __m128d z = _mm_setzero_pd(), t = _mm_set1_pd(top);
  __m128i a = _mm_cvttpd_epi32(_mm_min_pd(
      _mm_max_pd(_mm_mul_pd(_mm_sub_pd(_mm_loadu_pd(c), _mm_loadu_pd(lo)), _mm_loadu_pd(sc)), z),
      t));
  __m128i b = _mm_cvttpd_epi32(
      _mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_sub_pd(_mm_loadu_pd(c + 2), _mm_loadu_pd(lo + 2)),
                                       _mm_loadu_pd(sc + 2)),
                            z),
                 t));
  _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi64(a, b));
}
static void pb_bins_f(const float *c, const float *lo, const float *sc, float top, int *out) {
  __m128 f = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(c), _mm_loadu_ps(lo)), _mm_loadu_ps(sc));
  f = _mm_min_ps(_mm_max_ps(f, _mm_setzero_ps()), _mm_set1_ps(top));
  _mm_storeu_si128((__m128i *)(void *)out, _mm_cvttps_epi32(f));
}
#endif

_Static_assert(sizeof(prox_bvh_node) == 128, "prox_bvh_node is 128 bytes");

prox_bvh_options prox_bvh_options_default(void) {
  prox_bvh_options o;
  o.threads = 0;
  o.leaf_size = 8;
  return o;
}

#if defined(PB_SSE2)
#define PB_V __m128d
#define PB_VW 2
#define PB_VLOAD _mm_loadu_pd
#define PB_VSTORE _mm_storeu_pd
#define PB_VMIN _mm_min_pd
#define PB_VMUL _mm_mul_pd
#define PB_VSUB _mm_sub_pd
#define PB_VXOR _mm_xor_pd
#define PB_VSET1 _mm_set1_pd
#define PB_VBINS pb_bins_d
#endif
#include <prox/detail/real_double.h>
#include "bvh_build.inl"
#include <prox/detail/real_end.h>

#if defined(PB_SSE2)
#undef PB_V
#undef PB_VW
#undef PB_VLOAD
#undef PB_VSTORE
#undef PB_VMIN
#undef PB_VMUL
#undef PB_VSUB
#undef PB_VXOR
#undef PB_VSET1
#undef PB_VBINS
#define PB_V __m128
#define PB_VW 4
#define PB_VLOAD _mm_loadu_ps
#define PB_VSTORE _mm_storeu_ps
#define PB_VMIN _mm_min_ps
#define PB_VMUL _mm_mul_ps
#define PB_VSUB _mm_sub_ps
#define PB_VXOR _mm_xor_ps
#define PB_VSET1 _mm_set1_ps
#define PB_VBINS pb_bins_f
#endif
#include <prox/detail/real_float.h>
#include "bvh_build.inl"
#include <prox/detail/real_end.h>
