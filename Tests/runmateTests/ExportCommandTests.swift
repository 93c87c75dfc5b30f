import Foundation
import RunMateTestSupport
import Testing

/// `runmate export` end to end: real files, real libical, and the independent checker when it is installed.
@Suite(.tags(.endToEnd)) struct ExportCommandTests {
  static let base = ["export", "--now", "2026-11-21"]

  /// `../shared/tools/ics-check/ics-check`, when present and installed on this machine.
  static var checker: URL? {
    let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/tools/ics-check/ics-check")
    guard FileManager.default.isExecutableFile(atPath: url.path) else { return nil }
    let environment = ProcessInfo.processInfo.environment
    let cache =
      environment["XDG_CACHE_HOME"]
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
    let home = environment["ICS_CHECK_HOME"] ?? (cache as NSString).appendingPathComponent("ics-check")
    return FileManager.default.fileExists(atPath: home) ? url : nil
  }

  struct Variant: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var testDescription: String { name }
  }

  static let variants: [Variant] = [
    Variant(
      name: "5k beginner, all-day, New York",
      arguments: [
        "--distance", "5k", "--level", "beginner", "--weeks", "8",
        "--tz", "America/New_York",
      ]),
    Variant(
      name: "half, timed, Berlin across DST",
      arguments: [
        "--distance", "half", "--level", "intermediate",
        "--race-date", "2027-04-18", "--at", "06:30",
        "--at", "sat=08:00", "--tz", "Europe/Berlin",
      ]),
    // Evening runs in Tokyo: ics-check's khal and calcurse list the file's local date range in UTC, so an early
    // morning east of UTC on the first day falls outside their listing (a checker limit, noted on the issue).
    Variant(
      name: "marathon, timed, Tokyo",
      arguments: [
        "--distance", "marathon", "--level", "advanced", "--weeks", "18",
        "--at", "18:45", "--tz", "Asia/Tokyo", "--remind", "1h",
      ]),
    Variant(
      name: "10k with a busy calendar, New York",
      arguments: [
        "--distance", "10k", "--level", "intermediate", "--weeks", "10", "--start", "2026-11-30", "--at", "07:00",
        "--tz", "America/New_York", "--busy", "examples/with-busy-calendar/busy.ics", "--days", "mon,tue,thu,sat,sun",
      ]),
  ]

  /// Writes the variant's export into a fresh directory and returns the file.
  static func export(_ variant: Variant, in directory: URL) throws -> URL {
    let file = directory.appendingPathComponent("plan.ics")
    let result = try runmate(Self.base + variant.arguments + ["--out", file.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("wrote \(file.path): "))
    return file
  }

  @Test(arguments: variants)
  func exportsAreCalendars(_ variant: Variant) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = try String(contentsOf: try Self.export(variant, in: directory), encoding: .utf8)
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
    #expect(!text.contains("freeassociation"))
  }

  /// scripts/setup.sh installs the checker whenever ../shared/tools/ics-check is there.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(
        atPath: repositoryRoot.deletingLastPathComponent()
          .appendingPathComponent("shared/tools/ics-check/ics-check").path),
      "../shared/tools/ics-check is not beside the repository"))
  func theCheckerIsInstalledWhenItIsThere() {
    #expect(Self.checker != nil, "ics-check is not installed: run scripts/setup.sh")
  }

  @Test(
    .enabled(if: checker != nil, "ics-check is not installed (../shared/tools/ics-check, scripts/setup.sh)"),
    arguments: variants)
  func exportsPassEveryCalendarConsumer(_ variant: Variant) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Self.export(variant, in: directory)
    let checker = try #require(Self.checker)
    let process = Process()
    process.executableURL = checker
    process.arguments = [file.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(report)")
    #expect(report.contains(" 0 failed"), "\(report)")
  }

  @Test func reExportUpdatesInPlaceAndDiffSaysWhat() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("plan.ics").path
    let goal = [
      "--distance", "10k", "--level", "intermediate", "--weeks", "10", "--start", "2027-01-04", "--at", "06:30",
      "--tz", "Europe/Berlin",
    ]
    #expect(try runmate(Self.base + goal + ["--out", file]).status == 0)
    let first = try String(contentsOfFile: file, encoding: .utf8)
    // The same again, a day later: nothing changes, byte for byte (SEQUENCE and DTSTAMP kept).
    #expect(try runmate(["export", "--now", "2026-11-22"] + goal + ["--out", file]).status == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == first)
    // A blackout moves a few workouts: --diff names them, SEQUENCE goes up for those only, UIDs stay.
    let copy = directory.appendingPathComponent("before.ics").path
    try FileManager.default.copyItem(atPath: file, toPath: copy)
    let changed = try runmate(
      ["export", "--now", "2026-11-23"] + goal + [
        "--skip", "2027-01-12", "--out", file,
        "--diff", copy,
      ])
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(changed.stdout.hasPrefix("moved     W2 "), "\(changed.stdout)")
    #expect(changed.stdout.contains(", 0 cancelled, 0 added, "))
    let second = try String(contentsOfFile: file, encoding: .utf8)
    func uids(_ text: String) -> [String] {
      text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }.sorted()
    }
    #expect(uids(first) == uids(second))
    #expect(second.contains("SEQUENCE:1"))
    #expect(second.components(separatedBy: "SEQUENCE:1").count - 1 < uids(second).count / 4)
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var message: String
    var testDescription: String { message }
  }

  static let bad: [Bad] = [
    Bad(
      arguments: ["--tz", "Europe/Berln"], status: 64,
      message:
        "runmate: --tz: 'Europe/Berln' is not a time zone, allowed is an IANA name such as Europe/Berlin or "
        + "Etc/GMT-2 (note the inverted sign: Etc/GMT-2 is UTC+2) (did you mean 'Europe/Berlin'?)"),
    Bad(
      arguments: ["--remind", "soon"], status: 64,
      message: "runmate: --remind: 'soon' is not valid, allowed is 30m, 2h, 1d (before a timed workout), 06:00 or "
        + "20:00-1d (a local time)"),
    Bad(
      arguments: ["--busy", "examples/nowhere.ics"], status: 66,
      message: "runmate: examples/nowhere.ics: cannot read: no such file"),
    Bad(
      arguments: ["--skip", "2027-02-20..2027-02-14"], status: 64,
      message: "runmate: --skip: '2027-02-20..2027-02-14' is not valid, allowed is a range whose first day is not "
        + "after its last (did you mean '2027-02-14..2027-02-20'?)"),
  ]

  @Test(arguments: bad)
  func badInputWritesNothing(_ bad: Bad) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("plan.ics")
    let result = try runmate(
      Self.base + ["--distance", "10k", "--level", "beginner", "--weeks", "8"] + bad.arguments
        + ["--out", file.path])
    #expect(result.status == bad.status)
    #expect(result.stderr == bad.message + "\n")
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test func malformedBusyCalendarIsNamedAndTheOldExportIsKept() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let busy = directory.appendingPathComponent("work.ics")
    try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:2027-03-03T07:00:00\r\n"
      .write(to: busy, atomically: true, encoding: .utf8)
    let file = directory.appendingPathComponent("plan.ics")
    let previous = "BEGIN:VCALENDAR\r\nX-NOTE:previous export\r\nEND:VCALENDAR\r\n"
    try previous.write(to: file, atomically: true, encoding: .utf8)
    let result = try runmate(
      Self.base + [
        "--distance", "10k", "--level", "beginner", "--weeks", "8", "--busy", busy.path,
        "--out", file.path,
      ])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("runmate: \(busy.path): "), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try String(contentsOf: file, encoding: .utf8) == previous)
  }

  @Test func aBusyCalendarWithNoRoomIsRefused() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Busy every day from 05:00 to 23:00, every day of the plan.
    let busy = directory.appendingPathComponent("busy.ics")
    try [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:all-day-long@test",
      "DTSTAMP:20261101T000000Z", "DTSTART:20261101T050000Z", "DTEND:20261101T230000Z", "RRULE:FREQ=DAILY",
      "SUMMARY:Shifts", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
      .write(to: busy, atomically: true, encoding: .utf8)
    let file = directory.appendingPathComponent("plan.ics")
    let result = try runmate(
      Self.base + [
        "--distance", "10k", "--level", "beginner", "--weeks", "8", "--tz", "UTC",
        "--busy", busy.path, "--out", file.path,
      ])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("runmate: your calendar leaves no room for this plan: "), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }
}
