#!/usr/bin/env bash
# The main job: set up, build runmate (release), generate a sample plan, print it, and write its calendar to
# out/plan.ics (import it into any calendar app; see the README).
# Extra arguments replace the sample goal, e.g. scripts/main.sh --distance 10k --level intermediate --weeks 10
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# In CI (CI=true) the job is a smoke test after the tests: it runs the tests' build (already built, unoptimized,
# see scripts/setup.sh) instead of spending minutes on an optimized build whose speed it does not need.
build_args=(-c release)
if [ "${CI:-}" = "true" ]; then
  build_args=(${test_build_args[@]+"${test_build_args[@]}"})
fi
swift build ${build_args[@]+"${build_args[@]}"} --product runmate >&2
runmate="$(swift build ${build_args[@]+"${build_args[@]}"} --show-bin-path)/runmate"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--distance half --level beginner --weeks 12)
mkdir -p out
"$runmate" plan --templates plan-templates "${args[@]}"
"$runmate" export --templates plan-templates "${args[@]}" --out out/plan.ics
