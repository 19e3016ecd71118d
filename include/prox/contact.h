/* SPDX-License-Identifier: MIT */
/// @file contact.h
/// @brief Contact distance kernels (K4) as incremental-potential-contact
/// (IPC) solvers use them: distance type classification, squared distances
/// point-point, point-line, point-plane, point-edge, point-triangle,
/// line-line and edge-edge with their gradients and Hessians with respect to
/// all vertex coordinates, and the edge-edge cross-product mollifier.
///
/// Conventions shared by every function of this header:
/// - Distances are **squared** Euclidean distances; no square root is taken.
/// - A gradient is flattened in vertex order, x0 y0 z0 x1 y1 z1 ..., where
///   the vertices are the arguments in the order of the signature (6, 9 or
///   12 entries). A Hessian is the matching symmetric matrix stored row-major
///   (36, 81 or 144 entries); it is symmetric bit for bit.
/// - Every derivative function also returns the value, and the Hessian
///   functions fill the gradient too when its pointer is not NULL, so one
///   call gives value, gradient and Hessian.
/// - A typed function (point-edge, point-triangle, edge-edge) evaluates the
///   formula of the given type (point-point, point-line, point-plane or
///   line-line on the vertices that the type names) whatever the geometry;
///   the value `*_AUTO` classifies first. An out-of-range type gives NaN.
/// - A coordinate that is NaN or infinite makes the value and every output
///   entry NaN (classification still returns a valid type). Nothing
///   allocates, loops on data or calls back: every kernel is inline,
///   exported (PROX_KERNEL) and callable from CUDA device code.
/// - Domain: finite input gives finite values, gradients and Hessians for
///   coordinates of magnitude between 2^-500 and 2^500 in double, 2^-40
///   and 2^40 in float (products of four coordinate differences are formed
///   in the working precision); the edge-edge mollifier and its threshold
///   (of degree 4 in the coordinates) between 2^-250 and 2^250, float 2^-28
///   and 2^28, where the mollifier's gradient and Hessian (at most
///   4 L / sqrt(eps_x) and 24 L^2 / eps_x, L = max(|ea|, |eb|), ea and eb
///   the edge vectors rounded) also need L^2 <= 2^1016 eps_x, float 2^120
///   (the threshold of the same edges, 1e-3 |ea|^2 |eb|^2, meets it
///   throughout the domain; one from other, longer edges may not: the
///   Hessian, measured up to 8 L^2 / eps_x near the threshold, overflows
///   from about L^2 = 2^1021 eps_x, float 2^125, on). tests/test_domain.c
///   checks every kernel at those ends, vertices an ulp apart included;
///   tests/test_property.c on random configurations over the domain.
/// - Shape: derivatives grow with the shape's conditioning, and finite
///   ones need a second condition. Let D be the largest distance between
///   two vertices a formula uses and h its smallest size: the edge length
///   for point-line, the smallest height of the triangle for point-plane,
///   |ea x eb| / max(|ea|, |eb|) (the shorter edge times the sine of the
///   angle) for line-line. Both are those of the shape the formula
///   computes with: its vertices placed by their differences from one of
///   them (e1 - e0 and p - e0; t1 - t0, t2 - t0 and p - t0; ea1 - ea0,
///   eb1 - eb0 and ea0 - eb0), each coordinate difference rounded once to
///   the working precision. For D / h below 2^45 (float 2^16) that is the
///   input's own D / h within 1%; a thinner shape's h is set by the
///   rounding of those differences, and may be far smaller than the
///   input's, or 0 (float lines with D / h = 2^42.6 whose ea0, of
///   magnitude 2^-17, is below half an ulp of ea1, 2^20, have
///   D / h = 2^71.6 once ea1 - ea0 is rounded).
///   A typed or classified function has the D and h of the formula it
///   evaluates (point-point has no condition; a shape with h = 0 evaluates
///   its fallback formula, whose h counts). The exact gradient grows like
///   D / h and the Hessian like (D / h)^2. Within the domain, value,
///   gradient and Hessian are finite for D / h <= 2^448 in double, 2^48 in
///   float (tests/test_contact.c, shape_condition, at every scale of the
///   domain, vertices an ulp apart and slivers included; tests/
///   test_property.c on random shapes over the domain, D / h decided
///   exactly). Beyond, the exact Hessian leaves the range near
///   D / h = 2^511 (float 2^63), and the computed entries may be +-inf or
///   NaN from about D / h = 2^500 (float 2^55) on.
/// - Decisions: the classifiers (prox_ipc_*_distance_type) decide from
///   rounded quantities, so their type is the exact classification's only
///   where the exact answer is unambiguous: the exact closest point (or
///   points) farther than a margin from the boundary of its region, in
///   length units 16 eps S (edge-edge: 16 eps S / sin of the angle between
///   the edges, as the lines' parameters carry rounding that grows so),
///   the shape not within a factor 4 of the degeneracy threshold
///   PROX_IPC_DEGENERATE_SIN2, and no two candidates of a degenerate
///   shape (union of edges, parallel edges) tied within 32 eps S^2. There
///   the test suite finds every type exact; within the margin either type
///   may come (tests/test_contact.c prints both counts: about one case in
///   five within the margin of its adversarial set differs), and the
///   distance of either is within its bound. The margin is the rounding
///   of the decision: measured disagreements lie within 6 eps S (edge-edge
///   10 eps S / sin).
/// - Accuracy is stated per function in units of eps * S^2, where eps is the
///   machine epsilon of the precision and S the largest magnitude of an
///   input coordinate; the test suite checks each bound against an exact
///   rational (GMP) oracle.
#ifndef PROX_CONTACT_H
#define PROX_CONTACT_H

