/* SPDX-License-Identifier: MIT */
/* The ray traversal with vector leaf and node tests for AVX-512 (F, DQ,
 * VL): the code of src/mesh/bvh_ray_avx2.c compiled for this instruction
 * set (mask registers for the comparisons; 512-bit vectors for the
 * leaves, 16 floats or 8 doubles a step, and the float refinement in
 * double; the node tests stay at 4 lanes). */
#define PROX_BVHR_AVX512
#include "bvh_ray_avx2.c"
