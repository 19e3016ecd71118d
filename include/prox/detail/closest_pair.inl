/* SPDX-License-Identifier: MIT */
/* Template: closest points between two primitives (K2). Instantiated once
 * per precision by closest.h, after closest_point.inl (whose point queries
 * it builds on). closest.h declares the documented kernels with their
 * contracts; this file holds their definitions.
 *
 * Accuracy. The closest pair of two linear sets (line, ray, segment) is the
 * minimum of a convex quadratic f(s, t) = |p(s) - q(t)|^2 over a parameter
 * box. When the directions are far from parallel (sin^2 of their angle above
 * PROX_WIDE_SIN2), the clamped critical point (Ericson 5.1.9) is
 * accurate and the distance is measured as |r|^2 with the residual
 * r = (base1 - base2) + s d1 - t d2 formed from exact base points (an
 * origin, or an exact end point), which rounds less than the difference of
 * the two rounded points; for lines and rays (whose points reach farther
 * out) it is formed in wide arithmetic, for float kernels in double, and
 * rounded once. Otherwise f is nearly flat along the common
 * direction, the 2x2
 * system is ill-conditioned, and the minimum is taken over the box boundary
 * (an end point of one set against the other set: a K1 point query, accurate
 * to rounding) and the critical point solved in wide arithmetic
 * (detail/exact.inl), whose distance is the exact-to-rounding distance of the
 * two supporting lines ((o2 - o1) . n)^2 / |n|^2, n = d1 x d2. Below
 * PROX_FLAT_SIN2 the directions count as parallel: the boundary minimum
 * is then within sin^2 * length^2 of the true one, far below rounding. A
 * critical point far from the inputs (unbounded rays and lines) also uses
 * the wide line distance, since points there carry large rounding.
 *
 * Triangles: intersections are decided by the signs of orientation
 * determinants, evaluated with a floating-point filter and re-evaluated in
 * wide arithmetic when the filter fails; a sign that stays uncertain means
 * the configuration is within rounding of touching, and the distance is then
 * taken from the minimum over vertex-triangle and edge-edge pairs, which is
 * within rounding of 0 there. */

/// Result of a closest-pair query between two primitives: the closest point
/// on each, their squared distance, parameters and features. Index 0 is the
/// first argument of the query, index 1 the second.
typedef struct PROX_FN(prox_pair) {
  PROX_FN(prox_vec3) point[2]; ///< closest point on each object
  PROX_REAL sqdist;            ///< squared distance (as returned)
  /// Parameters of each closest point: for a line, ray, segment or capsule,
  /// param[k][0] is its t (the rest 0); for a triangle, its barycentric
  /// coordinates; for a sphere, all 0.
  PROX_REAL param[2][3];
  prox_feature feature[2]; ///< feature of each object holding its point
} PROX_FN(prox_pair);

/* PROX_WIDE_SIN2 (detail/real_double.h, real_float.h): sin^2 of the angle
 * between two directions below which the plain 2x2 solve gives way to wide
 * arithmetic (its error in f grows like eps^2 / sin^2); PROX_FLAT_SIN2:
 * below it two directions count as parallel when one of the sets is
 * bounded (the boundary minimum is then off by at most sin^2 length^2). */

/* |d1|^2 |d2|^2 below which the 2x2 system would be formed from
 * subnormal numbers (the plain path then loses all accuracy). */
#define PROX_PAIR_TINY (PROX_REAL_MIN / PROX_EPS)

/* ---- internal helpers (not part of the documented API) ---- */

/* PROX_PAIR_PAR_KERNEL qualifies prox_detail_pair_seg_par, the branch-free
 * parallel case of segment-segment: inlined into its caller with GCC, which
 * then runs it fastest (bench_pairs, half parallel, cached: 0.93 double and
 * 1.08 float against 1.05 and 1.17 out of line), and left to the inliner
 * with clang, which then keeps it out of line: inlined, clang's general
 * path ran 14-15 instructions more per query and 3-5% slower, and its
 * parallel path no faster. */
#ifndef PROX_PAIR_PAR_KERNEL
#if defined(__clang__)
#define PROX_PAIR_PAR_KERNEL PROX_DETAIL_KERNEL
#else
#define PROX_PAIR_PAR_KERNEL PROX_DETAIL_SMALL_KERNEL
#endif
#endif

/// Internal: a linear set {o + t d : lo <= t <= hi} (bounds may be
/// infinite); end, if not NULL, is the exact point at t = hi (a segment's b).
typedef struct PROX_FN(prox_detail_pair_lin) {
  PROX_FN(prox_vec3) o, d;
  PROX_REAL lo, hi;
  const PROX_FN(prox_vec3) * end;
} PROX_FN(prox_detail_pair_lin);

/// Internal: the all-NaN result of a pair query with non-finite input.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_nan)(PROX_FN(prox_pair) * out) {
  PROX_REAL n = PROX_NAN;
  int k, i;
  if (out) {
    for (k = 0; k < 2; ++k) {
      out->point[k] = PROX_FN(prox_v3)(n, n, n);
      for (i = 0; i < 3; ++i)
        out->param[k][i] = n;
      out->feature[k].kind = PROX_FEATURE_NONE;
      out->feature[k].index = 0;
    }
    out->sqdist = n;
  }
  return n;
}

/// Internal: sets side k of *out (not NULL): point, parameters, feature.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_pair_side)(PROX_FN(prox_pair) * out, int k,
                                                       PROX_FN(prox_vec3) p, PROX_REAL p0,
                                                       PROX_REAL p1, PROX_REAL p2, int kind,
                                                       int index) {
  out->point[k] = p;
  out->param[k][0] = p0;
  out->param[k][1] = p1;
  out->param[k][2] = p2;
  out->feature[k].kind = kind;
  out->feature[k].index = index;
}

/// Internal: the feature of a linear set's point from its end code (0: at
/// lo, 1: at hi, -1: inside, 2: the set is a single point).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_kind)(int end) {
  return end < 0 ? PROX_FEATURE_EDGE : PROX_FEATURE_VERTEX;
}

/// Internal: sets the result of a linear-linear query from parameters and
/// end codes (see prox_detail_pair_kind) and returns d2.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_lin_set)(PROX_FN(prox_pair) * out,
                                                               PROX_FN(prox_vec3) p,
                                                               PROX_FN(prox_vec3) q, PROX_REAL d2,
                                                               PROX_REAL s, PROX_REAL t, int es,
                                                               int et) {
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_pair_nan)(out);
  if (out) {
    PROX_FN(prox_detail_pair_side)
    (out, 0, p, s, 0, 0, PROX_FN(prox_detail_pair_kind)(es), es == 1);
    PROX_FN(prox_detail_pair_side)
    (out, 1, q, t, 0, 0, PROX_FN(prox_detail_pair_kind)(et), et == 1);
    out->sqdist = d2;
  }
  return d2;
}

/// Internal: the point of a linear set at parameter t with end code e
/// (at lo exactly o when lo = 0, at hi exactly *end when given).
PROX_DETAIL_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_detail_pair_at)(const PROX_FN(prox_detail_pair_lin) * L, PROX_REAL t, int e) {
  if (e == 0 && L->lo == 0) return L->o;
  if (e == 1 && L->end) return *L->end;
  return PROX_FN(prox_vmadd)(L->o, t, L->d);
}

/// Internal: |(pa + s u) - (pb + t v)|^2 formed from the residual, which
/// rounds less than the difference of the two points: pa and pb are exact
/// base points (an origin, or an exact end point with s or t = 0). For
/// float the residual is formed in double, with one rounding at the end.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_res2)(PROX_FN(prox_vec3) pa, PROX_REAL s,
                                                            PROX_FN(prox_vec3) u,
                                                            PROX_FN(prox_vec3) pb, PROX_REAL t,
                                                            PROX_FN(prox_vec3) v) {
#if PROX_IS_DOUBLE
  PROX_FN(prox_vec3) r = PROX_FN(prox_vsub)(pa, pb);
  if (s != 0) r = PROX_FN(prox_vmadd)(r, s, u);
  if (t != 0) r = PROX_FN(prox_vmadd)(r, -t, v);
  return PROX_FN(prox_vlen2)(r);
#else
  double ds = (double)s, dt = (double)t;
  double rx = ((double)pa.x - (double)pb.x) + ds * u.x - dt * v.x;
  double ry = ((double)pa.y - (double)pb.y) + ds * u.y - dt * v.y;
  double rz = ((double)pa.z - (double)pb.z) + ds * u.z - dt * v.z;
  return (float)(rx * rx + ry * ry + rz * rz);
#endif
}

/// Internal: the same in wide arithmetic (one rounding at the end), for the
/// general linear pairs: lines and rays reach farther from their origins
/// than segments, and their distances are larger against S.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_res2w)(PROX_FN(prox_vec3) pa, PROX_REAL s,
                                                             PROX_FN(prox_vec3) u,
                                                             PROX_FN(prox_vec3) pb, PROX_REAL t,
                                                             PROX_FN(prox_vec3) v) {
#if PROX_IS_DOUBLE
  PROX_FN(prox_detail_wvec3) r = PROX_FN(prox_detail_wvdiff)(pa, pb);
  if (s != 0) {
    prox_detail_wide S = prox_detail_wfrom(s);
    r.x = prox_detail_wadd(r.x, prox_detail_wmul(S, prox_detail_wfrom(u.x)));
    r.y = prox_detail_wadd(r.y, prox_detail_wmul(S, prox_detail_wfrom(u.y)));
    r.z = prox_detail_wadd(r.z, prox_detail_wmul(S, prox_detail_wfrom(u.z)));
  }
  if (t != 0) {
    prox_detail_wide T = prox_detail_wfrom(-t);
    r.x = prox_detail_wadd(r.x, prox_detail_wmul(T, prox_detail_wfrom(v.x)));
    r.y = prox_detail_wadd(r.y, prox_detail_wmul(T, prox_detail_wfrom(v.y)));
    r.z = prox_detail_wadd(r.z, prox_detail_wmul(T, prox_detail_wfrom(v.z)));
  }
  return prox_detail_wreal(prox_detail_wvdot(r, r));
#else
  return PROX_FN(prox_detail_pair_res2)(pa, s, u, pb, t, v);
#endif
}

/// Internal: the squared distance of A's point (parameter s, end code es)
/// and B's point (t, et), from the residual on exact base points: an end
/// point that is an input (a segment's ends, a ray's origin at tmin = 0),
/// else the origin plus the parameter times the direction (a computed end
/// point such as origin + tmax dir carries its own rounding).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_d2)(const PROX_FN(prox_detail_pair_lin) * A,
                                                          PROX_REAL s, int es,
                                                          const PROX_FN(prox_detail_pair_lin) * B,
                                                          PROX_REAL t, int et) {
  PROX_FN(prox_vec3) pa = A->o, pb = B->o;
  if (es == 1 && A->end) {
    pa = *A->end;
    s = 0;
  } else if (es == 0 && A->lo == 0) {
    s = 0;
  }
  if (et == 1 && B->end) {
    pb = *B->end;
    t = 0;
  } else if (et == 0 && B->lo == 0) {
    t = 0;
  }
  /* Two segments stay within the inputs' box: the plain residual is
   * enough there (and the wide one costs much in the parallel case). */
  if (A->end && B->end) return PROX_FN(prox_detail_pair_res2)(pa, s, A->d, pb, t, B->d);
  return PROX_FN(prox_detail_pair_res2w)(pa, s, A->d, pb, t, B->d);
}

