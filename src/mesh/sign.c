/* SPDX-License-Identifier: MIT */
/* Signed distance, inside tests and winding numbers (prox/sign.h), both
 * precisions from the template sign_impl.inl. The precision-free parts are
 * here: exact segment-triangle crossings, solid angles, the options. */
#include <prox/batch.h>   /* the leaf kernel of the closest-point walk */
#include <prox/overlap.h> /* the exact orient3d (prox_detail_ov_*) */
#include <prox/sign.h>

#include "mesh_internal.h"
#include "simd/batch_impl.h"
#include "simd/dispatch.h"
#include "sign_check.h"

#include <float.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif

prox_sdf_options prox_sdf_options_default(void) {
  prox_sdf_options o;
  o.method = PROX_SIGN_AUTO;
  o.accuracy = 2.0;
  o.tolerance = 0.25;
  o.threads = 0;
  return o;
}

/* The exact crossing of the closed segment p q with triangle a b c:
 * returns 0 when they do not meet (or meet only where p lies in the plane
 * outside the triangle), or the triangle has zero area, 1 with *sign the crossing's contribution to
 * the winding number (+1 leaving through the front, -1 entering), 2 when the segment touches an
 * edge or a vertex, or q lies in the plane, or the segment lies in the plane (no decision), 3 when
 * p lies in the closed triangle. All decisions are exact (orient3d: a filter, then expansions). */
static int sdf_cross(const double *p, const double *q, const double *a, const double *b,
                     const double *c, int *sign) {
  int sp = prox_detail_orient3d_sign(a, b, c, p);
  int sq = prox_detail_orient3d_sign(a, b, c, q);
  int e1, e2, e3;
  if (sp != 0 && sp == sq) return 0;
  if (sp == 0) {
    /* p in the plane: on the triangle, or the segment misses it (q off the
     * plane) or lies in the plane (q on it too: undecided). A triangle of
     * zero area (every point in its "plane") has no surface: its solid
     * angle is 0 from everywhere, it adds nothing to a winding number, and
     * a segment that touches it touches an edge of a neighbour. */
    double t[3][3];
    int ax;
    memcpy(t[0], a, sizeof t[0]);
    memcpy(t[1], b, sizeof t[1]);
    memcpy(t[2], c, sizeof t[2]);
    ax = prox_detail_ov_tri_axis((const double(*)[3])t);
    if (ax < 0) return 0;
    if (sq == 0) return 2;
    {
      int o, d1, d2, d3;
      o = prox_detail_orient2d_sign(a, b, c, ax);
      d1 = prox_detail_orient2d_sign(a, b, p, ax) * o;
      d2 = prox_detail_orient2d_sign(b, c, p, ax) * o;
      d3 = prox_detail_orient2d_sign(c, a, p, ax) * o;
      return d1 >= 0 && d2 >= 0 && d3 >= 0 ? 3 : 0;
    }
  }
  if (sq == 0) return 2;
  e1 = prox_detail_orient3d_sign(p, q, a, b);
  e2 = prox_detail_orient3d_sign(p, q, b, c);
  e3 = prox_detail_orient3d_sign(p, q, c, a);
  if ((e1 > 0 || e2 > 0 || e3 > 0) && (e1 < 0 || e2 < 0 || e3 < 0))
    return 0; /* mixed signs: the line passes beside the triangle */
  if (e1 == 0 || e2 == 0 || e3 == 0) return 2; /* an edge or a vertex */
  /* This orient3d is positive when p is in front of the triangle (on the
   * side of its normal (b - a) x (c - a)): the segment then enters, -1. */
  *sign = -sp;
  return 1;
}

/* The box [lo, hi] of three points. */
static void sdf_box3(const double (*t)[3], double *lo, double *hi) {
  int k;
  for (k = 0; k < 3; ++k) {
    lo[k] = t[0][k] < t[1][k] ? t[0][k] : t[1][k];
    lo[k] = t[2][k] < lo[k] ? t[2][k] : lo[k];
    hi[k] = t[0][k] > t[1][k] ? t[0][k] : t[1][k];
    hi[k] = t[2][k] > hi[k] ? t[2][k] : hi[k];
  }
}

