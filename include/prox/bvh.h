/* SPDX-License-Identifier: MIT */
/// @file bvh.h
/// @brief Bounding volume hierarchies over triangle meshes (M2-M4): build,
/// refit, memory, closest point, triangles within a radius, and batches of
/// closest-point queries, in double (prox_bvh over a prox_mesh) and float
/// (prox_bvhf over a prox_meshf).
///
/// The tree (layout in prox/detail/bvh_layout.h) has 4-wide nodes with
/// float boxes rounded outward and leaves of triangles COPIED from the mesh
/// in structure-of-arrays form, in the mesh's precision: after the build
/// the tree does not need the mesh, and every answer is the exact answer
/// of the kernels of prox/closest.h on the mesh's own triangles.
///
/// Answers: the closest-point query returns the minimum over all triangles
/// of prox_point_triangle()'s squared distance, bit for bit, with ties
/// going to the lowest triangle index: the same id and squared distance as
/// a brute-force loop over the triangles in index order that keeps the
/// first strict minimum. The traversal prunes a box only when the kernel's
/// error bound (prox/closest.h) proves that no triangle in it can reach the
/// current best, so this holds for any mesh in the kernels' domain.
///
/// Threads: a built tree is immutable; any number of threads may query it
/// at once (refit and free need exclusive access). Queries never allocate.
///
/// Use (error handling shortened):
///
///     prox_mesh mesh = {vertices, vertex_count, 0, indices, triangle_count};
///     prox_bvh *bvh;
///     prox_error err;
///     if (prox_bvh_build(&mesh, NULL, NULL, &bvh, &err) != PROX_OK)
///       fprintf(stderr, "%s\n", err.message);
///     prox_mesh_closest c;
///     prox_bvh_closest(bvh, prox_v3(x, y, z), INFINITY, &c);
///     // c.triangle, c.point, c.sqdist, c.bary, c.feature
///     prox_bvh_closest_batch(bvh, points, n, INFINITY, results, 0);
///     prox_bvh_free(bvh);
///
/// Batches on an engine's task system: split [0, n) into ranges and run
/// prox_bvh_closest_range() on each from the engine's workers (any split,
/// any order: the results are the same bits).
///
/// GPU: prox_bvh_get_view() exposes the raw arrays, and
/// prox_bvh_view_closest() (header-only, allocation-free, fixed-size
/// stack) runs on them from CUDA device code once the caller has copied
/// the arrays to the device.
#ifndef PROX_BVH_H
#define PROX_BVH_H

#include "mesh.h"
#include "detail/bvh_layout.h"

PROX_EXTERN_C_BEGIN

/// Options of the builders; a NULL `const prox_bvh_options *` means the
/// defaults of prox_bvh_options_default().
typedef struct prox_bvh_options {
  /// Threads of the build: 0 = all cores (the default), 1 = the calling
  /// thread only. The tree is identical, node for node, for any value.
  int threads;
  /// Largest number of triangles in a leaf, 1 to PROX_BVH_MAX_LEAF
  /// (default 8; larger values are capped). Leaves may be smaller: the
  /// surface area heuristic decides.
  int leaf_size;
} prox_bvh_options;

/// The default options (threads 0, leaf_size 8).
PROX_API prox_bvh_options prox_bvh_options_default(void);

/// Statistics of a built tree.
typedef struct prox_bvh_stats {
  size_t bytes;              ///< memory held by the tree, all arrays
  size_t nodes;              ///< 4-wide nodes
  size_t leaves;             ///< leaves (non-empty)
  size_t triangles;          ///< triangles (the mesh's triangle_count)
  int depth;                 ///< levels of nodes (the root alone: 1)
  double bytes_per_triangle; ///< bytes / triangles
} prox_bvh_stats;

#include "detail/real_double.h"
#include "detail/bvh.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/bvh.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_BVH_H */
