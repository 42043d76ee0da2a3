# Compiles BPF programs with clang, links them into one object with
# `bpftool gen object`, keeps one source line per function and turns that
# into a skeleton header, so the object is embedded in the library that
# includes the header.

find_program(KESTREL_BPF_CLANG NAMES clang-19 clang-16 clang-14 clang REQUIRED)
find_program(KESTREL_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin REQUIRED)
find_program(KESTREL_LLVM_OBJCOPY NAMES llvm-objcopy-19 llvm-objcopy-16 llvm-objcopy-14 llvm-objcopy
             REQUIRED)

# The host tool that rewrites a linked object's .BTF.ext with one source
# line per function (driver/build_tools/btf_ext_function_lines.cpp says why).
function(kestrel_bpf_build_tools)
  add_executable(kestrel_btf_ext_function_lines
    "${PROJECT_SOURCE_DIR}/driver/build_tools/btf_ext_function_lines.cpp")
endfunction()

set(KESTREL_VMLINUX_H "" CACHE FILEPATH
    "A prepared vmlinux.h; empty = generate it from /sys/kernel/btf/vmlinux")
set(KESTREL_KERNEL_BTF "/sys/kernel/btf/vmlinux" CACHE FILEPATH
    "Kernel BTF to generate vmlinux.h from")

# Where every BPF compile finds vmlinux.h.
set(KESTREL_VMLINUX_DIR "${CMAKE_BINARY_DIR}/vmlinux")

# Declares the one target, kestrel_vmlinux, that writes vmlinux.h; every
# skeleton depends on it. Call it once, from a directory of its own: with
# Unix Makefiles, a target in the rule's directory that lists the header
# would get a copy of the rule, and two copies running at once race on the
# file.
function(kestrel_vmlinux_target)
  set(dir "${KESTREL_VMLINUX_DIR}")
  file(MAKE_DIRECTORY "${dir}")
  if(KESTREL_VMLINUX_H)
    if(NOT EXISTS "${KESTREL_VMLINUX_H}")
      message(FATAL_ERROR "KESTREL_VMLINUX_H=${KESTREL_VMLINUX_H} does not exist")
    endif()
    add_custom_command(OUTPUT "${dir}/vmlinux.h"
      COMMAND ${CMAKE_COMMAND} -E copy "${KESTREL_VMLINUX_H}" "${dir}/vmlinux.h"
      DEPENDS "${KESTREL_VMLINUX_H}"
      COMMENT "Using prepared vmlinux.h")
  else()
    if(NOT EXISTS "${KESTREL_KERNEL_BTF}")
      message(FATAL_ERROR
        "Kernel BTF not found at ${KESTREL_KERNEL_BTF}: this kernel was built without "
        "CONFIG_DEBUG_INFO_BTF. Point -DKESTREL_VMLINUX_H=<file> at a vmlinux.h "
        "generated on a kernel with BTF.")
    endif()
    add_custom_command(OUTPUT "${dir}/vmlinux.h"
      COMMAND ${KESTREL_BPFTOOL} btf dump file "${KESTREL_KERNEL_BTF}" format c
              > "${dir}/vmlinux.h.tmp"
      COMMAND ${CMAKE_COMMAND} -E rename "${dir}/vmlinux.h.tmp" "${dir}/vmlinux.h"
      COMMENT "Generating vmlinux.h from ${KESTREL_KERNEL_BTF}")
  endif()
  add_custom_target(kestrel_vmlinux DEPENDS "${dir}/vmlinux.h")
endfunction()

# kestrel_bpf_skeleton(NAME <skel> SOURCES <.bpf.c...> DEPENDS <headers...>)
# Produces ${CMAKE_CURRENT_BINARY_DIR}/<skel>.skel.h and an INTERFACE target
# <skel>_skeleton whose include path reaches it.
function(kestrel_bpf_skeleton)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;DEPENDS;DEFINES" ${ARGN})
  if(NOT TARGET kestrel_vmlinux)
    message(FATAL_ERROR "kestrel_bpf_skeleton(${ARG_NAME}): call kestrel_vmlinux_target() first")
  endif()
  set(objects "")
  foreach(src ${ARG_SOURCES})
    get_filename_component(stem "${src}" NAME_WE)
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}/${stem}.bpf.o")
    set(defines "")
    foreach(d ${ARG_DEFINES})
      list(APPEND defines "-D${d}")
    endforeach()
    add_custom_command(OUTPUT "${obj}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}"
      COMMAND ${KESTREL_BPF_CLANG} -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86
              ${defines} -Wall -Wextra -Werror -Wno-unused-parameter
              -I "${KESTREL_VMLINUX_DIR}" -c "${CMAKE_CURRENT_SOURCE_DIR}/${src}" -o "${obj}"
      DEPENDS "${src}" ${ARG_DEPENDS} "${KESTREL_VMLINUX_DIR}/vmlinux.h"
      COMMENT "BPF ${src}")
    list(APPEND objects "${obj}")
  endforeach()
  if(NOT TARGET kestrel_btf_ext_function_lines)
    message(FATAL_ERROR "kestrel_bpf_skeleton(${ARG_NAME}): call kestrel_bpf_build_tools() first")
  endif()
  # The linked object keeps every source line for reading verifier logs by
  # hand; the embedded one keeps each function's first.
  set(linked "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.bpf.o")
  set(embedded "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.embedded.bpf.o")
  set(ext "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.btf_ext")
  set(skel "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.skel.h")
  add_custom_command(OUTPUT "${linked}" "${embedded}" "${skel}"
    COMMAND ${KESTREL_BPFTOOL} gen object "${linked}" ${objects}
    COMMAND ${KESTREL_LLVM_OBJCOPY} --dump-section .BTF.ext=${ext} "${linked}"
    COMMAND kestrel_btf_ext_function_lines "${ext}" "${ext}.short"
    COMMAND ${KESTREL_LLVM_OBJCOPY} --update-section .BTF.ext=${ext}.short "${linked}" "${embedded}"
    COMMAND ${KESTREL_BPFTOOL} gen skeleton "${embedded}" name ${ARG_NAME} > "${skel}.tmp"
    COMMAND ${CMAKE_COMMAND} -E rename "${skel}.tmp" "${skel}"
    DEPENDS ${objects} kestrel_btf_ext_function_lines
    COMMENT "BPF skeleton ${ARG_NAME}")
  add_custom_target(${ARG_NAME}_gen DEPENDS "${skel}")
  add_dependencies(${ARG_NAME}_gen kestrel_vmlinux)
  add_library(${ARG_NAME}_skeleton INTERFACE)
  add_dependencies(${ARG_NAME}_skeleton ${ARG_NAME}_gen)
  target_include_directories(${ARG_NAME}_skeleton INTERFACE "${CMAKE_CURRENT_BINARY_DIR}")
endfunction()
