/* SPDX-License-Identifier: MIT */
/* Private to the ray queries (src/mesh/bvh_ray*.c): the traversals that
 * src/mesh/bvh_ray_avx2.c and bvh_ray_avx512.c compile with their vector
 * leaf and node tests. Each has the contract of
 * prox_bvh_detail_ray_trav() (prox/detail/bvh_ray.inl) for rays whose
 * direction components are all normal (pr->mode all 0: the vector node
 * test has no other case; src/mesh/bvh_ray_impl.inl sends the others to
 * the portable traversal); ok_<isa> is 1
 * when the file was compiled with its instruction set (else the
 * traversals are never called). */
#ifndef PROX_SRC_MESH_BVH_RAY_SIMD_H
#define PROX_SRC_MESH_BVH_RAY_SIMD_H

#include <prox/bvh_ray.h>

#define PROX_BVHR_DECLARE(isa)                                                                     \
  extern const int prox_detail_bvhr_ok_##isa;                                                      \
  size_t prox_detail_bvhr_trav_##isa(const prox_bvh_view *v, const prox_bvh_rayprep *pr, int mode, \
                                     uint32_t *best_pos, double *best, long *winding,              \
                                     prox_mesh_hit *hits, size_t cap);                             \
  size_t prox_detail_bvhr_travf_##isa(const prox_bvh_viewf *v, const prox_bvh_rayprepf *pr,        \
                                      int mode, uint32_t *best_pos, float *best, long *winding,    \
                                      prox_mesh_hitf *hits, size_t cap);
PROX_BVHR_DECLARE(avx2)
PROX_BVHR_DECLARE(avx512)
#undef PROX_BVHR_DECLARE

#endif /* PROX_SRC_MESH_BVH_RAY_SIMD_H */
