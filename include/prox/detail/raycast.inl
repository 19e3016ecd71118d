/* SPDX-License-Identifier: MIT */
/* Template: ray casts (K3). Instantiated once per precision by raycast.h,
 * which declares the documented casts with their contracts; this file
 * holds their definitions.
 *
 * How the kernels stay robust.
 *
 * - Boxes: the slab test (Williams et al. 2005) with the 0 * inf trap
 *   removed. A direction component that is +0 or -0 makes its slab the
 *   whole line or nothing, decided by comparing the origin with the slab's
 *   planes (exact); one so small that 1/d overflows (subnormal) is divided
 *   instead of multiplied by its reciprocal. The final test is conservative
 *   in the manner of Ize (2013, "Robust BVH ray traversal"): the exit
 *   parameter gets a relative slack of 4 eps, which covers the rounding of
 *   the slab parameters, so a ray that touches the box is never missed.
 * - Triangles and tetrahedra: ray space of Woop, Benthin and Wald (2013,
 *   "Watertight ray/triangle intersection"): translate to the ray origin,
 *   permute so the largest direction component is z, shear so the ray is the
 *   z axis; then a triangle is hit when the origin lies inside its 2D
 *   projection, decided by three 2D edge functions. Each edge function
 *   comes with a forward error bound; when its sign is not certain it is
 *   recomputed: for float in double, and then (both precisions) exactly,
 *   with floating-point expansions (Shewchuk 1997), as the sign of
 *   ((p - o) x (q - o)) . d in the original coordinates. The signs are
 *   therefore exact, hence consistent between the two triangles of a shared
 *   edge. An exactly zero edge function (the ray passes exactly through the
 *   edge's line) is decided by a symbolic perturbation of the origin,
 *   o + e1 eps + e2 eps^2 (e1, e2 the ray-space x and y axes), so that
 *   exactly one of the triangles around a crossed edge or vertex of a
 *   closed mesh is hit. A triangle that is exactly edge-on to the ray, or
 *   of zero area, has edge functions that cannot all share a strict sign
 *   under that perturbation: it is never hit. The triangle cast decides
 *   most rays from the bounds alone (two signs certainly opposite: a miss;
 *   three certainly equal: a hit) and hands only the rest to the careful
 *   path.
 *   t is the quotient of the weights (Woop et al.'s), which is accurate
 *   where they are certain and do not cancel much; a needle (an edge
 *   passing close to the ray between far endpoints) makes the rounding of
 *   their products grow as its aspect ratio, and is given compensated
 *   weights; weights known only within their rounding (or an exact zero
 *   beside two rounded ones: through an edge), and quotients that would
 *   overflow or underflow, give way to the plane's t in double-double
 *   arithmetic with its exact sign (prox_detail_rc_plane_t; for float,
 *   weights certain only in double give every weight and t in double).
 *   The error bound of each edge function has an absolute term for the
 *   rounding of its products below the normal range.
 * - Spheres, capsules, oriented boxes: a ray that misses is tried again on
 *   the solid grown by a few eps S (S the largest coordinate magnitude
 *   involved), so rays that graze the surface, and rays that start on it
 *   and leave, are reported as hits at the cost of also reporting rays that
 *   miss by less than that margin.
 *
 * The predicates are exact for all finite input: expansion arithmetic on
 * coordinates scaled by powers of two where their products stay in its
 * range (the nonzero values within 2^300 of the largest, always for float
 * input), integer arithmetic beyond (prox_detail_xp_big_sign: a unit
 * direction with a subnormal component, coordinates spread by more than
 * 2^300). The expansion arithmetic and the orientation filters are those
 * of detail/exact.inl. */

/* ------------------------------------------------------------------------ */
/* Exact ray-edge predicates (expansions of detail/exact.inl), double only: */
/* shared by both precisions (float values are exact doubles).              */
/* ------------------------------------------------------------------------ */
#if PROX_IS_DOUBLE

/// Internal: exact sign of the ray edge function ((p - o) x (q - o)) . d,
/// whose sign is that of the ray-space edge function P.x Q.y - P.y Q.x.
PROX_DETAIL_KERNEL int prox_detail_xp_ray_edge_exact(const double *o, const double *d,
                                                     const double *p, const double *q) {
  double e[80], x[9], y[3];
  int n = 0, i;
  /* Linear in d and of degree 2 in the points: each set is normalised by
   * its own power of two. */
  for (i = 0; i < 3; ++i) {
    x[i] = o[i];
    x[3 + i] = p[i];
    x[6 + i] = q[i];
    y[i] = d[i];
  }
  prox_detail_wnormalize(x, 9);
  prox_detail_wnormalize(y, 3);
  if (!prox_detail_xp_in_range(x, 9, 300) || !prox_detail_xp_in_range(y, 3, 300)) {
    /* A direction component or a coordinate more than 2^300 below the
     * largest (a subnormal component of a unit direction): products of
     * three could fall below the range of expansions, the integer
     * fallback. */
    double A[18], B[18], C[18];
    int S[18];
    n = prox_detail_xp_big_det3(A, B, C, S, 0, 1, x + 3, x + 6, y);
    n = prox_detail_xp_big_det3(A, B, C, S, n, 1, x, x + 3, y);
    n = prox_detail_xp_big_det3(A, B, C, S, n, 1, x + 6, x, y);
    return prox_detail_xp_big_sign(A, B, C, S, n);
  }
  /* (p - o) x (q - o) . d = [p q d] + [o p d] + [q o d]. */
  n = prox_detail_xp_det3(e, n, 1.0, x + 3, x + 6, y);
  n = prox_detail_xp_det3(e, n, 1.0, x, x + 3, y);
  n = prox_detail_xp_det3(e, n, 1.0, x + 6, x, y);
  return prox_detail_xp_sign(e, n);
}

/// Internal: the sign of the ray edge function of p -> q after the symbolic
/// perturbation o + eps e[axis0] + eps^2 e[axis1] of the origin, when it is
/// exactly zero before: the sign of (d x (q - p))[axis0], else of
/// (d x (q - p))[axis1], else 0 (the edge is parallel to the ray).
PROX_DETAIL_KERNEL int prox_detail_xp_ray_edge_perturb(const double *d, const double *p,
                                                       const double *q, int axis0, int axis1) {
  double e[16];
  int n, s, k, i1, i2,
      wide = !prox_detail_xp_in_range(d, 3, 450) || !prox_detail_xp_in_range(p, 3, 450) ||
             !prox_detail_xp_in_range(q, 3, 450);
  for (k = 0; k < 2; ++k) {
    int a = k == 0 ? axis0 : axis1;
    /* (d x w)[a] = d[a+1] w[a+2] - d[a+2] w[a+1], w = q - p. */
    i1 = a == 2 ? 0 : a + 1;
    i2 = i1 == 2 ? 0 : i1 + 1;
    if (wide) {
      /* Products of two beyond the range of expansions (a subnormal
       * direction component): the integer fallback. */
      double A[4], B[4], C[4] = {1, 1, 1, 1};
      int S[4] = {1, -1, -1, 1};
      A[0] = d[i1], B[0] = q[i2];
      A[1] = d[i1], B[1] = p[i2];
      A[2] = d[i2], B[2] = q[i1];
      A[3] = d[i2], B[3] = p[i1];
      s = prox_detail_xp_big_sign(A, B, C, S, 4);
      if (s != 0) return s;
      continue;
    }
    n = 0;
    n = prox_detail_xp_add2(e, n, 1.0, d[i1], q[i2]);
    n = prox_detail_xp_add2(e, n, -1.0, d[i1], p[i2]);
    n = prox_detail_xp_add2(e, n, -1.0, d[i2], q[i1]);
    n = prox_detail_xp_add2(e, n, 1.0, d[i2], p[i1]);
    s = prox_detail_xp_sign(e, n);
    if (s != 0) return s;
  }
  return 0;
}

/// Internal: scales the wide reals v[0..n) by one power of two so that
/// their largest leading part lies in [1/2, 1) (exactly, but for parts
/// below 2^-1074 of it); returns the exponent taken out (0 for zeros or a
/// non-finite value, left as they are).
PROX_DETAIL_KERNEL int prox_detail_rc_wscale(prox_detail_wide *v, int n) {
  double m = 0;
  int i, e;
  for (i = 0; i < n; ++i)
    m = fabs(v[i].hi) > m ? fabs(v[i].hi) : m;
  e = prox_detail_exp(m);
  if (e == 0) return 0;
  for (i = 0; i < n; ++i) {
    v[i].hi = ldexp(v[i].hi, -e);
    v[i].lo = ldexp(v[i].lo, -e);
  }
  return e;
}

/// Internal: the normal (b - a) x (c - a) of the triangle (a, b, c) in
/// double-double arithmetic: the differences exact, the edges scaled by
/// powers of two first, the result scaled so that its largest leading
/// part lies in [1/2, 1) by 2^-e, e returned: its components within
/// 2^(-98 - e) (2^-98 of the scaled edges' product, where the plain
/// evaluation of a needle loses the direction, or overflows or
/// underflows at the ends of the domain).
PROX_DETAIL_KERNEL int prox_detail_rc_wnormal(const double *a, const double *b, const double *c,
                                              prox_detail_wide *n) {
  prox_detail_wide e1[3], e2[3];
  int i;
  for (i = 0; i < 3; ++i) {
    e1[i] = prox_detail_wdiff(b[i], a[i]);
    e2[i] = prox_detail_wdiff(c[i], a[i]);
  }
  prox_detail_rc_wscale(e1, 3);
  prox_detail_rc_wscale(e2, 3);
  for (i = 0; i < 3; ++i) {
    int j = i == 2 ? 0 : i + 1, k = j == 2 ? 0 : j + 1;
    n[i] = prox_detail_wsub(prox_detail_wmul(e1[j], e2[k]), prox_detail_wmul(e1[k], e2[j]));
  }
  return prox_detail_rc_wscale(n, 3);
}

/// Internal: prox_detail_rc_plane_t in integer arithmetic
/// (prox_detail_xp_big_value): n . (a - o) = [a b c] - [o b c] + [o b a] +
/// [o a c] and n . d = [d b c] - [d b a] - [d a c] ([x y z] = x . (y x z)),
/// each exact and then rounded once, for any finite input.
PROX_DETAIL_COLD_KERNEL double prox_detail_rc_plane_t_big(const double *a, const double *b,
                                                          const double *c, const double *o,
                                                          const double *d) {
  double A[24], B[24], C[24], fn, fd;
  int S[24], n, en, ed;
  n = prox_detail_xp_big_det3(A, B, C, S, 0, 1, a, b, c);
  n = prox_detail_xp_big_det3(A, B, C, S, n, -1, o, b, c);
  n = prox_detail_xp_big_det3(A, B, C, S, n, 1, o, b, a);
  n = prox_detail_xp_big_det3(A, B, C, S, n, 1, o, a, c);
  fn = prox_detail_xp_big_value(A, B, C, S, n, &en);
  n = prox_detail_xp_big_det3(A, B, C, S, 0, 1, d, b, c);
  n = prox_detail_xp_big_det3(A, B, C, S, n, -1, d, b, a);
  n = prox_detail_xp_big_det3(A, B, C, S, n, -1, d, a, c);
  fd = prox_detail_xp_big_value(A, B, C, S, n, &ed);
  if (fd == 0) return PROX_NAN;
  return ldexp(fn / fd, en - ed);
}

