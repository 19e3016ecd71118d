/* SPDX-License-Identifier: MIT */
/// @file prox_io.h
/// @brief File input and output of the prox command: mesh readers (OBJ, PLY,
/// STL), a streaming reader of point and ray records (CSV/XYZ/TXT, PLY) and
/// writers (CSV, binary PLY point clouds, NumPy .npy with a JSON sidecar).
///
/// This is the static library prox_io under tools/io. The core library never
/// links it (the core stays libm-only); it needs only the C library and the
/// types of <prox/base.h> (prox_status, prox_error).
///
/// Errors. Every function that can fail returns a prox_status and, when its
/// `prox_error *` argument is not NULL, fills it: PROX_ERROR_IO when a file
/// cannot be opened, read or written, PROX_ERROR_PARSE when its contents are
/// malformed, PROX_ERROR_OUT_OF_MEMORY when an allocation fails,
/// PROX_ERROR_INVALID_ARGUMENT for a NULL required pointer or a bad option.
/// The message names the file and the place: `FILE:LINE: what is wrong` for
/// text, `FILE: byte N: what is wrong` for binary data (N counted from 0).
/// A reader that fails returns no data (its result is left empty and owns
/// nothing); partial data is never returned as a success.
///
/// Numbers in text files are decimal (`[+-]digits[.digits][(e|E)[+-]digits]`,
/// also `.5` and `5.`), converted to the nearest double (the exact result of
/// strtod in the "C" locale). `nan`, `inf`, hexadecimal floats and numbers
/// that overflow to infinity are parse errors, and so are non-finite values
/// in binary files: a mesh or a point record never holds NaN or infinity.
#ifndef PROX_IO_H
#define PROX_IO_H

#include <prox/base.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

PROX_EXTERN_C_BEGIN

/* ------------------------------------------------------------------------ */
/* Meshes                                                                   */
/* ------------------------------------------------------------------------ */

/// Mesh file formats.
typedef enum prox_io_format {
  PROX_IO_FORMAT_UNKNOWN = 0,
  PROX_IO_FORMAT_OBJ = 1, ///< Wavefront OBJ
  PROX_IO_FORMAT_PLY = 2, ///< PLY, ascii or binary (either byte order)
  PROX_IO_FORMAT_STL = 3  ///< STL, ascii or binary
} prox_io_format;

/// Options of the mesh readers. A NULL options pointer means all zero.
typedef struct prox_io_mesh_options {
  /// STL only: merge vertices whose positions are exactly equal (0.0 and
  /// -0.0 are equal). Vertices keep the order of their first occurrence, so
  /// the output is deterministic. Without it an STL gives three vertices
  /// per triangle. OBJ and PLY vertices are returned as stored.
  int weld;
} prox_io_mesh_options;

/// A triangle mesh read from a file. Owns its arrays; release with
/// prox_io_mesh_free().
typedef struct prox_io_mesh {
  double *vertices;      ///< 3 * vertex_count doubles, x y z packed
  uint32_t *triangles;   ///< 3 * triangle_count indices into vertices
  size_t vertex_count;   ///< vertices (at most UINT32_MAX)
  size_t triangle_count; ///< triangles after fan triangulation
  /// Polygons of more than three corners that were fan-triangulated
  /// (corners 0, i, i + 1).
  size_t polygons_triangulated;
  /// Records read and ignored: OBJ lines other than `v` and `f` (vt, vn, o,
  /// g, s, usemtl, mtllib, l, p, unknown keywords); PLY elements other than
  /// vertex and face (counted per element instance); 0 for STL.
  size_t records_skipped;
  /// STL with weld: triangle corners that were merged into an earlier
  /// vertex; 0 otherwise.
  size_t vertices_welded;
  prox_io_format format; ///< the format that was read
  int binary;            ///< 1 for binary PLY and binary STL, else 0
} prox_io_mesh;

/// The format of a mesh file from its name's extension (`.obj`, `.ply`,
/// `.stl`, any case), PROX_IO_FORMAT_UNKNOWN for another name or NULL.
prox_io_format prox_io_format_from_path(const char *path);

