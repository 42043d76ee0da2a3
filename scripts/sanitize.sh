#!/usr/bin/env bash
# Builds the unit and integration tests with sanitizers and runs them.
#
#   scripts/sanitize.sh [asan|tsan]
#
# asan: AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer),
#       every unit test and the integration suites whose user-space side is
#       more than decoding, into build-asan/. The probe is the same BPF in
#       either build, so a sanitizer sees only what user space does with it:
#       libpman's ring readers, merger, control and recorder, the engine over
#       live records, the CLI the suites run. The per-syscall event suites
#       (`excluded` below, 134 cases, each a probe load) check what
#       the probe wrote; their user-space side is the record decoder, which
#       the unit tests and the record fuzzer run under ASan already. The main
#       ctest run still runs all of them.
# tsan: ThreadSanitizer, the tests of the threaded parts (alert channel
#       workers, the ring merger, the settings seqlock and the consumers of
#       live rings of every kind), into build-tsan/.
# The first report fails its test (-fno-sanitize-recover=all, halt_on_error).
# Suppressions, for third-party code only, are in scripts/sanitizers/.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-asan}
here=$(pwd)

case $kind in
  asan)
    sanitizers=address,undefined
    targets=(kestrel_unit_tests kestrel_integration_tests kestrel_alerts_tests
             kestrel_capture_file_tests kestrel_containers_tests kestrel_dns_tests kestrel_fields_tests
             kestrel_filter_tests kestrel_rules_tests kestrel_agent_tests kestrel_state_tests)
    tests='^(unit|integration)\.'
    # Whole suites, by their ctest names (cmake/KestrelTests.cmake).
    excluded='^integration\.(ProcessEventsTest|NetworkEventsTest|DescriptorEventsTest|FileEventsTest|LongPathTest|FileIoEventsTest|FileNameEventsTest|FilesystemEventsTest|KernelEventsTest|SystemEventsTest)$'
    ;;
  tsan)
    sanitizers=thread
    # One binary of the tests of the threaded parts (test/tsan/CMakeLists.txt).
    targets=(kestrel_threaded_tests)
    tests='^tsan\.'
    excluded='^$'
    ;;
  *)
    echo "sanitize.sh: unknown kind '$kind' (asan or tsan)" >&2
    exit 2
    ;;
esac
dir=${KESTREL_SANITIZE_BUILD_DIR:-build-$kind}

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKESTREL_SANITIZE="$sanitizers" "${launcher[@]}" >/dev/null
cmake --build "$dir" -j "$(nproc)" --target "${targets[@]}"

supp=$here/scripts/sanitizers
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$supp/lsan.supp}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp}
cd "$dir"
exec ctest --output-on-failure -j "$(nproc)" -R "$tests" -E "${KESTREL_SANITIZE_EXCLUDE:-$excluded}"
