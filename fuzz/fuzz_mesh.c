/* SPDX-License-Identifier: MIT */
/* fuzz_mesh: a libFuzzer target over the mesh layer (prox/bvh.h,
 * prox/bvh_ray.h, prox/sign.h) on small meshes, in both precisions, each
 * answer checked against a brute-force loop over the triangles.
 *
 * The input: byte 0 picks the mesh's shape (bits 0-1: a soup of up to 24
 * vertices and 32 triangles with indices from the input, an octahedron, a
 * cube, two octahedra; the closed shapes' vertices moved by the input, so
 * that they may fold, touch, collapse or cross, and each face flipped
 * where a mask byte says), the sign method (bits 2-4: AUTO, PSEUDONORMAL,
 * CROSSINGS, WINDING at accuracy 2, WINDING exact) and whether to refit
 * (bit 5); byte 1 the precision (bit 0), the coordinates (bits 1-2: a
 * lattice of integers -4..4, the same times 2^e with e from byte 2, or the
 * raw bits of each real: NaN, infinities, subnormal numbers, anything), the
 * leaf size (bits 3-4), the build's threads (bit 5) and, both of bits 6-7
 * set, the large batches (see fm_check_big); byte 3, when not 0,
 * the allocation at which an allocator fails. Then the number of query
 * points (up to 12) and of rays (up to 8), the points (half-integers
 * -4.5..4.5 per axis, times 2^e), the rays (a half-integer origin, an
 * integer direction -4..4 per axis, [0, +inf] or one time in four a
 * finite interval of half-integers), and the mesh: the closed
 * shapes' face flips and vertices, or the soup's counts, vertices and
 * indices (255: one past the last vertex). An input that ends early reads
 * zeros.
 *
 * Asserted (the process aborts on a violation, with the mesh and query
 * printed, and libFuzzer saves the input):
 * - the builds: PROX_OK, or PROX_ERROR_INVALID_MESH exactly when an index
 *   is out of range or a coordinate is not finite; under the failing
 *   allocator PROX_OK or PROX_ERROR_OUT_OF_MEMORY, every byte given back;
 * - closest point: the squared distance equals the brute force's minimum
 *   of prox_point_triangle() bit for bit, on the lowest index among ties,
 *   in the compiled query, the header-only view, the batch (1 and 2
 *   threads) and under a maximum distance (found exactly when within it);
 *   all triangles within a radius: the brute force's set and distances;
 * - rays: hit, occlusion, hit count and signed sum equal the brute force's
 *   (every triangle through prox_raycast_triangle(), whose crossings count
 *   once at shared edges), the first hit its first strict minimum (or,
 *   for a grazing ray, a hit whose t is within rounding of it), all hits
 *   its list in (t, index) order; on a finite interval, a hit one of the
 *   brute force's and none missed clearly inside the interval; the
 *   header-only traversal the same answers; non-finite queries NaN and
 *   no hit;
 * - the sign: |distance| the square root of the closest point's squared
 *   distance, inside as its sign says, prox_sdf_inside() (except under
 *   pseudo-normals forced, see sign.h), the batches and the grid the same
 *   answers (and, one input in four, batches of 520
 *   points, which walk the tree eight at a time in Morton order, and an
 *   8 x 8 x 8 grid); where the method is exact (AUTO on a
 *   closed or chain-closed mesh, CROSSINGS on a chain-closed mesh,
 *   WINDING exact or chosen exact by AUTO) and the answer certain, inside
 *   equals a brute-force winding number above 1/2 (a long-double sum of
 *   solid angles: on the lattices every difference and product is exact)
 *   and an exact winding number equals it within 1e-9;
 * - the topology (prox/topology.h): every count, flag and component
 *   label against its definitions, by brute force over the triangles;
 * - after a refit to moved vertices, the closest points and rays again;
 * and ASan and UBSan check every access. See fuzz/CMakeLists.txt.
 *
 * The per-precision code is written once: this file includes itself twice
 * with FUZZ_MESH_TEMPLATE defined (double, then float). */
#ifndef FUZZ_MESH_TEMPLATE

#include <prox/bvh.h>
#include <prox/bvh_ray.h>
#include <prox/prox.h>
#include <prox/sign.h>
#include <prox/topology.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FM_MAXV 24
#define FM_MAXT 32
#define FM_MAXP 12
#define FM_MAXR 8

/* The reader of one input. */
typedef struct fm_in {
  const uint8_t *p;
  size_t n;
} fm_in;

/* The next byte, 0 once the input is used up. */
static unsigned fm_byte(fm_in *in) {
  if (!in->n) return 0;
  --in->n;
  return *in->p++;
}

/* The input's choices, and what the checks print on a violation. */
typedef struct fm_case {
  int shape, method, refit, coords, leaf, threads, e, fail_at, big;
  size_t nv, nt;
  double v[3 * FM_MAXV];
  uint32_t idx[3 * FM_MAXT];
} fm_case;

static const fm_case *fm_cur;

/* Reports a violated property with the mesh and aborts. */
static void fm_fail(const char *what, const double *q) {
  const fm_case *c = fm_cur;
  size_t i;
  fprintf(stderr, "fuzz_mesh: %s\n  shape %d method %d coords %d e %d leaf %d, %zu vertices:", what,
          c->shape, c->method, c->coords, c->e, c->leaf, c->nv);
  for (i = 0; i < c->nv; ++i)
    fprintf(stderr, "\n    %a %a %a", c->v[3 * i], c->v[3 * i + 1], c->v[3 * i + 2]);
  fprintf(stderr, "\n  %zu triangles:", c->nt);
  for (i = 0; i < c->nt; ++i)
    fprintf(stderr, "%s%u %u %u", i % 8 ? ", " : "\n    ", c->idx[3 * i], c->idx[3 * i + 1],
            c->idx[3 * i + 2]);
  if (q) fprintf(stderr, "\n  query %a %a %a  %a %a %a", q[0], q[1], q[2], q[3], q[4], q[5]);
  fprintf(stderr, "\n");
  abort();
}

#define FM_REQUIRE(cond, what, q)                                                                  \
  do {                                                                                             \
    if (!(cond)) fm_fail(what, q);                                                                 \
  } while (0)

/* An allocator that fails at call fail_at (1-based; 0: never) and counts
 * the bytes it has given out and not had back. */
typedef struct fm_alloc {
  long calls, fail_at;
  size_t live;
} fm_alloc;

static void *fm_alloc_fn(void *user, size_t size, size_t alignment) {
  fm_alloc *a = (fm_alloc *)user;
  void *p = NULL;
  size_t rounded;
  if (++a->calls == a->fail_at) return NULL;
  if (alignment < sizeof(void *)) alignment = sizeof(void *);
  rounded = size ? (size + alignment - 1) / alignment * alignment : alignment;
  p = aligned_alloc(alignment, rounded);
  if (!p) return NULL;
  a->live += size;
  return p;
}

