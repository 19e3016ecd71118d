/* SPDX-License-Identifier: MIT */
/* Template of src/mesh/sign.c, once per precision: the signed-distance
 * object, pseudo-normals, crossing counts through the tree, hierarchical
 * winding numbers, batches and grids. */

#define SDF PROX_FN(prox_sdf)
#define SDF_V3 PROX_FN(prox_vec3)
#define SDF_MC PROX_FN(prox_mesh_closest)
#define SDF_RES PROX_FN(prox_signed)
#define SDF_FN(name) PROX_FN(sdf_##name)

struct PROX_FN(prox_sdf) {
  prox_allocator alloc;
  int has_alloc;
  size_t bytes; /* of this block, arrays included */
  const PROX_FN(prox_bvh) * bvh;
  PROX_FN(prox_bvh_view) view;
  int method;
  double accuracy, tolerance;
  uint32_t nt, nv, ne;
  /* Per triangle, edge and vertex, one record each (a cache line for a
   * triangle, half one for the others; the edges' and vertices' only
   * during the build), and per tree position the record the sign after a
   * closest point reads (rec: one line, fetched by the walk when its
   * triangle becomes the nearest). tri[t].bad: zero area, a normal too
   * ill-conditioned, or (AUTO on a mesh that meets itself or whose
   * components' boxes overlap) a triangle that meets another or whose front
   * is not outside (winding number 0): its pseudo-normal sign would be
   * wrong or unsure, the exact count decides. eflag[e], vflag[v]: a
   * triangle there has bad, or a fold. Normals: the triangle's unit normal
   * (0 for zero area), the sum of an edge's triangles' unit normals and the
   * angle-weighted sum at a vertex, both made unit length. */
  sdf_trec *tri;
  sdf_frec *edge, *vert;  /* normals, during the build until rec is filled */
  uint8_t *eflag, *vflag; /* flags, during the build */
  sdf_prec *rec;          /* rec[pos]: the triangle at tree position pos (PSEUDONORMAL only) */
  double *mom;            /* 8 per node slot (WINDING only): N, c, r, area */
  /* The frame of mom: coordinates times 2^-mexp (exact), mexp the exponent
   * of the box's longest side, so that the areas and the far field's
   * products neither overflow nor underflow at any scale of the domain
   * (and the moments are those of the mesh scaled to about 1, bit for
   * bit, whatever its scale). */
  int mexp;
  double mscale; /* 2^-mexp where it is a normal number, else 0 (ldexp) */
  /* WINDING at infinite accuracy: the boundary of the mesh as a chain, 7
   * per edge (its two ends, then its multiplicity: the times the triangles
   * go along it one way minus the other way), nbnd edges. */
  double *bnd;
  size_t nbnd;
  /* AUTO's WINDING on a mesh with a boundary of few edges (capped): each
   * loop of the boundary (caps_build) closed by triangles between its
   * vertices: the caps C, whose boundary is the mesh's. The mesh less C
   * is a cycle, so w = (its signed crossing count, exact: the inside grid
   * over the mesh and the caps reversed) + (C's winding number, from its
   * own small tree at the accuracy). cap: ncap caps of 9 (a, b, c);
   * capn: their tree, root caproot; capv: 3 per cap, the vertex indices of
   * a, b and c. One block of cap_bytes. The inside grid's triangles are the
   * mesh's, then the caps (grid_nt). */
  double *cap;
  sdf_capnode *capn;
  uint32_t *capv, caproot;
  size_t ncap, cap_bytes;
  double lo[3], hi[3], diag;
  /* The inside grid (closed, oriented meshes under PSEUDONORMAL or
   * CROSSINGS; NULL otherwise): gn[0] x gn[1] x gn[2] cubes of side gh from
   * glo, cell (i, j, k) at (k gn[1] + j) gn[0] + i. cell_w: the winding
   * number of a cell whose box, widened by gpad, meets no triangle (the
   * same everywhere in it), or for the others (SDF_IS_SURF) which face
   * neighbours have a number. One block of grid_bytes: cell_w, rank, gv,
   * gtv. The others by rank r (sdf_rank_of; surf_bytes): surf_to[r], the
   * nearest cell of known number (steps across faces) or SDF_NOCELL;
   * cell_tris[surf_off[r] .. surf_off[r + 1]), the list, which for a cell
   * with triangles starts with its sub-grid (sdf_crec, SDF_REC
   * entries). */
  int8_t *cell_w;
  sdf_rank *rank;
  uint32_t *surf_off, *surf_to;
  size_t surf_bytes;
  /* While the grid is built: the same by cell (off: cells + 1). */
  uint32_t *cell_to, *cell_off;
  sdf_centry *cell_tris;        /* the triangles that may touch each cell (list_bytes) */
  double *gv;                   /* the mesh's vertices in double (3 per vertex) */
  uint32_t *gtv;                /* the triangles' vertex indices (3 per triangle) */
  double glo[3], gh, gpad, gqs; /* gqs: SDF_QLEVELS over a widened cell's side */
  uint32_t gn[3];
  size_t grid_bytes, list_bytes;
  int grid_exact; /* prox_sdf_inside() may answer from the grid */
};

/* Triangle j of the leaf of `count` triangles from position `first`, in
 * double (the leaf's block: prox/detail/bvh_layout.h). */
static void SDF_FN(tri_at)(const SDF *s, uint32_t first, uint32_t count, uint32_t j,
                           double t[3][3]) {
  const PROX_REAL *b = s->view.tri + 9 * (size_t)first;
  int c, k;
  for (k = 0; k < 3; ++k)
    for (c = 0; c < 3; ++c)
      t[k][c] = (double)b[(size_t)(3 * c + k) * count + j];
}

static void SDF_FN(mesh_vertex)(const PROX_FN(prox_mesh) * m, uint32_t i, double v[3]) {
  SDF_V3 x = PROX_FN(prox_mesh_vertex)(m, i);
  v[0] = (double)x.x;
  v[1] = (double)x.y;
  v[2] = (double)x.z;
}

/* The inside grid's triangles: the mesh's, then the caps (reversed). */
static uint32_t SDF_FN(grid_nt)(const SDF *s) {
  return s->nt + (uint32_t)s->ncap;
}

/* p in the moments' frame (times 2^-mexp, exactly). */
static void SDF_FN(to_frame)(const SDF *s, const double *p, double *q) {
  int k;
  for (k = 0; k < 3; ++k)
    q[k] = s->mscale != 0 ? p[k] * s->mscale : ldexp(p[k], -s->mexp);
}

/* Moments of a slot (sdf_moments): a leaf's triangles in the moments'
 * frame, or an inner node's slots. */
static void SDF_FN(leaf_moments)(const SDF *s, uint32_t first, uint32_t count, double *m) {
  double t[PROX_BVH_MAX_LEAF][3][3];
  uint32_t i;
  int k, v;
  for (i = 0; i < count; ++i) {
    SDF_FN(tri_at)(s, first, count, i, t[i]);
    for (v = 0; v < 3; ++v)
      for (k = 0; k < 3; ++k)
        t[i][v][k] = ldexp(t[i][v][k], -s->mexp);
  }
  sdf_moments((const double(*)[3][3])t, count, m);
}

static void SDF_FN(node_moments)(const SDF *s, uint32_t node, double *m) {
  const prox_bvh_node *nd = &s->view.nodes[node];
  const double *sl = s->mom + 8 * 4 * (size_t)node, *part[4];
  int i;
  for (i = 0; i < nd->n_child; ++i)
    part[i] = sl + 8 * i;
  sdf_moments_merge(part, nd->n_child, m);
}

/* Whether two components of a mesh have overlapping boxes (so that they
 * may touch or nest, where pseudo-normals fail); 1 also when there are
 * too many components to compare or memory runs out. */
static int SDF_FN(components_may_touch)(const PROX_FN(prox_mesh) * mesh,
                                        const prox_mesh_topology *tp, const prox_allocator *alloc) {
  uint32_t nc = tp->components, t, i, j;
  double *box;
  int touch = 0, k;
  if (nc > 4096) return 1;
  box = (double *)prox_mesh_detail_alloc(alloc, 6 * (size_t)nc * sizeof *box);
  if (!box) return 1;
  for (i = 0; i < nc; ++i)
    for (k = 0; k < 3; ++k) {
      box[6 * i + (uint32_t)k] = INFINITY;
      box[6 * i + 3 + (uint32_t)k] = -INFINITY;
    }
  for (t = 0; t < tp->triangle_count; ++t) {
    uint32_t c = tp->triangle_component[t];
    int q;
    if (c == PROX_TOPOLOGY_NONE) continue;
    for (q = 0; q < 3; ++q) {
      double v[3];
      SDF_FN(mesh_vertex)(mesh, mesh->indices[3 * (size_t)t + (size_t)q], v);
      for (k = 0; k < 3; ++k) {
        if (v[k] < box[6 * c + (uint32_t)k]) box[6 * c + (uint32_t)k] = v[k];
        if (v[k] > box[6 * c + 3 + (uint32_t)k]) box[6 * c + 3 + (uint32_t)k] = v[k];
      }
    }
  }
  for (i = 0; i < nc && !touch; ++i)
    for (j = i + 1; j < nc && !touch; ++j) {
      int apart = 0;
      for (k = 0; k < 3; ++k)
        if (box[6 * i + 3 + (uint32_t)k] < box[6 * j + (uint32_t)k] ||
            box[6 * j + 3 + (uint32_t)k] < box[6 * i + (uint32_t)k])
          apart = 1;
      touch = !apart;
    }
  prox_mesh_detail_free(alloc, box, 6 * (size_t)nc * sizeof *box);
  return touch;
}

/* Pairs (i < j) of triangles that meet other than in what they share
 * (sdf_pair_meets), found through the tree: the first `cap` into pairs,
 * both marked in mark (when not NULL), stopping after `stop` pairs;
 * returns how many were found. */
static size_t SDF_FN(self_pairs)(const PROX_FN(prox_mesh) * mesh,
                                 const PROX_FN(prox_bvh_view) * view, size_t i0, size_t i1,
                                 uint32_t *pairs, size_t cap, size_t stop, sdf_flag *mark) {
  size_t found = 0, i;
  for (i = i0; i < i1; ++i) {
    uint32_t stack[PROX_BVH_STACK], ia[3];
    double a[3][3], lo[3], hi[3];
    size_t first = found, x, y;
    int sp = 0, k;
    for (k = 0; k < 3; ++k) {
      ia[k] = mesh->indices[3 * i + (size_t)k];
      SDF_FN(mesh_vertex)(mesh, ia[k], a[k]);
    }
    sdf_box3((const double(*)[3])a, lo, hi);
    stack[sp++] = 0;
    while (sp > 0) {
      const prox_bvh_node *nd = &view->nodes[stack[--sp]];
      int s;
      for (s = 0; s < nd->n_child; ++s) {
        /* The float boxes hold their triangles exactly (rounded outward):
         * comparing them with the exact box of triangle i misses nothing. */
        if ((double)nd->lo_x[s] > hi[0] || (double)nd->hi_x[s] < lo[0] ||
            (double)nd->lo_y[s] > hi[1] || (double)nd->hi_y[s] < lo[1] ||
            (double)nd->lo_z[s] > hi[2] || (double)nd->hi_z[s] < lo[2])
          continue;
        if (!nd->count[s]) {
          stack[sp++] = nd->child[s];
          continue;
        }
        {
          uint32_t pos;
          for (pos = nd->child[s]; pos < nd->child[s] + nd->count[s]; ++pos) {
            uint32_t j = view->ids[pos], ib[3];
            double b[3][3];
            if (j <= i) continue;
            for (k = 0; k < 3; ++k) {
              ib[k] = mesh->indices[3 * (size_t)j + (size_t)k];
              SDF_FN(mesh_vertex)(mesh, ib[k], b[k]);
            }
            if (sdf_beyond((const double(*)[3])b, lo, hi) ||
                !sdf_pair_meets((const double(*)[3])a, ia, (const double(*)[3])b, ib))
              continue;
            if (found < cap) {
              pairs[2 * found] = (uint32_t)i;
              pairs[2 * found + 1] = j;
            }
            if (mark) {
              SDF_SET(mark[i]);
              SDF_SET(mark[j]);
            }
            if (++found >= stop) return found;
          }
        }
      }
    }
    /* Triangle i's partners in increasing order (few: insertion sort). */
    for (x = first + 1; x < found && x < cap; ++x)
      for (y = x; y > first && pairs[2 * y - 1] > pairs[2 * y + 1]; --y) {
        uint32_t t = pairs[2 * y - 1];
        pairs[2 * y - 1] = pairs[2 * y + 1];
        pairs[2 * y + 1] = t;
      }
  }
  return found;
}

prox_status PROX_FN(prox_mesh_self_intersections)(const PROX_FN(prox_mesh) * mesh,
                                                  const PROX_FN(prox_bvh) * bvh, uint32_t *pairs,
                                                  size_t capacity, size_t *count, prox_error *err) {
  PROX_FN(prox_bvh_view) view;
  prox_status st;
  if (count) *count = 0;
  if (!mesh || !bvh || !count || (!pairs && capacity > 0))
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "self-intersections: NULL mesh, tree, count or pairs");
  st = PROX_FN(prox_mesh_validate)(mesh, err);
  if (st != PROX_OK) return st;
  PROX_FN(prox_bvh_get_view)(bvh, &view);
  if ((size_t)view.triangle_count != mesh->triangle_count)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "self-intersections: the tree has %lu triangles, the mesh %lu",
                                  (unsigned long)view.triangle_count,
                                  (unsigned long)mesh->triangle_count);
  *count =
      SDF_FN(self_pairs)(mesh, &view, 0, mesh->triangle_count, pairs, capacity, (size_t)-1, NULL);
  prox_mesh_detail_ok(err);
  return PROX_OK;
}

/* self_pairs over all triangles in `threads` threads, in pieces of
 * SDF_CHUNK triangles handed out by a counter: marks (when mark is not
 * NULL) every triangle of a pair, or (mark NULL) stops at the first pair.
 * Returns whether there is a pair; the same answer for any thread count. */
typedef struct SDF_FN(self_job) {
  const PROX_FN(prox_mesh) * mesh;
  const PROX_FN(prox_bvh_view) * view;
  sdf_flag *mark;
  sdf_flag any;
  sdf_counter next;
} SDF_FN(self_job);

static void SDF_FN(self_worker)(void *arg) {
  SDF_FN(self_job) *j = (SDF_FN(self_job) *)arg;
  size_t n = j->mesh->triangle_count;
  for (;;) {
    size_t b = SDF_NEXT(j->next, (size_t)SDF_CHUNK), e;
    if (b >= n || (!j->mark && SDF_GET(j->any))) break;
    e = b + SDF_CHUNK < n ? b + SDF_CHUNK : n;
    if (SDF_FN(self_pairs)(j->mesh, j->view, b, e, NULL, 0, j->mark ? (size_t)-1 : 1, j->mark))
      SDF_SET(j->any);
  }
}

static int SDF_FN(self_any)(const PROX_FN(prox_mesh) * mesh, const PROX_FN(prox_bvh_view) * view,
                            sdf_flag *mark, int threads) {
  SDF_FN(self_job) j;
  size_t pieces = (mesh->triangle_count + SDF_CHUNK - 1) / SDF_CHUNK;
  j.mesh = mesh;
  j.view = view;
  j.mark = mark;
  SDF_FLAG_INIT(j.any);
  SDF_INIT(j.next, 0);
  if (threads <= 0) threads = prox_mesh_detail_cores();
  if ((size_t)threads > pieces) threads = pieces ? (int)pieces : 1;
  prox_mesh_detail_parallel(threads, SDF_FN(self_worker), &j);
  return SDF_GET(j.any) != 0;
}

/* How many times the triangles of edge e go along it from its lower
 * vertex to its higher one, minus the other way: 0 for an edge inside a
 * consistently oriented surface, +-1 on its boundary. */
