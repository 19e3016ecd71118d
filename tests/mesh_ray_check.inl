/* SPDX-License-Identifier: MIT */
/* Template of tests/test_mesh_ray.c, once per precision: a mesh and its
 * tree, the brute-force oracle (prox_raycast_triangle() on every triangle
 * in index order, the crossing's side decided in exact rationals) and the
 * comparison of every ray query with it. */

/* A mesh of this precision with its tree. */
typedef struct PROX_FN(rt_mesh) {
  const char *name;
  size_t nv, nt;
  PROX_REAL *v;
  uint32_t *t;
  PROX_FN(prox_bvh) * bvh;
  double lo[3], hi[3], diag;
  int closed; /* closed and consistently oriented outward */
  /* The brute force's filter (rt_spheres): a sphere around each triangle
   * (centre x, y, z, radius) in the order order[], and the spheres of
   * its runs and groups (tests/sphere_filter.h); NULL when they could not
   * be made. */
  double *sph, *run;
  uint32_t *order;
} PROX_FN(rt_mesh);

static void PROX_FN(rt_free)(PROX_FN(rt_mesh) * m) {
  PROX_FN(prox_bvh_free)(m->bvh);
  free(m->v);
  free(m->t);
  free(m->sph);
  free(m->run);
  free(m->order);
  memset(m, 0, sizeof *m);
}

/* The corners of triangle i of m in double (sf_corners_fn). */
static void PROX_FN(rt_corners)(const void *ctx, size_t i, double *c) {
  const PROX_FN(rt_mesh) *m = (const PROX_FN(rt_mesh) *)ctx;
  int j, k;
  for (j = 0; j < 3; ++j)
    for (k = 0; k < 3; ++k)
      c[3 * j + k] = (double)m->v[3 * (size_t)m->t[3 * i + (size_t)j] + (size_t)k];
}

/* The spheres of the brute force's filter (see rt_mesh and
 * tests/sphere_filter.h). Left NULL (no filter) when an allocation
 * fails. */
static void PROX_FN(rt_spheres)(PROX_FN(rt_mesh) * m) {
  size_t n = m->nt ? m->nt : 1, nr = (m->nt + SF_RUN - 1) / SF_RUN, ng = (nr + SF_RUN - 1) / SF_RUN;
  m->sph = (double *)malloc(4 * n * sizeof *m->sph);
  m->run = (double *)malloc(4 * (nr + ng + 1) * sizeof *m->run);
  m->order = (uint32_t *)malloc(n * sizeof *m->order);
  if (!m->sph || !m->run || !m->order ||
      !sf_make(PROX_FN(rt_corners), m, m->nt, m->lo, m->hi, m->order, m->sph, m->run)) {
    free(m->sph);
    free(m->run);
    free(m->order);
    m->sph = m->run = NULL;
    m->order = NULL;
  }
}

/* Copies the arrays in this precision and builds the tree with leaf
 * size leaf (0: the default). Returns 1 on success. */
static int PROX_FN(rt_make)(PROX_FN(rt_mesh) * m, const char *name, const double *v, size_t nv,
                            const uint32_t *t, size_t nt, int closed, int leaf) {
  PROX_FN(prox_mesh) mesh;
  prox_bvh_options opt = prox_bvh_options_default();
  prox_error err;
  size_t i;
  int k;
  memset(m, 0, sizeof *m);
  m->name = name;
  m->nv = nv;
  m->nt = nt;
  m->closed = closed;
  m->v = (PROX_REAL *)malloc(3 * nv * sizeof *m->v);
  m->t = (uint32_t *)malloc(3 * nt * sizeof *m->t);
  for (i = 0; i < 3 * nv; ++i)
    m->v[i] = (PROX_REAL)v[i];
  memcpy(m->t, t, 3 * nt * sizeof *t);
  for (k = 0; k < 3; ++k) {
    m->lo[k] = INFINITY;
    m->hi[k] = -INFINITY;
  }
  for (i = 0; i < 3 * nt; ++i)
    for (k = 0; k < 3; ++k) {
      double c = (double)m->v[3 * (size_t)t[i] + (size_t)k];
      if (c < m->lo[k]) m->lo[k] = c;
      if (c > m->hi[k]) m->hi[k] = c;
    }
  m->diag = sqrt((m->hi[0] - m->lo[0]) * (m->hi[0] - m->lo[0]) +
                 (m->hi[1] - m->lo[1]) * (m->hi[1] - m->lo[1]) +
                 (m->hi[2] - m->lo[2]) * (m->hi[2] - m->lo[2]));
  mesh.vertices = m->v;
  mesh.vertex_count = nv;
  mesh.stride = 0;
  mesh.indices = m->t;
  mesh.triangle_count = nt;
  if (leaf) opt.leaf_size = leaf;
  PROX_FN(rt_spheres)(m);
  if (PROX_FN(prox_bvh_build)(&mesh, &opt, NULL, &m->bvh, &err) != PROX_OK) {
    CHECK_MSG(0, "%s: build failed: %s", name, err.message);
    return 0;
  }
  return 1;
}

