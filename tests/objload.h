/* SPDX-License-Identifier: MIT */
/* objload.h: a minimal Wavefront OBJ reader for the tests.
 *
 * Reads `v x y z` (further numbers, such as w or colours, ignored) and
 * `f` records; face references may be `i`, `i/t`, `i//n` or `i/t/n`
 * (1-based, negative values count from the end, as the format says);
 * polygons are split into triangle fans. Every other record is ignored.
 * Lines may end in LF or CRLF. Header only (static functions). */
#ifndef PROX_TEST_OBJLOAD_H
#define PROX_TEST_OBJLOAD_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A triangle mesh: nv vertices (xyz interleaved), nt triangles (3
 * indices each). */
typedef struct objmesh {
  double *v;
  size_t nv, cap_v;
  uint32_t *t;
  size_t nt, cap_t;
} objmesh;

static void obj_free(objmesh *m) {
  free(m->v);
  free(m->t);
  memset(m, 0, sizeof *m);
}

static int obj_push_vertex(objmesh *m, const double p[3]) {
  if (m->nv == m->cap_v) {
    size_t cap = m->cap_v ? 2 * m->cap_v : 1024;
    double *v = (double *)realloc(m->v, 3 * cap * sizeof *v);
    if (!v) return 0;
    m->v = v;
    m->cap_v = cap;
  }
  memcpy(m->v + 3 * m->nv, p, 3 * sizeof *p);
  ++m->nv;
  return 1;
}

static int obj_push_triangle(objmesh *m, uint32_t a, uint32_t b, uint32_t c) {
  if (m->nt == m->cap_t) {
    size_t cap = m->cap_t ? 2 * m->cap_t : 1024;
    uint32_t *t = (uint32_t *)realloc(m->t, 3 * cap * sizeof *t);
    if (!t) return 0;
    m->t = t;
    m->cap_t = cap;
  }
  m->t[3 * m->nt] = a;
  m->t[3 * m->nt + 1] = b;
  m->t[3 * m->nt + 2] = c;
  ++m->nt;
  return 1;
}

/* Loads path into *m (zeroed first). Returns 1, or 0 with a message in
 * err (file and line) on failure. */
static int obj_load(const char *path, objmesh *m, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  char line[4096];
  long lineno = 0;
  memset(m, 0, sizeof *m);
  if (!f) {
    snprintf(err, errlen, "%.300s: cannot open", path);
    return 0;
  }
  while (fgets(line, sizeof line, f)) {
    char *s = line, *e;
    size_t len = strlen(line);
    ++lineno;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      line[--len] = '\0';
    while (*s == ' ' || *s == '\t')
      ++s;
    if (s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
      double p[3];
      int i;
      s += 2;
      for (i = 0; i < 3; ++i) {
        p[i] = strtod(s, &e);
        if (e == s) {
          snprintf(err, errlen, "%.300s:%ld: bad vertex", path, lineno);
          fclose(f);
          obj_free(m);
          return 0;
        }
        s = e;
      }
      if (!obj_push_vertex(m, p)) goto oom;
    } else if (s[0] == 'f' && (s[1] == ' ' || s[1] == '\t')) {
      uint32_t idx[3];
      int n = 0;
      s += 2;
      for (;;) {
        long k;
        while (*s == ' ' || *s == '\t')
          ++s;
        if (*s == '\0') break;
        k = strtol(s, &e, 10);
        if (e == s || k == 0) {
          snprintf(err, errlen, "%.300s:%ld: bad face index", path, lineno);
          fclose(f);
          obj_free(m);
          return 0;
        }
        if (k < 0) k += (long)m->nv + 1;
        if (k < 1 || (size_t)k > m->nv) {
          snprintf(err, errlen, "%.300s:%ld: face index out of range", path, lineno);
          fclose(f);
          obj_free(m);
          return 0;
        }
        /* Skip /t/n. */
        s = e;
        while (*s && *s != ' ' && *s != '\t')
          ++s;
        if (n < 2) {
          idx[n++] = (uint32_t)(k - 1);
        } else {
          idx[2] = (uint32_t)(k - 1);
          if (!obj_push_triangle(m, idx[0], idx[1], idx[2])) goto oom;
          idx[1] = idx[2];
          ++n;
        }
      }
    }
  }
  fclose(f);
  return 1;
oom:
  snprintf(err, errlen, "%.300s:%ld: out of memory", path, lineno);
  fclose(f);
  obj_free(m);
  return 0;
}

#endif /* PROX_TEST_OBJLOAD_H */
