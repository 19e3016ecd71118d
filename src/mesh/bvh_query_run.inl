/* SPDX-License-Identifier: MIT */
/* Template: the closest points of many points in a row, each walk starting
 * from its predecessor's answer (the triangle found last is tried first,
 * which bounds the walk at once when the points are near each other). One
 * loop for every instance of the walk of prox/detail/bvh_query.inl in
 * src/mesh/: the batches and ranges of prox/bvh.h (bvh_query_impl.inl) and
 * the signed distance (sign_impl.inl), whose walk also fetches the sign's
 * record of each nearer triangle.
 *
 * Before including, define PBQ_RUN_NAME (the function's name) and
 * PBQ_RUN_WALK (the walk: an instance of prox_bvh_detail_nearest);
 * bvh_query_leaf.inl must be included (pbq_finite). Both are #undef'd here.
 *
 * PBQ_RUN_NAME(v, points, order, max_sqdist, out, pos, j0, j1): for j in
 * [j0, j1), point i = order[j] (order NULL: i = j), out[i] is the answer of
 * prox_bvh_closest(tree, points[i], max_sqdist, &out[i]), the same bits (the
 * walk's answer does not depend on where it starts), and pos[i] (pos may be
 * NULL) its tree position, PROX_BVH_NONE when none. A non-finite point or
 * a NaN max_sqdist gives the NaN result and leaves the seed as it was. With
 * an order, the point and result a few queries ahead, which are in no
 * particular place, are fetched early. */

#ifndef PBQ_AHEAD
/* How far ahead an ordered run fetches its points and results. */
#define PBQ_AHEAD 8
#if defined(__GNUC__) || defined(__clang__)
#define PBQ_PREFETCH(a, w) __builtin_prefetch((a), (w))
#else
#define PBQ_PREFETCH(a, w) ((void)(a))
#endif
#endif

static void PBQ_RUN_NAME(const PROX_FN(prox_bvh_view) * v, const PROX_FN(prox_vec3) * points,
                         const uint32_t *order, PROX_REAL max_sqdist,
                         PROX_FN(prox_mesh_closest) * out, uint32_t *pos, size_t j0, size_t j1) {
  PROX_FN(prox_bvh_detail_hit) seed, hit;
  size_t j;
  seed.pos = seed.first = seed.count = PROX_BVH_NONE;
  for (j = j0; j < j1; ++j) {
    size_t i = order ? order[j] : j;
    PROX_REAL d;
    if (order && j + PBQ_AHEAD < j1) {
      size_t ia = order[j + PBQ_AHEAD];
      PBQ_PREFETCH(points + ia, 0);
      PBQ_PREFETCH(out + ia, 1);
      PBQ_PREFETCH((const char *)(out + ia) + sizeof *out - 1, 1);
    }
    if (!PROX_FN(pbq_finite)(points[i]) || max_sqdist != max_sqdist) {
      PROX_FN(prox_bvh_detail_fill)(v, points[i], PROX_NAN, NULL, out + i);
      if (pos) pos[i] = PROX_BVH_NONE;
      continue;
    }
    hit = seed;
    d = PBQ_RUN_WALK(v, points[i], max_sqdist, &hit);
    PROX_FN(prox_bvh_detail_fill)(v, points[i], d, &hit, out + i);
    if (pos) pos[i] = hit.pos;
    if (hit.pos != PROX_BVH_NONE) seed = hit;
  }
}

#undef PBQ_RUN_NAME
#undef PBQ_RUN_WALK
