/* SPDX-License-Identifier: MIT */
/* Template: contact distance kernels (K4), instantiated once per precision
 * by contact.h (see detail/real_double.h for the macros), which declares
 * the documented kernels with their contracts; this file holds their
 * definitions.
 *
 * Every squared distance here is the minimum over parameters lambda of
 * |r|^2 with r = A(lambda) x, where x stacks the vertices and A is affine in
 * lambda (no parameter for point-point, one for point-line, two for
 * point-plane and line-line). Writing r = sum_i a_i x_i, the gradient is
 * 2 a (x) r and, by the implicit function theorem at the minimiser, the
 * Hessian is
 *   H = 2 (a a^T) (x) I3 - 2 W M^-1 W^T,
 * with M the Gram matrix of the directions v_j = dr/dlambda_j and
 * W_j = c_j (x) r + a (x) v_j (c_j the coefficients of v_j). The rank-two
 * term is factored through an LDL^T decomposition of M^-1 into two vectors
 * z0, z1 so that H = 2 (a a^T) (x) I3 - z0 z0^T - z1 z1^T, which is cheap,
 * vectorises, and is symmetric bit for bit. */

#define PROX_IPC_V PROX_FN(prox_vec3)
#define PROX_IPC_LSQ PROX_FN(prox_detail_ipc_lsq)
#if PROX_IS_DOUBLE
#define PROX_IPC_TAU PROX_IPC_DEGENERATE_SIN2
/* Squared lengths outside [LO, HI] are rescaled before products of four
 * lengths are formed, so that those never underflow or overflow. */
#define PROX_IPC_LO 1e-100
#define PROX_IPC_HI 1e100
/* Two-direction problems are solved in a frame where the largest
 * coordinate magnitude of their vectors lies in [2^(F-1), 2^F). */
#define PROX_IPC_FRAME 224
#define PROX_IPC_FRAME_UP 2.695994666715064e+67    /* 2^224 */
#define PROX_IPC_FRAME_DOWN 3.7092061506874214e-68 /* 2^-224 */
/* The edge-edge mollifier's frame (prox_detail_ipc_mollify), and the
 * bounds and scales of prox_ipc_mollifier_second_derivative. */
#define PROX_IPC_MOLL_FRAME 250
#define PROX_IPC_M2_BIG 6.703903964971299e+153      /* 2^511 */
#define PROX_IPC_M2_DOWN 7.458340731200207e-155     /* 2^-512 */
#define PROX_IPC_M2_UP 1.3407807929942597e+154      /* 2^512 */
#define PROX_IPC_M2_TINY (-1.1125369292536007e-308) /* -2^-1023 */
#define PROX_IPC_M2_HUGE (-8.98846567431158e+307)   /* -2^1023 */
#else
#define PROX_IPC_TAU PROX_IPC_DEGENERATE_SIN2F
#define PROX_IPC_LO 1e-9f
#define PROX_IPC_HI 1e9f
#define PROX_IPC_FRAME 23
#define PROX_IPC_FRAME_UP 8388608.0f       /* 2^23 */
#define PROX_IPC_FRAME_DOWN 1.1920929e-07f /* 2^-23 */
#define PROX_IPC_MOLL_FRAME 30
#define PROX_IPC_M2_BIG 9.22337204e+18f     /* 2^63 */
#define PROX_IPC_M2_DOWN 5.42101086e-20f    /* 2^-64 */
#define PROX_IPC_M2_UP 1.84467441e+19f      /* 2^64 */
#define PROX_IPC_M2_TINY (-5.87747175e-39f) /* -2^-127 */
#define PROX_IPC_M2_HUGE (-1.70141183e+38f) /* -2^127 */
#endif
/* Below this sin^2 of the angle between the two directions, their plain
 * cross product may have lost more than two bits and is recomputed with the
 * compensated one. */
#define PROX_IPC_KAPPA PROX_R(0.0625)

/// Internal (not part of the API): a squared distance written as |r|^2
/// with r = sum_k a[k] x_k over the (up to four) argument vertices x_k, and
/// the factors of its Hessian 2 (a a^T) (x) I3 - z[0] z[0]^T - z[1] z[1]^T.
/// Entries of vertices the formula does not use are zero.
typedef struct PROX_FN(prox_detail_ipc_lsq) {
  PROX_REAL d2;         ///< the squared distance
  PROX_FN(prox_vec3) r; ///< the residual vector
  PROX_REAL a[4];       ///< coefficient of each argument vertex in r
  PROX_REAL z[2][12];   ///< Hessian factors, 3 entries per vertex
  int rank;             ///< number of Hessian factors in use (0, 1 or 2)
} PROX_FN(prox_detail_ipc_lsq);

/// Internal: 1 when every coordinate of a, b, c and d is finite, else 0.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_finite)(PROX_IPC_V a, PROX_IPC_V b, PROX_IPC_V c,
                                                       PROX_IPC_V d) {
  return PROX_FN(prox_vpoison)(a) + PROX_FN(prox_vpoison)(b) + PROX_FN(prox_vpoison)(c) +
             PROX_FN(prox_vpoison)(d) ==
         0;
}

/// Internal: sets x[0 .. n-1] to v (x may be NULL).
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_fill)(PROX_REAL *x, int n, PROX_REAL v) {
  int i;
  if (!x) return;
  for (i = 0; i < n; ++i)
    x[i] = v;
}

/// Internal: returns NaN and fills grad (n entries) and hess (n * n
/// entries), each when not NULL, with NaN.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_nan)(int n, PROX_REAL *grad, PROX_REAL *hess) {
  PROX_FN(prox_detail_ipc_fill)(grad, n, PROX_NAN);
  PROX_FN(prox_detail_ipc_fill)(hess, n * n, PROX_NAN);
  return PROX_NAN;
}

/// Internal: stores s * v in z[0..2].
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_put)(PROX_REAL *z, PROX_REAL s, PROX_IPC_V v) {
  z[0] = s * v.x;
  z[1] = s * v.y;
  z[2] = s * v.z;
}

/// Internal: zero coefficients and first Hessian factor, rank 0.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_clear)(PROX_IPC_LSQ *o) {
  int i;
  for (i = 0; i < 4; ++i)
    o->a[i] = 0;
  for (i = 0; i < 12; ++i)
    o->z[0][i] = 0;
  o->rank = 0;
}

/* ------------------------------------------------------------------------
 * Formula cores: point-point, point-line, point-plane, line-line. A value
 * helper and a derivative core of the same formula perform the same
 * floating-point operations, so the value returned by a derivative
 * function equals the value function's bit for bit.
 * ---------------------------------------------------------------------- */

/// Internal: |p - q|^2 into o, with p and q argument vertices ip and iq
/// (o cleared by the caller).
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_pp)(PROX_IPC_V p, PROX_IPC_V q, int ip, int iq,
                                                    PROX_IPC_LSQ *o) {
  o->r = PROX_FN(prox_vsub)(p, q);
  o->d2 = PROX_FN(prox_vlen2)(o->r);
  o->a[ip] = 1;
  o->a[iq] = -1;
}

/// Internal: x 4^h (a squared length back from prox_detail_ipc_prep's
/// or prox_detail_ipc_pl_prep's scale), exact unless the result leaves the
/// range of PROX_REAL.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_unscale2)(PROX_REAL x, int h) {
  return h ? (PROX_REAL)ldexp((double)x, 2 * h) : x;
}

/// Internal: v 2^h, componentwise (exact unless a component leaves the
/// range of PROX_REAL).
PROX_DETAIL_KERNEL PROX_IPC_V PROX_FN(prox_detail_ipc_vpow2)(PROX_IPC_V v, int h) {
  return PROX_FN(prox_v3)((PROX_REAL)ldexp((double)v.x, h), (PROX_REAL)ldexp((double)v.y, h),
                          (PROX_REAL)ldexp((double)v.z, h));
}

/// Internal: v 2^h, multiplied by the power of two where it is a normal
/// number (exact unless a component leaves the normal range, then rounded
/// once).
PROX_DETAIL_KERNEL PROX_IPC_V PROX_FN(prox_detail_ipc_vunscale)(PROX_IPC_V v, int h) {
  PROX_REAL s = (PROX_REAL)ldexp(1.0, h);
  if (s >= PROX_REAL_MIN && s <= PROX_REAL_MAX) return PROX_FN(prox_vscale)(v, s);
  return PROX_FN(prox_detail_ipc_vpow2)(v, h);
}

/// Internal: a squared length x 4^h and a vector v 2^h back from
/// prox_detail_ipc_prep's frame, given p = 2^h (0 where that is not a
/// normal number): exact unless a result leaves the normal range, then
/// rounded once, and without a call to ldexp where p and p^2 are normal.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_unframe2)(PROX_REAL x, int h, PROX_REAL p) {
  PROX_REAL pp = p * p;
  if (pp >= PROX_REAL_MIN && pp <= PROX_REAL_MAX) return x * pp;
  return (PROX_REAL)ldexp((double)x, 2 * h);
}

PROX_DETAIL_KERNEL PROX_IPC_V PROX_FN(prox_detail_ipc_unframe)(PROX_IPC_V v, int h, PROX_REAL p) {
  if (p != 0) return PROX_FN(prox_vscale)(v, p);
  return PROX_FN(prox_detail_ipc_vpow2)(v, h);
}

