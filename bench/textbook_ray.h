/* SPDX-License-Identifier: MIT */
/* The textbook baselines of the ray-cast benchmark, written from the
 * papers' descriptions:
 *
 *   textbook_ray_aabb      the slab test of Williams, Barrus, Morley and
 *                          Shirley, "An efficient and robust ray-box
 *                          intersection algorithm" (JGT 2005): reciprocal
 *                          direction and its signs select the near and far
 *                          planes, early outs per axis. Precomputes the
 *                          reciprocal per query (textbook_ray_aabb) or once
 *                          per ray (textbook_ray_aabb_pre, the BVH form).
 *   textbook_ray_triangle  Moller and Trumbore, "Fast, minimum storage
 *                          ray-triangle intersection" (JGT 1997), with its
 *                          epsilon test on the determinant (both faces).
 *
 * Neither handles the cases prox's kernels are built for: a direction
 * component of 0 with the origin on a slab plane gives 0 * inf = NaN and a
 * miss; Moller-Trumbore is not watertight and rejects triangles under its
 * epsilon. Both precisions (suffix f) from the template at the bottom,
 * which this file includes into itself. Static inline, like prox's
 * kernels. */
#ifndef TEXTBOOK_RAY_TEMPLATE

#ifndef PROX_BENCH_TEXTBOOK_RAY_H
#define PROX_BENCH_TEXTBOOK_RAY_H

#include <prox/primitives.h>

#define TEXTBOOK_RAY_TEMPLATE

#define TBR_REAL double
#define TBR_FN(name) name
#define TBR_EPS 1e-12
#include "textbook_ray.h"
#undef TBR_REAL
#undef TBR_FN
#undef TBR_EPS

#define TBR_REAL float
#define TBR_FN(name) TBR_FN_F_(name)
#define TBR_FN_F_(name) name##f
#define TBR_EPS 1e-6f
#include "textbook_ray.h"
#undef TBR_REAL
#undef TBR_FN
#undef TBR_FN_F_
#undef TBR_EPS

#undef TEXTBOOK_RAY_TEMPLATE

#endif /* PROX_BENCH_TEXTBOOK_RAY_H */

#else /* TEXTBOOK_RAY_TEMPLATE: one precision */

/* Williams et al.'s ray: origin, reciprocal direction, its signs. */
typedef struct TBR_FN(tb_wray) {
  TBR_REAL o[3], inv[3];
  int sign[3];
  TBR_REAL t0, t1;
} TBR_FN(tb_wray);

static inline TBR_FN(tb_wray) TBR_FN(tb_wray_make)(const TBR_FN(prox_ray) * r) {
  TBR_FN(tb_wray) w;
  w.o[0] = r->origin.x;
  w.o[1] = r->origin.y;
  w.o[2] = r->origin.z;
  w.inv[0] = 1 / r->dir.x;
  w.inv[1] = 1 / r->dir.y;
  w.inv[2] = 1 / r->dir.z;
  w.sign[0] = w.inv[0] < 0;
  w.sign[1] = w.inv[1] < 0;
  w.sign[2] = w.inv[2] < 0;
  w.t0 = r->tmin;
  w.t1 = r->tmax;
  return w;
}

/* The slab test on a prepared ray: 1 on a hit in (t0, t1). */
static inline int TBR_FN(textbook_ray_aabb_pre)(const TBR_FN(tb_wray) * w,
                                                const TBR_FN(prox_aabb) * b) {
  const TBR_REAL *bx[2];
  TBR_REAL lo, hi, ylo, yhi, zlo, zhi;
  bx[0] = &b->min.x;
  bx[1] = &b->max.x;
  lo = (bx[w->sign[0]][0] - w->o[0]) * w->inv[0];
  hi = (bx[1 - w->sign[0]][0] - w->o[0]) * w->inv[0];
  ylo = (bx[w->sign[1]][1] - w->o[1]) * w->inv[1];
  yhi = (bx[1 - w->sign[1]][1] - w->o[1]) * w->inv[1];
  if (lo > yhi || ylo > hi) return 0;
  if (ylo > lo) lo = ylo;
  if (yhi < hi) hi = yhi;
  zlo = (bx[w->sign[2]][2] - w->o[2]) * w->inv[2];
  zhi = (bx[1 - w->sign[2]][2] - w->o[2]) * w->inv[2];
  if (lo > zhi || zlo > hi) return 0;
  if (zlo > lo) lo = zlo;
  if (zhi < hi) hi = zhi;
  return lo < w->t1 && hi > w->t0;
}

/* The slab test from the ray itself (reciprocal per query). */
static inline int TBR_FN(textbook_ray_aabb)(const TBR_FN(prox_ray) * r,
                                            const TBR_FN(prox_aabb) * b) {
  TBR_FN(tb_wray) w = TBR_FN(tb_wray_make)(r);
  return TBR_FN(textbook_ray_aabb_pre)(&w, b);
}

/* Moller-Trumbore: 1 on a hit with t in [tmin, tmax]; *t, *u, *v. */
static inline int TBR_FN(textbook_ray_triangle)(const TBR_FN(prox_ray) * r,
                                                const TBR_FN(prox_triangle) * tri, TBR_REAL *t,
                                                TBR_REAL *u, TBR_REAL *v) {
  TBR_REAL e1[3], e2[3], p[3], s[3], q[3], det, inv;
  const TBR_REAL *a = &tri->v[0].x, *b = &tri->v[1].x, *c = &tri->v[2].x;
  const TBR_REAL *d = &r->dir.x, *o = &r->origin.x;
  int i;
  for (i = 0; i < 3; ++i) {
    e1[i] = b[i] - a[i];
    e2[i] = c[i] - a[i];
    s[i] = o[i] - a[i];
  }
  p[0] = d[1] * e2[2] - d[2] * e2[1];
  p[1] = d[2] * e2[0] - d[0] * e2[2];
  p[2] = d[0] * e2[1] - d[1] * e2[0];
  det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
  if (det > -TBR_EPS && det < TBR_EPS) return 0;
  inv = 1 / det;
  *u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
  if (*u < 0 || *u > 1) return 0;
  q[0] = s[1] * e1[2] - s[2] * e1[1];
  q[1] = s[2] * e1[0] - s[0] * e1[2];
  q[2] = s[0] * e1[1] - s[1] * e1[0];
  *v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
  if (*v < 0 || *u + *v > 1) return 0;
  *t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
  return *t >= r->tmin && *t <= r->tmax;
}

#endif /* TEXTBOOK_RAY_TEMPLATE */
