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
///   length units 16 eps S (point-triangle: 16 eps S L / h, L the longest
///   edge and h the height on it; edge-edge: 16 eps (S + d / sin) / sin,
///   sin that of the angle between the edges and d the distance between
///   their lines: the barycentrics and the lines' parameters carry rounding
///   that grows so),
///   the shape not within a factor 4 of the degeneracy threshold
///   PROX_IPC_DEGENERATE_SIN2, and no two candidates of a degenerate
///   shape (union of edges, parallel edges) tied within 32 eps S^2. There
///   the test suite finds every type exact; within the margin either type
///   may come (tests/test_contact.c prints both counts: about one case in
///   five within the margin of its adversarial set differs), and the
///   distance of either is within its bound. The margin is the rounding
///   of the decision: measured disagreements lie within 6 eps S
///   (point-triangle 0.6 eps S L / h, edge-edge 0.8 eps (S + d / sin) /
///   sin: the largest over test_contact at PROX_TEST_SCALE 0.25 to 2).
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

/* The documented kernels, literally named (the templates included above
 * hold their definitions, once for both precisions). */

/// Squared distance |p - q|^2 between two points.
/// The relative error is at most about 2.5 eps (roundings of the
/// differences, squares and sums, all of non-negative terms); the test
/// suite asserts 16 eps S^2 and measures at most about 12 eps S^2.
/// Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_point_point_distance(prox_vec3 p, prox_vec3 q);
/// Float version of prox_ipc_point_point_distance().
PROX_KERNEL float prox_ipc_point_point_distancef(prox_vec3f p, prox_vec3f q);

/// Gradient of |p - q|^2 with respect to (p, q): grad = (2 (p - q),
/// -2 (p - q)); returns the squared distance. Non-finite input gives NaN in
/// every entry.
PROX_KERNEL double prox_ipc_point_point_distance_gradient(prox_vec3 p, prox_vec3 q, double grad[6]);
/// Float version of prox_ipc_point_point_distance_gradient().
PROX_KERNEL float prox_ipc_point_point_distance_gradientf(prox_vec3f p, prox_vec3f q,
                                                          float grad[6]);

/// Hessian (6x6, row-major, constant [[2I, -2I], [-2I, 2I]]) of
/// |p - q|^2 with respect to (p, q); fills grad too when it is not NULL and
/// returns the squared distance. Non-finite input gives NaN in every entry.
PROX_KERNEL double prox_ipc_point_point_distance_hessian(prox_vec3 p, prox_vec3 q, double *grad,
                                                         double hess[36]);
/// Float version of prox_ipc_point_point_distance_hessian().
PROX_KERNEL float prox_ipc_point_point_distance_hessianf(prox_vec3f p, prox_vec3f q, float *grad,
                                                         float hess[36]);

/// Squared distance from point p to the infinite line through e0 and e1,
/// computed as |p - e0 - t (e1 - e0)|^2 with t the foot parameter. If
/// e0 == e1 the line is the point e0 and the result is |p - e0|^2. Error
/// at most 16 eps S^2 when the foot lies within an edge length of the edge
/// (checked by the test suite). Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_point_line_distance(prox_vec3 p, prox_vec3 e0, prox_vec3 e1);
/// Float version of prox_ipc_point_line_distance().
PROX_KERNEL float prox_ipc_point_line_distancef(prox_vec3f p, prox_vec3f e0, prox_vec3f e1);

/// Gradient (9 entries, vertex order p, e0, e1) of the point-line squared
/// distance; returns the distance. With r = p - foot and t the foot
/// parameter, grad = (2 r, -2 (1 - t) r, -2 t r). e0 == e1 gives the
/// point-point gradient (zero for e1). Non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_point_line_distance_gradient(prox_vec3 p, prox_vec3 e0, prox_vec3 e1,
                                                         double grad[9]);
/// Float version of prox_ipc_point_line_distance_gradient().
PROX_KERNEL float prox_ipc_point_line_distance_gradientf(prox_vec3f p, prox_vec3f e0, prox_vec3f e1,
                                                         float grad[9]);

