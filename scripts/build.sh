#!/usr/bin/env bash
# Set-up, then the debug build of everything the tests run: the test bundle and the executables they start (runmate,
# runmate-bench, rusage-probe). With CI=true the build is the one scripts/valgrind.sh reuses (see scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests ${debug_build_args[@]+"${debug_build_args[@]}"}
