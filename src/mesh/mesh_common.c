/* SPDX-License-Identifier: MIT */
/* The mesh layer's shared helpers (mesh_internal.h): errors, allocation,
 * threads, the coherent order of batches. */
#include "mesh_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

prox_status prox_mesh_detail_error(prox_error *err, prox_status status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->status = status;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

void prox_mesh_detail_ok(prox_error *err) {
  if (err) {
    err->status = PROX_OK;
    err->message[0] = '\0';
  }
}

size_t prox_mesh_detail_mul(size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size) return SIZE_MAX;
  return n * size;
}

void *prox_mesh_detail_alloc(const prox_allocator *alloc, size_t size) {
  if (size == SIZE_MAX) return NULL;
  if (size == 0) size = 1;
  if (alloc && alloc->alloc) return alloc->alloc(alloc->user, size, 64);
  /* aligned_alloc wants a multiple of the alignment. */
  if (size > SIZE_MAX - 63) return NULL;
  return aligned_alloc(64, (size + 63) & ~(size_t)63);
}

void prox_mesh_detail_free(const prox_allocator *alloc, void *ptr, size_t size) {
  if (!ptr) return;
  if (size == 0) size = 1;
  if (alloc && alloc->free) {
    alloc->free(alloc->user, ptr, size);
    return;
  }
  free(ptr);
}

int prox_mesh_detail_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) return 1;
  if (n > 1024) return 1024;
  return (int)n;
}

typedef struct prox_mesh_thread_arg {
  void (*fn)(void *);
  void *arg;
} prox_mesh_thread_arg;

static void *prox_mesh_thread_main(void *p) {
  prox_mesh_thread_arg *a = (prox_mesh_thread_arg *)p;
  a->fn(a->arg);
  return NULL;
}

void prox_mesh_detail_parallel(int threads, void (*fn)(void *arg), void *arg) {
  enum { MAXT = PROX_MESH_MAX_THREADS };
  pthread_t tid[MAXT];
  int started[MAXT];
  prox_mesh_thread_arg a;
  int i;
  if (threads > MAXT) threads = MAXT;
  a.fn = fn;
  a.arg = arg;
  for (i = 1; i < threads; ++i)
    started[i] = pthread_create(&tid[i], NULL, prox_mesh_thread_main, &a) == 0;
  fn(arg);
  for (i = 1; i < threads; ++i)
    if (started[i]) pthread_join(tid[i], NULL);
}

uint32_t prox_mesh_detail_morton(uint32_t x, uint32_t y, uint32_t z) {
  uint32_t v[3];
  int k;
  v[0] = x;
  v[1] = y;
  v[2] = z;
  for (k = 0; k < 3; ++k) {
    /* Spread the 10 bits of v[k] to every third bit. */
    uint32_t a = v[k] & 0x3ffu;
    a = (a | a << 16) & 0x030000ffu;
    a = (a | a << 8) & 0x0300f00fu;
    a = (a | a << 4) & 0x030c30c3u;
    a = (a | a << 2) & 0x09249249u;
    v[k] = a;
  }
  return v[0] << 2 | v[1] << 1 | v[2];
}

prox_mesh_detail_kv *prox_mesh_detail_radix(prox_mesh_detail_kv *a, prox_mesh_detail_kv *tmp,
                                            size_t n, int bits) {
  enum { DIG = 11, B = 1 << DIG };
  size_t count[B];
  int shift;
  for (shift = 0; shift < bits; shift += DIG) {
    size_t i, sum = 0;
    prox_mesh_detail_kv *t;
    memset(count, 0, sizeof count);
    for (i = 0; i < n; ++i)
      ++count[(a[i].key >> shift) & (B - 1)];
    for (i = 0; i < B; ++i) {
      size_t c = count[i];
      count[i] = sum;
      sum += c;
    }
    for (i = 0; i < n; ++i)
      tmp[count[(a[i].key >> shift) & (B - 1)]++] = a[i];
    t = a;
    a = tmp;
    tmp = t;
  }
  return a;
}

void prox_mesh_detail_order_free(const prox_allocator *alloc, const uint32_t *order, size_t n) {
  if (order)
    prox_mesh_detail_free(alloc, (void *)(uintptr_t)order, 2 * n * sizeof(prox_mesh_detail_kv));
}