/// Reads a mesh file whose format is given by its extension
/// (prox_io_format_from_path). The whole file is mapped read-only (mmap,
/// on POSIX systems) or, where it cannot be mapped, read with one read;
/// nothing is allocated per line or record. (A mapped file that another
/// process truncates while it is being read raises SIGBUS, as with any
/// mapping: do not read files that are being rewritten.) On success fills
/// `mesh` (which the caller frees with
/// prox_io_mesh_free) and returns PROX_OK. On failure returns
/// PROX_ERROR_IO (cannot open or read), PROX_ERROR_PARSE (malformed
/// contents, an unknown extension), PROX_ERROR_OUT_OF_MEMORY or
/// PROX_ERROR_INVALID_ARGUMENT (NULL path or mesh), leaves `mesh` empty
/// (all zero) and fills `err` when not NULL.
prox_status prox_io_read_mesh(const char *path, const prox_io_mesh_options *options,
                              prox_io_mesh *mesh, prox_error *err);

/// Parses a mesh of the given format held in memory; `name` is the file
/// name used in messages (NULL: "<memory>"). `data` need not be
/// NUL-terminated and is not modified. Same results and errors as
/// prox_io_read_mesh.
///
/// OBJ: `v x y z [more numbers]` and `f` records whose corners are `v`,
/// `v/vt`, `v//vn` or `v/vt/vn`; negative indices count back from the last
/// vertex defined so far; an index of 0 or out of range is an error, and so
/// is a face of fewer than three corners; other records and `#` comments are
/// skipped; CRLF and blank lines are accepted. Line continuations (`\`) are
/// not supported.
///
/// PLY: `format ascii|binary_little_endian|binary_big_endian 1.0`; scalar
/// types char uchar short ushort int uint float double and int8 uint8 int16
/// uint16 int32 uint32 float32 float64; element `vertex` with scalar
/// properties x, y, z (any type, anywhere among other properties); element
/// `face` with a list property `vertex_indices` or `vertex_index` (any count
/// and index types). Other elements and properties, scalar or list, are
/// skipped; `comment` and `obj_info` lines are ignored. Ascii values are read
/// as written (not rounded to the declared type). A count in the header that
/// the file is too short to hold is an error before anything is allocated.
///
/// STL: binary when the size is 84 + 50 n bytes, n the count at byte 80
/// (whatever the header says, "solid" included); otherwise ascii, which
/// must start with `solid`. Ascii facets with more than three vertices are
/// fan-triangulated. Normals are read and ignored.
prox_status prox_io_parse_mesh(const char *name, prox_io_format format, const void *data,
                               size_t size, const prox_io_mesh_options *options, prox_io_mesh *mesh,
                               prox_error *err);

/// Frees the arrays of a mesh and sets it to all zero. NULL and an all-zero
/// mesh are accepted.
void prox_io_mesh_free(prox_io_mesh *mesh);

/* ------------------------------------------------------------------------ */
/* Points and rays: streaming reader                                        */
/* ------------------------------------------------------------------------ */

/// The largest number of fields a record of prox_io_records may have.
#define PROX_IO_MAX_FIELDS 16

/// What prox_io_records_open reads: records of min_fields to max_fields
/// numbers. Each record is returned as max_fields doubles; fields absent
/// from a record get `defaults[i]`.
typedef struct prox_io_records_options {
  int min_fields; ///< 1 to max_fields
  int max_fields; ///< min_fields to PROX_IO_MAX_FIELDS
  /// Values of the optional fields min_fields .. max_fields - 1 (others
  /// unused); may hold infinity (a ray's tmax).
  double defaults[PROX_IO_MAX_FIELDS];
  /// PLY input: the vertex properties read as the fields, max_fields names
  /// (a field from min_fields on may be absent from the file). NULL means
  /// x, y, z (then max_fields must be 3).
  const char *const *ply_names;
  /// Bytes of the read buffer (0: 1 MiB). Lines longer than the buffer grow
  /// it up to 64 times this size; a longer line is an error.
  size_t buffer_size;
} prox_io_records_options;

/// Options for three coordinates a record (points): x y z.
prox_io_records_options prox_io_records_points(void);

/// Options for rays: ox oy oz dx dy dz and an optional seventh field tmax
/// (default +infinity). PLY names: ox oy oz dx dy dz tmax.
prox_io_records_options prox_io_records_rays(void);

/// A streaming reader of numeric records (opaque).
typedef struct prox_io_records prox_io_records;

