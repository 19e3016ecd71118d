/* SPDX-License-Identifier: MIT */
/* Vector code of the packet ray casts (prox/packet.h) for AVX2 + FMA.
 *
 * The same file is compiled a second time by src/packet_avx512.c with
 * PROX_PK_AVX512 defined: it then gives the AVX-512 path (8 doubles per
 * 512-bit register, mask registers for every comparison). Without the
 * instruction set (another architecture, or a build without -mavx2) the
 * entry points exist but report themselves unavailable.
 *
 * Each lane evaluates the operations of the scalar kernels in their order
 * (see src/packet.c), so the answers are the scalar kernels' answers; a
 * triangle lane whose edge signs the fast path cannot certify is handed to
 * prox_raycast_triangle() itself. The template at the bottom of this file
 * is included once per vector type (PROX_PK_TEMPLATE). */
#ifndef PROX_PK_TEMPLATE

#include <prox/packet.h>

#if defined(PROX_PK_AVX512)
#define PROX_PK_ISA avx512
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__) &&  \
    defined(__AVX2__) && defined(__FMA__)
#define PROX_PK_HAVE 1
#endif
#else
#define PROX_PK_ISA avx2
#if defined(__AVX2__) && defined(__FMA__)
#define PROX_PK_HAVE 1
#endif
#endif

#define PROX_PK_CAT2(a, b) a##_##b
#define PROX_PK_CAT(a, b) PROX_PK_CAT2(a, b)
/* The entry point prox_detail_pk_<name>_<isa>. */
#define PROX_PK_ENTRY(name) PROX_PK_CAT(prox_detail_pk_##name, PROX_PK_ISA)

/* Declarations (definitions below), as src/packet.c makes them. ok: 1 when
 * this file has its instruction set. */
extern const int PROX_PK_ENTRY(ok);
int PROX_PK_ENTRY(aabb4)(const prox_packet_ray *r, const prox_box4 *b,
                         double *tn);
int PROX_PK_ENTRY(aabb8)(const prox_packet_ray *r, const prox_box8 *b,
                         double *tn);
int PROX_PK_ENTRY(aabb4f)(const prox_packet_rayf *r, const prox_box4f *b,
                          float *tn);
int PROX_PK_ENTRY(aabb8f)(const prox_packet_rayf *r, const prox_box8f *b,
                          float *tn);
int PROX_PK_ENTRY(tri4)(const prox_packet_ray *r, const prox_tri4 *t,
                        prox_packet_hit8 *hit);
int PROX_PK_ENTRY(tri8)(const prox_packet_ray *r, const prox_tri8 *t,
                        prox_packet_hit8 *hit);
int PROX_PK_ENTRY(tri4f)(const prox_packet_rayf *r, const prox_tri4f *t,
                         prox_packet_hit8f *hit);
int PROX_PK_ENTRY(tri8f)(const prox_packet_rayf *r, const prox_tri8f *t,
                         prox_packet_hit8f *hit);

#if defined(PROX_PK_HAVE)
#include <immintrin.h>

/* Helpers inlined into each entry point (their int arguments are then
 * constants). */
#define PK_INLINE static inline __attribute__((always_inline))

/* The scalar kernel on lane i of a triangle packet (the fallback). */
static int prox_pk_scalar_tri(const prox_packet_ray *r, const double *v,
                              size_t stride, prox_packet_hit8 *hit, int lane) {
  prox_triangle t;
  prox_rayhit h;
  int k;
  for (k = 0; k < 3; ++k)
    t.v[k] =
        prox_v3(v[(size_t)(3 * k) * stride], v[(size_t)(3 * k + 1) * stride],
                v[(size_t)(3 * k + 2) * stride]);
  if (!prox_raycast_triangle(&r->ray, &t, &h)) return 0;
  if (hit) {
    hit->t[lane] = h.t;
    hit->u[lane] = h.bary[1];
    hit->v[lane] = h.bary[2];
  }
  return 1;
}

