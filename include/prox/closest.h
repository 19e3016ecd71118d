/* SPDX-License-Identifier: MIT */
/// @file closest.h
/// @brief Closest points and distances: a point against a primitive (K1)
/// and pairs of primitives (K2), in double and float (suffix f).
///
/// Every query returns the squared distance and fills an optional result
/// (prox_closest for K1, prox_pair for K2) with the closest point(s),
/// parameters and feature(s). Signed
/// variants return the signed distance (negative inside). No query
/// allocates, and every query is defined for degenerate input.
///
/// The result pointer may be NULL: the query then computes the distance
/// only, by the shortest path it has. That distance meets the same error
/// bound and the same NaN rules, but it may differ in its last bits from
/// the one returned with a result (prox_point_segment, for one, evaluates
/// |(p - a) - t (b - a)|^2 without a result and |p - q|^2 with one, q the
/// reported point; prox_point_obb forms p - q as (p - c) - sum s_i a_i).
/// Where the result reports p inside a solid, both give exactly 0.
///
/// Features (K1): a query reports the exact feature (the vertex, edge, face
/// or interior that holds the exact closest point, as each query numbers
/// them) wherever p is farther than 8 eps S from every boundary of that
/// feature's region and no other feature comes within 8 eps S of the
/// distance (S as in the error bounds). Nearer, it may report a
/// neighbouring feature, whose point then still meets the distance bound.
/// The margin is the point bound: features are decided from the quantities
/// that give the point, and the test suite finds the disagreements within
/// 2.2 eps S (tests/test_closest.c asserts the margin and prints, per
/// kernel, the cases within it and how many differ). Zero-area triangles
/// and flat tetrahedra, where several features hold the closest point,
/// report one of them.
///
/// Domain: finite input whose nonzero coordinates, radii, half extents
/// and offsets are of magnitude between 2^-500 and 2^500 (about 3e-151 to
/// 3e150) in double, 2^-60 and 2^60 (about 9e-19 to 1e18) in float, and
/// within a factor 2^500 (float 2^60) of one another in one query, gives
/// finite results within the stated error bounds. tests/test_domain.c
/// checks every query at the ends (2^+-500, 2^+-60); tests/test_property.c
/// checks every query on random configurations across the whole domain,
/// each coordinate with its own exponent, with shared, equal, zero,
/// collinear and coplanar values. Subnormal inputs and wider spreads are
/// outside the domain: the results are still defined (no trap, no
/// undefined behaviour) but may lose their accuracy or be infinite or NaN.
///
/// Scaling: every query's input multiplied by 2^k gives the results
/// multiplied by 2^k (squares 4^k) bit for bit for |k| <= 200 (float 20)
/// while every nonzero magnitude stays within [2^-240, 2^200] (float
/// [2^-24, 2^20]; below, the fast paths hand over to the wide ones, whose
/// last bits differ), and within twice the error bound out to the domain's
/// ends (tests/test_scale.c on inputs in [-1, 1], tests/test_property.c on
/// the whole domain). The signed distances measure a distance whose square
/// may have lost digits to subnormal numbers again on the input scaled to
/// magnitude 1.
#ifndef PROX_CLOSEST_H
#define PROX_CLOSEST_H

#include "primitives.h"

PROX_EXTERN_C_BEGIN

#include "detail/real_double.h"
#include "detail/closest_point.inl"
#include "detail/closest_pair.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/closest_point.inl"
#include "detail/closest_pair.inl"
#include "detail/real_end.h"

/* The documented kernels, literally named (the templates included above
 * hold their definitions, once for both precisions). */

/* ---- Point to primitive (K1) ---- */

/// Closest point on a plane to p; returns the squared distance.
///
/// out (may be NULL) gets the projection of p, feature FACE 0 and no
/// parameters. Any non-zero normal works (it need not be unit; a normal
/// whose square would underflow or overflow is first scaled by a power of
/// two, which leaves the plane as it is). A plane with a zero normal (as
/// the constructors leave on failure) contains every point: the result is
/// p itself at distance 0. Non-finite input gives NaN. Error: squared
/// distance within 8 eps max(S, d)^2 for a unit normal.
PROX_KERNEL double prox_point_plane(prox_vec3 p, const prox_plane *plane, prox_closest *out);
/// Float version of prox_point_plane().
PROX_KERNEL float prox_point_planef(prox_vec3f p, const prox_planef *plane, prox_closestf *out);

