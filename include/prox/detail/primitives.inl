/* SPDX-License-Identifier: MIT */
/* Template: primitive types and their constructors, instantiated once per
 * precision by primitives.h. */

/// The plane {x : dot(normal, x) = offset}. Queries accept any normal; the
/// constructors make it unit length.
typedef struct PROX_FN(prox_plane) {
  PROX_FN(prox_vec3) normal;
  PROX_REAL offset;
} PROX_FN(prox_plane);

/// The line {origin + t dir : t real}. A zero dir makes the line the point
/// origin.
typedef struct PROX_FN(prox_line) {
  PROX_FN(prox_vec3) origin, dir;
} PROX_FN(prox_line);

/// The ray {origin + t dir : tmin <= t <= tmax}; dir need not be unit and t
/// is in units of dir. prox_ray_make gives tmin = 0, tmax = +inf. A zero dir
/// makes the ray the point origin + tmin dir = origin. tmin > tmax is
/// treated as the single parameter tmin.
typedef struct PROX_FN(prox_ray) {
  PROX_FN(prox_vec3) origin, dir;
  PROX_REAL tmin, tmax;
} PROX_FN(prox_ray);

/// The segment from a (t = 0) to b (t = 1); a == b makes it a point.
typedef struct PROX_FN(prox_segment) {
  PROX_FN(prox_vec3) a, b;
} PROX_FN(prox_segment);

/// The triangle v[0] v[1] v[2]. Edge i joins v[i] and v[(i + 1) % 3]. A
/// triangle of zero area (collinear or coincident vertices) is the union of
/// its edges.
typedef struct PROX_FN(prox_triangle) {
  PROX_FN(prox_vec3) v[3];
} PROX_FN(prox_triangle);

/// The rectangle {center + s axis[0] + t axis[1] : |s| <= half[0],
/// |t| <= half[1]}. The axes are used as given (normally unit and
/// orthogonal); negative half extents count as their absolute value.
typedef struct PROX_FN(prox_rectangle) {
  PROX_FN(prox_vec3) center;
  PROX_FN(prox_vec3) axis[2];
  PROX_REAL half[2];
} PROX_FN(prox_rectangle);

/// The axis-aligned box spanned by the corners min and max, expected in
/// order (min <= max on every axis). Zero size is allowed. An axis with
/// min > max still gets a defined answer from every query: the closest-point
/// queries (prox_point_aabb, its signed and batch forms) take it as the
/// single value min, as a clamp does; the ray casts and overlap tests as the
/// interval between the two.
typedef struct PROX_FN(prox_aabb) {
  PROX_FN(prox_vec3) min, max;
} PROX_FN(prox_aabb);

/// The oriented box {center + sum_i s_i axis[i] : |s_i| <= half[i]}. The
/// axes are used as given (normally orthonormal); negative half extents
/// count as their absolute value.
typedef struct PROX_FN(prox_obb) {
  PROX_FN(prox_vec3) center;
  PROX_FN(prox_vec3) axis[3];
  PROX_REAL half[3];
} PROX_FN(prox_obb);

/// The solid ball of the given center and radius (a negative radius counts
/// as its absolute value).
typedef struct PROX_FN(prox_sphere) {
  PROX_FN(prox_vec3) center;
  PROX_REAL radius;
} PROX_FN(prox_sphere);

/// The solid capsule: points within radius of the segment a b.
typedef struct PROX_FN(prox_capsule) {
  PROX_FN(prox_vec3) a, b;
  PROX_REAL radius;
} PROX_FN(prox_capsule);

/// The solid tetrahedron v[0..3] (either orientation). Face i is opposite
/// vertex i; edge i is the pair (0,1), (0,2), (0,3), (1,2), (1,3), (2,3) for
/// i = 0..5. A flat tetrahedron (zero volume) is the union of its faces.
typedef struct PROX_FN(prox_tetrahedron) {
  PROX_FN(prox_vec3) v[4];
} PROX_FN(prox_tetrahedron);

/// Makes the plane dot(n, x) = offset scaled to a unit normal (the offset
/// is divided by |n| too). Returns 1, or 0 when n is zero or not finite, or
/// the scaled offset overflows (a tiny n with a large offset); then
/// *out is the plane of normal (0, 0, 0) and offset 0, which every query
/// treats as containing every point (distance 0). out must not be NULL.
PROX_KERNEL int PROX_FN(prox_plane_from_normal)(PROX_FN(prox_vec3) n,
                                                PROX_REAL offset,
                                                PROX_FN(prox_plane) * out) {
  /* Scale first so that |n|^2 neither overflows nor underflows. */
  PROX_REAL m = PROX_FABS(n.x);
  PROX_REAL len;
  if (PROX_FABS(n.y) > m) m = PROX_FABS(n.y);
  if (PROX_FABS(n.z) > m) m = PROX_FABS(n.z);
  if (!(m > 0) || !(m <= PROX_REAL_MAX) || !(offset - offset == 0)) {
    out->normal = PROX_FN(prox_v3)(0, 0, 0);
    out->offset = 0;
    return 0;
  }
  /* Divide (not multiply by 1/m, which overflows for a subnormal m). */
  n = PROX_FN(prox_v3)(n.x / m, n.y / m, n.z / m);
  len = PROX_FN(prox_vlen)(n);
  out->normal = PROX_FN(prox_vscale)(n, 1 / len);
  out->offset = (offset / len) / m; /* len is in [1, sqrt(3)] */
  if (!(out->offset - out->offset == 0)) {
    /* The plane lies beyond the range of PROX_REAL. */
    out->normal = PROX_FN(prox_v3)(0, 0, 0);
    out->offset = 0;
    return 0;
  }
  return 1;
}

/// Makes the plane through point p with normal n, scaled to a unit normal.
/// Returns 1, or 0 when n is zero or p or n is not finite (then *out is the
/// all-zero plane, as prox_plane_from_normal documents).
PROX_KERNEL int PROX_FN(prox_plane_from_point_normal)(
    PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) n, PROX_FN(prox_plane) * out) {
  if (!(PROX_FN(prox_vpoison)(p) == 0) ||
      !PROX_FN(prox_plane_from_normal)(n, 0, out)) {
    out->normal = PROX_FN(prox_v3)(0, 0, 0);
    out->offset = 0;
    return 0;
  }
  out->offset = PROX_FN(prox_vdot)(out->normal, p);
  return 1;
}

/// The ray from origin along dir with the default interval [0, +inf].
PROX_KERNEL PROX_FN(prox_ray)
    PROX_FN(prox_ray_make)(PROX_FN(prox_vec3) origin, PROX_FN(prox_vec3) dir) {
  PROX_FN(prox_ray) r;
  r.origin = origin;
  r.dir = dir;
  r.tmin = 0;
  r.tmax = PROX_INF;
  return r;
}