/// Internal: the parameter t = (n . (a - o)) / (n . d) at which the line
/// o + t d crosses the plane of the triangle (a, b, c), n its normal, in
/// double-double arithmetic on vectors scaled by powers of two: within
/// about an ulp of the exact t, whatever the shape of the triangle. Where
/// n . d is not safely above the rounding and the underflow of that
/// arithmetic (a direction all but in the plane, or with a component
/// 2^-1000 below the others that decides it), the same in integer
/// arithmetic (prox_detail_rc_plane_t_big). NaN when the line is parallel
/// to the plane (or the input is not finite); +-inf or 0 when t lies
/// beyond the range of doubles. *sure gets 1 when the sign of t is
/// certainly the exact one (the numerator's far from its rounding, or
/// exact), else 0.
PROX_DETAIL_KERNEL double prox_detail_rc_plane_t(const double *a, const double *b, const double *c,
                                                 const double *o, const double *d, int *sure) {
  prox_detail_wide n[3], w[3], dd[3], num, den, r;
  double q, dabs = 0, nabs = 0, dsum = 0, wsum = 0, errn;
  int i, k, en;
  en = prox_detail_rc_wnormal(a, b, c, n);
  errn = ldexp(1.0, -96 - (en < -900 ? -900 : en));
  for (i = 0; i < 3; ++i) {
    w[i] = prox_detail_wdiff(a[i], o[i]);
    dd[i] = prox_detail_wfrom(d[i]);
  }
  k = prox_detail_rc_wscale(w, 3) - prox_detail_rc_wscale(dd, 3);
  num =
      prox_detail_wadd(prox_detail_wadd(prox_detail_wmul(n[0], w[0]), prox_detail_wmul(n[1], w[1])),
                       prox_detail_wmul(n[2], w[2]));
  den = prox_detail_wadd(
      prox_detail_wadd(prox_detail_wmul(n[0], dd[0]), prox_detail_wmul(n[1], dd[1])),
      prox_detail_wmul(n[2], dd[2]));
  for (i = 0; i < 3; ++i) {
    dabs += fabs(n[i].hi * dd[i].hi);
    nabs += fabs(n[i].hi * w[i].hi);
    dsum += fabs(dd[i].hi);
    wsum += fabs(w[i].hi);
  }
  /* n . d far from the rounding of the products (2^-100 of them) and of n
   * (errn each component, 2^-60 at most: a needle sharper than that at a
   * goes exact), and from underflow; else integer arithmetic. */
  /* (Decimal constants: 2^-60, 2^-900, 2^-90, exactly; C++ before 17 has
   * no hexadecimal floating literals.) */
  if (!(errn <= 8.6736173798840355e-19 && fabs(den.hi) >= 1.1830521861667747e-271 &&
        fabs(den.hi) > 8.0779356694631609e-28 * dabs + errn * dsum)) {
    int finite = 1;
    for (i = 0; i < 3; ++i)
      finite &= fabs(a[i]) <= DBL_MAX && fabs(b[i]) <= DBL_MAX && fabs(c[i]) <= DBL_MAX &&
                fabs(o[i]) <= DBL_MAX && fabs(d[i]) <= DBL_MAX;
    *sure = finite;
    return finite ? prox_detail_rc_plane_t_big(a, b, c, o, d) : PROX_NAN;
  }
  *sure = fabs(num.hi) > 8.0779356694631609e-28 * nabs + errn * wsum &&
          fabs(num.hi) >= 1.1830521861667747e-271;
  k += prox_detail_rc_wscale(&num, 1) - prox_detail_rc_wscale(&den, 1);
  /* The quotient with one correction step (prox_detail_wratio), then the
   * exponents: one rounding of t, or a gradual underflow. */
  q = num.hi / den.hi;
  r = prox_detail_wsub(num, prox_detail_wmul(prox_detail_wfrom(q), den));
  q += prox_detail_wreal(r) / prox_detail_wreal(den);
  return ldexp(q, k);
}

#endif /* PROX_IS_DOUBLE */

#ifndef PROX_DETAIL_RC_ONCE
#define PROX_DETAIL_RC_ONCE
/// Internal: an absolute term of the edge functions' error bound (in the
/// precision of the template that uses it): the products of the edge
/// functions round to a multiple of the smallest subnormal below the
/// normal range, which the relative bound does not cover where the
/// vertices lie within about 2^-511 (float 2^-64) of the origin.
#define PROX_DETAIL_RC_BMIN (PROX_R(4.0) * PROX_REAL_MIN * PROX_EPS)
/// Internal: the smallest magnitude of the sum of the weights and of the
/// numerator of t at which the quotient of a hit is trusted: the products
/// in them round to multiples of the smallest subnormal below the normal
/// range, which above 64 REAL_MIN (2^-1016 in double, 2^-120 in float)
/// moves them by less than a tenth of an ulp.
#define PROX_DETAIL_RC_QMIN (PROX_R(64.0) * PROX_REAL_MIN)
/// Internal: the largest cancellation ratio (|X_p Y_q| + |Y_p X_q|, summed
/// over the three edge functions, over the magnitude of their sum) at which
/// a hit's t is taken from the plain weights: fat triangles have 1 to 2,
/// needles and caps about their aspect ratio, and the rounding of the
/// products then moves t by up to that many eps S / |dir| (measured on
/// needles across the ray: 9 eps S with 64 here, 2.7 with 16; 8 keeps a
/// margin).
#define PROX_DETAIL_RC_RMAX 8
#endif

/* ------------------------------------------------------------------------ */
/* Result                                                                   */
/* ------------------------------------------------------------------------ */

/// Result of a ray cast (Box2D's b2CastOutput, extended for solids).
///
/// On a hit: `t` is the ray parameter of the hit (in units of the ray's
/// direction, within [tmin, tmax]), `point` = origin + t dir, `normal` the
/// unit outward normal there and `feature` the feature hit. For solids,
/// `inside` is 1 when the ray starts in the solid (then t = tmin, the point
/// is the start, feature INTERIOR and the normal zero) and `t_exit` is the
/// parameter where the ray leaves the solid, clipped to tmax (so that the
/// ray is in the solid exactly for t in [t, t_exit]); for surfaces (plane,
/// triangle) t_exit = t and inside = 0. `bary` holds barycentric
/// coordinates where the query says so, else zeros. On a miss, hit and
/// inside are 0, feature NONE and every real field NaN.
typedef struct PROX_FN(prox_rayhit) {
  int hit;                   ///< 1 on a hit, 0 on a miss
  int inside;                ///< solids: 1 when the ray starts inside
  PROX_REAL t;               ///< ray parameter of the hit
  PROX_REAL t_exit;          ///< solids: where the ray leaves (<= tmax)
  PROX_FN(prox_vec3) point;  ///< origin + t dir
  PROX_FN(prox_vec3) normal; ///< unit outward normal (zero when inside)
  PROX_REAL bary[3];         ///< triangles: barycentrics of the point
  prox_feature feature;      ///< feature hit (INTERIOR when inside)
} PROX_FN(prox_rayhit);

/* ------------------------------------------------------------------------ */
/* Internal helpers                                                         */
/* ------------------------------------------------------------------------ */

/// Internal: fills *out (if not NULL) with a miss; returns 0.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_rayhit_miss)(PROX_FN(prox_rayhit) * out) {
  if (out) {
    PROX_REAL n = PROX_NAN;
    out->hit = 0;
    out->inside = 0;
    out->t = n;
    out->t_exit = n;
    out->point = PROX_FN(prox_v3)(n, n, n);
    out->normal = PROX_FN(prox_v3)(n, n, n);
    out->bary[0] = out->bary[1] = out->bary[2] = n;
    out->feature.kind = PROX_FEATURE_NONE;
    out->feature.index = 0;
  }
  return 0;
}

/// Internal: fills *out (if not NULL) with a hit; returns 1.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_rayhit_set)(PROX_FN(prox_rayhit) * out, PROX_REAL t,
                                                          PROX_REAL t_exit, int inside,
                                                          PROX_FN(prox_vec3) point,
                                                          PROX_FN(prox_vec3) normal, int kind,
                                                          int index) {
  if (out) {
    out->hit = 1;
    out->inside = inside;
    out->t = t;
    out->t_exit = t_exit;
    out->point = point;
    out->normal = normal;
    out->bary[0] = out->bary[1] = out->bary[2] = 0;
    out->feature.kind = kind;
    out->feature.index = index;
  }
  return 1;
}

/// Internal: component i (0, 1, 2) of v.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_rc_vget)(PROX_FN(prox_vec3) v, int i) {
  return i == 0 ? v.x : (i == 1 ? v.y : v.z);
}

/// Internal: v scaled to unit length (safe for tiny and huge v); zero stays
/// zero.
PROX_DETAIL_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_detail_rc_unit)(PROX_FN(prox_vec3) v) {
  PROX_REAL m = PROX_FN(prox_detail_maxabs)(v);
  if (!(m > 0)) return v;
  /* 1 / m would overflow: the power-of-two scaling of closest.h's. */
  if (m < PROX_REAL_MIN) return PROX_FN(prox_detail_unit)(v, v);
  v = PROX_FN(prox_vscale)(v, 1 / m);
  return PROX_FN(prox_vscale)(v, 1 / PROX_FN(prox_vlen)(v));
}

/// Internal: the interval of the ray's parameters, with tmax < tmin read as
/// the single parameter tmin.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_rc_ray_tmax)(const PROX_FN(prox_ray) * ray) {
  return ray->tmax < ray->tmin ? ray->tmin : ray->tmax;
}

/// Internal: 1 when origin, direction and interval are usable (finite
/// coordinates, interval not NaN).
PROX_DETAIL_SMALL_KERNEL int PROX_FN(prox_detail_rc_ray_ok)(const PROX_FN(prox_ray) * ray) {
  return PROX_FN(prox_vpoison)(ray->origin) == 0 && PROX_FN(prox_vpoison)(ray->dir) == 0 &&
         ray->tmin == ray->tmin && ray->tmax == ray->tmax;
}

/// Internal: the robust slab of one axis: the parameters t0 <= t1 where
/// o + t d enters and leaves lo <= x <= hi (lo <= hi). A zero d (+0 or -0)
/// gives the whole line or nothing (compare, no 0 * inf); a d so small that
/// 1 / d overflows is divided by instead.
PROX_DETAIL_COLD_KERNEL void PROX_FN(prox_detail_rc_slab)(PROX_REAL o, PROX_REAL d, PROX_REAL lo,
                                                          PROX_REAL hi, PROX_REAL *t0,
                                                          PROX_REAL *t1) {
  PROX_REAL inv = 1 / d, a, b;
  if (PROX_FABS(inv) <= PROX_REAL_MAX) {
    a = (lo - o) * inv;
    b = (hi - o) * inv;
  } else if (d == 0) {
    int in = lo <= o && o <= hi;
    *t0 = in ? -PROX_INF : PROX_INF;
    *t1 = in ? PROX_INF : -PROX_INF;
    return;
  } else {
    a = (lo - o) / d;
    b = (hi - o) / d;
  }
  *t0 = inv < 0 ? b : a;
  *t1 = inv < 0 ? a : b;
}

/// Internal: slab test of a ray against the box lo <= x <= hi given in the
/// box's own frame (o, d the ray there). Returns 1 on a hit (conservative,
/// see the top of this file), with the entry and exit parameters (entry
/// below tmin means the ray starts inside), the entry axis and the clamp
/// state of each axis at the entry (as prox_detail_box_feature takes it).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_slab3)(const PROX_REAL *o, const PROX_REAL *d,
                                                     const PROX_REAL *lo, const PROX_REAL *hi,
                                                     PROX_REAL tmin, PROX_REAL tmax,
                                                     PROX_REAL *enter, PROX_REAL *leave, int *axis,
                                                     int *c) {
  PROX_REAL t0[3], t1[3], en, ex, a, b;
  int i;
  for (i = 0; i < 3; ++i)
    PROX_FN(prox_detail_rc_slab)(o[i], d[i], lo[i], hi[i], &t0[i], &t1[i]);
  en = t0[0];
  *axis = 0;
  if (t0[1] > en) {
    en = t0[1];
    *axis = 1;
  }
  if (t0[2] > en) {
    en = t0[2];
    *axis = 2;
  }
  ex = t1[0] < t1[1] ? t1[0] : t1[1];
  ex = t1[2] < ex ? t1[2] : ex;
  a = en > tmin ? en : tmin;
  b = ex < tmax ? ex : tmax;
  *enter = en;
  *leave = ex;
  for (i = 0; i < 3; ++i)
    c[i] = (t0[i] == en && en >= tmin) ? (d[i] > 0 ? -1 : 1) : 0;
  /* Ize's slack: the slab parameters carry at most about 1.5 eps of
   * relative rounding each. Infinite b stays infinite, -inf gives NaN
   * (false). */
  return a <= b + PROX_R(4.0) * PROX_EPS * PROX_FABS(b) && a < PROX_INF;
}

/* ------------------------------------------------------------------------ */
/* Plane                                                                    */
/* ------------------------------------------------------------------------ */