static int prox_pk_scalar_trif(const prox_packet_rayf *r, const float *v,
                               size_t stride, prox_packet_hit8f *hit,
                               int lane) {
  prox_trianglef t;
  prox_rayhitf h;
  int k;
  for (k = 0; k < 3; ++k)
    t.v[k] =
        prox_v3f(v[(size_t)(3 * k) * stride], v[(size_t)(3 * k + 1) * stride],
                 v[(size_t)(3 * k + 2) * stride]);
  if (!prox_raycast_trianglef(&r->ray, &t, &h)) return 0;
  if (hit) {
    hit->t[lane] = h.t;
    hit->u[lane] = h.bary[1];
    hit->v[lane] = h.bary[2];
  }
  return 1;
}

/* ---- vector types: 8 floats (256 bits) ---- */
#define PK_NAME(n) n##_f8
#define PK_S float
#define PK_W 8
#define PK_RAYT prox_packet_rayf
#define PK_HITT prox_packet_hit8f
#define PK_SCALAR_TRI prox_pk_scalar_trif
#define PK_EPS FLT_EPSILON
#define PK_MAXR FLT_MAX
#define PK_V __m256
#define PL(p) _mm256_loadu_ps(p)
#define PS1(x) _mm256_set1_ps(x)
#define PADD _mm256_add_ps
#define PSUB _mm256_sub_ps
#define PMUL _mm256_mul_ps
#define PDIV _mm256_div_ps
#define PMIN _mm256_min_ps
#define PMAX _mm256_max_ps
#define PABS(a) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), (a))
#define PSTOREU(p, v) _mm256_storeu_ps((p), (v))
#if defined(PROX_PK_AVX512)
#define PK_M __mmask8
#define PCMP(a, b, c) _mm256_cmp_ps_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm256_mask_blend_ps((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PK_M __m256
#define PCMP(a, b, c) _mm256_cmp_ps((a), (b), (c))
#define PBLEND(a, b, m) _mm256_blendv_ps((a), (b), (m))
#define MAND _mm256_and_ps
#define MOR _mm256_or_ps
#define MINT(m) _mm256_movemask_ps(m)
#endif
#define PROX_PK_TEMPLATE
#include "packet_avx2.c"
#undef PROX_PK_TEMPLATE

/* ---- 4 floats (128 bits) ---- */
#define PK_NAME(n) n##_f4
#define PK_S float
#define PK_W 4
#define PK_RAYT prox_packet_rayf
#define PK_HITT prox_packet_hit8f
#define PK_SCALAR_TRI prox_pk_scalar_trif
#define PK_EPS FLT_EPSILON
#define PK_MAXR FLT_MAX
#define PK_V __m128
#define PL(p) _mm_loadu_ps(p)
#define PS1(x) _mm_set1_ps(x)
#define PADD _mm_add_ps
#define PSUB _mm_sub_ps
#define PMUL _mm_mul_ps
#define PDIV _mm_div_ps
#define PMIN _mm_min_ps
#define PMAX _mm_max_ps
#define PABS(a) _mm_andnot_ps(_mm_set1_ps(-0.0f), (a))
#define PSTOREU(p, v) _mm_storeu_ps((p), (v))
#if defined(PROX_PK_AVX512)
#define PK_M __mmask8
#define PCMP(a, b, c) _mm_cmp_ps_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm_mask_blend_ps((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PK_M __m128
#define PCMP(a, b, c) _mm_cmp_ps((a), (b), (c))
#define PBLEND(a, b, m) _mm_blendv_ps((a), (b), (m))
#define MAND _mm_and_ps
#define MOR _mm_or_ps
#define MINT(m) _mm_movemask_ps(m)
#endif
#define PROX_PK_TEMPLATE
#include "packet_avx2.c"
#undef PROX_PK_TEMPLATE

