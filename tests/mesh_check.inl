/* SPDX-License-Identifier: MIT */
/* Template (tests): the brute-force oracle of the mesh queries and the
 * checks that compare prox_bvh_* with it, once per precision (included
 * after prox/detail/real_double.h or real_float.h by test_mesh_*.c, which
 * include harness.h first).
 *
 * The oracle is the plain loop over every triangle in index order with
 * prox_point_triangle(), keeping the first strict minimum: ties go to the
 * lowest index, as prox/bvh.h promises. For speed on the real meshes the
 * loop runs through prox_point_triangles() (prox/batch.h), which
 * tests/test_batch.c holds to the same loop bit for bit; mc_brute_scalar()
 * is the literal loop, and test_mesh_build checks that the two agree. On
 * large meshes (mc_cull) the loop skips the runs of triangles whose
 * bounding sphere is certainly farther than the best so far (the same
 * minimum and index; checked against the literal loop too). */

#include "sphere_filter.h"

/* A mesh in this precision with its triangles as an array (the oracle's
 * input). */
typedef struct PROX_FN(mc_mesh) {
  PROX_FN(prox_mesh) view;
  PROX_REAL *v;                 /* 3 nv */
  uint32_t *t;                  /* 3 nt */
  PROX_FN(prox_triangle) * tri; /* nt */
  size_t nv, nt;
  PROX_REAL lo[3], hi[3], diag;
  /* The oracle's filter (mc_cull; NULL without it): the triangles in runs
   * of SF_RUN in the Morton order of their centroids (tests/sphere_filter.h),
   * by increasing index within each run (ctri, their indices cid), the
   * spheres of the runs and then of the groups (crun). */
  PROX_FN(prox_triangle) * ctri;
  uint32_t *cid;
  double *crun;
} PROX_FN(mc_mesh);

static void PROX_FN(mc_free)(PROX_FN(mc_mesh) * m) {
  free(m->v);
  free(m->t);
  free(m->tri);
  free(m->ctri);
  free(m->cid);
  free(m->crun);
  memset(m, 0, sizeof *m);
}

/* From double arrays (rounded to this precision); 1 on success. */
static int PROX_FN(mc_make)(PROX_FN(mc_mesh) * m, const double *v, size_t nv, const uint32_t *t,
                            size_t nt) {
  size_t i;
  int c;
  memset(m, 0, sizeof *m);
  m->v = (PROX_REAL *)malloc(3 * nv * sizeof *m->v + 1);
  m->t = (uint32_t *)malloc(3 * nt * sizeof *m->t + 1);
  m->tri = (PROX_FN(prox_triangle) *)malloc(nt * sizeof *m->tri + 1);
  if (!m->v || !m->t || !m->tri) {
    PROX_FN(mc_free)(m);
    return 0;
  }
  for (i = 0; i < 3 * nv; ++i)
    m->v[i] = (PROX_REAL)v[i];
  memcpy(m->t, t, 3 * nt * sizeof *t);
  m->nv = nv;
  m->nt = nt;
  m->view.vertices = m->v;
  m->view.vertex_count = nv;
  m->view.stride = 0;
  m->view.indices = m->t;
  m->view.triangle_count = nt;
  for (c = 0; c < 3; ++c) {
    m->lo[c] = PROX_INF;
    m->hi[c] = -PROX_INF;
  }
  for (i = 0; i < nt; ++i) {
    int k;
    m->tri[i] = PROX_FN(prox_mesh_triangle)(&m->view, (uint32_t)i);
    for (k = 0; k < 3; ++k) {
      const PROX_REAL *p = m->v + 3 * (size_t)t[3 * i + (size_t)k];
      for (c = 0; c < 3; ++c) {
        if (p[c] < m->lo[c]) m->lo[c] = p[c];
        if (p[c] > m->hi[c]) m->hi[c] = p[c];
      }
    }
  }
  {
    double dx = (double)(m->hi[0] - m->lo[0]), dy = (double)(m->hi[1] - m->lo[1]),
           dz = (double)(m->hi[2] - m->lo[2]);
    m->diag = (PROX_REAL)sqrt(dx * dx + dy * dy + dz * dz);
  }
  return 1;
}

