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

/// A ray prepared for the packet tests, in double: the ray, its reciprocal
/// direction and slab modes for boxes, and its ray-space frame (Woop et al.
/// 2013, as prox_raycast_triangle() builds it) for triangles. Fill it with
/// prox_packet_ray_init(); the members are read by the packet tests only.
typedef struct prox_packet_ray {
  prox_ray ray;  ///< the ray as given
  double org[3]; ///< origin, per axis
  double dir[3]; ///< direction, per axis
  double inv[3]; ///< 1 / dir per axis (infinite for a zero component)
  int mode[3];   ///< slab mode: 0 multiply by inv, 1 zero dir, 2 divide (inv overflows)
  double tmin;   ///< start of the interval: ray.tmin
  double tmax;   ///< end of the interval: ray.tmax, or tmin when tmax < tmin
  int kx;        ///< ray space: first axis of the plane across the ray
  int ky;        ///< ray space: second axis (swapped with kx when dir[kz] < 0)
  int kz;        ///< ray space: the axis of dir's largest magnitude
  double sx;     ///< shear: dir[kx] * sz
  double sy;     ///< shear: dir[ky] * sz
  double sz;     ///< shear: 1 / dir[kz]
  int valid;     ///< 0: nothing is hit (non-finite origin or direction, NaN interval)
  int tri_valid; ///< 0: no triangle is hit (non-finite ray or zero direction)
} prox_packet_ray;

/// prox_packet_ray for float rays (prox_packet_ray_initf()); same members,
/// in float.
typedef struct prox_packet_rayf {
  prox_rayf ray; ///< the ray as given
  float org[3];  ///< origin, per axis
  float dir[3];  ///< direction, per axis
  float inv[3];  ///< 1 / dir per axis (infinite for a zero component)
  int mode[3];   ///< slab mode: 0 multiply by inv, 1 zero dir, 2 divide (inv overflows)
  float tmin;    ///< start of the interval: ray.tmin
  float tmax;    ///< end of the interval: ray.tmax, or tmin when tmax < tmin
  int kx;        ///< ray space: first axis of the plane across the ray
  int ky;        ///< ray space: second axis (swapped with kx when dir[kz] < 0)
  int kz;        ///< ray space: the axis of dir's largest magnitude
  float sx;      ///< shear: dir[kx] * sz
  float sy;      ///< shear: dir[ky] * sz
  float sz;      ///< shear: 1 / dir[kz]
  int valid;     ///< 0: nothing is hit (non-finite origin or direction, NaN interval)
  int tri_valid; ///< 0: no triangle is hit (non-finite ray or zero direction)
} prox_packet_rayf;

/// Four axis-aligned boxes in double: box i spans lo[a][i] .. hi[a][i] on
/// axis a. Requirements of the tests: finite, lo <= hi on every axis.
typedef struct prox_box4 {
  double lo[3][4]; ///< lower corners, axis-major
  double hi[3][4]; ///< upper corners, axis-major
} prox_box4;
/// prox_box4 in float.
typedef struct prox_box4f {
  float lo[3][4]; ///< lower corners, axis-major
  float hi[3][4]; ///< upper corners, axis-major
} prox_box4f;

/// Eight axis-aligned boxes in double; see prox_box4.
typedef struct prox_box8 {
  double lo[3][8]; ///< lower corners, axis-major
  double hi[3][8]; ///< upper corners, axis-major
} prox_box8;
/// prox_box8 in float.
typedef struct prox_box8f {
  float lo[3][8]; ///< lower corners, axis-major
  float hi[3][8]; ///< upper corners, axis-major
} prox_box8f;

/// Four triangles in double: triangle i has vertex k at (v[k][0][i],
/// v[k][1][i], v[k][2][i]). Any values (degenerate, non-finite) are allowed.
typedef struct prox_tri4 {
  double v[3][3][4]; ///< vertex, axis, lane
} prox_tri4;
/// prox_tri4 in float.
typedef struct prox_tri4f {
  float v[3][3][4]; ///< vertex, axis, lane
} prox_tri4f;

