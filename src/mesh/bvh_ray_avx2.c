/* SPDX-License-Identifier: MIT */
/* The ray traversal of prox/detail/bvh_ray.inl with vector leaf and node
 * tests, AVX2 + FMA (the instructions of prox_simd_level() == AVX2; no
 * fused multiply-add is used: every lane evaluates the operations of the
 * portable code, without contraction).
 *
 * Compiled a second time by src/mesh/bvh_ray_avx512.c with PROX_BVHR_AVX512
 * defined: the same code in the AVX-512 encoding (mask registers for the
 * comparisons), with 512-bit vectors for the leaves (8 doubles or 16
 * floats a step) and the float refinement (8 lanes of double). Without the
 * instruction set the entry points exist and report themselves unavailable
 * (ok 0).
 *
 * Leaf (the fast path of prox_raycast_triangle(), as src/packet_avx2.c
 * evaluates it): 4 double or 8 float triangles per step (AVX-512: 8 and
 * 16), read in place
 * from the tree's structure-of-arrays leaves; a lane whose edge signs the
 * error bounds leave uncertain, whose t the kernel's fast path does not
 * take from the weights' quotient (much cancellation in the weights, a
 * quotient that overflowed or lost digits to underflow), or whose t may
 * have the wrong sign goes to prox_raycast_triangle() itself (float: the
 * uncertain edge functions are first evaluated in double, 8 lanes at once
 * with AVX-512, as the kernel does). Node: the four float boxes in one
 * vector (converted exactly to double for double meshes), the operations
 * of prox_bvh_detail_ray_node() lane by lane with the ray's constants
 * kept for the whole traversal; rays with a zero or subnormal direction
 * component never come here (src/mesh/bvh_ray_simd.h). */
#ifndef PBV_TEMPLATE

#include "bvh_ray_simd.h"
#include "../simd/rc_bound2_vec.h"

#if defined(PROX_BVHR_AVX512)
#define PBV_ISA avx512
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__) && defined(__AVX2__) && \
    defined(__FMA__)
#define PBV_HAVE 1
#endif
#else
#define PBV_ISA avx2
#if defined(__AVX2__) && defined(__FMA__)
#define PBV_HAVE 1
#endif
#endif

#define PBV_CAT2(a, b) a##_##b
#define PBV_CAT(a, b) PBV_CAT2(a, b)
#define PBV_ENTRY(name) PBV_CAT(prox_detail_bvhr_##name, PBV_ISA)

#if defined(PBV_HAVE)
#include <immintrin.h>

const int PBV_ENTRY(ok) = 1;

/* The node test reads the bounds at the offsets of prox_bvh_rayprep's
 * near_off / far_off: lo_x, lo_y, lo_z, hi_x, hi_y, hi_z, 16 bytes apart. */
_Static_assert(offsetof(prox_bvh_node, lo_y) == 16 && offsetof(prox_bvh_node, lo_z) == 32 &&
                   offsetof(prox_bvh_node, hi_x) == 48 && offsetof(prox_bvh_node, hi_z) == 80,
               "prox_bvh_node bounds layout");

#define PBV_INLINE static inline __attribute__((always_inline))

/* The address of p[q] as an integer (p + q may lie past the array: the
 * masked lanes of a load read nothing there). */
#define PBV_AT(p, q) ((uintptr_t)(p) + (uintptr_t)(q) * sizeof *(p))

/* ---- double: 4 lanes (AVX-512: 8, the node test stays at 4) ---- */
#include <prox/detail/real_double.h>
#if defined(PROX_BVHR_AVX512)
#define PV __m512d
#define PW 8
#define PS1(x) _mm512_set1_pd(x)
#define PADD _mm512_add_pd
#define PSUB _mm512_sub_pd
#define PMUL _mm512_mul_pd
#define PDIV _mm512_div_pd
#define PMIN _mm512_min_pd
#define PMAX _mm512_max_pd
#define PABS(a) _mm512_abs_pd(a)
#define PSTOREU(p, v) _mm512_storeu_pd((p), (v))
#define PLOADU(p) _mm512_loadu_pd(p)
/* masked lanes read nothing (fault suppression) */
#define PMASKLOAD(p, m) _mm512_maskz_loadu_pd((m), (p))
#define PMASKT __mmask8
#define PMASKN(k) ((__mmask8)((1u << (unsigned)(k)) - 1u))
#define PM __mmask8
#define PCMP(a, b, c) _mm512_cmp_pd_mask((a), (b), (c))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
/* The node test in double: 4 lanes of 256 bits. */
#define PBV_NODE_D4 1
#else
#define PV __m256d
#define PW 4
#define PS1(x) _mm256_set1_pd(x)
#define PADD _mm256_add_pd
#define PSUB _mm256_sub_pd
#define PMUL _mm256_mul_pd
#define PDIV _mm256_div_pd
#define PMIN _mm256_min_pd
#define PMAX _mm256_max_pd
#define PABS(a) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (a))
#define PSTOREU(p, v) _mm256_storeu_pd((p), (v))
#define PLOADU(p) _mm256_loadu_pd(p)
#define PMASKLOAD(p, m) _mm256_maskload_pd((p), (m))
#define PMASKT __m256i
/* lanes 0 .. k-1 set */
#define PMASKN(k) _mm256_cmpgt_epi64(_mm256_set1_epi64x(k), _mm256_setr_epi64x(0, 1, 2, 3))
/* the node's 4 float bounds, exactly in double */
#define PBOX(p) _mm256_cvtps_pd(_mm_load_ps(p))
#define PM __m256d
#define PCMP(a, b, c) _mm256_cmp_pd((a), (b), (c))
#define MAND _mm256_and_pd
#define MOR _mm256_or_pd
#define MINT(m) _mm256_movemask_pd(m)
#endif
#define PBV_TEMPLATE
#include "bvh_ray_avx2.c"
#undef PBV_TEMPLATE
#undef PBV_NODE_D4
#include <prox/detail/real_end.h>

