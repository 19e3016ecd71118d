/* SPDX-License-Identifier: MIT */
/// @file bvh_layout.h
/// @brief The memory layout of a prox BVH (prox/bvh.h), shared by the
/// builder, the closest-point and radius queries and the ray queries.
///
/// LAYOUT (the contract between src/mesh/ and every traversal, CPU or GPU)
///
/// A tree is two parts, both in flat arrays with integer links (Box2D's
/// b2TreeNode style), both read-only after the build (refit rewrites the
/// boxes and the triangles' coordinates, nothing else):
///
/// 1. Nodes: `prox_bvh_node nodes[node_count]`, 4 children per node, 128
///    bytes, aligned to 64. Node 0 is the root; nodes are stored in
///    depth-first preorder, so a child's index is always greater than its
///    parent's (refit walks the array backwards). Slot i < n_child holds:
///    - the child's box in float, lo_x[i] .. hi_z[i], rounded outward
///      (each bound is the float nearest the exact bound on the outside:
///      the box contains every vertex of the triangles below, exactly, in
///      the mesh's own precision, so no query can miss a triangle);
///    - count[i] == 0: an inner child, child[i] its node index;
///      count[i] in 1..PROX_BVH_MAX_LEAF: a leaf of count[i] triangles at
///      positions child[i] .. child[i] + count[i] - 1 of the triangle
///      arrays below.
///    Slots n_child..3 are empty: lo = +inf, hi = -inf (every distance
///    test gives +inf or NaN and every slab test misses), count 0, child
///    PROX_BVH_NONE. When the whole tree is one leaf, the root node has one
///    slot, that leaf. A tree never has zero triangles.
///    The slots are in no particular order (the builder's split order).
///
/// 2. Triangles in leaf blocks, in the MESH'S precision (double for
///    prox_bvh, float for prox_bvhf): one array `tri` of 9 tri_count reals.
///    The leaf of `count` triangles at positions first .. first + count - 1
///    owns the block tri[9 first .. 9 (first + count)), a structure of
///    arrays: coordinate c (0 x, 1 y, 2 z) of vertex k (0, 1, 2, the mesh's
///    vertex order) of its triangle at position pos is
///        tri[9 first + (3 c + k) count + (pos - first)].
///    So a leaf is one contiguous run of memory (9 count reals), and its
///    prox_triangle_soa is {x[k] = B + k count, y[k] = B + (3 + k) count,
///    z[k] = B + (6 + k) count} with B = tri + 9 first: the SoA leaf kernels
///    of prox/batch.h and the packet kernels of prox/packet.h read it in
///    place. ids[pos] is the triangle's index in the mesh. Inside a leaf the
///    positions are in increasing id order, so the lowest position of a tie
///    in a leaf is the lowest triangle index. The vertices are copies: the
///    tree does not read the mesh after the build (refit reads the new
///    one).
///
/// Depth: the builder keeps the depth (root = 1, counted in nodes) at most
/// PROX_BVH_MAX_DEPTH (SAH splits, then median splits below a set depth),
/// so a depth-first traversal that pops an entry and pushes at most the 4
/// children of a node (leaves included) holds at most 3 entries per level
/// plus 4: a stack of PROX_BVH_STACK entries never overflows.
///
/// Ray queries (prox/bvh_ray.h) read the same layout: the node test is a
/// ray against the 4 float boxes of a node, conservative (Ize 2013: the
/// boxes are already rounded outward, and the slab arithmetic allows for
/// its own rounding), the leaf test the watertight ray-triangle kernel on
/// the SoA block (see prox/detail/bvh_ray.inl).
#ifndef PROX_DETAIL_BVH_LAYOUT_H
#define PROX_DETAIL_BVH_LAYOUT_H

#include "../base.h"

/// Children per node.
#define PROX_BVH_WIDTH 4
/// Largest leaf (triangles); prox_bvh_options.leaf_size is capped to it.
#define PROX_BVH_MAX_LEAF 32
/// Largest depth of a tree, in nodes (the root alone is depth 1).
#define PROX_BVH_MAX_DEPTH 96
/// Entries of a traversal stack that can never overflow.
#define PROX_BVH_STACK (3 * PROX_BVH_MAX_DEPTH + 4)
/// The child index of an empty slot.
#define PROX_BVH_NONE 0xffffffffu

/// A node of 4 children: their boxes (float, rounded outward) as structure
/// of arrays, and their links. See the layout above.
typedef struct prox_bvh_node {
  float lo_x[4];        ///< box minimum x per slot (rounded down; +inf: empty slot)
  float lo_y[4];        ///< box minimum y per slot (rounded down)
  float lo_z[4];        ///< box minimum z per slot (rounded down)
  float hi_x[4];        ///< box maximum x per slot (rounded up; -inf: empty slot)
  float hi_y[4];        ///< box maximum y per slot (rounded up)
  float hi_z[4];        ///< box maximum z per slot (rounded up)
  uint32_t child[4];    ///< inner: node index; leaf: first triangle position
  uint8_t count[4];     ///< 0: inner child; else triangles in the leaf
  uint8_t n_child;      ///< used slots (1 to 4), slots 0 .. n_child - 1
  uint8_t reserved[11]; ///< padding to 128 bytes; 0, not read
} prox_bvh_node;

#endif /* PROX_DETAIL_BVH_LAYOUT_H */
