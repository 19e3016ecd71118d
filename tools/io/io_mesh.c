/* SPDX-License-Identifier: MIT */
/* io_mesh.c: the mesh readers of prox_io (OBJ, PLY, STL). Each works on the
 * whole file in memory, scans numbers by hand (io_scan_double) and grows its
 * arrays by doubling: no allocation per line or per record. */
#include "io_internal.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Shared                                                                   */
/* ------------------------------------------------------------------------ */

void prox_io_mesh_free(prox_io_mesh *mesh) {
  if (!mesh) return;
  free(mesh->vertices);
  free(mesh->triangles);
  memset(mesh, 0, sizeof *mesh);
}

static int io_ieq(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

prox_io_format prox_io_format_from_path(const char *path) {
  const char *dot, *slash;
  if (!path) return PROX_IO_FORMAT_UNKNOWN;
  dot = strrchr(path, '.');
  slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return PROX_IO_FORMAT_UNKNOWN;
  if (io_ieq(dot, ".obj")) return PROX_IO_FORMAT_OBJ;
  if (io_ieq(dot, ".ply")) return PROX_IO_FORMAT_PLY;
  if (io_ieq(dot, ".stl")) return PROX_IO_FORMAT_STL;
  return PROX_IO_FORMAT_UNKNOWN;
}

/* Hands the arrays to the result. */
static void io_mesh_take(prox_io_mesh *mesh, io_dvec *v, io_uvec *t) {
  mesh->vertices = v->v;
  mesh->vertex_count = v->n / 3;
  mesh->triangles = t->v;
  mesh->triangle_count = t->n / 3;
  memset(v, 0, sizeof *v);
  memset(t, 0, sizeof *t);
  /* An empty array is still a valid pointer, so that a caller can tell an
   * empty mesh from a failed read. */
}

/* The line, starting at p, as a short quoted excerpt for messages. */
static int io_excerpt_len(const char *p, const char *end) {
  int n = 0;
  while (p + n < end && p[n] != '\n' && p[n] != '\r' && n < 40)
    ++n;
  return n;
}

/* ------------------------------------------------------------------------ */
/* OBJ                                                                      */
/* ------------------------------------------------------------------------ */

/* One OBJ corner index `v`, `v/vt`, `v//vn` or `v/vt/vn` at *pp, which must
 * end at a blank or at eol. Returns the index as written, or 0 for bad
 * syntax (0 is never a valid OBJ index, so callers report it either way). */
static const char *obj_corner(const char *p, const char *eol, long long *v) {
  long long t;
  p = io_scan_int(p, eol, v);
  if (!p) return NULL;
  if (p < eol && *p == '/') {
    ++p;
    if (p < eol && *p == '/') {
      p = io_scan_int(p + 1, eol, &t);
      if (!p) return NULL;
    } else {
      p = io_scan_int(p, eol, &t);
      if (!p) return NULL;
      if (p < eol && *p == '/') {
        p = io_scan_int(p + 1, eol, &t);
        if (!p) return NULL;
      }
    }
  }
  if (p < eol && !io_is_blank(*p)) return NULL;
  return p;
}

static prox_status obj_parse(const char *name, const char *p, const char *end, prox_io_mesh *mesh,
                             prox_error *err) {
  io_dvec V = {NULL, 0, 0};
  io_uvec T = {NULL, 0, 0};
  long line = 0;
  long long max_index = 0; /* largest positive index seen (1-based) */
  long max_line = 0;       /* where it was first seen */
  prox_status st = PROX_OK;
  while (p < end) {
    const char *eol = (const char *)memchr(p, '\n', (size_t)(end - p));
    const char *q;
    if (!eol) eol = end;
    ++line;
    q = p;
    while (q < eol && io_is_blank(*q))
      ++q;
    if (q == eol || *q == '#') {
      /* blank line or comment */
    } else if (q[0] == 'v' && (q + 1 == eol || io_is_blank(q[1]))) {
      int k;
      double *dst;
      if (V.n / 3 >= UINT32_MAX) {
        st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: more than %u vertices", name, line,
                     (unsigned)UINT32_MAX);
        goto fail;
      }
      if (V.n + 3 > V.cap && io_dvec_reserve(&V, 3) != 0) goto oom;
      dst = V.v + V.n;
      ++q;
      for (k = 0; k < 3; ++k) {
        const char *r;
        while (q < eol && io_is_blank(*q))
          ++q;
        r = io_scan_double(q, eol, &dst[k]);
        if (!r || (r < eol && !io_is_blank(*r))) {
          if (q == eol)
            st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: vertex has %d coordinates, expected 3",
                         name, line, k);
          else
            st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: bad number '%.*s' in vertex", name, line,
                         io_excerpt_len(q, eol), q);
          goto fail;
        }
        if (!isfinite(dst[k])) {
          st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: non-finite vertex coordinate '%.*s'", name,
                       line, (int)(r - q > 40 ? 40 : r - q), q);
          goto fail;
        }
        q = r;
      }
      /* Further numbers (w, colours) are allowed and ignored. */
      V.n += 3;
    } else if (q[0] == 'f' && (q + 1 == eol || io_is_blank(q[1]))) {
      uint32_t first = 0, prev = 0;
      long corners = 0;
      long long nv = (long long)(V.n / 3);
      ++q;
      for (;;) {
        long long idx;
        const char *r;
        uint32_t c;
        while (q < eol && io_is_blank(*q))
          ++q;
        if (q == eol) break;
        r = obj_corner(q, eol, &idx);
        if (!r) {
          st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: bad face corner '%.*s'", name, line,
                       io_excerpt_len(q, eol), q);
          goto fail;
        }
        if (idx == 0) {
          st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: vertex index 0 (OBJ indices start at 1)",
                       name, line);
          goto fail;
        }
        if (idx < 0) {
          if (-idx > nv) {
            st = io_fail(err, PROX_ERROR_PARSE,
                         "%s:%ld: relative vertex index %lld reaches before "
                         "the first vertex (%lld defined so far)",
                         name, line, idx, nv);
            goto fail;
          }
          c = (uint32_t)(nv + idx);
        } else {
          if (idx > (long long)UINT32_MAX) {
            st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: vertex index %lld out of range", name,
                         line, idx);
            goto fail;
          }
          if (idx > max_index) {
            max_index = idx;
            max_line = line;
          }
          c = (uint32_t)(idx - 1);
        }
        if (corners == 0) {
          first = c;
        } else if (corners >= 2) {
          if (T.n + 3 > T.cap && io_uvec_reserve(&T, 3) != 0) goto oom;
          T.v[T.n] = first;
          T.v[T.n + 1] = prev;
          T.v[T.n + 2] = c;
          T.n += 3;
        }
        prev = c;
        ++corners;
        q = r;
      }
      if (corners < 3) {
        st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: face has %ld corners, expected at least 3",
                     name, line, corners);
        goto fail;
      }
      if (corners > 3) ++mesh->polygons_triangulated;
    } else {
      ++mesh->records_skipped;
    }
    p = eol + 1;
  }
  /* Positive indices may refer to vertices defined later in the file. */
  if (max_index > (long long)(V.n / 3)) {
    st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: vertex index %lld out of range (%zu vertices)",
                 name, max_line, max_index, V.n / 3);
    goto fail;
  }
  if (!V.v && io_dvec_reserve(&V, 1) != 0) goto oom;
  if (!T.v && io_uvec_reserve(&T, 1) != 0) goto oom;
  io_mesh_take(mesh, &V, &T);
  mesh->format = PROX_IO_FORMAT_OBJ;
  return PROX_OK;