/// Signed distance from p to a plane: positive on the side the normal
/// points to. out (may be NULL) gets the projection of p and the squared
/// distance as prox_point_plane gives them (the square of the result within
/// rounding; +inf where that square overflows while the distance does
/// not). Zero normal: 0; non-finite input: NaN.
PROX_KERNEL double prox_point_plane_signed(prox_vec3 p, const prox_plane *plane, prox_closest *out);
/// Float version of prox_point_plane_signed().
PROX_KERNEL float prox_point_plane_signedf(prox_vec3f p, const prox_planef *plane,
                                           prox_closestf *out);

/// Closest point on a line to p; returns the squared distance.
///
/// out->param[0] is the line parameter t of the closest point
/// origin + t dir; feature EDGE 0. A zero dir makes the line its origin
/// (t = 0, feature VERTEX 0). Non-finite input gives NaN.
PROX_KERNEL double prox_point_line(prox_vec3 p, const prox_line *line, prox_closest *out);
/// Float version of prox_point_line().
PROX_KERNEL float prox_point_linef(prox_vec3f p, const prox_linef *line, prox_closestf *out);

/// Closest point on a ray to p; returns the squared distance.
///
/// The ray is {origin + t dir : tmin <= t <= tmax} (tmax may be +inf, tmin
/// -inf). out->param[0] is t; feature VERTEX 0 when t == tmin, VERTEX 1
/// when t == tmax, else EDGE 0. A zero dir makes the ray its origin (t =
/// clamp(0), VERTEX 0); tmin > tmax is the single parameter tmin.
/// Non-finite coordinates or a NaN interval give NaN.
PROX_KERNEL double prox_point_ray(prox_vec3 p, const prox_ray *ray, prox_closest *out);
/// Float version of prox_point_ray().
PROX_KERNEL float prox_point_rayf(prox_vec3f p, const prox_rayf *ray, prox_closestf *out);

/// Closest point on a segment to p; returns the squared distance.
///
/// out->param[0] is t in [0, 1] (closest point a + t (b - a)); feature
/// VERTEX 0 (t = 0, the point is a exactly), VERTEX 1 (t = 1, b exactly) or
/// EDGE 0. A segment with a == b is the point a (VERTEX 0). Non-finite input
/// gives NaN. Error: squared distance within 8 eps max(S, d)^2, point within
/// 8 eps S.
PROX_SMALL_KERNEL double prox_point_segment(prox_vec3 p, const prox_segment *seg,
                                            prox_closest *out);
/// Float version of prox_point_segment().
PROX_SMALL_KERNEL float prox_point_segmentf(prox_vec3f p, const prox_segmentf *seg,
                                            prox_closestf *out);

/// Closest point on a triangle to p; returns the squared distance.
///
/// out->param[0..2] are the barycentric coordinates (u, v, w) of the
/// closest point q = u v[0] + v v[1] + w v[2] (all >= 0, summing to 1 up to
/// rounding); feature VERTEX i, EDGE i (v[i] to v[(i+1)%3]) or FACE 0.
/// A triangle of zero area (collinear or coincident vertices) is the union
/// of its edges, and nearly degenerate ones (slivers) are handled in wide
/// arithmetic, so the squared distance keeps its bound on slivers too.
/// Non-finite input gives NaN. Error (S the largest coordinate magnitude,
/// d the distance): squared distance within 8 eps max(S, d)^2 for every
/// triangle, slivers and caps included (the face point is p projected
/// along a cross product of two edges, taken at the vertex with the
/// largest sine: at v[0] unless its angle has sin^2 < 1/8; caps, whose
/// largest angle exceeds about 159 degrees, take the wide path); point
/// within 8 eps S when every angle has sin^2 >= 1e-4 (the face point is p
/// projected along the normal, whose direction is as accurate as the shape
/// allows); barycentrics reproduce
/// the point within 8 eps S / sin^2(smallest angle) (they solve a 2x2 Gram
/// system; prox_triangle_barycentric is accurate for any shape).
/// Voronoi regions in the order of Ericson 5.1.5, with the face and edge
/// points computed differently.
PROX_KERNEL double prox_point_triangle(prox_vec3 p, const prox_triangle *tri, prox_closest *out);
/// Float version of prox_point_triangle().
PROX_KERNEL float prox_point_trianglef(prox_vec3f p, const prox_trianglef *tri, prox_closestf *out);

