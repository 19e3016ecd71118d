/* SPDX-License-Identifier: MIT */
/* Template: the BVH of prox/bvh.h, once per precision: the handle, the
 * declarations of the compiled builder and queries (src/mesh/), and the
 * header-only traversal for device code. */

/// A built tree over a mesh of this precision (opaque; see
/// prox/detail/bvh_layout.h for what it holds).
typedef struct PROX_FN(prox_bvh) PROX_FN(prox_bvh);

/// The result of a closest-point query on a mesh.
typedef struct PROX_FN(prox_mesh_closest) {
  int found;                ///< 1 when a triangle lies within the maximum distance
  uint32_t triangle;        ///< its index in the mesh (UINT32_MAX when not found)
  PROX_REAL sqdist;         ///< squared distance (found); else the maximum given
  PROX_FN(prox_vec3) point; ///< closest point on that triangle (found)
  PROX_REAL bary[3];        ///< its barycentric coordinates, as prox_point_triangle
  prox_feature feature;     ///< vertex, edge or face of that triangle
} PROX_FN(prox_mesh_closest);

/// The raw arrays of a tree (layout in prox/detail/bvh_layout.h), for the
/// header-only traversal and for copying a tree to a device. Valid while
/// the tree lives and is not refitted.
typedef struct PROX_FN(prox_bvh_view) {
  const prox_bvh_node *nodes; ///< node_count nodes, the root first
  /// Triangles in leaf blocks: the leaf of `count` triangles at positions
  /// first.. has coordinate c of vertex k of its triangle at position pos at
  /// tri[9 first + (3 c + k) count + (pos - first)].
  const PROX_REAL *tri;
  const uint32_t *ids;     ///< ids[pos]: the mesh's triangle index
  uint32_t node_count;     ///< nodes
  uint32_t triangle_count; ///< triangles (positions)
  PROX_REAL max_abs;       ///< largest coordinate magnitude of the triangles
} PROX_FN(prox_bvh_view);

/// Builds a tree over a mesh: binned surface area heuristic, top-down, in
/// `opt->threads` threads, 4-wide nodes with float boxes rounded outward,
/// leaves of copied triangles (see the file comment). The mesh is
/// validated first (prox_mesh_validate()); the tree does not keep it.
/// Centroids that coincide, or a depth past the heuristic's limit, are
/// split by index, so any mesh (a million copies of one triangle) builds
/// in O(n log n) time and O(n) memory. Returns PROX_OK and *out, or an
/// error (*out NULL, err filled, nothing leaked): invalid argument or
/// mesh, out of memory (alloc may be NULL: the C library's).
PROX_API prox_status PROX_FN(prox_bvh_build)(const PROX_FN(prox_mesh) * mesh,
                                             const prox_bvh_options *opt,
                                             const prox_allocator *alloc, PROX_FN(prox_bvh) * *out,
                                             prox_error *err);

/// Frees a tree (NULL does nothing), with the allocator it was built with.
PROX_API void PROX_FN(prox_bvh_free)(PROX_FN(prox_bvh) * bvh);

/// Refits a tree to moved vertices: `mesh` must have the triangle count and
/// the indices of the mesh the tree was built from (not checked beyond the
/// count and validation); the triangles are copied again and every box is
/// recomputed, the topology kept. Returns PROX_OK, or an error from
/// validation (the tree is then unchanged). Not thread-safe with queries.
PROX_API prox_status PROX_FN(prox_bvh_refit)(PROX_FN(prox_bvh) * bvh,
                                             const PROX_FN(prox_mesh) * mesh, prox_error *err);

/// Bytes of memory the tree holds (0 for NULL).
PROX_API size_t PROX_FN(prox_bvh_memory)(const PROX_FN(prox_bvh) * bvh);

/// Statistics of a tree into *stats (all 0 for a NULL tree).
PROX_API void PROX_FN(prox_bvh_get_stats)(const PROX_FN(prox_bvh) * bvh, prox_bvh_stats *stats);

/// The raw arrays of a tree (see prox_bvh_view).
PROX_API void PROX_FN(prox_bvh_get_view)(const PROX_FN(prox_bvh) * bvh,
                                         PROX_FN(prox_bvh_view) * view);

/// Closest point of the mesh to p among triangles whose squared distance
/// is at most max_sqdist (pass INFINITY for no limit). Returns the squared
/// distance and fills *out (may be NULL): found, triangle (ties to the
/// lowest index), squared distance, and the point, barycentrics and
/// feature of prox_point_triangle() on that triangle. The squared distance
/// equals prox_point_triangle()'s on that triangle bit for bit and is the
/// minimum over the mesh. Nothing within max_sqdist: returns max_sqdist,
/// found 0, triangle UINT32_MAX, point and bary NaN, feature NONE. A
/// non-finite p (or NaN max_sqdist) gives NaN and found 0. Uses the SIMD
/// leaf kernels of prox/batch.h (same results at every level).
PROX_API PROX_REAL PROX_FN(prox_bvh_closest)(const PROX_FN(prox_bvh) * bvh, PROX_FN(prox_vec3) p,
                                             PROX_REAL max_sqdist,
                                             PROX_FN(prox_mesh_closest) * out);

/// All triangles whose squared distance to p (prox_point_triangle(), as
/// the closest-point query measures it) is at most max_sqdist: writes the
/// first min(total, capacity) of them, in tree order (an order fixed by
/// the tree, not by triangle index), to ids[] and sqdists[] (sqdists may
/// be NULL; ids may be NULL when capacity is 0) and returns the total, so
/// that a caller whose buffer was too small can retry with capacity =
/// total. A non-finite p or NaN max_sqdist returns 0.
PROX_API size_t PROX_FN(prox_bvh_within)(const PROX_FN(prox_bvh) * bvh, PROX_FN(prox_vec3) p,
                                         PROX_REAL max_sqdist, uint32_t *ids, PROX_REAL *sqdists,
                                         size_t capacity);

/// prox_bvh_closest() for points[i], i in [begin, end), into out[i] (the
/// arrays are indexed from 0, not from begin). For an engine's own task
/// system: split [0, n) into ranges of any size and run each range as a
/// task, in any order, on any thread; the results are those of
/// prox_bvh_closest() point by point, so they do not depend on the split.
/// Each query starts from the previous point's answer (a cheap first bound
/// when consecutive points are near one another).
PROX_API void PROX_FN(prox_bvh_closest_range)(const PROX_FN(prox_bvh) * bvh,
                                              const PROX_FN(prox_vec3) * points,
                                              PROX_REAL max_sqdist,
                                              PROX_FN(prox_mesh_closest) * out, size_t begin,
                                              size_t end);

/// prox_bvh_closest() for n points in `threads` threads (0 = all cores,
/// 1 = the calling thread), results in the callers' order, the same bits
/// for any thread count. Returns PROX_OK (if a thread cannot be started,
/// the others do its share), or PROX_ERROR_INVALID_ARGUMENT for a NULL
/// tree, NULL arrays with n > 0 or threads < 0 (nothing written).
PROX_API prox_status PROX_FN(prox_bvh_closest_batch)(const PROX_FN(prox_bvh) * bvh,
                                                     const PROX_FN(prox_vec3) * points, size_t n,
                                                     PROX_REAL max_sqdist,
                                                     PROX_FN(prox_mesh_closest) * out, int threads);

#include "bvh_query.inl"
