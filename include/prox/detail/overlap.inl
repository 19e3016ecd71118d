/* SPDX-License-Identifier: MIT */
/* Template: overlap tests for bounding volumes and broad phases.
 * Instantiated once per precision by overlap.h, which declares the
 * documented tests with their contracts; this file holds their
 * definitions.
 *
 * All tests are of closed sets: touching counts as overlapping. The box
 * and sphere tests are conservative: a separation is only reported when it
 * exceeds a bound on the rounding of the computation, so sets that touch
 * or overlap are never reported apart, and sets apart by less than that
 * bound (a few eps times the coordinates' magnitude) may be reported as
 * overlapping. The triangle-triangle test is exact: its decisions are
 * signs of orientation determinants, evaluated with a floating-point
 * filter and, when the filter cannot decide, exactly (the expansion
 * arithmetic of detail/exact.inl). */

/* Magnitude (sum over the axes of the coordinates' magnitudes) beyond
 * which, or below whose inverse, prox_overlap_triangle_aabb first scales
 * its input: the products of three coordinates stay far from overflow and
 * underflow in between. */
#if PROX_IS_DOUBLE
#define PROX_OV_BIG 2.0370359763344861e+90 /* 2^300 */
#else
#define PROX_OV_BIG 1073741824.0f /* 2^30 */
#endif

/// Internal: 0 when the three vertices are finite, NaN otherwise (as
/// prox_vpoison).
PROX_DETAIL_KERNEL PROX_REAL PROX_FN(prox_detail_ov_tri_poison)(const PROX_FN(prox_triangle) * t) {
  return PROX_FN(prox_vpoison)(t->v[0]) + PROX_FN(prox_vpoison)(t->v[1]) +
         PROX_FN(prox_vpoison)(t->v[2]);
}

#if PROX_IS_DOUBLE
/* ---- exact predicates on double coordinates (both precisions) ---- */

/// Internal: p lies in the bounding box of a and b in the projection
/// dropping axis k (for a p collinear with a b: on the segment).
PROX_DETAIL_KERNEL int prox_detail_ov_in_span(const double *a, const double *b, const double *p,
                                              int k) {
  int i = k == 2 ? 0 : k + 1, j = i == 2 ? 0 : i + 1;
  return (a[i] <= p[i] || b[i] <= p[i]) && (p[i] <= a[i] || p[i] <= b[i]) &&
         (a[j] <= p[j] || b[j] <= p[j]) && (p[j] <= a[j] || p[j] <= b[j]);
}

/// Internal: the closed segments p q and a b meet in the projection
/// dropping axis k (degenerate segments included), exact.
PROX_DETAIL_KERNEL int prox_detail_ov_seg_seg_2d(const double *p, const double *q, const double *a,
                                                 const double *b, int k) {
  int d1 = prox_detail_orient2d_sign(a, b, p, k);
  int d2 = prox_detail_orient2d_sign(a, b, q, k);
  int d3 = prox_detail_orient2d_sign(p, q, a, k);
  int d4 = prox_detail_orient2d_sign(p, q, b, k);
  if (d1 * d2 < 0 && d3 * d4 < 0) return 1;
  return (d1 == 0 && prox_detail_ov_in_span(a, b, p, k)) ||
         (d2 == 0 && prox_detail_ov_in_span(a, b, q, k)) ||
         (d3 == 0 && prox_detail_ov_in_span(p, q, a, k)) ||
         (d4 == 0 && prox_detail_ov_in_span(p, q, b, k));
}

/// Internal: the closed segments p q and a b meet in space (exact). They
/// must be coplanar, and then they meet exactly when they meet in all
/// three axis projections (one of which is one-to-one on their plane, or
/// on their line when all four points are collinear).
PROX_DETAIL_KERNEL int prox_detail_ov_seg_seg_3d(const double *p, const double *q, const double *a,
                                                 const double *b) {
  return prox_detail_orient3d_sign(p, q, a, b) == 0 && prox_detail_ov_seg_seg_2d(p, q, a, b, 0) &&
         prox_detail_ov_seg_seg_2d(p, q, a, b, 1) && prox_detail_ov_seg_seg_2d(p, q, a, b, 2);
}

