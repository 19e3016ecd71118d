/* SPDX-License-Identifier: MIT */
/* sign_points.h: the query points of the sign benchmarks (bench_sign.c,
 * bench_sign_cgal.cpp through sign_oracle.h, and bench_ab.c): uniform in a
 * mesh's enlarged box, or near its surface, from a seed. Header only
 * (static functions), C and C++. */
#ifndef PROX_BENCH_SIGN_POINTS_H
#define PROX_BENCH_SIGN_POINTS_H

#include "../tests/meshload.h"
#include "splitmix.h"

#include <math.h>

/* The mesh's box and diagonal. */
static void so_box(const objmesh *m, double lo[3], double hi[3], double *diag) {
  size_t v;
  int k;
  double s = 0;
  for (k = 0; k < 3; ++k) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (v = 0; v < m->nv; ++v)
    for (k = 0; k < 3; ++k) {
      double x = m->v[3 * v + (size_t)k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  for (k = 0; k < 3; ++k)
    s += (hi[k] - lo[k]) * (hi[k] - lo[k]);
  *diag = sqrt(s);
}

/* n points into xyz (3 n doubles): set 0 uniform in the box enlarged by 10%
 * (5% each side), set 1 a random point of a random triangle moved by up to
 * 1% of the diagonal along each axis (as tests/test_mesh_sign.c draws). */
static void so_points(const objmesh *m, int set, size_t n, uint64_t seed, double *xyz) {
  double lo[3], hi[3], diag;
  uint64_t rng = seed;
  size_t i;
  int k;
  so_box(m, lo, hi, &diag);
  for (i = 0; i < n; ++i) {
    double *p = xyz + 3 * i;
    if (set == 0) {
      for (k = 0; k < 3; ++k)
        p[k] = lo[k] - 0.05 * (hi[k] - lo[k]) + 1.1 * (hi[k] - lo[k]) * rng_unit(&rng);
    } else {
      size_t t = (size_t)(rng_next(&rng) % m->nt);
      const double *a = m->v + 3 * (size_t)m->t[3 * t];
      const double *b = m->v + 3 * (size_t)m->t[3 * t + 1];
      const double *c = m->v + 3 * (size_t)m->t[3 * t + 2];
      double u = rng_unit(&rng), w = rng_unit(&rng);
      if (u + w > 1) {
        u = 1 - u;
        w = 1 - w;
      }
      for (k = 0; k < 3; ++k)
        p[k] = a[k] + u * (b[k] - a[k]) + w * (c[k] - a[k]) + 0.01 * diag * rng_sym(&rng);
    }
  }
}

/* The seed of point set `set` (0 uniform, 1 near) of a mesh of nt
 * triangles: bench_sign and bench_sign_cgal draw the same points. */
static uint64_t so_seed(int set, size_t nt) {
  return 0x516e + 77 * (uint64_t)set + (uint64_t)nt;
}

#endif /* PROX_BENCH_SIGN_POINTS_H */
