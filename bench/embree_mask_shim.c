/* SPDX-License-Identifier: MIT */
/* embree_mask_shim: a preloaded library that lets Debian's Open3D 0.16 find
 * hits, for bench_sign_open3d.py only (never linked into prox).
 *
 * Debian builds Embree 3 with ray masks enabled (EMBREE_RAY_MASK), and a
 * geometry's default mask is all ones; Open3D's RaycastingScene fills its
 * rays with mask 0, so every ray is masked out: no hit, every occupancy 0,
 * every signed distance positive. (Open3D's own wheels link an Embree
 * built without masks, where the field is ignored.) This library defines
 * the two stream entry points Open3D calls, rtcIntersect1M and
 * rtcOccluded1M, sets every ray's mask to all ones, which is what an
 * Embree without masks does, and calls Embree's own functions:
 *
 *   LD_PRELOAD=build/bench/libembree_mask_shim.so \
 *     /usr/bin/python3 bench/bench_sign_open3d.py ...
 *
 * bench_sign_open3d.py's cube check shows whether the rays hit. The time of
 * setting the masks (one store per ray, the rays already in cache) is
 * charged to Open3D. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <embree3/rtcore.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*intersect1m_fn)(RTCScene, struct RTCIntersectContext *, struct RTCRayHit *,
                               unsigned int, size_t);
typedef void (*occluded1m_fn)(RTCScene, struct RTCIntersectContext *, struct RTCRay *, unsigned int,
                              size_t);

/* Embree's own functions, looked up at the first call (Embree is loaded
 * after this library: Python opens Open3D, which brings it), once for all
 * threads. */
static intersect1m_fn next_intersect1m;
static occluded1m_fn next_occluded1m;

/* Embree's function `name` into *fn (a function pointer's bytes: ISO C
 * has no conversion from dlsym's object pointer). */
static void shim_next(void *lib, const char *name, void *fn, size_t size) {
  void *f = lib ? dlsym(lib, name) : NULL;
  if (!f || size != sizeof f) {
    fprintf(stderr, "embree_mask_shim: %s not found in libembree3.so.3: %s\n", name, dlerror());
    abort();
  }
  memcpy(fn, &f, size);
}

static pthread_once_t shim_once = PTHREAD_ONCE_INIT;

static void shim_init(void) {
  /* Embree as Open3D loaded it (a Python module's libraries are not in the
   * global scope, so RTLD_NEXT would not find them). */
  void *lib = dlopen("libembree3.so.3", RTLD_NOW | RTLD_LOCAL);
  shim_next(lib, "rtcIntersect1M", &next_intersect1m, sizeof next_intersect1m);
  shim_next(lib, "rtcOccluded1M", &next_occluded1m, sizeof next_occluded1m);
}

void rtcIntersect1M(RTCScene scene, struct RTCIntersectContext *context, struct RTCRayHit *rayhit,
                    unsigned int M, size_t byteStride) {
  unsigned int i;
  pthread_once(&shim_once, shim_init);
  for (i = 0; i < M; ++i)
    ((struct RTCRayHit *)((char *)rayhit + (size_t)i * byteStride))->ray.mask = ~0u;
  next_intersect1m(scene, context, rayhit, M, byteStride);
}

void rtcOccluded1M(RTCScene scene, struct RTCIntersectContext *context, struct RTCRay *ray,
                   unsigned int M, size_t byteStride) {
  unsigned int i;
  pthread_once(&shim_once, shim_init);
  for (i = 0; i < M; ++i)
    ((struct RTCRay *)((char *)ray + (size_t)i * byteStride))->mask = ~0u;
  next_occluded1m(scene, context, ray, M, byteStride);
}
