import Activity
import CalendarExport
import Foundation
import ICalendar
import Logbook
import PlanEngine
import RunningCore
import Scheduling
import Synchronization
import TrainingDomain
import TrainingProgress

// Benchmarks, run in release mode (scripts/bench.sh):
// 1. Plan engine: every distance × level × weeks combination (absolute minimum to the template maximum) with
//    default inputs, several rounds: plans per second.
// 2. Calendar export: a batch of plans (default 1,000) scheduled with times in Europe/Berlin, turned into
//    calendars and serialized through libical, one calendar per plan: events per second; then parsed back.
// 3. GPX import: a generated GPX file (default 200,000 points 0.4 s apart, ~40 MB) streamed: MB/s and activities/s.
// 4. Progress over a 10-year log: ~3,000 runs in a real SQLite file, `makeProgress` for a plan: time per report.

// `runmate-bench gpx FILE…` (scripts/bench-gpx.sh): reads the files with readActivities, best of 3, and prints
// one line: bytes, seconds, MB/s and the total distance (to compare with the reference's).
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "gpx" {
  let paths = CommandLine.arguments.dropFirst(2).map { URL(fileURLWithPath: $0) }
  let total = paths.reduce(0.0) { sum, url in
    sum + ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.doubleValue ?? 0)
  }
  var best = Duration.seconds(1_000_000)
  var meters = 0.0
  for _ in 0..<3 {
    let start = ContinuousClock.now
    meters = 0
    for url in paths { meters += (try? readActivities(at: url))?.reduce(0) { $0 + $1.distanceMeters } ?? 0 }
    best = min(best, ContinuousClock.now - start)
  }
  let (secondsPart, attoseconds) = best.components
  let elapsed = Double(secondsPart) + Double(attoseconds) / 1e18
  print(
    "runmate \(paths.count) files \(Int(total)) bytes \(elapsed) s \(total / 1e6 / elapsed) MB/s \(meters / 1000) km")
  exit(0)
}

// 7. Workout files (only this, when asked): `runmate-bench workouts DIR [ROUNDS]` (scripts/bench-workouts.sh).
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "workouts" {
  exit(
    runWorkoutBenchmark(
      directory: CommandLine.arguments[2], rounds: CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 20))
}

// 6. Rendering one calendar (only this, when asked): `runmate-bench render ...` (scripts/bench-render.sh).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "render" {
  exit(runRenderBenchmark(arguments: CommandLine.arguments.dropFirst(2)))
}

// 5. FIT decoding (only this, when asked): `runmate-bench --fit FILE [ROUNDS]` (scripts/bench-fit.sh).
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "--fit" {
  exit(
    runFITBenchmark(
      path: CommandLine.arguments[2], rounds: CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 20))
}

var templatesPath = "plan-templates"
var rounds = 5
var exportPlans = 1000
var gpxPoints = 200_000
var plansOnly = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--templates": templatesPath = arguments.next() ?? templatesPath
  case "--rounds": rounds = arguments.next().flatMap(Int.init) ?? rounds
  case "--export-plans": exportPlans = arguments.next().flatMap(Int.init) ?? exportPlans
  case "--gpx-points": gpxPoints = arguments.next().flatMap(Int.init) ?? gpxPoints
  case "--plans-only": plansOnly = true
  default:
    FileHandle.standardError.write(
      Data(
        "usage: runmate-bench [--templates DIR] [--rounds N] [--export-plans N] [--gpx-points N] [--plans-only]\n".utf8)
    )
    exit(64)
  }
}

let names = (try? FileManager.default.contentsOfDirectory(atPath: templatesPath)) ?? []
let files = names.filter { $0.hasSuffix(".yaml") }.sorted().compactMap { name -> TemplateFile? in
  let path = (templatesPath as NSString).appendingPathComponent(name)
  return (try? String(contentsOfFile: path, encoding: .utf8)).map { TemplateFile(name: path, text: $0) }
}
let clock = ContinuousClock()
let rules: PlanRules
let loadStart = clock.now
do {
  rules = try PlanRules(files: files, directory: templatesPath)
} catch {
  FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
  exit(65)
}
let loadTime = clock.now - loadStart

guard let start = CivilDate(iso: "2027-01-04") else { exit(70) }
var goals: [Goal] = []
for distance in RaceDistance.allCases {
  guard let distanceRules = rules.rules(for: distance) else { continue }
  for level in Level.allCases {
    for weeks in distanceRules.minimumWeeks[level].absolute...rules.base.maxWeeks {
      goals.append(
        Goal(
          distance: distance, level: level,
          timeline: Timeline(start: start, raceDate: start.adding(days: 7 * weeks - 1), weeks: weeks)))
    }
  }
}

