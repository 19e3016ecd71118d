/* SPDX-License-Identifier: MIT */
/* Template: the one home of the kernels' careful arithmetic. Instantiated
 * once per precision by vec.h, after vec.inl; every kernel template
 * (closest_point, closest_pair, raycast, overlap, contact) and the mesh
 * layer use it, and none has its own copy. It holds:
 *
 * - "wide" arithmetic with about twice the precision of PROX_REAL, for the
 *   rare ill-conditioned branches of the kernels (sliver triangles, flat
 *   tetrahedra, nearly parallel segments). For double it is double-double
 *   (a sum hi + lo of two doubles, error-free transformations); for float
 *   it is plain double.
 * - error-bounded orientation predicates: one floating-point filter for
 *   orient3d (prox_detail_orient_uvw, prox_detail_orient), its fallback in
 *   wide arithmetic (prox_detail_orient_wsign, which may answer 0 within
 *   rounding) and, for double coordinates (which float input converts to
 *   exactly), exact signs: filter, then floating-point expansions
 *   (Shewchuk 1997) in prox_detail_orient3d_sign and
 *   prox_detail_orient2d_sign.
 * - small helpers the kernels share: the largest magnitude of a vector,
 *   binary exponents, the numbering of box features, the cold-path
 *   qualifier PROX_COLD. The sin^2 thresholds of the wide and flat paths,
 *   PROX_WIDE_SIN2 and PROX_FLAT_SIN2, are precision constants and live
 *   with the others in detail/real_double.h and real_float.h.
 *
 * Exactness of the expansion predicates holds as long as no product of two
 * or three input coordinates underflows or overflows; prox_detail_wnormalize
 * scales their input first (see there). Beyond (values spread by more than
 * 2^300), prox_detail_xp_orient3d_exact falls back to integer arithmetic
 * over the whole range of double (prox_detail_xp_big_sign);
 * prox_detail_xp_orient2d_exact does not (products of two: exact for
 * values within 2^250 of one another). */

#ifndef PROX_DETAIL_EXACT_ONCE
#define PROX_DETAIL_EXACT_ONCE
/* PROX_COLD keeps the rare paths of a kernel (zero direction components,
 * uncertain signs, single points, non-finite input, the wide critical point
 * of nearly parallel segments) out of line, so that the common path stays
 * small enough for a caller to inline and keeps its values in registers. */
#ifndef PROX_COLD
#if defined(__CUDACC__)
#define PROX_COLD __noinline__
#elif defined(__GNUC__) || defined(__clang__)
#define PROX_COLD __attribute__((cold))
#else
#define PROX_COLD
#endif
#endif
/* PROX_DETAIL_COLD_KERNEL qualifies those rare paths: PROX_COLD, and under
 * GCC and clang static but not inline, and noinline. A static helper that
 * is called once is inlined whatever its cold attribute (GCC's
 * -finline-functions-called-once), which put the careful paths of
 * ray-triangle back into its hot path and cost it 1-2% of its instructions
 * (issue 14); `inline` with noinline draws a warning, and `unused` keeps an
 * unused one (a translation unit that calls no ray cast) from warning. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define PROX_DETAIL_COLD_KERNEL PROX_COLD __attribute__((noinline, unused)) static
#else
#define PROX_DETAIL_COLD_KERNEL PROX_COLD PROX_DETAIL_KERNEL
#endif

/// Internal: an orientation filter's verdict is trusted only when its
/// bound err is a normal number well above underflow (below this the
/// products may have lost their low digits to it). Expands to the
/// precision of the template that uses it.
#define PROX_DETAIL_ORIENT_MIN (PROX_REAL_MIN / (PROX_EPS * PROX_EPS))
#endif /* PROX_DETAIL_EXACT_ONCE */

/* ------------------------------------------------------------------------ */
/* Shared helpers                                                           */
/* ------------------------------------------------------------------------ */

/// Internal: the largest magnitude of the components of a.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_maxabs)(PROX_FN(prox_vec3) a) {
  PROX_REAL m = PROX_FABS(a.x), y = PROX_FABS(a.y), z = PROX_FABS(a.z);
  m = y > m ? y : m;
  return z > m ? z : m;
}

/// Internal: the exponent e with m 2^-e in [1/2, 1); 0 for m zero or not
/// finite.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_exp)(double m) {
  int e = 0;
  if (m > 0 && m <= DBL_MAX) (void)frexp(m, &e);
  return e;
}