/* ---- float: 8 lanes (AVX-512: 16, one step for a leaf of 16, the
 * default leaf size of float trees at that level, prox/bvh.h) ---- */
#include <prox/detail/real_float.h>
#if defined(PROX_BVHR_AVX512)
#define PV __m512
#define PW 16
#define PS1(x) _mm512_set1_ps(x)
#define PADD _mm512_add_ps
#define PSUB _mm512_sub_ps
#define PMUL _mm512_mul_ps
#define PDIV _mm512_div_ps
#define PMIN _mm512_min_ps
#define PMAX _mm512_max_ps
#define PABS(a) _mm512_abs_ps(a)
#define PSTOREU(p, v) _mm512_storeu_ps((p), (v))
#define PLOADU(p) _mm512_loadu_ps(p)
/* masked lanes read nothing (fault suppression) */
#define PMASKLOAD(p, m) _mm512_maskz_loadu_ps((m), (p))
#define PMASKT __mmask16
#define PMASKN(k) ((__mmask16)((1u << (unsigned)(k)) - 1u))
#define PM __mmask16
#define PCMP(a, b, c) _mm512_cmp_ps_mask((a), (b), (c))
#define MAND(a, b) ((__mmask16)((a) & (b)))
#define MOR(a, b) ((__mmask16)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PV __m256
#define PW 8
#define PS1(x) _mm256_set1_ps(x)
#define PADD _mm256_add_ps
#define PSUB _mm256_sub_ps
#define PMUL _mm256_mul_ps
#define PDIV _mm256_div_ps
#define PMIN _mm256_min_ps
#define PMAX _mm256_max_ps
#define PABS(a) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), (a))
#define PSTOREU(p, v) _mm256_storeu_ps((p), (v))
#define PLOADU(p) _mm256_loadu_ps(p)
#define PMASKLOAD(p, m) _mm256_maskload_ps((p), (m))
#define PMASKT __m256i
#define PMASKN(k)                                                                                  \
  _mm256_cmpgt_epi32(_mm256_set1_epi32(k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
#define PM __m256
#define PCMP(a, b, c) _mm256_cmp_ps((a), (b), (c))
#define MAND _mm256_and_ps
#define MOR _mm256_or_ps
#define MINT(m) _mm256_movemask_ps(m)
#endif
/* The node test in float: 4 lanes of 128 bits. */
#define PBV_NODE_F4 1
#define PBV_TEMPLATE
#include "bvh_ray_avx2.c"
#undef PBV_TEMPLATE
#undef PBV_NODE_F4
#include <prox/detail/real_end.h>

#else /* !PBV_HAVE */

const int PBV_ENTRY(ok) = 0;

size_t PBV_ENTRY(trav)(const prox_bvh_view *v, const prox_bvh_rayprep *pr, int mode,
                       uint32_t *best_pos, double *best, long *winding, prox_mesh_hit *hits,
                       size_t cap) {
  (void)v, (void)pr, (void)mode, (void)best_pos, (void)winding, (void)hits;
  (void)best;
  (void)cap;
  return 0;
}

size_t PBV_ENTRY(travf)(const prox_bvh_viewf *v, const prox_bvh_rayprepf *pr, int mode,
                        uint32_t *best_pos, float *best, long *winding, prox_mesh_hitf *hits,
                        size_t cap) {
  (void)v, (void)pr, (void)mode, (void)best_pos, (void)winding, (void)hits;
  (void)best;
  (void)cap;
  return 0;
}

#endif /* PBV_HAVE */

#else /* PBV_TEMPLATE: one precision */

#define PLT(a, b) PCMP((a), (b), _CMP_LT_OQ)
#define PLE(a, b) PCMP((a), (b), _CMP_LE_OQ)
#define PGT(a, b) PCMP((a), (b), _CMP_GT_OQ)
#define PGE(a, b) PCMP((a), (b), _CMP_GE_OQ)
#define PEQ(a, b) PCMP((a), (b), _CMP_EQ_OQ)

#if !PROX_IS_DOUBLE
/* The careful path of prox_raycast_trianglef() for the lanes `lanes`,
 * whose float edge signs are not all certain: the uncertain edge functions
 * are evaluated again in double with their bound (as
 * prox_detail_rc_edge_slowf does). Lanes whose signs, float and double
 * together, are certain and not all of one sign are misses. Lanes whose
 * signs are certain and of one sign are hits with every weight and t from
 * the ray space in double, as prox_detail_rc_tri_t_doublef makes them (its
 * operations, lane by lane): t in tsj[], the barycentrics in bsj (may be
 * NULL), the lanes in *hm. Returned, for the scalar kernel: the lanes that
 * double does not decide either, and hits whose t's sign that function
 * would settle exactly (or whose float t underflowed). fpos, fneg: the
 * lanes whose float sign of edge k is certainly positive / negative;
 * ax[k n], ay[k n], az[k n]: coordinate kx, ky, kz (the ray space's
 * axes) of vertex k of the lanes; left: the lanes that may be read (the
 * rest read nothing). Out of line: the leaf reaches it rarely. */
static __attribute__((noinline)) int pbv_refinef(const prox_bvh_rayprepf *pr, const float *ax,
                                                 const float *ay, const float *az, size_t n,
                                                 uint32_t left, const int *fpos, const int *fneg,
                                                 int lanes, float *tsj, float *bsj, int *hm) {
  const prox_detail_rayspacef *rs = &pr->rs;
  double cd[3][8], td[8], nd[8], ed[8], zd[3][8];
  int dpos[3] = {0, 0, 0}, dneg[3] = {0, 0, 0}, k, i, und = 0, sp[3], sn[3];
  int allp, alln, rest, hitl, back;
  /* prox_detail_rc_rayspace() in double on the float ray: the same axes
   * (the comparisons of |d| are exact in either precision), one division,
   * the same products. */
  double szd = 1 / (double)pr->dir[rs->kz];
  double sxd = (double)pr->dir[rs->kx] * szd, syd = (double)pr->dir[rs->ky] * szd;
#if defined(PROX_BVHR_AVX512)
  {
    /* All 8 lanes in one vector of doubles. */
    __m512d X[3], Y[3], M[3], Z[3], E[3], num, det, err = _mm512_setzero_pd();
    __m512d ox = _mm512_set1_pd(pr->org[rs->kx]), oy = _mm512_set1_pd(pr->org[rs->ky]);
    __m512d oz = _mm512_set1_pd(pr->org[rs->kz]);
    __m512d sx = _mm512_set1_pd(sxd), sy = _mm512_set1_pd(syd), sz = _mm512_set1_pd(szd);
    __m512d bscale = _mm512_set1_pd(48.0 * DBL_EPSILON), e4 = _mm512_set1_pd(4.0 * DBL_EPSILON);
    __mmask8 lm = (__mmask8)(left >= 8 ? 0xff : (1u << left) - 1);
    for (k = 0; k < 3; ++k) {
      __m512d px =
          _mm512_sub_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(lm, (ax + (size_t)k * n))), ox);
      __m512d py =
          _mm512_sub_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(lm, (ay + (size_t)k * n))), oy);
      __m512d pz =
          _mm512_sub_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(lm, (az + (size_t)k * n))), oz);
      M[k] = _mm512_max_pd(_mm512_max_pd(_mm512_abs_pd(px), _mm512_abs_pd(py)), _mm512_abs_pd(pz));
      X[k] = _mm512_sub_pd(px, _mm512_mul_pd(sx, pz));
      Y[k] = _mm512_sub_pd(py, _mm512_mul_pd(sy, pz));
      Z[k] = _mm512_mul_pd(sz, pz);
    }
    for (k = 0; k < 3; ++k) {
      int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
      __m512d bd = _mm512_mul_pd(bscale, _mm512_mul_pd(M[p], M[q]));
      E[k] = _mm512_sub_pd(_mm512_mul_pd(X[p], Y[q]), _mm512_mul_pd(Y[p], X[q]));
      dpos[k] = (int)_mm512_cmp_pd_mask(E[k], bd, _CMP_GT_OQ);
      dneg[k] = (int)_mm512_cmp_pd_mask(E[k], _mm512_sub_pd(_mm512_setzero_pd(), bd), _CMP_LT_OQ);
      /* The error sum of prox_detail_rc_tri_t_doublef. */
      err = _mm512_add_pd(err,
                          _mm512_mul_pd(_mm512_add_pd(bd, _mm512_mul_pd(e4, _mm512_abs_pd(E[k]))),
                                        _mm512_abs_pd(Z[k])));
      _mm512_storeu_pd(zd[k], Z[k]);
    }
    num = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(E[0], Z[0]), _mm512_mul_pd(E[1], Z[1])),
                        _mm512_mul_pd(E[2], Z[2]));
    det = _mm512_add_pd(_mm512_add_pd(E[0], E[1]), E[2]);
    _mm512_storeu_pd(nd, num);
    _mm512_storeu_pd(td, _mm512_div_pd(num, det));
    _mm512_storeu_pd(ed, err);
    for (k = 0; k < 3; ++k)
      _mm512_storeu_pd(cd[k], _mm512_div_pd(E[k], det));
  }
