/* SPDX-License-Identifier: MIT */
/* Tests of the prox command: runs the built executable (PROX_EXE) on small
 * generated inputs and compares what it writes with answers computed here,
 * independently: brute force over every triangle with the library's
 * kernels (prox_point_triangle, prox_raycast_triangle), never the BVH.
 * Usage: test_cli CASE (help, usage, closest, closest_stdin, closest_ply,
 * bad_input, raycast, distance, info, grid, heatmap, demo, stream,
 * interrupt). Exit 0 pass, 1 fail. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "cli.h"

#include <prox/prox.h>

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PROX_EXE
#error "PROX_EXE must name the prox executable"
#endif

static int failures = 0;

#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);                        \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

#define CHECK_MSG(c, ...)                                                                          \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #c);                        \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

/* ---- files and processes ----------------------------------------------- */

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0, r;
  if (!f) return NULL;
  for (;;) {
    if (n + 65536 + 1 > cap) {
      cap = (n + 65536 + 1) * 2;
      buf = realloc(buf, cap);
      if (!buf) abort();
    }
    r = fread(buf + n, 1, 65536, f);
    n += r;
    if (r == 0) break;
  }
  fclose(f);
  buf[n] = '\0';
  if (size) *size = n;
  return buf;
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(1);
  }
}

static int file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

static char *out_text, *err_text;

/* Runs `prox ARGS` through the shell, stdout and stderr to files; returns
 * the exit status and keeps both texts in out_text / err_text. */
static int run(const char *args) {
  char cmd[8192];
  int st;
  snprintf(cmd, sizeof cmd, "%s %s >cli_out.txt 2>cli_err.txt", PROX_EXE, args);
  st = system(cmd);
  free(out_text);
  free(err_text);
  out_text = read_all("cli_out.txt", NULL);
  err_text = read_all("cli_err.txt", NULL);
  if (!out_text) out_text = calloc(1, 1);
  if (!err_text) err_text = calloc(1, 1);
  if (st == -1 || !WIFEXITED(st)) return -1;
  return WEXITSTATUS(st);
}

/* ---- the test mesh: a closed, bumpy torus ------------------------------ */

#define NU 16
#define NV 9
static double verts[NU * NV][3];
static uint32_t tris[2 * NU * NV][3];
static const size_t nverts = NU * NV, ntris = 2 * NU * NV;

static void make_mesh(void) {
  int i, j, k = 0;
  for (i = 0; i < NU; ++i)
    for (j = 0; j < NV; ++j) {
      double u = 6.283185307179586 * i / NU, v = 6.283185307179586 * j / NV;
      double r = 0.5 + 0.1 * sin(3 * u + v);
      double *p = verts[i * NV + j];
      p[0] = (2 + r * cos(v)) * cos(u);
      p[1] = (2 + r * cos(v)) * sin(u) + 0.01 * i;
      p[2] = r * sin(v);
    }
  for (i = 0; i < NU; ++i)
    for (j = 0; j < NV; ++j) {
      uint32_t a = (uint32_t)(i * NV + j), b = (uint32_t)(((i + 1) % NU) * NV + j),
               c = (uint32_t)(((i + 1) % NU) * NV + (j + 1) % NV),
               d = (uint32_t)(i * NV + (j + 1) % NV);
      tris[k][0] = a;
      tris[k][1] = b;
      tris[k][2] = c;
      ++k;
      tris[k][0] = a;
      tris[k][1] = c;
      tris[k][2] = d;
      ++k;
    }
}

static void write_mesh_obj(const char *path) {
  FILE *f = fopen(path, "w");
  size_t i;
  if (!f) exit(1);
  fprintf(f, "# test torus\n");
  for (i = 0; i < nverts; ++i)
    fprintf(f, "v %.17g %.17g %.17g\n", verts[i][0], verts[i][1], verts[i][2]);
  for (i = 0; i < ntris; ++i)
    fprintf(f, "f %u %u %u\n", tris[i][0] + 1, tris[i][1] + 1, tris[i][2] + 1);
  fclose(f);
}

static prox_triangle tri_of(size_t t) {
  prox_triangle r;
  int k;
  for (k = 0; k < 3; ++k) {
    const double *p = verts[tris[t][k]];
    r.v[k] = prox_v3(p[0], p[1], p[2]);
  }
  return r;
}

/* Brute force: the smallest squared distance over all triangles. */
static double brute_sq(const double p[3]) {
  double best = INFINITY;
  size_t t;
  for (t = 0; t < ntris; ++t) {
    prox_triangle tr = tri_of(t);
    double d = prox_point_triangle(prox_v3(p[0], p[1], p[2]), &tr, NULL);
    if (d < best) best = d;
  }
  return best;
}

/* Inside by ray parity: crossings of a ray in a fixed generic direction,
 * counted with the watertight kernel over every triangle. */
static int brute_inside(const double p[3]) {
  prox_ray ray;
  size_t t;
  int hits = 0;
  ray.origin = prox_v3(p[0], p[1], p[2]);
  ray.dir = prox_v3(0.5773502691896258, 0.6123724356957945, 0.5400617248673217);
  ray.tmin = 0;
  ray.tmax = INFINITY;
  for (t = 0; t < ntris; ++t) {
    prox_triangle tr = tri_of(t);
    hits += prox_raycast_triangle(&ray, &tr, NULL);
  }
  return hits & 1;
}

/* Deterministic points around the mesh (x in [-3, 3], ...). */
static uint64_t rng_state = 12345;
static double urand(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}

#define NPTS 400
static double pts[NPTS][3];

static void make_points(void) {
  int i;
  for (i = 0; i < NPTS; ++i) {
    pts[i][0] = -3.2 + 6.4 * urand();
    pts[i][1] = -3.2 + 6.6 * urand();
    pts[i][2] = -1.2 + 2.4 * urand();
  }
  /* A few exactly on vertices. */
  memcpy(pts[0], verts[0], sizeof pts[0]);
  memcpy(pts[1], verts[37], sizeof pts[1]);
}

static void setup(void) {
  make_mesh();
  make_points();
  write_mesh_obj("torus.obj");
}

/* ---- CSV parsing ------------------------------------------------------- */

