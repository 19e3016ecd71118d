/* SPDX-License-Identifier: MIT */
/* Exact rational (GMP mpq_t) oracle for the contact kernel tests: squared
 * distances of the point-point, point-line, point-plane and line-line
 * formulas, exact point-segment, point-triangle and segment-segment minima,
 * and the exact classification (with a margin to the nearest region
 * boundary) that the classifiers of contact.h promise. Inputs are double
 * triples; float inputs convert to double exactly. Independent of the
 * kernels: no formula is shared with include/prox/detail/contact.inl. */
#ifndef PROX_TEST_CONTACT_ORACLE_H
#define PROX_TEST_CONTACT_ORACLE_H

#include <gmp.h>
#include <math.h>
#include <stdlib.h>

/* A stack of pre-initialised rationals: qnew() hands out the next one,
 * qrelease(mark) returns everything handed out since qmark(). Limbs are
 * kept between uses, so the oracle does not allocate in steady state. */
#define Q_POOL 512
static mpq_t q_pool[Q_POOL];
static int q_top = 0;
static int q_ready = 0;

static void q_init(void) {
  int i;
  if (q_ready) return;
  for (i = 0; i < Q_POOL; ++i)
    mpq_init(q_pool[i]);
  q_ready = 1;
}

static void q_done(void) {
  int i;
  if (!q_ready) return;
  for (i = 0; i < Q_POOL; ++i)
    mpq_clear(q_pool[i]);
  q_ready = 0;
}

static mpq_ptr qnew(void) {
  if (q_top >= Q_POOL) abort();
  return q_pool[q_top++];
}
static int qmark(void) {
  return q_top;
}
static void qrelease(int mark) {
  q_top = mark;
}

typedef struct qv {
  mpq_ptr x, y, z;
} qv;

static qv qv_new(void) {
  qv v;
  v.x = qnew();
  v.y = qnew();
  v.z = qnew();
  return v;
}

static qv qv_from(const double *a) {
  qv v = qv_new();
  mpq_set_d(v.x, a[0]);
  mpq_set_d(v.y, a[1]);
  mpq_set_d(v.z, a[2]);
  return v;
}

static void qv_sub(qv r, qv a, qv b) {
  mpq_sub(r.x, a.x, b.x);
  mpq_sub(r.y, a.y, b.y);
  mpq_sub(r.z, a.z, b.z);
}

/* r = a + s b */
static void qv_madd(qv r, qv a, mpq_srcptr s, qv b) {
  int m = qmark();
  mpq_ptr t = qnew();
  mpq_mul(t, s, b.x);
  mpq_add(r.x, a.x, t);
  mpq_mul(t, s, b.y);
  mpq_add(r.y, a.y, t);
  mpq_mul(t, s, b.z);
  mpq_add(r.z, a.z, t);
  qrelease(m);
}

static void qv_dot(mpq_ptr r, qv a, qv b) {
  int m = qmark();
  mpq_ptr t = qnew();
  mpq_mul(r, a.x, b.x);
  mpq_mul(t, a.y, b.y);
  mpq_add(r, r, t);
  mpq_mul(t, a.z, b.z);
  mpq_add(r, r, t);
  qrelease(m);
}

/* r = a x b (r must not alias a or b). */
static void qv_cross(qv r, qv a, qv b) {
  int m = qmark();
  mpq_ptr t = qnew();
  mpq_mul(r.x, a.y, b.z);
  mpq_mul(t, a.z, b.y);
  mpq_sub(r.x, r.x, t);
  mpq_mul(r.y, a.z, b.x);
  mpq_mul(t, a.x, b.z);
  mpq_sub(r.y, r.y, t);
  mpq_mul(r.z, a.x, b.y);
  mpq_mul(t, a.y, b.x);
  mpq_sub(r.z, r.z, t);
  qrelease(m);
}

/* |d - exact| as a double, exact is a rational; infinite for an infinite
 * d, NaN for a NaN (mpq_set_d would raise SIGFPE on either). */
