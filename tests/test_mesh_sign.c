/* SPDX-License-Identifier: MIT */
/* Tests of prox/sign.h. Oracles:
 * - a unit cube and two touching cubes, whose inside and distance are
 *   known in closed form;
 * - for real closed meshes, the parity of the crossings of an axis-aligned
 *   ray, decided with exact rationals (tests/parity_oracle.h): nothing of
 *   the library's predicates or tree is used;
 * - for open meshes, the generalized winding number summed over every
 *   triangle in long double. */
#include <prox/sign.h>

#include "../src/mesh/sign_check.h" /* the sub-cells' check (static library) */
#include "fail_alloc.h"
#include "harness.h"
#include "meshload.h"
#include "noisy_sphere.h"
#include "parity_oracle.h"
#include "rng.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- builders */

typedef struct built {
  prox_mesh mesh;
  prox_bvh *bvh;
  prox_sdf *sdf;
} built;

static int build(built *b, const double *v, size_t nv, const uint32_t *t, size_t nt, int method,
                 double accuracy) {
  prox_sdf_options o = prox_sdf_options_default();
  prox_error err;
  memset(b, 0, sizeof *b);
  b->mesh.vertices = v;
  b->mesh.vertex_count = nv;
  b->mesh.stride = 0;
  b->mesh.indices = t;
  b->mesh.triangle_count = nt;
  if (prox_bvh_build(&b->mesh, NULL, NULL, &b->bvh, &err) != PROX_OK) {
    h_note("bvh: %s", err.message);
    return 0;
  }
  o.method = method;
  o.accuracy = accuracy;
  if (prox_sdf_build(&b->mesh, b->bvh, NULL, &o, NULL, &b->sdf, &err) != PROX_OK) {
    h_note("sdf: %s", err.message);
    prox_bvh_free(b->bvh);
    return 0;
  }
  return 1;
}

static void unbuild(built *b) {
  prox_sdf_free(b->sdf);
  prox_bvh_free(b->bvh);
}

/* A cube [x0, x0 + 1] x [0, 1]^2 with outward triangles, 8 vertices from
 * v + 24 * which (so two cubes may share an array without sharing
 * indices). */
static void cube(double *v, uint32_t *t, double x0, uint32_t base) {
  static const double cv[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                              0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  static const uint32_t ct[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
  int i;
  for (i = 0; i < 24; ++i)
    v[i] = cv[i] + (i % 3 == 0 ? x0 : 0);
  for (i = 0; i < 36; ++i)
    t[i] = ct[i] + base;
}

/* *m: a float mesh over vf, the nv vertices v rounded to float, and the
 * nt triangles t. */
static void float_mesh(prox_meshf *m, float *vf, const double *v, size_t nv, const uint32_t *t,
                       size_t nt) {
  size_t i;
  for (i = 0; i < 3 * nv; ++i)
    vf[i] = (float)v[i];
  m->vertices = vf;
  m->vertex_count = nv;
  m->stride = 0;
  m->indices = t;
  m->triangle_count = nt;
}

/* Distance to the box [lo, hi] (signed: negative inside). */
static double box_sdist(const double p[3], const double lo[3], const double hi[3]) {
  double out2 = 0, in = INFINITY;
  int k, inside = 1;
  for (k = 0; k < 3; ++k) {
    double d = 0;
    if (p[k] < lo[k]) d = lo[k] - p[k], inside = 0;
    if (p[k] > hi[k]) d = p[k] - hi[k], inside = 0;
    out2 += d * d;
    if (p[k] - lo[k] < in) in = p[k] - lo[k];
    if (hi[k] - p[k] < in) in = hi[k] - p[k];
  }
  return inside ? -in : sqrt(out2);
}

/* Points near every corner, edge midpoint and face centre of [lo, hi],
 * offset along each of the 26 directions by each distance. */
static void cube_cases(const built *b, const double lo[3], const double hi[3], const char *what) {
  static const double dists[] = {0.3, 1e-3, 1e-6, 1e-9};
  long wrong = 0, uncertain = 0, n = 0, derr = 0;
  int ix, iy, iz, dx, dy, dz;
  size_t di;
  for (ix = 0; ix <= 2; ++ix)
    for (iy = 0; iy <= 2; ++iy)
      for (iz = 0; iz <= 2; ++iz)
        for (dx = -1; dx <= 1; ++dx)
          for (dy = -1; dy <= 1; ++dy)
            for (dz = -1; dz <= 1; ++dz)
              for (di = 0; di < sizeof dists / sizeof dists[0]; ++di) {
                double base[3], p[3], len, exact;
                prox_signed r;
                double got;
                if (!dx && !dy && !dz) continue;
                if (ix == 1 && iy == 1 && iz == 1) continue;
                base[0] = lo[0] + 0.5 * ix * (hi[0] - lo[0]);
                base[1] = lo[1] + 0.5 * iy * (hi[1] - lo[1]);
                base[2] = lo[2] + 0.5 * iz * (hi[2] - lo[2]);
                len = sqrt((double)(dx * dx + dy * dy + dz * dz));
                p[0] = base[0] + dists[di] * dx / len;
                p[1] = base[1] + dists[di] * dy / len;
                p[2] = base[2] + dists[di] * dz / len;
                exact = box_sdist(p, lo, hi);
                if (exact == 0) continue;
                got = prox_sdf_distance(b->sdf, prox_v3(p[0], p[1], p[2]), &r);
                ++n;
                if (!r.certain) {
                  ++uncertain;
                  continue;
                }
                if ((got < 0) != (exact < 0)) ++wrong;
                if (fabs(fabs(got) - fabs(exact)) > 1e-15 + 1e-12 * fabs(exact)) ++derr;
                CHECK_MSG((got < 0) == (exact < 0), "%s: p (%.17g %.17g %.17g): %.17g, exact %.17g",
                          what, p[0], p[1], p[2], got, exact);
              }
  h_note("%s: %ld points, %ld wrong signs, %ld uncertain, %ld distance errors", what, n, wrong,
         uncertain, derr);
  CHECK(derr == 0);
  CHECK(uncertain == 0);
}

static void test_sign_cube(void) {
  double v[24];
  uint32_t t[36];
  static const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  static const int methods[] = {PROX_SIGN_AUTO, PROX_SIGN_PSEUDONORMAL, PROX_SIGN_CROSSINGS};
  size_t m;
  cube(v, t, 0, 0);
  for (m = 0; m < 3; ++m) {
    built b;
    char what[64];
    if (!build(&b, v, 8, t, 12, methods[m], 2.0)) {
      CHECK(0);
      continue;
    }
    if (methods[m] == PROX_SIGN_AUTO) CHECK(prox_sdf_method(b.sdf) == PROX_SIGN_PSEUDONORMAL);
    snprintf(what, sizeof what, "cube, method %d", methods[m]);
    cube_cases(&b, lo, hi, what);
    /* Vertices, edge midpoints and face points: distance 0, no sign. */
    {
      prox_signed r;
      double d = prox_sdf_distance(b.sdf, prox_v3(1, 0.5, 1), &r);
      CHECK(d == 0 && r.inside == 0 && r.certain == 0);
      d = prox_sdf_distance(b.sdf, prox_v3(0, 0, 0), &r);
      CHECK(d == 0 && r.certain == 0);
      d = prox_sdf_distance(b.sdf, prox_v3(0.25, 0.5, 0), &r);
      CHECK(d == 0 && r.certain == 0);
    }
    /* Non-finite input. */
    {
      prox_signed r;
      int c = 1;
      CHECK(isnan(prox_sdf_distance(b.sdf, prox_v3(NAN, 0, 0), &r)));
      CHECK(r.certain == 0 && r.inside == 0);
      CHECK(prox_sdf_inside(b.sdf, prox_v3(INFINITY, 0, 0), &c) == 0 && !c);
      CHECK(isnan(prox_sdf_winding(b.sdf, prox_v3(0, NAN, 0))));
    }
    unbuild(&b);
  }
  /* The winding number (hierarchical, accuracy 2 and exact sum). */
  {
    built b;
    if (build(&b, v, 8, t, 12, PROX_SIGN_WINDING, INFINITY)) {
      CHECK(fabs(prox_sdf_winding(b.sdf, prox_v3(0.5, 0.5, 0.5)) - 1) < 1e-12);
      CHECK(fabs(prox_sdf_winding(b.sdf, prox_v3(0.9, 0.1, 0.2)) - 1) < 1e-12);
      CHECK(fabs(prox_sdf_winding(b.sdf, prox_v3(1.5, 0.1, 0.2))) < 1e-12);
      cube_cases(&b, lo, hi, "cube, exact winding number");
      unbuild(&b);
    }
  }
}

/* Inverted and duplicated cubes: the documented answers. */
static long double ref_winding(const objmesh *m, const double *p);

static void test_sign_inverted_duplicated(void) {
  double v[24];
  uint32_t t[72];
  built b;
  int i;
  cube(v, t, 0, 0);
  for (i = 0; i < 12; ++i) {
    uint32_t x = t[3 * i + 1];
    t[3 * i + 1] = t[3 * i + 2];
    t[3 * i + 2] = x;
  }
  if (build(&b, v, 8, t, 12, PROX_SIGN_AUTO, 2.0)) {
    prox_signed r;
    /* AUTO: the winding number, -1 inside: nothing is inside. */
    CHECK(prox_sdf_method(b.sdf) == PROX_SIGN_PSEUDONORMAL);
    CHECK(prox_sdf_distance(b.sdf, prox_v3(0.5, 0.4, 0.3), &r) > 0 && r.winding == -1);
    CHECK(prox_sdf_distance(b.sdf, prox_v3(1.5, 0.4, 0.3), &r) > 0 && r.winding == 0);
    CHECK(prox_sdf_inside(b.sdf, prox_v3(0.5, 0.4, 0.3), NULL) == 0);
    CHECK(prox_sdf_inside(b.sdf, prox_v3(1.5, 0.4, 0.3), NULL) == 0);
    unbuild(&b);
  }
  if (build(&b, v, 8, t, 12, PROX_SIGN_PSEUDONORMAL, 2.0)) {
    prox_signed r;
    /* Pseudo-normals forced follow the triangles: inside reads as outside,
     * and the inside test agrees. */
    CHECK(prox_sdf_distance(b.sdf, prox_v3(0.5, 0.4, 0.3), &r) > 0);
    CHECK(prox_sdf_distance(b.sdf, prox_v3(1.5, 0.4, 0.3), &r) < 0);
    CHECK(prox_sdf_inside(b.sdf, prox_v3(0.5, 0.4, 0.3), NULL) == 0);
    CHECK(prox_sdf_inside(b.sdf, prox_v3(1.5, 0.4, 0.3), NULL) == 1);
    unbuild(&b);
  }
  if (build(&b, v, 8, t, 12, PROX_SIGN_CROSSINGS, 2.0)) {
    CHECK(prox_sdf_winding(b.sdf, prox_v3(0.5, 0.4, 0.3)) == -1);
    CHECK(prox_sdf_inside(b.sdf, prox_v3(0.5, 0.4, 0.3), NULL) == 0);
    CHECK(prox_sdf_winding(b.sdf, prox_v3(1.5, 0.4, 0.3)) == 0);
    unbuild(&b);
  }
  /* Every face twice: non-manifold edges, each traversed twice each way:
   * AUTO counts crossings, 2 inside. */
  cube(v, t, 0, 0);
  memcpy(t + 36, t, 36 * sizeof t[0]);
  if (build(&b, v, 8, t, 24, PROX_SIGN_AUTO, 2.0)) {
    prox_signed r;
    CHECK(prox_sdf_method(b.sdf) == PROX_SIGN_CROSSINGS);
    CHECK(prox_sdf_distance(b.sdf, prox_v3(0.5, 0.4, 0.3), &r) < 0);
    CHECK(r.winding == 2 && r.inside && r.certain);
    CHECK(prox_sdf_inside(b.sdf, prox_v3(0.5, 0.4, 0.3), NULL) == 1);
    {
      /* The inside grid of this non-manifold cycle against the
       * long-double sum of solid angles, at random points around it. */
      oracle_rng rng = oracle_rng_make(0xd0b);
      objmesh m;
      long q, bad = 0, n = h_count(500);
      memset(&m, 0, sizeof m);
      m.v = v;
      m.nv = 8;
      m.t = t;
      m.nt = 24;
      for (q = 0; q < n; ++q) {
        double p[3], ref;
        int k, c = 0, in;
        for (k = 0; k < 3; ++k)
          p[k] = -0.5 + 2 * oracle_rng_unit(&rng);
        ref = (double)ref_winding(&m, p);
        in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &c);
        bad += !(c && in == (ref > 0.5) &&
                 prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2])) == floor(ref + 0.5));
      }
      CHECK_MSG(bad == 0, "doubled cube: %ld of %ld points", bad, n);
    }
    CHECK(prox_sdf_distance(b.sdf, prox_v3(1.5, 0.4, 0.3), &r) > 0);
    unbuild(&b);
  }
}

/* Two unit cubes touching along the face x = 1, no shared indices. */
static void test_sign_touching(void) {
  double v[48];
  uint32_t t[72];
  static const double lo[3] = {0, 0, 0}, hi[3] = {2, 1, 1};
  static const int methods[] = {PROX_SIGN_AUTO, PROX_SIGN_CROSSINGS};
  size_t m;
  cube(v, t, 0, 0);
  cube(v + 24, t + 36, 1, 8);
  for (m = 0; m < 2; ++m) {
    built b;
    char what[64];
    if (!build(&b, v, 16, t, 24, methods[m], 2.0)) {
      CHECK(0);
      continue;
    }
    snprintf(what, sizeof what, "two touching cubes, method %d", methods[m]);
    /* Points near the shared face, inside either cube. */
    {
      long wrong = 0;
      int i;
      for (i = 1; i < 200; ++i) {
        double y = i / 200.0, z = (i * 7 % 200) / 200.0 + 0.001;
        double xs[4] = {1 - 1e-3, 1 + 1e-3, 1 - 1e-7, 1 + 1e-7};
        int k;
        for (k = 0; k < 4; ++k) {
          prox_signed r;
          prox_sdf_distance(b.sdf, prox_v3(xs[k], y, z), &r);
          if (!(r.inside && r.certain)) ++wrong;
        }
      }
      h_note("%s: %ld of 796 points near the shared face not inside", what, wrong);
      CHECK(wrong == 0);
    }
    (void)lo;
    (void)hi;
    unbuild(&b);
  }
}

/* Two cubes through each other, A = [0, 1]^3 and B = A + (0.5, 0.3,
 * 0.2), as two components of one mesh: winding number 2 where they
 * overlap (inside), 1 in one of them, 0 outside; the distance is that to
 * the nearer of the two box surfaces. Under AUTO the pseudo-normals of
 * the triangles of A inside B (and of B inside A) would say "outside" in
 * the overlap. */
