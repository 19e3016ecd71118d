/* SPDX-License-Identifier: MIT */
/* Template, once per precision: the closest points of a run of points in a
 * coherent order, PBQ_PK of them walking the tree together.
 *
 * Points next to each other in a Morton order visit nearly the same nodes.
 * One walk for PBQ_PK of them pays the walk's control (the stack, the
 * order of the children, the fetches ahead) once for all of them: a node
 * is tested against every point of the packet, and a child is pushed when
 * it is within the bound of at least one point still in the walk. Each
 * point keeps its own best, bound and answer, and a leaf is evaluated for
 * exactly the points whose own bound it is within. Every point's answer
 * is therefore the single query's (prox/detail/bvh_query.inl): the
 * minimum and the lowest index among ties do not depend on the order of
 * the visit, and a box is pruned for a point only when the point's own
 * bound (the single walk's threshold) rules it out.
 *
 * Before including, define PBQ_PK_WALK and PBQ_PK_RUN (the names of the
 * walk and of the run), and PBQ_PK_IMPROVED(v, pos) when a nearer
 * triangle's record is to be fetched (the signed distance);
 * bvh_query_leaf.inl must be included (pbq_leaf, pbq_finite). All are
 * #undef'd here.
 *
 * PBQ_PK_RUN(v, points, order, max_sqdist, out, pos, j0, j1) has the
 * contract of the runs of bvh_query_run.inl (the same answers, bits
 * included); order may be NULL (the caller's order: coherent or not, the
 * answers are the same). */

#include "bvh_query_pk.h" /* PBQ_PK, the AVX2 node step */

#ifndef PBQ_LOW
/* The lowest set bit of a nonzero mask. */
#if defined(__GNUC__) || defined(__clang__)
#define PBQ_LOW(m) __builtin_ctz((unsigned)(m))
#else
static inline int pbq_low(unsigned m) {
  int i = 0;
  while (!(m & 1u))
    m >>= 1, ++i;
  return i;
}
#define PBQ_LOW(m) pbq_low((unsigned)(m))
#endif
#endif

#ifndef PBQ_PK_IMPROVED
#define PBQ_PK_IMPROVED(view, pos) ((void)0)
#endif

/* PBQ_PK_WITHIN(d, thr): as bits, the lanes i with d[i] <= thr[i].
 * pbq_pk_node(nd, px, py, pz, thr, m, ds, key, ms): the node step, with the
 * contract of prox_detail_pk_node_avx2 (bvh_query_pk.h: the squared
 * distances of the points to the four boxes, the operations of
 * prox_bvh_detail_boxd4 so the same values; per slot, the points of m
 * within their bound and the least of their distances), with SSE2 vectors
 * (pbq_pk_slot, one slot) or else lane by lane. */
#if defined(PBQ_SSE2) && !PROX_IS_DOUBLE
#define PBQ_PK_W 4
#define PBQ_PK_V __m128
#define PBQ_PK_SPLAT _mm_set1_ps
#define PBQ_PK_LD _mm_loadu_ps
#define PBQ_PK_ST _mm_storeu_ps
#define PBQ_PK_ADD _mm_add_ps
#define PBQ_PK_SUB _mm_sub_ps
#define PBQ_PK_MUL _mm_mul_ps
#define PBQ_PK_MAX _mm_max_ps
#define PBQ_PK_MIN _mm_min_ps
#define PBQ_PK_LE _mm_cmple_ps
#define PBQ_PK_AND _mm_and_ps
#define PBQ_PK_ANDNOT _mm_andnot_ps
#define PBQ_PK_OR _mm_or_ps
#define PBQ_PK_BITS _mm_movemask_ps
#define PBQ_PK_LANES(b)                                                                            \
  _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(b), _mm_setr_epi32(1, 2, 4, 8)),   \
                                   _mm_setr_epi32(1, 2, 4, 8)))
