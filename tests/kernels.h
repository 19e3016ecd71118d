/* SPDX-License-Identifier: MIT */
/* The registry of the kernels: one line per kernel, as X-macros, from which
 * the checks that run every kernel of a family take their lists
 * (test_domain, test_scale, test_pairs, test_raycast, test_overlap,
 * test_property, test_closest's NaN test and the order of its oracle tests,
 * test_contact's values, non-finite input and derivatives, the CUDA checks
 * tests/cuda/, and test_readme, which checks README.md's table of every
 * kernel). Adding a kernel to a family means adding its line here; the
 * checks then run it. Its oracle is kernel-specific: a K1 kernel's goes in
 * test_closest's test of its primitive (TC_TESTS_<prim>), and
 * test_registry_coverage fails until a K1 kernel of the registry has cases
 * there; a K4 kernel's in contact_oracle.h (below).
 *
 * Each PROX_KERNELS_<FAMILY>(X) expands X(...) once per kernel, in the
 * order of the lines. A kernel may go anywhere in its family: no test
 * draws a kernel's random inputs from its place in the list. A kernel's
 * own draws come from a generator seeded by its name and the test's seed
 * (oracle_rng_named in tests/rng.h), and the inputs that all the kernels
 * of a family share are drawn before, independently of the list; so
 * adding, removing or moving a kernel changes no other kernel's inputs,
 * only the order in which tests run and tables print. A test that draws
 * per kernel must keep to this. Names are without the prox_ prefix and the
 * precision suffix: X(point_plane, ...) is prox_point_plane and
 * prox_point_planef. Plain C, also read by nvcc. */
#ifndef PROX_TEST_KERNELS_H
#define PROX_TEST_KERNELS_H

/* K1, point against primitive: X(name, prim, degree, param_degree), called
 * as prox_<name>(p, &prim, out).
 *   prim          the primitive argument, by its member name in k1_prims
 *                 (tests/k1_prims.h): pl plane, ln line, ry ray, sg
 *                 segment, tr triangle, rc rectangle, ab aabb, ob obb, sp
 *                 sphere, cp capsule, te tetrahedron
 *   degree        of the returned value in the coordinates: 2 a squared
 *                 distance, 1 a signed distance
 *   param_degree  of the result's parameters: 0 ratios (segment t,
 *                 barycentrics), 1 lengths (box coordinates) */
#define PROX_KERNELS_K1(X)                                                                         \
  X(point_plane, pl, 2, 0)                                                                         \
  X(point_line, ln, 2, 0)                                                                          \
  X(point_ray, ry, 2, 0)                                                                           \
  X(point_segment, sg, 2, 0)                                                                       \
  X(point_triangle, tr, 2, 0)                                                                      \
  X(point_rectangle, rc, 2, 1)                                                                     \
  X(point_aabb, ab, 2, 0)                                                                          \
  X(point_obb, ob, 2, 1)                                                                           \
  X(point_sphere, sp, 2, 0)                                                                        \
  X(point_capsule, cp, 2, 0)                                                                       \
  X(point_tetrahedron, te, 2, 0)                                                                   \
  X(point_plane_signed, pl, 1, 0)                                                                  \
  X(point_aabb_signed, ab, 1, 1)                                                                   \
  X(point_obb_signed, ob, 1, 1)                                                                    \
  X(point_sphere_signed, sp, 1, 0)                                                                 \
  X(point_capsule_signed, cp, 1, 0)                                                                \
  X(point_tetrahedron_signed, te, 1, 0)

/* K2, pairs: X(name, first, second), called as prox_<name>(&first_1,
 * &second_2, out): the types of the two arguments (line, ray, segment,
 * triangle, sphere, capsule: prox_<type>), which the tests name <type>_1
 * for a first argument and <type>_2 for a second. */
