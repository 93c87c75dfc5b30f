#!/usr/bin/env bash
# The main job: set up, build runmate (release), generate a sample plan, print it, and write its calendar to
# out/plan.ics (import it into any calendar app; see the README).
# Extra arguments replace the sample goal, e.g. scripts/main.sh --distance 10k --level intermediate --weeks 10
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product runmate >&2
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--distance half --level beginner --weeks 12)
mkdir -p out
.build/release/runmate plan --templates plan-templates "${args[@]}"
.build/release/runmate export --templates plan-templates "${args[@]}" --out out/plan.ics
