/* SPDX-License-Identifier: MIT */
/* The prox command's seams to library layers: the BVH ray queries
 * (prox/bvh_ray.h, wired in where the library has them, see
 * tools/cli/CMakeLists.txt), and the signed distance and mesh topology of
 * issue 16 (PENDING: not in the library yet; these functions answer
 * "unavailable" and the commands that need them exit 1 saying so). */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
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
  prox_ray *rs = calloc(n ? n : 1, sizeof *rs);
  prox_mesh_hit *hs = malloc((n ? n : 1) * sizeof *hs);
  prox_status st;
  size_t i;
  if (!rs || !hs) {
    free(rs);
    free(hs);
    return cli_fail("out of memory");
  }
  for (i = 0; i < n; ++i) {
    const double *r = rays + 7 * i;
    rs[i].origin = prox_v3(r[0], r[1], r[2]);
    rs[i].dir = prox_v3(r[3], r[4], r[5]);
    rs[i].tmin = 0;
    rs[i].tmax = r[6];
  }
  st = prox_bvh_raycast_batch(m->bvh, rs, n, hs, threads);
  if (st != PROX_OK) {
    free(rs);
    free(hs);
    return cli_fail("ray cast batch failed: %s", prox_status_string(st));
  }
  for (i = 0; i < n; ++i) {
    const double *r = rays + 7 * i;
    const prox_mesh_hit *h = hs + i;
    cli_hit *o = out + i;
    if (h->hit) {
      o->hit = 1;
      o->t = h->t;
      o->triangle = (long long)h->triangle;
      /* The point on the ray at t, as prox_rayhit defines it. */
      o->p[0] = r[0] + h->t * r[3];
      o->p[1] = r[1] + h->t * r[4];
      o->p[2] = r[2] + h->t * r[5];
      o->n[0] = h->normal.x;
      o->n[1] = h->normal.y;
      o->n[2] = h->normal.z;
    } else {
      o->hit = 0;
      o->t = INFINITY;
      o->triangle = -1;
      o->p[0] = o->p[1] = o->p[2] = NAN;
      o->n[0] = o->n[1] = o->n[2] = NAN;
    }
  }
  free(rs);
  free(hs);
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
