/* SPDX-License-Identifier: MIT */
/* Template: closest points from a point to a primitive (K1). Instantiated
 * once per precision by closest.h, which declares the documented kernels
 * with their contracts; this file holds their definitions.
 *
 * Accuracy. Every kernel computes the squared distance as |p - q|^2 from a
 * closest point q that lies on the primitive up to a few roundings, never as
 * a difference of large quantities; the error is then first order only in
 * the off-primitive rounding of q (a few eps S, S the largest coordinate
 * magnitude) and second order in the error along the primitive. Where the
 * plain formulas lose that property (sliver triangles, flat tetrahedra), a
 * branch in wide arithmetic (detail/exact.inl) takes over. */

/// Result of a closest-point query between a point and a primitive.
typedef struct PROX_FN(prox_closest) {
  PROX_FN(prox_vec3) point; ///< closest point on the primitive
  PROX_REAL sqdist;         ///< squared distance (as returned)
  PROX_REAL param[4];       ///< parameters; each query says which, rest 0
  prox_feature feature;     ///< feature holding the closest point
} PROX_FN(prox_closest);

/* ---- internal helpers (exported, but not part of the documented API) ---- */

/// Internal: a 2^e, componentwise (exact unless a component leaves the
/// range of PROX_REAL).
PROX_DETAIL_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_detail_vldexp)(PROX_FN(prox_vec3) a, int e) {
  return PROX_FN(prox_v3)((PROX_REAL)ldexp((double)a.x, e), (PROX_REAL)ldexp((double)a.y, e),
                          (PROX_REAL)ldexp((double)a.z, e));
}

/// Internal: a squared distance below this (about 2^-970 in double, 2^-103
/// in float) may have lost digits to subnormal squares; the signed kernels
/// then measure it again on scaled input (prox_detail_frame).
#define PROX_DETAIL_D2_TINY (PROX_REAL_MIN / PROX_EPS)

/// Internal: e with the largest magnitude among the n vectors v and x
/// times 2^-e in [1/2, 1); 0 when that magnitude is 0 or not finite.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_frame)(const PROX_FN(prox_vec3) * v, int n,
                                                  PROX_REAL x) {
  double m = fabs((double)x);
  int i;
  for (i = 0; i < n; ++i)
    m = fmax(m, (double)PROX_FN(prox_detail_maxabs)(v[i]));
  return PROX_FN(prox_detail_exp)(m);
}

/// Internal: sqrt(d2) 2^e in PROX_REAL (d2 measured at scale 2^-e).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_root_scaled)(PROX_REAL d2, int e) {
  return (PROX_REAL)ldexp((double)PROX_SQRT(d2), e);
}

/// Internal: fills *out (if not NULL) and returns sqdist.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_set)(PROX_FN(prox_closest) * out,
                                                      PROX_FN(prox_vec3) q, PROX_REAL sqdist,
                                                      int kind, int index) {
  if (out) {
    out->point = q;
    out->sqdist = sqdist;
    out->feature.kind = kind;
    out->feature.index = index;
  }
  return sqdist;
}

/// Internal: sets the four parameters of *out (if not NULL).
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_params)(PROX_FN(prox_closest) * out, PROX_REAL a,
                                                    PROX_REAL b, PROX_REAL c, PROX_REAL d) {
  if (out) {
    out->param[0] = a;
    out->param[1] = b;
    out->param[2] = c;
    out->param[3] = d;
  }
}

/// Internal: the all-NaN result of a query with non-finite input.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_nan)(PROX_FN(prox_closest) * out) {
  PROX_REAL n = PROX_NAN;
  PROX_FN(prox_detail_params)(out, n, n, n, n);
  return PROX_FN(prox_detail_set)(out, PROX_FN(prox_v3)(n, n, n), n, PROX_FEATURE_NONE, 0);
}

/// Internal: closest point on {o + t d : lo <= t <= hi} (lo wins if
/// lo > hi). Returns the squared distance; *t gets the parameter and
/// *end 0 (t == lo), 1 (t == hi) or -1 (inside). q1 is the point at hi when
/// it is to be returned exactly (a segment's b), else NULL.
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_param_closest)(
    PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) o, PROX_FN(prox_vec3) d, PROX_REAL lo, PROX_REAL hi,
    const PROX_FN(prox_vec3) * q1, PROX_FN(prox_vec3) * q, PROX_REAL *t, int *end) {
  PROX_REAL dd = PROX_FN(prox_vdot)(d, d);
  PROX_REAL s = PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(p, o), d) / dd;
  if (dd == 0) {
    /* Zero direction: the whole set is the point o. */
    *t = PROX_FN(prox_clamp)(0, lo, hi);
    *end = 0;
    *q = o;
  } else if (s >= hi && !(lo > hi)) {
    /* NaN s (non-finite input) takes the last branch and stays NaN. */
    *t = hi;
    *end = 1;
    *q = q1 ? *q1 : PROX_FN(prox_vmadd)(o, hi, d);
  } else if (s <= lo || lo > hi) {
    *t = lo;
    *end = 0;
    *q = lo == 0 ? o : PROX_FN(prox_vmadd)(o, lo, d);
  } else {
    *t = s;
    *end = -1;
    *q = PROX_FN(prox_vmadd)(o, s, d);
  }
  return PROX_FN(prox_vdist2)(p, *q);
}

/* ---------------------------------- plane --------------------------------- */

/// Internal: the normal *n and offset *off of a plane, scaled by one power
/// of two (the same plane) when |n|^2 would lose digits to underflow or
/// overflow: then the largest component of *n is in [1/2, 1). A zero or
/// non-finite normal is left as it is. Returns |*n|^2.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_plane_scaled)(const PROX_FN(prox_plane) * plane,
                                                               PROX_FN(prox_vec3) * n,
                                                               PROX_REAL *off) {
  PROX_REAL nn;
  int e;
  *n = plane->normal;
  *off = plane->offset;
  nn = PROX_FN(prox_vdot)(*n, *n);
  if (nn >= PROX_DETAIL_D2_TINY && nn <= 1 / PROX_DETAIL_D2_TINY) return nn;
  e = PROX_FN(prox_detail_exp)((double)PROX_FN(prox_detail_maxabs)(*n));
  if (e == 0) return nn;
  *n = PROX_FN(prox_detail_vldexp)(*n, -e);
  *off = (PROX_REAL)ldexp((double)*off, -e);
  return PROX_FN(prox_vdot)(*n, *n);
}

