/* SPDX-License-Identifier: MIT */
/* Template (tests/test_mesh_build.c): the builder's tests for one
 * precision, on meshes generated here (no files needed). */

/* Brute-force check of n points of each of the five sets. */
static void PROX_FN(mb_check_all)(const PROX_FN(mc_mesh) * m, const PROX_FN(prox_bvh) * bvh,
                                  size_t n, uint64_t seed, const char *what) {
  PROX_FN(prox_vec3) *pts = (PROX_FN(prox_vec3) *)malloc(5 * n * sizeof *pts + 1);
  size_t i;
  if (!CHECK(pts != NULL)) return;
  PROX_FN(mc_query_sets)(m, n, seed, pts);
  /* The oracle's SIMD loop is the literal scalar loop. */
  for (i = 0; i < 5 * n; i += n / 4 + 1) {
    uint32_t ia, ib;
    PROX_REAL da = PROX_FN(mc_brute)(m, pts[i], PROX_INF, &ia);
    PROX_REAL db = PROX_FN(mc_brute_scalar)(m, pts[i], PROX_INF, &ib);
    CHECK(ia == ib && PROX_FN(mc_same)(da, db));
  }
  PROX_FN(mc_check_points)(m, bvh, pts, 5 * n, PROX_INF, what);
  free(pts);
}

/* A batch large enough to be put in a coherent order (which allocates
 * through the tree's allocator a): equal to brute force when that
 * allocation fails (the caller's order is kept) and when it does not, in 1
 * and 2 threads, with no block left behind. A few points are not finite
 * (NaN, found 0). */
static void PROX_FN(mb_check_batch_alloc)(const PROX_FN(mc_mesh) * m, const PROX_FN(prox_bvh) * bvh,
                                          mb_alloc *a) {
  size_t n = 400, i, nb = 5 * n;
  PROX_FN(prox_vec3) *pts = (PROX_FN(prox_vec3) *)malloc(nb * sizeof *pts);
  PROX_FN(prox_mesh_closest) *r = (PROX_FN(prox_mesh_closest) *)malloc(nb * sizeof *r);
  PROX_REAL *ex = (PROX_REAL *)malloc(nb * sizeof *ex);
  uint32_t *id = (uint32_t *)malloc(nb * sizeof *id);
  int mode, th;
  if (CHECK(pts && r && ex && id)) {
    PROX_FN(mc_query_sets)(m, n, 77, pts);
    pts[3].y = PROX_NAN;
    pts[nb / 2].z = PROX_INF;
    pts[nb - 1].x = -PROX_INF;
    for (i = 0; i < nb; ++i)
      ex[i] = PROX_FN(mc_brute)(m, pts[i], PROX_INF, &id[i]);
    for (mode = 0; mode < 2; ++mode) {
      for (th = 1; th <= 2; ++th) {
        long live = a->live, calls = a->calls;
        a->fail_at = mode == 0 ? a->calls : -1; /* 0: the next call fails */
        CHECK(PROX_FN(prox_bvh_closest_batch)(bvh, pts, nb, PROX_INF, r, th) == PROX_OK);
        CHECK_MSG(a->live == live && a->calls == calls + 1,
                  "batch, %s, %d threads: %ld calls, %ld blocks left",
                  mode ? "memory" : "no memory", th, a->calls - calls, a->live - live);
        for (i = 0; i < nb; ++i) {
          int finite = PROX_FABS(pts[i].x) <= PROX_REAL_MAX &&
                       PROX_FABS(pts[i].y) <= PROX_REAL_MAX && PROX_FABS(pts[i].z) <= PROX_REAL_MAX;
          int ok =
              finite ? r[i].found && r[i].triangle == id[i] && PROX_FN(mc_same)(r[i].sqdist, ex[i])
                     : !r[i].found && r[i].sqdist != r[i].sqdist;
          if (!CHECK_MSG(ok, "batch, %s, %d threads, point %zu", mode ? "memory" : "no memory", th,
                         i))
            break;
        }
      }
    }
    a->fail_at = -1;
  }
  free(pts);
  free(r);
  free(ex);
  free(id);
}

/* A batch of 70,000 points, above PROX_MESH_DETAIL_ORDER_PAR (65,536,
 * src/mesh/mesh_internal.h): with more than one thread its coherent order
 * is made in pieces, one a thread, with a second block (the pieces'
 * histograms) from the tree's allocator. In 1, 2 and 7 threads the single
 * queries' answers, bit for bit; with an allocator a (the tree's; may be
 * NULL), also with the batch's first allocation failing (the caller's
 * order) and its second (the order in one piece), and no block left. */
