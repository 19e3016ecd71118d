/* SPDX-License-Identifier: MIT */
/* bench_mesh_ray: prox's ray queries on a mesh BVH beside Embree 3 in one
 * process, same meshes, same rays.
 *
 *   bench_mesh_ray [--n=N] [--runs=R] [--threads=T[,T]] [--meshes=DIR]
 *                  [--check=C] [--only=MESH[,MESH]]
 *
 * Meshes: bunny.obj and dragon.obj from DIR (default PROX_MESH_DIR or
 * ../shared/data/meshes) and dragon subdivided twice (each triangle into 4
 * by its edge midpoints, twice: 1.6M triangles), made here (names bunny,
 * dragon, dragon16).
 * Rays: N (default 1M) random rays from the sphere of radius one diagonal
 * around the box's centre, aimed at a point uniform in the box; float
 * coordinates (the double rays are the same values), [0, +inf].
 * Rows: first hit (prox_bvh_raycastf / prox_bvh_raycast on the float /
 * double tree; Embree rtcIntersect1) and any hit (prox_bvh_occludedf /
 * prox_bvh_occluded; Embree rtcOccluded1), at 1 thread and at T threads
 * (prox_*_batch; Embree: T pthreads over contiguous slices).
 * Before timing, C rays (default 1000; 200 on dragon16) are checked
 * against brute force (prox_raycast_trianglef on every triangle): prox
 * must agree exactly (hit, t bits, triangle; ties to the lowest index);
 * for Embree the counts of agreement of hit/miss and triangle, and the
 * largest relative t difference, are printed.
 * Each row is the median of R runs (default 5) with the range, in
 * microseconds per ray, of the wall-clock time and of the process's CPU
 * time (all threads; on a machine shared with other work the CPU time of
 * the single-thread rows is the steadier figure). Run the single-thread
 * rows under `taskset -c 1`. */
#define _POSIX_C_SOURCE 200809L
#include <prox/batch.h>
#include <prox/bvh_ray.h>

#if defined(PROX_HAVE_EMBREE)
#include <embree3/rtcore.h>
#endif

#include "../tests/meshload.h"
#include "ray_points.h"
#include "splitmix.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double br_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the process (all its threads). */
static double br_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int br_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median, min and max of r values (sorted in place). */
static void br_stats(double *v, int r, double *med, double *lo, double *hi) {
  qsort(v, (size_t)r, sizeof *v, br_cmp);
  *med = r % 2 ? v[r / 2] : 0.5 * (v[r / 2 - 1] + v[r / 2]);
  *lo = v[0];
  *hi = v[r - 1];
}

/* Each triangle into 4 by its edge midpoints (new vertices per edge use,
 * positions identical between neighbours, so closed stays closed). */
static int br_subdivide(objmesh *m) {
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

typedef struct br_mesh {
  const char *name;
  objmesh m;
  float *vf; /* float vertices (3 nv, padded for Embree) */
  double lo[3], hi[3], diag;
  prox_bvh *bvh;
  prox_bvhf *bvhf;
} br_mesh;

static int br_prepare(br_mesh *b) {
  prox_mesh md;
  prox_meshf mf;
  prox_error err;
  size_t i;
  int c;
  double s = 0;
  b->vf = (float *)malloc(3 * b->m.nv * sizeof *b->vf + 16);
  for (i = 0; i < 3 * b->m.nv; ++i)
    b->vf[i] = (float)b->m.v[i];
  /* The double tree on the float values: the same mesh in both. */
  for (i = 0; i < 3 * b->m.nv; ++i)
    b->m.v[i] = b->vf[i];
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
  if (prox_bvh_build(&md, NULL, NULL, &b->bvh, &err) != PROX_OK ||
      prox_bvh_buildf(&mf, NULL, NULL, &b->bvhf, &err) != PROX_OK) {
    fprintf(stderr, "%s: build failed: %s\n", b->name, err.message);
    return 0;
  }
  return 1;
}

/* ---- Embree ---------------------------------------------------------- */
#if defined(PROX_HAVE_EMBREE)
typedef struct br_embree {
  RTCDevice dev;
  RTCScene scene;
} br_embree;

static int br_embree_build(br_embree *e, const br_mesh *b) {
  RTCGeometry g;
  e->dev = rtcNewDevice(NULL);
  if (!e->dev) return 0;
  e->scene = rtcNewScene(e->dev);
  rtcSetSceneBuildQuality(e->scene, RTC_BUILD_QUALITY_MEDIUM);
  g = rtcNewGeometry(e->dev, RTC_GEOMETRY_TYPE_TRIANGLE);
  rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, b->vf, 0,
                             3 * sizeof(float), b->m.nv);
  rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, b->m.t, 0,
                             3 * sizeof(uint32_t), b->m.nt);
  rtcCommitGeometry(g);
  rtcAttachGeometry(e->scene, g);
  rtcReleaseGeometry(g);
  rtcCommitScene(e->scene);
  return 1;
}

