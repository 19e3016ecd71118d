// SPDX-License-Identifier: MIT
// Compile-only check that every point query (K1), pair query (K2), ray cast
// (K3), overlap test, primitive constructor and validity check is callable
// from CUDA device code, in both precisions (compile_check.cu covers a few
// K1 kernels and the vector operations, contact_check.cu the contact
// kernels):
//   nvcc -std=c++17 -I include -c tests/cuda/kernels_check.cu -o /tmp/k.o
#include <prox/prox.h>

// One body per precision: R is the real type, K(name) the name of a type or
// kernel in that precision.
#define PROX_KERNELS_CHECK_BODY(R, K)                                          \
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);       \
  K(prox_vec3)                                                                 \
  p = in[4 * i], a = in[4 * i + 1], b = in[4 * i + 2], c = in[4 * i + 3];      \
  K(prox_closest) r;                                                           \
  K(prox_pair) pr;                                                             \
  K(prox_rayhit) h;                                                            \
  K(prox_plane) pl, pl2;                                                       \
  K(prox_line) ln;                                                             \
  K(prox_ray) ry;                                                              \
  K(prox_segment) sg, sg2;                                                     \
  K(prox_triangle) tr, tr2;                                                    \
  K(prox_rectangle) rc;                                                        \
  K(prox_aabb) ab, ab2;                                                        \
  K(prox_obb) ob, ob2;                                                         \
  K(prox_sphere) sp;                                                           \
  K(prox_capsule) cp, cp2;                                                     \
  K(prox_tetrahedron) te;                                                      \
  R s = 0;                                                                     \
  int n = K(prox_plane_from_normal)(a, b.x, &pl);                              \
  n += K(prox_plane_from_point_normal)(p, a, &pl2);                            \
  ln.origin = ry.origin = sg.a = a;                                            \
  ln.dir = ry.dir = K(prox_vsub)(b, a);                                        \
  ry.tmin = 0;                                                                 \
  ry.tmax = b.y;                                                               \
  sg.b = b;                                                                    \
  sg2.a = c;                                                                   \
  sg2.b = p;                                                                   \
  tr.v[0] = tr2.v[1] = te.v[0] = a;                                            \
  tr.v[1] = tr2.v[2] = te.v[1] = b;                                            \
  tr.v[2] = tr2.v[0] = te.v[2] = c;                                            \
  te.v[3] = p;                                                                 \
  rc.center = ob.center = a;                                                   \
  rc.axis[0] = ob.axis[0] = K(prox_v3)(1, 0, 0);                               \
  rc.axis[1] = ob.axis[1] = K(prox_v3)(0, 1, 0);                               \
  ob.axis[2] = K(prox_v3)(0, 0, 1);                                            \
  rc.half[0] = ob.half[0] = b.x;                                               \
  rc.half[1] = ob.half[1] = b.y;                                               \
  ob.half[2] = b.z;                                                            \
  ob2 = ob;                                                                    \
  ob2.center = c;                                                              \
  ab.min = ab2.max = a;                                                        \
  ab.max = ab2.min = b;                                                        \
  sp.center = c;                                                               \
  sp.radius = p.x;                                                             \
  cp.a = cp2.b = a;                                                            \
  cp.b = cp2.a = c;                                                            \
  cp.radius = cp2.radius = p.y;                                                \
  /* K1 */                                                                     \
  s += K(prox_point_plane)(p, &pl, &r) + K(prox_point_line)(p, &ln, &r);       \
  s += K(prox_point_ray)(p, &ry, &r) + K(prox_point_segment)(p, &sg, &r);      \
  s += K(prox_point_triangle)(p, &tr, &r);                                     \
  s += K(prox_point_rectangle)(p, &rc, &r) + K(prox_point_aabb)(p, &ab, &r);   \
  s += K(prox_point_obb)(p, &ob, &r) + K(prox_point_sphere)(p, &sp, &r);       \
  s += K(prox_point_capsule)(p, &cp, &r);                                      \
  s += K(prox_point_tetrahedron)(p, &te, &r);                                  \
  s += K(prox_point_plane_signed)(p, &pl, &r);                                 \
  s += K(prox_point_aabb_signed)(p, &ab, &r);                                  \
  s += K(prox_point_obb_signed)(p, &ob, &r);                                   \
  s += K(prox_point_sphere_signed)(p, &sp, &r);                                \
  s += K(prox_point_capsule_signed)(p, &cp, &r);                               \
  s += K(prox_point_tetrahedron_signed)(p, &te, &r);                           \
  s += K(prox_triangle_barycentric)(p, &tr).x;                                 \
  n += K(prox_point_in_triangle)(p, &tr);                                      \
  /* K2 */                                                                     \
  s += K(prox_line_line)(&ln, &ln, &pr) + K(prox_line_ray)(&ln, &ry, &pr);     \
  s += K(prox_line_segment)(&ln, &sg2, &pr) + K(prox_ray_ray)(&ry, &ry, &pr);  \
  s += K(prox_ray_segment)(&ry, &sg2, &pr);                                    \
  s += K(prox_segment_segment)(&sg, &sg2, &pr);                                \
  s += K(prox_segment_triangle)(&sg, &tr, &pr);                                \
  s += K(prox_triangle_triangle)(&tr, &tr2, &pr);                              \
  s += K(prox_sphere_sphere)(&sp, &sp, &pr);                                   \
  s += K(prox_sphere_segment)(&sp, &sg, &pr);                                  \
  s += K(prox_capsule_segment)(&cp, &sg, &pr);                                 \
  s += K(prox_sphere_capsule)(&sp, &cp, &pr);                                  \
  s += K(prox_capsule_capsule)(&cp, &cp2, &pr);                                \
  s += K(prox_sphere_triangle)(&sp, &tr, &pr);                                 \
  s += K(prox_capsule_triangle)(&cp, &tr, &pr);                                \
  /* K3 */                                                                     \
  n += K(prox_raycast_plane)(&ry, &pl, &h) +                                   \
       K(prox_raycast_triangle)(&ry, &tr, &h);                                 \
  n += K(prox_raycast_aabb)(&ry, &ab, &h) + K(prox_raycast_obb)(&ry, &ob, &h); \
  n += K(prox_raycast_sphere)(&ry, &sp, &h);                                   \
  n += K(prox_raycast_capsule)(&ry, &cp, &h);                                  \
  n += K(prox_raycast_tetrahedron)(&ry, &te, &h);                              \
  /* Overlap tests */                                                          \
  n += K(prox_overlap_aabb_aabb)(&ab, &ab2) +                                  \
       K(prox_overlap_obb_obb)(&ob, &ob2);                                     \
  n += K(prox_overlap_triangle_aabb)(&tr, &ab);                                \
  n += K(prox_overlap_sphere_triangle)(&sp, &tr);                              \
  n += K(prox_overlap_triangle_triangle)(&tr, &tr2);                           \
  /* Validity checks of user data */                                           \
  n += K(prox_plane_is_valid)(&pl) + K(prox_aabb_is_valid)(&ab);               \
  n += K(prox_obb_is_valid)(&ob) + K(prox_rectangle_is_valid)(&rc);            \
  out[i] = s + r.sqdist + pr.sqdist + h.t + static_cast<R>(n);

#define PROX_CHECK_DOUBLE(name) name
#define PROX_CHECK_FLOAT(name) name##f

__global__ void prox_kernels_check_double(const prox_vec3 *in, double *out){
    PROX_KERNELS_CHECK_BODY(double, PROX_CHECK_DOUBLE)}

__global__ void prox_kernels_check_float(const prox_vec3f *in, float *out) {
  PROX_KERNELS_CHECK_BODY(float, PROX_CHECK_FLOAT)
}