static void PROX_FN(mb_check_batch_big)(const PROX_FN(mc_mesh) * m, const PROX_FN(prox_bvh) * bvh,
                                        mb_alloc *a) {
  size_t n = 14000, nb = 5 * n, i;
  PROX_FN(prox_vec3) *pts = (PROX_FN(prox_vec3) *)malloc(nb * sizeof *pts);
  PROX_FN(prox_mesh_closest) *r = (PROX_FN(prox_mesh_closest) *)malloc(nb * sizeof *r);
  PROX_FN(prox_mesh_closest) *ex = (PROX_FN(prox_mesh_closest) *)malloc(nb * sizeof *ex);
  static const int th[3] = {1, 2, 7};
  int mode, t;
  if (CHECK(pts && r && ex)) {
    PROX_FN(mc_query_sets)(m, n, 91, pts);
    for (i = 0; i < nb; ++i)
      PROX_FN(prox_bvh_closest)(bvh, pts[i], PROX_INF, &ex[i]);
    for (mode = 0; mode < (a ? 3 : 1); ++mode)
      for (t = mode ? 1 : 0; t < (mode ? 2 : 3); ++t) {
        long live = a ? a->live : 0, calls = a ? a->calls : 0;
        if (a) a->fail_at = mode == 0 ? -1 : a->calls + (mode - 1);
        memset(r, 0xab, nb * sizeof *r);
        CHECK(PROX_FN(prox_bvh_closest_batch)(bvh, pts, nb, PROX_INF, r, th[t]) == PROX_OK);
        if (a)
          CHECK_MSG(a->live == live && a->calls == calls + (th[t] > 1 && mode != 1 ? 2 : 1),
                    "big batch, mode %d, %d threads: %ld calls, %ld blocks left", mode, th[t],
                    a->calls - calls, a->live - live);
        for (i = 0; i < nb; ++i)
          if (!CHECK_MSG(r[i].triangle == ex[i].triangle &&
                             PROX_FN(mc_same)(r[i].sqdist, ex[i].sqdist) &&
                             PROX_FN(mc_same)(r[i].point.x, ex[i].point.x) &&
                             PROX_FN(mc_same)(r[i].bary[2], ex[i].bary[2]),
                         "big batch, mode %d, %d threads, point %zu", mode, th[t], i))
            break;
      }
    if (a) a->fail_at = -1;
  }
  free(pts);
  free(r);
  free(ex);
}

static int PROX_FN(mb_make_sphere)(PROX_FN(mc_mesh) * m, int nu, int nv, uint64_t seed,
                                   int degenerate) {
  mb_gen g;
  int ok;
  if (!mb_sphere(&g, nu, nv, seed, degenerate)) return 0;
  ok = PROX_FN(mc_make)(m, g.v, g.nv, g.t, g.nt);
  /* The oracle's sphere filter (mesh_check.inl): these meshes' brute
   * force dominated the test's time under valgrind. */
  if (ok) PROX_FN(mc_cull)(m);
  mb_gen_free(&g);
  return ok;
}

static void PROX_FN(test_validate)(void) {
  PROX_REAL v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  uint32_t t[6] = {0, 1, 2, 0, 2, 1};
  PROX_FN(prox_mesh) m;
  PROX_FN(prox_bvh) *bvh = (PROX_FN(prox_bvh) *)&m; /* must become NULL */
  prox_error err;
  m.vertices = v;
  m.vertex_count = 4;
  m.stride = 0;
  m.indices = t;
  m.triangle_count = 2;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_OK);
  CHECK(err.status == PROX_OK && err.message[0] == '\0');
  CHECK(PROX_FN(prox_mesh_validate)(NULL, &err) == PROX_ERROR_INVALID_ARGUMENT);
  m.triangle_count = 0;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_MESH);
  CHECK(strstr(err.message, "no triangles") != NULL);
  CHECK(PROX_FN(prox_bvh_build)(&m, NULL, NULL, &bvh, &err) == PROX_ERROR_INVALID_MESH &&
        bvh == NULL);
  m.triangle_count = 2;
  m.indices = NULL;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_ARGUMENT);
  m.indices = t;
  m.vertices = NULL;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_ARGUMENT);
  m.vertices = v;
  t[4] = 7;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_MESH);
  CHECK_MSG(strstr(err.message, "triangle 1") != NULL &&
                strstr(err.message, "out of range") != NULL,
            "%s", err.message);
  t[4] = 2;
  /* A NaN in an unreferenced vertex is fine; in a referenced one not. */
  v[9] = PROX_NAN;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_OK);
  t[5] = 3;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_MESH);
  CHECK_MSG(strstr(err.message, "triangle 1") != NULL && strstr(err.message, "vertex 3") != NULL &&
                strstr(err.message, "non-finite") != NULL,
            "%s", err.message);
  bvh = (PROX_FN(prox_bvh) *)&m;
  CHECK(PROX_FN(prox_bvh_build)(&m, NULL, NULL, &bvh, &err) == PROX_ERROR_INVALID_MESH &&
        bvh == NULL);
  v[9] = PROX_INF;
  CHECK(PROX_FN(prox_mesh_validate)(&m, NULL) == PROX_ERROR_INVALID_MESH);
  v[9] = 0;
  CHECK(PROX_FN(prox_mesh_validate)(&m, NULL) == PROX_OK);
  m.stride = 2 * sizeof(PROX_REAL);
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_ARGUMENT);
  m.stride = 3 * sizeof(PROX_REAL) + 1;
  CHECK(PROX_FN(prox_mesh_validate)(&m, &err) == PROX_ERROR_INVALID_ARGUMENT);
  m.stride = 0;
  {
    prox_bvh_options o = prox_bvh_options_default();
    o.leaf_size = -1;
    CHECK(PROX_FN(prox_bvh_build)(&m, &o, NULL, &bvh, &err) == PROX_ERROR_INVALID_ARGUMENT);
  }
  CHECK(PROX_FN(prox_bvh_build)(&m, NULL, NULL, NULL, &err) == PROX_ERROR_INVALID_ARGUMENT);
  /* More triangles than a tree numbers (2^31; the arrays are not read:
   * they hold 2). */
  m.triangle_count = (size_t)1 << 31;
  bvh = (PROX_FN(prox_bvh) *)&m;
  CHECK(PROX_FN(prox_bvh_build)(&m, NULL, NULL, &bvh, &err) == PROX_ERROR_INVALID_MESH &&
        bvh == NULL);
  CHECK_MSG(strstr(err.message, "2147483648 triangles") != NULL &&
                strstr(err.message, "at most") != NULL,
            "%s", err.message);
  m.triangle_count = 2;
}

