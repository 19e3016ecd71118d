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
/// Speed across scales: a mesh scaled by a power of two gets the same
/// tree, scaled, while its boxes stay normal floats (tests/
/// test_bvh_domain.c, test_tree_scale), so a double mesh's queries take
/// the same time for coordinates of magnitude about 2^-113 to 2^125.
/// Beyond, its float boxes collapse toward 0 or become infinite: the
/// answers stay exact, but a query visits most of the tree
/// (bench/bench_scale.c, near queries on the bunny against scale 1, three
/// invocations: coordinates about 2^-123, 95-97x the time; 2^-203,
/// 770-840x). Float meshes slow down at the ends of their domain, where
/// the kernels take their wide paths and squared distances near float's
/// limits prune less: coordinates about 2^-23, 1.1-1.3x; 2^-53, 5-7x;
/// 2^-61, 6-9x; 2^56, 2.6-3.8x (AMD EPYC, three invocations; an Intel
/// Xeon, whose subnormal arithmetic costs more, gave 1.9x, 17x, 99x and
/// 3.4-3.8x).
///
/// Threads: a built tree is immutable; any number of threads may query it
/// at once (refit and free need exclusive access). Single queries never
/// allocate (batches: see prox_bvh_closest_batch()).
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
  /// (larger values are capped), or 0 (the default): 16 in a float tree
  /// built where prox_simd_level() is PROX_SIMD_AVX512 (its closest-point
  /// leaf kernel takes 16 floats a step), else 8. Leaves may be smaller:
  /// the surface area heuristic decides. The answers never depend on the
  /// leaf size, only the speed and the tree's layout do (set it to have
  /// the same layout on every machine). Measured (BENCHMARKS.md,
  /// fourteenth session; medians of three invocations on three meshes),
  /// float leaves of 16 against 8: with AVX-512, 0.80-1.02 of the single
  /// closest-point time, 0.78-0.91 of the batches' and 0.97-1.03 of the
  /// first-hit rays' (its ray leaf takes 16 floats a step too); with AVX2
  /// (two invocations), 1.05-1.11 of the closest-point time and 1.03-1.07
  /// of the rays' (hence 8 there).
  int leaf_size;
} prox_bvh_options;

/// The default options (threads 0, leaf_size 0: see above).
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

/// A tree built over a double mesh (prox_mesh); opaque (see
/// prox/detail/bvh_layout.h for what it holds, prox_bvh_get_view() for its
/// arrays). Made by prox_bvh_build(), released by prox_bvh_free().
typedef struct prox_bvh prox_bvh;
/// A tree built over a float mesh (prox_meshf); see prox_bvh.
typedef struct prox_bvhf prox_bvhf;

/// The result of a closest-point query on a double mesh
/// (prox_bvh_closest()). When nothing lies within the maximum distance,
/// found is 0, triangle UINT32_MAX, sqdist the maximum given, point and
/// bary NaN and feature NONE; for a non-finite query point sqdist is NaN.
typedef struct prox_mesh_closest {
  int found;            ///< 1 when a triangle lies within the maximum distance
  uint32_t triangle;    ///< its index in the mesh (UINT32_MAX when not found)
  double sqdist;        ///< squared distance (found); else the maximum given
  prox_vec3 point;      ///< closest point on that triangle (found)
  double bary[3];       ///< its barycentric coordinates, as prox_point_triangle
  prox_feature feature; ///< vertex, edge or face of that triangle
} prox_mesh_closest;

/// prox_mesh_closest for float meshes (prox_bvh_closestf()); same members,
/// in float.
typedef struct prox_mesh_closestf {
  int found;            ///< 1 when a triangle lies within the maximum distance
  uint32_t triangle;    ///< its index in the mesh (UINT32_MAX when not found)
  float sqdist;         ///< squared distance (found); else the maximum given
  prox_vec3f point;     ///< closest point on that triangle (found)
  float bary[3];        ///< its barycentric coordinates, as prox_point_trianglef
  prox_feature feature; ///< vertex, edge or face of that triangle
} prox_mesh_closestf;

