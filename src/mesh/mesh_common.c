/* SPDX-License-Identifier: MIT */
/* The mesh layer's shared helpers (mesh_internal.h): errors, allocation,
 * threads, the coherent order of batches. */
#include "mesh_internal.h"

#include <pthread.h>
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#endif
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

typedef struct prox_mesh_for_job {
  void (*fn)(void *arg, size_t c);
  void *arg;
  size_t chunks;
#if !defined(__STDC_NO_ATOMICS__)
  _Atomic size_t next;
#else
  size_t next;
  pthread_mutex_t lock;
#endif
} prox_mesh_for_job;

static void prox_mesh_for_worker(void *p) {
  prox_mesh_for_job *j = (prox_mesh_for_job *)p;
  for (;;) {
    size_t c;
#if !defined(__STDC_NO_ATOMICS__)
    c = atomic_fetch_add(&j->next, (size_t)1);
#else
    pthread_mutex_lock(&j->lock);
    c = j->next++;
    pthread_mutex_unlock(&j->lock);
#endif
    if (c >= j->chunks) return;
    j->fn(j->arg, c);
  }
}

void prox_mesh_detail_for(int threads, size_t chunks, void (*fn)(void *arg, size_t c), void *arg) {
  prox_mesh_for_job j;
  size_t c;
  if (threads <= 1 || chunks <= 1) {
    for (c = 0; c < chunks; ++c)
      fn(arg, c);
    return;
  }
  if ((size_t)threads > chunks) threads = (int)chunks;
  j.fn = fn;
  j.arg = arg;
  j.chunks = chunks;
#if !defined(__STDC_NO_ATOMICS__)
  atomic_init(&j.next, 0);
#else
  j.next = 0;
  pthread_mutex_init(&j.lock, NULL);
#endif
  prox_mesh_detail_parallel(threads, prox_mesh_for_worker, &j);
#if defined(__STDC_NO_ATOMICS__)
  pthread_mutex_destroy(&j.lock);
#endif
}

/* One pass of prox_mesh_detail_order_sort: the pieces' histograms of the
 * digit at `shift` (phase 0), their scatter from src to dst (1), or the
 * indices of the sorted codes in src written to order (2). */
typedef struct prox_mesh_sort_job {
  const uint64_t *src;
  uint64_t *dst;
  uint32_t *order;
  size_t n;
  int pieces, shift, phase;
  uint32_t (*hist)[1024];
} prox_mesh_sort_job;

static void prox_mesh_sort_piece(void *arg, size_t c) {
  prox_mesh_sort_job *j = (prox_mesh_sort_job *)arg;
  size_t i, b = prox_mesh_detail_piece(j->n, j->pieces, c),
            e = prox_mesh_detail_piece(j->n, j->pieces, c + 1);
  const uint64_t *a = j->src;
  uint32_t *h = j->hist[c];
  int shift = j->shift;
  if (j->phase == 0) {
    memset(h, 0, 1024 * sizeof *h);
    for (i = b; i < e; ++i)
      ++h[(a[i] >> shift) & 1023u];
  } else if (j->phase == 1) {
    uint64_t *d = j->dst;
    for (i = b; i < e; ++i)
      d[h[(a[i] >> shift) & 1023u]++] = a[i];
  } else {
    for (i = b; i < e; ++i)
      j->order[i] = (uint32_t)a[i];
  }
}

uint32_t *prox_mesh_detail_order_sort(uint64_t *kv, size_t n, int pieces, int threads,
                                      uint32_t (*hist)[1024]) {
  prox_mesh_sort_job j;
  uint64_t *t;
  int p, c, d;
  j.src = kv;
  j.dst = kv + n;
  j.order = (uint32_t *)(void *)kv;
  j.n = n;
  j.pieces = pieces;
  j.hist = hist;
  for (p = 0; p < 3; ++p) {
    uint32_t sum = 0;
    j.shift = 32 + 10 * p;
    if (p > 0) {
      j.phase = 0;
      prox_mesh_detail_for(threads, (size_t)pieces, prox_mesh_sort_piece, &j);
    }
    /* Where each piece's codes of each digit go: after every smaller
     * digit, and after the earlier pieces' codes of the same digit. */
    for (d = 0; d < 1024; ++d)
      for (c = 0; c < pieces; ++c) {
        uint32_t k = hist[c][d];
        hist[c][d] = sum;
        sum += k;
      }
    j.phase = 1;
    prox_mesh_detail_for(threads, (size_t)pieces, prox_mesh_sort_piece, &j);
    t = j.dst;
    j.dst = (uint64_t *)(uintptr_t)j.src;
    j.src = t;
  }
  /* Three passes: the sorted codes are in kv[n, 2 n), the indices go to
   * the start (their 4 n bytes end before the codes begin). */
  j.phase = 2;
  prox_mesh_detail_for(threads, (size_t)pieces, prox_mesh_sort_piece, &j);
  return j.order;
}

void prox_mesh_detail_order_free(const prox_allocator *alloc, const uint32_t *order, size_t n) {
  if (order) prox_mesh_detail_free(alloc, (void *)(uintptr_t)order, 2 * n * sizeof(uint64_t));
}
