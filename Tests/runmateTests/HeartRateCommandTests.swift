import Activity
import Foundation
import RunMateTestSupport
import Testing

/// Heart-rate zones through the binary (issue 25): `profile set --max-hr/--resting-hr/--lthr/--hr-zones/--targets`,
/// `paces` showing the zones (or what is missing), and `workouts` prescribing by heart rate.
@Suite(.tags(.endToEnd)) struct HeartRateCommandTests {
  @Test(.timeLimit(.minutes(1))) func pacesShowTheZonesOrWhatIsMissing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    let created = try runRunmate(["profile", "init", "ana", "--max-hr", "188"], database: db)
    #expect(created.status == 0, "\(created.stderr)")

    let lacking = try runRunmate(["paces", "--now", "2026-12-01"], database: db)
    #expect(lacking.status == 0, "\(lacking.stderr)")
    #expect(
      lacking.stdout.contains(
        "Heart-rate zones: none yet: the profile needs the max HR and resting HR, or lactate-threshold HR"),
      "\(lacking.stdout)")
    #expect(try pacesJSON(db, now: "2026-12-01")["heart_rate_missing"] as? String != nil)

    let set = try runRunmate(["profile", "set", "--resting-hr", "52"], database: db)
    #expect(set.status == 0, "\(set.stderr)")
    let shown = try runRunmate(["paces", "--now", "2026-12-01"], database: db)
    #expect(shown.stdout.contains("Heart-rate zones (Karvonen, % of heart-rate reserve):"), "\(shown.stdout)")
    #expect(shown.stdout.contains("  Z2 aerobic   134-146 bpm  easy\n"), "\(shown.stdout)")
    #expect(shown.stdout.contains("  Z5 vo2max    174-188 bpm  interval\n"), "\(shown.stdout)")
    let json = try pacesJSON(db, now: "2026-12-01")
    let zones = try #require(json["heart_rate_zones"] as? [String: Any])
    #expect(zones["model"] as? String == "karvonen")
    let bands = try #require(zones["zones"] as? [[String: Any]])
    #expect(bands.count == 5 && bands[1]["low_bpm"] as? Int == 134 && bands[1]["high_bpm"] as? Int == 146)
    #expect(json["heart_rate_missing"] is NSNull || json["heart_rate_missing"] == nil)

    // LTHR and Friel's model chosen: the paces follow it.
    let friel = try runRunmate(["profile", "set", "--lthr", "170", "--hr-zones", "LTHR"], database: db)
    #expect(friel.status == 0, "\(friel.stderr)")
    let lthr = try runRunmate(["paces", "--now", "2026-12-01"], database: db)
    #expect(lthr.stdout.contains("Heart-rate zones (Friel, % of lactate-threshold HR):"), "\(lthr.stdout)")
    #expect(lthr.stdout.contains("  Z4 threshold 162-169 bpm  threshold, race\n"), "\(lthr.stdout)")
  }

  @Test(.timeLimit(.minutes(1))) func badValuesAreRefusedNamingTheFieldAndWhatIsAllowed() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    #expect(try runRunmate(["profile", "init", "ana"], database: db).status == 0)
    let cases: [([String], String)] = [
      (["--lthr", "90"], "--lthr: '90' is not valid, allowed is 100 to 220"),
      (["--max-hr", "180", "--lthr", "185"], "--lthr: '185' is not valid, allowed is under the max HR (180)"),
      (
        ["--hr-zones", "lthr"],
        "--hr-zones: 'lthr' is not valid, allowed is a model whose heart rates the profile "
          + "holds: give the lactate-threshold HR"
      ),
      (["--hr-zones", "karvonnen"], "--hr-zones: 'karvonnen' is not valid"),
      (
        ["--targets", "hr"],
        "--targets: 'hr' is not valid, allowed is pace until the profile holds the max HR and "
          + "resting HR, or lactate-threshold HR"
      ),
      (["--targets", "power"], "--targets: 'power' is not valid"),
    ]
    for (arguments, message) in cases {
      let refused = try runRunmate(["profile", "set"] + arguments, database: db)
      #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
      #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
    let suggested = try runRunmate(["profile", "set", "--hr-zones", "karvonnen"], database: db)
    #expect(suggested.stderr.contains("karvonen"), "\(suggested.stderr)")
    // Nothing was written by the refused changes.
    let shown = try runRunmate(["profile", "show"], database: db)
    #expect(!shown.stdout.contains("HR"), "\(shown.stdout)")
  }

  @Test(.timeLimit(.minutes(1))) func workoutsByHeartRateCarryBpmTargets() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    let made = try runRunmate(
      ["profile", "init", "ana", "--max-hr", "188", "--resting-hr", "52", "--targets", "hr"], database: db)
    #expect(made.status == 0, "\(made.stderr)")
    let shown = try runRunmate(["profile", "show"], database: db)
    #expect(shown.stdout.contains("workout targets: hr"), "\(shown.stdout)")
    let out = directory.appendingPathComponent("watch")
    let written = try runRunmate(
      ["workouts", "--out", out.path, "--from", "2026-11-23", "--to", "2026-11-29"], database: db)
    #expect(written.status == 0, "\(written.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(!names.isEmpty)
    for name in names {
      let file = try FITWorkoutFile.decode(Array(try Data(contentsOf: out.appendingPathComponent(name))), file: name)
      let easy = file.steps.filter { $0.name == "Easy" }
      #expect(easy.allSatisfy { $0.target == .heartRate(lowBPM: 120, highBPM: 146) }, "\(name): \(easy)")
    }
    let icu = directory.appendingPathComponent("icu")
    #expect(
      try runRunmate(["workouts", "--format", "icu", "--out", icu.path, "--to", "2026-11-29"], database: db).status == 0
    )
    let texts = try FileManager.default.contentsOfDirectory(atPath: icu.path).map {
      try String(contentsOf: icu.appendingPathComponent($0), encoding: .utf8)
    }
    #expect(texts.contains { $0.contains("Z2 HR") }, "\(texts)")
  }

  /// The calendar lists a workout's steps as the workout files do: by pace until the runner chooses heart rate, then
  /// in bpm (the feed, sync and replan predictions go through the same planCalendar with the same profile).
  @Test(.timeLimit(.minutes(1))) func calendarStepsFollowTheRunnersChoice() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    let made = try runRunmate(["profile", "init", "ana", "--max-hr", "188", "--resting-hr", "52"], database: db)
    #expect(made.status == 0, "\(made.stderr)")
    let byPace = try runRunmate(["export", "--out", "-", "--now", "2026-11-20"], database: db)
    #expect(byPace.status == 0, "\(byPace.stderr)")
    #expect(!byPace.stdout.contains("bpm"), "by pace until the runner chooses heart rate")
    #expect(try runRunmate(["profile", "set", "--targets", "hr"], database: db).status == 0)
    let byHeart = try runRunmate(["export", "--out", "-", "--now", "2026-11-20"], database: db)
    #expect(byHeart.status == 0, "\(byHeart.stderr)")
    #expect(byHeart.stdout.contains("Z2 120-146 bpm"), "\(byHeart.stdout.prefix(3_000))")
  }
}
