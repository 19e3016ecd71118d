/* SPDX-License-Identifier: MIT */
/* The packet ray casts of prox/packet.h: ray preparation, the portable
 * lane-by-lane code, and the dispatch to the vector code of
 * src/packet_avx2.c and src/packet_avx512.c by prox_simd_level() (the
 * instruction-set choice of src/batch.c, shared).
 *
 * The portable code below evaluates, lane by lane, the operations the
 * vector code evaluates, which are those of the scalar kernels
 * prox_raycast_aabb and prox_raycast_triangle (in the same order): every
 * path gives the same answers. This file includes itself once per
 * precision (PROX_PACKET_TEMPLATE). */
#ifndef PROX_PACKET_TEMPLATE

#include <prox/packet.h>

#include "batch_impl.h"

/* ---- the vector code's entry points (src/packet_avx2.c, _avx512.c) ---- */

#define PROX_PACKET_DECLARE(isa)                                               \
  extern PROX_DETAIL_HIDDEN const int prox_detail_pk_ok_##isa;                 \
  int prox_detail_pk_aabb4_##isa(const prox_packet_ray *, const prox_box4 *,   \
                                 double *);                                    \
  int prox_detail_pk_aabb8_##isa(const prox_packet_ray *, const prox_box8 *,   \
                                 double *);                                    \
  int prox_detail_pk_aabb4f_##isa(const prox_packet_rayf *,                    \
                                  const prox_box4f *, float *);                \
  int prox_detail_pk_aabb8f_##isa(const prox_packet_rayf *,                    \
                                  const prox_box8f *, float *);                \
  int prox_detail_pk_tri4_##isa(const prox_packet_ray *, const prox_tri4 *,    \
                                prox_packet_hit8 *);                           \
  int prox_detail_pk_tri8_##isa(const prox_packet_ray *, const prox_tri8 *,    \
                                prox_packet_hit8 *);                           \
  int prox_detail_pk_tri4f_##isa(const prox_packet_rayf *, const prox_tri4f *, \
                                 prox_packet_hit8f *);                         \
  int prox_detail_pk_tri8f_##isa(const prox_packet_rayf *, const prox_tri8f *, \
                                 prox_packet_hit8f *);
PROX_PACKET_DECLARE(avx2)
PROX_PACKET_DECLARE(avx512)

/* The portable loops (below), out of line: the public functions then need
 * no stack frame on the vector paths. */
#if defined(__GNUC__) || defined(__clang__)
#define PK_PORTABLE __attribute__((noinline))
#else
#define PK_PORTABLE
#endif

/* The vector path to use: 0 portable, 1 AVX2, 2 AVX-512 (available in this
 * build and chosen by prox_simd_level()). The level is read without a
 * call, so that the public functions need no stack frame and jump to the
 * vector code: prox_packet_ray_init() has had it chosen; before that (a
 * ray not prepared by it) it reads -1, the portable code, which gives the
 * same answers. */
static int prox_packet_path(void) {
  int level = PROX_SIMD_LOAD();
  if (level >= PROX_SIMD_AVX512 && prox_detail_pk_ok_avx512) return 2;
  if (level >= PROX_SIMD_AVX2 && prox_detail_pk_ok_avx2) return 1;
  return 0;
}

#define PROX_PACKET_TEMPLATE
#include <prox/detail/real_double.h>
#define PK_RAY prox_packet_ray
#define PK_BOX4 prox_box4
#define PK_BOX8 prox_box8
#define PK_TRI4 prox_tri4
#define PK_TRI8 prox_tri8
#define PK_HIT prox_packet_hit8
#include "packet.c"
#undef PK_RAY
#undef PK_BOX4
#undef PK_BOX8
#undef PK_TRI4
#undef PK_TRI8
#undef PK_HIT
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#define PK_RAY prox_packet_rayf
#define PK_BOX4 prox_box4f
#define PK_BOX8 prox_box8f
#define PK_TRI4 prox_tri4f
#define PK_TRI8 prox_tri8f
#define PK_HIT prox_packet_hit8f
#include "packet.c"
#undef PK_RAY
#undef PK_BOX4
#undef PK_BOX8
#undef PK_TRI4
#undef PK_TRI8
#undef PK_HIT
#include <prox/detail/real_end.h>
#undef PROX_PACKET_TEMPLATE
#undef PK_PORTABLE

#else /* PROX_PACKET_TEMPLATE: one precision */

void PROX_FN(prox_packet_ray_init)(PK_RAY *p, const PROX_FN(prox_ray) * ray) {
  PROX_FN(prox_detail_rayspace) rs;
  int a;
  p->ray = *ray;
  p->org[0] = ray->origin.x;
  p->org[1] = ray->origin.y;
  p->org[2] = ray->origin.z;
  p->dir[0] = ray->dir.x;
  p->dir[1] = ray->dir.y;
  p->dir[2] = ray->dir.z;
  p->tmin = ray->tmin;
  p->tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  for (a = 0; a < 3; ++a) {
    /* The three cases of prox_detail_rc_slab. */
    p->inv[a] = 1 / p->dir[a];
    p->mode[a] = PROX_FABS(p->inv[a]) <= PROX_REAL_MAX ? 0
                 : p->dir[a] == 0                      ? 1
                                                       : 2;
  }
  p->valid = PROX_FN(prox_detail_rc_ray_ok)(ray);
  /* The instruction set, chosen now if it is not yet (prox_packet_path). */
  (void)prox_simd_level();
  p->tri_valid =
      PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &rs) && p->valid;
  p->kx = rs.kx;
  p->ky = rs.ky;
  p->kz = rs.kz;
  p->sx = rs.sx;
  p->sy = rs.sy;
  p->sz = rs.sz;
}

