/* SPDX-License-Identifier: MIT */
/* The compiled queries over a BVH (prox/bvh.h), both precisions, from the
 * template bvh_query_impl.inl. */
#include "mesh_internal.h"

#include <prox/batch.h>

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif

/* The node test with SSE2 on x86-64 (define PROX_MESH_PORTABLE for the
 * portable loop, which gives the same values). */
#if defined(__SSE2__) && (defined(__x86_64__) || defined(_M_X64)) && !defined(PROX_MESH_PORTABLE)
#include <emmintrin.h>
#define PBQ_SSE2 1
#endif

#include <prox/detail/real_double.h>
#include "bvh_query_impl.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "bvh_query_impl.inl"
#include <prox/detail/real_end.h>
