/* SPDX-License-Identifier: MIT */
/* fuzz_io_mesh.h: the body shared by the libFuzzer targets of the mesh
 * readers (fuzz_obj.c, fuzz_ply.c, fuzz_stl.c), each of which defines
 * FUZZ_FORMAT and FUZZ_NAME before including it.
 *
 * The input is the file. Byte 0's low bit also turns STL welding on (the
 * byte stays part of the file). Asserted (the process aborts on a
 * violation and libFuzzer keeps the input):
 * - success: every index is below the vertex count, every coordinate is
 *   finite, the counts agree with the arrays (nonzero count => non-NULL
 *   array), the message is "";
 * - failure: status PROX_ERROR_PARSE (the input is in memory: no I/O, and
 *   the sizes are bounded, so no out-of-memory either), a message that
 *   starts with the file name and a place ("NAME:LINE: " or
 *   "NAME: byte N: " or "NAME: "), and an all-zero result;
 * and ASan and UBSan check every access. */
#ifndef FUZZ_IO_MESH_H
#define FUZZ_IO_MESH_H

#include "prox_io.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fz_fail(const char *what, const prox_error *e) {
  fprintf(stderr, "fuzz %s: %s (message '%s')\n", FUZZ_NAME, what, e->message);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  prox_io_mesh m;
  prox_io_mesh_options o;
  prox_error e;
  prox_status st;
  size_t i;
  o.weld = size > 0 && (data[0] & 1);
  st = prox_io_parse_mesh(FUZZ_NAME, FUZZ_FORMAT, data, size, &o, &m, &e);
  if (st != e.status) fz_fail("status and error disagree", &e);
  if (st == PROX_OK) {
    if (e.message[0] != '\0') fz_fail("message on success", &e);
    if ((m.vertex_count && !m.vertices) || (m.triangle_count && !m.triangles))
      fz_fail("count without array", &e);
    if (m.format != FUZZ_FORMAT) fz_fail("wrong format", &e);
    for (i = 0; i < 3 * m.triangle_count; ++i)
      if (m.triangles[i] >= m.vertex_count) fz_fail("index out of range", &e);
    for (i = 0; i < 3 * m.vertex_count; ++i)
      if (!isfinite(m.vertices[i])) fz_fail("non-finite coordinate", &e);
    prox_io_mesh_free(&m);
  } else {
    size_t n = strlen(FUZZ_NAME);
    if (st != PROX_ERROR_PARSE) fz_fail("status other than parse error", &e);
    if (strncmp(e.message, FUZZ_NAME, n) != 0 ||
        (e.message[n] != ':' ||
         (e.message[n + 1] != ' ' && !(e.message[n + 1] >= '0' && e.message[n + 1] <= '9'))))
      fz_fail("message does not name the file and place", &e);
    if (m.vertices || m.triangles || m.vertex_count || m.triangle_count)
      fz_fail("data returned with an error", &e);
  }
  return 0;
}

#endif /* FUZZ_IO_MESH_H */
