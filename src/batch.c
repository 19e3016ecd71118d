/* SPDX-License-Identifier: MIT */
/* The batch queries of prox/batch.h: the choice of instruction set at run
 * time, and the public functions of both precisions (src/batch_api.inl),
 * which fall back to loops over the scalar kernels. The vector kernels are
 * in src/batch_avx2.c and src/batch_avx512.c. */
#include "batch_impl.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#if defined(__GNUC__) || defined(__clang__)
#define PROX_BATCH_CPUID 1
#endif
#endif

/* Whether this CPU and this build can run an instruction set. */
static int prox_simd_supported(int level) {
  switch (level) {
  case PROX_SIMD_SCALAR:
    return 1;
#if defined(PROX_BATCH_CPUID)
  case PROX_SIMD_AVX2:
    return prox_batch_ops_avx2() != NULL && __builtin_cpu_supports("avx2") &&
           __builtin_cpu_supports("fma");
  case PROX_SIMD_AVX512:
    return prox_batch_ops_avx512() != NULL &&
           __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  default:
    return 0;
  }
}

/* The level at the first call: the best supported one, at most PROX_SIMD. */
static int prox_simd_initial(void) {
  const char *env = getenv("PROX_SIMD");
  int level = PROX_SIMD_AVX512;
  if (env && strcmp(env, "scalar") == 0) level = PROX_SIMD_SCALAR;
  if (env && strcmp(env, "avx2") == 0) level = PROX_SIMD_AVX2;
  while (level > PROX_SIMD_SCALAR && !prox_simd_supported(level))
    --level;
  return level;
}

/* The active level, -1 until the first query chooses it (declared, with
 * PROX_SIMD_LOAD and PROX_SIMD_STORE, in src/batch_impl.h). */
#if !defined(__STDC_NO_ATOMICS__)
_Atomic int prox_detail_simd_active = -1;
#else
int prox_detail_simd_active = -1;
#endif

int prox_simd_level(void) {
  int level = PROX_SIMD_LOAD();
  if (level < 0) {
    /* Every thread computes the same value, so a plain store suffices. */
    level = prox_simd_initial();
    PROX_SIMD_STORE(level);
  }
  return level;
}

int prox_simd_set(int level) {
  if (!prox_simd_supported(level)) return 0;
  PROX_SIMD_STORE(level);
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

static const prox_batch_ops *prox_batch_ops_active(void) {
  switch (prox_simd_level()) {
  case PROX_SIMD_AVX2:
    return prox_batch_ops_avx2();
  case PROX_SIMD_AVX512:
    return prox_batch_ops_avx512();
  default:
    return NULL;
  }
}

#include <prox/detail/real_double.h>
#include "batch_api.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "batch_api.inl"
#include <prox/detail/real_end.h>
