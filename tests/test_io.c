/* SPDX-License-Identifier: MIT */
/* The readers and writers of prox_io (tools/io) on files this test writes
 * itself, so the expected content is known independently of the readers:
 *
 * - numbers: decimal text of random doubles (%.17g, %.15g, %.6e, random
 *   digit strings with exponents) read through OBJ `v` records must give
 *   exactly strtod's double;
 * - OBJ: every corner form, negative indices, polygons, comments, CRLF,
 *   skipped records, against the arrays the file was written from;
 * - PLY: a random mesh written in ascii, binary little and big endian with
 *   every scalar type for coordinates, counts and indices, x y z scattered
 *   among other properties, unknown elements with lists, polygons;
 * - STL: binary (also with a header that starts with "solid"), ascii with
 *   several solids, welding with 0.0 / -0.0;
 * - malformed input for every reader (bad numbers, NaN/inf, index 0 and out
 *   of range, huge header counts, truncation at every offset, flipped
 *   bytes): an error status, a message naming the file and the line (byte
 *   for binary data), no data; under ASan no leak and no bad access;
 * - the streaming record reader (text and PLY, tiny buffers so that every
 *   record crosses a refill) and the writers (CSV round trip, binary PLY
 *   read back, .npy header and data, the JSON sidecar);
 * - the writers' number format against snprintf's %.17g, character for
 *   character (test_format_double). */
#include "harness.h"
#include "prox_io.h"
#include "rng.h"

#include <ctype.h>
#include <float.h>
#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

/* A growable text buffer. */
typedef struct tb {
  char *s;
  size_t n, cap;
} tb;

static void tb_put(tb *b, const void *p, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n + 1)
      cap *= 2;
    b->s = (char *)realloc(b->s, cap);
    if (!b->s) abort();
    b->cap = cap;
  }
  memcpy(b->s + b->n, p, n);
  b->n += n;
  b->s[b->n] = '\0';
}

static void tb_printf(tb *b, const char *fmt, ...) H_PRINTF(2, 3);
static void tb_printf(tb *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  tb_put(b, tmp, (size_t)n);
}

/* Appends v as n bytes in the given byte order. */
static void tb_bytes(tb *b, uint64_t v, int n, int le) {
  unsigned char x[8];
  int i;
  for (i = 0; i < n; ++i)
    x[le ? i : n - 1 - i] = (unsigned char)(v >> (8 * i));
  tb_put(b, x, (size_t)n);
}

static void tb_f32(tb *b, float f, int le) {
  uint32_t u;
  memcpy(&u, &f, 4);
  tb_bytes(b, u, 4, le);
}

static void tb_f64(tb *b, double d, int le) {
  uint64_t u;
  memcpy(&u, &d, 8);
  tb_bytes(b, u, 8, le);
}

/* The generator of the random inputs, seeded at the start of main. */
static oracle_rng rng;

static double unif(void) {
  return (double)(oracle_rng_next(&rng) >> 11) * 0x1p-53;
}

static int parse(const char *name, prox_io_format f, const tb *b, const prox_io_mesh_options *o,
                 prox_io_mesh *m, prox_error *e) {
  return (int)prox_io_parse_mesh(name, f, b->s, b->n, o, m, e);
}

/* Where the last white-space separated token of b starts: a text cut
 * after it may still be valid (a prefix of a number is a number). */
static size_t last_token_start(const tb *b) {
  size_t k = b->n;
  while (k > 0 && isspace((unsigned char)b->s[k - 1]))
    --k;
  while (k > 0 && !isspace((unsigned char)b->s[k - 1]))
    --k;
  return k;
}

/* The message starts with "NAME:LINE:" (line > 0) or "NAME: byte " (line
 * 0) or "NAME:" (line < 0: any place). */
static int msg_is(const prox_error *e, const char *name, long line) {
  char want[256];
  if (line > 0)
    snprintf(want, sizeof want, "%s:%ld: ", name, line);
  else if (line == 0)
    snprintf(want, sizeof want, "%s: byte ", name);
  else
    snprintf(want, sizeof want, "%s:", name);
  return strncmp(e->message, want, strlen(want)) == 0;
}

/* A mesh parse that must fail with PROX_ERROR_PARSE and a message naming
 * name and line (see msg_is) and return no data. */
#define CHECK_PARSE_FAILS(fmt, text, line)                                                         \
  do {                                                                                             \
    prox_io_mesh m_;                                                                               \
    prox_error e_;                                                                                 \
    int st_ = (int)prox_io_parse_mesh("bad.x", fmt, text, strlen(text), NULL, &m_, &e_);           \
    CHECK_MSG(st_ == PROX_ERROR_PARSE && msg_is(&e_, "bad.x", line) && m_.vertices == NULL &&      \
                  m_.triangles == NULL,                                                            \
              "status %d message '%s' for input '%.60s' (line %d)", st_, e_.message, text, line);  \
    prox_io_mesh_free(&m_);                                                                        \
  } while (0)

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */
/* ------------------------------------------------------------------------ */

static void test_numbers_match_strtod(void) {
  const long n = h_count(200000);
  tb b = {NULL, 0, 0};
  char **texts = (char **)calloc((size_t)n * 3, sizeof *texts);
  prox_io_mesh m;
  prox_error e;
  long i, bad = 0;
  for (i = 0; i < 3 * n; ++i) {
    char t[128];
    int kind = (int)(oracle_rng_next(&rng) % 6);
    double x;
    uint64_t u = oracle_rng_next(&rng);
    if (kind == 0) { /* any finite double, 17 digits */
      do {
        u = oracle_rng_next(&rng);
        memcpy(&x, &u, 8);
      } while (!isfinite(x));
      snprintf(t, sizeof t, "%.17g", x);
    } else if (kind == 1) { /* short decimals as in mesh files */
      snprintf(t, sizeof t, "%.6f", (unif() - 0.5) * 200);
    } else if (kind == 2) {
      snprintf(t, sizeof t, "%.15g", (unif() - 0.5) * pow(10, (int)(u % 40) - 20));
    } else if (kind == 3) {
      snprintf(t, sizeof t, "%.6e", (unif() - 0.5) * pow(10, (int)(u % 80) - 40));
    } else if (kind == 4) { /* random digit strings, up to 30 digits */
      int nd = 1 + (int)(u % 30), k, pos = 0, dot = (int)((u >> 8) % 32);
      if ((u >> 20) & 1) t[pos++] = '-';
      for (k = 0; k < nd; ++k) {
        if (k == dot) t[pos++] = '.';
        t[pos++] = (char)('0' + oracle_rng_next(&rng) % 10);
      }
      if ((u >> 21) & 1)
        pos += snprintf(t + pos, sizeof t - (size_t)pos, "e%d", (int)((u >> 24) % 700) - 350);
      t[pos] = '\0';
    } else { /* halfway cases near 2^53 and small integers */
      snprintf(t, sizeof t, "%llu.5e%d", (unsigned long long)((u >> 11) | 1), (int)(u % 45) - 22);
    }
    texts[i] = (char *)malloc(strlen(t) + 1);
    strcpy(texts[i], t);
  }
  for (i = 0; i < n; ++i)
    tb_printf(&b, "v %s %s\t%s\n", texts[3 * i], texts[3 * i + 1], texts[3 * i + 2]);
  /* Some texts overflow (1e350): drop those lines' expectation by checking
   * the status per line instead. Replace them with 0 to keep one file. */
  free(b.s);
  memset(&b, 0, sizeof b);
  for (i = 0; i < 3 * n; ++i)
    if (!isfinite(strtod(texts[i], NULL))) strcpy(texts[i], "0");
  for (i = 0; i < n; ++i)
    tb_printf(&b, "v %s %s\t%s\n", texts[3 * i], texts[3 * i + 1], texts[3 * i + 2]);
  CHECK_MSG(prox_io_parse_mesh("n.obj", PROX_IO_FORMAT_OBJ, b.s, b.n, NULL, &m, &e) == PROX_OK,
            "%s", e.message);
  CHECK_INT_EQ(m.vertex_count, n);
  for (i = 0; i < 3 * n && (size_t)i < 3 * m.vertex_count; ++i) {
    double want = strtod(texts[i], NULL);
    if (memcmp(&want, &m.vertices[i], 8) != 0 && ++bad <= 10)
      CHECK_MSG(0, "'%s': read %.17g, strtod %.17g", texts[i], m.vertices[i], want);
  }
  CHECK_INT_EQ(bad, 0);
  prox_io_mesh_free(&m);
  for (i = 0; i < 3 * n; ++i)
    free(texts[i]);
  free(texts);
  free(b.s);
}

