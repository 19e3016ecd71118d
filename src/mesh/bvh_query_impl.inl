/* SPDX-License-Identifier: MIT */
/* Template: the compiled queries of prox/bvh.h for one precision
 * (src/mesh/bvh_query.c): the traversal of prox/detail/bvh_query.inl with
 * the SIMD leaf kernel of prox/batch.h, the radius query and the batches. */

#include "bvh_query_leaf.inl"

#define PROX_BVHQ_CUSTOM 1
#define PROX_BVHQ_NAME(name) PROX_FN(pbq_##name)
#define PROX_BVHQ_QUAL static
#define PROX_BVHQ_LEAF(view, p, first, n, pos) PROX_FN(pbq_leaf)(view, p, first, n, pos)
#include <prox/detail/bvh_query.inl>
#undef PROX_BVHQ_CUSTOM
#undef PROX_BVHQ_NAME
#undef PROX_BVHQ_QUAL
#undef PROX_BVHQ_LEAF

/* The query, starting from the triangle in *hit when hit->pos is not
 * PROX_BVH_NONE; the winner into *hit. */
static PROX_REAL PROX_FN(pbq_closest)(const PROX_FN(prox_bvh) * t, PROX_FN(prox_vec3) p,
                                      PROX_REAL max_sqdist, PROX_FN(prox_bvh_detail_hit) * hit,
                                      PROX_FN(prox_mesh_closest) * out) {
  PROX_REAL d;
  if (!PROX_FN(pbq_finite)(p) || max_sqdist != max_sqdist) {
    hit->pos = PROX_BVH_NONE;
    return PROX_FN(prox_bvh_detail_fill)(&t->view, p, PROX_NAN, NULL, out);
  }
  d = PROX_FN(pbq_prox_bvh_detail_nearest)(&t->view, p, max_sqdist, hit);
  return PROX_FN(prox_bvh_detail_fill)(&t->view, p, d, hit, out);
}

PROX_REAL PROX_FN(prox_bvh_closest)(const PROX_FN(prox_bvh) * t, PROX_FN(prox_vec3) p,
                                    PROX_REAL max_sqdist, PROX_FN(prox_mesh_closest) * out) {
  PROX_FN(prox_bvh_detail_hit) hit;
  hit.pos = hit.first = hit.count = PROX_BVH_NONE;
  return PROX_FN(pbq_closest)(t, p, max_sqdist, &hit, out);
}

size_t PROX_FN(prox_bvh_within)(const PROX_FN(prox_bvh) * t, PROX_FN(prox_vec3) p,
                                PROX_REAL max_sqdist, uint32_t *ids, PROX_REAL *sqdists,
                                size_t capacity) {
  const PROX_FN(prox_bvh_view) *v = &t->view;
  uint32_t stack[PROX_BVH_STACK];
  int top = 1;
  size_t total = 0;
  PROX_REAL thr;
  if (!PROX_FN(pbq_finite)(p) || max_sqdist != max_sqdist) return 0;
  thr = PROX_FN(prox_bvh_detail_thr)(max_sqdist, PROX_FN(prox_bvh_detail_slack)(v, p));
  stack[0] = 0;
  while (top > 0) {
    const prox_bvh_node *nd = v->nodes + stack[--top];
    PROX_REAL d[4];
    int i;
    PBQ_BOXD4(nd, p, d);
    for (i = 0; i < nd->n_child; ++i) {
      if (!(d[i] <= thr)) continue;
      if (nd->count[i]) {
        uint32_t pos, e = nd->child[i] + nd->count[i];
        for (pos = nd->child[i]; pos < e; ++pos) {
          PROX_FN(prox_triangle)
          tr = PROX_FN(prox_bvh_detail_tri)(v, nd->child[i], nd->count[i], pos);
          PROX_REAL dt = PROX_FN(prox_point_triangle)(p, &tr, NULL);
          if (dt <= max_sqdist) {
            if (total < capacity) {
              ids[total] = v->ids[pos];
              if (sqdists) sqdists[total] = dt;
            }
            ++total;
          }
        }
      } else {
        stack[top++] = nd->child[i];
      }
    }
  }
  return total;
}

/* The pieces of prox_mesh_detail_order: the box of each piece's finite
 * points (phase 0), then its keys and their low digits' histogram (1). */
