#!/usr/bin/env bash
# Coach API load benchmark (release build, PostgreSQL and wrk on loopback; not run by CI): 1,000 athletes with 5
# years of runs each (4 a week: about 1.04 million runs) generated into a fresh PostgreSQL database, 50 coaches with
# 20 athletes each, each athlete with a 16-week plan under way; two `runmate serve --api` processes on that database;
# wrk against GET /api/v1/roster on both at once, each request with one of the 50 coaches' tokens (Lua script).
# Prints the seeding time, each server's cold pass (every coach's roster once: rows worked out, then kept under
# their fingerprints, see RosterCache), then each server's requests/s and latency percentiles under load (target:
# 200 requests/s in all with p99 under 100 ms).
#   scripts/bench-api.sh [SECONDS] [CONNECTIONS]   (default 30 s and 2 connections per server; at 8 the two
#   cores are saturated and the latency is queueing)
# Needs Debian's postgresql and wrk packages (apt-get install postgresql wrk). RUNMATE_BIN=PATH skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds="${1:-30}"
connections="${2:-2}"
for tool in wrk psql curl; do
  command -v "$tool" >/dev/null || { echo "bench-api.sh: $tool is missing (apt-get install wrk postgresql curl)" >&2; exit 69; }
done
if [ -z "${RUNMATE_BIN:-}" ]; then
  swift build -c release --product runmate >&2
  RUNMATE_BIN=.build/release/runmate
fi
runmate="$(realpath "$RUNMATE_BIN")"
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

bash scripts/postgres.sh start >/dev/null
database="bench_api_$$"
url=$(bash scripts/postgres.sh createdb "$database")
export RUNMATE_DATABASE="$url" RUNMATE_TEMPLATES="$PWD/plan-templates" TZ=UTC
sql() { psql -X -q -v ON_ERROR_STOP=1 "$url" "$@"; }

today=$(date -u +%F)
# The plan's first Monday: 8 weeks ago, so that the roster's week is week 9 of 16 with runs in its load window.
start=$(date -u -d "$today - $(( ($(date -u -d "$today" +%u) - 1) + 56 )) days" +%F)
began=$(date +%s.%N)
# The schema (migrations), one athlete's profile and plan, and one coach account made by runmate itself: the
# generated rows copy them, so that every row is one runmate wrote or would write.
"$runmate" profile init template --level intermediate --days tue,thu,sat,sun --long-run-day sun >/dev/null 2>&1
"$runmate" profile init coach-template --coach >/dev/null 2>&1
"$runmate" plan --distance half --weeks 16 --start "$start" --save --name template --profile template \
  --now "$today" >/dev/null 2>&1
printf 'bench password 1\n' | "$runmate" account create --email coach-template --role coach --profile coach-template \
  >/dev/null 2>&1
sql <<SQL
BEGIN;
INSERT INTO profile (name, isCoach, isDefault, profileJSON)
  SELECT 'coach' || c, true, false, replace(p.profileJSON, '"coach-template"', '"coach' || c || '"')
  FROM generate_series(1, 50) AS c, profile p WHERE p.name = 'coach-template';
INSERT INTO profile (name, isCoach, isDefault, profileJSON)
  SELECT 'athlete' || a, false, false, replace(p.profileJSON, '"template"', '"athlete' || a || '"')
  FROM generate_series(1, 1000) AS a, profile p WHERE p.name = 'template';
INSERT INTO coachAthlete (coachID, athleteID)
  SELECT c.id, a.id FROM generate_series(1, 1000) AS n
  JOIN profile c ON c.name = 'coach' || ((n - 1) / 20 + 1) JOIN profile a ON a.name = 'athlete' || n;
INSERT INTO account (login, loginKey, role, profileID, passwordHash, createdAt)
  SELECT c.name, c.name, 'coach', c.id, t.passwordHash, now()
  FROM profile c, account t WHERE c.name LIKE 'coach%' AND c.name <> 'coach-template' AND t.login = 'coach-template';
INSERT INTO plan (id, name, active, savedAt, planJSON, profileID, scheduleJSON)
  SELECT 'rm-bench-' || a.name, 'plan-' || a.name, false, now(), t.planJSON, a.id, t.scheduleJSON
  FROM profile a, plan t WHERE a.name LIKE 'athlete%' AND t.name = 'template';
