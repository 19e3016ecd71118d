/* SPDX-License-Identifier: MIT */
/* bench_mesh: prox's mesh BVH beside Embree 3 in one process, same meshes,
 * same queries.
 *
 *   bench_mesh [--only=SECTION[,SECTION]] [--n=N] [--runs=R]
 *              [--threads=T[,T]] [--meshes=DIR] [--check=C]
 *
 * Sections: build (build time, prox at 1 and 2 threads, Embree at medium
 * and high quality; BVH bytes per triangle), closest (closest point: prox
 * double and float trees, Embree rtcPointQuery with a callback calling
 * prox_point_trianglef, as Embree's closest_point tutorial does; N points
 * uniform in the box enlarged by 10% and N within 1% of the diagonal of
 * the surface). Default: all. A ray section can be added beside them (see
 * bench_sections below).
 * Meshes: bunny.obj and dragon.obj from DIR (default PROX_MESH_DIR or
 * ../shared/data/meshes), and dragon subdivided twice (each triangle into
 * 4, twice: 1.6M triangles), made here.
 * Before timing, C points of each set (default 2000) are checked against
 * brute force: prox's squared distance and triangle (lowest index on
 * ties) and Embree's squared distance; the mismatch counts are printed.
 * Each row is the median of R runs (default 5) with the range; times per
 * query in microseconds. Single-thread query rows measure the thread's CPU
 * time (CLOCK_THREAD_CPUTIME_ID: robust to a shared machine) and are meant
 * to run under `taskset -c 1`; build rows and 2-thread rows are wall time; the
 * 2-thread rows use two threads (prox_bvh_closest_batch and two pthreads over
 * halves for Embree). */
#define _POSIX_C_SOURCE 200809L
#include <prox/batch.h>
#include <prox/bvh.h>

#include <embree3/rtcore.h>

#include "../tests/meshload.h"
#include "splitmix.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Wall-clock time, or with bm_cpu set the calling thread's CPU time (the
 * single-thread rows: on a shared machine, time spent descheduled is not
 * the query's). */
