/* SPDX-License-Identifier: MIT */
/* oracle_pairs.h: exact closest pairs (K2) for the accuracy tests, built on
 * oracle.h.
 *
 * Linear sets (lines, rays, segments: {o + t d : lo <= t <= hi}), segments
 * against triangles and triangles against triangles are solved exactly in
 * rational arithmetic as the minimum over a list of candidate pairs:
 *
 * - an end point of one linear set against the other (oracle_point_lin);
 * - the critical point of the two supporting lines when d1 x d2 != 0 and it
 *   lies strictly inside both parameter intervals; its squared distance is
 *   ((o2 - o1) . n)^2 / |n|^2 with n = d1 x d2;
 * - for triangles: each vertex against the other triangle
 *   (oracle_point_triangle), each edge pair (the linear oracle), and each
 *   edge that crosses the other triangle (exact orientation signs; distance
 *   0 at the crossing point).
 *
 * Each candidate carries the feature pair (prox numbering) that holds its
 * points and a margin m2: the increase of the squared distance needed to
 * switch to another feature inside that candidate (oracle margins squared).
 * The result's ambiguity amb is the smaller of the winner's m2 and the gap
 * to the best candidate with a different feature pair: a feature decision is
 * checked only when amb is well above the rounding of the kernels. */
#ifndef PROX_TEST_ORACLE_PAIRS_H
#define PROX_TEST_ORACLE_PAIRS_H

#include "oracle.h"

/* A linear set: o + t d, lo <= t <= hi (has_lo / has_hi 0: infinite). */
typedef struct orp_lin {
  q3 o, d;
  mpq_t lo, hi;
  int has_lo, has_hi;
} orp_lin;

static inline void orp_lin_init(orp_lin *L) {
  q3_init(&L->o);
  q3_init(&L->d);
  mpq_inits(L->lo, L->hi, NULL);
}

static inline void orp_lin_clear(orp_lin *L) {
  q3_clear(&L->o);
  q3_clear(&L->d);
  mpq_clears(L->lo, L->hi, NULL);
}

/* One candidate pair. */
typedef struct orp_cand {
  mpq_t d2;
  q3 p, q;
  int k0, i0, k1, i1; /* feature kinds and indices of p and q */
  double m2;          /* margin of its features, squared length */
  double sin2;        /* sin^2 of the directions' angle when both points
                       * are interior points of linear sets, else 1 */
} orp_cand;

#define ORP_MAXC 32

/* A list of candidates and the exact answer chosen from it. */
typedef struct orp_res {
  int n;
  orp_cand c[ORP_MAXC];
  int best;    /* index of the first minimal candidate */
  double amb;  /* ambiguity of the features, squared length (0: tie) */
  double sin2; /* linear pairs: sin^2 of the angle of the directions (1 when
                * a set is a point) */
  double cond; /* the winner's sin2: its points are well-conditioned when
                * it is not small */
} orp_res;

static inline void orp_res_init(orp_res *r) {
  int i;
  for (i = 0; i < ORP_MAXC; ++i) {
    mpq_init(r->c[i].d2);
    q3_init(&r->c[i].p);
    q3_init(&r->c[i].q);
  }
  r->n = 0;
}

static inline void orp_res_clear(orp_res *r) {
  int i;
  for (i = 0; i < ORP_MAXC; ++i) {
    mpq_clear(r->c[i].d2);
    q3_clear(&r->c[i].p);
    q3_clear(&r->c[i].q);
  }
}

/* Appends a candidate; returns it. */
static inline orp_cand *orp_push(orp_res *r, const mpq_t d2, const q3 *p, const q3 *q, int k0,
                                 int i0, int k1, int i1, double m2) {
  orp_cand *c = &r->c[r->n++];
  mpq_set(c->d2, d2);
  q3_set(&c->p, p);
  q3_set(&c->q, q);
  c->k0 = k0;
  c->i0 = i0;
  c->k1 = k1;
  c->i1 = i1;
  c->m2 = m2;
  c->sin2 = 1;
  return c;
}

