/* SPDX-License-Identifier: MIT */
/* The BVH builder, refit and statistics (prox/bvh.h), both precisions, from
 * the template bvh_build.inl. */
#include "mesh_internal.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif

/* Depth (binary levels) below which splits follow the SAH; deeper ones
 * split at the middle index, so the depth stays below PROX_BVH_MAX_DEPTH
 * (64 + 32 levels for 2^32 triangles). */
#define PB_SAH_DEPTH 62
/* The SAH's costs: a node visit against one triangle of a SIMD leaf. */
#define PB_COST_TRAV PROX_R(1.0)
#define PB_COST_TRI PROX_R(0.15)

_Static_assert(sizeof(prox_bvh_node) == 128, "prox_bvh_node is 128 bytes");

prox_bvh_options prox_bvh_options_default(void) {
  prox_bvh_options o;
  o.threads = 0;
  o.leaf_size = 8;
  return o;
}

#include <prox/detail/real_double.h>
#include "bvh_build.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "bvh_build.inl"
#include <prox/detail/real_end.h>