static long SDF_FN(edge_multiplicity)(const PROX_FN(prox_mesh) * mesh, const prox_mesh_topology *tp,
                                      size_t e) {
  uint32_t i, lo = tp->edge_vertices[2 * e];
  long m = 0;
  for (i = tp->edge_offsets[e]; i < tp->edge_offsets[e + 1]; ++i) {
    uint32_t t = tp->edge_triangles[i];
    int k;
    for (k = 0; k < 3; ++k)
      if (tp->triangle_edges[3 * (size_t)t + (size_t)k] == e)
        m += mesh->indices[3 * (size_t)t + (size_t)k] == lo ? 1 : -1;
  }
  return m;
}

static int SDF_FN(grid_build)(SDF *s, const PROX_FN(prox_mesh) * mesh, const prox_allocator *alloc);
static int SDF_FN(mark_irregular)(SDF *s, const PROX_FN(prox_mesh) * mesh,
                                  const prox_mesh_topology *tp, const prox_allocator *alloc,
                                  int threads);
void PROX_FN(prox_sdf_free)(SDF *s);

static int SDF_FN(ray_winding)(const SDF *s, const double *p, double *w, int boundary, int chain,
                               size_t *work);
static double SDF_FN(cap_winding)(const SDF *s, const double *p, int *unsure, size_t *work);
static double SDF_FN(fast_winding)(const SDF *s, const double *p, size_t *work);

/* AUTO's choice among the evaluations of the winding number: 0 the
 * mesh's hierarchy at the caller's accuracy, 1 the exact one
 * (exact_winding: a segment's crossings and a solid angle per boundary
 * edge; when s->bnd is there), 2 the caps (winding_of; when s->cap is
 * there), whichever is expected to cost least. All are run at 64 points, alternately near a
 * triangle (its centroid moved 1% of the box's diagonal along a fixed
 * direction, triangles evenly spaced in the mesh's order) and spread over
 * the box enlarged by 5% (a Halton sequence), and their work is counted:
 * nodes, dipoles and triangles for the hierarchy; nodes and triangles
 * visited by the segment, and the boundary edges, for the exact one; the
 * caps' tree as the hierarchy's, plus the grid's count. The
 * weights are the measured costs of each (ns, BENCHMARKS.md, seventeenth
 * session). The work depends only on the mesh and its tree, so the choice
 * is the same on every run for a given tree. A box whose diagonal
 * overflows keeps the hierarchy (the points would not be finite). */
static int SDF_FN(choose_eval)(const SDF *s, const PROX_FN(prox_mesh) * mesh) {
  size_t fw[3] = {0, 0, 0}, cw[3] = {0, 0, 0}, seg = 0, runs = 0, j;
  static const double dir[3] = {0.2672612419124244, 0.5345224838248488, 0.8017837257372732};
  if (!(s->diag < INFINITY)) return 0;
  for (j = 0; j < 64; ++j) {
    double p[3], w;
    int k;
    if (j % 2 == 0) {
      uint32_t t = (uint32_t)((j / 2) * (size_t)s->nt / 32);
      double v[3][3], off = (j % 4 == 0 ? 0.01 : -0.01) * s->diag;
      for (k = 0; k < 3; ++k)
        SDF_FN(mesh_vertex)(mesh, s->tri[t].v[k], v[k]);
      for (k = 0; k < 3; ++k)
        p[k] = (v[0][k] + v[1][k] + v[2][k]) / 3 + off * dir[k];
    } else {
      static const unsigned base[3] = {2, 3, 5};
      for (k = 0; k < 3; ++k) {
        double f = 1, h = 0, e = 0.05 * (s->hi[k] - s->lo[k]);
        size_t i = j / 2 + 1;
        while (i > 0) {
          f /= base[k];
          h += f * (double)(i % base[k]);
          i /= base[k];
        }
        p[k] = s->lo[k] - e + h * (s->hi[k] - s->lo[k] + 2 * e);
      }
    }
    (void)SDF_FN(fast_winding)(s, p, fw);
    if (s->bnd && SDF_FN(ray_winding)(s, p, &w, 0, 0, &seg) == 1) ++runs;
    if (s->cap) {
      int unsure = 0;
      (void)SDF_FN(cap_winding)(s, p, &unsure, cw);
    }
  }
  {
    double hier = 15.0 * (double)fw[0] + 8.0 * (double)fw[1] + 50.0 * (double)fw[2];
    double exact = s->bnd ? 60.0 * (double)seg + 34.0 * (double)s->nbnd * (double)runs : INFINITY;
    /* The caps: their tree as the mesh's, and the inside grid's count (150
     * ns: CROSSINGS' inside test near the surface, BENCHMARKS.md). */
    double caps =
        s->cap ? 150.0 * 64 + 15.0 * (double)cw[0] + 8.0 * (double)cw[1] + 50.0 * (double)cw[2]
               : INFINITY;
    return caps < hier && caps <= exact ? 2 : exact < hier ? 1 : 0;
  }
}

/* A leaf of the caps' tree: caps first .. first + count - 1
 * (count <= SDF_CAP_LEAF), their moments and box. */
static void SDF_FN(cap_leaf)(const SDF *s, sdf_capnode *nd, size_t first, size_t count) {
  double t[SDF_CAP_LEAF][3][3];
  size_t j;
  int k, v;
  for (k = 0; k < 3; ++k) {
    nd->lo[k] = INFINITY;
    nd->hi[k] = -INFINITY;
  }
  for (j = 0; j < count; ++j) {
    const double *c = s->cap + 9 * (first + j);
    for (v = 0; v < 3; ++v)
      for (k = 0; k < 3; ++k) {
        double x = c[3 * v + k];
        t[j][v][k] = ldexp(x, -s->mexp);
        if (x < nd->lo[k]) nd->lo[k] = x;
        if (x > nd->hi[k]) nd->hi[k] = x;
      }
  }
  sdf_moments((const double(*)[3][3])t, count, nd->m);
  nd->first = (uint32_t)first;
  nd->count = (uint32_t)count;
  nd->left = nd->right = 0;
}

/* A new inner node of the caps' tree over nodes l and r; its index. */
static uint32_t SDF_FN(cap_join)(SDF *s, uint32_t *next, uint32_t l, uint32_t r) {
  uint32_t me = (*next)++;
  sdf_capnode *nd = s->capn + me;
  const double *part[2];
  int k;
  part[0] = s->capn[l].m;
  part[1] = s->capn[r].m;
  sdf_moments_merge(part, 2, nd->m);
  for (k = 0; k < 3; ++k) {
    nd->lo[k] = fmin(s->capn[l].lo[k], s->capn[r].lo[k]);
    nd->hi[k] = fmax(s->capn[l].hi[k], s->capn[r].hi[k]);
  }
  nd->first = nd->count = 0;
  nd->left = l;
  nd->right = r;
  return me;
}

/* Cap *j: the triangle P[lo] P[mid] P[hi]; *j advanced. */
static void SDF_FN(cap_put)(SDF *s, const PROX_FN(prox_mesh) * mesh, const uint32_t *P, size_t lo,
                            size_t mid, size_t hi, size_t *j) {
  double *c = s->cap + 9 * *j;
  uint32_t *cv = s->capv + 3 * *j;
  SDF_FN(mesh_vertex)(mesh, P[lo], c);
  SDF_FN(mesh_vertex)(mesh, P[mid], c + 3);
  SDF_FN(mesh_vertex)(mesh, P[hi], c + 6);
  cv[0] = P[lo];
  cv[1] = P[mid];
  cv[2] = P[hi];
  ++*j;
}

/* The caps of the polygon P[lo], P[lo + 1], .. P[hi] closed by P[hi] ->
 * P[lo] (hi - lo >= 2): the triangle P[lo] P[mid] P[hi] (mid halfway),
 * then those of lo .. mid and mid .. hi, written from cap *j on. */
static void SDF_FN(cap_emit)(SDF *s, const PROX_FN(prox_mesh) * mesh, const uint32_t *P, size_t lo,
                             size_t hi, size_t *j) {
  size_t mid = lo + (hi - lo) / 2;
  if (hi - lo < 2) return;
  SDF_FN(cap_put)(s, mesh, P, lo, mid, hi, j);
  SDF_FN(cap_emit)(s, mesh, P, lo, mid, j);
  SDF_FN(cap_emit)(s, mesh, P, mid, hi, j);
}

/* cap_emit with the caps' tree of the polygon: each sub-polygon of more
 * than SDF_CAP_LEAF caps a node (its own triangle a leaf, joined with its
 * halves' trees), the smaller ones leaves. Returns the root's index. */
static uint32_t SDF_FN(cap_loop)(SDF *s, const PROX_FN(prox_mesh) * mesh, const uint32_t *P,
                                 size_t lo, size_t hi, size_t *j, uint32_t *next) {
  size_t first = *j, mid = lo + (hi - lo) / 2;
  uint32_t me = (*next)++, l, r;
  if (hi - lo - 1 <= SDF_CAP_LEAF) {
    SDF_FN(cap_emit)(s, mesh, P, lo, hi, j);
    SDF_FN(cap_leaf)(s, s->capn + me, first, *j - first);
    return me;
  }
  SDF_FN(cap_put)(s, mesh, P, lo, mid, hi, j);
  SDF_FN(cap_leaf)(s, s->capn + me, first, 1);
  l = SDF_FN(cap_loop)(s, mesh, P, lo, mid, j, next);
  r = SDF_FN(cap_loop)(s, mesh, P, mid, hi, j, next);
  return SDF_FN(cap_join)(s, next, SDF_FN(cap_join)(s, next, me, l), r);
}

/* Sort key of a loop's tree: its centre's Morton code, then its index. */
typedef struct SDF_FN(capkey) {
  uint64_t code;
  size_t i;
} SDF_FN(capkey);

