/* SPDX-License-Identifier: MIT */
/* A user program built against an installed prox (see CMakeLists.txt here
 * and the install_consumer test). Exits 0 when the library answers a simple
 * query correctly in both precisions and its version matches its headers. */
#include <prox/prox.h>

#include <stdio.h>

int main(void) {
  prox_segment s;
  prox_segmentf sf;
  prox_closest c;
  prox_closestf cf;
  double d;
  float df;

  /* The segment from (0,0,0) to (2,0,0) and the point (1,1,0): the closest
   * point is (1,0,0), inside the segment, at squared distance 1. */
  s.a = prox_v3(0, 0, 0);
  s.b = prox_v3(2, 0, 0);
  d = prox_point_segment(prox_v3(1, 1, 0), &s, &c);

  sf.a = prox_v3f(0, 0, 0);
  sf.b = prox_v3f(2, 0, 0);
  df = prox_point_segmentf(prox_v3f(1, 1, 0), &sf, &cf);

  if (d != 1.0 || c.point.x != 1.0 || c.point.y != 0.0 || c.point.z != 0.0 ||
      c.feature.kind != PROX_FEATURE_EDGE) {
    fprintf(stderr, "consumer: wrong double result %g\n", d);
    return 1;
  }
  if (df != 1.0f || cf.point.x != 1.0f || cf.feature.kind != PROX_FEATURE_EDGE) {
    fprintf(stderr, "consumer: wrong float result %g\n", (double)df);
    return 1;
  }
  if (prox_version() !=
      PROX_VERSION_MAJOR * 10000 + PROX_VERSION_MINOR * 100 + PROX_VERSION_PATCH) {
    fprintf(stderr, "consumer: library version %d does not match headers\n", prox_version());
    return 1;
  }
  printf("consumer: ok (prox %d)\n", prox_version());
  return 0;
}