static void test_sign_overlapping(void) {
  double v[48];
  uint32_t t[72];
  static const double alo[3] = {0, 0, 0}, ahi[3] = {1, 1, 1}, off[3] = {0.5, 0.3, 0.2};
  double blo[3], bhi[3];
  built b;
  long wrong = 0, n = h_count(20000), i;
  oracle_rng rng = oracle_rng_make(0x0b0e);
  int k;
  cube(v, t, 0, 0);
  cube(v + 24, t + 36, 0, 8);
  for (i = 0; i < 8; ++i)
    for (k = 0; k < 3; ++k)
      v[24 + 3 * i + k] += off[k];
  for (k = 0; k < 3; ++k) {
    blo[k] = alo[k] + off[k];
    bhi[k] = ahi[k] + off[k];
  }
  if (!build(&b, v, 16, t, 24, PROX_SIGN_AUTO, 2.0)) {
    CHECK(0);
    return;
  }
  CHECK(prox_sdf_method(b.sdf) == PROX_SIGN_PSEUDONORMAL);
  for (i = 0; i < n; ++i) {
    double p[3], da, db, dist, w;
    int want, in, cert;
    prox_signed r;
    for (k = 0; k < 3; ++k)
      p[k] = -0.2 + 1.9 * oracle_rng_unit(&rng);
    if (i % 2) /* half of them near a face of A or B */
      p[i % 3] = (i % 4 == 1 ? ahi : blo)[i % 3] + 1e-4 * (2 * oracle_rng_unit(&rng) - 1);
    da = box_sdist(p, alo, ahi);
    db = box_sdist(p, blo, bhi);
    dist = fabs(da) < fabs(db) ? fabs(da) : fabs(db);
    if (dist <= 1e-9) continue;
    want = (da < 0) + (db < 0);
    prox_sdf_distance(b.sdf, prox_v3(p[0], p[1], p[2]), &r);
    in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &cert);
    w = prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2]));
    if (r.inside != (want >= 1) || in != (want >= 1) || !cert || !r.certain || w != (double)want ||
        fabs(fabs(r.distance) - dist) > 1e-12 || (r.distance < 0) != (want >= 1))
      ++wrong;
    CHECK_MSG(r.inside == (want >= 1) && in == r.inside && w == (double)want,
              "p (%.17g %.17g %.17g): inside %d / %d, winding %g, exact %d", p[0], p[1], p[2],
              r.inside, in, w, want);
  }
  h_note("two overlapping cubes: %ld points, %ld wrong (sign, winding or distance)", n, wrong);
  CHECK(wrong == 0);
  unbuild(&b);
}

/* Two octahedra that pass through each other only near their surfaces
 * (found by fuzz/fuzz_mesh.c): the region where both hold a point lies in
 * the inside grid's surface cells, so the grid's cells hold only 0 and 1.
 * Pseudo-normals forced (they do not look for self-intersections) give
 * the signed distance the pseudo-normals' side, which is wrong at some
 * points here, while prox_sdf_inside() answers from the grid, the exact
 * count (sign.h documents the difference). AUTO finds the crossing and
 * takes the exact count near it: its answers and the forced CROSSINGS'
 * (exact on a closed mesh) agree. */
static void test_sign_forced_pseudonormals(void) {
  static const double v[] = {1,  -1, -1, -3, 1,  -1, -1, 1, -1, -1, -3, 1, 1, 0, 3, 1, 1, -1,
                             -3, -1, -1, -7, -1, -1, -5, 1, 1,  2,  -1, 1, 2, 0, 3, 2, 1, -1};
  static const uint32_t t[] = {0,  2, 4, 2,  1, 4, 1,  3, 4, 3,  0,  4, 2,  0,  5, 1,
                               2,  5, 3, 1,  5, 0, 3,  5, 6, 8,  10, 8, 7,  10, 7, 9,
                               10, 9, 6, 10, 8, 6, 11, 7, 8, 11, 9,  7, 11, 6,  9, 11};
  built pn, au, cr;
  long n = 0, differ = 0, wrong = 0;
  int i, j, k;
  if (!build(&pn, v, 12, t, 16, PROX_SIGN_PSEUDONORMAL, 2.0) ||
      !build(&au, v, 12, t, 16, PROX_SIGN_AUTO, 2.0) ||
      !build(&cr, v, 12, t, 16, PROX_SIGN_CROSSINGS, 2.0)) {
    CHECK(0);
    return;
  }
  for (i = -18; i <= 8; ++i)
    for (j = -9; j <= 9; ++j)
      for (k = -8; k <= 9; ++k) {
        prox_vec3 p = prox_v3(0.5 * i, 0.5 * j, 0.5 * k);
        prox_signed rp, ra;
        int cp, ca, cc, ip = prox_sdf_inside(pn.sdf, p, &cp);
        int ia = prox_sdf_inside(au.sdf, p, &ca), ic = prox_sdf_inside(cr.sdf, p, &cc);
        prox_sdf_distance(pn.sdf, p, &rp);
        prox_sdf_distance(au.sdf, p, &ra);
        if (rp.distance == 0) continue;
        ++n;
        differ += rp.inside != ic;
        wrong += ip != ic || !cp || ia != ic || ra.inside != ic || !cc;
        CHECK_MSG(ip == ic && cp && ia == ic && ra.inside == ic && cc,
                  "(%g %g %g): inside: forced pseudo-normals %d, AUTO %d / %d, crossings %d", p.x,
                  p.y, p.z, ip, ia, ra.inside, ic);
      }
  h_note("two octahedra crossing near their surfaces: %ld points; the signed distance under "
         "forced pseudo-normals on the other side of the exact count at %ld; inside tests off "
         "it %ld",
         n, differ, wrong);
  CHECK(differ > 0); /* the case is one where forced pseudo-normals fail */
  CHECK(wrong == 0);
  unbuild(&pn);
  unbuild(&au);
  unbuild(&cr);
}

static const char *mesh_dir;
static int mesh_missing;

static int load(const char *file, objmesh *m) {
  char path[4200], err[512];
  if (!mesh_dir) {
    mesh_missing = 1;
    return 0;
  }
  snprintf(path, sizeof path, "%s/%s", mesh_dir, file);
  memset(m, 0, sizeof *m);
  if (!mesh_load(path, m, err, sizeof err)) {
    CHECK_MSG(0, "%s", err);
    return 0;
  }
  if (mesh_over_limit(path, m->nt)) {
    obj_free(m);
    return 0;
  }
  return 1;
}

/* self_crossing: the surface passes through itself (CGAL's
 * self_intersections finds 27 pairs in dragon.obj, 25 in block.obj), so
 * the pseudo-normal test must give way to the exact count near the
 * triangles concerned, and the parity of crossings need not be the
 * inside. */
/* The box of the mesh's vertices. */
static void mesh_box(const objmesh *m, double lo[3], double hi[3]) {
  size_t v;
  int k;
  for (k = 0; k < 3; ++k) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (v = 0; v < m->nv; ++v)
    for (k = 0; k < 3; ++k) {
      if (m->v[3 * v + (size_t)k] < lo[k]) lo[k] = m->v[3 * v + (size_t)k];
      if (m->v[3 * v + (size_t)k] > hi[k]) hi[k] = m->v[3 * v + (size_t)k];
    }
}

/* A query point p: uniform in the box (lo, hi) enlarged by 10% (near 0),
 * or a random point of a random triangle moved by up to noise[k] along
 * axis k (near 1). */
static void query_point(const objmesh *m, const double *lo, const double *hi, int near,
                        const double *noise, oracle_rng *rng, double *p) {
  int k;
  if (!near) {
    for (k = 0; k < 3; ++k)
      p[k] = lo[k] - 0.05 * (hi[k] - lo[k]) + 1.1 * (hi[k] - lo[k]) * oracle_rng_unit(rng);
  } else {
    uint32_t t = (uint32_t)(oracle_rng_next(rng) % m->nt);
    double u = oracle_rng_unit(rng), w = oracle_rng_unit(rng);
    const double *a = m->v + 3 * (size_t)m->t[3 * (size_t)t];
    const double *b = m->v + 3 * (size_t)m->t[3 * (size_t)t + 1];
    const double *c = m->v + 3 * (size_t)m->t[3 * (size_t)t + 2];
    if (u + w > 1) u = 1 - u, w = 1 - w;
    for (k = 0; k < 3; ++k)
      p[k] =
          a[k] + u * (b[k] - a[k]) + w * (c[k] - a[k]) + noise[k] * (2 * oracle_rng_unit(rng) - 1);
  }
}

/* The sign on a closed mesh against the exact oracle (parity_oracle.h):
 * n points uniform in the box enlarged by 10% and n within 1% of the
 * diagonal of the surface (the sign, inside() and winding() of every point
 * farther than 1e-9 of the diagonal, all certain), points on axis lines
 * through vertices and edge midpoints, and distance 0 on vertices and edge
 * midpoints; the inside grid's sub-cells of every step-th cell. Query
 * coordinates below floor become 0. Returns how many of
 * the 2 n points took their sign from crossings (-1: no build). */
static long closed_check(const char *file, const objmesh *mp, int self_crossing, long n,
                         double floor, size_t step) {
  objmesh m = *mp;
  built b;
  oracle3 o;
  double lo[3], hi[3], noise[3], diag = 0;
  long i, wrong = 0, skipped = 0, near = 0, uncertain = 0, crossings = 0, notparity = 0,
          wrong_in = 0;
  oracle_rng rng;
  int k;
  mesh_box(&m, lo, hi);
  for (k = 0; k < 3; ++k)
    diag += (hi[k] - lo[k]) * (hi[k] - lo[k]);
  diag = sqrt(diag);
  for (k = 0; k < 3; ++k)
    noise[k] = 0.01 * diag;
  if (!build(&b, m.v, m.nv, m.t, m.nt, PROX_SIGN_AUTO, 2.0)) {
    CHECK_MSG(0, "%s: build", file);
    return -1;
  }
  /* The STL reader of the tests does not weld: the STL mesh is a soup. */
  if (!strstr(file, ".stl"))
    CHECK_MSG(prox_sdf_method(b.sdf) == PROX_SIGN_PSEUDONORMAL, "%s: method %d", file,
              prox_sdf_method(b.sdf));
  {
    /* The inside grid's sub-cells that answer without a triangle: none
     * may touch one of its cell's triangles (the exact triangle-box test),
     * and their numbers must be the exact winding numbers (a count through
     * the tree) at their centres. Every cell at full scale. */
    size_t checked = 0, valued = 0, bad;
    bad = prox_sdf_detail_check_subcells(b.sdf, step, 50, &checked, &valued);
    h_note("%s: %zu sub-cells answered from the grid (every %zu-th cell), none may touch a "
           "triangle; %zu numbers checked; %zu wrong",
           file, checked, step, valued, bad);
    CHECK_MSG(bad == 0, "%s: %zu sub-cells wrong", file, bad);
    if (prox_sdf_method(b.sdf) != PROX_SIGN_WINDING)
      CHECK_MSG(checked > 0 && valued > 0, "%s: no sub-cell checked", file);
  }
  oracle_build(&o, &m);
  rng = oracle_rng_make(0x5169 + m.nt);
  for (i = 0; i < 2 * n; ++i) {
    double p[3];
    prox_signed r;
    int want, wind, par;
    /* Uniform in the box enlarged by 10%, then within 1% of the diagonal
     * of a random surface point. */
    query_point(&m, lo, hi, i >= n, noise, &rng, p);
    for (k = 0; k < 3; ++k)
      if (fabs(p[k]) < floor) p[k] = 0;
    prox_sdf_distance(b.sdf, prox_v3(p[0], p[1], p[2]), &r);
    if (r.method == PROX_SIGN_CROSSINGS) ++crossings;
    if (fabs(r.distance) <= 1e-9 * diag) {
      ++near;
      continue;
    }
    if (!r.certain) ++uncertain;
    if (!oracle_winding(&o, &m, p, &wind)) {
      ++skipped;
      continue;
    }
    /* Inside: winding number above 1/2. Where the surface passes through
     * itself that is not the parity of the crossings. */
    want = wind >= 1;
    par = oracle_inside(&o, &m, p);
    if (par >= 0 && par != want) ++notparity;
    if (want != r.inside) ++wrong;
    CHECK_MSG(want == r.inside, "%s: p (%.17g %.17g %.17g) inside %d, exact %d", file, p[0], p[1],
              p[2], r.inside, want);
    /* The inside test and the winding number, which take their own path
     * (the inside grid: a cell's number or a short count from one). */
    {
      int cert = 0, in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &cert);
      double w = prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2]));
      /* The hierarchical approximation (the STL soup) is not an integer. */
      if (prox_sdf_method(b.sdf) == PROX_SIGN_WINDING && fabs(w - wind) < 0.25) w = wind;
      if (in != want || !cert || w != (double)wind) ++wrong_in;
      CHECK_MSG(in == want && cert && w == (double)wind,
                "%s: p (%.17g %.17g %.17g) inside() %d certain %d winding() %g, exact %d (%d)",
                file, p[0], p[1], p[2], in, cert, w, want, wind);
    }
  }
  /* Points that share two coordinates with a vertex or an edge's
   * midpoint (moved from it along one axis by 1e-4 to 1e-2 of the
   * diagonal, either way): a segment along that axis, which the inside
   * test takes first, may pass exactly through the vertex or the edge. */
  {
    long bad = 0, tried = 0;
    for (i = 0; i < n / 5; ++i) {
      uint32_t t = (uint32_t)(oracle_rng_next(&rng) % m.nt);
      const double *a = m.v + 3 * (size_t)m.t[3 * (size_t)t];
      const double *bb = m.v + 3 * (size_t)m.t[3 * (size_t)t + 1];
      double p[3], w, d = diag * pow(10.0, -4.0 + 2.0 * oracle_rng_unit(&rng));
      int ax = (int)(oracle_rng_next(&rng) % 3), wind, cert = 0, in;
      for (k = 0; k < 3; ++k)
        p[k] = i % 2 ? a[k] : 0.5 * (a[k] + bb[k]);
      p[ax] += oracle_rng_next(&rng) % 2 ? d : -d;
      for (k = 0; k < 3; ++k)
        if (fabs(p[k]) < floor) p[k] = 0;
      if (!oracle_winding(&o, &m, p, &wind)) continue;
      ++tried;
      in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &cert);
      w = prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2]));
      if (prox_sdf_method(b.sdf) == PROX_SIGN_WINDING && fabs(w - wind) < 0.25) w = wind;
      if (in != (wind >= 1) || !cert || w != (double)wind) ++bad;
    }
    CHECK_MSG(bad == 0, "%s: %ld of %ld points on axis lines through vertices and edges wrong",
              file, bad, tried);
    h_note("%s: %ld points on axis lines through vertices and edge midpoints, %ld wrong", file,
           tried, bad);
  }
  /* Vertices: distance 0; edge midpoints (rounded: within eps of the
   * coordinates' magnitude of the edge): about 0. */
  {
    long nz = 0;
    double big = 0;
    for (k = 0; k < 3; ++k)
      big = fmax(big, fmax(fabs(lo[k]), fabs(hi[k])));
    for (i = 0; i < n / 10 && i < (long)m.nt; ++i) {
      uint32_t t = (uint32_t)(oracle_rng_next(&rng) % m.nt);
      const double *a = m.v + 3 * (size_t)m.t[3 * (size_t)t];
      const double *bb = m.v + 3 * (size_t)m.t[3 * (size_t)t + 1];
      prox_signed r;
      prox_sdf_distance(b.sdf, prox_v3(a[0], a[1], a[2]), &r);
      if (r.distance != 0) ++nz;
      prox_sdf_distance(
          b.sdf, prox_v3(0.5 * (a[0] + bb[0]), 0.5 * (a[1] + bb[1]), 0.5 * (a[2] + bb[2])), &r);
      if (!(fabs(r.distance) <= 1e-15 * (diag + big))) ++nz;
    }
    CHECK_MSG(nz == 0, "%s: %ld vertex or edge points not at distance 0", file, nz);
  }
  h_note("%s: %ld points, %ld wrong signs (%ld by inside() or winding()), %ld uncertain, %ld "
         "within 1e-9 diag, %ld undecided by the oracle, %ld decided by crossings, %ld where "
         "winding and parity differ",
         file, 2 * n, wrong, wrong_in, uncertain, near, skipped, crossings, notparity);
  if (!self_crossing) CHECK_MSG(notparity == 0, "%s: winding and parity differ", file);
  CHECK(uncertain == 0);
  oracle_free(&o);
  unbuild(&b);
  return crossings;
}

