/* SPDX-License-Identifier: MIT */
/* Benchmark of the point-to-primitive kernels (K1) and their batch forms,
 * side by side in one process with the textbook baseline (bench/textbook.h,
 * Ericson's routines).
 *
 *   bench_point [--quick] [--seed N] [--runs N] [--only WORD]
 *
 * Scalar table: ns per query for point-triangle, -segment, -AABB, -OBB and
 * -tetrahedron, double and float, on (a) 10 million random inputs streamed
 * from memory ("stream") and (b) 32k inputs reused from cache ("cache").
 * Three loops per row:
 *   textbook  closest point by Ericson's routine, squared distance from it;
 *   prox      the prox kernel with out = NULL (squared distance only);
 *   prox+out  the prox kernel filling its result (point, parameters,
 *             feature), the checksum reading the point too;
 * ratio = prox / textbook (the target is at most 1.2).
 *
 * Batch table, one row per form and instruction set (every level
 * prox_simd_set() accepts here): one point against the triangles of a leaf
 * (8 or 64, the leaf loop of a BVH) with prox_point_triangles (AoS) and
 * prox_point_triangles_soa (SoA); many points against one triangle
 * (prox_points_triangle) and one box (prox_points_aabb), with and without
 * the full results. Each row also gives the user's own loop over the inline
 * prox kernel, the textbook routine in a scalar loop on the same data, the
 * ratio and the speed-up over that loop (the target for point-triangle
 * batches is at least 4x), and whether the form's results equal the scalar
 * kernel's (checksums of an untimed run).
 *
 * Every figure is the median of --runs runs (default 5, also with --quick)
 * timed with clock_gettime(CLOCK_MONOTONIC); the loops of a row run
 * interleaved, run by run, in an order rotated from run to run. Each loop
 * sums its results into a checksum that is printed, so that nothing is
 * optimised away. --quick shrinks the sizes for a smoke run (200k streamed,
 * 4k cached inputs); --only runs the rows whose name contains WORD (names
 * such as "point-triangle float stream", "leaf8 double cache",
 * "many float stream").
 *
 * The per-precision code is written once: the file includes itself twice
 * with BENCH_TEMPLATE defined (double, then float). */
#ifndef BENCH_TEMPLATE

#define _POSIX_C_SOURCE 199309L

#include <prox/batch.h>
#include <prox/closest.h>

#include "textbook.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------ utilities -------------------------------- */

static uint64_t g_rng;
static int g_runs = 5, g_quick;
static const char *g_only;
static size_t g_stream_n = 10000000, g_cache_n = 32768;
/* Queries per timed run on cached data: the 32k set is swept this often. */
static size_t g_cache_sweeps = 64;
static volatile double g_sink;