/// Opens a file of records: `path` "-" is standard input (read as text, or
/// as PLY when it starts with "ply"); a name ending in `.ply` is PLY (the
/// vertex element, ascii or binary, see prox_io_parse_mesh); any other name
/// (`.csv`, `.xyz`, `.txt`, ...) is text: per line min_fields to max_fields
/// numbers separated by commas and/or white space, `#` starts a comment,
/// blank lines are skipped, and the first line that holds something may be
/// a header (it is skipped when its first field is not a number and it
/// holds a letter: `x,y,z`, `ox oy oz dx dy dz`). Non-finite numbers are
/// errors. The PLY vertex element must be the file's first element (what
/// follows it is not read). Memory stays bounded by the buffer whatever the
/// file size, so pipes of any length work. Returns
/// PROX_OK and sets `*reader`, or an error (then `*reader` is NULL):
/// PROX_ERROR_IO, PROX_ERROR_PARSE (PLY header), PROX_ERROR_OUT_OF_MEMORY,
/// PROX_ERROR_INVALID_ARGUMENT (bad options, NULL path or reader).
prox_status prox_io_records_open(const char *path, const prox_io_records_options *options,
                                 prox_io_records **reader, prox_error *err);

/// As prox_io_records_open, on a stream the caller has opened (and closes
/// after prox_io_records_close, which does not close it). `name` is used in
/// messages (NULL: "<stream>"). `ply`: 1 PLY, 0 text, -1 PLY when the
/// stream starts with a "ply" line. Same results and errors.
prox_status prox_io_records_open_stream(FILE *stream, const char *name, int ply,
                                        const prox_io_records_options *options,
                                        prox_io_records **reader, prox_error *err);

/// Reads up to `capacity` records into `values` (capacity * max_fields
/// doubles, record after record) and sets `*count` to the number read; 0
/// means the end of the file. Returns PROX_OK, or PROX_ERROR_PARSE (a
/// malformed record, a non-finite number, a truncated PLY; the message
/// names the line or byte) or PROX_ERROR_IO; after an error every further
/// call returns the same error. The records before the bad one may already
/// have been returned by earlier calls: a caller that must not act on a
/// partial file has to read to the end first.
prox_status prox_io_records_next(prox_io_records *reader, double *values, size_t capacity,
                                 size_t *count, prox_error *err);

/// Records returned so far.
uint64_t prox_io_records_count(const prox_io_records *reader);

/// Closes the file (not standard input) and frees the reader; NULL is
/// accepted.
void prox_io_records_close(prox_io_records *reader);

/* ------------------------------------------------------------------------ */
/* Writers                                                                  */
/* ------------------------------------------------------------------------ */

/// A buffered output file (opaque): text for CSV, bytes for PLY and .npy.
typedef struct prox_io_out prox_io_out;

/// Opens `path` for writing ("-" is standard output). Returns PROX_OK and
/// sets `*out`, or PROX_ERROR_IO / PROX_ERROR_OUT_OF_MEMORY /
/// PROX_ERROR_INVALID_ARGUMENT with `*out` NULL.
prox_status prox_io_out_open(const char *path, prox_io_out **out, prox_error *err);

/// Appends `size` bytes. Write errors are remembered and reported by
/// prox_io_out_close (the functions that append return nothing).
void prox_io_out_bytes(prox_io_out *out, const void *data, size_t size);

/// Appends a NUL-terminated string.
void prox_io_out_str(prox_io_out *out, const char *s);

/// Appends a double as `%.17g` text, which reads back to the same double;
/// `inf`, `-inf` and `nan` for non-finite values (never `-nan`).
void prox_io_out_double(prox_io_out *out, double x);

/// Writes x into out (at least 32 bytes) as `snprintf(out, 32, "%.17g", x)`
/// does in the default rounding mode, the same characters, and returns
/// their number (NUL not counted). Exact integer arithmetic where the
/// decimal exponent is -16 to 16 (4.4-5.6x snprintf's speed in bench_io);
/// other values go to snprintf. Non-finite values as snprintf writes them.
size_t prox_io_format_double(double x, char *out);

/// Appends a signed integer in decimal.
void prox_io_out_int(prox_io_out *out, long long v);

/// Flushes and closes (not standard output, which is only flushed) and
/// frees `out`. Returns PROX_OK, or PROX_ERROR_IO if any write or the close
/// failed. NULL is accepted (PROX_OK).
prox_status prox_io_out_close(prox_io_out *out, prox_error *err);

