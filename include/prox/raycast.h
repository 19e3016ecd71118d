/* SPDX-License-Identifier: MIT */
/// @file raycast.h
/// @brief Ray casts (K3) against plane, triangle, AABB, OBB, sphere,
/// capsule and tetrahedron, in double and float (suffix f).
///
/// Every cast returns 1 on a hit and 0 on a miss and fills an optional
/// (NULL-able) prox_rayhit: parameter t in units of the ray's direction,
/// point, unit outward normal, feature, barycentrics (triangles), and for
/// solids the exit parameter and an inside flag. The ray is
/// {origin + t dir : tmin <= t <= tmax} (prox_ray_make gives [0, +inf]);
/// tmax < tmin is read as the single parameter tmin.
///
/// Solids (boxes, sphere, capsule, tetrahedron) are closed: a grazing ray
/// hits, a ray starting on the surface hits at tmin even when it leaves, a
/// ray starting inside hits at tmin with inside set and reports where it
/// leaves. Direction components that are 0, -0 or subnormal work. The
/// triangle cast is watertight (Woop, Benthin and Wald 2013, with exact
/// signs): a ray through a shared edge or vertex of a closed mesh hits one
/// of the triangles around it. A ray lying in a triangle's plane does not
/// hit it and a triangle of zero area is never hit. Non-finite input never
/// hits. No cast allocates; all are thread-safe and usable in CUDA device
/// code.
///
/// Decisions, and the margins within which they may differ from the exact
/// answer (tests/test_raycast.c asserts them and prints, per kernel, the
/// cases within the margins and how many differ):
/// - AABB, OBB, sphere, capsule: every ray that meets the solid hits; a ray
///   that misses it by more than 16 eps S_k misses, S_k the scale each cast
///   names (about its largest coordinate magnitude relative to the solid).
///   Between, a conservative hit may be reported: the casts retry a miss
///   on the solid grown by 8 eps S_k, so that grazing rays and rays that
///   start on the surface are never lost, and the other 8 eps S_k cover
///   the rounding of that retry.
/// - Triangle, tetrahedron: whether the line meets them is decided
///   exactly; plane: the line meets it unless parallel. Whether the
///   crossing lies in [tmin, tmax] is exact unless the exact t is within
///   16 eps S / (|dir| cos) of tmin or tmax (S the largest coordinate
///   magnitude, cos that of the angle of incidence: t's rounding).
/// - The inside flag and the feature are the exact ones where the origin,
///   and the entry point, are farther than the margin from the surface and
///   from another feature.
///
/// Domain: the casts give their documented answers with finite outputs for
/// nonzero coordinates of magnitude between 2^-300 and 2^300 (float: 2^-40
/// and 2^40) and a direction of length about 1 (its components may be 0 or
/// subnormal), and between 2^-500 and 2^500 (float 2^+-60) when the
/// direction has the coordinates' scale; t carries the ratio of the two.
/// The nonzero magnitudes of one cast lie within 2^500 (float 2^60) of one
/// another; no coordinate is subnormal. tests/test_domain.c checks every
/// cast at those magnitudes, tests/test_property.c on random
/// configurations across them, and tests/test_raycast.c the triangle cast
/// against the exact oracle across them.
#ifndef PROX_RAYCAST_H
#define PROX_RAYCAST_H

#include "closest.h"

PROX_EXTERN_C_BEGIN

#include "detail/real_double.h"
#include "detail/raycast.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/raycast.inl"
#include "detail/real_end.h"

/* The documented kernels, literally named (the templates included above
 * hold their definitions, once for both precisions). */

/// Casts a ray against a plane (a two-sided surface); returns 1 on a hit.
///
/// The hit is at t = (offset - n.o) / (n.d) when that is in [tmin, tmax]
/// (tmax < tmin is read as the single parameter tmin), both dot products
/// compensated (about one rounding each). out (may be NULL) gets t
/// (t_exit = t), the point, the plane's unit normal (whichever side the ray
/// comes from: `dot(normal, dir) > 0` tells a hit from behind) and feature
/// FACE 0. A ray parallel to the plane, including one lying in it, does not
/// hit; nor does any ray a plane with a zero normal. A t beyond the largest
/// finite real (a ray all but parallel to the plane) is not reported, nor
/// is a point that overflows. Non-finite input: no hit. Error: |t - t_exact|
/// |dir| within about 2 eps S / cos(angle between ray and normal), S the
/// largest magnitude of origin and offset / |n|.
PROX_KERNEL int prox_raycast_plane(const prox_ray *ray, const prox_plane *plane, prox_rayhit *out);
/// Float version of prox_raycast_plane().
PROX_KERNEL int prox_raycast_planef(const prox_rayf *ray, const prox_planef *plane,
                                    prox_rayhitf *out);