#else
  {
    int h;
    for (h = 0; h < 2; ++h) {
      __m256d X[3], Y[3], M[3], Z[3], E[3], num, det, err = _mm256_setzero_pd();
      __m256d ox = _mm256_set1_pd(pr->org[rs->kx]), oy = _mm256_set1_pd(pr->org[rs->ky]);
      __m256d oz = _mm256_set1_pd(pr->org[rs->kz]);
      __m256d sx = _mm256_set1_pd(sxd), sy = _mm256_set1_pd(syd), sz = _mm256_set1_pd(szd);
      __m256d sgn = _mm256_set1_pd(-0.0);
      uint32_t at = 4u * (uint32_t)h;
      if (!((lanes >> (4 * h)) & 15)) continue;
      for (k = 0; k < 3; ++k) {
        __m128 fx, fy, fz;
        __m256d px, py, pz;
        if (left >= at + 4u) {
          fx = _mm_loadu_ps((ax + (size_t)k * n) + at);
          fy = _mm_loadu_ps((ay + (size_t)k * n) + at);
          fz = _mm_loadu_ps((az + (size_t)k * n) + at);
        } else {
          int nl = (int)left - 4 * h;
          __m128i lm = _mm_cmpgt_epi32(_mm_set1_epi32(nl < 0 ? 0 : nl), _mm_setr_epi32(0, 1, 2, 3));
          fx = _mm_maskload_ps((const float *)PBV_AT((ax + (size_t)k * n), at), lm);
          fy = _mm_maskload_ps((const float *)PBV_AT((ay + (size_t)k * n), at), lm);
          fz = _mm_maskload_ps((const float *)PBV_AT((az + (size_t)k * n), at), lm);
        }
        px = _mm256_sub_pd(_mm256_cvtps_pd(fx), ox);
        py = _mm256_sub_pd(_mm256_cvtps_pd(fy), oy);
        pz = _mm256_sub_pd(_mm256_cvtps_pd(fz), oz);
        M[k] = _mm256_max_pd(_mm256_max_pd(_mm256_andnot_pd(sgn, px), _mm256_andnot_pd(sgn, py)),
                             _mm256_andnot_pd(sgn, pz));
        X[k] = _mm256_sub_pd(px, _mm256_mul_pd(sx, pz));
        Y[k] = _mm256_sub_pd(py, _mm256_mul_pd(sy, pz));
        Z[k] = _mm256_mul_pd(sz, pz);
      }
      for (k = 0; k < 3; ++k) {
        int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
        __m256d bd = _mm256_mul_pd(_mm256_set1_pd(48.0 * DBL_EPSILON), _mm256_mul_pd(M[p], M[q]));
        E[k] = _mm256_sub_pd(_mm256_mul_pd(X[p], Y[q]), _mm256_mul_pd(Y[p], X[q]));
        dpos[k] |= _mm256_movemask_pd(_mm256_cmp_pd(E[k], bd, _CMP_GT_OQ)) << (4 * h);
        dneg[k] |= _mm256_movemask_pd(
                       _mm256_cmp_pd(E[k], _mm256_sub_pd(_mm256_setzero_pd(), bd), _CMP_LT_OQ))
                   << (4 * h);
        /* The error sum of prox_detail_rc_tri_t_doublef. */
        err = _mm256_add_pd(
            err, _mm256_mul_pd(_mm256_add_pd(bd, _mm256_mul_pd(_mm256_set1_pd(4.0 * DBL_EPSILON),
                                                               _mm256_andnot_pd(sgn, E[k]))),
                               _mm256_andnot_pd(sgn, Z[k])));
        _mm256_storeu_pd(zd[k] + 4 * h, Z[k]);
      }
      num = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(E[0], Z[0]), _mm256_mul_pd(E[1], Z[1])),
                          _mm256_mul_pd(E[2], Z[2]));
      det = _mm256_add_pd(_mm256_add_pd(E[0], E[1]), E[2]);
      _mm256_storeu_pd(nd + 4 * h, num);
      _mm256_storeu_pd(td + 4 * h, _mm256_div_pd(num, det));
      _mm256_storeu_pd(ed + 4 * h, err);
      for (k = 0; k < 3; ++k)
        _mm256_storeu_pd(cd[k] + 4 * h, _mm256_div_pd(E[k], det));
    }
  }