static double q_err(double d, mpq_srcptr exact) {
  int m = qmark();
  mpq_ptr t = qnew();
  double e;
  if (!isfinite(d)) return d == d ? INFINITY : d;
  mpq_set_d(t, d);
  mpq_sub(t, t, exact);
  e = fabs(mpq_get_d(t));
  qrelease(m);
  return e;
}

/* ---- formulas ---------------------------------------------------------- */

/* |p - q|^2 */
static void q_pp(mpq_ptr out, const double *p, const double *q) {
  int m = qmark();
  qv a = qv_from(p), b = qv_from(q), d = qv_new();
  qv_sub(d, a, b);
  qv_dot(out, d, d);
  qrelease(m);
}

/* Squared distance from p to the line e0 e1 (to e0 if e0 == e1) and the
 * foot parameter t (0 for a zero-length edge). */
static void q_pl(mpq_ptr out, mpq_ptr t, const double *p, const double *e0, const double *e1) {
  int m = qmark();
  qv P = qv_from(p), A = qv_from(e0), B = qv_from(e1);
  qv e = qv_new(), u = qv_new(), r = qv_new();
  mpq_ptr ee = qnew(), ue = qnew();
  qv_sub(e, B, A);
  qv_sub(u, P, A);
  qv_dot(ee, e, e);
  mpq_set_ui(t, 0, 1);
  if (mpq_sgn(ee) != 0) {
    qv_dot(ue, u, e);
    mpq_div(t, ue, ee);
  }
  mpq_neg(ue, t);
  qv_madd(r, u, ue, e);
  qv_dot(out, r, r);
  qrelease(m);
}

/* Index of the longest edge (t0t1, t1t2, t2t0), the first on ties. */
static int q_longest(const double *t0, const double *t1, const double *t2) {
  int mk = qmark(), k;
  mpq_ptr l0 = qnew(), l1 = qnew(), l2 = qnew();
  q_pp(l0, t1, t0);
  q_pp(l1, t2, t1);
  q_pp(l2, t0, t2);
  if (mpq_cmp(l0, l1) >= 0 && mpq_cmp(l0, l2) >= 0)
    k = 0;
  else
    k = mpq_cmp(l1, l2) >= 0 ? 1 : 2;
  qrelease(mk);
  return k;
}

/* Squared distance from p to the plane of t0 t1 t2 and the barycentric
 * coordinates b1, b2 of the foot. Zero area: distance to the line of the
 * longest edge, *degen = 1, b1 = b2 = 0. */
static void q_plane(mpq_ptr out, mpq_ptr b1, mpq_ptr b2, int *degen, const double *p,
                    const double *t0, const double *t1, const double *t2) {
  int m = qmark();
  qv P = qv_from(p), A = qv_from(t0), B = qv_from(t1), C = qv_from(t2);
  qv e1 = qv_new(), e2 = qv_new(), u = qv_new(), n = qv_new(), x = qv_new();
  mpq_ptr n2 = qnew(), un = qnew();
  qv_sub(e1, B, A);
  qv_sub(e2, C, A);
  qv_sub(u, P, A);
  qv_cross(n, e1, e2);
  qv_dot(n2, n, n);
  mpq_set_ui(b1, 0, 1);
  mpq_set_ui(b2, 0, 1);
  if (mpq_sgn(n2) == 0) {
    const double *v[3];
    int k = q_longest(t0, t1, t2);
    v[0] = t0;
    v[1] = t1;
    v[2] = t2;
    *degen = 1;
    q_pl(out, un, p, v[k], v[(k + 1) % 3]);
  } else {
    *degen = 0;
    qv_dot(un, u, n);
    mpq_mul(out, un, un);
    mpq_div(out, out, n2);
    qv_cross(x, u, e2);
    qv_dot(b1, x, n);
    mpq_div(b1, b1, n2);
    qv_cross(x, e1, u);
    qv_dot(b2, x, n);
    mpq_div(b2, b2, n2);
  }
  qrelease(m);
}

