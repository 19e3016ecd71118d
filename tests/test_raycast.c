/* SPDX-License-Identifier: MIT */
/* Ray casts (K3) against the exact oracle of oracle_ray.h.
 *
 * For every kernel and precision, four kinds of cases (uniform, large
 * offset, tiny, adversarial), 5,000+ each (>= 20,000 per kernel and
 * precision at scale 1). Asserted:
 * - no NaN or infinity in the result of a hit from finite input;
 * - solids (boxes, sphere, capsule, tetrahedron): an exact hit is always
 *   reported (closed and conservative: grazing rays, rays starting on the
 *   surface); a ray that misses the solid grown by the margin b is never
 *   reported (b = RC_MARGIN eps S_k = 16 eps S_k, S_k the scale of the
 *   cast's own margin, rc_kernel_scale); rays that miss by a few eps S_k,
 *   across the margin, are among the adversarial cases;
 * - surfaces (plane, triangle): the hit/miss decision is exactly the
 *   oracle's (for triangles: exact edge signs with prox's tie rule) unless
 *   the exact t is within 16 eps S / (|dir| cos) of tmin or tmax;
 * - inside flag where the start is farther than b from the surface;
 * - features where the entry point is farther than b from another
 *   feature (boxes: face entries; triangles and tetrahedra: edges and
 *   vertices too, which they decide exactly);
 * - within the margin either answer goes: the table counts those cases
 *   and how many differ from the exact answer;
 * - entry and exit t within 8 eps S (|t - t_exact| |dir| <= 8 eps S) on
 *   well-conditioned hits: the cosine of incidence at least RC_COND.
 * The triangle cast is checked so again on cases spread over its whole
 * domain, scaled by powers of two out to the domain's ends, with the sign
 * of t exact (test_raycast_triangle_domain, rows "whole domain").
 * Prints the table of measured maxima. */
#ifndef TEST_RAYCAST_TEMPLATE

#include <prox/raycast.h>

#include "harness.h"
#include "kernels.h"
#include "oracle_ray.h"

/* The margin of the hit/miss, inside and feature decisions, in eps S_k
 * (raycast.h): a solid is hit by every ray that meets it and missed by
 * every ray that misses it grown by RC_MARGIN eps S_k, S_k the scale of
 * the cast's own margin (rc_kernel_scale: the sphere, capsule, OBB and
 * AABB casts retry a miss on the solid grown by 8 eps S_k; the other
 * 8 eps S_k cover the rounding of that retry); a surface's hit is decided
 * exactly unless the exact t is within RC_MARGIN eps S / (|dir| cos) of
 * tmin or tmax (cos of the angle of incidence: the rounding of t grows as
 * 1 / cos), and so is the tetrahedron's, whose line-face tests are exact,
 * unless it starts or ends within RC_MARGIN eps S of the surface. Within
 * the margin either answer goes: counted and printed. */
#ifndef RC_MARGIN
#define RC_MARGIN 16.0
#endif

/* Cosine of incidence from which t is asserted (angle <= 60 deg). */
#define RC_COND 0.5
/* The asserted bound on t, in eps S. */
#define RC_TBOUND 8.0

/* The ray casts, from the registry (tests/kernels.h): RC_<name> is the
 * index of prox_<name>, rc_names[] its name, which seeds its cases
 * (oracle_rng_named): a kernel's place in the registry changes no
 * kernel's cases. */
#define RC_ENUM(name, prim, solid) RC_##name,
#define RC_NAME(name, prim, solid) #name,
enum { PROX_KERNELS_K3(RC_ENUM) RC_KERNELS };
static const char *rc_names[RC_KERNELS] = {PROX_KERNELS_K3(RC_NAME)};

/* One case, in doubles (rounded to float for the float kernels). */
typedef struct rc_case {
  int k;
  double o[3], d[3], tmin, tmax;
  double v[4][3]; /* plane: v[0] normal; tri: v[0..2]; aabb: min, max;
                   * obb: center, axes v[1..3]; sphere: center;
                   * capsule: a, b; tet: v[0..3] */
  double s[3];    /* plane: offset; obb: half extents; radius */
} rc_case;

/* A kernel's result, in double. */
typedef struct rc_res {
  int ret, ret_null, hit, inside; /* ret_null: the return with out = NULL */
  double t, tx, p[3], n[3], bary[3];
  int kind, index;
} rc_res;

/* ------------------------------------------------------------------------ */
/* Running the kernels                                                      */
/* ------------------------------------------------------------------------ */

#define RC_V3(a) prox_v3((a)[0], (a)[1], (a)[2])
#define RC_V3F(a) prox_v3f((float)(a)[0], (float)(a)[1], (float)(a)[2])

/* The kernel of c in each precision, into r (the template at the end of
 * the file, included once per precision). */
static void rc_run_p(const rc_case *c, rc_res *r);
static void rc_run_pf(const rc_case *c, rc_res *r);

/* Rounds every input of a case to float. */
/* x rounded to float. Through a volatile: GCC 12.2 at -O2 vectorises a
 * loop of in-place x = (float)x over a struct's arrays wrongly (some
 * elements are left unrounded). */
static double rc_round(double x) {
  volatile float f = (float)x;
  return (double)f;
}

static void rc_to_float(rc_case *c) {
  int i, j;
  for (i = 0; i < 3; ++i) {
    c->o[i] = rc_round(c->o[i]);
    c->d[i] = rc_round(c->d[i]);
    c->s[i] = rc_round(c->s[i]);
    for (j = 0; j < 4; ++j)
      c->v[j][i] = rc_round(c->v[j][i]);
  }
  c->tmin = rc_round(c->tmin);
  c->tmax = rc_round(c->tmax);
}

static void rc_run(const rc_case *c, int is_float, rc_res *r) {
  if (is_float)
    rc_run_pf(c, r);
  else
    rc_run_p(c, r);
}

/* ------------------------------------------------------------------------ */
/* Case generators                                                          */
/* ------------------------------------------------------------------------ */

static double rc_maxabs3(const double *a) {
  double m = fabs(a[0]);
  if (fabs(a[1]) > m) m = fabs(a[1]);
  if (fabs(a[2]) > m) m = fabs(a[2]);
  return m;
}

/* S of a case: the largest coordinate magnitude of the positional inputs
 * (the origin and the primitive's points, extents added). */
static double rc_scale(const rc_case *c) {
  double S = rc_maxabs3(c->o), m;
  int i;
  switch (c->k) {
  case RC_raycast_plane: {
    double nl = sqrt(c->v[0][0] * c->v[0][0] + c->v[0][1] * c->v[0][1] + c->v[0][2] * c->v[0][2]);
    m = nl > 0 ? fabs(c->s[0]) / nl : 0;
    break;
  }
  case RC_raycast_triangle:
    m = fmax(rc_maxabs3(c->v[0]), fmax(rc_maxabs3(c->v[1]), rc_maxabs3(c->v[2])));
    break;
  case RC_raycast_aabb:
    m = fmax(rc_maxabs3(c->v[0]), rc_maxabs3(c->v[1]));
    break;
  case RC_raycast_obb:
    m = rc_maxabs3(c->v[0]) + fabs(c->s[0]) + fabs(c->s[1]) + fabs(c->s[2]);
    break;
  case RC_raycast_sphere:
    m = rc_maxabs3(c->v[0]) + fabs(c->s[0]);
    break;
  case RC_raycast_capsule:
    m = fmax(rc_maxabs3(c->v[0]), rc_maxabs3(c->v[1])) + fabs(c->s[0]);
    break;
  default:
    m = 0;
    for (i = 0; i < 4; ++i)
      m = fmax(m, rc_maxabs3(c->v[i]));
    break;
  }
  if (m > S) S = m;
  return S > 0 ? S : DBL_MIN;
}

/* S_k, the scale of a solid cast's margin (raycast.h): sphere |o - c| (max
 * norm) + |r|; capsule |o - a| + |b - a| (max norms) + |r|; OBB |o - c|
 * (1-norm) + the |half| summed; AABB the largest |corner - o| (max norm);
 * the tetrahedron S. */
static double rc_kernel_scale(const rc_case *c, double S) {
  double w[3], u[3], m = 0;
  int i;
  for (i = 0; i < 3; ++i) {
    w[i] = c->o[i] - c->v[0][i];
    u[i] = c->o[i] - c->v[1][i];
  }
  switch (c->k) {
  case RC_raycast_sphere:
    return rc_maxabs3(w) + fabs(c->s[0]);
  case RC_raycast_capsule:
    for (i = 0; i < 3; ++i)
      u[i] = c->v[1][i] - c->v[0][i];
    return rc_maxabs3(w) + rc_maxabs3(u) + fabs(c->s[0]);
  case RC_raycast_obb:
    for (i = 0; i < 3; ++i)
      m += fabs(w[i]) + fabs(c->s[i]);
    return m;
  case RC_raycast_aabb:
    return fmax(rc_maxabs3(w), rc_maxabs3(u));
  default:
    return S;
  }
}

/* An exact placement for adversarial cases: x = shift + s * g / 16 for
 * grid points g, exact in both precisions. */
typedef struct rc_grid {
  double s, shift[3];
} rc_grid;

static rc_grid rc_grid_random(oracle_rng *g) {
  rc_grid f;
  int i, which = oracle_rng_int(g, 3);
  f.shift[0] = f.shift[1] = f.shift[2] = 0;
  if (which == 0) {
    f.s = ldexp(1.0, oracle_rng_int(g, 5) - 2);
  } else if (which == 1) {
    f.s = 128;
    for (i = 0; i < 3; ++i)
      f.shift[i] = f.s * oracle_rng_sign(g) * (4096 + oracle_rng_int(g, 4000));
  } else {
    f.s = ldexp(1.0, -27);
    for (i = 0; i < 3; ++i)
      f.shift[i] = f.s * (oracle_rng_int(g, 17) - 8);
  }
  return f;
}

/* A grid point (integers in [-16, 16] / 16) placed by the grid frame. */
static void rc_grid_point(oracle_rng *g, const rc_grid *f, double out[3]) {
  int i;
  for (i = 0; i < 3; ++i)
    out[i] = f->shift[i] + f->s * (oracle_rng_int(g, 33) - 16) / 16.0;
}

/* A non-zero grid vector (integers in [-8, 8]), times a power of two. */
static void rc_grid_vector(oracle_rng *g, double out[3]) {
  int i;
  double k = ldexp(1.0, oracle_rng_int(g, 9) - 4);
  do {
    for (i = 0; i < 3; ++i)
      out[i] = k * (oracle_rng_int(g, 17) - 8);
  } while (out[0] == 0 && out[1] == 0 && out[2] == 0);
}

/* The origin target - 2^j d for a target point that the ray must pass
 * through: exact when d has few bits (grid vectors), as the generators
 * here ensure. */
static void rc_aim(oracle_rng *g, rc_case *c, const double target[3], double step) {
  int i;
  double k = step * ldexp(1.0, oracle_rng_int(g, 4));
  for (i = 0; i < 3; ++i)
    c->o[i] = target[i] - k * c->d[i];
}

/* Direction components 0, -0 or subnormal (precision-dependent). */
static double rc_tiny_component(oracle_rng *g, int is_float) {
  double sub = is_float ? (double)FLT_TRUE_MIN : DBL_TRUE_MIN;
  switch (oracle_rng_int(g, 4)) {
  case 0:
    return 0.0;
  case 1:
    return -0.0;
  case 2:
    return sub * (1 + oracle_rng_int(g, 3));
  default:
    return -sub * (1 + oracle_rng_int(g, 3));
  }
}

/* Fills the ray of a general case: origin o (placed), direction towards
 * the target (placed) with some spread, interval. */
static void rc_general_ray(oracle_rng *g, const oracle_frame *f, rc_case *c,
                           const double target_u[3], double spread) {
  double u[3], a[3], b[3], len = oracle_rng_log10(g, -2, 2);
  int i;
  oracle_rng_cube(g, u);
  for (i = 0; i < 3; ++i)
    u[i] *= 2.5;
  oracle_frame_point(f, u, c->o);
  /* Direction in frame units, computed before placement (no cancellation
   * of the large offset). */
  oracle_rng_cube(g, a);
  for (i = 0; i < 3; ++i)
    b[i] = target_u[i] + spread * a[i] - u[i];
  oracle_frame_vector(f, b, c->d);
  for (i = 0; i < 3; ++i)
    c->d[i] *= len / f->scale;
  if (c->d[0] == 0 && c->d[1] == 0 && c->d[2] == 0) c->d[0] = 1;
  c->tmin = 0;
  c->tmax = INFINITY;
  switch (oracle_rng_int(g, 8)) {
  case 0:
    c->tmin = oracle_rng_range(g, -2, 2) / len;
    break;
  case 1:
    c->tmax = oracle_rng_range(g, 0.5, 4) / len;
    break;
  default:
    break;
  }
}

