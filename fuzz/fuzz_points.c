/* SPDX-License-Identifier: MIT */
/* fuzz_points: a libFuzzer target over the streaming record reader of
 * prox_io (prox_io_records_open_stream on an in-memory stream, fmemopen).
 *
 * Byte 0 of the input picks the mode (the rest is the file): bit 0 points
 * (3 fields) or rays (6 or 7), bit 1 text or PLY, bits 2-3 the chunk
 * capacity (1, 3, 64, 1000 records), bit 4 a 64-byte buffer instead of 4
 * KiB (records and headers then cross refills). Asserted (abort on a
 * violation):
 * - every returned value is finite, except a ray's defaulted tmax (+inf);
 * - the records counted by the reader are the records returned;
 * - an error has status PROX_ERROR_PARSE (or PROX_ERROR_OUT_OF_MEMORY for
 *   a line beyond the buffer limit: never, with these sizes) and a message
 *   that starts with the stream's name, and it repeats on the next call;
 * and ASan and UBSan check every access. */
#define _POSIX_C_SOURCE 200809L
#include "prox_io.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fz_fail(const char *what, const prox_error *e) {
  fprintf(stderr, "fuzz_points: %s (message '%s')\n", what, e->message);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const size_t caps[4] = {1, 3, 64, 1000};
  prox_io_records_options o;
  prox_io_records *r = NULL;
  prox_error e;
  prox_status st;
  FILE *f;
  unsigned mode;
  size_t cap, total = 0;
  double *buf;
  int w;
  char *copy;
  if (size < 1) return 0;
  mode = data[0];
  o = (mode & 1) ? prox_io_records_rays() : prox_io_records_points();
  /* Small buffers: lines and headers cross refills, and each run does not
   * pay for a 1 MiB buffer under ASan. */
  o.buffer_size = (mode & 16) ? 64 : 4096;
  cap = caps[(mode >> 2) & 3];
  w = o.max_fields;
  /* fmemopen of zero bytes is not portable: always give it one byte more,
   * a newline, which changes no record. */
  copy = (char *)malloc(size);
  memcpy(copy, data + 1, size - 1);
  copy[size - 1] = '\n';
  f = fmemopen(copy, size, "rb");
  if (!f) {
    free(copy);
    return 0;
  }
  st = prox_io_records_open_stream(f, "fuzz.pts", (mode & 2) ? 1 : 0, &o, &r, &e);
  if (st != PROX_OK) {
    if (r) fz_fail("reader returned with an error", &e);
    if (st != PROX_ERROR_PARSE || strncmp(e.message, "fuzz.pts", 8) != 0)
      fz_fail("bad open error", &e);
    fclose(f);
    free(copy);
    return 0;
  }
  buf = (double *)malloc(cap * (size_t)w * sizeof *buf);
  for (;;) {
    size_t n = 0, i;
    st = prox_io_records_next(r, buf, cap, &n, &e);
    if (st != PROX_OK) {
      size_t n2 = 5;
      if (st != PROX_ERROR_PARSE || strncmp(e.message, "fuzz.pts", 8) != 0)
        fz_fail("bad error", &e);
      if (prox_io_records_next(r, buf, cap, &n2, &e) != st || n2 != 0)
        fz_fail("error not sticky", &e);
      break;
    }
    if (n > cap) fz_fail("more records than asked for", &e);
    if (n == 0) break;
    for (i = 0; i < n * (size_t)w; ++i)
      if (!isfinite(buf[i]) && !(w == 7 && i % 7 == 6 && buf[i] == INFINITY))
        fz_fail("non-finite value", &e);
    total += n;
  }
  if (st == PROX_OK && prox_io_records_count(r) != total) fz_fail("count disagrees", &e);
  prox_io_records_close(r);
  fclose(f);
  free(buf);
  free(copy);
  return 0;
}
