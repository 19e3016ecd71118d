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
 * and the generators (gens), harness and oracle of test_contact.c in
 * scope, and its tables of the K4 kernels of the registry and the
 * mollifier (dfun, F_*, fnv, fntypes, fdeg, fgen, fbound, foracle,
 * fclass) and each one's generator (kernel_rng). */

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

/* Error of d, the value of K4 kernel f on the vertices x, against the
 * exact value, in the units of its bound (tests/kernels.h): eps S^2 for
 * degree 2 (S the largest coordinate magnitude of its vertices), eps |ea|^2
 * |eb|^2 (the edges x1 - x0, x3 - x2) for degree 4. */
static double CF(err)(int f, double d, mpq_srcptr exact, const double *x) {
  double a = 0, b = 0, den;
  int j;
  if (fdeg[f] == 4) {
    for (j = 0; j < 3; ++j) {
      a += (x[3 + j] - x[j]) * (x[3 + j] - x[j]);
      b += (x[9 + j] - x[6 + j]) * (x[9 + j] - x[6 + j]);
    }
  } else {
    a = b = max_abs(x, fnv[f]);
  }
  den = ((double)PROX_EPS) * a * b;
  if (!(den > 0)) den = DBL_MIN;
  return q_err(d, exact) / den;
}

/* ---- the K4 kernels of the registry on double coordinates --------------- */

/* The arguments of K4 kernel `name` on the vertices a b d e, its distance
 * type c->type if it takes one. */
#define CF_ARGS(verts, type) PROX_KERNELS_K4_ARGS_T(verts, type, a, b, d, e, ct)
#define CF_EVAL(name, coords, degree, verts, type, bound, gen, shape)                              \
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
  int ct = c->type;
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

/* The type the classifier of K4 kernel f gives at x (its coordinates
 * rounded to PROX_REAL), its automatic type in *auto_type; -1 for a kernel
 * without types. */
static int CF(classify)(int f, const double *x, int *auto_type) {
  PROX_FN(prox_vec3) p0 = CF(vec)(x), p1 = CF(vec)(x + 3), p2 = CF(vec)(x + 6), p3 = CF(vec)(x + 9);
  (void)p0, (void)p1, (void)p2, (void)p3;
  switch (f) {
    PROX_KERNELS_K4(FN_CLASSIFY)
  default:
    return -1;
  }
}

/* ---- values and classification ------------------------------------------ */

/* The K4 kernels of the registry without a type: on the cases of their
 * generator class, each kernel from its own generator (kernel_rng), the
 * value against its oracle, asserted where the oracle calls it
 * well-conditioned (the maximum over all cases printed too where some are
 * not). */
static void CF(values_formulas)(void) {
  const char *prec = PROX_IS_DOUBLE ? "double" : "float";
  int kind, i, f;
  oracle_rng krng[F_COUNT];
  for (f = 0; f < F_COUNT; ++f)
    krng[f] = kernel_rng(f);
  for (kind = 0; kind < NKINDS; ++kind) {
    stat sw[F_COUNT], sa[F_COUNT];
    for (f = 0; f < F_COUNT; ++f) {
      stat_init(&sw[f]);
      stat_init(&sa[f]);
    }
    for (i = 0; i < g_nvalue; ++i) {
      double v[4][3];
      int m = qmark();
      mpq_ptr ex = qnew();
      for (f = 0; f < F_MOLL; ++f)
        if (fntypes[f] == 1) {
          const double *x = v[0];
          dfun c;
          int wc;
          double e;
          memset(v, 0, sizeof v);
          g_rng = krng[f];
          gens[fgen[f]].gen(kind, i, v);
          krng[f] = g_rng;
          CF(round_case)(v, gens[fgen[f]].nv);
          wc = foracle[f](ex, x, 0);
          c.f = f;
          c.type = 0;
          c.eps_x = 1;
          e = CF(err)(f, CF(deval)(&c, x, 0, 0), ex, x);
          stat_add(&sa[f], e);
          if (wc) {
            stat_add(&sw[f], e);
            CHECK_BOUND(e, fbound[f], fname[f]);
          }
        }
      qrelease(m);
    }
    for (f = 0; f < F_MOLL; ++f)
      if (fntypes[f] == 1)
        report(prec, fname[f], kind, &sw[f], sa[f].n != sw[f].n ? &sa[f] : 0,
               fdeg[f] == 4 ? "eps |ea|^2 |eb|^2" : "eps S^2");
  }
}