/// Barycentric coordinates (u, v, w) of the orthogonal projection of p onto
/// the plane of a triangle: the projection is u v[0] + v v[1] + w v[2],
/// u + v + w = 1, returned as (x, y, z) = (u, v, w).
///
/// Computed in wide arithmetic: each coordinate has a relative error of a
/// few eps on non-degenerate triangles, slivers included. For a triangle
/// of zero area (relative to its edges, below 1e-12 in sine of its angle),
/// the coordinates of the closest point of its edges are returned. Non-finite
/// input gives NaN.
PROX_KERNEL prox_vec3 prox_triangle_barycentric(prox_vec3 p, const prox_triangle *tri);
/// Float version of prox_triangle_barycentric().
PROX_KERNEL prox_vec3f prox_triangle_barycentricf(prox_vec3f p, const prox_trianglef *tri);

/// Closed point-in-triangle test: 1 when the orthogonal projection of p
/// onto the triangle's plane lies in the triangle or on its boundary, else
/// 0. The barycentric numerators are evaluated in wide arithmetic, and a
/// numerator within its rounding bound (about 1e-28 relative for double)
/// of zero counts as on the boundary. A triangle of zero area (see
/// prox_triangle_barycentric) contains p when p lies on one of its edges:
/// when prox_point_triangle's squared distance is at most 64 eps^2 (|v[1] -
/// v[0]|^2 + |v[2] - v[0]|^2 + |p - v[0]|^2), eps = 2^-52 (float: 2^-23).
/// Scaling every input by a power of two does not change the answer (within
/// the domain of closest.h). Non-finite input: 0.
PROX_KERNEL int prox_point_in_triangle(prox_vec3 p, const prox_triangle *tri);
/// Float version of prox_point_in_triangle().
PROX_KERNEL int prox_point_in_trianglef(prox_vec3f p, const prox_trianglef *tri);

/// Closest point on a rectangle to p; returns the squared distance.
///
/// out->param[0..1] are the rectangle coordinates (s, t) of the closest
/// point center + s axis[0] + t axis[1], |s| <= |half[0]|, |t| <= |half[1]|.
/// Feature FACE 0 (inside), EDGE i (i = 0: s = -h0, 1: s = +h0, 2: t = -h1,
/// 3: t = +h1) or VERTEX i (bit 0 set when s = +h0, bit 1 when t = +h1).
/// The axes are expected orthonormal (prox_rectangle_is_valid) and used as
/// given: the answer is the clamp formula on them, the closest point only
/// for orthonormal axes. Zero half extents give a segment or a point.
/// Non-finite input: NaN.
PROX_KERNEL double prox_point_rectangle(prox_vec3 p, const prox_rectangle *rect, prox_closest *out);
/// Float version of prox_point_rectangle().
PROX_KERNEL float prox_point_rectanglef(prox_vec3f p, const prox_rectanglef *rect,
                                        prox_closestf *out);

/// Closest point of a solid axis-aligned box to p; returns the squared
/// distance (0 inside).
///
/// Feature INTERIOR (p inside or on the boundary: the point is p), FACE
/// 2i + s (i the axis, s = 1 for the max side), EDGE 4k + b (k the free axis,
/// b has bit 0 for the high side of the lower clamped axis and bit 1 for the
/// other) or VERTEX b (bit i for the high side of axis i). No parameters.
/// Zero size is a rectangle, segment or point. The corners are expected in
/// order (min <= max); an axis with min > max is not reordered but taken as
/// the single value min (the clamp's answer, as Ericson's and Jolt's clamps
/// give; the sides and the feature follow from that). Non-finite input gives
/// NaN. Exact up to the rounding of the final sum of squares.
PROX_SMALL_KERNEL double prox_point_aabb(prox_vec3 p, const prox_aabb *box, prox_closest *out);
/// Float version of prox_point_aabb().
PROX_SMALL_KERNEL float prox_point_aabbf(prox_vec3f p, const prox_aabbf *box, prox_closestf *out);

/// Signed distance from p to an axis-aligned box: the distance outside,
/// minus the depth (distance to the nearest face) inside.
///
/// out (may be NULL) gets the nearest point of the boundary: outside, as
/// prox_point_aabb; inside, p moved onto the nearest face (feature FACE i as
/// for prox_point_aabb; ties go to the lowest face index); out->sqdist is
/// the square of the result. An axis with min > max is the single value min,
/// as for prox_point_aabb. Non-finite input gives NaN.
PROX_KERNEL double prox_point_aabb_signed(prox_vec3 p, const prox_aabb *box, prox_closest *out);
/// Float version of prox_point_aabb_signed().
PROX_KERNEL float prox_point_aabb_signedf(prox_vec3f p, const prox_aabbf *box, prox_closestf *out);