static int bm_cpu = 0;
static double bm_now(void) {
  struct timespec ts;
  clock_gettime(bm_cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bm_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median, min and max of r values (sorted in place). */
static void bm_stats(double *v, int r, double *med, double *lo, double *hi) {
  qsort(v, (size_t)r, sizeof *v, bm_cmp);
  *med = r % 2 ? v[r / 2] : 0.5 * (v[r / 2 - 1] + v[r / 2]);
  *lo = v[0];
  *hi = v[r - 1];
}

typedef struct bm_mesh {
  char name[64];
  objmesh m; /* double vertices */
  float *vf; /* float vertices, 3 nv */
  double lo[3], hi[3], diag;
} bm_mesh;

/* Each triangle into 4 by its edge midpoints (unshared new vertices). */
static int bm_subdivide(objmesh *m) {
  objmesh o;
  size_t t;
  memset(&o, 0, sizeof o);
  for (t = 0; t < m->nv; ++t)
    if (!obj_push_vertex(&o, m->v + 3 * t)) return 0;
  for (t = 0; t < m->nt; ++t) {
    const uint32_t *i = m->t + 3 * t;
    uint32_t mid[3];
    int k, c;
    for (k = 0; k < 3; ++k) {
      double p[3];
      const double *a = m->v + 3 * (size_t)i[k], *b = m->v + 3 * (size_t)i[(k + 1) % 3];
      for (c = 0; c < 3; ++c)
        p[c] = 0.5 * (a[c] + b[c]);
      mid[k] = (uint32_t)o.nv;
      if (!obj_push_vertex(&o, p)) return 0;
    }
    if (!obj_push_triangle(&o, i[0], mid[0], mid[2]) ||
        !obj_push_triangle(&o, mid[0], i[1], mid[1]) ||
        !obj_push_triangle(&o, mid[2], mid[1], i[2]) ||
        !obj_push_triangle(&o, mid[0], mid[1], mid[2]))
      return 0;
  }
  obj_free(m);
  *m = o;
  return 1;
}

static void bm_finish_mesh(bm_mesh *b) {
  size_t i;
  int c;
  double s = 0;
  b->vf = (float *)malloc(3 * b->m.nv * sizeof *b->vf + 16);
  for (i = 0; i < 3 * b->m.nv; ++i)
    b->vf[i] = (float)b->m.v[i];
  for (c = 0; c < 3; ++c) {
    b->lo[c] = 1e300;
    b->hi[c] = -1e300;
  }
  for (i = 0; i < 3 * b->m.nt; ++i) {
    const double *p = b->m.v + 3 * (size_t)b->m.t[i];
    for (c = 0; c < 3; ++c) {
      if (p[c] < b->lo[c]) b->lo[c] = p[c];
      if (p[c] > b->hi[c]) b->hi[c] = p[c];
    }
  }
  for (c = 0; c < 3; ++c)
    s += (b->hi[c] - b->lo[c]) * (b->hi[c] - b->lo[c]);
  b->diag = sqrt(s);
}

/* Query sets: 0 uniform in the box enlarged by 10%, 1 within 1% of the
 * diagonal of the surface. */
static void bm_queries(const bm_mesh *b, int set, size_t n, uint64_t seed, prox_vec3 *pd,
                       prox_vec3f *pf) {
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; ++i) {
    double q[3];
    int c;
    if (set == 0) {
      for (c = 0; c < 3; ++c) {
        double m = 0.5 * (b->lo[c] + b->hi[c]), e = 0.55 * (b->hi[c] - b->lo[c]);
        q[c] = m + e * rng_sym(&s);
      }
    } else {
      const uint32_t *t = b->m.t + 3 * (rng_next(&s) % b->m.nt);
      double u = rng_unit(&s), v = rng_unit(&s), r = 0.01 * rng_unit(&s);
      double d[3] = {rng_sym(&s), rng_sym(&s), rng_sym(&s)};
      double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + 1e-300;
      if (u + v > 1) {
        u = 1 - u;
        v = 1 - v;
      }
      for (c = 0; c < 3; ++c)
        q[c] = (1 - u - v) * b->m.v[3 * (size_t)t[0] + (size_t)c] +
               u * b->m.v[3 * (size_t)t[1] + (size_t)c] + v * b->m.v[3 * (size_t)t[2] + (size_t)c] +
               r * b->diag * d[c] / len;
    }
    /* The float set is the double set rounded, and the double set is
     * then that float set widened (the same points for both). */
    pf[i] = prox_v3f((float)q[0], (float)q[1], (float)q[2]);
    pd[i] = prox_v3(pf[i].x, pf[i].y, pf[i].z);
  }
}

/* ---- Embree ---------------------------------------------------------- */

typedef struct bm_embree {
  RTCDevice dev;
  RTCScene scene;
  const float *vf;
  const uint32_t *t;
} bm_embree;

typedef struct bm_eq {
  const bm_embree *e;
  prox_vec3f p;
  float best;
  unsigned id;
} bm_eq;

static bool bm_embree_cb(struct RTCPointQueryFunctionArguments *a) {
  bm_eq *q = (bm_eq *)a->userPtr;
  const uint32_t *i = q->e->t + 3 * (size_t)a->primID;
  prox_trianglef tr;
  float d2;
  int k;
  for (k = 0; k < 3; ++k)
    tr.v[k] = prox_v3f(q->e->vf[3 * (size_t)i[k]], q->e->vf[3 * (size_t)i[k] + 1],
                       q->e->vf[3 * (size_t)i[k] + 2]);
  d2 = prox_point_trianglef(q->p, &tr, NULL);
  if (d2 < q->best || (d2 == q->best && a->primID < q->id)) {
    q->best = d2;
    q->id = a->primID;
    /* The radius may only shrink: the square root rounded up. */
    {
      float r = nextafterf(sqrtf(d2), INFINITY);
      if (r < a->query->radius) {
        a->query->radius = r;
        return true;
      }
    }
  }
  return false;
}

static float bm_embree_closest(const bm_embree *e, prox_vec3f p, unsigned *id) {
  struct RTCPointQuery q;
  struct RTCPointQueryContext ctx;
  bm_eq u;
  q.x = p.x;
  q.y = p.y;
  q.z = p.z;
  q.time = 0;
  q.radius = INFINITY;
  u.e = e;
  u.p = p;
  u.best = INFINITY;
  u.id = UINT32_MAX;
  rtcInitPointQueryContext(&ctx);
  rtcPointQuery(e->scene, &q, &ctx, bm_embree_cb, &u);
  *id = u.id;
  return u.best;
}

static int bm_embree_build(bm_embree *e, const bm_mesh *b, enum RTCBuildQuality quality,
                           int threads) {
  char cfg[64];
  RTCGeometry g;
  float *vb;
  unsigned *ib;
  snprintf(cfg, sizeof cfg, "threads=%d", threads);
  e->dev = rtcNewDevice(cfg);
  if (!e->dev) return 0;
  e->scene = rtcNewScene(e->dev);
  rtcSetSceneBuildQuality(e->scene, quality);
  g = rtcNewGeometry(e->dev, RTC_GEOMETRY_TYPE_TRIANGLE);
  rtcSetGeometryBuildQuality(g, quality);
  vb = (float *)rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                        3 * sizeof(float), b->m.nv);
  ib = (unsigned *)rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                           3 * sizeof(unsigned), b->m.nt);
  memcpy(vb, b->vf, 3 * b->m.nv * sizeof(float));
  memcpy(ib, b->m.t, 3 * b->m.nt * sizeof(unsigned));
  rtcCommitGeometry(g);
  rtcAttachGeometry(e->scene, g);
  rtcReleaseGeometry(g);
  rtcCommitScene(e->scene);
  e->vf = b->vf;
  e->t = b->m.t;
  return 1;
}