/* A K4 kernel of the registry with a type, on the cases of its generator
 * class: the automatic type's value against the exact minimum, its
 * classifier against the exact classification (contact.h, Decisions), the
 * classified type's value equal to the automatic one, every type's value
 * against its formula's oracle (asserted where well-conditioned), and the
 * value returned by the gradient and Hessian calls. */
static void CF(values_typed)(int f) {
  const char *prec = PROX_IS_DOUBLE ? "double" : "float";
  const gen_class *gc = &gens[fgen[f]];
  char what[3][64];
  int kind, i, b, nt = fntypes[f];
  stat sb[G_MAXBUCKET];
  tstat tb[G_MAXBUCKET];
  snprintf(what[0], sizeof what[0], "%s auto", fname[f]);
  snprintf(what[1], sizeof what[1], "%s typed", fname[f]);
  snprintf(what[2], sizeof what[2], "%s type", fname[f]);
  for (b = 0; b < G_MAXBUCKET; ++b) {
    stat_init(&sb[b]);
    tstat_init(&tb[b]);
  }
  for (kind = 0; kind < NKINDS; ++kind) {
    stat sa, st, st_all;
    tstat ts;
    stat_init(&sa);
    stat_init(&st);
    stat_init(&st_all);
    tstat_init(&ts);
    for (i = 0; i < g_nvalue; ++i) {
      double v[4][3], *x = v[0], s, e, d;
      int m = qmark(), k, ty, at;
      mpq_ptr ex = qnew();
      dfun c;
      q_class qc;
      memset(v, 0, sizeof v);
      gc->gen(kind, i, v);
      CF(round_case)(v, gc->nv);
      s = max_abs(x, fnv[f]);
      qc =
          fclass[f](ex, x, CTAU, 32 * ((double)PROX_EPS) * s * s, CMARGIN * ((double)PROX_EPS) * s);
      c.f = f;
      c.eps_x = 1;
      ty = CF(classify)(f, x, &at);
      c.type = at;
      d = CF(deval)(&c, x, 0, 0);
      e = CF(err)(f, d, ex, x);
      stat_add(&sa, e);
      CHECK_BOUND(e, fbound[f], what[0]);
      CHECK(ty >= 0 && ty < nt);
      tstat_add(&ts, qc, ty, ((double)PROX_EPS) * s);
      if (!(qc.ambiguous || ty == qc.type) && g_verbose)
        fprintf(stderr,
                "%s: type %d exact %d margin %g lmargin %g mscale %g mtol %g s %g kind %d i %d\n",
                fname[f], ty, qc.type, qc.margin, qc.lmargin, qc.mscale,
                CMARGIN * ((double)PROX_EPS) * s, s, kind, i);
      if (!(qc.ambiguous || ty == qc.type) && g_verbose) {
        int q_;
        for (q_ = 0; q_ < 3 * fnv[f]; ++q_)
          fprintf(stderr, "%a%s", x[q_], q_ + 1 < 3 * fnv[f] ? ", " : "\n");
      }
      CHECK(qc.ambiguous || ty == qc.type);
      if (gc->bucket && (b = gc->bucket(kind, i)) >= 0) {
        stat_add(&sb[b], e);
        tstat_add(&tb[b], qc, ty, ((double)PROX_EPS) * s);
      }
      c.type = ty;
      CHECK(d == CF(deval)(&c, x, 0, 0));
      for (k = 0; k < nt; ++k) {
        int wc = foracle[f](ex, x, k);
        c.type = k;
        e = CF(err)(f, CF(deval)(&c, x, 0, 0), ex, x);
        stat_add(&st_all, e);
        if (wc) {
          stat_add(&st, e);
          CHECK_BOUND(e, fbound[f], what[1]);
        }
      }
      if (i % 8 == 0) {
        double g[12], h[144];
        c.type = at;
        CHECK(CF(deval)(&c, x, g, 0) == d);
        CHECK(CF(deval)(&c, x, g, h) == d);
      }
      qrelease(m);
    }
    report(prec, what[0], kind, &sa, 0, "eps S^2");
    report(prec, what[1], kind, &st, &st_all, "eps S^2");
    treport(prec, what[2], kind, &ts);
  }
  for (b = 0; b < gc->nbucket; ++b)
    printf("  %-6s %s: auto max %9.3g eps S^2 (n=%ld), type %ld/%ld agree, %ld within the margin "
           "(%ld differ), %ld near the threshold or tied (%ld differ)\n",
           prec, gc->bucket_name[b], sb[b].max, sb[b].n, tb[b].agree, tb[b].checked,
           tb[b].amb_margin, tb[b].amb_margin_diff, tb[b].amb_other, tb[b].amb_other_diff);
}

