/* SPDX-License-Identifier: MIT */
/* test_domain: finite input inside the documented domain (closest.h: every
 * coordinate, radius, half extent and offset at most 2^500 in magnitude in
 * double, 2^60 in float; raycast.h for the casts) gives finite results and
 * the right answers where they are known by construction:
 *
 * - every K1 and K2 kernel, with a result and with out = NULL: finite
 *   values, points and parameters; prox_triangle_barycentric finite;
 *   prox_point_in_triangle true for a vertex and an inner point;
 * - the overlap tests on touching, parallel and separated configurations
 *   (triangles sharing a vertex or an edge, coplanar triangles touching at
 *   a vertex, parallel triangles a quarter of the scale apart, ...);
 * - every ray cast aimed at a point deep inside its primitive, from
 *   outside or from that point: a hit with finite outputs;
 * - the packet casts (at the instruction set prox_simd_level() picks):
 *   the scalar casts' hits and t, lane by lane, in the casts' domain;
 * - every contact kernel (K4): value, gradient and Hessian finite, in the
 *   smaller domains contact.h states.
 *
 * The accuracy there is the oracle tests' business (test_closest,
 * test_pairs, test_raycast); this test covers the magnitudes they do not
 * reach, where products of coordinates are near the ends of the exponent
 * range. Inputs: scales 2^500 and 2^-500 (float: 2^60 and 2^-60) times
 * uniform values in [-1, 1], general and degenerate (collinear triangles,
 * flat tetrahedra, zero-length and parallel segments, zero-size boxes,
 * points on the primitives).
 *
 *   test_domain [FILTER] [--scale=X] [--list] [--max-print=N]
 *
 * The per-precision bodies are written once: this file includes itself
 * twice with TEST_DOMAIN_TEMPLATE defined (double, then float). */
#ifndef TEST_DOMAIN_TEMPLATE

#include <prox/packet.h>
#include <prox/prox.h>

#include "harness.h"
#include "kernels.h"

#include "rng.h"

/* The ray casts of the registry: TD_K3_<name> indexes the generator of
 * prox_<name>'s own random draws in body_ray. */
#define TD_K3_ENUM(name, prim, solid) TD_K3_##name,
enum { PROX_KERNELS_K3(TD_K3_ENUM) TD_K3_COUNT };

#define TEST_DOMAIN_TEMPLATE
#include <prox/detail/real_double.h>
#define TD_EXP 500
#define TD_EXP3 300
#define TD_EXP4 250
#define TD_EXPK 500
#include "test_domain.c"
#undef TD_EXP
#undef TD_EXP3
#undef TD_EXP4
#undef TD_EXPK
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#define TD_EXP 60
#define TD_EXP3 40
#define TD_EXP4 28
#define TD_EXPK 40
#include "test_domain.c"
#undef TD_EXP
#undef TD_EXP3
#undef TD_EXP4
#undef TD_EXPK
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

static void test_ray(void) {
  body_ray();
  body_rayf();
}

static void test_packet(void) {
  body_packet();
  body_packetf();
}

static void test_contact(void) {
  body_contact();
  body_contactf();
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_point);
  H_RUN(test_pair);
  H_RUN(test_ray);
  H_RUN(test_packet);
  H_RUN(test_contact);
  return h_finish();
}

#else /* TEST_DOMAIN_TEMPLATE: one precision */

#define VEC PROX_FN(prox_vec3)
#define TFN(name) PROX_FN(name)

#include "k1_prims.h"

/* A point of magnitude up to sc. */
static VEC TFN(td_vec)(oracle_rng *s, double sc) {
  return PROX_FN(prox_v3)((PROX_REAL)(sc * oracle_rng_range(s, -1, 1)),
                          (PROX_REAL)(sc * oracle_rng_range(s, -1, 1)),
                          (PROX_REAL)(sc * oracle_rng_range(s, -1, 1)));
}

