/* SPDX-License-Identifier: MIT */
/* Template: the vector kernels of the batch queries for one precision and
 * one instruction set. Included by src/simd/batch_avx2.c and
 * src/simd/batch_avx512.c once per precision, after the precision macros
 * (prox/detail/real_*.h) and the vector macros below (which the includer
 * undefines or redefines):
 *
 *   PB_W          lanes per vector          PB_V, PB_M  vector, mask
 *   PB_SET1(x)    broadcast                 PB_ADD/SUB/MUL/DIV(a, b)
 *   PB_LT/LE/GT/GE/EQ(a, b) ordered compares, false on NaN, giving masks
 *   PB_ISNAN(a)   lanes that are NaN        PB_SELECT(m, t, f)  m ? t : f
 *   PB_AND/OR(a, b), PB_ANDNOT(a, b) (a and not b), PB_NOT(a)
 *   PB_ALL, PB_FIRST(k)  all lanes, the first k < PB_W lanes
 *   PB_BITS(m)    the mask as bits, lane k in bit k
 *   PB_HMIN(v)    the smallest lane (no NaN lanes)
 *   PB_LOADU(p), PB_LOADU_M(p, m), PB_STOREU(p, v), PB_STOREU_M(p, m, v)
 *   PB_LOAD9(p, o)  o[j] (j < 9) gets p[9k + j] in lane k: PB_W records
 *                 of 9 reals (triangles) transposed, from plain loads
 *   PB_LOAD9_N(p, r, o)  the same for the first r < PB_W records, lanes
 *                 r and up 0 (nothing past record r is read)
 *   PB_LOAD3(p, o), PB_LOAD3_N(p, r, o)  the same for records of 3 reals
 *                 (points): o[c] (c < 3) gets p[3k + c] in lane k
 *
 * Exactness. Each kernel evaluates the operations of the scalar kernel
 * (prox_point_triangle's well-conditioned path, prox_point_aabb) in the
 * same order, with explicit add, sub, mul and div intrinsics and never a
 * fused multiply-add: the vector files are built with -mfma, but also with
 * -ffp-contract=off, so the compiler does not fuse a mul and an add either.
 * Each lane's result is then the scalar kernel's bit for bit, provided the
 * scalar kernel is also compiled without contraction (the library, its
 * tests and benchmarks are; an inline copy in user code built with
 * -ffp-contract=fast may differ in the last bits). Lanes that the scalar
 * kernel would send elsewhere (a sliver or degenerate triangle, a result
 * that is not finite) are recomputed by the scalar kernel itself.
 * tests/test_batch.c checks all of this bitwise, for every path. */

#define PB_V3 PROX_FN(pb_v3)

/* The helpers below take and return structs of vectors; unless they are
 * inlined those go through memory, which costs more than the arithmetic.
 * This file is only compiled by gcc and clang (x86 vector extensions). */
#ifndef PB_INLINE
#define PB_INLINE static inline __attribute__((always_inline))
#endif

/* Copies of PROX_WIDE_SIN2 (prox/detail/real_double.h, real_float.h) and
 * PROX_REAL_MIN as prox/detail/closest_point.inl uses them: the scalar
 * triangle kernel leaves its plain path when n2 > PROX_WIDE_SIN2 * d11 *
 * d22 + PROX_REAL_MIN fails. The two must be equal, value and
 * type: were one here smaller, triangles between the two would take the
 * plain formulas here and the thin path there, and the results would
 * differ. tests/test_batch.c (test threshold) sweeps triangles across the
 * sin^2 value and fails on such a drift. */
#if PROX_IS_DOUBLE
#define PB_WIDE_SIN2 1e-6
#define PB_TRI_FLOOR DBL_MIN
#else
#define PB_WIDE_SIN2 1e-3f
#define PB_TRI_FLOOR FLT_MIN
#endif

/* PB_W points: lane k holds point k. */
typedef struct PROX_FN(pb_v3) {
  PB_V x, y, z;
} PROX_FN(pb_v3);

PB_INLINE PB_V3 PROX_FN(pb_splat)(PROX_FN(prox_vec3) a) {
  PB_V3 r;
  r.x = PB_SET1(a.x);
  r.y = PB_SET1(a.y);
  r.z = PB_SET1(a.z);
  return r;
}

PB_INLINE PB_V3 PROX_FN(pb_sub)(PB_V3 a, PB_V3 b) {
  PB_V3 r;
  r.x = PB_SUB(a.x, b.x);
  r.y = PB_SUB(a.y, b.y);
  r.z = PB_SUB(a.z, b.z);
  return r;
}

/* a + s b, as prox_vmadd. */
PB_INLINE PB_V3 PROX_FN(pb_madd)(PB_V3 a, PB_V s, PB_V3 b) {
  PB_V3 r;
  r.x = PB_ADD(a.x, PB_MUL(s, b.x));
  r.y = PB_ADD(a.y, PB_MUL(s, b.y));
  r.z = PB_ADD(a.z, PB_MUL(s, b.z));
  return r;
}