static int SDF_FN(capkey_cmp)(const void *a, const void *b) {
  const SDF_FN(capkey) *x = (const SDF_FN(capkey) *)a, *y = (const SDF_FN(capkey) *)b;
  if (x->code != y->code) return x->code < y->code ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* The tree over the loops' roots key[lo .. hi - 1]; its root. */
static uint32_t SDF_FN(cap_top)(SDF *s, const SDF_FN(capkey) * key, const uint32_t *root, size_t lo,
                                size_t hi, uint32_t *next) {
  size_t mid = lo + (hi - lo) / 2;
  uint32_t l, r;
  if (hi - lo == 1) return root[key[lo].i];
  l = SDF_FN(cap_top)(s, key, root, lo, mid, next);
  r = SDF_FN(cap_top)(s, key, root, mid, hi, next);
  return SDF_FN(cap_join)(s, next, l, r);
}

/* The caps of the mesh's boundary (SDF's cap), from its nh half-edges (an
 * edge a b of multiplicity m gives m copies of a -> b, or -m of b -> a),
 * which make a cycle (as many enter each vertex as leave it). A walk takes
 * them apart into simple loops: it closes a loop whenever it comes back to
 * a vertex of its path, so loops that meet at a vertex are capped apart.
 * Each loop of L >= 3 vertices is capped by L - 2 triangles (cap_emit:
 * halving, so that a sub-polygon of the loop is a compact cluster, small
 * near the rim), whose boundary is the loop. Returns 0 when out of memory
 * (nothing kept), else 1 (no caps when no loop has 3 vertices). */
static int SDF_FN(caps_build)(SDF *s, const PROX_FN(prox_mesh) * mesh, const prox_mesh_topology *tp,
                              size_t nh, const prox_allocator *alloc) {
  /* Nodes: a loop of n caps takes at most n (cap_loop: n <= 8 one leaf,
   * else 3 + its halves', each of 4 or more caps), the top nloops - 1. */
  size_t nodes = nh + nh / 3 + 4, i, j = 0, tmp_bytes, nv = s->nv, nloops = 0, l;
  size_t bytes = 9 * nh * sizeof(double) + nodes * sizeof(sdf_capnode) + 12 * nh;
  uint32_t *off, *cur, *onpath, *path, *to, *root, next = 0, v0;
  double lo[3], hi[3];
  SDF_FN(capkey) * key;
  char *block, *tmp;
  int k, broken = 0;
  tmp_bytes = nh * (sizeof(SDF_FN(capkey)) + 8) + 16 * nv + 8;
  block = (char *)prox_mesh_detail_alloc(alloc, bytes);
  tmp = block ? (char *)prox_mesh_detail_alloc(alloc, tmp_bytes) : NULL;
  if (!tmp) {
    prox_mesh_detail_free(alloc, block, bytes);
    return 0;
  }
  s->capn = (sdf_capnode *)(void *)block;
  s->cap = (double *)(void *)(block + nodes * sizeof(sdf_capnode));
  s->capv = (uint32_t *)(void *)(s->cap + 9 * nh);
  s->cap_bytes = bytes;
  key = (SDF_FN(capkey) *)(void *)tmp;
  root = (uint32_t *)(void *)(key + nh);
  to = root + nh;
  off = to + nh;
  cur = off + nv + 1;
  onpath = cur + nv;
  path = onpath + nv;
  /* The half-edges by tail (off, to). */
  memset(off, 0, 4 * (nv + 1));
  for (i = 0; i < tp->edge_count; ++i) {
    long m = SDF_FN(edge_multiplicity)(mesh, tp, i);
    if (m) off[tp->edge_vertices[2 * i + (m < 0)] + 1] += (uint32_t)labs(m);
  }
  for (i = 0; i < nv; ++i) {
    off[i + 1] += off[i];
    cur[i] = off[i];
    onpath[i] = PROX_BVH_NONE;
  }
  for (i = 0; i < tp->edge_count; ++i) {
    long m = SDF_FN(edge_multiplicity)(mesh, tp, i), r;
    uint32_t tail = tp->edge_vertices[2 * i + (m < 0)], head = tp->edge_vertices[2 * i + (m > 0)];
    for (r = 0; r < labs(m); ++r)
      to[cur[tail]++] = head;
  }
  for (i = 0; i < nv; ++i)
    cur[i] = off[i];
  /* The walk: from each vertex with half-edges left, along unused ones;
   * only the path's first vertex can run out of them (every other has
   * entered once more than it left), and a return to a vertex of the path
   * closes a loop, which is capped and cut from the path. */
  for (v0 = 0; v0 < nv; ++v0) {
    uint32_t top = 0, u, w, k0, q;
    if (cur[v0] == off[v0 + 1]) continue;
    path[0] = v0;
    onpath[v0] = 0;
    for (;;) {
      u = path[top];
      if (cur[u] == off[u + 1]) break;
      w = to[cur[u]++];
      if (onpath[w] == PROX_BVH_NONE) {
        path[++top] = w;
        onpath[w] = top;
        continue;
      }
      k0 = onpath[w];
      if (top - k0 >= 2 && j + (top - k0 - 1) <= nh)
        root[nloops++] = SDF_FN(cap_loop)(s, mesh, path + k0, 0, top - k0, &j, &next);
      for (q = k0 + 1; q <= top; ++q)
        onpath[path[q]] = PROX_BVH_NONE;
      top = k0;
    }
    broken |= top != 0;
    for (q = 0; q <= top; ++q)
      onpath[path[q]] = PROX_BVH_NONE;
  }
  if (nloops == 0 || broken) {
    /* No loop of three vertices: nothing to cap. (broken: the half-edges
     * were not a cycle, which multiplicities counted from triangles always
     * are; the caps would not close the boundary.) */
    prox_mesh_detail_free(alloc, tmp, tmp_bytes);
    prox_mesh_detail_free(alloc, block, bytes);
    s->capn = NULL;
    s->cap = NULL;
    s->capv = NULL;
    return 1;
  }
  /* The loops' trees joined in the Morton order of their centres. */
  for (k = 0; k < 3; ++k) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (l = 0; l < nloops; ++l)
    for (k = 0; k < 3; ++k) {
      double x = s->capn[root[l]].m[3 + k];
      if (x < lo[k]) lo[k] = x;
      if (x > hi[k]) hi[k] = x;
    }
  for (l = 0; l < nloops; ++l) {
    uint32_t qk[3];
    for (k = 0; k < 3; ++k) {
      double x = s->capn[root[l]].m[3 + k];
      double f = hi[k] > lo[k] ? (x - lo[k]) / (hi[k] - lo[k]) : 0;
      f = f < 0 ? 0 : f > 1 ? 1 : f;
      qk[k] = (uint32_t)(f * 1023.0);
    }
    key[l].code = prox_mesh_detail_morton(qk[0], qk[1], qk[2]);
    key[l].i = l;
  }
  qsort(key, nloops, sizeof *key, SDF_FN(capkey_cmp));
  s->caproot = SDF_FN(cap_top)(s, key, root, 0, nloops, &next);
  s->ncap = j;
  prox_mesh_detail_free(alloc, tmp, tmp_bytes);
  return 1;
}

prox_status PROX_FN(prox_sdf_build)(const PROX_FN(prox_mesh) * mesh, const PROX_FN(prox_bvh) * bvh,
                                    const prox_mesh_topology *topology, const prox_sdf_options *opt,
                                    const prox_allocator *alloc, SDF **out, prox_error *err) {
  prox_sdf_options o = opt ? *opt : prox_sdf_options_default();
  prox_mesh_topology *own = NULL;
  const prox_mesh_topology *tp = topology;
  PROX_FN(prox_bvh_view) view;
  prox_status st;
  size_t nt, nv, ne, nslots, off[3], total, i, nbnd, nbnd_all = 0, bnd_abs = 0, off_bnd, fe_bytes;
  sdf_frec *fe;
  uint8_t *flags;
  SDF *s;
  char *base;
  int method, k, check_regular = 0, may_exact, cycle, capped;

  if (out) *out = NULL;
  if (!mesh || !bvh || !out)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "sdf: NULL mesh, tree or output");
  if (o.method < PROX_SIGN_AUTO || o.method > PROX_SIGN_WINDING)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT, "sdf: unknown sign method %d",
                                  o.method);
  if (!(o.accuracy > 0) || !(o.tolerance >= 0) || o.tolerance != o.tolerance)
    return prox_mesh_detail_error(err, PROX_ERROR_INVALID_ARGUMENT,
                                  "sdf: accuracy must be positive and tolerance non-negative");
  st = PROX_FN(prox_mesh_validate)(mesh, err);
  if (st != PROX_OK) return st;
  PROX_FN(prox_bvh_get_view)(bvh, &view);
  if ((size_t)view.triangle_count != mesh->triangle_count)
    return prox_mesh_detail_error(
        err, PROX_ERROR_INVALID_ARGUMENT, "sdf: the tree has %lu triangles, the mesh %lu",
        (unsigned long)view.triangle_count, (unsigned long)mesh->triangle_count);
  if (!tp) {
#if PROX_IS_DOUBLE
    st = prox_mesh_topology_build(mesh, alloc, &own, err);
#else
    st = prox_mesh_topology_buildf(mesh, alloc, &own, err);
#endif
    if (st != PROX_OK) return st;
    tp = own;
  } else if (tp->triangle_count != mesh->triangle_count || tp->vertex_count != mesh->vertex_count) {
    return prox_mesh_detail_error(
        err, PROX_ERROR_INVALID_ARGUMENT,
        "sdf: the topology is of another mesh (%u triangles, %u vertices)", tp->triangle_count,
        tp->vertex_count);
  }
  /* nbnd_all: the edges the triangles traverse more often one way than
   * the other (the boundary of exact_winding). None (a cycle: closed and
   * oriented, or non-manifold with its sheets paired that way): the
   * signed crossing count along a path is then the same for every path
   * between its ends, and from outside the box it is the winding number. */
  for (i = 0; i < tp->edge_count; ++i) {
    long m = SDF_FN(edge_multiplicity)(mesh, tp, i);
    nbnd_all += m != 0;
    bnd_abs += (size_t)labs(m);
  }
  cycle = tp->triangle_count > 0 && nbnd_all == 0;
  method = o.method;
  if (method == PROX_SIGN_AUTO) {
    method = tp->closed && tp->manifold && tp->oriented ? PROX_SIGN_PSEUDONORMAL
             : cycle                                    ? PROX_SIGN_CROSSINGS
                                                        : PROX_SIGN_WINDING;
    /* Components that may touch or nest, or a surface through itself,
     * have regions where the side of the nearest face is not the winding
     * number: find the triangles next to them (mark_irregular). */
    if (method == PROX_SIGN_PSEUDONORMAL &&
        ((tp->components > 1 && SDF_FN(components_may_touch)(mesh, tp, alloc)) ||
         SDF_FN(self_any)(mesh, &view, NULL, o.threads)))
      check_regular = 1;
  }

  nt = mesh->triangle_count;
  nv = mesh->vertex_count;
  ne = tp->edge_count;
  nslots = method == PROX_SIGN_WINDING ? 4 * (size_t)view.node_count : 0;
  off[0] = (sizeof(SDF) + 63) & ~(size_t)63;
  off[1] = off[0] + nt * sizeof(sdf_trec);
  off[2] = off[1] + (method == PROX_SIGN_PSEUDONORMAL ? nt * sizeof(sdf_prec) : 0);
  total = off[2] + 8 * nslots * sizeof(double);
  /* The boundary for the exact winding number: asked for, or AUTO's to
   * choose (choose_eval). */
  /* AUTO on a mesh whose boundary is small beside it: its caps (SDF's cap)
   * instead of the whole mesh's tree. */
  capped = o.method == PROX_SIGN_AUTO && method == PROX_SIGN_WINDING && o.accuracy < INFINITY &&
           nbnd_all > 0 && bnd_abs <= (size_t)mesh->triangle_count / 4 &&
           bnd_abs < (size_t)(UINT32_MAX - mesh->triangle_count); /* the grid's triangle count */
  may_exact = method == PROX_SIGN_WINDING && (o.accuracy == INFINITY || o.method == PROX_SIGN_AUTO);
  nbnd = may_exact ? nbnd_all : 0;
  off_bnd = total;
  total += 7 * nbnd * sizeof(double);
  base = (char *)prox_mesh_detail_alloc(alloc, total);
  /* The edges' and vertices' normals and flags, for the build only. */
  fe_bytes = (ne + nv) * sizeof(sdf_frec);
  fe = base ? (sdf_frec *)prox_mesh_detail_alloc(alloc, fe_bytes) : NULL;
  flags = fe ? (uint8_t *)prox_mesh_detail_alloc(alloc, ne + nv) : NULL;
  if (!flags) {
    prox_mesh_detail_free(alloc, fe, fe_bytes);
    prox_mesh_detail_free(alloc, base, total);
    prox_mesh_topology_free(own);
    return prox_mesh_detail_error(err, PROX_ERROR_OUT_OF_MEMORY, "sdf: out of memory (%lu bytes)",
                                  (unsigned long)(total + fe_bytes + ne + nv));
  }
  s = (SDF *)base;
  memset(s, 0, sizeof *s);
  if (alloc) {
    s->alloc = *alloc;
    s->has_alloc = 1;
  }
  s->bytes = total;
  s->bvh = bvh;
  s->view = view;
  s->method = method;
  s->accuracy = o.accuracy;
  s->tolerance = o.tolerance;
  s->nt = (uint32_t)nt;
  s->nv = (uint32_t)nv;
  s->ne = (uint32_t)ne;
  s->tri = (sdf_trec *)(base + off[0]);
  s->rec = method == PROX_SIGN_PSEUDONORMAL ? (sdf_prec *)(base + off[1]) : NULL;
  s->edge = fe;
  s->vert = fe + ne;
  s->eflag = flags;
  s->vflag = flags + ne;
  s->mom = nslots ? (double *)(base + off[2]) : NULL;
  memset(s->tri, 0, nt * sizeof(sdf_trec));
  s->bnd = nbnd ? (double *)(base + off_bnd) : NULL;
  s->nbnd = 0;
  if (nbnd)
    for (i = 0; i < ne; ++i) {
      long m = SDF_FN(edge_multiplicity)(mesh, tp, i);
      double *b = s->bnd + 7 * s->nbnd;
      if (!m) continue;
      SDF_FN(mesh_vertex)(mesh, tp->edge_vertices[2 * i], b);
      SDF_FN(mesh_vertex)(mesh, tp->edge_vertices[2 * i + 1], b + 3);
      b[6] = (double)m;
      ++s->nbnd;
    }
  memset(fe, 0, fe_bytes);
  memset(flags, 0, ne + nv);

  for (k = 0; k < 3; ++k) {
    s->lo[k] = INFINITY;
    s->hi[k] = -INFINITY;
  }
  for (i = 0; i < nt; ++i) {
    double v[3][3], e1[3], e2[3], n[3], len, emax = 0;
    int zero = (tp->triangle_flags[i] & PROX_TRIANGLE_ZERO_AREA) != 0, ex = 0;
    for (k = 0; k < 3; ++k) {
      int c;
      s->tri[i].v[k] = mesh->indices[3 * i + (size_t)k];
      s->tri[i].e[k] = tp->triangle_edges[3 * i + (size_t)k];
      SDF_FN(mesh_vertex)(mesh, mesh->indices[3 * i + (size_t)k], v[k]);
      for (c = 0; c < 3; ++c) {
        if (v[k][c] < s->lo[c]) s->lo[c] = v[k][c];
        if (v[k][c] > s->hi[c]) s->hi[c] = v[k][c];
      }
    }
    s->tri[i].bad = (uint8_t)zero;
    for (k = 0; k < 3; ++k) {
      e1[k] = v[1][k] - v[0][k];
      e2[k] = v[2][k] - v[0][k];
      if (fabs(e1[k]) > emax) emax = fabs(e1[k]);
      if (fabs(e2[k]) > emax) emax = fabs(e2[k]);
    }
    /* The edges scaled by a power of two to about 1, so that the squares
     * of the products neither overflow (edges above 2^255) nor underflow
     * (below 2^-255). The scaling is exact (a component 2^1022 times
     * smaller than the largest, which counts for nothing here, excepted),
     * so the directions and the tests below keep their bits. */
    (void)frexp(emax, &ex);
    for (k = 0; k < 3; ++k) {
      e1[k] = ldexp(e1[k], -ex);
      e2[k] = ldexp(e2[k], -ex);
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    {
      /* The normal's direction is trusted when the cross product exceeds
       * its rounding error (about eps (S (|e1| + |e2|) + |e1| |e2|), S the
       * coordinates' magnitude) a millionfold; a sliver below that (or a
       * zero-area triangle) has its sign decided by crossings instead. */
      double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
      double l2 = sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
      double sc = 0;
      int q, c;
      for (q = 0; q < 3; ++q)
        for (c = 0; c < 3; ++c)
          if (fabs(v[q][c]) > sc) sc = fabs(v[q][c]);
      sc = ldexp(sc, -ex);
      if (!(len > 1e-6 * l1 * l2 + 1e-9 * sc * (l1 + l2))) zero = 1;
    }
    if (zero || !(len > 0) || !(len < INFINITY)) {
      s->tri[i].bad = 1;
      n[0] = n[1] = n[2] = 0;
    } else {
      n[0] /= len;
      n[1] /= len;
      n[2] /= len;
    }
    for (k = 0; k < 3; ++k)
      s->tri[i].n[k] = n[k];
    if (s->tri[i].bad) {
      for (k = 0; k < 3; ++k) {
        uint32_t e = tp->triangle_edges[3 * i + (size_t)k];
        s->vflag[mesh->indices[3 * i + (size_t)k]] = 1;
        if (e != PROX_TOPOLOGY_NONE) s->eflag[e] = 1;
      }
      continue;
    }
    /* Vertex normals weighted by the angle at the vertex; edge normals the
     * sum of the two (or more) faces. */
    for (k = 0; k < 3; ++k) {
      const double *a = v[k], *b = v[(k + 1) % 3], *c = v[(k + 2) % 3];
      double u[3], w[3], x[3], ang;
      uint32_t vid = mesh->indices[3 * i + (size_t)k];
      uint32_t e = tp->triangle_edges[3 * i + (size_t)k];
      int q;
      for (q = 0; q < 3; ++q) {
        u[q] = ldexp(b[q] - a[q], -ex);
        w[q] = ldexp(c[q] - a[q], -ex);
      }
      x[0] = u[1] * w[2] - u[2] * w[1];
      x[1] = u[2] * w[0] - u[0] * w[2];
      x[2] = u[0] * w[1] - u[1] * w[0];
      ang = atan2(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]),
                  u[0] * w[0] + u[1] * w[1] + u[2] * w[2]);
      for (q = 0; q < 3; ++q)
        s->vert[vid].n[q] += ang * n[q];
      if (e != PROX_TOPOLOGY_NONE)
        for (q = 0; q < 3; ++q)
          s->edge[e].n[q] += n[q];
    }
  }
  /* Edges whose pseudo-normal is not to be trusted: not two triangles, or
   * a fold (the faces' normals more than 120 degrees apart: a sliver bent
   * back onto its neighbour, a blade); their vertices too. The sign there
   * comes from crossings. */
  for (i = 0; i < ne; ++i) {
    uint32_t a = tp->edge_offsets[i], b = tp->edge_offsets[i + 1];
    int bad = b - a != 2;
    if (!bad) {
      const double *n0 = s->tri[tp->edge_triangles[a]].n;
      const double *n1 = s->tri[tp->edge_triangles[a + 1]].n;
      bad = n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2] < -0.5;
    }
    if (bad) {
      s->eflag[i] = 1;
      s->vflag[tp->edge_vertices[2 * i]] = 1;
      s->vflag[tp->edge_vertices[2 * i + 1]] = 1;
    }
  }
  /* Edge and vertex pseudo-normals to unit length (zero stays zero), so
   * that the query's certainty test needs no norm. */
  for (i = 0; i < ne + nv; ++i) {
    double *n = i < ne ? s->edge[i].n : s->vert[i - ne].n;
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0) {
      n[0] /= len;
      n[1] /= len;
      n[2] /= len;
    }
  }
  /* The pseudo-normals into the records in the tree's order (their flags
   * once final, below); the edges' and vertices' normals go before the
   * grid is built. */
  for (i = 0; s->rec && i < nt; ++i) {
    const sdf_trec *tr = s->tri + view.ids[i];
    sdf_prec *r = s->rec + i;
    int q;
    memset(r, 0, sizeof *r);
    for (q = 0; q < 3; ++q)
      r->n[q] = tr->n[q];
    for (k = 0; k < 3; ++k)
      for (q = 0; q < 3; ++q) {
        if (tr->e[k] != PROX_TOPOLOGY_NONE) r->en[k][q] = sdf_q16(s->edge[tr->e[k]].n[q]);
        r->vn[k][q] = sdf_q16(s->vert[tr->v[k]].n[q]);
      }
  }
  prox_mesh_detail_free(alloc, fe, fe_bytes);
  s->edge = s->vert = NULL;
  s->diag = sqrt((s->hi[0] - s->lo[0]) * (s->hi[0] - s->lo[0]) +
                 (s->hi[1] - s->lo[1]) * (s->hi[1] - s->lo[1]) +
                 (s->hi[2] - s->lo[2]) * (s->hi[2] - s->lo[2]));

  if (nslots) {
    /* Children come after their parents: fill the slots backwards. */
    size_t nd;
    double ext = 0;
    for (k = 0; k < 3; ++k)
      if (s->hi[k] - s->lo[k] > ext) ext = s->hi[k] - s->lo[k];
    s->mexp = 0;
    if (ext > 0 && ext < INFINITY) (void)frexp(ext, &s->mexp);
    s->mscale = s->mexp > -1000 && s->mexp < 1000 ? ldexp(1.0, -s->mexp) : 0;
    for (nd = view.node_count; nd-- > 0;) {
      const prox_bvh_node *node = &view.nodes[nd];
      int j;
      for (j = 0; j < node->n_child; ++j) {
        double *m = s->mom + 8 * (4 * nd + (size_t)j);
        if (node->count[j])
          SDF_FN(leaf_moments)(s, node->child[j], node->count[j], m);
        else
          SDF_FN(node_moments)(s, node->child[j], m);
      }
    }
    if (capped && !(s->diag < INFINITY)) capped = 0; /* the moments' frame would overflow */
    if (capped && !SDF_FN(caps_build)(s, mesh, tp, bnd_abs, alloc)) {
      prox_mesh_topology_free(own);
      prox_mesh_detail_free(alloc, flags, ne + nv);
      PROX_FN(prox_sdf_free)(s);
      return prox_mesh_detail_error(err, PROX_ERROR_OUT_OF_MEMORY,
                                    "sdf: out of memory (the boundary's caps)");
    }
    if (o.method == PROX_SIGN_AUTO && o.accuracy < INFINITY) {
      int choice = SDF_FN(choose_eval)(s, mesh);
      if (choice == 1) s->accuracy = INFINITY;
      if (choice != 2 && s->capn) {
        /* The caps cost more than they save here. */
        prox_mesh_detail_free(alloc, s->capn, s->cap_bytes);
        s->capn = NULL;
        s->cap = NULL;
        s->capv = NULL;
        s->ncap = 0;
      }
    }
  }
  /* The crossing count of a cycle (a closed, consistently oriented mesh,
   * or a non-manifold one whose edges are all traversed as often one way
   * as the other) is the same along any path: the grid may start a count
   * anywhere. */
  if (((method == PROX_SIGN_PSEUDONORMAL || method == PROX_SIGN_CROSSINGS) && cycle) || s->cap) {
    int ok = SDF_FN(grid_build)(s, mesh, alloc), only01 = 1;
    if (ok && s->cell_w) {
      size_t c, cells = (size_t)s->gn[0] * s->gn[1] * s->gn[2];
      for (c = 0; c < cells && only01; ++c)
        only01 = SDF_IS_SURF(s->cell_w[c]) || s->cell_w[c] == 0 || s->cell_w[c] == 1;
    }
    /* A winding number other than 0 and 1 (an inverted mesh, shells
     * nested the same way): pseudo-normals would not follow it. */
    if (o.method == PROX_SIGN_AUTO && method == PROX_SIGN_PSEUDONORMAL && !only01)
      check_regular = 1;
    if (ok && check_regular) ok = SDF_FN(mark_irregular)(s, mesh, tp, alloc, o.threads);
    if (!ok) {
      prox_mesh_topology_free(own);
      prox_mesh_detail_free(alloc, flags, ne + nv);
      PROX_FN(prox_sdf_free)(s);
      return prox_mesh_detail_error(err, PROX_ERROR_OUT_OF_MEMORY,
                                    "sdf: out of memory (the inside grid)");
    }
    /* The grid answers as prox_sdf_distance() does unless pseudo-normals
     * were forced on a mesh where they do not follow the winding number. */
    s->grid_exact = method == PROX_SIGN_CROSSINGS || check_regular || only01;
  }
  /* The records' flags, final (only the pseudo-normal method reads
   * them): the face's, and its edges' and vertices' (no edge: flagged). */
  for (i = 0; s->rec && i < nt; ++i) {
    const sdf_trec *tr = s->tri + view.ids[i];
    unsigned bad = tr->bad ? 1u : 0u;
    for (k = 0; k < 3; ++k) {
      if (tr->e[k] == PROX_TOPOLOGY_NONE || s->eflag[tr->e[k]]) bad |= 1u << (1 + k);
      if (s->vflag[tr->v[k]]) bad |= 1u << (4 + k);
    }
    s->rec[i].bad = (uint8_t)bad;
  }
  prox_mesh_detail_free(alloc, flags, ne + nv);
  s->eflag = s->vflag = NULL;
  prox_mesh_topology_free(own);
  *out = s;
  prox_mesh_detail_ok(err);
  return PROX_OK;
}

