// SPDX-License-Identifier: MIT
// Compile-only check that every contact kernel (K4, prox/contact.h) is
// callable from CUDA device code, in both precisions:
//   nvcc -std=c++17 -I include -c tests/cuda/contact_check.cu -o /tmp/c.o
#include "prox/contact.h"

// One body per precision: R is the real type, V the vector type, K(name)
// the kernel name in that precision.
#define PROX_CONTACT_CHECK_BODY(R, V, K)                                                           \
  V p = in[0], a = in[1], b = in[2], c = in[3];                                                    \
  R g[12], h[144], s = 0;                                                                          \
  s += K(prox_ipc_point_point_distance)(p, a);                                                     \
  s += K(prox_ipc_point_point_distance_gradient)(p, a, g);                                         \
  s += K(prox_ipc_point_point_distance_hessian)(p, a, g, h);                                       \
  s += K(prox_ipc_point_line_distance)(p, a, b);                                                   \
  s += K(prox_ipc_point_line_distance_gradient)(p, a, b, g);                                       \
  s += K(prox_ipc_point_line_distance_hessian)(p, a, b, g, h);                                     \
  s += K(prox_ipc_point_plane_distance)(p, a, b, c);                                               \
  s += K(prox_ipc_point_plane_distance_gradient)(p, a, b, c, g);                                   \
  s += K(prox_ipc_point_plane_distance_hessian)(p, a, b, c, g, h);                                 \
  s += K(prox_ipc_line_line_distance)(p, a, b, c);                                                 \
  s += K(prox_ipc_line_line_distance_gradient)(p, a, b, c, g);                                     \
  s += K(prox_ipc_line_line_distance_hessian)(p, a, b, c, g, h);                                   \
  {                                                                                                \
    prox_ipc_pe_type t = K(prox_ipc_point_edge_distance_type)(p, a, b);                            \
    s += K(prox_ipc_point_edge_distance)(p, a, b, t);                                              \
    s += K(prox_ipc_point_edge_distance_gradient)(p, a, b, PROX_PE_AUTO, g);                       \
    s += K(prox_ipc_point_edge_distance_hessian)(p, a, b, t, g, h);                                \
  }                                                                                                \
  {                                                                                                \
    prox_ipc_pt_type t = K(prox_ipc_point_triangle_distance_type)(p, a, b, c);                     \
    s += K(prox_ipc_point_triangle_distance)(p, a, b, c, PROX_PT_AUTO);                            \
    s += K(prox_ipc_point_triangle_distance_gradient)(p, a, b, c, t, g);                           \
    s += K(prox_ipc_point_triangle_distance_hessian)(p, a, b, c, t, g, h);                         \
  }                                                                                                \
  {                                                                                                \
    prox_ipc_ee_type t = K(prox_ipc_edge_edge_distance_type)(p, a, b, c);                          \
    prox_ipc_ee_type tp = K(prox_ipc_edge_edge_parallel_distance_type)(p, a, b, c);                \
    s += K(prox_ipc_edge_edge_distance)(p, a, b, c, tp);                                           \
    s += K(prox_ipc_edge_edge_distance_gradient)(p, a, b, c, t, g);                                \
    s += K(prox_ipc_edge_edge_distance_hessian)(p, a, b, c, PROX_EE_AUTO, g, h);                   \
  }                                                                                                \
  s += K(prox_ipc_edge_edge_cross_squarednorm)(p, a, b, c);                                        \
  s += K(prox_ipc_edge_edge_cross_squarednorm_gradient)(p, a, b, c, g);                            \
  s += K(prox_ipc_edge_edge_cross_squarednorm_hessian)(p, a, b, c, g, h);                          \
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

#define PROX_CHECK_DOUBLE(name) name
#define PROX_CHECK_FLOAT(name) name##f

__global__ void prox_contact_check_double(const prox_vec3 *in, double *out){
    PROX_CONTACT_CHECK_BODY(double, prox_vec3, PROX_CHECK_DOUBLE)}

__global__ void prox_contact_check_float(const prox_vec3f *in, float *out) {
  PROX_CONTACT_CHECK_BODY(float, prox_vec3f, PROX_CHECK_FLOAT)
}
