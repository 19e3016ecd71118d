/* SPDX-License-Identifier: MIT */
/* fuzz_ply: a libFuzzer target over the PLY reader of prox_io
 * (prox_io_parse_mesh); what it asserts is in fuzz_io_mesh.h. */
#define FUZZ_FORMAT PROX_IO_FORMAT_PLY
#define FUZZ_NAME "fuzz.ply"
#include "fuzz_io_mesh.h"