/* ---- 4 doubles (256 bits) ---- */
#define PK_NAME(n) n##_d4
#define PK_S double
#define PK_W 4
#define PK_RAYT prox_packet_ray
#define PK_HITT prox_packet_hit8
#define PK_SCALAR_TRI prox_pk_scalar_tri
#define PK_EPS DBL_EPSILON
#define PK_MAXR DBL_MAX
#define PK_V __m256d
#define PL(p) _mm256_loadu_pd(p)
#define PS1(x) _mm256_set1_pd(x)
#define PADD _mm256_add_pd
#define PSUB _mm256_sub_pd
#define PMUL _mm256_mul_pd
#define PDIV _mm256_div_pd
#define PMIN _mm256_min_pd
#define PMAX _mm256_max_pd
#define PABS(a) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (a))
#define PSTOREU(p, v) _mm256_storeu_pd((p), (v))
#if defined(PROX_PK_AVX512)
#define PK_M __mmask8
#define PCMP(a, b, c) _mm256_cmp_pd_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm256_mask_blend_pd((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#else
#define PK_M __m256d
#define PCMP(a, b, c) _mm256_cmp_pd((a), (b), (c))
#define PBLEND(a, b, m) _mm256_blendv_pd((a), (b), (m))
#define MAND _mm256_and_pd
#define MOR _mm256_or_pd
#define MINT(m) _mm256_movemask_pd(m)
#endif
#define PROX_PK_TEMPLATE
#include "packet_avx2.c"
#undef PROX_PK_TEMPLATE

#if defined(PROX_PK_AVX512)
/* ---- 8 doubles (512 bits) ---- */
#define PK_NAME(n) n##_d8
#define PK_S double
#define PK_W 8
#define PK_RAYT prox_packet_ray
#define PK_HITT prox_packet_hit8
#define PK_SCALAR_TRI prox_pk_scalar_tri
#define PK_EPS DBL_EPSILON
#define PK_MAXR DBL_MAX
#define PK_V __m512d
#define PL(p) _mm512_loadu_pd(p)
#define PS1(x) _mm512_set1_pd(x)
#define PADD _mm512_add_pd
#define PSUB _mm512_sub_pd
#define PMUL _mm512_mul_pd
#define PDIV _mm512_div_pd
#define PMIN _mm512_min_pd
#define PMAX _mm512_max_pd
#define PABS(a) _mm512_abs_pd(a)
#define PSTOREU(p, v) _mm512_storeu_pd((p), (v))
#define PK_M __mmask8
#define PCMP(a, b, c) _mm512_cmp_pd_mask((a), (b), (c))
#define PBLEND(a, b, m) _mm512_mask_blend_pd((m), (a), (b))
#define MAND(a, b) ((__mmask8)((a) & (b)))
#define MOR(a, b) ((__mmask8)((a) | (b)))
#define MINT(m) ((int)(m))
#define PROX_PK_TEMPLATE
#include "packet_avx2.c"
#undef PROX_PK_TEMPLATE
#endif

const int PROX_PK_ENTRY(ok) = 1;

int PROX_PK_ENTRY(aabb4)(const prox_packet_ray *r, const prox_box4 *b,
                         double *tn) {
  if (!r->valid) return 0;
  return prox_pk_box_d4(r, &b->lo[0][0], &b->hi[0][0], 4, tn, 1);
}

int PROX_PK_ENTRY(aabb8)(const prox_packet_ray *r, const prox_box8 *b,
                         double *tn) {
  if (!r->valid) return 0;
#if defined(PROX_PK_AVX512)
  return prox_pk_box_d8(r, &b->lo[0][0], &b->hi[0][0], 8, tn, 1);
#else
  /* Two vectors of 4 doubles, the ray's values loaded once. */
  return prox_pk_box_d4(r, &b->lo[0][0], &b->hi[0][0], 8, tn, 2);
#endif
}