/* Splits text into lines (in place); returns the count. */
static size_t split_lines(char *text, char ***lines) {
  size_t n = 0, cap = 1024;
  char *p = text, *nl;
  *lines = malloc(cap * sizeof **lines);
  while (*p) {
    if (n == cap) {
      cap *= 2;
      *lines = realloc(*lines, cap * sizeof **lines);
    }
    (*lines)[n++] = p;
    nl = strchr(p, '\n');
    if (!nl) break;
    *nl = '\0';
    p = nl + 1;
  }
  return n;
}

static int parse_row(const char *line, double *v, int n) {
  int k;
  const char *p = line;
  for (k = 0; k < n; ++k) {
    char *end;
    v[k] = strtod(p, &end);
    if (end == p) return 0;
    p = end;
    if (k + 1 < n) {
      if (*p != ',') return 0;
      ++p;
    }
  }
  return *p == '\0' || *p == '\r';
}

/* Checks the rows of `closest` output against brute force. max_d: rows
 * farther must be inf and -1. */
static void check_closest_csv(char *text, double max_d) {
  char **lines;
  size_t n = split_lines(text, &lines), i;
  CHECK_MSG(n == NPTS + 1, "%zu lines", n);
  CHECK(n > 0 && strcmp(lines[0], "x,y,z,cx,cy,cz,distance,triangle") == 0);
  for (i = 1; i < n && i <= NPTS; ++i) {
    double r[8], want;
    const double *p = pts[i - 1];
    if (!parse_row(lines[i], r, 8)) {
      CHECK_MSG(0, "row %zu: '%s'", i, lines[i]);
      continue;
    }
    CHECK(r[0] == p[0] && r[1] == p[1] && r[2] == p[2]);
    want = sqrt(brute_sq(p));
    if (want > max_d) {
      CHECK_MSG(isinf(r[6]) && r[7] == -1, "row %zu beyond max", i);
      continue;
    }
    CHECK_MSG(fabs(r[6] - want) <= 1e-12 * (1 + want), "row %zu: %.17g vs %.17g", i, r[6], want);
    CHECK(r[7] >= 0 && r[7] < (double)ntris && r[7] == floor(r[7]));
    if (r[7] >= 0 && r[7] < (double)ntris) {
      prox_triangle tr = tri_of((size_t)r[7]);
      prox_closest c;
      double d2 = prox_point_triangle(prox_v3(p[0], p[1], p[2]), &tr, &c);
      /* The reported triangle is a nearest one, and the point its closest. */
      CHECK_MSG(fabs(sqrt(d2) - want) <= 1e-12 * (1 + want), "row %zu tri", i);
      CHECK_MSG(fabs(c.point.x - r[3]) <= 1e-12 && fabs(c.point.y - r[4]) <= 1e-12 &&
                    fabs(c.point.z - r[5]) <= 1e-12,
                "row %zu point", i);
    }
  }
  free(lines);
}

static void write_points_csv(const char *path) {
  FILE *f = fopen(path, "w");
  int i;
  fprintf(f, "x,y,z\n# generated\n");
  for (i = 0; i < NPTS; ++i)
    fprintf(f, "%.17g,%.17g,%.17g\n", pts[i][0], pts[i][1], pts[i][2]);
  fclose(f);
}

/* ---- cases ------------------------------------------------------------- */

static const char *const commands[] = {"closest", "raycast", "distance", "slice",
                                       "sdf",     "info",    "demo"};

static void case_help(void) {
  size_t i;
  char want[64], args[64];
  int v = prox_version();
  CHECK(run("--version") == 0);
  snprintf(want, sizeof want, "prox %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
  CHECK(strcmp(out_text, want) == 0);
  CHECK(run("--help") == 0 && strstr(out_text, "commands:"));
  CHECK(run("help") == 0 && strstr(out_text, "exit status"));
  for (i = 0; i < sizeof commands / sizeof *commands; ++i) {
    snprintf(want, sizeof want, "usage: prox %s", commands[i]);
    snprintf(args, sizeof args, "%s --help", commands[i]);
    CHECK_MSG(run(args) == 0 && strncmp(out_text, want, strlen(want)) == 0, "%s", args);
    snprintf(args, sizeof args, "help %s", commands[i]);
    CHECK_MSG(run(args) == 0 && strncmp(out_text, want, strlen(want)) == 0, "%s", args);
  }
  /* The contract's columns are in the help texts. */
  CHECK(run("closest --help") == 0 && strstr(out_text, "x,y,z,cx,cy,cz,distance,triangle"));
  CHECK(run("raycast -h") == 0 && strstr(out_text, "hit,t,triangle,px,py,pz,nx,ny,nz"));
}

static void case_usage(void) {
  static const char *const bad[] = {"",
                                    "frobnicate",
                                    "help nosuch",
                                    "closest",
                                    "closest torus.obj",
                                    "closest torus.obj p.csv extra",
                                    "closest torus.obj p.csv --bogus",
                                    "closest torus.obj p.csv --threads x",
                                    "closest torus.obj p.csv --threads",
                                    "closest torus.obj p.csv --max-distance -1",
                                    "closest torus.obj p.csv --max-distance nan",
                                    "raycast torus.obj",
                                    "distance torus.obj",
                                    "distance torus.obj torus.obj --samples 0",
                                    "slice torus.obj",
                                    "slice torus.obj -o x.png --axis w",
                                    "slice torus.obj -o x.png --size 3",
                                    "sdf torus.obj",
                                    "sdf torus.obj -o x.npy --res 8 --voxel 0.1",
                                    "sdf torus.obj -o x.npy --voxel -1",
                                    "info",
                                    "info torus.obj other.obj",
                                    "info torus.obj --frob",
                                    "demo extra"};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof *bad; ++i) {
    int rc = run(bad[i]);
    CHECK_MSG(rc == 2, "'prox %s' gave %d", bad[i], rc);
    CHECK_MSG(strstr(err_text, "prox") != NULL, "'prox %s': no message", bad[i]);
    CHECK_MSG(out_text[0] == '\0', "'prox %s' wrote to stdout", bad[i]);
  }
}