/// Internal: for a point-line problem whose |e|^2 = *ee lies outside
/// [PROX_IPC_LO, PROX_IPC_HI] (subnormal or zero by underflow included)
/// while e is not zero: v and e scaled by the power of two 2^-h that brings
/// the largest component of e into [1/2, 1), *ee and *dot formed again, and
/// h returned; else 0 and nothing changed. Exact: the results of the
/// scaled problem are those of the input, scaled (a squared distance by
/// 4^h, a residual by 2^h, the Hessian factors not at all).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_pl_prep)(PROX_IPC_V *v, PROX_IPC_V *e, PROX_REAL *ee,
                                                        PROX_REAL *dot) {
  PROX_REAL m;
  int h = 0;
  if (*ee >= PROX_IPC_LO && *ee <= PROX_IPC_HI) return 0;
  m = PROX_FABS(e->x);
  m = PROX_FABS(e->y) > m ? PROX_FABS(e->y) : m;
  m = PROX_FABS(e->z) > m ? PROX_FABS(e->z) : m;
  if (!(m > 0 && m <= PROX_REAL_MAX)) return 0;
  (void)frexp((double)m, &h);
  *v = PROX_FN(prox_detail_ipc_vpow2)(*v, -h);
  *e = PROX_FN(prox_detail_ipc_vpow2)(*e, -h);
  *ee = PROX_FN(prox_vlen2)(*e);
  *dot = PROX_FN(prox_vdot)(*v, *e);
  return h;
}

/// Internal: squared distance from e0 + v to the line through e0 with
/// direction e (ee = |e|^2, dot = v.e): |v - (dot / ee) e|^2, or |v|^2 when
/// e is zero (the line is the point e0). A direction whose square leaves
/// the safe range is rescaled first (prox_detail_ipc_pl_prep).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_pl_tail)(PROX_IPC_V v, PROX_IPC_V e,
                                                              PROX_REAL ee, PROX_REAL dot) {
  int h = PROX_FN(prox_detail_ipc_pl_prep)(&v, &e, &ee, &dot);
  if (ee > 0) v = PROX_FN(prox_vsub)(v, PROX_FN(prox_vscale)(e, dot / ee));
  return PROX_FN(prox_detail_ipc_unscale2)(PROX_FN(prox_vlen2)(v), h);
}

/// Internal: squared distance from p to the line e0 e1 (to e0 if e0 == e1).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_pl_d2)(PROX_IPC_V p, PROX_IPC_V e0,
                                                            PROX_IPC_V e1) {
  PROX_IPC_V e = PROX_FN(prox_vsub)(e1, e0);
  PROX_IPC_V v = PROX_FN(prox_vsub)(p, e0);
  return PROX_FN(prox_detail_ipc_pl_tail)(v, e, PROX_FN(prox_vlen2)(e), PROX_FN(prox_vdot)(v, e));
}

/// Internal: point-line core into o, with p, e0, e1 argument vertices ip,
/// i0, i1 (o cleared by the caller). The foot is e0 + t e with
/// t = (p - e0).e / |e|^2 and r = p - e0 - t e; the Hessian has the one
/// factor z = sqrt(2 / |e|^2) (-e, r + (1 - t) e, -r + t e). A zero-length
/// edge is the point e0 (t = 0, no factor).
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_pl)(PROX_IPC_V p, PROX_IPC_V e0, PROX_IPC_V e1,
                                                    int ip, int i0, int i1, int want_z,
                                                    PROX_IPC_LSQ *o) {
  PROX_IPC_V e = PROX_FN(prox_vsub)(e1, e0);
  PROX_IPC_V u = PROX_FN(prox_vsub)(p, e0);
  PROX_REAL ee = PROX_FN(prox_vlen2)(e);
  PROX_REAL dot = PROX_FN(prox_vdot)(u, e);
  PROX_REAL t = 0;
  int h = PROX_FN(prox_detail_ipc_pl_prep)(&u, &e, &ee, &dot);
  if (ee > 0) {
    t = dot / ee;
    u = PROX_FN(prox_vsub)(u, PROX_FN(prox_vscale)(e, t));
  }
  o->d2 = PROX_FN(prox_detail_ipc_unscale2)(PROX_FN(prox_vlen2)(u), h);
  o->r = h ? PROX_FN(prox_detail_ipc_vpow2)(u, h) : u;
  o->a[ip] = 1;
  o->a[i0] = t - 1;
  o->a[i1] = -t;
  if (want_z && ee > 0) {
    PROX_REAL c = PROX_SQRT(2 / ee);
    PROX_FN(prox_detail_ipc_put)(o->z[0] + 3 * ip, -c, e);
    PROX_FN(prox_detail_ipc_put)
    (o->z[0] + 3 * i0, c, PROX_FN(prox_vmadd)(u, 1 - t, e));
    PROX_FN(prox_detail_ipc_put)
    (o->z[0] + 3 * i1, c, PROX_FN(prox_vmadd)(PROX_FN(prox_vneg)(u), t, e));
    o->rank = 1;
  }
}

/// Internal: prepares a two-direction problem (point-plane, line-line)
/// given the offset u and the directions e1, e2: scales the three by the
/// power of two 2^-h that brings their largest coordinate magnitude into
/// [2^(F-1), 2^F), F = PROX_IPC_FRAME (224, float 23), and returns h; then
/// forms their squared lengths l1, l2, the cross product n = e1 x e2
/// (compensated when the plain one has lost accuracy: a small angle) and
/// n2 = |n|^2. The frame is the same for the input scaled by any power of
/// two, so the results commute with such a scaling bit for bit (but for
/// the rounding of a result below the normal range). And in it, products
/// of up to four lengths between D 2^-449 and D (D / h <= 2^448, float
/// 2^48: contact.h) lie within 2^+-906 (float 2^+-104), clear of underflow
/// and overflow, whatever the scale of the input (a frame that depends on
/// the scale would put short lengths so close to the underflow threshold
/// that their products lose bits at some scales and not at others). *p is
/// set to 2^h, or 0 where that is not a normal number (see
/// prox_detail_ipc_unframe); the powers of two come from frexp's
/// significand, by exact divisions.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_prep)(PROX_IPC_V *u, PROX_IPC_V *e1, PROX_IPC_V *e2,
                                                     PROX_REAL *l1, PROX_REAL *l2, PROX_IPC_V *n,
                                                     PROX_REAL *n2, PROX_REAL *p) {
  int h = 0;
  PROX_REAL m = PROX_FN(prox_detail_maxabs)(*u), m1 = PROX_FN(prox_detail_maxabs)(*e1),
            m2 = PROX_FN(prox_detail_maxabs)(*e2);
  m = m1 > m ? m1 : m;
  m = m2 > m ? m2 : m;
  *p = 1;
  if (m > 0 && m <= PROX_REAL_MAX) {
    /* m = f 2^e: pe = m / f = 2^e exactly, s = 2^-h, *p = 2^h. */
    PROX_REAL f = (PROX_REAL)frexp((double)m, &h), pe = m / f, s;
    s = PROX_IPC_FRAME_UP / pe;
    *p = pe * PROX_IPC_FRAME_DOWN;
    h -= PROX_IPC_FRAME;
    if (!(*p >= PROX_REAL_MIN && *p <= PROX_REAL_MAX)) *p = 0;
    if (pe >= PROX_REAL_MIN && pe <= PROX_REAL_MAX && s >= PROX_REAL_MIN && s <= PROX_REAL_MAX) {
      *u = PROX_FN(prox_vscale)(*u, s);
      *e1 = PROX_FN(prox_vscale)(*e1, s);
      *e2 = PROX_FN(prox_vscale)(*e2, s);
    } else {
      /* 2^-h is not a normal number (input far below the domain). */
      *u = PROX_FN(prox_detail_ipc_vpow2)(*u, -h);
      *e1 = PROX_FN(prox_detail_ipc_vpow2)(*e1, -h);
      *e2 = PROX_FN(prox_detail_ipc_vpow2)(*e2, -h);
    }
  }
  *l1 = PROX_FN(prox_vlen2)(*e1);
  *l2 = PROX_FN(prox_vlen2)(*e2);
  *n = PROX_FN(prox_vcross)(*e1, *e2);
  *n2 = PROX_FN(prox_vlen2)(*n);
  if (!(*n2 >= PROX_IPC_KAPPA * *l1 * *l2)) {
    *n = PROX_FN(prox_vcross_acc)(*e1, *e2);
    *n2 = PROX_FN(prox_vlen2)(*n);
  }
  return h;
}

/// Internal: index (0, 1, 2 for edges t0t1, t1t2, t2t0) of the longest edge
/// of a triangle, the first one on ties.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_longest)(PROX_IPC_V t0, PROX_IPC_V t1,
                                                        PROX_IPC_V t2) {
  PROX_REAL l0 = PROX_FN(prox_vdist2)(t1, t0);
  PROX_REAL l1 = PROX_FN(prox_vdist2)(t2, t1);
  PROX_REAL l2 = PROX_FN(prox_vdist2)(t0, t2);
  if (l0 >= l1 && l0 >= l2) return 0;
  return l1 >= l2 ? 1 : 2;
}

/// Internal: point-plane value from u = p - t0, e1 = t1 - t0 and
/// e2 = t2 - t0. A triangle of exactly zero area gives the distance to the
/// line of its longest edge (to t0 when all three vertices coincide).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_plane_tail)(PROX_IPC_V p, PROX_IPC_V t0,
                                                                 PROX_IPC_V t1, PROX_IPC_V t2,
                                                                 PROX_IPC_V u, PROX_IPC_V e1,
                                                                 PROX_IPC_V e2) {
  PROX_IPC_V n;
  PROX_REAL l1, l2, n2, un, d2, pw;
  int h;
  h = PROX_FN(prox_detail_ipc_prep)(&u, &e1, &e2, &l1, &l2, &n, &n2, &pw);
  if (!(n2 > 0)) {
    int k = PROX_FN(prox_detail_ipc_longest)(t0, t1, t2);
    if (k == 0) return PROX_FN(prox_detail_ipc_pl_d2)(p, t0, t1);
    if (k == 1) return PROX_FN(prox_detail_ipc_pl_d2)(p, t1, t2);
    return PROX_FN(prox_detail_ipc_pl_d2)(p, t2, t0);
  }
  un = PROX_FN(prox_vdot)(u, n);
  d2 = un * (un / n2);
  return PROX_FN(prox_detail_ipc_unframe2)(d2, h, pw);
}

