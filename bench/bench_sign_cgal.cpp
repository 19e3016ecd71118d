// SPDX-License-Identifier: MIT
/* bench_sign_cgal: prox_sdf_inside beside CGAL 5's Side_of_triangle_mesh
 * (Debian's libcgal-dev), in one process, on the closed meshes and the
 * points of bench_sign.
 *
 *   bench_sign_cgal [--quick] [--runs N] [--meshes DIR] [--mesh WORD]
 *                   [--n N] [--check N] [--reference PREFIX]
 *                   [--threads 1|2|1,2]
 *
 * CGAL: Exact_predicates_inexact_constructions_kernel (Epick), a
 * Surface_mesh built from the same OBJ arrays as prox's mesh view, its
 * AABB tree (AABB_face_graph_triangle_primitive) built before timing and
 * handed to Side_of_triangle_mesh (which otherwise builds it at its first
 * query). prox: prox_bvh_build (1 thread), prox_mesh_topology_build,
 * prox_sdf_build (AUTO: pseudo-normals on these meshes).
 * Meshes: bunny_watertight.obj, armadillo.obj, dragon.obj from DIR
 * (default PROX_MESH_DIR or ../shared/data/meshes). Points: N (default 1M,
 * --quick 100k) uniform in the box enlarged by 10% and N within 1% of the
 * diagonal of the surface, the very points of bench_sign (sign_oracle.h).
 *
 * Rows: build times (ms of thread CPU time: every build is single-threaded;
 * median of --runs, default 5), then per point set ns per inside test, 1
 * thread (thread CPU time, meant for `taskset -c 1`)
 * and 2 threads (wall, two std::threads over halves), the two libraries
 * interleaved within each run (--threads picks the 1- or 2-thread rows,
 * default both), and the ratio CGAL/prox; beside them prox
 * with PROX_SIGN_CROSSINGS forced (an exact crossing count along one
 * segment, no closest point: the same kind of query as CGAL's); then the
 * wrong
 * answers of each against the exact winding-number oracle of sign_oracle.h (GMP)
 * on the first --check points of each set (default all): points within
 * 1e-9 of the diagonal of the surface (by prox's unsigned distance) and
 * points the oracle leaves undecided are excluded; CGAL's ON_BOUNDARY
 * answers are counted apart (as wrong: no point left is on the surface).
 * --reference PREFIX reads the oracle's answers from the
 * PREFIX_<mesh>_ref.npy that `bench_sign --write-reference PREFIX` wrote
 * with the same or a larger N (saves recomputing them). */
#include <prox/batch.h>
#include <prox/sign.h>

#include "sign_oracle.h"

#include <CGAL/AABB_face_graph_triangle_primitive.h>
#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>

#include <time.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace {

typedef CGAL::Exact_predicates_inexact_constructions_kernel K;
typedef CGAL::Surface_mesh<K::Point_3> Mesh;
typedef CGAL::Side_of_triangle_mesh<Mesh, K> Side;
typedef Side::AABB_tree Tree;

int g_runs = 5;
size_t g_n = 1000000, g_check = (size_t)-1;
volatile double g_sink;
bool g_cpu = false;
bool g_thr1 = true, g_thr2 = true; // --threads: which rows run

double now() {
  struct timespec ts;
  clock_gettime(g_cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct stat3 {
  double med, lo, hi;
};
stat3 stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size();
  stat3 s;
  s.med = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
  s.lo = v.front();
  s.hi = v.back();
  return s;
}

// The oracle codes of a PREFIX_<mesh>_ref.npy (int8, shape (R, 3), R / 2
// points of each set): column 1 of the first n rows of each set (the points
// of a run with N = n, since the points are drawn one after the other from
// the same seed) into codes[0, 2 n); false when the file is missing, of
// another layout or too small.
bool read_reference(const std::string &path, size_t n, std::vector<signed char> &codes) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char pre[10];
  bool ok = std::fread(pre, 1, 10, f) == 10 && pre[0] == 0x93 && pre[6] == 1;
  size_t hl = ok ? (size_t)pre[8] | ((size_t)pre[9] << 8) : 0;
  std::string head(hl, ' ');
  if (ok) ok = std::fread(&head[0], 1, hl, f) == hl;
  size_t rows = 0, at = head.find("'shape': (");
  if (ok)
    ok = head.find("'|i1'") != std::string::npos && at != std::string::npos &&
         std::sscanf(head.c_str() + at + 10, "%zu, 3)", &rows) == 1 && rows % 2 == 0 &&
         rows / 2 >= n;
  std::vector<signed char> all(ok ? 3 * rows : 0);
  if (ok) ok = std::fread(all.data(), 1, all.size(), f) == all.size();
  std::fclose(f);
  if (!ok) return false;
  codes.resize(2 * n);
  for (size_t set = 0; set < 2; ++set)
    for (size_t i = 0; i < n; ++i)
      codes[set * n + i] = all[3 * (set * (rows / 2) + i) + 1];
  return true;
}

