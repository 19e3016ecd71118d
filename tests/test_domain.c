/* SPDX-License-Identifier: MIT */
/* test_domain: finite input inside the documented domain (closest.h: every
 * coordinate, radius, half extent and offset at most 2^500 in magnitude in
 * double, 2^60 in float) gives finite results from every K1 and K2 kernel,
 * with a result and with out = NULL: the returned value, the reported
 * points and parameters.
 *
 * The accuracy there is the oracle tests' business (test_closest,
 * test_pairs); this test covers the magnitudes they do not reach, where a
 * squared difference of coordinates is near the top of the exponent range.
 * Inputs: scales 2^500 and 2^-500 (float: 2^60 and 2^-60) times uniform
 * values in [-1, 1], general and degenerate (collinear triangles, flat
 * tetrahedra, zero-length and parallel segments, zero-size boxes, points on
 * the primitives).
 *
 *   test_domain [FILTER] [--scale=X] [--list] [--max-print=N]
 *
 * The per-precision bodies are written once: this file includes itself
 * twice with TEST_DOMAIN_TEMPLATE defined (double, then float). */
#ifndef TEST_DOMAIN_TEMPLATE

#include <prox/prox.h>

#include "harness.h"

#include "splitmix.h"

#define TEST_DOMAIN_TEMPLATE
#include <prox/detail/real_double.h>
#define TD_EXP 500
#include "test_domain.c"
#undef TD_EXP
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#define TD_EXP 60
#include "test_domain.c"
#undef TD_EXP
#include <prox/detail/real_end.h>
#undef TEST_DOMAIN_TEMPLATE

static void test_point(void) {
  body_point();
  body_pointf();
}

static void test_pair(void) {
  body_pair();
  body_pairf();
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_point);
  H_RUN(test_pair);
  return h_finish();
}

#else /* TEST_DOMAIN_TEMPLATE: one precision */

#define VEC PROX_FN(prox_vec3)
#define TFN(name) PROX_FN(name)

/* A point of magnitude up to sc. */
static VEC TFN(td_vec)(uint64_t *s, double sc) {
  return PROX_FN(prox_v3)((PROX_REAL)(sc * rng_sym(s)),
                          (PROX_REAL)(sc * rng_sym(s)),
                          (PROX_REAL)(sc * rng_sym(s)));
}

/* a + t (b - a), t in [0, 1]: no overflow for |a|, |b| <= 2^TD_EXP. */
static VEC TFN(td_lerp)(VEC a, VEC b, PROX_REAL t) {
  return PROX_FN(prox_v3)(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y),
                          a.z + t * (b.z - a.z));
}

