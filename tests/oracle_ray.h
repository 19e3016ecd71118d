/* SPDX-License-Identifier: MIT */
/* oracle_ray.h: exact oracles of the ray casts (K3) and overlap tests,
 * built on oracle.h (rationals, random cases).
 *
 * A ray cast is reduced to the interval of line parameters where the line
 * o + t d meets the closed solid (or the parameter where it crosses a
 * surface), computed exactly in rationals for planes, boxes, triangles and
 * tetrahedra. For spheres and capsules the ends are roots of quadratics:
 * the sign of the discriminant (hit or miss) is exact, and the roots are
 * computed with oracle_sqrt (320-bit GMP mpf square root, relative error
 * below 2^-300), i.e. some 2^-248 of double's eps away from the true root:
 * negligible against the asserted bounds, which are of the order of eps.
 *
 * Ambiguity. A decision counts as unambiguous when the exact answer does
 * not change if the solid is grown or shrunk by band * S (S the largest
 * coordinate magnitude of the inputs; band = 1e-9 for double, 1e-5 for
 * float, whose rounding is 2^29 times coarser): ORY_GROW / ORY_SHRINK.
 * Features are checked when the exact entry point is farther than band * S
 * from every other feature.
 *
 * Also: exact sign predicates (orientation, ray edge functions with the
 * symbolic perturbation prox uses), exact separating-axis tests for boxes
 * and triangles, and a table of measured maxima for the ray casts. */
#ifndef PROX_TEST_ORACLE_RAY_H
#define PROX_TEST_ORACLE_RAY_H

#include "oracle.h"

#include <stdlib.h>

/* Relative width of the band of ambiguous cases, per precision. */
#define ORY_BAND_DOUBLE 1e-9
#define ORY_BAND_FLOAT 1e-5

/* A ray with an exact origin and direction and a double interval (tmax may
 * be +inf, tmin -inf). */
typedef struct ory_ray {
  q3 o, d;
  double tmin, tmax;
} ory_ray;

static inline void ory_ray_init(ory_ray *r) {
  q3_init(&r->o);
  q3_init(&r->d);
}

static inline void ory_ray_clear(ory_ray *r) {
  q3_clear(&r->o);
  q3_clear(&r->d);
}

/* The line interval where a line meets a closed solid, with the feature at
 * the entry, how far (length) the entry point is from another feature,
 * and the cosine of the angle of incidence at entry and exit. */
typedef struct ory_iv {
  int empty;
  int lo_inf, hi_inf; /* lo = -inf, hi = +inf */
  mpq_t lo, hi;
  int kind, index; /* feature at lo */
  double fmargin;  /* distance of the entry point to another feature */
  double cos_in;   /* |cos| of incidence at lo (1 when not applicable) */
  double cos_out;  /* same at hi */
  int kind_out;    /* feature at hi (pieces of a capsule, faces ...) */
} ory_iv;

static inline void ory_iv_init(ory_iv *v) {
  mpq_inits(v->lo, v->hi, NULL);
}
static inline void ory_iv_clear(ory_iv *v) {
  mpq_clears(v->lo, v->hi, NULL);
}

static inline void ory_iv_reset(ory_iv *v) {
  v->empty = 1;
  v->lo_inf = v->hi_inf = 0;
  mpq_set_ui(v->lo, 0, 1);
  mpq_set_ui(v->hi, 0, 1);
  v->kind = v->index = 0;
  v->fmargin = INFINITY;
  v->cos_in = v->cos_out = 1;
  v->kind_out = 0;
}

/* The exact answer of a ray cast: the line interval clipped to the ray. */
typedef struct ory_hit {
  int hit, inside;
  mpq_t t, tx; /* entry (or tmin when inside) and exit (clipped) */
  int t_inf, tx_inf;
} ory_hit;

static inline void ory_hit_init(ory_hit *h) {
  mpq_inits(h->t, h->tx, NULL);
}
static inline void ory_hit_clear(ory_hit *h) {
  mpq_clears(h->t, h->tx, NULL);
}

/* mpq_cmp with a double (finite). */
static inline int ory_cmp_d(const mpq_t a, double d) {
  mpq_t t;
  int c;
  mpq_init(t);
  mpq_set_d(t, d);
  c = mpq_cmp(a, t);
  mpq_clear(t);
  return c;
}

/* Clips a line interval to [tmin, tmax] (tmax < tmin: the single
 * parameter tmin). */
