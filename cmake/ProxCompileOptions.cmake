# SPDX-License-Identifier: MIT
#
# prox_target_defaults(<target>): the compile settings every prox target
# shares (library, tests, benchmarks, examples, tools): C11 without
# extensions, no floating-point contraction, the warning set (errors when
# PROX_WERROR is on) and, when PROX_SANITIZE is on, ASan + UBSan that stop at
# the first report.
#
# Settings are PRIVATE: nothing here is forced on projects that link prox.

include_guard(GLOBAL)

function(prox_target_defaults target)
  set_target_properties(
    ${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                         C_EXTENSIONS OFF)

  if(NOT CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    return()
  endif()

  # Kernels are written for IEEE rounding at every operation: a contracted
  # a*b + c changes results and breaks the stated error bounds. Fast-math is
  # never used.
  target_compile_options(
    ${target} PRIVATE -ffp-contract=off -Wall -Wextra -Wpedantic -Wconversion
                      -Wshadow)
  if(PROX_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()

  if(PROX_SANITIZE)
    target_compile_options(
      ${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all
                        -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
      # gcc 12's flow analysis under -fsanitize flags fields that are set
      # and read under the same condition (the K4 least-squares result) as
      # maybe uninitialized; without the sanitizers it does not.
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
  endif()
endfunction()
