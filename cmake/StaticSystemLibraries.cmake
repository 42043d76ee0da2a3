# kestrel_link_system_libraries_statically(<executable> ARCHIVES <our archives...>)
#
# Links an executable against the static archives of KESTREL_SYSTEM_LIBS
# (Debian's -dev packages ship them) instead of their shared objects. Each
# shared library a process maps costs it resident pages whatever it calls:
# its symbol tables, relocated data and the code around what ran. Abseil
# alone is 30 of them. A monitor's memory is what an operator budgets.
#
# One group holds `ARCHIVES` (every static library of ours the executable
# links) and the system archives, ahead of everything CMake adds, so every
# symbol resolves inside it; --as-needed then drops the shared objects the
# targets still name. One copy of each library, never a mix: the check
# after the link fails the build if the binary needs any shared object but
# the C and C++ runtimes.
function(kestrel_link_system_libraries_statically target)
  cmake_parse_arguments(ARG "" "" "ARCHIVES" ${ARGN})
  set(items -Wl,--start-group)
  foreach(archive IN LISTS ARG_ARCHIVES)
    list(APPEND items "$<TARGET_FILE:${archive}>")
  endforeach()
  list(APPEND items -Wl,-Bstatic)
  foreach(lib IN LISTS KESTREL_SYSTEM_LIBS)
    list(APPEND items "-l${lib}")
  endforeach()
  list(APPEND items -Wl,-Bdynamic -Wl,--end-group)
  get_target_property(already ${target} LINK_LIBRARIES)
  if(already)
    message(FATAL_ERROR "kestrel_link_system_libraries_statically(${target}): call it before "
                        "target_link_libraries, so the group comes first on the link line")
  endif()
  target_link_libraries(${target} PRIVATE ${items})
  target_link_options(${target} PRIVATE "LINKER:--as-needed")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" "-DBINARY=$<TARGET_FILE:${target}>" "-DREADELF=${CMAKE_READELF}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CheckStaticSystemLibraries.cmake"
    VERBATIM)
endfunction()