/* The next representable value after x toward y, in the precision. */
static PROX_REAL TFN(td_next)(PROX_REAL x, PROX_REAL y) {
#if PROX_IS_DOUBLE
  return nextafter(x, y);
#else
  return nextafterf(x, y);
#endif
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
#define TD_K1(name, fn, prim)                                                                      \
  do {                                                                                             \
    PROX_FN(prox_closest) r_;                                                                      \
    PROX_REAL d_ = PROX_FN(fn)(p, prim, &r_), n_ = PROX_FN(fn)(p, prim, NULL);                     \
    CHECK_MSG(TFN(td_ok)(d_, &r_) && isfinite(n_), "%s at 2^%d: %a (out = NULL: %a)", name, e,     \
              (double)d_, (double)n_);                                                             \
  } while (0)

/* The K1 kernels of the registry (tests/kernels.h) on the primitives g. */
#define TD_K1_X(name, prim, degree, param_degree) TD_K1(#name, prox_##name, &g.prim);

#define TD_K2(name, fn, g1, g2)                                                                    \
  do {                                                                                             \
    PROX_FN(prox_pair) r_;                                                                         \
    PROX_REAL d_ = PROX_FN(fn)(g1, g2, &r_), n_ = PROX_FN(fn)(g1, g2, NULL);                       \
    CHECK_MSG(TFN(td_pair_ok)(d_, &r_) && isfinite(n_), "%s at 2^%d: %a (out = NULL: %a)", name,   \
              e, (double)d_, (double)n_);                                                          \
  } while (0)

static void PROX_FN(body_point)(void) {
  oracle_rng s = oracle_rng_make(0xd0 + PROX_IS_DOUBLE);
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
      PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
      TFN(k1_prims) g;
      VEC bary;
      if (deg == 1) b = a;                      /* zero length, zero size */
      if (deg == 2) v2 = TFN(k1_lerp)(a, b, t); /* collinear, flat */
      if (deg == 3) p = TFN(k1_lerp)(a, b, t);  /* on the primitive */
      v3 = deg == 2 ? TFN(k1_lerp)(a, v2, t) : v3;
      TFN(k1_prims_make)(&g, a, b, v2, v3, deg);
      h_case_begin();
      PROX_KERNELS_K1(TD_K1_X)
      /* A vertex and, for a proper triangle, the point of barycentrics
       * (1/2, 1/4, 1/4) are in the closed triangle. */
      CHECK_MSG(PROX_FN(prox_point_in_triangle)(a, &g.tr),
                "point_in_triangle at 2^%d: vertex 0 is out", e);
      if (deg == 0)
        CHECK_MSG(PROX_FN(prox_point_in_triangle)(
                      PROX_FN(prox_vadd)(
                          a, PROX_FN(prox_vadd)(
                                 PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(b, a), PROX_R(0.25)),
                                 PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(v2, a), PROX_R(0.25)))),
                      &g.tr),
                  "point_in_triangle at 2^%d: an inner point is out", e);
      bary = PROX_FN(prox_triangle_barycentric)(p, &g.tr);
      CHECK_MSG(TFN(td_finite3)(bary), "triangle_barycentric at 2^%d: %a %a %a", e, (double)bary.x,
                (double)bary.y, (double)bary.z);
      if (h_case_failed()) {
        h_note("a = (%a, %a, %a)", (double)a.x, (double)a.y, (double)a.z);
        h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
        h_note("p = (%a, %a, %a), kind %d", (double)p.x, (double)p.y, (double)p.z, deg);
      }
    }
  }
}

/* Overlap tests with known answers, built from the points v[0..5]:
 * triangles sharing a vertex or an edge, and one moved away; coplanar
 * triangles (one z for all vertices) touching at a vertex, and moved apart
 * in their plane; boxes sharing a corner; a sphere and a box at a vertex
 * of a triangle; two boxes about one center. */
