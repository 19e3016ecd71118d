/* SPDX-License-Identifier: MIT */
/* io_points.c: the streaming reader of numeric records (points, rays) from
 * text (CSV/XYZ/TXT) and PLY, in bounded memory: one buffer that is refilled
 * with fread, whatever the length of the input. */
#include "io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

enum { REC_TEXT, REC_PLY_ASCII, REC_PLY_BINARY };

struct prox_io_records {
  FILE *f;
  int is_stdin;
  char name[160]; /* the path, for messages (truncated if longer) */
  prox_io_records_options opt;
  char *buf;
  size_t cap, max_cap;
  size_t lo, hi;   /* unread data is buf[lo, hi) */
  int eof;         /* fread has returned 0 at the end */
  long line;       /* text: the line of buf[lo] */
  uint64_t offset; /* the file offset of buf[lo] */
  int kind;
  int header_pending; /* text: the first line with content may be a header */
  /* PLY */
  io_ply_header h;
  uint64_t remaining;          /* vertices still to read */
  int field_of_prop[4096 / 8]; /* unused beyond nprops */
  prox_status failed;
  prox_error saved;
  uint64_t count;
};

static prox_status rec_fail(prox_io_records *r, prox_error *err, prox_status st, const char *fmt,
                            ...) IO_PRINTF(4, 5);
static prox_status rec_fail(prox_io_records *r, prox_error *err, prox_status st, const char *fmt,
                            ...) {
  va_list ap;
  r->failed = st;
  r->saved.status = st;
  va_start(ap, fmt);
  vsnprintf(r->saved.message, sizeof r->saved.message, fmt, ap);
  va_end(ap);
  if (err) *err = r->saved;
  return st;
}

prox_io_records_options prox_io_records_points(void) {
  prox_io_records_options o;
  memset(&o, 0, sizeof o);
  o.min_fields = 3;
  o.max_fields = 3;
  return o;
}

prox_io_records_options prox_io_records_rays(void) {
  static const char *const names[7] = {"ox", "oy", "oz", "dx", "dy", "dz", "tmax"};
  prox_io_records_options o;
  memset(&o, 0, sizeof o);
  o.min_fields = 6;
  o.max_fields = 7;
  o.defaults[6] = INFINITY;
  o.ply_names = names;
  return o;
}

uint64_t prox_io_records_count(const prox_io_records *r) {
  return r ? r->count : 0;
}

void prox_io_records_close(prox_io_records *r) {
  if (!r) return;
  if (r->f && !r->is_stdin) fclose(r->f); /* is_stdin: not ours to close */
  free(r->buf);
  io_ply_header_free(&r->h);
  free(r);
}

/* Reads more input so that at least `need` bytes are unread, or to the end
 * of the input. Returns 0, or -1 on a read error / a line longer than the
 * largest buffer (r->failed set by the caller from errno / the size). */
static int rec_fill(prox_io_records *r, size_t need) {
  while (r->hi - r->lo < need && !r->eof) {
    size_t got;
    if (r->lo > 0) {
      memmove(r->buf, r->buf + r->lo, r->hi - r->lo);
      r->hi -= r->lo;
      r->offset += 0; /* offset tracks buf[lo], which is now buf[0] */
      r->lo = 0;
    }
    if (r->hi == r->cap) {
      size_t ncap = r->cap * 2;
      char *nb;
      if (ncap > r->max_cap) return -2;
      nb = (char *)realloc(r->buf, ncap + 1);
      if (!nb) return -3;
      r->buf = nb;
      r->cap = ncap;
    }
    got = fread(r->buf + r->hi, 1, r->cap - r->hi, r->f);
    r->hi += got;
    if (got == 0) {
      if (ferror(r->f)) return -1;
      r->eof = 1;
    }
  }
  return 0;
}

