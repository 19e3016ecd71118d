/* SPDX-License-Identifier: MIT */
/* The packet ray casts (prox/packet.h) for AVX2 + FMA: the vector code of
 * src/simd/packet_vec.inl, 4 doubles or 8 floats per register. Built with
 * -mavx2 -mfma; used only when the CPU has them (src/simd/dispatch.c). */
#define PROX_PK_OPS prox_detail_simd_packet_avx2
#if defined(__AVX2__) && defined(__FMA__)
#define PROX_PK_HAVE 1
#endif
#include "packet_vec.inl"
