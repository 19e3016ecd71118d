/* SPDX-License-Identifier: MIT */
/* The textbook baseline of the benchmarks: the closest-point routines of
 * Ericson, Real-Time Collision Detection (2005), section 5.1, as a user would
 * type them in from the book:
 *
 *   textbook_point_segment      ClosestPtPointSegment      5.1.2
 *   textbook_point_aabb         ClosestPtPointAABB         5.1.3
 *   textbook_point_obb          ClosestPtPointOBB          5.1.4
 *   textbook_point_triangle     ClosestPtPointTriangle     5.1.5
 *   textbook_point_tetrahedron  ClosestPtPointTetrahedron  5.1.6
 *
 * Each returns the closest point only (the book's interface); the caller
 * computes the squared distance. No degenerate-case handling beyond the
 * book's: a zero-length segment and a collinear triangle give NaN, slivers
 * lose all accuracy. Both precisions (suffix f for float) come from the one
 * template at the bottom of this file, which the file includes into itself
 * twice. Everything is static inline, as prox's kernels are inline in their
 * headers, so that neither side pays a call. */
#ifndef TEXTBOOK_TEMPLATE

#ifndef PROX_BENCH_TEXTBOOK_H
#define PROX_BENCH_TEXTBOOK_H

#include <prox/primitives.h>

#define TEXTBOOK_TEMPLATE

#define TB_REAL double
#define TB_FN(name) name
#include "textbook.h"
#undef TB_REAL
#undef TB_FN

#define TB_REAL float
#define TB_FN(name) TB_FN_F_(name)
#define TB_FN_F_(name) name##f
#include "textbook.h"
#undef TB_REAL
#undef TB_FN
#undef TB_FN_F_

#undef TEXTBOOK_TEMPLATE

#endif /* PROX_BENCH_TEXTBOOK_H */

#else /* TEXTBOOK_TEMPLATE: one precision of the routines */

#define TB_VEC TB_FN(prox_vec3)

static inline TB_VEC TB_FN(tb_v3)(TB_REAL x, TB_REAL y, TB_REAL z) {
  TB_VEC r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}

