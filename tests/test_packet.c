/* SPDX-License-Identifier: MIT */
/* Packet ray casts (prox/packet.h): every instruction-set path, forced with
 * prox_simd_set(), gives exactly the scalar kernels' answers
 * (prox_raycast_aabb / prox_raycast_triangle): the same hit mask and, for
 * every hit, the same t (and barycentrics for triangles). Cases: random
 * boxes and triangles around random rays, and the hard ones: direction
 * components 0, -0 and subnormal with origins on slab planes, boxes the
 * ray only touches, rays through triangle edges and vertices (exactly),
 * rays starting on a triangle's face (exactly),
 * degenerate and non-finite triangles, zero directions. */
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

static void pk_boxes(oracle_rng *g, int is_float) {
  double o[3], d[3], tmin, tmax, lo[3][8], hi[3][8];
  int i, a, grid = oracle_rng_int(g, 2);
  pk_make_ray(g, is_float, o, d, &tmin, &tmax);
  for (i = 0; i < 8; ++i)
    for (a = 0; a < 3; ++a) {
      double x = grid ? pk_grid(g) : oracle_rng_range(g, -2, 2);
      double y = grid ? pk_grid(g) : oracle_rng_range(g, -2, 2);
      /* Sometimes the box face on the ray's origin plane. */
      if (oracle_rng_int(g, 6) == 0) x = o[a];
      lo[a][i] = fmin(x, y);
      hi[a][i] = fmax(x, y);
    }
  if (!is_float) {
    prox_ray r;
    prox_packet_ray p;
    prox_box8 b8;
    prox_box4 b4;
    double tn8[8], tn4[4];
    int m8, m4;
    r.origin = prox_v3(o[0], o[1], o[2]);
    r.dir = prox_v3(d[0], d[1], d[2]);
    r.tmin = tmin;
    r.tmax = tmax;
    prox_packet_ray_init(&p, &r);
    for (i = 0; i < 8; ++i)
      for (a = 0; a < 3; ++a) {
        b8.lo[a][i] = lo[a][i];
        b8.hi[a][i] = hi[a][i];
        if (i < 4) {
          b4.lo[a][i] = lo[a][i];
          b4.hi[a][i] = hi[a][i];
        }
      }
    m8 = prox_packet_aabb8(&p, &b8, tn8);
    m4 = prox_packet_aabb4(&p, &b4, tn4);
    for (i = 0; i < 8; ++i) {
      prox_aabb box;
      prox_rayhit h;
      int s;
      box.min = prox_v3(lo[0][i], lo[1][i], lo[2][i]);
      box.max = prox_v3(hi[0][i], hi[1][i], hi[2][i]);
      s = prox_raycast_aabb(&r, &box, &h);
      pk_hits_box += s;
      if (((m8 >> i) & 1) != s || (s && tn8[i] != h.t) ||
          (i < 4 && (((m4 >> i) & 1) != s || (s && tn4[i] != h.t)))) {
        ++pk_mismatch_box;
        if (pk_mismatch_box <= 3)
          h_note("box %d: scalar %d t %.17g, packet8 %d t %.17g; ray (%g, "
                 "%g, %g) (%g, %g, %g)",
                 i, s, h.t, (m8 >> i) & 1, tn8[i], o[0], o[1], o[2], d[0], d[1], d[2]);
      }
    }
  } else {
    prox_rayf r;
    prox_packet_rayf p;
    prox_box8f b8;
    prox_box4f b4;
    float tn8[8], tn4[4];
    int m8, m4;
    r.origin = prox_v3f((float)o[0], (float)o[1], (float)o[2]);
    r.dir = prox_v3f((float)d[0], (float)d[1], (float)d[2]);
    r.tmin = (float)tmin;
    r.tmax = (float)tmax;
    prox_packet_ray_initf(&p, &r);
    for (i = 0; i < 8; ++i)
      for (a = 0; a < 3; ++a) {
        b8.lo[a][i] = (float)lo[a][i];
        b8.hi[a][i] = (float)hi[a][i];
        if (i < 4) {
          b4.lo[a][i] = (float)lo[a][i];
          b4.hi[a][i] = (float)hi[a][i];
        }
      }
    m8 = prox_packet_aabb8f(&p, &b8, tn8);
    m4 = prox_packet_aabb4f(&p, &b4, tn4);
    for (i = 0; i < 8; ++i) {
      prox_aabbf box;
      prox_rayhitf h;
      int s;
      box.min = prox_v3f(b8.lo[0][i], b8.lo[1][i], b8.lo[2][i]);
      box.max = prox_v3f(b8.hi[0][i], b8.hi[1][i], b8.hi[2][i]);
      s = prox_raycast_aabbf(&r, &box, &h);
      pk_hits_box += s;
      if (((m8 >> i) & 1) != s || (s && tn8[i] != h.t) ||
          (i < 4 && (((m4 >> i) & 1) != s || (s && tn4[i] != h.t)))) {
        ++pk_mismatch_box;
        if (pk_mismatch_box <= 3)
          h_note("boxf %d: scalar %d t %.9g, packet8 %d t %.9g", i, s, (double)h.t, (m8 >> i) & 1,
                 (double)tn8[i]);
      }
    }
  }
}

