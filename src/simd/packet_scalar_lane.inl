/* SPDX-License-Identifier: MIT */
/* Template: one lane of a triangle packet through the scalar kernel
 * prox_raycast_triangle(), for one precision: the portable code's lane
 * (src/simd/packet_api.inl) and the vector code's fallback for lanes it
 * cannot certify (src/simd/packet_vec.inl). Lane i of the packet at v has
 * vertex k, axis a at v[(3 k + a) stride]; its hit goes to lane `lane` of
 * *hit (which may be NULL). Returns 1 on a hit. */
static int PROX_FN(prox_pk_tri_lane)(const PROX_FN(prox_packet_ray) * r, const PROX_REAL *v,
                                     size_t stride, PROX_FN(prox_packet_hit8) * hit, int lane) {
  PROX_FN(prox_triangle) t;
  PROX_FN(prox_rayhit) h;
  int k;
  for (k = 0; k < 3; ++k)
    t.v[k] = PROX_FN(prox_v3)(v[(size_t)(3 * k) * stride], v[(size_t)(3 * k + 1) * stride],
                              v[(size_t)(3 * k + 2) * stride]);
  if (!PROX_FN(prox_raycast_triangle)(&r->ray, &t, &h)) return 0;
  if (hit) {
    hit->t[lane] = h.t;
    hit->u[lane] = h.bary[1];
    hit->v[lane] = h.bary[2];
  }
  return 1;
}
