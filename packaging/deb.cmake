# The Debian package (`cpack -G DEB` in the build directory, or the
# `package_deb` target): kestrel, libpman and the agent library with their
# headers and pkg-config/CMake files under /usr, the configuration in
# /etc/kestrel/ (kestrel.yaml, rules.d/ with the default rules, both
# conffiles) and a hardened systemd unit. Run-time dependencies are read
# from the binaries by dpkg-shlibdeps.
install(FILES "${PROJECT_SOURCE_DIR}/packaging/kestrel.yaml" DESTINATION /etc/kestrel
        COMPONENT package_config EXCLUDE_FROM_ALL)
install(FILES "${PROJECT_SOURCE_DIR}/rules/kestrel_rules.yaml" DESTINATION /etc/kestrel/rules.d
        COMPONENT package_config EXCLUDE_FROM_ALL)
install(FILES "${PROJECT_SOURCE_DIR}/packaging/kestrel.service" DESTINATION lib/systemd/system
        COMPONENT package_config EXCLUDE_FROM_ALL)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
        DESTINATION share/doc/kestrel COMPONENT package_config EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kestrel)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "Kestrel developers <kestrel@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Syscall monitor running Falco's rules on a CO-RE eBPF probe")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# /etc/kestrel is absolute: staged with DESTDIR, the rest under /usr.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${PROJECT_SOURCE_DIR}/packaging/debian/conffiles"
    "${PROJECT_SOURCE_DIR}/packaging/debian/postinst"
    "${PROJECT_SOURCE_DIR}/packaging/debian/prerm"
    "${PROJECT_SOURCE_DIR}/packaging/debian/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
# The package's own files (/etc, the unit) stay out of a plain
# `cmake --install`, which must never write outside its prefix: only the
# package names their component.
set(CPACK_INSTALL_CMAKE_PROJECTS "")
foreach(component kestrel kestrel_agent libpman package_config)
  list(APPEND CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};kestrel;${component};/")
endforeach()
include(CPack)
add_custom_target(package_deb
  COMMAND "${CMAKE_CPACK_COMMAND}" -G DEB
  WORKING_DIRECTORY "${PROJECT_BINARY_DIR}"
  COMMENT "Making the Debian package"
  VERBATIM)
add_dependencies(package_deb kestrel)
