/* SPDX-License-Identifier: MIT */
/* oracle.h: the exact oracle of prox's accuracy tests.
 *
 * Every double and every float is a rational number, so the exact answer of
 * a geometric query on floating-point input is computable in rational
 * arithmetic (GMP mpq_t, link with -lgmp). This header gives:
 *
 * - q3, an exact rational 3-vector, and its arithmetic (q3_*);
 * - exact closest points (point to line/ray/segment, plane, triangle,
 *   tetrahedron) with the feature that holds them and the margin of the
 *   answer (how far p is from the boundary of its Voronoi region);
 * - oracle_sqrt: sqrt to ~300 bits, for the few answers that are not
 *   rational (distances to balls, unit normals);
 * - error measurement in units of eps S^2 and eps S (oracle_err*);
 * - the four kinds of test cases (uniform, large offset, tiny,
 *   adversarial) as random frames, drawn with the tests' one random
 *   generator (rng.h, included here);
 * - a table of measured maxima printed as markdown.
 *
 * The oracle does not include or call prox: feature kinds are numbered like
 * prox_feature_kind, and tests compare the two.
 *
 * Header only (static inline). Oracle functions take their inputs as q3 and
 * write into result structs that the caller initialises once and reuses. */
#ifndef PROX_TEST_ORACLE_H
#define PROX_TEST_ORACLE_H

#include <gmp.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"

/* ------------------------------------------------------------------------ */
/* Exact rational 3-vectors                                                 */
/* ------------------------------------------------------------------------ */

/* An exact rational vector or point. */
typedef struct q3 {
  mpq_t x, y, z;
} q3;

static inline void q3_init(q3 *v) {
  mpq_init(v->x);
  mpq_init(v->y);
  mpq_init(v->z);
}

static inline void q3_clear(q3 *v) {
  mpq_clear(v->x);
  mpq_clear(v->y);
  mpq_clear(v->z);
}

/* r = a. */
static inline void q3_set(q3 *r, const q3 *a) {
  mpq_set(r->x, a->x);
  mpq_set(r->y, a->y);
  mpq_set(r->z, a->z);
}

/* r = (x, y, z), exactly. The values must be finite. Floats convert to
 * double exactly, so this serves both precisions. */
static inline void q3_set_d(q3 *r, double x, double y, double z) {
  mpq_set_d(r->x, x);
  mpq_set_d(r->y, y);
  mpq_set_d(r->z, z);
}

/* r = 0. */
static inline void q3_zero(q3 *r) {
  mpq_set_ui(r->x, 0, 1);
  mpq_set_ui(r->y, 0, 1);
  mpq_set_ui(r->z, 0, 1);
}

/* r = a + b (r may alias a or b). */
static inline void q3_add(q3 *r, const q3 *a, const q3 *b) {
  mpq_add(r->x, a->x, b->x);
  mpq_add(r->y, a->y, b->y);
  mpq_add(r->z, a->z, b->z);
}

/* r = a - b (r may alias a or b). */
static inline void q3_sub(q3 *r, const q3 *a, const q3 *b) {
  mpq_sub(r->x, a->x, b->x);
  mpq_sub(r->y, a->y, b->y);
  mpq_sub(r->z, a->z, b->z);
}

/* r = s a (r may alias a). */
static inline void q3_scale(q3 *r, const q3 *a, const mpq_t s) {
  mpq_mul(r->x, a->x, s);
  mpq_mul(r->y, a->y, s);
  mpq_mul(r->z, a->z, s);
}

/* r = a + s b (r may alias a or b). */
static inline void q3_addmul(q3 *r, const q3 *a, const mpq_t s, const q3 *b) {
  mpq_t t;
  mpq_init(t);
  mpq_mul(t, s, b->x);
  mpq_add(r->x, a->x, t);
  mpq_mul(t, s, b->y);
  mpq_add(r->y, a->y, t);
  mpq_mul(t, s, b->z);
  mpq_add(r->z, a->z, t);
  mpq_clear(t);
}

/* r = a . b. */
static inline void q3_dot(mpq_t r, const q3 *a, const q3 *b) {
  mpq_t t;
  mpq_init(t);
  mpq_mul(t, a->x, b->x);
  mpq_mul(r, a->y, b->y);
  mpq_add(t, t, r);
  mpq_mul(r, a->z, b->z);
  mpq_add(r, r, t);
  mpq_clear(t);
}

/* r = a x b (r may alias a or b). */
static inline void q3_cross(q3 *r, const q3 *a, const q3 *b) {
  mpq_t x, y, t;
  mpq_inits(x, y, t, NULL);
  mpq_mul(x, a->y, b->z);
  mpq_mul(t, a->z, b->y);
  mpq_sub(x, x, t);
  mpq_mul(y, a->z, b->x);
  mpq_mul(t, a->x, b->z);
  mpq_sub(y, y, t);
  mpq_mul(r->z, a->x, b->y); /* a, b no longer read after this pair */
  mpq_set(t, r->z);
  mpq_mul(r->z, a->y, b->x);
  mpq_sub(r->z, t, r->z);
  mpq_swap(r->x, x);
  mpq_swap(r->y, y);
  mpq_clears(x, y, t, NULL);
}

/* r = |a|^2. */
static inline void q3_len2(mpq_t r, const q3 *a) {
  q3_dot(r, a, a);
}