oom:
  st = io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s:%ld: out of memory", name, line);
fail:
  free(V.v);
  free(T.v);
  return st;
}

/* ------------------------------------------------------------------------ */
/* PLY                                                                      */
/* ------------------------------------------------------------------------ */

/* A reader of PLY values in the body: binary (either byte order) or ascii
 * (white-space separated tokens, lines counted). */
typedef struct ply_cur {
  const char *name;
  const unsigned char *base; /* start of the file, for byte offsets */
  const unsigned char *p, *end;
  int format; /* 0 ascii, 1 LE, 2 BE */
  long line;  /* ascii: the line of p */
  prox_error *err;
} ply_cur;

/* Reports the place of the cursor: "FILE:LINE: " or "FILE: byte N: ". */
static prox_status ply_fail(ply_cur *c, const char *what, const char *elem, uint64_t index) {
  if (c->format == 0)
    return io_fail(c->err, PROX_ERROR_PARSE, "%s:%ld: %s (element '%s' %llu)", c->name, c->line,
                   what, elem, (unsigned long long)index);
  return io_fail(c->err, PROX_ERROR_PARSE, "%s: byte %zu: %s (element '%s' %llu)", c->name,
                 (size_t)(c->p - c->base), what, elem, (unsigned long long)index);
}

/* ascii: moves to the next token, counting lines. 0 at the end of data. */
static int ply_ascii_token(ply_cur *c) {
  while (c->p < c->end) {
    char ch = (char)*c->p;
    if (ch == '\n')
      ++c->line;
    else if (!io_is_blank(ch))
      return 1;
    ++c->p;
  }
  return 0;
}

/* Whether a token ends at q. */
static int ply_token_end(const ply_cur *c, const unsigned char *q) {
  return q == c->end || *q == '\n' || io_is_blank((char)*q);
}

/* Reads one value of type t as a double. Returns 0 on success, else an
 * error message. */
static const char *ply_value(ply_cur *c, io_ply_scalar t, double *v) {
  if (c->format == 0) {
    const char *e;
    if (!ply_ascii_token(c)) return "the file ends early";
    if (io_ply_scalar_is_int(t)) {
      long long i;
      e = io_scan_int((const char *)c->p, (const char *)c->end, &i);
      if (!e || !ply_token_end(c, (const unsigned char *)e)) return "bad integer";
      *v = (double)i;
    } else {
      e = io_scan_double((const char *)c->p, (const char *)c->end, v);
      if (!e || !ply_token_end(c, (const unsigned char *)e)) return "bad number";
    }
    c->p = (const unsigned char *)e;
    return NULL;
  } else {
    int n = io_ply_scalar_size(t);
    if (c->end - c->p < n) return "the file ends early";
    *v = io_ply_decode(c->p, t, c->format == 1);
    c->p += n;
    return NULL;
  }
}

/* Skips one value of type t. */
static const char *ply_skip(ply_cur *c, io_ply_scalar t) {
  if (c->format == 0) {
    if (!ply_ascii_token(c)) return "the file ends early";
    while (c->p < c->end && !ply_token_end(c, c->p))
      ++c->p;
    return NULL;
  } else {
    int n = io_ply_scalar_size(t);
    if (c->end - c->p < n) return "the file ends early";
    c->p += n;
    return NULL;
  }
}

/* Reads a list count (an integer value, at most 2^31). */
static const char *ply_count(ply_cur *c, io_ply_scalar t, uint64_t *n) {
  double v;
  const char *e = ply_value(c, t, &v);
  if (e) return e;
  if (!(v >= 0) || v > 2147483647.0) return "bad list count";
  *n = (uint64_t)v;
  return NULL;
}

/* The minimal number of bytes the instances of e occupy in the body. The
 * face index list (property `face_list`, -1 for none) holds at least three
 * indices, or the face is an error anyway. */
static uint64_t ply_min_bytes(const io_ply_element *e, int format, int face_list) {
  uint64_t per = 0;
  int i;
  for (i = 0; i < e->nprops; ++i) {
    const io_ply_prop *pr = &e->props[i];
    int list = pr->count_type != IO_PLY_NONE;
    if (format == 0) {
      /* a token of at least one character (its separator may be the end) */
      per += i == face_list ? 4 : 1;
    } else {
      per += (uint64_t)io_ply_scalar_size(list ? pr->count_type : pr->type);
      if (i == face_list) per += 3 * (uint64_t)io_ply_scalar_size(pr->type);
    }
  }
  if (per == 0) return 0;
  if (e->count > UINT64_MAX / per) return UINT64_MAX;
  return e->count * per;
}

