#!/usr/bin/env bash
# `runmate push` of a year of runs (release build, loopback): a coach server (`runmate serve --api`) on a fresh
# database with an athlete account and its plan, and the athlete's own logbook with RUNS runs over the last year
# (default 312: six a week), logged with `runmate log`. Times `account login` and `push` twice: the first stores
# every run, the second finds them all there. The goal (issue 26): the first push under 2 s.
#   scripts/bench-push.sh [RUNS]      (RUNMATE=path/to/runmate skips the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${1:-312}"
if [[ -z "${RUNMATE:-}" ]]; then
  swift build -c release --product runmate >&2
  RUNMATE="$PWD/.build/release/runmate"
fi

work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export RUNMATE_TEMPLATES="$PWD/plan-templates" RUNMATE_CONFIG_DIR="$work/config"
password="bench-password-$RANDOM$RANDOM"
serve() { RUNMATE_DATABASE="$work/server.sqlite" "$RUNMATE" "$@" >/dev/null; }
mine() { RUNMATE_DATABASE="$work/local.sqlite" "$RUNMATE" "$@" >/dev/null; }

serve profile init kim --coach
serve profile init ana --level intermediate
serve coach add-athlete ana --profile kim
serve plan --distance marathon --level intermediate --weeks 18 --start '2 weeks ago' --save --name ana-m --profile ana
printf '%s\n' "$password" | serve account create --email ana --role athlete --profile ana

mine profile init ana --level intermediate
started=$(date +%s)
for ((i = 0; i < runs; i++)); do
  day=$((365 - i * 365 / runs))
  mine log "$day days ago" --distance "$((5 + i % 11)).$((i % 10))km" --time "$((30 + i % 40)):$((10 + i % 50))"
done
echo "bench-push: $runs runs logged in $(($(date +%s) - started)) s" >&2

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
RUNMATE_DATABASE="$work/server.sqlite" "$RUNMATE" serve --api --port "$port" --no-access-log 2>"$work/serve.log" &
server=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done

timed() {  # label, command...
  local label="$1"; shift
  local start end
  start=$(date +%s%N)
  "$@"
  end=$(date +%s%N)
  printf '%-22s %6d ms\n' "$label" $(((end - start) / 1000000))
}
timed "account login" sh -c "printf '%s\n' '$password' | RUNMATE_DATABASE='$work/local.sqlite' '$RUNMATE' account login http://127.0.0.1:$port --email ana 2>/dev/null"
timed "push (first)" env RUNMATE_DATABASE="$work/local.sqlite" "$RUNMATE" push
timed "push (again)" env RUNMATE_DATABASE="$work/local.sqlite" "$RUNMATE" push
