/* SPDX-License-Identifier: MIT */
/* Template of the precision-dependent contact tests (values against the
 * exact oracle, classification, non-finite and degenerate input). Included
 * by test_contact.c once per precision, after prox/detail/real_double.h or
 * real_float.h (PROX_REAL, PROX_FN, PROX_EPS, PROX_IS_DOUBLE), with:
 *   CF(name)  a test-local name for this instantiation
 *   CTAU      the classifiers' degeneracy threshold
 *   CMARGIN   margin, in eps S (length units; edge-edge: eps S / sin of
 *             the angle), below which the exact closest point counts as on
 *             a region boundary and either type is accepted (contact.h,
 *             Decisions)
 * and the generators, harness and oracle of test_contact.c in scope, and
 * its list of the functions whose derivatives are tested (dfun, F_*). */

/* Rounds the generated coordinates to PROX_REAL so the oracle sees exactly the
 * kernel's input. Through a volatile: GCC 12.2 at -O2 (SLP vectorizer)
 * folds the vector round trip (double)(float)x to x. */
static void CF(round_case)(double v[][3], int n) {
  int i, j;
  for (i = 0; i < n; ++i)
    for (j = 0; j < 3; ++j) {
      volatile PROX_REAL r = (PROX_REAL)v[i][j];
      v[i][j] = (double)r;
    }
}

static PROX_FN(prox_vec3) CF(vec)(const double *a) {
  PROX_FN(prox_vec3) r;
  r.x = (PROX_REAL)a[0];
  r.y = (PROX_REAL)a[1];
  r.z = (PROX_REAL)a[2];
  return r;
}

/* Error of d against the exact value in units of eps S^2. */
static double CF(units)(PROX_REAL d, mpq_srcptr exact, double s) {
  double den = ((double)PROX_EPS) * s * s;
  if (!(den > 0)) den = DBL_MIN;
  return q_err((double)d, exact) / den;
}

/* ---- point-point, point-line, point-plane, line-line ------------------ */

static void CF(values_formulas)(void) {
  int kind, i;
  for (kind = 0; kind < NKINDS; ++kind) {
    stat spp, spl, spl_all, spn, spn_all, sll, sll_all, scr;
    stat_init(&spp);
    stat_init(&spl);
    stat_init(&spl_all);
    stat_init(&spn);
    stat_init(&spn_all);
    stat_init(&sll);
    stat_init(&sll_all);
    stat_init(&scr);
    for (i = 0; i < g_nvalue; ++i) {
      double v[4][3], w[4][3], s, e, tt, b0, b1, b2, ss, st;
      int m = qmark(), degen, par;
      mpq_ptr ex = qnew(), t = qnew(), u = qnew();
      gen_pt(kind, i, v);
      gen_ee(kind, i, w);
      CF(round_case)(v, 4);
      CF(round_case)(w, 4);
      /* point-point */
      s = max_abs(v, 2);
      q_pp(ex, v[0], v[1]);
      e = CF(units)(PROX_FN(prox_ipc_point_point_distance)(CF(vec)(v[0]), CF(vec)(v[1])), ex, s);
      stat_add(&spp, e);
      CHECK_BOUND(e, bound_point_point_distance, "point_point");
      /* point-line */
      s = max_abs(v, 3);
      q_pl(ex, t, v[0], v[1], v[2]);
      tt = mpq_get_d(t);
      e = CF(units)(
          PROX_FN(prox_ipc_point_line_distance)(CF(vec)(v[0]), CF(vec)(v[1]), CF(vec)(v[2])), ex,
          s);
      stat_add(&spl_all, e);
      if (wc1(tt)) {
        stat_add(&spl, e);
        CHECK_BOUND(e, bound_point_line_distance, "point_line");
      }
      /* point-plane */
      s = max_abs(v, 4);
      q_plane(ex, t, u, &degen, v[0], v[1], v[2], v[3]);
      b1 = mpq_get_d(t);
      b2 = mpq_get_d(u);
      b0 = 1 - b1 - b2;
      e = CF(units)(PROX_FN(prox_ipc_point_plane_distance)(CF(vec)(v[0]), CF(vec)(v[1]),
                                                           CF(vec)(v[2]), CF(vec)(v[3])),
                    ex, s);
      stat_add(&spn_all, e);
      if (wc1(b0) && wc1(b1) && wc1(b2)) {
        stat_add(&spn, e);
        CHECK_BOUND(e, bound_point_plane_distance, "point_plane");
      }
      /* line-line */
      s = max_abs(w, 4);
      q_ll(ex, t, u, &par, w[0], w[1], w[2], w[3]);
      ss = mpq_get_d(t);
      st = mpq_get_d(u);
      e = CF(units)(PROX_FN(prox_ipc_line_line_distance)(CF(vec)(w[0]), CF(vec)(w[1]),
                                                         CF(vec)(w[2]), CF(vec)(w[3])),
                    ex, s);
      stat_add(&sll_all, e);
      if (wc1(ss) && wc1(st)) {
        stat_add(&sll, e);
        CHECK_BOUND(e, bound_line_line_distance, "line_line");
      }
      /* |ea x eb|^2: error in units of eps |ea|^2 |eb|^2. */
      {
        double la = 0, lb = 0, den;
        int j;
        for (j = 0; j < 3; ++j) {
          la += (w[1][j] - w[0][j]) * (w[1][j] - w[0][j]);
          lb += (w[3][j] - w[2][j]) * (w[3][j] - w[2][j]);
        }
        q_cross2(ex, w[0], w[1], w[2], w[3]);
        den = ((double)PROX_EPS) * la * lb;
        if (!(den > 0)) den = DBL_MIN;
        e = q_err((double)PROX_FN(prox_ipc_edge_edge_cross_squarednorm)(
                      CF(vec)(w[0]), CF(vec)(w[1]), CF(vec)(w[2]), CF(vec)(w[3])),
                  ex) /
            den;
        stat_add(&scr, e);
        CHECK_BOUND(e, bound_edge_edge_cross_squarednorm, "cross_squarednorm");
      }
      qrelease(m);
    }
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_point", kind, &spp, 0);
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_line", kind, &spl, &spl_all);
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_plane", kind, &spn, &spn_all);
    report((PROX_IS_DOUBLE ? "double" : "float"), "line_line", kind, &sll, &sll_all);
    report((PROX_IS_DOUBLE ? "double" : "float"), "cross_squarednorm", kind, &scr, 0);
  }
}

