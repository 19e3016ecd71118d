/* SPDX-License-Identifier: MIT */
/* Precision macros for the float instantiation of a template (.inl) file.
 * Included by a topic header, followed by the template and real_end.h. */
#define PROX_REAL float
#define PROX_IS_DOUBLE 0
#define PROX_FN(name) PROX_FN_F_(name)
#define PROX_FN_F_(name) name##f
#define PROX_R(lit) ((float)(lit))
#define PROX_SQRT sqrtf
#define PROX_FABS fabsf
/* Veltkamp splitter: splits a value into two halves of its significand. */
#define PROX_SPLITTER 4097.0f /* 2^12 + 1 */
#define PROX_FMA fmaf
#define PROX_COPYSIGN copysignf
/* Machine epsilon: 2^-23. */
#define PROX_EPS FLT_EPSILON
#define PROX_REAL_MAX FLT_MAX
#define PROX_REAL_MIN FLT_MIN
/* sin^2 thresholds of the wide and flat paths (see real_double.h). */
#define PROX_WIDE_SIN2 1e-3f
#define PROX_FLAT_SIN2 1e-10f
#define PROX_INF ((float)INFINITY)
#define PROX_NAN ((float)NAN)
