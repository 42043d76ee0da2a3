#!/usr/bin/env bash
# clang-tidy (.clang-tidy) over the engine and libpman. The main build
# compiles in unity batches, so this configures a tree of its own that
# builds file by file, for a compile_commands.json naming every source, and
# generates the probe skeleton libpman includes.
#
#   scripts/tidy.sh [BUILD_DIR]     (default build-tidy)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${KESTREL_TIDY_BUILD_DIR:-build-tidy}}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=OFF \
  -DKESTREL_BUILD_TESTS=OFF >/dev/null
cmake --build "$dir" -j "$(nproc)" --target kestrel_probe_gen kestrel_recorder_probe_gen
exec run-clang-tidy-14 -quiet -p "$dir" -j "$(nproc)" \
  "$(pwd)/userspace/(engine|libpman)/.*\.(c|cpp)$"