/* Squared distance between the lines a0 a1 and b0 b1 and the parameters s,
 * t of the closest points. Parallel (or zero-length): distance from a0 to
 * line b (from b0 to line a if b0 == b1), *par = 1, s = t = 0. */
static void q_ll(mpq_ptr out, mpq_ptr s, mpq_ptr t, int *par, const double *a0, const double *a1,
                 const double *b0, const double *b1) {
  int m = qmark();
  qv A0 = qv_from(a0), A1 = qv_from(a1), B0 = qv_from(b0), B1 = qv_from(b1);
  qv ea = qv_new(), eb = qv_new(), w = qv_new(), n = qv_new(), x = qv_new();
  mpq_ptr n2 = qnew(), wn = qnew(), lb = qnew();
  qv_sub(ea, A1, A0);
  qv_sub(eb, B1, B0);
  qv_sub(w, A0, B0);
  qv_cross(n, ea, eb);
  qv_dot(n2, n, n);
  mpq_set_ui(s, 0, 1);
  mpq_set_ui(t, 0, 1);
  if (mpq_sgn(n2) == 0) {
    *par = 1;
    qv_dot(lb, eb, eb);
    if (mpq_sgn(lb) != 0)
      q_pl(out, wn, a0, b0, b1);
    else
      q_pl(out, wn, b0, a0, a1);
  } else {
    *par = 0;
    qv_dot(wn, w, n);
    mpq_mul(out, wn, wn);
    mpq_div(out, out, n2);
    /* a0 + s ea - b0 - t eb is parallel to n: cross with eb, ea. */
    qv_cross(x, eb, w);
    qv_dot(s, x, n);
    mpq_div(s, s, n2);
    qv_cross(x, ea, w);
    qv_dot(t, x, n);
    mpq_div(t, t, n2);
  }
  qrelease(m);
}

/* ---- minima and classification ------------------------------------------ */

static double q_min3(double a, double b, double c) {
  double r = a < b ? a : b;
  return r < c ? r : c;
}

/* Exact squared distance from p to segment e0 e1. Returns the class of the
 * closest point (0: e0, 1: e1, 2: interior) and stores in *margin its
 * distance in parameter units to the nearest class boundary (t = 0 or 1),
 * +inf for a zero-length segment. *tu receives the unclamped parameter. */
static int q_seg(mpq_ptr out, double *margin, mpq_ptr tu, const double *p, const double *e0,
                 const double *e1) {
  int m = qmark(), cls;
  double t;
  mpq_ptr ee = qnew();
  q_pp(ee, e0, e1);
  q_pl(out, tu, p, e0, e1);
  t = mpq_get_d(tu);
  if (mpq_sgn(ee) == 0) {
    *margin = INFINITY;
    q_pp(out, p, e0);
    cls = 0;
  } else if (mpq_sgn(tu) <= 0) {
    *margin = -t;
    q_pp(out, p, e0);
    cls = 0;
  } else if (mpq_cmp_ui(tu, 1, 1) >= 0) {
    *margin = t - 1;
    q_pp(out, p, e1);
    cls = 1;
  } else {
    *margin = t < 1 - t ? t : 1 - t;
    cls = 2;
  }
  qrelease(m);
  return cls;
}

/* |p - q| as a double (exact squared distance, then a root). */
static double q_len(const double *p, const double *q) {
  int m = qmark();
  mpq_ptr l = qnew();
  double r;
  q_pp(l, p, q);
  r = sqrt(mpq_get_d(l));
  qrelease(m);
  return r;
}

/* A parameter margin m times a length l; an infinite margin (zero-length
 * segment: no boundary) stays infinite. */
static double q_lm(double m, double l) {
  return m == INFINITY ? INFINITY : m * l;
}

/* Relative window around the degeneracy threshold tau in which either
 * answer of the classifier is accepted (the threshold is a documented
 * "about", computed by the kernel in floating point). */
#define Q_TAU_WINDOW 4.0