/* closed_check on a real mesh, h_count(10000) points in each set. */
static void closed_mesh(const char *file, int self_crossing) {
  objmesh m;
  if (!load(file, &m)) return;
  (void)closed_check(file, &m, self_crossing, h_count(10000), 0,
                     (size_t)(10000 / (h_count(10000) > 0 ? h_count(10000) : 1)));
  obj_free(&m);
}

/* prox_sdf_build with an allocator that fails at every call in turn, for
 * each method: PROX_ERROR_OUT_OF_MEMORY (or success where the failed block
 * was optional) and nothing leaked; the object that builds answers right. */
static void test_sign_alloc_failure(void) {
  double v[24];
  uint32_t t[36];
  prox_mesh mesh;
  prox_bvh *bvh;
  prox_allocator a;
  fail_alloc f = {0, 0, 0};
  int method;
  cube(v, t, 0, 0);
  memset(&mesh, 0, sizeof mesh);
  mesh.vertices = v;
  mesh.vertex_count = 8;
  mesh.indices = t;
  mesh.triangle_count = 12;
  CHECK(prox_bvh_build(&mesh, NULL, NULL, &bvh, NULL) == PROX_OK);
  a = fa_allocator(&f);
  for (method = PROX_SIGN_AUTO; method <= PROX_SIGN_WINDING; ++method) {
    prox_sdf_options o = prox_sdf_options_default();
    prox_sdf *s = NULL;
    long k, total, oom = 0;
    o.method = method;
    f.calls = 0;
    f.fail_at = 0;
    CHECK(prox_sdf_build(&mesh, bvh, NULL, &o, &a, &s, NULL) == PROX_OK);
    total = f.calls;
    {
      /* A batch large enough for the coherent order, whose scratch comes
       * from this allocator: the single queries' answers whether that
       * allocation fails or not, and nothing left behind. */
      enum { N = 700 };
      static prox_vec3 pts[N];
      static double d1[N], d2[N];
      oracle_rng rng = oracle_rng_make(7 + (uint64_t)method);
      int i, mode;
      for (i = 0; i < N; ++i)
        pts[i] = prox_v3(3 * oracle_rng_unit(&rng) - 1, 3 * oracle_rng_unit(&rng) - 1,
                         3 * oracle_rng_unit(&rng) - 1);
      pts[9] = prox_v3(0, INFINITY, 0);
      for (i = 0; i < N; ++i)
        d1[i] = prox_sdf_distance(s, pts[i], NULL);
      for (mode = 0; mode < 2; ++mode) {
        long calls = f.calls, live = f.live;
        f.fail_at = mode == 0 ? f.calls + 1 : 0;
        CHECK(prox_sdf_batch(s, pts, N, d2, NULL, 2) == PROX_OK);
        CHECK(memcmp(d1, d2, sizeof d1) == 0);
        CHECK_MSG(f.calls == calls + 1 && f.live == live,
                  "method %d, batch %s: %ld calls, %ld blocks left", method,
                  mode ? "with memory" : "without", f.calls - calls, f.live - live);
      }
      f.fail_at = 0;
    }
    prox_sdf_free(s);
    CHECK(f.live == 0);
    for (k = 1; k <= total; ++k) {
      prox_error err;
      prox_status st;
      f.calls = 0;
      f.fail_at = k;
      f.live = 0;
      s = (prox_sdf *)&mesh;
      st = prox_sdf_build(&mesh, bvh, NULL, &o, &a, &s, &err);
      if (st == PROX_OK) {
        int c = 0;
        CHECK(prox_sdf_inside(s, prox_v3(0.5, 0.5, 0.5), &c) == 1 && c == 1);
        CHECK(prox_sdf_inside(s, prox_v3(1.5, 0.5, 0.5), &c) == 0 && c == 1);
        prox_sdf_free(s);
      } else {
        ++oom;
        CHECK(st == PROX_ERROR_OUT_OF_MEMORY && s == NULL);
      }
      CHECK_MSG(f.live == 0, "method %d, call %ld: %ld blocks leaked", method, k, f.live);
    }
    CHECK_MSG(oom >= 1, "method %d: no allocation failure reported", method);
  }
  prox_bvh_free(bvh);
}

/* ------------------------------------------------ self-intersections */

/* The number of self-intersecting pairs of a mesh of double vertices v
 * and triangles t, through prox_mesh_self_intersections(); pairs (may be
 * NULL) gets up to cap of them. -1 on an error. */
static long self_count(const double *v, size_t nv, const uint32_t *t, size_t nt, uint32_t *pairs,
                       size_t cap) {
  prox_mesh mesh;
  prox_bvh *bvh;
  prox_error err;
  size_t n = 0;
  prox_status st;
  memset(&mesh, 0, sizeof mesh);
  mesh.vertices = v;
  mesh.vertex_count = nv;
  mesh.indices = t;
  mesh.triangle_count = nt;
  if (prox_bvh_build(&mesh, NULL, NULL, &bvh, &err) != PROX_OK) return -1;
  st = prox_mesh_self_intersections(&mesh, bvh, pairs, cap, &n, &err);
  prox_bvh_free(bvh);
  return st == PROX_OK ? (long)n : -1;
}

/* Two triangles, each a vertex array of 6 and indices chosen so that they
 * share what the case says; the answer known by construction. */
static void test_self_intersection_cases(void) {
  static const struct {
    const char *name;
    double v[6][3];
    uint32_t t[6];
    long want;
  } cases[] = {
      {"apart",
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}},
       {0, 1, 2, 3, 4, 5},
       0},
      {"crossing",
       {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0.5, 0.5, -1}, {0.5, 0.5, 1}, {3, 3, 0.5}},
       {0, 1, 2, 3, 4, 5},
       1},
      {"vertex on a face, other indices",
       {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0.5, 0.5, 0}, {0.5, 0.5, 1}, {1, 2, 1}},
       {0, 1, 2, 3, 4, 5},
       1},
      {"edge shared, bent",
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {9, 9, 9}, {9, 9, 9}},
       {0, 1, 2, 1, 0, 3},
       0},
      {"edge shared, flat",
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.5, -1, 0}, {9, 9, 9}, {9, 9, 9}},
       {0, 1, 2, 1, 0, 3},
       0},
      {"edge shared, folded",
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.5, 2, 0}, {9, 9, 9}, {9, 9, 9}},
       {0, 1, 2, 1, 0, 3},
       1},
      {"vertex shared, apart",
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 1}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       0},
      {"vertex shared, edge through",
       {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0.5, 0.5, -1}, {0.5, 0.5, 1}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       1},
      {"vertex shared, edge touching",
       {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0.5, 0.5, 0}, {0.5, 0.5, 1}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       1},
      {"vertex shared, coplanar fan",
       {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {-1, 0, 0}, {-1, -1, 0}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       0},
      {"vertex shared, coplanar overlap",
       {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {1, 0.5, 0}, {0.5, 1, 0}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       1},
      {"vertex shared, coplanar, one angle in the other",
       {{0, 0, 0}, {4, -1, 0}, {-1, 4, 0}, {1, 0.5, 0}, {0.5, 1, 0}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       1},
      {"vertex shared, coplanar, sides along one ray",
       {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 0, 0}, {2, -2, 0}, {9, 9, 9}},
       {0, 1, 2, 0, 3, 4},
       1},
      {"duplicate",
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {9, 9, 9}, {9, 9, 9}, {9, 9, 9}},
       {0, 1, 2, 2, 0, 1},
       1},
      {"zero area through a face",
       {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0.5, 0.5, -1}, {0.5, 0.5, 0}, {0.5, 0.5, 1}},
       {0, 1, 2, 3, 4, 5},
       0},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    long n = self_count(&cases[i].v[0][0], 6, cases[i].t, 2, NULL, 0);
    long m;
    uint32_t swapped[6];
    /* The same pair in the other order: the answer must not depend on it. */
    memcpy(swapped, cases[i].t + 3, 3 * sizeof(uint32_t));
    memcpy(swapped + 3, cases[i].t, 3 * sizeof(uint32_t));
    m = self_count(&cases[i].v[0][0], 6, swapped, 2, NULL, 0);
    CHECK_MSG(n == cases[i].want && m == cases[i].want, "%s: %ld and %ld pairs, want %ld",
              cases[i].name, n, m, cases[i].want);
  }
  /* Float meshes: the same decisions on the same (float-exact) cases. */
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    float fv[18];
    prox_meshf mesh;
    prox_bvhf *bvh;
    prox_error err;
    size_t n = 99, k;
    for (k = 0; k < 18; ++k)
      fv[k] = (float)(&cases[i].v[0][0])[k];
    memset(&mesh, 0, sizeof mesh);
    mesh.vertices = fv;
    mesh.vertex_count = 6;
    mesh.indices = cases[i].t;
    mesh.triangle_count = 2;
    CHECK(prox_bvh_buildf(&mesh, NULL, NULL, &bvh, &err) == PROX_OK);
    CHECK(prox_mesh_self_intersectionsf(&mesh, bvh, NULL, 0, &n, &err) == PROX_OK);
    CHECK_MSG((long)n == cases[i].want, "float %s: %lu pairs", cases[i].name, (unsigned long)n);
    prox_bvh_freef(bvh);
  }
  /* Bad arguments. */
  {
    prox_mesh mesh;
    prox_bvh *bvh;
    prox_error err;
    size_t n = 7;
    memset(&mesh, 0, sizeof mesh);
    mesh.vertices = &cases[0].v[0][0];
    mesh.vertex_count = 6;
    mesh.indices = cases[0].t;
    mesh.triangle_count = 2;
    CHECK(prox_bvh_build(&mesh, NULL, NULL, &bvh, &err) == PROX_OK);
    CHECK(prox_mesh_self_intersections(NULL, bvh, NULL, 0, &n, &err) ==
              PROX_ERROR_INVALID_ARGUMENT &&
          n == 0);
    CHECK(prox_mesh_self_intersections(&mesh, bvh, NULL, 3, &n, &err) ==
          PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_mesh_self_intersections(&mesh, bvh, NULL, 0, NULL, &err) ==
          PROX_ERROR_INVALID_ARGUMENT);
    mesh.triangle_count = 1;
    CHECK(prox_mesh_self_intersections(&mesh, bvh, NULL, 0, &n, &err) ==
          PROX_ERROR_INVALID_ARGUMENT);
    prox_bvh_free(bvh);
  }
}

/* Real meshes: dragon.obj against the pairs CGAL 5.5 finds
 * (Polygon_mesh_processing::self_intersections, exact predicates; the
 * list recorded from bench/, as sorted pairs), and block.obj against
 * brute force: every pair of triangles whose boxes overlap, as a mesh of
 * those two alone (so the tree's search is not used). */
static void test_self_intersection_meshes(void) {
  static const uint32_t cgal_dragon[27][2] = {
      {5323, 25177},  {5323, 25767},  {5323, 69282},  {5323, 69283},  {6240, 29776},
      {6240, 52096},  {6240, 70836},  {6240, 70837},  {6240, 91944},  {20784, 41696},
      {20784, 88246}, {30295, 67783}, {30296, 60506}, {30385, 79018}, {30385, 79019},
      {41034, 48017}, {41034, 96112}, {41696, 60506}, {43448, 48017}, {43448, 96112},
      {48017, 71254}, {48017, 71255}, {48017, 97817}, {48017, 99755}, {60506, 67782},
      {60506, 67783}, {60506, 69483}};
  objmesh m;
  if (load("dragon.obj", &m)) {
    uint32_t pairs[2 * 64];
    long n = self_count(m.v, m.nv, m.t, m.nt, pairs, 64), i, same = 0;
    for (i = 0; i < 27 && i < n; ++i)
      same += pairs[2 * i] == cgal_dragon[i][0] && pairs[2 * i + 1] == cgal_dragon[i][1];
    CHECK_MSG(n == 27 && same == 27, "dragon.obj: %ld pairs, %ld as CGAL's 27", n, same);
    obj_free(&m);
  }
  if (load("block.obj", &m)) {
    uint32_t pairs[2 * 256], two[6];
    long n = self_count(m.v, m.nv, m.t, m.nt, pairs, 256), brute = 0, listed = 0;
    double *lo = (double *)malloc(6 * m.nt * sizeof *lo), *hi = lo + 3 * m.nt;
    size_t i, j;
    int k;
    for (i = 0; i < m.nt; ++i)
      for (k = 0; k < 3; ++k) {
        const double *a = m.v + 3 * (size_t)m.t[3 * i], *b = m.v + 3 * (size_t)m.t[3 * i + 1],
                     *c = m.v + 3 * (size_t)m.t[3 * i + 2];
        lo[3 * i + (size_t)k] = fmin(a[k], fmin(b[k], c[k]));
        hi[3 * i + (size_t)k] = fmax(a[k], fmax(b[k], c[k]));
      }
    for (i = 0; i < m.nt; ++i)
      for (j = i + 1; j < m.nt; ++j) {
        long c;
        if (lo[3 * i] > hi[3 * j] || lo[3 * j] > hi[3 * i] || lo[3 * i + 1] > hi[3 * j + 1] ||
            lo[3 * j + 1] > hi[3 * i + 1] || lo[3 * i + 2] > hi[3 * j + 2] ||
            lo[3 * j + 2] > hi[3 * i + 2])
          continue;
        memcpy(two, m.t + 3 * i, 3 * sizeof(uint32_t));
        memcpy(two + 3, m.t + 3 * j, 3 * sizeof(uint32_t));
        c = self_count(m.v, m.nv, two, 2, NULL, 0);
        if (c == 1) {
          long q;
          for (q = 0; q < n && q < 256; ++q)
            if (pairs[2 * q] == i && pairs[2 * q + 1] == j) ++listed;
          ++brute;
        }
      }
    h_note("block.obj: %ld self-intersecting pairs (tree), %ld (brute force)", n, brute);
    CHECK_MSG(n == brute && listed == brute && n > 0, "block.obj: %ld pairs, brute force %ld", n,
              brute);
    free(lo);
    obj_free(&m);
  }
}

/* Closed noisy spheres (tests/noisy_sphere.h) at scales 2^k drawn across
 * the kernels' domain, k in [-480, 478], centred 0, 3, 1024 or 2^20 of
 * their size from the origin (coordinates below 2^(k-20) set to 0, so
 * that every nonzero magnitude is within it): closed_check, so the
 * pseudo-normals and the inside grid's cell arithmetic across magnitudes,
 * against the exact oracle, and the pseudo-normals deciding at least 95%
 * of the signs. */
static void test_sign_domain(void) {
  static const double offs[4] = {0, 3, 1024, 1048576};
  oracle_rng s = oracle_rng_make(0x519d);
  int i;
  for (i = 0; i < 24; ++i) {
    int k = -480 + oracle_rng_int(&s, 959);
    double scale = ldexp(1.0, k), c[3];
    long n, cr;
    objmesh m;
    char name[64];
    memset(&m, 0, sizeof m);
    noisy_centre(&s, offs[i % 4] * scale, c);
    noisy_sphere(&s, 6 + oracle_rng_int(&s, 8), 0, scale, c, ldexp(1.0, k - 20), &m.v, &m.nv, &m.t,
                 &m.nt);
    if (!CHECK(m.v && m.t)) {
      obj_free(&m);
      return;
    }
    snprintf(name, sizeof name, "sphere 2^%d, centre %g sizes away", k, offs[i % 4]);
    n = h_count(500);
    cr = closed_check(name, &m, 0, n, ldexp(1.0, k - 20), 1);
    /* The pseudo-normals decide nearly every sign at every scale (their
     * products once overflowed above 2^255 and underflowed below 2^-255,
     * and crossings decided all). */
    CHECK_MSG(cr >= 0 && cr <= 2 * n / 20 + 2, "%s: %ld of %ld signs from crossings", name, cr,
              2 * n);
    obj_free(&m);
  }
}