/* A strided mesh (padding NaN, never read) answers as the packed one. */
static void PROX_FN(test_stride)(void) {
  PROX_FN(mc_mesh) m;
  PROX_FN(prox_mesh) sm;
  PROX_REAL *sv;
  PROX_FN(prox_bvh) * bvh;
  size_t i;
  if (!CHECK(PROX_FN(mb_make_sphere)(&m, 20, 12, 5, 1))) return;
  sv = (PROX_REAL *)malloc(5 * m.nv * sizeof *sv);
  if (!CHECK(sv != NULL)) {
    PROX_FN(mc_free)(&m);
    return;
  }
  for (i = 0; i < m.nv; ++i) {
    sv[5 * i] = m.v[3 * i];
    sv[5 * i + 1] = m.v[3 * i + 1];
    sv[5 * i + 2] = m.v[3 * i + 2];
    sv[5 * i + 3] = sv[5 * i + 4] = PROX_NAN;
  }
  sm = m.view;
  sm.vertices = sv;
  sm.stride = 5 * sizeof(PROX_REAL);
  if (CHECK(PROX_FN(prox_bvh_build)(&sm, NULL, NULL, &bvh, NULL) == PROX_OK)) {
    PROX_FN(mb_check_all)(&m, bvh, (size_t)h_count(300), 77, "stride");
    PROX_FN(prox_bvh_free)(bvh);
  }
  free(sv);
  PROX_FN(mc_free)(&m);
}

/* The generated sphere with degenerate triangles, several leaf sizes. */
static void PROX_FN(test_closest_generated)(void) {
  PROX_FN(mc_mesh) m;
  int leaf;
  if (!CHECK(PROX_FN(mb_make_sphere)(&m, 60, 40, 9, 1))) return;
  for (leaf = 1; leaf <= 64; leaf *= 4) {
    prox_bvh_options o = prox_bvh_options_default();
    PROX_FN(prox_bvh) * bvh;
    prox_bvh_stats st;
    o.leaf_size = leaf;
    if (!CHECK(PROX_FN(prox_bvh_build)(&m.view, &o, NULL, &bvh, NULL) == PROX_OK)) continue;
    PROX_FN(prox_bvh_get_stats)(bvh, &st);
    CHECK(st.triangles == m.nt && st.nodes >= 1 && st.leaves >= 1 && st.depth >= 1 &&
          st.depth <= PROX_BVH_MAX_DEPTH && st.bytes == PROX_FN(prox_bvh_memory)(bvh) &&
          st.bytes_per_triangle > 9 * sizeof(PROX_REAL));
    PROX_FN(mb_check_all)
    (&m, bvh, (size_t)h_count(1000), 11 + (uint64_t)leaf, "generated");
    {
      PROX_FN(prox_vec3) pts[64];
      int lev, was = prox_simd_level();
      PROX_FN(mc_query_sets)(&m, 12, 3, pts);
      PROX_FN(mc_check_within)(&m, bvh, pts, 60);
      /* Every SIMD level the CPU has: the same answers. */
      for (lev = PROX_SIMD_SCALAR; lev <= PROX_SIMD_AVX512; ++lev) {
        const char *nm = prox_simd_name(lev);
        if (!prox_simd_set(lev)) continue;
        PROX_FN(mc_check_points)(&m, bvh, pts, 60, PROX_INF, nm);
      }
      prox_simd_set(was);
    }
    PROX_FN(prox_bvh_free)(bvh);
  }
  {
    /* The default leaf size (0): the same tree, node for node, as 16 in
     * float at the AVX-512 level and as 8 otherwise (prox/bvh.h). */
    prox_bvh_options o = prox_bvh_options_default();
    PROX_FN(prox_bvh) *b0 = NULL, *b1 = NULL;
    PROX_FN(prox_bvh_view) v0, v1;
    CHECK(o.leaf_size == 0);
    CHECK(PROX_FN(prox_bvh_build)(&m.view, &o, NULL, &b0, NULL) == PROX_OK);
    o.leaf_size = !PROX_IS_DOUBLE && prox_simd_level() >= PROX_SIMD_AVX512 ? 16 : 8;
    CHECK(PROX_FN(prox_bvh_build)(&m.view, &o, NULL, &b1, NULL) == PROX_OK);
    if (b0 && b1) {
      PROX_FN(prox_bvh_get_view)(b0, &v0);
      PROX_FN(prox_bvh_get_view)(b1, &v1);
      CHECK(v0.node_count == v1.node_count &&
            memcmp(v0.nodes, v1.nodes, v0.node_count * sizeof *v0.nodes) == 0 &&
            memcmp(v0.ids, v1.ids, m.nt * sizeof *v0.ids) == 0);
    }
    PROX_FN(prox_bvh_free)(b0);
    PROX_FN(prox_bvh_free)(b1);
  }
  CHECK(PROX_FN(prox_bvh_memory)(NULL) == 0);
  PROX_FN(mc_free)(&m);
}