/// Closest point of a solid oriented box to p; returns the squared distance
/// (0 inside).
///
/// out->param[0..2] are the box coordinates s_i of the closest point
/// center + sum s_i axis[i], |s_i| <= |half[i]|; features as for
/// prox_point_aabb with axis i in place of x, y, z. The axes are expected
/// orthonormal (prox_obb_is_valid) and used as given: the answer is the
/// clamp formula on them, so inside (feature INTERIOR) the point is p
/// itself and the distance 0; with other axes it is not the closest point
/// of any box the other OBB queries agree on (see prox_obb). Zero half
/// extents give a flat box. Non-finite input gives NaN.
PROX_SMALL_KERNEL double prox_point_obb(prox_vec3 p, const prox_obb *box, prox_closest *out);
/// Float version of prox_point_obb().
PROX_SMALL_KERNEL float prox_point_obbf(prox_vec3f p, const prox_obbf *box, prox_closestf *out);

/// Signed distance from p to an oriented box: the distance outside, minus
/// the depth inside. out (may be NULL) gets the nearest boundary point as
/// for prox_point_aabb_signed (box coordinates in param[0..2]).
/// Non-finite input gives NaN.
PROX_KERNEL double prox_point_obb_signed(prox_vec3 p, const prox_obb *box, prox_closest *out);
/// Float version of prox_point_obb_signed().
PROX_KERNEL float prox_point_obb_signedf(prox_vec3f p, const prox_obbf *box, prox_closestf *out);

/// Closest point of a solid sphere (ball) to p; returns the squared
/// distance (0 inside).
///
/// Feature FACE 0 outside (the point is on the surface), INTERIOR inside or
/// on the surface (the point is p). No parameters. Radius 0 is the point
/// center. Non-finite input gives NaN.
PROX_KERNEL double prox_point_sphere(prox_vec3 p, const prox_sphere *sph, prox_closest *out);
/// Float version of prox_point_sphere().
PROX_KERNEL float prox_point_spheref(prox_vec3f p, const prox_spheref *sph, prox_closestf *out);

/// Signed distance from p to a sphere: |p - center| - radius. out (may be
/// NULL) gets the nearest surface point (FACE 0); at the center, where
/// every surface point is nearest, the point center + radius (1, 0, 0).
/// Non-finite input gives NaN. Error (S the largest magnitude of p, the
/// center, the radius and the exact point): the distance within 8 eps S;
/// the point, unless p is the center, within 8 eps S of the exact nearest
/// point (the direction p - center is formed exactly up to one rounding per
/// coordinate, at any distance from the center, subnormal ones included);
/// and in every case on the surface (its distance to the center within 8
/// eps S of the radius) at distance |result| from p within 8 eps S.
PROX_KERNEL double prox_point_sphere_signed(prox_vec3 p, const prox_sphere *sph, prox_closest *out);
/// Float version of prox_point_sphere_signed().
PROX_KERNEL float prox_point_sphere_signedf(prox_vec3f p, const prox_spheref *sph,
                                            prox_closestf *out);

/// Closest point of a solid capsule to p; returns the squared distance (0
/// inside).
///
/// out->param[0] is the parameter t in [0, 1] of the nearest point of the
/// core segment a b. Feature INTERIOR inside (the point is p), else VERTEX
/// 0 / VERTEX 1 (on the cap around a / b: t = 0 / 1) or EDGE 0 (on the
/// side). a == b is a sphere; radius 0 a segment. Non-finite input: NaN.
PROX_KERNEL double prox_point_capsule(prox_vec3 p, const prox_capsule *cap, prox_closest *out);
/// Float version of prox_point_capsule().
PROX_KERNEL float prox_point_capsulef(prox_vec3f p, const prox_capsulef *cap, prox_closestf *out);

