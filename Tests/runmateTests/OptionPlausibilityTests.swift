import Foundation
import RunMateTestSupport
import Testing

/// A database with one saved plan, and what it holds as the binary shows it, to prove a refused command
/// changed nothing.
struct LogbookFixture {
  let directory: URL
  let database: URL
  var environment: [String: String] { ["RUNMATE_DB": database.path] }

  /// A fresh directory with a database holding a saved 5K plan and one logged run.
  static func make() throws -> LogbookFixture {
    let directory = try temporaryDirectory()
    let fixture = LogbookFixture(directory: directory, database: directory.appendingPathComponent("runmate.sqlite"))
    let saved = try runmate(
      [
        "plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "2026-11-21",
        "--start", "2026-11-23", "--save", "--name", "autumn",
      ], environment: fixture.environment)
    #expect(saved.status == 0, "\(saved.stderr)")
    let logged = try runmate(
      ["log", "2026-11-24", "--distance", "3km", "--time", "20:00", "--now", "2026-11-24"],
      environment: fixture.environment)
    #expect(logged.status == 0, "\(logged.stderr)")
    // The first open after the one that created the database still grows it by a page (Logbook's business);
    // from the next one on, a command that changes nothing leaves the pages as they are.
    _ = try runmate(["plans", "list"], environment: fixture.environment)
    return fixture
  }

  /// The database file's bytes, less the header fields every open bumps (the logbook's migration check runs in a
  /// write transaction: SQLite's file change counter at offset 24, schema cookie at 40 and version-valid-for number
  /// at 92): every page must stay as it was.
  func content() throws -> Data {
    var bytes = try Data(contentsOf: database)
    for offset in [24, 25, 26, 27, 40, 41, 42, 43, 92, 93, 94, 95] where offset < bytes.count { bytes[offset] = 0 }
    return bytes
  }

  /// ``content()`` and the plans, runs and profiles as listed by the binary.
  func snapshot() throws -> String {
    var text = try content().base64EncodedString() + "\n"
    for command in [["plans", "list"], ["log", "list"], ["profile", "list"]] {
      text += try runmate(command, environment: environment).stdout
    }
    return text
  }

