/* SPDX-License-Identifier: MIT */
/* Row output of the prox command (see out.h). */
#include "out.h"

#include <stdlib.h>
#include <string.h>

int cli_sink_open(cli_sink *s, const char *path, const char *const *cols, int ncols,
                  int extra_first, int extra_end) {
  prox_error err;
  const char *target;
  memset(s, 0, sizeof *s);
  s->ncols = ncols;
  s->cols = cols;
  s->extra_first = extra_first;
  s->extra_end = extra_end;
  s->ply = path && strcmp(path, "-") != 0 && cli_ends_with(path, ".ply");
  if (s->ply) {
    s->path.final = path;
    s->spill = tmpfile();
    if (!s->spill) return cli_fail("%s: cannot create a temporary file", path);
    return CLI_OK;
  }
  target = cli_outpath_begin(&s->path, path);
  if (!target) return cli_fail("%s: name too long", path);
  if (prox_io_out_open(target, &s->csv, &err) != PROX_OK) {
    cli_outpath_end(&s->path, 0);
    return cli_fail("%s: cannot write: %s", path ? path : "standard output", err.message);
  }
  {
    int k;
    for (k = 0; k < ncols; ++k) {
      if (k) prox_io_out_str(s->csv, ",");
      prox_io_out_str(s->csv, cols[k]);
    }
    prox_io_out_str(s->csv, "\n");
  }
  return CLI_OK;
}

void cli_sink_row(cli_sink *s, const double *row) {
  s->rows++;
  if (s->ply) {
    if (fwrite(row, sizeof *row, (size_t)s->ncols, s->spill) != (size_t)s->ncols) s->failed = 1;
  } else {
    prox_io_csv_row(s->csv, row, (size_t)s->ncols);
  }
}

static int sink_close_ply(cli_sink *s) {
  prox_io_ply_writer *w = NULL;
  prox_io_ply_type types[PROX_IO_MAX_FIELDS];
  const char *names[PROX_IO_MAX_FIELDS];
  prox_error err;
  const char *target = cli_outpath_begin(&s->path, s->path.final);
  int nx = s->extra_end - s->extra_first, k, ok = 1;
  double row[PROX_IO_MAX_FIELDS + 3];
  uint64_t i;
  for (k = 0; k < nx; ++k) {
    names[k] = s->cols[s->extra_first + k];
    types[k] = PROX_IO_PLY_DOUBLE;
  }
  if (!target) return cli_fail("%s: name too long", s->path.final);
  if (s->failed || fflush(s->spill) != 0 || fseek(s->spill, 0, SEEK_SET)) {
    cli_outpath_end(&s->path, 0);
    return cli_fail("%s: cannot write the temporary file", s->path.final);
  }
  if (prox_io_ply_writer_open(target, s->rows, nx, names, types, &w, &err) != PROX_OK) {
    cli_outpath_end(&s->path, 0);
    return cli_fail("%s: cannot write: %s", s->path.final, err.message);
  }
  for (i = 0; i < s->rows; ++i) {
    if (fread(row, sizeof *row, (size_t)s->ncols, s->spill) != (size_t)s->ncols) {
      ok = 0;
      break;
    }
    prox_io_ply_writer_vertex(w, row, row + s->extra_first);
  }
  if (prox_io_ply_writer_close(w, &err) != PROX_OK || !ok) {
    cli_outpath_end(&s->path, 0);
    return cli_fail("%s: cannot write: %s", s->path.final,
                    ok ? err.message : "temporary file truncated");
  }
  return cli_outpath_end(&s->path, 1);
}

int cli_sink_close(cli_sink *s, int ok) {
  int rc = CLI_OK;
  prox_error err;
  if (s->ply) {
    if (ok) rc = sink_close_ply(s);
    if (s->spill) fclose(s->spill);
    s->spill = NULL;
    return rc;
  }
  if (s->csv && prox_io_out_close(s->csv, &err) != PROX_OK) {
    if (ok)
      rc = cli_fail("%s: cannot write: %s", s->path.final ? s->path.final : "standard output",
                    err.message);
    ok = 0;
  }
  s->csv = NULL;
  if (cli_outpath_end(&s->path, ok) != CLI_OK) rc = CLI_BAD_INPUT;
  return rc;
}