/// Internal: prox_point_plane, which also gives the signed value *s =
/// n . p - offset and *nn = |n|^2 of the scaled plane (for the signed
/// query, which then need not form them again).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_plane_query)(PROX_FN(prox_vec3) p,
                                                              const PROX_FN(prox_plane) * plane,
                                                              PROX_FN(prox_closest) * out,
                                                              PROX_REAL *s, PROX_REAL *nn) {
  PROX_FN(prox_vec3) n, q;
  PROX_REAL off;
  *nn = PROX_FN(prox_detail_plane_scaled)(plane, &n, &off);
  *s = PROX_FN(prox_vdot)(n, p) - off;
  PROX_FN(prox_detail_params)(out, 0, 0, 0, 0);
  if (!(*s - *s == 0 && *nn - *nn == 0)) return PROX_FN(prox_detail_nan)(out);
  if (*nn == 0) return PROX_FN(prox_detail_set)(out, p, 0, PROX_FEATURE_FACE, 0);
  q = PROX_FN(prox_vmadd)(p, -*s / *nn, n);
  return PROX_FN(prox_detail_set)(out, q, (*s / *nn) * *s, PROX_FEATURE_FACE, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_plane)(PROX_FN(prox_vec3) p,
                                                const PROX_FN(prox_plane) * plane,
                                                PROX_FN(prox_closest) * out) {
  PROX_REAL s, nn;
  return PROX_FN(prox_detail_plane_query)(p, plane, out, &s, &nn);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_plane_signed)(PROX_FN(prox_vec3) p,
                                                       const PROX_FN(prox_plane) * plane,
                                                       PROX_FN(prox_closest) * out) {
  PROX_REAL s, nn, d2 = PROX_FN(prox_detail_plane_query)(p, plane, out, &s, &nn);
  if (d2 < PROX_DETAIL_D2_TINY || d2 > PROX_REAL_MAX) {
    /* s / |n| directly: its square may be subnormal, or overflow. */
    return nn > 0 ? s / PROX_SQRT(nn) : PROX_COPYSIGN(PROX_R(0.0), s);
  }
  return PROX_COPYSIGN(PROX_SQRT(d2), s);
}

/* ------------------------------ line, ray, segment ------------------------ */

PROX_KERNEL PROX_REAL PROX_FN(prox_point_line)(PROX_FN(prox_vec3) p,
                                               const PROX_FN(prox_line) * line,
                                               PROX_FN(prox_closest) * out) {
  PROX_FN(prox_vec3) q;
  PROX_REAL t, d2;
  int end;
  d2 = PROX_FN(prox_detail_param_closest)(p, line->origin, line->dir, -PROX_INF, PROX_INF, 0, &q,
                                          &t, &end);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  PROX_FN(prox_detail_params)(out, t, 0, 0, 0);
  return PROX_FN(prox_detail_set)(out, q, d2, end < 0 ? PROX_FEATURE_EDGE : PROX_FEATURE_VERTEX, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_ray)(PROX_FN(prox_vec3) p, const PROX_FN(prox_ray) * ray,
                                              PROX_FN(prox_closest) * out) {
  PROX_FN(prox_vec3) q;
  PROX_REAL t, d2;
  int end;
  if (ray->tmin != ray->tmin || ray->tmax != ray->tmax) return PROX_FN(prox_detail_nan)(out);
  d2 = PROX_FN(prox_detail_param_closest)(p, ray->origin, ray->dir, ray->tmin, ray->tmax, 0, &q, &t,
                                          &end);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  PROX_FN(prox_detail_params)(out, t, 0, 0, 0);
  return PROX_FN(prox_detail_set)(out, q, d2, end < 0 ? PROX_FEATURE_EDGE : PROX_FEATURE_VERTEX,
                                  end < 0 ? 0 : end);
}

PROX_SMALL_KERNEL PROX_REAL PROX_FN(prox_point_segment)(PROX_FN(prox_vec3) p,
                                                        const PROX_FN(prox_segment) * seg,
                                                        PROX_FN(prox_closest) * out) {
  /* Branch-free (on random input the three outcomes are equally likely
   * and a branch on them mispredicts): t clamped with max and min, and the
   * point as (1 - t) a + t b, which is a at t = 0 and b at t = 1 exactly.
   * The first clamp also takes a NaN t to 0: a == b (0 / 0) gives the point
   * a, and non-finite input still gives NaN, as q (or t d) mixes a and b
   * and d2 takes p. The opaque steps keep GCC from turning the clamps into
   * branches (see PROX_OPAQUE). Without out, d2 is |w - t d|^2 with
   * w = p - a: six operations fewer than forming q, and a shorter
   * dependency chain after the division; with out it is |p - q|^2,
   * consistent with the point (the capsule's direction p - q relies on
   * it). */
  PROX_FN(prox_vec3) d = PROX_FN(prox_vsub)(seg->b, seg->a), q;
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(p, seg->a);
  PROX_REAL dd = PROX_FN(prox_vdot)(d, d);
  PROX_REAL t = PROX_FN(prox_vdot)(w, d) / dd, d2;
  {
    PROX_REAL zero = 0;
    PROX_OPAQUE(zero);
    PROX_OPAQUE(t);
    t = t > zero ? t : zero;
  }
  t = t < 1 ? t : 1;
  PROX_OPAQUE(t);
  if (!out) {
    d2 = PROX_FN(prox_vlen2)(PROX_FN(prox_vsub)(w, PROX_FN(prox_vscale)(d, t)));
    /* d2 - d2 is 0, or NaN when d2 is infinite (an infinite p). */
    return d2 + (d2 - d2);
  }
  q = PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(seg->a, 1 - t), PROX_FN(prox_vscale)(seg->b, t));
  d2 = PROX_FN(prox_vdist2)(p, q);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  PROX_FN(prox_detail_params)(out, t, 0, 0, 0);
  return PROX_FN(prox_detail_set)(
      out, q, d2, t == 0 || t == 1 ? PROX_FEATURE_VERTEX : PROX_FEATURE_EDGE, t == 1);
}

/* --------------------------------- triangle ------------------------------- */

/* PROX_WIDE_SIN2 (detail/real_double.h, real_float.h): sin^2 of the angle
 * at v[0] below which the plain face formula is replaced by wide
 * arithmetic (the in-plane error grows like eps / sin^2); PROX_FLAT_SIN2:
 * below it the triangle is treated as the union of its edges (its inradius
 * is then far below sqrt(eps) S, the error of doing so). PROX_REAL_MIN: the
 * least n2 = |e1 x e2|^2 of the plain path beyond PROX_WIDE_SIN2
 * |e1|^2 |e2|^2, the smallest normal number: subnormal terms of degree 4
 * lose their relative precision, and n . n in the face branch could even
 * be 0 (float edges near 2^-38). */

/// Internal: closest point on edge i (v[i] to v[(i+1)%3]) of a triangle,
/// written to *out with triangle features and barycentrics, if closer than
/// best. Returns the new best squared distance.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tri_edge)(PROX_FN(prox_vec3) p,
                                                           const PROX_FN(prox_triangle) * tri,
                                                           int i, PROX_REAL best,
                                                           PROX_FN(prox_closest) * out) {
  PROX_FN(prox_segment) s;
  PROX_FN(prox_closest) r;
  PROX_REAL d2, bary[3];
  int j = i == 2 ? 0 : i + 1;
  s.a = tri->v[i];
  s.b = tri->v[j];
  d2 = PROX_FN(prox_point_segment)(p, &s, &r);
  if (!(d2 < best)) return best;
  bary[0] = bary[1] = bary[2] = 0;
  bary[i] = 1 - r.param[0];
  bary[j] = r.param[0];
  out->point = r.point;
  out->sqdist = d2;
  out->param[0] = bary[0];
  out->param[1] = bary[1];
  out->param[2] = bary[2];
  out->param[3] = 0;
  if (r.feature.kind == PROX_FEATURE_VERTEX) {
    out->feature.kind = PROX_FEATURE_VERTEX;
    out->feature.index = r.feature.index ? j : i;
  } else {
    out->feature.kind = PROX_FEATURE_EDGE;
    out->feature.index = i;
  }
  return d2;
}

/// Internal: the face point a + s e1 + t e2 with barycentrics, FACE 0.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tri_face)(
    PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) e1, PROX_FN(prox_vec3) e2,
    PROX_REAL s, PROX_REAL t, PROX_FN(prox_closest) * out) {
  PROX_FN(prox_vec3)
  q = PROX_FN(prox_vadd)(
      a, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(e1, s), PROX_FN(prox_vscale)(e2, t)));
  PROX_REAL d2 = PROX_FN(prox_vdist2)(p, q);
  PROX_FN(prox_detail_params)(out, 1 - s - t, s, t, 0);
  return PROX_FN(prox_detail_set)(out, q, d2, PROX_FEATURE_FACE, 0);
}

/// Internal: the barycentric numerators of the orthogonal projection of p
/// onto a triangle's plane, evaluated in wide arithmetic (relative error of
/// a few eps^2 for double) and returned as doubles: num[0..2] = (na, nb, nc),
/// the projection being (na v[0] + nb v[1] + nc v[2]) / n2; len2[0..2] =
/// |v[1] - v[0]|^2, |v[2] - v[0]|^2, |p - v[0]|^2. Returns n2 = |n|^2, n the
/// normal (v[1] - v[0]) x (v[2] - v[0]). Ratios of these degree-4 quantities
/// are formed in double, where float kernels neither underflow nor lose
/// digits. In double they would overflow beyond coordinates of about 2^255
/// and underflow below 2^-255, so the input is first brought within
/// 2^+-200 by a power of two (prox_detail_wnormalize): *unit is the factor
/// applied to the coordinates, which the caller needs only to compare these
/// quantities with its own.
PROX_DETAIL_KERNEL double PROX_FN(prox_detail_tri_wide)(PROX_FN(prox_vec3) p,
                                                        const PROX_FN(prox_triangle) * tri,
                                                        double *num, double *len2, double *unit) {
  PROX_FN(prox_vec3) a = tri->v[0], b = tri->v[1], c = tri->v[2];
  PROX_FN(prox_detail_wvec3) E1, E2, W;
  *unit = 1;
#if PROX_IS_DOUBLE
  {
    double x[12] = {a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, p.x, p.y, p.z};
    *unit = prox_detail_wnormalize(x, 12);
    a = prox_v3(x[0], x[1], x[2]);
    b = prox_v3(x[3], x[4], x[5]);
    c = prox_v3(x[6], x[7], x[8]);
    p = prox_v3(x[9], x[10], x[11]);
  }
#endif
  E1 = PROX_FN(prox_detail_wvdiff)(b, a);
  E2 = PROX_FN(prox_detail_wvdiff)(c, a);
  W = PROX_FN(prox_detail_wvdiff)(p, a);
  PROX_FN(prox_detail_wvec3) n = PROX_FN(prox_detail_wvcross)(E1, E2);
  PROX_FN(prox_detail_wide) N2 = PROX_FN(prox_detail_wvdot)(n, n);
  PROX_FN(prox_detail_wide)
  Nb = PROX_FN(prox_detail_wvdot)(n, PROX_FN(prox_detail_wvcross)(W, E2));
  PROX_FN(prox_detail_wide)
  Nc = PROX_FN(prox_detail_wvdot)(n, PROX_FN(prox_detail_wvcross)(E1, W));
  num[0] = PROX_FN(prox_detail_wapprox)(
      PROX_FN(prox_detail_wsub)(PROX_FN(prox_detail_wsub)(N2, Nb), Nc));
  num[1] = PROX_FN(prox_detail_wapprox)(Nb);
  num[2] = PROX_FN(prox_detail_wapprox)(Nc);
  len2[0] = PROX_FN(prox_detail_wapprox)(PROX_FN(prox_detail_wvdot)(E1, E1));
  len2[1] = PROX_FN(prox_detail_wapprox)(PROX_FN(prox_detail_wvdot)(E2, E2));
  len2[2] = PROX_FN(prox_detail_wapprox)(PROX_FN(prox_detail_wvdot)(W, W));
  return PROX_FN(prox_detail_wapprox)(N2);
}