static void TFN(td_overlap)(const VEC *v, int e) {
  PROX_FN(prox_triangle) a, b;
  PROX_FN(prox_aabb) ba, bb;
  PROX_FN(prox_obb) oa, ob;
  PROX_FN(prox_sphere) sp;
  PROX_REAL far = (PROX_REAL)ldexp(4.0, e), z = v[5].z;
  int i;
  a.v[0] = v[0];
  a.v[1] = v[1];
  a.v[2] = v[2];
  b.v[0] = v[0];
  b.v[1] = v[3];
  b.v[2] = v[4];
  CHECK_MSG(PROX_FN(prox_overlap_triangle_triangle)(&a, &b) == 1,
            "triangles sharing a vertex at 2^%d: apart", e);
  b.v[1] = v[1];
  CHECK_MSG(PROX_FN(prox_overlap_triangle_triangle)(&a, &b) == 1,
            "triangles sharing an edge at 2^%d: apart", e);
  for (i = 0; i < 3; ++i)
    b.v[i].x = a.v[i].x + far;
  CHECK_MSG(PROX_FN(prox_overlap_triangle_triangle)(&a, &b) == 0,
            "triangles moved apart at 2^%d: overlap", e);
  /* b = a moved along z by a quarter of the scale: parallel planes, apart
   * (the projections onto the xy-plane coincide). */
  for (i = 0; i < 3; ++i)
    b.v[i] = PROX_FN(prox_v3)(a.v[i].x, a.v[i].y, a.v[i].z + far / 16);
  CHECK_MSG(PROX_FN(prox_overlap_triangle_triangle)(&a, &b) == 0,
            "parallel triangles at 2^%d: overlap", e);
  ba.min = v[0];
  ba.max = v[1];
  CHECK_MSG(PROX_FN(prox_overlap_triangle_aabb)(&a, &ba) == 1,
            "triangle and a box at its vertex at 2^%d: apart", e);
  /* Coplanar: b is a mirrored through its vertex 0 (touching there). */
  for (i = 0; i < 3; ++i)
    a.v[i].z = z;
  b.v[0] = a.v[0];
  for (i = 1; i < 3; ++i)
    b.v[i] =
        PROX_FN(prox_v3)(a.v[0].x - (a.v[i].x - a.v[0].x), a.v[0].y - (a.v[i].y - a.v[0].y), z);
  CHECK_MSG(PROX_FN(prox_overlap_triangle_triangle)(&a, &b) == 1,
            "coplanar triangles touching at 2^%d: apart", e);
  for (i = 0; i < 3; ++i)
    b.v[i].y = a.v[i].y + far;
  CHECK_MSG(PROX_FN(prox_overlap_triangle_triangle)(&a, &b) == 0,
            "coplanar triangles apart at 2^%d: overlap", e);
  bb.min = v[1];
  bb.max = v[2];
  CHECK_MSG(PROX_FN(prox_overlap_aabb_aabb)(&ba, &bb) == 1, "boxes sharing a corner at 2^%d: apart",
            e);
  sp.center = a.v[1];
  sp.radius = 0;
  CHECK_MSG(PROX_FN(prox_overlap_sphere_triangle)(&sp, &a) == 1,
            "sphere at a vertex at 2^%d: apart", e);
  oa.center = ob.center = v[3];
  for (i = 0; i < 3; ++i) {
    oa.axis[i] = ob.axis[i] = PROX_FN(prox_v3)(i == 0, i == 1, (PROX_REAL)(i == 2));
    oa.half[i] = v[4].x;
    ob.half[i] = v[4].y;
  }
  CHECK_MSG(PROX_FN(prox_overlap_obb_obb)(&oa, &ob) == 1, "boxes about one center at 2^%d: apart",
            e);
}

/* The K2 kernels of the registry on the arguments <type>_1, <type>_2. */
#define TD_K2_X(name, first, second) TD_K2(#name, prox_##name, first##_1, second##_2);

