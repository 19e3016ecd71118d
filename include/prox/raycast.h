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
/// configurations across them.
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
