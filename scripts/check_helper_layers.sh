#!/usr/bin/env bash
# Fails when a probe helper includes a helper of a higher layer
# (driver/modern_bpf/helpers/README.md gives the order).
set -euo pipefail
helpers="$(dirname "$0")/../driver/modern_bpf/helpers"
layers=(base sink build extract dispatch)
rank() {
  local i
  for i in "${!layers[@]}"; do [[ ${layers[$i]} == "$1" ]] && echo "$i" && return; done
  echo "unknown layer $1" >&2
  return 1
}
bad=0
for dir in "$helpers"/*/; do
  layer=$(basename "$dir")
  own=$(rank "$layer")
  for header in "$dir"*.h; do
    # Includes of another layer are spelled "../<layer>/<file>.h".
    while IFS= read -r target; do
      if (($(rank "$target") > own)); then
        echo "$header: $layer/ includes $target/, a higher layer" >&2
        bad=1
      fi
    done < <(sed -nE 's|^#include "\.\./([a-z_]+)/[^"]+".*|\1|p' "$header" | grep -vx shared || true)
  done
done
((bad == 0)) && echo "helper layers: every include goes down"
exit "$bad"