static uint64_t rng_next(void) {
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static double rng_uni(double lo, double hi) {
  return lo + (hi - lo) * ((double)(rng_next() >> 11) / 9007199254740992.0);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "bench_point: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static int wanted(const char *name) {
  return !g_only || strstr(name, g_only) != NULL;
}

/* A timed loop: returns a checksum of what it computed. */
typedef double (*loop_fn)(const void *pts, const void *prims, size_t n);

#define MAX_VARIANTS 10

/* Set while the loops run once untimed: the many-points loops then sum
 * every output into their checksum, not just a sample. */
static int g_full_check;

/* Runs each loop g_runs times over (pts, prims, n), `sweeps` sweeps per
 * run, interleaved, and stores the median ns per query in ns[]. levels, if
 * not NULL, gives the instruction set each loop runs at; sums, if not
 * NULL, gets each loop's checksum from an untimed first run (equal
 * checksums: equal results). */
static void time_loops_at(const loop_fn *loops, const int *levels, int nloops, const void *pts,
                          const void *prims, size_t n, size_t sweeps, double *ns, double *sums) {
  double t[MAX_VARIANTS][64];
  int r, v, runs = g_runs < 64 ? g_runs : 64;
  size_t s;
  g_full_check = 1;
  for (v = 0; v < nloops; ++v) { /* warm up, and the checksums */
    double sum;
    if (levels) prox_simd_set(levels[v]);
    sum = loops[v](pts, prims, n);
    if (sums) sums[v] = sum;
    g_sink += sum;
  }
  g_full_check = 0;
  for (r = 0; r < runs; ++r) {
    for (v = 0; v < nloops; ++v) {
      int k = (v + r) % nloops; /* rotate the order from run to run */
      double sum = 0, t0;
      if (levels) prox_simd_set(levels[k]);
      t0 = now_ns();
      for (s = 0; s < sweeps; ++s)
        sum += loops[k](pts, prims, n);
      t[k][r] = (now_ns() - t0) / (double)(n * sweeps);
      g_sink += sum;
    }
  }
  for (v = 0; v < nloops; ++v)
    ns[v] = median(t[v], runs);
}

static void time_loops(const loop_fn *loops, int nloops, const void *pts, const void *prims,
                       size_t n, size_t sweeps, double *ns) {
  time_loops_at(loops, NULL, nloops, pts, prims, n, sweeps, ns, NULL);
}

/* The loops of one scalar row. The query expression of each is a macro
 * argument; two accumulators keep the checksum's additions off the
 * critical path. n is even. */
#define SCALAR_LOOP(name, PRIM, BODY)                                                              \
  static double name(const void *vp, const void *vg, size_t n) {                                   \
    const VEC *p = (const VEC *)vp;                                                                \
    const PRIM *g = (const PRIM *)vg;                                                              \
    double s0 = 0, s1 = 0;                                                                         \
    size_t i;                                                                                      \
    for (i = 0; i < n; i += 2) {                                                                   \
      s0 += BODY(p[i], g + i);                                                                     \
      s1 += BODY(p[i + 1], g + i + 1);                                                             \
    }                                                                                              \
    return s0 + s1;                                                                                \
  }

#define BENCH_TEMPLATE
#include <prox/detail/real_double.h>
#include "bench_point.c"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "bench_point.c"
#include <prox/detail/real_end.h>
#undef BENCH_TEMPLATE

static void print_scalar_header(void) {
  printf("| kernel | precision | data | textbook ns | prox ns | ratio "
         "| prox+out ns | ratio +out |\n");
  printf("|---|---|---|---:|---:|---:|---:|---:|\n");
}

static void print_batch_header(void) {
  printf("| kernel | precision | data | form | simd | textbook ns | prox ns "
         "| ratio | speed-up | = scalar |\n");
  printf("|---|---|---|---|---|---:|---:|---:|---:|---|\n");
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int i, level, initial;
  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      g_quick = 1;
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      g_runs = atoi(argv[++i]);
      if (g_runs < 1) g_runs = 1;
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      g_only = argv[++i];
    } else {
      fprintf(stderr, "usage: %s [--quick] [--seed N] [--runs N] [--only WORD]\n", argv[0]);
      return 2;
    }
  }
  if (g_quick) {
    g_stream_n = 200000;
    g_cache_n = 4096;
    g_cache_sweeps = 8;
  }
  initial = prox_simd_level();
  printf("# bench_point: seed %llu, %d runs (median), stream n = %zu, "
         "cache n = %zu x %zu sweeps; SIMD levels:",
         (unsigned long long)seed, g_runs, g_stream_n, g_cache_n, g_cache_sweeps);
  for (level = PROX_SIMD_SCALAR; level <= PROX_SIMD_AVX512; ++level)
    if (prox_simd_set(level)) printf(" %s", prox_simd_name(level));
  prox_simd_set(initial);
  printf(" (default %s)\n\n", prox_simd_name(initial));

  printf("## Point to primitive, scalar: ns per query\n\n");
  printf("textbook: Ericson's routine and the squared distance from its "
         "point; prox: the prox kernel, squared distance only (out = NULL); "
         "prox+out: filling the full result; ratio = prox / textbook.\n\n");
  print_scalar_header();
  g_rng = seed;
  scalar_rows(g_stream_n, 1, "stream");
  scalar_rowsf(g_stream_n, 1, "stream");
  g_rng = seed + 1;
  scalar_rows(g_cache_n, g_cache_sweeps, "cache");
  scalar_rowsf(g_cache_n, g_cache_sweeps, "cache");

  printf("\n## Batch: ns per point-primitive pair\n\n");
  printf("textbook: the textbook routine in a scalar loop; prox: the form "
         "named, at the instruction set named; ratio = prox / textbook, "
         "speed-up = textbook / prox; = scalar: the form's results (squared "
         "distances, best indices) summed equal those of the loop over the "
         "scalar prox kernel.\n\n");
  print_batch_header();
  g_rng = seed + 2;
  batch_rows();
  batch_rowsf();
  prox_simd_set(initial);
  printf("\n# checksum %.17g\n", (double)g_sink);
  return 0;
}