static void bm_embree_free(bm_embree *e) {
  rtcReleaseScene(e->scene);
  rtcReleaseDevice(e->dev);
}

/* Embree's memory: the device's memory monitor (bytes allocated while
 * building the scene). */
static ssize_t bm_embree_mem_now = 0, bm_embree_mem_peak = 0;
static bool bm_embree_mem_cb(void *user, ssize_t bytes, bool post) {
  (void)user;
  (void)post;
  bm_embree_mem_now += bytes;
  if (bm_embree_mem_now > bm_embree_mem_peak) bm_embree_mem_peak = bm_embree_mem_now;
  return true;
}

/* prox's peak: an allocator that counts the bytes live and their peak. */
typedef struct bm_count {
  size_t now, peak;
} bm_count;
static void *bm_count_alloc(void *user, size_t size, size_t alignment) {
  bm_count *c = (bm_count *)user;
  void *p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p) {
    c->now += size;
    if (c->now > c->peak) c->peak = c->now;
  }
  return p;
}
static void bm_count_free(void *user, void *ptr, size_t size) {
  bm_count *c = (bm_count *)user;
  c->now -= size;
  free(ptr);
}

/* ---- options ----------------------------------------------------------- */

static size_t bm_n = 1000000, bm_check = 2000;
static int bm_runs = 5;
static int bm_threads[4] = {1, 2, 0, 0}, bm_nthreads = 2;
static char bm_only[256] = "";

static int bm_section(const char *name) {
  return bm_only[0] == '\0' || strstr(bm_only, name) != NULL;
}

/* ---- build section ---------------------------------------------------- */

