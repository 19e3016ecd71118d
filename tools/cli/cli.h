/* SPDX-License-Identifier: MIT */
/* The prox command: what its subcommands share (options, errors, progress,
 * loading, output files, the PNG heat map). Presentation and I/O only: the
 * queries are the library's (prox/bvh.h), the files are prox_io's. */
#ifndef PROX_CLI_H
#define PROX_CLI_H

#include <prox/bvh.h>
#include <prox/bvh_ray.h>
#include <prox/sign.h>
#include <prox/topology.h>
#include <prox/prox.h>

#include "prox_io.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes (the contract of issue 17). */
#define CLI_OK 0
#define CLI_BAD_INPUT 1
#define CLI_USAGE 2

/* Options every command accepts (parsed by cli_common_option). */
typedef struct cli_common {
  int threads; /* 0: all cores */
  int quiet;   /* no progress bar */
  int json;    /* --json (distance, info) */
} cli_common;

/* ---- messages ---------------------------------------------------------- */

/* "prox: ...\n" on stderr; returns CLI_BAD_INPUT. */
int cli_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* "prox COMMAND: ...\nTry 'prox COMMAND --help'.\n"; returns CLI_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints a prox_error's message (which names the file) as "prox: MSG". */
int cli_fail_error(const prox_error *err);

/* Prints s to standard output as a JSON string (escaped). */
void cli_json_string(const char *s);

/* ---- argument parsing -------------------------------------------------- */

/* Argument cursor: args[0] is the first argument after the command name. */
typedef struct cli_args {
  int argc;
  char **argv;
  int i;
  const char *command;
} cli_args;

/* If argv[i] is OPT (or OPT=VALUE) and takes a value, sets *value and
 * advances; returns 1 when matched, 0 when not, -1 on a missing value (the
 * usage error has been printed). */
int cli_opt_value(cli_args *a, const char *opt, const char **value);

/* Parses a finite double / a positive integer in [lo, hi]; prints a usage
 * error and returns 0 when it is not one. */
int cli_parse_double(const char *command, const char *opt, const char *s, double *out);
int cli_parse_long(const char *command, const char *opt, const char *s, long lo, long hi,
                   long *out);

/* Handles --threads N, --quiet, --json (when json_ok); returns 1 when the
 * argument was one of them, 0 when not, -1 on a usage error (printed). */
int cli_common_option(cli_args *a, cli_common *c, int json_ok);

/* Whether the string ends with the suffix, case-insensitively. */
int cli_ends_with(const char *s, const char *suffix);

/* ---- time and progress ------------------------------------------------- */

/* Monotonic seconds. */
double cli_now(void);

/* A progress bar on stderr, drawn only when stderr is a terminal, not quiet,
 * and the work has run for over a second. total 0: a counter. */
typedef struct cli_progress {
  const char *label;
  uint64_t total;
  double start;
  double last;
  int enabled;
  int drawn;
} cli_progress;

void cli_progress_begin(cli_progress *p, const char *label, uint64_t total, int quiet);
void cli_progress_update(cli_progress *p, uint64_t done);
void cli_progress_end(cli_progress *p);

/* ---- meshes ------------------------------------------------------------ */

/* A mesh read from a file (or generated) with its BVH. */
typedef struct cli_mesh {
  prox_io_mesh io; /* owns the arrays when read from a file */
  double *own_v;   /* owns the arrays when generated */
  uint32_t *own_t;
  prox_mesh mesh;           /* the library's view */
  prox_bvh *bvh;            /* NULL until built */
  prox_mesh_topology *topo; /* NULL until built (cli_mesh_build_sign) */
  prox_sdf *sdf;            /* NULL until built (cli_mesh_build_sign) */
  double sign_s;            /* seconds to build the topology and the sign */
  double load_s;            /* seconds to read the file */
  double build_s;           /* seconds to build the BVH */
  double lo[3], hi[3];      /* bounding box of the vertices */
} cli_mesh;

/* Reads and validates a mesh file; prints the error and returns
 * CLI_BAD_INPUT on failure, CLI_OK on success. */
int cli_mesh_load(cli_mesh *m, const char *path);

/* Takes over generated arrays (malloc'ed) as a mesh. */
void cli_mesh_adopt(cli_mesh *m, double *vertices, size_t vertex_count, uint32_t *triangles,
                    size_t triangle_count);

/* Builds the BVH with the given thread count; CLI_OK or CLI_BAD_INPUT. */
int cli_mesh_build(cli_mesh *m, const char *name, int threads);

void cli_mesh_free(cli_mesh *m);

/* Closest points of n points (x y z packed), in chunks with a progress bar;
 * the results are the library's (prox_bvh_closest_batch). */
int cli_closest(const cli_mesh *m, const double *xyz, size_t n, double max_sqdist,
                prox_mesh_closest *out, int threads);

/* ---- rays (the ray layer of the library, branch "rays") ----------------- */

/* One ray cast's answer, as the raycast command prints it. */
typedef struct cli_hit {
  int hit;
  double t;
  long long triangle; /* -1 on a miss */
  double p[3], n[3];
} cli_hit;

