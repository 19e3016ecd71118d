/* SPDX-License-Identifier: MIT */
/* sign_oracle.h: what bench_sign.c and bench_sign_cgal.cpp share (C and
 * C++): the query points (sign_points.h) and the exact reference for
 * "wrong signs".
 *
 * The reference is the exact parity oracle of tests/parity_oracle.h,
 * shared with tests/test_mesh_sign.c: nothing of prox's predicates or tree
 * is used. Header only (static functions). */
#ifndef PROX_BENCH_SIGN_ORACLE_H
#define PROX_BENCH_SIGN_ORACLE_H

#include "sign_points.h"
#include "../tests/parity_oracle.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference codes stored per point (and written to the reference
 * file): 1 inside, 0 outside, or one of these. */
#define SO_UNDECIDED (-1) /* every axis ray met an edge or a vertex */
#define SO_NEAR (-2)      /* within 1e-9 of the diagonal of the surface */
#define SO_UNCHECKED (-3) /* not computed (open mesh, or past --check) */

#endif /* PROX_BENCH_SIGN_ORACLE_H */