/* One triangle; copies of one triangle; collinear vertices; repeated
 * vertices: answers as brute force (ties to the lowest index). */
static void PROX_FN(test_degenerate)(void) {
  static const double tri[9] = {0, 0, 0, 1, 0, 0, 0.25, 0.75, 0.5};
  int which;
  for (which = 0; which < 4; ++which) {
    size_t nt = which == 0 ? 1 : 1000, nv = which == 2 ? nt + 2 : 3, i;
    double *v = (double *)malloc(3 * nv * sizeof *v);
    uint32_t *t = (uint32_t *)malloc(3 * nt * sizeof *t);
    PROX_FN(mc_mesh) m;
    PROX_FN(prox_bvh) * bvh;
    oracle_rng s = oracle_rng_make(99);
    if (!CHECK(v && t)) {
      free(v);
      free(t);
      return;
    }
    if (which == 2) {
      /* collinear: all vertices on one line, triangles of random ones */
      for (i = 0; i < nv; ++i) {
        double u = oracle_rng_range(&s, -1, 1);
        v[3 * i] = u;
        v[3 * i + 1] = 2 * u;
        v[3 * i + 2] = -u;
      }
      for (i = 0; i < 3 * nt; ++i)
        t[i] = (uint32_t)(oracle_rng_next(&s) % nv);
    } else {
      memcpy(v, tri, sizeof tri);
      for (i = 0; i < nt; ++i) {
        t[3 * i] = 0;
        t[3 * i + 1] = 1;
        t[3 * i + 2] = which == 3 && i % 2 ? 1 : 2; /* some repeat a vertex */
      }
    }
    if (CHECK(PROX_FN(mc_make)(&m, v, nv, t, nt))) {
      if (CHECK(PROX_FN(prox_bvh_build)(&m.view, NULL, NULL, &bvh, NULL) == PROX_OK)) {
        PROX_FN(mb_check_all)
        (&m, bvh, (size_t)h_count(300), 5 + (uint64_t)which, "degenerate");
        PROX_FN(prox_bvh_free)(bvh);
      }
      PROX_FN(mc_free)(&m);
    }
    free(v);
    free(t);
  }
}

/* A sphere with 32 triangles far out (a vertex at +-1e60 on an axis, 16
 * of them with a second at the opposite end; in double beyond float
 * range, so the builder's float boxes of those triangles are infinite and
 * their centroids infinite or NaN, which bin to bin 0; float: 1e9) and 32
 * tiny ones at its centre (1e-60; float 1e-9):
 * the same tree for 1, 2 and 7 threads, answers as brute force on the
 * query sets of the sphere alone and of the whole mesh. Magnitudes stay
 * within the kernels' domain (prox/closest.h). */