static inline float PROX_FN(pbq_pk_hmin)(__m128 a) {
  a = _mm_min_ps(a, _mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 0, 3, 2)));
  a = _mm_min_ps(a, _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtss_f32(a);
}
#elif defined(PBQ_SSE2)
#define PBQ_PK_W 2
#define PBQ_PK_V __m128d
#define PBQ_PK_SPLAT _mm_set1_pd
#define PBQ_PK_LD _mm_loadu_pd
#define PBQ_PK_ST _mm_storeu_pd
#define PBQ_PK_ADD _mm_add_pd
#define PBQ_PK_SUB _mm_sub_pd
#define PBQ_PK_MUL _mm_mul_pd
#define PBQ_PK_MAX _mm_max_pd
#define PBQ_PK_MIN _mm_min_pd
#define PBQ_PK_LE _mm_cmple_pd
#define PBQ_PK_AND _mm_and_pd
#define PBQ_PK_ANDNOT _mm_andnot_pd
#define PBQ_PK_OR _mm_or_pd
#define PBQ_PK_BITS _mm_movemask_pd
#define PBQ_PK_LANES(b)                                                                            \
  _mm_castsi128_pd(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(b), _mm_setr_epi32(1, 1, 2, 2)),   \
                                   _mm_setr_epi32(1, 1, 2, 2)))
static inline double PROX_FN(pbq_pk_hmin)(__m128d a) {
  return _mm_cvtsd_f64(_mm_min_pd(a, _mm_unpackhi_pd(a, a)));
}
#endif

#if defined(PBQ_PK_W)
static inline int PROX_FN(pbq_pk_within)(const PROX_REAL *d, const PROX_REAL *thr) {
  int c, m = 0;
  for (c = 0; c < PBQ_PK; c += PBQ_PK_W)
    m |= PBQ_PK_BITS(PBQ_PK_LE(PBQ_PK_LD(d + c), PBQ_PK_LD(thr + c))) << c;
  return m;
}
static inline int PROX_FN(pbq_pk_slot)(const prox_bvh_node *nd, int s, const PROX_REAL *px,
                                       const PROX_REAL *py, const PROX_REAL *pz,
                                       const PROX_REAL *thr, int m, PROX_REAL *ds, PROX_REAL *key) {
  const PBQ_PK_V lx = PBQ_PK_SPLAT((PROX_REAL)nd->lo_x[s]),
                 hx = PBQ_PK_SPLAT((PROX_REAL)nd->hi_x[s]);
  const PBQ_PK_V ly = PBQ_PK_SPLAT((PROX_REAL)nd->lo_y[s]),
                 hy = PBQ_PK_SPLAT((PROX_REAL)nd->hi_y[s]);
  const PBQ_PK_V lz = PBQ_PK_SPLAT((PROX_REAL)nd->lo_z[s]),
                 hz = PBQ_PK_SPLAT((PROX_REAL)nd->hi_z[s]);
  const PBQ_PK_V z = PBQ_PK_SPLAT(0), inf = PBQ_PK_SPLAT(PROX_INF);
  PBQ_PK_V kv = inf;
  int c, in = 0;
  for (c = 0; c < PBQ_PK; c += PBQ_PK_W) {
    PBQ_PK_V x = PBQ_PK_LD(px + c), y = PBQ_PK_LD(py + c), w = PBQ_PK_LD(pz + c), d, ok;
    PBQ_PK_V dx = PBQ_PK_MAX(PBQ_PK_MAX(PBQ_PK_SUB(lx, x), PBQ_PK_SUB(x, hx)), z);
    PBQ_PK_V dy = PBQ_PK_MAX(PBQ_PK_MAX(PBQ_PK_SUB(ly, y), PBQ_PK_SUB(y, hy)), z);
    PBQ_PK_V dz = PBQ_PK_MAX(PBQ_PK_MAX(PBQ_PK_SUB(lz, w), PBQ_PK_SUB(w, hz)), z);
    d = PBQ_PK_ADD(PBQ_PK_ADD(PBQ_PK_MUL(dx, dx), PBQ_PK_MUL(dy, dy)), PBQ_PK_MUL(dz, dz));
    PBQ_PK_ST(ds + c, d);
    ok = PBQ_PK_AND(PBQ_PK_LE(d, PBQ_PK_LD(thr + c)), PBQ_PK_LANES(m >> c));
    in |= PBQ_PK_BITS(ok) << c;
    kv = PBQ_PK_MIN(kv, PBQ_PK_OR(PBQ_PK_AND(ok, d), PBQ_PK_ANDNOT(ok, inf)));
  }
  *key = PROX_FN(pbq_pk_hmin)(kv);
  return in;
}
/* The node step: pbq_pk_slot for each slot. */
static inline int PROX_FN(pbq_pk_node)(const prox_bvh_node *nd, const PROX_REAL *px,
                                       const PROX_REAL *py, const PROX_REAL *pz,
                                       const PROX_REAL *thr, int m, PROX_REAL (*ds)[PBQ_PK],
                                       PROX_REAL *key, int *ms) {
  int s, mask = 0;
  for (s = 0; s < 4; ++s) {
    int in = PROX_FN(pbq_pk_slot)(nd, s, px, py, pz, thr, m, ds[s], &key[s]);
    ms[s] = s < nd->n_child ? in : 0;
    mask |= (ms[s] != 0) << s;
  }
  return mask;
}
#else
static inline int PROX_FN(pbq_pk_within)(const PROX_REAL *d, const PROX_REAL *thr) {
  int i, m = 0;
  for (i = 0; i < PBQ_PK; ++i)
    m |= (d[i] <= thr[i]) << i;
  return m;
}
/* The node step lane by lane: each point's four box distances by
 * prox_bvh_detail_boxd4. */