/* Whether the binary fast path of faces applies: the index list is the
 * only list property of the face element. */
static int ply_face_fast(const io_ply_element *e, int pf) {
  int j;
  for (j = 0; j < e->nprops; ++j)
    if (j != pf && e->props[j].count_type != IO_PLY_NONE) return 0;
  return 1;
}

/* Binary faces whose only list is the index list pf: fixed bytes before
 * and after it. */
static prox_status ply_faces_binary(ply_cur *c, const io_ply_element *e, int pf, int le,
                                    uint32_t nv, io_uvec *T, size_t *polygons) {
  size_t before = 0, after = 0;
  io_ply_scalar ct = e->props[pf].count_type, it = e->props[pf].type;
  size_t csz = (size_t)io_ply_scalar_size(ct);
  size_t isz = (size_t)io_ply_scalar_size(it);
  uint64_t k;
  int j;
  for (j = 0; j < e->nprops; ++j) {
    size_t sz = (size_t)io_ply_scalar_size(e->props[j].type);
    if (j < pf) before += sz;
    if (j > pf) after += sz;
  }
  for (k = 0; k < e->count; ++k) {
    const unsigned char *q = c->p;
    uint64_t n, m;
    uint32_t first = 0, prev = 0;
    const char *msg = NULL;
    if ((size_t)(c->end - q) < before + csz) {
      msg = "the file ends early";
      goto bad;
    }
    q += before;
    {
      double dn = io_ply_decode(q, ct, le);
      if (!(dn >= 0) || dn > 2147483647.0) {
        c->p = q;
        msg = "bad list count";
        goto bad;
      }
      n = (uint64_t)dn;
    }
    q += csz;
    if (n < 3) {
      c->p = q - csz;
      msg = "face with fewer than 3 vertices";
      goto bad;
    }
    if ((uint64_t)(c->end - q) / isz < n || (size_t)(c->end - q) - n * isz < after) {
      c->p = q;
      msg = "the file ends early";
      goto bad;
    }
    if (n > 3) ++*polygons;
    if (T->n + 3 * (n - 2) > T->cap && io_uvec_reserve(T, (size_t)(3 * (n - 2))) != 0)
      return io_fail(c->err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", c->name);
    for (m = 0; m < n; ++m) {
      double v = io_ply_decode(q, it, le);
      uint32_t idx;
      if (!(v >= 0) || v >= (double)nv) {
        c->p = q;
        msg = "vertex index out of range";
        goto bad;
      }
      idx = (uint32_t)v;
      if (m == 0) {
        first = idx;
      } else if (m >= 2) {
        T->v[T->n] = first;
        T->v[T->n + 1] = prev;
        T->v[T->n + 2] = idx;
        T->n += 3;
      }
      prev = idx;
      q += isz;
    }
    c->p = q + after;
    continue;
  bad:
    return ply_fail(c, msg, e->name, k);
  }
  return PROX_OK;
}

static prox_status ply_parse(const char *name, const char *data, size_t size, prox_io_mesh *mesh,
                             prox_error *err) {
  io_ply_header h;
  int incomplete, i, ivert = -1, iface = -1, px = -1, py = -1, pz = -1;
  int pf = -1;
  uint64_t need = 0, nv = 0;
  io_dvec V = {NULL, 0, 0};
  io_uvec T = {NULL, 0, 0};
  prox_status st;
  ply_cur c;
  st = io_ply_header_parse(name, data, size, &h, &incomplete, err);
  if (st != PROX_OK) return st;
  for (i = 0; i < h.nelements; ++i) {
    io_ply_element *e = &h.elements[i];
    uint64_t b;
    int fl = -1;
    if (strcmp(e->name, "face") == 0) {
      fl = io_ply_find_prop(e, "vertex_indices");
      if (fl < 0) fl = io_ply_find_prop(e, "vertex_index");
      if (fl >= 0 && e->props[fl].count_type == IO_PLY_NONE) fl = -1;
    }
    b = ply_min_bytes(e, h.format, fl);
    if (strcmp(e->name, "vertex") == 0 || strcmp(e->name, "face") == 0) {
      int *slot = e->name[0] == 'v' ? &ivert : &iface;
      if (*slot >= 0) {
        st = io_fail(err, PROX_ERROR_PARSE, "%s: the PLY header has two '%s' elements", name,
                     e->name);
        goto done;
      }
      *slot = i;
    }
    need = (need > UINT64_MAX - b) ? UINT64_MAX : need + b;
  }
  if (need > (uint64_t)(size - h.header_size)) {
    st = io_fail(err, PROX_ERROR_PARSE,
                 "%s:%ld: the header's element counts need at least %llu "
                 "bytes of data, the file has %zu",
                 name, h.header_lines, (unsigned long long)need, size - h.header_size);
    goto done;
  }
  if (ivert < 0) {
    st = io_fail(err, PROX_ERROR_PARSE, "%s: no 'vertex' element", name);
    goto done;
  }
  {
    io_ply_element *e = &h.elements[ivert];
    px = io_ply_find_prop(e, "x");
    py = io_ply_find_prop(e, "y");
    pz = io_ply_find_prop(e, "z");
    if (px < 0 || py < 0 || pz < 0 || e->props[px].count_type != IO_PLY_NONE ||
        e->props[py].count_type != IO_PLY_NONE || e->props[pz].count_type != IO_PLY_NONE) {
      st = io_fail(err, PROX_ERROR_PARSE, "%s: the vertex element needs scalar properties x, y, z",
                   name);
      goto done;
    }
    nv = e->count;
    if (nv > UINT32_MAX) {
      st = io_fail(err, PROX_ERROR_PARSE, "%s: more than %u vertices", name, (unsigned)UINT32_MAX);
      goto done;
    }
  }
  if (iface >= 0) {
    io_ply_element *e = &h.elements[iface];
    pf = io_ply_find_prop(e, "vertex_indices");
    if (pf < 0) pf = io_ply_find_prop(e, "vertex_index");
    if (pf < 0 || e->props[pf].count_type == IO_PLY_NONE ||
        !io_ply_scalar_is_int(e->props[pf].type)) {
      st = io_fail(err, PROX_ERROR_PARSE,
                   "%s: the face element needs an integer list property "
                   "vertex_indices (or vertex_index)",
                   name);
      goto done;
    }
  }
  /* Every count is now bounded by the file size. */
  if (io_dvec_reserve(&V, (size_t)(3 * nv + 1)) != 0) goto oom;
  if (io_uvec_reserve(&T, iface >= 0 ? (size_t)(3 * h.elements[iface].count + 1) : 1) != 0)
    goto oom;

  c.name = name;
  c.base = (const unsigned char *)data;
  c.p = c.base + h.header_size;
  c.end = c.base + size;
  c.format = h.format;
  c.line = h.header_lines + 1;
  c.err = err;
  for (i = 0; i < h.nelements; ++i) {
    io_ply_element *e = &h.elements[i];
    uint64_t k;
    const char *msg = NULL;
    if (e->nprops == 0) continue; /* instances of nothing take no room */
    if (i != ivert && i != iface) {
      mesh->records_skipped += (size_t)e->count;
      if (h.format != 0 && !e->has_list) {
        /* Binary and fixed-size: skip all instances at once. */
        if ((uint64_t)(c.end - c.p) / e->fixed_size < e->count) {
          st = io_fail(err, PROX_ERROR_PARSE, "%s: byte %zu: the file ends inside element '%s'",
                       name, (size_t)(c.p - c.base), e->name);
          goto done;
        }
        c.p += e->count * e->fixed_size;
        continue;
      }
    }
    if (h.format != 0 && i == ivert && !e->has_list) {
      /* Binary vertices of fixed size: x, y, z at fixed offsets. */
      size_t stride = e->fixed_size, off[3] = {0, 0, 0}, o = 0;
      io_ply_scalar ty[3];
      int j, le = h.format == 1;
      const int pxyz[3] = {px, py, pz};
      for (j = 0; j < e->nprops; ++j) {
        int a;
        for (a = 0; a < 3; ++a)
          if (j == pxyz[a]) {
            off[a] = o;
            ty[a] = e->props[j].type;
          }
        o += (size_t)io_ply_scalar_size(e->props[j].type);
      }
      if ((uint64_t)(c.end - c.p) / stride < e->count) {
        st = io_fail(err, PROX_ERROR_PARSE, "%s: byte %zu: the file ends inside element 'vertex'",
                     name, (size_t)(c.p - c.base));
        goto done;
      }
      for (k = 0; k < e->count; ++k) {
        const unsigned char *rec = c.p + k * stride;
        int a;
        for (a = 0; a < 3; ++a) {
          double v = io_ply_decode(rec + off[a], ty[a], le);
          if (!isfinite(v)) {
            c.p = rec + off[a];
            st = ply_fail(&c, "non-finite vertex coordinate", e->name, k);
            goto done;
          }
          V.v[3 * k + (size_t)a] = v;
        }
      }
      c.p += e->count * stride;
      continue;
    }
    if (h.format != 0 && i == iface && ply_face_fast(e, pf)) {
      st = ply_faces_binary(&c, e, pf, h.format == 1, (uint32_t)nv, &T,
                            &mesh->polygons_triangulated);
      if (st != PROX_OK) goto done;
      continue;
    }
    for (k = 0; k < e->count; ++k) {
      int j;
      uint32_t first = 0, prev = 0;
      for (j = 0; j < e->nprops; ++j) {
        const io_ply_prop *pr = &e->props[j];
        if (pr->count_type != IO_PLY_NONE) {
          uint64_t n, m;
          msg = ply_count(&c, pr->count_type, &n);
          if (msg) goto bad;
          if (i == iface && j == pf) {
            if (n < 3) {
              msg = "face with fewer than 3 vertices";
              goto bad;
            }
            if (n > 3) ++mesh->polygons_triangulated;
            /* Each index takes at least one byte: a count the rest of the
             * file cannot hold is an error before anything is reserved. */
            if (n > (uint64_t)(c.end - c.p)) {
              msg = "list count larger than the rest of the file";
              goto bad;
            }
            if (T.n + 3 * (n - 2) > T.cap && io_uvec_reserve(&T, (size_t)(3 * (n - 2))) != 0)
              goto oom;
            for (m = 0; m < n; ++m) {
              double v;
              uint32_t idx;
              msg = ply_value(&c, pr->type, &v);
              if (msg) goto bad;
              if (!(v >= 0) || v >= (double)nv) {
                msg = "vertex index out of range";
                goto bad;
              }
              idx = (uint32_t)v;
              if (m == 0) {
                first = idx;
              } else if (m >= 2) {
                T.v[T.n] = first;
                T.v[T.n + 1] = prev;
                T.v[T.n + 2] = idx;
                T.n += 3;
              }
              prev = idx;
            }
          } else if (h.format != 0) {
            int sz = io_ply_scalar_size(pr->type);
            if ((uint64_t)(c.end - c.p) / (uint64_t)sz < n) {
              msg = "the file ends early";
              goto bad;
            }
            c.p += n * (uint64_t)sz;
          } else {
            for (m = 0; m < n; ++m) {
              msg = ply_skip(&c, pr->type);
              if (msg) goto bad;
            }
          }
        } else if (i == ivert && (j == px || j == py || j == pz)) {
          double v;
          msg = ply_value(&c, pr->type, &v);
          if (msg) goto bad;
          if (!isfinite(v)) {
            msg = "non-finite vertex coordinate";
            goto bad;
          }
          V.v[3 * k + (size_t)(j == px ? 0 : j == py ? 1 : 2)] = v;
        } else {
          msg = ply_skip(&c, pr->type);
          if (msg) goto bad;
        }
      }
      continue;
    bad:
      st = ply_fail(&c, msg, e->name, k);
      goto done;
    }
  }
  if (h.format == 0) {
    if (ply_ascii_token(&c)) {
      st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: data after the last element", name, c.line);
      goto done;
    }
  } else if (c.p != c.end) {
    st = io_fail(err, PROX_ERROR_PARSE, "%s: byte %zu: %zu bytes of data after the last element",
                 name, (size_t)(c.p - c.base), (size_t)(c.end - c.p));
    goto done;
  }
  V.n = (size_t)(3 * nv);
  io_mesh_take(mesh, &V, &T);
  mesh->format = PROX_IO_FORMAT_PLY;
  mesh->binary = h.format != 0;
  st = PROX_OK;
  goto done;
oom:
  st = io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
done:
  free(V.v);
  free(T.v);
  io_ply_header_free(&h);
  return st;
}

/* ------------------------------------------------------------------------ */
/* STL                                                                      */
/* ------------------------------------------------------------------------ */

/* Welding: an open-addressing hash table (linear probing) of vertex numbers,
 * a power of two in size and at most half full. It starts at the size a
 * closed mesh needs (a vertex is the corner of about six triangles) and,
 * when the corners share fewer positions, grows once, to the size that also
 * holds every corner still to come (refilled from the vertices kept so
 * far). A slot holds only a number: a probe compares with that kept vertex,
 * and the kept vertices are compact (first occurrences only), so when most
 * corners repeat, the table and the kept vertices stay small enough for the
 * cache. */
typedef struct stl_table {
  uint32_t *slot; /* vertex numbers, UINT32_MAX for an empty slot */
  size_t mask;    /* slots - 1 */
} stl_table;

/* A table of at least `want` (and 64) empty slots. */
static int stl_table_init(stl_table *t, size_t want) {
  size_t cap = 64;
  while (cap < want && cap <= SIZE_MAX / 2 / sizeof *t->slot)
    cap *= 2;
  t->slot = (uint32_t *)malloc(cap * sizeof *t->slot);
  if (!t->slot) return -1;
  memset(t->slot, 0xff, cap * sizeof *t->slot);
  t->mask = cap - 1;
  return 0;
}

/* Puts vertex id (known to be absent) at the first free slot from h. */
static inline void stl_table_put(stl_table *t, size_t h, uint32_t id) {
  size_t s = h & t->mask;
  while (t->slot[s] != UINT32_MAX)
    s = (s + 1) & t->mask;
  t->slot[s] = id;
}

/* Three keys mixed into a hash whose low bits pick the slot (multiply and
 * xor-shift rounds, as in splitmix64). */
static inline size_t stl_hash(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9e3779b97f4a7c15u;
  h = (h ^ (h >> 29) ^ b) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 31) ^ c) * 0x94d049bb133111ebu;
  return (size_t)(h ^ (h >> 32));
}

