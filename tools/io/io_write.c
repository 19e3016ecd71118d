/* SPDX-License-Identifier: MIT */
/* io_write.c: the writers of prox_io: a buffered output file, CSV rows,
 * binary little-endian PLY point clouds, NumPy .npy and its JSON sidecar. */
#include "io_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define IO_OUT_BUF 65536

struct prox_io_out {
  FILE *f;
  int is_stdout;
  int failed; /* errno of the first failed write, or -1 */
  char name[160];
  size_t n;
  char buf[IO_OUT_BUF];
};

static void out_flush(prox_io_out *o) {
  if (o->n && !o->failed) {
    if (fwrite(o->buf, 1, o->n, o->f) != o->n) o->failed = errno ? errno : -1;
  }
  o->n = 0;
}

prox_status prox_io_out_open(const char *path, prox_io_out **out, prox_error *err) {
  prox_io_out *o;
  if (out) *out = NULL;
  if (!path || !out)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: path or out is NULL");
  o = (prox_io_out *)malloc(sizeof *o);
  if (!o) return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
  o->is_stdout = strcmp(path, "-") == 0;
  o->f = o->is_stdout ? stdout : fopen(path, "wb");
  o->failed = 0;
  o->n = 0;
  snprintf(o->name, sizeof o->name, "%s", o->is_stdout ? "<stdout>" : path);
  if (!o->f) {
    int e = errno;
    free(o);
    return io_fail(err, PROX_ERROR_IO, "%s: cannot open for writing: %s", path, strerror(e));
  }
  *out = o;
  io_ok(err);
  return PROX_OK;
}

void prox_io_out_bytes(prox_io_out *o, const void *data, size_t size) {
  const char *p = (const char *)data;
  while (size > 0) {
    size_t k = IO_OUT_BUF - o->n;
    if (k > size) k = size;
    memcpy(o->buf + o->n, p, k);
    o->n += k;
    p += k;
    size -= k;
    if (o->n == IO_OUT_BUF) out_flush(o);
  }
}

void prox_io_out_str(prox_io_out *o, const char *s) {
  prox_io_out_bytes(o, s, strlen(s));
}

void prox_io_out_double(prox_io_out *o, double x) {
  if (isnan(x)) {
    prox_io_out_bytes(o, "nan", 3);
    return;
  }
  if (isinf(x)) {
    prox_io_out_str(o, x > 0 ? "inf" : "-inf");
    return;
  }
  if (IO_OUT_BUF - o->n < 32) out_flush(o);
  o->n += prox_io_format_double(x, o->buf + o->n);
}

void prox_io_out_int(prox_io_out *o, long long v) {
  char tmp[24];
  size_t n = sizeof tmp;
  /* digits from the end; the magnitude as unsigned (LLONG_MIN too) */
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do {
    tmp[--n] = (char)('0' + u % 10u);
    u /= 10u;
  } while (u);
  if (v < 0) tmp[--n] = '-';
  prox_io_out_bytes(o, tmp + n, sizeof tmp - n);
}

prox_status prox_io_out_close(prox_io_out *o, prox_error *err) {
  int failed;
  char name[160];
  if (!o) {
    io_ok(err);
    return PROX_OK;
  }
  out_flush(o);
  if (!o->failed && fflush(o->f) != 0) o->failed = errno ? errno : -1;
  if (!o->is_stdout && fclose(o->f) != 0 && !o->failed) o->failed = errno ? errno : -1;
  failed = o->failed;
  memcpy(name, o->name, sizeof name);
  free(o);
  if (failed)
    return io_fail(err, PROX_ERROR_IO, "%s: write error: %s", name,
                   failed > 0 ? strerror(failed) : "unknown");
  io_ok(err);
  return PROX_OK;
}

void prox_io_csv_row(prox_io_out *o, const double *values, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    if (i) prox_io_out_bytes(o, ",", 1);
    prox_io_out_double(o, values[i]);
  }
  prox_io_out_bytes(o, "\n", 1);
}

/* ------------------------------------------------------------------------ */
/* PLY points                                                               */
/* ------------------------------------------------------------------------ */

struct prox_io_ply_writer {
  prox_io_out *out;
  uint64_t declared, written;
  int extra_count;
  prox_io_ply_type types[PROX_IO_MAX_FIELDS];
};

/* Appends the little-endian bytes of v (n bytes). */
static void out_le(prox_io_out *o, uint64_t v, int n) {
  unsigned char b[8];
  int i;
  for (i = 0; i < n; ++i)
    b[i] = (unsigned char)(v >> (8 * i));
  prox_io_out_bytes(o, b, (size_t)n);
}

static void out_f64(prox_io_out *o, double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  out_le(o, u, 8);
}

