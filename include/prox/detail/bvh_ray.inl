/* SPDX-License-Identifier: MIT */
/* Template: the ray queries over a BVH view (prox/bvh_ray.h), once per
 * precision.
 *
 * Included by prox/bvh_ray.h (the header-only, device-callable form: leaves
 * evaluated by prox_raycast_triangle() in a loop) and again by
 * src/mesh/bvh_ray_impl.inl with PROX_BVHR_CUSTOM defined and its own
 * PROX_BVHR_NAME, PROX_BVHR_QUAL, PROX_BVHR_LEAF and PROX_BVHR_NODE (the
 * vector leaf and node tests), so that every form is one traversal. All
 * give the same answers: a leaf reports exactly the triangles that
 * prox_raycast_triangle() hits, with its t, whatever evaluates it.
 *
 * Node test (Ize 2013, "Robust BVH ray traversal"). The boxes are floats
 * rounded outward, so each contains its triangles exactly. The slab
 * parameters (L - o) / d are computed in the mesh's precision (double
 * meshes in double) with three roundings each (the subtraction, 1 / d and
 * the product): relative error at most gamma(3) = 3 u / (1 - 3 u). For a
 * box that the exact segment [tmin, tcur] touches, the computed entry
 * a = max(en, tmin) and exit b = min(ex, tcur) satisfy
 * a <= b + 4 eps |b| (4 eps = 8 u covers 2 gamma(3) in every sign case),
 * so the test below never loses it. On top, an absolute slack of
 * 16 eps S / max|d_i| (S the largest coordinate magnitude of the tree and
 * the origin) covers the rounding of the triangle kernel's t (at most
 * 8 eps S / |d| where the angle of incidence has |cos| >= 1/2): a triangle
 * whose rounded t lies in [tmin, tcur] is then not pruned even when its
 * exact t lies just outside. Beyond that (grazing rays whose t error
 * exceeds the slack) a first hit may differ from a brute-force loop only
 * in the choice between hits whose rounded t differ by less than their
 * rounding error; hit counts over [0, +inf] are exact in every case (the
 * sign of t is exact in the kernel, and no box on the ray is lost).
 *
 * Crossings. prox_raycast_triangle() decides every edge function's sign
 * exactly and breaks exact zeros by one symbolic perturbation of the ray's
 * origin, the same for every triangle (Woop et al. 2013 ray space; see
 * prox/detail/raycast.inl). So the set of triangles it reports for a ray
 * is the set a generic ray infinitesimally beside it crosses: a ray
 * through a shared edge or vertex of a closed mesh where it crosses the
 * surface hits exactly one triangle there, and where it only touches
 * (a silhouette) zero or two. Counting the triangles hit is therefore
 * counting crossings once each, with no deduplication in the traversal,
 * and the parity of the count over [0, +inf] is the inside status of the
 * origin for a closed mesh (origins not on the surface). A triangle hit
 * from its back (dot(dir, (v1 - v0) x (v2 - v0)) > 0, decided exactly)
 * counts +1 in the signed sum, from its front -1: for an outward-wound
 * closed mesh a ray leaving the solid gives +1, so the signed sum over
 * [0, +inf] is the winding number of the origin (1 inside, 0 outside). */

#ifndef PROX_BVHR_CUSTOM
#define PROX_BVHR_NAME(name) PROX_FN(name)
#define PROX_BVHR_QUAL PROX_HD static inline
#define PROX_BVHR_LEAF(v, pr, first, n, ts, bs)                                                    \
  PROX_FN(prox_bvh_detail_ray_leaf)(v, pr, first, n, ts, bs)
#define PROX_BVHR_CTX(pr, ctx) const PROX_FN(prox_bvh_rayprep) *ctx = (pr)
#define PROX_BVHR_NODE(ctx, nd, tcur, tn) PROX_FN(prox_bvh_detail_ray_node)(ctx, nd, tcur, tn)
#define PROX_BVHR_WALKQUAL PROX_HD static inline
#define PROX_BVHR_DEFAULTS 1

