/* SPDX-License-Identifier: MIT */
/* The BVH builder of prox/bvh.h on meshes generated here (no files
 * needed), both precisions: validation and its messages; strided
 * vertices; a bumpy sphere with zero-area and repeated triangles against
 * brute force (mesh_check.inl) for leaf sizes 1 to 64, with the radius
 * query and at every SIMD level (prox_simd_set); one triangle, 1000
 * copies of one triangle, collinear vertices,
 * triangles with a repeated vertex; h_count(1e6) copies of one triangle
 * (bounded depth and bytes per triangle); triangles far beyond float
 * range and tiny ones mixed into a sphere; a double mesh's float boxes
 * rounded outward and tightly (against nextafterf); the tree identical, node for
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
#include "../src/mesh/mesh_internal.h" /* the batches' order (static library) */
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

/* The float boxes of a double mesh are its coordinates rounded outward,
 * and tightly: for one triangle the root's slot is [down(min), up(max)]
 * per axis, down(v) the largest float <= v and up(v) the smallest float
 * >= v, here from C's conversion and nextafterf (an oracle apart from the
 * builder's bit steps). Coordinates: exact floats, floats moved by a few
 * ulps of double either way, random magnitudes from 1e-300 to 1e300
 * (beyond the float range and below its subnormals), zeros of both
 * signs. */
static float mb_down(double v) {
  float f = (float)v;
  return (double)f <= v ? f : nextafterf(f, -INFINITY);
}
static float mb_up(double v) {
  float f = (float)v;
  return (double)f >= v ? f : nextafterf(f, INFINITY);
}

static double mb_coord(oracle_rng *g) {
  uint64_t u = oracle_rng_next(g);
  double sign = (u & 1) ? -1.0 : 1.0;
  switch ((u >> 1) % 6) {
  case 0: /* an exact float */
    return (double)(float)(sign * oracle_rng_log10(g, -30, 30));
  case 1: { /* a float and a few double ulps */
    double f = (double)(float)(sign * oracle_rng_log10(g, -40, 38));
    int k = (int)((u >> 8) % 9) - 4;
    while (k > 0)
      f = nextafter(f, INFINITY), --k;
    while (k < 0)
      f = nextafter(f, -INFINITY), ++k;
    return f;
  }
  case 2: /* any magnitude */
    return sign * oracle_rng_log10(g, -300, 300);
  case 3: /* near float's ends: its largest values and its subnormals */
    return sign * ((u >> 8) & 1 ? oracle_rng_log10(g, 37.5, 39.5) : oracle_rng_log10(g, -47, -36));
  case 4:
    return (u >> 8) & 1 ? -0.0 : 0.0;
  default:
    return sign * oracle_rng_range(g, 0, 1000);
  }
}

static void test_box_rounding(void) {
  oracle_rng g = oracle_rng_named(2026, "box rounding");
  long n = h_count(20000), i, bad = 0;
  for (i = 0; i < n; ++i) {
    double v[9];
    uint32_t t[3] = {0, 1, 2};
    prox_mesh m;
    prox_bvh *b = NULL;
    prox_bvh_view view;
    int k, c;
    for (k = 0; k < 9; ++k)
      v[k] = mb_coord(&g);
    m.vertices = v;
    m.vertex_count = 3;
    m.stride = 0;
    m.indices = t;
    m.triangle_count = 1;
    if (prox_bvh_build(&m, NULL, NULL, &b, NULL) != PROX_OK) {
      CHECK(0);
      break;
    }
    prox_bvh_get_view(b, &view);
    for (c = 0; c < 3; ++c) {
      double lo = v[c], hi = v[c];
      float got_lo, got_hi;
      for (k = 1; k < 3; ++k) {
        if (v[3 * k + c] < lo) lo = v[3 * k + c];
        if (v[3 * k + c] > hi) hi = v[3 * k + c];
      }
      got_lo = c == 0   ? view.nodes[0].lo_x[0]
               : c == 1 ? view.nodes[0].lo_y[0]
                        : view.nodes[0].lo_z[0];
      got_hi = c == 0   ? view.nodes[0].hi_x[0]
               : c == 1 ? view.nodes[0].hi_y[0]
                        : view.nodes[0].hi_z[0];
      if (!(got_lo == mb_down(lo) && got_hi == mb_up(hi)) && ++bad <= 5)
        CHECK_MSG(0, "axis %d: [%a, %a] stored as [%a, %a], want [%a, %a]", c, lo, hi,
                  (double)got_lo, (double)got_hi, (double)mb_down(lo), (double)mb_up(hi));
    }
    prox_bvh_free(b);
  }
  CHECK_INT_EQ(bad, 0);
}