/* A general (uniform / large / tiny) case of kernel k. */
static void rc_gen_general(oracle_rng *g, int k, int kind, rc_case *c) {
  oracle_frame f = oracle_frame_random(g, kind);
  double u[4][3], target[3];
  int i, j;
  memset(c, 0, sizeof *c);
  c->k = k;
  for (j = 0; j < 4; ++j)
    oracle_rng_cube(g, u[j]);
  for (i = 0; i < 3; ++i)
    target[i] = 0.5 * (u[0][i] + u[1][i]);
  switch (k) {
  case RC_raycast_plane: {
    double n[3], p[3];
    oracle_rng_dir(g, n);
    for (i = 0; i < 3; ++i)
      n[i] *= oracle_rng_log10(g, -1, 1);
    oracle_frame_point(&f, u[0], p);
    for (i = 0; i < 3; ++i)
      c->v[0][i] = n[i];
    c->s[0] = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
    for (i = 0; i < 3; ++i)
      target[i] = u[0][i];
    break;
  }
  case RC_raycast_triangle:
    for (j = 0; j < 3; ++j)
      oracle_frame_point(&f, u[j], c->v[j]);
    for (i = 0; i < 3; ++i)
      target[i] = (u[0][i] + u[1][i] + u[2][i]) / 3;
    break;
  case RC_raycast_aabb:
    for (j = 0; j < 2; ++j)
      oracle_frame_point(&f, u[j], c->v[j]);
    break;
  case RC_raycast_obb: {
    double ax[3][3];
    oracle_rng_rotation(g, ax);
    oracle_frame_point(&f, u[0], c->v[0]);
    for (j = 0; j < 3; ++j) {
      for (i = 0; i < 3; ++i)
        c->v[j + 1][i] = ax[j][i];
      c->s[j] = f.scale * oracle_rng_range(g, 0.05, 1);
    }
    for (i = 0; i < 3; ++i)
      target[i] = u[0][i];
    break;
  }
  case RC_raycast_sphere:
    oracle_frame_point(&f, u[0], c->v[0]);
    c->s[0] = f.scale * oracle_rng_range(g, 0.05, 1);
    for (i = 0; i < 3; ++i)
      target[i] = u[0][i];
    break;
  case RC_raycast_capsule:
    oracle_frame_point(&f, u[0], c->v[0]);
    oracle_frame_point(&f, u[1], c->v[1]);
    c->s[0] = f.scale * oracle_rng_range(g, 0.05, 0.7);
    break;
  default:
    for (j = 0; j < 4; ++j)
      oracle_frame_point(&f, u[j], c->v[j]);
    for (i = 0; i < 3; ++i)
      target[i] = (u[0][i] + u[1][i] + u[2][i] + u[3][i]) / 4;
    break;
  }
  rc_general_ray(g, &f, c, target, 0.8);
}

/* An adversarial case of kernel k (exact grid geometry). */
static void rc_gen_adversarial(oracle_rng *g, int k, int is_float, rc_case *c) {
  rc_grid f = rc_grid_random(g);
  double target[3], e[3];
  int i, j, sub = oracle_rng_int(g, 6);
  memset(c, 0, sizeof *c);
  c->k = k;
  c->tmin = 0;
  c->tmax = INFINITY;
  rc_grid_vector(g, c->d);
  switch (k) {
  case RC_raycast_plane: {
    double p[3], n[3];
    rc_grid_point(g, &f, p);
    rc_grid_vector(g, n);
    for (i = 0; i < 3; ++i)
      c->v[0][i] = n[i];
    /* Offset n . p: exact enough for the test (the oracle takes it as
     * given); rays through p or parallel to the plane. */
    c->s[0] = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
    if (sub < 2) {
      /* Parallel: d = n x w. */
      rc_grid_vector(g, e);
      c->d[0] = n[1] * e[2] - n[2] * e[1];
      c->d[1] = n[2] * e[0] - n[0] * e[2];
      c->d[2] = n[0] * e[1] - n[1] * e[0];
      if (c->d[0] == 0 && c->d[1] == 0 && c->d[2] == 0) c->d[0] = n[1] + 1;
      rc_grid_point(g, &f, c->o);
      if (sub == 0)
        for (i = 0; i < 3; ++i)
          c->o[i] = p[i]; /* in the plane */
    } else {
      rc_aim(g, c, p, f.s / 16);
    }
    break;
  }
  case RC_raycast_triangle:
  case RC_raycast_tetrahedron: {
    int nv = k == RC_raycast_tetrahedron ? 4 : 3;
    for (j = 0; j < nv; ++j)
      rc_grid_point(g, &f, c->v[j]);
    if (k == RC_raycast_tetrahedron && oracle_rng_int(g, 8) == 0) {
      /* Flat: v3 in the plane of v0 v1 v2 (dyadic combination). */
      for (i = 0; i < 3; ++i)
        c->v[3][i] = (c->v[0][i] + c->v[1][i] + 2 * c->v[2][i]) / 4;
    }
    if (k == RC_raycast_triangle && oracle_rng_int(g, 10) == 0) {
      /* Zero area: v2 on the line of v0 v1. */
      for (i = 0; i < 3; ++i)
        c->v[2][i] = (3 * c->v[0][i] - c->v[1][i]) / 2;
    }
    switch (sub) {
    case 0: /* through a vertex */
      j = oracle_rng_int(g, nv);
      rc_aim(g, c, c->v[j], f.s / 16);
      break;
    case 1:
    case 2: { /* through an edge point (1 - w) a + w b, w dyadic */
      int a = oracle_rng_int(g, nv), b = (a + 1 + oracle_rng_int(g, nv - 1)) % nv;
      double w = ldexp(1.0, -1 - oracle_rng_int(g, 3));
      for (i = 0; i < 3; ++i)
        target[i] = c->v[a][i] + w * (c->v[b][i] - c->v[a][i]);
      if (sub == 1) {
        rc_aim(g, c, target, f.s / 16);
        break;
      }
      /* From far away (2^4 to 2^24 sizes of the triangle), past the edge
       * by a few units in the last place of the origin or none: edge
       * functions tiny beside the vertices' distance from the origin, the
       * case the edge bounds' second stage decides (rounding to float
       * moves these rays off the edge by about as much). */
      rc_aim(g, c, target, f.s / 16 * ldexp(1.0, 4 + oracle_rng_int(g, 21)));
      for (i = 0; i < 3; ++i) {
        int steps = oracle_rng_int(g, 7) - 3;
        for (; steps > 0; --steps)
          c->o[i] = nextafter(c->o[i], INFINITY);
        for (; steps < 0; ++steps)
          c->o[i] = nextafter(c->o[i], -INFINITY);
      }
      break;
    }
    case 3: { /* in the plane of a face */
      for (i = 0; i < 3; ++i) {
        c->d[i] = c->v[1][i] - c->v[0][i] + (c->v[2][i] - c->v[0][i]) / 2;
        target[i] = (c->v[0][i] + c->v[1][i] + 2 * c->v[2][i]) / 4;
      }
      if (c->d[0] == 0 && c->d[1] == 0 && c->d[2] == 0) c->d[2] = 1;
      rc_aim(g, c, target, 1);
      break;
    }
    case 4: { /* start on a face or inside */
      for (i = 0; i < 3; ++i)
        c->o[i] = (c->v[0][i] + c->v[1][i] + 2 * c->v[2][i]) / 4;
      if (k == RC_raycast_tetrahedron && oracle_rng_int(g, 2))
        for (i = 0; i < 3; ++i)
          c->o[i] = (c->v[0][i] + c->v[1][i] + c->v[2][i] + c->v[3][i]) / 4;
      break;
    }
    default: /* axis-parallel ray through a face point */
      for (i = 0; i < 3; ++i) {
        c->d[i] = 0;
        target[i] = (c->v[0][i] + c->v[1][i] + 2 * c->v[2][i]) / 4;
      }
      c->d[oracle_rng_int(g, 3)] = oracle_rng_sign(g);
      rc_aim(g, c, target, f.s);
      break;
    }
    break;
  }
  case RC_raycast_aabb:
  case RC_raycast_obb: {
    double lo[3], hi[3];
    rc_grid_point(g, &f, lo);
    for (i = 0; i < 3; ++i)
      hi[i] = lo[i] + f.s * (1 + oracle_rng_int(g, 16)) / 16.0;
    if (k == RC_raycast_aabb) {
      for (i = 0; i < 3; ++i) {
        c->v[0][i] = lo[i];
        c->v[1][i] = hi[i];
      }
    } else {
      /* A signed permutation of the axes: exact and orthonormal. */
      int perm = oracle_rng_int(g, 3), flip = oracle_rng_int(g, 2);
      for (j = 0; j < 3; ++j) {
        for (i = 0; i < 3; ++i)
          c->v[j + 1][i] = 0;
        c->v[j + 1][(j + perm) % 3] = flip && j == 0 ? -1 : 1;
      }
      for (i = 0; i < 3; ++i) {
        c->v[0][i] = (lo[i] + hi[i]) / 2;
      }
      /* half extents along the permuted axes */
      for (j = 0; j < 3; ++j) {
        int a = (j + perm) % 3;
        c->s[j] = (hi[a] - lo[a]) / 2;
      }
    }
    /* Target: a corner, an edge point or a face point, exactly. */
    for (i = 0; i < 3; ++i) {
      int r = oracle_rng_int(g, 3);
      target[i] = r == 0 ? lo[i] : (r == 1 ? hi[i] : (lo[i] + hi[i]) / 2);
    }
    switch (sub) {
    case 0:
    case 1: /* on slab planes with zero / -0 / subnormal components */
      j = oracle_rng_int(g, 3);
      c->d[j] = rc_tiny_component(g, is_float);
      if (oracle_rng_int(g, 2)) {
        int j2 = (j + 1) % 3;
        c->d[j2] = rc_tiny_component(g, is_float);
      }
      for (i = 0; i < 3; ++i)
        c->o[i] = target[i] - f.s * 2 * (c->d[i] > 1e-30 || c->d[i] < -1e-30 ? c->d[i] : 0);
      break;
    case 2: /* through a corner, edge or face point */
      if (oracle_rng_int(g, 2)) {
        /* or missing a face by a few eps S: parallel to it, outside by
         * 2^j eps S (j in [-2, 8]), across the margin of the cast */
        double eps = is_float ? ORACLE_EPS_FLOAT : ORACLE_EPS_DOUBLE;
        double sc = fmax(rc_maxabs3(lo), rc_maxabs3(hi));
        double dl = ldexp(eps * sc, oracle_rng_int(g, 11) - 2);
        int side = oracle_rng_int(g, 2);
        j = oracle_rng_int(g, 3);
        target[j] = side ? hi[j] + dl : lo[j] - dl;
        c->d[j] = 0;
        if (c->d[0] == 0 && c->d[1] == 0 && c->d[2] == 0) c->d[(j + 1) % 3] = 1;
      }
      rc_aim(g, c, target, f.s / 16);
      break;
    case 3: /* start on the surface or inside */
      for (i = 0; i < 3; ++i)
        c->o[i] = target[i];
      break;
    case 4: /* parallel to an axis */
      for (i = 0; i < 3; ++i)
        c->d[i] = 0;
      c->d[oracle_rng_int(g, 3)] = oracle_rng_sign(g) * f.s;
      for (i = 0; i < 3; ++i)
        c->o[i] = target[i] - 2 * c->d[i];
      break;
    default:
      rc_grid_point(g, &f, c->o);
      break;
    }
    break;
  }
  case RC_raycast_sphere:
  case RC_raycast_capsule: {
    /* Exact surface points: radius 5 m, offsets m (3, 4, 0) permuted. */
    double m = f.s / 16 * (1 + oracle_rng_int(g, 3)), off[3], tan[3];
    int p = oracle_rng_int(g, 3);
    c->s[0] = 5 * m;
    rc_grid_point(g, &f, c->v[0]);
    for (i = 0; i < 3; ++i)
      c->v[1][i] = c->v[0][i];
    if (k == RC_raycast_capsule)
      c->v[1][oracle_rng_int(g, 3)] += f.s * (oracle_rng_int(g, 17) - 8) / 8;
    off[p] = 3 * m * oracle_rng_sign(g);
    off[(p + 1) % 3] = 4 * m * oracle_rng_sign(g);
    off[(p + 2) % 3] = 0;
    /* a tangent: perpendicular to off, exact */
    tan[p] = off[(p + 1) % 3];
    tan[(p + 1) % 3] = -off[p];
    tan[(p + 2) % 3] = 0;
    if (oracle_rng_int(g, 2)) {
      tan[0] = tan[1] = tan[2] = 0;
      tan[(p + 2) % 3] = m;
    }
    {
      /* Surface point around v[0] (a sphere point; for a capsule a cap
       * point, on the surface when it is outside the other ball and
       * cylinder, else inside). */
      double sp[3];
      for (i = 0; i < 3; ++i)
        sp[i] = c->v[0][i] + off[i];
      switch (sub) {
      case 0: /* grazing: tangent ray through a surface point */
      case 1:
        if (sub == 1) {
          /* or missing the surface by 2^j eps S (j in [-2, 8]): the
           * tangent ray through sp moved out along off (off / 5m is a
           * unit vector), across the margin of the cast */
          double eps = is_float ? ORACLE_EPS_FLOAT : ORACLE_EPS_DOUBLE;
          double dl = ldexp(eps * (rc_maxabs3(c->v[0]) + 5 * m), oracle_rng_int(g, 11) - 2);
          for (i = 0; i < 3; ++i)
            sp[i] += dl * off[i] / (5 * m);
        }
        for (i = 0; i < 3; ++i)
          c->d[i] = tan[i];
        rc_aim(g, c, sp, 1);
        break;
      case 2: /* start on the surface, random direction */
        for (i = 0; i < 3; ++i)
          c->o[i] = sp[i];
        break;
      case 3: /* start inside */
        for (i = 0; i < 3; ++i)
          c->o[i] = c->v[0][i] + off[i] / 2;
        break;
      case 4: /* aimed at the center */
        rc_aim(g, c, c->v[0], f.s / 16);
        break;
      default: /* zero direction components */
        j = oracle_rng_int(g, 3);
        c->d[j] = rc_tiny_component(g, is_float);
        rc_grid_point(g, &f, c->o);
        break;
      }
    }
    break;
  }
  }
  if (c->d[0] == 0 && c->d[1] == 0 && c->d[2] == 0 && oracle_rng_int(g, 4) != 0) c->d[0] = 1;
}