/// Internal: a ray prepared for the traversal: the ray (tmax < tmin read
/// as tmin), its origin and reciprocal direction per axis with the slab
/// modes of prox_detail_rc_slab (0 multiply by inv, 1 zero component,
/// 2 divide by d: 1 / d overflows), the absolute slack of the node test in
/// t, and ok = 0 when nothing can be hit (a non-finite ray, a zero
/// direction).
typedef struct PROX_FN(prox_bvh_rayprep) {
  PROX_FN(prox_ray) ray;
  PROX_REAL org[3], dir[3], inv[3];
  int mode[3];
  PROX_REAL slack;
  int ok;
  PROX_FN(prox_detail_rayspace) rs; ///< ray space of prox_raycast_triangle()
  /// byte offsets in a prox_bvh_node of the 4 bounds the ray enters by
  /// (lo_x .. for a positive direction component, hi_x .. otherwise) and
  /// of those it leaves by, per axis
  uint32_t near_off[3], far_off[3];
} PROX_FN(prox_bvh_rayprep);

/// Internal: prepares a ray for the traversal of a view.
PROX_HD static inline void PROX_FN(prox_bvh_detail_rayprep)(const PROX_FN(prox_bvh_view) * v,
                                                            const PROX_FN(prox_ray) * ray,
                                                            PROX_FN(prox_bvh_rayprep) * p) {
  PROX_REAL s = v->max_abs, dm = 0;
  int a;
  p->ray = *ray;
  p->ray.tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  p->org[0] = ray->origin.x;
  p->org[1] = ray->origin.y;
  p->org[2] = ray->origin.z;
  p->dir[0] = ray->dir.x;
  p->dir[1] = ray->dir.y;
  p->dir[2] = ray->dir.z;
  for (a = 0; a < 3; ++a) {
    PROX_REAL ad = PROX_FABS(p->dir[a]);
    p->inv[a] = 1 / p->dir[a];
    p->mode[a] = PROX_FABS(p->inv[a]) <= PROX_REAL_MAX ? 0 : p->dir[a] == 0 ? 1 : 2;
    if (PROX_FABS(p->org[a]) > s) s = PROX_FABS(p->org[a]);
    p->near_off[a] = (uint32_t)(16 * a + (p->inv[a] < 0 ? 48 : 0));
    p->far_off[a] = (uint32_t)(16 * a + (p->inv[a] < 0 ? 0 : 48));
    if (ad > dm) dm = ad;
  }
  p->ok = PROX_FN(prox_detail_rc_ray_ok)(ray) &&
          PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &p->rs);
  /* +inf when S / |d| overflows: every box on the line is then visited. */
  p->slack = p->ok ? PROX_R(16.0) * PROX_EPS * (s / dm) : 0;
}

/// Internal: the triangle at position pos of a view, in the leaf of
/// `count` triangles from position `first` (its block: see
/// prox/detail/bvh_layout.h).
PROX_HD static inline PROX_FN(prox_triangle)
    PROX_FN(prox_bvh_detail_ray_tri)(const PROX_FN(prox_bvh_view) * v, uint32_t first,
                                     uint32_t count, uint32_t pos) {
  PROX_FN(prox_triangle) t;
  const PROX_REAL *b = v->tri + 9 * (size_t)first + (pos - first);
  int k;
  for (k = 0; k < 3; ++k) {
    t.v[k].x = b[(size_t)k * count];
    t.v[k].y = b[(size_t)(3 + k) * count];
    t.v[k].z = b[(size_t)(6 + k) * count];
  }
  return t;
}

/// Internal: the portable leaf test: prox_raycast_triangle() on the n
/// triangles from position first; returns the mask of those hit (bit i
/// for position first + i) with their t in ts[i] and, when bs is not
/// NULL, their barycentrics in bs[k PROX_BVH_MAX_LEAF + i] (k = 0, 1, 2).
PROX_HD static inline uint32_t
PROX_FN(prox_bvh_detail_ray_leaf)(const PROX_FN(prox_bvh_view) * v,
                                  const PROX_FN(prox_bvh_rayprep) * pr, uint32_t first, uint32_t n,
                                  PROX_REAL *ts, PROX_REAL *bs) {
  uint32_t i, mask = 0;
  for (i = 0; i < n; ++i) {
    PROX_FN(prox_triangle)
    t = PROX_FN(prox_bvh_detail_ray_tri)(v, first, n, first + i);
    PROX_FN(prox_rayhit) h;
    if (PROX_FN(prox_raycast_triangle)(&pr->ray, &t, &h)) {
      ts[i] = h.t;
      if (bs) {
        bs[i] = h.bary[0];
        bs[PROX_BVH_MAX_LEAF + i] = h.bary[1];
        bs[2 * PROX_BVH_MAX_LEAF + i] = h.bary[2];
      }
      mask |= (uint32_t)1 << i;
    }
  }
  return mask;
}

