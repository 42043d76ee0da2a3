#!/usr/bin/env bash
# Configures and builds Kestrel with its tests into ./build (or
# $KESTREL_BUILD_DIR). scripts/run.sh shares the tree with the tests off, so
# the setting is passed every time: the cache never carries the other one.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${KESTREL_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKESTREL_BUILD_TESTS=ON >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
