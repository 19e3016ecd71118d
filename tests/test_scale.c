/* SPDX-License-Identifier: MIT */
/* test_scale: the queries commute with scaling by a power of two. Multiplying
 * every coordinate, radius, half extent, offset and direction by 2^k is exact
 * in floating point, and so is every operation of an exact-rational answer: the
 * squared distance becomes 4^k times, points 2^k times, parameters that are
 * lengths 2^k times, and ratios (segment and line parameters, barycentrics) and
 * features stay. The kernels' own arithmetic commutes with the scaling too, as
 * long as nothing underflows or overflows and no decision compares quantities
 * of different degree (a tolerance of degree 4 against a distance of degree 2,
 * say): so the results must match bit for bit. A mismatch is a scale dependence
 * that the oracle tests, which run at a few fixed scales, do not see.
 *
 * Checked, at scales 2^k for k in +-1, +-7, +-60, +-200 (double) and
 * +-1, +-7, +-20 (float) against scale 1:
 * - every K1 kernel, with a result and with out = NULL, and the signed
 *   distances (2^k times);
 * - prox_point_in_triangle (the same answer) and prox_triangle_barycentric
 *   (the same bits);
 * - every K2 kernel, with a result and with out = NULL;
 * - every ray cast (K3), with a hit record and without: the same hit, t,
 *   t_exit, normal, barycentrics and feature, the point 2^k times;
 * - every contact kernel (K4): value, gradient and Hessian 2^(dk),
 *   2^((d-1)k) and 2^((d-2)k) times (d = 2; 4 for the cross norm), bit for
 *   bit, or within 16 units of the subnormal grid where the scaled value
 *   lies below the normal range.
 * - every overlap test: the same answer.
 * And at 2^+-300, +-400, +-500 (float +-40, +-60), where fast paths
 * overflow or underflow and others take over: every K1 and K2 value within
 * twice the error bound of the scale-1 value (16 eps S^2, S = 2; distances
 * 16 eps S), barycentrics by the points they give, every overlap test's
 * answer unchanged, and every ray cast whose answer at scale 1 is robust
 * (unchanged when the direction or the origin moves by 1e-9 |dir|, float
 * 1e-3) the same hit, with t within that much.
 * Inputs: uniform in [-1, 1]^3, general and degenerate (zero length,
 * collinear and flat, points on the primitive, points within a few ulps of
 * a flat triangle's edges, triangles with a short edge; rays aimed at and
 * starting from the segment a b; parallel and short contact edges).
 *
 *   test_scale [FILTER] [--scale=X] [--list] [--max-print=N]
 *
 * The per-precision bodies are written once: this file includes itself
 * twice with TEST_SCALE_TEMPLATE defined (double, then float). */
#ifndef TEST_SCALE_TEMPLATE

#include <prox/contact.h>
#include <prox/prox.h>

#include <math.h>
#include <string.h>

#include "harness.h"
#include "kernels.h"

#include "rng.h"

#define TEST_SCALE_TEMPLATE
#include <prox/detail/real_double.h>
static const int ts_exps[] = {1, -1, 7, -7, 60, -60, 200, -200};
#define TS_NEXP 8
static const int ts_far[] = {300, -300, 400, -400, 500, -500};
#define TS_NFAR 6
/* The short edge of the short-edge triangles: at 2^-200 the triangle's
 * |e1|^2 |e2|^2 (about 2^-880) stays above the floor of the plain path of
 * prox_point_triangle (PROX_TRI_TINY, about 2^-1002, float 2^-116), where
 * bitwise scaling is promised. */
#define TS_SHORT 0x1p-20
#include "test_scale.c"
#undef TS_SHORT
#undef TS_NEXP
#undef TS_NFAR
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
static const int ts_expsf[] = {1, -1, 7, -7, 20, -20};
#define TS_NEXP 6
static const int ts_farf[] = {40, -40, 60, -60};
#define TS_NFAR 4
/* Float: at 2^-20, |e1|^2 |e2|^2 about 2^-96. */
#define TS_SHORT 0x1p-8f
#include "test_scale.c"
#undef TS_SHORT
#undef TS_NEXP
#undef TS_NFAR
#include <prox/detail/real_end.h>
#undef TEST_SCALE_TEMPLATE

static void test_point(void) {
  body_point(0);
  body_pointf(0);
}

static void test_pair(void) {
  body_pair(0);
  body_pairf(0);
}

static void test_ray(void) {
  body_ray(0);
  body_rayf(0);
}

static void test_ray_far(void) {
  body_ray(1);
  body_rayf(1);
}

static void test_contact(void) {
  body_contact();
  body_contactf();
}

static void test_overlap(void) {
  body_overlap(0);
  body_overlapf(0);
}

static void test_overlap_far(void) {
  body_overlap(1);
  body_overlapf(1);
}

static void test_point_far(void) {
  body_point(1);
  body_pointf(1);
}