/* prox_io_format_double against snprintf's %.17g (glibc's exact
 * conversion), character for character: any finite bit pattern; dyadic
 * fractions (many exact ties at the 17th digit); decimals across 1e-20 ..
 * 1e20; integers of every size; the doubles within 32 ulps of the powers of
 * ten (the carry into a new digit); coordinate-like values; zeros, the
 * extremes and non-finite values. Most lie in the exact integer path's
 * range (decimal exponent -16 to 16); the rest check the fallback. */
static void test_format_double(void) {
  const long n = h_count(2000000);
  static const double special[] = {0.0,
                                   1.0,
                                   0.1,
                                   0.5,
                                   1e16,
                                   1e17,
                                   99999999999999999.0,
                                   1e-16,
                                   1e-17,
                                   1e-5,
                                   1e-4,
                                   0.00012345,
                                   4503599627370496.5,
                                   9007199254740993.0,
                                   DBL_TRUE_MIN,
                                   DBL_MIN,
                                   DBL_MAX,
                                   INFINITY,
                                   NAN};
  long i, bad = 0, checked = 0;
  for (i = -(long)(2 * sizeof special / sizeof *special); i < n; ++i) {
    char got[40], want[40];
    size_t len;
    double x;
    uint64_t u = oracle_rng_next(&rng);
    if (i < 0) {
      long j = -i - 1;
      x = special[j / 2];
      if (j & 1) x = -x;
    } else {
      switch (i % 6) {
      case 0: /* any finite bit pattern */
        memcpy(&x, &u, 8);
        if (!isfinite(x)) x = 0.75;
        break;
      case 1: /* dyadic */
        x = ldexp((double)(u >> 11), -(int)(oracle_rng_next(&rng) % 120));
        break;
      case 2:
        x = pow(10.0, (double)((int)(u % 40) - 20)) * unif();
        break;
      case 3: /* integers */
        x = (double)(int64_t)(u >> (oracle_rng_next(&rng) % 64));
        break;
      case 4: { /* near a power of ten */
        double p = pow(10.0, (double)((int)(u % 36) - 18));
        uint64_t b;
        memcpy(&b, &p, 8);
        b += oracle_rng_next(&rng) % 64 - 32;
        memcpy(&x, &b, 8);
        break;
      }
      default: /* coordinates */
        x = (unif() - 0.5) * pow(10.0, (double)((int)(u % 9) - 4));
        break;
      }
    }
    len = prox_io_format_double(x, got);
    snprintf(want, sizeof want, "%.17g", x);
    ++checked;
    if ((len != strlen(want) || strcmp(got, want) != 0) && ++bad <= 10)
      CHECK_MSG(0, "%a: '%s', snprintf '%s'", x, got, want);
  }
  CHECK_INT_EQ(bad, 0);
  CHECK(checked > n);
}

/* ------------------------------------------------------------------------ */
/* OBJ                                                                      */
/* ------------------------------------------------------------------------ */

static void test_obj_forms(void) {
  /* Vertices i = 0..7 at (i, 2i, -i/4) (exact in decimal), faces in every
   * corner form; expected triangles written down from the fan rule. */
  static const char *text = "# a comment\r\n"
                            "mtllib x.mtl\r\n"
                            "o thing\r\n"
                            "v 0 0 -0\r\n"
                            "v 1 2 -0.25\r\n"
                            "v 2 4 -0.5 1.0\r\n" /* w is ignored */
                            "   \r\n"
                            "\r\n"
                            "vt 0.5 0.5\r\n"
                            "vn 0 0 1\r\n"
                            "v 3 6 -0.75\r\n"
                            "g group\r\n"
                            "s off\r\n"
                            "usemtl m\r\n"
                            "f 1 2 3\r\n"
                            "f 1/1 3/1 4/1\r\n"
                            "f 2//1 3//1 4//1\r\n"
                            "f 1/1/1 2/1/1 3/1/1 4/1/1\r\n" /* quad: 2 triangles */
                            "v 4 8 -1\n"
                            "v 5 10 -1.25\n"
                            "\tv 6 12 -1.5\n"
                            "v 7 14 -1.75 # trailing comment is not a number... skipped\n"
                            "f -1 -2 -3\n"               /* 7 6 5 (0-based) */
                            "f -4/1 -3/1/1 -2//1 -1 1\n" /* pentagon of 4 5 6 7 0 */
                            "l 1 2\n"
                            "p 3\n"
                            "f 8 7 6"; /* no final newline */
  static const uint32_t want[] = {0, 1, 2, 0, 2, 3, 1, 2, 3, 0, 1, 2, 0, 2, 3,
                                  7, 6, 5, 4, 5, 6, 4, 6, 7, 4, 7, 0, 7, 6, 5};
  prox_io_mesh m;
  prox_error e;
  size_t i;
  int st = (int)prox_io_parse_mesh("f.obj", PROX_IO_FORMAT_OBJ, text, strlen(text), NULL, &m, &e);
  CHECK_MSG(st == PROX_OK, "%s", e.message);
  if (st != PROX_OK) return;
  CHECK_INT_EQ(m.vertex_count, 8);
  CHECK_INT_EQ(m.triangle_count, sizeof want / sizeof want[0] / 3);
  CHECK_INT_EQ(m.polygons_triangulated, 2);
  CHECK_INT_EQ(m.records_skipped, 9);
  CHECK(m.format == PROX_IO_FORMAT_OBJ && !m.binary);
  for (i = 0; i < 8; ++i) {
    CHECK(m.vertices[3 * i] == (double)i);
    CHECK(m.vertices[3 * i + 1] == 2.0 * (double)i);
    CHECK(m.vertices[3 * i + 2] == -0.25 * (double)i);
  }
  for (i = 0; i < 3 * m.triangle_count && i < sizeof want / sizeof want[0]; ++i)
    CHECK_MSG(m.triangles[i] == want[i], "index %zu: %u, expected %u", i, m.triangles[i], want[i]);
  prox_io_mesh_free(&m);
  CHECK(m.vertices == NULL && m.vertex_count == 0);

  /* An empty file and one without faces are valid, empty meshes. */
  st = (int)prox_io_parse_mesh("e.obj", PROX_IO_FORMAT_OBJ, "", 0, NULL, &m, &e);
  CHECK_MSG(st == PROX_OK && m.vertex_count == 0 && m.triangle_count == 0 && m.vertices != NULL &&
                e.message[0] == '\0',
            "%d %zu %zu %p '%s'", st, m.vertex_count, m.triangle_count, (void *)m.vertices,
            e.message);
  prox_io_mesh_free(&m);
}

