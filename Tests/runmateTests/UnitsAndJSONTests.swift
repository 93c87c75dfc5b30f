import Foundation
import RunMateTestSupport
import Testing

/// The runner's unit in every table and message (JSON stays metric), partial runs shown as partial, and the
/// `runmate.today/1`, `runmate.week/1` and `runmate.log/1` contracts, with the real binary on one database.
@Suite(.tags(.endToEnd)) struct UnitsAndJSONTests {
  /// A database with a profile in `units` and a 10k beginner plan from Mon 4 Jan 2027 (Tue, Thu, Sat, Sun runs;
  /// Sunday's long run 5.5 km).
  func makeDatabase(units: String) throws -> (directory: URL, env: [String: String]) {
    let directory = try temporaryDirectory()
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let profile = try runmate(["profile", "init", "ana", "--units", units, "--level", "beginner"], environment: env)
    #expect(profile.status == 0, "\(profile.stderr)")
    let plan = try runmate(
      [
        "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start",
        "2027-01-04", "--now", "2027-01-01", "--save", "--name", "spring",
      ], environment: env)
    #expect(plan.status == 0, "\(plan.stderr)")
    return (directory, env)
  }

  /// Runs `arguments`, expecting success, and returns what it printed.
  func output(_ arguments: [String], _ env: [String: String]) throws -> String {
    let result = try runmate(arguments, environment: env)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return result.stdout
  }

  /// Miles, and no kilometre anywhere.
  func expectMiles(_ text: String, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(text.contains(" mi"), "\(command): \(text)", sourceLocation: sourceLocation)
    #expect(!text.contains("km"), "\(command): \(text)", sourceLocation: sourceLocation)
  }

  @Test func aProfileInMilesGetsMilesFromEveryCommand() throws {
    let (directory, env) = try makeDatabase(units: "mi")
    defer { try? FileManager.default.removeItem(at: directory) }
    let logged = try output(["log", "2027-01-05", "--distance", "2mi", "--time", "20:00", "--now", "2027-01-05"], env)
    expectMiles(logged, "log")
    #expect(logged.contains("2 mi in 20:00 (10:00/mi)"), "\(logged)")
    #expect(logged.contains("Matched "), "\(logged)")
    // Sunday's long run: 1.9 mi of about 3.4 is partial.
    let partial = try output(["log", "2027-01-10", "--distance", "3km", "--time", "19:00", "--now", "2027-01-10"], env)
    expectMiles(partial, "log (partial)")
    #expect(partial.contains("Partial: ") && partial.contains("(1.9 of "), "\(partial)")
    // A longer run on Thursday: a personal best, in miles.
    let best = try output(["log", "2027-01-07", "--distance", "4mi", "--time", "40:00", "--now", "2027-01-10"], env)
    expectMiles(best, "log (best)")
    #expect(best.contains("New personal best: longest run ever: 4 mi!"), "\(best)")
    let gpx = directory.appendingPathComponent("run.gpx")
    try IngestCommandTests().writeGPX(to: gpx, start: "2027-01-09T07:00:00", km: 4.8, seconds: 1800)
    let imported = try output(["import", gpx.path, "--now", "2027-01-10"], env)
    expectMiles(imported, "import")
    #expect(imported.contains("3 mi in 30:00"), "\(imported)")
    let again = try output(["import", gpx.path, "--now", "2027-01-10"], env)
    expectMiles(again, "import (twin)")
    #expect(again.contains("same run as run 4, from GPX on Sat 9 Jan (3 mi)"), "\(again)")
    expectMiles(try output(["log", "list"], env), "log list")
    expectMiles(try output(["progress", "--now", "2027-01-10"], env), "progress")
    expectMiles(try output(["week", "--now", "2027-01-10"], env), "week")
    expectMiles(try output(["today", "--now", "2027-01-10"], env), "today")
    // --units overrides the profile.
    #expect(try output(["log", "list", "--units", "km"], env).contains("4.8 km"))
    #expect(try output(["week", "--now", "2027-01-10", "--units", "km"], env).contains(" km,"))
    let undone = try output(["log", "--undo"], env)
    expectMiles(undone, "log --undo")
  }

  @Test func aPartialRunIsPartialInWeekAndToday() throws {
    let (directory, env) = try makeDatabase(units: "km")
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try output(["log", "2027-01-10", "--distance", "3km", "--time", "19:00", "--now", "2027-01-10"], env)
    let week = try output(["week", "--now", "2027-01-10"], env)
    #expect(week.contains("◐ Sun 10 Jan  Long run 5.5 km (partial: 3 of 5.5 km)"), "\(week)")
    #expect(!week.contains("✔ Sun 10 Jan"), "\(week)")
    #expect(week.contains("0 of 4 sessions done, 1 partial"), "\(week)")
    let today = try output(["today", "--now", "2027-01-10"], env)
    #expect(today.hasPrefix("Today, Sun 10 Jan: Long run 5.5 km"), "\(today)")
    #expect(today.contains("(partial: 3 of 5.5 km run)") && !today.contains("done"), "\(today)")
  }

  func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  @Test func todayWeekAndLogListSpeakJSONInKilometres() throws {
    let (directory, env) = try makeDatabase(units: "mi")
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try output(
      [
        "log", "2027-01-05", "--distance", "2mi", "--time", "20:00", "--now", "2027-01-05",
        "--rpe", "5",
      ], env)
    _ = try output(["log", "2027-01-10", "--distance", "3km", "--time", "19:00", "--now", "2027-01-10"], env)

    let log = try json(try output(["log", "list", "--format", "json"], env))
    #expect(log["schema"] as? String == "runmate.log/1")
    let runs = try #require(log["runs"] as? [[String: Any]])
    #expect(runs.count == 2)
    let first = try #require(runs.first)
    #expect(
      Set(first.keys) == [
        "id", "date", "distance_km", "duration_s", "moving_s", "pace_s_per_km", "kind", "rpe",
        "average_hr", "elevation_gain_m", "note", "source", "source_file", "plan_id",
        "workout_id", "status",
      ])
    #expect(first["date"] as? String == "2027-01-05")
    #expect(first["distance_km"] as? Double == 3.2)
    #expect(first["duration_s"] as? Int == 1200)
    #expect(first["pace_s_per_km"] as? Int == 373)
    #expect(first["rpe"] as? Int == 5)
    #expect(first["note"] is NSNull && first["average_hr"] is NSNull)
    #expect(first["status"] as? String == "done")
    #expect(runs.last?["status"] as? String == "partial")

    let today = try json(try output(["today", "--now", "2027-01-10", "--format", "json"], env))
    #expect(today["schema"] as? String == "runmate.today/1")
    #expect(today["today"] as? String == "2027-01-10" && today["plan_name"] as? String == "spring")
    let workout = try #require(today["workout"] as? [String: Any])
    #expect(
      Set(workout.keys) == [
        "id", "date", "planned_date", "start", "kind", "title", "description", "hard",
        "distance_km", "duration_min", "status", "done_km", "energy_kcal", "comments",
      ])
    #expect(workout["status"] as? String == "partial" && workout["done_km"] as? Double == 3)
    #expect(workout["distance_km"] as? Double == 5.5 && workout["kind"] as? String == "long")
    #expect(workout["start"] is NSNull && workout["energy_kcal"] is NSNull)
    let next = try #require(today["next"] as? [String: Any])
    #expect(next["date"] as? String == "2027-01-12" && next["status"] as? String == "upcoming")

    let week = try json(try output(["week", "--now", "2027-01-10", "--format", "json", "--units", "mi"], env))
    #expect(week["schema"] as? String == "runmate.week/1")
    let body = try #require(week["week"] as? [String: Any])
    #expect(body["number"] as? Int == 1 && body["start"] as? String == "2027-01-04")
    #expect(body["end"] as? String == "2027-01-10" && body["weeks"] as? Int == 8)
    #expect(body["done_km"] as? Double == 6.2 && body["planned_sessions"] as? Int == 4)
    #expect(body["done_sessions"] as? Int == 1 && body["partial_sessions"] as? Int == 1)
    #expect(body["missed_sessions"] as? Int == 2)
    let statuses = (body["workouts"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
    #expect(statuses == ["done", "missed", "missed", "partial"], "\(body)")

    let outside = try json(try output(["week", "--now", "2026-12-01", "--format", "json"], env))
    #expect(outside["week"] is NSNull)
    let bad = try runmate(["week", "--format", "json", "--units", "furlongs"], environment: env)
    #expect(bad.status == 64 && bad.stderr.contains("--units"), "\(bad.stderr)")
  }
}