static void bm_build(const bm_mesh *b) {
  int r, k;
  double t[64], med, lo, hi;
  prox_meshf mf;
  prox_mesh md;
  md.vertices = b->m.v;
  md.vertex_count = b->m.nv;
  md.stride = 0;
  md.indices = b->m.t;
  md.triangle_count = b->m.nt;
  mf.vertices = b->vf;
  mf.vertex_count = b->m.nv;
  mf.stride = 0;
  mf.indices = b->m.t;
  mf.triangle_count = b->m.nt;
  for (k = 0; k < bm_nthreads; ++k) {
    prox_bvh_options o = prox_bvh_options_default();
    prox_bvh_stats st;
    bm_count cnt = {0, 0};
    prox_allocator ca;
    ca.alloc = bm_count_alloc;
    ca.free = bm_count_free;
    ca.user = &cnt;
    o.threads = bm_threads[k];
    for (r = 0; r < bm_runs; ++r) {
      prox_bvhf *bvh;
      double t0 = bm_now();
      prox_bvh_buildf(&mf, &o, NULL, &bvh, NULL);
      t[r] = bm_now() - t0;
      if (r == bm_runs - 1) prox_bvh_get_statsf(bvh, &st);
      prox_bvh_freef(bvh);
    }
    bm_stats(t, bm_runs, &med, &lo, &hi);
    {
      /* one more build, untimed, counting its memory */
      prox_bvhf *bvh;
      cnt.now = cnt.peak = 0;
      prox_bvh_buildf(&mf, &o, &ca, &bvh, NULL);
      prox_bvh_freef(bvh);
    }
    printf("%-14s build prox float   %d thr %9.2f ms [%.2f, %.2f]  %.1f B/tri "
           "depth %d, peak %.1f B/tri\n",
           b->name, bm_threads[k], 1e3 * med, 1e3 * lo, 1e3 * hi, st.bytes_per_triangle, st.depth,
           (double)cnt.peak / (double)b->m.nt);
    for (r = 0; r < bm_runs; ++r) {
      prox_bvh *bvh;
      double t0 = bm_now();
      prox_bvh_build(&md, &o, NULL, &bvh, NULL);
      t[r] = bm_now() - t0;
      if (r == bm_runs - 1) prox_bvh_get_stats(bvh, &st);
      prox_bvh_free(bvh);
    }
    bm_stats(t, bm_runs, &med, &lo, &hi);
    {
      prox_bvh *bvh;
      cnt.now = cnt.peak = 0;
      prox_bvh_build(&md, &o, &ca, &bvh, NULL);
      prox_bvh_free(bvh);
    }
    printf("%-14s build prox double  %d thr %9.2f ms [%.2f, %.2f]  %.1f B/tri, peak %.1f B/tri\n",
           b->name, bm_threads[k], 1e3 * med, 1e3 * lo, 1e3 * hi, st.bytes_per_triangle,
           (double)cnt.peak / (double)b->m.nt);
    {
      static const enum RTCBuildQuality q[2] = {RTC_BUILD_QUALITY_MEDIUM, RTC_BUILD_QUALITY_HIGH};
      static const char *qn[2] = {"medium", "high"};
      int j;
      for (j = 0; j < 2; ++j) {
        double bytes = 0, peak = 0;
        for (r = 0; r < bm_runs; ++r) {
          bm_embree e;
          double t0;
          char cfg[64];
          /* device made outside the timing: rtcNewDevice starts threads */
          snprintf(cfg, sizeof cfg, "threads=%d", bm_threads[k]);
          e.dev = rtcNewDevice(cfg);
          bm_embree_mem_now = bm_embree_mem_peak = 0;
          rtcSetDeviceMemoryMonitorFunction(e.dev, bm_embree_mem_cb, NULL);
          {
            RTCGeometry g;
            float *vb;
            unsigned *ib;
            ssize_t before;
            e.scene = rtcNewScene(e.dev);
            rtcSetSceneBuildQuality(e.scene, q[j]);
            g = rtcNewGeometry(e.dev, RTC_GEOMETRY_TYPE_TRIANGLE);
            rtcSetGeometryBuildQuality(g, q[j]);
            vb = (float *)rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                  3 * sizeof(float), b->m.nv);
            ib = (unsigned *)rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                                     3 * sizeof(unsigned), b->m.nt);
            memcpy(vb, b->vf, 3 * b->m.nv * sizeof(float));
            memcpy(ib, b->m.t, 3 * b->m.nt * sizeof(unsigned));
            rtcCommitGeometry(g);
            rtcAttachGeometry(e.scene, g);
            rtcReleaseGeometry(g);
            before = bm_embree_mem_peak = bm_embree_mem_now;
            t0 = bm_now();
            rtcCommitScene(e.scene);
            t[r] = bm_now() - t0;
            bytes = (double)(bm_embree_mem_now - before);
            peak = (double)(bm_embree_mem_peak - before);
          }
          rtcReleaseScene(e.scene);
          rtcReleaseDevice(e.dev);
        }
        bm_stats(t, bm_runs, &med, &lo, &hi);
        printf("%-14s build embree %-6s %d thr %9.2f ms [%.2f, %.2f]  %.1f "
               "B/tri (BVH, after commit; excl. the vertex/index buffers), peak %.1f B/tri\n",
               b->name, qn[j], bm_threads[k], 1e3 * med, 1e3 * lo, 1e3 * hi,
               bytes / (double)b->m.nt, peak / (double)b->m.nt);
      }
    }
  }
}

