/* SPDX-License-Identifier: MIT */
/* bench_ab: two builds of the shared library (libprox.so) side by side in
 * one process, on the same objects and the same queries, so that a change
 * is measured against the code before it without the drift of a shared
 * machine between two invocations.
 *
 *   bench_ab LIB_A LIB_B [--meshes DIR] [--mesh WORD] [--only WORD[,WORD]]
 *            [--n N] [--runs R]
 *
 * LIB_A, LIB_B: paths of two libprox.so builds (for instance the build
 * directory's libprox.so.0.1.0 copied aside before a change, and after
 * it); both must have the ABI of the headers this program is compiled
 * with. Each is loaded with dlopen (RTLD_LOCAL) and builds its own tree,
 * topology and signed-distance object (AUTO) of each mesh.
 * Meshes (closed): bunny_watertight.obj, armadillo.obj, dragon.obj from DIR
 * (default PROX_MESH_DIR or ../shared/data/meshes); --mesh WORD keeps those
 * whose name contains WORD. Points: N (default 200,000) uniform in the box
 * enlarged by 10% and N within 1% of the diagonal of the surface, as
 * bench_sign draws them (sign_points.h).
 * Queries (--only, default all): inside (prox_sdf_inside), distance
 * (prox_sdf_distance), closest and closestf (prox_bvh_closest and
 * prox_bvh_closestf with the result; the float tree is built from the
 * vertices rounded to float), batch and batchf (prox_bvh_closest_batch and
 * prox_bvh_closest_batchf in one thread, on all N points at once), sdfbatch
 * (prox_sdf_batch in one thread, on all N points at once), ray and
 * rayf (prox_bvh_raycast and
 * prox_bvh_raycastf: N rays as bench_mesh_ray draws them, ray_points.h,
 * after the two point sets' rows, under the set name "rays").
 * Each run times A's loop and then B's on all N points (thread CPU time,
 * meant for `taskset -c 1`); a row gives the medians of R runs (default 9)
 * with their ranges, the median of the per-run ratios B/A with its range,
 * and how many answers differ (inside: the answer; distance and closest:
 * the bits of the distance; rays: the bits of t, or hit against miss). */
#define _GNU_SOURCE
#include <prox/bvh.h>
#include <prox/bvh_ray.h>
#include <prox/sign.h>
#include <prox/topology.h>

#include "ray_points.h"
#include "sign_points.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef prox_status (*ab_bvh_build_fn)(const prox_mesh *, const prox_bvh_options *,
                                       const prox_allocator *, prox_bvh **, prox_error *);
typedef void (*ab_bvh_free_fn)(prox_bvh *);
typedef prox_status (*ab_topo_build_fn)(const prox_mesh *, const prox_allocator *,
                                        prox_mesh_topology **, prox_error *);
typedef void (*ab_topo_free_fn)(prox_mesh_topology *);
typedef prox_status (*ab_sdf_build_fn)(const prox_mesh *, const prox_bvh *,
                                       const prox_mesh_topology *, const prox_sdf_options *,
                                       const prox_allocator *, prox_sdf **, prox_error *);
typedef void (*ab_sdf_free_fn)(prox_sdf *);
typedef int (*ab_inside_fn)(const prox_sdf *, prox_vec3, int *);
typedef double (*ab_distance_fn)(const prox_sdf *, prox_vec3, prox_signed *);
typedef double (*ab_closest_fn)(const prox_bvh *, prox_vec3, double, prox_mesh_closest *);
typedef prox_status (*ab_bvh_buildf_fn)(const prox_meshf *, const prox_bvh_options *,
                                        const prox_allocator *, prox_bvhf **, prox_error *);
typedef void (*ab_bvh_freef_fn)(prox_bvhf *);
typedef float (*ab_closestf_fn)(const prox_bvhf *, prox_vec3f, float, prox_mesh_closestf *);
typedef prox_status (*ab_batch_fn)(const prox_bvh *, const prox_vec3 *, size_t, double,
                                   prox_mesh_closest *, int);
typedef prox_status (*ab_batchf_fn)(const prox_bvhf *, const prox_vec3f *, size_t, float,
                                    prox_mesh_closestf *, int);
typedef prox_status (*ab_sdf_batch_fn)(const prox_sdf *, const prox_vec3 *, size_t, double *,
                                       prox_signed *, int);
typedef int (*ab_ray_fn)(const prox_bvh *, const prox_ray *, prox_mesh_hit *);
typedef int (*ab_rayf_fn)(const prox_bvhf *, const prox_rayf *, prox_mesh_hitf *);