/* r = |a - b|^2. */
static inline void q3_dist2(mpq_t r, const q3 *a, const q3 *b) {
  q3 d;
  q3_init(&d);
  q3_sub(&d, a, b);
  q3_dot(r, &d, &d);
  q3_clear(&d);
}

/* a == b exactly. */
static inline int q3_equal(const q3 *a, const q3 *b) {
  return mpq_equal(a->x, b->x) && mpq_equal(a->y, b->y) && mpq_equal(a->z, b->z);
}

/* a == 0 exactly. */
static inline int q3_is_zero(const q3 *a) {
  return mpq_sgn(a->x) == 0 && mpq_sgn(a->y) == 0 && mpq_sgn(a->z) == 0;
}

/* The components rounded (toward zero) to double. */
static inline void q3_get_d(const q3 *a, double out[3]) {
  out[0] = mpq_get_d(a->x);
  out[1] = mpq_get_d(a->y);
  out[2] = mpq_get_d(a->z);
}

/* The largest component magnitude, as a double. */
static inline double q3_maxabs(const q3 *a) {
  double v[3], m;
  q3_get_d(a, v);
  m = fabs(v[0]);
  if (fabs(v[1]) > m) m = fabs(v[1]);
  if (fabs(v[2]) > m) m = fabs(v[2]);
  return m;
}

/* ------------------------------------------------------------------------ */
/* Square roots and error measurement                                       */
/* ------------------------------------------------------------------------ */

/* Bits of the floating-point square root (GMP mpf). */
#define ORACLE_SQRT_BITS 320

/* r = sqrt(a) for a >= 0, as a rational within a relative 2^-300 of the
 * true root (GMP mpf truncates: ~2^-(ORACLE_SQRT_BITS - 10) at worst). That
 * is 2^-248 of double's eps: for error measurement it is exact. */
static inline void oracle_sqrt(mpq_t r, const mpq_t a) {
  mpf_t f;
  mpf_init2(f, ORACLE_SQRT_BITS);
  mpf_set_q(f, a);
  mpf_sqrt(f, f);
  mpq_set_f(r, f);
  mpf_clear(f);
}

/* sqrt(a) as a double (for margins and reports, not for exact answers). */
static inline double oracle_sqrt_d(const mpq_t a) {
  double d = mpq_get_d(a);
  return d > 0 ? sqrt(d) : 0.0;
}

/* sqrt(a) - sqrt(b) for exact a, b >= 0, as a double (the difference is
 * formed exactly, then divided by sqrt(a) + sqrt(b)). */
static inline double oracle_root_gap(const mpq_t a, const mpq_t b) {
  mpq_t d;
  double s = oracle_sqrt_d(a) + oracle_sqrt_d(b), r;
  if (!(s > 0)) return 0;
  mpq_init(d);
  mpq_sub(d, a, b);
  r = mpq_get_d(d) / s;
  mpq_clear(d);
  return r;
}

/* Machine epsilon of the two precisions (2^-52 and 2^-23). */
#define ORACLE_EPS_DOUBLE 0x1p-52
#define ORACLE_EPS_FLOAT 0x1p-23

/* |computed - exact| / unit as a double; +inf when computed is NaN or
 * infinite (so that a maximum shows it) and when unit is not positive. */
static inline double oracle_err(double computed, const mpq_t exact, double unit) {
  mpq_t d, u;
  double e;
  if (!isfinite(computed) || !(unit > 0)) return INFINITY;
  mpq_inits(d, u, NULL);
  mpq_set_d(d, computed);
  mpq_sub(d, d, exact);
  mpq_abs(d, d);
  mpq_set_d(u, unit);
  mpq_div(d, d, u);
  e = mpq_get_d(d);
  mpq_clears(d, u, NULL);
  return e;
}

/* |c - exact| / unit (Euclidean norm) for the point c = (x, y, z); +inf for
 * a non-finite c. */
static inline double oracle_err3(double x, double y, double z, const q3 *exact, double unit) {
  q3 c;
  mpq_t d2, u;
  double e;
  if (!isfinite(x) || !isfinite(y) || !isfinite(z) || !(unit > 0)) return INFINITY;
  q3_init(&c);
  mpq_inits(d2, u, NULL);
  q3_set_d(&c, x, y, z);
  q3_dist2(d2, &c, exact);
  mpq_set_d(u, unit);
  mpq_mul(u, u, u);
  mpq_div(d2, d2, u);
  e = sqrt(mpq_get_d(d2));
  q3_clear(&c);
  mpq_clears(d2, u, NULL);
  return e;
}

/* |a - b| / unit for two exact values. */
static inline double oracle_err_q(const mpq_t a, const mpq_t b, double unit) {
  mpq_t d, u;
  double e;
  if (!(unit > 0)) return INFINITY;
  mpq_inits(d, u, NULL);
  mpq_sub(d, a, b);
  mpq_abs(d, d);
  mpq_set_d(u, unit);
  mpq_div(d, d, u);
  e = mpq_get_d(d);
  mpq_clears(d, u, NULL);
  return e;
}

/* ------------------------------------------------------------------------ */
/* Exact closest points                                                     */
/* ------------------------------------------------------------------------ */