static PROX_FN(prox_triangle) PROX_FN(rt_tri)(const PROX_FN(rt_mesh) * m, size_t i) {
  PROX_FN(prox_triangle) r;
  int k;
  for (k = 0; k < 3; ++k) {
    const PROX_REAL *p = m->v + 3 * (size_t)m->t[3 * i + (size_t)k];
    r.v[k] = PROX_FN(prox_v3)(p[0], p[1], p[2]);
  }
  return r;
}

/* The exact sign of dot(d, (b - a) x (c - a)), in rationals. */
static int PROX_FN(rt_side_gmp)(const PROX_FN(prox_triangle) * t, PROX_FN(prox_vec3) d);

static int PROX_FN(rt_side_exact)(const PROX_FN(prox_triangle) * t, PROX_FN(prox_vec3) d) {
  double av[3] = {t->v[0].x, t->v[0].y, t->v[0].z};
  double bv[3] = {t->v[1].x, t->v[1].y, t->v[1].z};
  double cv[3] = {t->v[2].x, t->v[2].y, t->v[2].z};
  double dv[3] = {d.x, d.y, d.z};
  int i;
  {
    /* A filter first: the same expression in double with a generous bound
     * (1e-9 of its permanent); GMP decides the rest. */
    double e1[3], e2[3], nn = 0, perm = 0;
    for (i = 0; i < 3; ++i) {
      e1[i] = bv[i] - av[i];
      e2[i] = cv[i] - av[i];
    }
    for (i = 0; i < 3; ++i) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      nn += (e1[i1] * e2[i2] - e1[i2] * e2[i1]) * dv[i];
      perm += (fabs(e1[i1] * e2[i2]) + fabs(e1[i2] * e2[i1])) * fabs(dv[i]) +
              (fabs(bv[i1]) + fabs(av[i1]) + fabs(bv[i2]) + fabs(av[i2])) *
                  (fabs(cv[i1]) + fabs(av[i1]) + fabs(cv[i2]) + fabs(av[i2])) * fabs(dv[i]);
    }
    if (nn > 1e-9 * perm) return 1;
    if (nn < -1e-9 * perm) return -1;
  }
  return PROX_FN(rt_side_gmp)(t, d);
}

/* The same in rationals alone. */
static int PROX_FN(rt_side_gmp)(const PROX_FN(prox_triangle) * t, PROX_FN(prox_vec3) d) {
  mpq_t a[3], b[3], c[3], dd[3], u[3], w[3], n, x, y;
  double av[3] = {t->v[0].x, t->v[0].y, t->v[0].z};
  double bv[3] = {t->v[1].x, t->v[1].y, t->v[1].z};
  double cv[3] = {t->v[2].x, t->v[2].y, t->v[2].z};
  double dv[3] = {d.x, d.y, d.z};
  int i, s;
  mpq_inits(n, x, y, NULL);
  for (i = 0; i < 3; ++i) {
    mpq_inits(a[i], b[i], c[i], dd[i], u[i], w[i], NULL);
    mpq_set_d(a[i], av[i]);
    mpq_set_d(b[i], bv[i]);
    mpq_set_d(c[i], cv[i]);
    mpq_set_d(dd[i], dv[i]);
    mpq_sub(u[i], b[i], a[i]);
    mpq_sub(w[i], c[i], a[i]);
  }
  mpq_set_ui(n, 0, 1);
  for (i = 0; i < 3; ++i) {
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    mpq_mul(x, u[i1], w[i2]);
    mpq_mul(y, u[i2], w[i1]);
    mpq_sub(x, x, y);
    mpq_mul(x, x, dd[i]);
    mpq_add(n, n, x);
  }
  s = mpq_sgn(n);
  for (i = 0; i < 3; ++i)
    mpq_clears(a[i], b[i], c[i], dd[i], u[i], w[i], NULL);
  mpq_clears(n, x, y, NULL);
  return s;
}