/* The key of a double: its bits, with -0.0 as +0.0 (+ 0.0 does that). */
static inline uint64_t stl_dkey(double d) {
  uint64_t b;
  d += 0.0;
  memcpy(&b, &d, sizeof b);
  return b;
}

/* The key of a float's bits: -0.0 (the sign bit alone) as +0.0. */
static inline uint32_t stl_fkey(uint32_t u) {
  return u == 0x80000000u ? 0 : u;
}

/* Merges vertices of equal position (0.0 == -0.0) in place, keeping the
 * first occurrence's order (and its value), and renumbers the triangles. */
static int stl_weld(prox_io_mesh *mesh) {
  size_t n = mesh->vertex_count, i, j, out = 0;
  uint32_t *remap = (uint32_t *)malloc((n ? n : 1) * sizeof *remap);
  double *v = mesh->vertices;
  stl_table tab = {NULL, 0};
  /* Sized for a closed mesh: n corners, about n / 6 vertices. */
  if (!remap || stl_table_init(&tab, n / 3) != 0) {
    free(remap);
    return -1;
  }
  for (i = 0; i < n; ++i) {
    uint64_t x = stl_dkey(v[3 * i]), y = stl_dkey(v[3 * i + 1]), z = stl_dkey(v[3 * i + 2]);
    size_t s;
    for (s = stl_hash(x, y, z) & tab.mask;; s = (s + 1) & tab.mask) {
      uint32_t t = tab.slot[s];
      const double *k;
      if (t == UINT32_MAX) {
        /* a new position: vertex `out` (out <= i, so the copy does not
         * overwrite a vertex still to be read) */
        tab.slot[s] = (uint32_t)out;
        v[3 * out] = v[3 * i];
        v[3 * out + 1] = v[3 * i + 1];
        v[3 * out + 2] = v[3 * i + 2];
        remap[i] = (uint32_t)out;
        ++out;
        if (2 * out > tab.mask + 1) {
          stl_table old = tab;
          if (stl_table_init(&tab, 2 * (out + (n - i - 1))) != 0) {
            free(old.slot);
            free(remap);
            return -1;
          }
          free(old.slot);
          for (j = 0; j < out; ++j)
            stl_table_put(
                &tab, stl_hash(stl_dkey(v[3 * j]), stl_dkey(v[3 * j + 1]), stl_dkey(v[3 * j + 2])),
                (uint32_t)j);
        }
        break;
      }
      k = v + 3 * (size_t)t;
      if (stl_dkey(k[0]) == x && stl_dkey(k[1]) == y && stl_dkey(k[2]) == z) {
        remap[i] = t;
        break;
      }
    }
  }
  for (i = 0; i < 3 * mesh->triangle_count; ++i)
    mesh->triangles[i] = remap[mesh->triangles[i]];
  free(tab.slot);
  free(remap);
  mesh->vertices_welded = n - out;
  mesh->vertex_count = out;
  if (out < n && out > 0) {
    double *shrunk = (double *)realloc(v, 3 * out * sizeof *v);
    if (shrunk) mesh->vertices = shrunk;
  }
  return 0;
}

