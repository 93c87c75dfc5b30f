#!/usr/bin/env bash
# Workout-file benchmark (release build), side by side in one run: every run of a plan per distance x level written
# as FIT workout files by runmate's writer and read back by its reader (runmate-bench workouts), then the same files
# decoded by garmin-fit-sdk and fitdecode; prints workouts/s and ratios. Needs `pip install fit-tool garmin-fit-sdk
# fitdecode`, as scripts/bench-fit.sh (whose timing helper it shares).
#   scripts/bench-workouts.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product runmate-bench >&2
python3 scripts/bench_workouts.py .build/release/runmate-bench "${1:-3}"