/// Signed distance from p to a capsule: the distance to the core segment
/// minus the radius. out (may be NULL) gets the nearest surface point with
/// the features of prox_point_capsule (never INTERIOR): the core point
/// plus radius times the unit direction from it to p, made perpendicular to
/// the segment on the side (EDGE) and kept off the segment's side on a cap
/// (VERTEX); on the core itself, a direction perpendicular to the segment.
/// Non-finite input gives NaN.
///
/// Error (S the largest magnitude of p, a, b, the radius and the exact
/// point; d_core the exact distance from p to the core segment): the
/// distance within 8 eps S. The point is always on the surface (its
/// distance to the segment within 8 eps S of the radius) and at distance
/// |result| from p within 8 eps S. It is within 8 eps S of the exact
/// nearest point where that point is well-conditioned, d_core >= radius /
/// 2. Nearer the core the direction from the core to p, which the rounded
/// core point decides, is ill-conditioned: the point is then within 8 eps S
/// (1 + radius / d_core) of the exact one, which says little for p within
/// a few ulps of the core: such a p can get any direction around the
/// segment. (On the core, d_core = 0, a whole circle of points is nearest,
/// and the point returned is one of them within 8 eps S.)
PROX_KERNEL double prox_point_capsule_signed(prox_vec3 p, const prox_capsule *cap,
                                             prox_closest *out);
/// Float version of prox_point_capsule_signed().
PROX_KERNEL float prox_point_capsule_signedf(prox_vec3f p, const prox_capsulef *cap,
                                             prox_closestf *out);

/// Closest point of a solid tetrahedron to p; returns the squared distance
/// (0 inside).
///
/// out->param[0..3] are the barycentric coordinates of the closest point.
/// Feature INTERIOR (p inside: the point is p), FACE i (opposite v[i]),
/// EDGE i (pairs (0,1), (0,2), (0,3), (1,2), (1,3), (2,3)) or VERTEX i.
/// Only the faces p is not behind are searched; a sign misjudged by
/// rounding concerns a point within rounding of that face's plane, where
/// the answer is unaffected beyond rounding.
/// A flat tetrahedron (zero volume) is the union of its faces, each handled
/// as by prox_point_triangle (slivers included). Either orientation.
/// Non-finite input gives NaN. Error: squared distance as
/// prox_point_triangle; the point likewise, except where two faces' distances
/// tie within rounding (p far away), where either face's point may be
/// returned.
PROX_KERNEL double prox_point_tetrahedron(prox_vec3 p, const prox_tetrahedron *tet,
                                          prox_closest *out);
/// Float version of prox_point_tetrahedron().
PROX_KERNEL float prox_point_tetrahedronf(prox_vec3f p, const prox_tetrahedronf *tet,
                                          prox_closestf *out);

/// Signed distance from p to a solid tetrahedron: the distance outside,
/// minus the depth (distance to the nearest face) inside; a flat
/// tetrahedron has no inside. out (may be NULL) gets the nearest boundary
/// point: outside, as prox_point_tetrahedron; inside, the nearest point of
/// the nearest face, feature FACE i. Non-finite input gives NaN.
PROX_KERNEL double prox_point_tetrahedron_signed(prox_vec3 p, const prox_tetrahedron *tet,
                                                 prox_closest *out);
/// Float version of prox_point_tetrahedron_signed().
PROX_KERNEL float prox_point_tetrahedron_signedf(prox_vec3f p, const prox_tetrahedronf *tet,
                                                 prox_closestf *out);

/* ---- Pairs of primitives (K2) ---- */

/// Closest points of two lines; returns the squared distance.
///
/// out (may be NULL) gets a closest point on each line, param[k][0] = its
/// line parameter t (point = origin + t dir) and feature EDGE 0. A line with
/// a zero dir is the point origin (t = 0, feature VERTEX 0). Parallel lines
/// (including coincident ones) have a whole family of closest pairs: the
/// pair at the first line's origin is returned. Non-finite input gives NaN.
/// Error: squared distance within 8 eps S^2 (S the largest input coordinate
/// magnitude), nearly parallel lines included (the distance of the
/// supporting lines is then computed in wide arithmetic); the points of
/// nearly parallel lines lie far out and are only as accurate as that
/// position allows. Algorithm: the points from the 2x2 normal equations
/// (Ericson 5.1.8) when sin^2 of the angle is above 1e-6 (float: 1e-3),
/// else solved in wide arithmetic; the distance from the triple product
/// ((o2 - o1) . (d1 x d2))^2 / |d1 x d2|^2 in wide arithmetic (double-double;
/// float: double).
PROX_KERNEL double prox_line_line(const prox_line *l1, const prox_line *l2, prox_pair *out);
/// Float version of prox_line_line().
PROX_KERNEL float prox_line_linef(const prox_linef *l1, const prox_linef *l2, prox_pairf *out);

