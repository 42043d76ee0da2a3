#!/usr/bin/env bash
# Every test: install, build, then run unit and integration tests with ctest.
# Integration tests load the real probe; as root they never skip.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cd "${KESTREL_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