/// Internal: 1 when a linear set is a single point (zero direction, or an
/// empty or one-point interval); then *p and *t get it and its parameter.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_single)(const PROX_FN(prox_detail_pair_lin) * L,
                                                        PROX_FN(prox_vec3) * p, PROX_REAL *t) {
  if (PROX_FN(prox_vlen2)(L->d) == 0) {
    *p = L->o;
    *t = PROX_FN(prox_clamp)(0, L->lo, L->hi);
    return 1;
  }
  if (!(L->lo < L->hi)) {
    *t = L->lo;
    *p = L->lo == 0 ? L->o : PROX_FN(prox_vmadd)(L->o, L->lo, L->d);
    return 1;
  }
  return 0;
}

/// Internal: the exact direction of a linear set in wide arithmetic.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wvec3)
    PROX_FN(prox_detail_pair_wdir)(const PROX_FN(prox_detail_pair_lin) * L) {
  /* A segment's b - a is formed exactly; other directions are inputs. */
  if (L->end && L->hi == 1) return PROX_FN(prox_detail_wvdiff)(*L->end, L->o);
  return PROX_FN(prox_detail_wvfrom)(L->d);
}

/// Internal: x 2^e in PROX_REAL (exact unless the result leaves the range).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_ldexp)(PROX_REAL x, int e) {
  return (PROX_REAL)ldexp((double)x, e);
}

/// Internal: the critical point (s, t) of |A(s) - B(t)|^2 over the two
/// supporting lines and their squared distance, in wide arithmetic. Returns
/// 0 (and sets nothing) when the directions count as parallel: |d1 x d2|^2
/// <= sin2 |d1|^2 |d2|^2 (sin2 = 0: exactly parallel, or a zero direction).
/// The directions and the origins' difference are each scaled by a power of
/// two to magnitude about 1 first, which changes no rounding (the results
/// are scaled back exactly): the products of up to six coordinates, and the
/// parallel test, then neither overflow nor underflow at any input scale.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_wide)(const PROX_FN(prox_detail_pair_lin) * A,
                                                      const PROX_FN(prox_detail_pair_lin) * B,
                                                      PROX_REAL sin2, PROX_REAL *s, PROX_REAL *t,
                                                      PROX_REAL *d2) {
  PROX_FN(prox_detail_wvec3) U = PROX_FN(prox_detail_pair_wdir)(A);
  PROX_FN(prox_detail_wvec3) V = PROX_FN(prox_detail_pair_wdir)(B);
  PROX_FN(prox_detail_wvec3) W = PROX_FN(prox_detail_wvdiff)(B->o, A->o), n;
  PROX_FN(prox_detail_wide) N2, Wn;
  int eu = PROX_FN(prox_detail_wvscale)(&U);
  int ev = PROX_FN(prox_detail_wvscale)(&V);
  int ew = PROX_FN(prox_detail_wvscale)(&W);
  double uu = PROX_FN(prox_detail_whi)(PROX_FN(prox_detail_wvdot)(U, U));
  double vv = PROX_FN(prox_detail_whi)(PROX_FN(prox_detail_wvdot)(V, V));
  n = PROX_FN(prox_detail_wvcross)(U, V);
  N2 = PROX_FN(prox_detail_wvdot)(n, n);
  if (!(PROX_FN(prox_detail_whi)(N2) > (double)sin2 * uu * vv)) return 0;
  /* At the critical point the residual A(s) - B(t) is parallel to n:
   * crossing it with V (with U) and dotting with n isolates s (t). With
   * W = o2 - o1: s = ((W x V) . n) / |n|^2, t = ((W x U) . n) / |n|^2.
   * For the unscaled inputs U 2^eu, V 2^ev, W 2^ew: s times 2^(ew - eu),
   * t times 2^(ew - ev), the squared distance (W . n)^2 / |n|^2 times
   * 2^(2 ew). */
  *s = PROX_FN(prox_detail_pair_ldexp)(
      PROX_FN(prox_detail_wratio)(PROX_FN(prox_detail_wvdot)(PROX_FN(prox_detail_wvcross)(W, V), n),
                                  N2),
      ew - eu);
  *t = PROX_FN(prox_detail_pair_ldexp)(
      PROX_FN(prox_detail_wratio)(PROX_FN(prox_detail_wvdot)(PROX_FN(prox_detail_wvcross)(W, U), n),
                                  N2),
      ew - ev);
  Wn = PROX_FN(prox_detail_wvdot)(W, n);
  *d2 = PROX_FN(prox_detail_pair_ldexp)(
      PROX_FN(prox_detail_wratio)(PROX_FN(prox_detail_wmul)(Wn, Wn), N2), 2 * ew);
  return 1;
}

/// Internal: a floating-point filter for the parallel test of
/// prox_detail_pair_wide: 1 when |N|^2, N = U x V, is certainly at most
/// tol / 2 (so that the wide |N|^2 <= tol there too), where u and v are the
/// exact directions U and V or their rounded differences (a segment's
/// b - a) and ac = (u . u) (v . v). Needs tol > 0 and ac > PROX_PAIR_TINY,
/// so that underflow is negligible against tol; 0 when unsure. A filter
/// only saves the wide test: the result is the same either way.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_flat)(PROX_FN(prox_vec3) u, PROX_FN(prox_vec3) v,
                                                      PROX_REAL ac, PROX_REAL tol) {
  /* With unit roundoff r (PROX_EPS / 2), u = U (1 + r1), v = V (1 + r2) and
   * the rounded products and differences, each component of n = u x v is
   * off by at most 3.01 r (|Uj Vk| + |Uk Vj|), whose squares sum to at most
   * 2 |U|^2 |V|^2. So |N|^2 <= 2 |n|^2 + 36.3 r^2 |U|^2 |V|^2 (to 1 + 5 r)
   * <= (4 n.n + 18.3 PROX_EPS^2 ac) / 2; the constant 32 covers the
   * rounding of the bound itself. */
  PROX_FN(prox_vec3) n = PROX_FN(prox_vcross)(u, v);
  return tol > 0 &&
         PROX_R(4.0) * PROX_FN(prox_vdot)(n, n) + PROX_R(32.0) * PROX_EPS * PROX_EPS * ac <= tol;
}

/// Internal: 1 when ac = (u . u) (v . v) is in the range where
/// prox_detail_pair_flat can be used: above PROX_PAIR_TINY and finite (an
/// overflow in the filter itself then only makes it unsure).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_flat_ok)(PROX_REAL ac) {
  return ac > PROX_PAIR_TINY && ac <= PROX_REAL_MAX;
}

/// Internal: 1 when both bounds of a linear set are finite.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_bounded)(const PROX_FN(prox_detail_pair_lin) * L) {
  return L->lo > -PROX_INF && L->hi < PROX_INF;
}

/// Internal: the ill-conditioned, degenerate and non-finite cases of
/// prox_detail_pair_lin_lin: the minimum over the parameter box boundary
/// and the wide critical point.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_lin_slow)(
    const PROX_FN(prox_detail_pair_lin) * A, const PROX_FN(prox_detail_pair_lin) * B,
    PROX_FN(prox_pair) * out) {
  PROX_FN(prox_vec3) p, q, bp, bq, x;
  PROX_REAL s, t, bs = 0, bt = 0, d2, best = PROX_INF, sin2, ab;
  int es, et, bes = 2, bet = 2, found = 0, k;
  PROX_REAL check = PROX_FN(prox_vpoison)(A->o) + PROX_FN(prox_vpoison)(A->d) +
                    PROX_FN(prox_vpoison)(B->o) + PROX_FN(prox_vpoison)(B->d);
  if (check != 0 || A->lo != A->lo || A->hi != A->hi || B->lo != B->lo || B->hi != B->hi)
    return PROX_FN(prox_detail_pair_nan)(out);
  bp = bq = A->o;
  /* Single points: a point query against the other set (K1). */
  if (PROX_FN(prox_detail_pair_single)(A, &p, &s)) {
    if (PROX_FN(prox_detail_pair_single)(B, &q, &t)) {
      return PROX_FN(prox_detail_pair_lin_set)(out, p, q, PROX_FN(prox_vdist2)(p, q), s, t, 2, 2);
    }
    d2 = PROX_FN(prox_detail_param_closest)(p, B->o, B->d, B->lo, B->hi, B->end, &q, &t, &et);
    d2 = PROX_FN(prox_detail_pair_d2)(A, s, 2, B, t, et);
    return PROX_FN(prox_detail_pair_lin_set)(out, p, q, d2, s, t, 2, et);
  }
  if (PROX_FN(prox_detail_pair_single)(B, &q, &t)) {
    d2 = PROX_FN(prox_detail_param_closest)(q, A->o, A->d, A->lo, A->hi, A->end, &p, &s, &es);
    d2 = PROX_FN(prox_detail_pair_d2)(A, s, es, B, t, 2);
    return PROX_FN(prox_detail_pair_lin_set)(out, p, q, d2, s, t, es, 2);
  }
  /* The box boundary: each finite end of one set against the other set, in
   * a fixed order (first strict minimum wins, so the answer for parallel
   * overlapping sets is deterministic). */
  for (k = 0; k < 4; ++k) {
    const PROX_FN(prox_detail_pair_lin) *L = k < 2 ? A : B;
    const PROX_FN(prox_detail_pair_lin) *M = k < 2 ? B : A;
    PROX_REAL e = (k & 1) ? L->hi : L->lo, u;
    int eu;
    if (!(e > -PROX_INF && e < PROX_INF)) continue;
    x = PROX_FN(prox_detail_pair_at)(L, e, k & 1);
    d2 = PROX_FN(prox_detail_param_closest)(x, M->o, M->d, M->lo, M->hi, M->end, &q, &u, &eu);
    d2 = k < 2 ? PROX_FN(prox_detail_pair_d2)(A, e, k & 1, B, u, eu)
               : PROX_FN(prox_detail_pair_d2)(A, u, eu, B, e, k & 1);
    if (!found || d2 < best) {
      found = 1;
      best = d2;
      if (k < 2) {
        bp = x, bq = q, bs = e, bt = u, bes = k & 1, bet = eu;
      } else {
        bp = q, bq = x, bs = u, bt = e, bes = eu, bet = k & 1;
      }
    }
  }
  /* The critical point, if inside both intervals. When one set is bounded,
   * nearly parallel directions count as parallel (see the file comment);
   * two unbounded sets are parallel only when exactly so. */
  ab = PROX_FN(prox_vlen2)(A->d) * PROX_FN(prox_vlen2)(B->d);
  sin2 = (PROX_FN(prox_detail_pair_bounded)(A) || PROX_FN(prox_detail_pair_bounded)(B))
             ? PROX_FLAT_SIN2
             : 0;
  /* The wide test is skipped when a filter already shows it fails. */
  if (!(PROX_FN(prox_detail_pair_flat_ok)(ab) &&
        PROX_FN(prox_detail_pair_flat)(A->d, B->d, ab, sin2 * ab)) &&
      PROX_FN(prox_detail_pair_wide)(A, B, sin2, &s, &t, &d2) && s > A->lo && s < A->hi &&
      t > B->lo && t < B->hi && (!found || d2 < best)) {
    found = 1;
    best = d2;
    bp = PROX_FN(prox_vmadd)(A->o, s, A->d);
    bq = PROX_FN(prox_vmadd)(B->o, t, B->d);
    bs = s, bt = t, bes = -1, bet = -1;
  }
  if (!found) {
    /* Two parallel lines: any point of one will do; take A's origin. */
    d2 = PROX_FN(prox_detail_param_closest)(A->o, B->o, B->d, B->lo, B->hi, B->end, &q, &t, &et);
    d2 = PROX_FN(prox_detail_pair_d2)(A, 0, -1, B, t, et);
    return PROX_FN(prox_detail_pair_lin_set)(out, A->o, q, d2, 0, t, -1, et);
  }
  return PROX_FN(prox_detail_pair_lin_set)(out, bp, bq, best, bs, bt, bes, bet);
}