static inline int PROX_FN(pbq_pk_node)(const prox_bvh_node *nd, const PROX_REAL *px,
                                       const PROX_REAL *py, const PROX_REAL *pz,
                                       const PROX_REAL *thr, int m, PROX_REAL (*ds)[PBQ_PK],
                                       PROX_REAL *key, int *ms) {
  int i, s, mask = 0;
  for (i = 0; i < PBQ_PK; ++i) {
    PROX_REAL d4[4];
    PROX_FN(prox_bvh_detail_boxd4)(nd, PROX_FN(prox_v3)(px[i], py[i], pz[i]), d4);
    for (s = 0; s < 4; ++s)
      ds[s][i] = d4[s];
  }
  for (s = 0; s < 4; ++s) {
    PROX_REAL k = PROX_INF;
    int in = 0;
    for (i = 0; i < PBQ_PK; ++i) {
      int w = (m >> i) & (ds[s][i] <= thr[i]);
      in |= w << i;
      k = w && ds[s][i] < k ? ds[s][i] : k;
    }
    key[s] = k;
    ms[s] = s < nd->n_child ? in : 0;
    mask |= (ms[s] != 0) << s;
  }
  return mask;
}
#endif
#define PBQ_PK_WITHIN(d, thr) PROX_FN(pbq_pk_within)(d, thr)

/* The ranks of the slots in mask among themselves by key, farthest
 * first: rank[s] is the number of slots of mask whose key is greater than
 * key[s], or equal with a lower slot (a permutation of 0 .. |mask| - 1 over
 * the slots of mask; the others' ranks are not used). In float: the keys
 * only order the visit. */