/// Internal: the feature of a box point from the clamp state c[i] (-1 at
/// the low side, +1 at the high side, 0 inside) of each axis. Face 2i + (c
/// > 0); edge 4k + bits of the two clamped axes (lower axis bit 0) with k
/// the free axis; vertex bit i set at the high side of axis i.
PROX_DETAIL_SMALL_KERNEL prox_feature PROX_FN(prox_detail_box_feature)(int c0, int c1, int c2) {
  prox_feature f;
  int n = (c0 != 0) + (c1 != 0) + (c2 != 0);
  if (n == 0) {
    f.kind = PROX_FEATURE_INTERIOR;
    f.index = 0;
  } else if (n == 1) {
    f.kind = PROX_FEATURE_FACE;
    f.index = c0 ? (c0 > 0) : (c1 ? 2 + (c1 > 0) : 4 + (c2 > 0));
  } else if (n == 2) {
    f.kind = PROX_FEATURE_EDGE;
    f.index = !c0 ? (c1 > 0) | ((c2 > 0) << 1)
                  : (!c1 ? 4 + ((c0 > 0) | ((c2 > 0) << 1)) : 8 + ((c0 > 0) | ((c1 > 0) << 1)));
  } else {
    f.kind = PROX_FEATURE_VERTEX;
    f.index = (c0 > 0) | ((c1 > 0) << 1) | ((c2 > 0) << 2);
  }
  return f;
}

/* ------------------------------------------------------------------------ */
/* Wide arithmetic: double-double for double, double for float              */
/* ------------------------------------------------------------------------ */

#if PROX_IS_DOUBLE
/// Wide real for double kernels: the unevaluated sum hi + lo.
typedef struct prox_detail_wide {
  double hi, lo;
} prox_detail_wide;
#else
/// Wide real for float kernels: a double.
typedef double prox_detail_widef;
#endif

/// A vector of wide reals.
typedef struct PROX_FN(prox_detail_wvec3) {
  PROX_FN(prox_detail_wide) x, y, z;
} PROX_FN(prox_detail_wvec3);

#if PROX_IS_DOUBLE
/// The wide value of a.
PROX_DETAIL_KERNEL prox_detail_wide prox_detail_wfrom(double a) {
  prox_detail_wide r;
  r.hi = a;
  r.lo = 0.0;
  return r;
}

/// hi + lo renormalised, |lo| <= ulp(hi)/2 (requires |hi| >= |lo|).
PROX_DETAIL_KERNEL prox_detail_wide prox_detail_wquick(double hi, double lo) {
  prox_detail_wide r;
  r.hi = hi + lo;
  r.lo = lo - (r.hi - hi);
  return r;
}

/// The exact difference a - b.
PROX_DETAIL_KERNEL prox_detail_wide prox_detail_wdiff(double a, double b) {
  prox_detail_wide r;
  double bb;
  r.hi = a - b;
  bb = r.hi - a;
  r.lo = (a - (r.hi - bb)) - (b + bb);
  return r;
}

/// x + y, relative error about 2^-104.
PROX_DETAIL_KERNEL prox_detail_wide prox_detail_wadd(prox_detail_wide x, prox_detail_wide y) {
  double s = x.hi + y.hi;
  double bb = s - x.hi;
  double e = (x.hi - (s - bb)) + (y.hi - bb);
  return prox_detail_wquick(s, e + x.lo + y.lo);
}

/// -x.
PROX_DETAIL_KERNEL prox_detail_wide prox_detail_wneg(prox_detail_wide x) {
  x.hi = -x.hi;
  x.lo = -x.lo;
  return x;
}

/// x * y, relative error about 2^-102.
PROX_DETAIL_KERNEL prox_detail_wide prox_detail_wmul(prox_detail_wide x, prox_detail_wide y) {
  double p = x.hi * y.hi;
  double e = prox_two_prod_err(x.hi, y.hi, p);
  e += x.hi * y.lo + x.lo * y.hi;
  return prox_detail_wquick(p, e);
}

/// x rounded to double.
PROX_DETAIL_KERNEL double prox_detail_wreal(prox_detail_wide x) {
  return x.hi + x.lo;
}

/// x as a double (the same as prox_detail_wreal for double kernels).
PROX_DETAIL_KERNEL double prox_detail_wapprox(prox_detail_wide x) {
  return x.hi + x.lo;
}