static void test_obj_errors(void) {
  const prox_io_format f = PROX_IO_FORMAT_OBJ;
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nf 1 2 3\nf 3 2 1 5\nv 0 1 0\n",
                    4); /* forward reference past the end */
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3x\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/ 2 3\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/2/ 2 3\n", 4);
  CHECK_PARSE_FAILS(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999\n", 4);
  CHECK_PARSE_FAILS(f, "# c\nv 0 0\n", 2);
  CHECK_PARSE_FAILS(f, "\n\nv 0 0 nan\n", 3);
  CHECK_PARSE_FAILS(f, "v 0 0 inf\n", 1);
  CHECK_PARSE_FAILS(f, "v 0 0 1e999\n", 1);
  CHECK_PARSE_FAILS(f, "v 0 0 -1e400\n", 1);
  CHECK_PARSE_FAILS(f, "v 0x10 0 0\n", 1);
  CHECK_PARSE_FAILS(f, "v 1.2.3 0 0\n", 1);
  CHECK_PARSE_FAILS(f, "v 1e 0 0\n", 1);
  CHECK_PARSE_FAILS(f, "v - 0 0\n", 1);
  CHECK_PARSE_FAILS(f, "v 1,0 0 0\n", 1);
  CHECK_PARSE_FAILS(f, "v\n", 1);
  CHECK_PARSE_FAILS(f, "v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3.\r\n", 4);
}

/* ------------------------------------------------------------------------ */
/* PLY                                                                      */
/* ------------------------------------------------------------------------ */

static const char *const ply_type_names[8][2] = {
    {"char", "int8"}, {"uchar", "uint8"}, {"short", "int16"},   {"ushort", "uint16"},
    {"int", "int32"}, {"uint", "uint32"}, {"float", "float32"}, {"double", "float64"}};
static const int ply_type_size[8] = {1, 1, 2, 2, 4, 4, 4, 8};

/* Appends value v (representable in type t) to a PLY body. */
static void ply_put(tb *b, int fmt, int t, double v) {
  int le = fmt == 1;
  if (fmt == 0) {
    tb_printf(b, "%.17g ", v);
    return;
  }
  switch (t) {
  case 0:
  case 2:
  case 4:
    tb_bytes(b, (uint64_t)(int64_t)v, ply_type_size[t], le);
    break;
  case 1:
  case 3:
  case 5:
    tb_bytes(b, (uint64_t)v, ply_type_size[t], le);
    break;
  case 6:
    tb_f32(b, (float)v, le);
    break;
  default:
    tb_f64(b, v, le);
  }
}

/* A random value representable in PLY type t. */
static double ply_rand(int t) {
  double u = unif();
  switch (t) {
  case 0:
    return floor(u * 256) - 128;
  case 1:
    return floor(u * 256);
  case 2:
    return floor(u * 65536) - 32768;
  case 3:
    return floor(u * 65536);
  case 4:
    return floor(u * 4294967296.0) - 2147483648.0;
  case 5:
    return floor(u * 4294967296.0);
  case 6:
    return (double)(float)((u - 0.5) * 1e3);
  default:
    return (u - 0.5) * 1e-3;
  }
}

static void test_ply_encodings(void) {
  const long rounds = h_count(300);
  static const char *const fmt_names[3] = {"ascii", "binary_little_endian", "binary_big_endian"};
  long r;
  for (r = 0; r < rounds; ++r) {
    int fmt = (int)(r % 3), j, a;
    uint32_t nv = 3 + (uint32_t)(oracle_rng_next(&rng) % 40);
    uint32_t nf = (uint32_t)(oracle_rng_next(&rng) % 30);
    int ct = (int)(oracle_rng_next(&rng) % 6); /* count type: integer */
    int it = (int)(oracle_rng_next(&rng) % 6); /* index type: integer */
    int xyz_t[3], nextra = (int)(oracle_rng_next(&rng) % 4), order[7];
    int extra_t[4], shin_t;
    double *v = (double *)malloc(3 * nv * sizeof *v);
    uint32_t *want = (uint32_t *)malloc(3 * 64 * (nf + 1) * sizeof *want);
    size_t nwant = 0, npoly = 0;
    tb b = {NULL, 0, 0};
    prox_io_mesh m;
    prox_error e;
    int st, nprops = 3 + nextra;
    uint32_t k;
    /* uchar/char counts cap polygons at 127 corners; indices must fit. */
    while ((it == 0 && nv > 127) || (it == 1 && nv > 255))
      it = 4;
    for (a = 0; a < 3; ++a)
      xyz_t[a] = (int)(oracle_rng_next(&rng) % 8);
    for (a = 0; a < nextra; ++a)
      extra_t[a] = (int)(oracle_rng_next(&rng) % 8);
    /* property order: 0..2 = x y z, 3.. = extras, shuffled */
    for (a = 0; a < nprops; ++a)
      order[a] = a;
    for (a = nprops - 1; a > 0; --a) {
      int s = (int)(oracle_rng_next(&rng) % (uint64_t)(a + 1)), tmp = order[a];
      order[a] = order[s];
      order[s] = tmp;
    }
    tb_printf(&b, "ply\nformat %s 1.0\ncomment round %ld\nobj_info x\n", fmt_names[fmt], r);
    /* an unknown element with a list before the vertices */
    shin_t = (int)(oracle_rng_next(&rng) % 8);
    tb_printf(&b,
              "element material 2\nproperty list uchar float rgba\n"
              "property %s shininess\n",
              ply_type_names[shin_t][r % 2]);
    tb_printf(&b, "element vertex %u\n", nv);
    for (a = 0; a < nprops; ++a) {
      int p = order[a];
      if (p < 3)
        tb_printf(&b, "property %s %c\n", ply_type_names[xyz_t[p]][(r / 3) % 2], "xyz"[p]);
      else
        tb_printf(&b, "property %s extra%d\n", ply_type_names[extra_t[p - 3]][(r / 3) % 2], p);
    }
    tb_printf(&b, "element face %u\n", nf);
    if (r % 5 == 0) tb_printf(&b, "property uchar flags\n");
    tb_printf(&b, "property list %s %s %s\n", ply_type_names[ct][r % 2], ply_type_names[it][r % 2],
              r % 4 == 1 ? "vertex_index" : "vertex_indices");
    if (r % 7 == 0) tb_printf(&b, "property list uchar int texnumber\n");
    tb_printf(&b, "element edge 1\nproperty int vertex1\nproperty int "
                  "vertex2\nend_header\n");
    /* body */
    for (j = 0; j < 2; ++j) {
      int n = (int)(oracle_rng_next(&rng) % 5);
      ply_put(&b, fmt, 1, (double)n);
      for (a = 0; a < n; ++a)
        ply_put(&b, fmt, 6, ply_rand(6));
      ply_put(&b, fmt, shin_t, ply_rand(shin_t));
      if (fmt == 0) tb_put(&b, "\n", 1);
    }
    for (k = 0; k < nv; ++k) {
      for (a = 0; a < nprops; ++a) {
        int p = order[a];
        int t = p < 3 ? xyz_t[p] : extra_t[p - 3];
        double x = ply_rand(t);
        if (p < 3) v[3 * k + (uint32_t)p] = x;
        ply_put(&b, fmt, t, x);
      }
      if (fmt == 0) tb_put(&b, "\n", 1);
    }
    for (k = 0; k < nf; ++k) {
      uint32_t n = 3 + (uint32_t)(oracle_rng_next(&rng) % 4), c, first = 0, prev = 0;
      if (n > 3) ++npoly;
      if (r % 5 == 0) ply_put(&b, fmt, 1, 7);
      ply_put(&b, fmt, ct, (double)n);
      for (c = 0; c < n; ++c) {
        uint32_t idx = (uint32_t)(oracle_rng_next(&rng) % nv);
        ply_put(&b, fmt, it, (double)idx);
        if (c == 0) first = idx;
        if (c >= 2) {
          want[nwant++] = first;
          want[nwant++] = prev;
          want[nwant++] = idx;
        }
        prev = idx;
      }
      if (r % 7 == 0) {
        ply_put(&b, fmt, 1, 2);
        ply_put(&b, fmt, 4, -5);
        ply_put(&b, fmt, 4, 6);
      }
      if (fmt == 0) tb_put(&b, "\n", 1);
    }
    ply_put(&b, fmt, 4, 1);
    ply_put(&b, fmt, 4, 2);
    if (fmt == 0) tb_put(&b, "\n", 1);

    st = parse("g.ply", PROX_IO_FORMAT_PLY, &b, NULL, &m, &e);
    h_case_begin();
    CHECK_MSG(st == PROX_OK, "round %ld: %s", r, e.message);
    if (st == PROX_OK) {
      CHECK_INT_EQ(m.vertex_count, nv);
      CHECK_INT_EQ(m.triangle_count, nwant / 3);
      CHECK_INT_EQ(m.polygons_triangulated, npoly);
      CHECK_INT_EQ(m.records_skipped, 3);
      CHECK(m.binary == (fmt != 0));
      for (k = 0; k < 3 * nv && k < 3 * m.vertex_count; ++k)
        CHECK_MSG(m.vertices[k] == v[k], "vertex value %u: %.17g vs %.17g", k, m.vertices[k], v[k]);
      for (k = 0; k < nwant && k < 3 * m.triangle_count; ++k)
        CHECK(m.triangles[k] == want[k]);
    }
    if (h_case_failed()) h_note("round %ld format %s", r, fmt_names[fmt]);
    prox_io_mesh_free(&m);
    free(b.s);
    free(v);
    free(want);
  }
}

