/* SPDX-License-Identifier: MIT */
/* io_internal.h: what the readers and writers of prox_io share (not
 * installed): error messages, number scanning, whole-file reads, growable
 * arrays and byte-order helpers. */
#ifndef PROX_IO_INTERNAL_H
#define PROX_IO_INTERNAL_H

#include "prox_io.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define IO_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define IO_PRINTF(f, a)
#endif

/* Fills err (when not NULL) with status and the formatted message; returns
 * status. */
prox_status io_fail(prox_error *err, prox_status status, const char *fmt, ...) IO_PRINTF(3, 4);

/* Sets err to success (status PROX_OK, message ""). */
void io_ok(prox_error *err);

/* The name used in messages: name, or "<memory>" for NULL. */
const char *io_name(const char *name);

/* The strtod fallback of io_scan_double for the text [start, p). */
const char *io_scan_double_slow(const char *start, const char *p, double *out);

/* Powers of ten that are exact doubles. */
static const double io_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Scans a decimal number in [p, end): [+-] digits [. digits] [(e|E) [+-]
 * digits], at least one digit before the exponent. Returns the pointer past
 * it and stores the nearest double in *out, or returns NULL (no number
 * there; *out untouched). Does not look at what follows the number. The
 * result may be infinite when the number overflows: callers check.
 * Clinger's fast path (at most 19 significant digits, a mantissa up to
 * 2^53 and |exponent| <= 22: one correctly rounded operation on exact
 * operands); anything else goes to strtod. */
static inline const char *io_scan_double(const char *p, const char *end, double *out) {
  const char *start = p, *q;
  int neg = 0;
  uint64_t m = 0; /* the digits as one integer (wraps beyond 19 digits) */
  long nd, frac = 0, exp10 = 0;
  if (p < end && (*p == '+' || *p == '-')) {
    neg = *p == '-';
    ++p;
  }
  q = p;
  while (q < end && (unsigned)(*q - '0') < 10u) {
    m = m * 10 + (uint64_t)(*q - '0');
    ++q;
  }
  nd = (long)(q - p);
  if (q < end && *q == '.') {
    const char *f = ++q;
    while (q < end && (unsigned)(*q - '0') < 10u) {
      m = m * 10 + (uint64_t)(*q - '0');
      ++q;
    }
    frac = (long)(q - f);
    nd += frac;
  }
  if (nd == 0) return NULL;
  if (q + 1 < end && (*q == 'e' || *q == 'E')) {
    const char *r = q + 1;
    int eneg = 0;
    if (*r == '+' || *r == '-') {
      eneg = *r == '-';
      ++r;
    }
    if (r < end && (unsigned)(*r - '0') < 10u) {
      long e = 0;
      while (r < end && (unsigned)(*r - '0') < 10u) {
        if (e < 100000) e = e * 10 + (*r - '0');
        ++r;
      }
      exp10 = eneg ? -e : e;
      q = r;
    }
  }
  /* Clinger's fast path: at most 19 digits (so m did not wrap), m and
   * 10^|e| exact doubles: one correctly rounded operation gives the
   * nearest double to the decimal value. */
  if (nd <= 19) {
    long e = exp10 - frac;
    if (m == 0) {
      *out = neg ? -0.0 : 0.0;
      return q;
    }
    if (m <= ((uint64_t)1 << 53) && e >= -22 && e <= 22) {
      double v = (double)m;
      v = e < 0 ? v / io_pow10[-e] : v * io_pow10[e];
      *out = neg ? -v : v;
      return q;
    }
  }
  return io_scan_double_slow(start, q, out);
}

/* Scans an optionally signed decimal integer in [p, end) whose magnitude is
 * below 2^62. Returns the pointer past it, or NULL (no digits, or too
 * large). */
static inline const char *io_scan_int(const char *p, const char *end, long long *out) {
  int neg = 0;
  long long v = 0;
  const char *d0;
  if (p < end && (*p == '+' || *p == '-')) {
    neg = *p == '-';
    ++p;
  }
  d0 = p;
  while (p < end && *p >= '0' && *p <= '9') {
    if (v >= ((long long)1 << 62) / 10) return NULL;
    v = v * 10 + (*p - '0');
    ++p;
  }
  if (p == d0) return NULL;
  *out = neg ? -v : v;
  return p;
}

/* Reads the whole of a file ("-" is standard input) into a malloc'ed
 * buffer with one NUL byte after its end (not counted in *size). Returns
 * PROX_OK or PROX_ERROR_IO / PROX_ERROR_OUT_OF_MEMORY. */
prox_status io_read_file(const char *path, char **data, size_t *size, prox_error *err);

/* A whole file in memory: mapped (POSIX mmap, read-only, not
 * NUL-terminated) or read into a malloc'ed buffer (standard input, files
 * that cannot be mapped, other systems). */
typedef struct io_file {
  const char *data;
  size_t size;
  int mapped;
} io_file;

/* Maps or reads the file at path ("-": standard input, read). Returns
 * PROX_OK, or PROX_ERROR_IO / PROX_ERROR_OUT_OF_MEMORY with *file empty. */
prox_status io_map_file(const char *path, io_file *file, prox_error *err);

/* Releases what io_map_file returned. */
void io_unmap_file(io_file *file);

/* 1 when c is ' ', '\t', '\r', '\v' or '\f' (not '\n'). */
static inline int io_is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Growable arrays of doubles and of uint32 (capacity doubling). */
typedef struct io_dvec {
  double *v;
  size_t n, cap;
} io_dvec;
typedef struct io_uvec {
  uint32_t *v;
  size_t n, cap;
} io_uvec;

