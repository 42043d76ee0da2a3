#!/usr/bin/env bash
# Every test: install, build, run unit, integration and end-to-end tests
# with ctest, then the unit tests and the integration suites with user-space
# value again under ASan + UBSan (scripts/sanitize.sh says which) and the
# threaded parts under TSan, then the fuzz targets.
# Integration tests load the real probe; as root they never skip.
#
# It ends with one line per stage and its minutes. CI fails at 90 minutes;
# the command's budget is 35 on a fresh 2-core Debian 12 machine, shared
# among the stages below (minutes; docs/design/test-budget.md has the
# measurements they come from). A stage over its share is named on a line
# of its own. The command fails, with the table and the stages over their
# share, when the whole run is past the budget (KESTREL_TEST_LIMIT_MINUTES,
# default 35), or when any stage is over its share with
# KESTREL_STAGE_BUDGET=enforce. Per stage it only warns by default: the
# VM's CPU changes between sessions, and one stage a little over on a
# slower CPU while the whole fits is not a regression.
# KESTREL_STAGE_BUDGET_<stage>=N changes one share.
set -euo pipefail
cd "$(dirname "$0")/.."

stages=(deps build race_check ctest asan tsan fuzz)
declare -A share=([deps]=2 [build]=8 [race_check]=1 [ctest]=6 [asan]=11 [tsan]=3 [fuzz]=4)
declare -A seconds=()
start_all=$SECONDS

minutes() { awk -v s="$1" 'BEGIN { printf "%6.1f", s / 60 }'; }

report() {
  local name over=()
  echo "test.sh: minutes per stage (share of the 35-minute budget)"
  for name in "${stages[@]}"; do
    [[ -v seconds[$name] ]] || continue
    local limit_var="KESTREL_STAGE_BUDGET_${name}"
    local limit=${!limit_var:-${share[$name]}}
    printf '  %-10s %s  (%s)\n' "$name" "$(minutes "${seconds[$name]}")" "$limit"
    ((seconds[$name] > limit * 60)) && over+=("$name")
  done
  local total=$((SECONDS - start_all))
  printf '  %-10s %s  (35)\n' total "$(minutes "$total")"
  ((${#over[@]})) && echo "test.sh: over its share of the budget: ${over[*]}" >&2
  if ((${#over[@]})) && [[ ${KESTREL_STAGE_BUDGET:-} == enforce ]]; then
    echo "test.sh: FAILED: stages over their share (KESTREL_STAGE_BUDGET=enforce)" >&2
    return 1
  fi
  local budget=${KESTREL_TEST_LIMIT_MINUTES:-35}
  if ((total > budget * 60)); then
    echo "test.sh: FAILED: the run took $(minutes "$total" | tr -d " ") minutes, over its ${budget}-minute" \
      "budget; over their share: ${over[*]:-none}" >&2
    return 1
  fi
}

# stage NAME COMMAND...: runs COMMAND and records its wall time; a failing
# stage prints the table so far and fails the command, naming the stage.
# (Inside `if`, set -e does not stop a function: chain its steps with &&.)
stage() {
  local name=$1 begin=$SECONDS
  shift
  echo "test.sh: stage $name"
  if ! "$@"; then
    seconds[$name]=$((SECONDS - begin))
    report || true
    echo "test.sh: FAILED in stage $name" >&2
    exit 1
  fi
  seconds[$name]=$((SECONDS - begin))
}

# The generated files again with CMake's default generator, Unix Makefiles:
# parallel make runs each target's custom commands on its own, so a
# generated file two targets claim is written twice at once, a race Ninja's
# single graph never shows. Only the targets with custom commands (vmlinux.h,
# the skeletons): the C++ built on them has no custom command of its own and
# the Ninja build has compiled it already.
race_check() {
  local dir=${KESTREL_MAKEFILES_BUILD_DIR:-build-makefiles}
  local launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$dir" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DKESTREL_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null &&
    cmake --build "$dir" -j "$(nproc)" --target kestrel_vmlinux kestrel_probe_gen \
    kestrel_probe_array_gen kestrel_recorder_probe_gen kestrel_bench_producer_gen \
    kestrel_bench_floor_gen
}

run_ctest() {
  (cd "${KESTREL_BUILD_DIR:-build}" && ctest --output-on-failure -j "$(nproc)")
}

stage deps ./scripts/install-deps.sh --tests
stage build ./scripts/build.sh
stage race_check race_check
stage ctest run_ctest
# CMakePresets.json "asan" and "tsan"; the probe is the same. Only the test
# binaries and what they run are built. KESTREL_SANITIZE_STAGE=0 skips
# both, e.g. for a quick local run.
if [[ ${KESTREL_SANITIZE_STAGE:-1} != 0 ]]; then
  stage asan ./scripts/sanitize.sh asan
  stage tsan ./scripts/sanitize.sh tsan
fi
# Every parser of untrusted input under libFuzzer with ASan and UBSan, from
# its committed seeds, then the inputs of every crash found so far.
stage fuzz ./scripts/fuzz.sh all "${KESTREL_FUZZ_SECONDS:-30}"
report