/// The raw arrays of a tree over a double mesh (layout in
/// prox/detail/bvh_layout.h), for the header-only traversal
/// (prox_bvh_view_closest(), prox_bvh_view_raycast()) and for copying a
/// tree to a device. Filled by prox_bvh_get_view(); the pointers are the
/// tree's own, valid while the tree lives. After a refit take the view
/// again: the arrays are rewritten in place, but max_abs, which the
/// traversal's pruning bound reads, is a copy. All zero for a NULL tree.
typedef struct prox_bvh_view {
  const prox_bvh_node *nodes; ///< node_count nodes, the root first
  /// Triangles in leaf blocks: the leaf of `count` triangles at positions
  /// first.. has coordinate c of vertex k of its triangle at position pos at
  /// tri[9 first + (3 c + k) count + (pos - first)].
  const double *tri;
  const uint32_t *ids;     ///< ids[pos]: the mesh's triangle index
  uint32_t node_count;     ///< nodes
  uint32_t triangle_count; ///< triangles (positions)
  double max_abs;          ///< largest coordinate magnitude of the triangles
} prox_bvh_view;

/// prox_bvh_view of a tree over a float mesh (prox_bvh_get_viewf()): the
/// triangles in float, the nodes the same.
typedef struct prox_bvh_viewf {
  const prox_bvh_node *nodes; ///< node_count nodes, the root first
  /// Triangles in leaf blocks, as in prox_bvh_view::tri (in float).
  const float *tri;
  const uint32_t *ids;     ///< ids[pos]: the mesh's triangle index
  uint32_t node_count;     ///< nodes
  uint32_t triangle_count; ///< triangles (positions)
  float max_abs;           ///< largest coordinate magnitude of the triangles
} prox_bvh_viewf;

/* The header-only traversal (prox_bvh_view_closest), once per precision;
 * its declarations follow, with the compiled queries'. */
#include "detail/real_double.h"
#include "detail/bvh_query.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/bvh_query.inl"
#include "detail/real_end.h"

/// Builds a tree over a mesh: binned surface area heuristic, top-down, in
/// `opt->threads` threads (opt may be NULL: prox_bvh_options_default()),
/// 4-wide nodes with float boxes rounded outward, leaves of copied
/// triangles (see the file comment). The mesh is validated first
/// (prox_mesh_validate()); the tree does not keep it. Centroids that
/// coincide, or a depth past the heuristic's limit, are split by index, so
/// any valid mesh (a million copies of one triangle, zero-area triangles)
/// builds, in O(n log n) time and O(n) memory (the tree's:
/// prox_bvh_memory(); the build's peak, tree included, is about 100 bytes
/// a triangle plus 32 KiB per thread, or the finished tree where that is
/// larger: with leaves of 4 and 8, 100.0-102.3 measured on meshes of 43k
/// to 1.6M triangles and 108.8-117.6 on ones of 5.6k to 7.4k (the fixed
/// part); with leaves of 2 and 1, 110.8-118.7 and 137.8-148.2); the tree
/// is the same, node for node, for any thread count.
///
/// Returns PROX_OK and *out, or an error with *out NULL, *err filled (err
/// may be NULL) and nothing leaked: PROX_ERROR_INVALID_ARGUMENT (NULL out
/// or mesh array, an allocator without alloc or free, leaf_size < 0 or
/// threads < 0 in the options),
/// PROX_ERROR_INVALID_MESH (see prox_mesh_validate(): no triangles, an
/// index out of range, a non-finite referenced coordinate; or more
/// triangles than a tree holds, 2,147,352,063, checked before the mesh is
/// read),
/// PROX_ERROR_OUT_OF_MEMORY. alloc may be NULL (the C library's). Several
/// trees may be built at once from different threads.
PROX_API prox_status prox_bvh_build(const prox_mesh *mesh, const prox_bvh_options *opt,
                                    const prox_allocator *alloc, prox_bvh **out, prox_error *err);
/// Float version of prox_bvh_build().
PROX_API prox_status prox_bvh_buildf(const prox_meshf *mesh, const prox_bvh_options *opt,
                                     const prox_allocator *alloc, prox_bvhf **out, prox_error *err);