/* ------------------------------------------------------------------------ */
/* Checking one case                                                        */
/* ------------------------------------------------------------------------ */

/* Exact line interval of a case's solid grown by gr. */
static void rc_line(ory_iv *v, const rc_case *c, const ory_ray *r, double gr) {
  q3 a, b, ax[3], tv[4];
  int i;
  q3_init(&a);
  q3_init(&b);
  switch (c->k) {
  case RC_raycast_aabb:
    q3_set_d(&a, c->v[0][0], c->v[0][1], c->v[0][2]);
    q3_set_d(&b, c->v[1][0], c->v[1][1], c->v[1][2]);
    ory_line_aabb(v, r, &a, &b, gr);
    break;
  case RC_raycast_obb:
    q3_set_d(&a, c->v[0][0], c->v[0][1], c->v[0][2]);
    for (i = 0; i < 3; ++i) {
      q3_init(&ax[i]);
      q3_set_d(&ax[i], c->v[i + 1][0], c->v[i + 1][1], c->v[i + 1][2]);
    }
    ory_line_obb(v, r, &a, ax, c->s, gr);
    for (i = 0; i < 3; ++i)
      q3_clear(&ax[i]);
    break;
  case RC_raycast_sphere:
    q3_set_d(&a, c->v[0][0], c->v[0][1], c->v[0][2]);
    ory_line_ball(v, r, &a, c->s[0], gr);
    break;
  case RC_raycast_capsule:
    q3_set_d(&a, c->v[0][0], c->v[0][1], c->v[0][2]);
    q3_set_d(&b, c->v[1][0], c->v[1][1], c->v[1][2]);
    ory_line_capsule(v, r, &a, &b, c->s[0], gr);
    break;
  default:
    for (i = 0; i < 4; ++i) {
      q3_init(&tv[i]);
      q3_set_d(&tv[i], c->v[i][0], c->v[i][1], c->v[i][2]);
    }
    ory_line_tet(v, r, tv, gr);
    for (i = 0; i < 4; ++i)
      q3_clear(&tv[i]);
    break;
  }
  q3_clear(&a);
  q3_clear(&b);
}

/* |t - exact| |d| / (eps S). */
/* The Euclidean length of a, scaled by a power of two on the way (no
 * overflow or underflow at the ends of the domains). */
static double rc_len3(const double *a) {
  double m = rc_maxabs3(a), x, y, z;
  int e;
  if (!(m > 0) || !isfinite(m)) return m;
  (void)frexp(m, &e);
  x = ldexp(a[0], -e), y = ldexp(a[1], -e), z = ldexp(a[2], -e);
  return ldexp(sqrt(x * x + y * y + z * z), e);
}

static double rc_terr(double t, const mpq_t exact, double dl, double eps, double S) {
  return oracle_err(t, exact, eps * S / dl);
}

/* The result of a hit is finite, but for an exit at +inf (a ray that never
 * leaves, or leaves beyond the largest real). */
static int rc_finite_result(const rc_res *r) {
  int i, ok = isfinite(r->t) && (isfinite(r->tx) || r->tx == INFINITY);
  for (i = 0; i < 3; ++i)
    ok = ok && isfinite(r->p[i]) && isfinite(r->n[i]) && isfinite(r->bary[i]);
  return ok;
}

static int rc_tet_flat(const rc_case *c) {
  q3 tv[4];
  int i, s;
  for (i = 0; i < 4; ++i) {
    q3_init(&tv[i]);
    q3_set_d(&tv[i], c->v[i][0], c->v[i][1], c->v[i][2]);
  }
  s = ory_orient3d(&tv[0], &tv[1], &tv[2], &tv[3]);
  for (i = 0; i < 4; ++i)
    q3_clear(&tv[i]);
  return s == 0;
}

static void rc_note(const rc_case *c, int is_float, const rc_res *r) {
  int j;
  h_note("%s %s: o (%a, %a, %a) d (%a, %a, %a) t [%a, %a]", rc_names[c->k],
         is_float ? "float" : "double", c->o[0], c->o[1], c->o[2], c->d[0], c->d[1], c->d[2],
         c->tmin, c->tmax);
  for (j = 0; j < 4; ++j)
    h_note("  v%d (%a, %a, %a)", j, c->v[j][0], c->v[j][1], c->v[j][2]);
  h_note("  s (%a, %a, %a)", c->s[0], c->s[1], c->s[2]);
  h_note("  got hit %d inside %d t %a tx %a feature %d %d", r->hit, r->inside, r->t, r->tx, r->kind,
         r->index);
}

/* Checks a flat tetrahedron: the union of its faces, never inside; the
 * hit/miss decision against the exact line-face tests. */
static void rc_check_flat_tet(const rc_case *c, const ory_ray *R, const rc_res *r, ory_row *row,
                              double band, double S, int is_float) {
  static const int faces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  q3 tv[3];
  mpq_t t, best;
  int f, i, any = 0, zeros, best_set = 0;
  double cosv, dl;
  double dd[3];
  q3_get_d(&R->d, dd);
  dl = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
  mpq_inits(t, best, NULL);
  for (i = 0; i < 3; ++i)
    q3_init(&tv[i]);
  for (f = 0; f < 4; ++f) {
    for (i = 0; i < 3; ++i)
      q3_set_d(&tv[i], c->v[faces[f][i]][0], c->v[faces[f][i]][1], c->v[faces[f][i]][2]);
    if (ory_line_triangle(t, &zeros, &cosv, R, tv, 1)) {
      any = 1;
      if (!best_set || mpq_cmp(t, best) < 0) mpq_set(best, t);
      best_set = 1;
    }
  }
  if (any) {
    /* The crossing must be in the interval (unless within the band). */
    double tb = mpq_get_d(best), tol = band * S / dl;
    int in = tb >= c->tmin && tb <= fmax(c->tmin, c->tmax);
    int near = fabs(tb - c->tmin) <= tol || fabs(tb - c->tmax) <= tol;
    if (!near) {
      ++row->decided;
      CHECK_MSG(r->hit == in, "flat tetrahedron: hit %d, exact %d", r->hit, in);
    } else {
      ++row->amb;
      row->amb_diff += r->hit != in;
    }
    if (r->hit) CHECK(r->inside == 0);
  } else {
    ++row->decided;
    CHECK_MSG(!r->hit, "flat tetrahedron: hit, exact miss");
  }
  (void)is_float;
  for (i = 0; i < 3; ++i)
    q3_clear(&tv[i]);
  mpq_clears(t, best, NULL);
}

/* Checks a solid's cast. */
static void rc_check_solid(const rc_case *c, const ory_ray *R, const rc_res *r, ory_row *row,
                           double b, double S, double eps, int is_float) {
  ory_iv ex, gr, sh;
  ory_hit H, G, Sh;
  double dd[3], dl;
  ory_iv_init(&ex);
  ory_iv_init(&gr);
  ory_iv_init(&sh);
  ory_hit_init(&H);
  ory_hit_init(&G);
  ory_hit_init(&Sh);
  q3_get_d(&R->d, dd);
  dl = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
  rc_line(&ex, c, R, 0);
  rc_line(&gr, c, R, b);
  rc_line(&sh, c, R, -b);
  ory_clip(&H, &ex, c->tmin, c->tmax);
  ory_clip(&G, &gr, c->tmin, c->tmax);
  ory_clip(&Sh, &sh, c->tmin, c->tmax);
  /* A hit whose entry parameter exceeds the largest real of the precision
   * (a subnormal direction) cannot be reported; prox reports a miss. */
  if (H.hit && !H.t_inf && fabs(mpq_get_d(H.t)) > (is_float ? (double)FLT_MAX : DBL_MAX))
    H.hit = G.hit = Sh.hit = 0;
  if (H.hit) CHECK_MSG(r->hit, "%s: exact hit reported as a miss", rc_names[c->k]);
  if (!G.hit) CHECK_MSG(!r->hit, "%s: clear miss reported as a hit", rc_names[c->k]);
  if (H.hit != G.hit || H.hit != Sh.hit) {
    ++row->amb;
    row->amb_diff += r->hit != H.hit;
  } else {
    ++row->decided;
  }
  if (r->hit && H.hit && Sh.hit && !H.t_inf) {
    int clear_inside = G.inside == Sh.inside;
    if (clear_inside)
      CHECK_MSG(r->inside == H.inside, "%s: inside %d, exact %d", rc_names[c->k], r->inside,
                H.inside);
    if (clear_inside && !H.inside) {
      double e = rc_terr(r->t, H.t, dl, eps, S);
      if (ex.cos_in >= RC_COND) {
        oracle_max(&row->t_err, e);
        CHECK_MSG(e <= RC_TBOUND, "%s: entry t error %g eps S (cos %g)", rc_names[c->k], e,
                  ex.cos_in);
      } else {
        oracle_max(&row->t_ill, e);
      }
      /* Boxes decide edges and vertices from equal computed slab
       * parameters: a point exactly on an edge lies on the boundary of its
       * faces, ambiguous by definition; only face entries are checked
       * there. The tetrahedron's are exact (exact edge signs). */
      if (ex.fmargin > b && ex.kind != ORACLE_INTERIOR &&
          !((c->k == RC_raycast_aabb || c->k == RC_raycast_obb) && ex.kind != ORACLE_FACE)) {
        ++row->feat;
        CHECK_MSG(r->kind == ex.kind && r->index == ex.index, "%s: feature %d %d, exact %d %d",
                  rc_names[c->k], r->kind, r->index, ex.kind, ex.index);
      }
      /* Outward normal: against the direction. */
      CHECK(r->n[0] * dd[0] + r->n[1] * dd[1] + r->n[2] * dd[2] <= 0);
      CHECK(fabs(r->n[0] * r->n[0] + r->n[1] * r->n[1] + r->n[2] * r->n[2] - 1) < 1e-4);
    } else if (clear_inside) {
      /* Inside: t is tmin exactly. */
      CHECK(r->t == (is_float ? (double)(float)c->tmin : c->tmin));
    }
    if (!H.tx_inf && !G.tx_inf && ex.cos_out >= RC_COND && clear_inside &&
        fabs(mpq_get_d(H.tx)) <= (is_float ? FLT_MAX : DBL_MAX)) {
      double e = rc_terr(r->tx, H.tx, dl, eps, S);
      oracle_max(&row->tx_err, e);
      CHECK_MSG(e <= RC_TBOUND, "%s: exit t error %g eps S", rc_names[c->k], e);
    }
  }
  ory_iv_clear(&ex);
  ory_iv_clear(&gr);
  ory_iv_clear(&sh);
  ory_hit_clear(&H);
  ory_hit_clear(&G);
  ory_hit_clear(&Sh);
}

