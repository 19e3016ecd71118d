# SPDX-License-Identifier: MIT
#
# src/simd: the SIMD dispatch (dispatch.c) and the vectorised modules that
# use it, the batch queries and the packet ray casts, each as a portable
# file and one file per instruction set (*_avx2.c, *_avx512.c, which get
# the -m flags).
list(
  APPEND
  PROX_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/dispatch.c
  ${CMAKE_CURRENT_LIST_DIR}/batch.c
  ${CMAKE_CURRENT_LIST_DIR}/batch_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/batch_avx512.c
  ${CMAKE_CURRENT_LIST_DIR}/packet.c
  ${CMAKE_CURRENT_LIST_DIR}/packet_avx2.c
  ${CMAKE_CURRENT_LIST_DIR}/packet_avx512.c)
