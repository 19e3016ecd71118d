/* SPDX-License-Identifier: MIT */
/// @file sign.h
/// @brief Inside or outside, and signed distance, for triangle meshes (M3,
/// the sign): angle-weighted pseudo-normals, exact crossing counts,
/// generalized winding numbers, and signed distance on a grid.
///
/// A `prox_sdf` (double meshes) or `prox_sdff` (float meshes) joins a
/// built BVH (prox/bvh.h) with what the sign needs: the mesh's topology
/// (prox/topology.h), pseudo-normals and winding-number moments. Queries
/// on it never allocate and are thread-safe.
///
/// Methods (prox_sign_method), and what "inside" means:
/// - PROX_SIGN_PSEUDONORMAL (Baerentzen and Aanaes 2005): the sign of
///   (p - c) . n, c the closest point and n the angle-weighted
///   pseudo-normal of the feature (face, edge or vertex) that holds it.
///   Right for closed, manifold, consistently oriented meshes without
///   self-intersections (forced, it does not look for them; AUTO does:
///   forced on a mesh that passes through or touches itself, the signed
///   distance may take the wrong side near such places, while
///   prox_sdf_inside() may still answer from the inside grid, the exact
///   count, and so differ from it there).
///   Where that test is not certain (p within about 1e-9 of its distance
///   from being tangent to a face, or 1e-4 to an edge or a vertex, whose
///   pseudo-normals are kept in 16 bits a coordinate; or the closest
///   triangle has zero area, or its feature's pseudo-normal vanishes), the
///   sign is taken from PROX_SIGN_CROSSINGS instead, so a sign is never a
///   guess.
/// - PROX_SIGN_CROSSINGS: the winding number as the signed number of times
///   a segment from p to a point outside the mesh's box crosses the mesh
///   (+1 leaving through the front of a triangle, -1 entering), each
///   crossing decided with exact predicates (orient3d with a filter and an
///   expansion fallback); a segment through an edge or a vertex is replaced
///   by another. For a closed mesh this is the exact winding number. For an
///   open mesh it is the crossing count of one segment (it depends on the
///   segment: use PROX_SIGN_WINDING there).
/// - PROX_SIGN_WINDING: the generalized winding number (Jacobson et al.
///   2013), the sum of the triangles' signed solid angles over 4 pi, with
///   the hierarchical far-field approximation of Barill et al. 2018
///   (first-order dipoles per BVH node): a node whose bounding sphere seen
///   from p is smaller than 1/accuracy of its distance is taken as one
///   dipole. Meaningful for open, non-manifold and self-intersecting
///   meshes; its error is bounded by the caller's accuracy setting (the
///   test suite measures it against the exact sum). At infinite accuracy
///   it is not approximated: seen from p, the sum of the triangles' solid
///   angles equals 4 pi times the signed crossing count of a ray from p
///   (exact, as for CROSSINGS) plus the solid angles of the triangles that
///   join the ray's antipodal direction to each boundary edge (the edges
///   the triangles traverse more often one way than the other, with that
///   multiplicity), which are rounded once each: up to 3e-13 from the
///   exact sum on the test meshes (the teapot; the test asserts 1e-12),
///   reported uncertain within 1e-12 times the boundary's size of 1/2.
/// - PROX_SIGN_AUTO (the default): PSEUDONORMAL when the topology is
///   closed, manifold and oriented; else CROSSINGS when every edge is
///   traversed by the triangles as often one way as the other (a
///   non-manifold mesh that is closed and oriented as a chain, such as
///   cycloidal.ply: the crossing count is then the exact winding number,
///   and the inside grid below serves it); else WINDING. When the
///   boundary is small beside the mesh (its edges, times their
///   multiplicities, at most a quarter of the triangles: a scan with
///   holes, the bunny) and the accuracy finite, AUTO may close it with
///   caps: the boundary is taken apart into simple loops (loops that meet
///   at a vertex apart), each closed by triangles between its own vertices
///   (halving the loop, so that a stretch of the rim is a compact
///   cluster); the mesh less these caps is a cycle whose crossing count
///   the inside grid gives exactly, and the winding number is that count
///   plus the caps' own winding number, from a tree of the caps at the
///   caller's accuracy. Only the caps are approximated, so it is more
///   accurate than the whole mesh's hierarchy (the test suite, 300 and
///   3,000 points: the bunny within 0.0014-0.0029 of the exact sum at
///   accuracy 2, against 0.047-0.053 for WINDING forced) and much faster
///   (the bunny, interleaved runs: signed distance near the surface
///   1.8-1.9x its closest point's time instead of 5.8-7.1x, the inside
///   test 12-14x faster; BENCHMARKS.md). A point on a cap, or so near one
///   that the side its solid angle takes is not certain, gets the mesh's
///   own hierarchy instead. AUTO keeps the caps where its cost model
///   (below) finds them the cheapest evaluation (the bunny, yes; the
///   teapot, whose 48 loops are large beside it, no). Otherwise (or a
///   boundary larger than that, such as an unwelded STL's) WINDING is
///   evaluated exactly (as at infinite accuracy) when that is the
///   cheaper: the build runs the evaluations at 64 fixed points near the
///   surface and across the box and weighs the work each did (the
///   hierarchy's triangles, dipoles and nodes; the segment's nodes and
///   triangles and one solid angle per boundary edge; the caps' tree as
///   the hierarchy, plus the grid's count) by its measured cost. A mesh with few boundary edges
///   whose hierarchy opens many leaves goes exact. On cycloidal.ply (2,687
///   slivers, no boundary edge; AUTO takes CROSSINGS there) the hierarchy
///   sums about 1,200 solid angles a query near the surface, against 53
///   on the bunny, and the exact evaluation was 24x (near) and 34x
///   (across the box) faster in one bench_sign run (BENCHMARKS.md); the
///   hierarchy of adis16480.stl (22,308 boundary edges) is kept. The choice depends only
///   on the mesh and its tree (the same on every run for a given tree); force WINDING to have the
///   hierarchy. When such a mesh passes through or touches itself (prox_mesh_self_intersections()
///   finds a pair) or its components' boxes overlap (components that may touch or nest), the build
///   also finds the triangles whose pseudo-normal sign could be wrong: those that meet another, and
///   those whose front is not outside (winding number 0 in front, checked exactly); near them the
///   exact crossing count decides instead, so the sign is the winding number's everywhere. The same
///   is done when the inside grid (see prox_sdf_inside()) finds a winding number other than 0 or 1
///   (an inverted mesh, shells nested the same way).
///
/// Inside means winding number above 1/2 (for the pseudo-normal method:
/// the negative side of the pseudo-normal, which is the same thing on the
/// meshes it is meant for). A mesh wound inward (inverted) thus has
/// nothing inside under the winding methods and AUTO (its winding number
/// is -1 or 0), and its inside and outside swapped under the pseudo-normal
/// method forced, which follows the winding of the triangles. Duplicated faces make a closed mesh's
/// winding number 2 inside (still inside) and its topology non-manifold (AUTO then counts
/// crossings: each edge is traversed twice each way).
///
/// Scale: the methods and the inside grid work alike for meshes whose
/// coordinates lie anywhere in the kernels' domain (prox/closest.h);
/// tests/test_mesh_sign.c checks closed meshes at scales from 2^-480 to
/// 2^478 (float meshes 2^-38 to 2^38, magnitudes to 2^+-58) against the
/// exact oracle, and the winding number of an open mesh at such scales
/// against a long-double sum of solid angles. A float mesh far from the
/// origin against its size (1024 sizes: 14 bits of the size left) leaves
/// the pseudo-normals uncertain at more points (8-15% of the test's
/// points, half of them within 1% of the diagonal of the surface, over 48
/// spheres of 8 seeds; nearer the origin at most about 2%), which
/// crossings then decide. Above about 2^255 the areas of the hierarchical
/// winding number's clusters overflow and it sums the triangles' solid
/// angles instead (the same accuracy, more time).
#ifndef PROX_SIGN_H
#define PROX_SIGN_H