static void br_embree_free(br_embree *e) {
  rtcReleaseScene(e->scene);
  rtcReleaseDevice(e->dev);
}

/* First hit: returns 1 on a hit, t and primitive in *t, *prim. */
static int br_embree_first(const br_embree *e, const prox_rayf *r, float *t, unsigned *prim) {
  struct RTCIntersectContext ctx;
  struct RTCRayHit rh;
  rtcInitIntersectContext(&ctx);
  rh.ray.org_x = r->origin.x;
  rh.ray.org_y = r->origin.y;
  rh.ray.org_z = r->origin.z;
  rh.ray.dir_x = r->dir.x;
  rh.ray.dir_y = r->dir.y;
  rh.ray.dir_z = r->dir.z;
  rh.ray.tnear = r->tmin;
  rh.ray.tfar = r->tmax;
  rh.ray.time = 0;
  rh.ray.mask = 0xffffffffu;
  rh.ray.id = 0;
  rh.ray.flags = 0;
  rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
  rtcIntersect1(e->scene, &ctx, &rh);
  *t = rh.ray.tfar;
  *prim = rh.hit.primID;
  return rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
}

static int br_embree_any(const br_embree *e, const prox_rayf *r) {
  struct RTCIntersectContext ctx;
  struct RTCRay ray;
  rtcInitIntersectContext(&ctx);
  ray.org_x = r->origin.x;
  ray.org_y = r->origin.y;
  ray.org_z = r->origin.z;
  ray.dir_x = r->dir.x;
  ray.dir_y = r->dir.y;
  ray.dir_z = r->dir.z;
  ray.tnear = r->tmin;
  ray.tfar = r->tmax;
  ray.time = 0;
  ray.mask = 0xffffffffu;
  ray.id = 0;
  ray.flags = 0;
  rtcOccluded1(e->scene, &ctx, &ray);
  return ray.tfar < 0;
}

typedef struct br_job {
  const br_embree *e;
  const prox_rayf *rays;
  size_t begin, end;
  int any;
  size_t hits;
} br_job;

static void *br_embree_job(void *arg) {
  br_job *j = (br_job *)arg;
  size_t i, h = 0;
  for (i = j->begin; i < j->end; ++i) {
    if (j->any) {
      h += (size_t)br_embree_any(j->e, j->rays + i);
    } else {
      float t;
      unsigned p;
      h += (size_t)br_embree_first(j->e, j->rays + i, &t, &p);
    }
  }
  j->hits = h;
  return NULL;
}

/* Embree over n rays in T threads (contiguous slices); returns hits. */
static size_t br_embree_run(const br_embree *e, const prox_rayf *rays, size_t n, int any,
                            int threads) {
  pthread_t tid[64];
  br_job jobs[64];
  size_t h = 0;
  int k;
  if (threads > 64) threads = 64;
  for (k = 0; k < threads; ++k) {
    jobs[k].e = e;
    jobs[k].rays = rays;
    jobs[k].begin = n * (size_t)k / (size_t)threads;
    jobs[k].end = n * (size_t)(k + 1) / (size_t)threads;
    jobs[k].any = any;
    if (k > 0) pthread_create(&tid[k], NULL, br_embree_job, &jobs[k]);
  }
  br_embree_job(&jobs[0]);
  for (k = 1; k < threads; ++k)
    pthread_join(tid[k], NULL);
  for (k = 0; k < threads; ++k)
    h += jobs[k].hits;
  return h;
}
#endif

/* ---- checks ----------------------------------------------------------- */

