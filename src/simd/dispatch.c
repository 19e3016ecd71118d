/* SPDX-License-Identifier: MIT */
/* The SIMD level of the library (src/simd/dispatch.h): what the CPU runs,
 * the cap of the environment variable PROX_SIMD, the tables of the levels
 * and the public prox_simd_level(), prox_simd_set(), prox_simd_name() of
 * prox/batch.h. */
#include "dispatch.h"

#include "batch_impl.h"
#include "packet_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define PROX_SIMD_X86 1
#endif

/* The entry points of every module, one table per level (prox_simd
 * value as index). */
static const prox_simd_table prox_simd_tables[3] = {
    {PROX_SIMD_SCALAR, &prox_detail_simd_batch_scalar, &prox_detail_simd_packet_scalar},
    {PROX_SIMD_AVX2, &prox_detail_simd_batch_avx2, &prox_detail_simd_packet_avx2},
    {PROX_SIMD_AVX512, &prox_detail_simd_batch_avx512, &prox_detail_simd_packet_avx512},
};

/* Whether every module was compiled with the instruction set of t. */
static int prox_simd_built(const prox_simd_table *t) {
  return t->batch->built && t->packet->built;
}

#if defined(PROX_SIMD_X86)
/* The state components the operating system saves (XCR0): the vector
 * registers are usable only if it saves them across context switches. */
static unsigned long long prox_simd_xcr0(void) {
  unsigned lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}
#endif

/* The best level this CPU and operating system run, asked of the CPU. */
static int prox_simd_cpu_detect(void) {
#if defined(PROX_SIMD_X86)
  unsigned a, b, c, d;
  unsigned long long xcr0;
  /* Leaf 1, ecx: FMA (bit 12), OSXSAVE (27), AVX (28). */
  if (!__get_cpuid(1, &a, &b, &c, &d)) return PROX_SIMD_SCALAR;
  if (!(c & (1u << 12)) || !(c & (1u << 27)) || !(c & (1u << 28))) return PROX_SIMD_SCALAR;
  /* XCR0: SSE and AVX state (bits 1, 2). */
  xcr0 = prox_simd_xcr0();
  if ((xcr0 & 0x6) != 0x6) return PROX_SIMD_SCALAR;
  /* Leaf 7, ebx: AVX2 (bit 5), AVX-512 F (16), DQ (17), VL (31). */
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return PROX_SIMD_SCALAR;
  if (!(b & (1u << 5))) return PROX_SIMD_SCALAR;
  /* AVX-512 also needs the opmask and upper ZMM state (XCR0 bits 5-7). */
  if ((b & (1u << 16)) && (b & (1u << 17)) && (b & (1u << 31)) && (xcr0 & 0xe0) == 0xe0)
    return PROX_SIMD_AVX512;
  return PROX_SIMD_AVX2;
#else
  return PROX_SIMD_SCALAR;
#endif
}

/* The same, asked once per process: cpuid is slow under a hypervisor (it
 * exits to it), and prox_simd_set() is called in loops (the tests set
 * every level for every query). Threads that race both store the same
 * value. */
#if !defined(__STDC_NO_ATOMICS__)
static atomic_int prox_simd_cpu_level = -1;
#else
static int prox_simd_cpu_level = -1;
#endif

static int prox_simd_cpu(void) {
#if !defined(__STDC_NO_ATOMICS__)
  int level = atomic_load_explicit(&prox_simd_cpu_level, memory_order_relaxed);
  if (level < 0) {
    level = prox_simd_cpu_detect();
    atomic_store_explicit(&prox_simd_cpu_level, level, memory_order_relaxed);
  }
#else
  int level = prox_simd_cpu_level;
  if (level < 0) prox_simd_cpu_level = level = prox_simd_cpu_detect();
#endif
  return level;
}

/* Whether this CPU and this build run a level. */
static int prox_simd_supported(int level) {
  if (level < PROX_SIMD_SCALAR || level > PROX_SIMD_AVX512) return 0;
  return level <= prox_simd_cpu() && prox_simd_built(&prox_simd_tables[level]);
}

/* Says something about PROX_SIMD on stderr, once per process: threads
 * that race to choose the level all find the same problem, and only the
 * first to get here prints it. */
#if !defined(__STDC_NO_ATOMICS__)
static atomic_flag prox_simd_warned = ATOMIC_FLAG_INIT;
#define PROX_SIMD_FIRST_WARNING() (!atomic_flag_test_and_set(&prox_simd_warned))
#else
static int prox_simd_warned;
#define PROX_SIMD_FIRST_WARNING() (prox_simd_warned ? 0 : (prox_simd_warned = 1))
#endif

/* The level of the first query: the best one supported, capped by the
 * environment variable PROX_SIMD if that is set (and not empty). An unknown
 * value, or a level this CPU or build lacks, is said on stderr. */
static int prox_simd_initial(void) {
  const char *env = getenv("PROX_SIMD");
  int best = PROX_SIMD_AVX512, asked = -1, level;
  while (best > PROX_SIMD_SCALAR && !prox_simd_supported(best))
    --best;
  if (!env || !*env) return best;
  for (level = PROX_SIMD_SCALAR; level <= PROX_SIMD_AVX512; ++level)
    if (strcmp(env, prox_simd_name(level)) == 0) asked = level;
  if (asked < 0) {
    if (PROX_SIMD_FIRST_WARNING())
      fprintf(stderr,
              "prox: PROX_SIMD=%s is not one of scalar, avx2, avx512; "
              "using %s\n",
              env, prox_simd_name(best));
    return best;
  }
  if (asked > best) {
    if (PROX_SIMD_FIRST_WARNING())
      fprintf(stderr,
              "prox: PROX_SIMD=%s is not supported by this CPU or build; "
              "using %s\n",
              env, prox_simd_name(best));
    return best;
  }
  return asked;
}

#if !defined(__STDC_NO_ATOMICS__)
_Atomic(const prox_simd_table *) prox_detail_simd_active = NULL;
#else
const prox_simd_table *prox_detail_simd_active = NULL;
#endif

const prox_simd_table *prox_detail_simd_choose(void) {
  const prox_simd_table *t = &prox_simd_tables[prox_simd_initial()];
#if !defined(__STDC_NO_ATOMICS__)
  /* Unless another thread has chosen, or prox_simd_set() has set, a level
   * meanwhile: that one stays. */
  const prox_simd_table *none = NULL;
  if (!atomic_compare_exchange_strong_explicit(&prox_detail_simd_active, &none, t,
                                               memory_order_relaxed, memory_order_relaxed))
    t = none;
#else
  if (prox_detail_simd_active)
    t = prox_detail_simd_active;
  else
    prox_detail_simd_active = t;
#endif
  return t;
}

int prox_simd_level(void) {
  return prox_simd_table_get()->level;
}

int prox_simd_set(int level) {
  if (!prox_simd_supported(level)) return 0;
#if !defined(__STDC_NO_ATOMICS__)
  atomic_store_explicit(&prox_detail_simd_active, &prox_simd_tables[level], memory_order_relaxed);
#else
  prox_detail_simd_active = &prox_simd_tables[level];
#endif
  return 1;
}

const char *prox_simd_name(int level) {
  switch (level) {
  case PROX_SIMD_SCALAR:
    return "scalar";
  case PROX_SIMD_AVX2:
    return "avx2";
  case PROX_SIMD_AVX512:
    return "avx512";
  default:
    return "?";
  }
}