/// Hessian (9x9, row-major) of the point-line squared distance with respect
/// to (p, e0, e1), in closed form 2 (a a^T) (x) I3 - (2 / |e|^2) w w^T
/// (a = (1, t - 1, -t), w = (-e, r + (1 - t) e, -r + t e)); fills grad
/// when not NULL and returns the distance. e0 == e1 gives the point-point
/// Hessian. Non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_point_line_distance_hessian(prox_vec3 p, prox_vec3 e0, prox_vec3 e1,
                                                        double *grad, double hess[81]);
/// Float version of prox_ipc_point_line_distance_hessian().
PROX_KERNEL float prox_ipc_point_line_distance_hessianf(prox_vec3f p, prox_vec3f e0, prox_vec3f e1,
                                                        float *grad, float hess[81]);

/// Squared distance from point p to the plane through t0, t1, t2:
/// (u.n)^2 / |n|^2 with u = p - t0, n = (t1 - t0) x (t2 - t0). The normal is
/// recomputed with a compensated cross product for thin triangles and the
/// problem is rescaled when squared lengths leave a safe range, so the
/// error is at most 16 eps S^2 when the foot of p has barycentric
/// coordinates in [-1, 2], even for slivers. A triangle of exactly zero area
/// gives the distance to the line of its longest edge (to t0 if all three
/// vertices coincide). Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_point_plane_distance(prox_vec3 p, prox_vec3 t0, prox_vec3 t1,
                                                 prox_vec3 t2);
/// Float version of prox_ipc_point_plane_distance().
PROX_KERNEL float prox_ipc_point_plane_distancef(prox_vec3f p, prox_vec3f t0, prox_vec3f t1,
                                                 prox_vec3f t2);

/// Gradient (12 entries, vertex order p, t0, t1, t2) of the point-plane
/// squared distance; returns the distance. With r = p - foot and
/// (b0, b1, b2) the barycentric coordinates of the foot, grad = (2 r,
/// -2 b0 r, -2 b1 r, -2 b2 r). Zero area: the gradient of the line fallback
/// (zero for the unused vertex). Non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_point_plane_distance_gradient(prox_vec3 p, prox_vec3 t0, prox_vec3 t1,
                                                          prox_vec3 t2, double grad[12]);
/// Float version of prox_ipc_point_plane_distance_gradient().
PROX_KERNEL float prox_ipc_point_plane_distance_gradientf(prox_vec3f p, prox_vec3f t0,
                                                          prox_vec3f t1, prox_vec3f t2,
                                                          float grad[12]);

/// Hessian (12x12, row-major) of the point-plane squared distance with
/// respect to (p, t0, t1, t2): 2 (a a^T) (x) I3 - 2 W M^-1 W^T at the foot
/// (M the Gram matrix of the edges, W the mixed derivatives; see
/// detail/contact.inl), allocation-free; fills grad when not NULL and
/// returns the distance. It grows like 1 / (area)^2 for thin triangles;
/// zero area gives the Hessian of the line fallback. Non-finite input gives
/// NaN entries.
PROX_KERNEL double prox_ipc_point_plane_distance_hessian(prox_vec3 p, prox_vec3 t0, prox_vec3 t1,
                                                         prox_vec3 t2, double *grad,
                                                         double hess[144]);
/// Float version of prox_ipc_point_plane_distance_hessian().
PROX_KERNEL float prox_ipc_point_plane_distance_hessianf(prox_vec3f p, prox_vec3f t0, prox_vec3f t1,
                                                         prox_vec3f t2, float *grad,
                                                         float hess[144]);

/// Squared distance between the infinite lines ea0 ea1 and eb0 eb1:
/// (w.n)^2 / |n|^2 with w = ea0 - eb0, n = (ea1 - ea0) x (eb1 - eb0). The
/// normal is compensated for nearly parallel lines, so the error stays at
/// most 16 eps S^2 while the closest points have parameters in [-1, 2].
/// Exactly parallel lines give the distance from ea0 to line b (a
/// zero-length edge makes its line a point). Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_line_line_distance(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                               prox_vec3 eb1);
/// Float version of prox_ipc_line_line_distance().
PROX_KERNEL float prox_ipc_line_line_distancef(prox_vec3f ea0, prox_vec3f ea1, prox_vec3f eb0,
                                               prox_vec3f eb1);