static void PROX_FN(test_wide_range)(void) {
  const double huge = PROX_IS_DOUBLE ? 1e60 : 1e9, tiny = PROX_IS_DOUBLE ? 1e-60 : 1e-9;
  mb_gen g;
  PROX_FN(mc_mesh) m, ms;
  PROX_FN(prox_bvh) * b[3];
  PROX_FN(prox_bvh_view) vw[3];
  static const int th[3] = {1, 2, 7};
  PROX_FN(prox_vec3) * pts;
  size_t n = (size_t)h_count(200), nv0, nt0, j;
  double *v;
  uint32_t *t;
  oracle_rng s = oracle_rng_make(31);
  int k;
  if (!CHECK(mb_sphere(&g, 160, 120, 31, 1))) return;
  nv0 = g.nv;
  nt0 = g.nt;
  v = (double *)realloc(g.v, 3 * (nv0 + 3 * 64) * sizeof *v);
  if (v) g.v = v;
  t = (uint32_t *)realloc(g.t, 3 * (nt0 + 64) * sizeof *t);
  if (t) g.t = t;
  if (!CHECK(v && t)) {
    mb_gen_free(&g);
    return;
  }
  for (j = 0; j < 64; ++j) {
    size_t q = nv0 + 3 * j;
    int c;
    for (c = 0; c < 9; ++c)
      v[3 * q + (size_t)c] =
          j < 32 ? oracle_rng_range(&s, -1, 1) : tiny * oracle_rng_range(&s, -1, 1);
    if (j < 32) v[3 * q + j % 3] = (j & 4 ? -huge : huge) * (1 + oracle_rng_unit(&s));
    /* half of them across: from -huge to +huge on one axis (a NaN
     * centroid in double: -inf / 2 + inf / 2) */
    if (j < 16) v[3 * (q + 1) + j % 3] = -v[3 * q + j % 3];
    t[3 * (nt0 + j)] = (uint32_t)q;
    t[3 * (nt0 + j) + 1] = (uint32_t)(q + 1);
    t[3 * (nt0 + j) + 2] = (uint32_t)(q + 2);
  }
  g.nv = nv0 + 3 * 64;
  g.nt = nt0 + 64;
  k = PROX_FN(mc_make)(&m, g.v, g.nv, g.t, g.nt);
  if (k) k = PROX_FN(mc_make)(&ms, g.v, nv0, g.t, nt0);
  mb_gen_free(&g);
  if (!CHECK(k)) return;
  for (k = 0; k < 3; ++k) {
    prox_bvh_options o = prox_bvh_options_default();
    o.threads = th[k];
    b[k] = NULL;
    CHECK(PROX_FN(prox_bvh_build)(&m.view, &o, NULL, &b[k], NULL) == PROX_OK);
    if (b[k]) PROX_FN(prox_bvh_get_view)(b[k], &vw[k]);
  }
  for (k = 1; k < 3; ++k) {
    if (!b[0] || !b[k]) break;
    if (!CHECK(vw[k].node_count == vw[0].node_count)) break;
    CHECK_MSG(memcmp(vw[k].nodes, vw[0].nodes, vw[0].node_count * sizeof *vw[0].nodes) == 0 &&
                  memcmp(vw[k].ids, vw[0].ids, m.nt * sizeof *vw[0].ids) == 0,
              "wide range: the tree differs with %d threads", th[k]);
  }
  pts = (PROX_FN(prox_vec3) *)malloc(5 * n * sizeof *pts + 1);
  if (b[1] && CHECK(pts != NULL)) {
    PROX_FN(mc_query_sets)(&ms, n, 32, pts);
    PROX_FN(mc_check_points)(&m, b[1], pts, 5 * n, PROX_INF, "wide range, sphere's sets");
    PROX_FN(mb_check_all)(&m, b[1], n, 33, "wide range");
  }
  free(pts);
  for (k = 0; k < 3; ++k)
    PROX_FN(prox_bvh_free)(b[k]);
  PROX_FN(mc_free)(&m);
  PROX_FN(mc_free)(&ms);
}

