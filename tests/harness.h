/* SPDX-License-Identifier: MIT */
/* harness.h: the small test harness of prox's test executables.
 *
 *   static void test_sum(void) { CHECK(1 + 1 == 2); }
 *
 *   int main(int argc, char **argv) {
 *     h_init(argc, argv);
 *     H_RUN(test_sum);
 *     return h_finish();
 *   }
 *
 * A test is a void function; it passes when none of its checks fails.
 * Command line of a test executable:
 *
 *   test_x [FILTER] [--scale=X] [--list] [--max-print=N]
 *
 * FILTER runs only the tests whose name contains it. --scale=X (or the
 * environment variable PROX_TEST_SCALE) multiplies the case counts that
 * tests take from h_count(); the default 1 is what CI asserts on, smaller
 * values are for slow builds (sanitizers). The last line printed is always
 * "N passed, M failed" (N, M count tests) and the exit code is 1 when a test
 * failed or when no test matched FILTER, else 0.
 *
 * Header only: every function is static inline (a test executable is one
 * translation unit). Not thread-safe. */
#ifndef PROX_TEST_HARNESS_H
#define PROX_TEST_HARNESS_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define H_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define H_PRINTF(f, a)
#endif

/* State of the harness (one per executable). */
typedef struct h_state {
  const char *filter;  /* substring selecting tests, or NULL for all */
  double scale;        /* multiplier of h_count() */
  long max_print;      /* failures printed per test before going quiet */
  int list_only;       /* --list: print the test names, run nothing */
  int passed, failed;  /* tests */
  int ran;             /* tests that matched the filter */
  long checks;         /* checks evaluated, all tests */
  long test_failures;  /* failed checks in the current test */
  long test_checks;    /* checks in the current test */
  int case_failed;     /* a check failed since h_case_begin() */
  const char *current; /* name of the running test */
} h_state;

static h_state h_ = {NULL, 1.0, 10, 0, 0, 0, 0, 0, 0, 0, 0, NULL};

/* Reads the command line (see the top of this file). */
static inline void h_init(int argc, char **argv) {
  const char *env = getenv("PROX_TEST_SCALE");
  int i;
  if (env && *env) h_.scale = atof(env);
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strncmp(a, "--scale=", 8) == 0) {
      h_.scale = atof(a + 8);
    } else if (strncmp(a, "--max-print=", 12) == 0) {
      h_.max_print = atol(a + 12);
    } else if (strcmp(a, "--list") == 0) {
      h_.list_only = 1;
    } else if (a[0] == '-') {
      fprintf(stderr, "usage: %s [FILTER] [--scale=X] [--list] [--max-print=N]\n", argv[0]);
      exit(2);
    } else {
      h_.filter = a;
    }
  }
  if (!(h_.scale > 0)) h_.scale = 1.0;
}

/* n scaled by --scale (at least 1). Use it for every case count. */
static inline long h_count(long n) {
  double m = (double)n * h_.scale;
  return m < 1.0 ? 1 : (long)m;
}

/* Whether the current failure of the running test is still to be printed. */
static inline int h_verbose_failure(void) {
  return h_.test_failures <= h_.max_print;
}

/* Records one check. On failure prints file:line and the message (printf
 * format), at most max_print times per test. Returns ok. */
static inline int h_check(int ok, const char *file, int line, const char *fmt, ...) H_PRINTF(4, 5);
static inline int h_check(int ok, const char *file, int line, const char *fmt, ...) {
  ++h_.checks;
  ++h_.test_checks;
  if (ok) return 1;
  ++h_.test_failures;
  h_.case_failed = 1;
  if (h_verbose_failure()) {
    va_list ap;
    printf("  FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if (h_.test_failures == h_.max_print)
      printf("  (further failures of %s are counted, not printed)\n",
             h_.current ? h_.current : "this test");
  }
  return 0;
}

/* Prints a note (such as the inputs of a failed case) if failures of the
 * current test are still being printed. */
static inline void h_note(const char *fmt, ...) H_PRINTF(1, 2);
static inline void h_note(const char *fmt, ...) {
  va_list ap;
  if (!h_verbose_failure()) return;
  printf("       ");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

/* Marks the start of one case: h_case_failed() then tells whether a check
 * failed since, so that the case's inputs are printed once. */
static inline void h_case_begin(void) {
  h_.case_failed = 0;
}
static inline int h_case_failed(void) {
  return h_.case_failed;
}

/* Whether a test of this name is selected by the filter. */
static inline int h_selected(const char *name) {
  return !h_.filter || strstr(name, h_.filter) != NULL;
}

/* Runs one test if the filter selects it. */
static inline void h_run(const char *name, void (*fn)(void)) {
  clock_t t0;
  double secs;
  if (!h_selected(name)) return;
  if (h_.list_only) {
    printf("%s\n", name);
    return;
  }
  ++h_.ran;
  h_.current = name;
  h_.test_failures = 0;
  h_.test_checks = 0;
  printf("[ RUN  ] %s\n", name);
  fflush(stdout);
  t0 = clock();
  fn();
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  if (h_.test_failures == 0) {
    ++h_.passed;
    printf("[  OK  ] %s (%ld checks, %.2f s)\n", name, h_.test_checks, secs);
  } else {
    ++h_.failed;
    printf("[ FAIL ] %s (%ld of %ld checks failed, %.2f s)\n", name, h_.test_failures,
           h_.test_checks, secs);
  }
  fflush(stdout);
  h_.current = NULL;
}

/* Prints the summary (last line: "N passed, M failed") and returns the exit
 * code for main. */
static inline int h_finish(void) {
  if (h_.list_only) return 0;
  if (h_.ran == 0) printf("no test matches the filter \"%s\"\n", h_.filter ? h_.filter : "");
  printf("%ld checks\n", h_.checks);
  printf("%d passed, %d failed\n", h_.passed, h_.failed);
  fflush(stdout);
  return (h_.failed > 0 || h_.ran == 0) ? 1 : 0;
}

/* Runs the test function fn under its own name. */
#define H_RUN(fn) h_run(#fn, fn)

/* CHECK(cond): records cond, printing it when false. */
#define CHECK(cond) h_check((cond) ? 1 : 0, __FILE__, __LINE__, "%s", #cond)

/* CHECK_MSG(cond, fmt, ...): records cond, printing the formatted message
 * when false. */
#define CHECK_MSG(cond, ...) h_check((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

/* CHECK_NEAR(a, b, tol): |a - b| <= tol (false for NaN). */
#define CHECK_NEAR(a, b, tol)                                                                      \
  h_check(fabs((double)(a) - (double)(b)) <= (double)(tol), __FILE__, __LINE__,                    \
          "%s = %.17g, %s = %.17g, differ by more than %s = %g", #a, (double)(a), #b, (double)(b), \
          #tol, (double)(tol))

/* CHECK_INT_EQ(a, b): integer equality, printing both values. */
#define CHECK_INT_EQ(a, b)                                                                         \
  h_check((long)(a) == (long)(b), __FILE__, __LINE__, "%s = %ld, %s = %ld", #a, (long)(a), #b,     \
          (long)(b))

#endif /* PROX_TEST_HARNESS_H */