/* (a.x b.x + a.y b.y) + a.z b.z, as prox_vdot. */
PB_INLINE PB_V PROX_FN(pb_dot)(PB_V3 a, PB_V3 b) {
  return PB_ADD(PB_ADD(PB_MUL(a.x, b.x), PB_MUL(a.y, b.y)), PB_MUL(a.z, b.z));
}

PB_INLINE PB_V3 PROX_FN(pb_select3)(PB_M m, PB_V3 t, PB_V3 f) {
  PB_V3 r;
  r.x = PB_SELECT(m, t.x, f.x);
  r.y = PB_SELECT(m, t.y, f.y);
  r.z = PB_SELECT(m, t.z, f.z);
  return r;
}

/* The PB_W triangles at t, lane k triangle k (only the first r of them,
 * the other lanes 0, unless full): vertex 0 in a, 1 in b, 2 in c. Plain
 * loads transposed in registers (PB_LOAD9), which cost less than gathers;
 * without a software prefetch, which the gathers needed but loads do not
 * (the hardware prefetcher keeps up; one measured no faster). */
PB_INLINE void PROX_FN(pb_load_tris)(const PROX_FN(prox_triangle) * t, int full, size_t r, PB_V3 *a,
                                     PB_V3 *b, PB_V3 *c) {
  const PROX_REAL *p = (const PROX_REAL *)(const void *)t;
  PB_V o[9];
  if (full)
    PB_LOAD9(p, o);
  else
    PB_LOAD9_N(p, r, o);
  a->x = o[0];
  a->y = o[1];
  a->z = o[2];
  b->x = o[3];
  b->y = o[4];
  b->z = o[5];
  c->x = o[6];
  c->y = o[7];
  c->z = o[8];
}

/* The PB_W points at pts, lane k point k (only the first r of them, the
 * other lanes 0, unless full), as pb_load_tris. Without a software
 * prefetch, as that loop: the hardware prefetcher suffices. */
PB_INLINE PB_V3 PROX_FN(pb_load_pts)(const PROX_FN(prox_vec3) * pts, int full, size_t r) {
  const PROX_REAL *p = (const PROX_REAL *)(const void *)pts;
  PB_V o[3];
  PB_V3 v;
  if (full)
    PB_LOAD3(p, o);
  else
    PB_LOAD3_N(p, r, o);
  v.x = o[0];
  v.y = o[1];
  v.z = o[2];
  return v;
}

/* Lane k gets (x[k], y[k], z[k]); only the first lanes (m) when !full. */
PB_INLINE PB_V3 PROX_FN(pb_load3)(const PROX_REAL *x, const PROX_REAL *y, const PROX_REAL *z,
                                  int full, PB_M m) {
  PB_V3 r;
  if (full) {
    r.x = PB_LOADU(x);
    r.y = PB_LOADU(y);
    r.z = PB_LOADU(z);
  } else {
    r.x = PB_LOADU_M(x, m);
    r.y = PB_LOADU_M(y, m);
    r.z = PB_LOADU_M(z, m);
  }
  return r;
}

/* What prox_points_triangle needs to fill full results: the closest point,
 * the region of each lane and the parameters of the edge or face. */
typedef struct PROX_FN(pb_tri_detail) {
  PB_V3 q;     /* closest point */
  PB_V t;      /* parameter along the edge (edge regions) */
  PB_V fs, ft; /* barycentric numerators over n2 (face region) */
  /* Regions in the scalar kernel's order: vertex 0, vertex 1, edge 0,
   * vertex 2, edge 2, edge 1; a lane in none of them is on the face. */
  PB_M reg[6];
} PROX_FN(pb_tri_detail);

/* One coordinate of the closest point on a triangle's edges and vertices:
 * o + t dir on edge 0 (a + t e1), edge 2 (a + t e2) and edge 1 (b + t f),
 * the vertex itself in the vertex regions. One coordinate at a time, so
 * that fewer values are live at once (AVX2 has 16 registers). */
PB_INLINE PB_V PROX_FN(pb_tri_q1)(PB_V a, PB_V b, PB_V c, PB_V e1, PB_V e2, PB_V f, PB_V t, PB_M r0,
                                  PB_M r1, PB_M r2, PB_M r3, PB_M r4, PB_M r5) {
  PB_V o = PB_SELECT(r5, b, a);
  PB_V dir = PB_SELECT(r2, e1, PB_SELECT(r4, e2, f));
  PB_V q = PB_ADD(o, PB_MUL(t, dir));
  return PB_SELECT(r0, a, PB_SELECT(r1, b, PB_SELECT(r3, c, q)));
}

/* The part of the well-conditioned path of prox_point_triangle (below)
 * that depends on the triangles alone: computed once for a block of
 * triangles and used for any number of points (pb_tri_eval). alt: whether
 * the face's other vertex choice (see pb_tri_eval) has been made; until
 * then n is e1 x e2, and sel0, selc and cap are not set. */
