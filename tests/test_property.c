/* SPDX-License-Identifier: MIT */
/* test_property: properties that every public kernel must have, on random
 * configurations spread over the whole documented domain of the kernel,
 * where the other tests use a few fixed magnitudes (test_domain: 2^+-500
 * and 2^+-60; test_scale: inputs in [-1, 1]).
 *
 * Asserted, for every kernel of closest.h, raycast.h, overlap.h and
 * contact.h in both precisions:
 * (a) finite input in the domain gives finite output: the returned value
 *     with a result and with out = NULL, and every real field of the result
 *     (prox_closest, prox_pair, the prox_rayhit of a hit); every value,
 *     gradient and Hessian entry of a contact kernel; a valid contact type;
 *     a cast's hit at t in [tmin, tmax], the same hit with out = NULL;
 * (b) scaling, as test_scale asserts it: the input with every length
 *     (coordinates, radii, half extents, offsets, directions) multiplied by
 *     2^k, k random with |k| <= 200 (float 20), both configurations exact
 *     and in the domain, gives
 *     - where test_scale asserts it bit for bit (both configurations in its
 *       range: every nonzero length between 2^-240 and 2^200, float 2^-24
 *       and 2^20, unscaled normals and axes above 2^-40, float 2^-4),
 *       every real output multiplied by 2^(d k), d its degree (2 for
 *       squared distances, 1 for points, 0 for parameters, barycentrics
 *       and ray parameters), bit for bit, and the same features, hits and
 *       answers; where one side lies below the normal range, the two
 *       within 16 units of the subnormal grid at the smaller scale
 *       (test_scale's rule for the contact kernels);
 *     - everywhere (test_scale's check out to the domain's ends): the K1
 *       and K2 values within twice the error bound of each other (16 eps
 *       max(S, d)^2, signed distances 16 eps max(S, d), positive ones
 *       by their squares), and the same
 *       overlap answers. Bit-for-bit mismatches outside test_scale's range
 *       are counted (column far*) but are not failures: the headers
 *       promise no more there;
 *     - for the contact kernels, only where the configuration meets
 *       contact.h's condition on the shape of the formula the kernel
 *       evaluates (D / h <= 2^448, float 2^48, D and h those of the shape
 *       formed by the rounded differences of its vertices; a typed kernel's
 *       formula is its type's, the classifier's for AUTO, at 1 and at 2^k;
 *       where h = 0 the fallback formula's), as for (a): a configuration
 *       outside it is counted (column outside), and a non-finite or
 *       unscaled result there too (column shape*), but is not a failure.
 *       D / h is decided exactly (long double where its rounding cannot
 *       change the answer, else GMP), independently of the kernels. The
 *       edge-edge mollifier likewise, with contact.h's condition on its
 *       threshold (max(|ea|, |eb|)^2 <= 2^1016 eps_x, float 2^120, at 1
 *       and at 2^k: the derivatives are not of degree 0);
 * (c) known answers: the overlap tests report touching sets (a shared
 *     vertex, a triangle vertex in the box, a sphere centered on a vertex,
 *     boxes with one center) as overlapping and the AABB test equals the
 *     comparison of the intervals; prox_point_in_triangle holds for a
 *     vertex.
 *
 * Domains, as the headers state them: nonzero magnitudes of one
 * configuration within 2^500 (float 2^60) of one another, no subnormal
 * input, and: K1, K2 and the overlap tests 2^-500..2^500 (float 2^+-60),
 * the exact triangle-triangle overlap test 2^+-300 with a spread of 2^300;
 * ray casts 2^-300..2^300 (float 2^+-40) with a direction of length about
 * 1, and 2^+-500 (float 2^+-60) with a direction of the coordinates' scale
 * (only these are scaled); contact kernels 2^-500..2^500 (float 2^+-40),
 * the edge-edge mollifier and its threshold 2^+-250 (float 2^+-28). (The
 * mode "subnormal" below is kept for exploring: no family runs it.)
 *
 * Every coordinate, radius, half extent and offset is a random sign times a
 * random significand times 2^e, e drawn by the configuration's mode:
 *   full       e independent, uniform over a window of the domain's
 *              exponents as wide as its spread;
 *   span40     e at most 40 below a random scale of the configuration;
 *   span10     the same, at most 10 below;
 *   uniform    values uniform in [-2^c, 2^c], c random per configuration;
 *   edge       e within 3 of the scales where a product of d = 2, 3, 4, 6
 *              or 8 coordinates underflows or overflows (the smallest
 *              subnormal's and the overflow threshold's exponent over d,
 *              within the domain): every coordinate near the small one,
 *              near the large one, or each near either;
 *   subnormal  e independent down to the smallest subnormal (outside the
 *              domains; no family runs it).
 * Each configuration also gets a random set of degeneracies, each with
 * probability 1/4: zero coordinates (+0 and -0), equal coordinates (within a
 * point and across points), shared points (shared end points and vertices,
 * zero lengths), points on the segment or in the triangle of others
 * (collinear, coplanar), a pair of parallel edges, zero radii and half
 * extents. Directions of the casts have length about 1 with components of
 * any magnitude (zero and subnormal included); box axes are rotations or
 * signed permutations.
 *
 * Failures are counted per kernel and precision, by property, mode and
 * degeneracy; the first few of each kernel are printed with the input as C
 * declarations in hex floats (ready to paste as a regression case); each
 * test ends with a table of every kernel it ran.
 *
 *   test_property [FILTER] [--seed=N] [--scale=X] [--list] [--max-print=N]
 *
 * --seed: the seed of the configurations (default 1); --max-print: the
 * failures printed per kernel and precision (default 3). The
 * per-precision bodies are written once: this file includes itself twice
 * with TEST_PROPERTY_TEMPLATE defined (double, then float). */
#ifndef TEST_PROPERTY_TEMPLATE

#include <prox/contact.h>
#include <prox/prox.h>

#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "contact_shape.h"
#include "kernels.h"

#include "rng.h"

/* Configurations per test and precision (scaled by --scale). */
#define TP_CASES 200000

/* Modes of the exponents of a configuration (see the top of the file). */
enum { TP_FULL, TP_SPAN40, TP_SPAN10, TP_UNIFORM, TP_EDGE, TP_SUBNORMAL, TP_NMODE };
static const char *const tp_mode_names[TP_NMODE] = {"full",    "span40", "span10",
                                                    "uniform", "edge",   "subnormal"};

/* Degeneracies of a configuration (bits). */
enum { TP_ZERO = 1, TP_EQUAL = 2, TP_SHARED = 4, TP_LINE = 8, TP_PARALLEL = 16, TP_FLAT = 32 };
#define TP_NDEG 6
static const char *const tp_deg_names[TP_NDEG] = {"zero",      "equal",    "shared",
                                                  "collinear", "parallel", "flat"};

/* Kinds of failure (bits), see the top of the file: (a) non-finite output;
 * (b) not scaled bit for bit with both configurations in test_scale's range
 * (scale), or outside it (far: counted, not a failure); a K1 or K2 value at
 * 2^k not within twice the error bound of the one at 1 (bound); (c) a wrong
 * answer; a contact kernel non-finite or not scaled on a configuration
 * outside contact.h's condition on the shape (shape: counted, not a
 * failure). */
enum { TP_NONFINITE = 1, TP_SCALE = 2, TP_FAR = 4, TP_BOUND = 8, TP_ANSWER = 16, TP_SHAPE = 32 };
#define TP_NKIND 6
static const char *const tp_kind_names[TP_NKIND] = {
    "non-finite output",
    "not scaled by 2^k",
    "not scaled by 2^k (far)",
    "beyond twice the bound at 2^k",
    "wrong answer",
    "non-finite or not scaled outside the shape condition"};

/* The shapes of the primitives for printing: r a real, v a vector, and
 * parentheses an array member (see tp_print). */
#define TP_SHAPE_vec3 "rrr"
#define TP_SHAPE_plane "vr"
#define TP_SHAPE_line "vv"
#define TP_SHAPE_ray "vvrr"
#define TP_SHAPE_segment "vv"
#define TP_SHAPE_triangle "(vvv)"
#define TP_SHAPE_rectangle "v(vv)(rr)"
#define TP_SHAPE_aabb "vv"
#define TP_SHAPE_obb "v(vvv)(rrr)"
#define TP_SHAPE_sphere "vr"
#define TP_SHAPE_capsule "vvr"
#define TP_SHAPE_tetrahedron "(vvvv)"

/* One kernel in one precision: its evaluations and failures. */
typedef struct tp_stat {
  const char *name;
  long cases;            /* configurations evaluated */
  long failed;           /* configurations with any failure */
  long kind[TP_NKIND];   /* by kind of failure */
  long mode[TP_NMODE];   /* failed configurations by mode */
  long deg[TP_NDEG + 1]; /* by degeneracy present (last: none) */
  long part[2];          /* by part of the domain (tp_part_names) */
  long outside;          /* configurations outside the shape condition */
  struct tp_stat *next;  /* the kernels of the running test */
} tp_stat;

static uint64_t tp_seed = 1;
static long tp_cap = 3;
static tp_stat *tp_head, **tp_tail = &tp_head;

/* Names of the two parts of a domain that the running test tells apart in
 * tp_case.part (the ray casts' unit and scaled directions), or NULL. */
static const char *tp_part_names[2];

/* Configurations of the running test with a direction brought into the
 * domain by tp_in_domain (printed under its table). */
static long tp_flushed;

/* A narrower spread of the magnitudes of one configuration than the
 * domain's, for a kernel whose domain says so (0: none). */
static int tp_win = 0;

/* The configuration being evaluated: its mode, degeneracies, the exponent
 * k of its scaled copy (0: none), whether it or its copy lies outside
 * test_scale's range (far, see tp_pick_k), S a power of two above its
 * magnitudes, the part of the domain, and whether it lies outside the
 * condition on the shape of the kernel being evaluated (out, contact
 * kernels only). */
static struct {
  int mode;
  unsigned deg;
  int k, far, part, out;
  double S;
} tp_case;

/* The exponents of one configuration's values: magnitudes 2^e (1 + f) with
 * e in [c - w, c]; for TP_UNIFORM, values uniform in (-2^c, 2^c). */
typedef struct tp_gen {
  int mode, c, w;
  int low, high, side; /* TP_EDGE: the two scales, which of them (2: both) */
  int lo, hi;          /* the domain's exponents */
} tp_gen;

