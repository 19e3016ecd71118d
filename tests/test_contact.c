/* SPDX-License-Identifier: MIT */
/* Tests of the contact kernels (K4, include/prox/contact.h):
 * - values of every kernel against an exact rational oracle (GMP) on four
 *   kinds of input (uniform, large offset, tiny, adversarial), both
 *   precisions, with the measured maximum error per kind printed;
 * - classification against the exact classification wherever the exact
 *   answer is unambiguous: the exact closest points farther than CMARGIN
 *   = 16 eps S from their region's boundaries (edge-edge: 16 eps S / sin of
 *   the angle), the shape not within a factor 4 of the degeneracy
 *   threshold, no tie between the candidates of a degenerate shape; the
 *   cases within those margins, and how many of them differ, are printed
 *   (the largest margin of a differing case in eps S, edge-edge eps S /
 *   sin);
 * - gradients and Hessians against central finite differences with
 *   Richardson extrapolation (double), Hessian symmetry, and float against
 *   double on the same input, for every K4 kernel of the registry
 *   (tests/kernels.h) in every distance type, and the mollifier;
 * - the mollifier's C1 continuity at its threshold;
 * - non-finite, invalid and degenerate input: every K4 kernel of the
 *   registry in every type on exactly degenerate configurations against
 *   its oracle (degen_case), and the known answers of particular kernels;
 * - finite values, gradients and Hessians under contact.h's condition on
 *   the shape (shape_condition), vertices an ulp apart included.
 *
 * Usage: test_contact [filter] [-v]. Only tests whose name contains filter
 * run. The last line is "N passed, M failed"; the exit status is non-zero
 * on failure.
 *
 * Built by CMake against the library. To build it alone, without the
 * library, define PROX_TEST_STANDALONE: this translation unit then emits
 * the external definitions of the inline kernels itself, e.g.
 *   gcc -std=c11 -O2 -DPROX_TEST_STANDALONE -Iinclude tests/test_contact.c
 *       -lgmp -lm */
#if defined(PROX_TEST_STANDALONE)
#define PROX_EMIT_EXTERNAL
#endif
#include "prox/contact.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_oracle.h"
#include "contact_shape.h"
#include "kernels.h"
#include "rng.h"

/* ---- harness ----------------------------------------------------------- */

static long g_pass, g_fail;
static int g_verbose;
static int g_nvalue = 20000; /* value cases per kernel and kind */
static int g_nderiv = 10000; /* derivative configurations per function/type */

static void check_impl(int ok, const char *what, const char *file, int line) {
  if (ok) {
    ++g_pass;
    return;
  }
  ++g_fail;
  if (g_fail <= 40) fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
}

#define CHECK(c) check_impl((c) ? 1 : 0, #c, __FILE__, __LINE__)

/* A bound on an error measure of the kernel or case `name`: NaN counts as a
 * failure. */
#define CHECK_BOUND(e, bound, name)                                                                \
  do {                                                                                             \
    int ok_ = (e) <= (bound);                                                                      \
    if (!ok_ && (g_verbose || g_fail < 40))                                                        \
      fprintf(stderr, "%s: error %g > %g\n", (name), (double)(e), (double)(bound));                \
    check_impl(ok_, "error bound", __FILE__, __LINE__);                                            \
  } while (0)

/* Maximum and count of an error measure. */
typedef struct stat {
  double max;
  long n;
} stat;

static void stat_init(stat *s) {
  s->max = 0;
  s->n = 0;
}

static void stat_add(stat *s, double e) {
  if (!(e <= s->max)) s->max = e; /* NaN propagates as the max */
  ++s->n;
}

/* Classification agreement counts: decided cases (and how many agree);
 * cases within the margin of a region boundary only (how many of them
 * differ from the exact type, and the largest margin, in parameter units,
 * of one that does); cases near the degeneracy threshold or tied (and how
 * many differ). */
typedef struct tstat {
  long checked, agree, amb_margin, amb_margin_diff, amb_other, amb_other_diff;
  double amb_margin_max;
} tstat;

static void tstat_init(tstat *t) {
  t->checked = t->agree = t->amb_margin = t->amb_margin_diff = 0;
  t->amb_other = t->amb_other_diff = 0;
  t->amb_margin_max = -1;
}

static void tstat_add(tstat *t, q_class c, int ty, double unit) {
  if (c.ambiguous == Q_AMB_MARGIN) {
    ++t->amb_margin;
    if (ty != c.type) {
      ++t->amb_margin_diff;
      if (c.lmargin / (unit * c.mscale) > t->amb_margin_max)
        t->amb_margin_max = c.lmargin / (unit * c.mscale);
    }
    return;
  }
  if (c.ambiguous) {
    ++t->amb_other;
    t->amb_other_diff += ty != c.type;
    return;
  }
  ++t->checked;
  if (ty == c.type) ++t->agree;
}

#define NKINDS 4
static const char *const kind_name[NKINDS] = {"uniform", "offset", "tiny", "adversarial"};

/* The maximum error of the well-conditioned cases wc, in units unit, and of
 * all cases (all, unless NULL). */
static void report(const char *prec, const char *what, int kind, const stat *wc, const stat *all,
                   const char *unit) {
  if (all)
    printf("  %-6s %-22s %-11s max %9.3g %s (n=%ld well-conditioned), "
           "%9.3g over all n=%ld\n",
           prec, what, kind_name[kind], wc->max, unit, wc->n, all->max, all->n);
  else
    printf("  %-6s %-22s %-11s max %9.3g %s (n=%ld)\n", prec, what, kind_name[kind], wc->max, unit,
           wc->n);
}

static void treport(const char *prec, const char *what, int kind, const tstat *t) {
  printf("  %-6s %-22s %-11s %ld/%ld agree with exact; within the margin "
         "%ld (%ld differ, largest margin %.3g eps S); near the degeneracy "
         "threshold or tied %ld (%ld differ)\n",
         prec, what, kind_name[kind], t->agree, t->checked, t->amb_margin, t->amb_margin_diff,
         t->amb_margin_max < 0 ? 0 : t->amb_margin_max, t->amb_other, t->amb_other_diff);
}

/* ---- random input ------------------------------------------------------ */

static oracle_rng g_rng;
/* The seed of the running test, from its name (main). */
static uint64_t g_seed;

static uint64_t rnext(void) {
  return oracle_rng_next(&g_rng);
}

/* Uniform in [0, 1) and [-1, 1). */
static double u01(void) {
  return (double)(rnext() >> 11) * 0x1p-53;
}
static double urand(void) {
  return 2 * u01() - 1;
}
static int irand(int n) {
  return (int)(rnext() % (uint64_t)n);
}

static void rvec(double *a) {
  a[0] = urand();
  a[1] = urand();
  a[2] = urand();
}

/* Small integers / 8: exact in both precisions, for exact degeneracies. */
static void ivec(double *a) {
  a[0] = (irand(17) - 8) / 8.0;
  a[1] = (irand(17) - 8) / 8.0;
  a[2] = (irand(17) - 8) / 8.0;
}

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(double *r, const double *a, const double *b) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

static void sub3(double *r, const double *a, const double *b) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}

/* r = a + s b */
static void madd3(double *r, const double *a, double s, const double *b) {
  r[0] = a[0] + s * b[0];
  r[1] = a[1] + s * b[1];
  r[2] = a[2] + s * b[2];
}

static void unit3(double *a) {
  double l = sqrt(dot3(a, a));
  if (l > 0) {
    a[0] /= l;
    a[1] /= l;
    a[2] /= l;
  }
}

/* A random unit vector orthogonal to the non-zero vector a. */
static void perp3(double *r, const double *a) {
  double t[3], b[3];
  rvec(t);
  memcpy(b, a, sizeof b);
  unit3(b);
  madd3(r, t, -dot3(t, b), b);
  unit3(r);
}