/* The batches' coherent order (src/mesh/mesh_internal.h, internal: the
 * static library) against an oracle of its own: the points' cells (1024
 * per axis over the box of the finite points; NaN and below the first
 * cell, beyond the last), their Morton codes bit by bit, and qsort by
 * (code, index). The same order for 1, 2, 3, 7 and 16 threads, on 200,000
 * points (above PROX_MESH_DETAIL_ORDER_PAR: made in pieces) and 5,000. */
typedef struct mb_key {
  uint32_t code, idx;
} mb_key;

static int mb_key_cmp(const void *a, const void *b) {
  const mb_key *x = (const mb_key *)a, *y = (const mb_key *)b;
  if (x->code != y->code) return x->code < y->code ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void mb_order_oracle(const double *c, size_t n, uint32_t *order) {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, sc[3];
  mb_key *k = (mb_key *)malloc(n * sizeof *k);
  size_t i, a;
  int any = 0, b;
  if (!k) return;
  for (i = 0; i < n; ++i) {
    if (!(isfinite(c[3 * i]) && isfinite(c[3 * i + 1]) && isfinite(c[3 * i + 2]))) continue;
    for (a = 0; a < 3; ++a) {
      if (!any || c[3 * i + a] < lo[a]) lo[a] = c[3 * i + a];
      if (!any || c[3 * i + a] > hi[a]) hi[a] = c[3 * i + a];
    }
    any = 1;
  }
  for (a = 0; a < 3; ++a)
    sc[a] = hi[a] - lo[a] > 0 && isfinite(hi[a] - lo[a]) ? 1024.0 / (hi[a] - lo[a]) : 0;
  for (i = 0; i < n; ++i) {
    uint32_t cell[3], code = 0;
    for (a = 0; a < 3; ++a) {
      double q = (c[3 * i + a] - lo[a]) * sc[a];
      cell[a] = isnan(q) || q < 0 ? 0 : q > 1023 ? 1023 : (uint32_t)q;
    }
    for (b = 0; b < 10; ++b)
      for (a = 0; a < 3; ++a)
        code |= ((cell[a] >> b) & 1u) << (3 * (size_t)b + 2 - a);
    k[i].code = code;
    k[i].idx = (uint32_t)i;
  }
  qsort(k, n, sizeof *k, mb_key_cmp);
  for (i = 0; i < n; ++i)
    order[i] = k[i].idx;
  free(k);
}

static void test_batch_order(void) {
  static const size_t sizes[2] = {200000, 5000};
  static const int th[5] = {1, 2, 3, 7, 16};
  oracle_rng s = oracle_rng_make(0x0dde);
  int si, prec, t;
  for (si = 0; si < 2; ++si)
    for (prec = 0; prec < 2; ++prec) {
      size_t n = sizes[si], i, bad = 0;
      double *c = (double *)malloc(3 * n * sizeof *c);
      prox_vec3 *pd = (prox_vec3 *)malloc(n * sizeof *pd);
      prox_vec3f *pf = (prox_vec3f *)malloc(n * sizeof *pf);
      uint32_t *want = (uint32_t *)malloc(n * sizeof *want);
      if (CHECK(c && pd && pf && want)) {
        for (i = 0; i < 3 * n; ++i) {
          /* Clustered and spread values, a few not finite. */
          double u = oracle_rng_unit(&s);
          c[i] = i % 3 == 1 ? 100.0 + 1e-3 * u : -5.0 + 10.0 * u * u;
          if (i % 9973 == 5) c[i] = NAN;
          if (i % 7919 == 3) c[i] = (i & 1) ? INFINITY : -INFINITY;
          if (prec) c[i] = (double)(float)c[i];
        }
        for (i = 0; i < n; ++i) {
          pd[i] = prox_v3(c[3 * i], c[3 * i + 1], c[3 * i + 2]);
          pf[i] = prox_v3f((float)c[3 * i], (float)c[3 * i + 1], (float)c[3 * i + 2]);
        }
        mb_order_oracle(c, n, want);
        for (t = 0; t < 5; ++t) {
          const uint32_t *got = prec ? prox_mesh_detail_orderf(NULL, pf, n, th[t])
                                     : prox_mesh_detail_order(NULL, pd, n, th[t]);
          if (!CHECK_MSG(got != NULL, "order of %zu points: no memory", n)) continue;
          for (i = 0; i < n; ++i)
            bad += got[i] != want[i];
          prox_mesh_detail_order_free(NULL, got, n);
        }
      }
      CHECK_MSG(bad == 0, "%s order of %zu points: %zu entries differ from the oracle's",
                prec ? "float" : "double", n, bad);
      free(c);
      free(pd);
      free(pf);
      free(want);
    }
}

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
  H_RUN(test_box_rounding);
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
  H_RUN(test_batch_order);
  return h_finish();
}