#include "bvh.h"
#include "topology.h"

PROX_EXTERN_C_BEGIN

/// How the sign is decided (see the file comment).
typedef enum prox_sign_method {
  PROX_SIGN_AUTO = 0,         ///< by the topology
  PROX_SIGN_PSEUDONORMAL = 1, ///< angle-weighted pseudo-normals
  PROX_SIGN_CROSSINGS = 2,    ///< exact signed crossing count
  PROX_SIGN_WINDING = 3       ///< generalized winding number, hierarchical
} prox_sign_method;

/// Options of prox_sdf_build(); NULL means prox_sdf_options_default().
typedef struct prox_sdf_options {
  int method; ///< a prox_sign_method (default AUTO)
  /// PROX_SIGN_WINDING: a node is one dipole when its distance exceeds
  /// `accuracy` times its radius (default 2; larger is slower and more
  /// accurate). Under AUTO the winding number may instead be exact, or
  /// approximated over the caps of the boundary only (see PROX_SIGN_AUTO
  /// above). Infinity gives the winding number without approximation:
  /// the exact signed crossing count of one ray plus the spherical
  /// triangles from the ray's antipode to the mesh's boundary edges, in
  /// time O(log n + boundary edges) per query (see the file comment).
  double accuracy;
  /// PROX_SIGN_WINDING: a winding number within this of 1/2 is reported
  /// uncertain (default 0.25).
  double tolerance;
  /// Threads of prox_sdf_build()'s self-intersection and front checks (0,
  /// the default: all cores); the object is the same for any count.
  int threads;
} prox_sdf_options;

