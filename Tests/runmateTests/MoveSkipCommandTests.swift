import Foundation
import RunMateTestSupport
import Testing

/// A runner with a saved half-marathon plan on Tue/Wed/Fri/Sun (the plan's own days), in a fresh database.
struct HalfPlanRunner {
  let directory: URL
  let env: [String: String]

  init() throws {
    directory = try temporaryDirectory()
    env = ["RUNMATE_DB": directory.appendingPathComponent("rm.db").path]
    _ = try run([
      "profile", "init", "Ana", "--level", "intermediate", "--tz", "Europe/London", "--days", "tue,wed,fri,sun",
      "--long-run-day", "sun",
    ])
    _ = try run([
      "plan", "--distance", "half", "--level", "intermediate", "--race-date", "2027-03-07", "--save", "--name",
      "half", "--now", "2026-11-26T10:00:00Z",
    ])
  }

  @discardableResult
  func run(_ arguments: [String], status: Int32 = 0) throws -> RunResult {
    let result = try runmate(arguments, environment: env)
    #expect(result.status == status, "runmate \(arguments.joined(separator: " ")): \(result.stderr)")
    return result
  }

  /// The workouts of week `number` as the saved plan has them: (date, title, km).
  func week(_ number: Int) throws -> [(date: String, title: String, km: Double)] {
    let plan = try run(["plans", "show", "half", "--format", "json"]).stdout
    let object = try #require(try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [String: Any])
    let weeks = try #require(object["weeks"] as? [[String: Any]])
    let week = try #require(weeks.first { $0["number"] as? Int == number })
    return try #require(week["workouts"] as? [[String: Any]]).map {
      ($0["date"] as? String ?? "", $0["title"] as? String ?? "", $0["distance_km"] as? Double ?? 0)
    }
  }

  /// The calendar an export writes now.
  func export(now: String) throws -> String {
    let file = directory.appendingPathComponent("plan.ics")
    try run(["export", "--out", file.path, "--now", now])
    return try String(contentsOf: file, encoding: .utf8)
  }
}

