/* SPDX-License-Identifier: MIT */
/* The packet ray casts (prox/packet.h) for AVX-512 F, DQ and VL: the vector
 * code of src/simd/packet_vec.inl, 8 doubles per 512-bit register and mask
 * registers for every comparison. Built with -mavx512f -mavx512dq
 * -mavx512vl -mavx2 -mfma; used only when the CPU has them
 * (src/simd/dispatch.c). */
#define PROX_PK_OPS prox_detail_simd_packet_avx512
#define PROX_PK_AVX512 1
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__) && defined(__AVX2__) && \
    defined(__FMA__)
#define PROX_PK_HAVE 1
#endif
#include "packet_vec.inl"
