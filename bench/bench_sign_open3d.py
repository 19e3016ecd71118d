#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_sign_open3d: Open3D's inside tests beside prox's, on the points of
bench_sign.

    bench_sign_open3d.py PREFIX [--meshes DIR] [--runs N] [--mesh WORD]
                                [--threads 1,2] [--n N]

PREFIX is what `bench_sign --write-points PREFIX --write-reference PREFIX`
was given: PREFIX_<mesh>.npy holds the 2N points (float64, the uniform set
first, then the near set), PREFIX_<mesh>_ref.npy (int8, 2N x 3) prox's
inside answer, the exact oracle's for the point and the exact oracle's for
the point rounded to float32 (1 inside, 0 outside, -1 undecided, -2 within
1e-9 of the diagonal of the surface, -3 not computed).

Open3D (Debian's python3-open3d 0.16; run with /usr/bin/python3 where
another Python comes first on PATH): a RaycastingScene over the mesh
(float32), then RaycastingScene.compute_occupancy and
compute_signed_distance on the points as float32, nthreads 1 and 2. Rows:
ns per query, the median of --runs runs (default 5) with [min, max]; the
1-thread rows are process CPU time (meant for `taskset -c 1`), the
2-thread rows wall time. Then the wrong signs of each against the exact
oracle of the float32 point Open3D receives (third column), undecided and
near points excluded, and the count of "inside" answers, beside prox's
wrong signs against the oracle of the float64 point (second column).

Before the meshes, a unit cube: occupancy and signed distance at its centre
and outside it, and a ray cast through it, to show whether this build's ray
casts hit anything at all (Debian's 0.16 build is known to return no hits:
its Embree has ray masks enabled and Open3D casts with mask 0). Preload
the build's bench/libembree_mask_shim.so (bench/embree_mask_shim.c) to
give Open3D's rays the mask of an Embree without masks, as Open3D's own
packages have it:

    LD_PRELOAD=build/bench/libembree_mask_shim.so /usr/bin/python3 \
        bench/bench_sign_open3d.py PREFIX ...
