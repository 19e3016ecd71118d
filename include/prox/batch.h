/* SPDX-License-Identifier: MIT */
/// @file batch.h
/// @brief Batch forms of the point queries, vectorised with AVX2 or AVX-512
/// where the CPU has them: one point against many triangles (the leaf loop
/// of a BVH) and many points against one triangle or box.
///
/// The instruction set is chosen once, at the first call, from what the CPU
/// supports; the environment variable PROX_SIMD (scalar, avx2 or avx512)
/// caps the choice (another value, or a level the CPU lacks, is said once
/// on stderr), and prox_simd_set() changes it. The packet ray casts
/// (packet.h) use the same choice.
///
/// Every path gives the same answers, bit for bit: the vector code
/// evaluates the well-conditioned path of prox_point_triangle() (and
/// prox_point_aabb()) with the same operations in the same order and no
/// fused multiply-add, and hands every lane that the scalar kernel treats
/// otherwise (a sliver or degenerate triangle, a result that is not finite)
/// to the scalar kernel itself. The results are therefore those of the
/// scalar kernels as the library compiles them, without floating-point
/// contraction (-ffp-contract=off): squared distance, point, barycentrics
/// and feature, and for the leaf query the index of the nearest triangle,
/// ties going to the lowest index. (User code that compiles the inline
/// kernels with contraction into fused multiply-adds, such as clang's
/// default with FMA enabled, may see them differ in the last bits.)
#ifndef PROX_BATCH_H
#define PROX_BATCH_H

#include "closest.h"

PROX_EXTERN_C_BEGIN

/// Instruction sets of the batch queries (values of prox_simd_level()).
typedef enum prox_simd {
  PROX_SIMD_SCALAR = 0, ///< portable C: the kernels of closest.h in a loop
  PROX_SIMD_AVX2 = 1,   ///< AVX2 and FMA: 4 doubles or 8 floats per step
  PROX_SIMD_AVX512 = 2  ///< AVX-512 F/DQ/VL: 8 doubles or 16 floats per step
} prox_simd;

/// The instruction set the batch queries use now (a prox_simd). At the
/// first call it is the best one the CPU and the library support, capped by
/// the environment variable PROX_SIMD=scalar|avx2|avx512 if that is set (a
/// value that is none of these, or a level the CPU or build lacks, is said
/// once on stderr, and the best supported level is used).
PROX_API int prox_simd_level(void);

/// Makes the batch queries use `level` (a prox_simd) from now on, in every
/// thread. Returns 1 on success, 0 when the CPU or the build lacks it (the
/// level is then unchanged). Meant for tests and benchmarks.
PROX_API int prox_simd_set(int level);

/// The name of an instruction set: "scalar", "avx2", "avx512" ("?" for
/// another value).
PROX_API const char *prox_simd_name(int level);

#include "detail/real_double.h"
#include "detail/batch.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/batch.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_BATCH_H */