/* Result of an exact classification. */
typedef struct q_class {
  int type;       /* the type the classifier must return */
  int ambiguous;  /* nonzero: any type accepted, for the Q_AMB_* reasons */
  double margin;  /* distance to the nearest region boundary (parameters) */
  double lmargin; /* the same in length units (the distance of the exact
                   * closest point, or of the foot that decides, from the
                   * region boundary): what mtol is compared with */
  double mscale;  /* mtol times this is the margin (point-triangle: L / h;
                   * edge-edge: (1 + d / (S sin)) / sin, d the distance
                   * between the lines, sin that of
                   * the angle off the parallel regime; else 1) */
} q_class;

/* Why a classification is ambiguous (bits of q_class.ambiguous): the
 * exact closest point within the margin of a region boundary, the shape
 * within a factor Q_TAU_WINDOW of the degeneracy threshold, or two
 * candidate distances tied within the tie tolerance. */
#define Q_AMB_MARGIN 1
#define Q_AMB_DEGEN 2
#define Q_AMB_TIE 4

/* Exact point-triangle: *out receives the exact minimum squared distance
 * (true geometry); the returned class follows the contract of
 * prox_ipc_point_triangle_distance_type (tau: degeneracy threshold; tie:
 * absolute tolerance under which two candidate distances count as tied;
 * mtol: margin, in length units, under which the exact closest point
 * counts as on a region boundary). */