#else /* BENCH_TEMPLATE: the benchmarks of one precision */

#define VEC PROX_FN(prox_vec3)
#define PREC (PROX_IS_DOUBLE ? "double" : "float")

static VEC PROX_FN(rvec)(double lo, double hi) {
  return PROX_FN(prox_v3)((PROX_REAL)rng_uni(lo, hi), (PROX_REAL)rng_uni(lo, hi),
                          (PROX_REAL)rng_uni(lo, hi));
}

static PROX_REAL PROX_FN(dist2)(VEC a, VEC b) {
  VEC d = PROX_FN(tb_sub)(a, b);
  return PROX_FN(tb_dot)(d, d);
}

/* ----------------------------- scalar rows ------------------------------- */

/* Random primitives: vertices uniform in [-1, 1]^3; boxes from two such
 * corners (sorted, as the textbook routine needs); oriented boxes with a
 * random rotation, center in [-0.5, 0.5]^3 and half extents in
 * [0.05, 0.75]. Query points uniform in [-1, 1]^3. */
static void PROX_FN(gen)(const char *kind, void *prims, size_t n) {
  size_t i;
  int k;
  for (i = 0; i < n; ++i) {
    if (strcmp(kind, "triangle") == 0) {
      PROX_FN(prox_triangle) *t = (PROX_FN(prox_triangle) *)prims + i;
      for (k = 0; k < 3; ++k)
        t->v[k] = PROX_FN(rvec)(-1, 1);
    } else if (strcmp(kind, "segment") == 0) {
      PROX_FN(prox_segment) *s = (PROX_FN(prox_segment) *)prims + i;
      s->a = PROX_FN(rvec)(-1, 1);
      s->b = PROX_FN(rvec)(-1, 1);
    } else if (strcmp(kind, "aabb") == 0) {
      PROX_FN(prox_aabb) *b = (PROX_FN(prox_aabb) *)prims + i;
      VEC u = PROX_FN(rvec)(-1, 1), v = PROX_FN(rvec)(-1, 1);
      b->min = PROX_FN(prox_vmin)(u, v);
      b->max = PROX_FN(prox_vmax)(u, v);
    } else if (strcmp(kind, "obb") == 0) {
      PROX_FN(prox_obb) *b = (PROX_FN(prox_obb) *)prims + i;
      double q[4], len = 0, w, x, y, z;
      for (k = 0; k < 4; ++k) {
        q[k] = rng_uni(-1, 1);
        len += q[k] * q[k];
      }
      len = sqrt(len);
      w = q[0] / len;
      x = q[1] / len;
      y = q[2] / len;
      z = q[3] / len;
      b->center = PROX_FN(rvec)(-0.5, 0.5);
      b->axis[0] =
          PROX_FN(prox_v3)((PROX_REAL)(1 - 2 * (y * y + z * z)), (PROX_REAL)(2 * (x * y + w * z)),
                           (PROX_REAL)(2 * (x * z - w * y)));
      b->axis[1] =
          PROX_FN(prox_v3)((PROX_REAL)(2 * (x * y - w * z)), (PROX_REAL)(1 - 2 * (x * x + z * z)),
                           (PROX_REAL)(2 * (y * z + w * x)));
      b->axis[2] =
          PROX_FN(prox_v3)((PROX_REAL)(2 * (x * z + w * y)), (PROX_REAL)(2 * (y * z - w * x)),
                           (PROX_REAL)(1 - 2 * (x * x + y * y)));
      for (k = 0; k < 3; ++k)
        b->half[k] = (PROX_REAL)rng_uni(0.05, 0.75);
    } else {
      PROX_FN(prox_tetrahedron) *t = (PROX_FN(prox_tetrahedron) *)prims + i;
      for (k = 0; k < 4; ++k)
        t->v[k] = PROX_FN(rvec)(-1, 1);
    }
  }
}

