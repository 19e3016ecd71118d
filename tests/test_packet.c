/* SPDX-License-Identifier: MIT */
/* Packet ray casts (prox/packet.h): every instruction-set path, forced with
 * prox_simd_set(), gives exactly the scalar kernels' answers
 * (prox_raycast_aabb / prox_raycast_triangle): the same hit mask and, for
 * every hit, the same t (and barycentrics for triangles). Cases: random
 * boxes and triangles around random rays, and the hard ones: direction
 * components 0, -0 and subnormal with origins on slab planes, boxes the
 * ray only touches, rays through triangle edges and vertices (exactly),
 * rays starting on a triangle's face (exactly),
 * degenerate and non-finite triangles, zero directions.
 *
 * This file includes itself once per precision (TEST_PACKET_TEMPLATE,
 * after prox/detail/real_double.h or real_float.h): the body after #else
 * compares one precision's packets with its scalar kernels, TFN naming its
 * functions. The cases are drawn in double and rounded to the precision. */
#ifndef TEST_PACKET_TEMPLATE
#include <prox/packet.h>

#include "harness.h"
#include "oracle.h"

/* A component with the hard cases mixed in. */
static double pk_dir_component(oracle_rng *g, int is_float) {
  switch (oracle_rng_int(g, 12)) {
  case 0:
    return 0.0;
  case 1:
    return -0.0;
  case 2:
    return is_float ? (double)FLT_TRUE_MIN : DBL_TRUE_MIN;
  case 3:
    return is_float ? -(double)FLT_TRUE_MIN : -DBL_TRUE_MIN;
  default:
    return oracle_rng_range(g, -1, 1);
  }
}

/* A grid value (exact in float): k / 8 for k in [-16, 16]. */
static double pk_grid(oracle_rng *g) {
  return (oracle_rng_int(g, 33) - 16) / 8.0;
}

/* Fills a ray: origin and direction on the grid or random. */
static void pk_make_ray(oracle_rng *g, int is_float, double o[3], double d[3], double *tmin,
                        double *tmax) {
  int i, grid = oracle_rng_int(g, 2);
  for (i = 0; i < 3; ++i) {
    o[i] = grid ? pk_grid(g) : oracle_rng_range(g, -3, 3);
    d[i] = grid && oracle_rng_int(g, 2) ? pk_grid(g) : pk_dir_component(g, is_float);
  }
  if (oracle_rng_int(g, 40) == 0) d[0] = d[1] = d[2] = 0;
  *tmin = oracle_rng_int(g, 4) == 0 ? oracle_rng_range(g, -1, 1) : 0;
  *tmax = oracle_rng_int(g, 4) == 0 ? oracle_rng_range(g, 0, 4) : INFINITY;
}

static long pk_mismatch_box = 0, pk_mismatch_tri = 0, pk_hits_box = 0, pk_hits_tri = 0;

#define TEST_PACKET_TEMPLATE
#include <prox/detail/real_double.h>
#define TFN(name) name##_d
#include "test_packet.c"
#include <prox/detail/real_end.h>
#undef TFN
#include <prox/detail/real_float.h>
#define TFN(name) name##_f
#include "test_packet.c"
#include <prox/detail/real_end.h>
#undef TFN
#undef TEST_PACKET_TEMPLATE

static void pk_path(int level) {
  long n = h_count(20000);
  if (!prox_simd_set(level)) {
    printf("  %s: not supported by this CPU or build, skipped\n", prox_simd_name(level));
    return;
  }
  pk_mismatch_box = pk_mismatch_tri = pk_hits_box = pk_hits_tri = 0;
  pk_run_d(n);
  pk_run_f(n);
  CHECK_MSG(pk_mismatch_box == 0,
            "%s: %ld box lanes differ from the scalar "
            "kernel",
            prox_simd_name(level), pk_mismatch_box);
  CHECK_MSG(pk_mismatch_tri == 0,
            "%s: %ld triangle lanes differ from the "
            "scalar kernel",
            prox_simd_name(level), pk_mismatch_tri);
  printf("  %s: %ld rays x 8 boxes (%ld hits) and x 8 triangles (%ld hits) "
         "per precision, %ld + %ld lanes differ\n",
         prox_simd_name(level), n, pk_hits_box, pk_hits_tri, pk_mismatch_box, pk_mismatch_tri);
}