static int TFN(td_finite3)(VEC v) {
  return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* The result of a K1 query is finite. */
static int TFN(td_ok)(PROX_REAL d, const PROX_FN(prox_closest) * r) {
  int k, ok = isfinite(d) && isfinite(r->sqdist) && TFN(td_finite3)(r->point);
  for (k = 0; k < 4; ++k)
    ok &= isfinite(r->param[k]) != 0;
  return ok;
}

static int TFN(td_pair_ok)(PROX_REAL d, const PROX_FN(prox_pair) * r) {
  int i, k,
      ok = isfinite(d) && isfinite(r->sqdist) && TFN(td_finite3)(r->point[0]) &&
           TFN(td_finite3)(r->point[1]);
  for (i = 0; i < 2; ++i)
    for (k = 0; k < 3; ++k)
      ok &= isfinite(r->param[i][k]) != 0;
  return ok;
}

/* One K1 query with a result and without: both finite. */
#define TD_K1(name, fn, prim)                                                  \
  do {                                                                         \
    PROX_FN(prox_closest) r_;                                                  \
    PROX_REAL d_ = PROX_FN(fn)(p, prim, &r_), n_ = PROX_FN(fn)(p, prim, NULL); \
    CHECK_MSG(TFN(td_ok)(d_, &r_) && isfinite(n_),                             \
              "%s at 2^%d: %a (out = NULL: %a)", name, e, (double)d_,          \
              (double)n_);                                                     \
  } while (0)

#define TD_K2(name, fn, g1, g2)                                                \
  do {                                                                         \
    PROX_FN(prox_pair) r_;                                                     \
    PROX_REAL d_ = PROX_FN(fn)(g1, g2, &r_), n_ = PROX_FN(fn)(g1, g2, NULL);   \
    CHECK_MSG(TFN(td_pair_ok)(d_, &r_) && isfinite(n_),                        \
              "%s at 2^%d: %a (out = NULL: %a)", name, e, (double)d_,          \
              (double)n_);                                                     \
  } while (0)

static void PROX_FN(body_point)(void) {
  uint64_t s = 0xd0 + PROX_IS_DOUBLE;
  long c, n = h_count(4000);
  int side;
  for (side = 0; side < 2; ++side) {
    int e = side ? -TD_EXP : TD_EXP;
    double sc = ldexp(1.0, e);
    for (c = 0; c < n; ++c) {
      int deg = (int)(c % 4); /* 0: general; 1..3: degenerate forms */
      VEC a = TFN(td_vec)(&s, sc), b = TFN(td_vec)(&s, sc);
      VEC v2 = TFN(td_vec)(&s, sc), v3 = TFN(td_vec)(&s, sc);
      VEC p = TFN(td_vec)(&s, sc);
      PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * rng_sym(&s));
      PROX_FN(prox_plane) pl;
      PROX_FN(prox_line) ln;
      PROX_FN(prox_ray) ry;
      PROX_FN(prox_segment) sg;
      PROX_FN(prox_triangle) tr;
      PROX_FN(prox_rectangle) rc;
      PROX_FN(prox_aabb) ab;
      PROX_FN(prox_obb) ob;
      PROX_FN(prox_sphere) sp;
      PROX_FN(prox_capsule) cp;
      PROX_FN(prox_tetrahedron) te;
      VEC bary;
      if (deg == 1) b = a;                      /* zero length, zero size */
      if (deg == 2) v2 = TFN(td_lerp)(a, b, t); /* collinear, flat */
      if (deg == 3) p = TFN(td_lerp)(a, b, t);  /* on the primitive */
      v3 = deg == 2 ? TFN(td_lerp)(a, v2, t) : v3;
      PROX_FN(prox_plane_from_normal)(PROX_FN(prox_v3)(1, 2, -2), a.x, &pl);
      ln.origin = a;
      ln.dir = PROX_FN(prox_vsub)(TFN(td_lerp)(a, b, PROX_R(0.5)), a);
      ry.origin = a;
      ry.dir = ln.dir;
      ry.tmin = 0;
      ry.tmax = 2;
      sg.a = a;
      sg.b = b;
      tr.v[0] = a;
      tr.v[1] = b;
      tr.v[2] = v2;
      rc.center = v2;
      rc.axis[0] = PROX_FN(prox_v3)(PROX_R(0.6), PROX_R(0.8), 0);
      rc.axis[1] = PROX_FN(prox_v3)(0, 0, -1);
      rc.half[0] = deg == 1 ? 0 : b.x;
      rc.half[1] = b.y;
      ab.min = a;
      ab.max = b;
      ob.center = v2;
      ob.axis[0] = rc.axis[0];
      ob.axis[1] = PROX_FN(prox_v3)(PROX_R(-0.8), PROX_R(0.6), 0);
      ob.axis[2] = rc.axis[1];
      ob.half[0] = rc.half[0];
      ob.half[1] = b.y;
      ob.half[2] = b.z;
      sp.center = a;
      sp.radius = deg == 1 ? 0 : v3.x;
      cp.a = a;
      cp.b = b;
      cp.radius = sp.radius;
      te.v[0] = a;
      te.v[1] = b;
      te.v[2] = v2;
      te.v[3] = v3;
      h_case_begin();
      TD_K1("point_plane", prox_point_plane, &pl);
      TD_K1("point_line", prox_point_line, &ln);
      TD_K1("point_ray", prox_point_ray, &ry);
      TD_K1("point_segment", prox_point_segment, &sg);
      TD_K1("point_triangle", prox_point_triangle, &tr);
      TD_K1("point_rectangle", prox_point_rectangle, &rc);
      TD_K1("point_aabb", prox_point_aabb, &ab);
      TD_K1("point_obb", prox_point_obb, &ob);
      TD_K1("point_sphere", prox_point_sphere, &sp);
      TD_K1("point_capsule", prox_point_capsule, &cp);
      TD_K1("point_tetrahedron", prox_point_tetrahedron, &te);
      TD_K1("point_plane_signed", prox_point_plane_signed, &pl);
      /* A vertex and, for a proper triangle, the point of barycentrics
       * (1/2, 1/4, 1/4) are in the closed triangle. */
      CHECK_MSG(PROX_FN(prox_point_in_triangle)(a, &tr),
                "point_in_triangle at 2^%d: vertex 0 is out", e);
      if (deg == 0)
        CHECK_MSG(PROX_FN(prox_point_in_triangle)(
                      PROX_FN(prox_vadd)(
                          a, PROX_FN(prox_vadd)(
                                 PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(b, a),
                                                      PROX_R(0.25)),
                                 PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(v2, a),
                                                      PROX_R(0.25)))),
                      &tr),
                  "point_in_triangle at 2^%d: an inner point is out", e);
      TD_K1("point_aabb_signed", prox_point_aabb_signed, &ab);
      TD_K1("point_obb_signed", prox_point_obb_signed, &ob);
      TD_K1("point_sphere_signed", prox_point_sphere_signed, &sp);
      TD_K1("point_capsule_signed", prox_point_capsule_signed, &cp);
      TD_K1("point_tetrahedron_signed", prox_point_tetrahedron_signed, &te);
      bary = PROX_FN(prox_triangle_barycentric)(p, &tr);
      CHECK_MSG(TFN(td_finite3)(bary), "triangle_barycentric at 2^%d: %a %a %a",
                e, (double)bary.x, (double)bary.y, (double)bary.z);
      if (h_case_failed()) {
        h_note("a = (%a, %a, %a)", (double)a.x, (double)a.y, (double)a.z);
        h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
        h_note("p = (%a, %a, %a), kind %d", (double)p.x, (double)p.y,
               (double)p.z, deg);
      }
    }
  }
}

