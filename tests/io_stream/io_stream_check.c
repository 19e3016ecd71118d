/* SPDX-License-Identifier: MIT */
/* io_stream_check N MAX_RSS_MB: reads points from standard input with the
 * streaming reader of prox_io (path "-", chunks of 4096 records) and checks
 * that it gets exactly the N points of io_stream_gen, in order and bit for
 * bit, and (on Linux) that the peak resident memory of the process stayed
 * below MAX_RSS_MB, far below the size of the input: the reader keeps a
 * bounded buffer whatever the input's length. Exit 0 on success. */
#if defined(__linux__)
#define _DEFAULT_SOURCE 1 /* getrusage */
#include <sys/resource.h>
#endif
#include "prox_io.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  enum { CHUNK = 4096 };
  static double v[3 * CHUNK];
  prox_io_records *r;
  prox_error e;
  long long n, i = 0, bad = 0;
  long max_mb;
  if (argc != 3) {
    fprintf(stderr, "usage: io_stream_check N MAX_RSS_MB < points\n");
    return 2;
  }
  n = atoll(argv[1]);
  max_mb = atol(argv[2]);
  if (prox_io_records_open("-", NULL, &r, &e) != PROX_OK) {
    fprintf(stderr, "io_stream_check: %s\n", e.message);
    return 1;
  }
  for (;;) {
    size_t got, k;
    if (prox_io_records_next(r, v, CHUNK, &got, &e) != PROX_OK) {
      fprintf(stderr, "io_stream_check: %s\n", e.message);
      prox_io_records_close(r);
      return 1;
    }
    if (got == 0) break;
    for (k = 0; k < got; ++k, ++i) {
      double x = (double)i + 0.5, y = -(double)(i % 1000) - 0.25, z = (double)(i % 7);
      if (v[3 * k] != x || v[3 * k + 1] != y || v[3 * k + 2] != z) ++bad;
    }
  }
  prox_io_records_close(r);
  printf("io_stream_check: %lld points read, %lld wrong\n", i, bad);
  if (i != n || bad != 0) return 1;
#if defined(__linux__)
  {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) == 0) {
      long mb = u.ru_maxrss / 1024; /* kilobytes on Linux */
      printf("io_stream_check: peak resident memory %ld MB (limit %ld)\n", mb, max_mb);
      if (mb > max_mb) return 1;
    }
  }
#endif
  return 0;
}
