#!/usr/bin/env bash
# The whole test suite: set up, build everything (debug, tests included: scripts/build.sh), run every test. With
# CI=true the build is the one scripts/valgrind.sh reuses (see scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
source scripts/setup.sh
# In parallel: peak memory is measured in child processes (ProcessProbe), and every test has its own files.
swift test --skip-build ${debug_build_args[@]+"${debug_build_args[@]}"}
