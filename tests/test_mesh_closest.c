/* SPDX-License-Identifier: MIT */
/* The closest-point and radius queries of prox/bvh.h against brute force
 * on the real meshes (PROX_MESH_DIR; skipped with exit code 77 when it is
 * absent, unless PROX_REQUIRE_MESHES is set): bunny.obj (open),
 * bunny_watertight.obj, armadillo.obj, dragon.obj, spot.obj, teapot.obj,
 * block.obj (zero-area triangles), cycloidal.ply (non-manifold),
 * adis16480.stl (slivers), each in double and in float (the vertices
 * rounded).
 *
 * Per mesh and precision, h_count(10000) points in each of five sets (the
 * brute force skips the runs of triangles whose bounding sphere is
 * certainly farther than its best so far: mesh_check.inl's mc_cull):
 * uniform in the bounding box enlarged by 10%, within 1% of the diagonal of
 * the surface, 10 diagonals away, exactly on vertices, on (rounded) edge
 * midpoints. Asserted for every point: the tree's squared distance equals
 * the brute-force minimum of prox_point_triangle() bit for bit, its
 * triangle is the brute force's lowest index, and point, barycentrics and
 * feature are prox_point_triangle()'s on that triangle (mesh_check.inl).
 * Also: a maximum distance (found and not found), the radius query, the
 * batch in 1, 2 and 7 threads (bit-identical to single queries), and every
 * SIMD level the CPU has (prox_simd_set). */
#include <prox/batch.h>
#include <prox/bvh.h>

#include "harness.h"
#include "meshload.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

static const char *mc_dir = NULL;
static int mc_missing = 0;

#include <prox/detail/real_double.h>
#include "mesh_check.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "mesh_check.inl"
#include <prox/detail/real_end.h>

