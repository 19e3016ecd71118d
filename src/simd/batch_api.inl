/* SPDX-License-Identifier: MIT */
/* Template: the public batch queries of one precision (prox/batch.h):
 * argument handling and the dispatch to the active level's entry points;
 * and the scalar level's entry points, portable loops over the scalar
 * kernels of prox/closest.h. Included twice by src/simd/batch.c. */

/* The result of prox_point_triangles() for n == 0. */
static void PROX_FN(prox_batch_empty)(PROX_FN(prox_closest) * best) {
  PROX_FN(prox_detail_nan)(best);
  best->sqdist = PROX_INF;
}

/* Portable leaf loop. The vector kernels reproduce exactly this order of
 * decisions: the first NaN ends the search, a strictly smaller distance
 * replaces the best. */
static PROX_REAL PROX_FN(prox_batch_scan)(PROX_FN(prox_vec3) p, const PROX_FN(prox_triangle) * tris,
                                          const PROX_FN(prox_triangle_soa) * soa, size_t n,
                                          size_t *best_index) {
  PROX_REAL best = PROX_INF;
  size_t i, bi = 0;
  for (i = 0; i < n; ++i) {
    PROX_REAL d2;
    if (tris) {
      d2 = PROX_FN(prox_point_triangle)(p, &tris[i], NULL);
    } else {
      PROX_FN(prox_triangle) t;
      PROX_BATCH_SOA_GET(t, soa, i);
      d2 = PROX_FN(prox_point_triangle)(p, &t, NULL);
    }
    if (d2 != d2) {
      *best_index = i;
      return d2;
    }
    if (d2 < best) {
      best = d2;
      bi = i;
    }
  }
  *best_index = bi;
  return best;
}

/* The scalar level's entry points (contracts in src/simd/batch_impl.h). */
static PROX_REAL PROX_FN(prox_batch_scalar_point_triangles)(PROX_FN(prox_vec3) p,
                                                            const PROX_FN(prox_triangle) * tris,
                                                            size_t n, size_t *best_index) {
  return PROX_FN(prox_batch_scan)(p, tris, NULL, n, best_index);
}

static PROX_REAL PROX_FN(prox_batch_scalar_point_triangles_soa)(
    PROX_FN(prox_vec3) p, const PROX_FN(prox_triangle_soa) * tris, size_t n, size_t *best_index) {
  return PROX_FN(prox_batch_scan)(p, NULL, tris, n, best_index);
}

static void PROX_FN(prox_batch_scalar_points_triangle)(const PROX_FN(prox_vec3) * pts, size_t n,
                                                       const PROX_FN(prox_triangle) * tri,
                                                       PROX_REAL *sqdist_out,
                                                       PROX_FN(prox_closest) * out) {
  size_t i;
  for (i = 0; i < n; ++i) {
    PROX_REAL d2 = PROX_FN(prox_point_triangle)(pts[i], tri, out ? &out[i] : NULL);
    if (sqdist_out) sqdist_out[i] = d2;
  }
}

static void PROX_FN(prox_batch_scalar_points_triangles_each)(const PROX_FN(prox_vec3) * pts,
                                                             size_t n,
                                                             const PROX_FN(prox_triangle) * tris,
                                                             PROX_REAL *sqdist_out,
                                                             PROX_FN(prox_closest) * out) {
  size_t i;
  for (i = 0; i < n; ++i) {
    PROX_REAL d2 = PROX_FN(prox_point_triangle)(pts[i], &tris[i], out ? &out[i] : NULL);
    if (sqdist_out) sqdist_out[i] = d2;
  }
}

static void PROX_FN(prox_batch_scalar_points_aabb)(const PROX_FN(prox_vec3) * pts, size_t n,
                                                   const PROX_FN(prox_aabb) * box,
                                                   PROX_REAL *sqdist_out,
                                                   PROX_FN(prox_closest) * out) {
  size_t i;
  if (!out) {
    /* A copy of the box that the stores cannot alias: its guard and loads
     * leave the loop, which the compiler can then vectorise. */
    const PROX_FN(prox_aabb) b = *box;
    for (i = 0; i < n; ++i)
      sqdist_out[i] = PROX_FN(prox_point_aabb)(pts[i], &b, NULL);
    return;
  }
  for (i = 0; i < n; ++i) {
    PROX_REAL d2 = PROX_FN(prox_point_aabb)(pts[i], box, out ? &out[i] : NULL);
    if (sqdist_out) sqdist_out[i] = d2;
  }
}

PROX_REAL PROX_FN(prox_point_triangles)(PROX_FN(prox_vec3) p, const PROX_FN(prox_triangle) * tris,
                                        size_t n, size_t *best_index,
                                        PROX_FN(prox_closest) * best) {
  size_t bi = SIZE_MAX;
  PROX_REAL d2 = PROX_INF;
  PROX_ASSERT(n == 0 || tris != NULL);
  if (n > 0) d2 = prox_simd_table_get()->batch->PROX_FN(point_triangles)(p, tris, n, &bi);
  if (best_index) *best_index = bi;
  if (best) {
    if (n > 0)
      PROX_FN(prox_point_triangle)(p, &tris[bi], best);
    else
      PROX_FN(prox_batch_empty)(best);
  }
  return d2;
}

PROX_REAL PROX_FN(prox_point_triangles_soa)(PROX_FN(prox_vec3) p,
                                            const PROX_FN(prox_triangle_soa) * tris, size_t n,
                                            size_t *best_index, PROX_FN(prox_closest) * best) {
  size_t bi = SIZE_MAX;
  PROX_REAL d2 = PROX_INF;
  PROX_ASSERT(n == 0 || tris != NULL);
  if (n > 0) d2 = prox_simd_table_get()->batch->PROX_FN(point_triangles_soa)(p, tris, n, &bi);
  if (best_index) *best_index = bi;
  if (best) {
    if (n > 0) {
      PROX_FN(prox_triangle) t;
      PROX_BATCH_SOA_GET(t, tris, bi);
      PROX_FN(prox_point_triangle)(p, &t, best);
    } else {
      PROX_FN(prox_batch_empty)(best);
    }
  }
  return d2;
}

void PROX_FN(prox_points_triangle)(const PROX_FN(prox_vec3) * pts, size_t n,
                                   const PROX_FN(prox_triangle) * tri, PROX_REAL *sqdist_out,
                                   PROX_FN(prox_closest) * out) {
  PROX_ASSERT(n == 0 || (pts != NULL && tri != NULL));
  if (n == 0 || (!sqdist_out && !out)) return;
  prox_simd_table_get()->batch->PROX_FN(points_triangle)(pts, n, tri, sqdist_out, out);
}

void PROX_FN(prox_points_aabb)(const PROX_FN(prox_vec3) * pts, size_t n,
                               const PROX_FN(prox_aabb) * box, PROX_REAL *sqdist_out,
                               PROX_FN(prox_closest) * out) {
  PROX_ASSERT(n == 0 || (pts != NULL && box != NULL));
  if (n == 0 || (!sqdist_out && !out)) return;
  prox_simd_table_get()->batch->PROX_FN(points_aabb)(pts, n, box, sqdist_out, out);
}
