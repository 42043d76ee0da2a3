# Run after each build of a test binary (KestrelTests.cmake): lists its gtest
# suites and writes the ctest file that adds one test per suite.
#
# -D binary=, prefix=, output=, working_dir=, timeout_per_case=
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${binary}" --gtest_list_tests
  OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE result TIMEOUT 60)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${binary} --gtest_list_tests failed (${result}):\n${listing}${errors}")
endif()

# gtest prints "Suite." then "  Case" lines; a parameterized suite is
# "Instantiation/Suite.", a typed one "Suite/N.  # TypeParam = ...", and
# a case may end with "  # GetParam() = ...". gtest_main's own first line
# has spaces before any dot, so it matches neither pattern.
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(suites "")
set(current "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #]+)\\.( +#.*)?$")
    set(current "${CMAKE_MATCH_1}")
    set(bare "${current}")
    string(REGEX REPLACE "^[^/]+/" "" bare "${bare}")   # Instantiation/
    string(REGEX REPLACE "/[0-9]+$" "" bare "${bare}")  # /N of a typed suite
    if(NOT bare IN_LIST suites)
      list(APPEND suites "${bare}")
      set(filter_${bare} "")
      set(cases_${bare} 0)
    endif()
    list(APPEND filter_${bare} "${current}.*")
  elseif(line MATCHES "^  [^ ]" AND current)
    math(EXPR cases_${bare} "${cases_${bare}} + 1")
  endif()
endforeach()

set(text "# Generated from ${binary} --gtest_list_tests; do not edit.\n")
set(total 0)
foreach(suite IN LISTS suites)
  list(REMOVE_DUPLICATES filter_${suite})
  string(REPLACE ";" ":" filter "${filter_${suite}}")
  math(EXPR timeout "300 + ${timeout_per_case} * (${cases_${suite}} - 1)")
  math(EXPR total "${total} + ${cases_${suite}}")
  string(APPEND text
    "# ${cases_${suite}} cases\n"
    "add_test([==[${prefix}.${suite}]==] [==[${binary}]==] [==[--gtest_filter=${filter}]==])\n"
    "set_tests_properties([==[${prefix}.${suite}]==] PROPERTIES"
    " WORKING_DIRECTORY [==[${working_dir}]==]"
    " RESOURCE_LOCK kestrel_probe TIMEOUT ${timeout}"
    " FAIL_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==])\n")
endforeach()
list(LENGTH suites count)
string(APPEND text "# ${count} suites, ${total} cases\n")
file(WRITE "${output}" "${text}")
