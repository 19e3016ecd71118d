/* SPDX-License-Identifier: MIT */
/* The level choice under the environment variable PROX_SIMD, run by CTest
 * with the variable set (tests/CMakeLists.txt, tests simd_env_*).
 *
 *   simd_env         chooses the level from 8 threads at once and prints
 *                    it; a bad PROX_SIMD is said on stderr, which CTest
 *                    matches against the expected message.
 *   simd_env N       the same with stderr captured: exits 0 when exactly N
 *                    lines about PROX_SIMD were written (the message comes
 *                    once however many threads race to choose, and not
 *                    again on a later prox_simd_set()), 1 otherwise. */
#include <prox/batch.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 8

static pthread_barrier_t start;

static void *choose(void *arg) {
  int *level = (int *)arg;
  pthread_barrier_wait(&start);
  *level = prox_simd_level();
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t th[THREADS];
  int level[THREADS], i, expected = -1, saved = -1, count = 0;
  FILE *capture = NULL;
  char line[512];
  if (argc > 1) {
    expected = atoi(argv[1]);
    capture = tmpfile();
    saved = dup(STDERR_FILENO);
    if (!capture || saved < 0 || dup2(fileno(capture), STDERR_FILENO) < 0) {
      perror("simd_env: capture of stderr");
      return 1;
    }
  }
  pthread_barrier_init(&start, NULL, THREADS);
  for (i = 0; i < THREADS; ++i)
    pthread_create(&th[i], NULL, choose, &level[i]);
  for (i = 0; i < THREADS; ++i)
    pthread_join(th[i], NULL);
  pthread_barrier_destroy(&start);
  /* Every thread sees the one level chosen; setting it again says
   * nothing. */
  for (i = 1; i < THREADS; ++i)
    if (level[i] != level[0]) {
      printf("threads saw levels %d and %d\n", level[0], level[i]);
      return 1;
    }
  prox_simd_set(PROX_SIMD_SCALAR);
  prox_simd_set(level[0]);
  printf("level: %s (PROX_SIMD=%s)\n", prox_simd_name(prox_simd_level()),
         getenv("PROX_SIMD") ? getenv("PROX_SIMD") : "unset");
  if (!capture) return 0;
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  rewind(capture);
  while (fgets(line, sizeof line, capture)) {
    printf("stderr: %s", line);
    if (strstr(line, "PROX_SIMD")) ++count;
  }
  printf("%d message(s) about PROX_SIMD, expected %d\n", count, expected);
  return count == expected ? 0 : 1;
}