/* The corners of triangle i of m in double (sf_corners_fn). */
static inline void PROX_FN(mc_corners)(const void *ctx, size_t i, double *c) {
  const PROX_FN(prox_vec3) *v = ((const PROX_FN(mc_mesh) *)ctx)->tri[i].v;
  int j;
  for (j = 0; j < 3; ++j) {
    c[3 * j] = (double)v[j].x;
    c[3 * j + 1] = (double)v[j].y;
    c[3 * j + 2] = (double)v[j].z;
  }
}

/* Makes the oracle's filter (see mc_mesh); without it (an allocation
 * failure) the oracle runs over every triangle. For the real meshes and
 * test_mesh_build's spheres, whose brute force took minutes (valgrind). */
static inline void PROX_FN(mc_cull)(PROX_FN(mc_mesh) * m) {
  size_t i, n = m->nt ? m->nt : 1, nr = (m->nt + SF_RUN - 1) / SF_RUN,
            ng = (nr + SF_RUN - 1) / SF_RUN;
  double *sph = (double *)malloc(4 * n * sizeof *sph), lo[3], hi[3];
  int k;
  for (k = 0; k < 3; ++k) {
    lo[k] = (double)m->lo[k];
    hi[k] = (double)m->hi[k];
  }
  m->ctri = (PROX_FN(prox_triangle) *)malloc(n * sizeof *m->ctri);
  m->cid = (uint32_t *)malloc(n * sizeof *m->cid);
  m->crun = (double *)malloc(4 * (nr + ng + 1) * sizeof *m->crun);
  if (!sph || !m->ctri || !m->cid || !m->crun ||
      !sf_make(PROX_FN(mc_corners), m, m->nt, lo, hi, m->cid, sph, m->crun)) {
    free(m->ctri);
    free(m->cid);
    free(m->crun);
    m->ctri = NULL;
    m->cid = NULL;
    m->crun = NULL;
  } else {
    for (i = 0; i < m->nt; ++i)
      m->ctri[i] = m->tri[m->cid[i]];
  }
  free(sph);
}

/* The filter's margin for p: beyond the kernels' rounding of a distance
 * (a few ulps of the coordinates' size in this precision) many times
 * over; NaN or infinite (no filtering) for a point or mesh that is not
 * finite. */
static double PROX_FN(mc_margin)(const PROX_FN(mc_mesh) * m, const double *q) {
  double size = 0;
  int k;
  for (k = 0; k < 3; ++k)
    size = fmax(size, fmax(fabs(q[k]), fmax(fabs((double)m->lo[k]), fabs((double)m->hi[k]))));
  return size * (PROX_IS_DOUBLE ? 1e-12 : 1e-4) + (double)PROX_REAL_MIN;
}

/* The filtered oracle (m->ctri set, p and the margin finite): the least
 * squared distance of prox_point_triangles() over the runs whose sphere
 * may hold a triangle as near as the best so far, the lowest index on a
 * tie; the nearest run first, so that the bound is tight early. */
static PROX_REAL PROX_FN(mc_brute_cull)(const PROX_FN(mc_mesh) * m, PROX_FN(prox_vec3) p,
                                        double margin, uint32_t *id) {
  size_t nr = (m->nt + SF_RUN - 1) / SF_RUN, ng = (nr + SF_RUN - 1) / SF_RUN, g, r, pass;
  double q[3] = {(double)p.x, (double)p.y, (double)p.z};
  PROX_REAL best = PROX_INF;
  uint32_t bid = UINT32_MAX;
  size_t near_g = 0, near_r = 0;
  double lb = INFINITY;
  for (g = 0; g < ng; ++g) {
    double x = sf_lower(m->crun + 4 * (nr + g), q);
    if (x < lb || x != x) {
      lb = x;
      near_g = g;
      if (x != x) break;
    }
  }
  lb = INFINITY;
  for (r = near_g * SF_RUN; r < nr && r < (near_g + 1) * SF_RUN; ++r) {
    double x = sf_lower(m->crun + 4 * r, q);
    if (x < lb || x != x) {
      lb = x;
      near_r = r;
      if (x != x) break;
    }
  }
  for (pass = 0; pass < 2; ++pass)
    for (g = pass ? 0 : near_g; g < (pass ? ng : near_g + 1); ++g) {
      double lim = sqrt((double)best) * (1 + 1e-6) + margin;
      if (sf_lower(m->crun + 4 * (nr + g), q) > lim) continue;
      for (r = pass ? g * SF_RUN : near_r; r < (pass ? (g + 1) * SF_RUN : near_r + 1) && r < nr;
           ++r) {
        size_t b = r * SF_RUN, n = m->nt - b < SF_RUN ? m->nt - b : SF_RUN, bi = 0;
        PROX_REAL d;
        if (sf_lower(m->crun + 4 * r, q) > sqrt((double)best) * (1 + 1e-6) + margin) continue;
        d = PROX_FN(prox_point_triangles)(p, m->ctri + b, n, &bi, NULL);
        if (d < best || (d == best && m->cid[b + bi] < bid)) {
          best = d;
          bid = m->cid[b + bi];
        }
      }
    }
  *id = bid;
  return best;
}

