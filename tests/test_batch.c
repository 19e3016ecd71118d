/* SPDX-License-Identifier: MIT */
/* Tests of the batch queries (prox/batch.h). Every instruction set this CPU
 * and build support, forced in turn with prox_simd_set(), must give the
 * scalar kernels' answers bit for bit: prox_point_triangle (called directly
 * here as the oracle) for the squared distance, the closest point, the
 * barycentrics and the feature, the index of the nearest triangle (ties to
 * the lowest index, the first NaN ending the search), and prox_point_aabb
 * likewise. The vector code evaluates the scalar kernels' operations in
 * their order without fused multiply-adds (both sides are compiled with
 * -ffp-contract=off), so equality is exact, NaN results included (both
 * return the same NaN).
 *
 * Inputs: uniform in [-1, 1]^3, large offset (centre ~1e6, size 1e3), tiny
 * (size 1e-8) and degenerate (collinear, coincident, sliver triangles, and
 * triangles whose angle at v[0] is near the scalar kernel's threshold for
 * its thin path; flat, zero-size, swapped boxes, signed zeros); n = 0, 1
 * and sizes around the vector widths (4, 8, 16); NaN and infinite input.
 * The test "threshold" sweeps triangles across that threshold: it fails if
 * the copy of the constant in src/simd/batch_simd.inl drifts from the scalar
 * kernel's.
 *
 *   test_batch [FILTER] [--scale=X] [--list] [--max-print=N]
 *
 * (tests/harness.h). Test names are "<level>/<test>"; each test runs both
 * precisions. The environment variable PROX_SIMD=scalar|avx2|avx512 caps
 * the levels tested (the default is all the CPU has).
 *
 * The per-precision bodies are written once: this file includes itself
 * twice with TEST_BATCH_TEMPLATE defined (double, then float). */
#ifndef TEST_BATCH_TEMPLATE

#include <prox/batch.h>

#include "../src/simd/batch_impl.h" /* the multi-point kernel (static library) */
#include "../src/simd/dispatch.h"
#include "harness.h"

#include "rng.h"

/* The n values of every batch call: 0, 1 and around 4, 8 and 16 lanes. */
static const size_t g_sizes[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,   15,  16,
                                 17, 23, 31, 32, 33, 64, 65, 100, 257, 1000};
#define NSIZES (sizeof g_sizes / sizeof g_sizes[0])
#define MAXN 1000

/* The level the current test runs at, for the failure notes. */
static const char *g_level_name = "?";

#define TEST_BATCH_TEMPLATE
#include <prox/detail/real_double.h>
#include "test_batch.c"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "test_batch.c"
#include <prox/detail/real_end.h>
#undef TEST_BATCH_TEMPLATE

/* ------------------------- tests, both precisions ------------------------ */

static void test_point_triangles_random(void) {
  body_point_triangles_random();
  body_point_triangles_randomf();
}

static void test_point_triangles_ties(void) {
  body_point_triangles_ties();
  body_point_triangles_tiesf();
}

static void test_point_triangles_nonfinite(void) {
  body_point_triangles_nonfinite();
  body_point_triangles_nonfinitef();
}

static void test_points_triangle(void) {
  body_points_triangle();
  body_points_trianglef();
}

static void test_points_triangles_each(void) {
  body_points_triangles_each();
  body_points_triangles_eachf();
}

static void test_points_triangle_nonfinite(void) {
  body_points_triangle_nonfinite();
  body_points_triangle_nonfinitef();
}

static void test_points_aabb(void) {
  body_points_aabb();
  body_points_aabbf();
}

static void test_threshold(void) {
  body_threshold();
  body_thresholdf();
}

/* The level API itself (run once, not per level). */
static void test_simd_levels(void) {
  int saved = prox_simd_level(), level;
  CHECK(saved >= PROX_SIMD_SCALAR && saved <= PROX_SIMD_AVX512);
  CHECK(prox_simd_set(PROX_SIMD_SCALAR) == 1);
  CHECK(prox_simd_level() == PROX_SIMD_SCALAR);
  CHECK(prox_simd_set(7) == 0);
  CHECK(prox_simd_set(-1) == 0);
  CHECK(prox_simd_level() == PROX_SIMD_SCALAR);
  for (level = PROX_SIMD_SCALAR; level <= PROX_SIMD_AVX512; ++level) {
    if (prox_simd_set(level)) {
      CHECK_INT_EQ(prox_simd_level(), level);
    } else {
      CHECK_INT_EQ(prox_simd_level(), PROX_SIMD_SCALAR);
    }
    prox_simd_set(PROX_SIMD_SCALAR);
  }
  CHECK(strcmp(prox_simd_name(PROX_SIMD_SCALAR), "scalar") == 0);
  CHECK(strcmp(prox_simd_name(PROX_SIMD_AVX2), "avx2") == 0);
  CHECK(strcmp(prox_simd_name(PROX_SIMD_AVX512), "avx512") == 0);
  CHECK(strcmp(prox_simd_name(42), "?") == 0);
  prox_simd_set(saved);
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*fn)(void);
  } tests[] = {
      {"point_triangles_random", test_point_triangles_random},
      {"point_triangles_ties", test_point_triangles_ties},
      {"point_triangles_nonfinite", test_point_triangles_nonfinite},
      {"points_triangle", test_points_triangle},
      {"points_triangles_each", test_points_triangles_each},
      {"points_triangle_nonfinite", test_points_triangle_nonfinite},
      {"points_aabb", test_points_aabb},
      {"threshold", test_threshold},
  };
  /* Names "<level>/<test>" must outlive their run. */
  static char names[3][sizeof tests / sizeof tests[0]][64];
  const char *env = getenv("PROX_SIMD");
  int level, initial, cap;
  size_t k;
  h_init(argc, argv);
  /* The first call chooses the level: the best the CPU has, capped by
   * PROX_SIMD. The levels tested are those up to it. */
  initial = prox_simd_level();
  cap = env && *env ? initial : PROX_SIMD_AVX512;
  if (!h_.list_only) {
    printf("# level at start: %s (PROX_SIMD=%s); testing:", prox_simd_name(initial),
           env ? env : "unset");
    for (level = PROX_SIMD_SCALAR; level <= cap; ++level)
      if (prox_simd_set(level)) printf(" %s", prox_simd_name(level));
    printf("\n");
    prox_simd_set(initial);
  }
  H_RUN(test_simd_levels);
  for (level = PROX_SIMD_SCALAR; level <= cap; ++level) {
    if (!prox_simd_set(level)) {
      if (!h_.list_only)
        printf("# %s: not available on this CPU or build, skipped\n", prox_simd_name(level));
      continue;
    }
    g_level_name = prox_simd_name(level);
    for (k = 0; k < sizeof tests / sizeof tests[0]; ++k) {
      snprintf(names[level][k], sizeof names[level][k], "%s/%s", g_level_name, tests[k].name);
      /* A test may change the level (none does): set it each time. */
      prox_simd_set(level);
      h_run(names[level][k], tests[k].fn);
    }
  }
  prox_simd_set(initial);
  return h_finish();
}

