/* SPDX-License-Identifier: MIT */
/* Benchmark of the pair kernels (K2), side by side in one process with the
 * textbook baselines of bench/textbook_pairs.h.
 *
 *   bench_pairs [--quick] [--seed N] [--runs N] [--only WORD]
 *
 * One row per kernel, precision and data set, ns per query:
 *   textbook  segment-segment: Ericson 5.1.9; segment-triangle and
 *             triangle-triangle: the brute-force composition (two-sided
 *             Ericson 5.3.6 crossing test, then the minimum over Ericson
 *             5.1.5 point-triangle and 5.1.9 edge-edge distances);
 *   prox      the prox kernel with out = NULL (squared distance only);
 *   prox+out  the prox kernel filling its prox_pair (points, parameters,
 *             features), the checksum reading both points too;
 * ratio = prox / textbook (target for segment-segment: at most 1.3).
 *
 * Data: coordinates uniform in [-1, 1]^3 (segment-triangle and
 * triangle-triangle: the second object shifted by a random vector of
 * length up to 1, so that about half of the pairs are apart), plus a
 * "parallel" segment-segment set where every second pair is exactly
 * parallel (the ill-conditioned path of both). "stream": 10M pairs for
 * segment-segment (1M for the triangle kernels) read once per run from
 * memory; "cache": 32k pairs swept 64 times (8 for the triangle kernels).
 * Every figure is the median of --runs runs (default 5) timed with
 * clock_gettime(CLOCK_MONOTONIC); the loops of a row run interleaved in an
 * order rotated from run to run, and each sums its results into a printed
 * checksum. --quick: 200k / 4k pairs. --only WORD: rows whose name (e.g.
 * "segment-segment float stream") contains WORD.
 *
 * The per-precision code is written once: the file includes itself twice
 * with BENCH_PAIRS_TEMPLATE defined (double, then float). */
#ifndef BENCH_PAIRS_TEMPLATE

#define _POSIX_C_SOURCE 199309L

#include <prox/closest.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t bp_state;
static int bp_runs = 5, bp_quick;
static const char *bp_only;
static volatile double bp_sink;

/* splitmix64 */
static uint64_t bp_next(void) {
  uint64_t z = (bp_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static double bp_uni(double lo, double hi) {
  return lo + (hi - lo) * ((double)(bp_next() >> 11) * 0x1p-53);
}

static double bp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bp_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double bp_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bp_cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *bp_alloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "bench_pairs: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static int bp_wanted(const char *name) {
  return !bp_only || strstr(name, bp_only) != NULL;
}

/* A timed loop over n pairs (a[i], b[i]); returns a checksum. */
typedef double (*bp_loop)(const void *a, const void *b, size_t n);

/* Runs each of the nl loops bp_runs times (`sweeps` sweeps per run),
 * interleaved and rotated, after one untimed warm-up; ns[] gets the median
 * ns per query. */
static void bp_time(const bp_loop *loops, int nl, const void *a, const void *b, size_t n,
                    size_t sweeps, double *ns) {
  double t[4][64];
  int r, v, runs = bp_runs < 64 ? bp_runs : 64;
  size_t s;
  for (v = 0; v < nl; ++v)
    bp_sink += loops[v](a, b, n);
  for (r = 0; r < runs; ++r)
    for (v = 0; v < nl; ++v) {
      int k = (v + r) % nl;
      double sum = 0, t0 = bp_now();
      for (s = 0; s < sweeps; ++s)
        sum += loops[k](a, b, n);
      t[k][r] = (bp_now() - t0) / (double)(n * sweeps);
      bp_sink += sum;
    }
  for (v = 0; v < nl; ++v)
    ns[v] = bp_median(t[v], runs);
}

static size_t bp_stream = 10000000, bp_stream_tri = 1000000;
static size_t bp_cache = 32768, bp_sweeps = 64, bp_sweeps_tri = 8;

#define BENCH_PAIRS_TEMPLATE
#include <prox/detail/real_double.h>
#include "textbook_pairs.h"
#include "bench_pairs.c"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "textbook_pairs.h"
#include "bench_pairs.c"
#include <prox/detail/real_end.h>
#undef BENCH_PAIRS_TEMPLATE

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int i;
  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      bp_quick = 1;
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      bp_runs = atoi(argv[++i]);
      if (bp_runs < 1) bp_runs = 1;
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      bp_only = argv[++i];
    } else {
      fprintf(stderr, "usage: %s [--quick] [--seed N] [--runs N] [--only WORD]\n", argv[0]);
      return 2;
    }
  }
  if (bp_quick) {
    bp_stream = bp_stream_tri = 200000;
    bp_cache = 4096;
    bp_sweeps = bp_sweeps_tri = 8;
  }
  printf("# bench_pairs: seed %llu, median of %d runs; stream %zu pairs "
         "(triangle kernels %zu), cache %zu pairs x %zu sweeps (triangle "
         "kernels x %zu)\n\n",
         (unsigned long long)seed, bp_runs, bp_stream, bp_stream_tri, bp_cache, bp_sweeps,
         bp_sweeps_tri);
  printf("| kernel | precision | data | textbook ns | prox ns | ratio | "
         "prox+out ns | ratio +out |\n");
  printf("|---|---|---|---:|---:|---:|---:|---:|\n");
  bp_state = seed;
  rows(bp_stream, bp_stream_tri, 1, 1, "stream");
  bp_state = seed;
  rowsf(bp_stream, bp_stream_tri, 1, 1, "stream");
  bp_state = seed + 1;
  rows(bp_cache, bp_cache, bp_sweeps, bp_sweeps_tri, "cache");
  bp_state = seed + 1;
  rowsf(bp_cache, bp_cache, bp_sweeps, bp_sweeps_tri, "cache");
  printf("\n# checksum %.17g\n", (double)bp_sink);
  return 0;
}