/* Picks the winner and the ambiguity. */
static inline void orp_finish(orp_res *r) {
  int i;
  const orp_cand *b;
  mpq_t g;
  r->best = 0;
  for (i = 1; i < r->n; ++i)
    if (mpq_cmp(r->c[i].d2, r->c[r->best].d2) < 0) r->best = i;
  b = &r->c[r->best];
  r->amb = b->m2;
  r->cond = b->sin2;
  mpq_init(g);
  for (i = 0; i < r->n; ++i) {
    const orp_cand *c = &r->c[i];
    double gap;
    if (c->k0 == b->k0 && c->i0 == b->i0 && c->k1 == b->k1 && c->i1 == b->i1) continue;
    mpq_sub(g, c->d2, b->d2);
    gap = mpq_get_d(g);
    if (gap < r->amb) r->amb = gap;
  }
  mpq_clear(g);
}

/* Feature of a point of a linear set from oracle_lin's end code. */
static inline void orp_lin_feature(const oracle_lin *l, int *k, int *i) {
  *k = l->end < 0 ? ORACLE_EDGE : ORACLE_VERTEX;
  *i = l->end == 1;
}

/* Whether a linear set is a single point; then *p is it. */
static inline int orp_lin_single(const orp_lin *L, q3 *p) {
  mpq_t dd;
  int r = 0;
  mpq_init(dd);
  q3_dot(dd, &L->d, &L->d);
  if (mpq_sgn(dd) == 0) {
    q3_set(p, &L->o);
    r = 1;
  } else if (L->has_lo && L->has_hi && mpq_cmp(L->lo, L->hi) >= 0) {
    q3_addmul(p, &L->o, L->lo, &L->d);
    r = 1;
  }
  mpq_clear(dd);
  return r;
}

/* End e (0: lo, 1: hi) of a linear set, if finite. */
static inline int orp_lin_end(const orp_lin *L, int e, q3 *p) {
  if (e == 0 && !L->has_lo) return 0;
  if (e == 1 && !L->has_hi) return 0;
  q3_addmul(p, &L->o, e ? L->hi : L->lo, &L->d);
  return 1;
}

/* The point of B nearest p as a candidate (p on A with feature ka, ia);
 * swap: A and B exchange roles in the candidate (p is then side 1). */
static inline void orp_point_vs(orp_res *r, const q3 *p, int ka, int ia, const orp_lin *B,
                                int swap) {
  oracle_lin l;
  int k, i;
  double m;
  oracle_lin_init(&l);
  oracle_point_lin(&l, p, &B->o, &B->d, B->has_lo ? B->lo : NULL, B->has_hi ? B->hi : NULL);
  orp_lin_feature(&l, &k, &i);
  if (orp_lin_single(B, &l.q)) {
    /* B is a point itself: prox reports VERTEX 0. */
    k = ORACLE_VERTEX;
    i = 0;
    l.margin = INFINITY;
    q3_dist2(l.d2, p, &l.q);
  }
  m = l.margin * l.margin;
  if (swap)
    orp_push(r, l.d2, &l.q, p, k, i, ka, ia, m);
  else
    orp_push(r, l.d2, p, &l.q, ka, ia, k, i, m);
  oracle_lin_clear(&l);
}

/* The margin of a point x on a linear set L with feature (k, i): the margin
 * of the closest point of L to y (the other point of the pair) when it has
 * that feature, else 0 (the pair is then not a strict local optimum, or a
 * tie). Squared length. */
