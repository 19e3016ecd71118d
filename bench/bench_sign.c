/* SPDX-License-Identifier: MIT */
/* bench_sign: the cost of prox's sign (prox/sign.h) against the unsigned
 * closest point on the same queries, the SDF grid job, and the winding
 * number on an open mesh; the signs checked against an exact oracle.
 *
 *   bench_sign [--quick] [--runs N] [--meshes DIR] [--only WORD[,WORD]]
 *              [--mesh WORD] [--check N] [--grid N] [--threads 1|2|1,2]
 *              [--write-points PREFIX] [--write-reference PREFIX]
 *
 * Meshes (from DIR, default PROX_MESH_DIR or ../shared/data/meshes):
 * bunny_watertight.obj, armadillo.obj, dragon.obj (closed: AUTO picks the
 * pseudo-normals) and bunny.obj (open: AUTO picks the winding number);
 * --mesh WORD keeps those whose name contains WORD, and with it teapot.obj
 * and cycloidal.ply (open and non-manifold) may be named. Points: N = 1M (or
 * 100k with --quick) uniform in the box enlarged by 10% ("uniform") and N
 * within 1% of the diagonal of the surface ("near"), as sign_oracle.h
 * draws them.
 *
 * Sections (--only, default all):
 *   build    prox_bvh_build (1 thread), prox_mesh_topology_build and
 *            prox_sdf_build (given the topology), ms of thread CPU time;
 *   check    on closed meshes, the first --check points of each set
 *            (default all) against the exact winding-number oracle of
 *            sign_oracle.h (GMP): wrong signs of prox_sdf_distance and of
 *            prox_sdf_inside, and of prox_sdf_inside on an object built
 *            with PROX_SIGN_CROSSINGS forced (points within 1e-9 of the
 *            diagonal of the surface excluded), uncertain answers, how
 *            often the pseudo-normal test fell back to the crossing count
 *            (r.method == PROX_SIGN_CROSSINGS), and the wrong signs of
 *            prox_sdf_distancef and prox_sdf_insidef (the float object:
 *            vertices and points rounded to float, as a float32 peer such
 *            as Open3D has them) against the oracle for the float point;
 *   signed   ns per query, 1 thread (thread CPU time, meant for
 *            `taskset -c 1`): prox_bvh_closest without and with its
 *            result, prox_sdf_distance (the object's method, AUTO),
 *            prox_sdf_inside, and on closed meshes prox_sdf_inside with
 *            CROSSINGS forced (no closest point: one exact segment
 *            crossing count), prox_sdf_distancef and prox_sdf_insidef on
 *            the float object, prox_sdf_batch and prox_sdf_inside_batch
 *            with threads 1 (the batch calls a peer's batch call compares
 *            with: it queries in Morton order, the inside batch in the
 *            caller's), and prox_sdf_batchf with threads 1 (the float
 *            object, as a float32 peer such as Open3D); ratios signed/unsigned (of the medians,
 *            and sdf_distance / closest with result within each run, the
 *            loops back to back); and 2 threads (wall):
 *            prox_bvh_closest_batch, prox_sdf_batch,
 *            prox_sdf_inside_batch;
 *   grid     prox_sdf_grid over the box enlarged by 10%, --grid N samples a
 *            side (default 128, --quick 64), ns per sample at 1 and 2
 *            threads, against prox_bvh_closest_batch and prox_sdf_batch on
 *            the same points as an array (grid order) and
 *            prox_bvh_closest_batch on the uniform points;
 *   winding  meshes that are not closed: PROX_SIGN_WINDING at accuracy 2
 *            (the default), 8 and infinite (exact: crossings plus the
 *            boundary), ns per prox_sdf_inside (all three) and
 *            prox_sdf_distance (2 and 8), prox_sdf_inside under AUTO at
 *            accuracy 2 (exact or the hierarchy, as the build chose), and
 *            how many inside answers of the approximations differ from
 *            the exact one.
 * --threads picks the rows: 1 the single-thread rows (run them under
 * `taskset -c 1`), 2 the two-thread rows, default both.
 * Every row is the median of --runs runs (default 5) with [min, max]; the
 * loops of a row are interleaved within each run.
 *
 * --write-points PREFIX writes PREFIX_<mesh>.npy: the 2N points (float64,
 * shape (2N, 3), the uniform set first). --write-reference PREFIX writes
 * PREFIX_<mesh>_ref.npy (int8, shape (2N, 3)): prox_sdf_inside's answer,
 * the oracle's (1 inside, 0 outside, -1 undecided, -2 within 1e-9 of the
 * diagonal of the surface, -3 not computed: open mesh or past --check),
 * and the oracle's for the point rounded to float (what a float32 peer
 * receives; the same codes). bench_sign_open3d.py reads both files. */
