/* SPDX-License-Identifier: MIT */
/* The heat map pictures of `slice` and `demo`: colour maps, the zero
 * contour, a colour bar labelled with a tiny bitmap font, and the PNG file
 * (libpng, where the build found it). */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(PROX_CLI_HAVE_PNG)
#include <png.h>
#endif

/* Layout right of the map: gap, bar, gap, labels. */
#define BAR_GAP 12
#define BAR_W 16
#define LABEL_GAP 4
#define FONT_SCALE 2
#define GLYPH_W 3
#define GLYPH_H 5
#define ADVANCE ((GLYPH_W + 1) * FONT_SCALE)
#define LABEL_CHARS 9
#define RIGHT_MARGIN 6

int cli_heatmap_width(int w, int h) {
  (void)h;
  return w + BAR_GAP + BAR_W + LABEL_GAP + LABEL_CHARS * ADVANCE + RIGHT_MARGIN;
}

/* ---- font: 3 x 5 glyphs, one row a byte, bit 2 the leftmost column ---- */

static const unsigned char *glyph(char ch) {
  static const unsigned char digits[10][GLYPH_H] = {
      {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 3, 1, 7}, {5, 5, 7, 1, 1},
      {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 2, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
  static const unsigned char minus[GLYPH_H] = {0, 0, 7, 0, 0};
  static const unsigned char plus[GLYPH_H] = {0, 2, 7, 2, 0};
  static const unsigned char dot[GLYPH_H] = {0, 0, 0, 0, 2};
  static const unsigned char e[GLYPH_H] = {0, 7, 7, 4, 7};
  if (ch >= '0' && ch <= '9') return digits[ch - '0'];
  switch (ch) {
  case '-':
    return minus;
  case '+':
    return plus;
  case '.':
    return dot;
  case 'e':
    return e;
  default:
    return NULL; /* blank */
  }
}

static void put_px(unsigned char *rgb, int W, int H, int x, int y, const unsigned char c[3]) {
  if (x < 0 || y < 0 || x >= W || y >= H) return;
  memcpy(rgb + 3 * ((size_t)y * (size_t)W + (size_t)x), c, 3);
}

static void draw_text(unsigned char *rgb, int W, int H, int x, int y, const char *s) {
  static const unsigned char ink[3] = {0, 0, 0};
  for (; *s; ++s, x += ADVANCE) {
    const unsigned char *g = glyph(*s);
    int r, col, a, b;
    if (!g) continue;
    for (r = 0; r < GLYPH_H; ++r)
      for (col = 0; col < GLYPH_W; ++col)
        if (g[r] & (4 >> col))
          for (a = 0; a < FONT_SCALE; ++a)
            for (b = 0; b < FONT_SCALE; ++b)
              put_px(rgb, W, H, x + col * FONT_SCALE + b, y + r * FONT_SCALE + a, ink);
  }
}

/* ---- colour maps ------------------------------------------------------- */

static void lerp_rgb(const unsigned char a[3], const unsigned char b[3], double t,
                     unsigned char out[3]) {
  int k;
  for (k = 0; k < 3; ++k)
    out[k] = (unsigned char)lround((1 - t) * a[k] + t * b[k]);
}

/* Diverging, t in [-1, 1]: blue (inside, negative), white at 0, red. */
static void map_diverging(double t, unsigned char out[3]) {
  static const unsigned char blue[3] = {40, 70, 190}, white[3] = {247, 247, 247},
                             red[3] = {185, 20, 40};
  if (t < -1) t = -1;
  if (t > 1) t = 1;
  if (t < 0)
    lerp_rgb(white, blue, -t, out);
  else
    lerp_rgb(white, red, t, out);
}

/* Sequential, t in [0, 1]: five points of viridis, linearly joined. */
static void map_sequential(double t, unsigned char out[3]) {
  static const unsigned char pts[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  double s;
  int i;
  if (!(t > 0)) t = 0;
  if (t > 1) t = 1;
  s = t * 4;
  i = (int)s;
  if (i > 3) i = 3;
  lerp_rgb(pts[i], pts[i + 1], s - i, out);
}

/* The colour of value v: lim[1] the largest value (white to red, or the
 * sequential map from 0), lim[0] the magnitude of the most negative one
 * (white to blue). Each side of 0 has its own scale, so that a shallow
 * inside shows beside a deep outside; 0 stays white. */
static void colour(double v, const double lim[2], int diverging, unsigned char c[3]) {
  static const unsigned char grey[3] = {128, 128, 128};
  if (!isfinite(v)) {
    memcpy(c, grey, 3);
    return;
  }
  if (diverging)
    map_diverging(v < 0 ? (lim[0] > 0 ? v / lim[0] : 0) : (lim[1] > 0 ? v / lim[1] : 0), c);
  else
    map_sequential(lim[1] > 0 ? v / lim[1] : 0, c);
}

static void label(char *buf, size_t size, double v) {
  snprintf(buf, size, "%.3g", v);
  if (strcmp(buf, "-0") == 0) snprintf(buf, size, "0");
}

void cli_heatmap_render(const float *values, int w, int h, int diverging, unsigned char *rgb) {
  int W = cli_heatmap_width(w, h), x, y, k;
  double lim[2] = {0, 0};
  size_t i, n = (size_t)w * (size_t)h;
  static const unsigned char white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
  for (i = 0; i < n; ++i)
    if (isfinite(values[i])) {
      if (values[i] < 0 && -values[i] > lim[0]) lim[0] = -values[i];
      if (values[i] > lim[1]) lim[1] = values[i];
    }
  /* A side without values takes the other's scale (the bar stays
   * symmetric); the sequential map runs from 0 to the largest magnitude. */
  if (!diverging && lim[0] > lim[1]) lim[1] = lim[0];
  if (lim[0] == 0) lim[0] = lim[1];
  if (lim[1] == 0) lim[1] = lim[0];
  for (y = 0; y < h; ++y)
    for (x = 0; x < W; ++x)
      put_px(rgb, W, h, x, y, white);
  for (y = 0; y < h; ++y)
    for (x = 0; x < w; ++x) {
      unsigned char c[3];
      colour(values[(size_t)y * (size_t)w + (size_t)x], lim, diverging, c);
      put_px(rgb, W, h, x, y, c);
    }
  if (diverging) {
    /* The zero contour: pixels whose sign differs from the right or lower
     * neighbour's. */
    for (y = 0; y < h; ++y)
      for (x = 0; x < w; ++x) {
        float v = values[(size_t)y * (size_t)w + (size_t)x];
        int neg = v < 0, edge = 0;
        if (!isfinite(v)) continue;
        if (x + 1 < w) {
          float r = values[(size_t)y * (size_t)w + (size_t)x + 1];
          edge |= isfinite(r) && (r < 0) != neg;
        }
        if (y + 1 < h) {
          float d = values[(size_t)(y + 1) * (size_t)w + (size_t)x];
          edge |= isfinite(d) && (d < 0) != neg;
        }
        if (edge) put_px(rgb, W, h, x, y, black);
      }
  }
  /* The colour bar, top = the largest value, and its labels. */
  {
    int top = GLYPH_H * FONT_SCALE / 2, bottom = h - 1 - top;
    int bx = w + BAR_GAP, lx = bx + BAR_W + LABEL_GAP;
    int ticks = diverging ? 5 : 3;
    if (bottom <= top) return;
    for (y = top; y <= bottom; ++y) {
      double f = 1.0 - (double)(y - top) / (double)(bottom - top);
      double v = !diverging ? f * lim[1] : f >= 0.5 ? (2 * f - 1) * lim[1] : (2 * f - 1) * lim[0];
      unsigned char c[3];
      colour(v, lim, diverging, c);
      for (x = 0; x < BAR_W; ++x)
        put_px(rgb, W, h, bx + x, y, c);
    }
    for (k = 0; k < ticks; ++k) {
      double f = 1.0 - (double)k / (double)(ticks - 1);
      double v = !diverging ? f * lim[1] : f >= 0.5 ? (2 * f - 1) * lim[1] : (2 * f - 1) * lim[0];
      int ty = top + (int)lround((double)(bottom - top) * (1 - f));
      char buf[32];
      /* The tick: a short line left of the bar, away from the label (a
       * tick beside the label would read as a minus sign). */
      for (x = 1; x <= 4; ++x)
        put_px(rgb, W, h, bx - x, ty, black);
      label(buf, sizeof buf, v);
      buf[LABEL_CHARS] = '\0';
      draw_text(rgb, W, h, lx, ty - GLYPH_H * FONT_SCALE / 2, buf);
    }
  }
}

int cli_png_available(void) {
#if defined(PROX_CLI_HAVE_PNG)
  return 1;
#else
  return 0;
#endif
}

#if defined(PROX_CLI_HAVE_PNG)
/* Writes rgb (W x H) to an open file; 0 on a libpng error. */
static int png_write_file(FILE *f, const unsigned char *rgb, int W, int H) {
  png_structp png;
  png_infop info;
  int y;
  png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  if (!png) return 0;
  info = png_create_info_struct(png);
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    return 0;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return 0;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)W, (png_uint_32)H, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (y = 0; y < H; ++y)
    png_write_row(png, rgb + 3 * (size_t)y * (size_t)W);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 1;
}
#endif

int cli_heatmap_png(const char *path, const float *values, int w, int h, int diverging) {
#if defined(PROX_CLI_HAVE_PNG)
  int W = cli_heatmap_width(w, h), ok;
  unsigned char *rgb = malloc((size_t)W * (size_t)h * 3);
  cli_outpath o;
  const char *tmp;
  FILE *f;
  if (!rgb) return cli_fail("out of memory");
  cli_heatmap_render(values, w, h, diverging, rgb);
  tmp = cli_outpath_begin(&o, path);
  if (!tmp) {
    free(rgb);
    return cli_fail("%s: name too long", path);
  }
  f = strcmp(tmp, "-") == 0 ? stdout : fopen(tmp, "wb");
  if (!f) {
    cli_outpath_end(&o, 0);
    free(rgb);
    return cli_fail("%s: cannot open for writing", path);
  }
  ok = png_write_file(f, rgb, W, h);
  if (f != stdout)
    ok = (fclose(f) == 0) && ok;
  else
    ok = (fflush(f) == 0) && ok;
  free(rgb);
  if (!ok) {
    cli_outpath_end(&o, 0);
    return cli_fail("%s: cannot write the PNG file", path);
  }
  return cli_outpath_end(&o, 1);
#else
  (void)path;
  (void)values;
  (void)w;
  (void)h;
  (void)diverging;
  return cli_fail("this build has no PNG support (libpng was not found when "
                  "prox was configured)");
#endif
}