/// Internal: closest pair of two linear sets (line, ray, segment).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_lin_lin)(
    const PROX_FN(prox_detail_pair_lin) * A, const PROX_FN(prox_detail_pair_lin) * B,
    PROX_FN(prox_pair) * out) {
  PROX_FN(prox_vec3) u = A->d, v = B->d;
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(A->o, B->o), p, q;
  PROX_REAL a = PROX_FN(prox_vdot)(u, u), b = PROX_FN(prox_vdot)(u, v);
  PROX_REAL c = PROX_FN(prox_vdot)(v, v), d = PROX_FN(prox_vdot)(u, w);
  PROX_REAL e = PROX_FN(prox_vdot)(v, w);
  PROX_REAL ac = a * c, den = ac - b * b, num = b * e - c * d, s, t, d2, ws, wt;
  int es = -1, et = -1;
  /* Far from parallel, non-degenerate and finite (NaN fails the test), and
   * no overflow in the numerator (of degree 4 in the coordinates). */
  if (!(den > PROX_WIDE_SIN2 * ac) || !(ac > PROX_PAIR_TINY) ||
      !(PROX_FABS(num) <= PROX_REAL_MAX) || !(A->lo < A->hi) || !(B->lo < B->hi))
    return PROX_FN(prox_detail_pair_lin_slow)(A, B, out);
  /* Clamped critical point (Ericson 5.1.9): s from the 2x2 system, t the
   * best for that s, and s again the best for t when t had to be clamped.
   * This is the minimum over the box of the convex quadratic. */
  s = num / den;
  if (s <= A->lo) {
    s = A->lo;
    es = 0;
  } else if (s >= A->hi) {
    s = A->hi;
    es = 1;
  }
  t = (b * s + e) / c;
  if (t <= B->lo || t >= B->hi) {
    if (t <= B->lo) {
      t = B->lo;
      et = 0;
    } else {
      t = B->hi;
      et = 1;
    }
    s = (b * t - d) / a;
    es = -1;
    if (s <= A->lo) {
      s = A->lo;
      es = 0;
    } else if (s >= A->hi) {
      s = A->hi;
      es = 1;
    }
  }
  p = PROX_FN(prox_detail_pair_at)(A, s, es);
  q = PROX_FN(prox_detail_pair_at)(B, t, et);
  if (es < 0 && et < 0 &&
      !(PROX_FN(prox_detail_pair_bounded)(A) && PROX_FN(prox_detail_pair_bounded)(B)) &&
      PROX_FN(prox_detail_pair_wide)(A, B, 0, &ws, &wt, &d2)) {
    /* The critical point of an unbounded set may be far out, where even the
     * residual carries large rounding: the line distance instead (its
     * parameters ws, wt agree with s, t to the conditioning). */
  } else {
    /* The residual from the origins (interior points) or the exact ends. */
    d2 = PROX_FN(prox_detail_pair_d2)(A, s, es, B, t, et);
  }
  return PROX_FN(prox_detail_pair_lin_set)(out, p, q, d2, s, t, es, et);
}

/// Internal: a line as a linear set.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_pair_lin)
    PROX_FN(prox_detail_pair_of_line)(const PROX_FN(prox_line) * l) {
  PROX_FN(prox_detail_pair_lin) L;
  L.o = l->origin;
  L.d = l->dir;
  L.lo = -PROX_INF;
  L.hi = PROX_INF;
  L.end = 0;
  return L;
}

/// Internal: a ray as a linear set.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_pair_lin)
    PROX_FN(prox_detail_pair_of_ray)(const PROX_FN(prox_ray) * r) {
  PROX_FN(prox_detail_pair_lin) L;
  L.o = r->origin;
  L.d = r->dir;
  L.lo = r->tmin;
  L.hi = r->tmax;
  L.end = 0;
  return L;
}

/// Internal: a segment as a linear set.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_pair_lin)
    PROX_FN(prox_detail_pair_of_segment)(const PROX_FN(prox_segment) * g) {
  PROX_FN(prox_detail_pair_lin) L;
  L.o = g->a;
  L.d = PROX_FN(prox_vsub)(g->b, g->a);
  L.lo = 0;
  L.hi = 1;
  L.end = &g->b;
  return L;
}

/// Internal: |D|^2 from double components, rounded once.
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_n3)(double dx, double dy, double dz) {
  return (PROX_REAL)(dx * dx + dy * dy + dz * dz);
}

/// Internal: one end point against the other segment o + t w (t in [0, 1])
/// for prox_detail_pair_seg_slow, from xo = (x - o) . w and dd = |w|^2 > 0
/// (dd finite): *t gets the parameter of the nearest point, xo / dd clamped
/// to [0, 1] (exactly 0 or 1 when clamped, as prox_detail_param_closest);
/// returns the squared distance, formed in double and rounded once: at
/// t = 1, |H|^2 with H = h1 - h2 the exact difference of x and the far end,
/// else |D + sg t w|^2 with D = d1 - d2 the exact difference of x and o
/// (sg = -1, D = x - o for x on the first segment; sg = +1, D = o - x for x
/// on the second). At t = 0 the term t w is a zero, which leaves every
/// component's magnitude as it is: that is |D|^2. The ends are told from
/// xo and dd before the division (xo >= dd gives xo / dd >= 1, xo <= 0
/// gives xo / dd <= 0), so these branches need not wait for a quotient,
/// and an end needs none. A NaN xo (an overflow in the caller's dot
/// product) gives NaN, which never wins.
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_end)(
    PROX_REAL xo, PROX_REAL dd, double sg, const PROX_FN(prox_vec3) * d1,
    const PROX_FN(prox_vec3) * d2, const PROX_FN(prox_vec3) * h1, const PROX_FN(prox_vec3) * h2,
    PROX_FN(prox_vec3) w, PROX_REAL *t) {
  PROX_REAL q;
  double c, rx, ry, rz;
  if (xo >= dd) {
    *t = 1;
    return PROX_FN(prox_detail_pair_n3)((double)h1->x - (double)h2->x,
                                        (double)h1->y - (double)h2->y,
                                        (double)h1->z - (double)h2->z);
  }
  if (xo <= 0) {
    *t = 0;
    return PROX_FN(prox_detail_pair_n3)((double)d1->x - (double)d2->x,
                                        (double)d1->y - (double)d2->y,
                                        (double)d1->z - (double)d2->z);
  }
  /* 0 < xo < dd (or NaN): the quotient may still round to 1 or underflow
   * to 0. */
  q = xo / dd;
  if (q >= 1) {
    *t = 1;
    return PROX_FN(prox_detail_pair_n3)((double)h1->x - (double)h2->x,
                                        (double)h1->y - (double)h2->y,
                                        (double)h1->z - (double)h2->z);
  }
  q = q <= 0 ? 0 : q;
  *t = q;
  c = sg * (double)q;
  rx = ((double)d1->x - (double)d2->x) + c * w.x;
  ry = ((double)d1->y - (double)d2->y) + c * w.y;
  rz = ((double)d1->z - (double)d2->z) + c * w.z;
  return (PROX_REAL)(rx * rx + ry * ry + rz * rz);
}

/// Internal: the end code (0, 1, -1 inside) of a segment parameter t in
/// [0, 1] that is 0 or 1 exactly when at an end point.
PROX_DETAIL_SMALL_KERNEL int PROX_FN(prox_detail_pair_end01)(PROX_REAL t) {
  return t >= 1 ? 1 : (t <= 0 ? 0 : -1);
}

/// Internal: the general path of prox_detail_pair_seg_slow (single points,
/// non-finite input), or with lin = 0 its wide critical point: *s, *t and
/// the squared distance, or PROX_INF with *s = *t = 0 (no interior
/// parameter) when the wide test finds the directions parallel (within
/// sin2).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_gen)(const PROX_FN(prox_segment) * g1,
                                                               const PROX_FN(prox_segment) * g2,
                                                               int lin, PROX_REAL sin2,
                                                               PROX_REAL *s, PROX_REAL *t,
                                                               PROX_FN(prox_pair) * out) {
  PROX_FN(prox_detail_pair_lin) A = PROX_FN(prox_detail_pair_of_segment)(g1);
  PROX_FN(prox_detail_pair_lin) B = PROX_FN(prox_detail_pair_of_segment)(g2);
  PROX_REAL d2 = PROX_INF;
  if (lin) return PROX_FN(prox_detail_pair_lin_slow)(&A, &B, out);
  if (!PROX_FN(prox_detail_pair_wide)(&A, &B, sin2, s, t, &d2)) {
    /* The caller tests the parameters before the distance: give it values
     * that fail its interior test rather than leave them unset. */
    *s = *t = 0;
    return PROX_INF;
  }
  return d2;
}