/* A uniform integer in [lo, hi]. */
static int tp_int(oracle_rng *s, int lo, int hi) {
  return lo + (int)(oracle_rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* The exponents of a configuration of the given mode over the magnitudes
 * below 2^hi, down to 2^lo (mode subnormal: down to 2^sub, the smallest
 * subnormal; 2^top is the overflow threshold). */
static tp_gen tp_gen_make(oracle_rng *s, int mode, int lo, int hi, int sub, int top, int win) {
  static const int degree[5] = {2, 3, 4, 6, 8};
  tp_gen g;
  int d = degree[tp_int(s, 0, 4)];
  g.mode = mode;
  g.c = hi - 1;
  g.w = hi - 1 - (mode == TP_SUBNORMAL ? sub : lo);
  /* TP_EDGE: the scales at which a product of d coordinates underflows or
   * overflows, all coordinates near the one, near the other, or each near
   * either. */
  g.low = sub / d;
  g.high = top / d;
  g.side = tp_int(s, 0, 2);
  g.lo = lo;
  g.hi = hi;
  /* The domain's spread: the magnitudes of one configuration within 2^win
   * of each other (both scales of TP_EDGE only when they are). */
  if (mode == TP_EDGE && g.side == 2 &&
      (g.high < hi ? g.high : hi - 1) - (g.low > lo ? g.low : lo) > win)
    g.side = tp_int(s, 0, 1);
  if (mode == TP_FULL && g.w > win) {
    g.w = win;
    g.c = tp_int(s, lo + g.w, hi - 1);
  }
  if (mode == TP_SPAN40 || mode == TP_SPAN10) {
    g.w = mode == TP_SPAN40 ? 40 : 10;
    g.c = tp_int(s, lo + g.w, hi - 1);
  } else if (mode == TP_UNIFORM) {
    /* c at least 10 above lo: values below 2^lo are then rare. */
    g.w = 0;
    g.c = tp_int(s, lo + 10, hi);
  }
  return g;
}

/* One value of g with a significand of mant bits (in double; a value below
 * the normal range of the precision rounds when converted). */
static double tp_value(oracle_rng *s, const tp_gen *g, int mant) {
  uint64_t r = oracle_rng_next(s);
  double f;
  int e = g->c - (int)(r % (uint64_t)(g->w + 1));
  if (g->mode == TP_UNIFORM) return ldexp(oracle_rng_range(s, -1, 1), g->c);
  if (g->mode == TP_EDGE) {
    /* Within 2^+-3 of the scale, and in the domain. */
    int high = g->side == 2 ? (int)(oracle_rng_next(s) & 1) : g->side;
    e = (high ? g->high : g->low) + tp_int(s, -3, 3);
    e = e < g->lo ? g->lo : (e > g->hi - 1 ? g->hi - 1 : e);
  }
  f = 1 + ldexp((double)(oracle_rng_next(s) >> (64 - mant)), -mant);
  f = ldexp(f, e);
  return r >> 63 ? -f : f;
}

/* Records one evaluation of a kernel: bad is 0 or the failure kinds.
 * Returns 1 when the failure is to be printed (the caller then prints the
 * input). */
static int tp_record(tp_stat *st, const char *name, int bad) {
  int i;
  if (!st->name) {
    st->name = name;
    *tp_tail = st;
    tp_tail = &st->next;
  }
  ++st->cases;
  if (tp_case.out) ++st->outside;
  if (bad == TP_FAR) ++st->kind[2];
  if (bad == TP_SHAPE) ++st->kind[5];
  if (!bad || bad == TP_FAR || bad == TP_SHAPE) return 0;
  ++st->failed;
  for (i = 0; i < TP_NKIND; ++i)
    if (bad & (1 << i)) ++st->kind[i];
  ++st->mode[tp_case.mode];
  for (i = 0; i < TP_NDEG; ++i)
    if (tp_case.deg & (1u << i)) ++st->deg[i];
  if (!tp_case.deg) ++st->deg[TP_NDEG];
  ++st->part[tp_case.part];
  if (st->failed > tp_cap) return 0;
  printf("  FAIL %s:", name);
  for (i = 0; i < TP_NKIND; ++i)
    if (bad & (1 << i)) printf(" %s;", tp_kind_names[i]);
  printf(" (%s%smode %s, degeneracies", tp_part_names[0] ? tp_part_names[tp_case.part] : "",
         tp_part_names[0] ? ", " : "", tp_mode_names[tp_case.mode]);
  for (i = 0; i < TP_NDEG; ++i)
    if (tp_case.deg & (1u << i)) printf(" %s", tp_deg_names[i]);
  printf("%s, k = %d)\n", tp_case.deg ? "" : " none", tp_case.k);
  return 1;
}

/* Prints the table of the kernels of the running test (one line each, the
 * failures by kind, mode and degeneracy), counts each as one check, and
 * starts a new table. */
static void tp_summary(void) {
  tp_stat *st;
  int i, shape = 0;
  for (st = tp_head; st; st = st->next)
    shape |= st->outside != 0;
  printf("  %-42s %7s %7s %7s %7s %7s %7s %7s", "kernel", "cases", "failed", "nonfin", "scale",
         "far*", "bound", "answer");
  if (shape) printf(" %7s %7s", "outside", "shape*");
  printf("\n");
  for (st = tp_head; st; st = st->next) {
    printf("  %-42s %7ld %7ld", st->name, st->cases, st->failed);
    for (i = 0; i < TP_NKIND - 1; ++i)
      printf(" %7ld", st->kind[i]);
    if (shape) printf(" %7ld %7ld", st->outside, st->kind[TP_NKIND - 1]);
    for (i = 0; i < TP_NMODE; ++i)
      if (st->mode[i]) printf(" %s:%ld", tp_mode_names[i], st->mode[i]);
    for (i = 0; i <= TP_NDEG; ++i)
      if (st->deg[i]) printf(" %s:%ld", i < TP_NDEG ? tp_deg_names[i] : "none", st->deg[i]);
    for (i = 0; i < 2 && tp_part_names[0]; ++i)
      if (st->part[i]) printf(" %s:%ld", tp_part_names[i], st->part[i]);
    printf("\n");
  }
  printf("  (far*: not scaled bit for bit outside test_scale's range, counted "
         "but not a failure;\n");
  if (shape)
    printf("   outside: configurations outside contact.h's condition on the "
           "shape of the\n   kernel; shape*: those of them with a non-finite "
           "or unscaled result, counted\n   but not a failure;\n");
  printf("   the failed configurations by mode, degeneracy and part follow "
         "each line)\n");
  printf("  directions with a component below the domain, set to zero: %ld\n", tp_flushed);
  tp_flushed = 0;
  for (st = tp_head; st; st = st->next)
    CHECK_MSG(st->failed == 0, "%s: %ld of %ld configurations failed", st->name, st->failed,
              st->cases);
  tp_head = NULL;
  tp_tail = &tp_head;
}

/* ---- contact.h's condition on the shape (an exact oracle) */

/* The formulas of contact.h with a condition on the shape, as the kernels
 * see them: the differences of the argument vertices that the formula
 * forms, each coordinate rounded once to the working precision (given as
 * doubles: float values convert exactly), d[0..2], and the vertices they
 * place relative to the formula's base vertex:
 *   TP_PL     point-line (p; e0 e1): d = e1 - e0, p - e0; vertices 0, d0,
 *             d1; h the edge length |d0|;
 *   TP_PLANE  point-plane (p; t0 t1 t2): d = t1 - t0, t2 - t0, p - t0;
 *             vertices 0, d0, d1, d2; h = |d0 x d1| / the longest edge;
 *   TP_LL     line-line (ea0 ea1; eb0 eb1): d = ea1 - ea0, eb1 - eb0,
 *             ea0 - eb0; vertices 0 (eb0), d1 (eb1), d2 (ea0), d2 + d0
 *             (ea1); h = |d0 x d1| / max(|d0|, |d1|).
 * D is the largest distance between the vertices. */
enum { TP_PL = CS_PL, TP_PLANE = CS_PLANE, TP_LL = CS_LL };

/* Integers of one formula (the coordinates times a common power of two)
 * and temporaries. */
#define TP_NZ 40
static mpz_t tp_z[TP_NZ];
static int tp_z_ready;

/* z = x 2^-lo, an integer (lo at most the exponent of x's last bit). */
static void tp_z_set(mpz_ptr z, double x, int lo) {
  int e;
  double m = frexp(x, &e); /* x = m 2^e, 2^53 m an integer */
  mpz_set_d(z, ldexp(m, 53));
  mpz_mul_2exp(z, z, (mp_bitcnt_t)(e - 53 - lo));
}

/* r = |a - b|^2 for integer points a, b (3 each); t a temporary. */
static void tp_z_d2(mpz_ptr r, mpz_t *a, mpz_t *b, mpz_ptr t) {
  int c;
  mpz_set_ui(r, 0);
  for (c = 0; c < 3; ++c) {
    mpz_sub(t, a[c], b[c]);
    mpz_addmul(r, t, t);
  }
}

/* tp_shape_in's answer, exactly: D^2 M <= 4^q N with h^2 = N / M. */
static int tp_shape_exact_in(int f, const double (*d)[3], int q) {
  mpz_t *V = tp_z, *e1 = tp_z + 12, *e2 = tp_z + 15, *n = tp_z + 18;
  mpz_ptr D = tp_z[21], M = tp_z[22], N = tp_z[23], t = tp_z[24], u = tp_z[25];
  int nv = f == TP_PL ? 3 : 4, lo = 1 << 20, i, j, c, k = 0;
  if (!tp_z_ready) {
    for (i = 0; i < TP_NZ; ++i)
      mpz_init(tp_z[i]);
    tp_z_ready = 1;
  }
  for (i = 0; i < 3; ++i)
    for (c = 0; c < 3; ++c)
      if (d[i][c] != 0) {
        int e;
        (void)frexp(d[i][c], &e);
        lo = e - 53 < lo ? e - 53 : lo;
      }
  /* The vertices V[0..nv-1] and the two edges e1, e2. */
  for (c = 0; c < 3; ++c) {
    mpz_set_ui(V[c], 0);
    tp_z_set(e1[c], d[0][c], lo);
    tp_z_set(e2[c], d[1][c], lo);
    if (f == TP_LL) {
      mpz_set(V[3 + c], e2[c]);
      tp_z_set(V[6 + c], d[2][c], lo);
      mpz_add(V[9 + c], V[6 + c], e1[c]);
    } else {
      mpz_set(V[3 + c], e1[c]);
      if (f == TP_PL)
        mpz_set(V[6 + c], e2[c]);
      else {
        mpz_set(V[6 + c], e2[c]);
        tp_z_set(V[9 + c], d[2][c], lo);
      }
    }
  }
  mpz_set_ui(D, 0);
  for (i = 0; i < nv; ++i)
    for (j = i + 1; j < nv; ++j) {
      tp_z_d2(u, V + 3 * i, V + 3 * j, t);
      if (mpz_cmp(u, D) > 0) mpz_set(D, u);
    }
  if (f == TP_PL) {
    /* h = |e1|; a zero-length edge is point-point: no condition. */
    tp_z_d2(N, V + 3, V, t);
    if (mpz_sgn(N) == 0) return 1;
    mpz_set_ui(M, 1);
  } else {
    for (c = 0; c < 3; ++c) {
      int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      mpz_mul(n[c], e1[c1], e2[c2]);
      mpz_submul(n[c], e1[c2], e2[c1]);
    }
    mpz_mul(N, n[0], n[0]);
    mpz_addmul(N, n[1], n[1]);
    mpz_addmul(N, n[2], n[2]);
    /* M: the larger squared edge (line-line), the longest edge of the
     * triangle (k: 0 t0 t1, 1 t1 t2, 2 t2 t0, the first on ties). */
    tp_z_d2(M, e1, V, t);
    if (f == TP_PLANE) {
      tp_z_d2(u, e2, e1, t);
      if (mpz_cmp(u, M) > 0) mpz_set(M, u), k = 1;
    }
    tp_z_d2(u, e2, V, t);
    if (mpz_cmp(u, M) > 0) {
      mpz_set(M, u);
      k = f == TP_PLANE ? 2 : 1;
    }
    if (mpz_sgn(N) == 0) {
      /* h = 0: the fallback. Zero area: the line of the longest edge
       * (point-point if all vertices coincide). Parallel lines: ea0
       * against line b, or eb0 against line a where eb is zero. */
      if (mpz_sgn(M) == 0) return 1;
      if (f == TP_PLANE) return -1 - k;
      tp_z_d2(u, e2, V, t);
      return mpz_sgn(u) ? -1 : -2;
    }
  }
  mpz_mul(D, D, M);
  mpz_mul_2exp(N, N, (mp_bitcnt_t)(2 * q));
  return mpz_cmp(D, N) <= 0;
}

#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP >= 16384
/* |a - b|^2 in long double. */
static long double tp_ld_d2(const long double *a, const long double *b) {
  long double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
  return x * x + y * y + z * z;
}
#endif

/* Whether formula f on the rounded differences d (see TP_PL) meets
 * contact.h's condition D / h <= 2^q: 1 if so, 0 if not, and where h = 0
 * exactly, the fallback whose condition holds instead: -1 - k for a
 * triangle of zero area (the line of its edge k: 0 t0 t1, 1 t1 t2, 2
 * t2 t0), -1 for parallel lines (ea0 against line b), -2 for parallel
 * lines with eb = 0 (eb0 against line a). Long double decides where its
 * rounding cannot change the answer (D^2 and a line's h^2 within a
 * relative 2^-58, a cross product's h^2 within 2^-27 where the sine of
 * its angle exceeds 2^-30); elsewhere GMP, exactly. */
static int tp_shape_in(int f, const double (*d)[3], int q) {
#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP >= 16384
  long double V[4][3], D = 0, N, M, r, lim = ldexpl(1, 2 * q), tol;
  int nv = f == TP_PL ? 3 : 4, i, j, c;
  for (c = 0; c < 3; ++c) {
    V[0][c] = 0;
    V[1][c] = f == TP_LL ? d[1][c] : d[0][c];
    V[2][c] = f == TP_LL ? d[2][c] : d[1][c];
    V[3][c] = f == TP_LL ? (long double)d[2][c] + d[0][c] : d[2][c];
  }
  for (i = 0; i < nv; ++i)
    for (j = i + 1; j < nv; ++j) {
      long double s = tp_ld_d2(V[i], V[j]);
      D = s > D ? s : D;
    }
  if (f == TP_PL) {
    if (d[0][0] == 0 && d[0][1] == 0 && d[0][2] == 0) return 1;
    N = tp_ld_d2(V[1], V[0]);
    M = 1;
    tol = 0x1p-40L;
  } else {
    long double a[3], b[3], n[3], la, lb;
    for (c = 0; c < 3; ++c) {
      a[c] = d[0][c];
      b[c] = d[1][c];
    }
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
    N = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    la = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    lb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    if (!(N > 0x1p-60L * la * lb)) return tp_shape_exact_in(f, d, q);
    M = la > lb ? la : lb;
    if (f == TP_PLANE) {
      long double l = tp_ld_d2(a, b);
      M = l > M ? l : M;
    }
    tol = 0x1p-20L;
  }
  r = D * M / N;
  if (r <= lim * (1 - tol)) return 1;
  if (r >= lim * (1 + tol)) return 0;
#endif
  return tp_shape_exact_in(f, d, q);
}

/* Whether the edge-edge mollifier's derivatives on edges ea, eb (rounded
 * differences) with threshold eps meet contact.h's condition
 * max(|ea|, |eb|)^2 <= 2^q eps (or eps <= 0: no derivative): long double
 * with a margin, else exactly (GMP). */
static int tp_moll_in(const double *ea, const double *eb, double eps, int q) {
  long double la = 0, lb = 0, lim;
  mpq_t a, b, t;
  int c, in;
  if (!(eps > 0)) return 1;
  for (c = 0; c < 3; ++c) {
    la += (long double)ea[c] * ea[c];
    lb += (long double)eb[c] * eb[c];
  }
  la = la > lb ? la : lb;
  lim = ldexpl((long double)eps, q);
#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP >= 16384
  if (la <= lim * (1 - 0x1p-40L)) return 1;
  if (la >= lim * (1 + 0x1p-40L)) return 0;
#endif
  mpq_inits(a, b, t, NULL);
  for (c = 0; c < 3; ++c) {
    mpq_set_d(t, ea[c]);
    mpq_mul(t, t, t);
    mpq_add(a, a, t);
    mpq_set_d(t, eb[c]);
    mpq_mul(t, t, t);
    mpq_add(b, b, t);
  }
  if (mpq_cmp(b, a) > 0) mpq_swap(a, b);
  mpq_set_d(t, eps);
  if (q >= 0)
    mpq_mul_2exp(t, t, (mp_bitcnt_t)q);
  else
    mpq_div_2exp(t, t, (mp_bitcnt_t)-q);
  in = mpq_cmp(a, t) <= 0;
  mpq_clears(a, b, t, NULL);
  return in;
}

/* The kind of a scaling failure of the configuration. */
#define TP_SCALED (tp_case.far ? TP_FAR : TP_SCALE)

/* The casts and overlap tests of the registry (tests/kernels.h) by their
 * place in it: TP_K3_<name> is also the index of the cast's ray and of its
 * generator in body_ray. */
#define TP_K3_ENUM(name, prim, solid) TP_K3_##name,
enum { PROX_KERNELS_K3(TP_K3_ENUM) TP_K3_COUNT };
#undef TP_K3_ENUM
#define TP_OV_ENUM(name, first, second) TP_OV_##name,
enum { PROX_KERNELS_OVERLAP(TP_OV_ENUM) TP_OV_COUNT };
#undef TP_OV_ENUM
#define TP_K4_ENUM(name, coords, degree, verts, type, bound, gen, shape) TP_K4_##name,
enum { PROX_KERNELS_K4(TP_K4_ENUM) TP_K4_COUNT };
#undef TP_K4_ENUM

#define TEST_PROPERTY_TEMPLATE
#include <prox/detail/real_double.h>
#define TP_SUF ""
#define TP_MANT 52
#define TP_SUB (-1074)  /* exponent of the smallest subnormal */
#define TP_NORM (-1022) /* exponent of the smallest normal */
#define TP_E 500        /* K1, K2, overlap, casts with scaled directions */
#define TP_E3 300       /* casts with unit directions */
#define TP_E4 500       /* contact */
#define TP_EM 250       /* mollifier */
#define TP_Q4 448       /* contact.h's condition on the shape: D / h */
#define TP_QM 1016      /* on the mollifier's threshold: L^2 / eps */
#define TP_KMAX 200
#define TP_SPAN 40
#define TP_WIN 500 /* the domain's spread in one configuration */
#include "test_property.c"
#undef TP_WIN
#undef TP_SUF
#undef TP_MANT
#undef TP_SUB
#undef TP_NORM
#undef TP_E
#undef TP_E3
#undef TP_E4
#undef TP_EM
#undef TP_Q4
#undef TP_QM
#undef TP_KMAX
#undef TP_SPAN
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#define TP_SUF "f"
#define TP_MANT 23
#define TP_SUB (-149)
#define TP_NORM (-126)
#define TP_E 60
#define TP_E3 40
#define TP_E4 40
#define TP_EM 28
#define TP_Q4 48
#define TP_QM 120
#define TP_KMAX 20
#define TP_SPAN 4
#define TP_WIN 60
#include "test_property.c"
#undef TP_WIN
#undef TP_SUF
#undef TP_MANT
#undef TP_SUB
#undef TP_NORM
#undef TP_E
#undef TP_E3
#undef TP_E4
#undef TP_EM
#undef TP_Q4
#undef TP_QM
#undef TP_KMAX
#undef TP_SPAN
#include <prox/detail/real_end.h>
#undef TEST_PROPERTY_TEMPLATE

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

static void test_overlap(void) {
  body_overlap();
  body_overlapf();
}

static void test_contact(void) {
  body_contact();
  body_contactf();
}

static void test_mollifier(void) {
  body_mollifier();
  body_mollifierf();
}

int main(int argc, char **argv) {
  int i, n = 0;
  /* --seed=N is this test's own option; the rest go to the harness (which
   * also reads --max-print, here per kernel). */
  for (i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "--seed=", 7) == 0) {
      tp_seed = strtoull(argv[i] + 7, NULL, 0);
      continue;
    }
    if (strncmp(argv[i], "--max-print=", 12) == 0) tp_cap = atol(argv[i] + 12);
    argv[n++] = argv[i];
  }
  h_init(n, argv);
  printf("seed %llu\n", (unsigned long long)tp_seed);
  H_RUN(test_point);
  H_RUN(test_pair);
  H_RUN(test_ray);
  H_RUN(test_overlap);
  H_RUN(test_contact);
  H_RUN(test_mollifier);
  return h_finish();
}

