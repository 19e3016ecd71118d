/* SPDX-License-Identifier: MIT */
/* The BVH builder of prox/bvh.h on meshes generated here (no files
 * needed), both precisions: validation and its messages; strided
 * vertices; a bumpy sphere with zero-area and repeated triangles against
 * brute force (mesh_check.inl) for leaf sizes 1 to 64, with the radius
 * query and at every SIMD level (prox_simd_set); one triangle, 1000
 * copies of one triangle, collinear vertices,
 * triangles with a repeated vertex; h_count(1e6) copies of one triangle
 * (bounded depth and bytes per triangle); triangles far beyond float
 * range and tiny ones mixed into a sphere; the tree identical, node for
 * node, for 1, 2 and 7 build threads; an allocator that fails at the k-th
 * call for every k (an error, nothing leaked), for 1 and 2 threads; refit
 * after the vertices move; non-finite query points and maximum distances;
 * 6 threads querying one tree at once, and batches in 1, 2 and 7 threads
 * and in ranges, against brute force.
 *
 * ThreadSanitizer (no CMake option: a separate build folder):
 *   cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
 *     -DCMAKE_C_FLAGS=-fsanitize=thread \
 *     -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
 *   cmake --build build-tsan --target test_mesh_build
 *   build-tsan/tests/test_mesh_build concurrent   (and "threads")
 * The tests are written to be race-free: the queries share only the
 * immutable tree; the builder's workers own disjoint ranges.
 */
#include <prox/batch.h>
#include <prox/bvh.h>

#include "harness.h"
#include "rng.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A generated mesh in double. */
typedef struct mb_gen {
  double *v;
  uint32_t *t;
  size_t nv, nt;
} mb_gen;

static void mb_gen_free(mb_gen *g) {
  free(g->v);
  free(g->t);
  memset(g, 0, sizeof *g);
}

/* A bumpy unit sphere of nu x nv quads (2 triangles each); with
 * `degenerate`, also zero-area triangles (a repeated vertex, three
 * collinear vertices) and duplicated triangles. */
static int mb_sphere(mb_gen *g, int nu, int nv, uint64_t seed, int degenerate) {
  size_t i, j, nvert = (size_t)nu * (size_t)(nv + 1);
  size_t ntri = 2 * (size_t)nu * (size_t)nv + (degenerate ? 64 : 0);
  oracle_rng s = oracle_rng_make(seed);
  memset(g, 0, sizeof *g);
  g->v = (double *)malloc(3 * nvert * sizeof *g->v);
  g->t = (uint32_t *)malloc(3 * ntri * sizeof *g->t);
  if (!g->v || !g->t) {
    mb_gen_free(g);
    return 0;
  }
  for (j = 0; j <= (size_t)nv; ++j)
    for (i = 0; i < (size_t)nu; ++i) {
      double th = 3.141592653589793 * (double)j / nv;
      double ph = 6.283185307179586 * (double)i / nu;
      double r = 1 + 0.05 * oracle_rng_range(&s, -1, 1);
      double *p = g->v + 3 * (j * (size_t)nu + i);
      p[0] = r * sin(th) * cos(ph);
      p[1] = r * sin(th) * sin(ph);
      p[2] = r * cos(th);
    }
  for (j = 0; j < (size_t)nv; ++j)
    for (i = 0; i < (size_t)nu; ++i) {
      uint32_t a = (uint32_t)(j * (size_t)nu + i);
      uint32_t b = (uint32_t)(j * (size_t)nu + (i + 1) % (size_t)nu);
      uint32_t c = a + (uint32_t)nu, d = b + (uint32_t)nu;
      uint32_t *t = g->t + 3 * g->nt;
      t[0] = a;
      t[1] = c;
      t[2] = b;
      t[3] = b;
      t[4] = c;
      t[5] = d;
      g->nt += 2;
    }
  if (degenerate)
    for (i = 0; i < 64; ++i) {
      uint32_t *t = g->t + 3 * g->nt, *o;
      size_t k = oracle_rng_next(&s) % (g->nt);
      o = g->t + 3 * k;
      if (i % 3 == 0) { /* repeated vertex */
        t[0] = o[0];
        t[1] = o[1];
        t[2] = o[0];
      } else if (i % 3 == 1) { /* duplicate, its vertices rotated */
        t[0] = o[1];
        t[1] = o[2];
        t[2] = o[0];
      } else { /* all three the same */
        t[0] = t[1] = t[2] = o[2];
      }
      ++g->nt;
    }
  g->nv = nvert;
  return 1;
}

/* An allocator that fails at call number fail_at (from 0) and counts
 * what is live. */
typedef struct mb_alloc {
  long calls, fail_at, live;
  size_t live_bytes;
} mb_alloc;

static void *mb_alloc_fn(void *user, size_t size, size_t alignment) {
  mb_alloc *a = (mb_alloc *)user;
  void *p;
  if (a->calls++ == a->fail_at) return NULL;
  p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (!p) return NULL;
  ++a->live;
  a->live_bytes += size;
  return p;
}

static void mb_free_fn(void *user, void *ptr, size_t size) {
  mb_alloc *a = (mb_alloc *)user;
  --a->live;
  a->live_bytes -= size;
  free(ptr);
}

#include <prox/detail/real_double.h>
#include "mesh_check.inl"
#include "mesh_build_cases.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "mesh_check.inl"
#include "mesh_build_cases.inl"
#include <prox/detail/real_end.h>

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_validate);
  H_RUN(test_validatef);
  H_RUN(test_stride);
  H_RUN(test_stridef);
  H_RUN(test_closest_generated);
  H_RUN(test_closest_generatedf);
  H_RUN(test_degenerate);
  H_RUN(test_degeneratef);
  H_RUN(test_wide_range);
  H_RUN(test_wide_rangef);
  H_RUN(test_million_copies);
  H_RUN(test_million_copiesf);
  H_RUN(test_threads_identical);
  H_RUN(test_threads_identicalf);
  H_RUN(test_alloc_failure);
  H_RUN(test_alloc_failuref);
  H_RUN(test_refit);
  H_RUN(test_refitf);
  H_RUN(test_query_edges);
  H_RUN(test_query_edgesf);
  H_RUN(test_concurrent);
  H_RUN(test_concurrentf);
  return h_finish();
}