/* One library: its functions and the objects it built for one mesh. */
typedef struct ab_lib {
  const char *path;
  void *handle;
  ab_bvh_build_fn bvh_build;
  ab_bvh_free_fn bvh_free;
  ab_topo_build_fn topo_build;
  ab_topo_free_fn topo_free;
  ab_sdf_build_fn sdf_build;
  ab_sdf_free_fn sdf_free;
  ab_inside_fn inside;
  ab_distance_fn distance;
  ab_closest_fn closest;
  ab_bvh_buildf_fn bvh_buildf;
  ab_bvh_freef_fn bvh_freef;
  ab_closestf_fn closestf;
  ab_batch_fn batch;
  ab_batchf_fn batchf;
  ab_sdf_batch_fn sdf_batch;
  ab_ray_fn ray;
  ab_rayf_fn rayf;
  prox_bvh *bvh;
  prox_bvhf *bvhf;
  prox_mesh_topology *topo;
  prox_sdf *sdf;
} ab_lib;

static void *ab_sym(ab_lib *l, const char *name) {
  void *f = dlsym(l->handle, name);
  if (!f) {
    fprintf(stderr, "bench_ab: %s: no symbol %s\n", l->path, name);
    exit(1);
  }
  return f;
}

static void ab_open(ab_lib *l, const char *path) {
  memset(l, 0, sizeof *l);
  l->path = path;
  l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!l->handle) {
    fprintf(stderr, "bench_ab: %s\n", dlerror());
    exit(1);
  }
  /* Function pointers from dlsym: POSIX guarantees the conversion. */
  *(void **)&l->bvh_build = ab_sym(l, "prox_bvh_build");
  *(void **)&l->bvh_free = ab_sym(l, "prox_bvh_free");
  *(void **)&l->topo_build = ab_sym(l, "prox_mesh_topology_build");
  *(void **)&l->topo_free = ab_sym(l, "prox_mesh_topology_free");
  *(void **)&l->sdf_build = ab_sym(l, "prox_sdf_build");
  *(void **)&l->sdf_free = ab_sym(l, "prox_sdf_free");
  *(void **)&l->inside = ab_sym(l, "prox_sdf_inside");
  *(void **)&l->distance = ab_sym(l, "prox_sdf_distance");
  *(void **)&l->closest = ab_sym(l, "prox_bvh_closest");
  *(void **)&l->bvh_buildf = ab_sym(l, "prox_bvh_buildf");
  *(void **)&l->bvh_freef = ab_sym(l, "prox_bvh_freef");
  *(void **)&l->closestf = ab_sym(l, "prox_bvh_closestf");
  *(void **)&l->batch = ab_sym(l, "prox_bvh_closest_batch");
  *(void **)&l->batchf = ab_sym(l, "prox_bvh_closest_batchf");
  *(void **)&l->sdf_batch = ab_sym(l, "prox_sdf_batch");
  *(void **)&l->ray = ab_sym(l, "prox_bvh_raycast");
  *(void **)&l->rayf = ab_sym(l, "prox_bvh_raycastf");
}

static int ab_build(ab_lib *l, const prox_mesh *m, const prox_meshf *mf) {
  prox_error err;
  if (l->bvh_build(m, NULL, NULL, &l->bvh, &err) != PROX_OK ||
      l->bvh_buildf(mf, NULL, NULL, &l->bvhf, &err) != PROX_OK ||
      l->topo_build(m, NULL, &l->topo, &err) != PROX_OK ||
      l->sdf_build(m, l->bvh, l->topo, NULL, NULL, &l->sdf, &err) != PROX_OK) {
    fprintf(stderr, "bench_ab: %s: %s\n", l->path, err.message);
    return 0;
  }
  return 1;
}

static void ab_unbuild(ab_lib *l) {
  l->sdf_free(l->sdf);
  l->topo_free(l->topo);
  l->bvh_free(l->bvh);
  l->bvh_freef(l->bvhf);
  l->bvhf = NULL;
  l->sdf = NULL;
  l->topo = NULL;
  l->bvh = NULL;
}

/* Whether the comma-separated list names query `name` exactly (NULL: all). */
static int ab_wanted(const char *list, const char *name) {
  size_t len = strlen(name);
  while (list) {
    const char *end = strchr(list, ',');
    size_t n = end ? (size_t)(end - list) : strlen(list);
    if (n == len && !strncmp(list, name, len)) return 1;
    list = end ? end + 1 : NULL;
  }
  return 0;
}

static double ab_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int ab_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

enum {
  AB_INSIDE,
  AB_DISTANCE,
  AB_CLOSEST,
  AB_CLOSESTF,
  AB_BATCH,
  AB_BATCHF,
  AB_SDFBATCH,
  AB_RAY,
  AB_RAYF,
  AB_QUERIES
};
static const char *const ab_names[AB_QUERIES] = {
    "inside", "distance", "closest", "closestf", "batch", "batchf", "sdfbatch", "ray", "rayf"};

