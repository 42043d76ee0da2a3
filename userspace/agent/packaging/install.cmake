# `cmake --install`: libkestrel shared and static, kestrel.h and kestrel.hpp
# under include/kestrel/ (beside libpman's), kestrel.pc and a CMake package
# (kestrel::kestrel, kestrel::kestrel_static).
include(CMakePackageConfigHelpers)

# What libkestrel.a's users link after it: the system libraries
# (KESTREL_SYSTEM_LIBS, cmake/Dependencies.cmake), then the C++ runtime.
set(kestrel_static_libs ${KESTREL_SYSTEM_LIBS} stdc++ m pthread)
set(kestrel_static_libs_flags "")
foreach(lib IN LISTS kestrel_static_libs)
  string(APPEND kestrel_static_libs_flags " -l${lib}")
endforeach()
string(STRIP "${kestrel_static_libs_flags}" kestrel_static_libs_flags)

install(FILES api/kestrel.h api/kestrel.hpp
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/kestrel" COMPONENT kestrel_agent)
install(TARGETS kestrel_agent_shared
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT kestrel_agent)
install(FILES "${kestrel_static}"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT kestrel_agent)

set(kestrel_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/kestrel")
configure_package_config_file(packaging/kestrelConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/kestrelConfig.cmake"
  INSTALL_DESTINATION "${kestrel_cmake_dir}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
# The package version is the ABI version: find_package(kestrel 1) accepts
# any library of ABI 1.
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/kestrelConfigVersion.cmake"
  VERSION ${KESTREL_ABI_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/kestrelConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/kestrelConfigVersion.cmake"
  DESTINATION "${kestrel_cmake_dir}" COMPONENT kestrel_agent)

# The .pc file finds the prefix from its own place, as libpman.pc does.
string(REGEX REPLACE "[^/]+" ".." kestrel_pc_to_prefix "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(packaging/kestrel.pc.in "${CMAKE_CURRENT_BINARY_DIR}/kestrel.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/kestrel.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT kestrel_agent)