static prox_status rec_fill_error(prox_io_records *r, prox_error *err, int code) {
  if (code == -2)
    return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: line longer than %zu bytes", r->name,
                    r->line, r->max_cap);
  if (code == -3) return rec_fail(r, err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", r->name);
  return rec_fail(r, err, PROX_ERROR_IO, "%s: read error: %s", r->name, strerror(errno));
}

/* Consumes n bytes. */
static void rec_advance(prox_io_records *r, size_t n) {
  r->lo += n;
  r->offset += n;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                     */
/* ------------------------------------------------------------------------ */

/* Parses one line [p, eol) of text into out[max_fields]. Returns the number
 * of fields (0 for a blank or comment line), or -1 with *bad at the
 * offending text. */
static int rec_text_line(const char *p, const char *eol, double *out, int max_fields,
                         const char **bad, int *nonfinite) {
  int n = 0;
  *nonfinite = 0;
  for (;;) {
    const char *e;
    double v;
    while (p < eol && io_is_blank(*p))
      ++p;
    if (p == eol || *p == '#') break;
    if (n > 0) {
      /* a separator: white space and/or one comma */
      if (*p == ',') {
        ++p;
        while (p < eol && io_is_blank(*p))
          ++p;
        if (p == eol || *p == '#' || *p == ',') {
          *bad = p;
          return -1;
        }
      }
    }
    e = io_scan_double(p, eol, &v);
    if (!e || (e < eol && !io_is_blank(*e) && *e != ',' && *e != '#')) {
      *bad = p;
      return -1;
    }
    if (n < max_fields) out[n] = v;
    if (!isfinite(v) && !*nonfinite) {
      *nonfinite = 1;
      *bad = p;
    }
    ++n;
    p = e;
  }
  return n;
}

/* The first character of a line that is not white space. */
static const char *rec_first_field(const char *p, const char *eol) {
  while (p < eol && io_is_blank(*p))
    ++p;
  return p;
}

static int rec_has_letter(const char *p, const char *eol) {
  for (; p < eol; ++p)
    if (isalpha((unsigned char)*p)) return 1;
  return 0;
}

static prox_status rec_text_next(prox_io_records *r, double *values, size_t capacity, size_t *count,
                                 prox_error *err) {
  const int maxf = r->opt.max_fields, minf = r->opt.min_fields;
  size_t got = 0;
  while (got < capacity) {
    const char *p = r->buf + r->lo, *eol;
    const char *bad = NULL;
    double *out = values + got * (size_t)maxf;
    int n, nonfinite, k, code;
    size_t len;
    eol = (const char *)memchr(p, '\n', r->hi - r->lo);
    if (!eol) {
      if (!r->eof) {
        code = rec_fill(r, r->hi - r->lo + 1);
        if (code) return rec_fill_error(r, err, code);
        continue;
      }
      if (r->hi == r->lo) break; /* the end */
      eol = r->buf + r->hi;      /* a last line without newline */
    }
    len = (size_t)(eol - p);
    n = rec_text_line(p, eol, out, maxf, &bad, &nonfinite);
    if (n != 0 && r->header_pending) {
      r->header_pending = 0;
      /* A header: its first field is not a number (x,y,z; "ox oy ..."). */
      if (n < 0 && bad == rec_first_field(p, eol) && rec_has_letter(p, eol)) n = 0;
    }
    if (n < 0) {
      int show = 0;
      while (bad + show < eol && bad[show] != '\r' && show < 40)
        ++show;
      return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: bad number '%.*s'", r->name, r->line, show,
                      bad);
    }
    if (n > 0 && nonfinite) {
      return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: non-finite number", r->name, r->line);
    }
    if (n > 0 && (n < minf || n > maxf)) {
      if (minf == maxf)
        return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: %d numbers, expected %d", r->name,
                        r->line, n, minf);
      return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: %d numbers, expected %d to %d", r->name,
                      r->line, n, minf, maxf);
    }
    for (k = n > 0 ? n : maxf; k < maxf; ++k)
      out[k] = r->opt.defaults[k];
    if (n > 0) ++got;
    rec_advance(r, eol < r->buf + r->hi ? len + 1 : len);
    ++r->line;
  }
  *count = got;
  return PROX_OK;
}