typedef struct PROX_FN(pb_tri_pre) {
  PB_V3 a, b, c, e1, e2, f, n;
  PB_V d11, d22, d12, scale, n2, nn, ff;
  PB_M good, use0, sel0, selc, cap;
  int alt;
} PROX_FN(pb_tri_pre);

PB_INLINE void PROX_FN(pb_tri_prep)(PB_V3 a, PB_V3 b, PB_V3 c, PROX_FN(pb_tri_pre) * T) {
  T->a = a;
  T->b = b;
  T->c = c;
  T->e1 = PROX_FN(pb_sub)(b, a);
  T->e2 = PROX_FN(pb_sub)(c, a);
  T->d11 = PROX_FN(pb_dot)(T->e1, T->e1);
  T->d22 = PROX_FN(pb_dot)(T->e2, T->e2);
  T->d12 = PROX_FN(pb_dot)(T->e1, T->e2);
  T->scale = PB_MUL(T->d11, T->d22);
  T->n2 = PB_SUB(T->scale, PB_MUL(T->d12, T->d12));
  T->good = PB_GT(T->n2, PB_ADD(PB_MUL(PB_SET1(PB_WIDE_SIN2), T->scale), PB_SET1(PB_TRI_FLOOR)));
  T->f = PROX_FN(pb_sub)(c, b);
  T->ff = PROX_FN(pb_dot)(T->f, T->f);
  /* Face: n = E1 x E2, with the scalar kernel's choice of vertex: v[0]
   * (e1 x e2, W = p - a) where n2 >= scale / 8, else the vertex opposite
   * the longest edge (pb_tri_alt). */
  T->use0 = PB_GE(T->n2, PB_MUL(PB_SET1(PROX_R(0.125)), T->scale));
  T->n.x = PB_SUB(PB_MUL(T->e1.y, T->e2.z), PB_MUL(T->e1.z, T->e2.y));
  T->n.y = PB_SUB(PB_MUL(T->e1.z, T->e2.x), PB_MUL(T->e1.x, T->e2.z));
  T->n.z = PB_SUB(PB_MUL(T->e1.x, T->e2.y), PB_MUL(T->e1.y, T->e2.x));
  T->nn = PROX_FN(pb_dot)(T->n, T->n);
  T->alt = 0;
}

/* The other vertex choice, made where a lane on the face needs it: in the
 * lanes without use0, the vertex opposite the longest edge (v[2]: e2 x f,
 * W = p - c; v[1]: e1 x f, p - b); caps (n2 below an eighth of that
 * vertex's edge product, v[0] the best included) go to the scalar
 * kernel's wide path. In the lanes with use0, E1 x E2 is e1 x e2: n keeps
 * its bits there. */
PB_INLINE void PROX_FN(pb_tri_alt)(PROX_FN(pb_tri_pre) * T) {
  PB_M best0 = PB_AND(PB_GE(T->ff, T->d11), PB_GE(T->ff, T->d22));
  PB_V adj;
  PB_V3 E1, E2;
  T->selc = PB_ANDNOT(PB_ANDNOT(PB_GE(T->d11, T->d22), best0), T->use0);
  T->sel0 = PB_OR(T->use0, best0);
  adj = PB_SELECT(T->sel0, T->scale,
                  PB_SELECT(T->selc, PB_MUL(T->d22, T->ff), PB_MUL(T->d11, T->ff)));
  E1 = PROX_FN(pb_select3)(T->selc, T->e2, T->e1);
  E2 = PROX_FN(pb_select3)(T->sel0, T->e2, T->f);
  T->cap = PB_ANDNOT(PB_NOT(PB_GE(T->n2, PB_MUL(PB_SET1(PROX_R(0.125)), adj))), T->use0);
  T->n.x = PB_SUB(PB_MUL(E1.y, E2.z), PB_MUL(E1.z, E2.y));
  T->n.y = PB_SUB(PB_MUL(E1.z, E2.x), PB_MUL(E1.x, E2.z));
  T->n.z = PB_SUB(PB_MUL(E1.x, E2.y), PB_MUL(E1.y, E2.x));
  T->nn = PROX_FN(pb_dot)(T->n, T->n);
  T->alt = 1;
}

/* The well-conditioned path of prox_point_triangle for point p against
 * the triangles of T (pb_tri_prep), lane by lane, with the scalar
 * kernel's operations in its order: returns the squared distance and in
 * *bad the lanes the scalar kernel must redo (a triangle it would send to
 * its thin path, or a result that is not finite). det, if not NULL, gets
 * the rest of the result. T's other vertex choice is made here when a lane
 * on the face needs it (and kept for the next points: n, nw and the
 * division differ from e1 x e2's only in lanes that are not on the face,
 * whose results do not use them).
 *
 * All regions are evaluated in every lane and the answer is selected. The
 * parameter of the chosen edge (w1 / d11, w2 / d22 or the edge-1 ratio)
 * and the face's k = nw / (n.n) come from one division of the selected
 * numerator by the selected denominator: a division per lane rounds the
 * same whichever lane computes it, so this equals the scalar division. */
