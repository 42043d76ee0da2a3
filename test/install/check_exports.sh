#!/usr/bin/env bash
# Fails unless a shared library exports exactly the functions its public
# headers declare. The list is the compiler's reading of the headers
# (gcc -aux-info), not a second hand-kept one; static inline helpers are not
# extern. Usage: check_exports.sh LIB INCLUDE_DIR HEADER...
set -euo pipefail
lib=$1
include=$2
shift 2
work=$(mktemp -d /tmp/kestrel-exports.XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '#include <%s>\n' "$@" >"$work/public.c"
gcc -std=c11 -fsyntax-only -aux-info "$work/decls" -I"$include" "$work/public.c"
declared=$(sed -nE 's@^/\* [^ ]*/include/kestrel/[^ ]+:[0-9]+:N. \*/ extern [^(]*[ *]([A-Za-z_][A-Za-z0-9_]*) \(.*@\1@p' \
  "$work/decls" | sort -u)
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
if [[ $declared != "$exported" ]]; then
  diff <(echo "$declared") <(echo "$exported") >&2 || true
  echo "check_exports: $(basename "$lib")'s exports (>) differ from the functions of $* (<)" >&2
  exit 1
fi
echo "$(basename "$lib") exports $(echo "$exported" | wc -l) functions, those of $*"
