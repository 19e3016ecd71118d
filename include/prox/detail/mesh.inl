/* SPDX-License-Identifier: MIT */
/* Template: the header-only helpers of prox/mesh.h, once per precision.
 * The types (prox_mesh, prox_meshf) and the documented declarations, with
 * their contracts, are written out in mesh.h; this file holds the
 * definitions of its inline functions. */

PROX_HD static inline PROX_FN(prox_vec3)
    PROX_FN(prox_mesh_vertex)(const PROX_FN(prox_mesh) * mesh, uint32_t i) {
  size_t s = mesh->stride ? mesh->stride / sizeof(PROX_REAL) : 3;
  const PROX_REAL *v = mesh->vertices + s * (size_t)i;
  return PROX_FN(prox_v3)(v[0], v[1], v[2]);
}

PROX_HD static inline PROX_FN(prox_triangle)
    PROX_FN(prox_mesh_triangle)(const PROX_FN(prox_mesh) * mesh, uint32_t t) {
  PROX_FN(prox_triangle) r;
  int k;
  for (k = 0; k < 3; ++k)
    r.v[k] = PROX_FN(prox_mesh_vertex)(mesh, mesh->indices[3 * (size_t)t + (size_t)k]);
  return r;
}