/* Query bodies: each evaluates to the value added to the checksum. */
#define TB_TRI(p, g)                                                                               \
  PROX_FN(dist2)                                                                                   \
  (p, PROX_FN(textbook_point_triangle)(p, (g)->v[0], (g)->v[1], (g)->v[2]))
#define TB_SEG(p, g) PROX_FN(dist2)(p, PROX_FN(textbook_point_segment)(p, (g)->a, (g)->b))
#define TB_AABB(p, g) PROX_FN(dist2)(p, PROX_FN(textbook_point_aabb)(p, g))
#define TB_OBB(p, g) PROX_FN(dist2)(p, PROX_FN(textbook_point_obb)(p, g))
#define TB_TET(p, g)                                                                               \
  PROX_FN(dist2)                                                                                   \
  (p, PROX_FN(textbook_point_tetrahedron)(p, (g)->v[0], (g)->v[1], (g)->v[2], (g)->v[3]))
#define PX_TRI(p, g) PROX_FN(prox_point_triangle)(p, g, NULL)
#define PX_SEG(p, g) PROX_FN(prox_point_segment)(p, g, NULL)
#define PX_AABB(p, g) PROX_FN(prox_point_aabb)(p, g, NULL)
#define PX_OBB(p, g) PROX_FN(prox_point_obb)(p, g, NULL)
#define PX_TET(p, g) PROX_FN(prox_point_tetrahedron)(p, g, NULL)

/* With the full result: distance plus the point's coordinates. */
static double PROX_FN(full)(const PROX_FN(prox_closest) * r) {
  return (double)r->sqdist + (double)r->point.x + (double)r->point.y + (double)r->point.z;
}
#define PXO(fn, p, g) (PROX_FN(fn)(p, g, &r), PROX_FN(full)(&r))