/* ---- point-edge ------------------------------------------------------- */

static void CF(values_pe)(void) {
  int kind, i, ty;
  for (kind = 0; kind < NKINDS; ++kind) {
    stat sa, st, st_all;
    tstat ts;
    stat_init(&sa);
    stat_init(&st);
    stat_init(&st_all);
    tstat_init(&ts);
    for (i = 0; i < g_nvalue; ++i) {
      double v[3][3], s, e, tt;
      int m = qmark(), k;
      mpq_ptr ex = qnew(), t = qnew();
      PROX_FN(prox_vec3) p, e0, e1;
      q_class c;
      PROX_REAL d;
      gen_pe(kind, i, v);
      CF(round_case)(v, 3);
      s = max_abs(v, 3);
      p = CF(vec)(v[0]);
      e0 = CF(vec)(v[1]);
      e1 = CF(vec)(v[2]);
      c = q_pe(ex, v[0], v[1], v[2], CMARGIN * ((double)PROX_EPS) * s);
      d = PROX_FN(prox_ipc_point_edge_distance)(p, e0, e1, PROX_PE_AUTO);
      e = CF(units)(d, ex, s);
      stat_add(&sa, e);
      CHECK_BOUND(e, bound_point_edge_distance, "point_edge auto");
      ty = (int)PROX_FN(prox_ipc_point_edge_distance_type)(p, e0, e1);
      CHECK(ty >= 0 && ty <= 2);
      tstat_add(&ts, c, ty, ((double)PROX_EPS) * s);
      if (!(c.ambiguous || ty == c.type) && g_verbose)
        fprintf(stderr, "pe type %d exact %d margin %g kind %d i %d\n", ty, c.type, c.margin, kind,
                i);
      CHECK(c.ambiguous || ty == c.type);
      CHECK(d == PROX_FN(prox_ipc_point_edge_distance)(p, e0, e1, (prox_ipc_pe_type)ty));
      for (k = 0; k < 3; ++k) {
        int wc = 1;
        if (k < 2) {
          q_pp(ex, v[0], v[1 + k]);
        } else {
          q_pl(ex, t, v[0], v[1], v[2]);
          tt = mpq_get_d(t);
          wc = wc1(tt);
        }
        e = CF(units)(PROX_FN(prox_ipc_point_edge_distance)(p, e0, e1, (prox_ipc_pe_type)k), ex, s);
        stat_add(&st_all, e);
        if (wc) {
          stat_add(&st, e);
          CHECK_BOUND(e, bound_point_edge_distance, "point_edge typed");
        }
      }
      if (i % 8 == 0) {
        PROX_REAL g[9], h[81];
        CHECK(PROX_FN(prox_ipc_point_edge_distance_gradient)(p, e0, e1, PROX_PE_AUTO, g) == d);
        CHECK(PROX_FN(prox_ipc_point_edge_distance_hessian)(p, e0, e1, PROX_PE_AUTO, g, h) == d);
      }
      qrelease(m);
    }
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_edge auto", kind, &sa, 0);
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_edge typed", kind, &st, &st_all);
    treport((PROX_IS_DOUBLE ? "double" : "float"), "point_edge type", kind, &ts);
  }
}

