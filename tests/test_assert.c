/* SPDX-License-Identifier: MIT */
/* The assertion hook: prox_set_assert_fn() installs the handler that
 * PROX_ASSERT and prox_assert_failed() call, NULL restores the default, and
 * in a build of the library without NDEBUG the compiled entry points call
 * it on a NULL required pointer. The handler below records the call and
 * jumps back out, so that the failing function does not go on. The test is
 * compiled with the library's build type, so NDEBUG here is NDEBUG there. */
#include <prox/prox.h>

#include "harness.h"

#include <setjmp.h>

static jmp_buf g_jump;
static int g_calls;
static const char *g_condition, *g_file;
static int g_line;

static void record(const char *condition, const char *file, int line) {
  ++g_calls;
  g_condition = condition;
  g_file = file;
  g_line = line;
  longjmp(g_jump, 1);
}

static void reset(void) {
  g_calls = 0;
  g_condition = g_file = NULL;
  g_line = 0;
}

/* The handler receives what prox_assert_failed() is given. */
static void test_handler(void) {
  reset();
  prox_set_assert_fn(record);
  if (setjmp(g_jump) == 0) prox_assert_failed("x != NULL", "here.c", 42);
  CHECK_INT_EQ(g_calls, 1);
  CHECK(g_condition && strcmp(g_condition, "x != NULL") == 0);
  CHECK(g_file && strcmp(g_file, "here.c") == 0);
  CHECK_INT_EQ(g_line, 42);
  prox_set_assert_fn(NULL);
}

/* A NULL required pointer in a batch entry point: the handler runs in a
 * debug build of the library and the call does not return; in a release
 * build nothing is checked (and the test does not make the call). A NULL
 * pointer with n == 0 is allowed in every build. */
static void test_batch_null(void) {
  prox_triangle tri = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  prox_vec3 p = prox_v3(0.25, 0.25, 1);
  double d2 = 0;
  size_t bi = 0;
  reset();
  prox_set_assert_fn(record);
  d2 = prox_point_triangles(p, NULL, 0, &bi, NULL);
  CHECK(d2 == INFINITY && bi == SIZE_MAX);
  prox_points_triangle(NULL, 0, &tri, &d2, NULL);
  CHECK_INT_EQ(g_calls, 0);
#if defined(NDEBUG)
  h_note("NDEBUG build: entry points do not assert; the call is skipped");
#else
  if (setjmp(g_jump) == 0) {
    d2 = prox_point_triangles(p, NULL, 3, &bi, NULL);
    CHECK_MSG(0, "prox_point_triangles(n = 3, tris = NULL) returned");
  }
  CHECK_INT_EQ(g_calls, 1);
  CHECK(g_condition && strstr(g_condition, "tris") != NULL);
  reset();
  if (setjmp(g_jump) == 0) {
    prox_points_trianglef(NULL, 2, NULL, NULL, NULL);
    CHECK_MSG(0, "prox_points_trianglef(pts = NULL, n = 2) returned");
  }
  CHECK_INT_EQ(g_calls, 1);
#endif
  prox_set_assert_fn(NULL);
}

int main(int argc, char **argv) {
  h_init(argc, argv);
  H_RUN(test_handler);
  H_RUN(test_batch_null);
  return h_finish();
}
