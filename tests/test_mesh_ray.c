/* SPDX-License-Identifier: MIT */
/* The ray queries of prox/bvh_ray.h against brute force, both precisions.
 *
 * Oracle: prox_raycast_triangle() on every triangle in index order (the
 * first strict minimum of t is the first hit; every hit, sorted by
 * (t, id), is the list of all hits), and the side of each crossing in
 * exact rationals (GMP). Per mesh and precision, four sets of rays (random
 * from a sphere around the mesh into its box, lines exactly through
 * vertices, lines through edge midpoints, rays starting on the surface)
 * are checked at every SIMD level the machine has: first hit (t bit for
 * bit, the lowest id on ties), any hit, the count and signed sum, all hits
 * in order (and the first ones with a buffer too small). On closed meshes
 * the rays from outside to +inf must cross an even number of times with a
 * signed sum of 0.
 *
 * Meshes made here: a flat-subdivided octahedron with dyadic vertices
 * (exact in float; coplanar triangles, so rays aimed at its vertices and
 * edges hit shared edges of coplanar faces exactly), whose inside is known
 * exactly: from inside every ray crosses once (count 1, signed sum +1).
 * Real meshes from PROX_MESH_DIR (skipped, exit 77, when absent). Batches:
 * the same bits for 1, 2 and 7 threads. */
#include <prox/batch.h>
#include <prox/bvh_ray.h>

#include "harness.h"
#include "meshload.h"
#include "rng.h"
#include "sphere_filter.h"

#include <gmp.h>
#include <stdlib.h>

static const char *rt_dir = NULL;
static int rt_missing = 0;

/* Statistics of one set of rays. */
typedef struct rt_stats {
  long rays, hits, crossings, parity_checked, ties;
} rt_stats;

#include <prox/detail/real_double.h>
#include "mesh_ray_check.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "mesh_ray_check.inl"
#include <prox/detail/real_end.h>

/* The octahedron |x| + |y| + |z| = r, each face split into k^2 triangles
 * (vertices i r / k: dyadic for r, k powers of two), wound outward. The
 * faces' vertices are not shared by index (positions are identical). */
static void rt_octahedron(double r, int k, double **v, size_t *nv, uint32_t **t, size_t *nt) {
  int f, i, j;
  size_t nvert = 0, ntri = 0;
  *v = (double *)malloc(8 * (size_t)((k + 1) * (k + 2) / 2) * 3 * sizeof **v);
  *t = (uint32_t *)malloc(8 * (size_t)(k * k) * 3 * sizeof **t);
  for (f = 0; f < 8; ++f) {
    double sx = (f & 1) ? -1 : 1, sy = (f & 2) ? -1 : 1, sz = (f & 4) ? -1 : 1;
    /* Outward winding: corners X, Y, Z in this order face outward when
     * sx sy sz > 0; swapped otherwise. */
    int flip = sx * sy * sz < 0;
    size_t base = nvert;
    for (i = 0; i <= k; ++i)
      for (j = 0; j <= k - i; ++j) {
        double a = (double)i / k, b = (double)j / k, c = 1 - a - b;
        (*v)[3 * nvert] = sx * r * a;
        (*v)[3 * nvert + 1] = sy * r * b;
        (*v)[3 * nvert + 2] = sz * r * c;
        ++nvert;
      }
#define RT_IDX(i_, j_)                                                                             \
  (uint32_t)(base + (size_t)((i_) * (k + 1) - (i_) * ((i_)-1) / 2) + (size_t)(j_))
    for (i = 0; i < k; ++i)
      for (j = 0; j < k - i; ++j) {
        uint32_t p = RT_IDX(i, j), q = RT_IDX(i + 1, j), s = RT_IDX(i, j + 1);
        uint32_t tri[2][3] = {{p, q, s}, {0, 0, 0}};
        int n = 1, m;
        if (j < k - i - 1) {
          uint32_t u = RT_IDX(i + 1, j + 1);
          tri[1][0] = q;
          tri[1][1] = u;
          tri[1][2] = s;
          n = 2;
        }
        for (m = 0; m < n; ++m) {
          (*t)[3 * ntri] = tri[m][0];
          (*t)[3 * ntri + 1] = flip ? tri[m][2] : tri[m][1];
          (*t)[3 * ntri + 2] = flip ? tri[m][1] : tri[m][2];
          ++ntri;
        }
      }
#undef RT_IDX
  }
  *nv = nvert;
  *nt = ntri;
}

