/* SPDX-License-Identifier: MIT */
/// @file packet.h
/// @brief Packet forms of the ray casts for BVH traversal: one ray against
/// 4 or 8 boxes and against 4 or 8 triangles at once (SIMD), in double and
/// float (suffix f).
///
/// The ray is prepared once (prox_packet_ray_init); the boxes and triangles
/// are given in structure-of-arrays form, lane i holding box or triangle
/// i. The instruction set is chosen at run time as for the batch queries
/// (prox_simd_level() of batch.h, environment variable PROX_SIMD): AVX2,
/// AVX-512 or portable C. Every path gives the scalar kernels' answers:
/// lane i of prox_packet_aabb8f() hits exactly when prox_raycast_aabbf()
/// hits box i, with the same t (the vector code evaluates the same
/// operations in the same order; a t of zero may differ in its sign, as the
/// vector code clamps the entry to tmin with a max where the scalar kernel
/// tests en >= tmin), and likewise for triangles, where a lane
/// whose edge signs are uncertain in the fast path is handed to
/// prox_raycast_triangle() itself (watertight, exact signs). Requirements:
/// boxes with finite coordinates and lo <= hi on every axis (as a BVH
/// builds them); triangles may be anything.
#ifndef PROX_PACKET_H
#define PROX_PACKET_H

#include "batch.h"
#include "raycast.h"

PROX_EXTERN_C_BEGIN

#include "detail/real_double.h"
#include "detail/packet.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/packet.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_PACKET_H */
