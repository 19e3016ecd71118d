/* SPDX-License-Identifier: MIT */
/* The mesh readers of prox_io (tools/io) on the real meshes of
 * PROX_MESH_DIR (environment variable, else the compile-time default; the
 * test exits 77, CTest's skip code, when the folder is absent).
 *
 * Oracles, none of them the readers' own output:
 * - the folder's README.md table: for every file listed there, the vertex
 *   and triangle counts and the bounding box (as printed, about 6
 *   significant digits). The README counts STL vertices after merging
 *   exactly equal positions: STL files are read with weld on, and must
 *   also give 3 vertices per triangle with weld off;
 * - bunny.obj against its derived copies (the README: bunny.ply has the
 *   same vertices and indices in float32, bunny.stl the OBJ's triangles in
 *   float32, bunny_ascii.stl the OBJ's decimal text): every coordinate of
 *   the PLY and binary STL is the float32 rounding of the OBJ's double, and
 *   the ascii STL gives the OBJ's doubles bit for bit;
 * - real files cut at many offsets (binary PLY and STL: every cut fails;
 *   ascii STL: every cut before its final endsolid fails) and with flipped
 *   bytes: an error naming the file, or a mesh whose indices are in range
 *   and whose coordinates are finite; under ASan no leak or bad access. */
#include "harness.h"
#include "prox_io.h"
#include "rng.h"

#include <stdint.h>

static const char *mesh_dir = NULL;
static int mesh_missing = 0;

static char *path_of(const char *file) {
  static char buf[4][1024];
  static int k = 0;
  char *p = buf[k++ % 4];
  snprintf(p, 1024, "%s/%s", mesh_dir, file);
  return p;
}

/* The whole of a file, NULL when absent. */
static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *d;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  d = (char *)malloc((size_t)n + 1);
  if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
    free(d);
    d = NULL;
  }
  fclose(f);
  if (d) d[n] = '\0';
  *size = (size_t)n;
  return d;
}

static int read_mesh(const char *file, int weld, prox_io_mesh *m) {
  prox_io_mesh_options o = {0};
  prox_error e;
  int st;
  o.weld = weld;
  st = (int)prox_io_read_mesh(path_of(file), &o, m, &e);
  CHECK_MSG(st == PROX_OK, "%s: %s", file, e.message);
  return st == PROX_OK;
}

/* One row of the README's file table. */
typedef struct row {
  char file[64];
  long vertices, triangles;
  double lo[3], hi[3];
} row;

/* Parses "| `name` | format | V [(merged)] | T | [a, b, c] → [d, e, f] |".
 * Returns 1 for a row of the files table. */
static int parse_row(const char *line, row *r) {
  const char *p = line, *q;
  char *end;
  int a;
  if (strncmp(p, "| `", 3) != 0) return 0;
  p += 3;
  q = strchr(p, '`');
  if (!q || (size_t)(q - p) >= sizeof r->file) return 0;
  memcpy(r->file, p, (size_t)(q - p));
  r->file[q - p] = '\0';
  p = strchr(q, '|'); /* before format */
  if (!p || !(p = strchr(p + 1, '|'))) return 0;
  r->vertices = strtol(p + 1, &end, 10);
  if (end == p + 1) return 0;
  p = strchr(end, '|');
  if (!p) return 0;
  r->triangles = strtol(p + 1, &end, 10);
  if (end == p + 1) return 0;
  p = strchr(end, '[');
  if (!p) return 0;
  for (a = 0; a < 3; ++a) {
    r->lo[a] = strtod(p + 1, &end);
    p = end;
    if (*p != ',' && *p != ']') return 0;
  }
  p = strchr(p, '[');
  if (!p) return 0;
  for (a = 0; a < 3; ++a) {
    r->hi[a] = strtod(p + 1, &end);
    p = end;
    if (*p != ',' && *p != ']') return 0;
  }
  return 1;
}

/* |x - want| within the README's printing (about 6 significant digits or 6
 * decimals, whichever is coarser). */
static int near_printed(double x, double want) {
  return fabs(x - want) <= 6e-7 + 6e-6 * fabs(want);
}