#endif
  for (k = 0; k < 3; ++k) {
    int fc = fpos[k] | fneg[k];
    sp[k] = fpos[k] | (~fc & dpos[k]);
    sn[k] = fneg[k] | (~fc & dneg[k]);
    und |= ~fc & ~(dpos[k] | dneg[k]);
  }
  rest = lanes & ~und;
  allp = sp[0] & sp[1] & sp[2];
  alln = sn[0] & sn[1] & sn[2];
  hitl = rest & (allp | alln);
  back = lanes & und;
  *hm = 0;
  for (i = 0; i < 8; ++i) {
    float t, w[3], det;
    int zp = 0, zn = 0;
    if (!(hitl >> i & 1)) continue;
    for (k = 0; k < 3; ++k) {
      zp += zd[k][i] > 0;
      zn += zd[k][i] < 0;
      w[k] = (float)cd[k][i];
    }
    t = (float)td[i];
    if ((zp != 3 && zn != 3 && fabs(nd[i]) <= 2.0 * ed[i]) || (t == 0 && td[i] != 0)) {
      back |= 1 << i;
      continue;
    }
    if (!(t >= pr->ray.tmin && t <= pr->ray.tmax) || !(fabsf(t) < PROX_INF)) continue;
    *hm |= 1 << i;
    tsj[i] = t;
    if (bsj) {
      det = w[0] + w[1] + w[2];
      for (k = 0; k < 3; ++k)
        bsj[k * PROX_BVH_MAX_LEAF + i] = w[k] / det;
    }
  }
  return back;
}
#endif

