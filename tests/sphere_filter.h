/* SPDX-License-Identifier: MIT */
/* sphere_filter.h: what the brute-force oracles of the mesh tests
 * (tests/mesh_ray_check.inl, tests/mesh_check.inl) use to skip, before
 * their kernel, the triangles that cannot matter: triangles put in the
 * Morton order of their centroids, bounding spheres in double around each
 * triangle, each run of SF_RUN of them and each group of SF_RUN runs, and
 * conservative distance bounds from a sphere to a line or a point. No
 * tree of the library is read: the oracles stay independent of the BVH
 * under test. A sphere with a NaN or infinite value never excludes
 * anything. Header only (static inline). */
#ifndef PROX_TEST_SPHERE_FILTER_H
#define PROX_TEST_SPHERE_FILTER_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Triangles per run, and runs per group. */
#define SF_RUN 32

/* A triangle's place in the filter's order: its centroid's Morton code. */
typedef struct sf_key {
  uint64_t key;
  uint32_t id;
} sf_key;

static inline int sf_key_cmp(const void *x, const void *y) {
  const sf_key *p = (const sf_key *)x, *q = (const sf_key *)y;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  return p->id < q->id ? -1 : (p->id > q->id);
}

static inline int sf_id_cmp(const void *x, const void *y) {
  uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;
  return p < q ? -1 : (p > q);
}

/* The Morton code of centroid c (3 doubles) in the box lo..hi, 10 bits an
 * axis (0 for a coordinate outside the box or NaN). */
static inline uint64_t sf_morton(const double *c, const double *lo, const double *hi) {
  uint64_t r = 0;
  int k, b;
  for (k = 0; k < 3; ++k) {
    double f = (c[k] - lo[k]) / (hi[k] - lo[k]) * 1023;
    uint64_t q = f >= 0 && f <= 1023 ? (uint64_t)f : 0;
    for (b = 0; b < 10; ++b)
      r |= (q >> b & 1) << (3 * b + k);
  }
  return r;
}

/* The sphere (centre x, y, z, radius) around the triangle with vertices
 * a, b, c: centre their mean, radius the largest distance to a vertex,
 * enlarged by 1e-12 of itself (far beyond the rounding of these few
 * operations; NaN kept). */
static inline void sf_tri_sphere(const double *a, const double *b, const double *c, double *out) {
  const double *v[3] = {a, b, c};
  double m[3], rr = 0;
  int j, k;
  for (k = 0; k < 3; ++k)
    m[k] = a[k] / 3 + b[k] / 3 + c[k] / 3;
  for (j = 0; j < 3; ++j) {
    double q = 0;
    for (k = 0; k < 3; ++k)
      q += (v[j][k] - m[k]) * (v[j][k] - m[k]);
    q = sqrt(q);
    rr = q > rr || q != q ? q : rr;
  }
  for (k = 0; k < 3; ++k)
    out[k] = m[k];
  out[3] = rr * (1 + 1e-12);
}

/* The sphere around the n spheres at s (4 doubles each) into out: centre
 * their mean, radius the largest distance to a centre plus that sphere's
 * radius, enlarged by 1e-12 of itself (NaN kept). */
static inline void sf_bound(const double *s, size_t n, double *out) {
  double c[3] = {0, 0, 0}, rr = 0;
  size_t i;
  int k;
  for (i = 0; i < n; ++i)
    for (k = 0; k < 3; ++k)
      c[k] += s[4 * i + (size_t)k] / (double)n;
  for (i = 0; i < n; ++i) {
    double q = 0;
    for (k = 0; k < 3; ++k) {
      double x = s[4 * i + (size_t)k] - c[k];
      q += x * x;
    }
    q = sqrt(q) + s[4 * i + 3];
    rr = q > rr || q != q ? q : rr;
  }
  for (k = 0; k < 3; ++k)
    out[k] = c[k];
  out[3] = rr * (1 + 1e-12);
}

