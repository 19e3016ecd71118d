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

#include "detail/real_double.h"
#include "detail/mesh.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/mesh.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_MESH_H */
