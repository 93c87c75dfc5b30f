#!/usr/bin/env bash
# Renders `runmate report --html` in a real headless browser (Chromium from Debian's packages) and saves a
# screenshot, to look at the page as a runner would. Usage: scripts/report-screenshot.sh [OUT.png]
# It builds runmate, makes a throwaway database with a saved plan and a few logged runs, writes the report and
# screenshots it. Exit status is non-zero when the browser cannot render it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
out="${1:-out/report.png}"
if ! command -v chromium >/dev/null 2>&1; then
  echo "report-screenshot: installing chromium" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
swift build --product runmate >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export RUNMATE_DB="$work/runmate.sqlite"
R=.build/debug/runmate
$R plan --distance 10k --level beginner --weeks 8 --start 2027-01-04 --now 2027-01-01 --save --name "spring 10k" >/dev/null
$R log 2027-01-05 --distance 3.5km --time 22:30 --now 2027-01-26 >/dev/null
$R log 2027-01-07 --distance 3.5km --time 21:40 --now 2027-01-26 >/dev/null
$R log 2027-01-10 --distance 5.5km --time 36:10 --now 2027-01-26 >/dev/null
$R log 2027-01-12 --distance 3.4km --time 21:00 --now 2027-01-26 >/dev/null
$R log 2027-01-14 --distance 3.6km --time 22:00 --now 2027-01-26 >/dev/null
$R log 2027-01-17 --distance 6km --time 38:30 --now 2027-01-26 >/dev/null
$R log 2027-01-21 --distance 3km --time 18:40 --now 2027-01-26 >/dev/null
$R log 2027-01-24 --distance 5.2km --time 33:00 --now 2027-01-26 >/dev/null
$R report --html "$work/report.html" --now 2027-01-26
mkdir -p "$(dirname "$out")"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,1900 \
  --screenshot="$out" "file://$work/report.html" 2>/dev/null
[ -s "$out" ] || { echo "report-screenshot: no screenshot written" >&2; exit 1; }
echo "report-screenshot: wrote $out" >&2