/* ------------------------------------------------------------------------ */
/* PLY                                                                      */
/* ------------------------------------------------------------------------ */

/* Reads the PLY header (growing the buffer until end_header is in it) and
 * maps the fields to vertex properties. */
static prox_status rec_ply_open(prox_io_records *r, prox_error *err) {
  static const char *const xyz[3] = {"x", "y", "z"};
  const char *const *names = r->opt.ply_names ? r->opt.ply_names : xyz;
  io_ply_element *e;
  int i, incomplete = 0;
  prox_status st;
  for (;;) {
    int code;
    st = io_ply_header_parse(r->name, r->buf + r->lo, r->hi - r->lo, &r->h, &incomplete, err);
    if (st == PROX_OK) break;
    if (!incomplete || r->eof) {
      r->failed = st;
      if (err) r->saved = *err;
      return st;
    }
    code = rec_fill(r, r->hi - r->lo + 1);
    if (code) return rec_fill_error(r, err, code);
  }
  rec_advance(r, r->h.header_size);
  r->line = r->h.header_lines + 1;
  r->kind = r->h.format == 0 ? REC_PLY_ASCII : REC_PLY_BINARY;
  if (r->h.nelements == 0 || strcmp(r->h.elements[0].name, "vertex") != 0)
    return rec_fail(r, err, PROX_ERROR_PARSE, "%s: the first PLY element must be 'vertex'",
                    r->name);
  e = &r->h.elements[0];
  if (e->nprops > (int)(sizeof r->field_of_prop / sizeof(int)))
    return rec_fail(r, err, PROX_ERROR_PARSE, "%s: too many vertex properties", r->name);
  for (i = 0; i < e->nprops; ++i)
    r->field_of_prop[i] = -1;
  for (i = 0; i < r->opt.max_fields; ++i) {
    int pi = io_ply_find_prop(e, names[i]);
    if (pi >= 0 && e->props[pi].count_type != IO_PLY_NONE)
      return rec_fail(r, err, PROX_ERROR_PARSE, "%s: vertex property '%s' is a list", r->name,
                      names[i]);
    if (pi < 0 && i < r->opt.min_fields)
      return rec_fail(r, err, PROX_ERROR_PARSE, "%s: the vertex element has no property '%s'",
                      r->name, names[i]);
    if (pi >= 0) r->field_of_prop[pi] = i;
  }
  r->remaining = e->count;
  return PROX_OK;
}

