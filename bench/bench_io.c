/* SPDX-License-Identifier: MIT */
/* bench_io: the mesh readers of prox_io (tools/io) against assimp's C API in
 * one process, on the same files.
 *
 *   bench_io [MESH_DIR] [--runs=N] [--wall]
 *
 * MESH_DIR defaults to the environment variable PROX_MESH_DIR, else the
 * folder configured at build time. Files: bunny.obj, dragon.obj, bunny.ply,
 * bunny.stl (and bunny_ascii.stl as an extra row). A last row times the
 * writers' number format (prox_io_format_double) against snprintf.
 *
 * What is compared (like with like): both read the file from its path (the
 * page cache is warm after the first run; each reader's own file reading
 * is part of its time) and return triangles.
 * - prox: prox_io_read_mesh with default options: double vertices, uint32
 *   indices, polygons fan-triangulated; STL not welded (three vertices per
 *   triangle, as assimp gives them).
 * - assimp: aiImportFile(path, aiProcess_Triangulate), then
 *   aiReleaseImport. No other post-processing: no vertex joining, no
 *   normals, no validation step (assimp's importers still build their
 *   aiScene, with float vertices; the OBJ importer also computes nothing
 *   more unless asked).
 * - One more row, prox only: bunny.stl read with weld (what the prox
 *   command does with an STL). assimp has no like operation:
 *   aiProcess_JoinIdenticalVertices also compares the per-face normals that
 *   its STL importer gives every corner, so it joins almost nothing
 *   (208,190 of 208,353 corners on the bunny) in 250 ms.
 * Each reader runs N times (default 9), alternating; the table gives the
 * median in ms (with min and max), MB/s of file size per median, and the
 * ratio of the medians (assimp / prox). Times are process CPU time
 * (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)): both readers run on one thread
 * (assimp's importers do not start threads), and on a machine shared with
 * other jobs CPU time leaves out the waits for a core that make wall times
 * noisy; --wall measures wall time instead. The vertex and triangle counts of
 * both are printed so that a reader that skipped work shows. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime, CLOCK_PROCESS_CPUTIME_ID */
#include "prox_io.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The clock: CPU time of the process (default; both readers are single
 * threaded, and on a shared machine it leaves out the time spent waiting
 * for a core) or wall time (--wall). */
static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID;

