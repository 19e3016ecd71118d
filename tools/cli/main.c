/* SPDX-License-Identifier: MIT */
/* The prox command: dispatch, --version, help texts. */
#include "cli.h"

#include <string.h>

static const char overview[] =
    "usage: prox COMMAND [ARGS...]\n"
    "\n"
    "3D proximity queries against triangle meshes (OBJ, PLY, STL).\n"
    "\n"
    "commands:\n"
    "  closest MESH POINTS    closest point on the mesh of every point\n"
    "  raycast MESH RAYS      first hit of every ray\n"
    "  distance A B           distances from mesh or point cloud A to mesh B\n"
    "  slice MESH -o OUT.png  signed distance on a plane, as a heat map\n"
    "  sdf MESH -o OUT.npy    signed distance on a grid, as NumPy .npy\n"
    "  info MESH              counts, bounds, topology, BVH statistics\n"
    "  demo                   the whole job on a built-in mesh, no input\n"
    "  help [COMMAND]         this text, or a command's\n"
    "\n"
    "options of every command: --threads N (0: all cores), --quiet (no\n"
    "progress bar), --help. 'prox --version' prints the version.\n"
    "\n"
    "exit status: 0 success, 1 bad input (unreadable or malformed file, bad\n"
    "numbers), 2 usage error. Interrupted by SIGINT (Ctrl-C), SIGTERM, SIGHUP\n"
    "or SIGPIPE, prox deletes the files it was writing (an output appears\n"
    "only complete) and dies of that signal: a shell shows 128 + its number,\n"
    "130 for Ctrl-C.\n";

static const char help_closest[] =
    "usage: prox closest MESH POINTS [-o OUT] [--signed] [--max-distance D]\n"
    "                    [--threads N] [--quiet]\n"
    "\n"
    "The closest point on MESH of every point of POINTS.\n"
    "\n"
    "POINTS: .csv, .xyz or .txt (three numbers a line separated by commas or\n"
    "white space, an optional header line, # comments) or .ply (vertex x, y,\n"
    "z); '-' reads standard input. Any size: points are streamed in chunks.\n"
    "\n"
    "  -o OUT            .csv (default: standard output) with the header\n"
    "                    x,y,z,cx,cy,cz,distance,triangle (doubles printed\n"
    "                    with %.17g, so that they read back exactly), or "
    ".ply:\n"
    "                    the points with a 'distance' property\n"
    "  --signed          the distance is signed (negative inside)\n"
    "  --max-distance D  points farther than D get distance inf, triangle -1\n"
    "  --threads N       threads (0, the default: all cores)\n"
    "  --quiet           no progress bar\n"
    "  --timings         the time of each step (load, build, read, query,\n"
    "                    write) on standard error\n";

static const char help_raycast[] =
    "usage: prox raycast MESH RAYS [-o OUT] [--threads N] [--quiet]\n"
    "\n"
    "The first hit on MESH of every ray of RAYS.\n"
    "\n"
    "RAYS: .csv, .xyz or .txt with six numbers a line, ox,oy,oz,dx,dy,dz,\n"
    "and an optional seventh, tmax (default inf); or .ply (vertex properties\n"
    "ox oy oz dx dy dz [tmax]); '-' reads standard input. Streamed.\n"
    "t is in units of the direction (the hit is origin + t direction).\n"
    "\n"
    "  -o OUT     .csv (default: standard output) with the header\n"
    "             hit,t,triangle,px,py,pz,nx,ny,nz; a miss is\n"
    "             0,inf,-1,nan,nan,nan,nan,nan,nan\n"
    "  --threads N, --quiet\n";

static const char help_distance[] =
    "usage: prox distance A B [-o OUT] [--samples N] [--json] [--threads N]\n"
    "                     [--quiet]\n"
    "\n"
    "Distances from A to the mesh B. A is a mesh (.obj, .ply with faces,\n"
    ".stl), sampled uniformly by area with a fixed seed, or a point cloud\n"
    "(.csv, .xyz, .txt, .ply without faces, '-').\n"
    "Prints the count, min, mean, RMS, max, the 50th/95th/99th percentiles,\n"
    "for two meshes the symmetric Hausdorff distance (the larger of the two\n"
    "directed maxima over the samples of each mesh), and a histogram.\n"
    "\n"
    "  -o OUT       per-point distances: .csv (x,y,z,distance) or .ply (the\n"
    "               points with a 'distance' scalar property)\n"
    "  --samples N  samples of a mesh A (default 1000000)\n"
    "  --json       the summary as one JSON object\n"
    "  --threads N, --quiet\n";

