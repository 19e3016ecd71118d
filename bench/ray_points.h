/* SPDX-License-Identifier: MIT */
/* ray_points.h: the rays of the ray benchmarks (bench_mesh_ray.c,
 * bench_ab.c): from the sphere of radius diag around the centre of the box
 * [lo, hi], each to a point uniform in the box, made in float and the same
 * rays in double. Header only (static functions). */
#ifndef PROX_BENCH_RAY_POINTS_H
#define PROX_BENCH_RAY_POINTS_H

#include <prox/primitives.h>

#include "splitmix.h"

#include <math.h>
#include <stddef.h>

static void rp_rays(const double lo[3], const double hi[3], double diag, size_t n, uint64_t seed,
                    prox_ray *rd, prox_rayf *rf) {
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; ++i) {
    double u[3], r, o[3], p[3];
    int c;
    do {
      for (c = 0; c < 3; ++c)
        u[c] = rng_sym(&s);
      r = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (!(r > 0.1 && r <= 1));
    for (c = 0; c < 3; ++c) {
      o[c] = 0.5 * (lo[c] + hi[c]) + diag * u[c] / r;
      p[c] = lo[c] + (hi[c] - lo[c]) * rng_unit(&s);
    }
    rf[i] =
        prox_ray_makef(prox_v3f((float)o[0], (float)o[1], (float)o[2]),
                       prox_v3f((float)(p[0] - o[0]), (float)(p[1] - o[1]), (float)(p[2] - o[2])));
    rd[i] = prox_ray_make(prox_v3(rf[i].origin.x, rf[i].origin.y, rf[i].origin.z),
                          prox_v3(rf[i].dir.x, rf[i].dir.y, rf[i].dir.z));
  }
}

#endif /* PROX_BENCH_RAY_POINTS_H */