static q_class q_tri(mpq_ptr out, const double *p, const double *t0, const double *t1,
                     const double *t2, double tau, double tie, double mtol) {
  int m = qmark(), k, best = 0, degen, in_face, regime_degen;
  const double *v[3];
  mpq_ptr d[3], tu[3], b1 = qnew(), b2 = qnew(), dp = qnew(), x = qnew(), y = qnew();
  double mg[3], beta[3], ratio, el[3], nlen = 0;
  int cls[3], ty[3];
  q_class r;
  v[0] = t0;
  v[1] = t1;
  v[2] = t2;
  for (k = 0; k < 3; ++k) {
    el[k] = q_len(v[k], v[(k + 1) % 3]);
    d[k] = qnew();
    tu[k] = qnew();
    cls[k] = q_seg(d[k], &mg[k], tu[k], p, v[k], v[(k + 1) % 3]);
    ty[k] = cls[k] == 2 ? 3 + k : (k + cls[k]) % 3;
    if (mpq_cmp(d[k], d[best]) < 0) best = k;
  }
  q_plane(dp, b1, b2, &degen, p, t0, t1, t2);
  beta[1] = mpq_get_d(b1);
  beta[2] = mpq_get_d(b2);
  mpq_set_ui(x, 1, 1);
  mpq_sub(x, x, b1);
  mpq_sub(x, x, b2);
  beta[0] = mpq_get_d(x);
  in_face = !degen && mpq_sgn(b1) >= 0 && mpq_sgn(b2) >= 0 && mpq_sgn(x) >= 0;
  mpq_set(out, in_face ? dp : d[best]);
  /* Regime: (height / longest edge)^2 = |n|^2 / lmax^4 against tau. */
  ratio = 1;
  {
    mpq_ptr n2 = qnew(), lm = qnew(), l = qnew();
    qv A = qv_from(t0), B = qv_from(t1), C = qv_from(t2);
    qv e1 = qv_new(), e2 = qv_new(), n = qv_new();
    qv_sub(e1, B, A);
    qv_sub(e2, C, A);
    qv_cross(n, e1, e2);
    qv_dot(n2, n, n);
    nlen = sqrt(mpq_get_d(n2));
    q_pp(lm, t1, t0);
    q_pp(l, t2, t1);
    if (mpq_cmp(l, lm) > 0) mpq_set(lm, l);
    q_pp(l, t0, t2);
    if (mpq_cmp(l, lm) > 0) mpq_set(lm, l);
    if (mpq_sgn(lm) == 0) {
      ratio = 0;
    } else {
      mpq_mul(lm, lm, lm);
      mpq_div(n2, n2, lm);
      ratio = mpq_get_d(n2);
    }
  }
  regime_degen = ratio <= tau;
  r.ambiguous = ratio > tau / Q_TAU_WINDOW && ratio < tau * Q_TAU_WINDOW ? Q_AMB_DEGEN : 0;
  if (!regime_degen && !degen) {
    /* Heights: the barycentric of vertex i is the distance to the line of
     * the opposite edge (i + 1) % 3 over the height nlen / el[...]. */
    double h[3];
    for (k = 0; k < 3; ++k)
      h[k] = nlen / el[(k + 1) % 3];
    if (in_face) {
      r.type = 6;
      r.margin = q_min3(beta[0], beta[1], beta[2]);
      r.lmargin = q_min3(beta[0] * h[0], beta[1] * h[1], beta[2] * h[2]);
    } else {
      r.type = ty[best];
      if (cls[best] == 2) {
        /* Edge region: t in (0, 1) and the barycentric of the opposite
         * vertex below zero. */
        int o = (best + 2) % 3;
        r.margin = mg[best];
        r.lmargin = q_lm(mg[best], el[best]);
        if (fabs(beta[o]) < r.margin) r.margin = fabs(beta[o]);
        if (fabs(beta[o]) * h[o] < r.lmargin) r.lmargin = fabs(beta[o]) * h[o];
      } else {
        /* Vertex region of vertex i: the parameters along both adjacent
         * edges point away from the triangle. */
        int vi = ty[best], ka = vi, kb = (vi + 2) % 3;
        double ma = cls[ka] == 0 ? mg[ka] : 0, mb = cls[kb] == 1 ? mg[kb] : 0;
        r.margin = ma < mb ? ma : mb;
        r.lmargin = q_lm(ma, el[ka]) < q_lm(mb, el[kb]) ? q_lm(ma, el[ka]) : q_lm(mb, el[kb]);
      }
    }
  } else {
    /* Union of the edges: the nearest edge wins, ties are ambiguous. */
    r.type = ty[best];
    r.margin = mg[best];
    r.lmargin = q_lm(mg[best], el[best]);
    for (k = 0; k < 3; ++k) {
      if (k == best || ty[k] == ty[best]) continue;
      mpq_sub(y, d[k], d[best]);
      if (mpq_get_d(y) <= tie + 1e-9 * mpq_get_d(d[best])) r.ambiguous |= Q_AMB_TIE;
    }
  }
  /* Off the degenerate regime the barycentrics come from triple products
   * with the computed normal, whose direction carries a rounding of about
   * eps L / h (L the longest edge, h the height on it): the margin is
   * mtol L / h there (L / h = 1 / sqrt(ratio)). */
  r.mscale = !regime_degen && !degen && ratio > 0 ? 1 / sqrt(ratio) : 1;
  if (r.lmargin < mtol * r.mscale) r.ambiguous |= Q_AMB_MARGIN;
  qrelease(m);
  return r;
}

/* Exact segment-segment: *out receives the exact minimum squared distance;
 * the returned class follows the contract of
 * prox_ipc_edge_edge_distance_type. Candidates k: 0 a0 vs b, 1 a1 vs b,
 * 2 b0 vs a, 3 b1 vs a. */