PB_INLINE PB_V PROX_FN(pb_tri_eval)(PB_V3 p, PROX_FN(pb_tri_pre) * T, PB_M *bad,
                                    PROX_FN(pb_tri_detail) * det) {
  PB_V3 w = PROX_FN(pb_sub)(p, T->a);
  PB_V w1 = PROX_FN(pb_dot)(w, T->e1);
  PB_V w2 = PROX_FN(pb_dot)(w, T->e2);
  PB_V zero = PB_SET1(0);
  PB_V u3 = PB_SUB(w1, T->d11), u4 = PB_SUB(w2, T->d12);
  PB_V u5 = PB_SUB(w1, T->d12), u6 = PB_SUB(w2, T->d22);
  PB_V nb = PB_SUB(PB_MUL(T->d22, w1), PB_MUL(T->d12, w2));
  PB_V nc = PB_SUB(PB_MUL(T->d11, w2), PB_MUL(T->d12, w1));
  PB_V na = PB_SUB(PB_SUB(T->n2, nb), nc);
  /* The scalar kernel's plain path also needs finite numerators. */
  PB_M fin = PB_EQ(PB_SUB(na, na), zero);
  PB_V u43 = PB_SUB(u4, u3), u56 = PB_SUB(u5, u6);
  PB_M r0, r1, r2, r3, r4, r5, taken, face, cap;
  PB_V3 q, qf, dq, W;
  PB_V nw, num, den, t, d2;
  /* The regions, each minus those before it (the scalar else-if chain). */
  r0 = PB_AND(PB_LE(w1, zero), PB_LE(w2, zero));
  taken = r0;
  r1 = PB_ANDNOT(PB_AND(PB_GE(u3, zero), PB_LE(u4, u3)), taken);
  taken = PB_OR(taken, r1);
  r2 = PB_ANDNOT(PB_AND(PB_AND(PB_LE(nc, zero), PB_GE(w1, zero)), PB_LE(u3, zero)), taken);
  taken = PB_OR(taken, r2);
  r3 = PB_ANDNOT(PB_AND(PB_GE(u6, zero), PB_LE(u5, u6)), taken);
  taken = PB_OR(taken, r3);
  r4 = PB_ANDNOT(PB_AND(PB_AND(PB_LE(nb, zero), PB_GE(w2, zero)), PB_LE(u6, zero)), taken);
  taken = PB_OR(taken, r4);
  r5 = PB_ANDNOT(PB_AND(PB_AND(PB_LE(na, zero), PB_GE(u43, zero)), PB_GE(u56, zero)), taken);
  face = PB_NOT(PB_OR(taken, r5));
  if (!T->alt && PB_BITS(PB_ANDNOT(face, T->use0))) PROX_FN(pb_tri_alt)(T);
  if (T->alt) {
    W = PROX_FN(pb_select3)(
        T->sel0, w,
        PROX_FN(pb_select3)(T->selc, PROX_FN(pb_sub)(p, T->c), PROX_FN(pb_sub)(p, T->b)));
    cap = T->cap;
  } else {
    W = w;
    cap = PB_NOT(PB_ALL);
  }
  nw = PROX_FN(pb_dot)(T->n, W);
  /* One division: t of edge 0, edge 2, edge 1, or the face's k. Edge 1
   * measures from v1 along f = v2 - v1, clamped to [0, 1]. */
  num = PB_SELECT(
      r2, w1,
      PB_SELECT(r4, w2, PB_SELECT(r5, PROX_FN(pb_dot)(PROX_FN(pb_sub)(p, T->b), T->f), nw)));
  den = PB_SELECT(r2, T->d11, PB_SELECT(r4, T->d22, PB_SELECT(r5, T->ff, T->nn)));
  t = PB_DIV(num, den);
  {
    /* The scalar clamp (t > 1 ? 1 : t, then t < 0 ? 0 : t) as min and max
     * with t second: they return t when it is NaN, and keep -0. */
    PB_V tc = PB_MAX(zero, PB_MIN(PB_SET1(1), t));
    t = PB_SELECT(r5, tc, t);
  }
  /* Edges: o + t dir (a + t e1, a + t e2, b + t (c - b)); vertices: the
   * vertex itself; face: p + (-k) n, which is p - k n exactly. */
  q.x = PROX_FN(pb_tri_q1)(T->a.x, T->b.x, T->c.x, T->e1.x, T->e2.x, T->f.x, t, r0, r1, r2, r3, r4,
                           r5);
  q.y = PROX_FN(pb_tri_q1)(T->a.y, T->b.y, T->c.y, T->e1.y, T->e2.y, T->f.y, t, r0, r1, r2, r3, r4,
                           r5);
  q.z = PROX_FN(pb_tri_q1)(T->a.z, T->b.z, T->c.z, T->e1.z, T->e2.z, T->f.z, t, r0, r1, r2, r3, r4,
                           r5);
  /* Squared distance: k nw on the face, |p - q|^2 elsewhere (so the face
   * point is needed only for the full result). */
  dq = PROX_FN(pb_sub)(p, q);
  d2 = PB_SELECT(face, PB_MUL(t, nw), PROX_FN(pb_dot)(dq, dq));
  *bad = PB_OR(PB_NOT(PB_AND(PB_AND(T->good, fin), PB_LE(d2, PB_SET1(PROX_REAL_MAX)))),
               PB_AND(face, cap));
  if (det) {
    qf.x = PB_SUB(p.x, PB_MUL(t, T->n.x));
    qf.y = PB_SUB(p.y, PB_MUL(t, T->n.y));
    qf.z = PB_SUB(p.z, PB_MUL(t, T->n.z));
    det->q = PROX_FN(pb_select3)(face, qf, q);
    det->t = t;
    det->fs = det->ft = zero;
    if (PB_BITS(face)) {
      det->fs = PB_DIV(nb, T->n2);
      det->ft = PB_DIV(nc, T->n2);
    }
    det->reg[0] = r0;
    det->reg[1] = r1;
    det->reg[2] = r2;
    det->reg[3] = r3;
    det->reg[4] = r4;
    det->reg[5] = r5;
  }
  return d2;
}