static void case_closest(void) {
  write_points_csv("points.csv");
  remove("closest_out.csv");
  CHECK(run("closest torus.obj points.csv -o closest_out.csv") == 0);
  CHECK(out_text[0] == '\0');
  {
    char *t = read_all("closest_out.csv", NULL);
    CHECK(t != NULL);
    if (t) check_closest_csv(t, INFINITY);
    free(t);
  }
  /* Standard output by default; one and two threads agree with it. */
  CHECK(run("closest torus.obj points.csv --threads 1") == 0);
  check_closest_csv(out_text, INFINITY);
  CHECK(run("closest torus.obj points.csv --threads 2 --quiet") == 0);
  check_closest_csv(out_text, INFINITY);
  /* --max-distance: 0.3 is no row's distance within 1e-9 (checked). */
  {
    int i, near = 0;
    for (i = 0; i < NPTS; ++i) {
      double d = sqrt(brute_sq(pts[i]));
      near += fabs(d - 0.3) < 1e-9;
    }
    CHECK(near == 0);
    CHECK(run("closest torus.obj points.csv --max-distance 0.3") == 0);
    check_closest_csv(out_text, 0.3);
  }
}

static void case_closest_stdin(void) {
  /* White space, a header, comments, CRLF, through standard input. */
  FILE *f = fopen("points.txt", "w");
  int i;
  fprintf(f, "# points\r\nx y z\r\n");
  for (i = 0; i < NPTS; ++i)
    fprintf(f, "%.17g %.17g\t%.17g  # p%d\r\n", pts[i][0], pts[i][1], pts[i][2], i);
  fclose(f);
  CHECK(run("closest torus.obj - < points.txt") == 0);
  check_closest_csv(out_text, INFINITY);
}

static void case_closest_ply(void) {
  size_t size, i;
  char *data, *end_header;
  /* Binary PLY points in, CSV out. */
  {
    FILE *f = fopen("points.ply", "wb");
    fprintf(f,
            "ply\nformat binary_little_endian 1.0\ncomment test\n"
            "element vertex %d\nproperty float intensity\n"
            "property double x\nproperty double y\nproperty double z\n"
            "end_header\n",
            NPTS);
    for (i = 0; i < NPTS; ++i) {
      float intensity = (float)i;
      fwrite(&intensity, 4, 1, f);
      fwrite(pts[i], 8, 3, f);
    }
    fclose(f);
    CHECK(run("closest torus.obj points.ply") == 0);
    check_closest_csv(out_text, INFINITY);
  }
  write_points_csv("points.csv");
  remove("closest_out.ply");
  CHECK(run("closest torus.obj points.csv -o closest_out.ply") == 0);
  data = read_all("closest_out.ply", &size);
  CHECK(data != NULL);
  if (!data) return;
  end_header = strstr(data, "end_header\n");
  CHECK(strncmp(data, "ply\n", 4) == 0);
  CHECK(strstr(data, "format binary_little_endian 1.0") != NULL);
  CHECK(strstr(data, "element vertex 400\n") != NULL);
  CHECK(strstr(data, "property double distance") != NULL ||
        strstr(data, "property float64 distance") != NULL);
  CHECK(end_header != NULL);
  if (end_header) {
    const unsigned char *p = (const unsigned char *)end_header + strlen("end_header\n");
    CHECK((size_t)(p - (const unsigned char *)data) + NPTS * 32 == size);
    for (i = 0; i < NPTS && (size_t)(p - (const unsigned char *)data) + 32 <= size; ++i, p += 32) {
      double v[4], want = sqrt(brute_sq(pts[i]));
      memcpy(v, p, sizeof v); /* little endian host assumed (x86, arm) */
      CHECK(v[0] == pts[i][0] && v[1] == pts[i][1] && v[2] == pts[i][2]);
      CHECK_MSG(fabs(v[3] - want) <= 1e-12 * (1 + want), "vertex %zu", i);
    }
  }
  free(data);
}

