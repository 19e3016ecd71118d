/* SPDX-License-Identifier: MIT */
/* The assertion hook, the version query and the status names declared in
 * prox/base.h. */
#include <prox/base.h>

#include <stdio.h>
#include <stdlib.h>

/* The default handler: report the failed condition and stop, as assert()
 * does. */
static void prox_default_assert(const char *condition, const char *file, int line) {
  fprintf(stderr, "prox: assertion failed: %s (%s:%d)\n", condition, file, line);
  fflush(stderr);
  abort();
}

/* The handler is one of the library's two pieces of process-wide mutable
 * state (the other is the SIMD level that prox_simd_set() chooses, in
 * src/batch.c); queries never write either. It is atomic where C11 atomics
 * exist, so that installing a handler while another thread fails an
 * assertion is not a data race. */
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
static _Atomic(prox_assert_fn) prox_assert_handler = prox_default_assert;
#define PROX_HANDLER_LOAD() atomic_load(&prox_assert_handler)
#define PROX_HANDLER_STORE(fn) atomic_store(&prox_assert_handler, (fn))
#else
static prox_assert_fn prox_assert_handler = prox_default_assert;
#define PROX_HANDLER_LOAD() (prox_assert_handler)
#define PROX_HANDLER_STORE(fn) (void)(prox_assert_handler = (fn))
#endif

void prox_set_assert_fn(prox_assert_fn fn) {
  PROX_HANDLER_STORE(fn != NULL ? fn : prox_default_assert);
}

void prox_assert_failed(const char *condition, const char *file, int line) {
  prox_assert_fn fn = PROX_HANDLER_LOAD();
  fn(condition, file, line);
}

int prox_version(void) {
  return PROX_VERSION_MAJOR * 10000 + PROX_VERSION_MINOR * 100 + PROX_VERSION_PATCH;
}

const char *prox_status_string(prox_status status) {
  switch (status) {
  case PROX_OK:
    return "ok";
  case PROX_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case PROX_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case PROX_ERROR_INVALID_MESH:
    return "invalid mesh";
  case PROX_ERROR_IO:
    return "i/o error";
  case PROX_ERROR_PARSE:
    return "parse error";
  case PROX_ERROR_UNSUPPORTED:
    return "unsupported";
  }
  return "unknown status";
}
