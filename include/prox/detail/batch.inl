/* SPDX-License-Identifier: MIT */
/* Template: the types of the batch queries, once per precision. The
 * queries are declared in prox/batch.h, defined in src/simd/batch.c, and
 * the vector code is in src/simd/batch_avx2.c and src/simd/batch_avx512.c. */

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