/// Internal: the axis k whose projection keeps the triangle t (three
/// points) non-degenerate, or -1 when the triangle has zero area (exact).
PROX_DETAIL_KERNEL int prox_detail_ov_tri_axis(const double (*t)[3]) {
  int k;
  for (k = 2; k >= 0; --k)
    if (prox_detail_orient2d_sign(t[0], t[1], t[2], k) != 0) return k;
  return -1;
}

/// Internal: the closed segment p q meets the closed triangle t (exact);
/// op, oq are the signs of orient3d(t0, t1, t2, p) and (.., q), k the
/// projection axis of t (prox_detail_ov_tri_axis, -1 if zero area).
PROX_DETAIL_KERNEL int prox_detail_ov_seg_tri(const double *p, const double *q,
                                              const double (*t)[3], int op, int oq, int k) {
  int i, s1, s2, s3;
  if (k < 0) {
    /* Zero area: the union of its edges. */
    for (i = 0; i < 3; ++i)
      if (prox_detail_ov_seg_seg_3d(p, q, t[i], t[i == 2 ? 0 : i + 1])) return 1;
    return 0;
  }
  if (op * oq > 0) return 0;
  if (op == 0 && oq == 0) {
    /* In the triangle's plane: a 2D test in a one-to-one projection. */
    int o = prox_detail_orient2d_sign(t[0], t[1], t[2], k);
    int in_p = 1, in_q = 1;
    for (i = 0; i < 3; ++i) {
      const double *a = t[i], *b = t[i == 2 ? 0 : i + 1];
      in_p &= prox_detail_orient2d_sign(a, b, p, k) * o >= 0;
      in_q &= prox_detail_orient2d_sign(a, b, q, k) * o >= 0;
    }
    if (in_p || in_q) return 1;
    for (i = 0; i < 3; ++i)
      if (prox_detail_ov_seg_seg_2d(p, q, t[i], t[i == 2 ? 0 : i + 1], k)) return 1;
    return 0;
  }
  /* The segment crosses or touches the plane at one point: it is in the
   * triangle when the line p q passes on the same side of the three edges
   * (or on them). */
  s1 = prox_detail_orient3d_sign(p, q, t[0], t[1]);
  s2 = prox_detail_orient3d_sign(p, q, t[1], t[2]);
  s3 = prox_detail_orient3d_sign(p, q, t[2], t[0]);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

/// Internal: exact closed triangle-triangle overlap on double coordinates.
PROX_DETAIL_KERNEL int prox_detail_ov_tri_tri(const double (*a)[3], const double (*b)[3]) {
  int sa[3], sb[3], i, ka, kb;
  /* Each triangle's vertices against the other's plane: all strictly on
   * one side separates them. */
  for (i = 0; i < 3; ++i)
    sb[i] = prox_detail_orient3d_sign(a[0], a[1], a[2], b[i]);
  if ((sb[0] > 0 && sb[1] > 0 && sb[2] > 0) || (sb[0] < 0 && sb[1] < 0 && sb[2] < 0)) return 0;
  for (i = 0; i < 3; ++i)
    sa[i] = prox_detail_orient3d_sign(b[0], b[1], b[2], a[i]);
  if ((sa[0] > 0 && sa[1] > 0 && sa[2] > 0) || (sa[0] < 0 && sa[1] < 0 && sa[2] < 0)) return 0;
  /* Closed convex sets that meet have a common point on an edge of one
   * of them (the intersection's boundary lies on the triangles' edges). */
  kb = prox_detail_ov_tri_axis(b);
  ka = prox_detail_ov_tri_axis(a);
  for (i = 0; i < 3; ++i) {
    int j = i == 2 ? 0 : i + 1;
    if (prox_detail_ov_seg_tri(a[i], a[j], b, sa[i], sa[j], kb)) return 1;
  }
  for (i = 0; i < 3; ++i) {
    int j = i == 2 ? 0 : i + 1;
    if (prox_detail_ov_seg_tri(b[i], b[j], a, sb[i], sb[j], ka)) return 1;
  }
  return 0;
}
#endif /* PROX_IS_DOUBLE */

/* -------------------------------- boxes ---------------------------------- */

PROX_KERNEL int PROX_FN(prox_overlap_aabb_aabb)(const PROX_FN(prox_aabb) * a,
                                                const PROX_FN(prox_aabb) * b) {
  PROX_FN(prox_vec3) alo = PROX_FN(prox_vmin)(a->min, a->max);
  PROX_FN(prox_vec3) ahi = PROX_FN(prox_vmax)(a->max, a->min);
  PROX_FN(prox_vec3) blo = PROX_FN(prox_vmin)(b->min, b->max);
  PROX_FN(prox_vec3) bhi = PROX_FN(prox_vmax)(b->max, b->min);
  return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z &&
         blo.z <= ahi.z;
}

/// Internal: the separating-axis comparison |t| > ra + rb, conservative:
/// 1 only when the separation exceeds the rounding bound 32 eps (|t| + ra +
/// rb + tabs), tabs a bound of the magnitudes summed into t.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ov_sat_apart)(PROX_REAL t, PROX_REAL ra, PROX_REAL rb,
                                                         PROX_REAL tabs) {
  PROX_REAL at = PROX_FABS(t);
  return at - (ra + rb) > PROX_R(32.0) * PROX_EPS * (at + ra + rb + tabs);
}

