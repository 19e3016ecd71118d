/* SPDX-License-Identifier: MIT */
/* Private to the packet module (src/simd/packet*.c): its table of entry
 * points per instruction set, registered in the SIMD dispatch
 * (src/simd/dispatch.h). */
#ifndef PROX_SRC_PACKET_IMPL_H
#define PROX_SRC_PACKET_IMPL_H

#include "dispatch.h"

#include <prox/packet.h>

/* The entry points of one level, both precisions, with the contracts of
 * the public functions of the same names (prox/packet.h), which call
 * them. */
typedef struct prox_simd_packet {
  int built; /* 1 when compiled with its instruction set */
  int (*aabb4)(const prox_packet_ray *r, const prox_box4 *b, double *tnear);
  int (*aabb8)(const prox_packet_ray *r, const prox_box8 *b, double *tnear);
  int (*triangle4)(const prox_packet_ray *r, const prox_tri4 *t, prox_packet_hit8 *hit);
  int (*triangle8)(const prox_packet_ray *r, const prox_tri8 *t, prox_packet_hit8 *hit);
  int (*aabb4f)(const prox_packet_rayf *r, const prox_box4f *b, float *tnear);
  int (*aabb8f)(const prox_packet_rayf *r, const prox_box8f *b, float *tnear);
  int (*triangle4f)(const prox_packet_rayf *r, const prox_tri4f *t, prox_packet_hit8f *hit);
  int (*triangle8f)(const prox_packet_rayf *r, const prox_tri8f *t, prox_packet_hit8f *hit);
} prox_simd_packet;

/* The tables of src/simd/packet.c (portable code), packet_avx2.c and
 * packet_avx512.c (built = 0, and no entry points, when that file was
 * compiled without its instruction set). */
extern PROX_DETAIL_HIDDEN const prox_simd_packet prox_detail_simd_packet_scalar;
extern PROX_DETAIL_HIDDEN const prox_simd_packet prox_detail_simd_packet_avx2;
extern PROX_DETAIL_HIDDEN const prox_simd_packet prox_detail_simd_packet_avx512;

#endif /* PROX_SRC_PACKET_IMPL_H */
