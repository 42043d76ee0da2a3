# System packages Kestrel builds against (Debian 12: see scripts/install-deps.sh).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBBPF REQUIRED IMPORTED_TARGET libbpf>=1.0)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
pkg_check_modules(ZLIB REQUIRED IMPORTED_TARGET zlib)
find_package(absl REQUIRED)
find_package(Threads REQUIRED)
find_package(CLI11 CONFIG REQUIRED)  # header-only: target CLI11::CLI11
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(CURL REQUIRED IMPORTED_TARGET libcurl)
# The Kafka output's producer (librdkafka's C API).
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)
# The agent's webserver (/healthz, /versions, /metrics): Debian's cpp-httplib,
# built with OpenSSL (its pkg-config file defines CPPHTTPLIB_OPENSSL_SUPPORT).
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
# The CRI client (engine/containers/cri). gRPC's package config expects
# ZLIB::ZLIB, which it does not look for when ZLIB_FOUND is already set by
# the pkg-config check above.
find_package(ZLIB REQUIRED)
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)

# The system libraries Kestrel's code calls, in an order a static link
# resolves. One list for libkestrel.a's users (kestrel.pc, the CMake
# package) and for the kestrel binary, which links their static archives
# (cmake/StaticSystemLibraries.cmake).
set(KESTREL_SYSTEM_LIBS
  yaml-cpp re2 zstd bpf elf z
  absl_statusor absl_status absl_cord absl_cordz_info absl_cord_internal absl_cordz_functions
  absl_cordz_handle absl_hash absl_city absl_low_level_hash absl_raw_hash_set
  absl_hashtablez_sampler absl_str_format_internal absl_synchronization absl_graphcycles_internal absl_stacktrace
  absl_symbolize absl_debugging_internal absl_demangle_internal absl_malloc_internal
  absl_time absl_civil_time absl_time_zone absl_strings absl_strings_internal absl_int128
  absl_throw_delegate absl_base absl_spinlock_wait absl_raw_logging_internal
  absl_log_severity absl_exponential_biased absl_strerror absl_bad_optional_access
  absl_bad_variant_access)