/* Whether the three points t lie wholly beyond the box [lo, hi] on one
 * axis (exact comparisons: then the triangle misses the box). */
static int sdf_beyond(const double (*t)[3], const double *lo, const double *hi) {
  int k;
  for (k = 0; k < 3; ++k)
    if ((t[0][k] > hi[k] && t[1][k] > hi[k] && t[2][k] > hi[k]) ||
        (t[0][k] < lo[k] && t[1][k] < lo[k] && t[2][k] < lo[k]))
      return 1;
  return 0;
}

/* Whether boxes [alo, ahi] and [blo, bhi] are apart on an axis. */
static int sdf_beyond_box(const double *alo, const double *ahi, const double *blo,
                          const double *bhi) {
  int k;
  for (k = 0; k < 3; ++k)
    if (alo[k] > bhi[k] || ahi[k] < blo[k]) return 1;
  return 0;
}

/* What sub_touched needs of a triangle, once: its vertices, box and
 * normal n = (v1 - v0) x (v2 - v0), emax (a bound on |n . (x - v0)| for x
 * in the triangle: the error of n, each component within 16 eps m1 m2 of
 * the exact normal's with the edges' rounding, times the longer edge in
 * the 1-norm), and ok = 0 where these products come near underflow (the
 * bounds would not hold). */
typedef struct sdf_tplane {
  double v[3][3], lo[3], hi[3], n[3], emax;
  int ok;
} sdf_tplane;

static void sdf_tplane_init(sdf_tplane *tp) {
  double e1[3], e2[3], m1 = 0, m2 = 0, l1 = 0, l2 = 0, lm;
  int k;
  sdf_box3((const double(*)[3])tp->v, tp->lo, tp->hi);
  for (k = 0; k < 3; ++k) {
    e1[k] = tp->v[1][k] - tp->v[0][k];
    e2[k] = tp->v[2][k] - tp->v[0][k];
    m1 = fabs(e1[k]) > m1 ? fabs(e1[k]) : m1;
    m2 = fabs(e2[k]) > m2 ? fabs(e2[k]) : m2;
    l1 += fabs(e1[k]);
    l2 += fabs(e2[k]);
  }
  tp->n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  tp->n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  tp->n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  lm = l1 > l2 ? l1 : l2;
  tp->emax = 32.0 * DBL_EPSILON * m1 * m2 * lm;
  tp->ok = m1 * m2 * lm >= 0x1p-900;
}

/* sdf_cross() after the box test: the segment p q's box is [slo, shi]
 * (sdf_segment_box); a triangle wholly beyond it misses the segment. */
static int sdf_cross_boxed(const double *p, const double *q, const double *slo, const double *shi,
                           const double (*t)[3], int *sign) {
  if (sdf_beyond(t, slo, shi)) return 0;
  return sdf_cross(p, q, t[0], t[1], t[2], sign);
}

/* Whether the closed triangle t and the closed box [lo, hi] meet,
 * exactly: the separating axes of the box's faces, the triangle's plane
 * (every corner strictly on one side, exact orient3d) and, in the
 * projection along each axis, each edge's line (every corner strictly
 * beyond it from the third vertex, or for a projection that is a segment,
 * strictly on one side; exact orient2d). Two disjoint convex polygons
 * have an edge of one whose line separates them, so these axes find every
 * separation. For the tests' hook (prox/overlap.h's test is conservative:
 * it may report a triangle a few ulps away as touching). */
static int sdf_tri_box_exact(const double (*t)[3], const double *lo, const double *hi) {
  double c[8][3];
  int i, k, e, pos = 0, neg = 0;
  if (sdf_beyond(t, lo, hi)) return 0;
  for (i = 0; i < 8; ++i)
    for (k = 0; k < 3; ++k)
      c[i][k] = i >> k & 1 ? hi[k] : lo[k];
  for (i = 0; i < 8; ++i) {
    int sg = prox_detail_orient3d_sign(t[0], t[1], t[2], c[i]);
    pos += sg > 0;
    neg += sg < 0;
  }
  if (pos == 8 || neg == 8) return 0;
  for (k = 0; k < 3; ++k)
    for (e = 0; e < 3; ++e) {
      const double *a = t[e], *b = t[(e + 1) % 3], *o = t[(e + 2) % 3];
      int so = prox_detail_orient2d_sign(a, b, o, k), beyond = 0, plus = 0, minus = 0;
      for (i = 0; i < 8; ++i) {
        int sg = prox_detail_orient2d_sign(a, b, c[i], k);
        beyond += so != 0 && sg == -so;
        plus += sg > 0;
        minus += sg < 0;
      }
      if (beyond == 8 || (so == 0 && (plus == 8 || minus == 8))) return 0;
    }
  return 1;
}