/// Internal: squared distance from p to the plane through t0 t1 t2.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_plane_d2)(PROX_IPC_V p, PROX_IPC_V t0,
                                                               PROX_IPC_V t1, PROX_IPC_V t2) {
  return PROX_FN(prox_detail_ipc_plane_tail)(p, t0, t1, t2, PROX_FN(prox_vsub)(p, t0),
                                             PROX_FN(prox_vsub)(t1, t0),
                                             PROX_FN(prox_vsub)(t2, t0));
}

/// Internal: the two Hessian factors z0 = c0 wc and z1 = c1 wq of a
/// two-parameter core (four vertices each), rank 2. With M the Gram
/// matrix of the directions v_p, v_q (|v_q| >= |v_p|: the LDL^T of M^-1
/// pivots on its larger diagonal entry |v_q|^2 / det, det = |n|^2), the
/// core passes c1 = sqrt(2 / |v_q|^2), wq = W_q, c0 = sqrt(2 |v_q|^2 /
/// det) and wc = W_p + g W_q, g = -(v_p.v_q) / |v_q|^2. The core forms wc
/// with the component f = v_p + g v_q of v_p orthogonal to v_q from its
/// cross products (|f| = |n| / |v_q|): formed as W_p + g W_q, whose terms
/// grow like D / h times the edge lengths while their sum is of the order
/// of D, it cancels, and the rounding (eps (D / h)^2 after c0) made z0 z0^T
/// overflow from about D / h = 2^280 on.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_factor)(const PROX_IPC_V *wc, const PROX_IPC_V *wq,
                                                        PROX_REAL c0, PROX_REAL c1,
                                                        PROX_IPC_LSQ *o) {
  int i;
  for (i = 0; i < 4; ++i) {
    PROX_FN(prox_detail_ipc_put)(o->z[0] + 3 * i, c0, wc[i]);
    PROX_FN(prox_detail_ipc_put)(o->z[1] + 3 * i, c1, wq[i]);
  }
  o->rank = 2;
}

/// Internal: point-plane core (see the file comment) into o, vertices in
/// argument order. The foot of p is t0 + b1 e1 + b2 e2 (e1 = t1 - t0,
/// e2 = t2 - t0) and r = (u.n / |n|^2) n.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_plane)(PROX_IPC_V p, PROX_IPC_V t0, PROX_IPC_V t1,
                                                       PROX_IPC_V t2, int want_z, PROX_IPC_LSQ *o) {
  PROX_IPC_V u = PROX_FN(prox_vsub)(p, t0);
  PROX_IPC_V e1 = PROX_FN(prox_vsub)(t1, t0);
  PROX_IPC_V e2 = PROX_FN(prox_vsub)(t2, t0);
  PROX_IPC_V n, r, x1, x2;
  PROX_REAL l1, l2, n2, un, k, b0, b1, b2, pw;
  int h = PROX_FN(prox_detail_ipc_prep)(&u, &e1, &e2, &l1, &l2, &n, &n2, &pw);
  if (!(n2 > 0)) {
    /* Zero area: the line of the longest edge. */
    int k0 = PROX_FN(prox_detail_ipc_longest)(t0, t1, t2);
    PROX_FN(prox_detail_ipc_clear)(o);
    if (k0 == 0)
      PROX_FN(prox_detail_ipc_pl)(p, t0, t1, 0, 1, 2, want_z, o);
    else if (k0 == 1)
      PROX_FN(prox_detail_ipc_pl)(p, t1, t2, 0, 2, 3, want_z, o);
    else
      PROX_FN(prox_detail_ipc_pl)(p, t2, t0, 0, 3, 1, want_z, o);
    return;
  }
  un = PROX_FN(prox_vdot)(u, n);
  k = un / n2;
  r = PROX_FN(prox_vscale)(n, k);
  o->d2 = un * k;
  /* Barycentric coordinates of the foot from triple products: no
   * cancellation beyond that of n itself. x1 = e2 x n and x2 = n x e1 are
   * l2 e1 - m12 e2 and l1 e2 - m12 e1: the components of e1 and e2
   * orthogonal to the other edge, times its squared length. */
  x1 = PROX_FN(prox_vcross)(e2, n);
  x2 = PROX_FN(prox_vcross)(n, e1);
  b1 = PROX_FN(prox_vdot)(u, x1) / n2;
  b2 = PROX_FN(prox_vdot)(u, x2) / n2;
  b0 = 1 - b1 - b2;
  o->a[0] = 1;
  o->a[1] = -b0;
  o->a[2] = -b1;
  o->a[3] = -b2;
  o->rank = 0;
  if (want_z) {
    /* W1 = (-e1, r + b0 e1, -r + b1 e1, b2 e1),
     * W2 = (-e2, r + b0 e2, b1 e2, -r + b2 e2), M = Gram(e1, e2),
     * M^-1 = [[l2, -m12], [-m12, l1]] / |n|^2, pivoting on the longer
     * edge (see prox_detail_ipc_factor): with e2 the longer, g = -m12 / l2
     * and f = e1 + g e2 = x1 / l2, W1 + g W2 = (-f, (1 + g) r + b0 f,
     * -r + b1 f, -g r + b2 f); with e1 the longer, g = -m12 / l1 and
     * f = e2 + g e1 = x2 / l1, W2 + g W1 = (-f, (1 + g) r + b0 f,
     * -g r + b1 f, -r + b2 f). */
    PROX_IPC_V nr = PROX_FN(prox_vneg)(r), wc[4], wq[4], f;
    PROX_REAL m12 = PROX_FN(prox_vdot)(e1, e2), g, lq;
    int q2 = l2 >= l1;
    lq = q2 ? l2 : l1;
    g = -m12 / lq;
    f = PROX_FN(prox_vscale)(q2 ? x1 : x2, 1 / lq);
    wc[0] = PROX_FN(prox_vneg)(f);
    wc[1] = PROX_FN(prox_vmadd)(PROX_FN(prox_vscale)(r, 1 + g), b0, f);
    if (q2) {
      wc[2] = PROX_FN(prox_vmadd)(nr, b1, f);
      wc[3] = PROX_FN(prox_vmadd)(PROX_FN(prox_vscale)(r, -g), b2, f);
      wq[0] = PROX_FN(prox_vneg)(e2);
      wq[1] = PROX_FN(prox_vmadd)(r, b0, e2);
      wq[2] = PROX_FN(prox_vscale)(e2, b1);
      wq[3] = PROX_FN(prox_vmadd)(nr, b2, e2);
    } else {
      wc[2] = PROX_FN(prox_vmadd)(PROX_FN(prox_vscale)(r, -g), b1, f);
      wc[3] = PROX_FN(prox_vmadd)(nr, b2, f);
      wq[0] = PROX_FN(prox_vneg)(e1);
      wq[1] = PROX_FN(prox_vmadd)(r, b0, e1);
      wq[2] = PROX_FN(prox_vmadd)(nr, b1, e1);
      wq[3] = PROX_FN(prox_vscale)(e1, b2);
    }
    PROX_FN(prox_detail_ipc_factor)
    (wc, wq, PROX_SQRT(2 * (lq / n2)), PROX_SQRT(2 / lq), o);
  }
  if (h) {
    o->d2 = PROX_FN(prox_detail_ipc_unframe2)(o->d2, h, pw);
    r = PROX_FN(prox_detail_ipc_unframe)(r, h, pw);
  }
  o->r = r;
}

/// Internal: line-line value from w = ea0 - eb0, ea = ea1 - ea0 and
/// eb = eb1 - eb0. Parallel lines give the distance from ea0 to line b
/// (from eb0 to line a when eb0 == eb1).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_ll_tail)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                              PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                              PROX_IPC_V w, PROX_IPC_V ea,
                                                              PROX_IPC_V eb) {
  PROX_IPC_V n;
  PROX_REAL la, lb, n2, wn, d2, pw;
  int h = PROX_FN(prox_detail_ipc_prep)(&w, &ea, &eb, &la, &lb, &n, &n2, &pw);
  if (!(n2 > 0)) {
    if (lb > 0) return PROX_FN(prox_detail_ipc_pl_d2)(ea0, eb0, eb1);
    return PROX_FN(prox_detail_ipc_pl_d2)(eb0, ea0, ea1);
  }
  wn = PROX_FN(prox_vdot)(w, n);
  d2 = wn * (wn / n2);
  return PROX_FN(prox_detail_ipc_unframe2)(d2, h, pw);
}

/// Internal: squared distance between the lines ea0 ea1 and eb0 eb1.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_ll_d2)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                            PROX_IPC_V eb0, PROX_IPC_V eb1) {
  return PROX_FN(prox_detail_ipc_ll_tail)(ea0, ea1, eb0, eb1, PROX_FN(prox_vsub)(ea0, eb0),
                                          PROX_FN(prox_vsub)(ea1, ea0),
                                          PROX_FN(prox_vsub)(eb1, eb0));
}