/* A small valid PLY of 4 vertices and 2 faces in the given format. */
static void small_ply(tb *b, int fmt) {
  static const char *const names[3] = {"ascii", "binary_little_endian", "binary_big_endian"};
  int k;
  tb_printf(b,
            "ply\nformat %s 1.0\nelement vertex 4\nproperty float x\n"
            "property float y\nproperty float z\nelement face 2\n"
            "property list uchar int vertex_indices\nend_header\n",
            names[fmt]);
  for (k = 0; k < 4; ++k) {
    ply_put(b, fmt, 6, (double)k);
    ply_put(b, fmt, 6, (double)(k % 2));
    ply_put(b, fmt, 6, 0.5);
    if (fmt == 0) tb_put(b, "\n", 1);
  }
  for (k = 0; k < 2; ++k) {
    ply_put(b, fmt, 1, 3);
    ply_put(b, fmt, 4, k);
    ply_put(b, fmt, 4, k + 1);
    ply_put(b, fmt, 4, k + 2);
    if (fmt == 0) tb_put(b, "\n", 1);
  }
}

static void test_ply_errors(void) {
  const prox_io_format f = PROX_IO_FORMAT_PLY;
  const char *hdr = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float "
                    "x\nproperty float y\nproperty float z\nelement face 1\n"
                    "property list uchar int vertex_indices\nend_header\n";
  char t[1024];
  int fmt;
  CHECK_PARSE_FAILS(f, "plx\nformat ascii 1.0\nend_header\n", 1);
  CHECK_PARSE_FAILS(f, "ply\nformat ascii 2.0\nend_header\n", 2);
  CHECK_PARSE_FAILS(f, "ply\nformat text 1.0\nend_header\n", 2);
  CHECK_PARSE_FAILS(f, "ply\nformat ascii 1.0\nproperty float x\n", 3);
  CHECK_PARSE_FAILS(f, "ply\nformat ascii 1.0\nelement vertex 1\nproperty flot x\n", 4);
  CHECK_PARSE_FAILS(f, "ply\nformat ascii 1.0\nelement vertex -1\n", 3);
  CHECK_PARSE_FAILS(f, "ply\nformat ascii 1.0\nbogus\nend_header\n", 3);
  CHECK_PARSE_FAILS(f, "ply\nformat ascii 1.0\nelement vertex 1\n", 4);
  CHECK_PARSE_FAILS(f, "ply\nelement vertex 0\nend_header\n", 3);
  /* huge counts: refused against the file size before any allocation */
  CHECK_PARSE_FAILS(f,
                    "ply\nformat binary_little_endian 1.0\nelement vertex "
                    "4000000000\nproperty float x\nproperty float y\nproperty "
                    "float z\nend_header\n",
                    7);
  CHECK_PARSE_FAILS(f,
                    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float "
                    "x\nproperty float y\nproperty float z\nelement face "
                    "999999999999\nproperty list uchar int "
                    "vertex_indices\nend_header\n0 0 0\n",
                    9);
  /* the body */
  snprintf(t, sizeof t, "%s0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", hdr);
  CHECK_PARSE_FAILS(f, t, 13); /* index out of range */
  snprintf(t, sizeof t, "%s0 0 0\n1 0 0\n0 1 0\n3 0 1 -1\n", hdr);
  CHECK_PARSE_FAILS(f, t, 13);
  snprintf(t, sizeof t, "%s0 0 0\n1 0 0\n0 1 0\n2 0 1\n", hdr);
  CHECK_PARSE_FAILS(f, t, 13);
  snprintf(t, sizeof t, "%s0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n", hdr);
  CHECK_PARSE_FAILS(f, t, 11);
  snprintf(t, sizeof t, "%s0 0 0\n1 1e39999 0\n0 1 0\n3 0 1 2\n", hdr);
  CHECK_PARSE_FAILS(f, t, 11);
  snprintf(t, sizeof t, "%s0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n5\n", hdr);
  CHECK_PARSE_FAILS(f, t, 14); /* data after the last element */
  snprintf(t, sizeof t, "%s0 0 0\n1 0 0\n0 1 0\n3 0 1 2.5\n", hdr);
  CHECK_PARSE_FAILS(f, t, 13);
  snprintf(t, sizeof t, "%s0 0 0\n1 0 0\n0 1 0\n300 0 1 2\n", hdr);
  CHECK_PARSE_FAILS(f, t, 13); /* list count beyond the data */

  /* Truncation at every offset after the header: always an error (ascii:
   * before the last token, whose prefix may still be a valid number);
   * flipped bytes: no crash, and any error names the file. */
  for (fmt = 0; fmt < 3; ++fmt) {
    tb b = {NULL, 0, 0};
    size_t cut, last_token;
    long flips;
    small_ply(&b, fmt);
    last_token = fmt == 0 ? last_token_start(&b) : b.n;
    for (cut = 0; cut < b.n; ++cut) {
      prox_io_mesh m;
      prox_error e;
      int st = (int)prox_io_parse_mesh("cut.ply", f, b.s, cut, NULL, &m, &e);
      if (cut < last_token)
        CHECK_MSG(st == PROX_ERROR_PARSE && msg_is(&e, "cut.ply", -1) && m.vertices == NULL,
                  "format %d cut at %zu: status %d '%s'", fmt, cut, st, e.message);
      prox_io_mesh_free(&m);
    }
    for (flips = 0; flips < h_count(3000); ++flips) {
      tb c = {NULL, 0, 0};
      prox_io_mesh m;
      prox_error e;
      int st, k;
      tb_put(&c, b.s, b.n);
      for (k = 0; k < 3; ++k)
        c.s[oracle_rng_next(&rng) % c.n] = (char)oracle_rng_next(&rng);
      st = parse("flip.ply", f, &c, NULL, &m, &e);
      CHECK(st == PROX_OK || (st == PROX_ERROR_PARSE && msg_is(&e, "flip.ply", -1)));
      if (st == PROX_OK) {
        size_t i;
        for (i = 0; i < 3 * m.triangle_count; ++i)
          CHECK(m.triangles[i] < m.vertex_count);
        for (i = 0; i < 3 * m.vertex_count; ++i)
          CHECK(isfinite(m.vertices[i]));
      }
      prox_io_mesh_free(&m);
      free(c.s);
    }
    free(b.s);
  }
}

