#!/usr/bin/env bash
# The whole test suite: set up, build everything (debug, tests included), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
# Serial: two scale tests measure the process's peak memory, which tests running alongside would inflate.
swift test --skip-build --no-parallel
