/* SPDX-License-Identifier: MIT */
/* prox slice and prox sdf: the signed distance on a plane (a PNG heat map)
 * and on a regular grid (NumPy .npy with a JSON sidecar). The grid loops,
 * the files and the pictures are here; the distances are the library's. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

/* Distances of n points into out (float): signed through the library's
 * signed-distance batch, unsigned through its closest-point batch. */
static int distance_field(const cli_mesh *m, const double *xyz, size_t n, int is_signed, float *out,
                          int threads, cli_progress *prog, uint64_t *done) {
  size_t at = 0, i;
  prox_mesh_closest *res = NULL;
  double *sd = NULL;
  int rc = CLI_OK;
  if (is_signed)
    sd = malloc(CHUNK * sizeof *sd);
  else
    res = malloc(CHUNK * sizeof *res);
  if (!sd && !res) return cli_fail("out of memory");
  while (at < n) {
    size_t k = n - at < CHUNK ? n - at : CHUNK;
    if (is_signed) {
      if ((rc = cli_signed_distance(m, xyz + 3 * at, k, sd, threads)) != CLI_OK) break;
      for (i = 0; i < k; ++i)
        out[at + i] = (float)sd[i];
    } else {
      if ((rc = cli_closest(m, xyz + 3 * at, k, INFINITY, res, threads)) != CLI_OK) break;
      for (i = 0; i < k; ++i)
        out[at + i] = (float)sqrt(res[i].sqdist);
    }
    at += k;
    *done += k;
    cli_progress_update(prog, *done);
  }
  free(res);
  free(sd);
  return rc;
}

/* The slice picture of mesh m on the plane axis = at, `size` pixels along
 * its longer side, written to png. Shared by `slice` and `demo`. */
int cli_slice_render(const cli_mesh *m, int axis, double at, int size, int is_signed, int threads,
                     int quiet, const char *png) {
  /* In-plane axes (horizontal, vertical): z: (x, y), y: (x, z), x: (y, z). */
  int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2, w, h, x, y, rc;
  double eu = m->hi[u] - m->lo[u], ev = m->hi[v] - m->lo[v];
  double side = (eu > ev ? eu : ev), margin, px, u0, v1;
  double *xyz;
  float *vals;
  cli_progress prog;
  uint64_t done = 0;
  if (!(side > 0)) side = 1;
  margin = 0.1 * side;
  px = (side + 2 * margin) / size;
  w = (int)ceil((eu + 2 * margin) / px);
  h = (int)ceil((ev + 2 * margin) / px);
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  u0 = 0.5 * (m->lo[u] + m->hi[u]) - 0.5 * w * px;
  v1 = 0.5 * (m->lo[v] + m->hi[v]) + 0.5 * h * px;
  xyz = malloc((size_t)w * (size_t)h * 3 * sizeof *xyz);
  vals = malloc((size_t)w * (size_t)h * sizeof *vals);
  if (!xyz || !vals) {
    free(xyz);
    free(vals);
    return cli_fail("out of memory");
  }
  /* Pixel centres, row 0 at the top (the largest v). */
  for (y = 0; y < h; ++y)
    for (x = 0; x < w; ++x) {
      double *p = xyz + 3 * ((size_t)y * (size_t)w + (size_t)x);
      p[axis] = at;
      p[u] = u0 + (x + 0.5) * px;
      p[v] = v1 - (y + 0.5) * px;
    }
  cli_progress_begin(&prog, "slice", (uint64_t)w * (uint64_t)h, quiet);
  rc = distance_field(m, xyz, (size_t)w * (size_t)h, is_signed, vals, threads, &prog, &done);
  cli_progress_end(&prog);
  if (rc == CLI_OK) rc = cli_heatmap_png(png, vals, w, h, is_signed);
  free(xyz);
  free(vals);
  return rc;
}

