/* SPDX-License-Identifier: MIT */
/* The packet ray casts of prox/packet.h: the public functions of both
 * precisions and the module's scalar entry points (src/simd/packet_api.inl).
 * The vector entry points are in src/simd/packet_avx2.c and
 * src/simd/packet_avx512.c. */
#include "packet_impl.h"

#include <prox/detail/real_double.h>
#include "packet_scalar_lane.inl"
#include "packet_api.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "packet_scalar_lane.inl"
#include "packet_api.inl"
#include <prox/detail/real_end.h>

const prox_simd_packet prox_detail_simd_packet_scalar = {
    .built = 1,
    .aabb4 = prox_pk_scalar_aabb4,
    .aabb8 = prox_pk_scalar_aabb8,
    .triangle4 = prox_pk_scalar_triangle4,
    .triangle8 = prox_pk_scalar_triangle8,
    .aabb4f = prox_pk_scalar_aabb4f,
    .aabb8f = prox_pk_scalar_aabb8f,
    .triangle4f = prox_pk_scalar_triangle4f,
    .triangle8f = prox_pk_scalar_triangle8f,
};