/// Internal: the portable node test (see the top of this file): the mask
/// of the node's slots whose box the ray meets within [tmin, tcur], with
/// the entry parameter (clamped to tmin) in tn[i].
PROX_HD static inline int PROX_FN(prox_bvh_detail_ray_node)(const PROX_FN(prox_bvh_rayprep) * pr,
                                                            const prox_bvh_node *nd, PROX_REAL tcur,
                                                            PROX_REAL *tn) {
  int i, a, mask = 0;
  for (i = 0; i < nd->n_child; ++i) {
    PROX_REAL L[3], H[3], en = -PROX_INF, ex = PROX_INF, lo, hi;
    L[0] = (PROX_REAL)nd->lo_x[i];
    L[1] = (PROX_REAL)nd->lo_y[i];
    L[2] = (PROX_REAL)nd->lo_z[i];
    H[0] = (PROX_REAL)nd->hi_x[i];
    H[1] = (PROX_REAL)nd->hi_y[i];
    H[2] = (PROX_REAL)nd->hi_z[i];
    for (a = 0; a < 3; ++a) {
      PROX_REAL x, y, o = pr->org[a];
      if (pr->mode[a] == 1) {
        /* Zero direction component: all of the line or none of it. */
        if (!(L[a] <= o && o <= H[a])) en = PROX_INF;
        continue;
      }
      if (pr->mode[a] == 0) {
        x = (L[a] - o) * pr->inv[a];
        y = (H[a] - o) * pr->inv[a];
      } else {
        x = (L[a] - o) / pr->dir[a];
        y = (H[a] - o) / pr->dir[a];
      }
      lo = pr->inv[a] < 0 ? y : x;
      hi = pr->inv[a] < 0 ? x : y;
      if (lo > en) en = lo;
      if (hi < ex) ex = hi;
    }
    lo = en > pr->ray.tmin ? en : pr->ray.tmin;
    hi = ex < tcur ? ex : tcur;
    tn[i] = lo;
    if (lo <= hi + PROX_R(4.0) * PROX_EPS * PROX_FABS(hi) + pr->slack && lo < PROX_INF)
      mask |= 1 << i;
  }
  return mask;
}

/// Internal: the exact sign of dot(d, (b - a) x (c - a)), by a filtered
/// floating-point evaluation and, where that is not decisive, exactly
/// (the sum of the three ray edge determinants, prox/detail/raycast.inl,
/// in expansions or, for coordinates spread beyond 2^300, in integers).
PROX_HD static inline int PROX_FN(prox_bvh_detail_ray_side)(const PROX_FN(prox_triangle) * t,
                                                            PROX_FN(prox_vec3) d) {
  PROX_FN(prox_vec3) e1 = PROX_FN(prox_vsub)(t->v[1], t->v[0]);
  PROX_FN(prox_vec3) e2 = PROX_FN(prox_vsub)(t->v[2], t->v[0]);
  PROX_REAL nx = e1.y * e2.z - e1.z * e2.y, ny = e1.z * e2.x - e1.x * e2.z,
            nz = e1.x * e2.y - e1.y * e2.x;
  PROX_REAL s = nx * d.x + ny * d.y + nz * d.z;
  /* Permanent of the same expression; 16 eps covers the roundings of the
   * differences (one each), the products and sums (Shewchuk-style bound
   * with room to spare). */
  PROX_REAL bound = PROX_R(16.0) * PROX_EPS *
                    ((PROX_FABS(e1.y * e2.z) + PROX_FABS(e1.z * e2.y)) * PROX_FABS(d.x) +
                     (PROX_FABS(e1.z * e2.x) + PROX_FABS(e1.x * e2.z)) * PROX_FABS(d.y) +
                     (PROX_FABS(e1.x * e2.y) + PROX_FABS(e1.y * e2.x)) * PROX_FABS(d.z));
  if (s > bound) return 1;
  if (s < -bound) return -1;
  {
    double dd[3], a[3], b[3], c[3], e[80], x[12];
    int n = 0, i;
    dd[0] = (double)d.x, dd[1] = (double)d.y, dd[2] = (double)d.z;
    a[0] = (double)t->v[0].x, a[1] = (double)t->v[0].y;
    a[2] = (double)t->v[0].z;
    b[0] = (double)t->v[1].x, b[1] = (double)t->v[1].y;
    b[2] = (double)t->v[1].z;
    c[0] = (double)t->v[2].x, c[1] = (double)t->v[2].y;
    c[2] = (double)t->v[2].z;
    /* ((b - a) x (c - a)) . d = [b c d] + [c a d] + [a b d]; the points
     * normalised together, d by itself (each determinant is linear in d
     * and of degree 2 in the points). */
    for (i = 0; i < 3; ++i) {
      x[i] = a[i];
      x[3 + i] = b[i];
      x[6 + i] = c[i];
      x[9 + i] = dd[i];
    }
    prox_detail_wnormalize(x, 9);
    prox_detail_wnormalize(x + 9, 3);
    if (!prox_detail_xp_in_range(x, 12, 300)) {
      /* Spread beyond 2^300: products of three could underflow; the
       * integer fallback, as prox_detail_xp_orient3d_exact. */
      double A[18], B[18], C[18];
      int S[18];
      n = prox_detail_xp_big_det3(A, B, C, S, 0, 1, x + 3, x + 6, x + 9);
      n = prox_detail_xp_big_det3(A, B, C, S, n, 1, x + 6, x, x + 9);
      n = prox_detail_xp_big_det3(A, B, C, S, n, 1, x, x + 3, x + 9);
      return prox_detail_xp_big_sign(A, B, C, S, n);
    }
    n = prox_detail_xp_det3(e, n, 1.0, x + 3, x + 6, x + 9);
    n = prox_detail_xp_det3(e, n, 1.0, x + 6, x, x + 9);
    n = prox_detail_xp_det3(e, n, 1.0, x, x + 3, x + 9);
    return prox_detail_xp_sign(e, n);
  }
}