#include "vec.h"

PROX_EXTERN_C_BEGIN

/// Where the closest point of an edge to a point lies (IPC "point-edge
/// distance type"). The distance of each type is: P_E0 |p - e0|^2, P_E1
/// |p - e1|^2, P_E the squared distance from p to the line e0 e1.
typedef enum prox_ipc_pe_type {
  PROX_PE_P_E0 = 0, ///< endpoint e0
  PROX_PE_P_E1 = 1, ///< endpoint e1
  PROX_PE_P_E = 2,  ///< interior of the edge
  PROX_PE_AUTO = 3  ///< (argument only) classify first
} prox_ipc_pe_type;

/// Where the closest point of a triangle t0 t1 t2 to a point lies (IPC
/// "point-triangle distance type"). Edge i joins t[i] and t[(i + 1) % 3].
typedef enum prox_ipc_pt_type {
  PROX_PT_P_T0 = 0, ///< vertex t0: |p - t0|^2
  PROX_PT_P_T1 = 1, ///< vertex t1: |p - t1|^2
  PROX_PT_P_T2 = 2, ///< vertex t2: |p - t2|^2
  PROX_PT_P_E0 = 3, ///< interior of edge t0 t1: point-line distance
  PROX_PT_P_E1 = 4, ///< interior of edge t1 t2: point-line distance
  PROX_PT_P_E2 = 5, ///< interior of edge t2 t0: point-line distance
  PROX_PT_P_T = 6,  ///< interior of the face: point-plane distance
  PROX_PT_AUTO = 7  ///< (argument only) classify first
} prox_ipc_pt_type;

/// Where the closest points of two edges ea0 ea1 and eb0 eb1 lie (IPC
/// "edge-edge distance type"): an endpoint (0 or 1) or the interior of each
/// edge. Endpoint-endpoint types use the point-point distance,
/// endpoint-interior types the point-line distance, EA_EB the line-line
/// distance.
typedef enum prox_ipc_ee_type {
  PROX_EE_EA0_EB0 = 0, ///< ea0 and eb0
  PROX_EE_EA0_EB1 = 1, ///< ea0 and eb1
  PROX_EE_EA1_EB0 = 2, ///< ea1 and eb0
  PROX_EE_EA1_EB1 = 3, ///< ea1 and eb1
  PROX_EE_EA_EB0 = 4,  ///< interior of edge a and eb0
  PROX_EE_EA_EB1 = 5,  ///< interior of edge a and eb1
  PROX_EE_EA0_EB = 6,  ///< ea0 and interior of edge b
  PROX_EE_EA1_EB = 7,  ///< ea1 and interior of edge b
  PROX_EE_EA_EB = 8,   ///< interiors of both edges (line-line)
  PROX_EE_AUTO = 9     ///< (argument only) classify first
} prox_ipc_ee_type;

/// Degeneracy threshold of the classifiers, double precision: two edges
/// whose sin^2 of the angle is below it are classified as parallel (by
/// prox_ipc_edge_edge_parallel_distance_type), and a triangle whose
/// (height / longest edge)^2 is below it is classified as the union of its
/// edges. Either substitution changes the distance by at most this value
/// times the squared edge length, far below the rounding error.
#define PROX_IPC_DEGENERATE_SIN2 1e-18
/// Degeneracy threshold of the classifiers, single precision (see
/// PROX_IPC_DEGENERATE_SIN2).
#define PROX_IPC_DEGENERATE_SIN2F 1e-9f
/// Fraction of the rest-shape |ea|^2 |eb|^2 that
/// prox_ipc_edge_edge_mollifier_threshold returns (the IPC convention).
#define PROX_IPC_MOLLIFIER_FRACTION 1e-3

#include "detail/real_double.h"
#include "detail/contact.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/contact.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_CONTACT_H */