void PROX_FN(prox_sdf_free)(SDF *s) {
  prox_allocator a;
  int has;
  if (!s) return;
  a = s->alloc;
  has = s->has_alloc;
  if (s->cell_w) {
    prox_mesh_detail_free(has ? &a : NULL, s->surf_off, s->surf_bytes);
    prox_mesh_detail_free(has ? &a : NULL, s->cell_tris, s->list_bytes);
    prox_mesh_detail_free(has ? &a : NULL, s->cell_w, s->grid_bytes);
  }
  if (s->capn) prox_mesh_detail_free(has ? &a : NULL, s->capn, s->cap_bytes);
  prox_mesh_detail_free(has ? &a : NULL, s, s->bytes);
}

int PROX_FN(prox_sdf_method)(const SDF *s) {
  return s ? s->method : 0;
}

size_t PROX_FN(prox_sdf_caps)(const SDF *s) {
  return s ? s->ncap : 0;
}

double PROX_FN(prox_sdf_accuracy)(const SDF *s) {
  if (!s) return (double)NAN;
  return s->method == PROX_SIGN_WINDING ? s->accuracy : (double)INFINITY;
}

/* The segment p + t (q - p), t in [0, 1], may meet the float box of slot i
 * of a node: a slab test in double on the box widened by pad (which covers
 * the rounding of p - box and more: the caller's bound on every
 * coordinate times 2^-40), with the reciprocals inv of q - p (infinite for
 * a zero component) and the parameters widened by a relative 2^-40. */
static int SDF_FN(seg_box)(const prox_bvh_node *nd, int i, const double *p, const double *inv,
                           double pad) {
  double lo[3], hi[3], t0 = 0, t1 = 1;
  int k;
  lo[0] = nd->lo_x[i], lo[1] = nd->lo_y[i], lo[2] = nd->lo_z[i];
  hi[0] = nd->hi_x[i], hi[1] = nd->hi_y[i], hi[2] = nd->hi_z[i];
  for (k = 0; k < 3; ++k) {
    double a = lo[k] - pad, b = hi[k] + pad, ta, tb;
    if (!(a <= b)) return 0; /* an empty slot */
    if (inv[k] == INFINITY) {
      if (p[k] < a || p[k] > b) return 0;
      continue;
    }
    ta = (a - p[k]) * inv[k];
    tb = (b - p[k]) * inv[k];
    if (ta > tb) {
      double x = ta;
      ta = tb;
      tb = x;
    }
    ta -= fabs(ta) * 0x1p-40;
    tb += fabs(tb) * 0x1p-40;
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return 0;
  }
  return 1;
}

/* The signed crossing count of segment p q through the tree: 1 and *count
 * (and *hits, when not NULL, the number of crossings), 0 when undecided (an edge or vertex
 * touched), 3 when p lies on the mesh. work, when not NULL, gains the
 * nodes and triangles visited (for choose_eval). */
static int SDF_FN(segment)(const SDF *s, const double *p, const double *q, int chain, long *count,
                           long *hits, size_t *work) {
  uint32_t stack[PROX_BVH_STACK];
  int sp = 0, k;
  double inv[3], big = (double)s->view.max_abs, pad, slo[3], shi[3];
  long n = 0, h = 0;
  size_t visits = 0;
  for (k = 0; k < 3; ++k) {
    double d = q[k] - p[k];
    inv[k] = d == 0 ? INFINITY : 1.0 / d;
    if (fabs(p[k]) > big) big = fabs(p[k]);
    if (fabs(q[k]) > big) big = fabs(q[k]);
  }
  pad = big * 0x1p-40 + 1e-300;
  sdf_segment_box(p, q, slo, shi);
  stack[sp++] = 0;
  while (sp > 0) {
    const prox_bvh_node *nd = &s->view.nodes[stack[--sp]];
    int i;
    ++visits;
    for (i = 0; i < nd->n_child; ++i) {
      if (!SDF_FN(seg_box)(nd, i, p, inv, pad)) continue;
      if (nd->count[i]) {
        uint32_t j;
        visits += nd->count[i];
        for (j = 0; j < nd->count[i]; ++j) {
          double t[3][3];
          int sg = 0, r;
          SDF_FN(tri_at)(s, nd->child[i], nd->count[i], j, t);
          r = sdf_cross_boxed(p, q, slo, shi, (const double(*)[3])t, &sg);
          if (r == 1) n += sg, ++h;
          if (r == 2) return 0;
          if (r == 3) return 3;
        }
      } else {
        stack[sp++] = nd->child[i];
      }
    }
  }
  if (chain && s->cap) {
    /* The caps, reversed (the mesh less its caps is the cycle). */
    sp = 0;
    stack[sp++] = s->caproot;
    while (sp > 0) {
      const sdf_capnode *cn = s->capn + stack[--sp];
      uint32_t j;
      if (sdf_beyond_box(cn->lo, cn->hi, slo, shi)) continue;
      if (!cn->count) {
        stack[sp++] = cn->right;
        stack[sp++] = cn->left;
        continue;
      }
      for (j = cn->first; j < cn->first + cn->count; ++j) {
        const double *c = s->cap + 9 * (size_t)j;
        double t[3][3];
        int sg = 0, r;
        memcpy(t[0], c, sizeof t[0]);
        memcpy(t[1], c + 6, sizeof t[1]);
        memcpy(t[2], c + 3, sizeof t[2]);
        r = sdf_cross_boxed(p, q, slo, shi, (const double(*)[3])t, &sg);
        if (r == 1) n += sg, ++h;
        if (r == 2) return 0;
        if (r == 3) return 3;
      }
    }
  }
  *count = n;
  if (hits) *hits = h;
  if (work) *work += visits;
  return 1;
}

/* The winding number along rays: segments from p in fixed directions
 * (sdf_direction) to beyond the mesh's box, until one avoids every edge
 * and vertex; its exact signed crossing count, plus, when `boundary` is
 * set, the boundary's term of exact_winding(). Returns 1 and *w, or 3 when
 * p lies on the mesh, or 0 when every segment tried was undecided (not
 * seen in practice: 64 directions). */
static int SDF_FN(ray_winding)(const SDF *s, const double *p, double *w, int boundary, int chain,
                               size_t *work) {
  double len = 0, q[3], d[3];
  int tries, k;
  for (k = 0; k < 3; ++k) {
    double a = fabs(p[k] - s->lo[k]), b = fabs(p[k] - s->hi[k]);
    len += (a > b ? a : b) * (a > b ? a : b);
  }
  /* Long enough to leave the mesh's box; scaled like the coordinates (an
   * absolute length would vanish in their rounding far from the origin). */
  len = 2.0 * sqrt(len) + s->diag;
  if (!(len > 0)) len = 1.0;
  /* First along the axis that leaves the mesh's box soonest: its thin box
   * leaves out most triangles of the leaves it passes (sdf_cross_boxed);
   * where it touches an edge or a vertex, the directions of sdf_dirs. */
  for (tries = -1; tries < 64; ++tries) {
    long count = 0;
    double sum = 0;
    size_t e;
    int r;
    if (tries < 0) {
      double bd = INFINITY;
      int ax = 0, up = 1;
      for (k = 0; k < 3; ++k) {
        if (s->hi[k] - p[k] < bd) {
          bd = s->hi[k] - p[k];
          ax = k;
          up = 1;
        }
        if (p[k] - s->lo[k] < bd) {
          bd = p[k] - s->lo[k];
          ax = k;
          up = 0;
        }
      }
      for (k = 0; k < 3; ++k)
        d[k] = k == ax ? (up ? 1.0 : -1.0) : 0.0;
    } else {
      sdf_direction(tries, d);
    }
    for (k = 0; k < 3; ++k)
      q[k] = p[k] + len * d[k];
    r = SDF_FN(segment)(s, p, q, chain, &count, NULL, work);
    if (r == 3) return 3;
    if (r != 1) continue;
    if (boundary) {
      /* The apex -d of the spherical triangles, as a point at distance len
       * (at distance 1 it was rounded onto p itself once the coordinates
       * exceeded about 2^53, and every boundary term vanished). */
      for (k = 0; k < 3; ++k)
        q[k] = p[k] - len * d[k];
      for (e = 0; e < s->nbnd; ++e) {
        const double *bd = s->bnd + 7 * e;
        sum += bd[6] * sdf_solid(p, q, bd, bd + 3);
      }
    }
    *w = (double)count + sum;
    return 1;
  }
  return 0;
}

/* The winding number by crossings (closed meshes: exact). */
static int SDF_FN(crossing_winding)(const SDF *s, const double *p, double *w) {
  return SDF_FN(ray_winding)(s, p, w, 0, 1, NULL);
}

/* ---- the inside grid: a count from a nearby cell of known winding. */

/* The box of cell (i, j, k), widened by gpad on every side, in double. */
static prox_aabb SDF_FN(cell_box)(const SDF *s, size_t i, size_t j, size_t k) {
  prox_aabb b;
  b.min.x = s->glo[0] + (double)i * s->gh - s->gpad;
  b.min.y = s->glo[1] + (double)j * s->gh - s->gpad;
  b.min.z = s->glo[2] + (double)k * s->gh - s->gpad;
  b.max.x = s->glo[0] + (double)(i + 1) * s->gh + s->gpad;
  b.max.y = s->glo[1] + (double)(j + 1) * s->gh + s->gpad;
  b.max.z = s->glo[2] + (double)(k + 1) * s->gh + s->gpad;
  return b;
}

/* The cell range [c0, c1] on axis k that a coordinate interval [a, b]
 * widened by gpad may touch. */
static void SDF_FN(cell_range)(const SDF *s, int k, double a, double b, size_t *c0, size_t *c1) {
  double x0 = floor((a - s->gpad - s->glo[k]) / s->gh),
         x1 = floor((b + s->gpad - s->glo[k]) / s->gh);
  double top = (double)s->gn[k] - 1;
  x0 = x0 < 0 ? 0 : x0 > top ? top : x0;
  x1 = x1 < 0 ? 0 : x1 > top ? top : x1;
  *c0 = (size_t)x0;
  *c1 = (size_t)x1;
}

/* The point of cell c at fractions f[0..2] of its side from its low
 * corner. */
static void SDF_FN(cell_point)(const SDF *s, size_t c, const double *f, double *q) {
  q[0] = s->glo[0] + ((double)(c % s->gn[0]) + f[0]) * s->gh;
  q[1] = s->glo[1] + ((double)(c / s->gn[0] % s->gn[1]) + f[1]) * s->gh;
  q[2] = s->glo[2] + ((double)(c / s->gn[0] / s->gn[1]) + f[2]) * s->gh;
}

/* Triangle t of the mesh in double, from the grid's copy of the vertices. */
static void SDF_FN(grid_tri)(const SDF *s, uint32_t t, double v[3][3]) {
  int k;
  for (k = 0; k < 3; ++k) {
    const double *x = s->gv + 3 * (size_t)s->gtv[3 * (size_t)t + (size_t)k];
    v[k][0] = x[0];
    v[k][1] = x[1];
    v[k][2] = x[2];
  }
}

/* The level (0 .. SDF_QLEVELS - 1) of coordinate x on axis k in cell
 * index i's widened box, x moved by `by` first (gpad or -gpad: the
 * rounding of the cell boxes and of x - lo), clamped to the cell. */
static int SDF_FN(qlevel)(const SDF *s, int k, size_t i, double x, double by) {
  double lo = s->glo[k] + (double)i * s->gh - s->gpad;
  double u = (x + by - lo) * s->gqs;
  u = u < 0 ? 0 : u > SDF_QLEVELS - 1 ? SDF_QLEVELS - 1 : u;
  return (int)u;
}

/* The bounds on axis k of sub-cell j (0 .. 3) of a cell of index i on
 * that axis: levels 8 j .. 8 j + 8 of the cell's widened box (as qlevel
 * counts them), widened by gpad. */
static void SDF_FN(sub_bounds)(const SDF *s, int k, size_t i, int j, double *lo, double *hi) {
  double base = s->glo[k] + (double)i * s->gh - s->gpad, side = 8.0 / s->gqs;
  *lo = base + (double)j * side - s->gpad;
  *hi = base + (double)(j + 1) * side + s->gpad;
}

/* The sub-cells of cell ix (see sdf_crec) that the triangle may touch, as
 * 64 bits (bit jx + 4 jy + 16 jz). Sub-cell j on axis k spans levels 8 j
 * .. 8 j + 8 of the cell's widened box (as qlevel counts them), widened by
 * gpad. It is left out when its box misses the triangle's (exact
 * comparisons) or lies beyond the slab around the triangle's plane: the
 * offset of its centre from the plane, n . (centre - v0), beyond its half
 * extent (widened by gpad more, for the rounding of the centre), emax and
 * the rounding of these sums (8 eps of the magnitudes). A non-finite value
 * leaves it in. */