/// Closest points of a line and a ray; returns the squared distance.
///
/// The ray is {origin + t dir : tmin <= t <= tmax}. param[0][0] is the line
/// parameter, param[1][0] the ray parameter t. Ray features: VERTEX 0 at
/// t = tmin, VERTEX 1 at t = tmax (finite), else EDGE 0; a zero dir makes
/// the ray its origin (t = clamp(0, tmin, tmax), VERTEX 0) and tmin > tmax
/// the single point at tmin (VERTEX 0). A line parallel to the ray gets the
/// pair at the ray's end point. Non-finite coordinates or a NaN interval
/// give NaN. Error and algorithm as for prox_line_line (end points by
/// prox_point_line).
PROX_KERNEL double prox_line_ray(const prox_line *l, const prox_ray *r, prox_pair *out);
/// Float version of prox_line_ray().
PROX_KERNEL float prox_line_rayf(const prox_linef *l, const prox_rayf *r, prox_pairf *out);

/// Closest points of a line and a segment; returns the squared distance.
///
/// param[0][0] is the line parameter, param[1][0] the segment parameter t
/// in [0, 1] (point a + t (b - a)); segment features VERTEX 0 (t = 0, the
/// point is a exactly), VERTEX 1 (t = 1, b exactly) or EDGE 0. A segment
/// with a == b is the point a (VERTEX 0). A parallel segment gets the pair
/// at its end a (or b where it is strictly closer). Non-finite input gives
/// NaN. Error: squared distance within 8 eps S^2, nearly parallel inputs
/// included. Algorithm as for prox_segment_segment.
PROX_KERNEL double prox_line_segment(const prox_line *l, const prox_segment *g, prox_pair *out);
/// Float version of prox_line_segment().
PROX_KERNEL float prox_line_segmentf(const prox_linef *l, const prox_segmentf *g, prox_pairf *out);

/// Closest points of two rays; returns the squared distance.
///
/// param[k][0] is the parameter t of ray k; features and degenerate rays as
/// for prox_line_ray. Parallel and anti-parallel rays (overlapping or not)
/// always get a closest pair: the first, in the order tmin and tmax end of
/// the first ray, then of the second, whose distance to the other ray is the
/// smallest. Non-finite coordinates or a NaN interval give NaN. Error:
/// squared distance within 8 eps S^2 (S over the origins, directions and
/// finite end points), nearly parallel rays included. Algorithm as for
/// prox_segment_segment with the rays' intervals.
PROX_KERNEL double prox_ray_ray(const prox_ray *r1, const prox_ray *r2, prox_pair *out);
/// Float version of prox_ray_ray().
PROX_KERNEL float prox_ray_rayf(const prox_rayf *r1, const prox_rayf *r2, prox_pairf *out);

/// Closest points of a ray and a segment; returns the squared distance.
///
/// param[0][0] is the ray parameter, param[1][0] the segment parameter;
/// features and degenerate inputs as for prox_line_ray and
/// prox_line_segment; parallel inputs as for prox_ray_ray. Non-finite
/// coordinates or a NaN interval give NaN. Error: squared distance within
/// 8 eps S^2, nearly parallel inputs included. Algorithm as for
/// prox_segment_segment.
PROX_KERNEL double prox_ray_segment(const prox_ray *r, const prox_segment *g, prox_pair *out);
/// Float version of prox_ray_segment().
PROX_KERNEL float prox_ray_segmentf(const prox_rayf *r, const prox_segmentf *g, prox_pairf *out);

/// Closest points of two segments; returns the squared distance.
///
/// param[k][0] is the parameter t in [0, 1] of segment k (point a + t (b -
/// a)); feature VERTEX 0 (t = 0: the point is a exactly), VERTEX 1 (t = 1:
/// b exactly) or EDGE 0. A segment with a == b is the point a (VERTEX 0),
/// whatever its length otherwise (no length threshold). Parallel and
/// collinear overlapping segments get a closest pair at an end point: the
/// first, in the order a1, b1, a2, b2, whose distance to the other segment
/// is the smallest. Non-finite input gives NaN.
///
/// Error: squared distance within 8 eps S^2 (S the largest input coordinate
/// magnitude), for nearly parallel segments too; points within a few eps S
/// when the segments are far from parallel. Algorithm: the clamped critical
/// point of Ericson 5.1.9 when sin^2 of the angle is above 1e-6 (float:
/// 1e-3); otherwise the minimum of the four end point-to-segment distances
/// and the critical point solved in double-double arithmetic (float: in
/// double), see the comment at the top of detail/closest_pair.inl.
PROX_KERNEL double prox_segment_segment(const prox_segment *g1, const prox_segment *g2,
                                        prox_pair *out);