static inline void ory_clip(ory_hit *h, const ory_iv *v, double tmin, double tmax) {
  mpq_t a, b;
  int a_inf = 0, b_inf = 0; /* a = -inf / b = +inf */
  h->hit = h->inside = 0;
  h->t_inf = h->tx_inf = 0;
  if (v->empty) return;
  if (tmax < tmin) tmax = tmin;
  mpq_inits(a, b, NULL);
  /* a = max(lo, tmin) */
  if (isinf(tmin) && tmin < 0) {
    if (v->lo_inf)
      a_inf = 1;
    else
      mpq_set(a, v->lo);
  } else {
    mpq_set_d(a, tmin);
    if (!v->lo_inf && mpq_cmp(v->lo, a) > 0) mpq_set(a, v->lo);
  }
  /* b = min(hi, tmax) */
  if (isinf(tmax)) {
    if (v->hi_inf)
      b_inf = 1;
    else
      mpq_set(b, v->hi);
  } else {
    mpq_set_d(b, tmax);
    if (!v->hi_inf && mpq_cmp(v->hi, b) < 0) mpq_set(b, v->hi);
  }
  if (a_inf || b_inf || mpq_cmp(a, b) <= 0) {
    h->hit = 1;
    h->inside = v->lo_inf || (!isinf(tmin) && ory_cmp_d(v->lo, tmin) < 0);
    if (isinf(tmin) && tmin < 0 && v->lo_inf) h->inside = 1;
    mpq_set(h->t, a);
    mpq_set(h->tx, b);
    h->t_inf = a_inf;
    h->tx_inf = b_inf;
  }
  mpq_clears(a, b, NULL);
}

/* ------------------------------------------------------------------------ */
/* Exact sign predicates                                                    */
/* ------------------------------------------------------------------------ */

/* Sign of orient3d(a, b, c, d) = (b - a) . ((c - a) x (d - a)). */
static inline int ory_orient3d(const q3 *a, const q3 *b, const q3 *c, const q3 *d) {
  mpq_t r;
  int s;
  mpq_init(r);
  oracle_orient3d(r, a, b, c, d);
  s = mpq_sgn(r);
  mpq_clear(r);
  return s;
}

/* Exact ray edge function ((p - o) x (q - o)) . d, with the perturbation
 * of prox: when zero, the sign of (d x (q - p))[a0], else [a1]. Returns the
 * sign; *zero gets 1 when the unperturbed value is 0. */
static inline int ory_ray_edge(const q3 *o, const q3 *d, const q3 *p, const q3 *q, int a0, int a1,
                               int perturb, int *zero) {
  q3 u, v;
  mpq_t r;
  int s;
  q3_init(&u);
  q3_init(&v);
  mpq_init(r);
  q3_sub(&u, p, o);
  q3_sub(&v, q, o);
  q3_cross(&u, &u, &v);
  q3_dot(r, &u, d);
  s = mpq_sgn(r);
  *zero = s == 0;
  if (s == 0 && perturb) {
    q3_sub(&v, q, p);
    q3_cross(&u, d, &v);
    s = mpq_sgn(a0 == 0 ? u.x : (a0 == 1 ? u.y : u.z));
    if (s == 0) s = mpq_sgn(a1 == 0 ? u.x : (a1 == 1 ? u.y : u.z));
  }
  q3_clear(&u);
  q3_clear(&v);
  mpq_clear(r);
  return s;
}

/* The ray-space axes prox picks for a direction (double values): kz the
 * largest |d| component (ties: z, then y), (kx, ky) cyclic after it,
 * swapped when d[kz] < 0. */
static inline void ory_ray_axes(const double d[3], int *kx, int *ky) {
  double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);
  int kz = az >= ax && az >= ay ? 2 : (ay >= ax ? 1 : 0), t;
  *kx = kz == 2 ? 0 : kz + 1;
  *ky = *kx == 2 ? 0 : *kx + 1;
  if (d[kz] < 0) {
    t = *kx;
    *kx = *ky;
    *ky = t;
  }
}

/* ------------------------------------------------------------------------ */
/* Line intervals of the solids                                             */
/* ------------------------------------------------------------------------ */

/* Component i of a q3. */
static inline mpq_ptr q3_at(q3 *v, int i) {
  return i == 0 ? v->x : (i == 1 ? v->y : v->z);
}

/* Line o + t d against the box lo[i] <= x[i] <= hi[i] given in a frame
 * where the line is o[i], d[i] (exact). The feature at the entry is
 * numbered like prox_point_aabb; fmargin is the distance (in frame units)
 * of the entry point to the nearest face plane it is not on; cos_in/out
 * the |d[axis]| / |d| of the entry and exit axes. */