#else /* BENCH_PAIRS_TEMPLATE: one precision */

#define BP_VEC PROX_FN(prox_vec3)
#define BP_SEG PROX_FN(prox_segment)
#define BP_TRI PROX_FN(prox_triangle)
#define BP_PREC (PROX_IS_DOUBLE ? "double" : "float")

static BP_VEC PROX_FN(bp_rvec)(double lo, double hi) {
  /* Sequenced draws: the order of evaluation of arguments is unspecified. */
  double x = bp_uni(lo, hi), y = bp_uni(lo, hi), z = bp_uni(lo, hi);
  return PROX_FN(prox_v3)((PROX_REAL)x, (PROX_REAL)y, (PROX_REAL)z);
}

/* A random shift of length up to 1. */
static BP_VEC PROX_FN(bp_shift)(void) {
  BP_VEC d;
  do {
    d = PROX_FN(bp_rvec)(-1, 1);
  } while (PROX_FN(prox_vlen2)(d) > 1);
  return d;
}

/* ------------------------------ loops ------------------------------------ */

/* Two accumulators keep the checksum additions off the critical path. */
#define BP_LOOP(name, A, B, BODY)                                                                  \
  static double name(const void *va, const void *vb, size_t n) {                                   \
    const A *a = (const A *)va;                                                                    \
    const B *b = (const B *)vb;                                                                    \
    double s0 = 0, s1 = 0;                                                                         \
    size_t i;                                                                                      \
    for (i = 0; i + 1 < n; i += 2) {                                                               \
      s0 += BODY(a + i, b + i);                                                                    \
      s1 += BODY(a + i + 1, b + i + 1);                                                            \
    }                                                                                              \
    return s0 + s1;                                                                                \
  }

static double PROX_FN(bp_tb_ss)(const BP_SEG *x, const BP_SEG *y) {
  PROX_REAL s, t;
  BP_VEC c1, c2;
  return (double)PROX_FN(tbp_segment_segment)(x->a, x->b, y->a, y->b, &s, &t, &c1, &c2);
}
#define BP_TB_SS(x, y) PROX_FN(bp_tb_ss)(x, y)
#define BP_PX_SS(x, y) (double)PROX_FN(prox_segment_segment)(x, y, NULL)
static double PROX_FN(bp_pxo_ss)(const BP_SEG *x, const BP_SEG *y) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_segment_segment)(x, y, &r);
  return (double)r.sqdist + (double)r.point[0].x + (double)r.point[1].y;
}
#define BP_PXO_SS(x, y) PROX_FN(bp_pxo_ss)(x, y)