/* ---- point-triangle --------------------------------------------------- */

static void CF(values_pt)(void) {
  int kind, i, ty;
  for (kind = 0; kind < NKINDS; ++kind) {
    stat sa, st, st_all;
    tstat ts;
    stat_init(&sa);
    stat_init(&st);
    stat_init(&st_all);
    tstat_init(&ts);
    for (i = 0; i < g_nvalue; ++i) {
      double v[4][3], s, e;
      int m = qmark(), k, degen;
      mpq_ptr ex = qnew(), t = qnew(), u = qnew();
      PROX_FN(prox_vec3) p, t0, t1, t2;
      q_class c;
      PROX_REAL d;
      gen_pt(kind, i, v);
      CF(round_case)(v, 4);
      s = max_abs(v, 4);
      p = CF(vec)(v[0]);
      t0 = CF(vec)(v[1]);
      t1 = CF(vec)(v[2]);
      t2 = CF(vec)(v[3]);
      c = q_tri(ex, v[0], v[1], v[2], v[3], CTAU, 32 * ((double)PROX_EPS) * s * s,
                CMARGIN * ((double)PROX_EPS) * s);
      d = PROX_FN(prox_ipc_point_triangle_distance)(p, t0, t1, t2, PROX_PT_AUTO);
      e = CF(units)(d, ex, s);
      stat_add(&sa, e);
      CHECK_BOUND(e, bound_point_triangle_distance, "point_triangle auto");
      ty = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(p, t0, t1, t2);
      CHECK(ty >= 0 && ty <= 6);
      tstat_add(&ts, c, ty, ((double)PROX_EPS) * s);
      if (!(c.ambiguous || ty == c.type) && g_verbose)
        fprintf(stderr, "pt type %d exact %d margin %g kind %d i %d\n", ty, c.type, c.margin, kind,
                i);
      CHECK(c.ambiguous || ty == c.type);
      CHECK(d == PROX_FN(prox_ipc_point_triangle_distance)(p, t0, t1, t2, (prox_ipc_pt_type)ty));
      for (k = 0; k < 7; ++k) {
        int wc = 1;
        if (k < 3) {
          q_pp(ex, v[0], v[1 + k]);
        } else if (k < 6) {
          q_pl(ex, t, v[0], v[1 + (k - 3)], v[1 + (k - 2) % 3]);
          wc = wc1(mpq_get_d(t));
        } else {
          double b1, b2;
          q_plane(ex, t, u, &degen, v[0], v[1], v[2], v[3]);
          b1 = mpq_get_d(t);
          b2 = mpq_get_d(u);
          wc = wc1(b1) && wc1(b2) && wc1(1 - b1 - b2);
        }
        e = CF(units)(PROX_FN(prox_ipc_point_triangle_distance)(p, t0, t1, t2, (prox_ipc_pt_type)k),
                      ex, s);
        stat_add(&st_all, e);
        if (wc) {
          stat_add(&st, e);
          CHECK_BOUND(e, bound_point_triangle_distance, "point_triangle typed");
        }
      }
      if (i % 8 == 0) {
        PROX_REAL g[12], h[144];
        CHECK(PROX_FN(prox_ipc_point_triangle_distance_gradient)(p, t0, t1, t2, PROX_PT_AUTO, g) ==
              d);
        CHECK(PROX_FN(prox_ipc_point_triangle_distance_hessian)(p, t0, t1, t2, PROX_PT_AUTO, g,
                                                                h) == d);
      }
      qrelease(m);
    }
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_triangle auto", kind, &sa, 0);
    report((PROX_IS_DOUBLE ? "double" : "float"), "point_triangle typed", kind, &st, &st_all);
    treport((PROX_IS_DOUBLE ? "double" : "float"), "point_triangle type", kind, &ts);
  }
}