#define SCALAR_LOOPS(tag, PRIM, TB, PX, fn)                                                        \
  SCALAR_LOOP(PROX_FN(tb_##tag), PRIM, TB)                                                         \
  SCALAR_LOOP(PROX_FN(px_##tag), PRIM, PX)                                                         \
  static double PROX_FN(pxo_##tag)(const void *vp, const void *vg, size_t n) {                     \
    const VEC *p = (const VEC *)vp;                                                                \
    const PRIM *g = (const PRIM *)vg;                                                              \
    PROX_FN(prox_closest) r;                                                                       \
    double s0 = 0, s1 = 0;                                                                         \
    size_t i;                                                                                      \
    for (i = 0; i < n; i += 2) {                                                                   \
      s0 += PXO(fn, p[i], g + i);                                                                  \
      s1 += PXO(fn, p[i + 1], g + i + 1);                                                          \
    }                                                                                              \
    return s0 + s1;                                                                                \
  }

SCALAR_LOOPS(tri, PROX_FN(prox_triangle), TB_TRI, PX_TRI, prox_point_triangle)
SCALAR_LOOPS(seg, PROX_FN(prox_segment), TB_SEG, PX_SEG, prox_point_segment)
SCALAR_LOOPS(aabb, PROX_FN(prox_aabb), TB_AABB, PX_AABB, prox_point_aabb)
SCALAR_LOOPS(obb, PROX_FN(prox_obb), TB_OBB, PX_OBB, prox_point_obb)
SCALAR_LOOPS(tet, PROX_FN(prox_tetrahedron), TB_TET, PX_TET, prox_point_tetrahedron)

/* One row per kernel on n random inputs, swept `sweeps` times per run. */
static void PROX_FN(scalar_rows)(size_t n, size_t sweeps, const char *data) {
  static const struct {
    const char *name;
    size_t size;
    loop_fn loops[3];
  } rows[] = {
      {"triangle",
       sizeof(PROX_FN(prox_triangle)),
       {PROX_FN(tb_tri), PROX_FN(px_tri), PROX_FN(pxo_tri)}},
      {"segment",
       sizeof(PROX_FN(prox_segment)),
       {PROX_FN(tb_seg), PROX_FN(px_seg), PROX_FN(pxo_seg)}},
      {"aabb", sizeof(PROX_FN(prox_aabb)), {PROX_FN(tb_aabb), PROX_FN(px_aabb), PROX_FN(pxo_aabb)}},
      {"obb", sizeof(PROX_FN(prox_obb)), {PROX_FN(tb_obb), PROX_FN(px_obb), PROX_FN(pxo_obb)}},
      {"tetrahedron",
       sizeof(PROX_FN(prox_tetrahedron)),
       {PROX_FN(tb_tet), PROX_FN(px_tet), PROX_FN(pxo_tet)}},
  };
  size_t k, i;
  n &= ~(size_t)1;
  for (k = 0; k < sizeof rows / sizeof rows[0]; ++k) {
    char name[64];
    VEC *pts;
    void *prims;
    double ns[3];
    snprintf(name, sizeof name, "point-%s %s %s", rows[k].name, PREC, data);
    if (!wanted(name)) continue;
    pts = (VEC *)xmalloc(n * sizeof *pts);
    prims = xmalloc(n * rows[k].size);
    for (i = 0; i < n; ++i)
      pts[i] = PROX_FN(rvec)(-1, 1);
    PROX_FN(gen)(rows[k].name, prims, n);
    time_loops(rows[k].loops, 3, pts, prims, n, sweeps, ns);
    printf("| point-%s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", rows[k].name, PREC, data,
           ns[0], ns[1], ns[1] / ns[0], ns[2], ns[2] / ns[0]);
    fflush(stdout);
    free(pts);
    free(prims);
  }
}

/* ------------------------------ batch rows ------------------------------- */

/* Leaf data: n triangles in leaves of `leaf` each, one query point per
 * leaf. Triangles are small (edges about 0.1) and clustered around the
 * leaf's center, the point within 0.2 of it, as in the leaves a BVH visits
 * near the surface. Also the structure-of-arrays copy. */
typedef struct PROX_FN(leaf_set) {
  const PROX_FN(prox_triangle) * tris;
  PROX_FN(prox_triangle_soa) soa;
  const VEC *pts;
  size_t leaf;
} PROX_FN(leaf_set);

static double PROX_FN(leaf_tb)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(leaf_set) *L = (const PROX_FN(leaf_set) *)vg;
  double sum = 0;
  size_t i, j;
  (void)vp;
  for (i = 0; i < n; i += L->leaf) {
    VEC p = L->pts[i / L->leaf];
    PROX_REAL best = PROX_INF;
    size_t bi = 0;
    for (j = i; j < i + L->leaf; ++j) {
      const PROX_FN(prox_triangle) *t = &L->tris[j];
      PROX_REAL d2 =
          PROX_FN(dist2)(p, PROX_FN(textbook_point_triangle)(p, t->v[0], t->v[1], t->v[2]));
      if (d2 < best) {
        best = d2;
        bi = j - i; /* within the leaf, as the batch forms report */
      }
    }
    sum += (double)best + (double)bi;
  }
  return sum;
}

/* The user's own loop over the inline scalar kernel. */
static double PROX_FN(leaf_px)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(leaf_set) *L = (const PROX_FN(leaf_set) *)vg;
  double sum = 0;
  size_t i, j;
  (void)vp;
  for (i = 0; i < n; i += L->leaf) {
    VEC p = L->pts[i / L->leaf];
    PROX_REAL best = PROX_INF;
    size_t bi = 0;
    for (j = i; j < i + L->leaf; ++j) {
      PROX_REAL d2 = PROX_FN(prox_point_triangle)(p, &L->tris[j], NULL);
      if (d2 < best) {
        best = d2;
        bi = j - i; /* within the leaf, as the batch forms report */
      }
    }
    sum += (double)best + (double)bi;
  }
  return sum;
}

/* prox_point_triangles at the level set before the call. */
static double PROX_FN(leaf_batch)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(leaf_set) *L = (const PROX_FN(leaf_set) *)vg;
  double sum = 0;
  size_t i, bi;
  (void)vp;
  for (i = 0; i < n; i += L->leaf) {
    PROX_REAL d =
        PROX_FN(prox_point_triangles)(L->pts[i / L->leaf], L->tris + i, L->leaf, &bi, NULL);
    sum += (double)d + (double)bi;
  }
  return sum;
}

static double PROX_FN(leaf_batch_soa)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(leaf_set) *L = (const PROX_FN(leaf_set) *)vg;
  double sum = 0;
  size_t i, bi;
  int k;
  (void)vp;
  for (i = 0; i < n; i += L->leaf) {
    PROX_FN(prox_triangle_soa) s;
    PROX_REAL d;
    for (k = 0; k < 3; ++k) {
      s.x[k] = L->soa.x[k] + i;
      s.y[k] = L->soa.y[k] + i;
      s.z[k] = L->soa.z[k] + i;
    }
    d = PROX_FN(prox_point_triangles_soa)(L->pts[i / L->leaf], &s, L->leaf, &bi, NULL);
    sum += (double)d + (double)bi;
  }
  return sum;
}

