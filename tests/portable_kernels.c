/* SPDX-License-Identifier: MIT */
/* See portable_kernels.h. */
#define PROX_NO_SSE 1
#include "portable_kernels.h"

double port_point_aabb(prox_vec3 p, const prox_aabb *box) {
  return prox_point_aabb(p, box, NULL);
}
float port_point_aabbf(prox_vec3f p, const prox_aabbf *box) {
  return prox_point_aabbf(p, box, NULL);
}
double port_point_obb(prox_vec3 p, const prox_obb *box) {
  return prox_point_obb(p, box, NULL);
}
float port_point_obbf(prox_vec3f p, const prox_obbf *box) {
  return prox_point_obbf(p, box, NULL);
}
int port_is_portable(void) {
  return !PROX_SSE;
}