static prox_status rec_ply_next(prox_io_records *r, double *values, size_t capacity, size_t *count,
                                prox_error *err) {
  const io_ply_element *e = &r->h.elements[0];
  const int maxf = r->opt.max_fields;
  const int le = r->h.format == 1;
  size_t got = 0;
  while (got < capacity && r->remaining > 0) {
    double *out = values + got * (size_t)maxf;
    uint64_t index = e->count - r->remaining;
    int j, k, code;
    for (k = 0; k < maxf; ++k)
      out[k] = r->opt.defaults[k];
    if (r->kind == REC_PLY_BINARY) {
      size_t off = 0;
      for (j = 0; j < e->nprops; ++j) {
        const io_ply_prop *pr = &e->props[j];
        int sz = io_ply_scalar_size(pr->count_type != IO_PLY_NONE ? pr->count_type : pr->type);
        if (r->hi - r->lo < off + (size_t)sz) {
          code = rec_fill(r, off + (size_t)sz);
          if (code) return rec_fill_error(r, err, code);
          if (r->hi - r->lo < off + (size_t)sz) goto truncated;
        }
        if (pr->count_type != IO_PLY_NONE) {
          double n = io_ply_decode((const unsigned char *)r->buf + r->lo + off, pr->count_type, le);
          size_t isz = (size_t)io_ply_scalar_size(pr->type);
          off += (size_t)sz;
          if (!(n >= 0) || n > 1e6)
            return rec_fail(r, err, PROX_ERROR_PARSE, "%s: byte %llu: bad list count (vertex %llu)",
                            r->name, (unsigned long long)(r->offset + off),
                            (unsigned long long)index);
          if (r->hi - r->lo < off + (size_t)n * isz) {
            code = rec_fill(r, off + (size_t)n * isz);
            if (code) return rec_fill_error(r, err, code);
            if (r->hi - r->lo < off + (size_t)n * isz) goto truncated;
          }
          off += (size_t)n * isz;
          continue;
        }
        if (r->field_of_prop[j] >= 0) {
          double v = io_ply_decode((const unsigned char *)r->buf + r->lo + off, pr->type, le);
          if (!isfinite(v))
            return rec_fail(r, err, PROX_ERROR_PARSE,
                            "%s: byte %llu: non-finite value (vertex %llu)", r->name,
                            (unsigned long long)(r->offset + off), (unsigned long long)index);
          out[r->field_of_prop[j]] = v;
        }
        off += (size_t)sz;
      }
      rec_advance(r, off);
    } else {
      /* ascii: one vertex a line, tokens in property order */
      const char *p, *eol, *end;
      for (;;) {
        p = r->buf + r->lo;
        eol = (const char *)memchr(p, '\n', r->hi - r->lo);
        if (eol || r->eof) break;
        code = rec_fill(r, r->hi - r->lo + 1);
        if (code) return rec_fill_error(r, err, code);
      }
      end = eol ? eol : r->buf + r->hi;
      if (p == end && !eol) goto truncated;
      for (j = 0; j < e->nprops; ++j) {
        const io_ply_prop *pr = &e->props[j];
        long long cnt = 1;
        const char *q;
        double v;
        if (pr->count_type != IO_PLY_NONE) {
          while (p < end && io_is_blank(*p))
            ++p;
          q = io_scan_int(p, end, &cnt);
          if (!q || cnt < 0 || (q < end && !io_is_blank(*q))) goto bad_ascii;
          p = q;
        }
        for (; cnt > 0; --cnt) {
          while (p < end && io_is_blank(*p))
            ++p;
          q = io_scan_double(p, end, &v);
          if (!q || (q < end && !io_is_blank(*q))) goto bad_ascii;
          p = q;
          if (pr->count_type == IO_PLY_NONE && r->field_of_prop[j] >= 0) {
            if (!isfinite(v))
              return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: non-finite value", r->name,
                              r->line);
            out[r->field_of_prop[j]] = v;
          }
        }
      }
      while (p < end && io_is_blank(*p))
        ++p;
      if (p != end) goto bad_ascii;
      rec_advance(r, (size_t)(end - (r->buf + r->lo)) + (eol ? 1 : 0));
      ++r->line;
    }
    --r->remaining;
    ++got;
    continue;
  bad_ascii:
    return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: expected %d vertex properties (vertex %llu)",
                    r->name, r->line, e->nprops, (unsigned long long)index);
  truncated:
    if (r->kind == REC_PLY_BINARY)
      return rec_fail(r, err, PROX_ERROR_PARSE,
                      "%s: byte %llu: the file ends after %llu of %llu "
                      "vertices",
                      r->name, (unsigned long long)(r->offset + (r->hi - r->lo)),
                      (unsigned long long)index, (unsigned long long)e->count);
    return rec_fail(r, err, PROX_ERROR_PARSE, "%s:%ld: the file ends after %llu of %llu vertices",
                    r->name, r->line, (unsigned long long)index, (unsigned long long)e->count);
  }
  *count = got;
  return PROX_OK;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