/// Float version of prox_segment_segment().
PROX_KERNEL float prox_segment_segmentf(const prox_segmentf *g1, const prox_segmentf *g2,
                                        prox_pairf *out);

/// Closest points of a segment and a triangle; returns the squared distance.
///
/// param[0][0] is the segment parameter t (features VERTEX 0 / VERTEX 1 /
/// EDGE 0 as for prox_segment_segment); param[1] holds the barycentric
/// coordinates of the triangle point (features VERTEX i, EDGE i from v[i]
/// to v[(i+1)%3], or FACE 0, as for prox_point_triangle). A segment that
/// crosses the triangle gives distance 0 and the crossing point (computed
/// once on each object, so the two points agree to rounding); one that
/// touches it or lies in its plane gives distance 0 (to rounding) at a
/// point of contact. A segment with a == b is a point; a triangle of zero
/// area is the union of its edges. Non-finite input gives NaN.
///
/// Error: squared distance within 8 eps S^2. Algorithm: crossing by signed
/// volumes (Ericson 5.3.4) with a floating-point filter and a wide-arithmetic
/// fallback; otherwise the minimum over the two end point-triangle queries
/// and the three segment-edge queries (first strict minimum in that order).
PROX_KERNEL double prox_segment_triangle(const prox_segment *seg, const prox_triangle *tri,
                                         prox_pair *out);
/// Float version of prox_segment_triangle().
PROX_KERNEL float prox_segment_trianglef(const prox_segmentf *seg, const prox_trianglef *tri,
                                         prox_pairf *out);

/// Closest points of two triangles; returns the squared distance.
///
/// param[k] holds the barycentric coordinates of the point on triangle k;
/// features VERTEX i, EDGE i (v[i] to v[(i+1)%3]) or FACE 0 as for
/// prox_point_triangle. Intersecting triangles give distance 0 and a point
/// of their intersection: where an edge of one certainly crosses the other
/// (that edge's EDGE i and the other's FACE 0), or else, for touching or
/// coplanar overlapping triangles, a contact point found by the candidate
/// search below (distance 0 to rounding). Triangles of zero area are the
/// union of their edges. Non-finite input gives NaN.
///
/// Error: squared distance within 8 eps S^2. Algorithm: edge-triangle
/// crossings by signed volumes with a floating-point filter and wide
/// fallback (skipped when one triangle is certainly on one side of the
/// other's plane); otherwise the minimum over the six vertex-triangle and
/// nine edge-edge distances (first strict minimum in that order).
PROX_KERNEL double prox_triangle_triangle(const prox_triangle *t1, const prox_triangle *t2,
                                          prox_pair *out);
/// Float version of prox_triangle_triangle().
PROX_KERNEL float prox_triangle_trianglef(const prox_trianglef *t1, const prox_trianglef *t2,
                                          prox_pairf *out);

/// Closest points of two solid spheres (balls); returns the squared
/// distance between the solids, 0 when they overlap or touch.
///
/// Separated: the points are on the two surfaces along the line of
/// centers (feature FACE 0). Overlapping: both points are one common point
/// on the segment of centers (feature INTERIOR). No parameters (all 0).
/// Radius 0 is a point; a negative radius counts as its absolute value.
/// Non-finite input gives NaN. Error: the squared center distance is
/// formed in wide arithmetic and rounded once; the radii are subtracted as
/// (dc - R)^2 = dc^2 - R (dc + gap) when R < gap, else by squaring the gap:
/// within 8 eps S^2 (S over centers and radii) in the tests.
PROX_KERNEL double prox_sphere_sphere(const prox_sphere *s0, const prox_sphere *s1, prox_pair *out);
/// Float version of prox_sphere_sphere().
PROX_KERNEL float prox_sphere_spheref(const prox_spheref *s0, const prox_spheref *s1,
                                      prox_pairf *out);

/// Closest points of a solid sphere and a solid capsule; returns the
/// squared distance between the solids, 0 when they overlap or touch.
///
/// Side 0 (sphere): FACE 0 on its surface, or INTERIOR when overlapping, no
/// parameters. Side 1 (capsule): param[1][0] is the parameter t of the
/// nearest point of its core segment a b; feature as for the core point
/// (VERTEX 0 / VERTEX 1 on the caps, EDGE 0 on the side) or INTERIOR when
/// overlapping (both points are then one common point). Non-finite input
/// gives NaN. Error: as prox_sphere_sphere, from the core distance of
/// prox_point_segment. Algorithm: core distance minus radii.
PROX_KERNEL double prox_sphere_capsule(const prox_sphere *s, const prox_capsule *cap,
                                       prox_pair *out);