static uint64_t SDF_FN(sub_touched)(const SDF *s, const sdf_tplane *tp, const size_t *ix) {
  double at[3][4], rad = 0, mag = 0, lim;
  uint64_t touched = 0;
  int j0[3], j1[3], j[3], k;
  for (k = 0; k < 3; ++k) {
    double lo[4], hi[4], big = 0, hh = 0;
    int i;
    for (i = 0; i < 4; ++i) {
      SDF_FN(sub_bounds)(s, k, ix[k], i, &lo[i], &hi[i]);
      if (0.5 * (hi[i] - lo[i]) > hh) hh = 0.5 * (hi[i] - lo[i]);
    }
    j0[k] = 0;
    while (j0[k] < 4 && hi[j0[k]] < tp->lo[k])
      ++j0[k];
    j1[k] = 3;
    while (j1[k] >= 0 && lo[j1[k]] > tp->hi[k])
      --j1[k];
    for (i = j0[k]; i <= j1[k]; ++i) {
      at[k][i] = tp->n[k] * (0.5 * (lo[i] + hi[i]) - tp->v[0][k]);
      if (fabs(at[k][i]) > big) big = fabs(at[k][i]);
    }
    rad += fabs(tp->n[k]) * (hh + s->gpad);
    mag += big;
  }
  lim = tp->ok ? rad + tp->emax + 8.0 * DBL_EPSILON * (mag + rad) : INFINITY;
  for (j[2] = j0[2]; j[2] <= j1[2]; ++j[2])
    for (j[1] = j0[1]; j[1] <= j1[1]; ++j[1])
      for (j[0] = j0[0]; j[0] <= j1[0]; ++j[0]) {
        double sd = at[0][j[0]] + at[1][j[1]] + at[2][j[2]];
        touched |= (uint64_t) !(fabs(sd) > lim) << (j[0] + 4 * j[1] + 16 * j[2]);
      }
  return touched;
}

/* Every cell that triangle t may touch (its box's cells, each passed
 * through the conservative triangle-box test of prox/overlap.h, double,
 * on the widened cell box): with next NULL, counted in cell_off[c + 1];
 * else listed at cell_tris[next[c]++], with the triangle's box in the
 * cell (sdf_centry). */
static void SDF_FN(tri_cells)(SDF *s, uint32_t t, uint32_t *next) {
  sdf_tplane tp;
  const double *lo = tp.lo, *hi = tp.hi;
  size_t r0[3], r1[3], ix[3];
  prox_triangle tri;
  int k, one;
  SDF_FN(grid_tri)(s, t, tp.v);
  sdf_tplane_init(&tp);
  for (k = 0; k < 3; ++k) {
    SDF_FN(cell_range)(s, k, lo[k], hi[k], &r0[k], &r1[k]);
    tri.v[k] = prox_v3(tp.v[k][0], tp.v[k][1], tp.v[k][2]);
  }
  one = r0[0] == r1[0] && r0[1] == r1[1] && r0[2] == r1[2];
  for (ix[2] = r0[2]; ix[2] <= r1[2]; ++ix[2])
    for (ix[1] = r0[1]; ix[1] <= r1[1]; ++ix[1])
      for (ix[0] = r0[0]; ix[0] <= r1[0]; ++ix[0]) {
        prox_aabb box = SDF_FN(cell_box)(s, ix[0], ix[1], ix[2]);
        size_t c = (ix[2] * s->gn[1] + ix[1]) * s->gn[0] + ix[0];
        uint32_t qb = 0;
        if (!one && !prox_overlap_triangle_aabb(&tri, &box)) continue;
        if (!next) {
          ++s->cell_off[c + 1];
          continue;
        }
        for (k = 0; k < 3; ++k) {
          qb |= (uint32_t)SDF_FN(qlevel)(s, k, ix[k], lo[k], -s->gpad) << (10 * k);
          qb |= (uint32_t)SDF_FN(qlevel)(s, k, ix[k], hi[k], s->gpad) << (10 * k + 5);
        }
        s->cell_tris[next[c]].t = t;
        s->cell_tris[next[c]++].qb = qb;
        {
          /* The sub-cells it may touch, into the cell's record (zeroed
           * before the fill). */
          sdf_crec *r = (sdf_crec *)(void *)(s->cell_tris + s->cell_off[c]);
          uint64_t m = SDF_FN(sub_touched)(s, &tp, ix);
          r->code[0] |= (uint32_t)m;
          r->code[1] |= (uint32_t)(m >> 32);
        }
      }
}

/* The 6 face neighbours of cell u, into nb; returns how many. */
static int SDF_FN(neighbours)(const SDF *s, size_t u, size_t *nb) {
  size_t ui = u % s->gn[0], uj = u / s->gn[0] % s->gn[1], uk = u / s->gn[0] / s->gn[1];
  size_t layer = (size_t)s->gn[0] * s->gn[1];
  int m = 0;
  if (ui > 0) nb[m++] = u - 1;
  if (ui + 1 < s->gn[0]) nb[m++] = u + 1;
  if (uj > 0) nb[m++] = u - s->gn[0];
  if (uj + 1 < s->gn[1]) nb[m++] = u + s->gn[0];
  if (uk > 0) nb[m++] = u - layer;
  if (uk + 1 < s->gn[2]) nb[m++] = u + layer;
  return m;
}

/* The numbers of the sub-cells (sdf_crec) of every cell with triangles,
 * once the ranks are made. Each record's code[0..1] hold, from tri_cells,
 * the sub-cells its triangles may touch (sub_touched); the others are
 * free. Free sub-cells on a face whose neighbour cell has a known number
 * take that number (their boxes overlap, and neither meets a triangle);
 * then, in up to SDF_SUB_PASSES sweeps over the cells, free sub-cells on a
 * face take the number of the sub-cell facing them in a neighbour cell
 * with triangles (the same reason); in each cell, free sub-cells next to
 * one with a number take it. Up to three numbers a cell (the rest stay 0).
 * scratch (bytes): 32 bytes a cell with triangles or unknown number for
 * the sweeps, which are left out when it is smaller; nsurf: how many such
 * cells. The same numbers every time. */
#define SDF_SUB_PASSES 8
static void SDF_FN(sub_numbers)(SDF *s, size_t cells, uint32_t nsurf, void *scratch, size_t bytes) {
  uint64_t local[4], *mm = (uint64_t *)scratch, bits;
  size_t stride[3], c;
  uint32_t r;
  int sweeps = bytes / 32 >= (size_t)nsurf, pass, changed;
  stride[0] = 1;
  stride[1] = s->gn[0];
  stride[2] = (size_t)s->gn[0] * s->gn[1];
  /* Per cell: mm[4 r] the free sub-cells, mm[4 r + 1 + g] those with
   * number val[g] (the record's spare counts the numbers). */
  for (c = 0, r = 0; c < cells; ++c) {
    uint64_t *m;
    sdf_crec *rec;
    unsigned nb = (uint8_t)s->cell_w[c];
    int f;
    if (!SDF_IS_SURF(s->cell_w[c])) continue;
    m = sweeps ? mm + 4 * (size_t)r : local;
    ++r;
    m[0] = m[1] = m[2] = m[3] = 0;
    if (s->surf_off[r] == s->surf_off[r - 1]) continue; /* no triangles */
    rec = (sdf_crec *)(void *)(s->cell_tris + s->surf_off[r - 1]);
    m[0] = ~((uint64_t)rec->code[0] | (uint64_t)rec->code[1] << 32);
    memset(rec, 0, sizeof *rec);
    for (f = 0; f < 6; ++f)
      if (nb >> f & 1u)
        sdf_sub_give(rec, m, sdf_sub_face[f],
                     s->cell_w[f & 1 ? c + stride[f >> 1] : c - stride[f >> 1]]);
    if (!sweeps) sdf_sub_encode(rec, m);
  }
  if (!sweeps) return;
  for (pass = 0, changed = 1; pass < SDF_SUB_PASSES && changed; ++pass) {
    size_t blk;
    changed = 0;
    /* The cells of each rank block's bits, in order. */
    for (blk = 0, r = 0; blk < (cells + 63) / 64; ++blk)
      for (bits = s->rank[blk].bits; bits; bits &= bits - 1) {
        sdf_crec *rec;
        size_t ix;
        int k;
        c = 64 * blk + (size_t)sdf_ctz64(bits);
        ix = c;
        ++r;
        if (s->surf_off[r] == s->surf_off[r - 1]) continue;
        rec = (sdf_crec *)(void *)(s->cell_tris + s->surf_off[r - 1]);
        for (k = 0; k < 3; ++k) {
          size_t i = ix % s->gn[k];
          int side;
          ix /= s->gn[k];
          for (side = 0; side < 2; ++side) {
            size_t n;
            uint32_t rn;
            const sdf_crec *nrec;
            const uint64_t *mn;
            int g;
            if (side ? i + 1 >= s->gn[k] : i == 0) continue;
            n = side ? c + stride[k] : c - stride[k];
            if (!SDF_IS_SURF(s->cell_w[n])) continue;
            rn = sdf_rank_of(s->rank, n);
            if (s->surf_off[rn + 1] == s->surf_off[rn]) continue;
            nrec = (const sdf_crec *)(const void *)(s->cell_tris + s->surf_off[rn]);
            mn = mm + 4 * (size_t)rn;
            /* n's face towards c (n above: its j_k = 0, below: 3), moved
             * to c's facing sub-cells (j_k = 3, or 0). */
            for (g = 0; g < (int)nrec->spare; ++g) {
              unsigned sh = 3u << (2 * k);
              uint64_t x = mn[1 + g] & sdf_sub_face[2 * k + (side ? 0 : 1)];
              x = side ? x << sh : x >> sh;
              changed |= sdf_sub_give(rec, mm + 4 * (size_t)(r - 1), x, nrec->val[g]);
            }
          }
        }
      }
  }
  for (r = 0; r < nsurf; ++r)
    if (s->surf_off[r + 1] > s->surf_off[r])
      sdf_sub_encode((sdf_crec *)(void *)(s->cell_tris + s->surf_off[r]), mm + 4 * (size_t)r);
}

/* Builds the inside grid (see the struct): the triangles that may touch
 * each cell (tri_cells), groups of the other cells joined across faces,
 * each with the exact winding number at the centre of its first cell
 * (crossing_winding), and for each cell with triangles the nearest cell
 * without (breadth first). Sequential, so the same grid every time.
 * Returns 0 when out of memory (nothing kept), else 1 (the grid may be
 * absent: a mesh of one point). */
static int SDF_FN(grid_build)(SDF *s, const PROX_FN(prox_mesh) * mesh,
                              const prox_allocator *alloc) {
  double ext[3], maxext = 0, rel = 1, target, h, big = 0;
  size_t cells, c, head, tail, bytes, listed, blocks;
  uint32_t *queue, *tmp, t;
  char *block;
  int k;
  if (!(s->diag > 0) || !(s->diag < INFINITY)) return 1;
  for (k = 0; k < 3; ++k) {
    double pad = 1e-3 * s->diag;
    s->glo[k] = s->lo[k] - pad;
    ext[k] = s->hi[k] - s->lo[k] + 2 * pad;
    if (ext[k] > maxext) maxext = ext[k];
    if (fabs(s->lo[k]) + pad > big) big = fabs(s->lo[k]) + pad;
    if (fabs(s->hi[k]) + pad > big) big = fabs(s->hi[k]) + pad;
  }
  /* The volume relative to the longest side's cube: the volume itself
   * overflows for boxes above about 2^341 and underflows below 2^-358. */
  for (k = 0; k < 3; ++k)
    rel *= ext[k] / maxext;
  /* SDF_GRID_PER_TRI cells per triangle, 4096 to 2^22 of them, cubes no
   * smaller than 1/512 of the longest side (a flat mesh). */
  target = SDF_GRID_PER_TRI * (double)SDF_FN(grid_nt)(s);
  target = target < 4096 ? 4096 : target > 4194304 ? 4194304 : target;
  h = maxext * cbrt(rel / target);
  if (h < maxext / 512) h = maxext / 512;
  s->gh = h;
  /* Covers the rounding of a point's cell and of the cell boxes. */
  s->gpad = 1e-6 * h + 16.0 * 0x1p-52 * big;
  s->gqs = (double)SDF_QLEVELS / (h + 2 * s->gpad);
  cells = 1;
  for (k = 0; k < 3; ++k) {
    double n = ceil(ext[k] / h);
    s->gn[k] = n < 1 ? 1 : (uint32_t)n;
    cells *= s->gn[k];
  }
  /* One block: cell_w, the ranks, the vertices; a block by cell for the
   * build (cell_to, cell_off); then (after counting) the lists, a queue
   * for the searches, and at the end the arrays by rank. */
  blocks = (cells + 63) / 64;
  bytes = ((cells + 63) & ~(size_t)63) + sizeof(sdf_rank) * blocks;
  s->grid_bytes = bytes + 24 * (size_t)s->nv + 12 * (size_t)SDF_FN(grid_nt)(s);
  block = (char *)prox_mesh_detail_alloc(alloc, s->grid_bytes);
  if (!block) return 0;
  tmp = (uint32_t *)prox_mesh_detail_alloc(alloc, 8 * cells + 4);
  if (!tmp) {
    prox_mesh_detail_free(alloc, block, s->grid_bytes);
    return 0;
  }
  s->cell_w = (int8_t *)block;
  s->rank = (sdf_rank *)(void *)(block + ((cells + 63) & ~(size_t)63));
  s->cell_to = tmp;
  s->cell_off = tmp + cells;
  s->gv = (double *)(block + bytes);
  for (t = 0; t < s->nv; ++t)
    SDF_FN(mesh_vertex)(mesh, t, s->gv + 3 * (size_t)t);
  s->gtv = (uint32_t *)(s->gv + 3 * (size_t)s->nv);
  for (t = 0; t < s->nt; ++t) {
    s->gtv[3 * (size_t)t] = s->tri[t].v[0];
    s->gtv[3 * (size_t)t + 1] = s->tri[t].v[1];
    s->gtv[3 * (size_t)t + 2] = s->tri[t].v[2];
  }
  for (t = 0; t < s->ncap; ++t) {
    /* The caps, reversed. */
    size_t g = (size_t)s->nt + t;
    s->gtv[3 * g] = s->capv[3 * (size_t)t];
    s->gtv[3 * g + 1] = s->capv[3 * (size_t)t + 2];
    s->gtv[3 * g + 2] = s->capv[3 * (size_t)t + 1];
  }

  /* The lists: count, offsets, fill (cell_to holds the next slot). */
  memset(s->cell_off, 0, 4 * (cells + 1));
  for (t = 0; t < SDF_FN(grid_nt)(s); ++t)
    SDF_FN(tri_cells)(s, t, NULL);
  for (c = 0; c < cells; ++c)
    s->cell_off[c + 1] += s->cell_off[c] + (s->cell_off[c + 1] ? SDF_REC : 0);
  listed = s->cell_off[cells];
  s->list_bytes = 8 * listed + 8;
  s->cell_tris = (sdf_centry *)prox_mesh_detail_alloc(alloc, s->list_bytes);
  if (!s->cell_tris) {
    prox_mesh_detail_free(alloc, tmp, 8 * cells + 4);
    prox_mesh_detail_free(alloc, block, s->grid_bytes);
    s->cell_w = NULL;
    return 0;
  }
  memset(s->cell_tris, 0, s->list_bytes);
  for (c = 0; c < cells; ++c)
    s->cell_to[c] = s->cell_off[c] + (s->cell_off[c + 1] > s->cell_off[c] ? SDF_REC : 0);
  for (t = 0; t < SDF_FN(grid_nt)(s); ++t)
    SDF_FN(tri_cells)(s, t, s->cell_to);
  for (c = 0; c < cells; ++c)
    s->cell_w[c] = s->cell_off[c + 1] > s->cell_off[c] ? SDF_SURF : 0;

  /* Groups of cells without triangles, each with the winding number at
   * the centre of its first cell (a queue of its own). */
  queue = (uint32_t *)prox_mesh_detail_alloc(alloc, 4 * cells + 4);
  if (!queue) {
    prox_mesh_detail_free(alloc, s->cell_tris, s->list_bytes);
    prox_mesh_detail_free(alloc, tmp, 8 * cells + 4);
    prox_mesh_detail_free(alloc, block, s->grid_bytes);
    s->cell_w = NULL;
    s->cell_tris = NULL;
    return 0;
  }
  for (c = 0; c < cells; ++c)
    s->cell_to[c] = SDF_NOCELL;
  for (c = 0; c < cells; ++c) {
    static const double half[3] = {0.5, 0.5, 0.5};
    double p[3], w = 0;
    int8_t val;
    size_t q;
    if (SDF_IS_SURF(s->cell_w[c]) || s->cell_to[c] != SDF_NOCELL) continue;
    SDF_FN(cell_point)(s, c, half, p);
    val = SDF_FN(crossing_winding)(s, p, &w) == 1 && w >= -64 && w < 127 ? (int8_t)w : SDF_SURF;
    head = tail = 0;
    queue[tail++] = (uint32_t)c;
    s->cell_to[c] = (uint32_t)c;
    while (head < tail) {
      size_t nb[6];
      int m = SDF_FN(neighbours)(s, queue[head++], nb), e;
      for (e = 0; e < m; ++e)
        if (!SDF_IS_SURF(s->cell_w[nb[e]]) && s->cell_to[nb[e]] == SDF_NOCELL) {
          s->cell_to[nb[e]] = (uint32_t)nb[e];
          queue[tail++] = (uint32_t)nb[e];
        }
    }
    for (q = 0; q < tail; ++q)
      s->cell_w[queue[q]] = val;
  }

  /* Cells with triangles (or an unknown number): the nearest cell of known
   * number, breadth first from all of them at once, in index order. */
  head = tail = 0;
  for (c = 0; c < cells; ++c)
    if (!SDF_IS_SURF(s->cell_w[c])) {
      s->cell_to[c] = (uint32_t)c;
      queue[tail++] = (uint32_t)c;
    } else {
      s->cell_to[c] = SDF_NOCELL;
    }
  while (head < tail) {
    size_t u = queue[head++], nb[6];
    int m = SDF_FN(neighbours)(s, u, nb), e;
    for (e = 0; e < m; ++e)
      if (s->cell_to[nb[e]] == SDF_NOCELL) {
        s->cell_to[nb[e]] = s->cell_to[u];
        queue[tail++] = (uint32_t)nb[e];
      }
  }
  prox_mesh_detail_free(alloc, queue, 4 * cells + 4);
  /* Each cell with triangles notes its face neighbours of known number. */
  for (c = 0; c < cells; ++c) {
    size_t stride = 1, ix = c;
    unsigned m = 0;
    if (!SDF_IS_SURF(s->cell_w[c])) continue;
    for (k = 0; k < 3; ++k) {
      size_t i = ix % s->gn[k];
      ix /= s->gn[k];
      if (i > 0 && !SDF_IS_SURF(s->cell_w[c - stride])) m |= 1u << (2 * k);
      if (i + 1 < s->gn[k] && !SDF_IS_SURF(s->cell_w[c + stride])) m |= 2u << (2 * k);
      stride *= s->gn[k];
    }
    s->cell_w[c] = (int8_t)(0x80u | m);
  }
  /* The ranks, and the offsets and nearest known cells by rank; then the
   * sub-cells' numbers (the arrays by cell, no longer read, as scratch). */
  {
    uint32_t nsurf = 0, r;
    for (c = 0; c < cells; ++c) {
      if ((c & 63) == 0) {
        s->rank[c >> 6].bits = 0;
        s->rank[c >> 6].base = nsurf;
        s->rank[c >> 6].pad = 0;
      }
      if (SDF_IS_SURF(s->cell_w[c])) {
        s->rank[c >> 6].bits |= (uint64_t)1 << (c & 63);
        ++nsurf;
      }
    }
    s->surf_bytes = 4 * (2 * (size_t)nsurf + 1);
    s->surf_off = (uint32_t *)prox_mesh_detail_alloc(alloc, s->surf_bytes);
    if (!s->surf_off) {
      prox_mesh_detail_free(alloc, s->cell_tris, s->list_bytes);
      prox_mesh_detail_free(alloc, tmp, 8 * cells + 4);
      prox_mesh_detail_free(alloc, block, s->grid_bytes);
      s->cell_w = NULL;
      s->cell_tris = NULL;
      return 0;
    }
    s->surf_to = s->surf_off + nsurf + 1;
    for (c = 0, r = 0; c < cells; ++c)
      if (SDF_IS_SURF(s->cell_w[c])) {
        s->surf_off[r] = s->cell_off[c];
        s->surf_to[r++] = s->cell_to[c];
      }
    s->surf_off[nsurf] = s->cell_off[cells];
    s->cell_to = s->cell_off = NULL;
    SDF_FN(sub_numbers)(s, cells, nsurf, tmp, 8 * cells + 4);
  }
  prox_mesh_detail_free(alloc, tmp, 8 * cells + 4);
  return 1;
}