int cli_cmd_slice(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "slice"};
  cli_common c = {0, 0, 0};
  const char *mesh_path = NULL, *out_path = NULL, *v;
  int r, rc, axis = 2, have_at = 0;
  long size = 512;
  double at = 0;
  cli_mesh m;
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
    if ((r = cli_opt_value(&a, "--axis", &v)) != 0) {
      if (r < 0) return CLI_USAGE;
      if (strlen(v) != 1 || v[0] < 'x' || v[0] > 'z')
        return cli_usage_error(a.command, "--axis is x, y or z, not '%s'", v);
      axis = v[0] - 'x';
      continue;
    }
    if ((r = cli_opt_value(&a, "--at", &v)) != 0) {
      if (r < 0 || !cli_parse_double(a.command, "--at", v, &at)) return CLI_USAGE;
      have_at = 1;
      continue;
    }
    if ((r = cli_opt_value(&a, "--size", &v)) != 0) {
      if (r < 0 || !cli_parse_long(a.command, "--size", v, 16, 16384, &size)) return CLI_USAGE;
      continue;
    }
    if (s[0] == '-' && s[1] != '\0') return cli_usage_error(a.command, "unknown option '%s'", s);
    if (mesh_path) return cli_usage_error(a.command, "too many arguments ('%s')", s);
    mesh_path = s;
    a.i++;
  }
  if (!mesh_path) return cli_usage_error(a.command, "needs MESH");
  if (!out_path) return cli_usage_error(a.command, "needs -o OUT.png");
  if (!cli_png_available())
    return cli_fail("this build has no PNG support (libpng was not found "
                    "when prox was configured)");
  if ((rc = cli_mesh_load(&m, mesh_path)) != CLI_OK) return rc;
  if ((rc = cli_mesh_build(&m, mesh_path, c.threads)) == CLI_OK)
    rc = cli_mesh_build_sign(&m, mesh_path);
  if (rc == CLI_OK) {
    if (!have_at) at = 0.5 * (m.lo[axis] + m.hi[axis]);
    rc = cli_slice_render(&m, axis, at, (int)size, 1, c.threads, c.quiet, out_path);
  }
  cli_mesh_free(&m);
  return rc;
}

/* ---- sdf --------------------------------------------------------------- */

/* Writes the grid, slab by slab (one z plane at a time: bounded memory). */
static int sdf_write(const cli_mesh *m, const double origin[3], double hsp, const uint64_t n[3],
                     const char *npy, const char *json, const char *data_name, int is_signed,
                     int threads, int quiet) {
  prox_io_npy_writer *wr = NULL;
  prox_error err;
  size_t plane = (size_t)(n[0] * n[1]), i, j;
  double *xyz = malloc(plane * 3 * sizeof *xyz);
  float *vals = malloc(plane * sizeof *vals);
  uint64_t k, done = 0;
  cli_progress prog;
  int rc = CLI_OK;
  double spacing[3];
  uint64_t shape[3];
  if (!xyz || !vals) {
    free(xyz);
    free(vals);
    return cli_fail("out of memory");
  }
  if (prox_io_npy_writer_open(npy, n[2], n[1], n[0], &wr, &err) != PROX_OK) {
    free(xyz);
    free(vals);
    return cli_fail_error(&err);
  }
  cli_progress_begin(&prog, "sdf", n[0] * n[1] * n[2], quiet);
  for (k = 0; k < n[2] && rc == CLI_OK; ++k) {
    for (j = 0; j < n[1]; ++j)
      for (i = 0; i < n[0]; ++i) {
        double *p = xyz + 3 * (j * n[0] + i);
        p[0] = origin[0] + (double)i * hsp;
        p[1] = origin[1] + (double)j * hsp;
        p[2] = origin[2] + (double)k * hsp;
      }
    if (is_signed) {
      /* The library's grid (each query starts from its neighbour's answer),
       * one z plane at a time. */
      prox_status st =
          prox_sdf_grid(m->sdf, prox_v3(origin[0], origin[1], origin[2] + (double)k * hsp),
                        prox_v3(hsp, hsp, hsp), (size_t)n[0], (size_t)n[1], 1, vals, threads);
      if (st != PROX_OK) rc = cli_fail("signed distance grid failed: %s", prox_status_string(st));
      done += plane;
      cli_progress_update(&prog, done);
    } else
      rc = distance_field(m, xyz, plane, is_signed, vals, threads, &prog, &done);
    if (rc == CLI_OK) prox_io_npy_writer_values(wr, vals, plane);
  }
  cli_progress_end(&prog);
  free(xyz);
  free(vals);
  if (prox_io_npy_writer_close(wr, &err) != PROX_OK && rc == CLI_OK) rc = cli_fail_error(&err);
  if (rc != CLI_OK) return rc;
  spacing[0] = spacing[1] = spacing[2] = hsp;
  shape[0] = n[2];
  shape[1] = n[1];
  shape[2] = n[0];
  if (prox_io_write_grid_json(json, data_name, shape, origin, spacing, &err) != PROX_OK)
    return cli_fail_error(&err);
  return CLI_OK;
}