/* The oracle: the nearest triangle within max_sqdist, its index in *id
 * (UINT32_MAX when none); returns its squared distance (max_sqdist when
 * none). */
static PROX_REAL PROX_FN(mc_brute)(const PROX_FN(mc_mesh) * m, PROX_FN(prox_vec3) p,
                                   PROX_REAL max_sqdist, uint32_t *id) {
  size_t bi = 0;
  double q[3] = {(double)p.x, (double)p.y, (double)p.z}, margin = PROX_FN(mc_margin)(m, q);
  PROX_REAL d;
  if (m->ctri && m->nt > 0 && isfinite(margin)) {
    uint32_t ci;
    d = PROX_FN(mc_brute_cull)(m, p, margin, &ci);
    if (ci != UINT32_MAX && d <= max_sqdist) {
      *id = ci;
      return d;
    }
    *id = UINT32_MAX;
    return max_sqdist;
  }
  d = PROX_FN(prox_point_triangles)(p, m->tri, m->nt, &bi, NULL);
  if (d <= max_sqdist) {
    *id = (uint32_t)bi;
    return d;
  }
  *id = UINT32_MAX;
  return max_sqdist;
}

/* The same, as the literal scalar loop. */
static PROX_REAL PROX_FN(mc_brute_scalar)(const PROX_FN(mc_mesh) * m, PROX_FN(prox_vec3) p,
                                          PROX_REAL max_sqdist, uint32_t *id) {
  size_t i;
  PROX_REAL best = PROX_INF;
  uint32_t bi = UINT32_MAX;
  for (i = 0; i < m->nt; ++i) {
    PROX_REAL d = PROX_FN(prox_point_triangle)(p, &m->tri[i], NULL);
    if (d < best) {
      best = d;
      bi = (uint32_t)i;
    }
  }
  if (best <= max_sqdist) {
    *id = bi;
    return best;
  }
  *id = UINT32_MAX;
  return max_sqdist;
}

/* Same bits (NaN equal to NaN). */
static int PROX_FN(mc_same)(PROX_REAL a, PROX_REAL b) {
  return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}

/* One query's result r for p against the oracle (sqdist d, id), including
 * the full result of prox_point_triangle on the winner. */
static int PROX_FN(mc_result_ok)(const PROX_FN(mc_mesh) * m, PROX_FN(prox_vec3) p, PROX_REAL d,
                                 uint32_t id, const PROX_FN(prox_mesh_closest) * r) {
  PROX_FN(prox_closest) full;
  if (id == UINT32_MAX)
    return r->found == 0 && r->triangle == UINT32_MAX && PROX_FN(mc_same)(r->sqdist, d);
  if (!(r->found == 1 && r->triangle == id && PROX_FN(mc_same)(r->sqdist, d))) return 0;
  PROX_FN(prox_point_triangle)(p, &m->tri[id], &full);
  return PROX_FN(mc_same)(r->point.x, full.point.x) && PROX_FN(mc_same)(r->point.y, full.point.y) &&
         PROX_FN(mc_same)(r->point.z, full.point.z) &&
         PROX_FN(mc_same)(r->bary[0], full.param[0]) &&
         PROX_FN(mc_same)(r->bary[1], full.param[1]) &&
         PROX_FN(mc_same)(r->bary[2], full.param[2]) && r->feature.kind == full.feature.kind &&
         r->feature.index == full.feature.index && PROX_FN(mc_same)(full.sqdist, d);
}

/* Checks prox_bvh_closest (and the header-only view traversal on every
 * eighth point) on n points; returns the failures. */