/* test_sign_domain in float: closed noisy spheres at scales 2^k, k in
 * [-38, 38], centred 0, 3, 1024 or 2^20 of their size from the origin
 * (coordinates below 2^(k-20) set to 0: every nonzero magnitude within
 * 2^+-58, the float domain of prox/closest.h), the vertices and the points
 * rounded to float. The sign of prox_sdf_distancef(), prox_sdf_insidef()
 * and prox_sdf_windingf() of 2 n points (uniform in the box enlarged by
 * 10%, within 1% of the diagonal of the surface) against the exact oracle
 * on those float coordinates; points within 1e-5 of the diagonal of the
 * surface (float rounding) left out. Pseudo-normals decide at least 90% of
 * the signs (75% 1024 sizes away), and vertices are at distance 0. */
static void test_sign_domain_float(void) {
  static const double offs[4] = {0, 3, 64, 1024};
  oracle_rng s = oracle_rng_make(0xf1a7);
  long wrong = 0, total = 0, uncertain = 0, nonzero = 0;
  int i;
  for (i = 0; i < 24; ++i) {
    int k = -38 + oracle_rng_int(&s, 77), a;
    double scale = ldexp(1.0, k), c[3], lo[3], hi[3], noise[3], diag = 0, fl = ldexp(1.0, k - 20);
    long n = h_count(500), q, cr = 0, bad = 0, near = 0;
    objmesh m;
    float *vf;
    prox_meshf mf;
    prox_bvhf *bvh = NULL;
    prox_sdff *sdf = NULL;
    oracle3 o;
    size_t j;
    memset(&m, 0, sizeof m);
    noisy_centre(&s, offs[i % 4] * scale, c);
    noisy_sphere(&s, 6 + oracle_rng_int(&s, 8), 0, scale, c, fl, &m.v, &m.nv, &m.t, &m.nt);
    vf = (float *)malloc(3 * m.nv * sizeof *vf);
    if (!CHECK(m.v && m.t && vf)) {
      free(vf);
      obj_free(&m);
      return;
    }
    /* The oracle takes the float mesh's own coordinates. */
    for (j = 0; j < 3 * m.nv; ++j) {
      vf[j] = (float)m.v[j];
      m.v[j] = (double)vf[j];
    }
    memset(&mf, 0, sizeof mf);
    mf.vertices = vf;
    mf.vertex_count = m.nv;
    mf.indices = m.t;
    mf.triangle_count = m.nt;
    if (!CHECK_MSG(prox_bvh_buildf(&mf, NULL, NULL, &bvh, NULL) == PROX_OK &&
                       prox_sdf_buildf(&mf, bvh, NULL, NULL, NULL, &sdf, NULL) == PROX_OK,
                   "float sphere 2^%d: build", k)) {
      prox_bvh_freef(bvh);
      free(vf);
      obj_free(&m);
      continue;
    }
    CHECK_MSG(prox_sdf_methodf(sdf) == PROX_SIGN_PSEUDONORMAL, "float sphere 2^%d: method %d", k,
              prox_sdf_methodf(sdf));
    mesh_box(&m, lo, hi);
    for (a = 0; a < 3; ++a)
      diag += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    diag = sqrt(diag);
    for (a = 0; a < 3; ++a)
      noise[a] = 0.01 * diag;
    oracle_build(&o, &m);
    for (q = 0; q < 2 * n; ++q) {
      double p[3], w;
      prox_vec3f pf;
      prox_signedf r;
      int wind, want, in, cert = 0;
      query_point(&m, lo, hi, q >= n, noise, &s, p);
      for (a = 0; a < 3; ++a) {
        /* Rounded through a volatile: gcc 12 -O3 drops a plain
         * (double)(float) round trip. */
        volatile float x = (float)(fabs(p[a]) < fl ? 0 : p[a]);
        p[a] = (double)x;
      }
      pf = prox_v3f((float)p[0], (float)p[1], (float)p[2]);
      prox_sdf_distancef(sdf, pf, &r);
      if (r.method == PROX_SIGN_CROSSINGS) ++cr;
      if (!(fabs((double)r.distance) > 1e-5 * diag)) {
        ++near;
        continue;
      }
      if (!oracle_winding(&o, &m, p, &wind)) continue;
      want = wind >= 1;
      in = prox_sdf_insidef(sdf, pf, &cert);
      w = prox_sdf_windingf(sdf, pf);
      ++total;
      uncertain += !r.certain || !cert;
      if (r.inside != want || (r.distance < 0) != want || in != want || w != (double)wind) {
        ++wrong;
        if (++bad <= 3)
          CHECK_MSG(0,
                    "float sphere 2^%d, centre %g sizes away: p (%a %a %a) inside %d, "
                    "distance %g, inside() %d, winding() %g; exact winding %d",
                    k, offs[i % 4], p[0], p[1], p[2], r.inside, (double)r.distance, in, w, wind);
      }
    }
    /* 1024 sizes away, a float keeps 14 bits of the sphere's size: the
     * pseudo-normals' certainty bound (relative to the coordinates) then
     * leaves 8-15% of the points to crossings at every k; nearer, at most
     * about 2% (48 spheres of 8 seeds of this test). A scale defect gives
     * nearly all (test_sign_domain). */
    CHECK_MSG(cr <= 2 * n / (i % 4 == 3 ? 4 : 10) + 2,
              "float sphere 2^%d, centre %g sizes away: %ld of %ld signs from crossings", k,
              offs[i % 4], cr, 2 * n);
    CHECK_MSG(near <= 2 * n / 100 + 2,
              "float sphere 2^%d, centre %g sizes away: %ld of %ld points on the surface", k,
              offs[i % 4], near, 2 * n);
    for (j = 0; j < m.nv && j < 50; ++j)
      nonzero +=
          prox_sdf_distancef(sdf, prox_v3f(vf[3 * j], vf[3 * j + 1], vf[3 * j + 2]), NULL) != 0;
    oracle_free(&o);
    prox_sdf_freef(sdf);
    prox_bvh_freef(bvh);
    free(vf);
    obj_free(&m);
  }
  h_note("float spheres at 24 scales in 2^+-38: %ld signs, %ld wrong, %ld uncertain, %ld vertices "
         "not at distance 0",
         total, wrong, uncertain, nonzero);
  CHECK(wrong == 0 && uncertain == 0 && nonzero == 0 && total > 0);
}

static void test_sign_closed_meshes(void) {
  static const struct {
    const char *file;
    int self_crossing;
  } files[] = {
      {"bunny_watertight.obj", 0}, {"armadillo.obj", 0}, {"dragon.obj", 1},   {"spot.obj", 0},
      {"fandisk.obj", 0},          {"block.obj", 1},     {"adis16480.stl", 0}};
  size_t i;
  for (i = 0; i < sizeof files / sizeof files[0]; ++i)
    closed_mesh(files[i].file, files[i].self_crossing);
}

/* The generalized winding number summed over all triangles in long
 * double. */
static long double ref_winding(const objmesh *m, const double *p) {
  long double w = 0;
  size_t t;
  for (t = 0; t < m->nt; ++t) {
    long double x[3][3], l[3], det, den;
    int k, c;
    for (k = 0; k < 3; ++k) {
      const double *v = m->v + 3 * (size_t)m->t[3 * t + (size_t)k];
      for (c = 0; c < 3; ++c)
        x[k][c] = (long double)v[c] - p[c];
      l[k] = sqrtl(x[k][0] * x[k][0] + x[k][1] * x[k][1] + x[k][2] * x[k][2]);
    }
    det = x[0][0] * (x[1][1] * x[2][2] - x[1][2] * x[2][1]) -
          x[0][1] * (x[1][0] * x[2][2] - x[1][2] * x[2][0]) +
          x[0][2] * (x[1][0] * x[2][1] - x[1][1] * x[2][0]);
    den = l[0] * l[1] * l[2] + (x[0][0] * x[1][0] + x[0][1] * x[1][1] + x[0][2] * x[1][2]) * l[2] +
          (x[1][0] * x[2][0] + x[1][1] * x[2][1] + x[1][2] * x[2][2]) * l[0] +
          (x[2][0] * x[0][0] + x[2][1] * x[0][1] + x[2][2] * x[0][2]) * l[1];
    w += atan2l(det, den);
  }
  return w / (2.0L * 3.14159265358979323846264338327950288L);
}

/* The winding number of an open or non-manifold mesh file against the
 * long-double sum, at accuracies 2 (AUTO and WINDING), 3, 4, 6, 8 and
 * infinity. auto_exact: whether AUTO is expected to be exact there
 * (prox/sign.h: CROSSINGS on a mesh closed as a chain, or WINDING
 * evaluated exactly where its counted work is the smaller), agreeing to
 * rounding; else AUTO approximates (an error above 1e-9 shows it did). */
static void open_mesh(const char *file, int auto_exact) {
  objmesh m;
  double lo[3], hi[3], noise[3];
  static const double acc[] = {2, 2, 3, 4, 6, 8, INFINITY};
  long n = h_count(300), i;
  double *pts, *ref;
  oracle_rng rng;
  size_t a;
  int k;
  if (!load(file, &m)) return;
  mesh_box(&m, lo, hi);
  for (k = 0; k < 3; ++k)
    noise[k] = 0.01 * (hi[k] - lo[k]);
  pts = (double *)malloc(3 * (size_t)n * sizeof *pts);
  ref = (double *)malloc((size_t)n * sizeof *ref);
  rng = oracle_rng_make(0x77 + m.nt);
  for (i = 0; i < n; ++i) {
    /* Every other point within 1% of the box's size of a random point of
     * the surface. */
    query_point(&m, lo, hi, (int)(i % 2), noise, &rng, pts + 3 * i);
    ref[i] = (double)ref_winding(&m, pts + 3 * i);
  }
  for (a = 0; a < sizeof acc / sizeof acc[0]; ++a) {
    built b;
    double worst = 0;
    int method = a == 0 ? PROX_SIGN_AUTO : PROX_SIGN_WINDING;
    int exact = acc[a] == INFINITY || (a == 0 && auto_exact);
    if (!build(&b, m.v, m.nv, m.t, m.nt, method, acc[a])) {
      CHECK(0);
      continue;
    }
    CHECK_MSG(prox_sdf_method(b.sdf) ==
                  (a == 0 && auto_exact == 2 ? PROX_SIGN_CROSSINGS : PROX_SIGN_WINDING),
              "%s: method %d", file, prox_sdf_method(b.sdf));
    CHECK_MSG(prox_sdf_accuracy(b.sdf) == (exact ? INFINITY : acc[a]), "%s: accuracy %g", file,
              prox_sdf_accuracy(b.sdf));
    for (i = 0; i < n; ++i) {
      const double *p = pts + 3 * i;
      double w = prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2]));
      if (!(fabs(w - ref[i]) <= worst)) worst = fabs(w - ref[i]);
      if (exact && fabs(ref[i] - 0.5) > 1e-9) {
        /* Exact: the inside test is certain and right. */
        int c = 0, in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &c);
        CHECK_MSG(c && in == (ref[i] > 0.5),
                  "%s: p (%.17g %.17g %.17g) inside %d certain %d, "
                  "winding %.17g",
                  file, p[0], p[1], p[2], in, c, ref[i]);
      }
    }
    h_note("%s: %ld points, %s accuracy %g: largest winding number error %.3g", file, n,
           a == 0 ? "AUTO" : "WINDING", acc[a], worst);
    /* The default accuracy's error is within half the default tolerance
     * of the uncertain flag (0.25); accuracy 8 is ten times closer;
     * infinite accuracy (crossings and the boundary) agrees to rounding,
     * within the 1e-12 that its uncertain flag allows per boundary edge
     * (the teapot gives 1.7e-13 here, 2.8e-13 at --scale=20). */
    if (exact)
      CHECK_MSG(worst < 1e-12, "%s: %s accuracy %g: error %.3g", file, a == 0 ? "AUTO" : "WINDING",
                acc[a], worst);
    if (acc[a] == 2 && !exact) CHECK(worst < 0.125);
    if (a == 0 && !auto_exact) CHECK_MSG(worst > 1e-9, "%s: AUTO did not approximate", file);
    if (acc[a] == 8) CHECK(worst < 0.01);
    unbuild(&b);
  }
  free(pts);
  free(ref);
  obj_free(&m);
}

/* A bowl: the unit sphere's part below latitude `top` (radians), nlat
 * rings of nlon vertices above the south pole, outward triangles; its rim
 * (the top ring, every vertex at the same z) is its boundary. Returns the
 * vertex count; v holds 3 (1 + nlat nlon) doubles, t 3 nlon (2 nlat - 1)
 * indices. */
static size_t bowl(double top, int nlat, int nlon, double *v, uint32_t *t, size_t *nt) {
  size_t nv = 1, n = 0;
  int i, j;
  v[0] = v[1] = 0;
  v[2] = -1;
  for (i = 1; i <= nlat; ++i) {
    double phi = -1.5707963267948966 + (top + 1.5707963267948966) * i / nlat;
    for (j = 0; j < nlon; ++j, ++nv) {
      double th = 6.283185307179586 * j / nlon;
      v[3 * nv] = cos(phi) * cos(th);
      v[3 * nv + 1] = cos(phi) * sin(th);
      v[3 * nv + 2] = sin(phi);
    }
  }
  for (j = 0; j < nlon; ++j, ++n) {
    t[3 * n] = 0;
    t[3 * n + 1] = (uint32_t)(1 + (j + 1) % nlon);
    t[3 * n + 2] = (uint32_t)(1 + j);
  }
  for (i = 1; i < nlat; ++i)
    for (j = 0; j < nlon; ++j) {
      uint32_t a = (uint32_t)(1 + (i - 1) * nlon + j),
               b = (uint32_t)(1 + (i - 1) * nlon + (j + 1) % nlon);
      uint32_t c = a + (uint32_t)nlon, d = b + (uint32_t)nlon;
      t[3 * n] = a, t[3 * n + 1] = b, t[3 * n + 2] = d, ++n;
      t[3 * n] = a, t[3 * n + 1] = d, t[3 * n + 2] = c, ++n;
    }
  *nt = n;
  return nv;
}

/* AUTO on open meshes whose boundary is small beside them (prox/sign.h:
 * the crossing count of the mesh less its caps, plus the caps' winding
 * number): bowls (a hemisphere, a shallow one, a deep one) whose rim lies
 * in a plane z = zr, against the long-double sum over the mesh
 * (ref_winding): points uniform in the box enlarged by 20%, near the
 * surface, and on the rim's plane and within 1e-300, 1e-15 and 1e-9 of it
 * (on or beside the caps, where their solid angles jump and the count must
 * agree); within 0.0625 at the default accuracy 2 (0.013-0.021 seen), and the inside test right
 * wherever the sum is more than 0.05 from 1/2. Double and float meshes.
 * Then prox_sdf_build with an allocator failing at each call in turn:
 * out of memory and nothing leaked, or an object that answers the same. */
