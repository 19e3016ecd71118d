/* SPDX-License-Identifier: MIT */
/* prox distance A B: distances from the mesh or point cloud A to the mesh B
 * (cloud-to-mesh deviation): statistics, percentiles, the symmetric
 * Hausdorff distance of two meshes, a text histogram, per-point output. The
 * distances are the library's (closest-point batch); this file samples,
 * counts and prints. */
#include "cli.h"
#include "out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536
#define BINS 10

/* Uniform samples on a mesh by area: the cumulative areas, then a triangle
 * by bisection and a point by the square-root map of two uniforms. */
typedef struct sampler {
  const cli_mesh *m;
  double *cum; /* cum[i]: area of triangles 0..i */
  cli_rng rng;
} sampler;

static int sampler_init(sampler *s, const cli_mesh *m, uint64_t seed) {
  size_t i, n = m->mesh.triangle_count;
  double acc = 0;
  s->m = m;
  s->rng.s = seed;
  s->cum = malloc((n ? n : 1) * sizeof *s->cum);
  if (!s->cum) return 0;
  for (i = 0; i < n; ++i) {
    prox_triangle t = prox_mesh_triangle(&m->mesh, (uint32_t)i);
    prox_vec3 e1 = prox_vsub(t.v[1], t.v[0]), e2 = prox_vsub(t.v[2], t.v[0]);
    acc += 0.5 * prox_vlen(prox_vcross(e1, e2));
    s->cum[i] = acc;
  }
  return 1;
}