#else /* TEST_PROPERTY_TEMPLATE: one precision */

#define VEC PROX_FN(prox_vec3)
#define TFN(name) PROX_FN(name)

/* ---- inputs */

static PROX_REAL TFN(tp_real)(oracle_rng *s, const tp_gen *g) {
  return (PROX_REAL)tp_value(s, g, TP_MANT);
}

static VEC TFN(tp_vec)(oracle_rng *s, const tp_gen *g) {
  VEC v;
  v.x = TFN(tp_real)(s, g);
  v.y = TFN(tp_real)(s, g);
  v.z = TFN(tp_real)(s, g);
  return v;
}

static PROX_REAL *TFN(tp_axis)(VEC *v, int i) {
  return i == 0 ? &v->x : (i == 1 ? &v->y : &v->z);
}

/* a + t (b - a): between a and b, no overflow in the domain. */
static VEC TFN(tp_lerp)(VEC a, VEC b, PROX_REAL t) {
  return PROX_FN(prox_v3)(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z));
}

/* A fraction in [0, 1]: 1/2 or uniform. */
static PROX_REAL TFN(tp_frac)(oracle_rng *s) {
  return oracle_rng_next(s) % 4 == 0 ? PROX_R(0.5) : (PROX_REAL)oracle_rng_unit(s);
}

/* Every coordinate of v below 2^e in magnitude. */
static int TFN(tp_below)(VEC v, int e) {
  double m = ldexp(1.0, e);
  return fabs((double)v.x) < m && fabs((double)v.y) < m && fabs((double)v.z) < m;
}

/* An index in [0, n) other than j. */
static int TFN(tp_other)(oracle_rng *s, int n, int j) {
  int i = tp_int(s, 0, n - 2);
  return i < j ? i : i + 1;
}

/* A direction derived from two points (half their difference) within the
 * domain of g: a nonzero component below 2^lo becomes a zero of its sign.
 * Two points one unit apart have a difference below the domain, where the
 * headers promise nothing: a float line direction of 2^-84 has a square
 * that underflows to 0, so that the line is taken as its origin (as for a
 * zero direction) while its copy at 2^20 is a line. Counted in
 * tp_flushed. */
static VEC TFN(tp_in_domain)(VEC d, const tp_gen *g) {
  double m = ldexp(1.0, g->lo);
  int i, any = 0;
  if (g->mode == TP_SUBNORMAL) return d;
  for (i = 0; i < 3; ++i) {
    PROX_REAL *c = TFN(tp_axis)(&d, i);
    if (*c != 0 && fabs((double)*c) < m) {
      *c = PROX_COPYSIGN(0, *c);
      any = 1;
    }
  }
  tp_flushed += any;
  return d;
}

/* Applies the degeneracies deg to the n points v and m scalars r (lengths:
 * radii, half extents), magnitudes below 2^hi. */
static void TFN(tp_degenerate)(oracle_rng *s, VEC *v, int n, PROX_REAL *r, int m, unsigned deg,
                               int hi) {
  int i, j, c, rep;
  if (deg & TP_ZERO) {
    for (i = 0; i < n; ++i)
      for (c = 0; c < 3; ++c)
        if (oracle_rng_next(s) % 4 == 0) {
          PROX_REAL *x = TFN(tp_axis)(&v[i], c);
          *x = PROX_COPYSIGN(0, *x);
        }
    for (i = 0; i < m; ++i)
      if (oracle_rng_next(s) % 4 == 0) r[i] = PROX_COPYSIGN(0, r[i]);
  }
  if (deg & TP_EQUAL)
    for (rep = tp_int(s, 1, 3); rep > 0; --rep) {
      i = tp_int(s, 0, n - 1);
      j = tp_int(s, 0, n - 1);
      *TFN(tp_axis)(&v[j], tp_int(s, 0, 2)) = *TFN(tp_axis)(&v[i], tp_int(s, 0, 2));
    }
  if (deg & TP_SHARED)
    for (rep = tp_int(s, 1, 2); rep > 0; --rep) {
      j = tp_int(s, 0, n - 1);
      v[j] = v[TFN(tp_other)(s, n, j)];
    }
  if (deg & TP_LINE)
    for (rep = tp_int(s, 1, 2); rep > 0; --rep) {
      int a, b;
      PROX_REAL t = TFN(tp_frac)(s);
      j = tp_int(s, 0, n - 1);
      a = TFN(tp_other)(s, n, j);
      b = TFN(tp_other)(s, n, j);
      if (oracle_rng_next(s) & 1) {
        v[j] = TFN(tp_lerp)(v[a], v[b], t);
      } else {
        /* a + t (b - a) + u (c - a), t + u <= 1: in the triangle a b c. */
        int cc = TFN(tp_other)(s, n, j);
        VEC w = TFN(tp_lerp)(v[a], v[b], t);
        PROX_REAL u = TFN(tp_frac)(s) * (1 - t);
        v[j] = PROX_FN(prox_v3)(w.x + u * (v[cc].x - v[a].x), w.y + u * (v[cc].y - v[a].y),
                                w.z + u * (v[cc].z - v[a].z));
      }
    }
  if ((deg & TP_PARALLEL) && n >= 4) {
    /* v[3] - v[2] parallel to v[1] - v[0] (up to rounding), shortened
     * until v[3] is in the domain. */
    PROX_REAL t = TFN(tp_frac)(s);
    VEC d = PROX_FN(prox_vsub)(v[1], v[0]), w = v[2];
    for (c = 0; c < 64; ++c, t *= PROX_R(0.5)) {
      w = PROX_FN(prox_vadd)(v[2], PROX_FN(prox_vscale)(d, t));
      if (TFN(tp_below)(w, hi)) break;
    }
    v[3] = w;
  }
  if (deg & TP_FLAT)
    for (i = 0; i < m; ++i)
      if (oracle_rng_next(s) & 1) r[i] = 0;
}

/* A direction of length about 1: each component of magnitude about 1, or
 * down to 2^-60, or near the subnormal range, or zero, and one of them in
 * [1, 2). */
static VEC TFN(tp_dir)(oracle_rng *s) {
  VEC d;
  int i;
  for (i = 0; i < 3; ++i) {
    int r = tp_int(s, 0, 7), e;
    double x;
    e = r < 4 ? -tp_int(s, 0, 2) : (r < 6 ? -tp_int(s, 0, 60) : TP_SUB + tp_int(s, 0, 40));
    x = r == 7 ? 0 : ldexp(1 + oracle_rng_unit(s), e);
    *TFN(tp_axis)(&d, i) = (PROX_REAL)(oracle_rng_next(s) & 1 ? -x : x);
  }
  i = tp_int(s, 0, 2);
  *TFN(tp_axis)(&d, i) = (PROX_REAL)((oracle_rng_next(s) & 1 ? -1 : 1) * (1 + oracle_rng_unit(s)));
  return d;
}

/* Three orthonormal axes: a rotation (from a random unit quaternion,
 * rounded) or, one time in four, a signed permutation of the coordinate
 * axes. */
static void TFN(tp_axes)(oracle_rng *s, VEC *ax) {
  int i;
  if (oracle_rng_next(s) % 4 == 0) {
    int p = tp_int(s, 0, 2), q = (p + tp_int(s, 1, 2)) % 3;
    for (i = 0; i < 3; ++i)
      ax[i] = PROX_FN(prox_v3)(0, 0, 0);
    *TFN(tp_axis)(&ax[0], p) = oracle_rng_next(s) & 1 ? PROX_R(-1) : 1;
    *TFN(tp_axis)(&ax[1], q) = oracle_rng_next(s) & 1 ? PROX_R(-1) : 1;
    *TFN(tp_axis)(&ax[2], 3 - p - q) = oracle_rng_next(s) & 1 ? PROX_R(-1) : 1;
  } else {
    double w = oracle_rng_range(s, -1, 1), x = oracle_rng_range(s, -1, 1),
           y = oracle_rng_range(s, -1, 1), z = oracle_rng_range(s, -1, 1);
    double n = sqrt(w * w + x * x + y * y + z * z);
    w /= n;
    x /= n;
    y /= n;
    z /= n;
    ax[0] = PROX_FN(prox_v3)((PROX_REAL)(1 - 2 * (y * y + z * z)), (PROX_REAL)(2 * (x * y + w * z)),
                             (PROX_REAL)(2 * (x * z - w * y)));
    ax[1] = PROX_FN(prox_v3)((PROX_REAL)(2 * (x * y - w * z)), (PROX_REAL)(1 - 2 * (x * x + z * z)),
                             (PROX_REAL)(2 * (y * z + w * x)));
    ax[2] = PROX_FN(prox_v3)((PROX_REAL)(2 * (x * z + w * y)), (PROX_REAL)(2 * (y * z - w * x)),
                             (PROX_REAL)(1 - 2 * (x * x + y * y)));
  }
}

/* A ray interval: [0, inf] half the time, else [0, 2], [lo, inf],
 * [lo, 0], the single parameter 1, or [2, 0] (read as 2), where lo is
 * -inf with inf set (closest.h allows it), else -1. */
static void TFN(tp_interval)(oracle_rng *s, PROX_FN(prox_ray) * r, int inf) {
  PROX_REAL lo = inf ? -PROX_INF : -1;
  r->tmin = 0;
  r->tmax = PROX_INF;
  switch (tp_int(s, 0, 9)) {
  case 5:
    r->tmax = 2;
    break;
  case 6:
    r->tmin = lo;
    break;
  case 7:
    r->tmin = lo;
    r->tmax = 0;
    break;
  case 8:
    r->tmin = r->tmax = 1;
    break;
  case 9:
    r->tmin = 2;
    r->tmax = 0;
    break;
  default:
    break;
  }
}

/* The mode and degeneracies of configuration c (nmode modes), into
 * tp_case, and its exponents (spread at most 2^tp_win where it is set and
 * below the domain's). */
static tp_gen TFN(tp_begin)(oracle_rng *s, long c, int nmode, int lo, int hi) {
  int i;
  tp_case.mode = (int)(c % nmode);
  tp_case.deg = 0;
  tp_case.k = 0;
  tp_case.far = 0;
  tp_case.out = 0;
  tp_case.S = 0;
  tp_case.part = 0;
  for (i = 0; i < TP_NDEG; ++i)
    if (oracle_rng_next(s) % 4 == 0) tp_case.deg |= 1u << i;
  return tp_gen_make(s, tp_case.mode, lo, hi, TP_SUB, 2 - TP_NORM,
                     tp_win && tp_win < TP_WIN ? tp_win : TP_WIN);
}

/* ---- scaling */

/* Sets mask[i] for the n reals from byte offset off of a configuration. */
static void TFN(tp_mark)(unsigned char *mask, size_t off, int n, int on) {
  int i;
  for (i = 0; i < n; ++i)
    mask[off / sizeof(PROX_REAL) + (size_t)i] = (unsigned char)on;
}

/* A random k, |k| <= TP_KMAX, for which the n reals x (those with mask
 * set) times 2^k stay exact and in [2^lo, 2^hi): below 2^hi when they are
 * (else not growing), at least 2^lo when they are (else not shrinking),
 * and never below the normal range. 0 when there is none. Sets tp_case.S
 * and tp_case.far: whether a nonzero magnitude lies outside
 * [2^-(TP_KMAX + TP_SPAN), 2^TP_KMAX] at 1 or at 2^k, or one that is not
 * scaled (a normal, an axis) below 2^-TP_SPAN: beyond the range where
 * test_scale.c asserts the scaling bit for bit (its inputs, at most 1 in
 * magnitude and mostly above 2^-TP_SPAN, times 2^k for |k| <= TP_KMAX). */
static int TFN(tp_pick_k)(oracle_rng *s, const void *x, const unsigned char *mask, int n, int lo,
                          int hi) {
  const PROX_REAL *v = (const PROX_REAL *)x;
  int i, emin = 1 << 20, emax = -(1 << 20), umin = 0, klo, khi, k;
  for (i = 0; i < n; ++i)
    if (v[i] != 0 && isfinite(v[i])) {
      int e = ilogb((double)v[i]);
      if (!mask[i]) {
        umin = e < umin ? e : umin;
        continue;
      }
      emin = e < emin ? e : emin;
      emax = e > emax ? e : emax;
    }
  if (emax < emin) return 0;
  tp_case.S = ldexp(1.0, emax + 1);
  lo = lo < TP_NORM ? TP_NORM : lo;
  khi = hi - 1 - emax;
  khi = khi < 0 ? 0 : (khi > TP_KMAX ? TP_KMAX : khi);
  klo = lo - emin;
  klo = klo > 0 ? 0 : (klo < -TP_KMAX ? -TP_KMAX : klo);
  if (klo == khi) return 0;
  do
    k = tp_int(s, klo, khi);
  while (k == 0);
  tp_case.far = emin + (k < 0 ? k : 0) < -TP_KMAX - TP_SPAN ||
                emax + 1 + (k > 0 ? k : 0) > TP_KMAX || umin < -TP_SPAN;
  return k;
}