  /// The names in the directory, sorted.
  func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Every numeric and date option is read with its range: `nan`, `inf`, `1e309`, negatives, zero and huge values
/// give one line naming the option, the value as typed and what is allowed (exit 64), never a crash, and the
/// database is left as it was.
@Suite(.tags(.endToEnd)) struct OptionPlausibilityTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var environment: [String: String] = [:]
    var status: Int32 = 64
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let goal = ["--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "2026-11-21"]

  /// Each value through plan, schedule and export in turn (all three read the same goal options).
  static let weekly: [Case] = ["nan", "inf", "-inf", "1e309", "-5", "0", "1e20", "NaN", "0x1p3000"].enumerated()
    .map { index, value in
      let command = ["plan", "schedule", "export"][index % 3]
      return Case(
        arguments: [command] + goal + ["--current-weekly-km=\(value)"]
          + (command == "export" ? ["--out", "-"] : []),
        message: "runmate: --current-weekly-km: '\(value)' is not valid, allowed is 5 to 250 km (3.1 to 155.3 mi)"
          + ", written like 32km or 20mi (a bare number is km)")
    }

  static let others: [Case] = [
    Case(
      arguments: ["plan"] + goal + ["--longest-recent-run-km", "nan"],
      message: "runmate: --longest-recent-run-km: 'nan' is not valid, allowed is 3 to 60 km (1.9 to 37.3 mi)"
        + ", written like 32km or 20mi (a bare number is km)"),
    Case(
      arguments: ["schedule"] + goal + ["--longest-recent-run-km=-inf"],
      message: "runmate: --longest-recent-run-km: '-inf' is not valid, allowed is 3 to 60 km (1.9 to 37.3 mi)"
        + ", written like 32km or 20mi (a bare number is km)"),
    Case(
      arguments: ["export"] + goal + ["--longest-recent-run-km", "1e309", "--out", "-"],
      message: "runmate: --longest-recent-run-km: '1e309' is not valid, allowed is 3 to 60 km (1.9 to 37.3 mi)"
        + ", written like 32km or 20mi (a bare number is km)"),
    Case(
      arguments: [
        "plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "2026-11-21",
        "--start", "9999-12-27",
      ],
      message: "runmate: --start: '9999-12-27' is not valid, allowed is a date from 2025-11-20 to 2031-11-25"),
    Case(
      arguments: [
        "plan", "--distance", "5k", "--level", "beginner", "--now", "2026-11-21",
        "--race-date", "2400-01-01",
      ],
      message: "runmate: --race-date: '2400-01-01' is not valid, allowed is a date from 2025-11-20 to 2031-11-25"),
    Case(
      arguments: ["plan"] + goal + ["--runs-per-week", "99999999999999999999"],
      message: "runmate: The value '99999999999999999999' is invalid for '--runs-per-week <n>' "
        + "(see 'runmate plan --help')"),
    Case(
      arguments: ["plan"] + goal + ["--runs-per-week", "9"],
      message: "runmate: --runs-per-week: 9 is out of range, allowed is 3–7"),
    Case(
      arguments: ["plan"] + goal + ["--recent-race", "5k=99999999999999999999999:00"],
      message: "runmate: --recent-race: a 5.0 km race in --:-- gives VDOT -5.7, outside the plausible range 20–90: "
        + "check the time (h:mm:ss or mm:ss)"),
    Case(
      arguments: ["plan"] + goal + ["--recent-race", "1e309k=20:00"],
      message: "runmate: --recent-race: '1e309k=20:00' is not valid, allowed is DISTANCE=TIME such as 5k=24:30, "
        + "10k=52:10, half=1:52:00"),
    Case(
      arguments: ["plan"] + goal + ["--weeks", "9223372036854775807"],
      message: "runmate: --weeks: 9223372036854775807 is out of range, allowed is 1–40"),
    Case(
      arguments: ["export"] + goal + ["--remind", "9223372036854775807h", "--out", "-"],
      message: "runmate: --remind: '9223372036854775807h' is not valid, allowed is 30m, 2h, 1d (before a timed "
        + "workout), 06:00 or 20:00-1d (a local time)"),
    Case(
      arguments: ["export"] + goal + ["--remind", "8d", "--out", "-"],
      message: "runmate: --remind: '8d' is not valid, allowed is 30m, 2h, 1d (before a timed workout), 06:00 or "
        + "20:00-1d (a local time)"),
    Case(
      arguments: ["schedule"] + goal + ["--at", "99999999999999999999:00"],
      message: "runmate: --at: '99999999999999999999:00' is not valid, allowed is HH:MM (06:30) or DAY=HH:MM "
        + "(sat=08:00)"),
    Case(
      arguments: ["schedule"] + goal + ["--days", "mon"],
      message: "runmate: --days: 'mon' is not valid, allowed is at least two run days"),
    Case(
      arguments: ["schedule"] + goal + ["--skip", "0001-01-01..2027-01-01"],
      message: "runmate: --skip: '0001-01-01' is not valid, allowed is a date from 1900-01-01 to 2200-12-31"),
    Case(
      arguments: ["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8", "--now", "0001-01-01"],
      message: "runmate: --now: '0001-01-01' is not valid, allowed is a date from 1900-01-01 to 2200-12-31"),
    Case(
      arguments: [
        "plan", "--distance", "5k", "--level", "beginner", "--weeks", "8",
        "--now", "9999-12-01T00:00:00Z",
      ],
      message: "runmate: --now: '9999-12-01T00:00:00Z' is not valid, allowed is a date YYYY-MM-DD or an ISO 8601 "
        + "time with its offset such as 2026-11-26T08:00:00Z, from 1900 to 2200"),
    Case(
      arguments: ["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8"],
      message: "runmate: SOURCE_DATE_EPOCH: '1e300' is not valid, allowed is seconds since 1970, from -2208988800 "
        + "(1900) to 7289654399 (2200)", environment: ["SOURCE_DATE_EPOCH": "1e300"]),
    Case(
      arguments: ["plan", "--distance", "5k", "--level", "beginner", "--weeks", "8"],
      message: "runmate: SOURCE_DATE_EPOCH: 'nan' is not valid, allowed is seconds since 1970, from -2208988800 "
        + "(1900) to 7289654399 (2200)", environment: ["SOURCE_DATE_EPOCH": "nan"]),
    Case(arguments: ["progress", "--weeks", "0"], message: "runmate: --weeks: '0' is not valid, allowed is 1 to 60"),
    Case(
      arguments: ["replan", "--pause", "2026-11-30..9999-01-01", "--now", "2026-11-25"],
      message: "runmate: --pause: '9999-01-01' is not valid, allowed is a date from 1900-01-01 to 2200-12-31"),
    Case(
      arguments: ["profile", "init", "sam", "--height", "nan"],
      message: "runmate: --height: 'nan' is not valid, allowed is 100 to 250 cm"),
    Case(
      arguments: ["profile", "init", "sam", "--weight=1e309"],
      message: "runmate: --weight: '1e309' is not valid, allowed is 25 to 300 kg"),
    Case(
      arguments: ["profile", "init", "sam", "--weight=-70"],
      message: "runmate: --weight: '-70' is not valid, allowed is 25 to 300 kg"),
    Case(
      arguments: ["profile", "init", "sam", "--remind", "9223372036854775807d"],
      message: "runmate: --remind: '9223372036854775807d' is not valid, allowed is 30m, 2h, 1d (before a timed "
        + "workout), 06:00 or 20:00-1d (a local time)"),
  ]

  /// Each value alone: one line, exit 64, nothing on standard output, no file created (not even a database).
  @Test(arguments: weekly + others)
  func implausibleValuesAreRefusedInOneLine(_ testCase: Case) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let result = try runmate(testCase.arguments, environment: environment.merging(testCase.environment) { $1 })
    #expect(result.status == testCase.status)
    #expect(result.stderr == testCase.message + "\n")
    #expect(result.stdout.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  /// The same values against a database with a plan, a run and a profile: it is left byte for byte as it was.
  @Test func refusedValuesLeaveTheDatabaseAsItWas() throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    #expect(try runmate(["profile", "init", "sam"], environment: fixture.environment).status == 0)
    let before = try fixture.snapshot()
    let bytes = try fixture.content()
    let files = try fixture.files()
    let commands: [[String]] = [
      ["plan"] + Self.goal + ["--current-weekly-km", "nan", "--save"],
      ["export"] + Self.goal + ["--longest-recent-run-km", "inf", "--out", "-"],
      ["export", "--plan", "autumn", "--now", "2026-11-21", "--remind", "9223372036854775807h", "--out", "-"],
      ["schedule", "--plan", "autumn", "--now", "2026-11-21", "--skip", "0001-01-01"],
      ["replan", "--pause", "2026-11-30..9999-01-01", "--now", "2026-11-25", "--apply"],
      ["profile", "set", "--profile", "sam", "--height", "1e309"],
      ["profile", "set", "--profile", "sam", "--remind", "8d"],
      ["profile", "init", "kim", "--weight", "nan"],
      ["progress", "--now", "0001-01-01"],
    ]
    for arguments in commands {
      let result = try runmate(arguments, environment: fixture.environment)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix("runmate: ") && result.stderr.split(separator: "\n").count == 1)
      #expect(try fixture.content() == bytes, "\(arguments) changed the database")
    }
    #expect(try fixture.snapshot() == before)
    #expect(try fixture.files() == files)
  }

  /// A run stored with an absurd distance or time (by hand, or by an older version): every command that shows runs
  /// prints it without trapping.
  @Test(
    .enabled(if: TerminalTextTests.sqlite3 != nil, "needs the sqlite3 shell to plant hostile values"),
    arguments: ["distanceKm = 1e21", "distanceKm = 1e308, durationSeconds = 1e-300", "durationSeconds = 1e300"])
  func storedHugeRunsNeverTrap(_ assignment: String) throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TerminalTextTests.sqlite3 ?? "/usr/bin/sqlite3")
    process.arguments = [fixture.database.path, "UPDATE completion SET \(assignment);"]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let page = fixture.directory.appendingPathComponent("report.html").path
    let commands = [
      ["log", "list"], ["progress", "--now", "2026-11-25"],
      ["progress", "--now", "2026-11-25", "--units", "mi"], ["week", "--now", "2026-11-25"],
      ["today", "--now", "2026-11-24"], ["report", "--html", page, "--now", "2026-11-25"],
    ]
    for command in commands {
      let result = try runmate(command, environment: fixture.environment)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"))
    }
    // JSON has no infinity: a value that overflows is named in one line (exit 65) instead.
    let json = try runmate(["progress", "--now", "2026-11-25", "--format", "json"], environment: fixture.environment)
    #expect(
      json.status == 0
        || json.stderr == "runmate: --format json: weeks[0].done_km is inf, allowed is a finite "
          + "number; the database holds a value out of range\n",
      "\(json.stderr)")
    #expect(json.status == 0 || json.status == 65)
  }
}
