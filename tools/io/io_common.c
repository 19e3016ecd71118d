/* SPDX-License-Identifier: MIT */
/* io_common.c: errors, number scanning, whole-file reads, growable arrays and
 * the PLY header, shared by the readers of prox_io. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* mmap, fstat, open */
#define PROX_IO_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define PROX_IO_MMAP 0
#endif
#include "io_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

prox_status io_fail(prox_error *err, prox_status status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->status = status;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

void io_ok(prox_error *err) {
  if (err) {
    err->status = PROX_OK;
    err->message[0] = '\0';
  }
}

const char *io_name(const char *name) {
  return name ? name : "<memory>";
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */
/* ------------------------------------------------------------------------ */

const char *io_scan_double_slow(const char *start, const char *p, double *out) {
  /* strtod on a NUL-terminated copy of exactly the scanned text, which is
   * valid decimal syntax, so strtod reads all of it. */
  char local[128];
  size_t len = (size_t)(p - start);
  char *buf = local;
  char *stop = NULL;
  double v;
  if (len >= sizeof local) {
    buf = (char *)malloc(len + 1);
    if (!buf) return NULL;
  }
  memcpy(buf, start, len);
  buf[len] = '\0';
  v = strtod(buf, &stop);
  if (stop != buf + len) p = NULL;
  if (buf != local) free(buf);
  if (p) *out = v;
  return p;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

prox_status io_read_file(const char *path, char **data, size_t *size, prox_error *err) {
  FILE *f;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  long len = -1;
  int is_stdin = strcmp(path, "-") == 0;
  *data = NULL;
  *size = 0;
  f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) return io_fail(err, PROX_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
  if (!is_stdin && fseek(f, 0, SEEK_END) == 0) {
    len = ftell(f);
    if (fseek(f, 0, SEEK_SET) != 0) len = -1;
    /* glibc reports LONG_MAX for a directory: read it as a stream, which
     * then fails with the system's reason. */
    if (len == LONG_MAX) len = -1;
  }
  if (len >= 0) {
    /* A regular file: one read of its known size (plus one byte to see
     * that it did not grow meanwhile). */
    cap = (size_t)len + 1;
    buf = (char *)malloc(cap + 1);
    if (!buf) {
      fclose(f);
      return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory reading %ld bytes", path,
                     len);
    }
    n = fread(buf, 1, cap, f);
  }
  /* A pipe, or a file that grew: read on, doubling the buffer. */
  while (!ferror(f) && !feof(f)) {
    size_t got;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : (size_t)1 << 16;
      char *nb = (char *)realloc(buf, ncap + 1);
      if (!nb) {
        free(buf);
        if (!is_stdin) fclose(f);
        return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory after %zu bytes", path, n);
      }
      buf = nb;
      cap = ncap;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    int e = errno;
    free(buf);
    if (!is_stdin) fclose(f);
    return io_fail(err, PROX_ERROR_IO, "%s: read error: %s", path, strerror(e));
  }
  if (!is_stdin) fclose(f);
  if (!buf) {
    buf = (char *)malloc(1);
    if (!buf) return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
  }
  buf[n] = '\0';
  *data = buf;
  *size = n;
  return PROX_OK;
}

prox_status io_map_file(const char *path, io_file *file, prox_error *err) {
  memset(file, 0, sizeof *file);
#if PROX_IO_MMAP
  if (strcmp(path, "-") != 0) {
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (uint64_t)sb.st_size <= (uint64_t)SIZE_MAX) {
      void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        close(fd);
        file->data = (const char *)p;
        file->size = (size_t)sb.st_size;
        file->mapped = 1;
        return PROX_OK;
      }
    }
    if (fd >= 0) close(fd);
    /* not mappable (empty, a directory, a device...): read it, which also
     * reports the system's reason when that fails */
  }
#endif
  {
    char *data;
    size_t size;
    prox_status st = io_read_file(path, &data, &size, err);
    if (st != PROX_OK) return st;
    file->data = data;
    file->size = size;
    return PROX_OK;
  }
}

void io_unmap_file(io_file *file) {
#if PROX_IO_MMAP
  if (file->mapped) {
    munmap((void *)(uintptr_t)file->data, file->size);
    memset(file, 0, sizeof *file);
    return;
  }
#endif
  free((void *)(uintptr_t)file->data);
  memset(file, 0, sizeof *file);
}

/* ------------------------------------------------------------------------ */
/* Growable arrays                                                          */
/* ------------------------------------------------------------------------ */

/* The capacity that holds n + more elements of size elt, doubling, or 0 on
 * overflow. */
static size_t io_grow(size_t n, size_t cap, size_t more, size_t elt) {
  size_t need;
  if (more > SIZE_MAX / elt - n) return 0;
  need = n + more;
  if (need <= cap) return cap;
  if (cap < 256) cap = 256;
  while (cap < need) {
    if (cap > SIZE_MAX / elt / 2) return need;
    cap *= 2;
  }
  return cap;
}