/// Internal: prox_detail_pair_lin_slow for two segments, given a = u . u,
/// c = v . v, d = u . (a1 - a2) and e = v . (a1 - a2) (u = b1 - a1,
/// v = b2 - a2) of prox_segment_segment: the same candidates (the four end
/// points against the other segment, then the wide critical point unless
/// the directions count as parallel), from the same quantities and with the
/// same roundings, without the generality of prox_detail_pair_lin. Single
/// points and non-finite input (or intermediate overflow) go to the general
/// path.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_slow)(const PROX_FN(prox_segment) * g1,
                                                                const PROX_FN(prox_segment) * g2,
                                                                PROX_REAL a, PROX_REAL c,
                                                                PROX_REAL d, PROX_REAL e,
                                                                PROX_FN(prox_pair) * out) {
  /* u and v formed again (as the caller did): cheaper than passing them. */
  PROX_FN(prox_vec3) u = PROX_FN(prox_vsub)(g1->b, g1->a);
  PROX_FN(prox_vec3) v = PROX_FN(prox_vsub)(g2->b, g2->a);
  const PROX_FN(prox_vec3) *a1 = &g1->a, *b1 = &g1->b;
  const PROX_FN(prox_vec3) *a2 = &g2->a, *b2 = &g2->b;
  /* Non-finite input (or overflow) makes one of a, c, d, e non-finite. */
  PROX_REAL check = (a - a) + (c - c) + (d - d) + (e - e);
  PROX_FN(prox_vec3) p, q;
  PROX_REAL t0, t1, s2, s3, d2, m, s, t, x, best;
  int k, j, es, et;
  /* a and c are sums of squares: with check == 0, nonzero means > 0. */
  if (!(check == 0 && a > 0 && c > 0))
    return PROX_FN(prox_detail_pair_seg_gen)(g1, g2, 1, 0, &s, &t, out);
  /* The four end points against the other segment, in the order a1, b1,
   * a2, b2, the first strict minimum winning: a1 and b1 against segment 2
   * ((a1 - a2) . v = e; residual x1 - (a2 + t v), at t = 1 the exact
   * x1 - b2), a2 and b2 against segment 1 ((a2 - a1) . u = -d; residual
   * (a1 + s u) - y2, at s = 1 the exact b1 - y2). The minimum is taken in
   * pairs (a1 b1, a2 b2, then the two), earlier on ties at each step: the
   * same first strict minimum as in sequence, one select shorter. (Only
   * b1 and b2 can give NaN, from an overflowing dot product, and NaN never
   * wins a comparison.) */
  best = PROX_FN(prox_detail_pair_seg_end)(e, c, -1.0, a1, a2, a1, b2, v, &t0);
  x = PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(g1->b, g2->a), v);
  d2 = PROX_FN(prox_detail_pair_seg_end)(x, c, -1.0, b1, a2, b1, b2, v, &t1);
  k = d2 < best ? 1 : 0;
  best = d2 < best ? d2 : best;
  m = PROX_FN(prox_detail_pair_seg_end)(-d, a, 1.0, a1, a2, b1, a2, u, &s2);
#if PROX_IS_DOUBLE
  /* (b2 - a1) . u as -((a1 - b2) . u), sharing a1 - b2 with the residual:
   * negation is exact, and the sign of a zero does not matter to the end
   * point (both give s = 0). */
  x = -PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(g1->a, g2->b), u);
#else
  x = PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(g2->b, g1->a), u);
#endif
  d2 = PROX_FN(prox_detail_pair_seg_end)(x, a, 1.0, a1, b2, b1, b2, u, &s3);
  j = d2 < m ? 3 : 2;
  m = d2 < m ? d2 : m;
  k = m < best ? j : k;
  best = m < best ? m : best;
  /* The critical point, unless the directions count as parallel (a filter
   * first, then the wide test). */
  if (!(PROX_FN(prox_detail_pair_flat_ok)(a * c) &&
        PROX_FN(prox_detail_pair_flat)(u, v, a * c, PROX_FLAT_SIN2 * (a * c)))) {
    x = PROX_FN(prox_detail_pair_seg_gen)(g1, g2, 0, PROX_FLAT_SIN2, &s, &t, 0);
    if (s > 0 && s < 1 && t > 0 && t < 1 && x < best) {
      best = x;
      k = 4;
      s2 = s, t1 = t;
    }
  }
  if (!(best <= PROX_REAL_MAX)) return PROX_FN(prox_detail_pair_nan)(out);
  if (!out) return best;
  /* Candidate k's parameters (the critical point's in s2, t1): each is 0
   * or 1 exactly at an end point, so the end codes follow from them. */
  s = k == 0 ? 0 : (k == 1 ? 1 : (k == 3 ? s3 : s2));
  t = k == 0 ? t0 : (k == 2 ? 0 : (k == 3 ? 1 : t1));
  es = PROX_FN(prox_detail_pair_end01)(s);
  et = PROX_FN(prox_detail_pair_end01)(t);
  p = es < 0 ? PROX_FN(prox_vmadd)(g1->a, s, u) : (es ? g1->b : g1->a);
  q = et < 0 ? PROX_FN(prox_vmadd)(g2->a, t, v) : (et ? g2->b : g2->a);
  PROX_FN(prox_detail_pair_side)
  (out, 0, p, s, 0, 0, PROX_FN(prox_detail_pair_kind)(es), es == 1);
  PROX_FN(prox_detail_pair_side)
  (out, 1, q, t, 0, 0, PROX_FN(prox_detail_pair_kind)(et), et == 1);
  out->sqdist = best;
  return best;
}

/// Internal: prox_detail_pair_seg_slow with out NULL, out of line for the
/// rare cases of prox_detail_pair_seg_par (PROX_COLD: the compiler
/// then lays out the common case as the straight path).
PROX_DETAIL_COLD_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_rare)(
    const PROX_FN(prox_segment) * g1, const PROX_FN(prox_segment) * g2, PROX_REAL a, PROX_REAL c,
    PROX_REAL d, PROX_REAL e) {
  return PROX_FN(prox_detail_pair_seg_slow)(g1, g2, a, c, d, e, 0);
}

/// Internal: the parameter of an end point against the other segment for
/// prox_detail_pair_seg_par, from xo = (x - o) . w and dd = |w|^2 > 0
/// (finite): xo / dd, raised to 0 when below it and NaN when xo is (max(0,
/// q) with NaN kept, so the select is one instruction). As in
/// prox_detail_pair_seg_end, a quotient at least 1 means the far end (xo >=
/// dd gives one, and so does a quotient that rounds up to 1) and 0 the near
/// end (xo <= 0, or a quotient that underflows); a zero may come out as -0,
/// which changes no distance. The opaque steps keep GCC from turning the
/// select into a branch, which mispredicts on random input (see
/// PROX_OPAQUE).
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_q)(PROX_REAL xo, PROX_REAL dd) {
  PROX_REAL q = xo / dd, zero = 0;
  PROX_OPAQUE(q);
  PROX_OPAQUE(zero);
  q = zero > q ? zero : q;
  PROX_OPAQUE(q);
  return q;
}

/// Internal: the squared distance of prox_detail_pair_seg_end for the
/// parameter q of prox_detail_pair_seg_q, without branches: D = (dx, dy, dz)
/// is the exact difference (in double) of the end point x and the origin o
/// of the other segment, w = (wx, wy, wz) its direction, sub set when the
/// term is subtracted (sg = -1 there: D + (-q) w is D - q w, bit for bit)
/// and hf the squared distance to the far end, |H|^2 rounded once. The
/// residual |D + sg q w|^2 is formed for every q (at q = 0, either sign, the
/// zero term leaves each component's magnitude as it is: |D|^2, the near
/// end's distance, as there) and hf is taken instead when q >= 1.
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_dq)(PROX_REAL q, int sub, double dx,
                                                                    double dy, double dz,
                                                                    PROX_REAL hf, double wx,
                                                                    double wy, double wz) {
  double cq = (double)q, rx, ry, rz;
  PROX_REAL di;
  if (sub) {
    rx = dx - cq * wx;
    ry = dy - cq * wy;
    rz = dz - cq * wz;
  } else {
    rx = dx + cq * wx;
    ry = dy + cq * wy;
    rz = dz + cq * wz;
  }
  di = (PROX_REAL)(rx * rx + ry * ry + rz * rz);
  PROX_OPAQUE(di);
  PROX_OPAQUE(hf);
  return q >= 1 ? hf : di;
}

/// Internal: prox_detail_pair_seg_slow for the arguments of
/// prox_detail_pair_segseg, with the squared distance alone (out NULL) of
/// its common case inline: finite input, neither segment a single point,
/// and directions that the filter of prox_detail_pair_flat finds parallel
/// (exactly parallel segments among them), where only the four end point
/// candidates count. Each is formed with the roundings of
/// prox_detail_pair_seg_end but without branches (prox_detail_pair_seg_q
/// and prox_detail_pair_seg_dq: on random input which ends project inside
/// the other segment varies from pair to pair, and branches on it
/// mispredict), and the minimum is taken in the same pairs. Everything else
/// goes to prox_detail_pair_seg_slow, and so does every query with out: the
/// output branches on which candidate won and whether its points are ends,
/// which there follows the branches already taken but mispredicts after
/// branch-free candidates. The results are the same either way.
PROX_PAIR_PAR_KERNEL PROX_REAL PROX_FN(prox_detail_pair_seg_par)(const PROX_FN(prox_segment) * g1,
                                                                 const PROX_FN(prox_segment) * g2,
                                                                 PROX_REAL a, PROX_REAL c,
                                                                 PROX_REAL d, PROX_REAL e,
                                                                 PROX_FN(prox_pair) * out) {
  const PROX_FN(prox_vec3) *a1 = &g1->a, *b1 = &g1->b;
  const PROX_FN(prox_vec3) *a2 = &g2->a, *b2 = &g2->b;
  PROX_FN(prox_vec3) u = PROX_FN(prox_vsub)(g1->b, g1->a);
  PROX_FN(prox_vec3) v = PROX_FN(prox_vsub)(g2->b, g2->a);
  double a1x, a1y, a1z, b1x, b1y, b1z, a2x, a2y, a2z, b2x, b2y, b2z;
  double ux, uy, uz, vx, vy, vz, hx, hy, hz, kx, ky, kz;
  PROX_REAL ac = a * c, x, hba, hbb, hab, t0, t1, s2, s3, d0, d1, d2, d3;
  PROX_REAL best, m;
  if (out) return PROX_FN(prox_detail_pair_seg_slow)(g1, g2, a, c, d, e, out);
  /* ac in (PROX_PAIR_TINY, PROX_REAL_MAX] gives finite a > 0 and c > 0
   * (sums of squares): with finite d and e, the entry test of
   * prox_detail_pair_seg_slow passes; with the filter, its critical point
   * is skipped. Anything else (an ac that overflows too) goes there. */
  if (!(PROX_FN(prox_detail_pair_flat_ok)(ac) && (d - d) + (e - e) == 0 &&
        PROX_FN(prox_detail_pair_flat)(u, v, ac, PROX_FLAT_SIN2 * ac)))
    return PROX_FN(prox_detail_pair_seg_rare)(g1, g2, a, c, d, e);
  /* The parameters first (the divisions overlap what follows): a1 and b1
   * against segment 2 ((a1 - a2) . v = e, (b1 - a2) . v), a2 and b2 against
   * segment 1 ((a2 - a1) . u = -d, (b2 - a1) . u formed as there). */
  t0 = PROX_FN(prox_detail_pair_seg_q)(e, c);
  s2 = PROX_FN(prox_detail_pair_seg_q)(-d, a);
  x = PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(*b1, *a2), v);
  t1 = PROX_FN(prox_detail_pair_seg_q)(x, c);