/// Internal: fills a hit from the triangle at position pos (miss when pos
/// is PROX_BVH_NONE).
PROX_HD static inline int PROX_FN(prox_bvh_detail_ray_fill)(const PROX_FN(prox_bvh_view) * v,
                                                            const PROX_FN(prox_bvh_rayprep) * pr,
                                                            uint32_t first, uint32_t count,
                                                            uint32_t pos,
                                                            PROX_FN(prox_mesh_hit) * out) {
  PROX_FN(prox_triangle) t;
  PROX_FN(prox_rayhit) h;
  if (!out) return pos != PROX_BVH_NONE;
  if (pos != PROX_BVH_NONE) {
    t = PROX_FN(prox_bvh_detail_ray_tri)(v, first, count, pos);
    if (PROX_FN(prox_raycast_triangle)(&pr->ray, &t, &h)) {
      out->hit = 1;
      out->sign = PROX_FN(prox_bvh_detail_ray_side)(&t, pr->ray.dir);
      out->t = h.t;
      out->triangle = v->ids[pos];
      out->bary[0] = h.bary[0];
      out->bary[1] = h.bary[1];
      out->bary[2] = h.bary[2];
      out->normal = h.normal;
      return 1;
    }
  }
  out->hit = 0;
  out->sign = 0;
  out->t = PROX_NAN;
  out->triangle = PROX_BVH_NONE;
  out->bary[0] = out->bary[1] = out->bary[2] = PROX_NAN;
  out->normal = PROX_FN(prox_v3)(PROX_NAN, PROX_NAN, PROX_NAN);
  return 0;
}

/// Internal: fills a first hit from what the leaf test reported (t and
/// barycentrics of prox_raycast_triangle() on the triangle at leaf[0], in
/// the leaf of leaf[2] triangles from leaf[1]), without casting again: the
/// normal is the kernel's (prox_detail_rc_tri_normal).
PROX_HD static inline int PROX_FN(prox_bvh_detail_ray_fill_first)(
    const PROX_FN(prox_bvh_view) * v, const PROX_FN(prox_bvh_rayprep) * pr, const uint32_t *leaf,
    PROX_REAL t, const PROX_REAL *bary, PROX_FN(prox_mesh_hit) * out) {
  PROX_FN(prox_triangle) tr;
  uint32_t pos = leaf[0];
  if (pos == PROX_BVH_NONE || !out)
    return PROX_FN(prox_bvh_detail_ray_fill)(v, pr, 0, 0, PROX_BVH_NONE, out) ||
           pos != PROX_BVH_NONE;
  tr = PROX_FN(prox_bvh_detail_ray_tri)(v, leaf[1], leaf[2], pos);
  out->hit = 1;
  out->sign = PROX_FN(prox_bvh_detail_ray_side)(&tr, pr->ray.dir);
  out->t = t;
  out->triangle = v->ids[pos];
  out->bary[0] = bary[0];
  out->bary[1] = bary[1];
  out->bary[2] = bary[2];
  out->normal = PROX_FN(prox_detail_rc_tri_normal)(tr.v);
  return 1;
}
#endif /* !PROX_BVHR_CUSTOM */

