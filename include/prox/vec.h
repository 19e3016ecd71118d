/* SPDX-License-Identifier: MIT */
/// @file vec.h
/// @brief 3D vectors (prox_vec3, prox_vec3f) and their arithmetic, plus the
/// extended-precision helpers the kernels use on ill-conditioned input.
#ifndef PROX_VEC_H
#define PROX_VEC_H

#include "base.h"

PROX_EXTERN_C_BEGIN

#include "detail/real_double.h"
#include "detail/vec.inl"
#include "detail/exact.inl"
#include "detail/real_end.h"

#include "detail/real_float.h"
#include "detail/vec.inl"
#include "detail/exact.inl"
#include "detail/real_end.h"

PROX_EXTERN_C_END

#endif /* PROX_VEC_H */
