import Foundation
import RunMateTestSupport
import RunningCore
import Testing

/// `plan --save`, `schedule` and `export` of a plan laid on the runner's run days (issue 11): nothing moves for
/// run-day reasons, every workout is on a run day, and blackouts still move workouts.
@Suite(.tags(.endToEnd)) struct RunDayCommandTests {
  /// The `YYYY-MM-DD` days of an exported calendar's events (DTSTART, all-day or timed).
  static func eventDays(_ ics: String) -> [String] {
    ics.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
      .filter { $0.hasPrefix("DTSTART") }
      .compactMap { line in
        guard let value = line.split(separator: ":").last, value.count >= 8 else { return nil }
        let digits = Array(value.prefix(8))
        return "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
      }
  }

  @Test(arguments: [
    ["mon", "wed", "fri", "sat", "sun"], ["sat", "sun", "mon"], ["mon", "tue", "wed", "thu", "fri"],
  ])
  func savedPlanMovesNothingOntoRunDays(days: [String]) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let ics = directory.appendingPathComponent("plan.ics").path
    let list = days.joined(separator: ",")
    let plan = try runmate(
      [
        "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--start", "2027-01-04",
        "--now", "2027-01-01", "--save", "--name", "laid", "--days", list, "--tz", "UTC", "--format", "json",
      ], environment: env)
    #expect(plan.status == 0, "\(plan.stderr)")
    #expect(!plan.stderr.contains("moved"), "\(plan.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
    let goal = try #require(json["goal"] as? [String: Any])
    #expect(
      goal["run_days"] as? [String]
        == days.compactMap(Weekday.init(rawValue:)).sorted { $0.index < $1.index }
        .map(\.rawValue))

    // `schedule` lists no moves; every workout keeps its plan day.
    let schedule = try runmate(["schedule", "--now", "2027-01-01"], environment: env)
    #expect(schedule.status == 0)
    #expect(!schedule.stdout.contains("moved") && !schedule.stdout.contains("(plan: "), "\(schedule.stdout)")

    // `export` says nothing about moves, and every event is on a run day (or race day, Sun 28 Mar).
    let export = try runmate(["export", "--out", ics, "--now", "2027-01-01"], environment: env)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(!export.stderr.contains("moved"), "\(export.stderr)")
    let weekdays = Set(days.compactMap(Weekday.init(rawValue:)))
    for day in Self.eventDays(try String(contentsOfFile: ics, encoding: .utf8)) where day != "2027-03-28" {
      let date = try #require(CivilDate(iso: day))
      #expect(weekdays.contains(date.weekday), "an event on \(date.shortLabel), not a run day (\(list))")
    }

    // `week` lists the same days as the calendar.
    let week = try runmate(["week", "--now", "2027-02-01"], environment: env).stdout
    let exported = Set(Self.eventDays(try String(contentsOfFile: ics, encoding: .utf8)))
    for offset in 0..<7 {
      let date = try #require(CivilDate(iso: "2027-02-01")).adding(days: offset)
      let label = date.shortLabel
      #expect(
        week.contains(label) == exported.contains(date.description), "\(label) in week:\n\(week)")
    }
  }

  /// A blackout still moves a workout (the scheduler's job), named on its own line, never as a run-day move.
  @Test func blackoutsStillMove() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let plan = try runmate(
      [
        "plan", "--distance", "10k", "--level", "intermediate", "--weeks", "10", "--start", "2027-01-04",
        "--now", "2027-01-01", "--save", "--name", "laid", "--days", "mon,tue,wed,thu,fri,sat,sun",
        "--runs-per-week", "4", "--tz", "UTC", "--skip", "2027-01-14",
      ], environment: env)
    #expect(plan.status == 0, "\(plan.stderr)")
    #expect(plan.stderr.contains("moved: W2 ") && plan.stderr.contains("blackout"), "\(plan.stderr)")
    #expect(!plan.stderr.contains("onto your run days"), "\(plan.stderr)")
  }
}
