/* SPDX-License-Identifier: MIT */
/* splitmix64: a small, seedable generator for the benchmarks'
 * inputs (bench_mesh.c, bench_mesh_ray.c, sign_oracle.h). The tests draw
 * theirs from tests/rng.h. */
#ifndef PROX_BENCH_SPLITMIX_H
#define PROX_BENCH_SPLITMIX_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_unit(uint64_t *s) {
  return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [-1, 1). */
static inline double rng_sym(uint64_t *s) {
  return 2 * rng_unit(s) - 1;
}

#endif /* PROX_BENCH_SPLITMIX_H */
