/* SPDX-License-Identifier: MIT */
/* The ray-triangle kernel's second edge bound (prox_detail_rc_edge_bound2
 * in prox/detail/raycast.inl, with its derivation) lane by lane, for the
 * vector leaves that must give the kernel's bits: the ray packets
 * (src/simd/packet_vec_type.inl) and the BVH's ray leaves
 * (src/mesh/bvh_ray_avx2.c). One body, written in the includer's vector
 * macros PADD, PMUL and PABS (expanded where it is used), in the kernel's
 * order of operations:
 *   (3 eps (a + b) + 32 eps^2 MP MQ) + 8 REAL_MIN eps, with
 *   a = (MP + REAL_MIN)(|XQ| + |YQ|) + (MQ + REAL_MIN)(|XP| + |YP|),
 *   b = |P1| + |P2|
 * for the edge from P = (XP, YP), distance MP, to Q = (XQ, YQ), MQ, whose
 * edge function's products are P1 = XP YQ and P2 = YP XQ; rmin, c3, c32,
 * cmin are REAL_MIN, 3 eps, 32 eps^2 and 8 REAL_MIN eps in every lane. */
#ifndef PROX_SRC_SIMD_RC_BOUND2_VEC_H
#define PROX_SRC_SIMD_RC_BOUND2_VEC_H

#define PROX_RC_BOUND2_V(XP, YP, MP, XQ, YQ, MQ, P1, P2, rmin, c3, c32, cmin)                      \
  PADD(PADD(PMUL(c3, PADD(PADD(PMUL(PADD(MP, rmin), PADD(PABS(XQ), PABS(YQ))),                     \
                               PMUL(PADD(MQ, rmin), PADD(PABS(XP), PABS(YP)))),                    \
                          PADD(PABS(P1), PABS(P2)))),                                              \
            PMUL(c32, PMUL(MP, MQ))),                                                              \
       cmin)

#endif /* PROX_SRC_SIMD_RC_BOUND2_VEC_H */
