#!/usr/bin/env bash
# The whole test suite: set up, build everything (debug, tests included), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
swift test --skip-build
