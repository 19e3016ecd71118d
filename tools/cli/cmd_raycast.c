/* SPDX-License-Identifier: MIT */
/* prox raycast MESH RAYS [-o OUT]: rays streamed in chunks, each chunk
 * answered by the library's BVH ray query (first hit). */
#include "cli.h"
#include "out.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

int cli_cmd_raycast(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "raycast"};
  cli_common c = {0, 0, 0};
  const char *pos[2] = {NULL, NULL}, *out_path = NULL, *v;
  int npos = 0, r, rc = CLI_OK;
  cli_mesh m;
  prox_io_records *rd = NULL;
  prox_io_records_options ro = prox_io_records_rays();
  prox_error err;
  double *rays = NULL;
  cli_hit *hits = NULL;
  cli_sink sink;
  cli_progress prog;
  uint64_t done = 0;

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
    if (s[0] == '-' && s[1] != '\0') return cli_usage_error(a.command, "unknown option '%s'", s);
    if (npos == 2) return cli_usage_error(a.command, "too many arguments ('%s')", s);
    pos[npos++] = s;
    a.i++;
  }
  if (npos < 2) return cli_usage_error(a.command, "needs MESH and RAYS");
  if (out_path && cli_ends_with(out_path, ".ply"))
    return cli_usage_error(a.command, "OUT is a .csv file (or '-')");

  if ((rc = cli_mesh_load(&m, pos[0])) != CLI_OK) return rc;
  if ((rc = cli_mesh_build(&m, pos[0], c.threads)) != CLI_OK) goto done_mesh;
  if (prox_io_records_open(pos[1], &ro, &rd, &err) != PROX_OK) {
    rc = cli_fail_error(&err);
    goto done_mesh;
  }
  rays = malloc(CHUNK * 7 * sizeof *rays);
  hits = malloc(CHUNK * sizeof *hits);
  if (!rays || !hits) {
    rc = cli_fail("out of memory");
    goto done_all;
  }
  {
    static const char *const cols[] = {"hit", "t", "triangle", "px", "py", "pz", "nx", "ny", "nz"};
    if ((rc = cli_sink_open(&sink, out_path, cols, 9, 0, 0)) != CLI_OK) goto done_all;
  }
  cli_progress_begin(&prog, "raycast", 0, c.quiet);
  for (;;) {
    size_t n, i;
    if (prox_io_records_next(rd, rays, CHUNK, &n, &err) != PROX_OK) {
      rc = cli_fail_error(&err);
      break;
    }
    if (n == 0) break;
    if ((rc = cli_raycast(&m, rays, n, hits, c.threads)) != CLI_OK) break;
    for (i = 0; i < n; ++i) {
      double row[9];
      const cli_hit *h = hits + i;
      row[0] = h->hit;
      row[1] = h->t;
      row[2] = (double)h->triangle;
      memcpy(row + 3, h->p, 3 * sizeof(double));
      memcpy(row + 6, h->n, 3 * sizeof(double));
      cli_sink_row(&sink, row);
    }
    done += n;
    cli_progress_update(&prog, done);
  }
  cli_progress_end(&prog);
  rc = cli_sink_close(&sink, rc == CLI_OK) == CLI_OK ? rc : CLI_BAD_INPUT;

done_all:
  free(rays);
  free(hits);
  prox_io_records_close(rd);
done_mesh:
  cli_mesh_free(&m);
  return rc;
}
