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

PROX_EXTERN_C_END

#endif /* PROX_CLOSEST_H */