static void test_packet_scalar(void) {
  pk_path(PROX_SIMD_SCALAR);
}
static void test_packet_avx2(void) {
  pk_path(PROX_SIMD_AVX2);
}
static void test_packet_avx512(void) {
  pk_path(PROX_SIMD_AVX512);
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_packet_scalar);
  H_RUN(test_packet_avx2);
  H_RUN(test_packet_avx512);
  return h_finish();
}

#else /* TEST_PACKET_TEMPLATE: the comparison of one precision */

/* The ray of origin o, direction d and interval [tmin, tmax], rounded to
 * the precision. */
static PROX_FN(prox_ray)
    TFN(pk_ray)(const double o[3], const double d[3], double tmin, double tmax) {
  PROX_FN(prox_ray) r;
  r.origin = PROX_FN(prox_v3)((PROX_REAL)o[0], (PROX_REAL)o[1], (PROX_REAL)o[2]);
  r.dir = PROX_FN(prox_v3)((PROX_REAL)d[0], (PROX_REAL)d[1], (PROX_REAL)d[2]);
  r.tmin = (PROX_REAL)tmin;
  r.tmax = (PROX_REAL)tmax;
  return r;
}

/* A ray and 8 boxes: the boxes in a packet of 8 and the first 4 in a
 * packet of 4 against prox_raycast_aabb on each. */
static void TFN(pk_boxes)(oracle_rng *g) {
  double o[3], d[3], tmin, tmax, lo[3][8], hi[3][8];
  int m8, m4, i, a, grid = oracle_rng_int(g, 2);
  PROX_FN(prox_ray) r;
  PROX_FN(prox_packet_ray) p;
  PROX_FN(prox_box8) b8;
  PROX_FN(prox_box4) b4;
  PROX_REAL tn8[8], tn4[4];
  pk_make_ray(g, !PROX_IS_DOUBLE, o, d, &tmin, &tmax);
  for (i = 0; i < 8; ++i)
    for (a = 0; a < 3; ++a) {
      double x = grid ? pk_grid(g) : oracle_rng_range(g, -2, 2);
      double y = grid ? pk_grid(g) : oracle_rng_range(g, -2, 2);
      /* Sometimes the box face on the ray's origin plane. */
      if (oracle_rng_int(g, 6) == 0) x = o[a];
      lo[a][i] = fmin(x, y);
      hi[a][i] = fmax(x, y);
    }
  r = TFN(pk_ray)(o, d, tmin, tmax);
  PROX_FN(prox_packet_ray_init)(&p, &r);
  for (i = 0; i < 8; ++i)
    for (a = 0; a < 3; ++a) {
      b8.lo[a][i] = (PROX_REAL)lo[a][i];
      b8.hi[a][i] = (PROX_REAL)hi[a][i];
      if (i < 4) {
        b4.lo[a][i] = (PROX_REAL)lo[a][i];
        b4.hi[a][i] = (PROX_REAL)hi[a][i];
      }
    }
  m8 = PROX_FN(prox_packet_aabb8)(&p, &b8, tn8);
  m4 = PROX_FN(prox_packet_aabb4)(&p, &b4, tn4);
  for (i = 0; i < 8; ++i) {
    PROX_FN(prox_aabb) box;
    PROX_FN(prox_rayhit) h;
    int s;
    box.min = PROX_FN(prox_v3)(b8.lo[0][i], b8.lo[1][i], b8.lo[2][i]);
    box.max = PROX_FN(prox_v3)(b8.hi[0][i], b8.hi[1][i], b8.hi[2][i]);
    s = PROX_FN(prox_raycast_aabb)(&r, &box, &h);
    pk_hits_box += s;
    if (((m8 >> i) & 1) != s || (s && tn8[i] != h.t) ||
        (i < 4 && (((m4 >> i) & 1) != s || (s && tn4[i] != h.t)))) {
      ++pk_mismatch_box;
      if (pk_mismatch_box <= 3)
        h_note("box%s %d: scalar %d t %.17g, packet8 %d t %.17g; ray (%g, %g, %g) (%g, %g, %g)",
               PROX_IS_DOUBLE ? "" : "f", i, s, (double)h.t, (m8 >> i) & 1, (double)tn8[i], o[0],
               o[1], o[2], d[0], d[1], d[2]);
    }
  }
}

/* A ray and 8 triangles: the triangles in a packet of 8 and the first 4 in
 * a packet of 4 against prox_raycast_triangle on each. */