static double now(void) {
  struct timespec ts;
  clock_gettime(clock_id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static long file_size(const char *path) {
  FILE *f = fopen(path, "rb");
  long n;
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fclose(f);
  return n;
}

/* One read of path by prox_io: its time into *t and its counts, or 0 with
 * a message naming `label`. */
static int time_prox(const char *path, const char *label, const prox_io_mesh_options *opt,
                     double *t, size_t *nv, size_t *nt) {
  prox_io_mesh m;
  prox_error e;
  double t0 = now();
  if (prox_io_read_mesh(path, opt, &m, &e) != PROX_OK) {
    printf("%-16s prox failed: %s\n", label, e.message);
    return 0;
  }
  *t = now() - t0;
  *nv = m.vertex_count;
  *nt = m.triangle_count;
  prox_io_mesh_free(&m);
  return 1;
}

int main(int argc, char **argv) {
  static const char *const files[] = {"bunny.obj", "dragon.obj", "bunny.ply", "bunny.stl",
                                      "bunny_ascii.stl"};
  const char *dir = getenv("PROX_MESH_DIR");
  int runs = 9, i;
  size_t k;
#ifdef PROX_MESH_DIR
  if (!dir || !*dir) dir = PROX_MESH_DIR;
#endif
  for (i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--runs=", 7) == 0)
      runs = atoi(argv[i] + 7);
    else if (strcmp(argv[i], "--wall") == 0)
      clock_id = CLOCK_MONOTONIC;
    else
      dir = argv[i];
  }
  if (runs < 1) runs = 1;
  if (!dir) dir = "../shared/data/meshes";
  printf("bench_io: prox_io readers vs assimp %u.%u (aiImportFile with "
         "aiProcess_Triangulate), %d runs each, medians of %s time\n",
         aiGetVersionMajor(), aiGetVersionMinor(), runs,
         clock_id == CLOCK_MONOTONIC ? "wall" : "process CPU");
  printf("%-16s %7s | %9s %15s %8s | %9s %15s %8s | %6s | %s\n", "file", "MB", "prox ms",
         "(min-max)", "MB/s", "assimp ms", "(min-max)", "MB/s", "ratio",
         "counts prox / assimp (v, t)");
  for (k = 0; k < sizeof files / sizeof files[0]; ++k) {
    char path[1024];
    double *tp = (double *)malloc((size_t)runs * sizeof *tp);
    double *ta = (double *)malloc((size_t)runs * sizeof *ta);
    size_t pv = 0, pt = 0, av = 0, at = 0;
    double mb;
    long size;
    int r, ok = 1;
    snprintf(path, sizeof path, "%s/%s", dir, files[k]);
    size = file_size(path);
    if (size < 0) {
      printf("%-16s missing\n", files[k]);
      free(tp);
      free(ta);
      continue;
    }
    mb = (double)size / 1e6;
    for (r = 0; r < runs && ok; ++r) {
      const struct aiScene *s;
      double t0;
      unsigned j;
      if (!time_prox(path, files[k], NULL, &tp[r], &pv, &pt)) {
        ok = 0;
        break;
      }
      t0 = now();
      s = aiImportFile(path, aiProcess_Triangulate);
      if (!s) {
        printf("%-16s assimp failed: %s\n", files[k], aiGetErrorString());
        ok = 0;
        break;
      }
      av = at = 0;
      for (j = 0; j < s->mNumMeshes; ++j) {
        av += s->mMeshes[j]->mNumVertices;
        at += s->mMeshes[j]->mNumFaces;
      }
      aiReleaseImport(s);
      ta[r] = now() - t0;
    }
    if (ok) {
      double mp, ma;
      qsort(tp, (size_t)runs, sizeof *tp, cmp_double);
      qsort(ta, (size_t)runs, sizeof *ta, cmp_double);
      mp = tp[runs / 2];
      ma = ta[runs / 2];
      printf("%-16s %7.2f | %9.2f (%6.2f-%6.2f) %8.0f | %9.2f (%6.2f-%6.2f) "
             "%8.0f | %6.1f | %zu, %zu / %zu, %zu\n",
             files[k], mb, 1e3 * mp, 1e3 * tp[0], 1e3 * tp[runs - 1], mb / mp, 1e3 * ma,
             1e3 * ta[0], 1e3 * ta[runs - 1], mb / ma, ma / mp, pv, pt, av, at);
    }
    free(tp);
    free(ta);
  }
  /* prox alone: an STL welded (the prox command's way to read it). */
  {
    char path[1024];
    double *tp = (double *)malloc((size_t)runs * sizeof *tp);
    prox_io_mesh_options weld = {1};
    size_t pv = 0, pt = 0;
    long size;
    int r, ok = 1;
    snprintf(path, sizeof path, "%s/%s", dir, "bunny.stl");
    size = file_size(path);
    for (r = 0; r < runs && ok && size >= 0; ++r) {
      if (!time_prox(path, "bunny.stl weld", &weld, &tp[r], &pv, &pt)) {
        ok = 0;
        break;
      }
    }
    if (ok && size >= 0) {
      double mb = (double)size / 1e6, mp;
      qsort(tp, (size_t)runs, sizeof *tp, cmp_double);
      mp = tp[runs / 2];
      printf("%-16s %7.2f | %9.2f (%6.2f-%6.2f) %8.0f | %9s %15s %8s | %6s | %zu, %zu (welded)\n",
             "bunny.stl weld", mb, 1e3 * mp, 1e3 * tp[0], 1e3 * tp[runs - 1], mb / mp, "-", "", "",
             "-", pv, pt);
    }
    free(tp);
  }
  /* The writers' number format: 1M coordinate-like doubles (the columns of
   * `prox closest`'s CSV) through prox_io_format_double and through
   * snprintf("%.17g"), which give the same text (test_io checks it). */
  {
    const size_t n = 1000000;
    double *x = (double *)malloc(n * sizeof *x);
    double *tp = (double *)malloc((size_t)runs * sizeof *tp);
    double *ts = (double *)malloc((size_t)runs * sizeof *ts);
    uint64_t s = 12345;
    size_t j, chars = 0;
    int r;
    for (j = 0; j < n; ++j) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      x[j] = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * (j % 3 == 0 ? 0.25 : 3.0);
    }
    for (r = 0; r < runs; ++r) {
      char buf[40];
      double t0 = now();
      for (j = 0; j < n; ++j)
        chars += prox_io_format_double(x[j], buf);
      tp[r] = now() - t0;
      t0 = now();
      for (j = 0; j < n; ++j)
        chars += (size_t)snprintf(buf, sizeof buf, "%.17g", x[j]);
      ts[r] = now() - t0;
    }
    qsort(tp, (size_t)runs, sizeof *tp, cmp_double);
    qsort(ts, (size_t)runs, sizeof *ts, cmp_double);
    printf("%%.17g x 1M: prox_io_format_double %.1f ns (%.1f-%.1f), snprintf %.1f ns "
           "(%.1f-%.1f) a number, ratio %.1f (%zu chars)\n",
           1e3 * tp[runs / 2], 1e3 * tp[0], 1e3 * tp[runs - 1], 1e3 * ts[runs / 2], 1e3 * ts[0],
           1e3 * ts[runs - 1], ts[runs / 2] / tp[runs / 2], chars);
    free(x);
    free(tp);
    free(ts);
  }
  return 0;
}
