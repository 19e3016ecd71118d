/* SPDX-License-Identifier: MIT */
/// @file bvh_ray.h
/// @brief Ray queries on a BVH (M3, M4): first hit, any hit (occlusion),
/// the number of crossings with their signed sum, and all hits in order,
/// with batch forms; in double (prox_bvh) and float (prox_bvhf, suffix f).
///
/// A ray is a prox_ray (prox/primitives.h): origin, direction (any
/// nonzero length; t is in units of it) and the interval [tmin, tmax]
/// (prox_ray_make gives [0, +inf]; tmax < tmin is read as the single
/// parameter tmin). Every answer is that of prox_raycast_triangle()
/// (prox/raycast.h) on the mesh's own triangles: a triangle is hit exactly
/// when that kernel hits it, with its t. The kernel is watertight with an
/// exact tie rule (a symbolic perturbation of the origin, the same for
/// every triangle), so:
/// - a ray through a shared edge or vertex of a closed mesh where it
///   crosses the surface hits exactly one of the triangles there, and zero
///   or two where it only touches the surface (a silhouette): each crossing
///   is counted once, and the count's parity over [0, +inf] is the inside
///   status of an origin not on a closed mesh;
/// - a ray lying in a triangle's plane never hits that triangle, nor does
///   any ray a triangle of zero area (its neighbours in a closed mesh
///   catch the ray).
/// The traversal is conservative (Ize 2013; see prox/detail/bvh_ray.inl):
/// no box that the ray meets within its interval is skipped, so no hit is
/// lost in the tree. Non-finite rays and zero directions hit nothing.
///
/// Threads: queries never allocate and may run concurrently on one tree.
/// The compiled forms evaluate leaves and nodes with AVX2 or AVX-512
/// where prox_simd_level() (prox/batch.h) allows, with the same answers
/// at every level. prox_bvh_view_raycast() and its siblings (declared
/// below, defined in detail/bvh_ray.inl) are the header-only,
/// allocation-free forms with a fixed stack, callable from CUDA device code
/// on a view of the arrays.
#ifndef PROX_BVH_RAY_H
#define PROX_BVH_RAY_H

#include "bvh.h"
#include "raycast.h"

PROX_EXTERN_C_BEGIN

/// The result of a ray query on a double mesh: one hit.
///
/// On a hit: `t` and `bary` are prox_raycast_triangle()'s on that triangle
/// (bary[k] the barycentric coordinate of the triangle's vertex k, in the
/// mesh's vertex order), `normal` its unit normal (v1 - v0) x (v2 - v0) of
/// the triangle as wound (not flipped toward the ray), and `sign` the
/// exact sign of dot(dir, (v1 - v0) x (v2 - v0)): +1 when the ray meets the
/// triangle from behind (it leaves an outward-wound closed mesh), -1 from
/// the front (it enters). On a miss: hit 0, sign 0, triangle UINT32_MAX,
/// every real NaN.
typedef struct prox_mesh_hit {
  int hit;           ///< 1 on a hit, 0 on a miss
  int sign;          ///< +1 leaving (from behind), -1 entering, 0 on a miss
  double t;          ///< ray parameter, in units of the direction
  uint32_t triangle; ///< the mesh's index of the triangle hit
  double bary[3];    ///< barycentrics of the hit point
  prox_vec3 normal;  ///< unit normal of the triangle as wound
} prox_mesh_hit;

/// prox_mesh_hit for float meshes (same members, in float).
typedef struct prox_mesh_hitf {
  int hit;           ///< 1 on a hit, 0 on a miss
  int sign;          ///< +1 leaving (from behind), -1 entering, 0 on a miss
  float t;           ///< ray parameter, in units of the direction
  uint32_t triangle; ///< the mesh's index of the triangle hit
  float bary[3];     ///< barycentrics of the hit point
  prox_vec3f normal; ///< unit normal of the triangle as wound
} prox_mesh_hitf;

/* The header-only traversal (prox_bvh_view_raycast and its siblings), once
 * per precision; its declarations follow, with the compiled queries'. */
#include "detail/real_double.h"
#include "detail/bvh_ray.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/bvh_ray.inl"
#include "detail/real_end.h"

/* ---- Compiled queries (src/mesh/bvh_ray.c) ---- */

