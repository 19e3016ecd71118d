/* SPDX-License-Identifier: MIT */
/* Template: the compiled ray queries of prox/bvh_ray.h for one precision
 * (src/mesh/bvh_ray.c): the portable traversal, the choice of the vector
 * one, the queries and the batches. */

/* The portable traversal (the header's leaf and node tests). */
#define PROX_BVHR_CUSTOM 1
#define PROX_BVHR_NAME(name) PROX_FN(pbr_##name)
#define PROX_BVHR_QUAL static
#define PROX_BVHR_LEAF(v, pr, first, n, ts, bs)                                                    \
  PROX_FN(prox_bvh_detail_ray_leaf)(v, pr, first, n, ts, bs)
#define PROX_BVHR_CTX(pr, ctx) const PROX_FN(prox_bvh_rayprep) *ctx = (pr)
#define PROX_BVHR_NODE(ctx, nd, tcur, tn) PROX_FN(prox_bvh_detail_ray_node)(ctx, nd, tcur, tn)
#if defined(__GNUC__)
#define PROX_BVHR_WALKQUAL static inline __attribute__((always_inline))
#else
#define PROX_BVHR_WALKQUAL static inline
#endif
#include <prox/detail/bvh_ray.inl>
#undef PROX_BVHR_CUSTOM

typedef size_t (*PROX_FN(pbr_trav_fn))(const PROX_FN(prox_bvh_view) *,
                                       const PROX_FN(prox_bvh_rayprep) *, int, uint32_t *,
                                       PROX_REAL *, long *, PROX_FN(prox_mesh_hit) *, size_t);

#if PROX_IS_DOUBLE
#define PBR_TRAV(isa) prox_detail_bvhr_trav_##isa
#else
#define PBR_TRAV(isa) prox_detail_bvhr_travf_##isa
#endif

/* The traversal of the current instruction set (prox_simd_level()). */
static PROX_FN(pbr_trav_fn) PROX_FN(pbr_trav)(void) {
  int level = prox_simd_table_get()->level; /* src/simd/dispatch.h */
  if (level >= PROX_SIMD_AVX512 && prox_detail_bvhr_ok_avx512) return PBR_TRAV(avx512);
  if (level >= PROX_SIMD_AVX2 && prox_detail_bvhr_ok_avx2) return PBR_TRAV(avx2);
  return PROX_FN(pbr_prox_bvh_detail_ray_trav);
}

/* The traversal for a prepared ray: the vector ones take the common rays;
 * a direction with a zero or subnormal component (a slab test by
 * comparison or division, prox_bvh_detail_ray_node()) takes the portable
 * one, with the same answers. */
#define PBR_PICK(trav, pr)                                                                         \
  (((pr).mode[0] | (pr).mode[1] | (pr).mode[2]) ? PROX_FN(pbr_prox_bvh_detail_ray_trav) : (trav))

static int PROX_FN(pbr_raycast)(PROX_FN(pbr_trav_fn) trav, const PROX_FN(prox_bvh_view) * v,
                                const PROX_FN(prox_ray) * ray, PROX_FN(prox_mesh_hit) * out) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  PROX_REAL b[4] = {0, 0, 0, 0};
  if (pr.ok) PBR_PICK(trav, pr)(v, &pr, PROX_BVHR_FIRST, pos, b, NULL, NULL, 0);
  return PROX_FN(prox_bvh_detail_ray_fill_first)(v, &pr, pos, b[0], b + 1, out);
}

static int PROX_FN(pbr_occluded)(PROX_FN(pbr_trav_fn) trav, const PROX_FN(prox_bvh_view) * v,
                                 const PROX_FN(prox_ray) * ray) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  if (!pr.ok) return 0;
  return (int)PBR_PICK(trav, pr)(v, &pr, PROX_BVHR_ANY, pos, NULL, NULL, NULL, 0);
}

static size_t PROX_FN(pbr_count)(PROX_FN(pbr_trav_fn) trav, const PROX_FN(prox_bvh_view) * v,
                                 const PROX_FN(prox_ray) * ray, long *winding) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  if (winding) *winding = 0;
  if (!pr.ok) return 0;
  return PBR_PICK(trav, pr)(v, &pr, PROX_BVHR_COUNT, pos, NULL, winding, NULL, 0);
}

int PROX_FN(prox_bvh_raycast)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * ray,
                              PROX_FN(prox_mesh_hit) * out) {
  return PROX_FN(pbr_raycast)(PROX_FN(pbr_trav)(), &bvh->view, ray, out);
}

int PROX_FN(prox_bvh_occluded)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * ray) {
  return PROX_FN(pbr_occluded)(PROX_FN(pbr_trav)(), &bvh->view, ray);
}

size_t PROX_FN(prox_bvh_ray_count)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * ray,
                                   long *winding) {
  return PROX_FN(pbr_count)(PROX_FN(pbr_trav)(), &bvh->view, ray, winding);
}

size_t PROX_FN(prox_bvh_ray_all)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * ray,
                                 PROX_FN(prox_mesh_hit) * hits, size_t capacity) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(&bvh->view, ray, &pr);
  if (!pr.ok) return 0;
  if (!hits) capacity = 0;
  return PBR_PICK(PROX_FN(pbr_trav)(), pr)(&bvh->view, &pr, PROX_BVHR_ALL, pos, NULL, NULL, hits,
                                           capacity);
}

