/* SPDX-License-Identifier: MIT */
/* textbook_pairs.h: textbook baselines for the pair kernels (K2), as found
 * in game-physics code, written for the benchmark (not used by the
 * library):
 *
 * - segment-segment: Ericson, Real-Time Collision Detection, 5.1.9
 *   (ClosestPtSegmentSegment): a segment shorter than sqrt(TB_EPS) counts as
 *   a point, parallel segments take s = 0, and the squared distance is that
 *   of the two clamped points;
 * - point-triangle: Ericson 5.1.5 (ClosestPtPointTriangle), Voronoi regions
 *   by dot products;
 * - segment-triangle crossing: Ericson 5.3.6 (IntersectSegmentTriangle)
 *   made two-sided;
 * - segment-triangle and triangle-triangle distances: the brute-force
 *   composition (a crossing gives 0; otherwise the minimum over end
 *   point-triangle and edge-edge distances).
 *
 * Template: include between <prox/detail/real_double.h> (or real_float.h)
 * and <prox/detail/real_end.h>; every name carries the precision suffix. */

#ifndef TBP_COMMON
#define TBP_COMMON
/* Ericson's EPSILON for the degenerate-segment test (on squared lengths). */
#define TB_EPS 1e-8
#endif

typedef PROX_FN(prox_vec3) PROX_FN(tbp_vec);

static inline PROX_FN(tbp_vec) PROX_FN(tbp_sub)(PROX_FN(tbp_vec) a, PROX_FN(tbp_vec) b) {
  PROX_FN(tbp_vec) r;
  r.x = a.x - b.x;
  r.y = a.y - b.y;
  r.z = a.z - b.z;
  return r;
}

static inline PROX_FN(tbp_vec)
    PROX_FN(tbp_axpy)(PROX_FN(tbp_vec) a, PROX_REAL s, PROX_FN(tbp_vec) d) {
  PROX_FN(tbp_vec) r;
  r.x = a.x + s * d.x;
  r.y = a.y + s * d.y;
  r.z = a.z + s * d.z;
  return r;
}

static inline PROX_REAL PROX_FN(tbp_dot)(PROX_FN(tbp_vec) a, PROX_FN(tbp_vec) b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline PROX_FN(tbp_vec) PROX_FN(tbp_cross)(PROX_FN(tbp_vec) a, PROX_FN(tbp_vec) b) {
  PROX_FN(tbp_vec) r;
  r.x = a.y * b.z - a.z * b.y;
  r.y = a.z * b.x - a.x * b.z;
  r.z = a.x * b.y - a.y * b.x;
  return r;
}

static inline PROX_REAL PROX_FN(tbp_clamp01)(PROX_REAL x) {
  return x < 0 ? 0 : (x > 1 ? 1 : x);
}

/* Ericson 5.1.9: closest points c1 = p1 + s (q1 - p1), c2 = p2 + t (q2 -
 * p2) of two segments; returns |c1 - c2|^2. */
static inline PROX_REAL PROX_FN(tbp_segment_segment)(PROX_FN(tbp_vec) p1, PROX_FN(tbp_vec) q1,
                                                     PROX_FN(tbp_vec) p2, PROX_FN(tbp_vec) q2,
                                                     PROX_REAL *s_out, PROX_REAL *t_out,
                                                     PROX_FN(tbp_vec) * c1, PROX_FN(tbp_vec) * c2) {
  PROX_FN(tbp_vec) d1 = PROX_FN(tbp_sub)(q1, p1);
  PROX_FN(tbp_vec) d2 = PROX_FN(tbp_sub)(q2, p2);
  PROX_FN(tbp_vec) r = PROX_FN(tbp_sub)(p1, p2);
  PROX_REAL a = PROX_FN(tbp_dot)(d1, d1), e = PROX_FN(tbp_dot)(d2, d2);
  PROX_REAL f = PROX_FN(tbp_dot)(d2, r), s, t;
  if (a <= TB_EPS && e <= TB_EPS) {
    s = t = 0;
  } else if (a <= TB_EPS) {
    s = 0;
    t = PROX_FN(tbp_clamp01)(f / e);
  } else {
    PROX_REAL c = PROX_FN(tbp_dot)(d1, r);
    if (e <= TB_EPS) {
      t = 0;
      s = PROX_FN(tbp_clamp01)(-c / a);
    } else {
      PROX_REAL b = PROX_FN(tbp_dot)(d1, d2), den = a * e - b * b;
      s = den != 0 ? PROX_FN(tbp_clamp01)((b * f - c * e) / den) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = PROX_FN(tbp_clamp01)(-c / a);
      } else if (t > 1) {
        t = 1;
        s = PROX_FN(tbp_clamp01)((b - c) / a);
      }
    }
  }
  *c1 = PROX_FN(tbp_axpy)(p1, s, d1);
  *c2 = PROX_FN(tbp_axpy)(p2, t, d2);
  *s_out = s;
  *t_out = t;
  r = PROX_FN(tbp_sub)(*c1, *c2);
  return PROX_FN(tbp_dot)(r, r);
}