static long PROX_FN(mc_check_points)(const PROX_FN(mc_mesh) * m, const PROX_FN(prox_bvh) * bvh,
                                     const PROX_FN(prox_vec3) * pts, size_t n, PROX_REAL max_sqdist,
                                     const char *what) {
  size_t i;
  long bad = 0;
  PROX_FN(prox_bvh_view) view;
  PROX_FN(prox_bvh_get_view)(bvh, &view);
  for (i = 0; i < n; ++i) {
    uint32_t id;
    PROX_REAL d = PROX_FN(mc_brute)(m, pts[i], max_sqdist, &id);
    PROX_FN(prox_mesh_closest) r;
    PROX_REAL ret = PROX_FN(prox_bvh_closest)(bvh, pts[i], max_sqdist, &r);
    int ok = PROX_FN(mc_result_ok)(m, pts[i], d, id, &r) && PROX_FN(mc_same)(ret, d);
    if (ok && i % 8 == 0) {
      PROX_FN(prox_mesh_closest) r2;
      PROX_FN(prox_bvh_view_closest)(&view, pts[i], max_sqdist, &r2);
      ok = PROX_FN(mc_result_ok)(m, pts[i], d, id, &r2);
    }
    if (!ok) {
      ++bad;
      CHECK_MSG(0,
                "%s point %zu (%.17g %.17g %.17g): tree id %u d %.17g, brute "
                "id %u d %.17g",
                what, i, (double)pts[i].x, (double)pts[i].y, (double)pts[i].z, (unsigned)r.triangle,
                (double)r.sqdist, (unsigned)id, (double)d);
    }
  }
  CHECK(bad == 0);
  return bad;
}

/* The five query sets of the issue, n points each, into pts (5 n). */
static void PROX_FN(mc_query_sets)(const PROX_FN(mc_mesh) * m, size_t n, uint64_t seed,
                                   PROX_FN(prox_vec3) * pts) {
  oracle_rng s = oracle_rng_make(seed);
  size_t i;
  PROX_REAL c[3], e[3];
  int k;
  for (k = 0; k < 3; ++k) {
    c[k] = (m->lo[k] + m->hi[k]) / 2;
    e[k] = (m->hi[k] - m->lo[k]) / 2 * (PROX_REAL)1.1 + m->diag * (PROX_REAL)1e-3;
  }
  for (i = 0; i < n; ++i) {
    PROX_FN(prox_vec3) *q = pts + i;
    /* uniform in the box enlarged by 10% */
    q->x = c[0] + e[0] * (PROX_REAL)oracle_rng_range(&s, -1, 1);
    q->y = c[1] + e[1] * (PROX_REAL)oracle_rng_range(&s, -1, 1);
    q->z = c[2] + e[2] * (PROX_REAL)oracle_rng_range(&s, -1, 1);
  }
  for (i = 0; i < n; ++i) {
    /* within 1% of the diagonal of the surface */
    const PROX_FN(prox_triangle) *t = m->tri + oracle_rng_next(&s) % m->nt;
    double u = oracle_rng_unit(&s), v = oracle_rng_unit(&s), r = 0.01 * oracle_rng_unit(&s);
    double dx = oracle_rng_range(&s, -1, 1), dy = oracle_rng_range(&s, -1, 1),
           dz = oracle_rng_range(&s, -1, 1);
    double len = sqrt(dx * dx + dy * dy + dz * dz) + 1e-300;
    if (u + v > 1) {
      u = 1 - u;
      v = 1 - v;
    }
    pts[n + i].x = (PROX_REAL)((1 - u - v) * (double)t->v[0].x + u * (double)t->v[1].x +
                               v * (double)t->v[2].x + r * (double)m->diag * dx / len);
    pts[n + i].y = (PROX_REAL)((1 - u - v) * (double)t->v[0].y + u * (double)t->v[1].y +
                               v * (double)t->v[2].y + r * (double)m->diag * dy / len);
    pts[n + i].z = (PROX_REAL)((1 - u - v) * (double)t->v[0].z + u * (double)t->v[1].z +
                               v * (double)t->v[2].z + r * (double)m->diag * dz / len);
  }
  for (i = 0; i < n; ++i) {
    /* far away: 10 diagonals from the centre */
    double dx = oracle_rng_range(&s, -1, 1), dy = oracle_rng_range(&s, -1, 1),
           dz = oracle_rng_range(&s, -1, 1);
    double len = sqrt(dx * dx + dy * dy + dz * dz) + 1e-300;
    double f = 10 * (double)m->diag / len;
    pts[2 * n + i].x = (PROX_REAL)((double)c[0] + f * dx);
    pts[2 * n + i].y = (PROX_REAL)((double)c[1] + f * dy);
    pts[2 * n + i].z = (PROX_REAL)((double)c[2] + f * dz);
  }
  for (i = 0; i < n; ++i) {
    /* exactly on a vertex of a triangle */
    const PROX_FN(prox_triangle) *t = m->tri + oracle_rng_next(&s) % m->nt;
    pts[3 * n + i] = t->v[oracle_rng_next(&s) % 3];
  }
  for (i = 0; i < n; ++i) {
    /* an edge midpoint, rounded */
    const PROX_FN(prox_triangle) *t = m->tri + oracle_rng_next(&s) % m->nt;
    int a = (int)(oracle_rng_next(&s) % 3), b = (a + 1) % 3;
    pts[4 * n + i].x = t->v[a].x / 2 + t->v[b].x / 2;
    pts[4 * n + i].y = t->v[a].y / 2 + t->v[b].y / 2;
    pts[4 * n + i].z = t->v[a].z / 2 + t->v[b].z / 2;
  }
}