/* The signed crossing count of segment p q with m triangles: ids[0 .. m)
 * or, when ids is NULL, the triangles of the list entries e[0 .. m).
 * Returns as segment(). */
static int SDF_FN(cell_count)(const SDF *s, const double *p, const double *q, const uint32_t *ids,
                              const sdf_centry *e, uint32_t m, long *count) {
  double slo[3], shi[3];
  uint32_t i;
  sdf_segment_box(p, q, slo, shi);
  for (i = 0; i < m; ++i) {
    double v[3][3];
    int sg = 0, x;
    SDF_FN(grid_tri)(s, ids ? ids[i] : e[i].t, v);
    x = sdf_cross_boxed(p, q, slo, shi, (const double(*)[3])v, &sg);
    if (x == 1) *count += sg;
    if (x == 2) return 0;
    if (x == 3) return 3;
  }
  return 1;
}

/* Appends to along[0 .. na) the triangles of cell's list whose box in the
 * cell meets levels lo[k] .. hi[k] on every axis k (skipping those already
 * there when dedupe is set), in the list's order; returns the new count,
 * or SDF_ALONG_MAX + 1 when they do not fit. With SSE2 the boxes of four
 * entries are tested at once (the same comparisons). */
static uint32_t SDF_FN(gather)(const SDF *s, size_t cell, const int *lo, const int *hi, int dedupe,
                               uint32_t *along, uint32_t na) {
  uint32_t i, j, r = sdf_rank_of(s->rank, cell), a = s->surf_off[r], b = s->surf_off[r + 1];
  unsigned pass = 0;
  if (b > a) a += SDF_REC; /* the sub-grid */
  for (i = a; i < b; ++i) {
    uint32_t t;
#if defined(PBQ_SSE2)
    if (((i - a) & 3u) == 0) {
      if (i + 4 <= b) {
        /* Entries i .. i + 3: their qb words, then each bound against
         * the levels (values 0 .. 31: signed comparisons). */
        const __m128i f5 = _mm_set1_epi32(31);
        __m128i e0 = _mm_loadu_si128((const __m128i *)(const void *)(s->cell_tris + i));
        __m128i e1 = _mm_loadu_si128((const __m128i *)(const void *)(s->cell_tris + i + 2));
        __m128i q = _mm_unpacklo_epi64(_mm_shuffle_epi32(e0, _MM_SHUFFLE(3, 1, 3, 1)),
                                       _mm_shuffle_epi32(e1, _MM_SHUFFLE(3, 1, 3, 1)));
        __m128i fail = _mm_setzero_si128();
        fail = _mm_or_si128(fail, _mm_cmpgt_epi32(_mm_and_si128(q, f5), _mm_set1_epi32(hi[0])));
        fail = _mm_or_si128(
            fail, _mm_cmpgt_epi32(_mm_set1_epi32(lo[0]), _mm_and_si128(_mm_srli_epi32(q, 5), f5)));
        fail = _mm_or_si128(
            fail, _mm_cmpgt_epi32(_mm_and_si128(_mm_srli_epi32(q, 10), f5), _mm_set1_epi32(hi[1])));
        fail = _mm_or_si128(
            fail, _mm_cmpgt_epi32(_mm_set1_epi32(lo[1]), _mm_and_si128(_mm_srli_epi32(q, 15), f5)));
        fail = _mm_or_si128(
            fail, _mm_cmpgt_epi32(_mm_and_si128(_mm_srli_epi32(q, 20), f5), _mm_set1_epi32(hi[2])));
        fail = _mm_or_si128(
            fail, _mm_cmpgt_epi32(_mm_set1_epi32(lo[2]), _mm_and_si128(_mm_srli_epi32(q, 25), f5)));
        pass = ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(fail)) & 15u;
        if (!pass) {
          i += 3;
          continue;
        }
      } else {
        pass = 16u; /* the last few: one at a time */
      }
    }
    if (pass != 16u) {
      unsigned bit = 1u << ((i - a) & 3u);
      if (!(pass & bit)) continue;
    } else
#endif
    {
      uint32_t qb = s->cell_tris[i].qb;
      int ok = 1, k;
      for (k = 0; k < 3; ++k) {
        int qlo = (int)(qb >> (10 * k) & 31u), qhi = (int)(qb >> (10 * k + 5) & 31u);
        ok &= qlo <= hi[k] && qhi >= lo[k];
      }
      if (!ok) continue;
    }
    t = s->cell_tris[i].t;
    if (dedupe) {
      for (j = 0; j < na && along[j] != t; ++j) {
      }
      if (j < na) continue;
    }
    if (na == SDF_ALONG_MAX) return SDF_ALONG_MAX + 1;
    along[na++] = t;
  }
  (void)pass;
  return na;
}

/* The winding number at p of a mesh with an inside grid. In a cell
 * without triangles: the cell's. In a sub-cell of known number (the cell's
 * record, sdf_crec): that number. In a cell c with triangles next to one
 * without, c': that one's, plus the crossings of the segment from p to a
 * point q of c' with c's triangles alone (the segment stays in the union
 * of the two widened boxes, a box, and c' meets no triangle; the count is
 * W(p) - W(q)); first along the axis to c' (only the list entries whose
 * box in c the segment meets), then, where that one touches an edge or a
 * vertex, to other points of c'. Else, from a cell of known number up to
 * SDF_AXIS_STEPS cells away along an axis, the crossings of the segment
 * along that axis with the entries of the cells it passes (each triangle
 * once; through the tree when they are too many); else the crossings
 * through the tree of segments to the nearest such cell; then
 * crossing_winding(). Returns as crossing_winding(). */
static int SDF_FN(grid_winding)(const SDF *s, const double *p, double *w) {
  static const double at[4][3] = {{0.5, 0.5, 0.5},
                                  {0.3090169943749474, 0.7236067977499789, 0.4472135954999579},
                                  {0.6180339887498948, 0.2763932022500210, 0.6545084971874737},
                                  {0.7071067811865475, 0.3826834323650898, 0.2928932188134524}};
  size_t ix[3], c, to, n = 0, stride[3], steps = 0;
  double f[3];
  uint32_t rk, a, b;
  int k, tries, bax = -1, up = 0;
  if (!s->cell_w) return SDF_FN(crossing_winding)(s, p, w);
  for (k = 0; k < 3; ++k) {
    double x = (p[k] - s->glo[k]) / s->gh;
    if (!(x >= 0 && x < (double)s->gn[k])) {
      *w = 0; /* outside the grid, which holds the mesh's box */
      return 1;
    }
    ix[k] = (size_t)x;
    f[k] = x - (double)ix[k];
  }
  stride[0] = 1;
  stride[1] = s->gn[0];
  stride[2] = (size_t)s->gn[0] * s->gn[1];
  c = ix[2] * stride[2] + ix[1] * stride[1] + ix[0];
  if (!SDF_IS_SURF(s->cell_w[c])) {
    *w = (double)s->cell_w[c];
    return 1;
  }
  rk = sdf_rank_of(s->rank, c);
  a = s->surf_off[rk];
  b = s->surf_off[rk + 1];
  if (b > a) {
    /* p's sub-cell (levels as qlevel counts them, from f: within gpad of
     * p's), and its number when the cell's sub-grid knows it. */
    const sdf_crec *r = (const sdf_crec *)(const void *)(s->cell_tris + a);
    unsigned j = 0, code;
    for (k = 0; k < 3; ++k) {
      double u = (f[k] * s->gh + s->gpad) * s->gqs;
      unsigned l = u < SDF_QLEVELS - 1 ? (unsigned)u : SDF_QLEVELS - 1;
      j |= (l >> 3) << (2 * k);
    }
    code = r->code[j >> 4] >> (2 * (j & 15u)) & 3u;
    if (code) {
      *w = (double)r->val[code - 1];
      return 1;
    }
  }
  /* The cell of known number to count from, along an axis (bax, up or
   * down, `steps` cells away): the face neighbour nearest to p among
   * those the cell's byte marks, else the nearest along an axis up to
   * SDF_AXIS_STEPS cells away. */
  {
    double bd = INFINITY;
    unsigned nbm = (uint8_t)s->cell_w[c];
    size_t j;
    for (k = 0; k < 3; ++k) {
      if ((nbm >> (2 * k) & 1u) && f[k] < bd) {
        bd = f[k];
        bax = k;
        up = 0;
      }
      if ((nbm >> (2 * k) & 2u) && 1 - f[k] < bd) {
        bd = 1 - f[k];
        bax = k;
        up = 1;
      }
    }
    steps = 1;
    for (k = 0; k < 3 && nbm == 0x80u; ++k) {
      for (j = 2; j <= SDF_AXIS_STEPS && j <= ix[k]; ++j)
        if (!SDF_IS_SURF(s->cell_w[c - j * stride[k]])) {
          if ((double)(j - 1) + f[k] < bd) {
            bd = (double)(j - 1) + f[k];
            bax = k;
            up = 0;
            steps = j;
          }
          break;
        }
      for (j = 2; j <= SDF_AXIS_STEPS && ix[k] + j < s->gn[k]; ++j)
        if (!SDF_IS_SURF(s->cell_w[c + j * stride[k]])) {
          if ((double)j - f[k] < bd) {
            bd = (double)j - f[k];
            bax = k;
            up = 1;
            steps = j;
          }
          break;
        }
    }
  }
  if (bax >= 0) {
    uint32_t along[SDF_ALONG_MAX], na = 0;
    if (b > a) a += SDF_REC; /* the sub-grid */
    size_t i;
    long count = 0;
    double q[3];
    int lo[3], hi[3], r;
    n = up ? c + steps * stride[bax] : c - steps * stride[bax];
    /* The segment from p along the axis to the middle of cell n lies in
     * the widened boxes of c, the cells between (all with triangles) and
     * n (none): its crossings are with triangles of their lists whose box
     * in that cell meets it, gathered once each: p's levels on the other
     * axes (widened by gpad), on bax from p to c's face, then whole. */
    SDF_FN(cell_point)(s, n, at[0], q);
    for (k = 0; k < 3; ++k) {
      q[k] = k == bax ? q[k] : p[k];
      lo[k] = SDF_FN(qlevel)(s, k, ix[k], p[k], -s->gpad);
      hi[k] = SDF_FN(qlevel)(s, k, ix[k], p[k], s->gpad);
    }
    if (up)
      hi[bax] = SDF_QLEVELS - 1;
    else
      lo[bax] = 0;
    for (i = 0; i < steps && na <= SDF_ALONG_MAX; ++i) {
      size_t ci = up ? c + i * stride[bax] : c - i * stride[bax];
      if (i == 1) {
        lo[bax] = 0;
        hi[bax] = SDF_QLEVELS - 1;
      }
      na = SDF_FN(gather)(s, ci, lo, hi, steps > 1, along, na);
    }
    for (i = 0; i < na && na <= SDF_ALONG_MAX; ++i)
      SDF_PREFETCH(s->gtv + 3 * (size_t)along[i]);
    if (na <= SDF_ALONG_MAX)
      r = SDF_FN(cell_count)(s, p, q, along, NULL, na, &count);
    else if (steps == 1)
      r = SDF_FN(cell_count)(s, p, q, NULL, s->cell_tris + a, b - a, &count);
    else
      r = SDF_FN(segment)(s, p, q, 1, &count, NULL, NULL);
    if (r == 3) return 3;
    if (r == 1) {
      *w = (double)s->cell_w[n] + (double)count;
      return 1;
    }
    /* That segment touches an edge or a vertex: next to n, segments to
     * other points of it with c's whole list. */
    for (tries = 1; tries < 4 && steps == 1; ++tries) {
      count = 0;
      SDF_FN(cell_point)(s, n, at[tries], q);
      r = SDF_FN(cell_count)(s, p, q, NULL, s->cell_tris + a, b - a, &count);
      if (r == 3) return 3;
      if (r == 1) {
        *w = (double)s->cell_w[n] + (double)count;
        return 1;
      }
    }
  }
  /* Else segments through the tree to the nearest cell of known number. */
  to = s->surf_to[rk];
  if (to != SDF_NOCELL && !SDF_IS_SURF(s->cell_w[to])) {
    for (tries = 0; tries < 4; ++tries) {
      double q[3];
      long count = 0;
      int r;
      SDF_FN(cell_point)(s, to, at[tries], q);
      r = SDF_FN(segment)(s, p, q, 1, &count, NULL, NULL);
      if (r == 3) return 3;
      if (r == 1) {
        *w = (double)s->cell_w[to] + (double)count;
        return 1;
      }
    }
  }
  return SDF_FN(crossing_winding)(s, p, w);
}