#define PROX_KERNELS_K2(X)                                                                         \
  X(line_line, line, line)                                                                         \
  X(line_ray, line, ray)                                                                           \
  X(line_segment, line, segment)                                                                   \
  X(ray_ray, ray, ray)                                                                             \
  X(ray_segment, ray, segment)                                                                     \
  X(segment_segment, segment, segment)                                                             \
  X(segment_triangle, segment, triangle)                                                           \
  X(triangle_triangle, triangle, triangle)                                                         \
  X(sphere_sphere, sphere, sphere)                                                                 \
  X(sphere_capsule, sphere, capsule)                                                               \
  X(capsule_capsule, capsule, capsule)                                                             \
  X(sphere_segment, sphere, segment)                                                               \
  X(capsule_segment, capsule, segment)                                                             \
  X(sphere_triangle, sphere, triangle)                                                             \
  X(capsule_triangle, capsule, triangle)

/* K3, ray casts: X(name, prim, solid), called as prox_<name>(&ray, &prim,
 * hit); prim as for K1; solid: 1 for a closed solid (a ray may start
 * inside it), 0 for a surface (plane, triangle). */
#define PROX_KERNELS_K3(X)                                                                         \
  X(raycast_plane, pl, 0)                                                                          \
  X(raycast_triangle, tr, 0)                                                                       \
  X(raycast_aabb, ab, 1)                                                                           \
  X(raycast_obb, ob, 1)                                                                            \
  X(raycast_sphere, sp, 1)                                                                         \
  X(raycast_capsule, cp, 1)                                                                        \
  X(raycast_tetrahedron, te, 1)

/* Overlap tests: X(name, first, second), called as prox_<name>(&first,
 * &second) with prims as for K1 (the first from one set of primitives, the
 * second from another). */
#define PROX_KERNELS_OVERLAP(X)                                                                    \
  X(overlap_aabb_aabb, ab, ab)                                                                     \
  X(overlap_obb_obb, ob, ob)                                                                       \
  X(overlap_triangle_aabb, tr, ab)                                                                 \
  X(overlap_sphere_triangle, sp, tr)                                                               \
  X(overlap_triangle_triangle, tr, tr)

/* Validity checks of user data: X(name, prim), prox_<name>(&prim). */
#define PROX_KERNELS_VALID(X)                                                                      \
  X(plane_is_valid, pl)                                                                            \
  X(aabb_is_valid, ab)                                                                             \
  X(obb_is_valid, ob)                                                                              \
  X(rectangle_is_valid, rc)

/* K4, contact distances with their derivatives: X(name, coords, degree,
 * verts, type, bound, gen, shape): prox_ipc_<name>(args), prox_ipc_<name>_gradient(args,
 * g), prox_ipc_<name>_hessian(args, g, h), args being
 * PROX_KERNELS_K4_ARGS(verts, type, v0, v1, v2, v3).
 *   coords  3 verts, the length of the gradient
 *   degree  of the value in the coordinates (2 a squared distance, 4 the
 *           squared norm of a cross product)
 *   verts   the number of vertices taken (2, 3 or 4)
 *   type    the distance-type argument: NONE, or PE, PT, EE (AUTO)
 *   bound   the error of the value that test_contact asserts against its
 *           exact oracle: in units of eps S^2 for degree 2 (S the largest
 *           input coordinate magnitude; two ulps of the largest squared
 *           distance its inputs reach), of eps |v1 - v0|^2 |v3 - v2|^2 for
 *           degree 4 (the squared norm of the cross product of the edges)
 *   gen     the random cases of test_contact's value tests: pe (p, e0, e1),
 *           pt (p, t0, t1, t2) or ee (ea0, ea1, eb0, eb1), gen_<gen> there;
 *           the kernel takes the first verts of them
 *   shape   the formula the kernel evaluates, by type, whose smoothness
 *           the tests read: cs_<shape> in tests/contact_shape.h, none,
 *           pl, plane, ll (the point-line, point-plane or line-line
 *           formula on the kernel's vertices), pe, pt, ee (the formula of
 *           the type the kernel evaluates). test_property holds the
 *           kernel to contact.h's condition on the shape of that formula;
 *           test_contact takes finite differences where it is
 *           comfortably smooth, and runs the kernel (in each type that
 *           has it) on the near-singular shapes of that formula
 * The kernel's oracle, in tests/contact_oracle.h: q_<name>(out, v, type),
 * the exact value of its formula (of the given type if it takes one) and
 * whether the feet of the closest points lie within [-1, 2] of their
 * feature; a kernel with a type also q_<name>_class, the exact minimum
 * and the classification its _type function must return. test_contact
 * checks its values, types, non-finite input and derivatives from these,
 * test_property its finiteness and scaling; a kernel of degree 4 is
 * tested in the domain of the edge-edge mollifier (contact.h). */
