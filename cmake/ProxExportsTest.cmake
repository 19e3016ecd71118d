# SPDX-License-Identifier: MIT
#
# The test "exports": the shared library exports exactly the documented API.
#
#   cmake -DPROX_LIB=<libprox.so> -DPROX_NM=<nm> -DPROX_HEADER_DIR=<include/prox>
#         -P ProxExportsTest.cmake
#
# The documented API is every function declared in a public header
# (include/prox/*.h, not detail/) with PROX_API, PROX_KERNEL or
# PROX_SMALL_KERNEL: the headers name each function literally, double and
# float. The exported list is what `nm -D --defined-only` prints. Any name in
# one list and not in the other fails the test, with the difference printed.
# A new public function (prox_mesh_*, prox_bvh_*) needs nothing here: its
# PROX_API declaration in its header adds it to the documented list.
foreach(_var PROX_LIB PROX_NM PROX_HEADER_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "ProxExportsTest.cmake: ${_var} is not set")
  endif()
endforeach()

# Documented: the declarations of the public headers.
file(GLOB _headers "${PROX_HEADER_DIR}/*.h")
set(_documented "")
foreach(_h IN LISTS _headers)
  file(READ "${_h}" _s)
  # Comments, line continuations and preprocessor lines out first.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _s "${_s}")
  string(REGEX REPLACE "//[^\n]*" "" _s "${_s}")
  string(REGEX REPLACE "\\\\\n" " " _s "${_s}")
  string(REGEX REPLACE "#[^\n]*" "" _s "${_s}")
  string(REGEX MATCHALL
                "(PROX_API|PROX_KERNEL|PROX_SMALL_KERNEL)[ \t\n][^;{}()]*prox_[A-Za-z0-9_]+[ \t\n]*\\("
                _decls "${_s}")
  foreach(_d IN LISTS _decls)
    string(REGEX MATCH "prox_[A-Za-z0-9_]+[ \t\n]*\\($" _n "${_d}")
    string(REGEX REPLACE "[ \t\n]*\\($" "" _n "${_n}")
    list(APPEND _documented "${_n}")
  endforeach()
endforeach()
# The compiled mesh layer and the packet tests still declare their functions
# once in a precision template (detail/*.inl, PROX_FN(prox_x)), which the
# topic header includes twice: such a declaration documents prox_x and
# prox_xf.
file(GLOB _templates "${PROX_HEADER_DIR}/detail/*.inl")
foreach(_h IN LISTS _templates)
  file(READ "${_h}" _s)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _s "${_s}")
  string(REGEX REPLACE "//[^\n]*" "" _s "${_s}")
  string(REGEX MATCHALL "PROX_API[ \t\n][^;{}]*PROX_FN\\((prox_[A-Za-z0-9_]+)\\)[ \t\n]*\\("
                _decls "${_s}")
  foreach(_d IN LISTS _decls)
    string(REGEX MATCH "PROX_FN\\((prox_[A-Za-z0-9_]+)\\)[ \t\n]*\\($" _n "${_d}")
    list(APPEND _documented "${CMAKE_MATCH_1}" "${CMAKE_MATCH_1}f")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _documented)
list(SORT _documented)

# Exported: the dynamic symbol table.
execute_process(
  COMMAND "${PROX_NM}" -D --defined-only "${PROX_LIB}"
  OUTPUT_VARIABLE _nm
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${PROX_NM} -D --defined-only ${PROX_LIB} failed")
endif()
string(REGEX MATCHALL "[^\n]+" _lines "${_nm}")
set(_exported "")
foreach(_l IN LISTS _lines)
  if(_l MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ ]+)$")
    list(APPEND _exported "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT _exported)

list(LENGTH _documented _nd)
list(LENGTH _exported _ne)
message(STATUS "documented: ${_nd} functions; exported: ${_ne} symbols")
# The headers declare far more than this; fewer means the parse broke.
if(_nd LESS 200)
  message(FATAL_ERROR "only ${_nd} documented functions found in "
                      "${PROX_HEADER_DIR}: the header parse is broken")
endif()

set(_missing ${_documented})
list(REMOVE_ITEM _missing ${_exported})
set(_extra ${_exported})
list(REMOVE_ITEM _extra ${_documented})
if(_missing OR _extra)
  list(JOIN _missing "\n  " _m)
  list(JOIN _extra "\n  " _x)
  message(FATAL_ERROR
            "the exported symbols differ from the documented API.\n"
            "Declared in the headers but not exported:\n  ${_m}\n"
            "Exported but not declared in the headers (internal helpers "
            "must be PROX_DETAIL_KERNEL or hidden):\n  ${_x}")
endif()
message(STATUS "exports: the shared library exports exactly the "
               "documented API")
