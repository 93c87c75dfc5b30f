#!/usr/bin/env bash
# FIT decoding benchmark (release build), side by side in one run: generates a large FIT activity (default 80,000
# one-second records, cached in $BENCH_DIR, default /tmp/runmate-fit-bench), decodes it with runmate's decoder,
# garmin-fit-sdk and fitdecode, and prints MB/s and ratios. Needs `pip install fit-tool garmin-fit-sdk fitdecode`.
#   scripts/bench-fit.sh [RECORDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product runmate-bench >&2
python3 scripts/bench_fit.py .build/release/runmate-bench "${1:-80000}" "${2:-2}"