/// Internal: a . b + c with about one rounding (the compensated dot
/// product Dot2 of Ogita, Rump and Oishi 2005).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_rc_dot_acc)(PROX_FN(prox_vec3) a,
                                                             PROX_FN(prox_vec3) b, PROX_REAL c) {
  PROX_REAL p = a.x * b.x, s = PROX_FN(prox_two_prod_err)(a.x, b.x, p), h, r, q, x, bv;
  int i;
  for (i = 0; i < 3; ++i) {
    PROX_REAL u = i == 0 ? a.y : (i == 1 ? a.z : c);
    PROX_REAL v = i == 0 ? b.y : (i == 1 ? b.z : 1);
    h = u * v;
    r = PROX_FN(prox_two_prod_err)(u, v, h);
    /* Two-sum p + h = x + q. */
    x = p + h;
    bv = x - p;
    q = (p - (x - bv)) + (h - bv);
    p = x;
    s += q + r;
  }
  return p + s;
}

PROX_KERNEL int PROX_FN(prox_raycast_plane)(const PROX_FN(prox_ray) * ray,
                                            const PROX_FN(prox_plane) * plane,
                                            PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) n = plane->normal;
  PROX_REAL den = PROX_FN(prox_detail_rc_dot_acc)(n, ray->dir, 0);
  PROX_REAL num = -PROX_FN(prox_detail_rc_dot_acc)(n, ray->origin, -plane->offset);
  PROX_REAL t = num / den;
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  PROX_FN(prox_vec3) p;
  if (!(t >= ray->tmin && t <= tmax) || den == 0 || !(PROX_FABS(t) < PROX_INF) ||
      !PROX_FN(prox_detail_rc_ray_ok)(ray) || !(num - num == 0))
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  p = PROX_FN(prox_vmadd)(ray->origin, t, ray->dir);
  if (PROX_FN(prox_vpoison)(p) != 0) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (out) PROX_FN(prox_detail_rc_rayhit_set)
  (out, t, t, 0, p, PROX_FN(prox_detail_rc_unit)(n), PROX_FEATURE_FACE, 0);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Axis-aligned and oriented boxes                                          */
/* ------------------------------------------------------------------------ */

/// Internal: fills *out with the hit of prox_raycast_aabb (box lo..hi,
/// slab entries t0[], entry en, exit b clipped to tmax).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_aabb_out)(const PROX_FN(prox_ray) * ray,
                                                        const PROX_FN(prox_aabb) * box,
                                                        const PROX_REAL *t0, PROX_REAL en,
                                                        PROX_REAL b, PROX_REAL tmax,
                                                        PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) lo = PROX_FN(prox_vmin)(box->min, box->max);
  PROX_FN(prox_vec3) hi = PROX_FN(prox_vmax)(box->max, box->min);
  PROX_REAL l[3], h[3], oo[3], dd[3], p[3], nrm[3] = {0, 0, 0}, t;
  int c[3], e[3], i, axis = 0;
  prox_feature f;
  if (!(en >= ray->tmin)) {
    /* Starts inside (or on the surface, leaving). */
    t = ray->tmin;
    return PROX_FN(prox_detail_rc_rayhit_set)(
        out, t, b < t ? t : b, 1,
        t == 0 ? ray->origin : PROX_FN(prox_vmadd)(ray->origin, t, ray->dir),
        PROX_FN(prox_v3)(0, 0, 0), PROX_FEATURE_INTERIOR, 0);
  }
  t = en < tmax ? en : tmax;
  l[0] = lo.x, l[1] = lo.y, l[2] = lo.z;
  h[0] = hi.x, h[1] = hi.y, h[2] = hi.z;
  oo[0] = ray->origin.x, oo[1] = ray->origin.y, oo[2] = ray->origin.z;
  dd[0] = ray->dir.x, dd[1] = ray->dir.y, dd[2] = ray->dir.z;
  /* Axes whose entry is the box's entry: e[i] (ties: edge, vertex). */
  e[0] = t0[0] == en;
  e[1] = t0[1] == en;
  e[2] = t0[2] == en;
  for (i = 0; i < 3; ++i)
    p[i] = PROX_FN(prox_clamp)(oo[i] + t * dd[i], l[i], h[i]);
  if (e[0] + e[1] + e[2] == 1) {
    /* One entry axis, a face (the common case), found and snapped to its
     * plane without branching on which axis it is (the clamp leaves the
     * plane as it is): the same values as the general code below. */
    int hs;
    axis = !e[0] * (2 - e[1]);
    hs = !(dd[axis] > 0);
    p[axis] = (hs ? h : l)[axis];
    f.kind = PROX_FEATURE_FACE;
    f.index = 2 * axis + hs;
  } else {
    for (i = 2; i >= 0; --i) {
      /* The first axis gives the normal. */
      c[i] = e[i] ? (dd[i] > 0 ? -1 : 1) : 0;
      if (c[i]) axis = i;
    }
    f = PROX_FN(prox_detail_box_feature)(c[0], c[1], c[2]);
    for (i = 0; i < 3; ++i) {
      /* On the box: the entry planes exactly, the others clamped. */
      p[i] = c[i] < 0 ? l[i] : (c[i] > 0 ? h[i] : p[i]);
      p[i] = PROX_FN(prox_clamp)(p[i], l[i], h[i]);
    }
  }
  nrm[axis] = dd[axis] > 0 ? -1 : 1;
  return PROX_FN(prox_detail_rc_rayhit_set)(
      out, t, b < t ? t : b, 0, PROX_FN(prox_v3)(p[0], p[1], p[2]),
      PROX_FN(prox_v3)(nrm[0], nrm[1], nrm[2]), f.kind, f.index);
}

/// Internal: 1 when the ray and box of prox_raycast_aabb are finite.
PROX_DETAIL_SMALL_KERNEL int PROX_FN(prox_detail_rc_aabb_ok)(const PROX_FN(prox_ray) * ray,
                                                             PROX_FN(prox_vec3) lo,
                                                             PROX_FN(prox_vec3) hi) {
  return PROX_FN(prox_detail_rc_ray_ok)(ray) &&
         PROX_FN(prox_vpoison)(lo) + PROX_FN(prox_vpoison)(hi) == 0;
}

/// Internal: the slabs of prox_raycast_aabb when a direction component is
/// zero or subnormal (prox_detail_rc_slab on the ordered box).
PROX_DETAIL_COLD_KERNEL void PROX_FN(prox_detail_rc_aabb_slabs)(const PROX_FN(prox_ray) * ray,
                                                                const PROX_FN(prox_aabb) * box,
                                                                PROX_REAL *t0, PROX_REAL *t1) {
  PROX_FN(prox_vec3) lo = PROX_FN(prox_vmin)(box->min, box->max);
  PROX_FN(prox_vec3) hi = PROX_FN(prox_vmax)(box->max, box->min);
  PROX_FN(prox_vec3) o = ray->origin, d = ray->dir;
  PROX_FN(prox_detail_rc_slab)(o.x, d.x, lo.x, hi.x, &t0[0], &t1[0]);
  PROX_FN(prox_detail_rc_slab)(o.y, d.y, lo.y, hi.y, &t0[1], &t1[1]);
  PROX_FN(prox_detail_rc_slab)(o.z, d.z, lo.z, hi.z, &t0[2], &t1[2]);
}

/// Internal: the slab parameters x0, x1 of one axis, ordered. Two separate
/// comparisons, the forms of min and max instructions: one shared
/// comparison compiles to a branch that the direction's sign makes
/// unpredictable.
PROX_DETAIL_SMALL_KERNEL void PROX_FN(prox_detail_rc_slab_order)(PROX_REAL x0, PROX_REAL x1,
                                                                 PROX_REAL *t0, PROX_REAL *t1) {
  *t0 = x0 < x1 ? x0 : x1;
  *t1 = x0 > x1 ? x0 : x1;
}

/// Internal: the end of prox_raycast_aabb from the slab intervals
/// t0[i]..t1[i]: the interval test and the result (ok = 0, non-finite
/// input: no hit).
PROX_DETAIL_SMALL_KERNEL int PROX_FN(prox_detail_rc_aabb_end)(const PROX_FN(prox_ray) * ray,
                                                              const PROX_FN(prox_aabb) * box,
                                                              const PROX_REAL *t0,
                                                              const PROX_REAL *t1, PROX_REAL tmax,
                                                              int ok, PROX_FN(prox_rayhit) * out) {
  PROX_REAL en = t0[0] > t0[1] ? t0[0] : t0[1];
  PROX_REAL ex = t1[0] < t1[1] ? t1[0] : t1[1], a, b;
  int hit;
  en = t0[2] > en ? t0[2] : en;
  ex = t1[2] < ex ? t1[2] : ex;
  a = en > ray->tmin ? en : ray->tmin;
  b = ex < tmax ? ex : tmax;
  /* Ize's slack: the slab parameters carry at most about 1.5 eps of
   * relative rounding each. An entry beyond the largest real (a tiny
   * direction) is no hit. */
  hit = (a <= b + PROX_R(4.0) * PROX_EPS * PROX_FABS(b)) & (a < PROX_INF) & ok;
  /* Without out, the answer is the flag itself: no branch on an outcome
   * that random rays make unpredictable. */
  if (!out) return hit;
  if (!hit) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  return PROX_FN(prox_detail_rc_aabb_out)(ray, box, t0, en, b, tmax, out);
}

/// Internal: prox_raycast_aabb for any input (the general code): a zero,
/// subnormal or non-finite direction component, a non-finite input or a
/// slab parameter that overflows.
PROX_DETAIL_COLD_KERNEL int PROX_FN(prox_detail_rc_aabb_gen)(const PROX_FN(prox_ray) * ray,
                                                             const PROX_FN(prox_aabb) * box,
                                                             PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) lo = box->min, hi = box->max;
  PROX_FN(prox_vec3) o = ray->origin, d = ray->dir;
  PROX_REAL ix = 1 / d.x, iy = 1 / d.y, iz = 1 / d.z;
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  PROX_REAL t0[3], t1[3];
  if (PROX_FABS(ix) <= PROX_REAL_MAX && PROX_FABS(iy) <= PROX_REAL_MAX &&
      PROX_FABS(iz) <= PROX_REAL_MAX) {
    /* 1 / d finite (prox_raycast_aabb's common case, which must give the
     * same values as this code): the slab parameters ordered by min and
     * max (the same values as ordering them by the sign of 1 / d, and the
     * same whichever of min and max is the larger, so the box needs no
     * ordering here). */
    PROX_FN(prox_detail_rc_slab_order)
    ((lo.x - o.x) * ix, (hi.x - o.x) * ix, &t0[0], &t1[0]);
    PROX_FN(prox_detail_rc_slab_order)
    ((lo.y - o.y) * iy, (hi.y - o.y) * iy, &t0[1], &t1[1]);
    PROX_FN(prox_detail_rc_slab_order)
    ((lo.z - o.z) * iz, (hi.z - o.z) * iz, &t0[2], &t1[2]);
  } else {
    /* A zero or subnormal direction component (out of line). */
    PROX_FN(prox_detail_rc_aabb_slabs)(ray, box, t0, t1);
  }
  return PROX_FN(prox_detail_rc_aabb_end)(ray, box, t0, t1, tmax,
                                          PROX_FN(prox_detail_rc_aabb_ok)(ray, lo, hi), out);
}

PROX_SMALL_KERNEL int PROX_FN(prox_raycast_aabb)(const PROX_FN(prox_ray) * ray,
                                                 const PROX_FN(prox_aabb) * box,
                                                 PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) lo = box->min, hi = box->max;
  PROX_FN(prox_vec3) o = ray->origin, d = ray->dir;
  PROX_REAL ix = 1 / d.x, iy = 1 / d.y, iz = 1 / d.z;
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  PROX_REAL x0 = (lo.x - o.x) * ix, x1 = (hi.x - o.x) * ix;
  PROX_REAL y0 = (lo.y - o.y) * iy, y1 = (hi.y - o.y) * iy;
  PROX_REAL z0 = (lo.z - o.z) * iz, z1 = (hi.z - o.z) * iz;
  PROX_REAL t0[3], t1[3];
  /* One finiteness check for the whole input. A slab parameter (lo - o) *
   * (1 / d) is finite only when lo, o and 1 / d are (inf times anything,
   * zero included, is not finite), so a finite sum of the six and of d
   * means: finite input, and the values of the general code's common case
   * (|1 / d| <= max); otherwise the general code decides (also when a
   * finite sum overflows). The interval test below then needs no check of
   * tmin and tmax: NaN there fails it. */
  PROX_REAL q = ((x0 + x1) + (y0 + y1)) + ((z0 + z1) + ((d.x + d.y) + d.z));
  if (!(PROX_FABS(q) <= PROX_REAL_MAX)) return PROX_FN(prox_detail_rc_aabb_gen)(ray, box, out);
  PROX_FN(prox_detail_rc_slab_order)(x0, x1, &t0[0], &t1[0]);
  PROX_FN(prox_detail_rc_slab_order)(y0, y1, &t0[1], &t1[1]);
  PROX_FN(prox_detail_rc_slab_order)(z0, z1, &t0[2], &t1[2]);
  return PROX_FN(prox_detail_rc_aabb_end)(ray, box, t0, t1, tmax, 1, out);
}

