/* SPDX-License-Identifier: MIT */
/* Private to the library and its tests: checks of the inside grid's
 * sub-cells (src/mesh/sign_impl.inl) against independent decisions, for
 * tests/test_mesh_sign.c, which links the static library. Not part of the
 * ABI (hidden, as every function of the mesh layer that no public header
 * declares). */
#ifndef PROX_SRC_MESH_SIGN_CHECK_H
#define PROX_SRC_MESH_SIGN_CHECK_H

#include <prox/sign.h>

#include <stddef.h>

/* For every sub-cell that an object's inside grid answers from (see
 * sdf_crec in src/mesh/sign.c), in every `step`-th cell (0 read as 1): an
 * exact triangle-box test (sdf_tri_box_exact in src/mesh/sign.c: separating
 * axes with exact predicates; prox/overlap.h's test is conservative and
 * reports triangles a few ulps away as touching) on its box against every
 * triangle of its cell's list (none may touch it), and for every `every`-th
 * of them (0: none) the exact winding number at the box's centre by a count
 * through the tree (it must be the sub-cell's). Returns the number of
 * sub-cells that fail; *checked (may be NULL): how many were checked,
 * *valued: how many had their number checked. 0 for an object without a
 * grid. */
size_t prox_sdf_detail_check_subcells(const prox_sdf *sdf, size_t step, size_t every,
                                      size_t *checked, size_t *valued);
size_t prox_sdf_detail_check_subcellsf(const prox_sdff *sdf, size_t step, size_t every,
                                       size_t *checked, size_t *valued);

/* The inside grid's geometry: cell (i, j, k) spans glo + (i, j, k) gh to one
 * gh further, widened by gpad; sub-cell j (0 .. 3) on an axis spans levels
 * 8 j .. 8 j + 8 of the widened cell, a level being 1 / gqs. Returns 0 (and
 * writes nothing) for an object without a grid. */
int prox_sdf_detail_grid(const prox_sdf *sdf, double glo[3], double *gh, double *gpad, double *gqs,
                         uint32_t gn[3]);

#endif /* PROX_SRC_MESH_SIGN_CHECK_H */