/// Internal: line-line core (see the file comment) into o, vertices in
/// argument order. The closest points are ea0 + s ea and eb0 + t eb;
/// r = (w.n / |n|^2) n with w = ea0 - eb0.
PROX_DETAIL_KERNEL void PROX_FN(prox_detail_ipc_ll)(PROX_IPC_V ea0, PROX_IPC_V ea1, PROX_IPC_V eb0,
                                                    PROX_IPC_V eb1, int want_z, PROX_IPC_LSQ *o) {
  PROX_IPC_V ea = PROX_FN(prox_vsub)(ea1, ea0);
  PROX_IPC_V eb = PROX_FN(prox_vsub)(eb1, eb0);
  PROX_IPC_V n, r, xb, xa;
  PROX_IPC_V w = PROX_FN(prox_vsub)(ea0, eb0);
  PROX_REAL la, lb, n2, wn, k, ps, pt, pw;
  int h = PROX_FN(prox_detail_ipc_prep)(&w, &ea, &eb, &la, &lb, &n, &n2, &pw);
  if (!(n2 > 0)) {
    /* Parallel (or a zero-length edge): a point-line distance. */
    PROX_FN(prox_detail_ipc_clear)(o);
    if (lb > 0)
      PROX_FN(prox_detail_ipc_pl)(ea0, eb0, eb1, 0, 2, 3, want_z, o);
    else
      PROX_FN(prox_detail_ipc_pl)(eb0, ea0, ea1, 2, 0, 1, want_z, o);
    return;
  }
  wn = PROX_FN(prox_vdot)(w, n);
  k = wn / n2;
  r = PROX_FN(prox_vscale)(n, k);
  o->d2 = wn * k;
  /* xb = n x eb = mab eb - lb ea and xa = n x ea = la eb - mab ea: minus
   * the component of ea orthogonal to eb times lb, and the component of eb
   * orthogonal to ea times la. */
  xb = PROX_FN(prox_vcross)(n, eb);
  xa = PROX_FN(prox_vcross)(n, ea);
  ps = PROX_FN(prox_vdot)(w, xb) / n2;
  pt = PROX_FN(prox_vdot)(w, xa) / n2;
  o->a[0] = 1 - ps;
  o->a[1] = ps;
  o->a[2] = pt - 1;
  o->a[3] = -pt;
  o->rank = 0;
  if (want_z) {
    /* Ws = (-r + (1-s) ea, r + s ea, -(1-t) ea, -t ea),
     * Wt = (-(1-s) eb, -s eb, r + (1-t) eb, -r + t eb),
     * M^-1 = [[lb, mab], [mab, la]] / |n|^2, pivoting on the longer edge
     * (see prox_detail_ipc_factor): with eb the longer, g = mab / lb and
     * f = ea - g eb = -xb / lb, Ws + g Wt = (-r + (1-s) f, r + s f,
     * g r - (1-t) f, -g r - t f); with ea the longer, g = mab / la and
     * f = eb - g ea = xa / la, Wt + g Ws = (-g r - (1-s) f, g r - s f,
     * r + (1-t) f, -r + t f). */
    PROX_IPC_V nr = PROX_FN(prox_vneg)(r), wc[4], wq[4], f, gr;
    PROX_REAL mab = PROX_FN(prox_vdot)(ea, eb), g, lq;
    int qb = lb >= la;
    lq = qb ? lb : la;
    g = mab / lq;
    gr = PROX_FN(prox_vscale)(r, g);
    if (qb) {
      f = PROX_FN(prox_vscale)(xb, -1 / lq);
      wc[0] = PROX_FN(prox_vmadd)(nr, 1 - ps, f);
      wc[1] = PROX_FN(prox_vmadd)(r, ps, f);
      wc[2] = PROX_FN(prox_vmadd)(gr, pt - 1, f);
      wc[3] = PROX_FN(prox_vmadd)(PROX_FN(prox_vneg)(gr), -pt, f);
      wq[0] = PROX_FN(prox_vscale)(eb, ps - 1);
      wq[1] = PROX_FN(prox_vscale)(eb, -ps);
      wq[2] = PROX_FN(prox_vmadd)(r, 1 - pt, eb);
      wq[3] = PROX_FN(prox_vmadd)(nr, pt, eb);
    } else {
      f = PROX_FN(prox_vscale)(xa, 1 / lq);
      wc[0] = PROX_FN(prox_vmadd)(PROX_FN(prox_vneg)(gr), ps - 1, f);
      wc[1] = PROX_FN(prox_vmadd)(gr, -ps, f);
      wc[2] = PROX_FN(prox_vmadd)(r, 1 - pt, f);
      wc[3] = PROX_FN(prox_vmadd)(nr, pt, f);
      wq[0] = PROX_FN(prox_vmadd)(nr, 1 - ps, ea);
      wq[1] = PROX_FN(prox_vmadd)(r, ps, ea);
      wq[2] = PROX_FN(prox_vscale)(ea, pt - 1);
      wq[3] = PROX_FN(prox_vscale)(ea, -pt);
    }
    PROX_FN(prox_detail_ipc_factor)
    (wc, wq, PROX_SQRT(2 * (lq / n2)), PROX_SQRT(2 / lq), o);
  }
  if (h) {
    o->d2 = PROX_FN(prox_detail_ipc_unframe2)(o->d2, h, pw);
    r = PROX_FN(prox_detail_ipc_unframe)(r, h, pw);
  }
  o->r = r;
}

/// Internal: writes the gradient (3 nv entries) and the Hessian (3 nv
/// squared, row-major) of the core o over its first nv argument vertices,
/// each when not NULL. Returns o->d2.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_emit)(const PROX_IPC_LSQ *o, int nv,
                                                           PROX_REAL *grad, PROX_REAL *hess) {
  int n = 3 * nv, i, j, p, q;
  if (grad)
    for (i = 0; i < nv; ++i) {
      PROX_REAL c = 2 * o->a[i];
      grad[3 * i] = c * o->r.x;
      grad[3 * i + 1] = c * o->r.y;
      grad[3 * i + 2] = c * o->r.z;
    }
  if (hess) {
    /* Dense update from local copies (no aliasing with hess), specialised
     * by rank so that it vectorises; products are formed symmetrically so
     * H is symmetric bit for bit. */
    PROX_REAL z0[12], z1[12];
    if (o->rank == 2) {
      for (p = 0; p < n; ++p) {
        z0[p] = o->z[0][p];
        z1[p] = o->z[1][p];
      }
      for (p = 0; p < n; ++p) {
        PROX_REAL z0p = z0[p], z1p = z1[p], *row = hess + p * n;
        for (q = 0; q < n; ++q)
          row[q] = 0 - (z0p * z0[q] + z1p * z1[q]);
      }
    } else if (o->rank == 1) {
      for (p = 0; p < n; ++p)
        z0[p] = o->z[0][p];
      for (p = 0; p < n; ++p) {
        PROX_REAL z0p = z0[p], *row = hess + p * n;
        for (q = 0; q < n; ++q)
          row[q] = 0 - z0p * z0[q];
      }
    } else {
      for (p = 0; p < n * n; ++p)
        hess[p] = 0;
    }
    /* 2 a_i a_j on the diagonals of the vertex blocks; blocks of unused
     * vertices (a_i == 0) would only add zeros. */
    for (i = 0; i < nv; ++i) {
      if (o->a[i] == 0) continue;
      for (j = 0; j < nv; ++j) {
        PROX_REAL dij = (o->a[i] * o->a[j]) * 2;
        PROX_REAL *blk = hess + 3 * i * n + 3 * j;
        if (o->a[j] == 0) continue;
        blk[0] += dij;
        blk[n + 1] += dij;
        blk[2 * n + 2] += dij;
      }
    }
  }
  return o->d2;
}

/* ------------------------------------------------------------------------
 * Point-point, point-line, point-plane, line-line.
 * ---------------------------------------------------------------------- */

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_point_distance)(PROX_IPC_V p, PROX_IPC_V q) {
  if (!PROX_FN(prox_detail_ipc_finite)(p, q, p, q)) return PROX_NAN;
  return PROX_FN(prox_vdist2)(p, q);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_point_distance_gradient)(PROX_IPC_V p, PROX_IPC_V q,
                                                                      PROX_REAL grad[6]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, q, p, q)) return PROX_FN(prox_detail_ipc_nan)(6, grad, 0);
  PROX_FN(prox_detail_ipc_clear)(&o);
  PROX_FN(prox_detail_ipc_pp)(p, q, 0, 1, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 2, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_point_distance_hessian)(PROX_IPC_V p, PROX_IPC_V q,
                                                                     PROX_REAL *grad,
                                                                     PROX_REAL hess[36]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, q, p, q))
    return PROX_FN(prox_detail_ipc_nan)(6, grad, hess);
  PROX_FN(prox_detail_ipc_clear)(&o);
  PROX_FN(prox_detail_ipc_pp)(p, q, 0, 1, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 2, grad, hess);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_line_distance)(PROX_IPC_V p, PROX_IPC_V e0,
                                                            PROX_IPC_V e1) {
  if (!PROX_FN(prox_detail_ipc_finite)(p, e0, e1, p)) return PROX_NAN;
  return PROX_FN(prox_detail_ipc_pl_d2)(p, e0, e1);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_line_distance_gradient)(PROX_IPC_V p, PROX_IPC_V e0,
                                                                     PROX_IPC_V e1,
                                                                     PROX_REAL grad[9]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, e0, e1, p))
    return PROX_FN(prox_detail_ipc_nan)(9, grad, 0);
  PROX_FN(prox_detail_ipc_clear)(&o);
  PROX_FN(prox_detail_ipc_pl)(p, e0, e1, 0, 1, 2, 0, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 3, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_line_distance_hessian)(PROX_IPC_V p, PROX_IPC_V e0,
                                                                    PROX_IPC_V e1, PROX_REAL *grad,
                                                                    PROX_REAL hess[81]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, e0, e1, p))
    return PROX_FN(prox_detail_ipc_nan)(9, grad, hess);
  PROX_FN(prox_detail_ipc_clear)(&o);
  PROX_FN(prox_detail_ipc_pl)(p, e0, e1, 0, 1, 2, 1, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 3, grad, hess);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_plane_distance)(PROX_IPC_V p, PROX_IPC_V t0,
                                                             PROX_IPC_V t1, PROX_IPC_V t2) {
  if (!PROX_FN(prox_detail_ipc_finite)(p, t0, t1, t2)) return PROX_NAN;
  return PROX_FN(prox_detail_ipc_plane_d2)(p, t0, t1, t2);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_plane_distance_gradient)(PROX_IPC_V p, PROX_IPC_V t0,
                                                                      PROX_IPC_V t1, PROX_IPC_V t2,
                                                                      PROX_REAL grad[12]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, t0, t1, t2))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, 0);
  PROX_FN(prox_detail_ipc_plane)(p, t0, t1, t2, 0, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_plane_distance_hessian)(PROX_IPC_V p, PROX_IPC_V t0,
                                                                     PROX_IPC_V t1, PROX_IPC_V t2,
                                                                     PROX_REAL *grad,
                                                                     PROX_REAL hess[144]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, t0, t1, t2))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, hess);
  PROX_FN(prox_detail_ipc_plane)(p, t0, t1, t2, 1, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, hess);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_line_line_distance)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                           PROX_IPC_V eb0, PROX_IPC_V eb1) {
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1)) return PROX_NAN;
  return PROX_FN(prox_detail_ipc_ll_d2)(ea0, ea1, eb0, eb1);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_line_line_distance_gradient)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                    PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                                    PROX_REAL grad[12]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, 0);
  PROX_FN(prox_detail_ipc_ll)(ea0, ea1, eb0, eb1, 0, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_line_line_distance_hessian)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                   PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                                   PROX_REAL *grad,
                                                                   PROX_REAL hess[144]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, hess);
  PROX_FN(prox_detail_ipc_ll)(ea0, ea1, eb0, eb1, 1, &o);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, hess);
}

