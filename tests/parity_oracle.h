/* SPDX-License-Identifier: MIT */
/* parity_oracle.h: inside or outside a closed triangle mesh, exactly,
 * independent of prox: the parity of the crossings of an axis-aligned ray
 * from the point, each decided with exact rationals (GMP mpq_t; a
 * floating-point filter with Shewchuk's static error bounds in front, so
 * the answers are those of the rationals) over the triangles a 2D grid finds
 * under the ray, another axis when the ray meets an edge or a vertex
 * exactly; and the signed count of those crossings, the winding number,
 * whose inside (above 1/2) is prox's definition where the surface passes
 * through itself. Used by tests/test_mesh_sign.c and the sign benchmarks. Header
 * only (static functions); link with -lgmp. */
#ifndef PROX_TEST_PARITY_ORACLE_H
#define PROX_TEST_PARITY_ORACLE_H

#include "objload.h"

#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------- the exact parity oracle */

/* Shewchuk's ccwerrboundA and o3derrboundA for doubles (eps = 2^-53). */
#define SO_ERR2 (3.3306690738754716e-16)
#define SO_ERR3 (7.7715611723760958e-16)

/* out = x - y exactly (tmp: scratch). */
static void q_diff(mpq_t out, double x, double y, mpq_t tmp) {
  mpq_set_d(out, x);
  mpq_set_d(tmp, y);
  mpq_sub(out, out, tmp);
}

/* The exact sign of orient2d of (a, b, c) in the plane of axes (i, j):
 * the double filter, then rationals. */
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
  q_diff(x1, a[i], c[i], l);
  q_diff(y1, a[j], c[j], l);
  q_diff(x2, b[i], c[i], l);
  q_diff(y2, b[j], c[j], l);
  mpq_mul(l, x1, y2);
  mpq_mul(r, y1, x2);
  s = mpq_cmp(l, r);
  mpq_clears(x1, y1, x2, y2, l, r, NULL);
  return s > 0 ? 1 : s < 0 ? -1 : 0;
}

/* The exact sign of det[b - a, c - a, p - a]: the double filter, then
 * rationals. */
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
      q_diff(m[i][k], x[k], a[k], t);
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

/* Crossings of the ray from p along +axis: 1 with *parity and *winding
 * (the signed count: +1 where the ray leaves through a triangle's front,
 * the side of (b - a) x (c - a), -1 where it enters), or 0 when the ray
 * meets an edge or a vertex, or p lies on a triangle. */
static int ray_crossings(const grid2 *g, const objmesh *m, int axis, const double *p, int *parity,
                         int *winding) {
  int x = (int)floor((p[g->i] - g->lo[0]) / g->cell[0]);
  int y = (int)floor((p[g->j] - g->lo[1]) / g->cell[1]);
  uint32_t q;
  size_t cell;
  int par = 0, wind = 0;
  *parity = 0;
  *winding = 0;
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
    if ((o > 0) == (side < 0)) {
      par ^= 1;
      /* Leaving through the front: p behind the plane (side < 0). */
      wind += side < 0 ? 1 : -1;
    }
  }
  *parity = par;
  *winding = wind;
  return 1;
}

static int ray_parity(const grid2 *g, const objmesh *m, int axis, const double *p, int *parity) {
  int w;
  return ray_crossings(g, m, axis, p, parity, &w);
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

/* Inside by parity: 1 or 0, or -1 when every axis was undecided. */
static inline int oracle_inside(const oracle3 *o, const objmesh *m, const double *p) {
  int axis;
  for (axis = 0; axis < 3; ++axis) {
    int par;
    if (ray_parity(&o->g[axis], m, axis, p, &par)) return par;
  }
  return -1;
}

/* The winding number at p of a closed mesh, exactly (the signed crossing
 * count of an axis ray): 1 with *winding, or 0 when every axis was
 * undecided. It differs from the parity only where the surface passes
 * through itself. */
static inline int oracle_winding(const oracle3 *o, const objmesh *m, const double *p,
                                 int *winding) {
  int axis, par;
  for (axis = 0; axis < 3; ++axis)
    if (ray_crossings(&o->g[axis], m, axis, p, &par, winding)) return 1;
  return 0;
}

/* Inside as prox defines it, winding number above 1/2: 1 or 0, or -1 when
 * every axis was undecided. The same as oracle_inside() where the surface
 * does not pass through itself. */
static inline int oracle_inside_winding(const oracle3 *o, const objmesh *m, const double *p) {
  int w;
  return oracle_winding(o, m, p, &w) ? w >= 1 : -1;
}

#endif /* PROX_TEST_PARITY_ORACLE_H */
