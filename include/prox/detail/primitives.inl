/* SPDX-License-Identifier: MIT */
/* Template: primitive types and their constructors, instantiated once per
 * precision by primitives.h, which declares the documented functions with
 * their contracts; this file holds their definitions. */

/// The plane {x : dot(normal, x) = offset}. Queries accept any non-zero
/// normal (prox_plane_is_valid); the constructors make it unit length.
typedef struct PROX_FN(prox_plane) {
  PROX_FN(prox_vec3) normal; ///< normal (any non-zero length; unit from the constructors)
  PROX_REAL offset;          ///< dot(normal, x) of the plane's points x
} PROX_FN(prox_plane);

/// The line {origin + t dir : t real}. A zero dir makes the line the point
/// origin.
typedef struct PROX_FN(prox_line) {
  PROX_FN(prox_vec3) origin; ///< the point at t = 0
  PROX_FN(prox_vec3) dir;    ///< direction (any length; zero: the point origin)
} PROX_FN(prox_line);

/// The ray {origin + t dir : tmin <= t <= tmax}; dir need not be unit and t
/// is in units of dir. prox_ray_make gives tmin = 0, tmax = +inf. A zero dir
/// makes the ray the point origin + tmin dir = origin. tmin > tmax is
/// treated as the single parameter tmin.
typedef struct PROX_FN(prox_ray) {
  PROX_FN(prox_vec3) origin; ///< the point at t = 0
  PROX_FN(prox_vec3) dir;    ///< direction; t is in units of it
  PROX_REAL tmin;            ///< start of the interval of t (0 from prox_ray_make)
  PROX_REAL tmax;            ///< end of the interval (+inf from prox_ray_make)
} PROX_FN(prox_ray);

/// The segment from a (t = 0) to b (t = 1); a == b makes it a point.
typedef struct PROX_FN(prox_segment) {
  PROX_FN(prox_vec3) a; ///< start (t = 0)
  PROX_FN(prox_vec3) b; ///< end (t = 1)
} PROX_FN(prox_segment);

/// The triangle v[0] v[1] v[2]. Edge i joins v[i] and v[(i + 1) % 3]. A
/// triangle of zero area (collinear or coincident vertices) is the union of
/// its edges.
typedef struct PROX_FN(prox_triangle) {
  PROX_FN(prox_vec3) v[3]; ///< vertices; their order fixes the normal and the edges
} PROX_FN(prox_triangle);

/// The rectangle {center + s axis[0] + t axis[1] : |s| <= half[0],
/// |t| <= half[1]}. The axes are expected unit and orthogonal
/// (prox_rectangle_is_valid); prox_point_rectangle uses them as given (the
/// clamp formula on them). Negative half extents count as their absolute
/// value.
typedef struct PROX_FN(prox_rectangle) {
  PROX_FN(prox_vec3) center;  ///< center
  PROX_FN(prox_vec3) axis[2]; ///< unit, orthogonal in-plane axes
  PROX_REAL half[2];          ///< half extents along axis[0] and axis[1]
} PROX_FN(prox_rectangle);

/// The axis-aligned box spanned by the corners min and max, expected finite
/// and in order (min <= max on every axis; prox_aabb_is_valid). Zero size
/// is allowed. An axis with min > max still gets a defined answer from
/// every query, but not the same one: the closest-point queries
/// (prox_point_aabb, its signed and batch forms) take it as the single
/// value min, as a clamp does; the ray casts and overlap tests as the
/// interval between the two.
typedef struct PROX_FN(prox_aabb) {
  PROX_FN(prox_vec3) min; ///< lower corner
  PROX_FN(prox_vec3) max; ///< upper corner
} PROX_FN(prox_aabb);

/// The oriented box {center + sum_i s_i axis[i] : |s_i| <= half[i]}, with
/// orthonormal axes (either handedness). Negative half extents count as
/// their absolute value.
///
/// Every OBB query assumes orthonormal axes, as prox_obb_is_valid checks
/// them, and each uses them as given: prox_point_obb and its signed and
/// batch forms take the box coordinates s_i = (p - center) . axis[i],
/// clamp them to [-|half[i]|, |half[i]|] and return center + sum s_i
/// axis[i]; prox_raycast_obb clips the ray to the slabs |(x - center) .
/// axis[i]| <= |half[i]|; prox_overlap_obb_obb runs the separating-axis test
/// on the rotation axis[i] . b.axis[j]. With orthonormal axes these are the
/// same box. With a zero, non-unit or non-orthogonal axis they are not,
/// and the queries disagree (an axis of length 2 makes the box twice as
/// long for prox_point_obb as its half extent says, half as long for
/// prox_raycast_obb); their answers are then defined but not documented.
typedef struct PROX_FN(prox_obb) {
  PROX_FN(prox_vec3) center;  ///< center
  PROX_FN(prox_vec3) axis[3]; ///< orthonormal axes
  PROX_REAL half[3];          ///< half extents along each axis
} PROX_FN(prox_obb);