int PROX_PK_ENTRY(aabb4f)(const prox_packet_rayf *r, const prox_box4f *b,
                          float *tn) {
  if (!r->valid) return 0;
  return prox_pk_box_f4(r, &b->lo[0][0], &b->hi[0][0], 4, tn, 1);
}

int PROX_PK_ENTRY(aabb8f)(const prox_packet_rayf *r, const prox_box8f *b,
                          float *tn) {
  if (!r->valid) return 0;
  return prox_pk_box_f8(r, &b->lo[0][0], &b->hi[0][0], 8, tn, 1);
}

int PROX_PK_ENTRY(tri4)(const prox_packet_ray *r, const prox_tri4 *t,
                        prox_packet_hit8 *hit) {
  if (!r->tri_valid) return 0;
  return prox_pk_tri_d4(r, &t->v[0][0][0], 4, hit, 0);
}

int PROX_PK_ENTRY(tri8)(const prox_packet_ray *r, const prox_tri8 *t,
                        prox_packet_hit8 *hit) {
  if (!r->tri_valid) return 0;
#if defined(PROX_PK_AVX512)
  return prox_pk_tri_d8(r, &t->v[0][0][0], 8, hit, 0);
#else
  return prox_pk_tri_d4(r, &t->v[0][0][0], 8, hit, 0) |
         prox_pk_tri_d4(r, &t->v[0][0][4], 8, hit, 4);
#endif
}

int PROX_PK_ENTRY(tri4f)(const prox_packet_rayf *r, const prox_tri4f *t,
                         prox_packet_hit8f *hit) {
  if (!r->tri_valid) return 0;
  return prox_pk_tri_f4(r, &t->v[0][0][0], 4, hit, 0);
}

int PROX_PK_ENTRY(tri8f)(const prox_packet_rayf *r, const prox_tri8f *t,
                         prox_packet_hit8f *hit) {
  if (!r->tri_valid) return 0;
  return prox_pk_tri_f8(r, &t->v[0][0][0], 8, hit, 0);
}

#else /* !PROX_PK_HAVE: this path is not available in this build */

const int PROX_PK_ENTRY(ok) = 0;
int PROX_PK_ENTRY(aabb4)(const prox_packet_ray *r, const prox_box4 *b,
                         double *tn) {
  (void)r, (void)b, (void)tn;
  return 0;
}
int PROX_PK_ENTRY(aabb8)(const prox_packet_ray *r, const prox_box8 *b,
                         double *tn) {
  (void)r, (void)b, (void)tn;
  return 0;
}
int PROX_PK_ENTRY(aabb4f)(const prox_packet_rayf *r, const prox_box4f *b,
                          float *tn) {
  (void)r, (void)b, (void)tn;
  return 0;
}
int PROX_PK_ENTRY(aabb8f)(const prox_packet_rayf *r, const prox_box8f *b,
                          float *tn) {
  (void)r, (void)b, (void)tn;
  return 0;
}
int PROX_PK_ENTRY(tri4)(const prox_packet_ray *r, const prox_tri4 *t,
                        prox_packet_hit8 *hit) {
  (void)r, (void)t, (void)hit;
  return 0;
}
int PROX_PK_ENTRY(tri8)(const prox_packet_ray *r, const prox_tri8 *t,
                        prox_packet_hit8 *hit) {
  (void)r, (void)t, (void)hit;
  return 0;
}
int PROX_PK_ENTRY(tri4f)(const prox_packet_rayf *r, const prox_tri4f *t,
                         prox_packet_hit8f *hit) {
  (void)r, (void)t, (void)hit;
  return 0;
}
int PROX_PK_ENTRY(tri8f)(const prox_packet_rayf *r, const prox_tri8f *t,
                         prox_packet_hit8f *hit) {
  (void)r, (void)t, (void)hit;
  return 0;
}

#endif /* PROX_PK_HAVE */

#else /* PROX_PK_TEMPLATE: one vector type */