static void PROX_FN(body_pair)(void) {
  oracle_rng s = oracle_rng_make(0xd2 + PROX_IS_DOUBLE);
  long c, n = h_count(4000);
  int side;
  for (side = 0; side < 2; ++side) {
    int e = side ? -TD_EXP : TD_EXP;
    double sc = ldexp(1.0, e);
    for (c = 0; c < n; ++c) {
      int deg = (int)(c % 4); /* 0: general; 1: zero length; 2: parallel;
                                 3: collinear triangle, touching */
      VEC v[6];
      PROX_REAL t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
      PROX_FN(prox_line) l1, l2;
      PROX_FN(prox_ray) r1, r2;
      PROX_FN(prox_segment) s1, s2;
      PROX_FN(prox_triangle) t1, t2;
      PROX_FN(prox_sphere) sp, sp2;
      PROX_FN(prox_capsule) c1, c2;
      /* The arguments of the K2 kernels (TD_K2_X), by type and place. */
      const PROX_FN(prox_line) *line_1 = &l1, *line_2 = &l2;
      const PROX_FN(prox_ray) *ray_1 = &r1, *ray_2 = &r2;
      const PROX_FN(prox_segment) *segment_1 = &s1, *segment_2 = &s2;
      const PROX_FN(prox_triangle) *triangle_1 = &t1, *triangle_2 = &t2;
      const PROX_FN(prox_sphere) *sphere_1 = &sp, *sphere_2 = &sp2;
      const PROX_FN(prox_capsule) *capsule_1 = &c1, *capsule_2 = &c2;
      int i;
      for (i = 0; i < 6; ++i)
        v[i] = TFN(td_vec)(&s, sc);
      TFN(k2_points_degenerate)(v, deg, t);
      l1.origin = r1.origin = s1.a = v[0];
      s1.b = v[1];
      l1.dir = r1.dir = PROX_FN(prox_vsub)(TFN(k1_lerp)(v[0], v[1], 0.5f), v[0]);
      l2.origin = r2.origin = s2.a = v[2];
      s2.b = v[3];
      l2.dir = r2.dir = PROX_FN(prox_vsub)(TFN(k1_lerp)(v[2], v[3], 0.5f), v[2]);
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
      sp2.center = v[3];
      sp2.radius = v[4].y;
      c1.a = v[0];
      c1.b = v[1];
      c1.radius = v[5].y;
      c2.a = v[2];
      c2.b = v[3];
      c2.radius = v[5].z;
      h_case_begin();
      PROX_KERNELS_K2(TD_K2_X)
      TFN(td_overlap)(v, e);
      if (h_case_failed())
        for (i = 0; i < 6; ++i)
          h_note("v[%d] = (%a, %a, %a), kind %d", i, (double)v[i].x, (double)v[i].y, (double)v[i].z,
                 deg);
    }
  }
}

/* One cast aimed at a point deep inside the primitive (from outside, or
 * from that point itself): a hit, with finite t, t_exit, point and normal;
 * the same answer with out = NULL. The ray casts' domain is smaller than
 * the point and pair queries' when the direction is short against the
 * coordinates (t then carries the coordinates' scale): 2^300 in double,
 * 2^40 in float (closest.h, raycast.h). */
#define TD_K3(name, fn, prim)                                                                      \
  do {                                                                                             \
    PROX_FN(prox_rayhit) rh_;                                                                      \
    int hit_ = PROX_FN(fn)(&ry, prim, &rh_), nul_ = PROX_FN(fn)(&ry, prim, NULL);                  \
    CHECK_MSG(hit_ == 1 && nul_ == 1 && isfinite(rh_.t) && isfinite(rh_.t_exit) &&                 \
                  TFN(td_finite3)(rh_.point) && TFN(td_finite3)(rh_.normal),                       \
              "%s at 2^%d: hit %d (out = NULL: %d), t = %a", name, e, hit_, nul_, (double)rh_.t);  \
  } while (0)

static VEC TFN(td_mid)(VEC a, VEC b) {
  return TFN(k1_lerp)(a, b, PROX_R(0.5));
}

