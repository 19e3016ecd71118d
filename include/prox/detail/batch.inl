/* SPDX-License-Identifier: MIT */
/* Template: declarations of the batch queries (prox/batch.h), once per
 * precision. The definitions are in src/simd/batch.c and the vector code in
 * src/simd/batch_avx2.c and src/simd/batch_avx512.c. */

/// Triangles in structure-of-arrays form: triangle i has vertex k at
/// (x[k][i], y[k][i], z[k][i]). The nine arrays hold n reals each (as many
/// as the query's n); they may live in one buffer. The vector code loads
/// this form straight into its registers, without the transposes the
/// array-of-structs form needs (see BENCHMARKS.md for what that gains).
typedef struct PROX_FN(prox_triangle_soa) {
  const PROX_REAL *x[3]; ///< x coordinates of vertex 0, 1, 2
  const PROX_REAL *y[3]; ///< y coordinates of vertex 0, 1, 2
  const PROX_REAL *z[3]; ///< z coordinates of vertex 0, 1, 2
} PROX_FN(prox_triangle_soa);

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
PROX_API PROX_REAL PROX_FN(prox_point_triangles)(PROX_FN(prox_vec3) p,
                                                 const PROX_FN(prox_triangle) *
                                                     tris,
                                                 size_t n, size_t *best_index,
                                                 PROX_FN(prox_closest) * best);

/// prox_point_triangles() on triangles in structure-of-arrays form; same
/// results, same rules.
PROX_API PROX_REAL PROX_FN(prox_point_triangles_soa)(
    PROX_FN(prox_vec3) p, const PROX_FN(prox_triangle_soa) * tris, size_t n,
    size_t *best_index, PROX_FN(prox_closest) * best);

/// prox_point_triangle() for each of n points against one triangle:
/// sqdist_out[i] (if not NULL) gets the squared distance of pts[i] and
/// out[i] (if not NULL) its full result, both equal to the scalar kernel's
/// bit for bit. A degenerate or sliver triangle, and any point whose
/// result is not finite, goes through the scalar kernel. n == 0, or both
/// outputs NULL, does nothing.
PROX_API void PROX_FN(prox_points_triangle)(const PROX_FN(prox_vec3) * pts,
                                            size_t n,
                                            const PROX_FN(prox_triangle) * tri,
                                            PROX_REAL *sqdist_out,
                                            PROX_FN(prox_closest) * out);

/// prox_point_aabb() for each of n points against one box: sqdist_out[i]
/// (if not NULL) gets the squared distance of pts[i] and out[i] (if not
/// NULL) its full result, both equal to the scalar kernel's bit for bit.
/// n == 0, or both outputs NULL, does nothing.
PROX_API void PROX_FN(prox_points_aabb)(const PROX_FN(prox_vec3) * pts,
                                        size_t n,
                                        const PROX_FN(prox_aabb) * box,
                                        PROX_REAL *sqdist_out,
                                        PROX_FN(prox_closest) * out);