/// Internal: the triangle query for triangles whose angle at v[0] is tiny
/// or zero, in wide arithmetic; see prox_point_triangle.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tri_thin)(PROX_FN(prox_vec3) p,
                                                           const PROX_FN(prox_triangle) * tri,
                                                           PROX_FN(prox_closest) * out) {
  double num[3], len2[3], unit;
  double n2 = PROX_FN(prox_detail_tri_wide)(p, tri, num, len2, &unit);
  PROX_FN(prox_closest) r;
  PROX_REAL best = PROX_INF;
  if (n2 > PROX_FLAT_SIN2 * len2[0] * len2[1] && num[0] >= 0 && num[1] >= 0 && num[2] >= 0) {
    /* Projection inside: the face point. Its parameters are accurate to a
     * few ulps; the rounded edges keep it within a few eps S of the
     * plane. */
    PROX_FN(prox_vec3) a = tri->v[0];
    return PROX_FN(prox_detail_tri_face)(p, a, PROX_FN(prox_vsub)(tri->v[1], a),
                                         PROX_FN(prox_vsub)(tri->v[2], a), (PROX_REAL)(num[1] / n2),
                                         (PROX_REAL)(num[2] / n2), out);
  }
  /* Flat triangle, or projection outside: the union of the edges. */
  best = PROX_FN(prox_detail_tri_edge)(p, tri, 0, best, &r);
  best = PROX_FN(prox_detail_tri_edge)(p, tri, 1, best, &r);
  best = PROX_FN(prox_detail_tri_edge)(p, tri, 2, best, &r);
  if (out) *out = r;
  return best;
}

/// Internal: prox_point_triangle's wide path (prox_detail_tri_thin) for
/// slivers, triangles of zero area and overflowing numerators; NaN when
/// mag = |e1|^2 + |e2|^2 + |p - v0|^2 is not finite (non-finite input) or
/// the result is not.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tri_slow)(PROX_FN(prox_vec3) p,
                                                           const PROX_FN(prox_triangle) * tri,
                                                           PROX_FN(prox_closest) * out,
                                                           PROX_REAL mag) {
  PROX_REAL d2 = PROX_NAN;
  if (mag <= PROX_REAL_MAX) d2 = PROX_FN(prox_detail_tri_thin)(p, tri, out);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  return d2;
}

/// Internal: prox_point_triangle's face branch where the angle at v[0] has
/// sin^2 < 1/8 (n2 < d11 d22 / 8): p projected along the cross product at
/// the vertex opposite the longest edge, whose angle has the largest sine
/// (v[1]: f x (-e1) = e1 x f, v[2]: (-e2) x (-f) = e2 x f, f = v[2] - v[1];
/// p measured from that vertex), so that the normal's direction is
/// accurate to about eps / that sine; the rest as the face branch. A cap
/// (even that angle has sin^2 < 1/8: one angle above about 159 degrees, v[0]
/// the best included) takes the wide path. Out of line and called last: the
/// common triangle keeps its registers.
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_tri_face_far)(
    PROX_FN(prox_vec3) p, const PROX_FN(prox_triangle) * tri, PROX_FN(prox_closest) * out,
    PROX_REAL d11, PROX_REAL d22, PROX_REAL n2, PROX_REAL nb, PROX_REAL nc) {
  PROX_FN(prox_vec3) a = tri->v[0];
  PROX_FN(prox_vec3) e1 = PROX_FN(prox_vsub)(tri->v[1], a);
  PROX_FN(prox_vec3) e2 = PROX_FN(prox_vsub)(tri->v[2], a);
  PROX_FN(prox_vec3) f = PROX_FN(prox_vsub)(tri->v[2], tri->v[1]), n, wn;
  PROX_REAL ff = PROX_FN(prox_vdot)(f, f), adj, nw, k, s, t, d2;
  int cap = ff >= d11 && ff >= d22; /* v[0] is the best: a cap */
  if (cap) {
    adj = 0;
    n = wn = e1;
  } else if (d11 >= d22) {
    n = PROX_FN(prox_vcross)(e2, f);
    wn = PROX_FN(prox_vsub)(p, tri->v[2]);
    adj = d22 * ff;
  } else {
    n = PROX_FN(prox_vcross)(e1, f);
    wn = PROX_FN(prox_vsub)(p, tri->v[1]);
    adj = d11 * ff;
  }
  if (cap || !(n2 >= PROX_R(0.125) * adj))
    return PROX_FN(prox_detail_tri_slow)(
        p, tri, out,
        d11 + d22 + PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(p, a), PROX_FN(prox_vsub)(p, a)));
  nw = PROX_FN(prox_vdot)(n, wn);
  k = nw / PROX_FN(prox_vdot)(n, n);
  s = nb / n2;
  t = nc / n2;
  d2 = k * nw;
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  PROX_FN(prox_detail_params)(out, 1 - s - t, s, t, 0);
  return PROX_FN(prox_detail_set)(out, PROX_FN(prox_vmadd)(p, -k, n), d2, PROX_FEATURE_FACE, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_triangle)(PROX_FN(prox_vec3) p,
                                                   const PROX_FN(prox_triangle) * tri,
                                                   PROX_FN(prox_closest) * out) {
  PROX_FN(prox_vec3) a = tri->v[0];
  PROX_FN(prox_vec3) e1 = PROX_FN(prox_vsub)(tri->v[1], a);
  PROX_FN(prox_vec3) e2 = PROX_FN(prox_vsub)(tri->v[2], a);
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(p, a);
  PROX_REAL d11 = PROX_FN(prox_vdot)(e1, e1);
  PROX_REAL d22 = PROX_FN(prox_vdot)(e2, e2);
  PROX_REAL d12 = PROX_FN(prox_vdot)(e1, e2);
  PROX_REAL w1 = PROX_FN(prox_vdot)(w, e1);
  PROX_REAL w2 = PROX_FN(prox_vdot)(w, e2);
  PROX_REAL scale = d11 * d22;
  /* |e1 x e2|^2 by Lagrange's identity. */
  PROX_REAL n2 = scale - d12 * d12;
  PROX_REAL d2, t, u3, u4, u5, u6, na, nb, nc;
  PROX_FN(prox_vec3) q;
  int kind, index;
  /* Sliver, zero area, non-finite, or n2 near underflow (one comparison:
   * n2 then exceeds both PROX_WIDE_SIN2 |e1|^2 |e2|^2 and the floor). */
  if (!(n2 > PROX_WIDE_SIN2 * scale + PROX_REAL_MIN))
    return PROX_FN(prox_detail_tri_slow)(p, tri, out, d11 + d22 + PROX_FN(prox_vdot)(w, w));
  /* Voronoi regions in Ericson's order, from the dot products of p - v[i]
   * with the edges (u3 = (p - b).e1, u4 = (p - b).e2, u5 = (p - c).e1,
   * u6 = (p - c).e2) and the barycentric numerators (na, nb, nc) / n2 of
   * the projection of p. Rounding can only misplace p whose projection is
   * within rounding of a region boundary, where the candidates agree. The
   * numerators (degree 4) can overflow with finite n2 (beyond coordinates
   * of about 2^31 in float, 2^255 in double, with p far from a short
   * edge): an infinite nb or nc keeps its sign, so their edge tests stay
   * right, but na = n2 - nb - nc is then infinite or NaN whatever its true
   * sign: the edge-1 test needs it finite, and the face branch sends such
   * input to the wide path. */
  u3 = w1 - d11;
  u4 = w2 - d12;
  u5 = w1 - d12;
  u6 = w2 - d22;
  nb = d22 * w1 - d12 * w2;
  nc = d11 * w2 - d12 * w1;
  na = n2 - nb - nc;
  if (w1 <= 0 && w2 <= 0) {
    q = a;
    PROX_FN(prox_detail_params)(out, 1, 0, 0, 0);
    kind = PROX_FEATURE_VERTEX;
    index = 0;
  } else if (u3 >= 0 && u4 <= u3) {
    q = tri->v[1];
    PROX_FN(prox_detail_params)(out, 0, 1, 0, 0);
    kind = PROX_FEATURE_VERTEX;
    index = 1;
  } else if (nc <= 0 && w1 >= 0 && u3 <= 0) {
    t = w1 / d11;
    q = PROX_FN(prox_vmadd)(a, t, e1);
    PROX_FN(prox_detail_params)(out, 1 - t, t, 0, 0);
    kind = PROX_FEATURE_EDGE;
    index = 0;
  } else if (u6 >= 0 && u5 <= u6) {
    q = tri->v[2];
    PROX_FN(prox_detail_params)(out, 0, 0, 1, 0);
    kind = PROX_FEATURE_VERTEX;
    index = 2;
  } else if (nb <= 0 && w2 >= 0 && u6 <= 0) {
    t = w2 / d22;
    q = PROX_FN(prox_vmadd)(a, t, e2);
    PROX_FN(prox_detail_params)(out, 1 - t, 0, t, 0);
    kind = PROX_FEATURE_EDGE;
    index = 2;
  } else if (na <= 0 && na - na == 0 && u4 - u3 >= 0 && u5 - u6 >= 0) {
    /* Measured from v1 directly: from the Gram terms of v0 the ratio
     * would cancel when v0 is far from this edge. */
    PROX_FN(prox_vec3) b = tri->v[1];
    PROX_FN(prox_vec3) f = PROX_FN(prox_vsub)(tri->v[2], b);
    t = PROX_FN(prox_clamp)(
        PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(p, b), f) / PROX_FN(prox_vdot)(f, f), 0, 1);
    q = PROX_FN(prox_vmadd)(b, t, f);
    PROX_FN(prox_detail_params)(out, 0, 1 - t, t, 0);
    kind = PROX_FEATURE_EDGE;
    index = 1;
  } else {
    /* Face: project p along the normal, a cross product of two edges,
     * whose direction is accurate to about eps / sin of the angle between
     * them (and a projection does not square that factor as solving for
     * the barycentrics does): at v[0] while that angle has sin^2 >= 1/8,
     * else prox_detail_tri_face_far. */
    PROX_FN(prox_vec3) n;
    PROX_REAL nw, k, s;
    if (!(na - na == 0)) /* overflowed numerators, or non-finite input */
      return PROX_FN(prox_detail_tri_slow)(p, tri, out, d11 + d22 + PROX_FN(prox_vdot)(w, w));
    if (!(n2 >= PROX_R(0.125) * scale))
      return PROX_FN(prox_detail_tri_face_far)(p, tri, out, d11, d22, n2, nb, nc);
    n = PROX_FN(prox_vcross)(e1, e2);
    nw = PROX_FN(prox_vdot)(n, w);
    k = nw / PROX_FN(prox_vdot)(n, n);
    s = nb / n2;
    t = nc / n2;
    d2 = k * nw;
    if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
    PROX_FN(prox_detail_params)(out, 1 - s - t, s, t, 0);
    return PROX_FN(prox_detail_set)(out, PROX_FN(prox_vmadd)(p, -k, n), d2, PROX_FEATURE_FACE, 0);
  }
  d2 = PROX_FN(prox_vdist2)(p, q);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  return PROX_FN(prox_detail_set)(out, q, d2, kind, index);
}

PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_triangle_barycentric)(PROX_FN(prox_vec3) p, const PROX_FN(prox_triangle) * tri) {
  double num[3], len2[3], unit;
  double n2 = PROX_FN(prox_detail_tri_wide)(p, tri, num, len2, &unit);
  double scale = len2[0] * len2[1];
  PROX_FN(prox_closest) r;
  if (!(len2[2] + scale <= DBL_MAX)) return PROX_FN(prox_v3)(PROX_NAN, PROX_NAN, PROX_NAN);
  if (n2 > PROX_FLAT_SIN2 * scale) {
    double v = num[1] / n2, w = num[2] / n2;
    return PROX_FN(prox_v3)((PROX_REAL)((1 - v) - w), (PROX_REAL)v, (PROX_REAL)w);
  }
  PROX_FN(prox_point_triangle)(p, tri, &r);
  return PROX_FN(prox_v3)(r.param[0], r.param[1], r.param[2]);
}

PROX_KERNEL int PROX_FN(prox_point_in_triangle)(PROX_FN(prox_vec3) p,
                                                const PROX_FN(prox_triangle) * tri) {
  double num[3], len2[3], unit;
  double n2 = PROX_FN(prox_detail_tri_wide)(p, tri, num, len2, &unit);
  double scale = len2[0] * len2[1];
  /* Bound on the rounding of the wide numerators (degree 4 in the
   * coordinates) relative to their magnitude; in double. */
  double tol, weps = PROX_IS_DOUBLE ? DBL_EPSILON * DBL_EPSILON : DBL_EPSILON;
  if (!(len2[2] + scale <= DBL_MAX)) return 0;
  if (n2 > PROX_FLAT_SIN2 * scale) {
    double mag = sqrt(len2[2]) + sqrt(len2[0]) + sqrt(len2[1]);
    tol = 64.0 * weps * mag * mag * mag * mag;
    return num[0] >= -tol && num[1] >= -tol && num[2] >= -tol;
  }
  /* Squared distance 0 up to the square of the kernel's point error: a
   * bound of degree 2, like the distance (len2 is in the same frame). */
  tol = 64.0 * (double)PROX_EPS * (double)PROX_EPS * (len2[0] + len2[1] + len2[2]);
  return (double)PROX_FN(prox_point_triangle)(p, tri, 0) * unit * unit <= tol;
}

/* -------------------------------- rectangle ------------------------------- */

PROX_KERNEL PROX_REAL PROX_FN(prox_point_rectangle)(PROX_FN(prox_vec3) p,
                                                    const PROX_FN(prox_rectangle) * rect,
                                                    PROX_FN(prox_closest) * out) {
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(p, rect->center);
  PROX_REAL h0 = PROX_FABS(rect->half[0]), h1 = PROX_FABS(rect->half[1]);
  PROX_REAL s = PROX_FN(prox_vdot)(w, rect->axis[0]);
  PROX_REAL t = PROX_FN(prox_vdot)(w, rect->axis[1]);
  int cs = s > h0 ? 1 : (s < -h0 ? -1 : 0);
  int ct = t > h1 ? 1 : (t < -h1 ? -1 : 0);
  PROX_FN(prox_vec3) q;
  PROX_REAL d2;
  int kind, index;
  s = cs ? (cs > 0 ? h0 : -h0) : s;
  t = ct ? (ct > 0 ? h1 : -h1) : t;
  q = PROX_FN(prox_vadd)(rect->center, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(rect->axis[0], s),
                                                          PROX_FN(prox_vscale)(rect->axis[1], t)));
  d2 = PROX_FN(prox_vdist2)(p, q) + (h0 - h0) + (h1 - h1);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  if (cs && ct) {
    kind = PROX_FEATURE_VERTEX;
    index = (cs > 0) | ((ct > 0) << 1);
  } else if (cs || ct) {
    kind = PROX_FEATURE_EDGE;
    index = cs ? (cs > 0) : 2 + (ct > 0);
  } else {
    kind = PROX_FEATURE_FACE;
    index = 0;
  }
  PROX_FN(prox_detail_params)(out, s, t, 0, 0);
  return PROX_FN(prox_detail_set)(out, q, d2, kind, index);
}

/* ---------------------------------- boxes --------------------------------- */

#if PROX_SSE
/* The SSE paths of prox_point_aabb and prox_point_obb read the boxes as
 * arrays of reals at fixed offsets: these fail to compile if the layout
 * ever changes (a negative array size). */
typedef char PROX_FN(
    prox_detail_aabb_layout)[sizeof(PROX_FN(prox_aabb)) == 6 * sizeof(PROX_REAL) &&
                                     offsetof(PROX_FN(prox_aabb), max) == 3 * sizeof(PROX_REAL)
                                 ? 1
                                 : -1];
typedef char PROX_FN(
    prox_detail_obb_layout)[sizeof(PROX_FN(prox_obb)) == 15 * sizeof(PROX_REAL) &&
                                    offsetof(PROX_FN(prox_obb), axis) == 3 * sizeof(PROX_REAL) &&
                                    offsetof(PROX_FN(prox_obb), half) == 12 * sizeof(PROX_REAL)
                                ? 1
                                : -1];
#endif

