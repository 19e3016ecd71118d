/* SPDX-License-Identifier: MIT */
/* Overlap tests against exact oracles (oracle_ray.h):
 * - AABB-AABB: exact comparisons; asserted equal always.
 * - OBB-OBB: exact separating-axis test of the two parallelepipeds in
 *   rationals (3 + 3 face normals, 9 edge cross products).
 * - triangle-AABB: exact separating axes (3 box normals, the triangle
 *   normal, 9 edge cross products; complete for a box and a triangle).
 * - sphere-triangle: exact squared distance (oracle_point_triangle).
 * - triangle-triangle: exact separating axes over a complete candidate set
 *   (both normals, vertex differences, vertex-edge perpendiculars, edge
 *   cross products, parallel-edge perpendiculars: the direction between
 *   the closest points of two disjoint triangles is always among them);
 *   asserted equal always (the kernel is exact).
 * For the conservative tests: overlap (touching included) must be
 * reported; a separation larger than band S must be reported (band 1e-9
 * double, 1e-5 float; S the largest coordinate magnitude). Four kinds of
 * cases, 5,000+ each per precision.
 *
 * The kernel calls of one precision are written once: this file includes
 * itself twice with TEST_OVERLAP_TEMPLATE defined (double, then float). */
#ifndef TEST_OVERLAP_TEMPLATE

#include <prox/overlap.h>

#include "harness.h"
#include "kernels.h"
#include "oracle_ray.h"

/* The overlap tests, from the registry (tests/kernels.h): OV_<name> is the
 * index of prox_<name>, ov_names[] its name, which seeds its cases
 * (oracle_rng_named): a kernel's place in the registry changes no
 * kernel's cases. */
#define OV_ENUM(name, first, second) OV_##name,
#define OV_NAME(name, first, second) #name,
enum { PROX_KERNELS_OVERLAP(OV_ENUM) OV_KERNELS };
static const char *ov_names[OV_KERNELS] = {PROX_KERNELS_OVERLAP(OV_NAME)};

/* A case: up to two shapes of up to 4 points + 3 scalars each. */
typedef struct ov_case {
  int k;
  double a[4][3], b[4][3]; /* aabb: min, max; obb: center, 3 axes;
                            * triangle: 3 vertices; sphere: center */
  double ah[3], bh[3];     /* obb half extents; sphere radius in ah[0] */
} ov_case;

/* Measured counts per kernel, precision and kind. */
typedef struct ov_row {
  long cases, overlapping, decided, amb, false_pos;
} ov_row;
static ov_row ov_rows[OV_KERNELS][2][ORACLE_KINDS];

/* x rounded to float. Through a volatile: GCC 12.2 at -O2 vectorises a
 * loop of in-place x = (float)x over a struct's arrays wrongly (some
 * elements are left unrounded). */
static double ov_round(double x) {
  volatile float f = (float)x;
  return (double)f;
}

static void ov_to_float(ov_case *c) {
  int i, j;
  for (j = 0; j < 4; ++j)
    for (i = 0; i < 3; ++i) {
      c->a[j][i] = ov_round(c->a[j][i]);
      c->b[j][i] = ov_round(c->b[j][i]);
    }
  for (i = 0; i < 3; ++i) {
    c->ah[i] = ov_round(c->ah[i]);
    c->bh[i] = ov_round(c->bh[i]);
  }
}

/* The kernel of c in each precision (the template at the end of the file,
 * included once per precision). */
static int ov_run_p(const ov_case *c);
static int ov_run_pf(const ov_case *c);

static int ov_run(const ov_case *c, int is_float) {
  return is_float ? ov_run_pf(c) : ov_run_p(c);
}

/* ------------------------------------------------------------------------ */
/* Exact oracles                                                            */
/* ------------------------------------------------------------------------ */

static void ov_q3(q3 *q, const double *a) {
  q3_set_d(q, a[0], a[1], a[2]);
}

/* Separation (> 0: apart by that distance at least; <= 0: overlap) of the
 * two shapes of a case; exact in sign. */
