import CalendarExport
import Foundation
import ICalendar
import PlanEngine
import RunningCore
import Scheduling

// `runmate-bench render [--templates DIR] [--distance D] [--level L] [--weeks N] [--plans N] [--rounds N]
// [--out FILE]` (scripts/bench-render.sh): the export path alone, on one calendar. It makes `--plans` plans
// (default 1) of the given goal, consecutive races a week apart, schedules them with times in Europe/Berlin (06:30,
// Saturday 08:00) and the default reminders, writes the calendar of all of them (one VCALENDAR) to `--out` once,
// then times `makeCalendar` + `serializedUTF8()` (build + serialize through libical: what a feed renders, the bytes
// it sends) over `--rounds` rounds (best of 3 passes) and prints events/s; for one plan also each half alone, and
// `serialized()` (the same text made a Swift String). libical-bench (../shared/tools/perf) then serializes the very
// same file in C (its text is bytes too).

/// Runs the render benchmark; returns the exit status.
func runRenderBenchmark(arguments: ArraySlice<String>) -> Int32 {
  var templatesPath = "plan-templates"
  var distance = RaceDistance.half
  var level = Level.advanced
  var weeks = 14
  var plans = 1
  var rounds = 500
  var out: String?
  var iterator = arguments.makeIterator()
  while let argument = iterator.next() {
    let value = iterator.next()
    switch (argument, value) {
    case ("--templates", let path?): templatesPath = path
    case ("--distance", let text?) where RaceDistance(rawValue: text) != nil:
      distance = RaceDistance(rawValue: text) ?? distance
    case ("--level", let text?) where Level(rawValue: text) != nil: level = Level(rawValue: text) ?? level
    case ("--weeks", let text?) where Int(text) != nil: weeks = Int(text) ?? weeks
    case ("--plans", let text?) where (Int(text) ?? 0) > 0: plans = Int(text) ?? plans
    case ("--rounds", let text?) where (Int(text) ?? 0) > 0: rounds = Int(text) ?? rounds
    case ("--out", let path?): out = path
    default:
      FileHandle.standardError.write(
        Data(
          ("usage: runmate-bench render [--templates DIR] [--distance D] [--level L] [--weeks N] [--plans N] "
            + "[--rounds N] [--out FILE]\n").utf8))
      return 64
    }
  }
  let names = (try? FileManager.default.contentsOfDirectory(atPath: templatesPath)) ?? []
  let files = names.filter { $0.hasSuffix(".yaml") }.sorted().compactMap { name -> TemplateFile? in
    let path = (templatesPath as NSString).appendingPathComponent(name)
    return (try? String(contentsOfFile: path, encoding: .utf8)).map { TemplateFile(name: path, text: $0) }
  }
  var preferences = SchedulingPreferences(
    defaultTime: LocalTime(clampingHour: 6, minute: 30), timeZoneID: "Europe/Berlin")
  preferences.times[.saturday] = LocalTime(clampingHour: 8, minute: 0)
  guard let first = CivilDate(iso: "2027-01-04") else { return 70 }
  let stamp = Date(timeIntervalSince1970: 1_795_219_200)
  let schedules: [Schedule]
  do {
    let rules = try PlanRules(files: files, directory: templatesPath)
    schedules = try (0..<plans).map { index in
      let start = first.adding(days: 7 * index)
      let goal = Goal(
        distance: distance, level: level,
        timeline: Timeline(start: start, raceDate: start.adding(days: 7 * weeks - 1), weeks: weeks))
      return try makeSchedule(try makePlan(goal: goal, rules: rules), preferences: preferences)
    }
  } catch {
    FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
    return 70
  }

  /// The calendar of every schedule, as one VCALENDAR.
  func render() throws -> (text: [UInt8], events: Int) {
    var events: [VEvent] = []
    for schedule in schedules {
      let options = ExportOptions(
        reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: schedule.plan),
        calendarName: "bench")
      events += try makeCalendar(for: schedule, options: options, now: stamp).calendar.events
    }
    let calendar = VCalendar(
      prodID: "-//RunningMate//runmate 0.1//EN", method: "PUBLISH", name: "bench", events: events)
    return (try calendar.serializedUTF8(), events.count)
  }
  // One plan: time exactly what a feed renders (makeCalendar, then serializedUTF8()).
  func renderOne() throws -> (text: [UInt8], events: Int) {
    guard schedules.count == 1, let schedule = schedules.first else { return try render() }
    let options = ExportOptions(
      reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: schedule.plan),
      calendarName: "bench")
    let calendar = try makeCalendar(for: schedule, options: options, now: stamp).calendar
    return (try calendar.serializedUTF8(), calendar.events.count)
  }

  let clock = ContinuousClock()
  var best = Duration.seconds(1_000_000)
  var events = 0
  var bytes = 0
  do {
    let (text, count) = try renderOne()
    events = count
    bytes = text.count
    if let out { try Data(text).write(to: URL(fileURLWithPath: out)) }
    for _ in 0..<3 {
      let start = clock.now
      for _ in 0..<rounds { bytes = try renderOne().text.count }
      best = min(best, clock.now - start)
    }
  } catch {
    FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
    return 70
  }
  // The two halves apart: makeCalendar (Schedule → VCalendar values) and serializedUTF8() (libical); and
  // serialized(), the same text as a String.
  var bestBuild = Duration.seconds(1_000_000)
  var bestSerialize = Duration.seconds(1_000_000)
  var bestString = Duration.seconds(1_000_000)
  if schedules.count == 1, let schedule = schedules.first {
    do {
      let options = ExportOptions(
        reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: schedule.plan),
        calendarName: "bench")
      let calendar = try makeCalendar(for: schedule, options: options, now: stamp).calendar
      for _ in 0..<3 {
        var start = clock.now
        for _ in 0..<rounds { bytes &+= try makeCalendar(for: schedule, options: options, now: stamp).changes.count }
        bestBuild = min(bestBuild, clock.now - start)
        start = clock.now
        for _ in 0..<rounds { bytes &+= try calendar.serializedUTF8().count }
        bestSerialize = min(bestSerialize, clock.now - start)
        start = clock.now
        for _ in 0..<rounds { bytes &+= try calendar.serialized().utf8.count }
        bestString = min(bestString, clock.now - start)
      }
    } catch {
      FileHandle.standardError.write(Data("runmate-bench: \(error)\n".utf8))
      return 70
    }
  }
  func rate(_ duration: Duration, _ count: Int) -> String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%.0f", Double(count * rounds) / seconds)
  }
  print(
    "\(events) events x \(rounds) rounds: runmate build+serialize \(rate(best, events)) events/s"
      + (schedules.count == 1
        ? " (makeCalendar alone \(rate(bestBuild, events)), serializedUTF8() alone \(rate(bestSerialize, events)),"
          + " serialized() as a String alone \(rate(bestString, events)))" : ""))
  return 0
}
