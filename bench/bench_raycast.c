/* SPDX-License-Identifier: MIT */
/* Benchmark of the ray casts (K3), side by side with the textbook baselines
 * of bench/textbook_ray.h, printed as markdown tables.
 *
 *   bench_raycast [--quick] [--only WORD]
 *
 * 1. Scalar kernels, ns per query, double and float: the robust ray-AABB
 *    (prox_raycast_aabb) against the slab test of Williams et al., and the
 *    watertight ray-triangle (prox_raycast_triangle) against
 *    Moller-Trumbore. Each query has its own ray and primitive (the
 *    textbook slab test then computes its reciprocal direction per query,
 *    as prox does). "hit only" passes a NULL result (the slab test returns
 *    a flag, MT a flag and t, u, v); "full" fills the whole prox_rayhit.
 *    Memory-streamed: 10M queries; cached: 32k queries, repeated to the
 *    same total. Median of 5 runs.
 * 2. Packets (the BVH form): prepared rays, each against a run of 128
 *    boxes or triangles placed along it (about half are hit), 4 or 8 per
 *    call, ns per box or triangle; against the scalar slab test on a
 *    prepared ray (Williams et al., reciprocal once per ray) and the scalar
 *    triangle kernels on the same data; for every instruction set the CPU
 *    has (forced with prox_simd_set).
 * Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which stays
 * meaningful when other processes load the machine.
 * --quick: 1M streamed queries, 3 runs. --only WORD: only the rows whose
 * kernel name and precision ("prox_packet_aabb8 double", "Moller-Trumbore
 * float") contain WORD, and the baselines of their tables. */
#ifndef BR_TEMPLATE

#define _POSIX_C_SOURCE 199309L

#include <prox/packet.h>

#include "textbook_ray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile long br_sink;
static int br_runs = 5;
static size_t br_stream = 10000000, br_cached = 32768;
static const char *br_only; /* --only WORD, or NULL */

/* Whether the row of this kernel and precision is wanted (--only). */
static int br_wanted(const char *name, const char *precision) {
  char row[160];
  if (!br_only) return 1;
  snprintf(row, sizeof row, "%s %s", name, precision);
  return strstr(row, br_only) != NULL;
}

/* CPU time of this thread: on a shared, loaded machine it leaves out the
 * time the thread waits for a core (wall-clock time does not). */
static double br_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int br_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y);
}

static double br_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, br_cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* xorshift64*: deterministic data. */
static uint64_t br_state = 0x9E3779B97F4A7C15ull;
static double br_rand(void) {
  br_state ^= br_state >> 12;
  br_state ^= br_state << 25;
  br_state ^= br_state >> 27;
  return (double)((br_state * 2685821657736338717ull) >> 11) * 0x1p-53;
}
static double br_range(double lo, double hi) {
  return lo + (hi - lo) * br_rand();
}

/* Hits in a lane mask of up to 8 lanes, without a branch: a loop over the
 * set bits would mispredict on the random hit count and charge the packet
 * rows for the harness's branches. */
static int br_popcount(int m) {
  unsigned u = (unsigned)m & 0xffu;
  u = u - ((u >> 1) & 0x55u);
  u = (u & 0x33u) + ((u >> 2) & 0x33u);
  return (int)((u + (u >> 4)) & 0x0fu);
}

enum { BR_AABB, BR_AABB_FULL, BR_AABB_TB, BR_TRI, BR_TRI_FULL, BR_TRI_TB };

enum {
  BR_P_WILLIAMS,
  BR_P_AABB,
  BR_P_BOX4,
  BR_P_BOX8,
  BR_P_TRI,
  BR_P_MT,
  BR_P_TRI4,
  BR_P_TRI8,
  BR_P_KINDS
};

#define BR_RUN 128  /* primitives per ray */
#define BR_NRAYS 64 /* distinct rays, cycled */