INSERT INTO scheduledWorkout (planID, workoutID, week, date, plannedDate, startMinute, timeZone, kind, distanceKm)
  SELECT p.id, w.workoutID, w.week, w.date, w.plannedDate, w.startMinute, w.timeZone, w.kind, w.distanceKm
  FROM plan p JOIN scheduledWorkout w ON w.planID = (SELECT id FROM plan WHERE name = 'template')
  WHERE p.id LIKE 'rm-bench-%';
-- Five years of runs a week on Tuesday, Thursday, Saturday (long) and Sunday; those since the plan began count for
-- it, the older ones for no plan (plans before it are not kept).
INSERT INTO completion (date, distanceKm, durationSeconds, kind, rpe, source, planID, sport)
  SELECT to_char(d, 'YYYY-MM-DD'),
    CASE WHEN extract(isodow FROM d) = 6 THEN 16 + (a % 5) ELSE 7 + (a % 4) END,
    (CASE WHEN extract(isodow FROM d) = 6 THEN 16 + (a % 5) ELSE 7 + (a % 4) END) * (300 + a % 60),
    CASE WHEN extract(isodow FROM d) = 6 THEN 'long' ELSE 'easy' END, 4 + (a % 3), 'manual',
    CASE WHEN d >= DATE '$start' THEN 'rm-bench-athlete' || a END, 'run'
  FROM generate_series(1, 1000) AS a,
    generate_series(DATE '$today' - 5 * 365, DATE '$today' - 1, INTERVAL '1 day') AS d
  WHERE extract(isodow FROM d) IN (2, 4, 6, 7);
COMMIT;
SQL
# As after any bulk load: vacuumed and analysed now, not by autovacuum in the middle of the measurement.
sql -c 'VACUUM (ANALYZE)'

ended=$(date +%s.%N)
runs=$(sql -A -t -c "SELECT count(*) FROM completion")
printf 'seeded %s runs of 1000 athletes, 50 coaches with 20 athletes each, in %.1f s\n' "$runs" \
  "$(python3 -c "print($ended - $began)")"

ports=()
for n in 1 2; do
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$runmate" serve --api --port "$port" --no-access-log 2>"$work/server$n.log" &
  pids+=($!)
  ports+=("$port")
done
for n in 0 1; do
  for _ in $(seq 100); do grep -q listening "$work/server$((n + 1)).log" && break; sleep 0.1; done
done
# A token for each coach (bcrypt at cost 12: about a quarter of a second each), spread over both servers.
tokens=()
for c in $(seq 50); do
  tokens+=("$(curl -s -X POST "http://127.0.0.1:${ports[$((c % 2))]}/api/v1/sessions" -H 'Content-Type: application/json' \
    -d "{\"login\":\"coach$c\",\"password\":\"bench password 1\"}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')")
done
{
  echo 'local tokens = {'
  for token in "${tokens[@]}"; do echo "  \"$token\","; done
  echo '}'
  cat <<'LUA'
local counter = 0
request = function()
  counter = counter + 1
  local token = tokens[(counter % #tokens) + 1]
  return wrk.format("GET", "/api/v1/roster", { ["Authorization"] = "Bearer " .. token })
end
done = function(summary, latency, requests)
  io.write(string.format("requests/s %.1f p50 %.1f ms p90 %.1f ms p99 %.1f ms max %.1f ms errors %d non-2xx %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
LUA
} >"$work/roster.lua"
# Every coach's roster once on each server (a cold pass: each athlete's row is worked out and kept under its
# fingerprint), as a server that has been up a while has them; then both servers under load at once.
for port in "${ports[@]}"; do
  cold_start=$(date +%s%N)
  for token in "${tokens[@]}"; do
    curl -s -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/roster"
  done
  echo "cold pass on :$port: ${#tokens[@]} rosters (1,000 athletes) in $((($(date +%s%N) - cold_start) / 1000000)) ms"
done
for n in 0 1; do
  wrk -t1 -c"$connections" -d"${seconds}s" -s "$work/roster.lua" "http://127.0.0.1:${ports[$n]}" \
    >"$work/wrk$n.txt" 2>&1 &
  wrks[$n]=$!
done
wait "${wrks[0]}" "${wrks[1]}"
for n in 0 1; do echo "server $((n + 1)): $(tail -n 1 "$work/wrk$n.txt")"; done