/* Checks a surface's cast (plane, triangle). */
static void rc_check_surface(const rc_case *c, const ory_ray *R, const rc_res *r, ory_row *row,
                             double band, double S, double eps) {
  mpq_t t;
  double dd[3], dl, cosv = 1;
  int exact, zeros = 0, near = 0;
  mpq_init(t);
  q3_get_d(&R->d, dd);
  dl = rc_len3(dd);
  if (c->k == RC_raycast_plane) {
    q3 n;
    mpq_t nd, off;
    q3_init(&n);
    mpq_inits(nd, off, NULL);
    q3_set_d(&n, c->v[0][0], c->v[0][1], c->v[0][2]);
    q3_dot(nd, &n, &R->d);
    exact = mpq_sgn(nd) != 0;
    if (exact) {
      mpq_set_d(off, c->s[0]);
      q3_dot(t, &n, &R->o);
      mpq_sub(t, off, t);
      mpq_div(t, t, nd);
      cosv = ory_cos(nd, &n, &R->d);
    }
    q3_clear(&n);
    mpq_clears(nd, off, NULL);
  } else {
    q3 tv[3];
    int i;
    for (i = 0; i < 3; ++i) {
      q3_init(&tv[i]);
      q3_set_d(&tv[i], c->v[i][0], c->v[i][1], c->v[i][2]);
    }
    exact = ory_line_triangle(t, &zeros, &cosv, R, tv, 0);
    for (i = 0; i < 3; ++i)
      q3_clear(&tv[i]);
  }
  if (exact) {
    double tmax = fmax(c->tmin, c->tmax), tol = band * S / (dl * cosv);
    double te = mpq_get_d(t), big = eps > ORACLE_EPS_DOUBLE ? FLT_MAX : DBL_MAX;
    /* Whether the exact t lies in [tmin, tmax], compared exactly. */
    exact = (isinf(c->tmin) ? c->tmin < 0 : ory_cmp_d(t, c->tmin) >= 0) &&
            (isinf(tmax) ? tmax > 0 : ory_cmp_d(t, tmax) <= 0);
    near = fabs(te - c->tmin) <= tol || (isfinite(tmax) && fabs(te - tmax) <= tol);
    /* The triangle cast decides the sign of t exactly (raycast.h): an end
     * of the interval at 0 has no margin. */
    if (c->k == RC_raycast_triangle)
      near = (c->tmin != 0 && fabs(te - c->tmin) <= tol) ||
             (isfinite(tmax) && tmax != 0 && fabs(te - tmax) <= tol);
    /* A t beyond the largest finite real is not reported (either answer
     * within the rounding of t there). */
    if (!(fabs(te) <= big * (1 - 0x1p-10))) {
      near |= fabs(te) <= big * (1 + 0x1p-10);
      exact = 0;
    }
  }
  if (near) {
    ++row->amb;
    row->amb_diff += r->hit != exact;
  } else {
    ++row->decided;
    CHECK_MSG(r->hit == exact, "%s: hit %d, exact %d", rc_names[c->k], r->hit, exact);
  }
  if (r->hit && exact) {
    double e = rc_terr(r->t, t, dl, eps, S);
    if (cosv >= RC_COND) {
      oracle_max(&row->t_err, e);
      CHECK_MSG(e <= RC_TBOUND, "%s: t error %g eps S (cos %g)", rc_names[c->k], e, cosv);
    } else {
      oracle_max(&row->t_ill, e);
    }
    CHECK(r->tx == r->t && r->inside == 0);
    if (c->k == RC_raycast_triangle) {
      int kind = ORACLE_FACE, index = 0;
      if (zeros == 3 || zeros == 5 || zeros == 6) {
        kind = ORACLE_VERTEX;
        index = zeros == 6 ? 0 : (zeros == 5 ? 1 : 2);
      } else if (zeros) {
        kind = ORACLE_EDGE;
        index = zeros == 1 ? 1 : (zeros == 2 ? 2 : 0);
      }
      ++row->feat;
      CHECK_MSG(r->kind == kind && r->index == index, "triangle feature %d %d, exact %d %d",
                r->kind, r->index, kind, index);
      CHECK(r->bary[0] >= 0 && r->bary[1] >= 0 && r->bary[2] >= 0);
      CHECK(fabs(r->bary[0] + r->bary[1] + r->bary[2] - 1) < 1e-4);
    }
  }
  mpq_clear(t);
}

static void rc_check(rc_case *c, int is_float, int kind) {
  rc_res r;
  ory_ray R;
  ory_row *row;
  double eps = is_float ? ORACLE_EPS_FLOAT : ORACLE_EPS_DOUBLE;
  double S, band = RC_MARGIN * eps;
  if (is_float) rc_to_float(c);
  row = ory_row_get(rc_names[c->k], is_float ? "float" : "double", kind);
  rc_run(c, is_float, &r);
  ++row->cases;
  h_case_begin();
  CHECK(r.ret == r.hit);
  CHECK_MSG(r.ret_null == r.ret, "%s: %d with out = NULL, %d with out", rc_names[c->k], r.ret_null,
            r.ret);
  if (r.hit) {
    ++row->hits;
    CHECK_MSG(rc_finite_result(&r), "%s: non-finite result of a hit", rc_names[c->k]);
    /* Every hit from outside has a unit normal, conservative hits of a
     * solid (rays that miss by less than the margin) included. */
    if (!r.inside && !(c->k == RC_raycast_tetrahedron && rc_tet_flat(c)))
      CHECK_MSG(fabs(r.n[0] * r.n[0] + r.n[1] * r.n[1] + r.n[2] * r.n[2] - 1) < 1e-4,
                "%s: normal (%g, %g, %g) of a hit is not unit", rc_names[c->k], r.n[0], r.n[1],
                r.n[2]);
  }
  S = rc_scale(c);
  ory_ray_init(&R);
  q3_set_d(&R.o, c->o[0], c->o[1], c->o[2]);
  q3_set_d(&R.d, c->d[0], c->d[1], c->d[2]);
  R.tmin = c->tmin;
  R.tmax = c->tmax;
  if (q3_is_zero(&R.d) && (c->k == RC_raycast_plane || c->k == RC_raycast_triangle)) {
    CHECK(!r.hit);
  } else if (c->k == RC_raycast_plane || c->k == RC_raycast_triangle) {
    rc_check_surface(c, &R, &r, row, band, S, eps);
  } else if (c->k == RC_raycast_tetrahedron && rc_tet_flat(c)) {
    rc_check_flat_tet(c, &R, &r, row, band, S, is_float);
  } else {
    rc_check_solid(c, &R, &r, row, band * rc_kernel_scale(c, S), S, eps, is_float);
  }
  if (h_case_failed()) rc_note(c, is_float, &r);
  ory_ray_clear(&R);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */
/* ------------------------------------------------------------------------ */

static void rc_kernel_test(int k) {
  int kind, prec;
  long i, n = h_count(5000);
  for (prec = 0; prec < 2; ++prec) {
    for (kind = 0; kind < ORACLE_KINDS; ++kind) {
      oracle_rng g = oracle_rng_named((uint64_t)(10 * kind + prec + 12345), rc_names[k]);
      for (i = 0; i < n; ++i) {
        rc_case c;
        if (kind == ORACLE_ADVERSARIAL)
          rc_gen_adversarial(&g, k, prec, &c);
        else
          rc_gen_general(&g, k, kind, &c);
        rc_check(&c, prec, kind);
      }
    }
  }
}

/* One test per ray cast of the registry: test_<name>. */
#define RC_TEST(name, prim, solid)                                                                 \
  static void test_##name(void) {                                                                  \
    rc_kernel_test(RC_##name);                                                                     \
  }
PROX_KERNELS_K3(RC_TEST)

/* The documented special cases, both precisions. */
static void test_raycast_documented(void) {
  prox_ray r;
  prox_rayhit h;
  prox_aabb b;
  prox_triangle t;
  prox_sphere s;
  prox_plane pl;
  prox_rayf rf;
  prox_rayhitf hf;
  prox_aabbf bf;
  double nan = NAN, inf = INFINITY;
  b.min = prox_v3(-1, -1, -1);
  b.max = prox_v3(1, 1, 1);
  bf.min = prox_v3f(-1, -1, -1);
  bf.max = prox_v3f(1, 1, 1);
  /* Origin on the slab plane x = -1 with d.x = -0: grazes the face. */
  r = prox_ray_make(prox_v3(-1, -3, 0), prox_v3(-0.0, 1, 0));
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.t == 2 && h.t_exit == 4);
  rf = prox_ray_makef(prox_v3f(-1, -3, 0), prox_v3f(-0.0f, 1, 0));
  CHECK(prox_raycast_aabbf(&rf, &bf, &hf) && hf.t == 2 && hf.t_exit == 4);
  /* Subnormal component, origin on a slab plane: moving in hits, moving
   * out leaves the slab at t = 0, before the box. */
  r = prox_ray_make(prox_v3(1, -3, 0), prox_v3(-DBL_TRUE_MIN, 1, 0));
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.t == 2);
  rf = prox_ray_makef(prox_v3f(1, -3, 0), prox_v3f(-FLT_TRUE_MIN, 1, 0));
  CHECK(prox_raycast_aabbf(&rf, &bf, &hf) && hf.t == 2);
  r = prox_ray_make(prox_v3(1, -3, 0), prox_v3(DBL_TRUE_MIN, 1, 0));
  CHECK(!prox_raycast_aabb(&r, &b, &h));
  rf = prox_ray_makef(prox_v3f(1, -3, 0), prox_v3f(FLT_TRUE_MIN, 1, 0));
  CHECK(!prox_raycast_aabbf(&rf, &bf, &hf));
  /* Start on the surface, leaving: hit at tmin, inside, exit tmin. */
  r = prox_ray_make(prox_v3(1, 0.5, 0.5), prox_v3(1, 0, 0));
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.t == 0 && h.t_exit == 0 && h.inside == 1 &&
        h.feature.kind == PROX_FEATURE_INTERIOR);
  /* Start inside. */
  r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(0, 0, 2));
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.inside && h.t == 0 && h.t_exit == 0.5);
  /* Entry through an edge exactly: EDGE feature. */
  r = prox_ray_make(prox_v3(-2, -2, 0), prox_v3(1, 1, 0));
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.t == 1 && h.feature.kind == PROX_FEATURE_EDGE &&
        h.feature.index == 8);
  /* Zero direction: the point. */
  r = prox_ray_make(prox_v3(0.5, 0, 0), prox_v3(0, 0, 0));
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.inside && h.t == 0);
  r = prox_ray_make(prox_v3(5, 0, 0), prox_v3(0, 0, 0));
  CHECK(!prox_raycast_aabb(&r, &b, &h));
  /* tmax < tmin: the single parameter tmin. */
  r = prox_ray_make(prox_v3(-2, 0, 0), prox_v3(1, 0, 0));
  r.tmin = 1.5;
  r.tmax = 0;
  CHECK(prox_raycast_aabb(&r, &b, &h) && h.t == 1.5 && h.inside);
  /* Non-finite input: no hit, NaN fields. */
  r = prox_ray_make(prox_v3(nan, 0, 0), prox_v3(1, 0, 0));
  CHECK(!prox_raycast_aabb(&r, &b, &h) && !h.hit && h.t != h.t);
  r = prox_ray_make(prox_v3(-2, 0, 0), prox_v3(inf, 0, 0));
  CHECK(!prox_raycast_aabb(&r, &b, &h));
  t.v[0] = prox_v3(0, 0, 0);
  t.v[1] = prox_v3(1, 0, 0);
  t.v[2] = prox_v3(0, 1, 0);
  r = prox_ray_make(prox_v3(0.25, 0.25, 1), prox_v3(0, 0, nan));
  CHECK(!prox_raycast_triangle(&r, &t, &h));
  r = prox_ray_make(prox_v3(0.25, 0.25, 1), prox_v3(0, 0, -1));
  r.tmax = nan;
  CHECK(!prox_raycast_triangle(&r, &t, &h));
  s.center = prox_v3(inf, 0, 0);
  s.radius = 1;
  r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(1, 0, 0));
  CHECK(!prox_raycast_sphere(&r, &s, &h));
  /* A ray in the triangle's plane, and a zero-area triangle: no hit. */
  r = prox_ray_make(prox_v3(-1, 0.25, 0), prox_v3(1, 0, 0));
  CHECK(!prox_raycast_triangle(&r, &t, &h));
  t.v[2] = prox_v3(0.5, 0, 0);
  r = prox_ray_make(prox_v3(0.25, 0, 1), prox_v3(0, 0, -1));
  CHECK(!prox_raycast_triangle(&r, &t, &h));
  /* The triangle's barycentrics and normal. */
  t.v[2] = prox_v3(0, 1, 0);
  r = prox_ray_make(prox_v3(0.25, 0.5, 2), prox_v3(0, 0, -2));
  CHECK(prox_raycast_triangle(&r, &t, &h) && h.t == 1 && h.bary[0] == 0.25 && h.bary[1] == 0.25 &&
        h.bary[2] == 0.5 && h.normal.z == 1 && h.feature.kind == PROX_FEATURE_FACE);
  /* A plane with a zero normal, and a ray in a plane: no hit. */
  pl.normal = prox_v3(0, 0, 0);
  pl.offset = 0;
  CHECK(!prox_raycast_plane(&r, &pl, &h));
  pl.normal = prox_v3(0, 0, 2);
  pl.offset = 4;
  r = prox_ray_make(prox_v3(0, 0, 2), prox_v3(1, 0, 0));
  CHECK(!prox_raycast_plane(&r, &pl, &h));
  r = prox_ray_make(prox_v3(0, 0, 0), prox_v3(0, 0, 4));
  CHECK(prox_raycast_plane(&r, &pl, &h) && h.t == 0.5 && h.normal.z == 1);
  /* NULL result. */
  CHECK(prox_raycast_plane(&r, &pl, NULL) == 1);
}