/* The box of the segment p q. */
static void sdf_segment_box(const double *p, const double *q, double *lo, double *hi) {
  int k;
  for (k = 0; k < 3; ++k) {
    lo[k] = p[k] < q[k] ? p[k] : q[k];
    hi[k] = p[k] < q[k] ? q[k] : p[k];
  }
}

/* Whether triangles a and b of a mesh (vertex indices ia, ib) meet other
 * than in what they share, exactly. Two with no common index meet when
 * their closed sets do (touching counts); two with a common edge only when
 * they are coplanar and on the same side of it (folded onto each other);
 * two with one common vertex v when they meet at another point: in
 * general position the line where their planes cross leaves v inside both
 * or one of them, so they meet beyond v exactly when the edge opposite v
 * of one meets the other; coplanar, when their angles at v overlap (one
 * angle holds a side of the other). Duplicates meet. A zero-area triangle
 * meets nothing: it has no surface of its own. */
static int sdf_pair_meets(const double (*a)[3], const uint32_t *ia, const double (*b)[3],
                          const uint32_t *ib) {
  int ka = prox_detail_ov_tri_axis(a), kb = prox_detail_ov_tri_axis(b);
  int shared = 0, va = -1, vb = -1, i, j;
  if (ka < 0 || kb < 0) return 0;
  for (i = 0; i < 3; ++i)
    for (j = 0; j < 3; ++j)
      if (ia[i] == ib[j]) {
        ++shared;
        va = i;
        vb = j;
      }
  if (shared == 0) return prox_detail_ov_tri_tri(a, b);
  if (shared == 3) return 1;
  if (shared == 2) {
    /* The vertices off the common edge: ra of a, rb of b. */
    int ra = 0, rb = 0;
    const double *p, *q;
    for (i = 0; i < 3; ++i) {
      if (ia[i] != ib[0] && ia[i] != ib[1] && ia[i] != ib[2]) ra = i;
      if (ib[i] != ia[0] && ib[i] != ia[1] && ib[i] != ia[2]) rb = i;
    }
    p = a[(ra + 1) % 3];
    q = a[(ra + 2) % 3];
    if (prox_detail_orient3d_sign(p, q, a[ra], b[rb]) != 0) return 0;
    return prox_detail_orient2d_sign(p, q, a[ra], ka) == prox_detail_orient2d_sign(p, q, b[rb], ka);
  }
  {
    const double *v = a[va], *a1 = a[(va + 1) % 3], *a2 = a[(va + 2) % 3];
    const double *b1 = b[(vb + 1) % 3], *b2 = b[(vb + 2) % 3];
    int s1 = prox_detail_orient3d_sign(a[0], a[1], a[2], b1);
    int s2 = prox_detail_orient3d_sign(a[0], a[1], a[2], b2);
    if (s1 == 0 && s2 == 0) {
      /* Coplanar: direction x is in the angle (v; p, q) of orientation o
       * when it is on the o side of v p and q on the o side of v x. */
      int oa = prox_detail_orient2d_sign(v, a1, a2, ka);
      int ob = prox_detail_orient2d_sign(v, b1, b2, ka);
#define SDF_IN_ANGLE(x, p, q, o)                                                                   \
  (prox_detail_orient2d_sign(v, p, x, ka) * (o) >= 0 &&                                            \
   prox_detail_orient2d_sign(v, x, q, ka) * (o) >= 0)
      int r = SDF_IN_ANGLE(b1, a1, a2, oa) || SDF_IN_ANGLE(b2, a1, a2, oa) ||
              SDF_IN_ANGLE(a1, b1, b2, ob) || SDF_IN_ANGLE(a2, b1, b2, ob);
#undef SDF_IN_ANGLE
      return r;
    }
    {
      int t1 = prox_detail_orient3d_sign(b[0], b[1], b[2], a1);
      int t2 = prox_detail_orient3d_sign(b[0], b[1], b[2], a2);
      return prox_detail_ov_seg_tri(a1, a2, b, t1, t2, kb) ||
             prox_detail_ov_seg_tri(b1, b2, a, s1, s2, ka);
    }
  }
}

