/* SPDX-License-Identifier: MIT */
/* Closest points from one point to five primitives: for each, the closest
 * point, the squared distance and the feature of the primitive that holds
 * the closest point.
 *
 * Build and run (from the repository root):
 *   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2
 *   ./build/examples/closest_points
 */
#include <prox/prox.h>

#include <stdio.h>

/* The name of a feature kind. */
static const char *feature_name(int kind) {
  switch (kind) {
  case PROX_FEATURE_VERTEX:
    return "vertex";
  case PROX_FEATURE_EDGE:
    return "edge";
  case PROX_FEATURE_FACE:
    return "face";
  case PROX_FEATURE_INTERIOR:
    return "interior";
  default:
    return "none";
  }
}

/* Prints one row of the table. */
static void print_row(const char *shape, double sqdist, const prox_closest *c) {
  printf("%-12s (%8.4f, %8.4f, %8.4f)  %9.5f  %-8s %d\n", shape, c->point.x, c->point.y, c->point.z,
         sqdist, feature_name(c->feature.kind), c->feature.index);
}

int main(void) {
  const prox_vec3 p = prox_v3(1.25, 1.5, 2.0);
  prox_segment seg;
  prox_triangle tri;
  prox_aabb box;
  prox_sphere ball;
  prox_tetrahedron tet;
  prox_closest c;
  double d;

  seg.a = prox_v3(0, 0, 0);
  seg.b = prox_v3(1, 0, 0);

  tri.v[0] = prox_v3(0, 0, 0);
  tri.v[1] = prox_v3(2, 0, 0);
  tri.v[2] = prox_v3(0, 2, 0);

  box.min = prox_v3(-1, -1, -1);
  box.max = prox_v3(1, 1, 1);

  ball.center = prox_v3(0, 0, 0);
  ball.radius = 1.0;

  tet.v[0] = prox_v3(0, 0, 0);
  tet.v[1] = prox_v3(2, 0, 0);
  tet.v[2] = prox_v3(0, 2, 0);
  tet.v[3] = prox_v3(0, 0, 2);

  printf("query point p = (%g, %g, %g)\n\n", p.x, p.y, p.z);
  printf("%-12s %-32s  %9s  %s\n", "primitive", "closest point", "sq. dist",
         "feature (kind, index)");

  d = prox_point_segment(p, &seg, &c);
  print_row("segment", d, &c);

  d = prox_point_triangle(p, &tri, &c);
  print_row("triangle", d, &c);

  d = prox_point_aabb(p, &box, &c);
  print_row("aabb", d, &c);

  d = prox_point_sphere(p, &ball, &c);
  print_row("sphere", d, &c);

  d = prox_point_tetrahedron(p, &tet, &c);
  print_row("tetrahedron", d, &c);

  /* The triangle result also carries barycentric coordinates. */
  prox_point_triangle(p, &tri, &c);
  printf("\ntriangle barycentrics of the closest point: (%g, %g, %g)\n", c.param[0], c.param[1],
         c.param[2]);
  return 0;
}
