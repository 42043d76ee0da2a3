# `cmake --install`: libpman shared and static, its public headers under
# include/kestrel/, a pkg-config file and a CMake package (libpman::pman,
# libpman::pman_static). The probe is embedded in the library, so the
# installed library needs no other file of ours.
include(CMakePackageConfigHelpers)

# The three public headers, by name: internal headers next to them (bench
# hooks and the like) must never be installed.
set(pman_public_headers
  "${CMAKE_CURRENT_SOURCE_DIR}/include/libpman.h"
  "${CMAKE_CURRENT_SOURCE_DIR}/include/libpman_control.h"
  "${CMAKE_CURRENT_SOURCE_DIR}/include/libpman_recorder.h")

# Every driver/modern_bpf/shared/ header the public headers reach, followed
# through their quoted includes, so a header added to shared/ later is
# installed once a public header includes it. The walk also starts from the
# layouts docs/libpman.md sends embedders to: no public header includes
# event_types.h or syscall_ids.h, yet a consumer needs them to name a record
# type or a syscall id.
set(pman_shared_dir "${PROJECT_SOURCE_DIR}/driver/modern_bpf/shared")
set(pman_shared_headers
  capture_settings.h
  counters.h
  event_types.h
  record_format.h
  syscall_ids.h)
set(pending ${pman_public_headers})
foreach(name IN LISTS pman_shared_headers)
  list(APPEND pending "${pman_shared_dir}/${name}")
endforeach()
while(pending)
  list(POP_FRONT pending header)
  get_filename_component(header_dir "${header}" DIRECTORY)
  file(STRINGS "${header}" include_lines REGEX "^#include \"[^\"]+\"")
  foreach(line IN LISTS include_lines)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" name "${line}")
    if(name MATCHES "^shared/")
      string(REGEX REPLACE "^shared/" "" name "${name}")
    elseif(header_dir STREQUAL pman_shared_dir OR header_dir MATCHES "/shared/schema$")
      file(RELATIVE_PATH prefix "${pman_shared_dir}" "${header_dir}")
      if(prefix)
        set(name "${prefix}/${name}")
      endif()
    else()
      continue()  # another public header, installed by name
    endif()
    if(NOT name IN_LIST pman_shared_headers)
      if(NOT EXISTS "${pman_shared_dir}/${name}")
        message(FATAL_ERROR "${header}: includes shared/${name}, which does not exist")
      endif()
      list(APPEND pman_shared_headers "${name}")
      list(APPEND pending "${pman_shared_dir}/${name}")
    endif()
  endforeach()
endwhile()

install(FILES ${pman_public_headers}
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/kestrel" COMPONENT libpman)
foreach(name IN LISTS pman_shared_headers)
  get_filename_component(subdir "${name}" DIRECTORY)
  install(FILES "${pman_shared_dir}/${name}"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/kestrel/shared/${subdir}" COMPONENT libpman)
endforeach()

set_target_properties(pman_shared PROPERTIES EXPORT_NAME pman)
set_target_properties(pman PROPERTIES EXPORT_NAME pman_static)
install(TARGETS pman_shared pman EXPORT libpmanTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT libpman
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT libpman)

set(pman_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/libpman")
install(EXPORT libpmanTargets NAMESPACE libpman::
  DESTINATION "${pman_cmake_dir}" COMPONENT libpman)
configure_package_config_file(packaging/libpmanConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/libpmanConfig.cmake"
  INSTALL_DESTINATION "${pman_cmake_dir}")
# The package version is the ABI version: find_package(libpman 2) accepts
# any library of ABI 2.
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/libpmanConfigVersion.cmake"
  VERSION ${KESTREL_PMAN_ABI_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/libpmanConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/libpmanConfigVersion.cmake"
  DESTINATION "${pman_cmake_dir}" COMPONENT libpman)

# The .pc file finds the prefix from its own place, so the tree still works
# when installed with `cmake --install --prefix` or moved.
string(REGEX REPLACE "[^/]+" ".." pman_pc_to_prefix "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(packaging/libpman.pc.in "${CMAKE_CURRENT_BINARY_DIR}/libpman.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/libpman.pc"
  "${CMAKE_CURRENT_SOURCE_DIR}/packaging/libpman-cxx-runtime.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT libpman)