/* The signed solid angle of triangle a b c seen from p is
 * 2 atan2(det, den) (van Oosterom and Strackee 1983): positive when p is
 * behind the triangle. sdf_solid_terms gives det and den (scaled alike,
 * which leaves the angle as it is) and returns 0 where the angle is 0
 * (det 0, den not negative), else 1. When unsure is not NULL it is set
 * (never cleared) where p lies so near the triangle's plane, inside its
 * cone, that the sign of the rounded determinant, which picks +pi or -pi,
 * is not certain (its error is below 1e-13 of the product of the three
 * distances). */
static int sdf_solid_terms(const double *p, const double *a, const double *b, const double *c,
                           double *det_out, double *den_out, int *unsure) {
  double x[3], y[3], z[3], lx, ly, lz, det, den, big = 0;
  int k;
  for (k = 0; k < 3; ++k) {
    double ax, ay, az;
    x[k] = a[k] - p[k];
    y[k] = b[k] - p[k];
    z[k] = c[k] - p[k];
    /* The largest magnitude (the coordinates are finite: no NaN), without
     * fmax's call. */
    ax = fabs(x[k]);
    ay = fabs(y[k]);
    az = fabs(z[k]);
    if (ax > big) big = ax;
    if (ay > big) big = ay;
    if (az > big) big = az;
  }
  if (big > 0x1p300 || (big < 0x1p-300 && big > 0)) {
    /* Products of three would overflow or underflow: the vectors scaled
     * by a power of two to about 1 (the angle does not change; inside
     * the range the bits are those of the plain evaluation). */
    int e;
    (void)frexp(big, &e);
    for (k = 0; k < 3; ++k) {
      x[k] = ldexp(x[k], -e);
      y[k] = ldexp(y[k], -e);
      z[k] = ldexp(z[k], -e);
    }
  }
  lx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
  lz = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  det = x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) +
        x[2] * (y[0] * z[1] - y[1] * z[0]);
  den = lx * ly * lz + (x[0] * y[0] + x[1] * y[1] + x[2] * y[2]) * lz +
        (y[0] * z[0] + y[1] * z[1] + y[2] * z[2]) * lx +
        (z[0] * x[0] + z[1] * x[1] + z[2] * x[2]) * ly;
  if (unsure && den <= 0 && fabs(det) <= 1e-13 * (lx * ly * lz)) *unsure = 1;
  *det_out = det;
  *den_out = den;
  return !(det == 0 && den >= 0);
}

/* The solid angle of triangle a b c seen from p over 4 pi (sdf_solid_terms). */
static double sdf_solid(const double *p, const double *a, const double *b, const double *c) {
  double det, den;
  if (!sdf_solid_terms(p, a, b, c, &det, &den, NULL)) return 0;
  return atan2(det, den) / (2.0 * 3.14159265358979323846);
}

/* A sum of solid angles with one atan2: the product of the complex
 * numbers den + i det (each scaled to |den| + |det| = 1), its argument in
 * (-pi, pi], and k, the turns the sum of the angles made beyond it (each
 * factor's angle and the product's so far lie in (-pi, pi], so their sum
 * is the new product's argument or that plus or minus 2 pi, told apart by
 * the signs of the imaginary parts; -0 counts as +0 throughout, as
 * sdf_angle_turns reads it). */
typedef struct sdf_angle {
  double re, im;
  long k;
} sdf_angle;