/// Scales the n doubles x[0..n) by one power of two so that the largest
/// magnitude lies within [2^-200, 2^200], where products of up to four of
/// them (with their rounding errors, as two_prod forms them) neither
/// overflow nor underflow; returns the factor applied (1 when none). Out
/// of that range the largest magnitude is brought to [1/2, 1) (the factor
/// kept within 2^+-1000), so that the smaller values keep as much room
/// above underflow as they can: products of three values within 2^300 of
/// the largest stay above 2^-968, where expansion arithmetic is exact. A
/// ratio of homogeneous polynomials of equal degree, and the sign of one,
/// is unchanged: scaling up is exact, and scaling down is exact but for
/// parts below 2^-1074 of the largest magnitude. Non-finite values: no
/// scaling.
PROX_DETAIL_KERNEL double prox_detail_wnormalize(double *x, int n) {
  /* 2^200, exactly. */
  const double big = 1.6069380442589903e+60;
  double m = 0, f;
  int i, e;
  for (i = 0; i < n; ++i)
    m = fabs(x[i]) > m ? fabs(x[i]) : m;
  if (!(m > big && m <= DBL_MAX) && !(m < 1 / big && m > 0)) return 1;
  (void)frexp(m, &e);
  e = e > 1000 ? 1000 : (e < -1000 ? -1000 : e);
  f = ldexp(1.0, -e);
  for (i = 0; i < n; ++i)
    x[i] *= f;
  return f;
}
#else
/// The wide (double) value of a.
PROX_DETAIL_KERNEL double prox_detail_wfromf(float a) {
  return (double)a;
}
/// a - b in double: exact unless the exponents differ by more than 29.
PROX_DETAIL_KERNEL double prox_detail_wdifff(float a, float b) {
  return (double)a - (double)b;
}
/// x + y in double.
PROX_DETAIL_KERNEL double prox_detail_waddf(double x, double y) {
  return x + y;
}
/// -x.
PROX_DETAIL_KERNEL double prox_detail_wnegf(double x) {
  return -x;
}
/// x * y in double.
PROX_DETAIL_KERNEL double prox_detail_wmulf(double x, double y) {
  return x * y;
}
/// x rounded to float.
PROX_DETAIL_KERNEL float prox_detail_wrealf(double x) {
  return (float)x;
}
/// x as a double, not rounded to float: ratios and tolerances of wide
/// quantities (degree 4 in the coordinates) are formed in double, where
/// they neither underflow nor lose digits as they would in float.
PROX_DETAIL_KERNEL double prox_detail_wapproxf(double x) {
  return x;
}
#endif

/// x - y in wide arithmetic.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wide)
    PROX_FN(prox_detail_wsub)(PROX_FN(prox_detail_wide) x, PROX_FN(prox_detail_wide) y) {
  return PROX_FN(prox_detail_wadd)(x, PROX_FN(prox_detail_wneg)(y));
}

/// The exact (for double) difference a - b of two vectors.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wvec3)
    PROX_FN(prox_detail_wvdiff)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  PROX_FN(prox_detail_wvec3) r;
  r.x = PROX_FN(prox_detail_wdiff)(a.x, b.x);
  r.y = PROX_FN(prox_detail_wdiff)(a.y, b.y);
  r.z = PROX_FN(prox_detail_wdiff)(a.z, b.z);
  return r;
}

/// Wide dot product a . b.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wide)
    PROX_FN(prox_detail_wvdot)(PROX_FN(prox_detail_wvec3) a, PROX_FN(prox_detail_wvec3) b) {
  return PROX_FN(prox_detail_wadd)(PROX_FN(prox_detail_wadd)(PROX_FN(prox_detail_wmul)(a.x, b.x),
                                                             PROX_FN(prox_detail_wmul)(a.y, b.y)),
                                   PROX_FN(prox_detail_wmul)(a.z, b.z));
}

/// Wide cross product a x b.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wvec3)
    PROX_FN(prox_detail_wvcross)(PROX_FN(prox_detail_wvec3) a, PROX_FN(prox_detail_wvec3) b) {
  PROX_FN(prox_detail_wvec3) r;
  r.x = PROX_FN(prox_detail_wsub)(PROX_FN(prox_detail_wmul)(a.y, b.z),
                                  PROX_FN(prox_detail_wmul)(a.z, b.y));
  r.y = PROX_FN(prox_detail_wsub)(PROX_FN(prox_detail_wmul)(a.z, b.x),
                                  PROX_FN(prox_detail_wmul)(a.x, b.z));
  r.z = PROX_FN(prox_detail_wsub)(PROX_FN(prox_detail_wmul)(a.x, b.y),
                                  PROX_FN(prox_detail_wmul)(a.y, b.x));
  return r;
}

/// The vector rounded to PROX_REAL.
PROX_DETAIL_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_detail_wvreal)(PROX_FN(prox_detail_wvec3) a) {
  return PROX_FN(prox_v3)(PROX_FN(prox_detail_wreal)(a.x), PROX_FN(prox_detail_wreal)(a.y),
                          PROX_FN(prox_detail_wreal)(a.z));
}

/// Internal: a vector of PROX_REAL as a wide vector.
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wvec3) PROX_FN(prox_detail_wvfrom)(PROX_FN(prox_vec3) a) {
  PROX_FN(prox_detail_wvec3) r;
  r.x = PROX_FN(prox_detail_wfrom)(a.x);
  r.y = PROX_FN(prox_detail_wfrom)(a.y);
  r.z = PROX_FN(prox_detail_wfrom)(a.z);
  return r;
}

/// Internal: x / y rounded to PROX_REAL (y > 0), one rounding plus a
/// relative error about eps^2.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_wratio)(PROX_FN(prox_detail_wide) x,
                                                         PROX_FN(prox_detail_wide) y) {
#if PROX_IS_DOUBLE
  double q1 = x.hi / y.hi;
  prox_detail_wide r = prox_detail_wsub(x, prox_detail_wmul(prox_detail_wfrom(q1), y));
  return q1 + prox_detail_wreal(r) / prox_detail_wreal(y);
#else
  return (float)(x / y);
#endif
}

