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
/// Domain: the casts give their documented answers with finite outputs for
/// coordinates of magnitude between 2^-300 and 2^300 (float: 2^-40 and
/// 2^40) and a direction of length about 1, and up to 2^500 (float 2^60)
/// when the direction has the coordinates' scale; t carries the ratio of
/// the two. tests/test_domain.c checks every cast at those magnitudes.
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

PROX_EXTERN_C_END

#endif /* PROX_RAYCAST_H */