static q_class q_ee(mpq_ptr out, const double *a0, const double *a1, const double *b0,
                    const double *b1, double tau, double tie, double mtol) {
  int m = qmark(), k, best = 0, par, inside, cls[4], ty[4], parallel_regime;
  mpq_ptr d[4], tu[4], dl = qnew(), s = qnew(), t = qnew(), y = qnew();
  double mg[4], ratio, sd, td, lena = q_len(a0, a1), lenb = q_len(b0, b1);
  const double *pt[4], *s0[4], *s1[4];
  q_class r;
  pt[0] = a0;
  pt[1] = a1;
  pt[2] = b0;
  pt[3] = b1;
  for (k = 0; k < 4; ++k) {
    s0[k] = k < 2 ? b0 : a0;
    s1[k] = k < 2 ? b1 : a1;
    d[k] = qnew();
    tu[k] = qnew();
    cls[k] = q_seg(d[k], &mg[k], tu[k], pt[k], s0[k], s1[k]);
    if (k < 2)
      ty[k] = cls[k] == 2 ? 6 + k : 2 * k + cls[k];
    else
      ty[k] = cls[k] == 2 ? 4 + (k - 2) : 2 * cls[k] + (k - 2);
    if (mpq_cmp(d[k], d[best]) < 0) best = k;
  }
  q_ll(dl, s, t, &par, a0, a1, b0, b1);
  inside = !par && mpq_sgn(s) > 0 && mpq_cmp_ui(s, 1, 1) < 0 && mpq_sgn(t) > 0 &&
           mpq_cmp_ui(t, 1, 1) < 0;
  mpq_set(out, inside ? dl : d[best]);
  /* Regime: sin^2 = |ea x eb|^2 / (|ea|^2 |eb|^2) against tau. */
  {
    mpq_ptr n2 = qnew(), la = qnew(), lb = qnew();
    qv A0 = qv_from(a0), A1 = qv_from(a1), B0 = qv_from(b0), B1 = qv_from(b1);
    qv ea = qv_new(), eb = qv_new(), n = qv_new();
    qv_sub(ea, A1, A0);
    qv_sub(eb, B1, B0);
    qv_cross(n, ea, eb);
    qv_dot(n2, n, n);
    qv_dot(la, ea, ea);
    qv_dot(lb, eb, eb);
    mpq_mul(la, la, lb);
    if (mpq_sgn(la) == 0) {
      ratio = 0;
    } else {
      mpq_div(n2, n2, la);
      ratio = mpq_get_d(n2);
    }
  }
  parallel_regime = ratio <= tau;
  r.ambiguous = ratio > tau / Q_TAU_WINDOW && ratio < tau * Q_TAU_WINDOW ? Q_AMB_DEGEN : 0;
  sd = mpq_get_d(s);
  td = mpq_get_d(t);
  if (!parallel_regime && !par) {
    if (inside) {
      double ms = sd < 1 - sd ? sd : 1 - sd, mt = td < 1 - td ? td : 1 - td;
      r.type = 8;
      r.margin = ms < mt ? ms : mt;
      r.lmargin = ms * lena < mt * lenb ? ms * lena : mt * lenb;
    } else {
      /* Closest pair on the boundary of the parameter square: the margin of
       * the segment parameter and that of the clamped endpoint (how far its
       * unconstrained parameter, given the other point, is past it). */
      int mk = qmark();
      mpq_ptr su = qnew(), l = qnew(), tc = qnew();
      qv P = qv_from(pt[best]), S0 = qv_from(s0[best]), S1 = qv_from(s1[best]);
      qv O0 = qv_from(best < 2 ? a0 : b0), O1 = qv_from(best < 2 ? a1 : b1);
      qv e = qv_new(), f = qv_new(), q = qv_new(), dq = qv_new();
      double sm;
      r.type = ty[best];
      r.margin = mg[best];
      r.lmargin = q_lm(mg[best], best < 2 ? lenb : lena);
      /* q = closest point on the other segment; f = own edge vector. */
      qv_sub(e, S1, S0);
      mpq_set(tc, tu[best]);
      if (mpq_sgn(tc) < 0) mpq_set_ui(tc, 0, 1);
      if (mpq_cmp_ui(tc, 1, 1) > 0) mpq_set_ui(tc, 1, 1);
      qv_madd(q, S0, tc, e);
      qv_sub(f, O1, O0);
      qv_sub(dq, q, O0);
      qv_dot(su, dq, f);
      qv_dot(l, f, f);
      mpq_div(su, su, l);
      sm = mpq_get_d(su);
      /* Own endpoint index: 0 for a0/b0, 1 for a1/b1. */
      sm = (best % 2 == 0) ? -sm : sm - 1;
      if (fabs(sm) < r.margin) r.margin = fabs(sm);
      if (fabs(sm) * (best < 2 ? lena : lenb) < r.lmargin)
        r.lmargin = fabs(sm) * (best < 2 ? lena : lenb);
      (void)P;
      qrelease(mk);
    }
  } else {
    r.type = ty[best];
    r.margin = mg[best];
    r.lmargin = q_lm(mg[best], best < 2 ? lenb : lena);
    for (k = 0; k < 4; ++k) {
      if (k == best || ty[k] == ty[best]) continue;
      mpq_sub(y, d[k], d[best]);
      if (mpq_get_d(y) <= tie + 1e-9 * mpq_get_d(d[best])) r.ambiguous |= Q_AMB_TIE;
    }
  }
  /* Off the parallel regime the closest points' parameters are those of
   * the two lines, whose rounding grows like 1 / sin of the angle: the
   * margin is mtol / sin there. */
  /* Off the parallel regime the margin is also wider by d / (S sin), d
   * the distance between the two lines: the rounding of the edge vectors
   * turns their common normal by about eps / sin, which moves its feet by
   * about eps d / sin^2 (contact.h). */
  if (!parallel_regime && ratio > 0) {
    double sn = sqrt(ratio), smax = 0, dd = par ? 0 : sqrt(mpq_get_d(dl));
    const double *v[4];
    v[0] = a0, v[1] = a1, v[2] = b0, v[3] = b1;
    for (k = 0; k < 12; ++k)
      if (fabs(v[k / 3][k % 3]) > smax) smax = fabs(v[k / 3][k % 3]);
    r.mscale = (1 + (smax > 0 ? dd / (smax * sn) : 0)) / sn;
  } else {
    r.mscale = 1;
  }
  if (r.lmargin < mtol * r.mscale) r.ambiguous |= Q_AMB_MARGIN;
  qrelease(m);
  return r;
}

