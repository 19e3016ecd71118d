/* SPDX-License-Identifier: MIT */
/* The shape classes of the K4 kernels (tests/kernels.h, column shape): for
 * each class, the formula a kernel of the class evaluates in a distance
 * type, and on which of its vertices (numbered in the order of the
 * kernel's arguments). The one description of a kernel's smoothness that
 * the tests read:
 *   test_property  contact.h's condition on the shape (D / h <= 2^q) on
 *                  that formula and those vertices, tp_in_shape;
 *   test_contact   finite differences only where that formula is
 *                  comfortably smooth (well_posed), and the shapes of
 *                  test_shape_condition that reach the formula.
 * A kernel's shape column names one of the functions cs_<shape> below; a
 * name without a function here fails to compile. A new class is one
 * function here (and a line in the list of kernels.h's comment).
 *
 * The formulas (contact.h), by their smallest size h:
 *   CS_PL     point-line: the point i[0], the line i[1] i[2] (h: the edge
 *             length)
 *   CS_PLANE  point-plane: the point i[0], the plane i[1] i[2] i[3] (h:
 *             the smallest height of the triangle)
 *   CS_LL     line-line: the lines i[0] i[1] and i[2] i[3] (h: the shorter
 *             edge times the sine of the angle)
 *   CS_NONE   no condition (a point-point distance, a polynomial)
 * Needs prox/contact.h (the type enums) before it. Plain C. */
#ifndef PROX_TEST_CONTACT_SHAPE_H
#define PROX_TEST_CONTACT_SHAPE_H

enum { CS_PL, CS_PLANE, CS_LL, CS_NONE };

/* A formula on vertices i[0..3] of a kernel's arguments (i[3] unused by
 * CS_PL, every i unused by CS_NONE, where they are 0). */
typedef struct cs_formula {
  int f, i[4];
} cs_formula;

static inline cs_formula cs_make(int f, int i0, int i1, int i2, int i3) {
  cs_formula r;
  r.f = f;
  r.i[0] = i0;
  r.i[1] = i1;
  r.i[2] = i2;
  r.i[3] = i3;
  return r;
}

/* The classes, as functions of the type the kernel evaluates (its
 * argument; -1 or anything for a kernel without types, whose formula does
 * not depend on it). A typed class gives, for each type, the formula of
 * that type (contact.h: prox_ipc_pe_type, prox_ipc_pt_type,
 * prox_ipc_ee_type); vertex types and invalid ones CS_NONE. */

/* No condition: point-point, the squared norm of the cross product. */
static inline cs_formula cs_none(int ty) {
  (void)ty;
  return cs_make(CS_NONE, 0, 0, 0, 0);
}

/* The point-line formula on p; e0 e1. */
static inline cs_formula cs_pl(int ty) {
  (void)ty;
  return cs_make(CS_PL, 0, 1, 2, 0);
}

/* The point-plane formula on p; t0 t1 t2. */
static inline cs_formula cs_plane(int ty) {
  (void)ty;
  return cs_make(CS_PLANE, 0, 1, 2, 3);
}

/* The line-line formula on ea0 ea1; eb0 eb1. */
static inline cs_formula cs_ll(int ty) {
  (void)ty;
  return cs_make(CS_LL, 0, 1, 2, 3);
}

/* Point-edge (p, e0, e1) by prox_ipc_pe_type. */
static inline cs_formula cs_pe(int ty) {
  return ty == PROX_PE_P_E ? cs_pl(ty) : cs_none(ty);
}

/* Point-triangle (p, t0, t1, t2) by prox_ipc_pt_type. */
static inline cs_formula cs_pt(int ty) {
  switch (ty) {
  case PROX_PT_P_E0:
    return cs_make(CS_PL, 0, 1, 2, 0);
  case PROX_PT_P_E1:
    return cs_make(CS_PL, 0, 2, 3, 0);
  case PROX_PT_P_E2:
    return cs_make(CS_PL, 0, 3, 1, 0);
  case PROX_PT_P_T:
    return cs_plane(ty);
  default:
    return cs_none(ty);
  }
}

/* Edge-edge (ea0, ea1, eb0, eb1) by prox_ipc_ee_type. */
static inline cs_formula cs_ee(int ty) {
  switch (ty) {
  case PROX_EE_EA_EB0:
    return cs_make(CS_PL, 2, 0, 1, 0);
  case PROX_EE_EA_EB1:
    return cs_make(CS_PL, 3, 0, 1, 0);
  case PROX_EE_EA0_EB:
    return cs_make(CS_PL, 0, 2, 3, 0);
  case PROX_EE_EA1_EB:
    return cs_make(CS_PL, 1, 2, 3, 0);
  case PROX_EE_EA_EB:
    return cs_ll(ty);
  default:
    return cs_none(ty);
  }
}

/* 1 when a and b are the same formula on the same vertices. */
static inline int cs_same(cs_formula a, cs_formula b) {
  int n = a.f == CS_NONE ? 0 : a.f == CS_PL ? 3 : 4, k;
  if (a.f != b.f) return 0;
  for (k = 0; k < n; ++k)
    if (a.i[k] != b.i[k]) return 0;
  return 1;
}

#endif /* PROX_TEST_CONTACT_SHAPE_H */