#if PROX_IS_DOUBLE
  x = -PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(*a1, *b2), u);
#else
  x = PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(*b2, *a1), u);
#endif
  s3 = PROX_FN(prox_detail_pair_seg_q)(x, a);
  /* The end points and directions in double (exact for float input), for
   * the residuals of prox_detail_pair_seg_end; then the candidates in an
   * order that keeps few differences live: b1 (its far end b2, near end
   * a2), b2 (far end b1, near end a1), a1 (far end b2), a2 (far end b1). */
  a1x = a1->x, a1y = a1->y, a1z = a1->z, b1x = b1->x, b1y = b1->y;
  b1z = b1->z, a2x = a2->x, a2y = a2->y, a2z = a2->z, b2x = b2->x;
  b2y = b2->y, b2z = b2->z;
  ux = u.x, uy = u.y, uz = u.z, vx = v.x, vy = v.y, vz = v.z;
  hx = b1x - b2x, hy = b1y - b2y, hz = b1z - b2z;
  hbb = PROX_FN(prox_detail_pair_n3)(hx, hy, hz);
  hx = b1x - a2x, hy = b1y - a2y, hz = b1z - a2z;
  hba = PROX_FN(prox_detail_pair_n3)(hx, hy, hz);
  d1 = PROX_FN(prox_detail_pair_seg_dq)(t1, 1, hx, hy, hz, hbb, vx, vy, vz);
  hx = a1x - b2x, hy = a1y - b2y, hz = a1z - b2z;
  hab = PROX_FN(prox_detail_pair_n3)(hx, hy, hz);
  d3 = PROX_FN(prox_detail_pair_seg_dq)(s3, 0, hx, hy, hz, hbb, ux, uy, uz);
  kx = a1x - a2x, ky = a1y - a2y, kz = a1z - a2z;
  d0 = PROX_FN(prox_detail_pair_seg_dq)(t0, 1, kx, ky, kz, hab, vx, vy, vz);
  d2 = PROX_FN(prox_detail_pair_seg_dq)(s2, 0, kx, ky, kz, hba, ux, uy, uz);
  /* The minimum in pairs as in prox_detail_pair_seg_slow, with its NaN
   * behaviour (a NaN candidate, from an overflowing x, never wins). */
  best = d1 < d0 ? d1 : d0;
  m = d3 < d2 ? d3 : d2;
  best = m < best ? m : best;
  return best <= PROX_REAL_MAX ? best : PROX_NAN;
}

/* ------------------------------ linear pairs ------------------------------ */

PROX_KERNEL PROX_REAL PROX_FN(prox_line_line)(const PROX_FN(prox_line) * l1,
                                              const PROX_FN(prox_line) * l2,
                                              PROX_FN(prox_pair) * out) {
  PROX_FN(prox_detail_pair_lin) A = PROX_FN(prox_detail_pair_of_line)(l1);
  PROX_FN(prox_detail_pair_lin) B = PROX_FN(prox_detail_pair_of_line)(l2);
  return PROX_FN(prox_detail_pair_lin_lin)(&A, &B, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_line_ray)(const PROX_FN(prox_line) * l,
                                             const PROX_FN(prox_ray) * r,
                                             PROX_FN(prox_pair) * out) {
  PROX_FN(prox_detail_pair_lin) A = PROX_FN(prox_detail_pair_of_line)(l);
  PROX_FN(prox_detail_pair_lin) B = PROX_FN(prox_detail_pair_of_ray)(r);
  return PROX_FN(prox_detail_pair_lin_lin)(&A, &B, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_line_segment)(const PROX_FN(prox_line) * l,
                                                 const PROX_FN(prox_segment) * g,
                                                 PROX_FN(prox_pair) * out) {
  PROX_FN(prox_detail_pair_lin) A = PROX_FN(prox_detail_pair_of_line)(l);
  PROX_FN(prox_detail_pair_lin) B = PROX_FN(prox_detail_pair_of_segment)(g);
  return PROX_FN(prox_detail_pair_lin_lin)(&A, &B, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ray_ray)(const PROX_FN(prox_ray) * r1,
                                            const PROX_FN(prox_ray) * r2,
                                            PROX_FN(prox_pair) * out) {
  PROX_FN(prox_detail_pair_lin) A = PROX_FN(prox_detail_pair_of_ray)(r1);
  PROX_FN(prox_detail_pair_lin) B = PROX_FN(prox_detail_pair_of_ray)(r2);
  return PROX_FN(prox_detail_pair_lin_lin)(&A, &B, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ray_segment)(const PROX_FN(prox_ray) * r,
                                                const PROX_FN(prox_segment) * g,
                                                PROX_FN(prox_pair) * out) {
  PROX_FN(prox_detail_pair_lin) A = PROX_FN(prox_detail_pair_of_ray)(r);
  PROX_FN(prox_detail_pair_lin) B = PROX_FN(prox_detail_pair_of_segment)(g);
  return PROX_FN(prox_detail_pair_lin_lin)(&A, &B, out);
}

/// Internal: prox_segment_segment given u = b1 - a1, v = b2 - a2, a = u . u
/// and c = v . v (formed once by callers that pair a segment with several
/// others, as the triangle queries do).
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_segseg)(
    const PROX_FN(prox_segment) * g1, const PROX_FN(prox_segment) * g2, PROX_FN(prox_vec3) u,
    PROX_FN(prox_vec3) v, PROX_REAL a, PROX_REAL c, PROX_FN(prox_pair) * out) {
  /* The fast path of prox_detail_pair_lin_lin, specialised to [0, 1] and
   * exact end points; everything else goes to the general slow path. */
  /* w = a1 - a2 and the dot products written out (the same operations as
   * prox_vsub and prox_vdot): formed through vectors, gcc -O3 pairs the x
   * and y differences into one SIMD subtraction and unpacks them again for
   * the dot products, a dozen instructions more. */
  PROX_REAL wx = g1->a.x - g2->a.x, wy = g1->a.y - g2->a.y, wz = g1->a.z - g2->a.z;
  PROX_REAL b = u.x * v.x + u.y * v.y + u.z * v.z, d = u.x * wx + u.y * wy + u.z * wz;
  PROX_REAL e = v.x * wx + v.y * wy + v.z * wz;
  PROX_REAL ac = a * c, den = ac - b * b, num, s, t, d2;
  int es = -1, et = -1;
  /* The numerator b e - c d is of degree 4 in the coordinates: where it
   * overflows (float input beyond about 2^31, double beyond 2^255, or far
   * apart segments) the slow path too, whose critical point is scaled. It
   * is formed only past the other tests, and the slow path has one call
   * site (two make gcc give up inlining it). */
  if (!(den > PROX_WIDE_SIN2 * ac) || !(ac > PROX_PAIR_TINY) ||
      !(PROX_FABS(num = b * e - c * d) <= PROX_REAL_MAX)) {
    return PROX_FN(prox_detail_pair_seg_par)(g1, g2, a, c, d, e, out);
  }
  s = num / den;
  if (s <= 0) {
    s = 0;
    es = 0;
  } else if (s >= 1) {
    s = 1;
    es = 1;
  }
  t = (b * s + e) / c;
  if (t <= 0 || t >= 1) {
    et = t > 0;
    t = (PROX_REAL)et;
    s = (b * t - d) / a;
    es = -1;
    if (s <= 0) {
      s = 0;
      es = 0;
    } else if (s >= 1) {
      s = 1;
      es = 1;
    }
  }
  /* The residual from the exact end points or the origins. */
  d2 = PROX_FN(prox_detail_pair_res2)(es == 1 ? g1->b : g1->a, es < 0 ? s : 0, u,
                                      et == 1 ? g2->b : g2->a, et < 0 ? t : 0, v);
  if (!(d2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_pair_nan)(out);
  if (out) {
    PROX_FN(prox_vec3)
    p = es < 0 ? PROX_FN(prox_vmadd)(g1->a, s, u) : (es ? g1->b : g1->a);
    PROX_FN(prox_vec3)
    q = et < 0 ? PROX_FN(prox_vmadd)(g2->a, t, v) : (et ? g2->b : g2->a);
    PROX_FN(prox_detail_pair_side)
    (out, 0, p, s, 0, 0, es < 0 ? PROX_FEATURE_EDGE : PROX_FEATURE_VERTEX, es == 1);
    PROX_FN(prox_detail_pair_side)
    (out, 1, q, t, 0, 0, et < 0 ? PROX_FEATURE_EDGE : PROX_FEATURE_VERTEX, et == 1);
    out->sqdist = d2;
  }
  return d2;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_segment_segment)(const PROX_FN(prox_segment) * g1,
                                                    const PROX_FN(prox_segment) * g2,
                                                    PROX_FN(prox_pair) * out) {
  PROX_FN(prox_vec3) u = PROX_FN(prox_vsub)(g1->b, g1->a);
  PROX_FN(prox_vec3) v = PROX_FN(prox_vsub)(g2->b, g2->a);
  return PROX_FN(prox_detail_pair_segseg)(g1, g2, u, v, PROX_FN(prox_vdot)(u, u),
                                          PROX_FN(prox_vdot)(v, v), out);
}

/* ---------------------------- triangle pairs ------------------------------ */

/// Internal: the sign (+1, -1, or 0 when within rounding of zero even in
/// wide arithmetic) of the orientation (b - a) . ((c - a) x (d - a)), given
/// the rounded differences u = b - a, v = c - a and w = d - a, which
/// callers share: a floating-point filter, then prox_detail_orient_wsign.
PROX_DETAIL_SMALL_KERNEL int
PROX_FN(prox_detail_pair_orient_d)(PROX_FN(prox_vec3) u, PROX_FN(prox_vec3) v, PROX_FN(prox_vec3) w,
                                   PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b, PROX_FN(prox_vec3) c,
                                   PROX_FN(prox_vec3) d) {
  PROX_REAL err, o = PROX_FN(prox_detail_orient_uvw)(u, v, w, &err);
  if (err >= PROX_DETAIL_ORIENT_MIN) {
    if (o > err) return 1;
    if (o < -err) return -1;
  }
  /* Filter failed, or overflowed or underflowed: the wide sign from the
   * exact differences. */
  return PROX_FN(prox_detail_orient_wsign)(a, b, c, d);
}

/// Internal: the rounded normal n = (v1 - v0) x (v2 - v0) of a triangle and
/// m, the sums of the magnitudes of its products (m.x = |e1.y e2.z| +
/// |e1.z e2.y|, ...), shared by the orientation tests of several points
/// against the triangle's plane (prox_detail_pair_plane_sign).
PROX_DETAIL_SMALL_KERNEL void PROX_FN(prox_detail_pair_plane)(const PROX_FN(prox_triangle) * tri,
                                                              PROX_FN(prox_vec3) * n,
                                                              PROX_FN(prox_vec3) * m) {
  PROX_FN(prox_vec3) e1 = PROX_FN(prox_vsub)(tri->v[1], tri->v[0]);
  PROX_FN(prox_vec3) e2 = PROX_FN(prox_vsub)(tri->v[2], tri->v[0]);
  PROX_REAL xy = e1.y * e2.z, xz = e1.z * e2.y, yz = e1.z * e2.x;
  PROX_REAL yx = e1.x * e2.z, zx = e1.x * e2.y, zy = e1.y * e2.x;
  *n = PROX_FN(prox_v3)(xy - xz, yz - yx, zx - zy);
  *m = PROX_FN(prox_v3)(PROX_FABS(xy) + PROX_FABS(xz), PROX_FABS(yz) + PROX_FABS(yx),
                        PROX_FABS(zx) + PROX_FABS(zy));
}

/// Internal: (p - v0) . n for a triangle's plane, n and m from
/// prox_detail_pair_plane, and *err its filter bound (8 eps times the
/// permanent): the floating-point part of prox_detail_pair_plane_sign.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_plane_dot)(const PROX_FN(prox_triangle) * tri,
                                                                 PROX_FN(prox_vec3) n,
                                                                 PROX_FN(prox_vec3) m,
                                                                 PROX_FN(prox_vec3) p,
                                                                 PROX_REAL *err) {
  PROX_FN(prox_vec3) w = PROX_FN(prox_vsub)(p, tri->v[0]);
  *err =
      PROX_R(8.0) * PROX_EPS * (PROX_FABS(w.x) * m.x + PROX_FABS(w.y) * m.y + PROX_FABS(w.z) * m.z);
  return PROX_FN(prox_vdot)(w, n);
}

/// Internal: prox_detail_orient(v0, v1, v2, p) for a triangle's
/// plane, from n and m of prox_detail_pair_plane: the same determinant,
/// evaluated as (p - v0) . n (a cyclic permutation, the same six products),
/// with the same filter bound (8 eps times the permanent) and the same wide
/// fallback.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_plane_sign)(const PROX_FN(prox_triangle) * tri,
                                                            PROX_FN(prox_vec3) n,
                                                            PROX_FN(prox_vec3) m,
                                                            PROX_FN(prox_vec3) p) {
  PROX_REAL err, o = PROX_FN(prox_detail_pair_plane_dot)(tri, n, m, p, &err);
  if (err >= PROX_DETAIL_ORIENT_MIN) {
    if (o > err) return 1;
    if (o < -err) return -1;
  }
  return PROX_FN(prox_detail_orient_wsign)(tri->v[0], tri->v[1], tri->v[2], p);
}

/// Internal: whether segment p q, whose ends lie certainly on opposite sides
/// of the triangle's plane, certainly crosses the triangle's interior; then,
/// unless bary is NULL (only the answer wanted), *t is the crossing's
/// segment parameter and bary its barycentric coordinates (signed volumes,
/// Ericson 5.3.4), both from wide values (a filtered sign alone says little
/// about the value's accuracy).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_pair_cross)(PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) q,
                                                       const PROX_FN(prox_triangle) * tri,
                                                       PROX_REAL *t, PROX_REAL *bary) {
  const PROX_FN(prox_vec3) *v = tri->v;
  PROX_FN(prox_detail_wide) U, V, W, DP, DQ, sum;
  PROX_REAL m;
  int e;
  /* The three orientations of the segment against the triangle's edges
   * (prox_detail_pair_orient_d(p, q, v[2], v[1]) and so on), sharing the
   * differences. */
  PROX_FN(prox_vec3) u = PROX_FN(prox_vsub)(q, p);
  PROX_FN(prox_vec3) w0 = PROX_FN(prox_vsub)(v[0], p);
  PROX_FN(prox_vec3) w1 = PROX_FN(prox_vsub)(v[1], p);
  PROX_FN(prox_vec3) w2 = PROX_FN(prox_vsub)(v[2], p);
  int su = PROX_FN(prox_detail_pair_orient_d)(u, w2, w1, p, q, v[2], v[1]);
  if (su == 0) return 0;
  if (PROX_FN(prox_detail_pair_orient_d)(u, w0, w2, p, q, v[0], v[2]) != su) return 0;
  if (PROX_FN(prox_detail_pair_orient_d)(u, w1, w0, p, q, v[1], v[0]) != su) return 0;
  if (!bary) return 1;
  /* The values, as ratios of orientations that share one scale 2^-e: the
   * differences (at most twice the largest of u, w0, w1, w2) are then below
   * 2 in magnitude. */
  m = PROX_FN(prox_detail_maxabs)(u);
  m = PROX_FN(prox_detail_maxabs)(w0) > m ? PROX_FN(prox_detail_maxabs)(w0) : m;
  m = PROX_FN(prox_detail_maxabs)(w1) > m ? PROX_FN(prox_detail_maxabs)(w1) : m;
  m = PROX_FN(prox_detail_maxabs)(w2) > m ? PROX_FN(prox_detail_maxabs)(w2) : m;
  e = PROX_FN(prox_detail_exp)((double)m);
  U = PROX_FN(prox_detail_worient)(p, q, v[2], v[1], e);
  V = PROX_FN(prox_detail_worient)(p, q, v[0], v[2], e);
  W = PROX_FN(prox_detail_worient)(p, q, v[1], v[0], e);
  DP = PROX_FN(prox_detail_worient)(v[0], v[1], v[2], p, e);
  DQ = PROX_FN(prox_detail_worient)(v[0], v[1], v[2], q, e);
  sum = PROX_FN(prox_detail_wadd)(PROX_FN(prox_detail_wadd)(U, V), W);
  bary[0] = PROX_FN(prox_detail_wratio)(U, sum);
  bary[1] = PROX_FN(prox_detail_wratio)(V, sum);
  bary[2] = PROX_FN(prox_detail_wratio)(W, sum);
  *t = PROX_FN(prox_detail_wratio)(DP, PROX_FN(prox_detail_wsub)(DP, DQ));
  return 1;
}

/// Internal: the triangle point with barycentrics bary.
PROX_DETAIL_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_detail_pair_tri_at)(const PROX_FN(prox_triangle) * tri, const PROX_REAL *bary) {
  PROX_FN(prox_vec3) a = tri->v[0];
  return PROX_FN(prox_vadd)(
      a, PROX_FN(prox_vadd)(PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(tri->v[1], a), bary[1]),
                            PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(tri->v[2], a), bary[2])));
}