static inline TB_VEC TB_FN(tb_sub)(TB_VEC a, TB_VEC b) {
  return TB_FN(tb_v3)(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline TB_VEC TB_FN(tb_add)(TB_VEC a, TB_VEC b) {
  return TB_FN(tb_v3)(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline TB_VEC TB_FN(tb_scale)(TB_VEC a, TB_REAL s) {
  return TB_FN(tb_v3)(a.x * s, a.y * s, a.z * s);
}

static inline TB_REAL TB_FN(tb_dot)(TB_VEC a, TB_VEC b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline TB_VEC TB_FN(tb_cross)(TB_VEC a, TB_VEC b) {
  return TB_FN(tb_v3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

/* 5.1.2: project c onto the line ab, clamp the parameter to [0, 1]. */
static inline TB_VEC TB_FN(textbook_point_segment)(TB_VEC c, TB_VEC a, TB_VEC b) {
  TB_VEC ab = TB_FN(tb_sub)(b, a);
  TB_REAL t = TB_FN(tb_dot)(TB_FN(tb_sub)(c, a), ab) / TB_FN(tb_dot)(ab, ab);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  return TB_FN(tb_add)(a, TB_FN(tb_scale)(ab, t));
}

/* 5.1.3: clamp each coordinate to the box. */
static inline TB_VEC TB_FN(textbook_point_aabb)(TB_VEC p, const TB_FN(prox_aabb) * b) {
  TB_VEC q = p;
  if (q.x < b->min.x) q.x = b->min.x;
  if (q.x > b->max.x) q.x = b->max.x;
  if (q.y < b->min.y) q.y = b->min.y;
  if (q.y > b->max.y) q.y = b->max.y;
  if (q.z < b->min.z) q.z = b->min.z;
  if (q.z > b->max.z) q.z = b->max.z;
  return q;
}

/* 5.1.4: walk from the center along each axis by the clamped projection. */
static inline TB_VEC TB_FN(textbook_point_obb)(TB_VEC p, const TB_FN(prox_obb) * b) {
  TB_VEC d = TB_FN(tb_sub)(p, b->center);
  TB_VEC q = b->center;
  int i;
  for (i = 0; i < 3; ++i) {
    TB_REAL dist = TB_FN(tb_dot)(d, b->axis[i]);
    if (dist > b->half[i]) dist = b->half[i];
    if (dist < -b->half[i]) dist = -b->half[i];
    q = TB_FN(tb_add)(q, TB_FN(tb_scale)(b->axis[i], dist));
  }
  return q;
}

/* 5.1.5: Voronoi regions of the vertices, then of the edges, tested with
 * the dot products d1..d6; else the face, by barycentric coordinates. */
static inline TB_VEC TB_FN(textbook_point_triangle)(TB_VEC p, TB_VEC a, TB_VEC b, TB_VEC c) {
  TB_VEC ab = TB_FN(tb_sub)(b, a), ac = TB_FN(tb_sub)(c, a);
  TB_VEC ap = TB_FN(tb_sub)(p, a), bp, cp;
  TB_REAL d1 = TB_FN(tb_dot)(ab, ap), d2 = TB_FN(tb_dot)(ac, ap);
  TB_REAL d3, d4, d5, d6, va, vb, vc, v, w, denom;
  if (d1 <= 0 && d2 <= 0) return a;
  bp = TB_FN(tb_sub)(p, b);
  d3 = TB_FN(tb_dot)(ab, bp);
  d4 = TB_FN(tb_dot)(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    v = d1 / (d1 - d3);
    return TB_FN(tb_add)(a, TB_FN(tb_scale)(ab, v));
  }
  cp = TB_FN(tb_sub)(p, c);
  d5 = TB_FN(tb_dot)(ab, cp);
  d6 = TB_FN(tb_dot)(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    w = d2 / (d2 - d6);
    return TB_FN(tb_add)(a, TB_FN(tb_scale)(ac, w));
  }
  va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return TB_FN(tb_add)(b, TB_FN(tb_scale)(TB_FN(tb_sub)(c, b), w));
  }
  denom = 1 / (va + vb + vc);
  v = vb * denom;
  w = vc * denom;
  return TB_FN(tb_add)(TB_FN(tb_add)(a, TB_FN(tb_scale)(ab, v)), TB_FN(tb_scale)(ac, w));
}

/* 5.1.6 helper: are p and d on opposite sides of the plane abc? */
static inline int TB_FN(tb_outside_of_plane)(TB_VEC p, TB_VEC a, TB_VEC b, TB_VEC c, TB_VEC d) {
  TB_VEC n = TB_FN(tb_cross)(TB_FN(tb_sub)(b, a), TB_FN(tb_sub)(c, a));
  TB_REAL signp = TB_FN(tb_dot)(TB_FN(tb_sub)(p, a), n);
  TB_REAL signd = TB_FN(tb_dot)(TB_FN(tb_sub)(d, a), n);
  return signp * signd < 0;
}

/* 5.1.6: the nearest of the closest points on the faces p is outside of;
 * p itself when it is outside of none. */
static inline TB_VEC TB_FN(textbook_point_tetrahedron)(TB_VEC p, TB_VEC a, TB_VEC b, TB_VEC c,
                                                       TB_VEC d) {
  TB_VEC best = p, q;
  TB_REAL best_sq = (TB_REAL)INFINITY, sq;
  if (TB_FN(tb_outside_of_plane)(p, a, b, c, d)) {
    q = TB_FN(textbook_point_triangle)(p, a, b, c);
    sq = TB_FN(tb_dot)(TB_FN(tb_sub)(q, p), TB_FN(tb_sub)(q, p));
    if (sq < best_sq) {
      best_sq = sq;
      best = q;
    }
  }
  if (TB_FN(tb_outside_of_plane)(p, a, c, d, b)) {
    q = TB_FN(textbook_point_triangle)(p, a, c, d);
    sq = TB_FN(tb_dot)(TB_FN(tb_sub)(q, p), TB_FN(tb_sub)(q, p));
    if (sq < best_sq) {
      best_sq = sq;
      best = q;
    }
  }
  if (TB_FN(tb_outside_of_plane)(p, a, d, b, c)) {
    q = TB_FN(textbook_point_triangle)(p, a, d, b);
    sq = TB_FN(tb_dot)(TB_FN(tb_sub)(q, p), TB_FN(tb_sub)(q, p));
    if (sq < best_sq) {
      best_sq = sq;
      best = q;
    }
  }
  if (TB_FN(tb_outside_of_plane)(p, b, d, c, a)) {
    q = TB_FN(textbook_point_triangle)(p, b, d, c);
    sq = TB_FN(tb_dot)(TB_FN(tb_sub)(q, p), TB_FN(tb_sub)(q, p));
    if (sq < best_sq) best = q;
  }
  return best;
}

#undef TB_VEC

#endif /* TEXTBOOK_TEMPLATE */
