/* SPDX-License-Identifier: MIT */
/* The BVH builder, refit and statistics (prox/bvh.h), both precisions, from
 * the template bvh_build.inl. */
#include "mesh_internal.h"

#include <prox/batch.h> /* prox_simd_level(): the default leaf size */

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

/* Depth (binary levels) below which splits follow the SAH; deeper ones
 * split at the middle index, so the depth stays below PROX_BVH_MAX_DEPTH
 * (64 + 32 levels for 2^32 triangles). */
#define PB_SAH_DEPTH 62
/* The SAH's costs: a node visit against one triangle of a SIMD leaf. */
#define PB_COST_TRAV PB_R(1.0)
#define PB_COST_TRI PB_R(0.15)
/* Nodes from this many primitives bin into two sets of bins (bvh_build.inl). */
#define PB_BIN_TWICE 256
/* Binary nodes a thread takes from the pool at a time (bvh_build.inl). */
#define PB_CHUNK 1024
/* The most triangles a tree holds: the pool's 2 n nodes and a chunk for
 * each of up to PROX_MESH_MAX_THREADS + 1 cursors fit 32-bit indices. */
#define PB_MAX_TRIANGLES ((UINT32_MAX - (PROX_MESH_MAX_THREADS + 1) * PB_CHUNK) / 2)
/* The collapse into 4-wide nodes runs the subtrees below this level in
 * parallel (at most 4^level of them: PB_SUBS) for meshes of at least
 * PB_SUB_MIN triangles (bvh_build.inl). */
#define PB_SUB_LEVEL 3
#define PB_SUBS (1 << (2 * PB_SUB_LEVEL))
#define PB_SUB_MIN 32768
/* A hint to fetch memory soon to be read (none where the compiler has no
 * such builtin), and how many triangles ahead the copy asks for. */
#if defined(__GNUC__) || defined(__clang__)
#define PB_PREFETCH(p) __builtin_prefetch(p)
#else
#define PB_PREFETCH(p) ((void)(p))
#endif
#define PB_AHEAD 16
/* The builder works in float for both precisions: its boxes are the
 * mesh's exact boxes rounded outward to float, which is what the nodes
 * store (bvh_build.inl). PB_LANES reals in one of its boxes (lo, pad,
 * -hi, pad). */
#define PB_REAL float
#define PB_R(x) ((float)(x))
#define PB_INF ((float)INFINITY)
#define PB_LANES 8

/* f, or when `go` nextafterf(f, +inf), for any f but NaN, without a
 * branch (the double builder rounds six coordinates a triangle, and which
 * way a rounding went is a coin toss for the branch predictor): the bits
 * one step away from zero for a positive f, toward it for a negative one,
 * and the smallest subnormal from a zero of either sign. The step down is
 * its mirror (pbb_down in bvh_build.inl). */
static float pb_step_up(float f, int go) {
  uint32_t u, zero, step, m = (uint32_t)0 - (uint32_t)(go != 0);
  memcpy(&u, &f, sizeof u);
  zero = (uint32_t)0 - (uint32_t)((u & 0x7fffffffu) == 0);
  step = u - 1u + ((u >> 31 ^ 1u) << 1); /* negative: u - 1; else u + 1 */
  step = (step & ~zero) | (1u & zero);
  u = (u & ~m) | (step & m);
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The builder's box merges in SSE2 where there is SSE2 (every x86-64):
 * PB_V a vector of PB_VW floats and its operations, each the IEEE
 * operation of the scalar code it replaces (min as `y < x ? y : x`), so
 * the tree is the same with or without. */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define PB_SSE2 1

/* The bins of 4 centroid coordinates c (the scalar pbb_bin of each):
 * (c - lo) sc, NaN and below 0 to 0, above top to top, truncated. */
static void pb_bins_f(const float *c, const float *lo, const float *sc, float top, int *out) {
  __m128 f = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(c), _mm_loadu_ps(lo)), _mm_loadu_ps(sc));
  f = _mm_min_ps(_mm_max_ps(f, _mm_setzero_ps()), _mm_set1_ps(top));
  _mm_storeu_si128((__m128i *)(void *)out, _mm_cvttps_epi32(f));
}

/* The half areas of three boxes acc[a] (lo in lo[a], -hi in nhi[a]) in
 * lanes 0-2: pbb_half_area8's operations in its order, 0 where empty. */
static __m128 pb_areas3(const __m128 *lo, const __m128 *nhi, __m128 u) {
  const __m128 sign = _mm_set1_ps(-0.0f);
  __m128 dx = _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(nhi[0], sign), lo[0]), u);
  __m128 dy = _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(nhi[1], sign), lo[1]), u);
  __m128 dz = _mm_mul_ps(_mm_sub_ps(_mm_xor_ps(nhi[2], sign), lo[2]), u);
  __m128 dw = _mm_setzero_ps(), area;
  _MM_TRANSPOSE4_PS(dx, dy, dz, dw); /* now dx = the boxes' x extents */
  area = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dy), _mm_mul_ps(dy, dz)), _mm_mul_ps(dz, dx));
  return _mm_and_ps(_mm_cmpge_ps(dx, _mm_setzero_ps()), area);
}