#define BR_TEMPLATE
#include <prox/detail/real_double.h>
#include "bench_raycast.c"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "bench_raycast.c"
#include <prox/detail/real_end.h>
#undef BR_TEMPLATE

int main(int argc, char **argv) {
  int level, i, quick = 0;
  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      quick = 1;
      br_runs = 3;
      br_stream = 1000000;
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      br_only = argv[++i];
    } else {
      fprintf(stderr, "usage: %s [--quick] [--only WORD]\n", argv[0]);
      return 2;
    }
  }
  printf("## bench_raycast%s", quick ? " --quick" : "");
  if (br_only) printf(" --only \"%s\"", br_only);
  printf("\n\n");
  printf("Scalar kernels, ns per query (median of %d runs; streamed: %zu "
         "queries, cached: %zu queries repeated):\n\n",
         br_runs, br_stream, br_cached);
  printf("| kernel | precision | streamed ns | cached ns | vs textbook "
         "(streamed / cached) |\n|---|---|--:|--:|--:|\n");
  br_scalar();
  br_scalarf();
  printf("\nPackets: prepared rays, each against 128 primitives along it, "
         "ns per box or triangle (median of %d runs; streamed: %zu "
         "primitives, cached: %zu):\n\n",
         br_runs, br_stream, br_cached);
  printf("| test | precision | path | streamed ns | cached ns | per-primitive "
         "speed-up vs scalar baseline (streamed / cached) |\n"
         "|---|---|---|--:|--:|--:|\n");
  level = prox_simd_level();
  br_packets(level);
  br_packetsf(level);
  prox_simd_set(level);
  printf("\n");
  return br_sink == 42 ? 1 : 0;
}

#else /* BR_TEMPLATE: one precision */

#define BR_N(name) PROX_FN(name)
#define BR_PREC (PROX_IS_DOUBLE ? "double" : "float")

/* ---- 1. scalar kernels ---- */

typedef struct BR_N(br_data) {
  PROX_FN(prox_ray) * ray;
  PROX_FN(prox_aabb) * box;
  PROX_FN(prox_triangle) * tri;
  size_t n;
} BR_N(br_data);

/* Boxes and triangles in [-1, 1]^3, rays from farther out aimed at them
 * with some spread: about half the queries hit. */
static void BR_N(br_fill)(BR_N(br_data) * d, size_t n) {
  size_t i;
  d->n = n;
  d->ray = (PROX_FN(prox_ray) *)malloc(n * sizeof *d->ray);
  d->box = (PROX_FN(prox_aabb) *)malloc(n * sizeof *d->box);
  d->tri = (PROX_FN(prox_triangle) *)malloc(n * sizeof *d->tri);
  if (!d->ray || !d->box || !d->tri) {
    fprintf(stderr, "bench_raycast: out of memory\n");
    exit(1);
  }
  for (i = 0; i < n; ++i) {
    PROX_REAL c[3], o[3], e[3];
    int k;
    for (k = 0; k < 3; ++k) {
      c[k] = (PROX_REAL)br_range(-1, 1);
      e[k] = (PROX_REAL)br_range(0.05, 0.3);
      o[k] = (PROX_REAL)br_range(-4, 4);
    }
    d->box[i].min = PROX_FN(prox_v3)(c[0] - e[0], c[1] - e[1], c[2] - e[2]);
    d->box[i].max = PROX_FN(prox_v3)(c[0] + e[0], c[1] + e[1], c[2] + e[2]);
    for (k = 0; k < 3; ++k)
      d->tri[i].v[k] =
          PROX_FN(prox_v3)(c[0] + (PROX_REAL)br_range(-.4, .4), c[1] + (PROX_REAL)br_range(-.4, .4),
                           c[2] + (PROX_REAL)br_range(-.4, .4));
    d->ray[i] =
        PROX_FN(prox_ray_make)(PROX_FN(prox_v3)(o[0], o[1], o[2]),
                               PROX_FN(prox_v3)(c[0] - o[0] + (PROX_REAL)br_range(-.3, .3),
                                                c[1] - o[1] + (PROX_REAL)br_range(-.3, .3),
                                                c[2] - o[2] + (PROX_REAL)br_range(-.3, .3)));
  }
}