static void case_bad_input(void) {
  static const char bad_obj[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n";
  static const char bad_csv[] = "x,y,z\n1,2,3\n1,2,abc\n4,5,6\n";
  unsigned char stl[84 + 50];
  static const char bad_ply[] = "ply\nformat binary_little_endian 1.0\n"
                                "element vertex 3\nproperty float x\n"
                                "property float y\nproperty float z\n"
                                "element face 1\n"
                                "property list uchar int vertex_indices\n"
                                "end_header\n\0\0\0\0\0\0";
  write_file("bad_index.obj", bad_obj, sizeof bad_obj - 1);
  CHECK(run("info bad_index.obj") == 1);
  CHECK(strstr(err_text, "prox: ") == err_text);
  CHECK(strstr(err_text, "bad_index.obj") != NULL);
  CHECK(run("closest bad_index.obj torus.obj") == 1);
  CHECK(strstr(err_text, "bad_index.obj") != NULL);

  /* A binary STL that promises 10 triangles and holds 1. */
  memset(stl, 0, sizeof stl);
  stl[80] = 10;
  write_file("truncated.stl", stl, sizeof stl);
  CHECK(run("info truncated.stl") == 1);
  CHECK(strstr(err_text, "truncated.stl") != NULL);

  write_file("truncated.ply", bad_ply, sizeof bad_ply - 1);
  CHECK(run("info truncated.ply") == 1);
  CHECK(strstr(err_text, "truncated.ply") != NULL);

  CHECK(run("info no_such_file.obj") == 1);
  CHECK(strstr(err_text, "no_such_file.obj") != NULL);

  /* A malformed point file: exit 1, the file and line named, and no output
   * file left behind although rows before the bad one were answered. */
  write_file("bad_points.csv", bad_csv, sizeof bad_csv - 1);
  remove("bad_out.csv");
  CHECK(run("closest torus.obj bad_points.csv -o bad_out.csv") == 1);
  CHECK_MSG(strstr(err_text, "bad_points.csv:3") != NULL, "%s", err_text);
  CHECK(!file_exists("bad_out.csv"));
  remove("bad_out.ply");
  CHECK(run("closest torus.obj bad_points.csv -o bad_out.ply") == 1);
  CHECK(!file_exists("bad_out.ply"));
  CHECK(run("distance bad_points.csv torus.obj") == 1);
  CHECK(strstr(err_text, "bad_points.csv:3") != NULL);
  CHECK(run("closest torus.obj no_such_points.csv") == 1);
  CHECK(strstr(err_text, "no_such_points.csv") != NULL);
  /* Rays need six numbers a line. */
  CHECK(run("raycast torus.obj bad_points.csv") == 1);
  CHECK(strstr(err_text, "bad_points.csv") != NULL);
  /* A binary PLY point file that stops inside its second vertex. */
  {
    static const char head[] = "ply\nformat binary_little_endian 1.0\n"
                               "element vertex 2\nproperty double x\n"
                               "property double y\nproperty double z\n"
                               "end_header\n";
    char buf[sizeof head - 1 + 40];
    memcpy(buf, head, sizeof head - 1);
    memset(buf + sizeof head - 1, 0, 40);
    write_file("truncated_points.ply", buf, sizeof buf);
    remove("tp_out.csv");
    CHECK(run("closest torus.obj truncated_points.ply -o tp_out.csv") == 1);
    CHECK(strstr(err_text, "truncated_points.ply") != NULL);
    CHECK(!file_exists("tp_out.csv"));
  }
}

static void case_raycast(void) {
  FILE *f;
  char **lines;
  size_t n, i;
  double rays[NPTS][7];
  f = fopen("rays.csv", "w");
  fprintf(f, "ox,oy,oz,dx,dy,dz,tmax\n");
  for (i = 0; i < NPTS; ++i) {
    double *r = rays[i];
    r[0] = -4 + 8 * urand();
    r[1] = -4 + 8 * urand();
    r[2] = 3;
    r[3] = pts[i][0] - r[0];
    r[4] = pts[i][1] - r[1];
    r[5] = pts[i][2] - r[2];
    r[6] = i % 5 == 0 ? 0.5 : INFINITY;
    if (i % 5 == 0)
      fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", r[0], r[1], r[2], r[3], r[4], r[5],
              r[6]);
    else
      fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", r[0], r[1], r[2], r[3], r[4], r[5]);
  }
  fclose(f);
  CHECK(run("raycast torus.obj rays.csv") == 0);
  n = split_lines(out_text, &lines);
  CHECK(n == NPTS + 1);
  CHECK(n > 0 && strcmp(lines[0], "hit,t,triangle,px,py,pz,nx,ny,nz") == 0);
  for (i = 1; i < n && i <= NPTS; ++i) {
    double v[9], best = INFINITY;
    size_t t;
    prox_ray ray;
    const double *r = rays[i - 1];
    ray.origin = prox_v3(r[0], r[1], r[2]);
    ray.dir = prox_v3(r[3], r[4], r[5]);
    ray.tmin = 0;
    ray.tmax = r[6];
    for (t = 0; t < ntris; ++t) {
      prox_triangle tr = tri_of(t);
      prox_rayhit h;
      if (prox_raycast_triangle(&ray, &tr, &h) && h.t < best) best = h.t;
    }
    if (!parse_row(lines[i], v, 9)) {
      CHECK_MSG(0, "row %zu: '%s'", i, lines[i]);
      continue;
    }
    if (isinf(best)) {
      CHECK_MSG(v[0] == 0 && isinf(v[1]) && v[2] == -1 && isnan(v[3]), "row %zu should miss", i);
    } else {
      CHECK_MSG(v[0] == 1 && fabs(v[1] - best) <= 1e-12 * (1 + best), "row %zu: t %.17g vs %.17g",
                i, v[1], best);
      CHECK(fabs(v[3] - (r[0] + v[1] * r[3])) <= 1e-12 * 8);
    }
  }
  free(lines);
}

