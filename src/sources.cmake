# SPDX-License-Identifier: MIT
#
# The sources of the library (targets prox and prox_static), folder by
# folder: every folder under src/ that holds library code has a
# sources.cmake that appends the full paths of its .c files to PROX_SOURCES,
# and this file includes them. A new folder adds its own sources.cmake and
# one include() line here. Files named *_avx2.c and *_avx512.c get the
# instruction-set flags (top-level CMakeLists.txt) and must be selected at
# run time (src/simd/).
list(APPEND PROX_SOURCES ${CMAKE_CURRENT_LIST_DIR}/base.c
     ${CMAKE_CURRENT_LIST_DIR}/export.c)

include(${CMAKE_CURRENT_LIST_DIR}/simd/sources.cmake)

# The mesh layer: meshes, BVH, topology, sign.
include(${CMAKE_CURRENT_LIST_DIR}/mesh/sources.cmake)