/* Many points against one primitive: sqdist into an output array. */
typedef struct PROX_FN(many_set) {
  PROX_FN(prox_triangle) tri;
  PROX_FN(prox_aabb) box;
  PROX_REAL *sq;
  PROX_FN(prox_closest) * out;
} PROX_FN(many_set);

static double PROX_FN(checksum_sq)(const PROX_REAL *sq, size_t n) {
  /* Timed runs read a sample only (the loops are timed, not this sum); the
   * untimed check run sums every output. */
  double sum = 0;
  size_t i;
  if (!g_full_check) return (double)sq[0] + (double)sq[n / 2] + (double)sq[n - 1];
  for (i = 0; i < n; ++i)
    sum += (double)sq[i];
  return sum;
}
static double PROX_FN(many_tri_tb)(const void *vp, const void *vg, size_t n) {
  const VEC *p = (const VEC *)vp;
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  size_t i;
  for (i = 0; i < n; ++i)
    M->sq[i] = PROX_FN(dist2)(
        p[i], PROX_FN(textbook_point_triangle)(p[i], M->tri.v[0], M->tri.v[1], M->tri.v[2]));
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_tri_px)(const void *vp, const void *vg, size_t n) {
  const VEC *p = (const VEC *)vp;
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  size_t i;
  for (i = 0; i < n; ++i)
    M->sq[i] = PROX_FN(prox_point_triangle)(p[i], &M->tri, NULL);
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_tri_batch)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  PROX_FN(prox_points_triangle)((const VEC *)vp, n, &M->tri, M->sq, NULL);
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_tri_batch_out)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  PROX_FN(prox_points_triangle)((const VEC *)vp, n, &M->tri, M->sq, M->out);
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_box_tb)(const void *vp, const void *vg, size_t n) {
  const VEC *p = (const VEC *)vp;
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  size_t i;
  for (i = 0; i < n; ++i)
    M->sq[i] = PROX_FN(dist2)(p[i], PROX_FN(textbook_point_aabb)(p[i], &M->box));
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_box_px)(const void *vp, const void *vg, size_t n) {
  const VEC *p = (const VEC *)vp;
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  size_t i;
  for (i = 0; i < n; ++i)
    M->sq[i] = PROX_FN(prox_point_aabb)(p[i], &M->box, NULL);
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_box_batch)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  PROX_FN(prox_points_aabb)((const VEC *)vp, n, &M->box, M->sq, NULL);
  return PROX_FN(checksum_sq)(M->sq, n);
}

