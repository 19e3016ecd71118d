/* SPDX-License-Identifier: MIT */
/* The distance-only paths that run in SSE lanes on x86-64 (PROX_SSE:
 * prox_point_aabbf, prox_point_obb, prox_point_obbf with out = NULL) must
 * give the bits of the portable code, which the other platforms run. The
 * portable side is compiled with PROX_NO_SSE in portable_kernels.c. A NaN
 * result must be NaN on both sides (its sign and payload depend on the
 * operand order a compiler picks, which the contract leaves open).
 * prox_point_aabb (double) has no SSE path; it is compared too, as a check
 * of the harness.
 *
 * Inputs: coordinates uniform in [-1, 1] and in [-1e3, 1e3] around centers
 * up to 1e6; boxes with swapped corners, zero size, negative half extents,
 * unit and arbitrary axes; points inside; and, in half the cases, one to
 * three coordinates replaced by a special value (signed zeros, subnormals,
 * huge values, +-inf, NaN) or by random bits.
 *
 *   test_sse [FILTER] [--scale=X] [--list] [--max-print=N]
 *
 * Where PROX_SSE is 0 both sides are the portable code and the test passes
 * trivially; it says so.
 *
 * This file includes itself once per precision (TEST_SSE_TEMPLATE, after
 * prox/detail/real_double.h or real_float.h): the body after #else is the
 * comparison of one precision, with TFN naming its functions. */
#ifndef TEST_SSE_TEMPLATE
#include "harness.h"
#include "portable_kernels.h"

#include "rng.h"

#include <string.h>

/* A case's coordinates are drawn into an array of doubles: the point
 * first, then the box's reals in their struct order. */
#define MAXR 18

/* Fills v[0..n) for one case: a frame (scale, center) and then the values.
 * kind 0: plain; kind 1: special values substituted. */
static void draw(oracle_rng *s, double *v, int n, int is_float) {
  static const double special_d[] = {0.0,    -0.0,  4.9e-324, -4.9e-324, 2e-308, 1e300,
                                     -1e300, 1e154, INFINITY, -INFINITY, NAN,    1.0};
  static const double special_f[] = {0.0,   -0.0, 1.4e-45,  -1.4e-45,  1e-38, 1e37,
                                     -1e37, 1e19, INFINITY, -INFINITY, NAN,   1.0};
  double scale = oracle_rng_next(s) % 2 ? 1 : 1e3;
  double center = oracle_rng_next(s) % 3 == 0 ? 1e6 * oracle_rng_range(s, -1, 1) : 0;
  int i;
  for (i = 0; i < n; ++i)
    v[i] = center + scale * oracle_rng_range(s, -1, 1);
  if (oracle_rng_next(s) % 2) {
    int k, m = 1 + (int)(oracle_rng_next(s) % 3);
    for (k = 0; k < m; ++k) {
      int at = (int)(oracle_rng_next(s) % (uint64_t)n);
      uint64_t r = oracle_rng_next(s);
      if (r % 4 == 0) {
        if (is_float) {
          uint32_t b = (uint32_t)(r >> 32);
          float f;
          memcpy(&f, &b, sizeof f);
          v[at] = f;
        } else {
          memcpy(&v[at], &r, sizeof r);
        }
      } else {
        const double *sp = is_float ? special_f : special_d;
        v[at] = sp[(r >> 8) % 12];
      }
    }
  }
}

#define TEST_SSE_TEMPLATE
#include <prox/detail/real_double.h>
#define TFN(name) name##_d
#include "test_sse.c"
#include <prox/detail/real_end.h>
#undef TFN
#include <prox/detail/real_float.h>
#define TFN(name) name##_f
#include "test_sse.c"
#include <prox/detail/real_end.h>
#undef TFN
#undef TEST_SSE_TEMPLATE

/* One case of n drawn values: both precisions, and the values noted if
 * either failed. */
static void check_case(const double *v, int n) {
  int i;
  h_case_begin();
  sides_d(v, n == 18);
  sides_f(v, n == 18);
  if (h_case_failed())
    for (i = 0; i < n; ++i)
      h_note("v[%d] = %a", i, v[i]);
}

static long g_cases = 2000000;

/* The axes of an OBB from v: unit and orthonormal (a random rotation) in
 * every other case, else as drawn. */
