/* SPDX-License-Identifier: MIT */
/* The topology of a mesh (prox/topology.h): edges by a radix sort of the
 * triangles' sides, non-manifold vertices and components by union-find,
 * duplicates by sorting index triples, zero area by exact orientation. */
#include <prox/raycast.h> /* the exact orientation (prox_detail_xp_*) */
#include <prox/topology.h>

#include "mesh_internal.h"

#include <stdlib.h>
#include <string.h>

/* A side of a triangle: its unordered vertex pair as the key (lo << 32 |
 * hi) and the corner it starts from as the value (3 t + k: from vertex k
 * to vertex k + 1). */
typedef prox_mesh_detail_kv topo_side;

/* Union-find with path halving; the smaller index becomes the root, so a
 * root is the lowest element of its set. */
static uint32_t topo_find(uint32_t *p, uint32_t x) {
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}
static void topo_union(uint32_t *p, uint32_t a, uint32_t b) {
  a = topo_find(p, a);
  b = topo_find(p, b);
  if (a < b)
    p[b] = a;
  else if (b < a)
    p[a] = b;
}

typedef struct topo_triple {
  uint32_t v[3];
  uint32_t t;
} topo_triple;

static int topo_triple_cmp(const void *pa, const void *pb) {
  const topo_triple *a = (const topo_triple *)pa, *b = (const topo_triple *)pb;
  int k;
  for (k = 0; k < 3; ++k)
    if (a->v[k] != b->v[k]) return a->v[k] < b->v[k] ? -1 : 1;
  return a->t < b->t ? -1 : a->t > b->t;
}

/* Exactly zero area: a, b, c collinear. The three projections' orientations
 * are all zero exactly then; a filter (Shewchuk's orient2d bound, with an
 * absolute term for underflow) decides most triangles without the exact
 * expansion arithmetic. */
static int topo_proj_zero(const double *a, const double *b, const double *c, int i, int j) {
  double l = (a[i] - c[i]) * (b[j] - c[j]);
  double r = (a[j] - c[j]) * (b[i] - c[i]);
  double det = l - r;
  double bound = (3.0 + 16.0 * DBL_EPSILON) * DBL_EPSILON * (fabs(l) + fabs(r));
  if (fabs(det) > bound + 4.0 * DBL_MIN) return 0;
  return prox_detail_xp_orient2d_exact(a[i], a[j], b[i], b[j], c[i], c[j]) == 0;
}
static int topo_zero_area(const double *a, const double *b, const double *c) {
  return topo_proj_zero(a, b, c, 0, 1) && topo_proj_zero(a, b, c, 1, 2) &&
         topo_proj_zero(a, b, c, 2, 0);
}

/* The combinatorial part, shared by both precisions: idx has 3 n indices;
 * zero[t] is 1 for a zero-area triangle (computed by the caller). */
static prox_status topo_build(const uint32_t *idx, uint32_t nv, uint32_t nt, uint8_t *zero,
                              const prox_allocator *alloc, prox_mesh_topology **out,
                              prox_error *err);

typedef struct topo_block {
  prox_mesh_topology topo;
  prox_allocator alloc;
  int has_alloc;
  size_t bytes;
} topo_block;

static prox_status topo_oom(prox_error *err) {
  return prox_mesh_detail_error(err, PROX_ERROR_OUT_OF_MEMORY,
                                "out of memory computing the mesh topology");
}

#define TOPO_ALIGN(x) (((x) + 63) & ~(size_t)63)