void bench_mesh(const std::string &dir, const char *file, const char *ref_prefix) {
  objmesh m;
  char err[512];
  std::string path = dir + "/" + file;
  if (!mesh_load(path.c_str(), &m, err, sizeof err)) {
    std::fprintf(stderr, "bench_sign_cgal: %s\n", err);
    std::exit(1);
  }
  prox_mesh md;
  md.vertices = m.v;
  md.vertex_count = m.nv;
  md.stride = 0;
  md.indices = m.t;
  md.triangle_count = m.nt;
  double lo[3], hi[3], diag;
  so_box(&m, lo, hi, &diag);

  // ---- builds: prox, then CGAL, each step timed apart.
  std::vector<double> t_bvh, t_topo, t_sdf, t_sm, t_tree;
  prox_bvh *bvh = nullptr;
  prox_mesh_topology *topo = nullptr;
  prox_sdf *sdf = nullptr;
  Mesh sm;
  Tree *tree = nullptr;
  prox_bvh_options bo = prox_bvh_options_default();
  bo.threads = 1;
  g_cpu = true; // every build below runs in the calling thread
  for (int r = 0; r < g_runs; ++r) {
    bool last = r == g_runs - 1;
    prox_bvh *b;
    prox_mesh_topology *tp;
    prox_sdf *d;
    double t0 = now();
    if (prox_bvh_build(&md, &bo, nullptr, &b, nullptr) != PROX_OK) {
      std::fprintf(stderr, "bench_sign_cgal: %s: bvh build failed\n", file);
      std::exit(1);
    }
    double t1 = now();
    prox_mesh_topology_build(&md, nullptr, &tp, nullptr);
    double t2 = now();
    prox_sdf_build(&md, b, tp, nullptr, nullptr, &d, nullptr);
    double t3 = now();
    t_bvh.push_back(t1 - t0);
    t_topo.push_back(t2 - t1);
    t_sdf.push_back(t3 - t2);
    if (last) {
      bvh = b;
      topo = tp;
      sdf = d;
    } else {
      prox_sdf_free(d);
      prox_mesh_topology_free(tp);
      prox_bvh_free(b);
    }
  }
  for (int r = 0; r < g_runs; ++r) {
    bool last = r == g_runs - 1;
    Mesh s;
    double t0 = now();
    std::vector<Mesh::Vertex_index> vi(m.nv);
    for (size_t v = 0; v < m.nv; ++v)
      vi[v] = s.add_vertex(K::Point_3(m.v[3 * v], m.v[3 * v + 1], m.v[3 * v + 2]));
    size_t failed = 0;
    for (size_t t = 0; t < m.nt; ++t)
      if (s.add_face(vi[m.t[3 * t]], vi[m.t[3 * t + 1]], vi[m.t[3 * t + 2]]) == Mesh::null_face())
        ++failed;
    double t1 = now();
    if (failed) {
      std::fprintf(stderr, "bench_sign_cgal: %s: %zu faces refused\n", file, failed);
      std::exit(1);
    }
    Tree *tr = new Tree(faces(s).first, faces(s).second, s);
    tr->build();
    double t2 = now();
    t_sm.push_back(t1 - t0);
    t_tree.push_back(t2 - t1);
    delete tr;
    if (last) sm = s;
  }
  g_cpu = false;
  tree = new Tree(faces(sm).first, faces(sm).second, sm);
  tree->build();
  Side side(*tree);
  prox_sdf *cross = nullptr; // the same mesh with CROSSINGS forced
  {
    prox_sdf_options so = prox_sdf_options_default();
    so.method = PROX_SIGN_CROSSINGS;
    prox_sdf_build(&md, bvh, topo, &so, nullptr, &cross, nullptr);
  }
  stat3 a = stats(t_bvh), b = stats(t_topo), c = stats(t_sdf), d = stats(t_sm), e = stats(t_tree);
  std::printf("%-22s %zu triangles; prox AUTO method %d; CGAL closed %d\n", file, m.nt,
              prox_sdf_method(sdf), (int)CGAL::is_closed(sm));
  std::printf("%-22s build prox (cpu): bvh (1 thr) %.2f ms [%.2f, %.2f], topology "
              "%.2f ms [%.2f, %.2f], sdf %.2f ms [%.2f, %.2f]; total %.2f ms\n",
              file, 1e3 * a.med, 1e3 * a.lo, 1e3 * a.hi, 1e3 * b.med, 1e3 * b.lo, 1e3 * b.hi,
              1e3 * c.med, 1e3 * c.lo, 1e3 * c.hi, 1e3 * (a.med + b.med + c.med));
  std::printf("%-22s build CGAL (cpu): Surface_mesh from the arrays %.2f ms [%.2f, "
              "%.2f], AABB tree %.2f ms [%.2f, %.2f]; total %.2f ms\n",
              file, 1e3 * d.med, 1e3 * d.lo, 1e3 * d.hi, 1e3 * e.med, 1e3 * e.lo, 1e3 * e.hi,
              1e3 * (d.med + e.med));
  std::fflush(stdout);

  // ---- points and reference
  std::vector<double> xyz(6 * g_n);
  for (int set = 0; set < 2; ++set)
    so_points(&m, set, g_n, so_seed(set, m.nt), xyz.data() + 3 * g_n * set);
  std::vector<prox_vec3> pp(2 * g_n);
  std::vector<K::Point_3> cp;
  cp.reserve(2 * g_n);
  for (size_t i = 0; i < 2 * g_n; ++i) {
    pp[i] = prox_v3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    cp.emplace_back(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  }
  std::vector<signed char> ref;
  bool have_ref = false;
  if (ref_prefix) {
    std::string stem(file);
    stem = stem.substr(0, stem.rfind('.'));
    std::string rp = std::string(ref_prefix) + "_" + stem + "_ref.npy";
    have_ref = read_reference(rp, g_n, ref);
    std::printf("%-22s reference %s: %s\n", file, rp.c_str(),
                have_ref ? "read" : "missing or of another size; computed");
  }

  // ---- speed
  static const char *setname[2] = {"uniform", "near"};
  for (int set = 0; set < 2; ++set) {
    const prox_vec3 *P = pp.data() + g_n * set;
    const K::Point_3 *C = cp.data() + g_n * set;
    auto prox_range = [&](size_t i0, size_t i1) {
      long s = 0;
      for (size_t i = i0; i < i1; ++i)
        s += prox_sdf_inside(sdf, P[i], nullptr);
      return s;
    };
    auto cross_range = [&](size_t i0, size_t i1) {
      long s = 0;
      for (size_t i = i0; i < i1; ++i)
        s += prox_sdf_inside(cross, P[i], nullptr);
      return s;
    };
    auto cgal_range = [&](size_t i0, size_t i1) {
      long s = 0;
      for (size_t i = i0; i < i1; ++i)
        s += side(C[i]) == CGAL::ON_BOUNDED_SIDE;
      return s;
    };
    for (int th = 1; th <= 2; ++th) {
      if (!(th == 1 ? g_thr1 : g_thr2)) continue;
      std::vector<double> t[3];
      g_cpu = th == 1;
      for (int r = 0; r < g_runs; ++r)
        for (int k = 0; k < 3; ++k) {
          int which = (k + r) % 3; // 0 prox, 1 prox crossings, 2 CGAL
          auto run = [&](size_t i0, size_t i1) {
            return which == 0   ? prox_range(i0, i1)
                   : which == 1 ? cross_range(i0, i1)
                                : cgal_range(i0, i1);
          };
          double t0 = now();
          long s0 = 0, s1 = 0;
          if (th == 1) {
            s0 = run(0, g_n);
          } else {
            std::thread w([&] { s1 = run(g_n / 2, g_n); });
            s0 = run(0, g_n / 2);
            w.join();
          }
          double dt = now() - t0;
          g_sink = g_sink + (double)(s0 + s1);
          t[which].push_back(dt);
        }
      g_cpu = false;
      stat3 sp = stats(t[0]), sx = stats(t[1]), sc = stats(t[2]);
      double k = 1e9 / (double)g_n;
      std::printf("%-22s inside %-7s %d thr %s ns/query: prox %.1f [%.1f, "
                  "%.1f]  prox CROSSINGS %.1f [%.1f, %.1f]  CGAL %.1f [%.1f, "
                  "%.1f]  CGAL/prox %.2f  CGAL/prox CROSSINGS %.2f\n",
                  file, setname[set], th, th == 1 ? "(cpu) " : "(wall)", k * sp.med, k * sp.lo,
                  k * sp.hi, k * sx.med, k * sx.lo, k * sx.hi, k * sc.med, k * sc.lo, k * sc.hi,
                  sc.med / sp.med, sc.med / sx.med);
      std::fflush(stdout);
    }
  }

  // ---- wrong answers against the exact oracle
  oracle3 o;
  if (!have_ref) oracle_build(&o, &m);
  for (int set = 0; set < 2; ++set) {
    size_t nc = std::min(g_check, g_n);
    long wp = 0, wx = 0, wc = 0, boundary = 0, near = 0, undecided = 0, counted = 0;
    for (size_t i = 0; i < nc; ++i) {
      size_t q = g_n * set + i;
      int want;
      double dist = std::sqrt(prox_bvh_closest(bvh, pp[q], INFINITY, nullptr));
      if (dist <= 1e-9 * diag) {
        ++near;
        continue;
      }
      if (have_ref) {
        want = ref[q];
        if (want == SO_NEAR) { // bench_sign excluded it (same test)
          ++near;
          continue;
        }
      } else {
        want = oracle_inside_winding(&o, &m, xyz.data() + 3 * q);
      }
      if (want < 0) {
        ++undecided;
        continue;
      }
      ++counted;
      int ip = prox_sdf_inside(sdf, pp[q], nullptr);
      CGAL::Bounded_side bs = side(cp[q]);
      if (ip != want) ++wp;
      if (prox_sdf_inside(cross, pp[q], nullptr) != want) ++wx;
      if (bs == CGAL::ON_BOUNDARY) ++boundary;
      if ((bs == CGAL::ON_BOUNDED_SIDE) != (want == 1)) ++wc;
    }
    std::printf("%-22s wrong %-7s vs the exact oracle on %ld points (of %zu "
                "checked; %ld within 1e-9 diag and %ld undecided excluded): "
                "prox %ld, prox CROSSINGS %ld, CGAL %ld (of which ON_BOUNDARY "
                "%ld)\n",
                file, setname[set], counted, nc, near, undecided, wp, wx, wc, boundary);
    std::fflush(stdout);
  }
  if (!have_ref) oracle_free(&o);
  delete tree;
  prox_sdf_free(cross);
  prox_sdf_free(sdf);
  prox_mesh_topology_free(topo);
  prox_bvh_free(bvh);
  obj_free(&m);
}

} // namespace