/* First hits of n rays (ox oy oz dx dy dz tmax, 7 doubles a ray). */
int cli_raycast(const cli_mesh *m, const double *rays, size_t n, cli_hit *out, int threads);

/* ---- signed distance and topology (prox/sign.h, prox/topology.h) ------- */

/* Builds the mesh's topology and signed-distance object (after the BVH);
 * CLI_OK or CLI_BAD_INPUT (printed). */
int cli_mesh_build_sign(cli_mesh *m, const char *name);

/* Signed distances of n points (x y z packed; negative inside) into out:
 * the library's batch (prox_sdf_batch). CLI_OK or CLI_BAD_INPUT. */
int cli_signed_distance(const cli_mesh *m, const double *xyz, size_t n, double *out, int threads);

/* The name of the method that decides the sign ("pseudo-normals", ...). */
const char *cli_sign_method(const cli_mesh *m);

/* Mesh topology for `info` (prox/topology.h): fills the counts and returns
 * 1, or 0 when it could not be built (printed). */
typedef struct cli_topology {
  int closed, manifold, oriented;
  uint64_t boundary_edges, nonmanifold_edges, nonmanifold_vertices;
  uint64_t degenerate_triangles; /* zero area, collapsed ones included */
  uint64_t components;
  uint64_t self_intersections; /* pairs of triangles that meet (prox/sign.h) */
} cli_topology;
int cli_mesh_topology(cli_mesh *m, cli_topology *out);

/* ---- output files ------------------------------------------------------ */

/* An output written to a temporary name beside the target and renamed over
 * it only on success ("-" is standard output, written directly). Until
 * then SIGINT, SIGTERM, SIGHUP and SIGPIPE delete the temporary file before
 * they end the process (common.c), so that an interrupted run leaves
 * neither a temporary nor a partial file. */
typedef struct cli_outpath {
  const char *final; /* NULL or "-": standard output */
  char tmp[4096];
  int slot; /* its place among the names the signal handler deletes */
} cli_outpath;

/* Sets the temporary name (and hands it to the signal handler); returns the
 * path to write to, or NULL when the temporary name would not fit in tmp
 * (nothing is pending then; the caller says "name too long"). */
const char *cli_outpath_begin(cli_outpath *o, const char *final);
/* Renames into place (ok) or deletes the temporary file (!ok). Returns
 * CLI_OK, or CLI_BAD_INPUT when the rename failed (printed). */
int cli_outpath_end(cli_outpath *o, int ok);
/* The same for two files that make one output (a grid and its sidecar),
 * with the signals blocked between the two renames: an interrupted run
 * leaves both or neither. If the second rename fails the first file is
 * deleted too. */
int cli_outpath_end_pair(cli_outpath *a, cli_outpath *b, int ok);

/* ---- pictures ---------------------------------------------------------- */

/* Whether this build writes PNG (libpng found at configure time). */
int cli_png_available(void);

/* A heat map of w x h values (row 0 at the top) written as PNG with a colour
 * bar. diverging: colour map centred on 0 with the zero contour drawn;
 * otherwise a sequential map from 0 to the largest value. Returns CLI_OK or
 * CLI_BAD_INPUT (message printed). */
int cli_heatmap_png(const char *path, const float *values, int w, int h, int diverging);

/* Renders the heat map into rgb (width cli_heatmap_width(w), height h),
 * without writing it: exposed for the tests of the colour map. */
int cli_heatmap_width(int w, int h);
void cli_heatmap_render(const float *values, int w, int h, int diverging, unsigned char *rgb);

/* The slice picture of mesh m (BVH built) on the plane axis = at (0 x, 1 y,
 * 2 z), `size` pixels along its longer side, written to png: the signed
 * distance (diverging map, zero contour) or, is_signed 0, the unsigned
 * distance (sequential map). Shared by `slice` and `demo`. */
int cli_slice_render(const cli_mesh *m, int axis, double at, int size, int is_signed, int threads,
                     int quiet, const char *png);

/* ---- commands ---------------------------------------------------------- */

int cli_cmd_closest(int argc, char **argv);
int cli_cmd_raycast(int argc, char **argv);
int cli_cmd_distance(int argc, char **argv);
int cli_cmd_slice(int argc, char **argv);
int cli_cmd_sdf(int argc, char **argv);
int cli_cmd_info(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);

/* Help texts, one per command ("" for the overview). */
const char *cli_help_text(const char *command);

/* If argv holds -h or --help, prints the command's help and returns 1. */
int cli_wants_help(int argc, char **argv, const char *command);

/* The procedural demo mesh: a trefoil (2,3 torus knot) tube with bumps,
 * closed and manifold, 2 * rings * sides triangles. Arrays malloc'ed. */
int cli_demo_mesh(int rings, int sides, double **vertices, size_t *vertex_count,
                  uint32_t **triangles, size_t *triangle_count);

/* Deterministic random numbers (splitmix64). */
typedef struct cli_rng {
  uint64_t s;
} cli_rng;
uint64_t cli_rng_next(cli_rng *r);
double cli_rng_uniform(cli_rng *r); /* [0, 1) */

#endif /* PROX_CLI_H */