int io_dvec_reserve(io_dvec *a, size_t more) {
  size_t cap;
  if (more <= a->cap - a->n) return 0;
  cap = io_grow(a->n, a->cap, more, sizeof(double));
  double *v;
  if (cap == 0) return -1;
  if (cap == a->cap) return 0;
  v = (double *)realloc(a->v, cap * sizeof(double));
  if (!v) return -1;
  a->v = v;
  a->cap = cap;
  return 0;
}

int io_uvec_reserve(io_uvec *a, size_t more) {
  size_t cap;
  if (more <= a->cap - a->n) return 0;
  cap = io_grow(a->n, a->cap, more, sizeof(uint32_t));
  uint32_t *v;
  if (cap == 0) return -1;
  if (cap == a->cap) return 0;
  v = (uint32_t *)realloc(a->v, cap * sizeof(uint32_t));
  if (!v) return -1;
  a->v = v;
  a->cap = cap;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* PLY types and header                                                     */
/* ------------------------------------------------------------------------ */

io_ply_scalar io_ply_scalar_from_name(const char *s, size_t n) {
  static const struct {
    const char *name;
    io_ply_scalar t;
  } names[] = {{"char", IO_PLY_INT8},      {"int8", IO_PLY_INT8},       {"uchar", IO_PLY_UINT8},
               {"uint8", IO_PLY_UINT8},    {"short", IO_PLY_INT16},     {"int16", IO_PLY_INT16},
               {"ushort", IO_PLY_UINT16},  {"uint16", IO_PLY_UINT16},   {"int", IO_PLY_INT32},
               {"int32", IO_PLY_INT32},    {"uint", IO_PLY_UINT32},     {"uint32", IO_PLY_UINT32},
               {"float", IO_PLY_FLOAT32},  {"float32", IO_PLY_FLOAT32}, {"double", IO_PLY_FLOAT64},
               {"float64", IO_PLY_FLOAT64}};
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strlen(names[i].name) == n && memcmp(names[i].name, s, n) == 0) return names[i].t;
  return IO_PLY_NONE;
}

void io_ply_header_free(io_ply_header *h) {
  int i;
  for (i = 0; i < h->nelements; ++i)
    free(h->elements[i].props);
  free(h->elements);
  memset(h, 0, sizeof *h);
}

int io_ply_find_prop(const io_ply_element *e, const char *prop) {
  int i;
  for (i = 0; i < e->nprops; ++i)
    if (strcmp(e->props[i].name, prop) == 0) return i;
  return -1;
}

/* The next white-space separated word of [*p, end) on the current line:
 * sets *w and *n and advances *p, or returns 0 at the end of the line. */
static int io_word(const char **p, const char *end, const char **w, size_t *n) {
  const char *q = *p;
  while (q < end && io_is_blank(*q))
    ++q;
  if (q >= end || *q == '\n') {
    *p = q;
    return 0;
  }
  *w = q;
  while (q < end && !io_is_blank(*q) && *q != '\n')
    ++q;
  *n = (size_t)(q - *w);
  *p = q;
  return 1;
}

static int io_word_is(const char *w, size_t n, const char *s) {
  return strlen(s) == n && memcmp(w, s, n) == 0;
}

