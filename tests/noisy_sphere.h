/* SPDX-License-Identifier: MIT */
/* noisy_sphere.h: a generated closed mesh for the tests that sweep scales
 * (tests/test_bvh_domain.c, tests/test_mesh_sign.c). Header only. */
#ifndef PROX_TEST_NOISY_SPHERE_H
#define PROX_TEST_NOISY_SPHERE_H

#include "rng.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* c: a point at distance dist from the origin (to rounding) in a random
 * direction (three draws of s). */
static inline void noisy_centre(oracle_rng *s, double dist, double *c) {
  double len = 0;
  int a;
  for (a = 0; a < 3; ++a) {
    c[a] = oracle_rng_range(s, -1, 1);
    len += c[a] * c[a];
  }
  len = sqrt(len) + 1e-300;
  for (a = 0; a < 3; ++a)
    c[a] *= dist / len;
}

/* A closed sphere of radius `scale` around c, outward wound: two poles and
 * nu rings of nu * 2 vertices, each moved radially by up to 10% (a closed,
 * manifold, consistently oriented mesh); with degenerate 1 or 2, then 8
 * triangles of zero area (a repeated vertex: never hit by a ray, so the
 * crossings' parity holds, but their edges make the topology
 * non-manifold); with degenerate 2, also 8 slivers (three consecutive
 * vertices of a ring: thin triangles inside, which break the parity).
 * Coordinates below floor become 0. *v and *t are malloc'd (NULL when out
 * of memory). */
static inline void noisy_sphere(oracle_rng *s, int nu, int degenerate, double scale,
                                const double *c, double floor, double **v, size_t *nv, uint32_t **t,
                                size_t *nt) {
  int nr = nu, np = 2 * nu, i, j, k;
  size_t nvert = 2 + (size_t)nr * (size_t)np, ntri = 2 * (size_t)np * (size_t)nr + 16, q = 0;
  double *V = (double *)malloc(3 * nvert * sizeof *V);
  uint32_t *T = (uint32_t *)malloc(3 * ntri * sizeof *T);
  const double pi = 3.14159265358979323846;
  if (!V || !T) {
    free(V);
    free(T);
    *v = NULL;
    *t = NULL;
    return;
  }
  for (i = 0; i < 2; ++i) {
    double r = scale * (1 + 0.1 * oracle_rng_range(s, -1, 1));
    V[3 * i] = c[0];
    V[3 * i + 1] = c[1];
    V[3 * i + 2] = c[2] + (i ? -r : r);
  }
  for (i = 0; i < nr; ++i)
    for (j = 0; j < np; ++j) {
      double th = pi * (i + 1) / (nr + 1), ph = 2 * pi * j / np;
      double r = scale * (1 + 0.1 * oracle_rng_range(s, -1, 1));
      size_t a = 2 + (size_t)i * (size_t)np + (size_t)j;
      V[3 * a] = c[0] + r * sin(th) * cos(ph);
      V[3 * a + 1] = c[1] + r * sin(th) * sin(ph);
      V[3 * a + 2] = c[2] + r * cos(th);
    }
  for (k = 0; k < 3 * (int)nvert; ++k)
    if (fabs(V[k]) < floor) V[k] = 0;
#define NS_TRI(a, b, d)                                                                            \
  (T[3 * q] = (uint32_t)(a), T[3 * q + 1] = (uint32_t)(b), T[3 * q + 2] = (uint32_t)(d), ++q)
#define NS_AT(i, j) (2 + (i)*np + ((j) % np))
  for (j = 0; j < np; ++j) {
    NS_TRI(0, NS_AT(0, j), NS_AT(0, j + 1));
    NS_TRI(1, NS_AT(nr - 1, j + 1), NS_AT(nr - 1, j));
  }
  for (i = 0; i + 1 < nr; ++i)
    for (j = 0; j < np; ++j) {
      NS_TRI(NS_AT(i, j), NS_AT(i + 1, j), NS_AT(i + 1, j + 1));
      NS_TRI(NS_AT(i, j), NS_AT(i + 1, j + 1), NS_AT(i, j + 1));
    }
  for (k = 0; k < 8; ++k) {
    int a = (int)(oracle_rng_next(s) % (uint64_t)nr), b = (int)(oracle_rng_next(s) % (uint64_t)np);
    if (degenerate) NS_TRI(NS_AT(a, b), NS_AT(a, b), NS_AT(a, b + 1));
    if (degenerate > 1) NS_TRI(NS_AT(a, b), NS_AT(a, b + 1), NS_AT(a, b + 2));
  }
#undef NS_TRI
#undef NS_AT
  *v = V;
  *t = T;
  *nv = nvert;
  *nt = q;
}

#endif /* PROX_TEST_NOISY_SPHERE_H */