#define BP_TB_ST(x, y) (double)PROX_FN(tbp_segment_triangle)((x)->a, (x)->b, (y)->v)
#define BP_PX_ST(x, y) (double)PROX_FN(prox_segment_triangle)(x, y, NULL)
static double PROX_FN(bp_pxo_st)(const BP_SEG *x, const BP_TRI *y) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_segment_triangle)(x, y, &r);
  return (double)r.sqdist + (double)r.point[0].x + (double)r.point[1].y;
}
#define BP_PXO_ST(x, y) PROX_FN(bp_pxo_st)(x, y)

#define BP_TB_TT(x, y) (double)PROX_FN(tbp_triangle_triangle)((x)->v, (y)->v)
#define BP_PX_TT(x, y) (double)PROX_FN(prox_triangle_triangle)(x, y, NULL)
static double PROX_FN(bp_pxo_tt)(const BP_TRI *x, const BP_TRI *y) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_triangle_triangle)(x, y, &r);
  return (double)r.sqdist + (double)r.point[0].x + (double)r.point[1].y;
}
#define BP_PXO_TT(x, y) PROX_FN(bp_pxo_tt)(x, y)

BP_LOOP(PROX_FN(bp_l_tb_ss), BP_SEG, BP_SEG, BP_TB_SS)
BP_LOOP(PROX_FN(bp_l_px_ss), BP_SEG, BP_SEG, BP_PX_SS)
BP_LOOP(PROX_FN(bp_l_pxo_ss), BP_SEG, BP_SEG, BP_PXO_SS)
BP_LOOP(PROX_FN(bp_l_tb_st), BP_SEG, BP_TRI, BP_TB_ST)
BP_LOOP(PROX_FN(bp_l_px_st), BP_SEG, BP_TRI, BP_PX_ST)
BP_LOOP(PROX_FN(bp_l_pxo_st), BP_SEG, BP_TRI, BP_PXO_ST)
BP_LOOP(PROX_FN(bp_l_tb_tt), BP_TRI, BP_TRI, BP_TB_TT)
BP_LOOP(PROX_FN(bp_l_px_tt), BP_TRI, BP_TRI, BP_PX_TT)
BP_LOOP(PROX_FN(bp_l_pxo_tt), BP_TRI, BP_TRI, BP_PXO_TT)

/* -------------------------------- rows ----------------------------------- */

static void PROX_FN(row_print)(const char *kernel, const char *data, const double *ns) {
  printf("| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", kernel, BP_PREC, data, ns[0],
         ns[1], ns[1] / ns[0], ns[2], ns[2] / ns[0]);
  fflush(stdout);
}

/* Segment pairs; parallel: every second pair exactly parallel (the second
 * segment is the first moved by a random shift, in float-exact steps). */
static void PROX_FN(row_ss)(size_t n, size_t sweeps, const char *data, int parallel) {
  bp_loop loops[3] = {PROX_FN(bp_l_tb_ss), PROX_FN(bp_l_px_ss), PROX_FN(bp_l_pxo_ss)};
  char name[80];
  BP_SEG *a, *b;
  double ns[3];
  size_t i;
  snprintf(name, sizeof name, "segment-segment%s %s %s", parallel ? " (parallel)" : "", BP_PREC,
           data);
  if (!bp_wanted(name)) return;
  a = (BP_SEG *)bp_alloc(n * sizeof *a);
  b = (BP_SEG *)bp_alloc(n * sizeof *b);
  for (i = 0; i < n; ++i) {
    a[i].a = PROX_FN(bp_rvec)(-1, 1);
    a[i].b = PROX_FN(bp_rvec)(-1, 1);
    if (parallel && (i & 1)) {
      /* Shift by multiples of 1/64: exact in float and double. */
      double dx = (double)(int)bp_uni(-64, 64) / 64;
      double dy = (double)(int)bp_uni(-64, 64) / 64;
      double dz = (double)(int)bp_uni(-64, 64) / 64;
      BP_VEC d = PROX_FN(prox_v3)((PROX_REAL)dx, (PROX_REAL)dy, (PROX_REAL)dz);
      a[i].a = PROX_FN(prox_v3)((PROX_REAL)((double)(int)(a[i].a.x * 1024) / 1024),
                                (PROX_REAL)((double)(int)(a[i].a.y * 1024) / 1024),
                                (PROX_REAL)((double)(int)(a[i].a.z * 1024) / 1024));
      a[i].b = PROX_FN(prox_v3)((PROX_REAL)((double)(int)(a[i].b.x * 1024) / 1024),
                                (PROX_REAL)((double)(int)(a[i].b.y * 1024) / 1024),
                                (PROX_REAL)((double)(int)(a[i].b.z * 1024) / 1024));
      b[i].a = PROX_FN(prox_vadd)(a[i].a, d);
      b[i].b = PROX_FN(prox_vadd)(a[i].b, d);
    } else {
      b[i].a = PROX_FN(bp_rvec)(-1, 1);
      b[i].b = PROX_FN(bp_rvec)(-1, 1);
    }
  }
  bp_time(loops, 3, a, b, n, sweeps, ns);
  PROX_FN(row_print)
  (parallel ? "segment-segment (half parallel)" : "segment-segment", data, ns);
  free(a);
  free(b);
}

