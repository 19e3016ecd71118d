# SPDX-License-Identifier: MIT
#
# CTest test install_consumer, run as `cmake -P` with:
#   PROX_BUILD_DIR     the prox build tree to install
#   PROX_CONFIG        its configuration (multi-config generators)
#   PROX_CONSUMER_DIR  tests/install (CMakeLists.txt and consumer.c)
#   PROX_WORK_DIR      scratch directory (wiped first)
#   PROX_LIBDIR        CMAKE_INSTALL_LIBDIR of the build
#   PROX_C_COMPILER    the C compiler of the build
#   PROX_GENERATOR     the CMake generator of the build
#   PROX_PKG_CONFIG    pkg-config executable
#
# Steps, each of which must succeed:
#   1. cmake --install <build> --prefix <work>/prefix
#   2. configure, build and run tests/install against that prefix with
#      find_package(prox CONFIG) (shared and static consumers)
#   3. compile consumer.c with `cc ... $(pkg-config --cflags --libs prox)`
#      using PKG_CONFIG_PATH=<work>/prefix/<libdir>/pkgconfig, then run it.
cmake_minimum_required(VERSION 3.22)

foreach(var PROX_BUILD_DIR PROX_CONSUMER_DIR PROX_WORK_DIR PROX_LIBDIR
            PROX_C_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_consumer: ${var} is not set")
  endif()
endforeach()

set(prefix "${PROX_WORK_DIR}/prefix")
set(consumer_build "${PROX_WORK_DIR}/build")
if(IS_ABSOLUTE "${PROX_LIBDIR}")
  set(libdir "${PROX_LIBDIR}")
else()
  set(libdir "${prefix}/${PROX_LIBDIR}")
endif()

file(REMOVE_RECURSE "${PROX_WORK_DIR}")
file(MAKE_DIRECTORY "${PROX_WORK_DIR}")

# run(<step description> <command...>): runs the command, echoes its output
# and stops the test if it fails. Sets RUN_OUTPUT to its standard output.
function(run what)
  message(STATUS "install_consumer: ${what}")
  execute_process(
    COMMAND ${ARGN}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT "${out}" STREQUAL "")
    message("${out}")
  endif()
  if(NOT "${err}" STREQUAL "")
    message("${err}")
  endif()
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "install_consumer: ${what} failed (${rc}): ${cmd}")
  endif()
  set(RUN_OUTPUT
      "${out}"
      PARENT_SCOPE)
endfunction()

# 1. Install.
set(config_args "")
if(DEFINED PROX_CONFIG AND NOT "${PROX_CONFIG}" STREQUAL "")
  set(config_args --config "${PROX_CONFIG}")
endif()
run("install to ${prefix}" "${CMAKE_COMMAND}" --install "${PROX_BUILD_DIR}"
    --prefix "${prefix}" ${config_args})
foreach(f "include/prox/prox.h" "${PROX_LIBDIR}/pkgconfig/prox.pc"
          "${PROX_LIBDIR}/cmake/prox/proxConfig.cmake"
          "${PROX_LIBDIR}/cmake/prox/proxConfigVersion.cmake")
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install_consumer: ${f} was not installed")
  endif()
endforeach()

# 2. The CMake consumer, against the installed package only.
set(generator_args "")
if(DEFINED PROX_GENERATOR AND NOT "${PROX_GENERATOR}" STREQUAL "")
  set(generator_args -G "${PROX_GENERATOR}")
endif()
run("configure the find_package consumer"
    "${CMAKE_COMMAND}" -S "${PROX_CONSUMER_DIR}" -B "${consumer_build}"
    ${generator_args} "-DCMAKE_C_COMPILER=${PROX_C_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=Release"
    "-DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON")
run("build the find_package consumer" "${CMAKE_COMMAND}" --build
    "${consumer_build}" --config Release)
foreach(exe consumer consumer_static)
  find_program(
    exe_path ${exe}
    PATHS "${consumer_build}" "${consumer_build}/Release"
    NO_DEFAULT_PATH NO_CACHE)
  if(NOT exe_path)
    message(FATAL_ERROR "install_consumer: ${exe} was not built")
  endif()
  run("run ${exe}" "${CMAKE_COMMAND}" -E env
      "LD_LIBRARY_PATH=${libdir}:$ENV{LD_LIBRARY_PATH}" "${exe_path}")
  unset(exe_path)
endforeach()

# 3. The pkg-config consumer: `cc consumer.c $(pkg-config --cflags --libs)`.
if(NOT PROX_PKG_CONFIG)
  message(FATAL_ERROR "install_consumer: pkg-config was not found")
endif()
run("pkg-config --cflags --libs prox" "${CMAKE_COMMAND}" -E env
    "PKG_CONFIG_PATH=${libdir}/pkgconfig" "${PROX_PKG_CONFIG}" --cflags
    --libs prox)
string(STRIP "${RUN_OUTPUT}" pc_flags)
if(NOT pc_flags MATCHES "-lprox")
  message(FATAL_ERROR "install_consumer: pkg-config gave '${pc_flags}'")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
# -O0 keeps every kernel call a call, so the link proves that libprox.so
# exports the header kernels; -Werror proves the installed headers compile
# clean in a user's strict build.
run("compile consumer.c with pkg-config flags"
    "${PROX_C_COMPILER}" -std=c11 -O0 -Wall -Wextra -Wpedantic -Werror
    "${PROX_CONSUMER_DIR}/consumer.c" ${pc_flags} -o
    "${PROX_WORK_DIR}/consumer_pc")
run("run the pkg-config consumer" "${CMAKE_COMMAND}" -E env
    "LD_LIBRARY_PATH=${libdir}:$ENV{LD_LIBRARY_PATH}"
    "${PROX_WORK_DIR}/consumer_pc")

message(STATUS "install_consumer: all steps passed")
