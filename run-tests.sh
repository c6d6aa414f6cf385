#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs meson test.
# Extra arguments go to meson test (e.g. --suite runtime, --benchmark).
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  meson setup build
fi
meson test -C build --print-errorlogs "$@"