/* Binary STL: an 80-byte header, a uint32 triangle count, then 50-byte
 * records: normal (3 float32, ignored), three corners (9 float32), a uint16
 * attribute (ignored); little endian. */

/* Loads the nine corner coordinates of the record at rec as bits, in the
 * host's byte order: one copy, no per-field loads. */
static inline void stl_record_load(const unsigned char *rec, uint32_t u[9], int swap) {
  memcpy(u, rec + 12, 9 * sizeof *u);
  if (swap) {
    int k;
    for (k = 0; k < 9; ++k)
      u[k] = (uint32_t)io_bswap(u[k], 4);
  }
}

/* Whether a coordinate is NaN or infinite: every exponent bit set. */
static inline int stl_nonfinite(uint32_t u) {
  return (u & 0x7f800000u) == 0x7f800000u;
}

/* Whether any of the nine is: adding 1 to an exponent of all ones carries
 * into the sign bit, which no finite value's does. Two coordinates a 64-bit
 * word (a carry stays in its half); branch-free, one test. */
static inline int stl_record_bad(const uint32_t u[9]) {
  const uint64_t m = 0x7f8000007f800000u, one = 0x0080000000800000u;
  uint64_t w[4], acc;
  memcpy(w, u, sizeof w);
  acc = ((w[0] & m) + one) | ((w[1] & m) + one) | ((w[2] & m) + one) | ((w[3] & m) + one) |
        ((u[8] & 0x7f800000u) + 0x00800000u);
  return (acc & 0x8000000080000000u) != 0;
}

