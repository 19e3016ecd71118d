/* SPDX-License-Identifier: MIT */
/* io_stream_gen N [csv|xyz]: writes N points to standard output for the
 * streaming test (io_stream_check reads them through a pipe). Point i is
 * (i + 0.5, -(i % 1000) - 0.25, i % 7), all exact in decimal and binary:
 * the checker recomputes them independently. A header line comes first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  long long n, i;
  int xyz;
  static char buf[1 << 16];
  if (argc < 2) {
    fprintf(stderr, "usage: io_stream_gen N [csv|xyz]\n");
    return 2;
  }
  n = atoll(argv[1]);
  xyz = argc > 2 && strcmp(argv[2], "xyz") == 0;
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
  puts(xyz ? "# x y z" : "x,y,z");
  for (i = 0; i < n; ++i)
    printf(xyz ? "%lld.5 -%lld.25 %lld\n" : "%lld.5,-%lld.25,%lld\n", i, i % 1000, i % 7);
  return fflush(stdout) == 0 ? 0 : 1;
}