/* One hit of the brute force. */
typedef struct PROX_FN(rt_bhit) {
  PROX_REAL t;
  uint32_t id;
  int sign;
  PROX_REAL bary[3];
  PROX_FN(prox_vec3) normal;
} PROX_FN(rt_bhit);

static int PROX_FN(rt_bhit_cmp)(const void *x, const void *y) {
  const PROX_FN(rt_bhit) *p = (const PROX_FN(rt_bhit) *)x;
  const PROX_FN(rt_bhit) *q = (const PROX_FN(rt_bhit) *)y;
  if (p->t != q->t) return p->t < q->t ? -1 : 1;
  return p->id < q->id ? -1 : (p->id > q->id);
}

/* 1 when the ray's line certainly misses triangle tr: all three vertices
 * lie beyond margin on one side of one of two planes through the line
 * (normals e[0], e[1], perpendicular to the direction up to rounding).
 * The line meets the closed triangle only at a convex combination x of its
 * vertices, where e.(x - o) is the direction's rounding times the distance
 * from o (relative 1e-16); margin is 1e-9 of the coordinates' size, so a
 * triangle the kernel could hit (its symbolic perturbation included) is
 * never left out. NaN or infinite coordinates are never left out. */
static int PROX_FN(rt_misses)(const PROX_FN(prox_triangle) * tr, const double *o,
                              const double e[2][3], const double *margin) {
  int j, k;
  for (j = 0; j < 2; ++j) {
    int above = 0, below = 0;
    for (k = 0; k < 3; ++k) {
      double f = e[j][0] * ((double)tr->v[k].x - o[0]) + e[j][1] * ((double)tr->v[k].y - o[1]) +
                 e[j][2] * ((double)tr->v[k].z - o[2]);
      above += f > margin[j];
      below += f < -margin[j];
    }
    if (above == 3 || below == 3) return 1;
  }
  return 0;
}

/* The brute force: every hit (in (t, id) order) into hits (nt entries),
 * their number returned, the first strict minimum in *first. Every
 * triangle goes to prox_raycast_triangle() except those proved apart from
 * the ray's line: by its run's or its own sphere (sf_far_line), or by
 * rt_misses(). The filters read no tree: they are independent of the BVH
 * under test. */