/* Opens a reader on f (path: the name for messages and for the format;
 * own: close f at the end). */
static prox_status rec_open(FILE *f, int own, const char *name, int ply,
                            const prox_io_records_options *options, prox_io_records **reader,
                            prox_error *err) {
  prox_io_records *r;
  prox_io_records_options o;
  int code;
  prox_status st;
  o = options ? *options : prox_io_records_points();
  if (o.max_fields < 1 || o.max_fields > PROX_IO_MAX_FIELDS || o.min_fields < 1 ||
      o.min_fields > o.max_fields || (!o.ply_names && o.max_fields != 3)) {
    if (own) fclose(f);
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: bad record options");
  }
  if (o.buffer_size == 0) o.buffer_size = (size_t)1 << 20;
  if (o.buffer_size < 64) o.buffer_size = 64;
  r = (prox_io_records *)calloc(1, sizeof *r);
  if (!r) {
    if (own) fclose(f);
    return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
  }
  r->f = f;
  r->is_stdin = !own; /* not closed by prox_io_records_close */
  r->opt = o;
  r->cap = o.buffer_size;
  r->max_cap = o.buffer_size * 64;
  r->buf = (char *)malloc(r->cap + 1);
  snprintf(r->name, sizeof r->name, "%s", name);
  r->line = 1;
  r->header_pending = 1;
  if (!r->buf) {
    prox_io_records_close(r);
    return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
  }
  code = rec_fill(r, 4);
  if (code) {
    st = rec_fill_error(r, err, code);
    prox_io_records_close(r);
    return st;
  }
  r->kind = REC_TEXT;
  if (ply < 0)
    ply = r->hi - r->lo >= 4 && memcmp(r->buf, "ply", 3) == 0 &&
          (r->buf[3] == '\n' || r->buf[3] == '\r');
  if (!ply && r->hi - r->lo >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
    rec_advance(r, 3); /* a UTF-8 byte order mark (spreadsheet exports) */
  if (ply) {
    st = rec_ply_open(r, err);
    if (st != PROX_OK) {
      prox_io_records_close(r);
      return st;
    }
  }
  io_ok(err);
  *reader = r;
  return PROX_OK;
}

prox_status prox_io_records_open(const char *path, const prox_io_records_options *options,
                                 prox_io_records **reader, prox_error *err) {
  FILE *f;
  int is_stdin;
  if (reader) *reader = NULL;
  if (!path || !reader)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: path or reader is NULL");
  is_stdin = strcmp(path, "-") == 0;
  f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) return io_fail(err, PROX_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
  return rec_open(f, !is_stdin, is_stdin ? "<stdin>" : path,
                  is_stdin ? -1 : prox_io_format_from_path(path) == PROX_IO_FORMAT_PLY, options,
                  reader, err);
}

prox_status prox_io_records_open_stream(FILE *stream, const char *name, int ply,
                                        const prox_io_records_options *options,
                                        prox_io_records **reader, prox_error *err) {
  if (reader) *reader = NULL;
  if (!stream || !reader)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: stream or reader is NULL");
  return rec_open(stream, 0, name ? name : "<stream>", ply < 0 ? -1 : !!ply, options, reader, err);
}

prox_status prox_io_records_next(prox_io_records *r, double *values, size_t capacity, size_t *count,
                                 prox_error *err) {
  prox_status st;
  if (count) *count = 0;
  if (!r || !count || (!values && capacity > 0))
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: NULL reader, values or count");
  if (r->failed != PROX_OK) {
    if (err) *err = r->saved;
    return r->failed;
  }
  if (r->kind == REC_TEXT)
    st = rec_text_next(r, values, capacity, count, err);
  else
    st = rec_ply_next(r, values, capacity, count, err);
  if (st != PROX_OK) {
    *count = 0;
    return st;
  }
  r->count += *count;
  io_ok(err);
  return PROX_OK;
}
