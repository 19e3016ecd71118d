/* SPDX-License-Identifier: MIT */
/* The prox command's seams to library layers that are still being written:
 * the BVH ray queries (built when the library declares them, see
 * tools/prox/CMakeLists.txt), the signed distance and the mesh topology of
 * issue 16 (PENDING: not in the library yet; these functions answer
 * "unavailable" and the commands that need them exit 1 saying so). */
#include "cli.h"

#include <math.h>
#include <string.h>

/* ---- rays -------------------------------------------------------------- */

int cli_rays_available(void) {
#if defined(PROX_CLI_HAVE_RAYS)
  return 1;
#else
  return 0;
#endif
}

int cli_raycast(const cli_mesh *m, const double *rays, size_t n, cli_hit *out,
                int threads) {
#if defined(PROX_CLI_HAVE_RAYS)
  size_t i;
  (void)threads;
  for (i = 0; i < n; ++i) {
    const double *r = rays + 7 * i;
    prox_ray ray;
    prox_mesh_hit h;
    cli_hit *o = out + i;
    ray.origin = prox_v3(r[0], r[1], r[2]);
    ray.dir = prox_v3(r[3], r[4], r[5]);
    ray.tmin = 0;
    ray.tmax = r[6];
    if (prox_bvh_raycast(m->bvh, ray, 0.0, r[6], &h) && h.hit) {
      o->hit = 1;
      o->t = h.t;
      o->triangle = (long long)h.triangle;
      /* The point on the ray at t, as prox_rayhit defines it. */
      o->p[0] = r[0] + h.t * r[3];
      o->p[1] = r[1] + h.t * r[4];
      o->p[2] = r[2] + h.t * r[5];
      o->n[0] = h.normal.x;
      o->n[1] = h.normal.y;
      o->n[2] = h.normal.z;
    } else {
      o->hit = 0;
      o->t = INFINITY;
      o->triangle = -1;
      o->p[0] = o->p[1] = o->p[2] = NAN;
      o->n[0] = o->n[1] = o->n[2] = NAN;
    }
  }
  return CLI_OK;
#else
  (void)m;
  (void)rays;
  (void)n;
  (void)out;
  (void)threads;
  return cli_fail("ray queries on meshes are not available in this build yet");
#endif
}

/* ---- signed distance: PENDING(issue 16) --------------------------------- */

int cli_signed_available(void) {
  return 0;
}

prox_status cli_signed_distance_pending(const cli_mesh *m, const double *xyz,
                                        size_t n, double *out, int threads) {
  (void)m;
  (void)xyz;
  (void)threads;
  /* Answer nothing rather than something wrong. */
  if (out && n) memset(out, 0, n * sizeof *out);
  return PROX_ERROR_UNSUPPORTED;
}

int cli_topology_pending(const cli_mesh *m, cli_topology *out) {
  (void)m;
  memset(out, 0, sizeof *out);
  return 0;
}