/// Internal: the leading part of a wide real (for comparisons).
PROX_DETAIL_KERNEL double PROX_FN(prox_detail_whi)(PROX_FN(prox_detail_wide) x) {
#if PROX_IS_DOUBLE
  return x.hi;
#else
  return x;
#endif
}

/// Internal: X 2^-e for a wide vector (exact, but for low parts that fall
/// below 2^-1074).
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_wvldexp)(PROX_FN(prox_detail_wvec3) * X, int e) {
#if PROX_IS_DOUBLE
  X->x.hi = ldexp(X->x.hi, -e);
  X->x.lo = ldexp(X->x.lo, -e);
  X->y.hi = ldexp(X->y.hi, -e);
  X->y.lo = ldexp(X->y.lo, -e);
  X->z.hi = ldexp(X->z.hi, -e);
  X->z.lo = ldexp(X->z.lo, -e);
#else
  X->x = ldexp(X->x, -e);
  X->y = ldexp(X->y, -e);
  X->z = ldexp(X->z, -e);
#endif
}

/// Internal: scales a wide vector by the power of two 2^-e that brings the
/// largest magnitude of its leading parts into [1/2, 1), and returns e (0,
/// and no scaling, for a zero or non-finite vector).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_wvscale)(PROX_FN(prox_detail_wvec3) * X) {
  double m = fabs(PROX_FN(prox_detail_whi)(X->x));
  double my = fabs(PROX_FN(prox_detail_whi)(X->y));
  double mz = fabs(PROX_FN(prox_detail_whi)(X->z));
  int e;
  m = my > m ? my : m;
  m = mz > m ? mz : m;
  e = PROX_FN(prox_detail_exp)(m);
  if (e) PROX_FN(prox_detail_wvldexp)(X, e);
  return e;
}

/* ------------------------------------------------------------------------ */
/* Orientation: the filter and its wide fallback                            */
/* ------------------------------------------------------------------------ */

/// Internal: the orientation determinant u . (v x w) of the differences
/// u = b - a, v = c - a, w = d - a of four points, that is orient3d(a, b,
/// c, d) = (b - a) . ((c - a) x (d - a)), and in *err a bound on its
/// rounding error: Shewchuk's orient3d bound is about 7 eps/2 times the
/// permanent (of the rounded differences); 8 eps is used. The one
/// floating-point orientation filter of closest.h, raycast.h and overlap.h;
/// its verdict holds when err >= PROX_DETAIL_ORIENT_MIN.
PROX_DETAIL_SMALL_KERNEL PROX_REAL PROX_FN(prox_detail_orient_uvw)(PROX_FN(prox_vec3) u,
                                                                   PROX_FN(prox_vec3) v,
                                                                   PROX_FN(prox_vec3) w,
                                                                   PROX_REAL *err) {
  PROX_REAL cx = v.y * w.z - v.z * w.y, cy = v.z * w.x - v.x * w.z;
  PROX_REAL cz = v.x * w.y - v.y * w.x;
  PROX_REAL px = PROX_FABS(v.y * w.z) + PROX_FABS(v.z * w.y);
  PROX_REAL py = PROX_FABS(v.z * w.x) + PROX_FABS(v.x * w.z);
  PROX_REAL pz = PROX_FABS(v.x * w.y) + PROX_FABS(v.y * w.x);
  *err = PROX_R(8.0) * PROX_EPS * (PROX_FABS(u.x) * px + PROX_FABS(u.y) * py + PROX_FABS(u.z) * pz);
  return u.x * cx + u.y * cy + u.z * cz;
}

/// Internal: orientation determinant (b - a) . ((c - a) x (d - a)) of four
/// points and a bound on its rounding error in *err (the filter
/// prox_detail_orient_uvw on the rounded differences).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_orient)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b,
                                                         PROX_FN(prox_vec3) c, PROX_FN(prox_vec3) d,
                                                         PROX_REAL *err) {
  return PROX_FN(prox_detail_orient_uvw)(PROX_FN(prox_vsub)(b, a), PROX_FN(prox_vsub)(c, a),
                                         PROX_FN(prox_vsub)(d, a), err);
}

/// Internal: the orientation (b - a) . ((c - a) x (d - a)) times 2^-3e in
/// wide arithmetic, from the exact differences scaled by 2^-e (callers
/// pick e so that the differences have magnitude about 1: their products
/// then neither overflow nor underflow, and ratios of orientations with the
/// same e are those of the unscaled ones).
PROX_DETAIL_KERNEL PROX_FN(prox_detail_wide)
    PROX_FN(prox_detail_worient)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b, PROX_FN(prox_vec3) c,
                                 PROX_FN(prox_vec3) d, int e) {
  PROX_FN(prox_detail_wvec3) B = PROX_FN(prox_detail_wvdiff)(b, a);
  PROX_FN(prox_detail_wvec3) C = PROX_FN(prox_detail_wvdiff)(c, a);
  PROX_FN(prox_detail_wvec3) D = PROX_FN(prox_detail_wvdiff)(d, a);
  PROX_FN(prox_detail_wvldexp)(&B, e);
  PROX_FN(prox_detail_wvldexp)(&C, e);
  PROX_FN(prox_detail_wvldexp)(&D, e);
  return PROX_FN(prox_detail_wvdot)(B, PROX_FN(prox_detail_wvcross)(C, D));
}

