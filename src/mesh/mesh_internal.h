/* SPDX-License-Identifier: MIT */
/* Private to the mesh layer (src/mesh/): the tree object, error messages,
 * allocation through the optional user allocator, and the thread helpers.
 * Every function here is hidden (the library's default visibility). */
#ifndef PROX_SRC_MESH_INTERNAL_H
#define PROX_SRC_MESH_INTERNAL_H

#include <prox/bvh.h>

#include <stdarg.h>
#include <stddef.h>

/* The closest-point walk's node test with SSE2 on x86-64 (bvh_query_leaf.inl;
 * define PROX_MESH_PORTABLE for the portable loop, which gives the same
 * values). */
#if defined(__SSE2__) && (defined(__x86_64__) || defined(_M_X64)) && !defined(PROX_MESH_PORTABLE)
#include <emmintrin.h>
#define PBQ_SSE2 1
#endif

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
/* The most threads prox_mesh_detail_parallel runs (more are run as this
 * many). */
#define PROX_MESH_MAX_THREADS 256

/* Batches of fewer points than this keep the caller's order. */
#define PROX_MESH_DETAIL_ORDER_MIN 512

/* A key and a value for prox_mesh_detail_radix (16 bytes). */
typedef struct prox_mesh_detail_kv {
  uint64_t key;
  uint32_t val;
  uint32_t pad;
} prox_mesh_detail_kv;

/* Stable LSD radix sort of a[0, n) by the low `bits` bits of key, 11 at a
 * time; tmp has n entries. The result is in a or tmp: returns which. */
prox_mesh_detail_kv *prox_mesh_detail_radix(prox_mesh_detail_kv *a, prox_mesh_detail_kv *tmp,
                                            size_t n, int bits);

/* The 10 bits of a spread to every third bit. */
static inline uint32_t prox_mesh_detail_spread3(uint32_t a) {
  a &= 0x3ffu;
  a = (a | a << 16) & 0x030000ffu;
  a = (a | a << 8) & 0x0300f00fu;
  a = (a | a << 4) & 0x030c30c3u;
  return (a | a << 2) & 0x09249249u;
}

/* The 30-bit Morton code of the cell (x, y, z), each 0..1023. */
static inline uint32_t prox_mesh_detail_morton(uint32_t x, uint32_t y, uint32_t z) {
  return prox_mesh_detail_spread3(x) << 2 | prox_mesh_detail_spread3(y) << 1 |
         prox_mesh_detail_spread3(z);
}

/* Runs fn(arg, c) once for every c in [0, chunks), handed out to up to
 * `threads` threads in turn (1 or fewer, or one chunk: in the calling
 * thread, in order). */
void prox_mesh_detail_for(int threads, size_t chunks, void (*fn)(void *arg, size_t c), void *arg);

/* The Morton order is made in this many pieces at most (one a thread),
 * and in one below PROX_MESH_DETAIL_ORDER_PAR points. */
#define PROX_MESH_DETAIL_ORDER_PIECES 16
#define PROX_MESH_DETAIL_ORDER_PAR 65536

/* The start of piece c of `pieces` of [0, n) (n <= UINT32_MAX): n c /
 * pieces, rounded down. */
static inline size_t prox_mesh_detail_piece(size_t n, int pieces, size_t c) {
  return (size_t)((uint64_t)n * c / (uint64_t)pieces);
}

/* The sort of prox_mesh_detail_order: kv[0, n) holds each point's Morton
 * code << 32 | its index, and hist[c][c'] (pieces x 1024) how many codes
 * of piece c of kv have the low digit c' (bits 0 .. 9 of the code). A
 * stable LSD radix sort by the code, 10 bits a pass through kv[n, 2 n),
 * each pass's pieces scattered in `threads` threads at places their
 * histograms give (so the same order for any count), leaves the n indices
 * in order as uint32_t at the start of kv, and returns them. hist is
 * overwritten. */
uint32_t *prox_mesh_detail_order_sort(uint64_t *kv, size_t n, int pieces, int threads,
                                      uint32_t (*hist)[1024]);

/* A coherent order for a batch of n points: n indices, allocated through
 * alloc (NULL: the C library) as a block of 2 n uint64_t, sorted by the
 * Morton code of each point's cell (1024 cells per axis
 * over the box of the finite points; a non-finite coordinate takes the
 * first or last cell), ties by index. Returns NULL, and the caller keeps
 * its own order, when n < PROX_MESH_DETAIL_ORDER_MIN, n > UINT32_MAX or
 * the allocation fails. Made in `threads` threads (the same order for any
 * count). Free with prox_mesh_detail_order_free(). */
const uint32_t *prox_mesh_detail_order(const prox_allocator *alloc, const prox_vec3 *points,
                                       size_t n, int threads);
const uint32_t *prox_mesh_detail_orderf(const prox_allocator *alloc, const prox_vec3f *points,
                                        size_t n, int threads);
/* Releases an order of n points (NULL: nothing). */
void prox_mesh_detail_order_free(const prox_allocator *alloc, const uint32_t *order, size_t n);

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