/* ---- edge-edge -------------------------------------------------------- */

static void CF(values_ee)(void) {
  int kind, i, ty, a;
  /* The nearly parallel adversarial cases (gen_ee case 0: overlapping,
   * case 6: past the end) by angle 1e-4, 1e-6, ..., 1e-12. */
  stat spar[5];
  tstat tpar[5];
  for (a = 0; a < 5; ++a) {
    stat_init(&spar[a]);
    tstat_init(&tpar[a]);
  }
  for (kind = 0; kind < NKINDS; ++kind) {
    stat sa, st, st_all;
    tstat ts;
    stat_init(&sa);
    stat_init(&st);
    stat_init(&st_all);
    tstat_init(&ts);
    for (i = 0; i < g_nvalue; ++i) {
      double w[4][3], s, e;
      int m = qmark(), k, par;
      mpq_ptr ex = qnew(), t = qnew(), u = qnew();
      PROX_FN(prox_vec3) a0, a1, b0, b1;
      q_class c;
      PROX_REAL d;
      gen_ee(kind, i, w);
      CF(round_case)(w, 4);
      s = max_abs(w, 4);
      a0 = CF(vec)(w[0]);
      a1 = CF(vec)(w[1]);
      b0 = CF(vec)(w[2]);
      b1 = CF(vec)(w[3]);
      c = q_ee(ex, w[0], w[1], w[2], w[3], CTAU, 32 * ((double)PROX_EPS) * s * s,
               CMARGIN * ((double)PROX_EPS) * s);
      d = PROX_FN(prox_ipc_edge_edge_distance)(a0, a1, b0, b1, PROX_EE_AUTO);
      e = CF(units)(d, ex, s);
      stat_add(&sa, e);
      CHECK_BOUND(e, bound_edge_edge_distance, "edge_edge auto");
      ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(a0, a1, b0, b1);
      CHECK(ty >= 0 && ty <= 8);
      tstat_add(&ts, c, ty, ((double)PROX_EPS) * s);
      if (!(c.ambiguous || ty == c.type) && g_verbose)
        fprintf(stderr, "ee type %d exact %d margin %g kind %d i %d\n", ty, c.type, c.margin, kind,
                i);
      CHECK(c.ambiguous || ty == c.type);
      if (kind == 3 && (i % 7 == 0 || i % 7 == 6)) {
        stat_add(&spar[(i / 7) % 5], e);
        tstat_add(&tpar[(i / 7) % 5], c, ty, ((double)PROX_EPS) * s);
      }
      CHECK(d == PROX_FN(prox_ipc_edge_edge_distance)(a0, a1, b0, b1, (prox_ipc_ee_type)ty));
      for (k = 0; k < 9; ++k) {
        int wc = 1;
        /* Vertex pairs, point-line pairs (point, line), line-line. */
        static const int pa[4] = {0, 0, 1, 1}, pb[4] = {2, 3, 2, 3};
        if (k < 4) {
          q_pp(ex, w[pa[k]], w[pb[k]]);
        } else if (k < 6) {
          q_pl(ex, t, w[2 + (k - 4)], w[0], w[1]);
          wc = wc1(mpq_get_d(t));
        } else if (k < 8) {
          q_pl(ex, t, w[k - 6], w[2], w[3]);
          wc = wc1(mpq_get_d(t));
        } else {
          q_ll(ex, t, u, &par, w[0], w[1], w[2], w[3]);
          wc = wc1(mpq_get_d(t)) && wc1(mpq_get_d(u));
        }
        e = CF(units)(PROX_FN(prox_ipc_edge_edge_distance)(a0, a1, b0, b1, (prox_ipc_ee_type)k), ex,
                      s);
        stat_add(&st_all, e);
        if (wc) {
          stat_add(&st, e);
          CHECK_BOUND(e, bound_edge_edge_distance, "edge_edge typed");
        }
      }
      if (i % 8 == 0) {
        PROX_REAL g[12], h[144];
        CHECK(PROX_FN(prox_ipc_edge_edge_distance_gradient)(a0, a1, b0, b1, PROX_EE_AUTO, g) == d);
        CHECK(PROX_FN(prox_ipc_edge_edge_distance_hessian)(a0, a1, b0, b1, PROX_EE_AUTO, g, h) ==
              d);
      }
      qrelease(m);
    }
    report((PROX_IS_DOUBLE ? "double" : "float"), "edge_edge auto", kind, &sa, 0);
    report((PROX_IS_DOUBLE ? "double" : "float"), "edge_edge typed", kind, &st, &st_all);
    treport((PROX_IS_DOUBLE ? "double" : "float"), "edge_edge type", kind, &ts);
  }
  for (a = 0; a < 5; ++a)
    printf("  %-6s nearly parallel, angle 1e-%-2d: auto max %9.3g eps S^2 "
           "(n=%ld), type %ld/%ld agree, %ld within the margin (%ld "
           "differ), %ld near the threshold or tied (%ld differ)\n",
           (PROX_IS_DOUBLE ? "double" : "float"), 4 + 2 * a, spar[a].max, spar[a].n, tpar[a].agree,
           tpar[a].checked, tpar[a].amb_margin, tpar[a].amb_margin_diff, tpar[a].amb_other,
           tpar[a].amb_other_diff);
}

