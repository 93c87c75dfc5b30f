#!/usr/bin/env bash
# CLI start-up benchmark (release build): wall and CPU time of `runmate plan --distance half --level beginner
# --weeks 12` with a cold decoded-templates cache (a fresh $XDG_CACHE_HOME each run: the YAML is decoded and the
# entry written) and a warm one, and an 18-week intermediate marathon (warm), next to `runmate --version`. Runs interleave; medians, and ratios to --version.
#   scripts/bench-cli.sh [RUNS]     (default 21)
# BASELINE=/path/to/an/older/runmate adds that binary's plan (cold cache) to the same interleaved runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
runs="${1:-21}"
swift build -c release --product runmate >&2
python3 - "$runs" .build/release/runmate "${BASELINE:-}" <<'PY'
import os, shutil, statistics, subprocess, sys, tempfile, time

runs, binary, baseline = int(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
work = tempfile.mkdtemp(prefix="runmate-bench-cli-")
env = dict(os.environ, RUNMATE_DB=os.path.join(work, "none.sqlite"), XDG_DATA_HOME=os.path.join(work, "data"),
           SOURCE_DATE_EPOCH="1795000000")
env.pop("RUNMATE_TEMPLATES", None)
plan = ["plan", "--distance", "half", "--level", "beginner", "--weeks", "12", "--templates", "plan-templates"]
# The heaviest shaping: peak long runs, MP budget and a 3-week taper over 18 weeks.
marathon = ["plan", "--distance", "marathon", "--level", "intermediate", "--weeks", "18", "--recent-race",
            "10k=50:00", "--templates", "plan-templates"]

def timed(arguments, cache, program=binary):
    """Wall and CPU (user + system, the child's own rusage) milliseconds of one run."""
    start = time.perf_counter()
    child = subprocess.Popen([program] + arguments, env=dict(env, XDG_CACHE_HOME=cache), stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"bench-cli: {program} {' '.join(arguments)} exited with {child.returncode}")
    return wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000

warm = os.path.join(work, "warm")
timed(plan, warm)  # writes the entry the warm runs read
cases = {"--version": [], "plan, cold cache": [], "plan, warm cache": [], "marathon, warm": []}
if baseline:
    cases["plan, BASELINE"] = []
for index in range(runs):
    cold = os.path.join(work, f"cold-{index}")
    cases["--version"].append(timed(["--version"], cold))
    cases["plan, cold cache"].append(timed(plan, cold))
    cases["plan, warm cache"].append(timed(plan, warm))
    cases["marathon, warm"].append(timed(marathon, warm))
    if baseline:
        cases["plan, BASELINE"].append(timed(plan, os.path.join(work, f"baseline-{index}"), baseline))
shutil.rmtree(work)

base_wall = statistics.median(w for w, _ in cases["--version"])
base_cpu = statistics.median(c for _, c in cases["--version"])
print(f"{runs} runs each, medians ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")
print(f"{'':18} {'wall ms':>8} {'× version':>10} {'CPU ms':>8} {'× version':>10}")
for name, samples in cases.items():
    wall = statistics.median(w for w, _ in samples)
    cpu = statistics.median(c for _, c in samples)
    print(f"{name:18} {wall:8.1f} {wall / base_wall:10.2f} {cpu:8.1f} {cpu / base_cpu:10.2f}")
PY
