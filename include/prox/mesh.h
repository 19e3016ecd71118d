/* SPDX-License-Identifier: MIT */
/// @file mesh.h
/// @brief Triangle meshes (M1): a view of the caller's vertex and index
/// arrays, in double (prox_mesh) and float (prox_meshf), and its
/// validation.
///
/// A mesh is never copied by the view: it holds pointers to the caller's
/// arrays, which must outlive every use of the view (the BVH of prox/bvh.h
/// copies what it needs at build time and does not keep the view).
/// Degenerate, duplicate and zero-area triangles are valid: every query
/// answers them as the kernels of prox/closest.h do.
#ifndef PROX_MESH_H
#define PROX_MESH_H

#include "closest.h"

PROX_EXTERN_C_BEGIN

/// A triangle mesh of double coordinates, as a view of the caller's arrays
/// (no copy).
///
/// Vertex i is at (vertices[s i], vertices[s i + 1], vertices[s i + 2]),
/// s = stride / sizeof(double), or s = 3 when stride is 0 (packed xyz). The
/// stride is in bytes and must be a multiple of sizeof(double), at least 3
/// doubles. Triangle t has the vertices indices[3 t], indices[3 t + 1],
/// indices[3 t + 2] (in this order: it fixes the triangle's vertex numbering
/// and normal). Counts must fit in uint32_t. prox_mesh_validate() checks
/// all of this.
typedef struct prox_mesh {
  const double *vertices;  ///< vertex coordinates (see stride)
  size_t vertex_count;     ///< number of vertices
  size_t stride;           ///< bytes from one vertex to the next; 0: 3 doubles
  const uint32_t *indices; ///< 3 vertex indices per triangle
  size_t triangle_count;   ///< number of triangles
} prox_mesh;

/// prox_mesh with float coordinates (the stride in bytes, a multiple of
/// sizeof(float); 0: 3 floats). Same layout of members.
typedef struct prox_meshf {
  const float *vertices;   ///< vertex coordinates (see stride)
  size_t vertex_count;     ///< number of vertices
  size_t stride;           ///< bytes from one vertex to the next; 0: 3 floats
  const uint32_t *indices; ///< 3 vertex indices per triangle
  size_t triangle_count;   ///< number of triangles
} prox_meshf;

#include "detail/real_double.h"
#include "detail/mesh.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/mesh.inl"
#include "detail/real_end.h"

/// Checks that a mesh can be given to the builders: non-NULL pointers, at
/// least one triangle, counts within uint32_t, a valid stride, every index
/// below vertex_count and every coordinate of every REFERENCED vertex finite
/// (unreferenced vertices are not read, and may be NaN).
///
/// Returns PROX_OK, or PROX_ERROR_INVALID_ARGUMENT (NULL mesh or array, bad
/// stride) or PROX_ERROR_INVALID_MESH (no triangles, a count above
/// UINT32_MAX, an index out of range, a non-finite coordinate), with a
/// message in *err (err may be NULL) naming the first offending triangle
/// (and its vertex). Degenerate, duplicate and zero-area triangles are
/// valid. Reads every index once and every referenced vertex once per
/// reference; does not allocate; thread-safe (it only reads the mesh).
PROX_API prox_status prox_mesh_validate(const prox_mesh *mesh, prox_error *err);
/// Float version of prox_mesh_validate().
PROX_API prox_status prox_mesh_validatef(const prox_meshf *mesh, prox_error *err);

/// Vertex i of a mesh, read through its stride. No check: i must be below
/// vertex_count (a larger i reads outside the array). Header-only, callable
/// from CUDA device code.
PROX_HD static inline prox_vec3 prox_mesh_vertex(const prox_mesh *mesh, uint32_t i);
/// Float version of prox_mesh_vertex().
PROX_HD static inline prox_vec3f prox_mesh_vertexf(const prox_meshf *mesh, uint32_t i);

/// Triangle t of a mesh, its vertices in the mesh's order (v[k] is vertex
/// indices[3 t + k]). No check: t must be below triangle_count and its
/// indices valid (as prox_mesh_validate() ensures). Header-only, callable
/// from CUDA device code.
PROX_HD static inline prox_triangle prox_mesh_triangle(const prox_mesh *mesh, uint32_t t);
/// Float version of prox_mesh_triangle().
PROX_HD static inline prox_trianglef prox_mesh_trianglef(const prox_meshf *mesh, uint32_t t);

PROX_EXTERN_C_END

#endif /* PROX_MESH_H */
