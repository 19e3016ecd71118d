/* SPDX-License-Identifier: MIT */
/* Template: 3D vector type and arithmetic, instantiated once per precision
 * by vec.h (see detail/real_double.h for the macros). The documented
 * functions are declared, with their contracts, in vec.h; this file holds
 * their definitions. */

/// A 3D vector or point, passed and returned by value.
typedef struct PROX_FN(prox_vec3) {
  PROX_REAL x; ///< x coordinate
  PROX_REAL y; ///< y coordinate
  PROX_REAL z; ///< z coordinate
} PROX_FN(prox_vec3);

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_v3)(PROX_REAL x, PROX_REAL y, PROX_REAL z) {
  PROX_FN(prox_vec3) r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vadd)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.x + b.x, a.y + b.y, a.z + b.z);
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vsub)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.x - b.x, a.y - b.y, a.z - b.z);
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vscale)(PROX_FN(prox_vec3) a, PROX_REAL s) {
  return PROX_FN(prox_v3)(s * a.x, s * a.y, s * a.z);
}

PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vmadd)(PROX_FN(prox_vec3) a, PROX_REAL s, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vneg)(PROX_FN(prox_vec3) a) {
  return PROX_FN(prox_v3)(-a.x, -a.y, -a.z);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_vdot)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vcross)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_vlen2)(PROX_FN(prox_vec3) a) {
  return a.x * a.x + a.y * a.y + a.z * a.z;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_vlen)(PROX_FN(prox_vec3) a) {
  return PROX_SQRT(PROX_FN(prox_vlen2)(a));
}

PROX_KERNEL PROX_REAL PROX_FN(prox_vdist2)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_vlen2)(PROX_FN(prox_vsub)(a, b));
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vmin)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z);
}

PROX_KERNEL PROX_FN(prox_vec3) PROX_FN(prox_vmax)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_vpoison)(PROX_FN(prox_vec3) a) {
  return (a.x - a.x) + (a.y - a.y) + (a.z - a.z);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_clamp)(PROX_REAL x, PROX_REAL lo, PROX_REAL hi) {
  PROX_REAL t = x > hi ? hi : x;
  return t < lo ? lo : t;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_two_prod_err)(PROX_REAL a, PROX_REAL b, PROX_REAL p) {
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

PROX_KERNEL PROX_REAL PROX_FN(prox_diff_of_products)(PROX_REAL a, PROX_REAL b, PROX_REAL c,
                                                     PROX_REAL d) {
  PROX_REAL p = a * b, w = c * d;
  return (p - w) + (PROX_FN(prox_two_prod_err)(a, b, p) - PROX_FN(prox_two_prod_err)(c, d, w));
}

PROX_KERNEL PROX_FN(prox_vec3)
    PROX_FN(prox_vcross_acc)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b) {
  return PROX_FN(prox_v3)(PROX_FN(prox_diff_of_products)(a.y, b.z, a.z, b.y),
                          PROX_FN(prox_diff_of_products)(a.z, b.x, a.x, b.z),
                          PROX_FN(prox_diff_of_products)(a.x, b.y, a.y, b.x));
}
