/* SPDX-License-Identifier: MIT */
/* test_closest.c: the point-to-primitive queries (K1), in double and float,
 * against an exact rational oracle (tests/oracle.h, GMP mpq_t).
 *
 * Every double and float is a rational number, so the exact closest point,
 * squared distance and feature of each query are computable. For every
 * kernel and both precisions the test runs at least 20,000 cases in four
 * kinds (uniform in [-1, 1]^3, large offset, tiny, adversarial: see
 * oracle_frame_random and the generators below) and asserts, per case:
 *
 * - finite input gives a finite result;
 * - squared distance error <= 8 eps S^2 and closest point error <= 8 eps S
 *   (S: the largest coordinate magnitude of the inputs and of the exact
 *   closest point; eps = 2^-52 or 2^-23); the point bound is asserted on
 *   well-conditioned cases only (triangles and tetrahedra: every face
 *   angle with sin^2 >= TC_WELL_SIN2 and 6 |volume| >= TC_WELL_VOL times
 *   the longest edge cubed; signed capsule: p at least TC_CAPSULE_WELL
 *   radii from the core, nearer 8 eps S (1 + r / d_core)), the
 *   squared-distance bound always, slivers and flat tetrahedra included;
 * - signed sphere and capsule, every case: the point is on the surface and
 *   at the signed distance from p, each within 8 eps S (check_surface);
 * - the feature equals the exact one when the answer is unambiguous: p
 *   farther than TC_MARGIN eps S = 8 eps S (the point bound) from the
 *   boundary of the exact feature's Voronoi region, and every feature that
 *   does not hold the closest point farther by more than that (the margin
 *   of oracle.h). Within the margin either feature goes: the table counts
 *   those cases, how many differ from the exact feature and the largest
 *   margin of one that does. There, and for degenerate primitives where
 *   several features hold the closest point, triangles and tetrahedra must
 *   report a feature that holds it (its exact distance exceeds the minimum
 *   by at most TC_TAU S: 1e-9 S in double, 1e-4 S in float);
 * - parameters (segment t, barycentrics, box coordinates) reproduce the
 *   exact closest point;
 * - NaN or Inf in any input gives NaN (test_nan_*);
 * - every K1 kernel of the registry (tests/kernels.h) was checked against
 *   the oracle in both precisions (test_registry_coverage): the tests run
 *   by the registry's primitives (TC_TESTS_<prim>).
 *
 * Non-rational answers (balls, unit normals) use oracle_sqrt: a rational
 * within 2^-300 of the root, exact for the purpose.
 *
 * The measured maxima print as a markdown table at the end, and, for
 * comparison only (not asserted), the textbook point-triangle routine
 * (Ericson 5.1.5, written below) on the sliver and collinear cases.
 *
 * This file includes itself once per precision (TEST_CLOSEST_TEMPLATE,
 * after prox/detail/real_double.h or real_float.h: PROX_REAL, PROX_FN,
 * PROX_IS_DOUBLE): the body after #else is the test template, with TFN
 * (test name) and the test's own constants (TC_*) set for that precision.
 *
 * Usage: test_closest [FILTER] [--scale=X] [--max-print=N] (harness.h).
 * Built by CTest (tests/CMakeLists.txt), or by hand from the top directory:
 *   cc -std=c11 -O2 -ffp-contract=off -Iinclude -Itests tests/test_closest.c
 *      src/export.c src/base.c -lgmp -lm */
#ifndef TEST_CLOSEST_TEMPLATE

/* The margin of the feature decisions, in eps S: where p is farther than
 * this from every boundary of its exact feature's region (and no other
 * feature is within it of the distance), the reported feature must be the
 * exact one; nearer, either answer goes (counted and printed). It is the
 * point bound: the kernels decide features from the quantities that give
 * the point, and measured disagreements lie within 2.2 eps S. */
#define TC_MARGIN 8.0

#include <prox/prox.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "kernels.h"
#include "oracle.h"

_Static_assert((int)ORACLE_NONE == (int)PROX_FEATURE_NONE, "feature numbering");
_Static_assert((int)ORACLE_VERTEX == (int)PROX_FEATURE_VERTEX, "feature numbering");
_Static_assert((int)ORACLE_EDGE == (int)PROX_FEATURE_EDGE, "feature numbering");
_Static_assert((int)ORACLE_FACE == (int)PROX_FEATURE_FACE, "feature numbering");
_Static_assert((int)ORACLE_INTERIOR == (int)PROX_FEATURE_INTERIOR, "feature numbering");

/* The asserted error bound, in eps S^2 (squared distance) and eps S
 * (points, distances, parameters). */
#define TC_BOUND 8.0

/* Cases per kind (uniform, large offset, tiny) and adversarial cases, per
 * kernel and precision: 3 * 5000 + 8000 = 23,000. */
#define TC_CASES 5000
#define TC_CASES_ADV 8000

/* Triangles (and tetrahedron faces) whose smallest angle has sin^2 below
 * this are slivers: their closest point is not asserted (prox documents the
 * point bound for triangles whose smallest angle "is not tiny"); their
 * squared distance is. */
#define TC_WELL_SIN2 1e-4

/* Tetrahedra with 6 |volume| below this times the cube of their longest
 * edge are nearly flat: their barycentrics (and the point, as for slivers)
 * are not asserted; their squared distance is. */
#define TC_WELL_VOL 1e-3

/* Base cases of the NaN/Inf injection test, per kernel. */
#define TC_NAN_CASES 64

/* Kernels with an entry in the NaN/Inf injection table. */
/* The kernels of test_nan: every K1 kernel of the registry
 * (tests/kernels.h), KN_<name>, then the triangle predicates and the plane
 * constructors. */
#define TC_KN_ENUM(name, prim, degree, param_degree) KN_##name,
enum {
  PROX_KERNELS_K1(TC_KN_ENUM) KN_triangle_barycentric,
  KN_point_in_triangle,
  KN_plane_from_normal,
  KN_plane_from_point_normal,
  KN_COUNT
};

/* Name and number of real inputs (point first, then the primitive's fields
 * in declaration order) of each kernel; TC_NIN_<prim> the fields of a
 * primitive by the registry's codes. */
#define TC_KN_NAME(name, prim, degree, param_degree) #name,
#define TC_KN_INPUTS(name, prim, degree, param_degree) 3 + TC_NIN_##prim,
#define TC_NIN_pl 4
#define TC_NIN_ln 6
#define TC_NIN_ry 8
#define TC_NIN_sg 6
#define TC_NIN_tr 9
#define TC_NIN_rc 11
#define TC_NIN_ab 6
#define TC_NIN_ob 15
#define TC_NIN_sp 4
#define TC_NIN_cp 7
#define TC_NIN_te 12
/* The type of a primitive by its code, in the precision of the template. */
#define TC_TYPE_pl PROX_FN(prox_plane)
#define TC_TYPE_ln PROX_FN(prox_line)
#define TC_TYPE_ry PROX_FN(prox_ray)
#define TC_TYPE_sg PROX_FN(prox_segment)
#define TC_TYPE_tr PROX_FN(prox_triangle)
#define TC_TYPE_rc PROX_FN(prox_rectangle)
#define TC_TYPE_ab PROX_FN(prox_aabb)
#define TC_TYPE_ob PROX_FN(prox_obb)
#define TC_TYPE_sp PROX_FN(prox_sphere)
#define TC_TYPE_cp PROX_FN(prox_capsule)
#define TC_TYPE_te PROX_FN(prox_tetrahedron)
static const char *const tc_kernel_name[KN_COUNT] = {
    PROX_KERNELS_K1(TC_KN_NAME) "triangle_barycentric", "point_in_triangle", "plane_from_normal",
    "plane_from_point_normal"};
static const int tc_kernel_inputs[KN_COUNT] = {PROX_KERNELS_K1(TC_KN_INPUTS) 12, 12, 4, 6};

/* Adversarial triangle sub-cases. The first five are the "sliver" family
 * on which the textbook routine is compared. */
enum {
  TRI_SLIVER,      /* relative area 10^-16 .. 1 (before rounding) */
  TRI_COLLINEAR,   /* exactly collinear (grid), coincident included */
  TRI_COINCIDENT,  /* two or three vertices equal */
  TRI_NEEDLE,      /* two vertices very close */
  TRI_GRID_SLIVER, /* collinear moved by one grid step: the least area */
  TRI_AT_VERTEX,   /* p exactly at a vertex */
  TRI_ON_EDGE,     /* p on an edge, within rounding */
  TRI_IN_FACE,     /* p above the face */
  TRI_AXIS,        /* axis-aligned: p exactly on region boundaries */
  TRI_FAR,         /* p far from a small triangle */
  TRI_THIN_RIGHT,  /* right triangle with legs 1 and 10^-k */
  TRI_NUDGED,      /* p within ulps of a vertex or an edge point */
  TRI_SUBCASES
};

/* Adversarial tetrahedron sub-cases. */
enum {
  TET_FLAT_GRID,  /* four coplanar grid points (exactly flat) */
  TET_FLAT_AXIS,  /* four points in a coordinate plane */
  TET_NEAR_FLAT,  /* v3 10^-16 .. 10^-1 off the plane of the others */
  TET_NEEDLE,     /* three vertices close together, or near a long edge */
  TET_COINCIDENT, /* two, three or four vertices equal */
  TET_INSIDE,     /* p inside */
  TET_ON_FACE,    /* p on a face within rounding */
  TET_AT_VERTEX,  /* p at (or ulps from) a vertex */
  TET_AXIS_FACE,  /* a face in a coordinate plane, p exactly in it */
  TET_SLIVER,     /* every face a sliver */
  TET_SUBCASES
};

/* The box feature of prox_point_aabb / prox_point_obb from the clamp side
 * c[i] (-1 low, 0 inside, +1 high) of each axis, as the header documents:
 * INTERIOR; FACE 2i + (c > 0); EDGE 4k + b, k the free axis, bit 0 of b the
 * high side of the lower clamped axis, bit 1 the other; VERTEX with bit i
 * for the high side of axis i. */
static void tc_box_feature(const int c[3], int *kind, int *index) {
  int n = (c[0] != 0) + (c[1] != 0) + (c[2] != 0), i;
  if (n == 0) {
    *kind = ORACLE_INTERIOR;
    *index = 0;
  } else if (n == 1) {
    *kind = ORACLE_FACE;
    for (i = 0; i < 3; ++i)
      if (c[i]) *index = 2 * i + (c[i] > 0);
  } else if (n == 2) {
    int k = c[0] == 0 ? 0 : (c[1] == 0 ? 1 : 2);
    int lo = k == 0 ? 1 : 0, hi = k == 2 ? 1 : 2;
    *kind = ORACLE_EDGE;
    *index = 4 * k + (c[lo] > 0) + 2 * (c[hi] > 0);
  } else {
    *kind = ORACLE_VERTEX;
    *index = (c[0] > 0) + 2 * (c[1] > 0) + 4 * (c[2] > 0);
  }
}

/* The rectangle feature of prox_point_rectangle from the clamp sides cs, ct
 * of its two coordinates, as the header documents. */
static void tc_rect_feature(int cs, int ct, int *kind, int *index) {
  if (cs && ct) {
    *kind = ORACLE_VERTEX;
    *index = (cs > 0) + 2 * (ct > 0);
  } else if (cs) {
    *kind = ORACLE_EDGE;
    *index = cs > 0;
  } else if (ct) {
    *kind = ORACLE_EDGE;
    *index = 2 + (ct > 0);
  } else {
    *kind = ORACLE_FACE;
    *index = 0;
  }
}

/* Exact clamp of x to [-h, h] (h >= 0): *side -1, 0 or +1. */
static void tc_clamp(mpq_t r, const mpq_t x, const mpq_t h, int *side) {
  mpq_t nh;
  mpq_init(nh);
  mpq_neg(nh, h);
  if (mpq_cmp(x, h) > 0) {
    mpq_set(r, h);
    *side = 1;
  } else if (mpq_cmp(x, nh) < 0) {
    mpq_set(r, nh);
    *side = -1;
  } else {
    mpq_set(r, x);
    *side = 0;
  }
  mpq_clear(nh);
}

/* The ball of radius r >= 0 around c, for p at exact squared distance cd2
 * from c: *inside = (cd2 <= r^2), exactly; sd = sqrt(cd2) - r; surf = c +
 * (p - c) r / sqrt(cd2) (c when cd2 = 0); q = p and d2 = 0 inside, else q =
 * surf and d2 = sd^2. Roots to ~300 bits (oracle_sqrt). */
static void tc_ball(const q3 *p, const q3 *c, const mpq_t cd2, const mpq_t r, q3 *q, q3 *surf,
                    mpq_t d2, mpq_t sd, int *inside) {
  mpq_t len, k;
  q3 w;
  mpq_inits(len, k, NULL);
  q3_init(&w);
  oracle_sqrt(len, cd2);
  mpq_sub(sd, len, r);
  mpq_mul(k, r, r);
  *inside = mpq_cmp(cd2, k) <= 0;
  if (mpq_sgn(cd2) > 0) {
    mpq_div(k, r, len);
    q3_sub(&w, p, c);
    q3_addmul(surf, c, k, &w);
  } else {
    q3_set(surf, c);
  }
  if (*inside) {
    q3_set(q, p);
    mpq_set_ui(d2, 0, 1);
  } else {
    q3_set(q, surf);
    mpq_mul(d2, sd, sd);
  }
  mpq_clears(len, k, NULL);
  q3_clear(&w);
}

/* ---- the two precisions ---- */

#define TEST_CLOSEST_TEMPLATE
#include <prox/detail/real_double.h>
#define TFN(name) name##_d
#define TC_EPS ORACLE_EPS_DOUBLE
#define TC_PREC "double"
#define TC_MANT 53
#define TC_NEXT(x, to) nextafter((x), (to))
/* Features within TC_TAU S of a region boundary are not compared. */
#define TC_TAU 1e-9
/* prox's zero-area threshold (sin^2 of the angle at v[0], documented for
 * double as "below 1e-12 in sine"). */
#define TC_FLAT_SIN2 1e-24
#include "test_closest.c"
#include <prox/detail/real_end.h>
#undef TFN
#undef TC_EPS
#undef TC_PREC
#undef TC_MANT
#undef TC_NEXT
#undef TC_TAU
#undef TC_FLAT_SIN2

#include <prox/detail/real_float.h>
#define TFN(name) name##_f
#define TC_EPS ORACLE_EPS_FLOAT
#define TC_PREC "float"
#define TC_MANT 24
#define TC_NEXT(x, to) nextafterf((x), (to))
/* 1e-9 is below float resolution: regions are compared beyond 1e-4 S
 * (~840 eps S). */
#define TC_TAU 1e-4
/* prox's zero-area threshold for float (PROX_FLAT_SIN2, not stated in
 * the header comment). */
#define TC_FLAT_SIN2 1e-10
#include "test_closest.c"
#include <prox/detail/real_end.h>
#undef TEST_CLOSEST_TEMPLATE
#undef TFN
#undef TC_EPS
#undef TC_PREC
#undef TC_MANT
#undef TC_NEXT
#undef TC_TAU
#undef TC_FLAT_SIN2

/* Float point-triangle inputs that were once wrong, held to the bound
 * against the oracle: v[0] the point, v[1..3] the triangle. */
static void tc_regression(const float v[4][3], const char *what) {
  prox_trianglef tri;
  prox_closestf out;
  prox_vec3f p = prox_v3f(v[0][0], v[0][1], v[0][2]);
  oracle_tri x;
  q3 xp, xv[3];
  float d2, d0;
  double S = 0, e, e0;
  int i, k;
  oracle_tri_init(&x);
  q3_init(&xp);
  q3_set_d(&xp, v[0][0], v[0][1], v[0][2]);
  for (i = 0; i < 3; ++i) {
    tri.v[i] = prox_v3f(v[i + 1][0], v[i + 1][1], v[i + 1][2]);
    q3_init(&xv[i]);
    q3_set_d(&xv[i], v[i + 1][0], v[i + 1][1], v[i + 1][2]);
  }
  for (i = 0; i < 4; ++i)
    for (k = 0; k < 3; ++k)
      if (fabs(v[i][k]) > S) S = fabs(v[i][k]);
  oracle_point_triangle(&x, &xp, xv);
  d2 = prox_point_trianglef(p, &tri, &out);
  d0 = prox_point_trianglef(p, &tri, NULL);
  e = oracle_err(d2, x.d2, ORACLE_EPS_FLOAT * S * S);
  e0 = oracle_err(d0, x.d2, ORACLE_EPS_FLOAT * S * S);
  CHECK_MSG(e <= 8 && e0 <= 8 && isfinite(out.point.x) && isfinite(out.point.y) &&
                isfinite(out.point.z),
            "point_trianglef, %s: %a (NULL: %a), error %g (%g) eps S^2", what, (double)d2,
            (double)d0, e, e0);
  for (i = 0; i < 3; ++i)
    q3_clear(&xv[i]);
  q3_clear(&xp);
  oracle_tri_clear(&x);
}

/* Inputs from outside checks and test_property (issue 13). */
static void test_regressions(void) {
  /* |e1|^2 |e2|^2 underflows (coordinates near 2^-38, a vertex with equal
   * coordinates): n . n rounded to 0, NaN. */
  static const float tiny[4][3] = {{-0x1.a759ecp-39f, -0x1.73e728p-41f, -0x1.40e86p-39f},
                                   {0x1.fd4de4p-39f, 0x1.fd4de4p-39f, 0x1.ce7cdcp-40f},
                                   {-0x1.90fd66p-41f, 0x1.bd28aap-39f, -0x1.c43fd4p-39f},
                                   {0x1.c6154cp-41f, 0x1.3d6b2cp-41f, -0x1.02a484p-41f}};
  /* Coordinates near 2^32: a barycentric numerator overflowed to +inf,
   * which made na = -inf and chose edge 1 over the face (10% too far). */
  static const float big[4][3] = {{-0x1.51f356p+24f, 0x1.c99f36p+23f, 0x1.79f2ap+26f},
                                  {-0x1.f0bba8p+30f, -0x1.b70d3ep+30f, 0x1.c0b256p+23f},
                                  {0x1.f4baecp+25f, 0x1.8ed33cp+32f, 0x1.692c6p+25f},
                                  {-0x1.0957cap+24f, -0x1.907cbap+30f, 0x1.cd03f2p+27f}};
  tc_regression(tiny, "near 2^-38");
  tc_regression(big, "near 2^32");
}

/* The oracle tests of the K1 kernels of the registry (tests/kernels.h),
 * by the code of their primitive: TC_TESTS_<prim>(X) names the tests that
 * check every kernel on that primitive against the oracle, and the
 * primitive's constructors and predicates. main runs them, double then
 * float, in the registry's order, each primitive's once. */