static void sdf_angle_init(sdf_angle *a) {
  a->re = 1;
  a->im = 0;
  a->k = 0;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void
sdf_angle_mul(sdf_angle *a, double det, double den) {
  double sc = 1 / (fabs(den) + fabs(det)), x = den * sc, y = det * sc, re, im;
  int up = a->im >= 0, zu = y >= 0;
  re = a->re * x - a->im * y;
  im = a->re * y + a->im * x;
  if (up && zu && im < 0) ++a->k;
  if (!up && !zu && im >= 0) --a->k;
  /* Each factor is at least 1/sqrt(2) in size: rescaled (exactly) before
   * the product could underflow. */
  if (fabs(re) + fabs(im) < 0x1p-500) {
    re *= 0x1p500;
    im *= 0x1p500;
  }
  a->re = re;
  a->im = im;
}

/* The sum of the angles, over 2 pi. */
static double sdf_angle_turns(const sdf_angle *a) {
  return atan2(a->im + 0.0, a->re) / (2.0 * 3.14159265358979323846) + (double)a->k;
}

/* The far field of a cluster of triangles seen from a point q (both in
 * the moments' frame): its dipole, m[0..2] the sum of its area vectors,
 * (dx, dy, dz) its centre m[3..5] less q, r2 their squared length. In
 * winding-number units. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline double
sdf_dipole(const double *m, double dx, double dy, double dz, double r2) {
  const double inv4pi = 1.0 / (4.0 * 3.14159265358979323846);
  double r = sqrt(r2);
  if (r2 > 0x1p-600 && r2 < 0x1p600) return (m[0] * dx + m[1] * dy + m[2] * dz) / (r2 * r) * inv4pi;
  /* r^3 would overflow or underflow (0 / 0 gave NaN) */
  return (m[0] * (dx / r) + m[1] * (dy / r) + m[2] * (dz / r)) / r2 * inv4pi;
}

/* The moments of n triangles t[i] (coordinates in the moments' frame):
 * m[0..2] the sum of the area vectors, m[3..5] the centre of
 * the areas (the mean of the centroids when they have none), m[6] a radius
 * about it holding every vertex (rounded up a little), m[7] the area. */
static void sdf_moments(const double (*t)[3][3], size_t n, double *m) {
  double nv[3] = {0, 0, 0}, c[3] = {0, 0, 0}, mean[3] = {0, 0, 0}, area = 0, r = 0;
  size_t i;
  int k, v;
  for (i = 0; i < n; ++i) {
    double e1[3], e2[3], x[3], a;
    for (k = 0; k < 3; ++k) {
      e1[k] = t[i][1][k] - t[i][0][k];
      e2[k] = t[i][2][k] - t[i][0][k];
    }
    x[0] = 0.5 * (e1[1] * e2[2] - e1[2] * e2[1]);
    x[1] = 0.5 * (e1[2] * e2[0] - e1[0] * e2[2]);
    x[2] = 0.5 * (e1[0] * e2[1] - e1[1] * e2[0]);
    a = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (k = 0; k < 3; ++k) {
      double cen = (t[i][0][k] + t[i][1][k] + t[i][2][k]) / 3.0;
      nv[k] += x[k];
      c[k] += a * cen;
      mean[k] += cen;
    }
    area += a;
  }
  for (k = 0; k < 3; ++k)
    c[k] = area > 0 ? c[k] / area : mean[k] / (double)n;
  for (i = 0; i < n; ++i)
    for (v = 0; v < 3; ++v) {
      double d0 = t[i][v][0] - c[0], d1 = t[i][v][1] - c[1], d2 = t[i][v][2] - c[2];
      double d = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
      if (d > r) r = d;
    }
  for (k = 0; k < 3; ++k) {
    m[k] = nv[k];
    m[3 + k] = c[k];
  }
  m[6] = r * (1.0 + 1e-12);
  m[7] = area;
}