/// Gradient (12 entries, vertex order ea0, ea1, eb0, eb1) of the line-line
/// squared distance; returns the distance. With r the vector between the
/// closest points (parameters s, t), grad = (2 (1 - s) r, 2 s r,
/// -2 (1 - t) r, -2 t r). Parallel lines: the gradient of the point-line
/// fallback. Non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_line_line_distance_gradient(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                        prox_vec3 eb1, double grad[12]);
/// Float version of prox_ipc_line_line_distance_gradient().
PROX_KERNEL float prox_ipc_line_line_distance_gradientf(prox_vec3f ea0, prox_vec3f ea1,
                                                        prox_vec3f eb0, prox_vec3f eb1,
                                                        float grad[12]);

/// Hessian (12x12, row-major) of the line-line squared distance with
/// respect to (ea0, ea1, eb0, eb1), closed form as for point-plane; fills
/// grad when not NULL and returns the distance. It grows like
/// 1 / sin^2(angle) for nearly parallel lines; exactly parallel lines give
/// the Hessian of the point-line fallback. Non-finite input gives NaN
/// entries.
PROX_KERNEL double prox_ipc_line_line_distance_hessian(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                       prox_vec3 eb1, double *grad,
                                                       double hess[144]);
/// Float version of prox_ipc_line_line_distance_hessian().
PROX_KERNEL float prox_ipc_line_line_distance_hessianf(prox_vec3f ea0, prox_vec3f ea1,
                                                       prox_vec3f eb0, prox_vec3f eb1, float *grad,
                                                       float hess[144]);

/// Classifies the closest point of edge e0 e1 to point p: endpoint e0
/// (PROX_PE_P_E0), endpoint e1 (PROX_PE_P_E1) or interior (PROX_PE_P_E),
/// from the sign of (p - e0).(e1 - e0) and its comparison with |e1 - e0|^2
/// (no division). A zero-length edge gives PROX_PE_P_E0, so the interior
/// type is only returned when the point-line formula is defined. The type
/// is the exact classification's wherever the exact closest point is
/// farther than 16 eps S from the region boundaries (the edge's end
/// points); nearer, either type may come (see contact.h, Decisions).
/// Always a valid type, also for non-finite input.
PROX_KERNEL prox_ipc_pe_type prox_ipc_point_edge_distance_type(prox_vec3 p, prox_vec3 e0,
                                                               prox_vec3 e1);
/// Float version of prox_ipc_point_edge_distance_type().
PROX_KERNEL prox_ipc_pe_type prox_ipc_point_edge_distance_typef(prox_vec3f p, prox_vec3f e0,
                                                                prox_vec3f e1);

/// Classifies where the closest point of triangle t0 t1 t2 to point p lies:
/// a vertex (PROX_PT_P_T0..2), the interior of an edge (PROX_PT_P_E0..2 for
/// edges t0t1, t1t2, t2t0) or the face (PROX_PT_P_T).
/// The face is chosen when the barycentric coordinates of the projection of
/// p, computed from triple products with n = (t1 - t0) x (t2 - t0), are all
/// non-negative; otherwise only the one or two edges whose lines separate
/// the projection from the triangle can hold the closest point (Voronoi
/// regions, Ericson 5.1.5), and of two such edges, which share a vertex,
/// the one leading away from that vertex wins. A triangle whose
/// (height / longest edge)^2 is below PROX_IPC_DEGENERATE_SIN2 (zero area,
/// collinear or coincident vertices, slivers thinner than that) is
/// classified as the union of its edges (the nearest wins), so PROX_PT_P_T
/// is only returned when the plane is well defined and a zero-length edge
/// never gives an edge type. The type is the exact classification's
/// wherever the exact closest point (for a face region, the projection of
/// p) is farther than 16 eps S L / h from the region's boundaries (L the
/// longest edge, h the height on it: the computed normal's direction
/// carries a rounding of about eps L / h), (height /
/// longest edge)^2 is not within a factor 4 of PROX_IPC_DEGENERATE_SIN2,
/// and on a degenerate triangle no two edges' distances tie within 32 eps
/// S^2; elsewhere either type may come, and a misclassification changes
/// the distance only by rounding (see contact.h, Decisions). Always a
/// valid type, also for non-finite input.
PROX_KERNEL prox_ipc_pt_type prox_ipc_point_triangle_distance_type(prox_vec3 p, prox_vec3 t0,
                                                                   prox_vec3 t1, prox_vec3 t2);
