/* SPDX-License-Identifier: MIT */
/* io_format.c: doubles as printf's "%.17g" writes them, without printf
 * where that can be done exactly with integers.
 *
 * printf formats a double by converting it exactly to decimal (glibc uses
 * multi-precision arithmetic), which costs 260-450 ns a number here (eight
 * a row: more than the query when `prox closest` writes its CSV). Here a double x
 * = m 2^e (m < 2^53) is scaled to 17 digits, N = round(x 10^k) with
 * 10^16 <= N < 10^17, in exact 128-bit integer arithmetic where that fits:
 * for 0 <= k <= 32 the product m 5^k is below 2^128, and x 10^k = m 5^k
 * 2^(e + k) is an exact shift of it; the bits shifted out give the
 * rounding (to nearest, ties to even, as printf in the default rounding
 * mode). That covers 1e-16 <= |x| < 1e17, which holds the coordinates and
 * distances of any sensible mesh; the rest goes to snprintf. The digits
 * are then laid out as %g does for precision 17: fixed notation for
 * decimal exponents -4 to 16, else d.ddde+XX, trailing zeros removed.
 * tests/test_io.c compares the two on random doubles of every kind. */
#include "io_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 io_u128;

/* m 5^k for k = 0 .. 32: below 2^53 2^75, so within 128 bits. */
static io_u128 io_mul_pow5(uint64_t m, int k) {
  static const uint32_t low[8] = {1, 5, 25, 125, 625, 3125, 15625, 78125};
  io_u128 p = (io_u128)m * low[k & 7];
  for (k >>= 3; k > 0; --k)
    p *= 390625u; /* 5^8 */
  return p;
}

/* N = round(m 2^e 10^k), ties to even; 0 when it does not fit the exact
 * path (k outside 0 .. 32, or a shift out of range). */
static uint64_t io_scaled(uint64_t m, int e, int k, uint64_t *trunc) {
  io_u128 p;
  int s;
  if (k < 0 || k > 32) return 0;
  p = io_mul_pow5(m, k);
  s = e + k;
  if (s >= 0) {
    if (s >= 64 || (p >> (64 - s)) != 0) return 0; /* far beyond 17 digits */
    *trunc = (uint64_t)(p << s);
    return *trunc;
  } else {
    int r = -s;
    io_u128 q, rem, half;
    if (r >= 128) return 0;
    q = p >> r;
    rem = p - (q << r);
    half = (io_u128)1 << (r - 1);
    if (q >> 64) return 0;
    *trunc = (uint64_t)q;
    if (rem > half || (rem == half && (q & 1u))) ++q;
    return (uint64_t)q;
  }
}

/* Writes the 17 digits of N (10^16 <= N < 10^17) with decimal exponent X
 * as %.17g lays them out; returns the length. */
static size_t io_layout(char *out, int neg, uint64_t n, int x) {
  char d[17];
  int i, last, len = 0;
  /* two chains of 32-bit divisions: the high 9 digits and the low 8 */
  uint32_t hi = (uint32_t)(n / 100000000u), lo = (uint32_t)(n % 100000000u);
  for (i = 16; i >= 9; --i) {
    d[i] = (char)('0' + lo % 10u);
    lo /= 10u;
    d[i - 8] = (char)('0' + hi % 10u);
    hi /= 10u;
  }
  d[0] = (char)('0' + hi);
  /* the last significant digit (trailing zeros are dropped) */
  for (last = 16; last > 0 && d[last] == '0'; --last) {
  }
  if (neg) out[len++] = '-';
  if (x < -4 || x >= 17) {
    unsigned ax = (unsigned)(x < 0 ? -x : x);
    out[len++] = d[0];
    if (last > 0) {
      out[len++] = '.';
      for (i = 1; i <= last; ++i)
        out[len++] = d[i];
    }
    out[len++] = 'e';
    out[len++] = x < 0 ? '-' : '+';
    if (ax >= 100) out[len++] = (char)('0' + ax / 100u);
    out[len++] = (char)('0' + ax / 10u % 10u);
    out[len++] = (char)('0' + ax % 10u);
  } else if (x >= 0) {
    for (i = 0; i <= x; ++i)
      out[len++] = d[i];
    if (last > x) {
      out[len++] = '.';
      for (i = x + 1; i <= last; ++i)
        out[len++] = d[i];
    }
  } else {
    out[len++] = '0';
    out[len++] = '.';
    for (i = 0; i < -x - 1; ++i)
      out[len++] = '0';
    for (i = 0; i <= last; ++i)
      out[len++] = d[i];
  }
  out[len] = '\0';
  return (size_t)len;
}
#endif

size_t prox_io_format_double(double x, char *out) {
  int n;
#if defined(__SIZEOF_INT128__)
  uint64_t bits, m;
  int neg, be, e, bl, est, tries;
  memcpy(&bits, &x, sizeof bits);
  neg = (int)(bits >> 63);
  be = (int)(bits >> 52 & 0x7ffu);
  m = bits & (((uint64_t)1 << 52) - 1u);
  if (be == 0x7ff) goto slow; /* inf, nan */
  if (be == 0 && m == 0) {
    size_t len = 0;
    if (neg) out[len++] = '-';
    out[len++] = '0';
    out[len] = '\0';
    return len;
  }
  if (be == 0) {
    e = -1074;
  } else {
    m |= (uint64_t)1 << 52;
    e = be - 1075;
  }
  /* floor(log10(x)), or one less: x lies in [2^(e + bl - 1), 2^(e + bl)). */
  bl = 64 - __builtin_clzll(m);
  est = (int)floor((double)(e + bl - 1) * 0.30102999566398120);
  for (tries = 0; tries < 3; ++tries) {
    uint64_t t = 0, q = io_scaled(m, e, 16 - est, &t);
    if (q == 0) break;
    if (t >= 100000000000000000ull) {
      ++est; /* x >= 10^(est + 1) */
      continue;
    }
    if (t < 10000000000000000ull) {
      --est;
      continue;
    }
    if (q == 100000000000000000ull) return io_layout(out, neg, q / 10u, est + 1);
    return io_layout(out, neg, q, est);
  }
slow:
#endif
  n = snprintf(out, 32, "%.17g", x);
  return n > 0 ? (size_t)n : 0;
}