/* Feature kinds, numbered like prox_feature_kind. */
enum { ORACLE_NONE = 0, ORACLE_VERTEX = 1, ORACLE_EDGE = 2, ORACLE_FACE = 3, ORACLE_INTERIOR = 4 };

/* Closest point of a parametric set {o + t d : lo <= t <= hi}. */
typedef struct oracle_lin {
  q3 q;          /* the closest point */
  mpq_t d2;      /* squared distance */
  mpq_t t;       /* parameter of q */
  mpq_t s;       /* unclamped parameter (p - o).d / d.d (0 for d == 0) */
  int end;       /* 0: t == lo, 1: t == hi, -1: strictly between */
  int zero_dir;  /* d == 0: the set is the point o */
  double margin; /* |d| * distance in t from s to the nearest finite end
                  * (0 when lo == hi: both ends are the point); INFINITY
                  * when the feature is decided exactly (d == 0, lo > hi,
                  * no finite end) */
} oracle_lin;

static inline void oracle_lin_init(oracle_lin *r) {
  q3_init(&r->q);
  mpq_inits(r->d2, r->t, r->s, NULL);
}

static inline void oracle_lin_clear(oracle_lin *r) {
  q3_clear(&r->q);
  mpq_clears(r->d2, r->t, r->s, NULL);
}

/* Closest point to p of {o + t d : lo <= t <= hi}; lo == NULL means -inf,
 * hi == NULL +inf; lo wins when lo > hi. A zero d gives q = o with t the
 * clamp of 0 and end 0 (prox's documented convention: vertex 0). */
static inline void oracle_point_lin(oracle_lin *r, const q3 *p, const q3 *o, const q3 *d,
                                    mpq_srcptr lo, mpq_srcptr hi) {
  mpq_t dd, m;
  q3 w;
  double len;
  mpq_inits(dd, m, NULL);
  q3_init(&w);
  q3_dot(dd, d, d);
  q3_sub(&w, p, o);
  r->zero_dir = mpq_sgn(dd) == 0;
  if (r->zero_dir) {
    mpq_set_ui(r->s, 0, 1);
  } else {
    q3_dot(r->s, &w, d);
    mpq_div(r->s, r->s, dd);
  }
  if (lo && hi && mpq_cmp(lo, hi) > 0) {
    mpq_set(r->t, lo);
    r->end = 0;
  } else if (hi && mpq_cmp(r->s, hi) >= 0) {
    mpq_set(r->t, hi);
    r->end = 1;
  } else if (lo && mpq_cmp(r->s, lo) <= 0) {
    mpq_set(r->t, lo);
    r->end = 0;
  } else {
    mpq_set(r->t, r->s);
    r->end = -1;
  }
  if (r->zero_dir) {
    r->end = 0;
    q3_set(&r->q, o);
  } else {
    q3_addmul(&r->q, o, r->t, d);
  }
  q3_dist2(r->d2, p, &r->q);
  /* The margin of the feature decision. */
  len = oracle_sqrt_d(dd);
  r->margin = INFINITY;
  if (r->zero_dir || (lo && hi && mpq_cmp(lo, hi) > 0)) {
    r->margin = INFINITY;
  } else if (lo && hi && mpq_cmp(lo, hi) == 0) {
    r->margin = 0;
  } else {
    if (lo) {
      mpq_sub(m, r->s, lo);
      r->margin = fabs(mpq_get_d(m)) * len;
    }
    if (hi) {
      double e;
      mpq_sub(m, r->s, hi);
      e = fabs(mpq_get_d(m)) * len;
      if (e < r->margin) r->margin = e;
    }
  }
  mpq_clears(dd, m, NULL);
  q3_clear(&w);
}

/* Closest point of the segment a b (t in [0, 1]; t = 1 is b exactly). */
static inline void oracle_point_segment(oracle_lin *r, const q3 *p, const q3 *a, const q3 *b) {
  q3 d;
  mpq_t zero, one;
  q3_init(&d);
  mpq_inits(zero, one, NULL);
  mpq_set_ui(one, 1, 1);
  q3_sub(&d, b, a);
  oracle_point_lin(r, p, a, &d, zero, one);
  q3_clear(&d);
  mpq_clears(zero, one, NULL);
}

/* Closest point of the plane {x : n . x = offset}: q = p - ((n.p -
 * offset) / n.n) n; a zero n contains every point (q = p). *signed_dist
 * (if not NULL) gets (n.p - offset) / |n| to ~300 bits. */
static inline void oracle_point_plane(q3 *q, mpq_t d2, mpq_t signed_dist, const q3 *p, const q3 *n,
                                      const mpq_t offset) {
  mpq_t nn, s, k;
  mpq_inits(nn, s, k, NULL);
  q3_dot(nn, n, n);
  if (mpq_sgn(nn) == 0) {
    q3_set(q, p);
    mpq_set_ui(d2, 0, 1);
    if (signed_dist) mpq_set_ui(signed_dist, 0, 1);
  } else {
    q3_dot(s, n, p);
    mpq_sub(s, s, offset);
    mpq_div(k, s, nn);
    mpq_neg(k, k);
    q3_addmul(q, p, k, n);
    mpq_mul(d2, s, s);
    mpq_div(d2, d2, nn);
    if (signed_dist) {
      oracle_sqrt(k, nn);
      mpq_div(signed_dist, s, k);
    }
  }
  mpq_clears(nn, s, k, NULL);
}

