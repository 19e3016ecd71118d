/* SPDX-License-Identifier: MIT */
/// @file base.h
/// @brief Macros shared by every prox header: export and inline qualifiers,
/// the CUDA host/device qualifier, version, assertion hook and features.
#ifndef PROX_BASE_H
#define PROX_BASE_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

/// Major version of the headers (prox_version() gives the library's).
#define PROX_VERSION_MAJOR 0
/// Minor version of the headers.
#define PROX_VERSION_MINOR 1
/// Patch version of the headers.
#define PROX_VERSION_PATCH 0

/// PROX_API marks a symbol exported from the shared library. The library is
/// built with hidden visibility; only PROX_API symbols are visible.
#if defined(_WIN32) && defined(PROX_SHARED_BUILD)
#define PROX_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define PROX_API __attribute__((visibility("default")))
#else
#define PROX_API
#endif

/// PROX_HD makes a kernel callable from CUDA device code when the header is
/// compiled by nvcc, and is empty otherwise.
#if defined(__CUDACC__)
#define PROX_HD __host__ __device__
#else
#define PROX_HD
#endif

/// PROX_INLINE is the linkage of a kernel defined in a header.
///
/// In a user's translation unit (C, C++ or CUDA) every kernel is
/// `static inline`: the compiler inlines it, or emits a private copy, and a
/// user's program never needs a symbol of the library to call a kernel.
/// The library emits the exported, external definition of each documented
/// kernel once: src/export.c defines PROX_EMIT_EXTERNAL, which turns the
/// public kernels' definitions into ordinary external definitions, for FFI
/// users (ctypes, ...) and for a user who calls a kernel through the
/// shared library. Internal helpers (prox_detail_*, qualified by
/// PROX_DETAIL_KERNEL) are `static inline` everywhere, so that the shared
/// library exports exactly the documented API (the test "exports" checks
/// it). A static helper may be called by an external definition, and by
/// a static inline kernel, but not by a C99 inline definition with
/// external linkage: hence no C99 inline definitions.
#if defined(PROX_EMIT_EXTERNAL) && !defined(__cplusplus)
#define PROX_INLINE
#else
#define PROX_INLINE static inline
#endif

/// 1 when fma() is a hardware instruction here (FP_FAST_FMA from math.h,
/// x86 with -mfma, CUDA device code), else 0: then the kernels split
/// products (Veltkamp/Dekker) instead of calling libm's fma(), which on
/// baseline x86-64 is an out-of-line call costing several nanoseconds.
#if defined(FP_FAST_FMA) || defined(__FMA__) || defined(__CUDA_ARCH__)
#define PROX_FAST_FMA 1
#else
#define PROX_FAST_FMA 0
#endif

/// Qualifier of every documented header-defined kernel: static inline in a
/// user's code, an exported external definition in src/export.c.
#if defined(PROX_EMIT_EXTERNAL) && !defined(__cplusplus)
#define PROX_KERNEL PROX_API PROX_HD PROX_INLINE
#else
#define PROX_KERNEL PROX_HD PROX_INLINE
#endif

/// Qualifier of the internal helpers of the kernels (names prox_detail_*):
/// static inline everywhere, never exported.
#define PROX_DETAIL_KERNEL PROX_HD static inline

/// Qualifier of the few small kernels that are worth inlining into a user's
/// loop whatever the compiler's size heuristics say (a call passes each
/// 24-byte vector through memory and costs as much as the kernel):
/// point-box, point-segment, ray-box. Not for large kernels.
/// PROX_DETAIL_SMALL_KERNEL is the same for internal helpers.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#if defined(PROX_EMIT_EXTERNAL) && !defined(__cplusplus)
#define PROX_SMALL_KERNEL PROX_KERNEL
#else
#define PROX_SMALL_KERNEL PROX_KERNEL __attribute__((always_inline))
#endif
#define PROX_DETAIL_SMALL_KERNEL PROX_DETAIL_KERNEL __attribute__((always_inline))
#else
#define PROX_SMALL_KERNEL PROX_KERNEL
#define PROX_DETAIL_SMALL_KERNEL PROX_DETAIL_KERNEL
#endif

