# Finds dlpack/dlpack.h, version 1.1 or newer (DLManagedTensorVersioned).
# Override with -DDLPACK_INCLUDE_DIR=<dir containing dlpack/dlpack.h>.
# Default source: the PyPI package apache-tvm-ffi, which ships the official
# header (scripts/install-deps.sh installs it). Debian's libdlpack-dev is 0.6
# and is deliberately not used.
set(DLPACK_INCLUDE_DIR "" CACHE PATH "Directory containing dlpack/dlpack.h (DLPack >= 1.1)")

if(NOT DLPACK_INCLUDE_DIR)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -c "import tvm_ffi.libinfo as l; print(l.find_dlpack_include_path())"
      OUTPUT_VARIABLE _porta_dlpack_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _porta_rc)
    if(_porta_rc EQUAL 0 AND EXISTS "${_porta_dlpack_dir}/dlpack/dlpack.h")
      set(DLPACK_INCLUDE_DIR "${_porta_dlpack_dir}" CACHE PATH "Directory containing dlpack/dlpack.h" FORCE)
    endif()
  endif()
endif()

if(NOT DLPACK_INCLUDE_DIR OR NOT EXISTS "${DLPACK_INCLUDE_DIR}/dlpack/dlpack.h")
  message(FATAL_ERROR "dlpack/dlpack.h (DLPack >= 1.1) not found. Run scripts/install-deps.sh "
                      "(pip installs apache-tvm-ffi, which ships it) or pass -DDLPACK_INCLUDE_DIR=<dir>.")
endif()

file(STRINGS "${DLPACK_INCLUDE_DIR}/dlpack/dlpack.h" _porta_dl_major REGEX "#define DLPACK_MAJOR_VERSION")
file(STRINGS "${DLPACK_INCLUDE_DIR}/dlpack/dlpack.h" _porta_dl_minor REGEX "#define DLPACK_MINOR_VERSION")
string(REGEX MATCH "[0-9]+" _porta_dl_major "${_porta_dl_major}")
string(REGEX MATCH "[0-9]+" _porta_dl_minor "${_porta_dl_minor}")
set(DLPACK_VERSION "${_porta_dl_major}.${_porta_dl_minor}")
if(NOT _porta_dl_major OR DLPACK_VERSION VERSION_LESS 1.1)
  message(FATAL_ERROR "${DLPACK_INCLUDE_DIR}/dlpack/dlpack.h is DLPack ${DLPACK_VERSION}; Porta needs >= 1.1 "
                      "(DLManagedTensorVersioned). Install apache-tvm-ffi from PyPI or pass -DDLPACK_INCLUDE_DIR.")
endif()