static void test_sign_capped(void) {
  static const double tops[3] = {0.0, -0.6, 0.9};
  static double v[3 * (1 + 24 * 48)];
  static float vf[3 * (1 + 24 * 48)];
  static double vd[3 * (1 + 24 * 48)]; /* vf in double */
  static uint32_t t[3 * 48 * 47];
  oracle_rng rng = oracle_rng_make(0xcab);
  int b, prec, capped = 0;
  for (b = 0; b < 3; ++b) {
    objmesh m;
    size_t nt, nv = bowl(tops[b], 24, 48, v, t, &nt), j;
    double zr = v[3 * (nv - 1) + 2], worst[2] = {0, 0};
    long n = h_count(1500), i, wrong[2] = {0, 0}, onplane = 0;
    built bd;
    prox_meshf mf;
    prox_bvhf *bf = NULL;
    prox_sdff *sf = NULL;
    prox_sdf_options o = prox_sdf_options_default();
    memset(&m, 0, sizeof m);
    m.v = v;
    m.nv = nv;
    m.t = t;
    m.nt = nt;
    for (j = 0; j < 3 * nv; ++j) {
      vf[j] = (float)v[j];
      vd[j] = (double)vf[j];
    }
    if (!CHECK(build(&bd, v, nv, t, nt, PROX_SIGN_AUTO, 2.0))) continue;
    /* AUTO weighs the caps against the mesh's hierarchy and the exact
     * evaluation (prox/sign.h); whichever it kept is held to the bounds
     * below, and the caps must be kept on at least one bowl. */
    CHECK(prox_sdf_method(bd.sdf) == PROX_SIGN_WINDING);
    CHECK(prox_sdf_caps(bd.sdf) == 0 || prox_sdf_accuracy(bd.sdf) == 2.0);
    capped += prox_sdf_caps(bd.sdf) > 0;
    memset(&mf, 0, sizeof mf);
    mf.vertices = vf;
    mf.vertex_count = nv;
    mf.indices = t;
    mf.triangle_count = nt;
    if (!CHECK(prox_bvh_buildf(&mf, NULL, NULL, &bf, NULL) == PROX_OK &&
               prox_sdf_buildf(&mf, bf, NULL, &o, NULL, &sf, NULL) == PROX_OK)) {
      prox_bvh_freef(bf);
      unbuild(&bd);
      continue;
    }
    for (i = 0; i < n; ++i) {
      double p[3], ref, w;
      int k;
      for (k = 0; k < 3; ++k)
        p[k] = oracle_rng_range(&rng, -1.2, 1.2);
      if (i % 3 == 1) {
        /* Near the surface. */
        const double *x = v + 3 * (oracle_rng_next(&rng) % nv);
        for (k = 0; k < 3; ++k)
          p[k] = x[k] + oracle_rng_range(&rng, -0.03, 0.03);
      } else if (i % 3 == 2) {
        static const double off[5] = {0, 1e-300, 1e-15, 1e-9, 0};
        int o5 = (int)(i / 3 % 5);
        p[2] = zr + (o5 == 4 ? -1e-15 : off[o5]);
        onplane += o5 == 0;
      }
      for (prec = 0; prec < 2; ++prec) {
        int c = 0, in;
        if (prec) {
          for (k = 0; k < 3; ++k) {
            volatile float x = (float)p[k];
            p[k] = (double)x;
          }
        }
        /* The float mesh's sum is over its own (rounded) vertices. */
        m.v = prec ? vd : v;
        ref = (double)ref_winding(&m, p);
        w = prec ? prox_sdf_windingf(sf, prox_v3f((float)p[0], (float)p[1], (float)p[2]))
                 : prox_sdf_winding(bd.sdf, prox_v3(p[0], p[1], p[2]));
        in = prec ? prox_sdf_insidef(sf, prox_v3f((float)p[0], (float)p[1], (float)p[2]), &c)
                  : prox_sdf_inside(bd.sdf, prox_v3(p[0], p[1], p[2]), &c);
        if (!(fabs(w - ref) <= worst[prec])) worst[prec] = fabs(w - ref);
        if (fabs(ref - 0.5) > 0.05 && in != (ref > 0.5) && ++wrong[prec] <= 3)
          CHECK_MSG(0, "bowl %d (%s): p (%.17g %.17g %.17g) inside %d, winding %.17g, sum %.17g", b,
                    prec ? "float" : "double", p[0], p[1], p[2], in, w, ref);
      }
    }
    h_note("bowl to latitude %.1f, %zu triangles, %ld points (%ld on the rim's plane): AUTO "
           "(%zu caps, accuracy %g): largest winding number error %.3g (double), %.3g (float)",
           tops[b], nt, n, onplane, prox_sdf_caps(bd.sdf), prox_sdf_accuracy(bd.sdf), worst[0],
           worst[1]);
    CHECK(prox_sdf_caps(bd.sdf) == prox_sdf_capsf(sf));
    CHECK_MSG(worst[0] < 0.0625 && worst[1] < 0.0625, "bowl %d: errors %.3g %.3g", b, worst[0],
              worst[1]);
    CHECK(wrong[0] == 0 && wrong[1] == 0);
    prox_sdf_freef(sf);
    prox_bvh_freef(bf);
    {
      /* Allocation failures at every call of the build. */
      prox_allocator a;
      fail_alloc f = {0, 0, 0};
      long k, total, oom = 0;
      prox_sdf *s = NULL;
      prox_vec3 q = prox_v3(0.1, -0.2, zr - 0.3);
      double want = prox_sdf_winding(bd.sdf, q);
      a = fa_allocator(&f);
      CHECK(prox_sdf_build(&bd.mesh, bd.bvh, NULL, &o, &a, &s, NULL) == PROX_OK);
      prox_sdf_free(s);
      total = f.calls;
      for (k = 1; k <= total; ++k) {
        prox_status st;
        f.calls = 0;
        f.fail_at = k;
        f.live = 0;
        s = NULL;
        st = prox_sdf_build(&bd.mesh, bd.bvh, NULL, &o, &a, &s, NULL);
        if (st == PROX_OK) {
          CHECK(prox_sdf_winding(s, q) == want);
          prox_sdf_free(s);
        } else {
          ++oom;
          CHECK(st == PROX_ERROR_OUT_OF_MEMORY && s == NULL);
        }
        CHECK_MSG(f.live == 0, "bowl %d, call %ld: %ld blocks leaked", b, k, f.live);
      }
      CHECK(oom >= 1);
    }
    unbuild(&bd);
  }
  CHECK_MSG(capped >= 1, "AUTO kept the caps on no bowl");
}

/* The caps' plane, tilted: the hemisphere bowl of test_sign_capped turned
 * by an irrational rotation, and points on its rim's plane (the rim's
 * centre plus an offset in the plane, rounded to double: within rounding
 * of the caps, on either side or on them) and 1e-15 off it. There the
 * exact crossing count and the rounded sign of a cap's solid angle may
 * disagree; such points (sdf_solid_terms's unsure) take the mesh's
 * hierarchy. Within 0.0625 of the long-double sum, the inside test right
 * wherever the sum is more than 0.05 from 1/2. */
static void test_sign_capped_tilted(void) {
  static double v[3 * (1 + 24 * 48)];
  static uint32_t t[3 * 48 * 47];
  oracle_rng rng = oracle_rng_make(0x7117);
  double r[3][3], ca = cos(0.7), sa = sin(0.7), cb = cos(1.1), sb = sin(1.1), worst = 0;
  size_t nt, nv = bowl(0.0, 24, 48, v, t, &nt), j;
  long n = h_count(2000), i, wrong = 0;
  objmesh m;
  built b;
  int k;
  /* r = rotation about z by 0.7, then about x by 1.1. */
  r[0][0] = ca, r[0][1] = -sa, r[0][2] = 0;
  r[1][0] = cb * sa, r[1][1] = cb * ca, r[1][2] = -sb;
  r[2][0] = sb * sa, r[2][1] = sb * ca, r[2][2] = cb;
  for (j = 0; j < nv; ++j) {
    double x[3];
    for (k = 0; k < 3; ++k)
      x[k] = r[k][0] * v[3 * j] + r[k][1] * v[3 * j + 1] + r[k][2] * v[3 * j + 2];
    memcpy(v + 3 * j, x, sizeof x);
  }
  memset(&m, 0, sizeof m);
  m.v = v;
  m.nv = nv;
  m.t = t;
  m.nt = nt;
  if (!CHECK(build(&b, v, nv, t, nt, PROX_SIGN_AUTO, 2.0))) return;
  CHECK(prox_sdf_caps(b.sdf) > 0);
  for (i = 0; i < n; ++i) {
    /* The rim's plane is z = 0 before the rotation. */
    double a = oracle_rng_range(&rng, 0, 6.283185307179586), d = 0.9 * oracle_rng_unit(&rng);
    double u[3], p[3], ref, w;
    int c = 0, in;
    u[0] = d * cos(a);
    u[1] = d * sin(a);
    u[2] = i % 4 == 1 ? 1e-15 : i % 4 == 3 ? -1e-15 : 0;
    for (k = 0; k < 3; ++k)
      p[k] = r[k][0] * u[0] + r[k][1] * u[1] + r[k][2] * u[2];
    ref = (double)ref_winding(&m, p);
    w = prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2]));
    in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &c);
    if (!(fabs(w - ref) <= worst)) worst = fabs(w - ref);
    if (fabs(ref - 0.5) > 0.05 && in != (ref > 0.5)) ++wrong;
  }
  h_note("tilted bowl, %ld points on and beside its caps' plane: largest winding number error "
         "%.3g, %ld wrong inside answers",
         n, worst, wrong);
  CHECK(worst < 0.0625 && wrong == 0);
  unbuild(&b);
}

/* The caps where boundary loops meet at a vertex, and where the boundary
 * has multiplicity 2: a noisy sphere (30 rings) without two triangles
 * that share one vertex and no edge (its boundary two triangles through
 * that vertex, which the walk of caps_build takes apart), then the same
 * mesh with every triangle twice (boundary multiplicity 2, winding number
 * 2 inside). AUTO must keep the caps on both, and its winding numbers stay
 * within 0.0625 of the long-double sum (ref_winding) at points uniform in
 * the box and near the holes, the inside test right wherever the sum is
 * more than 0.05 from 1/2. */
static void test_sign_capped_loops(void) {
  oracle_rng rng = oracle_rng_make(0x100b);
  double c[3] = {0, 0, 0}, *v = NULL;
  uint32_t *t = NULL, *t2, pivot = 0;
  size_t nv, nt, i, other = 0;
  int twice;
  noisy_sphere(&rng, 30, 0, 1.0, c, 0, &v, &nv, &t, &nt);
  if (!CHECK(v && t)) {
    free(v);
    free(t);
    return;
  }
  /* A triangle sharing exactly one vertex with triangle 0, no edge. */
  for (i = 1; i < nt && !other; ++i) {
    int shared = 0, a, b;
    for (a = 0; a < 3; ++a)
      for (b = 0; b < 3; ++b)
        if (t[3 * i + (size_t)a] == t[(size_t)b]) {
          ++shared;
          pivot = t[(size_t)b];
        }
    if (shared == 1) other = i;
  }
  if (!CHECK(other > 0)) {
    free(v);
    free(t);
    return;
  }
  /* Triangles 0 and `other` removed (moved past the end). */
  memmove(t + 3 * other, t + 3 * (other + 1), 3 * (nt - other - 1) * sizeof *t);
  memmove(t, t + 3, 3 * (nt - 2) * sizeof *t);
  nt -= 2;
  t2 = (uint32_t *)malloc(6 * nt * sizeof *t2);
  if (!CHECK(t2)) {
    free(v);
    free(t);
    return;
  }
  memcpy(t2, t, 3 * nt * sizeof *t);
  memcpy(t2 + 3 * nt, t, 3 * nt * sizeof *t);
  for (twice = 0; twice < 2; ++twice) {
    objmesh m;
    built b;
    long n = h_count(600), q, wrong = 0;
    double worst = 0, hole[3];
    memset(&m, 0, sizeof m);
    m.v = v;
    m.nv = nv;
    m.t = twice ? t2 : t;
    m.nt = twice ? 2 * nt : nt;
    if (!CHECK(build(&b, m.v, m.nv, m.t, m.nt, PROX_SIGN_AUTO, 2.0))) continue;
    CHECK_MSG(prox_sdf_caps(b.sdf) == (twice ? 4u : 2u), "%s: %zu caps", twice ? "twice" : "once",
              prox_sdf_caps(b.sdf));
    /* The shared vertex of the two holes. */
    memcpy(hole, v + 3 * (size_t)pivot, sizeof hole);
    for (q = 0; q < n; ++q) {
      double p[3], ref, w;
      int k, cert = 0, in;
      for (k = 0; k < 3; ++k)
        p[k] =
            q % 2 ? oracle_rng_range(&rng, -1.3, 1.3) : hole[k] + oracle_rng_range(&rng, -0.1, 0.1);
      ref = (double)ref_winding(&m, p);
      w = prox_sdf_winding(b.sdf, prox_v3(p[0], p[1], p[2]));
      in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &cert);
      if (!(fabs(w - ref) <= worst)) worst = fabs(w - ref);
      if (fabs(ref - 0.5) > 0.05 && in != (ref > 0.5) && ++wrong <= 3)
        CHECK_MSG(0, "%s: p (%.17g %.17g %.17g) inside %d, winding %.17g, sum %.17g",
                  twice ? "twice" : "once", p[0], p[1], p[2], in, w, ref);
    }
    h_note("sphere without two triangles through one vertex%s: %zu caps, %ld points, largest "
           "winding number error %.3g",
           twice ? ", every triangle twice" : "", prox_sdf_caps(b.sdf), n, worst);
    CHECK(worst < 0.0625 && wrong == 0);
    unbuild(&b);
  }
  free(t2);
  free(v);
  free(t);
}

/* A winding-number object (WINDING) of either precision: prec 0 over the
 * double vertices v, 1 over the float vertices vf. */
typedef struct wobj {
  int prec;
  built b;
  prox_meshf mf;
  prox_bvhf *bvhf;
  prox_sdff *sdff;
} wobj;

static int wobj_build(wobj *w, int prec, const double *v, const float *vf, const objmesh *m,
                      int method, double accuracy) {
  prox_sdf_options o = prox_sdf_options_default();
  memset(w, 0, sizeof *w);
  w->prec = prec;
  if (!prec) return build(&w->b, v, m->nv, m->t, m->nt, method, accuracy);
  w->mf.vertices = vf;
  w->mf.vertex_count = m->nv;
  w->mf.indices = m->t;
  w->mf.triangle_count = m->nt;
  o.method = method;
  o.accuracy = accuracy;
  if (prox_bvh_buildf(&w->mf, NULL, NULL, &w->bvhf, NULL) == PROX_OK &&
      prox_sdf_buildf(&w->mf, w->bvhf, NULL, &o, NULL, &w->sdff, NULL) == PROX_OK)
    return 1;
  prox_bvh_freef(w->bvhf);
  return 0;
}

/* The winding number at p (float objects: p rounded to float). */
static double wobj_winding(const wobj *w, const double *p) {
  if (!w->prec) return prox_sdf_winding(w->b.sdf, prox_v3(p[0], p[1], p[2]));
  return prox_sdf_windingf(w->sdff, prox_v3f((float)p[0], (float)p[1], (float)p[2]));
}

static void wobj_free(wobj *w) {
  if (!w->prec) {
    unbuild(&w->b);
    return;
  }
  prox_sdf_freef(w->sdff);
  prox_bvh_freef(w->bvhf);
}

/* The winding number of an open noisy sphere (its south pole's fan
 * partly removed) at scales 2^k drawn across the domain, k in [-480, 478]
 * (float: the sphere and the points rounded to float, k in [-38, 38]): the
 * mesh and the points multiplied by 2^k exactly, so the winding number is
 * the unscaled one, summed in long double (ref_winding). Exact (accuracy
 * infinity): within 1e-9; the default accuracy, and AUTO (the hole's cap:
 * test_sign_capped): within 0.125, finite, and
 * (double) at k in [-100, 100] (every other scale), where the tree is the
 * one at scale 1 scaled, equal to its value at scale 1. (Its boundary
 * terms once took their apex at distance 1, rounded onto the point above
 * 2^53, and its solid angles and far-field terms overflowed or underflowed
 * in products of three beyond 2^+-340: NaN.) */