/* The runs' and groups' spheres of n triangle spheres (in the filter's
 * order) into run: the runs' first ((n + SF_RUN - 1) / SF_RUN of them),
 * then the groups'. */
static inline void sf_runs(const double *sph, size_t n, double *run) {
  size_t nr = (n + SF_RUN - 1) / SF_RUN, ng = (nr + SF_RUN - 1) / SF_RUN, r;
  for (r = 0; r < nr; ++r) {
    size_t b = r * SF_RUN, e = b + SF_RUN < n ? b + SF_RUN : n;
    sf_bound(sph + 4 * b, e - b, run + 4 * r);
  }
  for (r = 0; r < ng; ++r) {
    size_t b = r * SF_RUN, e = b + SF_RUN < nr ? b + SF_RUN : nr;
    sf_bound(run + 4 * b, e - b, run + 4 * (nr + r));
  }
}

/* The corners of triangle i in double (x, y, z of each, 9 in all). */
typedef void (*sf_corners_fn)(const void *ctx, size_t i, double *c);

/* The filter of n triangles (corners given by get): order[] (n entries)
 * the triangles in the Morton order of their centroids in the box
 * lo..hi, by increasing index within each run of SF_RUN (so that a run's
 * first strict minimum is its lowest index); sph (4 n doubles) the sphere
 * of triangle order[j] at 4 j; run (4 (runs + groups) doubles) the runs'
 * and groups' spheres (sf_runs). Returns 0, having written nothing
 * useful, when its scratch memory cannot be had. */
static inline int sf_make(sf_corners_fn get, const void *ctx, size_t n, const double *lo,
                          const double *hi, uint32_t *order, double *sph, double *run) {
  sf_key *key = (sf_key *)malloc((n ? n : 1) * sizeof *key);
  double c[9];
  size_t i;
  int k;
  if (!key) return 0;
  for (i = 0; i < n; ++i) {
    double mid[3];
    get(ctx, i, c);
    for (k = 0; k < 3; ++k)
      mid[k] = c[k] / 3 + c[3 + k] / 3 + c[6 + k] / 3;
    key[i].key = sf_morton(mid, lo, hi);
    key[i].id = (uint32_t)i;
  }
  qsort(key, n, sizeof *key, sf_key_cmp);
  for (i = 0; i < n; ++i)
    order[i] = key[i].id;
  free(key);
  for (i = 0; i < n; i += SF_RUN)
    qsort(order + i, n - i < SF_RUN ? n - i : SF_RUN, sizeof *order, sf_id_cmp);
  for (i = 0; i < n; ++i) {
    get(ctx, order[i], c);
    sf_tri_sphere(c, c + 3, c + 6, sph + 4 * i);
  }
  sf_runs(sph, n, run);
  return 1;
}

/* 1 when the line through o along the unit vector u is certainly farther
 * than s[3] + margin from the centre s[0..2] (NaN: never). The distance is
 * |(s - o) x u|, computed with a relative error of a few ulps of |s - o|,
 * which the callers' margin covers many times over. */
static inline int sf_far_line(const double *s, const double *o, const double *u, double margin) {
  double q[3] = {s[0] - o[0], s[1] - o[1], s[2] - o[2]};
  double x = q[1] * u[2] - q[2] * u[1], y = q[2] * u[0] - q[0] * u[2],
         z = q[0] * u[1] - q[1] * u[0];
  double lim = s[3] + margin;
  return x * x + y * y + z * z > lim * lim;
}

/* A lower bound of the distance from p to every point of sphere s, less
 * the rounding of its computation (a few ulps of |s - p|); NaN for a NaN
 * sphere (then no comparison excludes anything). */
static inline double sf_lower(const double *s, const double *p) {
  double x = s[0] - p[0], y = s[1] - p[1], z = s[2] - p[2];
  return sqrt(x * x + y * y + z * z) * (1 - 1e-14) - s[3];
}

#endif /* PROX_TEST_SPHERE_FILTER_H */