#define TC_TESTS_pl(X) X(plane) X(plane_tiny_normal) X(plane_make)
#define TC_TESTS_ln(X) X(line)
#define TC_TESTS_ry(X) X(ray)
#define TC_TESTS_sg(X) X(segment)
#define TC_TESTS_tr(X) X(triangle) X(barycentric) X(in_triangle)
#define TC_TESTS_rc(X) X(rectangle)
#define TC_TESTS_ab(X) X(aabb)
#define TC_TESTS_ob(X) X(obb)
#define TC_TESTS_sp(X) X(sphere)
#define TC_TESTS_cp(X) X(capsule) X(signed_near_core)
#define TC_TESTS_te(X) X(tetrahedron)
#define TC_RUN(test)                                                                               \
  h_run("test_" #test "_d", test_##test##_d);                                                      \
  h_run("test_" #test "_f", test_##test##_f);
#define TC_RUN_PRIM(name, prim, degree, param_degree)                                              \
  if (!strstr(done, "," #prim ",")) {                                                              \
    strcat(done, #prim ",");                                                                       \
    TC_TESTS_##prim(TC_RUN)                                                                        \
  }

/* Every K1 kernel of the registry has rows in the oracle's table, in both
 * precisions, with cases: a kernel added to the registry without an oracle
 * test fails here. */
static void test_registry_coverage(void) {
  int k, p, i;
  for (k = 0; k < PROX_KERNELS_COUNT(PROX_KERNELS_K1); ++k)
    for (p = 0; p < 2; ++p) {
      long cases = 0;
      for (i = 0; i < oracle_table_.n; ++i)
        if (strcmp(oracle_table_.rows[i].kernel, tc_kernel_name[k]) == 0 &&
            strcmp(oracle_table_.rows[i].precision, p ? "float" : "double") == 0)
          cases += oracle_table_.rows[i].cases;
      CHECK_MSG(cases > 0, "%s (%s): no case against the oracle", tc_kernel_name[k],
                p ? "float" : "double");
    }
}

int main(int argc, char **argv) {
  char done[128] = ",";
  h_init(argc, argv);
  H_RUN(test_regressions);
  PROX_KERNELS_K1(TC_RUN_PRIM)
  H_RUN(test_nan_d);
  H_RUN(test_nan_f);
  H_RUN(test_triangle_thin_face_d);
  H_RUN(test_triangle_thin_face_f);
  /* Only when every test ran. */
  if (!h_.filter) H_RUN(test_registry_coverage);
  if (!h_.list_only && h_.ran > 0) oracle_table_print(stdout);
  return h_finish();
}

#else /* TEST_CLOSEST_TEMPLATE: the tests of one precision */

#define VEC PROX_FN(prox_vec3)
#define RES PROX_FN(prox_closest)

/* ------------------------------------------------------------------------ */
/* Conversions and random inputs                                            */
/* ------------------------------------------------------------------------ */

static VEC TFN(v3)(const double u[3]) {
  return PROX_FN(prox_v3)((PROX_REAL)u[0], (PROX_REAL)u[1], (PROX_REAL)u[2]);
}

static void TFN(q)(q3 *out, VEC v) {
  q3_set_d(out, (double)v.x, (double)v.y, (double)v.z);
}

static void TFN(d3)(VEC v, double out[3]) {
  out[0] = (double)v.x;
  out[1] = (double)v.y;
  out[2] = (double)v.z;
}

/* max(s, largest |component| of v). */
static double TFN(smax)(double s, VEC v) {
  double m = fabs((double)v.x);
  if (fabs((double)v.y) > m) m = fabs((double)v.y);
  if (fabs((double)v.z) > m) m = fabs((double)v.z);
  return m > s ? m : s;
}

static double TFN(smax_r)(double s, PROX_REAL x) {
  return fabs((double)x) > s ? fabs((double)x) : s;
}

static double TFN(smax_q)(double s, const q3 *v) {
  double m = q3_maxabs(v);
  return m > s ? m : s;
}

/* S for the error units: never 0 (an all-zero case has zero errors). */
static double TFN(fix_s)(double s) {
  return s > 0 ? s : DBL_MIN;
}

static long TFN(cases)(int kind) {
  return h_count(kind == ORACLE_ADVERSARIAL ? TC_CASES_ADV : TC_CASES);
}

/* A random point of the frame's cube scaled by ext, rounded. */
static VEC TFN(point)(oracle_rng *g, const oracle_frame *f, double ext) {
  double u[3], w[3];
  oracle_rng_cube(g, u);
  u[0] *= ext;
  u[1] *= ext;
  u[2] *= ext;
  oracle_frame_point(f, u, w);
  return TFN(v3)(w);
}

/* a + t (b - a), evaluated in double and rounded: within an ulp or so of
 * the segment's line. */
static VEC TFN(comb)(VEC a, VEC b, double t) {
  double w[3];
  w[0] = (double)a.x + t * ((double)b.x - (double)a.x);
  w[1] = (double)a.y + t * ((double)b.y - (double)a.y);
  w[2] = (double)a.z + t * ((double)b.z - (double)a.z);
  return TFN(v3)(w);
}

/* u a + v b + w c, in double, rounded. */
static VEC TFN(comb3)(VEC a, VEC b, VEC c, double u, double v, double w) {
  double r[3];
  r[0] = u * (double)a.x + v * (double)b.x + w * (double)c.x;
  r[1] = u * (double)a.y + v * (double)b.y + w * (double)c.y;
  r[2] = u * (double)a.z + v * (double)b.z + w * (double)c.z;
  return TFN(v3)(r);
}

/* a + h d, in double, rounded. */
static VEC TFN(offset)(VEC a, const double d[3], double h) {
  double r[3];
  r[0] = (double)a.x + h * d[0];
  r[1] = (double)a.y + h * d[1];
  r[2] = (double)a.z + h * d[2];
  return TFN(v3)(r);
}

/* x moved by k ulps (toward +inf for k > 0). */
static PROX_REAL TFN(ulps)(PROX_REAL x, int k) {
  for (; k > 0; --k)
    x = TC_NEXT(x, (PROX_REAL)INFINITY);
  for (; k < 0; ++k)
    x = TC_NEXT(x, -(PROX_REAL)INFINITY);
  return x;
}

/* v with each component moved by up to k ulps at random. */
static VEC TFN(nudge)(oracle_rng *g, VEC v, int k) {
  v.x = TFN(ulps)(v.x, oracle_rng_int(g, 2 * k + 1) - k);
  v.y = TFN(ulps)(v.y, oracle_rng_int(g, 2 * k + 1) - k);
  v.z = TFN(ulps)(v.z, oracle_rng_int(g, 2 * k + 1) - k);
  return v;
}

/* A unit vector perpendicular to e (e not zero), in double. */
static void TFN(perp)(oracle_rng *g, VEC e, double out[3]) {
  double d[3], u[3], k, l;
  TFN(d3)(e, d);
  l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  do {
    oracle_rng_dir(g, u);
    k = l > 0 ? (u[0] * d[0] + u[1] * d[1] + u[2] * d[2]) / (l * l) : 0;
    out[0] = u[0] - k * d[0];
    out[1] = u[1] - k * d[1];
    out[2] = u[2] - k * d[2];
    k = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
  } while (!(k > 0.1));
  out[0] /= k;
  out[1] /= k;
  out[2] /= k;
}

/* |b - a| in double. */
static double TFN(len)(VEC a, VEC b) {
  double x = (double)b.x - (double)a.x, y = (double)b.y - (double)a.y;
  double z = (double)b.z - (double)a.z;
  return sqrt(x * x + y * y + z * z);
}

/* Exact constructions. Multiples of the frame's quantum Q below
 * 2^(TC_MANT) Q in magnitude are representable, so sums of a few grid
 * points and grid vectors are exact: collinear and coplanar inputs that
 * are exactly so. */
static double TFN(quantum)(const oracle_frame *f) {
  double m = 8 * f->scale;
  int e, i;
  for (i = 0; i < 3; ++i)
    m += fabs(f->shift[i]);
  (void)frexp(m, &e); /* m < 2^e */
  return ldexp(1.0, e + 3 - TC_MANT);
}

static double TFN(snap)(double x, double q) {
  return q * nearbyint(x / q);
}

/* A random grid point of the frame (ext as for TFN(point)). */
static VEC TFN(grid_point)(oracle_rng *g, const oracle_frame *f, double q, double ext) {
  double u[3], w[3];
  int i;
  oracle_rng_cube(g, u);
  for (i = 0; i < 3; ++i)
    u[i] *= ext;
  oracle_frame_point(f, u, w);
  for (i = 0; i < 3; ++i)
    w[i] = TFN(snap)(w[i], q);
  return TFN(v3)(w);
}

/* A random non-zero grid vector of length up to about ext frame units
 * (at least one step), a multiple of m q. */
static VEC TFN(grid_vector)(oracle_rng *g, const oracle_frame *f, double q, double m, double ext) {
  double u[3], w[3];
  int i;
  oracle_rng_cube(g, u);
  for (i = 0; i < 3; ++i)
    w[i] = TFN(snap)(u[i] * ext * f->scale, m * q);
  while (w[0] == 0 && w[1] == 0 && w[2] == 0)
    for (i = 0; i < 3; ++i)
      w[i] = m * q * (oracle_rng_int(g, 5) - 2);
  return TFN(v3)(w);
}

/* a + k d (exact for grid a, d and small k). */
static VEC TFN(grid_add)(VEC a, VEC d, double k) {
  double r[3];
  r[0] = (double)a.x + k * (double)d.x;
  r[1] = (double)a.y + k * (double)d.y;
  r[2] = (double)a.z + k * (double)d.z;
  return TFN(v3)(r);
}

/* Prints v with full precision (hexadecimal floating point). */
static void TFN(note_vec)(const char *name, VEC v) {
  h_note("%s = (%a, %a, %a)", name, (double)v.x, (double)v.y, (double)v.z);
}

/* ------------------------------------------------------------------------ */
/* Checks shared by the kernels                                             */
/* ------------------------------------------------------------------------ */

/* Squared distance and closest point of an unsigned query against the
 * exact ones; the point bound is asserted when point_well. */
/* The squared distance of the same query with out = NULL (a separate
 * path in several kernels), set by the caller before check_closest;
 * null_set 2: the kernel documents the same bits on both paths (the
 * axis-aligned box, whose float distance-only path runs in SSE lanes on
 * x86-64). */
static PROX_REAL TFN(null_d2);
static int TFN(null_set);

static void TFN(check_closest)(oracle_row *row, double s, PROX_REAL d2, const RES *out,
                               const mpq_t xd2, const q3 *xq, int point_well) {
  /* The unit of the squared distance is eps max(S, d)^2: when p is
   * farther from the primitive than the largest coordinate, even the exact
   * point's |p - q|^2 rounds with a relative error of a few eps, which is
   * more than 8 eps S^2 (d^2 reaches 12 S^2 in a cube). */
  double dx = sqrt(mpq_get_d(xd2)), u2 = dx > s ? dx : s;
  double e2 = oracle_err((double)d2, xd2, TC_EPS * u2 * u2);
  double ep =
      oracle_err3((double)out->point.x, (double)out->point.y, (double)out->point.z, xq, TC_EPS * s);
  oracle_max(&row->sqdist, e2);
  oracle_max(point_well ? &row->point : &row->point_ill, ep);
  CHECK_MSG(isfinite(d2) && isfinite(out->point.x) && isfinite(out->point.y) &&
                isfinite(out->point.z),
            "non-finite result %a from finite input", (double)d2);
  CHECK_MSG(d2 == out->sqdist, "returned %a, out->sqdist %a", (double)d2, (double)out->sqdist);
  CHECK_MSG(e2 <= TC_BOUND, "squared distance error %.3g eps S^2 (%a)", e2, (double)d2);
  if (TFN(null_set)) {
    /* The distance-only path: held to the same bound. */
    double en = oracle_err((double)TFN(null_d2), xd2, TC_EPS * u2 * u2);
    oracle_max(&row->sqdist, en);
    CHECK_MSG(isfinite(TFN(null_d2)), "out = NULL: non-finite result %a from finite input",
              (double)TFN(null_d2));
    CHECK_MSG(en <= TC_BOUND, "out = NULL: squared distance error %.3g eps S^2", en);
    CHECK_MSG(TFN(null_set) != 2 || memcmp(&TFN(null_d2), &d2, sizeof d2) == 0,
              "out = NULL gives %a, out %a", (double)TFN(null_d2), (double)d2);
    TFN(null_set) = 0;
  }
  if (point_well) CHECK_MSG(ep <= TC_BOUND, "closest point error %.3g eps S", ep);
}

/* A case within the margin (TC_MARGIN eps S) of a region boundary, where
 * either answer goes: counted, and so is a feature that differs from the
 * exact one (with the largest margin, in eps S, at which one did). */
static void TFN(count_amb)(oracle_row *row, const RES *out, int kind, int index, double margin,
                           double s) {
  ++row->feature_amb;
  if (out->feature.kind != kind || out->feature.index != index) {
    ++row->feature_amb_diff;
    oracle_max(&row->amb_diff_margin, margin / (TC_EPS * s));
  }
}

/* The feature against the exact one, unless p is within TC_MARGIN eps S of
 * the boundary of the exact feature's Voronoi region (then counted). */
static void TFN(check_feature)(oracle_row *row, const RES *out, int kind, int index, double margin,
                               double s) {
  if (!(margin > TC_MARGIN * TC_EPS * s)) {
    TFN(count_amb)(row, out, kind, index, margin, s);
    return;
  }
  ++row->feature_checked;
  CHECK_MSG(out->feature.kind == kind && out->feature.index == index,
            "feature (kind %d, index %d), exact (kind %d, index %d), "
            "margin %.3g S",
            out->feature.kind, out->feature.index, kind, index, margin / s);
}

/* For primitives whose closest point several features hold, and within the
 * margin: the reported feature is known (have) and its exact squared
 * distance fd2 exceeds the minimum xd2 by at most TC_TAU S in distance
 * (row: counted by the caller). */
static void TFN(check_valid)(oracle_row *row, const RES *out, int have, const mpq_t fd2,
                             const mpq_t xd2, double s) {
  double gap = have ? oracle_root_gap(fd2, xd2) : INFINITY;
  (void)row;
  CHECK_MSG(gap <= TC_TAU * s,
            "feature (kind %d, index %d) does not hold the closest point "
            "(%.3g S farther)",
            out->feature.kind, out->feature.index, gap / s);
}

/* Weights w[0..n-1] reproduce the exact point xq as sum w_i v_i, within
 * well * TC_BOUND eps S (asserted when well > 0: 1 for segments and boxes,
 * 1 / sin^2 of the smallest angle for triangle and tetrahedron
 * barycentrics, which the kernels document to solve a 2x2 Gram system);
 * records the error in row->value. */
static void TFN(check_recon)(oracle_row *row, const PROX_REAL *w, int n, const q3 *v, const q3 *xq,
                             double s, double well) {
  q3 r;
  mpq_t k;
  double e;
  int i, finite = 1;
  for (i = 0; i < n; ++i)
    finite &= isfinite(w[i]) != 0;
  if (!finite) {
    CHECK_MSG(0, "non-finite parameters from finite input");
    return;
  }
  q3_init(&r);
  mpq_init(k);
  q3_zero(&r);
  for (i = 0; i < n; ++i) {
    mpq_set_d(k, (double)w[i]);
    q3_addmul(&r, &r, k, &v[i]);
  }
  {
    mpq_t d2, u;
    mpq_inits(d2, u, NULL);
    q3_dist2(d2, &r, xq);
    mpq_set_d(u, TC_EPS * s);
    mpq_mul(u, u, u);
    mpq_div(d2, d2, u);
    e = sqrt(mpq_get_d(d2));
    mpq_clears(d2, u, NULL);
  }
  row->value_unit = "eps S (params)";
  if (well > 0) {
    oracle_max(&row->value, e);
    CHECK_MSG(e <= TC_BOUND * well, "parameters reproduce the point within %.3g eps S (bound %.3g)",
              e, TC_BOUND * well);
  }
  q3_clear(&r);
  mpq_clear(k);
}

/* ------------------------------------------------------------------------ */
/* Plane                                                                    */
/* ------------------------------------------------------------------------ */

/* A plane case: p, normal n, offset. */
static void TFN(gen_plane)(oracle_rng *g, int kind, VEC *p, VEC *n, PROX_REAL *off) {
  oracle_frame f = oracle_frame_random(g, kind);
  double u[3], x0[3], m = 1;
  VEC x = TFN(point)(g, &f, 1);
  int sub = kind == ORACLE_ADVERSARIAL ? oracle_rng_int(g, 8) : -1;
  oracle_rng_dir(g, u);
  if (oracle_rng_int(g, 3) == 0) m = oracle_rng_log10(g, -3, 3);
  if (sub == 6) /* |n|^2 underflows or overflows, n itself subnormal too */
    m = oracle_rng_int(g, 2)
            ? oracle_rng_log10(g, PROX_IS_DOUBLE ? -322 : -44, PROX_IS_DOUBLE ? -160 : -20)
            : oracle_rng_log10(g, PROX_IS_DOUBLE ? 160 : 20, PROX_IS_DOUBLE ? 300 : 30);
  *n = PROX_FN(prox_v3)((PROX_REAL)(m * u[0]), (PROX_REAL)(m * u[1]), (PROX_REAL)(m * u[2]));
  TFN(d3)(x, x0);
  *off = (PROX_REAL)((double)n->x * x0[0] + (double)n->y * x0[1] + (double)n->z * x0[2]);
  *p = TFN(point)(g, &f, 1.2);
  switch (sub) {
  case 0: { /* axis normal, p exactly on the plane */
    int k = oracle_rng_int(g, 3);
    PROX_REAL s = (PROX_REAL)ldexp(1.0, oracle_rng_int(g, 9) - 4);
    *n = PROX_FN(prox_v3)(0, 0, 0);
    if (k == 0) n->x = s, *off = s * p->x;
    if (k == 1) n->y = s, *off = s * p->y;
    if (k == 2) n->z = s, *off = s * p->z;
    break;
  }
  case 1: /* zero normal: every point is on the plane */
    *n = PROX_FN(prox_v3)(0, 0, 0);
    break;
  case 2: /* p is the point that made the offset: within rounding */
    *p = x;
    break;
  case 3: /* the same, nudged */
    *p = TFN(nudge)(g, x, 2);
    break;
  case 4: /* zero components in the normal */
    if (oracle_rng_int(g, 2)) n->x = 0;
    n->y = 0;
    *off = (PROX_REAL)((double)n->x * x0[0] + (double)n->z * x0[2]);
    break;
  case 5: /* far from the plane */
    *p = TFN(point)(g, &f, 100);
    break;
  case 6: /* a normal of extreme length (above) */
    break;
  default: /* a huge offset */
    *off = (PROX_REAL)((double)*off + oracle_rng_sign(g) * 1e3 * f.scale);
    break;
  }
}

static void TFN(test_plane)(void) {
  oracle_rng g = oracle_rng_make(0x100 + 2 - PROX_IS_DOUBLE);
  q3 xp, xn, xq;
  mpq_t xoff, xd2, xsd, t;
  int kind;
  q3_init(&xp);
  q3_init(&xn);
  q3_init(&xq);
  mpq_inits(xoff, xd2, xsd, t, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_plane", TC_PREC, kind);
    oracle_row *rows = oracle_row_get("point_plane_signed", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_plane) pl;
      VEC p;
      RES out, outs;
      PROX_REAL d2, sd;
      double s, e;
      TFN(gen_plane)(&g, kind, &p, &pl.normal, &pl.offset);
      h_case_begin();
      d2 = PROX_FN(prox_point_plane)(p, &pl, &out);
      TFN(null_d2) = PROX_FN(prox_point_plane)(p, &pl, NULL);
      TFN(null_set) = 1;
      sd = PROX_FN(prox_point_plane_signed)(p, &pl, &outs);
      TFN(q)(&xp, p);
      TFN(q)(&xn, pl.normal);
      mpq_set_d(xoff, (double)pl.offset);
      oracle_point_plane(&xq, xd2, xsd, &xp, &xn, xoff);
      s = TFN(fix_s)(TFN(smax_q)(TFN(smax)(0, p), &xq));
      ++row->cases;
      ++rows->cases;
      TFN(check_closest)(row, s, d2, &out, xd2, &xq, 1);
      ++row->feature_checked;
      CHECK_MSG(out.feature.kind == PROX_FEATURE_FACE && out.feature.index == 0,
                "feature (%d, %d), expected FACE 0", out.feature.kind, out.feature.index);
      CHECK(out.param[0] == 0 && out.param[1] == 0 && out.param[2] == 0 && out.param[3] == 0);
      /* Signed: the distance, and the same projection. */
      e = oracle_err((double)sd, xsd, TC_EPS * s);
      rows->value_unit = "eps S (signed dist.)";
      oracle_max(&rows->value, e);
      CHECK_MSG(e <= TC_BOUND, "signed distance %a: error %.3g eps S", (double)sd, e);
      mpq_mul(t, xsd, xsd);
      TFN(check_closest)(rows, s, outs.sqdist, &outs, t, &xq, 1);
      ++rows->feature_checked;
      CHECK(outs.feature.kind == PROX_FEATURE_FACE && outs.feature.index == 0);
      if (h_case_failed()) {
        h_note("point_plane%s:", PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("p", p);
        TFN(note_vec)("normal", pl.normal);
        h_note("offset = %a", (double)pl.offset);
      }
    }
  }
  q3_clear(&xp);
  q3_clear(&xn);
  q3_clear(&xq);
  mpq_clears(xoff, xd2, xsd, t, NULL);
}

/* Planes whose normal is so short that |n|^2 underflows (issue 13: the
 * signed distance came out +-inf, or 0 where |n|^2 was 0, although the
 * distance is finite), and one whose distance is finite while its square
 * overflows: the signed distance and the point against the oracle. */
static void TFN(test_plane_tiny_normal)(void) {
  q3 xp, xn, xq;
  mpq_t xoff, xd2, xsd;
  int c;
  q3_init(&xp);
  q3_init(&xn);
  q3_init(&xq);
  mpq_inits(xoff, xd2, xsd, NULL);
  for (c = 0; c < 4; ++c) {
    PROX_FN(prox_plane) pl;
    RES out;
    VEC p = PROX_FN(prox_v3)(2, 3, 4);
    PROX_REAL sd, tiny = (PROX_REAL)(PROX_IS_DOUBLE ? 1e-170 : 1e-25);
    double s, e;
    pl.offset = 0;
    if (c == 0) pl.normal = PROX_FN(prox_v3)(tiny, 0, 0);
    if (c == 1) pl.normal = PROX_FN(prox_v3)(tiny, tiny, 0);
    if (c == 2) { /* distance 2^k, its square beyond the range */
      int k = PROX_IS_DOUBLE ? 600 : 70;
      pl.normal = PROX_FN(prox_v3)((PROX_REAL)ldexp(1, -k), 0, 0);
      pl.offset = 1;
    }
    if (c == 3) { /* the issue's float case (+inf before) */
      pl.normal = PROX_FN(prox_v3)((PROX_REAL)-0x1.4d7c92p-69, (PROX_REAL)0x1.6e4b0ap-71,
                                   (PROX_REAL)0x1.2dd18ap-69);
      pl.offset = (PROX_REAL)-0x1.a11e8ap+1;
      p = PROX_FN(prox_v3)((PROX_REAL)-0x1.b612bp-12, (PROX_REAL)-0x1.b3aeap-14,
                           (PROX_REAL)0x1.4e971cp-12);
    }
    h_case_begin();
    sd = PROX_FN(prox_point_plane_signed)(p, &pl, &out);
    TFN(q)(&xp, p);
    TFN(q)(&xn, pl.normal);
    mpq_set_d(xoff, (double)pl.offset);
    oracle_point_plane(&xq, xd2, xsd, &xp, &xn, xoff);
    s = TFN(fix_s)(TFN(smax_q)(TFN(smax)(0, p), &xq));
    e = oracle_err((double)sd, xsd, TC_EPS * s);
    CHECK_MSG(e <= TC_BOUND, "case %d: signed distance %a, error %.3g eps S", c, (double)sd, e);
    e = oracle_err3((double)out.point.x, (double)out.point.y, (double)out.point.z, &xq, TC_EPS * s);
    CHECK_MSG(e <= TC_BOUND, "case %d: point error %.3g eps S", c, e);
    if (c < 2) {
      e = oracle_err((double)out.sqdist, xd2, TC_EPS * s * s);
      CHECK_MSG(e <= TC_BOUND, "case %d: squared distance error %.3g eps S^2", c, e);
      e = oracle_err((double)PROX_FN(prox_point_plane)(p, &pl, NULL), xd2, TC_EPS * s * s);
      CHECK_MSG(e <= TC_BOUND, "case %d: prox_point_plane error %.3g eps S^2", c, e);
    }
    if (c == 2)
      CHECK_MSG(out.sqdist == (PROX_REAL)INFINITY, "the square of 2^k: %a, documented +inf",
                (double)out.sqdist);
  }
  q3_clear(&xp);
  q3_clear(&xn);
  q3_clear(&xq);
  mpq_clears(xoff, xd2, xsd, NULL);
}

/* Plane constructors: the unit normal n / |n| and offset / |n| (or n / |n|
 * . p), against ~300-bit roots. */
static void TFN(test_plane_make)(void) {
  oracle_rng g = oracle_rng_make(0x200 + 2 - PROX_IS_DOUBLE);
  q3 xn, xu, xp;
  mpq_t len, xoff, t;
  int kind;
  q3_init(&xn);
  q3_init(&xu);
  q3_init(&xp);
  mpq_inits(len, xoff, t, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *rn = oracle_row_get("plane_from_normal", TC_PREC, kind);
    oracle_row *rp = oracle_row_get("plane_from_point_normal", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    for (c = 0; c < n; ++c) {
      oracle_frame f = oracle_frame_random(&g, kind);
      double u[3], m = f.scale, e, s;
      VEC nv, p = TFN(point)(&g, &f, 1);
      PROX_REAL off;
      PROX_FN(prox_plane) a, b;
      int ra, rb, zero;
      oracle_rng_dir(&g, u);
      if (kind == ORACLE_ADVERSARIAL) {
        /* Extreme magnitudes (subnormal to near overflow), zero and
         * single-axis normals. */
        int sub = oracle_rng_int(&g, 6);
        double lo = PROX_IS_DOUBLE ? -320 : -44, hi = PROX_IS_DOUBLE ? 307 : 37;
        if (sub == 0) m = oracle_rng_log10(&g, lo, hi);
        if (sub == 1) u[0] = u[1] = u[2] = 0;
        if (sub == 2) u[oracle_rng_int(&g, 3)] = 0;
        if (sub == 3) {
          u[0] = oracle_rng_sign(&g);
          u[1] = u[2] = 0;
        }
        if (sub == 4) u[1] *= 1e-30;
        if (sub == 5) m = oracle_rng_log10(&g, lo / 2, hi / 2);
      }
      nv = PROX_FN(prox_v3)((PROX_REAL)(m * u[0]), (PROX_REAL)(m * u[1]), (PROX_REAL)(m * u[2]));
      off = (PROX_REAL)oracle_rng_range(&g, -2, 2) * (PROX_REAL)f.scale;
      h_case_begin();
      ra = PROX_FN(prox_plane_from_normal)(nv, off, &a);
      rb = PROX_FN(prox_plane_from_point_normal)(p, nv, &b);
      TFN(q)(&xn, nv);
      TFN(q)(&xp, p);
      q3_len2(len, &xn);
      zero = mpq_sgn(len) == 0;
      ++rn->cases;
      ++rp->cases;
      /* The unit normal in eps; the offset in eps |offset / |n|| (from a
       * normal) or eps S (through a point). */
      rn->value_unit = rp->value_unit = "eps (normal, offset)";
      if (zero) {
        CHECK_MSG(ra == 0 && rb == 0, "zero normal accepted");
        CHECK(a.normal.x == 0 && a.normal.y == 0 && a.normal.z == 0 && a.offset == 0);
        CHECK(b.normal.x == 0 && b.normal.y == 0 && b.normal.z == 0 && b.offset == 0);
      } else {
        int big;
        oracle_sqrt(len, len);
        mpq_inv(t, len);
        q3_scale(&xu, &xn, t);
        /* offset / |n|: documented to make the constructor fail (0, the
         * all-zero plane) when beyond the range of PROX_REAL. */
        mpq_set_d(xoff, (double)off);
        mpq_div(xoff, xoff, len);
        s = fabs(mpq_get_d(xoff));
        big = s > PROX_REAL_MAX * (1 + 1e-6) ? 1 : (s < PROX_REAL_MAX * (1 - 1e-6) ? 0 : -1);
        if (big == 1) {
          CHECK_MSG(ra == 0 && a.normal.x == 0 && a.normal.y == 0 && a.normal.z == 0 &&
                        a.offset == 0,
                    "offset / |n| beyond range: returned %d, offset %a", ra, (double)a.offset);
        } else if (big == 0) {
          CHECK_MSG(ra == 1, "non-zero normal rejected (offset / |n| = %g)", s);
          e = oracle_err3((double)a.normal.x, (double)a.normal.y, (double)a.normal.z, &xu, TC_EPS);
          oracle_max(&rn->value, e);
          CHECK_MSG(e <= TC_BOUND, "unit normal error %.3g eps", e);
          /* Results below the normal range are measured against its least
           * value (a subnormal has fewer bits). */
          if (s < PROX_REAL_MIN) s = PROX_REAL_MIN;
          e = oracle_err((double)a.offset, xoff, TC_EPS * s);
          oracle_max(&rn->value, e);
          CHECK_MSG(e <= TC_BOUND, "offset %a: error %.3g eps |offset|", (double)a.offset, e);
        }
        CHECK_MSG(rb == 1, "non-zero normal rejected by from_point_normal");
        e = oracle_err3((double)b.normal.x, (double)b.normal.y, (double)b.normal.z, &xu, TC_EPS);
        oracle_max(&rp->value, e);
        CHECK_MSG(e <= TC_BOUND, "unit normal error %.3g eps", e);
        q3_dot(xoff, &xu, &xp);
        s = TFN(fix_s)(TFN(smax)(0, p));
        e = oracle_err((double)b.offset, xoff, TC_EPS * s);
        oracle_max(&rp->value, e);
        CHECK_MSG(e <= TC_BOUND, "offset %a: error %.3g eps S", (double)b.offset, e);
      }
      if (h_case_failed()) {
        h_note("plane_from_normal%s / plane_from_point_normal%s:", PROX_IS_DOUBLE ? "" : "f",
               PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("n", nv);
        h_note("offset = %a", (double)off);
        TFN(note_vec)("p", p);
      }
    }
  }
  q3_clear(&xn);
  q3_clear(&xu);
  q3_clear(&xp);
  mpq_clears(len, xoff, t, NULL);
}

/* ------------------------------------------------------------------------ */
/* Line, ray, segment                                                       */
/* ------------------------------------------------------------------------ */

/* A linear case: point p, origin (or a) o, direction d (for a segment,
 * b = o + d is returned in *b and d is b - o as stored). */
static void TFN(gen_linear)(oracle_rng *g, int kind, VEC *p, VEC *o, VEC *b) {
  oracle_frame f = oracle_frame_random(g, kind);
  int sub = kind == ORACLE_ADVERSARIAL ? oracle_rng_int(g, 10) : -1;
  double perp[3];
  *o = TFN(point)(g, &f, 1);
  *b = TFN(point)(g, &f, 1);
  *p = TFN(point)(g, &f, 1.5);
  switch (sub) {
  case 0: /* zero length */
    *b = *o;
    break;
  case 1: /* one ulp long */
    *b = TFN(nudge)(g, *o, 1);
    break;
  case 2: /* p at an end */
    *p = oracle_rng_int(g, 2) ? *o : *b;
    break;
  case 3: /* p on the segment, within rounding */
    *p = TFN(comb)(*o, *b, oracle_rng_range(g, -0.5, 1.5));
    break;
  case 4: { /* axis-aligned, p exactly on a perpendicular plane of an end */
    int k = oracle_rng_int(g, 3);
    VEC e = oracle_rng_int(g, 2) ? *o : *b;
    if (k == 0) b->y = o->y, b->z = o->z, p->x = e.x;
    if (k == 1) b->x = o->x, b->z = o->z, p->y = e.y;
    if (k == 2) b->x = o->x, b->y = o->y, p->z = e.z;
    break;
  }
  case 5: /* tiny relative length */
    *b = TFN(comb)(*o, *b, oracle_rng_log10(g, -14, -3));
    break;
  case 6: /* p beyond an end on the line */
    *p = TFN(comb)(*o, *b,
                   oracle_rng_int(g, 2) ? oracle_rng_range(g, 1, 3) : oracle_rng_range(g, -2, 0));
    break;
  case 7: /* p at an end moved perpendicularly: on a region boundary */
    TFN(perp)(g, PROX_FN(prox_vsub)(*b, *o), perp);
    {
      VEC e = oracle_rng_int(g, 2) ? *o : *b;
      *p = TFN(offset)(e, perp, oracle_rng_range(g, 0, 2) * f.scale);
    }
    break;
  case 8: /* p at an end nudged */
    *p = TFN(nudge)(g, oracle_rng_int(g, 2) ? *o : *b, 2);
    break;
  case 9: /* p far away */
    *p = TFN(point)(g, &f, 1e3);
    break;
  default:
    break;
  }
}

static void TFN(note_linear)(const char *what, VEC p, VEC o, VEC b) {
  h_note("%s%s:", what, PROX_IS_DOUBLE ? "" : "f");
  TFN(note_vec)("p", p);
  TFN(note_vec)("a/origin", o);
  TFN(note_vec)("b/dir", b);
}

static void TFN(test_line)(void) {
  oracle_rng g = oracle_rng_make(0x300 + 2 - PROX_IS_DOUBLE);
  oracle_lin x;
  q3 xp, xo, xd, pv[2];
  int kind;
  oracle_lin_init(&x);
  q3_init(&xp);
  q3_init(&xo);
  q3_init(&xd);
  q3_init(&pv[0]);
  q3_init(&pv[1]);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_line", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_line) line;
      VEC p, o, b;
      RES out;
      PROX_REAL d2, w[2];
      double s;
      TFN(gen_linear)(&g, kind, &p, &o, &b);
      line.origin = o;
      /* The direction as a vector: a segment's b - a, or a zero one. */
      line.dir = PROX_FN(prox_vsub)(b, o);
      h_case_begin();
      d2 = PROX_FN(prox_point_line)(p, &line, &out);
      TFN(null_d2) = PROX_FN(prox_point_line)(p, &line, NULL);
      TFN(null_set) = 1;
      TFN(q)(&xp, p);
      TFN(q)(&xo, o);
      TFN(q)(&xd, line.dir);
      oracle_point_lin(&x, &xp, &xo, &xd, NULL, NULL);
      s = TFN(fix_s)(TFN(smax_q)(TFN(smax)(TFN(smax)(0, p), o), &x.q));
      ++row->cases;
      TFN(check_closest)(row, s, d2, &out, x.d2, &x.q, 1);
      TFN(check_feature)
      (row, &out, x.zero_dir ? ORACLE_VERTEX : ORACLE_EDGE, 0, INFINITY, s);
      /* origin + t dir reproduces the point. */
      w[0] = 1;
      w[1] = out.param[0];
      q3_set(&pv[0], &xo);
      q3_set(&pv[1], &xd);
      TFN(check_recon)(row, w, 2, pv, &x.q, s, 1);
      if (h_case_failed()) TFN(note_linear)("point_line", p, o, line.dir);
    }
  }
  oracle_lin_clear(&x);
  q3_clear(&xp);
  q3_clear(&xo);
  q3_clear(&xd);
  q3_clear(&pv[0]);
  q3_clear(&pv[1]);
}

static void TFN(test_ray)(void) {
  oracle_rng g = oracle_rng_make(0x400 + 2 - PROX_IS_DOUBLE);
  oracle_lin x;
  q3 xp, xo, xd, pv[2];
  mpq_t lo, hi;
  int kind;
  oracle_lin_init(&x);
  q3_init(&xp);
  q3_init(&xo);
  q3_init(&xd);
  q3_init(&pv[0]);
  q3_init(&pv[1]);
  mpq_inits(lo, hi, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_ray", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_ray) ray;
      VEC p, o, b;
      RES out;
      PROX_REAL d2, w[2];
      double s;
      int iv = oracle_rng_int(&g, 7), vk, vi;
      TFN(gen_linear)(&g, kind, &p, &o, &b);
      ray = PROX_FN(prox_ray_make)(o, PROX_FN(prox_vsub)(b, o));
      if (iv == 1) { /* a finite interval */
        ray.tmin = (PROX_REAL)oracle_rng_range(&g, -2, 1);
        ray.tmax = ray.tmin + (PROX_REAL)oracle_rng_range(&g, 0, 2);
      } else if (iv == 2) { /* the whole line */
        ray.tmin = -(PROX_REAL)INFINITY;
      } else if (iv == 3) { /* (-inf, tmax] */
        ray.tmin = -(PROX_REAL)INFINITY;
        ray.tmax = (PROX_REAL)oracle_rng_range(&g, -1, 2);
      } else if (iv == 4) { /* a single parameter */
        ray.tmin = ray.tmax = (PROX_REAL)oracle_rng_range(&g, -1, 2);
      } else if (iv == 5) { /* tmin > tmax: the single parameter tmin */
        ray.tmax = (PROX_REAL)oracle_rng_range(&g, -1, 1);
        ray.tmin = ray.tmax + (PROX_REAL)oracle_rng_range(&g, 0.1, 1);
      } else if (iv == 6 && kind == ORACLE_ADVERSARIAL) {
        /* p projecting (within rounding) onto an end of [0, 1]. */
        ray.tmax = 1;
        p = TFN(comb)(o, b, (double)oracle_rng_int(&g, 2));
      }
      h_case_begin();
      d2 = PROX_FN(prox_point_ray)(p, &ray, &out);
      TFN(null_d2) = PROX_FN(prox_point_ray)(p, &ray, NULL);
      TFN(null_set) = 1;
      TFN(q)(&xp, p);
      TFN(q)(&xo, o);
      TFN(q)(&xd, ray.dir);
      if (isfinite(ray.tmin)) mpq_set_d(lo, (double)ray.tmin);
      if (isfinite(ray.tmax)) mpq_set_d(hi, (double)ray.tmax);
      oracle_point_lin(&x, &xp, &xo, &xd, isfinite(ray.tmin) ? lo : NULL,
                       isfinite(ray.tmax) ? hi : NULL);
      s = TFN(fix_s)(TFN(smax_q)(TFN(smax)(TFN(smax)(0, p), o), &x.q));
      ++row->cases;
      TFN(check_closest)(row, s, d2, &out, x.d2, &x.q, 1);
      vk = x.end < 0 ? ORACLE_EDGE : ORACLE_VERTEX;
      vi = x.end < 0 ? 0 : x.end;
      TFN(check_feature)(row, &out, vk, vi, x.margin, s);
      /* t: exactly tmin / tmax at the ends (clamp(0) for a zero dir). */
      if (x.zero_dir) {
        /* Documented: t is 0 clamped to the interval (tmin if tmin >
         * tmax), which is the oracle's t for a zero direction. */
        int same = isfinite(out.param[0]) != 0;
        if (same) {
          mpq_set_d(lo, (double)out.param[0]);
          same = mpq_equal(lo, x.t);
        }
        CHECK_MSG(same, "zero dir: t = %a, expected %a", (double)out.param[0], mpq_get_d(x.t));
      } else if (out.feature.kind == PROX_FEATURE_VERTEX) {
        CHECK_MSG(out.param[0] == (out.feature.index == 0 ? ray.tmin : ray.tmax),
                  "vertex %d with t = %a", out.feature.index, (double)out.param[0]);
      }
      w[0] = 1;
      w[1] = out.param[0];
      q3_set(&pv[0], &xo);
      q3_set(&pv[1], &xd);
      if (!x.zero_dir) TFN(check_recon)(row, w, 2, pv, &x.q, s, 1);
      if (h_case_failed()) {
        TFN(note_linear)("point_ray", p, o, ray.dir);
        h_note("tmin = %a, tmax = %a", (double)ray.tmin, (double)ray.tmax);
      }
    }
  }
  oracle_lin_clear(&x);
  q3_clear(&xp);
  q3_clear(&xo);
  q3_clear(&xd);
  q3_clear(&pv[0]);
  q3_clear(&pv[1]);
  mpq_clears(lo, hi, NULL);
}

static void TFN(test_segment)(void) {
  oracle_rng g = oracle_rng_make(0x500 + 2 - PROX_IS_DOUBLE);
  oracle_lin x;
  q3 xp, xv[2];
  int kind;
  oracle_lin_init(&x);
  q3_init(&xp);
  q3_init(&xv[0]);
  q3_init(&xv[1]);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_segment", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_segment) seg;
      VEC p;
      RES out;
      PROX_REAL d2, w[2];
      double s;
      TFN(gen_linear)(&g, kind, &p, &seg.a, &seg.b);
      h_case_begin();
      d2 = PROX_FN(prox_point_segment)(p, &seg, &out);
      TFN(null_d2) = PROX_FN(prox_point_segment)(p, &seg, NULL);
      TFN(null_set) = 1;
      TFN(q)(&xp, p);
      TFN(q)(&xv[0], seg.a);
      TFN(q)(&xv[1], seg.b);
      oracle_point_segment(&x, &xp, &xv[0], &xv[1]);
      s = TFN(fix_s)(TFN(smax_q)(TFN(smax)(TFN(smax)(TFN(smax)(0, p), seg.a), seg.b), &x.q));
      ++row->cases;
      TFN(check_closest)(row, s, d2, &out, x.d2, &x.q, 1);
      TFN(check_feature)
      (row, &out, x.end < 0 ? ORACLE_EDGE : ORACLE_VERTEX, x.end < 0 ? 0 : x.end, x.margin, s);
      /* Documented: the ends are returned exactly, t in [0, 1]. */
      if (out.feature.kind == PROX_FEATURE_VERTEX) {
        VEC e = out.feature.index ? seg.b : seg.a;
        CHECK_MSG(out.point.x == e.x && out.point.y == e.y && out.point.z == e.z &&
                      out.param[0] == (PROX_REAL)out.feature.index,
                  "vertex %d is not returned exactly (t = %a)", out.feature.index,
                  (double)out.param[0]);
      }
      CHECK_MSG(out.param[0] >= 0 && out.param[0] <= 1, "t = %a", (double)out.param[0]);
      w[0] = 1 - out.param[0];
      w[1] = out.param[0];
      TFN(check_recon)(row, w, 2, xv, &x.q, s, 1);
      if (h_case_failed()) TFN(note_linear)("point_segment", p, seg.a, seg.b);
    }
  }
  oracle_lin_clear(&x);
  q3_clear(&xp);
  q3_clear(&xv[0]);
  q3_clear(&xv[1]);
}

/* ------------------------------------------------------------------------ */
/* Triangle                                                                 */
/* ------------------------------------------------------------------------ */

/* A triangle case of the given kind; returns the adversarial sub-case
 * (TRI_*) or -1. */
static int TFN(gen_triangle)(oracle_rng *g, int kind, PROX_FN(prox_triangle) * tri, VEC *p) {
  oracle_frame f = oracle_frame_random(g, kind);
  int sub = kind == ORACLE_ADVERSARIAL ? oracle_rng_int(g, TRI_SUBCASES) : -1;
  double q = TFN(quantum)(&f), perp[3];
  VEC *v = tri->v;
  int i;
  for (i = 0; i < 3; ++i)
    v[i] = TFN(point)(g, &f, 1);
  *p = TFN(point)(g, &f, 1.5);
  switch (sub) {
  case TRI_SLIVER: {
    double t = oracle_rng_range(g, -0.5, 1.5);
    double h = oracle_rng_log10(g, -16, 0) * TFN(len)(v[0], v[1]);
    TFN(perp)(g, PROX_FN(prox_vsub)(v[1], v[0]), perp);
    v[2] = TFN(offset)(TFN(comb)(v[0], v[1], t), perp, h);
    break;
  }
  case TRI_COLLINEAR:
  case TRI_GRID_SLIVER: {
    VEC d = TFN(grid_vector)(g, &f, q, 1, 0.5);
    v[0] = TFN(grid_point)(g, &f, q, 1);
    v[1] = TFN(grid_add)(v[0], d, oracle_rng_int(g, 5) - 2);
    v[2] = TFN(grid_add)(v[0], d, oracle_rng_int(g, 7) - 3);
    if (sub == TRI_GRID_SLIVER) {
      v[2].x = (PROX_REAL)((double)v[2].x + q * (oracle_rng_int(g, 3) - 1));
      v[2].y = (PROX_REAL)((double)v[2].y + q * (oracle_rng_int(g, 3) - 1));
      v[2].z = (PROX_REAL)((double)v[2].z + q * (oracle_rng_int(g, 3) - 1));
    }
    if (oracle_rng_int(g, 3) == 0) /* p on the line, exactly */
      *p = TFN(grid_add)(v[0], d, oracle_rng_int(g, 9) - 4);
    break;
  }
  case TRI_COINCIDENT: {
    int k = oracle_rng_int(g, 4);
    if (k == 0) v[1] = v[0];
    if (k == 1) v[2] = v[1];
    if (k == 2) v[2] = v[0];
    if (k == 3) v[1] = v[2] = v[0];
    if (oracle_rng_int(g, 3) == 0) *p = v[oracle_rng_int(g, 3)];
    break;
  }
  case TRI_NEEDLE: {
    double u[3];
    oracle_rng_dir(g, u);
    v[2] = TFN(offset)(v[1], u, oracle_rng_log10(g, -14, -2) * f.scale);
    break;
  }
  case TRI_AT_VERTEX:
    *p = v[oracle_rng_int(g, 3)];
    break;
  case TRI_ON_EDGE: {
    double n3[3];
    int e = oracle_rng_int(g, 3);
    *p = TFN(comb)(v[e], v[(e + 1) % 3], oracle_rng_range(g, -0.2, 1.2));
    if (oracle_rng_int(g, 2)) {
      oracle_rng_dir(g, n3);
      *p = TFN(offset)(*p, n3, oracle_rng_log10(g, -12, 0) * f.scale);
    }
    break;
  }
  case TRI_IN_FACE: {
    double a = oracle_rng_unit(g), b = oracle_rng_unit(g), n3[3];
    if (a + b > 1) a = 1 - a, b = 1 - b;
    *p = TFN(comb3)(v[0], v[1], v[2], 1 - a - b, a, b);
    oracle_rng_dir(g, n3);
    *p = TFN(offset)(*p, n3, oracle_rng_range(g, 0, 1) * f.scale);
    break;
  }
  case TRI_AXIS: {
    /* v0 = (x0, y0, c), v1 = (x1, y0, c), v2 = (x0, y1, c) with axes
     * permuted; p on the lines y = y0 or x = x0 (region boundaries). */
    double x0 = TFN(snap)(f.shift[0] + f.scale * oracle_rng_range(g, -1, 0), q);
    double y0 = TFN(snap)(f.shift[1] + f.scale * oracle_rng_range(g, -1, 0), q);
    double x1 = TFN(snap)(x0 + f.scale * oracle_rng_range(g, -1, 1), q);
    double y1 = TFN(snap)(y0 + f.scale * oracle_rng_range(g, -1, 1), q);
    double cz = TFN(snap)(f.shift[2] + f.scale * oracle_rng_range(g, -1, 1), q);
    double px = TFN(snap)(x0 + f.scale * oracle_rng_range(g, -1.5, 1.5), q);
    double py = TFN(snap)(y0 + f.scale * oracle_rng_range(g, -1.5, 1.5), q);
    double pz = TFN(snap)(cz + f.scale * oracle_rng_range(g, -1, 1), q);
    double pts[4][3];
    int k = oracle_rng_int(g, 4), perm = oracle_rng_int(g, 3), j;
    if (k == 0) py = y0;
    if (k == 1) px = x0;
    if (k == 2) px = x0, py = y0;
    if (k == 3) pz = cz;
    pts[0][0] = x0, pts[0][1] = y0, pts[0][2] = cz;
    pts[1][0] = x1, pts[1][1] = y0, pts[1][2] = cz;
    pts[2][0] = x0, pts[2][1] = y1, pts[2][2] = cz;
    pts[3][0] = px, pts[3][1] = py, pts[3][2] = pz;
    for (j = 0; j < 4; ++j) {
      double w[3];
      w[0] = pts[j][perm];
      w[1] = pts[j][(perm + 1) % 3];
      w[2] = pts[j][(perm + 2) % 3];
      if (j < 3)
        v[j] = TFN(v3)(w);
      else
        *p = TFN(v3)(w);
    }
    break;
  }
  case TRI_FAR: {
    double k = oracle_rng_log10(g, -6, -1);
    v[1] = TFN(comb)(v[0], v[1], k);
    v[2] = TFN(comb)(v[0], v[2], k);
    break;
  }
  case TRI_THIN_RIGHT: {
    double l = TFN(len)(v[0], v[1]);
    TFN(perp)(g, PROX_FN(prox_vsub)(v[1], v[0]), perp);
    v[2] = TFN(offset)(v[0], perp, l * oracle_rng_log10(g, -12, 0));
    if (oracle_rng_int(g, 2)) *p = TFN(comb3)(v[0], v[1], v[2], 0.25, 0.5, 0.25);
    break;
  }
  case TRI_NUDGED: {
    int e = oracle_rng_int(g, 3);
    VEC x = oracle_rng_int(g, 2) ? v[e] : TFN(comb)(v[e], v[(e + 1) % 3], oracle_rng_unit(g));
    *p = TFN(nudge)(g, x, 3);
    break;
  }
  default:
    break;
  }
  return sub;
}

static void TFN(note_triangle)(const char *what, VEC p, const PROX_FN(prox_triangle) * tri) {
  h_note("%s%s:", what, PROX_IS_DOUBLE ? "" : "f");
  TFN(note_vec)("p", p);
  TFN(note_vec)("v0", tri->v[0]);
  TFN(note_vec)("v1", tri->v[1]);
  TFN(note_vec)("v2", tri->v[2]);
}

/* The textbook closest point on a triangle (Ericson, Real-Time Collision
 * Detection, 5.1.5), written here as a reference for comparison only; it
 * is not prox. */
static VEC TFN(ericson_triangle)(VEC p, VEC a, VEC b, VEC c) {
  PROX_REAL abx = b.x - a.x, aby = b.y - a.y, abz = b.z - a.z;
  PROX_REAL acx = c.x - a.x, acy = c.y - a.y, acz = c.z - a.z;
  PROX_REAL apx = p.x - a.x, apy = p.y - a.y, apz = p.z - a.z;
  PROX_REAL bpx = p.x - b.x, bpy = p.y - b.y, bpz = p.z - b.z;
  PROX_REAL cpx = p.x - c.x, cpy = p.y - c.y, cpz = p.z - c.z;
  PROX_REAL d1 = abx * apx + aby * apy + abz * apz;
  PROX_REAL d2 = acx * apx + acy * apy + acz * apz;
  PROX_REAL d3, d4, d5, d6, va, vb, vc, v, w, denom;
  VEC r;
  if (d1 <= 0 && d2 <= 0) return a;
  d3 = abx * bpx + aby * bpy + abz * bpz;
  d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return b;
  vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    v = d1 / (d1 - d3);
    return PROX_FN(prox_v3)(a.x + v * abx, a.y + v * aby, a.z + v * abz);
  }
  d5 = abx * cpx + aby * cpy + abz * cpz;
  d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return c;
  vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    w = d2 / (d2 - d6);
    return PROX_FN(prox_v3)(a.x + w * acx, a.y + w * acy, a.z + w * acz);
  }
  va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return PROX_FN(prox_v3)(b.x + w * (c.x - b.x), b.y + w * (c.y - b.y), b.z + w * (c.z - b.z));
  }
  denom = 1 / (va + vb + vc);
  v = vb * denom;
  w = vc * denom;
  r.x = a.x + abx * v + acx * w;
  r.y = a.y + aby * v + acy * w;
  r.z = a.z + abz * v + acz * w;
  return r;
}