PROX_KERNEL int PROX_FN(prox_overlap_obb_obb)(const PROX_FN(prox_obb) * a,
                                              const PROX_FN(prox_obb) * b) {
  PROX_REAL R[3][3], AR[3][3], t[3], at[3], ha[3], hb[3];
  PROX_REAL e = PROX_R(64.0) * PROX_EPS, ra, rb, tl, tabs;
  PROX_FN(prox_vec3) d = PROX_FN(prox_vsub)(b->center, a->center);
  int i, j;
  for (i = 0; i < 3; ++i) {
    ha[i] = PROX_FABS(a->half[i]);
    hb[i] = PROX_FABS(b->half[i]);
    for (j = 0; j < 3; ++j) {
      R[i][j] = PROX_FN(prox_vdot)(a->axis[i], b->axis[j]);
      AR[i][j] = PROX_FABS(R[i][j]) + e;
    }
    /* The centre offset in a's frame. */
    t[i] = PROX_FN(prox_vdot)(d, a->axis[i]);
    at[i] = PROX_FABS(d.x * a->axis[i].x) + PROX_FABS(d.y * a->axis[i].y) +
            PROX_FABS(d.z * a->axis[i].z);
  }
  /* a's face normals. */
  for (i = 0; i < 3; ++i) {
    rb = hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2];
    if (PROX_FN(prox_detail_ov_sat_apart)(t[i], ha[i], rb, at[i])) return 0;
  }
  /* b's face normals. */
  for (j = 0; j < 3; ++j) {
    ra = ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j];
    tl = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
    tabs = at[0] * AR[0][j] + at[1] * AR[1][j] + at[2] * AR[2][j];
    if (PROX_FN(prox_detail_ov_sat_apart)(tl, ra, hb[j], tabs)) return 0;
  }
  /* Edge-edge cross products a[i] x b[j]. */
  for (i = 0; i < 3; ++i) {
    int i1 = i == 2 ? 0 : i + 1, i2 = i1 == 2 ? 0 : i1 + 1;
    for (j = 0; j < 3; ++j) {
      int j1 = j == 2 ? 0 : j + 1, j2 = j1 == 2 ? 0 : j1 + 1;
      ra = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j];
      rb = hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1];
      tl = t[i2] * R[i1][j] - t[i1] * R[i2][j];
      tabs = at[i2] * AR[i1][j] + at[i1] * AR[i2][j];
      if (PROX_FN(prox_detail_ov_sat_apart)(tl, ra, rb, tabs)) return 0;
    }
  }
  /* No axis separates. Non-finite input (whose comparisons with NaN never
   * separate) ends here too: it is told apart only now, off the path of
   * the separated boxes. */
  {
    PROX_REAL poison = PROX_FN(prox_vpoison)(a->center) + PROX_FN(prox_vpoison)(b->center);
    for (i = 0; i < 3; ++i)
      poison += PROX_FN(prox_vpoison)(a->axis[i]) + PROX_FN(prox_vpoison)(b->axis[i]) +
                (ha[i] - ha[i]) + (hb[i] - hb[i]);
    return poison == 0;
  }
}

