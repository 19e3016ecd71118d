/* SPDX-License-Identifier: MIT */
/// @file vec.h
/// @brief 3D vectors (prox_vec3, prox_vec3f) and their arithmetic, in double
/// and float (suffix f). Also instantiates detail/exact.inl, the kernels'
/// internal exact and extended-precision arithmetic (not part of the API).
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

/* The documented kernels, literally named (the templates included above
 * hold their definitions, once for both precisions). */

/// Makes the vector (x, y, z).
PROX_KERNEL prox_vec3 prox_v3(double x, double y, double z);
/// Float version of prox_v3().
PROX_KERNEL prox_vec3f prox_v3f(float x, float y, float z);

/// a + b.
PROX_KERNEL prox_vec3 prox_vadd(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vadd().
PROX_KERNEL prox_vec3f prox_vaddf(prox_vec3f a, prox_vec3f b);

/// a - b.
PROX_KERNEL prox_vec3 prox_vsub(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vsub().
PROX_KERNEL prox_vec3f prox_vsubf(prox_vec3f a, prox_vec3f b);

/// s * a.
PROX_KERNEL prox_vec3 prox_vscale(prox_vec3 a, double s);
/// Float version of prox_vscale().
PROX_KERNEL prox_vec3f prox_vscalef(prox_vec3f a, float s);

/// a + s * b (two roundings per component, no fused multiply-add).
PROX_KERNEL prox_vec3 prox_vmadd(prox_vec3 a, double s, prox_vec3 b);
/// Float version of prox_vmadd().
PROX_KERNEL prox_vec3f prox_vmaddf(prox_vec3f a, float s, prox_vec3f b);

/// -a.
PROX_KERNEL prox_vec3 prox_vneg(prox_vec3 a);
/// Float version of prox_vneg().
PROX_KERNEL prox_vec3f prox_vnegf(prox_vec3f a);

/// Dot product a . b.
PROX_KERNEL double prox_vdot(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vdot().
PROX_KERNEL float prox_vdotf(prox_vec3f a, prox_vec3f b);

/// Cross product a x b.
PROX_KERNEL prox_vec3 prox_vcross(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vcross().
PROX_KERNEL prox_vec3f prox_vcrossf(prox_vec3f a, prox_vec3f b);

/// Squared length |a|^2.
PROX_KERNEL double prox_vlen2(prox_vec3 a);
/// Float version of prox_vlen2().
PROX_KERNEL float prox_vlen2f(prox_vec3f a);

/// Length |a|.
PROX_KERNEL double prox_vlen(prox_vec3 a);
/// Float version of prox_vlen().
PROX_KERNEL float prox_vlenf(prox_vec3f a);

/// Squared distance |a - b|^2.
PROX_KERNEL double prox_vdist2(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vdist2().
PROX_KERNEL float prox_vdist2f(prox_vec3f a, prox_vec3f b);

/// Componentwise minimum; a NaN component of a is returned as is.
PROX_KERNEL prox_vec3 prox_vmin(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vmin().
PROX_KERNEL prox_vec3f prox_vminf(prox_vec3f a, prox_vec3f b);

/// Componentwise maximum; a NaN component of a is returned as is.
PROX_KERNEL prox_vec3 prox_vmax(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vmax().
PROX_KERNEL prox_vec3f prox_vmaxf(prox_vec3f a, prox_vec3f b);

/// (a.x - a.x) + (a.y - a.y) + (a.z - a.z): 0 when every component is
/// finite, NaN otherwise. Added to
/// a result, it makes a non-finite input visible as NaN in the output.
PROX_KERNEL double prox_vpoison(prox_vec3 a);
/// Float version of prox_vpoison().
PROX_KERNEL float prox_vpoisonf(prox_vec3f a);

/// Clamps x to [lo, hi] (lo wins if lo > hi); a NaN x is returned as is.
PROX_KERNEL double prox_clamp(double x, double lo, double hi);
/// Float version of prox_clamp().
PROX_KERNEL float prox_clampf(float x, float lo, float hi);

/// The rounding error of the product p = fl(a * b): a * b = p + e exactly,
/// barring underflow (and, without hardware fma, |a| or |b| above about
/// 1e300 / 1e35 for float). A fused multiply-add where it is an instruction
/// (PROX_FAST_FMA), else Dekker's product of Veltkamp-split halves.
PROX_KERNEL double prox_two_prod_err(double a, double b, double p);
/// Float version of prox_two_prod_err().
PROX_KERNEL float prox_two_prod_errf(float a, float b, float p);

/// a*b - c*d with an error of at most about 2 ulp of the result, however
/// much the two products cancel: both products' rounding errors are
/// recovered exactly by prox_two_prod_err (a variant of Kahan's difference
/// of products that gives the same bits with and without hardware fma).
PROX_KERNEL double prox_diff_of_products(double a, double b, double c, double d);
/// Float version of prox_diff_of_products().
PROX_KERNEL float prox_diff_of_productsf(float a, float b, float c, float d);

/// Cross product a x b with each component computed by
/// prox_diff_of_products: relative error of a few ulps per component.
PROX_KERNEL prox_vec3 prox_vcross_acc(prox_vec3 a, prox_vec3 b);
/// Float version of prox_vcross_acc().
PROX_KERNEL prox_vec3f prox_vcross_accf(prox_vec3f a, prox_vec3f b);

PROX_EXTERN_C_END

#endif /* PROX_VEC_H */
