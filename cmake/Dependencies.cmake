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