#define PROX_KERNELS_K4(X)                                                                         \
  X(point_point_distance, 6, 2, 2, NONE, 16, pt, none)                                             \
  X(point_line_distance, 9, 2, 3, NONE, 16, pt, pl)                                                \
  X(point_plane_distance, 12, 2, 4, NONE, 16, pt, plane)                                           \
  X(line_line_distance, 12, 2, 4, NONE, 16, ee, ll)                                                \
  X(point_edge_distance, 9, 2, 3, PE, 16, pe, pe)                                                  \
  X(point_triangle_distance, 12, 2, 4, PT, 16, pt, pt)                                             \
  X(edge_edge_distance, 12, 2, 4, EE, 16, ee, ee)                                                  \
  X(edge_edge_cross_squarednorm, 12, 4, 4, NONE, 8, ee, none)

/* The arguments of a K4 kernel: its first `verts` of v0..v3, then its type
 * argument (PROX_PE_AUTO, ...) if it has one. */
#define PROX_KERNELS_K4_ARGS(verts, type, v0, v1, v2, v3)                                          \
  PROX_KERNELS_VERTS_##verts(v0, v1, v2, v3) PROX_KERNELS_TYPE_##type
#define PROX_KERNELS_VERTS_2(v0, v1, v2, v3) v0, v1
#define PROX_KERNELS_VERTS_3(v0, v1, v2, v3) v0, v1, v2
#define PROX_KERNELS_VERTS_4(v0, v1, v2, v3) v0, v1, v2, v3
#define PROX_KERNELS_TYPE_NONE
#define PROX_KERNELS_TYPE_PE , PROX_PE_AUTO
#define PROX_KERNELS_TYPE_PT , PROX_PT_AUTO
#define PROX_KERNELS_TYPE_EE , PROX_EE_AUTO

/* The same with the type argument t instead of AUTO (cast to the kernel's
 * type enum). */
#define PROX_KERNELS_K4_ARGS_T(verts, type, v0, v1, v2, v3, t)                                     \
  PROX_KERNELS_VERTS_##verts(v0, v1, v2, v3) PROX_KERNELS_T_##type(t)
#define PROX_KERNELS_T_NONE(t)
#define PROX_KERNELS_T_PE(t) , (prox_ipc_pe_type)(t)
#define PROX_KERNELS_T_PT(t) , (prox_ipc_pt_type)(t)
#define PROX_KERNELS_T_EE(t) , (prox_ipc_ee_type)(t)

/* By a K4 kernel's type column: PROX_KERNELS_AUTO_<type>, its AUTO type,
 * which is also its number of types (0 without a type argument), and
 * PROX_KERNELS_TYPED_<type>(yes, no), yes for a kernel with a type
 * argument, else no. */
#define PROX_KERNELS_AUTO_NONE 0
#define PROX_KERNELS_AUTO_PE PROX_PE_AUTO
#define PROX_KERNELS_AUTO_PT PROX_PT_AUTO
#define PROX_KERNELS_AUTO_EE PROX_EE_AUTO
#define PROX_KERNELS_TYPED_NONE(yes, no) no
#define PROX_KERNELS_TYPED_PE(yes, no) yes
#define PROX_KERNELS_TYPED_PT(yes, no) yes
#define PROX_KERNELS_TYPED_EE(yes, no) yes

/* The number of kernels of a family, a constant expression:
 * PROX_KERNELS_COUNT(PROX_KERNELS_K1). */
#define PROX_KERNELS_COUNT(family) (0 family(PROX_KERNELS_ONE))
#define PROX_KERNELS_ONE(...) +1

#endif /* PROX_TEST_KERNELS_H */
