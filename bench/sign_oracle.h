/* SPDX-License-Identifier: MIT */
/* sign_oracle.h: what bench_sign.c and bench_sign_cgal.cpp share (C and
 * C++): the query points and the exact reference for "wrong signs".
 *
 * The reference is the exact parity oracle of tests/test_mesh_sign.c,
 * copied from there (q_orient2d, q_orient3d, grid2_build, ray_parity,
 * oracle_inside; prox's own test code): the parity of the crossings of an
 * axis-aligned ray from the point, each decided with exact rationals (GMP
 * mpq_t) over the triangles a 2D grid finds under the ray, another axis
 * when the ray meets an edge or a vertex exactly. Nothing of prox's
 * predicates or tree is used. Added here: a floating-point filter in front
 * of the two mpq predicates (Shewchuk's static error bounds for orient2d
 * and orient3d on double input, the "A" bounds), which returns the sign
 * where the double determinant exceeds its bound and otherwise falls back
 * to the rationals, so the answers are unchanged and the oracle is fast
 * enough for millions of points. Header only (static functions). */
#ifndef PROX_BENCH_SIGN_ORACLE_H
#define PROX_BENCH_SIGN_ORACLE_H

#include "../tests/meshload.h"
#include "../tests/splitmix.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ points */

/* The mesh's box and diagonal. */
static void so_box(const objmesh *m, double lo[3], double hi[3], double *diag) {
  size_t v;
  int k;
  double s = 0;
  for (k = 0; k < 3; ++k) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (v = 0; v < m->nv; ++v)
    for (k = 0; k < 3; ++k) {
      double x = m->v[3 * v + (size_t)k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  for (k = 0; k < 3; ++k)
    s += (hi[k] - lo[k]) * (hi[k] - lo[k]);
  *diag = sqrt(s);
}

/* n points into xyz (3 n doubles): set 0 uniform in the box enlarged by 10%
 * (5% each side), set 1 a random point of a random triangle moved by up to
 * 1% of the diagonal along each axis (as tests/test_mesh_sign.c draws). */
static void so_points(const objmesh *m, int set, size_t n, uint64_t seed, double *xyz) {
  double lo[3], hi[3], diag;
  uint64_t rng = seed;
  size_t i;
  int k;
  so_box(m, lo, hi, &diag);
  for (i = 0; i < n; ++i) {
    double *p = xyz + 3 * i;
    if (set == 0) {
      for (k = 0; k < 3; ++k)
        p[k] = lo[k] - 0.05 * (hi[k] - lo[k]) + 1.1 * (hi[k] - lo[k]) * rng_unit(&rng);
    } else {
      size_t t = (size_t)(rng_next(&rng) % m->nt);
      const double *a = m->v + 3 * (size_t)m->t[3 * t];
      const double *b = m->v + 3 * (size_t)m->t[3 * t + 1];
      const double *c = m->v + 3 * (size_t)m->t[3 * t + 2];
      double u = rng_unit(&rng), w = rng_unit(&rng);
      if (u + w > 1) {
        u = 1 - u;
        w = 1 - w;
      }
      for (k = 0; k < 3; ++k)
        p[k] = a[k] + u * (b[k] - a[k]) + w * (c[k] - a[k]) + 0.01 * diag * rng_sym(&rng);
    }
  }
}

/* The seed of point set `set` (0 uniform, 1 near) of a mesh of nt
 * triangles: bench_sign and bench_sign_cgal draw the same points. */
static uint64_t so_seed(int set, size_t nt) {
  return 0x516e + 77 * (uint64_t)set + (uint64_t)nt;
}

/* ------------------------------------------- the exact parity oracle */

/* Shewchuk's ccwerrboundA and o3derrboundA for doubles (eps = 2^-53). */
#define SO_ERR2 (3.3306690738754716e-16)
#define SO_ERR3 (7.7715611723760958e-16)

/* The exact sign of orient2d of (a, b, c) in the plane of axes (i, j)
 * (copied from tests/test_mesh_sign.c; the double filter is added). */
static int q_orient2d(const double *a, const double *b, const double *c, int i, int j) {
  mpq_t x1, y1, x2, y2, l, r;
  int s;
  {
    double l1 = (a[i] - c[i]) * (b[j] - c[j]);
    double r1 = (a[j] - c[j]) * (b[i] - c[i]);
    double det = l1 - r1, bound = SO_ERR2 * (fabs(l1) + fabs(r1));
    if (det > bound) return 1;
    if (-det > bound) return -1;
  }
  mpq_inits(x1, y1, x2, y2, l, r, NULL);
  mpq_set_d(x1, a[i]);
  mpq_set_d(l, c[i]);
  mpq_sub(x1, x1, l);
  mpq_set_d(y1, a[j]);
  mpq_set_d(l, c[j]);
  mpq_sub(y1, y1, l);
  mpq_set_d(x2, b[i]);
  mpq_set_d(l, c[i]);
  mpq_sub(x2, x2, l);
  mpq_set_d(y2, b[j]);
  mpq_set_d(l, c[j]);
  mpq_sub(y2, y2, l);
  mpq_mul(l, x1, y2);
  mpq_mul(r, y1, x2);
  s = mpq_cmp(l, r);
  mpq_clears(x1, y1, x2, y2, l, r, NULL);
  return s > 0 ? 1 : s < 0 ? -1 : 0;
}

/* The exact sign of det[b - a, c - a, p - a] (copied from
 * tests/test_mesh_sign.c; the double filter is added). */
static int q_orient3d(const double *a, const double *b, const double *c, const double *p) {
  mpq_t m[3][3], t, u, det;
  int i, k, s;
  {
    /* Shewchuk's orient3d filter with d = a: the determinant of the rows
     * b - a, c - a, p - a, expanded along p - a. */
    double bx = b[0] - a[0], by = b[1] - a[1], bz = b[2] - a[2];
    double cx = c[0] - a[0], cy = c[1] - a[1], cz = c[2] - a[2];
    double px = p[0] - a[0], py = p[1] - a[1], pz = p[2] - a[2];
    double bycz = by * cz, bzcy = bz * cy, bzcx = bz * cx, bxcz = bx * cz, bxcy = bx * cy,
           bycx = by * cx;
    double d = px * (bycz - bzcy) + py * (bzcx - bxcz) + pz * (bxcy - bycx);
    double perm = fabs(px) * (fabs(bycz) + fabs(bzcy)) + fabs(py) * (fabs(bzcx) + fabs(bxcz)) +
                  fabs(pz) * (fabs(bxcy) + fabs(bycx));
    double bound = SO_ERR3 * perm;
    if (d > bound) return 1;
    if (-d > bound) return -1;
  }
  mpq_inits(t, u, det, NULL);
  for (i = 0; i < 3; ++i)
    for (k = 0; k < 3; ++k) {
      const double *x = i == 0 ? b : i == 1 ? c : p;
      mpq_init(m[i][k]);
      mpq_set_d(m[i][k], x[k]);
      mpq_set_d(t, a[k]);
      mpq_sub(m[i][k], m[i][k], t);
    }
  mpq_set_ui(det, 0, 1);
  for (k = 0; k < 3; ++k) {
    int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    mpq_mul(t, m[1][k1], m[2][k2]);
    mpq_mul(u, m[1][k2], m[2][k1]);
    mpq_sub(t, t, u);
    mpq_mul(t, t, m[0][k]);
    mpq_add(det, det, t);
  }
  s = mpq_sgn(det);
  for (i = 0; i < 3; ++i)
    for (k = 0; k < 3; ++k)
      mpq_clear(m[i][k]);
  mpq_clears(t, u, det, NULL);
  return s;
}

/* Triangles binned on a grid over the plane of axes (i, j). */
typedef struct grid2 {
  int i, j, n;
  double lo[2], cell[2];
  uint32_t *start, *items;
} grid2;

/* Copied from tests/test_mesh_sign.c. */
static void grid2_build(grid2 *g, const objmesh *m, int axis) {
  size_t t;
  uint32_t *count;
  int c, pass;
  g->i = (axis + 1) % 3;
  g->j = (axis + 2) % 3;
  g->n = (int)sqrt((double)m->nt / 4.0) + 1;
  if (g->n > 1024) g->n = 1024;
  for (c = 0; c < 2; ++c) {
    int ax = c ? g->j : g->i;
    double lo = INFINITY, hi = -INFINITY;
    size_t v;
    for (v = 0; v < m->nv; ++v) {
      if (m->v[3 * v + (size_t)ax] < lo) lo = m->v[3 * v + (size_t)ax];
      if (m->v[3 * v + (size_t)ax] > hi) hi = m->v[3 * v + (size_t)ax];
    }
    g->lo[c] = lo;
    g->cell[c] = (hi - lo) / g->n * (1 + 1e-9) + 1e-300;
  }
  count = (uint32_t *)calloc((size_t)g->n * (size_t)g->n + 1, sizeof *count);
  g->start = count;
  g->items = NULL;
  for (pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      uint32_t sum = 0;
      size_t q;
      for (q = 0; q < (size_t)g->n * (size_t)g->n + 1; ++q) {
        uint32_t x = count[q];
        count[q] = sum;
        sum += x;
      }
      g->items = (uint32_t *)malloc(((size_t)sum + 1) * sizeof *g->items);
    }
    for (t = 0; t < m->nt; ++t) {
      double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
      int a0, a1, b0, b1, x, y, k;
      for (k = 0; k < 3; ++k) {
        const double *p = m->v + 3 * (size_t)m->t[3 * t + (size_t)k];
        for (c = 0; c < 2; ++c) {
          double q = p[c ? g->j : g->i];
          if (q < lo[c]) lo[c] = q;
          if (q > hi[c]) hi[c] = q;
        }
      }
      a0 = (int)floor((lo[0] - g->lo[0]) / g->cell[0]) - 1;
      a1 = (int)floor((hi[0] - g->lo[0]) / g->cell[0]) + 1;
      b0 = (int)floor((lo[1] - g->lo[1]) / g->cell[1]) - 1;
      b1 = (int)floor((hi[1] - g->lo[1]) / g->cell[1]) + 1;
      if (a0 < 0) a0 = 0;
      if (b0 < 0) b0 = 0;
      if (a1 >= g->n) a1 = g->n - 1;
      if (b1 >= g->n) b1 = g->n - 1;
      for (x = a0; x <= a1; ++x)
        for (y = b0; y <= b1; ++y) {
          size_t cell = (size_t)x * (size_t)g->n + (size_t)y;
          if (pass == 0)
            ++count[cell + 1];
          else
            g->items[count[cell + 1]++] = (uint32_t)t;
        }
    }
  }
  /* count[c] is now the start of cell c, count[c + 1] its end. */
}

/* Crossings of the ray from p along +axis: 1 with *parity, or 0 when the
 * ray meets an edge or a vertex, or p lies on a triangle (copied from
 * tests/test_mesh_sign.c, without the winding count). */
static int ray_parity(const grid2 *g, const objmesh *m, int axis, const double *p, int *parity) {
  int x = (int)floor((p[g->i] - g->lo[0]) / g->cell[0]);
  int y = (int)floor((p[g->j] - g->lo[1]) / g->cell[1]);
  uint32_t q;
  size_t cell;
  int par = 0;
  *parity = 0;
  if (x < 0 || y < 0 || x >= g->n || y >= g->n) return 1; /* misses all */
  cell = (size_t)x * (size_t)g->n + (size_t)y;
  for (q = g->start[cell]; q < g->start[cell + 1]; ++q) {
    uint32_t t = g->items[q];
    const double *a = m->v + 3 * (size_t)m->t[3 * (size_t)t];
    const double *b = m->v + 3 * (size_t)m->t[3 * (size_t)t + 1];
    const double *c = m->v + 3 * (size_t)m->t[3 * (size_t)t + 2];
    double lo = fmin(a[g->i], fmin(b[g->i], c[g->i]));
    double hi = fmax(a[g->i], fmax(b[g->i], c[g->i]));
    double lo2 = fmin(a[g->j], fmin(b[g->j], c[g->j]));
    double hi2 = fmax(a[g->j], fmax(b[g->j], c[g->j]));
    int o, d1, d2, d3, side;
    if (p[g->i] < lo || p[g->i] > hi || p[g->j] < lo2 || p[g->j] > hi2) continue;
    if (fmax(a[axis], fmax(b[axis], c[axis])) < p[axis]) continue;
    o = q_orient2d(a, b, c, g->i, g->j);
    if (o == 0) {
      /* Seen edge-on: the ray may run along it (undecided) or miss it. */
      d1 = q_orient2d(a, b, p, g->i, g->j);
      d2 = q_orient2d(b, c, p, g->i, g->j);
      d3 = q_orient2d(c, a, p, g->i, g->j);
      if (d1 == 0 || d2 == 0 || d3 == 0) return 0;
      continue;
    }
    d1 = q_orient2d(a, b, p, g->i, g->j) * o;
    d2 = q_orient2d(b, c, p, g->i, g->j) * o;
    d3 = q_orient2d(c, a, p, g->i, g->j) * o;
    if (d1 < 0 || d2 < 0 || d3 < 0) continue;
    if (d1 == 0 || d2 == 0 || d3 == 0) return 0; /* an edge or a vertex */
    side = q_orient3d(a, b, c, p);               /* > 0: p in front of the triangle */
    if (side == 0) return 0;                     /* p on the triangle */
    /* The plane is ahead of p when the normal points along +axis (o > 0)
     * and p is behind it (side < 0), or the normal points along -axis and
     * p is in front. */
    if ((o > 0) == (side < 0)) par ^= 1;
  }
  *parity = par;
  return 1;
}

typedef struct oracle3 {
  grid2 g[3];
} oracle3;

static void oracle_build(oracle3 *o, const objmesh *m) {
  int axis;
  for (axis = 0; axis < 3; ++axis)
    grid2_build(&o->g[axis], m, axis);
}

static void oracle_free(oracle3 *o) {
  int axis;
  for (axis = 0; axis < 3; ++axis) {
    free(o->g[axis].start);
    free(o->g[axis].items);
  }
}

/* Inside by parity: 1 or 0, or -1 when every axis was undecided (copied
 * from tests/test_mesh_sign.c). */
static int oracle_inside(const oracle3 *o, const objmesh *m, const double *p) {
  int axis;
  for (axis = 0; axis < 3; ++axis) {
    int par;
    if (ray_parity(&o->g[axis], m, axis, p, &par)) return par;
  }
  return -1;
}

/* The reference codes stored per point (and written to the reference
 * file): 1 inside, 0 outside, or one of these. */
#define SO_UNDECIDED (-1) /* every axis ray met an edge or a vertex */
#define SO_NEAR (-2)      /* within 1e-9 of the diagonal of the surface */
#define SO_UNCHECKED (-3) /* not computed (open mesh, or past --check) */

#endif /* PROX_BENCH_SIGN_ORACLE_H */
