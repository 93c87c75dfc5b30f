import Foundation
import Testing

/// `runmate import` on real GPX/TCX files (the Activity tests' fixtures) into a real database.
@Suite struct ImportCommandTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/ActivityTests/Fixtures")

  @Test func importIsIdempotentAndSkipsTheTwinOfARunAlreadyThere() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let gpx = Self.fixtures.appendingPathComponent("gpx").path
    let first = try runmate(["import", gpx, "--tz", "UTC"], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasSuffix("4 imported, 0 already in the logbook or empty\n"), "\(first.stdout)")
    // Again, plus the TCX twin of one GPX run: nothing new.
    let twin = Self.fixtures.appendingPathComponent("tcx/two-activities.tcx").path
    let again = try runmate(["import", gpx, twin, "--tz", "UTC"], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    let list = try runmate(["log", "list"], environment: env)
    let rows = list.stdout.split(separator: "\n")
    // The GPX folder holds 4 runs; the TCX file holds 2 activities, one of which is the GPX twin.
    #expect(rows.count == 5, "\(list.stdout)")
    #expect(again.stdout.hasSuffix("1 imported, 5 already in the logbook or empty\n"), "\(again.stdout)")
  }

  @Test func aBrokenFileIsNamedWithItsLineAndNothingIsWritten() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let good = Self.fixtures.appendingPathComponent("gpx").path
    let broken = Self.fixtures.appendingPathComponent("broken/truncated.gpx").path
    let result = try runmate(["import", good, broken, "--tz", "UTC"], environment: env)
    #expect(result.status == 65)
    #expect(result.stderr == "runmate: truncated.gpx:301: the file ends before </trkseg> closes (truncated?)\n")
    let list = try runmate(["log", "list"], environment: env)
    #expect(list.stdout == "no runs logged yet\n")
  }

  @Test func hostileXMLIsRefused() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let result = try runmate(["import", Self.fixtures.appendingPathComponent("broken/billion-laughs.gpx").path],
                             environment: env)
    #expect(result.status == 65)
    #expect(result.stderr.contains("refusing a <!DOCTYPE> with an internal subset"))
  }

  @Test func anImportKilledMidwayLeavesTheDatabaseAsItWas() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    // 40 copies of a real run, each shifted by a day, so that none is a duplicate of another.
    let source = try String(contentsOf: Self.fixtures.appendingPathComponent("gpx/route_2021-01-03_5.53pm.gpx"),
                            encoding: .utf8)
    let folder = directory.appendingPathComponent("runs")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for day in 1...40 {
      let shifted = source.replacingOccurrences(of: "2021-01-03T", with: "2021-02-\(day < 10 ? "0" : "")\(day % 28 + 1)T")
        .replacingOccurrences(of: "2021-02-", with: day > 27 ? "2021-03-" : "2021-02-")
      try shifted.write(to: folder.appendingPathComponent("run-\(day).gpx"), atomically: true, encoding: .utf8)
    }
    _ = try runmate(["log", "list"], environment: env)
    for delay in [0.05, 0.15, 0.3] {
      let process = Process()
      process.executableURL = try runmateBinary()
      process.arguments = ["import", folder.path, "--tz", "UTC"]
      process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let list = try runmate(["log", "list"], environment: env)
      let count = list.stdout == "no runs logged yet\n" ? 0 : list.stdout.split(separator: "\n").count
      #expect(count == 0 || count == 40, "after a kill at \(delay) s: \(count) runs")
      if count == 40 { return }
    }
  }
}
