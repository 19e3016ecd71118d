/* SPDX-License-Identifier: MIT */
/* Private to the mesh layer (src/mesh/): the tree object, error messages,
 * allocation through the optional user allocator, and the thread helpers.
 * Every function here is hidden (the library's default visibility). */
#ifndef PROX_SRC_MESH_INTERNAL_H
#define PROX_SRC_MESH_INTERNAL_H

#include <prox/bvh.h>

#include <stdarg.h>
#include <stddef.h>

/* Fills *err (may be NULL) and returns status. */
prox_status prox_mesh_detail_error(prox_error *err, prox_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* err := ok. */
void prox_mesh_detail_ok(prox_error *err);

/* Allocation through a user allocator or the C library (alloc NULL):
 * size bytes aligned to 64, NULL on failure or overflow; size 0 allocates
 * one byte's worth. */
void *prox_mesh_detail_alloc(const prox_allocator *alloc, size_t size);
void prox_mesh_detail_free(const prox_allocator *alloc, void *ptr, size_t size);

/* n * size, or SIZE_MAX when that overflows (which no allocation gets). */
size_t prox_mesh_detail_mul(size_t n, size_t size);

/* The number of cores (at least 1). */
int prox_mesh_detail_cores(void);

/* Runs fn(arg) in `threads` threads at once, one of them the calling
 * thread, and returns when all have returned. A thread that cannot be
 * started is skipped, so fn must share its work dynamically (a shared
 * counter) and not depend on how many threads run it. */
void prox_mesh_detail_parallel(int threads, void (*fn)(void *arg), void *arg);

#define PROX_MESH_DETAIL_TREE(R, S)                                                                \
  struct prox_bvh##S {                                                                             \
    prox_allocator alloc; /* a copy of the user's, or all NULL */                                  \
    int has_alloc;                                                                                 \
    prox_bvh_node *nodes;                                                                          \
    size_t node_count;                                                                             \
    R *tri; /* 9 tri_count reals in leaf blocks (bvh_layout.h) */                                  \
    uint32_t *ids;                                                                                 \
    size_t tri_count;                                                                              \
    size_t leaves;                                                                                 \
    int depth;                                                                                     \
    prox_bvh_view##S view;                                                                         \
  }
PROX_MESH_DETAIL_TREE(double, );
PROX_MESH_DETAIL_TREE(float, f);

#endif /* PROX_SRC_MESH_INTERNAL_H */
