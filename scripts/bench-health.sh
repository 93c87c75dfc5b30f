#!/usr/bin/env bash
# Health import benchmark (release build): generates a large Apple Health export with ../shared/tools/health-gen
# (not committed; kept in $BENCH_DIR, default /tmp/runmate-health-bench), imports it end to end with
# `runmate health import` into a throwaway database, and prints MB/s and peak memory.
#   scripts/bench-health.sh [DAYS] [TARGET_MB]     (default 1500 days, 300 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
days="${1:-1500}"
target="${2:-300}"
dir="${BENCH_DIR:-/tmp/runmate-health-bench}"
export_file="$dir/export-$days-$target.xml"
mkdir -p "$dir"
if [ ! -s "$export_file" ]; then
  echo "bench-health: generating $export_file" >&2
  python3 ../shared/tools/health-gen/gen_export.py --out "$export_file" --days "$days" --target-mb "$target" >&2
fi
swift build -c release --product runmate >&2
db="$dir/bench.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
bytes=$(stat -c %s "$export_file")
start=$(date +%s.%N)
/usr/bin/time -v .build/release/runmate health import "$export_file" --db "$db" --tz Europe/Berlin \
  > "$dir/out.txt" 2> "$dir/time.txt"
end=$(date +%s.%N)
peak=$(grep "Maximum resident set size" "$dir/time.txt" | awk '{print $NF}')
cat "$dir/out.txt"
python3 - "$bytes" "$start" "$end" "$peak" <<'PY'
import sys
size, start, end, peak = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
seconds = end - start
print(f"health import benchmark: {size/1e6:.0f} MB in {seconds:.2f} s = {size/1e6/seconds:.0f} MB/s end to end "
      f"(parse, aggregate, store); peak memory {peak/1024:.0f} MB")
PY
