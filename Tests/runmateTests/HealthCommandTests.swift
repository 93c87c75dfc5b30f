import Foundation
import Testing

/// `runmate health import` / `runmate health` on the shared 14-day sample export, into a real database.
@Suite struct HealthCommandTests {
  static let sample = repositoryRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/data/apple-health-sample/export.xml")

  @Test func importIsIdempotentAndSummarised() throws {
    guard FileManager.default.fileExists(atPath: Self.sample.path) else { return }  // ../shared is beside the repo in CI
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(try runmate(["profile", "init", "anna", "--tz", "Europe/Berlin"], environment: env).status == 0)
    let first = try runmate(["health", "import", Self.sample.path], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains(": 3811 records, 14 new days, 0 updated, "), "\(first.stdout)")
    let again = try runmate(["health", "import", Self.sample.path], environment: env)
    #expect(again.stdout.hasSuffix("0 new days, 0 updated, 0 new measurements, 0 new runs\n"), "\(again.stdout)")
    // The last day's totals through the stored summary, against the independent reference aggregator.
    let reference = Process()
    reference.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    reference.arguments = ["python3", repositoryRoot.deletingLastPathComponent()
      .appendingPathComponent("shared/tools/health-gen/reference_aggregate.py").path, Self.sample.path]
    let pipe = Pipe()
    reference.standardOutput = pipe
    reference.standardError = FileHandle.nullDevice
    try reference.run()
    let csv = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    reference.waitUntilExit()
    let row = try #require(csv.split(whereSeparator: \.isNewline).first { $0.hasPrefix("2021-01-14,") }, "reference output: \(csv.prefix(300))").split(separator: ",")
    let summary = try runmate(["health", "--now", "2021-01-14", "--format", "json"], environment: env)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    let today = try #require(json["today_totals"] as? [String: Any])
    #expect(abs((today["steps"] as? Double ?? -1) - (Double(row[1]) ?? -2)) < 0.01)
    #expect(abs((today["distanceKm"] as? Double ?? -1) - (Double(row[5]) ?? -2)) < 0.001)
    #expect(abs((today["activeKcal"] as? Double ?? -1) - (Double(row[7]) ?? -2)) < 0.05)
    #expect(["sedentary", "lightly active", "moderately active", "active", "highly active"]
      .contains(json["activity_level"] as? String ?? ""))
    // Height and weight into the profile from the export.
    let set = try runmate(["profile", "set", "--from-health"], environment: env)
    #expect(set.status == 0, "\(set.stderr)")
    let shown = try runmate(["profile", "show"], environment: env)
    #expect(shown.stdout.contains("  weight: "), "\(shown.stdout)")
  }

  @Test func aHostileFileIsRefusedAndNothingIsWritten() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let file = directory.appendingPathComponent("export.xml")
    try """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE HealthData [
      <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
      <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
      <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
      ]>
      <HealthData locale="en_US">
       <Record type="HKQuantityTypeIdentifierStepCount" sourceName="&c;" unit="count" startDate="2021-01-02 10:00:00 +0100" endDate="2021-01-02 10:10:00 +0100" value="500"/>
      </HealthData>

      """.write(to: file, atomically: true, encoding: .utf8)
    let result = try runmate(["health", "import", file.path, "--tz", "UTC"], environment: env)
    #expect(result.status == 65, "\(result.stdout)")
    #expect(result.stderr.hasPrefix("runmate: "))
    let summary = try runmate(["health", "--tz", "UTC"], environment: env)
    #expect(summary.stdout == "no health data yet: `runmate health import export.zip`\n")
  }

  @Test func anImportKilledMidwayKeepsNothingOfIt() throws {
    let generator = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/tools/health-gen/gen_export.py")
    guard FileManager.default.fileExists(atPath: generator.path) else { return }  // ../shared is beside the repo in CI
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let export = directory.appendingPathComponent("export.xml")
    let make = Process()
    make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    make.arguments = ["python3", generator.path, "--out", export.path, "--days", "200", "--seed", "7"]
    make.standardOutput = FileHandle.nullDevice
    make.standardError = FileHandle.nullDevice
    try make.run()
    make.waitUntilExit()
    #expect(make.terminationStatus == 0)
    for delay in [0.02, 0.08, 0.2, 0.5] {
      let process = Process()
      process.executableURL = try runmateBinary()
      process.arguments = ["health", "import", export.path, "--tz", "Europe/Berlin"]
      process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let summary = try runmate(["health", "--tz", "Europe/Berlin", "--format", "json", "--now", "2030-01-01"],
                                environment: env)
      let json = try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any]
      let hasBest = json?["best_day"] != nil
      let list = try runmate(["log", "list"], environment: env)
      // All or nothing: no days and no runs, or both.
      #expect(hasBest == (list.stdout != "no runs logged yet\n"), "after a kill at \(delay) s")
      if hasBest { return }
    }
  }
}
