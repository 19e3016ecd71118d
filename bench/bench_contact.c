/* SPDX-License-Identifier: MIT */
/* Benchmark of the contact kernels (K4): ns per call of point-triangle and
 * edge-edge squared distance with automatic classification, for value,
 * value + gradient, and value + gradient + Hessian, in double and float.
 * Each figure is the median of 5 runs over 32768 cached random
 * configurations (coordinates uniform in [-1, 1]^3, so all types occur) and
 * over 4M configurations streamed from memory; "auto" rows classify inside
 * the call (PROX_*_AUTO), "given" rows pass the type classified beforehand,
 * as contact solvers do. Prints a markdown table.
 *
 * Usage: bench_contact [--quick]   (--quick: 1 run, 256k streamed)
 *
 * Built by CMake against the library. To build it alone, define
 * PROX_BENCH_STANDALONE (this translation unit then emits the external
 * definitions of the inline kernels), e.g.
 *   gcc -std=c11 -O3 -DPROX_BENCH_STANDALONE -Iinclude
 *       bench/bench_contact.c -lm */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#if defined(PROX_BENCH_STANDALONE)
#define PROX_EMIT_EXTERNAL
#endif
#include "prox/contact.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCACHED (1 << 15)
#define NRUNS 5

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t g_rng = 0x5eedu;
static double urand(void) {
  uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return 2 * ((double)(z >> 11) * 0x1p-53) - 1;
}

/* Outputs are stored (a solver stores them too) into a small rotating
 * buffer, so the compiler must compute every entry. */
static double g_hd[16][144], g_gd[16][12];
static float g_hf[16][144], g_gf[16][12];
static volatile double g_sink;

typedef struct cfg {
  int pt;    /* 1: point-triangle, 0: edge-edge */
  int dbl;   /* 1: double, 0: float */
  int what;  /* 0 value, 1 value + gradient, 2 value + gradient + Hessian */
  int typed; /* 1: type given (classified before timing), 0: automatic */
} cfg;

/* Types of the cached configurations, for the "type given" rows. */
static int g_tpt[2][1 << 15], g_tee[2][1 << 15];