/* Merges bin k of each axis into the boxes lo[a], nhi[a] (a sweep's
 * accumulators), in pbb_box_add's operand order. */
static void pb_merge3(float bins[3][32][8], int k, __m128 *lo, __m128 *nhi) {
  int a;
  for (a = 0; a < 3; ++a) {
    lo[a] = _mm_min_ps(_mm_loadu_ps(bins[a][k]), lo[a]);
    nhi[a] = _mm_min_ps(_mm_loadu_ps(bins[a][k] + 4), nhi[a]);
  }
}

/* pbb_find_split's SAH sweeps of the three axes at once, lane a for axis
 * a: no branch on empty bins (merging one changes nothing: its box is
 * +inf, its count 0), and a split counted only where both sides hold
 * primitives, which is the scalar sweep's choice (a split after an empty
 * bin ties the one before it, which comes first and wins). Counts below
 * 2^31. */
static void pb_sweep3(float bins[3][32][8], uint32_t bcnt[32][4], int nb, int axes, float unit,
                      int *best_ax, int *best_split, float *best_cost) {
  __m128 rarea[32], lo[3], nhi[3], bestc = _mm_set1_ps(INFINITY), u = _mm_set1_ps(unit);
  __m128i rcnt[32], cnt = _mm_setzero_si128(), bestk = _mm_setzero_si128();
  const __m128i zero = _mm_setzero_si128();
  float bc[4];
  int32_t bk[4];
  int a, k;
  for (a = 0; a < 3; ++a)
    lo[a] = nhi[a] = _mm_set1_ps(INFINITY);
  for (k = nb - 1; k > 0; --k) {
    pb_merge3(bins, k, lo, nhi);
    cnt = _mm_add_epi32(cnt, _mm_loadu_si128((const __m128i *)(const void *)bcnt[k]));
    rcnt[k] = cnt;
    rarea[k] = pb_areas3(lo, nhi, u);
  }
  for (a = 0; a < 3; ++a)
    lo[a] = nhi[a] = _mm_set1_ps(INFINITY);
  cnt = zero;
  for (k = 0; k < nb - 1; ++k) {
    __m128 cost, take;
    __m128i kk = _mm_set1_epi32(k + 1);
    pb_merge3(bins, k, lo, nhi);
    cnt = _mm_add_epi32(cnt, _mm_loadu_si128((const __m128i *)(const void *)bcnt[k]));
    cost = _mm_add_ps(_mm_mul_ps(pb_areas3(lo, nhi, u), _mm_cvtepi32_ps(cnt)),
                      _mm_mul_ps(rarea[k + 1], _mm_cvtepi32_ps(rcnt[k + 1])));
    take =
        _mm_and_ps(_mm_cmplt_ps(cost, bestc),
                   _mm_castsi128_ps(_mm_andnot_si128(
                       _mm_or_si128(_mm_cmpeq_epi32(cnt, zero), _mm_cmpeq_epi32(rcnt[k + 1], zero)),
                       _mm_set1_epi32(-1))));
    bestc = _mm_or_ps(_mm_and_ps(take, cost), _mm_andnot_ps(take, bestc));
    bestk = _mm_or_si128(_mm_and_si128(_mm_castps_si128(take), kk),
                         _mm_andnot_si128(_mm_castps_si128(take), bestk));
  }
  _mm_storeu_ps(bc, bestc);
  _mm_storeu_si128((__m128i *)(void *)bk, bestk);
  for (a = 0; a < 3; ++a)
    if (axes >> a & 1 && bc[a] < *best_cost) {
      *best_cost = bc[a];
      *best_ax = a;
      *best_split = bk[a];
    }
}
#define PB_VSWEEP pb_sweep3
#endif

_Static_assert(sizeof(prox_bvh_node) == 128, "prox_bvh_node is 128 bytes");

prox_bvh_options prox_bvh_options_default(void) {
  prox_bvh_options o;
  o.threads = 0;
  o.leaf_size = 0;
  return o;
}

#if defined(PB_SSE2)
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
/* A lane mask of all ones where `on` (1) else zeros, and the lanes of x
 * where m is set, of y elsewhere. */
#define PB_VMASK(on) _mm_castsi128_ps(_mm_set1_epi32(-(int)(on)))
#define PB_VSEL(m, x, y) _mm_or_ps(_mm_and_ps(m, x), _mm_andnot_ps(m, y))
#endif

#include <prox/detail/real_double.h>
#include "bvh_build.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "bvh_build.inl"
#include <prox/detail/real_end.h>