/* The squared distance's error in the unit the closest-point walk's
 * pruning rests on (prox/detail/bvh_query.inl): eps (S d + d^2) + 8 eps^2
 * S^2, d the exact distance, which near the surface (d << S) is far below
 * eps S^2. The last term is for d within a few eps S, where the error is
 * the square of the closest point's rounding (8 eps S, closest.h): at
 * scale 2 a float case at d = 2 eps S reached 7.5 eps^2 S^2. Asserted
 * within TC_BOUND of it; the largest is printed. */
static double TFN(near_worst);
static void TFN(check_near)(double s, PROX_REAL d2, const mpq_t xd2) {
  double dx = sqrt(mpq_get_d(xd2));
  double e = oracle_err((double)d2, xd2, TC_EPS * (s * dx + dx * dx) + 8 * TC_EPS * TC_EPS * s * s);
  if (e > TFN(near_worst)) TFN(near_worst) = e;
  CHECK_MSG(e <= TC_BOUND, "squared distance error %.3g eps (S d + d^2) + 8 eps^2 S^2 (d %g, S %g)",
            e, dx, s);
}

static void TFN(test_triangle)(void) {
  oracle_rng g = oracle_rng_make(0x600 + 2 - PROX_IS_DOUBLE);
  oracle_tri x;
  q3 xp, xv[3];
  mpq_t fd2;
  int kind, i;
  oracle_row *rk =
      oracle_row_get("point_triangle, sliver family only", TC_PREC, ORACLE_ADVERSARIAL);
  oracle_row *re =
      oracle_row_get("Ericson 5.1.5 (reference), sliver family", TC_PREC, ORACLE_ADVERSARIAL);
  long ericson_nan = 0;
  double bins[30];
  for (i = 0; i < 30; ++i)
    bins[i] = -1;
  oracle_tri_init(&x);
  q3_init(&xp);
  for (i = 0; i < 3; ++i)
    q3_init(&xv[i]);
  mpq_init(fd2);
  re->value_unit = "NaN results";
  re->value = 0;
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_triangle", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_triangle) tri;
      VEC p;
      RES out;
      PROX_REAL d2;
      double s;
      int sub, well;
      sub = TFN(gen_triangle)(&g, kind, &tri, &p);
      h_case_begin();
      d2 = PROX_FN(prox_point_triangle)(p, &tri, &out);
      TFN(null_d2) = PROX_FN(prox_point_triangle)(p, &tri, NULL);
      TFN(null_set) = 1;
      TFN(q)(&xp, p);
      for (i = 0; i < 3; ++i)
        TFN(q)(&xv[i], tri.v[i]);
      oracle_point_triangle(&x, &xp, xv);
      s = TFN(smax)(0, p);
      for (i = 0; i < 3; ++i)
        s = TFN(smax)(s, tri.v[i]);
      s = TFN(fix_s)(TFN(smax_q)(s, &x.q));
      well = x.sin2min >= TC_WELL_SIN2;
      ++row->cases;
      TFN(check_closest)(row, s, d2, &out, x.d2, &x.q, well);
      {
        int bin = x.sin2min > 0 ? (int)floor(-log10(x.sin2min)) : 29;
        double ep = oracle_err3((double)out.point.x, (double)out.point.y, (double)out.point.z, &x.q,
                                TC_EPS * s);
        if (bin < 0) bin = 0;
        if (bin > 29) bin = 29;
        oracle_max(&bins[bin], ep);
        if (h_case_failed()) h_note("smallest sin^2 %.3g", x.sin2min);
      }
      TFN(check_near)(s, d2, x.d2);
      /* The exact feature where unambiguous; elsewhere (near a region
       * boundary, another feature nearly as close, zero area) one that
       * holds the closest point. Zero area has no face. */
      if (!x.degenerate && x.margin > TC_MARGIN * TC_EPS * s) {
        TFN(check_feature)(row, &out, x.kind, x.index, x.margin, s);
      } else {
        int have = !(x.degenerate && out.feature.kind == PROX_FEATURE_FACE) &&
                   oracle_triangle_feature_dist2(fd2, &xp, xv, out.feature.kind, out.feature.index);
        TFN(check_valid)(row, &out, have, fd2, x.d2, s);
        if (!x.degenerate)
          TFN(count_amb)(row, &out, x.kind, x.index, x.margin, s);
        else
          ++row->feature_checked; /* any feature that holds the point */
      }
      /* Barycentrics: non-negative, sum 1, reproduce the point. */
      CHECK_MSG(out.param[0] >= -TC_BOUND * TC_EPS && out.param[1] >= -TC_BOUND * TC_EPS &&
                    out.param[2] >= -TC_BOUND * TC_EPS &&
                    fabs((double)out.param[0] + (double)out.param[1] + (double)out.param[2] - 1) <=
                        TC_BOUND * TC_EPS,
                "barycentrics (%a, %a, %a)", (double)out.param[0], (double)out.param[1],
                (double)out.param[2]);
      TFN(check_recon)
      (row, out.param, 3, xv, &x.q, s, well ? (x.sin2min < 1 ? 1 / x.sin2min : 1) : 0);
      if (h_case_failed()) {
        TFN(note_triangle)("point_triangle", p, &tri);
        h_note("reported feature (%d, %d), exact (%d, %d)%s", out.feature.kind, out.feature.index,
               x.kind, x.index, x.degenerate ? ", zero area" : "");
      }
      /* The sliver family: the kernel beside the textbook routine. */
      if (sub >= TRI_SLIVER && sub <= TRI_GRID_SLIVER) {
        VEC e = TFN(ericson_triangle)(p, tri.v[0], tri.v[1], tri.v[2]);
        PROX_REAL ed2 = PROX_FN(prox_vdist2)(p, e);
        ++rk->cases;
        ++re->cases;
        oracle_max(&rk->sqdist, oracle_err((double)d2, x.d2, TC_EPS * s * s));
        if (well)
          oracle_max(&rk->point, oracle_err3((double)out.point.x, (double)out.point.y,
                                             (double)out.point.z, &x.q, TC_EPS * s));
        else
          oracle_max(&rk->point_ill, oracle_err3((double)out.point.x, (double)out.point.y,
                                                 (double)out.point.z, &x.q, TC_EPS * s));
        if (isnan(ed2) || isnan(e.x) || isnan(e.y) || isnan(e.z)) {
          ++ericson_nan;
          re->value = (double)ericson_nan;
        } else {
          double ep = oracle_err3((double)e.x, (double)e.y, (double)e.z, &x.q, TC_EPS * s);
          oracle_max(&re->sqdist, oracle_err((double)ed2, x.d2, TC_EPS * s * s));
          oracle_max(well ? &re->point : &re->point_ill, ep);
        }
      }
    }
  }
  printf("  point error (eps S) by smallest sin^2 of the angles:\n");
  for (i = 0; i < 30; ++i)
    if (bins[i] >= 0) printf("    sin^2 in [1e-%d, 1e-%d): %.3g\n", i + 1, i, bins[i]);
  oracle_tri_clear(&x);
  q3_clear(&xp);
  for (i = 0; i < 3; ++i)
    q3_clear(&xv[i]);
  mpq_clear(fd2);
}