static void BR_N(br_free)(BR_N(br_data) * d) {
  free(d->ray);
  free(d->box);
  free(d->tri);
}

/* One pass over the queries; returns the hits (kept, so that nothing is
 * optimised away). */
static long BR_N(br_pass)(const BR_N(br_data) * d, int which) {
  long hits = 0;
  size_t i, n = d->n;
  PROX_FN(prox_rayhit) h;
  PROX_REAL t, u, v;
  switch (which) {
  case BR_AABB:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(prox_raycast_aabb)(&d->ray[i], &d->box[i], NULL);
    break;
  case BR_AABB_FULL:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(prox_raycast_aabb)(&d->ray[i], &d->box[i], &h) + h.feature.index;
    break;
  case BR_AABB_TB:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(textbook_ray_aabb)(&d->ray[i], &d->box[i]);
    break;
  case BR_TRI:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(prox_raycast_triangle)(&d->ray[i], &d->tri[i], NULL);
    break;
  case BR_TRI_FULL:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(prox_raycast_triangle)(&d->ray[i], &d->tri[i], &h) + h.feature.kind;
    break;
  default:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(textbook_ray_triangle)(&d->ray[i], &d->tri[i], &t, &u, &v);
    break;
  }
  return hits;
}

/* Median ns per query of one kernel, each run repeating the pass reps
 * times. */
static double BR_N(br_time)(const BR_N(br_data) * d, int which, int reps) {
  double v[16];
  int r, k;
  for (r = 0; r < br_runs; ++r) {
    double t0 = br_now();
    long hits = 0;
    for (k = 0; k < reps; ++k)
      hits += BR_N(br_pass)(d, which);
    br_sink += hits;
    v[r] = (br_now() - t0) * 1e9 / ((double)d->n * reps);
  }
  return br_median(v, br_runs);
}

static void BR_N(br_scalar)(void) {
  BR_N(br_data) big, small;
  int reps = (int)(br_stream / br_cached), which;
  double s[6], c[6];
  static const char *names[6] = {
      "prox_raycast_aabb (hit only)",        "prox_raycast_aabb (full result)",
      "Williams et al. slab test",           "prox_raycast_triangle (hit only)",
      "prox_raycast_triangle (full result)", "Moller-Trumbore"};
  int want[6], any = 0;
  /* A row is measured when wanted or when it is the baseline of a wanted
   * row. */
  for (which = 0; which < 6; ++which)
    any |= want[which] = br_wanted(names[which], BR_PREC);
  want[BR_AABB_TB] |= want[BR_AABB] | want[BR_AABB_FULL];
  want[BR_TRI_TB] |= want[BR_TRI] | want[BR_TRI_FULL];
  if (!any) return;
  BR_N(br_fill)(&big, br_stream);
  BR_N(br_fill)(&small, br_cached);
  for (which = 0; which < 6; ++which) {
    if (!want[which]) continue;
    br_sink += BR_N(br_pass)(&small, which); /* warm-up */
    s[which] = BR_N(br_time)(&big, which, 1);
    c[which] = BR_N(br_time)(&small, which, reps);
  }
  for (which = 0; which < 6; ++which) {
    int tb = which < 3 ? BR_AABB_TB : BR_TRI_TB;
    if (!want[which]) continue;
    printf("| %s | %s | %.2f | %.2f |", names[which], BR_PREC, s[which], c[which]);
    if (which == tb)
      printf(" baseline |\n");
    else
      printf(" %.2fx / %.2fx |\n", s[which] / s[tb], c[which] / c[tb]);
  }
  BR_N(br_free)(&big);
  BR_N(br_free)(&small);
}