PROX_KERNEL int PROX_FN(prox_raycast_obb)(const PROX_FN(prox_ray) * ray,
                                          const PROX_FN(prox_obb) * box,
                                          PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(ray->origin, box->center);
  PROX_REAL o[3], d[3], l[3], h[3], en, ex, t, tmax, grow;
  int c[3], axis, i, hit;
  for (i = 0; i < 3; ++i) {
    o[i] = PROX_FN(prox_vdot)(w, box->axis[i]);
    d[i] = PROX_FN(prox_vdot)(ray->dir, box->axis[i]);
    h[i] = PROX_FABS(box->half[i]);
    l[i] = -h[i];
  }
  tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  hit = PROX_FN(prox_detail_rc_slab3)(o, d, l, h, ray->tmin, tmax, &en, &ex, &axis, c);
  if (!hit) {
    grow = PROX_R(8.0) * PROX_EPS *
           (PROX_FABS(w.x) + PROX_FABS(w.y) + PROX_FABS(w.z) + h[0] + h[1] + h[2]);
    for (i = 0; i < 3; ++i) {
      h[i] += grow;
      l[i] = -h[i];
    }
    hit = PROX_FN(prox_detail_rc_slab3)(o, d, l, h, ray->tmin, tmax, &en, &ex, &axis, c);
  }
  if (!hit || !PROX_FN(prox_detail_rc_ray_ok)(ray) ||
      PROX_FN(prox_vpoison)(box->center) + PROX_FN(prox_vpoison)(box->axis[0]) +
              PROX_FN(prox_vpoison)(box->axis[1]) + PROX_FN(prox_vpoison)(box->axis[2]) +
              (h[0] - h[0]) + (h[1] - h[1]) + (h[2] - h[2]) !=
          0)
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (!out) return 1;
  ex = ex < tmax ? ex : tmax;
  if (!(en >= ray->tmin)) {
    t = ray->tmin;
    return PROX_FN(prox_detail_rc_rayhit_set)(
        out, t, ex < t ? t : ex, 1,
        t == 0 ? ray->origin : PROX_FN(prox_vmadd)(ray->origin, t, ray->dir),
        PROX_FN(prox_v3)(0, 0, 0), PROX_FEATURE_INTERIOR, 0);
  }
  t = en < tmax ? en : tmax;
  {
    prox_feature f = PROX_FN(prox_detail_box_feature)(c[0], c[1], c[2]);
    PROX_FN(prox_vec3)
    n = PROX_FN(prox_detail_rc_unit)(box->axis[axis]);
    if (d[axis] > 0) n = PROX_FN(prox_vneg)(n);
    return PROX_FN(prox_detail_rc_rayhit_set)(out, t, ex < t ? t : ex, 0,
                                              PROX_FN(prox_vmadd)(ray->origin, t, ray->dir), n,
                                              f.kind, f.index);
  }
}

/* ------------------------------------------------------------------------ */
/* Sphere and capsule                                                       */
/* ------------------------------------------------------------------------ */

/// Internal: the parameters t0 <= t1 (in units of ds) where f + t ds meets
/// the ball of radius r around the origin, f the ray origin relative to the
/// center and ds the direction scaled to max-norm 1. Returns 0 when the
/// line misses. Uses the closest approach of the line to the center (Haines
/// et al., Ray Tracing Gems ch. 7), which keeps the error of t |ds| at a
/// few eps (|f| + r) instead of the eps |f|^2 / r of the textbook formula.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_ball_interval)(PROX_FN(prox_vec3) f,
                                                             PROX_FN(prox_vec3) ds, PROX_REAL r,
                                                             PROX_REAL *t0, PROX_REAL *t1) {
  PROX_REAL a = PROX_FN(prox_vdot)(ds, ds);
  PROX_REAL tca = -PROX_FN(prox_vdot)(f, ds) / a;
  PROX_FN(prox_vec3) p = PROX_FN(prox_vmadd)(f, tca, ds);
  PROX_REAL lp = PROX_FN(prox_vlen)(p), hl;
  if (!(lp <= r)) return 0;
  hl = PROX_SQRT(((r - lp) * (r + lp)) / a);
  *t0 = tca - hl;
  *t1 = tca + hl;
  return 1;
}

/// Internal: the direction scaled to max-norm 1 and the scale m (0 for a
/// zero direction).
PROX_DETAIL_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_detail_rc_dir_scaled)(PROX_FN(prox_vec3) d, PROX_REAL *m) {
  *m = PROX_FN(prox_detail_maxabs)(d);
  /* Divide: 1 / m overflows for subnormal m. */
  return *m > 0 ? PROX_FN(prox_v3)(d.x / *m, d.y / *m, d.z / *m) : d;
}

/// Internal: the hit of a ray on a solid from the line's interval [t0, t1]
/// (real parameters), clipped to the ray; 0 when they do not meet. The
/// caller fills point, normal and feature.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_solid_clip)(PROX_REAL t0, PROX_REAL t1,
                                                          PROX_REAL tmin, PROX_REAL tmax,
                                                          PROX_REAL *t, PROX_REAL *tx,
                                                          int *inside) {
  PROX_REAL a = t0 > tmin ? t0 : tmin, b = t1 < tmax ? t1 : tmax;
  /* An entry beyond the largest real (a tiny direction) is no hit. */
  if (!(a <= b) || !(a < PROX_INF)) return 0;
  *inside = !(t0 >= tmin);
  *t = a;
  *tx = b;
  return 1;
}

PROX_KERNEL int PROX_FN(prox_raycast_sphere)(const PROX_FN(prox_ray) * ray,
                                             const PROX_FN(prox_sphere) * sph,
                                             PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) f = PROX_FN(prox_vsub)(ray->origin, sph->center);
  PROX_REAL r = PROX_FABS(sph->radius), m, t0, t1, t, tx, grow;
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  PROX_FN(prox_vec3) ds = PROX_FN(prox_detail_rc_dir_scaled)(ray->dir, &m);
  int inside = 0, hit = 0, k;
  if (!PROX_FN(prox_detail_rc_ray_ok)(ray) || PROX_FN(prox_vpoison)(sph->center) + (r - r) != 0)
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  grow = PROX_R(8.0) * PROX_EPS * (PROX_FN(prox_detail_maxabs)(f) + r);
  for (k = 0; k < 2 && !hit; ++k) {
    PROX_REAL rr = k == 0 ? r : r + grow;
    if (m > 0) {
      if (PROX_FN(prox_detail_rc_ball_interval)(f, ds, rr, &t0, &t1))
        hit = PROX_FN(prox_detail_rc_solid_clip)(t0 / m, t1 / m, ray->tmin, tmax, &t, &tx, &inside);
    } else if (PROX_FN(prox_vlen)(f) <= rr) {
      hit = PROX_FN(prox_detail_rc_solid_clip)(-PROX_INF, PROX_INF, ray->tmin, tmax, &t, &tx,
                                               &inside);
    }
  }
  if (!hit) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (out) {
    PROX_FN(prox_vec3)
    p = t == 0 ? ray->origin : PROX_FN(prox_vmadd)(ray->origin, t, ray->dir);
    if (inside)
      return PROX_FN(prox_detail_rc_rayhit_set)(out, t, tx, 1, p, PROX_FN(prox_v3)(0, 0, 0),
                                                PROX_FEATURE_INTERIOR, 0);
    PROX_FN(prox_detail_rc_rayhit_set)
    (out, t, tx, 0, p,
     PROX_FN(prox_detail_unit)(PROX_FN(prox_vmadd)(f, t, ray->dir),
                               PROX_FN(prox_detail_rc_unit)(PROX_FN(prox_vneg)(ray->dir))),
     PROX_FEATURE_FACE, 0);
  }
  return 1;
}

