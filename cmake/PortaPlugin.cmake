# porta_add_plugin(<name> SOURCES ... [LIBRARIES ...] [TEST] [OUTPUT_DIR dir] [VERSION_SCRIPT file])
#
# Builds lib/porta/plugins/libporta_plugin_<name>.so: a MODULE library (never
# linked against, only dlopen-ed) that exports exactly porta_plugin_get_api
# (a test plugin may name a VERSION_SCRIPT that exports test hooks too).
# TEST plugins go to lib/porta/test-plugins/<OUTPUT_DIR> and are not installed;
# the others install as component plugin_<name> (the porta-cuda wheel installs
# only plugin_cuda).
set(PORTA_PLUGIN_VERSION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/plugin.map)
set(PORTA_PLUGIN_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/porta/plugins" CACHE STRING
    "Where plugins install, relative to the prefix (the porta-cuda wheel: its own folder)")

function(porta_add_plugin name)
  cmake_parse_arguments(P "TEST" "OUTPUT_DIR;TARGET;VERSION_SCRIPT" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT P_VERSION_SCRIPT)
    set(P_VERSION_SCRIPT ${PORTA_PLUGIN_VERSION_SCRIPT})
  endif()
  if(NOT P_TARGET)
    set(P_TARGET porta_plugin_${name})
  endif()
  add_library(${P_TARGET} MODULE ${P_SOURCES})
  if(P_TEST)
    set(_dir ${PORTA_TEST_PLUGIN_BUILD_DIR}/${P_OUTPUT_DIR})
  else()
    set(_dir ${PORTA_PLUGIN_BUILD_DIR})
  endif()
  set_target_properties(${P_TARGET} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME porta_plugin_${name}
    LIBRARY_OUTPUT_DIRECTORY ${_dir}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_compile_definitions(${P_TARGET} PRIVATE PORTA_BUILDING_PLUGIN)
  target_link_libraries(${P_TARGET} PRIVATE porta_abi ${P_LIBRARIES})
  target_link_options(${P_TARGET} PRIVATE
    -Wl,--version-script=${P_VERSION_SCRIPT} -Wl,--no-undefined)
  porta_warnings(${P_TARGET})
  if(NOT P_TEST)
    install(TARGETS ${P_TARGET} LIBRARY DESTINATION ${PORTA_PLUGIN_INSTALL_DIR} COMPONENT plugin_${name})
  endif()
endfunction()

# porta_add_comm_plugin(<name> SOURCES ... [LIBRARIES ...]): a communicator
# plugin (porta/comm.h), libporta_comm_<name>.so in <libdir>/porta/comm, the
# directory the core searches after PORTA_COMM_PLUGIN_PATH. It exports only
# porta_comm_get_api.
set(PORTA_COMM_PLUGIN_VERSION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/comm.map)
set(PORTA_COMM_PLUGIN_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/porta/comm" CACHE STRING
    "Where communicator plugins are installed (relative to the prefix)")
function(porta_add_comm_plugin name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target porta_comm_${name})
  add_library(${target} MODULE ${P_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME porta_comm_${name}
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/porta/comm
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_compile_definitions(${target} PRIVATE PORTA_BUILDING_PLUGIN)
  target_link_libraries(${target} PRIVATE porta_abi ${P_LIBRARIES})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/plugins/common)  # wait_by_polling.hpp
  target_link_options(${target} PRIVATE -Wl,--version-script=${PORTA_COMM_PLUGIN_VERSION_SCRIPT} -Wl,--no-undefined)
  porta_warnings(${target})
  install(TARGETS ${target} LIBRARY DESTINATION ${PORTA_COMM_PLUGIN_INSTALL_DIR} COMPONENT comm_${name})
endfunction()
