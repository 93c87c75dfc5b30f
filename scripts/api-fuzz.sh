#!/usr/bin/env bash
# Fuzzes the coach API with schemathesis (PyPI): a server (`runmate serve --api`, the debug build) on a seeded SQLite
# database in a temporary folder, every operation of Sources/CoachAPI/openapi.yaml called with generated inputs as a
# coach (and the login with generated bodies), each answer checked against the document (status codes, content
# types, headers, schemas) and for server errors. Installs schemathesis with `pip install --user` when it is missing.
# Exits non-zero on any failure. Options: MAX_EXAMPLES (default 50 per operation), RUNMATE (a built runmate).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$HOME/.local/bin:$PATH"

if ! command -v schemathesis >/dev/null 2>&1; then
  python3 -m pip install --user --quiet 'schemathesis>=4,<5' >&2
fi
if [[ -z "${RUNMATE:-}" ]]; then
  swift build --product runmate >&2
  RUNMATE="$(swift build --show-bin-path)/runmate"
fi

work=$(mktemp -d)
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export RUNMATE_DATABASE="$work/runmate.sqlite"
export RUNMATE_TEMPLATES="$PWD/plan-templates"
run() { "$RUNMATE" "$@" >/dev/null; }

# A coach with two athletes, a plan each (started three weeks ago), a few runs, a comment-ready week, accounts.
run profile init kim --coach --specialty "10K to half" --email kim@example.org --telegram kim_runs
run profile init ana --level beginner --tz Europe/Berlin
run profile init bo --level beginner
run coach add-athlete ana --profile kim
run coach add-athlete bo --profile kim
run plan --distance 10k --weeks 8 --start '21 days ago' --save --name ana-10k --profile ana
run plan --distance 5k --weeks 6 --start '14 days ago' --save --name bo-5k --profile bo
run log '20 days ago' --distance 4km --time 26:30 --plan ana-10k
run log '18 days ago' --distance 5km --time 31:00 --plan ana-10k
run log '2 days ago' --distance 3km --time 19:00 --plan bo-5k
password="fuzz-password-$RANDOM$RANDOM"
printf '%s\n' "$password" | run account create --email kim@example.org --role coach --profile kim
printf '%s\n' "$password" | run account create --email ana --role athlete --profile ana

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$RUNMATE" serve --api --port "$port" --no-access-log 2>"$work/serve.log" &
server=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
login() {
  curl -sf -X POST "http://127.0.0.1:$port/api/v1/sessions" -H 'Content-Type: application/json' \
    -d "{\"login\":\"$1\",\"password\":\"$password\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
token=$(login kim@example.org)
athlete_token=$(login ana)
config="$(pwd)/scripts/schemathesis.toml"

started=$(date +%s)
status=0
cd "$work"  # schemathesis writes its own folder where it runs
schemathesis --config-file "$config" run "http://127.0.0.1:$port/api/v1/openapi.yaml" --url "http://127.0.0.1:$port" \
  --header "Authorization: Bearer $token" --checks all --max-examples "${MAX_EXAMPLES:-50}" \
  --exclude-operation-id deleteSession --exclude-operation-id createSession --seed 26 || status=$?
# The athlete's own operations as the athlete (as the coach above they answer 404): the plan, updates and runs.
schemathesis --config-file "$config" run "http://127.0.0.1:$port/api/v1/openapi.yaml" --url "http://127.0.0.1:$port" \
  --header "Authorization: Bearer $athlete_token" --checks all --max-examples "${MAX_EXAMPLES:-50}" \
  --include-operation-id getMyPlan --include-operation-id pushMyPlan --include-operation-id getMyUpdates \
  --include-operation-id pushMyRuns --seed 26 || status=$?
# Logging in, last (its failures count toward the rate limit): the documented 201, 400, 401 and 429 only.
schemathesis --config-file "$config" run "http://127.0.0.1:$port/api/v1/openapi.yaml" \
  --url "http://127.0.0.1:$port" --include-operation-id createSession --checks all --max-examples "${MAX_EXAMPLES:-50}" --seed 26 || status=$?
echo "api-fuzz: schemathesis took $(($(date +%s) - started)) s; exit $status" >&2
if [[ $status -ne 0 ]]; then
  echo "api-fuzz: the server's log:" >&2
  tail -20 "$work/serve.log" >&2
fi
exit $status
