#!/bin/sh
# Makes saved-plan-main.sqlite: a plan saved by runmate before --cross-training and --strength existed (commit
# f442518), for ExtraDayCommandTests/aPlanSavedBeforeTheOptionsStillLoads. Run from the repository root with a
# runmate built at that commit: RUNMATE=/path/to/runmate sh Tests/LogbookTests/Fixtures/saved-plan-main.sh
set -eu
out=Tests/LogbookTests/Fixtures/saved-plan-main.sqlite
templates=$(mktemp -d)
for f in $(git ls-tree --name-only f442518 plan-templates/ | grep '\.yaml$'); do
  git show "f442518:$f" > "$templates/$(basename "$f")"
done
rm -f "$out"
RUNMATE_DB="$out" "${RUNMATE:-runmate}" plan --templates "$templates" --distance half --level intermediate \
  --weeks 12 --start 2027-01-04 --now 2027-01-01 --save --name spring --tz Europe/Berlin > /dev/null
sqlite3 "$out" 'VACUUM;'
rm -rf "$templates"