/* Exact point-segment classification with the same conventions. */
static q_class q_pe(mpq_ptr out, const double *p, const double *e0, const double *e1, double mtol) {
  int m = qmark();
  mpq_ptr tu = qnew();
  q_class r;
  r.type = q_seg(out, &r.margin, tu, p, e0, e1);
  r.lmargin = q_lm(r.margin, q_len(e0, e1));
  r.mscale = 1;
  r.ambiguous = r.lmargin < mtol ? Q_AMB_MARGIN : 0;
  qrelease(m);
  return r;
}

/* |ea x eb|^2 */
static void q_cross2(mpq_ptr out, const double *a0, const double *a1, const double *b0,
                     const double *b1) {
  int m = qmark();
  qv A0 = qv_from(a0), A1 = qv_from(a1), B0 = qv_from(b0), B1 = qv_from(b1);
  qv ea = qv_new(), eb = qv_new(), n = qv_new();
  qv_sub(ea, A1, A0);
  qv_sub(eb, B1, B0);
  qv_cross(n, ea, eb);
  qv_dot(out, n, n);
  qrelease(m);
}

/* ---- the oracles of the K4 kernels of the registry (tests/kernels.h) ---- */

/* Each K4 kernel `name` of the registry has q_<name>(out, x, type): the
 * exact value of the formula the kernel evaluates on the vertices x[0..2],
 * x[3..5], ... in the order of its arguments (a typed kernel: the formula
 * of `type`, one of its types other than AUTO; an untyped one ignores
 * type), returning 1 where that formula is well-conditioned (the feet of
 * the closest points within [-1, 2] in parameter units of their feature),
 * else 0. A kernel with a type also has q_<name>_class(out, x, tau, tie,
 * mtol): the exact minimum and the classification its _type function must
 * return (q_pe, q_tri, q_ee above). */

/* A foot parameter near its feature: within [-1, 2]. */
static int q_near(double t) {
  return t >= -1 && t <= 2;
}

static int q_point_point_distance(mpq_ptr out, const double *x, int type) {
  (void)type;
  q_pp(out, x, x + 3);
  return 1;
}

static int q_point_line_distance(mpq_ptr out, const double *x, int type) {
  int m = qmark(), wc;
  mpq_ptr t = qnew();
  (void)type;
  q_pl(out, t, x, x + 3, x + 6);
  wc = q_near(mpq_get_d(t));
  qrelease(m);
  return wc;
}