static inline void ory_line_slabs(ory_iv *v, mpq_t o[3], mpq_t d[3], mpq_t lo[3], mpq_t hi[3]) {
  mpq_t t0, t1, t, p;
  int i, lo_inf = 1, hi_inf = 1, c[3] = {0, 0, 0}, nc, ax_in = -1, ax_out = -1;
  double dl = 0;
  ory_iv_reset(v);
  mpq_inits(t0, t1, t, p, NULL);
  for (i = 0; i < 3; ++i) {
    double di = mpq_get_d(d[i]);
    dl += di * di;
  }
  dl = sqrt(dl);
  for (i = 0; i < 3; ++i) {
    if (mpq_sgn(d[i]) == 0) {
      if (mpq_cmp(o[i], lo[i]) < 0 || mpq_cmp(o[i], hi[i]) > 0) {
        mpq_clears(t0, t1, t, p, NULL);
        return;
      }
      continue;
    }
    mpq_sub(t0, lo[i], o[i]);
    mpq_div(t0, t0, d[i]);
    mpq_sub(t1, hi[i], o[i]);
    mpq_div(t1, t1, d[i]);
    if (mpq_sgn(d[i]) < 0) mpq_swap(t0, t1);
    if (lo_inf || mpq_cmp(t0, v->lo) > 0) {
      mpq_set(v->lo, t0);
      lo_inf = 0;
      ax_in = i;
    }
    if (hi_inf || mpq_cmp(t1, v->hi) < 0) {
      mpq_set(v->hi, t1);
      hi_inf = 0;
      ax_out = i;
    }
  }
  v->lo_inf = lo_inf;
  v->hi_inf = hi_inf;
  if (!lo_inf && !hi_inf && mpq_cmp(v->lo, v->hi) > 0) {
    mpq_clears(t0, t1, t, p, NULL);
    return;
  }
  v->empty = 0;
  v->cos_in = ax_in >= 0 ? fabs(mpq_get_d(d[ax_in])) / dl : 1;
  v->cos_out = ax_out >= 0 ? fabs(mpq_get_d(d[ax_out])) / dl : 1;
  if (lo_inf) {
    v->kind = ORACLE_INTERIOR;
    mpq_clears(t0, t1, t, p, NULL);
    return;
  }
  /* The entry point's clamp state and its distance to other planes. */
  v->fmargin = INFINITY;
  for (i = 0; i < 3; ++i) {
    double m1, m2;
    mpq_mul(p, v->lo, d[i]);
    mpq_add(p, p, o[i]);
    if (mpq_equal(p, lo[i]))
      c[i] = -1;
    else if (mpq_equal(p, hi[i]))
      c[i] = 1;
    if (c[i] != 0) continue;
    mpq_sub(t, p, lo[i]);
    m1 = fabs(mpq_get_d(t));
    mpq_sub(t, hi[i], p);
    m2 = fabs(mpq_get_d(t));
    if (m1 < v->fmargin) v->fmargin = m1;
    if (m2 < v->fmargin) v->fmargin = m2;
  }
  nc = (c[0] != 0) + (c[1] != 0) + (c[2] != 0);
  if (nc == 1) {
    v->kind = ORACLE_FACE;
    v->index = c[0] ? (c[0] > 0) : (c[1] ? 2 + (c[1] > 0) : 4 + (c[2] > 0));
  } else if (nc == 2) {
    v->kind = ORACLE_EDGE;
    v->index = !c[0] ? (c[1] > 0) | ((c[2] > 0) << 1)
                     : (!c[1] ? 4 + ((c[0] > 0) | ((c[2] > 0) << 1))
                              : 8 + ((c[0] > 0) | ((c[1] > 0) << 1)));
  } else if (nc == 3) {
    v->kind = ORACLE_VERTEX;
    v->index = (c[0] > 0) | ((c[1] > 0) << 1) | ((c[2] > 0) << 2);
  } else {
    v->kind = ORACLE_INTERIOR; /* entry at -inf handled above */
  }
  mpq_clears(t0, t1, t, p, NULL);
}

/* Line against the axis-aligned box [bmin, bmax] grown by g (a length;
 * negative shrinks). */
static inline void ory_line_aabb(ory_iv *v, const ory_ray *r, const q3 *bmin, const q3 *bmax,
                                 double g) {
  mpq_t o[3], d[3], lo[3], hi[3], gq;
  int i;
  mpq_init(gq);
  mpq_set_d(gq, g);
  for (i = 0; i < 3; ++i) {
    mpq_inits(o[i], d[i], lo[i], hi[i], NULL);
    mpq_set(o[i], q3_at((q3 *)&r->o, i));
    mpq_set(d[i], q3_at((q3 *)&r->d, i));
    mpq_set(lo[i], q3_at((q3 *)bmin, i));
    mpq_set(hi[i], q3_at((q3 *)bmax, i));
    if (mpq_cmp(lo[i], hi[i]) > 0) mpq_swap(lo[i], hi[i]);
    mpq_sub(lo[i], lo[i], gq);
    mpq_add(hi[i], hi[i], gq);
  }
  ory_line_slabs(v, o, d, lo, hi);
  for (i = 0; i < 3; ++i)
    mpq_clears(o[i], d[i], lo[i], hi[i], NULL);
  mpq_clear(gq);
}

/* Line against the oriented box {x : |(x - c) . axis[i]| <= |half[i]|}
 * (the slab form prox uses), grown by g along each axis (in units of the
 * axes, which are unit up to rounding). */
static inline void ory_line_obb(ory_iv *v, const ory_ray *r, const q3 *c, const q3 ax[3],
                                const double half[3], double g) {
  mpq_t o[3], d[3], lo[3], hi[3];
  q3 w;
  int i;
  q3_init(&w);
  q3_sub(&w, &r->o, c);
  for (i = 0; i < 3; ++i) {
    mpq_inits(o[i], d[i], lo[i], hi[i], NULL);
    q3_dot(o[i], &w, &ax[i]);
    q3_dot(d[i], &r->d, &ax[i]);
    mpq_set_d(hi[i], fabs(half[i]) + 0.0);
    {
      mpq_t gq;
      mpq_init(gq);
      mpq_set_d(gq, g);
      mpq_add(hi[i], hi[i], gq);
      mpq_clear(gq);
    }
    mpq_neg(lo[i], hi[i]);
  }
  ory_line_slabs(v, o, d, lo, hi);
  for (i = 0; i < 3; ++i)
    mpq_clears(o[i], d[i], lo[i], hi[i], NULL);
  q3_clear(&w);
}

