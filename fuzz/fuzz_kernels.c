/* SPDX-License-Identifier: MIT */
/* fuzz_kernels: a libFuzzer target over the public kernels of closest.h,
 * raycast.h, overlap.h and contact.h, in both precisions.
 *
 * The input: byte 0 picks the kernel and the precision, byte 1 the way the
 * rest is read into the kernel's reals:
 *   raw     the bits of each real as they come (NaN, infinities, subnormal
 *           numbers, anything);
 *   domain  sign and significand from the bits, the exponent folded into
 *           the kernel's documented domain (test_property's "full" mode:
 *           coordinates within 2^+-500, float 2^+-60, and zero, those of
 *           one query within 2^500, float 2^60, of one another; casts
 *           2^+-300, float 2^+-40, with directions of length about 1;
 *           contact 2^+-500, float 2^+-40; the mollifier 2^+-250, float
 *           2^+-28);
 *   poison  as domain, with one real (chosen by byte 2) made NaN, +inf or
 *           -inf (byte 3).
 * Ray intervals, box axes and plane normals are read their own way (see
 * fz_fill). Asserted (the process aborts on a violation, with the kernel
 * and its input printed, and libFuzzer saves the input):
 * - finite input in the domain gives finite output: the value with a result
 *   and with out = NULL and every real of prox_closest and prox_pair; a
 *   cast's hit with finite t, point, normal, barycentrics, t_exit (or
 *   tmax) and t in the interval; contact values, gradients and Hessians;
 * - non-finite input gives the documented answer: NaN in every output of
 *   the K1 and K2 queries (README, closest.h), no hit with the miss record
 *   for the casts, 0 from prox_point_in_triangle and the plane constructors
 *   (with the all-zero plane), NaN from the contact kernels (values and
 *   every entry) and from the mollifier, 0 from the overlap tests that
 *   document it;
 * - always: answers 0 or 1, the same hit with and without a result, valid
 *   contact types (an invalid type given to a typed kernel: NaN);
 * and ASan and UBSan check every access. See fuzz/CMakeLists.txt.
 *
 * The per-precision code is written once: this file includes itself twice
 * with FUZZ_KERNELS_TEMPLATE defined (double, then float). */
#ifndef FUZZ_KERNELS_TEMPLATE

#include <prox/contact.h>
#include <prox/prox.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FZ_RAW, FZ_DOMAIN, FZ_POISON };

/* The reader of one input, and what it has read. */
typedef struct fz_in {
  const uint8_t *p; /* the bytes not yet read */
  size_t n;
  int mode;        /* FZ_RAW, FZ_DOMAIN or FZ_POISON */
  int poison_at;   /* FZ_POISON: the index of the real made non-finite */
  int poison;      /* 0: NaN, 1: +inf, 2: -inf */
  int count;       /* reals read */
  unsigned wsel;   /* where the window of exponents lies (see fz_real) */
  int nonfinite;   /* a real read is NaN or infinite (intervals: NaN) */
  double seen[48]; /* the reals read, for the report */
} fz_in;

/* The next byte, 0 past the end. */
static unsigned fz_byte(fz_in *in) {
  unsigned b = 0;
  if (in->n) {
    b = in->p[0];
    ++in->p;
    --in->n;
  }
  return b;
}

/* The next n bytes as a little-endian number, zeros past the end. */
static uint64_t fz_bits(fz_in *in, int n) {
  uint64_t b = 0;
  int i;
  for (i = 0; i < n; ++i)
    b |= (uint64_t)fz_byte(in) << (8 * i);
  return b;
}

/* Records a real read. */
static void fz_seen(fz_in *in, double x) {
  if (in->count < 48) in->seen[in->count] = x;
  ++in->count;
}

/* Reports a violated property with the input and aborts. */
static void fz_fail(const fz_in *in, const char *kernel, const char *what) {
  int i;
  fprintf(stderr, "fuzz_kernels: %s: %s\n  mode %d, %d reals:", kernel, what, in->mode, in->count);
  for (i = 0; i < in->count && i < 48; ++i)
    fprintf(stderr, "%s%a", i % 6 ? ", " : "\n    ", in->seen[i]);
  fprintf(stderr, "\n");
  abort();
}

#define FZ_REQUIRE(cond, kernel, what)                                                             \
  do {                                                                                             \
    if (!(cond)) fz_fail(in, kernel, what);                                                        \
  } while (0)