/* Brute force: first strict minimum of prox_raycast_trianglef's t. */
static int br_brute(const br_mesh *b, const prox_rayf *r, float *t, uint32_t *id) {
  size_t i;
  int hit = 0;
  float best = INFINITY;
  for (i = 0; i < b->m.nt; ++i) {
    prox_trianglef tr;
    prox_rayhitf h;
    int k;
    for (k = 0; k < 3; ++k) {
      const float *p = b->vf + 3 * (size_t)b->m.t[3 * i + (size_t)k];
      tr.v[k] = prox_v3f(p[0], p[1], p[2]);
    }
    if (prox_raycast_trianglef(r, &tr, &h) && h.t < best) {
      best = h.t;
      *id = (uint32_t)i;
      hit = 1;
    }
  }
  *t = best;
  return hit;
}

static void br_check(const br_mesh *b, const prox_rayf *rf, size_t c
#if defined(PROX_HAVE_EMBREE)
                     ,
                     const br_embree *e
#endif
) {
  size_t i, prox_ok = 0, hits = 0, occ_ok = 0;
  size_t e_hit = 0, e_prim = 0, e_n = 0;
  double e_dt = 0;
  for (i = 0; i < c; ++i) {
    float t;
    uint32_t id = 0;
    int h = br_brute(b, rf + i, &t, &id);
    prox_mesh_hitf ph;
    int p = prox_bvh_raycastf(b->bvhf, rf + i, &ph);
    hits += (size_t)h;
    prox_ok += p == h && (!h || (memcmp(&ph.t, &t, sizeof t) == 0 && ph.triangle == id));
    occ_ok += prox_bvh_occludedf(b->bvhf, rf + i) == h;
#if defined(PROX_HAVE_EMBREE)
    {
      float et;
      unsigned ep;
      int eh = br_embree_first(e, rf + i, &et, &ep);
      e_n += (size_t)(eh == h);
      if (eh && h) {
        double d = fabs((double)et - (double)t) / fabs((double)t);
        e_hit++;
        e_prim += ep == id;
        if (d > e_dt) e_dt = d;
      }
    }
#endif
  }
  printf("check %s: %zu rays against brute force, %zu hit: prox first hit "
         "agrees on %zu, any hit on %zu",
         b->name, c, hits, prox_ok, occ_ok);
#if defined(PROX_HAVE_EMBREE)
  printf("; Embree hit/miss agrees on %zu, same triangle on %zu of %zu "
         "common hits, largest relative t difference %.3g",
         e_n, e_prim, e_hit, e_dt);
#else
  (void)e_hit, (void)e_prim, (void)e_n, (void)e_dt;
#endif
  printf("\n");
}

/* ---- timing ----------------------------------------------------------- */

static void br_row(const char *mesh, const char *what, int threads, double *v, double *c, int runs,
                   size_t n, size_t hits) {
  double med, lo, hi, cmed, clo, chi;
  br_stats(v, runs, &med, &lo, &hi);
  br_stats(c, runs, &cmed, &clo, &chi);
  printf("| %-9s | %-26s | %d | %7.4f | %7.4f - %7.4f | %7.4f | %7.4f - "
         "%7.4f | %zu |\n",
         mesh, what, threads, 1e6 * med / (double)n, 1e6 * lo / (double)n, 1e6 * hi / (double)n,
         1e6 * cmed / (double)n, 1e6 * clo / (double)n, 1e6 * chi / (double)n, hits);
}

