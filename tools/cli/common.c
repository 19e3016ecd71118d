/* SPDX-License-Identifier: MIT */
/* The prox command: messages, argument parsing, progress bar, output files,
 * random numbers, and loading a mesh with its BVH. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- messages ---------------------------------------------------------- */

int cli_fail(const char *fmt, ...) {
  va_list ap;
  fputs("prox: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return CLI_BAD_INPUT;
}

int cli_usage_error(const char *command, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "prox%s%s: ", command ? " " : "", command ? command : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'prox %s%s'.\n", command ? command : "help", command ? " --help" : "");
  return CLI_USAGE;
}

int cli_fail_error(const prox_error *err) {
  if (err->message[0]) return cli_fail("%s", err->message);
  return cli_fail("%s", prox_status_string(err->status));
}

/* Prints s as a JSON string (quotes, backslashes and control characters
 * escaped). */
void cli_json_string(const char *s) {
  putchar('"');
  for (; *s; ++s) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      printf("\\%c", ch);
    else if (ch < 0x20)
      printf("\\u%04x", ch);
    else
      putchar(ch);
  }
  putchar('"');
}

/* ---- argument parsing -------------------------------------------------- */

int cli_opt_value(cli_args *a, const char *opt, const char **value) {
  const char *s = a->argv[a->i];
  size_t n = strlen(opt);
  if (strncmp(s, opt, n) != 0) return 0;
  if (s[n] == '=') {
    *value = s + n + 1;
    a->i += 1;
    return 1;
  }
  if (s[n] != '\0') return 0;
  if (a->i + 1 >= a->argc) {
    cli_usage_error(a->command, "option %s needs a value", opt);
    return -1;
  }
  *value = a->argv[a->i + 1];
  a->i += 2;
  return 1;
}

int cli_parse_double(const char *command, const char *opt, const char *s, double *out) {
  char *end;
  double v;
  errno = 0;
  v = strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    cli_usage_error(command, "%s: '%s' is not a finite number", opt, s);
    return 0;
  }
  *out = v;
  return 1;
}

int cli_parse_long(const char *command, const char *opt, const char *s, long lo, long hi,
                   long *out) {
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    cli_usage_error(command, "%s: '%s' is not an integer from %ld to %ld", opt, s, lo, hi);
    return 0;
  }
  *out = v;
  return 1;
}

int cli_common_option(cli_args *a, cli_common *c, int json_ok) {
  const char *s = a->argv[a->i], *v = NULL;
  int r;
  if (strcmp(s, "--quiet") == 0 || strcmp(s, "-q") == 0) {
    c->quiet = 1;
    a->i += 1;
    return 1;
  }
  if (json_ok && strcmp(s, "--json") == 0) {
    c->json = 1;
    a->i += 1;
    return 1;
  }
  r = cli_opt_value(a, "--threads", &v);
  if (r == 1) {
    long t;
    if (!cli_parse_long(a->command, "--threads", v, 0, 1024, &t)) return -1;
    c->threads = (int)t;
  }
  return r;
}

int cli_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix), i;
  if (m > n) return 0;
  for (i = 0; i < m; ++i) {
    char x = s[n - m + i], y = suffix[i];
    if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
    if (x != y) return 0;
  }
  return 1;
}

/* ---- time and progress ------------------------------------------------- */

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_begin(cli_progress *p, const char *label, uint64_t total, int quiet) {
  p->label = label;
  p->total = total;
  p->start = cli_now();
  p->last = p->start;
  p->enabled = !quiet && isatty(STDERR_FILENO);
  p->drawn = 0;
}

void cli_progress_update(cli_progress *p, uint64_t done) {
  double now;
  if (!p->enabled) return;
  now = cli_now();
  /* Nothing for work under a second; then at most ten redraws a second. */
  if (now - p->start < 1.0 || now - p->last < 0.1) return;
  p->last = now;
  p->drawn = 1;
  if (p->total > 0) {
    int width = 30, filled, k;
    double f = (double)done / (double)p->total;
    if (f > 1) f = 1;
    filled = (int)(f * width);
    fprintf(stderr, "\r%-10s [", p->label);
    for (k = 0; k < width; ++k)
      fputc(k < filled ? '#' : ' ', stderr);
    fprintf(stderr, "] %3d%%  %.1f s", (int)(100 * f), now - p->start);
  } else {
    fprintf(stderr, "\r%-10s %llu  %.1f s", p->label, (unsigned long long)done, now - p->start);
  }
  fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
  if (p->enabled && p->drawn) {
    /* Clear the line so that what follows starts clean. */
    fprintf(stderr, "\r%60s\r", "");
    fflush(stderr);
  }
  p->drawn = 0;
}

/* ---- output files ------------------------------------------------------ */

