/* SPDX-License-Identifier: MIT */
/* Template of tests/test_bvh_domain.c, once per precision (after
 * mesh_check.inl and mesh_ray_check.inl): one mesh of the sweep, its
 * queries against the brute-force oracles. */

/* Coordinates of p of magnitude below `floor` become 0, so that every
 * nonzero one stays in the domain (see the file comment of
 * test_bvh_domain.c). */
static void PROX_FN(bd_flush)(PROX_FN(prox_vec3) * p, size_t n, double floor) {
  size_t i;
  for (i = 0; i < n; ++i) {
    if (fabs((double)p[i].x) < floor) p[i].x = 0;
    if (fabs((double)p[i].y) < floor) p[i].y = 0;
    if (fabs((double)p[i].z) < floor) p[i].z = 0;
  }
}

/* The mesh (v, t) at scale 2^k: the five point sets (n points each) for
 * the closest point, with a maximum distance and in a batch; the radius
 * query; with rays set, n rays of each of the four ray sets at every SIMD
 * level (parity asserted when closed is set) and the ray batches.
 * Failures are counted in *bad (the ray checks report theirs through the
 * harness alone). */
static void PROX_FN(bd_mesh)(const double *v, size_t nv, const uint32_t *t, size_t nt, int k,
                             int rays, int closed, size_t n, uint64_t seed, const char *what,
                             long *bad) {
  PROX_FN(mc_mesh) m;
  PROX_FN(prox_bvh) *bvh = NULL;
  PROX_FN(prox_vec3) * pts;
  PROX_FN(prox_mesh_closest) * one, *all;
  double floor = ldexp(1.0, k - 20);
  size_t i;
  if (!CHECK(PROX_FN(mc_make)(&m, v, nv, t, nt))) {
    ++*bad;
    return;
  }
  pts = (PROX_FN(prox_vec3) *)malloc(5 * n * sizeof *pts);
  one = (PROX_FN(prox_mesh_closest) *)malloc(5 * n * sizeof *one);
  all = (PROX_FN(prox_mesh_closest) *)malloc(5 * n * sizeof *all);
  if (!CHECK(pts && one && all) ||
      !CHECK_MSG(PROX_FN(prox_bvh_build)(&m.view, NULL, NULL, &bvh, NULL) == PROX_OK,
                 "%s: the build failed", what)) {
    ++*bad;
  } else {
    PROX_FN(mc_query_sets)(&m, n, seed, pts);
    PROX_FN(bd_flush)(pts, 5 * n, floor);
    /* The oracle's SIMD loop is the literal scalar loop here too. */
    for (i = 0; i < 5 * n; i += 7) {
      uint32_t ia, ib;
      PROX_REAL da = PROX_FN(mc_brute)(&m, pts[i], PROX_INF, &ia);
      PROX_REAL db = PROX_FN(mc_brute_scalar)(&m, pts[i], PROX_INF, &ib);
      if (!CHECK_MSG(ia == ib && PROX_FN(mc_same)(da, db), "%s: the oracles differ at point %zu",
                     what, i))
        ++*bad;
    }
    *bad += PROX_FN(mc_check_points)(&m, bvh, pts, 5 * n, PROX_INF, what) != 0;
    /* A maximum distance that about half the near points are within. */
    *bad += PROX_FN(mc_check_points)(&m, bvh, pts + n, n,
                                     (PROX_REAL)(m.diag * m.diag * (PROX_REAL)2.5e-5), what) != 0;
    *bad += PROX_FN(mc_check_within)(&m, bvh, pts + n, 4) != 0;
    /* The batch (its packets walk the tree together): the single
     * queries' bits. */
    for (i = 0; i < 5 * n; ++i)
      PROX_FN(prox_bvh_closest)(bvh, pts[i], PROX_INF, &one[i]);
    if (CHECK(PROX_FN(prox_bvh_closest_batch)(bvh, pts, 5 * n, PROX_INF, all, 2) == PROX_OK))
      for (i = 0; i < 5 * n; ++i)
        if (!CHECK_MSG(one[i].triangle == all[i].triangle &&
                           PROX_FN(mc_same)(one[i].sqdist, all[i].sqdist) &&
                           PROX_FN(mc_same)(one[i].point.x, all[i].point.x),
                       "%s: batch point %zu", what, i)) {
          ++*bad;
          break;
        }
  }
  PROX_FN(prox_bvh_free)(bvh);
  free(pts);
  free(one);
  free(all);
  PROX_FN(mc_free)(&m);
  if (rays) {
    PROX_FN(rt_mesh) r;
    if (PROX_FN(rt_make)(&r, what, v, nv, t, nt, closed, 0)) {
      PROX_FN(rt_sets)(&r, (long)n, seed + 1);
      PROX_FN(rt_batches)(&r, (long)n, seed + 2);
    } else {
      ++*bad;
    }
    PROX_FN(rt_free)(&r);
  }
}
