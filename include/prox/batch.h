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

/// The triangle of tris nearest to p: returns the minimum over i < n of
/// prox_point_triangle(p, &tris[i]), the smallest index holding it in
/// *best_index and that triangle's full result in *best (either may be
/// NULL).
///
/// Ties go to the lowest index. n == 0 returns +inf with *best_index =
/// SIZE_MAX and *best set to sqdist +inf, feature NONE, point and
/// parameters NaN. Non-finite input anywhere gives NaN: the result is NaN
/// as soon as one triangle's distance is NaN, and *best_index is the first
/// such triangle. The distance and the index are those of a loop over
/// prox_point_triangle(), bit for bit (see prox/batch.h), so its error
/// bound holds (8 eps S^2). For the leaf loop of a tree, pass best = NULL
/// and call prox_point_triangle() once on the final winner: filling *best
/// costs one more scalar query per call.
PROX_API double prox_point_triangles(prox_vec3 p, const prox_triangle *tris, size_t n,
                                     size_t *best_index, prox_closest *best);
/// Float version of prox_point_triangles().
PROX_API float prox_point_trianglesf(prox_vec3f p, const prox_trianglef *tris, size_t n,
                                     size_t *best_index, prox_closestf *best);

/// prox_point_triangles() on triangles in structure-of-arrays form; same
/// results, same rules.
PROX_API double prox_point_triangles_soa(prox_vec3 p, const prox_triangle_soa *tris, size_t n,
                                         size_t *best_index, prox_closest *best);
/// Float version of prox_point_triangles_soa().
PROX_API float prox_point_triangles_soaf(prox_vec3f p, const prox_triangle_soaf *tris, size_t n,
                                         size_t *best_index, prox_closestf *best);

/// prox_point_triangle() for each of n points against one triangle:
/// sqdist_out[i] (if not NULL) gets the squared distance of pts[i] and
/// out[i] (if not NULL) its full result, both equal to the scalar kernel's
/// bit for bit. A degenerate or sliver triangle, and any point whose
/// result is not finite, goes through the scalar kernel. n == 0, or both
/// outputs NULL, does nothing.
PROX_API void prox_points_triangle(const prox_vec3 *pts, size_t n, const prox_triangle *tri,
                                   double *sqdist_out, prox_closest *out);
/// Float version of prox_points_triangle().
PROX_API void prox_points_trianglef(const prox_vec3f *pts, size_t n, const prox_trianglef *tri,
                                    float *sqdist_out, prox_closestf *out);

/// prox_point_aabb() for each of n points against one box: sqdist_out[i]
/// (if not NULL) gets the squared distance of pts[i] and out[i] (if not
/// NULL) its full result, both equal to the scalar kernel's bit for bit.
/// n == 0, or both outputs NULL, does nothing.
PROX_API void prox_points_aabb(const prox_vec3 *pts, size_t n, const prox_aabb *box,
                               double *sqdist_out, prox_closest *out);
/// Float version of prox_points_aabb().
PROX_API void prox_points_aabbf(const prox_vec3f *pts, size_t n, const prox_aabbf *box,
                                float *sqdist_out, prox_closestf *out);

PROX_EXTERN_C_END

#endif /* PROX_BATCH_H */