/* The moments of a cluster from those of its n parts (as sdf_moments). */
static void sdf_moments_merge(const double *const *part, int n, double *m) {
  double area = 0, c[3] = {0, 0, 0}, mean[3] = {0, 0, 0}, r = 0;
  int i, k;
  for (k = 0; k < 3; ++k)
    m[k] = 0;
  for (i = 0; i < n; ++i) {
    for (k = 0; k < 3; ++k) {
      m[k] += part[i][k];
      c[k] += part[i][7] * part[i][3 + k];
      mean[k] += part[i][3 + k];
    }
    area += part[i][7];
  }
  for (k = 0; k < 3; ++k)
    c[k] = area > 0 ? c[k] / area : mean[k] / n;
  for (i = 0; i < n; ++i) {
    double d0 = part[i][3] - c[0], d1 = part[i][4] - c[1], d2 = part[i][5] - c[2];
    double d = sqrt(d0 * d0 + d1 * d1 + d2 * d2) + part[i][6];
    if (d > r) r = d;
  }
  for (k = 0; k < 3; ++k)
    m[3 + k] = c[k];
  m[6] = r * (1.0 + 1e-12);
  m[7] = area;
}

/* A node of the caps' tree (AUTO's winding number of an open mesh, see
 * SDF_CAP_LEAF): moments as sdf_moments, the box of its caps in the
 * mesh's frame, and either caps first .. first + count - 1 (a leaf) or,
 * count 0, the children `left` and `right`. */
typedef struct sdf_capnode {
  double m[8], lo[3], hi[3];
  uint32_t first, count, left, right;
} sdf_capnode;
/* Caps a leaf of the caps' tree holds at most. */
enum { SDF_CAP_LEAF = 8 };

/* Fixed directions of the crossing segments: irrational-looking unit-ish
 * vectors, tried in order until a segment avoids every edge and vertex. */
static const double sdf_dirs[][3] = {
    {0.5773502691896258, 0.6123724356957945, 0.5400617248673217},
    {-0.6404638998127245, 0.4427188724235731, 0.6275716502104042},
    {0.3162277660168379, -0.7745966692414834, 0.5477225575051661},
    {0.7071067811865476, 0.1889822365046136, -0.6813851438692469},
    {-0.2672612419124244, -0.5345224838248488, -0.8017837257372732},
    {0.8451542547285166, -0.1690308509457033, 0.5070925528371099},
    {-0.4082482904638630, 0.8164965809277260, -0.4082482904638630},
    {0.1507556722888818, 0.9045340337332909, 0.3985197433440734},
};
#define SDF_NDIRS ((int)(sizeof sdf_dirs / sizeof sdf_dirs[0]))

/* Direction number `tries` of the crossing segments: sdf_dirs, then a
 * fixed sequence (splitmix64). */
static void sdf_direction(int tries, double *dir) {
  int k;
  if (tries < SDF_NDIRS) {
    dir[0] = sdf_dirs[tries][0];
    dir[1] = sdf_dirs[tries][1];
    dir[2] = sdf_dirs[tries][2];
    return;
  }
  {
    uint64_t z = 0x9e3779b97f4a7c15u * (uint64_t)(tries + 1);
    for (k = 0; k < 3; ++k) {
      uint64_t x;
      z += 0x9e3779b97f4a7c15u;
      x = z;
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
      x ^= x >> 31;
      dir[k] = (double)(x >> 11) * 0x1p-53 * 2.0 - 1.0;
    }
  }
}

/* The records of a signed-distance object (see sign_impl.inl): a
 * triangle's unit normal, edges, vertices and flag in one cache line, by
 * triangle index; an edge's or a vertex's normal (during the build); and
 * what the sign after a closest point reads, in one cache line
 * per tree position: the face's unit normal, the pseudo-normals of its
 * three edges and three vertices in 16 bits a coordinate (sdf_q16), and
 * their flags (bit 0 the face, 1 + k edge k, 4 + k vertex k). */
typedef struct sdf_trec {
  double n[3];
  uint32_t e[3], v[3];
  uint8_t bad, pad[15];
} sdf_trec;
typedef struct sdf_frec {
  double n[3];
} sdf_frec;
typedef struct sdf_prec {
  double n[3];
  int16_t en[3][3], vn[3][3];
  uint8_t bad, pad[3];
} sdf_prec;
_Static_assert(sizeof(sdf_trec) == 64 && sizeof(sdf_frec) == 24 && sizeof(sdf_prec) == 64,
               "sdf records: 64, 24 and 64 bytes");