static inline double orp_margin_lin(const orp_lin *L, const q3 *y, int k, int i) {
  oracle_lin l;
  int lk, li;
  double m;
  oracle_lin_init(&l);
  if (orp_lin_single(L, &l.q)) {
    lk = ORACLE_VERTEX;
    li = 0;
    l.margin = INFINITY;
  } else {
    oracle_point_lin(&l, y, &L->o, &L->d, L->has_lo ? L->lo : NULL, L->has_hi ? L->hi : NULL);
    orp_lin_feature(&l, &lk, &li);
  }
  m = (lk == k && li == i) ? l.margin * l.margin : 0;
  oracle_lin_clear(&l);
  return m;
}

/* The same for a triangle. */
static inline double orp_margin_tri(const q3 v[3], const q3 *y, int k, int i) {
  oracle_tri t;
  double m;
  oracle_tri_init(&t);
  oracle_point_triangle(&t, y, v);
  m = (t.kind == k && t.index == i) ? t.margin * t.margin : 0;
  oracle_tri_clear(&t);
  return m;
}

/* Lowers r->amb to the projection margins of the winner: its point on each
 * object must be that object's closest point to the other point, robustly
 * (X, Y: linear sets, or NULL with triangles tx, ty). */
static inline void orp_refine(orp_res *r, const orp_lin *X, const q3 *tx, const orp_lin *Y,
                              const q3 *ty) {
  const orp_cand *b = &r->c[r->best];
  double m;
  m = X ? orp_margin_lin(X, &b->q, b->k0, b->i0) : orp_margin_tri(tx, &b->q, b->k0, b->i0);
  if (m < r->amb) r->amb = m;
  m = Y ? orp_margin_lin(Y, &b->p, b->k1, b->i1) : orp_margin_tri(ty, &b->p, b->k1, b->i1);
  if (m < r->amb) r->amb = m;
}

/* Exact closest pair of two linear sets (fills r). refine 0 skips the
 * projection margins of the winner (for edge pairs inside a triangle query,
 * whose own refinement covers them). */
static inline void orp_lin_lin_x(orp_res *r, const orp_lin *A, const orp_lin *B, int refine) {
  q3 p, q, n, w, c;
  mpq_t n2, s, t, x, dd;
  int e, sa, sb;
  q3_init(&p);
  q3_init(&q);
  q3_init(&n);
  q3_init(&w);
  q3_init(&c);
  mpq_inits(n2, s, t, x, dd, NULL);
  r->n = 0;
  r->sin2 = 1;
  sa = orp_lin_single(A, &p);
  sb = orp_lin_single(B, &q);
  if (sa) {
    orp_point_vs(r, &p, ORACLE_VERTEX, 0, B, 0);
  } else if (sb) {
    orp_point_vs(r, &q, ORACLE_VERTEX, 0, A, 1);
  } else {
    for (e = 0; e < 2; ++e)
      if (orp_lin_end(A, e, &p)) orp_point_vs(r, &p, ORACLE_VERTEX, e, B, 0);
    for (e = 0; e < 2; ++e)
      if (orp_lin_end(B, e, &q)) orp_point_vs(r, &q, ORACLE_VERTEX, e, A, 1);
    q3_cross(&n, &A->d, &B->d);
    q3_dot(n2, &n, &n);
    {
      mpq_t aa, bb;
      mpq_inits(aa, bb, NULL);
      q3_dot(aa, &A->d, &A->d);
      q3_dot(bb, &B->d, &B->d);
      mpq_mul(aa, aa, bb);
      mpq_div(aa, n2, aa);
      r->sin2 = mpq_get_d(aa);
      mpq_clears(aa, bb, NULL);
    }
    if (mpq_sgn(n2) != 0) {
      q3_sub(&w, &A->o, &B->o);
      q3_cross(&c, &w, &B->d);
      q3_dot(s, &c, &n);
      mpq_div(s, s, n2);
      mpq_neg(s, s);
      q3_cross(&c, &w, &A->d);
      q3_dot(t, &c, &n);
      mpq_div(t, t, n2);
      mpq_neg(t, t);
      if ((!A->has_lo || mpq_cmp(s, A->lo) > 0) && (!A->has_hi || mpq_cmp(s, A->hi) < 0) &&
          (!B->has_lo || mpq_cmp(t, B->lo) > 0) && (!B->has_hi || mpq_cmp(t, B->hi) < 0)) {
        q3_addmul(&p, &A->o, s, &A->d);
        q3_addmul(&q, &B->o, t, &B->d);
        q3_dot(x, &w, &n);
        mpq_mul(x, x, x);
        mpq_div(x, x, n2);
        orp_push(r, x, &p, &q, ORACLE_EDGE, 0, ORACLE_EDGE, 0, INFINITY)->sin2 = r->sin2;
      }
    }
    if (r->n == 0) {
      /* Two parallel lines: every pair is closest. */
      orp_point_vs(r, &A->o, ORACLE_EDGE, 0, B, 0);
      r->c[0].m2 = 0;
    }
  }
  orp_finish(r);
  if (refine) orp_refine(r, A, NULL, B, NULL);
  q3_clear(&p);
  q3_clear(&q);
  q3_clear(&n);
  q3_clear(&w);
  q3_clear(&c);
  mpq_clears(n2, s, t, x, dd, NULL);
}