#else /* TEST_BATCH_TEMPLATE: the tests of one precision */

#define VEC PROX_FN(prox_vec3)
#define TRI PROX_FN(prox_triangle)
#define RES PROX_FN(prox_closest)
#define PREC (PROX_IS_DOUBLE ? "double" : "float")
#if PROX_IS_DOUBLE
#define NEXTAFTER nextafter
#else
#define NEXTAFTER nextafterf
#endif

/* The bits of two reals are equal (so -0 differs from +0; a NaN equals the
 * NaN of the same bits only). */
static int PROX_FN(same_bits)(PROX_REAL a, PROX_REAL b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* Two results equal bit for bit, field by field. */
static int PROX_FN(same_result)(const RES *a, const RES *b) {
  int k;
  if (!PROX_FN(same_bits)(a->point.x, b->point.x) || !PROX_FN(same_bits)(a->point.y, b->point.y) ||
      !PROX_FN(same_bits)(a->point.z, b->point.z) || !PROX_FN(same_bits)(a->sqdist, b->sqdist))
    return 0;
  for (k = 0; k < 4; ++k)
    if (!PROX_FN(same_bits)(a->param[k], b->param[k])) return 0;
  return a->feature.kind == b->feature.kind && a->feature.index == b->feature.index;
}

static void PROX_FN(note_result)(const char *what, const RES *r) {
  h_note("%s: point (%a, %a, %a) sqdist %a param (%a, %a, %a, %a) "
         "feature %d/%d",
         what, (double)r->point.x, (double)r->point.y, (double)r->point.z, (double)r->sqdist,
         (double)r->param[0], (double)r->param[1], (double)r->param[2], (double)r->param[3],
         r->feature.kind, r->feature.index);
}

static void PROX_FN(note_vec)(const char *what, VEC v) {
  h_note("%s = (%a, %a, %a)", what, (double)v.x, (double)v.y, (double)v.z);
}

static void PROX_FN(note_tri)(const TRI *t) {
  PROX_FN(note_vec)("v0", t->v[0]);
  PROX_FN(note_vec)("v1", t->v[1]);
  PROX_FN(note_vec)("v2", t->v[2]);
}

/* CHECK_BITS(a, b): two reals with the same bits. */
#define CHECK_BITS(a, b)                                                                           \
  CHECK_MSG(PROX_FN(same_bits)(a, b), "%s = %a and %s = %a differ in bits", #a, (double)(a), #b,   \
            (double)(b))

/* CHECK_BITS_OR_NAN(a, b): two reals with the same bits, or both NaN (of
 * any sign and payload). */
#define CHECK_BITS_OR_NAN(a, b)                                                                    \
  CHECK_MSG(PROX_FN(same_bits)(a, b) || ((a) != (a) && (b) != (b)),                                \
            "%s = %a and %s = %a differ in bits", #a, (double)(a), #b, (double)(b))

/* CHECK_RESULT(a, b): two results equal bit for bit; prints both if not. */
#define CHECK_RESULT(a, b)                                                                         \
  do {                                                                                             \
    if (!CHECK_MSG(PROX_FN(same_result)(a, b), "results %s and %s differ", #a, #b)) {              \
      PROX_FN(note_result)(#a, a);                                                                 \
      PROX_FN(note_result)(#b, b);                                                                 \
    }                                                                                              \
  } while (0)

static PROX_REAL PROX_FN(uni)(oracle_rng *s, double lo, double hi) {
  return (PROX_REAL)(lo + (hi - lo) * oracle_rng_unit(s));
}

static VEC PROX_FN(rvec)(oracle_rng *s, VEC center, double r) {
  return PROX_FN(prox_v3)((PROX_REAL)(center.x + PROX_FN(uni)(s, -r, r)),
                          (PROX_REAL)(center.y + PROX_FN(uni)(s, -r, r)),
                          (PROX_REAL)(center.z + PROX_FN(uni)(s, -r, r)));
}

/* The kinds of input: 0 uniform in [-1, 1]^3; 1 large offset (centre near
 * 1e6, size 1e3); 2 tiny (size 1e-8); 3 degenerate and ill-conditioned. */
#define NKINDS 4

static VEC PROX_FN(kind_center)(oracle_rng *s, int kind) {
  VEC zero = PROX_FN(prox_v3)(0, 0, 0);
  if (kind == 1) return PROX_FN(rvec)(s, PROX_FN(prox_v3)(1e6, -1e6, 5e5), 1e3);
  return kind == 2 ? PROX_FN(rvec)(s, zero, 1e-8) : zero;
}

static double PROX_FN(kind_size)(int kind) {
  return kind == 1 ? 1e3 : (kind == 2 ? 1e-8 : 1.0);
}

/* A random triangle of the given kind around center. Kind 3 draws a
 * collinear, coincident, all-equal or sliver triangle, or (three times in
 * seven) one whose angle at v[0] is near the scalar kernel's threshold for
 * its thin path. */
static TRI PROX_FN(rtri)(oracle_rng *s, int kind, VEC c) {
  double r = PROX_FN(kind_size)(kind);
  TRI t;
  int k;
  for (k = 0; k < 3; ++k)
    t.v[k] = PROX_FN(rvec)(s, c, r);
  if (kind == 3) {
    VEC a = t.v[0], b = t.v[1];
    VEC d = PROX_FN(prox_vsub)(b, a);
    PROX_REAL u = PROX_FN(uni)(s, -0.5, 1.5);
    unsigned which = (unsigned)(oracle_rng_next(s) % 7u);
    VEC perp = PROX_FN(prox_vcross)(d, PROX_FN(rvec)(s, c, 1.0));
    /* sin^2 of the angle at v[0] for the near-threshold case. */
    double sin2 = (PROX_IS_DOUBLE ? 1e-6 : 1e-3) * (0.25 + 1.5 * oracle_rng_unit(s));
    switch (which) {
    case 0: /* collinear */
      t.v[2] = PROX_FN(prox_vmadd)(a, u, d);
      break;
    case 1: /* two coincident vertices */
      t.v[1 + (oracle_rng_next(s) & 1u)] = t.v[0];
      break;
    case 2: /* one point */
      t.v[1] = t.v[2] = t.v[0];
      break;
    case 3: /* sliver: relative height 1e-12 (1e-6 in float) */
      t.v[2] = PROX_FN(prox_vmadd)(PROX_FN(prox_vmadd)(a, u, d),
                                   (PROX_REAL)(PROX_IS_DOUBLE ? 1e-12 : 1e-6) *
                                       PROX_FN(prox_vlen)(d) / PROX_FN(prox_vlen)(perp),
                                   perp);
      break;
    default: { /* angle at v[0] near the threshold */
      PROX_REAL h = (PROX_REAL)sqrt(sin2 / (1 - sin2));
      VEC n = PROX_FN(prox_vscale)(perp, PROX_FN(prox_vlen)(d) / PROX_FN(prox_vlen)(perp));
      t.v[2] =
          PROX_FN(prox_vadd)(a, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(d, (PROX_REAL)0.7),
                                                   PROX_FN(prox_vscale)(n, (PROX_REAL)0.7 * h)));
      break;
    }
    }
  }
  return t;
}

/* A point near a triangle, for the regions and their boundaries: w % 8 is
 * 0 a vertex (exactly), 1 above the face, 2 on the line of an edge (inside
 * or beyond its ends: the boundary of the edge's region), 3 on the plane
 * through an edge perpendicular to it at an end (a vertex region's
 * boundary), else random around it. Heights along the normal are random. */
static VEC PROX_FN(near_tri)(oracle_rng *s, const TRI *t, unsigned w, double r) {
  VEC e1 = PROX_FN(prox_vsub)(t->v[1], t->v[0]);
  VEC e2 = PROX_FN(prox_vsub)(t->v[2], t->v[0]);
  VEC n = PROX_FN(prox_vcross)(e1, e2);
  PROX_REAL u = PROX_FN(uni)(s, 0, 1), v = PROX_FN(uni)(s, 0, 1);
  PROX_REAL h = PROX_FN(uni)(s, -1, 1), len = PROX_FN(prox_vlen)(n);
  unsigned e = (unsigned)(oracle_rng_next(s) % 3u);
  VEC a = t->v[e], b = t->v[e == 2 ? 0 : e + 1], q;
  switch (w % 8u) {
  case 0:
    return a;
  case 1:
    if (u + v > 1) {
      u = 1 - u;
      v = 1 - v;
    }
    q = PROX_FN(prox_vmadd)(PROX_FN(prox_vmadd)(t->v[0], u, e1), v, e2);
    break;
  case 2:
    q = PROX_FN(prox_vmadd)(a, PROX_FN(uni)(s, -0.5, 1.5), PROX_FN(prox_vsub)(b, a));
    break;
  case 3: {
    /* a plus a direction perpendicular to the edge, in the plane. */
    VEC d = PROX_FN(prox_vsub)(b, a);
    VEC perp = PROX_FN(prox_vcross)(n, d);
    PROX_REAL pl = PROX_FN(prox_vlen)(perp);
    q = pl > 0 ? PROX_FN(prox_vmadd)(a, PROX_FN(uni)(s, -1, 1) * PROX_FN(prox_vlen)(d) / pl, perp)
               : a;
    break;
  }
  default: {
    VEC z = PROX_FN(prox_v3)(0, 0, 0);
    return PROX_FN(prox_vadd)(t->v[0], PROX_FN(rvec)(s, z, 2 * r));
  }
  }
  if (len > 0) q = PROX_FN(prox_vmadd)(q, h * PROX_FN(prox_vlen)(e1) / len, n);
  return q;
}

/* The oracle of prox_point_triangles: the scalar kernel in a loop; the
 * first NaN ends the search, else the strictly smallest distance wins, so
 * ties go to the lowest index. n == 0: +inf and SIZE_MAX. */
static PROX_REAL PROX_FN(ref_min)(VEC p, const TRI *t, size_t n, size_t *bi) {
  PROX_REAL best = PROX_INF;
  size_t i;
  *bi = SIZE_MAX;
  for (i = 0; i < n; ++i) {
    PROX_REAL d2 = PROX_FN(prox_point_triangle)(p, &t[i], NULL);
    if (d2 != d2) {
      *bi = i;
      return d2;
    }
    if (d2 < best) {
      best = d2;
      *bi = i;
    }
  }
  return best;
}

/* Structure-of-arrays copy of t[0..n) in buf (9 n reals). */
static PROX_FN(prox_triangle_soa) PROX_FN(to_soa)(const TRI *t, size_t n, PROX_REAL *buf) {
  PROX_FN(prox_triangle_soa) s;
  size_t i;
  int k;
  for (k = 0; k < 3; ++k) {
    PROX_REAL *x = buf + (size_t)(3 * k) * n, *y = x + n, *z = y + n;
    for (i = 0; i < n; ++i) {
      x[i] = t[i].v[k].x;
      y[i] = t[i].v[k].y;
      z[i] = t[i].v[k].z;
    }
    s.x[k] = x;
    s.y[k] = y;
    s.z[k] = z;
  }
  return s;
}

/* The result of prox_point_triangles for n == 0. */
static void PROX_FN(check_empty)(const RES *r) {
  CHECK(r->sqdist == PROX_INF);
  CHECK_INT_EQ(r->feature.kind, PROX_FEATURE_NONE);
  CHECK(r->point.x != r->point.x && r->point.y != r->point.y && r->point.z != r->point.z);
  CHECK(r->param[0] != r->param[0]);
}

/* prox_point_triangles and its SoA form on t[0..n) against the oracle, bit
 * for bit: distance, index and the full result. */
static void PROX_FN(check_point_triangles)(VEC p, const TRI *t, size_t n, PROX_REAL *soabuf) {
  size_t ref_i, got_i = 12345, soa_i = 12345;
  PROX_REAL ref = PROX_FN(ref_min)(p, t, n, &ref_i);
  PROX_FN(prox_triangle_soa) soa = PROX_FN(to_soa)(t, n, soabuf);
  RES got_r, soa_r, ref_r;
  PROX_REAL got = PROX_FN(prox_point_triangles)(p, t, n, &got_i, &got_r);
  PROX_REAL gs = PROX_FN(prox_point_triangles_soa)(p, &soa, n, &soa_i, &soa_r);
  CHECK_BITS(got, ref);
  CHECK_BITS(gs, ref);
  CHECK_INT_EQ(got_i, ref_i);
  CHECK_INT_EQ(soa_i, ref_i);
  if (n == 0) {
    PROX_FN(check_empty)(&got_r);
    PROX_FN(check_empty)(&soa_r);
  } else {
    PROX_REAL d = PROX_FN(prox_point_triangle)(p, &t[ref_i], &ref_r);
    CHECK_BITS(d, ref);
    CHECK_RESULT(&got_r, &ref_r);
    CHECK_RESULT(&soa_r, &ref_r);
  }
  /* The optional outputs may be NULL. */
  got = PROX_FN(prox_point_triangles)(p, t, n, NULL, NULL);
  CHECK_BITS(got, ref);
  got = PROX_FN(prox_point_triangles_soa)(p, &soa, n, NULL, NULL);
  CHECK_BITS(got, ref);
  got = PROX_FN(prox_point_triangles)(p, t, n, &got_i, NULL);
  CHECK_INT_EQ(got_i, ref_i);
  if (n > 0) {
    /* The level's kernel for several points at once (the tree walks'
     * packets; internal, src/simd/batch_impl.h): for each point the
     * oracle's distance and index. The points: p, a vertex, p again, two
     * points between p and a vertex, and one far off, so that a block's
     * triangle part is shared by points in every region. */
    void (*multi)(const VEC *, int, const PROX_FN(prox_triangle_soa) *, size_t, PROX_REAL *,
                  size_t *) = prox_simd_table_get()->batch->PROX_FN(point_triangles_soa_multi);
    if (multi) {
      VEC q[8];
      PROX_REAL mb[8];
      size_t mi[8];
      int np, k;
      /* np = 1, 3, 8 */
      q[0] = p;
      q[1] = t[n / 2].v[1];
      q[2] = p;
      q[3] = PROX_FN(prox_vmadd)(p, (PROX_REAL)0.5, PROX_FN(prox_vsub)(t[0].v[2], p));
      q[4] = PROX_FN(prox_vmadd)(p, (PROX_REAL)0.999, PROX_FN(prox_vsub)(t[n - 1].v[0], p));
      q[5] = PROX_FN(prox_vadd)(p, PROX_FN(prox_v3)(3, -2, 1));
      q[6] = t[0].v[0];
      q[7] =
          PROX_FN(prox_vmadd)(t[0].v[1], (PROX_REAL)0.25, PROX_FN(prox_vsub)(t[0].v[2], t[0].v[1]));
      for (np = 1; np <= 8; np += np == 1 ? 2 : 5) {
        multi(q, np, &soa, n, mb, mi);
        for (k = 0; k < np; ++k) {
          size_t ri;
          PROX_REAL rd = PROX_FN(ref_min)(q[k], t, n, &ri);
          CHECK_BITS_OR_NAN(mb[k], rd);
          CHECK_INT_EQ(mi[k], ri);
        }
      }
    }
  }
}

static void PROX_FN(body_point_triangles_random)(void) {
  oracle_rng s = oracle_rng_make(42);
  TRI *t = (TRI *)malloc(MAXN * sizeof *t);
  PROX_REAL *buf = (PROX_REAL *)malloc(9 * MAXN * sizeof *buf);
  long rounds = h_count(80), big_rounds = h_count(8), round;
  int kind;
  size_t z, i;
  if (!t || !buf) abort();
  for (kind = 0; kind < NKINDS; ++kind) {
    for (z = 0; z < NSIZES; ++z) {
      size_t n = g_sizes[z];
      for (round = 0; round < (n > 100 ? big_rounds : rounds); ++round) {
        VEC c = PROX_FN(kind_center)(&s, kind);
        double r = PROX_FN(kind_size)(kind);
        VEC p;
        for (i = 0; i < n; ++i)
          t[i] = PROX_FN(rtri)(&s, kind, c);
        /* Points near the triangles, at a vertex, on the face of one. */
        if (n > 0 && round % 5 == 4)
          p = t[n / 2].v[round % 3];
        else if (n > 0 && round % 5 == 3)
          p = PROX_FN(near_tri)(&s, &t[n / 3], (unsigned)round, r);
        else
          p = PROX_FN(rvec)(&s, c, (double)(round % 3 + 1) * r);
        h_case_begin();
        PROX_FN(check_point_triangles)(p, t, n, buf);
        if (h_case_failed())
          h_note("%s %s kind %d n %zu round %ld", g_level_name, PREC, kind, n, round);
      }
    }
  }
  free(t);
  free(buf);
}

static void PROX_FN(body_point_triangles_ties)(void) {
  /* n = 1..40, then sizes around 256 and 512, far beyond a block of
   * lanes (ties across many blocks: the earliest index wins). */
  static const size_t big[] = {255, 256, 257, 300, 511, 512, 513, 600};
  static TRI t[600];
  static PROX_REAL buf[9 * 600];
  oracle_rng s = oracle_rng_make(7);
  VEC zero = PROX_FN(prox_v3)(0, 0, 0);
  size_t i, n, got_i, ri;
  for (ri = 1; ri <= 40 + sizeof big / sizeof big[0]; ++ri) {
    n = ri <= 40 ? ri : big[ri - 41];
    TRI base = PROX_FN(rtri)(&s, 0, zero);
    VEC p = PROX_FN(rvec)(&s, zero, 1.0);
    size_t first = (size_t)(oracle_rng_next(&s) % n);
    PROX_FN(prox_triangle_soa) soa;
    PROX_REAL d, ref = PROX_FN(prox_point_triangle)(p, &base, NULL);
    h_case_begin();
    /* Far triangles, then copies of base from index first on. */
    for (i = 0; i < n; ++i) {
      t[i] = base;
      if (i < first) {
        t[i].v[0].x += 10;
        t[i].v[1].x += 10;
        t[i].v[2].x += 10;
      }
    }
    d = PROX_FN(prox_point_triangles)(p, t, n, &got_i, NULL);
    CHECK_INT_EQ(got_i, first);
    CHECK_BITS(d, ref);
    soa = PROX_FN(to_soa)(t, n, buf);
    d = PROX_FN(prox_point_triangles_soa)(p, &soa, n, &got_i, NULL);
    CHECK_INT_EQ(got_i, first);
    CHECK_BITS(d, ref);
    /* The same triangle at every index; and the same triangle with its
     * vertices rotated (another evaluation, maybe other bits) at odd
     * indices: either way the lowest index holding the minimum. */
    for (i = 0; i < n; ++i)
      t[i] = base;
    PROX_FN(prox_point_triangles)(p, t, n, &got_i, NULL);
    CHECK_INT_EQ(got_i, 0);
    for (i = 1; i < n; i += 2) {
      t[i].v[0] = base.v[1];
      t[i].v[1] = base.v[2];
      t[i].v[2] = base.v[0];
    }
    {
      size_t ref_i;
      PROX_REAL r = PROX_FN(ref_min)(p, t, n, &ref_i);
      d = PROX_FN(prox_point_triangles)(p, t, n, &got_i, NULL);
      CHECK_INT_EQ(got_i, ref_i);
      CHECK_BITS(d, r);
      soa = PROX_FN(to_soa)(t, n, buf);
      d = PROX_FN(prox_point_triangles_soa)(p, &soa, n, &got_i, NULL);
      CHECK_INT_EQ(got_i, ref_i);
      CHECK_BITS(d, r);
    }
    if (h_case_failed()) h_note("%s %s ties n %zu first %zu", g_level_name, PREC, n, first);
  }
}

static void PROX_FN(body_point_triangles_nonfinite)(void) {
  oracle_rng s = oracle_rng_make(99);
  TRI t[70];
  PROX_REAL buf[9 * 70];
  VEC zero = PROX_FN(prox_v3)(0, 0, 0);
  size_t i, n, k, bi;
  RES r;
  PROX_REAL d;
  PROX_FN(prox_triangle_soa) soa = PROX_FN(to_soa)(t, 0, buf);
  /* n == 0: +inf, no index, the empty result (tris may be NULL). */
  d = PROX_FN(prox_point_triangles)(zero, NULL, 0, &bi, &r);
  CHECK(d == PROX_INF);
  CHECK(bi == SIZE_MAX);
  PROX_FN(check_empty)(&r);
  d = PROX_FN(prox_point_triangles_soa)(zero, &soa, 0, &bi, &r);
  CHECK(d == PROX_INF);
  CHECK(bi == SIZE_MAX);
  PROX_FN(check_empty)(&r);
  for (n = 1; n <= 70; n += 3) {
    for (i = 0; i < n; ++i)
      t[i] = PROX_FN(rtri)(&s, 0, zero);
    for (k = 0; k < 6; ++k) {
      size_t at = (size_t)(oracle_rng_next(&s) % n), at2 = (size_t)(oracle_rng_next(&s) % n);
      PROX_REAL bad = k % 3 == 0 ? PROX_NAN : (k % 3 == 1 ? PROX_INF : -PROX_INF);
      VEC p = PROX_FN(rvec)(&s, zero, 1.0);
      TRI keep = t[at], keep2 = t[at2];
      size_t ref_i;
      PROX_REAL ref;
      RES ref_r;
      h_case_begin();
      if (k == 3) {
        p.y = PROX_NAN;
      } else if (k == 4) {
        p.x = PROX_INF;
      } else {
        t[at].v[oracle_rng_next(&s) % 3].z = bad;
        /* A second bad triangle, maybe earlier. */
        if (k == 5) t[at2].v[0].x = PROX_NAN;
      }
      ref = PROX_FN(ref_min)(p, t, n, &ref_i);
      CHECK(ref != ref);
      d = PROX_FN(prox_point_triangles)(p, t, n, &bi, &r);
      CHECK(d != d);
      CHECK_BITS(d, ref);
      CHECK_INT_EQ(bi, ref_i);
      PROX_FN(prox_point_triangle)(p, &t[ref_i], &ref_r);
      CHECK(r.sqdist != r.sqdist);
      CHECK_INT_EQ(r.feature.kind, PROX_FEATURE_NONE);
      CHECK_RESULT(&r, &ref_r);
      soa = PROX_FN(to_soa)(t, n, buf);
      d = PROX_FN(prox_point_triangles_soa)(p, &soa, n, &bi, &r);
      CHECK_BITS(d, ref);
      CHECK_INT_EQ(bi, ref_i);
      CHECK_RESULT(&r, &ref_r);
      if (h_case_failed())
        h_note("%s %s nonfinite n %zu at %zu, %zu kind %zu", g_level_name, PREC, n, at, at2, k);
      t[at] = keep;
      t[at2] = keep2;
    }
  }
}

/* prox_points_triangle(pts, n, tri) with each combination of outputs,
 * against the scalar kernel point by point, bit for bit. */
static void PROX_FN(check_points_triangle)(const VEC *pts, size_t n, const TRI *tri, PROX_REAL *sq,
                                           RES *out) {
  size_t i;
  /* Sentinels past the end must stay untouched. */
  sq[n] = 77;
  out[n].sqdist = 77;
  PROX_FN(prox_points_triangle)(pts, n, tri, sq, out);
  CHECK(sq[n] == 77 && out[n].sqdist == 77);
  for (i = 0; i < n; ++i) {
    RES ref;
    PROX_REAL d = PROX_FN(prox_point_triangle)(pts[i], tri, &ref);
    CHECK_BITS(sq[i], d);
    CHECK_BITS(ref.sqdist, d);
    CHECK_RESULT(&out[i], &ref);
    if (h_case_failed()) {
      h_note("point %zu of %zu:", i, n);
      PROX_FN(note_vec)("p", pts[i]);
      PROX_FN(note_tri)(tri);
      return;
    }
  }
  /* Each output alone. */
  memset(sq, 0, n * sizeof *sq);
  PROX_FN(prox_points_triangle)(pts, n, tri, sq, NULL);
  for (i = 0; i < n; ++i)
    CHECK_BITS(sq[i], PROX_FN(prox_point_triangle)(pts[i], tri, NULL));
  memset(out, 0, n * sizeof *out);
  PROX_FN(prox_points_triangle)(pts, n, tri, NULL, out);
  for (i = 0; i < n; ++i) {
    RES ref;
    PROX_FN(prox_point_triangle)(pts[i], tri, &ref);
    CHECK_RESULT(&out[i], &ref);
  }
  /* Neither: a no-op. */
  PROX_FN(prox_points_triangle)(pts, n, tri, NULL, NULL);
}

static void PROX_FN(body_points_triangle)(void) {
  oracle_rng s = oracle_rng_make(1234);
  VEC *pts = (VEC *)malloc(MAXN * sizeof *pts);
  PROX_REAL *sq = (PROX_REAL *)malloc((MAXN + 1) * sizeof *sq);
  RES *out = (RES *)malloc((MAXN + 1) * sizeof *out);
  long rounds = h_count(60), big_rounds = h_count(12), round;
  int kind;
  size_t z, i;
  if (!pts || !sq || !out) abort();
  for (kind = 0; kind < NKINDS; ++kind) {
    for (z = 0; z < NSIZES; ++z) {
      size_t n = g_sizes[z];
      for (round = 0; round < (n > 100 ? big_rounds : rounds); ++round) {
        VEC c = PROX_FN(kind_center)(&s, kind);
        double r = PROX_FN(kind_size)(kind);
        TRI t = PROX_FN(rtri)(&s, kind, c);
        for (i = 0; i < n; ++i)
          pts[i] = PROX_FN(near_tri)(&s, &t, (unsigned)oracle_rng_next(&s), r);
        h_case_begin();
        PROX_FN(check_points_triangle)(pts, n, &t, sq, out);
        if (h_case_failed())
          h_note("%s %s kind %d n %zu round %ld", g_level_name, PREC, kind, n, round);
      }
    }
  }
  free(pts);
  free(sq);
  free(out);
}

/* The level's kernel with a triangle per point (internal, the tree walks'
 * seeds and answers; src/simd/batch_impl.h): point i against triangle i,
 * distance and full result bit for bit the scalar kernel's, every kind of
 * input, with some non-finite points and triangles. */
static void PROX_FN(body_points_triangles_each)(void) {
  void (*each)(const VEC *, size_t, const TRI *, PROX_REAL *, RES *) =
      prox_simd_table_get()->batch->PROX_FN(points_triangles_each);
  oracle_rng s = oracle_rng_make(4321);
  VEC pts[70];
  TRI t[70];
  PROX_REAL sq[71];
  RES out[71];
  long rounds = h_count(20), round;
  int kind;
  size_t z, i;
  for (kind = 0; kind < NKINDS; ++kind)
    for (z = 1; z < NSIZES && g_sizes[z] <= 70; ++z) {
      size_t n = g_sizes[z];
      for (round = 0; round < rounds; ++round) {
        VEC c = PROX_FN(kind_center)(&s, kind);
        double r = PROX_FN(kind_size)(kind);
        for (i = 0; i < n; ++i) {
          unsigned w = (unsigned)(oracle_rng_next(&s) % 16u);
          t[i] = PROX_FN(rtri)(&s, kind, c);
          pts[i] = PROX_FN(near_tri)(&s, &t[i], (unsigned)oracle_rng_next(&s), r);
          if (w == 0) pts[i].x = PROX_NAN;
          if (w == 1) t[i].v[1].z = PROX_INF;
        }
        h_case_begin();
        sq[n] = 77;
        out[n].sqdist = 77;
        each(pts, n, t, sq, out);
        CHECK(sq[n] == 77 && out[n].sqdist == 77);
        for (i = 0; i < n; ++i) {
          RES ref;
          PROX_REAL d = PROX_FN(prox_point_triangle)(pts[i], &t[i], &ref);
          CHECK_BITS_OR_NAN(sq[i], d);
          CHECK_RESULT(&out[i], &ref);
        }
        memset(sq, 0, n * sizeof *sq);
        each(pts, n, t, sq, NULL);
        for (i = 0; i < n; ++i)
          CHECK_BITS_OR_NAN(sq[i], PROX_FN(prox_point_triangle)(pts[i], &t[i], NULL));
        if (h_case_failed()) {
          h_note("%s %s kind %d n %zu round %ld", g_level_name, PREC, kind, n, round);
          return;
        }
      }
    }
}

static void PROX_FN(body_points_triangle_nonfinite)(void) {
  oracle_rng s = oracle_rng_make(555);
  VEC pts[70];
  PROX_REAL sq[71];
  RES out[71];
  VEC zero = PROX_FN(prox_v3)(0, 0, 0);
  size_t n, i;
  int k;
  /* n == 0: nothing is read or written (pts and tri may be NULL). */
  sq[0] = 5;
  PROX_FN(prox_points_triangle)(NULL, 0, NULL, sq, out);
  CHECK(sq[0] == 5);
  for (n = 1; n <= 70; n += 3) {
    for (k = 0; k < 4; ++k) {
      TRI t = PROX_FN(rtri)(&s, 0, zero);
      h_case_begin();
      for (i = 0; i < n; ++i) {
        unsigned w = (unsigned)(oracle_rng_next(&s) % 8u);
        pts[i] = PROX_FN(near_tri)(&s, &t, (unsigned)oracle_rng_next(&s), 1.0);
        if (w == 0) pts[i].x = PROX_NAN;
        if (w == 1) pts[i].z = PROX_INF;
        if (w == 2) pts[i].y = -PROX_INF;
      }
      /* k: finite triangle; a NaN, an infinite, a huge vertex. */
      if (k == 1) t.v[oracle_rng_next(&s) % 3].y = PROX_NAN;
      if (k == 2) t.v[oracle_rng_next(&s) % 3].x = PROX_INF;
      if (k == 3) t.v[2] = PROX_FN(prox_vscale)(t.v[2], PROX_REAL_MAX / 2);
      PROX_FN(check_points_triangle)(pts, n, &t, sq, out);
      for (i = 0; i < n; ++i) {
        int finite =
            pts[i].x - pts[i].x == 0 && pts[i].y - pts[i].y == 0 && pts[i].z - pts[i].z == 0;
        if (!finite || k == 1 || k == 2) CHECK(sq[i] != sq[i]);
      }
      if (h_case_failed()) h_note("%s %s nonfinite n %zu kind %d", g_level_name, PREC, n, k);
    }
  }
}

/* prox_points_aabb against the scalar kernel, point by point, bit for bit. */
static void PROX_FN(body_points_aabb)(void) {
  oracle_rng s = oracle_rng_make(4321);
  VEC *pts = (VEC *)malloc(MAXN * sizeof *pts);
  PROX_REAL *sq = (PROX_REAL *)malloc((MAXN + 1) * sizeof *sq);
  RES *out = (RES *)malloc((MAXN + 1) * sizeof *out);
  long rounds = h_count(30), big_rounds = h_count(6), round;
  int kind;
  size_t z, i;
  if (!pts || !sq || !out) abort();
  PROX_FN(prox_points_aabb)(NULL, 0, NULL, sq, out); /* n == 0: a no-op */
  for (kind = 0; kind < NKINDS; ++kind) {
    for (z = 0; z < NSIZES; ++z) {
      size_t n = g_sizes[z];
      for (round = 0; round < (n > 100 ? big_rounds : rounds); ++round) {
        VEC c = PROX_FN(kind_center)(&s, kind);
        double r = PROX_FN(kind_size)(kind);
        PROX_FN(prox_aabb) box;
        box.min = PROX_FN(rvec)(&s, c, r);
        box.max = PROX_FN(rvec)(&s, c, r);
        /* Kind 3: flat, zero-size, swapped, signed-zero and non-finite
         * boxes. */
        if (kind == 3) {
          switch (round % 8) {
          case 0:
            box.max.y = box.min.y;
            break;
          case 1:
            box.max = box.min;
            break;
          case 2: /* corners with signed zeros */
            box.min.x = (PROX_REAL)-0.0;
            box.max.x = 0;
            box.min.y = 0;
            box.max.z = (PROX_REAL)-0.0;
            break;
          case 3:
            box.min.x = PROX_NAN;
            break;
          case 4:
            box.max.z = PROX_INF;
            break;
          case 5:
            box.min.y = -PROX_INF;
            box.max.y = PROX_INF;
            break;
          default: /* swapped on some axes, as drawn */
            break;
          }
        }
        h_case_begin();
        for (i = 0; i < n; ++i) {
          unsigned w = (unsigned)(oracle_rng_next(&s) % 16u);
          pts[i] = PROX_FN(rvec)(&s, c, 2 * r);
          if (w == 0) pts[i] = box.min;
          if (w == 1) pts[i].y = PROX_NAN;
          if (w == 2) pts[i].x = -PROX_INF;
          if (w == 3) pts[i].x = box.max.x;
          if (w == 4) pts[i].z = box.min.z;
          if (w == 5) pts[i].x = (PROX_REAL)-0.0;
          if (w == 6) pts[i].x = 0;
          if (w == 7) pts[i] = PROX_FN(prox_v3)(0, (PROX_REAL)-0.0, 0);
        }
        sq[n] = 77;
        out[n].sqdist = 77;
        PROX_FN(prox_points_aabb)(pts, n, &box, sq, out);
        CHECK(sq[n] == 77 && out[n].sqdist == 77);
        for (i = 0; i < n; ++i) {
          RES ref;
          PROX_REAL d = PROX_FN(prox_point_aabb)(pts[i], &box, &ref);
          CHECK_BITS(sq[i], d);
          /* The distance-only call makes its NaN by arithmetic: any NaN. */
          CHECK_BITS_OR_NAN(PROX_FN(prox_point_aabb)(pts[i], &box, NULL), d);
          CHECK_RESULT(&out[i], &ref);
          if (pts[i].x != pts[i].x || pts[i].y != pts[i].y) CHECK(d != d);
        }
        memset(out, 0, n * sizeof *out);
        PROX_FN(prox_points_aabb)(pts, n, &box, NULL, out);
        for (i = 0; i < n; ++i) {
          RES ref;
          PROX_FN(prox_point_aabb)(pts[i], &box, &ref);
          CHECK_RESULT(&out[i], &ref);
        }
        memset(sq, 0, n * sizeof *sq);
        PROX_FN(prox_points_aabb)(pts, n, &box, sq, NULL);
        for (i = 0; i < n; ++i)
          CHECK_BITS_OR_NAN(sq[i], PROX_FN(prox_point_aabb)(pts[i], &box, NULL));
        if (h_case_failed()) {
          h_note("%s %s kind %d n %zu round %ld", g_level_name, PREC, kind, n, round);
          PROX_FN(note_vec)("box.min", box.min);
          PROX_FN(note_vec)("box.max", box.max);
        }
      }
    }
  }
  free(pts);
  free(sq);
  free(out);
}

/* The threshold of the scalar kernel's thin path: triangles on both sides of
 * n2 > PROX_WIDE_SIN2 * d11 * d22 (prox/detail/real_double.h and
 * real_float.h keep the constant private; src/simd/batch_simd.inl has a copy).
 * The vector code must send every triangle below the scalar threshold to the scalar
 * kernel: were its copy smaller than the scalar constant, the triangles between
 * the two would get the plain formulas in the vector code and the thin path's
 * in the scalar kernel, and their face points (a + s e1 + t e2 in wide
 * arithmetic there, a projection along the normal here) would differ in
 * bits. So: triangles whose sin^2 at v[0] sweeps a factor 100 either side
 * of the expected value, then the few representable triangles around the
 * boundary itself, each against points over its face, edges and vertices,
 * bit for bit. (A copy larger than the scalar constant sends more triangles
 * to the scalar kernel: slower, never different, and not visible here.) */
static void PROX_FN(body_threshold)(void) {
  /* The expected value of PROX_WIDE_SIN2 (a third copy): where the
   * boundary search below looks. */
  const double expect = PROX_IS_DOUBLE ? 1e-6 : 1e-3;
  enum { NSWEEP = 240, NNEAR = 2 * 40, NEDGE = 16, NPTS = 48 };
  static TRI tris[NSWEEP + NNEAR + 2 * NEDGE];
  static PROX_REAL buf[9 * (NSWEEP + NNEAR + 2 * NEDGE)];
  VEC pts[NPTS];
  PROX_REAL sq[NPTS + 1];
  RES out[NPTS + 1];
  oracle_rng s = oracle_rng_make(31337);
  int nt = 0, k, below = 0, above = 0;
  size_t i;
  VEC a = PROX_FN(prox_v3)((PROX_REAL)0.25, (PROX_REAL)-0.5, (PROX_REAL)0.125);
  VEC dir = PROX_FN(prox_v3)((PROX_REAL)0.6, (PROX_REAL)0.8, 0);
  VEC up = PROX_FN(prox_v3)((PROX_REAL)-0.8, (PROX_REAL)0.6, 0);
  PROX_REAL lo, hi;
  /* v0 = a, v1 = a + dir, v2 = a + 0.7 dir + h up: sin^2 at v0 is about
   * (h / 0.7)^2. The sweep: factors 10^-2 to 10^2 in steps of 4 %, then
   * 1 -/+ 2^-j for j = 1 .. 40 (drifts of every size). */
  for (k = 0; k < NSWEEP + NNEAR; ++k) {
    double sin2 =
        k < NSWEEP ? expect * pow(10.0, -2.0 + 4.0 * k / (NSWEEP - 1))
                   : expect * (1 + ((k - NSWEEP) % 2 ? 1 : -1) * ldexp(1.0, -1 - (k - NSWEEP) / 2));
    PROX_REAL h = (PROX_REAL)(0.7 * sqrt(sin2 / (1 - sin2)));
    tris[nt].v[0] = a;
    tris[nt].v[1] = PROX_FN(prox_vadd)(a, dir);
    tris[nt].v[2] =
        PROX_FN(prox_vadd)(a, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(dir, (PROX_REAL)0.7),
                                                 PROX_FN(prox_vscale)(up, h)));
    ++nt;
  }
  /* The boundary in h, by bisection on the scalar kernel's own test
   * evaluated here with the expected constant, then NEDGE representable
   * heights either side of it. */
  lo = (PROX_REAL)(0.7 * sqrt(expect) / 2);
  hi = (PROX_REAL)(0.7 * sqrt(expect) * 2);
  for (k = 0; k < 200 && NEXTAFTER(lo, hi) < hi; ++k) {
    PROX_REAL mid = lo + (hi - lo) / 2;
    VEC v2 = PROX_FN(prox_vadd)(a, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(dir, (PROX_REAL)0.7),
                                                      PROX_FN(prox_vscale)(up, mid)));
    VEC e1 = PROX_FN(prox_vsub)(PROX_FN(prox_vadd)(a, dir), a);
    VEC e2 = PROX_FN(prox_vsub)(v2, a);
    PROX_REAL d11 = PROX_FN(prox_vdot)(e1, e1), d22 = PROX_FN(prox_vdot)(e2, e2);
    PROX_REAL d12 = PROX_FN(prox_vdot)(e1, e2), scale = d11 * d22;
    if (scale - d12 * d12 > (PROX_REAL)expect * scale)
      hi = mid;
    else
      lo = mid;
  }
  {
    PROX_REAL h = lo;
    for (k = 0; k < NEDGE; ++k)
      h = NEXTAFTER(h, (PROX_REAL)0);
    for (k = 0; k < 2 * NEDGE; ++k) {
      VEC e1, e2;
      PROX_REAL d11, d22, d12, scale;
      tris[nt].v[0] = a;
      tris[nt].v[1] = PROX_FN(prox_vadd)(a, dir);
      tris[nt].v[2] =
          PROX_FN(prox_vadd)(a, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(dir, (PROX_REAL)0.7),
                                                   PROX_FN(prox_vscale)(up, h)));
      e1 = PROX_FN(prox_vsub)(tris[nt].v[1], a);
      e2 = PROX_FN(prox_vsub)(tris[nt].v[2], a);
      d11 = PROX_FN(prox_vdot)(e1, e1);
      d22 = PROX_FN(prox_vdot)(e2, e2);
      d12 = PROX_FN(prox_vdot)(e1, e2);
      scale = d11 * d22;
      if (scale - d12 * d12 > (PROX_REAL)expect * scale)
        ++above;
      else
        ++below;
      ++nt;
      h = NEXTAFTER(h, (PROX_REAL)1);
    }
  }
  /* The boundary triangles straddle the threshold. */
  CHECK(above > 0 && below > 0);
  for (k = 0; k < nt; ++k) {
    const TRI *t = &tris[k];
    VEC e1 = PROX_FN(prox_vsub)(t->v[1], t->v[0]);
    VEC e2 = PROX_FN(prox_vsub)(t->v[2], t->v[0]);
    VEC n = PROX_FN(prox_vcross)(e1, e2);
    h_case_begin();
    for (i = 0; i < NPTS; ++i) {
      if (i < NPTS / 2) {
        /* Over the face, off the plane by up to the triangle's height. */
        PROX_REAL u = PROX_FN(uni)(&s, 0, 1), v = PROX_FN(uni)(&s, 0, 1);
        if (u + v > 1) {
          u = 1 - u;
          v = 1 - v;
        }
        pts[i] =
            PROX_FN(prox_vmadd)(PROX_FN(prox_vmadd)(PROX_FN(prox_vmadd)(t->v[0], u, e1), v, e2),
                                PROX_FN(uni)(&s, -1, 1) / PROX_FN(prox_vlen)(e1), n);
      } else {
        pts[i] = PROX_FN(near_tri)(&s, t, (unsigned)oracle_rng_next(&s), 1.0);
      }
    }
    PROX_FN(check_points_triangle)(pts, NPTS, t, sq, out);
    /* The leaf query: this triangle alone, and (below) all of them. */
    for (i = 0; i < NPTS; i += 7)
      PROX_FN(check_point_triangles)(pts[i], t, 1, buf);
    if (h_case_failed()) h_note("%s %s threshold triangle %d of %d", g_level_name, PREC, k, nt);
  }
  for (i = 0; i < 8; ++i) {
    VEC p = PROX_FN(near_tri)(&s, &tris[oracle_rng_next(&s) % (uint64_t)nt],
                              (unsigned)oracle_rng_next(&s), 1.0);
    PROX_FN(check_point_triangles)(p, tris, (size_t)nt, buf);
  }
}

#undef VEC
#undef TRI
#undef RES
#undef PREC
#undef CHECK_BITS
#undef CHECK_RESULT
#undef NKINDS
#undef NEXTAFTER

#endif /* TEST_BATCH_TEMPLATE */
