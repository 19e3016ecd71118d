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
///   self-intersections (forced, it does not look for them; AUTO does).
///   Where that test is not certain (p within about 1e-9 of its distance
///   from being tangent, or the closest triangle has zero area, or its
///   feature's pseudo-normal vanishes), the sign is taken from
///   PROX_SIGN_CROSSINGS instead, so a sign is never a guess.
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
///   closed, manifold and oriented, else WINDING. When such a mesh passes
///   through or touches itself (prox_mesh_self_intersections() finds a
///   pair) or its components' boxes overlap (components that may touch or
///   nest), the build also finds the triangles whose pseudo-normal sign
///   could be wrong: those that meet another, and those whose front is not
///   outside (winding number 0 in front, checked exactly); near them the
///   exact crossing count decides instead, so the sign is the winding
///   number's everywhere. The same is done when the inside grid (see
///   prox_sdf_inside()) finds a winding number other than 0 or 1 (an
///   inverted mesh, shells nested the same way).
///
/// Inside means winding number above 1/2 (for the pseudo-normal method:
/// the negative side of the pseudo-normal, which is the same thing on the
/// meshes it is meant for). A mesh wound inward (inverted) thus has
/// nothing inside under the winding methods and AUTO (its winding number
/// is -1 or 0), and its inside and outside swapped under the pseudo-normal
/// method forced, which follows the winding of the triangles. Duplicated faces make a closed mesh's
/// winding number 2 inside (still inside) and its topology non-manifold (AUTO then picks WINDING).
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
  /// accurate). Infinity gives the winding number without approximation:
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

#include "detail/real_double.h"
#include "detail/sign.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/sign.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_SIGN_H */