/// Float version of prox_ipc_point_triangle_distance_type().
PROX_KERNEL prox_ipc_pt_type prox_ipc_point_triangle_distance_typef(prox_vec3f p, prox_vec3f t0,
                                                                    prox_vec3f t1, prox_vec3f t2);

/// Classifies two edges as if they were parallel: the type of the nearest
/// of the four endpoint-to-segment pairs (ea0 and ea1 against edge b, eb0
/// and eb1 against edge a; the first wins ties). For parallel edges the
/// segment-segment minimum is always reached at an endpoint, so this is
/// exact for them; for edges at an angle theta it overestimates the
/// distance by at most sin^2(theta) times the squared overlap length. Never
/// returns PROX_EE_EA_EB, and a zero-length edge never gives an interior
/// type for itself. Always a valid type, also for non-finite input.
PROX_KERNEL prox_ipc_ee_type prox_ipc_edge_edge_parallel_distance_type(prox_vec3 ea0, prox_vec3 ea1,
                                                                       prox_vec3 eb0,
                                                                       prox_vec3 eb1);
/// Float version of prox_ipc_edge_edge_parallel_distance_type().
PROX_KERNEL prox_ipc_ee_type prox_ipc_edge_edge_parallel_distance_typef(prox_vec3f ea0,
                                                                        prox_vec3f ea1,
                                                                        prox_vec3f eb0,
                                                                        prox_vec3f eb1);

/// Classifies where the closest points of edges ea0 ea1 and eb0 eb1 lie
/// (one of the nine PROX_EE_* endpoint/interior combinations).
/// The parameters (s, t) of the closest points of the two lines come from
/// triple products with n = ea x eb; if both lie in (0, 1) the type is
/// PROX_EE_EA_EB, otherwise only the endpoint-segment pairs on the sides of
/// the parameter square that separate (s, t) from it are candidates (one
/// or two, resolved at their common corner). Edges with sin^2 of their
/// angle below PROX_IPC_DEGENERATE_SIN2 (parallel, nearly parallel, or with
/// a zero-length edge) are classified by
/// prox_ipc_edge_edge_parallel_distance_type, so PROX_EE_EA_EB is only
/// returned when the line-line formula is well conditioned. The type is
/// the exact classification's wherever the exact closest points are
/// farther than 16 eps (S + d / sin(theta)) / sin(theta), d the distance
/// between the two lines (16 eps S in the parallel regime; the edge
/// vectors' rounding turns the lines' common normal by about eps / sin,
/// which moves its feet by about eps d / sin^2)
/// from the boundaries of their regions, sin^2(theta) is not within a
/// factor 4 of PROX_IPC_DEGENERATE_SIN2, and in the parallel regime no two
/// endpoint pairs' distances tie within 32 eps S^2; elsewhere either type
/// may come (see contact.h, Decisions). Always a valid type, also for
/// non-finite input.
PROX_KERNEL prox_ipc_ee_type prox_ipc_edge_edge_distance_type(prox_vec3 ea0, prox_vec3 ea1,
                                                              prox_vec3 eb0, prox_vec3 eb1);
/// Float version of prox_ipc_edge_edge_distance_type().
PROX_KERNEL prox_ipc_ee_type prox_ipc_edge_edge_distance_typef(prox_vec3f ea0, prox_vec3f ea1,
                                                               prox_vec3f eb0, prox_vec3f eb1);