/// Appends one CSV row: `n` doubles separated by commas (prox_io_out_double)
/// and a newline.
void prox_io_csv_row(prox_io_out *out, const double *values, size_t n);

/// Types of the extra properties of a PLY point writer.
typedef enum prox_io_ply_type {
  PROX_IO_PLY_FLOAT = 0, ///< float32 (the value rounded to nearest)
  PROX_IO_PLY_DOUBLE = 1 ///< float64
} prox_io_ply_type;

/// A binary little-endian PLY writer of points (opaque). PLY states the
/// vertex count in its header, so the count must be known when the file is
/// opened: a command that streams points of unknown count buffers them
/// first, or writes CSV.
typedef struct prox_io_ply_writer prox_io_ply_writer;

/// Opens `path` ("-": standard output) and writes the header of `count`
/// vertices with properties `double x, y, z` followed by `extra_count`
/// scalar properties named `extra_names` of types `extra_types` (such as
/// `float distance`). Returns PROX_OK and sets `*writer`, or an error
/// (PROX_ERROR_INVALID_ARGUMENT for more than PROX_IO_MAX_FIELDS extras or
/// a name that is empty or holds white space).
prox_status prox_io_ply_writer_open(const char *path, uint64_t count, int extra_count,
                                    const char *const *extra_names,
                                    const prox_io_ply_type *extra_types,
                                    prox_io_ply_writer **writer, prox_error *err);

/// Writes one vertex: position xyz[3] and extra[extra_count] (converted to
/// each property's type). Vertices beyond the declared count are not
/// written and make prox_io_ply_writer_close fail.
void prox_io_ply_writer_vertex(prox_io_ply_writer *writer, const double *xyz, const double *extra);

/// Closes the file. Returns PROX_OK, or PROX_ERROR_IO on a write error or
/// PROX_ERROR_INVALID_ARGUMENT when the number of vertices written differs
/// from the count in the header (the file is then invalid PLY). NULL is
/// accepted.
prox_status prox_io_ply_writer_close(prox_io_ply_writer *writer, prox_error *err);

/// A NumPy .npy writer of a float32 array of shape (nz, ny, nx), C order
/// (x fastest), format version 1.0, little-endian `<f4` (opaque). Values are
/// streamed: the shape is in the header, so the count is known up front.
typedef struct prox_io_npy_writer prox_io_npy_writer;

/// Opens `path` ("-": standard output) and writes the .npy header of shape
/// (nz, ny, nx). Returns PROX_OK and sets `*writer`, or an error.
prox_status prox_io_npy_writer_open(const char *path, uint64_t nz, uint64_t ny, uint64_t nx,
                                    prox_io_npy_writer **writer, prox_error *err);

/// Appends `n` values (in C order, continuing where the last call stopped).
void prox_io_npy_writer_values(prox_io_npy_writer *writer, const float *values, size_t n);

/// Closes the file. Returns PROX_OK, or PROX_ERROR_IO on a write error, or
/// PROX_ERROR_INVALID_ARGUMENT when the values written are not nz*ny*nx
/// (the file is then invalid). NULL is accepted.
prox_status prox_io_npy_writer_close(prox_io_npy_writer *writer, prox_error *err);

/// Writes the JSON sidecar of a grid file: one object
/// `{"file": ..., "dtype": "float32", "shape": [nz, ny, nx], "order":
/// "zyx", "origin": [x, y, z], "spacing": [sx, sy, sz]}` (the grid point
/// (i, j, k) of index [k][j][i] is origin + (i sx, j sy, k sz); numbers
/// round-trip). `data_file` is the name stored in "file" (may be NULL: no
/// "file" key), escaped as a JSON string. Returns PROX_OK or PROX_ERROR_IO.
prox_status prox_io_write_grid_json(const char *path, const char *data_file,
                                    const uint64_t shape_zyx[3], const double origin_xyz[3],
                                    const double spacing_xyz[3], prox_error *err);

/// The sidecar name of a data file: `path` with its extension (after the
/// last '.' of the last path component) replaced by `.json`, or `.json`
/// appended when it has none. Writes at most `size` bytes including the NUL;
/// returns 0, or -1 when `size` is too small (then `buf` holds "").
int prox_io_sidecar_path(const char *path, char *buf, size_t size);

PROX_EXTERN_C_END

#endif /* PROX_IO_H */
