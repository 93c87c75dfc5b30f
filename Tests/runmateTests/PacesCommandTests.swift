import Foundation
import RunMateTestSupport
import Testing

/// Races recalibrate the paces (issue 24): `log --race` and `runmate paces` on a real database, through the binary.
@Suite struct PacesCommandTests {
  /// `paces --format json` on `database` on `now`, decoded.
  private func paces(_ database: URL, now: String) throws -> [String: Any] {
    let result = try runRunmate(["paces", "--format", "json", "--now", now], database: database)
    #expect(result.status == 0, "\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

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
    let plan = try runRunmate(
      [
        "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--recent-race", "10k=47:00",
        "--now", "2026-11-20", "--start", "2026-11-23", "--save", "--name", "spring",
      ], database: db)
    #expect(plan.status == 0, "\(plan.stderr)")

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
          + "`runmate paces` shows them"), "\(replan.stdout)")

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
}