/* One point against a block of triangles: pb_tri_prep, then pb_tri_eval. */
PB_INLINE PB_V PROX_FN(pb_triangle)(PB_V3 p, PB_V3 a, PB_V3 b, PB_V3 c, PB_M *bad,
                                    PROX_FN(pb_tri_detail) * det) {
  PROX_FN(pb_tri_pre) T;
  PROX_FN(pb_tri_prep)(a, b, c, &T);
  return PROX_FN(pb_tri_eval)(p, &T, bad, det);
}

/* Fills *r as prox_point_triangle does on its well-conditioned path, for a
 * lane in region `reg` (0..5 as in pb_tri_detail, 6 the face). */
static void PROX_FN(pb_tri_fill)(PROX_FN(prox_closest) * r, int reg, PROX_FN(prox_vec3) q,
                                 PROX_REAL d2, PROX_REAL t, PROX_REAL s, PROX_REAL ft) {
  /* Feature kind and index of each region. */
  static const int kind[7] = {PROX_FEATURE_VERTEX, PROX_FEATURE_VERTEX, PROX_FEATURE_EDGE,
                              PROX_FEATURE_VERTEX, PROX_FEATURE_EDGE,   PROX_FEATURE_EDGE,
                              PROX_FEATURE_FACE};
  static const int index[7] = {0, 1, 0, 2, 2, 1, 0};
  PROX_REAL u0 = 0, u1 = 0, u2 = 0;
  switch (reg) {
  case 0:
    u0 = 1;
    break;
  case 1:
    u1 = 1;
    break;
  case 2:
    u0 = 1 - t;
    u1 = t;
    break;
  case 3:
    u2 = 1;
    break;
  case 4:
    u0 = 1 - t;
    u2 = t;
    break;
  case 5:
    u1 = 1 - t;
    u2 = t;
    break;
  default:
    u0 = 1 - s - ft;
    u1 = s;
    u2 = ft;
    break;
  }
  r->point = q;
  r->sqdist = d2;
  r->param[0] = u0;
  r->param[1] = u1;
  r->param[2] = u2;
  r->param[3] = 0;
  r->feature.kind = kind[reg];
  r->feature.index = index[reg];
}

/* Triangles i.. of a leaf (tris, or soa when tris is NULL) into a, b, c:
 * all PB_W lanes when left >= PB_W, else the first `left` (mask valid),
 * the others 0. */
PB_INLINE void PROX_FN(pb_leaf_load)(const PROX_FN(prox_triangle) * tris,
                                     const PROX_FN(prox_triangle_soa) * soa, size_t i, size_t left,
                                     PB_M valid, PB_V3 *a, PB_V3 *b, PB_V3 *c) {
  int full = left >= PB_W;
  if (tris) {
    PROX_FN(pb_load_tris)(tris + i, full, full ? PB_W : left, a, b, c);
    return;
  }
  *a = PROX_FN(pb_load3)(soa->x[0] + i, soa->y[0] + i, soa->z[0] + i, full, valid);
  *b = PROX_FN(pb_load3)(soa->x[1] + i, soa->y[1] + i, soa->z[1] + i, full, valid);
  *c = PROX_FN(pb_load3)(soa->x[2] + i, soa->y[2] + i, soa->z[2] + i, full, valid);
}

/* The bookkeeping of one block of the leaf loop at triangle i, for the
 * squared distances d2 of its lanes (bad: the lanes the scalar kernel must
 * redo; lanes `valid`, all of them when `full`): updates *best and *bi as
 * the scalar loop's strict comparisons, lane by lane, would; returns 1
 * when a NaN ends the search (*bi is then its triangle), 0 otherwise. */
