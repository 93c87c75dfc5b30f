#!/usr/bin/env bash
# Lint: the code is formatted as .swift-format says (swift format lint --strict), and each C library and framework
# is imported only by the module that owns it. Exits non-zero, naming each problem, when either fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

status=0

# Module boundaries: "library owner-directory[,another]" (the only places allowed to import it).
boundaries=(
  "CLibical Sources/ICalendar/"
  "GRDB Sources/Logbook/"
  "ArgumentParser Sources/runmate/"
  "CZlib Sources/Archive/"
  "Yams Sources/PlanEngine/"
  "Hummingbird Sources/FeedServer/,Sources/CoachAPI/"
  "HummingbirdCore Sources/FeedServer/"
  "HummingbirdBcrypt Sources/CoachAPI/"
  "OpenAPIRuntime Sources/CoachAPI/"
  "OpenAPIHummingbird Sources/CoachAPI/"
  "Metrics Sources/FeedServer/"
  "Prometheus Sources/FeedServer/"
  "AsyncHTTPClient Sources/CalDAV/,Sources/CoachClient/,Tests/CoachAPITests/,Tests/PostgresStoreTests/TwoServersTests.swift"
  "PostgresNIO Sources/PostgresStore/"
)
for rule in "${boundaries[@]}"; do
  read -r library owners <<<"$rule"
  pattern="^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((internal|public|package|private|fileprivate)[[:space:]]+)?import[[:space:]]+((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?${library}([.[:space:]]|$)"
  while IFS= read -r hit; do
    [[ -z "$hit" ]] && continue
    allowed=0
    IFS=, read -ra places <<<"$owners"
    for owner in "${places[@]}"; do
      [[ "$hit" == "$owner"* ]] && allowed=1
    done
    if [[ $allowed -eq 0 ]]; then
      echo "lint: ${hit%%:*}: imports $library, which only ${owners//,/ and } may import (module boundary)" >&2
      status=1
    fi
  done < <(grep -rnE --include='*.swift' "$pattern" Sources Tests | cut -d: -f1,2 || true)
done

# XMLStream is a leaf (it imports only the C library: no Foundation, no other module), and it is the one XML
# parser: FoundationXML is imported nowhere.
while IFS= read -r hit; do
  [[ -z "$hit" ]] && continue
  echo "lint: ${hit%%:*}: XMLStream imports only Glibc or Darwin (a leaf module)" >&2
  status=1
done < <(grep -rnE --include='*.swift' '^[[:space:]]*import[[:space:]]+' Sources/XMLStream \
  | grep -vE 'import[[:space:]]+(Glibc|Darwin)[[:space:]]*$' | cut -d: -f1,2 || true)
while IFS= read -r hit; do
  [[ -z "$hit" ]] && continue
  echo "lint: ${hit%%:*}: imports FoundationXML; XML is read through XMLStream" >&2
  status=1
done < <(grep -rnE --include='*.swift' 'import[[:space:]]+FoundationXML' Sources Tests | cut -d: -f1,2 || true)

# The CLI renders the application layer: Sources/runmate imports Training and its vocabulary (RunningCore,
# TrainingDomain, PlanEngine), its servers (FeedServer, PlanSync) and ArgumentParser, never storage or a format.
cli_forbidden=(Logbook GRDB Scheduling Ingest CalendarExport ICalendar Activity Health Archive TrainingProgress CalDAV
  XMLStream CLibical CZlib)
for library in "${cli_forbidden[@]}"; do
  while IFS= read -r hit; do
    [[ -z "$hit" ]] && continue
    echo "lint: ${hit%%:*}: the CLI imports $library; it renders Training's use cases (application layer)" >&2
    status=1
  done < <(grep -rnE --include='*.swift' "^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((internal|public|package|private|fileprivate)[[:space:]]+)?import[[:space:]]+${library}([.[:space:]]|$)" Sources/runmate | cut -d: -f1,2 || true)
done

# No flag text in the core: errors and notes name an InputField, and the CLI's one table (Flags.name in
# Sources/runmate/Support/Errors.swift) words it. A string literal outside the CLI that holds an option such as
# "--weeks" is refused (comments are not looked at).
while IFS= read -r hit; do
  [[ -z "$hit" ]] && continue
  echo "lint: ${hit%%:*}: flag text in the core; name the InputField (\\(field: .x) or flag(.x)), the CLI words it" >&2
  status=1
done < <(grep -rnE --include='*.swift' '"--[a-z]|"[^"]*[^-[:alnum:]]--[a-z]' Sources \
  | grep -vE '^Sources/(runmate|runmate-bench)/|^Sources/CoachAPI/Generated/' \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' | cut -d: -f1,2 || true)

# The test tiers (docs/contributing.md): a test file that starts the built `runmate` (through RunMateTestSupport's
# runmateBinary or runmateProcess, or `runmate serve`) tags those tests end-to-end (`.tags(.endToEnd)`); a file of
# helpers without tests is left to the files that use it.
while IFS= read -r file; do
  [[ -z "$file" ]] && continue
  grep -qE '\.endToEnd|^[[:space:]]*@Test' "$file" || continue  # a helper without tests
  grep -q '\.endToEnd' "$file" && continue
  echo "lint: $file: starts runmate but tags no test .endToEnd (Tests/RunMateTestSupport/Tiers.swift)" >&2
  status=1
done < <(grep -rlE --include='*.swift' 'runmateBinary\(\)|runmateProcess\(|ServeProcess\(|ServedFeed\(' Tests \
  | grep -v '^Tests/RunMateTestSupport/' || true)

# The coach API's generated code (scripts/openapi-generate.sh) is made from the document and settings it recorded.
api=Sources/CoachAPI
if [[ "$(cat "$api/openapi.yaml" "$api/openapi-generator-config.yaml" | sha256sum | cut -d' ' -f1)" \
  != "$(cat "$api/Generated/openapi.sha256")" ]]; then
  echo "lint: $api/Generated/ was not made from $api/openapi.yaml as it is: run scripts/openapi-generate.sh" >&2
  status=1
fi

# Formatting and style rules (.swift-format): line length 120, no force unwraps or force tries, documented public API.
if ! swift format lint --strict --recursive --parallel Sources Tests Package.swift; then
  echo "lint: swift format found the problems above; \`swift format format -i -r Sources Tests Package.swift\` fixes most" >&2
  status=1
fi

if [[ $status -eq 0 ]]; then echo "lint: formatting, module boundaries and flag text OK"; fi
exit $status