/// Internal: the sign of the orientation (b - a) . ((c - a) x (d - a)) in
/// wide arithmetic: +1, -1, or 0 when within the wide rounding bound (64
/// eps^2 times the permanent) of zero. Each exact difference is scaled by
/// its own power of two to magnitude about 1 first (positive factors: the
/// sign is kept), so that no product overflows or underflows at any input
/// scale.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_orient_wsign)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b,
                                                         PROX_FN(prox_vec3) c,
                                                         PROX_FN(prox_vec3) d) {
  PROX_FN(prox_detail_wvec3) B = PROX_FN(prox_detail_wvdiff)(b, a);
  PROX_FN(prox_detail_wvec3) C = PROX_FN(prox_detail_wvdiff)(c, a);
  PROX_FN(prox_detail_wvec3) D = PROX_FN(prox_detail_wvdiff)(d, a);
  double bx, by, bz, cx, cy, cz, dx, dy, dz, perm, o;
  (void)PROX_FN(prox_detail_wvscale)(&B);
  (void)PROX_FN(prox_detail_wvscale)(&C);
  (void)PROX_FN(prox_detail_wvscale)(&D);
  o = PROX_FN(prox_detail_wapprox)(
      PROX_FN(prox_detail_wvdot)(B, PROX_FN(prox_detail_wvcross)(C, D)));
  bx = fabs(PROX_FN(prox_detail_whi)(B.x));
  by = fabs(PROX_FN(prox_detail_whi)(B.y));
  bz = fabs(PROX_FN(prox_detail_whi)(B.z));
  cx = fabs(PROX_FN(prox_detail_whi)(C.x));
  cy = fabs(PROX_FN(prox_detail_whi)(C.y));
  cz = fabs(PROX_FN(prox_detail_whi)(C.z));
  dx = fabs(PROX_FN(prox_detail_whi)(D.x));
  dy = fabs(PROX_FN(prox_detail_whi)(D.y));
  dz = fabs(PROX_FN(prox_detail_whi)(D.z));
  perm = bx * (cy * dz + cz * dy) + by * (cz * dx + cx * dz) + bz * (cx * dy + cy * dx);
  perm *= 64.0 * (double)PROX_EPS * (double)PROX_EPS;
  return o > perm ? 1 : (o < -perm ? -1 : 0);
}

/* ------------------------------------------------------------------------ */
/* Exact arithmetic on floating-point expansions (Shewchuk 1997), double    */
/* only: shared by both precisions (float values are exact doubles).        */
/* ------------------------------------------------------------------------ */
#if PROX_IS_DOUBLE

/// Internal: a + b = *s + *e exactly (Knuth's two-sum).
PROX_DETAIL_KERNEL void prox_detail_xp_two_sum(double a, double b, double *s, double *e) {
  double x = a + b;
  double bv = x - a;
  double av = x - bv;
  *s = x;
  *e = (a - av) + (b - bv);
}

/// Internal: a * b = *p + *e exactly (no underflow), by prox_two_prod_err.
PROX_DETAIL_KERNEL void prox_detail_xp_two_prod(double a, double b, double *p, double *e) {
  double x = a * b;
  *p = x;
  *e = prox_two_prod_err(a, b, x);
}

/// Internal: adds b to the expansion e[0..n) (non-overlapping components in
/// increasing magnitude) in place, dropping zero components; returns the
/// new length (at most n + 1). Shewchuk's GROW-EXPANSION.
PROX_DETAIL_KERNEL int prox_detail_xp_grow(double *e, int n, double b) {
  double q = b, h;
  int i, k = 0;
  for (i = 0; i < n; ++i) {
    prox_detail_xp_two_sum(q, e[i], &q, &h);
    if (h != 0) e[k++] = h;
  }
  if (q != 0) e[k++] = q;
  return k;
}

/// Internal: the sign (-1, 0, 1) of the value of an expansion.
PROX_DETAIL_KERNEL int prox_detail_xp_sign(const double *e, int n) {
  if (n == 0) return 0;
  return e[n - 1] > 0 ? 1 : (e[n - 1] < 0 ? -1 : 0);
}

/// Internal: adds s * a * b to the expansion e[0..n); returns its length.
PROX_DETAIL_KERNEL int prox_detail_xp_add2(double *e, int n, double s, double a, double b) {
  double p, q;
  prox_detail_xp_two_prod(s * a, b, &p, &q);
  n = prox_detail_xp_grow(e, n, q);
  return prox_detail_xp_grow(e, n, p);
}