#if PROX_IS_DOUBLE
/* The tests' hook of src/mesh/sign_check.h: the grid's geometry. */
int prox_sdf_detail_grid(const SDF *s, double glo[3], double *gh, double *gpad, double *gqs,
                         uint32_t gn[3]) {
  int k;
  if (!s || !s->cell_w) return 0;
  for (k = 0; k < 3; ++k) {
    glo[k] = s->glo[k];
    gn[k] = s->gn[k];
  }
  *gh = s->gh;
  *gpad = s->gpad;
  *gqs = s->gqs;
  return 1;
}
#endif

/* The test hook of src/mesh/sign_check.h. */
size_t PROX_FN(prox_sdf_detail_check_subcells)(const SDF *s, size_t step, size_t every,
                                               size_t *checked, size_t *valued) {
  size_t cells, c, bad = 0, nchk = 0, nval = 0;
  if (checked) *checked = 0;
  if (valued) *valued = 0;
  if (!s || !s->cell_w) return 0;
  cells = (size_t)s->gn[0] * s->gn[1] * s->gn[2];
  for (c = 0; c < cells; c += step ? step : 1) {
    uint32_t rk, a, b, e;
    const sdf_crec *r;
    size_t ix[3];
    unsigned u;
    if (!SDF_IS_SURF(s->cell_w[c])) continue;
    rk = sdf_rank_of(s->rank, c);
    a = s->surf_off[rk];
    b = s->surf_off[rk + 1];
    if (b <= a) continue;
    r = (const sdf_crec *)(const void *)(s->cell_tris + a);
    ix[0] = c % s->gn[0];
    ix[1] = c / s->gn[0] % s->gn[1];
    ix[2] = c / s->gn[0] / s->gn[1];
    for (u = 0; u < 64; ++u) {
      unsigned code = r->code[u >> 4] >> (2 * (u & 15u)) & 3u;
      double lo[3], hi[3], mid[3], w = 0;
      int k, fail = 0;
      if (!code) continue;
      /* The box that sub_touched tested. */
      for (k = 0; k < 3; ++k) {
        SDF_FN(sub_bounds)(s, k, ix[k], (int)(u >> (2 * k) & 3u), &lo[k], &hi[k]);
        mid[k] = 0.5 * (lo[k] + hi[k]);
      }
      for (e = a + SDF_REC; e < b && !fail; ++e) {
        double v[3][3];
        SDF_FN(grid_tri)(s, s->cell_tris[e].t, v);
        fail = sdf_tri_box_exact((const double(*)[3])v, lo, hi);
      }
      ++nchk;
      if (!fail && every && nchk % every == 0) {
        ++nval;
        fail = SDF_FN(crossing_winding)(s, mid, &w) != 1 || w != (double)r->val[code - 1];
      }
      bad += (size_t)fail;
    }
  }
  if (checked) *checked = nchk;
  if (valued) *valued = nval;
  return bad;
}

/* Triangles whose pseudo-normal sign cannot be trusted on a mesh that
 * meets itself (or may: components whose boxes overlap): those that meet
 * another (self_pairs), and those whose front is not outside. Where a
 * triangle meets no other, the winding number just in front of it is the
 * same all over it, and one less than just behind; the pseudo-normal test
 * is right near a feature whose triangles all have 0 in front and 1
 * behind (there the surface is locally an embedded disc with the outside
 * in front). The front's number is read at x = g + e n (g the centroid, n
 * the unit normal, e a thousandth of the triangle's size) once the
 * segment from x to g - e n is seen to cross this triangle alone, inward.
 * The others get tri[t].bad, and their edges and vertices are marked. Returns
 * 0 when out of memory. */
/* Whether triangle t's front is outside (see mark_irregular). */
static int SDF_FN(front_outside)(const SDF *s, const PROX_FN(prox_mesh) * mesh, uint32_t t) {
  double v[3][3], g[3], x[3], y[3], e1[3], e2[3], c[3], e, w = -1;
  const double *n = s->tri[t].n;
  long count = 0, hits = 0;
  int k;
  for (k = 0; k < 3; ++k)
    SDF_FN(mesh_vertex)(mesh, s->tri[t].v[k], v[k]);
  for (k = 0; k < 3; ++k) {
    g[k] = (v[0][k] + v[1][k] + v[2][k]) / 3.0;
    e1[k] = v[1][k] - v[0][k];
    e2[k] = v[2][k] - v[0][k];
  }
  c[0] = e1[1] * e2[2] - e1[2] * e2[1];
  c[1] = e1[2] * e2[0] - e1[0] * e2[2];
  c[2] = e1[0] * e2[1] - e1[1] * e2[0];
  e = 1e-3 * sqrt(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
  for (k = 0; k < 3; ++k) {
    x[k] = g[k] + e * n[k];
    y[k] = g[k] - e * n[k];
  }
  return e > 0 && SDF_FN(segment)(s, x, y, 0, &count, &hits, NULL) == 1 && hits == 1 &&
         count == -1 && SDF_FN(grid_winding)(s, x, &w) == 1 && w == 0;
}

typedef struct SDF_FN(front_job) {
  SDF *s;
  const PROX_FN(prox_mesh) * mesh;
  const sdf_flag *mark;
  uint8_t *bad; /* 1: irregular (one byte per triangle, each its own) */
  sdf_counter next;
} SDF_FN(front_job);

static void SDF_FN(front_worker)(void *arg) {
  SDF_FN(front_job) *j = (SDF_FN(front_job) *)arg;
  for (;;) {
    size_t b = SDF_NEXT(j->next, (size_t)SDF_CHUNK), e, t;
    if (b >= j->s->nt) break;
    e = b + SDF_CHUNK < j->s->nt ? b + SDF_CHUNK : j->s->nt;
    for (t = b; t < e; ++t)
      j->bad[t] = !j->s->tri[t].bad &&
                  (SDF_GET(j->mark[t]) || !SDF_FN(front_outside)(j->s, j->mesh, (uint32_t)t));
  }
}

static int SDF_FN(mark_irregular)(SDF *s, const PROX_FN(prox_mesh) * mesh,
                                  const prox_mesh_topology *tp, const prox_allocator *alloc,
                                  int threads) {
  size_t bytes = (s->nt ? s->nt : 1) * (sizeof(sdf_flag) + 1), t;
  char *block = (char *)prox_mesh_detail_alloc(alloc, bytes);
  sdf_flag *mark = (sdf_flag *)block;
  SDF_FN(front_job) j;
  size_t pieces = ((size_t)s->nt + SDF_CHUNK - 1) / SDF_CHUNK;
  int k;
  if (!block) return 0;
  for (t = 0; t < s->nt; ++t)
    SDF_FLAG_INIT(mark[t]);
  SDF_FN(self_any)(mesh, &s->view, mark, threads);
  j.s = s;
  j.mesh = mesh;
  j.mark = mark;
  j.bad = (uint8_t *)(block + (s->nt ? s->nt : 1) * sizeof(sdf_flag));
  SDF_INIT(j.next, 0);
  if (threads <= 0) threads = prox_mesh_detail_cores();
  if ((size_t)threads > pieces) threads = pieces ? (int)pieces : 1;
  prox_mesh_detail_parallel(threads, SDF_FN(front_worker), &j);
  for (t = 0; t < s->nt; ++t) {
    if (!j.bad[t]) continue;
    s->tri[t].bad = 1;
    for (k = 0; k < 3; ++k) {
      uint32_t ed = tp->triangle_edges[3 * t + (size_t)k];
      s->vflag[s->tri[t].v[k]] = 1;
      if (ed != PROX_TOPOLOGY_NONE) s->eflag[ed] = 1;
    }
  }
  prox_mesh_detail_free(alloc, block, bytes);
  return 1;
}

/* The hierarchical generalized winding number (Barill et al. 2018, first
 * order). */
static double SDF_FN(fast_winding)(const SDF *s, const double *p, size_t *work) {
  uint32_t stack[PROX_BVH_STACK];
  size_t nodes = 0, far = 0, tris = 0;
  int sp = 0;
  double w = 0, acc2 = s->accuracy * s->accuracy, q[3];
  sdf_angle ang;
  sdf_angle_init(&ang);
  /* p in the moments' frame; the triangles' solid angles take p itself. */
  SDF_FN(to_frame)(s, p, q);
  stack[sp++] = 0;
  while (sp > 0) {
    uint32_t ni = stack[--sp];
    const prox_bvh_node *nd = &s->view.nodes[ni];
    int i;
    ++nodes;
    for (i = 0; i < nd->n_child; ++i) {
      const double *m = s->mom + 8 * (4 * (size_t)ni + (size_t)i);
      double dx = m[3] - q[0], dy = m[4] - q[1], dz = m[5] - q[2];
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 > acc2 * m[6] * m[6]) {
        ++far;
        w += sdf_dipole(m, dx, dy, dz, r2);
      } else if (nd->count[i]) {
        uint32_t j;
        tris += nd->count[i];
        for (j = 0; j < nd->count[i]; ++j) {
          double t[3][3];
          double det, den;
          SDF_FN(tri_at)(s, nd->child[i], nd->count[i], j, t);
          if (sdf_solid_terms(p, t[0], t[1], t[2], &det, &den, NULL)) sdf_angle_mul(&ang, det, den);
        }
      } else {
        stack[sp++] = nd->child[i];
      }
    }
  }
  if (work) {
    work[0] += nodes;
    work[1] += far;
    work[2] += tris;
  }
  return w + sdf_angle_turns(&ang);
}

/* The caps' winding number at p (SDF's cap), from their tree at the
 * accuracy; *unsure set when p lies within rounding of a cap's plane inside
 * its cone (sdf_solid). */
static double SDF_FN(cap_winding)(const SDF *s, const double *p, int *unsure, size_t *work) {
  uint32_t stack[PROX_BVH_STACK];
  size_t nodes = 0, far = 0, tris = 0;
  int sp = 0;
  double w = 0, acc2 = s->accuracy * s->accuracy, q[3];
  sdf_angle ang;
  sdf_angle_init(&ang);
  SDF_FN(to_frame)(s, p, q);
  stack[sp++] = s->caproot;
  while (sp > 0) {
    const sdf_capnode *nd = s->capn + stack[--sp];
    const double *m = nd->m;
    double dx = m[3] - q[0], dy = m[4] - q[1], dz = m[5] - q[2];
    double r2 = dx * dx + dy * dy + dz * dz;
    ++nodes;
    if (r2 > acc2 * m[6] * m[6]) {
      w += sdf_dipole(m, dx, dy, dz, r2);
      ++far;
    } else if (nd->count) {
      uint32_t j;
      tris += nd->count;
      for (j = nd->first; j < nd->first + nd->count; ++j) {
        const double *c = s->cap + 9 * (size_t)j;
        double det, den;
        if (sdf_solid_terms(p, c, c + 3, c + 6, &det, &den, unsure)) sdf_angle_mul(&ang, det, den);
      }
    } else {
      stack[sp++] = nd->right;
      stack[sp++] = nd->left;
    }
  }
  if (work) {
    work[0] += nodes;
    work[1] += far;
    work[2] += tris;
  }
  return w + sdf_angle_turns(&ang);
}

/* The winding number of any mesh at infinite accuracy, without summing
 * every triangle. Seen from p, a triangle's solid angle is the sum of the
 * three spherical triangles from a direction -d to its sides, less 4 pi
 * times the sign of its crossing if the ray from p along d (the antipode)
 * crosses it. Summed over the mesh the sides inside the surface cancel,
 * and what is left is the exact signed crossing count of the ray along d
 * (crossing_winding's segment) plus the spherical triangles from -d to the
 * boundary edges (times their multiplicities), rounded once each (the
 * segment's direction is d, the spherical triangles' apex -d). Returns as
 * crossing_winding(). */
static int SDF_FN(exact_winding)(const SDF *s, const double *p, double *w) {
  return SDF_FN(ray_winding)(s, p, w, 1, 0, NULL);
}

/* Pseudo-normal sign of p from its closest point: 1 outside, -1 inside,
 * 0 not certain. */
static int SDF_FN(pseudo)(const SDF *s, const double *p, const SDF_MC *mc, uint32_t pos,
                          double dist) {
  const sdf_prec *r;
  double d[3], n[3], dot, scale, tol;
  int k, j = mc->feature.index;
  if (pos == PROX_BVH_NONE || !s->rec) return 0;
  r = s->rec + pos;
  if (r->bad & 1) return 0;
  switch (mc->feature.kind) {
  case PROX_FEATURE_FACE:
    n[0] = r->n[0];
    n[1] = r->n[1];
    n[2] = r->n[2];
    tol = 1e-9;
    break;
  case PROX_FEATURE_EDGE:
    if (j < 0 || j > 2 || (r->bad >> (1 + j) & 1)) return 0;
    for (k = 0; k < 3; ++k)
      n[k] = sdf_unq16(r->en[j][k]);
    tol = 1e-4;
    break;
  case PROX_FEATURE_VERTEX:
    if (j < 0 || j > 2 || (r->bad >> (4 + j) & 1)) return 0;
    for (k = 0; k < 3; ++k)
      n[k] = sdf_unq16(r->vn[j][k]);
    tol = 1e-4;
    break;
  default:
    return 0;
  }
  d[0] = p[0] - (double)mc->point.x;
  d[1] = p[1] - (double)mc->point.y;
  d[2] = p[2] - (double)mc->point.z;
  dot = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
  /* Certain when p - c is not within tol of tangent and the dot product
   * exceeds the closest point's rounding (a few eps of the coordinates).
   * n is a unit vector (or zero: never certain) up to its rounding: 1e-9
   * covers the face's double; 1e-4 the edges' and vertices' 16 bits
   * (within 2.7e-5 of unit length and direction, sdf_q16). dist is
   * |p - c|. */
  scale = (double)s->view.max_abs;
  for (k = 0; k < 3; ++k)
    if (fabs(p[k]) > scale) scale = fabs(p[k]);
  if (!(fabs(dot) > tol * dist + 64.0 * (double)PROX_EPS * scale)) return 0;
  return dot > 0 ? 1 : -1;
}

/* WINDING: the winding number (hierarchical, or exact_winding at infinite
 * accuracy), inside and certain. */
static void SDF_FN(winding_of)(const SDF *s, const double *p, double *w, int *inside,
                               int *certain) {
  if (s->accuracy == INFINITY) {
    int r = SDF_FN(exact_winding)(s, p, w);
    if (r != 1) {
      *w = 0.5; /* on the mesh */
      *inside = 0;
      *certain = 0;
      return;
    }
    *inside = *w > 0.5;
    /* Rounding: one error of a few eps per boundary edge. */
    *certain = fabs(*w - 0.5) > 1e-12 * (double)(s->nbnd + 1);
    return;
  }
  {
    /* With caps, the cycle's exact count plus the caps' number; on the
     * mesh or a cap within rounding (or without caps), the mesh's own
     * tree. */
    int unsure = 1;
    double wc = 0;
    if (s->cap && SDF_FN(grid_winding)(s, p, &wc) == 1) {
      unsure = 0;
      *w = wc + SDF_FN(cap_winding)(s, p, &unsure, NULL);
    }
    if (unsure) *w = SDF_FN(fast_winding)(s, p, NULL);
  }
  *inside = *w > 0.5;
  *certain = fabs(*w - 0.5) > s->tolerance;
}