/// The default options: AUTO, accuracy 2, tolerance 0.25, all cores.
PROX_API prox_sdf_options prox_sdf_options_default(void);

/// A signed-distance object over a double mesh (opaque): made by
/// prox_sdf_build(), released by prox_sdf_free(); immutable, so queries on
/// it are thread-safe.
typedef struct prox_sdf prox_sdf;
/// A signed-distance object over a float mesh (opaque); see prox_sdf.
typedef struct prox_sdff prox_sdff;

/// The result of a signed query on a double mesh (prox_sdf_distance()).
/// For a non-finite query point: closest.found 0, closest.triangle
/// UINT32_MAX, closest.sqdist NaN (the other members of closest 0),
/// distance and winding NaN, inside 0, certain 0.
typedef struct prox_signed {
  prox_mesh_closest closest; ///< the unsigned closest point
  double distance;           ///< signed distance: negative inside, 0 on the surface
  int inside;                ///< 1 inside (winding number above 1/2), else 0
  int certain;               ///< 0 where the sign could be either (see prox_sdf_distance)
  int method;                ///< the prox_sign_method that decided the sign
  /// The winding number found by the deciding method: an integer for
  /// CROSSINGS, the approximation for WINDING, 1 (inside) or 0 (outside)
  /// for PSEUDONORMAL, which computes none; 0.5 on the surface.
  double winding;
} prox_signed;

/// prox_signed for float meshes (prox_sdf_distancef()): the closest point
/// and the distance in float, the winding number in double.
typedef struct prox_signedf {
  prox_mesh_closestf closest; ///< the unsigned closest point
  float distance;             ///< signed distance: negative inside, 0 on the surface
  int inside;                 ///< 1 inside (winding number above 1/2), else 0
  int certain;                ///< 0 where the sign could be either (see prox_sdf_distance)
  int method;                 ///< the prox_sign_method that decided the sign
  /// The winding number found by the deciding method (see
  /// prox_signed::winding).
  double winding;
} prox_signedf;