/* ---- non-finite input, invalid types --------------------------------- */

static int CF(all_nan)(const PROX_REAL *x, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (x[i] == x[i]) return 0;
  return 1;
}

static void CF(nonfinite)(void) {
  PROX_REAL bad[3];
  int b, vi, ci;
  bad[0] = (PROX_REAL)NAN;
  bad[1] = (PROX_REAL)INFINITY;
  bad[2] = -(PROX_REAL)INFINITY;
  for (b = 0; b < 3; ++b)
    for (vi = 0; vi < 4; ++vi)
      for (ci = 0; ci < 3; ++ci) {
        PROX_FN(prox_vec3) v[4];
        PROX_REAL g[12], h[144];
        int k, ty;
        for (k = 0; k < 4; ++k) {
          v[k].x = (PROX_REAL)(0.25 * k);
          v[k].y = (PROX_REAL)(0.5 - 0.125 * k);
          v[k].z = (PROX_REAL)(k % 2);
        }
        if (ci == 0) v[vi].x = bad[b];
        if (ci == 1) v[vi].y = bad[b];
        if (ci == 2) v[vi].z = bad[b];
        /* Two-vertex kernels see vertices 0, 1; three-vertex ones 0..2. */
        if (vi < 2) {
          PROX_REAL x = PROX_FN(prox_ipc_point_point_distance)(v[0], v[1]);
          CHECK(x != x);
          PROX_FN(prox_ipc_point_point_distance_gradient)(v[0], v[1], g);
          CHECK(CF(all_nan)(g, 6));
          PROX_FN(prox_ipc_point_point_distance_hessian)(v[0], v[1], g, h);
          CHECK(CF(all_nan)(g, 6) && CF(all_nan)(h, 36));
        }
        if (vi < 3) {
          PROX_REAL x = PROX_FN(prox_ipc_point_line_distance)(v[0], v[1], v[2]);
          CHECK(x != x);
          PROX_FN(prox_ipc_point_line_distance_hessian)(v[0], v[1], v[2], g, h);
          CHECK(CF(all_nan)(g, 9) && CF(all_nan)(h, 81));
          ty = (int)PROX_FN(prox_ipc_point_edge_distance_type)(v[0], v[1], v[2]);
          CHECK(ty >= 0 && ty <= 2);
          for (k = 0; k <= 3; ++k) {
            x = PROX_FN(prox_ipc_point_edge_distance)(v[0], v[1], v[2], (prox_ipc_pe_type)k);
            CHECK(x != x);
            PROX_FN(prox_ipc_point_edge_distance_gradient)
            (v[0], v[1], v[2], (prox_ipc_pe_type)k, g);
            CHECK(CF(all_nan)(g, 9));
            PROX_FN(prox_ipc_point_edge_distance_hessian)
            (v[0], v[1], v[2], (prox_ipc_pe_type)k, g, h);
            CHECK(CF(all_nan)(g, 9) && CF(all_nan)(h, 81));
          }
        }
        {
          PROX_REAL x = PROX_FN(prox_ipc_point_plane_distance)(v[0], v[1], v[2], v[3]);
          CHECK(x != x);
          PROX_FN(prox_ipc_point_plane_distance_hessian)
          (v[0], v[1], v[2], v[3], g, h);
          CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
          x = PROX_FN(prox_ipc_line_line_distance)(v[0], v[1], v[2], v[3]);
          CHECK(x != x);
          PROX_FN(prox_ipc_line_line_distance_hessian)(v[0], v[1], v[2], v[3], g, h);
          CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
          ty = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(v[0], v[1], v[2], v[3]);
          CHECK(ty >= 0 && ty <= 6);
          ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(v[0], v[1], v[2], v[3]);
          CHECK(ty >= 0 && ty <= 8);
          ty = (int)PROX_FN(prox_ipc_edge_edge_parallel_distance_type)(v[0], v[1], v[2], v[3]);
          CHECK(ty >= 0 && ty <= 7);
          for (k = 0; k <= 7; ++k) {
            x = PROX_FN(prox_ipc_point_triangle_distance)(v[0], v[1], v[2], v[3],
                                                          (prox_ipc_pt_type)k);
            CHECK(x != x);
            PROX_FN(prox_ipc_point_triangle_distance_gradient)
            (v[0], v[1], v[2], v[3], (prox_ipc_pt_type)k, g);
            CHECK(CF(all_nan)(g, 12));
            PROX_FN(prox_ipc_point_triangle_distance_hessian)
            (v[0], v[1], v[2], v[3], (prox_ipc_pt_type)k, g, h);
            CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
          }
          for (k = 0; k <= 9; ++k) {
            x = PROX_FN(prox_ipc_edge_edge_distance)(v[0], v[1], v[2], v[3], (prox_ipc_ee_type)k);
            CHECK(x != x);
            PROX_FN(prox_ipc_edge_edge_distance_gradient)
            (v[0], v[1], v[2], v[3], (prox_ipc_ee_type)k, g);
            CHECK(CF(all_nan)(g, 12));
            PROX_FN(prox_ipc_edge_edge_distance_hessian)
            (v[0], v[1], v[2], v[3], (prox_ipc_ee_type)k, g, h);
            CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
          }
          x = PROX_FN(prox_ipc_edge_edge_cross_squarednorm)(v[0], v[1], v[2], v[3]);
          CHECK(x != x);
          PROX_FN(prox_ipc_edge_edge_cross_squarednorm_gradient)
          (v[0], v[1], v[2], v[3], g);
          CHECK(CF(all_nan)(g, 12));
          PROX_FN(prox_ipc_edge_edge_cross_squarednorm_hessian)
          (v[0], v[1], v[2], v[3], g, h);
          CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
          x = PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(v[0], v[1], v[2], v[3]);
          CHECK(x != x);
          x = PROX_FN(prox_ipc_edge_edge_mollifier)(v[0], v[1], v[2], v[3], 1);
          CHECK(x != x);
          PROX_FN(prox_ipc_edge_edge_mollifier_gradient)
          (v[0], v[1], v[2], v[3], 1, g);
          CHECK(CF(all_nan)(g, 12));
          PROX_FN(prox_ipc_edge_edge_mollifier_hessian)
          (v[0], v[1], v[2], v[3], 1, g, h);
          CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
        }
      }
  /* Scalar mollifier and a non-finite threshold. */
  for (b = 0; b < 3; ++b) {
    PROX_FN(prox_vec3) v[4];
    PROX_REAL g[12], h[144], x;
    int k;
    for (k = 0; k < 4; ++k) {
      v[k].x = (PROX_REAL)k;
      v[k].y = (PROX_REAL)(k * k);
      v[k].z = 0;
    }
    x = PROX_FN(prox_ipc_mollifier)(bad[b], 1);
    CHECK(x != x);
    x = PROX_FN(prox_ipc_mollifier)((PROX_REAL)0.5, bad[b]);
    CHECK(x != x);
    x = PROX_FN(prox_ipc_mollifier_derivative)(bad[b], 1);
    CHECK(x != x);
    x = PROX_FN(prox_ipc_mollifier_second_derivative)((PROX_REAL)0.5, bad[b]);
    CHECK(x != x);
    x = PROX_FN(prox_ipc_edge_edge_mollifier)(v[0], v[1], v[2], v[3], bad[b]);
    CHECK(x != x);
    PROX_FN(prox_ipc_edge_edge_mollifier_hessian)
    (v[0], v[1], v[2], v[3], bad[b], g, h);
    CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
  }
  /* Invalid type values (out of range) give NaN everywhere. */
  {
    PROX_FN(prox_vec3) v[4];
    PROX_REAL g[12], h[144];
    int k, bads[3] = {-1, 10, 1000};
    for (k = 0; k < 4; ++k) {
      v[k].x = (PROX_REAL)k;
      v[k].y = (PROX_REAL)(1 - k);
      v[k].z = (PROX_REAL)(k * 0.5);
    }
    for (k = 0; k < 3; ++k) {
      PROX_REAL x =
          PROX_FN(prox_ipc_point_edge_distance)(v[0], v[1], v[2], (prox_ipc_pe_type)bads[k]);
      CHECK(x != x);
      PROX_FN(prox_ipc_point_edge_distance_hessian)
      (v[0], v[1], v[2], (prox_ipc_pe_type)bads[k], g, h);
      CHECK(CF(all_nan)(g, 9) && CF(all_nan)(h, 81));
      x = PROX_FN(prox_ipc_point_triangle_distance)(v[0], v[1], v[2], v[3],
                                                    (prox_ipc_pt_type)bads[k]);
      CHECK(x != x);
      PROX_FN(prox_ipc_point_triangle_distance_hessian)
      (v[0], v[1], v[2], v[3], (prox_ipc_pt_type)bads[k], g, h);
      CHECK(CF(all_nan)(g, 12) && CF(all_nan)(h, 144));
      x = PROX_FN(prox_ipc_edge_edge_distance)(v[0], v[1], v[2], v[3], (prox_ipc_ee_type)bads[k]);
      CHECK(x != x);
      PROX_FN(prox_ipc_edge_edge_distance_gradient)
      (v[0], v[1], v[2], v[3], (prox_ipc_ee_type)bads[k], g);
      CHECK(CF(all_nan)(g, 12));
    }
  }
}

