/* SPDX-License-Identifier: MIT */
/* Tests of prox/topology.h: small meshes whose topology is worked out by
 * hand (a closed cube, an open square, a bowtie, a fin of three triangles on
 * one edge, flipped, duplicated, collapsed and zero-area triangles), then
 * the real meshes against the counts their README states (an independent
 * checker's), and allocation failure at every allocation. */
#include <prox/topology.h>

#include "fail_alloc.h"
#include "harness.h"
#include "meshload.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- helpers */

static prox_mesh_topology *topo_of(const double *v, size_t nv, const uint32_t *idx, size_t nt) {
  prox_mesh m;
  prox_mesh_topology *t = NULL;
  prox_error err;
  m.vertices = v;
  m.vertex_count = nv;
  m.stride = 0;
  m.indices = idx;
  m.triangle_count = nt;
  if (prox_mesh_topology_build(&m, NULL, &t, &err) != PROX_OK) {
    h_note("topology failed: %s", err.message);
    return NULL;
  }
  return t;
}

/* A unit cube, 12 triangles wound outward. */
static const double cube_v[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                                0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
static const uint32_t cube_t[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                  1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};

static void test_topology_cube(void) {
  prox_mesh_topology *t = topo_of(cube_v, 8, cube_t, 12);
  CHECK(t != NULL);
  if (!t) return;
  CHECK(t->edge_count == 18);
  CHECK(t->boundary_edges == 0);
  CHECK(t->nonmanifold_edges == 0);
  CHECK(t->nonmanifold_vertices == 0);
  CHECK(t->inconsistent_edges == 0);
  CHECK(t->components == 1);
  CHECK(t->euler == 2);
  CHECK(t->closed && t->manifold && t->oriented);
  CHECK(t->zero_area_triangles == 0 && t->duplicate_triangles == 0);
  CHECK(t->referenced_vertices == 8);
  /* Every edge has two triangles, each of which has the edge as a side. */
  {
    uint32_t e;
    for (e = 0; e < t->edge_count; ++e) {
      uint32_t a = t->edge_vertices[2 * e], b = t->edge_vertices[2 * e + 1];
      uint32_t q;
      CHECK(a < b);
      CHECK(t->edge_offsets[e + 1] - t->edge_offsets[e] == 2);
      for (q = t->edge_offsets[e]; q < t->edge_offsets[e + 1]; ++q) {
        uint32_t tri = t->edge_triangles[q];
        uint32_t k;
        int found = 0;
        for (k = 0; k < 3; ++k) {
          uint32_t x = cube_t[3 * tri + k], y = cube_t[3 * tri + (k + 1) % 3];
          if ((x == a && y == b) || (x == b && y == a)) {
            found = 1;
            CHECK(t->triangle_edges[3 * tri + k] == e);
          }
        }
        CHECK(found);
      }
    }
  }
  prox_mesh_topology_free(t);

  /* Flip one triangle: its three edges become inconsistent. */
  {
    uint32_t idx[36];
    memcpy(idx, cube_t, sizeof idx);
    idx[1] = cube_t[2];
    idx[2] = cube_t[1];
    t = topo_of(cube_v, 8, idx, 12);
    CHECK(t && t->inconsistent_edges == 3 && !t->oriented && t->closed);
    prox_mesh_topology_free(t);
  }
  /* Drop one triangle: three boundary edges, open, still one component. */
  t = topo_of(cube_v, 8, cube_t, 11);
  CHECK(t && t->boundary_edges == 3 && !t->closed && t->manifold && t->components == 1 &&
        t->euler == 1);
  prox_mesh_topology_free(t);
}

static void test_topology_square_bowtie_fin(void) {
  /* An open square of two triangles. */
  static const double sq_v[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  static const uint32_t sq_t[] = {0, 1, 2, 0, 2, 3};
  /* A bowtie: two triangles sharing vertex 0 only. */
  static const double bt_v[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, -1, 0, 0, -1, -1, 0};
  static const uint32_t bt_t[] = {0, 1, 2, 0, 3, 4};
  /* A fin: three triangles on edge 0-1. */
  static const double fin_v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1};
  static const uint32_t fin_t[] = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  prox_mesh_topology *t = topo_of(sq_v, 4, sq_t, 2);
  CHECK(t && t->edge_count == 5 && t->boundary_edges == 4 && t->nonmanifold_vertices == 0 &&
        t->components == 1 && t->euler == 1 && t->oriented && t->manifold && !t->closed);
  prox_mesh_topology_free(t);

  t = topo_of(bt_v, 5, bt_t, 2);
  CHECK(t && t->nonmanifold_vertices == 1 && t->vertex_nonmanifold[0] == 1 &&
        t->vertex_nonmanifold[1] == 0 && t->components == 2 && !t->manifold &&
        t->boundary_edges == 6 && t->euler == 5 - 6 + 2);
  prox_mesh_topology_free(t);

  t = topo_of(fin_v, 5, fin_t, 3);
  CHECK(t && t->nonmanifold_edges == 1 && t->edge_count == 7 && t->boundary_edges == 6 &&
        !t->manifold && !t->closed && t->components == 1 && t->nonmanifold_vertices == 0);
  if (t) {
    /* The fin edge (0, 1) is the first edge and lists 0, 1, 2. */
    CHECK(t->edge_vertices[0] == 0 && t->edge_vertices[1] == 1);
    CHECK(t->edge_offsets[1] - t->edge_offsets[0] == 3);
    CHECK(t->edge_triangles[0] == 0 && t->edge_triangles[1] == 1 && t->edge_triangles[2] == 2);
  }
  prox_mesh_topology_free(t);
}

static void test_topology_degenerate(void) {
  /* Triangle 0 proper; 1 a duplicate of 0 reversed; 2 collapsed (repeated
   * index); 3 zero area with distinct, collinear vertices (2 is the
   * midpoint of 0 and 1 exactly); 4 almost zero area (not zero). */
  static const double v[] = {0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0.5, 1, 0, 1, 1e-300, 0};
  static const uint32_t idx[] = {0, 1, 3, 3, 1, 0, 0, 0, 1, 0, 1, 2, 0, 1, 4};
  prox_mesh_topology *t = topo_of(v, 5, idx, 5);
  CHECK(t != NULL);
  if (!t) return;
  CHECK(t->triangle_flags[0] == 0);
  CHECK(t->triangle_flags[1] == PROX_TRIANGLE_DUPLICATE);
  CHECK(t->triangle_flags[2] == (PROX_TRIANGLE_COLLAPSED | PROX_TRIANGLE_ZERO_AREA));
  CHECK(t->triangle_flags[3] == PROX_TRIANGLE_ZERO_AREA);
  CHECK(t->triangle_flags[4] == 0);
  CHECK(t->collapsed_triangles == 1 && t->zero_area_triangles == 2 && t->duplicate_triangles == 1);
  CHECK(t->triangle_edges[6] == PROX_TOPOLOGY_NONE);
  CHECK(t->triangle_component[2] == PROX_TOPOLOGY_NONE);
  /* Edge 0-1 carries triangles 0, 1, 3, 4: non-manifold. */
  CHECK(t->nonmanifold_edges == 1);
  CHECK(t->referenced_vertices == 5);
  prox_mesh_topology_free(t);

  /* A mesh of only collapsed triangles: no edges, not closed. */
  {
    static const uint32_t c[] = {0, 0, 1, 2, 2, 2};
    t = topo_of(v, 5, c, 2);
    CHECK(t && t->edge_count == 0 && t->components == 0 && !t->closed &&
          t->collapsed_triangles == 2 && t->euler == 0);
    prox_mesh_topology_free(t);
  }
}

static void test_topology_errors(void) {
  static const double v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  static const uint32_t bad[] = {0, 1, 3};
  prox_mesh m;
  prox_mesh_topology *t = (prox_mesh_topology *)&m;
  prox_error err;
  m.vertices = v;
  m.vertex_count = 3;
  m.stride = 0;
  m.indices = bad;
  m.triangle_count = 1;
  CHECK(prox_mesh_topology_build(&m, NULL, &t, &err) == PROX_ERROR_INVALID_MESH);
  CHECK(t == NULL && err.status == PROX_ERROR_INVALID_MESH && strlen(err.message) > 0);
  CHECK(prox_mesh_topology_build(NULL, NULL, &t, &err) == PROX_ERROR_INVALID_ARGUMENT);
  CHECK(prox_mesh_topology_build(&m, NULL, NULL, NULL) == PROX_ERROR_INVALID_ARGUMENT);
  prox_mesh_topology_free(NULL);
}

static void test_topology_alloc_failure(void) {
  prox_mesh m;
  long k, total;
  fail_alloc f = {0, 0, 0};
  prox_allocator a;
  prox_mesh_topology *t = NULL;
  m.vertices = cube_v;
  m.vertex_count = 8;
  m.stride = 0;
  m.indices = cube_t;
  m.triangle_count = 12;
  a = fa_allocator(&f);
  CHECK(prox_mesh_topology_build(&m, &a, &t, NULL) == PROX_OK);
  total = f.calls;
  CHECK(total >= 2);
  CHECK(t && t->euler == 2);
  prox_mesh_topology_free(t);
  CHECK(f.live == 0);
  for (k = 1; k <= total; ++k) {
    prox_error err;
    f.calls = 0;
    f.fail_at = k;
    f.live = 0;
    t = (prox_mesh_topology *)&m;
    CHECK(prox_mesh_topology_build(&m, &a, &t, &err) == PROX_ERROR_OUT_OF_MEMORY);
    CHECK(t == NULL);
    CHECK_MSG(f.live == 0, "call %ld: %ld blocks leaked", k, f.live);
  }
}

/* ---------------------------------------------------------- real meshes */

static const char *mesh_dir;
static int mesh_missing;

typedef struct expect {
  const char *file;
  long boundary, nm_edges, nm_vertices, zero_area, components;
  int has_euler;
  long euler;
} expect;

/* The README of the mesh folder (its "Defect counts" and "Files" tables). */
static const expect expected[] = {
    {"bunny.obj", 223, 0, 0, 0, 1, 0, 0},   {"bunny_watertight.obj", 0, 0, 0, 0, 1, 1, 2},
    {"armadillo.obj", 0, 0, 0, 0, 1, 1, 2}, {"dragon.obj", 0, 0, 0, 0, 1, 1, 0},
    {"spot.obj", 0, 0, 0, 0, 1, 1, 2},      {"teapot.obj", 1036, 0, 38, 0, 19, 0, 0},
    {"fandisk.obj", 0, 0, 0, 0, 1, 1, 2},   {"block.obj", 0, 0, 0, 4, 1, 1, -4},
};

static void test_topology_real_meshes(void) {
  size_t i;
  if (!mesh_dir) {
    mesh_missing = 1;
    return;
  }
  for (i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
    const expect *x = &expected[i];
    char path[4200];
    objmesh om;
    prox_mesh_topology *t;
    snprintf(path, sizeof path, "%s/%s", mesh_dir, x->file);
    memset(&om, 0, sizeof om);
    char oerr[512];
    if (!mesh_load(path, &om, oerr, sizeof oerr)) {
      CHECK_MSG(0, "cannot read %s", path);
      continue;
    }
    t = topo_of(om.v, om.nv, om.t, om.nt);
    CHECK_MSG(t != NULL, "%s", x->file);
    if (t) {
      int closed = x->boundary == 0 && x->nm_edges == 0;
      h_note("%s: %u edges, %u boundary, %u nm edges, %u nm vertices, %u "
             "zero-area, %u duplicates, %u components, euler %lld, closed "
             "%d, manifold %d, oriented %d",
             x->file, t->edge_count, t->boundary_edges, t->nonmanifold_edges,
             t->nonmanifold_vertices, t->zero_area_triangles, t->duplicate_triangles, t->components,
             (long long)t->euler, t->closed, t->manifold, t->oriented);
      CHECK_MSG(t->boundary_edges == (uint32_t)x->boundary, "%s", x->file);
      CHECK_MSG(t->nonmanifold_edges == (uint32_t)x->nm_edges, "%s", x->file);
      CHECK_MSG(t->nonmanifold_vertices == (uint32_t)x->nm_vertices, "%s", x->file);
      CHECK_MSG(t->zero_area_triangles == (uint32_t)x->zero_area, "%s", x->file);
      CHECK_MSG(t->components == (uint32_t)x->components, "%s", x->file);
      CHECK_MSG(t->closed == closed, "%s", x->file);
      CHECK_MSG(t->oriented, "%s", x->file);
      if (x->has_euler) CHECK_MSG(t->euler == x->euler, "%s", x->file);
      prox_mesh_topology_free(t);
    }
    obj_free(&om);
  }
}

int main(int argc, char **argv) {
  int rc;
  h_init(argc, argv);
  mesh_dir = mesh_dir_find(__FILE__);
  H_RUN(test_topology_cube);
  H_RUN(test_topology_square_bowtie_fin);
  H_RUN(test_topology_degenerate);
  H_RUN(test_topology_errors);
  H_RUN(test_topology_alloc_failure);
  H_RUN(test_topology_real_meshes);
  rc = h_finish();
  if (mesh_missing) {
    printf("mesh_topology: the real meshes were not found (set "
           "PROX_MESH_DIR); their tests were skipped\n");
    if (rc == 0) return 77;
  }
  return rc;
}
