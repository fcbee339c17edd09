# Install layout (relocatable: nothing installed names a path outside the prefix):
#   include/porta/{porta.h,plugin.h,comm.h,ops.h,types.h,float16.h,porta.hpp,autograd.hpp,nn.hpp,nn_containers.hpp,nn_recurrent.hpp,nn_transformer.hpp,nn_utils.hpp,optim.hpp,
#                  lr_scheduler.hpp,data.hpp,data_dataset.hpp,data_samplers.hpp,data_composite.hpp,
#                  distributed.hpp,nn_parallel.hpp,amp.hpp}
#   include/dlpack/dlpack.h   the exact header Porta was built against, copied
#                             from the package that provided it (PortaDLPack.cmake)
#   lib/libporta.so, lib/porta/plugins/libporta_plugin_<name>.so
#   bin/porta-smi, bin/porta-run, lib/cmake/porta/ (find_package(porta) -> porta::porta, porta::cpp;
#                             porta_PLUGIN_VERSION_SCRIPT), lib/pkgconfig/porta.pc (C),
#                             porta-cpp.pc (C++: Requires porta, adds C++20 and threads)
#   share/porta/{plugin.map,minimal_plugin.c}   what docs/plugin-authoring.md starts from
#   bin/porta-conformance, bin/porta-gradcheck  with the tests (tests/conformance/tool)
include(CMakePackageConfigHelpers)

install(FILES abi/porta/porta.h abi/porta/plugin.h abi/porta/comm.h abi/porta/ops.h abi/porta/types.h abi/porta/float16.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/porta)
install(FILES ${DLPACK_INCLUDE_DIR}/dlpack/dlpack.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dlpack)
install(TARGETS porta porta_abi EXPORT portaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES cmake/plugin.map plugins/test/abi/minimal_plugin.c DESTINATION ${CMAKE_INSTALL_DATADIR}/porta)
install(EXPORT portaTargets NAMESPACE porta:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/porta)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/porta-config.cmake.in
  ${CMAKE_BINARY_DIR}/porta-config.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/porta)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/porta-config-version.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/porta-config.cmake ${CMAKE_BINARY_DIR}/porta-config-version.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/porta)

foreach(pc porta porta-cpp)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${CMAKE_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