#if defined(PBQ_SSE2) && !defined(PBQ_PK_RANKS_DONE)
#define PBQ_PK_RANKS_DONE 1
static inline void pbq_pk_ranks4(__m128 k, int *rank) {
  /* Lane i counts the slots j with k[j] > k[i], or k[j] == k[i] and
   * j < i; slots outside the mask hold NaN, which no comparison counts. */
  __m128 k0 = _mm_shuffle_ps(k, k, _MM_SHUFFLE(0, 0, 0, 0));
  __m128 k1 = _mm_shuffle_ps(k, k, _MM_SHUFFLE(1, 1, 1, 1));
  __m128 k2 = _mm_shuffle_ps(k, k, _MM_SHUFFLE(2, 2, 2, 2));
  __m128 k3 = _mm_shuffle_ps(k, k, _MM_SHUFFLE(3, 3, 3, 3));
  __m128 a0 =
      _mm_or_ps(_mm_cmpgt_ps(k0, k),
                _mm_and_ps(_mm_cmpeq_ps(k0, k), _mm_castsi128_ps(_mm_setr_epi32(0, -1, -1, -1))));
  __m128 a1 =
      _mm_or_ps(_mm_cmpgt_ps(k1, k),
                _mm_and_ps(_mm_cmpeq_ps(k1, k), _mm_castsi128_ps(_mm_setr_epi32(0, 0, -1, -1))));
  __m128 a2 =
      _mm_or_ps(_mm_cmpgt_ps(k2, k),
                _mm_and_ps(_mm_cmpeq_ps(k2, k), _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1))));
  __m128 a3 = _mm_cmpgt_ps(k3, k);
  __m128i r =
      _mm_sub_epi32(_mm_sub_epi32(_mm_setzero_si128(), _mm_castps_si128(a0)), _mm_castps_si128(a1));
  r = _mm_sub_epi32(_mm_sub_epi32(r, _mm_castps_si128(a2)), _mm_castps_si128(a3));
  _mm_storeu_si128((__m128i *)(void *)rank, r);
}
#endif
static inline void PROX_FN(pbq_pk_ranks)(const PROX_REAL *key, int mask, int *rank) {
#if defined(PBQ_SSE2)
  __m128 lanes = _mm_castsi128_ps(_mm_cmpeq_epi32(
      _mm_and_si128(_mm_set1_epi32(mask), _mm_setr_epi32(1, 2, 4, 8)), _mm_setr_epi32(1, 2, 4, 8)));
  __m128 k = _mm_setr_ps((float)key[0], (float)key[1], (float)key[2], (float)key[3]);
  k = _mm_or_ps(_mm_and_ps(lanes, k), _mm_andnot_ps(lanes, _mm_set1_ps(PROX_NAN)));
  pbq_pk_ranks4(k, rank);
#else
  int s, j;
  for (s = 0; s < 4; ++s) {
    rank[s] = 0;
    for (j = 0; j < 4; ++j)
      rank[s] += ((mask >> j) & 1) & ((key[j] > key[s]) | ((key[j] == key[s]) & (j < s)));
  }
#endif
}

/* The walk of the n (1..PBQ_PK) finite points q[0..n-1] with the bound
 * max_sqdist (not NaN): their squared distances into best[] (max_sqdist
 * where no triangle is within it) and their triangles into hit[] (pos
 * PROX_BVH_NONE where none). simd: the node step, 0 portable, 1 AVX2, 2
 * AVX-512 (double only); the same values from each. */