static double ov_exact_gap(const ov_case *c) {
  q3 A[8], B[8], axes[64], t, u;
  int na = 0, nb = 0, nx = 0, i, j, k;
  double gap;
  for (i = 0; i < 8; ++i) {
    q3_init(&A[i]);
    q3_init(&B[i]);
  }
  for (i = 0; i < 64; ++i)
    q3_init(&axes[i]);
  q3_init(&t);
  q3_init(&u);
  switch (c->k) {
  case OV_overlap_aabb_aabb:
  case OV_overlap_triangle_aabb: {
    /* Box b as 8 corners; for AABB-AABB box a too. */
    double lo[3], hi[3];
    for (i = 0; i < 3; ++i) {
      lo[i] = fmin(c->b[0][i], c->b[1][i]);
      hi[i] = fmax(c->b[0][i], c->b[1][i]);
    }
    for (k = 0; k < 8; ++k)
      q3_set_d(&B[k], k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
    nb = 8;
    for (i = 0; i < 3; ++i) {
      mpq_set_ui(q3_at(&axes[nx], i), 1, 1);
      ++nx;
    }
    if (c->k == OV_overlap_aabb_aabb) {
      for (i = 0; i < 3; ++i) {
        lo[i] = fmin(c->a[0][i], c->a[1][i]);
        hi[i] = fmax(c->a[0][i], c->a[1][i]);
      }
      for (k = 0; k < 8; ++k)
        q3_set_d(&A[k], k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
      na = 8;
    } else {
      for (i = 0; i < 3; ++i)
        ov_q3(&A[i], c->a[i]);
      na = 3;
      q3_sub(&t, &A[1], &A[0]);
      q3_sub(&u, &A[2], &A[0]);
      q3_cross(&axes[nx++], &t, &u);
      for (i = 0; i < 3; ++i) {
        q3_sub(&t, &A[(i + 1) % 3], &A[i]);
        for (j = 0; j < 3; ++j) {
          q3_zero(&u);
          mpq_set_ui(q3_at(&u, j), 1, 1);
          q3_cross(&axes[nx++], &t, &u);
        }
      }
    }
    break;
  }
  case OV_overlap_obb_obb: {
    q3 ca, cb, aa[3], ba[3];
    q3_init(&ca);
    q3_init(&cb);
    for (i = 0; i < 3; ++i) {
      q3_init(&aa[i]);
      q3_init(&ba[i]);
      ov_q3(&aa[i], c->a[i + 1]);
      ov_q3(&ba[i], c->b[i + 1]);
    }
    ov_q3(&ca, c->a[0]);
    ov_q3(&cb, c->b[0]);
    ory_box_corners(A, &ca, aa, c->ah);
    ory_box_corners(B, &cb, ba, c->bh);
    na = nb = 8;
    for (i = 0; i < 3; ++i) {
      q3_cross(&axes[nx++], &aa[(i + 1) % 3], &aa[(i + 2) % 3]);
      q3_cross(&axes[nx++], &ba[(i + 1) % 3], &ba[(i + 2) % 3]);
      for (j = 0; j < 3; ++j)
        q3_cross(&axes[nx++], &aa[i], &ba[j]);
    }
    q3_clear(&ca);
    q3_clear(&cb);
    for (i = 0; i < 3; ++i) {
      q3_clear(&aa[i]);
      q3_clear(&ba[i]);
    }
    break;
  }
  default: {
    /* Triangle-triangle: the complete candidate set. */
    q3 ea[3], eb[3];
    for (i = 0; i < 3; ++i) {
      ov_q3(&A[i], c->a[i]);
      ov_q3(&B[i], c->b[i]);
      q3_init(&ea[i]);
      q3_init(&eb[i]);
    }
    na = nb = 3;
    for (i = 0; i < 3; ++i) {
      q3_sub(&ea[i], &A[(i + 1) % 3], &A[i]);
      q3_sub(&eb[i], &B[(i + 1) % 3], &B[i]);
    }
    q3_cross(&axes[nx++], &ea[0], &ea[1]);
    q3_cross(&axes[nx++], &eb[0], &eb[1]);
    for (i = 0; i < 3; ++i)
      for (j = 0; j < 3; ++j) {
        q3_sub(&axes[nx++], &A[i], &B[j]);
        q3_cross(&axes[nx++], &ea[i], &eb[j]);
        /* vertex A[i] against edge eb[j], B[j] against ea[i]; parallel
         * edges ea[i], eb[j] (w between their starts). */
        q3_sub(&t, &A[i], &B[j]);
        q3_cross(&u, &eb[j], &t);
        q3_cross(&axes[nx++], &u, &eb[j]);
        q3_cross(&u, &ea[i], &t);
        q3_cross(&axes[nx++], &u, &ea[i]);
        q3_sub(&t, &B[j], &A[i]);
        q3_cross(&u, &ea[i], &t);
        q3_cross(&axes[nx++], &u, &ea[i]);
      }
    for (i = 0; i < 3; ++i) {
      q3_clear(&ea[i]);
      q3_clear(&eb[i]);
    }
    break;
  }
  }
  gap = ory_sat(A, na, B, nb, axes, nx);
  for (i = 0; i < 8; ++i) {
    q3_clear(&A[i]);
    q3_clear(&B[i]);
  }
  for (i = 0; i < 64; ++i)
    q3_clear(&axes[i]);
  q3_clear(&t);
  q3_clear(&u);
  return gap;
}

/* Sphere-triangle: exact squared distance against r^2; returns the gap
 * |c - T| - r (its sign exact) in *gap and 1 on overlap. */
static int ov_exact_sphtri(const ov_case *c, double *gap) {
  q3 p, v[3];
  oracle_tri r;
  mpq_t r2;
  int i, ov;
  q3_init(&p);
  for (i = 0; i < 3; ++i) {
    q3_init(&v[i]);
    ov_q3(&v[i], c->b[i]);
  }
  ov_q3(&p, c->a[0]);
  oracle_tri_init(&r);
  mpq_init(r2);
  oracle_point_triangle(&r, &p, v);
  mpq_set_d(r2, fabs(c->ah[0]));
  mpq_mul(r2, r2, r2);
  ov = mpq_cmp(r.d2, r2) <= 0;
  *gap = oracle_sqrt_d(r.d2) - fabs(c->ah[0]);
  if (!ov && !(*gap > 0)) *gap = DBL_MIN;
  if (ov && *gap > 0) *gap = 0;
  oracle_tri_clear(&r);
  mpq_clear(r2);
  q3_clear(&p);
  for (i = 0; i < 3; ++i)
    q3_clear(&v[i]);
  return ov;
}

/* ------------------------------------------------------------------------ */
/* Cases                                                                    */
/* ------------------------------------------------------------------------ */

static double ov_maxabs(const double *a) {
  return fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
}

static double ov_scale(const ov_case *c) {
  double S = 0;
  int j;
  switch (c->k) {
  case OV_overlap_obb_obb:
    S = fmax(ov_maxabs(c->a[0]) + fabs(c->ah[0]) + fabs(c->ah[1]) + fabs(c->ah[2]),
             ov_maxabs(c->b[0]) + fabs(c->bh[0]) + fabs(c->bh[1]) + fabs(c->bh[2]));
    break;
  case OV_overlap_sphere_triangle:
    S = ov_maxabs(c->a[0]) + fabs(c->ah[0]);
    for (j = 0; j < 3; ++j)
      S = fmax(S, ov_maxabs(c->b[j]));
    break;
  default:
    for (j = 0; j < 3; ++j)
      S = fmax(S, fmax(ov_maxabs(c->a[j]), ov_maxabs(c->b[j])));
    break;
  }
  return S > 0 ? S : DBL_MIN;
}

/* A general case: shapes in [-1, 1]^3 placed by a frame; the second
 * shape is moved so that the two are close (about half overlap). */
static void ov_gen_general(oracle_rng *g, int k, int kind, ov_case *c) {
  oracle_frame f = oracle_frame_random(g, kind);
  double u[3], w[3], shift[3], sz = oracle_rng_range(g, 0.2, 1);
  int i, j;
  memset(c, 0, sizeof *c);
  c->k = k;
  oracle_rng_cube(g, shift);
  for (i = 0; i < 3; ++i)
    shift[i] *= 0.7;
  switch (k) {
  case OV_overlap_aabb_aabb:
  case OV_overlap_triangle_aabb:
    for (j = 0; j < 2; ++j) {
      oracle_rng_cube(g, u);
      for (i = 0; i < 3; ++i)
        u[i] *= 0.5;
      oracle_frame_point(&f, u, c->b[j]);
    }
    if (k == OV_overlap_aabb_aabb) {
      for (j = 0; j < 2; ++j) {
        oracle_rng_cube(g, u);
        for (i = 0; i < 3; ++i)
          u[i] = 0.5 * u[i] + shift[i];
        oracle_frame_point(&f, u, c->a[j]);
      }
    } else {
      for (j = 0; j < 3; ++j) {
        oracle_rng_cube(g, u);
        for (i = 0; i < 3; ++i)
          u[i] = sz * u[i] + shift[i];
        oracle_frame_point(&f, u, c->a[j]);
      }
    }
    break;
  case OV_overlap_obb_obb: {
    double ax[3][3];
    oracle_rng_cube(g, u);
    for (i = 0; i < 3; ++i)
      u[i] *= 0.3;
    oracle_frame_point(&f, u, c->a[0]);
    for (i = 0; i < 3; ++i)
      w[i] = u[i] + shift[i];
    oracle_frame_point(&f, w, c->b[0]);
    oracle_rng_rotation(g, ax);
    for (j = 0; j < 3; ++j) {
      for (i = 0; i < 3; ++i)
        c->a[j + 1][i] = ax[j][i];
      c->ah[j] = f.scale * oracle_rng_range(g, 0.05, 0.5);
    }
    oracle_rng_rotation(g, ax);
    for (j = 0; j < 3; ++j) {
      for (i = 0; i < 3; ++i)
        c->b[j + 1][i] = ax[j][i];
      c->bh[j] = f.scale * oracle_rng_range(g, 0.05, 0.5);
    }
    break;
  }
  case OV_overlap_sphere_triangle:
    oracle_rng_cube(g, u);
    for (i = 0; i < 3; ++i)
      u[i] *= 0.5;
    oracle_frame_point(&f, u, c->a[0]);
    c->ah[0] = f.scale * oracle_rng_range(g, 0.05, 0.6);
    for (j = 0; j < 3; ++j) {
      oracle_rng_cube(g, w);
      for (i = 0; i < 3; ++i)
        w[i] = 0.7 * w[i] + 0.3 * shift[i];
      oracle_frame_point(&f, w, c->b[j]);
    }
    break;
  default:
    for (j = 0; j < 3; ++j) {
      oracle_rng_cube(g, u);
      for (i = 0; i < 3; ++i)
        u[i] *= sz;
      oracle_frame_point(&f, u, c->a[j]);
      oracle_rng_cube(g, w);
      for (i = 0; i < 3; ++i)
        w[i] = sz * w[i] + 0.5 * shift[i];
      oracle_frame_point(&f, w, c->b[j]);
    }
    break;
  }
}

/* Grid placement for exact adversarial cases (as test_raycast.c). */
typedef struct ov_grid {
  double s, shift[3];
} ov_grid;

static ov_grid ov_grid_random(oracle_rng *g) {
  ov_grid f;
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

/* Grid point of the integer coordinates q (units of s / 16). */
static void ov_place(const ov_grid *f, const int q[3], double out[3]) {
  int i;
  for (i = 0; i < 3; ++i)
    out[i] = f->shift[i] + f->s * q[i] / 16.0;
}

static void ov_rand_q(oracle_rng *g, int q[3], int r) {
  int i;
  for (i = 0; i < 3; ++i)
    q[i] = oracle_rng_int(g, 2 * r + 1) - r;
}

/* Adversarial: touching and coplanar configurations on an exact grid. */
static void ov_gen_adversarial(oracle_rng *g, int k, ov_case *c) {
  ov_grid f = ov_grid_random(g);
  int qa[4][3], qb[4][3], i, j, sub = oracle_rng_int(g, 6);
  memset(c, 0, sizeof *c);
  c->k = k;
  switch (k) {
  case OV_overlap_aabb_aabb:
  case OV_overlap_triangle_aabb:
  case OV_overlap_obb_obb: {
    /* Box b on the grid; a touches or nearly touches it. */
    int lo[3], hi[3];
    ov_rand_q(g, lo, 8);
    for (i = 0; i < 3; ++i)
      hi[i] = lo[i] + 1 + oracle_rng_int(g, 8);
    if (k == OV_overlap_obb_obb) {
      int perm = oracle_rng_int(g, 3);
      for (i = 0; i < 3; ++i)
        qb[0][i] = lo[i] + hi[i]; /* center * 2 */
      for (j = 0; j < 3; ++j) {
        int a = (j + perm) % 3;
        for (i = 0; i < 3; ++i)
          c->b[j + 1][i] = i == a;
        c->bh[j] = f.s * (hi[a] - lo[a]) / 32.0;
      }
      for (i = 0; i < 3; ++i)
        c->b[0][i] = f.shift[i] + f.s * qb[0][i] / 32.0;
      /* Box a: axis-aligned too (touching faces, edges, corners), or
       * rotated by 90 degrees about an axis. */
      {
        int la[3], ha[3];
        for (i = 0; i < 3; ++i) {
          int side = oracle_rng_int(g, 3);
          int ext = 1 + oracle_rng_int(g, 6);
          int gap = sub == 0 ? 1 : 0; /* sub 0: one grid step apart */
          if (side == 0) {
            ha[i] = lo[i] - gap;
            la[i] = ha[i] - ext;
          } else if (side == 1) {
            la[i] = hi[i] + gap;
            ha[i] = la[i] + ext;
          } else {
            la[i] = lo[i] - oracle_rng_int(g, 3);
            ha[i] = la[i] + ext;
          }
        }
        perm = oracle_rng_int(g, 3);
        for (i = 0; i < 3; ++i)
          c->a[0][i] = f.shift[i] + f.s * (la[i] + ha[i]) / 32.0;
        for (j = 0; j < 3; ++j) {
          int a = (j + perm) % 3;
          for (i = 0; i < 3; ++i)
            c->a[j + 1][i] = i == a;
          c->ah[j] = f.s * (ha[a] - la[a]) / 32.0;
        }
      }
      break;
    }
    ov_place(&f, lo, c->b[0]);
    ov_place(&f, hi, c->b[1]);
    if (k == OV_overlap_aabb_aabb) {
      int la[3], ha[3];
      for (i = 0; i < 3; ++i) {
        int side = oracle_rng_int(g, 3), ext = oracle_rng_int(g, 6);
        int gap = sub == 0 ? 1 : 0;
        if (side == 0) {
          ha[i] = lo[i] - gap;
          la[i] = ha[i] - ext;
        } else if (side == 1) {
          la[i] = hi[i] + gap;
          ha[i] = la[i] + ext;
        } else {
          la[i] = lo[i] + oracle_rng_int(g, 3) - 1;
          ha[i] = la[i] + ext;
        }
      }
      ov_place(&f, la, c->a[0]);
      ov_place(&f, ha, c->a[1]);
    } else {
      /* Triangle touching the box at a corner / edge / face point, or in
       * the plane of a face, or degenerate. */
      int t[3];
      for (i = 0; i < 3; ++i) {
        int r = oracle_rng_int(g, 3);
        t[i] = r == 0 ? lo[i] : (r == 1 ? hi[i] : lo[i] + 1);
      }
      for (j = 0; j < 3; ++j) {
        for (i = 0; i < 3; ++i)
          qa[j][i] = t[i];
      }
      /* Two more vertices going outwards (or along a face plane). */
      for (j = 1; j < 3; ++j)
        for (i = 0; i < 3; ++i) {
          int dir = t[i] == lo[i] ? -1 : (t[i] == hi[i] ? 1 : 0);
          int step = oracle_rng_int(g, 5);
          qa[j][i] = t[i] + (dir ? dir * step : step - 2);
        }
      if (sub == 1)
        for (i = 0; i < 3; ++i)
          qa[2][i] = qa[1][i]; /* degenerate */
      if (sub == 2) {
        /* vertex one step out of the touching point */
        for (j = 0; j < 3; ++j)
          qa[j][0] += t[0] == hi[0] ? 1 : (t[0] == lo[0] ? -1 : 0);
      }
      for (j = 0; j < 3; ++j)
        ov_place(&f, qa[j], c->a[j]);
    }
    break;
  }
  case OV_overlap_sphere_triangle: {
    /* Ball of radius 5 m touching the triangle at a vertex (offset
     * m (3, 4, 0)), an edge or the face (offset along an axis). */
    double m = f.s / 16 * (1 + oracle_rng_int(g, 3));
    int p = oracle_rng_int(g, 3);
    ov_rand_q(g, qb[0], 8);
    for (j = 1; j < 3; ++j)
      ov_rand_q(g, qb[j], 8);
    for (j = 0; j < 3; ++j)
      ov_place(&f, qb[j], c->b[j]);
    c->ah[0] = 5 * m * (sub == 5 ? 1.5 : 1);
    if (sub <= 2) {
      /* At vertex 0, moved away by m (3, 4, 0): touching when the vertex
       * is the triangle's closest point. */
      for (i = 0; i < 3; ++i)
        c->a[0][i] = c->b[0][i];
      c->a[0][p] += 3 * m * oracle_rng_sign(g);
      c->a[0][(p + 1) % 3] += 4 * m * oracle_rng_sign(g);
    } else {
      /* An axis-aligned triangle (in a plane x_p = const), ball above it
       * at exactly its radius. */
      for (j = 0; j < 3; ++j)
        c->b[j][p] = c->b[0][p];
      for (i = 0; i < 3; ++i)
        c->a[0][i] = (c->b[0][i] + c->b[1][i] + 2 * c->b[2][i]) / 4;
      c->a[0][p] += 5 * m * oracle_rng_sign(g);
    }
    break;
  }
  default: {
    /* Triangle-triangle: shared vertex, vertex on an edge or face,
     * coplanar, identical, degenerate, crossing edges. */
    for (j = 0; j < 3; ++j) {
      ov_rand_q(g, qa[j], 8);
      ov_rand_q(g, qb[j], 8);
    }
    switch (sub) {
    case 0: /* shared vertex */
      for (i = 0; i < 3; ++i)
        qb[0][i] = qa[oracle_rng_int(g, 3)][i];
      break;
    case 1: /* b's vertex on a's edge midpoint (coordinates doubled) */
      for (j = 0; j < 3; ++j)
        for (i = 0; i < 3; ++i) {
          qa[j][i] *= 2;
          qb[j][i] *= 2;
        }
      for (i = 0; i < 3; ++i)
        qb[0][i] = (qa[0][i] + qa[1][i]) / 2;
      break;
    case 2: /* coplanar: all in a plane x_p = const */
    {
      int p = oracle_rng_int(g, 3), v = qa[0][p];
      for (j = 0; j < 3; ++j)
        qa[j][p] = qb[j][p] = v;
      break;
    }
    case 3: /* b's vertex on a's face: (a0 + a1 + 2 a2) / 4 */
      for (j = 0; j < 3; ++j)
        for (i = 0; i < 3; ++i) {
          qa[j][i] *= 4;
          qb[j][i] *= 4;
        }
      for (i = 0; i < 3; ++i)
        qb[1][i] = (qa[0][i] + qa[1][i] + 2 * qa[2][i]) / 4;
      break;
    case 4: /* degenerate b (segment or point) through a */
      for (i = 0; i < 3; ++i) {
        qb[2][i] = qb[oracle_rng_int(g, 2)][i];
        if (oracle_rng_int(g, 2)) qb[1][i] = qb[0][i];
      }
      break;
    default: /* identical or sharing an edge */
      for (j = 0; j < 3; ++j)
        for (i = 0; i < 3; ++i)
          if (j < 2 || oracle_rng_int(g, 2)) qb[j][i] = qa[j][i];
      break;
    }
    for (j = 0; j < 3; ++j) {
      ov_place(&f, qa[j], c->a[j]);
      ov_place(&f, qb[j], c->b[j]);
    }
    break;
  }
  }
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                   */
/* ------------------------------------------------------------------------ */

static void ov_note(const ov_case *c, int is_float, int got, double gap) {
  int j;
  h_note("%s %s: got %d, exact gap %.17g", ov_names[c->k], is_float ? "float" : "double", got, gap);
  for (j = 0; j < 4; ++j)
    h_note("  a%d (%.17g, %.17g, %.17g)  b%d (%.17g, %.17g, %.17g)", j, c->a[j][0], c->a[j][1],
           c->a[j][2], j, c->b[j][0], c->b[j][1], c->b[j][2]);
  h_note("  ah (%.17g, %.17g, %.17g) bh (%.17g, %.17g, %.17g)", c->ah[0], c->ah[1], c->ah[2],
         c->bh[0], c->bh[1], c->bh[2]);
}

static void ov_check(ov_case *c, int is_float, int kind) {
  double gap, S, band = is_float ? ORY_BAND_FLOAT : ORY_BAND_DOUBLE;
  int got, overlap;
  ov_row *row = &ov_rows[c->k][is_float][kind];
  if (is_float) ov_to_float(c);
  got = ov_run(c, is_float);
  S = ov_scale(c);
  if (c->k == OV_overlap_sphere_triangle)
    overlap = ov_exact_sphtri(c, &gap);
  else {
    gap = ov_exact_gap(c);
    overlap = !(gap > 0);
  }
  ++row->cases;
  row->overlapping += overlap;
  h_case_begin();
  CHECK(got == 0 || got == 1);
  if (c->k == OV_overlap_aabb_aabb || c->k == OV_overlap_triangle_triangle) {
    /* Exact kernels. */
    ++row->decided;
    CHECK_MSG(got == overlap, "%s: got %d, exact %d", ov_names[c->k], got, overlap);
  } else {
    if (overlap) {
      ++row->decided;
      CHECK_MSG(got, "%s: overlap reported apart", ov_names[c->k]);
    } else if (gap > band * S) {
      ++row->decided;
      CHECK_MSG(!got, "%s: clear separation (%g S) reported as overlap", ov_names[c->k], gap / S);
    } else {
      ++row->amb;
      row->false_pos += got;
    }
  }
  if (h_case_failed()) ov_note(c, is_float, got, gap);
}

static void ov_kernel_test(int k) {
  int kind, prec;
  long i, n = h_count(k == OV_overlap_triangle_triangle || k == OV_overlap_obb_obb ? 5000 : 6000);
  for (prec = 0; prec < 2; ++prec)
    for (kind = 0; kind < ORACLE_KINDS; ++kind) {
      oracle_rng g = oracle_rng_named((uint64_t)(10 * kind + prec + 99), ov_names[k]);
      for (i = 0; i < n; ++i) {
        ov_case c;
        if (kind == ORACLE_ADVERSARIAL)
          ov_gen_adversarial(&g, k, &c);
        else
          ov_gen_general(&g, k, kind, &c);
        ov_check(&c, prec, kind);
      }
    }
}

/* One test per overlap kernel of the registry: test_<name>. */
#define OV_TEST(name, first, second)                                                               \
  static void test_##name(void) {                                                                  \
    ov_kernel_test(OV_##name);                                                                     \
  }
PROX_KERNELS_OVERLAP(OV_TEST)

/* Documented special cases. */
static void test_overlap_documented(void) {
  prox_triangle a, b;
  prox_obb p, q;
  prox_aabb box;
  int i;
  /* Touching triangles: a shared vertex only, and coplanar edge contact. */
  a.v[0] = prox_v3(0, 0, 0);
  a.v[1] = prox_v3(1, 0, 0);
  a.v[2] = prox_v3(0, 1, 0);
  b.v[0] = prox_v3(1, 0, 0);
  b.v[1] = prox_v3(2, 0, 1);
  b.v[2] = prox_v3(2, 1, -1);
  CHECK(prox_overlap_triangle_triangle(&a, &b) == 1);
  b.v[0] = prox_v3(1.0000000000000002, 0, 0);
  CHECK(prox_overlap_triangle_triangle(&a, &b) == 0);
  b.v[0] = prox_v3(0.5, 0.5, 0);
  b.v[1] = prox_v3(1, 1, 0);
  b.v[2] = prox_v3(2, 0.5, 0);
  CHECK(prox_overlap_triangle_triangle(&a, &b) == 1);
  /* Zero-area b: a point on a's face, then just off it. */
  b.v[0] = b.v[1] = b.v[2] = prox_v3(0.25, 0.25, 0);
  CHECK(prox_overlap_triangle_triangle(&a, &b) == 1);
  b.v[0] = b.v[1] = b.v[2] = prox_v3(0.25, 0.25, 1e-300);
  CHECK(prox_overlap_triangle_triangle(&a, &b) == 0);
  /* Parallel edges: two identical OBBs, one shifted to touch. */
  p.center = prox_v3(0, 0, 0);
  for (i = 0; i < 3; ++i) {
    p.axis[i] = prox_v3(i == 0, i == 1, i == 2);
    p.half[i] = 1;
  }
  q = p;
  q.center = prox_v3(2, 2, 0);
  CHECK(prox_overlap_obb_obb(&p, &q) == 1);
  q.center = prox_v3(2, 2.001, 0);
  CHECK(prox_overlap_obb_obb(&p, &q) == 0);
  /* A triangle touching a box corner. */
  box.min = prox_v3(0, 0, 0);
  box.max = prox_v3(1, 1, 1);
  a.v[0] = prox_v3(1, 1, 1);
  a.v[1] = prox_v3(2, 1, 1);
  a.v[2] = prox_v3(1, 3, 2);
  CHECK(prox_overlap_triangle_aabb(&a, &box) == 1);
  a.v[0] = prox_v3(1.001, 1, 1);
  CHECK(prox_overlap_triangle_aabb(&a, &box) == 0);
}

/* The reals kernel c->k reads, in *out; returns their number. */
static int ov_fields(ov_case *c, double **out) {
  int n = 0, j, i, na, nb;
  switch (c->k) {
  case OV_overlap_aabb_aabb:
    na = 2, nb = 2;
    break;
  case OV_overlap_obb_obb:
    na = 4, nb = 4;
    break;
  case OV_overlap_triangle_aabb:
    na = 3, nb = 2;
    break;
  case OV_overlap_sphere_triangle:
    na = 1, nb = 3;
    break;
  default:
    na = 3, nb = 3;
    break;
  }
  for (j = 0; j < na; ++j)
    for (i = 0; i < 3; ++i)
      out[n++] = &c->a[j][i];
  for (j = 0; j < nb; ++j)
    for (i = 0; i < 3; ++i)
      out[n++] = &c->b[j][i];
  if (c->k == OV_overlap_obb_obb)
    for (i = 0; i < 3; ++i) {
      out[n++] = &c->ah[i];
      out[n++] = &c->bh[i];
    }
  if (c->k == OV_overlap_sphere_triangle) out[n++] = &c->ah[0];
  return n;
}

/* Two overlapping shapes (and, with apart set, two shapes far apart) of
 * kernel k. */
static ov_case ov_base(int k, int apart) {
  ov_case c;
  double o = apart ? 10 : 0;
  int j;
  memset(&c, 0, sizeof c);
  c.k = k;
  switch (k) {
  case OV_overlap_aabb_aabb:
  case OV_overlap_triangle_aabb:
    c.b[0][0] = c.b[0][1] = c.b[0][2] = 0;
    c.b[1][0] = c.b[1][1] = c.b[1][2] = 1;
    break;
  case OV_overlap_obb_obb:
    for (j = 0; j < 3; ++j) {
      c.a[j + 1][j] = c.b[j + 1][j] = 1;
      c.ah[j] = c.bh[j] = 1;
    }
    c.b[0][0] = 1.5 + o;
    break;
  case OV_overlap_sphere_triangle:
    c.a[0][2] = 0.5 + o;
    c.ah[0] = 1;
    break;
  }
  if (k == OV_overlap_aabb_aabb) {
    c.a[0][0] = c.a[0][1] = c.a[0][2] = 0.5 + o;
    c.a[1][0] = c.a[1][1] = c.a[1][2] = 2 + o;
  }
  if (k == OV_overlap_triangle_aabb || k == OV_overlap_triangle_triangle) {
    c.a[0][0] = 0.25 + o, c.a[0][1] = 0.25, c.a[0][2] = 0.5;
    c.a[1][0] = 3 + o, c.a[1][1] = 0.5, c.a[1][2] = 0.5;
    c.a[2][0] = 0.5 + o, c.a[2][1] = 3, c.a[2][2] = 0.5;
  }
  if (k == OV_overlap_sphere_triangle || k == OV_overlap_triangle_triangle) {
    c.b[0][0] = 0, c.b[0][1] = 0, c.b[0][2] = k == OV_overlap_triangle_triangle ? 0 : 0.25;
    c.b[1][0] = 2, c.b[1][1] = 0, c.b[1][2] = k == OV_overlap_triangle_triangle ? 1 : 0.25;
    c.b[2][0] = 0, c.b[2][1] = 2, c.b[2][2] = k == OV_overlap_triangle_triangle ? 1 : 0.25;
  }
  return c;
}

/* Non-finite input: NaN, +inf or -inf in any one real that a kernel reads
 * gives 0 (overlap.h), from two overlapping shapes and from two apart, in
 * both precisions. AABB-AABB is the exception for infinities: its bounds
 * may be infinite and mean what they say. Issue 13: a sphere of radius
 * +inf overlapped every triangle. */
static void test_overlap_nonfinite(void) {
  const double bad[3] = {NAN, INFINITY, -INFINITY};
  int k, apart, prec, f, w;
  for (k = 0; k < OV_KERNELS; ++k)
    for (prec = 0; prec < 2; ++prec)
      for (apart = 0; apart < 2; ++apart) {
        ov_case c = ov_base(k, apart);
        double *fields[32];
        int n = ov_fields(&c, fields);
        CHECK_MSG(ov_run(&c, prec) == !apart, "%s %s: base case gives %d", ov_names[k],
                  prec ? "float" : "double", ov_run(&c, prec));
        for (f = 0; f < n; ++f)
          for (w = 0; w < 3; ++w) {
            double keep = *fields[f];
            int got;
            if (k == OV_overlap_aabb_aabb && w > 0) continue;
            *fields[f] = bad[w];
            got = ov_run(&c, prec);
            CHECK_MSG(got == 0, "%s %s, %s case: real %d = %g gives %d", ov_names[k],
                      prec ? "float" : "double", apart ? "apart" : "overlapping", f, bad[w], got);
            *fields[f] = keep;
          }
      }
  /* The case: an infinite radius, the triangle anywhere. */
  {
    prox_sphere sp;
    prox_spheref spf;
    prox_triangle t;
    prox_trianglef tf;
    int i;
    sp.center = prox_v3(0, 0, 0);
    spf.center = prox_v3f(0, 0, 0);
    sp.radius = INFINITY;
    spf.radius = INFINITY;
    for (i = 0; i < 3; ++i) {
      t.v[i] = prox_v3(5 + i, 1, 2);
      tf.v[i] = prox_v3f(5.0f + (float)i, 1, 2);
    }
    CHECK(prox_overlap_sphere_triangle(&sp, &t) == 0);
    CHECK(prox_overlap_sphere_trianglef(&spf, &tf) == 0);
    sp.radius = -INFINITY;
    spf.radius = -INFINITY;
    CHECK(prox_overlap_sphere_triangle(&sp, &t) == 0);
    CHECK(prox_overlap_sphere_trianglef(&spf, &tf) == 0);
  }
  /* AABB-AABB with infinite bounds: half-lines and all of space. */
  {
    prox_aabb a, b;
    prox_aabbf af, bf;
    a.min = prox_v3(0, 0, 0);
    a.max = prox_v3(1, 1, 1);
    b.min = prox_v3(5, 0, 0);
    b.max = prox_v3(INFINITY, 1, 1);
    CHECK(prox_overlap_aabb_aabb(&a, &b) == 0);
    a.max.x = INFINITY;
    CHECK(prox_overlap_aabb_aabb(&a, &b) == 1);
    b.min = prox_v3(-INFINITY, -INFINITY, -INFINITY);
    b.max = prox_v3(INFINITY, INFINITY, INFINITY);
    a.min = a.max = prox_v3(-1e300, 3, 1e300);
    CHECK(prox_overlap_aabb_aabb(&a, &b) == 1);
    af.min = prox_v3f(0, 0, 0);
    af.max = prox_v3f(1, 1, 1);
    bf.min = prox_v3f(5, 0, 0);
    bf.max = prox_v3f(INFINITY, 1, 1);
    CHECK(prox_overlap_aabb_aabbf(&af, &bf) == 0);
    af.max.x = INFINITY;
    CHECK(prox_overlap_aabb_aabbf(&af, &bf) == 1);
  }
}

int main(int argc, char **argv) {
  int k, p, kind;
  h_init(argc, argv);
  H_RUN(test_overlap_documented);
  H_RUN(test_overlap_nonfinite);
#define OV_RUN(name, first, second) H_RUN(test_##name);
  PROX_KERNELS_OVERLAP(OV_RUN)
  printf("\n| kernel | precision | cases | n | overlapping | decided | "
         "within band | of those reported overlapping |\n");
  printf("|---|---|---|--:|--:|--:|--:|--:|\n");
  for (k = 0; k < OV_KERNELS; ++k)
    for (p = 0; p < 2; ++p)
      for (kind = 0; kind < ORACLE_KINDS; ++kind) {
        const ov_row *r = &ov_rows[k][p][kind];
        if (!r->cases) continue;
        printf("| %s | %s | %s | %ld | %ld | %ld | %ld | %ld |\n", ov_names[k],
               p ? "float" : "double", oracle_kind_name(kind), r->cases, r->overlapping, r->decided,
               r->amb, r->false_pos);
      }
  printf("\n");
  return h_finish();
}

#define TEST_OVERLAP_TEMPLATE
#include <prox/detail/real_double.h>
#include "test_overlap.c"
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#include "test_overlap.c"
#include <prox/detail/real_end.h>
#undef TEST_OVERLAP_TEMPLATE

#else /* TEST_OVERLAP_TEMPLATE: the kernel calls of one precision */

/* The primitives of a case by the registry's codes (ab aabb, ob obb, tr
 * triangle, sp sphere), from its points p and scalars h (ov_case). */
#define OV_VEC(a) PROX_FN(prox_v3)((PROX_REAL)(a)[0], (PROX_REAL)(a)[1], (PROX_REAL)(a)[2])
#define OV_TYPE_ab PROX_FN(prox_aabb)
#define OV_TYPE_ob PROX_FN(prox_obb)
#define OV_TYPE_tr PROX_FN(prox_triangle)
#define OV_TYPE_sp PROX_FN(prox_sphere)

static void PROX_FN(ov_make_ab)(const double (*p)[3], const double *h, OV_TYPE_ab *x) {
  (void)h;
  x->min = OV_VEC(p[0]);
  x->max = OV_VEC(p[1]);
}

static void PROX_FN(ov_make_ob)(const double (*p)[3], const double *h, OV_TYPE_ob *x) {
  int i;
  x->center = OV_VEC(p[0]);
  for (i = 0; i < 3; ++i) {
    x->axis[i] = OV_VEC(p[i + 1]);
    x->half[i] = (PROX_REAL)h[i];
  }
}

static void PROX_FN(ov_make_tr)(const double (*p)[3], const double *h, OV_TYPE_tr *x) {
  int i;
  (void)h;
  for (i = 0; i < 3; ++i)
    x->v[i] = OV_VEC(p[i]);
}

static void PROX_FN(ov_make_sp)(const double (*p)[3], const double *h, OV_TYPE_sp *x) {
  x->center = OV_VEC(p[0]);
  x->radius = (PROX_REAL)h[0];
}

/* The kernel of c (a case already in this precision): its first shape from
 * c->a and c->ah, its second from c->b and c->bh. */
#define OV_CALL(name, first, second)                                                               \
  case OV_##name: {                                                                                \
    OV_TYPE_##first A;                                                                             \
    OV_TYPE_##second B;                                                                            \
    PROX_FN(ov_make_##first)(c->a, c->ah, &A);                                                     \
    PROX_FN(ov_make_##second)(c->b, c->bh, &B);                                                    \
    return PROX_FN(prox_##name)(&A, &B);                                                           \
  }
static int PROX_FN(ov_run_p)(const ov_case *c) {
  switch (c->k) {
    PROX_KERNELS_OVERLAP(OV_CALL)
  default:
    return -1;
  }
}
#undef OV_CALL
#undef OV_VEC
#undef OV_TYPE_ab
#undef OV_TYPE_ob
#undef OV_TYPE_tr
#undef OV_TYPE_sp

#endif /* TEST_OVERLAP_TEMPLATE */
