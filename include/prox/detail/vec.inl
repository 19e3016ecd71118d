/* SPDX-License-Identifier: MIT */
/* Template: 3D vector type and arithmetic, instantiated once per precision
 * by vec.h (see detail/real_double.h for the macros). */

/// A 3D vector or point, passed and returned by value.
typedef struct PROX_FN(prox_vec3) {
  PROX_REAL x, y, z;
} PROX_FN(prox_vec3);

/// Makes the vector (x, y, z).
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_v3)(PROX_REAL x, PROX_REAL y, PROX_REAL z) {
  PROX_FN(prox_vec3) r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}

/// a + b.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vadd)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.x + b.x, a.y + b.y, a.z + b.z);
}

/// a - b.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vsub)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.x - b.x, a.y - b.y, a.z - b.z);
}

/// s * a.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vscale)(PROX_FN(prox_vec3) a, PROX_REAL s) {
  return PROX_FN(prox_v3)(s * a.x, s * a.y, s * a.z);
}

/// a + s * b (two roundings per component, no fused multiply-add).
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vmadd)(PROX_FN(prox_vec3) a, PROX_REAL s,
                        PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

/// -a.
PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vneg)(PROX_FN(prox_vec3) a) {
  return PROX_FN(prox_v3)(-a.x, -a.y, -a.z);
}

/// Dot product a . b.
PROX_KERNEL PROX_REAL PROX_FN(prox_vdot)(PROX_FN(prox_vec3) a,
                                         PROX_FN(prox_vec3) b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/// Cross product a x b.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vcross)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                          a.x * b.y - a.y * b.x);
}

/// Squared length |a|^2.
PROX_KERNEL PROX_REAL PROX_FN(prox_vlen2)(PROX_FN(prox_vec3) a) {
  return a.x * a.x + a.y * a.y + a.z * a.z;
}

/// Length |a|.
PROX_KERNEL PROX_REAL PROX_FN(prox_vlen)(PROX_FN(prox_vec3) a) {
  return PROX_SQRT(PROX_FN(prox_vlen2)(a));
}

/// Squared distance |a - b|^2.
PROX_KERNEL PROX_REAL PROX_FN(prox_vdist2)(PROX_FN(prox_vec3) a,
                                           PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_vlen2)(PROX_FN(prox_vsub)(a, b));
}

/// Componentwise minimum; a NaN component of a is returned as is.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vmin)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y,
                          b.z < a.z ? b.z : a.z);
}

/// Componentwise maximum; a NaN component of a is returned as is.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vmax)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y,
                          b.z > a.z ? b.z : a.z);
}

/// (a.x - a.x) + (a.y - a.y) + (a.z - a.z): 0 when every component is
/// finite, NaN otherwise. Added to
/// a result, it makes a non-finite input visible as NaN in the output.
PROX_KERNEL PROX_REAL PROX_FN(prox_vpoison)(PROX_FN(prox_vec3) a) {
  return (a.x - a.x) + (a.y - a.y) + (a.z - a.z);
}

/// Clamps x to [lo, hi] (lo wins if lo > hi); a NaN x is returned as is.
PROX_KERNEL PROX_REAL PROX_FN(prox_clamp)(PROX_REAL x, PROX_REAL lo,
                                          PROX_REAL hi) {
  PROX_REAL t = x > hi ? hi : x;
  return t < lo ? lo : t;
}

/// The rounding error of the product p = fl(a * b): a * b = p + e exactly,
/// barring underflow (and, without hardware fma, |a| or |b| above about
/// 1e300 / 1e35 for float). A fused multiply-add where it is an instruction
/// (PROX_FAST_FMA), else Dekker's product of Veltkamp-split halves.
PROX_KERNEL PROX_REAL PROX_FN(prox_two_prod_err)(PROX_REAL a, PROX_REAL b,
                                                 PROX_REAL p) {
#if PROX_FAST_FMA
  return PROX_FMA(a, b, -p);
#else
  PROX_REAL c = PROX_SPLITTER * a, ah, al, bh, bl;
  ah = c - (c - a);
  al = a - ah;
  c = PROX_SPLITTER * b;
  bh = c - (c - b);
  bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
#endif
}

/// a*b - c*d with an error of at most about 2 ulp of the result, however
/// much the two products cancel: both products' rounding errors are
/// recovered exactly by prox_two_prod_err (a variant of Kahan's difference
/// of products that gives the same bits with and without hardware fma).
PROX_KERNEL PROX_REAL PROX_FN(prox_diff_of_products)(PROX_REAL a, PROX_REAL b,
                                                     PROX_REAL c, PROX_REAL d) {
  PROX_REAL p = a * b, w = c * d;
  return (p - w) + (PROX_FN(prox_two_prod_err)(a, b, p) -
                    PROX_FN(prox_two_prod_err)(c, d, w));
}

/// Cross product a x b with each component computed by
/// prox_diff_of_products: relative error of a few ulps per component.
PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vcross_acc)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(PROX_FN(prox_diff_of_products)(a.y, b.z, a.z, b.y),
                          PROX_FN(prox_diff_of_products)(a.z, b.x, a.x, b.z),
                          PROX_FN(prox_diff_of_products)(a.x, b.y, a.y, b.x));
}
