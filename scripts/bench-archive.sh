#!/usr/bin/env bash
# Strava-archive import benchmark (release build): generates 1,000 GPX runs with ../shared/tools/health-gen (not
# committed; kept in $BENCH_DIR, default /tmp/runmate-archive-bench), gzips each, zips them with an activities.csv as
# Strava's bulk export does (export_bench.zip: activities.csv + activities/N.gpx.gz), imports the zip end to end with
# `runmate import` into a throwaway database, and prints the wall time and peak memory (/usr/bin/time -v).
#   scripts/bench-archive.sh [RUNS]     (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
runs="${1:-1000}"
# ../shared from the main checkout; a git worktree under wt/ finds it one level further up.
shared="${RUNMATE_SHARED:-../shared}"
[ -d "$shared" ] || shared="../../shared"
dir="${BENCH_DIR:-/tmp/runmate-archive-bench}"
zip_file="$dir/export_bench-$runs.zip"
mkdir -p "$dir"
if [ ! -s "$zip_file" ]; then
  gen="$dir/gen"
  if [ "$(ls "$gen/workout-routes" 2>/dev/null | wc -l)" -lt "$runs" ]; then
    echo "bench-archive: generating GPX runs in $gen (a few minutes)" >&2
    days=$(( runs * 3 / 2 + 60 ))
    python3 "$shared/tools/health-gen/gen_export.py" --out "$gen/export.xml" --days "$days" --run-rate 2 \
      --scale 0.02 --routes --quiet >&2
  fi
  stage="$dir/stage-$runs"
  rm -rf "$stage"
  mkdir -p "$stage/activities"
  echo '"Activity ID","Activity Date","Activity Name","Activity Type","Elapsed Time","Distance","Filename"' \
    > "$stage/activities.csv"
  id=1000
  for route in $(ls "$gen/workout-routes" | sort | head -n "$runs"); do
    id=$((id + 1))
    gzip -c "$gen/workout-routes/$route" > "$stage/activities/$id.gpx.gz"
    echo "$id,\"\",\"Run $id\",Run,,,activities/$id.gpx.gz" >> "$stage/activities.csv"
  done
  (cd "$stage" && zip -q -r "$zip_file.tmp" activities.csv activities)
  mv "$zip_file.tmp" "$zip_file"
  rm -rf "$stage"
fi
swift build -c release --product runmate >&2
db="$dir/bench.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
bytes=$(stat -c %s "$zip_file")
start=$(date +%s.%N)
/usr/bin/time -v .build/release/runmate import "$zip_file" --db "$db" --tz Europe/Berlin \
  > "$dir/out.txt" 2> "$dir/time.txt"
end=$(date +%s.%N)
peak=$(grep "Maximum resident set size" "$dir/time.txt" | awk '{print $NF}')
tail -n 1 "$dir/out.txt"
python3 - "$bytes" "$start" "$end" "$peak" "$runs" <<'PY'
import sys
size, start, end, peak, runs = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
seconds = end - start
print(f"archive import benchmark: {runs} gzipped GPX runs in a {size/1e6:.0f} MB Strava-style zip, imported end to end "
      f"in {seconds:.1f} s ({runs/seconds:.0f} runs/s); peak memory {peak/1024:.0f} MB")
PY