/// Internal: separating-axis test of a triangle (vertices v relative to the
/// box center) against the box of half extents h along the axis L:
/// 1 when the axis separates them beyond the rounding bound. s bounds the
/// coordinates' magnitudes that the rounding scales with.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ov_tri_box_axis)(const PROX_FN(prox_vec3) * v,
                                                            PROX_FN(prox_vec3) h,
                                                            PROX_FN(prox_vec3) L,
                                                            PROX_FN(prox_vec3) s) {
  PROX_REAL p0 = PROX_FN(prox_vdot)(v[0], L), p1 = PROX_FN(prox_vdot)(v[1], L);
  PROX_REAL p2 = PROX_FN(prox_vdot)(v[2], L);
  PROX_FN(prox_vec3)
  aL = PROX_FN(prox_v3)(PROX_FABS(L.x), PROX_FABS(L.y), PROX_FABS(L.z));
  PROX_REAL r = PROX_FN(prox_vdot)(h, aL);
  PROX_REAL lo = p0 < p1 ? p0 : p1, hi = p0 < p1 ? p1 : p0;
  PROX_REAL slack = PROX_R(16.0) * PROX_EPS * PROX_FN(prox_vdot)(s, aL);
  lo = p2 < lo ? p2 : lo;
  hi = p2 > hi ? p2 : hi;
  return lo - r > slack || -r - hi > slack;
}

/// Internal: prox_overlap_triangle_aabb; unless scaled, -1 (nothing
/// decided) when the input's magnitudes are such that the products of three
/// of them (the projections on the triangle's normal and on the edge cross
/// axes, and their rounding bounds) could overflow or underflow.
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_ov_tri_box)(const PROX_FN(prox_triangle) * tri,
                                                       const PROX_FN(prox_aabb) * box, int scaled) {
  PROX_FN(prox_vec3) lo = PROX_FN(prox_vmin)(box->min, box->max);
  PROX_FN(prox_vec3) hi = PROX_FN(prox_vmax)(box->max, box->min);
  PROX_FN(prox_vec3)
  c = PROX_FN(prox_vscale)(PROX_FN(prox_vadd)(lo, hi), PROX_R(0.5));
  PROX_FN(prox_vec3)
  h = PROX_FN(prox_vscale)(PROX_FN(prox_vsub)(hi, lo), PROX_R(0.5));
  PROX_FN(prox_vec3) v[3], f[3], s, L;
  int i;
  for (i = 0; i < 3; ++i)
    v[i] = PROX_FN(prox_vsub)(tri->v[i], c);
  /* Magnitudes the rounding scales with: the box corners and center and
   * the translated vertices, per axis. */
  s = PROX_FN(prox_vadd)(
      PROX_FN(prox_vmax)(PROX_FN(prox_v3)(PROX_FABS(lo.x), PROX_FABS(lo.y), PROX_FABS(lo.z)),
                         PROX_FN(prox_v3)(PROX_FABS(hi.x), PROX_FABS(hi.y), PROX_FABS(hi.z))),
      h);
  for (i = 0; i < 3; ++i)
    s = PROX_FN(prox_vadd)(
        s, PROX_FN(prox_v3)(PROX_FABS(v[i].x), PROX_FABS(v[i].y), PROX_FABS(v[i].z)));
  if (!scaled) {
    PROX_REAL m = s.x + s.y + s.z;
    if (m > PROX_OV_BIG || (m < 1 / PROX_OV_BIG && m > 0)) return -1;
  }
  /* The box's face normals: the triangle's bounds against the box. */
  for (i = 0; i < 3; ++i) {
    L = PROX_FN(prox_v3)(i == 0, i == 1, i == 2);
    if (PROX_FN(prox_detail_ov_tri_box_axis)(v, h, L, s)) return 0;
  }
  for (i = 0; i < 3; ++i)
    f[i] = PROX_FN(prox_vsub)(v[i == 2 ? 0 : i + 1], v[i]);
  /* The triangle's normal. */
  L = PROX_FN(prox_vcross)(f[0], f[1]);
  if (PROX_FN(prox_detail_ov_tri_box_axis)(v, h, L, s)) return 0;
  /* Edge cross axes e_k x f_i. */
  for (i = 0; i < 3; ++i) {
    L = PROX_FN(prox_v3)(0, -f[i].z, f[i].y);
    if (PROX_FN(prox_detail_ov_tri_box_axis)(v, h, L, s)) return 0;
    L = PROX_FN(prox_v3)(f[i].z, 0, -f[i].x);
    if (PROX_FN(prox_detail_ov_tri_box_axis)(v, h, L, s)) return 0;
    L = PROX_FN(prox_v3)(-f[i].y, f[i].x, 0);
    if (PROX_FN(prox_detail_ov_tri_box_axis)(v, h, L, s)) return 0;
  }
  return 1;
}