/* Closest point of a triangle v[0] v[1] v[2] (edge i joins v[i] and
 * v[(i + 1) % 3]; a zero-area triangle is the union of its edges). */
typedef struct oracle_tri {
  q3 q;               /* the closest point */
  mpq_t d2;           /* squared distance */
  mpq_t bary[3];      /* barycentric coordinates of q */
  mpq_t num[3];       /* barycentric numerators of the projection of p (n2 is
                       * their sum), n = (v1 - v0) x (v2 - v0) */
  mpq_t n2;           /* |n|^2: zero iff the triangle has zero area */
  int kind, index;    /* VERTEX i, EDGE i or FACE 0 */
  int degenerate;     /* zero area: several features may hold q */
  int inside;         /* projection of p in the closed triangle */
  double margin;      /* how far p is from another answer (approximate, in
                       * length units): the smaller of its distance to the
                       * boundary of the Voronoi region of the feature and
                       * of the gap; 0 on a boundary and for a degenerate
                       * triangle */
  double gap;         /* distance to the nearest vertex or edge that does not
                       * hold q, minus the distance to q: small when another
                       * feature is nearly as close (thin triangles) */
  mpq_t vd2[3];       /* squared distances to the vertices */
  double sin2min;     /* smallest sin^2 of the three angles (0: degenerate) */
  oracle_lin edge[3]; /* closest points of the three edges */
} oracle_tri;

static inline void oracle_tri_init(oracle_tri *r) {
  int i;
  q3_init(&r->q);
  mpq_inits(r->d2, r->n2, NULL);
  for (i = 0; i < 3; ++i) {
    mpq_inits(r->bary[i], r->num[i], r->vd2[i], NULL);
    oracle_lin_init(&r->edge[i]);
  }
}

static inline void oracle_tri_clear(oracle_tri *r) {
  int i;
  q3_clear(&r->q);
  mpq_clears(r->d2, r->n2, NULL);
  for (i = 0; i < 3; ++i) {
    mpq_clears(r->bary[i], r->num[i], r->vd2[i], NULL);
    oracle_lin_clear(&r->edge[i]);
  }
}

/* Exact closest point of the triangle v[0..2] to p: the projection when it
 * lies inside (exact barycentric signs), else the nearest of the three
 * exact edge points; zero area: the nearest edge point. */
static inline void oracle_point_triangle(oracle_tri *r, const q3 *p, const q3 v[3]) {
  q3 e1, e2, w, n, c;
  mpq_t t, len2[3];
  double nlen, elen[3];
  int i, best = 0;
  q3_init(&e1);
  q3_init(&e2);
  q3_init(&w);
  q3_init(&n);
  q3_init(&c);
  mpq_init(t);
  for (i = 0; i < 3; ++i)
    mpq_init(len2[i]);

  q3_sub(&e1, &v[1], &v[0]);
  q3_sub(&e2, &v[2], &v[0]);
  q3_sub(&w, p, &v[0]);
  q3_cross(&n, &e1, &e2);
  q3_dot(r->n2, &n, &n);
  q3_cross(&c, &w, &e2);
  q3_dot(r->num[1], &n, &c);
  q3_cross(&c, &e1, &w);
  q3_dot(r->num[2], &n, &c);
  mpq_sub(r->num[0], r->n2, r->num[1]);
  mpq_sub(r->num[0], r->num[0], r->num[2]);
  for (i = 0; i < 3; ++i) {
    int j = i == 2 ? 0 : i + 1;
    oracle_point_segment(&r->edge[i], p, &v[i], &v[j]);
    q3_dist2(len2[i], &v[j], &v[i]);
    elen[i] = oracle_sqrt_d(len2[i]);
  }
  nlen = oracle_sqrt_d(r->n2);
  r->degenerate = mpq_sgn(r->n2) == 0;
  r->inside = !r->degenerate && mpq_sgn(r->num[0]) >= 0 && mpq_sgn(r->num[1]) >= 0 &&
              mpq_sgn(r->num[2]) >= 0;
  r->sin2min = 0;
  if (!r->degenerate) {
    /* sin^2 of the angle at v[i]: n2 / (|edge in|^2 |edge out|^2). */
    double n2d = mpq_get_d(r->n2);
    double l0 = mpq_get_d(len2[0]), l1 = mpq_get_d(len2[1]);
    double l2 = mpq_get_d(len2[2]);
    double s0 = n2d / (l2 * l0), s1 = n2d / (l0 * l1), s2 = n2d / (l1 * l2);
    r->sin2min = s0 < s1 ? (s0 < s2 ? s0 : s2) : (s1 < s2 ? s1 : s2);
  }

  if (r->inside) {
    /* q = v0 + (nb / n2) e1 + (nc / n2) e2. */
    r->kind = ORACLE_FACE;
    r->index = 0;
    for (i = 0; i < 3; ++i)
      mpq_div(r->bary[i], r->num[i], r->n2);
    q3_addmul(&r->q, &v[0], r->bary[1], &e1);
    q3_addmul(&r->q, &r->q, r->bary[2], &e2);
    q3_dist2(r->d2, p, &r->q);
    /* In-plane distance of the projection to edge line i is
     * num[opposite] / (|n| |edge i|); edge i is opposite vertex i + 2. */
    r->margin = INFINITY;
    for (i = 0; i < 3; ++i) {
      double m = mpq_get_d(r->num[(i + 2) % 3]) / (nlen * elen[i]);
      if (m < r->margin) r->margin = m;
    }
  } else {
    for (i = 1; i < 3; ++i)
      if (mpq_cmp(r->edge[i].d2, r->edge[best].d2) < 0) best = i;
    q3_set(&r->q, &r->edge[best].q);
    mpq_set(r->d2, r->edge[best].d2);
    for (i = 0; i < 3; ++i)
      mpq_set_ui(r->bary[i], 0, 1);
    {
      int j = best == 2 ? 0 : best + 1;
      mpq_set_ui(t, 1, 1);
      mpq_sub(r->bary[best], t, r->edge[best].t);
      mpq_set(r->bary[j], r->edge[best].t);
      if (r->edge[best].end < 0) {
        r->kind = ORACLE_EDGE;
        r->index = best;
      } else {
        r->kind = ORACLE_VERTEX;
        r->index = r->edge[best].end ? j : best;
      }
    }
    if (r->degenerate) {
      r->margin = 0;
    } else {
      /* Every edge that holds q bounds the region: along the edge (its
       * segment margin) and, for an edge feature, across it (the in-plane
       * distance of the projection to the edge line). */
      r->margin = INFINITY;
      for (i = 0; i < 3; ++i) {
        if (!mpq_equal(r->edge[i].d2, r->d2)) continue;
        if (r->edge[i].margin < r->margin) r->margin = r->edge[i].margin;
        if (r->kind == ORACLE_EDGE) {
          double m = fabs(mpq_get_d(r->num[(i + 2) % 3])) / (nlen * elen[i]);
          if (m < r->margin) r->margin = m;
        }
      }
    }
  }
  /* The gap to the features that do not hold q. */
  r->gap = INFINITY;
  for (i = 0; i < 3; ++i) {
    q3_dist2(r->vd2[i], p, &v[i]);
    if (mpq_cmp(r->vd2[i], r->d2) > 0) {
      double gv = oracle_root_gap(r->vd2[i], r->d2);
      if (gv < r->gap) r->gap = gv;
    }
    if (mpq_cmp(r->edge[i].d2, r->d2) > 0) {
      double ge = oracle_root_gap(r->edge[i].d2, r->d2);
      if (ge < r->gap) r->gap = ge;
    }
  }
  if (r->gap < r->margin) r->margin = r->gap;
  q3_clear(&e1);
  q3_clear(&e2);
  q3_clear(&w);
  q3_clear(&n);
  q3_clear(&c);
  mpq_clear(t);
  for (i = 0; i < 3; ++i)
    mpq_clear(len2[i]);
}

