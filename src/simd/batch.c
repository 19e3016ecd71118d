/* SPDX-License-Identifier: MIT */
/* The batch queries of prox/batch.h: the public functions of both
 * precisions (src/simd/batch_api.inl), which dispatch through the SIMD
 * table (src/simd/dispatch.h), and the module's scalar entry points, loops
 * over the scalar kernels. The vector entry points are in
 * src/simd/batch_avx2.c and src/simd/batch_avx512.c. */
#include "batch_impl.h"

#include <prox/detail/real_double.h>
#include "batch_api.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "batch_api.inl"
#include <prox/detail/real_end.h>

const prox_simd_batch prox_detail_simd_batch_scalar = {
    .built = 1,
    .point_triangles = prox_batch_scalar_point_triangles,
    .point_triangles_soa = prox_batch_scalar_point_triangles_soa,
    .points_triangle = prox_batch_scalar_points_triangle,
    .points_aabb = prox_batch_scalar_points_aabb,
    .point_trianglesf = prox_batch_scalar_point_trianglesf,
    .point_triangles_soaf = prox_batch_scalar_point_triangles_soaf,
    .points_trianglef = prox_batch_scalar_points_trianglef,
    .points_triangles_each = prox_batch_scalar_points_triangles_each,
    .points_triangles_eachf = prox_batch_scalar_points_triangles_eachf,
    .points_aabbf = prox_batch_scalar_points_aabbf,
};
