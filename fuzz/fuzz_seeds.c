/* SPDX-License-Identifier: MIT */
/* fuzz_seeds: writes small seed inputs for the prox_io fuzz targets.
 *
 *   fuzz_seeds DIR
 *
 * writes DIR/obj/, DIR/ply/, DIR/stl/ and DIR/points/ (the folders must
 * exist): a cube in OBJ with every corner form, a tetrahedron in PLY in the
 * three encodings with other properties and an unknown element, in ascii
 * and binary STL (a binary header that starts with "solid"), and point and
 * ray files in CSV, XYZ and PLY, each prefixed with the mode byte that
 * fuzz_points reads first. .ci/run adds the small real meshes (teapot.obj,
 * spot.obj) from the mesh folder; nothing is stored in the repository. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir;

static FILE *open_seed(const char *sub, const char *name) {
  char path[1024];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
  f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "fuzz_seeds: cannot write %s\n", path);
    exit(1);
  }
  return f;
}

static void put(FILE *f, uint64_t v, int n, int le) {
  int i;
  for (i = 0; i < n; ++i)
    fputc((int)((v >> (8 * (le ? i : n - 1 - i))) & 0xff), f);
}

static void put_f32(FILE *f, float x, int le) {
  uint32_t u;
  memcpy(&u, &x, 4);
  put(f, u, 4, le);
}

static const float tet_v[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const int tet_f[4][3] = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};

static void seed_obj(void) {
  FILE *f = open_seed("obj", "cube.obj");
  fputs("# cube\r\nmtllib c.mtl\r\no cube\r\nv 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\n"
        "v 0 1 0\r\nv 0 0 1\r\nv 1 0 1\r\nv 1 1 1\r\nv 0 1 1\r\n"
        "vt 0 0\r\nvt 1 0\r\nvt 1 1\r\nvn 0 0 1\r\ng sides\r\ns 1\r\n"
        "usemtl m\r\nf 1 4 3 2\r\nf 5/1 6/2 7/3 8/1\r\nf 1//1 2//1 6//1 "
        "5//1\r\nf 2/1/1 3/2/1 7/3/1\r\nf 2 7 6\r\nf -5 -1 -4\r\n"
        "f -8 -5 -1 -4\r\nl 1 2\r\np 3\r\n",
        f);
  fclose(f);
}

static void seed_ply(void) {
  static const char *const names[3] = {"ascii", "binary_little_endian", "binary_big_endian"};
  static const char *const files[3] = {"tet_ascii.ply", "tet_le.ply", "tet_be.ply"};
  int fmt, i, k;
  for (fmt = 0; fmt < 3; ++fmt) {
    FILE *f = open_seed("ply", files[fmt]);
    int le = fmt == 1;
    fprintf(f,
            "ply\nformat %s 1.0\ncomment seed\nobj_info none\n"
            "element vertex 4\nproperty uchar red\nproperty float x\n"
            "property double y\nproperty float32 z\n"
            "element face 4\nproperty list uchar int vertex_indices\n"
            "property ushort flags\n"
            "element edge 1\nproperty list ushort uint vertex\n"
            "end_header\n",
            names[fmt]);
    for (i = 0; i < 4; ++i) {
      if (fmt == 0) {
        fprintf(f, "%d %g %g %g\n", i, (double)tet_v[i][0], (double)tet_v[i][1],
                (double)tet_v[i][2]);
        continue;
      }
      put(f, (uint64_t)i, 1, le);
      put_f32(f, tet_v[i][0], le);
      {
        double y = tet_v[i][1];
        uint64_t u;
        memcpy(&u, &y, 8);
        put(f, u, 8, le);
      }
      put_f32(f, tet_v[i][2], le);
    }
    for (i = 0; i < 4; ++i) {
      if (fmt == 0) {
        fprintf(f, "3 %d %d %d 7\n", tet_f[i][0], tet_f[i][1], tet_f[i][2]);
        continue;
      }
      put(f, 3, 1, le);
      for (k = 0; k < 3; ++k)
        put(f, (uint64_t)tet_f[i][k], 4, le);
      put(f, 7, 2, le);
    }
    if (fmt == 0)
      fputs("2 0 1\n", f);
    else {
      put(f, 2, 2, le);
      put(f, 0, 4, le);
      put(f, 1, 4, le);
    }
    fclose(f);
  }
}

static void seed_stl(void) {
  FILE *f = open_seed("stl", "tet_ascii.stl");
  char header[80];
  int i, k;
  fputs("solid tet\n", f);
  for (i = 0; i < 4; ++i) {
    fputs(" facet normal 0 0 0\n  outer loop\n", f);
    for (k = 0; k < 3; ++k)
      fprintf(f, "   vertex %g %g %g\n", (double)tet_v[tet_f[i][k]][0],
              (double)tet_v[tet_f[i][k]][1], (double)tet_v[tet_f[i][k]][2]);
    fputs("  endloop\n endfacet\n", f);
  }
  fputs("endsolid tet\n", f);
  fclose(f);
  f = open_seed("stl", "tet_binary.stl");
  memset(header, ' ', sizeof header);
  memcpy(header, "solid but binary", 16);
  fwrite(header, 1, 80, f);
  put(f, 4, 4, 1);
  for (i = 0; i < 4; ++i) {
    for (k = 0; k < 3; ++k)
      put_f32(f, 0.0f, 1);
    for (k = 0; k < 9; ++k)
      put_f32(f, tet_v[tet_f[i][k / 3]][k % 3], 1);
    put(f, 0, 2, 1);
  }
  fclose(f);
}

static void seed_points(void) {
  FILE *f = open_seed("points", "points.csv");
  int i;
  fputc(0x00, f); /* points, text */
  fputs("x,y,z\n# comment\n1,2,3\n-1.5e-3, 4 ,5\r\n\n0.1 0.2 0.3\n", f);
  fclose(f);
  f = open_seed("points", "rays.txt");
  fputc(0x15, f); /* rays, text, capacity 3, small buffer */
  fputs("ox oy oz dx dy dz tmax\n0 0 0 1 0 0\n1 2 3 0 0 -1 10.5\n", f);
  fclose(f);
  f = open_seed("points", "points_le.ply");
  fputc(0x02, f); /* points, PLY */
  fputs("ply\nformat binary_little_endian 1.0\nelement vertex 3\n"
        "property double x\nproperty double y\nproperty double z\n"
        "property float distance\nend_header\n",
        f);
  for (i = 0; i < 3; ++i) {
    double v[3] = {i, 2.0 * i, -0.5 * i};
    uint64_t u;
    int k;
    for (k = 0; k < 3; ++k) {
      memcpy(&u, &v[k], 8);
      put(f, u, 8, 1);
    }
    put_f32(f, 0.25f, 1);
  }
  fclose(f);
  f = open_seed("points", "points_ascii.ply");
  fputc(0x12, f); /* points, PLY, small buffer */
  fputs("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n"
        "property list uchar int l\nproperty float y\nproperty float z\n"
        "end_header\n1 2 5 6 2 3\n4 0 5 6\n",
        f);
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fuzz_seeds DIR (with DIR/obj, ply, stl, "
                    "points)\n");
    return 2;
  }
  dir = argv[1];
  seed_obj();
  seed_ply();
  seed_stl();
  seed_points();
  return 0;
}
