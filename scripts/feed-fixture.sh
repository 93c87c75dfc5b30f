# Sourced by scripts/bench-serve.sh and scripts/check-feed.sh (not run alone): with $runmate set to a built binary,
# makes a fresh database in a temporary folder with an 18-week marathon plan 'bench' (reminders 30 min before) and
# one feed ($token), removes it all on exit, and defines start_server [OPTIONS] (`runmate serve --port 0`, its port
# read from its log into $port, the log in $work/serve.log) and stop_server.
work="$(mktemp -d /tmp/runmate-feed-XXXXXX)"
server=""
cleanup() {
  if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export RUNMATE_DB="$work/runmate.sqlite" TZ=UTC
"$runmate" plan --distance marathon --level intermediate --weeks 18 --start 2027-01-04 --tz Europe/Berlin \
  --remind 30m --save --name bench --now 2026-12-28 >/dev/null 2>&1
url="$("$runmate" feed create --plan bench 2>/dev/null)"
token="${url##*/feeds/}"
token="${token%.ics}"

start_server() {
  : >"$work/serve.log"  # emptied here, not by the child: the last server's port must not be read again
  "$runmate" serve --port 0 "$@" 2>>"$work/serve.log" &
  server=$!
  for _ in $(seq 1 200); do
    port="$(sed -n 's/.*address=http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/serve.log" | head -n 1)"
    [[ -n "$port" ]] && return 0
    sleep 0.05
  done
  echo "the server did not start" >&2; cat "$work/serve.log" >&2; exit 1
}
stop_server() { kill "$server"; wait "$server" || true; server=""; }
