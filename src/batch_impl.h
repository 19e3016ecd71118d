/* SPDX-License-Identifier: MIT */
/* Private to the batch layer (src/batch*.c): the table of vector kernels
 * each instruction set provides, and helpers shared by its templates. */
#ifndef PROX_SRC_BATCH_IMPL_H
#define PROX_SRC_BATCH_IMPL_H

#include <prox/batch.h>

#include <stdint.h>

/* The address of p[q] for the masked loads of the vector code, formed as
 * an integer: p + q may lie past the array (the masked lanes read nothing
 * there), where pointer arithmetic would be undefined. */
#define PB_AT(p, q)                                                            \
  ((const void *)((uintptr_t)(p) + (uintptr_t)(q) * sizeof *(p)))

/* The vector code reads prox_triangle and prox_vec3 arrays as arrays of
 * reals (loads of whole blocks, transposed in registers at a stride of 9
 * or 3 reals). */
_Static_assert(sizeof(prox_vec3) == 3 * sizeof(double), "prox_vec3 padded");
_Static_assert(sizeof(prox_vec3f) == 3 * sizeof(float), "prox_vec3f padded");
_Static_assert(sizeof(prox_triangle) == 9 * sizeof(double),
               "prox_triangle padded");
_Static_assert(sizeof(prox_trianglef) == 9 * sizeof(float),
               "prox_trianglef padded");

/* The kernels of one instruction set, both precisions. Contracts, for
 * n >= 1 (the public functions in src/batch.c handle n == 0, the optional
 * outputs of the one-to-many queries and the dispatch):
 *   point_triangles*: the minimum over i of prox_point_triangle(p, t[i]),
 *     ties to the lowest i; at the first NaN distance, that NaN. The index
 *     goes to *best_index (never NULL).
 *   points_triangle, points_aabb: as the public functions, for n >= 1. */
typedef struct prox_batch_ops {
  double (*point_triangles)(prox_vec3 p, const prox_triangle *tris, size_t n,
                            size_t *best_index);
  double (*point_triangles_soa)(prox_vec3 p, const prox_triangle_soa *tris,
                                size_t n, size_t *best_index);
  void (*points_triangle)(const prox_vec3 *pts, size_t n,
                          const prox_triangle *tri, double *sqdist_out,
                          prox_closest *out);
  void (*points_aabb)(const prox_vec3 *pts, size_t n, const prox_aabb *box,
                      double *sqdist_out, prox_closest *out);
  float (*point_trianglesf)(prox_vec3f p, const prox_trianglef *tris, size_t n,
                            size_t *best_index);
  float (*point_triangles_soaf)(prox_vec3f p, const prox_triangle_soaf *tris,
                                size_t n, size_t *best_index);
  void (*points_trianglef)(const prox_vec3f *pts, size_t n,
                           const prox_trianglef *tri, float *sqdist_out,
                           prox_closestf *out);
  void (*points_aabbf)(const prox_vec3f *pts, size_t n, const prox_aabbf *box,
                       float *sqdist_out, prox_closestf *out);
} prox_batch_ops;

/* The active level of src/batch.c, -1 until the first query chooses it
 * (prox_simd_level() then does). Atomic so that threads that race to
 * choose it, or a prox_simd_set() during queries, are not data races.
 * PROX_SIMD_LOAD() reads it without a call (src/packet.c dispatches every
 * packet of a few boxes on it); hidden, so that the library reads it
 * directly, not through the global offset table. */
#if defined(__GNUC__) || defined(__clang__)
#define PROX_DETAIL_HIDDEN __attribute__((visibility("hidden")))
#else
#define PROX_DETAIL_HIDDEN
#endif
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
extern PROX_DETAIL_HIDDEN _Atomic int prox_detail_simd_active;
#define PROX_SIMD_LOAD()                                                       \
  atomic_load_explicit(&prox_detail_simd_active, memory_order_relaxed)
#define PROX_SIMD_STORE(v)                                                     \
  atomic_store_explicit(&prox_detail_simd_active, (v), memory_order_relaxed)
#else
extern PROX_DETAIL_HIDDEN int prox_detail_simd_active;
#define PROX_SIMD_LOAD() (prox_detail_simd_active)
#define PROX_SIMD_STORE(v) (void)(prox_detail_simd_active = (v))
#endif

/* The kernels of src/batch_avx2.c and src/batch_avx512.c, or NULL when that
 * file was compiled without its instruction set (non-x86 targets, or a
 * build that does not pass -mavx2 / -mavx512f ...). Whether the CPU runs
 * them is src/batch.c's business. */
const prox_batch_ops *prox_batch_ops_avx2(void);
const prox_batch_ops *prox_batch_ops_avx512(void);

/* The triangle j of a structure-of-arrays set s, into the prox_triangle t. */
#define PROX_BATCH_SOA_GET(t, s, j)                                            \
  do {                                                                         \
    int k_;                                                                    \
    for (k_ = 0; k_ < 3; ++k_) {                                               \
      (t).v[k_].x = (s)->x[k_][j];                                             \
      (t).v[k_].y = (s)->y[k_][j];                                             \
      (t).v[k_].z = (s)->z[k_][j];                                             \
    }                                                                          \
  } while (0)

#endif /* PROX_SRC_BATCH_IMPL_H */