PROX_KERNEL int PROX_FN(prox_raycast_capsule)(const PROX_FN(prox_ray) * ray,
                                              const PROX_FN(prox_capsule) * cap,
                                              PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_vec3) fa = PROX_FN(prox_vsub)(ray->origin, cap->a);
  PROX_FN(prox_vec3) fb = PROX_FN(prox_vsub)(ray->origin, cap->b);
  PROX_FN(prox_vec3) e = PROX_FN(prox_vsub)(cap->b, cap->a);
  PROX_REAL r = PROX_FABS(cap->radius), m, ee = PROX_FN(prox_vdot)(e, e);
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  PROX_FN(prox_vec3) ds = PROX_FN(prox_detail_rc_dir_scaled)(ray->dir, &m);
  PROX_REAL grow, t = 0, tx = 0, t0, t1;
  int k, hit = 0, inside = 0, piece = 0;
  if (!PROX_FN(prox_detail_rc_ray_ok)(ray) ||
      PROX_FN(prox_vpoison)(cap->a) + PROX_FN(prox_vpoison)(cap->b) + (r - r) != 0)
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  grow = PROX_R(8.0) * PROX_EPS *
         (PROX_FN(prox_detail_maxabs)(fa) + PROX_FN(prox_detail_maxabs)(e) + r);
  if (!(m > 0)) {
    /* Zero direction: the point origin. */
    PROX_FN(prox_segment) s;
    s.a = cap->a;
    s.b = cap->b;
    if (PROX_SQRT(PROX_FN(prox_point_segment)(ray->origin, &s, 0)) <= r + grow)
      hit = PROX_FN(prox_detail_rc_solid_clip)(-PROX_INF, PROX_INF, ray->tmin, tmax, &t, &tx,
                                               &inside);
    if (!hit) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
    return PROX_FN(prox_detail_rc_rayhit_set)(out, t, tx, 1, ray->origin, PROX_FN(prox_v3)(0, 0, 0),
                                              PROX_FEATURE_INTERIOR, 0);
  }
  for (k = 0; k < 2 && !hit; ++k) {
    PROX_REAL rr = k == 0 ? r : r + grow;
    PROX_REAL en = PROX_INF, ex = -PROX_INF;
    int j;
    /* The two balls (pieces 1 and 2). */
    for (j = 0; j < 2; ++j) {
      if (PROX_FN(prox_detail_rc_ball_interval)(j == 0 ? fa : fb, ds, rr, &t0, &t1)) {
        if (t0 < en) {
          en = t0;
          piece = j + 1;
        }
        if (t1 > ex) ex = t1;
      }
    }
    /* The cylinder (piece 0): the infinite one clipped by the end slab. */
    if (ee > 0) {
      PROX_REAL fe = PROX_FN(prox_vdot)(fa, e), de = PROX_FN(prox_vdot)(ds, e);
      PROX_FN(prox_vec3) fp = PROX_FN(prox_vmadd)(fa, -fe / ee, e);
      PROX_FN(prox_vec3) dp = PROX_FN(prox_vmadd)(ds, -de / ee, e);
      PROX_REAL A = PROX_FN(prox_vdot)(dp, dp), c0, c1, s0, s1;
      int ok = 1;
      if (A > 0) {
        PROX_REAL tca = -PROX_FN(prox_vdot)(fp, dp) / A;
        PROX_REAL lp = PROX_FN(prox_vlen)(PROX_FN(prox_vmadd)(fp, tca, dp));
        if (lp <= rr) {
          PROX_REAL hl = PROX_SQRT(((rr - lp) * (rr + lp)) / A);
          c0 = tca - hl;
          c1 = tca + hl;
        } else {
          ok = 0;
          c0 = c1 = 0;
        }
      } else {
        /* Parallel to the axis: inside the cylinder everywhere or nowhere. */
        ok = PROX_FN(prox_vlen)(fp) <= rr;
        c0 = -PROX_INF;
        c1 = PROX_INF;
      }
      if (ok) {
        PROX_FN(prox_detail_rc_slab)(fe, de, 0, ee, &s0, &s1);
        c0 = s0 > c0 ? s0 : c0;
        c1 = s1 < c1 ? s1 : c1;
        if (c0 <= c1) {
          if (c0 < en) {
            en = c0;
            piece = 0;
          }
          if (c1 > ex) ex = c1;
        }
      }
    }
    if (en <= ex)
      hit = PROX_FN(prox_detail_rc_solid_clip)(en / m, ex / m, ray->tmin, tmax, &t, &tx, &inside);
  }
  if (!hit) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (out) {
    PROX_FN(prox_vec3)
    p = t == 0 ? ray->origin : PROX_FN(prox_vmadd)(ray->origin, t, ray->dir);
    PROX_FN(prox_vec3) n;
    if (inside)
      return PROX_FN(prox_detail_rc_rayhit_set)(out, t, tx, 1, p, PROX_FN(prox_v3)(0, 0, 0),
                                                PROX_FEATURE_INTERIOR, 0);
    /* The feature from the axial parameter of the hit point, which is
     * well-conditioned (the entry parameters of the side and of a cap
     * touch tangentially at their junction, so which one is smaller is
     * not). */
    {
      PROX_FN(prox_vec3) q = PROX_FN(prox_vmadd)(fa, t, ray->dir);
      PROX_REAL sp = ee > 0 ? PROX_FN(prox_vdot)(q, e) / ee : 0;
      if (sp <= 0) {
        piece = 1;
        n = q;
      } else if (sp >= 1) {
        piece = 2;
        n = PROX_FN(prox_vmadd)(fb, t, ray->dir);
      } else {
        piece = 0;
        n = PROX_FN(prox_vmadd)(q, -sp, e);
      }
    }
    {
      /* On the core (radius 0): the direction that faces the ray, across
       * the segment on the side. */
      PROX_FN(prox_vec3)
      face = PROX_FN(prox_detail_rc_unit)(PROX_FN(prox_vneg)(ray->dir));
      if (piece == 0)
        face = PROX_FN(prox_detail_unit)(
            PROX_FN(prox_vmadd)(face, -PROX_FN(prox_vdot)(face, e) / ee, e), face);
      n = PROX_FN(prox_detail_unit)(n, face);
    }
    PROX_FN(prox_detail_rc_rayhit_set)
    (out, t, tx, 0, p, n, piece == 0 ? PROX_FEATURE_EDGE : PROX_FEATURE_VERTEX,
     piece == 0 ? 0 : piece - 1);
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Triangles and tetrahedra: ray space (Woop, Benthin and Wald 2013)        */
/* ------------------------------------------------------------------------ */

/// Internal: the ray-space frame of a ray. kz is the axis of the largest
/// direction component, (kx, ky, kz) a cyclic order of the axes, swapped
/// when d[kz] < 0 so that the winding of projected triangles is kept;
/// a point p maps to (p[kx] - sx p[kz], p[ky] - sy p[kz], sz p[kz]) after
/// subtracting the origin.
typedef struct PROX_FN(prox_detail_rayspace) {
  PROX_FN(prox_vec3) o, d; ///< the ray's origin and direction
  int kx, ky, kz;          ///< axis permutation
  PROX_REAL sx, sy, sz;    ///< shear: d[kx] sz, d[ky] sz, sz = 1/d[kz]
} PROX_FN(prox_detail_rayspace);

/// Internal: a vertex in ray space: coordinates x, y, z and the largest
/// magnitude m of the vertex minus the origin (for the error bounds).
typedef struct PROX_FN(prox_detail_rsvert) {
  PROX_REAL x, y, z, m;
} PROX_FN(prox_detail_rsvert);

/// Internal: makes the ray-space frame; returns 0 for a zero direction.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_rayspace)(PROX_FN(prox_vec3) o, PROX_FN(prox_vec3) d,
                                                        PROX_FN(prox_detail_rayspace) * rs) {
  /* Selections on integers and array indices rather than branches: the
   * direction changes with every ray, so branches on it would be
   * mispredicted. */
  PROX_REAL dv[3], ax = PROX_FABS(d.x), ay = PROX_FABS(d.y), az = PROX_FABS(d.z), dz;
  int zx = az >= ax, zy = az >= ay, yx = ay >= ax, c = zx & zy;
  int kz = 2 * c + (1 - c) * yx; /* 2 if z is largest, else 1 if y, else 0 */
  /* The cyclic successors of kz from two-bit tables packed in an integer:
   * no division by 3 and no branch (a selection here becomes one). */
  int kx = (0x09 >> (2 * kz)) & 3, ky = (0x12 >> (2 * kz)) & 3, neg;
  dv[0] = d.x;
  dv[1] = d.y;
  dv[2] = d.z;
  dz = dv[kz];
  neg = dz < 0;
  rs->o = o;
  rs->d = d;
  rs->kz = kz;
  rs->kx = kx + neg * (ky - kx);
  rs->ky = ky + neg * (kx - ky);
  /* One division: sx and sy carry two roundings each, which the edge
   * functions' error bound allows for. */
  rs->sz = 1 / dz;
  rs->sx = dv[rs->kx] * rs->sz;
  rs->sy = dv[rs->ky] * rs->sz;
  return dz != 0;
}

/// Internal: a point in ray space.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_rsvert)
    PROX_FN(prox_detail_rc_rsvert)(const PROX_FN(prox_detail_rayspace) * rs, PROX_FN(prox_vec3) v) {
  PROX_REAL p[3], m;
  PROX_FN(prox_detail_rsvert) r;
  p[0] = v.x - rs->o.x;
  p[1] = v.y - rs->o.y;
  p[2] = v.z - rs->o.z;
  m = PROX_FABS(p[0]);
  if (PROX_FABS(p[1]) > m) m = PROX_FABS(p[1]);
  if (PROX_FABS(p[2]) > m) m = PROX_FABS(p[2]);
  r.x = p[rs->kx] - rs->sx * p[rs->kz];
  r.y = p[rs->ky] - rs->sy * p[rs->kz];
  r.z = rs->sz * p[rs->kz];
  r.m = m;
  return r;
}

/// Internal: the exact sign of the edge function of the edge p -> q seen
/// from the ray, from the original coordinates (see the top of the file).
/// When it is zero, *tie gets the sign after the symbolic perturbation
/// (when perturb is set; else 0).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_edge_exact)(const PROX_FN(prox_detail_rayspace) * rs,
                                                          PROX_FN(prox_vec3) p,
                                                          PROX_FN(prox_vec3) q, int perturb,
                                                          int *tie) {
  double o[3], d[3], a[3], b[3];
  int s;
  o[0] = (double)rs->o.x;
  o[1] = (double)rs->o.y;
  o[2] = (double)rs->o.z;
  d[0] = (double)rs->d.x;
  d[1] = (double)rs->d.y;
  d[2] = (double)rs->d.z;
  a[0] = (double)p.x;
  a[1] = (double)p.y;
  a[2] = (double)p.z;
  b[0] = (double)q.x;
  b[1] = (double)q.y;
  b[2] = (double)q.z;
  s = prox_detail_xp_ray_edge_exact(o, d, a, b);
  *tie = s == 0 && perturb ? prox_detail_xp_ray_edge_perturb(d, a, b, rs->kx, rs->ky) : 0;
  return s;
}

/// Internal: the uncertain case of prox_detail_rc_edge (e within its
/// error bound): float input re-evaluated in double, then the exact sign.
PROX_DETAIL_COLD_KERNEL PROX_REAL
PROX_FN(prox_detail_rc_edge_slow)(const PROX_FN(prox_detail_rayspace) * rs, PROX_FN(prox_vec3) p,
                                  PROX_FN(prox_vec3) q, PROX_REAL e, int perturb, int *s, int *z) {
  int x, tie;
#if !PROX_IS_DOUBLE
  {
    /* Float input: the same computation in double is usually decisive. */
    prox_detail_rayspace r;
    prox_detail_rsvert Pd, Qd;
    double ed, bd;
    prox_detail_rc_rayspace(prox_v3(rs->o.x, rs->o.y, rs->o.z), prox_v3(rs->d.x, rs->d.y, rs->d.z),
                            &r);
    Pd = prox_detail_rc_rsvert(&r, prox_v3(p.x, p.y, p.z));
    Qd = prox_detail_rc_rsvert(&r, prox_v3(q.x, q.y, q.z));
    ed = Pd.x * Qd.y - Pd.y * Qd.x;
    bd = 48.0 * DBL_EPSILON * (Pd.m * Qd.m);
    if (ed > bd || ed < -bd) {
      /* Certain in double (*z 4): the value is to its double bound, and
       * its products' rounding is the double one. */
      *s = ed > 0 ? 1 : -1;
      *z = 4;
      return (PROX_REAL)ed;
    }
  }
#endif
  x = PROX_FN(prox_detail_rc_edge_exact)(rs, p, q, perturb, &tie);
  if (x == 0) {
    *z = 1;
    *s = tie;
    return 0;
  }
  /* The sign is exact, the value only within its rounding. */
  *s = x;
  *z = 2;
  return (x > 0 && e > 0) || (x < 0 && e < 0) ? e : 0;
}

/// Internal: the second error bound of the edge function P.x Q.y - P.y Q.x
/// (see prox_detail_rc_edge), for when the first leaves its sign open. The
/// first, 48 eps P.m Q.m, takes every ray-space coordinate as large as the
/// vertex's distance m from the origin; this one uses their own sizes,
/// which are small where the vertices lie near the ray (a triangle seen
/// from far away: the common case where the first fails). Derivation, u =
/// eps / 2: each ray-space coordinate X (or Y) of P is within
/// 5u max(P.m, REAL_MIN) + u |X| of its exact value (u m for the
/// translation, 4u for the shear's product with its rounded slope, the
/// slope having |sx| <= 1, absolute u REAL_MIN where that product
/// underflows, u |X| for the subtraction); the exact edge function then
/// differs from the computed one by at most
///   5u [Pm' (|Q.x| + |Q.y|) + Qm' (|P.x| + |P.y|)]       (Pm' = P.m + REAL_MIN)
///   + 4.03u (|P.x Q.y| + |P.y Q.x|)  (the u |X| terms, the products and
///     the subtraction)
///   + 100 u^2 P.m Q.m                (second order, |X| <= 2.01 m)
///   + 2.01 u REAL_MIN                (the products below the normal range).
/// Bounded here by 3 eps, 32 eps^2 and 8 eps REAL_MIN: margins of 16% or
/// more, above the few roundings of the bound's own evaluation and its
/// products' underflow. Where the vertices are far from the ray it can
/// exceed the first (up to about 48 eps P.m Q.m): it only ever adds
/// certain signs. Out of line: reached only when the first bound fails.
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_rc_edge_bound2)(PROX_FN(prox_detail_rsvert) P,
                                                                      PROX_FN(prox_detail_rsvert)
                                                                          Q) {
  PROX_REAL a = (P.m + PROX_REAL_MIN) * (PROX_FABS(Q.x) + PROX_FABS(Q.y)) +
                (Q.m + PROX_REAL_MIN) * (PROX_FABS(P.x) + PROX_FABS(P.y));
  PROX_REAL b = PROX_FABS(P.x * Q.y) + PROX_FABS(P.y * Q.x);
  return PROX_R(3.0) * PROX_EPS * (a + b) + PROX_R(32.0) * PROX_EPS * PROX_EPS * (P.m * Q.m) +
         PROX_R(8.0) * PROX_REAL_MIN * PROX_EPS;
}

/// Internal: the ray-space edge function P.x Q.y - P.y Q.x of the edge
/// p -> q (P, Q the ray-space images of p, q) with an exact sign. Returns
/// the value, set to zero when the exact value is zero or of the other sign
/// than the rounded one; *s gets the exact sign, or for an exact zero the
/// sign after the perturbation (perturb set) or 0; *z gets 1 for an exact
/// zero, 2 when the sign needed the exact predicate (the value is then
/// known only within its rounding), 4 for float input certain in double
/// (the value from the ray space in double), else 0. Forward error bound:
/// 48 eps P.m Q.m covers the rounding of the translation (u m per
/// coordinate), the shear (two roundings in sx, sy: 7 u m per ray-space
/// coordinate) and the 2x2 determinant, 36 eps P.m Q.m in all to first
/// order, and PROX_DETAIL_RC_BMIN the products' rounding below the normal
/// range; within it, the second bound (prox_detail_rc_edge_bound2, whose
/// certain signs are taken as the first's: *z 0), then float input is
/// re-evaluated in double, then (both precisions) the sign is made exactly
/// (prox_detail_rc_edge_slow).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_rc_edge)(
    const PROX_FN(prox_detail_rayspace) * rs, PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) q,
    PROX_FN(prox_detail_rsvert) P, PROX_FN(prox_detail_rsvert) Q, int perturb, int *s, int *z) {
  PROX_REAL e = P.x * Q.y - P.y * Q.x;
  PROX_REAL bound = PROX_R(48.0) * PROX_EPS * (P.m * Q.m) + PROX_DETAIL_RC_BMIN;
  int sp = e > bound, sn = e < -bound;
  *z = 0;
  *s = sp - sn; /* arithmetic, not a branch on the sign */
  if (sp | sn) return e;
  bound = PROX_FN(prox_detail_rc_edge_bound2)(P, Q);
  sp = e > bound;
  sn = e < -bound;
  *s = sp - sn;
  if (sp | sn) return e;
  return PROX_FN(prox_detail_rc_edge_slow)(rs, p, q, e, perturb, s, z);
}

