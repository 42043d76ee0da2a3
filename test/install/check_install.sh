#!/usr/bin/env bash
# Installs a built tree into a temporary prefix, then builds programs against
# it as a user would (pkg-config, and CMake's find_package) and runs them.
# Usage: check_install.sh <build dir>. As root the programs also load the
# probe from the installed library.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/kestrel-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

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
abi=$(sed -nE 's/^#define PMAN_ABI_VERSION ([0-9]+)$/\1/p' "$prefix/include/kestrel/libpman.h")
[[ $soname == "libpman.so.$abi" ]] || fail "soname $soname, expected libpman.so.$abi"
# Only the C ABI leaves the shared library.
others=$(nm -D --defined-only "$libdir/libpman.so" | awk '$3 !~ /^pman_/ {print $3}')
[[ -z $others ]] || fail "libpman.so exports more than pman_*: $(echo $others | head -c 300)"
# Only the public headers are installed, by name.
headers=$(cd "$prefix/include/kestrel" && ls *.h | tr '\n' ' ')
[[ $headers == "libpman.h libpman_control.h libpman_recorder.h " ]] ||
  fail "installed headers: $headers"

load=()
[[ $(id -u) -eq 0 ]] && load=(--load)
export LD_LIBRARY_PATH=$libdir

echo "== pkg-config"
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
cc -std=c11 -Wall -Wextra -Werror -o "$work/pc_consumer" "$here/pman_consumer.c" \
  $(pkg-config --cflags --libs libpman)
"$work/pc_consumer" "${load[@]}"

echo "== cmake find_package"
cmake -S "$here/cmake_consumer" -B "$work/cmake_build" -G "Unix Makefiles" \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake_build" >/dev/null
"$work/cmake_build/pman_consumer_shared"
"$work/cmake_build/pman_consumer_static" "${load[@]}"
echo "check_install: ok"