static prox_status topo_build(const uint32_t *idx, uint32_t nv, uint32_t nt, uint8_t *zero,
                              const prox_allocator *alloc, prox_mesh_topology **out,
                              prox_error *err) {
  size_t nside = 0, ns, i, ne = 0, nc;
  topo_side *side = NULL, *tmp = NULL, *sorted;
  uint32_t *parent = NULL, *tparent = NULL;
  topo_triple *trip = NULL;
  uint8_t *flags = NULL;
  topo_block *blk = NULL;
  prox_mesh_topology *tp;
  size_t off_edges, off_offs, off_etri, off_tedge, off_tcomp, off_tflag, off_vnm, total;
  int bits = 0;
  prox_status st = PROX_OK;
  uint32_t t;

  if ((uint64_t)nt * 3u > 0xfffffff0u)
    return prox_mesh_detail_error(
        err, PROX_ERROR_INVALID_MESH,
        "mesh topology: %lu triangles is more than it supports (1431655760)", (unsigned long)nt);
  nc = (size_t)nt * 3;
  while (bits < 64 && nv > 0 && ((uint64_t)(nv - 1) >> (bits / 2)) != 0)
    bits += 2;
  /* keys are lo << 32 | hi: sort the low word's bits, then the high's. */
  side =
      (topo_side *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(nc ? nc : 1, sizeof *side));
  tmp = (topo_side *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(nc ? nc : 1, sizeof *tmp));
  parent =
      (uint32_t *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(nc ? nc : 1, sizeof *parent));
  tparent =
      (uint32_t *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(nt ? nt : 1, sizeof *tparent));
  trip =
      (topo_triple *)prox_mesh_detail_alloc(alloc, prox_mesh_detail_mul(nt ? nt : 1, sizeof *trip));
  flags = (uint8_t *)prox_mesh_detail_alloc(alloc, nt ? nt : 1);
  if (!side || !tmp || !parent || !tparent || !trip || !flags) {
    st = topo_oom(err);
    goto done;
  }

  /* Flags: collapsed, zero area; the sides of the others. */
  for (t = 0; t < nt; ++t) {
    const uint32_t *v = idx + 3 * (size_t)t;
    int k;
    flags[t] = zero[t] ? PROX_TRIANGLE_ZERO_AREA : 0;
    if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) {
      flags[t] |= PROX_TRIANGLE_COLLAPSED | PROX_TRIANGLE_ZERO_AREA;
      continue;
    }
    for (k = 0; k < 3; ++k) {
      uint32_t a = v[k], b = v[(k + 1) % 3];
      uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
      side[nside].key = ((uint64_t)lo << 32) | hi;
      side[nside].val = 3 * t + (uint32_t)k;
      side[nside].pad = 0;
      ++nside;
    }
  }
  ns = nside;
  {
    /* Sort by hi (low word) then by lo (high word): two radix passes over
     * the significant bits of each word, as one 64-bit key whose middle
     * zero bits are skipped by shifting the lo word down first. */
    int half = bits / 2;
    for (i = 0; i < ns; ++i) {
      uint64_t lo = side[i].key >> 32, hi = side[i].key & 0xffffffffu;
      side[i].key = (lo << half) | hi;
    }
    sorted = prox_mesh_detail_radix(side, tmp, ns, 2 * half);
    for (i = 0; i < ns; ++i) {
      uint64_t hi = sorted[i].key & (((uint64_t)1 << half) - 1);
      uint64_t lo = half ? sorted[i].key >> half : 0;
      sorted[i].key = (lo << 32) | hi;
    }
  }
  for (i = 0; i < ns; ++i)
    if (i == 0 || sorted[i].key != sorted[i - 1].key) ++ne;

  /* One block for the structure and its arrays. */
  off_edges = TOPO_ALIGN(sizeof(topo_block));
  off_offs = off_edges + TOPO_ALIGN(2 * ne * sizeof(uint32_t));
  off_etri = off_offs + TOPO_ALIGN((ne + 1) * sizeof(uint32_t));
  off_tedge = off_etri + TOPO_ALIGN(ns * sizeof(uint32_t));
  off_tcomp = off_tedge + TOPO_ALIGN(nc * sizeof(uint32_t));
  off_tflag = off_tcomp + TOPO_ALIGN((size_t)nt * sizeof(uint32_t));
  off_vnm = off_tflag + TOPO_ALIGN(nt);
  total = off_vnm + TOPO_ALIGN(nv);
  blk = (topo_block *)prox_mesh_detail_alloc(alloc, total);
  if (!blk) {
    st = topo_oom(err);
    goto done;
  }
  memset(blk, 0, sizeof *blk);
  if (alloc) {
    blk->alloc = *alloc;
    blk->has_alloc = 1;
  }
  blk->bytes = total;
  tp = &blk->topo;
  {
    char *base = (char *)blk;
    uint32_t *ev = (uint32_t *)(base + off_edges);
    uint32_t *eo = (uint32_t *)(base + off_offs);
    uint32_t *et = (uint32_t *)(base + off_etri);
    uint32_t *te = (uint32_t *)(base + off_tedge);
    uint32_t *tc = (uint32_t *)(base + off_tcomp);
    uint8_t *tf = (uint8_t *)(base + off_tflag);
    uint8_t *vn = (uint8_t *)(base + off_vnm);
    size_t e = 0, j;
    uint32_t comps = 0, refd = 0;

    for (i = 0; i < nc; ++i) {
      te[i] = PROX_TOPOLOGY_NONE;
      parent[i] = (uint32_t)i;
    }
    for (t = 0; t < nt; ++t)
      tparent[t] = t;
    memset(vn, 0, nv);

    /* Edges, their triangles, and the unions across them. */
    for (i = 0; i < ns; i = j) {
      uint32_t lo = (uint32_t)(sorted[i].key >> 32);
      uint32_t hi = (uint32_t)(sorted[i].key & 0xffffffffu);
      size_t m;
      for (j = i + 1; j < ns && sorted[j].key == sorted[i].key; ++j) {
      }
      m = j - i;
      ev[2 * e] = lo;
      ev[2 * e + 1] = hi;
      eo[e] = (uint32_t)i;
      for (size_t q = i; q < j; ++q) {
        uint32_t c = sorted[q].val, tri = c / 3, k = c % 3;
        uint32_t ca = 3 * tri + (idx[c] == lo ? k : (k + 1) % 3);
        uint32_t cb = 3 * tri + (idx[c] == hi ? k : (k + 1) % 3);
        et[q] = tri;
        te[c] = (uint32_t)e;
        if (q > i) {
          uint32_t c0 = sorted[i].val, t0 = c0 / 3, k0 = c0 % 3;
          uint32_t a0 = 3 * t0 + (idx[c0] == lo ? k0 : (k0 + 1) % 3);
          uint32_t b0 = 3 * t0 + (idx[c0] == hi ? k0 : (k0 + 1) % 3);
          topo_union(parent, a0, ca);
          topo_union(parent, b0, cb);
          topo_union(tparent, t0, tri);
        }
      }
      if (m == 1) ++tp->boundary_edges;
      if (m >= 3) ++tp->nonmanifold_edges;
      if (m == 2) {
        /* Same direction when both sides start at the same vertex. */
        if (idx[sorted[i].val] == idx[sorted[i + 1].val]) ++tp->inconsistent_edges;
      }
      ++e;
    }
    eo[ne] = (uint32_t)ns;
    /* Edge triangles are in corner order, so in triangle order already
     * (the sort is stable and the sides were made in triangle order). */

    /* Referenced vertices, then non-manifold ones: more than one group of
     * corners. */
    for (i = 0; i < nc; ++i) {
      uint32_t tri = (uint32_t)(i / 3);
      if (flags[tri] & PROX_TRIANGLE_COLLAPSED) continue;
      if (!vn[idx[i]]) vn[idx[i]] = 1; /* referenced */
    }
    for (i = 0; i < nv; ++i)
      if (vn[i]) ++refd;
    /* vn: 0 unreferenced, 1 one group seen, 2 non-manifold. A corner that
     * is its own root starts a group; a vertex with two such corners is
     * non-manifold. Reuse vn as a state machine: 1 -> 3 on the first root,
     * 3 -> 2 on a second. */
    for (i = 0; i < nc; ++i) {
      uint32_t tri = (uint32_t)(i / 3), v = idx[i];
      if (flags[tri] & PROX_TRIANGLE_COLLAPSED) continue;
      if (topo_find(parent, (uint32_t)i) != i) continue;
      if (vn[v] == 1)
        vn[v] = 3;
      else if (vn[v] == 3)
        vn[v] = 2;
    }
    for (i = 0; i < nv; ++i) {
      if (vn[i] == 2) {
        vn[i] = 1;
        ++tp->nonmanifold_vertices;
      } else {
        vn[i] = 0;
      }
    }

    /* Components, numbered by their lowest triangle. */
    for (t = 0; t < nt; ++t) {
      if (flags[t] & PROX_TRIANGLE_COLLAPSED) {
        tc[t] = PROX_TOPOLOGY_NONE;
        continue;
      }
      if (topo_find(tparent, t) == t)
        tc[t] = comps++;
      else
        tc[t] = tc[topo_find(tparent, t)];
    }

    /* Duplicates: sorted index triples, the later ones of equal runs. */
    for (t = 0; t < nt; ++t) {
      uint32_t a = idx[3 * (size_t)t], b = idx[3 * (size_t)t + 1], c = idx[3 * (size_t)t + 2], s;
      if (a > b) s = a, a = b, b = s;
      if (b > c) s = b, b = c, c = s;
      if (a > b) s = a, a = b, b = s;
      trip[t].v[0] = a;
      trip[t].v[1] = b;
      trip[t].v[2] = c;
      trip[t].t = t;
    }
    qsort(trip, nt, sizeof *trip, topo_triple_cmp);
    for (t = 1; t < nt; ++t)
      if (memcmp(trip[t].v, trip[t - 1].v, sizeof trip[t].v) == 0)
        flags[trip[t].t] |= PROX_TRIANGLE_DUPLICATE;

    for (t = 0; t < nt; ++t) {
      tf[t] = flags[t];
      if (flags[t] & PROX_TRIANGLE_COLLAPSED) ++tp->collapsed_triangles;
      if (flags[t] & PROX_TRIANGLE_ZERO_AREA) ++tp->zero_area_triangles;
      if (flags[t] & PROX_TRIANGLE_DUPLICATE) ++tp->duplicate_triangles;
    }

    tp->vertex_count = nv;
    tp->triangle_count = nt;
    tp->referenced_vertices = refd;
    tp->edge_count = (uint32_t)ne;
    tp->components = comps;
    tp->euler = (int64_t)refd - (int64_t)ne + (int64_t)(nt - tp->collapsed_triangles);
    tp->closed =
        nt > tp->collapsed_triangles && tp->boundary_edges == 0 && tp->nonmanifold_edges == 0;
    tp->manifold = tp->nonmanifold_edges == 0 && tp->nonmanifold_vertices == 0;
    tp->oriented = tp->inconsistent_edges == 0;
    tp->edge_vertices = ev;
    tp->edge_offsets = eo;
    tp->edge_triangles = et;
    tp->triangle_edges = te;
    tp->triangle_component = tc;
    tp->triangle_flags = tf;
    tp->vertex_nonmanifold = vn;
  }
  *out = tp;
  prox_mesh_detail_ok(err);