typedef struct PROX_FN(pbq_keys) {
  const PROX_FN(prox_vec3) * points;
  size_t n;
  int pieces, phase;
  int any[PROX_MESH_DETAIL_ORDER_PIECES];
  double lo[PROX_MESH_DETAIL_ORDER_PIECES][3], hi[PROX_MESH_DETAIL_ORDER_PIECES][3];
  double glo[3], ghi[3], scale[3];
  uint64_t *kv;
  uint32_t (*hist)[1024];
} PROX_FN(pbq_keys);

static void PROX_FN(pbq_key_piece)(void *arg, size_t c) {
  PROX_FN(pbq_keys) *j = (PROX_FN(pbq_keys) *)arg;
  size_t i, b = prox_mesh_detail_piece(j->n, j->pieces, c),
            e = prox_mesh_detail_piece(j->n, j->pieces, c + 1);
  int k;
  if (j->phase == 0) {
    double *lo = j->lo[c], *hi = j->hi[c];
    int any = 0;
    for (i = b; i < e; ++i) {
      const double p[3] = {(double)j->points[i].x, (double)j->points[i].y, (double)j->points[i].z};
      if (!(fabs(p[0]) <= DBL_MAX && fabs(p[1]) <= DBL_MAX && fabs(p[2]) <= DBL_MAX)) continue;
      for (k = 0; k < 3; ++k) {
        if (!any || p[k] < lo[k]) lo[k] = p[k];
        if (!any || p[k] > hi[k]) hi[k] = p[k];
      }
      any = 1;
    }
    j->any[c] = any;
    return;
  }
  memset(j->hist[c], 0, 1024 * sizeof j->hist[c][0]);
  for (i = b; i < e; ++i) {
    const double p[3] = {(double)j->points[i].x, (double)j->points[i].y, (double)j->points[i].z};
    uint32_t cell[3], code;
    for (k = 0; k < 3; ++k) {
      double q = (p[k] - j->glo[k]) * j->scale[k];
      /* NaN and below: the first cell; +inf and beyond: the last. */
      if (!(q >= 0)) q = 0;
      if (q > 1023) q = 1023;
      cell[k] = (uint32_t)q;
    }
    code = prox_mesh_detail_morton(cell[0], cell[1], cell[2]);
    j->kv[i] = (uint64_t)code << 32 | (uint64_t)i;
    ++j->hist[c][code & 1023u];
  }
}

const uint32_t *PROX_FN(prox_mesh_detail_order)(const prox_allocator *alloc,
                                                const PROX_FN(prox_vec3) * points, size_t n,
                                                int threads) {
  PROX_FN(pbq_keys) j;
  uint32_t hist1[1][1024];
  const uint32_t *order;
  int k, any = 0;
  size_t c;
  if (n < PROX_MESH_DETAIL_ORDER_MIN || n > UINT32_MAX) return NULL;
  memset(&j, 0, sizeof j);
  j.points = points;
  j.n = n;
  j.kv = (uint64_t *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(2 * n, sizeof *j.kv));
  if (!j.kv) return NULL;
  j.pieces = 1;
  j.hist = hist1;
  if (threads > 1 && n >= PROX_MESH_DETAIL_ORDER_PAR) {
    int pieces = threads < PROX_MESH_DETAIL_ORDER_PIECES ? threads : PROX_MESH_DETAIL_ORDER_PIECES;
    uint32_t(*h)[1024] = (uint32_t(*)[1024])prox_mesh_detail_alloc(
        alloc, (size_t)pieces * sizeof *h); /* else one piece, one thread */
    if (h) {
      j.pieces = pieces;
      j.hist = h;
    }
  }
  if (j.pieces == 1) threads = 1;
  j.phase = 0;
  prox_mesh_detail_for(threads, (size_t)j.pieces, PROX_FN(pbq_key_piece), &j);
  for (c = 0; c < (size_t)j.pieces; ++c) {
    if (!j.any[c]) continue;
    for (k = 0; k < 3; ++k) {
      if (!any || j.lo[c][k] < j.glo[k]) j.glo[k] = j.lo[c][k];
      if (!any || j.hi[c][k] > j.ghi[k]) j.ghi[k] = j.hi[c][k];
    }
    any = 1;
  }
  /* 1024 cells per axis; an extent that overflows gives scale 0 (one
   * cell: a valid order, only not a coherent one). */
  for (k = 0; k < 3; ++k) {
    double ext = j.ghi[k] - j.glo[k];
    j.scale[k] = ext > 0 && ext <= DBL_MAX ? 1024.0 / ext : 0.0;
  }
  j.phase = 1;
  prox_mesh_detail_for(threads, (size_t)j.pieces, PROX_FN(pbq_key_piece), &j);
  order = prox_mesh_detail_order_sort(j.kv, n, j.pieces, threads, j.hist);
  if (j.hist != hist1) prox_mesh_detail_free(alloc, j.hist, (size_t)j.pieces * sizeof *j.hist);
  return order;
}