/// Internal: the exact sign of t for a hit of the ray from o with the
/// triangle v[0..2] whose rounded t may have the wrong sign (|t| within
/// its rounding of 0, or from prox_detail_rc_tri_t_safe). In ray space
/// the numerator of t, w0 A.z + w1 B.z + w2 C.z, is the determinant
/// [A B C] = |sz| [a - o, b - o, c - o] = -|sz| orient3d(a, b, c, o), and
/// the denominator has the sign s of the weights (that of det); so the
/// sign of t is -s orient3d(a, b, c, o), exactly. Returns t with that
/// sign: 0 when the origin lies on the triangle's plane, else t itself,
/// or the smallest subnormal of the right sign where the rounding crossed
/// 0 (a NaN t stays NaN).
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_rc_tri_t_sign)(PROX_FN(prox_vec3) o,
                                                                     const PROX_FN(prox_vec3) * v,
                                                                     PROX_REAL t, PROX_REAL det) {
  double a[3], b[3], c[3], oo[3];
  int x;
  if (t != t) return t;
  a[0] = (double)v[0].x, a[1] = (double)v[0].y, a[2] = (double)v[0].z;
  b[0] = (double)v[1].x, b[1] = (double)v[1].y, b[2] = (double)v[1].z;
  c[0] = (double)v[2].x, c[1] = (double)v[2].y, c[2] = (double)v[2].z;
  oo[0] = (double)o.x, oo[1] = (double)o.y, oo[2] = (double)o.z;
  x = -prox_detail_xp_orient3d_exact(a, b, c, oo);
  if (det < 0) x = -x;
  if (x == 0) return 0;
  if (x > 0) return t > 0 ? t : PROX_REAL_MIN * PROX_EPS;
  return t < 0 ? t : -(PROX_REAL_MIN * PROX_EPS);
}

/// Internal: t of a hit of the ray (origin o, direction d) with the
/// triangle v[0..2] where the quotient of the weights cannot be trusted:
/// weights known only within their rounding (a triangle that is tiny, or
/// a needle, in ray space), or a quotient that overflowed or lost digits
/// to underflow (near the ends of the domain). From the plane in
/// double-double arithmetic (prox_detail_rc_plane_t: about one rounding,
/// whatever the shape), with the exact sign where that arithmetic leaves
/// it open (prox_detail_rc_tri_t_sign; s the sign of the weights). A NaN
/// only when the line is parallel to the plane, which the exact signs of
/// a hit exclude.
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_rc_tri_t_safe)(PROX_FN(prox_vec3) o,
                                                                     PROX_FN(prox_vec3) d,
                                                                     const PROX_FN(prox_vec3) * v,
                                                                     PROX_REAL s) {
  double a[3], b[3], c[3], oo[3], dd[3];
  PROX_REAL t;
  int sure;
  a[0] = (double)v[0].x, a[1] = (double)v[0].y, a[2] = (double)v[0].z;
  b[0] = (double)v[1].x, b[1] = (double)v[1].y, b[2] = (double)v[1].z;
  c[0] = (double)v[2].x, c[1] = (double)v[2].y, c[2] = (double)v[2].z;
  oo[0] = (double)o.x, oo[1] = (double)o.y, oo[2] = (double)o.z;
  dd[0] = (double)d.x, dd[1] = (double)d.y, dd[2] = (double)d.z;
  t = (PROX_REAL)prox_detail_rc_plane_t(a, b, c, oo, dd, &sure);
  /* (A t that rounded to zero from a nonzero one: the exact sign too.) */
  if (sure && t != 0) return t;
  return PROX_FN(prox_detail_rc_tri_t_sign)(o, v, t, s);
}

/// Internal: t of a hit from its weights, those of mask bit k (evaluated
/// in the template's precision) computed again with compensated products
/// (prox_diff_of_products; float input in double, where the products are
/// exact): the weights to a few ulps each whatever their cancellation, so
/// that t keeps the error of a fat triangle's. A recomputed weight whose
/// sign differed from s, the exact sign of the weights, would be made zero
/// (certain weights keep theirs). Updates w (and so the barycentrics).
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_rc_tri_t_comp)(PROX_FN(prox_detail_rsvert) A,
                                                                     PROX_FN(prox_detail_rsvert) B,
                                                                     PROX_FN(prox_detail_rsvert) C,
                                                                     PROX_REAL *w, PROX_REAL s,
                                                                     int mask) {
  double c[3], num = 0, det = 0;
  const PROX_FN(prox_detail_rsvert) * V[3];
  int k;
  V[0] = &A;
  V[1] = &B;
  V[2] = &C;
  for (k = 0; k < 3; ++k) {
    const PROX_FN(prox_detail_rsvert) *P = V[k == 2 ? 0 : k + 1], *Q = V[k == 0 ? 2 : k - 1];
    c[k] = (double)w[k];
    if (mask >> k & 1) {
#if PROX_IS_DOUBLE
      c[k] = prox_diff_of_products(P->x, Q->y, P->y, Q->x);
#else
      c[k] = (double)P->x * (double)Q->y - (double)P->y * (double)Q->x;
#endif
      if (s > 0 ? c[k] < 0 : c[k] > 0) c[k] = 0;
    }
    w[k] = (PROX_REAL)c[k];
    num += c[k] * (double)V[k]->z;
    det += c[k];
  }
  return (PROX_REAL)(num / det);
}

/// Internal: t of a hit with certain weights w[0..2] (of the sign s) and
/// their quotient t = num / det, where the fast test does not trust that
/// quotient (see prox_raycast_triangle); rs the ray space, V the images of
/// the vertices v. A quotient that overflowed or whose terms fell below
/// the normal range: the plane's t with its exact sign
/// (prox_detail_rc_tri_t_safe), *path 2. Else much cancellation in the
/// weights: those of mask compensated (prox_detail_rc_tri_t_comp), *path
/// 1.
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_rc_tri_t_hard)(
    const PROX_FN(prox_detail_rayspace) * rs, const PROX_FN(prox_vec3) * v,
    const PROX_FN(prox_detail_rsvert) * V, PROX_REAL *w, PROX_REAL num, PROX_REAL det, PROX_REAL t,
    PROX_REAL s, int mask, int *path) {
  if (PROX_FABS(num) >= PROX_DETAIL_RC_QMIN && PROX_FABS(det) >= PROX_DETAIL_RC_QMIN &&
      PROX_FABS(t) < PROX_INF) {
    /* (Should that quotient not be finite either: the plane.) */
    PROX_REAL c[3];
    c[0] = w[0];
    c[1] = w[1];
    c[2] = w[2];
    t = PROX_FN(prox_detail_rc_tri_t_comp)(V[0], V[1], V[2], c, s, mask);
    if (PROX_FABS(t) < PROX_INF) {
      *path = 1;
      w[0] = c[0];
      w[1] = c[1];
      w[2] = c[2];
      return t;
    }
  }
  *path = 2;
  if (det == 0) w[0] = w[1] = w[2] = s / PROX_R(3.0);
  return PROX_FN(prox_detail_rc_tri_t_safe)(rs->o, rs->d, v, s);
}

/// Internal: prox_detail_rc_tri_t_hard for the fast path of
/// prox_raycast_triangle, the ray space made again (the same values):
/// out of line, so that the fast path keeps its values in registers.
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_rc_tri_t_hard_ray)(
    const PROX_FN(prox_ray) * ray, const PROX_FN(prox_triangle) * tri, PROX_REAL *w, PROX_REAL num,
    PROX_REAL det, PROX_REAL t, PROX_REAL s, int *path) {
  PROX_FN(prox_detail_rayspace) rs;
  PROX_FN(prox_detail_rsvert) V[3];
  int i;
  PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &rs);
  for (i = 0; i < 3; ++i)
    V[i] = PROX_FN(prox_detail_rc_rsvert)(&rs, tri->v[i]);
  return PROX_FN(prox_detail_rc_tri_t_hard)(&rs, tri->v, V, w, num, det, t, s, 7, path);
}

#if !PROX_IS_DOUBLE
/// Internal (float): t of a hit of which a weight was certain only in
/// double (prox_detail_rc_edge_slowf): every weight and t from the ray
/// space in double, where the float input is exact and the rounding far
/// below float's (the weights of two ray spaces do not mix: their
/// errors, which cancel in t within one, would not). The weights of zeros
/// bit k (exact zeros) stay zero; w gets the barycentrics (float weights
/// of tiny triangles would underflow). t's sign is made exact where its
/// rounding leaves it open (the test of prox_detail_rc_t_near0, in
/// double, where the vertices lie on both sides of the origin).
PROX_DETAIL_COLD_KERNEL float prox_detail_rc_tri_t_doublef(prox_vec3f o, prox_vec3f d,
                                                           const prox_vec3f *v, float *w, int zeros,
                                                           float s) {
  prox_detail_rayspace r;
  prox_detail_rsvert P[3];
  double c[3], num, det, e = 0, t;
  int k, zp = 0, zn = 0;
  prox_detail_rc_rayspace(prox_v3(o.x, o.y, o.z), prox_v3(d.x, d.y, d.z), &r);
  for (k = 0; k < 3; ++k)
    P[k] = prox_detail_rc_rsvert(&r, prox_v3(v[k].x, v[k].y, v[k].z));
  for (k = 0; k < 3; ++k) {
    int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
    c[k] = zeros >> k & 1 ? 0 : P[p].x * P[q].y - P[p].y * P[q].x;
    e += (48.0 * DBL_EPSILON * (P[p].m * P[q].m) + 4.0 * DBL_EPSILON * fabs(c[k])) * fabs(P[k].z);
    zp += P[k].z > 0;
    zn += P[k].z < 0;
  }
  num = c[0] * P[0].z + c[1] * P[1].z + c[2] * P[2].z;
  det = c[0] + c[1] + c[2];
  t = num / det;
  for (k = 0; k < 3; ++k)
    w[k] = (float)(c[k] / det);
  if (zp != 3 && zn != 3 && fabs(num) <= 2.0 * e)
    return prox_detail_rc_tri_t_signf(o, v, (float)t, s);
  /* A t below float's range keeps its (certain) sign. */
  if ((float)t == 0 && t != 0) return t > 0 ? FLT_MIN * FLT_EPSILON : -(FLT_MIN * FLT_EPSILON);
  return (float)t;
}
#endif

