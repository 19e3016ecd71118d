/* SPDX-License-Identifier: MIT */
/// @file overlap.h
/// @brief Overlap tests for bounding volumes and broad phases: AABB-AABB,
/// OBB-OBB, triangle-AABB, sphere-triangle and triangle-triangle, in double
/// and float (suffix f).
///
/// Every test is of closed sets (touching counts) and returns 1 or 0. The
/// box and sphere tests are conservative: sets that touch are never
/// reported apart, sets apart by less than a few eps times the coordinates'
/// magnitude may be reported as overlapping. The triangle-triangle test is
/// exact. No test allocates; all are thread-safe and usable in CUDA device
/// code.
///
/// Domain: that of closest.h (nonzero magnitudes between 2^-500 and 2^500,
/// float 2^+-60, within 2^500, float 2^60, of one another; no subnormal
/// input); for the exact triangle-triangle test in double, nonzero
/// magnitudes between 2^-300 and 2^300 and within 2^300 of one another
/// (products of three coordinates then stay clear of underflow, where the
/// expansion arithmetic would lose its exactness; float input always).
/// tests/test_property.c checks every test across its domain.
#ifndef PROX_OVERLAP_H
#define PROX_OVERLAP_H

#include "closest.h"

PROX_EXTERN_C_BEGIN

#include "detail/real_double.h"
#include "detail/overlap.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/overlap.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_OVERLAP_H */
