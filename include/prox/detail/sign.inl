/* SPDX-License-Identifier: MIT */
/* Template: declarations of prox/sign.h, once per precision. The
 * definitions are compiled in src/mesh/sign.c. */

/// A signed-distance object over a mesh of this precision (opaque).
typedef struct PROX_FN(prox_sdf) PROX_FN(prox_sdf);

/// The result of a signed query.
typedef struct PROX_FN(prox_signed) {
  PROX_FN(prox_mesh_closest) closest; ///< the unsigned closest point
  PROX_REAL distance;                 ///< signed distance: negative inside, 0 on the surface
  int inside;                         ///< 1 inside (winding number above 1/2), else 0
  int certain;                        ///< 0 where the sign could be either (see below)
  int method;                         ///< the prox_sign_method that decided the sign
  /// The winding number found by the deciding method: an integer for
  /// CROSSINGS, the approximation for WINDING, 1 (inside) or 0 (outside)
  /// for PSEUDONORMAL, which computes none; 0.5 on the surface.
  double winding;
} PROX_FN(prox_signed);

/// Builds a signed-distance object from a mesh and a tree built over it
/// (prox_bvh_build() on the same mesh; the object keeps a pointer to the
/// tree, which must outlive it, and copies what it needs of the mesh).
/// topology may be NULL (then it is computed here) or the mesh's
/// (prox_mesh_topology_build()); it is not kept. Returns PROX_OK and *out,
/// or an error with *out NULL and nothing leaked: invalid argument (NULL,
/// a tree of another triangle count, an unknown method), invalid mesh,
/// out of memory. alloc may be NULL (the C library).
/// AUTO looks for self-intersections (prox_mesh_self_intersections()) when
/// the topology would allow pseudo-normals. A closed, consistently oriented
/// mesh under PSEUDONORMAL or CROSSINGS also gets an inside grid: about
/// eight cubic cells per triangle (4096 to 2^22 cells), each cell away from
/// the surface with its exact winding number, each other cell with the
/// triangles that may touch it. Memory: about 250 bytes per triangle for a
/// closed mesh (records of the triangles, edges and vertices, and the
/// grid), 150 for an open one under WINDING. Build time about O(n log n)
/// for n triangles; the self-intersection and front checks run in
/// opt->threads threads, the rest in one (the same object for any count).
PROX_API prox_status PROX_FN(prox_sdf_build)(const PROX_FN(prox_mesh) * mesh,
                                             const PROX_FN(prox_bvh) * bvh,
                                             const prox_mesh_topology *topology,
                                             const prox_sdf_options *opt,
                                             const prox_allocator *alloc, PROX_FN(prox_sdf) * *out,
                                             prox_error *err);

/// The pairs of triangles of a mesh that meet other than in what they
/// share, decided exactly (orient3d with a filter and expansions): two
/// triangles with no common vertex index that meet at all (touching
/// counts), two with a common edge that are coplanar and on the same side
/// of it (folded onto each other), two with one common vertex that meet at
/// another point, and two with the same three indices. Triangles of zero
/// area are left out (they have no surface of their own). A mesh with such
/// a pair passes through itself (or touches itself), and its pseudo-normal
/// sign may be wrong: prox_sdf_build()'s AUTO checks this. `bvh` is a tree
/// built over the mesh (prox_bvh_build()). Returns PROX_OK with *count the
/// number of pairs and the first min(*count, capacity) of them in
/// pairs[2 k] < pairs[2 k + 1], in increasing order (of the first, then the
/// second); or
/// PROX_ERROR_INVALID_ARGUMENT (NULL mesh, tree or count, NULL pairs with
/// capacity > 0, a tree of another triangle count) or the mesh's
/// validation error, *count 0. Does not allocate; thread-safe.
PROX_API prox_status PROX_FN(prox_mesh_self_intersections)(const PROX_FN(prox_mesh) * mesh,
                                                           const PROX_FN(prox_bvh) * bvh,
                                                           uint32_t *pairs, size_t capacity,
                                                           size_t *count, prox_error *err);

/// Frees a signed-distance object (NULL does nothing); not its tree.
PROX_API void PROX_FN(prox_sdf_free)(PROX_FN(prox_sdf) * sdf);