/* ------------------------------------------------------------------------ */
/* Rays that start exactly on a triangle (issue 13, defect 1)               */
/* ------------------------------------------------------------------------ */

/* Integer vectors: the oracle of the on-surface rays is exact integer
 * arithmetic (every coordinate below is a small integer or a dyadic
 * fraction with a small numerator). */
typedef struct rs_iv {
  int64_t x, y, z;
} rs_iv;

static rs_iv rs_isub(rs_iv a, rs_iv b) {
  rs_iv r = {a.x - b.x, a.y - b.y, a.z - b.z};
  return r;
}

/* ((b - a) x (c - a)) . d, exactly. */
static int64_t rs_orient(rs_iv a, rs_iv b, rs_iv c, rs_iv d) {
  rs_iv u = rs_isub(b, a), v = rs_isub(c, a);
  return (u.y * v.z - u.z * v.y) * d.x + (u.z * v.x - u.x * v.z) * d.y +
         (u.x * v.y - u.y * v.x) * d.z;
}

static rs_iv rs_irand(oracle_rng *g, int n) {
  rs_iv r;
  r.x = oracle_rng_int(g, 2 * n + 1) - n;
  r.y = oracle_rng_int(g, 2 * n + 1) - n;
  r.z = oracle_rng_int(g, 2 * n + 1) - n;
  return r;
}

/* Casts in one precision the ray o + t d, t in [0, inf), against the
 * triangle (a, b, c), the origin given as the dyadic point
 * (wa a + wb b + wc c) / 2^m (exact in float and double for the sizes
 * used). Returns 1 on a hit; *t gets t. */
static int rs_cast(int is_float, rs_iv a, rs_iv b, rs_iv c, int wa, int wb, int wc, int m, rs_iv d,
                   double *t) {
  double s = ldexp(1.0, -m);
  double ox = s * (double)(wa * a.x + wb * b.x + wc * c.x);
  double oy = s * (double)(wa * a.y + wb * b.y + wc * c.y);
  double oz = s * (double)(wa * a.z + wb * b.z + wc * c.z);
  int hit;
  if (is_float) {
    prox_trianglef tri;
    prox_rayf r = prox_ray_makef(prox_v3f((float)ox, (float)oy, (float)oz),
                                 prox_v3f((float)d.x, (float)d.y, (float)d.z));
    prox_rayhitf h;
    tri.v[0] = prox_v3f((float)a.x, (float)a.y, (float)a.z);
    tri.v[1] = prox_v3f((float)b.x, (float)b.y, (float)b.z);
    tri.v[2] = prox_v3f((float)c.x, (float)c.y, (float)c.z);
    hit = prox_raycast_trianglef(&r, &tri, &h);
    *t = (double)h.t;
  } else {
    prox_triangle tri;
    prox_ray r = prox_ray_make(prox_v3(ox, oy, oz), prox_v3((double)d.x, (double)d.y, (double)d.z));
    prox_rayhit h;
    tri.v[0] = prox_v3((double)a.x, (double)a.y, (double)a.z);
    tri.v[1] = prox_v3((double)b.x, (double)b.y, (double)b.z);
    tri.v[2] = prox_v3((double)c.x, (double)c.y, (double)c.z);
    hit = prox_raycast_triangle(&r, &tri, &h);
    *t = h.t;
  }
  return hit;
}

/* Rays from exact points of a triangle (tmin = 0): a ray that is not in
 * the triangle's plane hits at t = 0 exactly; a ray from an exact point of
 * an edge shared by two triangles hits exactly one of them at t = 0 when
 * the line crosses the pair there (the two far vertices on opposite sides
 * seen along the ray), both or neither when it only touches it. */
static void test_raycast_on_surface(void) {
  oracle_rng g = oracle_rng_make(1313);
  long n = h_count(20000), i, face = 0, edge = 0;
  int prec;
  /* The inputs: a face point, and a point of a shared edge. */
  {
    rs_iv a = {8, 0, 0}, b = {0, 8, 0}, c = {0, 0, 8}, d = {0, 3, -1};
    /* o = (5, 1, 2) = (5 a + 1 b + 2 c) / 8. */
    for (prec = 0; prec < 2; ++prec) {
      double t = -1;
      CHECK_MSG(rs_cast(prec, a, b, c, 5, 1, 2, 3, d, &t) && t == 0,
                "%s: the face point (5, 1, 2) along (0, 3, -1): t %a", prec ? "float" : "double",
                t);
    }
  }
  {
    /* T1 = (49.5, 72, 22.5), (11.5, 24, -3.5), (-38.5, 56, -13.5) and
     * T2 = (11.5, 24, -3.5), (49.5, 72, 22.5), (99.5, 40, 32.5), all
     * doubled to integers; o = (21, 36, 3) = (v0 + 3 v1) / 4 of T1 (in the
     * doubled frame too), d = (0.375, -0.5, -0.75) times 8. */
    rs_iv p = {99, 144, 45}, q = {23, 48, -7}, r = {-77, 112, -27}, e = {199, 80, 65},
          d = {3, -4, -6};
    for (prec = 0; prec < 2; ++prec) {
      double t1 = -1, t2 = -1;
      int h1 = rs_cast(prec, p, q, r, 1, 3, 0, 2, d, &t1);
      int h2 = rs_cast(prec, q, p, e, 3, 1, 0, 2, d, &t2);
      CHECK_MSG(h1 + h2 == 1 && (h1 ? t1 : t2) == 0,
                "%s: the shared-edge point (21, 36, 3): hits %d %d, t %a %a",
                prec ? "float" : "double", h1, h2, t1, t2);
    }
  }
  for (i = 0; i < n; ++i) {
    rs_iv a = rs_irand(&g, 64), b = rs_irand(&g, 64), c = rs_irand(&g, 64);
    rs_iv e = rs_irand(&g, 64), d = rs_irand(&g, 8);
    int m = 2 + oracle_rng_int(&g, 6), tot = 1 << m;
    int wa = 1 + oracle_rng_int(&g, tot - 2), wb, wc;
    int64_t side1, side2;
    wb = 1 + oracle_rng_int(&g, tot - wa - 1);
    wc = tot - wa - wb;
    side1 = rs_orient(a, b, c, d);
    if (side1 != 0) {
      /* A face point (every weight positive): t = 0 exactly. */
      for (prec = 0; prec < 2; ++prec) {
        double t = -1;
        int hit = rs_cast(prec, a, b, c, wa, wb, wc, m, d, &t);
        ++face;
        CHECK_MSG(hit && t == 0,
                  "%s: face point (%d a + %d b + %d c) / 2^%d of a = (%lld, "
                  "%lld, %lld), b = (%lld, %lld, %lld), c = (%lld, %lld, "
                  "%lld), d = (%lld, %lld, %lld): hit %d, t %a",
                  prec ? "float" : "double", wa, wb, wc, m, (long long)a.x, (long long)a.y,
                  (long long)a.z, (long long)b.x, (long long)b.y, (long long)b.z, (long long)c.x,
                  (long long)c.y, (long long)c.z, (long long)d.x, (long long)d.y, (long long)d.z,
                  hit, t);
      }
    }
    /* A point of the edge a b shared by (a, b, c) and (b, a, e). */
    side2 = rs_orient(b, a, e, d);
    if (side1 != 0 && side2 != 0 && rs_orient(a, b, c, e) != 0) {
      int wx = 1 + oracle_rng_int(&g, tot - 1);
      for (prec = 0; prec < 2; ++prec) {
        double t1 = -1, t2 = -1;
        int h1 = rs_cast(prec, a, b, c, wx, tot - wx, 0, m, d, &t1);
        int h2 = rs_cast(prec, b, a, e, tot - wx, wx, 0, m, d, &t2);
        /* Consistent orientation: the line crosses the pair at the edge
         * when the two faces face the same way along d. */
        int cross = (side1 > 0) == (side2 > 0);
        ++edge;
        CHECK_MSG((cross && h1 + h2 == 1) || (!cross && h1 == h2),
                  "%s: edge point %d/2^%d of a = (%lld, %lld, %lld), b = "
                  "(%lld, %lld, %lld); c = (%lld, %lld, %lld), e = (%lld, "
                  "%lld, %lld), d = (%lld, %lld, %lld): hits %d %d (cross "
                  "%d)",
                  prec ? "float" : "double", wx, m, (long long)a.x, (long long)a.y, (long long)a.z,
                  (long long)b.x, (long long)b.y, (long long)b.z, (long long)c.x, (long long)c.y,
                  (long long)c.z, (long long)e.x, (long long)e.y, (long long)e.z, (long long)d.x,
                  (long long)d.y, (long long)d.z, h1, h2, cross);
        CHECK((!h1 || t1 == 0) && (!h2 || t2 == 0));
      }
    }
  }
  printf("  %ld face-point and %ld edge-point rays (both precisions "
         "together) from exact points of triangles\n",
         face, edge);
}

/* Solids of radius 0 (issue 13: a zero-radius sphere hit reported the
 * normal (0, 0, 0)): hit where the ray passes through the center or the
 * core segment, with the unit normal -dir normalised (on a capsule's side,
 * without its component along the segment), in both precisions. Case 3:
 * the ray passes a subnormal distance from the center, the normal points
 * from the center to the hit point (it was NaN: 1 / |n| overflowed). */
static void test_raycast_zero_radius(void) {
  int prec, c;
  for (prec = 0; prec < 2; ++prec)
    for (c = 0; c < 4; ++c) {
      /* c = 0: sphere; 1: capsule side; 2: capsule end, along the axis;
       * 3: sphere, ray passing a subnormal distance from the center. */
      double o[3] = {-2, 0.5, 0.25}, d[3] = {4, 0, 0}, n[3], len;
      double want[3];
      int hit, i;
      if (c == 1) o[1] = 1, d[1] = -2; /* crosses the axis at (0, 0) */
      if (c == 2) o[0] = -3, o[1] = 0, o[2] = 0;
      if (c == 3) o[1] = prec ? 0x1p-140 : 0x1p-1060;
      if (prec == 0) {
        prox_ray r = prox_ray_make(prox_v3(o[0], o[1], o[2]), prox_v3(d[0], d[1], d[2]));
        prox_rayhit h;
        if (c == 0 || c == 3) {
          prox_sphere s;
          s.center = prox_v3(0, c == 3 ? 0 : 0.5, 0.25);
          s.radius = 0;
          hit = prox_raycast_sphere(&r, &s, &h);
        } else {
          prox_capsule k;
          k.a = c == 1 ? prox_v3(-1, -1, 0.25) : prox_v3(-1, 0, 0);
          k.b = c == 1 ? prox_v3(3, 3, 0.25) : prox_v3(1, 0, 0);
          k.radius = 0;
          hit = prox_raycast_capsule(&r, &k, &h);
        }
        n[0] = h.normal.x, n[1] = h.normal.y, n[2] = h.normal.z;
      } else {
        prox_rayf r = prox_ray_makef(prox_v3f((float)o[0], (float)o[1], (float)o[2]),
                                     prox_v3f((float)d[0], (float)d[1], (float)d[2]));
        prox_rayhitf h;
        if (c == 0 || c == 3) {
          prox_spheref s;
          s.center = prox_v3f(0, c == 3 ? 0 : 0.5f, 0.25f);
          s.radius = 0;
          hit = prox_raycast_spheref(&r, &s, &h);
        } else {
          prox_capsulef k;
          k.a = c == 1 ? prox_v3f(-1, -1, 0.25f) : prox_v3f(-1, 0, 0);
          k.b = c == 1 ? prox_v3f(3, 3, 0.25f) : prox_v3f(1, 0, 0);
          k.radius = 0;
          hit = prox_raycast_capsulef(&r, &k, &h);
        }
        n[0] = h.normal.x, n[1] = h.normal.y, n[2] = h.normal.z;
      }
      /* -dir normalised; on the side, without its axial part (the axis
       * (1, 1, 0) / sqrt 2 for c = 1). */
      len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      for (i = 0; i < 3; ++i)
        want[i] = -d[i] / len;
      if (c == 3) { /* the hit point is off the center by a subnormal */
        want[0] = want[2] = 0;
        want[1] = 1;
      }
      if (c == 1) {
        double g = (want[0] + want[1]) / 2;
        want[0] -= g, want[1] -= g;
        len = sqrt(want[0] * want[0] + want[1] * want[1]);
        want[0] /= len, want[1] /= len;
      }
      CHECK_MSG(hit, "%s case %d: no hit", prec ? "float" : "double", c);
      CHECK_MSG(fabs(n[0] - want[0]) + fabs(n[1] - want[1]) + fabs(n[2] - want[2]) < 1e-6,
                "%s case %d: normal (%g, %g, %g), expected (%g, %g, %g)", prec ? "float" : "double",
                c, n[0], n[1], n[2], want[0], want[1], want[2]);
    }
}