/// Internal: ray-space hit of a ray with the triangle (a, b, c) whose
/// vertices' ray-space images are A, B, C. closed = 0: the tie rule of the
/// perturbation (a shared edge or vertex belongs to exactly one triangle of
/// a closed mesh); closed = 1: the boundary belongs to the triangle (for
/// solids). Returns 1 when the line meets the triangle, with the
/// barycentric weights w[0..2] (unnormalised, summing to *det) and the
/// parameter *t; z[k] gets which weights are exactly zero (bit k). Returns
/// 2 instead when t's sign is exact already: t from the plane
/// (prox_detail_rc_tri_t_safe) where a weight is known only within its
/// rounding, or the quotient may have overflowed or underflowed, or for
/// float from the ray space in double (prox_detail_rc_tri_t_doublef, the
/// weights then the barycentrics); from the plane the weights are kept,
/// or where they sum to zero all set to 1/3 with the sign of the exact
/// ones.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_rs_triangle)(const PROX_FN(prox_detail_rayspace) * rs,
                                                           const PROX_FN(prox_vec3) * v,
                                                           const PROX_FN(prox_detail_rsvert) * V,
                                                           int closed, PROX_REAL *w, PROX_REAL *t,
                                                           int *zeros) {
  int s0, s1, s2, z0, z1, z2, pos, neg, path = 1;
  PROX_REAL det, num, can, s;
  /* w[i]: the edge opposite vertex i, so that w[i] / det is the
   * barycentric coordinate of vertex i. All three before deciding: one
   * data-dependent branch rather than three. */
  w[0] = PROX_FN(prox_detail_rc_edge)(rs, v[1], v[2], V[1], V[2], !closed, &s0, &z0);
  w[1] = PROX_FN(prox_detail_rc_edge)(rs, v[2], v[0], V[2], V[0], !closed, &s1, &z1);
  w[2] = PROX_FN(prox_detail_rc_edge)(rs, v[0], v[1], V[0], V[1], !closed, &s2, &z2);
  if (!closed && ((s0 == 0) | (s1 != s0) | (s2 != s0))) return 0;
  pos = s0 > 0 || s1 > 0 || s2 > 0;
  neg = s0 < 0 || s1 < 0 || s2 < 0;
  if (pos == neg) return 0; /* mixed signs, or all zero (closed) */
  *zeros = (z0 & 1) | ((z1 & 1) << 1) | ((z2 & 1) << 2);
  det = w[0] + w[1] + w[2];
  if (det == 0 && (*zeros == 3 || *zeros == 5 || *zeros == 6)) {
    /* Through a vertex exactly (two weights exactly zero), its weight
     * below its rounding: t is the vertex's own, and the weight that of
     * the sign of the exact ones (the sign of t follows from it). */
    int k = *zeros == 6 ? 0 : (*zeros == 5 ? 1 : 2);
    w[0] = w[1] = w[2] = 0;
    w[k] = pos ? PROX_R(1.0) : PROX_R(-1.0);
    *t = V[k].z;
    return 1;
  }
  /* Weights within their rounding can be off by all of their value, and
   * t with them by as much as the triangle's depth along the ray; so can
   * the two others of a weight made exactly zero (through an edge), which
   * do not match the rounded vertices' own third weight (a needle): the
   * plane's t. Else the quotient under the fast path's conditions
   * (prox_raycast_triangle, the same operations). */
  s = pos ? PROX_R(1.0) : PROX_R(-1.0);
  if (((z0 | z1 | z2) & 2) || *zeros == 1 || *zeros == 2 || *zeros == 4) {
    if (det == 0) w[0] = w[1] = w[2] = s / PROX_R(3.0);
    *t = PROX_FN(prox_detail_rc_tri_t_safe)(rs->o, rs->d, v, s);
    return *t == *t ? 2 : 0;
  }
#if !PROX_IS_DOUBLE
  if ((z0 | z1 | z2) & 4) {
    /* t's sign settled there: *path 2 (no other test of it). */
    *t = prox_detail_rc_tri_t_doublef(rs->o, rs->d, v, w, *zeros, s);
    return 2;
  }
#endif
  num = w[0] * V[0].z + w[1] * V[1].z + w[2] * V[2].z;
  *t = num / det;
  /* The cancellation of the weights, those exactly zero left out (they
   * are exact). */
  can = (z0 ? 0 : PROX_FABS(V[1].x * V[2].y) + PROX_FABS(V[1].y * V[2].x)) +
        (z1 ? 0 : PROX_FABS(V[2].x * V[0].y) + PROX_FABS(V[2].y * V[0].x)) +
        (z2 ? 0 : PROX_FABS(V[0].x * V[1].y) + PROX_FABS(V[0].y * V[1].x));
  if (!(PROX_FABS(num) >= PROX_DETAIL_RC_QMIN) | !(PROX_FABS(det) >= PROX_DETAIL_RC_QMIN) |
      !(PROX_FABS(*t) < PROX_INF) | (can > PROX_R(PROX_DETAIL_RC_RMAX) * PROX_FABS(det)))
    *t = PROX_FN(prox_detail_rc_tri_t_hard)(rs, v, V, w, num, det, *t, s,
                                            (z0 == 0) | (z1 == 0) << 1 | (z2 == 0) << 2, &path);
  return *t == *t ? path : 0;
}

/// Internal: the unit normal of a triangle whose normal from unit edges
/// came out zero (a needle whose rounded edges are parallel): from
/// prox_detail_rc_wnormal (double-double).
PROX_DETAIL_COLD_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_detail_rc_tri_normal_wide)(const PROX_FN(prox_vec3) * v) {
  double a[3], b[3], c[3];
  prox_detail_wide n[3];
  a[0] = (double)v[0].x, a[1] = (double)v[0].y, a[2] = (double)v[0].z;
  b[0] = (double)v[1].x, b[1] = (double)v[1].y, b[2] = (double)v[1].z;
  c[0] = (double)v[2].x, c[1] = (double)v[2].y, c[2] = (double)v[2].z;
  (void)prox_detail_rc_wnormal(a, b, c, n);
  return PROX_FN(prox_detail_rc_unit)(PROX_FN(prox_v3)((PROX_REAL)prox_detail_wreal(n[0]),
                                                       (PROX_REAL)prox_detail_wreal(n[1]),
                                                       (PROX_REAL)prox_detail_wreal(n[2])));
}

/// Internal: the unit normal (v1 - v0) x (v2 - v0) of a triangle, from
/// edges scaled to avoid overflow and underflow (zero for a triangle of
/// zero area, exactly). Float: first in double, where no product of float
/// differences overflows or underflows: the edges' differences and every
/// product round once in double (relative 2^-53), so where |n| exceeds
/// 1e-6 |e1| |e2| the unit vector is within 1e-9 of itself before its
/// rounding to float; thinner triangles (zero-area ones among them) take
/// the scaled float path below.
PROX_DETAIL_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_detail_rc_tri_normal)(const PROX_FN(prox_vec3) * v) {
#if !PROX_IS_DOUBLE
  {
    double ax = (double)v[1].x - (double)v[0].x, ay = (double)v[1].y - (double)v[0].y,
           az = (double)v[1].z - (double)v[0].z, bx = (double)v[2].x - (double)v[0].x,
           by = (double)v[2].y - (double)v[0].y, bz = (double)v[2].z - (double)v[0].z;
    double nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
    double q = nx * nx + ny * ny + nz * nz;
    if (q > 1e-12 * ((ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz))) {
      double r = 1 / sqrt(q);
      return PROX_FN(prox_v3)((PROX_REAL)(nx * r), (PROX_REAL)(ny * r), (PROX_REAL)(nz * r));
    }
  }
#endif
  PROX_FN(prox_vec3) e1 = PROX_FN(prox_vsub)(v[1], v[0]);
  PROX_FN(prox_vec3) e2 = PROX_FN(prox_vsub)(v[2], v[0]);
  PROX_FN(prox_vec3)
  n = PROX_FN(prox_vcross_acc)(PROX_FN(prox_detail_rc_unit)(e1), PROX_FN(prox_detail_rc_unit)(e2));
  if (n.x == 0 && n.y == 0 && n.z == 0) return PROX_FN(prox_detail_rc_tri_normal_wide)(v);
  return PROX_FN(prox_detail_rc_unit)(n);
}

/// Internal: the careful path of prox_raycast_triangle, for the rare ray
/// whose edge signs the fast test leaves open: the ray space again (the
/// same values), exact signs and the tie rule (prox_detail_rc_rs_triangle,
/// open triangle). Out of line, so that the fast path keeps its values in
/// registers.
PROX_DETAIL_COLD_KERNEL int PROX_FN(prox_detail_rc_tri_careful)(const PROX_FN(prox_ray) * ray,
                                                                const PROX_FN(prox_triangle) * tri,
                                                                PROX_REAL *w, PROX_REAL *t,
                                                                int *zeros) {
  PROX_FN(prox_detail_rayspace) rs;
  PROX_FN(prox_detail_rsvert) V[3];
  int i;
  PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &rs);
  for (i = 0; i < 3; ++i)
    V[i] = PROX_FN(prox_detail_rc_rsvert)(&rs, tri->v[i]);
  return PROX_FN(prox_detail_rc_rs_triangle)(&rs, tri->v, V, 0, w, t, zeros);
}

/// Internal: whether the numerator num = w0 Z0 + w1 Z1 + w2 Z2 of a hit's t
/// may have the wrong sign: its forward error is at most the weights'
/// bounds b_k (48 eps m m) times |Z_k|, plus 4 eps |w_k Z_k| for the
/// rounding of Z_k (translation, 1/dz, product) and of the sums; doubled.
/// Out of line: the caller reaches it only for vertices on both sides of
/// the origin along the ray.
PROX_DETAIL_COLD_KERNEL int PROX_FN(prox_detail_rc_t_near0)(PROX_REAL w0, PROX_REAL w1,
                                                            PROX_REAL w2, PROX_REAL b0,
                                                            PROX_REAL b1, PROX_REAL b2,
                                                            PROX_REAL z0, PROX_REAL z1,
                                                            PROX_REAL z2, PROX_REAL num) {
  PROX_REAL e = (b0 + PROX_R(4.0) * PROX_EPS * PROX_FABS(w0)) * PROX_FABS(z0) +
                (b1 + PROX_R(4.0) * PROX_EPS * PROX_FABS(w1)) * PROX_FABS(z1) +
                (b2 + PROX_R(4.0) * PROX_EPS * PROX_FABS(w2)) * PROX_FABS(z2);
  return PROX_FABS(num) <= PROX_R(2.0) * e;
}

PROX_KERNEL int PROX_FN(prox_raycast_triangle)(const PROX_FN(prox_ray) * ray,
                                               const PROX_FN(prox_triangle) * tri,
                                               PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_detail_rayspace) rs;
  PROX_FN(prox_detail_rsvert) A, B, C;
  PROX_REAL w[3], p0, q0, p1, q1, p2, q2, b0, b1, b2, t;
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  int zeros = 0, pos, neg, path = 1;
  if (!PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &rs))
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  A = PROX_FN(prox_detail_rc_rsvert)(&rs, tri->v[0]);
  B = PROX_FN(prox_detail_rc_rsvert)(&rs, tri->v[1]);
  C = PROX_FN(prox_detail_rc_rsvert)(&rs, tri->v[2]);
  /* The three edge functions and their error bounds, exactly as
   * prox_detail_rc_edge computes them (w[k]: the edge opposite vertex k),
   * written out: a loop over an array of vertices leaves gcc's vectoriser
   * packing and unpacking them through memory. */
  p0 = B.x * C.y;
  q0 = B.y * C.x;
  p1 = C.x * A.y;
  q1 = C.y * A.x;
  p2 = A.x * B.y;
  q2 = A.y * B.x;
  w[0] = p0 - q0;
  w[1] = p1 - q1;
  w[2] = p2 - q2;
  b0 = PROX_R(48.0) * PROX_EPS * (B.m * C.m) + PROX_DETAIL_RC_BMIN;
  b1 = PROX_R(48.0) * PROX_EPS * (C.m * A.m) + PROX_DETAIL_RC_BMIN;
  b2 = PROX_R(48.0) * PROX_EPS * (A.m * B.m) + PROX_DETAIL_RC_BMIN;
  /* Signs certified by the bounds (a NaN certifies nothing). Two
   * certainly of opposite signs: a miss whatever the third's exact sign
   * (the common miss, one branch). All three certainly of one sign: the
   * line crosses the triangle's inside, and prox_detail_rc_rs_triangle
   * would return these weights and t unchanged. Else (rare) the careful
   * path with exact signs and the tie rule. */
  pos = (w[0] > b0) + (w[1] > b1) + (w[2] > b2);
  neg = (w[0] < -b0) + (w[1] < -b1) + (w[2] < -b2);
  if ((pos != 0) & (neg != 0)) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if ((pos == 3) | (neg == 3)) {
    PROX_REAL num = w[0] * A.z + w[1] * B.z + w[2] * C.z, det = w[0] + w[1] + w[2];
    PROX_REAL can = (PROX_FABS(p0) + PROX_FABS(q0)) + (PROX_FABS(p1) + PROX_FABS(q1)) +
                    (PROX_FABS(p2) + PROX_FABS(q2));
    t = num / det;
    /* Certified weights give t to its bound (their errors from the
     * vertices' rounding move t by at most the plane's slope times that
     * rounding), unless the products cancel much in them (can / |det| the
     * ratio: needles and caps, where an edge passes close to the ray
     * between far endpoints), or the quotient overflowed or its terms fell
     * below the normal range (near the ends of the domain). Those, out of
     * line: compensated weights, or the plane's t with its exact sign. */
    if (!(PROX_FABS(num) >= PROX_DETAIL_RC_QMIN) | !(PROX_FABS(det) >= PROX_DETAIL_RC_QMIN) |
        !(PROX_FABS(t) < PROX_INF) | (can > PROX_R(PROX_DETAIL_RC_RMAX) * PROX_FABS(det)))
      t = PROX_FN(prox_detail_rc_tri_t_hard_ray)(ray, tri, w, num, det, t,
                                                 pos == 3 ? PROX_R(1.0) : PROX_R(-1.0), &path);
  } else {
    path = PROX_FN(prox_detail_rc_tri_careful)(ray, tri, w, &t, &zeros);
    if (!path) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  }
  /* A hit near the origin: the rounded t may have the wrong sign (an
   * origin on the triangle gives t = -1e-16 as often as +1e-16), and the
   * test against tmin = 0 would then lose rays that start on the surface.
   * The sign is decided exactly where the rounding leaves it open. Where
   * the three vertices lie strictly on one side of the origin along the
   * ray (ray-space z, whose signs are exact), t is a quotient of sums of
   * terms of one sign and has the right one: the common case, no bound. */
  if (path == 1 && (A.z > 0) + (B.z > 0) + (C.z > 0) != 3 &&
      (A.z < 0) + (B.z < 0) + (C.z < 0) != 3 &&
      PROX_FN(prox_detail_rc_t_near0)(w[0], w[1], w[2], b0, b1, b2, A.z, B.z, C.z,
                                      t * (w[0] + w[1] + w[2])))
    t = PROX_FN(prox_detail_rc_tri_t_sign)(ray->origin, tri->v, t, w[0] + w[1] + w[2]);
  /* t must be finite (a tiny direction can push it beyond the largest
   * real). */
  if (!(t >= ray->tmin && t <= tmax) || !(PROX_FABS(t) < PROX_INF))
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (PROX_FN(prox_detail_rc_ray_ok)(ray) == 0 || PROX_FN(prox_vpoison)(tri->v[0]) +
                                                          PROX_FN(prox_vpoison)(tri->v[1]) +
                                                          PROX_FN(prox_vpoison)(tri->v[2]) !=
                                                      0)
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (out) {
    PROX_REAL det = w[0] + w[1] + w[2];
    int kind = PROX_FEATURE_FACE, index = 0;
    if (zeros == 3 || zeros == 5 || zeros == 6) {
      kind = PROX_FEATURE_VERTEX;
      index = zeros == 6 ? 0 : (zeros == 5 ? 1 : 2);
    } else if (zeros) {
      /* Weight of vertex k zero: on edge (k + 1) % 3. */
      kind = PROX_FEATURE_EDGE;
      index = zeros == 1 ? 1 : (zeros == 2 ? 2 : 0);
    }
    PROX_FN(prox_detail_rc_rayhit_set)
    (out, t, t, 0, PROX_FN(prox_vmadd)(ray->origin, t, ray->dir),
     PROX_FN(prox_detail_rc_tri_normal)(tri->v), kind, index);
    out->bary[0] = w[0] / det;
    out->bary[1] = w[1] / det;
    out->bary[2] = w[2] / det;
  }
  return 1;
}

