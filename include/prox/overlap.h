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

/* The documented kernels, literally named (the templates included above
 * hold their definitions, once for both precisions). */

/// Whether two closed axis-aligned boxes overlap (touching counts): 1 or 0.
///
/// Exact (comparisons only). min > max on an axis is the same as swapped.
/// Infinite bounds are allowed and mean what they say (a box with max.x =
/// +inf extends without end along +x; min -inf, max +inf on every axis is
/// all of space). A NaN anywhere gives 0.
PROX_KERNEL int prox_overlap_aabb_aabb(const prox_aabb *a, const prox_aabb *b);
/// Float version of prox_overlap_aabb_aabb().
PROX_KERNEL int prox_overlap_aabb_aabbf(const prox_aabbf *a, const prox_aabbf *b);

/// Whether two closed oriented boxes overlap: 1 or 0.
///
/// Separating axes (Gottschalk et al. 1996; Ericson 4.4.1): the three face
/// normals of each box and the nine cross products of their axes. The axes
/// are taken as orthonormal (prox_obb_is_valid; see prox_obb). To keep
/// nearly parallel edges from producing a false separation along their
/// (nearly zero) cross product, the absolute rotation terms get
/// PROX_OBB_EPS = 64 eps added, as is standard; and each comparison is
/// conservative (see prox_detail_ov_sat_apart). So boxes that touch or overlap
/// are never reported apart; boxes apart by less than about 1e-13 (double)
/// or 1e-5 (float) relative to their size and distance may be reported as
/// overlapping. Negative half extents count as their absolute value.
/// Non-finite input (NaN or +-inf in any coordinate, axis or half extent)
/// gives 0.
PROX_KERNEL int prox_overlap_obb_obb(const prox_obb *a, const prox_obb *b);
/// Float version of prox_overlap_obb_obb().
PROX_KERNEL int prox_overlap_obb_obbf(const prox_obbf *a, const prox_obbf *b);

/// Whether a closed triangle and a closed axis-aligned box overlap: 1 or 0.
///
/// Separating axes of Akenine-Moller (2001): the box's three face normals,
/// the triangle's normal and the nine cross products of the triangle's
/// edges with the coordinate axes, after moving the box center to the
/// origin. Conservative: an axis separates only beyond a bound of the
/// rounding (16 eps times the magnitudes involved, including the box's
/// center), so a triangle that touches the box is never reported apart;
/// one apart by less than that may be reported as overlapping. A
/// degenerate triangle (segment, point) works. min > max on an axis is the
/// same as swapped. Non-finite input (NaN or +-inf in any coordinate, an
/// infinite box bound included) gives 0.
PROX_KERNEL int prox_overlap_triangle_aabb(const prox_triangle *tri, const prox_aabb *box);
/// Float version of prox_overlap_triangle_aabb().
PROX_KERNEL int prox_overlap_triangle_aabbf(const prox_trianglef *tri, const prox_aabbf *box);

/// Whether a closed ball and a closed triangle overlap: 1 or 0.
///
/// The distance from the center to the triangle (prox_point_triangle, on
/// coordinates relative to the center, which keeps the rounding relative to
/// the local size) against the radius, conservative: overlap when the
/// squared distance is at most r^2 + 16 eps (S^2 + r^2), S the largest
/// magnitude of a vertex relative to the center. A ball that touches the
/// triangle is never reported apart. Degenerate triangles work (union of
/// their edges). Negative radius counts as its absolute value. Non-finite
/// input (NaN or +-inf in a coordinate or the radius; an infinite radius
/// is not a half-space or all of space) gives 0.
PROX_KERNEL int prox_overlap_sphere_triangle(const prox_sphere *sph, const prox_triangle *tri);
/// Float version of prox_overlap_sphere_triangle().
PROX_KERNEL int prox_overlap_sphere_trianglef(const prox_spheref *sph, const prox_trianglef *tri);

/// Whether two closed triangles overlap (share at least one point): 1 or 0.
///
/// Exact: every decision is the sign of an orientation determinant
/// (orient3d of four points, orient2d of projections for coplanar input),
/// evaluated with a floating-point filter and, where the filter cannot
/// decide (touching, coplanar, nearly degenerate input), exactly. The
/// triangles meet when an edge of one meets the other (closed segment
/// against closed triangle by orientation signs; coplanar in a 2D
/// projection). Triangles of zero area are the union of their edges,
/// points included. Exact in overlap.h's domain: float input always; in
/// double, nonzero magnitudes between 2^-300 and 2^300 and within 2^300 of
/// one another, where the exact predicates (scaled by a power of two to a
/// largest magnitude near 1, prox_detail_wnormalize) form products of three
/// coordinates and their rounding errors above the subnormal range. With a
/// wider spread such products underflow and a touching pair can be
/// reported apart (tests/test_property.c found it at 2^337). Non-finite
/// input (NaN or +-inf in any coordinate) gives 0.
PROX_KERNEL int prox_overlap_triangle_triangle(const prox_triangle *a, const prox_triangle *b);
/// Float version of prox_overlap_triangle_triangle().
PROX_KERNEL int prox_overlap_triangle_trianglef(const prox_trianglef *a, const prox_trianglef *b);

PROX_EXTERN_C_END

#endif /* PROX_OVERLAP_H */