/* prox_bvh_within against the scalar loop, for n points with radius^2 =
 * (nearest + f diag)^2 for a few f; returns failures. */
static long PROX_FN(mc_check_within)(const PROX_FN(mc_mesh) * m, const PROX_FN(prox_bvh) * bvh,
                                     const PROX_FN(prox_vec3) * pts, size_t n) {
  size_t i, cap = m->nt;
  uint32_t *ids = (uint32_t *)malloc(cap * sizeof *ids + 1);
  PROX_REAL *ds = (PROX_REAL *)malloc(cap * sizeof *ds + 1);
  unsigned char *seen = (unsigned char *)calloc(m->nt + 1, 1);
  long bad = 0;
  if (!ids || !ds || !seen) {
    CHECK(0);
    free(ids);
    free(ds);
    free(seen);
    return 1;
  }
  for (i = 0; i < n; ++i) {
    PROX_FN(prox_vec3) p = pts[i];
    uint32_t id;
    PROX_REAL d0 = PROX_FN(mc_brute)(m, p, PROX_INF, &id);
    PROX_REAL r = PROX_SQRT(d0) + m->diag * (PROX_REAL)(0.002 * (double)(i % 4));
    PROX_REAL r2 = r * r;
    size_t total, j, expect = 0, small;
    int ok = 1;
    total = PROX_FN(prox_bvh_within)(bvh, p, r2, ids, ds, cap);
    for (j = 0; j < total && j < cap; ++j) {
      uint32_t t = ids[j];
      PROX_REAL d = PROX_FN(prox_point_triangle)(p, &m->tri[t], NULL);
      if (t >= m->nt || seen[t] || !PROX_FN(mc_same)(d, ds[j]) || !(d <= r2))
        ok = 0;
      else
        seen[t] = 1;
    }
    {
      /* Every triangle (with the filter: those of the runs whose sphere
       * reaches within r, plus the margin). */
      double q[3] = {(double)p.x, (double)p.y, (double)p.z}, mg = PROX_FN(mc_margin)(m, q);
      int cull = m->ctri != NULL && isfinite(mg) && isfinite((double)r2);
      double lim = sqrt((double)r2) * (1 + 1e-6) + mg;
      for (j = 0; j < m->nt; ++j) {
        uint32_t k = cull ? m->cid[j] : (uint32_t)j;
        PROX_REAL d;
        if (cull && j % SF_RUN == 0 && sf_lower(m->crun + 4 * (j / SF_RUN), q) > lim) {
          j += SF_RUN - 1;
          continue;
        }
        d = PROX_FN(prox_point_triangle)(p, &m->tri[k], NULL);
        if (d <= r2) {
          ++expect;
          if (!seen[k]) ok = 0;
        }
      }
    }
    if (total != expect) ok = 0;
    for (j = 0; j < total && j < cap; ++j)
      seen[ids[j]] = 0;
    /* A short buffer: the same total, the first entries the same. */
    small = total / 2;
    if (ok && total > 1) {
      uint32_t first = ids[0];
      size_t t2 = PROX_FN(prox_bvh_within)(bvh, p, r2, ids, NULL, small);
      ok = t2 == total && ids[0] == first;
    }
    if (!ok) {
      ++bad;
      CHECK_MSG(0, "within: point %zu: tree %zu triangles, brute force %zu", i, total, expect);
    }
  }
  free(ids);
  free(ds);
  free(seen);
  CHECK(bad == 0);
  return bad;
}