/// The CPU time of this thread, seconds: what a round costs on a shared, loaded machine, where the wall clock also
/// counts the time other processes hold the cores.
func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var plans = 0
var workouts = 0
var failures = 0
var best = Duration.seconds(1_000_000)
var bestCPU = Double.infinity
for _ in 0..<rounds {
  let roundStart = clock.now
  let cpuStart = threadCPUSeconds()
  for goal in goals {
    do {
      let plan = try makePlan(goal: goal, rules: rules)
      plans += 1
      workouts += plan.weeks.reduce(0) { $0 + $1.workouts.count }
    } catch {
      failures += 1
    }
  }
  best = min(best, clock.now - roundStart)
  bestCPU = min(bestCPU, threadCPUSeconds() - cpuStart)
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
let perRound = Double(goals.count)
/// Whether this binary was compiled without optimization (asserts on). Not `#if DEBUG`: CI's test build is release
/// with -Onone (scripts/setup.sh). A function, so that the constant does not make one branch below unreachable code.
@inline(never) func isUnoptimized() -> Bool { _isDebugAssertConfiguration() }
let buildKind =
  isUnoptimized() ? "unoptimized build: figures are not meaningful, use -c release" : "release build"
print("plan engine benchmark (\(buildKind))")
print("  templates loaded and validated in \(String(format: "%.2f", seconds(loadTime) * 1000)) ms")
print(
  "  combinations: \(goals.count) (6 distances × 3 levels × weeks from the minimum to \(rules.base.maxWeeks)), rounds: \(rounds)"
)
print("  plans generated: \(plans), workouts: \(workouts), refused: \(failures)")
print(
  "  best round: \(String(format: "%.1f", seconds(best) * 1000)) ms = \(String(format: "%.0f", perRound / seconds(best))) plans/s"
    + " (\(String(format: "%.1f", seconds(best) / perRound * 1e6)) µs per plan)")
print(
  "  best round in CPU time: \(String(format: "%.1f", bestCPU * 1000)) ms = "
    + "\(String(format: "%.0f", perRound / bestCPU)) plans per CPU-second")

// The same plans with every text read (titles, descriptions, the weeks' "why" lines and warnings), as `runmate plan`
// prints them: the engine writes its text when it is read, so the figure above is the plan's numbers alone.
var bestWithText = Duration.seconds(1_000_000)
var bestWithTextCPU = Double.infinity
var textBytes = 0
for _ in 0..<rounds {
  let roundStart = clock.now
  let cpuStart = threadCPUSeconds()
  textBytes = 0
  for goal in goals {
    guard let plan = try? makePlan(goal: goal, rules: rules) else { continue }
    for warning in plan.warnings { textBytes += warning.utf8.count }
    for week in plan.weeks {
      for line in week.rules { textBytes += line.utf8.count }
      for workout in week.workouts { textBytes += workout.title.utf8.count + workout.description.utf8.count }
    }
  }
  bestWithText = min(bestWithText, clock.now - roundStart)
  bestWithTextCPU = min(bestWithTextCPU, threadCPUSeconds() - cpuStart)
}
print(
  "  with every text read: best round \(String(format: "%.1f", seconds(bestWithText) * 1000)) ms = "
    + "\(String(format: "%.0f", perRound / seconds(bestWithText))) plans/s, in CPU time "
    + "\(String(format: "%.0f", perRound / bestWithTextCPU)) plans per CPU-second (\(textBytes) bytes of text a round)")

// The same combinations on every core at once (plans are independent and the engine is pure): each worker takes
// every n-th goal. Best of the rounds, next to the single-thread figure above.
let workers = ProcessInfo.processInfo.activeProcessorCount
var bestParallel = Duration.seconds(1_000_000)
var parallelPlans = 0
for _ in 0..<rounds {
  let roundStart = clock.now
  parallelPlans = makePlansOnAllCores(goals: goals, rules: rules, workers: workers)
  bestParallel = min(bestParallel, clock.now - roundStart)
}
print(
  "  all \(workers) cores: best round \(String(format: "%.1f", seconds(bestParallel) * 1000)) ms = "
    + "\(String(format: "%.0f", perRound / seconds(bestParallel))) plans/s (\(parallelPlans) plans a round)")

// `--plans-only`: the plan engine alone (profiling it, comparing two builds).
if plansOnly { exit(0) }

// MARK: - Calendar export

// The goals the engine makes plans for (a compressed plan whose long run falls far short of its race is refused).
let madeGoals = goals.filter { (try? makePlan(goal: $0, rules: rules)) != nil }
guard !madeGoals.isEmpty else {
  FileHandle.standardError.write(Data("runmate-bench: the templates refuse every goal\n".utf8))
  exit(70)
}
let exportGoals = (0..<exportPlans).map { madeGoals[$0 % madeGoals.count] }
var preferences = SchedulingPreferences(
  defaultTime: LocalTime(clampingHour: 6, minute: 30), timeZoneID: "Europe/Berlin")
preferences.times[.saturday] = LocalTime(clampingHour: 8, minute: 0)
var schedules: [Schedule] = []
do {
  for goal in exportGoals {
    schedules.append(try makeSchedule(try makePlan(goal: goal, rules: rules), preferences: preferences))
  }
} catch {
  FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
  exit(70)
}
let stamp = Date(timeIntervalSince1970: 1_795_219_200)
var events = 0
var bytes = 0
var texts: [String] = []
let exportStart = clock.now
do {
  for schedule in schedules {
    let options = ExportOptions(
      reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: schedule.plan),
      calendarName: "bench")
    let export = try makeCalendar(for: schedule, options: options, now: stamp)
    let text = try export.calendar.serialized()
    events += export.calendar.events.count
    bytes += text.utf8.count
    texts.append(text)
  }
} catch {
  FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
  exit(70)
}
let exportTime = clock.now - exportStart
let parseStart = clock.now
var parsedEvents = 0
do {
  for text in texts { parsedEvents += try VCalendar.parse(text).events.count }
} catch {
  FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
  exit(70)
}
let parseTime = clock.now - parseStart
print("calendar export benchmark: \(schedules.count) plans, timed (06:30, Sat 08:00, Europe/Berlin), 2 reminders each")
print(
  "  exported \(events) events (\(bytes / 1_000_000) MB of .ics) in \(String(format: "%.2f", seconds(exportTime))) s = "
    + "\(String(format: "%.0f", Double(events) / seconds(exportTime))) events/s (build + serialize through libical)")
