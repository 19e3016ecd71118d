/* SPDX-License-Identifier: MIT */
/* The compiled queries over a BVH (prox/bvh.h), both precisions, from the
 * template bvh_query_impl.inl. */
#include "mesh_internal.h"
#include "simd/batch_impl.h"
#include "simd/dispatch.h"

#include <prox/batch.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <prox/detail/real_double.h>
#include "bvh_query_impl.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "bvh_query_impl.inl"
#include <prox/detail/real_end.h>
