// SPDX-License-Identifier: MIT
// Compile-only check that every contact kernel (K4, prox/contact.h) is
// callable from CUDA device code, in both precisions:
//   nvcc -std=c++17 -I include -c tests/cuda/contact_check.cu -o /tmp/c.o
// The list of contact kernels comes from the registry, tests/kernels.h.
#include "prox/contact.h"

#include "../kernels.h"

// One value, gradient and Hessian call of every contact kernel of the
// registry (tests/kernels.h), on the vertices p, a, b, c of the body below,
// with the AUTO type where the kernel takes one.
#define PROX_CUDA_K4(name, coords, degree, verts, type, bound, gen, shape)                         \
  s += K(prox_ipc_##name)(PROX_KERNELS_K4_ARGS(verts, type, p, a, b, c));                          \
  s += K(prox_ipc_##name##_gradient)(PROX_KERNELS_K4_ARGS(verts, type, p, a, b, c), g);            \
  s += K(prox_ipc_##name##_hessian)(PROX_KERNELS_K4_ARGS(verts, type, p, a, b, c), g, h);

// One body per precision: R is the real type, V the vector type, K(name)
// the kernel name in that precision (the three defined before each use). Beyond the registry: the
// type classifiers, a typed kernel called with a classified type, and the mollifier.
#define PROX_CONTACT_CHECK_BODY                                                                    \
  V p = in[0], a = in[1], b = in[2], c = in[3];                                                    \
  R g[12], h[144], s = 0;                                                                          \
  PROX_KERNELS_K4(PROX_CUDA_K4) {                                                                  \
    prox_ipc_pe_type t = K(prox_ipc_point_edge_distance_type)(p, a, b);                            \
    s += K(prox_ipc_point_edge_distance)(p, a, b, t);                                              \
    s += K(prox_ipc_point_edge_distance_hessian)(p, a, b, t, g, h);                                \
  }                                                                                                \
  {                                                                                                \
    prox_ipc_pt_type t = K(prox_ipc_point_triangle_distance_type)(p, a, b, c);                     \
    s += K(prox_ipc_point_triangle_distance_gradient)(p, a, b, c, t, g);                           \
    s += K(prox_ipc_point_triangle_distance_hessian)(p, a, b, c, t, g, h);                         \
  }                                                                                                \
  {                                                                                                \
    prox_ipc_ee_type t = K(prox_ipc_edge_edge_distance_type)(p, a, b, c);                          \
    prox_ipc_ee_type tp = K(prox_ipc_edge_edge_parallel_distance_type)(p, a, b, c);                \
    s += K(prox_ipc_edge_edge_distance)(p, a, b, c, tp);                                           \
    s += K(prox_ipc_edge_edge_distance_gradient)(p, a, b, c, t, g);                                \
  }                                                                                                \
  {                                                                                                \
    R ex = K(prox_ipc_edge_edge_mollifier_threshold)(p, a, b, c);                                  \
    R x = K(prox_ipc_edge_edge_cross_squarednorm)(p, a, b, c);                                     \
    s += K(prox_ipc_mollifier)(x, ex);                                                             \
    s += K(prox_ipc_mollifier_derivative)(x, ex);                                                  \
    s += K(prox_ipc_mollifier_second_derivative)(x, ex);                                           \
    s += K(prox_ipc_edge_edge_mollifier)(p, a, b, c, ex);                                          \
    s += K(prox_ipc_edge_edge_mollifier_gradient)(p, a, b, c, ex, g);                              \
    s += K(prox_ipc_edge_edge_mollifier_hessian)(p, a, b, c, ex, g, h);                            \
  }                                                                                                \
  out[threadIdx.x] = s + g[threadIdx.x % 12] + h[threadIdx.x % 144];

#define R double
#define V prox_vec3
#define K(name) name
__global__ void prox_contact_check_double(const prox_vec3 *in, double *out){PROX_CONTACT_CHECK_BODY}
#undef R
#undef V
#undef K

#define R float
#define V prox_vec3f
#define K(name) name##f
__global__ void prox_contact_check_float(const prox_vec3f *in, float *out) {
  PROX_CONTACT_CHECK_BODY
}
#undef R
#undef V
#undef K