/// Internal: hides the value of a real variable from the optimiser (an empty
/// asm statement that claims to change it; GCC and clang on x86-64 only,
/// nothing elsewhere). After a branch-free clamp, GCC may copy the code that
/// follows once per outcome of the clamp (jump threading), which turns its
/// min and max back into branches that mispredict on random input.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__CUDACC__)
#define PROX_OPAQUE(x) __asm__("" : "+x"(x))
#else
#define PROX_OPAQUE(x) ((void)0)
#endif

/// Internal: asks for the complete unrolling of the loop that follows, one
/// with a small constant trip count (at most 16) over small local arrays.
/// At -O2, GCC unrolls a loop completely only where the code does not grow
/// (-O3 and -fpeel-loops allow growth), and the arrays the loop indexes then
/// stay in memory: a kernel inlined into a user's -O2 code ran 17% more
/// instructions than the library's -O3 copy (prox_triangle_triangle's
/// bounds, issue 14). GCC 8 and later only: clang's `#pragma unroll` is
/// a demand, and where a loop's count is not constant after inlining (a
/// helper left out of line, as in the fuzzing build) clang warns that it
/// could not unroll it (-Wpass-failed), an error under -Werror in users'
/// builds (clang's -O2 output was not measured). Nothing elsewhere (nvcc
/// unrolls such loops by itself).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8 && !defined(__CUDACC__)
#define PROX_UNROLL _Pragma("GCC unroll 16")
#else
#define PROX_UNROLL
#endif

/// Internal: 1 where a few small kernels compute their distance-only path
/// in SSE lanes (four floats or two doubles) with GCC/clang vector extensions
/// and SSE builtins (x86-64, clang or GCC 12 and later for
/// __builtin_shufflevector, not under nvcc; the results are the same bits
/// as the portable code's), 0 elsewhere. Builtins, not the <xmmintrin.h>
/// functions: clang declares those static, which an inline function with
/// external linkage may not call. Define PROX_NO_SSE before including prox
/// to get the portable code everywhere (the test "sse" compares the two).
#if (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)) && defined(__SSE2__) &&          \
    defined(__x86_64__) && !defined(__CUDACC__) && !defined(PROX_NO_SSE)
#define PROX_SSE 1
/// Internal: four floats in an SSE register (PROX_SSE).
typedef float prox_detail_v4f __attribute__((vector_size(16)));
/// Internal: the same, read from memory aligned to 4 bytes only.
typedef float prox_detail_v4f_u __attribute__((vector_size(16), aligned(4), may_alias));
/// Internal: four 32-bit integers (masks for prox_detail_v4f).
typedef int prox_detail_v4i __attribute__((vector_size(16)));
/// Internal: two doubles in an SSE register (PROX_SSE).
typedef double prox_detail_v2d __attribute__((vector_size(16)));
/// Internal: the same, read from memory aligned to 8 bytes only.
typedef double prox_detail_v2d_u __attribute__((vector_size(16), aligned(8), may_alias));
/// Internal: two 64-bit integers (masks for prox_detail_v2d).
typedef long long prox_detail_v2l __attribute__((vector_size(16)));
#else
#define PROX_SSE 0
#endif

#if defined(__cplusplus)
#define PROX_EXTERN_C_BEGIN extern "C" {
#define PROX_EXTERN_C_END }
#else
/// Opens C linkage (`extern "C" {`) around a header's declarations when it
/// is read as C++; empty in C.
#define PROX_EXTERN_C_BEGIN
/// Closes the C linkage opened by PROX_EXTERN_C_BEGIN; empty in C.
#define PROX_EXTERN_C_END
#endif

PROX_EXTERN_C_BEGIN

/// Kind of the feature of a primitive that holds a closest point.
typedef enum prox_feature_kind {
  PROX_FEATURE_NONE = 0,    ///< no feature (non-finite input)
  PROX_FEATURE_VERTEX = 1,  ///< a vertex (segment/ray endpoint, corner)
  PROX_FEATURE_EDGE = 2,    ///< an edge (or the inside of a segment/line)
  PROX_FEATURE_FACE = 3,    ///< a face (or the surface of a sphere)
  PROX_FEATURE_INTERIOR = 4 ///< inside a solid: the point is its own closest
} prox_feature_kind;