/* From the lanes whose edge signs are certainly positive (pos) or
 * negative (neg): *certain, the lanes with all three signs certain; *hitc,
 * those with three certain signs alike (hits); returned, the live lanes
 * still open (not certain, and not two signs certainly opposite: a miss
 * whatever the third). */
PBV_INLINE int PROX_FN(pbv_signs)(const PM *pos, const PM *neg, int live, int *certain, int *hitc) {
  int anyp = MINT(pos[0]) | MINT(pos[1]) | MINT(pos[2]);
  int anyn = MINT(neg[0]) | MINT(neg[1]) | MINT(neg[2]);
  *certain = MINT(MOR(pos[0], neg[0])) & MINT(MOR(pos[1], neg[1])) & MINT(MOR(pos[2], neg[2]));
  *hitc = MINT(MAND(MAND(pos[0], pos[1]), pos[2])) | MINT(MAND(MAND(neg[0], neg[1]), neg[2]));
  return ~*certain & ~(anyp & anyn) & live;
}

/* The leaf test: prox_raycast_triangle()'s hits and t on the n triangles
 * from position first (see the top of the file). */
PBV_INLINE uint32_t PROX_FN(pbv_leaf)(const PROX_FN(prox_bvh_view) * v,
                                      const PROX_FN(prox_bvh_rayprep) * pr, uint32_t first,
                                      uint32_t n, PROX_REAL *ts, PROX_REAL *bs) {
  const PROX_FN(prox_detail_rayspace) *rs = &pr->rs;
  PV sx = PS1(rs->sx), sy = PS1(rs->sy), sz = PS1(rs->sz), zero = PS1(0);
  PV ox = PS1(pr->org[rs->kx]), oy = PS1(pr->org[rs->ky]), oz = PS1(pr->org[rs->kz]);
  PV tmin = PS1(pr->ray.tmin), tmax = PS1(pr->ray.tmax);
  PV bscale = PS1(PROX_R(48.0) * PROX_EPS), inf = PS1(PROX_INF);
  PV bmin = PS1(PROX_DETAIL_RC_BMIN), qmin = PS1(PROX_DETAIL_RC_QMIN);
  PV rmax = PS1(PROX_R(PROX_DETAIL_RC_RMAX));
  /* The leaf's block (prox/detail/bvh_layout.h): row 3 c + k holds
   * coordinate c of vertex k, n reals a row; ax, ay, az: the first rows of
   * the ray space's axes kx, ky, kz (vertex k: k n further). */
  const PROX_REAL *blk = v->tri + 9 * (size_t)first;
  size_t nn = n;
  const PROX_REAL *ax = blk + 3 * (size_t)rs->kx * nn, *ay = blk + 3 * (size_t)rs->ky * nn;
  const PROX_REAL *az = blk + 3 * (size_t)rs->kz * nn;
  uint32_t j, mask = 0;
  int k;
  for (j = 0; j < n; j += PW) {
    uint32_t left = n - j;
    int live = left >= PW ? (1 << PW) - 1 : (1 << left) - 1;
    /* Whole vectors may be read past the leaf (into the next rows or
     * leaves) while they stay inside the array; else only the live lanes
     * are read. */
    int full = 9 * (size_t)first + 8 * (size_t)n + j + PW <= 9 * (size_t)v->triangle_count;
    PV X[3], Y[3], Z[3], M[3], w[3], B[3], P1[3], P2[3], det, num, t;
    PM pos_[3], neg_[3];
    int certain, hitc, hard, inr, unc, uncE, mixed, m, i;
    if (full) {
      for (k = 0; k < 3; ++k) {
        PV px = PSUB(PLOADU((ax + (size_t)k * nn) + j), ox);
        PV py = PSUB(PLOADU((ay + (size_t)k * nn) + j), oy);
        PV pz = PSUB(PLOADU((az + (size_t)k * nn) + j), oz);
        M[k] = PMAX(PMAX(PABS(px), PABS(py)), PABS(pz));
        X[k] = PSUB(px, PMUL(sx, pz));
        Y[k] = PSUB(py, PMUL(sy, pz));
        Z[k] = PMUL(sz, pz);
      }
    } else {
      PMASKT lm = PMASKN((int)(left < PW ? left : PW));
      for (k = 0; k < 3; ++k) {
        PV px = PSUB(PMASKLOAD((const PROX_REAL *)PBV_AT((ax + (size_t)k * nn), j), lm), ox);
        PV py = PSUB(PMASKLOAD((const PROX_REAL *)PBV_AT((ay + (size_t)k * nn), j), lm), oy);
        PV pz = PSUB(PMASKLOAD((const PROX_REAL *)PBV_AT((az + (size_t)k * nn), j), lm), oz);
        M[k] = PMAX(PMAX(PABS(px), PABS(py)), PABS(pz));
        X[k] = PSUB(px, PMUL(sx, pz));
        Y[k] = PSUB(py, PMUL(sy, pz));
        Z[k] = PMUL(sz, pz);
      }
    }
    for (k = 0; k < 3; ++k) {
      /* w[k]: the edge opposite vertex k, P = V[k+1] to Q = V[k+2]. */
      int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
      PV e;
      P1[k] = PMUL(X[p], Y[q]);
      P2[k] = PMUL(Y[p], X[q]);
      e = PSUB(P1[k], P2[k]);
      PV bd = PADD(PMUL(bscale, PMUL(M[p], M[q])), bmin);
      pos_[k] = PGT(e, bd);
      neg_[k] = PLT(e, PSUB(zero, bd));
      w[k] = e;
      B[k] = bd;
    }
    unc = PROX_FN(pbv_signs)(pos_, neg_, live, &certain, &hitc);
    if (unc) {
      /* The kernel's second bound (prox_detail_rc_edge_bound2, its
       * operations lane by lane) where the first leaves a sign open: it
       * settles most of them (a triangle far from the ray's origin). */
      PV rmin = PS1(PROX_REAL_MIN), c3 = PS1(PROX_R(3.0) * PROX_EPS);
      PV c32 = PS1(PROX_R(32.0) * PROX_EPS * PROX_EPS),
         cmin = PS1(PROX_R(8.0) * PROX_REAL_MIN * PROX_EPS);
      for (k = 0; k < 3; ++k) {
        int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
        PV bd =
            PROX_RC_BOUND2_V(X[p], Y[p], M[p], X[q], Y[q], M[q], P1[k], P2[k], rmin, c3, c32, cmin);
        pos_[k] = MOR(pos_[k], PGT(w[k], bd));
        neg_[k] = MOR(neg_[k], PLT(w[k], PSUB(zero, bd)));
      }
      unc = PROX_FN(pbv_signs)(pos_, neg_, live, &certain, &hitc);
    }
    uncE = unc;
    hitc &= live;
    if (!(hitc | unc)) continue;
    det = PADD(PADD(w[0], w[1]), w[2]);
    num = PADD(PADD(PMUL(w[0], Z[0]), PMUL(w[1], Z[1])), PMUL(w[2], Z[2]));
    t = PDIV(num, det);
    /* The hits whose quotient the kernel does not trust (much cancellation
     * in the weights, or a quotient that overflowed or lost digits to
     * underflow) go to it: its test, in one mask (as in
     * src/simd/packet_vec_type.inl). */
    hard = 0;
    if (hitc) {
      PV can = PADD(PADD(PADD(PABS(P1[0]), PABS(P2[0])), PADD(PABS(P1[1]), PABS(P2[1]))),
                    PADD(PABS(P1[2]), PABS(P2[2])));
      hard = MINT(MOR(
          MOR(PCMP(PMIN(PABS(num), PABS(det)), qmin, _CMP_NGE_UQ), PCMP(PABS(t), inf, _CMP_NLT_UQ)),
          PGT(can, PMUL(rmax, PABS(det)))));
    }
    inr = MINT(MAND(MAND(PGE(t, tmin), PLE(t, tmax)), PLT(PABS(t), inf)));
    unc |= hitc & hard;
    /* Vertices on both sides of the origin along the ray: t's sign may be
     * wrong where |num| is within its bound (prox_detail_rc_t_near0). */
    mixed = ~(MINT(MAND(MAND(PGT(Z[0], zero), PGT(Z[1], zero)), PGT(Z[2], zero))) |
              MINT(MAND(MAND(PLT(Z[0], zero), PLT(Z[1], zero)), PLT(Z[2], zero))));
    if (hitc & ~hard & mixed) {
      PV e4 = PS1(PROX_R(4.0) * PROX_EPS), e = zero;
      for (k = 0; k < 3; ++k)
        e = PADD(e, PMUL(PADD(B[k], PMUL(e4, PABS(w[k]))), PABS(Z[k])));
      unc |= hitc & ~hard & mixed & MINT(PLE(PABS(PMUL(t, det)), PMUL(PS1(PROX_R(2.0)), e)));
    }
    m = hitc & inr & ~unc;
    PSTOREU(ts + j, t);
    if (bs && m)
      for (k = 0; k < 3; ++k)
        PSTOREU(bs + k * PROX_BVH_MAX_LEAF + j, PDIV(w[k], det));
#if !PROX_IS_DOUBLE
    if (uncE) {
      /* Float signs uncertain: double first (the kernel's own order),
       * which leaves the misses it decides out; 8 lanes at a time. */
      int fp[3], fn[3], back = 0, h;
      uint32_t readable = full ? (uint32_t)PW : left;
      for (k = 0; k < 3; ++k) {
        fp[k] = MINT(pos_[k]);
        fn[k] = MINT(neg_[k]);
      }
      for (h = 0; h < PW; h += 8) {
        int fph[3], fnh[3], hm = 0, lanes = (uncE >> h) & 0xff;
        uint32_t off = (uint32_t)h;
        if (!lanes) continue;
        for (k = 0; k < 3; ++k) {
          fph[k] = (fp[k] >> h) & 0xff;
          fnh[k] = (fn[k] >> h) & 0xff;
        }
        back |= pbv_refinef(pr, ax + j + off, ay + j + off, az + j + off, nn,
                            readable > off ? readable - off : 0, fph, fnh, lanes, ts + j + off,
                            bs ? bs + j + off : NULL, &hm)
                << h;
        m |= hm << h;
      }
      unc = (unc & ~uncE) | back;
    }
#else
    (void)uncE;
#endif
    for (i = 0; unc; ++i, unc >>= 1) {
      if (unc & 1) {
        PROX_FN(prox_triangle) tr;
        PROX_FN(prox_rayhit) h;
        int c;
        for (c = 0; c < 3; ++c) {
          tr.v[c].x = blk[(size_t)c * n + j + (uint32_t)i];
          tr.v[c].y = blk[(size_t)(3 + c) * n + j + (uint32_t)i];
          tr.v[c].z = blk[(size_t)(6 + c) * n + j + (uint32_t)i];
        }
        if (PROX_FN(prox_raycast_triangle)(&pr->ray, &tr, &h)) {
          ts[j + (uint32_t)i] = h.t;
          if (bs)
            for (c = 0; c < 3; ++c)
              bs[(uint32_t)c * PROX_BVH_MAX_LEAF + j + (uint32_t)i] = h.bary[c];
          m |= 1 << i;
        }
      }
    }
    mask |= (uint32_t)m << j;
  }
  return mask;
}