PB_INLINE int PROX_FN(pb_leaf_take)(PROX_FN(prox_vec3) p, PB_V d2, PB_M bad, PB_M valid, int full,
                                    const PROX_FN(prox_triangle) * tris,
                                    const PROX_FN(prox_triangle_soa) * soa, size_t i,
                                    PROX_REAL *best, size_t *bi) {
  unsigned bits = PB_BITS(full ? bad : PB_AND(bad, valid));
  if (!full) d2 = PB_SELECT(valid, d2, PB_SET1(PROX_INF));
  if (bits) {
    /* The rare lanes of the scalar kernel's other paths. A valid lane
     * whose vector result is NaN is among them, so only here can a NaN
     * appear. */
    PROX_REAL tmp[PB_W];
    int k;
    PB_STOREU(tmp, d2);
    for (k = 0; k < PB_W; ++k) {
      PROX_FN(prox_triangle) t;
      if (!((bits >> k) & 1u)) continue;
      if (tris) {
        t = tris[i + (size_t)k];
      } else {
        PROX_BATCH_SOA_GET(t, soa, i + (size_t)k);
      }
      tmp[k] = PROX_FN(prox_point_triangle)(p, &t, NULL);
    }
    d2 = PB_LOADU(tmp);
    if (PB_BITS(PB_ISNAN(d2))) {
      /* The first NaN ends the search, as in the scalar loop. */
      *bi = i + (size_t)__builtin_ctz(PB_BITS(PB_ISNAN(d2)));
      return 1;
    }
  }
  if (PB_BITS(PB_LT(d2, PB_SET1(*best)))) {
    /* The block's minimum improves on the best: it and its lowest lane
     * are what the scalar loop's strict comparisons would keep. */
    *best = PB_HMIN(d2);
    *bi = i + (size_t)__builtin_ctz(PB_BITS(PB_EQ(d2, PB_SET1(*best))));
  }
  return 0;
}

/* One block of the leaf loop at triangle i: lanes `valid` (all of them
 * when `full`) hold triangles a, b, c (pb_leaf_take). */
PB_INLINE int PROX_FN(pb_leaf_block)(PROX_FN(prox_vec3) p, PB_V3 pv, PB_V3 a, PB_V3 b, PB_V3 c,
                                     PB_M valid, int full, const PROX_FN(prox_triangle) * tris,
                                     const PROX_FN(prox_triangle_soa) * soa, size_t i,
                                     PROX_REAL *best, size_t *bi) {
  PB_M bad;
  PB_V d2 = PROX_FN(pb_triangle)(pv, a, b, c, &bad, NULL);
  return PROX_FN(pb_leaf_take)(p, d2, bad, valid, full, tris, soa, i, best, bi);
}

/* prox_point_triangles / _soa: tris (array of structs) or soa. The full
 * blocks and the partial last one are separate loops, so that the full
 * blocks load straight into registers. */
PB_INLINE PROX_REAL PROX_FN(pb_point_triangles_any)(PROX_FN(prox_vec3) p,
                                                    const PROX_FN(prox_triangle) * tris,
                                                    const PROX_FN(prox_triangle_soa) * soa,
                                                    size_t n, size_t *best_index) {
  PB_V3 pv = PROX_FN(pb_splat)(p);
  PROX_REAL best = PROX_INF;
  size_t i, bi = 0;
  PB_V3 a, b, c;
  PB_M all = (PB_M)PB_ALL;
  for (i = 0; n - i >= PB_W; i += PB_W) {
    PROX_FN(pb_leaf_load)(tris, soa, i, PB_W, all, &a, &b, &c);
    if (PROX_FN(pb_leaf_block)(p, pv, a, b, c, all, 1, tris, soa, i, &best, &bi)) {
      *best_index = bi;
      return PROX_NAN;
    }
  }
  if (i < n) {
    PB_M valid = (PB_M)PB_FIRST(n - i);
    PROX_FN(pb_leaf_load)(tris, soa, i, n - i, valid, &a, &b, &c);
    if (PROX_FN(pb_leaf_block)(p, pv, a, b, c, valid, 0, tris, soa, i, &best, &bi)) {
      *best_index = bi;
      return PROX_NAN;
    }
  }
  *best_index = bi;
  return best;
}

static PROX_REAL PROX_FN(pb_point_triangles)(PROX_FN(prox_vec3) p,
                                             const PROX_FN(prox_triangle) * tris, size_t n,
                                             size_t *best_index) {
  return PROX_FN(pb_point_triangles_any)(p, tris, NULL, n, best_index);
}

static PROX_REAL PROX_FN(pb_point_triangles_soa)(PROX_FN(prox_vec3) p,
                                                 const PROX_FN(prox_triangle_soa) * soa, size_t n,
                                                 size_t *best_index) {
  return PROX_FN(pb_point_triangles_any)(p, NULL, soa, n, best_index);
}

/* pb_point_triangles_soa for the np points p[0 .. np - 1] (1 to 8) at
 * once: each block's triangle part of the kernel (pb_tri_prep) is made
 * once for all of them. Each point's result is its own call's, bits and
 * index included (the first NaN ends that point's search). */
