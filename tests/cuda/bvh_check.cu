// SPDX-License-Identifier: MIT
// Compile-only check that the header-only BVH traversal of prox/bvh.h
// (prox_bvh_view_closest, both precisions) is callable from CUDA device
// code on a view whose arrays the host copied to the device:
//   nvcc -std=c++17 -I include -c tests/cuda/bvh_check.cu -o /tmp/b.o
#include <prox/bvh.h>

__global__ void prox_cuda_bvh_check(prox_bvh_view view, prox_bvh_viewf viewf, const prox_vec3 *pts,
                                    const prox_vec3f *ptsf, prox_mesh_closest *out,
                                    prox_mesh_closestf *outf, double *d) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  d[i] = prox_bvh_view_closest(&view, pts[i], INFINITY, &out[i]);
  d[i] += static_cast<double>(prox_bvh_view_closestf(&viewf, ptsf[i], 1.0f, &outf[i]));
}