/* The value after "key": in a JSON text. */
static double json_num(const char *text, const char *key) {
  char pat[64];
  const char *p;
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  p = strstr(text, pat);
  if (!p) return NAN;
  return strtod(p + strlen(pat), NULL);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void case_distance(void) {
  double d[NPTS], sum = 0, sq = 0;
  int i;
  write_points_csv("points.csv");
  for (i = 0; i < NPTS; ++i) {
    d[i] = sqrt(brute_sq(pts[i]));
    sum += d[i];
    sq += d[i] * d[i];
  }
  qsort(d, NPTS, sizeof *d, cmp_double);
  remove("dist.csv");
  CHECK(run("distance points.csv torus.obj --json -o dist.csv") == 0);
  CHECK(out_text[0] == '{');
  CHECK(json_num(out_text, "count") == NPTS);
  CHECK(fabs(json_num(out_text, "min") - d[0]) <= 1e-12);
  CHECK(fabs(json_num(out_text, "max") - d[NPTS - 1]) <= 1e-12);
  CHECK(fabs(json_num(out_text, "mean") - sum / NPTS) <= 1e-12);
  CHECK(fabs(json_num(out_text, "rms") - sqrt(sq / NPTS)) <= 1e-12);
  /* Nearest rank: the 200th, 380th and 396th of 400. */
  CHECK(fabs(json_num(out_text, "p50") - d[199]) <= 1e-12);
  CHECK(fabs(json_num(out_text, "p95") - d[379]) <= 1e-12);
  CHECK(fabs(json_num(out_text, "p99") - d[395]) <= 1e-12);
  CHECK(strstr(out_text, "\"hausdorff\": null") != NULL);
  {
    char *t = read_all("dist.csv", NULL), **lines;
    size_t n = t ? split_lines(t, &lines) : 0, k;
    CHECK(n == NPTS + 1 && strcmp(lines[0], "x,y,z,distance") == 0);
    for (k = 1; k < n && k <= NPTS; ++k) {
      double v[4], want;
      CHECK(parse_row(lines[k], v, 4));
      want = sqrt(brute_sq(pts[k - 1]));
      CHECK(fabs(v[3] - want) <= 1e-12 * (1 + want));
    }
    if (t) free(lines);
    free(t);
  }
  /* The text summary. */
  CHECK(run("distance points.csv torus.obj") == 0);
  CHECK(strstr(out_text, "p95") && strstr(out_text, "histogram"));
  /* A mesh against itself: every sample on it, Hausdorff 0 (to rounding:
   * a sample is a rounded combination of a triangle's corners). */
  CHECK(run("distance torus.obj torus.obj --samples 3000 --json") == 0);
  CHECK(json_num(out_text, "count") == 3000);
  CHECK(json_num(out_text, "max") <= 1e-14);
  CHECK(json_num(out_text, "hausdorff") <= 1e-14);
  CHECK(strstr(out_text, "\"a_kind\": \"mesh\"") != NULL);
}

static void case_info(void) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  size_t i;
  int c;
  for (i = 0; i < nverts; ++i)
    for (c = 0; c < 3; ++c) {
      lo[c] = fmin(lo[c], verts[i][c]);
      hi[c] = fmax(hi[c], verts[i][c]);
    }
  CHECK(run("info torus.obj --json") == 0);
  CHECK(json_num(out_text, "vertices") == (double)nverts);
  CHECK(json_num(out_text, "triangles") == (double)ntris);
  {
    const char *p = strstr(out_text, "\"min\": [");
    double v[6];
    CHECK(p && sscanf(p, "\"min\": [%lf, %lf, %lf], \"max\": [%lf, %lf, %lf]", &v[0], &v[1], &v[2],
                      &v[3], &v[4], &v[5]) == 6);
    if (p)
      for (c = 0; c < 3; ++c)
        CHECK(v[c] == lo[c] && v[3 + c] == hi[c]);
  }
  CHECK(json_num(out_text, "nodes") >= 1);
  CHECK(json_num(out_text, "depth") >= 1);
  CHECK(json_num(out_text, "bytes_per_triangle") > 0);
  /* Topology, where the library has it: the torus is closed; an open copy
   * (the first 10 triangles left out) has the boundary edges counted here,
   * the edges used once. */
  {
    FILE *f = fopen("open.obj", "w");
    size_t t, e, boundary = 0;
    int once;
    CHECK(strstr(out_text, "\"closed\": true") != NULL);
    CHECK(json_num(out_text, "boundary_edges") == 0);
    CHECK(json_num(out_text, "degenerate_triangles") == 0);
    CHECK(json_num(out_text, "components") == 1);
    CHECK(json_num(out_text, "self_intersections") == 0);
    CHECK(strstr(out_text, "\"sign_method\": \"angle-weighted pseudo-normals\"") != NULL);
    for (i = 0; i < nverts; ++i)
      fprintf(f, "v %.17g %.17g %.17g\n", verts[i][0], verts[i][1], verts[i][2]);
    for (t = 10; t < ntris; ++t)
      fprintf(f, "f %u %u %u\n", tris[t][0] + 1, tris[t][1] + 1, tris[t][2] + 1);
    fclose(f);
    for (t = 10; t < ntris; ++t)
      for (e = 0; e < 3; ++e) {
        uint32_t a = tris[t][e], b = tris[t][(e + 1) % 3], u;
        once = 0;
        for (u = 10; u < ntris; ++u) {
          int k2;
          for (k2 = 0; k2 < 3; ++k2) {
            uint32_t x = tris[u][k2], y = tris[u][(k2 + 1) % 3];
            once += (x == a && y == b) || (x == b && y == a);
          }
        }
        boundary += once == 1;
      }
    CHECK(boundary > 0);
    CHECK(run("info open.obj --json") == 0);
    CHECK(strstr(out_text, "\"closed\": false") != NULL);
    CHECK(strstr(out_text, "\"sign_method\": \"generalized winding number") != NULL);
    CHECK(json_num(out_text, "boundary_edges") == (double)boundary);
  }
  /* Two triangles through each other: one pair (the library's exact
   * test; the count is checked against brute force in test_mesh_sign). */
  {
    FILE *f = fopen("crossing.obj", "w");
    fprintf(f, "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0.5 0.5 -1\nv 0.5 0.5 1\nv 3 3 0.5\n"
               "f 1 2 3\nf 4 5 6\n");
    fclose(f);
    CHECK(run("info crossing.obj --json") == 0);
    CHECK(json_num(out_text, "self_intersections") == 1);
    CHECK(run("info crossing.obj") == 0);
    CHECK(strstr(out_text, "self-intersections    1") != NULL);
  }
  CHECK(run("info torus.obj") == 0);
  CHECK(strstr(out_text, "triangles             288") != NULL);
  CHECK(strstr(out_text, "sign method           angle-weighted pseudo-normals") != NULL);
}

/* Whether the n bytes of needle occur in the first size bytes of hay. */
static const void *find_bytes(const void *hay, size_t size, const char *needle, size_t n) {
  const unsigned char *h = (const unsigned char *)hay;
  size_t i;
  for (i = 0; i + n <= size; ++i)
    if (memcmp(h + i, needle, n) == 0) return h + i;
  return NULL;
}

/* Reads the numbers of the JSON array after "key": [ (up to n). */
static int json_array(const char *text, const char *key, double *v, int n) {
  char pat[64];
  const char *p;
  int k;
  snprintf(pat, sizeof pat, "\"%s\": [", key);
  p = strstr(text, pat);
  if (!p) return 0;
  p += strlen(pat);
  for (k = 0; k < n; ++k) {
    char *end;
    v[k] = strtod(p, &end);
    if (end == p) return 0;
    p = end;
    while (*p == ',' || *p == ' ')
      ++p;
  }
  return *p == ']';
}

/* Checks a grid written by `prox sdf`: the .npy header and the sidecar
 * agree, the grid covers the mesh's box, and every value is the distance
 * at its grid point (brute force, to float rounding); a signed grid has
 * the same magnitudes and some negative values (inside the torus). */