/* A unit vector's coordinate in 16 bits: round(x 32767), within 0.5 / 32767
 * of x 32767 (|x| <= 1), so the decoded vector (sdf_unq16) is within
 * 2.7e-5 of the unit vector. */
static int16_t sdf_q16(double x) {
  if (!(x >= -1.0)) x = -1.0;
  if (x > 1.0) x = 1.0;
  return (int16_t)lrint(x * 32767.0);
}
static double sdf_unq16(int16_t q) {
  return (double)q * (1.0 / 32767.0);
}

/* An entry of a cell's triangle list: the triangle, and its box within
 * the cell's widened box as 32 levels a side (5 bits a bound: lo x, hi
 * x, lo y, hi y, lo z, hi z from bit 0), rounded outward and clamped to
 * the cell, so that a segment in the cell can leave out the triangles
 * whose box it misses without reading them. */
typedef struct sdf_centry {
  uint32_t t, qb;
} sdf_centry;
#define SDF_QLEVELS 32

/* The first SDF_REC entries of a cell's list (a cell with triangles) are
 * the cell's sub-grid: 4 x 4 x 4 sub-cells of 8 levels a side (sub-cell
 * (i, j, k) at bit pair i + 4 j + 16 k of code), each 0 (it may touch a
 * triangle, or its number is not known) or c = 1 .. 3: the winding number
 * everywhere in its box widened by gpad is val[c - 1]. A query in such a
 * sub-cell reads no triangle; the record shares a line with the list.
 * While the grid is built, code[0..1] hold the sub-cells that triangles
 * may touch, and spare counts the numbers (sub_numbers); spare is 0
 * after. */
typedef struct sdf_crec {
  uint32_t code[4];
  int8_t val[4];
  uint32_t spare;
} sdf_crec;
#define SDF_REC 3
_Static_assert(sizeof(sdf_crec) == SDF_REC * sizeof(sdf_centry), "sdf_crec spans SDF_REC entries");

/* The index of the lowest set bit of x (x not 0). */
static int sdf_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(x);
#else
  int i = 0;
  while (!(x & 1)) {
    x >>= 1;
    ++i;
  }
  return i;
#endif
}

/* Sub-cells (sdf_crec) as 64 bits, bit u = jx + 4 jy + 16 jz: the faces
 * x = 0, x = 3, y = 0, y = 3, z = 0, z = 3. */
static const uint64_t sdf_sub_face[6] = {0x1111111111111111u, 0x8888888888888888u,
                                         0x000f000f000f000fu, 0xf000f000f000f000u,
                                         0x000000000000ffffu, 0xffff000000000000u};

/* The sub-cells of reg grown across faces within fr (reg within fr). */
static uint64_t sdf_sub_grow(uint64_t reg, uint64_t fr) {
  uint64_t prev;
  do {
    prev = reg;
    reg |= ((reg << 1) & ~sdf_sub_face[0]) | ((reg >> 1) & ~sdf_sub_face[1]) |
           ((reg << 4) & ~sdf_sub_face[2]) | ((reg >> 4) & ~sdf_sub_face[3]) | (reg << 16) |
           (reg >> 16);
    reg &= fr;
  } while (reg != prev);
  return reg;
}

/* Gives number w to the free sub-cells of seed that have none yet, and to
 * those such that they reach (m[0]: the free sub-cells, m[1 + g]: those
 * with number rec->val[g], rec->spare numbers so far, at most three).
 * Returns 1 when some sub-cell got it. */
static int sdf_sub_give(sdf_crec *rec, uint64_t *m, uint64_t seed, int8_t w) {
  uint64_t open = m[0] & ~(m[1] | m[2] | m[3]);
  uint32_t g;
  seed &= open;
  if (!seed) return 0;
  for (g = 0; g < rec->spare && rec->val[g] != w; ++g) {
  }
  if (g == rec->spare) {
    if (g == 3) return 0;
    rec->val[g] = w;
    ++rec->spare;
  }
  m[1 + g] |= sdf_sub_grow(seed, open);
  return 1;
}