#define FUZZ_KERNELS_TEMPLATE
#include <prox/detail/real_double.h>
#define FZ_SUF ""
#define FZ_UINT uint64_t
#define FZ_MANT 52
#define FZ_E 500
#define FZ_E3 300
#define FZ_WIN 500
#define FZ_SHAPE 440
#define FZ_E4 500
#define FZ_EM 250
#include "fuzz_kernels.c"
#undef FZ_SUF
#undef FZ_UINT
#undef FZ_MANT
#undef FZ_E
#undef FZ_E3
#undef FZ_WIN
#undef FZ_SHAPE
#undef FZ_E4
#undef FZ_EM
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#define FZ_SUF "f"
#define FZ_UINT uint32_t
#define FZ_MANT 23
#define FZ_E 60
#define FZ_E3 40
#define FZ_WIN 60
#define FZ_SHAPE 44
#define FZ_E4 40
#define FZ_EM 28
#include "fuzz_kernels.c"
#undef FZ_SUF
#undef FZ_UINT
#undef FZ_MANT
#undef FZ_E
#undef FZ_E3
#undef FZ_WIN
#undef FZ_SHAPE
#undef FZ_E4
#undef FZ_EM
#include <prox/detail/real_end.h>
#undef FUZZ_KERNELS_TEMPLATE

/* Kernels per precision: K1, K2, casts, overlap tests, contact. */
#define FZ_NK1 21
#define FZ_NK2 15
#define FZ_NK3 7
#define FZ_NOV 5
#define FZ_NK4 18
#define FZ_NK (FZ_NK1 + FZ_NK2 + FZ_NK3 + FZ_NOV + FZ_NK4)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in;
  int k, f;
  if (size < 5) return 0;
  memset(&in, 0, sizeof in);
  in.mode = data[1] % 3;
  in.poison_at = data[2] % 16;
  in.poison = data[3] % 3;
  in.wsel = data[4];
  in.p = data + 5;
  in.n = size - 5;
  k = data[0] % (2 * FZ_NK);
  f = k >= FZ_NK;
  k %= FZ_NK;
  if (k < FZ_NK1) {
    (f ? fz_k1f : fz_k1)(&in, k);
  } else if ((k -= FZ_NK1) < FZ_NK2) {
    (f ? fz_k2f : fz_k2)(&in, k);
  } else if ((k -= FZ_NK2) < FZ_NK3) {
    (f ? fz_k3f : fz_k3)(&in, k);
  } else if ((k -= FZ_NK3) < FZ_NOV) {
    (f ? fz_ovf : fz_ov)(&in, k);
  } else {
    (f ? fz_k4f : fz_k4)(&in, k - FZ_NOV);
  }
  return 0;
}

#else /* FUZZ_KERNELS_TEMPLATE: one precision */

#define VEC PROX_FN(prox_vec3)
#define FZ(name) PROX_FN(name)

/* One real: in the domain modes sign and significand from the bits and a
 * magnitude 2^e (1 + f) with e picked by the exponent field (one time in
 * eight zero) in a window of FZ_WIN exponents within [-emax, emax), where
 * byte 4 of the input puts it (the domain's spread: the nonzero magnitudes
 * of one query within 2^FZ_WIN of one another), else the raw bits; in
 * FZ_POISON, the chosen one non-finite. */
static PROX_REAL FZ(fz_real)(fz_in *in, int emax) {
  const int win = 2 * emax < FZ_WIN ? 2 * emax : FZ_WIN;
  const int lo = -emax + (int)(in->wsel % (unsigned)(2 * emax - win + 1));
  const int ebits = (int)(8 * sizeof(PROX_REAL)) - 1 - FZ_MANT;
  FZ_UINT b = (FZ_UINT)fz_bits(in, (int)sizeof(PROX_REAL));
  PROX_REAL x;
  if (in->mode == FZ_RAW) {
    memcpy(&x, &b, sizeof x);
  } else {
    unsigned e = (unsigned)(b >> FZ_MANT) & ((1u << ebits) - 1);
    double f = 1 + ldexp((double)(b & (((FZ_UINT)1 << FZ_MANT) - 1)), -FZ_MANT);
    x = e < (1u << ebits) / 8 ? 0 : (PROX_REAL)ldexp(f, lo + (int)(e % (unsigned)win));
    if (b >> (8 * sizeof(PROX_REAL) - 1)) x = -x;
    if (in->mode == FZ_POISON && in->count == in->poison_at)
      x = in->poison == 0 ? PROX_NAN : (in->poison == 1 ? PROX_INF : -PROX_INF);
  }
  if (!isfinite(x)) in->nonfinite = 1;
  fz_seen(in, (double)x);
  return x;
}

/* Fills the reals of the struct at x by spec, one letter each: c a length
 * (magnitudes below 2^e), D a direction of three components (in the domain
 * modes of length about 1: exponents down to 2^-60 and zeros, scaled so
 * that the largest magnitude is 1), I a ray interval (two reals from a
 * table: [0, inf], [0, 2], [-inf, inf], [-inf, 0], [1, 1], [2, 0], and
 * outside the domain mode [NaN, inf], [0, NaN]), J a cast's interval (the
 * same without -inf: [-1, inf] and [-1, 0] instead). */