/// The method PROX_SIGN_AUTO resolved to (or the one forced).
PROX_API int PROX_FN(prox_sdf_method)(const PROX_FN(prox_sdf) * sdf);

/// Signed distance from p to the mesh: |distance| is the closest-point
/// query's distance (prox_bvh_closest(), the square root of its squared
/// distance), negative inside. *out (may be NULL) gets the closest point,
/// the sign's method, whether it is certain, and the winding number.
/// certain is 0 when p lies on the surface (distance 0: inside 0), or, for
/// WINDING, when the winding number is within the tolerance of 1/2; the
/// pseudo-normal and crossing methods are otherwise always certain (an
/// uncertain pseudo-normal test is replaced by the exact count). A
/// non-finite p gives NaN, inside 0, certain 0.
PROX_API PROX_REAL PROX_FN(prox_sdf_distance)(const PROX_FN(prox_sdf) * sdf, PROX_FN(prox_vec3) p,
                                              PROX_FN(prox_signed) * out);

/// Inside test: 1 when p is inside (as prox_sdf_distance() decides it),
/// else 0; *certain (may be NULL) as there. It computes no closest point:
/// on a closed, consistently oriented mesh (PSEUDONORMAL or CROSSINGS) it
/// reads the inside grid built with the object (a cell away from every
/// triangle holds its exact winding number; elsewhere an exact crossing
/// count along a short segment to the nearest such cell, so the answer is
/// the exact winding number's); WINDING evaluates the winding number. A
/// non-finite p gives 0, certain 0.
PROX_API int PROX_FN(prox_sdf_inside)(const PROX_FN(prox_sdf) * sdf, PROX_FN(prox_vec3) p,
                                      int *certain);

/// The winding number at p by the object's method when that is CROSSINGS
/// or WINDING, else (PSEUDONORMAL) by CROSSINGS. NaN for a non-finite p.
PROX_API double PROX_FN(prox_sdf_winding)(const PROX_FN(prox_sdf) * sdf, PROX_FN(prox_vec3) p);

/// The exact signed crossing count of the segment from p to q (see the
/// file comment; +1 leaving through a triangle's front). Returns 1 and
/// *count, or 0 when the segment touches an edge or a vertex of a triangle
/// it crosses, or p or q lies in the plane of a triangle the segment
/// meets (no count then). For a closed mesh and q outside it, *count is
/// the winding number at p.
PROX_API int PROX_FN(prox_sdf_crossings)(const PROX_FN(prox_sdf) * sdf, PROX_FN(prox_vec3) p,
                                         PROX_FN(prox_vec3) q, long *count);

/// prox_sdf_distance() for n points in `threads` threads (0 = all cores),
/// distances into dist[i] and, when out is not NULL, results into out[i];
/// the same bits for any thread count. Returns PROX_OK or
/// PROX_ERROR_INVALID_ARGUMENT (NULL arrays with n > 0).
PROX_API prox_status PROX_FN(prox_sdf_batch)(const PROX_FN(prox_sdf) * sdf,
                                             const PROX_FN(prox_vec3) * points, size_t n,
                                             PROX_REAL *dist, PROX_FN(prox_signed) * out,
                                             int threads);

/// Signed distance on a regular grid: sample (i, j, k) is at origin +
/// (i dx, j dy, k dz) with spacing = (dx, dy, dz), and goes to
/// out[(k ny + j) nx + i] as a float (the layout of a NumPy array of shape
/// (nz, ny, nx)). Rows are processed in order so that each query starts
/// from its neighbour's answer; `threads` as in prox_sdf_batch(), the same
/// bits for any count. Returns PROX_OK, or PROX_ERROR_INVALID_ARGUMENT
/// (NULL, a zero or overflowing size, non-finite origin or spacing).
PROX_API prox_status PROX_FN(prox_sdf_grid)(const PROX_FN(prox_sdf) * sdf,
                                            PROX_FN(prox_vec3) origin, PROX_FN(prox_vec3) spacing,
                                            size_t nx, size_t ny, size_t nz, float *out,
                                            int threads);