/* Modes of the traversal. */
#ifndef PROX_BVHR_FIRST
/* The lowest set bit of a nonzero 4-bit mask. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define PROX_BVHR_LOW(m) __builtin_ctz((unsigned)(m))
#else
#define PROX_BVHR_LOW(m) ((m)&1 ? 0 : (m)&2 ? 1 : (m)&4 ? 2 : 3)
#endif
/* A hint to fetch a node (both cache lines) ahead of its use. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define PROX_BVHR_PREFETCH(p)                                                                      \
  (__builtin_prefetch((const void *)(p)), __builtin_prefetch((const char *)(p) + 64))
/* ... the cache line of p, and the `bytes` bytes from p (a leaf: five
 * lines spread over it, the hardware's fetch of adjacent lines fills the
 * gaps of the larger double leaves; a loop over every line cost more
 * instructions than it saved). */
#define PROX_BVHR_PREFETCH1(p) __builtin_prefetch((const void *)(p))
#define PROX_BVHR_PREFETCH_RUN(p, bytes)                                                           \
  do {                                                                                             \
    const char *q_ = (const char *)(p);                                                            \
    size_t n_ = (bytes)-1;                                                                         \
    __builtin_prefetch(q_);                                                                        \
    __builtin_prefetch(q_ + n_ / 4);                                                               \
    __builtin_prefetch(q_ + n_ / 2);                                                               \
    __builtin_prefetch(q_ + n_ / 4 * 3);                                                           \
    __builtin_prefetch(q_ + n_);                                                                   \
  } while (0)
#else
#define PROX_BVHR_PREFETCH(p) ((void)0)
#define PROX_BVHR_PREFETCH1(p) ((void)0)
#define PROX_BVHR_PREFETCH_RUN(p, bytes) ((void)0)
#endif
/* Lowest set bit of a nonzero leaf mask (up to PROX_BVH_MAX_LEAF bits). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define PROX_BVHR_LOW32(m) __builtin_ctz((unsigned)(m))
#else
#define PROX_BVHR_LOW32(m) prox_bvh_detail_ray_low32(m)
PROX_HD static inline int prox_bvh_detail_ray_low32(uint32_t m) {
  int i = 0;
  while (!(m & 1)) {
    m >>= 1;
    ++i;
  }
  return i;
}
#endif
#define PROX_BVHR_FIRST 0 /* nearest hit, ties to the lowest id */
#define PROX_BVHR_ANY 1   /* any hit, stop at the first found */
#define PROX_BVHR_COUNT 2 /* every hit: count and signed sum */
#define PROX_BVHR_ALL 3   /* every hit into a buffer, kept in (t, id) order */
/* The slots of a node that hold leaves (count != 0) as a 4-bit mask, from
 * the four counts as one word: adding 0x7f to a byte sets its top bit
 * exactly when the byte is nonzero (counts are at most PROX_BVH_MAX_LEAF,
 * so no carry crosses a byte), and the product gathers the four top bits
 * into bits 24..27 (its partial products never overlap). */
#define PROX_BVHR_LEAVES(nd) prox_bvh_detail_ray_leaves(nd)
PROX_HD static inline int prox_bvh_detail_ray_leaves(const prox_bvh_node *nd) {
  uint32_t w = (uint32_t)nd->count[0] | (uint32_t)nd->count[1] << 8 | (uint32_t)nd->count[2] << 16 |
               (uint32_t)nd->count[3] << 24;
  w = ((w + 0x7f7f7f7fu) & 0x80808080u) >> 7;
  return (int)((w * 0x01020408u) >> 24);
}
#endif