/// Squared distance from point p to edge e0 e1 evaluated with the formula
/// of the given type: P_E0 |p - e0|^2, P_E1 |p - e1|^2, P_E the distance to
/// the line (point-point to e0 for a zero-length edge); PROX_PE_AUTO
/// classifies first (prox_ipc_point_edge_distance_type), which gives the
/// exact point-segment distance to within 16 eps S^2. An invalid type or
/// non-finite input gives NaN.
PROX_KERNEL double prox_ipc_point_edge_distance(prox_vec3 p, prox_vec3 e0, prox_vec3 e1,
                                                prox_ipc_pe_type type);
/// Float version of prox_ipc_point_edge_distance().
PROX_KERNEL float prox_ipc_point_edge_distancef(prox_vec3f p, prox_vec3f e0, prox_vec3f e1,
                                                prox_ipc_pe_type type);

/// Gradient (9 entries, vertex order p, e0, e1) of the point-edge squared
/// distance of the given type (PROX_PE_AUTO classifies first); entries of
/// a vertex the type does not involve are zero. Returns the distance. An
/// invalid type or non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_point_edge_distance_gradient(prox_vec3 p, prox_vec3 e0, prox_vec3 e1,
                                                         prox_ipc_pe_type type, double grad[9]);
/// Float version of prox_ipc_point_edge_distance_gradient().
PROX_KERNEL float prox_ipc_point_edge_distance_gradientf(prox_vec3f p, prox_vec3f e0, prox_vec3f e1,
                                                         prox_ipc_pe_type type, float grad[9]);

/// Hessian (9x9, row-major, symmetric) of the point-edge squared distance
/// of the given type (PROX_PE_AUTO classifies first); fills grad when not
/// NULL and returns the distance. An invalid type or non-finite input gives
/// NaN entries.
PROX_KERNEL double prox_ipc_point_edge_distance_hessian(prox_vec3 p, prox_vec3 e0, prox_vec3 e1,
                                                        prox_ipc_pe_type type, double *grad,
                                                        double hess[81]);
/// Float version of prox_ipc_point_edge_distance_hessian().
PROX_KERNEL float prox_ipc_point_edge_distance_hessianf(prox_vec3f p, prox_vec3f e0, prox_vec3f e1,
                                                        prox_ipc_pe_type type, float *grad,
                                                        float hess[81]);

/// Squared distance from point p to triangle t0 t1 t2 evaluated with the
/// formula of the given type: vertex types |p - ti|^2, edge types the
/// point-line distance (prox_ipc_point_line_distance), PROX_PT_P_T the
/// point-plane distance (prox_ipc_point_plane_distance), whatever the
/// geometry. PROX_PT_AUTO classifies (prox_ipc_point_triangle_distance_type)
/// and evaluates in one pass, giving the exact point-triangle distance to
/// within 16 eps S^2, also for slivers and degenerate triangles (which are
/// the union of their edges). An invalid type or non-finite input gives
/// NaN.
PROX_KERNEL double prox_ipc_point_triangle_distance(prox_vec3 p, prox_vec3 t0, prox_vec3 t1,
                                                    prox_vec3 t2, prox_ipc_pt_type type);
/// Float version of prox_ipc_point_triangle_distance().
PROX_KERNEL float prox_ipc_point_triangle_distancef(prox_vec3f p, prox_vec3f t0, prox_vec3f t1,
                                                    prox_vec3f t2, prox_ipc_pt_type type);

/// Gradient (12 entries, vertex order p, t0, t1, t2) of the point-triangle
/// squared distance of the given type (PROX_PT_AUTO classifies first);
/// entries of vertices the type does not involve are zero. Returns the
/// distance. An invalid type or non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_point_triangle_distance_gradient(prox_vec3 p, prox_vec3 t0,
                                                             prox_vec3 t1, prox_vec3 t2,
                                                             prox_ipc_pt_type type,
                                                             double grad[12]);
