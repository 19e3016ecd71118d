/* SPDX-License-Identifier: MIT */
/* The prox command's calls into the library's mesh layers that need more
 * than one line: the BVH ray batch (prox/bvh_ray.h), the signed-distance
 * object and its batch (prox/sign.h), the topology (prox/topology.h). */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- rays -------------------------------------------------------------- */

int cli_raycast(const cli_mesh *m, const double *rays, size_t n, cli_hit *out, int threads) {
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
}

/* ---- signed distance and topology -------------------------------------- */

static int build_topology(cli_mesh *m, const char *name) {
  prox_error err;
  if (m->topo) return CLI_OK;
  if (prox_mesh_topology_build(&m->mesh, NULL, &m->topo, &err) != PROX_OK) {
    m->topo = NULL;
    return cli_fail("%s: %s", name, err.message);
  }
  return CLI_OK;
}

int cli_mesh_build_sign(cli_mesh *m, const char *name) {
  prox_error err;
  prox_sdf_options opt = prox_sdf_options_default();
  double t0 = cli_now();
  int rc;
  if (m->sdf) return CLI_OK;
  if ((rc = build_topology(m, name)) != CLI_OK) return rc;
  if (prox_sdf_build(&m->mesh, m->bvh, m->topo, &opt, NULL, &m->sdf, &err) != PROX_OK) {
    m->sdf = NULL;
    return cli_fail("%s: %s", name, err.message);
  }
  m->sign_s = cli_now() - t0;
  return CLI_OK;
}

int cli_signed_distance(const cli_mesh *m, const double *xyz, size_t n, double *out, int threads) {
  const prox_vec3 *p = (const prox_vec3 *)(const void *)xyz;
  prox_status s = prox_sdf_batch(m->sdf, p, n, out, NULL, threads);
  if (s != PROX_OK) return cli_fail("signed distance batch failed: %s", prox_status_string(s));
  return CLI_OK;
}

const char *cli_sign_method(const cli_mesh *m) {
  switch (m->sdf ? prox_sdf_method(m->sdf) : -1) {
  case PROX_SIGN_PSEUDONORMAL:
    return "angle-weighted pseudo-normals";
  case PROX_SIGN_CROSSINGS:
    return "exact crossing count";
  case PROX_SIGN_WINDING:
    if (prox_sdf_accuracy(m->sdf) == INFINITY) return "generalized winding number (exact)";
    return prox_sdf_caps(m->sdf) ? "generalized winding number (exact crossings, hierarchical caps)"
                                 : "generalized winding number (hierarchical)";
  default:
    return "none";
  }
}

int cli_mesh_topology(cli_mesh *m, cli_topology *out) {
  memset(out, 0, sizeof *out);
  if (build_topology(m, "mesh") != CLI_OK) return 0;
  out->closed = m->topo->closed;
  out->manifold = m->topo->manifold;
  out->oriented = m->topo->oriented;
  out->boundary_edges = m->topo->boundary_edges;
  out->nonmanifold_edges = m->topo->nonmanifold_edges;
  out->nonmanifold_vertices = m->topo->nonmanifold_vertices;
  out->degenerate_triangles = m->topo->zero_area_triangles;
  out->components = m->topo->components;
  {
    size_t pairs = 0;
    prox_error err;
    if (m->bvh && prox_mesh_self_intersections(&m->mesh, m->bvh, NULL, 0, &pairs, &err) != PROX_OK)
      return 0;
    out->self_intersections = pairs;
  }
  return 1;
}