/// Builds a signed-distance object from a mesh and a tree built over it
/// (prox_bvh_build() on the same mesh; the object keeps a pointer to the
/// tree, which must outlive it, and copies what it needs of the mesh).
/// topology may be NULL (then it is computed here) or the mesh's
/// (prox_mesh_topology_build()); it is not kept. opt may be NULL
/// (prox_sdf_options_default()).
///
/// AUTO looks for self-intersections (prox_mesh_self_intersections()) when
/// the topology would allow pseudo-normals. A closed, consistently oriented
/// mesh (or any mesh whose edges are all traversed as often one way as
/// the other) under PSEUDONORMAL or CROSSINGS, and an open mesh whose
/// boundary AUTO caps (over the mesh and its caps), also gets an inside grid: about
/// eight cubic cells per triangle (4096 to 2^22 cells), each cell away from
/// the surface with its exact winding number, each other cell with the
/// triangles that may touch it and 4 x 4 x 4 sub-cells, those that no
/// triangle touches with their winding number where a path of such
/// sub-cells leads to it from a neighbour. Any valid mesh builds (degenerate and
/// zero-area triangles included; see the file comment for what "inside"
/// then means).
///
/// Returns PROX_OK and *out, or an error with *out NULL, *err filled (err
/// may be NULL) and nothing leaked: PROX_ERROR_INVALID_ARGUMENT (NULL mesh,
/// tree or out, a tree of another triangle count, an unknown method),
/// PROX_ERROR_INVALID_MESH (see prox_mesh_validate()),
/// PROX_ERROR_OUT_OF_MEMORY. alloc may be NULL (the C library).
/// Memory per triangle, measured through a counting allocator on eight
/// meshes (closed: bunny_watertight, armadillo, dragon, spot, fandisk;
/// open: bunny, teapot, cycloidal): on the closed ones 195-228 bytes
/// under PSEUDONORMAL (two records of each triangle, one by index and one
/// in the tree's order for the sign, and the inside grid), 131-164 under
/// CROSSINGS, 85-86 under WINDING, the build's peak 340-372, 276-308 and
/// 183-184 (the topology, when computed here, included); on the open ones
/// 128 under PSEUDONORMAL (forced), 64 under CROSSINGS, 85
/// under WINDING, peaks 225-231, 177-179, 182-188; AUTO with caps (the
/// bunny: the inside grid over the mesh and its caps) 160, peak 305. Build time about
/// O(n log n) for n triangles; the
/// self-intersection and front checks run in opt->threads threads, the rest
/// in one (the same object for any count).
PROX_API prox_status prox_sdf_build(const prox_mesh *mesh, const prox_bvh *bvh,
                                    const prox_mesh_topology *topology, const prox_sdf_options *opt,
                                    const prox_allocator *alloc, prox_sdf **out, prox_error *err);
/// Float version of prox_sdf_build().
PROX_API prox_status prox_sdf_buildf(const prox_meshf *mesh, const prox_bvhf *bvh,
                                     const prox_mesh_topology *topology,
                                     const prox_sdf_options *opt, const prox_allocator *alloc,
                                     prox_sdff **out, prox_error *err);

/// The pairs of triangles of a mesh that meet other than in what they
/// share, decided exactly (orient3d with a filter and expansions): two
/// triangles with no common vertex index that meet at all (touching
/// counts), two with a common edge that are coplanar and on the same side
/// of it (folded onto each other), two with one common vertex that meet at
/// another point, and two with the same three indices. Triangles of zero
/// area are left out (they have no surface of their own). A mesh with such
/// a pair passes through itself (or touches itself), and its pseudo-normal
/// sign may be wrong: prox_sdf_build()'s AUTO checks this. `bvh` is a tree
/// built over the mesh (prox_bvh_build()).
///
/// Returns PROX_OK with *count the number of pairs and the first
/// min(*count, capacity) of them in pairs[2 k] < pairs[2 k + 1], in
/// increasing order (of the first, then the second); or
/// PROX_ERROR_INVALID_ARGUMENT (NULL mesh, tree or count, NULL pairs with
/// capacity > 0, a tree of another triangle count) or the mesh's
/// validation error, *count 0. Does not allocate; thread-safe.
PROX_API prox_status prox_mesh_self_intersections(const prox_mesh *mesh, const prox_bvh *bvh,
                                                  uint32_t *pairs, size_t capacity, size_t *count,
                                                  prox_error *err);
/// Float version of prox_mesh_self_intersections().
PROX_API prox_status prox_mesh_self_intersectionsf(const prox_meshf *mesh, const prox_bvhf *bvh,
                                                   uint32_t *pairs, size_t capacity, size_t *count,
                                                   prox_error *err);

/// Frees a signed-distance object (NULL does nothing), with the allocator
/// it was built with; not its tree. No query may be running on it.
PROX_API void prox_sdf_free(prox_sdf *sdf);
/// Float version of prox_sdf_free().
PROX_API void prox_sdf_freef(prox_sdff *sdf);

