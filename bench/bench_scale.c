/* SPDX-License-Identifier: MIT */
/* bench_scale: the closest-point query's time on one mesh scaled by 2^k,
 * for k across the kernels' domain, against the same mesh at scale 1 in
 * the same process (prox/bvh.h, "Speed across scales").
 *
 *   bench_scale [--meshes=DIR] [--mesh=FILE] [--n=N] [--runs=R]
 *               [--double=K,K,...] [--float=K,K,...]
 *
 * For each precision and k: the mesh's vertices times 2^k (exact; float
 * meshes rounded to float first, then scaled), its tree, and N query
 * points within 1% of the diagonal of the surface (random points of random
 * triangles moved along each axis), the same points scaled. Printed: the
 * median over R runs of the single-query time, and its ratio to the median
 * at k = 0 (measured in the same run). Before timing, 50 queries are
 * checked against a brute-force loop over every triangle (the squared
 * distance bit for bit); a mismatch is reported and the exit status is 1.
 * Default mesh bunny.obj from ../shared/data/meshes. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <prox/bvh.h>
#include <prox/closest.h>

#include "../tests/meshload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bs_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t bs_rng(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double bs_unit(uint64_t *s) {
  return (double)(bs_rng(s) >> 11) * 0x1p-53;
}

static int bs_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Parses "a,b,c" into at most 64 ints; returns the count. */
static int bs_list(const char *s, int *out) {
  int n = 0;
  while (*s && n < 64) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s) break;
    out[n++] = (int)v;
    s = *end == ',' ? end + 1 : end;
  }
  return n;
}

/* The squared distance from p 2^k to the tree (b: prec 0, bf: 1), as
 * prec's query gives it. */
static double bs_closest(int prec, const prox_bvh *b, const prox_bvhf *bf, const double *p, int k) {
  if (prec == 0) {
    prox_mesh_closest c;
    prox_bvh_closest(b, prox_v3(ldexp(p[0], k), ldexp(p[1], k), ldexp(p[2], k)), INFINITY, &c);
    return c.sqdist;
  } else {
    prox_mesh_closestf c;
    prox_bvh_closestf(
        bf, prox_v3f(ldexpf((float)p[0], k), ldexpf((float)p[1], k), ldexpf((float)p[2], k)),
        INFINITY, &c);
    return (double)c.sqdist;
  }
}

/* The same by brute force: prec's point-triangle kernel on every triangle
 * of the scaled vertices (v: prec 0, vf: 1). */
static double bs_brute(int prec, const objmesh *m, const double *v, const float *vf,
                       const double *p, int k) {
  double best = INFINITY, d;
  size_t t;
  int a;
  for (t = 0; t < m->nt; ++t) {
    if (prec == 0) {
      prox_triangle tr;
      for (a = 0; a < 3; ++a) {
        const double *x = v + 3 * (size_t)m->t[3 * t + (size_t)a];
        tr.v[a] = prox_v3(x[0], x[1], x[2]);
      }
      d = prox_point_triangle(prox_v3(ldexp(p[0], k), ldexp(p[1], k), ldexp(p[2], k)), &tr, NULL);
    } else {
      prox_trianglef tr;
      for (a = 0; a < 3; ++a) {
        const float *x = vf + 3 * (size_t)m->t[3 * t + (size_t)a];
        tr.v[a] = prox_v3f(x[0], x[1], x[2]);
      }
      d = (double)prox_point_trianglef(
          prox_v3f(ldexpf((float)p[0], k), ldexpf((float)p[1], k), ldexpf((float)p[2], k)), &tr,
          NULL);
    }
    if (d < best) best = d;
  }
  return best;
}

/* Median time (seconds per query) over runs, of prec's queries on the mesh
 * scaled by 2^k; *bad counts brute-force mismatches. Returns -1 when the
 * build fails. */
static double bs_time(const objmesh *m, const double *pts, size_t n, int runs, int prec, int k,
                      long *bad) {
  size_t nv = m->nv, i, j;
  double *v = (double *)malloc(3 * nv * sizeof *v),
         *ts = (double *)malloc((size_t)runs * sizeof *ts);
  float *vf = (float *)malloc(3 * nv * sizeof *vf);
  prox_bvh *b = NULL;
  prox_bvhf *bf = NULL;
  double med = -1, sink = 0;
  int r;
  if (!v || !vf || !ts) goto out;
  for (j = 0; j < 3 * nv; ++j) {
    v[j] = ldexp(m->v[j], k);
    vf[j] = ldexpf((float)m->v[j], k);
  }
  if (prec == 0) {
    prox_mesh me = {v, nv, 0, m->t, m->nt};
    if (prox_bvh_build(&me, NULL, NULL, &b, NULL) != PROX_OK) goto out;
  } else {
    prox_meshf mf = {vf, nv, 0, m->t, m->nt};
    if (prox_bvh_buildf(&mf, NULL, NULL, &bf, NULL) != PROX_OK) goto out;
  }
  /* The check: the squared distance of brute force, bit for bit. */
  for (i = 0; i < 50 && i < n; ++i)
    *bad += bs_closest(prec, b, bf, pts + 3 * i, k) != bs_brute(prec, m, v, vf, pts + 3 * i, k);
  for (r = 0; r < runs; ++r) {
    double t0 = bs_now();
    for (i = 0; i < n; ++i)
      sink += bs_closest(prec, b, bf, pts + 3 * i, k);
    ts[r] = (bs_now() - t0) / (double)n;
  }
  qsort(ts, (size_t)runs, sizeof *ts, bs_cmp);
  med = ts[runs / 2];
  if (sink == -1) printf("%g\n", sink);
out:
  prox_bvh_free(b);
  prox_bvh_freef(bf);
  free(v);
  free(vf);
  free(ts);
  return med;
}

