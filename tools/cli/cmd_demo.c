/* SPDX-License-Identifier: MIT */
/* prox demo: the main job without input. A procedural mesh (a bumpy
 * trefoil-knot tube, closed and manifold), its BVH, 1M closest-point
 * queries, 1M ray casts and the slice picture, with timings. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK 65536

/* The trefoil knot, the (2, 3) torus knot: strands at least 1.66 apart and
 * curvature radius at least 1.43, so a tube of radius below 0.7 does not
 * meet itself (the bumps keep it below 0.47). */
static void knot(double t, double p[3], double d[3]) {
  double c3 = cos(3 * t), s3 = sin(3 * t), c2 = cos(2 * t), s2 = sin(2 * t);
  p[0] = (2 + c3) * c2;
  p[1] = (2 + c3) * s2;
  p[2] = s3;
  d[0] = -3 * s3 * c2 - 2 * (2 + c3) * s2;
  d[1] = -3 * s3 * s2 + 2 * (2 + c3) * c2;
  d[2] = 3 * c3;
}

static void unit(double v[3]) {
  double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  v[0] /= l;
  v[1] /= l;
  v[2] /= l;
}

int cli_demo_mesh(int rings, int sides, double **vertices, size_t *vertex_count,
                  uint32_t **triangles, size_t *triangle_count) {
  size_t nv = (size_t)rings * (size_t)sides, nt = 2 * nv, k = 0;
  double *v = malloc(3 * nv * sizeof *v);
  uint32_t *t = malloc(3 * nt * sizeof *t);
  int i, j;
  const double two_pi = 6.283185307179586;
  if (!v || !t) {
    free(v);
    free(t);
    return 0;
  }
  for (i = 0; i < rings; ++i) {
    double s = two_pi * i / rings, c[3], T[3], R[3], N[3], B[3], rt;
    knot(s, c, T);
    unit(T);
    /* Frame: the radial direction made normal to the tangent; it is a
     * function of the point, so the tube closes without a twist. */
    R[0] = c[0];
    R[1] = c[1];
    R[2] = 0;
    unit(R);
    rt = R[0] * T[0] + R[1] * T[1] + R[2] * T[2];
    N[0] = R[0] - rt * T[0];
    N[1] = R[1] - rt * T[1];
    N[2] = R[2] - rt * T[2];
    unit(N);
    B[0] = T[1] * N[2] - T[2] * N[1];
    B[1] = T[2] * N[0] - T[0] * N[2];
    B[2] = T[0] * N[1] - T[1] * N[0];
    for (j = 0; j < sides; ++j) {
      double th = two_pi * j / sides;
      double r = 0.4 * (1 + 0.12 * sin(4 * th + 2 * s) * sin(23 * s) + 0.03 * cos(40 * s));
      double *p = v + 3 * ((size_t)i * (size_t)sides + (size_t)j);
      p[0] = c[0] + r * (cos(th) * N[0] + sin(th) * B[0]);
      p[1] = c[1] + r * (cos(th) * N[1] + sin(th) * B[1]);
      p[2] = c[2] + r * (cos(th) * N[2] + sin(th) * B[2]);
    }
  }
  /* Quads (i, j) (i + 1, j) (i + 1, j + 1) (i, j + 1) in two triangles,
   * wound so that the normals point out of the tube. */
  for (i = 0; i < rings; ++i)
    for (j = 0; j < sides; ++j) {
      uint32_t a = (uint32_t)(i * sides + j);
      uint32_t b = (uint32_t)(((i + 1) % rings) * sides + j);
      uint32_t cc = (uint32_t)(((i + 1) % rings) * sides + (j + 1) % sides);
      uint32_t d = (uint32_t)(i * sides + (j + 1) % sides);
      t[k++] = a;
      t[k++] = d;
      t[k++] = cc;
      t[k++] = a;
      t[k++] = cc;
      t[k++] = b;
    }
  *vertices = v;
  *vertex_count = nv;
  *triangles = t;
  *triangle_count = nt;
  return 1;
}