/* Roots of A t^2 + 2 B t + C = 0 (A > 0): 0 when none, else r0 <= r1 with
 * the 320-bit square root. */
static inline int ory_quadratic(mpq_t r0, mpq_t r1, const mpq_t A, const mpq_t B, const mpq_t C) {
  mpq_t disc, t, s;
  int ok;
  mpq_inits(disc, t, s, NULL);
  mpq_mul(disc, B, B);
  mpq_mul(t, A, C);
  mpq_sub(disc, disc, t);
  ok = mpq_sgn(disc) >= 0;
  if (ok) {
    oracle_sqrt(s, disc);
    mpq_neg(t, B);
    mpq_sub(r0, t, s);
    mpq_div(r0, r0, A);
    mpq_add(r1, t, s);
    mpq_div(r1, r1, A);
  }
  mpq_clears(disc, t, s, NULL);
  return ok;
}

/* |cos| of the angle between d and the normal at the point o + t d of a
 * ball around c (double estimate). */
static inline double ory_cos_ball(const ory_ray *r, const mpq_t t, const q3 *c) {
  q3 p;
  double n[3], dd[3], nn, ddl, dot;
  q3_init(&p);
  q3_addmul(&p, &r->o, t, &r->d);
  q3_sub(&p, &p, c);
  q3_get_d(&p, n);
  q3_get_d(&r->d, dd);
  nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  ddl = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
  dot = n[0] * dd[0] + n[1] * dd[1] + n[2] * dd[2];
  q3_clear(&p);
  return nn > 0 && ddl > 0 ? fabs(dot) / (nn * ddl) : 0;
}

/* Line against the ball of radius rad + g around c. */
static inline void ory_line_ball(ory_iv *v, const ory_ray *r, const q3 *c, double rad, double g) {
  mpq_t A, B, C, R;
  q3 f;
  ory_iv_reset(v);
  mpq_inits(A, B, C, R, NULL);
  q3_init(&f);
  q3_sub(&f, &r->o, c);
  mpq_set_d(R, fabs(rad));
  {
    mpq_t gq;
    mpq_init(gq);
    mpq_set_d(gq, g);
    mpq_add(R, R, gq);
    mpq_clear(gq);
  }
  if (mpq_sgn(R) < 0) mpq_set_ui(R, 0, 1);
  mpq_mul(R, R, R);
  q3_dot(A, &r->d, &r->d);
  q3_dot(B, &f, &r->d);
  q3_dot(C, &f, &f);
  mpq_sub(C, C, R);
  if (mpq_sgn(A) == 0) {
    if (mpq_sgn(C) <= 0) {
      v->empty = 0;
      v->lo_inf = v->hi_inf = 1;
      v->kind = ORACLE_INTERIOR;
    }
  } else if (ory_quadratic(v->lo, v->hi, A, B, C)) {
    v->empty = 0;
    v->kind = ORACLE_FACE;
    v->index = 0;
    v->cos_in = ory_cos_ball(r, v->lo, c);
    v->cos_out = ory_cos_ball(r, v->hi, c);
  }
  q3_clear(&f);
  mpq_clears(A, B, C, R, NULL);
}

/* Merges the interval w into v (union; the capsule is convex so the union
 * of its pieces' intervals is an interval); the entry feature is that of
 * the earlier entry (the first one on ties). */
static inline void ory_iv_union(ory_iv *v, const ory_iv *w) {
  if (w->empty) return;
  if (v->empty) {
    v->empty = 0;
    v->lo_inf = w->lo_inf;
    v->hi_inf = w->hi_inf;
    mpq_set(v->lo, w->lo);
    mpq_set(v->hi, w->hi);
    v->kind = w->kind;
    v->index = w->index;
    v->cos_in = w->cos_in;
    v->cos_out = w->cos_out;
    v->kind_out = w->kind_out;
    return;
  }
  if (w->lo_inf || (!v->lo_inf && mpq_cmp(w->lo, v->lo) < 0)) {
    v->lo_inf = w->lo_inf;
    mpq_set(v->lo, w->lo);
    v->kind = w->kind;
    v->index = w->index;
    v->cos_in = w->cos_in;
  }
  if (w->hi_inf || (!v->hi_inf && mpq_cmp(w->hi, v->hi) > 0)) {
    v->hi_inf = w->hi_inf;
    mpq_set(v->hi, w->hi);
    v->cos_out = w->cos_out;
    v->kind_out = w->kind_out;
  }
}

/* Line against the capsule (a, b, radius rad + g). Features as
 * prox_point_capsule: VERTEX 0 / 1 (cap around a / b), EDGE 0 (side).
 * fmargin: distance of the entry point from the circles where the side
 * meets the caps, approximately |s| |e| with s the axis parameter. */