#define PBQ_RUN_NAME PROX_FN(pbq_run)
#define PBQ_RUN_WALK PROX_FN(pbq_prox_bvh_detail_nearest)
#include "bvh_query_run.inl"
#define PBQ_PK_WALK PROX_FN(pbq_pk_walk)
#define PBQ_PK_RUN PROX_FN(pbq_pk_run)
#include "bvh_query_packet.inl"

/* The batch's run over positions i0..i1: with a coherent order, eight
 * points at a time; in the caller's order, one at a time (the same
 * answers). */
static void PROX_FN(pbq_batch_run)(const PROX_FN(prox_bvh_view) * v,
                                   const PROX_FN(prox_vec3) * points, const uint32_t *order,
                                   PROX_REAL max_sqdist, PROX_FN(prox_mesh_closest) * out,
                                   size_t i0, size_t i1) {
  if (order)
    PROX_FN(pbq_pk_run)(v, points, order, max_sqdist, out, NULL, i0, i1);
  else
    PROX_FN(pbq_run)(v, points, NULL, max_sqdist, out, NULL, i0, i1);
}

void PROX_FN(prox_bvh_closest_range)(const PROX_FN(prox_bvh) * t, const PROX_FN(prox_vec3) * points,
                                     PROX_REAL max_sqdist, PROX_FN(prox_mesh_closest) * out,
                                     size_t begin, size_t end) {
  PROX_FN(pbq_run)(&t->view, points, NULL, max_sqdist, out, NULL, begin, end);
}

typedef struct PROX_FN(pbq_batch) {
  const PROX_FN(prox_bvh) * t;
  const PROX_FN(prox_vec3) * points;
  size_t n;
  PROX_REAL max_sqdist;
  PROX_FN(prox_mesh_closest) * out;
  const uint32_t *order; /* a coherent order, or NULL: the caller's */
} PROX_FN(pbq_batch);

/* Chunks of this many points are handed out to the workers in turn. */
#define PBQ_CHUNK 256

/* Chunk c of the batch (positions c PBQ_CHUNK onwards). */
static void PROX_FN(pbq_chunk)(void *arg, size_t c) {
  PROX_FN(pbq_batch) *b = (PROX_FN(pbq_batch) *)arg;
  size_t i0 = c * PBQ_CHUNK, i1 = b->n - i0 < PBQ_CHUNK ? b->n : i0 + PBQ_CHUNK;
  PROX_FN(pbq_batch_run)(&b->t->view, b->points, b->order, b->max_sqdist, b->out, i0, i1);
}

prox_status PROX_FN(prox_bvh_closest_batch)(const PROX_FN(prox_bvh) * t,
                                            const PROX_FN(prox_vec3) * points, size_t n,
                                            PROX_REAL max_sqdist, PROX_FN(prox_mesh_closest) * out,
                                            int threads) {
  PROX_FN(pbq_batch) b;
  const prox_allocator *alloc;
  if (!t || (n && (!points || !out)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  if (threads == 0) threads = prox_mesh_detail_cores();
  if ((size_t)threads > (n + PBQ_CHUNK - 1) / PBQ_CHUNK)
    threads = (int)((n + PBQ_CHUNK - 1) / PBQ_CHUNK);
  /* Near points in a row: each query starts from its predecessor's answer
   * and finds the nodes in cache. Without the memory, the caller's order
   * (the same answers). */
  alloc = t->has_alloc ? &t->alloc : NULL;
  b.order = PROX_FN(prox_mesh_detail_order)(alloc, points, n, threads);
  if (threads <= 1) {
    PROX_FN(pbq_batch_run)(&t->view, points, b.order, max_sqdist, out, 0, n);
  } else {
    b.t = t;
    b.points = points;
    b.n = n;
    b.max_sqdist = max_sqdist;
    b.out = out;
    prox_mesh_detail_for(threads, (n + PBQ_CHUNK - 1) / PBQ_CHUNK, PROX_FN(pbq_chunk), &b);
  }
  prox_mesh_detail_order_free(alloc, b.order, n);
  return PROX_OK;
}

#undef PBQ_BOXD4