/// The feature of a primitive that holds a closest point: its kind and an
/// index whose meaning each query documents (vertex i, edge i, face i).
typedef struct prox_feature {
  int kind;  ///< a prox_feature_kind
  int index; ///< which vertex, edge or face; 0 when there is only one
} prox_feature;

/// Outcome of a function that allocates or does I/O (the mesh layer, the
/// BVH builder, file readers). Queries never fail and return no status.
typedef enum prox_status {
  PROX_OK = 0,                     ///< success
  PROX_ERROR_INVALID_ARGUMENT = 1, ///< a NULL required pointer, a bad option
  PROX_ERROR_OUT_OF_MEMORY = 2,    ///< an allocation failed (nothing leaked)
  PROX_ERROR_INVALID_MESH = 3,     ///< no triangles, an index out of range,
                                   ///< a non-finite coordinate
  PROX_ERROR_IO = 4,               ///< a file could not be opened, read, written
  PROX_ERROR_PARSE = 5,            ///< a file's contents are malformed
  PROX_ERROR_UNSUPPORTED = 6       ///< valid but not supported by this build
} prox_status;

/// A status with a human-readable message saying what was wrong and where
/// (the offending triangle or vertex, the file and line). Functions that
/// take a `prox_error *` (NULL-able) fill it on failure, and set status to
/// PROX_OK and message to "" on success.
typedef struct prox_error {
  prox_status status; ///< the same value the function returns
  char message[256];  ///< NUL-terminated, "" on success
} prox_error;

/// The name of a status ("ok", "invalid argument", "out of memory",
/// "invalid mesh", "i/o error", "parse error", "unsupported"; "unknown
/// status" for another value).
PROX_API const char *prox_status_string(prox_status status);

/// A user allocator for the builders (BVH, topology, grids). Queries never
/// allocate. alloc returns memory aligned to at least `alignment` (a power
/// of two, at most 64) or NULL on failure; free receives the size that was
/// allocated. A NULL `prox_allocator *` means the C library's
/// aligned_alloc and free.
typedef struct prox_allocator {
  /// Returns `size` bytes aligned to `alignment`, or NULL on failure.
  void *(*alloc)(void *user, size_t size, size_t alignment);
  /// Releases a block from alloc, given the size it was allocated with.
  void (*free)(void *user, void *ptr, size_t size);
  void *user; ///< passed through to alloc and free
} prox_allocator;

/// Signature of the handler called by PROX_ASSERT on a programmer error.
/// A handler that returns lets the failing function go on (it then reads
/// the NULL pointer); one that does not (abort, longjmp, an exception in
/// C++ callers) stops it.
typedef void (*prox_assert_fn)(const char *condition, const char *file, int line);

/// Installs the handler PROX_ASSERT calls (NULL restores the default, which
/// prints the failed condition to stderr and aborts).
///
/// What is checked: programmer errors in the compiled entry points (the
/// batch queries of batch.h, and the mesh layer), such as a NULL pointer
/// that is required (an array with n > 0 elements, the triangle or box of a
/// batch), in builds of the library without NDEBUG (CMake's Debug). Release
/// builds check nothing, and the header kernels never assert (they are
/// device code too, and a NULL required pointer there is undefined
/// behaviour, as in the C library). The handler is process-wide state, as
/// is the SIMD level of prox_simd_set(). Not for device code.
PROX_API void prox_set_assert_fn(prox_assert_fn fn);

/// Calls the installed assertion handler (used by PROX_ASSERT).
PROX_API void prox_assert_failed(const char *condition, const char *file, int line);

/// Version of the library as built: major * 10000 + minor * 100 + patch.
PROX_API int prox_version(void);

PROX_EXTERN_C_END

#if defined(NDEBUG) || defined(__CUDA_ARCH__)
#define PROX_ASSERT(c) ((void)0)
#else
/// Checks a programmer error (a NULL required pointer) in the compiled entry
/// points: calls the handler of prox_set_assert_fn() when c is false.
/// Nothing under NDEBUG or in CUDA device code (c is then not evaluated).
#define PROX_ASSERT(c) ((c) ? (void)0 : prox_assert_failed(#c, __FILE__, __LINE__))
#endif

#endif /* PROX_BASE_H */