static void check_grid(const char *npy, const char *json, int is_signed) {
  size_t size = 0, i, j, k, hl;
  unsigned char *data = (unsigned char *)read_all(npy, &size);
  char *meta = read_all(json, NULL), want[128];
  double shape[3], origin[3], spacing[3];
  int negative = 0, c;
  CHECK(data && meta);
  if (!data || !meta) {
    free(data);
    free(meta);
    return;
  }
  CHECK(json_array(meta, "shape", shape, 3));
  CHECK(json_array(meta, "origin", origin, 3));
  CHECK(json_array(meta, "spacing", spacing, 3));
  CHECK(memcmp(data, "\x93NUMPY\x01\x00", 8) == 0);
  hl = (size_t)data[8] | (size_t)data[9] << 8;
  CHECK((10 + hl) % 64 == 0 || (10 + hl) % 16 == 0);
  snprintf(want, sizeof want, "'shape': (%.0f, %.0f, %.0f)", shape[0], shape[1], shape[2]);
  CHECK(find_bytes(data, 10 + hl, want, strlen(want)) != NULL);
  CHECK(find_bytes(data, 10 + hl, "'descr': '<f4'", 14) != NULL);
  CHECK(find_bytes(data, 10 + hl, "'fortran_order': False", 22) != NULL);
  CHECK(size == 10 + hl + 4 * (size_t)(shape[0] * shape[1] * shape[2]));
  if (size != 10 + hl + 4 * (size_t)(shape[0] * shape[1] * shape[2])) {
    free(data);
    free(meta);
    return;
  }
  for (c = 0; c < 3; ++c) {
    double lo = INFINITY, hi = -INFINITY;
    for (i = 0; i < nverts; ++i) {
      lo = fmin(lo, verts[i][c]);
      hi = fmax(hi, verts[i][c]);
    }
    CHECK(origin[c] <= lo && origin[c] + (shape[2 - c] - 1) * spacing[c] >= hi);
  }
  for (k = 0; k < (size_t)shape[0]; ++k)
    for (j = 0; j < (size_t)shape[1]; ++j)
      for (i = 0; i < (size_t)shape[2]; ++i) {
        float v;
        double p[3], d;
        size_t at = (k * (size_t)shape[1] + j) * (size_t)shape[2] + i;
        memcpy(&v, data + 10 + hl + 4 * at, 4);
        p[0] = origin[0] + (double)i * spacing[0];
        p[1] = origin[1] + (double)j * spacing[1];
        p[2] = origin[2] + (double)k * spacing[2];
        d = sqrt(brute_sq(p));
        negative += v < 0;
        if (is_signed && d > 1e-3)
          CHECK_MSG((v < 0) == brute_inside(p), "grid [%zu][%zu][%zu]: sign", k, j, i);
        CHECK_MSG(fabs(fabs((double)v) - d) <= 1e-6 * (1 + d), "grid [%zu][%zu][%zu]: %g vs %g", k,
                  j, i, (double)v, d);
      }
  CHECK(is_signed ? negative > 0 : negative == 0);
  free(data);
  free(meta);
}

static void case_grid(void) {
  int rc_slice, rc_sdf;
  /* The grid loops and files, without the sign. */
  remove("ugrid.npy");
  remove("ugrid.json");
  CHECK(run("sdf torus.obj --res 12 --pad 0.2 --unsigned -o ugrid.npy") == 0);
  check_grid("ugrid.npy", "ugrid.json", 0);
  remove("slice.png");
  remove("grid.npy");
  remove("grid.json");
  rc_slice = run("slice torus.obj -o slice.png --size 64");
  if (rc_slice == 1) {
    /* No PNG in this build: said so, nothing written. */
    CHECK(strstr(err_text, "no PNG support") != NULL);
    CHECK(!file_exists("slice.png"));
  } else {
    char *png = read_all("slice.png", NULL);
    CHECK(rc_slice == 0 && png && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    free(png);
  }
  rc_sdf = run("sdf torus.obj --res 8 -o grid.npy");
  CHECK(rc_sdf == 0);
  check_grid("grid.npy", "grid.json", 1);
  /* closest --signed: the distance column is the brute-force distance,
   * negative exactly inside (ray parity). */
  write_points_csv("points.csv");
  CHECK(run("closest torus.obj points.csv --signed") == 0);
  {
    char **lines;
    size_t n = split_lines(out_text, &lines), i, inside = 0;
    CHECK(n == NPTS + 1);
    for (i = 1; i < n && i <= NPTS; ++i) {
      double r[8], want = sqrt(brute_sq(pts[i - 1]));
      int in = brute_inside(pts[i - 1]);
      CHECK(parse_row(lines[i], r, 8));
      inside += (size_t)in;
      CHECK_MSG(fabs(fabs(r[6]) - want) <= 1e-12 * (1 + want), "row %zu", i);
      if (want > 0) CHECK_MSG((r[6] < 0) == in, "row %zu: sign", i);
    }
    CHECK(inside > 0);
    free(lines);
  }
}

/* Output names near the 255-byte limit of a file name: the temporary name
 * beside the target must still be a valid name (it once held the name
 * twice, and such a run failed). */
static int dir_has(const char *prefix, int remove_them);

static void case_long_names(void) {
  char name[256], json[256], cmd[600];
  memset(name, 'g', 236);
  memcpy(name + 236, ".npy", 5); /* 240 bytes; its sidecar .json 241 */
  memcpy(json, name, 236);
  memcpy(json + 236, ".json", 6);
  remove(name);
  remove(json);
  snprintf(cmd, sizeof cmd, "sdf torus.obj --res 8 -o %s", name);
  CHECK_MSG(run(cmd) == 0, "%s", err_text);
  check_grid(name, json, 1);
  CHECK(!dir_has(".ggg", 0));
  remove(name);
  remove(json);
  write_points_csv("points.csv");
  memcpy(name + 236, ".csv", 5);
  remove(name);
  snprintf(cmd, sizeof cmd, "closest torus.obj points.csv -o %s", name);
  CHECK_MSG(run(cmd) == 0, "%s", err_text);
  {
    char *t = read_all(name, NULL);
    CHECK(t != NULL);
    if (t) check_closest_csv(t, INFINITY);
    free(t);
  }
  CHECK(!dir_has(".ggg", 0));
  remove(name);
}

/* Pixel (x, y) of an RGB picture of width ww. */
static const unsigned char *pix(const unsigned char *rgb, int ww, int x, int y) {
  return rgb + 3 * ((size_t)y * (size_t)ww + (size_t)x);
}

/* The heat map renderer on a known field: the signed distance to a circle
 * of radius 1.2 (in pixels / 50), negative inside. */
static void case_heatmap(void) {
  enum { W = 300, H = 200 };
  static float v[W * H];
  int x, y, WW = cli_heatmap_width(W, H), contour = 0, wrong = 0, ink = 0;
  unsigned char *rgb;
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) {
      double px = (x - 150) / 50.0, py = (y - 100) / 50.0;
      v[y * W + x] = (float)(sqrt(px * px + py * py) - 1.2);
    }
  CHECK(WW > W + 40);
  rgb = malloc((size_t)WW * (size_t)H * 3);
  cli_heatmap_render(v, W, H, 1, rgb);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x) {
      const unsigned char *c = pix(rgb, WW, x, y);
      double px = (x - 150) / 50.0, py = (y - 100) / 50.0;
      double d = sqrt(px * px + py * py) - 1.2;
      int black = c[0] == 0 && c[1] == 0 && c[2] == 0;
      /* Black exactly on the zero contour (within a pixel of it). */
      if (black) {
        contour++;
        wrong += fabs(d) > 1.5 / 50.0;
      } else if (d < -0.1) {
        wrong += !(c[2] > c[0]); /* inside: blue */
      } else if (d > 0.1) {
        wrong += !(c[0] > c[2]); /* outside: red */
      }
    }
  CHECK_MSG(wrong == 0, "%d pixels of the wrong colour", wrong);
  /* The contour: about the circle's circumference in pixels. */
  CHECK_MSG(contour > 300 && contour < 1000, "%d contour pixels", contour);
  /* The colour bar: red at the top, blue at the bottom, white-ish in the
   * middle; labels in black right of it. */
  {
    const unsigned char *top = pix(rgb, WW, W + 20, 6);
    const unsigned char *bot = pix(rgb, WW, W + 20, H - 7);
    const unsigned char *mid = pix(rgb, WW, W + 20, H / 2 + 2);
    CHECK(top[0] > 150 && top[2] < 100);
    CHECK(bot[2] > 150 && bot[0] < 100);
    CHECK(mid[0] > 200 && mid[1] > 200 && mid[2] > 200);
    for (y = 0; y < H; ++y)
      for (x = W + 32; x < WW; ++x) {
        const unsigned char *c = pix(rgb, WW, x, y);
        ink += c[0] == 0 && c[1] == 0 && c[2] == 0;
      }
    CHECK_MSG(ink > 100, "%d label pixels", ink);
  }
  free(rgb);
  /* The sequential map: dark at 0, bright at the top. */
  for (y = 0; y < H * W; ++y)
    v[y] = (float)fabs(v[y]);
  rgb = malloc((size_t)WW * (size_t)H * 3);
  cli_heatmap_render(v, W, H, 0, rgb);
  {
    const unsigned char *zero = pix(rgb, WW, 150 + 60, 100);
    const unsigned char *far = pix(rgb, WW, 0, 0);
    CHECK(zero[0] + zero[1] + zero[2] < far[0] + far[1] + far[2]);
  }
  free(rgb);
  /* The file: a PNG where the build has libpng, else exit 1 and said so. */
  remove("heat.png");
  if (cli_png_available()) {
    char *png;
    CHECK(cli_heatmap_png("heat.png", v, W, H, 1) == 0);
    png = read_all("heat.png", NULL);
    CHECK(png && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    free(png);
  } else {
    CHECK(cli_heatmap_png("heat.png", v, W, H, 1) == 1);
    CHECK(!file_exists("heat.png"));
  }
}