static void FZ(fz_fill)(fz_in *in, void *x, const char *spec, int e) {
  PROX_REAL *v = (PROX_REAL *)x;
  for (; *spec; ++spec) {
    if (*spec == 'c') {
      *v++ = FZ(fz_real)(in, e);
    } else if (*spec == 'D') {
      PROX_REAL big = 0;
      int i, fin = 1;
      for (i = 0; i < 3; ++i) {
        v[i] = FZ(fz_real)(in, 30);
        if (in->mode != FZ_RAW && isfinite(v[i])) /* within 2^-60..2 */
          v[i] = (PROX_REAL)ldexp((double)v[i], -30);
        fin &= isfinite(v[i]) != 0;
        if (PROX_FABS(v[i]) > big) big = PROX_FABS(v[i]);
      }
      /* Scaled to a largest magnitude of 1 unless raw or poisoned. */
      if (in->mode != FZ_RAW && fin) {
        if (big == 0) v[0] = big = 1;
        for (i = 0; i < 3; ++i)
          v[i] /= big;
      }
      v += 3;
    } else {
      /* A row of the table: I for the K1 and K2 rays, J for the casts. */
      static const double lo[2][8] = {{0, 0, -INFINITY, -INFINITY, 1, 2, NAN, 0},
                                      {0, 0, -1, -1, 1, 2, NAN, 0}};
      static const double hi[8] = {INFINITY, 2, INFINITY, 0, 1, 0, INFINITY, NAN};
      unsigned c = fz_byte(in) % (in->mode == FZ_DOMAIN ? 6u : 8u);
      double a = lo[*spec == 'J'][c];
      if (c >= 6) in->nonfinite = 1;
      v[0] = (PROX_REAL)a;
      v[1] = (PROX_REAL)hi[c];
      fz_seen(in, a);
      fz_seen(in, hi[c]);
      v += 2;
    }
  }
}

#define FZ_SPEC_vec3 "ccc"
#define FZ_SPEC_plane "Dc"
#define FZ_SPEC_line "cccccc"
#define FZ_SPEC_ray "ccccccI"
#define FZ_SPEC_segment "cccccc"
#define FZ_SPEC_triangle "ccccccccc"
#define FZ_SPEC_rectangle "cccDDcc"
#define FZ_SPEC_aabb "cccccc"
#define FZ_SPEC_obb "cccDDDccc"
#define FZ_SPEC_sphere "cccc"
#define FZ_SPEC_capsule "ccccccc"
#define FZ_SPEC_tetrahedron "cccccccccccc"

