// SPDX-License-Identifier: MIT
// Compile-only check that every point query (K1), pair query (K2), ray cast
// (K3), overlap test, primitive constructor and validity check is callable
// from CUDA device code, in both precisions (compile_check.cu covers a few
// K1 kernels and the vector operations, contact_check.cu the contact
// kernels):
//   nvcc -std=c++17 -I include -c tests/cuda/kernels_check.cu -o /tmp/k.o
// The lists of kernels come from the registry, tests/kernels.h.
#include <prox/prox.h>

#include "../kernels.h"

// One call of every kernel of the registry's families, on the variables of
// the body below (K1: the primitive prim; K2: <type>_1 and <type>_2; K3:
// the ray ry and prim; overlap: first and second2; validity: prim).
#define PROX_CUDA_K1(name, prim, degree, param_degree) s += K(prox_##name)(p, &prim, &r);
#define PROX_CUDA_K2(name, first, second) s += K(prox_##name)(&first##_1, &second##_2, &pr);
#define PROX_CUDA_K3(name, prim, solid) n += K(prox_##name)(&ry, &prim, &h);
#define PROX_CUDA_OVERLAP(name, first, second) n += K(prox_##name)(&first, &second##2);
#define PROX_CUDA_VALID(name, prim) n += K(prox_##name)(&prim);

// One body per precision: R is the real type, K(name) the name of a type or
// kernel in that precision (both macros defined before each use).
#define PROX_KERNELS_CHECK_BODY                                                                    \
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);                           \
  K(prox_vec3)                                                                                     \
  p = in[4 * i], a = in[4 * i + 1], b = in[4 * i + 2], c = in[4 * i + 3];                          \
  K(prox_closest) r;                                                                               \
  K(prox_pair) pr;                                                                                 \
  K(prox_rayhit) h;                                                                                \
  K(prox_plane) pl, pl2;                                                                           \
  K(prox_line) ln;                                                                                 \
  K(prox_ray) ry;                                                                                  \
  K(prox_segment) sg, sg2;                                                                         \
  K(prox_triangle) tr, tr2;                                                                        \
  K(prox_rectangle) rc;                                                                            \
  K(prox_aabb) ab, ab2;                                                                            \
  K(prox_obb) ob, ob2;                                                                             \
  K(prox_sphere) sp;                                                                               \
  K(prox_capsule) cp, cp2;                                                                         \
  K(prox_tetrahedron) te;                                                                          \
  R s = 0;                                                                                         \
  int n = K(prox_plane_from_normal)(a, b.x, &pl);                                                  \
  n += K(prox_plane_from_point_normal)(p, a, &pl2);                                                \
  ln.origin = ry.origin = sg.a = a;                                                                \
  ln.dir = ry.dir = K(prox_vsub)(b, a);                                                            \
  ry.tmin = 0;                                                                                     \
  ry.tmax = b.y;                                                                                   \
  sg.b = b;                                                                                        \
  sg2.a = c;                                                                                       \
  sg2.b = p;                                                                                       \
  tr.v[0] = tr2.v[1] = te.v[0] = a;                                                                \
  tr.v[1] = tr2.v[2] = te.v[1] = b;                                                                \
  tr.v[2] = tr2.v[0] = te.v[2] = c;                                                                \
  te.v[3] = p;                                                                                     \
  rc.center = ob.center = a;                                                                       \
  rc.axis[0] = ob.axis[0] = K(prox_v3)(1, 0, 0);                                                   \
  rc.axis[1] = ob.axis[1] = K(prox_v3)(0, 1, 0);                                                   \
  ob.axis[2] = K(prox_v3)(0, 0, 1);                                                                \
  rc.half[0] = ob.half[0] = b.x;                                                                   \
  rc.half[1] = ob.half[1] = b.y;                                                                   \
  ob.half[2] = b.z;                                                                                \
  ob2 = ob;                                                                                        \
  ob2.center = c;                                                                                  \
  ab.min = ab2.max = a;                                                                            \
  ab.max = ab2.min = b;                                                                            \
  sp.center = c;                                                                                   \
  sp.radius = p.x;                                                                                 \
  cp.a = cp2.b = a;                                                                                \
  cp.b = cp2.a = c;                                                                                \
  cp.radius = cp2.radius = p.y;                                                                    \
  /* The arguments of the K2 kernels by type and place. */                                         \
  K(prox_line) &line_1 = ln, &line_2 = ln;                                                         \
  K(prox_ray) &ray_1 = ry, &ray_2 = ry;                                                            \
  K(prox_segment) &segment_1 = sg, &segment_2 = sg2;                                               \
  K(prox_triangle) &triangle_1 = tr, &triangle_2 = tr2;                                            \
  K(prox_sphere) &sphere_1 = sp, &sphere_2 = sp;                                                   \
  K(prox_capsule) &capsule_1 = cp, &capsule_2 = cp2;                                               \
  PROX_KERNELS_K1(PROX_CUDA_K1)                                                                    \
  s += K(prox_triangle_barycentric)(p, &tr).x;                                                     \
  n += K(prox_point_in_triangle)(p, &tr);                                                          \
  PROX_KERNELS_K2(PROX_CUDA_K2)                                                                    \
  PROX_KERNELS_K3(PROX_CUDA_K3)                                                                    \
  PROX_KERNELS_OVERLAP(PROX_CUDA_OVERLAP)                                                          \
  PROX_KERNELS_VALID(PROX_CUDA_VALID)                                                              \
  out[i] = s + r.sqdist + pr.sqdist + h.t + static_cast<R>(n);

#define R double
#define K(name) name
__global__ void prox_kernels_check_double(const prox_vec3 *in, double *out){PROX_KERNELS_CHECK_BODY}
#undef R
#undef K

#define R float
#define K(name) name##f
__global__ void prox_kernels_check_float(const prox_vec3f *in, float *out) {
  PROX_KERNELS_CHECK_BODY
}
#undef R
#undef K
