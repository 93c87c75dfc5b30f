import Foundation
import RunMateTestSupport
import Testing

/// Best efforts measured inside imported tracks (issue 24), through the binary on a real database: stored with the
/// run (once, however often the file is imported), announced as records of their own distance, and raising the
/// paces (never lowering them).
@Suite(.tags(.endToEnd)) struct BestEffortCommandTests {
  /// A GPX run north along the meridian 0° from 45° N starting at `start` (`2026-12-10T07:00:00Z`), a point every
  /// 6 s: each leg `meters` at `secondsPerKm`.
  private func run(start: String, _ legs: [(meters: Double, secondsPerKm: Double)]) throws -> String {
    let radius = 6_371_008.8
    var time = try #require(ISO8601DateFormatter().date(from: start))
    var meters = 0.0
    func point() -> String {
      let latitude = 45 + meters / radius * 180 / Double.pi
      return "<trkpt lat=\"\(String(format: "%.12f", latitude))\" lon=\"0\">"
        + "<time>\(ISO8601DateFormatter().string(from: time))</time></trkpt>\n"
    }
    var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><type>running</type><trkseg>\n"
    text += point()
    for leg in legs {
      let step = 6 * 1000 / leg.secondsPerKm
      for _ in 0..<Int((leg.meters / step).rounded()) {
        time += 6
        meters += step
        text += point()
      }
    }
    return text + "</trkseg></trk></gpx>\n"
  }

  /// The best efforts stored in the logbook at `database`: `completionID distanceMeters seconds` lines.
  private func storedEfforts(_ database: URL) throws -> [String] {
    try sqliteRows(
      "select completionID || ' ' || cast(distanceMeters as int) || ' ' || round(seconds, 1) from bestEffort "
        + "order by completionID, distanceMeters", in: database.path)
  }

  @Test(.timeLimit(.minutes(1)), .enabled(if: hasPython3, "needs python3 to read the database apart from GRDB"))
  func aMeasuredFiveKRaisesThePacesIsARecordAndASlowOneLowersNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    try saveHalfPlan(db, name: "spring")
    let before = try pacesJSON(db, now: "2026-12-13")
    let planVDOT = try #require(before["vdot"] as? Double)
    #expect(abs(planVDOT - 43.0) < 0.05, "\(planVDOT)")

    // 1 km easy, 5 km at 4:12/km (21:00, VDOT about 47), 1 km easy: the fastest 5 km is the hard part.
    let hard = directory.appendingPathComponent("tempo.gpx")
    try Data(
      try run(start: "2026-12-10T07:00:00Z", [(1000, 330), (5000, 252), (1000, 330)]).utf8
    ).write(to: hard)
    let first = try runRunmate(["import", hard.path, "--now", "2026-12-13"], database: db)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("1 imported"), "\(first.stdout)")
    #expect(
      first.stdout.contains("New personal best: first measured 5k: 21:00, inside the run of Thu 10 Dec!"),
      "\(first.stdout)")
    #expect(!first.stdout.contains("10k"), "no 10 km stretch: \(first.stdout)")
    let stored = try storedEfforts(db)
    #expect(stored.map { $0.split(separator: " ")[1] } == ["400", "1000", "5000"], "\(stored)")
    #expect(stored.last?.hasSuffix(" 5000 1260.0") == true, "\(stored)")

    // The same file again: the run is known, its efforts are stored once, no record is announced again.
    let again = try runRunmate(["import", hard.path, "--now", "2026-12-13"], database: db)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 imported, 1 already in the logbook"), "\(again.stdout)")
    #expect(!again.stdout.contains("personal best"), "\(again.stdout)")
    #expect(try storedEfforts(db) == stored)

    // The effort raises the paces by the cap, with the effort as the source.
    let raised = try pacesJSON(db, now: "2026-12-13")
    #expect(raised["source"] as? String == "effort")
    #expect(raised["source_text"] as? String == "fastest 5 km inside the run of Thu 10 Dec, 21:00")
    #expect(raised["source_date"] as? String == "2026-12-10")
    #expect(raised["capped"] as? Bool == true)
    let vdot = try #require(raised["vdot"] as? Double)
    #expect(abs(vdot - (planVDOT + 2)) < 0.02, "\(vdot)")
    let efforts = try #require(raised["efforts"] as? [[String: Any]])
    #expect(efforts.count == 1)
    #expect(efforts.first?["counted"] as? Bool == true)
    #expect(efforts.first?["distance_km"] as? Double == 5)
    #expect((raised["races"] as? [Any])?.isEmpty == true)
    let table = try runRunmate(["paces", "--now", "2026-12-13"], database: db)
    #expect(
      table.stdout.contains(
        "VDOT 45.0 from fastest 5 km inside the run of Thu 10 Dec, 21:00 (the plan uses 43.0; moved at most 2.0 a run)"),
      "\(table.stdout)")

    // An easy 6 km at 6:00/km: its fastest 5 km (30:00) is far below the estimate and lowers nothing.
    let easy = directory.appendingPathComponent("easy.gpx")
    try Data(try run(start: "2026-12-12T07:00:00Z", [(6000, 360)]).utf8).write(to: easy)
    let second = try runRunmate(["import", easy.path, "--now", "2026-12-13"], database: db)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(!second.stdout.contains("personal best"), "a slower 5 km is no record: \(second.stdout)")
    let after = try pacesJSON(db, now: "2026-12-13")
    #expect(after["vdot"] as? Double == vdot)
    #expect(after["source"] as? String == "effort")
    let listed = try #require(after["efforts"] as? [[String: Any]])
    #expect(listed.count == 2)
    #expect(listed.first?["date"] as? String == "2026-12-12")
    #expect(listed.first?["counted"] as? Bool == false)
    #expect((listed.first?["reason"] as? String)?.contains("can only raise") == true, "\(listed)")
  }

  @Test(.timeLimit(.minutes(1))) func anEasySixKIsNoFiveKRecordButItsMeasuredFiveKIs() throws {
    // The issue: an easy 6 km was announced as "fastest 5k: 31:03" from its average pace. Logged by hand, a 6 km run
    // is no 5k record; imported from a track, its fastest measured 5 km is, said as such.
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite")
    let logged = try runRunmate(
      ["log", "2026-12-08", "--distance", "6km", "--time", "37:15", "--now", "2026-12-08"], database: db)
    #expect(logged.status == 0, "\(logged.stderr)")
    #expect(!logged.stdout.contains("5k"), "\(logged.stdout)")
    let file = directory.appendingPathComponent("easy.gpx")
    try Data(try run(start: "2026-12-10T07:00:00Z", [(3000, 390), (3000, 360)]).utf8).write(to: file)
    let imported = try runRunmate(["import", file.path, "--now", "2026-12-13"], database: db)
    #expect(imported.status == 0, "\(imported.stderr)")
    // 3 km at 6:30, then 3 km at 6:00: the fastest 5 km is the last 2 km at 6:30 and the 3 km at 6:00, 31:00.
    #expect(
      imported.stdout.contains("New personal best: first measured 5k: 31:00, inside the run of Thu 10 Dec!"),
      "\(imported.stdout)")
  }
}