/// Internal: adds s * a * b * c (s = +-1) to e[0..n); returns its length.
PROX_DETAIL_KERNEL int prox_detail_xp_add3(double *e, int n, double s, double a, double b,
                                           double c) {
  double p, q, r, t;
  prox_detail_xp_two_prod(s * a, b, &p, &q);
  prox_detail_xp_two_prod(q, c, &r, &t);
  n = prox_detail_xp_grow(e, n, t);
  n = prox_detail_xp_grow(e, n, r);
  prox_detail_xp_two_prod(p, c, &r, &t);
  n = prox_detail_xp_grow(e, n, t);
  return prox_detail_xp_grow(e, n, r);
}

/// Internal: adds s * det[x; y; z] = s * x . (y x z) to e[0..n) exactly;
/// returns its length (grows by at most 24).
PROX_DETAIL_KERNEL int prox_detail_xp_det3(double *e, int n, double s, const double *x,
                                           const double *y, const double *z) {
  n = prox_detail_xp_add3(e, n, s, x[0], y[1], z[2]);
  n = prox_detail_xp_add3(e, n, -s, x[0], y[2], z[1]);
  n = prox_detail_xp_add3(e, n, s, x[1], y[2], z[0]);
  n = prox_detail_xp_add3(e, n, -s, x[1], y[0], z[2]);
  n = prox_detail_xp_add3(e, n, s, x[2], y[0], z[1]);
  return prox_detail_xp_add3(e, n, -s, x[2], y[1], z[0]);
}

/* ------------------------------------------------------------------------ */
/* Exact signs over the whole range of double (integer arithmetic)          */
/* ------------------------------------------------------------------------ */

/// Internal: 32-bit limbs of the accumulator of prox_detail_xp_big_sum:
/// products of three finite doubles lie between 2^-3378 and 2^3072 with
/// 159-bit significands, so a sum of a few dozen of them, aligned at the
/// smallest, fits in 6,456 bits with its sign.
#define PROX_DETAIL_XP_BIG_LIMBS 206

/// Internal: the significand of x (finite, nonzero) as an integer m in
/// [2^52, 2^53), in two 32-bit limbs, and the exponent q: |x| = m 2^q.
/// A non-finite x (which the callers' answers do not depend on: they
/// report non-finite input apart) gives m = 0, q = 0, so that no
/// conversion leaves the range of uint64_t.
PROX_DETAIL_KERNEL int prox_detail_xp_big_split(double x, uint32_t *m) {
  int e;
  double f;
  if (!(fabs(x) <= DBL_MAX)) {
    m[0] = m[1] = 0;
    return 0;
  }
  f = frexp(fabs(x), &e);
  uint64_t v = (uint64_t)ldexp(f, 53);
  m[0] = (uint32_t)v;
  m[1] = (uint32_t)(v >> 32);
  return e - 53;
}

/// Internal: the sum over k < n of s[k] a[k] b[k] c[k] (s[k] = +1 or -1;
/// finite doubles; n <= 24), exactly, as the two's complement integer
/// acc[0..PROX_DETAIL_XP_BIG_LIMBS) (32-bit limbs, least significant
/// first) times 2^q, q returned. Integer arithmetic over the whole range
/// of double: the fallback of the expansion predicates, and of
/// prox_detail_rc_plane_t, where their products could leave the range in
/// which expansion arithmetic is exact (below about 2^-900: a subnormal
/// direction component, coordinates spread by more than 2^300); slower,
/// and rare.
PROX_DETAIL_KERNEL int prox_detail_xp_big_sum(const double *a, const double *b, const double *c,
                                              const int *s, int n, uint32_t *acc) {
  uint32_t m[3][2], p[4], r[7];
  int q[24], k, i, j, qmin = 1 << 30, L, sh;
  for (i = 0; i < PROX_DETAIL_XP_BIG_LIMBS; ++i)
    acc[i] = 0;
  for (k = 0; k < n; ++k) {
    q[k] = a[k] == 0 || b[k] == 0 || c[k] == 0
               ? 1 << 30
               : prox_detail_xp_big_split(a[k], m[0]) + prox_detail_xp_big_split(b[k], m[1]) +
                     prox_detail_xp_big_split(c[k], m[2]);
    qmin = q[k] < qmin ? q[k] : qmin;
  }
  for (k = 0; k < n; ++k) {
    int neg = (s[k] < 0) != ((a[k] < 0) != ((b[k] < 0) != (c[k] < 0)));
    uint64_t t;
    if (q[k] == 1 << 30) continue;
    (void)prox_detail_xp_big_split(a[k], m[0]);
    (void)prox_detail_xp_big_split(b[k], m[1]);
    (void)prox_detail_xp_big_split(c[k], m[2]);
    /* p = |a| |b| (4 limbs), then r = p |c| (6 limbs). */
    for (i = 0; i < 4; ++i)
      p[i] = 0;
    for (i = 0; i < 2; ++i) {
      t = 0;
      for (j = 0; j < 2; ++j) {
        t += (uint64_t)m[0][i] * m[1][j] + p[i + j];
        p[i + j] = (uint32_t)t;
        t >>= 32;
      }
      p[i + 2] = (uint32_t)t;
    }
    for (i = 0; i < 7; ++i)
      r[i] = 0;
    for (i = 0; i < 4; ++i) {
      t = 0;
      for (j = 0; j < 2; ++j) {
        t += (uint64_t)p[i] * m[2][j] + r[i + j];
        r[i + j] = (uint32_t)t;
        t >>= 32;
      }
      r[i + 2] = (uint32_t)t;
    }
    /* Shifted to bit q[k] - qmin of the accumulator, added or subtracted
     * with the carry or borrow carried to its top. */
    L = (q[k] - qmin) >> 5;
    sh = (q[k] - qmin) & 31;
    if (sh)
      for (i = 6; i >= 0; --i)
        r[i] = (r[i] << sh) | (i ? r[i - 1] >> (32 - sh) : 0);
    t = 0;
    for (i = 0; L + i < PROX_DETAIL_XP_BIG_LIMBS; ++i) {
      uint64_t x = i < 7 ? r[i] : 0;
      if (i >= 7 && t == 0) break;
      if (!neg) {
        t += (uint64_t)acc[L + i] + x;
        acc[L + i] = (uint32_t)t;
        t >>= 32;
      } else {
        /* t holds the borrow. */
        uint64_t y = (uint64_t)acc[L + i] - x - t;
        acc[L + i] = (uint32_t)y;
        t = (y >> 63) & 1;
      }
    }
  }
  return qmin == 1 << 30 ? 0 : qmin;
}

