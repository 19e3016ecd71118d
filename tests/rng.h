/* SPDX-License-Identifier: MIT */
/* rng.h: the one random generator of the tests, xoshiro256** (Blackman and
 * Vigna) seeded through splitmix64, with its uniform reals, integers, signs,
 * directions and rotations. Every test that draws random inputs uses it;
 * a test's sequence depends only on the seeds it passes to oracle_rng_make.
 * Header only (static inline), no GMP; oracle.h includes it. */
#ifndef PROX_TEST_RNG_H
#define PROX_TEST_RNG_H

#include <math.h>
#include <stdint.h>

/* xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
typedef struct oracle_rng {
  uint64_t s[4];
} oracle_rng;

/* One step of splitmix64 on *x. */
static inline uint64_t oracle_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A generator whose sequence depends only on seed. */
static inline oracle_rng oracle_rng_make(uint64_t seed) {
  oracle_rng g;
  int i;
  for (i = 0; i < 4; ++i)
    g.s[i] = oracle_splitmix64(&seed);
  return g;
}

static inline uint64_t oracle_rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

/* FNV-1a (64 bits) of the string s: a number from a name. */
static inline uint64_t oracle_fnv1a(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; ++s) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  }
  return h;
}

/* A generator for the thing called name (a kernel, a test) within a test
 * seeded with seed: its sequence depends on the two only, not on what
 * else the test draws, so that adding a kernel to a list does not change
 * the inputs of the others. */
static inline oracle_rng oracle_rng_named(uint64_t seed, const char *name) {
  return oracle_rng_make(seed ^ oracle_fnv1a(name));
}

/* The next 64 random bits. */
static inline uint64_t oracle_rng_next(oracle_rng *g) {
  uint64_t *s = g->s;
  uint64_t r = oracle_rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = oracle_rotl(s[3], 45);
  return r;
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double oracle_rng_unit(oracle_rng *g) {
  return (double)(oracle_rng_next(g) >> 11) * 0x1p-53;
}

/* Uniform in [lo, hi). */
static inline double oracle_rng_range(oracle_rng *g, double lo, double hi) {
  return lo + (hi - lo) * oracle_rng_unit(g);
}

/* Uniform integer in [0, n), n > 0. */
static inline int oracle_rng_int(oracle_rng *g, int n) {
  return (int)((oracle_rng_next(g) >> 33) % (uint64_t)n);
}

/* 10^x with x uniform in [lo, hi): log-uniform magnitudes. */
static inline double oracle_rng_log10(oracle_rng *g, double lo, double hi) {
  return pow(10.0, oracle_rng_range(g, lo, hi));
}

/* -1 or +1. */
static inline double oracle_rng_sign(oracle_rng *g) {
  return (oracle_rng_next(g) >> 63) ? -1.0 : 1.0;
}

/* Uniform in the cube [-1, 1]^3. */
static inline void oracle_rng_cube(oracle_rng *g, double u[3]) {
  u[0] = oracle_rng_range(g, -1, 1);
  u[1] = oracle_rng_range(g, -1, 1);
  u[2] = oracle_rng_range(g, -1, 1);
}

/* A uniformly distributed unit vector (rejection from the cube). */
static inline void oracle_rng_dir(oracle_rng *g, double u[3]) {
  double l2;
  do {
    oracle_rng_cube(g, u);
    l2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  } while (!(l2 > 1e-4 && l2 <= 1));
  l2 = sqrt(l2);
  u[0] /= l2;
  u[1] /= l2;
  u[2] /= l2;
}

/* A random rotation: three orthonormal axes (rows of the rotation of a
 * random unit quaternion), to double rounding. */
static inline void oracle_rng_rotation(oracle_rng *g, double ax[3][3]) {
  double q[4], l = 0;
  int i;
  do {
    l = 0;
    for (i = 0; i < 4; ++i) {
      q[i] = oracle_rng_range(g, -1, 1);
      l += q[i] * q[i];
    }
  } while (!(l > 1e-4 && l <= 1));
  l = sqrt(l);
  for (i = 0; i < 4; ++i)
    q[i] /= l;
  {
    double w = q[0], x = q[1], y = q[2], z = q[3];
    ax[0][0] = 1 - 2 * (y * y + z * z);
    ax[0][1] = 2 * (x * y + w * z);
    ax[0][2] = 2 * (x * z - w * y);
    ax[1][0] = 2 * (x * y - w * z);
    ax[1][1] = 1 - 2 * (x * x + z * z);
    ax[1][2] = 2 * (y * z + w * x);
    ax[2][0] = 2 * (x * z + w * y);
    ax[2][1] = 2 * (y * z - w * x);
    ax[2][2] = 1 - 2 * (x * x + y * y);
  }
}

#endif /* PROX_TEST_RNG_H */
