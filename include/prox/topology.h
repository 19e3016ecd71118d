/* SPDX-License-Identifier: MIT */
/// @file topology.h
/// @brief The topology of a triangle mesh (M1): its edges and the triangles
/// on each, boundary and non-manifold edges and vertices, orientation,
/// closedness, connected components, zero-area and duplicate triangles and
/// the Euler characteristic. Computed once (prox_mesh_topology_build) and
/// kept with the mesh; the signed distance of prox/sign.h and the command
/// line's `info` read it.
///
/// Definitions (all combinatorial, on vertex indices, except "zero area"):
/// - A triangle with two equal indices is *collapsed*: it has no edges, it
///   is zero-area, and it is left out of everything else below.
/// - An *edge* is an unordered pair of distinct vertex indices that is a
///   side of at least one triangle. Its triangles are those that have it as
///   a side (a triangle that has the same pair twice is impossible unless
///   collapsed). An edge with one triangle is a *boundary* edge, with three
///   or more a *non-manifold* edge.
/// - A *manifold* edge (two triangles) is *consistently oriented* when the
///   two triangles traverse it in opposite directions.
/// - A vertex is *non-manifold* when the triangles around it, joined across
///   the edges that end at it, form more than one group (two fans touching
///   at a point, a "bowtie").
/// - Components: triangles joined across shared edges (not across single
///   vertices). Referenced vertices: vertices of at least one non-collapsed
///   triangle.
/// - Euler characteristic: referenced vertices - edges + non-collapsed
///   triangles.
/// - Zero-area: the three vertices are collinear (or equal), decided
///   exactly from the coordinates (no tolerance).
/// - Duplicate: same three vertex indices as an earlier triangle, in any
///   order (both orientations count).
/// - closed: no boundary and no non-manifold edge (and at least one
///   triangle); manifold: no non-manifold edge and no non-manifold vertex;
///   oriented: every manifold edge consistently oriented.
#ifndef PROX_TOPOLOGY_H
#define PROX_TOPOLOGY_H

#include "mesh.h"

PROX_EXTERN_C_BEGIN

/// The topology of a mesh. Every count and array is read-only; the arrays
/// live as long as the structure (prox_mesh_topology_free releases all).
typedef struct prox_mesh_topology {
  uint32_t vertex_count;         ///< the mesh's vertex count
  uint32_t triangle_count;       ///< the mesh's triangle count
  uint32_t referenced_vertices;  ///< vertices of a non-collapsed triangle
  uint32_t edge_count;           ///< distinct edges
  uint32_t boundary_edges;       ///< edges with one triangle
  uint32_t nonmanifold_edges;    ///< edges with three or more triangles
  uint32_t nonmanifold_vertices; ///< vertices where fans touch at a point
  uint32_t inconsistent_edges;   ///< manifold edges traversed twice the same way
  uint32_t collapsed_triangles;  ///< triangles with a repeated index
  uint32_t zero_area_triangles;  ///< collinear vertices (collapsed included)
  uint32_t duplicate_triangles;  ///< same index set as an earlier triangle
  uint32_t components;           ///< edge-connected groups of triangles
  int64_t euler;                 ///< V - E + F (see the definitions above)
  int closed;                    ///< 1: no boundary, no non-manifold edge
  int manifold;                  ///< 1: no non-manifold edge or vertex
  int oriented;                  ///< 1: no inconsistently oriented edge

  /// Edge e joins edge_vertices[2 e] < edge_vertices[2 e + 1]. Edges are
  /// sorted by that pair.
  const uint32_t *edge_vertices;
  /// The triangles of edge e are edge_triangles[i] for edge_offsets[e] <=
  /// i < edge_offsets[e + 1], in increasing order (edge_offsets has
  /// edge_count + 1 entries).
  const uint32_t *edge_offsets;
  const uint32_t *edge_triangles; ///< see edge_offsets
  /// triangle_edges[3 t + k] is the edge from vertex k to vertex k + 1
  /// (mod 3) of triangle t, or PROX_TOPOLOGY_NONE for a collapsed triangle.
  const uint32_t *triangle_edges;
  /// The component of triangle t, 0 .. components - 1, numbered in order of
  /// the lowest triangle of each; PROX_TOPOLOGY_NONE for a collapsed one.
  const uint32_t *triangle_component;
  /// Per triangle: a combination of the PROX_TRIANGLE_* flags below.
  const uint8_t *triangle_flags;
  /// Per vertex: 1 if the vertex is non-manifold, else 0.
  const uint8_t *vertex_nonmanifold;
} prox_mesh_topology;

/// "No edge" / "no component" in the topology's arrays.
#define PROX_TOPOLOGY_NONE 0xffffffffu
/// Triangle flag: two of its indices are equal.
#define PROX_TRIANGLE_COLLAPSED 1u
/// Triangle flag: its three vertices are collinear (exactly).
#define PROX_TRIANGLE_ZERO_AREA 2u
/// Triangle flag: an earlier triangle has the same three indices.
#define PROX_TRIANGLE_DUPLICATE 4u

/// Computes the topology of a mesh (double coordinates; the coordinates are
/// read only for the zero-area test). The mesh must pass
/// prox_mesh_validate(); otherwise the same status and message are
/// returned. On success *out holds a new topology (free it with
/// prox_mesh_topology_free); on failure *out is NULL and nothing leaks:
/// PROX_ERROR_INVALID_ARGUMENT (NULL mesh or out), PROX_ERROR_INVALID_MESH,
/// PROX_ERROR_OUT_OF_MEMORY. alloc may be NULL (the C library). Time
/// O(n log n) in the number of triangles n; memory about 60 bytes per
/// triangle.
PROX_API prox_status prox_mesh_topology_build(const prox_mesh *mesh, const prox_allocator *alloc,
                                              prox_mesh_topology **out, prox_error *err);
/// prox_mesh_topology_build() for a float mesh (same topology type).
PROX_API prox_status prox_mesh_topology_buildf(const prox_meshf *mesh, const prox_allocator *alloc,
                                               prox_mesh_topology **out, prox_error *err);
/// Releases a topology (NULL does nothing), with the allocator it was built
/// with.
PROX_API void prox_mesh_topology_free(prox_mesh_topology *topology);

PROX_EXTERN_C_END

#endif /* PROX_TOPOLOGY_H */