/* ------------------------------------------------------------------------ */
/* STL                                                                      */
/* ------------------------------------------------------------------------ */

/* A binary STL of n triangles with the given 80-byte header text; corner
 * c of triangle i at coords from val(i, c, axis). */
static double stl_val(uint32_t i, int c, int a) {
  /* shared positions between neighbours: corner (i + c) on a zig-zag */
  uint32_t p = i + (uint32_t)c;
  double x = a == 0 ? (double)p : a == 1 ? (double)(p % 2) : 0.0;
  if (a == 2 && p == 0) x = -0.0; /* welded with +0.0 */
  return x;
}

static void stl_binary(tb *b, const char *header, uint32_t n) {
  char h[80];
  uint32_t i;
  int c, a;
  memset(h, ' ', sizeof h);
  memcpy(h, header, strlen(header));
  tb_put(b, h, 80);
  tb_bytes(b, n, 4, 1);
  for (i = 0; i < n; ++i) {
    for (a = 0; a < 3; ++a)
      tb_f32(b, 0.0f, 1);
    for (c = 0; c < 3; ++c)
      for (a = 0; a < 3; ++a)
        tb_f32(b, (float)stl_val(i, c, a), 1);
    tb_bytes(b, 0, 2, 1);
  }
}

static void stl_check(const prox_io_mesh *m, uint32_t n, int welded) {
  uint32_t i;
  int c, a;
  CHECK_INT_EQ(m->triangle_count, n);
  CHECK_INT_EQ(m->vertex_count, welded ? n + 2 : 3 * n);
  CHECK_INT_EQ(m->vertices_welded, welded ? 2 * n - 2 : 0);
  for (i = 0; i < n && i < m->triangle_count; ++i)
    for (c = 0; c < 3; ++c) {
      uint32_t v = m->triangles[3 * i + (uint32_t)c];
      if (welded) CHECK_INT_EQ(v, i + (uint32_t)c);
      for (a = 0; a < 3; ++a)
        CHECK(v < m->vertex_count && m->vertices[3 * v + (uint32_t)a] == stl_val(i, c, a));
    }
}

static void test_stl(void) {
  prox_io_mesh_options weld = {1};
  prox_io_mesh m;
  prox_error e;
  tb b = {NULL, 0, 0};
  uint32_t i;
  int w, st;
  for (w = 0; w < 2; ++w) {
    /* binary, header starting with "solid" (decided by the size) */
    b.n = 0;
    stl_binary(&b, "solid but binary", 9);
    st = parse("b.stl", PROX_IO_FORMAT_STL, &b, w ? &weld : NULL, &m, &e);
    CHECK_MSG(st == PROX_OK && m.binary, "%s", e.message);
    if (st == PROX_OK) stl_check(&m, 9, w);
    prox_io_mesh_free(&m);
    /* ascii, two solids, mixed case, CRLF */
    b.n = 0;
    tb_printf(&b, "solid one\r\n");
    for (i = 0; i < 7; ++i) {
      int c;
      if (i == 4) tb_printf(&b, "endsolid one\r\nSOLID two\r\n");
      tb_printf(&b, " facet normal 0 0 1\r\n  outer loop\r\n");
      for (c = 0; c < 3; ++c)
        tb_printf(&b, "   vertex %.17g %.17g %.17g\r\n", stl_val(i, c, 0), stl_val(i, c, 1),
                  stl_val(i, c, 2));
      tb_printf(&b, "  endloop\r\n ENDFACET\r\n");
    }
    tb_printf(&b, "endsolid two\r\n\r\n");
    st = parse("a.stl", PROX_IO_FORMAT_STL, &b, w ? &weld : NULL, &m, &e);
    CHECK_MSG(st == PROX_OK && !m.binary, "%s", e.message);
    if (st == PROX_OK) stl_check(&m, 7, w);
    prox_io_mesh_free(&m);
  }
  /* Regression (fuzz_stl): an ascii facet of four corners (fanned) with
   * welding on; the weld renumbered triangle slots as if they were
   * corners, which gave indices out of range. Corners 1 and 2 are equal. */
  b.n = 0;
  tb_printf(&b, "solid tet\n facet normal 0 0 0\n  outer loop\n"
                "   vertex 0 0 0\n   vertex 0 1 0\n  vertex 0 1 0\n"
                "   vertex 0 0 1\n  endloop\n endfacet\n"
                " facet normal 0 0 0\n  outer loop\n   vertex 0 0 0\n"
                "   vertex 0 0 1\n   vertex 0 1 0\n  endloop\n endfacet\n"
                "endsolid tet\n");
  st = parse("q.stl", PROX_IO_FORMAT_STL, &b, &weld, &m, &e);
  CHECK_MSG(st == PROX_OK, "%s", e.message);
  if (st == PROX_OK) {
    static const uint32_t want[9] = {0, 1, 1, 0, 1, 2, 0, 2, 1};
    CHECK_INT_EQ(m.vertex_count, 3);
    CHECK_INT_EQ(m.triangle_count, 3);
    CHECK_INT_EQ(m.polygons_triangulated, 1);
    CHECK_INT_EQ(m.vertices_welded, 4);
    for (i = 0; i < 9 && i < 3 * m.triangle_count; ++i)
      CHECK_INT_EQ(m.triangles[i], want[i]);
    CHECK(m.vertices[3] == 0 && m.vertices[4] == 1 && m.vertices[5] == 0);
    CHECK(m.vertices[6] == 0 && m.vertices[7] == 0 && m.vertices[8] == 1);
  }
  prox_io_mesh_free(&m);
  /* an empty binary STL */
  b.n = 0;
  stl_binary(&b, "empty", 0);
  st = parse("z.stl", PROX_IO_FORMAT_STL, &b, &weld, &m, &e);
  CHECK(st == PROX_OK && m.triangle_count == 0 && m.vertex_count == 0);
  prox_io_mesh_free(&m);
  free(b.s);
}