/// Internal: the exact sign of the sum of prox_detail_xp_big_sum.
PROX_DETAIL_KERNEL int prox_detail_xp_big_sign(const double *a, const double *b, const double *c,
                                               const int *s, int n) {
  uint32_t acc[PROX_DETAIL_XP_BIG_LIMBS];
  int i;
  (void)prox_detail_xp_big_sum(a, b, c, s, n, acc);
  if (acc[PROX_DETAIL_XP_BIG_LIMBS - 1] >> 31) return -1;
  for (i = 0; i < PROX_DETAIL_XP_BIG_LIMBS; ++i)
    if (acc[i]) return 1;
  return 0;
}

/// Internal: the sum of prox_detail_xp_big_sum as f 2^*e, f a double in
/// [1/2, 1) with the sum's sign (to about an ulp: its leading 96 bits), or
/// 0 (with *e 0) when the sum is exactly zero.
PROX_DETAIL_KERNEL double prox_detail_xp_big_value(const double *a, const double *b,
                                                   const double *c, const int *s, int n, int *e) {
  uint32_t acc[PROX_DETAIL_XP_BIG_LIMBS];
  int q = prox_detail_xp_big_sum(a, b, c, s, n, acc), neg, i, top, ef;
  double v;
  neg = (int)(acc[PROX_DETAIL_XP_BIG_LIMBS - 1] >> 31);
  if (neg) {
    /* The magnitude: two's complement negation. */
    uint64_t t = 1;
    for (i = 0; i < PROX_DETAIL_XP_BIG_LIMBS; ++i) {
      t += (uint64_t)(uint32_t)~acc[i];
      acc[i] = (uint32_t)t;
      t >>= 32;
    }
  }
  for (top = PROX_DETAIL_XP_BIG_LIMBS - 1; top >= 0 && acc[top] == 0; --top) {
  }
  *e = 0;
  if (top < 0) return 0;
  /* The top three limbs (at most 96 bits, two roundings), scaled. */
  v = (double)acc[top];
  for (i = 1; i <= 2; ++i)
    v = v * 4294967296.0 + (top - i >= 0 ? (double)acc[top - i] : 0.0);
  v = frexp(v, &ef);
  *e = ef + q + 32 * (top - 2);
  return neg ? -v : v;
}