/* The largest magnitude of the coordinates of the n vertices at x. */
static double max_abs(const double *x, int n) {
  double s = 0;
  int i;
  for (i = 0; i < 3 * n; ++i)
    if (fabs(x[i]) > s) s = fabs(x[i]);
  return s;
}

/* The kind's transform: large offset (translate ~1e6, scale ~1e3) or tiny
 * (scale 1e-8); uniform and adversarial stay at unit scale. */
static void apply_kind(int kind, double v[][3], int n) {
  int i, j;
  if (kind == 1) {
    double t[3];
    for (j = 0; j < 3; ++j)
      t[j] = (1 + u01()) * 1e6 * (irand(2) ? 1 : -1);
    for (i = 0; i < n; ++i)
      for (j = 0; j < 3; ++j)
        v[i][j] = t[j] + 1e3 * v[i][j];
  } else if (kind == 2) {
    for (i = 0; i < n; ++i)
      for (j = 0; j < 3; ++j)
        v[i][j] *= 1e-8;
  }
}

/* Point-edge cases: v[0] = p, v[1] = e0, v[2] = e1. */
static void gen_pe(int kind, int i, double v[3][3]) {
  double e[3], w[3];
  int k;
  for (k = 0; k < 3; ++k)
    rvec(v[k]);
  if (kind == 3) {
    sub3(e, v[2], v[1]);
    switch (i % 6) {
    case 0: /* on the boundary plane t = 0 */
      perp3(w, e);
      madd3(v[0], v[1], urand(), w);
      break;
    case 1: /* on the boundary plane t = 1 */
      perp3(w, e);
      madd3(v[0], v[2], urand(), w);
      break;
    case 2: /* zero-length edge */
      memcpy(v[2], v[1], sizeof v[2]);
      break;
    case 3: /* tiny edge */
      rvec(w);
      madd3(v[2], v[1], 1e-12, w);
      break;
    case 4: /* on the line */
      madd3(v[0], v[1], 2 * u01() - 0.5, e);
      break;
    default: /* next to an endpoint */
      rvec(w);
      madd3(v[0], v[1 + irand(2)], 1e-12, w);
      break;
    }
  }
  apply_kind(kind, v, 3);
}

/* Point-triangle cases: v[0] = p, v[1..3] = t0, t1, t2. */
static void gen_pt(int kind, int i, double v[4][3]) {
  double e1[3], e2[3], n[3], w[3], q[3];
  int k;
  for (k = 0; k < 4; ++k)
    rvec(v[k]);
  if (kind == 3) {
    double *t[3];
    t[0] = v[1];
    t[1] = v[2];
    t[2] = v[3];
    sub3(e1, t[1], t[0]);
    sub3(e2, t[2], t[0]);
    cross3(n, e1, e2);
    unit3(n);
    k = irand(3);
    switch (i % 8) {
    case 0: { /* face / edge boundary: above a point of edge k */
      double ek[3];
      sub3(ek, t[(k + 1) % 3], t[k]);
      madd3(q, t[k], u01(), ek);
      madd3(v[0], q, urand(), n);
      break;
    }
    case 1: { /* edge / vertex boundary: the plane through t[k] normal to
                 edge k, outside the triangle */
      double ek[3], m[3];
      sub3(ek, t[(k + 1) % 3], t[k]);
      cross3(m, ek, n);
      unit3(m);
      sub3(w, t[(k + 2) % 3], t[k]);
      if (dot3(m, w) > 0) {
        m[0] = -m[0];
        m[1] = -m[1];
        m[2] = -m[2];
      }
      madd3(q, t[k], u01(), m);
      madd3(v[0], q, urand(), n);
      break;
    }
    case 2: /* cap sliver: t2 near the middle of t0 t1 */
      perp3(w, e1);
      madd3(q, t[0], 0.5, e1);
      madd3(t[2], q, pow(10.0, -(4 + irand(9))), w);
      break;
    case 3: /* needle: t2 next to t1 */
      rvec(w);
      madd3(t[2], t[1], pow(10.0, -(4 + irand(9))), w);
      break;
    case 4: { /* exactly collinear */
      double d[3];
      static const double kk[4] = {2, -1, 3, 0.5};
      ivec(t[0]);
      ivec(d);
      madd3(t[1], t[0], 1, d);
      madd3(t[2], t[0], kk[irand(4)], d);
      break;
    }
    case 5: /* coincident vertices */
      memcpy(t[1], t[0], sizeof(double) * 3);
      if (i % 16 == 5) memcpy(t[2], t[0], sizeof(double) * 3);
      break;
    case 6: /* nearly in the plane */
      madd3(q, t[0], 1.5 * u01() - 0.25, e1);
      madd3(q, q, 1.5 * u01() - 0.25, e2);
      madd3(v[0], q, 1e-14 * urand(), n);
      break;
    default: { /* thin sliver with p above its inside */
      double a = 0.5 * u01(), b = 0.5 * u01();
      perp3(w, e1);
      madd3(q, t[0], 0.5, e1);
      madd3(t[2], q, pow(10.0, -(4 + irand(5))), w);
      sub3(e2, t[2], t[0]);
      madd3(q, t[0], a, e1);
      madd3(q, q, b, e2);
      perp3(w, e1);
      cross3(n, e1, w);
      unit3(n);
      madd3(v[0], q, urand(), n);
      break;
    }
    }
  }
  apply_kind(kind, v, 4);
}

/* Edge-edge cases: v[0], v[1] = ea0, ea1; v[2], v[3] = eb0, eb1. */
static void gen_ee(int kind, int i, double v[4][3]) {
  double ea[3], eb[3], n[3], w[3], q[3];
  int k;
  for (k = 0; k < 4; ++k)
    rvec(v[k]);
  if (kind == 3) {
    switch (i % 7) {
    case 0:
    case 6: { /* nearly parallel at angle 1e-4 .. 1e-12 */
      double th = pow(10.0, -(4 + 2 * ((i / 7) % 5))), lam, sig;
      sub3(ea, v[1], v[0]);
      perp3(w, ea);
      lam = (0.3 + 1.2 * u01()) * (irand(2) ? 1 : -1);
      for (k = 0; k < 3; ++k)
        eb[k] = lam * (cos(th) * ea[k] + sin(th) * sqrt(dot3(ea, ea)) * w[k]);
      /* overlapping (case 0) or shifted past the end (case 6) */
      sig = i % 7 == 0 ? 1.2 * u01() - 0.6 : 1.2 + u01();
      perp3(n, ea);
      madd3(q, v[0], sig, ea);
      madd3(v[2], q, 0.5 * urand(), n);
      madd3(v[3], v[2], 1, eb);
      break;
    }
    case 1: /* exactly parallel */
      ivec(v[0]);
      ivec(ea);
      if (dot3(ea, ea) == 0) ea[0] = 0.5;
      madd3(v[1], v[0], 1, ea);
      ivec(v[2]);
      madd3(v[3], v[2], (irand(2) ? 1 : -1) * (1 + irand(2)), ea);
      break;
    case 2: { /* closest points on the boundary of the parameter square */
      static const double st[3] = {0, 1, 0.5};
      double s = st[irand(2)], t = st[irand(3)];
      if (irand(2)) {
        double x = s;
        s = t;
        t = x;
      }
      rvec(n);
      unit3(n);
      rvec(ea);
      madd3(ea, ea, -dot3(ea, n), n);
      rvec(eb);
      madd3(eb, eb, -dot3(eb, n), n);
      madd3(v[1], v[0], 1, ea);
      madd3(q, v[0], s, ea);
      madd3(q, q, urand(), n);
      madd3(v[2], q, -t, eb);
      madd3(v[3], v[2], 1, eb);
      break;
    }
    case 3: /* zero-length edge(s) */
      memcpy(v[1], v[0], sizeof(double) * 3);
      if (i % 14 == 3) memcpy(v[3], v[2], sizeof(double) * 3);
      break;
    case 4: /* intersecting */
      sub3(ea, v[1], v[0]);
      madd3(q, v[0], u01(), ea);
      sub3(eb, v[3], v[2]);
      madd3(v[2], q, -u01(), eb);
      madd3(v[3], v[2], 1, eb);
      break;
    default: { /* collinear overlapping */
      double o[3], d[3];
      ivec(o);
      ivec(d);
      if (dot3(d, d) == 0) d[1] = 0.25;
      madd3(v[0], o, 0, d);
      madd3(v[1], o, 2, d);
      madd3(v[2], o, 1, d);
      madd3(v[3], o, 3, d);
      break;
    }
    }
  }
  apply_kind(kind, v, 4);
}

