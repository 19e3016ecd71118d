/* SPDX-License-Identifier: MIT */
/* test_readme: README.md's table of every kernel is the registry's
 * (tests/kernels.h). The table between the markers below is generated from
 * the registry; the test fails when README.md holds anything else there, so
 * a kernel added to the registry must appear in the README, and a kernel
 * removed from it must leave.
 *
 *   test_readme [FILTER] [--list] ...   the check (harness.h)
 *   test_readme --print                 prints the table, to paste into
 *                                       README.md between the markers
 *
 * PROX_README (a compile definition, tests/CMakeLists.txt) is the path of
 * README.md. */
#include "harness.h"
#include "kernels.h"

#define TR_BEGIN                                                                                   \
  "<!-- kernel registry: begin (generated from tests/kernels.h; "                                  \
  "./build/tests/test_readme checks it and --print prints it) -->\n"
#define TR_END "<!-- kernel registry: end -->\n"

/* The name of a primitive of the registry (its member in k1_prims). */
static const char *tr_prim(const char *m) {
  static const char *const names[][2] = {
      {"pl", "plane"},    {"ln", "line"},      {"ry", "ray"},        {"sg", "segment"},
      {"tr", "triangle"}, {"rc", "rectangle"}, {"ab", "aabb"},       {"ob", "obb"},
      {"sp", "sphere"},   {"cp", "capsule"},   {"te", "tetrahedron"}};
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strcmp(m, names[i][0]) == 0) return names[i][1];
  return m;
}

/* Appends a formatted row to the table t (capacity cap). */
static H_PRINTF(3, 4) void tr_add(char *t, size_t cap, const char *fmt, ...) {
  size_t len = strlen(t);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t + len, cap - len, fmt, ap);
  va_end(ap);
}

#define TR_K1(name, prim, degree, param_degree)                                                    \
  tr_add(t, cap, "| K1 | `prox_" #name "` | point, %s | %s, point, feature |\n", tr_prim(#prim),   \
         (degree) == 2 ? "squared distance" : "signed distance");
#define TR_K2(name, first, second)                                                                 \
  tr_add(t, cap,                                                                                   \
         "| K2 | `prox_" #name "` | " #first ", " #second                                          \
         " | squared distance, both points, features |\n");
#define TR_K3(name, prim, solid)                                                                   \
  tr_add(t, cap, "| K3 | `prox_" #name "` | ray, %s | hit, t, %s |\n", tr_prim(#prim),             \
         (solid) ? "t_exit, inside flag, point, normal" : "point, normal");
#define TR_OVERLAP(name, first, second)                                                            \
  tr_add(t, cap, "| overlap | `prox_" #name "` | %s, %s | 0 or 1 |\n", tr_prim(#first),            \
         tr_prim(#second));
#define TR_VALID(name, prim)                                                                       \
  tr_add(t, cap, "| validity | `prox_" #name "` | %s | 0 or 1 |\n", tr_prim(#prim));
#define TR_K4(name, coords, degree, verts, type, bound, gen, shape)                                \
  tr_add(t, cap,                                                                                   \
         "| K4 | `prox_ipc_" #name "`, `_gradient`, `_hessian` | %d vertices%s "                   \
         "| value (degree %d), gradient (%d), Hessian (%d x %d) |\n",                              \
         verts, strcmp(#type, "NONE") ? ", distance type" : "", degree, coords, coords, coords);

/* The table of the registry, markers included, into t. */
static void tr_table(char *t, size_t cap) {
  t[0] = '\0';
  tr_add(t, cap, "%s", TR_BEGIN);
  tr_add(t, cap,
         "| family | kernel (float: suffix f) | arguments | "
         "returns |\n| --- | --- | --- | --- |\n");
  PROX_KERNELS_K1(TR_K1)
  PROX_KERNELS_K2(TR_K2)
  PROX_KERNELS_K3(TR_K3)
  PROX_KERNELS_OVERLAP(TR_OVERLAP)
  PROX_KERNELS_VALID(TR_VALID)
  PROX_KERNELS_K4(TR_K4)
  tr_add(t, cap, "%s", TR_END);
}

static char tr_buf[1 << 20], tr_want[1 << 16];

static void test_table(void) {
  FILE *f = fopen(PROX_README, "rb");
  size_t n = 0;
  const char *b, *e;
  if (!CHECK_MSG(f != NULL, "cannot read %s", PROX_README)) return;
  n = fread(tr_buf, 1, sizeof tr_buf - 1, f);
  fclose(f);
  tr_buf[n] = '\0';
  tr_table(tr_want, sizeof tr_want);
  b = strstr(tr_buf, TR_BEGIN);
  e = b ? strstr(b, TR_END) : NULL;
  if (!CHECK_MSG(b && e, "%s: no kernel table between the markers %s and %s", PROX_README,
                 "<!-- kernel registry: begin", TR_END))
    return;
  e += strlen(TR_END);
  CHECK_MSG((size_t)(e - b) == strlen(tr_want) && memcmp(b, tr_want, strlen(tr_want)) == 0,
            "the kernel table of %s is not the registry's (tests/kernels.h): "
            "replace it with the output of test_readme --print",
            PROX_README);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--print") == 0) {
    tr_table(tr_want, sizeof tr_want);
    fputs(tr_want, stdout);
    return 0;
  }
  h_init(argc, argv);
  H_RUN(test_table);
  return h_finish();
}