/// The solid ball of the given center and radius (a negative radius counts
/// as its absolute value).
typedef struct PROX_FN(prox_sphere) {
  PROX_FN(prox_vec3) center; ///< center
  PROX_REAL radius;          ///< radius (its absolute value is used)
} PROX_FN(prox_sphere);

/// The solid capsule: points within radius of the segment a b.
typedef struct PROX_FN(prox_capsule) {
  PROX_FN(prox_vec3) a; ///< first end of the axis segment
  PROX_FN(prox_vec3) b; ///< second end of the axis segment
  PROX_REAL radius;     ///< radius around the segment
} PROX_FN(prox_capsule);

/// The solid tetrahedron v[0..3] (either orientation). Face i is opposite
/// vertex i; edge i is the pair (0,1), (0,2), (0,3), (1,2), (1,3), (2,3) for
/// i = 0..5. A flat tetrahedron (zero volume) is the union of its faces.
typedef struct PROX_FN(prox_tetrahedron) {
  PROX_FN(prox_vec3) v[4]; ///< vertices (face i is opposite v[i])
} PROX_FN(prox_tetrahedron);

PROX_KERNEL int PROX_FN(prox_plane_from_normal)(PROX_FN(prox_vec3) n, PROX_REAL offset,
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

PROX_KERNEL int PROX_FN(prox_plane_from_point_normal)(PROX_FN(prox_vec3) p, PROX_FN(prox_vec3) n,
                                                      PROX_FN(prox_plane) * out) {
  if (!(PROX_FN(prox_vpoison)(p) == 0) || !PROX_FN(prox_plane_from_normal)(n, 0, out)) {
    out->normal = PROX_FN(prox_v3)(0, 0, 0);
    out->offset = 0;
    return 0;
  }
  out->offset = PROX_FN(prox_vdot)(out->normal, p);
  return 1;
}

PROX_KERNEL int PROX_FN(prox_plane_is_valid)(const PROX_FN(prox_plane) * plane) {
  PROX_FN(prox_vec3) n = plane->normal;
  return PROX_FN(prox_vpoison)(n) + (plane->offset - plane->offset) == 0 &&
         (n.x != 0 || n.y != 0 || n.z != 0);
}

PROX_KERNEL int PROX_FN(prox_aabb_is_valid)(const PROX_FN(prox_aabb) * box) {
  return PROX_FN(prox_vpoison)(box->min) + PROX_FN(prox_vpoison)(box->max) == 0 &&
         box->min.x <= box->max.x && box->min.y <= box->max.y && box->min.z <= box->max.z;
}

/// Internal: 1 when |a . b - want| <= PROX_AXES_TOL eps (0 for NaN).
PROX_DETAIL_KERNEL int PROX_FN(prox_detail_axes_dot_ok)(PROX_FN(prox_vec3) a, PROX_FN(prox_vec3) b,
                                                        PROX_REAL want) {
  return PROX_FABS(PROX_FN(prox_vdot)(a, b) - want) <= PROX_R(PROX_AXES_TOL) * PROX_EPS;
}

PROX_KERNEL int PROX_FN(prox_obb_is_valid)(const PROX_FN(prox_obb) * box) {
  int i, j,
      ok = PROX_FN(prox_vpoison)(box->center) + (box->half[0] - box->half[0]) +
               (box->half[1] - box->half[1]) + (box->half[2] - box->half[2]) ==
           0;
  for (i = 0; i < 3; ++i)
    for (j = i; j < 3; ++j)
      ok = ok && PROX_FN(prox_detail_axes_dot_ok)(box->axis[i], box->axis[j], i == j ? 1 : 0);
  return ok;
}

PROX_KERNEL int PROX_FN(prox_rectangle_is_valid)(const PROX_FN(prox_rectangle) * rect) {
  return PROX_FN(prox_vpoison)(rect->center) + (rect->half[0] - rect->half[0]) +
                 (rect->half[1] - rect->half[1]) ==
             0 &&
         PROX_FN(prox_detail_axes_dot_ok)(rect->axis[0], rect->axis[0], 1) &&
         PROX_FN(prox_detail_axes_dot_ok)(rect->axis[1], rect->axis[1], 1) &&
         PROX_FN(prox_detail_axes_dot_ok)(rect->axis[0], rect->axis[1], 0);
}

PROX_KERNEL PROX_FN(prox_ray)
    PROX_FN(prox_ray_make)(PROX_FN(prox_vec3) origin, PROX_FN(prox_vec3) dir) {
  PROX_FN(prox_ray) r;
  r.origin = origin;
  r.dir = dir;
  r.tmin = 0;
  r.tmax = PROX_INF;
  return r;
}
