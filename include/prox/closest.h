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

PROX_EXTERN_C_END

#endif /* PROX_CLOSEST_H */