static size_t PROX_FN(rt_brute)(const PROX_FN(rt_mesh) * m, const PROX_FN(prox_ray) * ray,
                                PROX_FN(rt_bhit) * hits, size_t *first) {
  size_t i, j, n = 0, nr;
  PROX_REAL best = PROX_INF;
  double o[3] = {(double)ray->origin.x, (double)ray->origin.y, (double)ray->origin.z};
  double d[3] = {(double)ray->dir.x, (double)ray->dir.y, (double)ray->dir.z};
  double e[2][3], margin[2], size = 0, u[3], dl, smargin;
  int k, a = 0, filter, spheres;
  /* e[0] = d x (the axis of d's smallest component), e[1] = d x e[0]. */
  for (k = 1; k < 3; ++k)
    if (fabs(d[k]) < fabs(d[a])) a = k;
  e[0][0] = a == 0 ? 0 : (a == 1 ? -d[2] : d[1]);
  e[0][1] = a == 1 ? 0 : (a == 0 ? d[2] : -d[0]);
  e[0][2] = a == 2 ? 0 : (a == 0 ? -d[1] : d[0]);
  e[1][0] = d[1] * e[0][2] - d[2] * e[0][1];
  e[1][1] = d[2] * e[0][0] - d[0] * e[0][2];
  e[1][2] = d[0] * e[0][1] - d[1] * e[0][0];
  for (k = 0; k < 3; ++k) {
    size = fmax(size, fmax(fabs(o[k]), fmax(fabs(m->lo[k]), fabs(m->hi[k]))));
  }
  for (k = 0; k < 2; ++k)
    margin[k] = 1e-9 * 2 * size * (fabs(e[k][0]) + fabs(e[k][1]) + fabs(e[k][2]));
  filter = isfinite(margin[0]) && isfinite(margin[1]) && margin[0] > 0 && margin[1] > 0;
  dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (k = 0; k < 3; ++k)
    u[k] = d[k] / dl;
  smargin = 1e-9 * 2 * size;
  spheres = filter && m->sph && isfinite(smargin) && smargin > 0 && isfinite(dl) && dl > 0 &&
            isfinite(u[0]) && isfinite(u[1]) && isfinite(u[2]);
  *first = (size_t)-1;
  nr = (m->nt + SF_RUN - 1) / SF_RUN;
  for (j = 0; j < m->nt; ++j) {
    PROX_FN(prox_triangle) tr;
    PROX_FN(prox_rayhit) h;
    i = j;
    if (m->order) {
      /* Every triangle, in the filter's order: a whole group or run whose
       * sphere is far from the line, then the triangle's own sphere. */
      i = m->order[j];
      if (spheres) {
        if (j % (SF_RUN * SF_RUN) == 0 &&
            sf_far_line(m->run + 4 * (nr + j / (SF_RUN * SF_RUN)), o, u, smargin)) {
          j += SF_RUN * SF_RUN - 1;
          continue;
        }
        if (j % SF_RUN == 0 && sf_far_line(m->run + 4 * (j / SF_RUN), o, u, smargin)) {
          j += SF_RUN - 1;
          continue;
        }
        if (sf_far_line(m->sph + 4 * j, o, u, smargin)) continue;
      }
    }
    tr = PROX_FN(rt_tri)(m, i);
    if (filter && PROX_FN(rt_misses)(&tr, o, (const double(*)[3])e, margin)) continue;
    if (!PROX_FN(prox_raycast_triangle)(ray, &tr, &h)) continue;
    hits[n].t = h.t;
    hits[n].id = (uint32_t)i;
    hits[n].sign = PROX_FN(rt_side_exact)(&tr, ray->dir);
    memcpy(hits[n].bary, h.bary, sizeof h.bary);
    hits[n].normal = h.normal;
    /* The first hit: the least t, the lowest id on a tie (the order of
     * the loop is not the ids'). */
    if (h.t < best || (h.t == best && *first != (size_t)-1 && (uint32_t)i < hits[*first].id)) {
      best = h.t;
      *first = n;
    }
    ++n;
  }
  if (*first != (size_t)-1) {
    PROX_FN(rt_bhit) f = hits[*first];
    qsort(hits, n, sizeof *hits, PROX_FN(rt_bhit_cmp));
    for (i = 0; i < n; ++i)
      if (hits[i].id == f.id) *first = i;
  } else {
    qsort(hits, n, sizeof *hits, PROX_FN(rt_bhit_cmp));
  }
  return n;
}