/* An OBB (double and float) from double data. */
static void rc_obb_make(const double c[3], double ax[3][3], const double h[3], prox_obb *o,
                        prox_obbf *of) {
  int i;
  o->center = RC_V3(c);
  of->center = RC_V3F(c);
  for (i = 0; i < 3; ++i) {
    o->axis[i] = RC_V3(ax[i]);
    of->axis[i] = RC_V3F(ax[i]);
    o->half[i] = h[i];
    of->half[i] = (float)h[i];
  }
}

/* For a valid OBB the point and ray queries read the same box: from p
 * outside, the ray towards prox_point_obb's closest point enters at t = 1;
 * from p inside, the ray starts inside. */
static void rc_obb_agree(const prox_obb *o, const prox_obbf *of, const double p[3], int outside) {
  prox_closest c;
  prox_closestf cf;
  prox_rayhit h;
  prox_rayhitf hf;
  prox_ray r;
  prox_rayf rf;
  prox_vec3 pv = RC_V3(p);
  prox_vec3f pf = RC_V3F(p);
  prox_point_obb(pv, o, &c);
  prox_point_obbf(pf, of, &cf);
  r = prox_ray_make(pv, outside ? prox_vsub(c.point, pv) : prox_v3(1, 0, 0));
  rf = prox_ray_makef(pf, outside ? prox_vsubf(cf.point, pf) : prox_v3f(1, 0, 0));
  CHECK(prox_raycast_obb(&r, o, &h) && h.inside == !outside);
  CHECK(prox_raycast_obbf(&rf, of, &hf) && hf.inside == !outside);
  if (outside) {
    CHECK_MSG(fabs(h.t - 1) < 1e-12, "double: entry t %.17g, expected 1", h.t);
    CHECK_MSG(fabs(hf.t - 1) < 1e-5, "float: entry t %.9g, expected 1", (double)hf.t);
  }
}

/* prox_*_is_valid on hand-built valid and invalid user data, in both
 * precisions (issue 13: an OBB with a zero or non-unit axis gave answers
 * prox_point_obb and prox_raycast_obb disagree on, silently). */