/* y = x with the reals that have mask set multiplied by 2^k. */
static void TFN(tp_scale)(void *y, const void *x, const unsigned char *mask, int n, int k) {
  PROX_REAL *out = (PROX_REAL *)y;
  const PROX_REAL *in = (const PROX_REAL *)x;
  int i;
  for (i = 0; i < n; ++i)
    out[i] = mask[i] ? (PROX_REAL)ldexp((double)in[i], k) : in[i];
}

/* vk is v1 2^e: bit for bit where both are zero (the sign too, unless
 * zsign is 0) or both normal; else, below the normal range, within 16
 * units of the subnormal grid, compared at the smaller scale. */
static int TFN(tp_same_z)(PROX_REAL vk, PROX_REAL v1, int e, int zsign) {
  double x = ldexp((double)v1, e), tol = 16 * (double)PROX_REAL_MIN * PROX_EPS;
  PROX_REAL y = (PROX_REAL)x;
  if (vk == 0 && v1 == 0) return !zsign || signbit(vk) == signbit(v1);
  if (fabs(x) >= (double)PROX_REAL_MIN && PROX_FABS(v1) >= PROX_REAL_MIN)
    return memcmp(&vk, &y, sizeof y) == 0;
  if (e >= 0) return fabs(ldexp((double)vk, -e) - (double)v1) <= tol;
  return fabs(x - (double)vk) <= tol;
}

static int TFN(tp_same)(PROX_REAL vk, PROX_REAL v1, int e) {
  return TFN(tp_same_z)(vk, v1, e, 1);
}

static int TFN(tp_same3)(VEC vk, VEC v1, int e) {
  return TFN(tp_same)(vk.x, v1.x, e) && TFN(tp_same)(vk.y, v1.y, e) && TFN(tp_same)(vk.z, v1.z, e);
}

/* ---- checks and printing */

static int TFN(tp_fin3)(VEC v) {
  return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/* Prints a variable of the given type: its reals (from x) in the shape
 * (r a real, v a vector, parentheses an array member) as an initializer. */
static void TFN(tp_print)(const char *type, const char *label, const char *shape, const void *x) {
  const PROX_REAL *v = (const PROX_REAL *)x;
  int first = 1;
  printf("    %s %s = {", type, label);
  for (; *shape; ++shape) {
    if (*shape == ')') {
      printf("}");
      continue;
    }
    if (!first) printf(", ");
    first = *shape == '(';
    if (*shape == '(') {
      printf("{");
    } else if (*shape == 'v') {
      printf("{%a, %a, %a}", (double)v[0], (double)v[1], (double)v[2]);
      v += 3;
    } else {
      printf("%a", (double)*v++);
    }
  }
  printf("};\n");
}

#define TP_PRINT(T, label, ptr) TFN(tp_print)("prox_" #T TP_SUF, label, TP_SHAPE_##T, ptr)

static int TFN(tp_closest_ok)(PROX_REAL d, PROX_REAL dn, const PROX_FN(prox_closest) * r) {
  int i, ok = isfinite(d) && isfinite(dn) && isfinite(r->sqdist) && TFN(tp_fin3)(r->point);
  for (i = 0; i < 4; ++i)
    ok &= isfinite(r->param[i]) != 0;
  return ok;
}

/* rk is r1 scaled by 2^k: squared distance 4^k, point 2^k, parameters
 * 2^(ps k), the same feature. */
static int TFN(tp_closest_scaled)(const PROX_FN(prox_closest) * r1,
                                  const PROX_FN(prox_closest) * rk, int k, int ps) {
  int i, ok = TFN(tp_same)(rk->sqdist, r1->sqdist, 2 * k) &&
              TFN(tp_same3)(rk->point, r1->point, k) && rk->feature.kind == r1->feature.kind &&
              rk->feature.index == r1->feature.index;
  for (i = 0; i < 4; ++i)
    ok &= TFN(tp_same)(rk->param[i], r1->param[i], ps * k);
  return ok;
}

static void TFN(tp_note_closest)(const char *what, PROX_REAL d, PROX_REAL dn,
                                 const PROX_FN(prox_closest) * r) {
  printf("    %s: returned %a (out = NULL: %a), point (%a, %a, %a), sqdist "
         "%a, param (%a, %a, %a, %a), feature %d/%d\n",
         what, (double)d, (double)dn, (double)r->point.x, (double)r->point.y, (double)r->point.z,
         (double)r->sqdist, (double)r->param[0], (double)r->param[1], (double)r->param[2],
         (double)r->param[3], r->feature.kind, r->feature.index);
}

/* The value vk of degree dp at 2^k against v1 at 1, as test_scale's far
 * check: within twice the error bound (16 eps max(S, d)^dp, d the
 * distance), plus 64 units of the smallest normal times eps at either
 * scale (where squares become subnormal). A positive signed distance is
 * the root of a squared distance, whose bound it inherits: two of them
 * are compared by their squares (its linear bound would demand more than
 * the kernels promise near the surface, where the root amplifies). */
static int TFN(tp_near)(PROX_REAL vk, PROX_REAL v1, int k, int dp) {
  double sub = 64 * (double)PROX_REAL_MIN * PROX_EPS;
  double d = dp == 2 ? sqrt(fabs((double)v1)) : fabs((double)v1);
  double m = tp_case.S > d ? tp_case.S : d;
  double tol = 16 * PROX_EPS * (dp == 2 ? m * m : m) + sub + ldexp(sub, -dp * k);
  double a = ldexp((double)vk, -dp * k), b = (double)v1;
  if (dp == 1 && a > 0 && b > 0 && fabs(a * a - b * b) <= 16 * PROX_EPS * m * m + sub) return 1;
  return fabs(a - b) <= tol;
}

/* The failure kinds of a K1 query at 2^k (dk with a result rk, nk with
 * out = NULL) against the same at 1: the value of degree dp, the
 * parameters of degree ps. */
static int TFN(tp_k1_bad)(PROX_REAL d1, PROX_REAL n1, const PROX_FN(prox_closest) * r1,
                          PROX_REAL dk, PROX_REAL nk, const PROX_FN(prox_closest) * rk, int k,
                          int dp, int ps) {
  if (!TFN(tp_closest_ok)(dk, nk, rk)) return TP_NONFINITE;
  if (TFN(tp_same)(dk, d1, dp * k) && TFN(tp_same)(nk, n1, dp * k) &&
      TFN(tp_closest_scaled)(r1, rk, k, ps))
    return 0;
  return TP_SCALED | (TFN(tp_near)(dk, d1, k, dp) && TFN(tp_near)(nk, n1, k, dp) ? 0 : TP_BOUND);
}

/* One K1 query fn(p, &x->F, out) on the configuration x and, when k is
 * not 0, on its scaled copy xk: the value of degree dp (2: squared, 1:
 * signed distance) with a result and with out = NULL, parameters of degree
 * ps. */
#define TP_K1(fn, F, T, dp, ps)                                                                    \
  do {                                                                                             \
    static tp_stat st_;                                                                            \
    PROX_FN(prox_closest) r1_, rk_;                                                                \
    PROX_REAL d1_ = PROX_FN(fn)(x->p, &x->F, &r1_), dk_ = 0, nk_ = 0;                              \
    PROX_REAL n1_ = PROX_FN(fn)(x->p, &x->F, NULL);                                                \
    int bad_ = TFN(tp_closest_ok)(d1_, n1_, &r1_) ? 0 : TP_NONFINITE;                              \
    int atk_ = !bad_ && k;                                                                         \
    if (atk_) {                                                                                    \
      dk_ = PROX_FN(fn)(xk->p, &xk->F, &rk_);                                                      \
      nk_ = PROX_FN(fn)(xk->p, &xk->F, NULL);                                                      \
      bad_ = TFN(tp_k1_bad)(d1_, n1_, &r1_, dk_, nk_, &rk_, k, dp, ps);                            \
    }                                                                                              \
    if (tp_record(&st_, #fn TP_SUF, bad_)) {                                                       \
      TP_PRINT(vec3, "p", &x->p);                                                                  \
      TP_PRINT(T, #F, &x->F);                                                                      \
      TFN(tp_note_closest)("at 1", d1_, n1_, &r1_);                                                \
      if (atk_) TFN(tp_note_closest)("at 2^k", dk_, nk_, &rk_);                                    \
    }                                                                                              \
  } while (0)

/* TP_K1 for a K1 kernel of the registry (tests/kernels.h), the type of
 * its primitive by the registry's code. */
#define TP_K1_X(name, prim, degree, param_degree)                                                  \
  TP_K1_(prox_##name, prim, TP_TYPE_##prim, degree, param_degree);
#define TP_K1_(fn, F, T, dp, ps) TP_K1(fn, F, T, dp, ps)
#define TP_TYPE_pl plane
#define TP_TYPE_ln line
#define TP_TYPE_ry ray
#define TP_TYPE_sg segment
#define TP_TYPE_tr triangle
#define TP_TYPE_rc rectangle
#define TP_TYPE_ab aabb
#define TP_TYPE_ob obb
#define TP_TYPE_sp sphere
#define TP_TYPE_cp capsule
#define TP_TYPE_te tetrahedron

/* ---- K1: point queries */

typedef struct TFN(tp_k1) {
  VEC p, nrm; /* the query point; the plane's normal (not scaled) */
  PROX_REAL off;
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
} TFN(tp_k1);

#define TP_K1N ((int)(sizeof(TFN(tp_k1)) / sizeof(PROX_REAL)))

/* The primitives of the points v[0..4] (v[4] the query point) and the
 * lengths r[0..3]: the plane of a random normal and offset r0; line and ray
 * from v0 towards the midpoint of v0 v1; segment v0 v1; triangle v0 v1 v2;
 * rectangle and box centered at v2 with random axes and half extents r;
 * axis-aligned box with corners v0 and v1 (in any order); sphere and
 * capsule around v0 and v0 v1 with radius r3; tetrahedron v0..v3. */
static void TFN(tp_k1_make)(oracle_rng *s, TFN(tp_k1) * x, const tp_gen *g) {
  VEC v[5], ax[3];
  PROX_REAL r[4];
  int i;
  for (i = 0; i < 5; ++i)
    v[i] = TFN(tp_vec)(s, g);
  for (i = 0; i < 4; ++i)
    r[i] = TFN(tp_real)(s, g);
  TFN(tp_degenerate)(s, v, 5, r, 4, tp_case.deg, TP_E);
  TFN(tp_axes)(s, ax);
  x->p = v[4];
  x->nrm = TFN(tp_dir)(s);
  x->off = r[0];
  PROX_FN(prox_plane_from_normal)(x->nrm, x->off, &x->pl);
  x->ln.origin = v[0];
  x->ln.dir = TFN(tp_in_domain)(PROX_FN(prox_vsub)(TFN(tp_lerp)(v[0], v[1], PROX_R(0.5)), v[0]), g);
  x->ry.origin = v[0];
  x->ry.dir = x->ln.dir;
  TFN(tp_interval)(s, &x->ry, 1);
  x->sg.a = v[0];
  x->sg.b = v[1];
  x->tr.v[0] = v[0];
  x->tr.v[1] = v[1];
  x->tr.v[2] = v[2];
  x->rc.center = v[2];
  x->rc.axis[0] = ax[0];
  x->rc.axis[1] = ax[1];
  x->rc.half[0] = r[0];
  x->rc.half[1] = r[1];
  x->ab.min = v[0];
  x->ab.max = v[1];
  x->ob.center = v[2];
  for (i = 0; i < 3; ++i) {
    x->ob.axis[i] = ax[i];
    x->ob.half[i] = r[i];
  }
  x->sp.center = v[0];
  x->sp.radius = r[3];
  x->cp.a = v[0];
  x->cp.b = v[1];
  x->cp.radius = PROX_FABS(r[3]);
  for (i = 0; i < 4; ++i)
    x->te.v[i] = v[i];
}

/* The lengths of tp_k1: all but the normals, the axes and the interval. */
static void TFN(tp_k1_mask)(unsigned char *mask) {
  TFN(tp_mark)(mask, 0, TP_K1N, 1);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k1), nrm), 3, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k1), pl.normal), 3, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k1), ry.tmin), 2, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k1), rc.axis), 6, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k1), ob.axis), 9, 0);
}

/* The plane constructors: 1, a finite plane, and at scale 2^k the same
 * normal with the offset scaled. */
static void TFN(tp_planes)(const TFN(tp_k1) * x, const TFN(tp_k1) * xk, int k) {
  static tp_stat st1, st2;
  PROX_FN(prox_plane) a, b, ak, bk;
  int ra = PROX_FN(prox_plane_from_normal)(x->nrm, x->off, &a);
  int rb = PROX_FN(prox_plane_from_point_normal)(x->p, x->nrm, &b);
  int bada = ra == 1 && TFN(tp_fin3)(a.normal) && isfinite(a.offset) ? 0 : TP_NONFINITE;
  int badb = rb == 1 && TFN(tp_fin3)(b.normal) && isfinite(b.offset) ? 0 : TP_NONFINITE;
  if (k && !bada) {
    PROX_FN(prox_plane_from_normal)(xk->nrm, xk->off, &ak);
    if (!(TFN(tp_same3)(ak.normal, a.normal, 0) && TFN(tp_same)(ak.offset, a.offset, k)))
      bada = TP_SCALED;
  }
  if (k && !badb) {
    PROX_FN(prox_plane_from_point_normal)(xk->p, xk->nrm, &bk);
    if (!(TFN(tp_same3)(bk.normal, b.normal, 0) && TFN(tp_same)(bk.offset, b.offset, k)))
      badb = TP_SCALED;
  }
  if (tp_record(&st1, "prox_plane_from_normal" TP_SUF, bada)) {
    TP_PRINT(vec3, "n", &x->nrm);
    printf("    offset = %a; returned %d, plane (%a, %a, %a) %a\n", (double)x->off, ra,
           (double)a.normal.x, (double)a.normal.y, (double)a.normal.z, (double)a.offset);
  }
  if (tp_record(&st2, "prox_plane_from_point_normal" TP_SUF, badb)) {
    TP_PRINT(vec3, "p", &x->p);
    TP_PRINT(vec3, "n", &x->nrm);
    printf("    returned %d, plane (%a, %a, %a) %a\n", rb, (double)b.normal.x, (double)b.normal.y,
           (double)b.normal.z, (double)b.offset);
  }
}