/* The generators of the value tests, by the class a K4 kernel of the
 * registry names (its column gen): the number of vertices each makes and,
 * for reporting, subsets of the cases (bucket: its index, or -1) with
 * their names. */
enum { G_pe, G_pt, G_ee, G_COUNT };

/* The nearly parallel adversarial edge-edge cases (gen_ee case 0:
 * overlapping, case 6: past the end) by angle 1e-4, 1e-6, ..., 1e-12. */
static int ee_angle(int kind, int i) {
  return kind == 3 && (i % 7 == 0 || i % 7 == 6) ? (i / 7) % 5 : -1;
}
static const char *const ee_angle_name[5] = {
    "nearly parallel, angle 1e-4 ", "nearly parallel, angle 1e-6 ", "nearly parallel, angle 1e-8 ",
    "nearly parallel, angle 1e-10", "nearly parallel, angle 1e-12"};

#define G_MAXBUCKET 5
typedef struct gen_class {
  void (*gen)(int kind, int i, double v[][3]);
  int nv, nbucket;
  int (*bucket)(int kind, int i);
  const char *const *bucket_name;
} gen_class;
static const gen_class gens[G_COUNT] = {
    {gen_pe, 3, 0, 0, 0}, {gen_pt, 4, 0, 0, 0}, {gen_ee, 4, 5, ee_angle, ee_angle_name}};

/* Exactly degenerate configurations of four vertices, for the degenerate
 * tests of every K4 kernel of the registry: small dyadic coordinates
 * (ivec), so that every difference is exact in both precisions. Case c:
 * 0..13 the vertices equal in one of the 14 patterns of coincidence (the
 * partitions of the four vertices but the finest: vertex j copies the
 * first vertex of its block); 14 all four on one line; 15 all four in one
 * plane; 16 v1 - v0 parallel to v3 - v2 (one a multiple of the other, or
 * both zero). */
#define DEGEN_CASES 17
static void degen_case(int c, double v[4][3]) {
  double o[3], d[3], d2[3];
  int j;
  for (j = 0; j < 4; ++j)
    ivec(v[j]);
  if (c < 14) {
    /* The restricted growth strings of length 4 (block labels, a label
     * at most one above the largest before it) but 0 1 2 3, in order. */
    int lab[4], n = 0, k;
    for (lab[0] = 0, lab[1] = 0; lab[1] <= 1; ++lab[1])
      for (lab[2] = 0; lab[2] <= lab[1] + 1; ++lab[2])
        for (lab[3] = 0; lab[3] <= (lab[1] > lab[2] ? lab[1] : lab[2]) + 1; ++lab[3]) {
          if (lab[1] == 1 && lab[2] == 2 && lab[3] == 3) continue;
          if (n++ != c) continue;
          for (j = 1; j < 4; ++j)
            for (k = 0; k < j; ++k)
              if (lab[k] == lab[j]) {
                memcpy(v[j], v[k], sizeof v[j]);
                break;
              }
        }
    return;
  }
  ivec(o);
  ivec(d);
  if (dot3(d, d) == 0) d[0] = 0.5;
  if (c == 14) {
    for (j = 0; j < 4; ++j)
      madd3(v[j], o, irand(7) - 3, d);
  } else if (c == 15) {
    ivec(d2);
    for (j = 0; j < 4; ++j) {
      madd3(v[j], o, irand(5) - 2, d);
      madd3(v[j], v[j], irand(5) - 2, d2);
    }
  } else {
    madd3(v[1], v[0], irand(5) - 2, d);
    madd3(v[3], v[2], irand(5) - 2, d);
  }
}

/* ---- derivatives: the functions --------------------------------------- */

/* The functions whose gradients and Hessians are tested: the K4 kernels of
 * the registry (tests/kernels.h), each in every distance type it takes,
 * then the mollifier. */
#define FN_ENUM(name, coords, degree, verts, type, bound, gen, shape) F_##name,
enum { PROX_KERNELS_K4(FN_ENUM) F_MOLL, F_COUNT };
#define FN_NAME(name, coords, degree, verts, type, bound, gen, shape) #name,
static const char *const fname[F_COUNT] = {PROX_KERNELS_K4(FN_NAME) "edge_edge_mollifier"};
/* The generator of function f within the running test: from the test's
 * seed and the function's name, so that a kernel's inputs do not depend
 * on the other kernels of the registry or on its place among them. */
static oracle_rng kernel_rng(int f) {
  return oracle_rng_named(g_seed, fname[f]);
}
#define FN_VERTS(name, coords, degree, verts, type, bound, gen, shape) verts,
static const int fnv[F_COUNT] = {PROX_KERNELS_K4(FN_VERTS) 4};
/* The number of distance types of each (1: no type argument). */
#define FN_TYPES(name, coords, degree, verts, type, bound, gen, shape)                             \
  PROX_KERNELS_TYPED_##type(PROX_KERNELS_AUTO_##type, 1),
static const int fntypes[F_COUNT] = {PROX_KERNELS_K4(FN_TYPES) 1};
#define FN_DEGREE(name, coords, degree, verts, type, bound, gen, shape) degree,
static const int fdeg[F_COUNT] = {PROX_KERNELS_K4(FN_DEGREE) 0};
#define FN_GEN(name, coords, degree, verts, type, bound, gen, shape) G_##gen,
static const int fgen[F_COUNT] = {PROX_KERNELS_K4(FN_GEN) G_ee};
/* Asserted bound on the error of each kernel's value, fbound[F_<name>],
 * from the registry (tests/kernels.h): for a squared distance in units of
 * eps S^2 (S the largest input coordinate magnitude), for the auto-typed
 * distances on all cases, for the typed formulas on well-conditioned ones
 * (feet of the closest points within [-1, 2] in parameter units). Two
 * ulps of the largest squared distance these inputs reach (about 12 S^2
 * for points in a cube of half-size S, where one ulp is 8 eps S^2): the
 * plain formulas are faithful there, not correctly rounded. |ea x eb|^2:
 * in units of eps |ea|^2 |eb|^2. */
#define FN_BOUND(name, coords, degree, verts, type, bound, gen, shape) bound,
static const double fbound[F_COUNT] = {PROX_KERNELS_K4(FN_BOUND) 0};
/* The exact oracles of each (contact_oracle.h), by the kernel's name: the
 * value of a formula, and of a kernel with a type the classification. */
#define FN_ORACLE(name, coords, degree, verts, type, bound, gen, shape) q_##name,
static int (*const foracle[F_COUNT])(mpq_ptr, const double *, int) = {PROX_KERNELS_K4(FN_ORACLE) 0};
#define FN_CLASS(name, coords, degree, verts, type, bound, gen, shape)                             \
  PROX_KERNELS_TYPED_##type(q_##name##_class, 0),
static q_class (*const fclass[F_COUNT])(mpq_ptr, const double *, double, double,
                                        double) = {PROX_KERNELS_K4(FN_CLASS) 0};

/* 1 when the n entries are all NaN. */
static int nan_all(const double *x, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (x[i] == x[i]) return 0;
  return 1;
}

/* 1 when the n entries are finite. */
static int all_finite(const double *v, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}

typedef struct dfun {
  int f, type;
  double eps_x;
} dfun;

/* ---- value and classification tests, both precisions --------------- */

/* The classifiers of the typed K4 kernels, for CF(classify) in
 * contact_cases.h. */
