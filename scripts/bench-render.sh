#!/usr/bin/env bash
# Rendering speed against libical alone in C (release build): runmate's build + serialize of a plan's calendar
# (`makeCalendar` + `serializedUTF8()`, what a feed renders: the bytes it sends) next to libical-bench's
# serialize-only of the very same .ics (../shared/tools/perf/libical-bench.c, `icalcomponent_as_ical_string_r` of the
# parsed tree, bytes too). runmate-bench's last line also gives `serialized()`, the same text as a Swift String.
#
#   scripts/bench-render.sh [RUNS]    # RUNS interleaved pairs of runs per calendar (default 9)
#
# Each pair runs runmate, then C, on the same file, one right after the other, and gives one ratio. The figure to
# read is the median of those ratios: this machine's speed swings by a third from second to second (shared host),
# and a pair sees the same swing on both sides, while the best of each side apart rewards whichever got the luckier
# second. The best events/s of each side are printed too.
#
# Calendars: a half marathon (advanced, 14 weeks), a marathon (intermediate, 18 weeks), and five marathon plans in
# one calendar; times 06:30 (Saturday 08:00) in Europe/Berlin, the default reminders (30 min before, 20:00 the
# day before). Prints events/s of both and the ratio runmate / C. The machine is shared: compare ratios.
# PERF_DIR overrides where libical-bench.c is (default ../shared/tools/perf).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
runs="${1:-9}"
swift build -c release --product runmate-bench >&2
bench=.build/release/runmate-bench
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

perf_dir="${PERF_DIR:-../shared/tools/perf}"
c_bench=""
if [ -f "$perf_dir/libical-bench.c" ]; then
  c_bench="$scratch/libical-bench"
  # shellcheck disable=SC2046
  cc -O2 "$perf_dir/libical-bench.c" $(pkg-config --cflags --libs libical) -o "$c_bench"
else
  echo "bench-render: $perf_dir/libical-bench.c not found: runmate's figures only" >&2
fi

printf '%-38s %7s %18s %18s %13s %17s\n' "calendar" "events" "runmate best ev/s" "C best ev/s" "median ratio" \
  "ratios (min-max)"
run() {
  local label="$1" rounds="$2"
  shift 2
  local ics="$scratch/plan.ics" best_r=0 best_c=0 events=0 line r c ratios=()
  for _ in $(seq "$runs"); do
    line=$("$bench" render --templates plan-templates --rounds "$rounds" --out "$ics" "$@")
    events=$(sed -E 's/^([0-9]+) events.*/\1/' <<<"$line")
    r=$(sed -E 's/.*build\+serialize ([0-9]+) events\/s.*/\1/' <<<"$line")
    [ "$r" -gt "$best_r" ] && best_r=$r
    if [ -n "$c_bench" ]; then
      c=$("$c_bench" "$ics" "$rounds" | sed -E 's/.*C libical serialize ([0-9]+) events\/s.*/\1/')
      [ "$c" -gt "$best_c" ] && best_c=$c
      ratios+=("$(awk -v r="$r" -v c="$c" 'BEGIN { printf "%.3f", r / c }')")
    fi
  done
  if [ -n "$c_bench" ]; then
    local sorted median
    sorted=$(printf '%s\n' "${ratios[@]}" | sort -n)
    median=$(awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m }' \
      <<<"$sorted")
    printf '%-38s %7s %18s %18s %13s %17s\n' "$label" "$events" "$best_r" "$best_c" "$median" \
      "$(head -n 1 <<<"$sorted" | awk '{ printf "%.2f", $1 }')-$(tail -n 1 <<<"$sorted" | awk '{ printf "%.2f", $1 }')"
  else
    printf '%-38s %7s %18s %18s %13s %17s\n' "$label" "$events" "$best_r" "-" "-" "-"
  fi
  echo "    last run: $line" >&2
}
run "half marathon, advanced, 14 weeks" 400 --distance half --level advanced --weeks 14
run "marathon, intermediate, 18 weeks" 300 --distance marathon --level intermediate --weeks 18
run "5 marathon plans in one calendar" 60 --distance marathon --level intermediate --weeks 18 --plans 5