/* ---- closest section --------------------------------------------------- */

typedef struct bm_job {
  const bm_embree *e;
  const prox_vec3f *pf;
  size_t i0, i1;
  float *out;
} bm_job;

static void *bm_embree_job(void *arg) {
  bm_job *j = (bm_job *)arg;
  size_t i;
  for (i = j->i0; i < j->i1; ++i) {
    unsigned id;
    j->out[i] = bm_embree_closest(j->e, j->pf[i], &id);
  }
  return NULL;
}

/* The points in Morton order of their cells (1024 per axis over their
 * box), the bench's own sort (qsort), for Embree on the order that prox's
 * batches use internally: the caller sorts, Embree answers. */
typedef struct bm_key {
  uint64_t code;
  size_t i;
} bm_key;

static int bm_key_cmp(const void *a, const void *b) {
  const bm_key *x = (const bm_key *)a, *y = (const bm_key *)b;
  if (x->code != y->code) return x->code < y->code ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

static void bm_morton_sort(const prox_vec3f *p, size_t n, prox_vec3f *out) {
  bm_key *k = (bm_key *)malloc(n * sizeof *k);
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  size_t i;
  int c, bit;
  for (i = 0; i < n; ++i) {
    const float q[3] = {p[i].x, p[i].y, p[i].z};
    for (c = 0; c < 3; ++c) {
      if (q[c] < lo[c]) lo[c] = q[c];
      if (q[c] > hi[c]) hi[c] = q[c];
    }
  }
  for (i = 0; i < n; ++i) {
    const float q[3] = {p[i].x, p[i].y, p[i].z};
    unsigned cell[3];
    uint64_t code = 0;
    for (c = 0; c < 3; ++c) {
      double t = hi[c] > lo[c] ? 1024.0 * (q[c] - lo[c]) / (hi[c] - lo[c]) : 0;
      cell[c] = t >= 1023 ? 1023u : (unsigned)t;
    }
    for (bit = 9; bit >= 0; --bit)
      for (c = 0; c < 3; ++c)
        code = code << 1 | (cell[c] >> bit & 1u);
    k[i].code = code;
    k[i].i = i;
  }
  qsort(k, n, sizeof *k, bm_key_cmp);
  for (i = 0; i < n; ++i)
    out[i] = p[k[i].i];
  free(k);
}

/* Two closest-point answers are the same (every field, bit for bit on
 * finite values). */
#define BM_SAME(a, b)                                                                              \
  ((a).found == (b).found && (a).triangle == (b).triangle && (a).sqdist == (b).sqdist &&           \
   (a).point.x == (b).point.x && (a).point.y == (b).point.y && (a).point.z == (b).point.z &&       \
   (a).bary[0] == (b).bary[0] && (a).bary[1] == (b).bary[1] && (a).bary[2] == (b).bary[2] &&       \
   (a).feature.kind == (b).feature.kind && (a).feature.index == (b).feature.index)

static void bm_closest(const bm_mesh *b) {
  prox_meshf mf;
  prox_mesh md;
  prox_bvhf *tf;
  prox_bvh *td;
  bm_embree e;
  prox_vec3 *pd = (prox_vec3 *)malloc(bm_n * sizeof *pd);
  prox_vec3f *pf = (prox_vec3f *)malloc(bm_n * sizeof *pf);
  prox_mesh_closestf *rf = (prox_mesh_closestf *)malloc(bm_n * sizeof *rf);
  prox_mesh_closest *rd = (prox_mesh_closest *)malloc(bm_n * sizeof *rd);
  float *ef = (float *)malloc(bm_n * sizeof *ef);
  prox_vec3f *pfs = (prox_vec3f *)malloc(bm_n * sizeof *pfs);
  prox_mesh_closestf *rbf = (prox_mesh_closestf *)malloc(bm_n * sizeof *rbf);
  prox_mesh_closest *rbd = (prox_mesh_closest *)malloc(bm_n * sizeof *rbd);
  prox_trianglef *trf = (prox_trianglef *)malloc(b->m.nt * sizeof *trf);
  prox_triangle *trd = (prox_triangle *)malloc(b->m.nt * sizeof *trd);
  int set, k, r;
  size_t i;
  static const char *setname[2] = {"uniform", "near"};
  md.vertices = b->m.v;
  md.vertex_count = b->m.nv;
  md.stride = 0;
  md.indices = b->m.t;
  md.triangle_count = b->m.nt;
  mf.vertices = b->vf;
  mf.vertex_count = b->m.nv;
  mf.stride = 0;
  mf.indices = b->m.t;
  mf.triangle_count = b->m.nt;
  prox_bvh_buildf(&mf, NULL, NULL, &tf, NULL);
  prox_bvh_build(&md, NULL, NULL, &td, NULL);
  bm_embree_build(&e, b, RTC_BUILD_QUALITY_MEDIUM, 0);
  for (i = 0; i < b->m.nt; ++i) {
    trf[i] = prox_mesh_trianglef(&mf, (uint32_t)i);
    trd[i] = prox_mesh_triangle(&md, (uint32_t)i);
  }
  for (set = 0; set < 2; ++set) {
    size_t nc = bm_check < bm_n ? bm_check : bm_n;
    long bad_pf = 0, bad_pd = 0, bad_e = 0, bad_eid = 0;
    bm_queries(b, set, bm_n, 1234 + (uint64_t)set, pd, pf);
    for (i = 0; i < nc; ++i) {
      size_t bi;
      unsigned eid;
      prox_mesh_closestf a;
      prox_mesh_closest ad;
      float df = prox_point_trianglesf(pf[i], trf, b->m.nt, &bi, NULL);
      double dd;
      float de = bm_embree_closest(&e, pf[i], &eid);
      prox_bvh_closestf(tf, pf[i], INFINITY, &a);
      if (a.sqdist != df || a.triangle != bi) ++bad_pf;
      if (de != df) ++bad_e;
      if (eid != bi) ++bad_eid;
      dd = prox_point_triangles(pd[i], trd, b->m.nt, &bi, NULL);
      prox_bvh_closest(td, pd[i], INFINITY, &ad);
      if (ad.sqdist != dd || ad.triangle != bi) ++bad_pd;
    }
    printf("%-14s closest %-7s check vs brute force on %zu points: prox "
           "float %ld, prox double %ld mismatches; embree %ld squared "
           "distances differ (%ld ids: ties)\n",
           b->name, setname[set], nc, bad_pf, bad_pd, bad_e, bad_eid);
    bm_morton_sort(pf, bm_n, pfs);
    for (k = 0; k < bm_nthreads; ++k) {
      int th = bm_threads[k];
      double tp[64], tpd[64], te[64], tbf[64], tbd[64], tes[64], mp, mpd, me, lo, hi, lod, hid, loe,
          hie;
      bm_cpu = th == 1;
      for (r = 0; r < bm_runs; ++r) {
        double t0;
        if (th == 1) {
          /* The batch in one thread (its own coherent order), and Embree on
           * points the caller has put in that kind of order. */
          t0 = bm_now();
          prox_bvh_closest_batchf(tf, pf, bm_n, INFINITY, rbf, 1);
          tbf[r] = bm_now() - t0;
          t0 = bm_now();
          prox_bvh_closest_batch(td, pd, bm_n, INFINITY, rbd, 1);
          tbd[r] = bm_now() - t0;
          t0 = bm_now();
          for (i = 0; i < bm_n; ++i) {
            unsigned id;
            ef[i] = bm_embree_closest(&e, pfs[i], &id);
          }
          tes[r] = bm_now() - t0;
        }
        t0 = bm_now();
        if (th == 1) {
          for (i = 0; i < bm_n; ++i)
            prox_bvh_closestf(tf, pf[i], INFINITY, &rf[i]);
        } else {
          prox_bvh_closest_batchf(tf, pf, bm_n, INFINITY, rf, th);
        }
        tp[r] = bm_now() - t0;
        t0 = bm_now();
        if (th == 1) {
          for (i = 0; i < bm_n; ++i)
            prox_bvh_closest(td, pd[i], INFINITY, &rd[i]);
        } else {
          prox_bvh_closest_batch(td, pd, bm_n, INFINITY, rd, th);
        }
        tpd[r] = bm_now() - t0;
        t0 = bm_now();
        {
          pthread_t tid[16];
          bm_job jb[16];
          int w;
          for (w = 0; w < th && w < 16; ++w) {
            jb[w].e = &e;
            jb[w].pf = pf;
            jb[w].i0 = bm_n * (size_t)w / (size_t)th;
            jb[w].i1 = bm_n * (size_t)(w + 1) / (size_t)th;
            jb[w].out = ef;
            if (w > 0) pthread_create(&tid[w], NULL, bm_embree_job, &jb[w]);
          }
          bm_embree_job(&jb[0]);
          for (w = 1; w < th && w < 16; ++w)
            pthread_join(tid[w], NULL);
        }
        te[r] = bm_now() - t0;
      }
      bm_cpu = 0;
      bm_stats(tp, bm_runs, &mp, &lo, &hi);
      bm_stats(tpd, bm_runs, &mpd, &lod, &hid);
      bm_stats(te, bm_runs, &me, &loe, &hie);
      printf("%-14s closest %-7s %d thr %s us/query: prox float %.3f [%.3f, "
             "%.3f]  prox double %.3f [%.3f, %.3f]  embree %.3f [%.3f, %.3f]"
             "  ratio embree/prox float %.2f, /prox double %.2f\n",
             b->name, setname[set], th, th == 1 ? "(cpu) " : "(wall)", 1e6 * mp / (double)bm_n,
             1e6 * lo / (double)bm_n, 1e6 * hi / (double)bm_n, 1e6 * mpd / (double)bm_n,
             1e6 * lod / (double)bm_n, 1e6 * hid / (double)bm_n, 1e6 * me / (double)bm_n,
             1e6 * loe / (double)bm_n, 1e6 * hie / (double)bm_n, me / mp, me / mpd);
      if (th == 1) {
        double mbf, mbd, mes, lbf, hbf, lbd, hbd, les, hes;
        long diff = 0;
        bm_stats(tbf, bm_runs, &mbf, &lbf, &hbf);
        bm_stats(tbd, bm_runs, &mbd, &lbd, &hbd);
        bm_stats(tes, bm_runs, &mes, &les, &hes);
        printf("%-14s closest %-7s 1 thr batch us/query: prox float %.3f [%.3f, %.3f]  prox "
               "double %.3f [%.3f, %.3f]  embree on sorted points %.3f [%.3f, %.3f]  ratio "
               "embree/prox batch float %.2f, double %.2f; embree sorted/prox batch float "
               "%.2f, double %.2f\n",
               b->name, setname[set], 1e6 * mbf / (double)bm_n, 1e6 * lbf / (double)bm_n,
               1e6 * hbf / (double)bm_n, 1e6 * mbd / (double)bm_n, 1e6 * lbd / (double)bm_n,
               1e6 * hbd / (double)bm_n, 1e6 * mes / (double)bm_n, 1e6 * les / (double)bm_n,
               1e6 * hes / (double)bm_n, me / mbf, me / mbd, mes / mbf, mes / mbd);
        /* The batch's answers are the single queries', bit for bit. */
        for (i = 0; i < bm_n; ++i)
          if (!BM_SAME(rbf[i], rf[i]) || !BM_SAME(rbd[i], rd[i])) ++diff;
        if (diff)
          printf("%-14s   ERROR: %ld batch answers differ from the single queries'\n", b->name,
                 diff);
      }
      {
        long diff = 0;
        for (i = 0; i < bm_n; ++i)
          if (ef[i] != rf[i].sqdist) ++diff;
        if (diff)
          printf("%-14s   note: %ld of %zu embree distances differ from "
                 "prox float's\n",
                 b->name, diff, bm_n);
      }
    }
  }
  bm_embree_free(&e);
  prox_bvh_freef(tf);
  prox_bvh_free(td);
  free(pd);
  free(pf);
  free(rf);
  free(rd);
  free(ef);
  free(pfs);
  free(rbf);
  free(rbd);
  free(trf);
  free(trd);
}

/* The sections, in order; the ray layer adds its own ("ray") here. */
typedef struct bm_section_def {
  const char *name;
  void (*run)(const bm_mesh *b);
} bm_section_def;
static const bm_section_def bench_sections[] = {{"build", bm_build}, {"closest", bm_closest}};

int main(int argc, char **argv) {
  const char *dir = getenv("PROX_MESH_DIR");
  char path[4200], err[512];
  static const char *files[2] = {"bunny.obj", "dragon.obj"};
  int a, mi;
  for (a = 1; a < argc; ++a) {
    if (!strncmp(argv[a], "--only=", 7))
      snprintf(bm_only, sizeof bm_only, "%s", argv[a] + 7);
    else if (!strncmp(argv[a], "--n=", 4))
      bm_n = (size_t)atof(argv[a] + 4);
    else if (!strncmp(argv[a], "--runs=", 7))
      bm_runs = atoi(argv[a] + 7);
    else if (!strncmp(argv[a], "--check=", 8))
      bm_check = (size_t)atof(argv[a] + 8);
    else if (!strncmp(argv[a], "--meshes=", 9))
      dir = argv[a] + 9;
    else if (!strncmp(argv[a], "--threads=", 10)) {
      char *s = argv[a] + 10;
      bm_nthreads = 0;
      while (*s && bm_nthreads < 4) {
        bm_threads[bm_nthreads++] = (int)strtol(s, &s, 10);
        if (*s == ',') ++s;
      }
    } else {
      fprintf(stderr, "bench_mesh: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  if (bm_runs < 1) bm_runs = 1;
  if (bm_runs > 64) bm_runs = 64;
  if (!dir || !*dir) dir = "../shared/data/meshes";
  printf("bench_mesh: simd %s, n %zu, runs %d\n", prox_simd_name(prox_simd_level()), bm_n, bm_runs);
  for (mi = 0; mi < 3; ++mi) {
    bm_mesh b;
    size_t s;
    memset(&b, 0, sizeof b);
    snprintf(path, sizeof path, "%s/%s", dir, files[mi == 0 ? 0 : 1]);
    if (!mesh_load(path, &b.m, err, sizeof err)) {
      fprintf(stderr, "bench_mesh: %s\n", err);
      return 1;
    }
    snprintf(b.name, sizeof b.name, "%s", files[mi == 0 ? 0 : 1]);
    if (mi == 2) {
      if (!bm_subdivide(&b.m) || !bm_subdivide(&b.m)) return 1;
      snprintf(b.name, sizeof b.name, "dragon x16");
    }
    bm_finish_mesh(&b);
    printf("%-14s %zu triangles\n", b.name, b.m.nt);
    for (s = 0; s < sizeof bench_sections / sizeof *bench_sections; ++s)
      if (bm_section(bench_sections[s].name)) bench_sections[s].run(&b);
    obj_free(&b.m);
    free(b.vf);
  }
  return 0;
}