/* ---- 2. packets ---- */

#if PROX_IS_DOUBLE
#define BR_BOX4 prox_box4
#define BR_BOX8 prox_box8
#define BR_TRI4 prox_tri4
#define BR_TRI8 prox_tri8
#define BR_HIT prox_packet_hit8
#define BR_PRAY prox_packet_ray
#define BR_INIT prox_packet_ray_init
#define BR_PA4 prox_packet_aabb4
#define BR_PA8 prox_packet_aabb8
#define BR_PT4 prox_packet_triangle4
#define BR_PT8 prox_packet_triangle8
#else
#define BR_BOX4 prox_box4f
#define BR_BOX8 prox_box8f
#define BR_TRI4 prox_tri4f
#define BR_TRI8 prox_tri8f
#define BR_HIT prox_packet_hit8f
#define BR_PRAY prox_packet_rayf
#define BR_INIT prox_packet_ray_initf
#define BR_PA4 prox_packet_aabb4f
#define BR_PA8 prox_packet_aabb8f
#define BR_PT4 prox_packet_triangle4f
#define BR_PT8 prox_packet_triangle8f
#endif

typedef struct BR_N(br_pdata) {
  size_t n; /* primitives, a multiple of BR_RUN */
  PROX_FN(prox_ray) ray[BR_NRAYS];
  BR_PRAY pray[BR_NRAYS];
  PROX_FN(tb_wray) wray[BR_NRAYS];
  PROX_FN(prox_aabb) * box;
  PROX_FN(prox_triangle) * tri;
  BR_BOX8 *box8;
  BR_BOX4 *box4;
  BR_TRI8 *tri8;
  BR_TRI4 *tri4;
} BR_N(br_pdata);

static void BR_N(br_pfill)(BR_N(br_pdata) * d, size_t n) {
  size_t i, r;
  int k, a;
  d->n = n - n % BR_RUN;
  n = d->n;
  d->box = (PROX_FN(prox_aabb) *)malloc(n * sizeof *d->box);
  d->tri = (PROX_FN(prox_triangle) *)malloc(n * sizeof *d->tri);
  d->box8 = (BR_BOX8 *)malloc(n / 8 * sizeof *d->box8);
  d->box4 = (BR_BOX4 *)malloc(n / 4 * sizeof *d->box4);
  d->tri8 = (BR_TRI8 *)malloc(n / 8 * sizeof *d->tri8);
  d->tri4 = (BR_TRI4 *)malloc(n / 4 * sizeof *d->tri4);
  if (!d->box || !d->tri || !d->box8 || !d->box4 || !d->tri8 || !d->tri4) {
    fprintf(stderr, "bench_raycast: out of memory\n");
    exit(1);
  }
  for (r = 0; r < BR_NRAYS; ++r) {
    PROX_REAL o[3], t[3];
    for (k = 0; k < 3; ++k) {
      o[k] = (PROX_REAL)br_range(-4, 4);
      t[k] = (PROX_REAL)br_range(-1, 1);
    }
    d->ray[r] = PROX_FN(prox_ray_make)(PROX_FN(prox_v3)(o[0], o[1], o[2]),
                                       PROX_FN(prox_v3)(t[0] - o[0], t[1] - o[1], t[2] - o[2]));
    BR_INIT(&d->pray[r], &d->ray[r]);
    d->wray[r] = PROX_FN(tb_wray_make)(&d->ray[r]);
  }
  for (i = 0; i < n; ++i) {
    /* Around a point along the ray of this run, offset so that about
     * half are hit. */
    const PROX_FN(prox_ray) *ry = &d->ray[(i / BR_RUN) % BR_NRAYS];
    PROX_REAL s = (PROX_REAL)br_range(0.2, 1.5), c[3], e[3];
    c[0] = ry->origin.x + s * ry->dir.x + (PROX_REAL)br_range(-.3, .3);
    c[1] = ry->origin.y + s * ry->dir.y + (PROX_REAL)br_range(-.3, .3);
    c[2] = ry->origin.z + s * ry->dir.z + (PROX_REAL)br_range(-.3, .3);
    for (k = 0; k < 3; ++k)
      e[k] = (PROX_REAL)br_range(0.05, 0.25);
    d->box[i].min = PROX_FN(prox_v3)(c[0] - e[0], c[1] - e[1], c[2] - e[2]);
    d->box[i].max = PROX_FN(prox_v3)(c[0] + e[0], c[1] + e[1], c[2] + e[2]);
    for (k = 0; k < 3; ++k)
      d->tri[i].v[k] =
          PROX_FN(prox_v3)(c[0] + (PROX_REAL)br_range(-.4, .4), c[1] + (PROX_REAL)br_range(-.4, .4),
                           c[2] + (PROX_REAL)br_range(-.4, .4));
    for (a = 0; a < 3; ++a) {
      const PROX_REAL *lo = &d->box[i].min.x, *hi = &d->box[i].max.x;
      d->box8[i / 8].lo[a][i % 8] = lo[a];
      d->box8[i / 8].hi[a][i % 8] = hi[a];
      d->box4[i / 4].lo[a][i % 4] = lo[a];
      d->box4[i / 4].hi[a][i % 4] = hi[a];
      for (k = 0; k < 3; ++k) {
        const PROX_REAL *p = &d->tri[i].v[k].x;
        d->tri8[i / 8].v[k][a][i % 8] = p[a];
        d->tri4[i / 4].v[k][a][i % 4] = p[a];
      }
    }
  }
}

