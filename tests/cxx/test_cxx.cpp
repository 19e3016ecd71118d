// SPDX-License-Identifier: MIT
/* prox.h from C++: the headers compile as C++11 and C++17 (two builds of
 * this file, tests cxx11 and cxx17) with the project's warnings, and the
 * inline kernels give, in C++, the answers worked out by hand below. Each
 * case has an exact answer (dyadic inputs, no rounding in the result). */
#include <prox/prox.h>

#include <cstdio>

namespace {

int g_pass, g_fail;

void check(bool ok, const char *what) {
  if (ok) {
    ++g_pass;
  } else {
    ++g_fail;
    std::printf("  FAIL %s\n", what);
  }
}

template <class V> bool same(V a, V b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

void double_cases() {
  prox_triangle t = {{prox_v3(0, 0, 0), prox_v3(1, 0, 0), prox_v3(0, 1, 0)}};
  prox_closest c;
  double d2 = prox_point_triangle(prox_v3(0.25, 0.25, 1), &t, &c);
  check(d2 == 1 && same(c.point, prox_v3(0.25, 0.25, 0)) && c.feature.kind == PROX_FEATURE_FACE,
        "point_triangle: above the face");
  d2 = prox_point_triangle(prox_v3(-1, -2, 0), &t, &c);
  check(d2 == 5 && c.feature.kind == PROX_FEATURE_VERTEX && c.feature.index == 0,
        "point_triangle: beyond vertex 0");

  prox_segment s1 = {prox_v3(0, 0, 0), prox_v3(1, 0, 0)};
  prox_segment s2 = {prox_v3(0.5, -1, 2), prox_v3(0.5, 1, 2)};
  prox_pair pr;
  d2 = prox_segment_segment(&s1, &s2, &pr);
  check(d2 == 4 && pr.param[0][0] == 0.5 && pr.param[1][0] == 0.5,
        "segment_segment: skew, interior points");

  prox_aabb box = {prox_v3(0, 0, 0), prox_v3(1, 1, 1)};
  check(prox_point_aabb(prox_v3(2, 0.5, 3), &box, nullptr) == 5, "point_aabb: outside an edge");

  prox_ray ray = prox_ray_make(prox_v3(0.25, 0.25, 5), prox_v3(0, 0, -2));
  prox_rayhit h;
  check(prox_raycast_triangle(&ray, &t, &h) && h.t == 2.5, "raycast_triangle: t in units of dir");
  check(prox_raycast_aabb(&ray, &box, &h) && h.t == 2, "raycast_aabb: the top face");

  prox_obb ob = {
      prox_v3(0, 0, 0), {prox_v3(0, 1, 0), prox_v3(-1, 0, 0), prox_v3(0, 0, 1)}, {1, 2, 3}};
  check(prox_obb_is_valid(&ob) == 1, "obb_is_valid: a rotated frame");
  ob.axis[1] = prox_v3(-2, 0, 0);
  check(prox_obb_is_valid(&ob) == 0, "obb_is_valid: an axis of length 2");

  prox_triangle u = {{prox_v3(0, 0, 3), prox_v3(1, 0, 3), prox_v3(0, 1, 3)}};
  check(prox_triangle_triangle(&t, &u, nullptr) == 9, "triangle_triangle: parallel, 3 apart");
}

void float_cases() {
  prox_trianglef t = {{prox_v3f(0, 0, 0), prox_v3f(1, 0, 0), prox_v3f(0, 1, 0)}};
  prox_closestf c;
  float d2 = prox_point_trianglef(prox_v3f(0.25f, 0.25f, 1), &t, &c);
  check(d2 == 1 && same(c.point, prox_v3f(0.25f, 0.25f, 0)), "point_trianglef: above the face");
  prox_segmentf s = {prox_v3f(0, 0, 0), prox_v3f(0, 0, 0)};
  check(prox_point_segmentf(prox_v3f(3, 4, 0), &s, nullptr) == 25, "point_segmentf: zero length");
}

} // namespace

int main() {
  double_cases();
  float_cases();
  std::printf("C++ %ld: %d passed, %d failed\n", (long)__cplusplus, g_pass, g_fail);
  return g_fail != 0;
}
