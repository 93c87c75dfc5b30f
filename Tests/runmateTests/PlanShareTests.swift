import Foundation
import RunMateTestSupport
import Testing

/// `plans export` / `plans import` (runmate.plan-share/1), `plans show --format json`, `coach athletes --format
/// json`, all through the real binary on temporary databases.
@Suite(.tags(.endToEnd)) struct PlanShareTests {
  /// A database with one saved plan `spring` (times, reminders, a skipped day, a race start, busy time) and the
  /// environment to use it.
  static func savedPlan(in directory: URL, name: String = "spring") throws -> [String: String] {
    let env = ["RUNMATE_DB": directory.appendingPathComponent("\(name).sqlite").path]
    let busy = directory.appendingPathComponent("busy.ics")
    if !FileManager.default.fileExists(atPath: busy.path) {
      try FileManager.default.copyItem(
        at: repositoryRoot.appendingPathComponent("examples/with-busy-calendar/busy.ics"), to: busy)
    }
    let saved = try runmate(
      [
        "plan", "--distance", "10k", "--level", "intermediate", "--weeks", "10", "--start",
        "2026-11-30", "--now", "2026-11-21", "--at", "07:00", "--at", "sun=09:00", "--tz",
        "America/New_York", "--busy", busy.path, "--remind", "30m", "--skip", "2026-12-10",
        "--race-start", "09:00", "--save", "--name", name,
      ], environment: env)
    #expect(saved.status == 0, "\(saved.stderr)")
    return env
  }

  /// Another plan, saved.
  static let half = [
    "plan", "--distance", "half", "--level", "beginner", "--weeks", "12", "--start", "2027-01-04",
    "--now", "2027-01-01", "--save",
  ]

  static func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func aPlanRoundTripsWithItsSettingsByteForByte() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = try PlanShareTests.savedPlan(in: directory)
    let first = try runmate(["plans", "export", "spring", "--now", "2027-01-04T06:30:00Z"], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout.hasPrefix(
        "{\n  \"schema\" : \"runmate.plan-share/1\",\n  \"name\" : \"spring\",\n"
          + "  \"exported_at\" : \"2027-01-04T06:30:00Z\",\n"))
    #expect(!first.stdout.contains(" \n"), "no trailing blanks")
    // Deterministic.
    #expect(
      try runmate(["plans", "export", "spring", "--now", "2027-01-04T06:30:00Z"], environment: env).stdout
        == first.stdout)
    let document = try PlanShareTests.object(first.stdout)
    let settings = try #require(document["schedule_settings"] as? [String: Any])
    #expect(settings["time_zone"] as? String == "America/New_York")
    #expect(settings["times"] as? [String] == ["07:00", "sun=09:00"])
    #expect(settings["reminders"] as? [String] == ["30m"])
    #expect(settings["race_start"] as? String == "09:00")
    #expect(settings["busy_files"] as? [String] == ["busy.ics"])
    // Busy time keeps its intervals, not the events' titles.
    let busy = try #require(settings["busy"] as? [[String: Any]])
    #expect(!busy.isEmpty && busy.allSatisfy { $0["summary"] as? String == "busy" })
    #expect(!first.stdout.contains("Holidays") && !first.stdout.contains(directory.path))
    #expect((document["plan"] as? [String: Any])?["schema"] as? String == "runmate.plan/1")

    // Into a fresh database, through a file.
    let file = directory.appendingPathComponent("spring.json").path
    let written = try runmate(
      ["plans", "export", "spring", "--out", file, "--now", "2027-01-04T06:30:00Z"],
      environment: env)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == first.stdout)
    let other = ["RUNMATE_DB": directory.appendingPathComponent("friend.sqlite").path]
    let imported = try runmate(["plans", "import", file], environment: other)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout.hasPrefix("imported plan 'spring' (intermediate 10K, 10 weeks, 2026-11-30 → "),
      "\(imported.stdout)")
    #expect(imported.stdout.contains("with its schedule settings (") && imported.stdout.contains("workouts scheduled"))
    let again = try runmate(["plans", "export", "spring", "--now", "2027-01-04T06:30:00Z"], environment: other)
    #expect(again.stdout == first.stdout)
    // The imported plan is scheduled as the original (busy titles aside).
    let mine = try runmate(["schedule", "--now", "2026-11-21"], environment: env).stdout
    let theirs = try runmate(["schedule", "--now", "2026-11-21"], environment: other).stdout
    #expect(!theirs.isEmpty && theirs == mine.replacingOccurrences(of: "(Holidays)", with: "(busy)"))
    // Rewriting the export is allowed; a foreign file is not.
    #expect(try runmate(["plans", "export", "spring", "--out", file], environment: other).status == 0)
    let foreign = directory.appendingPathComponent("notes.txt").path
    try "my notes\n".write(toFile: foreign, atomically: true, encoding: .utf8)
    let refused = try runmate(["plans", "export", "spring", "--out", foreign], environment: other)
    #expect(refused.status == 73)
    #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "my notes\n")
  }

  @Test func importRenamesAndActivatesOnRequest() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = try PlanShareTests.savedPlan(in: directory)
    let file = directory.appendingPathComponent("spring.json").path
    #expect(try runmate(["plans", "export", "spring", "--out", file], environment: env).status == 0)
    let other = ["RUNMATE_DB": directory.appendingPathComponent("friend.sqlite").path]
    #expect(try runmate(PlanShareTests.half + ["--name", "mine", "--at", "06:30"], environment: other).status == 0)
    let imported = try runmate(["plans", "import", file, "--name", "from-ana", "--activate"], environment: other)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.hasPrefix("imported plan 'from-ana' "))
    #expect(imported.stdout.hasSuffix("; it is the active plan\n"))
    #expect(try runmate(["plans"], environment: other).stdout.contains("* from-ana"))
    // Empty lists nest without trailing blanks.
    let mine = try runmate(["plans", "export", "mine"], environment: other).stdout
    #expect(mine.contains("  \"schedule_settings\" : {\n    \"blackouts\" : [\n\n    ],\n"), "\(mine)")
    #expect(!mine.contains(" \n"))
  }

  /// Every refusal: its exit code, one line naming the file, and nothing saved.
  @Test func filesThatCannotBeTrustedAreRefusedAndNothingIsSaved() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = try PlanShareTests.savedPlan(in: directory)
    let good = try runmate(["plans", "export", "spring", "--now", "2027-01-04"], environment: env).stdout
    let document = try PlanShareTests.object(good)
    func edited(_ edit: (inout [String: Any]) -> Void) throws -> String {
      var copy = document
      edit(&copy)
      return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
    }
    func plan(_ edit: (inout [String: Any]) -> Void) throws -> String {
      try edited { document in
        var plan = document["plan"] as? [String: Any] ?? [:]
        edit(&plan)
        document["plan"] = plan
      }
    }
    func firstWorkout(_ edit: @escaping (inout [String: Any]) -> Void) throws -> String {
      try plan { plan in
        var weeks = plan["weeks"] as? [[String: Any]] ?? []
        var workouts = weeks[0]["workouts"] as? [[String: Any]] ?? []
        edit(&workouts[0])
        weeks[0]["workouts"] = workouts
        plan["weeks"] = weeks
      }
    }
    func settings(_ key: String, _ value: Any) throws -> String {
      try edited { document in
        var settings = document["schedule_settings"] as? [String: Any] ?? [:]
        settings[key] = value
        document["schedule_settings"] = settings
      }
    }
    let cases: [(label: String, text: String, expected: String)] = [
      ("not JSON", "BEGIN:VCALENDAR\n", "it is not JSON"),
      (
        "a plan without settings", try JSONSerialization.data(withJSONObject: document["plan"] ?? [:]).text,
        "it is a plan (runmate.plan/1) without its settings"
      ),
      (
        "other schema", try edited { $0["schema"] = "runmate.progress/1" },
        "its schema is 'runmate.progress/1', expected runmate.plan-share/1"
      ),
      ("newer", try edited { $0["schema"] = "runmate.plan-share/2" }, "from a newer runmate"),
      ("no plan", try edited { $0["plan"] = nil }, "plan is missing"),
      (
        "negative distance", try firstWorkout { $0["distance_km"] = -5 },
        "plan.weeks[0].workouts[0].distance_km is -5.0, allowed is 0 to 500"
      ),
      (
        "date out of range", try firstWorkout { $0["date"] = "2301-01-01" },
        "plan.weeks[0].workouts[0].date is 2301-01-01, allowed is a date from 1900 to 2200"
      ),
      (
        "too many weeks",
        try plan { plan in
          let weeks = plan["weeks"] as? [[String: Any]] ?? []
          plan["weeks"] = (0..<61).map { index in
            var week = weeks[index % weeks.count]
            week["number"] = index + 1
            week["workouts"] = [[String: Any]]()
            return week
          }
        }, "plan.weeks has 61 weeks, allowed is 1 to 60"
      ),
      (
        "goal weeks not the weeks",
        try plan { plan in
          var goal = plan["goal"] as? [String: Any] ?? [:]
          goal["weeks"] = 10000
          plan["goal"] = goal
        }, "plan.goal.weeks is 10000, expected 10, the number of plan.weeks"
      ),
      (
        "unknown zone", try settings("time_zone", "Mars/Olympus"),
        "schedule_settings.time_zone 'Mars/Olympus' is not a time zone"
      ),
      ("bad time", try settings("times", ["25:99"]), "schedule_settings cannot be used: "),
      ("no exported_at", try edited { $0["exported_at"] = nil }, "exported_at is missing"),
    ]
    let before = try runmate(["plans"], environment: env).stdout
    let other = ["RUNMATE_DB": directory.appendingPathComponent("friend.sqlite").path]
    for (index, item) in cases.enumerated() {
      let file = directory.appendingPathComponent("bad-\(index).json").path
      try item.text.write(toFile: file, atomically: true, encoding: .utf8)
      for target in [env, other] {
        let result = try runmate(["plans", "import", file, "--name", "new"], environment: target)
        #expect(result.status == 65, "\(item.label): \(result.stderr)")
        #expect(result.stderr.hasPrefix("runmate: \(file): not imported: "), "\(item.label): \(result.stderr)")
        #expect(result.stderr.contains(item.expected), "\(item.label): \(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(item.label)")
      }
    }
    #expect(try runmate(["plans"], environment: env).stdout == before)
    #expect(!FileManager.default.fileExists(atPath: other["RUNMATE_DB"] ?? ""))

    // A huge file is refused before it is read.
    let huge = directory.appendingPathComponent("huge.json").path
    #expect(FileManager.default.createFile(atPath: huge, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: huge))
    try handle.truncate(atOffset: 17 * 1_024 * 1_024)
    try handle.close()
    let big = try runmate(["plans", "import", huge], environment: env)
    #expect(big.status == 65)
    #expect(big.stderr.contains("allowed is at most 16777216 (16 MiB)"), "\(big.stderr)")

    // A missing file: 66.
    let missing = try runmate(
      ["plans", "import", directory.appendingPathComponent("nope.json").path],
      environment: env)
    #expect(missing.status == 66)
    #expect(missing.stderr.hasSuffix("nope.json: no such file\n"))

    // The same plan again, and a different plan under a taken name.
    let file = directory.appendingPathComponent("spring.json").path
    try good.write(toFile: file, atomically: true, encoding: .utf8)
    let same = try runmate(["plans", "import", file], environment: env)
    #expect(same.status == 65)
    #expect(same.stderr.contains("is already saved as 'spring'; delete it first"), "\(same.stderr)")
    let third = ["RUNMATE_DB": directory.appendingPathComponent("third.sqlite").path]
    #expect(try runmate(PlanShareTests.half + ["--name", "spring"], environment: third).status == 0)
    let clash = try runmate(["plans", "import", file], environment: third)
    #expect(clash.status == 65)
    #expect(clash.stderr.contains("a different plan is already saved as 'spring'; give another name with --name"))
    #expect(try runmate(["plans"], environment: env).stdout == before)
    #expect(try runmate(["plans"], environment: third).stdout.split(separator: "\n").count == 1)
  }

  @Test func plansShowAndCoachAthletesSpeakJSON() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = try PlanShareTests.savedPlan(in: directory)
    let shown = try runmate(["plans", "show", "spring", "--format", "json"], environment: env)
    #expect(shown.status == 0, "\(shown.stderr)")
    let plan = try PlanShareTests.object(shown.stdout)
    #expect(plan["schema"] as? String == "runmate.plan/1")
    #expect(plan["name"] as? String == "spring")
    #expect(plan["active"] as? Bool == true)
    #expect((plan["weeks"] as? [Any])?.count == 10)
    #expect((plan["schedule_settings"] as? [String: Any])?["time_zone"] as? String == "America/New_York")

    #expect(try runmate(["profile", "init", "anna", "--tz", "Asia/Tokyo"], environment: env).status == 0)
    #expect(try runmate(["profile", "init", "ben"], environment: env).status == 0)
    #expect(try runmate(["profile", "init", "kim", "--coach"], environment: env).status == 0)
    for athlete in ["anna", "ben"] {
      #expect(try runmate(["coach", "add-athlete", athlete, "--profile", "kim"], environment: env).status == 0)
    }
    let annasPlan = try runmate(
      [
        "plan", "--distance", "10k", "--level", "beginner", "--weeks", "8", "--start",
        "2027-01-04", "--now", "2027-01-01", "--save", "--profile", "anna",
      ], environment: env)
    #expect(annasPlan.status == 0, "\(annasPlan.stderr)")
    let athletes = try runmate(
      ["coach", "athletes", "--profile", "kim", "--now", "2027-01-06", "--format", "json"],
      environment: env)
    #expect(athletes.status == 0, "\(athletes.stderr)")
    let json = try PlanShareTests.object(athletes.stdout)
    #expect(json["schema"] as? String == "runmate.athletes/1")
    #expect(json["coach"] as? String == "kim")
    #expect(json["today"] as? String == "2027-01-06")
    let rows = try #require(json["athletes"] as? [[String: Any]])
    #expect(rows.count == 2)
    let anna = try #require(rows.first { $0["name"] as? String == "anna" })
    #expect(anna["plan"] as? String == "10k-2027-02-28")
    #expect(anna["week"] as? Int == 1)
    #expect(anna["week_start"] as? String == "2027-01-04")
    #expect(anna["compliance_percent"] as? Int == 0)
    #expect((anna["planned_km"] as? Double ?? 0) > 0)
    let ben = try #require(rows.first { $0["name"] as? String == "ben" })
    #expect(ben["plan"] is NSNull && ben["compliance_percent"] is NSNull && ben["week"] is NSNull)
  }
}

extension Data {
  fileprivate var text: String { String(decoding: self, as: UTF8.self) }
}
