#!/usr/bin/env bash
# The served feed, checked by independent consumers: `runmate serve` on a free loopback port over a fresh database
# with two saved plans (scripts/feed-fixture.sh's all-day 18-week marathon, and a 14-week half with timed workouts
# in Europe/Berlin and reminders), each feed fetched with curl (checked: 200, text/calendar, an ETag, and 304 for a
# second fetch with If-None-Match), then run through
# ../shared/tools/ics-check (six real iCalendar consumers; install them once with `ics-check --install`). Exits with
# ics-check's status (1 if it failed on either feed).
#   scripts/check-feed.sh [RUNMATE]      (default: .build/debug/runmate, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
# ../shared beside the repository (in a git worktree: beside its main checkout), or $ICS_CHECK.
ics_check="${ICS_CHECK:-../shared/tools/ics-check/ics-check}"
if [[ ! -x "$ics_check" && -z "${ICS_CHECK:-}" ]]; then
  ics_check="$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)/../../shared/tools/ics-check/ics-check"
fi
[[ -x "$ics_check" ]] || { echo "check-feed: $ics_check is missing" >&2; exit 69; }
command -v curl >/dev/null || { echo "check-feed: curl is missing (apt-get install curl)" >&2; exit 69; }
runmate="${1:-.build/debug/runmate}"
[[ -x "$runmate" ]] || swift build --product runmate >&2
runmate="$(realpath "$runmate")"
source scripts/feed-fixture.sh
# A second plan with timed workouts (a VTIMEZONE, DST changes, reminders as VALARMs) beside the fixture's all-day one.
"$runmate" plan --distance half --level beginner --weeks 14 --start 2027-02-01 --at 07:00 --tz Europe/Berlin \
  --days tue,thu,sat,sun --remind 30m --save --name timed --now 2027-01-20 >/dev/null 2>&1
timed="$("$runmate" feed create --plan timed 2>/dev/null)"
timed="${timed##*/feeds/}"
start_server

status_all=0
for name in "$token" "${timed%.ics}"; do
  feed="http://127.0.0.1:$port/feeds/$name.ics"
  headers="$(curl -sS --max-time 10 -D - -o "$work/feed.ics" "$feed")"
  status="$(head -n 1 <<<"$headers" | awk '{ print $2 }')"
  type="$(awk -F': ' 'tolower($1) == "content-type" { print $2 }' <<<"$headers" | tr -d '\r')"
  etag="$(awk -F': ' 'tolower($1) == "etag" { print $2 }' <<<"$headers" | tr -d '\r')"
  again="$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$feed")"
  echo "check-feed: GET /feeds/<token>.ics: $status, $type, ETag $etag, $(wc -c <"$work/feed.ics") bytes," \
    "$(grep -c '^BEGIN:VEVENT' "$work/feed.ics") events; with If-None-Match: $again"
  [[ "$status" == 200 && "$type" == "text/calendar; charset=utf-8" && -n "$etag" && "$again" == 304 ]] || {
    echo "check-feed: unexpected answer" >&2; exit 1
  }
  "$ics_check" "$work/feed.ics" || status_all=1
done
exit $status_all
