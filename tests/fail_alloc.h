/* SPDX-License-Identifier: MIT */
/* fail_alloc.h: a prox_allocator for the tests that fails at call number
 * fail_at (counting from 1; 0: never) and counts the blocks outstanding, so
 * that a builder can be made to fail at every allocation in turn and
 * checked for leaks. Header only (static inline functions). */
#ifndef PROX_TEST_FAIL_ALLOC_H
#define PROX_TEST_FAIL_ALLOC_H

#include <prox/base.h>

#include <stdlib.h>

typedef struct fail_alloc {
  long calls, fail_at, live;
} fail_alloc;

static inline void *fa_alloc(void *user, size_t size, size_t align) {
  fail_alloc *f = (fail_alloc *)user;
  void *p;
  if (++f->calls == f->fail_at) return NULL;
  p = aligned_alloc(align, (size + align - 1) / align * align);
  if (p) ++f->live;
  return p;
}

static inline void fa_free(void *user, void *ptr, size_t size) {
  fail_alloc *f = (fail_alloc *)user;
  (void)size;
  if (ptr) --f->live;
  free(ptr);
}

/* An allocator over f. */
static inline prox_allocator fa_allocator(fail_alloc *f) {
  prox_allocator a;
  a.alloc = fa_alloc;
  a.free = fa_free;
  a.user = f;
  return a;
}

#endif /* PROX_TEST_FAIL_ALLOC_H */