static void PROX_FN(body_pair)(void) {
  uint64_t s = 0xd2 + PROX_IS_DOUBLE;
  long c, n = h_count(4000);
  int side;
  for (side = 0; side < 2; ++side) {
    int e = side ? -TD_EXP : TD_EXP;
    double sc = ldexp(1.0, e);
    for (c = 0; c < n; ++c) {
      int deg = (int)(c % 4); /* 0: general; 1: zero length; 2: parallel;
                                 3: collinear triangle, touching */
      VEC v[6];
      PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * rng_sym(&s));
      PROX_FN(prox_line) l1, l2;
      PROX_FN(prox_ray) r1, r2;
      PROX_FN(prox_segment) s1, s2;
      PROX_FN(prox_triangle) t1, t2;
      PROX_FN(prox_sphere) sp;
      PROX_FN(prox_capsule) c1, c2;
      int i;
      for (i = 0; i < 6; ++i)
        v[i] = TFN(td_vec)(&s, sc);
      if (deg == 1) v[1] = v[0];
      if (deg == 2) /* v[3] - v[2] parallel to v[1] - v[0] */
        v[3] = PROX_FN(prox_vadd)(
            v[2], PROX_FN(prox_vsub)(TFN(td_lerp)(v[0], v[1], t), v[0]));
      if (deg == 3) {
        v[4] = TFN(td_lerp)(v[2], v[3], t);
        v[0] = TFN(td_lerp)(v[2], v[4], t);
      }
      l1.origin = r1.origin = s1.a = v[0];
      s1.b = v[1];
      l1.dir = r1.dir =
          PROX_FN(prox_vsub)(TFN(td_lerp)(v[0], v[1], 0.5f), v[0]);
      l2.origin = r2.origin = s2.a = v[2];
      s2.b = v[3];
      l2.dir = r2.dir =
          PROX_FN(prox_vsub)(TFN(td_lerp)(v[2], v[3], 0.5f), v[2]);
      r1.tmin = r2.tmin = 0;
      r1.tmax = r2.tmax = 2;
      t1.v[0] = v[0];
      t1.v[1] = v[1];
      t1.v[2] = v[5];
      t2.v[0] = v[2];
      t2.v[1] = v[3];
      t2.v[2] = v[4];
      sp.center = v[5];
      sp.radius = v[4].x;
      c1.a = v[0];
      c1.b = v[1];
      c1.radius = v[5].y;
      c2.a = v[2];
      c2.b = v[3];
      c2.radius = v[5].z;
      h_case_begin();
      TD_K2("line_line", prox_line_line, &l1, &l2);
      TD_K2("line_ray", prox_line_ray, &l1, &r2);
      TD_K2("line_segment", prox_line_segment, &l1, &s2);
      TD_K2("ray_ray", prox_ray_ray, &r1, &r2);
      TD_K2("ray_segment", prox_ray_segment, &r1, &s2);
      TD_K2("segment_segment", prox_segment_segment, &s1, &s2);
      TD_K2("segment_triangle", prox_segment_triangle, &s1, &t2);
      TD_K2("triangle_triangle", prox_triangle_triangle, &t1, &t2);
      TD_K2("sphere_segment", prox_sphere_segment, &sp, &s2);
      TD_K2("capsule_segment", prox_capsule_segment, &c1, &s2);
      TD_K2("sphere_capsule", prox_sphere_capsule, &sp, &c2);
      TD_K2("capsule_capsule", prox_capsule_capsule, &c1, &c2);
      TD_K2("sphere_triangle", prox_sphere_triangle, &sp, &t2);
      TD_K2("capsule_triangle", prox_capsule_triangle, &c1, &t2);
      if (h_case_failed())
        for (i = 0; i < 6; ++i)
          h_note("v[%d] = (%a, %a, %a), kind %d", i, (double)v[i].x,
                 (double)v[i].y, (double)v[i].z, deg);
    }
  }
}

#undef VEC
#undef TFN

#endif /* TEST_DOMAIN_TEMPLATE */