/* Thin angles (sin from just above the wide path's threshold at v[0],
 * PROX_WIDE_SIN2, to 1/2) at any vertex, caps among them (two thin
 * angles), p projecting inside the face at heights of 1e-4 to 2 triangle
 * sizes: the face formula projects along a cross product of two edges,
 * whose direction is only as accurate as eps / sin of their angle. Taken
 * at v[0] alone, the squared distance's error reached 172 eps max(S, d)^2
 * in double and 8.2 in float here; the kernel now takes the vertex with
 * the largest sine, and the wide path for caps. Asserted: the documented
 * 8 eps max(S, d)^2 (the largest error is printed). */
static void TFN(test_triangle_thin_face)(void) {
  oracle_rng g = oracle_rng_make(0x6a0 + 2 - PROX_IS_DOUBLE);
  oracle_tri x;
  q3 xp, xv[3];
  long c, n = h_count(20000);
  double worst = 0, worst_sin = 1, lo = log10(sqrt((double)PROX_WIDE_SIN2) * 1.05);
  oracle_row *row =
      oracle_row_get("point_triangle, thin angle at v[0], face", TC_PREC, ORACLE_ADVERSARIAL);
  int i;
  oracle_tri_init(&x);
  q3_init(&xp);
  for (i = 0; i < 3; ++i)
    q3_init(&xv[i]);
  for (c = 0; c < n; ++c) {
    oracle_frame f = oracle_frame_random(&g, ORACLE_UNIFORM);
    PROX_FN(prox_triangle) tri, made;
    VEC p;
    RES out;
    PROX_REAL d2;
    double u[3], w[3], nr[3], e1[3], e2[3], a[3], b[3], cc[3], sn, cs, l1, l2, bb, bc, h, s;
    double n2, sin0, dx, u2, e;
    oracle_rng_dir(&g, u);
    tri.v[0] = TFN(point)(&g, &f, 1);
    TFN(perp)(&g, TFN(v3)(u), w);
    nr[0] = u[1] * w[2] - u[2] * w[1];
    nr[1] = u[2] * w[0] - u[0] * w[2];
    nr[2] = u[0] * w[1] - u[1] * w[0];
    sn = oracle_rng_log10(&g, lo, log10(0.5));
    cs = sqrt(1 - sn * sn);
    l1 = f.scale * oracle_rng_range(&g, 0.5, 1.5);
    l2 = f.scale * oracle_rng_range(&g, 0.5, 1.5);
    if (oracle_rng_int(&g, 4) == 0) /* a cap: the second thin angle at v[1] */
      l2 = l1 * oracle_rng_range(&g, 0.2, 0.999) / cs;
    for (i = 0; i < 3; ++i) {
      e1[i] = l1 * u[i];
      e2[i] = l2 * (cs * u[i] + sn * w[i]);
    }
    tri.v[1] = TFN(offset)(tri.v[0], e1, 1);
    tri.v[2] = TFN(offset)(tri.v[0], e2, 1);
    bb = oracle_rng_range(&g, 0, 1);
    bc = oracle_rng_range(&g, 0, 1);
    if (bb + bc > 1) {
      bb = 1 - bb;
      bc = 1 - bc;
    }
    /* near the face, or about one size away (where the error peaks) */
    h = oracle_rng_int(&g, 2) ? oracle_rng_log10(&g, -4, log10(2.0)) : oracle_rng_range(&g, 0.5, 2);
    h *= (oracle_rng_int(&g, 2) ? 1 : -1) * f.scale;
    p = TFN(offset)(TFN(offset)(TFN(offset)(tri.v[0], e1, bb), e2, bc), nr, h);
    made = tri;
    {
      /* the thin angle at v[0], v[1] or v[2] (cyclic: the same face) */
      int r = oracle_rng_int(&g, 3);
      for (; r > 0; --r) {
        VEC t0 = tri.v[0];
        tri.v[0] = tri.v[1];
        tri.v[1] = tri.v[2];
        tri.v[2] = t0;
      }
    }
    h_case_begin();
    d2 = PROX_FN(prox_point_triangle)(p, &tri, &out);
    TFN(q)(&xp, p);
    for (i = 0; i < 3; ++i)
      TFN(q)(&xv[i], tri.v[i]);
    oracle_point_triangle(&x, &xp, xv);
    /* sin of the rounded triangle's thin angle (double: ample), the
     * vertices back in the order they were made */
    TFN(d3)(made.v[0], a);
    TFN(d3)(made.v[1], b);
    TFN(d3)(made.v[2], cc);
    for (i = 0; i < 3; ++i) {
      e1[i] = b[i] - a[i];
      e2[i] = cc[i] - a[i];
    }
    n2 = pow(e1[1] * e2[2] - e1[2] * e2[1], 2) + pow(e1[2] * e2[0] - e1[0] * e2[2], 2) +
         pow(e1[0] * e2[1] - e1[1] * e2[0], 2);
    sin0 = sqrt(n2 / ((e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]) *
                      (e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2])));
    s = TFN(smax)(0, p);
    for (i = 0; i < 3; ++i)
      s = TFN(smax)(s, tri.v[i]);
    s = TFN(fix_s)(TFN(smax_q)(s, &x.q));
    dx = sqrt(mpq_get_d(x.d2));
    u2 = dx > s ? dx : s;
    e = oracle_err((double)d2, x.d2, TC_EPS * u2 * u2);
    TFN(check_near)(s, d2, x.d2);
    ++row->cases;
    oracle_max(&row->sqdist, e);
    if (e > worst) {
      worst = e;
      worst_sin = sin0;
    }
    CHECK_MSG(isfinite(d2), "non-finite result %a", (double)d2);
    CHECK_MSG(e <= TC_BOUND, "squared distance error %.3g eps max(S, d)^2 at sin %.3g", e, sin0);
    if (h_case_failed()) TFN(note_triangle)("point_triangle, thin face", p, &tri);
  }
  printf("  %s: %ld thin-angle cases; largest error %.3g eps max(S, d)^2, at sin %.3g; largest "
         "in eps (S d + d^2) + 8 eps^2 S^2 so far: %.3g\n",
         TC_PREC, n, worst, worst_sin, TFN(near_worst));
  q3_clear(&xp);
  for (i = 0; i < 3; ++i)
    q3_clear(&xv[i]);
  oracle_tri_clear(&x);
}