static void PROX_FN(pb_point_triangles_soa_multi)(const PROX_FN(prox_vec3) * p, int np,
                                                  const PROX_FN(prox_triangle_soa) * soa, size_t n,
                                                  PROX_REAL *best, size_t *best_index) {
  unsigned live = (1u << np) - 1u, l;
  size_t i;
  int k;
  for (k = 0; k < np; ++k) {
    best[k] = PROX_INF;
    best_index[k] = 0;
  }
  for (i = 0; i < n && live; i += PB_W) {
    size_t left = n - i;
    int full = left >= PB_W;
    PB_M valid = full ? (PB_M)PB_ALL : (PB_M)PB_FIRST(left);
    PB_V3 a, b, c;
    PROX_FN(pb_tri_pre) T;
    PROX_FN(pb_leaf_load)(NULL, soa, i, left, valid, &a, &b, &c);
    PROX_FN(pb_tri_prep)(a, b, c, &T);
    for (l = live; l; l &= l - 1u) {
      PB_M bad;
      PB_V d2;
      k = __builtin_ctz(l);
      d2 = PROX_FN(pb_tri_eval)(PROX_FN(pb_splat)(p[k]), &T, &bad, NULL);
      if (PROX_FN(pb_leaf_take)(p[k], d2, bad, valid, full, NULL, soa, i, &best[k],
                                &best_index[k])) {
        best[k] = PROX_NAN;
        live &= ~(1u << k);
      }
    }
  }
}

/* pb_points_triangle (each 0: every point against tri[0]) and
 * pb_points_triangles_each (each 1: point i against tri[i]). */
PB_INLINE void PROX_FN(pb_points_tris)(const PROX_FN(prox_vec3) * pts, size_t n,
                                       const PROX_FN(prox_triangle) * tri, int each,
                                       PROX_REAL *sqdist_out, PROX_FN(prox_closest) * out) {
  PB_V3 a = PROX_FN(pb_splat)(tri->v[0]);
  PB_V3 b = PROX_FN(pb_splat)(tri->v[1]);
  PB_V3 c = PROX_FN(pb_splat)(tri->v[2]);
  size_t i;
  for (i = 0; i < n; i += PB_W) {
    size_t left = n - i;
    int full = left >= PB_W, k, kn = full ? PB_W : (int)left;
    PB_M valid = (PB_M)(full ? PB_ALL : PB_FIRST(left));
    PB_V3 p;
    p = PROX_FN(pb_load_pts)(pts + i, full, left);
    if (each) PROX_FN(pb_load_tris)(tri + i, full, full ? PB_W : left, &a, &b, &c);
    PB_V d2;
    PB_M bad;
    unsigned bits;
    if (out) {
      PROX_FN(pb_tri_detail) det;
      PROX_REAL qx[PB_W], qy[PB_W], qz[PB_W], t[PB_W], fs[PB_W], ft[PB_W];
      PROX_REAL dd[PB_W];
      unsigned rb[6];
      int j;
      d2 = PROX_FN(pb_triangle)(p, a, b, c, &bad, &det);
      bits = PB_BITS(PB_AND(bad, valid));
      for (j = 0; j < 6; ++j)
        rb[j] = PB_BITS(det.reg[j]);
      PB_STOREU(qx, det.q.x);
      PB_STOREU(qy, det.q.y);
      PB_STOREU(qz, det.q.z);
      PB_STOREU(t, det.t);
      PB_STOREU(fs, det.fs);
      PB_STOREU(ft, det.ft);
      PB_STOREU(dd, d2);
      for (k = 0; k < kn; ++k) {
        int reg = 0;
        if ((bits >> k) & 1u) continue; /* the scalar kernel fills it below */
        while (reg < 6 && !((rb[reg] >> k) & 1u))
          ++reg;
        PROX_FN(pb_tri_fill)
        (out + i + (size_t)k, reg, PROX_FN(prox_v3)(qx[k], qy[k], qz[k]), dd[k], t[k], fs[k],
         ft[k]);
      }
    } else {
      d2 = PROX_FN(pb_triangle)(p, a, b, c, &bad, NULL);
      bits = PB_BITS(PB_AND(bad, valid));
    }
    if (sqdist_out) {
      if (full)
        PB_STOREU(sqdist_out + i, d2);
      else
        PB_STOREU_M(sqdist_out + i, valid, d2);
    }
    for (k = 0; bits && k < kn; ++k) {
      size_t j = i + (size_t)k;
      PROX_REAL d;
      if (!((bits >> k) & 1u)) continue;
      d = PROX_FN(prox_point_triangle)(pts[j], tri + (each ? j : 0), out ? out + j : NULL);
      if (sqdist_out) sqdist_out[j] = d;
    }
  }
}

static void PROX_FN(pb_points_triangle)(const PROX_FN(prox_vec3) * pts, size_t n,
                                        const PROX_FN(prox_triangle) * tri, PROX_REAL *sqdist_out,
                                        PROX_FN(prox_closest) * out) {
  PROX_FN(pb_points_tris)(pts, n, tri, 0, sqdist_out, out);
}