PROX_SMALL_KERNEL PROX_REAL PROX_FN(prox_point_aabb)(PROX_FN(prox_vec3) p,
                                                     const PROX_FN(prox_aabb) * box,
                                                     PROX_FN(prox_closest) * out) {
  PROX_FN(prox_vec3) lo, hi, q;
  PROX_REAL d2, g;
  prox_feature f;
#if PROX_SSE && !PROX_IS_DOUBLE
  if (!out) {
    /* The code below, four lanes at once (the fourth holds other inputs
     * and is not summed), with its guard per lane: 0 * min_i * max_i joins
     * the square of axis i, and d2 + (d2 - d2) turns an infinite d2 into
     * NaN. The same bits for finite input, NaN otherwise. The corners are
     * read as 16 bytes at offsets 0 and 8 of the 24-byte box. The clamp is
     * prox_clamp's: min(p, max) first, so that min wins if min > max. */
    typedef prox_detail_v4f v4;
    const float *c = (const float *)(const void *)box;
    v4 mn = *(const prox_detail_v4f_u *)c, t = *(const prox_detail_v4f_u *)(c + 2);
    v4 mx = {t[1], t[2], t[3], t[3]}, pv = {p.x, p.y, p.z, p.z};
    v4 zero = {0, 0, 0, 0};
    v4 q4 = __builtin_ia32_maxps(__builtin_ia32_minps(pv, mx), mn);
    v4 d = pv - q4, s = d * d + zero * mn * mx;
    d2 = (s[0] + s[1]) + s[2];
    return d2 + (d2 - d2);
  }
#endif
  /* Branch-free clamp. The clamp drops a NaN or infinite corner, so g, the
   * corners' product started from 0 (it cannot overflow), is +-0 unless a
   * corner is NaN or infinite, and then NaN. d2 + d2 * g is d2 for finite
   * input and NaN otherwise (an infinite p gives an infinite d2): no branch
   * or select, so that a caller's loop can be vectorised. */
  q.x = PROX_FN(prox_clamp)(p.x, box->min.x, box->max.x);
  q.y = PROX_FN(prox_clamp)(p.y, box->min.y, box->max.y);
  q.z = PROX_FN(prox_clamp)(p.z, box->min.z, box->max.z);
  g = box->min.x * 0 * box->min.y * box->min.z * box->max.x * box->max.y * box->max.z;
  d2 = PROX_FN(prox_vdist2)(p, q);
  d2 += d2 * g;
  if (!out) return d2;
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  /* The box the clamp used: [min, max(min, max)] on each axis. */
  lo = box->min;
  hi = PROX_FN(prox_vmax)(box->min, box->max);
  f = PROX_FN(prox_detail_box_feature)((p.x > hi.x) - (p.x < lo.x), (p.y > hi.y) - (p.y < lo.y),
                                       (p.z > hi.z) - (p.z < lo.z));
  PROX_FN(prox_detail_params)(out, 0, 0, 0, 0);
  return PROX_FN(prox_detail_set)(out, f.kind == PROX_FEATURE_INTERIOR ? p : q, d2, f.kind,
                                  f.index);
}

/// Internal: the depth of a point inside a box from its distances lo[i]
/// and hi[i] to the low and high face of each axis, and the nearest face
/// (2i for the low, 2i + 1 for the high face of axis i; lowest index wins).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_box_depth)(const PROX_REAL *lo,
                                                            const PROX_REAL *hi, int *face) {
  PROX_REAL depth = PROX_INF;
  int i;
  for (i = 0; i < 3; ++i) {
    if (lo[i] < depth) {
      depth = lo[i];
      *face = 2 * i;
    }
    if (hi[i] < depth) {
      depth = hi[i];
      *face = 2 * i + 1;
    }
  }
  return depth;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_aabb_signed)(PROX_FN(prox_vec3) p,
                                                      const PROX_FN(prox_aabb) * box,
                                                      PROX_FN(prox_closest) * out) {
  PROX_FN(prox_closest) r;
  PROX_REAL d2 = PROX_FN(prox_point_aabb)(p, box, &r);
  PROX_FN(prox_vec3) lo, hi;
  PROX_REAL dlo[3], dhi[3], depth;
  int face = 0;
  if (r.feature.kind != PROX_FEATURE_INTERIOR) {
    if (out) *out = r;
    if (d2 < PROX_DETAIL_D2_TINY) {
      /* A small configuration: the distance measured at magnitude 1. */
      PROX_FN(prox_vec3) v[3];
      int e;
      v[0] = p, v[1] = box->min, v[2] = box->max;
      e = PROX_FN(prox_detail_frame)(v, 3, 0);
      if (e < 0) {
        PROX_FN(prox_aabb) bs;
        bs.min = PROX_FN(prox_detail_vldexp)(box->min, -e);
        bs.max = PROX_FN(prox_detail_vldexp)(box->max, -e);
        return PROX_FN(prox_detail_root_scaled)(
            PROX_FN(prox_point_aabb)(PROX_FN(prox_detail_vldexp)(p, -e), &bs, &r), e);
      }
    }
    return PROX_SQRT(d2);
  }
  /* The box prox_point_aabb used: [min, max(min, max)] on each axis. */
  lo = box->min;
  hi = PROX_FN(prox_vmax)(box->min, box->max);
  dlo[0] = p.x - lo.x;
  dlo[1] = p.y - lo.y;
  dlo[2] = p.z - lo.z;
  dhi[0] = hi.x - p.x;
  dhi[1] = hi.y - p.y;
  dhi[2] = hi.z - p.z;
  depth = PROX_FN(prox_detail_box_depth)(dlo, dhi, &face);
  r.point = p;
  if (face == 0) r.point.x = lo.x;
  if (face == 1) r.point.x = hi.x;
  if (face == 2) r.point.y = lo.y;
  if (face == 3) r.point.y = hi.y;
  if (face == 4) r.point.z = lo.z;
  if (face == 5) r.point.z = hi.z;
  r.sqdist = depth * depth;
  r.feature.kind = PROX_FEATURE_FACE;
  r.feature.index = face;
  if (out) *out = r;
  return -depth;
}