#ifndef PROX_BVHR_CUSTOM
/// Internal: one leaf of the traversal (positions first .. first + n - 1)
/// in mode FIRST, COUNT or ALL (see prox_bvh_detail_ray_trav): updates the
/// best hit, the totals and the kept hits. ts: the leaf test's t values,
/// m its mask.
PROX_HD static inline void PROX_FN(prox_bvh_detail_ray_take)(
    const PROX_FN(prox_bvh_view) * v, const PROX_FN(prox_bvh_rayprep) * pr, int mode,
    uint32_t first, uint32_t count, uint32_t m, const PROX_REAL *ts, const PROX_REAL *bs,
    PROX_REAL *best, PROX_REAL *bbary, uint32_t *bpos, uint32_t *bid, size_t *total, size_t *kept,
    long *wsum, PROX_FN(prox_mesh_hit) * hits, size_t cap) {
  uint32_t i;
  for (i = 0; m; ++i, m >>= 1) {
    uint32_t pos = first + i, id;
    PROX_FN(prox_triangle) t;
    if (!(m & 1)) continue;
    if (mode == PROX_BVHR_FIRST) {
      /* The ids are read only for a tie in t (*bid: the best's id, or
       * PROX_BVH_NONE while it has not been needed). */
      int take = ts[i] < *best;
      if (!take && ts[i] == *best) {
        if (*bid == PROX_BVH_NONE) *bid = v->ids[bpos[0]];
        id = v->ids[pos];
        take = id < *bid;
        if (take) *bid = id;
      } else if (take) {
        *bid = PROX_BVH_NONE;
        /* The answer reads it at the end. */
        PROX_BVHR_PREFETCH1(v->ids + pos);
      }
      if (take) {
        *best = ts[i];
        bbary[0] = bs[i];
        bbary[1] = bs[PROX_BVH_MAX_LEAF + i];
        bbary[2] = bs[2 * PROX_BVH_MAX_LEAF + i];
        bpos[0] = pos;
        bpos[1] = first;
        bpos[2] = count;
      }
      continue;
    }
    ++*total;
    t = PROX_FN(prox_bvh_detail_ray_tri)(v, first, count, pos);
    *wsum += PROX_FN(prox_bvh_detail_ray_side)(&t, pr->ray.dir);
    if (mode == PROX_BVHR_ALL && cap > 0) {
      /* Insertion into the kept hits, ordered by (t, id); the last falls
       * off when the buffer is full. */
      size_t j;
      PROX_REAL tt = ts[i];
      id = v->ids[pos];
      if (*kept == cap &&
          !(tt < hits[cap - 1].t || (tt == hits[cap - 1].t && id < hits[cap - 1].triangle)))
        continue;
      j = *kept < cap ? (*kept)++ : cap - 1;
      while (j > 0 && (hits[j - 1].t > tt || (hits[j - 1].t == tt && hits[j - 1].triangle > id))) {
        hits[j] = hits[j - 1];
        --j;
      }
      PROX_FN(prox_bvh_detail_ray_fill)(v, pr, first, count, pos, &hits[j]);
    }
  }
}

#endif /* !PROX_BVHR_CUSTOM */