print(
  "  parsed back \(parsedEvents) events in \(String(format: "%.2f", seconds(parseTime))) s = "
    + "\(String(format: "%.0f", Double(parsedEvents) / seconds(parseTime))) events/s")

// Hostile shapes: one event with 16 lines of 1 MiB less a little (folded for libical, whose parser is quadratic
// in a line's length), and a single 8 MiB line (refused by the byte scan before libical sees it).
let longValue = String(repeating: "a", count: (1 << 20) - 64)
let longLines =
  ([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", "BEGIN:VEVENT", "UID:long@bench",
    "DTSTAMP:20270101T000000Z", "DTSTART:20270105T063000Z",
  ]
  + (0..<16).map { "X-LONG-\($0):" + longValue } + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
let longStart = clock.now
let longParsed = (try? VCalendar.parse(longLines))?.events.count ?? 0
let longTime = clock.now - longStart
let hugeLine = "BEGIN:VCALENDAR\r\nX-A:" + String(repeating: "a", count: 8 << 20) + "\r\n"
let hugeStart = clock.now
let hugeRefused = (try? VCalendar.parse(hugeLine)) == nil
let hugeTime = clock.now - hugeStart
print(
  "  16 lines of 1 MiB: \(longParsed) event parsed in \(String(format: "%.0f", seconds(longTime) * 1000)) ms; "
    + "one 8 MiB line \(hugeRefused ? "refused" : "ACCEPTED") in \(String(format: "%.1f", seconds(hugeTime) * 1000)) ms"
)

// MARK: - GPX import

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
  "runmate-bench-\(ProcessInfo.processInfo.processIdentifier)")