static void pk_tris(oracle_rng *g, int is_float) {
  double o[3], d[3], tmin, tmax, v[3][3][8];
  int i, a, k, grid = oracle_rng_int(g, 2);
  pk_make_ray(g, is_float, o, d, &tmin, &tmax);
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
  if (!is_float) {
    prox_ray r;
    prox_packet_ray p;
    prox_tri8 t8;
    prox_tri4 t4;
    prox_packet_hit8 h8, h4;
    int m8, m4;
    r.origin = prox_v3(o[0], o[1], o[2]);
    r.dir = prox_v3(d[0], d[1], d[2]);
    r.tmin = tmin;
    r.tmax = tmax;
    prox_packet_ray_init(&p, &r);
    for (i = 0; i < 8; ++i)
      for (k = 0; k < 3; ++k)
        for (a = 0; a < 3; ++a) {
          t8.v[k][a][i] = v[k][a][i];
          if (i < 4) t4.v[k][a][i] = v[k][a][i];
        }
    m8 = prox_packet_triangle8(&p, &t8, &h8);
    m4 = prox_packet_triangle4(&p, &t4, &h4);
    for (i = 0; i < 8; ++i) {
      prox_triangle tri;
      prox_rayhit h;
      int s;
      for (k = 0; k < 3; ++k)
        tri.v[k] = prox_v3(v[k][0][i], v[k][1][i], v[k][2][i]);
      s = prox_raycast_triangle(&r, &tri, &h);
      pk_hits_tri += s;
      if (((m8 >> i) & 1) != s ||
          (s && (h8.t[i] != h.t || h8.u[i] != h.bary[1] || h8.v[i] != h.bary[2])) ||
          (i < 4 && (((m4 >> i) & 1) != s || (s && (h4.t[i] != h.t || h4.u[i] != h.bary[1]))))) {
        ++pk_mismatch_tri;
        if (pk_mismatch_tri <= 3)
          h_note("triangle %d: scalar %d t %.17g, packet %d t %.17g", i, s, h.t, (m8 >> i) & 1,
                 h8.t[i]);
      }
    }
  } else {
    prox_rayf r;
    prox_packet_rayf p;
    prox_tri8f t8;
    prox_tri4f t4;
    prox_packet_hit8f h8, h4;
    int m8, m4;
    r.origin = prox_v3f((float)o[0], (float)o[1], (float)o[2]);
    r.dir = prox_v3f((float)d[0], (float)d[1], (float)d[2]);
    r.tmin = (float)tmin;
    r.tmax = (float)tmax;
    prox_packet_ray_initf(&p, &r);
    for (i = 0; i < 8; ++i)
      for (k = 0; k < 3; ++k)
        for (a = 0; a < 3; ++a) {
          t8.v[k][a][i] = (float)v[k][a][i];
          if (i < 4) t4.v[k][a][i] = (float)v[k][a][i];
        }
    m8 = prox_packet_triangle8f(&p, &t8, &h8);
    m4 = prox_packet_triangle4f(&p, &t4, &h4);
    for (i = 0; i < 8; ++i) {
      prox_trianglef tri;
      prox_rayhitf h;
      int s;
      for (k = 0; k < 3; ++k)
        tri.v[k] = prox_v3f(t8.v[k][0][i], t8.v[k][1][i], t8.v[k][2][i]);
      s = prox_raycast_trianglef(&r, &tri, &h);
      pk_hits_tri += s;
      if (((m8 >> i) & 1) != s ||
          (s && (h8.t[i] != h.t || h8.u[i] != h.bary[1] || h8.v[i] != h.bary[2])) ||
          (i < 4 && (((m4 >> i) & 1) != s || (s && (h4.t[i] != h.t || h4.u[i] != h.bary[1]))))) {
        ++pk_mismatch_tri;
        if (pk_mismatch_tri <= 3)
          h_note("trianglef %d: scalar %d t %.9g, packet %d t %.9g", i, s, (double)h.t,
                 (m8 >> i) & 1, (double)h8.t[i]);
      }
    }
  }
}

static void pk_path(int level) {
  long n = h_count(20000), i;
  int prec;
  if (!prox_simd_set(level)) {
    printf("  %s: not supported by this CPU or build, skipped\n", prox_simd_name(level));
    return;
  }
  pk_mismatch_box = pk_mismatch_tri = pk_hits_box = pk_hits_tri = 0;
  for (prec = 0; prec < 2; ++prec) {
    oracle_rng g = oracle_rng_make((uint64_t)(31 + prec));
    for (i = 0; i < n; ++i) {
      pk_boxes(&g, prec);
      pk_tris(&g, prec);
    }
  }
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