/* A million copies of one triangle: bounded time and memory, ties to 0. */
static void PROX_FN(test_million_copies)(void) {
  size_t nt = (size_t)h_count(1000000), i;
  PROX_REAL v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  uint32_t *t = (uint32_t *)malloc(3 * nt * sizeof *t);
  PROX_FN(prox_mesh) m;
  PROX_FN(prox_bvh) * bvh;
  prox_bvh_stats st;
  oracle_rng s = oracle_rng_make(4);
  clock_t c0 = clock();
  if (!CHECK(t != NULL)) return;
  for (i = 0; i < 3 * nt; ++i)
    t[i] = (uint32_t)(i % 3);
  m.vertices = v;
  m.vertex_count = 3;
  m.stride = 0;
  m.indices = t;
  m.triangle_count = nt;
  if (CHECK(PROX_FN(prox_bvh_build)(&m, NULL, NULL, &bvh, NULL) == PROX_OK)) {
    PROX_FN(prox_bvh_get_stats)(bvh, &st);
    h_note("%zu copies: %zu nodes, depth %d, %.1f bytes per triangle, %.2f s", nt, st.nodes,
           st.depth, st.bytes_per_triangle, (double)(clock() - c0) / CLOCKS_PER_SEC);
    CHECK(st.depth <= PROX_BVH_MAX_DEPTH);
    CHECK(st.bytes_per_triangle < 9 * sizeof(PROX_REAL) + 4 + 64);
    for (i = 0; i < 100; ++i) {
      PROX_FN(prox_vec3)
      p = PROX_FN(prox_v3)((PROX_REAL)oracle_rng_range(&s, -1, 1),
                           (PROX_REAL)oracle_rng_range(&s, -1, 1),
                           (PROX_REAL)oracle_rng_range(&s, -1, 1));
      PROX_FN(prox_mesh_closest) r;
      PROX_FN(prox_triangle) tr;
      PROX_REAL d;
      tr.v[0] = PROX_FN(prox_v3)(0, 0, 0);
      tr.v[1] = PROX_FN(prox_v3)(1, 0, 0);
      tr.v[2] = PROX_FN(prox_v3)(0, 1, 0);
      d = PROX_FN(prox_point_triangle)(p, &tr, NULL);
      PROX_FN(prox_bvh_closest)(bvh, p, PROX_INF, &r);
      if (!CHECK(r.found && r.triangle == 0 && PROX_FN(mc_same)(r.sqdist, d))) break;
    }
    PROX_FN(prox_bvh_free)(bvh);
  }
  free(t);
}

/* The tree is the same, node for node, for 1, 2 and 7 threads. */
static void PROX_FN(test_threads_identical)(void) {
  PROX_FN(mc_mesh) m;
  PROX_FN(prox_bvh) * b[3];
  PROX_FN(prox_bvh_view) vw[3];
  static const int th[3] = {1, 2, 7};
  int k;
  /* More than 2 x 16384 triangles, so that the build queues tasks, splits
   * its passes over the mesh into chunks for the threads and collapses
   * subtrees in parallel (from 32768 triangles). */
  if (!CHECK(PROX_FN(mb_make_sphere)(&m, 160, 120, 21, 1))) return;
  for (k = 0; k < 3; ++k) {
    prox_bvh_options o = prox_bvh_options_default();
    o.threads = th[k];
    b[k] = NULL;
    CHECK(PROX_FN(prox_bvh_build)(&m.view, &o, NULL, &b[k], NULL) == PROX_OK);
    PROX_FN(prox_bvh_get_view)(b[k], &vw[k]);
  }
  for (k = 1; k < 3; ++k) {
    if (!b[0] || !b[k]) break;
    CHECK(vw[k].node_count == vw[0].node_count && vw[k].triangle_count == vw[0].triangle_count);
    if (vw[k].node_count != vw[0].node_count) break;
    CHECK_MSG(memcmp(vw[k].nodes, vw[0].nodes, vw[0].node_count * sizeof *vw[0].nodes) == 0,
              "nodes differ, %d threads", th[k]);
    CHECK(memcmp(vw[k].ids, vw[0].ids, m.nt * sizeof *vw[0].ids) == 0);
    CHECK(memcmp(vw[k].tri, vw[0].tri, 9 * m.nt * sizeof(PROX_REAL)) == 0);
  }
  if (b[1]) PROX_FN(mb_check_all)(&m, b[1], (size_t)h_count(200), 8, "threads");
  if (b[1]) PROX_FN(mb_check_batch_big)(&m, b[1], NULL);
  for (k = 0; k < 3; ++k)
    PROX_FN(prox_bvh_free)(b[k]);
  PROX_FN(mc_free)(&m);
}

/* Allocation failure at the k-th call, for every k: an error, no leak. */
static void PROX_FN(test_alloc_failure)(void) {
  PROX_FN(mc_mesh) m;
  int th;
  if (!CHECK(PROX_FN(mb_make_sphere)(&m, 100, 60, 31, 0))) return;
  for (th = 1; th <= 2; ++th) {
    long k;
    for (k = 0;; ++k) {
      mb_alloc a = {0, 0, 0, 0};
      prox_allocator al;
      prox_bvh_options o = prox_bvh_options_default();
      PROX_FN(prox_bvh) *bvh = NULL;
      prox_error err;
      prox_status st;
      a.fail_at = k;
      al.alloc = mb_alloc_fn;
      al.free = mb_free_fn;
      al.user = &a;
      o.threads = th;
      st = PROX_FN(prox_bvh_build)(&m.view, &o, &al, &bvh, &err);
      if (st == PROX_OK) {
        CHECK(k >= 4 && a.live > 0);
        PROX_FN(mb_check_all)(&m, bvh, 20, 3, "allocator");
        PROX_FN(mb_check_batch_alloc)(&m, bvh, &a);
        if (th == 2) PROX_FN(mb_check_batch_big)(&m, bvh, &a);
        PROX_FN(prox_bvh_free)(bvh);
        CHECK(a.live == 0 && a.live_bytes == 0);
        break;
      }
      CHECK_MSG(st == PROX_ERROR_OUT_OF_MEMORY && bvh == NULL && err.status == st && a.live == 0 &&
                    a.live_bytes == 0,
                "fail at %ld: status %d, %ld live", k, (int)st, a.live);
      if (k > 100) {
        CHECK(0);
        break;
      }
    }
  }
  PROX_FN(mc_free)(&m);
}

