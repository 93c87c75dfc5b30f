#!/usr/bin/env bash
# The whole test suite: set up, build everything (debug, tests included), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
# In parallel: peak memory is measured in child processes (ProcessProbe), and every test has its own files.
swift test --skip-build
