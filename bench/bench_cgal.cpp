// SPDX-License-Identifier: MIT
/* prox beside CGAL 5 (Debian's libcgal-dev), in one process: speed and
 * accuracy of the squared distances both libraries compute.
 *
 *   bench_cgal [--quick] [--seed N] [--runs N] [--only WORD]
 *
 * Speed: ns per query in double, the median of --runs runs (default 5),
 * the loops of a row interleaved in an order rotated from run to run:
 *   prox    the prox kernel, squared distance only (out = NULL);
 *   epick   CGAL::squared_distance with Exact_predicates_inexact_
 *           constructions_kernel (filtered exact predicates, double
 *           constructions: the kernel CGAL's manual recommends);
 *   sc      the same with Simple_cartesian<double> (plain double);
 * for point-segment, point-triangle, point-tetrahedron (a solid in both;
 * positively oriented, which CGAL's assumes, see the accuracy rows),
 * segment-segment and triangle-triangle, and a ray against a triangle:
 * prox_raycast_triangle (hit, t, barycentrics) against CGAL::do_intersect
 * (hit only). Data: uniform in [-1, 1]^3 (the second triangle shifted by
 * up to 1); "cache": 32k queries swept 64 times (8 for the tetrahedron and
 * the triangle pair), "stream": 2M queries read once. --quick: 200k / 4k.
 *
 * Accuracy: the error of each library's squared distance against CGAL's
 * Exact_predicates_exact_constructions_kernel (exact rationals), in units
 * of eps max(S, d)^2 (eps = 2^-52, S the largest input magnitude, d the
 * exact distance), the maximum over the cases of each input kind, and the
 * count of non-finite results from finite input. Where an input is
 * degenerate (collinear triangle, zero-length segment, flat tetrahedron),
 * the exact reference is the distance to the union of its edges or faces,
 * as prox documents; CGAL documents no answer there (its preconditions,
 * off in release builds, exclude degenerate triangles).
 *
 * --only WORD: the rows whose name contains WORD. */
#include <prox/prox.h>

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/intersections.h>
#include <CGAL/squared_distance_3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

typedef CGAL::Exact_predicates_inexact_constructions_kernel IK;
typedef CGAL::Simple_cartesian<double> SK;
typedef CGAL::Exact_predicates_exact_constructions_kernel EK;

int g_runs = 5;
bool g_quick = false;
const char *g_only = nullptr;
uint64_t g_state = 1;
volatile double g_sink;