static int PROX_FN(rt_same)(PROX_REAL a, PROX_REAL b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* Compares every query on one ray with the brute force at the current
 * SIMD level; parity: 0 unknown, 1 the origin (at tmin) is outside a
 * closed mesh and tmax is +inf (count even, signed sum 0), 2 inside (odd,
 * signed sum +1). scratch: nt + 1 tree hits. Returns 1 when all agree. */
static int PROX_FN(rt_check_ray)(const PROX_FN(rt_mesh) * m, const PROX_FN(prox_ray) * ray,
                                 const PROX_FN(rt_bhit) * bh, size_t bn, size_t bfirst, int parity,
                                 PROX_FN(prox_mesh_hit) * scratch, const char *set, rt_stats *st) {
  PROX_FN(prox_mesh_hit) h;
  int hit = PROX_FN(prox_bvh_raycast)(m->bvh, ray, &h), ok = 1;
  int occ = PROX_FN(prox_bvh_occluded)(m->bvh, ray);
  long wind = 0, bwind = 0;
  size_t cnt = PROX_FN(prox_bvh_ray_count)(m->bvh, ray, &wind), i, tot, half;
  for (i = 0; i < bn; ++i)
    bwind += bh[i].sign;
  ok &= CHECK_MSG(hit == (bn > 0) && h.hit == hit, "%s %s: hit %d, brute %d", m->name, set, hit,
                  (int)bn);
  if (hit && bn) {
    ok &= CHECK_MSG(PROX_FN(rt_same)(h.t, bh[bfirst].t) && h.triangle == bh[bfirst].id,
                    "%s %s: first hit t %.17g id %u, brute t %.17g id %u", m->name, set,
                    (double)h.t, h.triangle, (double)bh[bfirst].t, bh[bfirst].id);
    ok &= CHECK(h.sign == bh[bfirst].sign);
    ok &= CHECK(memcmp(h.bary, bh[bfirst].bary, sizeof h.bary) == 0 &&
                memcmp(&h.normal, &bh[bfirst].normal, sizeof h.normal) == 0);
    if (bfirst + 1 < bn && bh[bfirst + 1].t == bh[bfirst].t) ++st->ties;
  }
  ok &= CHECK_MSG(occ == (bn > 0), "%s %s: occluded %d, brute %d", m->name, set, occ, (int)bn);
  ok &= CHECK_MSG(cnt == bn && wind == bwind, "%s %s: count %zu winding %ld, brute %zu %ld",
                  m->name, set, cnt, wind, bn, bwind);
  tot = PROX_FN(prox_bvh_ray_all)(m->bvh, ray, scratch, bn + 1);
  ok &= CHECK(tot == bn);
  for (i = 0; i < bn && i < tot; ++i)
    ok &= CHECK_MSG(PROX_FN(rt_same)(scratch[i].t, bh[i].t) && scratch[i].triangle == bh[i].id &&
                        scratch[i].sign == bh[i].sign && scratch[i].hit == 1 &&
                        memcmp(scratch[i].bary, bh[i].bary, sizeof bh[i].bary) == 0,
                    "%s %s: hit %zu of %zu: t %.17g id %u, brute %.17g id %u", m->name, set, i, bn,
                    (double)scratch[i].t, scratch[i].triangle, (double)bh[i].t, bh[i].id);
  /* A buffer too small keeps the first hits in order. */
  half = bn / 2;
  tot = PROX_FN(prox_bvh_ray_all)(m->bvh, ray, scratch, half);
  ok &= CHECK(tot == bn);
  for (i = 0; i < half; ++i)
    ok &= CHECK(PROX_FN(rt_same)(scratch[i].t, bh[i].t) && scratch[i].triangle == bh[i].id);
  if (parity) {
    ++st->parity_checked;
    ok &= CHECK_MSG((long)(bn % 2) == (parity == 2) && bwind == (parity == 2),
                    "%s %s: %zu crossings, signed sum %ld, origin %s", m->name, set, bn, bwind,
                    parity == 2 ? "inside" : "outside");
  }
  ++st->rays;
  st->hits += bn > 0;
  st->crossings += (long)bn;
  return ok;
}

/* Checks one ray at every SIMD level the machine has. */
static int PROX_FN(rt_check_levels)(const PROX_FN(rt_mesh) * m, const PROX_FN(prox_ray) * ray,
                                    int parity, PROX_FN(rt_bhit) * bh,
                                    PROX_FN(prox_mesh_hit) * scratch, const char *set,
                                    rt_stats *st) {
  size_t bfirst, bn = PROX_FN(rt_brute)(m, ray, bh, &bfirst);
  int level, saved = prox_simd_level(), ok = 1;
  for (level = PROX_SIMD_SCALAR; level <= PROX_SIMD_AVX512; ++level) {
    if (!prox_simd_set(level)) continue;
    ok &= PROX_FN(rt_check_ray)(m, ray, bh, bn, bfirst, parity, scratch, set, st);
  }
  prox_simd_set(saved);
  if (!ok)
    h_note("ray o (%.17g, %.17g, %.17g) d (%.17g, %.17g, %.17g) [%g, %g]", (double)ray->origin.x,
           (double)ray->origin.y, (double)ray->origin.z, (double)ray->dir.x, (double)ray->dir.y,
           (double)ray->dir.z, (double)ray->tmin, (double)ray->tmax);
  return ok;
}

/* A random unit vector. */
static PROX_FN(prox_vec3) PROX_FN(rt_unit)(oracle_rng *s) {
  for (;;) {
    double x = oracle_rng_range(s, -1, 1), y = oracle_rng_range(s, -1, 1),
           z = oracle_rng_range(s, -1, 1);
    double r = sqrt(x * x + y * y + z * z);
    if (r > 0.1 && r <= 1)
      return PROX_FN(prox_v3)((PROX_REAL)(x / r), (PROX_REAL)(y / r), (PROX_REAL)(z / r));
  }
}

/* The four sets of rays of the issue on a mesh, n rays each: random
 * (origins on a sphere around the mesh, aimed into its box; every other
 * ray with a finite tmax), lines through vertices and through edge
 * midpoints (origin on the point, t from -2 to +inf, |dir| = diag: the
 * line starts and ends outside), rays starting on the surface (a point of
 * a triangle, t from 0). Parity is asserted on closed meshes for the
 * rays from outside to +inf. */
static void PROX_FN(rt_sets)(const PROX_FN(rt_mesh) * m, long n, uint64_t seed) {
  PROX_FN(rt_bhit) *bh = (PROX_FN(rt_bhit) *)malloc((m->nt + 1) * sizeof *bh);
  PROX_FN(prox_mesh_hit) *scratch = (PROX_FN(prox_mesh_hit) *)malloc((m->nt + 1) * sizeof *scratch);
  static const char *names[4] = {"random", "vertices", "edges", "surface"};
  double c[3];
  int set, k;
  for (k = 0; k < 3; ++k)
    c[k] = 0.5 * (m->lo[k] + m->hi[k]);
  for (set = 0; set < 4; ++set) {
    rt_stats st = {0, 0, 0, 0, 0};
    oracle_rng s = oracle_rng_make(seed + (uint64_t)set * 7919u);
    long i, fails = 0;
    for (i = 0; i < n; ++i) {
      PROX_FN(prox_ray) ray;
      PROX_FN(prox_vec3) u = PROX_FN(rt_unit)(&s);
      size_t tri = (size_t)(oracle_rng_next(&s) % m->nt);
      PROX_FN(prox_triangle) tr = PROX_FN(rt_tri)(m, tri);
      int parity = 0, kv = (int)(oracle_rng_next(&s) % 3);
      if (set == 0) {
        double p[3];
        PROX_FN(prox_vec3) o;
        for (k = 0; k < 3; ++k)
          p[k] = m->lo[k] + (m->hi[k] - m->lo[k]) * (1.1 * oracle_rng_unit(&s) - 0.05);
        o = PROX_FN(prox_v3)((PROX_REAL)(c[0] + m->diag * (double)u.x),
                             (PROX_REAL)(c[1] + m->diag * (double)u.y),
                             (PROX_REAL)(c[2] + m->diag * (double)u.z));
        ray =
            PROX_FN(prox_ray_make)(o, PROX_FN(prox_v3)((PROX_REAL)p[0] - o.x, (PROX_REAL)p[1] - o.y,
                                                       (PROX_REAL)p[2] - o.z));
        if (i % 2)
          ray.tmax = (PROX_REAL)(2.0 * oracle_rng_unit(&s));
        else if (m->closed)
          parity = 1;
      } else if (set == 1 || set == 2) {
        PROX_FN(prox_vec3) o = tr.v[kv];
        if (set == 2) {
          PROX_FN(prox_vec3) b = tr.v[(kv + 1) % 3];
          o = PROX_FN(prox_v3)(o.x + (b.x - o.x) / 2, o.y + (b.y - o.y) / 2, o.z + (b.z - o.z) / 2);
        }
        ray = PROX_FN(prox_ray_make)(o, PROX_FN(prox_vscale)(u, (PROX_REAL)m->diag));
        ray.tmin = -2;
        if (m->closed) parity = 1;
      } else {
        double a = oracle_rng_unit(&s), b = oracle_rng_unit(&s);
        PROX_FN(prox_vec3) o;
        if (a + b > 1) a = 1 - a, b = 1 - b;
        o = PROX_FN(prox_v3)(
            (PROX_REAL)((double)tr.v[0].x + a * ((double)tr.v[1].x - (double)tr.v[0].x) +
                        b * ((double)tr.v[2].x - (double)tr.v[0].x)),
            (PROX_REAL)((double)tr.v[0].y + a * ((double)tr.v[1].y - (double)tr.v[0].y) +
                        b * ((double)tr.v[2].y - (double)tr.v[0].y)),
            (PROX_REAL)((double)tr.v[0].z + a * ((double)tr.v[1].z - (double)tr.v[0].z) +
                        b * ((double)tr.v[2].z - (double)tr.v[0].z)));
        if (i % 4 == 0) o = tr.v[kv]; /* exactly on a vertex */
        ray = PROX_FN(prox_ray_make)(o, u);
      }
      if (!PROX_FN(rt_check_levels)(m, &ray, parity, bh, scratch, names[set], &st)) ++fails;
    }
    printf("  %-20s %-5s %-8s %6ld rays (x levels: %ld), %ld hit, %ld "
           "crossings, %ld ties at the first hit, %ld parity checks, %ld "
           "failed\n",
           m->name, PROX_IS_DOUBLE ? "double" : "float", names[set], n, st.rays, st.hits,
           st.crossings, st.ties, st.parity_checked, fails);
  }
  free(bh);
  free(scratch);
}

/* The batch forms against the single queries: the same bits for 1, 2 and
 * 7 threads. */
static void PROX_FN(rt_batches)(const PROX_FN(rt_mesh) * m, long n, uint64_t seed) {
  PROX_FN(prox_ray) *rays = (PROX_FN(prox_ray) *)malloc((size_t)n * sizeof *rays);
  PROX_FN(prox_mesh_hit) *ref = (PROX_FN(prox_mesh_hit) *)malloc((size_t)n * sizeof *ref);
  PROX_FN(prox_mesh_hit) *got = (PROX_FN(prox_mesh_hit) *)malloc((size_t)n * sizeof *got);
  uint8_t *occ = (uint8_t *)malloc((size_t)n);
  size_t *cnt = (size_t *)malloc((size_t)n * sizeof *cnt);
  long *wind = (long *)malloc((size_t)n * sizeof *wind);
  static const int threads[3] = {1, 2, 7};
  long i;
  int k, j;
  oracle_rng s = oracle_rng_make(seed);
  for (i = 0; i < n; ++i) {
    PROX_FN(prox_vec3) u = PROX_FN(rt_unit)(&s), o;
    double p[3];
    for (k = 0; k < 3; ++k)
      p[k] = m->lo[k] + (m->hi[k] - m->lo[k]) * oracle_rng_unit(&s);
    o = PROX_FN(prox_v3)((PROX_REAL)(p[0] - m->diag * (double)u.x),
                         (PROX_REAL)(p[1] - m->diag * (double)u.y),
                         (PROX_REAL)(p[2] - m->diag * (double)u.z));
    rays[i] = PROX_FN(prox_ray_make)(o, u);
    memset(&ref[i], 0, sizeof ref[i]);
    PROX_FN(prox_bvh_raycast)(m->bvh, &rays[i], &ref[i]);
  }
  for (j = 0; j < 3; ++j) {
    long bad = 0;
    memset(got, 0, (size_t)n * sizeof *got);
    CHECK(PROX_FN(prox_bvh_raycast_batch)(m->bvh, rays, (size_t)n, got, threads[j]) == PROX_OK);
    CHECK(PROX_FN(prox_bvh_occluded_batch)(m->bvh, rays, (size_t)n, occ, threads[j]) == PROX_OK);
    CHECK(PROX_FN(prox_bvh_ray_count_batch)(m->bvh, rays, (size_t)n, cnt, wind, threads[j]) ==
          PROX_OK);
    for (i = 0; i < n; ++i) {
      long w;
      size_t c = PROX_FN(prox_bvh_ray_count)(m->bvh, &rays[i], &w);
      bad += memcmp(&got[i], &ref[i], sizeof got[i]) != 0 || occ[i] != ref[i].hit || cnt[i] != c ||
             wind[i] != w;
    }
    CHECK_MSG(bad == 0, "%s: %ld of %ld batch results differ with %d threads", m->name, bad, n,
              threads[j]);
  }
  free(rays);
  free(ref);
  free(got);
  free(occ);
  free(cnt);
  free(wind);
}