int cli_cmd_sdf(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "sdf"};
  cli_common c = {0, 0, 0};
  const char *mesh_path = NULL, *out_path = NULL, *v;
  int r, rc, ci;
  long res = 64;
  int have_res = 0, have_voxel = 0, is_signed = 1;
  double voxel = 0, pad = 0.1;
  cli_mesh m;
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
    if ((r = cli_opt_value(&a, "--res", &v)) != 0) {
      if (r < 0 || !cli_parse_long(a.command, "--res", v, 2, 4096, &res)) return CLI_USAGE;
      have_res = 1;
      continue;
    }
    if ((r = cli_opt_value(&a, "--voxel", &v)) != 0) {
      if (r < 0 || !cli_parse_double(a.command, "--voxel", v, &voxel)) return CLI_USAGE;
      if (!(voxel > 0)) return cli_usage_error(a.command, "--voxel must be positive");
      have_voxel = 1;
      continue;
    }
    if (strcmp(s, "--unsigned") == 0) {
      is_signed = 0;
      a.i++;
      continue;
    }
    if ((r = cli_opt_value(&a, "--pad", &v)) != 0) {
      if (r < 0 || !cli_parse_double(a.command, "--pad", v, &pad)) return CLI_USAGE;
      if (pad < 0 || pad > 100) return cli_usage_error(a.command, "--pad is from 0 to 100");
      continue;
    }
    if (s[0] == '-' && s[1] != '\0') return cli_usage_error(a.command, "unknown option '%s'", s);
    if (mesh_path) return cli_usage_error(a.command, "too many arguments ('%s')", s);
    mesh_path = s;
    a.i++;
  }
  if (!mesh_path) return cli_usage_error(a.command, "needs MESH");
  if (!out_path) return cli_usage_error(a.command, "needs -o OUT.npy");
  if (strcmp(out_path, "-") == 0)
    return cli_usage_error(a.command, "OUT is a file (it gets a sidecar)");
  if (have_res && have_voxel)
    return cli_usage_error(a.command, "--res and --voxel exclude each other");
  if ((rc = cli_mesh_load(&m, mesh_path)) != CLI_OK) return rc;
  if ((rc = cli_mesh_build(&m, mesh_path, c.threads)) == CLI_OK && is_signed)
    rc = cli_mesh_build_sign(&m, mesh_path);
  if (rc == CLI_OK) {
    double side = 0, origin[3], hsp, total = 1;
    uint64_t n[3];
    char json[4096];
    for (ci = 0; ci < 3; ++ci)
      if (m.hi[ci] - m.lo[ci] > side) side = m.hi[ci] - m.lo[ci];
    if (!(side > 0)) side = 1;
    hsp = have_voxel ? voxel : side * (1 + 2 * pad) / (double)(res - 1);
    for (ci = 0; ci < 3; ++ci) {
      double ext = m.hi[ci] - m.lo[ci] + 2 * pad * side;
      double cnt = ceil(ext / hsp * (1 - 1e-12)) + 1;
      n[ci] = (uint64_t)cnt;
      total *= cnt;
      /* Centre the grid on the box. */
      origin[ci] = 0.5 * (m.lo[ci] + m.hi[ci]) - 0.5 * (cnt - 1) * hsp;
    }
    if (total > 4e9 || (double)(n[0] * n[1]) > 2e8) {
      rc = cli_fail("%s: the grid (%.0f points) is too large: use a larger "
                    "--voxel or a smaller --res",
                    mesh_path, total);
    } else if (prox_io_sidecar_path(out_path, json, sizeof json) != 0) {
      rc = cli_fail("%s: name too long", out_path);
    } else {
      cli_outpath onpy, ojson;
      const char *tnpy = cli_outpath_begin(&onpy, out_path);
      const char *tjson = cli_outpath_begin(&ojson, json);
      const char *base = strrchr(out_path, '/');
      if (!tnpy || !tjson) {
        rc = cli_fail("%s: name too long", out_path);
      } else {
        rc = sdf_write(&m, origin, hsp, n, tnpy, tjson, base ? base + 1 : out_path, is_signed,
                       c.threads, c.quiet);
      }
      if (cli_outpath_end_pair(&onpy, &ojson, rc == CLI_OK) != CLI_OK) rc = CLI_BAD_INPUT;
    }
  }
  cli_mesh_free(&m);
  return rc;
}
