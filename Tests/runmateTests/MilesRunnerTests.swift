import Foundation
import RunMateTestSupport
import Testing

/// Issue 23, "Must show": a miles runner's month. Every distance option takes miles (and a bare number is the
/// runner's unit), and no table or line the runner reads says "km": plan, schedule, today and week on every day,
/// log, log list, progress, the saved plan and the calendar. The real binary on one database (the texts are the
/// CLI's); JSON stays metric.
@Suite(.tags(.endToEnd)) struct MilesRunnerTests {
  /// Runs `arguments` on `env`, expecting success, and returns standard output.
  func output(_ arguments: [String], _ env: [String: String], sourceLocation: SourceLocation = #_sourceLocation)
    throws -> String
  {
    let result = try runmate(arguments, environment: env)
    #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    return result.stdout
  }

  /// Miles and never a kilometre (nor a pace per km).
  func expectMiles(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(text.contains(" mi"), "\(what): \(text)", sourceLocation: sourceLocation)
    #expect(!text.contains("km"), "\(what): \(text)", sourceLocation: sourceLocation)
  }

  @Test(.timeLimit(.minutes(1))) func aMilesRunnersMonthSaysMilesEverywhere() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    _ = try output(
      [
        "profile", "init", "sam", "--units", "mi", "--level", "intermediate", "--tz", "America/Chicago", "--days",
        "tue,thu,sat,sun", "--long-run-day", "sun",
      ], env)
    // Every distance option in miles: the race by its distance, volume as a bare number (the profile's miles), the
    // longest run with its unit; paces from a race in miles.
    let plan = try output(
      [
        "plan", "--distance", "13.1 mi", "--weeks", "12", "--current-weekly", "20", "--longest-recent-run", "8mi",
        "--recent-race", "10k=50:00", "--now", "2027-01-01", "--start", "2027-01-04", "--save", "--name", "spring",
      ], env)
    expectMiles(plan, "plan")
    #expect(plan.contains("half marathon plan"), "\(plan)")
    #expect(plan.contains("from 20 mi a week · longest recent run 8 mi"), "\(plan)")
    // The older -km spellings take a unit too; a bare number there stays km.
    let older = try output(
      [
        "plan", "--distance", "half", "--weeks", "12", "--current-weekly-km", "20mi", "--longest-recent-run-km", "13",
        "--now", "2027-01-01", "--start", "2027-01-04",
      ], env)
    #expect(older.contains("from 20 mi a week · longest recent run 8.1 mi"), "\(older)")
    expectMiles(try output(["schedule"], env), "schedule")
    expectMiles(try output(["plans", "show"], env), "plans show")

    // A month of runs in every spelling: bare numbers are miles.
    // Each spelling with its time at 10:00/mi.
    let spellings: [(distance: String, time: String)] = [
      ("3", "30:00"), ("5km", "31:04"), ("3.1 mi", "31:00"), ("4mi", "40:00"), ("6", "1:00:00"),
    ]
    var logged = 0
    for day in 4...31 {
      let date = String(format: "2027-01-%02d", day)
      let weekday = (day - 4) % 7  // 0 is Monday
      if [1, 2, 3, 5, 6].contains(weekday) {
        let (distance, time) = spellings[logged % spellings.count]
        let text = try output(["log", date, "--distance", distance, "--time", time, "--now", date], env)
        expectMiles(text, "log \(distance) on \(date)")
        logged += 1
      }
      expectMiles(try output(["today", "--now", date], env), "today \(date)")
      if weekday == 6 || day == 31 { expectMiles(try output(["week", "--now", date], env), "week \(date)") }
    }
    let list = try output(["log", "list"], env)
    expectMiles(list, "log list")
    // `log --distance 3` with a miles profile is 3 miles (4.83 km), not 3 km.
    #expect(list.contains("2027-01-05\t3 mi\t30:00"), "\(list)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(output(["log", "list", "--format", "json"], env).utf8))
        as? [String: Any])
    let first = try #require((json["runs"] as? [[String: Any]])?.first { $0["date"] as? String == "2027-01-05" })
    #expect(first["distance_km"] as? Double == 4.8, "JSON in km, to the tenth: \(first)")
    expectMiles(try output(["progress", "--now", "2027-01-31"], env), "progress")
    // The calendar's titles and texts in miles too.
    let calendar = try output(["export", "--out", "-", "--now", "2027-01-31"], env)
    let texts = calendar.split(separator: "\r\n").filter { $0.hasPrefix("SUMMARY") || $0.hasPrefix("DESCRIPTION") }
    #expect(!texts.isEmpty && texts.allSatisfy { !$0.contains("km") }, "\(texts.filter { $0.contains("km") })")
  }

  /// The issue's case: a plan made in km, shown with `--units mi`, says miles under the miles header.
  @Test(.timeLimit(.minutes(1))) func aKilometrePlanShownInMilesSaysMiles() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let goal = [
      "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start", "2027-01-04", "--now", "2027-01-01",
      "--recent-race", "5k=25:00",
    ]
    let schedule = try output(["schedule"] + goal + ["--units", "mi"], env)
    expectMiles(schedule, "schedule --units mi")
    #expect(schedule.contains("Week 1 · base · "), "\(schedule)")
    _ = try output(["plan"] + goal + ["--save"], env)
    expectMiles(try output(["today", "--now", "2027-01-05", "--units", "mi"], env), "today --units mi")
    expectMiles(try output(["week", "--now", "2027-01-05", "--units", "mi"], env), "week --units mi")
    expectMiles(try output(["plans", "show", "--units", "mi"], env), "plans show --units mi")
    #expect(try output(["today", "--now", "2027-01-05"], env).contains(" km"))
  }

  /// A distance that is not one is refused in one line naming the option, the value, what is allowed and the
  /// likely spelling; nothing is written.
  @Test(.timeLimit(.minutes(1))) func aDistanceInWordsIsRefusedWithTheSpellingToUse() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let goal = ["--distance", "half", "--level", "beginner", "--weeks", "12", "--now", "2027-01-01"]
    let cases: [(arguments: [String], message: String)] = [
      (
        ["plan"] + goal + ["--current-weekly", "20 miles"],
        "runmate: --current-weekly: '20 miles' is not valid, allowed is 5 to 250 km (3.1 to 155.3 mi), written like "
          + "32km or 20mi (a bare number is km) (did you mean '20mi'?)"
      ),
      (
        ["plan"] + goal + ["--longest-recent-run", "90km"],
        "runmate: --longest-recent-run: '90km' is not valid, allowed is 3 to 60 km (1.9 to 37.3 mi), written like "
          + "32km or 20mi (a bare number is km)"
      ),
      (
        ["plan"] + goal + ["--current-weekly", "20mi", "--current-weekly-km", "32"],
        "runmate: --current-weekly: '20mi' is not valid, allowed is one of --current-weekly and --current-weekly-km, "
          + "not both"
      ),
      (
        ["log", "--distance", "3 miles", "--time", "30:00", "--now", "2027-01-01"],
        "runmate: --distance: '3 miles' is not valid, allowed is 0.1 to 250 km (0.1 to 155.3 mi), written like "
          + "32km or 20mi (a bare number is km) (did you mean '3mi'?)"
      ),
    ]
    for (arguments, message) in cases {
      let result = try runmate(arguments, environment: ["RUNMATE_DB": db])
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr == message + "\n", "\(arguments)")
    }
    #expect(!FileManager.default.fileExists(atPath: db))
  }
}
