import Foundation
import RunMateTestSupport
import RunningCore
import Testing

/// `paces --format json` on `database` on `now`, decoded.
func pacesJSON(_ database: URL, now: String) throws -> [String: Any] {
  let result = try runRunmate(["paces", "--format", "json", "--now", now], database: database)
  #expect(result.status == 0, "\(result.stderr)")
  return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
}

/// Saves a 12-week intermediate half plan from a 10K in 47:00 (VDOT 43.0) starting Mon 23 Nov 2026, as `name`.
func saveHalfPlan(_ database: URL, name: String, _ extra: [String] = []) throws {
  let made = try runRunmate(
    [
      "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--recent-race", "10k=47:00",
      "--now", "2026-11-20", "--start", "2026-11-23", "--save", "--name", name,
    ] + extra, database: database)
  #expect(made.status == 0, "\(made.stderr)")
}

/// Races recalibrate the paces (issue 24): `log --race` and `runmate paces` on a real database, through the binary.
@Suite(.tags(.endToEnd)) struct PacesCommandTests {
  private func paces(_ database: URL, now: String) throws -> [String: Any] { try pacesJSON(database, now: now) }

  private func threshold(_ json: [String: Any]) throws -> Double {
    let zones = try #require(json["paces"] as? [[String: Any]])
    return try #require(zones.first { $0["zone"] as? String == "threshold" }?["fast_s_per_km"] as? Double)
  }

  private func prediction(_ json: [String: Any], _ distance: String) throws -> (daniels: Double, riegel: Double) {
    let rows = try #require(json["predictions"] as? [[String: Any]])
    let row = try #require(rows.first { $0["distance"] as? String == distance })
    return (try #require(row["daniels_s"] as? Double), try #require(row["riegel_s"] as? Double))
  }

  @Test(.timeLimit(.minutes(1))) func aFasterTenKMovesTheVDOTThePacesAndThePredictions() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")

    let before = try paces(db, now: "2026-12-13")
    #expect(before["schema"] as? String == "runmate.paces/1")
    #expect(before["source"] as? String == "plan")
    let planVDOT = try #require(before["vdot"] as? Double)
    #expect(abs(planVDOT - 43.0) < 0.05, "a 10K in 47:00 is VDOT 43.0: \(planVDOT)")

    // The runner races a 10K in 45:00 (VDOT 45.3): the estimate moves up by the cap (2), with the race as its source.
    let logged = try runRunmate(
      ["log", "2026-12-12", "--distance", "10km", "--time", "45:00", "--race", "--now", "2026-12-12"], database: db)
    #expect(logged.status == 0, "\(logged.stderr)")
    let after = try paces(db, now: "2026-12-13")
    #expect(after["source"] as? String == "race")
    #expect(after["source_text"] as? String == "10K race on 2026-12-12, 45:00")
    #expect(after["source_date"] as? String == "2026-12-12")
    #expect(after["capped"] as? Bool == true)
    let vdot = try #require(after["vdot"] as? Double)
    #expect(abs(vdot - (planVDOT + 2)) < 0.02, "\(vdot)")
    #expect(try threshold(after) < threshold(before) - 5, "threshold pace faster by seconds a km")
    #expect(try prediction(after, "half").daniels < prediction(before, "half").daniels - 60)
    // Riegel now scales from the race itself: 45:00 × (21.0975/10)^1.06.
    #expect(abs(try prediction(after, "half").riegel - 2700 * pow(2.10975, 1.06)) < 0.1)
    #expect(try prediction(after, "10k").riegel == 2700)

    let table = try runRunmate(["paces", "--now", "2026-12-13"], database: db)
    #expect(table.status == 0, "\(table.stderr)")
    #expect(
      table.stdout.contains("VDOT 45.0 from 10K race on 2026-12-12, 45:00 (the plan uses 43.0"), "\(table.stdout)")
    #expect(table.stdout.contains("Riegel (from 10K race on 2026-12-12, 45:00)"), "\(table.stdout)")

    // `replan` says the paces moved (and changes nothing for it).
    let replan = try runRunmate(["replan", "--now", "2026-12-13"], database: db)
    #expect(replan.status == 0, "\(replan.stderr)")
    #expect(
      replan.stdout.contains(
        "Your 10K on Sat 12 Dec says VDOT 45.3 (the plan uses 43.0): the paces move to 45.0 (at most 2.0 a race): "
          + "`runmate paces` shows them, `runmate replan --update-paces` puts them in the plan"), "\(replan.stdout)")

    // A mile race (under 3 km) is logged as a race but moves nothing.
    let mile = try runRunmate(
      ["log", "2026-12-13", "--distance", "mile", "--time", "5:50", "--race", "--now", "2026-12-13"], database: db)
    #expect(mile.status == 0, "\(mile.stderr)")
    let withMile = try paces(db, now: "2026-12-13")
    #expect(withMile["vdot"] as? Double == vdot)
    #expect(withMile["source_text"] as? String == "10K race on 2026-12-12, 45:00")
    let races = try #require(withMile["races"] as? [[String: Any]])
    #expect(races.count == 2)
    #expect(races.first?["counted"] as? Bool == false)
    #expect((races.first?["reason"] as? String)?.hasPrefix("under 3 km") == true)

    // Hostile times are refused at the door with one line naming --time, and nothing is written.
    let runs = try runRunmate(["log", "list", "--format", "json"], database: db).stdout
    for time in ["0:10", "20:00"] {
      let refused = try runRunmate(
        ["log", "2026-12-13", "--distance", "10km", "--time", time, "--race", "--now", "2026-12-13"], database: db)
      #expect(refused.status == 64, "\(time): \(refused.stdout) \(refused.stderr)")
      #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
      #expect(refused.stderr.contains("--time: '\(time)'"), "\(refused.stderr)")
    }
    #expect(try runRunmate(["log", "list", "--format", "json"], database: db).stdout == runs)
    #expect(try paces(db, now: "2026-12-13")["vdot"] as? Double == vdot)
  }

  @Test(.timeLimit(.minutes(1))) func raceAndAnotherKindAreRefused() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    let result = try runRunmate(
      ["log", "--distance", "10km", "--time", "45:00", "--race", "--kind", "easy", "--now", "2026-12-12"],
      database: db)
    #expect(result.status == 64)
    #expect(result.stderr.contains("--kind: 'easy'"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: db.path))
    // `--race` is `--kind race`: the race is a race record.
    let raced = try runRunmate(
      ["log", "2026-12-12", "--distance", "10km", "--time", "45:00", "--race", "--now", "2026-12-12"], database: db)
    #expect(raced.stdout.contains("first 10k race: 45:00"), "\(raced.stdout)")
    let list = try runRunmate(["log", "list", "--format", "json"], database: db)
    #expect(list.stdout.contains("\"kind\" : \"race\""), "\(list.stdout)")
  }

  /// The saved plan `name` as `plans show --format json` gives it.
  private func savedPlan(_ database: URL, _ name: String) throws -> [String: Any] {
    let shown = try runRunmate(["plans", "show", name, "--format", "json"], database: database)
    #expect(shown.status == 0, "\(shown.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
  }

  /// Every workout of a plan: (date, distance km, description).
  private func workouts(_ plan: [String: Any]) throws -> [(date: String, km: Double, text: String)] {
    try #require(plan["weeks"] as? [[String: Any]]).flatMap { week in
      (week["workouts"] as? [[String: Any]] ?? []).map {
        ($0["date"] as? String ?? "", $0["distance_km"] as? Double ?? 0, $0["description"] as? String ?? "")
      }
    }
  }

  /// Logs every planned run of `plan` before `day` at 6:20/km, each on its day.
  private func logPlannedRuns(_ plan: [String: Any], before day: String, database: URL) throws {
    for workout in try workouts(plan) where workout.date < day && workout.km > 0 {
      let seconds = Int(workout.km * 380)
      let logged = try runRunmate(
        [
          "log", workout.date, "--distance", "\(workout.km)km", "--time",
          String(format: "%d:%02d", seconds / 60, seconds % 60), "--now",
          workout.date,
        ], database: database)
      #expect(logged.status == 0, "\(logged.stderr)")
    }
  }

  @Test(.timeLimit(.minutes(1))) func updatePacesPutsTheRaceInThePlanOnceAndKeepsTheRunning() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    let before = try savedPlan(db, "spring")
    try logPlannedRuns(before, before: "2026-12-12", database: db)
    let thresholdBefore = try threshold(try paces(db, now: "2026-12-13"))
    let race = try runRunmate(
      ["log", "2026-12-12", "--distance", "10km", "--time", "45:00", "--race", "--now", "2026-12-12"], database: db)
    #expect(race.status == 0, "\(race.stderr)")

    let updated = try runRunmate(["replan", "--update-paces", "--apply", "--now", "2026-12-13"], database: db)
    #expect(updated.status == 0, "\(updated.stderr)")
    #expect(
      updated.stdout.contains(
        "Paces: VDOT 43.0 → 45.0 from your 10K on Sat 12 Dec: every workout from today on takes them"),
      "\(updated.stdout)")
    #expect(updated.stdout.contains("Saved."), "\(updated.stdout)")

    // The goal records the new VDOT and the race it took in.
    let after = try savedPlan(db, "spring")
    let goal = try #require(after["goal"] as? [String: Any])
    #expect(abs(try #require(goal["vdot"] as? Double) - 45.0) < 0.05, "\(goal)")
    #expect(goal["vdot_source"] as? String == "races")
    #expect(goal["vdot_as_of"] as? String == "2026-12-12")

    // The past is as it was; from today on the workouts carry the new threshold pace and not the old one, and the
    // running is the same: only runs set by time (a tempo's minutes, race week's shakeout) cover a little more.
    let old = try workouts(before)
    let new = try workouts(after)
    #expect(old.count == new.count)
    let fast = try paces(db, now: "2026-12-13")
    let newThreshold = Pace(secondsPerKilometer: try threshold(fast)).formatted(in: .km)
    let oldThreshold = Pace(secondsPerKilometer: thresholdBefore).formatted(in: .km)
    #expect(newThreshold != oldThreshold)
    var (withNewPace, rewritten) = (0, 0)
    for (was, now) in zip(old, new) {
      #expect(was.date == now.date)
      if was.date < "2026-12-13" {
        #expect(was.text == now.text, "a past workout changed on \(was.date)")
        continue
      }
      #expect(abs(was.km - now.km) <= 0.3 + 1e-9, "\(now.date): \(was.km) → \(now.km) km")
      #expect(!now.text.contains(oldThreshold), "\(now.date) keeps the old threshold pace: \(now.text)")
      if now.text.contains(newThreshold) { withNewPace += 1 }
      if now.text != was.text { rewritten += 1 }
    }
    #expect(withNewPace >= 3, "\(withNewPace) workouts at the new threshold pace")
    #expect(rewritten >= 20, "\(rewritten) workouts with new paces")

    // The race is in the plan now: `paces` starts from it and does not count it again; a second update has nothing
    // to do, and a plain replan leaves the plan as it stands.
    #expect(fast["source"] as? String == "plan")
    #expect(fast["plan_vdot_source"] as? String == "races")
    #expect(abs(try #require(fast["vdot"] as? Double) - 45.0) < 0.05)
    let races = try #require(fast["races"] as? [[String: Any]])
    #expect(races.first?["counted"] as? Bool == false)
    #expect((races.first?["reason"] as? String)?.contains("in the plan's paces already") == true, "\(races)")
    let again = try runRunmate(["replan", "--update-paces", "--now", "2026-12-13"], database: db)
    #expect(again.stdout.contains("Paces: no race since the paces were set moves them"), "\(again.stdout)")
    let plain = try runRunmate(["replan", "--now", "2026-12-13"], database: db)
    #expect(plain.stdout.contains("No change."), "\(plain.stdout)")
    #expect(!plain.stdout.contains("Your 10K"), "\(plain.stdout)")
  }

  @Test(.timeLimit(.minutes(1))) func aGoalTimeIsJudgedFromTheBestRecentRaceAndKeptThroughAReplan() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "goal", ["--goal-time", "1:42:00"])
    func check(_ now: String) throws -> [String: Any] {
      try #require(try paces(db, now: now)["goal_check"] as? [String: Any])
    }
    func log(_ day: String, _ distance: String, _ time: String) throws {
      let logged = try runRunmate(
        ["log", day, "--distance", distance, "--time", time, "--race", "--now", day], database: db)
      #expect(logged.status == 0, "\(logged.stderr)")
    }
    // No race yet: not judged, and the way to be judged is named.
    let none = try check("2026-12-01")
    #expect(none["status"] as? String == "unknown")
    #expect((none["text"] as? String)?.contains("log a race of 3 km or more") == true)

    // A 10K in 46:30 (VDOT 43.6) against the goal's 44.1, with 9 weeks left at up to 0.2 a week: within reach.
    try log("2026-12-12", "10km", "46:30")
    let near = try check("2026-12-13")
    #expect(near["status"] as? String == "within-reach", "\(near)")
    #expect(near["weeks_left"] as? Int == 9)
    let goalVDOT = try #require(near["goal_vdot"] as? Double)
    #expect(abs(goalVDOT - 44.1) < 0.05)
    #expect(try #require(near["race_vdot"] as? Double) < goalVDOT)
    #expect(try #require(near["reachable_vdot"] as? Double) >= goalVDOT)

    // A slow 5K the next day does not make the goal "behind" while the better 10K stands; alone, it would.
    try log("2026-12-13", "5km", "25:00")
    let still = try check("2026-12-14")
    #expect(still["status"] as? String == "within-reach", "\(still)")
    #expect((still["text"] as? String)?.contains("your best race of the last 6 weeks") == true, "\(still)")
    let late = try check("2027-01-25")  // the 10K is more than 6 weeks old, the 5K is not
    #expect(late["status"] as? String == "behind", "\(late)")
    let aim = try #require(late["aim_for_s"] as? Double)
    #expect(aim > 6120, "behind a 1:42:00 goal, the time to aim for is slower: \(aim)")
    let table = try runRunmate(["paces", "--now", "2027-01-25"], database: db)
    #expect(
      table.stdout.contains("Goal 1:42:00 for the half marathon: behind: your 5K on Sun 13 Dec"), "\(table.stdout)")

    // A replan after missed weeks keeps the goal time: race day still speaks of the goal, and the replan says where
    // the goal stands.
    let replanned = try runRunmate(["replan", "--apply", "--now", "2026-12-14"], database: db)
    #expect(replanned.status == 0, "\(replanned.stderr)")
    #expect(replanned.stdout.contains("Goal 1:42:00 for the half marathon: within reach"), "\(replanned.stdout)")
    let plan = try savedPlan(db, "goal")
    let raceDay = try #require(try workouts(plan).last)
    #expect(raceDay.text.contains("Your goal: 1:42:00"), "\(raceDay.text)")
    // The goal is faster than the plan's 10K: the training paces are the 10K's (VDOT 43.0), the goal race pace.
    let planGoal = try #require(plan["goal"] as? [String: Any])
    #expect(planGoal["vdot"] as? Double == 43.0 && planGoal["vdot_source"] as? String == "recent-race", "\(planGoal)")
    #expect(planGoal["goal_time_s"] as? Int == 6120, "\(planGoal)")

    // Races the plan's paces took in still judge the goal.
    let updated = try runRunmate(["replan", "--update-paces", "--apply", "--now", "2026-12-14"], database: db)
    #expect(updated.stdout.contains("Paces: VDOT 43.0 → "), "\(updated.stdout)")
    let taken = try check("2026-12-15")
    #expect(taken["status"] as? String == "within-reach", "\(taken)")
    #expect(taken["race"] as? String == "10K race on 2026-12-12, 46:30", "\(taken)")
  }
}