static void test_readme_table(void) {
  size_t size;
  char *readme = slurp(path_of("README.md"), &size);
  char *line;
  int rows = 0, stl = 0, ply = 0, obj = 0;
  CHECK_MSG(readme != NULL, "cannot read %s", path_of("README.md"));
  if (!readme) return;
  for (line = strtok(readme, "\n"); line; line = strtok(NULL, "\n")) {
    row r;
    prox_io_mesh m;
    prox_io_format f;
    size_t i;
    double lo[3] = {INFINITY, INFINITY, INFINITY};
    double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int a;
    if (!parse_row(line, &r)) continue;
    ++rows;
    f = prox_io_format_from_path(r.file);
    stl += f == PROX_IO_FORMAT_STL;
    ply += f == PROX_IO_FORMAT_PLY;
    obj += f == PROX_IO_FORMAT_OBJ;
    h_case_begin();
    if (!read_mesh(r.file, f == PROX_IO_FORMAT_STL, &m)) continue;
    CHECK_INT_EQ(m.vertex_count, r.vertices);
    CHECK_INT_EQ(m.triangle_count, r.triangles);
    CHECK(m.format == f);
    for (i = 0; i < m.vertex_count; ++i)
      for (a = 0; a < 3; ++a) {
        double v = m.vertices[3 * i + (size_t)a];
        if (v < lo[a]) lo[a] = v;
        if (v > hi[a]) hi[a] = v;
      }
    for (a = 0; a < 3; ++a) {
      CHECK_MSG(near_printed(lo[a], r.lo[a]), "min[%d] %.9g vs %.9g", a, lo[a], r.lo[a]);
      CHECK_MSG(near_printed(hi[a], r.hi[a]), "max[%d] %.9g vs %.9g", a, hi[a], r.hi[a]);
    }
    for (i = 0; i < 3 * m.triangle_count; ++i)
      if (m.triangles[i] >= m.vertex_count) break;
    CHECK(i == 3 * m.triangle_count);
    if (f == PROX_IO_FORMAT_STL) {
      /* without weld: three vertices per triangle, same triangles */
      prox_io_mesh u;
      CHECK_INT_EQ(m.vertices_welded + m.vertex_count, 3 * m.triangle_count);
      if (read_mesh(r.file, 0, &u)) {
        CHECK_INT_EQ(u.vertex_count, 3 * r.triangles);
        CHECK_INT_EQ(u.triangle_count, r.triangles);
        for (i = 0; i < 3 * u.triangle_count && i < 3 * m.triangle_count; ++i) {
          const double *p = &u.vertices[3 * (size_t)u.triangles[i]];
          const double *q = &m.vertices[3 * (size_t)m.triangles[i]];
          if (p[0] != q[0] || p[1] != q[1] || p[2] != q[2]) break;
        }
        CHECK(i == 3 * u.triangle_count);
        prox_io_mesh_free(&u);
      }
    }
    if (h_case_failed()) h_note("file %s", r.file);
    prox_io_mesh_free(&m);
  }
  /* The README lists 13 files of all three formats. */
  CHECK_MSG(rows >= 13 && stl >= 3 && ply >= 2 && obj >= 8, "README rows %d (obj %d ply %d stl %d)",
            rows, obj, ply, stl);
  free(readme);
}

static void test_bunny_formats(void) {
  prox_io_mesh o, p, s, a, w;
  size_t i;
  long bad_ply = 0, bad_stl = 0, bad_ascii = 0, bad_idx = 0;
  if (!read_mesh("bunny.obj", 0, &o)) return;
  if (read_mesh("bunny.ply", 0, &p)) {
    CHECK_INT_EQ(p.vertex_count, o.vertex_count);
    CHECK_INT_EQ(p.triangle_count, o.triangle_count);
    CHECK(p.binary);
    for (i = 0; i < 3 * o.vertex_count && i < 3 * p.vertex_count; ++i)
      bad_ply += p.vertices[i] != (double)(float)o.vertices[i];
    for (i = 0; i < 3 * o.triangle_count && i < 3 * p.triangle_count; ++i)
      bad_idx += p.triangles[i] != o.triangles[i];
    CHECK_INT_EQ(bad_ply, 0);
    CHECK_INT_EQ(bad_idx, 0);
    prox_io_mesh_free(&p);
  }
  if (read_mesh("bunny.stl", 0, &s)) {
    CHECK_INT_EQ(s.triangle_count, o.triangle_count);
    for (i = 0; i < 3 * o.triangle_count && i < 3 * s.triangle_count; ++i) {
      int k;
      for (k = 0; k < 3; ++k)
        bad_stl += s.vertices[3 * (size_t)s.triangles[i] + (size_t)k] !=
                   (double)(float)o.vertices[3 * (size_t)o.triangles[i] + (size_t)k];
    }
    CHECK_INT_EQ(bad_stl, 0);
    prox_io_mesh_free(&s);
  }
  if (read_mesh("bunny_ascii.stl", 0, &a)) {
    CHECK_INT_EQ(a.triangle_count, o.triangle_count);
    for (i = 0; i < 3 * o.triangle_count && i < 3 * a.triangle_count; ++i) {
      int k;
      for (k = 0; k < 3; ++k)
        bad_ascii += a.vertices[3 * (size_t)a.triangles[i] + (size_t)k] !=
                     o.vertices[3 * (size_t)o.triangles[i] + (size_t)k];
    }
    CHECK_INT_EQ(bad_ascii, 0);
    prox_io_mesh_free(&a);
  }
  /* Welded ascii STL: the vertices referenced by the OBJ, first-occurrence
   * order (the README: 35947 - 1113 unreferenced = 34834). */
  if (read_mesh("bunny_ascii.stl", 1, &w)) {
    CHECK_INT_EQ(w.vertex_count, o.vertex_count - 1113);
    CHECK_INT_EQ(w.triangles[0], 0);
    CHECK_INT_EQ(w.triangles[1], 1);
    CHECK_INT_EQ(w.triangles[2], 2);
    prox_io_mesh_free(&w);
  }
  prox_io_mesh_free(&o);
}