/* ------------------------------------------------------------------------
 * Classification. The classifiers also evaluate, on request, the distance
 * of the type they return with exactly the operations of the typed value
 * functions, so that an automatic value costs one pass.
 * ---------------------------------------------------------------------- */

/// Internal: where on the segment from a to a + e (|e|^2 = ee) the closest
/// point to a + v lies, given dot = v.e: 0 (a), 1 (a + e) or 2 (interior).
/// A zero-length segment and NaN give 0.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_seg)(PROX_REAL dot, PROX_REAL ee) {
  if (!(dot > 0)) return 0;
  return dot >= ee ? 1 : 2;
}

/// Internal: the squared distance of segment class res (see
/// prox_detail_ipc_seg) for the point p = a + v and the segment a b
/// (e = b - a, ee = |e|^2, dot = v.e).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_seg_d2)(int res, PROX_IPC_V p, PROX_IPC_V b,
                                                             PROX_IPC_V v, PROX_IPC_V e,
                                                             PROX_REAL ee, PROX_REAL dot) {
  if (res == 0) return PROX_FN(prox_vlen2)(v);
  if (res == 1) return PROX_FN(prox_vdist2)(p, b);
  return PROX_FN(prox_detail_ipc_pl_tail)(v, e, ee, dot);
}

PROX_KERNEL prox_ipc_pe_type PROX_FN(prox_ipc_point_edge_distance_type)(PROX_IPC_V p, PROX_IPC_V e0,
                                                                        PROX_IPC_V e1) {
  PROX_IPC_V e = PROX_FN(prox_vsub)(e1, e0);
  return (prox_ipc_pe_type)PROX_FN(prox_detail_ipc_seg)(
      PROX_FN(prox_vdot)(PROX_FN(prox_vsub)(p, e0), e), PROX_FN(prox_vlen2)(e));
}

/// Internal: point-triangle classification (see
/// prox_ipc_point_triangle_distance_type); stores the squared distance of
/// the returned type in *d2 when d2 is not NULL.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_pt_classify)(PROX_IPC_V p, PROX_IPC_V t0,
                                                            PROX_IPC_V t1, PROX_IPC_V t2,
                                                            PROX_REAL *d2) {
  PROX_IPC_V e1 = PROX_FN(prox_vsub)(t1, t0);
  PROX_IPC_V e2 = PROX_FN(prox_vsub)(t2, t0);
  PROX_IPC_V u = PROX_FN(prox_vsub)(p, t0);
  PROX_IPC_V n = PROX_FN(prox_vcross)(e1, e2);
  PROX_IPC_V e12 = PROX_FN(prox_vsub)(t2, t1);
  PROX_IPC_V v1, v2, f2;
  PROX_REAL n2 = PROX_FN(prox_vlen2)(n);
  PROX_REAL l1 = PROX_FN(prox_vlen2)(e1), l2 = PROX_FN(prox_vlen2)(e2);
  PROX_REAL l12 = PROX_FN(prox_vlen2)(e12), lm = l1, q0, q1, q2;
  int cand = 7, r0, r1, r2, ty0, ty1, ty2, best = 0;
  if (l2 > lm) lm = l2;
  if (l12 > lm) lm = l12;
  if (n2 > PROX_IPC_TAU * lm * lm) {
    /* c1 = b1 |n|^2, c2 = b2 |n|^2: barycentrics of the projection. */
    PROX_REAL c1 = PROX_FN(prox_vdot)(u, PROX_FN(prox_vcross)(e2, n));
    PROX_REAL c2 = PROX_FN(prox_vdot)(u, PROX_FN(prox_vcross)(n, e1));
    PROX_REAL c0 = n2 - c1 - c2;
    cand = (c2 < 0 ? 1 : 0) | (c0 < 0 ? 2 : 0) | (c1 < 0 ? 4 : 0);
    if (!cand) {
      if (d2) *d2 = PROX_FN(prox_detail_ipc_plane_tail)(p, t0, t1, t2, u, e1, e2);
      return PROX_PT_P_T;
    }
  }
  /* Edge 0 runs t0 -> t1, edge 1 t1 -> t2, edge 2 t2 -> t0 (its vector
   * -e2 is exactly t0 - t2). Classify the point on each edge line. */
  v1 = PROX_FN(prox_vsub)(p, t1);
  v2 = PROX_FN(prox_vsub)(p, t2);
  f2 = PROX_FN(prox_vneg)(e2);
  q0 = PROX_FN(prox_vdot)(u, e1);
  q1 = PROX_FN(prox_vdot)(v1, e12);
  q2 = PROX_FN(prox_vdot)(v2, f2);
  r0 = PROX_FN(prox_detail_ipc_seg)(q0, l1);
  r1 = PROX_FN(prox_detail_ipc_seg)(q1, l12);
  r2 = PROX_FN(prox_detail_ipc_seg)(q2, l2);
  ty0 = r0 == 2 ? PROX_PT_P_E0 : r0;
  ty1 = r1 == 2 ? PROX_PT_P_E1 : 1 + r1;
  ty2 = r2 == 2 ? PROX_PT_P_E2 : (2 + r2) % 3;
  /* Two separating edges share a vertex s and the projection lies in the
   * wedge beyond s: at most one of them leads away from s (a convex
   * quadratic has at most one descent direction there), so the other one's
   * answer is s itself. Distances are only compared for a degenerate
   * triangle (all three edges) or if rounding made both lead away. */
  switch (cand) {
  case 1:
    best = 0;
    break;
  case 2:
    best = 1;
    break;
  case 4:
    best = 2;
    break;
  case 5: /* edges 0 and 2, vertex t0 */
    best = ty0 == PROX_PT_P_T0 ? 2 : (ty2 == PROX_PT_P_T0 ? 0 : -1);
    break;
  case 3: /* edges 0 and 1, vertex t1 */
    best = ty0 == PROX_PT_P_T1 ? 1 : (ty1 == PROX_PT_P_T1 ? 0 : -1);
    break;
  case 6: /* edges 1 and 2, vertex t2 */
    best = ty1 == PROX_PT_P_T2 ? 2 : (ty2 == PROX_PT_P_T2 ? 1 : -1);
    break;
  default:
    best = -1;
    break;
  }
  if (best < 0) {
    /* The nearest candidate, the first on ties. */
    PROX_REAL db = 0, dk;
    if (cand & 1) {
      best = 0;
      db = PROX_FN(prox_detail_ipc_seg_d2)(r0, p, t1, u, e1, l1, q0);
    }
    if (cand & 2) {
      dk = PROX_FN(prox_detail_ipc_seg_d2)(r1, p, t2, v1, e12, l12, q1);
      if (best < 0 || dk < db) {
        best = 1;
        db = dk;
      }
    }
    if (cand & 4) {
      dk = PROX_FN(prox_detail_ipc_seg_d2)(r2, p, t0, v2, f2, l2, q2);
      if (best < 0 || dk < db) {
        best = 2;
        db = dk;
      }
    }
    if (d2) *d2 = db;
  } else if (d2) {
    if (best == 0)
      *d2 = PROX_FN(prox_detail_ipc_seg_d2)(r0, p, t1, u, e1, l1, q0);
    else if (best == 1)
      *d2 = PROX_FN(prox_detail_ipc_seg_d2)(r1, p, t2, v1, e12, l12, q1);
    else
      *d2 = PROX_FN(prox_detail_ipc_seg_d2)(r2, p, t0, v2, f2, l2, q2);
  }
  return best == 0 ? ty0 : (best == 1 ? ty1 : ty2);
}

PROX_KERNEL prox_ipc_pt_type PROX_FN(prox_ipc_point_triangle_distance_type)(PROX_IPC_V p,
                                                                            PROX_IPC_V t0,
                                                                            PROX_IPC_V t1,
                                                                            PROX_IPC_V t2) {
  return (prox_ipc_pt_type)PROX_FN(prox_detail_ipc_pt_classify)(p, t0, t1, t2, 0);
}