/* From inside the octahedron: every ray crosses once, through faces,
 * shared edges and vertices alike (aimed exactly at vertices and at edge
 * midpoints of the mesh, and at random). Also the sets from outside. */
static void test_octahedron(void) {
  double *v;
  uint32_t *t;
  size_t nv, nt;
  long n = h_count(4000), i;
  oracle_rng s = oracle_rng_make(42);
  rt_mesh md;
  rt_meshf mf;
  rt_octahedron(1.0, 8, &v, &nv, &t, &nt);
  if (rt_make(&md, "octahedron", v, nv, t, nt, 1, 0) &&
      rt_makef(&mf, "octahedron", v, nv, t, nt, 1, 0)) {
    rt_bhit *bh = (rt_bhit *)malloc((nt + 1) * sizeof *bh);
    rt_bhitf *bhf = (rt_bhitf *)malloc((nt + 1) * sizeof *bhf);
    prox_mesh_hit *sc = (prox_mesh_hit *)malloc((nt + 1) * sizeof *sc);
    prox_mesh_hitf *scf = (prox_mesh_hitf *)malloc((nt + 1) * sizeof *scf);
    rt_stats st = {0, 0, 0, 0, 0}, stf = {0, 0, 0, 0, 0};
    for (i = 0; i < n; ++i) {
      /* An origin with |x| + |y| + |z| < 1 exactly (multiples of 2^-6). */
      double o[3], d[3];
      int k;
      do {
        for (k = 0; k < 3; ++k)
          o[k] = (double)((int64_t)(oracle_rng_next(&s) % 127) - 63) / 64.0;
      } while (!(fabs(o[0]) + fabs(o[1]) + fabs(o[2]) < 1));
      if (i % 3 == 2) {
        prox_vec3 u = rt_unit(&s);
        d[0] = u.x, d[1] = u.y, d[2] = u.z;
      } else {
        /* At a vertex (i % 3 == 0) or an edge midpoint of a random
         * triangle: exact dyadic differences. */
        size_t tri = (size_t)(oracle_rng_next(&s) % nt);
        int kv = (int)(oracle_rng_next(&s) % 3);
        const double *a = v + 3 * (size_t)t[3 * tri + (size_t)kv];
        const double *b = v + 3 * (size_t)t[3 * tri + (size_t)(kv + 1) % 3];
        for (k = 0; k < 3; ++k)
          d[k] = (i % 3 == 0 ? a[k] : (a[k] + b[k]) / 2) - o[k];
      }
      if (d[0] == 0 && d[1] == 0 && d[2] == 0) continue;
      {
        prox_ray r = prox_ray_make(prox_v3(o[0], o[1], o[2]), prox_v3(d[0], d[1], d[2]));
        prox_rayf rf = prox_ray_makef(prox_v3f((float)o[0], (float)o[1], (float)o[2]),
                                      prox_v3f((float)d[0], (float)d[1], (float)d[2]));
        rt_check_levels(&md, &r, 2, bh, sc, "inside", &st);
        rt_check_levelsf(&mf, &rf, 2, bhf, scf, "inside", &stf);
      }
    }
    printf("  octahedron inside: %ld + %ld rays (x levels), %ld + %ld "
           "crossings\n",
           st.rays, stf.rays, st.crossings, stf.crossings);
    free(bh);
    free(bhf);
    free(sc);
    free(scf);
    rt_sets(&md, h_count(3000), 7);
    rt_setsf(&mf, h_count(3000), 7);
    rt_batches(&md, h_count(3000), 11);
    rt_batchesf(&mf, h_count(3000), 11);
  }
  rt_free(&md);
  rt_freef(&mf);
  free(v);
  free(t);
}

