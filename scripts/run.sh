#!/usr/bin/env bash
# The main job: install, build, then capture live syscall events.
# Extra arguments go to `kestrel capture` (default: every syscall, until Ctrl-C).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
exec "${KESTREL_BUILD_DIR:-build}/userspace/kestrel/kestrel" capture "$@"