static void out_f32(prox_io_out *o, float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  out_le(o, u, 4);
}

prox_status prox_io_ply_writer_open(const char *path, uint64_t count, int extra_count,
                                    const char *const *extra_names,
                                    const prox_io_ply_type *extra_types,
                                    prox_io_ply_writer **writer, prox_error *err) {
  prox_io_ply_writer *w;
  prox_status st;
  char line[128];
  int i;
  if (writer) *writer = NULL;
  if (!path || !writer || extra_count < 0 || extra_count > PROX_IO_MAX_FIELDS ||
      (extra_count > 0 && (!extra_names || !extra_types)))
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: bad PLY writer arguments");
  for (i = 0; i < extra_count; ++i) {
    const char *s = extra_names[i];
    size_t k;
    if (!s || !*s || strlen(s) > 60 ||
        (extra_types[i] != PROX_IO_PLY_FLOAT && extra_types[i] != PROX_IO_PLY_DOUBLE))
      return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: bad PLY property %d", i);
    for (k = 0; s[k]; ++k)
      if ((unsigned char)s[k] <= ' ' || (unsigned char)s[k] >= 127)
        return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: bad PLY property name '%s'", s);
  }
  w = (prox_io_ply_writer *)calloc(1, sizeof *w);
  if (!w) return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
  st = prox_io_out_open(path, &w->out, err);
  if (st != PROX_OK) {
    free(w);
    return st;
  }
  w->declared = count;
  w->extra_count = extra_count;
  prox_io_out_str(w->out, "ply\nformat binary_little_endian 1.0\n"
                          "comment written by prox\n");
  snprintf(line, sizeof line, "element vertex %" PRIu64 "\n", count);
  prox_io_out_str(w->out, line);
  prox_io_out_str(w->out, "property double x\nproperty double y\n"
                          "property double z\n");
  for (i = 0; i < extra_count; ++i) {
    w->types[i] = extra_types[i];
    snprintf(line, sizeof line, "property %s %s\n",
             extra_types[i] == PROX_IO_PLY_FLOAT ? "float" : "double", extra_names[i]);
    prox_io_out_str(w->out, line);
  }
  prox_io_out_str(w->out, "end_header\n");
  *writer = w;
  io_ok(err);
  return PROX_OK;
}

void prox_io_ply_writer_vertex(prox_io_ply_writer *w, const double *xyz, const double *extra) {
  int i;
  if (w->written++ >= w->declared) return;
  out_f64(w->out, xyz[0]);
  out_f64(w->out, xyz[1]);
  out_f64(w->out, xyz[2]);
  for (i = 0; i < w->extra_count; ++i) {
    if (w->types[i] == PROX_IO_PLY_FLOAT)
      out_f32(w->out, (float)extra[i]);
    else
      out_f64(w->out, extra[i]);
  }
}

prox_status prox_io_ply_writer_close(prox_io_ply_writer *w, prox_error *err) {
  prox_status st;
  uint64_t declared, written;
  char name[160];
  if (!w) {
    io_ok(err);
    return PROX_OK;
  }
  declared = w->declared;
  written = w->written;
  memcpy(name, w->out->name, sizeof name);
  st = prox_io_out_close(w->out, err);
  free(w);
  if (st != PROX_OK) return st;
  if (written != declared)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT,
                   "%s: %" PRIu64 " vertices written, the header says %" PRIu64, name, written,
                   declared);
  return PROX_OK;
}

/* ------------------------------------------------------------------------ */
/* NumPy .npy                                                               */
/* ------------------------------------------------------------------------ */

struct prox_io_npy_writer {
  prox_io_out *out;
  uint64_t declared, written;
};

prox_status prox_io_npy_writer_open(const char *path, uint64_t nz, uint64_t ny, uint64_t nx,
                                    prox_io_npy_writer **writer, prox_error *err) {
  prox_io_npy_writer *w;
  prox_status st;
  char dict[256];
  unsigned char pre[10];
  size_t len, total;
  if (writer) *writer = NULL;
  if (!path || !writer)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: path or writer is NULL");
  if ((ny && nz > UINT64_MAX / ny) || (nx && nz * ny > UINT64_MAX / nx))
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT, "prox_io: .npy shape too large");
  /* Format 1.0: magic, version, a 2-byte little-endian header length, then
   * the dict padded with spaces and ended by '\n' so that the data starts
   * at a multiple of 64 bytes. */
  snprintf(dict, sizeof dict,
           "{'descr': '<f4', 'fortran_order': False, 'shape': (%" PRIu64 ", %" PRIu64 ", %" PRIu64
           "), }",
           nz, ny, nx);
  len = strlen(dict);
  total = 10 + len + 1;
  total = (total + 63) / 64 * 64;
  w = (prox_io_npy_writer *)calloc(1, sizeof *w);
  if (!w) return io_fail(err, PROX_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
  st = prox_io_out_open(path, &w->out, err);
  if (st != PROX_OK) {
    free(w);
    return st;
  }
  w->declared = nz * ny * nx;
  memcpy(pre, "\x93NUMPY\x01\x00", 8);
  pre[8] = (unsigned char)((total - 10) & 0xff);
  pre[9] = (unsigned char)((total - 10) >> 8);
  prox_io_out_bytes(w->out, pre, 10);
  prox_io_out_bytes(w->out, dict, len);
  while (10 + len + 1 < total) {
    prox_io_out_bytes(w->out, " ", 1);
    ++len;
  }
  prox_io_out_bytes(w->out, "\n", 1);
  *writer = w;
  io_ok(err);
  return PROX_OK;
}

