/* SPDX-License-Identifier: MIT */
/* prox info MESH [--json]: counts, bounds, topology, the sign method AUTO
 * takes, BVH statistics. */
#include "cli.h"

#include <string.h>

int cli_cmd_info(int argc, char **argv) {
  cli_args a = {argc, argv, 0, "info"};
  cli_common c = {0, 0, 0};
  const char *mesh_path = NULL;
  int r, rc, have_topo;
  cli_mesh m;
  prox_bvh_stats st;
  cli_topology topo;
  while (a.i < argc) {
    const char *s = argv[a.i];
    if ((r = cli_common_option(&a, &c, 1)) != 0) {
      if (r < 0) return CLI_USAGE;
      continue;
    }
    if (s[0] == '-' && s[1] != '\0') return cli_usage_error(a.command, "unknown option '%s'", s);
    if (mesh_path) return cli_usage_error(a.command, "too many arguments ('%s')", s);
    mesh_path = s;
    a.i++;
  }
  if (!mesh_path) return cli_usage_error(a.command, "needs MESH");
  if ((rc = cli_mesh_load(&m, mesh_path)) != CLI_OK) return rc;
  if ((rc = cli_mesh_build(&m, mesh_path, c.threads)) != CLI_OK) {
    cli_mesh_free(&m);
    return rc;
  }
  prox_bvh_get_stats(m.bvh, &st);
  have_topo = cli_mesh_topology(&m, &topo);
  /* The sign the distance commands take (prox_sdf_build()'s AUTO). */
  if (have_topo && (rc = cli_mesh_build_sign(&m, mesh_path)) != CLI_OK) {
    cli_mesh_free(&m);
    return rc;
  }
  if (c.json) {
    printf("{\"file\": ");
    cli_json_string(mesh_path);
    printf(", \"vertices\": %zu, \"triangles\": %zu, ", m.mesh.vertex_count, m.mesh.triangle_count);
    printf("\"bounds\": {\"min\": [%.17g, %.17g, %.17g], "
           "\"max\": [%.17g, %.17g, %.17g]}, ",
           m.lo[0], m.lo[1], m.lo[2], m.hi[0], m.hi[1], m.hi[2]);
    if (have_topo)
      printf("\"closed\": %s, \"manifold\": %s, \"oriented\": %s, "
             "\"boundary_edges\": %llu, \"nonmanifold_edges\": %llu, "
             "\"nonmanifold_vertices\": %llu, \"degenerate_triangles\": %llu, "
             "\"components\": %llu, \"self_intersections\": %llu, ",
             topo.closed ? "true" : "false", topo.manifold ? "true" : "false",
             topo.oriented ? "true" : "false", (unsigned long long)topo.boundary_edges,
             (unsigned long long)topo.nonmanifold_edges,
             (unsigned long long)topo.nonmanifold_vertices,
             (unsigned long long)topo.degenerate_triangles, (unsigned long long)topo.components,
             (unsigned long long)topo.self_intersections);
    else
      printf("\"closed\": null, \"manifold\": null, \"oriented\": null, "
             "\"boundary_edges\": null, \"nonmanifold_edges\": null, "
             "\"nonmanifold_vertices\": null, \"degenerate_triangles\": null, "
             "\"components\": null, \"self_intersections\": null, ");
    printf("\"bvh\": {\"nodes\": %zu, \"leaves\": %zu, \"depth\": %d, "
           "\"bytes\": %zu, \"bytes_per_triangle\": %.6g}, ",
           st.nodes, st.leaves, st.depth, st.bytes, st.bytes_per_triangle);
    printf("\"sign_method\": ");
    cli_json_string(cli_sign_method(&m));
    printf(", \"load_seconds\": %.6f, \"build_seconds\": %.6f}\n", m.load_s, m.build_s);
  } else {
    printf("%s\n", mesh_path);
    printf("  vertices              %zu\n", m.mesh.vertex_count);
    printf("  triangles             %zu\n", m.mesh.triangle_count);
    printf("  bounds min            %.9g %.9g %.9g\n", m.lo[0], m.lo[1], m.lo[2]);
    printf("  bounds max            %.9g %.9g %.9g\n", m.hi[0], m.hi[1], m.hi[2]);
    printf("  size                  %.9g %.9g %.9g\n", m.hi[0] - m.lo[0], m.hi[1] - m.lo[1],
           m.hi[2] - m.lo[2]);
    if (have_topo) {
      printf("  closed                %s\n", topo.closed ? "yes" : "no");
      printf("  manifold              %s\n", topo.manifold ? "yes" : "no");
      printf("  oriented              %s\n", topo.oriented ? "yes" : "no");
      printf("  boundary edges        %llu\n", (unsigned long long)topo.boundary_edges);
      printf("  non-manifold edges    %llu\n", (unsigned long long)topo.nonmanifold_edges);
      printf("  non-manifold vertices %llu\n", (unsigned long long)topo.nonmanifold_vertices);
      printf("  degenerate triangles  %llu (zero area)\n",
             (unsigned long long)topo.degenerate_triangles);
      printf("  components            %llu\n", (unsigned long long)topo.components);
      printf("  self-intersections    %llu (pairs of triangles that meet)\n",
             (unsigned long long)topo.self_intersections);
    } else {
      printf("  topology              could not be computed "
             "(closed, manifold, boundary edges, degenerate triangles)\n");
    }
    printf("  sign method           %s\n", cli_sign_method(&m));
    printf("  BVH nodes             %zu (%zu leaves)\n", st.nodes, st.leaves);
    printf("  BVH depth             %d\n", st.depth);
    printf("  BVH memory            %zu bytes, %.1f bytes per triangle\n", st.bytes,
           st.bytes_per_triangle);
    printf("  load time             %.3f s\n", m.load_s);
    printf("  build time            %.3f s\n", m.build_s);
  }
  cli_mesh_free(&m);
  return CLI_OK;
}