/// Internal: the edge-edge type among the endpoint-segment candidates in
/// the bit mask cand (1: ea0 vs b, 2: ea1 vs b, 4: eb0 vs a, 8: eb1 vs a);
/// a pair of candidates (one of each edge) is resolved at their common
/// corner, more are compared by distance (the first wins ties). Stores the
/// squared distance of the result in *d2 when d2 is not NULL.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_ee_ends)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                        PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                        PROX_IPC_V ea, PROX_IPC_V eb, PROX_REAL la,
                                                        PROX_REAL lb, int cand, PROX_REAL *d2) {
  PROX_IPC_V q[4], s[4], v[4];
  PROX_REAL dot[4];
  int res[4], ty[4], k, best = -1, nc = 0;
  q[0] = ea0;
  q[1] = ea1;
  q[2] = eb0;
  q[3] = eb1;
  for (k = 0; k < 4; ++k) {
    PROX_IPC_V o = k < 2 ? eb0 : ea0, e = k < 2 ? eb : ea;
    res[k] = 0;
    ty[k] = 0;
    dot[k] = 0;
    s[k] = k < 2 ? eb1 : ea1;
    v[k] = q[k];
    if (!((cand >> k) & 1)) continue;
    ++nc;
    v[k] = PROX_FN(prox_vsub)(q[k], o);
    dot[k] = PROX_FN(prox_vdot)(v[k], e);
    res[k] = PROX_FN(prox_detail_ipc_seg)(dot[k], k < 2 ? lb : la);
    if (k < 2)
      ty[k] = res[k] == 2 ? PROX_EE_EA0_EB + k : 2 * k + res[k];
    else
      ty[k] = res[k] == 2 ? PROX_EE_EA_EB0 + (k - 2) : 2 * res[k] + (k - 2);
    if (best < 0) best = k;
  }
  if (nc == 2) {
    /* One endpoint of each edge: the corner (ea_i, eb_j) of the parameter
     * square; at most one side leads away from it (see the triangle). */
    int ka = (cand & 1) ? 0 : 1, kb = (cand & 4) ? 2 : 3;
    int corner = 2 * ka + (kb - 2);
    if (ty[ka] == corner)
      best = kb;
    else if (ty[kb] == corner)
      best = ka;
    else
      nc = 3; /* compare below */
  }
  if (nc > 2) {
    PROX_REAL dk, dbest = 0;
    best = -1;
    for (k = 0; k < 4; ++k) {
      if (!((cand >> k) & 1)) continue;
      dk = PROX_FN(prox_detail_ipc_seg_d2)(res[k], q[k], s[k], v[k], k < 2 ? eb : ea,
                                           k < 2 ? lb : la, dot[k]);
      if (best < 0 || dk < dbest) {
        best = k;
        dbest = dk;
      }
    }
    if (d2) *d2 = dbest;
    return ty[best];
  }
  if (d2)
    *d2 = PROX_FN(prox_detail_ipc_seg_d2)(res[best], q[best], s[best], v[best], best < 2 ? eb : ea,
                                          best < 2 ? lb : la, dot[best]);
  return ty[best];
}

PROX_KERNEL prox_ipc_ee_type PROX_FN(prox_ipc_edge_edge_parallel_distance_type)(PROX_IPC_V ea0,
                                                                                PROX_IPC_V ea1,
                                                                                PROX_IPC_V eb0,
                                                                                PROX_IPC_V eb1) {
  PROX_IPC_V ea = PROX_FN(prox_vsub)(ea1, ea0);
  PROX_IPC_V eb = PROX_FN(prox_vsub)(eb1, eb0);
  return (prox_ipc_ee_type)PROX_FN(prox_detail_ipc_ee_ends)(
      ea0, ea1, eb0, eb1, ea, eb, PROX_FN(prox_vlen2)(ea), PROX_FN(prox_vlen2)(eb), 15, 0);
}

/// Internal: edge-edge classification (see
/// prox_ipc_edge_edge_distance_type); stores the squared distance of the
/// returned type in *d2 when d2 is not NULL.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_ee_classify)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                            PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                            PROX_REAL *d2) {
  PROX_IPC_V ea = PROX_FN(prox_vsub)(ea1, ea0);
  PROX_IPC_V eb = PROX_FN(prox_vsub)(eb1, eb0);
  PROX_IPC_V n = PROX_FN(prox_vcross)(ea, eb);
  PROX_IPC_V w = PROX_FN(prox_vsub)(ea0, eb0);
  PROX_REAL n2 = PROX_FN(prox_vlen2)(n);
  PROX_REAL la = PROX_FN(prox_vlen2)(ea), lb = PROX_FN(prox_vlen2)(eb);
  PROX_REAL sn, tn;
  int cand = 0;
  if (!(n2 > PROX_IPC_TAU * la * lb))
    return PROX_FN(prox_detail_ipc_ee_ends)(ea0, ea1, eb0, eb1, ea, eb, la, lb, 15, d2);
  /* sn = s |n|^2, tn = t |n|^2 for the closest points of the lines. The
   * rounding of the edge vectors turns the lines' common normal by about
   * eps / sin of their angle, which moves its feet, the closest points, by
   * about eps d / sin^2 for lines a distance d apart: the documented
   * margin has that term (prox_ipc_edge_edge_distance_type;
   * tests/test_contact.c, ee_skew, fails without it). */
  sn = PROX_FN(prox_vdot)(w, PROX_FN(prox_vcross)(n, eb));
  tn = PROX_FN(prox_vdot)(w, PROX_FN(prox_vcross)(n, ea));
  if (!(sn > 0))
    cand |= 1;
  else if (sn >= n2)
    cand |= 2;
  if (!(tn > 0))
    cand |= 4;
  else if (tn >= n2)
    cand |= 8;
  if (!cand) {
    if (d2) *d2 = PROX_FN(prox_detail_ipc_ll_tail)(ea0, ea1, eb0, eb1, w, ea, eb);
    return PROX_EE_EA_EB;
  }
  return PROX_FN(prox_detail_ipc_ee_ends)(ea0, ea1, eb0, eb1, ea, eb, la, lb, cand, d2);
}

PROX_KERNEL prox_ipc_ee_type PROX_FN(prox_ipc_edge_edge_distance_type)(PROX_IPC_V ea0,
                                                                       PROX_IPC_V ea1,
                                                                       PROX_IPC_V eb0,
                                                                       PROX_IPC_V eb1) {
  return (prox_ipc_ee_type)PROX_FN(prox_detail_ipc_ee_classify)(ea0, ea1, eb0, eb1, 0);
}

/* ------------------------------------------------------------------------
 * Typed distances: point-edge, point-triangle, edge-edge.
 * ---------------------------------------------------------------------- */

/// Internal: the core of a point-edge type into o. Returns 0 for an
/// invalid type.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_pe_core)(PROX_IPC_V p, PROX_IPC_V e0, PROX_IPC_V e1,
                                                        int type, int want_z, PROX_IPC_LSQ *o) {
  if (type == PROX_PE_AUTO) type = (int)PROX_FN(prox_ipc_point_edge_distance_type)(p, e0, e1);
  PROX_FN(prox_detail_ipc_clear)(o);
  switch (type) {
  case PROX_PE_P_E0:
    PROX_FN(prox_detail_ipc_pp)(p, e0, 0, 1, o);
    return 1;
  case PROX_PE_P_E1:
    PROX_FN(prox_detail_ipc_pp)(p, e1, 0, 2, o);
    return 1;
  case PROX_PE_P_E:
    PROX_FN(prox_detail_ipc_pl)(p, e0, e1, 0, 1, 2, want_z, o);
    return 1;
  default:
    return 0;
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_edge_distance)(PROX_IPC_V p, PROX_IPC_V e0,
                                                            PROX_IPC_V e1, prox_ipc_pe_type type) {
  int ty = (int)type;
  if (!PROX_FN(prox_detail_ipc_finite)(p, e0, e1, p)) return PROX_NAN;
  if (ty == PROX_PE_AUTO) ty = (int)PROX_FN(prox_ipc_point_edge_distance_type)(p, e0, e1);
  switch (ty) {
  case PROX_PE_P_E0:
    return PROX_FN(prox_vdist2)(p, e0);
  case PROX_PE_P_E1:
    return PROX_FN(prox_vdist2)(p, e1);
  case PROX_PE_P_E:
    return PROX_FN(prox_detail_ipc_pl_d2)(p, e0, e1);
  default:
    return PROX_NAN;
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_edge_distance_gradient)(PROX_IPC_V p, PROX_IPC_V e0,
                                                                     PROX_IPC_V e1,
                                                                     prox_ipc_pe_type type,
                                                                     PROX_REAL grad[9]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, e0, e1, p) ||
      !PROX_FN(prox_detail_ipc_pe_core)(p, e0, e1, (int)type, 0, &o))
    return PROX_FN(prox_detail_ipc_nan)(9, grad, 0);
  return PROX_FN(prox_detail_ipc_emit)(&o, 3, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_edge_distance_hessian)(PROX_IPC_V p, PROX_IPC_V e0,
                                                                    PROX_IPC_V e1,
                                                                    prox_ipc_pe_type type,
                                                                    PROX_REAL *grad,
                                                                    PROX_REAL hess[81]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, e0, e1, p) ||
      !PROX_FN(prox_detail_ipc_pe_core)(p, e0, e1, (int)type, 1, &o))
    return PROX_FN(prox_detail_ipc_nan)(9, grad, hess);
  return PROX_FN(prox_detail_ipc_emit)(&o, 3, grad, hess);
}

