/* SPDX-License-Identifier: MIT */
/* The compiled ray queries of prox/bvh_ray.h, both precisions, from the
 * template bvh_ray_impl.inl: the traversal of prox/detail/bvh_ray.inl with
 * the vector leaf and node tests of src/mesh/bvh_ray_avx2.c and
 * bvh_ray_avx512.c where prox_simd_level() allows, the portable ones
 * otherwise (the same answers), and the batches. */
#include "mesh_internal.h"

#include <prox/bvh_ray.h>

#include "simd/dispatch.h"
#include "bvh_ray_simd.h"

#include <string.h>

#include <prox/detail/real_double.h>
#include "bvh_ray_impl.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "bvh_ray_impl.inl"
#include <prox/detail/real_end.h>