/// Internal: appends the six terms of s det[x; y; z] = s x . (y x z) to
/// the term lists of prox_detail_xp_big_sign; returns their new count.
PROX_DETAIL_KERNEL int prox_detail_xp_big_det3(double *a, double *b, double *c, int *s, int n,
                                               int sg, const double *x, const double *y,
                                               const double *z) {
  static const int P[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
  int k;
  for (k = 0; k < 6; ++k) {
    a[n] = x[P[k][0]];
    b[n] = y[P[k][1]];
    c[n] = z[P[k][2]];
    s[n++] = k & 1 ? -sg : sg;
  }
  return n;
}

/// Internal: whether the nonzero values x[0..n) all lie in [2^-e, 2^e]
/// (finite): then products of up to 900 / e of them, and their rounding
/// errors, stay in the range where expansion arithmetic is exact.
PROX_DETAIL_KERNEL int prox_detail_xp_in_range(const double *x, int n, int e) {
  double lo = ldexp(1.0, -e), hi = ldexp(1.0, e);
  int i;
  for (i = 0; i < n; ++i)
    if (x[i] != 0 && !(fabs(x[i]) >= lo && fabs(x[i]) <= hi)) return 0;
  return 1;
}

/// Internal: exact sign of orient3d(a, b, c, d) = (b - a) . ((c - a) x
/// (d - a)), the same orientation as prox_detail_orient. Points are arrays
/// of three doubles.
PROX_DETAIL_KERNEL int prox_detail_xp_orient3d_exact(const double *a, const double *b,
                                                     const double *c, const double *d) {
  double e[100], x[12];
  int n = 0, i;
  for (i = 0; i < 3; ++i) {
    x[i] = a[i];
    x[3 + i] = b[i];
    x[6 + i] = c[i];
    x[9 + i] = d[i];
  }
  prox_detail_wnormalize(x, 12);
  if (!prox_detail_xp_in_range(x, 12, 300)) {
    /* Spread beyond 2^300: the integer fallback. */
    double A[24], B[24], C[24];
    int S[24];
    n = prox_detail_xp_big_det3(A, B, C, S, 0, 1, x + 3, x + 6, x + 9);
    n = prox_detail_xp_big_det3(A, B, C, S, n, -1, x, x + 6, x + 9);
    n = prox_detail_xp_big_det3(A, B, C, S, n, 1, x, x + 3, x + 9);
    n = prox_detail_xp_big_det3(A, B, C, S, n, -1, x, x + 3, x + 6);
    return prox_detail_xp_big_sign(A, B, C, S, n);
  }
  /* Multilinearity: [b-a, c-a, d-a] = [bcd] - [acd] + [abd] - [abc]. */
  n = prox_detail_xp_det3(e, n, 1.0, x + 3, x + 6, x + 9);
  n = prox_detail_xp_det3(e, n, -1.0, x, x + 6, x + 9);
  n = prox_detail_xp_det3(e, n, 1.0, x, x + 3, x + 9);
  n = prox_detail_xp_det3(e, n, -1.0, x, x + 3, x + 6);
  return prox_detail_xp_sign(e, n);
}

/// Internal: exact sign of orient2d(a, b, c) = (b - a) x (c - a) of three
/// points of the plane given as coordinate pairs.
PROX_DETAIL_KERNEL int prox_detail_xp_orient2d_exact(double ax, double ay, double bx, double by,
                                                     double cx, double cy) {
  double e[16], x[6];
  int n = 0;
  x[0] = ax, x[1] = ay, x[2] = bx, x[3] = by, x[4] = cx, x[5] = cy;
  prox_detail_wnormalize(x, 6);
  n = prox_detail_xp_add2(e, n, 1.0, x[0], x[3]);
  n = prox_detail_xp_add2(e, n, -1.0, x[1], x[2]);
  n = prox_detail_xp_add2(e, n, 1.0, x[2], x[5]);
  n = prox_detail_xp_add2(e, n, -1.0, x[3], x[4]);
  n = prox_detail_xp_add2(e, n, 1.0, x[4], x[1]);
  n = prox_detail_xp_add2(e, n, -1.0, x[5], x[0]);
  return prox_detail_xp_sign(e, n);
}

/// Internal: sign of orient3d(a, b, c, d) (as prox_detail_orient), exact:
/// a floating-point filter, then expansion arithmetic.
PROX_DETAIL_KERNEL int prox_detail_orient3d_sign(const double *a, const double *b, const double *c,
                                                 const double *d) {
  double err, v = prox_detail_orient(prox_v3(a[0], a[1], a[2]), prox_v3(b[0], b[1], b[2]),
                                     prox_v3(c[0], c[1], c[2]), prox_v3(d[0], d[1], d[2]), &err);
  /* Below DBL_MIN / eps^2 the terms may have underflowed, and the bound
   * with them: the exact sign then. */
  if (err >= PROX_DETAIL_ORIENT_MIN) {
    if (v > err) return 1;
    if (v < -err) return -1;
  }
  return prox_detail_xp_orient3d_exact(a, b, c, d);
}

/// Internal: sign of orient2d of the projections of a, b, c dropping axis
/// k (the two remaining axes in cyclic order), exact.
PROX_DETAIL_KERNEL int prox_detail_orient2d_sign(const double *a, const double *b, const double *c,
                                                 int k) {
  int i = k == 2 ? 0 : k + 1, j = i == 2 ? 0 : i + 1;
  double l = (b[i] - a[i]) * (c[j] - a[j]);
  double r = (b[j] - a[j]) * (c[i] - a[i]);
  double det = l - r;
  /* Shewchuk's bound for orient2d is (3 + 16 eps) eps (|l| + |r|). */
  double err = 4.0 * DBL_EPSILON * (fabs(l) + fabs(r));
  if (err >= DBL_MIN / (DBL_EPSILON * DBL_EPSILON)) { /* as orient3d */
    if (det > err) return 1;
    if (det < -err) return -1;
  }
  return prox_detail_xp_orient2d_exact(a[i], a[j], b[i], b[j], c[i], c[j]);
}

#endif /* PROX_IS_DOUBLE */
