import CalendarExport
import Foundation
import ICalendar
import PlanEngine
import Scheduling

// Benchmarks, run in release mode (scripts/bench.sh):
// 1. Plan engine: every distance × level × weeks combination (absolute minimum to the template maximum) with
//    default inputs, several rounds: plans per second.
// 2. Calendar export: a batch of plans (default 1,000) scheduled with times in Europe/Berlin, turned into
//    calendars and serialized through libical, one calendar per plan: events per second; then parsed back.

var templatesPath = "plan-templates"
var rounds = 5
var exportPlans = 1000
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--templates": templatesPath = arguments.next() ?? templatesPath
  case "--rounds": rounds = arguments.next().flatMap(Int.init) ?? rounds
  case "--export-plans": exportPlans = arguments.next().flatMap(Int.init) ?? exportPlans
  default:
    FileHandle.standardError.write(Data("usage: runmate-bench [--templates DIR] [--rounds N] [--export-plans N]\n".utf8))
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
      goals.append(Goal(distance: distance, level: level,
                        timeline: Timeline(start: start, raceDate: start.adding(days: 7 * weeks - 1), weeks: weeks)))
    }
  }
}

var plans = 0
var workouts = 0
var failures = 0
var best = Duration.seconds(1_000_000)
for _ in 0..<rounds {
  let roundStart = clock.now
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
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
let perRound = Double(goals.count)
#if DEBUG
let buildKind = "DEBUG build: figures are not meaningful, use -c release"
#else
let buildKind = "release build"
#endif
print("plan engine benchmark (\(buildKind))")
print("  templates loaded and validated in \(String(format: "%.2f", seconds(loadTime) * 1000)) ms")
print("  combinations: \(goals.count) (6 distances × 3 levels × weeks from the minimum to \(rules.base.maxWeeks)), rounds: \(rounds)")
print("  plans generated: \(plans), workouts: \(workouts), refused: \(failures)")
print("  best round: \(String(format: "%.1f", seconds(best) * 1000)) ms = \(String(format: "%.0f", perRound / seconds(best))) plans/s"
  + " (\(String(format: "%.1f", seconds(best) / perRound * 1e6)) µs per plan)")

// MARK: - Calendar export

let exportGoals = (0..<exportPlans).map { goals[$0 % goals.count] }
var preferences = SchedulingPreferences(defaultTime: LocalTime(clampingHour: 6, minute: 30), timeZoneID: "Europe/Berlin")
preferences.times[.saturday] = LocalTime(clampingHour: 8, minute: 0)
var schedules: [Schedule] = []
do {
  for goal in exportGoals { schedules.append(try makeSchedule(try makePlan(goal: goal, rules: rules), preferences: preferences)) }
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
    let options = ExportOptions(reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: schedule.plan),
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
print("  exported \(events) events (\(bytes / 1_000_000) MB of .ics) in \(String(format: "%.2f", seconds(exportTime))) s = "
  + "\(String(format: "%.0f", Double(events) / seconds(exportTime))) events/s (build + serialize through libical)")
print("  parsed back \(parsedEvents) events in \(String(format: "%.2f", seconds(parseTime))) s = "
  + "\(String(format: "%.0f", Double(parsedEvents) / seconds(parseTime))) events/s")
