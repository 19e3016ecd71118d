/* SPDX-License-Identifier: MIT */
/* fuzz_obj: a libFuzzer target over the OBJ reader of prox_io
 * (prox_io_parse_mesh); what it asserts is in fuzz_io_mesh.h. */
#define FUZZ_FORMAT PROX_IO_FORMAT_OBJ
#define FUZZ_NAME "fuzz.obj"
#include "fuzz_io_mesh.h"