/* prox_point_in_triangle (a vertex is in; the same answer at 2^k) and
 * prox_triangle_barycentric (finite; the same bits at 2^k). */
static void TFN(tp_triangle_tests)(const TFN(tp_k1) * x, const TFN(tp_k1) * xk, int k) {
  static tp_stat st1, st2;
  const VEC *v = x->tr.v;
  int in = PROX_FN(prox_point_in_triangle)(x->p, &x->tr), ink = in, inv = 0, i;
  int bad1 = in == 0 || in == 1 ? 0 : TP_ANSWER, bad2;
  VEC b = PROX_FN(prox_triangle_barycentric)(x->p, &x->tr), bk = b;
  for (i = 0; i < 3; ++i)
    inv |= memcmp(&x->p, &v[i], sizeof x->p) == 0;
  if (inv && in != 1) bad1 = TP_ANSWER;
  if (k) {
    ink = PROX_FN(prox_point_in_triangle)(xk->p, &xk->tr);
    if (ink != in) bad1 |= TP_SCALED;
    if (inv && ink != 1) bad1 |= TP_ANSWER;
  }
  bad2 = TFN(tp_fin3)(b) ? 0 : TP_NONFINITE;
  if (k && !bad2) {
    bk = PROX_FN(prox_triangle_barycentric)(xk->p, &xk->tr);
    if (!TFN(tp_same3)(bk, b, 0)) bad2 = TP_SCALED;
  }
  if (tp_record(&st1, "prox_point_in_triangle" TP_SUF, bad1)) {
    TP_PRINT(vec3, "p", &x->p);
    TP_PRINT(triangle, "tr", &x->tr);
    printf("    returned %d (p is a vertex: %d), at 2^k %d\n", in, inv, ink);
  }
  if (tp_record(&st2, "prox_triangle_barycentric" TP_SUF, bad2)) {
    TP_PRINT(vec3, "p", &x->p);
    TP_PRINT(triangle, "tr", &x->tr);
    printf("    returned (%a, %a, %a), at 2^k (%a, %a, %a)\n", (double)b.x, (double)b.y,
           (double)b.z, (double)bk.x, (double)bk.y, (double)bk.z);
  }
}

static void PROX_FN(body_point)(void) {
  oracle_rng s = oracle_rng_make(tp_seed * 0x9E3779B97F4A7C15u + 0x101 + PROX_IS_DOUBLE);
  unsigned char mask[TP_K1N];
  long c, n = h_count(TP_CASES);
  TFN(tp_k1) x1, x2, *x = &x1, *xk = &x2;
  TFN(tp_k1_mask)(mask);
  for (c = 0; c < n; ++c) {
    tp_gen g = TFN(tp_begin)(&s, c, TP_SUBNORMAL, -TP_E, TP_E);
    int k;
    TFN(tp_k1_make)(&s, x, &g);
    k = TFN(tp_pick_k)(&s, x, mask, TP_K1N, tp_case.mode == TP_SUBNORMAL ? TP_NORM : -TP_E, TP_E);
    tp_case.k = k;
    TFN(tp_scale)(xk, x, mask, TP_K1N, k);
    PROX_KERNELS_K1(TP_K1_X)
    TFN(tp_triangle_tests)(x, xk, k);
    TFN(tp_planes)(x, xk, k);
  }
  tp_summary();
}

/* ---- K2: pairs */

static int TFN(tp_pair_ok)(PROX_REAL d, PROX_REAL dn, const PROX_FN(prox_pair) * r) {
  int i, m,
      ok = isfinite(d) && isfinite(dn) && isfinite(r->sqdist) && TFN(tp_fin3)(r->point[0]) &&
           TFN(tp_fin3)(r->point[1]);
  for (i = 0; i < 2; ++i)
    for (m = 0; m < 3; ++m)
      ok &= isfinite(r->param[i][m]) != 0;
  return ok;
}

/* rk is r1 scaled by 2^k: squared distance 4^k, points 2^k, the same
 * parameters and features. */
static int TFN(tp_pair_scaled)(const PROX_FN(prox_pair) * r1, const PROX_FN(prox_pair) * rk,
                               int k) {
  int i, m, ok = TFN(tp_same)(rk->sqdist, r1->sqdist, 2 * k);
  for (i = 0; i < 2; ++i) {
    ok &= TFN(tp_same3)(rk->point[i], r1->point[i], k);
    ok &=
        rk->feature[i].kind == r1->feature[i].kind && rk->feature[i].index == r1->feature[i].index;
    for (m = 0; m < 3; ++m)
      ok &= TFN(tp_same)(rk->param[i][m], r1->param[i][m], 0);
  }
  return ok;
}

static void TFN(tp_note_pair)(const char *what, PROX_REAL d, PROX_REAL dn,
                              const PROX_FN(prox_pair) * r) {
  int i;
  printf("    %s: returned %a (out = NULL: %a), sqdist %a\n", what, (double)d, (double)dn,
         (double)r->sqdist);
  for (i = 0; i < 2; ++i)
    printf("      point[%d] (%a, %a, %a), param (%a, %a, %a), feature "
           "%d/%d\n",
           i, (double)r->point[i].x, (double)r->point[i].y, (double)r->point[i].z,
           (double)r->param[i][0], (double)r->param[i][1], (double)r->param[i][2],
           r->feature[i].kind, r->feature[i].index);
}

/* The failure kinds of a K2 query at 2^k against the same at 1 (as
 * tp_k1_bad). */
static int TFN(tp_k2_bad)(PROX_REAL d1, PROX_REAL n1, const PROX_FN(prox_pair) * r1, PROX_REAL dk,
                          PROX_REAL nk, const PROX_FN(prox_pair) * rk, int k) {
  if (!TFN(tp_pair_ok)(dk, nk, rk)) return TP_NONFINITE;
  if (TFN(tp_same)(dk, d1, 2 * k) && TFN(tp_same)(nk, n1, 2 * k) && TFN(tp_pair_scaled)(r1, rk, k))
    return 0;
  return TP_SCALED | (TFN(tp_near)(dk, d1, k, 2) && TFN(tp_near)(nk, n1, k, 2) ? 0 : TP_BOUND);
}

/* One K2 query fn(&x->A, &x->B, out), as TP_K1. */
#define TP_K2(fn, A, TA, B, TB)                                                                    \
  do {                                                                                             \
    static tp_stat st_;                                                                            \
    PROX_FN(prox_pair) r1_, rk_;                                                                   \
    PROX_REAL d1_ = PROX_FN(fn)(&x->A, &x->B, &r1_), dk_ = 0, nk_ = 0;                             \
    PROX_REAL n1_ = PROX_FN(fn)(&x->A, &x->B, NULL);                                               \
    int bad_ = TFN(tp_pair_ok)(d1_, n1_, &r1_) ? 0 : TP_NONFINITE;                                 \
    int atk_ = !bad_ && k;                                                                         \
    if (atk_) {                                                                                    \
      dk_ = PROX_FN(fn)(&xk->A, &xk->B, &rk_);                                                     \
      nk_ = PROX_FN(fn)(&xk->A, &xk->B, NULL);                                                     \
      bad_ = TFN(tp_k2_bad)(d1_, n1_, &r1_, dk_, nk_, &rk_, k);                                    \
    }                                                                                              \
    if (tp_record(&st_, #fn TP_SUF, bad_)) {                                                       \
      TP_PRINT(TA, #A, &x->A);                                                                     \
      TP_PRINT(TB, #B, &x->B);                                                                     \
      TFN(tp_note_pair)("at 1", d1_, n1_, &r1_);                                                   \
      if (atk_) TFN(tp_note_pair)("at 2^k", dk_, nk_, &rk_);                                       \
    }                                                                                              \
  } while (0)

/* TP_K2 for a K2 kernel of the registry: its arguments, by their types,
 * the members of tp_k2 below (TP_FIRST_<type>, TP_SECOND_<type>). */
#define TP_K2_X(name, first, second)                                                               \
  TP_K2_(prox_##name, TP_FIRST_##first, first, TP_SECOND_##second, second);
#define TP_K2_(fn, A, TA, B, TB) TP_K2(fn, A, TA, B, TB)
#define TP_FIRST_line l1
#define TP_FIRST_ray r1
#define TP_FIRST_segment s1
#define TP_FIRST_triangle t1
#define TP_FIRST_sphere sp
#define TP_FIRST_capsule c1
#define TP_SECOND_line l2
#define TP_SECOND_ray r2
#define TP_SECOND_segment s2
#define TP_SECOND_triangle t2
#define TP_SECOND_sphere sq
#define TP_SECOND_capsule c2

typedef struct TFN(tp_k2) {
  PROX_FN(prox_line) l1, l2;
  PROX_FN(prox_ray) r1, r2;
  PROX_FN(prox_segment) s1, s2;
  PROX_FN(prox_triangle) t1, t2;
  PROX_FN(prox_sphere) sp, sq;
  PROX_FN(prox_capsule) c1, c2;
} TFN(tp_k2);

#define TP_K2N ((int)(sizeof(TFN(tp_k2)) / sizeof(PROX_REAL)))

/* The pairs of the points v[0..5] and lengths r[0..3]: line, ray, segment
 * and capsule (radius r1, r2) on v0 v1 and on v2 v3 (lines and rays towards
 * the midpoints); triangles v0 v1 v5 and v2 v3 v4; spheres around v5 and v4
 * (radius r0, r3). */
static void TFN(tp_k2_make)(oracle_rng *s, TFN(tp_k2) * x, const tp_gen *g) {
  VEC v[6];
  PROX_REAL r[4];
  int i;
  for (i = 0; i < 6; ++i)
    v[i] = TFN(tp_vec)(s, g);
  for (i = 0; i < 4; ++i)
    r[i] = TFN(tp_real)(s, g);
  TFN(tp_degenerate)(s, v, 6, r, 4, tp_case.deg, TP_E);
  x->l1.origin = x->r1.origin = x->s1.a = x->c1.a = v[0];
  x->s1.b = x->c1.b = v[1];
  x->l1.dir = x->r1.dir =
      TFN(tp_in_domain)(PROX_FN(prox_vsub)(TFN(tp_lerp)(v[0], v[1], PROX_R(0.5)), v[0]), g);
  x->l2.origin = x->r2.origin = x->s2.a = x->c2.a = v[2];
  x->s2.b = x->c2.b = v[3];
  x->l2.dir = x->r2.dir =
      TFN(tp_in_domain)(PROX_FN(prox_vsub)(TFN(tp_lerp)(v[2], v[3], PROX_R(0.5)), v[2]), g);
  TFN(tp_interval)(s, &x->r1, 1);
  TFN(tp_interval)(s, &x->r2, 1);
  x->t1.v[0] = v[0];
  x->t1.v[1] = v[1];
  x->t1.v[2] = v[5];
  x->t2.v[0] = v[2];
  x->t2.v[1] = v[3];
  x->t2.v[2] = v[4];
  x->sp.center = v[5];
  x->sp.radius = r[0];
  x->sq.center = v[4];
  x->sq.radius = r[3];
  x->c1.radius = PROX_FABS(r[1]);
  x->c2.radius = PROX_FABS(r[2]);
}

static void PROX_FN(body_pair)(void) {
  oracle_rng s = oracle_rng_make(tp_seed * 0x9E3779B97F4A7C15u + 0x201 + PROX_IS_DOUBLE);
  unsigned char mask[TP_K2N];
  long c, n = h_count(TP_CASES);
  TFN(tp_k2) x1, x2, *x = &x1, *xk = &x2;
  TFN(tp_mark)(mask, 0, TP_K2N, 1);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k2), r1.tmin), 2, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k2), r2.tmin), 2, 0);
  for (c = 0; c < n; ++c) {
    tp_gen g = TFN(tp_begin)(&s, c, TP_SUBNORMAL, -TP_E, TP_E);
    int k;
    TFN(tp_k2_make)(&s, x, &g);
    k = TFN(tp_pick_k)(&s, x, mask, TP_K2N, tp_case.mode == TP_SUBNORMAL ? TP_NORM : -TP_E, TP_E);
    tp_case.k = k;
    TFN(tp_scale)(xk, x, mask, TP_K2N, k);
    PROX_KERNELS_K2(TP_K2_X)
  }
  tp_summary();
}

/* ---- K3: ray casts */

/* A cast's answer: hit 0 or 1, the same with out = NULL and in out->hit;
 * on a hit t in the interval (the single parameter tmin when tmax < tmin)
 * and finite t, point, normal and barycentrics, and t_exit finite or tmax.
 * Returns the failure kinds. */
static int TFN(tp_hit_bad)(int hit, int hitn, const PROX_FN(prox_rayhit) * h,
                           const PROX_FN(prox_ray) * ry) {
  PROX_REAL hi = ry->tmax < ry->tmin ? ry->tmin : ry->tmax;
  int bad = (hit == 0 || hit == 1) && hitn == hit && h->hit == hit ? 0 : TP_ANSWER;
  if (hit != 1) return bad;
  if (!(h->t >= ry->tmin && h->t <= hi)) bad |= TP_ANSWER;
  if (!(isfinite(h->t) && (isfinite(h->t_exit) || h->t_exit == ry->tmax) &&
        TFN(tp_fin3)(h->point) && TFN(tp_fin3)(h->normal) && isfinite(h->bary[0]) &&
        isfinite(h->bary[1]) && isfinite(h->bary[2])))
    bad |= TP_NONFINITE;
  return bad;
}

/* hk is h1 at scale 2^k: the same hit, inside flag, feature, t, t_exit,
 * normal and barycentrics, the point 2^k times (test_scale's rule). */
static int TFN(tp_hit_scaled)(const PROX_FN(prox_rayhit) * h1, const PROX_FN(prox_rayhit) * hk,
                              int k) {
  int ok = h1->hit == hk->hit && h1->inside == hk->inside && h1->feature.kind == hk->feature.kind &&
           h1->feature.index == hk->feature.index;
  if (!h1->hit) return ok;
  return ok && TFN(tp_same)(hk->t, h1->t, 0) && TFN(tp_same)(hk->t_exit, h1->t_exit, 0) &&
         TFN(tp_same3)(hk->normal, h1->normal, 0) && TFN(tp_same3)(hk->point, h1->point, k) &&
         TFN(tp_same)(hk->bary[0], h1->bary[0], 0) && TFN(tp_same)(hk->bary[1], h1->bary[1], 0) &&
         TFN(tp_same)(hk->bary[2], h1->bary[2], 0);
}