int main(int argc, char **argv) {
  const char *env = std::getenv("PROX_MESH_DIR");
  std::string dir = env && *env ? env : "../shared/data/meshes";
  const char *mesh_filter = nullptr, *ref_prefix = nullptr;
  bool quick = false, n_set = false;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    const char *val = a + 1 < argc ? argv[a + 1] : nullptr;
    if (arg == "--quick") {
      quick = true;
    } else if (val && arg == "--runs") {
      g_runs = std::atoi(val), ++a;
    } else if (val && arg == "--meshes") {
      dir = val, ++a;
    } else if (val && arg == "--mesh") {
      mesh_filter = val, ++a;
    } else if (val && arg == "--n") {
      g_n = (size_t)std::atof(val), n_set = true, ++a;
    } else if (val && arg == "--check") {
      g_check = (size_t)std::atof(val), ++a;
    } else if (val && arg == "--threads") {
      g_thr1 = std::strchr(val, '1') != nullptr;
      g_thr2 = std::strchr(val, '2') != nullptr;
      ++a;
    } else if (val && arg == "--reference") {
      ref_prefix = val, ++a;
    } else {
      std::fprintf(stderr, "bench_sign_cgal: unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  if (quick && !n_set) g_n = 100000;
  g_runs = std::max(1, std::min(g_runs, 64));
  std::printf("bench_sign_cgal: CGAL %s, simd %s, n %zu per set, runs %d\n", CGAL_VERSION_STR,
              prox_simd_name(prox_simd_level()), g_n, g_runs);
  std::printf("command:");
  for (int a = 0; a < argc; ++a)
    std::printf(" %s", argv[a]);
  std::printf("\n");
  static const char *files[3] = {"bunny_watertight.obj", "armadillo.obj", "dragon.obj"};
  for (const char *f : files)
    if (!mesh_filter || std::strstr(f, mesh_filter)) bench_mesh(dir, f, ref_prefix);
  return 0;
}