/// Float version of prox_sphere_capsule().
PROX_KERNEL float prox_sphere_capsulef(const prox_spheref *s, const prox_capsulef *cap,
                                       prox_pairf *out);

/// Closest points of two solid capsules; returns the squared distance
/// between the solids, 0 when they overlap or touch.
///
/// param[k][0] is the parameter t of the nearest point of capsule k's core
/// segment; features as for the core points of prox_segment_segment
/// (VERTEX 0 / VERTEX 1 on the caps, EDGE 0 on the side), or INTERIOR for
/// both when overlapping (both points are then one common point on the
/// segment between the core points). Parallel cores as for
/// prox_segment_segment. Non-finite input gives NaN. Error: the core
/// distance has the bound of prox_segment_segment; the radii are then
/// subtracted from its square root.
PROX_KERNEL double prox_capsule_capsule(const prox_capsule *c0, const prox_capsule *c1,
                                        prox_pair *out);
/// Float version of prox_capsule_capsule().
PROX_KERNEL float prox_capsule_capsulef(const prox_capsulef *c0, const prox_capsulef *c1,
                                        prox_pairf *out);

/// Closest points of a solid sphere and a segment; returns the squared
/// distance, 0 when the segment meets the sphere.
///
/// Side 0 as for prox_sphere_capsule; side 1 is the segment's point nearest
/// the center (param[1][0] = t, features of prox_point_segment), which is
/// also side 0's point when they meet (feature INTERIOR for the sphere).
/// Non-finite input gives NaN. Error: as prox_sphere_capsule.
PROX_KERNEL double prox_sphere_segment(const prox_sphere *s, const prox_segment *g, prox_pair *out);
/// Float version of prox_sphere_segment().
PROX_KERNEL float prox_sphere_segmentf(const prox_spheref *s, const prox_segmentf *g,
                                       prox_pairf *out);

/// Closest points of a solid capsule and a segment; returns the squared
/// distance, 0 when the segment meets the capsule.
///
/// Side 0 as for prox_capsule_capsule; side 1 is the segment's point of
/// the core pair of prox_segment_segment (param[1][0] = t), which is also
/// side 0's point when they meet (feature INTERIOR for the capsule).
/// Non-finite input gives NaN. Error: as prox_capsule_capsule.
PROX_KERNEL double prox_capsule_segment(const prox_capsule *cap, const prox_segment *g,
                                        prox_pair *out);
/// Float version of prox_capsule_segment().
PROX_KERNEL float prox_capsule_segmentf(const prox_capsulef *cap, const prox_segmentf *g,
                                        prox_pairf *out);

/// Closest points of a solid sphere and a triangle; returns the squared
/// distance, 0 when the triangle meets the sphere.
///
/// Side 0 as for prox_sphere_capsule; side 1 is the triangle's point
/// nearest the center (barycentrics in param[1], features of
/// prox_point_triangle), also side 0's point when they meet (feature
/// INTERIOR for the sphere). Non-finite input gives NaN. Error: the core
/// distance has the bound of prox_point_triangle; the radius is then
/// subtracted from its square root.
PROX_KERNEL double prox_sphere_triangle(const prox_sphere *s, const prox_triangle *tri,
                                        prox_pair *out);
/// Float version of prox_sphere_triangle().
PROX_KERNEL float prox_sphere_trianglef(const prox_spheref *s, const prox_trianglef *tri,
                                        prox_pairf *out);

/// Closest points of a solid capsule and a triangle; returns the squared
/// distance, 0 when the triangle meets the capsule.
///
/// Side 0 as for prox_capsule_capsule; side 1 is the triangle's point of
/// the core pair of prox_segment_triangle (barycentrics in param[1]), also
/// side 0's point when they meet (feature INTERIOR for the capsule).
/// Non-finite input gives NaN. Error: the core distance has the bound of
/// prox_segment_triangle; the radius is then subtracted from its square
/// root.
PROX_KERNEL double prox_capsule_triangle(const prox_capsule *cap, const prox_triangle *tri,
                                         prox_pair *out);
/// Float version of prox_capsule_triangle().
PROX_KERNEL float prox_capsule_trianglef(const prox_capsulef *cap, const prox_trianglef *tri,
                                         prox_pairf *out);

PROX_EXTERN_C_END

#endif /* PROX_CLOSEST_H */