static void TFN(tp_note_hit)(const char *what, int hit, const PROX_FN(prox_rayhit) * h) {
  printf("    %s: returned %d, hit %d inside %d t %a t_exit %a point (%a, "
         "%a, %a) normal (%a, %a, %a) bary (%a, %a, %a) feature %d/%d\n",
         what, hit, h->hit, h->inside, (double)h->t, (double)h->t_exit, (double)h->point.x,
         (double)h->point.y, (double)h->point.z, (double)h->normal.x, (double)h->normal.y,
         (double)h->normal.z, (double)h->bary[0], (double)h->bary[1], (double)h->bary[2],
         h->feature.kind, h->feature.index);
}

/* One cast fn(&x->ry, &x->F, out), with out and with NULL, and at 2^k. */
#define TP_K3(fn, F, T)                                                                            \
  do {                                                                                             \
    static tp_stat st_;                                                                            \
    PROX_FN(prox_rayhit) h1_, hk_;                                                                 \
    int c1_ = PROX_FN(fn)(&x->ry, &x->F, &h1_), ck_ = 0;                                           \
    int bad_ = TFN(tp_hit_bad)(c1_, PROX_FN(fn)(&x->ry, &x->F, NULL), &h1_, &x->ry);               \
    int atk_ = !bad_ && k;                                                                         \
    if (atk_) {                                                                                    \
      ck_ = PROX_FN(fn)(&xk->ry, &xk->F, &hk_);                                                    \
      bad_ = TFN(tp_hit_bad)(ck_, PROX_FN(fn)(&xk->ry, &xk->F, NULL), &hk_, &xk->ry);              \
      if (!bad_ && (ck_ != c1_ || !TFN(tp_hit_scaled)(&h1_, &hk_, k))) bad_ = TP_SCALED;           \
    }                                                                                              \
    if (tp_record(&st_, #fn TP_SUF, bad_)) {                                                       \
      TP_PRINT(ray, "ray", &x->ry);                                                                \
      TP_PRINT(T, #F, &x->F);                                                                      \
      TFN(tp_note_hit)("at 1", c1_, &h1_);                                                         \
      if (atk_) TFN(tp_note_hit)("at 2^k", ck_, &hk_);                                             \
    }                                                                                              \
  } while (0)

/* TP_K3 for a cast of the registry, on its ray ry[TP_K3_<name>] and its
 * primitive by the registry's code, at 1 and (unless unit) at 2^k for a k
 * of its own, picked from the cast's generator kr[TP_K3_<name>] for its ray
 * and the primitives only: neither the ray nor k depends on the other
 * casts. The tetrahedron entered exactly through a vertex (the
 * ray starting there, or passing it) meets every face there at once;
 * which face's barycentrics and normal are reported, and the sign of a
 * zero t, is a tie that raycast.h does not promise to break the same way at
 * every scale (the hit, t and the feature VERTEX are asserted in
 * test_raycast): there the bits at 2^k are not asserted (tp_case.far). */
#define TP_K3_X(name, prim, solid)                                                                 \
  {                                                                                                \
    int k = 0;                                                                                     \
    x->ry = ry[TP_K3_##name];                                                                      \
    tp_case.S = 0;                                                                                 \
    tp_case.far = 0;                                                                               \
    if (!unit) k = TFN(tp_pick_k)(&kr[TP_K3_##name], x, mask, TP_K3N, -TP_E, TP_E);                \
    tp_case.k = k;                                                                                 \
    TFN(tp_scale)(xk, x, mask, TP_K3N, k);                                                         \
    if (strcmp(#prim, "te") == 0 && TFN(tp_tet_vertex_tie)(&x->ry, &x->te)) tp_case.far = 1;       \
    TP_K3_(prox_##name, prim, TP_TYPE_##prim);                                                     \
  }
#define TP_K3_(fn, F, T) TP_K3(fn, F, T)

/* Whether ray r enters tetrahedron te exactly through a vertex: it starts
 * at one, or its hit has the feature VERTEX. */
static int TFN(tp_tet_vertex_tie)(const PROX_FN(prox_ray) * r,
                                  const PROX_FN(prox_tetrahedron) * te) {
  PROX_FN(prox_rayhit) vh;
  int m;
  for (m = 0; m < 4; ++m)
    if (te->v[m].x == r->origin.x && te->v[m].y == r->origin.y && te->v[m].z == r->origin.z)
      return 1;
  return PROX_FN(prox_raycast_tetrahedron)(r, te, &vh) && vh.feature.kind == PROX_FEATURE_VERTEX;
}

typedef struct TFN(tp_k3) {
  PROX_FN(prox_ray) ry; /* the ray of the cast under test */
  PROX_FN(prox_plane) pl;
  PROX_FN(prox_triangle) tr;
  PROX_FN(prox_aabb) ab;
  PROX_FN(prox_obb) ob;
  PROX_FN(prox_sphere) sp;
  PROX_FN(prox_capsule) cp;
  PROX_FN(prox_tetrahedron) te;
} TFN(tp_k3);

#define TP_K3N ((int)(sizeof(TFN(tp_k3)) / sizeof(PROX_REAL)))

/* sum w[i] v[i] over n points, the weights w random in [0, 1] (each 0 one
 * time in three: an edge or a vertex) and normalised. */
static VEC TFN(tp_convex)(oracle_rng *s, const VEC *v, int n) {
  PROX_REAL w[4], sum = 0;
  VEC a = PROX_FN(prox_v3)(0, 0, 0);
  int i;
  for (i = 0; i < n; ++i) {
    w[i] = oracle_rng_next(s) % 3 == 0 ? 0 : TFN(tp_frac)(s);
    sum += w[i];
  }
  if (sum == 0) w[0] = sum = 1;
  for (i = 0; i < n; ++i)
    a = PROX_FN(prox_vadd)(a, PROX_FN(prox_vscale)(v[i], w[i] / sum));
  return a;
}

/* The point of primitive <prim> a ray is aimed at (TP_AIM_<prim>, in
 * tp_k3_make, drawn from the cast's generator kg): the plane's and the
 * sphere's v0, a point of the triangle and the tetrahedron (edges and
 * vertices included), of the box, of the oriented box, of the capsule's
 * core. */
#define TP_AIM_pl v[0]
#define TP_AIM_tr TFN(tp_convex)(kg, v, 3)
#define TP_AIM_ab TFN(tp_aim_box)(kg, x->ab.min, v[0], v[1])
#define TP_AIM_ob TFN(tp_aim_obb)(kg, v[2], ax, r)
#define TP_AIM_sp v[0]
#define TP_AIM_cp TFN(tp_lerp)(v[0], v[1], TFN(tp_frac)(kg))
#define TP_AIM_te TFN(tp_convex)(kg, v, 4)
#define TP_K3_AIM(name, prim, solid)                                                               \
  {                                                                                                \
    oracle_rng *kg = &kr[TP_K3_##name];                                                            \
    (void)kg;                                                                                      \
    aim[TP_K3_##name] = TP_AIM_##prim;                                                             \
  }

/* A point of the box from lo of extent b - a: its three fractions drawn
 * in the order x, y, z (in declarations, not as arguments of one call,
 * whose order C leaves to the compiler). */
static VEC TFN(tp_aim_box)(oracle_rng *s, VEC lo, VEC a, VEC b) {
  PROX_REAL fx = TFN(tp_frac)(s);
  PROX_REAL fy = TFN(tp_frac)(s);
  PROX_REAL fz = TFN(tp_frac)(s);
  return PROX_FN(prox_v3)(lo.x + fx * (b.x - a.x), lo.y + fy * (b.y - a.y),
                          lo.z + fz * (b.z - a.z));
}

/* A point of the oriented box of center c, axes ax and half extents r. */
static VEC TFN(tp_aim_obb)(oracle_rng *s, VEC c, const VEC *ax, const PROX_REAL *r) {
  int i;
  for (i = 0; i < 3; ++i)
    c = PROX_FN(prox_vadd)(
        c, PROX_FN(prox_vscale)(ax[i], (PROX_REAL)oracle_rng_range(s, -1, 1) * r[i]));
  return c;
}

/* The primitives of the points v[0..5] and lengths r[0..3], from s: plane
 * through v0 with a random normal, triangle v0 v1 v2, box with corners v0
 * v1, box centered at v2 with random axes and half extents r, sphere and
 * capsule around v0 and v0 v1 with radius r3, tetrahedron v0..v3; into
 * ry[i] the ray of the cast TP_K3_<name> = i of the registry, from v5,
 * aimed at a point of its primitive, drawn (with its interval) from the
 * cast's own generator kr[i]: with unit set the direction has length about
 * 1, else it is half the way to the aim. */
static void TFN(tp_k3_make)(oracle_rng *s, oracle_rng *kr, TFN(tp_k3) * x, PROX_FN(prox_ray) * ry,
                            const tp_gen *g, int unit, int hi) {
  VEC v[6], ax[3], aim[TP_K3_COUNT];
  PROX_REAL r[4], big;
  int i, m;
  for (i = 0; i < 6; ++i)
    v[i] = TFN(tp_vec)(s, g);
  for (i = 0; i < 4; ++i)
    r[i] = TFN(tp_real)(s, g);
  TFN(tp_degenerate)(s, v, 6, r, 4, tp_case.deg, hi);
  TFN(tp_axes)(s, ax);
  PROX_FN(prox_plane_from_point_normal)(v[0], TFN(tp_dir)(s), &x->pl);
  for (i = 0; i < 3; ++i)
    x->tr.v[i] = v[i];
  x->ab.min = v[0];
  x->ab.max = v[1];
  x->ob.center = v[2];
  for (i = 0; i < 3; ++i) {
    x->ob.axis[i] = ax[i];
    x->ob.half[i] = r[i];
  }
  x->sp.center = v[0];
  x->sp.radius = r[3];
  x->cp.a = v[0];
  x->cp.b = v[1];
  x->cp.radius = PROX_FABS(r[3]);
  for (i = 0; i < 4; ++i)
    x->te.v[i] = v[i];
  PROX_KERNELS_K3(TP_K3_AIM)
  for (i = 0; i < TP_K3_COUNT; ++i) {
    VEC d = PROX_FN(prox_vsub)(aim[i], v[5]);
    ry[i].origin = v[5];
    TFN(tp_interval)(&kr[i], &ry[i], 0);
    if (!unit) {
      ry[i].dir = TFN(tp_in_domain)(PROX_FN(prox_vscale)(d, PROX_R(0.5)), g);
      continue;
    }
    /* The direction divided by its largest component: length in [1, 2]. */
    big = 0;
    for (m = 0; m < 3; ++m)
      big = PROX_FABS(*TFN(tp_axis)(&d, m)) > big ? PROX_FABS(*TFN(tp_axis)(&d, m)) : big;
    ry[i].dir = big > 0 ? PROX_FN(prox_v3)(d.x / big, d.y / big, d.z / big) : TFN(tp_dir)(&kr[i]);
  }
}

/* The casts of the registry: the primitives from the body's generator, each
 * cast's ray and k from its own (TP_K3_RNG: seeded by the body's seed and
 * the cast's name, so that a cast's place in the registry changes no
 * cast's configurations). */
#define TP_K3_RNG(name, prim, solid) kr[TP_K3_##name] = oracle_rng_named(seed_, #name);
static void PROX_FN(body_ray)(void) {
  const uint64_t seed_ = tp_seed * 0x9E3779B97F4A7C15u + 0x301 + PROX_IS_DOUBLE;
  oracle_rng s = oracle_rng_make(seed_), kr[TP_K3_COUNT];
  unsigned char mask[TP_K3N];
  long c, n = h_count(TP_CASES);
  TFN(tp_k3) x1, x2, *x = &x1, *xk = &x2;
  PROX_FN(prox_ray) ry[TP_K3_COUNT];
  PROX_KERNELS_K3(TP_K3_RNG)
  TFN(tp_mark)(mask, 0, TP_K3N, 1);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k3), ry.tmin), 2, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k3), pl.normal), 3, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_k3), ob.axis), 9, 0);
  tp_part_names[0] = "unit-dir";
  tp_part_names[1] = "scaled-dir";
  for (c = 0; c < n; ++c) {
    /* Even configurations: unit directions, coordinates within 2^+-TP_E3;
     * odd: directions of the coordinates' scale, within 2^+-TP_E, and
     * scaled. */
    int unit = (c / TP_SUBNORMAL) % 2 == 0, hi = unit ? TP_E3 : TP_E;
    tp_gen g = TFN(tp_begin)(&s, c, TP_SUBNORMAL, -hi, hi);
    tp_case.part = !unit;
    TFN(tp_k3_make)(&s, kr, x, ry, &g, unit, hi);
    PROX_KERNELS_K3(TP_K3_X)
  }
  tp_summary();
  tp_part_names[0] = tp_part_names[1] = NULL;
}

/* ---- overlap tests */

typedef struct TFN(tp_ov) {
  PROX_FN(prox_aabb) a1, a2;
  PROX_FN(prox_obb) o1, o2;
  PROX_FN(prox_triangle) t1, t2;
  PROX_FN(prox_sphere) sp;
} TFN(tp_ov);

/* The arguments of an overlap test of the registry, by the registry's codes
 * of its two primitives: one from each of the two sets of tp_ov (set A:
 * a1, o1, t1; set B: a2, o2, t2, sp), the first from set A where set A has
 * one of its kind (TP_OV_SET_<prim>). */
#define TP_OV_SET_ab A
#define TP_OV_SET_ob A
#define TP_OV_SET_tr A
#define TP_OV_SET_sp B
#define TP_OV_A_ab a1
#define TP_OV_B_ab a2
#define TP_OV_A_ob o1
#define TP_OV_B_ob o2
#define TP_OV_A_tr t1
#define TP_OV_B_tr t2
#define TP_OV_B_sp sp
#define TP_OV_ARGS(first, second) TP_OV_ARGS_(TP_OV_SET_##first, first, second)
#define TP_OV_ARGS_(set, first, second) TP_OV_ARGS__(set, first, second)
#define TP_OV_ARGS__(set, first, second) TP_OV_ARGS_##set(first, second)
#define TP_OV_ARGS_A(first, second)                                                                \
  TP_OV_A_##first, TP_TYPE_##first, TP_OV_B_##second, TP_TYPE_##second
#define TP_OV_ARGS_B(first, second)                                                                \
  TP_OV_B_##first, TP_TYPE_##first, TP_OV_A_##second, TP_TYPE_##second
/* TP_OV for an overlap test of the registry, in the configurations of its
 * domain: the exact triangle-triangle test's (tt) is the casts'. */
#define TP_OV_X(name, first, second)                                                               \
  if ((TP_OV_##name == TP_OV_overlap_triangle_triangle) == tt)                                     \
    TP_OV_(prox_##name, TP_OV_ARGS(first, second), e[TP_OV_##name]);
#define TP_OV_(...) TP_OV(__VA_ARGS__)

#define TP_OVN ((int)(sizeof(TFN(tp_ov)) / sizeof(PROX_REAL)))

/* One overlap test fn(&x->A, &x->B): 0 or 1, expect (unless it is -1) at 1
 * and at 2^k, and the same answer at both (test_scale asserts that out to
 * the domain's ends). */
#define TP_OV(fn, A, TA, B, TB, expect)                                                            \
  do {                                                                                             \
    static tp_stat st_;                                                                            \
    int r1_ = PROX_FN(fn)(&x->A, &x->B), rk_ = r1_, e_ = (expect);                                 \
    int bad_ = (r1_ == 0 || r1_ == 1) && (e_ < 0 || r1_ == e_) ? 0 : TP_ANSWER;                    \
    if (k && (rk_ = PROX_FN(fn)(&xk->A, &xk->B)) != r1_) bad_ |= TP_SCALE;                         \
    if (e_ >= 0 && rk_ != e_) bad_ |= TP_ANSWER;                                                   \
    if (tp_record(&st_, #fn TP_SUF, bad_)) {                                                       \
      TP_PRINT(TA, #A, &x->A);                                                                     \
      TP_PRINT(TB, #B, &x->B);                                                                     \
      printf("    returned %d (expected %d), at 2^k %d\n", r1_, e_, rk_);                          \
    }                                                                                              \
  } while (0)

/* Whether the closed intervals [a0, a1] and [b0, b1] (either order) meet. */
static int TFN(tp_meet)(PROX_REAL a0, PROX_REAL a1, PROX_REAL b0, PROX_REAL b1) {
  PROX_REAL alo = a0 < a1 ? a0 : a1, ahi = a0 < a1 ? a1 : a0;
  PROX_REAL blo = b0 < b1 ? b0 : b1, bhi = b0 < b1 ? b1 : b0;
  return alo <= bhi && blo <= ahi;
}

static int TFN(tp_same_point)(VEC a, VEC b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* The answers known by construction, e[TP_OV_<name>]: the AABB test
 * exactly; 1 for boxes with one center, a triangle vertex in the box, a
 * sphere centered on a vertex, triangles sharing a vertex; else -1
 * (unknown: a test of the registry without a known answer here is held to
 * the rest). */
static void TFN(tp_ov_expect)(const TFN(tp_ov) * x, int *e) {
  const PROX_FN(prox_aabb) *b = &x->a2;
  int i, j;
  for (i = 0; i < TP_OV_COUNT; ++i)
    e[i] = -1;
  e[TP_OV_overlap_aabb_aabb] = TFN(tp_meet)(x->a1.min.x, x->a1.max.x, b->min.x, b->max.x) &&
                               TFN(tp_meet)(x->a1.min.y, x->a1.max.y, b->min.y, b->max.y) &&
                               TFN(tp_meet)(x->a1.min.z, x->a1.max.z, b->min.z, b->max.z);
  if (TFN(tp_same_point)(x->o1.center, x->o2.center)) e[TP_OV_overlap_obb_obb] = 1;
  for (i = 0; i < 3; ++i) {
    VEC v = x->t1.v[i];
    if (TFN(tp_meet)(v.x, v.x, b->min.x, b->max.x) && TFN(tp_meet)(v.y, v.y, b->min.y, b->max.y) &&
        TFN(tp_meet)(v.z, v.z, b->min.z, b->max.z))
      e[TP_OV_overlap_triangle_aabb] = 1;
    if (TFN(tp_same_point)(v, x->sp.center)) e[TP_OV_overlap_sphere_triangle] = 1;
    for (j = 0; j < 3; ++j)
      if (TFN(tp_same_point)(v, x->t2.v[j])) e[TP_OV_overlap_triangle_triangle] = 1;
  }
}

/* The sets of the points v[0..7] and lengths r[0..6]: boxes with corners
 * v0 v3 and v4 v7; boxes centered at v3 and v7 with random axes and half
 * extents r0..r2 and r3..r5; triangles v0 v1 v2 and v4 v5 v6; a sphere
 * around v7 of radius r6. */
static void TFN(tp_ov_make)(oracle_rng *s, TFN(tp_ov) * x, const tp_gen *g) {
  VEC v[8], ax[3], bx[3];
  PROX_REAL r[7];
  int i;
  for (i = 0; i < 8; ++i)
    v[i] = TFN(tp_vec)(s, g);
  for (i = 0; i < 7; ++i)
    r[i] = TFN(tp_real)(s, g);
  TFN(tp_degenerate)(s, v, 8, r, 7, tp_case.deg, TP_E);
  TFN(tp_axes)(s, ax);
  TFN(tp_axes)(s, bx);
  x->a1.min = v[0];
  x->a1.max = v[3];
  x->a2.min = v[4];
  x->a2.max = v[7];
  x->o1.center = v[3];
  x->o2.center = v[7];
  for (i = 0; i < 3; ++i) {
    x->o1.axis[i] = ax[i];
    x->o2.axis[i] = bx[i];
    x->o1.half[i] = r[i];
    x->o2.half[i] = r[3 + i];
    x->t1.v[i] = v[i];
    x->t2.v[i] = v[4 + i];
  }
  x->sp.center = v[7];
  x->sp.radius = r[6];
}

static void PROX_FN(body_overlap)(void) {
  oracle_rng s = oracle_rng_make(tp_seed * 0x9E3779B97F4A7C15u + 0x401 + PROX_IS_DOUBLE);
  unsigned char mask[TP_OVN];
  long c, n = h_count(TP_CASES);
  TFN(tp_ov) x1, x2, *x = &x1, *xk = &x2;
  TFN(tp_mark)(mask, 0, TP_OVN, 1);
  TFN(tp_mark)(mask, offsetof(TFN(tp_ov), o1.axis), 9, 0);
  TFN(tp_mark)(mask, offsetof(TFN(tp_ov), o2.axis), 9, 0);
  /* Every configuration twice: over the domain of the overlap tests, and
   * for the exact triangle-triangle test over its own (overlap.h: the
   * casts' 2^+-300, float 2^+-40, with nonzero magnitudes within 2^300 of
   * each other, so that products of three stay clear of underflow). */
  for (c = 0; c < 2 * n; ++c) {
    int tt = c >= n, hi = tt ? TP_E3 : TP_E;
    tp_gen g;
    tp_win = tt ? 300 : 0;
    g = TFN(tp_begin)(&s, c, TP_SUBNORMAL, -hi, hi);
    int k, e[TP_OV_COUNT];
    TFN(tp_ov_make)(&s, x, &g);
    k = TFN(tp_pick_k)(&s, x, mask, TP_OVN, -hi, hi);
    tp_case.k = k;
    TFN(tp_scale)(xk, x, mask, TP_OVN, k);
    TFN(tp_ov_expect)(x, e);
    PROX_KERNELS_OVERLAP(TP_OV_X)
  }
  tp_win = 0;
  tp_summary();
}

/* ---- K4: contact kernels */

typedef struct TFN(tp_k4) {
  VEC p, a, b, q;     /* the arguments, in the order of test_scale */
  VEC ra, rb, rc, rd; /* a rest shape for the mollifier threshold */
} TFN(tp_k4);

#define TP_K4N ((int)(sizeof(TFN(tp_k4)) / sizeof(PROX_REAL)))

/* The results of a contact kernel: the value from each of the three
 * calls, the gradient, and the gradient and Hessian of the Hessian call. */
typedef struct TFN(tp_k4r) {
  PROX_REAL v, x, y, w[12], g[12], h[144];
} TFN(tp_k4r);

/* The non-finite values (from the three calls), gradient entries (from
 * the two calls) and Hessian entries of r (n coordinates), in nf[0..2];
 * returns 1 when there are none. */
static int TFN(tp_k4_fin)(const TFN(tp_k4r) * r, int n, int *nf) {
  int i;
  nf[0] = !isfinite(r->v) + !isfinite(r->x) + !isfinite(r->y);
  nf[1] = nf[2] = 0;
  for (i = 0; i < n; ++i)
    nf[1] += !isfinite(r->w[i]) + !isfinite(r->g[i]);
  for (i = 0; i < n * n; ++i)
    nf[2] += !isfinite(r->h[i]);
  return nf[0] + nf[1] + nf[2] == 0;
}

/* rk (at 2^k) is r1 with the values times 2^(dg k), the gradients
 * 2^((dg - 1) k) and the Hessian 2^((dg - 2) k) (as test_scale: the sign
 * of a zero is not compared). */
static int TFN(tp_k4_cov)(const TFN(tp_k4r) * r1, const TFN(tp_k4r) * rk, int n, int dg, int k) {
  int i, ok = TFN(tp_same_z)(rk->v, r1->v, dg * k, 0) && TFN(tp_same_z)(rk->x, r1->x, dg * k, 0) &&
              TFN(tp_same_z)(rk->y, r1->y, dg * k, 0);
  for (i = 0; i < n; ++i)
    ok &= TFN(tp_same_z)(rk->w[i], r1->w[i], (dg - 1) * k, 0) &&
          TFN(tp_same_z)(rk->g[i], r1->g[i], (dg - 1) * k, 0);
  for (i = 0; i < n * n; ++i)
    ok &= TFN(tp_same_z)(rk->h[i], r1->h[i], (dg - 2) * k, 0);
  return ok;
}

static void TFN(tp_note_k4)(const TFN(tp_k4) * x, int ty, PROX_REAL eps) {
  TP_PRINT(vec3, "p", &x->p);
  TP_PRINT(vec3, "a", &x->a);
  TP_PRINT(vec3, "b", &x->b);
  TP_PRINT(vec3, "q", &x->q);
  printf("    type %d, eps_x %a\n", ty, (double)eps);
}

#define TP_UNPACK(...) __VA_ARGS__
/* fn's value, gradient (fn_gradient) and Hessian (fn_hessian, which fills
 * the gradient too) with the arguments a1 (at 1) and ak (at 2^k), each a
 * parenthesised list: n coordinates, a value of degree dg. in: whether
 * the configuration meets the kernel's condition on the shape (else a
 * failure is counted as shape*). ty and eps are printed with the points on
 * a failure. */
#define TP_K4(fn, n, dg, ty, eps, in, a1, ak)                                                      \
  do {                                                                                             \
    static tp_stat st_;                                                                            \
    TFN(tp_k4r) r1_, rk_;                                                                          \
    int bad_, atk_, nf_[3];                                                                        \
    r1_.v = PROX_FN(fn)(TP_UNPACK a1);                                                             \
    r1_.x = PROX_FN(fn##_gradient)(TP_UNPACK a1, r1_.w);                                           \
    r1_.y = PROX_FN(fn##_hessian)(TP_UNPACK a1, r1_.g, r1_.h);                                     \
    bad_ = TFN(tp_k4_fin)(&r1_, n, nf_) ? 0 : TP_NONFINITE;                                        \
    atk_ = !bad_ && k;                                                                             \
    if (atk_) {                                                                                    \
      rk_.v = PROX_FN(fn)(TP_UNPACK ak);                                                           \
      rk_.x = PROX_FN(fn##_gradient)(TP_UNPACK ak, rk_.w);                                         \
      rk_.y = PROX_FN(fn##_hessian)(TP_UNPACK ak, rk_.g, rk_.h);                                   \
      if (!TFN(tp_k4_fin)(&rk_, n, nf_))                                                           \
        bad_ = TP_NONFINITE;                                                                       \
      else if (!TFN(tp_k4_cov)(&r1_, &rk_, n, dg, k))                                              \
        bad_ = TP_SCALED;                                                                          \
    }                                                                                              \
    tp_case.out = !(in);                                                                           \
    if (bad_ && tp_case.out) bad_ = TP_SHAPE;                                                      \
    if (tp_record(&st_, #fn TP_SUF, bad_)) {                                                       \
      TFN(tp_note_k4)(x, ty, eps);                                                                 \
      printf("    value %a (gradient call %a, Hessian call %a)", (double)r1_.v, (double)r1_.x,     \
             (double)r1_.y);                                                                       \
      if (atk_) printf(", at 2^k %a", (double)rk_.v);                                              \
      if (bad_ & TP_NONFINITE)                                                                     \
        printf("; non-finite%s: %d values, %d gradient and %d Hessian "                            \
               "entries",                                                                          \
               atk_ ? " at 2^k" : "", nf_[0], nf_[1], nf_[2]);                                     \
      printf("\n");                                                                                \
    }                                                                                              \
    tp_case.out = 0;                                                                               \
  } while (0)

/* A classification: a valid type (0..top). */
#define TP_TYPE(fn, top, args)                                                                     \
  do {                                                                                             \
    static tp_stat st_;                                                                            \
    int t_ = (int)PROX_FN(fn) args;                                                                \
    if (tp_record(&st_, #fn TP_SUF, t_ >= 0 && t_ <= (top) ? 0 : TP_ANSWER)) {                     \
      TFN(tp_note_k4)(x, t_, 0);                                                                   \
    }                                                                                              \
  } while (0)

/* A type for a typed kernel: AUTO (auto_) half the time, else any of
 * 0..auto_ - 1. */
static int TFN(tp_type)(oracle_rng *s, int auto_) {
  return oracle_rng_next(s) & 1 ? auto_ : tp_int(s, 0, auto_ - 1);
}

/* The points of a contact configuration, the arguments and the rest shape
 * each with the configuration's degeneracies. */
static void TFN(tp_k4_make)(oracle_rng *s, TFN(tp_k4) * x, const tp_gen *g, int hi) {
  VEC v[8];
  int i;
  for (i = 0; i < 8; ++i)
    v[i] = TFN(tp_vec)(s, g);
  TFN(tp_degenerate)(s, v, 4, NULL, 0, tp_case.deg, hi);
  TFN(tp_degenerate)(s, v + 4, 4, NULL, 0, tp_case.deg, hi);
  memcpy(x, v, sizeof v);
}

/* d = a - b, each coordinate rounded once to the working precision. */
static void TFN(tp_diff)(double *d, VEC a, VEC b) {
  PROX_REAL x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
  d[0] = (double)x;
  d[1] = (double)y;
  d[2] = (double)z;
}

/* contact.h's condition on the shape (tp_shape_in, D / h <= 2^TP_Q4) for
 * the formula f on the points i0, i1, i2 (and i3) of x, numbered p a b q,
 * in the order of the formula's arguments; where h = 0 exactly, the
 * fallback formula's. Remembered per configuration (tp_in_gen). */
static long TFN(tp_in_gen) = 1;
static int TFN(tp_in)(const TFN(tp_k4) * x, int f, int i0, int i1, int i2, int i3) {
  static long memo_gen[256];
  static int memo[256];
  const VEC v[4] = {x->p, x->a, x->b, x->q};
  const int key = 64 * f + 16 * i0 + 4 * i1 + i2;
  double d[3][3];
  int r;
  if (memo_gen[key] == TFN(tp_in_gen)) return memo[key];
  if (f == TP_PL) {
    TFN(tp_diff)(d[0], v[i2], v[i1]);
    TFN(tp_diff)(d[1], v[i0], v[i1]);
  } else if (f == TP_PLANE) {
    TFN(tp_diff)(d[0], v[i2], v[i1]);
    TFN(tp_diff)(d[1], v[i3], v[i1]);
    TFN(tp_diff)(d[2], v[i0], v[i1]);
  } else {
    TFN(tp_diff)(d[0], v[i1], v[i0]);
    TFN(tp_diff)(d[1], v[i3], v[i2]);
    TFN(tp_diff)(d[2], v[i0], v[i2]);
  }
  r = tp_shape_in(f, (const double(*)[3])d, TP_Q4);
  if (r < 0 && f == TP_PLANE) {
    const int e0[3] = {i1, i2, i3}, e1[3] = {i2, i3, i1};
    r = TFN(tp_in)(x, TP_PL, i0, e0[-1 - r], e1[-1 - r], 0);
  } else if (r < 0) {
    r = r == -1 ? TFN(tp_in)(x, TP_PL, i0, i2, i3, 0) : TFN(tp_in)(x, TP_PL, i2, i0, i1, 0);
  }
  memo_gen[key] = TFN(tp_in_gen);
  memo[key] = r;
  return r;
}

/* contact.h's condition on the shape for the formula fm (contact_shape.h)
 * on the kernel's arguments p a b q (numbered 0..3 in order): the formula
 * that a K4 kernel of the registry evaluates, from its column shape and
 * the type it evaluates (-1 without types), cs_<shape>(type). */
static int TFN(tp_in_shape)(const TFN(tp_k4) * x, cs_formula fm) {
  if (fm.f == CS_NONE) return 1;
  return TFN(tp_in)(x, fm.f, fm.i[0], fm.i[1], fm.i[2], fm.i[3]);
}

/* The K4 kernels of the registry of degree deg_ in the coordinates (2 in
 * contact.h's domain 2^+-TP_E4, body_contact; 4 in the mollifier's,
 * body_mollifier), on the points p, a, b, q of x (test_scale's order): its
 * first verts of them, then a type drawn by TFN(tp_type) if it takes one
 * (TP_K4_DRAW, -1 without), from the kernel's own generator (TP_K4_RNG:
 * seeded by the body's seed and the kernel's name, so that a kernel's
 * types do not depend on the other kernels, and the points on none). A kernel is held to its
 * condition on the shape (tp_in_shape, cs_<shape>) for the type it evaluates: for AUTO, the
 * classifier's type at 1 and at 2^k (both must meet it). Then each classifier: a valid type. */
#define TP_K4_DRAW(name, coords, degree, verts, type, bound, gen, shape)                           \
  if ((degree) == deg_)                                                                            \
    ty[TP_K4_##name] =                                                                             \
        PROX_KERNELS_AUTO_##type ? TFN(tp_type)(&kr[TP_K4_##name], PROX_KERNELS_AUTO_##type) : -1;
#define TP_K4_RNG(name, coords, degree, verts, type, bound, gen, shape)                            \
  kr[TP_K4_##name] = oracle_rng_named(seed_, #name);
#define TP_K4_CLASS(name, verts, type, v)                                                          \
  PROX_KERNELS_TYPED_##type(                                                                       \
      (int)PROX_FN(prox_ipc_##name##_type)(PROX_KERNELS_VERTS_##verts(v->p, v->a, v->b, v->q)),    \
      -1)
#define TP_K4_X(name, coords, degree, verts, type, bound, gen, shape)                              \
  if ((degree) == deg_) {                                                                          \
    int ty_ = ty[TP_K4_##name], in_;                                                               \
    in_ = TFN(tp_in_shape)(                                                                        \
        x, cs_##shape(ty_ != PROX_KERNELS_AUTO_##type ? ty_ : TP_K4_CLASS(name, verts, type, x))); \
    if (k && ty_ == PROX_KERNELS_AUTO_##type)                                                      \
      in_ &= TFN(tp_in_shape)(x, cs_##shape(TP_K4_CLASS(name, verts, type, xk)));                  \
    TP_K4(prox_ipc_##name, coords, degree, ty_, 0, in_,                                            \
          (PROX_KERNELS_K4_ARGS_T(verts, type, x->p, x->a, x->b, x->q, ty_)),                      \
          (PROX_KERNELS_K4_ARGS_T(verts, type, xk->p, xk->a, xk->b, xk->q, ty_)));                 \
  }
#define TP_K4_TYPES(name, coords, degree, verts, type, bound, gen, shape)                          \
  if ((degree) == deg_) {                                                                          \
    PROX_KERNELS_TYPED_##type(TP_TYPE(prox_ipc_##name##_type, PROX_KERNELS_AUTO_##type - 1,        \
                                      (PROX_KERNELS_VERTS_##verts(x->p, x->a, x->b, x->q)));       \
                              , )                                                                  \
  }

/* The distance kernels of the registry (degree 2), their types and typed
 * evaluations, in contact.h's domain 2^+-TP_E4; and the parallel
 * classifier. */
static void PROX_FN(body_contact)(void) {
  const uint64_t seed_ = tp_seed * 0x9E3779B97F4A7C15u + 0x501 + PROX_IS_DOUBLE;
  oracle_rng s = oracle_rng_make(seed_), kr[TP_K4_COUNT];
  unsigned char mask[TP_K4N];
  long c, n = h_count(TP_CASES);
  TFN(tp_k4) x1, x2, *x = &x1, *xk = &x2;
  const int deg_ = 2;
  PROX_KERNELS_K4(TP_K4_RNG)
  TFN(tp_mark)(mask, 0, TP_K4N, 1);
  for (c = 0; c < n; ++c) {
    tp_gen g = TFN(tp_begin)(&s, c, TP_SUBNORMAL, -TP_E4, TP_E4);
    int k, ty[TP_K4_COUNT];
    PROX_KERNELS_K4(TP_K4_DRAW)
    TFN(tp_k4_make)(&s, x, &g, TP_E4);
    k = TFN(tp_pick_k)(&s, x, mask, TP_K4N, -TP_E4, TP_E4);
    tp_case.k = k;
    TFN(tp_scale)(xk, x, mask, TP_K4N, k);
    ++TFN(tp_in_gen);
    PROX_KERNELS_K4(TP_K4_X)
    PROX_KERNELS_K4(TP_K4_TYPES)
    TP_TYPE(prox_ipc_edge_edge_parallel_distance_type, PROX_EE_EA1_EB, (x->p, x->a, x->b, x->q));
  }
  tp_summary();
}

/* The scalar mollifier m(x, eps), m' and m'' at x and eps (degree 4 both)
 * and at their scaled values (2^4k times): m finite, m' and m'' finite
 * where their values (below 2 / eps and 2 / eps^2) certainly are (and for
 * x >= eps, where they are 0); m the same, m' 2^-4k and m'' 2^-8k times. */
static void TFN(tp_mollifier_scalar)(const TFN(tp_k4) * x, PROX_REAL cx, PROX_REAL eps,
                                     PROX_REAL cxk, PROX_REAL epsk, int k) {
  static tp_stat st[3];
  static const char *const names[3] = {"prox_ipc_mollifier" TP_SUF,
                                       "prox_ipc_mollifier_derivative" TP_SUF,
                                       "prox_ipc_mollifier_second_derivative" TP_SUF};
  PROX_REAL v[3], vk[3];
  double big = (double)PROX_REAL_MAX / (2 * (1 + 4 * (double)PROX_EPS));
  int i, need[3];
  need[0] = 1;
  need[1] = cx >= eps || (double)eps * big >= 1;
  need[2] = cx >= eps || (double)eps * (double)eps * big >= 1;
  v[0] = PROX_FN(prox_ipc_mollifier)(cx, eps);
  v[1] = PROX_FN(prox_ipc_mollifier_derivative)(cx, eps);
  v[2] = PROX_FN(prox_ipc_mollifier_second_derivative)(cx, eps);
  vk[0] = PROX_FN(prox_ipc_mollifier)(cxk, epsk);
  vk[1] = PROX_FN(prox_ipc_mollifier_derivative)(cxk, epsk);
  vk[2] = PROX_FN(prox_ipc_mollifier_second_derivative)(cxk, epsk);
  for (i = 0; i < 3; ++i) {
    int bad = isfinite(v[i]) || !need[i] ? 0 : TP_NONFINITE;
    if (!bad && k && isfinite(v[i]) && !TFN(tp_same_z)(vk[i], v[i], -4 * i * k, 0)) bad = TP_SCALED;
    if (tp_record(&st[i], names[i], bad)) {
      TFN(tp_note_k4)(x, -1, eps);
      printf("    x %a: returned %a; at 2^k (x %a, eps_x %a) %a\n", (double)cx, (double)v[i],
             (double)cxk, (double)epsk, (double)vk[i]);
    }
  }
}

/* The edge-edge mollifier with threshold eps (eps at 2^k: epsk) and the
 * scalar mollifier; k 0 for no scaling. */
static void TFN(tp_mollifier)(const TFN(tp_k4) * x, const TFN(tp_k4) * xk, PROX_REAL eps,
                              PROX_REAL epsk, int k) {
  PROX_REAL cx = PROX_FN(prox_ipc_edge_edge_cross_squarednorm)(x->p, x->a, x->b, x->q);
  PROX_REAL cxk = (PROX_REAL)ldexp((double)cx, 4 * k);
  double ea[3], eb[3];
  int in;
  /* contact.h's condition on the threshold, at 1 and at 2^k (the
   * derivatives are of degree -1 and -2: it is not scale-free). */
  TFN(tp_diff)(ea, x->a, x->p);
  TFN(tp_diff)(eb, x->q, x->b);
  in = tp_moll_in(ea, eb, (double)eps, TP_QM);
  if (k) {
    TFN(tp_diff)(ea, xk->a, xk->p);
    TFN(tp_diff)(eb, xk->q, xk->b);
    in &= tp_moll_in(ea, eb, (double)epsk, TP_QM);
  }
  TP_K4(prox_ipc_edge_edge_mollifier, 12, 0, -1, eps, in, (x->p, x->a, x->b, x->q, eps),
        (xk->p, xk->a, xk->b, xk->q, epsk));
  /* cx 2^4k in the normal range, or no scaling of the scalar kernels. */
  if (cx != 0 && fabs((double)cxk) < (double)PROX_REAL_MIN) k = 0;
  TFN(tp_mollifier_scalar)(x, cx, eps, cxk, epsk, k);
}

/* The kernels of degree 4 (those of the registry, mollifier threshold,
 * mollifier) in their domain 2^+-TP_EM. The threshold comes from the rest
 * shape of the same edges, or of other edges. */
static void PROX_FN(body_mollifier)(void) {
  const uint64_t seed_ = tp_seed * 0x9E3779B97F4A7C15u + 0x601 + PROX_IS_DOUBLE;
  oracle_rng s = oracle_rng_make(seed_), kr[TP_K4_COUNT];
  unsigned char mask[TP_K4N];
  long c, n = h_count(TP_CASES);
  TFN(tp_k4) x1, x2, *x = &x1, *xk = &x2;
  const int deg_ = 4;
  PROX_KERNELS_K4(TP_K4_RNG)
  TFN(tp_mark)(mask, 0, TP_K4N, 1);
  for (c = 0; c < n; ++c) {
    static tp_stat st_t;
    tp_gen g = TFN(tp_begin)(&s, c, TP_SUBNORMAL, -TP_EM, TP_EM);
    int k, km, same = oracle_rng_next(&s) & 1, bad, ty[TP_K4_COUNT];
    PROX_REAL eps, epsk;
    PROX_KERNELS_K4(TP_K4_DRAW)
    TFN(tp_k4_make)(&s, x, &g, TP_EM);
    k = TFN(tp_pick_k)(&s, x, mask, TP_K4N, -TP_EM, TP_EM);
    tp_case.k = k;
    TFN(tp_scale)(xk, x, mask, TP_K4N, k);
    ++TFN(tp_in_gen);
    PROX_KERNELS_K4(TP_K4_X)
    PROX_KERNELS_K4(TP_K4_TYPES)
    eps = same ? PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(x->p, x->a, x->b, x->q)
               : PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(x->ra, x->rb, x->rc, x->rd);
    epsk = same ? PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(xk->p, xk->a, xk->b, xk->q)
                : PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(xk->ra, xk->rb, xk->rc, xk->rd);
    bad = isfinite(eps) && eps >= 0 ? 0 : TP_NONFINITE;
    if (!bad && k && !TFN(tp_same_z)(epsk, eps, 4 * k, 0)) bad = TP_SCALED;
    if (tp_record(&st_t, "prox_ipc_edge_edge_mollifier_threshold" TP_SUF, bad)) {
      TFN(tp_note_k4)(x, same, eps);
      printf("    rest shape %s; at 2^k %a\n", same ? "p a b q" : "other", (double)epsk);
    }
    /* The mollifier is scaled where eps 2^4k is exact (normal or 0). */
    epsk = (PROX_REAL)ldexp((double)eps, 4 * k);
    km = eps == 0 || fabs((double)epsk) >= (double)PROX_REAL_MIN ? k : 0;
    TFN(tp_mollifier)(x, xk, eps, epsk, km);
  }
  tp_summary();
}

#undef TP_K1
#undef TP_K2
#undef TP_K3
#undef TP_K4
#undef TP_OV
#undef TP_TYPE
#undef TP_PRINT
#undef TP_UNPACK
#undef TP_K1N
#undef TP_K2N
#undef TP_K3N
#undef TP_K4N
#undef TP_OVN
#undef VEC
#undef TFN

#endif /* TEST_PROPERTY_TEMPLATE */
