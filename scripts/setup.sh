#!/usr/bin/env bash
# Installs what RunningMate needs on a fresh Debian 12 machine with Swift 6.3, and nothing that is there already.
# Debian packages come from scripts/apt-packages.txt. Uses sudo only when not root.
#
# With RUNMATE_SETUP=build it installs only what compiling needs (the packages marked `build` in apt-packages.txt:
# pkg-config and the C libraries' headers), so scripts/test.sh can install the tests' tools (servers, valgrind, the
# calendar consumers, Python decoders) beside the build instead of before it.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  else
    echo "setup: swift not found; install Swift 6.3 (https://www.swift.org/install/linux/) and put it on PATH" >&2
    exit 69
  fi
fi

# The tests' build's scratch path in CI (see the end: one build serves the tests and valgrind).
valgrind_scratch=.build-valgrind

missing=()
while read -r package use; do
  case "$package" in ''|'#'*) continue ;; esac
  [ "${RUNMATE_SETUP:-}" != "build" ] || [ "$use" = "build" ] || continue
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done < scripts/apt-packages.txt

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # On a fresh CI machine: no man-db index rebuilt after each install (a trigger that only serves `man -k`).
  if [ "${CI:-}" = "true" ] && [ -e /var/lib/man-db/auto-update ]; then $sudo rm -f /var/lib/man-db/auto-update; fi
  # Before a build (RUNMATE_SETUP=build: scripts/test.sh), SwiftPM fetches and checks out the package's dependencies
  # while apt works: half a minute of git and manifests (measured 31 s with the repositories cached) that
  # `swift build` would otherwise spend after apt, on the way to compiling. The same scratch path as the build's.
  resolving=""
  if [ "${RUNMATE_SETUP:-}" = "build" ] && command -v swift >/dev/null 2>&1; then
    scratch=()
    [ "${CI:-}" != "true" ] || scratch=(--scratch-path "$valgrind_scratch")
    swift package ${scratch[@]+"${scratch[@]}"} resolve >&2 &
    resolving=$!
  fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$resolving" ]; then
    wait "$resolving" || { echo "setup: resolving the Swift packages failed" >&2; exit 1; }
  fi
fi

if [ "${RUNMATE_SETUP:-}" != "build" ]; then
  # The independent .ics checker the tests feed exports to (../shared/tools/ics-check), installed once per machine.
  checker="../shared/tools/ics-check/ics-check"
  state="${ICS_CHECK_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/ics-check}"
  if [ -x "$checker" ] && [ ! -d "$state" ]; then
    echo "setup: installing ics-check" >&2
    "$checker" --install >&2
  fi

  # Garmin's own FIT decoder and fitdecode, which the workout-file tests read every exported workout with (once per
  # user).
  for package in garmin-fit-sdk:garmin_fit_sdk fitdecode:fitdecode; do
    if command -v python3 >/dev/null 2>&1 && ! python3 -c "import ${package#*:}" 2>/dev/null; then
      echo "setup: installing ${package%%:*} (pip)" >&2
      python3 -m pip install --user --quiet "${package%%:*}" >&2 2>/dev/null \
        || python3 -m pip install --user --quiet --break-system-packages "${package%%:*}" >&2
    fi
  done
fi

# The tests' build arguments (test_build_args; outside CI, the usual debug build in .build). In CI (CI=true) one build
# serves the tests and valgrind, in .build-valgrind, so scripts/valgrind.sh finds it built instead of building
# everything a second time; valgrind's own build (outside CI) has DWARF 4 (valgrind 3.19 cannot read Swift 6.3's
# DWARF 5).
# C and C++ targets get no debug info (-g0): the two copies of BoringSSL (swift-nio-ssl's and swift-crypto's, 782 of
# the build's C/C++/asm files) are about a third of its CPU time, and without debug info they compile in a quarter
# less (CNIOBoringSSL alone: 301 to 227 CPU seconds). C++ needs its own -Xcxx: SwiftPM puts its own -g after the
# -Xcc flags on .cc files, and clang's last -g wins (with -Xcc -g0 alone, swift-crypto's .cc units came out as DWARF
# 5, which valgrind cannot read). Without C debug info valgrind names C functions by symbol (libical, the one C
# library its tests reach, is Debian's, without debug info anyway); Swift keeps file:line (outside CI, below).
# That build indexes only the test targets (see the end of Package.swift: RUNMATE_TEST_INDEX_STORE names their store):
# SwiftPM's test discovery reads theirs, and indexing the rest costs a third more CPU (BoringSSL's C++ above all).
valgrind_build_args=(--scratch-path "$valgrind_scratch" --disable-index-store
  -Xswiftc -debug-info-format=dwarf -Xswiftc -dwarf-version=4 -Xcc -g0 -Xcxx -g0)
valgrind_index_store="$PWD/$valgrind_scratch/$(uname -m)-unknown-linux-gnu/debug/index/store"
test_build_args=()
# 1 when valgrind's build is the tests' own (CI): scripts/test.sh then tells scripts/valgrind.sh it is made.
valgrind_reuses_test_build=""
if [ "${CI:-}" = "true" ]; then
  # In CI the one build is SwiftPM's release configuration compiled as a debug build is (-Onone, -enable-testing for
  # the @testable imports; PlanEngine stays optimized, see Package.swift), without debug info (-gnone). Not SwiftPM's
  # debug configuration, because that defines DEBUG for every package: swift-argument-parser then validates every
  # option group again each time it builds one, most of a `runmate` start's CPU time (`log list`: 67 ms against 39 ms
  # here), and the end-to-end tests start `runmate` about 2,400 times. Measured on this 2-core machine, the same
  # tests minutes apart: the suite in 164 s (310 CPU s) against 216 s (421 CPU s) in the debug configuration; the build
  # itself about as long (1,000 CPU s, against 1,054 for the debug one without debug info). release also links
  # runmate with the Swift runtime in it (-static-stdlib, Package.swift), so a start has less to load.
  # Without debug info: binaries a third smaller, a sixth less build time; valgrind reads it (its leak reports name
  # Swift functions by symbol, without file:line; run scripts/valgrind.sh outside CI for those) and a failing test
  # still names its file and line (swift-testing records them at compile time). The same arguments for valgrind.sh,
  # so that it finds this build made.
  valgrind_build_args=(--scratch-path "$valgrind_scratch" --disable-index-store -c release
    -Xswiftc -Onone -Xswiftc -enable-testing -Xswiftc -gnone -Xcc -g0 -Xcxx -g0)
  valgrind_index_store="$PWD/$valgrind_scratch/$(uname -m)-unknown-linux-gnu/release/index/store"
  test_build_args=("${valgrind_build_args[@]}")
  valgrind_reuses_test_build=1
  export RUNMATE_TEST_INDEX_STORE="$valgrind_index_store"
fi
