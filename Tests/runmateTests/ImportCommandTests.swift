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
}
