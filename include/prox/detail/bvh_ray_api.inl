/* SPDX-License-Identifier: MIT */
/* Template: declarations of the compiled ray queries of prox/bvh_ray.h
 * (src/mesh/bvh_ray.c), once per precision. */

/// First hit of a ray with the mesh within [tmin, tmax]: the hit of
/// smallest t, ties in t going to the lowest triangle index (the answer of
/// a brute-force loop over the triangles in index order keeping the first
/// strict minimum of prox_raycast_triangle()'s t). Returns 1 on a hit and
/// fills *out (may be NULL; see prox_mesh_hit: t, triangle, barycentrics,
/// unit normal of the triangle as wound, exact sign of the crossing).
/// Miss, non-finite ray, zero direction: returns 0, out->hit 0, NaN reals.
PROX_API int PROX_FN(prox_bvh_raycast)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * ray,
                                       PROX_FN(prox_mesh_hit) * out);

/// Whether the ray hits any triangle within [tmin, tmax] (occlusion, shadow
/// rays): stops at the first hit found. 1 exactly when prox_bvh_raycast()
/// would hit. Non-finite ray, zero direction: 0.
PROX_API int PROX_FN(prox_bvh_occluded)(const PROX_FN(prox_bvh) * bvh,
                                        const PROX_FN(prox_ray) * ray);

/// The number of triangles the ray hits within [tmin, tmax], each crossing
/// of the surface counted once (see the file comment), and in *winding
/// (may be NULL) the signed sum: +1 per triangle met from behind
/// (dot(dir, (v1 - v0) x (v2 - v0)) > 0, decided exactly), -1 per triangle
/// met from the front. For an outward-wound closed mesh and [0, +inf],
/// the count is odd exactly when the origin is inside and the signed sum
/// is the origin's winding number (1 inside, 0 outside); for a ray from
/// outside to outside the signed sum is 0. Non-finite ray, zero direction:
/// 0 (winding 0).
PROX_API size_t PROX_FN(prox_bvh_ray_count)(const PROX_FN(prox_bvh) * bvh,
                                            const PROX_FN(prox_ray) * ray, long *winding);

/// All hits of the ray within [tmin, tmax], in increasing (t, triangle)
/// order: writes the first min(total, capacity) of them to hits[] (may be
/// NULL when capacity is 0) and returns the total, the count of
/// prox_bvh_ray_count() (a caller whose buffer was too small can retry with
/// capacity = total). Each hit is filled as by prox_bvh_raycast(), with its
/// sign. Non-finite ray, zero direction: 0.
PROX_API size_t PROX_FN(prox_bvh_ray_all)(const PROX_FN(prox_bvh) * bvh,
                                          const PROX_FN(prox_ray) * ray,
                                          PROX_FN(prox_mesh_hit) * hits, size_t capacity);

/// prox_bvh_raycast() for rays[i], i in [begin, end), into out[i] (the
/// arrays are indexed from 0, not from begin). For an engine's own task
/// system: split [0, n) into ranges of any size and run each as a task, in
/// any order, on any thread; the results do not depend on the split.
PROX_API void PROX_FN(prox_bvh_raycast_range)(const PROX_FN(prox_bvh) * bvh,
                                              const PROX_FN(prox_ray) * rays,
                                              PROX_FN(prox_mesh_hit) * out, size_t begin,
                                              size_t end);

/// prox_bvh_raycast() for n rays in `threads` threads (0 = all cores, 1 =
/// the calling thread), results in the caller's order, the same bits for
/// any thread count. Returns PROX_OK (PROX_ERROR_INVALID_ARGUMENT for a
/// NULL tree or array with n > 0); if a thread cannot be started, the
/// calling thread does its share.
PROX_API prox_status PROX_FN(prox_bvh_raycast_batch)(const PROX_FN(prox_bvh) * bvh,
                                                     const PROX_FN(prox_ray) * rays, size_t n,
                                                     PROX_FN(prox_mesh_hit) * out, int threads);

/// prox_bvh_occluded() for rays[i], i in [begin, end), into hit[i] (1 or
/// 0); see prox_bvh_raycast_range().
PROX_API void PROX_FN(prox_bvh_occluded_range)(const PROX_FN(prox_bvh) * bvh,
                                               const PROX_FN(prox_ray) * rays, uint8_t *hit,
                                               size_t begin, size_t end);

/// prox_bvh_occluded() for n rays in `threads` threads; see
/// prox_bvh_raycast_batch().
PROX_API prox_status PROX_FN(prox_bvh_occluded_batch)(const PROX_FN(prox_bvh) * bvh,
                                                      const PROX_FN(prox_ray) * rays, size_t n,
                                                      uint8_t *hit, int threads);

/// prox_bvh_ray_count() for rays[i], i in [begin, end), into count[i] and
/// winding[i] (winding may be NULL); see prox_bvh_raycast_range().
PROX_API void PROX_FN(prox_bvh_ray_count_range)(const PROX_FN(prox_bvh) * bvh,
                                                const PROX_FN(prox_ray) * rays, size_t *count,
                                                long *winding, size_t begin, size_t end);

/// prox_bvh_ray_count() for n rays in `threads` threads; see
/// prox_bvh_raycast_batch().
PROX_API prox_status PROX_FN(prox_bvh_ray_count_batch)(const PROX_FN(prox_bvh) * bvh,
                                                       const PROX_FN(prox_ray) * rays, size_t n,
                                                       size_t *count, long *winding, int threads);
