/* SPDX-License-Identifier: MIT */
/// @file bvh_ray.h
/// @brief Ray queries on a BVH (M3, M4): first hit, any hit (occlusion),
/// the number of crossings with their signed sum, and all hits in order,
/// with batch forms; in double (prox_bvh) and float (prox_bvhf, suffix f).
///
/// A ray is a prox_ray (prox/primitives.h): origin, direction (any
/// nonzero length; t is in units of it) and the interval [tmin, tmax]
/// (prox_ray_make gives [0, +inf]; tmax < tmin is read as the single
/// parameter tmin). Every answer is that of prox_raycast_triangle()
/// (prox/raycast.h) on the mesh's own triangles: a triangle is hit exactly
/// when that kernel hits it, with its t. The kernel is watertight with an
/// exact tie rule (a symbolic perturbation of the origin, the same for
/// every triangle), so:
/// - a ray through a shared edge or vertex of a closed mesh where it
///   crosses the surface hits exactly one of the triangles there, and zero
///   or two where it only touches the surface (a silhouette): each crossing
///   is counted once, and the count's parity over [0, +inf] is the inside
///   status of an origin not on a closed mesh;
/// - a ray lying in a triangle's plane never hits that triangle, nor does
///   any ray a triangle of zero area (its neighbours in a closed mesh
///   catch the ray).
/// The traversal is conservative (Ize 2013; see prox/detail/bvh_ray.inl):
/// no box that the ray meets within its interval is skipped, so no hit is
/// lost in the tree. Non-finite rays and zero directions hit nothing.
///
/// Threads: queries never allocate and may run concurrently on one tree.
/// The compiled forms evaluate leaves and nodes with AVX2 or AVX-512
/// where prox_simd_level() (prox/batch.h) allows, with the same answers
/// at every level. prox_bvh_view_raycast() and its siblings (in
/// detail/bvh_ray.inl) are the header-only, allocation-free forms with a
/// fixed stack, callable from CUDA device code on a view of the arrays.
#ifndef PROX_BVH_RAY_H
#define PROX_BVH_RAY_H

#include "bvh.h"
#include "raycast.h"

PROX_EXTERN_C_BEGIN

#include "detail/real_double.h"
#include "detail/bvh_ray.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/bvh_ray.inl"
#include "detail/real_end.h"

#include "detail/real_double.h"
#include "detail/bvh_ray_api.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/bvh_ray_api.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_BVH_RAY_H */
