#!/usr/bin/env bash
# Feed server load benchmark (release build, loopback only, bounded): `runmate serve` on a free port over a fresh
# database with an 18-week marathon plan, loaded by wrk (Debian's wrk package) for SECONDS each:
#   1. 304s: every request sends If-None-Match with the current ETag;
#   2. full feeds: every request gets the whole calendar (200);
# each with the access log on (to /dev/null) and off (--no-access-log). Prints requests/s, p50/p99 latency and the
# server's resident memory before and after. SOAK=600 adds a 10-minute full-feed run with the resident memory
# sampled every 30 s (flat memory: the last samples do not grow).
#   scripts/bench-serve.sh [SECONDS] [CONNECTIONS]     (default 10 s, 32 connections, 2 wrk threads)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
seconds="${1:-10}"
connections="${2:-32}"
command -v wrk >/dev/null || { echo "bench-serve: wrk is missing (apt-get install wrk)" >&2; exit 69; }
swift build -c release --product runmate >&2
runmate="$PWD/.build/release/runmate"
source scripts/feed-fixture.sh
rss() { awk '/VmRSS/ { print $2 / 1024 " MB" }' "/proc/$server/status"; }

run_wrk() {  # label, extra wrk arguments
  local label="$1"; shift
  local out
  out="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@" "http://127.0.0.1:$port/feeds/$token.ics")"
  local rps p50 p99 non2xx
  rps="$(awk '/Requests\/sec/ { print $2 }' <<<"$out")"
  p50="$(awk '$1 == "50%" { print $2 }' <<<"$out")"
  p99="$(awk '$1 == "99%" { print $2 }' <<<"$out")"
  non2xx="$(awk '/Non-2xx or 3xx/ { print $5 }' <<<"$out")"
  printf '%-34s %10s req/s   p50 %-9s p99 %-9s %s\n' "$label" "$rps" "$p50" "$p99" \
    "${non2xx:+(non-2xx/3xx: $non2xx)}"
}

for mode in "access log" "no access log"; do
  if [[ "$mode" == "access log" ]]; then start_server; else start_server --no-access-log; fi
  headers="$(curl -s -D - -o "$work/feed.ics" "http://127.0.0.1:$port/feeds/$token.ics")"
  etag="$(awk -F': ' 'tolower($1) == "etag" { print $2 }' <<<"$headers" | tr -d '\r')"
  events="$(grep -c '^BEGIN:VEVENT' "$work/feed.ics")"
  echo "feed: $events events, $(wc -c <"$work/feed.ics") bytes; $mode; server RSS $(rss)"
  run_wrk "304 (If-None-Match), $mode" -H "If-None-Match: $etag"
  run_wrk "200 full feed, $mode"
  echo "server RSS after: $(rss)"
  stop_server
done

if [[ -n "${SOAK:-}" ]]; then
  start_server --no-access-log
  echo "soak: ${SOAK} s of full feeds; RSS every 30 s"
  wrk -t2 -c"$connections" -d"${SOAK}s" --latency "http://127.0.0.1:$port/feeds/$token.ics" >"$work/soak.txt" &
  load=$!
  elapsed=0
  while kill -0 "$load" 2>/dev/null; do
    echo "  ${elapsed}s: $(rss)"
    sleep 30
    elapsed=$((elapsed + 30))
  done
  wait "$load"
  awk '/Requests\/sec|99%/' "$work/soak.txt"
  echo "soak end: $(rss)"
  stop_server
fi