/* Cuts and flips of a real file: every cut in [0, must_fail_before) fails
 * with a message naming the file; flips never crash and give an error or
 * a mesh that holds together. */
static void mutate(const char *file, long cuts, long flips, int ascii_stl) {
  size_t size, i, must;
  char *data = slurp(path_of(file), &size);
  prox_io_format f = prox_io_format_from_path(file);
  oracle_rng rng = oracle_rng_make(0xC0FFEEu + size);
  long k, fails = 0;
  CHECK_MSG(data != NULL, "cannot read %s", file);
  if (!data) return;
  must = size;
  if (ascii_stl) {
    /* the start of the last line, "endsolid NAME" */
    char *last = data + size;
    while (last > data && (last[-1] == '\n' || last[-1] == '\r'))
      --last;
    while (last > data && last[-1] != '\n')
      --last;
    must = (size_t)(last - data) + 8;
  }
  for (k = 0; k < cuts; ++k) {
    size_t cut = k < cuts / 4 ? (size_t)k * 37 % size : (size_t)(oracle_rng_next(&rng) % size);
    prox_io_mesh m;
    prox_error e;
    int st;
    if (k == cuts - 1) cut = size - 1;
    st = (int)prox_io_parse_mesh(file, f, data, cut, NULL, &m, &e);
    if (cut < must) {
      int ok = st == PROX_ERROR_PARSE && strncmp(e.message, file, strlen(file)) == 0 &&
               m.vertices == NULL;
      if (!ok && ++fails <= 5)
        CHECK_MSG(0, "%s cut at %zu: status %d '%s'", file, cut, st, e.message);
    }
    prox_io_mesh_free(&m);
  }
  CHECK_INT_EQ(fails, 0);
  for (k = 0; k < flips; ++k) {
    char *copy = (char *)malloc(size);
    prox_io_mesh m;
    prox_error e;
    int st, j;
    memcpy(copy, data, size);
    for (j = 0; j < 4; ++j) {
      /* mostly near the start, where the header and structure are */
      size_t at = (j & 1) ? (size_t)(oracle_rng_next(&rng) % (size < 2048 ? size : 2048))
                          : (size_t)(oracle_rng_next(&rng) % size);
      copy[at] = (char)oracle_rng_next(&rng);
    }
    st = (int)prox_io_parse_mesh(file, f, copy, size, NULL, &m, &e);
    if (st == PROX_OK) {
      for (i = 0; i < 3 * m.triangle_count; ++i)
        if (m.triangles[i] >= m.vertex_count) break;
      CHECK(i == 3 * m.triangle_count);
      for (i = 0; i < 3 * m.vertex_count; ++i)
        if (!isfinite(m.vertices[i])) break;
      CHECK(i == 3 * m.vertex_count);
    } else {
      CHECK_MSG(strncmp(e.message, file, strlen(file)) == 0, "%s", e.message);
    }
    prox_io_mesh_free(&m);
    free(copy);
  }
  free(data);
}

static void test_mutations(void) {
  mutate("bunny.ply", h_count(300), h_count(200), 0);
  mutate("cycloidal.ply", h_count(300), h_count(200), 0);
  mutate("bunny.stl", h_count(300), h_count(100), 0);
  mutate("adis16480.stl", h_count(60), h_count(40), 1);
  /* OBJ has no counts: a cut is often a valid smaller mesh, so only the
   * flips and the absence of crashes and leaks are checked. */
  mutate("teapot.obj", 0, h_count(300), 0);
  mutate("spot.obj", 0, h_count(300), 0);
}

int main(int argc, char **argv) {
  const char *env = getenv("PROX_MESH_DIR");
  FILE *f;
  h_init(argc, argv);
#ifdef PROX_MESH_DIR
  mesh_dir = PROX_MESH_DIR;
#endif
  if (env && *env) mesh_dir = env;
  if (!mesh_dir) mesh_dir = "../shared/data/meshes";
  f = fopen(path_of("README.md"), "rb");
  if (f)
    fclose(f);
  else
    mesh_missing = 1;
  if (mesh_missing) {
    const char *req = getenv("PROX_REQUIRE_MESHES");
    printf("mesh folder %s (README.md) not found: skipping\n", mesh_dir);
    return req && *req == '1' ? 1 : 77;
  }
  H_RUN(test_readme_table);
  H_RUN(test_bunny_formats);
  H_RUN(test_mutations);
  return h_finish();
}