/// Internal: the traversal of prox_bvh_detail_ray_trav() for one mode (a
/// constant where it is inlined, so that each mode gets its own loop).
PROX_BVHR_WALKQUAL size_t PROX_BVHR_NAME(prox_bvh_detail_ray_walk)(
    const PROX_FN(prox_bvh_view) * v, const PROX_FN(prox_bvh_rayprep) * pr, int mode,
    uint32_t *best_pos, PROX_REAL *best_out, long *winding, PROX_FN(prox_mesh_hit) * hits,
    size_t cap) {
  uint32_t st_node[PROX_BVH_STACK];
  PROX_REAL st_t[PROX_BVH_STACK];
  PROX_REAL ts[PROX_BVH_MAX_LEAF], bs[3 * PROX_BVH_MAX_LEAF];
  PROX_REAL bbary[3] = {0, 0, 0};
  PROX_REAL tcur = pr->ray.tmax, best = PROX_INF, tlim;
  uint32_t bpos[3] = {PROX_BVH_NONE, 0, 0}, bid = PROX_BVH_NONE, node = 0;
  size_t total = 0, kept = 0;
  long wsum = 0;
  int top = 0, sorted = mode == PROX_BVHR_FIRST || mode == PROX_BVHR_ANY;
  PROX_BVHR_CTX(pr, ctx);
  /* FIRST: a box entered at tn (clamped to tmin) may hold a hit that beats
   * the best so far while tn <= tlim, the node test's bound at tcur. */
  tlim = tcur + PROX_R(4.0) * PROX_EPS * PROX_FABS(tcur) + pr->slack;
  for (;;) {
    const prox_bvh_node *nd = v->nodes + node;
    PROX_REAL tn[4];
    int mask, i, leaves = PROX_BVHR_LEAVES(nd);
    /* Every child is fetched while the node is tested: the next node and
     * leaves are among them (or are popped later), and a tree larger than
     * the caches would otherwise wait for each in turn. */
    for (i = 0; i < 4; ++i)
      if (leaves >> i & 1) {
        PROX_BVHR_PREFETCH_RUN(v->tri + 9 * (size_t)nd->child[i],
                               9 * (size_t)nd->count[i] * sizeof(PROX_REAL));
        if (mode == PROX_BVHR_FIRST) PROX_BVHR_PREFETCH1(v->ids + nd->child[i]);
      } else if (nd->child[i] != PROX_BVH_NONE)
        PROX_BVHR_PREFETCH(v->nodes + nd->child[i]);
    mask = PROX_BVHR_NODE(ctx, nd, tcur, tn);
    if (mask) {
      int lmask = leaves & mask, imask = mask & ~lmask, c;
      if (lmask) {
        /* Leaves now, nearest first (they lower tcur for the rest). */
        do {
          uint32_t lm;
          c = PROX_BVHR_LOW(lmask);
          if (sorted && (lmask & (lmask - 1)))
            for (i = c + 1; i < 4; ++i)
              if ((lmask >> i & 1) && tn[i] < tn[c]) c = i;
          lmask &= ~(1 << c);
          if (mode == PROX_BVHR_FIRST && !(tn[c] <= tlim)) continue;
          lm = PROX_BVHR_LEAF(v, pr, nd->child[c], nd->count[c], ts,
                              mode == PROX_BVHR_FIRST ? bs : NULL);
          if (!lm) continue;
          if (mode == PROX_BVHR_ANY) {
            best_pos[0] = nd->child[c] + (uint32_t)PROX_BVHR_LOW32(lm);
            best_pos[1] = nd->child[c];
            best_pos[2] = nd->count[c];
            return 1;
          }
          PROX_FN(prox_bvh_detail_ray_take)
          (v, pr, mode, nd->child[c], nd->count[c], lm, ts, bs, &best, bbary, bpos, &bid, &total,
           &kept, &wsum, hits, cap);
          if (mode == PROX_BVHR_FIRST && best < tcur) {
            tcur = best;
            tlim = tcur + PROX_R(4.0) * PROX_EPS * PROX_FABS(tcur) + pr->slack;
          }
        } while (lmask);
      }
      /* Inner children: the nearest next, the others pushed farthest first
       * (ties in tn: the higher slot is the nearer; COUNT and ALL: slot
       * order). */
      if (imask) {
        int rest = imask & (imask - 1);
        c = PROX_BVHR_LOW(imask);
        if (rest && !(rest & (rest - 1))) {
          /* Two: the usual case after one. */
          int d = PROX_BVHR_LOW(rest);
          if (!(sorted && tn[c] < tn[d])) {
            int e = c;
            c = d;
            d = e;
          }
          st_node[top] = nd->child[d];
          st_t[top] = tn[d];
          ++top;
        } else if (rest) {
          int order[4], m = 0, j;
          for (i = c; i < 4; ++i) {
            if (!(imask >> i & 1)) continue;
            j = m;
            if (sorted)
              for (; j > 0 && tn[order[j - 1]] < tn[i]; --j)
                order[j] = order[j - 1];
            order[j] = i;
            ++m;
          }
          /* order: farthest first; the last is the nearest */
          for (j = 0; j < m - 1; ++j) {
            st_node[top] = nd->child[order[j]];
            st_t[top] = tn[order[j]];
            ++top;
          }
          c = order[m - 1];
        }
        if (mode != PROX_BVHR_FIRST || tn[c] <= tlim) {
          node = nd->child[c];
          continue;
        }
      }
    }
    /* Pop, skipping what the first hit has since ruled out. */
    for (;;) {
      if (top == 0) goto done;
      --top;
      if (mode != PROX_BVHR_FIRST || st_t[top] <= tlim) {
        node = st_node[top];
        break;
      }
    }
  }
done:
  if (winding) *winding = wsum;
  if (mode == PROX_BVHR_FIRST) {
    best_pos[0] = bpos[0];
    best_pos[1] = bpos[1];
    best_pos[2] = bpos[2];
    if (best_out && bpos[0] != PROX_BVH_NONE) {
      best_out[0] = best;
      best_out[1] = bbary[0];
      best_out[2] = bbary[1];
      best_out[3] = bbary[2];
    }
    return bpos[0] != PROX_BVH_NONE;
  }
  if (mode == PROX_BVHR_ANY) return 0;
  return total;
}

