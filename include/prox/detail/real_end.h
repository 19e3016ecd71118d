/* SPDX-License-Identifier: MIT */
/* Ends one instantiation of a template (.inl) file. */
#undef PROX_REAL
#undef PROX_IS_DOUBLE
#undef PROX_FN
#undef PROX_FN_F_
#undef PROX_R
#undef PROX_SQRT
#undef PROX_FABS
#undef PROX_FMA
#undef PROX_SPLITTER
#undef PROX_COPYSIGN
#undef PROX_EPS
#undef PROX_REAL_MAX
#undef PROX_REAL_MIN
#undef PROX_WIDE_SIN2
#undef PROX_FLAT_SIN2
#undef PROX_INF
#undef PROX_NAN