/* One lane of the box test: the operations of prox_raycast_aabb (via
 * prox_detail_rc_slab3) on a valid box. */
static int PROX_FN(prox_pk_box_lane)(const PK_RAY *r, const PROX_REAL *lo,
                                     const PROX_REAL *hi, size_t stride,
                                     PROX_REAL *tnear) {
  PROX_REAL t0[3], t1[3], en, ex, a, b;
  int i;
  for (i = 0; i < 3; ++i) {
    PROX_REAL L = lo[(size_t)i * stride], H = hi[(size_t)i * stride];
    PROX_REAL o = r->org[i], x, y;
    if (r->mode[i] == 1) {
      int in = L <= o && o <= H;
      t0[i] = in ? -PROX_INF : PROX_INF;
      t1[i] = in ? PROX_INF : -PROX_INF;
      continue;
    }
    if (r->mode[i] == 0) {
      x = (L - o) * r->inv[i];
      y = (H - o) * r->inv[i];
    } else {
      x = (L - o) / r->dir[i];
      y = (H - o) / r->dir[i];
    }
    t0[i] = r->inv[i] < 0 ? y : x;
    t1[i] = r->inv[i] < 0 ? x : y;
  }
  en = t0[0];
  if (t0[1] > en) en = t0[1];
  if (t0[2] > en) en = t0[2];
  ex = t1[0] < t1[1] ? t1[0] : t1[1];
  ex = t1[2] < ex ? t1[2] : ex;
  a = en > r->tmin ? en : r->tmin;
  b = ex < r->tmax ? ex : r->tmax;
  *tnear = a < r->tmax ? a : r->tmax;
  return a <= b + PROX_R(4.0) * PROX_EPS * PROX_FABS(b) && a < PROX_INF;
}

/* One lane of the triangle test: the scalar kernel itself. */
static int PROX_FN(prox_pk_tri_lane)(const PK_RAY *r, const PROX_REAL *v,
                                     size_t stride, PK_HIT *hit, int lane) {
  PROX_FN(prox_triangle) t;
  PROX_FN(prox_rayhit) h;
  int k;
  for (k = 0; k < 3; ++k)
    t.v[k] = PROX_FN(prox_v3)(v[(size_t)(3 * k) * stride],
                              v[(size_t)(3 * k + 1) * stride],
                              v[(size_t)(3 * k + 2) * stride]);
  if (!PROX_FN(prox_raycast_triangle)(&r->ray, &t, &h)) return 0;
  if (hit) {
    hit->t[lane] = h.t;
    hit->u[lane] = h.bary[1];
    hit->v[lane] = h.bary[2];
  }
  return 1;
}

static PK_PORTABLE int PROX_FN(prox_pk_boxes)(const PK_RAY *r,
                                              const PROX_REAL *lo,
                                              const PROX_REAL *hi, int n,
                                              PROX_REAL *tnear) {
  int i, mask = 0;
  if (!r->valid) return 0;
  for (i = 0; i < n; ++i)
    mask |= PROX_FN(prox_pk_box_lane)(r, lo + i, hi + i, (size_t)n, &tnear[i])
            << i;
  return mask;
}

static PK_PORTABLE int
PROX_FN(prox_pk_tris)(const PK_RAY *r, const PROX_REAL *v, int n, PK_HIT *hit) {
  int i, mask = 0;
  if (!r->tri_valid) return 0;
  for (i = 0; i < n; ++i)
    mask |= PROX_FN(prox_pk_tri_lane)(r, v + i, (size_t)n, hit, i) << i;
  return mask;
}

#if PROX_IS_DOUBLE
#define PK_CALL(fn, isa) prox_detail_pk_##fn##_##isa
#else
#define PK_CALL(fn, isa) prox_detail_pk_##fn##f_##isa
#endif

int PROX_FN(prox_packet_aabb4)(const PK_RAY *r, const PK_BOX4 *b,
                               PROX_REAL tnear[4]) {
  switch (prox_packet_path()) {
  case 2:
    return PK_CALL(aabb4, avx512)(r, b, tnear);
  case 1:
    return PK_CALL(aabb4, avx2)(r, b, tnear);
  default:
    return PROX_FN(prox_pk_boxes)(r, &b->lo[0][0], &b->hi[0][0], 4, tnear);
  }
}

int PROX_FN(prox_packet_aabb8)(const PK_RAY *r, const PK_BOX8 *b,
                               PROX_REAL tnear[8]) {
  switch (prox_packet_path()) {
  case 2:
    return PK_CALL(aabb8, avx512)(r, b, tnear);
  case 1:
    return PK_CALL(aabb8, avx2)(r, b, tnear);
  default:
    return PROX_FN(prox_pk_boxes)(r, &b->lo[0][0], &b->hi[0][0], 8, tnear);
  }
}

int PROX_FN(prox_packet_triangle4)(const PK_RAY *r, const PK_TRI4 *t,
                                   PK_HIT *hit) {
  switch (prox_packet_path()) {
  case 2:
    return PK_CALL(tri4, avx512)(r, t, hit);
  case 1:
    return PK_CALL(tri4, avx2)(r, t, hit);
  default:
    return PROX_FN(prox_pk_tris)(r, &t->v[0][0][0], 4, hit);
  }
}

int PROX_FN(prox_packet_triangle8)(const PK_RAY *r, const PK_TRI8 *t,
                                   PK_HIT *hit) {
  switch (prox_packet_path()) {
  case 2:
    return PK_CALL(tri8, avx512)(r, t, hit);
  case 1:
    return PK_CALL(tri8, avx2)(r, t, hit);
  default:
    return PROX_FN(prox_pk_tris)(r, &t->v[0][0][0], 8, hit);
  }
}

#undef PK_CALL

#endif /* PROX_PACKET_TEMPLATE */