/// The method PROX_SIGN_AUTO resolved to, or the one forced (a
/// prox_sign_method, never AUTO; 0 for a NULL object).
PROX_API int prox_sdf_method(const prox_sdf *sdf);
/// Float version of prox_sdf_method().
PROX_API int prox_sdf_methodf(const prox_sdff *sdf);

/// The accuracy the object's winding numbers (prox_signed.winding,
/// prox_sdf_winding()) are evaluated at: INFINITY where they are exact,
/// which is always under PSEUDONORMAL and CROSSINGS (exact crossing
/// counts) and under WINDING at infinite accuracy or where AUTO chose the
/// exact evaluation (see PROX_SIGN_AUTO); else the options' accuracy (the
/// hierarchical approximation). NaN for a NULL object.
PROX_API double prox_sdf_accuracy(const prox_sdf *sdf);
/// Float version of prox_sdf_accuracy().
PROX_API double prox_sdf_accuracyf(const prox_sdff *sdf);

/// The number of triangles that close the boundary's loops where AUTO
/// evaluates the winding number through caps (see PROX_SIGN_AUTO: the
/// exact crossing count of the mesh less the caps plus the caps' winding
/// number at the accuracy), or 0 where it does not (any other method or
/// evaluation, a NULL object).
PROX_API size_t prox_sdf_caps(const prox_sdf *sdf);
/// Float version of prox_sdf_caps().
PROX_API size_t prox_sdf_capsf(const prox_sdff *sdf);

/// Signed distance from p to the mesh: |distance| is the closest-point
/// query's distance (prox_bvh_closest(), the square root of its squared
/// distance, so its bound carries over), negative inside. *out (may be
/// NULL) gets the closest point, the sign's method, whether it is certain,
/// and the winding number. certain is 0 when p lies on the surface
/// (distance 0: inside 0), or, for WINDING, when the winding number is
/// within the tolerance of 1/2; the pseudo-normal and crossing methods are
/// otherwise always certain (an uncertain pseudo-normal test is replaced by
/// the exact count). A non-finite p gives NaN, inside 0, certain 0. sdf
/// must not be NULL. Does not allocate; thread-safe.
PROX_API double prox_sdf_distance(const prox_sdf *sdf, prox_vec3 p, prox_signed *out);
/// Float version of prox_sdf_distance().
PROX_API float prox_sdf_distancef(const prox_sdff *sdf, prox_vec3f p, prox_signedf *out);

/// Inside test: 1 when p is inside (as prox_sdf_distance() decides it,
/// except under pseudo-normals forced on a mesh that passes through or
/// touches itself: see PROX_SIGN_PSEUDONORMAL), else 0; *certain (may be
/// NULL) as there. It computes no closest point: on a closed, consistently
/// oriented mesh, or one closed as a chain (PSEUDONORMAL or CROSSINGS), it reads the inside grid
/// built with the object (a cell away from every triangle holds its exact winding number; elsewhere
/// an exact crossing count along a short segment to a nearby such cell, along an axis where one is
/// near, so the answer is the exact winding number's); WINDING evaluates the winding number. A
/// non-finite p gives 0, certain 0. Does not allocate; thread-safe.
PROX_API int prox_sdf_inside(const prox_sdf *sdf, prox_vec3 p, int *certain);
/// Float version of prox_sdf_inside().
PROX_API int prox_sdf_insidef(const prox_sdff *sdf, prox_vec3f p, int *certain);

/// The winding number at p by the object's method when that is CROSSINGS
/// or WINDING, else (PSEUDONORMAL) by CROSSINGS: the signed crossing count
/// (an integer) or the approximation within the accuracy setting; 0.5 where
/// the crossing count finds p on the surface. NaN for a non-finite p. Does
/// not allocate; thread-safe.
PROX_API double prox_sdf_winding(const prox_sdf *sdf, prox_vec3 p);
/// Float version of prox_sdf_winding() (the winding number in double).
PROX_API double prox_sdf_windingf(const prox_sdff *sdf, prox_vec3f p);