static inline void ory_line_capsule(ory_iv *v, const ory_ray *r, const q3 *a, const q3 *b,
                                    double rad, double g) {
  ory_iv w;
  q3 e, f, p;
  mpq_t ee, de, fe, A, B, C, R, t, s0, s1, u;
  double el;
  ory_iv_reset(v);
  ory_iv_init(&w);
  q3_init(&e);
  q3_init(&f);
  q3_init(&p);
  mpq_inits(ee, de, fe, A, B, C, R, t, s0, s1, u, NULL);
  ory_line_ball(&w, r, a, rad, g);
  w.kind = ORACLE_VERTEX;
  w.index = 0;
  w.kind_out = 1;
  ory_iv_union(v, &w);
  ory_line_ball(&w, r, b, rad, g);
  w.kind = ORACLE_VERTEX;
  w.index = 1;
  w.kind_out = 2;
  ory_iv_union(v, &w);
  q3_sub(&e, b, a);
  q3_sub(&f, &r->o, a);
  q3_dot(ee, &e, &e);
  el = sqrt(mpq_get_d(ee));
  if (mpq_sgn(ee) > 0) {
    mpq_set_d(R, fabs(rad));
    mpq_set_d(t, g);
    mpq_add(R, R, t);
    if (mpq_sgn(R) < 0) mpq_set_ui(R, 0, 1);
    mpq_mul(R, R, R);
    q3_dot(de, &r->d, &e);
    q3_dot(fe, &f, &e);
    /* A = |d|^2 ee - de^2, B = (f.d) ee - fe de, C = (|f|^2 - R) ee -
     * fe^2 (the perpendicular quadratic times ee). */
    q3_dot(A, &r->d, &r->d);
    mpq_mul(A, A, ee);
    mpq_mul(t, de, de);
    mpq_sub(A, A, t);
    q3_dot(B, &f, &r->d);
    mpq_mul(B, B, ee);
    mpq_mul(t, fe, de);
    mpq_sub(B, B, t);
    q3_dot(C, &f, &f);
    mpq_sub(C, C, R);
    mpq_mul(C, C, ee);
    mpq_mul(t, fe, fe);
    mpq_sub(C, C, t);
    ory_iv_reset(&w);
    if (mpq_sgn(A) == 0) {
      if (mpq_sgn(C) <= 0) {
        w.empty = 0;
        w.lo_inf = w.hi_inf = 1;
      }
    } else if (ory_quadratic(w.lo, w.hi, A, B, C)) {
      w.empty = 0;
    }
    if (!w.empty) {
      /* Clip by 0 <= fe + t de <= ee. */
      if (mpq_sgn(de) == 0) {
        if (mpq_sgn(fe) < 0 || mpq_cmp(fe, ee) > 0) w.empty = 1;
      } else {
        mpq_neg(s0, fe);
        mpq_div(s0, s0, de);
        mpq_sub(s1, ee, fe);
        mpq_div(s1, s1, de);
        if (mpq_sgn(de) < 0) mpq_swap(s0, s1);
        if (w.lo_inf || mpq_cmp(s0, w.lo) > 0) {
          mpq_set(w.lo, s0);
          w.lo_inf = 0;
        }
        if (w.hi_inf || mpq_cmp(s1, w.hi) < 0) {
          mpq_set(w.hi, s1);
          w.hi_inf = 0;
        }
        if (mpq_cmp(w.lo, w.hi) > 0) w.empty = 1;
      }
    }
    if (!w.empty) {
      w.kind = ORACLE_EDGE;
      w.index = 0;
      w.kind_out = 0;
      ory_iv_union(v, &w);
    }
  }
  if (!v->empty && !v->lo_inf && mpq_sgn(ee) > 0) {
    /* Margin: axis parameter of the entry point, distance to 0 and 1. */
    double sp;
    q3_addmul(&p, &r->o, v->lo, &r->d);
    q3_sub(&p, &p, a);
    q3_dot(u, &p, &e);
    mpq_div(u, u, ee);
    sp = mpq_get_d(u);
    v->fmargin = fmin(fabs(sp), fabs(sp - 1)) * el;
    if (v->kind == ORACLE_EDGE) {
      /* Incidence on the side: the normal is p minus its axis part. */
      q3 n;
      double nd[3], dd[3], nl, dl;
      q3_init(&n);
      q3_scale(&n, &e, u);
      q3_sub(&n, &p, &n);
      q3_get_d(&n, nd);
      q3_get_d(&r->d, dd);
      nl = sqrt(nd[0] * nd[0] + nd[1] * nd[1] + nd[2] * nd[2]);
      dl = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
      v->cos_in = nl > 0 ? fabs(nd[0] * dd[0] + nd[1] * dd[1] + nd[2] * dd[2]) / (nl * dl) : 0;
      q3_clear(&n);
    }
  }
  if (!v->empty && v->kind_out == 0 && !v->hi_inf && mpq_sgn(ee) > 0) {
    q3 n;
    double nd[3], dd[3], nl, dl;
    q3_init(&n);
    q3_addmul(&p, &r->o, v->hi, &r->d);
    q3_sub(&p, &p, a);
    q3_dot(u, &p, &e);
    mpq_div(u, u, ee);
    q3_scale(&n, &e, u);
    q3_sub(&n, &p, &n);
    q3_get_d(&n, nd);
    q3_get_d(&r->d, dd);
    nl = sqrt(nd[0] * nd[0] + nd[1] * nd[1] + nd[2] * nd[2]);
    dl = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
    v->cos_out = nl > 0 ? fabs(nd[0] * dd[0] + nd[1] * dd[1] + nd[2] * dd[2]) / (nl * dl) : 0;
    q3_clear(&n);
  }
  ory_iv_clear(&w);
  q3_clear(&e);
  q3_clear(&f);
  q3_clear(&p);
  mpq_clears(ee, de, fe, A, B, C, R, t, s0, s1, u, NULL);
}