PROX_SMALL_KERNEL PROX_REAL PROX_FN(prox_point_obb)(PROX_FN(prox_vec3) p,
                                                    const PROX_FN(prox_obb) * box,
                                                    PROX_FN(prox_closest) * out) {
#if PROX_SSE && !PROX_IS_DOUBLE
  if (!out) {
    /* The code below in four lanes, operation for operation (lanes are
     * the axes for the box coordinates, x, y, z for the points; the fourth
     * is not summed). The box is read as 16-byte rows at its center, its
     * axes, and its half extents (from 4 bytes before them, so that the
     * read stays inside the 60-byte box). */
    typedef prox_detail_v4f v4;
    typedef prox_detail_v4f_u v4u;
    const float *b = (const float *)(const void *)box;
    v4 c = *(const v4u *)b, a0 = *(const v4u *)(b + 3);
    v4 a1 = *(const v4u *)(b + 6), a2 = *(const v4u *)(b + 9);
    v4 hr = *(const v4u *)(b + 11), pv = {p.x, p.y, p.z, p.z};
    v4 w = pv - c, r, h, s, u, d;
    v4 lo01 = __builtin_shufflevector(a0, a1, 0, 4, 1, 5);
    v4 hi01 = __builtin_shufflevector(a0, a1, 2, 6, 3, 7);
    v4 ax = __builtin_shufflevector(lo01, a2, 0, 1, 4, 4);
    v4 ay = __builtin_shufflevector(lo01, a2, 2, 3, 5, 5);
    v4 az = __builtin_shufflevector(hi01, a2, 0, 1, 6, 6);
    v4 wx = __builtin_shufflevector(w, w, 0, 0, 0, 0);
    v4 wy = __builtin_shufflevector(w, w, 1, 1, 1, 1);
    v4 wz = __builtin_shufflevector(w, w, 2, 2, 2, 2);
    prox_detail_v4i abs_mask = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
    float big, poison, d2;
    r = (wx * ax + wy * ay) + wz * az;
    h = __builtin_shufflevector(hr, hr, 1, 2, 3, 3);
    h = (v4)((prox_detail_v4i)h & abs_mask);
    s = __builtin_ia32_maxps(-h, __builtin_ia32_minps(h, r));
    u = (v4)((prox_detail_v4i)r & abs_mask) - h;
    big = u[0] > u[1] ? u[0] : u[1];
    big = big > u[2] ? big : u[2];
    poison = (u[0] + u[1]) + u[2];
    d = (w - __builtin_shufflevector(s, s, 0, 0, 0, 0) * a0) -
        (a1 * __builtin_shufflevector(s, s, 1, 1, 1, 1) +
         a2 * __builtin_shufflevector(s, s, 2, 2, 2, 2));
    d = d * d;
    d2 = (d[0] + d[1]) + d[2];
    PROX_OPAQUE(d2);
    d2 = big > 0 ? d2 : 0;
    return d2 + (poison - poison);
  }
#elif PROX_SSE
  if (!out) {
    /* The same in double: the box coordinates of axes 0 and 1 in two
     * lanes and that of axis 2 alone; x, y of the points in two lanes and
     * z alone. Again the scalar code's operations, lane by lane. */
    typedef prox_detail_v2d v2;
    typedef prox_detail_v2d_u v2u;
    const double *b = (const double *)(const void *)box;
    v2 a0 = *(const v2u *)(b + 3), a1 = *(const v2u *)(b + 6);
    v2 a2 = *(const v2u *)(b + 9), c = *(const v2u *)b, pv = {p.x, p.y};
    v2 w = pv - c, r, h, s, u, d;
    v2 ax = __builtin_shufflevector(a0, a1, 0, 2);
    v2 ay = __builtin_shufflevector(a0, a1, 1, 3);
    v2 az = {b[5], b[8]}, hv = {b[12], b[13]};
    v2 wx = __builtin_shufflevector(w, w, 0, 0);
    v2 wy = __builtin_shufflevector(w, w, 1, 1);
    prox_detail_v2l abs_mask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    double wz = p.z - b[2], h2 = PROX_FABS(b[14]), r2, s2, u2, d2, dz;
    double big, poison;
    r = (wx * ax + wy * ay) + wz * az;
    r2 = (w[0] * b[9] + w[1] * b[10]) + wz * b[11];
    h = (v2)((prox_detail_v2l)hv & abs_mask);
    s = __builtin_ia32_maxpd(-h, __builtin_ia32_minpd(h, r));
    s2 = PROX_FN(prox_clamp)(r2, -h2, h2);
    u = (v2)((prox_detail_v2l)r & abs_mask) - h;
    u2 = PROX_FABS(r2) - h2;
    big = u[0] > u[1] ? u[0] : u[1];
    big = big > u2 ? big : u2;
    poison = (u[0] + u[1]) + u2;
    d = (w - s[0] * a0) - (a1 * s[1] + a2 * s2);
    dz = (wz - s[0] * b[5]) - (b[8] * s[1] + b[11] * s2);
    d = d * d;
    d2 = (d[0] + d[1]) + dz * dz;
    PROX_OPAQUE(d2);
    d2 = big > 0 ? d2 : 0;
    return d2 + (poison - poison);
  }
#endif
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(p, box->center);
  PROX_REAL h0 = PROX_FABS(box->half[0]), h1 = PROX_FABS(box->half[1]);
  PROX_REAL h2 = PROX_FABS(box->half[2]);
  PROX_REAL r0 = PROX_FN(prox_vdot)(w, box->axis[0]);
  PROX_REAL r1 = PROX_FN(prox_vdot)(w, box->axis[1]);
  PROX_REAL r2 = PROX_FN(prox_vdot)(w, box->axis[2]);
  PROX_REAL s0 = PROX_FN(prox_clamp)(r0, -h0, h0);
  PROX_REAL s1 = PROX_FN(prox_clamp)(r1, -h1, h1);
  PROX_REAL s2 = PROX_FN(prox_clamp)(r2, -h2, h2);
  PROX_REAL ex, d2;
  int inside;
  PROX_FN(prox_vec3) q;
  prox_feature f;
  if (!out) {
    /* Distance only. u_i = |r_i| - h_i is <= 0 exactly when p is inside
     * the slab of axis i (where the clamp keeps r_i), so the largest u_i
     * tells inside. Their sum is finite unless an input is NaN or infinite
     * (which makes every r_i, or its own u_i, non-finite) or the input is
     * beyond the domain (closest.h): that sum minus itself, 0 or NaN, joins
     * the result. p - q is formed as w - sum s_i a_i, two operations fewer
     * than with q = c + sum s_i a_i. Selects, not branches; d2 is opaque,
     * as below. */
    PROX_REAL u0 = PROX_FABS(r0) - h0, u1 = PROX_FABS(r1) - h1;
    PROX_REAL u2 = PROX_FABS(r2) - h2, big = u0 > u1 ? u0 : u1;
    PROX_REAL poison = (u0 + u1) + u2;
    PROX_FN(prox_vec3) d;
    big = big > u2 ? big : u2;
    d = PROX_FN(prox_vsub)(PROX_FN(prox_vsub)(w, PROX_FN(prox_vscale)(box->axis[0], s0)),
                           PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(box->axis[1], s1),
                                              PROX_FN(prox_vscale)(box->axis[2], s2)));
    d2 = PROX_FN(prox_vdot)(d, d);
    PROX_OPAQUE(d2);
    d2 = big > 0 ? d2 : 0;
    return d2 + (poison - poison);
  }
  /* 0 exactly when p is inside (a sum of magnitudes cannot cancel): one
   * comparison instead of three that a compiler turns into branches. */
  ex = PROX_FABS(r0 - s0) + PROX_FABS(r1 - s1) + PROX_FABS(r2 - s2);
  inside = ex == 0;
  q = PROX_FN(prox_vadd)(PROX_FN(prox_vmadd)(box->center, s0, box->axis[0]),
                         PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(box->axis[1], s1),
                                            PROX_FN(prox_vscale)(box->axis[2], s2)));
  /* Inside, the point is p itself (the clamp formula would give p up to
   * rounding) and d2 is 0. A NaN or infinite half extent is dropped by the
   * clamp: add its poison. A select on inside, not a branch: d2 is opaque
   * so that GCC does not branch around its computation, which mispredicts
   * on random input (see PROX_OPAQUE). */
  d2 = PROX_FN(prox_vdist2)(p, q);
  PROX_OPAQUE(d2);
  d2 = ex != 0 ? d2 : 0;
  d2 += (h0 - h0) + (h1 - h1) + (h2 - h2);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  f = PROX_FN(prox_detail_box_feature)((r0 > h0) - (r0 < -h0), (r1 > h1) - (r1 < -h1),
                                       (r2 > h2) - (r2 < -h2));
  PROX_FN(prox_detail_params)(out, s0, s1, s2, 0);
  return PROX_FN(prox_detail_set)(out, inside ? p : q, d2, f.kind, f.index);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_obb_signed)(PROX_FN(prox_vec3) p,
                                                     const PROX_FN(prox_obb) * box,
                                                     PROX_FN(prox_closest) * out) {
  PROX_FN(prox_closest) r;
  PROX_REAL d2 = PROX_FN(prox_point_obb)(p, box, &r);
  PROX_REAL h[3], dlo[3], dhi[3], depth;
  int face = 0, i;
  if (r.feature.kind != PROX_FEATURE_INTERIOR) {
    if (out) *out = r;
    if (d2 < PROX_DETAIL_D2_TINY) {
      /* A small configuration: the distance measured at magnitude 1. */
      PROX_REAL m = PROX_FABS(box->half[0]);
      int e;
      m = PROX_FABS(box->half[1]) > m ? PROX_FABS(box->half[1]) : m;
      m = PROX_FABS(box->half[2]) > m ? PROX_FABS(box->half[2]) : m;
      e = PROX_FN(prox_detail_frame)(
          &box->center, 1, PROX_FN(prox_detail_maxabs)(p) > m ? PROX_FN(prox_detail_maxabs)(p) : m);
      if (e < 0) {
        PROX_FN(prox_obb) bs = *box;
        bs.center = PROX_FN(prox_detail_vldexp)(box->center, -e);
        for (i = 0; i < 3; ++i)
          bs.half[i] = (PROX_REAL)ldexp((double)box->half[i], -e);
        return PROX_FN(prox_detail_root_scaled)(
            PROX_FN(prox_point_obb)(PROX_FN(prox_detail_vldexp)(p, -e), &bs, &r), e);
      }
    }
    return PROX_SQRT(d2);
  }
  for (i = 0; i < 3; ++i) {
    h[i] = PROX_FABS(box->half[i]);
    dlo[i] = r.param[i] + h[i];
    dhi[i] = h[i] - r.param[i];
  }
  depth = PROX_FN(prox_detail_box_depth)(dlo, dhi, &face);
  i = face >> 1;
  {
    PROX_REAL target = (face & 1) ? h[i] : -h[i];
    r.point = PROX_FN(prox_vmadd)(p, target - r.param[i], box->axis[i]);
    r.param[i] = target;
  }
  r.sqdist = depth * depth;
  r.feature.kind = PROX_FEATURE_FACE;
  r.feature.index = face;
  if (out) *out = r;
  return -depth;
}

/* ------------------------------ sphere, capsule --------------------------- */

/// Internal: a unit vector perpendicular to d (any unit vector if d is 0).
PROX_DETAIL_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_detail_perp)(PROX_FN(prox_vec3) d) {
  PROX_REAL ax = PROX_FABS(d.x), ay = PROX_FABS(d.y), az = PROX_FABS(d.z);
  PROX_FN(prox_vec3) e = PROX_FN(prox_v3)(0, 0, 0), c;
  PROX_REAL l;
  if (ax <= ay && ax <= az)
    e.x = 1;
  else if (ay <= az)
    e.y = 1;
  else
    e.z = 1;
  c = PROX_FN(prox_vcross)(d, e);
  l = PROX_FN(prox_vlen)(c);
  return l > 0 ? PROX_FN(prox_vscale)(c, 1 / l) : e;
}

/// Internal: v / |v|, formed on v scaled by a power of two (exact), so that
/// no square underflows or overflows at any magnitude; fallback when v is
/// zero or not finite.
PROX_DETAIL_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_detail_unit)(PROX_FN(prox_vec3) v, PROX_FN(prox_vec3) fallback) {
  int e = PROX_FN(prox_detail_exp)((double)PROX_FN(prox_detail_maxabs)(v));
  PROX_REAL l;
  if (e != 0) v = PROX_FN(prox_detail_vldexp)(v, -e);
  l = PROX_FN(prox_vlen)(v);
  return l > 0 && l <= PROX_REAL_MAX ? PROX_FN(prox_vscale)(v, 1 / l) : fallback;
}

