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
    int rays = i < with_rays, lo, hi, k;
    double scale, c[3], *v = NULL;
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
    noisy_centre(&s, offs[i % 4] * scale, c);
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

/* The tree of a mesh scaled by 2^k is the tree at scale 1, scaled: the
 * same nodes, children, counts and triangle order, every box times 2^k
 * exactly. That holds while the nodes' float boxes stay normal floats
 * (double meshes: k in [-100, 100] here, magnitudes 2^(k-20) to 2^(k+21));
 * the builder's SAH areas once overflowed (above about 2^56) or underflowed
 * (below about 2^-60) in float there, and the tree came out far from the
 * SAH's: a near query on the bunny took 4 us at 2^60 and 280 us at 2^80
 * where it takes 1.2 us at scale 1. Float meshes: k in [-38, 38]. */
static int bd_same_tree(const prox_bvh_node *a, const prox_bvh_node *b, uint32_t n, int k) {
  uint32_t i;
  int s;
  for (i = 0; i < n; ++i) {
    if (a[i].n_child != b[i].n_child) return 0;
    for (s = 0; s < 4; ++s) {
      const float *al[6] = {a[i].lo_x, a[i].lo_y, a[i].lo_z, a[i].hi_x, a[i].hi_y, a[i].hi_z};
      const float *bl[6] = {b[i].lo_x, b[i].lo_y, b[i].lo_z, b[i].hi_x, b[i].hi_y, b[i].hi_z};
      int c;
      if (a[i].child[s] != b[i].child[s] || a[i].count[s] != b[i].count[s]) return 0;
      for (c = 0; c < 6; ++c)
        if (ldexpf(al[c][s], k) != bl[c][s]) return 0;
    }
  }
  return 1;
}

/* A tree of the mesh (v, t) scaled by 2^k, built in precision prec
 * (float: the coordinates rounded to float, then scaled); its nodes, ids
 * and node count. bd_tree_free releases it. Returns 0 when an allocation
 * or the build fails. */
typedef struct bd_tree {
  prox_bvh *b;
  prox_bvhf *bf;
  void *coords;
  const prox_bvh_node *nodes;
  const uint32_t *ids;
  uint32_t node_count;
} bd_tree;

static int bd_tree_build(int prec, const double *v, size_t nv, const uint32_t *t, size_t nt, int k,
                         bd_tree *r) {
  size_t j;
  memset(r, 0, sizeof *r);
  r->coords = malloc(3 * (nv ? nv : 1) * (prec ? sizeof(float) : sizeof(double)));
  if (!r->coords) return 0;
  if (prec == 0) {
    double *vk = (double *)r->coords;
    prox_mesh m = {vk, nv, 0, t, nt};
    prox_bvh_view w;
    for (j = 0; j < 3 * nv; ++j)
      vk[j] = ldexp(v[j], k);
    if (prox_bvh_build(&m, NULL, NULL, &r->b, NULL) != PROX_OK) return 0;
    prox_bvh_get_view(r->b, &w);
    r->nodes = w.nodes;
    r->ids = w.ids;
    r->node_count = w.node_count;
  } else {
    float *fk = (float *)r->coords;
    prox_meshf m = {fk, nv, 0, t, nt};
    prox_bvh_viewf w;
    for (j = 0; j < 3 * nv; ++j)
      fk[j] = ldexpf((float)v[j], k);
    if (prox_bvh_buildf(&m, NULL, NULL, &r->bf, NULL) != PROX_OK) return 0;
    prox_bvh_get_viewf(r->bf, &w);
    r->nodes = w.nodes;
    r->ids = w.ids;
    r->node_count = w.node_count;
  }
  return 1;
}

static void bd_tree_free(bd_tree *r) {
  prox_bvh_free(r->b);
  prox_bvh_freef(r->bf);
  free(r->coords);
}

static void test_tree_scale(void) {
  static const double offs[4] = {0, 3, 1024, 1048576};
  oracle_rng s = oracle_rng_make(0x5ca1e);
  int prec, i, same = 0, total = 0;
  for (prec = 0; prec < 2; ++prec)
    for (i = 0; i < 12; ++i) {
      int k = prec ? -38 + oracle_rng_int(&s, 77) : -100 + oracle_rng_int(&s, 201);
      double c[3], *v = NULL;
      uint32_t *t = NULL;
      size_t nv, nt;
      int ok = 0;
      bd_tree t1 = {0}, tk = {0};
      noisy_centre(&s, offs[i % 4], c);
      noisy_sphere(&s, 20 + oracle_rng_int(&s, 20), i % 3, 1.0, c, ldexp(1.0, -20), &v, &nv, &t,
                   &nt);
      if (CHECK(v && t) && CHECK(bd_tree_build(prec, v, nv, t, nt, 0, &t1)) &&
          CHECK(bd_tree_build(prec, v, nv, t, nt, k, &tk)))
        ok = t1.node_count == tk.node_count && bd_same_tree(t1.nodes, tk.nodes, t1.node_count, k) &&
             memcmp(t1.ids, tk.ids, nt * sizeof *t1.ids) == 0;
      ++total;
      same += ok;
      CHECK_MSG(ok,
                "%s sphere of %zu triangles, centre %g sizes away: the tree at 2^%d is not "
                "the tree at scale 1 scaled",
                prec ? "float" : "double", nt, offs[i % 4], k);
      bd_tree_free(&t1);
      bd_tree_free(&tk);
      free(v);
      free(t);
    }
  h_note("%d of %d trees at 2^k equal to their tree at scale 1, scaled", same, total);
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_domain_double);
  H_RUN(test_domain_float);
  H_RUN(test_tree_scale);
  return h_finish();
}