static void test_stl_errors(void) {
  const prox_io_format f = PROX_IO_FORMAT_STL;
  tb b = {NULL, 0, 0};
  size_t cut, end_kw;
  int st;
  prox_io_mesh m;
  prox_error e;
  CHECK_PARSE_FAILS(f, "", 0);
  CHECK_PARSE_FAILS(f, "hello", 0);
  CHECK_PARSE_FAILS(f,
                    "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 "
                    "0\nvertex 1 0 0\nvertex 0 1 nan\nendloop\nendfacet\n"
                    "endsolid\n",
                    6);
  CHECK_PARSE_FAILS(f,
                    "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 "
                    "0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n",
                    6);
  CHECK_PARSE_FAILS(f, "solid x\nfacet normal 0 0\nouter loop\n", 3);
  CHECK_PARSE_FAILS(f,
                    "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 "
                    "0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n",
                    9);
  CHECK_PARSE_FAILS(f,
                    "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 "
                    "0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
                    "endsolid\nrubbish\n",
                    10);
  /* binary: a NaN coordinate, named by byte offset */
  stl_binary(&b, "x", 3);
  {
    float nan = NAN;
    memcpy(b.s + 84 + 50 + 12 + 4 * 4, &nan, 4);
    st = parse("n.stl", f, &b, NULL, &m, &e);
    CHECK_MSG(st == PROX_ERROR_PARSE && msg_is(&e, "n.stl", 0) &&
                  strstr(e.message, "byte 162:") != NULL,
              "%s", e.message);
    prox_io_mesh_free(&m);
  }
  /* binary truncated anywhere: error (the size no longer matches) */
  b.n = 0;
  stl_binary(&b, "x", 5);
  for (cut = 0; cut < b.n; ++cut) {
    st = (int)prox_io_parse_mesh("t.stl", f, b.s, cut, NULL, &m, &e);
    CHECK_MSG(st == PROX_ERROR_PARSE && msg_is(&e, "t.stl", 0), "cut %zu: %s", cut, e.message);
    prox_io_mesh_free(&m);
  }
  /* ascii truncated before the end of its last 'endsolid': error */
  b.n = 0;
  tb_printf(&b, "solid t\n");
  for (cut = 0; cut < 3; ++cut)
    tb_printf(&b, "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 "
                  "0\nvertex 0 1 0\nendloop\nendfacet\n");
  end_kw = b.n + strlen("endsolid");
  tb_printf(&b, "endsolid t\n");
  for (cut = 0; cut < b.n; ++cut) {
    st = (int)prox_io_parse_mesh("t.stl", f, b.s, cut, NULL, &m, &e);
    if (cut < end_kw)
      CHECK_MSG(st == PROX_ERROR_PARSE && msg_is(&e, "t.stl", -1) && m.vertices == NULL,
                "cut %zu: %d %s", cut, st, e.message);
    else
      CHECK_MSG(st == PROX_OK && m.triangle_count == 3, "cut %zu: %s", cut, e.message);
    prox_io_mesh_free(&m);
  }
  free(b.s);
}

/* ------------------------------------------------------------------------ */
/* Streaming records                                                        */
/* ------------------------------------------------------------------------ */

static const char *tmp_path(const char *stem) {
  static char buf[8][256];
  static int k = 0;
#ifdef PROX_TEST_TMPDIR
  const char *dir = PROX_TEST_TMPDIR;
#else
  const char *dir = getenv("TMPDIR");
#endif
  char *p = buf[k++ % 8];
  snprintf(p, 256, "%s/prox_test_io_%s", dir && *dir ? dir : "/tmp", stem);
  return p;
}

static void write_file(const char *path, const char *s, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  fwrite(s, 1, n, f);
  fclose(f);
}

/* Reads all records of path with capacity cap; returns the count, or -1 on
 * error (message in e). */
static long read_records(const char *path, const prox_io_records_options *o, size_t cap,
                         double *out, long max, prox_error *e) {
  prox_io_records *r;
  double *chunk;
  long total = 0;
  int w = o->max_fields;
  if (prox_io_records_open(path, o, &r, e) != PROX_OK) return -1;
  chunk = (double *)malloc(cap * (size_t)w * sizeof *chunk);
  for (;;) {
    size_t n = 0, i;
    if (prox_io_records_next(r, chunk, cap, &n, e) != PROX_OK) {
      total = -1;
      break;
    }
    if (n == 0) break;
    for (i = 0; i < n * (size_t)w; ++i)
      if (total * w + (long)i < max * w) out[total * w + (long)i] = chunk[i];
    total += (long)n;
  }
  CHECK(total < 0 || prox_io_records_count(r) == (uint64_t)total);
  free(chunk);
  prox_io_records_close(r);
  return total;
}

static void test_records_text(void) {
  const long n = h_count(20000);
  const char *path = tmp_path("points.csv");
  double *want = (double *)malloc((size_t)n * 3 * sizeof *want);
  double *got = (double *)malloc((size_t)n * 3 * sizeof *got);
  prox_io_records_options o = prox_io_records_points();
  tb b = {NULL, 0, 0};
  prox_error e;
  long i, cnt;
  size_t caps[3] = {1, 7, 4096};
  int c;
  tb_printf(&b, "# written by test_io\nx,y,z\r\n");
  for (i = 0; i < n; ++i) {
    int a;
    for (a = 0; a < 3; ++a) {
      uint64_t u;
      do {
        u = oracle_rng_next(&rng);
        memcpy(&want[3 * i + a], &u, 8);
      } while (!isfinite(want[3 * i + a]));
    }
    switch (i % 5) {
    case 0:
      tb_printf(&b, "%.17g,%.17g,%.17g\n", want[3 * i], want[3 * i + 1], want[3 * i + 2]);
      break;
    case 1:
      tb_printf(&b, "  %.17g %.17g\t%.17g  \r\n", want[3 * i], want[3 * i + 1], want[3 * i + 2]);
      break;
    case 2:
      tb_printf(&b, "%.17g , %.17g ,%.17g # note\n\n", want[3 * i], want[3 * i + 1],
                want[3 * i + 2]);
      break;
    case 3:
      tb_printf(&b, "# comment line\n%.17g %.17g %.17g\n", want[3 * i], want[3 * i + 1],
                want[3 * i + 2]);
      break;
    default:
      tb_printf(&b, "%.17g, %.17g, %.17g", want[3 * i], want[3 * i + 1], want[3 * i + 2]);
      tb_printf(&b, i == n - 1 ? "" : "\n"); /* last line: no newline */
    }
  }
  write_file(path, b.s, b.n);
  for (c = 0; c < 3; ++c) {
    o.buffer_size = c == 0 ? 64 : 0; /* tiny: lines cross every refill */
    memset(got, 0, (size_t)n * 3 * sizeof *got);
    cnt = read_records(path, &o, caps[c], got, n, &e);
    CHECK_MSG(cnt == n, "read %ld of %ld: %s", cnt, n, e.message);
    CHECK(memcmp(got, want, (size_t)n * 3 * sizeof *got) == 0);
  }
  /* a byte order mark before the first line (with and without a header) */
  {
    const char *bp = tmp_path("bom.csv");
    double r3[6];
    const char *a = "\xEF\xBB\xBF-1,2,3\n4,5,6\n";
    const char *h = "\xEF\xBB\xBFx,y,z\n-1,2,3\n4,5,6\n";
    int pass;
    for (pass = 0; pass < 2; ++pass) {
      const char *txt = pass ? h : a;
      write_file(bp, txt, strlen(txt));
      o.buffer_size = 0;
      memset(r3, 0, sizeof r3);
      cnt = read_records(bp, &o, 8, r3, 2, &e);
      CHECK_MSG(cnt == 2 && r3[0] == -1 && r3[5] == 6, "%ld %s", cnt, e.message);
    }
    remove(bp);
  }
  /* rays with and without tmax */
  {
    prox_io_records_options ro = prox_io_records_rays();
    const char *rp = tmp_path("rays.txt");
    double r[3 * 7];
    const char *txt = "ox oy oz dx dy dz tmax\n1 2 3 4 5 6\n1,2,3,4,5,6,7.5\n"
                      "-1 -2 -3 0 0 1 0\n";
    write_file(rp, txt, strlen(txt));
    cnt = read_records(rp, &ro, 2, r, 3, &e);
    CHECK_MSG(cnt == 3, "%s", e.message);
    CHECK(r[0] == 1 && r[5] == 6 && isinf(r[6]) && r[6] > 0);
    CHECK(r[7] == 1 && r[13] == 7.5 && r[14] == -1 && r[20] == 0);
    remove(rp);
  }
  /* errors, with file and line */
  {
    static const struct {
      const char *text;
      long line;
    } bad[] = {{"1 2 3\n4 5\n", 2},
               {"1 2 3\n4 5 6 7\n", 2},
               {"x y z\n1 2 3\n4 5 six\n", 3},
               {"1 2 3\nx y z\n", 2}, /* a header only on the first line */
               {"# c\n\n1 2 nan\n", 3},
               {"1 2 3\n1 2 1e999\n", 2},
               {"1 2 3\n1,,2,3\n", 2},
               {"1 2 3\n1 2 3,\n", 2},
               {"1 2 3\r\n4 5 6\r\n7 8 0x9\r\n", 3},
               {"\xEF\xBB\xBF"
                "1 2 3\n\xEF\xBB\xBF"
                "4 5 6\n",
                2}};
    const char *ep = tmp_path("bad.csv");
    size_t k;
    for (k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
      double tmp[16 * 3];
      write_file(ep, bad[k].text, strlen(bad[k].text));
      o.buffer_size = 0;
      cnt = read_records(ep, &o, 16, tmp, 16, &e);
      CHECK_MSG(cnt < 0 && e.status == PROX_ERROR_PARSE && msg_is(&e, ep, bad[k].line),
                "case %zu: %ld, '%s'", k, cnt, e.message);
    }
    remove(ep);
  }
  /* a missing file */
  {
    prox_io_records *r;
    CHECK(prox_io_records_open(tmp_path("missing.csv"), &o, &r, &e) == PROX_ERROR_IO && r == NULL &&
          strstr(e.message, "missing.csv") != NULL);
  }
  remove(path);
  free(b.s);
  free(want);
  free(got);
}