/* Exact closest pair of two linear sets, with the ambiguity of its
 * features. */
static inline void orp_lin_lin(orp_res *r, const orp_lin *A, const orp_lin *B) {
  orp_lin_lin_x(r, A, B, 1);
}

/* A segment a b as a linear set. */
static inline void orp_lin_segment(orp_lin *L, const q3 *a, const q3 *b) {
  q3_set(&L->o, a);
  q3_sub(&L->d, b, a);
  mpq_set_ui(L->lo, 0, 1);
  mpq_set_ui(L->hi, 1, 1);
  L->has_lo = L->has_hi = 1;
}

/* Maps a triangle-edge feature: the segment feature (k, i) of edge e. */
static inline void orp_edge_feature(int k, int i, int e, int *ko, int *io) {
  if (k == ORACLE_VERTEX) {
    *ko = ORACLE_VERTEX;
    *io = i ? (e == 2 ? 0 : e + 1) : e;
  } else {
    *ko = ORACLE_EDGE;
    *io = e;
  }
}

/* Whether segment p q crosses triangle v strictly (exact signs); then x is
 * the crossing point and *sin2 the sin^2 of the angle between the segment
 * and the plane (the conditioning of x). */
static inline int orp_cross(const q3 *p, const q3 *q, const q3 v[3], q3 *x, double *sin2) {
  mpq_t dp, dq, u, vv, w, t;
  int res = 0, sp, sq;
  mpq_inits(dp, dq, u, vv, w, t, NULL);
  oracle_orient3d(dp, &v[0], &v[1], &v[2], p);
  oracle_orient3d(dq, &v[0], &v[1], &v[2], q);
  sp = mpq_sgn(dp);
  sq = mpq_sgn(dq);
  if (sp * sq < 0) {
    int su, sv, sw;
    oracle_orient3d(u, p, q, &v[2], &v[1]);
    oracle_orient3d(vv, p, q, &v[0], &v[2]);
    oracle_orient3d(w, p, q, &v[1], &v[0]);
    su = mpq_sgn(u);
    sv = mpq_sgn(vv);
    sw = mpq_sgn(w);
    if (su != 0 && su == sv && su == sw) {
      q3 d;
      q3_init(&d);
      mpq_sub(t, dp, dq);
      mpq_div(t, dp, t);
      q3_sub(&d, q, p);
      q3_addmul(x, p, t, &d);
      {
        /* (d . n)^2 / (|d|^2 |n|^2) with d . n = dq - dp. */
        q3 e1, e2, n;
        mpq_t a, b;
        q3_init(&e1);
        q3_init(&e2);
        q3_init(&n);
        mpq_inits(a, b, NULL);
        q3_sub(&e1, &v[1], &v[0]);
        q3_sub(&e2, &v[2], &v[0]);
        q3_cross(&n, &e1, &e2);
        q3_dot(a, &n, &n);
        q3_dot(b, &d, &d);
        mpq_mul(a, a, b);
        mpq_sub(b, dq, dp);
        mpq_mul(b, b, b);
        mpq_div(a, b, a);
        *sin2 = mpq_get_d(a);
        q3_clear(&e1);
        q3_clear(&e2);
        q3_clear(&n);
        mpq_clears(a, b, NULL);
      }
      q3_clear(&d);
      res = 1;
    }
  }
  mpq_clears(dp, dq, u, vv, w, t, NULL);
  return res;
}

