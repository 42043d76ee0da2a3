# Registers gtest binaries with ctest in as few processes as their tests
# allow. gtest_discover_tests makes one ctest test, so one process, per
# gtest case; for the tests that load the probe that is one probe load (4-6 s
# of verifier time) per case even where a suite could share one, and for the
# unit tests it is hundreds of process starts that test nothing.
#
#   kestrel_add_binary_test(TARGET PREFIX NAME)
#     One test, PREFIX.NAME, running every case of TARGET in one process.
#
#   kestrel_add_suite_tests(TARGET PREFIX [TIMEOUT_PER_CASE seconds])
#     One test per gtest suite, PREFIX.Suite, listed after each build of
#     TARGET (--gtest_list_tests), with --gtest_filter naming the suite. The
#     instantiations of a parameterized suite (Prefix/Suite) and the types of
#     a typed suite (Suite/0, Suite/1) are one test under the bare suite
#     name. These tests take the probe lock (one probe at a time, so counts
#     of loaded programs and CPU-wide drop counters stay exact), and a
#     skipped case fails its test: they run as root on a machine that has
#     what they need, so a skip is a check that did not happen.

set(KESTREL_SUITE_DISCOVERY_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/KestrelTestsDiscover.cmake")

function(kestrel_add_binary_test target prefix name)
  add_test(NAME "${prefix}.${name}" COMMAND ${target})
  set_tests_properties("${prefix}.${name}" PROPERTIES TIMEOUT 600)
endfunction()

function(kestrel_add_suite_tests target prefix)
  cmake_parse_arguments(ARG "" "TIMEOUT_PER_CASE" "" ${ARGN})
  if(NOT ARG_TIMEOUT_PER_CASE)
    # A probe load, the case, and the slack of a busy 2-core machine.
    set(ARG_TIMEOUT_PER_CASE 60)
  endif()
  set(suites_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}"
            -D "binary=$<TARGET_FILE:${target}>"
            -D "prefix=${prefix}"
            -D "output=${suites_file}"
            -D "working_dir=${CMAKE_CURRENT_BINARY_DIR}"
            -D "timeout_per_case=${ARG_TIMEOUT_PER_CASE}"
            -P "${KESTREL_SUITE_DISCOVERY_SCRIPT}"
    COMMENT "Listing the gtest suites of ${target}"
    VERBATIM)
  # Before the first build there is nothing to list: a placeholder test
  # fails and says why, rather than ctest silently running nothing.
  file(WRITE "${include_file}"
    "if(EXISTS \"${suites_file}\")\n"
    "  include(\"${suites_file}\")\n"
    "else()\n"
    "  add_test(${prefix}.${target}_NOT_BUILT ${CMAKE_COMMAND} -E false)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
