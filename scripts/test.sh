#!/usr/bin/env bash
# The whole test suite: set up, build everything (unoptimized, tests included: scripts/build.sh), run every test. With
# CI=true the build is the one scripts/valgrind.sh reuses (see scripts/setup.sh); with RUNMATE_VALGRIND=1 (CI) the
# ICalendar tests also run under valgrind, beside the end of the suite (below).
#
# The suite runs as two test processes at once: the end-to-end CLI tests (runmateTests) and all the others. One
# process alone left a fifth of the two cores idle: swift-testing runs tests on the cooperative pool (one thread per
# core), and a test waiting on a child, a server's timeout or a deadline holds its thread. Two processes keep both
# cores busy (the suite in 275 s against 341 s, measured on the same build). Both always run to the end; the exit
# status is the first failing one's.
set -euo pipefail
cd "$(dirname "$0")/.."
# What compiling needs comes first (pkg-config and the C libraries' headers); the tests' own tools (the CalDAV
# servers, PostgreSQL, valgrind, the calendar consumers, the Python FIT decoders) install beside the build: on a
# fresh machine that is minutes of apt and pip the build no longer waits for. Its output is printed once it is done.
RUNMATE_SETUP=build source scripts/setup.sh
setup_log="$(mktemp -t runmate-setup.XXXXXX)"
RUNMATE_SETUP=all bash scripts/setup.sh > "$setup_log" 2>&1 &
setup=$!
RUNMATE_SETUP=build bash scripts/build.sh
setup_status=0
wait "$setup" || setup_status=$?
cat "$setup_log" >&2
rm -f "$setup_log"
[ "$setup_status" -eq 0 ] || { echo "test.sh: setting up the tests' tools failed (exit $setup_status)" >&2; exit 1; }
tests="$(swift build ${test_build_args[@]+"${test_build_args[@]}"} --show-bin-path)/RunningMatePackageTests.xctest"
[ -x "$tests" ] || { echo "test.sh: no test bundle at $tests" >&2; exit 1; }
cli_log="$(mktemp -t runmate-cli-tests.XXXXXX)"
# However the script ends (a failure, ^C), the CLI half does not outlive it. Its kill fails when it has already ended:
# `|| true`, or under `set -e` the trap would turn a passing run into exit 1.
trap '[ -z "${cli:-}" ] || kill "$cli" 2>/dev/null || true; rm -f "$cli_log"' EXIT
# Every test is a swift-testing test: no XCTest pass.
"$tests" --testing-library swift-testing --filter '^runmateTests\.' > "$cli_log" 2>&1 &
cli=$!
status=0
"$tests" --testing-library swift-testing --skip '^runmateTests\.' || status=$?
# RUNMATE_VALGRIND=1 (.ci/run): the ICalendar tests under valgrind (scripts/valgrind.sh, on this build) take the core
# the other tests leave once they are done, beside the CLI half (its hostile-input table alone is a fifth of the
# suite's CPU time); valgrind.sh runs one valgrind per core, so when the CLI half ends first no core stays idle. Not
# before: the API tests' in-process servers, in the other half, miss their deadlines with a core taken for minutes.
valgrind_status=0
if [ "${RUNMATE_VALGRIND:-}" = "1" ]; then
  started=$SECONDS
  # In CI this build is valgrind's (the same arguments, scripts/setup.sh); elsewhere valgrind.sh makes its own first.
  RUNMATE_VALGRIND_BUILT="$valgrind_reuses_test_build" bash scripts/valgrind.sh || valgrind_status=$?
  echo "test.sh: valgrind took $((SECONDS - started)) s, beside the end-to-end CLI tests" >&2
fi
cli_status=0
wait "$cli" || cli_status=$?
cli=""
echo "test.sh: the end-to-end CLI tests (runmateTests), run beside the others:"
cat "$cli_log"
[ "$status" -ne 0 ] || status=$cli_status
[ "$status" -ne 0 ] || status=$valgrind_status
[ "$status" -eq 0 ] && echo "test.sh: every test passed" || echo "test.sh: FAILED (exit $status)" >&2
exit "$status"