/// Frees a tree (NULL does nothing), with the allocator it was built with.
/// No query may be running on it.
PROX_API void prox_bvh_free(prox_bvh *bvh);
/// Float version of prox_bvh_free().
PROX_API void prox_bvh_freef(prox_bvhf *bvh);

/// Refits a tree to moved vertices: `mesh` must have the triangle count and
/// the indices of the mesh the tree was built from (only the count is
/// checked, beyond validation); the triangles are copied again and every box
/// is recomputed (rounded outward, as built), the topology kept. Queries
/// then answer on the new vertices exactly, but the tree's quality may
/// degrade when the vertices moved far: rebuild then. Returns PROX_OK, or
/// PROX_ERROR_INVALID_ARGUMENT (NULL tree), the mesh's validation error, or
/// PROX_ERROR_INVALID_MESH (another triangle count); the tree is then
/// unchanged. Does not allocate. Not thread-safe with queries on the same
/// tree (it needs exclusive access); views taken before must be taken again
/// (prox_bvh_get_view()).
PROX_API prox_status prox_bvh_refit(prox_bvh *bvh, const prox_mesh *mesh, prox_error *err);
/// Float version of prox_bvh_refit().
PROX_API prox_status prox_bvh_refitf(prox_bvhf *bvh, const prox_meshf *mesh, prox_error *err);

/// Bytes of memory the tree holds, every array included (0 for NULL).
PROX_API size_t prox_bvh_memory(const prox_bvh *bvh);
/// Float version of prox_bvh_memory().
PROX_API size_t prox_bvh_memoryf(const prox_bvhf *bvh);

/// Statistics of a tree into *stats (all 0 for a NULL tree; a NULL stats
/// does nothing).
PROX_API void prox_bvh_get_stats(const prox_bvh *bvh, prox_bvh_stats *stats);
/// Float version of prox_bvh_get_stats().
PROX_API void prox_bvh_get_statsf(const prox_bvhf *bvh, prox_bvh_stats *stats);

/// The raw arrays of a tree into *view (see prox_bvh_view; all zero for a
/// NULL tree, nothing for a NULL view). The arrays stay the tree's: do not
/// free or modify them.
PROX_API void prox_bvh_get_view(const prox_bvh *bvh, prox_bvh_view *view);
/// Float version of prox_bvh_get_view().
PROX_API void prox_bvh_get_viewf(const prox_bvhf *bvh, prox_bvh_viewf *view);

/// Closest point of the mesh to p among triangles whose squared distance
/// is at most max_sqdist (pass INFINITY for no limit). Returns the squared
/// distance and fills *out (may be NULL): found, triangle (ties to the
/// lowest index), squared distance, and the point, barycentrics and
/// feature of prox_point_triangle() on that triangle.
///
/// Bound: the squared distance equals prox_point_triangle()'s on that
/// triangle bit for bit and is the minimum of it over the mesh, so the
/// kernel's error bound (8 eps max(S, d)^2, prox/closest.h) holds. Nothing
/// within max_sqdist: returns max_sqdist, found 0, triangle UINT32_MAX,
/// point and bary NaN, feature NONE. A non-finite p (or NaN max_sqdist)
/// gives NaN and found 0. bvh must be a built tree (not NULL). Uses the
/// SIMD leaf kernels of prox/batch.h (same results at every level). Does
/// not allocate; any number of threads may query one tree at once.
PROX_API double prox_bvh_closest(const prox_bvh *bvh, prox_vec3 p, double max_sqdist,
                                 prox_mesh_closest *out);
/// Float version of prox_bvh_closest().
PROX_API float prox_bvh_closestf(const prox_bvhf *bvh, prox_vec3f p, float max_sqdist,
                                 prox_mesh_closestf *out);

