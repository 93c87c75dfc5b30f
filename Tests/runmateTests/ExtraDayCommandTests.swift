import Foundation
import RunMateTestSupport
import Testing

/// `--cross-training N` and `--strength N` end to end: the plan JSON, the saved plan, `schedule`, `export` twice,
/// `replan`, and a database saved by the version before the options existed.
@Suite(.tags(.endToEnd)) struct ExtraDayCommandTests {
  static let goal = [
    "--distance", "half", "--level", "intermediate", "--weeks", "12", "--start", "2027-01-04", "--now", "2027-01-01",
  ]

  /// The VEVENTs of an exported calendar: UID and SUMMARY, lines unfolded.
  static func events(_ text: String) -> [(uid: String, summary: String)] {
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
    var events: [(uid: String, summary: String)] = []
    var uid = ""
    var summary = ""
    for line in unfolded.components(separatedBy: "\r\n") {
      if line == "BEGIN:VEVENT" { (uid, summary) = ("", "") }
      if line.hasPrefix("UID:") { uid = String(line.dropFirst(4)) }
      if line.hasPrefix("SUMMARY:") { summary = String(line.dropFirst(8)) }
      if line == "END:VEVENT" { events.append((uid, summary)) }
    }
    return events
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func planJSONCountsThemAndKeepsTheRunningVolume() throws {
    let plain = try runmate(["plan"] + Self.goal + ["--format", "json"])
    let extra = try runmate(["plan"] + Self.goal + ["--cross-training", "1", "--strength", "1", "--format", "json"])
    #expect(plain.status == 0 && extra.status == 0, "\(extra.stderr)")
    #expect(!plain.stdout.contains("strength_per_week") && !plain.stdout.contains("cross_training"))
    #expect(!plain.stdout.contains("\"kind\" : \"strength\"") && extra.stdout.contains("\"kind\" : \"strength\""))
    let before = try Self.json(plain.stdout)
    let after = try Self.json(extra.stdout)
    let goal = try #require(after["goal"] as? [String: Any])
    #expect(goal["cross_training_per_week"] as? Int == 1 && goal["strength_per_week"] as? Int == 1)
    let weeksBefore = try #require(before["weeks"] as? [[String: Any]])
    let weeksAfter = try #require(after["weeks"] as? [[String: Any]])
    #expect(weeksBefore.map { $0["planned_km"] as? Double } == weeksAfter.map { $0["planned_km"] as? Double })
    let workouts = weeksAfter.flatMap { ($0["workouts"] as? [[String: Any]]) ?? [] }
    let kinds = workouts.compactMap { $0["kind"] as? String }
    // 12 weeks, none in race week: 11 of each (the 4-run half leaves 3 free days a week).
    #expect(kinds.filter { $0 == "strength" }.count == 11)
    #expect(kinds.filter { $0 == "cross-training" }.count == 11)
    #expect(
      workouts.filter { ($0["kind"] as? String) == "strength" }.allSatisfy { ($0["distance_km"] as? Double) == 0 })

    let table = try runmate(["plan"] + Self.goal + ["--cross-training", "1", "--strength", "1"])
    #expect(table.stdout.contains("1 cross-training day and 1 strength day a week (not in the volume)"))
    #expect(table.stdout.contains("strength 25 min") && table.stdout.contains("cross 30 min"), "\(table.stdout)")
  }

  /// A 4-run plan with a strength day on a profile of 4 run days: the strength day is no run, so the run days are
  /// enough for `export` and `schedule` (they counted it, and asked for 5 run days).
  @Test func strengthDaysDoNotCountAsRunDays() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let profile = try runmate(
      ["profile", "init", "bo", "--days", "tue,thu,sat,sun", "--long-run-day", "sun"], environment: env)
    #expect(profile.status == 0, "\(profile.stderr)")
    let saved = try runmate(
      ["plan"] + Self.goal + ["--runs-per-week", "4", "--strength", "1", "--save", "--name", "may"], environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    let out = directory.appendingPathComponent("may.ics").path
    let export = try runmate(["export", "--out", out, "--now", "2027-01-01T10:00:00Z"], environment: env)
    #expect(export.status == 0, "\(export.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(Self.events(text).filter { $0.summary.contains("Strength") }.count == 11)
    let schedule = try runmate(["schedule", "--now", "2027-01-01"], environment: env)
    #expect(schedule.status == 0, "\(schedule.stderr)")
  }

  @Test func badCountsAndSavedPlansAreRefused() throws {
    let high = try runmate(["plan"] + Self.goal + ["--strength", "3"])
    #expect(high.status == 64)
    #expect(
      high.stderr.hasPrefix("runmate: --strength: 3 is out of range") && high.stderr.contains("0–2"), "\(high.stderr)")
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(try runmate(["plan"] + Self.goal + ["--save", "--name", "a"], environment: env).status == 0)
    // On the saved plan (no goal given) the option would be ignored: refused instead.
    let refused = try runmate(["schedule", "--now", "2027-01-01", "--cross-training", "1"], environment: env)
    #expect(refused.status == 64 && refused.stderr.contains("--cross-training"), "\(refused.stderr)")
  }

  /// Saved with the plan: `export` twice gives the same UIDs, none twice; `replan` keeps the extra days and their
  /// UIDs.
  @Test func exportAndReplanKeepThemWithStableUIDs() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let ics = directory.appendingPathComponent("plan.ics").path
    func run(_ arguments: [String]) throws -> RunResult {
      let result = try runmate(arguments, environment: env)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      return result
    }
    _ = try run(
      ["plan"] + Self.goal + ["--cross-training", "2", "--strength", "1", "--save", "--name", "s", "--tz", "UTC"])
    _ = try run(["export", "--out", ics, "--now", "2027-01-02"])
    let first = Self.events(try String(contentsOfFile: ics, encoding: .utf8))
    _ = try run(["export", "--out", ics, "--now", "2027-01-02"])
    let second = Self.events(try String(contentsOfFile: ics, encoding: .utf8))
    #expect(Set(first.map(\.uid)).count == first.count)
    #expect(first.map(\.uid).sorted() == second.map(\.uid).sorted())
    let strength = first.filter { $0.summary.contains("Strength · 25 min") || $0.summary.contains("Strength · 20 min") }
    let cross = first.filter { $0.summary.contains("Cross-training · ") && $0.summary.hasSuffix(" min") }
    #expect(strength.count >= 10, "\(first.map(\.summary))")
    #expect(cross.count >= 10)
    #expect(strength.allSatisfy { $0.uid.contains("-strength1@") })

    // Schedule JSON of the saved plan: same story.
    let schedule = try Self.json(try run(["schedule", "--now", "2027-01-02", "--format", "json"]).stdout)
    let kinds = ((schedule["weeks"] as? [[String: Any]]) ?? []).flatMap { ($0["workouts"] as? [[String: Any]]) ?? [] }
      .compactMap { $0["kind"] as? String }
    #expect(kinds.filter { $0 == "strength" }.count == strength.count)

    // Replan (no runs logged): the rebuilt weeks keep the strength and cross-training days; the next export has
    // no duplicates.
    _ = try run(["replan", "--now", "2027-01-20", "--apply"])
    _ = try run(["export", "--out", ics, "--now", "2027-01-20"])
    let third = Self.events(try String(contentsOfFile: ics, encoding: .utf8))
    #expect(Set(third.map(\.uid)).count == third.count)
    #expect(third.filter { $0.summary.contains("Strength") }.count >= 10, "\(third.map(\.summary))")
  }

  /// A run logged on a strength or cross-training day matches a run of the plan (or none), never that day; progress
  /// counts runs only.
  @Test func aLoggedRunIsNeverMatchedToThem() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let saved = try runmate(
      ["plan"] + Self.goal + ["--cross-training", "1", "--strength", "1", "--save", "--name", "s", "--format", "json"],
      environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    let weeks = try #require(try Self.json(saved.stdout)["weeks"] as? [[String: Any]])
    let first = try #require(weeks.first?["workouts"] as? [[String: Any]])
    let extraDays = first.filter {
      ($0["kind"] as? String) == "strength" || ($0["kind"] as? String) == "cross-training"
    }
    .compactMap { $0["date"] as? String }
    #expect(extraDays.count == 2)
    for day in extraDays {
      let logged = try runmate(
        ["log", day, "--distance", "1.5km", "--time", "9:00", "--now", day, "--kind", "strength"], environment: env)
      #expect(logged.status == 0, "\(logged.stderr)")
      #expect(!logged.stdout.contains("Strength") && !logged.stdout.contains("Cross-training"), "\(logged.stdout)")
    }
    let progress = try runmate(["progress", "--now", "2027-01-11", "--format", "json"], environment: env)
    #expect(progress.status == 0, "\(progress.stderr)")
    let week = try #require((try Self.json(progress.stdout)["weeks"] as? [[String: Any]])?.first)
    let runs = first.filter { ($0["distance_km"] as? Double ?? 0) > 0 }.count
    #expect(week["planned_sessions"] as? Int == runs, "\(week)")
  }

  /// A past strength or cross-training day is optional: `week` marks it "not logged" (never ✘ missed) until an
  /// activity of its kind is imported on its day (`import --all-sports`), then done; `today` says the same.
  @Test func pastExtraDaysAreNotLoggedUntilAnActivityOfTheirKindIsImported() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let saved = try runmate(
      ["plan"] + Self.goal + ["--cross-training", "1", "--strength", "1", "--save", "--name", "s", "--format", "json"],
      environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    let weeks = try #require(try Self.json(saved.stdout)["weeks"] as? [[String: Any]])
    let first = try #require(weeks.first?["workouts"] as? [[String: Any]])
    func day(of kind: String) throws -> String {
      try #require(first.first { ($0["kind"] as? String) == kind }?["date"] as? String)
    }
    let strengthDay = try day(of: "strength")
    let crossDay = try day(of: "cross-training")
    // The Sunday of week 1: both days are past.
    let now = "2027-01-10"
    func statuses() throws -> [String: String] {
      let week = try runmate(["week", "--now", now, "--format", "json"], environment: env)
      #expect(week.status == 0, "\(week.stderr)")
      let nested = try #require(try Self.json(week.stdout)["week"] as? [String: Any])
      let days = try #require(nested["workouts"] as? [[String: Any]])
      return Dictionary(
        days.compactMap { item in (item["date"] as? String).map { ($0, item["status"] as? String ?? "") } },
        uniquingKeysWith: { first, _ in first })
    }
    let before = try statuses()
    #expect(before[strengthDay] == "not_logged" && before[crossDay] == "not_logged", "\(before)")
    let text = try runmate(["week", "--now", now], environment: env).stdout
    let extraLines = text.split(separator: "\n").filter { $0.contains("Strength") || $0.contains("Cross-training") }
    #expect(extraLines.count == 2 && extraLines.allSatisfy { $0.hasPrefix("  · ") }, "\(text)")
    #expect(text.components(separatedBy: "(optional, not logged)").count == 3, "\(text)")

    // A strength session and a ride, each on its day (a real GPX track, its type and date changed).
    let track = try String(
      contentsOf: repositoryRoot.appendingPathComponent(
        "Tests/ActivityTests/Fixtures/gpx/route_2021-01-03_5.53pm.gpx"), encoding: .utf8)
    for (name, type, date) in [("lift", "strength_training", strengthDay), ("ride", "cycling", crossDay)] {
      let file = directory.appendingPathComponent("\(name).gpx")
      try track.replacingOccurrences(of: "2021-01-03T", with: "\(date)T")
        .replacingOccurrences(of: "<trkseg>", with: "<type>\(type)</type><trkseg>")
        .write(to: file, atomically: true, encoding: .utf8)
      let imported = try runmate(
        ["import", "--all-sports", file.path, "--tz", "UTC", "--now", now], environment: env)
      #expect(imported.status == 0 && imported.stdout.contains("as cross-training"), "\(imported.stdout)")
    }
    let after = try statuses()
    #expect(after[strengthDay] == "done" && after[crossDay] == "done", "\(after)")
    let today = try runmate(["today", "--now", strengthDay], environment: env)
    #expect(today.stdout.contains("Strength") && today.stdout.contains("(done)"), "\(today.stdout)")
  }

  /// A database saved by the version before these options (Tests/LogbookTests/Fixtures/saved-plan-main.sqlite,
  /// made by saved-plan-main.sh): its plan loads, schedules, exports and replans as before.
  @Test func aPlanSavedBeforeTheOptionsStillLoads() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Tests/LogbookTests/Fixtures/saved-plan-main.sqlite"), to: db)
    let env = ["RUNMATE_DB": db.path]
    let schedule = try runmate(["schedule", "--now", "2027-01-02", "--format", "json"], environment: env)
    #expect(schedule.status == 0, "\(schedule.stderr)")
    #expect(!schedule.stdout.contains("strength_per_week") && !schedule.stdout.contains("cross_training"))
    #expect(schedule.stdout.contains("rm-a5d8241a8f98774d"))
    let ics = directory.appendingPathComponent("plan.ics").path
    let export = try runmate(["export", "--out", ics, "--now", "2027-01-02"], environment: env)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(Self.events(try String(contentsOfFile: ics, encoding: .utf8)).count == 48)
    let replan = try runmate(["replan", "--now", "2027-01-20", "--apply"], environment: env)
    #expect(replan.status == 0, "\(replan.stderr)")
  }
}
