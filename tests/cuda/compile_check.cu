// SPDX-License-Identifier: MIT
// Compile-only check (nvcc -std=c++17 -I include -c): the public headers
// compile as CUDA C++ and their kernels are callable from device code, in
// both precisions. Run by .ci/run where nvcc exists; never executed.
#include <prox/prox.h>

__global__ void prox_cuda_compile_check(const double *in, double *out, float *outf) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const prox_vec3 p = prox_v3(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
  const prox_vec3f pf =
      prox_v3f(static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z));

  // Vector operations, double and float.
  const prox_vec3 a = prox_v3(0.0, 0.0, 0.0);
  const prox_vec3 b = prox_v3(1.0, 2.0, 3.0);
  const prox_vec3 c = prox_vcross(prox_vsub(b, a), prox_vadd(p, b));
  const prox_vec3f af = prox_v3f(0.0f, 0.0f, 0.0f);
  const prox_vec3f bf = prox_v3f(1.0f, 2.0f, 3.0f);
  const prox_vec3f cf = prox_vcrossf(prox_vsubf(bf, af), prox_vaddf(pf, bf));

  // Primitives.
  prox_segment seg;
  seg.a = a;
  seg.b = b;
  prox_triangle tri;
  tri.v[0] = a;
  tri.v[1] = b;
  tri.v[2] = c;
  prox_aabb box;
  box.min = prox_vmin(a, b);
  box.max = prox_vmax(a, b);
  prox_tetrahedron tet;
  tet.v[0] = a;
  tet.v[1] = b;
  tet.v[2] = c;
  tet.v[3] = prox_v3(0.0, 0.0, 1.0);

  prox_segmentf segf;
  segf.a = af;
  segf.b = bf;
  prox_trianglef trif;
  trif.v[0] = af;
  trif.v[1] = bf;
  trif.v[2] = cf;
  prox_aabbf boxf;
  boxf.min = prox_vminf(af, bf);
  boxf.max = prox_vmaxf(af, bf);
  prox_tetrahedronf tetf;
  tetf.v[0] = af;
  tetf.v[1] = bf;
  tetf.v[2] = cf;
  tetf.v[3] = prox_v3f(0.0f, 0.0f, 1.0f);

  // Queries, with and without a result struct.
  prox_closest r;
  prox_closestf rf;
  double d = prox_point_segment(p, &seg, &r);
  d += prox_point_triangle(p, &tri, &r);
  d += prox_point_aabb(p, &box, nullptr);
  d += prox_point_tetrahedron(p, &tet, &r);
  d += prox_vdot(r.point, prox_vscale(c, prox_vlen(b)));
  float df = prox_point_segmentf(pf, &segf, &rf);
  df += prox_point_trianglef(pf, &trif, &rf);
  df += prox_point_aabbf(pf, &boxf, nullptr);
  df += prox_point_tetrahedronf(pf, &tetf, &rf);
  df += prox_vdotf(rf.point, prox_vscalef(cf, prox_vlenf(bf)));

  out[i] = d;
  outf[i] = df;
}
