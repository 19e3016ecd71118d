/* SPDX-License-Identifier: MIT */
/* Template: prox_mesh_validate for one precision (src/mesh/mesh.c). */

prox_status PROX_FN(prox_mesh_validate)(const PROX_FN(prox_mesh) * mesh, prox_error *err) {
  size_t t, s;
  if (!mesh) return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "mesh is NULL");
  if (mesh->triangle_count == 0)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_MESH, "mesh has no triangles");
  if (!mesh->indices)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "mesh indices are NULL");
  if (!mesh->vertices)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "mesh vertices are NULL");
  if (mesh->triangle_count > UINT32_MAX || mesh->vertex_count > UINT32_MAX)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_MESH,
                                  "mesh has %zu triangles and %zu vertices: at most %u of each",
                                  mesh->triangle_count, mesh->vertex_count, (unsigned)UINT32_MAX);
  if (mesh->stride != 0 &&
      (mesh->stride % sizeof(PROX_REAL) != 0 || mesh->stride < 3 * sizeof(PROX_REAL)))
    return prox_mesh_detail_error(
        err, PROX_ERROR_INVALID_ARGUMENT,
        "mesh stride %zu bytes: must be 0 or a multiple of %zu, at least %zu", mesh->stride,
        sizeof(PROX_REAL), 3 * sizeof(PROX_REAL));
  s = mesh->stride ? mesh->stride / sizeof(PROX_REAL) : 3;
  for (t = 0; t < mesh->triangle_count; ++t) {
    int k;
    for (k = 0; k < 3; ++k) {
      uint32_t i = mesh->indices[3 * t + (size_t)k];
      const PROX_REAL *v;
      if (i >= mesh->vertex_count)
        return prox_mesh_detail_error(err, PROX_ERROR_INVALID_MESH,
                                      "triangle %zu: vertex %d has index %u, out of range (%zu "
                                      "vertices)",
                                      t, k, (unsigned)i, mesh->vertex_count);
      v = mesh->vertices + s * (size_t)i;
      if (!(PROX_FABS(v[0]) <= PROX_REAL_MAX && PROX_FABS(v[1]) <= PROX_REAL_MAX &&
            PROX_FABS(v[2]) <= PROX_REAL_MAX))
        return prox_mesh_detail_error(
            err, PROX_ERROR_INVALID_MESH,
            "triangle %zu: vertex %u has a non-finite coordinate (%g, %g, %g)", t, (unsigned)i,
            (double)v[0], (double)v[1], (double)v[2]);
    }
  }
  prox_mesh_detail_ok(err);
  return PROX_OK;
}
