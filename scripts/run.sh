#!/usr/bin/env bash
# The main job: install, build `kestrel` alone (no tests), then watch the
# machine with `kestrel run` and Kestrel's default rules (rules/), until
# Ctrl-C. Extra arguments go to `kestrel run` (e.g. -o json_output=true,
# -r my_rules.yaml).
#
# It shares ./build with scripts/build.sh, so a later test build reuses
# every object compiled here; KESTREL_BUILD_TESTS is passed each time so
# the cache never keeps the other script's value.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${KESTREL_BUILD_DIR:-build}
echo "run.sh: installing packages (only the missing ones)"
./scripts/install-deps.sh
echo "run.sh: configuring $build_dir (tests off)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKESTREL_BUILD_TESTS=OFF >/dev/null
echo "run.sh: building kestrel and what it links, nothing else (ninja counts [done/total] steps;" \
  "a first build takes about 3 minutes on 2 cores)"
cmake --build "$build_dir" -j "$(nproc)" --target kestrel
echo "run.sh: starting kestrel run"
exec "$build_dir/userspace/kestrel/kestrel" run "$@"
