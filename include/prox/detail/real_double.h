/* SPDX-License-Identifier: MIT */
/* Precision macros for the double instantiation of a template (.inl) file.
 * Included by a topic header, followed by the template and real_end.h. */
#define PROX_REAL double
#define PROX_IS_DOUBLE 1
#define PROX_FN(name) name
#define PROX_R(lit) lit
#define PROX_SQRT sqrt
#define PROX_FABS fabs
/* Veltkamp splitter: splits a value into two halves of its significand. */
#define PROX_SPLITTER 134217729.0 /* 2^27 + 1 */
#define PROX_FMA fma
#define PROX_COPYSIGN copysign
/* Machine epsilon: 2^-52. */
#define PROX_EPS DBL_EPSILON
#define PROX_REAL_MAX DBL_MAX
#define PROX_REAL_MIN DBL_MIN
/* sin^2 of an angle below which the kernels of closest.h switch from their
 * plain formulas to wide arithmetic (slivers, nearly parallel directions),
 * and below which they treat the shape as flat (triangle: union of its
 * edges; directions: parallel). */
#define PROX_WIDE_SIN2 1e-6
#define PROX_FLAT_SIN2 1e-24
#define PROX_INF ((double)INFINITY)
#define PROX_NAN ((double)NAN)