#define FN_CLASSIFY(name, coords, degree, verts, type, bound, gen, shape)                          \
  case F_##name:                                                                                   \
    PROX_KERNELS_TYPED_##type(*auto_type = PROX_KERNELS_AUTO_##type;                               \
                              return (int)PROX_FN(prox_ipc_##name##_type)(                         \
                                         PROX_KERNELS_VERTS_##verts(p0, p1, p2, p3)),              \
                                     return -1);

#include <prox/detail/real_double.h>
#define CF(name) name##_d
#define CTAU PROX_IPC_DEGENERATE_SIN2
/* The margin of the type decisions (contact.h), in eps S. */
#define CMARGIN 16.0
#include "contact_cases.h"
#undef CF
#undef CTAU
#undef CMARGIN
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#define CF(name) name##_f
#define CTAU ((double)PROX_IPC_DEGENERATE_SIN2F)
#define CMARGIN 16.0
#include "contact_cases.h"
#undef CF
#undef CTAU
#undef CMARGIN
#include <prox/detail/real_end.h>

/* The type decisions' margin of contact.h, in eps S (times the oracle's
 * mscale), for test_ee_skew. */
#define CMARGIN_SKEW 16.0

/* ---- derivatives (double, and float against double) ------------------- */

/* sin^2 of the angle between u and v (1 if either is zero). */
static double sin2(const double *u, const double *v) {
  double n[3], uu = dot3(u, u), vv = dot3(v, v);
  if (!(uu > 0 && vv > 0)) return 1;
  cross3(n, u, v);
  return dot3(n, n) / (uu * vv);
}

/* The formula (contact_shape.h) that K4 kernel f evaluates in type ty,
 * from its column shape in the registry: cs_<shape>(ty). The mollifier
 * (not in the registry) has none. */
#define FN_SHAPE(name, coords, degree, verts, type, bound, gen, shape)                             \
  case F_##name:                                                                                   \
    return cs_##shape(ty);
static cs_formula fshape(int f, int ty) {
  switch (f) {
    PROX_KERNELS_K4(FN_SHAPE)
  default:
    return cs_none(ty);
  }
}

/* 1 when the edge x[i] x[j] is comfortably long. */
static int wp_edge(const double *x, int i, int j) {
  double e[3];
  sub3(e, x + 3 * j, x + 3 * i);
  return dot3(e, e) >= 1e-2;
}

/* 1 when the edges x[i0] x[i1] and x[i2] x[i3] are comfortably long and
 * far from parallel. */
static int wp_edges(const double *x, int i0, int i1, int i2, int i3) {
  double e1[3], e2[3];
  sub3(e1, x + 3 * i1, x + 3 * i0);
  sub3(e2, x + 3 * i3, x + 3 * i2);
  return dot3(e1, e1) >= 1e-2 && dot3(e2, e2) >= 1e-2 && sin2(e1, e2) >= 1e-2;
}

/* A configuration on which the formula of (f, type) is comfortably smooth
 * (no near-singular Gram matrix), so that finite differences are
 * meaningful: the formula of the kernel's shape class in that type
 * (fshape) with its edge, or its triangle's two edges from the first
 * vertex, or its two lines, comfortably long and far from parallel. A
 * kernel of degree 4 (the squared norm of the cross product of the edges
 * v1 - v0, v3 - v2), and the mollifier, also needs both edges long: its
 * value and derivatives, to which the errors are relative, scale with
 * their lengths. */
static int well_posed(const dfun *c, const double *x) {
  cs_formula fm = fshape(c->f, c->type);
  if (fm.f == CS_PL && !wp_edge(x, fm.i[1], fm.i[2])) return 0;
  if (fm.f == CS_PLANE && !wp_edges(x, fm.i[1], fm.i[2], fm.i[1], fm.i[3])) return 0;
  if (fm.f == CS_LL && !wp_edges(x, fm.i[0], fm.i[1], fm.i[2], fm.i[3])) return 0;
  if ((fdeg[c->f] == 4 || c->f == F_MOLL) && !(wp_edge(x, 0, 1) && wp_edge(x, 2, 3))) return 0;
  return 1;
}

/* Central difference of the value (gradient when g is not NULL) along
 * coordinate i with step h, Richardson-extrapolated from h and h / 2. */
static double fd_value(const dfun *c, const double *x0, int i, double h) {
  double x[12], d1, d2;
  memcpy(x, x0, sizeof x);
  x[i] = x0[i] + h;
  d1 = deval_d(c, x, 0, 0);
  x[i] = x0[i] - h;
  d1 = (d1 - deval_d(c, x, 0, 0)) / (2 * h);
  x[i] = x0[i] + h / 2;
  d2 = deval_d(c, x, 0, 0);
  x[i] = x0[i] - h / 2;
  d2 = (d2 - deval_d(c, x, 0, 0)) / h;
  return (4 * d2 - d1) / 3;
}

static void fd_grad(const dfun *c, const double *x0, int i, double h, int n, double *col) {
  double x[12], gp[12], gm[12], d1[12];
  int j;
  memcpy(x, x0, sizeof x);
  x[i] = x0[i] + h;
  deval_d(c, x, gp, 0);
  x[i] = x0[i] - h;
  deval_d(c, x, gm, 0);
  for (j = 0; j < n; ++j)
    d1[j] = (gp[j] - gm[j]) / (2 * h);
  x[i] = x0[i] + h / 2;
  deval_d(c, x, gp, 0);
  x[i] = x0[i] - h / 2;
  deval_d(c, x, gm, 0);
  for (j = 0; j < n; ++j)
    col[j] = (4 * ((gp[j] - gm[j]) / h) - d1[j]) / 3;
}

static void test_derivatives(void) {
  int f, type;
  printf("derivatives (double, central differences with Richardson, "
         "relative to the largest entry):\n");
  for (f = 0; f < F_COUNT; ++f)
    for (type = 0; type < fntypes[f]; ++type) {
      dfun c;
      int n = 3 * fnv[f], done = 0, tries = 0, sym_ok = 1;
      double gmax = 0, hmax = 0;
      c.f = f;
      c.type = type;
      c.eps_x = 1;
      if (type == 0) g_rng = kernel_rng(f);
      while (done < g_nderiv && tries < 50 * g_nderiv) {
        double x[12], g[12], h[144], g2[12], col[12], scale_g = 0, scale_h = 0, eg = 0, eh = 0, v,
                                                      v2;
        int i, j;
        ++tries;
        for (i = 0; i < 12; ++i)
          x[i] = urand();
        if (!well_posed(&c, x)) continue;
        if (f == F_MOLL) {
          /* Threshold on either side of x, away from it so that the
           * finite-difference stencil does not cross the kink of m''. */
          double xx = prox_ipc_edge_edge_cross_squarednorm(vec_d(x), vec_d(x + 3), vec_d(x + 6),
                                                           vec_d(x + 9));
          double r = done % 2 ? 0.2 + 0.7 * u01() : 1.1 + 2 * u01();
          c.eps_x = xx * r;
          if (!(xx > 1e-3)) continue;
        }
        ++done;
        v = deval_d(&c, x, g, 0);
        v2 = deval_d(&c, x, g2, h);
        CHECK(v == v2);
        for (i = 0; i < n; ++i)
          CHECK(g[i] == g2[i]);
        for (i = 0; i < n; ++i)
          for (j = 0; j < i; ++j)
            if (h[i * n + j] != h[j * n + i]) sym_ok = 0;
        for (i = 0; i < n; ++i) {
          double fd = fd_value(&c, x, i, 1e-5);
          if (fabs(g[i]) > scale_g) scale_g = fabs(g[i]);
          if (fabs(g[i] - fd) > eg) eg = fabs(g[i] - fd);
        }
        for (i = 0; i < n; ++i) {
          fd_grad(&c, x, i, 1e-5, n, col);
          for (j = 0; j < n; ++j) {
            if (fabs(h[j * n + i]) > scale_h) scale_h = fabs(h[j * n + i]);
            if (fabs(h[j * n + i] - col[j]) > eh) eh = fabs(h[j * n + i] - col[j]);
          }
        }
        /* A vanishing gradient (e.g. mollifier above threshold) is
         * compared in absolute terms. */
        eg /= scale_g > 1e-12 ? scale_g : 1;
        eh /= scale_h > 1e-12 ? scale_h : 1;
        if (eg > gmax) gmax = eg;
        if (eh > hmax) hmax = eh;
        CHECK_BOUND(eg, 1e-6, "gradient finite difference");
        CHECK_BOUND(eh, 1e-6, "Hessian finite difference");
        /* The auto type gives the derivatives of the classified type. */
        {
          dfun a = c;
          double ga[12], ha[144];
          if (classify_d(f, x, &a.type) == type) {
            deval_d(&a, x, ga, ha);
            CHECK(memcmp(ga, g2, sizeof(double) * (size_t)n) == 0);
            CHECK(memcmp(ha, h, sizeof(double) * (size_t)(n * n)) == 0);
          }
        }
      }
      CHECK(done == g_nderiv);
      CHECK(sym_ok);
      if (fntypes[f] > 1)
        printf("  %-23s type %d: n=%d  grad max rel err %.2e  Hessian max "
               "rel err %.2e  symmetric %s\n",
               fname[f], type, done, gmax, hmax, sym_ok ? "yes" : "NO");
      else
        printf("  %-31s n=%d  grad max rel err %.2e  Hessian max rel err "
               "%.2e  symmetric %s\n",
               fname[f], done, gmax, hmax, sym_ok ? "yes" : "NO");
    }
}