static void TFN(pk_tris)(oracle_rng *g) {
  double o[3], d[3], tmin, tmax, v[3][3][8];
  int m8, m4, i, a, k, grid = oracle_rng_int(g, 2);
  PROX_FN(prox_ray) r;
  PROX_FN(prox_packet_ray) p;
  PROX_FN(prox_tri8) t8;
  PROX_FN(prox_tri4) t4;
  PROX_FN(prox_packet_hit8) h8, h4;
  pk_make_ray(g, !PROX_IS_DOUBLE, o, d, &tmin, &tmax);
  for (i = 0; i < 8; ++i) {
    for (k = 0; k < 3; ++k)
      for (a = 0; a < 3; ++a)
        v[k][a][i] = grid ? pk_grid(g) : oracle_rng_range(g, -2, 2);
    switch (oracle_rng_int(g, 10)) {
    case 0: /* through a vertex: the origin on it, tmin negative */
      for (a = 0; a < 3; ++a)
        v[0][a][i] = o[a];
      break;
    case 1: /* through an edge midpoint (grid values: exact) */
      for (a = 0; a < 3; ++a)
        v[1][a][i] = 2 * o[a] - v[0][a][i];
      break;
    case 4: /* the origin on the face, (v0 + 2 v1 + v2) / 4 (grid values:
             * exact), so that t is 0 and its rounded value of either sign */
      for (a = 0; a < 3; ++a)
        v[2][a][i] = 4 * o[a] - v[0][a][i] - 2 * v[1][a][i];
      break;
    case 2: /* degenerate */
      for (a = 0; a < 3; ++a)
        v[2][a][i] = v[1][a][i];
      break;
    case 3:
      if (oracle_rng_int(g, 4) == 0) v[1][oracle_rng_int(g, 3)][i] = NAN;
      break;
    case 5: /* a needle, v2 within 2^-12 of v1: the products of the weights
             * cancel, and the kernel takes t from compensated ones */
      for (a = 0; a < 3; ++a)
        v[2][a][i] = v[1][a][i] + ldexp(oracle_rng_int(g, 9) - 4, -12 - oracle_rng_int(g, 8));
      break;
    default:
      break;
    }
  }
  if (oracle_rng_int(g, 2)) tmin = -INFINITY;
  r = TFN(pk_ray)(o, d, tmin, tmax);
  PROX_FN(prox_packet_ray_init)(&p, &r);
  for (i = 0; i < 8; ++i)
    for (k = 0; k < 3; ++k)
      for (a = 0; a < 3; ++a) {
        t8.v[k][a][i] = (PROX_REAL)v[k][a][i];
        if (i < 4) t4.v[k][a][i] = (PROX_REAL)v[k][a][i];
      }
  m8 = PROX_FN(prox_packet_triangle8)(&p, &t8, &h8);
  m4 = PROX_FN(prox_packet_triangle4)(&p, &t4, &h4);
  for (i = 0; i < 8; ++i) {
    PROX_FN(prox_triangle) tri;
    PROX_FN(prox_rayhit) h;
    int s;
    for (k = 0; k < 3; ++k)
      tri.v[k] = PROX_FN(prox_v3)(t8.v[k][0][i], t8.v[k][1][i], t8.v[k][2][i]);
    s = PROX_FN(prox_raycast_triangle)(&r, &tri, &h);
    pk_hits_tri += s;
    if (((m8 >> i) & 1) != s ||
        (s && (h8.t[i] != h.t || h8.u[i] != h.bary[1] || h8.v[i] != h.bary[2])) ||
        (i < 4 && (((m4 >> i) & 1) != s || (s && (h4.t[i] != h.t || h4.u[i] != h.bary[1]))))) {
      ++pk_mismatch_tri;
      if (pk_mismatch_tri <= 3)
        h_note("triangle%s %d: scalar %d t %.17g, packet %d t %.17g", PROX_IS_DOUBLE ? "" : "f", i,
               s, (double)h.t, (m8 >> i) & 1, (double)h8.t[i]);
    }
  }
}

/* n rays against boxes and triangles in this precision. */
static void TFN(pk_run)(long n) {
  oracle_rng g = oracle_rng_make((uint64_t)(31 + !PROX_IS_DOUBLE));
  long i;
  for (i = 0; i < n; ++i) {
    TFN(pk_boxes)(&g);
    TFN(pk_tris)(&g);
  }
}

#endif /* TEST_PACKET_TEMPLATE */