#define _POSIX_C_SOURCE 200809L
#include <prox/batch.h>
#include <prox/sign.h>

#include "sign_oracle.h"

#include <time.h>

/* ------------------------------------------------------------ timing */

static int bs_cpu = 0; /* 1: the calling thread's CPU time */
static double bs_now(void) {
  struct timespec ts;
  clock_gettime(bs_cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bs_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median, min and max of r values (sorted in place). */
static void bs_stats(double *v, int r, double *med, double *lo, double *hi) {
  qsort(v, (size_t)r, sizeof *v, bs_cmp);
  *med = r % 2 ? v[r / 2] : 0.5 * (v[r / 2 - 1] + v[r / 2]);
  *lo = v[0];
  *hi = v[r - 1];
}

/* ----------------------------------------------------------- options */

static size_t bs_n = 1000000, bs_check = (size_t)-1, bs_grid = 128;
static int bs_runs = 5;
static char bs_only[256] = "", bs_mesh[256] = "";
static const char *bs_wpoints = NULL, *bs_wref = NULL;
static int bs_thr1 = 1, bs_thr2 = 1; /* --threads: which rows run */
static volatile double bs_sink;

static int bs_section(const char *name) {
  return bs_only[0] == '\0' || strstr(bs_only, name) != NULL;
}

/* ------------------------------------------------------------ meshes */

typedef struct bs_set {
  const char *file;
  objmesh m;
  prox_mesh md;
  prox_bvh *bvh;
  prox_mesh_topology *topo;
  prox_sdf *sdf;
  prox_sdf *cross; /* closed meshes: the same with CROSSINGS forced */
  /* The float objects (as a float32 peer such as Open3D has them): the
   * vertices and points rounded to float. */
  float *vf;
  prox_meshf mdf;
  prox_bvhf *bvhf;
  prox_mesh_topology *topof;
  prox_sdff *sdff;
  prox_vec3f *pf;
  double lo[3], hi[3], diag;
  prox_vec3 *p;     /* 2 n points: uniform, then near */
  signed char *ref; /* 2 n triples: prox inside, oracle codes (p, float p) */
} bs_set;

static const char *bs_setname[2] = {"uniform", "near"};

/* The file name without its directory and extension, into out. */
static void bs_stem(const char *file, char *out, size_t len) {
  const char *dot = strrchr(file, '.');
  size_t k = dot ? (size_t)(dot - file) : strlen(file);
  snprintf(out, len, "%.*s", (int)k, file);
}

/* A .npy file (version 1.0) of `count` rows of `cols` values. */
static int bs_write_npy(const char *path, const char *descr, size_t rows, size_t cols,
                        const void *data, size_t item) {
  char head[256];
  FILE *f = fopen(path, "wb");
  int len;
  size_t total;
  if (!f) return 0;
  len = snprintf(head, sizeof head,
                 "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, "
                 "%zu), }",
                 descr, rows, cols);
  /* magic (6) + version (2) + length (2) + header, padded with spaces to
   * a multiple of 64, ending in a newline. */
  total = (size_t)(10 + len + 1);
  total = (total + 63) / 64 * 64;
  while ((size_t)(10 + len + 1) < total)
    head[len++] = ' ';
  head[len++] = '\n';
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc(len & 0xff, f);
  fputc((len >> 8) & 0xff, f);
  fwrite(head, 1, (size_t)len, f);
  fwrite(data, item, rows * cols, f);
  return fclose(f) == 0;
}

/* ------------------------------------------------------------- build */

static void bs_build_rows(bs_set *s) {
  double t[64], med, lo, hi;
  int r;
  prox_bvh_options o = prox_bvh_options_default();
  o.threads = 1;
  bs_cpu = 1; /* all three builds run in the calling thread */
  for (r = 0; r < bs_runs; ++r) {
    prox_bvh *b;
    double t0 = bs_now();
    prox_bvh_build(&s->md, &o, NULL, &b, NULL);
    t[r] = bs_now() - t0;
    prox_bvh_free(b);
  }
  bs_stats(t, bs_runs, &med, &lo, &hi);
  printf("%-22s build bvh (1 thr, cpu)    %9.2f ms [%.2f, %.2f]\n", s->file, 1e3 * med, 1e3 * lo,
         1e3 * hi);
  for (r = 0; r < bs_runs; ++r) {
    prox_mesh_topology *tp;
    double t0 = bs_now();
    prox_mesh_topology_build(&s->md, NULL, &tp, NULL);
    t[r] = bs_now() - t0;
    prox_mesh_topology_free(tp);
  }
  bs_stats(t, bs_runs, &med, &lo, &hi);
  printf("%-22s build topology (cpu)      %9.2f ms [%.2f, %.2f]\n", s->file, 1e3 * med, 1e3 * lo,
         1e3 * hi);
  for (r = 0; r < bs_runs; ++r) {
    prox_sdf *d;
    double t0 = bs_now();
    prox_sdf_build(&s->md, s->bvh, s->topo, NULL, NULL, &d, NULL);
    t[r] = bs_now() - t0;
    prox_sdf_free(d);
  }
  bs_stats(t, bs_runs, &med, &lo, &hi);
  printf("%-22s build sdf (cpu; topology given) %.2f ms [%.2f, %.2f]\n", s->file, 1e3 * med,
         1e3 * lo, 1e3 * hi);
  bs_cpu = 0;
}

/* ------------------------------------------------------------- check */

/* The oracle's code for p rounded to float (what a float32 peer such as
 * Open3D receives), given p's code and prox's unsigned distance d at p:
 * when p is farther from the surface than the rounding moves it, the
 * rounded point is on the same side (and not near); else it is decided
 * anew. */
static int bs_float_code(const bs_set *s, const oracle3 *o, prox_vec3 p, double d, int code) {
  double f[3] = {(float)p.x, (float)p.y, (float)p.z}, m2 = 0, df;
  int k;
  double c[3] = {p.x, p.y, p.z};
  for (k = 0; k < 3; ++k)
    m2 += (f[k] - c[k]) * (f[k] - c[k]);
  if (m2 == 0) return code;
  if (code >= 0 && fabs(d) > 2 * sqrt(m2) + 1e-9 * s->diag) return code;
  df = sqrt(prox_bvh_closest(s->bvh, prox_v3(f[0], f[1], f[2]), INFINITY, NULL));
  if (df <= 1e-9 * s->diag) return SO_NEAR;
  return oracle_inside_winding(o, &s->m, f);
}

static void bs_check_rows(bs_set *s) {
  oracle3 o;
  int set;
  double t0 = bs_now();
  oracle_build(&o, &s->m);
  for (set = 0; set < 2; ++set) {
    size_t i, nc = bs_check < bs_n ? bs_check : bs_n;
    long wrong_d = 0, wrong_i = 0, near = 0, undecided = 0, uncertain = 0, crossings = 0,
         differ = 0, wrong_x = 0, fdiff = 0, wrong_fd = 0, wrong_fi = 0, fchecked = 0;
    for (i = 0; i < bs_n; ++i) {
      size_t q = (size_t)set * bs_n + i;
      const prox_vec3 p = s->p[q];
      double xyz[3];
      prox_signed r;
      int in, want;
      prox_sdf_distance(s->sdf, p, &r);
      in = prox_sdf_inside(s->sdf, p, NULL);
      s->ref[3 * q] = (signed char)in;
      s->ref[3 * q + 1] = SO_UNCHECKED;
      s->ref[3 * q + 2] = SO_UNCHECKED;
      if (r.method == PROX_SIGN_CROSSINGS) ++crossings;
      if (in != r.inside) ++differ;
      if (i >= nc) continue;
      xyz[0] = p.x;
      xyz[1] = p.y;
      xyz[2] = p.z;
      if (fabs(r.distance) <= 1e-9 * s->diag) {
        ++near;
        s->ref[3 * q + 1] = SO_NEAR;
        s->ref[3 * q + 2] = (signed char)bs_float_code(s, &o, p, r.distance, SO_NEAR);
        continue;
      }
      if (!r.certain) ++uncertain;
      want = oracle_inside_winding(&o, &s->m, xyz);
      s->ref[3 * q + 1] = (signed char)want;
      s->ref[3 * q + 2] = (signed char)bs_float_code(s, &o, p, r.distance, want);
      if (s->ref[3 * q + 2] != want) ++fdiff;
      if (s->ref[3 * q + 2] >= 0) {
        /* The float object on the float point, against the oracle's
         * answer for that point. */
        prox_signedf rf;
        int wantf = s->ref[3 * q + 2];
        prox_sdf_distancef(s->sdff, s->pf[q], &rf);
        ++fchecked;
        if (wantf != rf.inside) ++wrong_fd;
        if (wantf != prox_sdf_insidef(s->sdff, s->pf[q], NULL)) ++wrong_fi;
      }
      if (want < 0) {
        ++undecided;
        continue;
      }
      if (want != r.inside) ++wrong_d;
      if (want != in) ++wrong_i;
      if (s->cross && want != prox_sdf_inside(s->cross, p, NULL)) ++wrong_x;
    }
    printf("%-22s check %-7s %zu of %zu points vs the exact oracle: wrong "
           "signs: prox_sdf_distance %ld, prox_sdf_inside %ld (CROSSINGS forced: "
           "%ld); uncertain %ld; "
           "excluded (within 1e-9 diag) %ld, undecided by the oracle %ld; "
           "pseudo-normal fell back to crossings %ld of %zu; inside != "
           "distance's inside %ld; oracle code changed by rounding the "
           "point to float %ld; float object on the float points (%ld decided): wrong signs "
           "prox_sdf_distancef %ld, prox_sdf_insidef %ld\n",
           s->file, bs_setname[set], nc, bs_n, wrong_d, wrong_i, wrong_x, uncertain, near,
           undecided, crossings, bs_n, differ, fdiff, fchecked, wrong_fd, wrong_fi);
  }
  oracle_free(&o);
  printf("%-22s check took %.1f s\n", s->file, bs_now() - t0);
}

/* ------------------------------------------------------------ signed */

/* Loop k of the 1-thread row over n points; returns a sum (kept). */
static double bs_loop1(const bs_set *s, const prox_vec3 *p, size_t n, int k) {
  double sum = 0;
  size_t i;
  prox_mesh_closest c;
  switch (k) {
  case 0:
    for (i = 0; i < n; ++i)
      sum += prox_bvh_closest(s->bvh, p[i], INFINITY, NULL);
    break;
  case 1:
    for (i = 0; i < n; ++i) {
      sum += prox_bvh_closest(s->bvh, p[i], INFINITY, &c);
      sum += (double)c.feature.kind;
    }
    break;
  case 2:
    for (i = 0; i < n; ++i)
      sum += prox_sdf_distance(s->sdf, p[i], NULL);
    break;
  case 3:
    for (i = 0; i < n; ++i)
      sum += prox_sdf_inside(s->sdf, p[i], NULL);
    break;
  case 4:
    for (i = 0; i < n; ++i)
      sum += prox_sdf_inside(s->cross, p[i], NULL);
    break;
  case 5:
    for (i = 0; i < n; ++i)
      sum += (double)prox_sdf_distancef(s->sdff, s->pf[p - s->p + (ptrdiff_t)i], NULL);
    break;
  case 6:
    for (i = 0; i < n; ++i)
      sum += prox_sdf_insidef(s->sdff, s->pf[p - s->p + (ptrdiff_t)i], NULL);
    break;
  case 7: {
    /* The batch in the calling thread (threads 1): a peer's batch call,
     * such as Open3D's compute_signed_distance, compares with this. */
    double *d = (double *)malloc(n * sizeof *d);
    if (d && prox_sdf_batch(s->sdf, p, n, d, NULL, 1) == PROX_OK)
      for (i = 0; i < n; ++i)
        sum += d[i];
    free(d);
    break;
  }
  case 9: {
    /* The float batch: Open3D computes in float32 too. */
    float *d = (float *)malloc(n * sizeof *d);
    if (d && prox_sdf_batchf(s->sdff, s->pf + (p - s->p), n, d, NULL, 1) == PROX_OK)
      for (i = 0; i < n; ++i)
        sum += (double)d[i];
    free(d);
    break;
  }
  default: {
    uint8_t *in = (uint8_t *)malloc(n);
    if (in && prox_sdf_inside_batch(s->sdf, p, n, in, NULL, 1) == PROX_OK)
      for (i = 0; i < n; ++i)
        sum += in[i];
    free(in);
    break;
  }
  }
  return sum;
}

static void bs_signed_rows(bs_set *s) {
  static const char *name1[10] = {"closest (no result)",
                                  "closest (result)",
                                  "sdf_distance",
                                  "sdf_inside",
                                  "sdf_inside (CROSSINGS)",
                                  "sdf_distancef (float)",
                                  "sdf_insidef (float)",
                                  "sdf_batch (1 thread)",
                                  "sdf_inside_batch (1 thr)",
                                  "sdf_batchf (float, 1 thr)"};
  static const char *name2[3] = {"closest_batch", "sdf_batch", "sdf_inside_batch"};
  prox_mesh_closest *rc = (prox_mesh_closest *)malloc(bs_n * sizeof *rc);
  double *dist = (double *)malloc(bs_n * sizeof *dist);
  uint8_t *ins = (uint8_t *)malloc(bs_n);
  int set, r, k;
  for (set = 0; set < 2; ++set) {
    const prox_vec3 *p = s->p + (size_t)set * bs_n;
    double t[10][64], med[10], lo[10], hi[10], pair[64], pmed, plo, phi;
    /* the loops of bs_loop1 to run (4: closed meshes only) */
    int ids[10], nk = 0;
    for (k = 0; k < 10; ++k)
      if (k != 4 || s->cross) ids[nk++] = k;
    if (bs_thr1) {
      bs_cpu = 1;
      for (r = 0; r < bs_runs; ++r)
        for (k = 0; k < nk; ++k) {
          int kk = ids[(k + r) % nk];
          double t0 = bs_now();
          bs_sink = bs_sink + bs_loop1(s, p, bs_n, kk);
          t[kk][r] = bs_now() - t0;
        }
      bs_cpu = 0;
      /* The ratio within each run (the two loops back to back, so a
       * change of machine load between runs cancels), before bs_stats
       * sorts the times. */
      for (r = 0; r < bs_runs; ++r)
        pair[r] = t[2][r] / t[1][r];
      bs_stats(pair, bs_runs, &pmed, &plo, &phi);
      for (r = 0; r < nk; ++r) {
        k = ids[r];
        bs_stats(t[k], bs_runs, &med[k], &lo[k], &hi[k]);
        printf("%-22s signed %-7s 1 thr (cpu)  %-24s %8.1f ns/query [%.1f, "
               "%.1f]\n",
               s->file, bs_setname[set], name1[k], 1e9 * med[k] / (double)bs_n,
               1e9 * lo[k] / (double)bs_n, 1e9 * hi[k] / (double)bs_n);
      }
      printf("%-22s signed %-7s 1 thr ratios: sdf_distance/closest(result) "
             "%.2f, sdf_distance/closest(no result) %.2f, "
             "sdf_inside/closest(result) %.2f (method %d)\n",
             s->file, bs_setname[set], med[2] / med[1], med[2] / med[0], med[3] / med[1],
             prox_sdf_method(s->sdf));
      printf("%-22s signed %-7s 1 thr sdf_distance/closest(result) within each run: median "
             "%.3f [%.3f, %.3f]\n",
             s->file, bs_setname[set], pmed, plo, phi);
    }
    if (!bs_thr2) continue;
    for (r = 0; r < bs_runs; ++r)
      for (k = 0; k < 3; ++k) {
        int kk = (k + r) % 3;
        double t0 = bs_now();
        if (kk == 0) {
          prox_bvh_closest_batch(s->bvh, p, bs_n, INFINITY, rc, 2);
        } else if (kk == 1) {
          prox_sdf_batch(s->sdf, p, bs_n, dist, NULL, 2);
        } else {
          size_t i, c = 0;
          prox_sdf_inside_batch(s->sdf, p, bs_n, ins, NULL, 2);
          for (i = 0; i < bs_n; ++i)
            c += ins[i];
          bs_sink = bs_sink + (double)c;
        }
        t[kk][r] = bs_now() - t0;
      }
    for (k = 0; k < 3; ++k) {
      bs_stats(t[k], bs_runs, &med[k], &lo[k], &hi[k]);
      printf("%-22s signed %-7s 2 thr (wall) %-24s %8.1f ns/query [%.1f, "
             "%.1f]\n",
             s->file, bs_setname[set], name2[k], 1e9 * med[k] / (double)bs_n,
             1e9 * lo[k] / (double)bs_n, 1e9 * hi[k] / (double)bs_n);
    }
    printf("%-22s signed %-7s 2 thr ratio sdf_batch/closest_batch %.2f\n", s->file, bs_setname[set],
           med[1] / med[0]);
  }
  free(rc);
  free(dist);
  free(ins);
}

/* -------------------------------------------------------------- grid */

static void bs_grid_rows(bs_set *s) {
  size_t g = bs_grid, ns = g * g * g, i, j, k;
  prox_vec3 origin, spacing;
  float *out = (float *)malloc(ns * sizeof *out);
  prox_vec3 *gp = (prox_vec3 *)malloc(ns * sizeof *gp);
  prox_mesh_closest *rc = (prox_mesh_closest *)malloc((ns > bs_n ? ns : bs_n) * sizeof *rc);
  double *dist = (double *)malloc(ns * sizeof *dist);
  static const int threads[2] = {1, 2};
  int ti, r, v;
  long mism = 0;
  double e[3];
  for (v = 0; v < 3; ++v)
    e[v] = s->hi[v] - s->lo[v];
  origin = prox_v3(s->lo[0] - 0.05 * e[0], s->lo[1] - 0.05 * e[1], s->lo[2] - 0.05 * e[2]);
  spacing = prox_v3(1.1 * e[0] / (double)(g - 1), 1.1 * e[1] / (double)(g - 1),
                    1.1 * e[2] / (double)(g - 1));
  for (k = 0; k < g; ++k)
    for (j = 0; j < g; ++j)
      for (i = 0; i < g; ++i)
        gp[(k * g + j) * g + i] =
            prox_v3(origin.x + (double)i * spacing.x, origin.y + (double)j * spacing.y,
                    origin.z + (double)k * spacing.z);
  /* The grid against point queries on its points, once. */
  prox_sdf_grid(s->sdf, origin, spacing, g, g, g, out, 2);
  prox_sdf_batch(s->sdf, gp, ns, dist, NULL, 2);
  for (i = 0; i < ns; ++i)
    if (out[i] != (float)dist[i]) ++mism;
  printf("%-22s grid %zu^3: %ld samples differ from prox_sdf_batch on the "
         "same points\n",
         s->file, g, mism);
  for (ti = 0; ti < 2; ++ti) {
    int th = threads[ti];
    if (!(th == 1 ? bs_thr1 : bs_thr2)) continue;
    double t[4][64], med[4], lo[4], hi[4];
    static const char *name[4] = {"sdf_grid", "closest_batch (grid pts)", "sdf_batch (grid pts)",
                                  "closest_batch (uniform)"};
    bs_cpu = th == 1;
    for (r = 0; r < bs_runs; ++r)
      for (v = 0; v < 4; ++v) {
        int vv = (v + r) % 4;
        double t0 = bs_now();
        if (vv == 0)
          prox_sdf_grid(s->sdf, origin, spacing, g, g, g, out, th);
        else if (vv == 1)
          prox_bvh_closest_batch(s->bvh, gp, ns, INFINITY, rc, th);
        else if (vv == 2)
          prox_sdf_batch(s->sdf, gp, ns, dist, NULL, th);
        else
          prox_bvh_closest_batch(s->bvh, s->p, bs_n, INFINITY, rc, th);
        t[vv][r] = (bs_now() - t0) / (double)(vv == 3 ? bs_n : ns);
      }
    bs_cpu = 0;
    for (v = 0; v < 4; ++v) {
      bs_stats(t[v], bs_runs, &med[v], &lo[v], &hi[v]);
      printf("%-22s grid %zu^3 %d thr %s %-24s %8.1f ns/sample [%.1f, %.1f]\n", s->file, g, th,
             th == 1 ? "(cpu) " : "(wall)", name[v], 1e9 * med[v], 1e9 * lo[v], 1e9 * hi[v]);
    }
    printf("%-22s grid %zu^3 %d thr ratios: closest_batch(grid pts)/sdf_grid "
           "%.2f, closest_batch(uniform)/sdf_grid %.2f (above 1: the grid is "
           "faster per sample)\n",
           s->file, g, th, med[1] / med[0], med[3] / med[0]);
  }
  free(out);
  free(gp);
  free(rc);
  free(dist);
}

/* ----------------------------------------------------------- winding */

static void bs_winding_rows(bs_set *s) {
  static const double acc[4] = {2, 8, INFINITY, 2};
  prox_sdf *w[4] = {NULL, NULL, NULL, NULL};
  int a, set, r, k;
  for (a = 0; a < 4; ++a) {
    prox_sdf_options o = prox_sdf_options_default();
    o.method = a < 3 ? PROX_SIGN_WINDING : PROX_SIGN_AUTO; /* the last: AUTO's choice */
    o.accuracy = acc[a];
    if (prox_sdf_build(&s->md, s->bvh, s->topo, &o, NULL, &w[a], NULL) != PROX_OK) {
      printf("%-22s winding: build failed\n", s->file);
      for (k = 0; k < a; ++k)
        prox_sdf_free(w[k]);
      return;
    }
  }
  for (set = 0; set < 2; ++set) {
    const prox_vec3 *p = s->p + (size_t)set * bs_n;
    double t[7][64], med[7], lo[7], hi[7];
    static const char *name[7] = {"inside acc 2",   "inside acc 8",   "inside exact",
                                  "distance acc 2", "distance acc 8", "closest (result)",
                                  "inside AUTO"};
    size_t i;
    long wrong2 = 0, wrong8 = 0, unc2 = 0, unc8 = 0, uncx = 0;
    for (i = 0; i < bs_n; ++i) {
      int c2, c8, cx, ix = prox_sdf_inside(w[2], p[i], &cx);
      if (cx && prox_sdf_inside(w[0], p[i], &c2) != ix) ++wrong2;
      if (cx && prox_sdf_inside(w[1], p[i], &c8) != ix) ++wrong8;
      prox_sdf_inside(w[0], p[i], &c2);
      prox_sdf_inside(w[1], p[i], &c8);
      unc2 += !c2;
      unc8 += !c8;
      uncx += !cx;
    }
    bs_cpu = 1;
    for (r = 0; r < bs_runs; ++r)
      for (k = 0; k < 7; ++k) {
        int kk = (k + r) % 7;
        double sum = 0, t0 = bs_now();
        prox_mesh_closest c;
        for (i = 0; i < bs_n; ++i) {
          if (kk < 3)
            sum += prox_sdf_inside(w[kk], p[i], NULL);
          else if (kk < 5)
            sum += prox_sdf_distance(w[kk - 3], p[i], NULL);
          else if (kk == 5)
            sum += prox_bvh_closest(s->bvh, p[i], INFINITY, &c);
          else
            sum += prox_sdf_inside(w[3], p[i], NULL);
        }
        t[kk][r] = bs_now() - t0;
        bs_sink = bs_sink + sum;
      }
    bs_cpu = 0;
    for (k = 0; k < 7; ++k) {
      bs_stats(t[k], bs_runs, &med[k], &lo[k], &hi[k]);
      printf("%-22s winding %-7s 1 thr (cpu) %-18s %8.1f ns/query [%.1f, "
             "%.1f]\n",
             s->file, bs_setname[set], name[k], 1e9 * med[k] / (double)bs_n,
             1e9 * lo[k] / (double)bs_n, 1e9 * hi[k] / (double)bs_n);
    }
    printf("%-22s winding %-7s inside differs from the exact winding number's (infinite "
           "accuracy, certain) on %ld (acc 2) and %ld (acc 8) of %zu points; uncertain: %ld (acc "
           "2), %ld (acc 8), %ld (exact)\n",
           s->file, bs_setname[set], wrong2, wrong8, bs_n, unc2, unc8, uncx);
  }
  for (k = 0; k < 4; ++k)
    prox_sdf_free(w[k]);
}

/* -------------------------------------------------------------- main */

int main(int argc, char **argv) {
  /* The last two only when --mesh names them (open meshes for the
   * winding rows). */
  static const char *files[6] = {"bunny_watertight.obj", "armadillo.obj", "dragon.obj", "bunny.obj",
                                 "teapot.obj",           "cycloidal.ply"};
  const char *dir = getenv("PROX_MESH_DIR");
  int a, mi, quick = 0, grid_set = 0;
  for (a = 1; a < argc; ++a) {
    const char *arg = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
#define BS_OPT(name) (!strcmp(arg, name) && val && (++a, 1))
    if (!strcmp(arg, "--quick"))
      quick = 1;
    else if (BS_OPT("--runs"))
      bs_runs = atoi(val);
    else if (BS_OPT("--meshes"))
      dir = val;
    else if (BS_OPT("--only"))
      snprintf(bs_only, sizeof bs_only, "%s", val);
    else if (BS_OPT("--mesh"))
      snprintf(bs_mesh, sizeof bs_mesh, "%s", val);
    else if (BS_OPT("--check"))
      bs_check = (size_t)atof(val);
    else if (BS_OPT("--grid")) {
      bs_grid = (size_t)atoi(val);
      grid_set = 1;
    } else if (BS_OPT("--threads")) {
      bs_thr1 = strchr(val, '1') != NULL;
      bs_thr2 = strchr(val, '2') != NULL;
    } else if (BS_OPT("--n"))
      bs_n = (size_t)atof(val);
    else if (BS_OPT("--write-points"))
      bs_wpoints = val;
    else if (BS_OPT("--write-reference"))
      bs_wref = val;
    else {
      fprintf(stderr, "bench_sign: unknown or incomplete argument %s\n", arg);
      return 2;
    }
#undef BS_OPT
  }
  if (quick) {
    bs_n = bs_n < 100000 ? bs_n : 100000;
    if (!grid_set) bs_grid = 64;
  }
  if (bs_runs < 1) bs_runs = 1;
  if (bs_runs > 64) bs_runs = 64;
  if (bs_grid < 2) bs_grid = 2;
  if (!dir || !*dir) dir = "../shared/data/meshes";
  printf("bench_sign: simd %s, n %zu per set, runs %d, grid %zu^3\ncommand:",
         prox_simd_name(prox_simd_level()), bs_n, bs_runs, bs_grid);
  for (a = 0; a < argc; ++a)
    printf(" %s", argv[a]);
  printf("\n");
  for (mi = 0; mi < 6; ++mi) {
    bs_set s;
    char path[4200], err[512], stem[256];
    double *xyz;
    size_t i;
    int set;
    prox_error pe;
    if (bs_mesh[0] ? !strstr(files[mi], bs_mesh) : mi >= 4) continue;
    memset(&s, 0, sizeof s);
    s.file = files[mi];
    snprintf(path, sizeof path, "%s/%s", dir, files[mi]);
    if (!mesh_load(path, &s.m, err, sizeof err)) {
      fprintf(stderr, "bench_sign: %s\n", err);
      return 1;
    }
    s.md.vertices = s.m.v;
    s.md.vertex_count = s.m.nv;
    s.md.stride = 0;
    s.md.indices = s.m.t;
    s.md.triangle_count = s.m.nt;
    so_box(&s.m, s.lo, s.hi, &s.diag);
    if (prox_bvh_build(&s.md, NULL, NULL, &s.bvh, &pe) != PROX_OK ||
        prox_mesh_topology_build(&s.md, NULL, &s.topo, &pe) != PROX_OK ||
        prox_sdf_build(&s.md, s.bvh, s.topo, NULL, NULL, &s.sdf, &pe) != PROX_OK) {
      fprintf(stderr, "bench_sign: %s: %s\n", files[mi], pe.message);
      return 1;
    }
    s.vf = (float *)malloc(3 * s.m.nv * sizeof *s.vf + 1);
    for (i = 0; i < 3 * s.m.nv; ++i)
      s.vf[i] = (float)s.m.v[i];
    s.mdf.vertices = s.vf;
    s.mdf.vertex_count = s.m.nv;
    s.mdf.stride = 0;
    s.mdf.indices = s.m.t;
    s.mdf.triangle_count = s.m.nt;
    if (prox_bvh_buildf(&s.mdf, NULL, NULL, &s.bvhf, &pe) != PROX_OK ||
        prox_mesh_topology_buildf(&s.mdf, NULL, &s.topof, &pe) != PROX_OK ||
        prox_sdf_buildf(&s.mdf, s.bvhf, s.topof, NULL, NULL, &s.sdff, &pe) != PROX_OK) {
      fprintf(stderr, "bench_sign: %s (float): %s\n", files[mi], pe.message);
      return 1;
    }
    if (s.topo->closed) {
      prox_sdf_options o = prox_sdf_options_default();
      o.method = PROX_SIGN_CROSSINGS;
      if (prox_sdf_build(&s.md, s.bvh, s.topo, &o, NULL, &s.cross, &pe) != PROX_OK) {
        fprintf(stderr, "bench_sign: %s: %s\n", files[mi], pe.message);
        return 1;
      }
    }
    printf("%-22s %zu triangles, closed %d, manifold %d, oriented %d, "
           "components %u; AUTO method %d (1 pseudo-normal, 2 crossings, 3 "
           "winding)\n",
           s.file, s.m.nt, s.topo->closed, s.topo->manifold, s.topo->oriented, s.topo->components,
           prox_sdf_method(s.sdf));
    fflush(stdout);
    xyz = (double *)malloc(6 * bs_n * sizeof *xyz);
    s.p = (prox_vec3 *)malloc(2 * bs_n * sizeof *s.p);
    s.ref = (signed char *)malloc(6 * bs_n);
    s.pf = (prox_vec3f *)malloc(2 * bs_n * sizeof *s.pf);
    for (set = 0; set < 2; ++set)
      so_points(&s.m, set, bs_n, so_seed(set, s.m.nt), xyz + 3 * bs_n * (size_t)set);
    for (i = 0; i < 2 * bs_n; ++i) {
      s.p[i] = prox_v3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
      s.pf[i] = prox_v3f((float)xyz[3 * i], (float)xyz[3 * i + 1], (float)xyz[3 * i + 2]);
      s.ref[3 * i] = (signed char)prox_sdf_inside(s.sdf, s.p[i], NULL);
      s.ref[3 * i + 1] = SO_UNCHECKED;
      s.ref[3 * i + 2] = SO_UNCHECKED;
    }
    bs_stem(files[mi], stem, sizeof stem);
    if (bs_wpoints) {
      snprintf(path, sizeof path, "%s_%s.npy", bs_wpoints, stem);
      if (!bs_write_npy(path, "<f8", 2 * bs_n, 3, xyz, sizeof(double)))
        fprintf(stderr, "bench_sign: cannot write %s\n", path);
    }
    if (bs_section("build")) bs_build_rows(&s);
    fflush(stdout);
    if (bs_section("check") && s.topo->closed) bs_check_rows(&s);
    fflush(stdout);
    if (bs_wref) {
      snprintf(path, sizeof path, "%s_%s_ref.npy", bs_wref, stem);
      if (!bs_write_npy(path, "|i1", 2 * bs_n, 3, s.ref, 1))
        fprintf(stderr, "bench_sign: cannot write %s\n", path);
    }
    if (bs_section("signed")) bs_signed_rows(&s);
    fflush(stdout);
    if (bs_section("grid")) bs_grid_rows(&s);
    fflush(stdout);
    if (bs_section("winding") && !s.topo->closed && bs_thr1) bs_winding_rows(&s);
    fflush(stdout);
    free(xyz);
    free(s.p);
    free(s.ref);
    prox_sdf_free(s.sdf);
    prox_sdf_free(s.cross);
    prox_mesh_topology_free(s.topo);
    prox_bvh_free(s.bvh);
    prox_sdf_freef(s.sdff);
    prox_mesh_topology_free(s.topof);
    prox_bvh_freef(s.bvhf);
    free(s.pf);
    free(s.vf);
    obj_free(&s.m);
  }
  return 0;
}