prox_status io_ply_header_parse(const char *name, const char *data, size_t size, io_ply_header *h,
                                int *incomplete, prox_error *err) {
  const char *p = data, *end = data + size;
  long line = 0;
  int have_format = 0;
  memset(h, 0, sizeof *h);
  *incomplete = 0;
  name = io_name(name);
  for (;;) {
    const char *eol, *q, *w;
    size_t n;
    ++line;
    eol = (const char *)memchr(p, '\n', (size_t)(end - p));
    if (!eol) {
      /* Only the first 4 bytes decide whether this is PLY at all. */
      if (line == 1 && (size_t)(end - p) >= 4 && memcmp(p, "ply", 3) != 0) break;
      *incomplete = 1;
      io_ply_header_free(h);
      return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: the PLY header ends before end_header", name,
                     line);
    }
    q = p;
    if (line == 1) {
      if (!io_word(&q, eol, &w, &n) || !io_word_is(w, n, "ply") || io_word(&q, eol, &w, &n)) break;
      p = eol + 1;
      continue;
    }
    if (!io_word(&q, eol, &w, &n)) {
      /* a blank line: tolerated */
    } else if (io_word_is(w, n, "comment") || io_word_is(w, n, "obj_info")) {
      /* ignored */
    } else if (io_word_is(w, n, "format")) {
      const char *v;
      size_t vn;
      if (have_format || !io_word(&q, eol, &w, &n) || !io_word(&q, eol, &v, &vn) ||
          !io_word_is(v, vn, "1.0")) {
        io_ply_header_free(h);
        return io_fail(err, PROX_ERROR_PARSE,
                       "%s:%ld: expected 'format ascii|binary_little_endian|"
                       "binary_big_endian 1.0'",
                       name, line);
      }
      if (io_word_is(w, n, "ascii"))
        h->format = 0;
      else if (io_word_is(w, n, "binary_little_endian"))
        h->format = 1;
      else if (io_word_is(w, n, "binary_big_endian"))
        h->format = 2;
      else {
        io_ply_header_free(h);
        return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: unknown PLY format '%.*s'", name, line,
                       (int)(n > 40 ? 40 : n), w);
      }
      have_format = 1;
    } else if (io_word_is(w, n, "element")) {
      io_ply_element *e;
      const char *c;
      size_t cn;
      long long count;
      if (!io_word(&q, eol, &w, &n) || !io_word(&q, eol, &c, &cn) ||
          io_scan_int(c, c + cn, &count) != c + cn || count < 0 || n >= sizeof e->name) {
        io_ply_header_free(h);
        return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: expected 'element NAME COUNT'", name, line);
      }
      if (h->nelements == h->elements_cap) {
        int cap = h->elements_cap ? 2 * h->elements_cap : 4;
        io_ply_element *ne;
        if (cap > 4096) {
          io_ply_header_free(h);
          return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: too many elements", name, line);
        }
        ne = (io_ply_element *)realloc(h->elements, (size_t)cap * sizeof *ne);
        if (!ne) {
          io_ply_header_free(h);
          return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
        }
        h->elements = ne;
        h->elements_cap = cap;
      }
      e = &h->elements[h->nelements++];
      memset(e, 0, sizeof *e);
      memcpy(e->name, w, n);
      e->name[n] = '\0';
      e->count = (uint64_t)count;
    } else if (io_word_is(w, n, "property")) {
      io_ply_element *e;
      io_ply_prop pr;
      const char *t;
      size_t tn;
      memset(&pr, 0, sizeof pr);
      if (h->nelements == 0) {
        io_ply_header_free(h);
        return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: property before any element", name, line);
      }
      e = &h->elements[h->nelements - 1];
      if (!io_word(&q, eol, &t, &tn)) goto bad_property;
      if (io_word_is(t, tn, "list")) {
        const char *t2;
        size_t tn2;
        if (!io_word(&q, eol, &t, &tn) || !io_word(&q, eol, &t2, &tn2)) goto bad_property;
        pr.count_type = io_ply_scalar_from_name(t, tn);
        pr.type = io_ply_scalar_from_name(t2, tn2);
        if (pr.count_type == IO_PLY_NONE || pr.type == IO_PLY_NONE ||
            !io_ply_scalar_is_int(pr.count_type))
          goto bad_property;
      } else {
        pr.type = io_ply_scalar_from_name(t, tn);
        if (pr.type == IO_PLY_NONE) goto bad_property;
      }
      if (!io_word(&q, eol, &w, &n) || n >= sizeof pr.name || io_word(&q, eol, &t, &tn))
        goto bad_property;
      memcpy(pr.name, w, n);
      pr.name[n] = '\0';
      if (e->nprops == e->props_cap) {
        int cap = e->props_cap ? 2 * e->props_cap : 8;
        io_ply_prop *np;
        if (cap > 4096) {
          io_ply_header_free(h);
          return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: too many properties", name, line);
        }
        np = (io_ply_prop *)realloc(e->props, (size_t)cap * sizeof *np);
        if (!np) {
          io_ply_header_free(h);
          return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
        }
        e->props = np;
        e->props_cap = cap;
      }
      e->props[e->nprops++] = pr;
      if (pr.count_type != IO_PLY_NONE)
        e->has_list = 1;
      else
        e->fixed_size += (size_t)io_ply_scalar_size(pr.type);
    } else if (io_word_is(w, n, "end_header")) {
      if (io_word(&q, eol, &w, &n)) {
        io_ply_header_free(h);
        return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: text after end_header", name, line);
      }
      if (!have_format) {
        io_ply_header_free(h);
        return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: no format line", name, line);
      }
      h->header_size = (size_t)(eol + 1 - data);
      h->header_lines = line;
      return PROX_OK;
    } else {
      io_ply_header_free(h);
      return io_fail(err, PROX_ERROR_PARSE, "%s:%ld: unknown PLY header keyword '%.*s'", name, line,
                     (int)(n > 40 ? 40 : n), w);
    }
    p = eol + 1;
    continue;
  bad_property:
    io_ply_header_free(h);
    return io_fail(err, PROX_ERROR_PARSE,
                   "%s:%ld: expected 'property TYPE NAME' or 'property list "
                   "COUNT_TYPE TYPE NAME' with PLY scalar types",
                   name, line);
  }
  io_ply_header_free(h);
  return io_fail(err, PROX_ERROR_PARSE, "%s:1: not a PLY file (no 'ply' line)", name);
}