static void fm_free_fn(void *user, void *ptr, size_t size) {
  fm_alloc *a = (fm_alloc *)user;
  if (!ptr) return;
  free(ptr);
  a->live -= size;
}

/* The generalized winding number at q, a long-double sum of the
 * triangles' solid angles (Van Oosterom and Strackee) over 4 pi. */
static long double fm_winding(const double *v, const uint32_t *idx, size_t nt, const double *q) {
  long double sum = 0;
  size_t t;
  for (t = 0; t < nt; ++t) {
    long double a[3], b[3], c[3], la, lb, lc, num, den;
    size_t k;
    for (k = 0; k < 3; ++k) {
      a[k] = (long double)v[3 * (size_t)idx[3 * t] + k] - q[k];
      b[k] = (long double)v[3 * (size_t)idx[3 * t + 1] + k] - q[k];
      c[k] = (long double)v[3 * (size_t)idx[3 * t + 2] + k] - q[k];
    }
    la = sqrtl(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    lb = sqrtl(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    lc = sqrtl(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    num = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
          a[2] * (b[0] * c[1] - b[1] * c[0]);
    den = la * lb * lc + (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) * lc +
          (b[0] * c[0] + b[1] * c[1] + b[2] * c[2]) * la +
          (c[0] * a[0] + c[1] * a[1] + c[2] * a[2]) * lb;
    sum += 2 * atan2l(num, den);
  }
  return sum / (4 * 3.141592653589793238462643383279503L);
}

/* The union-find root of x. */
static size_t fm_root(size_t *parent, size_t x) {
  while (parent[x] != x)
    x = parent[x] = parent[parent[x]];
  return x;
}

/* The topology against its definitions (prox/topology.h), by brute force
 * over the triangles; the zero-area test where the coordinates are the
 * lattice's (exact products in long double). */
static void fm_check_topology(const fm_case *c, const prox_mesh_topology *tp) {
  const uint32_t *f = c->idx;
  size_t nt = c->nt, i, j, k, l, edges = 0, bnd = 0, nme = 0, inc = 0, coll = 0, zero = 0, dup = 0,
         comps = 0, nmv = 0, nref = 0, nf = 0;
  size_t parent[FM_MAXT], label[FM_MAXT];
  int live[FM_MAXT], ref[FM_MAXV];
  memset(ref, 0, sizeof ref);
  for (i = 0; i < nt; ++i) {
    const uint32_t *a = f + 3 * i;
    live[i] = a[0] != a[1] && a[1] != a[2] && a[0] != a[2];
    coll += !live[i];
    parent[i] = i;
    if (live[i]) {
      ++nf;
      ref[a[0]] = ref[a[1]] = ref[a[2]] = 1;
    }
    if (c->coords != 3) {
      long double e1[3], e2[3];
      for (k = 0; k < 3; ++k) {
        e1[k] = (long double)c->v[3 * (size_t)a[1] + k] - c->v[3 * (size_t)a[0] + k];
        e2[k] = (long double)c->v[3 * (size_t)a[2] + k] - c->v[3 * (size_t)a[0] + k];
      }
      zero += e1[1] * e2[2] - e1[2] * e2[1] == 0 && e1[2] * e2[0] - e1[0] * e2[2] == 0 &&
              e1[0] * e2[1] - e1[1] * e2[0] == 0;
    }
    for (j = 0; j < i; ++j) {
      const uint32_t *b = f + 3 * j;
      int same = 1;
      for (k = 0; k < 3; ++k) {
        int n1 = 0, n2 = 0;
        for (l = 0; l < 3; ++l) {
          n1 += a[l] == a[k];
          n2 += b[l] == a[k];
        }
        same &= n1 == n2;
      }
      if (same) {
        ++dup;
        break;
      }
    }
  }
  for (i = 0; i < c->nv; ++i)
    nref += (size_t)ref[i];
  /* Edges: each unordered pair once, at its lowest (triangle, side). */
  for (i = 0; i < nt; ++i)
    for (k = 0; k < 3 && live[i]; ++k) {
      uint32_t u = f[3 * i + k], w = f[3 * i + (k + 1) % 3];
      size_t n = 0, fwd = 0, first = 1;
      for (j = 0; j < nt; ++j)
        for (l = 0; l < 3 && live[j]; ++l) {
          uint32_t x = f[3 * j + l], y = f[3 * j + (l + 1) % 3];
          if (!((x == u && y == w) || (x == w && y == u))) continue;
          if (j < i || (j == i && l < k)) first = 0;
          ++n;
          fwd += x == u;
          parent[fm_root(parent, j)] = fm_root(parent, i);
        }
      if (!first) continue;
      ++edges;
      bnd += n == 1;
      nme += n >= 3;
      inc += n == 2 && fwd != 1;
    }
  for (i = 0; i < nt; ++i)
    if (live[i] && fm_root(parent, i) == i) ++comps;
  /* Components numbered in order of their lowest triangle. */
  for (i = 0, l = 0; i < nt; ++i)
    label[i] = (size_t)-1;
  for (i = 0; i < nt; ++i) {
    size_t r;
    if (!live[i]) continue;
    r = fm_root(parent, i);
    if (label[r] == (size_t)-1) label[r] = l++;
    FM_REQUIRE(tp->triangle_component[i] == label[r], "topology: a triangle's component", NULL);
  }
  /* Non-manifold vertices: the triangles around v joined across the
   * edges that end at v form more than one group. */
  for (i = 0; i < c->nv; ++i) {
    size_t grp[FM_MAXT], g = 0;
    for (j = 0; j < nt; ++j)
      grp[j] = j;
    for (j = 0; j < nt; ++j) {
      if (!live[j] || (f[3 * j] != i && f[3 * j + 1] != i && f[3 * j + 2] != i)) continue;
      for (l = 0; l < j; ++l) {
        size_t s1, s2;
        int shared = 0;
        if (!live[l] || (f[3 * l] != i && f[3 * l + 1] != i && f[3 * l + 2] != i)) continue;
        /* Another vertex w of both: the edge (v, w) is a side of both. */
        for (s1 = 0; s1 < 3; ++s1)
          for (s2 = 0; s2 < 3; ++s2)
            shared |= f[3 * j + s1] != i && f[3 * j + s1] == f[3 * l + s2];
        if (shared) grp[fm_root(grp, j)] = fm_root(grp, l);
      }
    }
    for (j = 0; j < nt; ++j)
      if (live[j] && (f[3 * j] == i || f[3 * j + 1] == i || f[3 * j + 2] == i) &&
          fm_root(grp, j) == j)
        ++g;
    nmv += g > 1;
  }
  FM_REQUIRE(tp->triangle_count == nt && tp->vertex_count == c->nv &&
                 tp->referenced_vertices == nref && tp->edge_count == edges &&
                 tp->boundary_edges == bnd && tp->nonmanifold_edges == nme &&
                 tp->inconsistent_edges == inc && tp->collapsed_triangles == coll &&
                 tp->duplicate_triangles == dup && tp->components == comps &&
                 tp->nonmanifold_vertices == nmv,
             "topology: a count differs from the brute force", NULL);
  FM_REQUIRE(c->coords == 3 || tp->zero_area_triangles == zero,
             "topology: zero-area triangles differ", NULL);
  FM_REQUIRE(tp->euler == (int64_t)nref - (int64_t)edges + (int64_t)nf &&
                 tp->closed == (bnd == 0 && nme == 0 && nf > 0) &&
                 tp->manifold == (nme == 0 && nmv == 0) && tp->oriented == (inc == 0),
             "topology: the Euler characteristic or a flag", NULL);
}

/* Closed shapes: the octahedron's 6 vertices and 8 faces, the cube's 8 and
 * 12, wound outward. */
static const int fm_octa_v[6][3] = {{2, 0, 0},  {-2, 0, 0}, {0, 2, 0},
                                    {0, -2, 0}, {0, 0, 2},  {0, 0, -2}};
static const uint32_t fm_octa_f[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                         {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
static const int fm_cube_v[8][3] = {{-2, -2, -2}, {2, -2, -2}, {2, 2, -2}, {-2, 2, -2},
                                    {-2, -2, 2},  {2, -2, 2},  {2, 2, 2},  {-2, 2, 2}};
static const uint32_t fm_cube_f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                          {0, 1, 5}, {0, 5, 4}, {2, 3, 7}, {2, 7, 6},
                                          {1, 2, 6}, {1, 6, 5}, {3, 0, 4}, {3, 4, 7}};

#define FUZZ_MESH_TEMPLATE
#include <prox/detail/real_double.h>
#define FM_EMAX 40
#define FM_RAW_LO 0x1p-480
#define FM_RAW_HI 0x1p480
#include "fuzz_mesh.c"
#undef FM_EMAX
#undef FM_RAW_LO
#undef FM_RAW_HI
#include <prox/detail/real_end.h>
#include <prox/detail/real_float.h>
#define FM_EMAX 20
#define FM_RAW_LO 0x1p-56
#define FM_RAW_HI 0x1p56
#include "fuzz_mesh.c"
#undef FM_EMAX
#undef FM_RAW_LO
#undef FM_RAW_HI
#include <prox/detail/real_end.h>
#undef FUZZ_MESH_TEMPLATE

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fm_in in;
  fm_case c;
  unsigned b0, b1;
  if (size < 4) return 0;
  memset(&c, 0, sizeof c);
  b0 = data[0];
  b1 = data[1];
  c.shape = (int)(b0 & 3u);
  c.method = (int)((b0 >> 2) & 7u);
  c.refit = (int)((b0 >> 5) & 1u);
  c.coords = (int)((b1 >> 1) & 3u);
  c.leaf = (int)((b1 >> 3) & 3u);
  c.threads = (b1 >> 5) & 1u ? 2 : 1;
  c.big = (b1 >> 6) == 3u;
  c.e = (int)(data[2] % (2 * 40 + 1)) - 40;
  c.fail_at = data[3];
  in.p = data + 4;
  in.n = size - 4;
  fm_cur = &c;
  if (b1 & 1u)
    fm_runf(&in, &c);
  else
    fm_run(&in, &c);
  return 0;
}

#else /* FUZZ_MESH_TEMPLATE: one precision */

#define FM(name) PROX_FN(name)
#define VEC PROX_FN(prox_vec3)
#define SDF_T PROX_FN(prox_sdf)

/* A lattice value: integer k (-4..4), or half-integer for points, times
 * 2^e (coords 2). */
static PROX_REAL FM(fm_lattice)(const fm_case *c, int k, int half) {
  int e = c->coords == 2 ? (c->e > FM_EMAX ? FM_EMAX : c->e < -FM_EMAX ? -FM_EMAX : c->e) : 0;
  return (PROX_REAL)ldexp(half ? 0.5 * k : (double)k, e);
}

/* One coordinate of a vertex: the lattice, or raw bits (coords 3). */
static PROX_REAL FM(fm_coord)(fm_in *in, const fm_case *c, int base) {
  if (c->coords == 3) {
    PROX_REAL x;
    unsigned char bytes[sizeof(PROX_REAL)];
    size_t i;
    for (i = 0; i < sizeof bytes; ++i)
      bytes[i] = (unsigned char)fm_byte(in);
    memcpy(&x, bytes, sizeof x);
    return x;
  }
  return FM(fm_lattice)(c, base + (int)(fm_byte(in) % 9u) - 4, 0);
}

/* 1 when x is zero or of magnitude within the range where every check
 * applies (raw coordinates). */
static int FM(fm_in_range)(PROX_REAL x) {
  PROX_REAL a = PROX_FABS(x);
  return a == 0 || (a >= (PROX_REAL)FM_RAW_LO && a <= (PROX_REAL)FM_RAW_HI);
}

static PROX_FN(prox_triangle) FM(fm_tri)(const PROX_REAL *v, const uint32_t *idx, size_t t) {
  PROX_FN(prox_triangle) tr;
  int k;
  for (k = 0; k < 3; ++k) {
    const PROX_REAL *p = v + 3 * (size_t)idx[3 * t + (size_t)k];
    tr.v[k] = PROX_FN(prox_v3)(p[0], p[1], p[2]);
  }
  return tr;
}

static int FM(fm_same)(PROX_REAL a, PROX_REAL b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* One brute-force ray hit. */
typedef struct FM(fm_hit) {
  PROX_REAL t;
  uint32_t id;
  int sign;
  PROX_REAL bary[3];
} FM(fm_hit);

/* The exact sign of dot(d, (b - a) x (c - a)) where every coordinate is a
 * small multiple of one power of two (the lattices): each product is
 * exact in long double; 2 otherwise (not checked). */
static int FM(fm_side)(const fm_case *c, const PROX_FN(prox_triangle) * t, VEC d) {
  long double e1[3], e2[3], n[3], s;
  if (c->coords == 3) return 2;
  e1[0] = (long double)t->v[1].x - t->v[0].x;
  e1[1] = (long double)t->v[1].y - t->v[0].y;
  e1[2] = (long double)t->v[1].z - t->v[0].z;
  e2[0] = (long double)t->v[2].x - t->v[0].x;
  e2[1] = (long double)t->v[2].y - t->v[0].y;
  e2[2] = (long double)t->v[2].z - t->v[0].z;
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  s = (long double)d.x * n[0] + (long double)d.y * n[1] + (long double)d.z * n[2];
  return s > 0 ? 1 : s < 0 ? -1 : 0;
}

/* Every query on the tree against the brute force over (v, idx): the
 * points q[0..np) and the rays r[0..nr). */
static void FM(fm_check_tree)(const fm_case *c, const PROX_FN(prox_bvh) * t, const PROX_REAL *v,
                              const uint32_t *idx, size_t nt, const VEC *q, size_t np,
                              const PROX_FN(prox_ray) * r, size_t nr) {
  PROX_FN(prox_bvh_view) view;
  PROX_FN(prox_mesh_closest) single[FM_MAXP], batch[FM_MAXP];
  size_t i, j;
  int th;
  PROX_REAL scale = 0;
  PROX_FN(prox_bvh_get_view)(t, &view);
  /* The largest coordinate magnitude of the mesh and the queries (a ray's
   * t is in units of its direction, whose components are 1 to 4). */
  for (i = 0; i < 3 * c->nv; ++i)
    if (PROX_FABS(v[i]) > scale) scale = PROX_FABS(v[i]);
  for (i = 0; i < nr; ++i)
    scale = PROX_FABS(r[i].origin.x) > scale ? PROX_FABS(r[i].origin.x) : scale;
  {
    /* Non-finite queries: NaN and nothing found, no hit. */
    const VEC bad[2] = {PROX_FN(prox_v3)(PROX_NAN, 0, 0), PROX_FN(prox_v3)(0, PROX_INF, 0)};
    for (i = 0; i < 2; ++i) {
      PROX_FN(prox_mesh_closest) cl;
      PROX_FN(prox_mesh_hit) h;
      PROX_FN(prox_ray) ray;
      PROX_REAL d = PROX_FN(prox_bvh_closest)(t, bad[i], PROX_INF, &cl);
      ray.origin = bad[i];
      ray.dir = PROX_FN(prox_v3)(1, 0, 0);
      ray.tmin = 0;
      ray.tmax = PROX_INF;
      FM_REQUIRE(d != d && cl.found == 0 && cl.triangle == UINT32_MAX &&
                     PROX_FN(prox_bvh_within)(t, bad[i], PROX_INF, NULL, NULL, 0) == 0 &&
                     PROX_FN(prox_bvh_raycast)(t, &ray, &h) == 0 && h.hit == 0 &&
                     PROX_FN(prox_bvh_ray_count)(t, &ray, NULL) == 0,
                 "a non-finite query not answered as documented", NULL);
    }
  }
  for (i = 0; i < np; ++i) {
    const double qd[6] = {(double)q[i].x, (double)q[i].y, (double)q[i].z, 0, 0, 0};
    PROX_REAL bf = PROX_INF, d, dv, lim, dw[FM_MAXT], dt[FM_MAXT];
    uint32_t bid = UINT32_MAX, ids[FM_MAXT];
    PROX_FN(prox_mesh_closest) rv, rl;
    size_t n, nb = 0;
    /* The brute force: every triangle's squared distance, kept for the
     * radius query below. */
    for (j = 0; j < nt; ++j) {
      PROX_FN(prox_triangle) tr = FM(fm_tri)(v, idx, j);
      dt[j] = PROX_FN(prox_point_triangle)(q[i], &tr, NULL);
      if (dt[j] < bf) {
        bf = dt[j];
        bid = (uint32_t)j;
      }
    }
    d = PROX_FN(prox_bvh_closest)(t, q[i], PROX_INF, &single[i]);
    FM_REQUIRE(FM(fm_same)(d, bf) && FM(fm_same)(single[i].sqdist, bf) && single[i].found == 1 &&
                   single[i].triangle == bid,
               "closest: not the brute force's minimum (lowest index)", qd);
    dv = PROX_FN(prox_bvh_view_closest)(&view, q[i], PROX_INF, &rv);
    FM_REQUIRE(FM(fm_same)(dv, bf) && rv.triangle == bid, "closest: the view differs", qd);
    /* A maximum below the minimum finds nothing; at it, the same answer. */
    lim = bf * (PROX_REAL)0.5;
    if (lim < bf) {
      d = PROX_FN(prox_bvh_closest)(t, q[i], lim, &rl);
      FM_REQUIRE(rl.found == 0 && FM(fm_same)(d, lim) && rl.triangle == UINT32_MAX,
                 "closest: found beyond the maximum", qd);
    }
    d = PROX_FN(prox_bvh_closest)(t, q[i], bf, &rl);
    FM_REQUIRE(rl.found == 1 && FM(fm_same)(d, bf) && rl.triangle == bid,
               "closest: not found at the maximum", qd);
    /* Within four times the minimum (plus the lattice's unit): the brute
     * force's set. */
    lim = bf * 4 + FM(fm_lattice)(c, 1, 0) * FM(fm_lattice)(c, 1, 0);
    n = PROX_FN(prox_bvh_within)(t, q[i], lim, ids, dw, FM_MAXT);
    for (j = 0; j < nt; ++j) {
      PROX_REAL dj = dt[j];
      size_t k;
      int seen = 0;
      if (!(dj <= lim)) continue;
      ++nb;
      for (k = 0; k < n && k < FM_MAXT; ++k)
        if (ids[k] == j) seen = FM(fm_same)(dw[k], dj);
      FM_REQUIRE(seen, "within: a triangle of the brute force missing", qd);
    }
    FM_REQUIRE(n == nb, "within: not the brute force's count", qd);
  }
  for (th = 1; th <= 2 && np; ++th) {
    FM_REQUIRE(PROX_FN(prox_bvh_closest_batch)(t, q, np, PROX_INF, batch, th) == PROX_OK,
               "closest batch: failed", NULL);
    for (i = 0; i < np; ++i)
      FM_REQUIRE(FM(fm_same)(batch[i].sqdist, single[i].sqdist) &&
                     batch[i].triangle == single[i].triangle,
                 "closest batch: not the single query's answer", NULL);
  }
  if (np) {
    /* The range form (each query seeded by the previous answer). */
    PROX_FN(prox_bvh_closest_range)(t, q, PROX_INF, batch, 0, np);
    for (i = 0; i < np; ++i)
      FM_REQUIRE(FM(fm_same)(batch[i].sqdist, single[i].sqdist) &&
                     batch[i].triangle == single[i].triangle,
                 "closest range: not the single query's answer", NULL);
  }
  for (th = 1; th <= 2 && nr; ++th) {
    /* The ray batches: each ray's single answers. */
    PROX_FN(prox_mesh_hit) hb[FM_MAXR], h1;
    uint8_t ob[FM_MAXR];
    size_t cb[FM_MAXR];
    long wb[FM_MAXR], w1;
    FM_REQUIRE(PROX_FN(prox_bvh_raycast_batch)(t, r, nr, hb, th) == PROX_OK &&
                   PROX_FN(prox_bvh_occluded_batch)(t, r, nr, ob, th) == PROX_OK &&
                   PROX_FN(prox_bvh_ray_count_batch)(t, r, nr, cb, wb, th) == PROX_OK,
               "ray batches: failed", NULL);
    for (i = 0; i < nr; ++i) {
      int h = PROX_FN(prox_bvh_raycast)(t, &r[i], &h1);
      size_t n1 = PROX_FN(prox_bvh_ray_count)(t, &r[i], &w1);
      FM_REQUIRE(hb[i].hit == h &&
                     (!h || (FM(fm_same)(hb[i].t, h1.t) && hb[i].triangle == h1.triangle)) &&
                     ob[i] == h && cb[i] == n1 && wb[i] == w1,
                 "ray batches: not the single queries' answers", NULL);
    }
  }
  for (i = 0; i < nr; ++i) {
    const double qd[6] = {(double)r[i].origin.x, (double)r[i].origin.y, (double)r[i].origin.z,
                          (double)r[i].dir.x,    (double)r[i].dir.y,    (double)r[i].dir.z};
    FM(fm_hit) bh[FM_MAXT], tmp;
    PROX_FN(prox_mesh_hit) h, all[FM_MAXT + 1];
    size_t n = 0, cnt, tot, k;
    long bwind = 0, wind = 0;
    int hit, occ, sided = 1, full = r[i].tmin == 0 && r[i].tmax == PROX_INF;
    for (j = 0; j < nt; ++j) {
      PROX_FN(prox_triangle) tr = FM(fm_tri)(v, idx, j);
      PROX_FN(prox_rayhit) rh;
      if (!PROX_FN(prox_raycast_triangle)(&r[i], &tr, &rh)) continue;
      bh[n].t = rh.t;
      bh[n].id = (uint32_t)j;
      bh[n].sign = FM(fm_side)(c, &tr, r[i].dir);
      memcpy(bh[n].bary, rh.bary, sizeof rh.bary);
      if (bh[n].sign == 2) sided = 0;
      bwind += bh[n].sign;
      ++n;
    }
    /* (t, index) order: insertion, n <= 32. */
    for (j = 1; j < n; ++j)
      for (k = j;
           k > 0 && (bh[k].t < bh[k - 1].t || (bh[k].t == bh[k - 1].t && bh[k].id < bh[k - 1].id));
           --k) {
        tmp = bh[k];
        bh[k] = bh[k - 1];
        bh[k - 1] = tmp;
      }
    hit = PROX_FN(prox_bvh_raycast)(t, &r[i], &h);
    occ = PROX_FN(prox_bvh_occluded)(t, &r[i]);
    {
      /* The header-only traversal: the same answers. */
      PROX_FN(prox_mesh_hit) hv;
      long vw = 0;
      int vh = PROX_FN(prox_bvh_view_raycast)(&view, &r[i], &hv);
      FM_REQUIRE(vh == hit && (!hit || (FM(fm_same)(hv.t, h.t) && hv.triangle == h.triangle)) &&
                     PROX_FN(prox_bvh_view_occluded)(&view, &r[i]) == occ &&
                     PROX_FN(prox_bvh_view_ray_count)(&view, &r[i], &vw) ==
                         PROX_FN(prox_bvh_ray_count)(t, &r[i], NULL),
                 "ray: the view differs", qd);
    }
    if (!full) {
      /* A finite interval: a hit is a brute-force hit, and a brute-force
       * hit clearly inside the interval is not missed (the traversal's
       * exactness is promised over [0, +inf]; near an end of a finite
       * interval a grazing ray's rounding may decide either way). */
      PROX_REAL tol = (PROX_REAL)1e-3 * (PROX_FABS(r[i].tmax) + scale);
      int inner = 0, member = !hit;
      for (k = 0; k < n; ++k) {
        inner |= bh[k].t >= r[i].tmin + tol && bh[k].t <= r[i].tmax - tol;
        member |= hit && FM(fm_same)(bh[k].t, h.t) && bh[k].id == h.triangle;
      }
      FM_REQUIRE(member && h.hit == hit && occ == hit && (hit || !inner),
                 "ray (finite interval): a hit missed or invented", qd);
      continue;
    }
    FM_REQUIRE(hit == (n > 0) && h.hit == hit && occ == hit, "ray: hit or occlusion differs", qd);
    if (hit) {
      /* The brute force's first strict minimum is bh[0] after the sort;
       * a grazing ray may take another hit within rounding of it. */
      int member = 0;
      for (k = 0; k < n; ++k)
        member |= FM(fm_same)(bh[k].t, h.t) && bh[k].id == h.triangle;
      FM_REQUIRE(member, "ray: the first hit is not a brute-force hit", qd);
      if (!(FM(fm_same)(h.t, bh[0].t) && h.triangle == bh[0].id))
        FM_REQUIRE(h.t - bh[0].t <= (PROX_REAL)1e-3 * (PROX_FABS(bh[0].t) + scale),
                   "ray: the first hit is not the nearest", qd);
    }
    cnt = PROX_FN(prox_bvh_ray_count)(t, &r[i], &wind);
    FM_REQUIRE(cnt == n, "ray: count differs from the brute force", qd);
    FM_REQUIRE(!sided || wind == bwind, "ray: signed sum differs from the brute force", qd);
    tot = PROX_FN(prox_bvh_ray_all)(t, &r[i], all, FM_MAXT + 1);
    FM_REQUIRE(tot == n, "ray: all hits, count differs", qd);
    for (k = 0; k < n; ++k)
      FM_REQUIRE(FM(fm_same)(all[k].t, bh[k].t) && all[k].triangle == bh[k].id &&
                     (!sided || all[k].sign == bh[k].sign) &&
                     memcmp(all[k].bary, bh[k].bary, sizeof bh[k].bary) == 0,
                 "ray: all hits, not the brute force's list", qd);
  }
}

/* The sign's queries on the points against the tree's closest points and
 * the brute-force winding number. */
static void FM(fm_check_sign)(const fm_case *c, const PROX_FN(prox_bvh) * t, const SDF_T *s,
                              const PROX_REAL *v, const uint32_t *idx, size_t nt, const VEC *q,
                              size_t np, int closed_chain) {
  PROX_REAL dist[FM_MAXP];
  PROX_FN(prox_signed) res[FM_MAXP];
  double vd[3 * FM_MAXV];
  float grid[8];
  size_t i, k;
  int th, gi;
  double acc = PROX_FN(prox_sdf_accuracy)(s);
  int m = PROX_FN(prox_sdf_method)(s), exact, autom = c->method == 0 || c->method > 4;
  /* Exact: AUTO on a mesh closed as a chain (pseudo-normals or
   * crossings, the irregular places by crossings), CROSSINGS on such a
   * mesh, WINDING at infinite accuracy (asked, or AUTO's choice). The
   * inside test and the signed distance agree wherever the method means
   * one thing: not one segment's crossings forced on a mesh that is not
   * closed, nor pseudo-normals forced (on a mesh through itself the inside
   * test may answer from the exact grid, sign.h). */
  int agree = autom || m == PROX_SIGN_WINDING || (closed_chain && c->method != 1);
  exact =
      ((autom || c->method == 2) && closed_chain) || (m == PROX_SIGN_WINDING && acc == INFINITY);
  for (i = 0; i < 3 * FM_MAXV; ++i)
    vd[i] = i < 3 * c->nv ? (double)v[i] : 0;
  for (i = 0; i < np; ++i) {
    const double qd[6] = {(double)q[i].x, (double)q[i].y, (double)q[i].z, 0, 0, 0};
    PROX_FN(prox_mesh_closest) cl;
    PROX_REAL d2 = PROX_FN(prox_bvh_closest)(t, q[i], PROX_INF, &cl);
    PROX_REAL d = PROX_FN(prox_sdf_distance)(s, q[i], &res[i]);
    int certain, in = PROX_FN(prox_sdf_inside)(s, q[i], &certain);
    long double w;
    FM_REQUIRE(FM(fm_same)(res[i].closest.sqdist, d2) && res[i].closest.triangle == cl.triangle,
               "sign: the closest point differs from the tree's", qd);
    FM_REQUIRE(FM(fm_same)(PROX_FABS(d), PROX_SQRT(d2)), "sign: |distance| is not the distance",
               qd);
    FM_REQUIRE(res[i].inside == (d < 0) && (d != 0 || (res[i].inside == 0 && res[i].certain == 0)),
               "sign: inside and the distance's sign disagree", qd);
    FM_REQUIRE(!agree || in == res[i].inside || !certain || !res[i].certain,
               "sign: prox_sdf_inside differs from prox_sdf_distance", qd);
    if (c->coords == 3 || d == 0) continue;
    w = fm_winding(vd, idx, nt, qd);
    if (exact && res[i].certain && fabsl(w - 0.5L) > 1e-6L)
      FM_REQUIRE(res[i].inside == (w > 0.5L), "sign: an exact method's sign is wrong", qd);
    if (exact && certain && fabsl(w - 0.5L) > 1e-6L)
      FM_REQUIRE(in == (w > 0.5L), "sign: an exact inside test is wrong", qd);
    if (m == PROX_SIGN_WINDING && acc == INFINITY)
      FM_REQUIRE(fabsl((long double)res[i].winding - w) <= 1e-9L,
                 "sign: the exact winding number is off", qd);
  }
  {
    /* A non-finite point: NaN, outside, not certain. */
    PROX_FN(prox_signed) o;
    int cert = 1;
    VEC bad = PROX_FN(prox_v3)(0, 0, -PROX_INF);
    PROX_REAL d = PROX_FN(prox_sdf_distance)(s, bad, &o);
    FM_REQUIRE(d != d && o.inside == 0 && o.certain == 0 &&
                   PROX_FN(prox_sdf_inside)(s, bad, &cert) == 0 && cert == 0,
               "sign: a non-finite point not answered as documented", NULL);
  }
  for (th = 1; th <= 2 && np; ++th) {
    uint8_t ib[FM_MAXP], cb[FM_MAXP];
    FM_REQUIRE(PROX_FN(prox_sdf_inside_batch)(s, q, np, ib, cb, th) == PROX_OK,
               "inside batch: failed", NULL);
    for (i = 0; i < np; ++i) {
      int c1, i1 = PROX_FN(prox_sdf_inside)(s, q[i], &c1);
      FM_REQUIRE(ib[i] == i1 && cb[i] == c1, "inside batch: not the single query's answer", NULL);
    }
  }
  for (th = 1; th <= 2 && np; ++th) {
    PROX_FN(prox_signed) out[FM_MAXP];
    FM_REQUIRE(PROX_FN(prox_sdf_batch)(s, q, np, dist, out, th) == PROX_OK, "sign batch: failed",
               NULL);
    for (i = 0; i < np; ++i)
      FM_REQUIRE(FM(fm_same)(dist[i], res[i].distance) && out[i].inside == res[i].inside,
                 "sign batch: not the single query's answer", NULL);
  }
  if (np) {
    /* A 2 x 2 x 2 grid from the first point, spacing a half unit. */
    PROX_REAL h = FM(fm_lattice)(c, 1, 1);
    FM_REQUIRE(PROX_FN(prox_sdf_grid)(s, q[0], PROX_FN(prox_v3)(h, h, h), 2, 2, 2, grid, 1) ==
                   PROX_OK,
               "sign grid: failed", NULL);
    for (gi = 0; gi < 8; ++gi) {
      VEC p = PROX_FN(prox_v3)(q[0].x + (PROX_REAL)(gi & 1) * h,
                               q[0].y + (PROX_REAL)((gi >> 1) & 1) * h,
                               q[0].z + (PROX_REAL)((gi >> 2) & 1) * h);
      float g = (float)PROX_FN(prox_sdf_distance)(s, p, NULL);
      k = (size_t)gi;
      FM_REQUIRE(memcmp(&g, &grid[k], sizeof g) == 0, "sign grid: not prox_sdf_distance's value",
                 NULL);
    }
  }
}

/* The batches in their coherent (Morton) order, eight points walking the
 * tree together, which takes FM_BIG points (from 512 on): the query points
 * spread over a lattice around each, against the single queries; and an
 * 8 x 8 x 8 grid (bricks of 4 x 4 x 4) against the single signed
 * distance. */
#define FM_BIG 520
static void FM(fm_check_big)(const fm_case *c, const PROX_FN(prox_bvh) * t, const SDF_T *s,
                             const VEC *q, size_t np) {
  VEC *p = (VEC *)malloc(FM_BIG * sizeof *p);
  PROX_FN(prox_mesh_closest) *one = (PROX_FN(prox_mesh_closest) *)malloc(FM_BIG * sizeof *one);
  PROX_FN(prox_mesh_closest) *all = (PROX_FN(prox_mesh_closest) *)malloc(FM_BIG * sizeof *all);
  PROX_REAL *dist = (PROX_REAL *)malloc(FM_BIG * sizeof *dist);
  PROX_FN(prox_signed) *sg = (PROX_FN(prox_signed) *)malloc(2 * FM_BIG * sizeof *sg);
  PROX_REAL *d1 = (PROX_REAL *)malloc(FM_BIG * sizeof *d1);
  PROX_FN(prox_signed) *r1 = sg ? sg + FM_BIG : NULL;
  float *grid = (float *)malloc(512 * sizeof *grid);
  size_t i;
  int th;
  FM_REQUIRE(p && one && all && dist && sg && d1 && grid, "out of memory", NULL);
  for (i = 0; i < FM_BIG; ++i) {
    size_t j = i / np;
    p[i] = PROX_FN(prox_v3)(q[i % np].x + FM(fm_lattice)(c, (int)(j % 5) - 2, 1),
                            q[i % np].y + FM(fm_lattice)(c, (int)(j / 5 % 5) - 2, 1),
                            q[i % np].z + FM(fm_lattice)(c, (int)(j / 25 % 5) - 2, 1));
    (void)PROX_FN(prox_bvh_closest)(t, p[i], PROX_INF, &one[i]);
    d1[i] = PROX_FN(prox_sdf_distance)(s, p[i], &r1[i]);
  }
  for (th = 1; th <= 2; ++th) {
    FM_REQUIRE(PROX_FN(prox_bvh_closest_batch)(t, p, FM_BIG, PROX_INF, all, th) == PROX_OK,
               "closest batch (packets): failed", NULL);
    for (i = 0; i < FM_BIG; ++i)
      FM_REQUIRE(FM(fm_same)(all[i].sqdist, one[i].sqdist) && all[i].triangle == one[i].triangle &&
                     memcmp(&all[i].point, &one[i].point, sizeof one[i].point) == 0,
                 "closest batch (packets): not the single query's answer", NULL);
    FM_REQUIRE(PROX_FN(prox_sdf_batch)(s, p, FM_BIG, dist, sg, th) == PROX_OK,
               "sign batch (packets): failed", NULL);
    for (i = 0; i < FM_BIG; ++i)
      FM_REQUIRE(FM(fm_same)(dist[i], d1[i]) && sg[i].inside == r1[i].inside &&
                     sg[i].certain == r1[i].certain &&
                     sg[i].closest.triangle == r1[i].closest.triangle,
                 "sign batch (packets): not the single query's answer", NULL);
  }
  {
    PROX_REAL h = FM(fm_lattice)(c, 1, 1);
    VEC o = PROX_FN(prox_v3)(q[0].x - 4 * h, q[0].y - 4 * h, q[0].z - 4 * h);
    FM_REQUIRE(PROX_FN(prox_sdf_grid)(s, o, PROX_FN(prox_v3)(h, h, h), 8, 8, 8, grid, c->threads) ==
                   PROX_OK,
               "sign grid (bricks): failed", NULL);
    for (i = 0; i < 512; ++i) {
      VEC x = PROX_FN(prox_v3)(o.x + (PROX_REAL)(i % 8) * h, o.y + (PROX_REAL)(i / 8 % 8) * h,
                               o.z + (PROX_REAL)(i / 64) * h);
      float g = (float)PROX_FN(prox_sdf_distance)(s, x, NULL);
      FM_REQUIRE(memcmp(&g, &grid[i], sizeof g) == 0,
                 "sign grid (bricks): not prox_sdf_distance's value", NULL);
    }
  }
  free(p);
  free(one);
  free(all);
  free(dist);
  free(sg);
  free(d1);
  free(grid);
}

/* Builds the trees and the sign of one input and checks them. */
static void FM(fm_run)(fm_in *in, fm_case *c) {
  PROX_REAL v[3 * FM_MAXV], moved[3 * FM_MAXV];
  VEC q[FM_MAXP];
  PROX_FN(prox_ray) r[FM_MAXR];
  size_t i, np = 0, nr = 0, k;
  uint32_t flips = 0;
  int bad_index = 0, bad_coord = 0, checks = 1, closed_chain = c->shape != 0, any_flip = 0;
  PROX_FN(prox_mesh) mesh;
  PROX_FN(prox_bvh) *t = NULL;
  SDF_T *s = NULL;
  prox_bvh_options bo = prox_bvh_options_default();
  prox_sdf_options so = prox_sdf_options_default();
  prox_status st;
  prox_error err;
  /* The queries first (so that short inputs have some), then the mesh. */
  np = fm_byte(in) % (FM_MAXP + 1);
  nr = fm_byte(in) % (FM_MAXR + 1);
  for (i = 0; i < np; ++i) {
    PROX_REAL x[3];
    for (k = 0; k < 3; ++k)
      x[k] = FM(fm_lattice)(c, (int)(fm_byte(in) % 19u) - 9, 1);
    q[i] = PROX_FN(prox_v3)(x[0], x[1], x[2]);
  }
  for (i = 0; i < nr; ++i) {
    PROX_REAL o[3], d[3];
    for (k = 0; k < 3; ++k)
      o[k] = FM(fm_lattice)(c, (int)(fm_byte(in) % 19u) - 9, 1);
    for (k = 0; k < 3; ++k)
      d[k] = (PROX_REAL)((int)(fm_byte(in) % 9u) - 4);
    r[i].origin = PROX_FN(prox_v3)(o[0], o[1], o[2]);
    r[i].dir = PROX_FN(prox_v3)(d[0], d[1], d[2]);
    /* One ray in four on a finite interval [tmin, tmax] (half units). */
    k = fm_byte(in);
    r[i].tmin = k & 3u ? 0 : FM(fm_lattice)(c, (int)((k >> 2) % 5u), 1);
    r[i].tmax = k & 3u ? PROX_INF : r[i].tmin + FM(fm_lattice)(c, (int)((k >> 4) % 9u), 1);
  }
  /* The mesh. */
  if (c->shape == 0) {
    c->nv = fm_byte(in) % FM_MAXV + 1;
    c->nt = fm_byte(in) % FM_MAXT + 1;
    for (i = 0; i < 3 * c->nv; ++i)
      v[i] = FM(fm_coord)(in, c, 0);
    for (i = 0; i < 3 * c->nt; ++i) {
      unsigned b = fm_byte(in);
      c->idx[i] = b == 255 ? (uint32_t)c->nv : (uint32_t)(b % c->nv);
    }
  } else {
    int copies = c->shape == 3 ? 2 : 1, cube = c->shape == 2, cp;
    size_t nv1 = cube ? 8 : 6, nt1 = cube ? 12 : 8;
    flips = fm_byte(in) | (uint32_t)fm_byte(in) << 8;
    /* Most inputs flip nothing: a face flipped where two bits agree. */
    flips &= (uint32_t)fm_byte(in) | (uint32_t)fm_byte(in) << 8;
    c->nv = nv1 * (size_t)copies;
    c->nt = nt1 * (size_t)copies;
    for (cp = 0; cp < copies; ++cp) {
      for (i = 0; i < nv1; ++i)
        for (k = 0; k < 3; ++k) {
          int base = cube ? fm_cube_v[i][k] : fm_octa_v[i][k];
          PROX_REAL x;
          if (c->coords == 3) {
            x = FM(fm_coord)(in, c, 0);
          } else {
            /* Jitter -1..1 (one value in three 0), the second copy
             * shifted by -4..4 along x. */
            unsigned b = fm_byte(in);
            int jit = (int)(b % 3u) - 1;
            if (cp && k == 0) base += (int)((b >> 2) % 9u) - 4;
            x = FM(fm_lattice)(c, base + jit, 0);
          }
          v[3 * (nv1 * (size_t)cp + i) + k] = x;
        }
      for (i = 0; i < nt1; ++i) {
        const uint32_t *f = cube ? fm_cube_f[i] : fm_octa_f[i];
        size_t at = 3 * (nt1 * (size_t)cp + i);
        int flip = (int)((flips >> (i + (size_t)cp * nt1) % 16) & 1u);
        any_flip |= flip;
        c->idx[at] = (uint32_t)(nv1 * (size_t)cp) + f[0];
        c->idx[at + 1] = (uint32_t)(nv1 * (size_t)cp) + f[flip ? 2 : 1];
        c->idx[at + 2] = (uint32_t)(nv1 * (size_t)cp) + f[flip ? 1 : 2];
      }
    }
    /* A flipped face breaks the chain. */
    closed_chain = !any_flip;
  }
  for (i = 0; i < 3 * c->nt; ++i)
    if (c->idx[i] >= c->nv) bad_index = 1;
  for (i = 0; i < 3 * c->nt && !bad_index; ++i)
    for (k = 0; k < 3; ++k) {
      PROX_REAL x = v[3 * (size_t)c->idx[i] + k];
      if (!(PROX_FABS(x) <= PROX_REAL_MAX)) bad_coord = 1;
      if (!FM(fm_in_range)(x)) checks = 0;
    }
  for (i = 0; i < 3 * c->nv; ++i)
    c->v[i] = (double)v[i];
  mesh.vertices = v;
  mesh.vertex_count = c->nv;
  mesh.stride = 0;
  mesh.indices = c->idx;
  mesh.triangle_count = c->nt;
  bo.threads = c->threads;
  bo.leaf_size = c->leaf == 0 ? 0 : c->leaf == 1 ? 1 : c->leaf == 2 ? 3 : PROX_BVH_MAX_LEAF;
  so.method = c->method == 0 || c->method > 4 ? PROX_SIGN_AUTO
              : c->method == 4                ? PROX_SIGN_WINDING
                                              : c->method;
  if (c->method == 4) so.accuracy = INFINITY;
  so.threads = c->threads;

  if (c->fail_at) {
    /* The builds under an allocator that fails at call fail_at. */
    fm_alloc a;
    prox_allocator al;
    PROX_FN(prox_bvh) *ft = NULL;
    SDF_T *fs = NULL;
    memset(&a, 0, sizeof a);
    a.fail_at = c->fail_at;
    al.alloc = fm_alloc_fn;
    al.free = fm_free_fn;
    al.user = &a;
    st = PROX_FN(prox_bvh_build)(&mesh, &bo, &al, &ft, &err);
    FM_REQUIRE(st == PROX_OK || st == PROX_ERROR_OUT_OF_MEMORY || st == PROX_ERROR_INVALID_MESH,
               "bvh build (failing allocator): an unexpected status", NULL);
    if (st == PROX_OK) {
      st = PROX_FN(prox_sdf_build)(&mesh, ft, NULL, &so, &al, &fs, &err);
      FM_REQUIRE(st == PROX_OK || st == PROX_ERROR_OUT_OF_MEMORY,
                 "sdf build (failing allocator): an unexpected status", NULL);
      PROX_FN(prox_sdf_free)(fs);
    }
    PROX_FN(prox_bvh_free)(ft);
    FM_REQUIRE(a.live == 0, "builds (failing allocator): memory not given back", NULL);
  }

  st = PROX_FN(prox_bvh_build)(&mesh, &bo, NULL, &t, &err);
  if (bad_index || bad_coord) {
    FM_REQUIRE(st == PROX_ERROR_INVALID_MESH && t == NULL,
               "bvh build: an invalid mesh not reported as such", NULL);
    return;
  }
  FM_REQUIRE(st == PROX_OK && t != NULL, "bvh build: failed on a valid mesh", NULL);
  if (!checks) {
    /* Raw coordinates out of the checked range: the queries run (no
     * crash, no undefined behaviour), their answers are not compared. */
    PROX_FN(prox_mesh_closest) cl;
    for (i = 0; i < np; ++i)
      (void)PROX_FN(prox_bvh_closest)(t, q[i], PROX_INF, &cl);
    for (i = 0; i < nr; ++i) {
      PROX_FN(prox_mesh_hit) h;
      (void)PROX_FN(prox_bvh_raycast)(t, &r[i], &h);
      (void)PROX_FN(prox_bvh_ray_count)(t, &r[i], NULL);
    }
    if (PROX_FN(prox_sdf_build)(&mesh, t, NULL, &so, NULL, &s, &err) == PROX_OK)
      for (i = 0; i < np; ++i)
        (void)PROX_FN(prox_sdf_distance)(s, q[i], NULL);
    PROX_FN(prox_sdf_free)(s);
    PROX_FN(prox_bvh_free)(t);
    return;
  }
  {
    prox_mesh_topology *tp = NULL;
    FM_REQUIRE(PROX_FN(prox_mesh_topology_build)(&mesh, NULL, &tp, &err) == PROX_OK && tp,
               "topology: failed on a valid mesh", NULL);
    fm_check_topology(c, tp);
    prox_mesh_topology_free(tp);
  }
  FM(fm_check_tree)(c, t, v, c->idx, c->nt, q, np, r, nr);
  st = PROX_FN(prox_sdf_build)(&mesh, t, NULL, &so, NULL, &s, &err);
  FM_REQUIRE(st == PROX_OK && s != NULL, "sdf build: failed on a valid mesh", NULL);
  FM(fm_check_sign)(c, t, s, v, c->idx, c->nt, q, np, closed_chain);
  if (c->big && np) FM(fm_check_big)(c, t, s, q, np);
  PROX_FN(prox_sdf_free)(s);
  if (c->refit && c->coords != 3) {
    /* Every vertex moved by -1..1 lattice units along x, then a refit. */
    for (i = 0; i < 3 * c->nv; ++i)
      moved[i] = v[i] + (i % 3 == 0 ? FM(fm_lattice)(c, (int)(i / 3 % 3) - 1, 0) : 0);
    mesh.vertices = moved;
    FM_REQUIRE(PROX_FN(prox_bvh_refit)(t, &mesh, &err) == PROX_OK, "refit: failed", NULL);
    FM(fm_check_tree)(c, t, moved, c->idx, c->nt, q, np, r, nr);
  }
  PROX_FN(prox_bvh_free)(t);
}

#undef FM
#undef VEC
#undef SDF_T
#undef FM_BIG

#endif /* FUZZ_MESH_TEMPLATE */
