# abi.LayoutInHeaders: every struct an ABI header defines carries its
# published layout right after its definition (porta/types.h explains the
# lines): `#define PORTA_<NAME>_SIZE <bytes>` (<NAME>: the struct's name
# without `porta_`, in capitals) and PORTA_LAYOUT_SIZE(<struct>, ...), with at
# least one PORTA_LAYOUT_FIELD line. The compilers check the numbers; this
# checks that no struct was added without them. Run with
#   cmake -DPORTA_ABI_DIR=<repo>/abi/porta -P layout_count.cmake
if(NOT PORTA_ABI_DIR)
  message(FATAL_ERROR "set PORTA_ABI_DIR to abi/porta")
endif()
set(_total 0)
set(_missing "")
foreach(_h plugin.h ops.h porta.h comm.h)
  file(READ "${PORTA_ABI_DIR}/${_h}" _text)
  # opaque handles (`typedef struct porta_x porta_x;`) have no layout
  string(REGEX MATCHALL "\ntypedef struct porta_[a-z0-9_]+ {" _defs "${_text}")
  foreach(_d IN LISTS _defs)
    string(REGEX REPLACE "\ntypedef struct (porta_[a-z0-9_]+) {" "\\1" _s "${_d}")
    string(REGEX REPLACE "^porta_" "" _name "${_s}")
    string(TOUPPER "${_name}" _name)
    math(EXPR _total "${_total} + 1")
    if(NOT _text MATCHES "\n#define PORTA_${_name}_SIZE [0-9]+\n")
      list(APPEND _missing "${_h}: ${_s} lacks #define PORTA_${_name}_SIZE <bytes>")
    endif()
    if(NOT _text MATCHES "\nPORTA_LAYOUT_FIELD\\(${_s}, ")
      list(APPEND _missing "${_h}: ${_s} lacks its PORTA_LAYOUT_FIELD lines")
    endif()
    if(NOT _text MATCHES "\nPORTA_LAYOUT_SIZE\\(${_s}, PORTA_${_name}_SIZE\\)\n")
      list(APPEND _missing "${_h}: ${_s} lacks PORTA_LAYOUT_SIZE(${_s}, PORTA_${_name}_SIZE)")
    endif()
  endforeach()
endforeach()
message(STATUS "${_total} ABI structs in plugin.h, ops.h, porta.h and comm.h")
if(_missing)
  string(REPLACE ";" "\n  " _missing "${_missing}")
  message(FATAL_ERROR "structs without their layout lines:\n  ${_missing}")
endif()
# A parse that finds fewer structs than the 35 of porta 1.15 is broken.
if(_total LESS 35)
  message(FATAL_ERROR "found only ${_total} structs: the pattern no longer matches the headers")
endif()