static const char help_slice[] =
    "usage: prox slice MESH [--axis x|y|z] [--at VALUE] [--size PIXELS]\n"
    "                  -o OUT.png [--threads N] [--quiet]\n"
    "\n"
    "The signed distance to MESH on the plane axis = VALUE (default: z\n"
    "through the middle of the mesh's box), as a PNG heat map: a diverging\n"
    "colour map centred on 0 (blue inside, red outside, each side scaled\n"
    "to its own extreme), the zero contour in black and a colour bar with\n"
    "values. The picture covers the mesh's\n"
    "box with a margin; PIXELS (default 512) is its longer side.\n"
    "Needs libpng at build time.\n";

static const char help_sdf[] =
    "usage: prox sdf MESH [--res N | --voxel SIZE] [--pad F] -o OUT.npy\n"
    "                [--unsigned] [--threads N] [--quiet]\n"
    "\n"
    "The signed distance to MESH (negative inside) on a regular grid over\n"
    "the mesh's box, written as NumPy .npy (float32, shape (nz, ny, nx),\n"
    "x fastest) with a JSON sidecar OUT.json holding the origin, spacing and\n"
    "shape: numpy.load('OUT.npy')[k, j, i] is the distance at\n"
    "origin + (i, j, k) * spacing.\n"
    "\n"
    "  --res N       grid points along the longest side (default 64)\n"
    "  --voxel SIZE  grid spacing instead of --res\n"
    "  --pad F       margin around the box, a fraction of its longest side\n"
    "                (default 0.1)\n"
    "  --unsigned    the unsigned distance instead\n";

static const char help_info[] =
    "usage: prox info MESH [--json] [--threads N]\n"
    "\n"
    "Vertices, triangles, bounding box, topology (closed, manifold, boundary\n"
    "edges, degenerate triangles), BVH nodes, depth, bytes per triangle and\n"
    "the load and build times. --json prints one JSON object.\n";

static const char help_demo[] =
    "usage: prox demo [--threads N] [--quiet]\n"
    "\n"
    "The main job without input: builds a procedural mesh of about 200k\n"
    "triangles (a bumpy trefoil-knot tube), answers 1M closest-point queries\n"
    "and 1M ray casts, prints a summary with timings and writes the slice\n"
    "heat map demo_slice.png in the current directory (where libpng was\n"
    "found at build time).\n";

const char *cli_help_text(const char *command) {
  static const struct {
    const char *name, *text;
  } table[] = {{"closest", help_closest}, {"raycast", help_raycast}, {"distance", help_distance},
               {"slice", help_slice},     {"sdf", help_sdf},         {"info", help_info},
               {"demo", help_demo}};
  size_t i;
  if (!command) return overview;
  for (i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(table[i].name, command) == 0) return table[i].text;
  return NULL;
}

int cli_wants_help(int argc, char **argv, const char *command) {
  int i;
  for (i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "--") == 0) break;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(cli_help_text(command), stdout);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*run)(int, char **);
  } commands[] = {{"closest", cli_cmd_closest},   {"raycast", cli_cmd_raycast},
                  {"distance", cli_cmd_distance}, {"slice", cli_cmd_slice},
                  {"sdf", cli_cmd_sdf},           {"info", cli_cmd_info},
                  {"demo", cli_cmd_demo}};
  const char *cmd;
  size_t i;
  if (argc < 2) {
    fputs(overview, stderr);
    return CLI_USAGE;
  }
  cmd = argv[1];
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    int v = prox_version();
    printf("prox %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
    return CLI_OK;
  }
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    const char *text;
    if (argc < 3) {
      fputs(overview, stdout);
      return CLI_OK;
    }
    text = cli_help_text(argv[2]);
    if (!text) return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
    fputs(text, stdout);
    return CLI_OK;
  }
  for (i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    if (strcmp(commands[i].name, cmd) == 0) {
      if (cli_wants_help(argc - 2, argv + 2, cmd)) return CLI_OK;
      return commands[i].run(argc - 2, argv + 2);
    }
  return cli_usage_error(NULL, "unknown command '%s'", cmd);
}