static void sampler_points(sampler *s, double *xyz, size_t n) {
  size_t k, nt = s->m->mesh.triangle_count;
  double total = s->cum[nt - 1];
  for (k = 0; k < n; ++k) {
    double u = cli_rng_uniform(&s->rng) * total;
    double r1 = sqrt(cli_rng_uniform(&s->rng)), r2 = cli_rng_uniform(&s->rng);
    size_t lo = 0, hi = nt - 1;
    prox_triangle t;
    double a, b, w;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (s->cum[mid] > u)
        hi = mid;
      else
        lo = mid + 1;
    }
    t = prox_mesh_triangle(&s->m->mesh, (uint32_t)lo);
    a = 1 - r1;
    b = r1 * (1 - r2);
    w = r1 * r2;
    xyz[3 * k + 0] = a * t.v[0].x + b * t.v[1].x + w * t.v[2].x;
    xyz[3 * k + 1] = a * t.v[0].y + b * t.v[1].y + w * t.v[2].y;
    xyz[3 * k + 2] = a * t.v[0].z + b * t.v[1].z + w * t.v[2].z;
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted values. */
static double percentile(const double *v, size_t n, double p) {
  size_t k = (size_t)ceil(p / 100.0 * (double)n);
  if (k < 1) k = 1;
  return v[k - 1];
}

/* A growing array of distances. */
typedef struct dvec {
  double *v;
  size_t n, cap;
} dvec;

static int dvec_push(dvec *d, const double *x, size_t n) {
  if (d->n + n > d->cap) {
    size_t cap = d->cap ? d->cap : 1 << 16;
    double *p;
    while (cap < d->n + n)
      cap *= 2;
    p = realloc(d->v, cap * sizeof *p);
    if (!p) return 0;
    d->v = p;
    d->cap = cap;
  }
  memcpy(d->v + d->n, x, n * sizeof *x);
  d->n += n;
  return 1;
}

/* The maximum distance from n samples of mesh `from` to mesh `to`
 * (directed, sampled Hausdorff). */
static int directed_max(const cli_mesh *from, const cli_mesh *to, size_t n, const cli_common *c,
                        double *out) {
  sampler s;
  double *xyz = malloc(CHUNK * 3 * sizeof *xyz), mx = 0;
  prox_mesh_closest *res = malloc(CHUNK * sizeof *res);
  size_t done = 0, i;
  cli_progress prog;
  int rc = CLI_OK;
  if (!xyz || !res || !sampler_init(&s, from, 0x5eed0002u)) {
    free(xyz);
    free(res);
    return cli_fail("out of memory");
  }
  cli_progress_begin(&prog, "hausdorff", n, c->quiet);
  while (done < n) {
    size_t k = n - done < CHUNK ? n - done : CHUNK;
    sampler_points(&s, xyz, k);
    if ((rc = cli_closest(to, xyz, k, INFINITY, res, c->threads)) != CLI_OK) break;
    for (i = 0; i < k; ++i)
      if (res[i].sqdist > mx) mx = res[i].sqdist;
    done += k;
    cli_progress_update(&prog, done);
  }
  cli_progress_end(&prog);
  free(s.cum);
  free(xyz);
  free(res);
  *out = sqrt(mx);
  return rc;
}

static int is_mesh_file(const char *path, cli_mesh *m) {
  if (strcmp(path, "-") == 0) return 0;
  if (cli_ends_with(path, ".obj") || cli_ends_with(path, ".stl")) return 1;
  if (cli_ends_with(path, ".ply")) {
    /* A PLY with faces is a mesh, one without is a point cloud. */
    prox_io_mesh io;
    prox_error err;
    int faces = 0;
    (void)m;
    if (prox_io_read_mesh(path, NULL, &io, &err) == PROX_OK) {
      faces = io.triangle_count > 0;
      prox_io_mesh_free(&io);
    }
    return faces;
  }
  return 0;
}

int cli_cmd_distance(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "distance"};
  cli_common c = {0, 0, 0};
  const char *pos[2] = {NULL, NULL}, *out_path = NULL, *v;
  int npos = 0, r, rc = CLI_OK, a_mesh, have_sink = 0;
  long samples = 1000000;
  cli_mesh ma, mb;
  sampler smp;
  prox_io_records *rd = NULL;
  prox_io_records_options ro = prox_io_records_points();
  prox_error err;
  double *xyz = NULL, *dist = NULL, hausdorff = NAN;
  prox_mesh_closest *res = NULL;
  cli_sink sink;
  cli_progress prog;
  dvec all = {NULL, 0, 0};
  double t0;

  memset(&ma, 0, sizeof ma);
  memset(&mb, 0, sizeof mb);
  smp.cum = NULL;
  while (a.i < argc) {
    const char *s = argv[a.i];
    if ((r = cli_common_option(&a, &c, 1)) != 0) {
      if (r < 0) return CLI_USAGE;
      continue;
    }
    if ((r = cli_opt_value(&a, "-o", &v)) != 0 || (r = cli_opt_value(&a, "--output", &v)) != 0) {
      if (r < 0) return CLI_USAGE;
      out_path = v;
      continue;
    }
    if ((r = cli_opt_value(&a, "--samples", &v)) != 0) {
      if (r < 0 || !cli_parse_long(a.command, "--samples", v, 1, 2000000000L, &samples))
        return CLI_USAGE;
      continue;
    }
    if (s[0] == '-' && s[1] != '\0') return cli_usage_error(a.command, "unknown option '%s'", s);
    if (npos == 2) return cli_usage_error(a.command, "too many arguments ('%s')", s);
    pos[npos++] = s;
    a.i++;
  }
  if (npos < 2) return cli_usage_error(a.command, "needs A and B");

  t0 = cli_now();
  a_mesh = is_mesh_file(pos[0], &ma);
  if ((rc = cli_mesh_load(&mb, pos[1])) != CLI_OK) return rc;
  if ((rc = cli_mesh_build(&mb, pos[1], c.threads)) != CLI_OK) goto done;
  if (a_mesh) {
    if ((rc = cli_mesh_load(&ma, pos[0])) != CLI_OK) goto done;
    if (!sampler_init(&smp, &ma, 0x5eed0001u)) {
      rc = cli_fail("out of memory");
      goto done;
    }
  } else if (prox_io_records_open(pos[0], &ro, &rd, &err) != PROX_OK) {
    rc = cli_fail_error(&err);
    goto done;
  }
  xyz = malloc(CHUNK * 3 * sizeof *xyz);
  dist = malloc(CHUNK * sizeof *dist);
  res = malloc(CHUNK * sizeof *res);
  if (!xyz || !dist || !res) {
    rc = cli_fail("out of memory");
    goto done;
  }
  if (out_path) {
    static const char *const cols[] = {"x", "y", "z", "distance"};
    if ((rc = cli_sink_open(&sink, out_path, cols, 4, 3, 4)) != CLI_OK) goto done;
    have_sink = 1;
  }

  cli_progress_begin(&prog, "distance", a_mesh ? (uint64_t)samples : 0, c.quiet);
  for (;;) {
    size_t n, i;
    if (a_mesh) {
      n = (size_t)samples - all.n < CHUNK ? (size_t)samples - all.n : CHUNK;
      sampler_points(&smp, xyz, n);
    } else if (prox_io_records_next(rd, xyz, CHUNK, &n, &err) != PROX_OK) {
      rc = cli_fail_error(&err);
      break;
    }
    if (n == 0) break;
    if ((rc = cli_closest(&mb, xyz, n, INFINITY, res, c.threads)) != CLI_OK) break;
    for (i = 0; i < n; ++i)
      dist[i] = sqrt(res[i].sqdist);
    if (!dvec_push(&all, dist, n)) {
      rc = cli_fail("out of memory");
      break;
    }
    if (have_sink)
      for (i = 0; i < n; ++i) {
        double row[4];
        memcpy(row, xyz + 3 * i, 3 * sizeof *row);
        row[3] = dist[i];
        cli_sink_row(&sink, row);
      }
    cli_progress_update(&prog, all.n);
  }
  cli_progress_end(&prog);
  if (rc == CLI_OK && all.n == 0) rc = cli_fail("%s: no points", pos[0]);
  if (rc == CLI_OK && a_mesh) {
    double ab = 0, ba = 0;
    size_t i;
    for (i = 0; i < all.n; ++i)
      if (all.v[i] > ab) ab = all.v[i];
    if ((rc = cli_mesh_build(&ma, pos[0], c.threads)) == CLI_OK &&
        (rc = directed_max(&mb, &ma, (size_t)samples, &c, &ba)) == CLI_OK)
      hausdorff = ab > ba ? ab : ba;
  }
  if (have_sink) {
    int rs = cli_sink_close(&sink, rc == CLI_OK);
    if (rc == CLI_OK) rc = rs;
  }
  if (rc != CLI_OK) goto done;

  {
    /* Statistics over the distances (sorted in place). */
    size_t n = all.n, i, counts[BINS] = {0};
    double sum = 0, sq = 0, mn, mx, p50, p95, p99, w;
    for (i = 0; i < n; ++i) {
      sum += all.v[i];
      sq += all.v[i] * all.v[i];
    }
    qsort(all.v, n, sizeof *all.v, cmp_double);
    mn = all.v[0];
    mx = all.v[n - 1];
    p50 = percentile(all.v, n, 50);
    p95 = percentile(all.v, n, 95);
    p99 = percentile(all.v, n, 99);
    w = (mx - mn) / BINS;
    for (i = 0; i < n; ++i) {
      size_t b = w > 0 ? (size_t)((all.v[i] - mn) / w) : 0;
      counts[b < BINS ? b : BINS - 1]++;
    }
    if (c.json) {
      printf("{\"a\": ");
      cli_json_string(pos[0]);
      printf(", \"b\": ");
      cli_json_string(pos[1]);
      printf(", \"a_kind\": \"%s\", \"count\": %zu, \"min\": %.17g, \"mean\": "
             "%.17g, "
             "\"rms\": %.17g, \"max\": %.17g, \"p50\": %.17g, "
             "\"p95\": %.17g, \"p99\": %.17g, \"hausdorff\": ",
             a_mesh ? "mesh" : "points", n, mn, sum / (double)n, sqrt(sq / (double)n), mx, p50, p95,
             p99);
      if (a_mesh)
        printf("%.17g", hausdorff);
      else
        printf("null");
      printf(", \"histogram\": {\"edges\": [");
      for (i = 0; i <= BINS; ++i)
        printf("%s%.17g", i ? ", " : "", i == BINS ? mx : mn + (double)i * w);
      printf("], \"counts\": [");
      for (i = 0; i < BINS; ++i)
        printf("%s%zu", i ? ", " : "", counts[i]);
      printf("]}, \"seconds\": %.6f}\n", cli_now() - t0);
    } else {
      size_t most = 0;
      printf("%s (%s) to %s\n", pos[0], a_mesh ? "mesh, sampled by area" : "points", pos[1]);
      printf("  count      %zu\n", n);
      printf("  min        %.6g\n", mn);
      printf("  mean       %.6g\n", sum / (double)n);
      printf("  rms        %.6g\n", sqrt(sq / (double)n));
      printf("  max        %.6g\n", mx);
      printf("  p50        %.6g\n", p50);
      printf("  p95        %.6g\n", p95);
      printf("  p99        %.6g\n", p99);
      if (a_mesh)
        printf("  hausdorff  %.6g  (symmetric, over %ld samples of each "
               "mesh)\n",
               hausdorff, samples);
      for (i = 0; i < BINS; ++i)
        if (counts[i] > most) most = counts[i];
      printf("  histogram\n");
      for (i = 0; i < BINS; ++i) {
        int bar = most ? (int)((40 * counts[i] + most - 1) / most) : 0, k;
        printf("  %11.4g - %-11.4g %10zu ", mn + (double)i * w,
               i + 1 == BINS ? mx : mn + (double)(i + 1) * w, counts[i]);
        for (k = 0; k < bar; ++k)
          putchar('#');
        putchar('\n');
      }
      printf("  %.2f s\n", cli_now() - t0);
    }
  }

done:
  free(xyz);
  free(dist);
  free(res);
  free(all.v);
  free(smp.cum);
  prox_io_records_close(rd);
  cli_mesh_free(&ma);
  cli_mesh_free(&mb);
  return rc;
}