static double PROX_FN(many_box_batch_out)(const void *vp, const void *vg, size_t n) {
  const PROX_FN(many_set) *M = (const PROX_FN(many_set) *)vg;
  PROX_FN(prox_points_aabb)((const VEC *)vp, n, &M->box, M->sq, M->out);
  return PROX_FN(checksum_sq)(M->sq, n);
}

/* The instruction sets to compare, and the loops timed at each: the batch
 * loops are run once per level (set before timing). */
static int PROX_FN(levels)(int *lv) {
  int n = 0, l;
  for (l = PROX_SIMD_SCALAR; l <= PROX_SIMD_AVX512; ++l)
    if (prox_simd_set(l)) lv[n++] = l;
  return n;
}

/* Times, interleaved, the textbook loop, the user's loop over the inline
 * prox kernel, and each batch form at each level; prints one row per form
 * and level. Checksums are compared against the user's loop (the
 * checksums of the "+out" forms leave the full results out). */
static void PROX_FN(batch_row)(const char *what, const char *data, loop_fn tb, loop_fn px,
                               const loop_fn *batch, const char *const *forms, int nbatch,
                               const void *pts, const void *set, size_t n, size_t sweeps) {
  loop_fn loops[MAX_VARIANTS];
  double ns[MAX_VARIANTS], sums[MAX_VARIANTS];
  int lv[3], nl = PROX_FN(levels)(lv), l, b, at[MAX_VARIANTS], k = 2, v;
  loops[0] = tb;
  loops[1] = px;
  at[0] = at[1] = lv[nl - 1];
  for (b = 0; b < nbatch; ++b) {
    for (l = 0; l < nl && k < MAX_VARIANTS; ++l) {
      loops[k] = batch[b];
      at[k++] = lv[l];
    }
  }
  time_loops_at(loops, at, k, pts, set, n, sweeps, ns, sums);
  for (v = 1; v < k; ++v) {
    const char *form = v == 1 ? "loop over prox kernel" : forms[(v - 2) / nl];
    const char *simd = v == 1 ? "-" : prox_simd_name(at[v]);
    printf("| %s | %s | %s | %s | %s | %.2f | %.2f | %.2f | %.1fx | %s |\n", what, PREC, data, form,
           simd, ns[0], ns[v], ns[v] / ns[0], ns[0] / ns[v], sums[v] == sums[1] ? "yes" : "NO");
  }
  fflush(stdout);
}