/// A plan in miles stays in miles through `replan --apply`: the rebuilt weeks' titles are not rewritten in km.
@Test func aReplanKeepsThePlansUnits() throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
  #expect(
    try runmate(
      [
        "profile", "init", "ana", "--level", "intermediate", "--tz", "Europe/Berlin", "--days",
        "tue,thu,sat,sun", "--long-run-day", "sun", "--units", "mi",
      ], environment: env
    ).status == 0)
  #expect(
    try runmate(
      [
        "plan", "--distance", "half", "--weeks", "12", "--now", "2027-01-01", "--start", "2027-01-04",
        "--save", "--name", "spring",
      ], environment: env
    ).status == 0)
  #expect(
    try runmate(
      ["log", "2027-01-05", "--distance", "4.5mi", "--time", "45:00", "--now", "2027-01-05"],
      environment: env
    ).status == 0)
  let replanned = try runmate(["replan", "--apply", "--now", "2027-01-12"], environment: env)
  #expect(replanned.status == 0, "\(replanned.stderr)")
  // The changes (not the first line, the fitness basis, which is worked out in km) are in miles; interval reps keep
  // their track distances ("3 × 1 km", "5 × 800 m"), as a track and a watch lap them.
  let changes = replanned.stdout.split(separator: "\n").dropFirst()
    .map { $0.replacingOccurrences(of: #"× [0-9.]+ km"#, with: "× reps", options: .regularExpression) }
  #expect(!changes.isEmpty && changes.allSatisfy { !$0.contains(" km") }, "\(replanned.stdout)")
  let week = try runmate(["week", "--now", "2027-01-19"], environment: env).stdout
  #expect(week.contains(" mi") && !week.contains(" km"), "\(week)")
}

/// `health` shows today's distance in the profile's units, on the profile's local day.
@Test func healthTodayIsInTheProfilesUnitsAndDay() throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
  #expect(
    try runmate(["profile", "init", "kiri", "--tz", "Pacific/Auckland", "--units", "mi"], environment: env)
      .status == 0)
  let csv = directory.appendingPathComponent("days.csv")
  try "date,steps,distance_km,active_kcal\n2027-01-06,9000,8.0467,400\n".write(
    to: csv, atomically: true,
    encoding: .utf8)
  #expect(try runmate(["health", "import", csv.path], environment: env).status == 0)
  // 2027-01-05 20:00 UTC is already 6 January in Auckland.
  let shown = try runmate(["health", "--now", "2027-01-05T20:00:00Z"], environment: env).stdout
  #expect(shown.hasPrefix("Today, Wed 6 Jan: 9000 steps, 5 mi, 400 kcal"), "\(shown)")
}