static void BR_N(br_pfree)(BR_N(br_pdata) * d) {
  free(d->box);
  free(d->tri);
  free(d->box8);
  free(d->box4);
  free(d->tri8);
  free(d->tri4);
}

static long BR_N(br_ppass)(const BR_N(br_pdata) * d, int which) {
  long hits = 0;
  size_t i, n = d->n;
  PROX_REAL tn[8], t, u, v;
  BR_HIT h;
  switch (which) {
  case BR_P_WILLIAMS:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(textbook_ray_aabb_pre)(&d->wray[(i / BR_RUN) % BR_NRAYS], &d->box[i]);
    break;
  case BR_P_AABB:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(prox_raycast_aabb)(&d->ray[(i / BR_RUN) % BR_NRAYS], &d->box[i], NULL);
    break;
  case BR_P_BOX4:
    for (i = 0; i < n / 4; ++i)
      hits += br_popcount(BR_PA4(&d->pray[(i * 4 / BR_RUN) % BR_NRAYS], &d->box4[i], tn));
    break;
  case BR_P_BOX8:
    for (i = 0; i < n / 8; ++i)
      hits += br_popcount(BR_PA8(&d->pray[(i * 8 / BR_RUN) % BR_NRAYS], &d->box8[i], tn));
    break;
  case BR_P_TRI:
    for (i = 0; i < n; ++i)
      hits += PROX_FN(prox_raycast_triangle)(&d->ray[(i / BR_RUN) % BR_NRAYS], &d->tri[i], NULL);
    break;
  case BR_P_MT:
    for (i = 0; i < n; ++i)
      hits +=
          PROX_FN(textbook_ray_triangle)(&d->ray[(i / BR_RUN) % BR_NRAYS], &d->tri[i], &t, &u, &v);
    break;
  case BR_P_TRI4:
    for (i = 0; i < n / 4; ++i)
      hits += br_popcount(BR_PT4(&d->pray[(i * 4 / BR_RUN) % BR_NRAYS], &d->tri4[i], &h));
    break;
  default:
    for (i = 0; i < n / 8; ++i)
      hits += br_popcount(BR_PT8(&d->pray[(i * 8 / BR_RUN) % BR_NRAYS], &d->tri8[i], &h));
    break;
  }
  return hits;
}