static void test_records_ply(void) {
  /* Written by the PLY writer (double x y z + float distance), and by hand
   * in ascii and big endian with other properties around x y z. */
  const long n = h_count(5000);
  const char *path = tmp_path("points.ply");
  double *want = (double *)malloc((size_t)n * 3 * sizeof *want);
  double *got = (double *)malloc((size_t)n * 3 * sizeof *got);
  prox_io_records_options o = prox_io_records_points();
  const char *names[2] = {"distance", "weight"};
  prox_io_ply_type types[2] = {PROX_IO_PLY_FLOAT, PROX_IO_PLY_DOUBLE};
  prox_io_ply_writer *w;
  prox_error e;
  long i, cnt;
  int fmt;
  CHECK(prox_io_ply_writer_open(path, (uint64_t)n, 2, names, types, &w, &e) == PROX_OK);
  for (i = 0; i < n; ++i) {
    double extra[2] = {unif(), unif()};
    want[3 * i] = (unif() - 0.5) * 1e6;
    want[3 * i + 1] = unif();
    want[3 * i + 2] = -unif() * 1e-9;
    prox_io_ply_writer_vertex(w, &want[3 * i], extra);
  }
  CHECK(prox_io_ply_writer_close(w, &e) == PROX_OK);
  o.buffer_size = 64;
  cnt = read_records(path, &o, 13, got, n, &e);
  CHECK_MSG(cnt == n, "%ld: %s", cnt, e.message);
  CHECK(memcmp(got, want, (size_t)n * 3 * sizeof *got) == 0);
  /* the writer refuses a wrong count */
  CHECK(prox_io_ply_writer_open(path, 2, 0, NULL, NULL, &w, &e) == PROX_OK);
  prox_io_ply_writer_vertex(w, want, NULL);
  CHECK(prox_io_ply_writer_close(w, &e) == PROX_ERROR_INVALID_ARGUMENT);

  for (fmt = 0; fmt < 3; fmt += 2) {
    tb b = {NULL, 0, 0};
    const long m = 50;
    tb_printf(&b,
              "ply\nformat %s 1.0\nelement vertex %ld\nproperty uchar red\n"
              "property float z\nproperty list uchar int idx\nproperty "
              "double x\nproperty short y\nelement face 0\nproperty list "
              "uchar int vertex_indices\nend_header\n",
              fmt == 0 ? "ascii" : "binary_big_endian", m);
    for (i = 0; i < m; ++i) {
      want[3 * i] = unif();
      want[3 * i + 1] = (double)(i - 25);
      want[3 * i + 2] = (double)(float)unif();
      ply_put(&b, fmt, 1, 200);
      ply_put(&b, fmt, 6, want[3 * i + 2]);
      ply_put(&b, fmt, 1, 2);
      ply_put(&b, fmt, 4, 7);
      ply_put(&b, fmt, 4, -7);
      ply_put(&b, fmt, 7, want[3 * i]);
      ply_put(&b, fmt, 2, want[3 * i + 1]);
      if (fmt == 0) tb_put(&b, "\n", 1);
    }
    write_file(path, b.s, b.n);
    cnt = read_records(path, &o, 4, got, m, &e);
    CHECK_MSG(cnt == m, "format %d: %ld: %s", fmt, cnt, e.message);
    CHECK(memcmp(got, want, (size_t)m * 3 * sizeof *got) == 0);
    /* truncated: an error naming the file, at every cut after the header */
    {
      size_t cut, hdr = (size_t)(strstr(b.s, "end_header\n") - b.s) + 11;
      size_t last = fmt == 0 ? last_token_start(&b) : b.n;
      for (cut = hdr; cut < last; cut += 1 + cut % 7) {
        double tmp[3 * 64];
        write_file(path, b.s, cut);
        cnt = read_records(path, &o, 64, tmp, 64, &e);
        CHECK_MSG(cnt < 0 && msg_is(&e, path, -1), "cut %zu: %ld %s", cut, cnt, e.message);
      }
    }
    free(b.s);
  }
  remove(path);
  free(want);
  free(got);
}

/* ------------------------------------------------------------------------ */
/* Writers                                                                  */
/* ------------------------------------------------------------------------ */