/// Casts a ray against a solid axis-aligned box; returns 1 on a hit.
///
/// Robust slab test: direction components that are 0, -0 or subnormal work
/// with the origin anywhere, on a slab plane included (the plain slab test
/// computes 0 * inf = NaN there). The box is closed and the test
/// conservative: every ray that touches the box is reported (a grazing ray
/// hits; a ray starting on the surface hits at tmin even when it leaves);
/// a ray that misses by less than about 4 ulps of its slab parameters may
/// be reported too (Ize 2013), one that misses by more than 16 eps S_k
/// (S_k the largest coordinate magnitude of corner - origin) is not. out (may
/// be NULL): entry t; t_exit; inside (the ray starts inside: t = tmin, feature
/// INTERIOR, normal zero); else the point (snapped onto the entry face), the
/// face's outward axis normal and the feature as for prox_point_aabb: FACE 2i +
/// s (s = 1 for the max side), or EDGE / VERTEX when the computed entry
/// parameters of two or three axes are equal. min > max on an axis is the same
/// as swapped. An entry parameter beyond the largest finite real (a subnormal
/// direction) is not reported. Non-finite input: no hit. Error:
/// |t - t_exact| |dir| <= 2 eps |t dir| (measured: below 2.1 eps S, S the
/// largest coordinate magnitude of origin and box).
PROX_SMALL_KERNEL int prox_raycast_aabb(const prox_ray *ray, const prox_aabb *box,
                                        prox_rayhit *out);
/// Float version of prox_raycast_aabb().
PROX_SMALL_KERNEL int prox_raycast_aabbf(const prox_rayf *ray, const prox_aabbf *box,
                                         prox_rayhitf *out);

/// Casts a ray against a solid oriented box; returns 1 on a hit.
///
/// The ray is taken into the box frame (coordinates (x - center) . axis[i],
/// axes orthonormal as prox_obb_is_valid checks; with other axes the box
/// is the slabs |(x - center) . axis[i]| <= |half[i]|, which prox_point_obb
/// does not share, see prox_obb) and clipped by the
/// robust slab test of prox_raycast_aabb. A ray that misses is tried again
/// against the box grown by 8 eps S_k (S_k the sum of the magnitudes of the
/// origin's coordinates relative to the center, plus the half extents),
/// which covers the rounding of the change of frame: a ray that touches
/// the box is never missed, one that misses it by more than 16 eps S_k
/// never hits (between, a conservative hit may be reported). out: as
/// prox_raycast_aabb, with axis[i] in place of the coordinate axes (normal
/// +-axis[i] normalised; the point is origin + t dir, not snapped).
/// Non-finite input: no hit. Error: |t - t_exact| |dir| <= 8 eps S where
/// the angle of incidence has |cos| >= 0.5 (asserted against an exact
/// oracle by tests/test_raycast.c); more on grazing rays.
PROX_KERNEL int prox_raycast_obb(const prox_ray *ray, const prox_obb *box, prox_rayhit *out);
/// Float version of prox_raycast_obb().
PROX_KERNEL int prox_raycast_obbf(const prox_rayf *ray, const prox_obbf *box, prox_rayhitf *out);

/// Casts a ray against a solid sphere (ball); returns 1 on a hit.
///
/// Closed, and robust at the surface: a ray that misses is tried again on
/// the ball grown by 8 eps S_k (S_k the largest coordinate magnitude of
/// the origin relative to the center, plus the radius), so grazing rays
/// and rays that start on the surface and leave are hits. A ray that
/// misses the ball by more than 16 eps S_k is a miss; between, a
/// conservative hit may be reported. out: entry t, t_exit, inside
/// (t = tmin, feature INTERIOR, zero normal), point, unit outward normal,
/// feature FACE 0. Radius 0 is a point (hit only by rays through it, up to
/// that margin); where the hit point is the center (radius 0, or a hit
/// within the margin of a tiny ball), the normal is -dir normalised, the
/// direction that faces the ray. Negative radius counts as its absolute
/// value. A zero
/// direction is the point origin: a hit (inside, t = tmin, t_exit = tmax)
/// exactly when it is in the ball. An entry beyond the largest finite real
/// (a subnormal direction) is not reported. Non-finite input: no hit.
/// Error: |t - t_exact| |dir| (and likewise t_exit)
/// <= 8 eps S where the angle of incidence has |cos| >= 0.5 (asserted
/// against an exact oracle by tests/test_raycast.c); more on grazing rays.
PROX_KERNEL int prox_raycast_sphere(const prox_ray *ray, const prox_sphere *sph, prox_rayhit *out);
/// Float version of prox_raycast_sphere().
PROX_KERNEL int prox_raycast_spheref(const prox_rayf *ray, const prox_spheref *sph,
                                     prox_rayhitf *out);

/// Casts a ray against a solid capsule; returns 1 on a hit.
///
/// The capsule is the union of the balls at a and b and the cylinder
/// between them; the ray's entry is the first entry into any of the three
/// (Ericson 5.3.7 in closest-approach form). Closed and robust at the
/// surface as prox_raycast_sphere (retry on the capsule grown by 8 eps
/// S_k, S_k the largest coordinate magnitudes of origin - a and of b - a
/// plus the radius; a miss by more than 16 eps S_k is a miss).
/// out: entry t, t_exit, inside, point, unit outward normal and feature as
/// prox_point_capsule names them: EDGE 0 on the side, VERTEX 0 / VERTEX 1
/// on the cap around a / b. a == b is a sphere; radius 0 a segment.
/// The side or cap feature comes from the axial parameter of the hit
/// point. Where the hit point is on the core segment (radius 0, or a hit
/// within the margin of a thin capsule) the normal is -dir normalised,
/// without its component along the segment on the side. Non-finite input:
/// no hit. Error: as prox_raycast_sphere.
PROX_KERNEL int prox_raycast_capsule(const prox_ray *ray, const prox_capsule *cap,
                                     prox_rayhit *out);
