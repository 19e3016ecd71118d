/* SPDX-License-Identifier: MIT */
/// @file packet.h
/// @brief Packet forms of the ray casts for BVH traversal: one ray against
/// 4 or 8 boxes and against 4 or 8 triangles at once (SIMD), in double and
/// float (suffix f).
///
/// The ray is prepared once (prox_packet_ray_init); the boxes and triangles
/// are given in structure-of-arrays form, lane i holding box or triangle
/// i. The instruction set is chosen at run time as for the batch queries
/// (prox_simd_level() of batch.h, environment variable PROX_SIMD): AVX2,
/// AVX-512 or portable C. Every path gives the scalar kernels' answers:
/// lane i of prox_packet_aabb8f() hits exactly when prox_raycast_aabbf()
/// hits box i, with the same t (the vector code evaluates the same
/// operations in the same order; a t of zero may differ in its sign, as the
/// vector code clamps the entry to tmin with a max where the scalar kernel
/// tests en >= tmin), and likewise for triangles, where a lane
/// whose edge signs are uncertain in the fast path is handed to
/// prox_raycast_triangle() itself (watertight, exact signs). Requirements:
/// boxes with finite coordinates and lo <= hi on every axis (as a BVH
/// builds them); triangles may be anything.
#ifndef PROX_PACKET_H
#define PROX_PACKET_H

#include "batch.h"
#include "raycast.h"

PROX_EXTERN_C_BEGIN

/// A ray prepared for the packet tests (double): the ray, its reciprocal
/// direction and slab modes for boxes, and its ray-space frame (Woop et al.
/// 2013) for triangles. Fill it with prox_packet_ray_init.
typedef struct prox_packet_ray {
  prox_ray ray;          ///< the ray as given
  double org[3], dir[3]; ///< origin and direction
  double inv[3];         ///< 1 / dir per axis (may be infinite)
  int mode[3];           ///< slab mode: 0 multiply by inv, 1 zero, 2 divide
  double tmin, tmax;     ///< the interval (tmax >= tmin)
  int kx, ky, kz;        ///< ray-space axes
  double sx, sy, sz;     ///< ray-space shear
  int valid;             ///< 0: nothing is hit (non-finite ray)
  int tri_valid;         ///< 0: no triangle is hit (zero direction)
} prox_packet_ray;

/// A ray prepared for the packet tests (float); see prox_packet_ray.
typedef struct prox_packet_rayf {
  prox_rayf ray;
  float org[3], dir[3];
  float inv[3];
  int mode[3];
  float tmin, tmax;
  int kx, ky, kz;
  float sx, sy, sz;
  int valid;
  int tri_valid;
} prox_packet_rayf;

/// Four axis-aligned boxes: box i spans lo[a][i] .. hi[a][i] on axis a.
typedef struct prox_box4 {
  double lo[3][4], hi[3][4];
} prox_box4;
/// Eight axis-aligned boxes (double).
typedef struct prox_box8 {
  double lo[3][8], hi[3][8];
} prox_box8;
/// Four axis-aligned boxes (float).
typedef struct prox_box4f {
  float lo[3][4], hi[3][4];
} prox_box4f;
/// Eight axis-aligned boxes (float).
typedef struct prox_box8f {
  float lo[3][8], hi[3][8];
} prox_box8f;

/// Four triangles: triangle i has vertex k at (v[k][0][i], v[k][1][i],
/// v[k][2][i]).
typedef struct prox_tri4 {
  double v[3][3][4];
} prox_tri4;
/// Eight triangles (double).
typedef struct prox_tri8 {
  double v[3][3][8];
} prox_tri8;
/// Four triangles (float).
typedef struct prox_tri4f {
  float v[3][3][4];
} prox_tri4f;
/// Eight triangles (float).
typedef struct prox_tri8f {
  float v[3][3][8];
} prox_tri8f;

/// Hits of a triangle packet: for each lane that hits, the ray parameter
/// t and the barycentric coordinates u, v of vertices 1 and 2 (vertex 0 has
/// 1 - u - v), as prox_raycast_triangle reports them (bary[1], bary[2]).
/// Lanes that miss hold unspecified values.
typedef struct prox_packet_hit8 {
  double t[8], u[8], v[8];
} prox_packet_hit8;
/// Hits of a triangle packet (float).
typedef struct prox_packet_hit8f {
  float t[8], u[8], v[8];
} prox_packet_hit8f;

/// Prepares a ray for the packet tests.
PROX_API void prox_packet_ray_init(prox_packet_ray *p, const prox_ray *ray);
/// Prepares a ray for the packet tests (float).
PROX_API void prox_packet_ray_initf(prox_packet_rayf *p, const prox_rayf *ray);

/// One ray against four boxes: returns the mask of boxes hit (bit i for
/// box i) and, for those, the entry parameter in tnear[i] (tmin when the
/// ray starts inside), exactly as prox_raycast_aabb reports hit and t.
PROX_API int prox_packet_aabb4(const prox_packet_ray *r, const prox_box4 *b,
                               double tnear[4]);
/// One ray against eight boxes; see prox_packet_aabb4.
PROX_API int prox_packet_aabb8(const prox_packet_ray *r, const prox_box8 *b,
                               double tnear[8]);
/// One ray against four boxes (float); see prox_packet_aabb4.
PROX_API int prox_packet_aabb4f(const prox_packet_rayf *r, const prox_box4f *b,
                                float tnear[4]);
/// One ray against eight boxes (float); see prox_packet_aabb4.
PROX_API int prox_packet_aabb8f(const prox_packet_rayf *r, const prox_box8f *b,
                                float tnear[8]);

/// One ray against four triangles: returns the mask of triangles hit, with
/// t and barycentrics in *hit (lanes 0..3), exactly as
/// prox_raycast_triangle reports them. hit may be NULL.
PROX_API int prox_packet_triangle4(const prox_packet_ray *r, const prox_tri4 *t,
                                   prox_packet_hit8 *hit);
/// One ray against eight triangles; see prox_packet_triangle4.
PROX_API int prox_packet_triangle8(const prox_packet_ray *r, const prox_tri8 *t,
                                   prox_packet_hit8 *hit);
/// One ray against four triangles (float); see prox_packet_triangle4.
PROX_API int prox_packet_triangle4f(const prox_packet_rayf *r,
                                    const prox_tri4f *t,
                                    prox_packet_hit8f *hit);
/// One ray against eight triangles (float); see prox_packet_triangle4.
PROX_API int prox_packet_triangle8f(const prox_packet_rayf *r,
                                    const prox_tri8f *t,
                                    prox_packet_hit8f *hit);

PROX_EXTERN_C_END

#endif /* PROX_PACKET_H */