/* Refit after the vertices move: brute force on the moved mesh. */
static void PROX_FN(test_refit)(void) {
  PROX_FN(mc_mesh) m, m2;
  PROX_FN(prox_bvh) * bvh;
  mb_gen g;
  size_t i;
  oracle_rng s = oracle_rng_make(12);
  prox_error err;
  if (!CHECK(mb_sphere(&g, 50, 30, 41, 1))) return;
  if (!CHECK(PROX_FN(mc_make)(&m, g.v, g.nv, g.t, g.nt))) {
    mb_gen_free(&g);
    return;
  }
  if (CHECK(PROX_FN(prox_bvh_build)(&m.view, NULL, NULL, &bvh, NULL) == PROX_OK)) {
    /* Stretch, twist and shake. */
    for (i = 0; i < g.nv; ++i) {
      double x = g.v[3 * i], y = g.v[3 * i + 1], z = g.v[3 * i + 2];
      g.v[3 * i] = 2 * x + 0.3 * z + 0.05 * oracle_rng_range(&s, -1, 1);
      g.v[3 * i + 1] = y - 0.5 * x;
      g.v[3 * i + 2] = 0.5 * z + 0.05 * oracle_rng_range(&s, -1, 1);
    }
    if (CHECK(PROX_FN(mc_make)(&m2, g.v, g.nv, g.t, g.nt))) {
      CHECK(PROX_FN(prox_bvh_refit)(bvh, &m2.view, &err) == PROX_OK);
      PROX_FN(mb_check_all)(&m2, bvh, (size_t)h_count(500), 13, "refit");
      m2.view.triangle_count -= 1;
      CHECK(PROX_FN(prox_bvh_refit)(bvh, &m2.view, &err) == PROX_ERROR_INVALID_MESH);
      m2.view.triangle_count += 1;
      PROX_FN(mc_free)(&m2);
    }
    PROX_FN(prox_bvh_free)(bvh);
  }
  PROX_FN(mc_free)(&m);
  mb_gen_free(&g);
}

/* Non-finite query points; maximum distances. */
static void PROX_FN(test_query_edges)(void) {
  PROX_FN(mc_mesh) m;
  PROX_FN(prox_bvh) * bvh;
  PROX_FN(prox_mesh_closest) r;
  PROX_REAL d;
  uint32_t ids[4];
  if (!CHECK(PROX_FN(mb_make_sphere)(&m, 16, 10, 2, 0))) return;
  if (CHECK(PROX_FN(prox_bvh_build)(&m.view, NULL, NULL, &bvh, NULL) == PROX_OK)) {
    d = PROX_FN(prox_bvh_closest)(bvh, PROX_FN(prox_v3)(PROX_NAN, 0, 0), PROX_INF, &r);
    CHECK(d != d && !r.found && r.triangle == UINT32_MAX);
    d = PROX_FN(prox_bvh_closest)(bvh, PROX_FN(prox_v3)(0, PROX_INF, 0), PROX_INF, &r);
    CHECK(d != d && !r.found);
    d = PROX_FN(prox_bvh_closest)(bvh, PROX_FN(prox_v3)(0, 0, 0), PROX_NAN, &r);
    CHECK(d != d && !r.found);
    /* The centre of the unit sphere is about 1 from it. */
    d = PROX_FN(prox_bvh_closest)(bvh, PROX_FN(prox_v3)(0, 0, 0), PROX_R(0.25), &r);
    CHECK(d == PROX_R(0.25) && !r.found && r.triangle == UINT32_MAX &&
          r.feature.kind == PROX_FEATURE_NONE);
    CHECK(PROX_FN(prox_bvh_within)(bvh, PROX_FN(prox_v3)(0, 0, 0), PROX_R(0.25), ids, NULL, 4) ==
          0);
    CHECK(PROX_FN(prox_bvh_within)(bvh, PROX_FN(prox_v3)(PROX_NAN, 0, 0), PROX_INF, ids, NULL, 4) ==
          0);
    CHECK(PROX_FN(prox_bvh_within)(bvh, PROX_FN(prox_v3)(0, 0, 0), PROX_INF, NULL, NULL, 0) ==
          m.nt);
    CHECK(PROX_FN(prox_bvh_closest)(bvh, PROX_FN(prox_v3)(0, 0, 0), PROX_INF, NULL) > PROX_R(0.5));
    PROX_FN(prox_bvh_free)(bvh);
  }
  PROX_FN(prox_bvh_free)(NULL);
  PROX_FN(mc_free)(&m);
}