/* Exact squared distance from p to feature (kind, index) of a triangle, as
 * numbered above; a FACE is the whole triangle. Returns 0 for an unknown
 * feature, else 1. */
static inline int oracle_triangle_feature_dist2(mpq_t r, const q3 *p, const q3 v[3], int kind,
                                                int index) {
  if (kind == ORACLE_VERTEX && index >= 0 && index < 3) {
    q3_dist2(r, p, &v[index]);
  } else if (kind == ORACLE_EDGE && index >= 0 && index < 3) {
    oracle_lin e;
    oracle_lin_init(&e);
    oracle_point_segment(&e, p, &v[index], &v[index == 2 ? 0 : index + 1]);
    mpq_set(r, e.d2);
    oracle_lin_clear(&e);
  } else if (kind == ORACLE_FACE && index == 0) {
    oracle_tri t;
    oracle_tri_init(&t);
    oracle_point_triangle(&t, p, v);
    mpq_set(r, t.d2);
    oracle_tri_clear(&t);
  } else {
    return 0;
  }
  return 1;
}

/* r = (b - a) . ((c - a) x (d - a)): six times the signed volume of the
 * tetrahedron a b c d, exactly. */
static inline void oracle_orient3d(mpq_t r, const q3 *a, const q3 *b, const q3 *c, const q3 *d) {
  q3 u, v, w;
  q3_init(&u);
  q3_init(&v);
  q3_init(&w);
  q3_sub(&u, b, a);
  q3_sub(&v, c, a);
  q3_sub(&w, d, a);
  q3_cross(&v, &v, &w);
  q3_dot(r, &u, &v);
  q3_clear(&u);
  q3_clear(&v);
  q3_clear(&w);
}

/* Vertices of face i of a tetrahedron (opposite v[i]), in increasing
 * order, as prox numbers them. */
static inline void oracle_tet_face(int i, int f[3]) {
  f[0] = i == 0 ? 1 : 0;
  f[1] = i <= 1 ? 2 : 1;
  f[2] = i <= 2 ? 3 : 2;
}

/* Index of the tetrahedron edge joining vertices x and y: pairs (0,1),
 * (0,2), (0,3), (1,2), (1,3), (2,3) are edges 0..5. */
static inline int oracle_tet_edge(int x, int y) {
  int lo = x < y ? x : y, hi = x < y ? y : x;
  return lo == 0 ? hi - 1 : (lo == 1 ? hi + 1 : 5);
}