/* The outward normal of face i of the tetrahedron (opposite v[i], vertices
 * in increasing order) and its offset: the face is n . x = off and the
 * solid n . x <= off. Returns 0 for a flat tetrahedron. */
static inline int ory_tet_plane(q3 *n, mpq_t off, const q3 v[4], int i) {
  int f[3];
  q3 e1, e2;
  mpq_t s;
  oracle_tet_face(i, f);
  q3_init(&e1);
  q3_init(&e2);
  mpq_init(s);
  q3_sub(&e1, &v[f[1]], &v[f[0]]);
  q3_sub(&e2, &v[f[2]], &v[f[0]]);
  q3_cross(n, &e1, &e2);
  q3_dot(off, n, &v[f[0]]);
  q3_dot(s, n, &v[i]);
  mpq_sub(s, s, off);
  if (mpq_sgn(s) > 0) {
    mpq_neg(n->x, n->x);
    mpq_neg(n->y, n->y);
    mpq_neg(n->z, n->z);
    mpq_neg(off, off);
  }
  {
    int flat = mpq_sgn(s) == 0;
    q3_clear(&e1);
    q3_clear(&e2);
    mpq_clear(s);
    return !flat;
  }
}

/* Line against a solid (non-flat) tetrahedron, each face plane pushed out
 * by at least g (a length; negative pulls in). Features as
 * prox_point_tetrahedron. */
static inline void ory_line_tet(ory_iv *v, const ory_ray *r, const q3 tv[4], double g) {
  q3 n[4], p;
  mpq_t off[4], nd, t, gq;
  int i, lo_inf = 1, hi_inf = 1, fin = -1, fout = -1, on[4], non = 0;
  double dl;
  ory_iv_reset(v);
  q3_init(&p);
  mpq_inits(nd, t, gq, NULL);
  {
    double dd[3];
    q3_get_d(&r->d, dd);
    dl = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
  }
  for (i = 0; i < 4; ++i) {
    q3_init(&n[i]);
    mpq_init(off[i]);
    ory_tet_plane(&n[i], off[i], tv, i);
    if (g != 0) {
      /* Push by g |n|_1 >= g |n|. */
      mpq_abs(t, n[i].x);
      mpq_abs(gq, n[i].y);
      mpq_add(t, t, gq);
      mpq_abs(gq, n[i].z);
      mpq_add(t, t, gq);
      mpq_set_d(gq, g);
      mpq_mul(t, t, gq);
      mpq_add(off[i], off[i], t);
    }
  }
  for (i = 0; i < 4; ++i) {
    q3_dot(nd, &n[i], &r->d);
    q3_dot(t, &n[i], &r->o);
    mpq_sub(t, off[i], t); /* off - n.o */
    if (mpq_sgn(nd) == 0) {
      if (mpq_sgn(t) < 0) goto done; /* outside, parallel */
      continue;
    }
    mpq_div(t, t, nd);
    if (mpq_sgn(nd) < 0) {
      if (lo_inf || mpq_cmp(t, v->lo) > 0) {
        mpq_set(v->lo, t);
        lo_inf = 0;
        fin = i;
      }
    } else {
      if (hi_inf || mpq_cmp(t, v->hi) < 0) {
        mpq_set(v->hi, t);
        hi_inf = 0;
        fout = i;
      }
    }
  }
  if (!lo_inf && !hi_inf && mpq_cmp(v->lo, v->hi) > 0) goto done;
  v->empty = 0;
  v->lo_inf = lo_inf;
  v->hi_inf = hi_inf;
  if (lo_inf) {
    v->kind = ORACLE_INTERIOR;
    goto done;
  }
  {
    double nn[3];
    q3_get_d(&n[fin], nn);
    q3_dot(nd, &n[fin], &r->d);
    v->cos_in = fabs(mpq_get_d(nd)) / (sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]) * dl);
    if (fout >= 0) {
      q3_get_d(&n[fout], nn);
      q3_dot(nd, &n[fout], &r->d);
      v->cos_out = fabs(mpq_get_d(nd)) / (sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]) * dl);
    }
  }
  /* Faces through the entry point and distance to the others. */
  q3_addmul(&p, &r->o, v->lo, &r->d);
  v->fmargin = INFINITY;
  for (i = 0; i < 4; ++i) {
    q3_dot(t, &n[i], &p);
    mpq_sub(t, off[i], t);
    on[i] = mpq_sgn(t) == 0;
    non += on[i];
    if (!on[i]) {
      double nn[3], m;
      q3_get_d(&n[i], nn);
      m = fabs(mpq_get_d(t)) / sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
      if (m < v->fmargin) v->fmargin = m;
    }
  }
  if (non == 1) {
    v->kind = ORACLE_FACE;
    for (i = 0; i < 4; ++i)
      if (on[i]) v->index = i;
  } else if (non == 2) {
    int a = -1, b = -1;
    /* The edge shared by faces i and j joins the two other vertices. */
    for (i = 0; i < 4; ++i)
      if (!on[i]) {
        if (a < 0)
          a = i;
        else
          b = i;
      }
    v->kind = ORACLE_EDGE;
    v->index = oracle_tet_edge(a, b);
  } else if (non == 3) {
    v->kind = ORACLE_VERTEX;
    for (i = 0; i < 4; ++i)
      if (!on[i]) v->index = i;
  } else {
    v->kind = ORACLE_FACE; /* cannot happen for a proper tetrahedron */
    v->index = fin;
  }
