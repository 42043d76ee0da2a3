#!/usr/bin/env bash
# Every test: install, build, run unit, integration and end-to-end tests
# with ctest, then the unit and integration tests again under ASan + UBSan
# and the threaded parts under TSan, then the fuzz targets.
# Integration tests load the real probe; as root they never skip.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh

# The generated files again with CMake's default generator, Unix Makefiles:
# parallel make runs each target's custom commands on its own, so a
# generated file two targets claim is written twice at once, a race Ninja's
# single graph never shows. Every target with custom commands (vmlinux.h,
# the skeletons) and the library built on them; the rest of the product is
# plain C++ the Ninja build has compiled already.
makefiles_dir=${KESTREL_MAKEFILES_BUILD_DIR:-build-makefiles}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$makefiles_dir" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKESTREL_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$makefiles_dir" -j "$(nproc)" --target kestrel_vmlinux kestrel_probe_gen \
  kestrel_probe_array_gen kestrel_recorder_probe_gen kestrel_bench_producer_gen \
  kestrel_bench_floor_gen pman

(cd "${KESTREL_BUILD_DIR:-build}" && ctest --output-on-failure -j "$(nproc)")

# The unit and integration tests again with AddressSanitizer and
# UndefinedBehaviorSanitizer, then the tests of the threaded parts (alert
# channel workers, ring merger, consumers of several rings) with
# ThreadSanitizer (CMakePresets.json "asan" and "tsan"; the probe is the
# same). Only the test binaries and what they run are built.
# KESTREL_SANITIZE_STAGE=0 skips both, e.g. for a quick local run.
if [[ ${KESTREL_SANITIZE_STAGE:-1} != 0 ]]; then
  ./scripts/sanitize.sh asan
  ./scripts/sanitize.sh tsan
fi

# Every parser of untrusted input under libFuzzer with ASan and UBSan, from
# its committed seeds, then the inputs of every crash found so far.
./scripts/fuzz.sh all "${KESTREL_FUZZ_SECONDS:-30}"