static void test_pair_far(void) {
  body_pair(1);
  body_pairf(1);
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_point);
  H_RUN(test_pair);
  H_RUN(test_ray);
  H_RUN(test_contact);
  H_RUN(test_overlap);
  H_RUN(test_point_far);
  H_RUN(test_pair_far);
  H_RUN(test_ray_far);
  H_RUN(test_overlap_far);
  return h_finish();
}

#else /* TEST_SCALE_TEMPLATE: one precision */

#define VEC PROX_FN(prox_vec3)
#define TFN(name) PROX_FN(name)

#include "k1_prims.h"
#if PROX_IS_DOUBLE
#define TS_EXPS ts_exps
#define TS_FAR ts_far
#define TS_NEXT nextafter
#define TS_RAY_DELTA 1e-9
#else
#define TS_EXPS ts_expsf
#define TS_FAR ts_farf
#define TS_NEXT nextafterf
#define TS_RAY_DELTA 1e-3f
#endif

static VEC TFN(ts_vec)(oracle_rng *s) {
  return PROX_FN(prox_v3)((PROX_REAL)oracle_rng_range(s, -1, 1),
                          (PROX_REAL)oracle_rng_range(s, -1, 1),
                          (PROX_REAL)oracle_rng_range(s, -1, 1));
}

static PROX_REAL TFN(ts_sc)(PROX_REAL x, int k) {
  return (PROX_REAL)ldexp((double)x, k);
}

static VEC TFN(ts_sc3)(VEC v, int k) {
  return PROX_FN(prox_v3)(TFN(ts_sc)(v.x, k), TFN(ts_sc)(v.y, k), TFN(ts_sc)(v.z, k));
}

