/* SPDX-License-Identifier: MIT */
/// @file primitives.h
/// @brief Primitive shapes (plane, line, ray, segment, triangle, rectangle,
/// AABB, OBB, sphere, capsule, tetrahedron) in double and float.
#ifndef PROX_PRIMITIVES_H
#define PROX_PRIMITIVES_H

#include "vec.h"

PROX_EXTERN_C_BEGIN

/// Tolerance of prox_obb_is_valid and prox_rectangle_is_valid, in units of
/// the precision's eps: axes count as orthonormal when every
/// |axis[i] . axis[j] - (i == j)| is at most this many eps.
#define PROX_AXES_TOL 64

#include "detail/real_double.h"
#include "detail/primitives.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/primitives.inl"
#include "detail/real_end.h"

/* The documented kernels, literally named (the templates included above
 * hold their definitions, once for both precisions). */

/// Makes the plane dot(n, x) = offset scaled to a unit normal (the offset
/// is divided by |n| too). Returns 1, or 0 when n is zero or not finite, or
/// the scaled offset overflows (a tiny n with a large offset); then
/// *out is the plane of normal (0, 0, 0) and offset 0, which every query
/// treats as containing every point (distance 0). out must not be NULL.
PROX_KERNEL int prox_plane_from_normal(prox_vec3 n, double offset, prox_plane *out);
/// Float version of prox_plane_from_normal().
PROX_KERNEL int prox_plane_from_normalf(prox_vec3f n, float offset, prox_planef *out);

/// Makes the plane through point p with normal n, scaled to a unit normal.
/// Returns 1, or 0 when n is zero or p or n is not finite (then *out is the
/// all-zero plane, as prox_plane_from_normal documents).
PROX_KERNEL int prox_plane_from_point_normal(prox_vec3 p, prox_vec3 n, prox_plane *out);
/// Float version of prox_plane_from_point_normal().
PROX_KERNEL int prox_plane_from_point_normalf(prox_vec3f p, prox_vec3f n, prox_planef *out);

/// Whether a plane is one that every query reads alike: the normal finite
/// and not zero (any length: queries rescale it), the offset finite. The
/// all-zero plane that the constructors leave on failure is not valid (the
/// queries take it as containing every point). 1 or 0.
PROX_KERNEL int prox_plane_is_valid(const prox_plane *plane);
/// Float version of prox_plane_is_valid().
PROX_KERNEL int prox_plane_is_validf(const prox_planef *plane);

/// Whether an axis-aligned box is one that every query reads alike: every
/// corner coordinate finite and min <= max on every axis (zero size
/// allowed). 1 or 0.
PROX_KERNEL int prox_aabb_is_valid(const prox_aabb *box);
/// Float version of prox_aabb_is_valid().
PROX_KERNEL int prox_aabb_is_validf(const prox_aabbf *box);

/// Whether an oriented box is one that every query reads alike (see
/// prox_obb): center, axes and half extents finite, and the axes
/// orthonormal, |axis[i] . axis[j] - (i == j)| <= PROX_AXES_TOL eps for all
/// i, j (eps = 2^-52, float 2^-23: rotation matrices built in the working
/// precision pass). Zero and negative half extents are allowed. 1 or 0.
PROX_KERNEL int prox_obb_is_valid(const prox_obb *box);
/// Float version of prox_obb_is_valid().
PROX_KERNEL int prox_obb_is_validf(const prox_obbf *box);

/// Whether a rectangle is one that prox_point_rectangle reads as the
/// rectangle its fields describe: center, axes and half extents finite, the
/// two axes orthonormal within PROX_AXES_TOL eps (as prox_obb_is_valid).
/// 1 or 0.
PROX_KERNEL int prox_rectangle_is_valid(const prox_rectangle *rect);
/// Float version of prox_rectangle_is_valid().
PROX_KERNEL int prox_rectangle_is_validf(const prox_rectanglef *rect);

/// The ray from origin along dir with the default interval [0, +inf].
PROX_KERNEL prox_ray prox_ray_make(prox_vec3 origin, prox_vec3 dir);
/// Float version of prox_ray_make().
PROX_KERNEL prox_rayf prox_ray_makef(prox_vec3f origin, prox_vec3f dir);

PROX_EXTERN_C_END

#endif /* PROX_PRIMITIVES_H */