int cli_cmd_demo(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "demo"};
  cli_common c = {0, 0, 0};
  int r, rc = CLI_OK, small = 0, rings, sides, size, k;
  size_t nq, nr, i, nv, nt;
  double *v = NULL, *pts = NULL, *rays = NULL, t0, t_mesh, t_q = 0, t_r = 0, t_slice = 0, ctr[3],
         rad = 0, sum_d = 0, max_d = 0;
  double cpu_q = 0, cpu_r = 0;
  clock_t c0;
  uint32_t *tri = NULL;
  prox_mesh_closest *res = NULL;
  cli_hit *hits = NULL;
  size_t n_hit = 0;
  cli_mesh m;
  cli_rng rng = {20261125u};
  cli_progress prog;
  const char *png = "demo_slice.png";
  prox_bvh_stats st;

  while (a.i < argc) {
    const char *s = argv[a.i];
    if ((r = cli_common_option(&a, &c, 0)) != 0) {
      if (r < 0) return CLI_USAGE;
      continue;
    }
    if (strcmp(s, "--small") == 0) { /* undocumented: the CI smoke run */
      small = 1;
      a.i++;
      continue;
    }
    return cli_usage_error(a.command, "unexpected argument '%s'", s);
  }
  rings = small ? 100 : 1000;
  sides = small ? 20 : 100;
  nq = small ? 20000 : 1000000;
  nr = nq;
  size = small ? 128 : 512;

  t0 = cli_now();
  if (!cli_demo_mesh(rings, sides, &v, &nv, &tri, &nt)) return cli_fail("out of memory");
  cli_mesh_adopt(&m, v, nv, tri, nt);
  t_mesh = cli_now() - t0;
  if ((rc = cli_mesh_build(&m, "demo mesh", c.threads)) != CLI_OK) goto done;
  prox_bvh_get_stats(m.bvh, &st);

  printf("prox demo: a bumpy trefoil-knot tube, %zu triangles, %zu "
         "vertices\n",
         nt, nv);
  printf("  mesh        %8.3f s  generated (closed, manifold)\n", t_mesh);
  printf("  BVH build   %8.3f s  %zu nodes, depth %d, %.1f bytes/triangle\n", m.build_s, st.nodes,
         st.depth, st.bytes_per_triangle);
  fflush(stdout);

  for (k = 0; k < 3; ++k) {
    double e = m.hi[k] - m.lo[k];
    ctr[k] = 0.5 * (m.lo[k] + m.hi[k]);
    rad += 0.25 * e * e;
  }
  rad = 1.5 * sqrt(rad);

  /* Closest points of random points 0.3 to 0.5 from the knot's core curve
   * (the tube radius is 0.4 +- 0.06): on both sides of the surface, as the
   * points of a scan lie around the surface it measures. */
  pts = malloc(3 * nq * sizeof *pts);
  res = malloc(CHUNK * sizeof *res);
  if (!pts || !res) {
    rc = cli_fail("out of memory");
    goto done;
  }
  for (i = 0; i < nq; ++i) {
    double cp[3], tg[3], dir[3], z = 2 * cli_rng_uniform(&rng) - 1, dt;
    double ph = 6.283185307179586 * cli_rng_uniform(&rng), s = sqrt(1 - z * z);
    double rr = 0.3 + 0.2 * cli_rng_uniform(&rng);
    knot(6.283185307179586 * cli_rng_uniform(&rng), cp, tg);
    unit(tg);
    /* A random direction normal to the curve: rr from the core. */
    dir[0] = s * cos(ph);
    dir[1] = s * sin(ph);
    dir[2] = z;
    dt = dir[0] * tg[0] + dir[1] * tg[1] + dir[2] * tg[2];
    for (k = 0; k < 3; ++k)
      dir[k] -= dt * tg[k];
    if (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2] < 1e-6) dir[0] = 1, dir[1] = dir[2] = 0;
    unit(dir);
    for (k = 0; k < 3; ++k)
      pts[3 * i + (size_t)k] = cp[k] + rr * dir[k];
  }
  cli_progress_begin(&prog, "closest", nq, c.quiet);
  c0 = clock();
  t0 = cli_now();
  for (i = 0; i < nq && rc == CLI_OK; i += CHUNK) {
    size_t n = nq - i < CHUNK ? nq - i : CHUNK, j;
    rc = cli_closest(&m, pts + 3 * i, n, INFINITY, res, c.threads);
    for (j = 0; j < n && rc == CLI_OK; ++j) {
      double d = sqrt(res[j].sqdist);
      sum_d += d;
      if (d > max_d) max_d = d;
    }
    cli_progress_update(&prog, i + n);
  }
  t_q = cli_now() - t0;
  cpu_q = (double)(clock() - c0) / CLOCKS_PER_SEC;
  cli_progress_end(&prog);
  if (rc != CLI_OK) goto done;
  printf("  closest     %8.3f s  %zu points near the surface, %.2f M "
         "queries/s (cpu %.3f s), mean distance %.4f, max %.4f\n",
         t_q, nq, (double)nq / t_q * 1e-6, cpu_q, sum_d / (double)nq, max_d);
  fflush(stdout);

  /* Rays from a sphere around the mesh towards random points of its box. */
  {
    rays = malloc(7 * CHUNK * sizeof *rays);
    hits = malloc(CHUNK * sizeof *hits);
    if (!rays || !hits) {
      rc = cli_fail("out of memory");
      goto done;
    }
    cli_progress_begin(&prog, "raycast", nr, c.quiet);
    for (i = 0; i < nr && rc == CLI_OK; i += CHUNK) {
      size_t n = nr - i < CHUNK ? nr - i : CHUNK, j;
      double tc;
      for (j = 0; j < n; ++j) {
        double *ry = rays + 7 * j, z = 2 * cli_rng_uniform(&rng) - 1;
        double ph = 6.283185307179586 * cli_rng_uniform(&rng);
        double s = sqrt(1 - z * z);
        ry[0] = ctr[0] + rad * s * cos(ph);
        ry[1] = ctr[1] + rad * s * sin(ph);
        ry[2] = ctr[2] + rad * z;
        for (k = 0; k < 3; ++k)
          ry[3 + k] = m.lo[k] + (m.hi[k] - m.lo[k]) * cli_rng_uniform(&rng) - ry[k];
        ry[6] = INFINITY;
      }
      tc = cli_now();
      c0 = clock();
      rc = cli_raycast(&m, rays, n, hits, c.threads);
      cpu_r += (double)(clock() - c0) / CLOCKS_PER_SEC;
      t_r += cli_now() - tc;
      for (j = 0; j < n; ++j)
        n_hit += (size_t)hits[j].hit;
      cli_progress_update(&prog, i + n);
    }
    cli_progress_end(&prog);
    if (rc != CLI_OK) goto done;
    printf("  raycast     %8.3f s  %zu rays, %.2f M rays/s (cpu %.3f s), "
           "%.1f%% hit\n",
           t_r, nr, (double)nr / t_r * 1e-6, cpu_r, 100.0 * (double)n_hit / (double)nr);
  }
  fflush(stdout);

  /* The slice z = 0 through the knot. */
  if ((rc = cli_mesh_build_sign(&m, "demo mesh")) != CLI_OK) goto done;
  printf("  sign build  %8.3f s  topology and %s\n", m.sign_s, cli_sign_method(&m));
  if (cli_png_available()) {
    t0 = cli_now();
    rc = cli_slice_render(&m, 2, 0.0, size, 1, c.threads, c.quiet, png);
    t_slice = cli_now() - t0;
    if (rc != CLI_OK) goto done;
    printf("  slice       %8.3f s  %s, plane z = 0, signed distance (blue "
           "inside, red outside, zero contour in black)\n",
           t_slice, png);
  } else {
    printf("  slice       skipped: this build has no PNG support (libpng "
           "was not found when prox was configured)\n");
  }

done:
  free(pts);
  free(res);
  free(rays);
  free(hits);
  cli_mesh_free(&m);
  return rc;
}