static void test_primitives_is_valid(void) {
  const double c0[3] = {0.5, -1, 2}, h0[3] = {1, 2, 0.5};
  double id[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double rot[3][3], ax[3][3], h[3], c[3];
  prox_obb o, scratch;
  prox_obbf of, scratchf;
  int k, i, j;
  { /* The rotation of the unit quaternion (0.3, 0.5, -0.2, 0.7) / |q|. */
    double q[4] = {0.3, 0.5, -0.2, 0.7}, l = 0;
    for (i = 0; i < 4; ++i)
      l += q[i] * q[i];
    l = sqrt(l);
    for (i = 0; i < 4; ++i)
      q[i] /= l;
    rot[0][0] = 1 - 2 * (q[2] * q[2] + q[3] * q[3]);
    rot[0][1] = 2 * (q[1] * q[2] + q[0] * q[3]);
    rot[0][2] = 2 * (q[1] * q[3] - q[0] * q[2]);
    rot[1][0] = 2 * (q[1] * q[2] - q[0] * q[3]);
    rot[1][1] = 1 - 2 * (q[1] * q[1] + q[3] * q[3]);
    rot[1][2] = 2 * (q[2] * q[3] + q[0] * q[1]);
    rot[2][0] = 2 * (q[1] * q[3] + q[0] * q[2]);
    rot[2][1] = 2 * (q[2] * q[3] - q[0] * q[1]);
    rot[2][2] = 1 - 2 * (q[1] * q[1] + q[2] * q[2]);
  }
  /* k: 0 identity, 1 rotation, 2 negative and zero half extents, 3 axis
   * nudged by 4 eps (valid); 4 an axis of length 2, 5 a zero axis, 6
   * sheared, 7 axes 1000 eps off orthogonal, 8 NaN center, 9 infinite half
   * extent, 10 NaN axis (invalid). */
  for (k = 0; k < 11; ++k) {
    int want = k < 4;
    for (j = 0; j < 2; ++j) { /* j = 0 double, 1 float */
      double eps = j ? FLT_EPSILON : DBL_EPSILON;
      memcpy(ax, k == 1 ? rot : id, sizeof ax);
      memcpy(h, h0, sizeof h);
      memcpy(c, c0, sizeof c);
      if (k == 2) h[0] = -1, h[2] = 0;
      if (k == 3) ax[0][0] += 4 * eps, ax[1][0] = 4 * eps;
      if (k == 4) ax[0][0] = 2;
      if (k == 5) ax[2][2] = 0;
      if (k == 6) ax[1][0] = 0.1 / sqrt(1.01), ax[1][1] = 1 / sqrt(1.01);
      if (k == 7) ax[0][1] = 1000 * eps;
      if (k == 8) c[1] = NAN;
      if (k == 9) h[1] = INFINITY;
      if (k == 10) ax[1][2] = NAN;
      /* The double box from j = 0, the float box from j = 1. */
      rc_obb_make(c, ax, h, j ? &scratch : &o, j ? &of : &scratchf);
      CHECK_MSG((j ? prox_obb_is_validf(&of) : prox_obb_is_valid(&o)) == want,
                "OBB case %d (%s): valid %d, expected %d", k, j ? "float" : "double",
                j ? prox_obb_is_validf(&of) : prox_obb_is_valid(&o), want);
    }
    if (want) {
      const double out[3] = {4, 3.5, -1}, in[3] = {0.5, -1.25, 2.125};
      rc_obb_agree(&o, &of, out, 1);
      if (k != 2) rc_obb_agree(&o, &of, in, 0);
    }
  }
  { /* Planes: any non-zero finite normal; not the all-zero plane. */
    prox_plane p;
    prox_planef pf;
    for (k = 0; k < 6; ++k) {
      int want = k < 3;
      p.normal = prox_v3(0, 0, 1), p.offset = 3;
      pf.normal = prox_v3f(0, 0, 1), pf.offset = 3;
      if (k == 1) p.normal.z = 1e-300, pf.normal.z = 1e-40f;
      if (k == 2) p.normal = prox_v3(-5, 2, 7), pf.normal = prox_v3f(-5, 2, 7);
      if (k == 3) p.normal.z = 0, pf.normal.z = 0, p.offset = pf.offset = 0;
      if (k == 4) p.offset = NAN, pf.offset = NAN;
      if (k == 5) p.normal.x = INFINITY, pf.normal.x = INFINITY;
      CHECK_MSG(prox_plane_is_valid(&p) == want && prox_plane_is_validf(&pf) == want,
                "plane case %d: valid %d / %d, expected %d", k, prox_plane_is_valid(&p),
                prox_plane_is_validf(&pf), want);
    }
  }
  { /* AABBs: finite, min <= max (zero size allowed). */
    prox_aabb b;
    prox_aabbf bf;
    for (k = 0; k < 5; ++k) {
      int want = k < 2;
      b.min = prox_v3(0, 0, 0), b.max = prox_v3(1, 2, 3);
      bf.min = prox_v3f(0, 0, 0), bf.max = prox_v3f(1, 2, 3);
      if (k == 1) b.max.y = 0, bf.max.y = 0;
      if (k == 2) b.min.z = 4, bf.min.z = 4;
      if (k == 3) b.max.x = INFINITY, bf.max.x = INFINITY;
      if (k == 4) b.min.y = NAN, bf.min.y = NAN;
      CHECK_MSG(prox_aabb_is_valid(&b) == want && prox_aabb_is_validf(&bf) == want,
                "AABB case %d: valid %d / %d, expected %d", k, prox_aabb_is_valid(&b),
                prox_aabb_is_validf(&bf), want);
    }
  }
  { /* Rectangles: two orthonormal axes. */
    prox_rectangle q;
    prox_rectanglef qf;
    for (k = 0; k < 5; ++k) {
      int want = k < 2;
      q.center = prox_v3(1, 2, 3), qf.center = prox_v3f(1, 2, 3);
      q.axis[0] = prox_v3(1, 0, 0), qf.axis[0] = prox_v3f(1, 0, 0);
      q.axis[1] = prox_v3(0, 0, 1), qf.axis[1] = prox_v3f(0, 0, 1);
      q.half[0] = qf.half[0] = 1;
      q.half[1] = qf.half[1] = -2;
      if (k == 1) {
        q.axis[0] = RC_V3(rot[0]), qf.axis[0] = RC_V3F(rot[0]);
        q.axis[1] = RC_V3(rot[2]), qf.axis[1] = RC_V3F(rot[2]);
      }
      if (k == 2) q.axis[1].z = 2, qf.axis[1].z = 2;
      if (k == 3) q.axis[1].x = 0.5, qf.axis[1].x = 0.5f;
      if (k == 4) q.half[0] = NAN, qf.half[0] = NAN;
      CHECK_MSG(prox_rectangle_is_valid(&q) == want && prox_rectangle_is_validf(&qf) == want,
                "rectangle case %d: valid %d / %d, expected %d", k, prox_rectangle_is_valid(&q),
                prox_rectangle_is_validf(&qf), want);
    }
  }
}

/* ------------------------------------------------------------------------ */
/* Triangles across the whole domain                                        */
/* ------------------------------------------------------------------------ */

/* The triangle cast against the exact oracle on configurations spread over
 * the whole domain raycast.h states, where the cases above keep to a few
 * magnitudes: coordinates from 2^-300 to 2^300 (float 2^+-40) with a
 * direction of length about 1 ("unit"), and from 2^-500 to 2^500 (float
 * 2^+-60) with a direction of the coordinates' scale ("scaled"), the
 * nonzero magnitudes of a case within 2^500 (float 2^60) of one another.
 * Triangles of every size relative to their place (down to a few ulps),
 * needles (aspect ratios 2^4 to 2^44), degenerate ones (two vertices
 * equal, collinear, a point) and triangles of independent random
 * coordinates; rays aimed at a vertex, an edge (its midpoint or any
 * point), the inside or just beside it, from far away, from nearly in its
 * plane, or from the aim itself (t = 0), some with direction components
 * 0, -0 or subnormal. Each case is checked as
 * rc_check checks the others (the hit exact but within the rounding of t
 * at a nonzero end of the interval, the sign of t exact, the feature, t
 * within RC_TBOUND eps S where |cos| >= RC_COND, finite results), once with
 * its interval and once with [-inf, inf] (every line that crosses the
 * triangle hits then, whatever t), and again with every length multiplied
 * by 2^k (for "unit" the coordinates and the interval, whose t scales by
 * 2^k): k = +-1, +-7, +-20, +-60, +-133, +-200 and the two that take it to
 * the ends of its domain, where the scaled case stays in the domain. And
 * non-finite input (one coordinate NaN or infinite, or an end of the
 * interval NaN): no hit, NaN fields. Seeds are fixed. */

/* A magnitude 2^e times a significand of `bits` random bits, random sign. */
static double rc_dom_val(oracle_rng *g, int e, int bits) {
  double m = 1 + ldexp((double)(oracle_rng_next(g) >> (64 - bits)), -bits);
  return oracle_rng_sign(g) * ldexp(m, e);
}

/* x, or x rounded to float. */
static double rc_dom_round(double x, int is_float) {
  return is_float ? rc_round(x) : x;
}

/* The binary exponents of the smallest and largest nonzero magnitude of
 * the origin and the vertices (and the direction when it is scaled with
 * them). */
static void rc_dom_range(const rc_case *c, int unit, int *emin, int *emax) {
  int i, j;
  *emin = 1 << 20;
  *emax = -(1 << 20);
  for (i = 0; i < 3; ++i)
    for (j = 0; j < 5; ++j) {
      double x = j < 3 ? c->v[j][i] : (j == 3 ? c->o[i] : c->d[i]);
      if (x == 0 || (j == 4 && unit)) continue;
      *emin = ilogb(x) < *emin ? ilogb(x) : *emin;
      *emax = ilogb(x) > *emax ? ilogb(x) : *emax;
    }
}

/* y = x with every length times 2^k: the coordinates, and the direction
 * (scaled) or the finite nonzero ends of the interval (unit). */
static void rc_dom_scale(rc_case *y, const rc_case *x, int k, int unit) {
  int i, j;
  *y = *x;
  for (i = 0; i < 3; ++i) {
    y->o[i] = ldexp(x->o[i], k);
    for (j = 0; j < 3; ++j)
      y->v[j][i] = ldexp(x->v[j][i], k);
    if (!unit) y->d[i] = ldexp(x->d[i], k);
  }
  if (unit && isfinite(x->tmin)) y->tmin = ldexp(x->tmin, k);
  if (unit && isfinite(x->tmax)) y->tmax = ldexp(x->tmax, k);
}

/* A case of the given precision and part of the domain (see above), the
 * largest exponent of its coordinates below 2^hi; returns 0 when it fell
 * outside the domain (it is then not used). */
static int rc_dom_case(oracle_rng *g, int is_float, int unit, int lo, int hi, int spread,
                       rc_case *c) {
  int e = lo + oracle_rng_int(g, hi - lo), mant = is_float ? 24 : 53, i, j, emin, emax;
  int bits = oracle_rng_int(g, 2) ? mant : 1 + oracle_rng_int(g, 6);
  int jh = oracle_rng_int(g, 4) == 0 ? 0 : oracle_rng_int(g, spread / 2 + 1);
  double C[3], h = ldexp(1.0, e - jh), w[3], aim[3], dv[3], m;
  memset(c, 0, sizeof *c);
  c->k = RC_raycast_triangle;
  for (i = 0; i < 3; ++i)
    C[i] = oracle_rng_int(g, 6) == 0 ? 0 : rc_dom_val(g, e - oracle_rng_int(g, 5), bits);
  if (oracle_rng_int(g, 3) == 0) {
    /* Independent coordinates within a window of exponents. */
    int win = oracle_rng_int(g, 4) == 0 ? oracle_rng_int(g, 4) : oracle_rng_int(g, spread);
    for (j = 0; j < 3; ++j)
      for (i = 0; i < 3; ++i)
        c->v[j][i] =
            oracle_rng_int(g, 8) == 0
                ? 0
                : rc_dom_round(rc_dom_val(g, e - oracle_rng_int(g, win + 1), bits), is_float);
    if (oracle_rng_int(g, 4) == 0) memcpy(c->v[1], c->v[0], sizeof c->v[0]);
    h = ldexp(1.0, e);
  } else {
    /* A triangle of size h around C, on a grid of h / 16. */
    double G[3][3];
    for (j = 0; j < 3; ++j)
      for (i = 0; i < 3; ++i)
        G[j][i] = (oracle_rng_int(g, 33) - 16) / 16.0;
    switch (oracle_rng_int(g, 12)) {
    case 10:
    case 11: /* a needle: v2 within h 2^-4 .. h 2^-44 of v1 */
      for (i = 0; i < 3; ++i)
        G[2][i] = G[1][i] + ldexp(oracle_rng_int(g, 33) - 16, -8 - oracle_rng_int(g, 41));
      break;
    case 0: /* two vertices equal */
      j = oracle_rng_int(g, 3);
      memcpy(G[j], G[(j + 1) % 3], sizeof G[j]);
      break;
    case 1: /* collinear */
      for (i = 0; i < 3; ++i)
        G[2][i] = (G[0][i] + G[1][i]) / 2;
      break;
    case 2: /* a point */
      memcpy(G[1], G[0], sizeof G[0]);
      memcpy(G[2], G[0], sizeof G[0]);
      break;
    default:
      break;
    }
    for (j = 0; j < 3; ++j)
      for (i = 0; i < 3; ++i)
        c->v[j][i] = rc_dom_round(C[i] + h * G[j][i], is_float);
  }
  /* The aim: a vertex, an edge's midpoint or another of its points, a
   * point inside, maybe moved just off the triangle. */
  w[0] = w[1] = w[2] = 0;
  switch (oracle_rng_int(g, 6)) {
  case 0:
  case 1:
    w[oracle_rng_int(g, 3)] = 1;
    break;
  case 2:
    j = oracle_rng_int(g, 3);
    w[j] = w[(j + 1) % 3] = 0.5;
    break;
  case 3:
    j = oracle_rng_int(g, 3);
    w[j] = oracle_rng_unit(g);
    w[(j + 1) % 3] = 1 - w[j];
    break;
  default:
    w[0] = oracle_rng_unit(g);
    w[1] = oracle_rng_unit(g) * (1 - w[0]);
    w[2] = 1 - w[0] - w[1];
    break;
  }
  for (i = 0; i < 3; ++i)
    aim[i] = w[0] * c->v[0][i] + w[1] * c->v[1][i] + w[2] * c->v[2][i];
  if (oracle_rng_int(g, 8) == 0)
    for (i = 0; i < 3; ++i)
      aim[i] += h * ldexp(oracle_rng_int(g, 5) - 2, -20 - oracle_rng_int(g, 41));
  /* The origin: the aim itself, nearly in the triangle's plane, or at a
   * distance from h / 2^10 to 2^10 times the size of the case. */
  switch (oracle_rng_int(g, 8)) {
  case 0:
    memcpy(c->o, aim, sizeof aim);
    break;
  case 1: {
    double s1 = 4 * oracle_rng_unit(g) - 2, s2 = 4 * oracle_rng_unit(g) - 2;
    for (i = 0; i < 3; ++i)
      c->o[i] = aim[i] + s1 * (c->v[1][i] - c->v[0][i]) + s2 * (c->v[2][i] - c->v[0][i]) +
                h * ldexp(oracle_rng_int(g, 9) - 4, -oracle_rng_int(g, 61));
    break;
  }
  default: {
    double L = ldexp(1.0, e - oracle_rng_int(g, jh + 21) + 10);
    for (i = 0; i < 3; ++i)
      c->o[i] = C[i] + L * ((oracle_rng_int(g, 129) - 64) / 16.0 +
                            (oracle_rng_int(g, 2) ? oracle_rng_unit(g) : 0));
    break;
  }
  }
  for (i = 0; i < 3; ++i)
    c->o[i] = rc_dom_round(c->o[i], is_float);
  /* The direction: towards the aim (any direction from an origin on the
   * triangle, one time in ten), by a power of two, its largest component
   * in [1, 2) (unit) or t = 2^j at the aim, j in [-3, 3] (scaled). */
  for (i = 0; i < 3; ++i)
    dv[i] = aim[i] - c->o[i];
  if (oracle_rng_int(g, 10) == 0)
    for (i = 0; i < 3; ++i)
      dv[i] = oracle_rng_int(g, 4) ? rc_dom_val(g, e - oracle_rng_int(g, 4), 10) : 0;
  m = rc_maxabs3(dv);
  if (m == 0) {
    dv[oracle_rng_int(g, 3)] = ldexp(1.0, e);
    m = rc_maxabs3(dv);
  }
  {
    int em = ilogb(m), s = oracle_rng_int(g, 7) - 3;
    for (i = 0; i < 3; ++i)
      c->d[i] = unit ? ldexp(dv[i], -em) : ldexp(dv[i], -s);
  }
  if (oracle_rng_int(g, 6) == 0) {
    /* A component other than the largest 0, -0 or subnormal. */
    j = oracle_rng_int(g, 3);
    if (fabs(c->d[j]) < rc_maxabs3(c->d)) c->d[j] = rc_tiny_component(g, is_float);
  }
  for (i = 0; i < 3; ++i)
    c->d[i] = rc_dom_round(c->d[i], is_float);
  /* The interval as test_property draws it ([0, inf] half the time), in
   * units of the case's size for unit directions. */
  c->tmin = 0;
  c->tmax = INFINITY;
  switch (oracle_rng_int(g, 10)) {
  case 5:
    c->tmax = 2;
    break;
  case 6:
    c->tmin = -1;
    break;
  case 7:
    c->tmin = -INFINITY;
    c->tmax = 0;
    break;
  case 8:
    c->tmin = c->tmax = 1;
    break;
  case 9:
    c->tmin = 2;
    c->tmax = 0;
    break;
  default:
    break;
  }
  if (unit) {
    c->tmin = c->tmin != 0 && isfinite(c->tmin) ? ldexp(c->tmin, e + 1) : c->tmin;
    c->tmax = c->tmax != 0 && isfinite(c->tmax) ? ldexp(c->tmax, e + 1) : c->tmax;
  }
  rc_dom_range(c, unit, &emin, &emax);
  return rc_maxabs3(c->d) > 0 && emin >= lo && emax < hi && emax - emin < spread &&
         (!unit || (rc_maxabs3(c->d) >= 1 && rc_maxabs3(c->d) <= 2));
}

/* A sparse case: every coordinate 0 or a signed power of two within the
 * domain's spread, the direction one such component of 1 (unit; else of
 * the coordinates' scale) and the others 0, powers of two or (unit)
 * subnormal: exact cancellations abound, and the line's side of an edge
 * may come down to the products of the smallest values (a unit direction
 * (1, 2^-1074, 0) against coordinates 2^-300). Returns 0 outside the
 * domain. */
static int rc_dom_sparse(oracle_rng *g, int is_float, int unit, int lo, int hi, int spread,
                         rc_case *c) {
  int top = lo + spread + oracle_rng_int(g, hi - lo - spread), i, j, emin, emax;
  int win = oracle_rng_int(g, 2) ? spread - 1 : oracle_rng_int(g, 8);
  int kd = oracle_rng_int(g, 3), ed = unit ? 0 : top - oracle_rng_int(g, win + 1);
  double sub = is_float ? (double)FLT_TRUE_MIN : DBL_TRUE_MIN;
  memset(c, 0, sizeof *c);
  c->k = RC_raycast_triangle;
  for (j = 0; j < 4; ++j)
    for (i = 0; i < 3; ++i) {
      double x = oracle_rng_int(g, 2)
                     ? 0
                     : oracle_rng_sign(g) * ldexp(1.0, top - oracle_rng_int(g, win + 1));
      if (j < 3)
        c->v[j][i] = x;
      else
        c->o[i] = x;
    }
  for (i = 0; i < 3; ++i) {
    int r = oracle_rng_int(g, 4);
    if (i == kd)
      c->d[i] = oracle_rng_sign(g) * ldexp(1.0, ed);
    else if (r == 0)
      c->d[i] = 0;
    else if (r == 1 && unit)
      c->d[i] = oracle_rng_sign(g) * sub * (1 + oracle_rng_int(g, 3));
    else
      c->d[i] =
          oracle_rng_sign(g) * ldexp(1.0, ed - 1 - oracle_rng_int(g, unit ? spread : win + 1));
  }
  c->tmin = oracle_rng_int(g, 2) ? 0 : -INFINITY;
  c->tmax = INFINITY;
  rc_dom_range(c, unit, &emin, &emax);
  return emin >= lo && emax < hi && emax - emin < spread;
}

/* Checks case c at 1 and at the scales 2^k of the domain test. */
static void rc_dom_check(const rc_case *c, int is_float, int unit, int lo, int hi) {
  static const int ks[] = {0, 1, -1, 7, -7, 20, -20, 60, -60, 133, -133, 200, -200};
  int n = (int)(sizeof ks / sizeof ks[0]), q, emin, emax, wide;
  rc_dom_range(c, unit, &emin, &emax);
  for (q = 0; q < n + 2; ++q) {
    int k = q < n ? ks[q] : (q == n ? hi - 1 - emax : lo - emin);
    rc_case y;
    if ((q > 0 && k == 0) || emax + k >= hi || emin + k < lo) continue;
    rc_dom_scale(&y, c, k, unit);
    for (wide = 0; wide < 2; ++wide) {
      rc_case z = y;
      if (wide) z.tmin = -INFINITY, z.tmax = INFINITY;
      rc_check(&z, is_float, ORACLE_DOMAIN);
      if (h_case_failed())
        h_note("  (the case at scale 2^%d, %s direction, of a case in [2^%d, 2^%d])", k,
               unit ? "unit" : "scaled", emin, emax + 1);
    }
  }
}

/* Non-finite input: one value of c NaN or infinite (the interval's ends
 * NaN), no hit and NaN fields. */
static void rc_dom_nonfinite(oracle_rng *g, const rc_case *c, int is_float) {
  rc_case y = *c;
  rc_res r;
  int slot = oracle_rng_int(g, 17), i, ok;
  double bad = oracle_rng_int(g, 3) == 0 ? NAN : oracle_rng_sign(g) * INFINITY;
  if (slot < 3)
    y.o[slot] = bad;
  else if (slot < 6)
    y.d[slot - 3] = bad;
  else if (slot < 15)
    y.v[(slot - 6) / 3][(slot - 6) % 3] = bad;
  else if (slot == 15)
    y.tmin = NAN;
  else
    y.tmax = NAN;
  rc_run(&y, is_float, &r);
  ok = r.ret == 0 && r.ret_null == 0 && r.hit == 0 && r.kind == 0 && isnan(r.t) && isnan(r.tx);
  for (i = 0; i < 3; ++i)
    ok = ok && isnan(r.p[i]) && isnan(r.n[i]) && isnan(r.bary[i]);
  h_case_begin();
  CHECK_MSG(ok, "raycast_triangle %s: non-finite input, returned %d (%d with out = NULL), hit %d",
            is_float ? "float" : "double", r.ret, r.ret_null, r.hit);
  if (h_case_failed()) rc_note(&y, is_float, &r);
}

/* Cases the random ones above found (or one like them was built for), in
 * hex floats: each checked as they are, at every scale. */
static const struct rc_dom_fixed {
  int is_float, unit;
  double o[3], d[3], tmin, tmax, v[3][3];
} rc_dom_fixed[] = {
    /* The plane of a triangle tiny in ray space: n . d underflowed (NaN t,
     * a miss). */
    {0,
     0,
     {-0x1.c40f914d6b22p-364, 0x1.4822cb5083abep-358, 0x1.1b54b4e904502p-358},
     {0x1.b881f229ad63fp-363, -0x1.b04596a10757bp-361, -0x1.a6a969d208a04p-361},
     -1,
     INFINITY,
     {{0x1.7fffffffffffcp-361, 0x1.bfffffffffffep-360, 0x1.1fffffffffffep-360},
      {0x1.7fffffffffffbp-361, 0x1.c000000000004p-360, 0x1.2000000000001p-360},
      {0x1.7fffffffffffbp-361, 0x1.c000000000001p-360, 0x1.1ffffffffffffp-360}}},
    /* The same, n . d overflowed. */
    {0,
     0,
     {0x1.4298305a027b3p+378, -0x1.f4cc93e224c16p+378, 0x1.98a34b26e70eep+381},
     {-0x1.4227fea0818ap+376, 0x1.f4cc93e224c14p+376, -0x1.98c1f0f801d13p+379},
     0,
     INFINITY,
     {{0x1.c0c6e603c4b6ep+368, -0x1.cp+326, -0x1.ea5d11ac257cfp+369},
      {0x1.c0c6e603c476ep+368, 0x1p+324, -0x1.ea5d11ac260cfp+369},
      {0x1.c0c6e603c406ep+368, 0x1p+325, -0x1.ea5d11ac25acfp+369}}},
    /* The numerator of t overflowed in float (NaN t, a miss). */
    {1,
     0,
     {-0x1.33b4aap+58, 0x1.4d658ap+56, -0x1.03de92p+59},
     {-0x1.366286p+34, 0x1.0dc90ep+32, -0x1.3afe5ep+34},
     0,
     INFINITY,
     {{-0x1.5ep+58, 0x1p+55, -0x1.13p+59},
      {0x1.c2p+58, 0x1.4p+59, 0x1.e8p+56},
      {-0x1.78p+56, 0x1.1p+59, -0x1.a6p+58}}},
    /* Float weights below the normal range: t = 0 for an exact t of
     * 2^-49 > tmax = 0 (a hit). */
    {1,
     1,
     {-0x1.0dd1b4p-39, 0x1.2ce3cap-35, 0x1.66c12cp-39},
     {0x1.b80056p+0, 0x1.dfp+0, 0x1.cbc84cp+0},
     -INFINITY,
     0,
     {{-0x1.0d63b4p-39, 0x1.2ceb46p-35, 0x1.67341ep-39},
      {-0x1.0d63bp-39, 0x1.2ceb46p-35, 0x1.67341ep-39},
      {-0x1.0d63b4p-39, 0x1.2ceb46p-35, 0x1.67342p-39}}},
    /* A needle far from the origin, certified weights: t off by 27 eps S. */
    {0,
     0,
     {0x1p+283, -0x1.4p+281, -0x1.4p+282},
     {-0x1.ff80ca848aae4p+280, 0x1.40001bbae954p+279, 0x1.4p+280},
     -INFINITY,
     INFINITY,
     {{0x1p+279, 0x1.cp+267, 0x0p+0},
      {0x1.8p+90, 0x1.cp+244, -0x1.8p+216},
      {-0x1.4p-46, -0x1.cp+255, -0x1.4p+51}}},
    /* A needle at ordinary magnitudes: t off by 1336 eps S. */
    {1,
     1,
     {0x1.89d9cp-7, -0x1.ef78eap-9, 0x1.aa7b9ep-7},
     {0x1.da6a0cp+0, 0x1.47ca1ep-1, -0x1.7c1cacp+0},
     0,
     INFINITY,
     {{-0x1.5979acp-9, -0x1.486902p-10, 0x1.fd4894p-7},
      {0x1.a4d0cap-6, -0x1.921a4p-8, 0x1.5d4894p-7},
      {0x1.a4cacap-6, -0x1.922a4p-8, 0x1.5d4894p-7}}},
    /* Through a vertex exactly, the weights negative: the vertex's weight
     * was taken positive and t's exact sign then flipped (a miss). */
    {0,
     1,
     {0x1.b810f86128e2ep+199, -0x1.7db8619e882bp+196, 0x1.9cded1edd0c2bp+199},
     {-0x1.7e83885e46cp-1, -0x1.fe04add309p+0, -0x1.be43ff18a7ep+0},
     0,
     INFINITY,
     {{0x1.90145feda23b7p+200, 0x1.c8442f08e6ed5p+200, 0x1.39459482aef1bp+201},
      {0x1.0145feda23b7p+196, -0x1.1bdde87b8c896p+201, -0x1.0d74d6faa21cap+200},
      {0x1.a028bfdb4476ep+199, -0x1.bdde87b8c8958p+197, 0x1.6516520abbc6bp+199}}},
    /* A subnormal direction component decides the side of an edge: the
     * product 2^-300 2^-300 2^-1074 underflowed in the exact predicate (a
     * hit; exactly, a miss). */
    {0,
     1,
     {0, 0, 0},
     {1, -0x1p-1074, 0},
     -INFINITY,
     INFINITY,
     {{0x1p-300, 0, 0}, {0, 0, 0x1p-300}, {0, 0x1p-300, 0}}},
};

static void test_raycast_triangle_domain(void) {
  long i, n = h_count(2500), used = 0;
  int prec, unit;
  for (prec = 0; prec < 2; ++prec)
    for (unit = 0; unit < 2; ++unit) {
      oracle_rng g = oracle_rng_make((uint64_t)(77001 + 10 * prec + unit));
      int lim = prec ? (unit ? 40 : 60) : (unit ? 300 : 500), spread = prec ? 60 : 500;
      for (i = 0; i < n; ++i) {
        rc_case c;
        if (i % 4 == 3 ? !rc_dom_sparse(&g, prec, unit, -lim, lim, spread, &c)
                       : !rc_dom_case(&g, prec, unit, -lim, lim, spread, &c))
          continue;
        ++used;
        rc_dom_check(&c, prec, unit, -lim, lim);
        if (oracle_rng_int(&g, 8) == 0) rc_dom_nonfinite(&g, &c, prec);
      }
    }
  for (i = 0; i < (long)(sizeof rc_dom_fixed / sizeof rc_dom_fixed[0]); ++i) {
    const struct rc_dom_fixed *f = &rc_dom_fixed[i];
    int lim = f->is_float ? (f->unit ? 40 : 60) : (f->unit ? 300 : 500);
    rc_case c;
    memset(&c, 0, sizeof c);
    c.k = RC_raycast_triangle;
    memcpy(c.o, f->o, sizeof c.o);
    memcpy(c.d, f->d, sizeof c.d);
    memcpy(c.v, f->v, sizeof f->v);
    c.tmin = f->tmin;
    c.tmax = f->tmax;
    rc_dom_check(&c, f->is_float, f->unit, -lim, lim);
  }
  printf("  %ld of %ld cases in the domain, each at up to 15 scales and two intervals, and %d "
         "fixed ones\n",
         used, 4 * n, (int)(sizeof rc_dom_fixed / sizeof rc_dom_fixed[0]));
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_raycast_documented);
  H_RUN(test_raycast_on_surface);
  H_RUN(test_primitives_is_valid);
  H_RUN(test_raycast_zero_radius);
#define RC_RUN(name, prim, solid) H_RUN(test_##name);
  PROX_KERNELS_K3(RC_RUN)
  H_RUN(test_raycast_triangle_domain);
  ory_table_print(stdout);
  return h_finish();
}