/// Float version of prox_ipc_point_triangle_distance_gradient().
PROX_KERNEL float prox_ipc_point_triangle_distance_gradientf(prox_vec3f p, prox_vec3f t0,
                                                             prox_vec3f t1, prox_vec3f t2,
                                                             prox_ipc_pt_type type, float grad[12]);

/// Hessian (12x12, row-major, symmetric) of the point-triangle squared
/// distance of the given type (PROX_PT_AUTO classifies first); fills grad
/// when not NULL and returns the distance. An invalid type or non-finite
/// input gives NaN entries.
PROX_KERNEL double prox_ipc_point_triangle_distance_hessian(prox_vec3 p, prox_vec3 t0, prox_vec3 t1,
                                                            prox_vec3 t2, prox_ipc_pt_type type,
                                                            double *grad, double hess[144]);
/// Float version of prox_ipc_point_triangle_distance_hessian().
PROX_KERNEL float prox_ipc_point_triangle_distance_hessianf(prox_vec3f p, prox_vec3f t0,
                                                            prox_vec3f t1, prox_vec3f t2,
                                                            prox_ipc_pt_type type, float *grad,
                                                            float hess[144]);

/// Squared distance between edges ea0 ea1 and eb0 eb1 evaluated with the
/// formula of the given type: endpoint pairs the point-point distance,
/// endpoint-interior types the point-line distance, PROX_EE_EA_EB the
/// line-line distance (prox_ipc_line_line_distance), whatever the geometry.
/// PROX_EE_AUTO classifies (prox_ipc_edge_edge_distance_type) and evaluates
/// in one pass, giving the exact segment-segment distance to within
/// 16 eps S^2 in all cases, nearly parallel and zero-length edges included.
/// An invalid type or non-finite input gives NaN.
PROX_KERNEL double prox_ipc_edge_edge_distance(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                               prox_vec3 eb1, prox_ipc_ee_type type);
/// Float version of prox_ipc_edge_edge_distance().
PROX_KERNEL float prox_ipc_edge_edge_distancef(prox_vec3f ea0, prox_vec3f ea1, prox_vec3f eb0,
                                               prox_vec3f eb1, prox_ipc_ee_type type);

/// Gradient (12 entries, vertex order ea0, ea1, eb0, eb1) of the edge-edge
/// squared distance of the given type (PROX_EE_AUTO classifies first);
/// entries of vertices the type does not involve are zero. Returns the
/// distance. An invalid type or non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_edge_edge_distance_gradient(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                        prox_vec3 eb1, prox_ipc_ee_type type,
                                                        double grad[12]);
/// Float version of prox_ipc_edge_edge_distance_gradient().
PROX_KERNEL float prox_ipc_edge_edge_distance_gradientf(prox_vec3f ea0, prox_vec3f ea1,
                                                        prox_vec3f eb0, prox_vec3f eb1,
                                                        prox_ipc_ee_type type, float grad[12]);

/// Hessian (12x12, row-major, symmetric) of the edge-edge squared distance
/// of the given type (PROX_EE_AUTO classifies first); fills grad when not
/// NULL and returns the distance. An invalid type or non-finite input gives
/// NaN entries.
PROX_KERNEL double prox_ipc_edge_edge_distance_hessian(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                       prox_vec3 eb1, prox_ipc_ee_type type,
                                                       double *grad, double hess[144]);
/// Float version of prox_ipc_edge_edge_distance_hessian().
PROX_KERNEL float prox_ipc_edge_edge_distance_hessianf(prox_vec3f ea0, prox_vec3f ea1,
                                                       prox_vec3f eb0, prox_vec3f eb1,
                                                       prox_ipc_ee_type type, float *grad,
                                                       float hess[144]);