done:
  prox_mesh_detail_free(alloc, side, prox_mesh_detail_mul(nc ? nc : 1, sizeof *side));
  prox_mesh_detail_free(alloc, tmp, prox_mesh_detail_mul(nc ? nc : 1, sizeof *tmp));
  prox_mesh_detail_free(alloc, parent, prox_mesh_detail_mul(nc ? nc : 1, sizeof *parent));
  prox_mesh_detail_free(alloc, tparent, prox_mesh_detail_mul(nt ? nt : 1, sizeof *tparent));
  prox_mesh_detail_free(alloc, trip, prox_mesh_detail_mul(nt ? nt : 1, sizeof *trip));
  prox_mesh_detail_free(alloc, flags, nt ? nt : 1);
  return st;
}

void prox_mesh_topology_free(prox_mesh_topology *topology) {
  topo_block *blk = (topo_block *)topology; /* topo is the first member */
  prox_allocator a;
  int has;
  if (!topology) return;
  a = blk->alloc;
  has = blk->has_alloc;
  prox_mesh_detail_free(has ? &a : NULL, blk, blk->bytes);
}

#define TOPO_ENTRY(NAME, MESH, VALIDATE, VERTEX)                                                   \
  prox_status NAME(const MESH *mesh, const prox_allocator *alloc, prox_mesh_topology **out,        \
                   prox_error *err) {                                                              \
    prox_status st;                                                                                \
    uint8_t *zero;                                                                                 \
    uint32_t t, nt;                                                                                \
    if (out) *out = NULL;                                                                          \
    if (!mesh || !out)                                                                             \
      return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,                              \
                                    "mesh topology: NULL mesh or output");                         \
    st = VALIDATE(mesh, err);                                                                      \
    if (st != PROX_OK) return st;                                                                  \
    nt = (uint32_t)mesh->triangle_count;                                                           \
    zero = (uint8_t *)prox_mesh_detail_alloc(alloc, nt);                                           \
    if (!zero) return topo_oom(err);                                                               \
    for (t = 0; t < nt; ++t) {                                                                     \
      double p[3][3];                                                                              \
      int k;                                                                                       \
      for (k = 0; k < 3; ++k) {                                                                    \
        uint32_t v = mesh->indices[3 * (size_t)t + (size_t)k];                                     \
        p[k][0] = (double)VERTEX(mesh, v).x;                                                       \
        p[k][1] = (double)VERTEX(mesh, v).y;                                                       \
        p[k][2] = (double)VERTEX(mesh, v).z;                                                       \
      }                                                                                            \
      zero[t] = (uint8_t)topo_zero_area(p[0], p[1], p[2]);                                         \
    }                                                                                              \
    st = topo_build(mesh->indices, (uint32_t)mesh->vertex_count, nt, zero, alloc, out, err);       \
    prox_mesh_detail_free(alloc, zero, nt);                                                        \
    return st;                                                                                     \
  }

TOPO_ENTRY(prox_mesh_topology_build, prox_mesh, prox_mesh_validate, prox_mesh_vertex)
TOPO_ENTRY(prox_mesh_topology_buildf, prox_meshf, prox_mesh_validatef, prox_mesh_vertexf)