/* Appends the candidates of point p (feature kp, ip on side sp) against
 * triangle v. */
static inline void orp_point_tri(orp_res *r, const q3 *p, int kp, int ip, const q3 v[3], int side) {
  oracle_tri t;
  oracle_tri_init(&t);
  oracle_point_triangle(&t, p, v);
  if (side == 0)
    orp_push(r, t.d2, p, &t.q, kp, ip, t.kind, t.index, t.margin * t.margin);
  else
    orp_push(r, t.d2, &t.q, p, t.kind, t.index, kp, ip, t.margin * t.margin);
  oracle_tri_clear(&t);
}

/* Appends the segment-segment candidate of edges (segments) a0 b0 and a1 b1
 * with side features mapped through edge indices e0, e1 (-1: a segment,
 * not a triangle edge). */
static inline void orp_edge_edge(orp_res *r, orp_res *tmp, const q3 *a0, const q3 *b0, int e0,
                                 const q3 *a1, const q3 *b1, int e1) {
  orp_lin A, B;
  const orp_cand *c;
  int k0, i0, k1, i1;
  orp_lin_init(&A);
  orp_lin_init(&B);
  orp_lin_segment(&A, a0, b0);
  orp_lin_segment(&B, a1, b1);
  /* The candidate's own margins matter only if it wins, and the caller
   * then refines the winner against the whole triangles; its internal
   * alternatives are dominated by the caller's vertex candidates. */
  orp_lin_lin_x(tmp, &A, &B, 0);
  c = &tmp->c[tmp->best];
  k0 = c->k0, i0 = c->i0, k1 = c->k1, i1 = c->i1;
  if (e0 >= 0) orp_edge_feature(c->k0, c->i0, e0, &k0, &i0);
  if (e1 >= 0) orp_edge_feature(c->k1, c->i1, e1, &k1, &i1);
  orp_push(r, c->d2, &c->p, &c->q, k0, i0, k1, i1, tmp->amb)->sin2 = c->sin2;
  orp_lin_clear(&A);
  orp_lin_clear(&B);
}

/* A certified lower bound (double) of the squared distance between
 * segments a0 b0 and a1 b1: the gap between their bounding boxes, shrunk by
 * a relative 1e-9 for the rounding of the doubles. */
static inline double orp_box_lb(const q3 *a0, const q3 *b0, const q3 *a1, const q3 *b1) {
  double p[4][3], s = 0;
  int i;
  q3_get_d(a0, p[0]);
  q3_get_d(b0, p[1]);
  q3_get_d(a1, p[2]);
  q3_get_d(b1, p[3]);
  for (i = 0; i < 3; ++i) {
    double lo0 = fmin(p[0][i], p[1][i]), hi0 = fmax(p[0][i], p[1][i]);
    double lo1 = fmin(p[2][i], p[3][i]), hi1 = fmax(p[2][i], p[3][i]);
    double g = fmax(0.0, fmax(lo1 - hi0, lo0 - hi1));
    s += g * g;
  }
  return s * (1 - 1e-9);
}

/* A certified lower bound of the squared distance from p to triangle t:
 * the gap between p and the triangle's bounding box. */
