import Foundation
import RunMateTestSupport
import Testing

/// `runmate plan --save`, `plans`, `log`, `progress` on a real database file.
@Suite(.tags(.endToEnd)) struct LogbookCommandTests {
  @Test func saveLogAndSeeProgress() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": db]
    let saved = try runmate(
      [
        "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04",
        "--now", "2027-01-01", "--save", "--name", "spring",
      ], environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    #expect(saved.stderr.hasPrefix("saved plan 'spring' ("))
    let list = try runmate(["plans"], environment: env)
    #expect(list.stdout.hasPrefix("* spring  beginner 10K, 8 weeks, 2027-01-04 → 2027-02-28"))

    let logged = try runmate(
      ["log", "2027-01-05", "--distance", "3.4km", "--time", "22:00", "--now", "2027-01-06"],
      environment: env)
    #expect(logged.status == 0, "\(logged.stderr)")
    #expect(logged.stdout.hasPrefix("Logged run 1: Tue 5 Jan, 3.4 km in 22:00 (6:28/km)\nMatched Easy 3.9 km"))
    let progress = try runmate(["progress", "--now", "2027-01-06", "--format", "json"], environment: env)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(progress.stdout.utf8)) as? [String: Any])
    let weeks = try #require(json["weeks"] as? [[String: Any]])
    #expect(weeks.first?["done_km"] as? Double == 3.4)
    #expect(weeks.first?["done_sessions"] as? Int == 1)
    #expect(json["current_streak_days"] as? Int == 1)  // ran yesterday: the streak is alive

    let week = try runmate(["week", "--now", "2027-01-06"], environment: env)
    #expect(week.stdout.hasPrefix("Week 1 of 8 (base): 3.4 of "), "\(week.stdout)")
    #expect(week.stdout.contains("  ✔ Tue 5 Jan  Easy 3.9 km"))
    let today = try runmate(["today", "--now", "2027-01-06"], environment: env)
    #expect(today.stdout.hasPrefix("Today, Wed 6 Jan: rest day."), "\(today.stdout)")
    #expect(today.stdout.contains("Next: Thu 7 Jan, Easy"))

    let page = directory.appendingPathComponent("report.html")
    let report = try runmate(["report", "--html", page.path, "--now", "2027-01-06"], environment: env)
    #expect(report.status == 0, "\(report.stderr)")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.components(separatedBy: "<svg").count - 1 == 3)
    #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))  // self-contained
    #expect(html.contains("<td class=\"done\"><small>5 Jan</small>"))
    #expect(html.contains("Race: 10K 10 km"))

    let undo = try runmate(["log", "--undo"], environment: env)
    #expect(undo.stdout == "removed run 1: Tue 5 Jan, 3.4 km\n")
    let empty = try runmate(["log", "list"], environment: env)
    #expect(empty.stdout == "no runs logged yet\n")
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { message }
  }

  static let bad: [Bad] = [
    Bad(
      arguments: ["log", "--distance=-3km", "--time", "20:00"],
      message: "runmate: --distance: '-3km' is not valid, allowed is 0.1 to 250 km (0.1 to 155.3 mi), written like "
        + "32km or 20mi (a bare number is km)"),
    Bad(
      arguments: ["log", "--distance", "10km", "--time", "12:00"],
      message: "runmate: --time: '12:00' is not valid, allowed is a pace between 2:00/km and 20:00/km for 10 km "
        + "(this is 1:12/km); check --distance and --time"),
    Bad(
      arguments: ["log", "2030-01-01", "--distance", "5km", "--time", "30:00"],
      message: "runmate: DATE: '2030-01-01' is not valid, allowed is today (2027-01-06) or earlier: runs are logged "
        + "after they happen"),
    Bad(
      arguments: ["log", "--distance", "5km", "--time", "30:00", "--kind", "jog"],
      message:
        "runmate: --kind: 'jog' is not valid, allowed is easy, recovery, long, medium-long, tempo, intervals, hills, fartlek, "
        + "strides, race, cross-training, strength"),
    Bad(
      arguments: ["log", "--distance", "5km", "--time", "30:00", "--rpe", "11"],
      message: "runmate: --rpe: '11' is not valid, allowed is 1 to 10"),
  ]

  @Test(arguments: bad)
  func badRunsAreRefusedAndNothingIsWritten(_ bad: Bad) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let result = try runmate(bad.arguments + ["--now", "2027-01-06"], environment: ["RUNMATE_DB": db])
    #expect(result.status == 64)
    #expect(result.stderr == bad.message + "\n")
    // The run is checked before the logbook is opened: no database file is created for a bad value.
    #expect(!FileManager.default.fileExists(atPath: db))
    let list = try runmate(["log", "list"], environment: ["RUNMATE_DB": db])
    #expect(list.stdout == "no runs logged yet\n")
  }

  @Test func replanThenExportUpdatesTheCalendarInPlace() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let ics = directory.appendingPathComponent("plan.ics").path
    #expect(
      try runmate(
        [
          "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--start",
          "2027-01-04", "--now", "2027-01-01", "--save",
        ], environment: env
      ).status == 0)
    let first = try runmate(["export", "--out", ics, "--now", "2027-01-01", "--tz", "UTC"], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try String(contentsOfFile: ics, encoding: .utf8)
    // Two weeks run as planned, then a week lost to illness.
    _ = try runmate(
      ["log", "2027-01-10", "--distance", "12km", "--time", "1:12:00", "--now", "2027-01-18"], environment: env)
    let dry = try runmate(["replan", "--now", "2027-01-25", "--pause", "2027-01-25..2027-01-31"], environment: env)
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("Nothing saved: run again with --apply"))
    let applied = try runmate(
      ["replan", "--now", "2027-01-25", "--pause", "2027-01-25..2027-01-31", "--apply"],
      environment: env)
    #expect(applied.stdout.contains("Saved."))
    let update = try runmate(["export", "--out", ics, "--now", "2027-01-25", "--tz", "UTC"], environment: env)
    #expect(update.status == 0, "\(update.stderr)")
    let after = try String(contentsOfFile: ics, encoding: .utf8)
    func uids(_ text: String) -> Set<String> {
      Set(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") })
    }
    // Same UIDs (paused workouts come back CANCELLED), higher SEQUENCE for the rebuilt weeks, the past untouched.
    #expect(uids(after) == uids(before))
    #expect(after.contains("STATUS:CANCELLED"))
    #expect(after.contains("SEQUENCE:1"))
    #expect(update.stderr.contains(" cancelled, 0 added, "), "\(update.stderr)")
  }

  @Test func twoLogProcessesAtOnceBothLand() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    _ = try runmate(["log", "list"], environment: env)  // create the database
    // Two real processes, each logging 10 runs as fast as it can, at the same time.
    func batch(_ offset: Int) throws -> Process {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      let binary = try runmateBinary().path
      let commands = (1...10).map {
        "\(binary) log 2027-01-\($0 + offset < 10 ? "0" : "")\($0 + offset) --distance 5km "
          + "--time 30:00 --now 2027-02-01 >/dev/null || exit 1"
      }
      process.arguments = ["-c", commands.joined(separator: "; ")]
      process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
      try process.run()
      return process
    }
    let a = try batch(0)
    let b = try batch(10)
    a.waitUntilExit()
    b.waitUntilExit()
    #expect(a.terminationStatus == 0 && b.terminationStatus == 0)
    let list = try runmate(["log", "list"], environment: env)
    #expect(list.stdout.split(separator: "\n").count == 20)
  }

  @Test func aDatabaseThatIsNotOursIsRefused() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("notes.sqlite")
    try Data("plain text, not SQLite".utf8).write(to: db)
    let result = try runmate(["log", "list", "--db", db.path])
    #expect(result.status == 65)
    #expect(
      result.stderr == "runmate: \(db.path): not a readable RunningMate database (the file is not an SQLite "
        + "database); restore a backup or give another --db path\n")
    #expect(try Data(contentsOf: db) == Data("plain text, not SQLite".utf8))
  }
}