static void PROX_FN(pb_points_triangles_each)(const PROX_FN(prox_vec3) * pts, size_t n,
                                              const PROX_FN(prox_triangle) * tris,
                                              PROX_REAL *sqdist_out, PROX_FN(prox_closest) * out) {
  PROX_FN(pb_points_tris)(pts, n, tris, 1, sqdist_out, out);
}

static void PROX_FN(pb_points_aabb)(const PROX_FN(prox_vec3) * pts, size_t n,
                                    const PROX_FN(prox_aabb) * box, PROX_REAL *sqdist_out,
                                    PROX_FN(prox_closest) * out) {
  /* As prox_point_aabb: the clamp to [min, max] per axis (min wins if
   * min > max), the sides against [min, max(min, max)], and the corners'
   * product started from 0 (+-0 unless a corner is NaN or infinite, then
   * NaN) added to the squared distance, so that a corner the clamp drops
   * still makes it NaN; the select turns an infinite d2 into NaN. */
  PROX_FN(prox_vec3) bhi = PROX_FN(prox_vmax)(box->min, box->max);
  PROX_REAL poison =
      box->min.x * 0 * box->min.y * box->min.z * box->max.x * box->max.y * box->max.z;
  PB_V3 lo = PROX_FN(pb_splat)(box->min), mx = PROX_FN(pb_splat)(box->max);
  PB_V3 hi = PROX_FN(pb_splat)(bhi);
  PB_V pv = PB_SET1(poison);
  PB_V big = PB_SET1(PROX_REAL_MAX), nan = PB_SET1(PROX_NAN);
  size_t i;
  for (i = 0; i < n; i += PB_W) {
    size_t left = n - i;
    int full = left >= PB_W, k, kn = full ? PB_W : (int)left;
    PB_M valid = (PB_M)(full ? PB_ALL : PB_FIRST(left));
    PB_V3 p;
    p = PROX_FN(pb_load_pts)(pts + i, full, left);
    PB_V3 q, d;
    PB_V d2;
    /* prox_clamp: x > hi ? hi : x, then t < lo ? lo : t. */
    q.x = PB_SELECT(PB_GT(p.x, mx.x), mx.x, p.x);
    q.y = PB_SELECT(PB_GT(p.y, mx.y), mx.y, p.y);
    q.z = PB_SELECT(PB_GT(p.z, mx.z), mx.z, p.z);
    q.x = PB_SELECT(PB_LT(q.x, lo.x), lo.x, q.x);
    q.y = PB_SELECT(PB_LT(q.y, lo.y), lo.y, q.y);
    q.z = PB_SELECT(PB_LT(q.z, lo.z), lo.z, q.z);
    d = PROX_FN(pb_sub)(p, q);
    d2 = PB_ADD(PROX_FN(pb_dot)(d, d), pv);
    d2 = PB_SELECT(PB_LE(d2, big), d2, nan);
    if (sqdist_out) {
      if (full)
        PB_STOREU(sqdist_out + i, d2);
      else
        PB_STOREU_M(sqdist_out + i, valid, d2);
    }
    if (out) {
      /* The feature from the sides of p itself, as the scalar kernel. */
      PROX_REAL qx[PB_W], qy[PB_W], qz[PB_W], dd[PB_W];
      unsigned bg[3], bl[3];
      bg[0] = PB_BITS(PB_GT(p.x, hi.x));
      bg[1] = PB_BITS(PB_GT(p.y, hi.y));
      bg[2] = PB_BITS(PB_GT(p.z, hi.z));
      bl[0] = PB_BITS(PB_LT(p.x, lo.x));
      bl[1] = PB_BITS(PB_LT(p.y, lo.y));
      bl[2] = PB_BITS(PB_LT(p.z, lo.z));
      PB_STOREU(qx, q.x);
      PB_STOREU(qy, q.y);
      PB_STOREU(qz, q.z);
      PB_STOREU(dd, d2);
      for (k = 0; k < kn; ++k) {
        PROX_FN(prox_closest) *r = out + i + (size_t)k;
        prox_feature f;
        int cs[3], ax;
        if (!(dd[k] <= PROX_REAL_MAX)) {
          PROX_FN(prox_detail_nan)(r);
          continue;
        }
        for (ax = 0; ax < 3; ++ax)
          cs[ax] = (int)((bg[ax] >> k) & 1u) - (int)((bl[ax] >> k) & 1u);
        f = PROX_FN(prox_detail_box_feature)(cs[0], cs[1], cs[2]);
        r->point = f.kind == PROX_FEATURE_INTERIOR ? pts[i + (size_t)k]
                                                   : PROX_FN(prox_v3)(qx[k], qy[k], qz[k]);
        r->sqdist = dd[k];
        r->param[0] = r->param[1] = r->param[2] = r->param[3] = 0;
        r->feature = f;
      }
    }
  }
}

#undef PB_V3
#undef PB_WIDE_SIN2
#undef PB_TRI_FLOOR
