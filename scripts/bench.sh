#!/usr/bin/env bash
# Benchmarks (release build): prints figures. See README, "Benchmarks".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product runmate-bench >&2
.build/release/runmate-bench --templates plan-templates "$@"