#define MC_RUN_TEMPLATE(S, R)                                                                      \
  static void mc_run##S(const objmesh *om, const char *name, uint64_t seed) {                      \
    mc_mesh##S m;                                                                                  \
    prox_bvh##S *bvh = NULL;                                                                       \
    prox_error err;                                                                                \
    size_t n = (size_t)h_count(10000), i;                                                          \
    prox_vec3##S *pts;                                                                             \
    prox_mesh_closest##S *r1, *r2;                                                                 \
    char what[128];                                                                                \
    static const char *sets[5] = {"uniform", "near", "far", "vertex", "midpoint"};                 \
    int set, t, lev;                                                                               \
    if (!mc_make##S(&m, om->v, om->nv, om->t, om->nt)) {                                           \
      CHECK(0);                                                                                    \
      return;                                                                                      \
    }                                                                                              \
    mc_cull##S(&m);                                                                                \
    pts = (prox_vec3##S *)malloc(5 * n * sizeof *pts + 1);                                         \
    r1 = (prox_mesh_closest##S *)malloc(5 * n * sizeof *r1 + 1);                                   \
    r2 = (prox_mesh_closest##S *)malloc(5 * n * sizeof *r2 + 1);                                   \
    if (!pts || !r1 || !r2 ||                                                                      \
        !CHECK(prox_bvh_build##S(&m.view, NULL, NULL, &bvh, &err) == PROX_OK)) {                   \
      free(pts);                                                                                   \
      free(r1);                                                                                    \
      free(r2);                                                                                    \
      mc_free##S(&m);                                                                              \
      return;                                                                                      \
    }                                                                                              \
    mc_query_sets##S(&m, n, seed, pts);                                                            \
    /* The oracle's SIMD loop is the literal scalar loop (a few points). */                        \
    for (i = 0; i < 5 * n; i += n / 8 + 1) {                                                       \
      uint32_t ia, ib;                                                                             \
      R da = mc_brute##S(&m, pts[i], (R)INFINITY, &ia);                                            \
      R db = mc_brute_scalar##S(&m, pts[i], (R)INFINITY, &ib);                                     \
      CHECK(ia == ib && mc_same##S(da, db));                                                       \
    }                                                                                              \
    for (set = 0; set < 5; ++set) {                                                                \
      snprintf(what, sizeof what, "%s (%s) %s", name, #R, sets[set]);                              \
      mc_check_points##S(&m, bvh, pts + (size_t)set * n, n, (R)INFINITY, what);                    \
    }                                                                                              \
    /* A maximum distance: about half the near points are within it. */                            \
    snprintf(what, sizeof what, "%s (%s) near, max", name, #R);                                    \
    mc_check_points##S(&m, bvh, pts + n, n / 4 + 1, (R)(m.diag * m.diag * (R)2.5e-5), what);       \
    mc_check_within##S(&m, bvh, pts + n, (size_t)h_count(40) + 1);                                 \
    mc_check_within##S(&m, bvh, pts + 3 * n, (size_t)h_count(20) + 1);                             \
    /* Batches: the same bits as the single queries, any thread count. */                          \
    for (i = 0; i < 5 * n; ++i)                                                                    \
      prox_bvh_closest##S(bvh, pts[i], (R)INFINITY, &r1[i]);                                       \
    for (t = 0; t < 3; ++t) {                                                                      \
      static const int th[3] = {1, 2, 7};                                                          \
      memset(r2, 0xab, 5 * n * sizeof *r2);                                                        \
      CHECK(prox_bvh_closest_batch##S(bvh, pts, 5 * n, (R)INFINITY, r2, th[t]) == PROX_OK);        \
      for (i = 0; i < 5 * n; ++i)                                                                  \
        if (!CHECK_MSG(r1[i].triangle == r2[i].triangle &&                                         \
                           mc_same##S(r1[i].sqdist, r2[i].sqdist) &&                               \
                           mc_same##S(r1[i].point.x, r2[i].point.x) &&                             \
                           mc_same##S(r1[i].bary[1], r2[i].bary[1]),                               \
                       "%s batch, %d threads, point %zu", name, th[t], i))                         \
          break;                                                                                   \
    }                                                                                              \
    /* Every SIMD level: the same answers (checked against brute force). */                        \
    for (lev = PROX_SIMD_SCALAR; lev <= PROX_SIMD_AVX512; ++lev) {                                 \
      int was = prox_simd_level();                                                                 \
      if (!prox_simd_set(lev)) continue;                                                           \
      snprintf(what, sizeof what, "%s (%s) %s", name, #R, prox_simd_name(lev));                    \
      mc_check_points##S(&m, bvh, pts, n / 10 + 1, (R)INFINITY, what);                             \
      mc_check_points##S(&m, bvh, pts + 4 * n, n / 10 + 1, (R)INFINITY, what);                     \
      /* The batch's packet walk has a node step per level (SSE2, AVX2). */                        \
      CHECK(prox_bvh_closest_batch##S(bvh, pts, 2 * n, (R)INFINITY, r2, 1) == PROX_OK);            \
      for (i = 0; i < 2 * n; ++i)                                                                  \
        if (!CHECK_MSG(r1[i].triangle == r2[i].triangle && mc_same##S(r1[i].sqdist, r2[i].sqdist), \
                       "%s batch, point %zu", what, i))                                            \
          break;                                                                                   \
      prox_simd_set(was);                                                                          \
    }                                                                                              \
    /* Batches with a maximum distance (half the near points within it; 0; below 0): the           \
     * single queries' answers, those beyond it not found. */                                      \
    for (t = 0; t < 3; ++t) {                                                                      \
      const R mx = t == 0 ? (R)(m.diag * m.diag * (R)2.5e-5) : t == 1 ? (R)0 : (R)-1;              \
      size_t beyond = 0;                                                                           \
      for (i = 0; i < n; ++i)                                                                      \
        prox_bvh_closest##S(bvh, pts[n + i], mx, &r1[i]);                                          \
      CHECK(prox_bvh_closest_batch##S(bvh, pts + n, n, mx, r2, 1) == PROX_OK);                     \
      for (i = 0; i < n; ++i) {                                                                    \
        beyond += !r1[i].found;                                                                    \
        if (!CHECK_MSG(r1[i].found == r2[i].found && r1[i].triangle == r2[i].triangle &&           \
                           mc_same##S(r1[i].sqdist, r2[i].sqdist),                                 \
                       "%s batch with the maximum %g, point %zu", name, (double)mx, i))            \
          break;                                                                                   \
      }                                                                                            \
      if (t == 0)                                                                                  \
        CHECK_MSG(beyond > 0 && beyond < n, "%s: %zu of %zu near points beyond the maximum", name, \
                  beyond, n);                                                                      \
    }                                                                                              \
    prox_bvh_free##S(bvh);                                                                         \
    free(pts);                                                                                     \
    free(r1);                                                                                      \
    free(r2);                                                                                      \
    mc_free##S(&m);                                                                                \
  }
MC_RUN_TEMPLATE(, double)
MC_RUN_TEMPLATE(f, float)

static void mc_real(const char *file, uint64_t seed) {
  char path[4200], err[512];
  objmesh om;
  if (!mc_dir) {
    mc_missing = 1;
    return;
  }
  snprintf(path, sizeof path, "%s/%s", mc_dir, file);
  if (!CHECK_MSG(mesh_load(path, &om, err, sizeof err), "%s", err)) return;
  if (mesh_over_limit(path, om.nt)) {
    obj_free(&om);
    return;
  }
  h_note("%s: %zu vertices, %zu triangles", file, om.nv, om.nt);
  mc_run(&om, file, seed);
  mc_runf(&om, file, seed + 1);
  obj_free(&om);
}

static void test_mesh_closest_bunny(void) {
  mc_real("bunny.obj", 101);
}
static void test_mesh_closest_bunny_watertight(void) {
  mc_real("bunny_watertight.obj", 102);
}
static void test_mesh_closest_armadillo(void) {
  mc_real("armadillo.obj", 103);
}
static void test_mesh_closest_dragon(void) {
  mc_real("dragon.obj", 104);
}
static void test_mesh_closest_spot(void) {
  mc_real("spot.obj", 105);
}
static void test_mesh_closest_teapot(void) {
  mc_real("teapot.obj", 106);
}
static void test_mesh_closest_block(void) {
  mc_real("block.obj", 107);
}
static void test_mesh_closest_cycloidal(void) {
  mc_real("cycloidal.ply", 108);
}
static void test_mesh_closest_adis16480(void) {
  mc_real("adis16480.stl", 109);
}

int main(int argc, char **argv) {
  int rc;
  const char *req;
  h_init(argc, argv);
  mc_dir = mesh_dir_find(__FILE__);
  H_RUN(test_mesh_closest_spot);
  H_RUN(test_mesh_closest_teapot);
  H_RUN(test_mesh_closest_block);
  H_RUN(test_mesh_closest_adis16480);
  H_RUN(test_mesh_closest_cycloidal);
  H_RUN(test_mesh_closest_bunny);
  H_RUN(test_mesh_closest_bunny_watertight);
  H_RUN(test_mesh_closest_armadillo);
  H_RUN(test_mesh_closest_dragon);
  rc = h_finish();
  if (mc_missing) {
    printf("mesh_closest: the real meshes were not found (set "
           "PROX_MESH_DIR); their tests were skipped\n");
    req = getenv("PROX_REQUIRE_MESHES");
    if (req && *req && strcmp(req, "0") != 0) return 1;
    if (rc == 0) return 77;
  }
  return rc;
}