/// First hit of a ray with the mesh within [tmin, tmax]: the hit of
/// smallest t, ties in t going to the lowest triangle index (the answer of
/// a brute-force loop over the triangles in index order keeping the first
/// strict minimum of prox_raycast_triangle()'s t; for grazing rays whose t
/// error exceeds the traversal's slack, another hit whose rounded t is
/// within that error may be chosen: see detail/bvh_ray.inl). Returns 1 on a
/// hit and fills *out (may be NULL; see
/// prox_mesh_hit: t, triangle, barycentrics, unit normal of the triangle as
/// wound, exact sign of the crossing). Miss, non-finite ray, zero
/// direction: returns 0, out->hit 0, NaN reals. bvh and ray must not be
/// NULL. Does not allocate; thread-safe on a shared tree.
PROX_API int prox_bvh_raycast(const prox_bvh *bvh, const prox_ray *ray, prox_mesh_hit *out);
/// Float version of prox_bvh_raycast().
PROX_API int prox_bvh_raycastf(const prox_bvhf *bvh, const prox_rayf *ray, prox_mesh_hitf *out);

/// Whether the ray hits any triangle within [tmin, tmax] (occlusion, shadow
/// rays): stops at the first hit found. 1 exactly when prox_bvh_raycast()
/// would hit. Non-finite ray, zero direction: 0. Does not allocate;
/// thread-safe.
PROX_API int prox_bvh_occluded(const prox_bvh *bvh, const prox_ray *ray);
/// Float version of prox_bvh_occluded().
PROX_API int prox_bvh_occludedf(const prox_bvhf *bvh, const prox_rayf *ray);

/// The number of triangles the ray hits within [tmin, tmax], each crossing
/// of the surface counted once (see the file comment), and in *winding
/// (may be NULL) the signed sum: +1 per triangle met from behind
/// (dot(dir, (v1 - v0) x (v2 - v0)) > 0, decided exactly), -1 per triangle
/// met from the front. For an outward-wound closed mesh and [0, +inf],
/// the count is odd exactly when the origin is inside and the signed sum
/// is the origin's winding number (1 inside, 0 outside); for a ray from
/// outside to outside the signed sum is 0. Over [0, +inf] the count is
/// exact (no box on the ray is skipped, no crossing counted twice).
/// Non-finite ray, zero direction: 0 (winding 0). Does not allocate;
/// thread-safe.
PROX_API size_t prox_bvh_ray_count(const prox_bvh *bvh, const prox_ray *ray, long *winding);
/// Float version of prox_bvh_ray_count().
PROX_API size_t prox_bvh_ray_countf(const prox_bvhf *bvh, const prox_rayf *ray, long *winding);

/// All hits of the ray within [tmin, tmax], in increasing (t, triangle)
/// order: writes the first min(total, capacity) of them to hits[] (may be
/// NULL, read as capacity 0) and returns the total, the count of
/// prox_bvh_ray_count() (a caller whose buffer was too small can retry with
/// capacity = total). Each hit is filled as by prox_bvh_raycast(), with its
/// sign. Non-finite ray, zero direction: 0. Does not allocate; thread-safe.
PROX_API size_t prox_bvh_ray_all(const prox_bvh *bvh, const prox_ray *ray, prox_mesh_hit *hits,
                                 size_t capacity);
/// Float version of prox_bvh_ray_all().
PROX_API size_t prox_bvh_ray_allf(const prox_bvhf *bvh, const prox_rayf *ray, prox_mesh_hitf *hits,
                                  size_t capacity);

/// prox_bvh_raycast() for rays[i], i in [begin, end), into out[i] (the
/// arrays are indexed from 0, not from begin). For an engine's own task
/// system: split [0, n) into ranges of any size and run each as a task, in
/// any order, on any thread; the results do not depend on the split. No
/// argument checks; does not allocate.
PROX_API void prox_bvh_raycast_range(const prox_bvh *bvh, const prox_ray *rays, prox_mesh_hit *out,
                                     size_t begin, size_t end);
/// Float version of prox_bvh_raycast_range().
PROX_API void prox_bvh_raycast_rangef(const prox_bvhf *bvh, const prox_rayf *rays,
                                      prox_mesh_hitf *out, size_t begin, size_t end);

/// prox_bvh_raycast() for n rays in `threads` threads (0 = all cores, 1 =
/// the calling thread), results in the caller's order, the same bits for
/// any thread count. Returns PROX_OK, or PROX_ERROR_INVALID_ARGUMENT for a
/// NULL tree, NULL arrays with n > 0 or threads < 0 (nothing written); if
/// a thread cannot be started, the calling thread does its share.
PROX_API prox_status prox_bvh_raycast_batch(const prox_bvh *bvh, const prox_ray *rays, size_t n,
                                            prox_mesh_hit *out, int threads);
/// Float version of prox_bvh_raycast_batch().
PROX_API prox_status prox_bvh_raycast_batchf(const prox_bvhf *bvh, const prox_rayf *rays, size_t n,
                                             prox_mesh_hitf *out, int threads);