/* Float derivatives agree with the double ones at the same input: every
 * function but the mollifier, in every type, where well posed. */
static void test_float_derivatives(void) {
  int it, f, ty;
  double emax = 0;
  for (it = 0; it < 2000; ++it) {
    double x[12], g[12], h[144], gf[12], hf[144];
    int i;
    for (i = 0; i < 12; ++i)
      x[i] = (float)urand();
    for (f = 0; f < F_MOLL; ++f)
      for (ty = 0; ty < fntypes[f]; ++ty) {
        double sg = 0, sh = 0, eg = 0, eh = 0;
        int n = 3 * fnv[f];
        dfun c;
        c.f = f;
        c.type = ty;
        c.eps_x = 1;
        if (!well_posed(&c, x)) continue;
        deval_d(&c, x, g, h);
        deval_f(&c, x, gf, hf);
        for (i = 0; i < n; ++i) {
          if (fabs(g[i]) > sg) sg = fabs(g[i]);
          if (fabs(g[i] - gf[i]) > eg) eg = fabs(g[i] - gf[i]);
        }
        for (i = 0; i < n * n; ++i) {
          if (fabs(h[i]) > sh) sh = fabs(h[i]);
          if (fabs(h[i] - hf[i]) > eh) eh = fabs(h[i] - hf[i]);
        }
        eg /= sg > 0 ? sg : 1;
        eh /= sh > 0 ? sh : 1;
        if (eg > emax) emax = eg;
        if (eh > emax) emax = eh;
        CHECK_BOUND(eg, 1e-3, "float gradient vs double");
        CHECK_BOUND(eh, 1e-3, "float Hessian vs double");
      }
  }
  printf("  float derivatives vs double (every function and type but the mollifier): max rel "
         "diff %.2e\n",
         emax);
}

/* ---- mollifier --------------------------------------------------------- */

static void test_mollifier(void) {
  int it;
  double jump_v = 0, jump_d = 0;
  /* Scalar: the formula and its limits at the threshold from both sides. */
  for (it = 0; it < 10000; ++it) {
    double ex = pow(10.0, 8 * urand()), x = ex * 1.7 * u01(), y = x / ex;
    double m = prox_ipc_mollifier(x, ex), d = prox_ipc_mollifier_derivative(x, ex);
    double d2 = prox_ipc_mollifier_second_derivative(x, ex);
    if (x < ex) {
      CHECK(fabs(m - (-y * y + 2 * y)) <= 4 * DBL_EPSILON);
      CHECK(fabs(d - 2 * (1 - y) / ex) <= 8 * DBL_EPSILON / ex);
      CHECK(fabs(d2 + 2 / (ex * ex)) <= 8 * DBL_EPSILON / (ex * ex));
    } else {
      CHECK(m == 1 && d == 0 && d2 == 0);
    }
    {
      double dl = 1e-7 * u01(), lo = ex * (1 - dl), hi = ex * (1 + dl);
      double jv = fabs(prox_ipc_mollifier(lo, ex) - prox_ipc_mollifier(hi, ex));
      double jd =
          fabs(prox_ipc_mollifier_derivative(lo, ex) - prox_ipc_mollifier_derivative(hi, ex)) * ex;
      /* C1: both jumps vanish with dl (value like dl^2, slope like dl). */
      CHECK(jv <= dl * dl + 4 * DBL_EPSILON);
      CHECK(jd <= 2 * dl + 8 * DBL_EPSILON);
      if (jv > jump_v) jump_v = jv;
      if (jd > jump_d) jump_d = jd;
    }
    CHECK(prox_ipc_mollifier(ex, ex) == 1);
    CHECK(prox_ipc_mollifier_derivative(ex, ex) == 0);
    CHECK(prox_ipc_mollifierf((float)x, (float)ex) - (float)m <= 1e-5f &&
          (float)m - prox_ipc_mollifierf((float)x, (float)ex) <= 1e-5f);
  }
  CHECK(prox_ipc_mollifier(0.5, 0) == 1 && prox_ipc_mollifier(0.5, -1) == 1);
  /* Edge-edge form: just below and just above the threshold, value and
   * gradient from both sides meet. */
  {
    double gmax = 0;
    for (it = 0; it < 10000; ++it) {
      double x[12], glo[12], ghi[12], hlo[144], xx, dl = 1e-9, sg = 0, eg = 0, vlo, vhi;
      prox_vec3 a, b, c, d;
      int i;
      for (i = 0; i < 12; ++i)
        x[i] = urand();
      a = vec_d(x);
      b = vec_d(x + 3);
      c = vec_d(x + 6);
      d = vec_d(x + 9);
      xx = prox_ipc_edge_edge_cross_squarednorm(a, b, c, d);
      if (!(xx > 1e-3)) continue;
      vlo = prox_ipc_edge_edge_mollifier_hessian(a, b, c, d, xx * (1 + dl), glo, hlo);
      vhi = prox_ipc_edge_edge_mollifier_gradient(a, b, c, d, xx * (1 - dl), ghi);
      CHECK(fabs(vlo - vhi) <= 4 * dl * dl + 8 * DBL_EPSILON);
      prox_ipc_edge_edge_cross_squarednorm_gradient(a, b, c, d, ghi);
      for (i = 0; i < 12; ++i)
        if (fabs(ghi[i]) > sg) sg = fabs(ghi[i]);
      for (i = 0; i < 12; ++i) {
        /* Below the threshold the gradient is m'(x) dx with
         * m'(x) ~ 2 dl / eps_x: it vanishes as dl -> 0. */
        if (fabs(glo[i]) * xx / sg > eg) eg = fabs(glo[i]) * xx / sg;
      }
      CHECK(eg <= 4 * dl);
      if (eg > gmax) gmax = eg;
      /* Above the threshold: exactly 1 and a zero gradient. */
      vhi = prox_ipc_edge_edge_mollifier_gradient(a, b, c, d, xx * (1 - dl), ghi);
      CHECK(vhi == 1);
      for (i = 0; i < 12; ++i)
        CHECK(ghi[i] == 0);
    }
    printf("mollifier C1 at threshold: max value jump %.2e (for relative "
           "offset <= 1e-7), max slope jump * eps_x %.2e, edge-edge gradient "
           "* eps_x / |dx| at 1e-9 below %.2e\n",
           jump_v, jump_d, gmax);
  }
  /* Threshold convention. */
  {
    prox_vec3 a = prox_v3(0, 0, 0), b = prox_v3(2, 0, 0), c = prox_v3(0, 1, 0),
              d = prox_v3(0, 1, 3);
    CHECK(prox_ipc_edge_edge_mollifier_threshold(a, b, c, d) == 1e-3 * 4 * 9);
    CHECK(prox_ipc_edge_edge_mollifier_threshold(a, a, c, d) == 0);
  }
  /* Second derivative where eps_x^2 leaves the range: eps_x = m 2^e (m odd,
   * m^2 exact) gives -2 / (m^2 2^(2e)), rounded once to the subnormal grid
   * (units of 2^-1074, float 2^-149): -round(2^(1075 - 2e) / m^2) units,
   * from integers; and at the other end -2^1023 for eps_x = 2^-511, -inf
   * below 2^-512. */
  {
    mpz_t num, q, r;
    int fl, e, k;
    mpz_inits(num, q, r, NULL);
    for (fl = 0; fl < 2; ++fl)
      for (k = 0; k < 200; ++k) {
        int sub = fl ? 149 : 1074, mb = fl ? 12 : 26;
        unsigned long m = (2 * (unsigned long)(u01() * ldexp(1, mb - 1))) | 1;
        double eps, got, want;
        /* e such that eps_x^2 overflows (2e + 2 log2 m > 1024, float 128),
         * and the result is not 0: 2^(sub + 1 - 2e) >= m^2 / 2. */
        int elo = (fl ? 64 : 512) - (int)floor(log2((double)m));
        int ehi = (int)floor((sub + 2 - 2 * log2((double)m)) / 2);
        if (ehi < elo) continue;
        e = elo + irand(ehi - elo + 1);
        eps = ldexp((double)m, e);
        mpz_set_ui(num, 1);
        mpz_mul_2exp(num, num, (mp_bitcnt_t)(sub + 1 - 2 * e));
        mpz_set_ui(r, m);
        mpz_mul_ui(r, r, m);
        mpz_fdiv_qr(q, num, num, r); /* q = quotient, num = remainder */
        mpz_mul_2exp(num, num, 1);
        if (mpz_cmp(num, r) > 0 || (mpz_cmp(num, r) == 0 && mpz_odd_p(q))) mpz_add_ui(q, q, 1);
        want = -ldexp(mpz_get_d(q), -sub);
        got = fl ? (double)prox_ipc_mollifier_second_derivativef(0, (float)eps)
                 : prox_ipc_mollifier_second_derivative(0, eps);
        if (got != want && g_verbose)
          fprintf(stderr, "%s m'' at eps_x = %lu 2^%d: %a, want %a\n", fl ? "float" : "double", m,
                  e, got, want);
        CHECK(got == want);
      }
    mpz_clears(num, q, r, NULL);
    CHECK(prox_ipc_mollifier_second_derivative(0, ldexp(1, -511)) == -ldexp(1, 1023));
    CHECK(prox_ipc_mollifier_second_derivative(0, ldexp(1, -512)) == -INFINITY);
    CHECK(prox_ipc_mollifier_second_derivativef(0, ldexpf(1, -63)) == -ldexpf(1, 127));
    CHECK(prox_ipc_mollifier_second_derivativef(0, ldexpf(1, -64)) == -INFINITY);
  }
}