static void winding_domain(int prec) {
  oracle_rng s = oracle_rng_make(prec ? 0x3d2 : 0x3d1);
  double c[3] = {0, 0, 0}, drift = 0;
  objmesh m;
  long bad = 0, n = 0;
  wobj unit;
  size_t j;
  int i, a;
  memset(&m, 0, sizeof m);
  noisy_sphere(&s, 10, 0, 1.0, c, 0, &m.v, &m.nv, &m.t, &m.nt);
  if (!CHECK(m.v && m.t)) {
    obj_free(&m);
    return;
  }
  m.nt -= 6;
  if (prec)
    for (j = 0; j < 3 * m.nv; ++j) {
      volatile float x = (float)m.v[j];
      m.v[j] = (double)x;
    }
  /* The default accuracy at scale 1, which every scale should repeat. */
  if (!CHECK(prec || wobj_build(&unit, 0, m.v, NULL, &m, PROX_SIGN_WINDING, 2.0))) {
    obj_free(&m);
    return;
  }
  for (i = 0; i < 16; ++i) {
    /* Double: every other scale where the tree is the one at scale 1,
     * scaled. */
    int k = prec    ? -38 + oracle_rng_int(&s, 77)
            : i % 2 ? -100 + oracle_rng_int(&s, 201)
                    : -480 + oracle_rng_int(&s, 959);
    double *v = (double *)malloc(3 * m.nv * sizeof *v);
    float *vf = (float *)malloc(3 * m.nv * sizeof *vf);
    if (!CHECK(v && vf)) {
      free(v);
      free(vf);
      break;
    }
    for (j = 0; j < 3 * m.nv; ++j) {
      v[j] = ldexp(m.v[j], k);
      vf[j] = (float)v[j];
    }
    for (a = 0; a < 3; ++a) {
      wobj w;
      long q;
      if (!CHECK_MSG(wobj_build(&w, prec, v, vf, &m, a == 2 ? PROX_SIGN_AUTO : PROX_SIGN_WINDING,
                                a == 1 ? INFINITY : 2.0),
                     "%s winding at 2^%d: build", prec ? "float" : "double", k))
        continue;
      for (q = 0; q < h_count(50); ++q) {
        double p[3], pk[3], got, ref;
        int d;
        /* Uniform in [-1.2, 1.2]^3, or within 0.1 of a vertex. */
        for (d = 0; d < 3; ++d) {
          p[d] = q % 2 ? oracle_rng_range(&s, -1.2, 1.2)
                       : m.v[3 * (oracle_rng_next(&s) % m.nv) + (size_t)d] +
                             oracle_rng_range(&s, -0.1, 0.1);
          if (prec) {
            volatile float x = (float)p[d];
            p[d] = (double)x;
          }
          pk[d] = ldexp(p[d], k);
        }
        ref = (double)ref_winding(&m, p);
        got = wobj_winding(&w, pk);
        ++n;
        if (!prec && !a && k >= -100 && k <= 100) {
          /* Where the tree's float boxes are normal floats the tree is
           * the one at scale 1, scaled (test_bvh_domain), and so are the
           * clusters' moments: the same number. */
          double w1 = wobj_winding(&unit, p);
          if (!(fabs(got - w1) <= drift)) drift = fabs(got - w1);
        }
        if (!(fabs(got - ref) <= (a == 1 ? 1e-9 : 0.125))) {
          if (++bad <= 5)
            CHECK_MSG(0, "%s winding at 2^%d (%s): %.17g, long double sum %.17g",
                      prec ? "float" : "double", k,
                      a == 1   ? "exact"
                      : a == 2 ? "AUTO, the caps"
                               : "default accuracy",
                      got, ref);
        }
      }
      wobj_free(&w);
    }
    free(v);
    free(vf);
  }
  h_note("%ld %s winding numbers at scales across the domain, %ld wrong", n,
         prec ? "float" : "double", bad);
  if (!prec)
    h_note("the default accuracy at 2^-100 to 2^100: up to %.3g from its value at scale 1", drift);
  CHECK(bad == 0);
  CHECK_MSG(drift == 0, "default accuracy: %.3g from its value at scale 1", drift);
  if (!prec) wobj_free(&unit);
  obj_free(&m);
}

static void test_sign_winding_domain(void) {
  winding_domain(0);
}

static void test_sign_winding_domain_float(void) {
  winding_domain(1);
}

/* AUTO's choice of the exact winding number (prox/sign.h) on a mesh made
 * here: a unit cube with its bottom face twice (non-manifold, 4 boundary
 * edges of multiplicity 1): the exact evaluation's work (a segment and 4
 * boundary edges) is below the hierarchy's (14 triangles near, dipoles
 * far), so AUTO's winding numbers agree with the long-double sum to
 * rounding, near the cube and 10 to 1000 sizes away, where the forced
 * hierarchy at the same accuracy is off by more. */
static void test_sign_auto_exact(void) {
  double v[24];
  uint32_t t[42];
  objmesh m;
  built a, h;
  oracle_rng rng = oracle_rng_make(0xa0e);
  double worst_auto = 0, worst_h = 0;
  long n = h_count(400), i;
  int k;
  cube(v, t, 0, 0);
  for (k = 0; k < 6; ++k)
    t[36 + k] = t[k];
  memset(&m, 0, sizeof m);
  m.v = v;
  m.nv = 8;
  m.t = t;
  m.nt = 14;
  if (!build(&a, v, 8, t, 14, PROX_SIGN_AUTO, 2.0)) {
    CHECK(0);
    return;
  }
  if (!build(&h, v, 8, t, 14, PROX_SIGN_WINDING, 2.0)) {
    CHECK(0);
    unbuild(&a);
    return;
  }
  CHECK(prox_sdf_method(a.sdf) == PROX_SIGN_WINDING);
  CHECK(prox_sdf_accuracy(a.sdf) == INFINITY && prox_sdf_accuracy(h.sdf) == 2.0);
  CHECK(isnan(prox_sdf_accuracy(NULL)) && isnan(prox_sdf_accuracyf(NULL)));
  CHECK(prox_sdf_caps(NULL) == 0 && prox_sdf_capsf(NULL) == 0);
  CHECK(prox_sdf_caps(a.sdf) == 0 && prox_sdf_caps(h.sdf) == 0);
  for (i = 0; i < n; ++i) {
    double p[3], ref, wa, wh, r = i % 2 ? 1.0 : pow(10.0, 1 + 2 * oracle_rng_unit(&rng));
    for (k = 0; k < 3; ++k)
      p[k] = 0.5 + r * (2 * oracle_rng_unit(&rng) - 1);
    ref = (double)ref_winding(&m, p);
    wa = prox_sdf_winding(a.sdf, prox_v3(p[0], p[1], p[2]));
    wh = prox_sdf_winding(h.sdf, prox_v3(p[0], p[1], p[2]));
    if (!(fabs(wa - ref) <= worst_auto)) worst_auto = fabs(wa - ref);
    if (!(fabs(wh - ref) <= worst_h)) worst_h = fabs(wh - ref);
  }
  {
    /* Side 1e308: the box's diagonal overflows, AUTO keeps the hierarchy
     * (and builds). */
    double big[24];
    built g;
    for (k = 0; k < 24; ++k)
      big[k] = v[k] * 1e308;
    if (build(&g, big, 8, t, 14, PROX_SIGN_AUTO, 2.0)) {
      CHECK(prox_sdf_method(g.sdf) == PROX_SIGN_WINDING && prox_sdf_accuracy(g.sdf) == 2.0);
      unbuild(&g);
    } else {
      CHECK(0);
    }
  }
  h_note("cube with a doubled face, %ld points: AUTO off by %.3g, WINDING at accuracy 2 by %.3g", n,
         worst_auto, worst_h);
  CHECK_MSG(worst_auto < 1e-12, "AUTO: %.3g", worst_auto);
  CHECK_MSG(worst_h > 1e-12, "WINDING: %.3g", worst_h);
  unbuild(&a);
  unbuild(&h);
  {
    /* The float object makes the same choice (the cube is exact in
     * float; the points are rounded to float first). */
    float vf[24];
    prox_meshf mf;
    prox_bvhf *bf = NULL;
    prox_sdff *sf = NULL;
    prox_sdf_options o = prox_sdf_options_default();
    double worst_f = 0;
    float_mesh(&mf, vf, v, 8, t, 14);
    if (prox_bvh_buildf(&mf, NULL, NULL, &bf, NULL) != PROX_OK ||
        prox_sdf_buildf(&mf, bf, NULL, &o, NULL, &sf, NULL) != PROX_OK) {
      CHECK(0);
      prox_bvh_freef(bf);
      return;
    }
    CHECK(prox_sdf_methodf(sf) == PROX_SIGN_WINDING && prox_sdf_accuracyf(sf) == INFINITY);
    for (i = 0; i < n; ++i) {
      double p[3], ref, wf, r = i % 2 ? 1.0 : pow(10.0, 1 + 2 * oracle_rng_unit(&rng));
      for (k = 0; k < 3; ++k) {
        volatile float f = (float)(0.5 + r * (2 * oracle_rng_unit(&rng) - 1));
        p[k] = (double)f;
      }
      ref = (double)ref_winding(&m, p);
      wf = prox_sdf_windingf(sf, prox_v3f((float)p[0], (float)p[1], (float)p[2]));
      if (!(fabs(wf - ref) <= worst_f)) worst_f = fabs(wf - ref);
    }
    h_note("float: AUTO off by %.3g", worst_f);
    CHECK_MSG(worst_f < 1e-12, "AUTO, float: %.3g", worst_f);
    prox_sdf_freef(sf);
    prox_bvh_freef(bf);
  }
}

static void test_sign_open_meshes(void) {
  /* The bunny's 223 and the teapot's 1036 boundary edges make the exact
   * evaluation the dearer: AUTO approximates. cycloidal.ply is closed as
   * a chain (non-manifold edges, each traversed as often one way as the
   * other): AUTO counts crossings (2). */
  open_mesh("bunny.obj", 0);
  open_mesh("teapot.obj", 0);
  open_mesh("cycloidal.ply", 2);
}