/* The error for triangle i (its record's coordinates u), the first with a
 * non-finite coordinate: names the byte offset of its first such one. */
static prox_status stl_record_fail(const char *name, const uint32_t u[9], size_t i,
                                   prox_error *err) {
  int k = 0;
  while (k < 8 && !stl_nonfinite(u[k]))
    ++k;
  return io_fail(err, PROX_ERROR_PARSE,
                 "%s: byte %zu: non-finite vertex coordinate "
                 "(triangle %zu)",
                 name, 84 + 50 * i + 12 + 4 * (size_t)k, i);
}

/* A binary STL of n triangles, not welded: corner c of triangle i is
 * vertex 3 i + c. */
static prox_status stl_binary(const char *name, const unsigned char *data, size_t n,
                              prox_io_mesh *mesh, prox_error *err) {
  const unsigned char *rec = data + 84;
  double *v = (double *)malloc((n ? 9 * n : 1) * sizeof *v);
  uint32_t *t = (uint32_t *)malloc((n ? 3 * n : 1) * sizeof *t);
  int swap = !io_host_le();
  size_t i;
  if (!v || !t) {
    free(v);
    free(t);
    return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
  }
  for (i = 0; i < n; ++i, rec += 50) {
    uint32_t u[9];
    float f[9];
    int k;
    stl_record_load(rec, u, swap);
    if (stl_record_bad(u)) {
      free(v);
      free(t);
      return stl_record_fail(name, u, i, err);
    }
    memcpy(f, u, sizeof f);
    for (k = 0; k < 9; ++k)
      v[9 * i + (size_t)k] = (double)f[k];
  }
  /* A pass of its own: a loop the compiler vectorizes. */
  for (i = 0; i < 3 * n; ++i)
    t[i] = (uint32_t)i;
  mesh->vertices = v;
  mesh->triangles = t;
  mesh->vertex_count = 3 * n;
  mesh->triangle_count = n;
  mesh->binary = 1;
  return PROX_OK;
}

/* A binary STL of n triangles, welded while it is read: the same vertices,
 * order and triangles as stl_binary followed by stl_weld, without the 3 n
 * doubles in between. Positions are compared as float bits with -0.0 taken
 * as +0.0, which for finite floats is the comparison of the doubles they
 * convert to (exactly); only the kept vertices become doubles. */
static prox_status stl_binary_welded(const char *name, const unsigned char *data, size_t n,
                                     prox_io_mesh *mesh, prox_error *err) {
  const unsigned char *rec = data + 84;
  /* The kept vertices as stored (-0.0 stays -0.0), in the order of their
   * first occurrence; room for every corner, touched only as far as used. */
  uint32_t *kept = (uint32_t *)malloc((n ? 9 * n : 1) * sizeof *kept);
  uint32_t *t = (uint32_t *)malloc((n ? 3 * n : 1) * sizeof *t);
  double *v = NULL;
  int swap = !io_host_le();
  size_t i, j, out = 0;
  prox_status st;
  stl_table tab = {NULL, 0};
  if (!kept || !t) goto oom;
  /* Sized for a closed mesh: 3 n corners, about n / 2 vertices. */
  if (stl_table_init(&tab, n) != 0) goto oom_weld;
  for (i = 0; i < n; ++i, rec += 50) {
    uint32_t u[9];
    int c;
    stl_record_load(rec, u, swap);
    if (stl_record_bad(u)) {
      st = stl_record_fail(name, u, i, err);
      goto fail;
    }
    for (c = 0; c < 3; ++c) {
      const uint32_t *p = u + 3 * c;
      uint32_t x = stl_fkey(p[0]), y = stl_fkey(p[1]), z = stl_fkey(p[2]);
      size_t s;
      for (s = stl_hash(x, y, z) & tab.mask;; s = (s + 1) & tab.mask) {
        uint32_t id = tab.slot[s];
        const uint32_t *k;
        if (id == UINT32_MAX) {
          tab.slot[s] = (uint32_t)out;
          memcpy(kept + 3 * out, p, 3 * sizeof *p);
          t[3 * i + (size_t)c] = (uint32_t)out;
          ++out;
          if (2 * out > tab.mask + 1) {
            stl_table old = tab;
            if (stl_table_init(&tab, 2 * (out + 3 * (n - i) - (size_t)c - 1)) != 0) {
              tab = old;
              goto oom_weld;
            }
            free(old.slot);
            for (j = 0; j < out; ++j)
              stl_table_put(&tab,
                            stl_hash(stl_fkey(kept[3 * j]), stl_fkey(kept[3 * j + 1]),
                                     stl_fkey(kept[3 * j + 2])),
                            (uint32_t)j);
          }
          break;
        }
        k = kept + 3 * (size_t)id;
        if (stl_fkey(k[0]) == x && stl_fkey(k[1]) == y && stl_fkey(k[2]) == z) {
          t[3 * i + (size_t)c] = id;
          break;
        }
      }
    }
  }
  v = (double *)malloc((out ? 3 * out : 1) * sizeof *v);
  if (!v) goto oom;
  for (i = 0; i < 3 * out; ++i) {
    float f;
    memcpy(&f, kept + i, sizeof f);
    v[i] = (double)f;
  }
  free(kept);
  free(tab.slot);
  mesh->vertices = v;
  mesh->triangles = t;
  mesh->vertex_count = out;
  mesh->triangle_count = n;
  mesh->vertices_welded = 3 * n - out;
  mesh->binary = 1;
  return PROX_OK;
oom_weld:
  st = io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory welding", name);
  goto fail;
oom:
  st = io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
fail:
  free(kept);
  free(t);
  free(tab.slot);
  return st;
}