/// Squared norm |ea x eb|^2 of the cross product of the edge vectors
/// ea = ea1 - ea0 and eb = eb1 - eb0 (the x of the mollifier). Absolute
/// error at most 8 eps |ea|^2 |eb|^2 (checked by the test suite; about
/// 3 measured).
/// Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_edge_edge_cross_squarednorm(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                        prox_vec3 eb1);
/// Float version of prox_ipc_edge_edge_cross_squarednorm().
PROX_KERNEL float prox_ipc_edge_edge_cross_squarednormf(prox_vec3f ea0, prox_vec3f ea1,
                                                        prox_vec3f eb0, prox_vec3f eb1);

/// Gradient (12 entries, vertex order ea0, ea1, eb0, eb1) of
/// |ea x eb|^2; returns the value. Non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_edge_edge_cross_squarednorm_gradient(prox_vec3 ea0, prox_vec3 ea1,
                                                                 prox_vec3 eb0, prox_vec3 eb1,
                                                                 double grad[12]);
/// Float version of prox_ipc_edge_edge_cross_squarednorm_gradient().
PROX_KERNEL float prox_ipc_edge_edge_cross_squarednorm_gradientf(prox_vec3f ea0, prox_vec3f ea1,
                                                                 prox_vec3f eb0, prox_vec3f eb1,
                                                                 float grad[12]);

/// Hessian (12x12, row-major, symmetric) of |ea x eb|^2 in closed form;
/// fills grad when not NULL and returns the value. Non-finite input gives
/// NaN entries.
PROX_KERNEL double prox_ipc_edge_edge_cross_squarednorm_hessian(prox_vec3 ea0, prox_vec3 ea1,
                                                                prox_vec3 eb0, prox_vec3 eb1,
                                                                double *grad, double hess[144]);
/// Float version of prox_ipc_edge_edge_cross_squarednorm_hessian().
PROX_KERNEL float prox_ipc_edge_edge_cross_squarednorm_hessianf(prox_vec3f ea0, prox_vec3f ea1,
                                                                prox_vec3f eb0, prox_vec3f eb1,
                                                                float *grad, float hess[144]);

/// The conventional mollifier threshold eps_x = 1e-3 |ea|^2 |eb|^2 of the
/// rest-shape edge vectors ea = ea1_rest - ea0_rest, eb = eb1_rest -
/// eb0_rest (PROX_IPC_MOLLIFIER_FRACTION). Zero when a rest edge has zero
/// length (then the mollifier is 1 everywhere). Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_edge_edge_mollifier_threshold(prox_vec3 ea0_rest, prox_vec3 ea1_rest,
                                                          prox_vec3 eb0_rest, prox_vec3 eb1_rest);
/// Float version of prox_ipc_edge_edge_mollifier_threshold().
PROX_KERNEL float prox_ipc_edge_edge_mollifier_thresholdf(prox_vec3f ea0_rest, prox_vec3f ea1_rest,
                                                          prox_vec3f eb0_rest, prox_vec3f eb1_rest);

/// The edge-edge mollifier m(x) = (2 - x / eps_x) x / eps_x for
/// x < eps_x and 1 otherwise (= -x^2/eps_x^2 + 2 x/eps_x below the
/// threshold); C1 at x = eps_x (value 1, slope 0 from both sides). Meant
/// for x >= 0; eps_x <= 0 gives 1 for every x >= 0. NaN or infinite x or
/// eps_x gives NaN.
PROX_KERNEL double prox_ipc_mollifier(double x, double eps_x);
/// Float version of prox_ipc_mollifier().
PROX_KERNEL float prox_ipc_mollifierf(float x, float eps_x);

/// Derivative dm/dx of prox_ipc_mollifier: 2 (1 - x / eps_x) / eps_x below
/// the threshold, 0 above (continuous at x = eps_x). NaN or infinite input
/// gives NaN.
PROX_KERNEL double prox_ipc_mollifier_derivative(double x, double eps_x);
/// Float version of prox_ipc_mollifier_derivative().
PROX_KERNEL float prox_ipc_mollifier_derivativef(float x, float eps_x);