#if defined(PBV_NODE_F4)
/* The node test in float: 4 lanes of 128 bits. */
#define QV __m128
#define QS1(x) _mm_set1_ps(x)
#define QL(p) _mm_load_ps(p)
#define QADD _mm_add_ps
#define QSUB _mm_sub_ps
#define QMUL _mm_mul_ps
#define QMIN _mm_min_ps
#define QMAX _mm_max_ps
#define QABS(a) _mm_andnot_ps(_mm_set1_ps(-0.0f), (a))
#define QSTOREU(p, v) _mm_storeu_ps((p), (v))
#if defined(PROX_BVHR_AVX512)
#define QCMPINT(a, b, c) ((int)_mm_cmp_ps_mask((a), (b), (c)))
#else
#define QCMPINT(a, b, c) _mm_movemask_ps(_mm_cmp_ps((a), (b), (c)))
#endif
#elif defined(PBV_NODE_D4)
/* The node test in double: 4 lanes of 256 bits (AVX-512 masks). */
#define QV __m256d
#define QS1(x) _mm256_set1_pd(x)
#define QL(p) _mm256_cvtps_pd(_mm_load_ps(p))
#define QADD _mm256_add_pd
#define QSUB _mm256_sub_pd
#define QMUL _mm256_mul_pd
#define QMIN _mm256_min_pd
#define QMAX _mm256_max_pd
#define QABS(a) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (a))
#define QSTOREU(p, v) _mm256_storeu_pd((p), (v))
#define QCMPINT(a, b, c) ((int)_mm256_cmp_pd_mask((a), (b), (c)))
#else
#define QV PV
#define QS1 PS1
#define QL PBOX
#define QADD PADD
#define QSUB PSUB
#define QMUL PMUL
#define QMIN PMIN
#define QMAX PMAX
#define QABS PABS
#define QSTOREU PSTOREU
#define QCMPINT(a, b, c) MINT(PCMP((a), (b), (c)))
#endif

