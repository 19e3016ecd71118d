/* SPDX-License-Identifier: MIT */
/* The distance-only box kernels compiled with PROX_NO_SSE (the portable
 * code), for test_sse to compare with the SSE paths (portable_kernels.c).
 * The kernels are PROX_SMALL_KERNEL, always inlined under GCC and clang, so
 * these wrappers run the portable bodies, not the library's symbols. */
#ifndef PROX_TEST_PORTABLE_KERNELS_H
#define PROX_TEST_PORTABLE_KERNELS_H

#include <prox/prox.h>

double port_point_aabb(prox_vec3 p, const prox_aabb *box);
float port_point_aabbf(prox_vec3f p, const prox_aabbf *box);
double port_point_obb(prox_vec3 p, const prox_obb *box);
float port_point_obbf(prox_vec3f p, const prox_obbf *box);
/* 1 when this file's kernels were compiled without the SSE paths. */
int port_is_portable(void);

#endif