static inline double orp_tri_box_lb(const q3 *p, const q3 t[3]) {
  double x[3], a[3], b[3], c[3], s = 0;
  int i;
  q3_get_d(p, x);
  q3_get_d(&t[0], a);
  q3_get_d(&t[1], b);
  q3_get_d(&t[2], c);
  for (i = 0; i < 3; ++i) {
    double lo = fmin(a[i], fmin(b[i], c[i])), hi = fmax(a[i], fmax(b[i], c[i]));
    double g = fmax(0.0, fmax(lo - x[i], x[i] - hi));
    s += g * g;
  }
  return s * (1 - 1e-9);
}

/* The current minimum of r as an upper bound (double), plus slack. */
static inline double orp_ub(const orp_res *r, double slack) {
  int i;
  double m = INFINITY;
  for (i = 0; i < r->n; ++i) {
    double d = mpq_get_d(r->c[i].d2);
    if (d < m) m = d;
  }
  return m * (1 + 1e-9) + slack;
}

/* Slack of the pruning: candidates worse than the best by more than this
 * cannot win and cannot make a feature decision ambiguous (the test's
 * threshold is 64 eps S^2 with eps <= 2^-23, and its S, which may include
 * radii, stays below 8 times the vertices' magnitude here). */
static inline double orp_slack(const q3 *v, int n) {
  double m = 0;
  int i;
  for (i = 0; i < n; ++i)
    if (q3_maxabs(&v[i]) > m) m = q3_maxabs(&v[i]);
  return 4096 * 0x1p-23 * m * m + 1e-300;
}

/* Exact closest pair of segment a b and triangle v. */
static inline void orp_segment_triangle(orp_res *r, orp_res *tmp, const q3 *a, const q3 *b,
                                        const q3 v[3]) {
  q3 x;
  mpq_t zero;
  int i;
  q3_init(&x);
  mpq_init(zero);
  r->n = 0;
  r->sin2 = 1;
  if (q3_equal(a, b)) {
    orp_point_tri(r, a, ORACLE_VERTEX, 0, v, 0);
  } else {
    double s2;
    if (orp_cross(a, b, v, &x, &s2))
      orp_push(r, zero, &x, &x, ORACLE_EDGE, 0, ORACLE_FACE, 0, INFINITY)->sin2 = s2;
    /* Candidates in increasing order of a certified lower bound, skipping
     * those that cannot come within the slack of the best (see
     * orp_triangle_triangle). */
    q3 all[5];
    double lb[5], slack;
    int order[5], k, m;
    all[0] = *a, all[1] = *b, all[2] = v[0], all[3] = v[1], all[4] = v[2];
    slack = orp_slack(all, 5);
    lb[0] = orp_tri_box_lb(a, v);
    lb[1] = orp_tri_box_lb(b, v);
    for (i = 0; i < 3; ++i)
      lb[2 + i] = orp_box_lb(a, b, &v[i], &v[i == 2 ? 0 : i + 1]);
    for (k = 0; k < 5; ++k)
      order[k] = k;
    for (k = 1; k < 5; ++k)
      for (m = k; m > 0 && lb[order[m]] < lb[order[m - 1]]; --m) {
        int tmpi = order[m];
        order[m] = order[m - 1];
        order[m - 1] = tmpi;
      }
    for (k = 0; k < 5; ++k) {
      int c = order[k];
      if (r->n > 0 && lb[c] > orp_ub(r, slack)) break;
      if (c < 2) {
        orp_point_tri(r, c ? b : a, ORACLE_VERTEX, c, v, 0);
      } else {
        i = c - 2;
        orp_edge_edge(r, tmp, a, b, -1, &v[i], &v[i == 2 ? 0 : i + 1], i);
      }
    }
  }
  orp_finish(r);
  {
    orp_lin S;
    orp_lin_init(&S);
    orp_lin_segment(&S, a, b);
    orp_refine(r, &S, NULL, NULL, v);
    orp_lin_clear(&S);
  }
  q3_clear(&x);
  mpq_clear(zero);
}

