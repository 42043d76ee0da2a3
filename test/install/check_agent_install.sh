#!/usr/bin/env bash
# The agent library as an embedder gets it: installs a built tree into a
# temporary prefix, checks what libkestrel.so exports, builds the example
# agents (examples/agent: C and C++) against the installed tree with
# pkg-config (shared and --static) and CMake (shared and static), and runs
# each: it loads the example rules, raises an alert with a real open(2) (by
# `touch`), enables a second rule live (the probe's syscall set grows) and
# raises it with a real chmod(2) (by `chmod`), printing both alerts from the
# callback.
# Usage: check_agent_install.sh <build dir>. Without root the examples are
# built but not run.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
examples=$(cd "$(dirname "$0")/../../examples/agent" && pwd)
work=$(mktemp -d /tmp/kestrel-agent-install.XXXXXX)
trap 'rm -rf "$work" /tmp/kestrel-agent-example-*' EXIT
prefix=$work/prefix
include=$prefix/include/kestrel

fail() {
  echo "check_agent_install: $*" >&2
  exit 1
}

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name kestrel.pc)
[[ -n $pc ]] || fail "no kestrel.pc under $prefix"
libdir=$(cd "$(dirname "$pc")/.." && pwd)
[[ -f $include/kestrel.h && -f $include/kestrel.hpp ]] || fail "kestrel.h / kestrel.hpp not installed"
[[ -f $libdir/libkestrel.a ]] || fail "libkestrel.a not installed"
abi=$(sed -nE 's/^#define KESTREL_ABI_VERSION ([0-9]+)$/\1/p' "$include/kestrel.h")
soname=$(objdump -p "$libdir/libkestrel.so" | awk '$1 == "SONAME" {print $2}')
[[ $soname == "libkestrel.so.$abi" ]] || fail "soname $soname, expected libkestrel.so.$abi"

# kestrel.h compiles alone as C and as C++, and kestrel.hpp as C++17.
echo '#include <kestrel.h>' >"$work/h.c"
cc -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$include" "$work/h.c"
echo '#include <kestrel.hpp>' >"$work/hpp.cpp"
c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I"$include" "$work/hpp.cpp"

# Exactly kestrel.h's functions leave libkestrel.so: no C++ symbol, no
# abseil, nothing of libpman's.
"$(dirname "$0")/check_exports.sh" "$libdir/libkestrel.so" "$include" kestrel.h

run_agent() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "(not root: $1 built, not run)"
    return
  fi
  local out
  out=$("$1" "$examples/agent_rules.yaml" 2>&1) || fail "$1 failed: $(tail -5 <<<"$out")"
  local file="/tmp/kestrel-agent-example-[0-9]+"
  grep -qE "^alert: Warning: Example file opened: example file opened \(file=$file proc=touch pid=[0-9]+\)\$" <<<"$out" ||
    fail "$1: no alert for its open: $(tail -5 <<<"$out")"
  grep -qE "^  fd.name=$file\$" <<<"$out" || fail "$1: the alert's fd.name field is missing"
  grep -qE "^alert: Notice: Example file chmod: example file chmod \(file=$file proc=chmod\)\$" <<<"$out" ||
    fail "$1: no alert for its chmod after enabling the rule: $(tail -5 <<<"$out")"
  local before after
  before=$(sed -nE 's/^started: ([0-9]+) syscalls$/\1/p' <<<"$out")
  after=$(sed -nE 's/^rule enabled: ([0-9]+) syscalls$/\1/p' <<<"$out")
  [[ -n $before && -n $after ]] && ((after > before)) ||
    fail "$1: the syscall set did not grow live ($before -> $after)"
  echo "$1: 2 alerts from the callback, syscalls $before -> $after live"
}

export LD_LIBRARY_PATH=$libdir
export PKG_CONFIG_PATH=$libdir/pkgconfig

echo "== pkg-config"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
cc -std=c11 -Wall -Wextra -Werror -o "$work/c_agent" "$examples/c_agent.c" $(pkg-config --cflags --libs kestrel)
# shellcheck disable=SC2046
c++ -std=c++17 -Wall -Wextra -Werror -o "$work/cpp_agent" "$examples/cpp_agent.cpp" \
  $(pkg-config --cflags --libs kestrel)
run_agent "$work/c_agent"
run_agent "$work/cpp_agent"

echo "== pkg-config --static"
# libkestrel.a where the linker finds no libkestrel.so (as a -static
# package installs it), the system libraries pkg-config names after it.
mkdir "$work/static_lib"
cp "$libdir/libkestrel.a" "$work/static_lib/"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$work/c_agent_static" "$examples/c_agent.c" \
  -L"$work/static_lib" $(pkg-config --static --cflags --libs kestrel) 2>"$work/static_link.log" ||
  fail "static link failed: $(grep -m5 -E 'undefined|error' "$work/static_link.log")"
objdump -p "$work/c_agent_static" | grep -q 'NEEDED.*libkestrel' &&
  fail "the --static build still needs libkestrel.so"
run_agent "$work/c_agent_static"

echo "== cmake find_package"
cmake -S "$examples" -B "$work/cmake_build" -G "Unix Makefiles" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake_build" -j2 >/dev/null
for exe in c_agent c_agent_static cpp_agent cpp_agent_static; do
  run_agent "$work/cmake_build/$exe"
done
objdump -p "$work/cmake_build/cpp_agent_static" | grep -q 'NEEDED.*libkestrel' &&
  fail "cpp_agent_static needs libkestrel.so"
echo "check_agent_install: ok"