/* The node test's constants of one ray: the origin, the negated
 * reciprocal direction (fl(o - L) (-1/d) is bitwise fl(L - o) (1/d) up to
 * the sign of a zero, which no comparison sees; in this order the box
 * operand can be read from memory), the offsets of the entry and exit
 * bounds per axis, tmin, 4 eps and the slack (prox/detail/bvh_ray.inl).
 * Only for directions whose components are all normal numbers (pr->mode
 * all 0; bvh_ray_simd.h). */
typedef struct PROX_FN(pbv_nctx) {
  QV o[3], ninv[3], tmin, e4, slack;
  size_t nf[3], ff[3];
} PROX_FN(pbv_nctx);

PBV_INLINE const PROX_FN(pbv_nctx) *
    PROX_FN(pbv_nctx_init)(PROX_FN(pbv_nctx) * c, const PROX_FN(prox_bvh_rayprep) * pr) {
  int i;
  for (i = 0; i < 3; ++i) {
    c->o[i] = QS1(pr->org[i]);
    c->ninv[i] = QS1(-pr->inv[i]);
    c->nf[i] = pr->near_off[i];
    c->ff[i] = pr->far_off[i];
  }
  c->tmin = QS1(pr->ray.tmin);
  c->e4 = QS1(PROX_R(4.0) * PROX_EPS);
  c->slack = QS1(pr->slack);
  return c;
}