/* One ray cast of the registry (tests/kernels.h) on its primitive prim:
 * from o aimed at aim.prim, or, for a solid when from_inside, from
 * aim.prim in a random direction drawn from the cast's own generator
 * (TD_K3_RNG: seeded by its name, so that a cast's place in the registry
 * changes no cast's rays). */
#define TD_K3_X(name, prim, solid)                                                                 \
  do {                                                                                             \
    int in_ = from_inside && (solid);                                                              \
    ry.origin = in_ ? aim.prim : o;                                                                \
    ry.dir = in_ ? TFN(td_vec)(&kr[TD_K3_##name], 1) : PROX_FN(prox_vsub)(aim.prim, o);            \
    if (side < 2 && c % 4 == 1) /* the same ray, direction ~1 long */                              \
      ry.dir = PROX_FN(prox_vscale)(ry.dir, (PROX_REAL)(1 / sc));                                  \
    ry.tmin = 0;                                                                                   \
    ry.tmax = PROX_INF;                                                                            \
    TD_K3(#name, prox_##name, &prim);                                                              \
  } while (0);
#define TD_K3_RNG(name, prim, solid) kr[TD_K3_##name] = oracle_rng_named(seed, #name);

static void PROX_FN(body_ray)(void) {
  const uint64_t seed = 0xd4 + PROX_IS_DOUBLE;
  oracle_rng s = oracle_rng_make(seed), kr[TD_K3_COUNT];
  long c, n = h_count(4000);
  int side;
  PROX_KERNELS_K3(TD_K3_RNG)
  /* Sides 0, 1: 2^+-TD_EXP3 with every kind of ray; sides 2, 3: the whole
   * domain 2^+-TD_EXP, rays from outside whose direction has the scale of
   * the coordinates (t about 1). */
  for (side = 0; side < 4; ++side) {
    int e = (side & 1 ? -1 : 1) * (side < 2 ? TD_EXP3 : TD_EXP);
    double sc = ldexp(1.0, e);
    for (c = 0; c < n; ++c) {
      VEC a = TFN(td_vec)(&s, sc), b = TFN(td_vec)(&s, sc);
      VEC v2 = TFN(td_vec)(&s, sc), v3 = TFN(td_vec)(&s, sc);
      VEC o = TFN(td_vec)(&s, sc);
      struct {
        VEC pl, tr, ab, ob, sp, cp, te;
      } aim; /* the point each cast aims at, by primitive */
      int from_inside = side < 2 && c % 4 == 3;
      PROX_FN(prox_ray) ry;
      PROX_FN(prox_plane) pl;
      PROX_FN(prox_triangle) tr;
      PROX_FN(prox_aabb) ab;
      PROX_FN(prox_obb) ob;
      PROX_FN(prox_sphere) sp;
      PROX_FN(prox_capsule) cp;
      PROX_FN(prox_tetrahedron) te;
      PROX_FN(prox_plane_from_point_normal)
      (a, PROX_FN(prox_v3)(PROX_R(0.3), PROX_R(0.4), PROX_R(0.5)), &pl);
      tr.v[0] = a;
      tr.v[1] = b;
      tr.v[2] = v2;
      ab.min = a;
      ab.max = b;
      ob.center = a;
      ob.axis[0] = PROX_FN(prox_v3)(PROX_R(0.6), PROX_R(0.8), 0);
      ob.axis[1] = PROX_FN(prox_v3)(PROX_R(-0.8), PROX_R(0.6), 0);
      ob.axis[2] = PROX_FN(prox_v3)(0, 0, 1);
      ob.half[0] = b.x;
      ob.half[1] = b.y;
      ob.half[2] = b.z;
      sp.center = a;
      sp.radius = b.x;
      cp.a = a;
      cp.b = b;
      cp.radius = v2.x;
      te.v[0] = a;
      te.v[1] = b;
      te.v[2] = v2;
      te.v[3] = v3;
      /* The targets: the plane's point, the triangle's centroid (rounded),
       * the centers of the solids, a point inside the tetrahedron. */
      aim.pl = aim.ob = aim.sp = a;
      aim.tr = TFN(k1_lerp)(TFN(td_mid)(a, b), v2, PROX_R(1.0 / 3));
      aim.ab = aim.cp = TFN(td_mid)(a, b);
      aim.te = TFN(td_mid)(TFN(td_mid)(a, b), TFN(td_mid)(v2, v3));
      h_case_begin();
      PROX_KERNELS_K3(TD_K3_X)
      if (h_case_failed()) {
        h_note("a = (%a, %a, %a)", (double)a.x, (double)a.y, (double)a.z);
        h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
        h_note("v2 = (%a, %a, %a)", (double)v2.x, (double)v2.y, (double)v2.z);
        h_note("v3 = (%a, %a, %a)", (double)v3.x, (double)v3.y, (double)v3.z);
        h_note("o = (%a, %a, %a), from inside %d", (double)o.x, (double)o.y, (double)o.z,
               from_inside);
      }
    }
  }
}

/* The packet casts (packet.h) against the scalar casts in the same
 * domain as those: eight boxes (with lo <= hi, as packets require) and
 * eight triangles per ray, half of them around the point the ray aims at;
 * lane i must hit exactly when the scalar cast does, with the same t (and
 * barycentrics), and the lanes around the target must hit. */
static void PROX_FN(body_packet)(void) {
  oracle_rng s = oracle_rng_make(0xd8 + PROX_IS_DOUBLE);
  long c, n = h_count(1000);
  int side;
  for (side = 0; side < 4; ++side) {
    int e = (side & 1 ? -1 : 1) * (side < 2 ? TD_EXP3 : TD_EXP);
    double sc = ldexp(1.0, e);
    for (c = 0; c < n; ++c) {
      VEC o = TFN(td_vec)(&s, sc), target = TFN(td_vec)(&s, sc);
      PROX_FN(prox_ray) ry;
      PROX_FN(prox_packet_ray) pr;
      PROX_FN(prox_box8) b8;
      PROX_FN(prox_tri8) t8;
      PROX_FN(prox_packet_hit8) th;
      PROX_REAL tnear[8];
      int bmask, tmask, i, k, j;
      ry.origin = o;
      ry.dir = PROX_FN(prox_vsub)(target, o);
      if (side < 2 && c % 2) /* direction ~1 long */
        ry.dir = PROX_FN(prox_vscale)(ry.dir, (PROX_REAL)(1 / sc));
      ry.tmin = 0;
      ry.tmax = PROX_INF;
      for (i = 0; i < 8; ++i) {
        /* Lanes 0-3 around the target (a box target +- d1, a triangle
         * target + d1, target + d2, target - d1 - d2), the others
         * anywhere. */
        VEC d1 = TFN(td_vec)(&s, sc / 4), d2 = TFN(td_vec)(&s, sc / 4);
        VEC w[3];
        w[0] = TFN(td_vec)(&s, sc);
        w[1] = TFN(td_vec)(&s, sc);
        w[2] = TFN(td_vec)(&s, sc);
        if (i < 4) {
          w[0] = PROX_FN(prox_vadd)(target, d1);
          w[1] = PROX_FN(prox_vadd)(target, d2);
          w[2] = PROX_FN(prox_vsub)(PROX_FN(prox_vsub)(target, d1), d2);
        }
        for (k = 0; k < 3; ++k) {
          PROX_REAL lo, hi;
          if (i < 4) {
            PROX_REAL t = k == 0 ? target.x : (k == 1 ? target.y : target.z);
            PROX_REAL r = PROX_FABS(k == 0 ? d1.x : (k == 1 ? d1.y : d1.z));
            lo = t - r;
            hi = t + r;
          } else {
            lo = k == 0 ? w[0].x : (k == 1 ? w[0].y : w[0].z);
            hi = k == 0 ? w[1].x : (k == 1 ? w[1].y : w[1].z);
          }
          b8.lo[k][i] = lo < hi ? lo : hi;
          b8.hi[k][i] = lo < hi ? hi : lo;
        }
        for (j = 0; j < 3; ++j) {
          t8.v[j][0][i] = w[j].x;
          t8.v[j][1][i] = w[j].y;
          t8.v[j][2][i] = w[j].z;
        }
      }
      PROX_FN(prox_packet_ray_init)(&pr, &ry);
      bmask = PROX_FN(prox_packet_aabb8)(&pr, &b8, tnear);
      tmask = PROX_FN(prox_packet_triangle8)(&pr, &t8, &th);
      h_case_begin();
      for (i = 0; i < 8; ++i) {
        PROX_FN(prox_aabb) box;
        PROX_FN(prox_triangle) tri;
        PROX_FN(prox_rayhit) h1, h2;
        int hb, ht;
        box.min = PROX_FN(prox_v3)(b8.lo[0][i], b8.lo[1][i], b8.lo[2][i]);
        box.max = PROX_FN(prox_v3)(b8.hi[0][i], b8.hi[1][i], b8.hi[2][i]);
        for (j = 0; j < 3; ++j)
          tri.v[j] = PROX_FN(prox_v3)(t8.v[j][0][i], t8.v[j][1][i], t8.v[j][2][i]);
        hb = PROX_FN(prox_raycast_aabb)(&ry, &box, &h1);
        ht = PROX_FN(prox_raycast_triangle)(&ry, &tri, &h2);
        CHECK_MSG(((bmask >> i) & 1) == hb && (!hb || tnear[i] == h1.t),
                  "packet box %d at 2^%d: mask %d, scalar %d (t %a, %a)", i, e, (bmask >> i) & 1,
                  hb, (double)tnear[i], (double)h1.t);
        CHECK_MSG(((tmask >> i) & 1) == ht &&
                      (!ht || (th.t[i] == h2.t && th.u[i] == h2.bary[1] && th.v[i] == h2.bary[2])),
                  "packet triangle %d at 2^%d: mask %d, scalar %d", i, e, (tmask >> i) & 1, ht);
        if (i < 4)
          CHECK_MSG(hb && isfinite(h1.t),
                    "box %d around the target at 2^%d: "
                    "missed",
                    i, e);
      }
      if (h_case_failed())
        h_note("o = (%a, %a, %a), target (%a, %a, %a)", (double)o.x, (double)o.y, (double)o.z,
               (double)target.x, (double)target.y, (double)target.z);
    }
  }
}

/* The value, n gradient and n * n Hessian entries of a K4 kernel are
 * finite. */
static int TFN(td_all_finite)(PROX_REAL v, const PROX_REAL *g, const PROX_REAL *h, int n) {
  int i, ok = isfinite(v) != 0;
  for (i = 0; i < n; ++i)
    ok &= isfinite(g[i]) != 0;
  for (i = 0; i < n * n; ++i)
    ok &= isfinite(h[i]) != 0;
  return ok;
}

#define TD_K4(name, n, call)                                                                       \
  do {                                                                                             \
    PROX_REAL v_ = call;                                                                           \
    CHECK_MSG(TFN(td_all_finite)(v_, g, h, n), "%s at 2^%d: value %a", name, e, (double)v_);       \
  } while (0)

/* The K4 kernels of the registry of one degree in the coordinates, as
 * _hessian (value, gradient and Hessian) on the vertices a, b, v2, v3. */
#define TD_K4_X(name, coords, degree, verts, type, bound, gen, shape)                              \
  TD_K4(                                                                                           \
      #name, coords,                                                                               \
      PROX_FN(prox_ipc_##name##_hessian)(PROX_KERNELS_K4_ARGS(verts, type, a, b, v2, v3), g, h));
#define TD_K4_DEG2(name, coords, degree, verts, type, bound, gen, shape)                           \
  if ((degree) == 2) TD_K4_X(name, coords, degree, verts, type, bound, gen, shape)
#define TD_K4_DEG4(name, coords, degree, verts, type, bound, gen, shape)                           \
  if ((degree) == 4) TD_K4_X(name, coords, degree, verts, type, bound, gen, shape)

/* The contact kernels (K4), value, gradient and Hessian in one call, with
 * their types classified (AUTO): finite everywhere in their domain
 * (contact.h): 2^+-TD_EXPK, which in float is smaller than the other
 * queries' (products of four coordinate differences, formed in float); the
 * edge-edge mollifier's threshold eps_x is of degree 4 in the coordinates,
 * so its domain is 2^+-TD_EXP4. Kind 3 puts the four vertices within an
 * ulp of one another (issue 13: the Hessians were non-finite there at the
 * small end, the point-line factor sqrt(2 / |e|^2) overflowing). */
static void PROX_FN(body_contact)(void) {
  oracle_rng s = oracle_rng_make(0xd6 + PROX_IS_DOUBLE);
  long c, n = h_count(2000);
  int side;
  for (side = 0; side < 4; ++side) {
    int e = (side & 1 ? -1 : 1) * (side < 2 ? TD_EXPK : TD_EXP4);
    double sc = ldexp(1.0, e);
    for (c = 0; c < n; ++c) {
      /* 0: general; 1: parallel edges; 2: p on t; 3: an ulp apart (the
       * distance kernels only: the mollifier's threshold, of degree 8 in
       * the edge lengths, underflows there) */
      int deg = (int)(c % (side < 2 ? 4 : 3));
      VEC a = TFN(td_vec)(&s, sc), b = TFN(td_vec)(&s, sc);
      VEC v2 = TFN(td_vec)(&s, sc), v3 = TFN(td_vec)(&s, sc);
      PROX_REAL g[12], h[144], t = (PROX_REAL)(0.5 + 0.5 * oracle_rng_range(&s, -1, 1));
      if (deg == 1) v3 = PROX_FN(prox_vadd)(v2, PROX_FN(prox_vsub)(TFN(k1_lerp)(a, b, t), a));
      if (deg == 2) a = TFN(k1_lerp)(b, v2, t);
      if (deg == 3) {
        PROX_REAL up = (PROX_REAL)INFINITY;
        b = v2 = v3 = a;
        b.x = TFN(td_next)(a.x, up);
        v2.y = TFN(td_next)(a.y, -up);
        v3.z = TFN(td_next)(a.z, up);
        v3.x = b.x;
      }
      h_case_begin();
      if (side < 2) {
        PROX_KERNELS_K4(TD_K4_DEG2)
      } else {
        PROX_REAL eps_x = PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(
            a, b, v2, TFN(k1_lerp)(v2, v3, PROX_R(0.75)));
        PROX_KERNELS_K4(TD_K4_DEG4)
        TD_K4("edge_edge_mollifier", 12,
              PROX_FN(prox_ipc_edge_edge_mollifier_hessian)(a, b, v2, v3, eps_x, g, h));
        CHECK_MSG(isfinite(eps_x) && eps_x > 0, "mollifier threshold at 2^%d: %a", e,
                  (double)eps_x);
      }
      if (h_case_failed()) {
        h_note("a = (%a, %a, %a), kind %d", (double)a.x, (double)a.y, (double)a.z, deg);
        h_note("b = (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
        h_note("v2 = (%a, %a, %a)", (double)v2.x, (double)v2.y, (double)v2.z);
        h_note("v3 = (%a, %a, %a)", (double)v3.x, (double)v3.y, (double)v3.z);
      }
    }
  }
}

#undef TD_K1_X
#undef TD_K2_X
#undef TD_K3_X
#undef TD_K3_RNG
#undef TD_K4_X
#undef TD_K4_DEG2
#undef TD_K4_DEG4
#undef VEC
#undef TFN

#endif /* TEST_DOMAIN_TEMPLATE */