/// Second derivative of prox_ipc_mollifier: -2 / eps_x^2 below the
/// threshold, 0 above (it jumps at x = eps_x: m is C1, not C2). The
/// quotient of -2 by eps_x^2 rounded as if its exponent were unbounded,
/// itself correctly rounded, also where eps_x^2 leaves the range: a
/// subnormal result for eps_x above 2^511 (float 2^63), an infinite one
/// below about 2^-511.5 (float 2^-63.5). NaN or infinite input gives NaN.
PROX_KERNEL double prox_ipc_mollifier_second_derivative(double x, double eps_x);
/// Float version of prox_ipc_mollifier_second_derivative().
PROX_KERNEL float prox_ipc_mollifier_second_derivativef(float x, float eps_x);

/// The edge-edge mollifier m(|ea x eb|^2) of prox_ipc_mollifier with
/// threshold eps_x (from prox_ipc_edge_edge_mollifier_threshold). Smoothly
/// goes to 0 as the edges become parallel, 1 when sin^2 of their angle is
/// large enough. Its value equals prox_ipc_mollifier's of
/// prox_ipc_edge_edge_cross_squarednorm's x wherever that x is a normal
/// number, and is formed without underflow elsewhere (see
/// prox_detail_ipc_mollify). Non-finite input gives NaN.
PROX_KERNEL double prox_ipc_edge_edge_mollifier(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                prox_vec3 eb1, double eps_x);
/// Float version of prox_ipc_edge_edge_mollifier().
PROX_KERNEL float prox_ipc_edge_edge_mollifierf(prox_vec3f ea0, prox_vec3f ea1, prox_vec3f eb0,
                                                prox_vec3f eb1, float eps_x);

/// Gradient (12 entries, vertex order ea0, ea1, eb0, eb1) of the edge-edge
/// mollifier, m'(x) dx (zero at and above the threshold); returns the
/// mollifier value. Finite where max(|ea|, |eb|)^2 <= 2^1016 eps_x (float
/// 2^120; see prox_ipc_edge_edge_mollifier_hessian). Non-finite input
/// gives NaN entries.
PROX_KERNEL double prox_ipc_edge_edge_mollifier_gradient(prox_vec3 ea0, prox_vec3 ea1,
                                                         prox_vec3 eb0, prox_vec3 eb1, double eps_x,
                                                         double grad[12]);
/// Float version of prox_ipc_edge_edge_mollifier_gradient().
PROX_KERNEL float prox_ipc_edge_edge_mollifier_gradientf(prox_vec3f ea0, prox_vec3f ea1,
                                                         prox_vec3f eb0, prox_vec3f eb1,
                                                         float eps_x, float grad[12]);

/// Hessian (12x12, row-major, symmetric) of the edge-edge mollifier,
/// m''(x) dx dx^T + m'(x) d2x (zero at and above the threshold); fills grad
/// when not NULL and returns the mollifier value. Below the threshold its
/// entries are at most about 24 max(|ea|, |eb|)^2 / eps_x (the gradient's
/// 4 max(|ea|, |eb|) / sqrt(eps_x)): finite where max(|ea|, |eb|)^2 <=
/// 2^1016 eps_x (float 2^120), within the domain; beyond, the exact
/// Hessian may leave the range (eps_x from another rest shape than the
/// edges', say: with the IPC threshold of the same edges, eps_x = 1e-3
/// |ea|^2 |eb|^2, the condition is min(|ea|, |eb|)^2 >= 1e3 2^-1016 and
/// holds throughout the domain). Non-finite input gives NaN entries.
PROX_KERNEL double prox_ipc_edge_edge_mollifier_hessian(prox_vec3 ea0, prox_vec3 ea1, prox_vec3 eb0,
                                                        prox_vec3 eb1, double eps_x, double *grad,
                                                        double hess[144]);
/// Float version of prox_ipc_edge_edge_mollifier_hessian().
PROX_KERNEL float prox_ipc_edge_edge_mollifier_hessianf(prox_vec3f ea0, prox_vec3f ea1,
                                                        prox_vec3f eb0, prox_vec3f eb1, float eps_x,
                                                        float *grad, float hess[144]);

PROX_EXTERN_C_END

#endif /* PROX_CONTACT_H */
