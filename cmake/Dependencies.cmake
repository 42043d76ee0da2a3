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
