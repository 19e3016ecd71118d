/* SPDX-License-Identifier: MIT */
/* Vector code of the packet ray casts for AVX-512 (F, DQ, VL): the code of
 * src/packet_avx2.c compiled for this instruction set, with 8 doubles per
 * 512-bit register and mask registers for every comparison. */
#define PROX_PK_AVX512
#include "packet_avx2.c"
