/* SPDX-License-Identifier: MIT */
/* meshload.h: the tests' loader of a triangle mesh by file extension:
 * .obj through objload.h, binary little-endian .ply (vertex x, y, z of any
 * scalar type, other vertex properties skipped; faces as a list property
 * of any integer types, polygons split into fans, other face properties
 * skipped) and ASCII .stl ("solid" header; each facet gets its own three
 * vertices, nothing is welded). Only what the test meshes need; the
 * library's real readers are elsewhere. Header only (static functions). */
#ifndef PROX_TEST_MESHLOAD_H
#define PROX_TEST_MESHLOAD_H

#include "objload.h"

/* Size in bytes of a PLY scalar type, 0 if unknown. */
static inline int ml_type_size(const char *t) {
  if (!strcmp(t, "char") || !strcmp(t, "uchar") || !strcmp(t, "int8") || !strcmp(t, "uint8"))
    return 1;
  if (!strcmp(t, "short") || !strcmp(t, "ushort") || !strcmp(t, "int16") || !strcmp(t, "uint16"))
    return 2;
  if (!strcmp(t, "int") || !strcmp(t, "uint") || !strcmp(t, "float") || !strcmp(t, "int32") ||
      !strcmp(t, "uint32") || !strcmp(t, "float32"))
    return 4;
  if (!strcmp(t, "double") || !strcmp(t, "float64")) return 8;
  return 0;
}

/* Reads a little-endian scalar of PLY type t at p as a double. */
static inline double ml_read(const unsigned char *p, const char *t) {
  unsigned char b[8];
  int n = ml_type_size(t), i;
  for (i = 0; i < 8; ++i)
    b[i] = i < n ? p[i] : 0;
  if (!strcmp(t, "float") || !strcmp(t, "float32")) {
    float f;
    memcpy(&f, b, 4);
    return f;
  }
  if (!strcmp(t, "double") || !strcmp(t, "float64")) {
    double d;
    memcpy(&d, b, 8);
    return d;
  }
  {
    uint64_t u = 0;
    for (i = n - 1; i >= 0; --i)
      u = (u << 8) | b[i];
    if (t[0] != 'u') { /* signed: sign-extend */
      int64_t s = (int64_t)(u << (64 - 8 * n)) >> (64 - 8 * n);
      return (double)s;
    }
    return (double)u;
  }
}

typedef struct ml_prop {
  char type[64], count_type[64], name[64];
  int is_list;
} ml_prop;

static inline int ml_load_ply(const char *path, objmesh *m, char *err, size_t len) {
  FILE *f = fopen(path, "rb");
  char line[512];
  ml_prop vp[32], fp[32];
  int nvp = 0, nfp = 0, in = 0, ok = 0, i;
  long nv = 0, nf = 0;
  unsigned char buf[1024];
  memset(m, 0, sizeof *m);
  if (!f) {
    snprintf(err, len, "%.300s: cannot open", path);
    return 0;
  }
  while (fgets(line, sizeof line, f)) {
    char a[64], b[64], c[64], d[64], e[64];
    int k = sscanf(line, "%63s %63s %63s %63s %63s", a, b, c, d, e);
    if (k >= 1 && !strcmp(a, "end_header")) {
      ok = 1;
      break;
    }
    if (k >= 2 && !strcmp(a, "format") && strcmp(b, "binary_little_endian")) break;
    if (k == 3 && !strcmp(a, "element")) {
      in = !strcmp(b, "vertex") ? 1 : !strcmp(b, "face") ? 2 : 3;
      if (in == 1) nv = atol(c);
      if (in == 2) nf = atol(c);
      if (in == 3 && atol(c) != 0) break; /* other elements: unsupported */
    }
    if (k >= 3 && !strcmp(a, "property") && (in == 1 || in == 2)) {
      ml_prop *p = in == 1 ? &vp[nvp] : &fp[nfp];
      if ((in == 1 ? nvp : nfp) >= 32) break;
      memset(p, 0, sizeof *p);
      if (!strcmp(b, "list") && k == 5) {
        p->is_list = 1;
        snprintf(p->count_type, sizeof p->count_type, "%s", c);
        snprintf(p->type, sizeof p->type, "%s", d);
        snprintf(p->name, sizeof p->name, "%s", e);
      } else {
        snprintf(p->type, sizeof p->type, "%s", b);
        snprintf(p->name, sizeof p->name, "%s", c);
      }
      if (in == 1)
        ++nvp;
      else
        ++nfp;
    }
  }
  if (!ok) {
    fclose(f);
    snprintf(err, len, "%.300s: unsupported PLY header", path);
    return 0;
  }
  for (i = 0; i < nv; ++i) {
    double p[3] = {0, 0, 0};
    int j;
    for (j = 0; j < nvp; ++j) {
      int s = ml_type_size(vp[j].type);
      if (vp[j].is_list || s == 0 || fread(buf, (size_t)s, 1, f) != 1) {
        ok = 0;
        break;
      }
      if (!strcmp(vp[j].name, "x")) p[0] = ml_read(buf, vp[j].type);
      if (!strcmp(vp[j].name, "y")) p[1] = ml_read(buf, vp[j].type);
      if (!strcmp(vp[j].name, "z")) p[2] = ml_read(buf, vp[j].type);
    }
    if (!ok || !obj_push_vertex(m, p)) {
      ok = 0;
      break;
    }
  }
  for (i = 0; ok && i < nf; ++i) {
    int j;
    for (j = 0; j < nfp && ok; ++j) {
      int s = ml_type_size(fp[j].type);
      if (!fp[j].is_list) {
        if (s == 0 || fread(buf, (size_t)s, 1, f) != 1) ok = 0;
        continue;
      }
      {
        int cs = ml_type_size(fp[j].count_type), q;
        long cnt;
        uint32_t idx[256];
        if (cs == 0 || s == 0 || fread(buf, (size_t)cs, 1, f) != 1) {
          ok = 0;
          break;
        }
        cnt = (long)ml_read(buf, fp[j].count_type);
        if (cnt < 0 || cnt > 256) {
          ok = 0;
          break;
        }
        for (q = 0; q < cnt; ++q) {
          if (fread(buf, (size_t)s, 1, f) != 1) {
            ok = 0;
            break;
          }
          idx[q] = (uint32_t)ml_read(buf, fp[j].type);
        }
        for (q = 2; ok && q < cnt; ++q)
          if (!obj_push_triangle(m, idx[0], idx[q - 1], idx[q])) ok = 0;
      }
    }
  }
  fclose(f);
  if (!ok) {
    obj_free(m);
    snprintf(err, len, "%.300s: truncated or unsupported PLY body", path);
    return 0;
  }
  return 1;
}

