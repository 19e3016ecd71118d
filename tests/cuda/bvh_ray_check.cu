// SPDX-License-Identifier: MIT
// Compile-only check (nvcc -std=c++17 -I include -c): the header-only ray
// traversal of prox/bvh_ray.h (prox_bvh_view_raycast and its siblings) is
// callable from device code in both precisions, on a view whose arrays the
// caller has copied to the device. Never executed.
#include <prox/bvh_ray.h>

__global__ void prox_cuda_bvh_ray_check(prox_bvh_view v, prox_bvh_viewf vf, const prox_ray *rays,
                                        const prox_rayf *raysf, prox_mesh_hit *out,
                                        prox_mesh_hitf *outf, int *occ, size_t *count,
                                        long *winding, prox_mesh_hit *all) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  prox_bvh_view_raycast(&v, &rays[i], &out[i]);
  prox_bvh_view_raycastf(&vf, &raysf[i], &outf[i]);
  occ[2 * i] = prox_bvh_view_occluded(&v, &rays[i]);
  occ[2 * i + 1] = prox_bvh_view_occludedf(&vf, &raysf[i]);
  count[2 * i] = prox_bvh_view_ray_count(&v, &rays[i], &winding[2 * i]);
  count[2 * i + 1] = prox_bvh_view_ray_countf(&vf, &raysf[i], &winding[2 * i + 1]);
  count[2 * i] += prox_bvh_view_ray_all(&v, &rays[i], all + 4 * i, 4);
}