int main(int argc, char **argv) {
  const char *dir = getenv("PROX_MESH_DIR"), *only = NULL;
  size_t n = 1000000, check = 1000;
  int runs = 5, threads[8] = {1, 2}, nthreads = 2, i, mi;
  static const char *names[3] = {"bunny", "dragon", "dragon16"};
  char path[4096], err[1024];
  for (i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--n=", 4))
      n = (size_t)atol(argv[i] + 4);
    else if (!strncmp(argv[i], "--runs=", 7))
      runs = atoi(argv[i] + 7);
    else if (!strncmp(argv[i], "--check=", 8))
      check = (size_t)atol(argv[i] + 8);
    else if (!strncmp(argv[i], "--meshes=", 9))
      dir = argv[i] + 9;
    else if (!strncmp(argv[i], "--only=", 7))
      only = argv[i] + 7;
    else if (!strncmp(argv[i], "--threads=", 10)) {
      const char *p = argv[i] + 10;
      nthreads = 0;
      while (*p && nthreads < 8) {
        threads[nthreads++] = atoi(p);
        p = strchr(p, ',');
        if (!p) break;
        ++p;
      }
    } else {
      fprintf(stderr,
              "usage: %s [--n=N] [--runs=R] [--threads=T[,T]] [--meshes=DIR] "
              "[--check=C] [--only=MESH[,MESH]]\n",
              argv[0]);
      return 2;
    }
  }
  if (runs < 1) runs = 1;
  if (!dir || !*dir) dir = "../shared/data/meshes";
  printf("bench_mesh_ray: %zu rays, %d runs, SIMD level %s\n", n, runs,
         prox_simd_name(prox_simd_level()));
  printf("| mesh | query | threads | wall us/ray (median) | range | CPU "
         "us/ray (median) | range | hits |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (mi = 0; mi < 3; ++mi) {
    br_mesh b;
    prox_ray *rd;
    prox_rayf *rf;
    prox_mesh_hit *hd;
    prox_mesh_hitf *hf;
    uint8_t *occ;
    double *tv = (double *)malloc((size_t)runs * sizeof *tv);
    double *cv = (double *)malloc((size_t)runs * sizeof *cv);
    int ti, r;
#if defined(PROX_HAVE_EMBREE)
    br_embree e;
#endif
    if (only && !strstr(only, names[mi])) continue;
    memset(&b, 0, sizeof b);
    b.name = names[mi];
    snprintf(path, sizeof path, "%s/%s", dir, mi == 0 ? "bunny.obj" : "dragon.obj");
    if (!mesh_load(path, &b.m, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
    if (mi == 2 && (!br_subdivide(&b.m) || !br_subdivide(&b.m))) return 1;
    if (!br_prepare(&b)) return 1;
    rd = (prox_ray *)malloc(n * sizeof *rd);
    rf = (prox_rayf *)malloc(n * sizeof *rf);
    hd = (prox_mesh_hit *)malloc(n * sizeof *hd);
    hf = (prox_mesh_hitf *)malloc(n * sizeof *hf);
    occ = (uint8_t *)malloc(n);
    rp_rays(b.lo, b.hi, b.diag, n, 1234 + (uint64_t)mi, rd, rf);
#if defined(PROX_HAVE_EMBREE)
    br_embree_build(&e, &b);
    br_check(&b, rf, mi == 2 && check > 200 ? 200 : check, &e);
#else
    br_check(&b, rf, mi == 2 && check > 200 ? 200 : check);
#endif
    for (ti = 0; ti < nthreads; ++ti) {
      int T = threads[ti];
      size_t hits = 0, k;
#define BR_TIME(what, body, count)                                                                 \
  do {                                                                                             \
    for (r = 0; r < runs; ++r) {                                                                   \
      double t0 = br_now(), c0 = br_cpu();                                                         \
      body;                                                                                        \
      tv[r] = br_now() - t0;                                                                       \
      cv[r] = br_cpu() - c0;                                                                       \
    }                                                                                              \
    hits = (count);                                                                                \
    br_row(b.name, what, T, tv, cv, runs, n, hits);                                                \
  } while (0)
      BR_TIME("prox first hit (float)", prox_bvh_raycast_batchf(b.bvhf, rf, n, hf, T), 0);
      for (k = 0; k < n; ++k)
        hits += (size_t)hf[k].hit;
      printf("|  | (prox float hits: %zu) |  |  |  |  |  |  |\n", hits);
      BR_TIME("prox first hit (double)", prox_bvh_raycast_batch(b.bvh, rd, n, hd, T), 0);
#if defined(PROX_HAVE_EMBREE)
      BR_TIME("Embree rtcIntersect1", hits = br_embree_run(&e, rf, n, 0, T), hits);
#endif
      BR_TIME("prox any hit (float)", prox_bvh_occluded_batchf(b.bvhf, rf, n, occ, T), 0);
      BR_TIME("prox any hit (double)", prox_bvh_occluded_batch(b.bvh, rd, n, occ, T), 0);
#if defined(PROX_HAVE_EMBREE)
      BR_TIME("Embree rtcOccluded1", hits = br_embree_run(&e, rf, n, 1, T), hits);
#endif
#undef BR_TIME
    }
#if defined(PROX_HAVE_EMBREE)
    br_embree_free(&e);
#endif
    prox_bvh_free(b.bvh);
    prox_bvh_freef(b.bvhf);
    free(b.vf);
    obj_free(&b.m);
    free(rd);
    free(rf);
    free(hd);
    free(hf);
    free(occ);
    free(tv);
    free(cv);
  }
  return 0;
}