/* Ericson 5.1.5: the point of triangle a b c closest to p. */
static inline PROX_FN(tbp_vec) PROX_FN(tbp_point_triangle)(PROX_FN(tbp_vec) p, PROX_FN(tbp_vec) a,
                                                           PROX_FN(tbp_vec) b, PROX_FN(tbp_vec) c) {
  PROX_FN(tbp_vec) ab = PROX_FN(tbp_sub)(b, a), ac = PROX_FN(tbp_sub)(c, a);
  PROX_FN(tbp_vec) ap = PROX_FN(tbp_sub)(p, a), bp, cp;
  PROX_REAL d1 = PROX_FN(tbp_dot)(ab, ap), d2 = PROX_FN(tbp_dot)(ac, ap);
  PROX_REAL d3, d4, d5, d6, va, vb, vc, den, v, w;
  if (d1 <= 0 && d2 <= 0) return a;
  bp = PROX_FN(tbp_sub)(p, b);
  d3 = PROX_FN(tbp_dot)(ab, bp);
  d4 = PROX_FN(tbp_dot)(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return PROX_FN(tbp_axpy)(a, d1 / (d1 - d3), ab);
  cp = PROX_FN(tbp_sub)(p, c);
  d5 = PROX_FN(tbp_dot)(ab, cp);
  d6 = PROX_FN(tbp_dot)(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return PROX_FN(tbp_axpy)(a, d2 / (d2 - d6), ac);
  va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return PROX_FN(tbp_axpy)(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), PROX_FN(tbp_sub)(c, b));
  den = 1 / (va + vb + vc);
  v = vb * den;
  w = vc * den;
  return PROX_FN(tbp_axpy)(PROX_FN(tbp_axpy)(a, v, ab), w, ac);
}

/* Ericson 5.3.6, two-sided: whether segment p q meets triangle a b c
 * (a segment in the triangle's plane never does). */
static inline int PROX_FN(tbp_segment_hits_triangle)(PROX_FN(tbp_vec) p, PROX_FN(tbp_vec) q,
                                                     PROX_FN(tbp_vec) a, PROX_FN(tbp_vec) b,
                                                     PROX_FN(tbp_vec) c) {
  PROX_FN(tbp_vec) ab = PROX_FN(tbp_sub)(b, a), ac = PROX_FN(tbp_sub)(c, a);
  PROX_FN(tbp_vec) qp = PROX_FN(tbp_sub)(p, q);
  PROX_FN(tbp_vec) n = PROX_FN(tbp_cross)(ab, ac), ap, e;
  PROX_REAL d = PROX_FN(tbp_dot)(qp, n), t, v, w;
  if (d == 0) return 0;
  ap = PROX_FN(tbp_sub)(p, a);
  t = PROX_FN(tbp_dot)(ap, n);
  e = PROX_FN(tbp_cross)(qp, ap);
  if (d < 0) { /* the back side: flip everything */
    d = -d;
    t = -t;
    e.x = -e.x;
    e.y = -e.y;
    e.z = -e.z;
  }
  if (t < 0 || t > d) return 0;
  v = PROX_FN(tbp_dot)(ac, e);
  if (v < 0 || v > d) return 0;
  w = -PROX_FN(tbp_dot)(ab, e);
  if (w < 0 || v + w > d) return 0;
  return 1;
}

/* |p - closest point of triangle t|^2. */
static inline PROX_REAL PROX_FN(tbp_pt_tri2)(PROX_FN(tbp_vec) p, const PROX_FN(tbp_vec) * t) {
  PROX_FN(tbp_vec)
  r = PROX_FN(tbp_sub)(p, PROX_FN(tbp_point_triangle)(p, t[0], t[1], t[2]));
  return PROX_FN(tbp_dot)(r, r);
}

/* Squared distance of segment p q and triangle t: brute force. */
static inline PROX_REAL PROX_FN(tbp_segment_triangle)(PROX_FN(tbp_vec) p, PROX_FN(tbp_vec) q,
                                                      const PROX_FN(tbp_vec) * t) {
  PROX_REAL best, d, s, u;
  PROX_FN(tbp_vec) c1, c2;
  int i;
  if (PROX_FN(tbp_segment_hits_triangle)(p, q, t[0], t[1], t[2])) return 0;
  best = PROX_FN(tbp_pt_tri2)(p, t);
  d = PROX_FN(tbp_pt_tri2)(q, t);
  if (d < best) best = d;
  for (i = 0; i < 3; ++i) {
    d = PROX_FN(tbp_segment_segment)(p, q, t[i], t[i == 2 ? 0 : i + 1], &s, &u, &c1, &c2);
    if (d < best) best = d;
  }
  return best;
}

/* Squared distance of triangles t1 and t2: brute force. */
static inline PROX_REAL PROX_FN(tbp_triangle_triangle)(const PROX_FN(tbp_vec) * t1,
                                                       const PROX_FN(tbp_vec) * t2) {
  PROX_REAL best = 0, d, s, u;
  PROX_FN(tbp_vec) c1, c2;
  int i, j;
  for (i = 0; i < 3; ++i) {
    int i1 = i == 2 ? 0 : i + 1;
    if (PROX_FN(tbp_segment_hits_triangle)(t1[i], t1[i1], t2[0], t2[1], t2[2]) ||
        PROX_FN(tbp_segment_hits_triangle)(t2[i], t2[i1], t1[0], t1[1], t1[2]))
      return 0;
  }
  for (i = 0; i < 3; ++i) {
    d = PROX_FN(tbp_pt_tri2)(t1[i], t2);
    if (i == 0 || d < best) best = d;
    d = PROX_FN(tbp_pt_tri2)(t2[i], t1);
    if (d < best) best = d;
  }
  for (i = 0; i < 3; ++i)
    for (j = 0; j < 3; ++j) {
      d = PROX_FN(tbp_segment_segment)(t1[i], t1[i == 2 ? 0 : i + 1], t2[j], t2[j == 2 ? 0 : j + 1],
                                       &s, &u, &c1, &c2);
      if (d < best) best = d;
    }
  return best;
}