/* ---- degenerate input ------------------------------------------------- */

static void CF(degenerate)(void) {
  int i;
  for (i = 0; i < 2000; ++i) {
    double v[4][3];
    PROX_FN(prox_vec3) p, a, b, c;
    int ty, k;
    PROX_REAL g[12], h[144];
    /* Zero-length edge: never the interior type; value |p - e0|^2. */
    gen_pe(0, i, v);
    CF(round_case)(v, 3);
    p = CF(vec)(v[0]);
    a = CF(vec)(v[1]);
    ty = (int)PROX_FN(prox_ipc_point_edge_distance_type)(p, a, a);
    CHECK(ty == PROX_PE_P_E0);
    CHECK(PROX_FN(prox_ipc_point_edge_distance)(p, a, a, PROX_PE_P_E) ==
          PROX_FN(prox_ipc_point_point_distance)(p, a));
    CHECK(PROX_FN(prox_ipc_point_line_distance)(p, a, a) ==
          PROX_FN(prox_ipc_point_point_distance)(p, a));
    PROX_FN(prox_ipc_point_line_distance_hessian)(p, a, a, g, h);
    for (k = 0; k < 81; ++k)
      CHECK(h[k] == h[k] && h[k] - h[k] == 0);
    /* Triangles with coincident vertices: no face, no zero-length edge. */
    gen_pt(0, i, v);
    CF(round_case)(v, 4);
    p = CF(vec)(v[0]);
    a = CF(vec)(v[1]);
    b = CF(vec)(v[2]);
    c = CF(vec)(v[3]);
    ty = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(p, a, a, c);
    CHECK(ty != PROX_PT_P_T && ty != PROX_PT_P_E0);
    ty = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(p, a, b, b);
    CHECK(ty != PROX_PT_P_T && ty != PROX_PT_P_E1);
    ty = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(p, a, b, a);
    CHECK(ty != PROX_PT_P_T && ty != PROX_PT_P_E2);
    ty = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(p, a, a, a);
    CHECK(ty == PROX_PT_P_T0);
    CHECK(PROX_FN(prox_ipc_point_triangle_distance)(p, a, a, a, PROX_PT_AUTO) ==
          PROX_FN(prox_ipc_point_point_distance)(p, a));
    /* The plane of a zero-area triangle is the line of its longest edge. */
    CHECK(PROX_FN(prox_ipc_point_plane_distance)(p, a, b, b) ==
          PROX_FN(prox_ipc_point_line_distance)(p, a, b));
    PROX_FN(prox_ipc_point_plane_distance_hessian)(p, a, b, b, g, h);
    for (k = 0; k < 144; ++k)
      CHECK(h[k] - h[k] == 0);
    CHECK(g[9] == 0 && g[10] == 0 && g[11] == 0);
    /* Edges with a zero-length edge: no interior type on that edge. */
    ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(a, a, b, c);
    CHECK(ty != PROX_EE_EA_EB && ty != PROX_EE_EA_EB0 && ty != PROX_EE_EA_EB1);
    ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(a, b, c, c);
    CHECK(ty != PROX_EE_EA_EB && ty != PROX_EE_EA0_EB && ty != PROX_EE_EA1_EB);
    ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(a, a, c, c);
    CHECK(ty == PROX_EE_EA0_EB0);
    CHECK(PROX_FN(prox_ipc_edge_edge_distance)(a, a, c, c, PROX_EE_AUTO) ==
          PROX_FN(prox_ipc_point_point_distance)(a, c));
    /* Parallel lines: the distance from ea0 to line b. */
    {
      /* Exactly parallel (small dyadic coordinates, exact differences). */
      double ia[3], id[3], ib[3], ic[3], ie[3];
      PROX_FN(prox_vec3) a2, b2, c2, e2;
      ivec(ia);
      ivec(id);
      ivec(ic);
      if (dot3(id, id) == 0) id[2] = 0.375;
      madd3(ib, ia, 1, id);
      madd3(ie, ic, -2, id);
      a2 = CF(vec)(ia);
      b2 = CF(vec)(ib);
      c2 = CF(vec)(ic);
      e2 = CF(vec)(ie);
      CHECK(PROX_FN(prox_ipc_line_line_distance)(a2, b2, c2, e2) ==
            PROX_FN(prox_ipc_point_line_distance)(a2, c2, e2));
      PROX_FN(prox_ipc_line_line_distance_hessian)(a2, b2, c2, e2, g, h);
      for (k = 0; k < 144; ++k)
        CHECK(h[k] - h[k] == 0);
      ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(a2, b2, c2, e2);
      CHECK(ty != PROX_EE_EA_EB);
    }
  }
}

