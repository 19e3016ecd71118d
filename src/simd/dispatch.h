/* SPDX-License-Identifier: MIT */
/* The one SIMD dispatch of the library, private to it: which instruction
 * set the vectorised modules (batch queries, packet ray casts, and the
 * mesh layer's traversal to come) run, chosen once for all of them.
 *
 * Levels. PROX_SIMD_SCALAR (portable C), PROX_SIMD_AVX2 (AVX2 + FMA) and
 * PROX_SIMD_AVX512 (AVX-512 F/DQ/VL), the prox_simd enum of prox/batch.h.
 * src/simd/dispatch.c detects what the CPU and the operating system
 * support (cpuid and xgetbv), applies the cap of the environment variable
 * PROX_SIMD at the first query, and prox_simd_set() changes the level
 * afterwards, for every module at once.
 *
 * Tables. Each level has one prox_simd_table (src/simd/dispatch.c): for
 * each module, a pointer to that module's table of entry points at this
 * level. The active table is one atomic pointer, read by
 * prox_simd_table_get(): an entry point dispatches with
 *
 *   return prox_simd_table_get()->packet->aabb8(r, b, tnear);
 *
 * Registering a module (for instance the BVH traversal of src/mesh/):
 *  1. declare its table type in a private header of the module, first
 *     member `int built` (1 when the file that fills it was compiled with
 *     its instruction set), then one function pointer per entry point and
 *     precision (see src/simd/batch_impl.h, struct prox_simd_batch);
 *  2. fill one table per level, each in the translation unit of that
 *     instruction set: <name>.c the scalar one, <name>_avx2.c and
 *     <name>_avx512.c the vector ones (CMake gives files named *_avx2.c and
 *     *_avx512.c their -m flags), each defining
 *     `PROX_DETAIL_HIDDEN const struct prox_simd_<module>
 *     prox_detail_simd_<module>_<level>` (all-zero, built = 0, when the
 *     compiler did not target the instruction set);
 *  3. add a member `const struct prox_simd_<module> *<module>` to
 *     prox_simd_table below and its three tables to prox_simd_tables[] and
 *     to prox_simd_built() in src/simd/dispatch.c.
 * A level is offered only when every module has it built and the CPU runs
 * it, so an entry point never finds a NULL pointer in the active table.
 * The vector code must give the scalar code's answers, bit for bit; the
 * tests force each level in turn with prox_simd_set() (tests/test_batch.c,
 * tests/test_packet.c). */
#ifndef PROX_SRC_SIMD_DISPATCH_H
#define PROX_SRC_SIMD_DISPATCH_H

#include <prox/batch.h>

/* Internal symbols shared between the library's translation units: not
 * exported, and read directly rather than through the global offset
 * table. */
#if defined(__GNUC__) || defined(__clang__)
#define PROX_DETAIL_HIDDEN __attribute__((visibility("hidden")))
#define PROX_SIMD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PROX_DETAIL_HIDDEN
#define PROX_SIMD_UNLIKELY(x) (x)
#endif

struct prox_simd_batch;  /* src/simd/batch_impl.h */
struct prox_simd_packet; /* src/simd/packet_impl.h */

/* The entry points of every module at one level. */
typedef struct prox_simd_table {
  int level; /* a prox_simd */
  const struct prox_simd_batch *batch;
  const struct prox_simd_packet *packet;
} prox_simd_table;

/* The active table: NULL until the first query chooses it (then
 * prox_detail_simd_choose() does). Atomic, so that threads racing to
 * choose it, or a prox_simd_set() during queries, are not data races;
 * read with relaxed order (the tables are constants). */
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
extern PROX_DETAIL_HIDDEN _Atomic(const prox_simd_table *) prox_detail_simd_active;
#define PROX_SIMD_ACTIVE_LOAD() atomic_load_explicit(&prox_detail_simd_active, memory_order_relaxed)
#else
extern PROX_DETAIL_HIDDEN const prox_simd_table *prox_detail_simd_active;
#define PROX_SIMD_ACTIVE_LOAD() (prox_detail_simd_active)
#endif

/* Chooses the level (the best one supported, capped by PROX_SIMD), makes
 * it active unless a level is active already, and returns the active
 * table. Called once, by the first query. */
PROX_DETAIL_HIDDEN const prox_simd_table *prox_detail_simd_choose(void);

/* The active table, chosen at the first call. Inline and without a call in
 * the common case, so that an entry point is a load and a jump. */
static inline const prox_simd_table *prox_simd_table_get(void) {
  const prox_simd_table *t = PROX_SIMD_ACTIVE_LOAD();
  if (PROX_SIMD_UNLIKELY(t == NULL)) t = prox_detail_simd_choose();
  return t;
}

#endif /* PROX_SRC_SIMD_DISPATCH_H */