PROX_KERNEL int PROX_FN(prox_overlap_triangle_aabb)(const PROX_FN(prox_triangle) * tri,
                                                    const PROX_FN(prox_aabb) * box) {
  PROX_FN(prox_triangle) ts;
  PROX_FN(prox_aabb) bs;
  int r = PROX_FN(prox_detail_ov_tri_box)(tri, box, 0), e, i;
  if (r < 0) {
    /* Far from magnitude 1: the same test on the input scaled by the power
     * of two that brings its largest magnitude into [1/2, 1) (exact, but
     * for parts below 2^-1074 of it, which are far below the rounding
     * bound). */
    e = PROX_FN(prox_detail_frame)(tri->v, 3,
                                   PROX_FN(prox_detail_maxabs)(box->min) >
                                           PROX_FN(prox_detail_maxabs)(box->max)
                                       ? PROX_FN(prox_detail_maxabs)(box->min)
                                       : PROX_FN(prox_detail_maxabs)(box->max));
    for (i = 0; i < 3; ++i)
      ts.v[i] = PROX_FN(prox_detail_vldexp)(tri->v[i], -e);
    bs.min = PROX_FN(prox_detail_vldexp)(box->min, -e);
    bs.max = PROX_FN(prox_detail_vldexp)(box->max, -e);
    r = PROX_FN(prox_detail_ov_tri_box)(&ts, &bs, 1);
  }
  /* Non-finite input is told apart only where no axis separated (a
   * comparison with NaN never separates), off the path of the separated
   * pairs. */
  return r && PROX_FN(prox_detail_ov_tri_poison)(tri) + PROX_FN(prox_vpoison)(box->min) +
                      PROX_FN(prox_vpoison)(box->max) ==
                  0;
}

/* ---------------------------- sphere, triangle --------------------------- */

PROX_KERNEL int PROX_FN(prox_overlap_sphere_triangle)(const PROX_FN(prox_sphere) * sph,
                                                      const PROX_FN(prox_triangle) * tri) {
  PROX_FN(prox_triangle) t;
  PROX_REAL r = PROX_FABS(sph->radius), S = 0, m, d2;
  int i;
  for (i = 0; i < 3; ++i) {
    t.v[i] = PROX_FN(prox_vsub)(tri->v[i], sph->center);
    m = PROX_FN(prox_detail_maxabs)(t.v[i]);
    S = m > S ? m : S;
  }
  d2 = PROX_FN(prox_point_triangle)(PROX_FN(prox_v3)(0, 0, 0), &t, 0);
  /* d2 is NaN for a non-finite triangle or center, but an infinite radius
   * alone would pass the comparison. */
  return d2 <= r * r + PROX_R(16.0) * PROX_EPS * (S * S + r * r) && r - r == 0;
}

/* ---------------------------- triangle, triangle ------------------------- */

PROX_KERNEL int PROX_FN(prox_overlap_triangle_triangle)(const PROX_FN(prox_triangle) * a,
                                                        const PROX_FN(prox_triangle) * b) {
  double A[3][3], B[3][3];
  int i;
  for (i = 0; i < 3; ++i) {
    A[i][0] = (double)a->v[i].x;
    A[i][1] = (double)a->v[i].y;
    A[i][2] = (double)a->v[i].z;
    B[i][0] = (double)b->v[i].x;
    B[i][1] = (double)b->v[i].y;
    B[i][2] = (double)b->v[i].z;
  }
  /* Non-finite input is told apart after the test, off the path of the
   * separated pairs (which it can reach too: a NaN sign counts as 0). */
  return prox_detail_ov_tri_tri((const double(*)[3])A, (const double(*)[3])B) &&
         PROX_FN(prox_detail_ov_tri_poison)(a) + PROX_FN(prox_detail_ov_tri_poison)(b) == 0;
}

#undef PROX_OV_BIG