/* Interrupted runs. SIGINT, SIGTERM, SIGHUP and SIGPIPE, where they would
 * end the process anyway (their action is the default one, not "ignore"),
 * first delete the temporary files being written, then end the process by
 * the same signal (default action restored, signal raised again): the exit
 * status says "killed by SIGINT", which a shell shows as 128 + 2 = 130.
 * This was chosen over _exit(128 + sig) because a parent (a shell running
 * a script, make, xargs) acts on "killed by a signal": a shell loop stops
 * at Ctrl-C instead of running the next command.
 *
 * The handler makes only async-signal-safe calls (POSIX.1-2017, 2.4.3):
 * unlink, signal and raise, on names kept in static buffers that are filled
 * before the file is created. Each buffer has a state, a lock-free atomic:
 * the main thread writes the name, then publishes it (release); a handler
 * claims a published name (compare and swap, acquire) before deleting it,
 * so the main thread never rewrites a name that a handler reads. A signal
 * may be handled on one of the library's worker threads, while the main
 * thread goes on: the main thread, finding a name claimed when it would
 * withdraw it, waits for the end of the process. (Workers exist only inside
 * the library's batch calls, so the main thread is not creating a file
 * then.) */
#define CLI_PENDING_MAX 4 /* temporary files open at once (sdf: two) */
enum { PENDING_FREE, PENDING_SET, PENDING_CLAIMED, PENDING_DONE };
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomics");
static atomic_int pending_state[CLI_PENDING_MAX];
static char pending_path[CLI_PENDING_MAX][sizeof((cli_outpath *)0)->tmp];
static const int cli_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