static void test_writers(void) {
  const char *csv = tmp_path("out.csv");
  const char *npy = tmp_path("grid.npy");
  prox_io_out *o;
  prox_error e;
  double vals[5];
  char *data;
  size_t size;
  long i;
  FILE *f;
  /* CSV: every printed double reads back (strtod) to the same bits. */
  CHECK(prox_io_out_open(csv, &o, &e) == PROX_OK);
  prox_io_out_str(o, "a,b,c,d,e\n");
  for (i = 0; i < h_count(20000); ++i) {
    int a;
    for (a = 0; a < 5; ++a) {
      uint64_t u = oracle_rng_next(&rng);
      memcpy(&vals[a], &u, 8);
    }
    if (i == 0) {
      vals[0] = INFINITY;
      vals[1] = -INFINITY;
      vals[2] = -NAN;
      vals[3] = -0.0;
      vals[4] = DBL_TRUE_MIN;
    }
    prox_io_csv_row(o, vals, 5);
    (void)vals;
  }
  CHECK(prox_io_out_close(o, &e) == PROX_OK);
  f = fopen(csv, "rb");
  CHECK(f != NULL);
  if (f) {
    char line[512];
    uint64_t s2 = 0x1234567u;
    (void)s2;
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "a,b,c,d,e\n") == 0);
    CHECK(fgets(line, sizeof line, f) &&
          strcmp(line, "inf,-inf,nan,-0,4.9406564584124654e-324\n") == 0);
    fclose(f);
  }
  /* Round trip of the random rows through the record reader. */
  {
    prox_io_records_options ro = prox_io_records_points();
    const char *p3 = tmp_path("rt.csv");
    double row[3], back[3 * 100];
    double wantv[3 * 100];
    int k;
    CHECK(prox_io_out_open(p3, &o, &e) == PROX_OK);
    prox_io_out_str(o, "x,y,z\n");
    for (k = 0; k < 100; ++k) {
      int a;
      for (a = 0; a < 3; ++a) {
        uint64_t u;
        do {
          u = oracle_rng_next(&rng);
          memcpy(&row[a], &u, 8);
        } while (!isfinite(row[a]));
        wantv[3 * k + a] = row[a];
      }
      prox_io_csv_row(o, row, 3);
    }
    CHECK(prox_io_out_close(o, &e) == PROX_OK);
    CHECK(read_records(p3, &ro, 100, back, 100, &e) == 100);
    CHECK(memcmp(back, wantv, sizeof back) == 0);
    remove(p3);
  }
  /* .npy: header per the format 1.0 spec, then the floats. */
  {
    prox_io_npy_writer *w;
    float v[2 * 3 * 4];
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, 3, 4), }";
    unsigned hl;
    int k;
    for (k = 0; k < 24; ++k)
      v[k] = (float)k * 0.5f - 3.0f;
    CHECK(prox_io_npy_writer_open(npy, 2, 3, 4, &w, &e) == PROX_OK);
    prox_io_npy_writer_values(w, v, 10);
    prox_io_npy_writer_values(w, v + 10, 14);
    CHECK(prox_io_npy_writer_close(w, &e) == PROX_OK);
    f = fopen(npy, "rb");
    data = (char *)malloc(4096);
    size = f ? fread(data, 1, 4096, f) : 0;
    if (f) fclose(f);
    CHECK(size >= 10 && memcmp(data, "\x93NUMPY\x01\x00", 8) == 0);
    hl = (unsigned)(unsigned char)data[8] | ((unsigned)(unsigned char)data[9] << 8);
    CHECK((10 + hl) % 64 == 0);
    CHECK(size == 10 + hl + 24 * 4);
    CHECK(size > 10 + strlen(dict) && memcmp(data + 10, dict, strlen(dict)) == 0);
    CHECK(data[10 + hl - 1] == '\n');
    for (k = 0; size == 10 + hl + 96 && k < 24; ++k) {
      unsigned char *q = (unsigned char *)data + 10 + hl + 4 * k;
      uint32_t u =
          (uint32_t)q[0] | ((uint32_t)q[1] << 8) | ((uint32_t)q[2] << 16) | ((uint32_t)q[3] << 24);
      float x;
      memcpy(&x, &u, 4);
      CHECK(x == v[k]);
    }
    free(data);
    /* wrong number of values: an error */
    CHECK(prox_io_npy_writer_open(npy, 2, 3, 4, &w, &e) == PROX_OK);
    prox_io_npy_writer_values(w, v, 23);
    CHECK(prox_io_npy_writer_close(w, &e) == PROX_ERROR_INVALID_ARGUMENT);
  }
  /* JSON sidecar */
  {
    char side[256];
    const uint64_t shape[3] = {2, 3, 4};
    const double origin[3] = {-1.5, 0.1, 2};
    const double spacing[3] = {0.25, 0.25, 1e-3};
    const char *want = "{\"file\": \"grid \\\"q\\\".npy\", \"dtype\": "
                       "\"float32\", \"shape\": [2, 3, 4], \"order\": "
                       "\"zyx\", \"origin\": [-1.5, 0.10000000000000001, 2], "
                       "\"spacing\": [0.25, 0.25, 0.001]}\n";
    CHECK(prox_io_sidecar_path(npy, side, sizeof side) == 0);
    CHECK(strlen(side) == strlen(npy) + 1 && strcmp(side + strlen(side) - 5, ".json") == 0);
    CHECK(prox_io_write_grid_json(side, "grid \"q\".npy", shape, origin, spacing, &e) == PROX_OK);
    f = fopen(side, "rb");
    data = (char *)calloc(1, 4096);
    size = f ? fread(data, 1, 4095, f) : 0;
    if (f) fclose(f);
    CHECK_MSG(strcmp(data, want) == 0, "%s", data);
    free(data);
    remove(side);
    CHECK(prox_io_sidecar_path("a/b.c/d", side, sizeof side) == 0 &&
          strcmp(side, "a/b.c/d.json") == 0);
    CHECK(prox_io_sidecar_path("out.npy", side, sizeof side) == 0 && strcmp(side, "out.json") == 0);
    CHECK(prox_io_sidecar_path("out.npy", side, 8) == -1 && side[0] == '\0');
  }
  /* an unwritable path */
  CHECK(prox_io_out_open("/nonexistent-dir/x.csv", &o, &e) == PROX_ERROR_IO && o == NULL &&
        strstr(e.message, "/nonexistent-dir/x.csv") != NULL);
  remove(csv);
  remove(npy);
}

static void test_read_mesh_file(void) {
  const char *path = tmp_path("tri.obj");
  const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  prox_io_mesh m;
  prox_error e;
  write_file(path, text, strlen(text));
  CHECK(prox_io_read_mesh(path, NULL, &m, &e) == PROX_OK && m.triangle_count == 1 &&
        m.vertex_count == 3);
  prox_io_mesh_free(&m);
  remove(path);
  CHECK(prox_io_read_mesh(path, NULL, &m, &e) == PROX_ERROR_IO &&
        strstr(e.message, "tri.obj") != NULL && m.vertices == NULL);
  CHECK(prox_io_read_mesh("mesh.off", NULL, &m, &e) == PROX_ERROR_PARSE &&
        strstr(e.message, "mesh.off") != NULL);
  CHECK(prox_io_format_from_path("A.OBJ") == PROX_IO_FORMAT_OBJ);
  CHECK(prox_io_format_from_path("x.Ply") == PROX_IO_FORMAT_PLY);
  CHECK(prox_io_format_from_path("x.stl") == PROX_IO_FORMAT_STL);
  CHECK(prox_io_format_from_path("x.stl/y") == PROX_IO_FORMAT_UNKNOWN);
  CHECK(prox_io_read_mesh(NULL, NULL, &m, &e) == PROX_ERROR_INVALID_ARGUMENT);
#ifdef PROX_TEST_TMPDIR
  /* A directory (glibc's ftell says LONG_MAX for it): an I/O error, not an
   * attempt to allocate that much. */
  {
    prox_io_records *r;
    CHECK_MSG(prox_io_read_mesh(PROX_TEST_TMPDIR "/dir.obj", NULL, &m, &e) == PROX_ERROR_IO, "%s",
              e.message);
    CHECK(prox_io_records_open(PROX_TEST_TMPDIR, NULL, &r, &e) == PROX_ERROR_IO && r == NULL);
  }
#endif
}

int main(int argc, char **argv) {
  rng = oracle_rng_make(0x1234567u);
  h_init(argc, argv);
  H_RUN(test_numbers_match_strtod);
  H_RUN(test_format_double);
  H_RUN(test_obj_forms);
  H_RUN(test_obj_errors);
  H_RUN(test_ply_encodings);
  H_RUN(test_ply_errors);
  H_RUN(test_stl);
  H_RUN(test_stl_errors);
  H_RUN(test_records_text);
  H_RUN(test_records_ply);
  H_RUN(test_writers);
  H_RUN(test_read_mesh_file);
  return h_finish();
}