/// Internal: closest point of the ball of radius r around c, and the
/// signed distance |p - c| - r in *sd. c is the nearest point of the core.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ball)(PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) c,
                                                       PROX_REAL cd2, PROX_REAL r,
                                                       PROX_FN(prox_vec3) * q, PROX_REAL *sd) {
  PROX_REAL len = PROX_SQRT(cd2);
  *sd = len - r;
  if (cd2 <= r * r) {
    *q = p;
    return 0;
  }
  *q = PROX_FN(prox_vadd)(c, PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(p, c), r / len));
  return *sd * *sd;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_sphere)(PROX_FN(prox_vec3) p,
                                                 const PROX_FN(prox_sphere) * sph,
                                                 PROX_FN(prox_closest) * out) {
  PROX_REAL r = PROX_FABS(sph->radius), sd, d2;
  PROX_FN(prox_vec3) q;
  d2 = PROX_FN(prox_detail_ball)(p, sph->center, PROX_FN(prox_vdist2)(p, sph->center), r, &q, &sd);
  d2 += r - r;
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  PROX_FN(prox_detail_params)(out, 0, 0, 0, 0);
  return PROX_FN(prox_detail_set)(out, q, d2, d2 > 0 ? PROX_FEATURE_FACE : PROX_FEATURE_INTERIOR,
                                  0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_sphere_signed)(PROX_FN(prox_vec3) p,
                                                        const PROX_FN(prox_sphere) * sph,
                                                        PROX_FN(prox_closest) * out) {
  PROX_REAL r = PROX_FABS(sph->radius);
  PROX_FN(prox_vec3) d = PROX_FN(prox_vsub)(p, sph->center);
  PROX_REAL len2 = PROX_FN(prox_vdot)(d, d), len, sd;
  PROX_FN(prox_vec3) q;
  if (len2 < PROX_DETAIL_D2_TINY) {
    /* The squares may have lost digits to subnormal numbers: the length of
     * d (an exact difference when this small) scaled by a power of two to
     * magnitude 1, scaled back. */
    int e = PROX_FN(prox_detail_frame)(&d, 1, 0);
    len = PROX_FN(prox_detail_root_scaled)(PROX_FN(prox_vlen2)(PROX_FN(prox_detail_vldexp)(d, -e)),
                                           e);
  } else {
    len = PROX_SQRT(len2);
  }
  sd = len - r;
  if (!(sd - sd == 0)) {
    PROX_FN(prox_detail_nan)(out);
    return PROX_NAN;
  }
  /* Small: the direction from d scaled to magnitude 1 (r / len overflows
   * for a subnormal len, and len has lost digits there). */
  q = len2 >= PROX_DETAIL_D2_TINY
          ? PROX_FN(prox_vmadd)(sph->center, r / len, d)
          : PROX_FN(prox_vmadd)(sph->center, r,
                                PROX_FN(prox_detail_unit)(d, PROX_FN(prox_v3)(1, 0, 0)));
  PROX_FN(prox_detail_params)(out, 0, 0, 0, 0);
  PROX_FN(prox_detail_set)(out, q, sd * sd, PROX_FEATURE_FACE, 0);
  return sd;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_capsule)(PROX_FN(prox_vec3) p,
                                                  const PROX_FN(prox_capsule) * cap,
                                                  PROX_FN(prox_closest) * out) {
  PROX_FN(prox_segment) seg;
  PROX_FN(prox_closest) core;
  PROX_REAL r = PROX_FABS(cap->radius), sd, d2;
  PROX_FN(prox_vec3) q;
  seg.a = cap->a;
  seg.b = cap->b;
  d2 = PROX_FN(prox_point_segment)(p, &seg, &core);
  d2 = PROX_FN(prox_detail_ball)(p, core.point, d2, r, &q, &sd);
  d2 += r - r;
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_nan)(out);
  PROX_FN(prox_detail_params)(out, core.param[0], 0, 0, 0);
  if (d2 == 0) return PROX_FN(prox_detail_set)(out, q, 0, PROX_FEATURE_INTERIOR, 0);
  return PROX_FN(prox_detail_set)(out, q, d2, core.feature.kind, core.feature.index);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_capsule_signed)(PROX_FN(prox_vec3) p,
                                                         const PROX_FN(prox_capsule) * cap,
                                                         PROX_FN(prox_closest) * out) {
  PROX_FN(prox_segment) seg;
  PROX_FN(prox_closest) core;
  PROX_REAL r = PROX_FABS(cap->radius), cd2, len, sd;
  PROX_FN(prox_vec3) dir, q, u, perp;
  int k;
  seg.a = cap->a;
  seg.b = cap->b;
  cd2 = PROX_FN(prox_point_segment)(p, &seg, &core);
  len = PROX_SQRT(cd2);
  sd = len - r;
  if (cd2 < PROX_DETAIL_D2_TINY) {
    /* A small configuration: the core distance measured at magnitude 1
     * (the direction below still comes from the reported core point). */
    PROX_FN(prox_vec3) v[3];
    int e;
    v[0] = p, v[1] = seg.a, v[2] = seg.b;
    e = PROX_FN(prox_detail_frame)(v, 3, 0);
    if (e < 0) {
      PROX_FN(prox_segment) ss;
      PROX_FN(prox_closest) cs;
      ss.a = PROX_FN(prox_detail_vldexp)(seg.a, -e);
      ss.b = PROX_FN(prox_detail_vldexp)(seg.b, -e);
      sd = PROX_FN(prox_detail_root_scaled)(
               PROX_FN(prox_point_segment)(PROX_FN(prox_detail_vldexp)(p, -e), &ss, &cs), e) -
           r;
    }
  }
  if (!(sd - sd == 0)) {
    PROX_FN(prox_detail_nan)(out);
    return PROX_NAN;
  }
  /* The direction from the core point to p, at any magnitude. Near the
   * core its component along the segment is mostly the core point's
   * rounding: removed on the side, and on a cap where it points into the
   * segment, so that the point stays on the surface. Twice: what remains
   * of it is then rounding of the result, unless nothing but rounding (a
   * few eps of the unit vector) remains, where any perpendicular will do. */
  u = PROX_FN(prox_vsub)(seg.b, seg.a);
  perp = PROX_FN(prox_detail_perp)(u);
  u = PROX_FN(prox_detail_unit)(u, PROX_FN(prox_v3)(0, 0, 0));
  dir = PROX_FN(prox_detail_unit)(PROX_FN(prox_vsub)(p, core.point), perp);
  for (k = 0; k < 2; ++k) {
    PROX_REAL g = PROX_FN(prox_vdot)(dir, u);
    if (core.feature.kind == PROX_FEATURE_EDGE || (core.feature.index == 0 ? g > 0 : g < 0)) {
      dir = PROX_FN(prox_vmadd)(dir, -g, u);
      dir = PROX_FN(prox_detail_maxabs)(dir) > 8 * PROX_EPS ? PROX_FN(prox_detail_unit)(dir, perp)
                                                            : perp;
    }
  }
  q = PROX_FN(prox_vmadd)(core.point, r, dir);
  PROX_FN(prox_detail_params)(out, core.param[0], 0, 0, 0);
  PROX_FN(prox_detail_set)
  (out, q, sd * sd, core.feature.kind, core.feature.index);
  return sd;
}

/* ------------------------------- tetrahedron ------------------------------ */

/// Internal: the signed volume numerators of a tetrahedron: vol = 6 times
/// its signed volume, num[i] the same with v[i] replaced by p (so that
/// num[i] / vol are the barycentric coordinates of p), and in *err a bound
/// on the rounding error of vol (Shewchuk's orient3d bound, doubled).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tet_orient)(PROX_FN(prox_vec3) p,
                                                             const PROX_FN(prox_vec3) * v,
                                                             PROX_REAL *num, PROX_REAL *err) {
  PROX_FN(prox_vec3) e1 = PROX_FN(prox_vsub)(v[1], v[0]);
  PROX_FN(prox_vec3) e2 = PROX_FN(prox_vsub)(v[2], v[0]);
  PROX_FN(prox_vec3) e3 = PROX_FN(prox_vsub)(v[3], v[0]);
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(p, v[0]);
  PROX_FN(prox_vec3) c23 = PROX_FN(prox_vcross)(e2, e3);
  PROX_REAL vol = PROX_FN(prox_detail_orient)(v[0], v[1], v[2], v[3], err);
  /* Linear in p: num[1..3] replace v[1..3]; num[0] completes the sum. A
   * sign error happens only within rounding of a face plane, where the
   * face is measured anyway or its distance is below rounding. */
  num[1] = PROX_FN(prox_vdot)(w, c23);
  num[2] = PROX_FN(prox_vdot)(w, PROX_FN(prox_vcross)(e3, e1));
  num[3] = PROX_FN(prox_vdot)(w, PROX_FN(prox_vcross)(e1, e2));
  num[0] = ((vol - num[1]) - num[2]) - num[3];
  return vol;
}