static int TFN(ts_same)(PROX_REAL a, PROX_REAL b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

static int TFN(ts_same3)(VEC a, VEC b) {
  return TFN(ts_same)(a.x, b.x) && TFN(ts_same)(a.y, b.y) && TFN(ts_same)(a.z, b.z);
}

/* A value of degree dp (2: a squared distance, 1: a distance) at scale 2^k
 * against the same query's value v1 at scale 1. far = 0: the same bits,
 * scaled. far = 1: within twice the documented error bound, 8 eps S^dp
 * with S = 2 (the inputs are within [-2, 2]), plus 64 units of the
 * smallest normal times eps at scale 2^k (where squares become
 * subnormal). */
static int TFN(ts_agree)(PROX_REAL vk, PROX_REAL v1, int k, int dp, int far) {
  double back, tol, sub = 64 * (double)PROX_REAL_MIN * (double)PROX_EPS;
  if (!far) return TFN(ts_same)(vk, TFN(ts_sc)(v1, dp * k));
  back = ldexp((double)vk, -dp * k);
  tol = 16 * (double)PROX_EPS * (dp == 2 ? 4.0 : 2.0) + ldexp(sub, -dp * k);
  return fabs(back - (double)v1) <= tol;
}

/* The point u v[0] + v v[1] + w v[2] of barycentrics b, in double. */
static void TFN(ts_bpoint)(const PROX_FN(prox_triangle) * t, VEC b, double *x) {
  const VEC *v = t->v;
  x[0] = b.x * (double)v[0].x + b.y * (double)v[1].x + b.z * (double)v[2].x;
  x[1] = b.x * (double)v[0].y + b.y * (double)v[1].y + b.z * (double)v[2].y;
  x[2] = b.x * (double)v[0].z + b.y * (double)v[1].z + b.z * (double)v[2].z;
}

/* The K1 result rk at scale 2^k is r1 scaled: squared distance 4^k times,
 * point 2^k times, parameters 2^(k ps) times, the same feature. */
static int TFN(ts_k1_cov)(const PROX_FN(prox_closest) * r1, const PROX_FN(prox_closest) * rk, int k,
                          int ps) {
  int i, ok = TFN(ts_same)(rk->sqdist, TFN(ts_sc)(r1->sqdist, 2 * k)) &&
              TFN(ts_same3)(rk->point, TFN(ts_sc3)(r1->point, k)) &&
              rk->feature.kind == r1->feature.kind && rk->feature.index == r1->feature.index;
  for (i = 0; i < 4; ++i)
    ok &= TFN(ts_same)(rk->param[i], TFN(ts_sc)(r1->param[i], ps * k));
  return ok;
}

static void TFN(ts_note_k1)(const char *what, const PROX_FN(prox_closest) * r) {
  h_note("%s: sqdist %a point (%a, %a, %a) param (%a, %a, %a, %a) feature "
         "%d/%d",
         what, (double)r->sqdist, (double)r->point.x, (double)r->point.y, (double)r->point.z,
         (double)r->param[0], (double)r->param[1], (double)r->param[2], (double)r->param[3],
         r->feature.kind, r->feature.index);
}

/* One K1 query at scale 1 (p, g1) and 2^k (pk, gk): the returned value
 * (squared distance, dp = 2, or signed distance, dp = 1) with a result and
 * with out = NULL, and the result, scaled. */
#define TS_K1(name, fn, g1, gk, dp, ps)                                                            \
  do {                                                                                             \
    PROX_FN(prox_closest) r1_, rk_;                                                                \
    PROX_REAL d1_ = PROX_FN(fn)(p, g1, &r1_), dk_ = PROX_FN(fn)(pk, gk, &rk_);                     \
    PROX_REAL n1_ = PROX_FN(fn)(p, g1, NULL), nk_ = PROX_FN(fn)(pk, gk, NULL);                     \
    if (!CHECK_MSG(TFN(ts_agree)(dk_, d1_, k, dp, far) && TFN(ts_agree)(nk_, n1_, k, dp, far) &&   \
                       (far || TFN(ts_k1_cov)(&r1_, &rk_, k, ps)),                                 \
                   "%s at 2^%d: %a (NULL: %a), at 1: %a (NULL: %a)", name, k, (double)dk_,         \
                   (double)nk_, (double)d1_, (double)n1_)) {                                       \
      TFN(ts_note_k1)("at 2^k", &rk_);                                                             \
      TFN(ts_note_k1)("at 1", &r1_);                                                               \
    }                                                                                              \
  } while (0)

/* The K1 kernels of the registry (tests/kernels.h) on the primitives g
 * and gk. */
#define TS_K1_X(name, prim, degree, param_degree)                                                  \
  TS_K1(#name, prox_##name, &g.prim, &gk.prim, degree, param_degree);

/* *gk = *g with every length scaled by 2^k (the plane's and boxes' unit
 * axes kept). */
static void TFN(ts_prims_scale)(TFN(k1_prims) * gk, const TFN(k1_prims) * g, int k) {
  int m;
  *gk = *g;
  gk->pl.offset = TFN(ts_sc)(g->pl.offset, k);
  gk->ln.origin = TFN(ts_sc3)(g->ln.origin, k);
  gk->ln.dir = TFN(ts_sc3)(g->ln.dir, k);
  gk->ry.origin = gk->ln.origin;
  gk->ry.dir = gk->ln.dir;
  gk->sg.a = TFN(ts_sc3)(g->sg.a, k);
  gk->sg.b = TFN(ts_sc3)(g->sg.b, k);
  for (m = 0; m < 3; ++m)
    gk->tr.v[m] = TFN(ts_sc3)(g->tr.v[m], k);
  gk->rc.center = TFN(ts_sc3)(g->rc.center, k);
  gk->rc.half[0] = TFN(ts_sc)(g->rc.half[0], k);
  gk->rc.half[1] = TFN(ts_sc)(g->rc.half[1], k);
  gk->ab.min = TFN(ts_sc3)(g->ab.min, k);
  gk->ab.max = TFN(ts_sc3)(g->ab.max, k);
  gk->ob.center = TFN(ts_sc3)(g->ob.center, k);
  for (m = 0; m < 3; ++m)
    gk->ob.half[m] = TFN(ts_sc)(g->ob.half[m], k);
  gk->sp.center = TFN(ts_sc3)(g->sp.center, k);
  gk->sp.radius = TFN(ts_sc)(g->sp.radius, k);
  gk->cp.a = TFN(ts_sc3)(g->cp.a, k);
  gk->cp.b = TFN(ts_sc3)(g->cp.b, k);
  gk->cp.radius = gk->sp.radius;
  for (m = 0; m < 4; ++m)
    gk->te.v[m] = TFN(ts_sc3)(g->te.v[m], k);
}

static void PROX_FN(body_point)(int far) {
  oracle_rng s = oracle_rng_make(0x5ca1e + PROX_IS_DOUBLE);
  long c, n = h_count(3000);
  int j;
  for (c = 0; c < n; ++c) {
    /* 0: general; 1: zero length or size; 2: collinear, flat; 3: p on the
     * primitive; 4: flat triangle, p within a few ulps of an edge; 5: a
     * triangle with a short edge a v2 (TS_SHORT of the others). */
    int deg = (int)(c % 6);
    VEC a = TFN(ts_vec)(&s), b = TFN(ts_vec)(&s);
    VEC v2 = TFN(ts_vec)(&s), v3 = TFN(ts_vec)(&s), p = TFN(ts_vec)(&s);
    PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
    TFN(k1_prims) g, gk;
    VEC bary;
    int in;
    if (deg == 1) b = a;
    if (deg == 2 || deg == 4) v2 = TFN(k1_lerp)(a, b, t);
    if (deg == 3) p = TFN(k1_lerp)(a, b, t);
    if (deg == 4) {
      /* A point of the edge a-v2, moved by up to 4 ulps per coordinate. */
      p = TFN(k1_lerp)(a, v2, (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1)));
      p.x = TS_NEXT(p.x, (PROX_REAL)(oracle_rng_next(&s) & 1 ? 2 : -2));
      if (oracle_rng_next(&s) & 1) p.y = TS_NEXT(TS_NEXT(p.y, 2), 2);
    }
    if (deg == 5) v2 = PROX_FN(prox_vadd)(a, PROX_FN(prox_vscale)(v3, TS_SHORT));
    v3 = deg == 2 ? TFN(k1_lerp)(a, v2, t) : v3;
    TFN(k1_prims_make)(&g, a, b, v2, v3, deg);
    bary = PROX_FN(prox_triangle_barycentric)(p, &g.tr);
    in = PROX_FN(prox_point_in_triangle)(p, &g.tr);
    h_case_begin();
    for (j = 0; j < (far ? TS_NFAR : TS_NEXP); ++j) {
      int k = far ? TS_FAR[j] : TS_EXPS[j];
      VEC pk = TFN(ts_sc3)(p, k), bk;
      TFN(ts_prims_scale)(&gk, &g, k);
      PROX_KERNELS_K1(TS_K1_X)
      CHECK_MSG(PROX_FN(prox_point_in_triangle)(pk, &gk.tr) == in,
                "point_in_triangle at 2^%d: %d, at 1: %d", k, !in, in);
      bk = PROX_FN(prox_triangle_barycentric)(pk, &gk.tr);
      if (far) {
        /* The points the coordinates give (a degenerate triangle's are not
         * unique): within 16 eps S of each other, S = 1. */
        double x1[3], xk[3], tol = 16 * (double)PROX_EPS;
        TFN(ts_bpoint)(&g.tr, bary, x1);
        TFN(ts_bpoint)(&g.tr, bk, xk);
        CHECK_MSG(fabs(x1[0] - xk[0]) <= tol && fabs(x1[1] - xk[1]) <= tol &&
                      fabs(x1[2] - xk[2]) <= tol,
                  "triangle_barycentric at 2^%d: (%a, %a, %a), at 1: (%a, %a, "
                  "%a)",
                  k, (double)bk.x, (double)bk.y, (double)bk.z, (double)bary.x, (double)bary.y,
                  (double)bary.z);
      } else {
        CHECK_MSG(TFN(ts_same3)(bk, bary),
                  "triangle_barycentric at 2^%d: (%a, %a, %a), at 1: (%a, %a, "
                  "%a)",
                  k, (double)bk.x, (double)bk.y, (double)bk.z, (double)bary.x, (double)bary.y,
                  (double)bary.z);
      }
    }
    if (h_case_failed()) {
      h_note("a = (%a, %a, %a)", (double)a.x, (double)a.y, (double)a.z);
      h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
      h_note("v2 = (%a, %a, %a)", (double)v2.x, (double)v2.y, (double)v2.z);
      h_note("v3 = (%a, %a, %a)", (double)v3.x, (double)v3.y, (double)v3.z);
      h_note("p = (%a, %a, %a), kind %d", (double)p.x, (double)p.y, (double)p.z, deg);
    }
  }
}

/* The K2 result rk at scale 2^k is r1 scaled: squared distance 4^k times,
 * points 2^k times, the same parameters and features. */
static int TFN(ts_k2_cov)(const PROX_FN(prox_pair) * r1, const PROX_FN(prox_pair) * rk, int k) {
  int i, m, ok = TFN(ts_same)(rk->sqdist, TFN(ts_sc)(r1->sqdist, 2 * k));
  for (i = 0; i < 2; ++i) {
    ok &= TFN(ts_same3)(rk->point[i], TFN(ts_sc3)(r1->point[i], k));
    ok &=
        rk->feature[i].kind == r1->feature[i].kind && rk->feature[i].index == r1->feature[i].index;
    for (m = 0; m < 3; ++m)
      ok &= TFN(ts_same)(rk->param[i][m], r1->param[i][m]);
  }
  return ok;
}

#define TS_K2(name, fn, a1, b1, ak, bk)                                                            \
  do {                                                                                             \
    PROX_FN(prox_pair) r1_, rk_;                                                                   \
    PROX_REAL d1_ = PROX_FN(fn)(a1, b1, &r1_), dk_ = PROX_FN(fn)(ak, bk, &rk_);                    \
    PROX_REAL n1_ = PROX_FN(fn)(a1, b1, NULL), nk_ = PROX_FN(fn)(ak, bk, NULL);                    \
    CHECK_MSG(TFN(ts_agree)(dk_, d1_, k, 2, far) && TFN(ts_agree)(nk_, n1_, k, 2, far) &&          \
                  (far || TFN(ts_k2_cov)(&r1_, &rk_, k)),                                          \
              "%s at 2^%d: %a (NULL: %a), at 1: %a (NULL: %a)", name, k, (double)dk_, (double)nk_, \
              (double)d1_, (double)n1_);                                                           \
  } while (0)

/* The K2 kernels of the registry on <type>_1, <type>_2 (scale 1) and
 * <type>_1k, <type>_2k (scale 2^k). */
#define TS_K2_X(name, first, second)                                                               \
  TS_K2(#name, prox_##name, first##_1, second##_2, first##_1k, second##_2k);

static void PROX_FN(body_pair)(int far) {
  oracle_rng s = oracle_rng_make(0x5ca1f + PROX_IS_DOUBLE);
  long c, n = h_count(3000);
  int j;
  for (c = 0; c < n; ++c) {
    /* 0: general; 1: zero length; 2: parallel; 3: collinear triangle,
     * touching. */
    int deg = (int)(c % 4), i;
    VEC v[6], w[6];
    PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
    PROX_FN(prox_line) l1, l2, l1k, l2k;
    PROX_FN(prox_ray) r1, r2, r1k, r2k;
    PROX_FN(prox_segment) s1, s2, s1k, s2k;
    PROX_FN(prox_triangle) t1, t2, t1k, t2k;
    PROX_FN(prox_sphere) sp, spk, sp2, sp2k;
    PROX_FN(prox_capsule) c1, c2, c1k, c2k;
    /* The arguments of the K2 kernels (TS_K2_X) by type and place, at
     * scale 1 and (suffix k) 2^k. */
    const PROX_FN(prox_line) *line_1 = &l1, *line_2 = &l2, *line_1k = &l1k, *line_2k = &l2k;
    const PROX_FN(prox_ray) *ray_1 = &r1, *ray_2 = &r2, *ray_1k = &r1k, *ray_2k = &r2k;
    const PROX_FN(prox_segment) *segment_1 = &s1, *segment_2 = &s2, *segment_1k = &s1k,
                                *segment_2k = &s2k;
    const PROX_FN(prox_triangle) *triangle_1 = &t1, *triangle_2 = &t2, *triangle_1k = &t1k,
                                 *triangle_2k = &t2k;
    const PROX_FN(prox_sphere) *sphere_1 = &sp, *sphere_2 = &sp2, *sphere_1k = &spk,
                               *sphere_2k = &sp2k;
    const PROX_FN(prox_capsule) *capsule_1 = &c1, *capsule_2 = &c2, *capsule_1k = &c1k,
                                *capsule_2k = &c2k;
    for (i = 0; i < 6; ++i)
      v[i] = TFN(ts_vec)(&s);
    TFN(k2_points_degenerate)(v, deg, t);
    h_case_begin();
    for (j = 0; j < (far ? TS_NFAR : TS_NEXP); ++j) {
      int k = far ? TS_FAR[j] : TS_EXPS[j], side;
      for (side = 0; side < 2; ++side) {
        /* side 0: scale 1; side 1: scale 2^k. */
        PROX_FN(prox_line) *l1p = side ? &l1k : &l1, *l2p = side ? &l2k : &l2;
        PROX_FN(prox_ray) *r1p = side ? &r1k : &r1, *r2p = side ? &r2k : &r2;
        PROX_FN(prox_segment) *s1p = side ? &s1k : &s1, *s2p = side ? &s2k : &s2;
        PROX_FN(prox_triangle) *t1p = side ? &t1k : &t1, *t2p = side ? &t2k : &t2;
        PROX_FN(prox_sphere) *spp = side ? &spk : &sp;
        PROX_FN(prox_sphere) *sp2p = side ? &sp2k : &sp2;
        PROX_FN(prox_capsule) *c1p = side ? &c1k : &c1, *c2p = side ? &c2k : &c2;
        for (i = 0; i < 6; ++i)
          w[i] = TFN(ts_sc3)(v[i], side ? k : 0);
        l1p->origin = r1p->origin = s1p->a = w[0];
        s1p->b = w[1];
        l1p->dir = r1p->dir = PROX_FN(prox_vsub)(w[1], w[0]);
        l2p->origin = r2p->origin = s2p->a = w[2];
        s2p->b = w[3];
        l2p->dir = r2p->dir = PROX_FN(prox_vsub)(w[3], w[2]);
        r1p->tmin = r2p->tmin = 0;
        r1p->tmax = r2p->tmax = 2;
        t1p->v[0] = w[0];
        t1p->v[1] = w[1];
        t1p->v[2] = w[5];
        t2p->v[0] = w[2];
        t2p->v[1] = w[3];
        t2p->v[2] = w[4];
        spp->center = w[5];
        spp->radius = w[4].x;
        sp2p->center = w[3];
        sp2p->radius = w[4].y;
        c1p->a = w[0];
        c1p->b = w[1];
        c1p->radius = w[5].y;
        c2p->a = w[2];
        c2p->b = w[3];
        c2p->radius = w[5].z;
      }
      PROX_KERNELS_K2(TS_K2_X)
    }
    if (h_case_failed())
      for (i = 0; i < 6; ++i)
        h_note("v[%d] = (%a, %a, %a), kind %d", i, (double)v[i].x, (double)v[i].y, (double)v[i].z,
               deg);
  }
}

/* The cast at scale 2^k against the one at scale 1: the same hit, inside
 * flag and feature, the same t, t_exit, normal and barycentrics, the
 * point 2^k times. */
static int TFN(ts_ray_cov)(const PROX_FN(prox_rayhit) * h1, const PROX_FN(prox_rayhit) * hk,
                           int k) {
  int i, ok = h1->hit == hk->hit && h1->inside == hk->inside &&
              h1->feature.kind == hk->feature.kind && h1->feature.index == hk->feature.index;
  if (!h1->hit) return ok;
  ok &= TFN(ts_same)(hk->t, h1->t) && TFN(ts_same)(hk->t_exit, h1->t_exit) &&
        TFN(ts_same3)(hk->normal, h1->normal) &&
        TFN(ts_same3)(hk->point, TFN(ts_sc3)(h1->point, k));
  for (i = 0; i < 3; ++i)
    ok &= TFN(ts_same)(hk->bary[i], h1->bary[i]);
  return ok;
}

#define TS_K3(name, fn, g1, gk)                                                                    \
  do {                                                                                             \
    PROX_FN(prox_rayhit) h1_, hk_;                                                                 \
    int c1_ = PROX_FN(fn)(&ry, g1, &h1_), ck_ = PROX_FN(fn)(&ryk, gk, &hk_);                       \
    int n1_ = PROX_FN(fn)(&ry, g1, NULL), nk_ = PROX_FN(fn)(&ryk, gk, NULL);                       \
    CHECK_MSG(c1_ == ck_ && n1_ == nk_ && TFN(ts_ray_cov)(&h1_, &hk_, k),                          \
              "%s at 2^%d: hit %d t %a, at 1: hit %d t %a", name, k, ck_, (double)hk_.t, c1_,      \
              (double)h1_.t);                                                                      \
  } while (0)

/* far: the cast at 2^k hits exactly when the one at scale 1 does, where
 * that answer is robust (the same for the direction, and for the origin,
 * moved by TS_RAY_DELTA |dir| along each axis, both ways), with t within
 * TS_RAY_DELTA max(1, t) of it (t does not change with the scale). */
#define TS_K3F(name, fn, g1, gk)                                                                   \
  do {                                                                                             \
    PROX_FN(prox_rayhit) h1_, hk_;                                                                 \
    int c1_ = PROX_FN(fn)(&ry, g1, &h1_), ck_ = PROX_FN(fn)(&ryk, gk, &hk_);                       \
    int robust_ = 1, ax_, sg_;                                                                     \
    for (ax_ = 0; ax_ < 6; ++ax_)                                                                  \
      for (sg_ = -1; sg_ <= 1; sg_ += 2) {                                                         \
        PROX_FN(prox_ray) rp_ = ry;                                                                \
        PROX_FN(prox_vec3) *pv_ = ax_ < 3 ? &rp_.dir : &rp_.origin;                                \
        PROX_REAL *dc_ = ax_ % 3 == 0 ? &pv_->x : (ax_ % 3 == 1 ? &pv_->y : &pv_->z);              \
        *dc_ += (PROX_REAL)sg_ * TS_RAY_DELTA * PROX_FN(prox_vlen)(ry.dir);                        \
        robust_ &= PROX_FN(fn)(&rp_, g1, NULL) == c1_;                                             \
      }                                                                                            \
    if (robust_) {                                                                                 \
      CHECK_MSG(ck_ == c1_ && (!c1_ || fabs((double)hk_.t - (double)h1_.t) <=                      \
                                           TS_RAY_DELTA * fmax(1, fabs((double)h1_.t))),           \
                "%s at 2^%d: hit %d t %a, at 1: hit %d t %a", name, k, ck_, (double)hk_.t, c1_,    \
                (double)h1_.t);                                                                    \
      ++robust_n;                                                                                  \
    }                                                                                              \
  } while (0)

/* The bitwise check, or with far the robust-answer check. */
#define TS_K3X(name, fn, g1, gk)                                                                   \
  do {                                                                                             \
    if (far)                                                                                       \
      TS_K3F(name, fn, g1, gk);                                                                    \
    else                                                                                           \
      TS_K3(name, fn, g1, gk);                                                                     \
  } while (0)

/* The ray casts of the registry on the primitives g and gk. */
#define TS_K3_X(name, prim, solid) TS_K3X(#name, prox_##name, &g.prim, &gk.prim);

static void PROX_FN(body_ray)(int far) {
  oracle_rng s = oracle_rng_make(0x5ca20 + PROX_IS_DOUBLE);
  long c, n = h_count(3000), robust_n = 0;
  int j;
  for (c = 0; c < n; ++c) {
    /* 0: general; 1: zero length or size; 2: collinear, flat; 3: aimed at
     * a point on the segment a b; 4: from a point of the segment a b. */
    int deg = (int)(c % 5);
    VEC a = TFN(ts_vec)(&s), b = TFN(ts_vec)(&s);
    VEC v2 = TFN(ts_vec)(&s), v3 = TFN(ts_vec)(&s), o = TFN(ts_vec)(&s);
    VEC aim = TFN(ts_vec)(&s);
    PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
    TFN(k1_prims) g, gk;
    PROX_FN(prox_ray) ry, ryk;
    if (deg == 1) b = a;
    if (deg == 2) {
      v2 = TFN(k1_lerp)(a, b, t);
      v3 = TFN(k1_lerp)(a, v2, t);
    }
    if (deg == 3) aim = TFN(k1_lerp)(a, b, t);
    if (deg == 4) o = TFN(k1_lerp)(a, b, t);
    TFN(k1_prims_make)(&g, a, b, v2, v3, deg);
    ry.origin = o;
    ry.dir = PROX_FN(prox_vsub)(aim, o);
    ry.tmin = 0;
    ry.tmax = c % 3 == 0 ? PROX_INF : 2;
    h_case_begin();
    for (j = 0; j < (far ? TS_NFAR : TS_NEXP); ++j) {
      int k = far ? TS_FAR[j] : TS_EXPS[j];
      TFN(ts_prims_scale)(&gk, &g, k);
      ryk = ry;
      ryk.origin = TFN(ts_sc3)(ry.origin, k);
      ryk.dir = TFN(ts_sc3)(ry.dir, k);
      /* Kind 4 starts on an edge of the triangle and the tetrahedron: a
       * touching configuration whose answer (a hit at t = 0, or a miss)
       * is decided by rounding; the far check skips it. */
      if (far && deg == 4) continue;
      PROX_KERNELS_K3(TS_K3_X)
    }
    if (h_case_failed()) {
      h_note("a = (%a, %a, %a)", (double)a.x, (double)a.y, (double)a.z);
      h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
      h_note("v2 = (%a, %a, %a)", (double)v2.x, (double)v2.y, (double)v2.z);
      h_note("v3 = (%a, %a, %a)", (double)v3.x, (double)v3.y, (double)v3.z);
      h_note("o = (%a, %a, %a), aim (%a, %a, %a), kind %d", (double)o.x, (double)o.y, (double)o.z,
             (double)aim.x, (double)aim.y, (double)aim.z, deg);
    }
  }
  /* The far check must not become vacuous: most casts are robust. */
  if (far) CHECK_MSG(robust_n >= 3 * n * TS_NFAR, "only %ld robust casts", robust_n);
}

/* vk is v1 2^e bit for bit; where v1 2^e is below the normal range (a
 * degree-4 value of float input at 2^-20, say), the kernel can only return
 * it rounded to the subnormal grid: within 16 of its units. */
static int TFN(ts_same_sub)(PROX_REAL vk, PROX_REAL v1, int e) {
  double x = ldexp((double)v1, e);
  if (fabs(x) >= (double)PROX_REAL_MIN) return TFN(ts_same)(vk, (PROX_REAL)x);
  return fabs((double)vk - x) <= 16 * (double)PROX_REAL_MIN * (double)PROX_EPS;
}

/* A contact kernel's value (degree dg), gradient and Hessian (n
 * coordinates) at scale 2^k against scale 1: times 2^(dg k), 2^((dg - 1)
 * k) and 2^((dg - 2) k), bit for bit. */
static int TFN(ts_k4_cov)(PROX_REAL v1, PROX_REAL vk, const PROX_REAL *g1, const PROX_REAL *gk,
                          const PROX_REAL *h1, const PROX_REAL *hk, int n, int dg, int k) {
  int i, ok = TFN(ts_same_sub)(vk, v1, dg * k);
  for (i = 0; i < n; ++i)
    ok &= TFN(ts_same_sub)(gk[i], g1[i], (dg - 1) * k);
  for (i = 0; i < n * n; ++i)
    ok &= TFN(ts_same_sub)(hk[i], h1[i], (dg - 2) * k);
  return ok;
}

#define TS_UNPACK(...) __VA_ARGS__
/* fn's value, gradient and Hessian with the arguments a1 (scale 1) and ak
 * (scale 2^k), each a parenthesised list. */
#define TS_K4(name, fn, n, dg, a1, ak)                                                             \
  do {                                                                                             \
    PROX_REAL g1_[12], gk_[12], h1_[144], hk_[144], w1_[12], wk_[12];                              \
    PROX_REAL v1_ = PROX_FN(fn)(TS_UNPACK a1), vk_ = PROX_FN(fn)(TS_UNPACK ak);                    \
    PROX_REAL x1_ = PROX_FN(fn##_gradient)(TS_UNPACK a1, w1_);                                     \
    PROX_REAL xk_ = PROX_FN(fn##_gradient)(TS_UNPACK ak, wk_);                                     \
    PROX_REAL y1_ = PROX_FN(fn##_hessian)(TS_UNPACK a1, g1_, h1_);                                 \
    PROX_REAL yk_ = PROX_FN(fn##_hessian)(TS_UNPACK ak, gk_, hk_);                                 \
    CHECK_MSG(TFN(ts_k4_cov)(v1_, vk_, g1_, gk_, h1_, hk_, n, dg, k) &&                            \
                  TFN(ts_k4_cov)(x1_, xk_, w1_, wk_, h1_, hk_, n, dg, k) &&                        \
                  TFN(ts_same_sub)(yk_, y1_, (dg)*k),                                              \
              "%s at 2^%d: %a, at 1: %a", name, k, (double)vk_, (double)v1_);                      \
  } while (0)

/* The K4 kernels of the registry on the vertices p, a, b, q and pk, ak,
 * bk, qk. */
#define TS_K4_X(name, coords, degree, verts, type, bound, gen, shape)                              \
  TS_K4(#name, prox_ipc_##name, coords, degree, (PROX_KERNELS_K4_ARGS(verts, type, p, a, b, q)),   \
        (PROX_KERNELS_K4_ARGS(verts, type, pk, ak, bk, qk)));

static void PROX_FN(body_contact)(void) {
  oracle_rng s = oracle_rng_make(0x5ca21 + PROX_IS_DOUBLE);
  long c, n = h_count(3000);
  int j;
  for (c = 0; c < n; ++c) {
    /* 0: general; 1: p on the segment a b; 2: b c parallel to p a; 3: a
     * short edge a b (2^-20 of the others). */
    int deg = (int)(c % 4);
    VEC p = TFN(ts_vec)(&s), a = TFN(ts_vec)(&s), b = TFN(ts_vec)(&s);
    VEC q = TFN(ts_vec)(&s);
    PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
    if (deg == 1) p = TFN(k1_lerp)(a, b, t);
    if (deg == 2) q = PROX_FN(prox_vadd)(b, PROX_FN(prox_vsub)(TFN(k1_lerp)(p, a, t), p));
    if (deg == 3) b = PROX_FN(prox_vadd)(a, PROX_FN(prox_vscale)(q, PROX_R(0x1p-20)));
    h_case_begin();
    for (j = 0; j < TS_NEXP; ++j) {
      int k = TS_EXPS[j];
      VEC pk = TFN(ts_sc3)(p, k), ak = TFN(ts_sc3)(a, k);
      VEC bk = TFN(ts_sc3)(b, k), qk = TFN(ts_sc3)(q, k);
      PROX_KERNELS_K4(TS_K4_X)
    }
    if (h_case_failed()) {
      h_note("p = (%a, %a, %a), kind %d", (double)p.x, (double)p.y, (double)p.z, deg);
      h_note("a = (%a, %a, %a)", (double)a.x, (double)a.y, (double)a.z);
      h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
      h_note("q = (%a, %a, %a)", (double)q.x, (double)q.y, (double)q.z);
    }
  }
}

/* The overlap tests of the registry: the answer at scale 1
 * of the first from g, the second from h, into r1[m++]; the same at scale
 * 2^k (gk, hk) against it. */
#define TS_OV_AT1(name, first, second) r1[m++] = PROX_FN(prox_##name)(&g.first, &h.second);
#define TS_OV_ATK(name, first, second)                                                             \
  CHECK_MSG(PROX_FN(prox_##name)(&gk.first, &hk.second) == r1[m], #name " at 2^%d: not %d", k,     \
            r1[m]);                                                                                \
  ++m;

/* The overlap tests at scale 2^k (far = 0: |k| <= 200, float 20; far = 1:
 * out to the domain's ends) give the same answers as at scale 1. */
static void PROX_FN(body_overlap)(int far) {
  oracle_rng s = oracle_rng_make(0x5ca22 + PROX_IS_DOUBLE);
  long c, n = h_count(3000);
  int j;
  for (c = 0; c < n; ++c) {
    /* 0: general; 1: zero size; 2: flat; 3: the second set shares a and
     * has v2 on the first triangle's edge a b (touching). */
    int deg = (int)(c % 4), r1[PROX_KERNELS_COUNT(PROX_KERNELS_OVERLAP)], m;
    VEC v[8];
    TFN(k1_prims) g, h, gk, hk;
    PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
    for (m = 0; m < 8; ++m)
      v[m] = TFN(ts_vec)(&s);
    if (deg == 1) v[1] = v[0];
    if (deg == 2) {
      v[2] = TFN(k1_lerp)(v[0], v[1], t);
      v[6] = TFN(k1_lerp)(v[4], v[5], t);
    }
    if (deg == 3) {
      v[4] = v[0];
      v[6] = TFN(k1_lerp)(v[0], v[1], t);
    }
    TFN(k1_prims_make)(&g, v[0], v[1], v[2], v[3], deg);
    TFN(k1_prims_make)(&h, v[4], v[5], v[6], v[7], deg);
    m = 0;
    PROX_KERNELS_OVERLAP(TS_OV_AT1)
    h_case_begin();
    for (j = 0; j < (far ? TS_NFAR : TS_NEXP); ++j) {
      int k = far ? TS_FAR[j] : TS_EXPS[j];
      TFN(ts_prims_scale)(&gk, &g, k);
      TFN(ts_prims_scale)(&hk, &h, k);
      m = 0;
      PROX_KERNELS_OVERLAP(TS_OV_ATK)
    }
    if (h_case_failed())
      for (m = 0; m < 8; ++m)
        h_note("v[%d] = (%a, %a, %a), kind %d", m, (double)v[m].x, (double)v[m].y, (double)v[m].z,
               deg);
  }
}

#undef TS_K1_X
#undef TS_K2_X
#undef TS_K3_X
#undef TS_K4_X
#undef TS_OV_AT1
#undef TS_OV_ATK
#undef TS_K1
#undef TS_K2
#undef TS_K3
#undef TS_K3F
#undef TS_K3X
#undef TS_K4
#undef TS_UNPACK
#undef TS_EXPS
#undef TS_RAY_DELTA
#undef TS_FAR
#undef TS_NEXT
#undef VEC
#undef TFN

#endif /* TEST_SCALE_TEMPLATE */
