/* SPDX-License-Identifier: MIT */
/* Template: the mesh view of prox/mesh.h, once per precision. */

/// A triangle mesh as a view of the caller's arrays (no copy).
///
/// Vertex i is at (vertices[s i], vertices[s i + 1], vertices[s i + 2]) in
/// reals, s = stride / sizeof(real), or s = 3 when stride is 0 (packed
/// xyz). The stride is in bytes and must be a multiple of the size of a
/// real, at least 3 reals. Triangle t has the vertices indices[3 t],
/// indices[3 t + 1], indices[3 t + 2] (in this order: it fixes the
/// triangle's vertex numbering and normal). Counts must fit in uint32_t.
typedef struct PROX_FN(prox_mesh) {
  const PROX_REAL *vertices; ///< vertex coordinates (see stride)
  size_t vertex_count;       ///< number of vertices
  size_t stride;             ///< bytes from one vertex to the next; 0: 3 reals
  const uint32_t *indices;   ///< 3 vertex indices per triangle
  size_t triangle_count;     ///< number of triangles
} PROX_FN(prox_mesh);

/// Checks that a mesh can be given to the builders: non-NULL pointers, at
/// least one triangle, counts within uint32_t, a valid stride, every index
/// below vertex_count and every coordinate of every REFERENCED vertex finite
/// (unreferenced vertices are not read). Returns PROX_OK, or
/// PROX_ERROR_INVALID_ARGUMENT (NULL mesh or array, bad stride) or
/// PROX_ERROR_INVALID_MESH, with a message in *err (may be NULL) naming the
/// first offending triangle (and its vertex). Degenerate, duplicate and
/// zero-area triangles are valid. Reads every index once and every
/// referenced vertex once per reference.
PROX_API prox_status PROX_FN(prox_mesh_validate)(const PROX_FN(prox_mesh) * mesh, prox_error *err);

/// Vertex i of a mesh (no bounds check: i < vertex_count).
PROX_HD static inline PROX_FN(prox_vec3)
    PROX_FN(prox_mesh_vertex)(const PROX_FN(prox_mesh) * mesh, uint32_t i) {
  size_t s = mesh->stride ? mesh->stride / sizeof(PROX_REAL) : 3;
  const PROX_REAL *v = mesh->vertices + s * (size_t)i;
  return PROX_FN(prox_v3)(v[0], v[1], v[2]);
}

/// Triangle t of a mesh, its vertices in the mesh's order (no bounds
/// check: t < triangle_count, indices valid).
PROX_HD static inline PROX_FN(prox_triangle)
    PROX_FN(prox_mesh_triangle)(const PROX_FN(prox_mesh) * mesh, uint32_t t) {
  PROX_FN(prox_triangle) r;
  int k;
  for (k = 0; k < 3; ++k)
    r.v[k] = PROX_FN(prox_mesh_vertex)(mesh, mesh->indices[3 * (size_t)t + (size_t)k]);
  return r;
}