/// Internal: the core of a point-triangle type into o. Returns 0 for an
/// invalid type.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_pt_core)(PROX_IPC_V p, PROX_IPC_V t0, PROX_IPC_V t1,
                                                        PROX_IPC_V t2, int type, int want_z,
                                                        PROX_IPC_LSQ *o) {
  if (type == PROX_PT_AUTO) type = PROX_FN(prox_detail_ipc_pt_classify)(p, t0, t1, t2, 0);
  switch (type) {
  case PROX_PT_P_T:
    PROX_FN(prox_detail_ipc_plane)(p, t0, t1, t2, want_z, o);
    return 1;
  case PROX_PT_P_T0:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(p, t0, 0, 1, o);
    return 1;
  case PROX_PT_P_T1:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(p, t1, 0, 2, o);
    return 1;
  case PROX_PT_P_T2:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(p, t2, 0, 3, o);
    return 1;
  case PROX_PT_P_E0:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(p, t0, t1, 0, 1, 2, want_z, o);
    return 1;
  case PROX_PT_P_E1:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(p, t1, t2, 0, 2, 3, want_z, o);
    return 1;
  case PROX_PT_P_E2:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(p, t2, t0, 0, 3, 1, want_z, o);
    return 1;
  default:
    return 0;
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_triangle_distance)(PROX_IPC_V p, PROX_IPC_V t0,
                                                                PROX_IPC_V t1, PROX_IPC_V t2,
                                                                prox_ipc_pt_type type) {
  PROX_REAL d2 = PROX_NAN;
  if (!PROX_FN(prox_detail_ipc_finite)(p, t0, t1, t2)) return PROX_NAN;
  switch ((int)type) {
  case PROX_PT_AUTO:
    PROX_FN(prox_detail_ipc_pt_classify)(p, t0, t1, t2, &d2);
    return d2;
  case PROX_PT_P_T0:
    return PROX_FN(prox_vdist2)(p, t0);
  case PROX_PT_P_T1:
    return PROX_FN(prox_vdist2)(p, t1);
  case PROX_PT_P_T2:
    return PROX_FN(prox_vdist2)(p, t2);
  case PROX_PT_P_E0:
    return PROX_FN(prox_detail_ipc_pl_d2)(p, t0, t1);
  case PROX_PT_P_E1:
    return PROX_FN(prox_detail_ipc_pl_d2)(p, t1, t2);
  case PROX_PT_P_E2:
    return PROX_FN(prox_detail_ipc_pl_d2)(p, t2, t0);
  case PROX_PT_P_T:
    return PROX_FN(prox_detail_ipc_plane_d2)(p, t0, t1, t2);
  default:
    return PROX_NAN;
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_triangle_distance_gradient)(
    PROX_IPC_V p, PROX_IPC_V t0, PROX_IPC_V t1, PROX_IPC_V t2, prox_ipc_pt_type type,
    PROX_REAL grad[12]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, t0, t1, t2) ||
      !PROX_FN(prox_detail_ipc_pt_core)(p, t0, t1, t2, (int)type, 0, &o))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, 0);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_point_triangle_distance_hessian)(
    PROX_IPC_V p, PROX_IPC_V t0, PROX_IPC_V t1, PROX_IPC_V t2, prox_ipc_pt_type type,
    PROX_REAL *grad, PROX_REAL hess[144]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(p, t0, t1, t2) ||
      !PROX_FN(prox_detail_ipc_pt_core)(p, t0, t1, t2, (int)type, 1, &o))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, hess);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, hess);
}

/// Internal: the core of an edge-edge type into o. Returns 0 for an
/// invalid type.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ipc_ee_core)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                        PROX_IPC_V eb0, PROX_IPC_V eb1, int type,
                                                        int want_z, PROX_IPC_LSQ *o) {
  if (type == PROX_EE_AUTO) type = PROX_FN(prox_detail_ipc_ee_classify)(ea0, ea1, eb0, eb1, 0);
  switch (type) {
  case PROX_EE_EA_EB:
    PROX_FN(prox_detail_ipc_ll)(ea0, ea1, eb0, eb1, want_z, o);
    return 1;
  case PROX_EE_EA0_EB0:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(ea0, eb0, 0, 2, o);
    return 1;
  case PROX_EE_EA0_EB1:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(ea0, eb1, 0, 3, o);
    return 1;
  case PROX_EE_EA1_EB0:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(ea1, eb0, 1, 2, o);
    return 1;
  case PROX_EE_EA1_EB1:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pp)(ea1, eb1, 1, 3, o);
    return 1;
  case PROX_EE_EA_EB0:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(eb0, ea0, ea1, 2, 0, 1, want_z, o);
    return 1;
  case PROX_EE_EA_EB1:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(eb1, ea0, ea1, 3, 0, 1, want_z, o);
    return 1;
  case PROX_EE_EA0_EB:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(ea0, eb0, eb1, 0, 2, 3, want_z, o);
    return 1;
  case PROX_EE_EA1_EB:
    PROX_FN(prox_detail_ipc_clear)(o);
    PROX_FN(prox_detail_ipc_pl)(ea1, eb0, eb1, 1, 2, 3, want_z, o);
    return 1;
  default:
    return 0;
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_distance)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                           PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                           prox_ipc_ee_type type) {
  PROX_REAL d2 = PROX_NAN;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1)) return PROX_NAN;
  switch ((int)type) {
  case PROX_EE_AUTO:
    PROX_FN(prox_detail_ipc_ee_classify)(ea0, ea1, eb0, eb1, &d2);
    return d2;
  case PROX_EE_EA0_EB0:
    return PROX_FN(prox_vdist2)(ea0, eb0);
  case PROX_EE_EA0_EB1:
    return PROX_FN(prox_vdist2)(ea0, eb1);
  case PROX_EE_EA1_EB0:
    return PROX_FN(prox_vdist2)(ea1, eb0);
  case PROX_EE_EA1_EB1:
    return PROX_FN(prox_vdist2)(ea1, eb1);
  case PROX_EE_EA_EB0:
    return PROX_FN(prox_detail_ipc_pl_d2)(eb0, ea0, ea1);
  case PROX_EE_EA_EB1:
    return PROX_FN(prox_detail_ipc_pl_d2)(eb1, ea0, ea1);
  case PROX_EE_EA0_EB:
    return PROX_FN(prox_detail_ipc_pl_d2)(ea0, eb0, eb1);
  case PROX_EE_EA1_EB:
    return PROX_FN(prox_detail_ipc_pl_d2)(ea1, eb0, eb1);
  case PROX_EE_EA_EB:
    return PROX_FN(prox_detail_ipc_ll_d2)(ea0, ea1, eb0, eb1);
  default:
    return PROX_NAN;
  }
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_distance_gradient)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                    PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                                    prox_ipc_ee_type type,
                                                                    PROX_REAL grad[12]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1) ||
      !PROX_FN(prox_detail_ipc_ee_core)(ea0, ea1, eb0, eb1, (int)type, 0, &o))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, 0);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_distance_hessian)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                   PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                                   prox_ipc_ee_type type,
                                                                   PROX_REAL *grad,
                                                                   PROX_REAL hess[144]) {
  PROX_IPC_LSQ o;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1) ||
      !PROX_FN(prox_detail_ipc_ee_core)(ea0, ea1, eb0, eb1, (int)type, 1, &o))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, hess);
  return PROX_FN(prox_detail_ipc_emit)(&o, 4, grad, hess);
}

/* ------------------------------------------------------------------------
 * Edge-edge cross product and mollifier.
 * ---------------------------------------------------------------------- */

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_cross_squarednorm)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                    PROX_IPC_V eb0,
                                                                    PROX_IPC_V eb1) {
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1)) return PROX_NAN;
  return PROX_FN(prox_vlen2)(
      PROX_FN(prox_vcross)(PROX_FN(prox_vsub)(ea1, ea0), PROX_FN(prox_vsub)(eb1, eb0)));
}

/// Internal: gradient (12) and, when hess is not NULL, Hessian (144) of
/// x = |ea x eb|^2; returns x. d/dea = 2 eb x n, d/deb = 2 n x ea with
/// n = ea x eb; the Hessian blocks in (ea, eb) are 2 (|eb|^2 I - eb eb^T),
/// 2 (|ea|^2 I - ea ea^T) and 4 ea eb^T - 2 eb ea^T - 2 (ea.eb) I, spread
/// to the four vertices with the signs of ea = ea1 - ea0, eb = eb1 - eb0.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_cross)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                            PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                            PROX_REAL *grad, PROX_REAL *hess) {
  PROX_IPC_V ea = PROX_FN(prox_vsub)(ea1, ea0);
  PROX_IPC_V eb = PROX_FN(prox_vsub)(eb1, eb0);
  PROX_IPC_V n = PROX_FN(prox_vcross)(ea, eb);
  PROX_IPC_V ga = PROX_FN(prox_vscale)(PROX_FN(prox_vcross)(eb, n), 2);
  PROX_IPC_V gb = PROX_FN(prox_vscale)(PROX_FN(prox_vcross)(n, ea), 2);
  int i;
  PROX_FN(prox_detail_ipc_put)(grad, -1, ga);
  PROX_FN(prox_detail_ipc_put)(grad + 3, 1, ga);
  PROX_FN(prox_detail_ipc_put)(grad + 6, -1, gb);
  PROX_FN(prox_detail_ipc_put)(grad + 9, 1, gb);
  if (hess) {
    PROX_REAL va[3], vb[3], blk[2][2][9];
    PROX_REAL la = PROX_FN(prox_vlen2)(ea), lb = PROX_FN(prox_vlen2)(eb);
    PROX_REAL mab = PROX_FN(prox_vdot)(ea, eb);
    int al, be, j;
    va[0] = ea.x;
    va[1] = ea.y;
    va[2] = ea.z;
    vb[0] = eb.x;
    vb[1] = eb.y;
    vb[2] = eb.z;
    for (al = 0; al < 3; ++al)
      for (be = 0; be < 3; ++be) {
        PROX_REAL id = al == be ? PROX_R(1.0) : PROX_R(0.0);
        blk[0][0][3 * al + be] = 2 * (lb * id - vb[al] * vb[be]);
        blk[1][1][3 * al + be] = 2 * (la * id - va[al] * va[be]);
        blk[0][1][3 * al + be] = 4 * va[al] * vb[be] - 2 * vb[al] * va[be] - 2 * mab * id;
      }
    for (al = 0; al < 3; ++al)
      for (be = 0; be < 3; ++be)
        blk[1][0][3 * al + be] = blk[0][1][3 * be + al];
    for (i = 0; i < 4; ++i)
      for (j = 0; j < 4; ++j) {
        PROX_REAL sg = ((i ^ j) & 1) ? PROX_R(-1.0) : PROX_R(1.0);
        const PROX_REAL *b = blk[i / 2][j / 2];
        for (al = 0; al < 3; ++al)
          for (be = 0; be < 3; ++be)
            hess[(3 * i + al) * 12 + 3 * j + be] = sg * b[3 * al + be];
      }
  }
  return PROX_FN(prox_vlen2)(n);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_cross_squarednorm_gradient)(
    PROX_IPC_V ea0, PROX_IPC_V ea1, PROX_IPC_V eb0, PROX_IPC_V eb1, PROX_REAL grad[12]) {
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, 0);
  return PROX_FN(prox_detail_ipc_cross)(ea0, ea1, eb0, eb1, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_cross_squarednorm_hessian)(
    PROX_IPC_V ea0, PROX_IPC_V ea1, PROX_IPC_V eb0, PROX_IPC_V eb1, PROX_REAL *grad,
    PROX_REAL hess[144]) {
  PROX_REAL g[12];
  PROX_REAL x;
  int i;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, hess);
  x = PROX_FN(prox_detail_ipc_cross)(ea0, ea1, eb0, eb1, g, hess);
  if (grad)
    for (i = 0; i < 12; ++i)
      grad[i] = g[i];
  return x;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(PROX_IPC_V ea0_rest,
                                                                      PROX_IPC_V ea1_rest,
                                                                      PROX_IPC_V eb0_rest,
                                                                      PROX_IPC_V eb1_rest) {
  if (!PROX_FN(prox_detail_ipc_finite)(ea0_rest, ea1_rest, eb0_rest, eb1_rest)) return PROX_NAN;
  return PROX_R(PROX_IPC_MOLLIFIER_FRACTION) * PROX_FN(prox_vdist2)(ea1_rest, ea0_rest) *
         PROX_FN(prox_vdist2)(eb1_rest, eb0_rest);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_mollifier)(PROX_REAL x, PROX_REAL eps_x) {
  PROX_REAL m = 1;
  if (x < eps_x) {
    PROX_REAL y = x / eps_x;
    m = (2 - y) * y;
  }
  return m + ((x - x) + (eps_x - eps_x));
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_mollifier_derivative)(PROX_REAL x, PROX_REAL eps_x) {
  PROX_REAL d = 0;
  if (x < eps_x) d = 2 * (1 - x / eps_x) / eps_x;
  return d + ((x - x) + (eps_x - eps_x));
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_mollifier_second_derivative)(PROX_REAL x, PROX_REAL eps_x) {
  PROX_REAL d = 0;
  if (x < eps_x) {
    /* e = eps_x 2^-H (H = 512, float 64) when eps_x^2 would overflow, or
     * 2^H when it would underflow: e e is eps_x^2 4^-H rounded the same
     * way, and -2 / eps_x^2 is -2^(1 - 2H) / (e e), whose numerator is a
     * power of two in range (subnormal: 2^-1023, float 2^-127), or
     * (-2^(2H - 1) / (e e)) 4, the product exact or an overflow where the
     * rounded quotient would overflow. */
    PROX_REAL big = PROX_IPC_M2_BIG, e;
    if (eps_x > big) {
      e = eps_x * PROX_IPC_M2_DOWN;
      d = PROX_IPC_M2_TINY / (e * e);
    } else if (eps_x < 1 / big) {
      e = eps_x * PROX_IPC_M2_UP;
      d = (PROX_IPC_M2_HUGE / (e * e)) * 4;
    } else {
      d = -2 / (eps_x * eps_x);
    }
  }
  return d + ((x - x) + (eps_x - eps_x));
}