/* Degenerate rays and meshes. */
static void test_degenerate(void) {
  double *v;
  uint32_t *t;
  size_t nv, nt;
  rt_mesh m;
  rt_octahedron(1.0, 2, &v, &nv, &t, &nt);
  if (rt_make(&m, "octahedron2", v, nv, t, nt, 1, 0)) {
    prox_mesh_hit h, buf[4];
    long w = 7;
    double nan = NAN, inf = INFINITY;
    prox_ray r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(0, 0, 0));
    /* Zero direction: nothing. */
    CHECK(prox_bvh_raycast(m.bvh, &r, &h) == 0 && h.hit == 0 && h.triangle == UINT32_MAX &&
          h.t != h.t);
    CHECK(prox_bvh_occluded(m.bvh, &r) == 0);
    CHECK(prox_bvh_ray_count(m.bvh, &r, &w) == 0 && w == 0);
    CHECK(prox_bvh_ray_all(m.bvh, &r, buf, 4) == 0);
    /* NaN and infinite coordinates, NaN interval: nothing. */
    r = prox_ray_make(prox_v3(nan, 0, 0), prox_v3(1, 0, 0));
    CHECK(prox_bvh_raycast(m.bvh, &r, &h) == 0 && h.hit == 0);
    r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(inf, 0, 0));
    CHECK(prox_bvh_raycast(m.bvh, &r, &h) == 0);
    CHECK(prox_bvh_occluded(m.bvh, &r) == 0);
    r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(1, 0, 0));
    r.tmin = nan;
    CHECK(prox_bvh_ray_count(m.bvh, &r, NULL) == 0);
    /* From the centre along +x: the vertex (1, 0, 0) of four faces (and
     * of 4 x 1 triangles there), crossed once, leaving. */
    r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(1, 0, 0));
    CHECK(prox_bvh_raycast(m.bvh, &r, &h) == 1 && h.t == 1 && h.sign == 1);
    CHECK(prox_bvh_ray_count(m.bvh, &r, &w) == 1 && w == 1);
    /* The same line from outside to outside: two crossings, signs -1, +1. */
    r = prox_ray_make(prox_v3(-2, 0, 0), prox_v3(1, 0, 0));
    CHECK(prox_bvh_ray_count(m.bvh, &r, &w) == 2 && w == 0);
    CHECK(prox_bvh_ray_all(m.bvh, &r, buf, 4) == 2 && buf[0].t == 1 && buf[0].sign == -1 &&
          buf[1].t == 3 && buf[1].sign == 1);
    /* tmax < tmin is the single parameter tmin. */
    r.tmin = 1;
    r.tmax = 0;
    CHECK(prox_bvh_ray_count(m.bvh, &r, NULL) == 1);
    /* A ray in the plane z = 0 through the vertices (+-1, 0, 0): it lies
     * in no face's plane; through vertices where the surface is crossed. */
    r = prox_ray_make(prox_v3(-2, 0, 0), prox_v3(1, 0, 0));
    CHECK(prox_bvh_occluded(m.bvh, &r) == 1);
    /* Parallel to a face plane, outside: misses. */
    r = prox_ray_make(prox_v3(2, 2, 2), prox_v3(1, -1, 0));
    CHECK(prox_bvh_occluded(m.bvh, &r) == 0);
    /* Invalid batch arguments. */
    CHECK(prox_bvh_raycast_batch(NULL, &r, 1, &h, 1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_bvh_raycast_batch(m.bvh, NULL, 1, &h, 1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_bvh_raycast_batch(m.bvh, NULL, 0, NULL, 1) == PROX_OK);
  }
  rt_free(&m);
  free(v);
  free(t);
  {
    /* One triangle; and 1000 copies of it (ties: the lowest id). */
    double tv[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t *ti = (uint32_t *)malloc(3 * 1000 * sizeof *ti);
    size_t i;
    rt_mesh one, many;
    prox_mesh_hit h;
    prox_ray r = prox_ray_make(prox_v3(0.25, 0.25, 1), prox_v3(0, 0, -1));
    for (i = 0; i < 3000; ++i)
      ti[i] = (uint32_t)(i % 3);
    if (rt_make(&one, "one", tv, 3, ti, 1, 0, 0)) {
      CHECK(prox_bvh_raycast(one.bvh, &r, &h) == 1 && h.t == 1 && h.triangle == 0 && h.sign == -1 &&
            h.normal.z == 1);
      CHECK(h.bary[0] == 0.5 && h.bary[1] == 0.25 && h.bary[2] == 0.25);
    }
    if (rt_make(&many, "many", tv, 3, ti, 1000, 0, 0)) {
      CHECK(prox_bvh_raycast(many.bvh, &r, &h) == 1 && h.triangle == 0);
      CHECK(prox_bvh_ray_count(many.bvh, &r, NULL) == 1000);
    }
    rt_free(&one);
    rt_free(&many);
    free(ti);
  }
}

/* Loads a real mesh; 0 (and rt_missing set) when it cannot be read. */
static int rt_load(const char *file, objmesh *om) {
  char path[4200], err[1024];
  memset(om, 0, sizeof *om);
  if (!rt_dir) {
    rt_missing = 1;
    return 0;
  }
  snprintf(path, sizeof path, "%s/%s", rt_dir, file);
  if (!mesh_load(path, om, err, sizeof err)) {
    printf("  %s: %s\n", file, err);
    rt_missing = 1;
    return 0;
  }
  if (mesh_over_limit(path, om->nt)) {
    obj_free(om);
    return 0;
  }
  return 1;
}

/* The four sets on a real mesh in both precisions, and the batches. */
static void rt_real(const char *file, int closed, uint64_t seed) {
  objmesh om;
  rt_mesh m;
  rt_meshf mf;
  long n;
  if (!rt_load(file, &om)) return;
  /* 10,000 rays per set (the brute force's sphere filter keeps the
   * largest mesh to seconds). */
  n = h_count(10000);
  if (rt_make(&m, file, om.v, om.nv, om.t, om.nt, closed, 0)) {
    rt_sets(&m, n, seed);
    rt_batches(&m, h_count(2000), seed + 1);
  }
  rt_free(&m);
  /* The float mesh is the double one rounded: closed meshes stay closed
   * (shared vertices stay shared) but may fold; parity is asserted on the
   * float copies too (a fold still gives even counts from outside). */
  if (rt_makef(&mf, file, om.v, om.nv, om.t, om.nt, closed, 0)) {
    rt_setsf(&mf, n, seed + 2);
    rt_batchesf(&mf, h_count(2000), seed + 3);
  }
  rt_freef(&mf);
  obj_free(&om);
}

static void test_bunny(void) {
  rt_real("bunny.obj", 0, 100);
}
static void test_bunny_watertight(void) {
  rt_real("bunny_watertight.obj", 1, 200);
}
static void test_armadillo(void) {
  rt_real("armadillo.obj", 1, 300);
}
static void test_dragon(void) {
  rt_real("dragon.obj", 1, 400);
}
static void test_spot(void) {
  rt_real("spot.obj", 1, 500);
}
static void test_teapot(void) {
  rt_real("teapot.obj", 0, 600);
}
/* Closed but with zero-area triangles and duplicated positions: the
 * parity still holds (a zero-area triangle is never hit, its neighbours
 * catch the ray). */
static void test_block(void) {
  rt_real("block.obj", 1, 700);
}
static void test_cycloidal(void) {
  rt_real("cycloidal.ply", 0, 800);
}
/* Closed, but the STL's facets share no vertex index: closed by
 * position, which is what the ray kernel sees. */
static void test_adis16480(void) {
  rt_real("adis16480.stl", 1, 900);
}

/* The side of a crossing (prox_mesh_hit.sign, the signed count) on
 * triangles and directions whose coordinates spread across the kernels'
 * domain (prox/raycast.h: nonzero magnitudes within 2^500 of one another,
 * here 2^-250 to 2^250), most of them nearly or exactly parallel, so that
 * the exact evaluation decides: against rationals. */
static void test_ray_side_extreme(void) {
  long n = h_count(20000), i, bad = 0, zero = 0;
  oracle_rng s = oracle_rng_make(0x51de);
  for (i = 0; i < n; ++i) {
    prox_triangle t;
    prox_vec3 d;
    double c[12];
    int k, want, got;
    for (k = 0; k < 12; ++k) {
      int e = oracle_rng_int(&s, 501) - 250;
      c[k] = oracle_rng_int(&s, 5) == 0 ? 0 : ldexp(oracle_rng_range(&s, -1, 1), e);
    }
    t.v[0] = prox_v3(c[0], c[1], c[2]);
    t.v[1] = prox_v3(c[3], c[4], c[5]);
    t.v[2] = prox_v3(c[6], c[7], c[8]);
    d = prox_v3(c[9], c[10], c[11]);
    switch (i % 4) {
    case 1: /* d along an edge, rounded */
      d = prox_vsub(t.v[1], t.v[0]);
      break;
    case 2: /* d exactly in the plane of a triangle through 0 */
      t.v[0] = prox_v3(0, 0, 0);
      d = t.v[1];
      break;
    case 3: /* d a rounded combination of the edges */
      d = prox_vadd(prox_vsub(t.v[1], t.v[0]), prox_vscale(prox_vsub(t.v[2], t.v[0]), c[9]));
      break;
    default:
      break;
    }
    if (!(isfinite(d.x) && isfinite(d.y) && isfinite(d.z))) continue;
    want = rt_side_gmp(&t, d);
    got = prox_bvh_detail_ray_side(&t, d);
    zero += want == 0;
    if (got != want && ++bad <= 5)
      CHECK_MSG(0,
                "side of (%.17g %.17g %.17g) (%.17g %.17g %.17g) (%.17g %.17g %.17g) "
                "along (%.17g %.17g %.17g): %d, exact %d",
                t.v[0].x, t.v[0].y, t.v[0].z, t.v[1].x, t.v[1].y, t.v[1].z, t.v[2].x, t.v[2].y,
                t.v[2].z, d.x, d.y, d.z, got, want);
  }
  h_note("%ld triangles and directions, %ld exactly parallel, %ld wrong sides", n, zero, bad);
  CHECK(bad == 0);
}

int main(int argc, char **argv) {
  const char *req;
  int rc;
  h_init(argc, argv);
  rt_dir = mesh_dir_find(__FILE__);
  H_RUN(test_degenerate);
  H_RUN(test_ray_side_extreme);
  H_RUN(test_octahedron);
  H_RUN(test_spot);
  H_RUN(test_teapot);
  H_RUN(test_block);
  H_RUN(test_adis16480);
  H_RUN(test_cycloidal);
  H_RUN(test_bunny);
  H_RUN(test_bunny_watertight);
  H_RUN(test_armadillo);
  H_RUN(test_dragon);
  rc = h_finish();
  if (rt_missing) {
    printf("mesh_ray: the real meshes were not found (set PROX_MESH_DIR); "
           "their tests were skipped\n");
    req = getenv("PROX_REQUIRE_MESHES");
    if (req && *req && strcmp(req, "0") != 0) return 1;
    if (rc == 0) return 77;
  }
  return rc;
}