static void PROX_FN(batch_rows)(void) {
  static const size_t leaves[] = {8, 64};
  static const char *const names_leaf[2] = {"batch AoS", "batch SoA"};
  static const char *const names_many[2] = {"batch", "batch +out"};
  loop_fn leaf_loops[2], tri_loops[2], box_loops[2];
  int d, k;
  leaf_loops[0] = PROX_FN(leaf_batch);
  leaf_loops[1] = PROX_FN(leaf_batch_soa);
  tri_loops[0] = PROX_FN(many_tri_batch);
  tri_loops[1] = PROX_FN(many_tri_batch_out);
  box_loops[0] = PROX_FN(many_box_batch);
  box_loops[1] = PROX_FN(many_box_batch_out);
  for (d = 0; d < 2; ++d) {
    size_t n = d == 0 ? g_stream_n : g_cache_n;
    size_t sweeps = d == 0 ? 1 : g_cache_sweeps;
    const char *data = d == 0 ? "stream" : "cache";
    size_t i, z;
    for (z = 0; z < 2; ++z) {
      size_t leaf = leaves[z], nl = n / leaf, m = nl * leaf;
      PROX_FN(prox_triangle) * tris;
      PROX_REAL *soa;
      VEC *pts;
      PROX_FN(leaf_set) L;
      char name[96];
      snprintf(name, sizeof name, "leaf%zu %s %s", leaf, PREC, data);
      if (!wanted(name)) continue;
      tris = (PROX_FN(prox_triangle) *)xmalloc(m * sizeof *tris);
      soa = (PROX_REAL *)xmalloc(9 * m * sizeof *soa);
      pts = (VEC *)xmalloc(nl * sizeof *pts);
      for (i = 0; i < nl; ++i) {
        VEC c = PROX_FN(rvec)(-1, 1);
        size_t j;
        pts[i] = PROX_FN(tb_add)(c, PROX_FN(rvec)(-0.2, 0.2));
        for (j = 0; j < leaf; ++j)
          for (k = 0; k < 3; ++k)
            tris[i * leaf + j].v[k] = PROX_FN(tb_add)(c, PROX_FN(rvec)(-0.1, 0.1));
      }
      for (k = 0; k < 3; ++k) {
        PROX_REAL *x = soa + (size_t)(3 * k) * m, *y = x + m, *z3 = y + m;
        for (i = 0; i < m; ++i) {
          x[i] = tris[i].v[k].x;
          y[i] = tris[i].v[k].y;
          z3[i] = tris[i].v[k].z;
        }
        L.soa.x[k] = x;
        L.soa.y[k] = y;
        L.soa.z[k] = z3;
      }
      L.tris = tris;
      L.pts = pts;
      L.leaf = leaf;
      snprintf(name, sizeof name, "point-triangles (leaf of %zu)", leaf);
      PROX_FN(batch_row)
      (name, data, PROX_FN(leaf_tb), PROX_FN(leaf_px), leaf_loops, names_leaf, 2, NULL, &L, m,
       sweeps);
      free(tris);
      free(soa);
      free(pts);
    }
  }
  for (d = 0; d < 2; ++d) {
    size_t n = d == 0 ? g_stream_n : g_cache_n;
    size_t sweeps = d == 0 ? 1 : g_cache_sweeps;
    const char *data = d == 0 ? "stream" : "cache";
    PROX_FN(many_set) M;
    VEC *pts;
    char name[96];
    size_t i;
    snprintf(name, sizeof name, "many %s %s", PREC, data);
    if (!wanted(name)) continue;
    pts = (VEC *)xmalloc(n * sizeof *pts);
    M.sq = (PROX_REAL *)xmalloc(n * sizeof *M.sq);
    M.out = (PROX_FN(prox_closest) *)xmalloc(n * sizeof *M.out);
    for (i = 0; i < n; ++i)
      pts[i] = PROX_FN(rvec)(-1, 1);
    for (k = 0; k < 3; ++k)
      M.tri.v[k] = PROX_FN(rvec)(-0.5, 0.5);
    M.box.min = PROX_FN(rvec)(-0.5, 0);
    M.box.max = PROX_FN(rvec)(0, 0.5);
    PROX_FN(batch_row)
    ("points-triangle (many points, 1 triangle)", data, PROX_FN(many_tri_tb), PROX_FN(many_tri_px),
     tri_loops, names_many, 2, pts, &M, n, sweeps);
    PROX_FN(batch_row)
    ("points-aabb (many points, 1 box)", data, PROX_FN(many_box_tb), PROX_FN(many_box_px),
     box_loops, names_many, 2, pts, &M, n, sweeps);
    free(pts);
    free(M.sq);
    free(M.out);
  }
}

#undef VEC
#undef PREC
#undef TB_TRI
#undef TB_SEG
#undef TB_AABB
#undef TB_OBB
#undef TB_TET
#undef PX_TRI
#undef PX_SEG
#undef PX_AABB
#undef PX_OBB
#undef PX_TET
#undef PXO
#undef SCALAR_LOOPS

#endif /* BENCH_TEMPLATE */