static void PBQ_PK_WALK(const PROX_FN(prox_bvh_view) * v, const PROX_FN(prox_vec3) * q, int n,
                        PROX_REAL max_sqdist, PROX_REAL *best, PROX_FN(prox_bvh_detail_hit) * hit,
                        int simd) {
  /* One slot more than the stack needs: where skipped children go. */
  uint32_t stack_node[PROX_BVH_STACK + 1];
  uint8_t stack_cnt[PROX_BVH_STACK + 1], stack_m[PROX_BVH_STACK + 1];
  PROX_REAL stack_d[PROX_BVH_STACK + 1][PBQ_PK];
  PROX_REAL px[PBQ_PK], py[PBQ_PK], pz[PBQ_PK], thr[PBQ_PK], slack[PBQ_PK];
  PROX_FN(prox_vec3) sp[PBQ_PK];
  PROX_FN(prox_triangle) st[PBQ_PK];
  PROX_REAL sd[PBQ_PK];
  int top, i, ns = 0, sk[PBQ_PK];
  for (i = 0; i < PBQ_PK; ++i) {
    /* Lanes past n repeat the first point (finite arithmetic) and are
     * never in a mask. */
    PROX_FN(prox_vec3) p = q[i < n ? i : 0];
    px[i] = p.x;
    py[i] = p.y;
    pz[i] = p.z;
    best[i] = max_sqdist;
    slack[i] = PROX_FN(prox_bvh_detail_slack)(v, p);
    if (i < n && hit[i].pos != PROX_BVH_NONE) {
      sp[ns] = p;
      st[ns] = PROX_FN(prox_bvh_detail_tri)(v, hit[i].first, hit[i].count, hit[i].pos);
      sk[ns++] = i;
    } else {
      hit[i].pos = hit[i].first = hit[i].count = PROX_BVH_NONE;
    }
    stack_d[0][i] = 0;
  }
  /* The seeds (each point's triangle to try first), one point a lane. */
  if (ns)
    prox_simd_table_get()->batch->PROX_FN(points_triangles_each)(sp, (size_t)ns, st, sd, NULL);
  for (i = 0; i < ns; ++i) {
    if (sd[i] <= best[sk[i]])
      best[sk[i]] = sd[i];
    else
      hit[sk[i]].pos = PROX_BVH_NONE;
  }
  for (i = 0; i < PBQ_PK; ++i)
    thr[i] = PROX_FN(prox_bvh_detail_thr)(best[i], slack[i]);
  stack_node[0] = 0;
  stack_cnt[0] = 0;
  stack_m[0] = (uint8_t)((1u << n) - 1u);
  top = 1;
  while (top > 0) {
    const prox_bvh_node *nd;
    PROX_REAL ds[4][PBQ_PK], key[4];
    int m = 0, ms[4], mask, s, cnt4 = 0;
    --top;
    /* The points for which the entry is still within the bound. */
    m = PBQ_PK_WITHIN(stack_d[top], thr) & stack_m[top];
    if (!m) continue;
    if (stack_cnt[top]) {
      uint32_t first = stack_node[top], cnt = stack_cnt[top], mpos[PBQ_PK];
      PROX_REAL mbest[PBQ_PK];
      /* Two or more points: the leaf's triangle part of the kernel once
       * for all of them (the same values as one at a time). */
      int multi = (m & (m - 1)) && PROX_FN(pbq_leaf_multi)(v, q, m, first, cnt, mbest, mpos);
      for (; m; m &= m - 1) {
        uint32_t pos;
        PROX_REAL dl;
        i = PBQ_LOW(m);
        if (multi) {
          dl = mbest[i];
          pos = mpos[i];
        } else {
          dl = PROX_FN(pbq_leaf)(v, q[i], first, cnt, &pos);
        }
        if (PROX_FN(prox_bvh_detail_better)(v, dl, best[i], pos, &hit[i])) {
          best[i] = dl;
          hit[i].pos = pos;
          hit[i].first = first;
          hit[i].count = cnt;
          thr[i] = PROX_FN(prox_bvh_detail_thr)(dl, slack[i]);
          PBQ_PREFETCH(v->ids + pos, 0);
          PBQ_PK_IMPROVED(v, pos);
        }
      }
      continue;
    }
    nd = v->nodes + stack_node[top];
    /* Each slot's box distance to every point (the operations of
     * prox_bvh_detail_boxd4, so the same values), the points within their
     * bound, and the nearest of them as the slot's key. */
#if PROX_IS_DOUBLE
    if (simd == 2)
      mask = prox_detail_pk_node_avx512(nd, px, py, pz, thr, m, ds, key, ms);
    else
#endif
      mask = simd ? PROX_FN(prox_detail_pk_node_avx2)(nd, px, py, pz, thr, m, ds, key, ms)
                  : PROX_FN(pbq_pk_node)(nd, px, py, pz, thr, m, ds, key, ms);
    /* The children within some point's bound, pushed farthest first by
     * key, so that the nearest is popped next. */
    {
      int rank[4];
      PROX_FN(pbq_pk_ranks)(key, mask, rank);
      for (s = 0; s < 4; ++s) {
        int valid = (mask >> s) & 1, at;
        PROX_FN(prox_bvh_detail_fetch)(v, nd->count[s], valid ? nd->child[s] : 0);
        at = valid ? top + rank[s] : PROX_BVH_STACK;
        stack_node[at] = nd->child[s];
        stack_cnt[at] = nd->count[s];
        stack_m[at] = (uint8_t)ms[s];
        memcpy(stack_d[at], ds[s], sizeof ds[s]);
        cnt4 += valid;
      }
    }
    top += cnt4;
  }
}