/* ---- main -------------------------------------------------------------- */

/* ---- the shape condition of finite derivatives (contact.h) ------------ */

/* D / h up to which values, gradients and Hessians are promised finite:
 * 2^SHAPE_Q_DOUBLE, 2^SHAPE_Q_FLOAT (contact.h). */
#define SHAPE_Q_DOUBLE 448
#define SHAPE_Q_FLOAT 48

/* A random unit vector. */
static void shape_dir(double *u) {
  double l;
  do {
    rvec(u);
    l = sqrt(dot3(u, u));
  } while (l < 0.1 || l > 1);
  u[0] /= l, u[1] /= l, u[2] /= l;
}

/* x[3 v + i] = o[i] + s u[i], rounded to float when fl. */
static void put3(double *x, int v, const double *o, double s, const double *u, int fl) {
  int i;
  for (i = 0; i < 3; ++i) {
    double c = (o ? o[i] : 0) + s * u[i];
    x[3 * v + i] = fl ? (double)(float)c : c;
  }
}

/* The shape of variant k with largest distance about D = 2^e and smallest
 * size h = 2^(e - q) (the small part at the origin, where it is
 * representable): 0 point-line, edge h; 1 point-plane, height h (t0 = -t1
 * exactly, so that the line t0 t1 passes through the origin); 2
 * point-plane, an edge h; 3 line-line, an edge h; 4 line-line, sin of the
 * angle 2^-q (q <= 40 here: representable at scale D); 5 four vertices
 * within an ulp of one another. The kernels see the differences of the
 * vertices rounded, which for q > 53 (float 24) make variants 1 and 4 a
 * different shape; 6 and 7 keep h in them, along coordinate axes, with
 * long edges of random length (which the old Hessian factors could not
 * take: D / h above about 2^280 overflowed): 6 point-plane, a sliver of
 * height about h (the foot of p has barycentric coordinates of the order
 * of D / h), 7 line-line, sin of the angle about 2^-q, q up to the limit
 * (6 and 7: q <= the limit - 2, their D / h being up to 4 times 2^q). */
static void shape_case(int k, int e, int q, int fl, double *x) {
  double D = ldexp(1.0, e), h = ldexp(D, -q), a[3], b[3], c[3], o[3];
  int i;
  shape_dir(a);
  perp3(b, a);
  shape_dir(c);
  switch (k) {
  case 0: /* p, e0, e1 */
    put3(x, 0, 0, D * (0.5 + 0.5 * u01()), c, fl);
    put3(x, 1, 0, 0, a, fl);
    put3(x, 2, 0, h, a, fl);
    break;
  case 1: /* p, t0, t1, t2 */
    put3(x, 0, 0, D * (0.5 + 0.5 * u01()), c, fl);
    put3(x, 1, 0, -D, a, fl);
    for (i = 0; i < 3; ++i)
      x[6 + i] = -x[3 + i];
    put3(x, 3, 0, h, b, fl);
    break;
  case 2:
    put3(x, 0, 0, D * (0.5 + 0.5 * u01()), c, fl);
    put3(x, 1, 0, 0, a, fl);
    put3(x, 2, 0, h, a, fl);
    put3(x, 3, 0, D, b, fl);
    break;
  case 3: /* ea0, ea1, eb0, eb1 */
    put3(x, 0, 0, 0, a, fl);
    put3(x, 1, 0, h, a, fl);
    put3(x, 2, 0, D * (0.5 + 0.5 * u01()), c, fl);
    for (i = 0; i < 3; ++i)
      o[i] = x[6 + i];
    put3(x, 3, o, D, b, fl);
    break;
  case 4:
    put3(x, 0, 0, -D, a, fl);
    put3(x, 1, 0, D, a, fl);
    put3(x, 2, 0, D * (0.5 + 0.5 * u01()), c, fl);
    for (i = 0; i < 3; ++i)
      o[i] = x[6 + i] + 2 * D * a[i] + 2 * h * b[i];
    put3(x, 3, o, 0, a, fl);
    break;
  case 5:
    put3(x, 0, 0, D * (0.5 + 0.5 * u01()), c, fl);
    for (i = 3; i < 12; ++i)
      x[i] = x[i % 3];
    x[3] = fl ? (double)nextafterf((float)x[0], INFINITY) : nextafter(x[0], INFINITY);
    x[7] = fl ? (double)nextafterf((float)x[1], -INFINITY) : nextafter(x[1], -INFINITY);
    x[11] = fl ? (double)nextafterf((float)x[2], INFINITY) : nextafter(x[2], INFINITY);
    x[9] = x[3];
    break;
  case 6:
  case 7: {
    /* The long edges along the axis ax with random lengths, their
     * deviations of size h along the other two axes ay, az, so that every
     * difference the kernels form is exact: t0 = 0, t1 = r1 D ax + h ay,
     * t2 = r2 D ax + h az; or ea0 = 0, ea1 = r1 D ax + h ay, eb0 = o (no
     * az part), eb1 = o + r2 D ax + h az. The smallest height (line-line:
     * h) is at least h / sqrt(2), and D at most 2 D (3 D): D / h stays
     * below 2^(q + 2). */
    int ax = irand(3), ay = (ax + 1 + irand(2)) % 3, az = 3 - ax - ay;
    double r1 = 0.5 + 0.5 * u01(), r2 = 0.5 + 0.5 * u01(), t;
    if (irand(2)) r1 = -r1;
    if (irand(2)) r2 = -r2;
    for (i = 3; i < 12; ++i)
      x[i] = 0;
    t = r1 * D;
    x[3 * (k == 6 ? 2 : 1) + ax] = fl ? (double)(float)t : t;
    x[3 * (k == 6 ? 2 : 1) + ay] = h;
    if (k == 6) {
      put3(x, 0, 0, D * (0.5 + 0.5 * u01()), c, fl);
      t = r2 * D;
      x[9 + ax] = fl ? (double)(float)t : t;
      x[9 + az] = h;
    } else {
      for (i = 0; i < 3; ++i)
        x[i] = 0;
      put3(x, 2, 0, D * (0.5 + 0.5 * u01()), c, fl);
      x[6 + az] = 0;
      for (i = 0; i < 3; ++i)
        x[9 + i] = x[6 + i];
      t = x[6 + ax] + r2 * D;
      x[9 + ax] = fl ? (double)(float)t : t;
      x[9 + az] = h;
    }
    break;
  }
  }
}