/// Internal: the traversal. best_pos: 3 entries, a position and the first
/// position and size of its leaf. mode FIRST: returns 1 when something is
/// hit, the nearest hit (ties: lowest id) in best_pos; ANY: returns 1 at
/// the first hit found (in best_pos); COUNT:
/// returns the number of hits and their signed sum in *winding (may be
/// NULL); ALL: also writes the first `cap` hits in (t, id) order to hits[]
/// (fully filled) and returns the total. The ray must be prepared (ok
/// set). FIRST also gives the hit's t and barycentrics in best[0..3] (t,
/// then the three barycentrics) when best is not NULL. Leaves are tested as
/// soon as their node is (nearest first), inner children visited nearest first
/// (FIRST and ANY), the others kept on a stack of PROX_BVH_STACK entries (at
/// most 3 per level: never overflows).
PROX_BVHR_QUAL size_t PROX_BVHR_NAME(prox_bvh_detail_ray_trav)(const PROX_FN(prox_bvh_view) * v,
                                                               const PROX_FN(prox_bvh_rayprep) * pr,
                                                               int mode, uint32_t *best_pos,
                                                               PROX_REAL *best_out, long *winding,
                                                               PROX_FN(prox_mesh_hit) * hits,
                                                               size_t cap) {
  switch (mode) {
  case PROX_BVHR_FIRST:
    return PROX_BVHR_NAME(prox_bvh_detail_ray_walk)(v, pr, PROX_BVHR_FIRST, best_pos, best_out,
                                                    winding, hits, cap);
  case PROX_BVHR_ANY:
    return PROX_BVHR_NAME(prox_bvh_detail_ray_walk)(v, pr, PROX_BVHR_ANY, best_pos, best_out,
                                                    winding, hits, cap);
  case PROX_BVHR_COUNT:
    return PROX_BVHR_NAME(prox_bvh_detail_ray_walk)(v, pr, PROX_BVHR_COUNT, best_pos, best_out,
                                                    winding, hits, cap);
  default:
    return PROX_BVHR_NAME(prox_bvh_detail_ray_walk)(v, pr, PROX_BVHR_ALL, best_pos, best_out,
                                                    winding, hits, cap);
  }
}

#if defined(PROX_BVHR_DEFAULTS)
/* The header-only ray queries on a view, declared with their contracts in
 * prox/bvh_ray.h. */
PROX_HD static inline int PROX_FN(prox_bvh_view_raycast)(const PROX_FN(prox_bvh_view) * v,
                                                         const PROX_FN(prox_ray) * ray,
                                                         PROX_FN(prox_mesh_hit) * out) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_REAL b[4] = {0, 0, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  if (pr.ok) PROX_FN(prox_bvh_detail_ray_trav)
  (v, &pr, PROX_BVHR_FIRST, pos, b, NULL, NULL, 0);
  return PROX_FN(prox_bvh_detail_ray_fill_first)(v, &pr, pos, b[0], b + 1, out);
}

PROX_HD static inline int PROX_FN(prox_bvh_view_occluded)(const PROX_FN(prox_bvh_view) * v,
                                                          const PROX_FN(prox_ray) * ray) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  if (!pr.ok) return 0;
  return (int)PROX_FN(prox_bvh_detail_ray_trav)(v, &pr, PROX_BVHR_ANY, pos, NULL, NULL, NULL, 0);
}

PROX_HD static inline size_t PROX_FN(prox_bvh_view_ray_count)(const PROX_FN(prox_bvh_view) * v,
                                                              const PROX_FN(prox_ray) * ray,
                                                              long *winding) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  if (winding) *winding = 0;
  if (!pr.ok) return 0;
  return PROX_FN(prox_bvh_detail_ray_trav)(v, &pr, PROX_BVHR_COUNT, pos, NULL, winding, NULL, 0);
}

PROX_HD static inline size_t PROX_FN(prox_bvh_view_ray_all)(const PROX_FN(prox_bvh_view) * v,
                                                            const PROX_FN(prox_ray) * ray,
                                                            PROX_FN(prox_mesh_hit) * hits,
                                                            size_t capacity) {
  PROX_FN(prox_bvh_rayprep) pr;
  uint32_t pos[3] = {PROX_BVH_NONE, 0, 0};
  PROX_FN(prox_bvh_detail_rayprep)(v, ray, &pr);
  if (!pr.ok) return 0;
  return PROX_FN(prox_bvh_detail_ray_trav)(v, &pr, PROX_BVHR_ALL, pos, NULL, NULL, hits, capacity);
}
#endif

#undef PROX_BVHR_NAME
#undef PROX_BVHR_QUAL
#undef PROX_BVHR_LEAF
#undef PROX_BVHR_NODE
#undef PROX_BVHR_CTX
#undef PROX_BVHR_WALKQUAL
#undef PROX_BVHR_DEFAULTS