"""
import argparse
import os
import sys
import time

import numpy as np
import open3d as o3d

MESHES = ["bunny_watertight.obj", "armadillo.obj", "dragon.obj", "bunny.obj"]


def load_obj(path):
    """Vertices (float64, n x 3) and triangles (uint32, m x 3) of an OBJ:
    `v` and `f` records, polygons split into fans as tests/objload.h does."""
    verts, tris = [], []
    with open(path, "r", encoding="ascii", errors="replace") as f:
        for line in f:
            s = line.split()
            if not s:
                continue
            if s[0] == "v":
                verts.append([float(s[1]), float(s[2]), float(s[3])])
            elif s[0] == "f":
                idx = []
                for tok in s[1:]:
                    k = int(tok.split("/")[0])
                    idx.append(k - 1 if k > 0 else len(verts) + k)
                for q in range(2, len(idx)):
                    tris.append([idx[0], idx[q - 1], idx[q]])
    return np.array(verts, dtype=np.float64), np.array(tris, dtype=np.uint32)


def make_scene(v, t):
    scene = o3d.t.geometry.RaycastingScene()
    scene.add_triangles(
        o3d.core.Tensor(v.astype(np.float32)), o3d.core.Tensor(t)
    )
    return scene


def cube_check():
    v = np.array(
        [[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)],
        dtype=np.float64,
    )
    # Outward triangles of the unit cube (vertex i = x + 2 y + 4 z).
    t = np.array(
        [[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
         [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]],
        dtype=np.uint32,
    )
    scene = make_scene(v, t)
    q = o3d.core.Tensor(
        np.array([[0.5, 0.5, 0.5], [0.2, 0.3, 0.4], [1.5, 0.5, 0.5]],
                 dtype=np.float32)
    )
    occ = scene.compute_occupancy(q).numpy()
    sd = scene.compute_signed_distance(q).numpy()
    ray = o3d.core.Tensor(np.array([[0.5, 0.5, -1, 0, 0, 1]], dtype=np.float32))
    hit = scene.cast_rays(ray)["t_hit"].numpy()
    cnt = scene.count_intersections(ray).numpy()
    print("cube: occupancy at (0.5,0.5,0.5), (0.2,0.3,0.4) [inside], "
          "(1.5,0.5,0.5) [outside]: %s (want [1 1 0])" % occ.tolist())
    print("cube: signed distance there: %s (want [-0.5 -0.2 0.5])"
          % np.round(sd, 6).tolist())
    print("cube: ray from (0.5,0.5,-1) along +z: t_hit %s (want 1), "
          "count_intersections %s (want 2)" % (hit.tolist(), cnt.tolist()))
    ok = occ.tolist() == [1.0, 1.0, 0.0]
    if not ok:
        print("cube: THIS OPEN3D BUILD GETS THE CUBE WRONG: its ray casts "
              "find no hit, so every occupancy is 0 (outside) and every "
              "signed distance positive; the counts below show it, the "
              "times are still those of its queries (preload "
              "libembree_mask_shim.so: see the top of this file)")
    return ok


def timed(fn, runs, cpu):
    clock = time.process_time if cpu else time.perf_counter
    out, ts = None, []
    for _ in range(runs):
        t0 = clock()
        out = fn()
        ts.append(clock() - t0)
    ts.sort()
    m = len(ts)
    med = ts[m // 2] if m % 2 else 0.5 * (ts[m // 2 - 1] + ts[m // 2])
    return out, med, ts[0], ts[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("prefix")
    ap.add_argument("--meshes", default=os.environ.get(
        "PROX_MESH_DIR", "../shared/data/meshes"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mesh", default="")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--n", type=int, default=0,
                    help="use the first N points of each set (default all)")
    a = ap.parse_args()
    threads = [int(x) for x in a.threads.split(",") if x]
    print("bench_sign_open3d: Open3D %s, numpy %s, runs %d"
          % (o3d.__version__, np.__version__, a.runs))
    print("command: %s" % " ".join(sys.argv))
    print("LD_PRELOAD: %s" % (os.environ.get("LD_PRELOAD") or "(none)"))
    cube_check()
    sys.stdout.flush()
    for file in MESHES:
        if a.mesh and a.mesh not in file:
            continue
        stem = os.path.splitext(file)[0]
        pts_path = "%s_%s.npy" % (a.prefix, stem)
        ref_path = "%s_%s_ref.npy" % (a.prefix, stem)
        if not os.path.exists(pts_path) or not os.path.exists(ref_path):
            print("%-22s skipped: %s or %s missing" % (file, pts_path, ref_path))
            continue
        pts = np.load(pts_path)
        ref = np.load(ref_path)
        half = pts.shape[0] // 2
        n = min(a.n, half) if a.n > 0 else half
        # The first n points of each set are those of a run with N = n.
        pick = np.r_[0:n, half:half + n]
        pts, ref = pts[pick], ref[pick]
        v, t = load_obj(os.path.join(a.meshes, file))
        t0 = time.perf_counter()
        scene = make_scene(v, t)
        # The scene's BVH is committed at its first query: time that too.
        scene.compute_occupancy(
            o3d.core.Tensor(np.zeros((1, 3), dtype=np.float32)), nthreads=1)
        build = time.perf_counter() - t0
        print("%-22s %d triangles; scene build (add_triangles + first "
              "1-point query) %.1f ms" % (file, t.shape[0], 1e3 * build))
        for si, setname in enumerate(("uniform", "near")):
            p32 = o3d.core.Tensor(pts[si * n:(si + 1) * n].astype(np.float32))
            r = ref[si * n:(si + 1) * n]
            occ = sd = None
            for th in threads:
                cpu = th == 1
                occ, om, olo, ohi = timed(
                    lambda: scene.compute_occupancy(p32, nthreads=th).numpy(),
                    a.runs, cpu)
                sd, sm, slo, shi = timed(
                    lambda: scene.compute_signed_distance(
                        p32, nthreads=th).numpy(), a.runs, cpu)
                k = 1e9 / n
                print("%-22s %-7s %d thr %s ns/query: compute_occupancy %.1f "
                      "[%.1f, %.1f]  compute_signed_distance %.1f [%.1f, %.1f]"
                      % (file, setname, th, "(cpu) " if cpu else "(wall)",
                         k * om, k * olo, k * ohi, k * sm, k * slo, k * shi))
                sys.stdout.flush()
            o_in = occ > 0.5
            s_in = sd < 0
            want32 = r[:, 2]
            ok32 = want32 >= 0
            want64 = r[:, 1]
            ok64 = want64 >= 0
            if ok32.any():
                w_occ = int(np.sum(o_in[ok32] != (want32[ok32] == 1)))
                w_sd = int(np.sum(s_in[ok32] != (want32[ok32] == 1)))
                w_prox = int(np.sum((r[ok64, 0] == 1) != (want64[ok64] == 1)))
                print("%-22s %-7s wrong signs vs the exact oracle (float32 "
                      "point) on %d points (%d excluded): compute_occupancy "
                      "%d, compute_signed_distance %d; prox (float64 point, "
                      "%d points) %d; inside answers: occupancy %d, signed "
                      "distance %d, oracle %d"
                      % (file, setname, int(ok32.sum()), n - int(ok32.sum()),
                         w_occ, w_sd, int(ok64.sum()), w_prox,
                         int(o_in.sum()), int(s_in.sum()),
                         int(np.sum(want32 == 1))))
            else:
                agree_o = int(np.sum(o_in == (r[:, 0] == 1)))
                agree_s = int(np.sum(s_in == (r[:, 0] == 1)))
                print("%-22s %-7s no exact oracle (open mesh): agreement "
                      "with prox's inside (winding number): occupancy %d, "
                      "signed distance %d of %d; inside answers: occupancy "
                      "%d, signed distance %d, prox %d"
                      % (file, setname, agree_o, agree_s, n, int(o_in.sum()),
                         int(s_in.sum()), int(np.sum(r[:, 0] == 1))))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