static int FZ(fz_fin3)(VEC v) {
  return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static int FZ(fz_nan3)(VEC v) {
  return isnan(v.x) && isnan(v.y) && isnan(v.z);
}

/* The K1 result: NaN everywhere for non-finite input, finite in the
 * domain mode. */
static void FZ(fz_closest)(fz_in *in, const char *name, PROX_REAL d, PROX_REAL dn,
                           const PROX_FN(prox_closest) * r) {
  int i, fin = isfinite(d) && isfinite(dn) && isfinite(r->sqdist) && FZ(fz_fin3)(r->point);
  int nan = isnan(d) && isnan(dn) && isnan(r->sqdist) && FZ(fz_nan3)(r->point) &&
            r->feature.kind == PROX_FEATURE_NONE;
  for (i = 0; i < 4; ++i) {
    fin &= isfinite(r->param[i]) != 0;
    nan &= isnan(r->param[i]) != 0;
  }
  if (in->nonfinite)
    FZ_REQUIRE(nan, name, "non-finite input, not NaN output");
  else if (in->mode != FZ_RAW)
    FZ_REQUIRE(fin, name, "finite input in the domain, non-finite output");
}

#define FZ_K1(fn, T)                                                                               \
  do {                                                                                             \
    VEC p_;                                                                                        \
    PROX_FN(prox_##T) g_;                                                                          \
    PROX_FN(prox_closest) r_;                                                                      \
    PROX_REAL d_, n_;                                                                              \
    FZ(fz_fill)(in, &p_, FZ_SPEC_vec3, FZ_E);                                                      \
    FZ(fz_fill)(in, &g_, FZ_SPEC_##T, FZ_E);                                                       \
    d_ = PROX_FN(fn)(p_, &g_, &r_);                                                                \
    n_ = PROX_FN(fn)(p_, &g_, NULL);                                                               \
    FZ(fz_closest)(in, #fn FZ_SUF, d_, n_, &r_);                                                   \
  } while (0)

/* The point queries, the triangle tests and the plane constructors. */
static void FZ(fz_k1)(fz_in *in, int k) {
  VEC p, b;
  PROX_FN(prox_triangle) t;
  PROX_FN(prox_plane) pl;
  PROX_REAL off;
  int r;
  switch (k) {
  case 0:
    FZ_K1(prox_point_plane, plane);
    break;
  case 1:
    FZ_K1(prox_point_plane_signed, plane);
    break;
  case 2:
    FZ_K1(prox_point_line, line);
    break;
  case 3:
    FZ_K1(prox_point_ray, ray);
    break;
  case 4:
    FZ_K1(prox_point_segment, segment);
    break;
  case 5:
    FZ_K1(prox_point_triangle, triangle);
    break;
  case 6:
    FZ_K1(prox_point_rectangle, rectangle);
    break;
  case 7:
    FZ_K1(prox_point_aabb, aabb);
    break;
  case 8:
    FZ_K1(prox_point_aabb_signed, aabb);
    break;
  case 9:
    FZ_K1(prox_point_obb, obb);
    break;
  case 10:
    FZ_K1(prox_point_obb_signed, obb);
    break;
  case 11:
    FZ_K1(prox_point_sphere, sphere);
    break;
  case 12:
    FZ_K1(prox_point_sphere_signed, sphere);
    break;
  case 13:
    FZ_K1(prox_point_capsule, capsule);
    break;
  case 14:
    FZ_K1(prox_point_capsule_signed, capsule);
    break;
  case 15:
    FZ_K1(prox_point_tetrahedron, tetrahedron);
    break;
  case 16:
    FZ_K1(prox_point_tetrahedron_signed, tetrahedron);
    break;
  case 17:
    FZ(fz_fill)(in, &p, FZ_SPEC_vec3, FZ_E);
    FZ(fz_fill)(in, &t, FZ_SPEC_triangle, FZ_E);
    r = PROX_FN(prox_point_in_triangle)(p, &t);
    FZ_REQUIRE(r == 0 || r == 1, "prox_point_in_triangle" FZ_SUF, "not 0/1");
    FZ_REQUIRE(!in->nonfinite || r == 0, "prox_point_in_triangle" FZ_SUF,
               "non-finite input, not 0");
    break;
  case 18:
    FZ(fz_fill)(in, &p, FZ_SPEC_vec3, FZ_E);
    FZ(fz_fill)(in, &t, FZ_SPEC_triangle, FZ_E);
    b = PROX_FN(prox_triangle_barycentric)(p, &t);
    FZ_REQUIRE(!in->nonfinite || FZ(fz_nan3)(b), "prox_triangle_barycentric" FZ_SUF,
               "non-finite input, not NaN");
    FZ_REQUIRE(in->nonfinite || in->mode == FZ_RAW || FZ(fz_fin3)(b),
               "prox_triangle_barycentric" FZ_SUF, "finite input in the domain, non-finite output");
    break;
  case 19:
  case 20:
    /* The normal and the offset, or the point and the normal. */
    if (k == 19) {
      FZ(fz_fill)(in, &b, "D", FZ_E);
      off = FZ(fz_real)(in, FZ_E);
      r = PROX_FN(prox_plane_from_normal)(b, off, &pl);
    } else {
      FZ(fz_fill)(in, &p, FZ_SPEC_vec3, FZ_E);
      FZ(fz_fill)(in, &b, "D", FZ_E);
      r = PROX_FN(prox_plane_from_point_normal)(p, b, &pl);
    }
    FZ_REQUIRE(!in->nonfinite || (r == 0 && pl.normal.x == 0 && pl.normal.y == 0 &&
                                  pl.normal.z == 0 && pl.offset == 0),
               "prox_plane_from_normal / _from_point_normal" FZ_SUF,
               "non-finite input, not 0 and the all-zero plane");
    FZ_REQUIRE(in->nonfinite || in->mode == FZ_RAW ||
                   (r == 1 && FZ(fz_fin3)(pl.normal) && isfinite(pl.offset)),
               "prox_plane_from_normal / _from_point_normal" FZ_SUF,
               "finite input in the domain, not 1 and a finite plane");
    break;
  default:
    break;
  }
}

/* The K2 result, as fz_closest. */
static void FZ(fz_pair)(fz_in *in, const char *name, PROX_REAL d, PROX_REAL dn,
                        const PROX_FN(prox_pair) * r) {
  int i, m, fin = isfinite(d) && isfinite(dn) && isfinite(r->sqdist);
  int nan = isnan(d) && isnan(dn) && isnan(r->sqdist);
  for (i = 0; i < 2; ++i) {
    fin &= FZ(fz_fin3)(r->point[i]);
    nan &= FZ(fz_nan3)(r->point[i]) && r->feature[i].kind == PROX_FEATURE_NONE;
    for (m = 0; m < 3; ++m) {
      fin &= isfinite(r->param[i][m]) != 0;
      nan &= isnan(r->param[i][m]) != 0;
    }
  }
  if (in->nonfinite)
    FZ_REQUIRE(nan, name, "non-finite input, not NaN output");
  else if (in->mode != FZ_RAW)
    FZ_REQUIRE(fin, name, "finite input in the domain, non-finite output");
}

#define FZ_K2(fn, TA, TB)                                                                          \
  do {                                                                                             \
    PROX_FN(prox_##TA) a_;                                                                         \
    PROX_FN(prox_##TB) b_;                                                                         \
    PROX_FN(prox_pair) r_;                                                                         \
    PROX_REAL d_, n_;                                                                              \
    FZ(fz_fill)(in, &a_, FZ_SPEC_##TA, FZ_E);                                                      \
    FZ(fz_fill)(in, &b_, FZ_SPEC_##TB, FZ_E);                                                      \
    d_ = PROX_FN(fn)(&a_, &b_, &r_);                                                               \
    n_ = PROX_FN(fn)(&a_, &b_, NULL);                                                              \
    FZ(fz_pair)(in, #fn FZ_SUF, d_, n_, &r_);                                                      \
  } while (0)

static void FZ(fz_k2)(fz_in *in, int k) {
  switch (k) {
  case 0:
    FZ_K2(prox_line_line, line, line);
    break;
  case 1:
    FZ_K2(prox_line_ray, line, ray);
    break;
  case 2:
    FZ_K2(prox_line_segment, line, segment);
    break;
  case 3:
    FZ_K2(prox_ray_ray, ray, ray);
    break;
  case 4:
    FZ_K2(prox_ray_segment, ray, segment);
    break;
  case 5:
    FZ_K2(prox_segment_segment, segment, segment);
    break;
  case 6:
    FZ_K2(prox_segment_triangle, segment, triangle);
    break;
  case 7:
    FZ_K2(prox_triangle_triangle, triangle, triangle);
    break;
  case 8:
    FZ_K2(prox_sphere_sphere, sphere, sphere);
    break;
  case 9:
    FZ_K2(prox_sphere_capsule, sphere, capsule);
    break;
  case 10:
    FZ_K2(prox_capsule_capsule, capsule, capsule);
    break;
  case 11:
    FZ_K2(prox_sphere_segment, sphere, segment);
    break;
  case 12:
    FZ_K2(prox_capsule_segment, capsule, segment);
    break;
  case 13:
    FZ_K2(prox_sphere_triangle, sphere, triangle);
    break;
  default:
    FZ_K2(prox_capsule_triangle, capsule, triangle);
    break;
  }
}

/* A cast's answer: 0 or 1, the same with out = NULL; a miss for
 * non-finite input; every miss with the miss record (hit and inside 0,
 * feature NONE, every real NaN); in the domain mode a hit with finite
 * outputs and t in the interval. */
static void FZ(fz_hit)(fz_in *in, const char *name, int hit, int hitn,
                       const PROX_FN(prox_rayhit) * h, const PROX_FN(prox_ray) * ry) {
  PROX_REAL hi = ry->tmax < ry->tmin ? ry->tmin : ry->tmax;
  FZ_REQUIRE((hit == 0 || hit == 1) && hitn == hit && h->hit == hit, name,
             "hit not 0/1, or not the same with out = NULL");
  FZ_REQUIRE(!in->nonfinite || hit == 0, name, "non-finite input, a hit");
  if (!hit)
    FZ_REQUIRE(h->inside == 0 && h->feature.kind == PROX_FEATURE_NONE && isnan(h->t) &&
                   isnan(h->t_exit) && FZ(fz_nan3)(h->point) && FZ(fz_nan3)(h->normal) &&
                   isnan(h->bary[0]) && isnan(h->bary[1]) && isnan(h->bary[2]),
               name, "a miss without the miss record (NaN fields)");
  if (hit && !in->nonfinite && in->mode != FZ_RAW)
    FZ_REQUIRE(isfinite(h->t) && h->t >= ry->tmin && h->t <= hi &&
                   (isfinite(h->t_exit) || h->t_exit == ry->tmax) && FZ(fz_fin3)(h->point) &&
                   FZ(fz_fin3)(h->normal) && isfinite(h->bary[0]) && isfinite(h->bary[1]) &&
                   isfinite(h->bary[2]),
               name, "hit in the domain with non-finite output or t outside");
}

/* A cast against T: a ray from a point of magnitude below 2^FZ_E3 with a
 * direction of length about 1 (raycast.h's domain). */
#define FZ_K3(fn, T)                                                                               \
  do {                                                                                             \
    PROX_FN(prox_ray) ry_;                                                                         \
    PROX_FN(prox_##T) g_;                                                                          \
    PROX_FN(prox_rayhit) h_;                                                                       \
    int c_, n_;                                                                                    \
    FZ(fz_fill)(in, &ry_, "cccDJ", FZ_E3);                                                         \
    FZ(fz_fill)(in, &g_, FZ_SPEC_##T, FZ_E3);                                                      \
    c_ = PROX_FN(fn)(&ry_, &g_, &h_);                                                              \
    n_ = PROX_FN(fn)(&ry_, &g_, NULL);                                                             \
    FZ(fz_hit)(in, #fn FZ_SUF, c_, n_, &h_, &ry_);                                                 \
  } while (0)

static void FZ(fz_k3)(fz_in *in, int k) {
  switch (k) {
  case 0:
    FZ_K3(prox_raycast_plane, plane);
    break;
  case 1:
    FZ_K3(prox_raycast_triangle, triangle);
    break;
  case 2:
    FZ_K3(prox_raycast_aabb, aabb);
    break;
  case 3:
    FZ_K3(prox_raycast_obb, obb);
    break;
  case 4:
    FZ_K3(prox_raycast_sphere, sphere);
    break;
  case 5:
    FZ_K3(prox_raycast_capsule, capsule);
    break;
  default:
    FZ_K3(prox_raycast_tetrahedron, tetrahedron);
    break;
  }
}

/* An overlap test: 0 or 1; with nan0 set, 0 for non-finite input (for the
 * AABB test: NaN input). */
#define FZ_OV(fn, TA, TB, nan0)                                                                    \
  do {                                                                                             \
    PROX_FN(prox_##TA) a_;                                                                         \
    PROX_FN(prox_##TB) b_;                                                                         \
    int r_, i_, nan_ = 0;                                                                          \
    FZ(fz_fill)(in, &a_, FZ_SPEC_##TA, FZ_E);                                                      \
    FZ(fz_fill)(in, &b_, FZ_SPEC_##TB, FZ_E);                                                      \
    for (i_ = 0; i_ < in->count && i_ < 48; ++i_)                                                  \
      nan_ |= isnan(in->seen[i_]) != 0;                                                            \
    r_ = PROX_FN(fn)(&a_, &b_);                                                                    \
    FZ_REQUIRE(r_ == 0 || r_ == 1, #fn FZ_SUF, "not 0/1");                                         \
    if ((nan0) == 1 && in->nonfinite) FZ_REQUIRE(r_ == 0, #fn FZ_SUF, "non-finite input, not 0");  \
    if ((nan0) == 2 && nan_) FZ_REQUIRE(r_ == 0, #fn FZ_SUF, "NaN input, not 0");                  \
  } while (0)

static void FZ(fz_ov)(fz_in *in, int k) {
  switch (k) {
  case 0:
    FZ_OV(prox_overlap_aabb_aabb, aabb, aabb, 2);
    break;
  case 1:
    FZ_OV(prox_overlap_obb_obb, obb, obb, 0);
    break;
  case 2:
    FZ_OV(prox_overlap_triangle_aabb, triangle, aabb, 0);
    break;
  case 3:
    FZ_OV(prox_overlap_sphere_triangle, sphere, triangle, 1);
    break;
  default:
    FZ_OV(prox_overlap_triangle_triangle, triangle, triangle, 0);
    break;
  }
}

/* A contact kernel's results: value (from each of the three calls), n
 * gradient entries (two calls), n * n Hessian entries: all NaN when nan is
 * set, all finite when fin is set. */
static void FZ(fz_k4_check)(fz_in *in, const char *name, const PROX_REAL *v, const PROX_REAL *w,
                            const PROX_REAL *g, const PROX_REAL *h, int n, int nan, int fin) {
  int i, allnan = 1, allfin = 1;
  for (i = 0; i < 3; ++i) {
    allnan &= isnan(v[i]) != 0;
    allfin &= isfinite(v[i]) != 0;
  }
  for (i = 0; i < n; ++i) {
    allnan &= isnan(w[i]) && isnan(g[i]);
    allfin &= isfinite(w[i]) && isfinite(g[i]);
  }
  for (i = 0; i < n * n; ++i) {
    allnan &= isnan(h[i]) != 0;
    allfin &= isfinite(h[i]) != 0;
  }
  if (nan) FZ_REQUIRE(allnan, name, "non-finite input or type, not all NaN");
  if (fin) FZ_REQUIRE(allfin, name, "finite input in the domain, non-finite");
}

#define FZ_UNPACK(...) __VA_ARGS__
/* fn's value, gradient and Hessian with the arguments args (a
 * parenthesised list): n coordinates; bad is set for an invalid type. */
#define FZ_K4(fn, n, bad, args)                                                                    \
  do {                                                                                             \
    PROX_REAL v_[3], w_[12], g_[12], h_[144];                                                      \
    v_[0] = PROX_FN(fn)(FZ_UNPACK args);                                                           \
    v_[1] = PROX_FN(fn##_gradient)(FZ_UNPACK args, w_);                                            \
    v_[2] = PROX_FN(fn##_hessian)(FZ_UNPACK args, g_, h_);                                         \
    FZ(fz_k4_check)                                                                                \
    (in, #fn FZ_SUF, v_, w_, g_, h_, n, in->nonfinite || (bad),                                    \
     !in->nonfinite && !(bad) && in->mode != FZ_RAW && shape);                                     \
  } while (0)

/* Whether the n points p (in double) satisfy D / h <= 2^(lim), D the
 * largest distance between two of the points, h the smallest of their
 * pairwise distances, the heights of their triangles and, for four
 * points, |e1 x e2| / max(|e1|, |e2|) of the edges p0 p1 and p2 p3.
 * Computed in double on the points scaled to a largest magnitude near 1. */
static int FZ(fz_shape_one)(double p[4][3], int n, int lim) {
  double m = 0, dmax = 0, h = INFINITY;
  int i, j, l, e;
  for (i = 0; i < n; ++i)
    for (l = 0; l < 3; ++l)
      m = fabs(p[i][l]) > m ? fabs(p[i][l]) : m;
  if (!(m > 0)) return 1; /* all points at the origin: point-point */
  (void)frexp(m, &e);
  for (i = 0; i < n; ++i)
    for (l = 0; l < 3; ++l)
      p[i][l] = ldexp(p[i][l], -e);
  for (i = 0; i < n; ++i)
    for (j = i + 1; j < n; ++j) {
      double d[3], len;
      for (l = 0; l < 3; ++l)
        d[l] = p[j][l] - p[i][l];
      len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      dmax = len > dmax ? len : dmax;
      h = len < h ? len : h;
    }
  for (i = 0; n >= 3 && i < (n == 3 ? 1 : 4); ++i) {
    /* The triangles of three of the points (all four triples). */
    int a = i % n, b = (i + 1) % n, c = (i + 2) % n;
    double u[3], v[3], w[3], cr[3], area2, lu, lv, lw, lm;
    for (l = 0; l < 3; ++l) {
      u[l] = p[b][l] - p[a][l];
      v[l] = p[c][l] - p[a][l];
      w[l] = p[c][l] - p[b][l];
    }
    cr[0] = u[1] * v[2] - u[2] * v[1];
    cr[1] = u[2] * v[0] - u[0] * v[2];
    cr[2] = u[0] * v[1] - u[1] * v[0];
    area2 = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
    lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    lv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    lw = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    lm = lu > lv ? lu : lv;
    lm = lw > lm ? lw : lm;
    if (lm > 0) h = area2 / lm < h ? area2 / lm : h;
  }
  if (n == 4) {
    double u[3], v[3], cr[3], lu, lv;
    for (l = 0; l < 3; ++l) {
      u[l] = p[1][l] - p[0][l];
      v[l] = p[3][l] - p[2][l];
    }
    cr[0] = u[1] * v[2] - u[2] * v[1];
    cr[1] = u[2] * v[0] - u[0] * v[2];
    cr[2] = u[0] * v[1] - u[1] * v[0];
    lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    lv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (lu > 0 && lv > 0) {
      double c = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) / (lu > lv ? lu : lv);
      h = c < h ? c : h;
    }
  }
  return h > 0 && dmax <= ldexp(h, lim);
}

/* Whether the n points x satisfy contact.h's shape condition for every
 * formula a kernel on them may evaluate, with a margin (D / h <= 2^(lim),
 * fz_shape_one). The condition is on the shape a formula computes with:
 * its vertices placed by their differences from one of them, each
 * coordinate difference rounded once to the working precision (a float
 * sliver whose short edge is below an ulp of the long ones is far thinner,
 * or flat, once rounded). So every vertex is taken as the base in turn,
 * and for four points also the edge-edge placement (ea0 - eb0, ea1 - ea0,
 * eb1 - eb0, each rounded). A conservative reading (contact.h takes the
 * sizes of the formula actually evaluated, and an exact zero size its
 * fallback's): where it fails, the fuzzer asserts nothing of finiteness
 * (test_property checks the stated condition itself). */
static int FZ(fz_shape_ok)(const VEC *x, int n, int lim) {
  double p[4][3];
  int b, i;
  for (b = 0; b < n; ++b) {
    for (i = 0; i < n; ++i) {
      VEC d = PROX_FN(prox_vsub)(x[i], x[b]);
      p[i][0] = (double)d.x, p[i][1] = (double)d.y, p[i][2] = (double)d.z;
    }
    if (!FZ(fz_shape_one)(p, n, lim)) return 0;
  }
  if (n == 4) {
    VEC a = PROX_FN(prox_vsub)(x[0], x[2]), ea = PROX_FN(prox_vsub)(x[1], x[0]),
        eb = PROX_FN(prox_vsub)(x[3], x[2]);
    p[0][0] = (double)a.x, p[0][1] = (double)a.y, p[0][2] = (double)a.z;
    p[1][0] = p[0][0] + (double)ea.x, p[1][1] = p[0][1] + (double)ea.y;
    p[1][2] = p[0][2] + (double)ea.z;
    p[2][0] = p[2][1] = p[2][2] = 0;
    p[3][0] = (double)eb.x, p[3][1] = (double)eb.y, p[3][2] = (double)eb.z;
    if (!FZ(fz_shape_one)(p, n, lim)) return 0;
  }
  return 1;
}

/* The contact kernels (points p, a, b, q as in test_scale), their types and
 * the mollifier. */
static void FZ(fz_k4)(fz_in *in, int k) {
  /* The points each kernel takes (the rest stay 0). */
  static const int npts[15] = {2, 3, 4, 4, 3, 4, 4, 3, 4, 4, 4, 4, 4, 4, 1};
  VEC x[4];
  PROX_REAL eps, m[3];
  unsigned ty = fz_byte(in);
  int i, e = k < 11 ? FZ_E4 : FZ_EM, t;
  int shape;
  memset(x, 0, sizeof x);
  for (i = 0; i < npts[k < 14 ? k : 14]; ++i)
    FZ(fz_fill)(in, &x[i], FZ_SPEC_vec3, e);
  /* contact.h's shape condition (2^448, float 2^48), with a margin. */
  shape = FZ(fz_shape_ok)(x, npts[k < 14 ? k : 14], FZ_SHAPE);
  switch (k) {
  case 0:
    FZ_K4(prox_ipc_point_point_distance, 6, 0, (x[0], x[1]));
    break;
  case 1:
    FZ_K4(prox_ipc_point_line_distance, 9, 0, (x[0], x[1], x[2]));
    break;
  case 2:
    FZ_K4(prox_ipc_point_plane_distance, 12, 0, (x[0], x[1], x[2], x[3]));
    break;
  case 3:
    FZ_K4(prox_ipc_line_line_distance, 12, 0, (x[0], x[1], x[2], x[3]));
    break;
  case 4:
    /* Types 0..AUTO are valid, AUTO + 1 is not. */
    t = (int)(ty % (PROX_PE_AUTO + 2));
    FZ_K4(prox_ipc_point_edge_distance, 9, t > PROX_PE_AUTO,
          (x[0], x[1], x[2], (prox_ipc_pe_type)t));
    break;
  case 5:
    t = (int)(ty % (PROX_PT_AUTO + 2));
    FZ_K4(prox_ipc_point_triangle_distance, 12, t > PROX_PT_AUTO,
          (x[0], x[1], x[2], x[3], (prox_ipc_pt_type)t));
    break;
  case 6:
    t = (int)(ty % (PROX_EE_AUTO + 2));
    FZ_K4(prox_ipc_edge_edge_distance, 12, t > PROX_EE_AUTO,
          (x[0], x[1], x[2], x[3], (prox_ipc_ee_type)t));
    break;
  case 7:
    t = (int)PROX_FN(prox_ipc_point_edge_distance_type)(x[0], x[1], x[2]);
    FZ_REQUIRE(t >= 0 && t <= PROX_PE_P_E, "prox_ipc_point_edge_distance_type" FZ_SUF,
               "invalid type");
    break;
  case 8:
    t = (int)PROX_FN(prox_ipc_point_triangle_distance_type)(x[0], x[1], x[2], x[3]);
    FZ_REQUIRE(t >= 0 && t <= PROX_PT_P_T, "prox_ipc_point_triangle_distance_type" FZ_SUF,
               "invalid type");
    break;
  case 9:
    t = (int)PROX_FN(prox_ipc_edge_edge_distance_type)(x[0], x[1], x[2], x[3]);
    FZ_REQUIRE(t >= 0 && t <= PROX_EE_EA_EB, "prox_ipc_edge_edge_distance_type" FZ_SUF,
               "invalid type");
    break;
  case 10:
    t = (int)PROX_FN(prox_ipc_edge_edge_parallel_distance_type)(x[0], x[1], x[2], x[3]);
    FZ_REQUIRE(t >= 0 && t <= PROX_EE_EA1_EB, "prox_ipc_edge_edge_parallel_distance_type" FZ_SUF,
               "invalid type");
    break;
  case 11:
    FZ_K4(prox_ipc_edge_edge_cross_squarednorm, 12, 0, (x[0], x[1], x[2], x[3]));
    break;
  case 12:
  case 13:
    /* The mollifier with the threshold of the same edges as rest shape. */
    eps = PROX_FN(prox_ipc_edge_edge_mollifier_threshold)(x[0], x[1], x[2], x[3]);
    FZ_REQUIRE(!in->nonfinite || isnan(eps), "prox_ipc_edge_edge_mollifier_threshold" FZ_SUF,
               "non-finite input, not NaN");
    FZ_REQUIRE(in->nonfinite || in->mode == FZ_RAW || (isfinite(eps) && eps >= 0),
               "prox_ipc_edge_edge_mollifier_threshold" FZ_SUF,
               "finite input in the domain, not finite and >= 0");
    if (k == 13) FZ_K4(prox_ipc_edge_edge_mollifier, 12, 0, (x[0], x[1], x[2], x[3], eps));
    break;
  default:
    /* The scalar mollifier at x = |x[0].x| and eps = |x[0].y| (or one of
     * them non-finite): NaN for non-finite input, m finite otherwise. */
    m[0] = PROX_FN(prox_ipc_mollifier)(PROX_FABS(x[0].x), PROX_FABS(x[0].y));
    m[1] = PROX_FN(prox_ipc_mollifier_derivative)(PROX_FABS(x[0].x), PROX_FABS(x[0].y));
    m[2] = PROX_FN(prox_ipc_mollifier_second_derivative)(PROX_FABS(x[0].x), PROX_FABS(x[0].y));
    if (!isfinite(x[0].x) || !isfinite(x[0].y))
      FZ_REQUIRE(isnan(m[0]) && isnan(m[1]) && isnan(m[2]), "prox_ipc_mollifier" FZ_SUF,
                 "non-finite input, not NaN");
    else
      FZ_REQUIRE(isfinite(m[0]), "prox_ipc_mollifier" FZ_SUF, "finite input, non-finite value");
    break;
  }
}

#undef FZ_K1
#undef FZ_K2
#undef FZ_K3
#undef FZ_K4
#undef FZ_OV
#undef FZ_UNPACK
#undef VEC
#undef FZ

#endif /* FUZZ_KERNELS_TEMPLATE */
