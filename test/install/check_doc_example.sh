#!/usr/bin/env bash
# docs/libpman.md shows its complete example inline; the install test builds
# and runs examples/libpman/openat_watch.c. This fails when the two differ,
# so the example readers copy is the one that was tested.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
doc=$root/docs/libpman.md
example=$root/examples/libpman/openat_watch.c
# The first ```c block after the "## A complete example" heading.
shown=$(awk '/^## A complete example/ {in_section = 1; next}
             in_section && /^```c$/ {in_block = 1; next}
             in_block && /^```$/ {exit}
             in_block {print}' "$doc")
[[ -n $shown ]] || { echo "check_doc_example: no \`\`\`c block under '## A complete example' in $doc" >&2; exit 1; }
if ! diff -u <(echo "$shown") "$example" >&2; then
  echo "check_doc_example: $doc's example differs from $example (- doc, + file): copy the file into the doc" >&2
  exit 1
fi
