/* SPDX-License-Identifier: MIT */
/* test_bvh_domain: the mesh queries across the kernels' whole domain.
 *
 * prox/bvh.h promises the brute force's answer, bit for bit, for any mesh
 * in the kernels' domain (prox/closest.h: nonzero magnitudes 2^-500 to
 * 2^500, float 2^-60 to 2^60, within that factor of one another), and
 * prox/bvh_ray.h the kernels' hits. The tests on the real meshes run them
 * at the meshes' own scales; test_mesh_build's wide-range mesh at two
 * fixed extremes. Here the scale itself is random: each mesh is a closed,
 * noisy sphere (a few hundred triangles, some of zero area by a repeated
 * vertex; every other one with slivers as well) at scale 2^k, its centre moved by 0, 3, 1024 or
 * 2^20 of its size in a random direction, for k drawn uniformly over the
 * domain:
 * - closest point: k in [-480, 478] (float [-38, 38]): magnitudes up to
 *   2^(k+21), and coordinates below 2^(k-20) (of vertices and query
 *   points) set to 0, so that every nonzero one is in the domain;
 * - rays as well, for k in [-270, 270] (float [-18, 18]): the ray sets
 *   include unit directions, whose casts are in the domain out to 2^300
 *   (float 2^40; prox/raycast.h).
 * Checked on each mesh, against the oracles of tests/mesh_check.inl and
 * tests/mesh_ray_check.inl: the five point sets (uniform in the box, near
 * the surface, far, on vertices, on edge midpoints) for the closest point,
 * with a maximum distance, the radius query and the batch; the four ray
 * sets (first hit, any hit, count and signed sum, all hits, at every SIMD
 * level; crossing parity on the spheres without slivers) and the ray
 * batches. */
#include <prox/batch.h>
#include <prox/bvh.h>
#include <prox/bvh_ray.h>

#include "harness.h"
#include "noisy_sphere.h"
#include "rng.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statistics of one set of rays (tests/mesh_ray_check.inl). */
typedef struct rt_stats {
  long rays, hits, crossings, parity_checked, ties;
} rt_stats;

#include <prox/detail/real_double.h>
#include "mesh_check.inl"
#include "mesh_ray_check.inl"
#include "bvh_domain_cases.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "mesh_check.inl"
#include "mesh_ray_check.inl"
#include "bvh_domain_cases.inl"
#include <prox/detail/real_end.h>

/* One precision's sweep: `meshes` meshes, the first `with_rays` with rays
 * as well (their k from the rays' range). */
static void bd_sweep(int prec, int meshes, int with_rays) {
  static const double offs[4] = {0, 3, 1024, 1048576};
  oracle_rng s = oracle_rng_make(prec ? 0xf10a7 : 0xd0b1e);
  long bad = 0;
  int i;
  for (i = 0; i < meshes; ++i) {
    int rays = i < with_rays, lo, hi, k, a;
    double scale, c[3], u[3], len = 0, *v = NULL;
    uint32_t *t = NULL;
    size_t nv = 0, nt = 0;
    char what[96];
    if (prec == 0) {
      lo = rays ? -270 : -480;
      hi = rays ? 270 : 478;
    } else {
      lo = rays ? -18 : -38;
      hi = rays ? 18 : 38;
    }
    k = lo + oracle_rng_int(&s, hi - lo + 1);
    scale = ldexp(1.0, k);
    for (a = 0; a < 3; ++a) {
      u[a] = oracle_rng_range(&s, -1, 1);
      len += u[a] * u[a];
    }
    len = sqrt(len) + 1e-300;
    for (a = 0; a < 3; ++a)
      c[a] = offs[i % 4] * scale * u[a] / len;
    noisy_sphere(&s, 6 + oracle_rng_int(&s, 8), 1 + i % 2, scale, c, ldexp(1.0, k - 20), &v, &nv,
                 &t, &nt);
    if (!CHECK(v && t)) {
      free(v);
      free(t);
      return;
    }
    snprintf(what, sizeof what, "sphere%s 2^%d, centre %g sizes away (%s)", i % 2 ? "+slivers" : "",
             k, offs[i % 4], prec ? "float" : "double");
    if (prec == 0)
      bd_mesh(v, nv, t, nt, k, rays, i % 2 == 0, (size_t)h_count(60), oracle_rng_next(&s), what,
              &bad);
    else
      bd_meshf(v, nv, t, nt, k, rays, i % 2 == 0, (size_t)h_count(60), oracle_rng_next(&s), what,
               &bad);
    free(v);
    free(t);
  }
  h_note("%s: %d meshes (%d with rays), %ld closest-point checks failed (the ray sets report "
         "theirs in their own lines)",
         prec ? "float" : "double", meshes, with_rays, bad);
  CHECK(bad == 0);
}

static void test_domain_double(void) {
  bd_sweep(0, 48, 16);
}

static void test_domain_float(void) {
  bd_sweep(1, 48, 16);
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_domain_double);
  H_RUN(test_domain_float);
  return h_finish();
}