/* The sign of p given its closest point (mc found, its tree position pos),
 * into *out. */
static void SDF_FN(finish)(const SDF *s, SDF_V3 pv, const SDF_MC *mc, uint32_t pos, SDF_RES *out) {
  double p[3], w = 0;
  PROX_REAL dist = PROX_SQRT(mc->sqdist);
  int inside = 0, certain = 1, method = s->method, r;
  p[0] = (double)pv.x;
  p[1] = (double)pv.y;
  p[2] = (double)pv.z;
  out->closest = *mc;
  if (mc->sqdist == 0) {
    out->distance = 0;
    out->inside = 0;
    out->certain = 0;
    out->method = method;
    out->winding = 0.5;
    return;
  }
  if (method == PROX_SIGN_PSEUDONORMAL) {
    int sg = SDF_FN(pseudo)(s, p, mc, pos, (double)dist);
    if (sg != 0) {
      inside = sg < 0;
      w = inside ? 1.0 : 0.0;
    } else {
      method = PROX_SIGN_CROSSINGS;
    }
  }
  if (method == PROX_SIGN_CROSSINGS) {
    r = SDF_FN(grid_winding)(s, p, &w);
    if (r == 1) {
      inside = w > 0.5;
    } else {
      /* On the mesh within rounding (or undecided): no sign. */
      inside = 0;
      certain = 0;
      w = 0.5;
    }
  } else if (method == PROX_SIGN_WINDING) {
    SDF_FN(winding_of)(s, p, &w, &inside, &certain);
  }
  out->distance = inside ? -dist : dist;
  out->inside = inside;
  out->certain = certain;
  out->method = method;
  out->winding = w;
}

/* ---- the closest point under the sign: prox_bvh_closest's walk
 * (prox/detail/bvh_query.inl with the same leaf and node test, so the same
 * answers bit for bit) on the object's copy of the tree's view, which
 * fetches the sign's record of each triangle that becomes the nearest so
 * far. The record the sign reads is then on its way while the walk goes
 * on, instead of a cache miss after it. */
#include "bvh_query_leaf.inl"

/* The walk found a nearer triangle, at position pos of the view v (the
 * view member of an SDF: SDF_FN(closest) passes no other). */
static inline void SDF_FN(improved)(const PROX_FN(prox_bvh_view) * v, uint32_t pos) {
  const SDF *s = (const SDF *)(const void *)((const char *)v - offsetof(SDF, view));
  if (s->rec) SDF_PREFETCH(s->rec + pos);
}

#define PROX_BVHQ_CUSTOM 1
#define PROX_BVHQ_NAME(name) SDF_FN(name)
#define PROX_BVHQ_QUAL static inline
#define PROX_BVHQ_LEAF(view, p, first, n, pos) PROX_FN(pbq_leaf)(view, p, first, n, pos)
#define PROX_BVHQ_IMPROVED(view, pos) SDF_FN(improved)(view, pos)
#include <prox/detail/bvh_query.inl>
#undef PROX_BVHQ_CUSTOM
#undef PROX_BVHQ_NAME
#undef PROX_BVHQ_QUAL
#undef PROX_BVHQ_LEAF
#undef PBQ_BOXD4

/* prox_bvh_closest(s->bvh, p, INFINITY, out), the same bits, for the
 * points p[0, n) in a row, each from its predecessor's answer (the loop of
 * prox_bvh_closest_range, over this file's walk). */
#define PBQ_RUN_NAME SDF_FN(closest_run)
#define PBQ_RUN_WALK SDF_FN(prox_bvh_detail_nearest)
#include "bvh_query_run.inl"

/* The same answers, PBQ_PK points walking the tree together
 * (bvh_query_packet.inl): for points in a coherent order. */
#define PBQ_PK_WALK SDF_FN(closest_pk_walk)
#define PBQ_PK_RUN SDF_FN(closest_pk_run)
#define PBQ_PK_IMPROVED(view, pos) SDF_FN(improved)(view, pos)
#include "bvh_query_packet.inl"

/* The closest points of p[0, n) into out, their tree positions into pos;
 * coherent: the points are in a coherent order (neighbours in a row). */
static void SDF_FN(closest)(const SDF *s, const SDF_V3 *p, size_t n, SDF_MC *out, uint32_t *pos,
                            int coherent) {
  if (coherent)
    SDF_FN(closest_pk_run)(&s->view, p, NULL, PROX_INF, out, pos, 0, n);
  else
    SDF_FN(closest_run)(&s->view, p, NULL, PROX_INF, out, pos, 0, n);
}

static void SDF_FN(nan_result)(SDF_RES *out, int method) {
  memset(out, 0, sizeof *out);
  out->closest.triangle = UINT32_MAX;
  out->closest.sqdist = PROX_NAN;
  out->distance = PROX_NAN;
  out->method = method;
  out->winding = (double)NAN;
}

PROX_REAL PROX_FN(prox_sdf_distance)(const SDF *s, SDF_V3 p, SDF_RES *out) {
  SDF_MC mc;
  SDF_RES r;
  uint32_t pos;
  if (!out) out = &r;
  if (!PROX_FN(pbq_finite)(p)) {
    SDF_FN(nan_result)(out, s->method);
    return PROX_NAN;
  }
  SDF_FN(closest)(s, &p, 1, &mc, &pos, 0);
  SDF_FN(finish)(s, p, &mc, pos, out);
  return out->distance;
}

int PROX_FN(prox_sdf_inside)(const SDF *s, SDF_V3 p, int *certain) {
  double x[3], w;
  int c = 1, inside = 0;
  if (!PROX_FN(pbq_finite)(p)) {
    if (certain) *certain = 0;
    return 0;
  }
  x[0] = (double)p.x;
  x[1] = (double)p.y;
  x[2] = (double)p.z;
  if (s->method == PROX_SIGN_PSEUDONORMAL && !(s->cell_w && s->grid_exact)) {
    SDF_RES r;
    PROX_FN(prox_sdf_distance)(s, p, &r);
    inside = r.inside;
    c = r.certain;
  } else if (s->method != PROX_SIGN_WINDING) {
    if (SDF_FN(grid_winding)(s, x, &w) == 1)
      inside = w > 0.5;
    else
      c = 0;
  } else {
    SDF_FN(winding_of)(s, x, &w, &inside, &c);
  }
  if (certain) *certain = c;
  return inside;
}

double PROX_FN(prox_sdf_winding)(const SDF *s, SDF_V3 p) {
  double x[3], w;
  if (!PROX_FN(pbq_finite)(p)) return (double)NAN;
  x[0] = (double)p.x;
  x[1] = (double)p.y;
  x[2] = (double)p.z;
  if (s->method == PROX_SIGN_WINDING) {
    int in, c;
    SDF_FN(winding_of)(s, x, &w, &in, &c);
    return w;
  }
  if (SDF_FN(grid_winding)(s, x, &w) == 1) return w;
  return 0.5; /* on the mesh */
}

int PROX_FN(prox_sdf_crossings)(const SDF *s, SDF_V3 p, SDF_V3 q, long *count) {
  double a[3], b[3];
  long n = 0;
  if (!PROX_FN(pbq_finite)(p) || !PROX_FN(pbq_finite)(q)) return 0;
  a[0] = (double)p.x, a[1] = (double)p.y, a[2] = (double)p.z;
  b[0] = (double)q.x, b[1] = (double)q.y, b[2] = (double)q.z;
  if (SDF_FN(segment)(s, a, b, 0, &n, NULL, NULL) != 1) return 0;
  if (count) *count = n;
  return 1;
}

/* ---- batches and grids: chunks handed out by an atomic counter, each
 * point's answer independent of the split. */

typedef struct SDF_FN(job) {
  const SDF *s;
  const SDF_V3 *points;  /* batch */
  const uint32_t *order; /* the batch's coherent order, or NULL */
  PROX_REAL *dist;
  SDF_RES *out;
  uint8_t *inside, *certain; /* inside batch */
  size_t n;
  SDF_V3 origin, spacing; /* grid */
  size_t nx, ny, nz;
  float *grid;
  sdf_counter next;
} SDF_FN(job);

static void SDF_FN(batch_worker)(void *arg) {
  SDF_FN(job) *j = (SDF_FN(job) *)arg;
  SDF_MC mc[SDF_CHUNK];
  SDF_V3 pts[SDF_CHUNK];
  uint32_t pos[SDF_CHUNK];
  for (;;) {
    size_t b = SDF_NEXT(j->next, (size_t)SDF_CHUNK), e, i;
    if (b >= j->n) break;
    e = b + SDF_CHUNK < j->n ? b + SDF_CHUNK : j->n;
    /* Positions b..e of the order: the points gathered, answered in a
     * row, and the answers put back in the caller's places. */
    for (i = b; i < e; ++i)
      pts[i - b] = j->points[j->order ? j->order[i] : i];
    SDF_FN(closest)(j->s, pts, e - b, mc, pos, j->order != NULL);
    for (i = b; i < e; ++i) {
      size_t at = j->order ? j->order[i] : i;
      SDF_RES r;
      if (!PROX_FN(pbq_finite)(pts[i - b]))
        SDF_FN(nan_result)(&r, j->s->method);
      else
        SDF_FN(finish)(j->s, pts[i - b], &mc[i - b], pos[i - b], &r);
      j->dist[at] = r.distance;
      if (j->out) j->out[at] = r;
    }
  }
}

/* The inside batch: chunks of SDF_INSIDE_CHUNK points, each answer to its
 * point's place. (Queried in a coherent order, as prox_sdf_batch does,
 * the points took as long here: the order's cost, 35-45 ns a point,
 * ate the gain of the cache and of the predicted branches.) */
static void SDF_FN(inside_worker)(void *arg) {
  SDF_FN(job) *j = (SDF_FN(job) *)arg;
  for (;;) {
    size_t b = SDF_NEXT(j->next, (size_t)SDF_INSIDE_CHUNK), e, i;
    if (b >= j->n) break;
    e = b + SDF_INSIDE_CHUNK < j->n ? b + SDF_INSIDE_CHUNK : j->n;
    for (i = b; i < e; ++i) {
      int c, in = PROX_FN(prox_sdf_inside)(j->s, j->points[i], &c);
      j->inside[i] = (uint8_t)in;
      if (j->certain) j->certain[i] = (uint8_t)c;
    }
  }
}

/* The threads to run for `items` work items (at least 1): all cores for
 * 0, never more than the items. */
static int SDF_FN(threads)(int threads, size_t items) {
  if (threads == 0) threads = prox_mesh_detail_cores();
  if ((size_t)threads > items) threads = (int)items;
  return threads;
}

prox_status PROX_FN(prox_sdf_batch)(const SDF *s, const SDF_V3 *points, size_t n, PROX_REAL *dist,
                                    SDF_RES *out, int threads) {
  SDF_FN(job) j;
  if (!s || (n > 0 && (!points || !dist)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  if (n == 0) return PROX_OK;
  memset(&j, 0, sizeof j);
  j.s = s;
  j.points = points;
  j.dist = dist;
  j.out = out;
  j.n = n;
  SDF_INIT(j.next, 0);
  threads = SDF_FN(threads)(threads, (n + SDF_CHUNK - 1) / SDF_CHUNK);
  /* As in prox_bvh_closest_batch: a coherent order when the memory is
   * there, the caller's otherwise (the same answers). */
  j.order = PROX_FN(prox_mesh_detail_order)(s->has_alloc ? &s->alloc : NULL, points, n, threads);
  prox_mesh_detail_parallel(threads, SDF_FN(batch_worker), &j);
  prox_mesh_detail_order_free(s->has_alloc ? &s->alloc : NULL, j.order, n);
  return PROX_OK;
}

prox_status PROX_FN(prox_sdf_inside_batch)(const SDF *s, const SDF_V3 *points, size_t n,
                                           uint8_t *inside, uint8_t *certain, int threads) {
  SDF_FN(job) j;
  if (!s || (n > 0 && (!points || !inside)) || threads < 0) return PROX_ERROR_INVALID_ARGUMENT;
  if (n == 0) return PROX_OK;
  memset(&j, 0, sizeof j);
  j.s = s;
  j.points = points;
  j.inside = inside;
  j.certain = certain;
  j.n = n;
  SDF_INIT(j.next, 0);
  threads = SDF_FN(threads)(threads, (n + SDF_INSIDE_CHUNK - 1) / SDF_INSIDE_CHUNK);
  prox_mesh_detail_parallel(threads, SDF_FN(inside_worker), &j);
  return PROX_OK;
}

/* Grid bricks: a work item is a brick of 4 x 4 x 4 samples (SDF_CHUNK),
 * bricks in row order, the samples of a brick in Morton order, so that
 * consecutive queries are neighbours in all three directions: the tree's
 * nodes they need are in cache and each starts from its neighbour's
 * answer. */
static void SDF_FN(grid_worker)(void *arg) {
  SDF_FN(job) *j = (SDF_FN(job) *)arg;
  SDF_MC mc[SDF_CHUNK];
  SDF_V3 pts[SDF_CHUNK];
  uint32_t pos[SDF_CHUNK];
  size_t at[SDF_CHUNK];
  size_t bx = (j->nx + 3) / 4, by = (j->ny + 3) / 4, bz = (j->nz + 3) / 4;
  for (;;) {
    size_t w = SDF_NEXT(j->next, 1), i0, j0, k0, m = 0, t;
    unsigned c;
    if (w >= bx * by * bz) break;
    i0 = w % bx * 4;
    j0 = w / bx % by * 4;
    k0 = w / (bx * by) * 4;
    for (c = 0; c < 64; ++c) {
      /* Morton code c: bits 0, 3 of x; 1, 4 of y; 2, 5 of z. */
      size_t i = i0 + ((c & 1u) | (c >> 2 & 2u)), jj = j0 + ((c >> 1 & 1u) | (c >> 3 & 2u)),
             k = k0 + ((c >> 2 & 1u) | (c >> 4 & 2u));
      if (i >= j->nx || jj >= j->ny || k >= j->nz) continue;
      pts[m] = PROX_FN(prox_v3)(j->origin.x + (PROX_REAL)i * j->spacing.x,
                                j->origin.y + (PROX_REAL)jj * j->spacing.y,
                                j->origin.z + (PROX_REAL)k * j->spacing.z);
      at[m++] = (k * j->ny + jj) * j->nx + i;
    }
    SDF_FN(closest)(j->s, pts, m, mc, pos, 1);
    for (t = 0; t < m; ++t) {
      SDF_RES res;
      SDF_FN(finish)(j->s, pts[t], &mc[t], pos[t], &res);
      j->grid[at[t]] = (float)res.distance;
    }
  }
}

prox_status PROX_FN(prox_sdf_grid)(const SDF *s, SDF_V3 origin, SDF_V3 spacing, size_t nx,
                                   size_t ny, size_t nz, float *out, int threads) {
  SDF_FN(job) j;
  if (!s || !out || nx == 0 || ny == 0 || nz == 0 || !PROX_FN(pbq_finite)(origin) ||
      !PROX_FN(pbq_finite)(spacing) || threads < 0)
    return PROX_ERROR_INVALID_ARGUMENT;
  if (ny > SIZE_MAX / nz || nx > SIZE_MAX / (ny * nz) / sizeof(float))
    return PROX_ERROR_INVALID_ARGUMENT;
  memset(&j, 0, sizeof j);
  j.s = s;
  j.origin = origin;
  j.spacing = spacing;
  j.nx = nx;
  j.ny = ny;
  j.nz = nz;
  j.grid = out;
  SDF_INIT(j.next, 0);
  threads = SDF_FN(threads)(threads, (nx + 3) / 4 * ((ny + 3) / 4) * ((nz + 3) / 4));
  prox_mesh_detail_parallel(threads, SDF_FN(grid_worker), &j);
  return PROX_OK;
}

#undef SDF
#undef SDF_V3
#undef SDF_MC
#undef SDF_RES
#undef SDF_FN