void prox_io_npy_writer_values(prox_io_npy_writer *w, const float *values, size_t n) {
  size_t i;
  w->written += n;
  if (io_host_le()) {
    prox_io_out_bytes(w->out, values, n * sizeof(float));
    return;
  }
  for (i = 0; i < n; ++i)
    out_f32(w->out, values[i]);
}

prox_status prox_io_npy_writer_close(prox_io_npy_writer *w, prox_error *err) {
  prox_status st;
  uint64_t declared, written;
  char name[160];
  if (!w) {
    io_ok(err);
    return PROX_OK;
  }
  declared = w->declared;
  written = w->written;
  memcpy(name, w->out->name, sizeof name);
  st = prox_io_out_close(w->out, err);
  free(w);
  if (st != PROX_OK) return st;
  if (written != declared)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT,
                   "%s: %" PRIu64 " values written, the shape holds %" PRIu64, name, written,
                   declared);
  return PROX_OK;
}

/* Appends s as a JSON string. */
static void out_json_string(prox_io_out *o, const char *s) {
  prox_io_out_bytes(o, "\"", 1);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', (char)c};
      prox_io_out_bytes(o, esc, 2);
    } else if (c < 0x20) {
      char esc[8];
      snprintf(esc, sizeof esc, "\\u%04x", c);
      prox_io_out_str(o, esc);
    } else {
      prox_io_out_bytes(o, s, 1);
    }
  }
  prox_io_out_bytes(o, "\"", 1);
}

prox_status prox_io_write_grid_json(const char *path, const char *data_file,
                                    const uint64_t shape_zyx[3], const double origin_xyz[3],
                                    const double spacing_xyz[3], prox_error *err) {
  prox_io_out *o;
  prox_status st;
  char line[160];
  int i;
  if (!path || !shape_zyx || !origin_xyz || !spacing_xyz)
    return io_fail(err, PROX_ERROR_INVALID_ARGUMENT,
                   "prox_io: NULL argument to the JSON sidecar writer");
  for (i = 0; i < 3; ++i)
    if (!isfinite(origin_xyz[i]) || !isfinite(spacing_xyz[i]))
      return io_fail(err, PROX_ERROR_INVALID_ARGUMENT,
                     "prox_io: non-finite grid origin or spacing");
  st = prox_io_out_open(path, &o, err);
  if (st != PROX_OK) return st;
  prox_io_out_str(o, "{");
  if (data_file) {
    prox_io_out_str(o, "\"file\": ");
    out_json_string(o, data_file);
    prox_io_out_str(o, ", ");
  }
  snprintf(line, sizeof line,
           "\"dtype\": \"float32\", \"shape\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64
           "], \"order\": \"zyx\", \"origin\": [",
           shape_zyx[0], shape_zyx[1], shape_zyx[2]);
  prox_io_out_str(o, line);
  for (i = 0; i < 3; ++i) {
    if (i) prox_io_out_str(o, ", ");
    prox_io_out_double(o, origin_xyz[i]);
  }
  prox_io_out_str(o, "], \"spacing\": [");
  for (i = 0; i < 3; ++i) {
    if (i) prox_io_out_str(o, ", ");
    prox_io_out_double(o, spacing_xyz[i]);
  }
  prox_io_out_str(o, "]}\n");
  return prox_io_out_close(o, err);
}

int prox_io_sidecar_path(const char *path, char *buf, size_t size) {
  const char *dot, *slash;
  size_t stem;
  if (!buf || size == 0) return -1;
  buf[0] = '\0';
  if (!path) return -1;
  dot = strrchr(path, '.');
  slash = strrchr(path, '/');
  stem = (dot && (!slash || dot > slash) && dot != path && (!slash || dot != slash + 1))
             ? (size_t)(dot - path)
             : strlen(path);
  if (stem + 6 > size) return -1;
  memcpy(buf, path, stem);
  memcpy(buf + stem, ".json", 6);
  return 0;
}