/* The inputs of one set: points (double and float) or rays. */
typedef struct ab_input {
  const prox_vec3 *p;
  const prox_vec3f *pf;
  const prox_ray *r;
  const prox_rayf *rf;
} ab_input;

/* One loop of query q over the n inputs with library l; the answers go to
 * out (n doubles; a miss of a ray is -1). The batches write their results
 * to res (n of prox_mesh_closest, which holds n prox_mesh_closestf). */
static void ab_loop(const ab_lib *l, int q, const ab_input *in, size_t n, double *out,
                    prox_mesh_closest *res) {
  size_t i;
  if (q == AB_BATCH || q == AB_BATCHF) {
    prox_mesh_closestf *rf = (prox_mesh_closestf *)(void *)res;
    prox_status st = q == AB_BATCH ? l->batch(l->bvh, in->p, n, INFINITY, res, 1)
                                   : l->batchf(l->bvhf, in->pf, n, INFINITY, rf, 1);
    if (st != PROX_OK) {
      fprintf(stderr, "bench_ab: %s: the batch failed\n", l->path);
      exit(1);
    }
    for (i = 0; i < n; ++i)
      out[i] = q == AB_BATCH ? res[i].sqdist : (double)rf[i].sqdist;
    return;
  }
  if (q == AB_SDFBATCH) {
    if (l->sdf_batch(l->sdf, in->p, n, out, NULL, 1) != PROX_OK) {
      fprintf(stderr, "bench_ab: %s: the signed-distance batch failed\n", l->path);
      exit(1);
    }
    return;
  }
  for (i = 0; i < n; ++i) {
    if (q == AB_INSIDE) {
      out[i] = (double)l->inside(l->sdf, in->p[i], NULL);
    } else if (q == AB_DISTANCE) {
      out[i] = l->distance(l->sdf, in->p[i], NULL);
    } else if (q == AB_CLOSEST) {
      prox_mesh_closest c;
      out[i] = l->closest(l->bvh, in->p[i], INFINITY, &c);
    } else if (q == AB_CLOSESTF) {
      prox_mesh_closestf c;
      out[i] = (double)l->closestf(l->bvhf, in->pf[i], INFINITY, &c);
    } else if (q == AB_RAY) {
      prox_mesh_hit h;
      out[i] = l->ray(l->bvh, &in->r[i], &h) ? h.t : -1.0;
    } else {
      prox_mesh_hitf h;
      out[i] = l->rayf(l->bvhf, &in->rf[i], &h) ? (double)h.t : -1.0;
    }
  }
}