/* ---- derivatives -------------------------------------------------------- */

/* The arguments of K4 kernel `name` on the vertices a b d e, its distance
 * type c->type if it takes one. */
#define CF_ARGS(verts, type) PROX_KERNELS_VERTS_##verts(a, b, d, e) CF_TYPE_##type
#define CF_TYPE_NONE
#define CF_TYPE_PE , (prox_ipc_pe_type)c->type
#define CF_TYPE_PT , (prox_ipc_pt_type)c->type
#define CF_TYPE_EE , (prox_ipc_ee_type)c->type
#define CF_EVAL(name, coords, degree, verts, type, bound)                                          \
  case F_##name:                                                                                   \
    v = h   ? PROX_FN(prox_ipc_##name##_hessian)(CF_ARGS(verts, type), gt, ht)                     \
        : g ? PROX_FN(prox_ipc_##name##_gradient)(CF_ARGS(verts, type), gt)                        \
            : PROX_FN(prox_ipc_##name)(CF_ARGS(verts, type));                                      \
    break;

/* Value, and gradient / Hessian when not NULL, of function c at x (its
 * coordinates rounded to PROX_REAL): every K4 kernel of the registry, the
 * mollifier last. */
static double CF(deval)(const dfun *c, const double *x, double *g, double *h) {
  PROX_FN(prox_vec3) a = CF(vec)(x), b = CF(vec)(x + 3), d = CF(vec)(x + 6), e = CF(vec)(x + 9);
  PROX_REAL gt[12], ht[144], v, eps_x = (PROX_REAL)c->eps_x;
  int n = 3 * fnv[c->f], i;
  switch (c->f) {
    PROX_KERNELS_K4(CF_EVAL)
  default:
    v = h   ? PROX_FN(prox_ipc_edge_edge_mollifier_hessian)(a, b, d, e, eps_x, gt, ht)
        : g ? PROX_FN(prox_ipc_edge_edge_mollifier_gradient)(a, b, d, e, eps_x, gt)
            : PROX_FN(prox_ipc_edge_edge_mollifier)(a, b, d, e, eps_x);
    break;
  }
  for (i = 0; g && i < n; ++i)
    g[i] = (double)gt[i];
  for (i = 0; h && i < n * n; ++i)
    h[i] = (double)ht[i];
  return (double)v;
}