uint64_t next_u64() { // splitmix64
  uint64_t z = (g_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}
double uni(double lo, double hi) {
  return lo + (hi - lo) * (double)(next_u64() >> 11) * 0x1p-53;
}
prox_vec3 rvec(double lo, double hi) {
  return prox_v3(uni(lo, hi), uni(lo, hi), uni(lo, hi));
}
// A dyadic point with small integer numerators: sums and differences of
// such points are exact, so exact degeneracies can be built from them.
prox_vec3 dyadic() {
  return prox_v3((double)(int)(next_u64() % 201) / 128 - 0.78125,
                 (double)(int)(next_u64() % 201) / 128 - 0.78125,
                 (double)(int)(next_u64() % 201) / 128 - 0.78125);
}
prox_vec3 vadd(prox_vec3 a, prox_vec3 b) {
  return prox_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
prox_vec3 vsub(prox_vec3 a, prox_vec3 b) {
  return prox_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
prox_vec3 vmul(prox_vec3 a, double s) {
  return prox_v3(a.x * s, a.y * s, a.z * s);
}

// The tetrahedron with v[0] and v[1] swapped where needed so that its
// orientation (an exact predicate) is `want` (POSITIVE or NEGATIVE); a flat
// one is left as it is. CGAL's point-tetrahedron distance assumes the
// positive orientation: its face tests use it.
prox_tetrahedron oriented(prox_tetrahedron t, CGAL::Orientation want) {
  CGAL::Orientation o = CGAL::orientation(
      IK::Point_3(t.v[0].x, t.v[0].y, t.v[0].z), IK::Point_3(t.v[1].x, t.v[1].y, t.v[1].z),
      IK::Point_3(t.v[2].x, t.v[2].y, t.v[2].z), IK::Point_3(t.v[3].x, t.v[3].y, t.v[3].z));
  if (o != CGAL::COPLANAR && o != want) std::swap(t.v[0], t.v[1]);
  return t;
}

bool wanted(const std::string &name) {
  return !g_only || name.find(g_only) != std::string::npos;
}

template <class K> typename K::Point_3 pt(prox_vec3 v) {
  return typename K::Point_3(v.x, v.y, v.z);
}
template <class K> typename K::Segment_3 seg(const prox_segment &s) {
  return typename K::Segment_3(pt<K>(s.a), pt<K>(s.b));
}
template <class K> typename K::Triangle_3 tri(const prox_triangle &t) {
  return typename K::Triangle_3(pt<K>(t.v[0]), pt<K>(t.v[1]), pt<K>(t.v[2]));
}
template <class K> typename K::Tetrahedron_3 tet(const prox_tetrahedron &t) {
  return typename K::Tetrahedron_3(pt<K>(t.v[0]), pt<K>(t.v[1]), pt<K>(t.v[2]), pt<K>(t.v[3]));
}

/* ------------------------------------------------------------- speed --- */

typedef std::function<double(size_t)> loop_fn; // sums n queries

double now_ns() {
  return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Median ns per query of each loop: runs interleaved and rotated, after one
// untimed warm-up.
std::vector<double> time_loops(const std::vector<loop_fn> &loops, size_t n, size_t sweeps) {
  size_t nl = loops.size();
  std::vector<std::vector<double>> t(nl);
  for (size_t v = 0; v < nl; ++v)
    g_sink = g_sink + loops[v](n);
  for (int r = 0; r < g_runs; ++r)
    for (size_t v = 0; v < nl; ++v) {
      size_t k = (v + (size_t)r) % nl;
      double sum = 0, t0 = now_ns();
      for (size_t s = 0; s < sweeps; ++s)
        sum += loops[k](n);
      t[k].push_back((now_ns() - t0) / (double)(n * sweeps));
      g_sink = g_sink + sum;
    }
  std::vector<double> med(nl);
  for (size_t v = 0; v < nl; ++v) {
    std::sort(t[v].begin(), t[v].end());
    size_t m = t[v].size();
    med[v] = m % 2 ? t[v][m / 2] : 0.5 * (t[v][m / 2 - 1] + t[v][m / 2]);
  }
  return med;
}

void speed_row(const char *kernel, const char *data, const std::vector<loop_fn> &loops, size_t n,
               size_t sweeps) {
  std::vector<double> ns = time_loops(loops, n, sweeps);
  std::printf("| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", kernel, data, ns[0], ns[1], ns[2],
              ns[0] / ns[1], ns[0] / ns[2]);
  std::fflush(stdout);
}

struct speed_set {
  std::vector<prox_vec3> p;
  std::vector<prox_segment> s1, s2;
  std::vector<prox_triangle> t1, t2;
  std::vector<prox_tetrahedron> te;
  std::vector<prox_ray> ray;
};

template <class K> struct cgal_set {
  std::vector<typename K::Point_3> p;
  std::vector<typename K::Segment_3> s1, s2;
  std::vector<typename K::Triangle_3> t1, t2;
  std::vector<typename K::Tetrahedron_3> te;
  std::vector<typename K::Ray_3> ray;
  explicit cgal_set(const speed_set &S) {
    for (auto &v : S.p)
      p.push_back(pt<K>(v));
    for (auto &v : S.s1)
      s1.push_back(seg<K>(v));
    for (auto &v : S.s2)
      s2.push_back(seg<K>(v));
    for (auto &v : S.t1)
      t1.push_back(tri<K>(v));
    for (auto &v : S.t2)
      t2.push_back(tri<K>(v));
    for (auto &v : S.te)
      te.push_back(tet<K>(v));
    for (auto &r : S.ray)
      ray.push_back(
          typename K::Ray_3(pt<K>(r.origin), typename K::Vector_3(r.dir.x, r.dir.y, r.dir.z)));
  }
};

// The loop that sums f(i) over i < n; f is inlined into it.
template <class F> loop_fn sum_loop(F f) {
  return [f](size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; ++i)
      s += f(i);
    return s;
  };
}

template <class K> std::vector<loop_fn> cgal_loops(const cgal_set<K> &C) {
  auto d = [](const typename K::FT &x) { return CGAL::to_double(x); };
  return {
      sum_loop([&C, d](size_t i) { return d(CGAL::squared_distance(C.p[i], C.s1[i])); }),
      sum_loop([&C, d](size_t i) { return d(CGAL::squared_distance(C.p[i], C.t1[i])); }),
      sum_loop([&C, d](size_t i) { return d(CGAL::squared_distance(C.p[i], C.te[i])); }),
      sum_loop([&C, d](size_t i) { return d(CGAL::squared_distance(C.s1[i], C.s2[i])); }),
      sum_loop([&C, d](size_t i) { return d(CGAL::squared_distance(C.t1[i], C.t2[i])); }),
      sum_loop([&C](size_t i) { return CGAL::do_intersect(C.ray[i], C.t1[i]) ? 1.0 : 0.0; }),
  };
}

std::vector<loop_fn> prox_loops(const speed_set &S) {
  return {
      sum_loop([&S](size_t i) { return prox_point_segment(S.p[i], &S.s1[i], nullptr); }),
      sum_loop([&S](size_t i) { return prox_point_triangle(S.p[i], &S.t1[i], nullptr); }),
      sum_loop([&S](size_t i) { return prox_point_tetrahedron(S.p[i], &S.te[i], nullptr); }),
      sum_loop([&S](size_t i) { return prox_segment_segment(&S.s1[i], &S.s2[i], nullptr); }),
      sum_loop([&S](size_t i) { return prox_triangle_triangle(&S.t1[i], &S.t2[i], nullptr); }),
      sum_loop([&S](size_t i) {
        prox_rayhit h;
        return prox_raycast_triangle(&S.ray[i], &S.t1[i], &h) ? 1.0 + h.t : 0.0;
      }),
  };
}

void speed(size_t stream_n, size_t cache_n) {
  static const char *names[] = {"point-segment",   "point-triangle",    "point-tetrahedron",
                                "segment-segment", "triangle-triangle", "ray-triangle"};
  static const bool slow[] = {false, false, true, false, true, false};
  std::printf("## Speed: ns per query (double)\n\n");
  std::printf("prox: squared distance only (out = NULL); epick: "
              "CGAL::squared_distance with Epick; sc: with "
              "Simple_cartesian<double>; ray-triangle: "
              "prox_raycast_triangle (hit, t, barycentrics) against "
              "CGAL::do_intersect (hit only).\n\n");
  std::printf("| kernel | data | prox ns | epick ns | sc ns | prox / epick | "
              "prox / sc |\n|---|---|---:|---:|---:|---:|---:|\n");
  for (int d = 0; d < 2; ++d) {
    size_t n = d == 0 ? stream_n : cache_n;
    const char *data = d == 0 ? "stream" : "cache";
    bool any = false;
    for (const char *nm : names)
      any = any || wanted(std::string(nm) + " " + data);
    if (!any) continue;
    speed_set S;
    for (size_t i = 0; i < n; ++i) {
      prox_vec3 shift = rvec(-0.6, 0.6);
      prox_segment a = {rvec(-1, 1), rvec(-1, 1)};
      prox_segment b = {rvec(-1, 1), rvec(-1, 1)};
      prox_triangle t = {{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1)}};
      prox_triangle u = {
          {vadd(rvec(-1, 1), shift), vadd(rvec(-1, 1), shift), vadd(rvec(-1, 1), shift)}};
      prox_tetrahedron e =
          oriented({{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1), rvec(-1, 1)}}, CGAL::POSITIVE);
      S.p.push_back(rvec(-1, 1));
      S.s1.push_back(a);
      S.s2.push_back(b);
      S.t1.push_back(t);
      S.t2.push_back(u);
      S.te.push_back(e);
      // Rays from outside towards the triangle's region: about half hit.
      S.ray.push_back(prox_ray_make(rvec(-2, 2), rvec(-1, 1)));
      S.ray.back().dir = vsub(vadd(rvec(-0.5, 0.5), t.v[0]), S.ray.back().origin);
    }
    cgal_set<IK> ci(S);
    cgal_set<SK> cs(S);
    std::vector<loop_fn> lp = prox_loops(S), li = cgal_loops(ci), ls = cgal_loops(cs);
    for (size_t k = 0; k < lp.size(); ++k) {
      if (!wanted(std::string(names[k]) + " " + data)) continue;
      size_t sweeps = d == 0 ? 1 : (slow[k] ? 8 : 64);
      speed_row(names[k], data, {lp[k], li[k], ls[k]}, n, sweeps);
    }
  }
  std::printf("\n");
}

/* ---------------------------------------------------------- accuracy --- */

EK::FT ex_point_segment(prox_vec3 p, const prox_segment &s) {
  if (s.a.x == s.b.x && s.a.y == s.b.y && s.a.z == s.b.z)
    return CGAL::squared_distance(pt<EK>(p), pt<EK>(s.a));
  return CGAL::squared_distance(pt<EK>(p), seg<EK>(s));
}

EK::FT ex_point_triangle(prox_vec3 p, const prox_triangle &t) {
  if (!CGAL::collinear(pt<EK>(t.v[0]), pt<EK>(t.v[1]), pt<EK>(t.v[2])))
    return CGAL::squared_distance(pt<EK>(p), tri<EK>(t));
  EK::FT m = -1;
  for (int i = 0; i < 3; ++i) {
    prox_segment e = {t.v[i], t.v[(i + 1) % 3]};
    EK::FT d = ex_point_segment(p, e);
    if (m < 0 || d < m) m = d;
  }
  return m;
}

EK::FT ex_point_tetrahedron(prox_vec3 p, const prox_tetrahedron &t) {
  static const int f[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
  if (!CGAL::coplanar(pt<EK>(t.v[0]), pt<EK>(t.v[1]), pt<EK>(t.v[2]), pt<EK>(t.v[3])) &&
      !tet<EK>(t).has_on_unbounded_side(pt<EK>(p)))
    return 0; // inside the solid
  EK::FT m = -1;
  for (auto &k : f) {
    prox_triangle u = {{t.v[k[0]], t.v[k[1]], t.v[k[2]]}};
    EK::FT d = ex_point_triangle(p, u);
    if (m < 0 || d < m) m = d;
  }
  return m;
}

EK::FT ex_segment_segment(const prox_segment &a, const prox_segment &b) {
  bool pa = a.a.x == a.b.x && a.a.y == a.b.y && a.a.z == a.b.z;
  bool pb = b.a.x == b.b.x && b.a.y == b.b.y && b.a.z == b.b.z;
  if (pa) return ex_point_segment(a.a, b);
  if (pb) return ex_point_segment(b.a, a);
  return CGAL::squared_distance(seg<EK>(a), seg<EK>(b));
}

double maxabs(prox_vec3 v) {
  return std::max(std::fabs(v.x), std::max(std::fabs(v.y), std::fabs(v.z)));
}

struct acc_stat {
  double max_err = 0;
  long nonfinite = 0;
  void add(double got, const EK::FT &exact, double unit) {
    if (!std::isfinite(got)) {
      ++nonfinite;
      return;
    }
    double e = CGAL::to_double(CGAL::abs(EK::FT(got) - exact)) / unit;
    max_err = std::max(max_err, e);
  }
};

// One accuracy case: the inputs as the three libraries' calls and the
// exact value; `s` is the largest input magnitude.
struct acc_case {
  double prox, epick, sc, s;
  EK::FT exact;
};

void acc_row(const char *kernel, const char *kind, long n, const std::function<acc_case()> &make) {
  if (!wanted(std::string(kernel) + " " + kind)) return;
  acc_stat sp, si, ss;
  for (long c = 0; c < n; ++c) {
    acc_case k = make();
    double d2 = CGAL::to_double(k.exact);
    double m = std::max(k.s, std::sqrt(d2));
    double unit = 0x1p-52 * m * m;
    sp.add(k.prox, k.exact, unit);
    si.add(k.epick, k.exact, unit);
    ss.add(k.sc, k.exact, unit);
  }
  std::printf("| %s | %s | %ld | %.3g | %.3g | %.3g | %ld | %ld | %ld |\n", kernel, kind, n,
              sp.max_err, si.max_err, ss.max_err, sp.nonfinite, si.nonfinite, ss.nonfinite);
  std::fflush(stdout);
}

prox_vec3 unit_rand() {
  for (;;) {
    prox_vec3 v = rvec(-1, 1);
    double l = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (l > 0.1 && l <= 1) return vmul(v, 1 / l);
  }
}

// A sliver: v2 near the line v0 v1, at relative height ~1e-12.
prox_triangle sliver() {
  prox_triangle t;
  t.v[0] = rvec(-1, 1);
  t.v[1] = rvec(-1, 1);
  prox_vec3 e = vsub(t.v[1], t.v[0]);
  double len = std::sqrt(e.x * e.x + e.y * e.y + e.z * e.z);
  t.v[2] = vadd(vadd(t.v[0], vmul(e, uni(-0.5, 1.5))), vmul(unit_rand(), 1e-12 * len));
  return t;
}

// Exactly collinear (or coincident) vertices, from dyadic points.
prox_triangle collinear() {
  prox_triangle t;
  prox_vec3 a = dyadic(), d = vmul(dyadic(), 0.25);
  t.v[0] = a;
  t.v[1] = vadd(a, d);
  t.v[2] = (next_u64() & 3) == 0 ? t.v[1] : vadd(a, vmul(d, 2 + (double)(next_u64() % 3)));
  return t;
}

// One case: prox's value, CGAL's from cg(IK()) and cg(SK()) (cg computes
// the distance in the kernel whose tag it gets), s and the exact value.
template <class F> acc_case make_case(double prox, F cg, double s, const EK::FT &exact) {
  acc_case k;
  k.prox = prox;
  k.epick = cg(IK());
  k.sc = cg(SK());
  k.s = s;
  k.exact = exact;
  return k;
}

acc_case case_pt_tri(prox_vec3 p, const prox_triangle &t) {
  return make_case(
      prox_point_triangle(p, &t, nullptr),
      [&](auto k) {
        typedef decltype(k) K;
        return CGAL::to_double(CGAL::squared_distance(pt<K>(p), tri<K>(t)));
      },
      std::max({maxabs(p), maxabs(t.v[0]), maxabs(t.v[1]), maxabs(t.v[2])}),
      ex_point_triangle(p, t));
}
acc_case case_pt_seg(prox_vec3 p, const prox_segment &g) {
  return make_case(
      prox_point_segment(p, &g, nullptr),
      [&](auto k) {
        typedef decltype(k) K;
        return CGAL::to_double(CGAL::squared_distance(pt<K>(p), seg<K>(g)));
      },
      std::max({maxabs(p), maxabs(g.a), maxabs(g.b)}), ex_point_segment(p, g));
}
acc_case case_pt_tet(prox_vec3 p, const prox_tetrahedron &t) {
  return make_case(
      prox_point_tetrahedron(p, &t, nullptr),
      [&](auto k) {
        typedef decltype(k) K;
        return CGAL::to_double(CGAL::squared_distance(pt<K>(p), tet<K>(t)));
      },
      std::max({maxabs(p), maxabs(t.v[0]), maxabs(t.v[1]), maxabs(t.v[2]), maxabs(t.v[3])}),
      ex_point_tetrahedron(p, t));
}
acc_case case_seg_seg(const prox_segment &a, const prox_segment &b) {
  return make_case(
      prox_segment_segment(&a, &b, nullptr),
      [&](auto k) {
        typedef decltype(k) K;
        return CGAL::to_double(CGAL::squared_distance(seg<K>(a), seg<K>(b)));
      },
      std::max({maxabs(a.a), maxabs(a.b), maxabs(b.a), maxabs(b.b)}), ex_segment_segment(a, b));
}
acc_case case_tri_tri(const prox_triangle &a, const prox_triangle &b) {
  return make_case(
      prox_triangle_triangle(&a, &b, nullptr),
      [&](auto k) {
        typedef decltype(k) K;
        return CGAL::to_double(CGAL::squared_distance(tri<K>(a), tri<K>(b)));
      },
      std::max({maxabs(a.v[0]), maxabs(a.v[1]), maxabs(a.v[2]), maxabs(b.v[0]), maxabs(b.v[1]),
                maxabs(b.v[2])}),
      CGAL::squared_distance(tri<EK>(a), tri<EK>(b)));
}

void accuracy(long n) {
  std::printf("## Accuracy: squared distance error, eps max(S, d)^2\n\n");
  std::printf("Exact reference: CGAL's Epeck (rationals); degenerate "
              "inputs: the distance to the union of edges or faces. "
              "Non-finite: results that are NaN or infinite from finite "
              "input (not counted in the maxima).\n\n");
  std::printf("| kernel | inputs | cases | prox max | epick max | sc max | "
              "prox non-finite | epick non-finite | sc non-finite |\n"
              "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  acc_row("point-triangle", "uniform", n, [] {
    prox_triangle t = {{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1)}};
    return case_pt_tri(rvec(-1, 1), t);
  });
  acc_row("point-triangle", "slivers (relative height 1e-12)", n, [] {
    prox_triangle t = sliver();
    return case_pt_tri(rvec(-1, 1), t);
  });
  acc_row("point-triangle", "collinear or coincident vertices", n, [] {
    prox_triangle t = collinear();
    return case_pt_tri(rvec(-1, 1), t);
  });
  acc_row("point-segment", "uniform", n, [] {
    prox_segment s = {rvec(-1, 1), rvec(-1, 1)};
    return case_pt_seg(rvec(-1, 1), s);
  });
  acc_row("point-segment", "length 1e-12", n, [] {
    prox_vec3 a = rvec(-1, 1);
    prox_segment s = {a, vadd(a, vmul(unit_rand(), 1e-12))};
    return case_pt_seg(rvec(-1, 1), s);
  });
  acc_row("point-segment", "zero length", n, [] {
    prox_vec3 a = rvec(-1, 1);
    prox_segment s = {a, a};
    return case_pt_seg(rvec(-1, 1), s);
  });
  acc_row("point-tetrahedron", "uniform, positively oriented", n, [] {
    prox_tetrahedron t =
        oriented({{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1), rvec(-1, 1)}}, CGAL::POSITIVE);
    return case_pt_tet(rvec(-1, 1), t);
  });
  acc_row("point-tetrahedron", "uniform, negatively oriented", n, [] {
    prox_tetrahedron t =
        oriented({{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1), rvec(-1, 1)}}, CGAL::NEGATIVE);
    return case_pt_tet(rvec(-1, 1), t);
  });
  acc_row("point-tetrahedron", "flat (height 1e-12)", n, [] {
    prox_tetrahedron t = {{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1), {0, 0, 0}}};
    t.v[3] = vadd(vadd(t.v[0], vmul(vsub(t.v[1], t.v[0]), uni(-0.5, 1))),
                  vmul(vsub(t.v[2], t.v[0]), uni(-0.5, 1)));
    t.v[3] = vadd(t.v[3], vmul(unit_rand(), 1e-12));
    return case_pt_tet(rvec(-1, 1), oriented(t, CGAL::POSITIVE));
  });
  acc_row("point-tetrahedron", "flat (exactly coplanar)", n, [] {
    prox_tetrahedron t = {{dyadic(), dyadic(), dyadic(), {0, 0, 0}}};
    t.v[3] = vsub(vadd(t.v[0], t.v[1]), t.v[2]);
    return case_pt_tet(rvec(-1, 1), t);
  });
  acc_row("segment-segment", "uniform", n, [] {
    prox_segment a = {rvec(-1, 1), rvec(-1, 1)};
    prox_segment b = {rvec(-1, 1), rvec(-1, 1)};
    return case_seg_seg(a, b);
  });
  acc_row("segment-segment", "nearly parallel (angle 1e-10)", n, [] {
    prox_segment a = {rvec(-1, 1), rvec(-1, 1)};
    prox_vec3 off = rvec(-0.5, 0.5);
    prox_segment b = {vadd(a.a, off), vadd(vadd(a.b, off), vmul(unit_rand(), 1e-10))};
    return case_seg_seg(a, b);
  });
  acc_row("segment-segment", "exactly parallel", n, [] {
    prox_segment a = {dyadic(), dyadic()};
    prox_vec3 off = vmul(dyadic(), 0.5);
    prox_segment b = {vadd(a.a, off), vadd(a.b, off)};
    if (next_u64() & 1) b = {vadd(a.a, vmul(vsub(a.b, a.a), 0.5)), b.b};
    return case_seg_seg(a, b);
  });
  acc_row("triangle-triangle", "uniform (shifted by up to 1)", n / 4, [] {
    prox_vec3 sh = rvec(-0.6, 0.6);
    prox_triangle a = {{rvec(-1, 1), rvec(-1, 1), rvec(-1, 1)}};
    prox_triangle b = {{vadd(rvec(-1, 1), sh), vadd(rvec(-1, 1), sh), vadd(rvec(-1, 1), sh)}};
    return case_tri_tri(a, b);
  });
  acc_row("triangle-triangle", "slivers (relative height 1e-12)", n / 4, [] {
    prox_triangle a = sliver(), b = sliver();
    return case_tri_tri(a, b);
  });
  std::printf("\n");
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      g_quick = true;
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      g_state = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      g_runs = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      g_only = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--seed N] [--runs N] [--only WORD]\n", argv[0]);
      return 2;
    }
  }
  uint64_t seed = g_state;
  size_t stream_n = g_quick ? 200000 : 2000000;
  size_t cache_n = g_quick ? 4096 : 32768;
  long acc_n = g_quick ? 400 : 4000;
  std::printf("# bench_cgal: seed %llu, %d runs (median), stream n = %zu, "
              "cache n = %zu, accuracy %ld cases per row (triangle pairs "
              "%ld); CGAL %s\n\n",
              (unsigned long long)seed, g_runs, stream_n, cache_n, acc_n, acc_n / 4,
              CGAL_VERSION_STR);
  speed(stream_n, cache_n);
  accuracy(acc_n);
  std::printf("# checksum %.17g\n", (double)g_sink);
  return 0;
}