static inline int ml_load_stl(const char *path, objmesh *m, char *err, size_t len) {
  FILE *f = fopen(path, "rb");
  char line[512];
  int nvert = 0, ok = 1;
  memset(m, 0, sizeof *m);
  if (!f) {
    snprintf(err, len, "%.300s: cannot open", path);
    return 0;
  }
  if (!fgets(line, sizeof line, f) || strncmp(line, "solid", 5) != 0) {
    fclose(f);
    snprintf(err, len, "%.300s: not an ASCII STL", path);
    return 0;
  }
  while (ok && fgets(line, sizeof line, f)) {
    double p[3];
    char *s = line;
    while (*s == ' ' || *s == '\t')
      ++s;
    if (strncmp(s, "vertex", 6) != 0) continue;
    if (sscanf(s + 6, "%lf %lf %lf", &p[0], &p[1], &p[2]) != 3 || !obj_push_vertex(m, p)) {
      ok = 0;
      break;
    }
    if (++nvert % 3 == 0) {
      uint32_t b = (uint32_t)(m->nv - 3);
      if (!obj_push_triangle(m, b, b + 1, b + 2)) ok = 0;
    }
  }
  fclose(f);
  if (!ok || nvert % 3 != 0) {
    obj_free(m);
    snprintf(err, len, "%.300s: malformed STL", path);
    return 0;
  }
  return 1;
}

/* Loads an .obj, .ply or .stl file by its extension. */
static inline int mesh_load(const char *path, objmesh *m, char *err, size_t len) {
  const char *dot = strrchr(path, '.');
  if (dot && !strcmp(dot, ".ply")) return ml_load_ply(path, m, err, len);
  if (dot && !strcmp(dot, ".stl")) return ml_load_stl(path, m, err, len);
  return obj_load(path, m, err, len);
}

/* Whether a loaded mesh of nt triangles is over the limit that the
 * environment variable PROX_TEST_MAX_TRIANGLES sets (unset or 0: no
 * limit); if so, says so (naming the file) and the caller skips it. For
 * runs under an emulator (.ci/run's valgrind step), where the fixed costs
 * of the largest meshes (their trees, a signed distance object's build)
 * would take most of the time; the sanitizer and native runs load every
 * mesh. */
static inline int mesh_over_limit(const char *path, size_t nt) {
  const char *env = getenv("PROX_TEST_MAX_TRIANGLES");
  unsigned long max = env && *env ? strtoul(env, NULL, 10) : 0;
  if (max == 0 || nt <= max) return 0;
  printf("  %s: %zu triangles, over PROX_TEST_MAX_TRIANGLES=%lu: skipped in this run\n", path, nt,
         max);
  return 1;
}

/* The folder of the real meshes, or NULL when it holds no spot.obj: the
 * environment variable PROX_MESH_DIR, else the compile-time definition the
 * build passes, else ../shared/data/meshes beside the source tree (src_file
 * is the calling test's __FILE__, in tests/). */
static inline const char *mesh_dir_find(const char *src_file) {
  const char *env = getenv("PROX_MESH_DIR"), *dir;
  char probe[4200];
  FILE *f;
  if (env && *env) {
    dir = env;
  } else {
#if defined(PROX_MESH_DIR)
    dir = PROX_MESH_DIR;
    (void)src_file;
#else
    static char fallback[4096];
    const char *slash = strrchr(src_file, '/');
    size_t len = slash ? (size_t)(slash - src_file) : 1;
    snprintf(fallback, sizeof fallback, "%.*s/../../shared/data/meshes", (int)len,
             slash ? src_file : ".");
    dir = fallback;
#endif
  }
  snprintf(probe, sizeof probe, "%s/spot.obj", dir);
  f = fopen(probe, "rb");
  if (!f) return NULL;
  fclose(f);
  return dir;
}

#endif /* PROX_TEST_MESHLOAD_H */