/// Internal: side k of *out from a segment-segment result side j, where the
/// segment is edge i of a triangle.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_pair_edge_side)(PROX_FN(prox_pair) * out, int k,
                                                            const PROX_FN(prox_pair) * r, int j,
                                                            int i) {
  int i1 = i == 2 ? 0 : i + 1;
  PROX_REAL t = r->param[j][0], bary[3] = {0, 0, 0};
  bary[i] = 1 - t;
  bary[i1] = t;
  out->point[k] = r->point[j];
  out->param[k][0] = bary[0];
  out->param[k][1] = bary[1];
  out->param[k][2] = bary[2];
  if (r->feature[j].kind == PROX_FEATURE_VERTEX) {
    out->feature[k].kind = PROX_FEATURE_VERTEX;
    out->feature[k].index = r->feature[j].index ? i1 : i;
  } else {
    out->feature[k].kind = PROX_FEATURE_EDGE;
    out->feature[k].index = i;
  }
}

/// Internal: side k of *out from a point-triangle result.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_pair_tri_side)(PROX_FN(prox_pair) * out, int k,
                                                           const PROX_FN(prox_closest) * c) {
  PROX_FN(prox_detail_pair_side)
  (out, k, c->point, c->param[0], c->param[1], c->param[2], c->feature.kind, c->feature.index);
}

/* The magnitudes where the candidate bounds below work: their products
 * reach the sixth power of the coordinates. */
/* 2^-150 and 2^150 (float: 2^-18 and 2^18), 1 - 2^-40; decimal, as C++
 * before C++17 has no hexadecimal floating literals. */
#define PROX_TT_LO (PROX_IS_DOUBLE ? PROX_R(7.0064923216240854e-46) : PROX_R(3.814697265625e-06))
#define PROX_TT_HI (PROX_IS_DOUBLE ? PROX_R(1.4272476927059599e+45) : PROX_R(262144.0))
#define PROX_TT_2M40 PROX_R(9.094947017729282379150390625e-13)
#define PROX_TT_DOWN (1 - PROX_TT_2M40)

/// Internal: for the points v[i], i < cnt, lower bounds pd[i] of their
/// squared distances to the plane of tri, and side[i], their side of it
/// where that is certain (else 0, and pd[i] = 0). Rounded down: |(v - v0) .
/// n| less twice the orientation filter's error, squared, over an upper
/// bound of the exact |n|^2, then less a relative 2^-40. For coordinates
/// within [PROX_TT_LO, PROX_TT_HI] (nothing overflows there).
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_tt_plane)(const PROX_FN(prox_triangle) * tri,
                                                      const PROX_FN(prox_vec3) * v, int cnt,
                                                      PROX_REAL *pd, int *side) {
  PROX_FN(prox_vec3) n, m;
  PROX_REAL nup2, e = PROX_R(8.0) * PROX_EPS;
  int i;
  PROX_FN(prox_detail_pair_plane)(tri, &n, &m);
  nup2 = (PROX_FABS(n.x) + e * m.x) * (PROX_FABS(n.x) + e * m.x) +
         (PROX_FABS(n.y) + e * m.y) * (PROX_FABS(n.y) + e * m.y) +
         (PROX_FABS(n.z) + e * m.z) * (PROX_FABS(n.z) + e * m.z);
  nup2 += nup2 * PROX_TT_2M40;
  PROX_UNROLL
  for (i = 0; i < cnt; ++i) {
    PROX_REAL err, o = PROX_FN(prox_detail_pair_plane_dot)(tri, n, m, v[i], &err);
    PROX_REAL h = PROX_FABS(o) - 2 * err;
    side[i] = 0;
    pd[i] = 0;
    if (err >= PROX_DETAIL_ORIENT_MIN && h > 0 && nup2 >= PROX_REAL_MIN) {
      side[i] = o > 0 ? 1 : -1;
      pd[i] = h * h / nup2 * PROX_TT_DOWN;
    }
  }
}

/// Internal: the box of the points v[i], i < cnt, as lo[3] and hi[3].
/// Minima and maxima are written as x < y ? x : y and x > y ? x : y,
/// distinct comparisons, so that they compile to min and max instructions.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_tt_box)(const PROX_FN(prox_vec3) * v, int cnt,
                                                    PROX_REAL *lo, PROX_REAL *hi) {
  int i, a;
  PROX_UNROLL
  for (a = 0; a < 3; ++a) {
    lo[a] = hi[a] = a == 0 ? v[0].x : (a == 1 ? v[0].y : v[0].z);
    PROX_UNROLL
    for (i = 1; i < cnt; ++i) {
      PROX_REAL x = a == 0 ? v[i].x : (a == 1 ? v[i].y : v[i].z);
      lo[a] = x < lo[a] ? x : lo[a];
      hi[a] = x > hi[a] ? x : hi[a];
    }
  }
}

