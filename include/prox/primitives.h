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

PROX_EXTERN_C_END

#endif /* PROX_PRIMITIVES_H */