/// Float version of prox_raycast_capsule().
PROX_KERNEL int prox_raycast_capsulef(const prox_rayf *ray, const prox_capsulef *cap,
                                      prox_rayhitf *out);

/// Casts a ray against a triangle; returns 1 on a hit. Watertight.
///
/// Ray space of Woop, Benthin and Wald (2013) with signs made exact (see
/// the top of this file): a ray through a shared edge or vertex of a
/// closed mesh hits exactly one of the triangles around it when it crosses
/// the surface there (two or none when it only touches a silhouette), so
/// hits are never lost and parity counts are right. Both faces are hit. A
/// ray that lies in the triangle's plane, or is parallel to it, does not
/// hit it, and a triangle of zero area is never hit (exactly: the neighbours
/// of such a triangle in a closed mesh catch the ray). The hit must have t
/// in [tmin, tmax]. The sign of t is exact: a ray whose origin lies on
/// the triangle (t = 0 exactly) hits at t = 0, so with tmin = 0 a ray
/// starting on a closed mesh's surface hits exactly one triangle there
/// (the tie rule above), and one starting just behind the surface never
/// hits it; where the rounded t has the wrong sign it is replaced by the
/// smallest subnormal of the exact sign.
///
/// out (may be NULL): t (t_exit = t), point = origin + t dir, bary[0..2]
/// the barycentric coordinates of the hit for v[0], v[1], v[2] (each >= 0,
/// summing to 1 up to rounding), the unit normal (v1 - v0) x (v2 - v0)
/// (`dot(normal, dir) > 0`: hit from behind), feature FACE 0, EDGE i (on
/// the edge v[i] v[(i+1)%3] exactly: bary of the third vertex exactly 0) or
/// VERTEX i. A t beyond the largest finite real is not reported.
/// Non-finite input: no hit. Zero direction: no hit. Error: |t - t_exact|
/// |dir| <= 8 eps S where the angle of incidence has |cos| >= 0.5, for
/// triangles of any shape (asserted against an exact oracle by
/// tests/test_raycast.c, needles included); more on grazing rays. t is the
/// quotient of the ray-space weights, taken again with compensated
/// products where those cancel much (a needle); where the weights are
/// known only within their rounding (a ray through or next to an edge) or
/// their quotient would overflow or underflow, t is the plane's, in
/// double-double (or, at the ends of the range, integer) arithmetic.
PROX_KERNEL int prox_raycast_triangle(const prox_ray *ray, const prox_triangle *tri,
                                      prox_rayhit *out);
/// Float version of prox_raycast_triangle().
PROX_KERNEL int prox_raycast_trianglef(const prox_rayf *ray, const prox_trianglef *tri,
                                       prox_rayhitf *out);

/// Casts a ray against a solid tetrahedron; returns 1 on a hit.
///
/// The line of the ray is cast against the four faces in ray space with
/// exact edge signs and closed faces (Woop et al. 2013, with the boundary
/// included), so it meets the closed solid exactly when it meets one of
/// its faces; the entry and exit are the first and last face parameters.
/// A ray that starts inside hits at tmin (inside = 1, feature INTERIOR,
/// zero normal). A ray whose exit lies within its rounding (8 eps S along
/// the face normal) before tmin counts as starting on the surface.
/// out: t, t_exit, inside, point, outward unit normal of the entry face,
/// bary[] the barycentrics of the entry point in its face (vertices in
/// increasing order), feature FACE i (opposite v[i]), EDGE i or VERTEX i as
/// prox_point_tetrahedron numbers them. A flat tetrahedron (zero volume,
/// decided exactly) is the union of its faces: hit where the ray crosses
/// them, never inside (a ray in their plane does not hit). Where the ray
/// enters or leaves through an edge or vertex, t comes from the
/// best-conditioned face there. Zero direction: the point origin, a hit
/// (inside) when prox_point_tetrahedron puts it at distance 0. Non-finite
/// input: no hit. Error: |t - t_exact| |dir| (and likewise t_exit)
/// <= 8 eps S where the angle of incidence has |cos| >= 0.5 (asserted
/// against an exact oracle by tests/test_raycast.c); more on grazing rays.
PROX_KERNEL int prox_raycast_tetrahedron(const prox_ray *ray, const prox_tetrahedron *tet,
                                         prox_rayhit *out);
/// Float version of prox_raycast_tetrahedron().
PROX_KERNEL int prox_raycast_tetrahedronf(const prox_rayf *ray, const prox_tetrahedronf *tet,
                                          prox_rayhitf *out);

PROX_EXTERN_C_END

#endif /* PROX_RAYCAST_H */
