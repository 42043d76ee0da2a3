#!/usr/bin/env bash
# Builds the fuzz targets (clang, ASan + UBSan, libFuzzer) and runs them.
#
#   scripts/fuzz.sh                 every target for 30 s, then the crash regressions
#   scripts/fuzz.sh all SECONDS     every target for SECONDS
#   scripts/fuzz.sh TARGET SECONDS  one target (record_fuzzer, capture_file_fuzzer,
#                                   scap_file_fuzzer, filter_fuzzer, settings_fuzzer, recorder_scan_fuzzer,
#                                   rules_fuzzer, config_fuzzer)
#
# A crash leaves its input in build-fuzz/test/fuzz/artifacts/TARGET/; commit it
# under test/fuzz/regressions/TARGET/ with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-all}
seconds=${2:-30}
dir=${KESTREL_FUZZ_BUILD_DIR:-build-fuzz}

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKESTREL_BUILD_FUZZERS=ON \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DKESTREL_FUZZ_SECONDS="$seconds" "${launcher[@]}" >/dev/null

if [[ $target == all ]]; then
  cmake --build "$dir" -j "$(nproc)"
  cd "$dir"
  exec ctest --output-on-failure -j "$(nproc)"
fi
cmake --build "$dir" --target "$target"
cd "$dir"
exec ctest --output-on-failure -R "^fuzz\.${target}(\.regressions)?\$"
