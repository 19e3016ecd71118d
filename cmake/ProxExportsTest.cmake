# SPDX-License-Identifier: MIT
#
# The test "exports": the shared library exports exactly the documented API,
# and every public function is declared literally, by name, in a public
# header.
#
#   cmake -DPROX_LIB=<libprox.so> -DPROX_NM=<nm> -DPROX_HEADER_DIR=<include/prox>
#         -P ProxExportsTest.cmake
#
# The public headers (include/prox/*.h, not detail/) declare every public
# function literally, double and float (grep and ctags find
# prox_bvh_closestf). Each such declaration is either
#   - exported: PROX_API, PROX_KERNEL or PROX_SMALL_KERNEL (the compiled
#     functions, and the header kernels whose external definitions
#     src/export.c emits); or
#   - header-only by design: `static inline` (the mesh view helpers and the
#     BVH view traversals, callable from CUDA device code), never exported.
# A declaration that is neither fails (users would get a link error), and
# so does:
#   - a name exported by the library (`nm -D --defined-only`) and not
#     declared as exported in a public header, or the other way round;
#   - a PROX_API declaration in a template (detail/): compiled functions are
#     declared in their topic header, not through PROX_FN;
#   - a public name (not prox_detail_* or *_detail_*) that a template
#     defines or declares as PROX_FN(prox_x)(...) without literal
#     declarations of prox_x and prox_xf in the public headers;
#   - a struct written out in both precisions (prox_x and prox_xf) whose
#     twins do not have the same member names in the same order.
# A new public function needs nothing here: its declaration in its header
# adds it to the documented list.
cmake_minimum_required(VERSION 3.22)

foreach(_var PROX_LIB PROX_NM PROX_HEADER_DIR)
  if(NOT ${_var})
    message(FATAL_ERROR "ProxExportsTest.cmake: ${_var} is not set")
  endif()
endforeach()

# Comments, line continuations and preprocessor lines out of the text of
# file _file, into variable _out.
function(prox_exports_strip _file _out)
  file(READ "${_file}" _s)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" _s "${_s}")
  string(REGEX REPLACE "//[^\n]*" "" _s "${_s}")
  string(REGEX REPLACE "\\\\\n" " " _s "${_s}")
  string(REGEX REPLACE "#[^\n]*" "" _s "${_s}")
  set(${_out} "${_s}" PARENT_SCOPE)
endfunction()

set(_failures "")

# Documented: the declarations of the public headers. In a header stripped
# of comments and preprocessor lines, every `prox_name(` is a function
# declaration (public headers hold no function bodies); the text from the
# previous `;`, `{` or `}` to it holds its qualifiers.
file(GLOB _headers "${PROX_HEADER_DIR}/*.h")
set(_documented "")
set(_inline "")
foreach(_h IN LISTS _headers)
  prox_exports_strip("${_h}" _s)
  get_filename_component(_hn "${_h}" NAME)
  string(REGEX MATCHALL "[^;{}()]*prox_[A-Za-z0-9_]+[ \t\n]*\\(" _decls "${_s}")
  foreach(_d IN LISTS _decls)
    string(REGEX MATCH "prox_[A-Za-z0-9_]+[ \t\n]*\\($" _n "${_d}")
    string(REGEX REPLACE "[ \t\n]*\\($" "" _n "${_n}")
    if(_d MATCHES "(^|[ \t\n])(PROX_API|PROX_KERNEL|PROX_SMALL_KERNEL)[ \t\n]")
      list(APPEND _documented "${_n}")
    elseif(_d MATCHES "(^|[ \t\n])static[ \t\n]+inline[ \t\n]")
      list(APPEND _inline "${_n}")
    else()
      string(REGEX REPLACE "[ \t\n]+" " " _d "${_d}")
      string(STRIP "${_d}" _d)
      list(APPEND _failures
           "${_hn}: ${_n} is declared neither exported (PROX_API, PROX_KERNEL) "
           "nor static inline: '${_d}'")
    endif()
  endforeach()
endforeach()

