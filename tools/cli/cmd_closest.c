/* SPDX-License-Identifier: MIT */
/* prox closest MESH POINTS [-o OUT] [--signed] [--max-distance D]: the
 * points are streamed in chunks (bounded memory for any input size), each
 * chunk answered by the library's closest-point batch. */
#include "cli.h"
#include "out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

int cli_cmd_closest(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "closest"};
  cli_common c = {0, 0, 0};
  const char *pos[2] = {NULL, NULL}, *out_path = NULL, *v;
  int npos = 0, is_signed = 0, r, rc = CLI_OK;
  double max_d = INFINITY, max_sq = INFINITY;
  cli_mesh m;
  prox_io_records *rd = NULL;
  prox_io_records_options ro = prox_io_records_points();
  prox_error err;
  double *xyz = NULL, *sd = NULL, *row;
  prox_mesh_closest *res = NULL;
  cli_sink sink;
  cli_progress prog;
  uint64_t done = 0;
  int timings = 0;
  double t_read = 0, t_query = 0, t_write = 0, t0;

  while (a.i < argc) {
    const char *s = argv[a.i];
    if ((r = cli_common_option(&a, &c, 0)) != 0) {
      if (r < 0) return CLI_USAGE;
      continue;
    }
    if ((r = cli_opt_value(&a, "-o", &v)) != 0 || (r = cli_opt_value(&a, "--output", &v)) != 0) {
      if (r < 0) return CLI_USAGE;
      out_path = v;
      continue;
    }
    if ((r = cli_opt_value(&a, "--max-distance", &v)) != 0) {
      if (r < 0 || !cli_parse_double(a.command, "--max-distance", v, &max_d)) return CLI_USAGE;
      if (max_d < 0) return cli_usage_error(a.command, "--max-distance must be >= 0");
      max_sq = max_d * max_d;
      continue;
    }
    if (strcmp(s, "--signed") == 0) {
      is_signed = 1;
      a.i++;
      continue;
    }
    if (strcmp(s, "--timings") == 0) {
      timings = 1;
      a.i++;
      continue;
    }
    if (s[0] == '-' && s[1] != '\0') return cli_usage_error(a.command, "unknown option '%s'", s);
    if (npos == 2) return cli_usage_error(a.command, "too many arguments ('%s')", s);
    pos[npos++] = s;
    a.i++;
  }
  if (npos < 2) return cli_usage_error(a.command, "needs MESH and POINTS");

  if ((rc = cli_mesh_load(&m, pos[0])) != CLI_OK) return rc;
  if ((rc = cli_mesh_build(&m, pos[0], c.threads)) != CLI_OK) goto done_mesh;
  if (is_signed && (rc = cli_mesh_build_sign(&m, pos[0])) != CLI_OK) goto done_mesh;
  if (prox_io_records_open(pos[1], &ro, &rd, &err) != PROX_OK) {
    rc = cli_fail_error(&err);
    goto done_mesh;
  }
  xyz = malloc(CHUNK * 3 * sizeof *xyz);
  res = malloc(CHUNK * sizeof *res);
  sd = is_signed ? malloc(CHUNK * sizeof *sd) : NULL;
  row = malloc(8 * sizeof *row);
  if (!xyz || !res || (is_signed && !sd) || !row) {
    rc = cli_fail("out of memory");
    goto done_all;
  }
  {
    static const char *const cols[] = {"x", "y", "z", "cx", "cy", "cz", "distance", "triangle"};
    if ((rc = cli_sink_open(&sink, out_path, cols, 8, 6, 7)) != CLI_OK) goto done_all;
  }
  cli_progress_begin(&prog, "closest", 0, c.quiet);
  for (;;) {
    size_t n, i;
    t0 = cli_now();
    if (prox_io_records_next(rd, xyz, CHUNK, &n, &err) != PROX_OK) {
      rc = cli_fail_error(&err);
      break;
    }
    t_read += cli_now() - t0;
    if (n == 0) break;
    t0 = cli_now();
    if ((rc = cli_closest(&m, xyz, n, max_sq, res, c.threads)) != CLI_OK) break;
    if (is_signed && (rc = cli_signed_distance(&m, xyz, n, sd, c.threads)) != CLI_OK) break;
    t_query += cli_now() - t0;
    t0 = cli_now();
    for (i = 0; i < n; ++i) {
      const prox_mesh_closest *q = res + i;
      memcpy(row, xyz + 3 * i, 3 * sizeof *row);
      if (q->found) {
        row[3] = q->point.x;
        row[4] = q->point.y;
        row[5] = q->point.z;
        row[6] = is_signed ? sd[i] : sqrt(q->sqdist);
        row[7] = (double)q->triangle;
      } else {
        row[3] = row[4] = row[5] = NAN;
        row[6] = INFINITY;
        row[7] = -1;
      }
      cli_sink_row(&sink, row);
    }
    t_write += cli_now() - t0;
    done += n;
    cli_progress_update(&prog, done);
  }
  cli_progress_end(&prog);
  t0 = cli_now();
  rc = cli_sink_close(&sink, rc == CLI_OK) == CLI_OK ? rc : CLI_BAD_INPUT;
  t_write += cli_now() - t0;
  if (timings && rc == CLI_OK)
    fprintf(stderr,
            "prox closest: %llu points; load %.3f s, build %.3f s, read "
            "points %.3f s, query %.3f s, write %.3f s\n",
            (unsigned long long)done, m.load_s, m.build_s, t_read, t_query, t_write);

done_all:
  free(xyz);
  free(res);
  free(sd);
  free(row);
  prox_io_records_close(rd);
done_mesh:
  cli_mesh_free(&m);
  return rc;
}