static void cli_on_signal(int sig) {
  int i;
  for (i = 0; i < CLI_PENDING_MAX; ++i) {
    int set = PENDING_SET;
    if (atomic_compare_exchange_strong(&pending_state[i], &set, PENDING_CLAIMED)) {
      unlink(pending_path[i]);
      atomic_store(&pending_state[i], PENDING_DONE);
    }
  }
  /* A handler running on another thread (a second signal) may still be
   * deleting: the process ends only when it is done. */
  for (i = 0; i < CLI_PENDING_MAX; ++i)
    while (atomic_load(&pending_state[i]) == PENDING_CLAIMED)
      ;
  /* The signal is blocked while its handler runs: raised again with the
   * default action, it ends the process as soon as the handler returns. */
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Installs the handler, once, for each signal whose action is the default
 * one (an ignored SIGINT, as in a background job, stays ignored). */
static void cli_signals_install(void) {
  static int installed = 0;
  size_t k;
  if (installed) return;
  installed = 1;
  for (k = 0; k < sizeof cli_signals / sizeof cli_signals[0]; ++k) {
    struct sigaction old, sa;
    size_t j;
    if (sigaction(cli_signals[k], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cli_on_signal;
    sigemptyset(&sa.sa_mask);
    /* One handler at a time on a thread: the others wait. */
    for (j = 0; j < sizeof cli_signals / sizeof cli_signals[0]; ++j)
      sigaddset(&sa.sa_mask, cli_signals[j]);
    sigaction(cli_signals[k], &sa, NULL);
  }
}

/* Publishes a temporary name for the handler; the slot, or -1 when all are
 * taken (the file is then left on a signal; no command writes more than
 * two files at once). */
static int pending_add(const char *path) {
  int i;
  cli_signals_install();
  for (i = 0; i < CLI_PENDING_MAX; ++i)
    if (atomic_load(&pending_state[i]) == PENDING_FREE) {
      memcpy(pending_path[i], path, strlen(path) + 1);
      atomic_store_explicit(&pending_state[i], PENDING_SET, memory_order_release);
      return i;
    }
  return -1;
}

/* Withdraws a name (after its file was renamed or deleted). */
static void pending_remove(int slot) {
  int set = PENDING_SET;
  if (slot < 0) return;
  if (!atomic_compare_exchange_strong(&pending_state[slot], &set, PENDING_FREE))
    for (;;)
      pause(); /* a handler has it: the process is ending */
}

const char *cli_outpath_begin(cli_outpath *o, const char *final) {
  o->final = final;
  o->tmp[0] = '\0';
  o->slot = -1;
  if (!final || strcmp(final, "-") == 0) return "-";
  /* Beside the target, so that the rename stays on one file system; the
   * extension is kept last so that the writers still see the format. The
   * name's part is cut to 100 bytes, so that the temporary name is a valid
   * file name (255 bytes) whenever the target's is. */
  {
    const char *slash = strrchr(final, '/');
    const char *base = slash ? slash + 1 : final;
    const char *dot = strrchr(base, '.');
    size_t blen = strlen(base);
    int dir = (int)(base - final), len;
    if (!dot || strlen(dot) > 16) dot = "";
    len = snprintf(o->tmp, sizeof o->tmp, "%.*s.%.*s.tmp%ld%s", dir, final,
                   (int)(blen < 100 ? blen : 100), base, (long)getpid(), dot);
    if (len < 0 || (size_t)len >= sizeof o->tmp) {
      o->tmp[0] = '\0';
      return NULL;
    }
  }
  /* Before the writer creates the file, so that a signal cannot come
   * between the two. */
  o->slot = pending_add(o->tmp);
  return o->tmp;
}

int cli_outpath_end(cli_outpath *o, int ok) {
  int rc = CLI_OK;
  if (!o->tmp[0]) return CLI_OK;
  /* The final name appears only here, complete (rename is atomic); the
   * temporary one is withdrawn from the handler only once it is gone. */
  if (ok && rename(o->tmp, o->final) != 0) {
    int e = errno;
    remove(o->tmp);
    rc = cli_fail("%s: cannot write: %s", o->final, strerror(e));
  } else if (!ok) {
    remove(o->tmp);
  }
  pending_remove(o->slot);
  o->slot = -1;
  o->tmp[0] = '\0';
  return rc;
}

int cli_outpath_end_pair(cli_outpath *a, cli_outpath *b, int ok) {
  sigset_t block, old;
  int rc;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGPIPE);
  sigprocmask(SIG_BLOCK, &block, &old);
  rc = cli_outpath_end(a, ok);
  if (cli_outpath_end(b, ok && rc == CLI_OK) != CLI_OK) {
    if (a->final && strcmp(a->final, "-") != 0) remove(a->final);
    rc = CLI_BAD_INPUT;
  }
  /* A signal that came meanwhile is delivered here, with both files in
   * place and nothing pending. */
  sigprocmask(SIG_SETMASK, &old, NULL);
  return ok ? rc : CLI_OK;
}

/* ---- random numbers ---------------------------------------------------- */

uint64_t cli_rng_next(cli_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

double cli_rng_uniform(cli_rng *r) {
  return (double)(cli_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- meshes ------------------------------------------------------------ */

static void mesh_bounds(cli_mesh *m) {
  size_t i;
  int c;
  for (c = 0; c < 3; ++c) {
    m->lo[c] = INFINITY;
    m->hi[c] = -INFINITY;
  }
  for (i = 0; i < m->mesh.vertex_count; ++i)
    for (c = 0; c < 3; ++c) {
      double v = m->mesh.vertices[3 * i + (size_t)c];
      if (v < m->lo[c]) m->lo[c] = v;
      if (v > m->hi[c]) m->hi[c] = v;
    }
}

int cli_mesh_load(cli_mesh *m, const char *path) {
  prox_error err;
  prox_io_mesh_options opt;
  double t0 = cli_now();
  memset(m, 0, sizeof *m);
  /* STL stores three corners a triangle: weld identical positions, so that
   * the counts and the topology are those of the surface. */
  memset(&opt, 0, sizeof opt);
  opt.weld = 1;
  if (prox_io_read_mesh(path, &opt, &m->io, &err) != PROX_OK) return cli_fail_error(&err);
  m->load_s = cli_now() - t0;
  m->mesh.vertices = m->io.vertices;
  m->mesh.vertex_count = m->io.vertex_count;
  m->mesh.stride = 0;
  m->mesh.indices = m->io.triangles;
  m->mesh.triangle_count = m->io.triangle_count;
  if (prox_mesh_validate(&m->mesh, &err) != PROX_OK) {
    int r = cli_fail("%s: %s", path, err.message);
    cli_mesh_free(m);
    return r;
  }
  mesh_bounds(m);
  return CLI_OK;
}

void cli_mesh_adopt(cli_mesh *m, double *vertices, size_t vertex_count, uint32_t *triangles,
                    size_t triangle_count) {
  memset(m, 0, sizeof *m);
  m->own_v = vertices;
  m->own_t = triangles;
  m->mesh.vertices = vertices;
  m->mesh.vertex_count = vertex_count;
  m->mesh.stride = 0;
  m->mesh.indices = triangles;
  m->mesh.triangle_count = triangle_count;
  mesh_bounds(m);
}

int cli_mesh_build(cli_mesh *m, const char *name, int threads) {
  prox_bvh_options opt = prox_bvh_options_default();
  prox_error err;
  double t0 = cli_now();
  opt.threads = threads;
  if (prox_bvh_build(&m->mesh, &opt, NULL, &m->bvh, &err) != PROX_OK) {
    m->bvh = NULL;
    return cli_fail("%s: %s", name, err.message);
  }
  m->build_s = cli_now() - t0;
  return CLI_OK;
}

void cli_mesh_free(cli_mesh *m) {
  /* The sign object points into the tree: freed first. */
  if (m->sdf) prox_sdf_free(m->sdf);
  if (m->topo) prox_mesh_topology_free(m->topo);
  if (m->bvh) prox_bvh_free(m->bvh);
  prox_io_mesh_free(&m->io);
  free(m->own_v);
  free(m->own_t);
  memset(m, 0, sizeof *m);
}

_Static_assert(sizeof(prox_vec3) == 3 * sizeof(double), "prox_vec3 is three packed doubles");

int cli_closest(const cli_mesh *m, const double *xyz, size_t n, double max_sqdist,
                prox_mesh_closest *out, int threads) {
  /* prox_vec3 is three packed doubles, the layout of xyz. */
  const prox_vec3 *p = (const prox_vec3 *)(const void *)xyz;
  prox_status s = prox_bvh_closest_batch(m->bvh, p, n, max_sqdist, out, threads);
  if (s != PROX_OK) return cli_fail("closest-point batch failed: %s", prox_status_string(s));
  return CLI_OK;
}
