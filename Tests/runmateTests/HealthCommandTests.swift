import Foundation
import RunMateTestSupport
import Testing

/// `runmate health import` / `runmate health` on the shared 14-day sample export, into a real database.
@Suite(.tags(.endToEnd)) struct HealthCommandTests {
  static let sample = repositoryRoot.appendingPathComponent("Tests/HealthTests/Fixtures/sample/export.xml")
  /// The independent reference aggregator, in `../shared` beside the repository (there in CI).
  static let referenceAggregator = repositoryRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/tools/health-gen/reference_aggregate.py")

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: referenceAggregator.path),
      "needs ../shared/tools/health-gen/reference_aggregate.py beside the repository"))
  func importIsIdempotentAndSummarised() throws {
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
    reference.arguments = ["python3", Self.referenceAggregator.path, Self.sample.path]
    let pipe = Pipe()
    reference.standardOutput = pipe
    reference.standardError = FileHandle.nullDevice
    try reference.run()
    let csv = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    reference.waitUntilExit()
    let row = try #require(
      csv.split(whereSeparator: \.isNewline).first { $0.hasPrefix("2021-01-14,") },
      "reference output: \(csv.prefix(300))"
    ).split(separator: ",")
    let summary = try runmate(["health", "--now", "2021-01-14", "--format", "json"], environment: env)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    let today = try #require(json["today_totals"] as? [String: Any])
    #expect(abs((today["steps"] as? Double ?? -1) - (Double(row[1]) ?? -2)) < 0.01)
    #expect(abs((today["distanceKm"] as? Double ?? -1) - (Double(row[5]) ?? -2)) < 0.001)
    #expect(abs((today["activeKcal"] as? Double ?? -1) - (Double(row[7]) ?? -2)) < 0.05)
    #expect(
      ["sedentary", "lightly active", "moderately active", "active", "highly active"]
        .contains(json["activity_level"] as? String ?? ""))
    // Height and weight into the profile from the export.
    let set = try runmate(["profile", "set", "--from-health"], environment: env)
    #expect(set.status == 0, "\(set.stderr)")
    let shown = try runmate(["profile", "show"], environment: env)
    #expect(shown.stdout.contains("  weight: "), "\(shown.stdout)")
  }

  /// `health import --now` is today as for `import`: a workout after it is a device clock gone wrong, skipped and
  /// counted; the same export read a week later stores every run.
  @Test func importTakesNowAsImportDoes() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func healthImport(_ now: String, into name: String) throws -> RunResult {
      try runmate(
        ["health", "import", Self.sample.path, "--tz", "Europe/Berlin", "--now", now],
        environment: ["RUNMATE_DB": directory.appendingPathComponent(name).path])
    }
    let early = try healthImport("2021-01-08", into: "early.sqlite")
    #expect(early.status == 0, "\(early.stderr)")
    #expect(early.stdout.contains(", 5 new runs\n"), "\(early.stdout)")
    #expect(
      early.stdout.contains(
        "skipped 3 workouts dated after today (2021-01-08, the latest 2021-01-14): check the device's clock"),
      "\(early.stdout)")
    let late = try healthImport("2021-01-14", into: "late.sqlite")
    #expect(late.stdout.contains(", 8 new runs\n") && !late.stdout.contains("after today"), "\(late.stdout)")
    // A bad --now is refused before the database is created.
    let bad = try healthImport("2021-1-8", into: "bad.sqlite")
    #expect(bad.status == 64 && bad.stderr.hasPrefix("runmate: --now: '2021-1-8' is not valid"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad.sqlite").path))
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

  static let fixtures = repositoryRoot.appendingPathComponent("Tests/HealthTests/Fixtures")

  /// The fault-injection hook (`RUNMATE_FAULT_KILL_AFTER_ROWS`) kills a health import inside its write transaction,
  /// after 10 of its rows (days, measures, runs): every time, by SIGKILL, and the database is then exactly what it
  /// was before; without the hook the same import then lands whole.
  @Test(.enabled(if: hasSQLite3, "needs sqlite3 to read the database independently"))
  func anImportKilledInsideItsTransactionKeepsNothingOfIt() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": database]
    // A database that already holds a small export.
    let handwritten = Self.fixtures.appendingPathComponent("handwritten/export.xml").path
    let first = try runmate(["health", "import", handwritten, "--tz", "Europe/Berlin"], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try sqliteDump(database)

    let sample = Self.fixtures.appendingPathComponent("sample/export.xml").path
    let killed = try runmate(
      ["health", "import", sample, "--tz", "Europe/Berlin"],
      environment: env.merging(["RUNMATE_FAULT_KILL_AFTER_ROWS": "10"]) { $1 })
    #expect(killed.signal == SIGKILL, "not killed inside the transaction: \(killed.status) \(killed.stderr)")
    let after = try sqliteDump(database)
    expectSameText(after, before, "the database after the kill")

    let again = try runmate(["health", "import", sample, "--tz", "Europe/Berlin"], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains(": 3811 records, 14 new days, 0 updated, "), "\(again.stdout)")
  }
}
