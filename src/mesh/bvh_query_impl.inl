/* SPDX-License-Identifier: MIT */
/* Template: the compiled queries of prox/bvh.h for one precision
 * (src/mesh/bvh_query.c): the traversal of prox/detail/bvh_query.inl with
 * the SIMD leaf kernel of prox/batch.h, the radius query and the batches. */

/* The leaf: prox_point_triangles_soa (dispatched to AVX2/AVX-512 or the
 * scalar loop; the same bits at every level). */
static inline PROX_REAL PROX_FN(pbq_leaf)(const PROX_FN(prox_bvh_view) * v, PROX_FN(prox_vec3) p,
                                          uint32_t first, uint32_t n, uint32_t *pos) {
  PROX_FN(prox_triangle_soa) s;
  size_t bi = 0;
  PROX_REAL d;
  int k;
  const PROX_REAL *b = v->tri + 9 * (size_t)first;
  for (k = 0; k < 3; ++k) {
    s.x[k] = b + (size_t)k * n;
    s.y[k] = b + (size_t)(3 + k) * n;
    s.z[k] = b + (size_t)(6 + k) * n;
  }
  d = PROX_FN(prox_point_triangles_soa)(p, &s, n, &bi, NULL);
  *pos = first + (uint32_t)bi;
  return d;
}

#define PROX_BVHQ_CUSTOM 1
#define PROX_BVHQ_NAME(name) PROX_FN(pbq_##name)
#define PROX_BVHQ_QUAL static
#define PROX_BVHQ_LEAF(view, p, first, n, pos) PROX_FN(pbq_leaf)(view, p, first, n, pos)
#include <prox/detail/bvh_query.inl>
#undef PROX_BVHQ_CUSTOM
#undef PROX_BVHQ_NAME
#undef PROX_BVHQ_QUAL
#undef PROX_BVHQ_LEAF

static int PROX_FN(pbq_finite)(PROX_FN(prox_vec3) p) {
  return PROX_FABS(p.x) <= PROX_REAL_MAX && PROX_FABS(p.y) <= PROX_REAL_MAX &&
         PROX_FABS(p.z) <= PROX_REAL_MAX;
}

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
    PROX_FN(prox_bvh_detail_boxd4)(nd, p, d);
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

void PROX_FN(prox_bvh_closest_range)(const PROX_FN(prox_bvh) * t, const PROX_FN(prox_vec3) * points,
                                     PROX_REAL max_sqdist, PROX_FN(prox_mesh_closest) * out,
                                     size_t begin, size_t end) {
  PROX_FN(prox_bvh_detail_hit) seed, hit;
  size_t i;
  seed.pos = seed.first = seed.count = PROX_BVH_NONE;
  for (i = begin; i < end; ++i) {
    hit = seed;
    PROX_FN(pbq_closest)(t, points[i], max_sqdist, &hit, out + i);
    if (hit.pos != PROX_BVH_NONE) seed = hit;
  }
}

typedef struct PROX_FN(pbq_batch) {
  const PROX_FN(prox_bvh) * t;
  const PROX_FN(prox_vec3) * points;
  size_t n;
  PROX_REAL max_sqdist;
  PROX_FN(prox_mesh_closest) * out;
#if !defined(__STDC_NO_ATOMICS__)
  _Atomic size_t next;
#else
  size_t next;
  pthread_mutex_t lock;
#endif
} PROX_FN(pbq_batch);

/* Chunks of this many points are handed out to the workers in turn. */
#define PBQ_CHUNK 256

static void PROX_FN(pbq_worker)(void *arg) {
  PROX_FN(pbq_batch) *b = (PROX_FN(pbq_batch) *)arg;
  for (;;) {
    size_t i0, i1;
#if !defined(__STDC_NO_ATOMICS__)
    i0 = atomic_fetch_add(&b->next, (size_t)PBQ_CHUNK);
#else
    pthread_mutex_lock(&b->lock);
    i0 = b->next;
    b->next += PBQ_CHUNK;
    pthread_mutex_unlock(&b->lock);
#endif
    if (i0 >= b->n) return;
    i1 = b->n - i0 < PBQ_CHUNK ? b->n : i0 + PBQ_CHUNK;
    PROX_FN(prox_bvh_closest_range)
    (b->t, b->points, b->max_sqdist, b->out, i0, i1);
  }
}

prox_status PROX_FN(prox_bvh_closest_batch)(const PROX_FN(prox_bvh) * t,
                                            const PROX_FN(prox_vec3) * points, size_t n,
                                            PROX_REAL max_sqdist, PROX_FN(prox_mesh_closest) * out,
                                            int threads) {
  PROX_FN(pbq_batch) b;
  if (!t || (n && (!points || !out)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  if (threads == 0) threads = prox_mesh_detail_cores();
  if ((size_t)threads > (n + PBQ_CHUNK - 1) / PBQ_CHUNK)
    threads = (int)((n + PBQ_CHUNK - 1) / PBQ_CHUNK);
  if (threads <= 1) {
    PROX_FN(prox_bvh_closest_range)(t, points, max_sqdist, out, 0, n);
    return PROX_OK;
  }
  b.t = t;
  b.points = points;
  b.n = n;
  b.max_sqdist = max_sqdist;
  b.out = out;
#if !defined(__STDC_NO_ATOMICS__)
  atomic_init(&b.next, 0);
#else
  b.next = 0;
  pthread_mutex_init(&b.lock, NULL);
#endif
  prox_mesh_detail_parallel(threads, PROX_FN(pbq_worker), &b);
#if defined(__STDC_NO_ATOMICS__)
  pthread_mutex_destroy(&b.lock);
#endif
  return PROX_OK;
}
