/* SPDX-License-Identifier: MIT */
/* Template: one primitive of every K1 kind built from four points, and the
 * degenerate forms of the six points of the K2 tests, for the tests that
 * run every query on the same input (test_domain, test_scale). Included once
 * per precision inside their templates, with VEC and TFN(name) defined and
 * prox/detail/real_*.h in effect. */

/* a + t (b - a): no overflow for |a|, |b| within the domain. */
static VEC TFN(k1_lerp)(VEC a, VEC b, PROX_REAL t) {
  return PROX_FN(prox_v3)(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z));
}

typedef struct TFN(k1_prims) {
  PROX_FN(prox_plane) pl;
  PROX_FN(prox_line) ln;
  PROX_FN(prox_ray) ry;
  PROX_FN(prox_segment) sg;
  PROX_FN(prox_triangle) tr;
  PROX_FN(prox_rectangle) rc;
  PROX_FN(prox_aabb) ab;
  PROX_FN(prox_obb) ob;
  PROX_FN(prox_sphere) sp;
  PROX_FN(prox_capsule) cp;
  PROX_FN(prox_tetrahedron) te;
} TFN(k1_prims);

/* The primitives of a, b, v2 and v3: the plane through offset a.x with a
 * fixed normal; line and ray from a towards the midpoint of a b (the ray
 * for t in [0, 2]); segment a b; triangle a b v2; rectangle and box
 * centered at v2 with fixed axes and half extents from b (the first 0 when
 * deg == 1); axis-aligned box with corners a and b; sphere and capsule
 * around a and a b with radius v3.x (0 when deg == 1); tetrahedron a b v2
 * v3. */
static void TFN(k1_prims_make)(TFN(k1_prims) * g, VEC a, VEC b, VEC v2, VEC v3, int deg) {
  PROX_FN(prox_plane_from_normal)(PROX_FN(prox_v3)(1, 2, -2), a.x, &g->pl);
  g->ln.origin = a;
  g->ln.dir = PROX_FN(prox_vsub)(TFN(k1_lerp)(a, b, PROX_R(0.5)), a);
  g->ry.origin = a;
  g->ry.dir = g->ln.dir;
  g->ry.tmin = 0;
  g->ry.tmax = 2;
  g->sg.a = a;
  g->sg.b = b;
  g->tr.v[0] = a;
  g->tr.v[1] = b;
  g->tr.v[2] = v2;
  g->rc.center = v2;
  g->rc.axis[0] = PROX_FN(prox_v3)(PROX_R(0.6), PROX_R(0.8), 0);
  g->rc.axis[1] = PROX_FN(prox_v3)(0, 0, -1);
  g->rc.half[0] = deg == 1 ? 0 : b.x;
  g->rc.half[1] = b.y;
  g->ab.min = a;
  g->ab.max = b;
  g->ob.center = v2;
  g->ob.axis[0] = g->rc.axis[0];
  g->ob.axis[1] = PROX_FN(prox_v3)(PROX_R(-0.8), PROX_R(0.6), 0);
  g->ob.axis[2] = g->rc.axis[1];
  g->ob.half[0] = g->rc.half[0];
  g->ob.half[1] = b.y;
  g->ob.half[2] = b.z;
  g->sp.center = a;
  g->sp.radius = deg == 1 ? 0 : v3.x;
  g->cp.a = a;
  g->cp.b = b;
  g->cp.radius = g->sp.radius;
  g->te.v[0] = a;
  g->te.v[1] = b;
  g->te.v[2] = v2;
  g->te.v[3] = v3;
}

/* The K2 tests' degenerate forms of six points, by kind: 1, v[1] = v[0]
 * (zero length); 2, v[3] - v[2] parallel to v[1] - v[0]; 3, v[4] on the
 * segment v[2] v[3] and v[0] on v[2] v[4] (a collinear triangle, touching);
 * 0, general (unchanged). t in [0, 1]. */
static void TFN(k2_points_degenerate)(VEC *v, int deg, PROX_REAL t) {
  if (deg == 1) v[1] = v[0];
  if (deg == 2)
    v[3] = PROX_FN(prox_vadd)(v[2], PROX_FN(prox_vsub)(TFN(k1_lerp)(v[0], v[1], t), v[0]));
  if (deg == 3) {
    v[4] = TFN(k1_lerp)(v[2], v[3], t);
    v[0] = TFN(k1_lerp)(v[2], v[4], t);
  }
}