try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
let gpxURL = scratch.appendingPathComponent("big.gpx")
do {
  var text =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"bench\" "
    + "xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>bench</name><trkseg>\n"
  text.reserveCapacity(gpxPoints * 200)
  let t0 = 1_700_000_000
  for i in 0..<gpxPoints {
    let lat = 52.5 + Double(i) * 0.00002
    // A point every 0.4 s (5.5 m/s), so 200,000 points take 22 hours.
    let tenths = i * 4
    let seconds = t0 + tenths / 10
    let day = CivilDate(dayNumber: seconds / 86_400)
    let rest = seconds % 86_400
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    text +=
      "<trkpt lat=\"\(lat)\" lon=\"13.4\"><ele>\(35 + i % 7)</ele><time>\(day)T\(two(rest / 3600)):"
      + "\(two(rest % 3600 / 60)):\(two(rest % 60)).\(tenths % 10)Z</time><extensions><gpxtpx:TrackPointExtension "
      + "xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\"><gpxtpx:hr>\(140 + i % 20)"
      + "</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>\n"
  }
  text += "</trkseg></trk></gpx>\n"
  try Data(text.utf8).write(to: gpxURL)
} catch {
  FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
  exit(74)
}
let gpxBytes = (try? FileManager.default.attributesOfItem(atPath: gpxURL.path)[.size] as? NSNumber)?.doubleValue ?? 0
var bestImport = Duration.seconds(1_000_000)
for _ in 0..<3 {
  let start = clock.now
  do { _ = try readActivities(at: gpxURL) } catch {
    FileHandle.standardError.write(Data("runmate-bench: the generated GPX was refused: \(error)\n".utf8))
    exit(70)
  }
  bestImport = min(bestImport, clock.now - start)
}
print("GPX import benchmark: one file of \(gpxPoints) points (\(String(format: "%.1f", gpxBytes / 1e6)) MB), best of 3")
print(
  "  \(String(format: "%.2f", seconds(bestImport))) s = \(String(format: "%.1f", gpxBytes / 1e6 / seconds(bestImport))) MB/s"
)
// Many small runs (a typical watch export: ~0.3 MB, 1 point a second for 40 minutes).
let small = scratch.appendingPathComponent("small.gpx")
do {
  let lines = try String(contentsOf: gpxURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
  let body = lines.prefix(2401).joined(separator: "\n") + "\n</trkseg></trk></gpx>\n"
  try Data(body.utf8).write(to: small)
} catch {
  exit(74)
}
let smallStart = clock.now
for _ in 0..<200 { _ = try? readActivities(at: small) }
let smallTime = clock.now - smallStart
print("  200 activities of 2,400 points: \(String(format: "%.0f", 200 / seconds(smallTime))) activities/s")

// MARK: - Progress over a 10-year log

do {
  let db = try LogbookDatabase(path: scratch.appendingPathComponent("bench.sqlite").path)
  guard let tenYearsAgo = CivilDate(iso: "2017-01-02") else { exit(70) }
  var runs: [Completion] = []
  for day in stride(from: 0, to: 3650, by: 1) where day % 7 != 0 {
    runs.append(
      Completion(
        date: tenYearsAgo.adding(days: day), distanceKm: 5 + Double(day % 11),
        durationSeconds: 1800 + Double(day % 11) * 330,
        rpe: 3 + day % 6))
  }
  let insertStart = clock.now
  _ = try db.addCompletions(runs)
  let insertTime = clock.now - insertStart
  guard let first = CivilDate(iso: "2026-06-01") else { exit(70) }
  let plan = try makePlan(
    goal: Goal(
      distance: .marathon, level: .intermediate,
      timeline: Timeline(start: first, raceDate: first.adding(days: 18 * 7 - 1), weeks: 18)),
    rules: rules)
  let reportStart = clock.now
  var reports = 0
  for _ in 0..<20 {
    let report = makeProgress(plan: plan, completions: try db.completions(), today: first.adding(days: 60))
    reports += report.weeks.count > 0 ? 1 : 0
  }
  let reportTime = clock.now - reportStart
  print(
    "progress benchmark: \(runs.count) runs over 10 years in SQLite (inserted in one transaction in "
      + "\(String(format: "%.0f", seconds(insertTime) * 1000)) ms)")
  print(
    "  read all runs + weekly report: \(String(format: "%.1f", seconds(reportTime) / Double(reports) * 1000)) ms per report"
  )
} catch {
  FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
  exit(70)
}

/// Makes a plan for every goal on `workers` threads (worker k takes goals k, k + workers, …): the plans made.
func makePlansOnAllCores(goals: [Goal], rules: PlanRules, workers: Int) -> Int {
  let made = Atomic<Int>(0)
  DispatchQueue.concurrentPerform(iterations: workers) { worker in
    var count = 0
    for index in stride(from: worker, to: goals.count, by: workers) {
      if (try? makePlan(goal: goals[index], rules: rules)) != nil { count += 1 }
    }
    made.add(count, ordering: .relaxed)
  }
  return made.load(ordering: .relaxed)
}
