/* SPDX-License-Identifier: MIT */
/* Template: "wide" arithmetic with about twice the precision of PROX_REAL,
 * for the rare ill-conditioned branches of the kernels (sliver triangles,
 * flat tetrahedra, nearly parallel segments). For double it is double-double
 * (a sum hi + lo of two doubles, error-free transformations); for
 * float it is plain double. Instantiated by vec.h. */

#if PROX_IS_DOUBLE
/// Wide real for double kernels: the unevaluated sum hi + lo.
typedef struct prox_wide {
  double hi, lo;
} prox_wide;
#else
/// Wide real for float kernels: a double.
typedef double prox_widef;
#endif

/// A vector of wide reals.
typedef struct PROX_FN(prox_wvec3) {
  PROX_FN(prox_wide) x, y, z;
} PROX_FN(prox_wvec3);

#if PROX_IS_DOUBLE
/// The wide value of a.
PROX_KERNEL prox_wide prox_wfrom(double a) {
  prox_wide r;
  r.hi = a;
  r.lo = 0.0;
  return r;
}

/// hi + lo renormalised, |lo| <= ulp(hi)/2 (requires |hi| >= |lo|).
PROX_KERNEL prox_wide prox_wquick(double hi, double lo) {
  prox_wide r;
  r.hi = hi + lo;
  r.lo = lo - (r.hi - hi);
  return r;
}

/// The exact difference a - b.
PROX_KERNEL prox_wide prox_wdiff(double a, double b) {
  prox_wide r;
  double bb;
  r.hi = a - b;
  bb = r.hi - a;
  r.lo = (a - (r.hi - bb)) - (b + bb);
  return r;
}

/// x + y, relative error about 2^-104.
PROX_KERNEL prox_wide prox_wadd(prox_wide x, prox_wide y) {
  double s = x.hi + y.hi;
  double bb = s - x.hi;
  double e = (x.hi - (s - bb)) + (y.hi - bb);
  return prox_wquick(s, e + x.lo + y.lo);
}

/// -x.
PROX_KERNEL prox_wide prox_wneg(prox_wide x) {
  x.hi = -x.hi;
  x.lo = -x.lo;
  return x;
}

/// x * y, relative error about 2^-102.
PROX_KERNEL prox_wide prox_wmul(prox_wide x, prox_wide y) {
  double p = x.hi * y.hi;
  double e = prox_two_prod_err(x.hi, y.hi, p);
  e += x.hi * y.lo + x.lo * y.hi;
  return prox_wquick(p, e);
}

/// x rounded to double.
PROX_KERNEL double prox_wreal(prox_wide x) {
  return x.hi + x.lo;
}

/// x as a double (the same as prox_wreal for double kernels).
PROX_KERNEL double prox_wapprox(prox_wide x) {
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
PROX_KERNEL double prox_wnormalize(double *x, int n) {
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
PROX_KERNEL double prox_wfromf(float a) {
  return (double)a;
}
/// a - b in double: exact unless the exponents differ by more than 29.
PROX_KERNEL double prox_wdifff(float a, float b) {
  return (double)a - (double)b;
}
/// x + y in double.
PROX_KERNEL double prox_waddf(double x, double y) {
  return x + y;
}
/// -x.
PROX_KERNEL double prox_wnegf(double x) {
  return -x;
}
/// x * y in double.
PROX_KERNEL double prox_wmulf(double x, double y) {
  return x * y;
}
/// x rounded to float.
PROX_KERNEL float prox_wrealf(double x) {
  return (float)x;
}
/// x as a double, not rounded to float: ratios and tolerances of wide
/// quantities (degree 4 in the coordinates) are formed in double, where
/// they neither underflow nor lose digits as they would in float.
PROX_KERNEL double prox_wapproxf(double x) {
  return x;
}
#endif

/// x - y in wide arithmetic.
PROX_KERNEL PROX_FN(prox_wide)
    PROX_FN(prox_wsub)(PROX_FN(prox_wide) x, PROX_FN(prox_wide) y) {
  return PROX_FN(prox_wadd)(x, PROX_FN(prox_wneg)(y));
}

/// The exact (for double) difference a - b of two vectors.
PROX_KERNEL PROX_FN(prox_wvec3)
    PROX_FN(prox_wvdiff)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  PROX_FN(prox_wvec3) r;
  r.x = PROX_FN(prox_wdiff)(a.x, b.x);
  r.y = PROX_FN(prox_wdiff)(a.y, b.y);
  r.z = PROX_FN(prox_wdiff)(a.z, b.z);
  return r;
}

/// Wide dot product a . b.
PROX_KERNEL PROX_FN(prox_wide)
    PROX_FN(prox_wvdot)(PROX_FN(prox_wvec3) a, PROX_FN(prox_wvec3) b) {
  return PROX_FN(prox_wadd)(PROX_FN(prox_wadd)(PROX_FN(prox_wmul)(a.x, b.x),
                                               PROX_FN(prox_wmul)(a.y, b.y)),
                            PROX_FN(prox_wmul)(a.z, b.z));
}

/// Wide cross product a x b.
PROX_KERNEL PROX_FN(prox_wvec3)
    PROX_FN(prox_wvcross)(PROX_FN(prox_wvec3) a, PROX_FN(prox_wvec3) b) {
  PROX_FN(prox_wvec3) r;
  r.x = PROX_FN(prox_wsub)(PROX_FN(prox_wmul)(a.y, b.z),
                           PROX_FN(prox_wmul)(a.z, b.y));
  r.y = PROX_FN(prox_wsub)(PROX_FN(prox_wmul)(a.z, b.x),
                           PROX_FN(prox_wmul)(a.x, b.z));
  r.z = PROX_FN(prox_wsub)(PROX_FN(prox_wmul)(a.x, b.y),
                           PROX_FN(prox_wmul)(a.y, b.x));
  return r;
}

/// The vector rounded to PROX_REAL.
PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_wvreal)(PROX_FN(prox_wvec3) a) {
  return PROX_FN(prox_v3)(PROX_FN(prox_wreal)(a.x), PROX_FN(prox_wreal)(a.y),
                          PROX_FN(prox_wreal)(a.z));
}