#define PLT(a, b) PCMP((a), (b), _CMP_LT_OQ)
#define PLE(a, b) PCMP((a), (b), _CMP_LE_OQ)
#define PGT(a, b) PCMP((a), (b), _CMP_GT_OQ)
#define PGE(a, b) PCMP((a), (b), _CMP_GE_OQ)
#define PEQ(a, b) PCMP((a), (b), _CMP_EQ_OQ)

/* The end of the box test from the entry and exit parameters en, ex of
 * PK_W lanes (the end of prox_detail_rc_slab3): stores the entry parameters
 * in tn and returns the hit mask. a <= b + 4 eps |b| && a < inf is
 * evaluated as a <= min(max, b + 4 eps |b|) (max the largest finite real),
 * which has the same truth in every case: min returns its second operand
 * when one is NaN, and a <= max is a < inf for a not NaN. */
PK_INLINE int PK_NAME(prox_pk_box_end)(const PK_RAYT *r, PK_V en, PK_V ex,
                                       PK_S *tn) {
  PK_V tmax = PS1(r->tmax);
  PK_V a = PMAX(en, PS1(r->tmin)), b = PMIN(ex, tmax);
  PSTOREU(tn, PMIN(a, tmax));
  return MINT(PLE(a, PMIN(PS1((PK_S)PK_MAXR),
                          PADD(b, PMUL(PS1((PK_S)4.0 * PK_EPS), PABS(b))))));
}

/* The boxes lo/hi (axis a at offset a * stride) of PK_W lanes, any slab
 * modes: the operations of prox_detail_rc_slab3 lane by lane. Returns the
 * hit mask and stores the entry parameters in tn. */
PK_INLINE int PK_NAME(prox_pk_box_gen1)(const PK_RAYT *r, const PK_S *lo,
                                        const PK_S *hi, size_t stride,
                                        PK_S *tn) {
  PK_V t0[3], t1[3];
  PK_V inf = PS1((PK_S)INFINITY), ninf = PS1((PK_S)-INFINITY);
  int i;
  for (i = 0; i < 3; ++i) {
    PK_V L = PL(lo + (size_t)i * stride), H = PL(hi + (size_t)i * stride);
    PK_V o = PS1(r->org[i]), x, y;
    if (r->mode[i] == 1) {
      /* Zero direction: the whole line or nothing (no 0 * inf). */
      PK_M in = MAND(PLE(L, o), PLE(o, H));
      t0[i] = PBLEND(inf, ninf, in);
      t1[i] = PBLEND(ninf, inf, in);
      continue;
    }
    if (r->mode[i] == 0) {
      PK_V iv = PS1(r->inv[i]);
      x = PMUL(PSUB(L, o), iv);
      y = PMUL(PSUB(H, o), iv);
    } else {
      PK_V dv = PS1(r->dir[i]);
      x = PDIV(PSUB(L, o), dv);
      y = PDIV(PSUB(H, o), dv);
    }
    if (r->inv[i] < 0) {
      t0[i] = y;
      t1[i] = x;
    } else {
      t0[i] = x;
      t1[i] = y;
    }
  }
  return PK_NAME(prox_pk_box_end)(r, PMAX(PMAX(t0[0], t0[1]), t0[2]),
                                  PMIN(PMIN(t1[0], t1[1]), t1[2]), tn);
}

/* prox_pk_box_gen1 on nv vectors (lanes h PK_W.. for h < nv), out of line:
 * the caller's common case then needs no stack frame. */
static __attribute__((noinline)) int
PK_NAME(prox_pk_box_gen)(const PK_RAYT *r, const PK_S *lo, const PK_S *hi,
                         size_t stride, PK_S *tn, int nv) {
  int h, mask = 0;
  for (h = 0; h < nv; ++h)
    mask |= PK_NAME(prox_pk_box_gen1)(r, lo + h * PK_W, hi + h * PK_W, stride,
                                      tn + h * PK_W)
            << (h * PK_W);
  return mask;
}