int main(int argc, char **argv) {
  const char *dir = "../shared/data/meshes", *file = "bunny.obj";
  int kd[64] = {-120, -110, -100, -60, 0, 60, 100, 127, 200},
      kf[64] = {-58, -50, -40, -20, 0, 20, 40, 58};
  int nd = 9, nf = 8, runs = 5, a, prec;
  size_t n = 20000, i;
  long bad = 0;
  char path[4096], err[512];
  objmesh m;
  double *pts, lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY},
               diag = 0;
  uint64_t seed = 12345;
  for (a = 1; a < argc; ++a) {
    if (!strncmp(argv[a], "--meshes=", 9))
      dir = argv[a] + 9;
    else if (!strncmp(argv[a], "--mesh=", 7))
      file = argv[a] + 7;
    else if (!strncmp(argv[a], "--n=", 4))
      n = (size_t)strtoul(argv[a] + 4, NULL, 10);
    else if (!strncmp(argv[a], "--runs=", 7))
      runs = atoi(argv[a] + 7);
    else if (!strncmp(argv[a], "--double=", 9))
      nd = bs_list(argv[a] + 9, kd);
    else if (!strncmp(argv[a], "--float=", 8))
      nf = bs_list(argv[a] + 8, kf);
    else {
      fprintf(stderr, "bench_scale: unknown option %s\n", argv[a]);
      return 1;
    }
  }
  if (runs < 1 || n < 1) {
    fprintf(stderr, "bench_scale: --n and --runs must be positive\n");
    return 1;
  }
  snprintf(path, sizeof path, "%s/%s", dir, file);
  if (!mesh_load(path, &m, err, sizeof err)) {
    fprintf(stderr, "bench_scale: %s\n", err);
    return 1;
  }
  for (i = 0; i < m.nv; ++i)
    for (a = 0; a < 3; ++a) {
      lo[a] = fmin(lo[a], m.v[3 * i + (size_t)a]);
      hi[a] = fmax(hi[a], m.v[3 * i + (size_t)a]);
    }
  for (a = 0; a < 3; ++a)
    diag += (hi[a] - lo[a]) * (hi[a] - lo[a]);
  diag = sqrt(diag);
  pts = (double *)malloc(3 * n * sizeof *pts);
  if (!pts) return 1;
  for (i = 0; i < n; ++i) {
    size_t t = (size_t)(bs_rng(&seed) % m.nt);
    double u = bs_unit(&seed), w = bs_unit(&seed);
    const double *x = m.v + 3 * (size_t)m.t[3 * t], *y = m.v + 3 * (size_t)m.t[3 * t + 1],
                 *z = m.v + 3 * (size_t)m.t[3 * t + 2];
    if (u + w > 1) u = 1 - u, w = 1 - w;
    for (a = 0; a < 3; ++a)
      pts[3 * i + (size_t)a] =
          x[a] + u * (y[a] - x[a]) + w * (z[a] - x[a]) + 0.01 * diag * (2 * bs_unit(&seed) - 1);
  }
  printf("bench_scale: %s, %zu triangles, %zu near queries, median of %d runs\n", file, m.nt, n,
         runs);
  printf("command:");
  for (a = 0; a < argc; ++a)
    printf(" %s", argv[a]);
  printf("\n");
  for (prec = 0; prec < 2; ++prec) {
    /* Scale 1 twice: the first warms the caches and the clock. */
    double base =
        (bs_time(&m, pts, n, runs, prec, 0, &bad), bs_time(&m, pts, n, runs, prec, 0, &bad));
    int cnt = prec ? nf : nd, j;
    for (j = 0; j < cnt; ++j) {
      int k = prec ? kf[j] : kd[j];
      double t = bs_time(&m, pts, n, runs, prec, k, &bad);
      printf("%-6s k %5d  %10.3f us per query  %8.2fx scale 1 (%.3f us)\n",
             prec ? "float" : "double", k, 1e6 * t, t / base, 1e6 * base);
      fflush(stdout);
    }
  }
  printf("brute-force mismatches: %ld\n", bad);
  free(pts);
  obj_free(&m);
  return bad != 0;
}