/* Exact closest pair of triangles u and v. */
static inline void orp_triangle_triangle(orp_res *r, orp_res *tmp, const q3 u[3], const q3 v[3]) {
  q3 x;
  mpq_t zero;
  int i;
  q3_init(&x);
  mpq_init(zero);
  r->n = 0;
  r->sin2 = 1;
  for (i = 0; i < 3; ++i) {
    int i1 = i == 2 ? 0 : i + 1;
    double s2;
    if (orp_cross(&u[i], &u[i1], v, &x, &s2))
      orp_push(r, zero, &x, &x, ORACLE_EDGE, i, ORACLE_FACE, 0, INFINITY)->sin2 = s2;
    if (orp_cross(&v[i], &v[i1], u, &x, &s2))
      orp_push(r, zero, &x, &x, ORACLE_FACE, 0, ORACLE_EDGE, i, INFINITY)->sin2 = s2;
  }
  {
    /* The 15 candidates (6 vertex-triangle, 9 edge-edge) in increasing
     * order of a certified lower bound; those that cannot come within the
     * slack of the best so far are skipped. */
    q3 all[6];
    double lb[15], slack;
    int order[15], n = 15, a, b;
    for (i = 0; i < 3; ++i)
      all[i] = u[i], all[3 + i] = v[i];
    slack = orp_slack(all, 6);
    for (a = 0; a < 15; ++a) {
      order[a] = a;
      if (a < 6) {
        const q3 *p = a < 3 ? &u[a] : &v[a - 3];
        const q3 *t = a < 3 ? v : u;
        lb[a] = orp_tri_box_lb(p, t);
      } else {
        int e = a - 6, ei = e / 3, ej = e % 3;
        lb[a] = orp_box_lb(&u[ei], &u[ei == 2 ? 0 : ei + 1], &v[ej], &v[ej == 2 ? 0 : ej + 1]);
      }
    }
    for (a = 1; a < n; ++a)
      for (b = a; b > 0 && lb[order[b]] < lb[order[b - 1]]; --b) {
        int tmpi = order[b];
        order[b] = order[b - 1];
        order[b - 1] = tmpi;
      }
    for (a = 0; a < n; ++a) {
      int c = order[a];
      if (r->n > 0 && lb[c] > orp_ub(r, slack)) break;
      if (c < 3) {
        orp_point_tri(r, &u[c], ORACLE_VERTEX, c, v, 0);
      } else if (c < 6) {
        orp_point_tri(r, &v[c - 3], ORACLE_VERTEX, c - 3, u, 1);
      } else {
        int e = c - 6, ei = e / 3, ej = e % 3;
        orp_edge_edge(r, tmp, &u[ei], &u[ei == 2 ? 0 : ei + 1], ei, &v[ej],
                      &v[ej == 2 ? 0 : ej + 1], ej);
      }
    }
  }
  orp_finish(r);
  orp_refine(r, NULL, u, NULL, v);
  q3_clear(&x);
  mpq_clear(zero);
}

/* The squared distance of two solids around cores at squared distance d2c
 * with radii r0, r1 (>= 0): max(0, sqrt(d2c) - r0 - r1)^2, to ~300 bits.
 * *gap gets sqrt(d2c) - r0 - r1 as a double. */
static inline void orp_inflate(mpq_t out, double *gap, const mpq_t d2c, double r0, double r1) {
  mpq_t g, rr;
  mpq_inits(g, rr, NULL);
  oracle_sqrt(g, d2c);
  mpq_set_d(rr, r0);
  mpq_sub(g, g, rr);
  mpq_set_d(rr, r1);
  mpq_sub(g, g, rr);
  *gap = mpq_get_d(g);
  if (mpq_sgn(g) <= 0)
    mpq_set_ui(out, 0, 1);
  else
    mpq_mul(out, g, g);
  mpq_clears(g, rr, NULL);
}

#endif /* PROX_TEST_ORACLE_PAIRS_H */