#define TEST_RAYCAST_TEMPLATE
#include <prox/detail/real_double.h>
#include "test_raycast.c"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "test_raycast.c"
#include <prox/detail/real_end.h>
#undef TEST_RAYCAST_TEMPLATE

#else /* TEST_RAYCAST_TEMPLATE: the kernel calls of one precision */

/* The primitives of a case by the registry's codes (pl plane, tr triangle,
 * ab aabb, ob obb, sp sphere, cp capsule, te tetrahedron), from its points
 * v and scalars s (rc_case). */
#define RC_VEC(a) PROX_FN(prox_v3)((PROX_REAL)(a)[0], (PROX_REAL)(a)[1], (PROX_REAL)(a)[2])
#define RC_TYPE_pl PROX_FN(prox_plane)
#define RC_TYPE_tr PROX_FN(prox_triangle)
#define RC_TYPE_ab PROX_FN(prox_aabb)
#define RC_TYPE_ob PROX_FN(prox_obb)
#define RC_TYPE_sp PROX_FN(prox_sphere)
#define RC_TYPE_cp PROX_FN(prox_capsule)
#define RC_TYPE_te PROX_FN(prox_tetrahedron)

static void PROX_FN(rc_make_pl)(const rc_case *c, RC_TYPE_pl *x) {
  x->normal = RC_VEC(c->v[0]);
  x->offset = (PROX_REAL)c->s[0];
}

static void PROX_FN(rc_make_tr)(const rc_case *c, RC_TYPE_tr *x) {
  int i;
  for (i = 0; i < 3; ++i)
    x->v[i] = RC_VEC(c->v[i]);
}

static void PROX_FN(rc_make_ab)(const rc_case *c, RC_TYPE_ab *x) {
  x->min = RC_VEC(c->v[0]);
  x->max = RC_VEC(c->v[1]);
}

static void PROX_FN(rc_make_ob)(const rc_case *c, RC_TYPE_ob *x) {
  int i;
  x->center = RC_VEC(c->v[0]);
  for (i = 0; i < 3; ++i) {
    x->axis[i] = RC_VEC(c->v[i + 1]);
    x->half[i] = (PROX_REAL)c->s[i];
  }
}

static void PROX_FN(rc_make_sp)(const rc_case *c, RC_TYPE_sp *x) {
  x->center = RC_VEC(c->v[0]);
  x->radius = (PROX_REAL)c->s[0];
}

static void PROX_FN(rc_make_cp)(const rc_case *c, RC_TYPE_cp *x) {
  x->a = RC_VEC(c->v[0]);
  x->b = RC_VEC(c->v[1]);
  x->radius = (PROX_REAL)c->s[0];
}

static void PROX_FN(rc_make_te)(const rc_case *c, RC_TYPE_te *x) {
  int i;
  for (i = 0; i < 4; ++i)
    x->v[i] = RC_VEC(c->v[i]);
}

/* A kernel's result in double. */
static void PROX_FN(rc_from_hit)(rc_res *r, const PROX_FN(prox_rayhit) * h, int ret) {
  r->ret = ret;
  r->hit = h->hit;
  r->inside = h->inside;
  r->t = h->t;
  r->tx = h->t_exit;
  r->p[0] = h->point.x, r->p[1] = h->point.y, r->p[2] = h->point.z;
  r->n[0] = h->normal.x, r->n[1] = h->normal.y, r->n[2] = h->normal.z;
  r->bary[0] = h->bary[0], r->bary[1] = h->bary[1], r->bary[2] = h->bary[2];
  r->kind = h->feature.kind;
  r->index = h->feature.index;
}

/* The cast of c (a case already in this precision) with a result and with
 * out = NULL. */
#define RC_CALL(name, prim, solid)                                                                 \
  case RC_##name: {                                                                                \
    RC_TYPE_##prim x;                                                                              \
    PROX_FN(rc_make_##prim)(c, &x);                                                                \
    ret = PROX_FN(prox_##name)(&ray, &x, &h);                                                      \
    ret_null = PROX_FN(prox_##name)(&ray, &x, NULL);                                               \
    break;                                                                                         \
  }
static void PROX_FN(rc_run_p)(const rc_case *c, rc_res *r) {
  PROX_FN(prox_ray) ray;
  PROX_FN(prox_rayhit) h;
  int ret = 0, ret_null = 0;
  ray.origin = RC_VEC(c->o);
  ray.dir = RC_VEC(c->d);
  ray.tmin = (PROX_REAL)c->tmin;
  ray.tmax = (PROX_REAL)c->tmax;
  switch (c->k) {
    PROX_KERNELS_K3(RC_CALL)
  default: /* not a ray cast of the registry */
    r->ret = r->ret_null = -1;
    return;
  }
  PROX_FN(rc_from_hit)(r, &h, ret);
  r->ret_null = ret_null;
}
#undef RC_CALL
#undef RC_VEC
#undef RC_TYPE_pl
#undef RC_TYPE_tr
#undef RC_TYPE_ab
#undef RC_TYPE_ob
#undef RC_TYPE_sp
#undef RC_TYPE_cp
#undef RC_TYPE_te

#endif /* TEST_RAYCAST_TEMPLATE */
