#!/usr/bin/env bash
# Runs the ICalendar tests (real libical) under valgrind's memcheck; fails on definite leaks, on memory
# errors (invalid reads/writes/frees) and on failing tests.
#
#   scripts/valgrind.sh                      # every ICalendarTests test
#   scripts/valgrind.sh 'OccurrenceTests'    # a swift-testing --filter regex within ICalendarTests
#
# Exit status: 0 clean; 1 definite leak or memory error (valgrind --error-exitcode); otherwise the test
# binary's own status (the first failing process's). The whole valgrind logs are kept in
# .build-valgrind/valgrind-N.log, one per process (see the end).
#
# Two workarounds make valgrind 3.19 (Debian 12) work on Swift 6.3 test binaries; both are needed:
#
# 1. DWARF 5. Swift 6.3 and clang emit DWARF 5 debug info, on which valgrind 3.19 gives up ("debuginfo
#    reader: Possibly corrupted debuginfo file. I can't recover."). So the tests are built in their own
#    scratch path, .build-valgrind (never shared with `swift build`), with DWARF 4: `-debug-info-format=dwarf
#    -dwarf-version=4` for Swift, and C and C++ targets without debug info (`-g0`, see scripts/setup.sh).
#    Leak reports keep file:line for Swift. (In CI the tests' own build is used, made without any debug info:
#    there reports name functions only.)
# 2. sigsuspend. The test runner's main thread parks in libdispatch's _dispatch_sigsuspend(), which passes
#    a `static const sigset_t` (read-only memory) to sigsuspend(). valgrind 3.19 rewrites that mask in
#    place and dies with "VALGRIND INTERNAL ERROR: Valgrind received a signal 11 (SIGSEGV)". A tiny
#    LD_PRELOAD shim, built here with the toolchain's clang, copies the mask to the stack first.
#
# The test binary runs only the ICalendar tests: `<pkg>PackageTests.xctest --testing-library swift-testing
# --filter '^ICalendarTests\.'` (the filter is a regex over test IDs such as
# `ICalendarTests.SerializationTests/roundTripGivesBackTheSameValues()`; `--testing-library swift-testing`
# skips the XCTest pass).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind.sh: installing valgrind" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends valgrind >/dev/null
fi