/// Internal: x 2^e for a finite x, exact unless the result leaves the
/// normal range, where it is rounded once (as ldexp): a multiplication by
/// the power of two where that is a normal number.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_scale2)(PROX_REAL x, int e) {
  PROX_REAL s = (PROX_REAL)ldexp(1.0, e);
  if (s >= PROX_REAL_MIN && s <= PROX_REAL_MAX) return x * s;
  return (PROX_REAL)ldexp((double)x, e);
}

/// Internal: the edge-edge mollifier m(x), x = |ea x eb|^2, its gradient
/// m'(x) dx (when grad is not NULL) and Hessian m''(x) dx dx^T + m'(x) d2x
/// (when hess is not NULL; grad then too), zero at and above the
/// threshold; input finite. Below the threshold, with s = dx / eps_x and
/// c = 2 (1 - x / eps_x): m = (2 - x / eps_x) x / eps_x, m' dx = c s and
/// m'' dx dx^T + m' d2x = -2 s s^T + c d2x / eps_x. The edges are scaled
/// first by the power of two 2^-g that brings their largest coordinate
/// into [2^(G-1), 2^G) (G = 250, float 30), so that x, dx and d2x neither
/// overflow nor underflow but for nearly parallel edges; eps_x = me 2^ee
/// enters through me and exponents: x / eps_x is (x' / me) 2^(4g - ee),
/// and every output is formed in the frame and scaled once at the end by
/// 2^(3g - ee) (gradient) or 2^(2g - ee) (Hessian). The frame is the same
/// for the input scaled by any power of two, so the results commute with
/// such a scaling; where nothing leaves the range, they are those of the
/// unscaled formulas, bit for bit.
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ipc_mollify)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                              PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                              PROX_REAL eps_x, PROX_REAL *grad,
                                                              PROX_REAL *hess) {
  PROX_IPC_V ea = PROX_FN(prox_vsub)(ea1, ea0);
  PROX_IPC_V eb = PROX_FN(prox_vsub)(eb1, eb0);
  PROX_IPC_V o = PROX_FN(prox_v3)(0, 0, 0);
  PROX_REAL m = PROX_FN(prox_detail_maxabs)(ea), mb, x, me = 0, y = 0;
  PROX_REAL g[12], u[12], c = 0;
  int i, j, h = 0, ee = 0, below = 0;
  mb = PROX_FN(prox_detail_maxabs)(eb);
  m = mb > m ? mb : m;
  if (m > 0) {
    (void)frexp((double)m, &h);
    h -= PROX_IPC_MOLL_FRAME;
    ea = PROX_FN(prox_detail_ipc_vunscale)(ea, -h);
    eb = PROX_FN(prox_detail_ipc_vunscale)(eb, -h);
  }
  if (grad || hess)
    x = PROX_FN(prox_detail_ipc_cross)(o, ea, o, eb, g, hess);
  else
    x = PROX_FN(prox_vlen2)(PROX_FN(prox_vcross)(ea, eb));
  if (eps_x > 0) {
    /* x 2^4h < eps_x, exactly: x = mx 2^ex, eps_x = me 2^ee. */
    me = (PROX_REAL)frexp((double)eps_x, &ee);
    if (x == 0) {
      below = 1;
    } else {
      int ex, dd;
      PROX_REAL mx = (PROX_REAL)frexp((double)x, &ex);
      dd = ex + 4 * h - ee;
      below = dd < 0 || (dd == 0 && mx < me);
    }
  }
  if (below) {
    y = PROX_FN(prox_detail_ipc_scale2)(x / me, 4 * h - ee);
    c = 2 * (1 - y);
  }
  if (grad) {
    for (i = 0; i < 12; ++i)
      grad[i] = below ? PROX_FN(prox_detail_ipc_scale2)(c * (g[i] / me), 3 * h - ee) : 0;
  }
  if (hess) {
    /* -2 s_i s_j + c d2x_ij / eps_x = 2^(2h - ee) (-2 u_i u_j 2^b +
     * c d2x'_ij / me), u_i = (g'_i / me) 2^a, 2 a + b = 4 h - ee: below
     * the threshold |u_i u_j| 2^b <= |dx'|^2 / (me x') <= 8 |e'|^2. */
    int b = ((4 * h - ee) % 2 + 2) % 2, a = (4 * h - ee - b) / 2;
    PROX_REAL two = b ? PROX_R(4.0) : PROX_R(2.0);
    for (i = 0; i < 12; ++i)
      u[i] = below ? PROX_FN(prox_detail_ipc_scale2)(g[i] / me, a) : 0;
    for (i = 0; i < 12; ++i)
      for (j = 0; j < 12; ++j)
        hess[12 * i + j] = below
                               ? PROX_FN(prox_detail_ipc_scale2)(
                                     -two * (u[i] * u[j]) + c * (hess[12 * i + j] / me), 2 * h - ee)
                               : 0;
  }
  return below ? (2 - y) * y : 1;
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_mollifier)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                            PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                            PROX_REAL eps_x) {
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1) || !(eps_x - eps_x == 0))
    return PROX_NAN;
  return PROX_FN(prox_detail_ipc_mollify)(ea0, ea1, eb0, eb1, eps_x, 0, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_mollifier_gradient)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                     PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                                     PROX_REAL eps_x,
                                                                     PROX_REAL grad[12]) {
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1) || !(eps_x - eps_x == 0))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, 0);
  return PROX_FN(prox_detail_ipc_mollify)(ea0, ea1, eb0, eb1, eps_x, grad, 0);
}

PROX_KERNEL PROX_REAL PROX_FN(prox_ipc_edge_edge_mollifier_hessian)(PROX_IPC_V ea0, PROX_IPC_V ea1,
                                                                    PROX_IPC_V eb0, PROX_IPC_V eb1,
                                                                    PROX_REAL eps_x,
                                                                    PROX_REAL *grad,
                                                                    PROX_REAL hess[144]) {
  PROX_REAL g[12];
  PROX_REAL v;
  int i;
  if (!PROX_FN(prox_detail_ipc_finite)(ea0, ea1, eb0, eb1) || !(eps_x - eps_x == 0))
    return PROX_FN(prox_detail_ipc_nan)(12, grad, hess);
  v = PROX_FN(prox_detail_ipc_mollify)(ea0, ea1, eb0, eb1, eps_x, g, hess);
  if (grad)
    for (i = 0; i < 12; ++i)
      grad[i] = g[i];
  return v;
}

#undef PROX_IPC_V
#undef PROX_IPC_LSQ
#undef PROX_IPC_TAU
#undef PROX_IPC_LO
#undef PROX_IPC_HI
#undef PROX_IPC_KAPPA
#undef PROX_IPC_FRAME
#undef PROX_IPC_FRAME_UP
#undef PROX_IPC_FRAME_DOWN
#undef PROX_IPC_MOLL_FRAME
#undef PROX_IPC_M2_BIG
#undef PROX_IPC_M2_DOWN
#undef PROX_IPC_M2_UP
#undef PROX_IPC_M2_TINY
#undef PROX_IPC_M2_HUGE