static void obb_axes(oracle_rng *s, double *ax) {
  if (oracle_rng_next(s) % 2) {
    double a = 6.283185307179586 * oracle_rng_unit(s), b = 3.14159 * oracle_rng_unit(s);
    double c = 6.283185307179586 * oracle_rng_unit(s);
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
    /* Rz(a) Rx(b) Rz(c). */
    ax[0] = ca * cc - sa * cb * sc;
    ax[1] = sa * cc + ca * cb * sc;
    ax[2] = sb * sc;
    ax[3] = -ca * sc - sa * cb * cc;
    ax[4] = -sa * sc + ca * cb * cc;
    ax[5] = sb * cc;
    ax[6] = sa * sb;
    ax[7] = -ca * sb;
    ax[8] = cb;
  }
}

static void test_aabb(void) {
  oracle_rng s = oracle_rng_make(0x55e1);
  long c, n = h_count(g_cases);
  CHECK_MSG(port_is_portable(), "portable_kernels.c was compiled with the SSE paths");
  for (c = 0; c < n; ++c) {
    double v[MAXR];
    int i;
    draw(&s, v, 9, (int)(c & 1));
    if (oracle_rng_next(&s) % 8 == 0) v[6] = v[3]; /* zero width in x */
    if (oracle_rng_next(&s) % 8 == 0)              /* a point inside */
      for (i = 0; i < 3; ++i)
        v[i] = v[3 + i] + oracle_rng_unit(&s) * (v[6 + i] - v[3 + i]);
    check_case(v, 9);
  }
}

static void test_obb(void) {
  oracle_rng s = oracle_rng_make(0x0bb5);
  long c, n = h_count(g_cases);
  for (c = 0; c < n; ++c) {
    double v[MAXR];
    int i;
    draw(&s, v, 18, (int)(c & 1));
    obb_axes(&s, v + 6);
    if (oracle_rng_next(&s) % 4 == 0) /* a point inside: near the center */
      for (i = 0; i < 3; ++i)
        v[i] = v[3 + i] + 0.1 * oracle_rng_range(&s, -1, 1) * fabs(v[15 + i]);
    if (oracle_rng_next(&s) % 8 == 0) v[15 + oracle_rng_next(&s) % 3] = 0; /* flat */
    check_case(v, 18);
  }
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  if (!h_.list_only)
    printf("# SSE paths: %s; portable side: %s\n", PROX_SSE ? "on" : "off (both sides portable)",
           port_is_portable() ? "portable" : "NOT portable");
  H_RUN(test_aabb);
  H_RUN(test_obb);
  return h_finish();
}

#else /* TEST_SSE_TEMPLATE: the comparison of one precision */

static PROX_FN(prox_vec3) TFN(at)(const double *v) {
  return PROX_FN(prox_v3)((PROX_REAL)v[0], (PROX_REAL)v[1], (PROX_REAL)v[2]);
}

/* The point v[0..2] against the box of corners v[3..5], v[6..8] (obb 0) or
 * of center v[3..5], axes v[6..14] and half extents v[15..17] (obb 1): the
 * SSE and the portable distance have equal bits, or are both NaN. */
static void TFN(sides)(const double *v, int obb) {
  PROX_FN(prox_vec3) p = TFN(at)(v);
  PROX_REAL a, e;
  if (obb) {
    PROX_FN(prox_obb) b;
    int k;
    b.center = TFN(at)(v + 3);
    for (k = 0; k < 3; ++k) {
      b.axis[k] = TFN(at)(v + 6 + 3 * k);
      b.half[k] = (PROX_REAL)v[15 + k];
    }
    a = PROX_FN(prox_point_obb)(p, &b, NULL);
    e = PROX_FN(port_point_obb)(p, &b);
  } else {
    PROX_FN(prox_aabb) b;
    b.min = TFN(at)(v + 3);
    b.max = TFN(at)(v + 6);
    a = PROX_FN(prox_point_aabb)(p, &b, NULL);
    e = PROX_FN(port_point_aabb)(p, &b);
  }
  CHECK_MSG((a != a && e != e) || memcmp(&a, &e, sizeof a) == 0, "%s: SSE %a, portable %a",
            PROX_IS_DOUBLE ? "double" : "float", (double)a, (double)e);
}

#endif /* TEST_SSE_TEMPLATE */