/* Closest point of a solid tetrahedron v[0..3] (either orientation; zero
 * volume: the union of its faces). */
typedef struct oracle_tet {
  q3 q;               /* the closest point (p inside) */
  mpq_t d2;           /* squared distance (0 inside) */
  mpq_t bary[4];      /* barycentric coordinates of q */
  mpq_t vol;          /* orient3d(v0, v1, v2, v3) */
  mpq_t num[4];       /* orient3d with p in place of v[i] */
  int kind, index;    /* INTERIOR 0, FACE i, EDGE i or VERTEX i */
  int flat;           /* zero volume */
  int inside;         /* p in the closed solid (not flat) */
  int boundary;       /* p on the boundary of the solid (not flat) */
  double margin;      /* as for oracle_tri, and outside at most the
                       * distance to the solid (the interior is that
                       * near); inside: distance to the nearest face
                       * plane */
  int nearest_face;   /* the face nearest p (first of equals) */
  double face_margin; /* gap between the nearest and the next face
                       * distance (for the signed query's face) */
  oracle_tri face[4]; /* closest points of the four faces */
} oracle_tet;

static inline void oracle_tet_init(oracle_tet *r) {
  int i;
  q3_init(&r->q);
  mpq_inits(r->d2, r->vol, NULL);
  for (i = 0; i < 4; ++i) {
    mpq_inits(r->bary[i], r->num[i], NULL);
    oracle_tri_init(&r->face[i]);
  }
}

static inline void oracle_tet_clear(oracle_tet *r) {
  int i;
  q3_clear(&r->q);
  mpq_clears(r->d2, r->vol, NULL);
  for (i = 0; i < 4; ++i) {
    mpq_clears(r->bary[i], r->num[i], NULL);
    oracle_tri_clear(&r->face[i]);
  }
}

/* Exact closest point of the solid tetrahedron v[0..3] to p: p itself when
 * the exact orientation signs put it inside, else the nearest of the four
 * exact face points. */
static inline void oracle_point_tetrahedron(oracle_tet *r, const q3 *p, const q3 v[4]) {
  q3 tv[3], pv[4];
  int i, k, f[3], best = 0, sgn, pos = 0, zero = 0;
  double d1 = INFINITY, d2nd = INFINITY;
  for (i = 0; i < 3; ++i)
    q3_init(&tv[i]);
  oracle_orient3d(r->vol, &v[0], &v[1], &v[2], &v[3]);
  for (i = 0; i < 4; ++i) {
    for (k = 0; k < 4; ++k)
      pv[k] = v[k]; /* shallow copies: read only */
    pv[i] = *p;
    oracle_orient3d(r->num[i], &pv[0], &pv[1], &pv[2], &pv[3]);
  }
  for (i = 0; i < 4; ++i) {
    oracle_tet_face(i, f);
    for (k = 0; k < 3; ++k)
      q3_set(&tv[k], &v[f[k]]);
    oracle_point_triangle(&r->face[i], p, tv);
  }
  sgn = mpq_sgn(r->vol);
  r->flat = sgn == 0;
  for (i = 0; i < 4; ++i) {
    int s = mpq_sgn(r->num[i]) * sgn;
    pos += s > 0;
    zero += s == 0;
  }
  r->inside = !r->flat && pos + zero == 4;
  r->boundary = r->inside && zero > 0;
  /* The nearest face, and the gap to the next one (for the signed query). */
  for (i = 1; i < 4; ++i)
    if (mpq_cmp(r->face[i].d2, r->face[best].d2) < 0) best = i;
  r->nearest_face = best;
  for (i = 0; i < 4; ++i) {
    double d = oracle_sqrt_d(r->face[i].d2);
    if (i == best) {
      d1 = d;
    } else if (d < d2nd) {
      d2nd = d;
    }
  }
  r->face_margin = d2nd - d1;
  for (i = 0; i < 4; ++i)
    if (i != best && mpq_equal(r->face[i].d2, r->face[best].d2)) r->face_margin = 0;
  if (r->inside && !r->boundary) {
    q3_set(&r->q, p);
    mpq_set_ui(r->d2, 0, 1);
    for (i = 0; i < 4; ++i)
      mpq_div(r->bary[i], r->num[i], r->vol);
    r->kind = ORACLE_INTERIOR;
    r->index = 0;
    r->margin = INFINITY;
    for (i = 0; i < 4; ++i) {
      double m = fabs(mpq_get_d(r->num[i])) / oracle_sqrt_d(r->face[i].n2);
      if (m < r->margin) r->margin = m;
    }
  } else {
    const oracle_tri *t = &r->face[best];
    oracle_tet_face(best, f);
    q3_set(&r->q, &t->q);
    mpq_set(r->d2, t->d2);
    for (i = 0; i < 4; ++i)
      mpq_set_ui(r->bary[i], 0, 1);
    for (i = 0; i < 3; ++i)
      mpq_set(r->bary[f[i]], t->bary[i]);
    if (t->kind == ORACLE_VERTEX) {
      r->kind = ORACLE_VERTEX;
      r->index = f[t->index];
    } else if (t->kind == ORACLE_EDGE) {
      r->kind = ORACLE_EDGE;
      r->index = oracle_tet_edge(f[t->index], f[(t->index + 1) % 3]);
    } else {
      r->kind = ORACLE_FACE;
      r->index = best;
    }
    if (r->flat || r->boundary) {
      r->margin = 0;
    } else {
      /* Outside: the interior is as far as the solid's surface. */
      double out = oracle_sqrt_d(r->d2);
      /* Every face that holds q bounds the Voronoi region of its feature
       * (see the top of oracle_tri). */
      /* Every face that holds q bounds the Voronoi region of its feature
       * (its margin, see oracle_tri); every vertex, edge or face that does
       * not hold q bounds the gap. */
      r->margin = out;
      for (i = 0; i < 4; ++i) {
        const oracle_tri *fi = &r->face[i];
        if (mpq_equal(fi->d2, r->d2)) {
          if (fi->margin < r->margin) r->margin = fi->margin;
        } else {
          double gf = oracle_root_gap(fi->d2, r->d2);
          if (gf < r->margin) r->margin = gf;
        }
        for (k = 0; k < 3; ++k) {
          if (mpq_cmp(fi->vd2[k], r->d2) > 0) {
            double gv = oracle_root_gap(fi->vd2[k], r->d2);
            if (gv < r->margin) r->margin = gv;
          }
          if (mpq_cmp(fi->edge[k].d2, r->d2) > 0) {
            double ge = oracle_root_gap(fi->edge[k].d2, r->d2);
            if (ge < r->margin) r->margin = ge;
          }
        }
      }
    }
  }
  for (i = 0; i < 3; ++i)
    q3_clear(&tv[i]);
}

