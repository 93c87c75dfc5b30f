import Foundation
import RunMateTestSupport
import Testing

/// `runmate import` on real GPX/TCX files (the Activity tests' fixtures) into a real database.
@Suite(.tags(.endToEnd)) struct ImportCommandTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ActivityTests/Fixtures")

  @Test func importIsIdempotentAndSkipsTheTwinOfARunAlreadyThere() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let gpx = Self.fixtures.appendingPathComponent("gpx").path
    let first = try runmate(["import", gpx, "--tz", "UTC"], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasSuffix("4 imported, 0 already in the logbook\n"), "\(first.stdout)")
    // Again, plus the TCX twin of one GPX run: nothing new.
    let twin = Self.fixtures.appendingPathComponent("tcx/two-activities.tcx").path
    let again = try runmate(["import", gpx, twin, "--tz", "UTC"], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    let list = try runmate(["log", "list"], environment: env)
    let rows = list.stdout.split(separator: "\n")
    // The GPX folder holds 4 runs; the TCX file holds a run, the GPX twin, and a ride, which is no run.
    #expect(rows.count == 4, "\(list.stdout)")
    #expect(
      again.stdout.hasSuffix(
        "skipped 1 activity of another sport (cycling): two-activities.tcx\n"
          + "0 imported, 5 already in the logbook, 1 of other sports\n"), "\(again.stdout)")
  }

  /// A ride and a swim are never runs: a folder with them imports its runs and names the others by sport.
  @Test func otherSportsAreLeftOutAndNamed() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let folder = directory.appendingPathComponent("activities")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = try String(contentsOf: Self.fixtures.appendingPathComponent("tcx/two-activities.tcx"), encoding: .utf8)
    #expect(run.contains("Sport=\"Running\""))
    try run.write(to: folder.appendingPathComponent("run.tcx"), atomically: true, encoding: .utf8)
    try run.replacingOccurrences(of: "Sport=\"Running\"", with: "Sport=\"Biking\"")
      .write(to: folder.appendingPathComponent("ride.tcx"), atomically: true, encoding: .utf8)
    let gpx = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent("gpx").path)
      .sorted().first { $0.hasSuffix(".gpx") }
    let track = try String(
      contentsOf: Self.fixtures.appendingPathComponent("gpx/\(try #require(gpx))"), encoding: .utf8)
    let swim =
      track.contains("<type>")
      ? track.replacingOccurrences(of: #"<type>[^<]*</type>"#, with: "<type>16</type>", options: .regularExpression)
      : track.replacingOccurrences(of: "<trkseg>", with: "<type>16</type><trkseg>")
    try swim.write(to: folder.appendingPathComponent("swim.gpx"), atomically: true, encoding: .utf8)
    // A track whose points all have one time holds no run: named with the reason, not counted as known.
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="52.0" lon="13.0"><time>2024-06-01T07:00:00Z</time></trkpt>
    <trkpt lat="52.0001" lon="13.0"><time>2024-06-01T07:00:00Z</time></trkpt>
    </trkseg></trk></gpx>
    """.write(to: folder.appendingPathComponent("flat.gpx"), atomically: true, encoding: .utf8)
    let result = try runmate(["import", folder.path, "--tz", "UTC"], environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    // run.tcx holds a run and a ride; ride.tcx is the same file declared a ride.
    #expect(
      result.stdout.contains("skipped 3 activities of another sport (cycling): ride.tcx, ride.tcx, run.tcx\n"),
      "\(result.stdout)")
    #expect(result.stdout.contains("skipped 1 activity of another sport (swimming): swim.gpx\n"), "\(result.stdout)")
    #expect(
      result.stdout.hasSuffix(
        "skipped flat.gpx (Sat 1 Jun): no duration (under a second from the first point to the last)\n"
          + "1 imported, 0 already in the logbook, 1 without a run, 4 of other sports\n"), "\(result.stdout)")
    let list = try runmate(["log", "list"], environment: env)
    #expect(list.stdout.split(separator: "\n").count == 1, "\(list.stdout)")
  }

  /// One broken file never stops the import (issue 13): the rest is imported, the file is listed with its line.
  @Test func aBrokenFileIsListedWithItsLineAndTheRestIsImported() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let good = Self.fixtures.appendingPathComponent("gpx").path
    let broken = Self.fixtures.appendingPathComponent("broken/truncated.gpx").path
    let result = try runmate(["import", good, broken, "--tz", "UTC"], environment: env)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout.hasSuffix(
        "refused truncated.gpx:301: the file ends before </trkseg> closes (truncated?)\n"
          + "4 imported, 0 already in the logbook, 1 file refused\n"), "\(result.stdout)")
    #expect(try Self.runCount(env) == 4)
  }

  /// Nothing importable: exit 65, one line on stderr, and no database is made.
  @Test func onlyBrokenFilesExit65AndWriteNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("runmate.sqlite").path
    let broken = Self.fixtures.appendingPathComponent("broken")
    let one = try runmate(["import", broken.appendingPathComponent("truncated.gpx").path, "--db", database])
    #expect(one.status == 65)
    #expect(one.stderr == "runmate: truncated.gpx:301: the file ends before </trkseg> closes (truncated?)\n")
    let two = try runmate(
      [
        "import", broken.appendingPathComponent("truncated.gpx").path, broken.appendingPathComponent("xxe.gpx").path,
        "--db", database,
      ])
    #expect(two.status == 65)
    #expect(two.stderr == "runmate: nothing imported: 2 files refused (listed above)\n")
    #expect(two.stdout.hasSuffix("0 imported, 0 already in the logbook, 2 files refused\n"), "\(two.stdout)")
    #expect(!FileManager.default.fileExists(atPath: database))
  }

  @Test func hostileXMLIsRefused() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let result = try runmate(
      ["import", Self.fixtures.appendingPathComponent("broken/billion-laughs.gpx").path],
      environment: env)
    #expect(result.status == 65)
    #expect(result.stderr.contains("refusing a <!DOCTYPE> with an internal subset"))
  }

  /// Writes 40 copies of a real run into `folder`, one a day from 2021-02-01, so that none is a twin of another.
  static func writeFortyRuns(in folder: URL) throws {
    let source = try String(
      contentsOf: fixtures.appendingPathComponent("gpx/route_2021-01-03_5.53pm.gpx"),
      encoding: .utf8)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let first = try #require(calendar.date(from: DateComponents(year: 2021, month: 2, day: 1)))
    for offset in 0..<40 {
      let date = try #require(calendar.date(byAdding: .day, value: offset, to: first))
      let day = calendar.dateComponents([.year, .month, .day], from: date)
      let prefix = String(format: "%04d-%02d-%02dT", day.year ?? 0, day.month ?? 0, day.day ?? 0)
      let shifted = source.replacingOccurrences(of: "2021-01-03T", with: prefix)
      try shifted.write(to: folder.appendingPathComponent("run-\(offset + 1).gpx"), atomically: true, encoding: .utf8)
    }
  }

  /// The runs `runmate log list` prints (0 for an empty logbook).
  static func runCount(_ env: [String: String]) throws -> Int {
    let list = try runmate(["log", "list"], environment: env)
    return list.stdout == "no runs logged yet\n" ? 0 : list.stdout.split(separator: "\n").count
  }

  /// The fault-injection hook (`RUNMATE_FAULT_KILL_AFTER_ROWS`) kills the import inside its write transaction, after
  /// 20 of its 40 rows: every time, by SIGKILL, and the database is then exactly what it was before.
  @Test(.enabled(if: hasSQLite3, "needs sqlite3 to read the database independently"))
  func anImportKilledInsideItsTransactionLeavesTheDatabaseAsItWas() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": database]
    let folder = directory.appendingPathComponent("runs")
    try Self.writeFortyRuns(in: folder)
    // A logbook that already holds the four fixture runs.
    let first = try runmate(
      ["import", Self.fixtures.appendingPathComponent("gpx").path, "--tz", "UTC"],
      environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try sqliteDump(database)
    #expect(try Self.runCount(env) == 4)

    let killed = try runmate(
      ["import", folder.path, "--tz", "UTC"],
      environment: env.merging(["RUNMATE_FAULT_KILL_AFTER_ROWS": "20"]) { $1 })
    #expect(killed.signal == SIGKILL, "not killed inside the transaction: \(killed.status) \(killed.stderr)")
    #expect(killed.stdout.isEmpty, "\(killed.stdout)")
    let after = try sqliteDump(database)
    expectSameText(after, before, "the database after the kill")

    let again = try runmate(["import", folder.path, "--tz", "UTC"], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.hasSuffix("40 imported, 0 already in the logbook\n"), "\(again.stdout)")
    #expect(try Self.runCount(env) == 44)
  }
}