done:
  for (i = 0; i < 4; ++i) {
    q3_clear(&n[i]);
    mpq_clear(off[i]);
  }
  q3_clear(&p);
  mpq_clears(nd, t, gq, NULL);
}

/* |cos| of the angle between the vectors n and d, nd = n . d: from the
 * exact squares, so that no double overflows or underflows at the ends of
 * the domains (|n|^2 |d|^2 is of degree 6 in the coordinates). 0 when
 * either vector is zero. */
static inline double ory_cos(const mpq_t nd, const q3 *n, const q3 *d) {
  mpq_t a, b;
  double c = 0;
  mpq_inits(a, b, NULL);
  q3_len2(a, n);
  q3_len2(b, d);
  if (mpq_sgn(a) != 0 && mpq_sgn(b) != 0) {
    mpq_mul(a, a, b);
    mpq_mul(b, nd, nd);
    mpq_div(a, b, a);
    c = sqrt(mpq_get_d(a));
  }
  mpq_clears(a, b, NULL);
  return c;
}

/* ------------------------------------------------------------------------ */
/* Triangles                                                                */
/* ------------------------------------------------------------------------ */

/* The exact answer for a ray against a triangle under prox's rules (exact
 * edge signs with the symbolic perturbation): 1 when the line hits; then
 * *t (exact parameter of the plane crossing), zeros (bit k: the weight of
 * vertex k is exactly zero) and cos (|cos| of the incidence). closed = 1:
 * the boundary counts (no perturbation), as prox's tetrahedron does. */
static inline int ory_line_triangle(mpq_t t, int *zeros, double *cosv, const ory_ray *r,
                                    const q3 v[3], int closed) {
  double dd[3];
  int kx, ky, s[3], z[3], i, pos = 0, neg = 0, hit;
  q3 e1, e2, n, w;
  mpq_t nd;
  q3_get_d(&r->d, dd);
  ory_ray_axes(dd, &kx, &ky);
  for (i = 0; i < 3; ++i) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    s[i] = ory_ray_edge(&r->o, &r->d, &v[j], &v[k], kx, ky, !closed, &z[i]);
    pos |= s[i] > 0;
    neg |= s[i] < 0;
  }
  if (!closed)
    hit = (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0);
  else
    hit = pos != neg;
  *zeros = z[0] | (z[1] << 1) | (z[2] << 2);
  if (!hit) return 0;
  q3_init(&e1);
  q3_init(&e2);
  q3_init(&n);
  q3_init(&w);
  mpq_init(nd);
  q3_sub(&e1, &v[1], &v[0]);
  q3_sub(&e2, &v[2], &v[0]);
  q3_cross(&n, &e1, &e2);
  q3_dot(nd, &n, &r->d);
  q3_sub(&w, &v[0], &r->o);
  q3_dot(t, &n, &w);
  if (mpq_sgn(nd) == 0) {
    hit = 0; /* cannot happen: signs would not agree */
  } else {
    mpq_div(t, t, nd);
    *cosv = ory_cos(nd, &n, &r->d);
  }
  q3_clear(&e1);
  q3_clear(&e2);
  q3_clear(&n);
  q3_clear(&w);
  mpq_clear(nd);
  return hit;
}

/* ------------------------------------------------------------------------ */
/* Exact overlap oracles                                                    */
/* ------------------------------------------------------------------------ */

/* Projection interval [lo, hi] of the points p[0..n) on the axis L. */
static inline void ory_project(mpq_t lo, mpq_t hi, const q3 *p, int n, const q3 *L) {
  mpq_t t;
  int i;
  mpq_init(t);
  for (i = 0; i < n; ++i) {
    q3_dot(t, &p[i], L);
    if (i == 0 || mpq_cmp(t, lo) < 0) mpq_set(lo, t);
    if (i == 0 || mpq_cmp(t, hi) > 0) mpq_set(hi, t);
  }
  mpq_clear(t);
}

