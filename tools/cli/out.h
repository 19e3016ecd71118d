/* SPDX-License-Identifier: MIT */
/* Row output of the prox command: CSV (streamed, to standard output or to a
 * temporary file renamed into place on success) or a binary PLY point cloud
 * (rows spilled to an anonymous temporary file first, because PLY states
 * the count in its header: memory stays bounded either way). */
#ifndef PROX_CLI_OUT_H
#define PROX_CLI_OUT_H

#include "cli.h"

typedef struct cli_sink {
  int ply;                    /* 0: CSV, 1: PLY */
  int ncols;                  /* doubles a row */
  int extra_first, extra_end; /* PLY: columns written as properties */
  const char *const *cols;    /* column names */
  prox_io_out *csv;           /* CSV writer */
  FILE *spill;                /* PLY: rows waiting for the header */
  uint64_t rows;
  int failed;
  cli_outpath path;
} cli_sink;

/* Opens the sink: path NULL or "-" is CSV on standard output; a name ending
 * in .ply is PLY (the first three columns are x, y, z; columns
 * extra_first .. extra_end - 1 its scalar properties); any other name CSV.
 * The CSV header line is the column names. CLI_OK or CLI_BAD_INPUT. */
int cli_sink_open(cli_sink *s, const char *path, const char *const *cols, int ncols,
                  int extra_first, int extra_end);

/* Appends one row of ncols doubles. */
void cli_sink_row(cli_sink *s, const double *row);

/* Finishes: ok != 0 writes the file in place; ok == 0 deletes what was
 * written (a file never holds partial output). CLI_OK or CLI_BAD_INPUT. */
int cli_sink_close(cli_sink *s, int ok);

#endif /* PROX_CLI_OUT_H */
