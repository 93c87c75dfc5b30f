import Foundation
import RunMateTestSupport
import Testing

/// `runmate pause` (issue 24): a pause is part of the saved schedule, so its days stay free through every later
/// replan, in the plan, the export and `today` (before: a plain `replan --apply` after one more logged run put
/// "Easy 11.5 km" and "Tempo 8.9 km" back on the paused days).
@Suite(.tags(.endToEnd)) struct PauseCommandTests {
  @Test func aPauseIsKeptThroughTwoLaterReplans() throws {
    let runner = try HalfPlanRunner()
    defer { try? FileManager.default.removeItem(at: runner.directory) }
    let directory = runner.directory
    let run = { (arguments: [String]) throws -> RunResult in try runner.run(arguments) }
    // Weeks 1 and 2 as planned (the plan's own distances, read from its JSON).
    let plan = try run(["plans", "show", "half", "--format", "json"]).stdout
    let object = try #require(try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [String: Any])
    let weeks = try #require(object["weeks"] as? [[String: Any]])
    for week in weeks.prefix(2) {
      for workout in try #require(week["workouts"] as? [[String: Any]]) {
        let date = try #require(workout["date"] as? String)
        let km = try #require(workout["distance_km"] as? Double)
        _ = try run(["log", date, "--distance", "\(km)", "--time", "\(Int(km * 6)):00", "--now", date + "T20:00:00Z"])
      }
    }
    // Away Tue–Thu of week 9, told in week 3.
    let paused = ["2027-01-26", "2027-01-27", "2027-01-28"]
    let pause = try run(["pause", "2027-01-26..2027-01-28", "--reason", "travel", "--now", "2026-12-14T08:00:00Z"])
    #expect(pause.stdout.contains("a pause of 3 days (travel)"), "\(pause.stdout)")
    #expect(pause.stdout.contains("cancelled W9 Tue 26 Jan"), "\(pause.stdout)")
    // Replan 1: on track (nothing new logged yet this week): the plan stands, the days stay free.
    let first = try run(["replan", "--apply", "--now", "2026-12-15T08:00:00Z"])
    #expect(first.stdout.contains("on track"), "\(first.stdout)")
    // Replan 2: week 3 missed entirely: return weeks, then the build; the pause's days still free.
    let second = try run(["replan", "--apply", "--now", "2026-12-21T08:00:00Z"])
    #expect(second.stdout.contains("1 week missed or short: back over"), "\(second.stdout)")
    #expect(second.stdout.contains("Saved."), "\(second.stdout)")
    let export = directory.appendingPathComponent("plan.ics")
    _ = try run(["export", "--out", export.path, "--now", "2026-12-21T08:00:00Z"])
    let ics = try String(contentsOf: export, encoding: .utf8)
    for day in paused {
      let compact = day.replacingOccurrences(of: "-", with: "")
      #expect(!ics.contains("DTSTART;VALUE=DATE:\(compact)") && !ics.contains("DTSTART:\(compact)"), "\(day)")
      let today = try run(["today", "--now", day + "T07:00:00Z"]).stdout
      #expect(
        today.hasPrefix("Today, ") && today.split(separator: "\n")[0].hasSuffix("no run (paused, travel)."),
        "\(day): \(today)")
    }
    // Read unfolded (RFC 5545 folds long lines at 75 octets, wherever the text falls).
    let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "")
    #expect(
      unfolded.contains("Paused 26 Jan–28 Jan") || unfolded.contains("Paused Tue 26 Jan"), "the week says why")
  }

  /// A week paused whole (a sick week) is "paused" in `week`, as in `progress`, not "0 of 0 sessions done".
  @Test func aWeekPausedWholeSaysPaused() throws {
    let runner = try HalfPlanRunner()
    defer { try? FileManager.default.removeItem(at: runner.directory) }
    _ = try runner.run(["pause", "2027-01-25..2027-01-31", "--reason", "sick", "--now", "2027-01-24T20:00:00Z"])
    let week = try runner.run(["week", "--now", "2027-01-27T07:00:00Z"]).stdout
    let header = week.split(separator: "\n").first.map(String.init) ?? ""
    #expect(header.hasPrefix("Week 9 of ") && header.hasSuffix("): paused"), "\(week)")
    #expect(week.contains("Why: Paused"), "\(week)")
    let progress = try runner.run(["progress", "--now", "2027-01-27T07:00:00Z"]).stdout
    #expect(progress.split(separator: "\n").contains { $0.hasPrefix("9 ") && $0.contains("paused") }, "\(progress)")
  }
}
