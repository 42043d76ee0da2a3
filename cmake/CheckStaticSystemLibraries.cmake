# Run after linking BINARY: fails when it needs a shared object other than
# the C and C++ runtimes (and a sanitizer's, in KESTREL_SANITIZE builds),
# i.e. when a system library was linked outside the static group
# (cmake/StaticSystemLibraries.cmake says why).
execute_process(COMMAND "${READELF}" -d "${BINARY}" OUTPUT_VARIABLE dynamic RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${READELF} -d ${BINARY} failed")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]+\\]" needed "${dynamic}")
foreach(line IN LISTS needed)
  string(REGEX REPLACE ".*\\[([^]]+)\\]$" "\\1" soname "${line}")
  if(NOT soname MATCHES "^(libc|libm|libstdc\\+\\+|libgcc_s|ld-linux-x86-64|ld-linux-aarch64)\\.so"
     AND NOT soname MATCHES "^lib(asan|tsan|ubsan|lsan)\\.so")
    message(FATAL_ERROR "${BINARY} needs ${soname}: link its static archive in the group "
                        "(KESTREL_SYSTEM_LIBS, cmake/StaticSystemLibraries.cmake)")
  endif()
endforeach()