/* The formula whose smallest size h shape_case's variant k makes small
 * (contact_shape.h), and how many vertices the variant sets: 0 point-line
 * on p; e0 e1 (three), 1, 2, 6 point-plane on p; t0 t1 t2, 3, 4, 7
 * line-line on ea0 ea1; eb0 eb1; 5 (four vertices an ulp apart) every
 * formula (CS_NONE here). */
static cs_formula shape_variant(int k, int *nv) {
  *nv = k == 0 ? 3 : 4;
  switch (k) {
  case 0:
    return cs_pl(-1);
  case 1:
  case 2:
  case 6:
    return cs_plane(-1);
  case 3:
  case 4:
  case 7:
    return cs_ll(-1);
  default:
    return cs_none(-1);
  }
}

/* 1 when type ty of K4 kernel f (the registry's shape column, fshape)
 * evaluates the formula of variant k on vertices the variant sets. */
static int shape_reaches(int f, int ty, int k) {
  int nv;
  cs_formula v = shape_variant(k, &nv), fm = fshape(f, ty);
  if (fnv[f] > nv || fm.f == CS_NONE) return 0;
  return v.f == CS_NONE || cs_same(fm, v);
}

/* The functions and types that the shapes reach, and the variants (bits
 * ks) that reach each: from the registry, every K4 kernel in each type
 * (the untyped formula, or each typed one) whose formula a variant makes
 * small (shape_reaches), and a typed kernel's AUTO where any of its types
 * is reached (the classified formula). And, marked free, every distance
 * (degree 2) in each type whose shape class names no condition (CS_NONE:
 * point-point), on every variant that sets its vertices: finite beyond
 * the limit too, so that a kernel whose shape column wrongly says none
 * fails there. */
#define SHAPE_MAXFV (F_COUNT * 16)
static struct { int f, type, ks, free_; } shape_fv[SHAPE_MAXFV];
static int shape_nfv;

static void shape_fv_add(int f, int ty, int ks, int free_) {
  shape_fv[shape_nfv].f = f;
  shape_fv[shape_nfv].type = ty;
  shape_fv[shape_nfv].ks = ks;
  shape_fv[shape_nfv++].free_ = free_;
}

static void shape_fv_init(void) {
  int f, ty, k, all, nv;
  shape_nfv = 0;
  for (f = 0; f < F_MOLL; ++f) {
    all = 0;
    for (ty = 0; ty < fntypes[f]; ++ty) {
      int ks = 0, t = fntypes[f] > 1 ? ty : -1;
      for (k = 0; k < 8; ++k)
        ks |= shape_reaches(f, t, k) << k;
      all |= ks;
      if (ks) shape_fv_add(f, ty, ks, 0);
      if (fshape(f, t).f == CS_NONE && fdeg[f] == 2) {
        for (k = 0; k < 8; ++k) {
          shape_variant(k, &nv);
          ks |= (fnv[f] <= nv) << k;
        }
        shape_fv_add(f, ty, ks, 1);
      }
    }
    if (fntypes[f] > 1 && all) shape_fv_add(f, fntypes[f], all, 0); /* AUTO */
  }
}

/* Value, gradient and Hessian of every formula variant k reaches
 * (shape_fv; free: only those marked free, else only those not), in
 * double or float: 1 when all are finite. */
static int shape_eval(int k, const double *x, int fl, int free_) {
  double g[12], h[144];
  int ok = 1, i;
  for (i = 0; i < shape_nfv; ++i)
    if (((shape_fv[i].ks >> k) & 1) && shape_fv[i].free_ == free_) {
      dfun c;
      int n = 3 * fnv[shape_fv[i].f];
      double v;
      c.f = shape_fv[i].f;
      c.type = shape_fv[i].type;
      c.eps_x = 1;
      v = fl ? deval_f(&c, x, g, h) : deval_d(&c, x, g, h);
      ok &= isfinite(v) && all_finite(g, n) && all_finite(h, n * n);
    }
  return ok;
}

/* contact.h's condition on the shape: with D the largest distance between
 * the vertices a formula uses and h its smallest size (edge length,
 * smallest height, shorter edge times the sine of the angle), values,
 * gradients and Hessians are finite for D / h <= 2^448 (float 2^48)
 * across the domain, and the four vertices of issue 13 (an ulp apart, at
 * any scale, whose Hessians were all non-finite) are inside it. Asserted
 * there; beyond (up to 100 binades further) the non-finite results are
 * counted and printed, not asserted: the exact Hessian leaves the range
 * near D / h = 2^511 (float 2^63). The formulas without a condition (the
 * free entries of shape_fv) are asserted finite beyond as well. */
static void test_shape_condition(void) {
  int fl, vk, i;
  shape_fv_init();
  printf("  kernels and types per variant (the registry's shape column; + free):");
  for (vk = 0; vk < 8; ++vk) {
    int n = 0, nf = 0;
    for (i = 0; i < shape_nfv; ++i) {
      n += ((shape_fv[i].ks >> vk) & 1) && !shape_fv[i].free_;
      nf += ((shape_fv[i].ks >> vk) & 1) && shape_fv[i].free_;
    }
    printf(" %d: %d+%d%s", vk, n, nf, vk < 7 ? "," : "\n");
  }
  if (g_verbose)
    for (i = 0; i < shape_nfv; ++i)
      printf("    %s type %d: variants 0x%02x%s\n", fname[shape_fv[i].f], shape_fv[i].type,
             shape_fv[i].ks, shape_fv[i].free_ ? " (free)" : "");
  for (fl = 0; fl < 2; ++fl) {
    int Q = fl ? SHAPE_Q_FLOAT : SHAPE_Q_DOUBLE, L = fl ? 40 : 500, k;
    long inside = 0, outside = 0, out_bad = 0;
    for (k = 0; k < 8; ++k) {
      int it, n = g_nvalue / 2;
      for (it = 0; it < 2 * n; ++it) {
        int beyond = it >= n, qmax = k == 4 ? 40 : (k >= 6 ? Q - 2 : Q);
        int q = beyond ? Q + 1 + irand(100) : irand(qmax + 1), e, ok;
        double x[12];
        if (k == 5) q = 0;
        if (beyond && (k == 4 || k == 5)) continue;
        /* Every coordinate of magnitude within [2^-L, 2^L] (or 0). */
        e = q - L + 8 + irand(2 * L - q - 8 > 0 ? 2 * L - q - 8 : 1);
        if (e >= L) e = L - 1;
        shape_case(k, e, q, fl, x);
        ok = shape_eval(k, x, fl, 0);
        if (!beyond) {
          ok &= shape_eval(k, x, fl, 1);
          ++inside;
          if (!ok && g_verbose)
            fprintf(stderr, "%s variant %d, D 2^%d, D / h 2^%d: non-finite\n",
                    fl ? "float" : "double", k, e, q);
          CHECK(ok);
        } else {
          int okf = shape_eval(k, x, fl, 1);
          ++outside;
          out_bad += !ok;
          if (!okf && g_verbose)
            fprintf(stderr, "%s variant %d, D 2^%d, D / h 2^%d: non-finite free kernel\n",
                    fl ? "float" : "double", k, e, q);
          CHECK(okf);
        }
      }
    }
    printf("  %s: %ld shapes with D / h <= 2^%d, all finite; %ld beyond "
           "(up to 2^%d): %ld with a non-finite entry\n",
           fl ? "float" : "double", inside, Q, outside, Q + 100, out_bad);
  }
}

