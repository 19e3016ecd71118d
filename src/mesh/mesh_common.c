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

uint32_t *prox_mesh_detail_order_sort(uint64_t *kv, size_t n, uint32_t hist[3][1024]) {
  uint64_t *a = kv, *b = kv + n, *t;
  uint32_t *order = (uint32_t *)(void *)kv;
  size_t i;
  int p, c;
  for (p = 0; p < 3; ++p) {
    uint32_t sum = 0, *h = hist[p];
    int shift = 32 + 10 * p;
    for (c = 0; c < 1024; ++c) {
      uint32_t k = h[c];
      h[c] = sum;
      sum += k;
    }
    for (i = 0; i < n; ++i)
      b[h[(a[i] >> shift) & 1023u]++] = a[i];
    t = a;
    a = b;
    b = t;
  }
  /* Three passes: the sorted codes are in kv[n, 2 n), the indices go to
   * the start (their 4 n bytes end before the codes begin). */
  for (i = 0; i < n; ++i)
    order[i] = (uint32_t)a[i];
  return order;
}

void prox_mesh_detail_order_free(const prox_allocator *alloc, const uint32_t *order, size_t n) {
  if (order) prox_mesh_detail_free(alloc, (void *)(uintptr_t)order, 2 * n * sizeof(uint64_t));
}