void PROX_FN(prox_bvh_raycast_range)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * rays,
                                     PROX_FN(prox_mesh_hit) * out, size_t begin, size_t end) {
  PROX_FN(pbr_trav_fn) trav = PROX_FN(pbr_trav)();
  size_t i;
  for (i = begin; i < end; ++i)
    PROX_FN(pbr_raycast)(trav, &bvh->view, rays + i, out + i);
}

void PROX_FN(prox_bvh_occluded_range)(const PROX_FN(prox_bvh) * bvh, const PROX_FN(prox_ray) * rays,
                                      uint8_t *hit, size_t begin, size_t end) {
  PROX_FN(pbr_trav_fn) trav = PROX_FN(pbr_trav)();
  size_t i;
  for (i = begin; i < end; ++i)
    hit[i] = (uint8_t)PROX_FN(pbr_occluded)(trav, &bvh->view, rays + i);
}

void PROX_FN(prox_bvh_ray_count_range)(const PROX_FN(prox_bvh) * bvh,
                                       const PROX_FN(prox_ray) * rays, size_t *count, long *winding,
                                       size_t begin, size_t end) {
  PROX_FN(pbr_trav_fn) trav = PROX_FN(pbr_trav)();
  size_t i;
  for (i = begin; i < end; ++i)
    count[i] = PROX_FN(pbr_count)(trav, &bvh->view, rays + i, winding ? winding + i : NULL);
}

/* A batch: which query and its arrays. */
typedef struct PROX_FN(pbr_batch) {
  int kind; /* 0 first hit, 1 occluded, 2 count */
  const PROX_FN(prox_bvh) * bvh;
  const PROX_FN(prox_ray) * rays;
  size_t n;
  PROX_FN(prox_mesh_hit) * out;
  uint8_t *hit;
  size_t *count;
  long *winding;
} PROX_FN(pbr_batch);

/* Chunks of this many rays are handed out to the workers in turn. */
#ifndef PBR_CHUNK
#define PBR_CHUNK 256
#endif

/* Chunk c of the batch (rays c PBR_CHUNK onwards). */
static void PROX_FN(pbr_chunk)(void *arg, size_t c) {
  PROX_FN(pbr_batch) *b = (PROX_FN(pbr_batch) *)arg;
  size_t i0 = c * PBR_CHUNK, i1 = b->n - i0 < PBR_CHUNK ? b->n : i0 + PBR_CHUNK;
  if (b->kind == 0)
    PROX_FN(prox_bvh_raycast_range)(b->bvh, b->rays, b->out, i0, i1);
  else if (b->kind == 1)
    PROX_FN(prox_bvh_occluded_range)(b->bvh, b->rays, b->hit, i0, i1);
  else
    PROX_FN(prox_bvh_ray_count_range)(b->bvh, b->rays, b->count, b->winding, i0, i1);
}

/* Runs the batch b (its kind and arrays set) in `threads` threads (0:
 * all cores). */
static void PROX_FN(pbr_run)(PROX_FN(pbr_batch) * b, int threads) {
  if (threads == 0) threads = prox_mesh_detail_cores();
  prox_mesh_detail_for(threads, (b->n + PBR_CHUNK - 1) / PBR_CHUNK, PROX_FN(pbr_chunk), b);
}

prox_status PROX_FN(prox_bvh_raycast_batch)(const PROX_FN(prox_bvh) * bvh,
                                            const PROX_FN(prox_ray) * rays, size_t n,
                                            PROX_FN(prox_mesh_hit) * out, int threads) {
  PROX_FN(pbr_batch) b;
  if (!bvh || (n && (!rays || !out)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  memset(&b, 0, sizeof b);
  b.kind = 0;
  b.bvh = bvh;
  b.rays = rays;
  b.n = n;
  b.out = out;
  PROX_FN(pbr_run)(&b, threads);
  return PROX_OK;
}

prox_status PROX_FN(prox_bvh_occluded_batch)(const PROX_FN(prox_bvh) * bvh,
                                             const PROX_FN(prox_ray) * rays, size_t n, uint8_t *hit,
                                             int threads) {
  PROX_FN(pbr_batch) b;
  if (!bvh || (n && (!rays || !hit)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  memset(&b, 0, sizeof b);
  b.kind = 1;
  b.bvh = bvh;
  b.rays = rays;
  b.n = n;
  b.hit = hit;
  PROX_FN(pbr_run)(&b, threads);
  return PROX_OK;
}

prox_status PROX_FN(prox_bvh_ray_count_batch)(const PROX_FN(prox_bvh) * bvh,
                                              const PROX_FN(prox_ray) * rays, size_t n,
                                              size_t *count, long *winding, int threads) {
  PROX_FN(pbr_batch) b;
  if (!bvh || (n && (!rays || !count)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  memset(&b, 0, sizeof b);
  b.kind = 2;
  b.bvh = bvh;
  b.rays = rays;
  b.n = n;
  b.count = count;
  b.winding = winding;
  PROX_FN(pbr_run)(&b, threads);
  return PROX_OK;
}

#undef PBR_TRAV
#undef PBR_PICK