static double BR_N(br_ptime)(const BR_N(br_pdata) * d, int which, int reps) {
  double v[16];
  int r, k;
  for (r = 0; r < br_runs; ++r) {
    double t0 = br_now();
    long hits = 0;
    for (k = 0; k < reps; ++k)
      hits += BR_N(br_ppass)(d, which);
    br_sink += hits;
    v[r] = (br_now() - t0) * 1e9 / ((double)d->n * reps);
  }
  return br_median(v, br_runs);
}

static void BR_N(br_packets)(int top) {
  static const char *names[BR_P_KINDS] = {"slab test, Williams et al. (prepared ray)",
                                          "prox_raycast_aabb (scalar, hit only)",
                                          "prox_packet_aabb4",
                                          "prox_packet_aabb8",
                                          "prox_raycast_triangle (scalar, hit only)",
                                          "Moller-Trumbore (scalar)",
                                          "prox_packet_triangle4",
                                          "prox_packet_triangle8"};
  BR_N(br_pdata) big, small;
  double s[3][BR_P_KINDS], c[3][BR_P_KINDS];
  int reps = (int)(br_stream / br_cached), which, lv, want[BR_P_KINDS];
  int any = 0;
  /* A row is measured when wanted or when it is the baseline of a wanted
   * row. */
  for (which = 0; which < BR_P_KINDS; ++which)
    any |= want[which] = br_wanted(names[which], BR_PREC);
  for (which = 0; which < BR_P_KINDS; ++which)
    if (want[which]) want[which < BR_P_TRI ? BR_P_WILLIAMS : BR_P_TRI] = 1;
  if (!any) return;
  BR_N(br_pfill)(&big, br_stream);
  BR_N(br_pfill)(&small, br_cached);
  for (lv = 0; lv <= top; ++lv) {
    if (!prox_simd_set(lv)) continue;
    for (which = 0; which < BR_P_KINDS; ++which) {
      int packet =
          which == BR_P_BOX4 || which == BR_P_BOX8 || which == BR_P_TRI4 || which == BR_P_TRI8;
      if (!want[which]) continue;
      /* Scalar rows do not depend on the path: measure them once. */
      if (!packet && lv > 0) {
        s[lv][which] = s[0][which];
        c[lv][which] = c[0][which];
        continue;
      }
      br_sink += BR_N(br_ppass)(&small, which);
      s[lv][which] = BR_N(br_ptime)(&big, which, 1);
      c[lv][which] = BR_N(br_ptime)(&small, which, reps);
    }
  }
  for (which = 0; which < BR_P_KINDS; ++which) {
    int packet =
        which == BR_P_BOX4 || which == BR_P_BOX8 || which == BR_P_TRI4 || which == BR_P_TRI8;
    int base = which < BR_P_TRI ? BR_P_WILLIAMS : BR_P_TRI;
    if (!want[which]) continue;
    for (lv = 0; lv <= top; ++lv) {
      if (!packet && lv > 0) break;
      if (packet && !prox_simd_set(lv)) continue;
      printf("| %s | %s | %s | %.2f | %.2f |", names[which], BR_PREC,
             packet ? prox_simd_name(lv) : "scalar", s[lv][which], c[lv][which]);
      if (which == base)
        printf(" baseline |\n");
      else
        printf(" %.2fx / %.2fx |\n", s[0][base] / s[lv][which], c[0][base] / c[lv][which]);
    }
  }
  BR_N(br_pfree)(&big);
  BR_N(br_pfree)(&small);
}

#undef BR_BOX4
#undef BR_BOX8
#undef BR_TRI4
#undef BR_TRI8
#undef BR_HIT
#undef BR_PRAY
#undef BR_INIT
#undef BR_PA4
#undef BR_PA8
#undef BR_PT4
#undef BR_PT8
#undef BR_N
#undef BR_PREC

#endif /* BR_TEMPLATE */
