/* SPDX-License-Identifier: MIT */
/* Private to the batch module (src/simd/batch*.c): its table of entry
 * points per instruction set, and helpers shared by its templates. */
#ifndef PROX_SRC_BATCH_IMPL_H
#define PROX_SRC_BATCH_IMPL_H

#include "dispatch.h"

#include <stdint.h>

/* The address of p[q] for the masked loads of the vector code, formed as
 * an integer: p + q may lie past the array (the masked lanes read nothing
 * there), where pointer arithmetic would be undefined. */
#define PB_AT(p, q) ((const void *)((uintptr_t)(p) + (uintptr_t)(q) * sizeof *(p)))

/* The vector code reads prox_triangle and prox_vec3 arrays as arrays of
 * reals (loads of whole blocks, transposed in registers at a stride of 9
 * or 3 reals). */
_Static_assert(sizeof(prox_vec3) == 3 * sizeof(double), "prox_vec3 padded");
_Static_assert(sizeof(prox_vec3f) == 3 * sizeof(float), "prox_vec3f padded");
_Static_assert(sizeof(prox_triangle) == 9 * sizeof(double), "prox_triangle padded");
_Static_assert(sizeof(prox_trianglef) == 9 * sizeof(float), "prox_trianglef padded");

/* The batch module's entry points at one level (registered in the SIMD
 * dispatch, src/simd/dispatch.h), both precisions. Contracts, for n >= 1
 * (the public functions in src/simd/batch.c handle n == 0 and the optional
 * outputs of the one-to-many queries):
 *   point_triangles*: the minimum over i of prox_point_triangle(p, t[i]),
 *     ties to the lowest i; at the first NaN distance, that NaN. The index
 *     goes to *best_index (never NULL).
 *   points_triangle, points_aabb: as the public functions, for n >= 1 and
 *     at least one output. */
typedef struct prox_simd_batch {
  int built; /* 1 when compiled with its instruction set */
  double (*point_triangles)(prox_vec3 p, const prox_triangle *tris, size_t n, size_t *best_index);
  double (*point_triangles_soa)(prox_vec3 p, const prox_triangle_soa *tris, size_t n,
                                size_t *best_index);
  void (*points_triangle)(const prox_vec3 *pts, size_t n, const prox_triangle *tri,
                          double *sqdist_out, prox_closest *out);
  void (*points_aabb)(const prox_vec3 *pts, size_t n, const prox_aabb *box, double *sqdist_out,
                      prox_closest *out);
  float (*point_trianglesf)(prox_vec3f p, const prox_trianglef *tris, size_t n, size_t *best_index);
  float (*point_triangles_soaf)(prox_vec3f p, const prox_triangle_soaf *tris, size_t n,
                                size_t *best_index);
  void (*points_trianglef)(const prox_vec3f *pts, size_t n, const prox_trianglef *tri,
                           float *sqdist_out, prox_closestf *out);
  void (*points_aabbf)(const prox_vec3f *pts, size_t n, const prox_aabbf *box, float *sqdist_out,
                       prox_closestf *out);
  /* point_triangles_soa for np points (1 to 8) at once, best[k] and
   * best_index[k] for p[k] (the closest-point walks' packets,
   * src/mesh/bvh_query_leaf.inl); NULL where the level has none. */
  void (*point_triangles_soa_multi)(const prox_vec3 *p, int np, const prox_triangle_soa *tris,
                                    size_t n, double *best, size_t *best_index);
  void (*point_triangles_soa_multif)(const prox_vec3f *p, int np, const prox_triangle_soaf *tris,
                                     size_t n, float *best, size_t *best_index);
  /* points_triangle with a triangle per point: pts[i] against tris[i]
   * (the walks' seeds and answers); at every level. */
  void (*points_triangles_each)(const prox_vec3 *pts, size_t n, const prox_triangle *tris,
                                double *sqdist_out, prox_closest *out);
  void (*points_triangles_eachf)(const prox_vec3f *pts, size_t n, const prox_trianglef *tris,
                                 float *sqdist_out, prox_closestf *out);
} prox_simd_batch;

/* The tables of src/simd/batch.c (portable loops), batch_avx2.c and
 * batch_avx512.c (built = 0, and no entry points, when that file was
 * compiled without its instruction set). */
extern PROX_DETAIL_HIDDEN const prox_simd_batch prox_detail_simd_batch_scalar;
extern PROX_DETAIL_HIDDEN const prox_simd_batch prox_detail_simd_batch_avx2;
extern PROX_DETAIL_HIDDEN const prox_simd_batch prox_detail_simd_batch_avx512;

/* The triangle j of a structure-of-arrays set s, into the prox_triangle t. */
#define PROX_BATCH_SOA_GET(t, s, j)                                                                \
  do {                                                                                             \
    int k_;                                                                                        \
    for (k_ = 0; k_ < 3; ++k_) {                                                                   \
      (t).v[k_].x = (s)->x[k_][j];                                                                 \
      (t).v[k_].y = (s)->y[k_][j];                                                                 \
      (t).v[k_].z = (s)->z[k_][j];                                                                 \
    }                                                                                              \
  } while (0)

#endif /* PROX_SRC_BATCH_IMPL_H */