static void case_demo(void) {
  remove("demo_slice.png");
  CHECK(run("demo --small --threads 2") == 0);
  CHECK(strstr(out_text, "triangles") != NULL);
  CHECK(strstr(out_text, "closest") != NULL);
  CHECK(strstr(out_text, "raycast") != NULL);
  if (strstr(out_text, "no PNG support") == NULL) {
    char *png = read_all("demo_slice.png", NULL);
    CHECK(png && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    free(png);
  }
}

static void case_stream(void) {
  /* Points written through a pipe, more than one chunk. */
  const char *env = getenv("PROX_CLI_STREAM_N"), *scale = getenv("PROX_TEST_SCALE");
  long n = env ? atol(env) : 300000, i;
  /* The reduced runs of CI (sanitizers, valgrind) scale it down, to no
   * fewer than two chunks of the command's reader. */
  if (!env && scale && atof(scale) > 0 && atof(scale) < 1) n = (long)((double)n * atof(scale));
  if (n < 140000) n = 140000;
  char cmd[4096];
  FILE *p;
  int st;
  size_t size, lines = 0, k;
  char *text;
  remove("stream_out.csv");
  snprintf(cmd, sizeof cmd, "%s closest torus.obj - -o stream_out.csv --quiet 2>cli_err.txt",
           PROX_EXE);
  p = popen(cmd, "w");
  CHECK(p != NULL);
  if (!p) return;
  for (i = 0; i < n; ++i)
    fprintf(p, "%ld %ld.5 0.25\n", i % 7 - 3, i % 5 - 2);
  st = pclose(p);
  CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
  text = read_all("stream_out.csv", &size);
  CHECK(text != NULL);
  if (!text) return;
  for (k = 0; k < size; ++k)
    lines += text[k] == '\n';
  CHECK_MSG(lines == (size_t)n + 1, "%zu lines for %ld points", lines, n);
  /* The last row is the last point, answered right. */
  {
    char *last;
    double v[8], q[3];
    text[size - 1] = '\0';
    last = strrchr(text, '\n') + 1;
    q[0] = (double)((n - 1) % 7 - 3);
    q[1] = (double)((n - 1) % 5 - 2) + ((n - 1) % 5 - 2 < 0 ? -0.5 : 0.5);
    q[2] = 0.25;
    CHECK(parse_row(last, v, 8));
    CHECK(v[0] == q[0] && v[1] == q[1] && v[2] == q[2]);
    CHECK(fabs(v[6] - sqrt(brute_sq(q))) <= 1e-12);
  }
  free(text);
}

/* ---- interrupted runs ---------------------------------------------------- */

/* Whether the current directory holds a file whose name starts with
 * prefix; with remove_them, deletes those files instead (and says 0). */
static int dir_has(const char *prefix, int remove_them) {
  DIR *d = opendir(".");
  struct dirent *e;
  int found = 0;
  if (!d) return 0;
  while ((e = readdir(d)) != NULL)
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
      if (remove_them)
        remove(e->d_name);
      else
        found = 1;
    }
  closedir(d);
  return found;
}

static void sleep_ms(long ms) {
  struct timespec ts;
  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (ms % 1000) * 1000000L;
  nanosleep(&ts, NULL);
}