/// The exact signed crossing count of the segment from p to q (see the
/// file comment; +1 leaving through a triangle's front). Returns 1 and
/// *count (count may be NULL), or 0 when the segment touches an edge or a
/// vertex of a triangle it crosses, or p or q lies in the plane of a
/// triangle the segment meets, or p or q is not finite (no count then).
/// For a closed mesh and q outside it, *count is the winding number at p.
/// Does not allocate; thread-safe.
PROX_API int prox_sdf_crossings(const prox_sdf *sdf, prox_vec3 p, prox_vec3 q, long *count);
/// Float version of prox_sdf_crossings().
PROX_API int prox_sdf_crossingsf(const prox_sdff *sdf, prox_vec3f p, prox_vec3f q, long *count);

/// prox_sdf_distance() for n points in `threads` threads (0 = all cores),
/// distances into dist[i] and, when out is not NULL, results into out[i];
/// the same bits for any thread count. Like prox_bvh_closest_batch(), from
/// 512 points on it queries them in a coherent (Morton) order, eight
/// neighbours walking the tree together, with 32 n bytes of scratch from
/// the allocator given to prox_sdf_build() (the caller's order, one point
/// at a time, with the same results, when that allocation fails), and
/// about 21 KB of each running thread's stack (float 12 KB; see
/// prox_bvh_closest_batch()).
/// Returns PROX_OK or
/// PROX_ERROR_INVALID_ARGUMENT (NULL object, NULL points or dist with
/// n > 0, threads < 0; nothing written).
PROX_API prox_status prox_sdf_batch(const prox_sdf *sdf, const prox_vec3 *points, size_t n,
                                    double *dist, prox_signed *out, int threads);
/// Float version of prox_sdf_batch().
PROX_API prox_status prox_sdf_batchf(const prox_sdff *sdf, const prox_vec3f *points, size_t n,
                                     float *dist, prox_signedf *out, int threads);

/// prox_sdf_inside() for n points in `threads` threads (0 = all cores):
/// inside[i] its answer for points[i] (1 inside, else 0) and, when certain
/// is not NULL, certain[i] its certainty (1 or 0); the same for any thread
/// count (each answer is the point's own). A non-finite point gives 0,
/// certain 0. Does not allocate (beyond the threads). Returns PROX_OK or
/// PROX_ERROR_INVALID_ARGUMENT (NULL object, NULL points or inside with
/// n > 0, threads < 0; nothing written).
PROX_API prox_status prox_sdf_inside_batch(const prox_sdf *sdf, const prox_vec3 *points, size_t n,
                                           uint8_t *inside, uint8_t *certain, int threads);
/// Float version of prox_sdf_inside_batch().
PROX_API prox_status prox_sdf_inside_batchf(const prox_sdff *sdf, const prox_vec3f *points,
                                            size_t n, uint8_t *inside, uint8_t *certain,
                                            int threads);

/// Signed distance on a regular grid: sample (i, j, k) is at origin +
/// (i dx, j dy, k dz) with spacing = (dx, dy, dz), and goes to
/// out[(k ny + j) nx + i] as a float (the layout of a NumPy array of shape
/// (nz, ny, nx)), as prox_sdf_distance() gives it. Samples are processed
/// in bricks of 4 x 4 x 4, in Morton order within a brick, eight
/// neighbours walking the tree together (the stack of prox_sdf_batch());
/// `threads`
/// as in prox_sdf_batch(), the same bits for any count. Returns PROX_OK,
/// or PROX_ERROR_INVALID_ARGUMENT (NULL object or out, a zero or
/// overflowing size, non-finite origin or spacing, threads < 0; nothing
/// written).
PROX_API prox_status prox_sdf_grid(const prox_sdf *sdf, prox_vec3 origin, prox_vec3 spacing,
                                   size_t nx, size_t ny, size_t nz, float *out, int threads);
/// Float version of prox_sdf_grid().
PROX_API prox_status prox_sdf_gridf(const prox_sdff *sdf, prox_vec3f origin, prox_vec3f spacing,
                                    size_t nx, size_t ny, size_t nz, float *out, int threads);

PROX_EXTERN_C_END

#endif /* PROX_SIGN_H */
