/* SPDX-License-Identifier: MIT */
/* The ray traversal with vector leaf and node tests for AVX-512 (F, DQ,
 * VL): the code of src/mesh/bvh_ray_avx2.c compiled for this instruction
 * set (mask registers for the comparisons; 512-bit vectors for the double
 * leaves and the float refinement in double, 256-bit elsewhere). */
#define PROX_BVHR_AVX512
#include "bvh_ray_avx2.c"