/* Separation of two convex point sets A (na points) and B along the axis
 * L: the gap between their projections divided by |L| (> 0: separated;
 * <= 0: overlapping along L), as a double; L == 0 gives -inf. */
static inline double ory_axis_gap(const q3 *A, int na, const q3 *B, int nb, const q3 *L) {
  mpq_t alo, ahi, blo, bhi, g, l2;
  double gap;
  if (q3_is_zero(L)) return -INFINITY;
  mpq_inits(alo, ahi, blo, bhi, g, l2, NULL);
  ory_project(alo, ahi, A, na, L);
  ory_project(blo, bhi, B, nb, L);
  mpq_sub(g, blo, ahi);
  mpq_sub(l2, alo, bhi);
  if (mpq_cmp(l2, g) > 0) mpq_set(g, l2);
  q3_dot(l2, L, L);
  gap = mpq_get_d(g);
  gap = gap / sqrt(mpq_get_d(l2));
  if (mpq_sgn(g) > 0 && !(gap > 0)) gap = DBL_MIN; /* keep the sign */
  mpq_clears(alo, ahi, blo, bhi, g, l2, NULL);
  return gap;
}

/* The eight corners of a parallelepiped c + sum s_i h_i a_i, s_i = +-1. */
static inline void ory_box_corners(q3 out[8], const q3 *c, const q3 a[3], const double h[3]) {
  int k, i;
  mpq_t s;
  mpq_init(s);
  for (k = 0; k < 8; ++k) {
    q3_set(&out[k], c);
    for (i = 0; i < 3; ++i) {
      mpq_set_d(s, (k >> i) & 1 ? fabs(h[i]) : -fabs(h[i]));
      q3_addmul(&out[k], &out[k], s, &a[i]);
    }
  }
  mpq_clear(s);
}

/* Largest separation over the separating axes of two convex polytopes
 * given by their vertices and candidate axes (face normals and edge cross
 * products): > 0 exactly when some candidate separates them. For convex
 * polytopes whose candidate list is complete, that is the exact
 * overlap test (separating axis theorem). */
static inline double ory_sat(const q3 *A, int na, const q3 *B, int nb, const q3 *axes, int naxes) {
  double best = -INFINITY, g;
  int i;
  for (i = 0; i < naxes; ++i) {
    g = ory_axis_gap(A, na, B, nb, &axes[i]);
    if (g > best) best = g;
  }
  return best;
}

/* ------------------------------------------------------------------------ */
/* Table of measured maxima                                                 */
/* ------------------------------------------------------------------------ */

typedef struct ory_row {
  char kernel[40];
  char precision[8];
  int kind;
  long cases, hits, decided, amb, feat;
  long amb_diff; /* ambiguous cases whose answer differs from the exact */
  double t_err;  /* entry t, well-conditioned hits, eps S */
  double tx_err; /* exit t, well-conditioned, eps S */
  double t_ill;  /* entry t, remaining hits (not asserted), eps S */
} ory_row;

#define ORY_MAX_ROWS 256
typedef struct ory_table {
  int n;
  ory_row rows[ORY_MAX_ROWS];
} ory_table;

static ory_table ory_table_;

static inline ory_row *ory_row_get(const char *kernel, const char *prec, int kind) {
  int i;
  ory_row *r;
  for (i = 0; i < ory_table_.n; ++i) {
    r = &ory_table_.rows[i];
    if (r->kind == kind && strcmp(r->kernel, kernel) == 0 && strcmp(r->precision, prec) == 0)
      return r;
  }
  if (ory_table_.n == ORY_MAX_ROWS) return &ory_table_.rows[ORY_MAX_ROWS - 1];
  r = &ory_table_.rows[ory_table_.n++];
  memset(r, 0, sizeof *r);
  snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
  snprintf(r->precision, sizeof r->precision, "%s", prec);
  r->kind = kind;
  r->t_err = r->tx_err = r->t_ill = -1;
  return r;
}

static inline void ory_table_print(FILE *f) {
  int i;
  fprintf(f, "\n| kernel | precision | cases | n | hits | hit/miss "
             "checked | within the margin | of those differing | feature "
             "checked | entry t (eps S) | exit t (eps S) | entry t, "
             "ill-cond. (eps S) |\n");
  fprintf(f, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (i = 0; i < ory_table_.n; ++i) {
    const ory_row *r = &ory_table_.rows[i];
    fprintf(f, "| %s | %s | %s | %ld | %ld | %ld | %ld | %ld | %ld |", r->kernel, r->precision,
            oracle_kind_name(r->kind), r->cases, r->hits, r->decided, r->amb, r->amb_diff, r->feat);
    oracle_print_cell(f, r->t_err);
    oracle_print_cell(f, r->tx_err);
    oracle_print_cell(f, r->t_ill);
    fprintf(f, "\n");
  }
  fprintf(f, "\n");
}

#endif /* PROX_TEST_ORACLE_RAY_H */