/// Internal: a lower bound of the squared distance between the boxes [lo1,
/// hi1] and [lo2, hi2], rounded down. The gaps are maxima, not branches.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_tt_gap2)(const PROX_REAL *lo1,
                                                          const PROX_REAL *hi1,
                                                          const PROX_REAL *lo2,
                                                          const PROX_REAL *hi2) {
  PROX_REAL g2 = 0;
  int a;
  PROX_UNROLL
  for (a = 0; a < 3; ++a) {
    PROX_REAL g1 = lo2[a] - hi1[a], g = lo1[a] - hi2[a];
    g = g1 > g ? g1 : g;
    g = (g + PROX_FABS(g)) * PROX_R(0.5); /* max(g, 0), exactly */
    g2 += g * g;
  }
  return g2 * PROX_TT_DOWN;
}

/// Internal: whether the largest coordinate magnitude of v[i], i < cnt,
/// lies within [PROX_TT_LO, PROX_TT_HI]; *s gets it.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_tt_range)(const PROX_FN(prox_vec3) * v, int cnt,
                                                     PROX_REAL *s) {
  int i;
  *s = 0;
  PROX_UNROLL
  for (i = 0; i < cnt; ++i) {
    PROX_REAL m = PROX_FN(prox_detail_maxabs)(v[i]);
    *s = m > *s ? m : *s;
  }
  return *s >= PROX_TT_LO && *s <= PROX_TT_HI;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_segment_triangle)(const PROX_FN(prox_segment) * seg,
                                                     const PROX_FN(prox_triangle) * tri,
                                                     PROX_FN(prox_pair) * out) {
  PROX_FN(prox_vec3) p = seg->a, q = seg->b;
  PROX_FN(prox_closest) c;
  PROX_FN(prox_pair) r, best;
  PROX_FN(prox_vec3) n, m;
  PROX_REAL d2, bd2, t, bary[3];
  int i, sp;
  PROX_REAL check = PROX_FN(prox_vpoison)(p) + PROX_FN(prox_vpoison)(q) +
                    PROX_FN(prox_vpoison)(tri->v[0]) + PROX_FN(prox_vpoison)(tri->v[1]) +
                    PROX_FN(prox_vpoison)(tri->v[2]);
  if (check != 0) return PROX_FN(prox_detail_pair_nan)(out);
  PROX_FN(prox_detail_pair_plane)(tri, &n, &m);
  sp = PROX_FN(prox_detail_pair_plane_sign)(tri, n, m, p);
  if (sp != 0 && PROX_FN(prox_detail_pair_plane_sign)(tri, n, m, q) == -sp &&
      PROX_FN(prox_detail_pair_cross)(p, q, tri, &t, out ? bary : 0)) {
    if (out) {
      PROX_FN(prox_detail_pair_side)
      (out, 0, PROX_FN(prox_vmadd)(p, t, PROX_FN(prox_vsub)(q, p)), t, 0, 0, PROX_FEATURE_EDGE, 0);
      PROX_FN(prox_detail_pair_side)
      (out, 1, PROX_FN(prox_detail_pair_tri_at)(tri, bary), bary[0], bary[1], bary[2],
       PROX_FEATURE_FACE, 0);
      out->sqdist = 0;
    }
    return 0;
  }
  /* No certain crossing: the minimum over the candidate pairs (their
   * points and features are only asked for when out wants them). */
  bd2 = PROX_FN(prox_point_triangle)(p, tri, out ? &c : 0);
  if (out) {
    best.point[0] = p;
    best.param[0][0] = best.param[0][1] = best.param[0][2] = 0;
    best.feature[0].kind = PROX_FEATURE_VERTEX;
    best.feature[0].index = 0;
    PROX_FN(prox_detail_pair_tri_side)(&best, 1, &c);
  }
  if (!(p.x == q.x && p.y == q.y && p.z == q.z)) {
    /* The segment's direction and length, formed once for the edges. */
    PROX_FN(prox_vec3) u = PROX_FN(prox_vsub)(q, p);
    PROX_REAL a = PROX_FN(prox_vdot)(u, u);
    d2 = PROX_FN(prox_point_triangle)(q, tri, out ? &c : 0);
    if (d2 < bd2) {
      bd2 = d2;
      if (out) {
        PROX_FN(prox_detail_pair_side)
        (&best, 0, q, 1, 0, 0, PROX_FEATURE_VERTEX, 1);
        PROX_FN(prox_detail_pair_tri_side)(&best, 1, &c);
      }
    }
    for (i = 0; i < 3; ++i) {
      PROX_FN(prox_segment) e;
      PROX_FN(prox_vec3) v;
      e.a = tri->v[i];
      e.b = tri->v[i == 2 ? 0 : i + 1];
      v = PROX_FN(prox_vsub)(e.b, e.a);
      d2 = PROX_FN(prox_detail_pair_segseg)(seg, &e, u, v, a, PROX_FN(prox_vdot)(v, v),
                                            out ? &r : 0);
      if (d2 < bd2 && !out) {
        bd2 = d2;
      } else if (d2 < bd2) {
        bd2 = d2;
        best.point[0] = r.point[0];
        best.param[0][0] = r.param[0][0];
        best.feature[0] = r.feature[0];
        PROX_FN(prox_detail_pair_edge_side)(&best, 1, &r, 1, i);
      }
    }
  }
  if (!(bd2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_pair_nan)(out);
  best.sqdist = bd2;
  if (out) *out = best;
  return bd2;
}

/// Internal: lower bounds lb[q] of the exact squared distances of the
/// fifteen candidates of prox_triangle_triangle (q as there), for finite
/// input: the gap between the candidates' bounding boxes, and the distance
/// to the other triangle's plane of a vertex, or of an edge whose ends are
/// certainly on one side of it (prox_detail_tt_plane). All 0 (no pruning)
/// outside [PROX_TT_LO, PROX_TT_HI]. *s gets the largest magnitude.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_tt_bounds)(const PROX_FN(prox_triangle) *const *T,
                                                       PROX_REAL *lb, PROX_REAL *s) {
  PROX_FN(prox_vec3) v[6];
  PROX_REAL lo[2][3], hi[2][3], pd[2][3], elo[2][3][3], ehi[2][3][3];
  int side[2][3], k, i, j;
  PROX_UNROLL
  for (k = 0; k < 15; ++k)
    lb[k] = 0;
  PROX_UNROLL
  for (k = 0; k < 2; ++k) {
    PROX_UNROLL
    for (i = 0; i < 3; ++i)
      v[3 * k + i] = T[k]->v[i];
  }
  if (!PROX_FN(prox_detail_tt_range)(v, 6, s)) return;
  PROX_UNROLL
  for (k = 0; k < 2; ++k) {
    PROX_FN(prox_detail_tt_box)(T[k]->v, 3, lo[k], hi[k]);
    PROX_FN(prox_detail_tt_plane)(T[1 - k], T[k]->v, 3, pd[k], side[k]);
    PROX_UNROLL
    for (i = 0; i < 3; ++i) {
      PROX_FN(prox_vec3) e[2];
      e[0] = T[k]->v[i];
      e[1] = T[k]->v[i == 2 ? 0 : i + 1];
      PROX_FN(prox_detail_tt_box)(e, 2, elo[k][i], ehi[k][i]);
    }
  }
  /* Vertex i of triangle k against triangle 1 - k. */
  PROX_UNROLL
  for (k = 0; k < 2; ++k) {
    PROX_UNROLL
    for (i = 0; i < 3; ++i) {
      PROX_REAL x[3], g2;
      x[0] = T[k]->v[i].x;
      x[1] = T[k]->v[i].y;
      x[2] = T[k]->v[i].z;
      g2 = PROX_FN(prox_detail_tt_gap2)(x, x, lo[1 - k], hi[1 - k]);
      lb[3 * k + i] = g2 > pd[k][i] ? g2 : pd[k][i];
    }
  }
  /* Edge i of t1 against edge j of t2. */
  PROX_UNROLL
  for (i = 0; i < 3; ++i) {
    int i1 = i == 2 ? 0 : i + 1;
    PROX_REAL b0 = 0;
    if (side[0][i] != 0 && side[0][i] == side[0][i1])
      b0 = pd[0][i] < pd[0][i1] ? pd[0][i] : pd[0][i1];
    PROX_UNROLL
    for (j = 0; j < 3; ++j) {
      int j1 = j == 2 ? 0 : j + 1;
      PROX_REAL b = b0,
                g2 = PROX_FN(prox_detail_tt_gap2)(elo[0][i], ehi[0][i], elo[1][j], ehi[1][j]);
      if (side[1][j] != 0 && side[1][j] == side[1][j1]) {
        PROX_REAL c = pd[1][j] < pd[1][j1] ? pd[1][j] : pd[1][j1];
        b = c > b ? c : b;
      }
      lb[6 + 3 * i + j] = g2 > b ? g2 : b;
    }
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_triangle_triangle)(const PROX_FN(prox_triangle) * t1,
                                                      const PROX_FN(prox_triangle) * t2,
                                                      PROX_FN(prox_pair) * out) {
  const PROX_FN(prox_triangle) * T[2];
  PROX_FN(prox_closest) c;
  PROX_FN(prox_pair) r, best;
  PROX_REAL d2, bd2 = PROX_INF, t, bary[3], lb[15], s = 0, margin;
  int sg[2][3], k, i, j, o, bq = 15, qm;
  PROX_REAL check = 0;
  T[0] = t1;
  T[1] = t2;
  for (k = 0; k < 2; ++k)
    for (i = 0; i < 3; ++i)
      check += PROX_FN(prox_vpoison)(T[k]->v[i]);
  if (check != 0) return PROX_FN(prox_detail_pair_nan)(out);
  /* sg[k][i]: side of vertex i of triangle k w.r.t. the other's plane; the
   * crossings are only searched when neither triangle is certainly on one
   * side of the other's plane (the second triangle's sides are not needed
   * when the first one is). */
  for (k = 0; k < 2; ++k) {
    PROX_FN(prox_vec3) n, m;
    PROX_FN(prox_detail_pair_plane)(T[1 - k], &n, &m);
    for (i = 0; i < 3; ++i)
      sg[k][i] = PROX_FN(prox_detail_pair_plane_sign)(T[1 - k], n, m, T[k]->v[i]);
    if (sg[k][0] == sg[k][1] && sg[k][1] == sg[k][2] && sg[k][0] != 0) break;
  }
  if (k == 2) {
    for (k = 0; k < 2; ++k) {
      for (i = 0; i < 3; ++i) {
        int i1 = i == 2 ? 0 : i + 1;
        PROX_FN(prox_vec3) p = T[k]->v[i], q = T[k]->v[i1];
        if (sg[k][i] * sg[k][i1] < 0 &&
            PROX_FN(prox_detail_pair_cross)(p, q, T[1 - k], &t, out ? bary : 0)) {
          if (out) {
            PROX_REAL eb[3] = {0, 0, 0};
            eb[i] = 1 - t;
            eb[i1] = t;
            PROX_FN(prox_detail_pair_side)
            (out, k, PROX_FN(prox_vmadd)(p, t, PROX_FN(prox_vsub)(q, p)), eb[0], eb[1], eb[2],
             PROX_FEATURE_EDGE, i);
            PROX_FN(prox_detail_pair_side)
            (out, 1 - k, PROX_FN(prox_detail_pair_tri_at)(T[1 - k], bary), bary[0], bary[1],
             bary[2], PROX_FEATURE_FACE, 0);
            out->sqdist = 0;
          }
          return 0;
        }
      }
    }
  }
  /* The fifteen candidates: q = 3k + i for vertex i of triangle k against
   * the other triangle, 6 + 3i + j for edge i of t1 against edge j of t2.
   * The answer is the first strict minimum in that order, that is the
   * least (value, q). The one with the least lower bound of its exact
   * value (prox_detail_tt_bounds) is evaluated first, then the others in
   * order, skipping those whose bound exceeds the best value found so far
   * by more than the kernels' error (8 eps S^2, taken as 32 eps S^2): such
   * a candidate's computed value is above the best one, so skipping it
   * changes no bit of the result. (A full sort by bound skips a few more
   * but costs more than they do.) */
  PROX_FN(prox_detail_tt_bounds)(T, lb, &s);
  qm = 0;
  for (o = 1; o < 15; ++o)
    qm = lb[o] < lb[qm] ? o : qm;
  margin = PROX_R(32.0) * PROX_EPS * s * s;
  for (k = -1; k < 15; ++k) {
    int iq = k < 0 ? qm : k;
    if (k == qm || lb[iq] - margin > bd2) continue;
    if (iq < 6) {
      int kk = iq / 3, iv = iq % 3;
      d2 = PROX_FN(prox_point_triangle)(T[kk]->v[iv], T[1 - kk], out ? &c : 0);
      if (d2 < bd2 || (d2 == bd2 && iq < bq)) {
        bd2 = d2;
        bq = iq;
        if (out) {
          PROX_REAL vb[3] = {0, 0, 0};
          vb[iv] = 1;
          PROX_FN(prox_detail_pair_side)
          (&best, kk, T[kk]->v[iv], vb[0], vb[1], vb[2], PROX_FEATURE_VERTEX, iv);
          PROX_FN(prox_detail_pair_tri_side)(&best, 1 - kk, &c);
        }
      }
    } else {
      PROX_FN(prox_segment) e1, e2;
      i = (iq - 6) / 3;
      j = (iq - 6) % 3;
      e1.a = t1->v[i];
      e1.b = t1->v[i == 2 ? 0 : i + 1];
      e2.a = t2->v[j];
      e2.b = t2->v[j == 2 ? 0 : j + 1];
      d2 = PROX_FN(prox_segment_segment)(&e1, &e2, out ? &r : 0);
      if (d2 < bd2 || (d2 == bd2 && iq < bq)) {
        bd2 = d2;
        bq = iq;
        if (out) {
          PROX_FN(prox_detail_pair_edge_side)(&best, 0, &r, 0, i);
          PROX_FN(prox_detail_pair_edge_side)(&best, 1, &r, 1, j);
        }
      }
    }
  }
  if (!(bd2 <= PROX_REAL_MAX)) return PROX_FN(prox_detail_pair_nan)(out);
  best.sqdist = bd2;
  if (out) *out = best;
  return bd2;
}

/* ------------------------------ sphere, capsule --------------------------- */

/// Internal: turns the closest pair of two cores (points, segments,
/// triangles) in *res into that of the solids of radius r0 and r1 around
/// them. solid[k] is 0 for a bare core (its point and feature are kept), 1
/// for a sphere (feature FACE 0 on the surface), 2 for a capsule (the core
/// segment's feature on the surface); a solid that overlaps the other object
/// gets feature INTERIOR and both points become one common point. Returns
/// the squared distance of the solids (NaN for a non-finite radius).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_pair_inflate)(PROX_FN(prox_pair) * res,
                                                               PROX_REAL d2c, PROX_REAL r0,
                                                               PROX_REAL r1, int solid0, int solid1,
                                                               PROX_FN(prox_pair) * out) {
  PROX_FN(prox_vec3) p = res->point[0], q = res->point[1];
  PROX_FN(prox_vec3) pq = PROX_FN(prox_vsub)(q, p);
  PROX_REAL dc, gap;
  r0 = PROX_FABS(r0);
  r1 = PROX_FABS(r1);
  if (!(d2c <= PROX_REAL_MAX) || r0 - r0 != 0 || r1 - r1 != 0)
    return PROX_FN(prox_detail_pair_nan)(out);
  dc = PROX_SQRT(d2c);
  gap = (dc - r0) - r1;
  if (gap > 0) {
    /* Separated: move each core point towards the other by its radius. */
    PROX_REAL len = PROX_FN(prox_vlen)(pq);
    if (len > 0) {
      res->point[0] = PROX_FN(prox_vmadd)(p, r0 / len, pq);
      res->point[1] = PROX_FN(prox_vmadd)(q, -r1 / len, pq);
    }
    /* When the radii are small against the core distance, subtract from
     * the core's squared distance (no rounding of it when they are 0):
     * (dc - R)^2 = dc^2 - R (dc + gap). */
    PROX_REAL R = r0 + r1;
    res->sqdist = gap > R ? d2c - R * (dc + gap) : gap * gap;
    if (solid0 == 1) res->feature[0].kind = PROX_FEATURE_FACE;
    if (solid1 == 1) res->feature[1].kind = PROX_FEATURE_FACE;
    if (solid0 == 1) res->feature[0].index = 0;
    if (solid1 == 1) res->feature[1].index = 0;
  } else {
    /* Overlapping: a common point on the core-to-core segment, within r0
     * of p and r1 of q (the middle of that range; a bare core's own point
     * when one radius is 0). */
    PROX_FN(prox_vec3) x;
    PROX_REAL len = PROX_FN(prox_vlen)(pq);
    if (r1 == 0) {
      x = q;
    } else if (r0 == 0 || !(len > 0)) {
      x = p;
    } else {
      PROX_REAL lo = len - r1 > 0 ? len - r1 : 0;
      PROX_REAL hi = len < r0 ? len : r0;
      PROX_REAL m = PROX_R(0.5) * (lo + hi);
      x = PROX_FN(prox_vmadd)(p, m / len, pq);
    }
    res->point[0] = res->point[1] = x;
    res->sqdist = 0;
    if (solid0) res->feature[0].kind = PROX_FEATURE_INTERIOR;
    if (solid1) res->feature[1].kind = PROX_FEATURE_INTERIOR;
    if (solid0) res->feature[0].index = 0;
    if (solid1) res->feature[1].index = 0;
  }
  if (out) *out = *res;
  return res->sqdist;
}