static int q_point_plane_distance(mpq_ptr out, const double *x, int type) {
  int m = qmark(), degen, wc;
  mpq_ptr t = qnew(), u = qnew();
  double b1, b2;
  (void)type;
  q_plane(out, t, u, &degen, x, x + 3, x + 6, x + 9);
  b1 = mpq_get_d(t);
  b2 = mpq_get_d(u);
  wc = q_near(1 - b1 - b2) && q_near(b1) && q_near(b2);
  qrelease(m);
  return wc;
}

static int q_line_line_distance(mpq_ptr out, const double *x, int type) {
  int m = qmark(), par, wc;
  mpq_ptr s = qnew(), t = qnew();
  (void)type;
  q_ll(out, s, t, &par, x, x + 3, x + 6, x + 9);
  wc = q_near(mpq_get_d(s)) && q_near(mpq_get_d(t));
  qrelease(m);
  return wc;
}

static int q_edge_edge_cross_squarednorm(mpq_ptr out, const double *x, int type) {
  (void)type;
  q_cross2(out, x, x + 3, x + 6, x + 9);
  return 1;
}

/* Point-edge types (prox_ipc_pe_type): p to e0, p to e1, p to the line. */
static int q_point_edge_distance(mpq_ptr out, const double *x, int type) {
  if (type < 2) {
    q_pp(out, x, x + 3 * (1 + type));
    return 1;
  }
  return q_point_line_distance(out, x, 0);
}

/* Point-triangle types (prox_ipc_pt_type): p to t0, t1, t2, to the lines
 * t0 t1, t1 t2, t2 t0, to the plane. */
static int q_point_triangle_distance(mpq_ptr out, const double *x, int type) {
  double y[9];
  int k;
  if (type < 3) {
    q_pp(out, x, x + 3 * (1 + type));
    return 1;
  }
  if (type == 6) return q_point_plane_distance(out, x, 0);
  for (k = 0; k < 3; ++k) {
    y[k] = x[k];
    y[3 + k] = x[3 * (1 + (type - 3)) + k];
    y[6 + k] = x[3 * (1 + (type - 2) % 3) + k];
  }
  return q_point_line_distance(out, y, 0);
}

/* Edge-edge types (prox_ipc_ee_type): the vertex pairs ea0 eb0, ea0 eb1,
 * ea1 eb0, ea1 eb1; eb0, eb1 to line a; ea0, ea1 to line b; line-line. */
static int q_edge_edge_distance(mpq_ptr out, const double *x, int type) {
  static const int pa[4] = {0, 0, 1, 1}, pb[4] = {2, 3, 2, 3};
  double y[9];
  int k;
  if (type < 4) {
    q_pp(out, x + 3 * pa[type], x + 3 * pb[type]);
    return 1;
  }
  if (type == 8) return q_line_line_distance(out, x, 0);
  for (k = 0; k < 3; ++k) {
    y[k] = type < 6 ? x[3 * (2 + (type - 4)) + k] : x[3 * (type - 6) + k];
    y[3 + k] = type < 6 ? x[k] : x[6 + k];
    y[6 + k] = type < 6 ? x[3 + k] : x[9 + k];
  }
  return q_point_line_distance(out, y, 0);
}

static q_class q_point_edge_distance_class(mpq_ptr out, const double *x, double tau, double tie,
                                           double mtol) {
  (void)tau, (void)tie;
  return q_pe(out, x, x + 3, x + 6, mtol);
}

static q_class q_point_triangle_distance_class(mpq_ptr out, const double *x, double tau, double tie,
                                               double mtol) {
  return q_tri(out, x, x + 3, x + 6, x + 9, tau, tie, mtol);
}

static q_class q_edge_edge_distance_class(mpq_ptr out, const double *x, double tau, double tie,
                                          double mtol) {
  return q_ee(out, x, x + 3, x + 6, x + 9, tau, tie, mtol);
}

#endif /* PROX_TEST_CONTACT_ORACLE_H */
