#!/usr/bin/env bash
# The main job: install, build, then watch the machine with `kestrel run`
# and Kestrel's default rules (rules/), until Ctrl-C. Extra arguments go to
# `kestrel run` (e.g. -o json_output=true, -r my_rules.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
exec "${KESTREL_BUILD_DIR:-build}/userspace/kestrel/kestrel" run "$@"
