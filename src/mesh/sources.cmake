# SPDX-License-Identifier: MIT
# The mesh layer's sources (included by the top-level CMakeLists.txt).
# Files named *_avx2.c / *_avx512.c get the instruction-set flags there.
list(
  APPEND
  PROX_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mesh_common.c
  ${CMAKE_CURRENT_LIST_DIR}/mesh.c
  ${CMAKE_CURRENT_LIST_DIR}/bvh_build.c
  ${CMAKE_CURRENT_LIST_DIR}/bvh_query.c
  ${CMAKE_CURRENT_LIST_DIR}/bvh_query_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/bvh_query_avx512.c)

# The mesh topology (prox/topology.h) and the sign (prox/sign.h).
list(APPEND PROX_SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology.c
     ${CMAKE_CURRENT_LIST_DIR}/sign.c)

# The ray queries (prox/bvh_ray.h).
list(APPEND PROX_SOURCES ${CMAKE_CURRENT_LIST_DIR}/bvh_ray.c
     ${CMAKE_CURRENT_LIST_DIR}/bvh_ray_avx2.c
     ${CMAKE_CURRENT_LIST_DIR}/bvh_ray_avx512.c)