/* One pass over n configurations; returns ns per call. */
static double run(const cfg *c, const void *data, size_t n) {
  double t0, t1, acc = 0;
  size_t i;
  const int *tpt = g_tpt[c->dbl], *tee = g_tee[c->dbl];
  t0 = now_ns();
  if (c->dbl) {
    const prox_vec3 *v = (const prox_vec3 *)data;
    for (i = 0; i < n; ++i) {
      const prox_vec3 *q = v + 4 * i;
      size_t k = i & 15;
      if (c->pt) {
        prox_ipc_pt_type t = c->typed ? (prox_ipc_pt_type)tpt[i] : PROX_PT_AUTO;
        if (c->what == 0)
          acc += prox_ipc_point_triangle_distance(q[0], q[1], q[2], q[3], t);
        else if (c->what == 1)
          acc += prox_ipc_point_triangle_distance_gradient(q[0], q[1], q[2], q[3], t, g_gd[k]);
        else
          acc +=
              prox_ipc_point_triangle_distance_hessian(q[0], q[1], q[2], q[3], t, g_gd[k], g_hd[k]);
      } else {
        prox_ipc_ee_type t = c->typed ? (prox_ipc_ee_type)tee[i] : PROX_EE_AUTO;
        if (c->what == 0)
          acc += prox_ipc_edge_edge_distance(q[0], q[1], q[2], q[3], t);
        else if (c->what == 1)
          acc += prox_ipc_edge_edge_distance_gradient(q[0], q[1], q[2], q[3], t, g_gd[k]);
        else
          acc += prox_ipc_edge_edge_distance_hessian(q[0], q[1], q[2], q[3], t, g_gd[k], g_hd[k]);
      }
    }
  } else {
    const prox_vec3f *v = (const prox_vec3f *)data;
    for (i = 0; i < n; ++i) {
      const prox_vec3f *q = v + 4 * i;
      size_t k = i & 15;
      if (c->pt) {
        prox_ipc_pt_type t = c->typed ? (prox_ipc_pt_type)tpt[i] : PROX_PT_AUTO;
        if (c->what == 0)
          acc += (double)prox_ipc_point_triangle_distancef(q[0], q[1], q[2], q[3], t);
        else if (c->what == 1)
          acc += (double)prox_ipc_point_triangle_distance_gradientf(q[0], q[1], q[2], q[3], t,
                                                                    g_gf[k]);
        else
          acc += (double)prox_ipc_point_triangle_distance_hessianf(q[0], q[1], q[2], q[3], t,
                                                                   g_gf[k], g_hf[k]);
      } else {
        prox_ipc_ee_type t = c->typed ? (prox_ipc_ee_type)tee[i] : PROX_EE_AUTO;
        if (c->what == 0)
          acc += (double)prox_ipc_edge_edge_distancef(q[0], q[1], q[2], q[3], t);
        else if (c->what == 1)
          acc += (double)prox_ipc_edge_edge_distance_gradientf(q[0], q[1], q[2], q[3], t, g_gf[k]);
        else
          acc += (double)prox_ipc_edge_edge_distance_hessianf(q[0], q[1], q[2], q[3], t, g_gf[k],
                                                              g_hf[k]);
      }
    }
  }
  t1 = now_ns();
  g_sink = acc + g_hd[3][7] + (double)g_hf[5][9] + g_gd[1][2] + (double)g_gf[2][1];
  return (t1 - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median_run(const cfg *c, const void *data, size_t n, int runs) {
  double t[NRUNS];
  int r;
  run(c, data, n < NCACHED ? n : NCACHED); /* warm up */
  for (r = 0; r < runs; ++r)
    t[r] = run(c, data, n);
  qsort(t, (size_t)runs, sizeof t[0], cmp_double);
  return t[runs / 2];
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int runs = quick ? 1 : NRUNS;
  size_t nstream = quick ? ((size_t)1 << 18) : ((size_t)1 << 22);
  size_t i, nv;
  prox_vec3 *vd;
  prox_vec3f *vf;
  int set, pt, dbl, what;
  nv = 4 * nstream;
  vd = (prox_vec3 *)malloc(nv * sizeof *vd);
  vf = (prox_vec3f *)malloc(nv * sizeof *vf);
  if (!vd || !vf) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (i = 0; i < nv; ++i) {
    vd[i] = prox_v3(urand(), urand(), urand());
    vf[i] = prox_v3f((float)vd[i].x, (float)vd[i].y, (float)vd[i].z);
  }
  for (i = 0; i < NCACHED; ++i) {
    const prox_vec3 *q = vd + 4 * i;
    const prox_vec3f *r = vf + 4 * i;
    g_tpt[1][i] = (int)prox_ipc_point_triangle_distance_type(q[0], q[1], q[2], q[3]);
    g_tee[1][i] = (int)prox_ipc_edge_edge_distance_type(q[0], q[1], q[2], q[3]);
    g_tpt[0][i] = (int)prox_ipc_point_triangle_distance_typef(r[0], r[1], r[2], r[3]);
    g_tee[0][i] = (int)prox_ipc_edge_edge_distance_typef(r[0], r[1], r[2], r[3]);
  }
  printf("contact kernels (K4), random configurations in [-1,1]^3 (all "
         "types occur); ns per call, median of %d runs\n\n",
         runs);
  printf("| kernel | precision | type | inputs | value | value+grad | "
         "value+grad+Hessian | Hessian / value |\n");
  printf("|---|---|---|---|---:|---:|---:|---:|\n");
  for (pt = 1; pt >= 0; --pt)
    for (dbl = 1; dbl >= 0; --dbl)
      for (set = 0; set < 3; ++set) {
        /* set 0: automatic, cached; 1: automatic, streamed; 2: type given,
         * cached. */
        double ns[3];
        size_t n = set == 1 ? nstream : NCACHED;
        for (what = 0; what < 3; ++what) {
          cfg c;
          c.pt = pt;
          c.dbl = dbl;
          c.what = what;
          c.typed = set == 2;
          ns[what] = median_run(&c, dbl ? (const void *)vd : (const void *)vf, n, runs);
        }
        printf("| %s | %s | %s | %s | %.1f | %.1f | %.1f | %.2fx |\n",
               pt ? "point-triangle" : "edge-edge", dbl ? "double" : "float",
               set == 2 ? "given" : "auto",
               set == 1 ? (quick ? "256k streamed" : "4M streamed") : "32k cached", ns[0], ns[1],
               ns[2], ns[2] / ns[0]);
      }
  free(vd);
  free(vf);
  return 0;
}