/* The node test (see the top of the file): the operations of
 * prox_bvh_detail_ray_node() on the four slots at once. */
PBV_INLINE int PROX_FN(pbv_node)(const PROX_FN(pbv_nctx) * c, const prox_bvh_node *nd,
                                 PROX_REAL tcur, PROX_REAL *tn) {
  const char *base = (const char *)nd;
  QV en, ex, a, b;
  /* The entry and exit planes chosen by the direction's sign, as the
   * portable test chooses them. Empty slots (lo = +inf, hi = -inf) give
   * an entry of +inf and fail. */
  en = QMUL(QSUB(c->o[0], QL((const float *)(base + c->nf[0]))), c->ninv[0]);
  ex = QMUL(QSUB(c->o[0], QL((const float *)(base + c->ff[0]))), c->ninv[0]);
  en = QMAX(QMUL(QSUB(c->o[1], QL((const float *)(base + c->nf[1]))), c->ninv[1]), en);
  ex = QMIN(QMUL(QSUB(c->o[1], QL((const float *)(base + c->ff[1]))), c->ninv[1]), ex);
  en = QMAX(QMUL(QSUB(c->o[2], QL((const float *)(base + c->nf[2]))), c->ninv[2]), en);
  ex = QMIN(QMUL(QSUB(c->o[2], QL((const float *)(base + c->ff[2]))), c->ninv[2]), ex);
  a = QMAX(en, c->tmin);
  b = QMIN(ex, QS1(tcur));
  QSTOREU(tn, a);
  return QCMPINT(a, QADD(QADD(b, QMUL(c->e4, QABS(b))), c->slack), _CMP_LE_OQ) &
         QCMPINT(a, QS1(PROX_INF), _CMP_LT_OQ);
}

#undef QV
#undef QS1
#undef QL
#undef QADD
#undef QSUB
#undef QMUL
#undef QMIN
#undef QMAX
#undef QABS
#undef QSTOREU
#undef QCMPINT

#define PROX_BVHR_CUSTOM 1
#define PROX_BVHR_NAME(name) PROX_FN(pbv_##name)
#define PROX_BVHR_QUAL static
#define PROX_BVHR_LEAF(v, pr, first, n, ts, bs) PROX_FN(pbv_leaf)(v, pr, first, n, ts, bs)
#define PROX_BVHR_CTX(pr, ctx)                                                                     \
  PROX_FN(pbv_nctx) ctx##_v;                                                                       \
  const PROX_FN(pbv_nctx) *ctx = PROX_FN(pbv_nctx_init)(&ctx##_v, pr)
#define PROX_BVHR_NODE(ctx, nd, tcur, tn) PROX_FN(pbv_node)(ctx, nd, tcur, tn)
#define PROX_BVHR_WALKQUAL PBV_INLINE
#include <prox/detail/bvh_ray.inl>
#undef PROX_BVHR_CUSTOM

#if PROX_IS_DOUBLE
size_t PBV_ENTRY(trav)(const prox_bvh_view *v, const prox_bvh_rayprep *pr, int mode,
                       uint32_t *best_pos, double *best, long *winding, prox_mesh_hit *hits,
                       size_t cap) {
  return pbv_prox_bvh_detail_ray_trav(v, pr, mode, best_pos, best, winding, hits, cap);
}
#else
size_t PBV_ENTRY(travf)(const prox_bvh_viewf *v, const prox_bvh_rayprepf *pr, int mode,
                        uint32_t *best_pos, float *best, long *winding, prox_mesh_hitf *hits,
                        size_t cap) {
  return pbv_prox_bvh_detail_ray_travf(v, pr, mode, best_pos, best, winding, hits, cap);
}
#endif

#undef PLT
#undef PLE
#undef PGT
#undef PGE
#undef PEQ
#undef PV
#undef PW
#undef PS1
#undef PADD
#undef PSUB
#undef PMUL
#undef PDIV
#undef PMIN
#undef PMAX
#undef PABS
#undef PSTOREU
#undef PLOADU
#undef PMASKLOAD
#undef PMASKT
#undef PMASKN
#undef PBOX
#undef PM
#undef PCMP
#undef MAND
#undef MOR
#undef MINT

#endif /* PBV_TEMPLATE */