/* Makes room for `more` further elements; 0 on success, -1 when out of
 * memory (the vector is unchanged). */
int io_dvec_reserve(io_dvec *a, size_t more);
int io_uvec_reserve(io_uvec *a, size_t more);

/* The native byte order: 1 on a little-endian host. */
static inline int io_host_le(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* Reverses the byte order of the low n bytes of v (n = 1, 2, 4, 8). */
static inline uint64_t io_bswap(uint64_t v, int n) {
#if defined(__GNUC__) || defined(__clang__)
  switch (n) {
  case 2:
    return __builtin_bswap16((uint16_t)v);
  case 4:
    return __builtin_bswap32((uint32_t)v);
  case 8:
    return __builtin_bswap64(v);
  default:
    return v;
  }
#else
  uint64_t r = 0;
  int i;
  for (i = 0; i < n; ++i)
    r = (r << 8) | ((v >> (8 * i)) & 0xff);
  return r;
#endif
}

/* Reads n (1, 2, 4, 8) bytes at p in the given byte order into the low bytes
 * of a uint64: one unaligned load (memcpy), swapped when the order differs
 * from the host's. */
static inline uint64_t io_load(const unsigned char *p, int n, int le) {
  uint64_t v;
  switch (n) {
  case 1:
    return p[0];
  case 2: {
    uint16_t u;
    memcpy(&u, p, 2);
    v = u;
    break;
  }
  case 4: {
    uint32_t u;
    memcpy(&u, p, 4);
    v = u;
    break;
  }
  default:
    memcpy(&v, p, 8);
    break;
  }
  return le == io_host_le() ? v : io_bswap(v, n);
}

/* Scalar types of PLY. */
typedef enum io_ply_scalar {
  IO_PLY_NONE = 0,
  IO_PLY_INT8,
  IO_PLY_UINT8,
  IO_PLY_INT16,
  IO_PLY_UINT16,
  IO_PLY_INT32,
  IO_PLY_UINT32,
  IO_PLY_FLOAT32,
  IO_PLY_FLOAT64
} io_ply_scalar;

/* The PLY type of a name (char, uchar, ..., int8, ..., float64), or
 * IO_PLY_NONE. */
io_ply_scalar io_ply_scalar_from_name(const char *s, size_t n);

/* Bytes of a PLY scalar type. */
static inline int io_ply_scalar_size(io_ply_scalar t) {
  switch (t) {
  case IO_PLY_INT8:
  case IO_PLY_UINT8:
    return 1;
  case IO_PLY_INT16:
  case IO_PLY_UINT16:
    return 2;
  case IO_PLY_INT32:
  case IO_PLY_UINT32:
  case IO_PLY_FLOAT32:
    return 4;
  case IO_PLY_FLOAT64:
    return 8;
  case IO_PLY_NONE:
    break;
  }
  return 0;
}

/* 1 for the integer PLY types. */
static inline int io_ply_scalar_is_int(io_ply_scalar t) {
  return t != IO_PLY_FLOAT32 && t != IO_PLY_FLOAT64;
}

/* Decodes one binary PLY scalar at p as a double (exact for every type). */
static inline double io_ply_decode(const unsigned char *p, io_ply_scalar t, int le) {
  uint64_t b = io_load(p, io_ply_scalar_size(t), le);
  switch (t) {
  case IO_PLY_INT8:
    return (double)(int8_t)(uint8_t)b;
  case IO_PLY_UINT8:
    return (double)(uint8_t)b;
  case IO_PLY_INT16:
    return (double)(int16_t)(uint16_t)b;
  case IO_PLY_UINT16:
    return (double)(uint16_t)b;
  case IO_PLY_INT32:
    return (double)(int32_t)(uint32_t)b;
  case IO_PLY_UINT32:
    return (double)(uint32_t)b;
  case IO_PLY_FLOAT32: {
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
  }
  case IO_PLY_FLOAT64: {
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  case IO_PLY_NONE:
    break;
  }
  return 0.0;
}

/* PLY header, shared by the mesh reader and the point reader. */
typedef struct io_ply_prop {
  char name[64];
  io_ply_scalar type;       /* value type (list: item type) */
  io_ply_scalar count_type; /* IO_PLY_NONE for a scalar property */
} io_ply_prop;

typedef struct io_ply_element {
  char name[64];
  uint64_t count;
  int nprops;
  int props_cap;
  io_ply_prop *props;
  /* binary: bytes of one instance when it has no list, else 0 */
  size_t fixed_size;
  int has_list;
} io_ply_element;

typedef struct io_ply_header {
  int format; /* 0 ascii, 1 binary little endian, 2 binary big endian */
  int nelements;
  int elements_cap;
  io_ply_element *elements;
  size_t header_size; /* bytes up to and including the end_header line */
  long header_lines;  /* lines of the header (the data starts after) */
} io_ply_header;

/* Parses a PLY header in [data, data + size). Returns PROX_OK and fills h
 * (free with io_ply_header_free), or PROX_ERROR_PARSE (also when the header
 * is not complete within size: the caller that streams reads more and tries
 * again when *incomplete is set) or PROX_ERROR_OUT_OF_MEMORY. */
prox_status io_ply_header_parse(const char *name, const char *data, size_t size, io_ply_header *h,
                                int *incomplete, prox_error *err);
void io_ply_header_free(io_ply_header *h);

/* The index of the property called `prop` in element e, or -1. */
int io_ply_find_prop(const io_ply_element *e, const char *prop);

#endif /* PROX_IO_INTERNAL_H */