/* One test per K4 kernel with a type (the table of test_contact.c). */
#define CF_VALUES_TYPED(name, coords, degree, verts, type, bound, gen, shape)                      \
  PROX_KERNELS_TYPED_##type(                                                                       \
      static void CF(values_##name)(void) {                                                        \
        CF(values_typed)                                                                           \
        (F_##name);                                                                                \
      }, )
PROX_KERNELS_K4(CF_VALUES_TYPED)

/* ---- non-finite input, invalid types --------------------------------- */

static int CF(all_nan)(const PROX_REAL *x, int n) {
  int i;
  for (i = 0; i < n; ++i)
    if (x[i] == x[i]) return 0;
  return 1;
}

/* K4 kernel f on the vertices x, one of them non-finite: in every type
 * (AUTO included) the value and every gradient and Hessian entry NaN, and
 * a valid type from its classifier. */
static void CF(nonfinite_kernel)(int f, const double *x) {
  double g[12], h[144], val;
  int n = 3 * fnv[f], t, at;
  dfun c;
  c.f = f;
  c.eps_x = 1;
  for (t = 0; t <= (fntypes[f] > 1 ? fntypes[f] : 0); ++t) {
    c.type = t;
    val = CF(deval)(&c, x, 0, 0);
    CHECK(val != val);
    CF(deval)(&c, x, g, 0);
    CHECK(nan_all(g, n));
    CF(deval)(&c, x, g, h);
    CHECK(nan_all(g, n) && nan_all(h, n * n));
  }
  if (fntypes[f] > 1) {
    t = CF(classify)(f, x, &at);
    CHECK(t >= 0 && t < fntypes[f]);
  }
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
        double xd[12];
        int k, f;
        for (k = 0; k < 4; ++k) {
          v[k].x = (PROX_REAL)(0.25 * k);
          v[k].y = (PROX_REAL)(0.5 - 0.125 * k);
          v[k].z = (PROX_REAL)(k % 2);
        }
        if (ci == 0) v[vi].x = bad[b];
        if (ci == 1) v[vi].y = bad[b];
        if (ci == 2) v[vi].z = bad[b];
        /* Every K4 kernel of the registry that sees vertex vi (a
         * two-vertex kernel sees vertices 0, 1; a three-vertex one 0..2). */
        for (k = 0; k < 4; ++k) {
          xd[3 * k] = (double)v[k].x;
          xd[3 * k + 1] = (double)v[k].y;
          xd[3 * k + 2] = (double)v[k].z;
        }
        for (f = 0; f < F_MOLL; ++f)
          if (vi < fnv[f]) CF(nonfinite_kernel)(f, xd);
        {
          PROX_REAL x;
          int ty = (int)PROX_FN(prox_ipc_edge_edge_parallel_distance_type)(v[0], v[1], v[2], v[3]);
          CHECK(ty >= 0 && ty <= 7);
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
  /* Invalid type values (out of range) give NaN everywhere: every K4
   * kernel of the registry with a type. */
  {
    double xd[12], g[12], h[144];
    int k, f, bads[3] = {-1, 10, 1000};
    for (k = 0; k < 4; ++k) {
      xd[3 * k] = (double)(PROX_REAL)k;
      xd[3 * k + 1] = (double)(PROX_REAL)(1 - k);
      xd[3 * k + 2] = (double)(PROX_REAL)(k * 0.5);
    }
    for (f = 0; f < F_MOLL; ++f)
      for (k = 0; k < 3 && fntypes[f] > 1; ++k) {
        dfun c;
        int n = 3 * fnv[f];
        c.f = f;
        c.type = bads[k];
        c.eps_x = 1;
        g[0] = CF(deval)(&c, xd, 0, 0);
        CHECK(g[0] != g[0]);
        CF(deval)(&c, xd, g, 0);
        CHECK(nan_all(g, n));
        CF(deval)(&c, xd, g, h);
        CHECK(nan_all(g, n) && nan_all(h, n * n));
      }
  }
}

/* ---- degenerate input ------------------------------------------------- */

/* Every K4 kernel of the registry on the exactly degenerate configurations
 * of degen_case (coincident vertices, collinear, coplanar, parallel
 * edges), in every type and AUTO: the same checks for each kernel, driven
 * by the registry. The value against its exact oracle (contact_oracle.h,
 * whose formulas fall back as contact.h documents: a zero-length edge is
 * its first vertex, a zero-area triangle the line of its longest edge,
 * parallel lines the distance from ea0 to line b): a type's formula where
 * the oracle calls it well-conditioned, AUTO against the exact minimum on
 * every case; the gradient and Hessian calls return the same value; every
 * gradient and Hessian entry finite; the Hessian symmetric. g_nvalue /
 * 40 configurations of each case per kernel. */
static void CF(degenerate_registry)(void) {
  const char *prec = PROX_IS_DOUBLE ? "double" : "float";
  int f, nit = g_nvalue / 40 > 1 ? g_nvalue / 40 : 1;
  for (f = 0; f < F_MOLL; ++f) {
    int nt = fntypes[f], n = 3 * fnv[f], it, dc, t, k, j, sym;
    long cases = 0;
    stat st, sa;
    g_rng = kernel_rng(f);
    stat_init(&st);
    stat_init(&sa);
    for (it = 0; it < nit; ++it)
      for (dc = 0; dc < DEGEN_CASES; ++dc) {
        double v[4][3], *x = v[0];
        degen_case(dc, v);
        CF(round_case)(v, 4);
        ++cases;
        /* Each type (untyped: the formula), then AUTO (t == nt). */
        for (t = 0; t <= (nt > 1 ? nt : 0); ++t) {
          int m = qmark(), wc = 1;
          mpq_ptr ex = qnew();
          double g[12], h[144], val, e, s = max_abs(x, fnv[f]);
          dfun c;
          c.f = f;
          c.type = nt > 1 ? t : 0;
          c.eps_x = 1;
          if (nt > 1 && t == nt)
            fclass[f](ex, x, CTAU, 32 * ((double)PROX_EPS) * s * s,
                      CMARGIN * ((double)PROX_EPS) * s);
          else
            wc = foracle[f](ex, x, c.type);
          val = CF(deval)(&c, x, 0, 0);
          e = CF(err)(f, val, ex, x);
          if (nt > 1 && t == nt)
            stat_add(&sa, e);
          else if (wc)
            stat_add(&st, e);
          if (wc) CHECK_BOUND(e, fbound[f], fname[f]);
          CHECK(CF(deval)(&c, x, g, 0) == val);
          CHECK(all_finite(g, n));
          CHECK(CF(deval)(&c, x, g, h) == val);
          CHECK(all_finite(g, n) && all_finite(h, n * n));
          sym = 1;
          for (k = 0; k < n; ++k)
            for (j = 0; j < k; ++j)
              sym &= h[k * n + j] == h[j * n + k];
          CHECK(sym);
          qrelease(m);
        }
      }
    if (nt > 1)
      printf("  %-6s %-31s %ld cases: max %9.3g (types, n=%ld well-conditioned), %9.3g (AUTO, "
             "n=%ld) %s\n",
             prec, fname[f], cases, st.max, st.n, sa.max, sa.n,
             fdeg[f] == 4 ? "eps |ea|^2 |eb|^2" : "eps S^2");
    else
      printf("  %-6s %-31s %ld cases: max %9.3g (n=%ld well-conditioned) %s\n", prec, fname[f],
             cases, st.max, st.n, fdeg[f] == 4 ? "eps |ea|^2 |eb|^2" : "eps S^2");
  }
}

/* Known answers of particular kernels on particular degenerate
 * configurations: kernel-specific by nature (each names its kernels and
 * types), kept by hand. The classifiers' contracts on degenerate shapes
 * (contact.h: a zero-length edge never gives an interior type for itself,
 * a point triangle gives PROX_PT_P_T0, parallel edges never
 * PROX_EE_EA_EB), and the fallbacks bit for bit equal to the kernel they
 * fall back to (a peer: the point-point and point-line kernels), and the
 * zero gradient of the vertex a fallback drops. */
static void CF(degenerate_known)(void) {
  int i;
  for (i = 0; i < 2000; ++i) {
    double v[4][3];
    PROX_FN(prox_vec3) p, a, b, c;
    int ty;
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
    /* The plane of a zero-area triangle is the line of its longest edge
     * (t0 t1 here, first on the tie with t2 t0): nothing depends on t2. */
    CHECK(PROX_FN(prox_ipc_point_plane_distance)(p, a, b, b) ==
          PROX_FN(prox_ipc_point_line_distance)(p, a, b));
    PROX_FN(prox_ipc_point_plane_distance_hessian)(p, a, b, b, g, h);
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
      ty = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(a2, b2, c2, e2);
      CHECK(ty != PROX_EE_EA_EB);
    }
  }
}

static void CF(degenerate)(void) {
  CF(degenerate_known)();
  CF(degenerate_registry)();
}