/// Internal: tetrahedron edge index of the vertex pair (i, j), as
/// prox_point_tetrahedron numbers edges.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_rc_tet_edge)(int i, int j) {
  int lo = i < j ? i : j, hi = i < j ? j : i;
  return lo == 0 ? hi - 1 : (lo == 1 ? hi + 1 : 5);
}

PROX_KERNEL int PROX_FN(prox_raycast_tetrahedron)(const PROX_FN(prox_ray) * ray,
                                                  const PROX_FN(prox_tetrahedron) * tet,
                                                  PROX_FN(prox_rayhit) * out) {
  PROX_FN(prox_detail_rayspace) rs;
  PROX_FN(prox_detail_rsvert) V[4];
  PROX_REAL tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray), en = PROX_INF, ex = -PROX_INF,
            exslack = 0, wen[3] = {0, 0, 0}, t, tx;
  PROX_REAL ft[4] = {0, 0, 0, 0}, fw[4][3], fscore[4] = {0, 0, 0, 0};
  int i, f, fen = -1, fex = -1, zen = 0, inside = 0, flat = 0, hit, vsign;
  int fhit[4], fz[4] = {0, 0, 0, 0}, ffront[4] = {0, 0, 0, 0};
  const PROX_FN(prox_vec3) *v = tet->v;
  if (!PROX_FN(prox_detail_rc_ray_ok)(ray) ||
      PROX_FN(prox_vpoison)(v[0]) + PROX_FN(prox_vpoison)(v[1]) + PROX_FN(prox_vpoison)(v[2]) +
              PROX_FN(prox_vpoison)(v[3]) !=
          0)
    return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (!PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &rs)) {
    if (PROX_FN(prox_point_tetrahedron)(ray->origin, tet, 0) > 0)
      return PROX_FN(prox_detail_rc_rayhit_miss)(out);
    return PROX_FN(prox_detail_rc_rayhit_set)(out, ray->tmin, tmax, 1, ray->origin,
                                              PROX_FN(prox_v3)(0, 0, 0), PROX_FEATURE_INTERIOR, 0);
  }
  for (i = 0; i < 4; ++i)
    V[i] = PROX_FN(prox_detail_rc_rsvert)(&rs, v[i]);
  {
    /* Flat (zero volume, exactly): the faces' union, no inside. Else the
     * sign of the volume orients the faces. */
    double a[3], b[3], c[3], d[3];
    PROX_REAL err, vol = PROX_FN(prox_detail_orient)(v[0], v[1], v[2], v[3], &err);
    /* The filter, unless underflow may have spoilt it (as in overlap.inl);
     * else the exact sign. */
    if (!(PROX_FABS(vol) > err) || err < PROX_REAL_MIN / (PROX_EPS * PROX_EPS)) {
      a[0] = (double)v[0].x, a[1] = (double)v[0].y, a[2] = (double)v[0].z;
      b[0] = (double)v[1].x, b[1] = (double)v[1].y, b[2] = (double)v[1].z;
      c[0] = (double)v[2].x, c[1] = (double)v[2].y, c[2] = (double)v[2].z;
      d[0] = (double)v[3].x, d[1] = (double)v[3].y, d[2] = (double)v[3].z;
      vsign = prox_detail_xp_orient3d_exact(a, b, c, d);
    } else {
      vsign = vol > 0 ? 1 : -1;
    }
    flat = vsign == 0;
  }
  for (f = 0; f < 4; ++f) {
    /* Face f: the other three vertices in increasing order. */
    int f0 = f == 0 ? 1 : 0, f1 = f <= 1 ? 2 : 1, f2 = f <= 2 ? 3 : 2;
    PROX_FN(prox_vec3) fv[3];
    PROX_FN(prox_detail_rsvert) FV[3];
    fv[0] = v[f0];
    fv[1] = v[f1];
    fv[2] = v[f2];
    FV[0] = V[f0];
    FV[1] = V[f1];
    FV[2] = V[f2];
    fhit[f] = PROX_FN(prox_detail_rc_rs_triangle)(&rs, fv, FV, 1, fw[f], &ft[f], &fz[f]);
    if (!fhit[f]) continue;
    if (fen < 0 || ft[f] < en) {
      en = ft[f];
      fen = f;
    }
    if (fex < 0 || ft[f] > ex) {
      ex = ft[f];
      fex = f;
    }
    if (!flat) {
      /* The outward normal is (-1)^f sign(vol) (f1 - f0) x (f2 - f0), and
       * its dot with d has the sign of the ray-space weights' sum: front
       * faces (entry) have them of opposite signs. */
      PROX_REAL det = fw[f][0] + fw[f][1] + fw[f][2];
      ffront[f] = (f & 1 ? -vsign : vsign) * (det > 0 ? 1 : -1) < 0;
      /* Scored only where a tie is broken (below): the |cos| of incidence
       * times |d| (common to all faces), from the unit normal. Not from
       * the weights: those of a face the line grazes are set to 1/3 each,
       * whose sum is not its cosine (that score, of degree -2 in the
       * coordinates, made the grazed face win below some scale). */
      if (fz[f])
        fscore[f] = PROX_FABS(PROX_FN(prox_vdot)(PROX_FN(prox_detail_rc_tri_normal)(fv), ray->dir));
    }
  }
  if (fen < 0) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (!flat) {
    /* Entering or leaving through an edge or vertex, several faces hit
     * at the same point: t from the best-conditioned of the faces of the
     * right facing that meet there (exact zero weights), kept within
     * [first, last] so that entry <= exit stays. */
    int be = fen, bx = fex;
    for (f = 0; f < 4; ++f) {
      if (!fhit[f] || !fz[f]) continue;
      if (ffront[f] && fz[fen] && fscore[f] > fscore[be]) be = f;
      if (!ffront[f] && fz[fex] && fscore[f] > fscore[bx]) bx = f;
    }
    if (be != fen && ft[be] <= ex) {
      en = ft[be];
      fen = be;
    }
    if (bx != fex && ft[bx] >= en) {
      ex = ft[bx];
      fex = bx;
    }
  }
  zen = fz[fen];
  wen[0] = fw[fen][0];
  wen[1] = fw[fen][1];
  wen[2] = fw[fen][2];
  if (flat) ex = en;
  /* The slack of a start on the surface: 8 eps S along the exit face's
   * normal, in units of t. */
  if (ex < ray->tmin) {
    int g0 = fex == 0 ? 1 : 0, g1 = fex <= 1 ? 2 : 1, g2 = fex <= 2 ? 3 : 2;
    PROX_FN(prox_vec3) gv[3];
    PROX_REAL dn, S = 0;
    gv[0] = v[g0];
    gv[1] = v[g1];
    gv[2] = v[g2];
    dn = PROX_FABS(PROX_FN(prox_vdot)(PROX_FN(prox_detail_rc_tri_normal)(gv), ray->dir));
    for (i = 0; i < 4; ++i)
      S = V[i].m > S ? V[i].m : S;
    exslack = PROX_R(8.0) * PROX_EPS * S / dn;
    if (ex >= ray->tmin - exslack) ex = ray->tmin;
  }
  hit = PROX_FN(prox_detail_rc_solid_clip)(en, ex, ray->tmin, tmax, &t, &tx, &inside);
  if (!hit) return PROX_FN(prox_detail_rc_rayhit_miss)(out);
  if (flat) inside = 0, tx = t;
  if (!out) return 1;
  if (inside)
    return PROX_FN(prox_detail_rc_rayhit_set)(
        out, t, tx, 1, t == 0 ? ray->origin : PROX_FN(prox_vmadd)(ray->origin, t, ray->dir),
        PROX_FN(prox_v3)(0, 0, 0), PROX_FEATURE_INTERIOR, 0);
  {
    int f0 = fen == 0 ? 1 : 0, f1 = fen <= 1 ? 2 : 1, f2 = fen <= 2 ? 3 : 2;
    int fv[3], kind = PROX_FEATURE_FACE, index = fen;
    PROX_FN(prox_vec3) gv[3], n;
    PROX_REAL det = wen[0] + wen[1] + wen[2];
    fv[0] = f0;
    fv[1] = f1;
    fv[2] = f2;
    gv[0] = v[f0];
    gv[1] = v[f1];
    gv[2] = v[f2];
    n = PROX_FN(prox_detail_rc_tri_normal)(gv);
    /* Outward: away from the opposite vertex. */
    if (PROX_FN(prox_vdot)(n, PROX_FN(prox_vsub)(v[fen], v[f0])) > 0) n = PROX_FN(prox_vneg)(n);
    if (zen == 3 || zen == 5 || zen == 6) {
      kind = PROX_FEATURE_VERTEX;
      index = fv[zen == 6 ? 0 : (zen == 5 ? 1 : 2)];
    } else if (zen) {
      int k = zen == 1 ? 0 : (zen == 2 ? 1 : 2);
      kind = PROX_FEATURE_EDGE;
      index = PROX_FN(prox_detail_rc_tet_edge)(fv[k == 0 ? 1 : 0], fv[k == 2 ? 1 : 2]);
    }
    PROX_FN(prox_detail_rc_rayhit_set)
    (out, t, tx, 0, PROX_FN(prox_vmadd)(ray->origin, t, ray->dir), n, kind, index);
    out->bary[0] = wen[0] / det;
    out->bary[1] = wen[1] / det;
    out->bary[2] = wen[2] / det;
  }
  return 1;
}
