#!/usr/bin/env bash
# Installs a built tree into a temporary prefix, then builds programs against
# it as a user would (pkg-config, shared and --static, and CMake's
# find_package) and runs them: pman_consumer.c checks the ABI, and
# docs/libpman.md's example (examples/libpman/openat_watch.c) loads the probe
# from the installed library, opens a file and reads its own openat back.
# Usage: check_install.sh <build dir>. Without root the example is built but
# not run.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
example=$(cd "$here/../../examples/libpman" && pwd)/openat_watch.c
work=$(mktemp -d /tmp/kestrel-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
work=$(realpath "$work") # the probe reports resolved paths
prefix=$work/prefix
include=$prefix/include/kestrel

fail() {
  echo "check_install: $*" >&2
  exit 1
}

cmake --install "$build_dir" --prefix "$prefix" >/dev/null

pc=$(find "$prefix" -name libpman.pc)
[[ -n $pc ]] || fail "no libpman.pc under $prefix"
libdir=$(cd "$(dirname "$pc")/.." && pwd)
[[ -x $prefix/bin/kestrel ]] || fail "bin/kestrel not installed"
[[ -f $libdir/libpman.a ]] || fail "libpman.a not installed"
soname=$(objdump -p "$libdir/libpman.so" | awk '$1 == "SONAME" {print $2}')
abi=$(sed -nE 's/^#define PMAN_ABI_VERSION ([0-9]+)$/\1/p' "$include/libpman.h")
[[ $soname == "libpman.so.$abi" ]] || fail "soname $soname, expected libpman.so.$abi"

# Only the public headers are installed by name (libpman's three and the
# agent's kestrel.h), and everything they and the layouts docs/libpman.md
# names include is installed too: all of them compile together with the
# installed tree as the only include path.
headers=$(cd "$include" && ls *.h | tr '\n' ' ')
[[ $headers == "kestrel.h libpman.h libpman_control.h libpman_recorder.h " ]] ||
  fail "installed headers: $headers"
(cd "$include" && find . -name '*.h' | sort | sed -E 's|^\./(.*)|#include <\1>|') >"$work/all_headers.c"
cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$include" "$work/all_headers.c" ||
  fail "the installed headers do not compile on their own (a missing #include target?)"

# Exactly the functions the installed headers declare leave libpman.so.
"$here/check_exports.sh" "$libdir/libpman.so" "$include" libpman.h libpman_control.h libpman_recorder.h

run_example() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "(not root: $1 built, not run)"
    return
  fi
  local file out
  file=$work/opened-by-$(basename "$1")
  touch "$file"
  out=$("$1" "$file") || fail "$1 failed: $(tail -5 <<<"$out")"
  # Its own record, read back: the path the kernel resolved, and the fd and
  # name the example checked against the call it made.
  grep -qE "^[0-9]+ openat $file\$" <<<"$out" || fail "$1 printed no openat of $file"
  grep -qE "^read back own openat of $file: fd [0-9]+\$" <<<"$out" || fail "$1: $(tail -3 <<<"$out")"
  echo "$1: $(grep -c ' openat ' <<<"$out") openat records, its own read back"
}

export LD_LIBRARY_PATH=$libdir
export PKG_CONFIG_PATH=$libdir/pkgconfig
cflags=(-std=c11 -Wall -Wextra -Werror)

echo "== pkg-config"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
cc "${cflags[@]}" -o "$work/pc_consumer" "$here/pman_consumer.c" $(pkg-config --cflags --libs libpman)
"$work/pc_consumer"
# shellcheck disable=SC2046
cc "${cflags[@]}" -o "$work/pc_openat_watch" "$example" $(pkg-config --cflags --libs libpman)
run_example "$work/pc_openat_watch"

echo "== pkg-config --static"
# A fully static program: every archive pkg-config names, in an order the
# linker can resolve.
# shellcheck disable=SC2046
cc "${cflags[@]}" -static -o "$work/static_openat_watch" "$example" \
  $(pkg-config --static --cflags --libs libpman) 2>"$work/static_link.log" ||
  fail "static link failed: $(grep -m5 -E 'undefined|error' "$work/static_link.log")"
objdump -p "$work/static_openat_watch" | grep -q NEEDED && fail "the --static build has dynamic dependencies"
run_example "$work/static_openat_watch"

echo "== cmake find_package"
cmake -S "$here/cmake_consumer" -B "$work/cmake_build" -G "Unix Makefiles" \
  -DCMAKE_PREFIX_PATH="$prefix" -DOPENAT_WATCH_SOURCE="$example" >/dev/null
cmake --build "$work/cmake_build" >/dev/null
"$work/cmake_build/pman_consumer_shared"
"$work/cmake_build/pman_consumer_static"
run_example "$work/cmake_build/openat_watch_shared"
run_example "$work/cmake_build/openat_watch_static"
echo "check_install: ok"