/* Grids and batches: the same bits as point queries, for any thread count. */
static void test_sign_grid_batch(void) {
  double v[24];
  uint32_t t[36];
  built b;
  cube(v, t, 0, 0);
  if (!build(&b, v, 8, t, 12, PROX_SIGN_AUTO, 2.0)) {
    CHECK(0);
    return;
  }
  {
    enum { NX = 17, NY = 13, NZ = 11 };
    static float g1[NX * NY * NZ], g2[NX * NY * NZ];
    prox_vec3 o = prox_v3(-0.3, -0.25, -0.2), s = prox_v3(0.1, 0.125, 0.15);
    int threads[3] = {1, 2, 7}, ti, i, j, k;
    long bad = 0;
    CHECK(prox_sdf_grid(b.sdf, o, s, NX, NY, NZ, g1, 1) == PROX_OK);
    for (k = 0; k < NZ; ++k)
      for (j = 0; j < NY; ++j)
        for (i = 0; i < NX; ++i) {
          prox_vec3 p = prox_v3(o.x + i * s.x, o.y + j * s.y, o.z + k * s.z);
          double pp[3] = {p.x, p.y, p.z}, lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
          float want = (float)prox_sdf_distance(b.sdf, p, NULL);
          if (g1[(k * NY + j) * NX + i] != want) ++bad;
          if (fabs(g1[(k * NY + j) * NX + i] - box_sdist(pp, lo, hi)) > 1e-6) ++bad;
        }
    CHECK(bad == 0);
    for (ti = 0; ti < 3; ++ti) {
      CHECK(prox_sdf_grid(b.sdf, o, s, NX, NY, NZ, g2, threads[ti]) == PROX_OK);
      CHECK(memcmp(g1, g2, sizeof g1) == 0);
    }
    CHECK(prox_sdf_grid(b.sdf, o, s, 0, NY, NZ, g2, 1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_sdf_grid(b.sdf, o, s, NX, NY, NZ, g2, -1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_sdf_grid(b.sdf, prox_v3(NAN, 0, 0), s, NX, NY, NZ, g2, 1) ==
          PROX_ERROR_INVALID_ARGUMENT);
  }
  {
    enum { N = 1000 };
    static prox_vec3 pts[N];
    static double d1[N], d2[N];
    oracle_rng rng;
    int i, ti, threads[3] = {1, 2, 7};
    rng = oracle_rng_make(99);
    for (i = 0; i < N; ++i)
      pts[i] = prox_v3(3 * oracle_rng_unit(&rng) - 1, 3 * oracle_rng_unit(&rng) - 1,
                       3 * oracle_rng_unit(&rng) - 1);
    pts[5] = prox_v3(NAN, 0, 0);
    for (i = 0; i < N; ++i)
      d1[i] = prox_sdf_distance(b.sdf, pts[i], NULL);
    for (ti = 0; ti < 3; ++ti) {
      CHECK(prox_sdf_batch(b.sdf, pts, N, d2, NULL, threads[ti]) == PROX_OK);
      CHECK(memcmp(d1, d2, sizeof d1) == 0);
    }
  }
  {
    /* The inside batch: each answer the box's (a point off the surface:
     * inside exactly when every coordinate is in (0, 1)) and the single
     * query's, for 1, 2 and 7 threads, with and without the certainty. */
    enum { N = 3000 };
    static prox_vec3 pts[N];
    static uint8_t in1[N], c1[N], in2[N], c2[N];
    oracle_rng rng;
    int i, ti, threads[3] = {1, 2, 7};
    long bad = 0;
    rng = oracle_rng_make(7);
    for (i = 0; i < N; ++i)
      pts[i] = prox_v3(3 * oracle_rng_unit(&rng) - 1, 3 * oracle_rng_unit(&rng) - 1,
                       3 * oracle_rng_unit(&rng) - 1);
    pts[5] = prox_v3(NAN, 0.5, 0.5);
    pts[6] = prox_v3(0.5, INFINITY, 0.5);
    for (i = 0; i < N; ++i) {
      int c = -1, in = prox_sdf_inside(b.sdf, pts[i], &c), want = 1, k;
      const double x[3] = {pts[i].x, pts[i].y, pts[i].z};
      in1[i] = (uint8_t)in;
      c1[i] = (uint8_t)c;
      for (k = 0; k < 3; ++k)
        want &= x[k] > 0 && x[k] < 1;
      bad += in != want || c != (i != 5 && i != 6);
    }
    CHECK_MSG(bad == 0, "inside against the box: %ld wrong", bad);
    for (ti = 0; ti < 3; ++ti) {
      memset(in2, 9, sizeof in2);
      memset(c2, 9, sizeof c2);
      CHECK(prox_sdf_inside_batch(b.sdf, pts, N, in2, ti == 1 ? NULL : c2, threads[ti]) == PROX_OK);
      CHECK(memcmp(in1, in2, sizeof in1) == 0);
      if (ti != 1) CHECK(memcmp(c1, c2, sizeof c1) == 0);
    }
    CHECK(prox_sdf_inside_batch(NULL, pts, N, in2, NULL, 1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_sdf_inside_batch(b.sdf, NULL, N, in2, NULL, 1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_sdf_inside_batch(b.sdf, pts, N, NULL, c2, 1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_sdf_inside_batch(b.sdf, NULL, 0, NULL, NULL, 1) == PROX_OK);
    CHECK(prox_sdf_inside_batch(b.sdf, pts, N, in2, NULL, -1) == PROX_ERROR_INVALID_ARGUMENT);
    CHECK(prox_sdf_batch(b.sdf, pts, 10, NULL, NULL, 1) == PROX_ERROR_INVALID_ARGUMENT);
    {
      static double dd[N];
      CHECK(prox_sdf_batch(b.sdf, pts, N, dd, NULL, -1) == PROX_ERROR_INVALID_ARGUMENT);
      CHECK(prox_sdf_batch(b.sdf, pts, N, dd, NULL, 0) == PROX_OK);
    }
  }
  unbuild(&b);
}

/* Float meshes: the cube cases in float. */
static void test_sign_float(void) {
  double v[24];
  float vf[24];
  uint32_t t[36];
  prox_meshf m;
  prox_bvhf *bvh = NULL;
  prox_sdff *sdf = NULL;
  int i, wrong = 0, n = 0;
  cube(v, t, 0, 0);
  float_mesh(&m, vf, v, 8, t, 12);
  CHECK(prox_bvh_buildf(&m, NULL, NULL, &bvh, NULL) == PROX_OK);
  CHECK(prox_sdf_buildf(&m, bvh, NULL, NULL, NULL, &sdf, NULL) == PROX_OK);
  if (!sdf) {
    prox_bvh_freef(bvh);
    return;
  }
  for (i = 0; i < 2000; ++i) {
    float p[3];
    double pd[3], lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, exact;
    prox_signedf r;
    int k;
    for (k = 0; k < 3; ++k) {
      p[k] = (float)(((i * (k + 3) * 7919) % 1000) / 500.0 - 0.5);
      pd[k] = p[k];
    }
    exact = box_sdist(pd, lo, hi);
    if (fabs(exact) < 1e-5) continue;
    prox_sdf_distancef(sdf, prox_v3f(p[0], p[1], p[2]), &r);
    ++n;
    if ((r.distance < 0) != (exact < 0) || !r.certain) ++wrong;
  }
  h_note("float cube: %d points, %d wrong or uncertain", n, wrong);
  CHECK(wrong == 0 && n > 1000);
  {
    /* The float inside batch against the single queries (2 threads) and,
     * off the cube's surface, against the box. */
    enum { N = 1000 };
    static prox_vec3f pts[N];
    static uint8_t in[N], c[N];
    int bad = 0, k;
    for (i = 0; i < N; ++i)
      pts[i] = prox_v3f((float)(((i * 3 * 7919) % 1000) / 500.0 - 0.5),
                        (float)(((i * 4 * 7919) % 1000) / 500.0 - 0.5),
                        (float)(((i * 5 * 7919) % 1000) / 500.0 - 0.5));
    CHECK(prox_sdf_inside_batchf(sdf, pts, N, in, c, 2) == PROX_OK);
    for (i = 0; i < N; ++i) {
      int cc = -1;
      float x[3] = {pts[i].x, pts[i].y, pts[i].z};
      int on = 0, want = 1, a;
      k = prox_sdf_insidef(sdf, pts[i], &cc);
      bad += in[i] != k || c[i] != cc;
      for (a = 0; a < 3; ++a) {
        want &= x[a] > 0 && x[a] < 1;
        on |= x[a] == 0 || x[a] == 1;
      }
      if (!on) bad += in[i] != want || !c[i];
    }
    CHECK_MSG(bad == 0, "float inside batch: %d differ", bad);
  }
  prox_sdf_freef(sdf);
  prox_bvh_freef(bvh);
}

/* The two overlapping cubes of test_sign_overlapping scaled by 2^e and
 * moved by an offset of up to 2^20 of their size, double and float, points
 * uniform around them and within 2^-10 to 2^-40 (float 2^-16) of their
 * size of a face: inside, the winding number and the sign of the distance
 * against the boxes (exact: the coordinates are powers of two apart), so
 * the inside grid's cell arithmetic is tried across magnitudes. */
static void test_sign_transformed(void) {
  static const int exps[] = {-60, -20, 0, 17, 40};
  static const double offs[] = {0, 3, -1024, 1048576};
  uint32_t t[72];
  double base[48];
  long wrong = 0, total = 0;
  size_t e, o;
  int prec, i, k;
  cube(base, t, 0, 0);
  cube(base + 24, t + 36, 0, 8);
  for (i = 0; i < 8; ++i) {
    base[24 + 3 * i] += 0.5;
    base[24 + 3 * i + 1] += 0.25;
    base[24 + 3 * i + 2] += 0.125;
  }
  for (prec = 0; prec < 2; ++prec)
    for (e = 0; e < sizeof exps / sizeof exps[0]; ++e)
      for (o = 0; o < sizeof offs / sizeof offs[0]; ++o) {
        /* Float: magnitudes within 2^+-30, so that squared distances of
         * 2^-16 of the size stay clear of float underflow (the domain of
         * prox/closest.h). */
        double sc = ldexp(1.0, prec ? exps[e] / 2 : exps[e]), off = offs[o] * sc, v[48], lo[2][3],
               hi[2][3];
        float vf[48];
        prox_mesh m;
        prox_meshf mf;
        prox_bvh *bvh = NULL;
        prox_bvhf *bvhf = NULL;
        prox_sdf *sdf = NULL;
        prox_sdff *sdff = NULL;
        oracle_rng rng = oracle_rng_make(0x7a + e * 16 + o);
        long n = h_count(1000), q;
        for (i = 0; i < 48; ++i) {
          v[i] = base[i] * sc + off;
          vf[i] = (float)v[i];
        }
        for (k = 0; k < 3; ++k) {
          lo[0][k] = off;
          hi[0][k] = sc + off;
          lo[1][k] = base[24 + k] * sc + off;
          hi[1][k] = (base[24 + k] + 1) * sc + off;
        }
        memset(&m, 0, sizeof m);
        memset(&mf, 0, sizeof mf);
        m.vertices = v;
        mf.vertices = vf;
        m.vertex_count = mf.vertex_count = 16;
        m.indices = mf.indices = t;
        m.triangle_count = mf.triangle_count = 24;
        if (prec == 0) {
          CHECK(prox_bvh_build(&m, NULL, NULL, &bvh, NULL) == PROX_OK &&
                prox_sdf_build(&m, bvh, NULL, NULL, NULL, &sdf, NULL) == PROX_OK);
        } else {
          CHECK(prox_bvh_buildf(&mf, NULL, NULL, &bvhf, NULL) == PROX_OK &&
                prox_sdf_buildf(&mf, bvhf, NULL, NULL, NULL, &sdff, NULL) == PROX_OK);
        }
        if (!sdf && !sdff) continue;
        for (q = 0; q < n; ++q) {
          double p[3], da, db, w;
          int want, in, inside;
          for (k = 0; k < 3; ++k)
            p[k] = off + sc * (-0.25 + 2.0 * oracle_rng_unit(&rng));
          if (q % 2) {
            /* Near a face of one cube. */
            int ax = (int)(q % 3), cb = (int)(q / 2 % 2), up = (int)(q / 4 % 2);
            double face = up ? hi[cb][ax] : lo[cb][ax];
            double d = ldexp(1.0, -(int)(10 + oracle_rng_next(&rng) % (prec ? 7 : 31))) * sc;
            p[ax] = face + (oracle_rng_next(&rng) % 2 ? d : -d);
          }
          if (prec) {
            /* Rounded to float through a volatile: gcc 12 -O3 drops a
             * plain (double)(float) round trip here. */
            for (k = 0; k < 3; ++k) {
              volatile float x = (float)p[k];
              p[k] = (double)x;
            }
          }
          da = box_sdist(p, lo[0], hi[0]);
          db = box_sdist(p, lo[1], hi[1]);
          if (da == 0 || db == 0) continue; /* on a face */
          want = (da < 0) + (db < 0);
          if (prec == 0) {
            prox_signed r;
            prox_sdf_distance(sdf, prox_v3(p[0], p[1], p[2]), &r);
            in = prox_sdf_inside(sdf, prox_v3(p[0], p[1], p[2]), NULL);
            w = prox_sdf_winding(sdf, prox_v3(p[0], p[1], p[2]));
            inside = r.inside && r.distance < 0;
          } else {
            prox_signedf r;
            prox_vec3f pf = prox_v3f((float)p[0], (float)p[1], (float)p[2]);
            prox_sdf_distancef(sdff, pf, &r);
            in = prox_sdf_insidef(sdff, pf, NULL);
            w = prox_sdf_windingf(sdff, pf);
            inside = r.inside && r.distance < 0;
          }
          ++total;
          if (inside != (want >= 1) || in != (want >= 1) || w != (double)want) {
            if (++wrong <= 5)
              CHECK_MSG(0,
                        "%s, scale 2^%d, offset %g: p (%a %a %a) inside %d / %d, winding %g, "
                        "exact %d",
                        prec ? "float" : "double", prec ? exps[e] / 2 : exps[e], offs[o], p[0],
                        p[1], p[2], inside, in, w, want);
          }
        }
        prox_sdf_free(sdf);
        prox_bvh_free(bvh);
        prox_sdf_freef(sdff);
        prox_bvh_freef(bvhf);
      }
  h_note("two overlapping cubes, 5 scales x 4 offsets x 2 precisions: %ld points, %ld wrong", total,
         wrong);
  CHECK(wrong == 0 && total > 0);
}

/* A box [lo, lo + 1]^3 with each face cut into n x n squares (2 n^2
 * triangles), outward; vertices appended to v (returns the new count),
 * triangles to t (*nt updated). Shared corners are repeated per face, so
 * faces are joined only by position: the topology is not closed. To keep
 * it closed the vertices are welded through a table of lattice points. */
static size_t tess_box(double *v, size_t nv, uint32_t *t, size_t *nt, const double lo[3], int n) {
  /* Lattice point (i, j, k), 0..n each, on the surface only. */
  size_t base = nv, side = (size_t)n + 1;
  uint32_t *id = (uint32_t *)malloc(side * side * side * sizeof *id);
  int f, i, j, k;
  for (i = 0; i <= n; ++i)
    for (j = 0; j <= n; ++j)
      for (k = 0; k <= n; ++k) {
        size_t q = ((size_t)i * side + (size_t)j) * side + (size_t)k;
        if (i == 0 || j == 0 || k == 0 || i == n || j == n || k == n) {
          id[q] = (uint32_t)nv;
          v[3 * nv] = lo[0] + (double)i / n;
          v[3 * nv + 1] = lo[1] + (double)j / n;
          v[3 * nv + 2] = lo[2] + (double)k / n;
          ++nv;
        }
      }
  (void)base;
  for (f = 0; f < 6; ++f) {
    int ax = f / 2, hi = f % 2, u = (ax + 1) % 3, w = (ax + 2) % 3;
    for (i = 0; i < n; ++i)
      for (j = 0; j < n; ++j) {
        uint32_t c[4];
        int q;
        for (q = 0; q < 4; ++q) {
          int g[3];
          g[ax] = hi ? n : 0;
          g[u] = i + (q == 1 || q == 2);
          g[w] = j + (q >= 2);
          c[q] = id[((size_t)g[0] * side + (size_t)g[1]) * side + (size_t)g[2]];
        }
        /* (u, w) is right-handed about +ax: outward on the high face. */
        if (hi) {
          t[3 * *nt] = c[0], t[3 * *nt + 1] = c[1], t[3 * *nt + 2] = c[2];
          t[3 * *nt + 3] = c[0], t[3 * *nt + 4] = c[2], t[3 * *nt + 5] = c[3];
        } else {
          t[3 * *nt] = c[0], t[3 * *nt + 1] = c[2], t[3 * *nt + 2] = c[1];
          t[3 * *nt + 3] = c[0], t[3 * *nt + 4] = c[3], t[3 * *nt + 5] = c[2];
        }
        *nt += 2;
      }
  }
  free(id);
  return nv;
}

/* prox_sdf_build in 1, 2 and 5 threads (the self-intersection and front
 * checks are threaded) on two tessellated boxes through each other: the
 * same answers, bit for bit, and the right ones (winding 2 in the
 * overlap). */
static void test_sign_build_threads(void) {
  enum { N = 10 };
  static const double lo1[3] = {0, 0, 0}, lo2[3] = {0.45, 0.3, 0.15};
  double *v = (double *)malloc(2 * 6 * (N + 1) * (N + 1) * 3 * sizeof *v);
  uint32_t *t = (uint32_t *)malloc(2 * 6 * 2 * N * N * 3 * sizeof *t);
  size_t nv = 0, nt = 0;
  prox_mesh m;
  prox_bvh *bvh = NULL;
  prox_sdf *sdf[3] = {NULL, NULL, NULL};
  static const int threads[3] = {1, 2, 5};
  long n = h_count(5000), i, differ = 0, wrong = 0;
  oracle_rng rng = oracle_rng_make(0xb7);
  int a, k;
  nv = tess_box(v, nv, t, &nt, lo1, N);
  nv = tess_box(v, nv, t, &nt, lo2, N);
  memset(&m, 0, sizeof m);
  m.vertices = v;
  m.vertex_count = nv;
  m.indices = t;
  m.triangle_count = nt;
  CHECK(prox_bvh_build(&m, NULL, NULL, &bvh, NULL) == PROX_OK);
  for (a = 0; a < 3; ++a) {
    prox_sdf_options o = prox_sdf_options_default();
    o.threads = threads[a];
    CHECK(prox_sdf_build(&m, bvh, NULL, &o, NULL, &sdf[a], NULL) == PROX_OK);
  }
  if (sdf[0] && sdf[1] && sdf[2]) {
    CHECK(prox_sdf_method(sdf[0]) == PROX_SIGN_PSEUDONORMAL);
    for (i = 0; i < n; ++i) {
      double p[3], hi1[3], hi2[3];
      prox_signed r[3];
      int want;
      for (k = 0; k < 3; ++k) {
        p[k] = -0.2 + 1.8 * oracle_rng_unit(&rng);
        hi1[k] = lo1[k] + 1;
        hi2[k] = lo2[k] + 1;
      }
      for (a = 0; a < 3; ++a)
        prox_sdf_distance(sdf[a], prox_v3(p[0], p[1], p[2]), &r[a]);
      if (memcmp(&r[0].distance, &r[1].distance, sizeof(double)) ||
          memcmp(&r[0].distance, &r[2].distance, sizeof(double)) || r[0].method != r[1].method ||
          r[0].method != r[2].method || r[0].winding != r[2].winding)
        ++differ;
      if (fabs(box_sdist(p, lo1, hi1)) < 1e-9 || fabs(box_sdist(p, lo2, hi2)) < 1e-9) continue;
      want = (box_sdist(p, lo1, hi1) < 0) + (box_sdist(p, lo2, hi2) < 0);
      if (r[0].inside != (want >= 1)) ++wrong;
    }
  }
  h_note("two tessellated boxes (%lu triangles), built in 1, 2, 5 threads: %ld of %ld points "
         "differ, %ld wrong",
         (unsigned long)nt, differ, n, wrong);
  CHECK(differ == 0 && wrong == 0);
  for (a = 0; a < 3; ++a)
    prox_sdf_free(sdf[a]);
  prox_bvh_free(bvh);
  free(v);
  free(t);
}

/* The cube [0, 1]^3 (outward) around a box cavity (inward), the cavity's
 * lower and upper faces on each axis i at a[i] and b[i]: vertices into v
 * (16), triangles into t (24). */
static void cube_cavity(double *v, uint32_t *t, const double *a, const double *b) {
  int i;
  cube(v, t, 0, 0);
  cube(v + 24, t + 36, 0, 8);
  for (i = 0; i < 24; ++i)
    v[24 + i] = v[24 + i] == 0 ? a[i % 3] : b[i % 3];
  for (i = 0; i < 12; ++i) {
    uint32_t x = t[36 + 3 * i + 1];
    t[36 + 3 * i + 1] = t[36 + 3 * i + 2];
    t[36 + 3 * i + 2] = x;
  }
}

/* The corner on axis k of the widened sub-cell j (0 .. 3) of the cell
 * that holds x: its lower end (up 0) or upper (up 1), as sub_bounds
 * computes them. */
static double sub_corner(const double *glo, double gh, double gpad, double gqs, int k, double x,
                         int j, int up) {
  double base = glo[k] + (double)(size_t)((x - glo[k]) / gh) * gh - gpad;
  return up ? base + (double)(j + 1) * (8.0 / gqs) + gpad : base + (double)j * (8.0 / gqs) - gpad;
}

/* x moved by |steps| ulps, up for steps > 0. */
static double ulps_off(double x, int steps) {
  int u;
  for (u = 0; u < abs(steps); ++u)
    x = nextafter(x, steps > 0 ? INFINITY : -INFINITY);
  return x;
}

/* The cube [0, 1]^3 (outward) around a tetrahedral cavity x[0..3] (its
 * faces towards its inside): vertices into v (12), triangles into t (16).
 * For a positive (A, B, C, D) the inward faces are ABC, ADB, ACD, BDC;
 * else B and C swap. */
static void tetra_cavity(double *v, uint32_t *t, const double (*x)[3]) {
  double e1[3], e2[3], e3[3], vol;
  int i, k;
  cube(v, t, 0, 0);
  for (i = 0; i < 4; ++i)
    for (k = 0; k < 3; ++k)
      v[24 + 3 * i + k] = x[i][k];
  for (k = 0; k < 3; ++k) {
    e1[k] = x[1][k] - x[0][k];
    e2[k] = x[2][k] - x[0][k];
    e3[k] = x[3][k] - x[0][k];
  }
  vol = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
        e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  {
    uint32_t A = 8, B = vol > 0 ? 9 : 10, C = vol > 0 ? 10 : 9, D = 11;
    const uint32_t ft[12] = {A, B, C, A, D, B, A, C, D, B, D, C};
    for (i = 0; i < 12; ++i)
      t[36 + i] = ft[i];
  }
}

/* test_sign_subcell_margins, tilted: the cavity a tetrahedron whose
 * vertices are corners of widened sub-cells (and a few ulps off them), so
 * that its planes pass through the corners of the boxes the slab test
 * decides on, where only its margins (the pads, the normal's rounding)
 * keep a touched sub-cell from being taken as free. The hook checks every
 * sub-cell answered from the grid; points off the faces and around the
 * vertices against the exact crossing count (parity_oracle.h). */
static void tilted_cavity(const double *glo, double gh, double gpad, double gqs) {
  static const double at[4][3] = {
      {0.32, 0.33, 0.31}, {0.68, 0.35, 0.36}, {0.40, 0.69, 0.34}, {0.50, 0.52, 0.70}};
  static const int sub[4][3][2] = {{{1, 0}, {2, 1}, {3, 0}},
                                   {{2, 1}, {1, 0}, {0, 1}},
                                   {{3, 0}, {2, 1}, {1, 0}},
                                   {{0, 1}, {3, 0}, {2, 1}}};
  static const int nudge[7] = {0, 1, -1, 3, -3, 1, -1};
  oracle_rng rng = oracle_rng_make(0x7e7);
  /* First random tetrahedra of such corners, each moved by up to 3 ulps
   * on each axis: every sub-cell answered (the exact test only). */
  int extra = (int)h_count(200), q, var;
  long xbad = 0, wrong = 0, points = 0, bad_sub = 0, undecided = 0, unsure = 0;
  size_t xchecked = 0, checked_all = 0;
  for (q = 0; q < extra; ++q) {
    double v[3 * 12], x[4][3];
    uint32_t t[3 * 16];
    built b;
    size_t checked = 0;
    int i, k;
    for (i = 0; i < 4; ++i)
      for (k = 0; k < 3; ++k) {
        int step = (int)(oracle_rng_unit(&rng) * 7) - 3;
        x[i][k] =
            ulps_off(sub_corner(glo, gh, gpad, gqs, k, 0.3 + 0.4 * oracle_rng_unit(&rng),
                                (int)(oracle_rng_unit(&rng) * 4), oracle_rng_unit(&rng) < 0.5),
                     step);
      }
    tetra_cavity(v, t, (const double(*)[3])x);
    if (!build(&b, v, 12, t, 16, PROX_SIGN_AUTO, 2.0)) {
      CHECK(0);
      continue;
    }
    xbad += (long)prox_sdf_detail_check_subcells(b.sdf, 1, 0, &checked, NULL);
    xchecked += checked;
    unbuild(&b);
  }
  h_note("sub-cell margins, random tetrahedra: %d builds, %zu sub-cells answered, %ld touch a "
         "triangle",
         extra, xchecked, xbad);
  CHECK(xbad == 0 && (extra == 0 || xchecked > 0));
  for (var = 0; var < 7; ++var) {
    double v[3 * 12], x[4][3], e1[3], e2[3];
    uint32_t t[3 * 16];
    objmesh m;
    oracle3 o;
    built b;
    size_t checked = 0, valued = 0;
    int i, k, f, r;
    for (i = 0; i < 4; ++i)
      for (k = 0; k < 3; ++k)
        x[i][k] = ulps_off(sub_corner(glo, gh, gpad, gqs, k, at[i][k], sub[i][k][0], sub[i][k][1]),
                           nudge[var] * (var >= 5 ? (i + k) % 2 * 2 - 1 : 1));
    tetra_cavity(v, t, (const double(*)[3])x);
    if (!build(&b, v, 12, t, 16, PROX_SIGN_AUTO, 2.0)) {
      CHECK(0);
      continue;
    }
    bad_sub += (long)prox_sdf_detail_check_subcells(b.sdf, 1, 1, &checked, &valued);
    checked_all += checked;
    m.v = v;
    m.nv = 12;
    m.t = t;
    m.nt = 16;
    m.cap_v = m.cap_t = 0;
    oracle_build(&o, &m);
    for (f = 0; f < 4; ++f)
      for (r = 0; r < 400; ++r) {
        /* A point of face f moved along its normal by 0 to 1e-5 of a cell,
         * or (every fourth) a vertex moved by a few ulps on each axis. */
        static const double offs[6] = {0, 1e-15, 1e-12, 1e-9, 1e-7, 1e-5};
        const uint32_t *tri = t + 36 + 3 * f;
        double p[3], n[3], len, a = ((r * 37) % 101) / 101.0, c = ((r * 53) % 97) / 97.0, off;
        int want, in, cc = 0, w;
        if (a + c > 1) {
          a = 1 - a;
          c = 1 - c;
        }
        for (k = 0; k < 3; ++k) {
          e1[k] = v[3 * tri[1] + (uint32_t)k] - v[3 * tri[0] + (uint32_t)k];
          e2[k] = v[3 * tri[2] + (uint32_t)k] - v[3 * tri[0] + (uint32_t)k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        off = offs[r % 6] * gh * (r % 12 < 6 ? 1 : -1);
        for (k = 0; k < 3; ++k)
          p[k] = v[3 * tri[0] + (uint32_t)k] + a * e1[k] + c * e2[k] + off * n[k] / len;
        if (r % 4 == 3)
          for (k = 0; k < 3; ++k) {
            int u;
            p[k] = v[3 * tri[r % 3] + (uint32_t)k];
            for (u = 0; u < 1 + r % 3; ++u)
              p[k] = nextafter(p[k], (r / 4 + k) % 2 ? 2.0 : -2.0);
          }
        if (!oracle_winding(&o, &m, p, &w)) {
          ++undecided;
          continue;
        }
        want = w >= 1;
        in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &cc);
        ++points;
        if (!cc) ++unsure;
        if (in != want || !cc) {
          if (wrong < 5)
            h_note("tilted %d: p (%.17g %.17g %.17g) inside %d certain %d, winding %d", var, p[0],
                   p[1], p[2], in, cc, w);
          ++wrong;
        }
      }
    oracle_free(&o);
    unbuild(&b);
  }
  h_note("sub-cell margins, tilted: 7 builds, %zu sub-cells answered (%ld fail), %ld points off "
         "the faces and about the vertices: %ld wrong or uncertain (%ld uncertain; %ld undecided "
         "by the oracle)",
         checked_all, bad_sub, points, wrong, unsure, undecided);
  CHECK(bad_sub == 0 && wrong == 0 && checked_all > 0 && points > 5000);
}

/* The inside grid where a face lies on a side of its sub-cells. A cube
 * with a box cavity (winding number 1 in the shell, 0 in the cavity),
 * the cavity's faces moved onto the sides of the grid's sub-cells (the
 * grid is that of the cube: the same box and triangle count), then off
 * them by a few ulps, by 1e-12 and 1e-9 of a cell, and about the grid's
 * rounding pad, where the margins of the sub-cells' slab test and of the
 * query's sub-cell decide. For each: every sub-cell answered from the grid
 * touches no triangle (the exact triangle-box test) and carries the exact
 * number at its centre (the tests' hook); points from an ulp to 1e-5 of a
 * cell off each cavity face, inside and out, get the boxes' answer. */
static void test_sign_subcell_margins(void) {
  double v[48], a[3] = {0.3, 0.3, 0.3}, b3[3] = {0.7, 0.7, 0.7}, glo[3], gh = 0, gpad = 0, gqs = 0;
  uint32_t t[72], gn[3];
  built b;
  long wrong = 0, points = 0, bad_sub = 0, builds = 0;
  size_t checked_all = 0;
  int o, side;
  cube_cavity(v, t, a, b3);
  if (!build(&b, v, 16, t, 24, PROX_SIGN_AUTO, 2.0)) {
    CHECK(0);
    return;
  }
  CHECK(prox_sdf_detail_grid(b.sdf, glo, &gh, &gpad, &gqs, gn) == 1);
  unbuild(&b);
  if (!(gh > 0)) return;
  for (side = 0; side < 2; ++side)
    for (o = 0; o < 25; ++o) {
      /* Offsets from a sub-cell side: 0, +-1 and +-4 ulps, +-1e-12 and
       * +-1e-9 of a cell, +-1/2, +-1, +-(1 +- 1e-6) and +-2 pads. */
      static const double ulps[25] = {0, 1, -1, 4, -4, 0, 0, 0, 0, 0, 0, 0, 0,
                                      0, 0, 0,  0, 0,  0, 0, 0, 0, 0, 0, 0};
      static const double cells[25] = {0, 0, 0, 0, 0, 1e-12, -1e-12, 1e-9, -1e-9, 0, 0, 0, 0,
                                       0, 0, 0, 0, 0, 0,     0,      0,    0,     0, 0, 0};
      static const double pads[25] = {0,         0,         0,         0,        0,  0,  0,
                                      0,         0,         0.5,       -0.5,     1,  -1, 1 + 1e-6,
                                      -1 - 1e-6, 1 - 1e-6,  -1 + 1e-6, 2,        -2, 3,  -3,
                                      1 + 1e-3,  -1 - 1e-3, 1 - 1e-3,  -1 + 1e-3};
      double lo[3], hi[3];
      size_t checked = 0, valued = 0;
      int k, f;
      for (k = 0; k < 3; ++k) {
        /* The side between sub-cells 1 and 2 of the cell at 0.3 (and
         * 0.7), or (side 1) the cell's lower side itself (sub-cell 0's
         * widened end), as sub_bounds computes them. */
        double base0 = glo[k] + (double)(size_t)((0.3 - glo[k]) / gh) * gh - gpad;
        double base1 = glo[k] + (double)(size_t)((0.7 - glo[k]) / gh) * gh - gpad;
        double s0 = side ? base0 + gpad : base0 + 2.0 * (8.0 / gqs);
        double s1 = side ? base1 + gpad : base1 + 2.0 * (8.0 / gqs);
        double d = cells[o] * gh + pads[o] * gpad;
        lo[k] = s0 + d;
        hi[k] = s1 - d;
        if (ulps[o] != 0) {
          lo[k] = ulps_off(s0, (int)ulps[o]);
          hi[k] = ulps_off(s1, -(int)ulps[o]);
        }
      }
      cube_cavity(v, t, lo, hi);
      if (!build(&b, v, 16, t, 24, PROX_SIGN_AUTO, 2.0)) {
        CHECK(0);
        continue;
      }
      ++builds;
      {
        double g2[3], h2 = 0, p2 = 0, q2 = 0;
        uint32_t n2[3];
        CHECK(prox_sdf_detail_grid(b.sdf, g2, &h2, &p2, &q2, n2) == 1 && h2 == gh &&
              g2[0] == glo[0]);
      }
      bad_sub += (long)prox_sdf_detail_check_subcells(b.sdf, 1, 1, &checked, &valued);
      checked_all += checked;
      /* Points off each cavity face, in the middle part of the face. */
      for (f = 0; f < 6; ++f) {
        static const double offs[11] = {1,    4,     1e-12, -1,    -4,  -1e-12,
                                        1e-9, -1e-9, 1e-7,  -1e-7, 1e-5};
        int ax = f / 2, e, r;
        for (e = 0; e < 11; ++e)
          for (r = 0; r < 40; ++r) {
            double p[3], face = f & 1 ? hi[ax] : lo[ax];
            int in, c = 0, want, k2;
            for (k2 = 0; k2 < 3; ++k2)
              p[k2] = lo[k2] +
                      (hi[k2] - lo[k2]) * (0.05 + 0.9 * ((r * (k2 + 2) * 37 + e * 11) % 97) / 96.0);
            if (fabs(offs[e]) >= 1 && fabs(offs[e]) < 8) {
              p[ax] = ulps_off(face, (int)offs[e]);
            } else {
              p[ax] = face + offs[e] * gh;
            }
            if (p[ax] == face) continue;
            want = !(p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] &&
                     p[2] >= lo[2] && p[2] <= hi[2]);
            in = prox_sdf_inside(b.sdf, prox_v3(p[0], p[1], p[2]), &c);
            ++points;
            if (in != want || !c) {
              if (wrong < 5)
                h_note("side %d offset %d: p (%.17g %.17g %.17g) inside %d certain %d, want %d",
                       side, o, p[0], p[1], p[2], in, c, want);
              ++wrong;
            }
          }
      }
      unbuild(&b);
    }
  h_note("sub-cell margins: %ld builds, %zu sub-cells answered (each touches no triangle: %ld "
         "fail), %ld points off the cavity's faces: %ld wrong",
         builds, checked_all, bad_sub, points, wrong);
  CHECK(builds == 50 && bad_sub == 0 && wrong == 0 && checked_all > 0 && points > 10000);
  tilted_cavity(glo, gh, gpad, gqs);
}

int main(int argc, char **argv) {
  int rc;
  h_init(argc, argv);
  mesh_dir = mesh_dir_find(__FILE__);
  H_RUN(test_sign_cube);
  H_RUN(test_sign_inverted_duplicated);
  H_RUN(test_sign_touching);
  H_RUN(test_sign_overlapping);
  H_RUN(test_sign_forced_pseudonormals);
  H_RUN(test_sign_transformed);
  H_RUN(test_sign_build_threads);
  H_RUN(test_sign_grid_batch);
  H_RUN(test_sign_subcell_margins);
  H_RUN(test_sign_float);
  H_RUN(test_sign_alloc_failure);
  H_RUN(test_self_intersection_cases);
  H_RUN(test_self_intersection_meshes);
  H_RUN(test_sign_domain);
  H_RUN(test_sign_domain_float);
  H_RUN(test_sign_winding_domain);
  H_RUN(test_sign_winding_domain_float);
  H_RUN(test_sign_closed_meshes);
  H_RUN(test_sign_auto_exact);
  H_RUN(test_sign_open_meshes);
  H_RUN(test_sign_capped);
  H_RUN(test_sign_capped_loops);
  H_RUN(test_sign_capped_tilted);
  rc = h_finish();
  if (mesh_missing) {
    printf("mesh_sign: the real meshes were not found (set PROX_MESH_DIR); "
           "their tests were skipped\n");
    if (rc == 0) return 77;
  }
  return rc;
}