# Templates (detail/): no PROX_API declarations, and every public name they
# define or declare is declared literally, in both precisions.
set(_all_literal ${_documented} ${_inline})
file(GLOB _templates "${PROX_HEADER_DIR}/detail/*.inl" "${PROX_HEADER_DIR}/detail/*.h")
set(_template_names "")
foreach(_t IN LISTS _templates)
  prox_exports_strip("${_t}" _s)
  get_filename_component(_tn "${_t}" NAME)
  if(_s MATCHES "(^|[^A-Za-z0-9_])PROX_API([^A-Za-z0-9_]|$)")
    list(APPEND _failures
         "detail/${_tn} uses PROX_API: declare the function literally in its "
         "topic header instead")
  endif()
  string(REGEX MATCHALL "PROX_FN\\((prox_[A-Za-z0-9_]+)\\)[ \t\n]*\\(" _uses "${_s}")
  foreach(_u IN LISTS _uses)
    string(REGEX REPLACE "^PROX_FN\\((prox_[A-Za-z0-9_]+)\\).*" "\\1" _n "${_u}")
    if(NOT _n MATCHES "(^prox_detail_|_detail_)")
      list(APPEND _template_names "${_n}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _template_names)
foreach(_n IN LISTS _template_names)
  foreach(_v IN ITEMS "${_n}" "${_n}f")
    if(NOT _v IN_LIST _all_literal)
      list(APPEND _failures
           "${_v} (a template's PROX_FN(${_n})) is not declared literally in a "
           "public header")
    endif()
  endforeach()
endforeach()
list(LENGTH _template_names _ntn)

# Precision twins written out by hand (prox_mesh_hit and prox_mesh_hitf):
# the same member names in the same order, so that the templated code in
# src/ (PROX_FN(prox_mesh_hit)) and positional initializers mean the same
# thing in both precisions. (Function-pointer members are not parsed; no
# twin has one.)
set(_structs "")
foreach(_h IN LISTS _headers)
  prox_exports_strip("${_h}" _s)
  # `;` separates CMake list items: the members' `;` become `@` first.
  string(REPLACE ";" "@" _s "${_s}")
  string(REGEX MATCHALL "typedef[ \t\n]+struct[ \t\n]+prox_[A-Za-z0-9_]+[ \t\n]*{[^}]*}"
                _bodies "${_s}")
  foreach(_b IN LISTS _bodies)
    string(REGEX MATCH "struct[ \t\n]+(prox_[A-Za-z0-9_]+)" _m "${_b}")
    set(_sn "${CMAKE_MATCH_1}")
    string(REGEX REPLACE "^[^{]*{" "" _b "${_b}")
    string(REGEX REPLACE "\\[[^]]*\\]" "" _b "${_b}")
    string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*[ \t\n]*@" _members "${_b}")
    string(REGEX REPLACE "[ \t\n]*@" "" _members "${_members}")
    list(APPEND _structs "${_sn}")
    set("_members_${_sn}" "${_members}")
  endforeach()
endforeach()
set(_ntwins 0)
foreach(_sn IN LISTS _structs)
  if("${_sn}f" IN_LIST _structs)
    math(EXPR _ntwins "${_ntwins} + 1")
    if(NOT "${_members_${_sn}}" STREQUAL "${_members_${_sn}f}")
      list(JOIN "_members_${_sn}" " " _md)
      list(JOIN "_members_${_sn}f" " " _mf)
      list(APPEND _failures "${_sn} and ${_sn}f differ in their members: (${_md}) vs (${_mf})")
    endif()
  endif()
endforeach()
message(STATUS "precision twins written out in the headers: ${_ntwins} pairs, "
               "members compared")

list(REMOVE_DUPLICATES _inline)
list(SORT _inline)
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

list(LENGTH _inline _ni)
message(STATUS "header-only (static inline) public functions: ${_ni}; "
               "public names the templates define or call: ${_ntn}")
set(_inline_exported ${_inline})
list(REMOVE_ITEM _inline_exported ${_documented})
foreach(_n IN LISTS _inline_exported)
  if(_n IN_LIST _exported)
    list(APPEND _failures "${_n} is declared static inline but exported")
  endif()
endforeach()
if(_failures)
  list(JOIN _failures "\n  " _f)
  message(FATAL_ERROR "public declarations:\n  ${_f}")
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