/* sin^2 of the angle at v[0]: |n|^2 / (|v1 - v0|^2 |v2 - v0|^2), to
 * double accuracy, and the flat side as for the kernel's threshold. */
static int TFN(flat_side_v)(const oracle_tri *x, const q3 *v) {
  mpq_t a, b;
  double ratio;
  if (x->degenerate) return -1;
  mpq_inits(a, b, NULL);
  q3_dist2(a, &v[1], &v[0]);
  q3_dist2(b, &v[2], &v[0]);
  mpq_mul(a, a, b);
  mpq_div(a, x->n2, a);
  ratio = mpq_get_d(a);
  mpq_clears(a, b, NULL);
  if (ratio < TC_FLAT_SIN2 * 0.99) return -1;
  if (ratio > TC_FLAT_SIN2 * 1.01) return 1;
  return 0;
}

static void TFN(test_barycentric)(void) {
  oracle_rng g = oracle_rng_make(0x700 + 2 - PROX_IS_DOUBLE);
  oracle_tri x;
  q3 xp, xv[3];
  mpq_t xb[3];
  int kind, i;
  oracle_tri_init(&x);
  q3_init(&xp);
  for (i = 0; i < 3; ++i) {
    q3_init(&xv[i]);
    mpq_init(xb[i]);
  }
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("triangle_barycentric", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    row->value_unit = "eps max(1,|b|)";
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_triangle) tri;
      VEC p, b;
      double s, e = 0, big = 1;
      int side;
      (void)TFN(gen_triangle)(&g, kind, &tri, &p);
      h_case_begin();
      b = PROX_FN(prox_triangle_barycentric)(p, &tri);
      TFN(q)(&xp, p);
      for (i = 0; i < 3; ++i)
        TFN(q)(&xv[i], tri.v[i]);
      oracle_point_triangle(&x, &xp, xv);
      side = TFN(flat_side_v)(&x, xv);
      ++row->cases;
      CHECK_MSG(isfinite(b.x) && isfinite(b.y) && isfinite(b.z),
                "non-finite barycentrics (%a, %a, %a)", (double)b.x, (double)b.y, (double)b.z);
      if (side == 0) { /* at prox's zero-area threshold: either answer */
        if (h_case_failed()) TFN(note_triangle)("triangle_barycentric", p, &tri);
        continue;
      }
      if (side > 0) {
        /* The projection's coordinates. */
        for (i = 0; i < 3; ++i)
          mpq_div(xb[i], x.num[i], x.n2);
      } else {
        /* Zero area (below the threshold): the coordinates of a nearest
         * point of the edges. Several edge points may be (nearly) nearest: the
         * coordinates must give a point of an edge (one coordinate 0, the
         * others in [0, 1]) at the exact distance of the edges, within the
         * squared distance bound. */
        int k, best = 0;
        for (k = 1; k < 3; ++k)
          if (mpq_cmp(x.edge[k].d2, x.edge[best].d2) < 0) best = k;
        {
          q3 r;
          mpq_t kq, d2r;
          double e2;
          q3_init(&r);
          mpq_inits(kq, d2r, NULL);
          q3_zero(&r);
          mpq_set_d(kq, (double)b.x);
          q3_addmul(&r, &r, kq, &xv[0]);
          mpq_set_d(kq, (double)b.y);
          q3_addmul(&r, &r, kq, &xv[1]);
          mpq_set_d(kq, (double)b.z);
          q3_addmul(&r, &r, kq, &xv[2]);
          q3_dist2(d2r, &r, &xp);
          s = TFN(smax)(0, p);
          for (k = 0; k < 3; ++k)
            s = TFN(smax)(s, tri.v[k]);
          s = TFN(fix_s)(s);
          e2 = oracle_err_q(d2r, x.edge[best].d2, TC_EPS * s * s);
          oracle_max(&row->sqdist, e2);
          CHECK_MSG(e2 <= TC_BOUND,
                    "zero area: coordinates (%a, %a, %a) give a point at "
                    "squared distance error %.3g eps S^2",
                    (double)b.x, (double)b.y, (double)b.z, e2);
          CHECK_MSG((b.x == 0 || b.y == 0 || b.z == 0) && b.x >= 0 && b.y >= 0 && b.z >= 0 &&
                        b.x <= 1 && b.y <= 1 && b.z <= 1,
                    "zero area: coordinates (%a, %a, %a) are not those of "
                    "an edge point",
                    (double)b.x, (double)b.y, (double)b.z);
          q3_clear(&r);
          mpq_clears(kq, d2r, NULL);
          if (h_case_failed()) TFN(note_triangle)("triangle_barycentric", p, &tri);
          continue;
        }
      }
      for (i = 0; i < 3; ++i) {
        double m = fabs(mpq_get_d(xb[i]));
        if (m > big) big = m;
      }
      {
        PROX_REAL w[3];
        w[0] = b.x;
        w[1] = b.y;
        w[2] = b.z;
        for (i = 0; i < 3; ++i) {
          double ei = oracle_err((double)w[i], xb[i], TC_EPS * big);
          if (ei > e || ei != ei) e = ei;
        }
      }
      oracle_max(&row->value, e);
      CHECK_MSG(e <= TC_BOUND, "barycentric error %.3g eps max(1, |b|)", e);
      if (h_case_failed()) TFN(note_triangle)("triangle_barycentric", p, &tri);
    }
  }
  oracle_tri_clear(&x);
  q3_clear(&xp);
  for (i = 0; i < 3; ++i) {
    q3_clear(&xv[i]);
    mpq_clear(xb[i]);
  }
}

static void TFN(test_in_triangle)(void) {
  oracle_rng g = oracle_rng_make(0x800 + 2 - PROX_IS_DOUBLE);
  oracle_tri x;
  q3 xp, xv[3];
  int kind, i;
  oracle_tri_init(&x);
  q3_init(&xp);
  for (i = 0; i < 3; ++i)
    q3_init(&xv[i]);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_in_triangle", TC_PREC, kind);
    long c, n = TFN(cases)(kind), wrong = 0;
    row->value_unit = "wrong answers";
    row->value = 0;
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_triangle) tri;
      VEC p;
      int got, want, side;
      double s;
      (void)TFN(gen_triangle)(&g, kind, &tri, &p);
      h_case_begin();
      got = PROX_FN(prox_point_in_triangle)(p, &tri);
      TFN(q)(&xp, p);
      for (i = 0; i < 3; ++i)
        TFN(q)(&xv[i], tri.v[i]);
      oracle_point_triangle(&x, &xp, xv);
      side = TFN(flat_side_v)(&x, xv);
      ++row->cases;
      s = TFN(smax)(0, p);
      for (i = 0; i < 3; ++i)
        s = TFN(smax)(s, tri.v[i]);
      s = TFN(fix_s)(s);
      CHECK_MSG(got == 0 || got == 1, "returned %d", got);
      if (side == 0) continue;
      if (side > 0) {
        /* Exact signs of the numerators; the documented tolerance (64 eps^2
         * mag^4, mag = |p - v0| + |v1 - v0| + |v2 - v0|) makes numerators
         * within it of zero "on the boundary": skip those that are
         * negative within 4 times it. */
        double mag, tol, mn = INFINITY;
        mpq_t t;
        mpq_init(t);
        q3_dist2(t, &xp, &xv[0]);
        mag = oracle_sqrt_d(t);
        q3_dist2(t, &xv[1], &xv[0]);
        mag += oracle_sqrt_d(t);
        q3_dist2(t, &xv[2], &xv[0]);
        mag += oracle_sqrt_d(t);
        mpq_clear(t);
        tol = 64 * TC_EPS * TC_EPS * mag * mag * mag * mag;
        for (i = 0; i < 3; ++i) {
          double m = mpq_get_d(x.num[i]);
          if (m < mn) mn = m;
        }
        want = mn >= 0;
        if (mn < 0 && mn >= -4 * tol) continue;
      } else {
        /* Zero area: on one of the edges (exact distance 0); skip points
         * within TC_TAU S of them. */
        double d = oracle_sqrt_d(x.d2);
        want = mpq_sgn(x.d2) == 0;
        if (!want && d <= TC_TAU * s) continue;
      }
      ++row->feature_checked;
      if (got != want) row->value = (double)++wrong;
      CHECK_MSG(got == want, "point_in_triangle %d, exact %d (%s)", got, want,
                side > 0 ? "area" : "zero area");
      if (h_case_failed()) TFN(note_triangle)("point_in_triangle", p, &tri);
    }
  }
  oracle_tri_clear(&x);
  q3_clear(&xp);
  for (i = 0; i < 3; ++i)
    q3_clear(&xv[i]);
}

/* ------------------------------------------------------------------------ */
/* Rectangle, AABB, OBB                                                     */
/* ------------------------------------------------------------------------ */

/* Box or rectangle axes: a random rotation rounded (orthonormal to a few
 * ulps), or exact coordinate axes (permuted, signed). */
static void TFN(gen_axes)(oracle_rng *g, VEC ax[3], int exact) {
  double r[3][3];
  int i;
  if (exact) {
    int perm = oracle_rng_int(g, 3);
    for (i = 0; i < 3; ++i) {
      double w[3] = {0, 0, 0};
      w[(perm + i) % 3] = oracle_rng_sign(g);
      ax[i] = TFN(v3)(w);
    }
    return;
  }
  oracle_rng_rotation(g, r);
  for (i = 0; i < 3; ++i)
    ax[i] = TFN(v3)(r[i]);
}

/* Half extents: uniform up to the frame scale, sometimes zero or negative
 * in adversarial cases. */
static PROX_REAL TFN(gen_half)(oracle_rng *g, const oracle_frame *f, int adv) {
  PROX_REAL h = (PROX_REAL)(oracle_rng_range(g, 0, 1) * f->scale);
  if (adv) {
    int k = oracle_rng_int(g, 6);
    if (k == 0) h = 0;
    if (k == 1) h = -h;
  }
  return h;
}

/* A point near a box or rectangle center + sum s_i axis_i: on its
 * boundary (s_i = +-h_i for random i), inside, or outside. */
static VEC TFN(box_point)(oracle_rng *g, const oracle_frame *f, VEC c, const VEC *ax,
                          const PROX_REAL *h, int naxes, int adv) {
  double w[3], s;
  int i;
  VEC p;
  TFN(d3)(c, w);
  for (i = 0; i < naxes; ++i) {
    int k = adv ? oracle_rng_int(g, 4) : 3;
    double hh = fabs((double)h[i]);
    s = k == 0 ? hh : (k == 1 ? -hh : oracle_rng_range(g, -2, 2) * f->scale);
    if (k == 2) s = oracle_rng_range(g, -hh, hh);
    w[0] += s * (double)ax[i].x;
    w[1] += s * (double)ax[i].y;
    w[2] += s * (double)ax[i].z;
  }
  if (naxes == 2) { /* off the rectangle's plane */
    double n3[3];
    oracle_rng_dir(g, n3);
    s = oracle_rng_range(g, -1, 1) * f->scale;
    if (adv && oracle_rng_int(g, 3) == 0) s = 0;
    for (i = 0; i < 3; ++i)
      w[i] += s * n3[i];
  }
  p = TFN(v3)(w);
  if (adv && oracle_rng_int(g, 4) == 0) p = TFN(nudge)(g, p, 2);
  return p;
}