/// Internal: side k of *out from a point-segment (K1) result.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_pair_seg_side)(PROX_FN(prox_pair) * out, int k,
                                                           const PROX_FN(prox_closest) * c) {
  PROX_FN(prox_detail_pair_side)
  (out, k, c->point, c->param[0], 0, 0, c->feature.kind, c->feature.index);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_sphere_sphere)(const PROX_FN(prox_sphere) * s0,
                                                  const PROX_FN(prox_sphere) * s1,
                                                  PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  /* The center distance from the exact difference, rounded once. */
  PROX_FN(prox_detail_wvec3)
  w = PROX_FN(prox_detail_wvdiff)(s1->center, s0->center);
  PROX_REAL d2 = PROX_FN(prox_detail_wreal)(PROX_FN(prox_detail_wvdot)(w, w));
  PROX_FN(prox_detail_pair_side)
  (&r, 0, s0->center, 0, 0, 0, PROX_FEATURE_VERTEX, 0);
  PROX_FN(prox_detail_pair_side)
  (&r, 1, s1->center, 0, 0, 0, PROX_FEATURE_VERTEX, 0);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, s0->radius, s1->radius, 1, 1, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_sphere_capsule)(const PROX_FN(prox_sphere) * s,
                                                   const PROX_FN(prox_capsule) * cap,
                                                   PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_closest) c;
  PROX_FN(prox_segment) g;
  PROX_REAL d2;
  g.a = cap->a;
  g.b = cap->b;
  d2 = PROX_FN(prox_point_segment)(s->center, &g, &c);
  PROX_FN(prox_detail_pair_side)
  (&r, 0, s->center, 0, 0, 0, PROX_FEATURE_VERTEX, 0);
  PROX_FN(prox_detail_pair_seg_side)(&r, 1, &c);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, s->radius, cap->radius, 1, 2, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_capsule_capsule)(const PROX_FN(prox_capsule) * c0,
                                                    const PROX_FN(prox_capsule) * c1,
                                                    PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_segment) g0, g1;
  PROX_REAL d2;
  g0.a = c0->a;
  g0.b = c0->b;
  g1.a = c1->a;
  g1.b = c1->b;
  d2 = PROX_FN(prox_segment_segment)(&g0, &g1, &r);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, c0->radius, c1->radius, 2, 2, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_sphere_segment)(const PROX_FN(prox_sphere) * s,
                                                   const PROX_FN(prox_segment) * g,
                                                   PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_closest) c;
  PROX_REAL d2 = PROX_FN(prox_point_segment)(s->center, g, &c);
  PROX_FN(prox_detail_pair_side)
  (&r, 0, s->center, 0, 0, 0, PROX_FEATURE_VERTEX, 0);
  PROX_FN(prox_detail_pair_seg_side)(&r, 1, &c);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, s->radius, 0, 1, 0, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_capsule_segment)(const PROX_FN(prox_capsule) * cap,
                                                    const PROX_FN(prox_segment) * g,
                                                    PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_segment) g0;
  PROX_REAL d2;
  g0.a = cap->a;
  g0.b = cap->b;
  d2 = PROX_FN(prox_segment_segment)(&g0, g, &r);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, cap->radius, 0, 2, 0, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_sphere_triangle)(const PROX_FN(prox_sphere) * s,
                                                    const PROX_FN(prox_triangle) * tri,
                                                    PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_closest) c;
  PROX_REAL d2 = PROX_FN(prox_point_triangle)(s->center, tri, &c);
  PROX_FN(prox_detail_pair_side)
  (&r, 0, s->center, 0, 0, 0, PROX_FEATURE_VERTEX, 0);
  PROX_FN(prox_detail_pair_tri_side)(&r, 1, &c);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, s->radius, 0, 1, 0, out);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_capsule_triangle)(const PROX_FN(prox_capsule) * cap,
                                                     const PROX_FN(prox_triangle) * tri,
                                                     PROX_FN(prox_pair) * out) {
  PROX_FN(prox_pair) r;
  PROX_FN(prox_segment) g;
  PROX_REAL d2;
  g.a = cap->a;
  g.b = cap->b;
  d2 = PROX_FN(prox_segment_triangle)(&g, tri, &r);
  return PROX_FN(prox_detail_pair_inflate)(&r, d2, cap->radius, 0, 2, 0, out);
}

#undef PROX_PAIR_TINY