/* Writes the codes of m's numbered sub-cells into rec (spare back to 0). */
static void sdf_sub_encode(sdf_crec *rec, const uint64_t *m) {
  uint32_t g;
  unsigned u;
  for (g = 0; g < rec->spare; ++g)
    for (u = 0; u < 64; ++u)
      if (m[1 + g] >> u & 1u) rec->code[u >> 4] |= (g + 1) << (2 * (u & 15u));
  rec->spare = 0;
}

/* The ranks of the inside grid's cells with triangles (or an unknown
 * number), 64 cells a block: which of them are such cells, and how many
 * come before the block. Their offsets and nearest known cells are kept
 * by rank (a few bytes a triangle, where arrays over every cell took 8
 * bytes a cell), and the rank costs no load of its own that misses: the
 * blocks take a quarter of a byte a cell. */
typedef struct sdf_rank {
  uint64_t bits;
  uint32_t base, pad;
} sdf_rank;

/* The rank of cell c among those its block's bits mark (c marked). */
static uint32_t sdf_rank_of(const sdf_rank *r, size_t c) {
  /* A population count by halves (no call: without a popcnt
   * instruction compilers call a library function for theirs). */
  uint64_t m = r[c >> 6].bits & (((uint64_t)1 << (c & 63u)) - 1);
  m = m - ((m >> 1) & 0x5555555555555555u);
  m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return r[c >> 6].base + (uint32_t)((m * 0x0101010101010101u) >> 56);
}

/* The inside grid: a cell that a triangle may touch, and "no cell". */
#define SDF_SURF ((int8_t)-128)
/* A cell's byte in the inside grid: a known winding number (-64 to 127),
 * or a cell with triangles (or an unknown number): the bits 10 on top,
 * and below them the face neighbours of known number (bit 2k: the one
 * below on axis k, bit 2k + 1: above), so that a query reads one byte. */
#define SDF_IS_SURF(b) (((uint8_t)(b)&0xc0u) == 0x80u)
#define SDF_NOCELL 0xffffffffu
/* Cells of the inside grid per triangle (within 4096 .. 2^22 cells): finer
 * grids answer more points from a cell and shorten the counts (near the
 * surface of armadillo.obj: 720 ns at 2, 510 at 4, 360 at 8 per inside
 * test), at 1.25 bytes a cell, and 32 more for a cell with triangles (its
 * offset, its nearest known cell and its sub-grid). */
#ifndef SDF_GRID_PER_TRI
#define SDF_GRID_PER_TRI 8.0
#endif

/* How far (in cells) prox_sdf_inside() looks along each axis for a cell
 * of known winding number before it takes the nearest one by any path. */
#ifndef SDF_AXIS_STEPS
#define SDF_AXIS_STEPS 8
#endif

/* The most entries of a cell's list that the inside test gathers for its
 * segment along an axis (more: it reads the whole list). */
#define SDF_ALONG_MAX 64

/* Points per piece of a batch or grid row. */
enum { SDF_CHUNK = 64 };
/* The inside batch's chunk: its points are cheap. */
enum { SDF_INSIDE_CHUNK = 1024 };

/* A hint to fetch the line at a (no effect on results). */
#if defined(__GNUC__) || defined(__clang__)
#define SDF_PREFETCH(a) __builtin_prefetch(a)
#else
#define SDF_PREFETCH(a) ((void)(a))
#endif

#if !defined(__STDC_NO_ATOMICS__)
typedef atomic_size_t sdf_counter;
#define SDF_NEXT(c, k) atomic_fetch_add(&(c), (k))
#define SDF_INIT(c, v) atomic_init(&(c), (v))
/* A flag set by any thread (relaxed: read after the threads are joined,
 * or only to stop early). */
typedef atomic_uchar sdf_flag;
#define SDF_FLAG_INIT(f) atomic_init(&(f), 0)
#define SDF_SET(f) atomic_store_explicit(&(f), 1, memory_order_relaxed)
#define SDF_GET(f) atomic_load_explicit(&(f), memory_order_relaxed)
#else
#error "prox's mesh layer needs C11 atomics"
#endif

#include <prox/detail/real_double.h>
#include "sign_impl.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "sign_impl.inl"
#include <prox/detail/real_end.h>