static void PBQ_PK_RUN(const PROX_FN(prox_bvh_view) * v, const PROX_FN(prox_vec3) * points,
                       const uint32_t *order, PROX_REAL max_sqdist,
                       PROX_FN(prox_mesh_closest) * out, uint32_t *pos, size_t j0, size_t j1) {
  PROX_FN(prox_vec3) q[PBQ_PK];
  PROX_REAL best[PBQ_PK];
  PROX_FN(prox_bvh_detail_hit) hit[PBQ_PK];
  size_t at[PBQ_PK];
  size_t j = j0;
  /* The node step with AVX2, or for double AVX-512, where the SIMD level
   * allows it (the same values either way). */
  int k0, level = prox_simd_table_get()->level;
  int simd = level >= PROX_SIMD_AVX2 && prox_detail_pk_ok_avx2;
#if PROX_IS_DOUBLE
  if (level >= PROX_SIMD_AVX512 && prox_detail_pk_ok_avx512) simd = 2;
#endif
  for (k0 = 0; k0 < PBQ_PK; ++k0)
    hit[k0].pos = hit[k0].first = hit[k0].count = PROX_BVH_NONE;
  while (j < j1) {
    int n = 0, k;
    /* The next PBQ_PK finite points; the others answered at once. */
    for (; j < j1 && n < PBQ_PK; ++j) {
      size_t i = order ? order[j] : j;
      if (order && j + PBQ_AHEAD < j1) {
        size_t ia = order[j + PBQ_AHEAD];
        PBQ_PREFETCH(points + ia, 0);
        PBQ_PREFETCH(out + ia, 1);
        PBQ_PREFETCH((const char *)(out + ia) + sizeof *out - 1, 1);
      }
      if (!PROX_FN(pbq_finite)(points[i]) || max_sqdist != max_sqdist) {
        PROX_FN(prox_bvh_detail_fill)(v, points[i], PROX_NAN, NULL, out + i);
        if (pos) pos[i] = PROX_BVH_NONE;
        continue;
      }
      q[n] = points[i];
      at[n++] = i;
    }
    if (!n) continue;
    PBQ_PK_WALK(v, q, n, max_sqdist, best, hit, simd);
    {
      /* The answers: the kernel's full result on each point's triangle,
       * one point a lane. */
      PROX_FN(prox_vec3) fp[PBQ_PK];
      PROX_FN(prox_triangle) ft[PBQ_PK];
      PROX_FN(prox_closest) fr[PBQ_PK];
      int nf = 0, fk[PBQ_PK];
      for (k = 0; k < n; ++k) {
        if (pos) pos[at[k]] = hit[k].pos;
        if (hit[k].pos == PROX_BVH_NONE) {
          PROX_FN(prox_bvh_detail_fill)(v, q[k], best[k], NULL, out + at[k]);
          continue;
        }
        fp[nf] = q[k];
        ft[nf] = PROX_FN(prox_bvh_detail_tri)(v, hit[k].first, hit[k].count, hit[k].pos);
        fk[nf++] = k;
      }
      if (nf)
        prox_simd_table_get()->batch->PROX_FN(points_triangles_each)(fp, (size_t)nf, ft, NULL, fr);
      for (k = 0; k < nf; ++k) {
        int w = fk[k];
        PROX_FN(prox_bvh_detail_fill_found)(v, best[w], hit[w].pos, &fr[k], out + at[w]);
      }
    }
  }
}

#undef PBQ_PK_WALK
#undef PBQ_PK_RUN
#undef PBQ_PK_IMPROVED
#undef PBQ_PK_W
#undef PBQ_PK_V
#undef PBQ_PK_SPLAT
#undef PBQ_PK_LD
#undef PBQ_PK_ST
#undef PBQ_PK_ADD
#undef PBQ_PK_SUB
#undef PBQ_PK_MUL
#undef PBQ_PK_MAX
#undef PBQ_PK_MIN
#undef PBQ_PK_LE
#undef PBQ_PK_AND
#undef PBQ_PK_ANDNOT
#undef PBQ_PK_OR
#undef PBQ_PK_BITS
#undef PBQ_PK_LANES
#undef PBQ_PK_WITHIN