/* The boxes lo/hi of nv * PK_W lanes (nv 1 or 2; vector h holds lanes
 * h PK_W..): the values of prox_pk_box_gen. The common case, every axis
 * multiplied by its reciprocal, is done here with the ray's values
 * broadcast once for all vectors; the near and far planes are chosen by
 * the sign of 1 / d as pointers, without a branch (the sign changes from
 * ray to ray); and L - o is evaluated as (-o) + L, the same value in every
 * case (IEEE subtraction is the addition of the negation, and addition
 * commutes), so that the box's load can be an operand of the addition
 * (gcc folds it; clang turns the sum back into L - o). */
PK_INLINE int PK_NAME(prox_pk_box)(const PK_RAYT *r, const PK_S *lo,
                                   const PK_S *hi, size_t stride, PK_S *tn,
                                   int nv) {
  PK_V en[2], ex[2];
  int i, h, mask = 0;
  if (r->mode[0] | r->mode[1] | r->mode[2])
    return PK_NAME(prox_pk_box_gen)(r, lo, hi, stride, tn, nv);
  for (i = 0; i < 3; ++i) {
    /* lo and hi swapped when 1 / d < 0, by a mask (compilers branch on a
     * conditional choice of pointers). */
    uintptr_t swap = ((uintptr_t)lo ^ (uintptr_t)hi) &
                     ((uintptr_t)0 - (uintptr_t)(r->inv[i] < 0));
    const PK_S *np = (const PK_S *)((uintptr_t)lo ^ swap) + (size_t)i * stride;
    const PK_S *fp = (const PK_S *)((uintptr_t)hi ^ swap) + (size_t)i * stride;
    PK_V no = PS1(-r->org[i]), iv = PS1(r->inv[i]);
    for (h = 0; h < nv; ++h) {
      /* en = max(max(n0, n1), n2), ex = min(min(f0, f1), f2). */
      PK_V n = PMUL(PADD(no, PL(np + h * PK_W)), iv);
      PK_V f = PMUL(PADD(no, PL(fp + h * PK_W)), iv);
      en[h] = i ? PMAX(en[h], n) : n;
      ex[h] = i ? PMIN(ex[h], f) : f;
    }
  }
  for (h = 0; h < nv; ++h)
    mask |= PK_NAME(prox_pk_box_end)(r, en[h], ex[h], tn + h * PK_W)
            << (h * PK_W);
  return mask;
}

/* The triangles at v (vertex k, axis a of lane i at v[(3 k + a) stride +
 * i]) of PK_W lanes, lanes lane0.. of hit: the fast path of
 * prox_raycast_triangle (ray space, edge functions with their error bound);
 * lanes it cannot certify go to the scalar kernel. Returns the hit mask,
 * shifted to lane0. */
