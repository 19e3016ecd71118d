/* SPDX-License-Identifier: MIT */
/* fuzz_stl: a libFuzzer target over the STL reader of prox_io
 * (prox_io_parse_mesh); what it asserts is in fuzz_io_mesh.h. */
#define FUZZ_FORMAT PROX_IO_FORMAT_STL
#define FUZZ_NAME "fuzz.stl"
#include "fuzz_io_mesh.h"