static void PROX_FN(row_st)(size_t n, size_t sweeps, const char *data) {
  bp_loop loops[3] = {PROX_FN(bp_l_tb_st), PROX_FN(bp_l_px_st), PROX_FN(bp_l_pxo_st)};
  char name[80];
  BP_SEG *a;
  BP_TRI *b;
  double ns[3];
  size_t i;
  int k;
  snprintf(name, sizeof name, "segment-triangle %s %s", BP_PREC, data);
  if (!bp_wanted(name)) return;
  a = (BP_SEG *)bp_alloc(n * sizeof *a);
  b = (BP_TRI *)bp_alloc(n * sizeof *b);
  for (i = 0; i < n; ++i) {
    BP_VEC d = PROX_FN(bp_shift)();
    a[i].a = PROX_FN(prox_vadd)(PROX_FN(bp_rvec)(-1, 1), d);
    a[i].b = PROX_FN(prox_vadd)(PROX_FN(bp_rvec)(-1, 1), d);
    for (k = 0; k < 3; ++k)
      b[i].v[k] = PROX_FN(bp_rvec)(-1, 1);
  }
  bp_time(loops, 3, a, b, n, sweeps, ns);
  PROX_FN(row_print)("segment-triangle", data, ns);
  free(a);
  free(b);
}

static void PROX_FN(row_tt)(size_t n, size_t sweeps, const char *data) {
  bp_loop loops[3] = {PROX_FN(bp_l_tb_tt), PROX_FN(bp_l_px_tt), PROX_FN(bp_l_pxo_tt)};
  char name[80];
  BP_TRI *a, *b;
  double ns[3];
  size_t i;
  int k;
  snprintf(name, sizeof name, "triangle-triangle %s %s", BP_PREC, data);
  if (!bp_wanted(name)) return;
  a = (BP_TRI *)bp_alloc(n * sizeof *a);
  b = (BP_TRI *)bp_alloc(n * sizeof *b);
  for (i = 0; i < n; ++i) {
    BP_VEC d = PROX_FN(bp_shift)();
    for (k = 0; k < 3; ++k) {
      a[i].v[k] = PROX_FN(prox_vadd)(PROX_FN(bp_rvec)(-1, 1), d);
      b[i].v[k] = PROX_FN(bp_rvec)(-1, 1);
    }
  }
  bp_time(loops, 3, a, b, n, sweeps, ns);
  PROX_FN(row_print)("triangle-triangle", data, ns);
  free(a);
  free(b);
}

static void PROX_FN(rows)(size_t n, size_t ntri, size_t sweeps, size_t sweeps_tri,
                          const char *data) {
  PROX_FN(row_ss)(n, sweeps, data, 0);
  PROX_FN(row_ss)(n, sweeps, data, 1);
  PROX_FN(row_st)(ntri, sweeps_tri, data);
  PROX_FN(row_tt)(ntri, sweeps_tri, data);
}

#undef BP_VEC
#undef BP_SEG
#undef BP_TRI
#undef BP_PREC

#endif /* BENCH_PAIRS_TEMPLATE */