/* ascii STL: a cursor over white-space separated words, lines counted. */
typedef struct stl_cur {
  const char *p, *end;
  long line;
} stl_cur;

static int stl_word(stl_cur *c, const char **w, size_t *n) {
  *w = NULL;
  *n = 0;
  while (c->p < c->end && (io_is_blank(*c->p) || *c->p == '\n')) {
    if (*c->p == '\n') ++c->line;
    ++c->p;
  }
  if (c->p >= c->end) return 0;
  *w = c->p;
  while (c->p < c->end && !io_is_blank(*c->p) && *c->p != '\n')
    ++c->p;
  *n = (size_t)(c->p - *w);
  return 1;
}

/* Whether the word [w, w + n) is the lowercase keyword kw, in any case
 * (ASCII: c | 0x20 is c in lowercase for letters, and equals a lowercase
 * letter only for that letter in either case). */
static int stl_is(const char *w, size_t n, const char *kw) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (!kw[i] || ((unsigned char)w[i] | 0x20) != (unsigned char)kw[i]) return 0;
  return kw[n] == '\0';
}

/* Reads a number as the next word: 1 on success (then *w, *n are the word),
 * 0 at the end or when the next word is not a number. One pass over the
 * characters (no separate word scan). */
static int stl_number(stl_cur *c, double *d, const char **w, size_t *n) {
  const char *e;
  while (c->p < c->end && (io_is_blank(*c->p) || *c->p == '\n')) {
    if (*c->p == '\n') ++c->line;
    ++c->p;
  }
  *w = c->p < c->end ? c->p : NULL;
  *n = 0;
  if (!*w) return 0;
  e = io_scan_double(c->p, c->end, d);
  if (!e || (e < c->end && !io_is_blank(*e) && *e != '\n')) {
    /* not a number: report the whole word */
    while (c->p < c->end && !io_is_blank(*c->p) && *c->p != '\n')
      ++c->p;
    *n = (size_t)(c->p - *w);
    return 0;
  }
  *n = (size_t)(e - c->p);
  c->p = e;
  return 1;
}

/* Skips to the end of the current line (the name after solid/endsolid). */
static void stl_rest_of_line(stl_cur *c) {
  while (c->p < c->end && *c->p != '\n')
    ++c->p;
}

static prox_status stl_ascii(const char *name, const char *data, size_t size, prox_io_mesh *mesh,
                             prox_error *err) {
  stl_cur c;
  io_dvec V = {NULL, 0, 0};
  io_uvec T = {NULL, 0, 0};
  const char *w = NULL;
  size_t n = 0;
  prox_status st;
  const char *want = NULL;
  c.p = data;
  c.end = data + size;
  c.line = 1;
  if (!stl_word(&c, &w, &n) || !stl_is(w, n, "solid")) {
    want = "'solid'";
    goto bad;
  }
  stl_rest_of_line(&c);
  for (;;) {
    int k, nvert = 0;
    size_t base;
    if (!stl_word(&c, &w, &n)) {
      want = "'facet' or 'endsolid'";
      goto bad;
    }
    if (stl_is(w, n, "endsolid")) {
      stl_rest_of_line(&c);
      if (!stl_word(&c, &w, &n)) break; /* the end */
      if (!stl_is(w, n, "solid")) {
        want = "'solid' or the end of the file";
        goto bad;
      }
      stl_rest_of_line(&c);
      continue;
    }
    if (!stl_is(w, n, "facet")) {
      want = "'facet' or 'endsolid'";
      goto bad;
    }
    if (!stl_word(&c, &w, &n) || !stl_is(w, n, "normal")) {
      want = "'normal'";
      goto bad;
    }
    for (k = 0; k < 3; ++k) {
      double d;
      if (!stl_number(&c, &d, &w, &n)) {
        want = "a number (normal)";
        goto bad;
      }
    }
    if (!stl_word(&c, &w, &n) || !stl_is(w, n, "outer") || !stl_word(&c, &w, &n) ||
        !stl_is(w, n, "loop")) {
      want = "'outer loop'";
      goto bad;
    }
    base = V.n / 3;
    for (;;) {
      if (!stl_word(&c, &w, &n)) {
        want = "'vertex' or 'endloop'";
        goto bad;
      }
      if (stl_is(w, n, "endloop")) break;
      if (!stl_is(w, n, "vertex")) {
        want = "'vertex' or 'endloop'";
        goto bad;
      }
      if (V.n / 3 >= UINT32_MAX) {
        st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: more than %u vertices", name, c.line,
                     (unsigned)UINT32_MAX);
        goto fail;
      }
      if (V.n + 3 > V.cap && io_dvec_reserve(&V, 3) != 0) goto oom;
      for (k = 0; k < 3; ++k) {
        double *d = &V.v[V.n + (size_t)k];
        if (!stl_number(&c, d, &w, &n)) {
          want = "a number (vertex)";
          goto bad;
        }
        if (!isfinite(*d)) {
          st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: non-finite vertex coordinate '%.*s'", name,
                       c.line, (int)(n > 40 ? 40 : n), w);
          goto fail;
        }
      }
      V.n += 3;
      if (nvert >= 2) {
        if (T.n + 3 > T.cap && io_uvec_reserve(&T, 3) != 0) goto oom;
        T.v[T.n] = (uint32_t)base;
        T.v[T.n + 1] = (uint32_t)(base + (size_t)nvert - 1);
        T.v[T.n + 2] = (uint32_t)(base + (size_t)nvert);
        T.n += 3;
      }
      ++nvert;
    }
    if (nvert < 3) {
      st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: facet with %d vertices, expected at least 3",
                   name, c.line, nvert);
      goto fail;
    }
    if (nvert > 3) ++mesh->polygons_triangulated;
    if (!stl_word(&c, &w, &n) || !stl_is(w, n, "endfacet")) {
      want = "'endfacet'";
      goto bad;
    }
  }
  if (!V.v && io_dvec_reserve(&V, 1) != 0) goto oom;
  if (!T.v && io_uvec_reserve(&T, 1) != 0) goto oom;
  io_mesh_take(mesh, &V, &T);
  return PROX_OK;
