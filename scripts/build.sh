#!/usr/bin/env bash
# Set-up, then the tests' build of everything they run: the test bundle and the executables they start (runmate,
# runmate-bench, rusage-probe); a debug build, and with CI=true the unoptimized release build that scripts/valgrind.sh
# reuses (see scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests ${test_build_args[@]+"${test_build_args[@]}"}