int main(int argc, char **argv) {
  static const char *const files[] = {"bunny_watertight.obj", "armadillo.obj", "dragon.obj"};
  const char *dir = NULL, *only = NULL, *word = NULL;
  size_t n = 200000;
  int runs = 9, a, f;
  ab_lib lib[2];
  if (argc < 3) {
    fprintf(stderr, "usage: bench_ab LIB_A LIB_B [--meshes DIR] [--mesh WORD] "
                    "[--only WORD[,WORD]] [--n N] [--runs R]\n");
    return 2;
  }
  for (a = 3; a < argc; ++a) {
    if (!strcmp(argv[a], "--meshes") && a + 1 < argc)
      dir = argv[++a];
    else if (!strcmp(argv[a], "--mesh") && a + 1 < argc)
      word = argv[++a];
    else if (!strcmp(argv[a], "--only") && a + 1 < argc)
      only = argv[++a];
    else if (!strcmp(argv[a], "--n") && a + 1 < argc)
      n = (size_t)strtoul(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--runs") && a + 1 < argc)
      runs = atoi(argv[++a]);
    else {
      fprintf(stderr, "bench_ab: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  if (n == 0 || runs < 1 || runs > 99) {
    fprintf(stderr, "bench_ab: --n must be positive, --runs 1 to 99\n");
    return 2;
  }
  if (!dir) dir = mesh_dir_find(__FILE__);
  if (!dir) {
    fprintf(stderr, "bench_ab: the meshes were not found (--meshes DIR)\n");
    return 1;
  }
  ab_open(&lib[0], argv[1]);
  ab_open(&lib[1], argv[2]);
  printf("bench_ab: A %s, B %s; %zu points per set, %d runs\n", argv[1], argv[2], n, runs);
  printf("command:");
  for (a = 0; a < argc; ++a)
    printf(" %s", argv[a]);
  printf("\n");
  for (f = 0; f < (int)(sizeof files / sizeof files[0]); ++f) {
    static const char *const set_names[3] = {"uniform", "near", "rays"};
    char path[4200], err[512];
    objmesh om;
    prox_mesh m;
    prox_meshf mf;
    double *xyz, *ra, *rb, lo[3], hi[3], diag;
    float *vf;
    prox_vec3 *p;
    prox_vec3f *pf;
    prox_ray *rd;
    prox_rayf *rf;
    prox_mesh_closest *res;
    ab_input in;
    int set, q;
    size_t i;
    if (word && !strstr(files[f], word)) continue;
    snprintf(path, sizeof path, "%s/%s", dir, files[f]);
    if (!mesh_load(path, &om, err, sizeof err)) {
      fprintf(stderr, "bench_ab: %s\n", err);
      return 1;
    }
    xyz = (double *)malloc(3 * n * sizeof *xyz);
    p = (prox_vec3 *)malloc(n * sizeof *p);
    pf = (prox_vec3f *)malloc(n * sizeof *pf);
    rd = (prox_ray *)malloc(n * sizeof *rd);
    rf = (prox_rayf *)malloc(n * sizeof *rf);
    ra = (double *)malloc(n * sizeof *ra);
    rb = (double *)malloc(n * sizeof *rb);
    res = (prox_mesh_closest *)malloc(n * sizeof *res);
    vf = (float *)malloc(3 * om.nv * sizeof *vf + 1);
    if (!xyz || !p || !pf || !rd || !rf || !ra || !rb || !res || !vf) {
      fprintf(stderr, "bench_ab: out of memory\n");
      return 1;
    }
    for (i = 0; i < 3 * om.nv; ++i)
      vf[i] = (float)om.v[i];
    memset(&m, 0, sizeof m);
    m.vertices = om.v;
    m.vertex_count = om.nv;
    m.indices = om.t;
    m.triangle_count = om.nt;
    memset(&mf, 0, sizeof mf);
    mf.vertices = vf;
    mf.vertex_count = om.nv;
    mf.indices = om.t;
    mf.triangle_count = om.nt;
    if (!ab_build(&lib[0], &m, &mf) || !ab_build(&lib[1], &m, &mf)) return 1;
    so_box(&om, lo, hi, &diag);
    rp_rays(lo, hi, diag, n, 1234 + (uint64_t)f, rd, rf);
    in.p = p;
    in.pf = pf;
    in.r = rd;
    in.rf = rf;
    for (set = 0; set < 3; ++set) {
      if (set < 2) {
        so_points(&om, set, n, so_seed(set, om.nt), xyz);
        for (i = 0; i < n; ++i) {
          p[i] = prox_v3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
          pf[i] = prox_v3f((float)xyz[3 * i], (float)xyz[3 * i + 1], (float)xyz[3 * i + 2]);
        }
      }
      for (q = 0; q < AB_QUERIES; ++q) {
        double ta[99], tb[99], rat[99];
        long differ = 0;
        int r;
        if (only && !ab_wanted(only, ab_names[q])) continue;
        if ((set == 2) != (q >= AB_RAY)) continue;
        for (r = 0; r < runs; ++r) {
          double t0 = ab_now();
          ab_loop(&lib[0], q, &in, n, ra, res);
          ta[r] = ab_now() - t0;
          t0 = ab_now();
          ab_loop(&lib[1], q, &in, n, rb, res);
          tb[r] = ab_now() - t0;
          rat[r] = tb[r] / ta[r];
        }
        for (i = 0; i < n; ++i)
          differ += memcmp(&ra[i], &rb[i], sizeof ra[i]) != 0;
        qsort(ta, (size_t)runs, sizeof ta[0], ab_cmp);
        qsort(tb, (size_t)runs, sizeof tb[0], ab_cmp);
        qsort(rat, (size_t)runs, sizeof rat[0], ab_cmp);
        printf("%-22s %-7s %-8s A %8.1f ns [%.1f, %.1f]  B %8.1f ns [%.1f, %.1f]  B/A %.3f "
               "[%.3f, %.3f]  answers differ %ld\n",
               files[f], set_names[set], ab_names[q], ta[runs / 2] / (double)n * 1e9,
               ta[0] / (double)n * 1e9, ta[runs - 1] / (double)n * 1e9,
               tb[runs / 2] / (double)n * 1e9, tb[0] / (double)n * 1e9,
               tb[runs - 1] / (double)n * 1e9, rat[runs / 2], rat[0], rat[runs - 1], differ);
        fflush(stdout);
      }
    }
    ab_unbuild(&lib[0]);
    ab_unbuild(&lib[1]);
    free(xyz);
    free(p);
    free(pf);
    free(rd);
    free(rf);
    free(ra);
    free(rb);
    free(res);
    free(vf);
    obj_free(&om);
  }
  return 0;
}