bad:
  if (!w)
    st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: the file ends, expected %s", name, c.line, want);
  else
    st = io_fail(err, PROX_ERROR_PARSE, "%s:%ld: expected %s, found '%.*s'", name, c.line, want,
                 (int)(n > 40 ? 40 : n), w);
  goto fail;
oom:
  st = io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
fail:
  free(V.v);
  free(T.v);
  return st;
}

static prox_status stl_parse(const char *name, const char *data, size_t size,
                             const prox_io_mesh_options *opt, prox_io_mesh *mesh, prox_error *err) {
  const unsigned char *u = (const unsigned char *)data;
  prox_status st;
  const char *q = data;
  int solid, weld = opt && opt->weld, welded = 0;
  while (q < data + size && (io_is_blank(*q) || *q == '\n'))
    ++q;
  solid = (size_t)(data + size - q) >= 5 && stl_is(q, 5, "solid");
  if (size >= 84) {
    uint64_t n = io_load(u + 80, 4, 1);
    if (84 + 50 * n == (uint64_t)size) {
      if (3 * n > UINT32_MAX)
        return io_fail(err, PROX_ERROR_PARSE, "%s: byte 80: %llu triangles is too many", name,
                       (unsigned long long)n);
      /* Welded while read, without the unwelded doubles in between. */
      st = weld ? stl_binary_welded(name, u, (size_t)n, mesh, err)
                : stl_binary(name, u, (size_t)n, mesh, err);
      welded = weld;
    } else if (!solid) {
      return io_fail(err, PROX_ERROR_PARSE,
                     "%s: byte 80: binary STL of %llu triangles needs %llu "
                     "bytes, the file has %zu (and it does not start with "
                     "'solid')",
                     name, (unsigned long long)n, (unsigned long long)(84 + 50 * n), size);
    } else {
      st = stl_ascii(name, data, size, mesh, err);
    }
  } else if (solid) {
    st = stl_ascii(name, data, size, mesh, err);
  } else {
    return io_fail(err, PROX_ERROR_PARSE,
                   "%s: byte 0: not an STL file (%zu bytes, no 'solid' and "
                   "shorter than a binary header)",
                   name, size);
  }
  if (st != PROX_OK) return st;
  mesh->format = PROX_IO_FORMAT_STL;
  if (weld && !welded && stl_weld(mesh) != 0) {
    prox_io_mesh_free(mesh);
    return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory welding", name);
  }
  return PROX_OK;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

prox_status prox_io_parse_mesh(const char *name, prox_io_format format, const void *data,
                               size_t size, const prox_io_mesh_options *options, prox_io_mesh *mesh,
                               prox_error *err) {
  prox_status st;
  if (!mesh) return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: mesh is NULL");
  memset(mesh, 0, sizeof *mesh);
  if (!data && size > 0) return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: data is NULL");
  if (!data) data = "";
  name = io_name(name);
  switch (format) {
  case PROX_IO_FORMAT_OBJ:
    st = obj_parse(name, (const char *)data, (const char *)data + size, mesh, err);
    break;
  case PROX_IO_FORMAT_PLY:
    st = ply_parse(name, (const char *)data, size, mesh, err);
    break;
  case PROX_IO_FORMAT_STL:
    st = stl_parse(name, (const char *)data, size, options, mesh, err);
    break;
  default:
    return io_fail(err, PROX_ERROR_PARSE, "%s: unknown mesh format (expected .obj, .ply or .stl)",
                   name);
  }
  if (st != PROX_OK) {
    prox_io_mesh_free(mesh);
    return st;
  }
  io_ok(err);
  return PROX_OK;
}

prox_status prox_io_read_mesh(const char *path, const prox_io_mesh_options *options,
                              prox_io_mesh *mesh, prox_error *err) {
  io_file file;
  prox_status st;
  prox_io_format fmt;
  if (!mesh || !path) {
    if (mesh) memset(mesh, 0, sizeof *mesh);
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: path or mesh is NULL");
  }
  memset(mesh, 0, sizeof *mesh);
  fmt = prox_io_format_from_path(path);
  if (fmt == PROX_IO_FORMAT_UNKNOWN)
    return io_fail(err, PROX_ERROR_PARSE, "%s: unknown mesh format (expected .obj, .ply or .stl)",
                   path);
  /* One mapping (or one read) of the whole file; the parsers never write
   * to it. */
  st = io_map_file(path, &file, err);
  if (st != PROX_OK) return st;
  st = prox_io_parse_mesh(path, fmt, file.data, file.size, options, mesh, err);
  io_unmap_file(&file);
  return st;
}