static void TFN(test_rectangle)(void) {
  oracle_rng g = oracle_rng_make(0x900 + 2 - PROX_IS_DOUBLE);
  q3 xp, xc, xa[2], xw, xq;
  mpq_t xs[2], xh, cl[2], xd2;
  int kind, i;
  q3_init(&xp);
  q3_init(&xc);
  q3_init(&xa[0]);
  q3_init(&xa[1]);
  q3_init(&xw);
  q3_init(&xq);
  mpq_inits(xs[0], xs[1], xh, cl[0], cl[1], xd2, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_rectangle", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    int adv = kind == ORACLE_ADVERSARIAL;
    row->value_unit = "eps S (params)";
    for (c = 0; c < n; ++c) {
      oracle_frame f = oracle_frame_random(&g, kind);
      PROX_FN(prox_rectangle) rc;
      VEC ax[3], p;
      RES out;
      PROX_REAL d2;
      double s, margin = INFINITY, e;
      int side[2], fk, fi;
      TFN(gen_axes)(&g, ax, adv && oracle_rng_int(&g, 2));
      rc.center = TFN(point)(&g, &f, 1);
      rc.axis[0] = ax[0];
      rc.axis[1] = ax[1];
      rc.half[0] = TFN(gen_half)(&g, &f, adv);
      rc.half[1] = TFN(gen_half)(&g, &f, adv);
      p = TFN(box_point)(&g, &f, rc.center, rc.axis, rc.half, 2, adv);
      h_case_begin();
      d2 = PROX_FN(prox_point_rectangle)(p, &rc, &out);
      TFN(null_d2) = PROX_FN(prox_point_rectangle)(p, &rc, NULL);
      TFN(null_set) = 1;
      /* Exact: s_i = (p - c) . axis_i clamped; q = c + sum s_i axis_i. */
      TFN(q)(&xp, p);
      TFN(q)(&xc, rc.center);
      q3_sub(&xw, &xp, &xc);
      q3_set(&xq, &xc);
      for (i = 0; i < 2; ++i) {
        TFN(q)(&xa[i], rc.axis[i]);
        q3_dot(xs[i], &xw, &xa[i]);
        mpq_set_d(xh, fabs((double)rc.half[i]));
        tc_clamp(cl[i], xs[i], xh, &side[i]);
        q3_addmul(&xq, &xq, cl[i], &xa[i]);
        {
          double m = fabs(fabs(mpq_get_d(xs[i])) - fabs((double)rc.half[i]));
          if (m < margin) margin = m;
        }
      }
      q3_dist2(xd2, &xp, &xq);
      s = TFN(smax_q)(TFN(smax)(TFN(smax)(0, p), rc.center), &xq);
      s = TFN(fix_s)(TFN(smax_r)(TFN(smax_r)(s, rc.half[0]), rc.half[1]));
      ++row->cases;
      TFN(check_closest)(row, s, d2, &out, xd2, &xq, 1);
      tc_rect_feature(side[0], side[1], &fk, &fi);
      TFN(check_feature)(row, &out, fk, fi, margin, s);
      for (i = 0; i < 2; ++i) {
        e = oracle_err((double)out.param[i], cl[i], TC_EPS * s);
        oracle_max(&row->value, e);
        CHECK_MSG(e <= TC_BOUND, "param %d = %a: error %.3g eps S", i, (double)out.param[i], e);
      }
      if (h_case_failed()) {
        h_note("point_rectangle%s:", PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("p", p);
        TFN(note_vec)("center", rc.center);
        TFN(note_vec)("axis0", rc.axis[0]);
        TFN(note_vec)("axis1", rc.axis[1]);
        h_note("half = (%a, %a)", (double)rc.half[0], (double)rc.half[1]);
      }
    }
  }
  q3_clear(&xp);
  q3_clear(&xc);
  q3_clear(&xa[0]);
  q3_clear(&xa[1]);
  q3_clear(&xw);
  q3_clear(&xq);
  mpq_clears(xs[0], xs[1], xh, cl[0], cl[1], xd2, NULL);
}

/* Exact depth of a point inside a box from its box coordinates: face 2i
 * (low side of axis i) at s_i + h_i, face 2i + 1 at h_i - s_i. Returns the
 * nearest face (lowest index among equals) with its depth in dmin, and in
 * *gap the distance to the next different depth. */
static int TFN(box_depth)(const mpq_t *sx, const mpq_t *hx, mpq_t dmin, mpq_t *dface, double *gap) {
  int i, best = 0;
  double d1, d2nd = INFINITY;
  for (i = 0; i < 3; ++i) {
    mpq_add(dface[2 * i], sx[i], hx[i]);
    mpq_sub(dface[2 * i + 1], hx[i], sx[i]);
  }
  for (i = 1; i < 6; ++i)
    if (mpq_cmp(dface[i], dface[best]) < 0) best = i;
  mpq_set(dmin, dface[best]);
  d1 = mpq_get_d(dmin);
  for (i = 0; i < 6; ++i) {
    double d = mpq_get_d(dface[i]);
    if (!mpq_equal(dface[i], dmin) && d - d1 < d2nd) d2nd = d - d1;
  }
  *gap = d2nd;
  return best;
}

static void TFN(test_aabb)(void) {
  oracle_rng g = oracle_rng_make(0xa00 + 2 - PROX_IS_DOUBLE);
  q3 xp, xq, xs;
  mpq_t lo[3], hi[3], pc[3], qc[3], xd2, t, sx[3], hx[3], dface[6], dmin;
  int kind, i;
  q3_init(&xp);
  q3_init(&xq);
  q3_init(&xs);
  for (i = 0; i < 3; ++i)
    mpq_inits(lo[i], hi[i], pc[i], qc[i], sx[i], hx[i], NULL);
  for (i = 0; i < 6; ++i)
    mpq_init(dface[i]);
  mpq_inits(xd2, t, dmin, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_aabb", TC_PREC, kind);
    oracle_row *rows = oracle_row_get("point_aabb_signed", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    int adv = kind == ORACLE_ADVERSARIAL;
    rows->value_unit = "eps S (signed dist.)";
    for (c = 0; c < n; ++c) {
      oracle_frame f = oracle_frame_random(&g, kind);
      PROX_FN(prox_aabb) box;
      VEC p, a = TFN(point)(&g, &f, 1), b = TFN(point)(&g, &f, 1);
      RES out, outs;
      PROX_REAL d2, sd, pr[3], mn[3], mx[3];
      double s, e, gap;
      int side[3], fk, fi, inside, face;
      if (adv) {
        /* zero size on random axes */
        if (oracle_rng_int(&g, 3) == 0) b.x = a.x;
        if (oracle_rng_int(&g, 3) == 0) b.y = a.y;
        if (oracle_rng_int(&g, 3) == 0) b.z = a.z;
      }
      box.min = PROX_FN(prox_vmin)(a, b);
      box.max = PROX_FN(prox_vmax)(a, b);
      if (oracle_rng_int(&g, 8) == 0) { /* min > max on some axes */
        box.min = b.x > a.x ? b : a;
        box.max = b.x > a.x ? a : b;
      }
      p = TFN(point)(&g, &f, 1.3);
      mn[0] = box.min.x, mn[1] = box.min.y, mn[2] = box.min.z;
      mx[0] = box.max.x, mx[1] = box.max.y, mx[2] = box.max.z;
      pr[0] = p.x, pr[1] = p.y, pr[2] = p.z;
      if (adv) {
        /* coordinates on, or ulps from, the box's planes */
        for (i = 0; i < 3; ++i) {
          int k = oracle_rng_int(&g, 5);
          if (k == 0) pr[i] = mn[i];
          if (k == 1) pr[i] = mx[i];
          if (k == 2) {
            PROX_REAL bound = oracle_rng_int(&g, 2) ? mn[i] : mx[i];
            pr[i] = TFN(ulps)(bound, oracle_rng_int(&g, 5) - 2);
          }
        }
        p = PROX_FN(prox_v3)(pr[0], pr[1], pr[2]);
      }
      h_case_begin();
      d2 = PROX_FN(prox_point_aabb)(p, &box, &out);
      TFN(null_d2) = PROX_FN(prox_point_aabb)(p, &box, NULL);
      TFN(null_set) = 2;
      sd = PROX_FN(prox_point_aabb_signed)(p, &box, &outs);
      /* Exact clamp to the documented box: [min, max(min, max)] per axis
       * (an axis with min > max is the single value min). */
      inside = 1;
      for (i = 0; i < 3; ++i) {
        double l = (double)mn[i];
        double h = (double)(mn[i] < mx[i] ? mx[i] : mn[i]);
        mpq_set_d(lo[i], l);
        mpq_set_d(hi[i], h);
        mpq_set_d(pc[i], (double)pr[i]);
        side[i] = mpq_cmp(pc[i], hi[i]) > 0 ? 1 : (mpq_cmp(pc[i], lo[i]) < 0 ? -1 : 0);
        mpq_set(qc[i], side[i] > 0 ? hi[i] : (side[i] < 0 ? lo[i] : pc[i]));
        inside &= side[i] == 0;
      }
      TFN(q)(&xp, p);
      mpq_set(xq.x, qc[0]);
      mpq_set(xq.y, qc[1]);
      mpq_set(xq.z, qc[2]);
      q3_dist2(xd2, &xp, &xq);
      s = TFN(smax)(TFN(smax)(TFN(smax)(0, p), box.min), box.max);
      s = TFN(fix_s)(s);
      ++row->cases;
      ++rows->cases;
      TFN(check_closest)(row, s, d2, &out, xd2, &xq, 1);
      /* The sides are comparisons of inputs: always decided exactly. */
      tc_box_feature(side, &fk, &fi);
      TFN(check_feature)(row, &out, fk, fi, INFINITY, s);
      /* Signed. */
      if (!inside) {
        oracle_sqrt(t, xd2);
        e = oracle_err((double)sd, t, TC_EPS * s);
        TFN(check_closest)(rows, s, outs.sqdist, &outs, xd2, &xq, 1);
        TFN(check_feature)(rows, &outs, fk, fi, INFINITY, s);
      } else {
        /* Box coordinates relative to the center would round: use the
         * distances to the faces directly (s_i = p_i - lo_i - h_i). */
        for (i = 0; i < 3; ++i) {
          mpq_sub(hx[i], hi[i], lo[i]);
          mpq_div_2exp(hx[i], hx[i], 1);
          mpq_sub(sx[i], pc[i], lo[i]);
          mpq_sub(sx[i], sx[i], hx[i]);
        }
        face = TFN(box_depth)((const mpq_t *)sx, (const mpq_t *)hx, dmin, dface, &gap);
        mpq_neg(t, dmin);
        e = oracle_err((double)sd, t, TC_EPS * s);
        /* The nearest face point: p with one coordinate on the face. */
        q3_set(&xs, &xp);
        {
          mpq_ptr cmp = face / 2 == 0 ? xs.x : (face / 2 == 1 ? xs.y : xs.z);
          mpq_set(cmp, (face & 1) ? hi[face / 2] : lo[face / 2]);
        }
        mpq_mul(t, dmin, dmin);
        TFN(check_closest)(rows, s, outs.sqdist, &outs, t, &xs, 1);
        /* Ties go to the lowest face index: exact ties round equal. */
        TFN(check_feature)(rows, &outs, ORACLE_FACE, face, gap, s);
      }
      oracle_max(&rows->value, e);
      CHECK_MSG(e <= TC_BOUND, "signed distance %a: error %.3g eps S", (double)sd, e);
      if (h_case_failed()) {
        h_note("point_aabb%s:", PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("p", p);
        TFN(note_vec)("min", box.min);
        TFN(note_vec)("max", box.max);
      }
    }
  }
  /* Finite corners whose difference overflows: still finite input, so a
   * finite answer (the corners' NaN/Inf guard must not overflow). */
  {
    PROX_REAL m =
        (PROX_REAL)(sizeof(PROX_REAL) == sizeof(double) ? 0.75 * DBL_MAX : 0.75 * FLT_MAX);
    PROX_FN(prox_aabb) box;
    VEC p = TFN(v3)((const double[3]){1, -2, 3});
    RES out;
    PROX_REAL d2;
    box.min = TFN(v3)((const double[3]){-(double)m, -(double)m, -(double)m});
    box.max = TFN(v3)((const double[3]){(double)m, (double)m, (double)m});
    d2 = PROX_FN(prox_point_aabb)(p, &box, &out);
    TFN(null_d2) = PROX_FN(prox_point_aabb)(p, &box, NULL);
    TFN(null_set) = 2;
    CHECK_MSG(d2 == 0 && out.sqdist == 0 && out.point.x == p.x && out.point.y == p.y &&
                  out.point.z == p.z && out.feature.kind == PROX_FEATURE_INTERIOR,
              "huge box: d2 = %a", (double)d2);
    CHECK(PROX_FN(prox_point_aabb)(p, &box, NULL) == 0);
  }
  /* The documented answer for min > max, worked by hand: x in [2, 1] is
   * the single value 2 (below it the low face, above it the high face). */
  {
    PROX_FN(prox_aabb) box;
    RES out;
    PROX_REAL d2;
    box.min = TFN(v3)((const double[3]){2, 0, 0});
    box.max = TFN(v3)((const double[3]){1, 1, 1});
    d2 = PROX_FN(prox_point_aabb)(TFN(v3)((const double[3]){0, 0.5, 0.5}), &box, &out);
    CHECK(d2 == 4 && out.point.x == 2 && out.point.y == (PROX_REAL)0.5 &&
          out.feature.kind == PROX_FEATURE_FACE && out.feature.index == 0);
    d2 = PROX_FN(prox_point_aabb)(TFN(v3)((const double[3]){3, 0.5, 0.5}), &box, &out);
    CHECK(d2 == 1 && out.point.x == 2 && out.feature.kind == PROX_FEATURE_FACE &&
          out.feature.index == 1);
    d2 = PROX_FN(prox_point_aabb_signed)(TFN(v3)((const double[3]){2, 0.5, 0.5}), &box, &out);
    CHECK(d2 == 0 && out.point.x == 2 && out.feature.kind == PROX_FEATURE_FACE &&
          out.feature.index == 0);
  }
  q3_clear(&xp);
  q3_clear(&xq);
  q3_clear(&xs);
  for (i = 0; i < 3; ++i)
    mpq_clears(lo[i], hi[i], pc[i], qc[i], sx[i], hx[i], NULL);
  for (i = 0; i < 6; ++i)
    mpq_clear(dface[i]);
  mpq_clears(xd2, t, dmin, NULL);
}

static void TFN(test_obb)(void) {
  oracle_rng g = oracle_rng_make(0xb00 + 2 - PROX_IS_DOUBLE);
  q3 xp, xc, xa[3], xw, xq, xs;
  mpq_t us[3], cl[3], hx[3], xd2, t, dface[6], dmin;
  int kind, i;
  q3_init(&xp);
  q3_init(&xc);
  q3_init(&xw);
  q3_init(&xq);
  q3_init(&xs);
  for (i = 0; i < 3; ++i) {
    q3_init(&xa[i]);
    mpq_inits(us[i], cl[i], hx[i], NULL);
  }
  for (i = 0; i < 6; ++i)
    mpq_init(dface[i]);
  mpq_inits(xd2, t, dmin, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_obb", TC_PREC, kind);
    oracle_row *rows = oracle_row_get("point_obb_signed", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    int adv = kind == ORACLE_ADVERSARIAL;
    row->value_unit = "eps S (params)";
    rows->value_unit = "eps S (signed dist.)";
    for (c = 0; c < n; ++c) {
      oracle_frame f = oracle_frame_random(&g, kind);
      PROX_FN(prox_obb) box;
      VEC p;
      RES out, outs;
      PROX_REAL d2, sd;
      double s, e, margin = INFINITY, gap;
      int side[3], fk, fi, inside = 1, face;
      TFN(gen_axes)(&g, box.axis, adv && oracle_rng_int(&g, 2));
      box.center = TFN(point)(&g, &f, 1);
      for (i = 0; i < 3; ++i)
        box.half[i] = TFN(gen_half)(&g, &f, adv);
      p = TFN(box_point)(&g, &f, box.center, box.axis, box.half, 3, adv);
      h_case_begin();
      d2 = PROX_FN(prox_point_obb)(p, &box, &out);
      TFN(null_d2) = PROX_FN(prox_point_obb)(p, &box, NULL);
      TFN(null_set) = 1;
      /* Inside, both paths give exactly 0 (their inside tests agree). */
      if (out.feature.kind == PROX_FEATURE_INTERIOR)
        CHECK_MSG(d2 == 0 && TFN(null_d2) == 0, "inside: %a, out = NULL %a", (double)d2,
                  (double)TFN(null_d2));
      sd = PROX_FN(prox_point_obb_signed)(p, &box, &outs);
      /* Exact clamp formula on the axes as given. */
      TFN(q)(&xp, p);
      TFN(q)(&xc, box.center);
      q3_sub(&xw, &xp, &xc);
      q3_set(&xq, &xc);
      for (i = 0; i < 3; ++i) {
        double m;
        TFN(q)(&xa[i], box.axis[i]);
        q3_dot(us[i], &xw, &xa[i]);
        mpq_set_d(hx[i], fabs((double)box.half[i]));
        tc_clamp(cl[i], us[i], hx[i], &side[i]);
        q3_addmul(&xq, &xq, cl[i], &xa[i]);
        inside &= side[i] == 0;
        m = fabs(fabs(mpq_get_d(us[i])) - fabs((double)box.half[i]));
        if (m < margin) margin = m;
      }
      if (inside) q3_set(&xq, &xp);
      q3_dist2(xd2, &xp, &xq);
      s = TFN(smax_q)(TFN(smax)(TFN(smax)(0, p), box.center), &xq);
      for (i = 0; i < 3; ++i)
        s = TFN(smax_r)(s, box.half[i]);
      s = TFN(fix_s)(s);
      ++row->cases;
      ++rows->cases;
      TFN(check_closest)(row, s, d2, &out, xd2, &xq, 1);
      tc_box_feature(side, &fk, &fi);
      TFN(check_feature)(row, &out, fk, fi, margin, s);
      for (i = 0; i < 3; ++i) {
        e = oracle_err((double)out.param[i], cl[i], TC_EPS * s);
        oracle_max(&row->value, e);
        CHECK_MSG(e <= TC_BOUND, "param %d = %a: error %.3g eps S", i, (double)out.param[i], e);
      }
      /* Signed. */
      if (!inside) {
        oracle_sqrt(t, xd2);
        e = oracle_err((double)sd, t, TC_EPS * s);
        TFN(check_closest)(rows, s, outs.sqdist, &outs, xd2, &xq, 1);
        TFN(check_feature)(rows, &outs, fk, fi, margin, s);
      } else {
        face = TFN(box_depth)((const mpq_t *)us, (const mpq_t *)hx, dmin, dface, &gap);
        if (margin < gap) gap = margin;
        mpq_neg(t, dmin);
        e = oracle_err((double)sd, t, TC_EPS * s);
        /* p + (target - s_i) axis_i, target = +-h_i. */
        i = face / 2;
        if (face & 1) {
          mpq_sub(t, hx[i], us[i]);
        } else {
          mpq_add(t, hx[i], us[i]);
          mpq_neg(t, t);
        }
        q3_addmul(&xs, &xp, t, &xa[i]);
        mpq_mul(t, dmin, dmin);
        TFN(check_closest)(rows, s, outs.sqdist, &outs, t, &xs, 1);
        TFN(check_feature)(rows, &outs, ORACLE_FACE, face, gap, s);
      }
      oracle_max(&rows->value, e);
      CHECK_MSG(e <= TC_BOUND, "signed distance %a: error %.3g eps S", (double)sd, e);
      if (h_case_failed()) {
        h_note("point_obb%s:", PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("p", p);
        TFN(note_vec)("center", box.center);
        for (i = 0; i < 3; ++i)
          TFN(note_vec)("axis", box.axis[i]);
        h_note("half = (%a, %a, %a)", (double)box.half[0], (double)box.half[1],
               (double)box.half[2]);
      }
    }
  }
  q3_clear(&xp);
  q3_clear(&xc);
  q3_clear(&xw);
  q3_clear(&xq);
  q3_clear(&xs);
  for (i = 0; i < 3; ++i) {
    q3_clear(&xa[i]);
    mpq_clears(us[i], cl[i], hx[i], NULL);
  }
  for (i = 0; i < 6; ++i)
    mpq_clear(dface[i]);
  mpq_clears(xd2, t, dmin, NULL);
}

/* ------------------------------------------------------------------------ */
/* Sphere, capsule                                                          */
/* ------------------------------------------------------------------------ */

/* A point near a ball of radius r around c: on its surface within
 * rounding, exactly on it along an axis, at the center, inside, outside. */
static VEC TFN(ball_point)(oracle_rng *g, const oracle_frame *f, VEC c, PROX_REAL r, int adv) {
  double u[3];
  int k = adv ? oracle_rng_int(g, 7) : 5;
  oracle_rng_dir(g, u);
  switch (k) {
  case 6: /* within two ulps of the center */
    return TFN(nudge)(g, c, 2);
  case 0:
    return TFN(offset)(c, u, fabs((double)r));
  case 1: {
    VEC p = c;
    int a = oracle_rng_int(g, 3);
    PROX_REAL rr = oracle_rng_sign(g) > 0 ? r : -r;
    if (a == 0) p.x = c.x + rr;
    if (a == 1) p.y = c.y + rr;
    if (a == 2) p.z = c.z + rr;
    return p;
  }
  case 2:
    return c;
  case 3:
    return TFN(offset)(c, u, fabs((double)r) * oracle_rng_range(g, 0, 1));
  case 4:
    return TFN(nudge)(g, TFN(offset)(c, u, fabs((double)r)), 2);
  default:
    return TFN(offset)(c, u, oracle_rng_range(g, 0, 2) * f->scale);
  }
}

/* The signed point queries' promise that holds wherever the nearest point
 * is ill-conditioned too: the returned point w lies on the surface (its
 * exact distance to the core, the center or the segment a b, equals r) and
 * |p - w| equals |xsd|, each within TC_BOUND eps S. Records the larger
 * error in row->value; nb = 1 for a sphere (core point a), 2 for a
 * capsule. */
static void TFN(check_surface)(oracle_row *row, VEC w, const q3 *xp, const q3 *xv, int nb,
                               const mpq_t xr, const mpq_t xsd, double s) {
  q3 xw;
  oracle_lin core;
  mpq_t t, u;
  double e1, e2;
  if (!(isfinite(w.x) && isfinite(w.y) && isfinite(w.z))) {
    CHECK_MSG(0, "signed point (%a, %a, %a) not finite", (double)w.x, (double)w.y, (double)w.z);
    return;
  }
  q3_init(&xw);
  oracle_lin_init(&core);
  mpq_inits(t, u, NULL);
  TFN(q)(&xw, w);
  if (nb == 2)
    oracle_point_segment(&core, &xw, &xv[0], &xv[1]);
  else
    q3_dist2(core.d2, &xw, &xv[0]);
  oracle_sqrt(t, core.d2);
  e1 = oracle_err_q(t, xr, TC_EPS * s);
  q3_dist2(t, xp, &xw);
  oracle_sqrt(t, t);
  mpq_abs(u, xsd);
  e2 = oracle_err_q(t, u, TC_EPS * s);
  ++row->cases;
  oracle_max(&row->value, e1 > e2 ? e1 : e2);
  CHECK_MSG(e1 <= TC_BOUND, "signed point not on the surface: %.3g eps S", e1);
  CHECK_MSG(e2 <= TC_BOUND, "|p - signed point| off the distance by %.3g eps S", e2);
  q3_clear(&xw);
  oracle_lin_clear(&core);
  mpq_clears(t, u, NULL);
}

static void TFN(test_sphere)(void) {
  oracle_rng g = oracle_rng_make(0xc00 + 2 - PROX_IS_DOUBLE);
  q3 xp, xc, xq, xsurf;
  mpq_t cd2, xr, xd2, xsd, t;
  int kind;
  q3_init(&xp);
  q3_init(&xc);
  q3_init(&xq);
  q3_init(&xsurf);
  mpq_inits(cd2, xr, xd2, xsd, t, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_sphere", TC_PREC, kind);
    oracle_row *rows = oracle_row_get("point_sphere_signed", TC_PREC, kind);
    oracle_row *rsurf = oracle_row_get("point_sphere_signed, on surface", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    int adv = kind == ORACLE_ADVERSARIAL;
    rows->value_unit = "eps S (signed dist.)";
    rsurf->value_unit = "eps S (surface, |p - q|)";
    for (c = 0; c < n; ++c) {
      oracle_frame f = oracle_frame_random(&g, kind);
      PROX_FN(prox_sphere) sph;
      VEC p;
      RES out, outs;
      PROX_REAL d2, sd;
      double s, e, margin;
      int inside;
      sph.center = TFN(point)(&g, &f, 1);
      sph.radius = (PROX_REAL)(oracle_rng_range(&g, 0, 1) * f.scale);
      if (adv && oracle_rng_int(&g, 6) == 0) sph.radius = 0;
      if (adv && oracle_rng_int(&g, 6) == 0) sph.radius = -sph.radius;
      p = TFN(ball_point)(&g, &f, sph.center, sph.radius, adv);
      if (adv && oracle_rng_int(&g, 12) == 0) {
        /* p a subnormal (or nearly) distance from the center, the radius
         * not 0 (S would be that distance: subnormal, below the domain). */
        double u[3],
            m = oracle_rng_log10(&g, PROX_IS_DOUBLE ? -323 : -45, PROX_IS_DOUBLE ? -300 : -35);
        oracle_rng_dir(&g, u);
        sph.center = PROX_FN(prox_v3)(0, 0, 0);
        sph.radius = (PROX_REAL)oracle_rng_range(&g, 0.5, 2);
        p = PROX_FN(prox_v3)((PROX_REAL)(m * u[0]), (PROX_REAL)(m * u[1]), (PROX_REAL)(m * u[2]));
      }
      h_case_begin();
      d2 = PROX_FN(prox_point_sphere)(p, &sph, &out);
      TFN(null_d2) = PROX_FN(prox_point_sphere)(p, &sph, NULL);
      TFN(null_set) = 1;
      sd = PROX_FN(prox_point_sphere_signed)(p, &sph, &outs);
      TFN(q)(&xp, p);
      TFN(q)(&xc, sph.center);
      mpq_set_d(xr, fabs((double)sph.radius));
      q3_dist2(cd2, &xp, &xc);
      tc_ball(&xp, &xc, cd2, xr, &xq, &xsurf, xd2, xsd, &inside);
      margin = fabs(mpq_get_d(xsd));
      s = TFN(smax_q)(TFN(smax)(TFN(smax)(0, p), sph.center), &xsurf);
      s = TFN(fix_s)(TFN(smax_r)(s, sph.radius));
      ++row->cases;
      ++rows->cases;
      TFN(check_closest)(row, s, d2, &out, xd2, &xq, 1);
      TFN(check_feature)
      (row, &out, inside ? ORACLE_INTERIOR : ORACLE_FACE, 0, margin, s);
      /* Signed: |p - c| - r and the surface point (any surface point at
       * the center: there its distance to c must be r). */
      e = oracle_err((double)sd, xsd, TC_EPS * s);
      oracle_max(&rows->value, e);
      CHECK_MSG(e <= TC_BOUND, "signed distance %a: error %.3g eps S", (double)sd, e);
      mpq_mul(t, xsd, xsd);
      if (mpq_sgn(cd2) > 0) {
        TFN(check_closest)(rows, s, outs.sqdist, &outs, t, &xsurf, 1);
      } else {
        q3 w;
        q3_init(&w);
        q3_set_d(&w, (double)outs.point.x, (double)outs.point.y, (double)outs.point.z);
        q3_dist2(t, &w, &xc);
        oracle_sqrt(t, t);
        e = oracle_err_q(t, xr, TC_EPS * s);
        CHECK_MSG(e <= TC_BOUND,
                  "at the center: surface point off by %.3g "
                  "eps S",
                  e);
        q3_clear(&w);
      }
      TFN(check_surface)(rsurf, outs.point, &xp, &xc, 1, xr, xsd, s);
      ++rows->feature_checked;
      CHECK_MSG(outs.feature.kind == PROX_FEATURE_FACE && outs.feature.index == 0,
                "signed feature (%d, %d)", outs.feature.kind, outs.feature.index);
      if (h_case_failed()) {
        h_note("point_sphere%s:", PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("p", p);
        TFN(note_vec)("center", sph.center);
        h_note("radius = %a", (double)sph.radius);
      }
    }
  }
  q3_clear(&xp);
  q3_clear(&xc);
  q3_clear(&xq);
  q3_clear(&xsurf);
  mpq_clears(cd2, xr, xd2, xsd, t, NULL);
}

/* Issue 13: the signed sphere and capsule points where p is nearly at the
 * center or on the core. A sphere whose center is a subnormal distance
 * from p gave the point (inf, nan, nan); the capsule case (double: the
 * issue's input, p an ulp off the axis; float: the same shape with p an
 * ulp off the axis) has an ill-conditioned nearest point (5e15 eps S from
 * the exact one) but must give a point on the surface at the distance. */
static void TFN(test_signed_near_core)(void) {
  q3 xp, xv[2], xsurf, xq;
  mpq_t xr, xd2, xsd, cd2;
  int c, inside;
  q3_init(&xp);
  q3_init(&xv[0]);
  q3_init(&xv[1]);
  q3_init(&xsurf);
  q3_init(&xq);
  mpq_inits(xr, xd2, xsd, cd2, NULL);
  for (c = 0; c < 4; ++c) { /* spheres */
    PROX_FN(prox_sphere) sph;
    RES out;
    PROX_REAL sd, sub = TC_NEXT((PROX_REAL)0, (PROX_REAL)1);
    VEC p = PROX_FN(prox_v3)(sub, 0, 0);
    double s, e;
    sph.center = PROX_FN(prox_v3)(0, 0, 0);
    sph.radius = c & 1 ? (PROX_REAL)0.75 : 1;
    if (c >= 2) p = PROX_FN(prox_v3)(-sub, sub, 3 * sub);
    h_case_begin();
    sd = PROX_FN(prox_point_sphere_signed)(p, &sph, &out);
    TFN(q)(&xp, p);
    TFN(q)(&xv[0], sph.center);
    mpq_set_d(xr, (double)sph.radius);
    q3_dist2(cd2, &xp, &xv[0]);
    tc_ball(&xp, &xv[0], cd2, xr, &xq, &xsurf, xd2, xsd, &inside);
    s = TFN(smax_q)(TFN(smax_r)(TFN(smax)(0, p), sph.radius), &xsurf);
    if (!(isfinite(out.point.x) && isfinite(out.point.y) && isfinite(out.point.z))) {
      CHECK_MSG(0, "sphere %d: point (%a, %a, %a)", c, (double)out.point.x, (double)out.point.y,
                (double)out.point.z);
      continue;
    }
    e = oracle_err((double)sd, xsd, TC_EPS * s);
    CHECK_MSG(e <= TC_BOUND, "sphere %d: signed distance error %.3g eps S", c, e);
    e = oracle_err3((double)out.point.x, (double)out.point.y, (double)out.point.z, &xsurf,
                    TC_EPS * s);
    CHECK_MSG(e <= TC_BOUND, "sphere %d: point error %.3g eps S", c, e);
    TFN(check_surface)
    (oracle_row_get("point_sphere_signed, on surface", TC_PREC, ORACLE_ADVERSARIAL), out.point, &xp,
     xv, 1, xr, xsd, s);
  }
  { /* the capsule */
    oracle_lin core;
    PROX_FN(prox_capsule) cap;
    RES out;
    VEC p;
    PROX_REAL sd;
    double s, e, len;
    oracle_lin_init(&core);
    cap.a = PROX_FN(prox_v3)((PROX_REAL)0x1.4cp-1, (PROX_REAL)-0x1.04p-1, (PROX_REAL)-0x1.d4p-1);
    cap.b = PROX_FN(prox_v3)((PROX_REAL)0x1.64p-1, (PROX_REAL)-0x1.14p-1, (PROX_REAL)-0x1.c4p-1);
    cap.radius = (PROX_REAL)0x1.08p-1;
    p = PROX_FN(prox_v3)((PROX_REAL)0x1.58p-1, (PROX_REAL)-0x1.0cp-1,
                         TC_NEXT((PROX_REAL)-0x1.ccp-1, -(PROX_REAL)INFINITY));
    h_case_begin();
    sd = PROX_FN(prox_point_capsule_signed)(p, &cap, &out);
    TFN(q)(&xp, p);
    TFN(q)(&xv[0], cap.a);
    TFN(q)(&xv[1], cap.b);
    mpq_set_d(xr, (double)cap.radius);
    oracle_point_segment(&core, &xp, &xv[0], &xv[1]);
    tc_ball(&xp, &core.q, core.d2, xr, &xq, &xsurf, xd2, xsd, &inside);
    len = oracle_sqrt_d(core.d2);
    s = TFN(smax)(TFN(smax)(TFN(smax)(0, p), cap.a), cap.b);
    s = TFN(smax_q)(TFN(smax_q)(s, &xsurf), &core.q);
    s = TFN(smax_r)(s, cap.radius);
    e = oracle_err((double)sd, xsd, TC_EPS * s);
    CHECK_MSG(e <= TC_BOUND, "capsule: signed distance error %.3g eps S", e);
    TFN(check_surface)
    (oracle_row_get("point_capsule_signed, on surface", TC_PREC, ORACLE_ADVERSARIAL), out.point,
     &xp, xv, 2, xr, xsd, s);
    /* The documented graded bound; the point itself is ill-conditioned. */
    e = oracle_err3((double)out.point.x, (double)out.point.y, (double)out.point.z, &xsurf,
                    TC_EPS * s);
    CHECK_MSG(len > 0 && e <= TC_BOUND * (1 + (double)cap.radius / len),
              "capsule: point error %.3g eps S, r / d_core %.3g", e, (double)cap.radius / len);
    h_note("capsule %s: p %.3g S from the core, point %.3g eps S from the "
           "exact nearest point",
           TC_PREC, len / s, e);
    oracle_lin_clear(&core);
  }
  q3_clear(&xp);
  q3_clear(&xv[0]);
  q3_clear(&xv[1]);
  q3_clear(&xsurf);
  q3_clear(&xq);
  mpq_clears(xr, xd2, xsd, cd2, NULL);
}

/* Signed capsule points are asserted when p is at least this many radii
 * from the core: nearer, the direction p - core (through the rounded core
 * point) is ill-conditioned, error ~ eps S r / |p - core|. */
#ifndef TC_CAPSULE_WELL
#define TC_CAPSULE_WELL 0.5
#endif

static void TFN(test_capsule)(void) {
  oracle_rng g = oracle_rng_make(0xd00 + 2 - PROX_IS_DOUBLE);
  oracle_lin core;
  q3 xp, xv[2], xq, xsurf;
  mpq_t xr, xd2, xsd, t;
  int kind;
  oracle_lin_init(&core);
  q3_init(&xp);
  q3_init(&xv[0]);
  q3_init(&xv[1]);
  q3_init(&xq);
  q3_init(&xsurf);
  mpq_inits(xr, xd2, xsd, t, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_capsule", TC_PREC, kind);
    oracle_row *rows = oracle_row_get("point_capsule_signed", TC_PREC, kind);
    oracle_row *rsurf = oracle_row_get("point_capsule_signed, on surface", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    int adv = kind == ORACLE_ADVERSARIAL;
    rows->value_unit = "eps S (signed dist.)";
    rsurf->value_unit = "eps S (surface, |p - q|)";
    for (c = 0; c < n; ++c) {
      oracle_frame f = oracle_frame_random(&g, kind);
      PROX_FN(prox_capsule) cap;
      VEC p, o;
      RES out, outs;
      PROX_REAL d2, sd, w[2];
      double s, e, margin, len;
      int inside, vk, vi;
      TFN(gen_linear)(&g, kind, &p, &cap.a, &cap.b);
      cap.radius = (PROX_REAL)(oracle_rng_range(&g, 0, 0.5) * f.scale);
      if (adv) {
        int k = oracle_rng_int(&g, 8);
        if (k == 0) cap.radius = 0;
        if (k == 1) cap.radius = -cap.radius;
        if (k >= 2 && k <= 4) { /* p near the surface around a core point */
          o = TFN(comb)(cap.a, cap.b, oracle_rng_range(&g, -0.3, 1.3));
          p = TFN(ball_point)(&g, &f, o, cap.radius, 1);
        }
        if (k == 5) { /* p within two ulps of the core, an end included */
          int at = oracle_rng_int(&g, 4);
          o = TFN(comb)(cap.a, cap.b, at < 2 ? (double)at : oracle_rng_range(&g, -0.3, 1.3));
          p = TFN(nudge)(&g, o, 2);
        }
      }
      h_case_begin();
      d2 = PROX_FN(prox_point_capsule)(p, &cap, &out);
      TFN(null_d2) = PROX_FN(prox_point_capsule)(p, &cap, NULL);
      TFN(null_set) = 1;
      sd = PROX_FN(prox_point_capsule_signed)(p, &cap, &outs);
      TFN(q)(&xp, p);
      TFN(q)(&xv[0], cap.a);
      TFN(q)(&xv[1], cap.b);
      mpq_set_d(xr, fabs((double)cap.radius));
      oracle_point_segment(&core, &xp, &xv[0], &xv[1]);
      tc_ball(&xp, &core.q, core.d2, xr, &xq, &xsurf, xd2, xsd, &inside);
      len = oracle_sqrt_d(core.d2);
      margin = fabs(mpq_get_d(xsd));
      if (core.margin < margin) margin = core.margin;
      s = TFN(smax)(TFN(smax)(TFN(smax)(0, p), cap.a), cap.b);
      s = TFN(smax_q)(TFN(smax_q)(s, &xsurf), &core.q);
      s = TFN(fix_s)(TFN(smax_r)(s, cap.radius));
      ++row->cases;
      ++rows->cases;
      TFN(check_closest)(row, s, d2, &out, xd2, &xq, 1);
      vk = core.end < 0 ? ORACLE_EDGE : ORACLE_VERTEX;
      vi = core.end < 0 ? 0 : core.end;
      TFN(check_feature)
      (row, &out, inside ? ORACLE_INTERIOR : vk, inside ? 0 : vi, margin, s);
      /* t reproduces the core point. */
      w[0] = 1 - out.param[0];
      w[1] = out.param[0];
      TFN(check_recon)(row, w, 2, xv, &core.q, s, 1);
      /* Signed. */
      e = oracle_err((double)sd, xsd, TC_EPS * s);
      oracle_max(&rows->value, e);
      CHECK_MSG(e <= TC_BOUND, "signed distance %a: error %.3g eps S", (double)sd, e);
      mpq_mul(t, xsd, xsd);
      if (mpq_sgn(core.d2) > 0) {
        TFN(check_closest)
        (rows, s, outs.sqdist, &outs, t, &xsurf, len >= TC_CAPSULE_WELL * fabs((double)cap.radius));
        if (!(len >= TC_CAPSULE_WELL * fabs((double)cap.radius))) {
          /* Nearer the core the direction from the rounded core point is
           * ill-conditioned: the documented bound grows with r / d_core. */
          double ep = oracle_err3((double)outs.point.x, (double)outs.point.y, (double)outs.point.z,
                                  &xsurf, TC_EPS * s);
          double grow = 1 + fabs((double)cap.radius) / len;
          CHECK_MSG(ep <= TC_BOUND * grow,
                    "point error %.3g eps S, beyond 8 (1 + r / d_core) = %.3g", ep,
                    TC_BOUND * grow);
        }
      } else {
        /* On the core: any point at distance r from the core point. */
        q3 pw;
        q3_init(&pw);
        q3_set_d(&pw, (double)outs.point.x, (double)outs.point.y, (double)outs.point.z);
        q3_dist2(t, &pw, &core.q);
        oracle_sqrt(t, t);
        e = oracle_err_q(t, xr, TC_EPS * s);
        CHECK_MSG(e <= TC_BOUND,
                  "on the core: surface point off by %.3g "
                  "eps S",
                  e);
        q3_clear(&pw);
      }
      TFN(check_surface)(rsurf, outs.point, &xp, xv, 2, xr, xsd, s);
      CHECK_MSG(outs.feature.kind != PROX_FEATURE_INTERIOR, "signed capsule reports INTERIOR");
      TFN(check_feature)(rows, &outs, vk, vi, core.margin, s);
      if (h_case_failed()) {
        h_note("point_capsule%s:", PROX_IS_DOUBLE ? "" : "f");
        TFN(note_vec)("p", p);
        TFN(note_vec)("a", cap.a);
        TFN(note_vec)("b", cap.b);
        h_note("radius = %a", (double)cap.radius);
      }
    }
  }
  oracle_lin_clear(&core);
  q3_clear(&xp);
  q3_clear(&xv[0]);
  q3_clear(&xv[1]);
  q3_clear(&xq);
  q3_clear(&xsurf);
  mpq_clears(xr, xd2, xsd, t, NULL);
}

/* ------------------------------------------------------------------------ */
/* Tetrahedron                                                              */
/* ------------------------------------------------------------------------ */

static int TFN(gen_tet)(oracle_rng *g, int kind, PROX_FN(prox_tetrahedron) * tet, VEC *p) {
  oracle_frame f = oracle_frame_random(g, kind);
  int sub = kind == ORACLE_ADVERSARIAL ? oracle_rng_int(g, TET_SUBCASES) : -1;
  double q = TFN(quantum)(&f), u[3];
  VEC *v = tet->v;
  int i;
  for (i = 0; i < 4; ++i)
    v[i] = TFN(point)(g, &f, 1);
  *p = TFN(point)(g, &f, 1.3);
  switch (sub) {
  case TET_FLAT_GRID: {
    VEC d1 = TFN(grid_vector)(g, &f, q, 4, 0.7);
    VEC d2 = TFN(grid_vector)(g, &f, q, 4, 0.7);
    double a = oracle_rng_int(g, 9) - 2, b = oracle_rng_int(g, 9) - 2;
    v[0] = TFN(grid_point)(g, &f, q, 1);
    v[1] = TFN(grid_add)(v[0], d1, 1);
    v[2] = TFN(grid_add)(v[0], d2, 1);
    v[3] = TFN(grid_add)(TFN(grid_add)(v[0], d1, a / 4), d2, b / 4);
    if (oracle_rng_int(g, 3) == 0) { /* p in the plane, exactly */
      a = oracle_rng_int(g, 9) - 2;
      b = oracle_rng_int(g, 9) - 2;
      *p = TFN(grid_add)(TFN(grid_add)(v[0], d1, a / 4), d2, b / 4);
    }
    break;
  }
  case TET_FLAT_AXIS: {
    int a = oracle_rng_int(g, 3);
    PROX_REAL cz = a == 0 ? v[0].x : (a == 1 ? v[0].y : v[0].z);
    for (i = 1; i < 4; ++i) {
      if (a == 0) v[i].x = cz;
      if (a == 1) v[i].y = cz;
      if (a == 2) v[i].z = cz;
    }
    if (oracle_rng_int(g, 2)) {
      if (a == 0) p->x = cz;
      if (a == 1) p->y = cz;
      if (a == 2) p->z = cz;
    }
    break;
  }
  case TET_NEAR_FLAT: {
    VEC e1 = PROX_FN(prox_vsub)(v[1], v[0]), e2 = PROX_FN(prox_vsub)(v[2], v[0]);
    double nn[3], l;
    VEC nc = PROX_FN(prox_vcross)(e1, e2);
    TFN(d3)(nc, nn);
    l = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
    if (l > 0) {
      nn[0] /= l, nn[1] /= l, nn[2] /= l;
      v[3] = TFN(comb3)(v[0], v[1], v[2], 0.2, 0.5, 0.3);
      v[3] = TFN(offset)(v[3], nn, oracle_rng_log10(g, -16, -1) * f.scale);
    }
    if (oracle_rng_int(g, 2)) *p = TFN(comb3)(v[0], v[1], v[2], 0.3, 0.3, 0.4);
    break;
  }
  case TET_NEEDLE: {
    double h = oracle_rng_log10(g, -12, -2) * f.scale;
    if (oracle_rng_int(g, 2)) { /* v1, v2, v3 close together */
      for (i = 2; i < 4; ++i) {
        oracle_rng_dir(g, u);
        v[i] = TFN(offset)(v[1], u, h);
      }
    } else { /* v2, v3 near the edge v0 v1 */
      for (i = 2; i < 4; ++i) {
        oracle_rng_dir(g, u);
        v[i] = TFN(offset)(TFN(comb)(v[0], v[1], oracle_rng_unit(g)), u, h);
      }
    }
    break;
  }
  case TET_COINCIDENT: {
    int k = oracle_rng_int(g, 4);
    v[1] = v[0];
    if (k >= 1) v[2] = v[0];
    if (k >= 2) v[3] = v[0];
    if (k == 3) v[2] = v[3] = TFN(point)(g, &f, 1); /* two pairs */
    if (oracle_rng_int(g, 3) == 0) *p = v[oracle_rng_int(g, 4)];
    break;
  }
  case TET_INSIDE: {
    double w[4], sum = 0, r[3] = {0, 0, 0};
    int k;
    for (i = 0; i < 4; ++i)
      sum += (w[i] = oracle_rng_unit(g) + 1e-3);
    for (i = 0; i < 4; ++i) {
      double vv[3];
      TFN(d3)(v[i], vv);
      for (k = 0; k < 3; ++k)
        r[k] += w[i] / sum * vv[k];
    }
    *p = TFN(v3)(r);
    break;
  }
  case TET_ON_FACE: {
    int fc[3], k = oracle_rng_int(g, 4);
    double a = oracle_rng_unit(g), b = oracle_rng_unit(g);
    if (a + b > 1) a = 1 - a, b = 1 - b;
    oracle_tet_face(k, fc);
    *p = TFN(comb3)(v[fc[0]], v[fc[1]], v[fc[2]], 1 - a - b, a, b);
    break;
  }
  case TET_AT_VERTEX:
    *p = v[oracle_rng_int(g, 4)];
    if (oracle_rng_int(g, 2)) *p = TFN(nudge)(g, *p, 2);
    break;
  case TET_AXIS_FACE: {
    /* v0, v1, v2 in z = c (axes permuted); p in that plane exactly. */
    int a = oracle_rng_int(g, 3);
    PROX_REAL cz = a == 0 ? v[0].x : (a == 1 ? v[0].y : v[0].z);
    for (i = 1; i < 3; ++i) {
      if (a == 0) v[i].x = cz;
      if (a == 1) v[i].y = cz;
      if (a == 2) v[i].z = cz;
    }
    if (a == 0) p->x = cz;
    if (a == 1) p->y = cz;
    if (a == 2) p->z = cz;
    break;
  }
  case TET_SLIVER: {
    double h1 = oracle_rng_log10(g, -14, -2) * f.scale;
    double h2 = oracle_rng_log10(g, -14, -2) * f.scale;
    oracle_rng_dir(g, u);
    v[2] = TFN(offset)(TFN(comb)(v[0], v[1], 0.4), u, h1);
    oracle_rng_dir(g, u);
    v[3] = TFN(offset)(TFN(comb)(v[0], v[1], 0.7), u, h2);
    break;
  }
  default:
    break;
  }
  return sub;
}

/* 6 |volume| / (longest edge)^3: 0.71 for a regular tetrahedron, 0 for a
 * flat one. */
static double TFN(tet_shape)(const oracle_tet *x, const q3 *v) {
  mpq_t t;
  double l2 = 0;
  int i, j;
  mpq_init(t);
  for (i = 0; i < 4; ++i)
    for (j = i + 1; j < 4; ++j) {
      double d;
      q3_dist2(t, &v[i], &v[j]);
      d = mpq_get_d(t);
      if (d > l2) l2 = d;
    }
  mpq_clear(t);
  return l2 > 0 ? fabs(mpq_get_d(x->vol)) / (l2 * sqrt(l2)) : 0;
}

static void TFN(note_tet)(VEC p, const PROX_FN(prox_tetrahedron) * tet) {
  int i;
  h_note("point_tetrahedron%s:", PROX_IS_DOUBLE ? "" : "f");
  TFN(note_vec)("p", p);
  for (i = 0; i < 4; ++i)
    TFN(note_vec)("v", tet->v[i]);
}

static void TFN(test_tetrahedron)(void) {
  oracle_rng g = oracle_rng_make(0xe00 + 2 - PROX_IS_DOUBLE);
  oracle_tet x;
  q3 xp, xv[4];
  mpq_t fd2, t;
  int kind, i;
  oracle_tet_init(&x);
  q3_init(&xp);
  for (i = 0; i < 4; ++i)
    q3_init(&xv[i]);
  mpq_inits(fd2, t, NULL);
  for (kind = 0; kind < ORACLE_KINDS; ++kind) {
    oracle_row *row = oracle_row_get("point_tetrahedron", TC_PREC, kind);
    oracle_row *rows = oracle_row_get("point_tetrahedron_signed", TC_PREC, kind);
    long c, n = TFN(cases)(kind);
    rows->value_unit = "eps S (signed dist.)";
    for (c = 0; c < n; ++c) {
      PROX_FN(prox_tetrahedron) tet;
      VEC p;
      RES out, outs;
      PROX_REAL d2, sd;
      double s, e, sin2 = INFINITY;
      int well;
      (void)TFN(gen_tet)(&g, kind, &tet, &p);
      h_case_begin();
      d2 = PROX_FN(prox_point_tetrahedron)(p, &tet, &out);
      TFN(null_d2) = PROX_FN(prox_point_tetrahedron)(p, &tet, NULL);
      TFN(null_set) = 1;
      sd = PROX_FN(prox_point_tetrahedron_signed)(p, &tet, &outs);
      TFN(q)(&xp, p);
      for (i = 0; i < 4; ++i)
        TFN(q)(&xv[i], tet.v[i]);
      oracle_point_tetrahedron(&x, &xp, xv);
      s = TFN(smax)(0, p);
      for (i = 0; i < 4; ++i)
        s = TFN(smax)(s, tet.v[i]);
      s = TFN(fix_s)(TFN(smax_q)(s, &x.q));
      for (i = 0; i < 4; ++i)
        if (x.face[i].sin2min < sin2) sin2 = x.face[i].sin2min;
      well = sin2 >= TC_WELL_SIN2 && TFN(tet_shape)(&x, xv) >= TC_WELL_VOL;
      /* Two faces whose exact distances tie within rounding (p far away)
       * may be chosen either way: the closest point is ill-conditioned
       * there unless they share it. */
      {
        double xd = mpq_get_d(x.d2), u = sqrt(xd) > s ? sqrt(xd) : s;
        for (i = 0; i < 4; ++i)
          if (mpq_cmp(x.face[i].d2, x.d2) != 0 &&
              mpq_get_d(x.face[i].d2) - xd < 32 * TC_EPS * u * u)
            well = 0;
      }
      ++row->cases;
      ++rows->cases;
      TFN(check_closest)(row, s, d2, &out, x.d2, &x.q, well);
      /* As for triangles; a flat tetrahedron has no interior. */
      if (!x.flat && x.margin > TC_MARGIN * TC_EPS * s) {
        TFN(check_feature)(row, &out, x.kind, x.index, x.margin, s);
      } else {
        int have = !(x.flat && out.feature.kind == PROX_FEATURE_INTERIOR) &&
                   oracle_tet_feature_dist2(fd2, &xp, xv, out.feature.kind, out.feature.index);
        TFN(check_valid)(row, &out, have, fd2, x.d2, s);
        if (!x.flat)
          TFN(count_amb)(row, &out, x.kind, x.index, x.margin, s);
        else
          ++row->feature_checked; /* any feature that holds the point */
      }
      TFN(check_recon)
      (row, out.param, 4, xv, &x.q, s,
       well ? (sin2 < 1 ? 1 / sin2 : 1) / TFN(tet_shape)(&x, xv) : 0);
      /* Signed: outside (or flat) the distance; inside minus the depth. */
      if (x.inside) {
        const oracle_tri *nf = &x.face[x.nearest_face];
        oracle_sqrt(t, nf->d2);
        mpq_neg(t, t);
        e = oracle_err((double)sd, t, TC_EPS * s);
        TFN(check_closest)(rows, s, outs.sqdist, &outs, nf->d2, &nf->q, well);
        if (!x.boundary) TFN(check_feature)
        (rows, &outs, ORACLE_FACE, x.nearest_face, x.face_margin, s);
      } else {
        oracle_sqrt(t, x.d2);
        e = oracle_err((double)sd, t, TC_EPS * s);
        TFN(check_closest)(rows, s, outs.sqdist, &outs, x.d2, &x.q, well);
      }
      oracle_max(&rows->value, e);
      CHECK_MSG(e <= TC_BOUND, "signed distance %a: error %.3g eps S", (double)sd, e);
      if (h_case_failed()) {
        TFN(note_tet)(p, &tet);
        h_note("reported feature (%d, %d), exact (%d, %d)%s", out.feature.kind, out.feature.index,
               x.kind, x.index, x.flat ? ", flat" : "");
      }
    }
  }
  oracle_tet_clear(&x);
  q3_clear(&xp);
  for (i = 0; i < 4; ++i)
    q3_clear(&xv[i]);
  mpq_clears(fd2, t, NULL);
}

/* ------------------------------------------------------------------------ */
/* NaN and Inf in every input                                               */
/* ------------------------------------------------------------------------ */

/* Result of one kernel call from a flat array of inputs. */
typedef struct TFN(call_result) {
  PROX_REAL value;        /* returned squared or signed distance */
  RES out;                /* result struct, when the kernel has one */
  VEC vec;                /* barycentric coordinates */
  int ret;                /* int return (in_triangle, constructors) */
  PROX_FN(prox_plane) pl; /* constructed plane */
} TFN(call_result);

static VEC TFN(at)(const PROX_REAL *x) {
  return PROX_FN(prox_v3)(x[0], x[1], x[2]);
}

/* Calls kernel k on inputs x (point first, then the primitive's fields in
 * declaration order), with out = NULL when no_out is set. */
/* The primitives of test_nan by the registry's codes, from their fields
 * y in declaration order (TC_NIN_<prim> of them). */
static void TFN(nan_pl)(const PROX_REAL *y, PROX_FN(prox_plane) * x) {
  x->normal = TFN(at)(y);
  x->offset = y[3];
}
static void TFN(nan_ln)(const PROX_REAL *y, PROX_FN(prox_line) * x) {
  x->origin = TFN(at)(y);
  x->dir = TFN(at)(y + 3);
}
static void TFN(nan_ry)(const PROX_REAL *y, PROX_FN(prox_ray) * x) {
  x->origin = TFN(at)(y);
  x->dir = TFN(at)(y + 3);
  x->tmin = y[6];
  x->tmax = y[7];
}
static void TFN(nan_sg)(const PROX_REAL *y, PROX_FN(prox_segment) * x) {
  x->a = TFN(at)(y);
  x->b = TFN(at)(y + 3);
}
static void TFN(nan_tr)(const PROX_REAL *y, PROX_FN(prox_triangle) * x) {
  int i;
  for (i = 0; i < 3; ++i)
    x->v[i] = TFN(at)(y + 3 * i);
}
static void TFN(nan_rc)(const PROX_REAL *y, PROX_FN(prox_rectangle) * x) {
  x->center = TFN(at)(y);
  x->axis[0] = TFN(at)(y + 3);
  x->axis[1] = TFN(at)(y + 6);
  x->half[0] = y[9];
  x->half[1] = y[10];
}
static void TFN(nan_ab)(const PROX_REAL *y, PROX_FN(prox_aabb) * x) {
  x->min = TFN(at)(y);
  x->max = TFN(at)(y + 3);
}
static void TFN(nan_ob)(const PROX_REAL *y, PROX_FN(prox_obb) * x) {
  int i;
  x->center = TFN(at)(y);
  for (i = 0; i < 3; ++i) {
    x->axis[i] = TFN(at)(y + 3 + 3 * i);
    x->half[i] = y[12 + i];
  }
}
static void TFN(nan_sp)(const PROX_REAL *y, PROX_FN(prox_sphere) * x) {
  x->center = TFN(at)(y);
  x->radius = y[3];
}
static void TFN(nan_cp)(const PROX_REAL *y, PROX_FN(prox_capsule) * x) {
  x->a = TFN(at)(y);
  x->b = TFN(at)(y + 3);
  x->radius = y[6];
}
static void TFN(nan_te)(const PROX_REAL *y, PROX_FN(prox_tetrahedron) * x) {
  int i;
  for (i = 0; i < 4; ++i)
    x->v[i] = TFN(at)(y + 3 * i);
}

/* One K1 kernel of the registry on its primitive made from y. */
#define TC_KN_CALL(name, prim, degree, param_degree)                                               \
  case KN_##name: {                                                                                \
    TC_TYPE_##prim x_;                                                                             \
    TFN(nan_##prim)(y, &x_);                                                                       \
    r->value = PROX_FN(prox_##name)(p, &x_, o);                                                    \
    break;                                                                                         \
  }

static void TFN(call)(int k, const PROX_REAL *x, TFN(call_result) * r, int no_out) {
  VEC p = TFN(at)(x);
  const PROX_REAL *y = x + 3;
  RES *o;
  memset(r, 0, sizeof *r);
  o = no_out ? NULL : &r->out;
  switch (k) {
    PROX_KERNELS_K1(TC_KN_CALL)
  case KN_triangle_barycentric:
  case KN_point_in_triangle: {
    PROX_FN(prox_triangle) t;
    TFN(nan_tr)(y, &t);
    if (k == KN_triangle_barycentric) r->vec = PROX_FN(prox_triangle_barycentric)(p, &t);
    if (k == KN_point_in_triangle) r->ret = PROX_FN(prox_point_in_triangle)(p, &t);
    break;
  }
  case KN_plane_from_normal:
    r->ret = PROX_FN(prox_plane_from_normal)(p, x[3], &r->pl);
    break;
  case KN_plane_from_point_normal:
    r->ret = PROX_FN(prox_plane_from_point_normal)(p, TFN(at)(y), &r->pl);
    break;
  default:
    break;
  }
}
#undef TC_KN_CALL

/* NaN, +Inf and -Inf in each input in turn: NaN results (0 from the
 * predicates and constructors), feature NONE, never a crash (the sanitizer
 * build checks the rest). The interval of a ray may be infinite: there only
 * NaN must give NaN. Each kernel's finite inputs come from its own
 * generator, seeded by its name: its place in the registry changes no
 * kernel's inputs. */
static void TFN(test_nan)(void) {
  int k;
  for (k = 0; k < KN_COUNT; ++k) {
    oracle_rng g = oracle_rng_named(0xf00 + 2 - PROX_IS_DOUBLE, tc_kernel_name[k]);
    int nin = tc_kernel_inputs[k], c, j, b;
    for (c = 0; c < TC_NAN_CASES; ++c) {
      PROX_REAL x[18];
      for (j = 0; j < nin; ++j)
        x[j] = (PROX_REAL)oracle_rng_range(&g, -1, 1);
      if (k == KN_point_ray) x[9] = 0, x[10] = (PROX_REAL)INFINITY;
      for (j = 0; j < nin; ++j) {
        for (b = 0; b < 3; ++b) {
          PROX_REAL y[18],
              bad = b == 0 ? (PROX_REAL)NAN : (b == 1 ? (PROX_REAL)INFINITY : -(PROX_REAL)INFINITY);
          TFN(call_result) r, rn;
          int interval = k == KN_point_ray && j >= 9;
          memcpy(y, x, sizeof y);
          y[j] = bad;
          TFN(call)(k, y, &r, 0);
          TFN(call)(k, y, &rn, 1);
          h_case_begin();
          if (interval && b != 0) {
            CHECK_MSG(isnan(r.value) || r.value >= 0, "ray interval %a: %a", (double)bad,
                      (double)r.value);
            CHECK_MSG(isnan(rn.value) || rn.value >= 0, "out = NULL: ray interval %a: %a",
                      (double)bad, (double)rn.value);
          } else if (k == KN_point_in_triangle) {
            CHECK_MSG(r.ret == 0, "point_in_triangle %d", r.ret);
          } else if (k == KN_triangle_barycentric) {
            CHECK_MSG(isnan(r.vec.x) && isnan(r.vec.y) && isnan(r.vec.z),
                      "barycentric (%a, %a, %a)", (double)r.vec.x, (double)r.vec.y,
                      (double)r.vec.z);
          } else if (k == KN_plane_from_normal || k == KN_plane_from_point_normal) {
            CHECK_MSG(r.ret == 0 && r.pl.normal.x == 0 && r.pl.normal.y == 0 &&
                          r.pl.normal.z == 0 && r.pl.offset == 0,
                      "constructor returned %d, plane (%a, %a, %a), %a", r.ret,
                      (double)r.pl.normal.x, (double)r.pl.normal.y, (double)r.pl.normal.z,
                      (double)r.pl.offset);
          } else {
            CHECK_MSG(isnan(r.value) && isnan(r.out.sqdist) && isnan(r.out.point.x) &&
                          isnan(r.out.point.y) && isnan(r.out.point.z) &&
                          r.out.feature.kind == PROX_FEATURE_NONE,
                      "returned %a, sqdist %a, point (%a, %a, %a), feature %d", (double)r.value,
                      (double)r.out.sqdist, (double)r.out.point.x, (double)r.out.point.y,
                      (double)r.out.point.z, r.out.feature.kind);
            CHECK_MSG(isnan(rn.value), "out = NULL: returned %a", (double)rn.value);
          }
          if (h_case_failed())
            h_note("%s%s: input %d = %a", tc_kernel_name[k], PROX_IS_DOUBLE ? "" : "f", j,
                   (double)bad);
        }
      }
    }
  }
}

#undef VEC
#undef RES

#endif /* TEST_CLOSEST_TEMPLATE */
