#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and CI: initdb + pg_ctl from Debian's postgresql package, listening on
# a free loopback port (127.0.0.1 only), in a temporary folder of its own, with durability off (fsync) for speed.
#
#   scripts/postgres.sh start          starts it (or finds it running) and prints its URL
#   scripts/postgres.sh url            prints the URL of the running cluster (exit 1 when none)
#   scripts/postgres.sh createdb NAME  makes an empty database NAME and prints its URL
#   scripts/postgres.sh crash          stops it as a crash would (pg_ctl stop -m immediate), its folder kept
#   scripts/postgres.sh stop           stops it and removes its folder
#
# The URL is postgres://runmate@127.0.0.1:PORT/postgres (trust login on loopback: a test cluster only). initdb and
# postgres refuse to run as root: as root they run as Debian's `postgres` user (runuser), owner of the folder.
# RUNMATE_PG_DIR names the folder (default: one per checkout under $TMPDIR), so every test process of a run finds
# the same cluster; start is safe from several processes at once (flock).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${RUNMATE_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)}"
dir="${RUNMATE_PG_DIR:-${TMPDIR:-/tmp}/runmate-postgres-$(pwd -P | cksum | cut -d' ' -f1)}"
role=runmate

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# Runs a command with no file descriptor open past stderr: the server it leaves behind must not hold the caller's
# (a test runner waits for the end of a socket or pipe its child inherited, flock's lock too).
without_inherited_fds() {
  python3 -c 'import os, sys; os.closerange(3, 1 << 20); os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
owner=()
[ "$(id -u)" -ne 0 ] || owner=(runuser -u postgres --)
url_of() { echo "postgres://$role@127.0.0.1:$(cat "$dir/port")/${1:-postgres}"; }
running() { [ -f "$dir/port" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; }

case "${1:-}" in
  start)
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
      echo "postgres.sh: no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb): install Debian's postgresql" \
        "package (scripts/setup.sh does)" >&2
      exit 69
    fi
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
      echo "postgres.sh: running as root needs the 'postgres' user (Debian's postgresql package makes it)" >&2
      exit 69
    fi
    mkdir -p "$dir"
    exec 9>"$dir/lock"
    flock -w 60 9
    if running; then url_of; exit 0; fi
    rm -rf "$dir/data" "$dir/port"
    chmod 755 "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
    if ! as_owner "$bin/initdb" -D "$dir/data" -U "$role" --auth=trust --encoding=UTF8 --locale=C \
      >"$dir/initdb.log" 2>&1; then
      echo "postgres.sh: initdb failed:" >&2
      tail -n 20 "$dir/initdb.log" >&2
      exit 1
    fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if ! without_inherited_fds ${owner[@]+"${owner[@]}"} "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start </dev/null >"$dir/pg_ctl.log" 2>&1; then
      echo "postgres.sh: the server did not start:" >&2
      tail -n 20 "$dir/pg_ctl.log" "$dir/server.log" >&2
      exit 1
    fi
    echo "$port" >"$dir/port"
    url_of
    ;;
  url)
    running || { echo "postgres.sh: no cluster running in $dir (scripts/postgres.sh start)" >&2; exit 1; }
    url_of
    ;;
  createdb)
    name="${2:?postgres.sh createdb NAME}"
    running || { echo "postgres.sh: no cluster running in $dir (scripts/postgres.sh start)" >&2; exit 1; }
    "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(cat "$dir/port")" -U "$role" -d postgres \
      -c "CREATE DATABASE \"$name\"" >/dev/null
    url_of "$name"
    ;;
  crash)
    running || { echo "postgres.sh: no cluster running in $dir (scripts/postgres.sh start)" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  stop)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: scripts/postgres.sh start|url|createdb NAME|crash|stop" >&2
    exit 64
    ;;
esac