/* Waits up to `seconds` for the child; 1 with its status, 0 if it runs. */
static int wait_for(pid_t pid, int *status, double seconds) {
  double end = cli_now() + seconds;
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return 1;
    if (r < 0 || cli_now() > end) return 0;
    sleep_ms(5);
  }
}

/* `prox closest torus.obj - -o out.csv` reading points from a pipe that
 * stays open: after the first points it waits for more, its output under
 * the temporary name (.out.csv.tmpPID.csv), for as long as the test
 * wants, whatever the machine's load. The test waits for that file to
 * appear (polling the directory, no fixed sleep), sends `sig`, and checks
 * that prox died of that signal and left neither the temporary file nor
 * out.csv. */
static void interrupt_with(int sig, const char *name) {
  int fd[2], status = 0;
  pid_t prox, feeder;
  double end;
  char tmp[64];
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  remove("out.csv");
  dir_has(".out.csv.tmp", 1); /* what a failed run may have left */
  if (pipe(fd) != 0) {
    CHECK_MSG(0, "pipe failed");
    return;
  }
  prox = fork();
  if (prox == 0) {
    sigset_t none;
    size_t k;
    int out = open("cli_out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int err = open("cli_err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    /* Default actions and nothing blocked, whatever ctest inherited (a
     * background job ignores SIGINT; prox leaves ignored signals alone). */
    for (k = 0; k < sizeof sigs / sizeof *sigs; ++k)
      signal(sigs[k], SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    dup2(fd[0], 0);
    if (out >= 0) dup2(out, 1);
    if (err >= 0) dup2(err, 2);
    close(fd[0]);
    close(fd[1]);
    execl(PROX_EXE, PROX_EXE, "closest", "torus.obj", "-", "-o", "out.csv", "--quiet", "--threads",
          "2", (char *)NULL);
    _exit(127);
  }
  /* The points, from a process of their own (the pipe holds only so
   * much): 2.2 MB, more than the reader's first buffer (1 MB, read before
   * prox opens its output), so prox opens its output, answers what came
   * and waits for the rest. The write end stays open here: no end of
   * input. */
  feeder = fork();
  if (feeder == 0) {
    FILE *f;
    int i;
    signal(SIGPIPE, SIG_DFL);
    close(fd[0]);
    f = fdopen(fd[1], "w");
    if (!f) _exit(1);
    for (i = 0; i < 200000; ++i)
      fprintf(f, "%d %d.5 0.25\n", i % 7 - 3, i % 5 - 2);
    fflush(f);
    _exit(0);
  }
  close(fd[0]);
  CHECK(prox > 0 && feeder > 0);
  if (prox <= 0 || feeder <= 0) {
    close(fd[1]);
    return;
  }
  /* Its temporary file (cli_outpath_begin's name) appears once the mesh
   * is loaded and its tree built: a generous deadline for a loaded
   * machine. */
  snprintf(tmp, sizeof tmp, ".out.csv.tmp%ld.csv", (long)prox);
  end = cli_now() + 120;
  while (!file_exists(tmp)) {
    if (waitpid(prox, &status, WNOHANG) == prox) {
      free(err_text);
      err_text = read_all("cli_err.txt", NULL);
      CHECK_MSG(0, "%s: prox ended before it created its temporary file (status %d): %s", name,
                status, err_text ? err_text : "");
      close(fd[1]);
      waitpid(feeder, NULL, 0);
      return;
    }
    if (cli_now() > end) {
      CHECK_MSG(0, "%s: no temporary file %s after 120 s", name, tmp);
      kill(prox, SIGKILL);
      waitpid(prox, &status, 0);
      close(fd[1]);
      waitpid(feeder, NULL, 0);
      return;
    }
    sleep_ms(5);
  }
  kill(prox, sig);
  if (!wait_for(prox, &status, 60)) {
    CHECK_MSG(0, "%s: prox still runs 60 s after the signal", name);
    kill(prox, SIGKILL);
    waitpid(prox, &status, 0);
  } else {
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == sig,
              "%s: prox should die of the signal (status %d: exited %d, signal %d)", name, status,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1,
              WIFSIGNALED(status) ? WTERMSIG(status) : -1);
  }
  /* The reader's end is gone with prox: the feeder, if still writing,
   * fails and ends. */
  close(fd[1]);
  waitpid(feeder, NULL, 0);
  CHECK_MSG(!dir_has(".out.csv.tmp", 0), "%s: the temporary file was left behind", name);
  CHECK_MSG(!file_exists("out.csv"), "%s: out.csv was written", name);
  dir_has(".out.csv.tmp", 1);
}

static void case_interrupt(void) {
  /* Ctrl-C, kill's default, a closed terminal. */
  interrupt_with(SIGINT, "SIGINT");
  interrupt_with(SIGTERM, "SIGTERM");
  interrupt_with(SIGHUP, "SIGHUP");
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*run)(void);
  } cases[] = {{"help", case_help},
               {"usage", case_usage},
               {"closest", case_closest},
               {"closest_stdin", case_closest_stdin},
               {"closest_ply", case_closest_ply},
               {"bad_input", case_bad_input},
               {"raycast", case_raycast},
               {"distance", case_distance},
               {"info", case_info},
               {"grid", case_grid},
               {"long_names", case_long_names},
               {"heatmap", case_heatmap},
               {"demo", case_demo},
               {"stream", case_stream},
               {"interrupt", case_interrupt}};
  size_t i;
  int ran = 0;
  for (i = 0; i < sizeof cases / sizeof *cases; ++i)
    if (argc < 2 || strcmp(argv[1], cases[i].name) == 0) {
      /* Each case in a directory of its own: CTest runs them in parallel. */
      char dir[64];
      snprintf(dir, sizeof dir, "case_%s", cases[i].name);
      mkdir(dir, 0777);
      if (chdir(dir) != 0) {
        fprintf(stderr, "cannot enter %s\n", dir);
        return 1;
      }
      rng_state = 12345;
      setup();
      cases[i].run();
      if (chdir("..") != 0) return 1;
      ran++;
    }
  if (!ran) {
    fprintf(stderr, "unknown case %s\n", argc > 1 ? argv[1] : "");
    return 1;
  }
  free(out_text);
  free(err_text);
  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