/// prox_bvh_occluded() for rays[i], i in [begin, end), into hit[i] (1 or
/// 0); see prox_bvh_raycast_range().
PROX_API void prox_bvh_occluded_range(const prox_bvh *bvh, const prox_ray *rays, uint8_t *hit,
                                      size_t begin, size_t end);
/// Float version of prox_bvh_occluded_range().
PROX_API void prox_bvh_occluded_rangef(const prox_bvhf *bvh, const prox_rayf *rays, uint8_t *hit,
                                       size_t begin, size_t end);

/// prox_bvh_occluded() for n rays in `threads` threads; same arguments,
/// errors and guarantees as prox_bvh_raycast_batch().
PROX_API prox_status prox_bvh_occluded_batch(const prox_bvh *bvh, const prox_ray *rays, size_t n,
                                             uint8_t *hit, int threads);
/// Float version of prox_bvh_occluded_batch().
PROX_API prox_status prox_bvh_occluded_batchf(const prox_bvhf *bvh, const prox_rayf *rays, size_t n,
                                              uint8_t *hit, int threads);

/// prox_bvh_ray_count() for rays[i], i in [begin, end), into count[i] and
/// winding[i] (winding may be NULL); see prox_bvh_raycast_range().
PROX_API void prox_bvh_ray_count_range(const prox_bvh *bvh, const prox_ray *rays, size_t *count,
                                       long *winding, size_t begin, size_t end);
/// Float version of prox_bvh_ray_count_range().
PROX_API void prox_bvh_ray_count_rangef(const prox_bvhf *bvh, const prox_rayf *rays, size_t *count,
                                        long *winding, size_t begin, size_t end);

/// prox_bvh_ray_count() for n rays in `threads` threads (winding may be
/// NULL); same arguments, errors and guarantees as prox_bvh_raycast_batch().
PROX_API prox_status prox_bvh_ray_count_batch(const prox_bvh *bvh, const prox_ray *rays, size_t n,
                                              size_t *count, long *winding, int threads);
/// Float version of prox_bvh_ray_count_batch().
PROX_API prox_status prox_bvh_ray_count_batchf(const prox_bvhf *bvh, const prox_rayf *rays,
                                               size_t n, size_t *count, long *winding, int threads);

/* ---- Header-only queries on a view (detail/bvh_ray.inl) ---- */

/// prox_bvh_raycast() on a view (prox_bvh_get_view()), header-only:
/// allocation-free, a fixed stack of PROX_BVH_STACK entries, callable from
/// CUDA device code (the view's arrays in device memory); leaves evaluated
/// by prox_raycast_triangle() in a loop. Same answers as
/// prox_bvh_raycast(), under the same rules (miss, non-finite ray, zero
/// direction: 0, out->hit 0, NaN reals).
PROX_HD static inline int prox_bvh_view_raycast(const prox_bvh_view *v, const prox_ray *ray,
                                                prox_mesh_hit *out);
/// Float version of prox_bvh_view_raycast().
PROX_HD static inline int prox_bvh_view_raycastf(const prox_bvh_viewf *v, const prox_rayf *ray,
                                                 prox_mesh_hitf *out);

/// prox_bvh_occluded() on a view, header-only (see
/// prox_bvh_view_raycast()); same answers.
PROX_HD static inline int prox_bvh_view_occluded(const prox_bvh_view *v, const prox_ray *ray);
/// Float version of prox_bvh_view_occluded().
PROX_HD static inline int prox_bvh_view_occludedf(const prox_bvh_viewf *v, const prox_rayf *ray);

/// prox_bvh_ray_count() on a view, header-only (see
/// prox_bvh_view_raycast()); same answers (winding may be NULL).
PROX_HD static inline size_t prox_bvh_view_ray_count(const prox_bvh_view *v, const prox_ray *ray,
                                                     long *winding);
/// Float version of prox_bvh_view_ray_count().
PROX_HD static inline size_t prox_bvh_view_ray_countf(const prox_bvh_viewf *v, const prox_rayf *ray,
                                                      long *winding);

/// prox_bvh_ray_all() on a view, header-only (see
/// prox_bvh_view_raycast()); same answers. hits may be NULL only when
/// capacity is 0.
PROX_HD static inline size_t prox_bvh_view_ray_all(const prox_bvh_view *v, const prox_ray *ray,
                                                   prox_mesh_hit *hits, size_t capacity);
/// Float version of prox_bvh_view_ray_all().
PROX_HD static inline size_t prox_bvh_view_ray_allf(const prox_bvh_viewf *v, const prox_rayf *ray,
                                                    prox_mesh_hitf *hits, size_t capacity);

PROX_EXTERN_C_END

#endif /* PROX_BVH_RAY_H */