/// `runmate move` and `runmate skip` (issue 24): the runner's own moves and skips are part of the saved schedule, so
/// `today`, `week`, the export and every later replan show the run on its new day (or not at all); a move onto a
/// taken day, into the past or of the race is refused with one line and changes nothing. A pause told after the fact
/// marks its past runs paused, not missed.
@Suite(.tags(.endToEnd)) struct MoveSkipCommandTests {
  /// The calendar has an event on `day` (all-day or timed, in the runner's zone).
  func hasEvent(_ ics: String, on day: String) -> Bool {
    let compact = day.replacingOccurrences(of: "-", with: "")
    return ics.contains("DTSTART;VALUE=DATE:\(compact)") || ics.contains(";TZID=Europe/London:\(compact)T")
      || ics.contains("DTSTART:\(compact)T")
  }

  @Test func aMovedRunIsOnItsNewDayEverywhereAndThroughAReplan() throws {
    let runner = try HalfPlanRunner()
    defer { try? FileManager.default.removeItem(at: runner.directory) }
    // Week 3's Tuesday run goes to Thursday (a free day), told on Monday of week 3.
    let week3 = try runner.week(3)
    let tuesday = try #require(week3.first)
    let from = tuesday.date
    let monday = dayBefore(from)
    let thursday = dayAfter(dayAfter(from))
    #expect(!week3.contains { $0.date == thursday }, "Thursday is free in week 3")
    let move = try runner.run(["move", from, thursday, "--now", monday + "T08:00:00Z"])
    #expect(move.stdout.contains("Moved W3 \(tuesday.title) from"), "\(move.stdout)")
    #expect(move.stdout.contains("Saved."), "\(move.stdout)")
    // The replan may change the run itself (a return week is shorter): then any run on Thursday, none on Tuesday.
    func checkMoved(_ when: String, title: String?) throws {
      let onThursday = try runner.run(["today", "--now", thursday + "T07:00:00Z"]).stdout
      let line = onThursday.split(separator: "\n").first.map(String.init) ?? ""
      #expect(
        line.hasPrefix("Today, Thu") && !line.contains("rest day") && !line.contains("no run")
          && title.map(line.contains) != false, "\(when): \(onThursday)")
      let onTuesday = try runner.run(["today", "--now", from + "T07:00:00Z"]).stdout
      #expect(onTuesday.contains("no run ("), "\(when): \(onTuesday)")
      #expect(onTuesday.contains("moved to Thu"), "\(when): \(onTuesday)")
      let ics = try runner.export(now: monday + "T08:00:00Z")
      #expect(hasEvent(ics, on: thursday) && !hasEvent(ics, on: from), "\(when): the calendar has it on Thursday")
    }
    try checkMoved("after the move", title: tuesday.title)
    // Week 1 run as planned, week 2 missed: the replan rewrites week 3 on (return weeks), and the move stands.
    for week in 1...1 {
      for workout in try runner.week(week) {
        try runner.run([
          "log", workout.date, "--distance", "\(workout.km)", "--time", "\(Int(workout.km * 6)):00", "--now",
          workout.date + "T20:00:00Z",
        ])
      }
    }
    let replan = try runner.run(["replan", "--apply", "--now", monday + "T09:00:00Z"])
    #expect(replan.stdout.contains("back over") && replan.stdout.contains("Saved."), "\(replan.stdout)")
    try checkMoved("after a replan", title: nil)
  }

  @Test func aRefusedMoveSaysWhyAndChangesNothing() throws {
    let runner = try HalfPlanRunner()
    defer { try? FileManager.default.removeItem(at: runner.directory) }
    let week3 = try runner.week(3)
    let first = try #require(week3.first?.date)
    let second = try #require(week3.dropFirst().first?.date)
    let monday = dayBefore(first)
    let before = try runner.run(["plans", "show", "half", "--format", "json"]).stdout
    let cases: [([String], String)] = [
      (["move", first, second], "to: '\(second)' is not valid, allowed is a day without a workout"),
      (["move", "2026-12-01", first], "date: '2026-12-01' is not valid, allowed is today or a later day"),
      (["move", "2027-03-07", "2027-03-06"], "the race stays on its day"),
      (["move", first, "2027-03-08"], "to the day before the race (2027-03-07)"),
      (["skip", "2027-03-07"], "days with a training workout from today on (not the race)"),
      (["skip", first, "--reason", "x;rm -rf"], "--reason: 'x;rm -rf' is not valid"),
    ]
    for (arguments, message) in cases {
      let result = try runner.run(arguments + ["--now", monday + "T08:00:00Z"], status: 64)
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    #expect(try runner.run(["plans", "show", "half", "--format", "json"]).stdout == before, "nothing saved")
  }

  @Test func aSkippedRunLeavesTheCalendarAndTheWeek() throws {
    let runner = try HalfPlanRunner()
    defer { try? FileManager.default.removeItem(at: runner.directory) }
    let week3 = try runner.week(3)
    let skipped = try #require(week3.dropFirst().first)
    let monday = dayBefore(try #require(week3.first?.date))
    let now = monday + "T08:00:00Z"
    _ = try runner.export(now: now)
    let skip = try runner.run(["skip", skipped.date, "--reason", "work trip", "--now", now])
    #expect(skip.stdout.contains("Skipped W3"), "\(skip.stdout)")
    #expect(skip.stdout.contains("(work trip)"), "\(skip.stdout)")
    #expect(skip.stdout.contains("0 moved, 0 changed, 1 cancelled, 0 added"), "\(skip.stdout)")
    let week = try runner.run(["week", "--now", now]).stdout
    #expect(!week.contains(skipped.title), "\(week)")
    let total = week3.filter { $0.date != skipped.date }.map(\.km).reduce(0, +)
    #expect(week.contains("of \(formatted(total)) km"), "the week's planned volume leaves it out: \(week)")
    let today = try runner.run(["today", "--now", skipped.date + "T07:00:00Z"]).stdout
    #expect(today.contains("skipped, work trip"), "\(today)")
    let ics = try runner.export(now: now)
    #expect(!hasEvent(ics, on: skipped.date) || ics.contains("STATUS:CANCELLED"), "the event is cancelled")
    // Undone: the run is back, in the week and the calendar.
    let undo = try runner.run(["skip", skipped.date, "--undo", "--now", now])
    #expect(undo.stdout.contains("Back: W3") && undo.stdout.contains("1 changed, 0 cancelled"), "\(undo.stdout)")
    #expect(try runner.run(["week", "--now", now]).stdout.contains(skipped.title))
    try runner.run(["skip", skipped.date, "--undo", "--now", now], status: 64)
  }

  /// "today" is the runner's own day: at 20:00 UTC on Monday it is already Tuesday in Auckland, so `move today
  /// tomorrow` moves Tuesday's run and `log today` logs Tuesday's (issue 23: commands read today in the system's zone).
  @Test func todayIsTheRunnersDayInTheirZone() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("rm.db").path, "TZ": "UTC"]
    for arguments in [
      ["profile", "init", "Kiri", "--tz", "Pacific/Auckland", "--days", "tue,thu,sat,sun", "--long-run-day", "sun"],
      [
        "plan", "--distance", "10k", "--level", "beginner", "--race-date", "2027-02-28", "--save", "--now",
        "2027-01-01",
      ],
    ] {
      #expect(try runmate(arguments, environment: env).status == 0)
    }
    // Monday 4 Jan 20:00 UTC is Tuesday 5 Jan 09:00 in Auckland.
    let move = try runmate(["move", "today", "tomorrow", "--now", "2027-01-04T20:00:00Z"], environment: env)
    #expect(move.status == 0, "\(move.stderr)")
    #expect(move.stdout.contains("from Tue 5 Jan to Wed 6 Jan"), "\(move.stdout)")
    // `log today` at the same instant is the runner's Tuesday too.
    let log = try runmate(
      ["log", "today", "--distance", "5", "--time", "30:00", "--now", "2027-01-04T20:00:00Z"], environment: env)
    #expect(log.status == 0 && log.stdout.contains("Tue 5 Jan"), "\(log.stdout) \(log.stderr)")
  }

  @Test func aPauseToldAfterTheFactMarksItsRunsPausedNotMissed() throws {
    let runner = try HalfPlanRunner()
    defer { try? FileManager.default.removeItem(at: runner.directory) }
    let week2 = try runner.week(2)
    let first = try #require(week2.first?.date)
    let third = try #require(week2.dropFirst(2).first?.date)
    let after = dayAfter(third)
    try runner.run(["pause", "\(first)..\(third)", "--reason", "ill", "--now", after + "T08:00:00Z"])
    let week = try runner.run(["week", "--now", after + "T08:00:00Z"]).stdout
    #expect(week.contains("(paused)") && !week.contains("✘"), "\(week)")
    let json = try runner.run(["week", "--now", after + "T08:00:00Z", "--format", "json"]).stdout
    #expect(json.contains("\"paused\"") && !json.contains("\"missed\""), "\(json)")
  }
}

private func dayBefore(_ iso: String) -> String { shifted(iso, by: -1) }
private func dayAfter(_ iso: String) -> String { shifted(iso, by: 1) }

/// `iso` shifted by `days` (an unreadable date stays as it is, and the test's commands refuse it).
private func shifted(_ iso: String, by days: Int) -> String {
  let formatter = DateFormatter()
  formatter.dateFormat = "yyyy-MM-dd"
  formatter.timeZone = TimeZone(identifier: "UTC")
  formatter.locale = Locale(identifier: "en_US_POSIX")
  guard let date = formatter.date(from: iso) else { return iso }
  return formatter.string(from: date.addingTimeInterval(Double(days) * 86_400))
}

private func formatted(_ km: Double) -> String {
  let rounded = (km * 10).rounded() / 10
  return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
}