/// Internal: the closest point of face i of a tetrahedron (the other three
/// vertices in increasing order) written to *r with the tetrahedron's
/// barycentrics and features (vertex, edge by the pair table, or FACE i).
/// Returns the squared distance; r may be NULL (distance only).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tet_face)(PROX_FN(prox_vec3) p,
                                                           const PROX_FN(prox_tetrahedron) * tet,
                                                           int i, PROX_FN(prox_closest) * r) {
  int fv[3], k;
  PROX_FN(prox_triangle) t;
  PROX_FN(prox_closest) f;
  PROX_REAL d2;
  fv[0] = i == 0 ? 1 : 0;
  fv[1] = i <= 1 ? 2 : 1;
  fv[2] = i <= 2 ? 3 : 2;
  PROX_UNROLL
  for (k = 0; k < 3; ++k)
    t.v[k] = tet->v[fv[k]];
  /* Distance only: the triangle kernel's own NULL path. */
  if (!r) return PROX_FN(prox_point_triangle)(p, &t, NULL);
  d2 = PROX_FN(prox_point_triangle)(p, &t, &f);
  *r = f;
  r->param[0] = r->param[1] = r->param[2] = r->param[3] = 0;
  PROX_UNROLL
  for (k = 0; k < 3; ++k)
    r->param[fv[k]] = f.param[k];
  if (f.feature.kind == PROX_FEATURE_VERTEX) {
    r->feature.index = fv[f.feature.index];
  } else if (f.feature.kind == PROX_FEATURE_EDGE) {
    int x = fv[f.feature.index];
    int y = fv[f.feature.index == 2 ? 0 : f.feature.index + 1];
    int lo = x < y ? x : y, hi = x < y ? y : x;
    r->feature.index = lo == 0 ? hi - 1 : (lo == 1 ? hi + 1 : 5);
  } else {
    r->feature.index = i;
  }
  return d2;
}

/// Internal: prox_point_tetrahedron from the volume vol, its error bound
/// evol and the numerators num of prox_detail_tet_orient (num is changed).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tet_query)(PROX_FN(prox_vec3) p,
                                                            const PROX_FN(prox_tetrahedron) * tet,
                                                            PROX_FN(prox_closest) * out,
                                                            PROX_REAL vol, PROX_REAL evol,
                                                            PROX_REAL *num) {
  PROX_REAL best = PROX_INF;
  PROX_FN(prox_closest) r, b;
  int i, inside = 1, flat = !(PROX_FABS(vol) > evol);
  if (vol < 0) {
    PROX_UNROLL
    for (i = 0; i < 4; ++i)
      num[i] = -num[i];
  }
  PROX_UNROLL
  for (i = 0; i < 4; ++i)
    inside &= num[i] > 0;
  if (inside && !flat) {
    PROX_FN(prox_detail_params)
    (out, num[0] / PROX_FABS(vol), num[1] / PROX_FABS(vol), num[2] / PROX_FABS(vol),
     num[3] / PROX_FABS(vol));
    return PROX_FN(prox_detail_set)(out, p, 0, PROX_FEATURE_INTERIOR, 0);
  }
  b.feature.kind = PROX_FEATURE_NONE;
  for (i = 0; i < 4; ++i) {
    PROX_REAL d2;
    if (!flat && num[i] > 0) continue; /* p is behind face i */
    d2 = PROX_FN(prox_detail_tet_face)(p, tet, i, out ? &r : NULL);
    if (d2 < best) {
      best = d2;
      if (out) b = r;
    }
  }
  if (out) *out = b;
  return best;
}

/// Internal: prox_point_tetrahedron for finite input whose volume bound
/// overflowed or underflowed (or is 0): the query on the input scaled by a
/// power of two 2^-e that brings the largest coordinate magnitude into
/// [1/2, 1), whose results are scaled back exactly.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tet_scaled)(PROX_FN(prox_vec3) p,
                                                             const PROX_FN(prox_tetrahedron) * tet,
                                                             PROX_FN(prox_closest) * out) {
  PROX_FN(prox_tetrahedron) ts;
  PROX_REAL vol, evol, num[4], d2;
  int e = PROX_FN(prox_detail_frame)(tet->v, 4, PROX_FN(prox_detail_maxabs)(p)), i;
  p = PROX_FN(prox_detail_vldexp)(p, -e);
  for (i = 0; i < 4; ++i)
    ts.v[i] = PROX_FN(prox_detail_vldexp)(tet->v[i], -e);
  vol = PROX_FN(prox_detail_tet_orient)(p, ts.v, num, &evol);
  d2 = PROX_FN(prox_detail_tet_query)(p, &ts, out, vol, evol, num);
  d2 = (PROX_REAL)ldexp((double)d2, 2 * e);
  if (out) {
    out->point = PROX_FN(prox_detail_vldexp)(out->point, e);
    out->sqdist = d2;
  }
  return d2;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_tetrahedron)(PROX_FN(prox_vec3) p,
                                                      const PROX_FN(prox_tetrahedron) * tet,
                                                      PROX_FN(prox_closest) * out) {
  const PROX_FN(prox_vec3) *v = tet->v;
  PROX_REAL vol, evol, num[4];
  PROX_REAL check = PROX_FN(prox_vpoison)(p) + PROX_FN(prox_vpoison)(v[0]) +
                    PROX_FN(prox_vpoison)(v[1]) + PROX_FN(prox_vpoison)(v[2]) +
                    PROX_FN(prox_vpoison)(v[3]);
  if (check != 0) return PROX_FN(prox_detail_nan)(out);
  vol = PROX_FN(prox_detail_tet_orient)(p, v, num, &evol);
  /* The volume's sign is trusted to its bound only where that bound is
   * neither infinite nor near underflow (coordinates beyond about 2^+-300
   * in double, 2^+-25 in float): elsewhere the query runs on scaled input. */
  if (!(evol <= PROX_REAL_MAX && evol >= PROX_REAL_MIN / (PROX_EPS * PROX_EPS)))
    return PROX_FN(prox_detail_tet_scaled)(p, tet, out);
  return PROX_FN(prox_detail_tet_query)(p, tet, out, vol, evol, num);
}

/// Internal: for prox_point_tetrahedron_signed, the distance whose square
/// d2 was measured (inside: to the nearest face, else to the solid), again
/// at magnitude 1 when d2 may have lost digits to subnormal squares and
/// the configuration is small.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tet_dist)(PROX_FN(prox_vec3) p,
                                                           const PROX_FN(prox_tetrahedron) * tet,
                                                           PROX_REAL d2, int inside) {
  PROX_FN(prox_tetrahedron) ts;
  PROX_FN(prox_closest) r;
  PROX_FN(prox_vec3) v[5];
  int e, i;
  if (!(d2 < PROX_DETAIL_D2_TINY)) return PROX_SQRT(d2);
  for (i = 0; i < 4; ++i)
    v[i] = tet->v[i];
  v[4] = p;
  e = PROX_FN(prox_detail_frame)(v, 5, 0);
  if (e >= 0) return PROX_SQRT(d2);
  for (i = 0; i < 4; ++i)
    ts.v[i] = PROX_FN(prox_detail_vldexp)(tet->v[i], -e);
  p = PROX_FN(prox_detail_vldexp)(p, -e);
  if (!inside)
    return PROX_FN(prox_detail_root_scaled)(PROX_FN(prox_point_tetrahedron)(p, &ts, &r), e);
  d2 = PROX_INF;
  for (i = 0; i < 4; ++i) {
    PROX_REAL d = PROX_FN(prox_detail_tet_face)(p, &ts, i, &r);
    d2 = d < d2 ? d : d2;
  }
  return PROX_FN(prox_detail_root_scaled)(d2, e);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_point_tetrahedron_signed)(PROX_FN(prox_vec3) p,
                                                             const PROX_FN(prox_tetrahedron) * tet,
                                                             PROX_FN(prox_closest) * out) {
  PROX_FN(prox_closest) r;
  PROX_REAL d2 = PROX_FN(prox_point_tetrahedron)(p, tet, &r), best;
  int i;
  if (r.feature.kind != PROX_FEATURE_INTERIOR) {
    if (out) *out = r;
    return PROX_FN(prox_detail_tet_dist)(p, tet, d2, 0);
  }
  /* Inside: the nearest boundary point is the nearest face point. */
  best = PROX_INF;
  for (i = 0; i < 4; ++i) {
    PROX_FN(prox_closest) fr;
    PROX_REAL d = PROX_FN(prox_detail_tet_face)(p, tet, i, &fr);
    if (d < best) {
      best = d;
      r = fr;
      r.feature.kind = PROX_FEATURE_FACE;
      r.feature.index = i;
    }
  }
  if (out) *out = r;
  return -PROX_FN(prox_detail_tet_dist)(p, tet, best, 1);
}

#undef PROX_DETAIL_D2_TINY