/* Exact squared distance from p to feature (kind, index) of a tetrahedron
 * as numbered above (INTERIOR: the solid). Returns 0 for an unknown feature,
 * else 1. */
static inline int oracle_tet_feature_dist2(mpq_t r, const q3 *p, const q3 v[4], int kind,
                                           int index) {
  static const int ex[6] = {0, 0, 0, 1, 1, 2}, ey[6] = {1, 2, 3, 2, 3, 3};
  if (kind == ORACLE_VERTEX && index >= 0 && index < 4) {
    q3_dist2(r, p, &v[index]);
  } else if (kind == ORACLE_EDGE && index >= 0 && index < 6) {
    oracle_lin e;
    oracle_lin_init(&e);
    oracle_point_segment(&e, p, &v[ex[index]], &v[ey[index]]);
    mpq_set(r, e.d2);
    oracle_lin_clear(&e);
  } else if (kind == ORACLE_FACE && index >= 0 && index < 4) {
    q3 tv[3];
    int f[3], k;
    oracle_tri t;
    oracle_tri_init(&t);
    oracle_tet_face(index, f);
    for (k = 0; k < 3; ++k) {
      q3_init(&tv[k]);
      q3_set(&tv[k], &v[f[k]]);
    }
    oracle_point_triangle(&t, p, tv);
    mpq_set(r, t.d2);
    for (k = 0; k < 3; ++k)
      q3_clear(&tv[k]);
    oracle_tri_clear(&t);
  } else if (kind == ORACLE_INTERIOR && index == 0) {
    oracle_tet t;
    oracle_tet_init(&t);
    oracle_point_tetrahedron(&t, p, v);
    mpq_set(r, t.d2);
    oracle_tet_clear(&t);
  } else {
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* The four kinds of cases                                                  */
/* ------------------------------------------------------------------------ */

/* The four kinds of cases every accuracy test covers. */
enum {
  ORACLE_UNIFORM = 0,     /* coordinates uniform in [-1, 1] */
  ORACLE_LARGE = 1,       /* scaled by ~1e3 and translated by ~1e6 */
  ORACLE_TINY = 2,        /* scaled by ~1e-8 */
  ORACLE_ADVERSARIAL = 3, /* boundaries, degeneracies, near-degeneracies */
  ORACLE_KINDS = 4,
  /* Not one of the kinds above (no frame): a row of the tables for cases
   * spread over a kernel's whole documented domain (test_raycast). */
  ORACLE_DOMAIN = 4
};

/* Name of a kind of case. */
static inline const char *oracle_kind_name(int kind) {
  switch (kind) {
  case ORACLE_UNIFORM:
    return "uniform";
  case ORACLE_LARGE:
    return "large offset";
  case ORACLE_TINY:
    return "tiny";
  case ORACLE_ADVERSARIAL:
    return "adversarial";
  case ORACLE_DOMAIN:
    return "whole domain";
  default:
    return "?";
  }
}

/* A similarity x -> shift + scale x that places a case made in [-1, 1]^3. */
typedef struct oracle_frame {
  double scale;
  double shift[3];
} oracle_frame;

/* A random frame of the given kind: identity (uniform), scale ~1e3 and
 * shift ~1e6 per coordinate (large offset), scale ~1e-8 with a shift of the
 * same order (tiny). An adversarial case gets one of those three, or a
 * small shape far from the origin (scale 1e-3 to 1, shift ~1e6: few
 * significant bits left for the shape), at random: its geometry is
 * special, its placement is not. */
static inline oracle_frame oracle_frame_random(oracle_rng *g, int kind) {
  oracle_frame f;
  int i, far_small = 0;
  if (kind == ORACLE_ADVERSARIAL) {
    kind = oracle_rng_int(g, 4);
    far_small = kind == 3;
    if (far_small) kind = ORACLE_LARGE;
  }
  f.scale = 1;
  f.shift[0] = f.shift[1] = f.shift[2] = 0;
  if (kind == ORACLE_LARGE) {
    f.scale = far_small ? oracle_rng_log10(g, -3, 0) : oracle_rng_range(g, 0.5e3, 2e3);
    for (i = 0; i < 3; ++i) {
      /* Two draws: sequenced, so that every compiler makes the same case. */
      double sign = oracle_rng_sign(g);
      f.shift[i] = sign * oracle_rng_range(g, 0.5e6, 2e6);
    }
  } else if (kind == ORACLE_TINY) {
    f.scale = oracle_rng_range(g, 0.5e-8, 2e-8);
    for (i = 0; i < 3; ++i)
      f.shift[i] = oracle_rng_range(g, -1e-8, 1e-8);
  }
  return f;
}

/* out = shift + scale u (a point). */
static inline void oracle_frame_point(const oracle_frame *f, const double u[3], double out[3]) {
  int i;
  for (i = 0; i < 3; ++i)
    out[i] = f->shift[i] + f->scale * u[i];
}

/* out = scale u (a vector). */
static inline void oracle_frame_vector(const oracle_frame *f, const double u[3], double out[3]) {
  int i;
  for (i = 0; i < 3; ++i)
    out[i] = f->scale * u[i];
}

/* ------------------------------------------------------------------------ */
/* The table of measured maxima                                             */
/* ------------------------------------------------------------------------ */

#define ORACLE_MAX_ROWS 512

/* Measured maxima of one kernel, precision and kind of case. A maximum
 * below 0 was not measured and prints as a dash. */
typedef struct oracle_row {
  char kernel[48];
  char precision[8];
  int kind;
  long cases;
  double sqdist;          /* squared distance error, eps S^2 */
  double point;           /* closest point error, eps S (asserted cases) */
  double point_ill;       /* the same, cases not asserted (ill-conditioned) */
  double value;           /* error of another output, in value_unit */
  const char *value_unit; /* e.g. "eps S" for a signed distance */
  long feature_checked;   /* cases whose feature was asserted: the exact
                           * one outside the margin, or one that holds the
                           * closest point on a degenerate primitive */
  long feature_amb;       /* cases within the margin: either answer goes */
  long feature_amb_diff;  /* of those, cases where it differs from exact */
  double amb_diff_margin; /* largest margin of such a case, eps S */
} oracle_row;

typedef struct oracle_table {
  int n;
  oracle_row rows[ORACLE_MAX_ROWS];
} oracle_table;

static oracle_table oracle_table_;

/* The row of (kernel, precision, kind), created on first use. */
static inline oracle_row *oracle_row_get(const char *kernel, const char *precision, int kind) {
  int i;
  oracle_row *r;
  for (i = 0; i < oracle_table_.n; ++i) {
    r = &oracle_table_.rows[i];
    if (r->kind == kind && strcmp(r->kernel, kernel) == 0 && strcmp(r->precision, precision) == 0)
      return r;
  }
  if (oracle_table_.n == ORACLE_MAX_ROWS) {
    fprintf(stderr, "oracle.h: more than %d table rows\n", ORACLE_MAX_ROWS);
    return &oracle_table_.rows[ORACLE_MAX_ROWS - 1];
  }
  r = &oracle_table_.rows[oracle_table_.n++];
  memset(r, 0, sizeof *r);
  snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
  snprintf(r->precision, sizeof r->precision, "%s", precision);
  r->kind = kind;
  r->sqdist = r->point = r->point_ill = r->value = r->amb_diff_margin = -1;
  r->value_unit = "";
  return r;
}

/* *slot = max(*slot, err), where NaN counts as +inf. */
static inline void oracle_max(double *slot, double err) {
  if (err != err) err = INFINITY;
  if (err > *slot) *slot = err;
}

static inline void oracle_print_cell(FILE *f, double v) {
  if (v < 0)
    fprintf(f, " - |");
  else if (v == 0)
    fprintf(f, " 0 |");
  else
    fprintf(f, " %.3g |", v);
}

/* Prints the table as markdown. */
static inline void oracle_table_print(FILE *f) {
  int i;
  fprintf(f, "\n| kernel | precision | kind | cases | d^2 error "
             "(eps S^2) | point error (eps S) | point error, not asserted "
             "(eps S) | other error | features checked | within margin | "
             "of those differing | largest margin differing (eps S) |\n");
  fprintf(f, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (i = 0; i < oracle_table_.n; ++i) {
    const oracle_row *r = &oracle_table_.rows[i];
    fprintf(f, "| %s | %s | %s | %ld |", r->kernel, r->precision, oracle_kind_name(r->kind),
            r->cases);
    oracle_print_cell(f, r->sqdist);
    oracle_print_cell(f, r->point);
    oracle_print_cell(f, r->point_ill);
    if (r->value < 0)
      fprintf(f, " - |");
    else
      fprintf(f, " %.3g %s |", r->value, r->value_unit);
    fprintf(f, " %ld | %ld | %ld |", r->feature_checked, r->feature_amb, r->feature_amb_diff);
    oracle_print_cell(f, r->amb_diff_margin);
    fprintf(f, "\n");
  }
  fprintf(f, "\n");
}

#endif /* PROX_TEST_ORACLE_H */