/// All triangles whose squared distance to p (prox_point_triangle(), as
/// the closest-point query measures it) is at most max_sqdist: writes the
/// first min(total, capacity) of them, in tree order (an order fixed by
/// the tree, not by triangle index), to ids[] and sqdists[] (sqdists may
/// be NULL; ids may be NULL when capacity is 0) and returns the total, so
/// that a caller whose buffer was too small can retry with capacity =
/// total. A non-finite p or NaN max_sqdist returns 0. bvh must be a built
/// tree. Does not allocate; thread-safe on a shared tree.
PROX_API size_t prox_bvh_within(const prox_bvh *bvh, prox_vec3 p, double max_sqdist, uint32_t *ids,
                                double *sqdists, size_t capacity);
/// Float version of prox_bvh_within().
PROX_API size_t prox_bvh_withinf(const prox_bvhf *bvh, prox_vec3f p, float max_sqdist,
                                 uint32_t *ids, float *sqdists, size_t capacity);

/// prox_bvh_closest() for points[i], i in [begin, end), into out[i] (the
/// arrays are indexed from 0, not from begin; begin >= end does nothing).
/// For an engine's own task system: split [0, n) into ranges of any size
/// and run each range as a task, in any order, on any thread; the results
/// are those of prox_bvh_closest() point by point, so they do not depend
/// on the split. Each query starts from the previous point's answer (a
/// cheap first bound when consecutive points are near one another). No
/// argument checks (bvh, points and out must be valid); does not allocate.
PROX_API void prox_bvh_closest_range(const prox_bvh *bvh, const prox_vec3 *points,
                                     double max_sqdist, prox_mesh_closest *out, size_t begin,
                                     size_t end);
/// Float version of prox_bvh_closest_range().
PROX_API void prox_bvh_closest_rangef(const prox_bvhf *bvh, const prox_vec3f *points,
                                      float max_sqdist, prox_mesh_closestf *out, size_t begin,
                                      size_t end);

/// prox_bvh_closest() for n points in `threads` threads (0 = all cores,
/// 1 = the calling thread), results in the caller's order, the same bits
/// for any thread count. Non-finite points get prox_bvh_closest()'s answer
/// (NaN, found 0). From 512 points on, the points are queried in the
/// Morton order of their cells (1024 per axis over their box), eight
/// neighbours at a time walking the tree together (each with its own
/// bound and answer, starting from an earlier point's answer), which
/// shares the walk among them and finds the tree's nodes in cache: the
/// order takes 32 n bytes of scratch from the tree's allocator (the one
/// given to the builder), and when that allocation fails the batch runs in
/// the caller's order instead, with the same results. The walk of eight
/// points keeps eight bounds per stack entry: about 21 KB of each running
/// thread's stack, the calling thread's included (float: 12 KB), against
/// about 4 KB for a single query. Returns PROX_OK (if
/// a thread cannot be started, the others do its share), or
/// PROX_ERROR_INVALID_ARGUMENT for a NULL tree, NULL arrays with n > 0 or
/// threads < 0 (nothing written).
PROX_API prox_status prox_bvh_closest_batch(const prox_bvh *bvh, const prox_vec3 *points, size_t n,
                                            double max_sqdist, prox_mesh_closest *out, int threads);
/// Float version of prox_bvh_closest_batch().
PROX_API prox_status prox_bvh_closest_batchf(const prox_bvhf *bvh, const prox_vec3f *points,
                                             size_t n, float max_sqdist, prox_mesh_closestf *out,
                                             int threads);

/// prox_bvh_closest() on a view (prox_bvh_get_view()), header-only:
/// allocation-free, with a fixed stack of PROX_BVH_STACK entries, callable
/// from CUDA device code (the view's arrays must then be in device memory).
/// Leaves are evaluated by prox_point_triangle() in a loop; the answers are
/// those of prox_bvh_closest(), bit for bit, under the same rules
/// (non-finite p or NaN max_sqdist: NaN, found 0). v must be the view of a
/// built tree.
PROX_HD static inline double prox_bvh_view_closest(const prox_bvh_view *v, prox_vec3 p,
                                                   double max_sqdist, prox_mesh_closest *out);
/// Float version of prox_bvh_view_closest().
PROX_HD static inline float prox_bvh_view_closestf(const prox_bvh_viewf *v, prox_vec3f p,
                                                   float max_sqdist, prox_mesh_closestf *out);

PROX_EXTERN_C_END

#endif /* PROX_BVH_H */
