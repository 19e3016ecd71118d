/* SPDX-License-Identifier: MIT */
/* Template: the types and declarations of the packet ray casts
 * (prox/packet.h), once per precision. The definitions are in
 * src/simd/packet.c and the vector code in src/simd/packet_avx2.c and
 * src/simd/packet_avx512.c. */

/// A ray prepared for the packet tests: the ray, its reciprocal direction
/// and slab modes for boxes, and its ray-space frame (Woop et al. 2013) for
/// triangles. Fill it with prox_packet_ray_init() (prox_packet_ray_initf()
/// for prox_packet_rayf).
typedef struct PROX_FN(prox_packet_ray) {
  PROX_FN(prox_ray) ray;    ///< the ray as given
  PROX_REAL org[3], dir[3]; ///< origin and direction
  PROX_REAL inv[3];         ///< 1 / dir per axis (may be infinite)
  int mode[3];              ///< slab mode: 0 multiply by inv, 1 zero, 2 divide
  PROX_REAL tmin, tmax;     ///< the interval (tmax >= tmin)
  int kx, ky, kz;           ///< ray-space axes
  PROX_REAL sx, sy, sz;     ///< ray-space shear
  int valid;                ///< 0: nothing is hit (non-finite ray)
  int tri_valid;            ///< 0: no triangle is hit (zero direction)
} PROX_FN(prox_packet_ray);

/// Four axis-aligned boxes: box i spans lo[a][i] .. hi[a][i] on axis a.
typedef struct PROX_FN(prox_box4) {
  PROX_REAL lo[3][4]; ///< lower corners, axis-major
  PROX_REAL hi[3][4]; ///< upper corners, axis-major
} PROX_FN(prox_box4);

/// Eight axis-aligned boxes; see prox_box4.
typedef struct PROX_FN(prox_box8) {
  PROX_REAL lo[3][8]; ///< lower corners, axis-major
  PROX_REAL hi[3][8]; ///< upper corners, axis-major
} PROX_FN(prox_box8);

/// Four triangles: triangle i has vertex k at (v[k][0][i], v[k][1][i],
/// v[k][2][i]).
typedef struct PROX_FN(prox_tri4) {
  PROX_REAL v[3][3][4]; ///< vertex, axis, lane
} PROX_FN(prox_tri4);

/// Eight triangles; see prox_tri4.
typedef struct PROX_FN(prox_tri8) {
  PROX_REAL v[3][3][8]; ///< vertex, axis, lane
} PROX_FN(prox_tri8);

/// Hits of a triangle packet: for each lane that hits, the ray parameter
/// t and the barycentric coordinates u, v of vertices 1 and 2 (vertex 0 has
/// 1 - u - v), as prox_raycast_triangle() reports them (bary[1], bary[2]).
/// Lanes that miss hold unspecified values.
typedef struct PROX_FN(prox_packet_hit8) {
  PROX_REAL t[8]; ///< ray parameter
  PROX_REAL u[8]; ///< barycentric coordinate of vertex 1
  PROX_REAL v[8]; ///< barycentric coordinate of vertex 2
} PROX_FN(prox_packet_hit8);

/// Prepares a ray for the packet tests (prox_packet_ray_init(),
/// prox_packet_ray_initf()).
PROX_API void PROX_FN(prox_packet_ray_init)(PROX_FN(prox_packet_ray) * p,
                                            const PROX_FN(prox_ray) * ray);

/// One ray against four boxes (prox_packet_aabb4(), prox_packet_aabb4f()):
/// returns the mask of boxes hit (bit i for box i) and, for those, the
/// entry parameter in tnear[i] (tmin when the ray starts inside), exactly
/// as prox_raycast_aabb() reports hit and t.
PROX_API int PROX_FN(prox_packet_aabb4)(const PROX_FN(prox_packet_ray) * r,
                                        const PROX_FN(prox_box4) * b, PROX_REAL tnear[4]);

/// One ray against eight boxes (prox_packet_aabb8(), prox_packet_aabb8f());
/// see prox_packet_aabb4().
PROX_API int PROX_FN(prox_packet_aabb8)(const PROX_FN(prox_packet_ray) * r,
                                        const PROX_FN(prox_box8) * b, PROX_REAL tnear[8]);

/// One ray against four triangles (prox_packet_triangle4(),
/// prox_packet_triangle4f()): returns the mask of triangles hit, with t and
/// barycentrics in *hit (lanes 0..3), exactly as prox_raycast_triangle()
/// reports them. hit may be NULL.
PROX_API int PROX_FN(prox_packet_triangle4)(const PROX_FN(prox_packet_ray) * r,
                                            const PROX_FN(prox_tri4) * t,
                                            PROX_FN(prox_packet_hit8) * hit);

/// One ray against eight triangles (prox_packet_triangle8(),
/// prox_packet_triangle8f()); see prox_packet_triangle4().
PROX_API int PROX_FN(prox_packet_triangle8)(const PROX_FN(prox_packet_ray) * r,
                                            const PROX_FN(prox_tri8) * t,
                                            PROX_FN(prox_packet_hit8) * hit);