/// Eight triangles in double; see prox_tri4.
typedef struct prox_tri8 {
  double v[3][3][8]; ///< vertex, axis, lane
} prox_tri8;
/// prox_tri8 in float.
typedef struct prox_tri8f {
  float v[3][3][8]; ///< vertex, axis, lane
} prox_tri8f;

/// Hits of a triangle packet, in double: for each lane that hits, the ray
/// parameter t and the barycentric coordinates u, v of vertices 1 and 2
/// (vertex 0 has 1 - u - v), as prox_raycast_triangle() reports them
/// (bary[1], bary[2]). Lanes that miss hold unspecified values. The
/// four-triangle tests fill lanes 0..3.
typedef struct prox_packet_hit8 {
  double t[8]; ///< ray parameter
  double u[8]; ///< barycentric coordinate of vertex 1
  double v[8]; ///< barycentric coordinate of vertex 2
} prox_packet_hit8;
/// prox_packet_hit8 in float.
typedef struct prox_packet_hit8f {
  float t[8]; ///< ray parameter
  float u[8]; ///< barycentric coordinate of vertex 1
  float v[8]; ///< barycentric coordinate of vertex 2
} prox_packet_hit8f;

/// Prepares a ray for the packet tests. Any ray is accepted: a non-finite
/// one makes every test miss (valid 0), a zero direction every triangle
/// test (tri_valid 0); tmax < tmin is read as the single parameter tmin.
/// p and ray must not be NULL. Does not allocate; thread-safe.
PROX_API void prox_packet_ray_init(prox_packet_ray *p, const prox_ray *ray);
/// Float version of prox_packet_ray_init().
PROX_API void prox_packet_ray_initf(prox_packet_rayf *p, const prox_rayf *ray);

/// One ray against four boxes: returns the mask of boxes hit (bit i for
/// box i) and, for those, the entry parameter in tnear[i] (tmin when the
/// ray starts inside), exactly as prox_raycast_aabb() reports hit and t
/// (a t of zero may differ in its sign; see the file comment). Boxes must
/// be finite with lo <= hi (as a BVH builds them); lanes that miss leave
/// tnear[i] unspecified. Does not allocate; thread-safe.
PROX_API int prox_packet_aabb4(const prox_packet_ray *r, const prox_box4 *b, double tnear[4]);
/// Float version of prox_packet_aabb4().
PROX_API int prox_packet_aabb4f(const prox_packet_rayf *r, const prox_box4f *b, float tnear[4]);

/// One ray against eight boxes; see prox_packet_aabb4().
PROX_API int prox_packet_aabb8(const prox_packet_ray *r, const prox_box8 *b, double tnear[8]);
/// Float version of prox_packet_aabb8().
PROX_API int prox_packet_aabb8f(const prox_packet_rayf *r, const prox_box8f *b, float tnear[8]);

/// One ray against four triangles: returns the mask of triangles hit (bit
/// i for triangle i), with t and barycentrics in *hit (lanes 0..3),
/// exactly as prox_raycast_triangle() reports them (watertight, exact
/// signs: a lane whose edge signs are uncertain in the fast path is handed
/// to that kernel). hit may be NULL. Any triangles (degenerate, non-finite:
/// missed as the kernel misses them). Does not allocate; thread-safe.
PROX_API int prox_packet_triangle4(const prox_packet_ray *r, const prox_tri4 *t,
                                   prox_packet_hit8 *hit);
/// Float version of prox_packet_triangle4().
PROX_API int prox_packet_triangle4f(const prox_packet_rayf *r, const prox_tri4f *t,
                                    prox_packet_hit8f *hit);

/// One ray against eight triangles; see prox_packet_triangle4().
PROX_API int prox_packet_triangle8(const prox_packet_ray *r, const prox_tri8 *t,
                                   prox_packet_hit8 *hit);
/// Float version of prox_packet_triangle8().
PROX_API int prox_packet_triangle8f(const prox_packet_rayf *r, const prox_tri8f *t,
                                    prox_packet_hit8f *hit);

PROX_EXTERN_C_END

#endif /* PROX_PACKET_H */
