#!/usr/bin/env bash
# clang-tidy (.clang-tidy) over the engine and libpman, from the build's
# compile_commands.json (run scripts/build.sh first: libpman includes the
# generated probe skeleton).
#
#   scripts/tidy.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${KESTREL_BUILD_DIR:-build}}
exec run-clang-tidy-14 -quiet -p "$dir" -j "$(nproc)" \
  "$(pwd)/userspace/(engine|libpman)/.*\.(c|cpp)$"