typedef struct test {
  const char *name;
  void (*fn)(void);
} test;

/* The value tests of the K4 kernels with a type, one per kernel and
 * precision, in the order of the registry (contact_cases.h). */
#define TEST_VALUES_TYPED(name, coords, degree, verts, type, bound, gen, shape)                    \
  PROX_KERNELS_TYPED_##type(TEST_VALUES_TYPED_ANY(name), )
#define TEST_VALUES_TYPED_ANY(name)                                                                \
  {"values_" #name "_double", values_##name##_d}, {"values_" #name "_float", values_##name##_f},

/* Nearly parallel skew edges whose closest points are interior and near a
 * boundary of their region, the case the value tests' generators rarely
 * make: sin of the angle 10^-1 .. 10^-6 (float: .. 10^-4, above its
 * degeneracy threshold), the lines 10^-8 .. 0.3 apart, edge a's closest
 * point 10^-2 .. 10^-15 of its length from ea0. The classifier's type
 * against the exact one (GMP) outside the documented margin, 16 eps (S +
 * d / sin) / sin (contact.h). Without its d / sin term (the edge vectors'
 * rounding turning the common normal), 64 of these fail in double; a
 * probe of such pairs found misclassifications up to 73,000 eps S / sin
 * under the margin without it. */
static void test_ee_skew(void) {
  int fl;
  for (fl = 0; fl < 2; ++fl) {
    oracle_rng g = oracle_rng_named(g_seed, fl ? "ee_skew_float" : "ee_skew_double");
    int i, n = g_nvalue, f = F_edge_edge_distance;
    long decided = 0, within = 0;
    double eps = fl ? (double)FLT_EPSILON : DBL_EPSILON;
    double tau = fl ? (double)PROX_IPC_DEGENERATE_SIN2F : PROX_IPC_DEGENERATE_SIN2;
    for (i = 0; i < n; ++i) {
      double x[12], d[3], r[3], q[3], e[3], la, lb, off, sa, sb, ang, len, pr, s;
      int k, m = qmark(), ty;
      mpq_ptr ex = qnew();
      q_class qc;
      ang = oracle_rng_log10(&g, fl ? -4 : -6, -1);
      for (k = 0; k < 3; ++k) {
        d[k] = oracle_rng_range(&g, -1, 1);
        r[k] = oracle_rng_range(&g, -1, 1);
        x[k] = oracle_rng_range(&g, -1, 1);
      }
      len = sqrt(dot3(d, d));
      for (k = 0; k < 3; ++k)
        d[k] /= len;
      pr = dot3(r, d);
      for (k = 0; k < 3; ++k)
        r[k] -= pr * d[k];
      len = sqrt(dot3(r, r));
      for (k = 0; k < 3; ++k)
        r[k] /= len;
      cross3(q, d, r);
      la = oracle_rng_range(&g, 0.5, 1.5);
      lb = oracle_rng_range(&g, 0.5, 1.5);
      off = oracle_rng_log10(&g, -8, -0.5);
      sa = oracle_rng_log10(&g, -15, -2);
      sb = oracle_rng_unit(&g);
      for (k = 0; k < 3; ++k) {
        double c;
        e[k] = cos(ang) * d[k] + sin(ang) * r[k];
        x[3 + k] = x[k] + la * d[k];
        c = x[k] + sa * la * d[k] + off * q[k];
        x[6 + k] = c - sb * lb * e[k];
        x[9 + k] = x[6 + k] + lb * e[k];
      }
      if (fl)
        for (k = 0; k < 12; ++k)
          x[k] = (double)(float)x[k];
      s = max_abs(x, 4);
      qc = fclass[f](ex, x, tau, 32 * eps * s * s, CMARGIN_SKEW * eps * s);
      if (fl)
        ty = (int)prox_ipc_edge_edge_distance_typef(
            prox_v3f((float)x[0], (float)x[1], (float)x[2]),
            prox_v3f((float)x[3], (float)x[4], (float)x[5]),
            prox_v3f((float)x[6], (float)x[7], (float)x[8]),
            prox_v3f((float)x[9], (float)x[10], (float)x[11]));
      else
        ty = (int)prox_ipc_edge_edge_distance_type(
            prox_v3(x[0], x[1], x[2]), prox_v3(x[3], x[4], x[5]), prox_v3(x[6], x[7], x[8]),
            prox_v3(x[9], x[10], x[11]));
      if (qc.ambiguous) {
        ++within;
      } else {
        ++decided;
        if (ty != qc.type && g_verbose)
          fprintf(stderr, "ee_skew %s: type %d exact %d lmargin %g (margin %g) i %d\n",
                  fl ? "float" : "double", ty, qc.type, qc.lmargin,
                  CMARGIN_SKEW * eps * s * qc.mscale, i);
        CHECK(ty == qc.type);
      }
      qrelease(m);
    }
    printf("  %s: %ld decided outside the margin, %ld within it\n", fl ? "float " : "double",
           decided, within);
  }
}

static const test tests[] = {
    {"values_formulas_double", values_formulas_d},
    {"values_formulas_float", values_formulas_f},
    PROX_KERNELS_K4(TEST_VALUES_TYPED){"nonfinite_double", nonfinite_d},
    {"nonfinite_float", nonfinite_f},
    {"degenerate_double", degenerate_d},
    {"degenerate_float", degenerate_f},
    {"derivatives_double", test_derivatives},
    {"derivatives_float_vs_double", test_float_derivatives},
    {"mollifier", test_mollifier},
    {"shape_condition", test_shape_condition},
    {"ee_skew", test_ee_skew},
};

int main(int argc, char **argv) {
  const char *filter = 0;
  size_t i;
  int a;
  const char *env = getenv("PROX_TEST_SCALE");
  for (a = 1; a < argc; ++a) {
    if (strcmp(argv[a], "-v") == 0)
      g_verbose = 1;
    else
      filter = argv[a];
  }
  if (env) {
    double s = atof(env);
    if (s > 0) {
      g_nvalue = (int)(g_nvalue * s);
      g_nderiv = (int)(g_nderiv * s);
    }
  }
  q_init();
  for (i = 0; i < sizeof tests / sizeof tests[0]; ++i) {
    long p0 = g_pass, f0 = g_fail;
    if (filter && !strstr(tests[i].name, filter)) continue;
    /* Seeded by the test's name, not its place in the table. */
    g_seed = 0x5eed0000u ^ oracle_fnv1a(tests[i].name);
    g_rng = oracle_rng_make(g_seed);
    printf("[%s]\n", tests[i].name);
    tests[i].fn();
    printf("  -> %ld checks, %ld failed\n", (g_pass - p0) + (g_fail - f0), g_fail - f0);
    fflush(stdout);
  }
  q_done();
  printf("%ld passed, %ld failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