static int PK_NAME(prox_pk_tri)(const PK_RAYT *r, const PK_S *v, size_t stride,
                                PK_HITT *hit, int lane0) {
  PK_V X[3], Y[3], Z[3], M[3], w[3], B[3], zero = PS1((PK_S)0), det, t;
  PK_V sx = PS1(r->sx), sy = PS1(r->sy), sz = PS1(r->sz);
  PK_V ox = PS1(r->org[r->kx]), oy = PS1(r->org[r->ky]),
       oz = PS1(r->org[r->kz]);
  PK_M pos[3], neg[3];
  int k, certain, hitc, dz, inr, mask, unc, i, mixed;
  for (k = 0; k < 3; ++k) {
    const PK_S *base = v + (size_t)(3 * k) * stride;
    PK_V px = PSUB(PL(base + (size_t)r->kx * stride), ox);
    PK_V py = PSUB(PL(base + (size_t)r->ky * stride), oy);
    PK_V pz = PSUB(PL(base + (size_t)r->kz * stride), oz);
    M[k] = PMAX(PMAX(PABS(px), PABS(py)), PABS(pz));
    X[k] = PSUB(px, PMUL(sx, pz));
    Y[k] = PSUB(py, PMUL(sy, pz));
    Z[k] = PMUL(sz, pz);
  }
  for (k = 0; k < 3; ++k) {
    /* w[k]: the edge opposite vertex k, from P = V[k+1] to Q = V[k+2]. */
    int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
    PK_V e = PSUB(PMUL(X[p], Y[q]), PMUL(Y[p], X[q]));
    PK_V bd = PMUL(PS1((PK_S)48.0 * PK_EPS), PMUL(M[p], M[q]));
    pos[k] = PGT(e, bd);
    neg[k] = PLT(e, PSUB(zero, bd));
    w[k] = e;
    B[k] = bd;
  }
  certain = MINT(MOR(pos[0], neg[0])) & MINT(MOR(pos[1], neg[1])) &
            MINT(MOR(pos[2], neg[2]));
  hitc = MINT(MAND(MAND(pos[0], pos[1]), pos[2])) |
         MINT(MAND(MAND(neg[0], neg[1]), neg[2]));
  det = PADD(PADD(w[0], w[1]), w[2]);
  t = PDIV(PADD(PADD(PMUL(w[0], Z[0]), PMUL(w[1], Z[1])), PMUL(w[2], Z[2])),
           det);
  dz = MINT(PEQ(det, zero));
  inr = MINT(MAND(MAND(PGE(t, PS1(r->tmin)), PLE(t, PS1(r->tmax))),
                  PLT(PABS(t), PS1((PK_S)INFINITY))));
  unc = (~certain | (hitc & dz)) & ((1 << PK_W) - 1);
  /* Hits with vertices on both sides of the origin along the ray (not all
   * three z > 0, nor all < 0), whose t may have the wrong sign
   * (prox_detail_rc_t_near0, in its order of operations), go to the
   * scalar kernel, which decides the sign exactly. */
  mixed =
      ~(MINT(MAND(MAND(PGT(Z[0], zero), PGT(Z[1], zero)), PGT(Z[2], zero))) |
        MINT(MAND(MAND(PLT(Z[0], zero), PLT(Z[1], zero)), PLT(Z[2], zero))));
  if (hitc & ~dz & certain & mixed) {
    PK_V e4 = PS1((PK_S)4.0 * PK_EPS), e = zero;
    for (k = 0; k < 3; ++k)
      e = PADD(e, PMUL(PADD(B[k], PMUL(e4, PABS(w[k]))), PABS(Z[k])));
    unc |= hitc & ~dz & certain & mixed &
           MINT(PLE(PABS(PMUL(t, det)), PMUL(PS1((PK_S)2.0), e)));
  }
  mask = hitc & inr & ~dz & certain & ~unc;
  if (hit) {
    PSTOREU(hit->t + lane0, t);
    PSTOREU(hit->u + lane0, PDIV(w[1], det));
    PSTOREU(hit->v + lane0, PDIV(w[2], det));
  }
  for (i = 0; unc; ++i, unc >>= 1)
    if (unc & 1) mask |= PK_SCALAR_TRI(r, v + i, stride, hit, lane0 + i) << i;
  return mask << lane0;
}

#undef PLT
#undef PLE
#undef PGT
#undef PGE
#undef PEQ
#undef PK_NAME
#undef PK_S
#undef PK_W
#undef PK_RAYT
#undef PK_HITT
#undef PK_SCALAR_TRI
#undef PK_EPS
#undef PK_MAXR
#undef PK_V
#undef PK_M
#undef PL
#undef PS1
#undef PADD
#undef PSUB
#undef PMUL
#undef PDIV
#undef PMIN
#undef PMAX
#undef PABS
#undef PSTOREU
#undef PCMP
#undef PBLEND
#undef MAND
#undef MOR
#undef MINT

#endif /* PROX_PK_TEMPLATE */