scratch=.build-valgrind
filter='^ICalendarTests\.'
[ $# -gt 0 ] && filter="^ICalendarTests\\..*($1)"

# The same arguments as scripts/build.sh's build in CI (scripts/setup.sh): after it, nothing is left to build.
# RUNMATE_VALGRIND_BUILT=1 (.ci/run, right after the tests' build) skips the build: `swift test` holds the
# scratch path's lock while it runs, and even a build with nothing to do would wait for it.
if [ "${RUNMATE_VALGRIND_BUILT:-}" != "1" ]; then
  echo "valgrind.sh: building the tests with DWARF 4 in $scratch" >&2
  RUNMATE_TEST_INDEX_STORE="$valgrind_index_store" swift build --build-tests "${valgrind_build_args[@]}" >&2
fi

# The sigsuspend shim (workaround 2).
shim="$scratch/valgrind-sigsuspend-shim.so"
if [ ! -f "$shim" ] || [ "$0" -nt "$shim" ]; then
  compiler="$(dirname "$(command -v swift)")/clang"
  [ -x "$compiler" ] || compiler="$(command -v cc || command -v gcc)"
  "$compiler" -shared -fPIC -O2 -x c -o "$shim" - <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
/* Same call, but with the mask in writable memory: valgrind 3.19 sanitizes it in place. */
int sigsuspend(const sigset_t *mask) {
  sigset_t copy = *mask;
  return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
C
fi

# Known false positives of the toolchain (not of this package): the Swift runtime reads uninitialised padding while
# laying out swift-testing's Testing.Graph and Test.Case.Generator metadata, and swift-testing's own generator
# iterator reads it back (seen once parameterized suites of other targets are in the binary). Suppressed narrowly,
# by swift-testing's frames; nothing in this package's code is suppressed.
suppressions="$scratch/swift-toolchain.supp"
cat > "$suppressions" <<'SUPP'
{
   swift-runtime-initStructMetadata-Testing.Graph
   Memcheck:Cond
   fun:swift_initStructMetadata
   fun:$s7Testing5GraphVMr
}
{
   swift-runtime-initStructMetadata-Testing.Test.Case.Generator
   Memcheck:Cond
   fun:swift_initStructMetadata
   fun:$s7Testing4TestV4CaseV9GeneratorVMr
}
{
   swift-testing-Test.Case.Generator-iterator
   Memcheck:Value8
   fun:$s7Testing4TestV4CaseV9GeneratorV12makeIterator*
}
{
   swift-testing-Test.Case.Generator-release
   Memcheck:Value8
   obj:*/libTesting.so
   fun:_swift_release_dealloc
}
SUPP

binary="$(swift build "${valgrind_build_args[@]}" --show-bin-path)/RunningMatePackageTests.xctest"

# Left out: the two size-limit tests whose inputs (8 MiB lines, 100,000 components, 100,000 nested BEGINs) are
# refused by the Swift byte scan before libical sees a byte. The scan itself runs under valgrind in every other test;
# these two alone took 223 s of a serial run's 600.
skip='^ICalendarTests\.LimitTests/(aContentLineOverOneMiBIsRefusedWithItsLine|tooManyComponentsOrTooDeepANestingIsRefused)\('

# valgrind runs a program's threads one at a time, so one valgrind keeps one core busy: the tests are shared out to
# one valgrind per core (RUNMATE_VALGRIND_SHARDS), each with its own log. The test IDs come from the binary itself
# (run natively, a fifth of a second). Each test goes to the process with the least work so far, the slowest first:
# `slow` names the tests that take over 1.5 s under valgrind (seconds, measured one at a time; the other 56 take
# 0.1 to 1.5 s, counted as 0.5). A renamed test only loses its place in the order.
shards="${RUNMATE_VALGRIND_SHARDS:-$(nproc)}"
slow="runawayRulesAreStopped 7.4 variedCalendarsAreWrittenAsLibicalWritesTheTree 6.2 mutatedCalendarsNeverTrap 4.6
  xlicErrorDeepInALargeFileHasItsLine 4.3 missingUIDDeepInALargeFileNamesItsBeginLine 2.3 truncatedLargeFile 2.2
  unknownTimeZoneDeepInALargeFileHasItsLine 2.1 theBytesAreTheStringsBytes 1.8"
mapfile -t ids < <("$binary" --testing-library swift-testing --list-tests 2>/dev/null | grep -E "$filter" \
  | grep -vE "$skip" || true)
[ ${#ids[@]} -gt 0 ] || { echo "valgrind.sh: no test matches '$filter'" >&2; exit 1; }
[ "$shards" -ge 1 ] || shards=1
[ "$shards" -le ${#ids[@]} ] || shards=${#ids[@]}
# "SHARD ID" lines: the slowest test first (then by ID), each to the least loaded process.
mapfile -t dealt < <(printf '%s\n' "${ids[@]}" | awk -v slow="$slow" '
  BEGIN { n = split(slow, word, /[ \n]+/); for (i = 1; i < n; i += 2) seconds[word[i]] = word[i + 1] }
  { name = $0; sub(/\(.*/, "", name); sub(/.*\//, "", name)
    print ((name in seconds) ? seconds[name] : 0.5), $0 }' | sort -k1,1gr -k2 | awk -v shards="$shards" '
  { best = 0; for (k = 1; k < shards; k++) if (load[k] < load[best]) best = k
    load[best] += $1; print best, $2 }')
echo "valgrind.sh: valgrind $(basename "$binary"): ${#ids[@]} tests matching '$filter' in $shards processes" \
  "(logs: $scratch/valgrind-*.log)" >&2

# Under valgrind code runs 20–50 times slower, and the first input also pays for translating libical: the fuzz test
# has no bound on one input's time here (the native run in scripts/test.sh has), and valgrind checks its memory.
# The large-input tests read files 10 times smaller (the same code over thousands of lines; 2,000 events took 85 s).
export RUNMATE_LARGE_INPUT_DIVISOR="${RUNMATE_LARGE_INPUT_DIVISOR:-10}"
export RUNMATE_FUZZ_INPUT_SECONDS="${RUNMATE_FUZZ_INPUT_SECONDS:-none}"
rm -f "$scratch"/valgrind*.log "$scratch"/valgrind-*.out
pids=()
# However the script ends (a failure, ^C), no valgrind outlives it; one that has ended already makes kill fail.
trap 'kill ${pids[@]+"${pids[@]}"} 2>/dev/null || true' EXIT
for ((shard = 0; shard < shards; shard++)); do
  # This shard's tests as one anchored alternation of their names, regex characters escaped, each up to its `(`
  # (swift-testing matches `name\(` but not a whole listed ID such as `Suite/name()`).
  pattern=""
  for line in "${dealt[@]}"; do
    [ "${line%% *}" = "$shard" ] || continue
    id="${line#* }"
    pattern+="${pattern:+|}$(printf '%s' "${id%%(*}" | sed 's/[][\.*^$(){}+?|/]/\\&/g')"
  done
  LD_PRELOAD="$PWD/$shim" valgrind \
    --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=1 \
    --num-callers=40 --suppressions="$suppressions" --log-file="$scratch/valgrind-$shard.log" \
    "$binary" --testing-library swift-testing --filter "^($pattern)\\(" > "$scratch/valgrind-$shard.out" 2>&1 &
  pids+=($!)
done

# Each process's tests and result: its test summary, definite-leak records, valgrind's summaries. The status is the
# first failing process's.
status=0
for ((shard = 0; shard < shards; shard++)); do
  shard_status=0
  wait "${pids[shard]}" || shard_status=$?
  [ "$status" -ne 0 ] || status=$shard_status
  log="$scratch/valgrind-$shard.log"
  echo "valgrind.sh: process $((shard + 1)) of $shards (exit $shard_status):"
  cat "$scratch/valgrind-$shard.out"
  awk '/definitely lost in loss record/ { show = 1 } show && /^==[0-9]+== $/ { show = 0; print; next } show' "$log"
  grep -E 'LEAK SUMMARY|definitely lost:|indirectly lost:|possibly lost:|still reachable:|ERROR SUMMARY|Invalid (read|write|free)|INTERNAL ERROR|I can.t recover' "$log" || true
done
if [ "$status" -eq 0 ]; then
  echo "valgrind.sh: no definite leaks, no memory errors"
else
  echo "valgrind.sh: FAILED (exit $status): see $scratch/valgrind-*.log" >&2
fi
exit "$status"