typedef struct PROX_FN(mb_conc) {
  const PROX_FN(prox_bvh) * bvh;
  const PROX_FN(prox_vec3) * pts;
  size_t n;
  const PROX_FN(prox_mesh_closest) * expect;
  int worker;
  long bad;
} PROX_FN(mb_conc);

static void *PROX_FN(mb_conc_main)(void *arg) {
  PROX_FN(mb_conc) *c = (PROX_FN(mb_conc) *)arg;
  size_t i, j;
  c->bad = 0;
  for (j = 0; j < c->n; ++j) {
    PROX_FN(prox_mesh_closest) r;
    i = (j * 7 + (size_t)c->worker * 131) % c->n; /* each its own order */
    PROX_FN(prox_bvh_closest)(c->bvh, c->pts[i], PROX_INF, &r);
    if (r.triangle != c->expect[i].triangle || !PROX_FN(mc_same)(r.sqdist, c->expect[i].sqdist))
      ++c->bad;
  }
  return NULL;
}

/* Many threads query one tree at once (run it under ThreadSanitizer as
 * tests/test_mesh_build.c says). */
static void PROX_FN(test_concurrent)(void) {
  enum { NT = 6 };
  PROX_FN(mc_mesh) m;
  PROX_FN(prox_bvh) * bvh;
  size_t n = (size_t)h_count(2000), i;
  PROX_FN(prox_vec3) * pts;
  PROX_FN(prox_mesh_closest) * ex;
  if (!CHECK(PROX_FN(mb_make_sphere)(&m, 80, 50, 6, 1))) return;
  pts = (PROX_FN(prox_vec3) *)malloc(5 * n * sizeof *pts);
  ex = (PROX_FN(prox_mesh_closest) *)malloc(5 * n * sizeof *ex);
  if (CHECK(pts && ex) &&
      CHECK(PROX_FN(prox_bvh_build)(&m.view, NULL, NULL, &bvh, NULL) == PROX_OK)) {
    pthread_t tid[NT];
    int started[NT];
    PROX_FN(mb_conc) c[NT];
    int k;
    PROX_FN(mc_query_sets)(&m, n, 17, pts);
    for (i = 0; i < 5 * n; ++i) {
      uint32_t id;
      ex[i].sqdist = PROX_FN(mc_brute)(&m, pts[i], PROX_INF, &id);
      ex[i].triangle = id;
    }
    for (k = 0; k < NT; ++k) {
      c[k].bvh = bvh;
      c[k].pts = pts;
      c[k].n = 5 * n;
      c[k].expect = ex;
      c[k].worker = k;
      c[k].bad = -1;
      started[k] = pthread_create(&tid[k], NULL, PROX_FN(mb_conc_main), &c[k]) == 0;
    }
    for (k = 0; k < NT; ++k) {
      if (started[k])
        pthread_join(tid[k], NULL);
      else
        PROX_FN(mb_conc_main)(&c[k]);
    }
    for (k = 0; k < NT; ++k)
      CHECK_MSG(c[k].bad == 0, "thread %d: %ld", k, c[k].bad);
    /* Batches in 1, 2 and 7 threads equal the brute force. */
    {
      static const int th[3] = {1, 2, 7};
      PROX_FN(prox_mesh_closest) *r = (PROX_FN(prox_mesh_closest) *)malloc(5 * n * sizeof *r);
      int t;
      for (t = 0; r && t < 3; ++t) {
        CHECK(PROX_FN(prox_bvh_closest_batch)(bvh, pts, 5 * n, PROX_INF, r, th[t]) == PROX_OK);
        for (i = 0; i < 5 * n; ++i)
          if (!CHECK_MSG(r[i].triangle == ex[i].triangle &&
                             PROX_FN(mc_same)(r[i].sqdist, ex[i].sqdist),
                         "batch %d threads, point %zu", th[t], i))
            break;
      }
      /* An engine's split: ranges in reverse order. */
      if (r) {
        size_t b0;
        memset(r, 0, 5 * n * sizeof *r);
        for (b0 = 5 * n; b0 > 0;) {
          size_t b1 = b0, len = 1 + (b0 * 7919) % 97;
          b0 = b0 > len ? b0 - len : 0;
          PROX_FN(prox_bvh_closest_range)(bvh, pts, PROX_INF, r, b0, b1);
        }
        for (i = 0; i < 5 * n; ++i)
          if (!CHECK(r[i].triangle == ex[i].triangle &&
                     PROX_FN(mc_same)(r[i].sqdist, ex[i].sqdist)))
            break;
      }
      free(r);
    }
    PROX_FN(prox_bvh_free)(bvh);
  }
  free(pts);
  free(ex);
  PROX_FN(mc_free)(&m);
}
