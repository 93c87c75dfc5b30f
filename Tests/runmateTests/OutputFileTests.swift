import Foundation
import RunMateTestSupport
import Testing

/// `export --out` and `report --html` write through one guarded path: never the database or its side files,
/// never over a file runmate did not write (without --force), atomically, keeping the replaced file's mode, and
/// the export is recorded only once the file is in place.
@Suite(.tags(.endToEnd)) struct OutputFileTests {
  static let export = ["export", "--plan", "autumn", "--now", "2026-11-21"]
  static let report = ["report", "--now", "2026-11-25"]

  struct Target: CustomTestStringConvertible, Sendable {
    var name: String
    var command: [String]
    /// The file name relative to the fixture's directory, or a symbolic link to the database when nil.
    var file: String?
    var suffix: String
    var testDescription: String { name }
  }

  static let databaseTargets: [Target] = [
    Target(name: "report over the database", command: report + ["--html"], file: "runmate.sqlite", suffix: ""),
    Target(
      name: "report over the -wal file", command: report + ["--html"], file: "runmate.sqlite-wal",
      suffix: " (its -wal file)"),
    Target(
      name: "report over the -journal file", command: report + ["--html"], file: "runmate.sqlite-journal",
      suffix: " (its -journal file)"),
    Target(name: "report through a symbolic link", command: report + ["--html"], file: nil, suffix: ""),
    Target(
      name: "export over the database, forced", command: export + ["--force", "--out"], file: "./runmate.sqlite",
      suffix: ""),
    Target(
      name: "export over the -shm file", command: export + ["--out"], file: "runmate.sqlite-shm",
      suffix: " (its -shm file)"),
  ]

  @Test(arguments: databaseTargets)
  func theDatabaseIsNeverAnOutput(_ target: Target) throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    let before = try fixture.snapshot()
    var path = fixture.directory.appendingPathComponent(target.file ?? "report.html").path
    if target.file == nil {
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: fixture.database.path)
    } else if target.file?.hasPrefix("./") == true {
      path = target.file ?? path
    }
    let files = try fixture.files()
    let result = try runmate(
      target.command + [path],
      in: target.file?.hasPrefix("./") == true
        ? fixture.directory
        : repositoryRoot, environment: fixture.environment)
    #expect(result.status == 73)
    #expect(
      result.stderr == "runmate: \(path): cannot write: it is the database \(fixture.database.path)"
        + "\(target.suffix); choose another file\n")
    #expect(result.stdout.isEmpty)
    #expect(try fixture.snapshot() == before)
    #expect(try fixture.files() == files)
  }

  @Test func aMissingDirectoryRecordsNoExport() throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    let before = try fixture.snapshot()
    let missing = fixture.directory.appendingPathComponent("no/such/dir/plan.ics").path
    let result = try runmate(Self.export + ["--out", missing], environment: fixture.environment)
    #expect(result.status == 73)
    #expect(
      result.stderr == "runmate: \(missing): cannot write: the directory "
        + "\(fixture.directory.appendingPathComponent("no/such/dir").path) does not exist\n")
    #expect(try fixture.snapshot() == before)
    // Nothing was recorded: the next export has no previous version to compare with.
    let next = try runmate(
      Self.export + ["--out", fixture.directory.appendingPathComponent("plan.ics").path],
      environment: fixture.environment)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(!next.stderr.contains("against"), "\(next.stderr)")
    #expect(next.stderr.hasPrefix("wrote "))
    // That one was: the one after compares with it.
    let again = try runmate(
      Self.export + ["--out", fixture.directory.appendingPathComponent("other.ics").path],
      environment: fixture.environment)
    #expect(again.stderr.hasPrefix("against the last export ("), "\(again.stderr)")
  }

  @Test func aReExportKeepsTheFileMode() throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    let file = fixture.directory.appendingPathComponent("plan.ics")
    #expect(try runmate(Self.export + ["--out", file.path], environment: fixture.environment).status == 0)
    let mask = umask(0o022)
    umask(mask)
    #expect(try mode(of: file) == 0o666 & ~Int(mask))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    let again = try runmate(Self.export + ["--out", file.path], environment: fixture.environment)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.hasPrefix("against \(file.path): "))
    #expect(try mode(of: file) == 0o600)
    #expect(try fixture.files() == ["plan.ics", "runmate.sqlite"])
  }

  @Test func aFileRunmateDidNotWriteIsNotReplacedOrQuoted() throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    let secret = "PRIVATE KEY do not print\nsecond line\n"
    let notes = fixture.directory.appendingPathComponent("notes.txt")
    try secret.write(to: notes, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: notes.path)
    let before = try fixture.snapshot()

    let export = try runmate(Self.export + ["--out", notes.path], environment: fixture.environment)
    #expect(export.status == 73)
    #expect(
      export.stderr == "runmate: \(notes.path): cannot write: the file exists and is not an iCalendar file "
        + "(BEGIN:VCALENDAR) runmate wrote; choose another file, or add --force to replace it\n")
    let report = try runmate(Self.report + ["--html", notes.path], environment: fixture.environment)
    #expect(report.status == 73)
    #expect(
      report.stderr == "runmate: \(notes.path): cannot write: the file exists and is not a RunningMate report "
        + "runmate wrote; choose another file, or add --force to replace it\n")
    // Read as a previous export or a busy calendar, it is refused without a word of it either.
    let previous = try runmate(
      Self.export + ["--previous", notes.path, "--out", "-"], environment: fixture.environment)
    #expect(previous.status == 65)
    #expect(
      previous.stderr == "runmate: \(notes.path): not an iCalendar file (it does not start with "
        + "BEGIN:VCALENDAR)\n")
    let busy = try runmate(
      ["schedule", "--plan", "autumn", "--now", "2026-11-21", "--busy", notes.path],
      environment: fixture.environment)
    #expect(busy.status == 65)
    for result in [export, report, previous, busy] { #expect(!result.stderr.contains("PRIVATE")) }
    #expect(try String(contentsOf: notes, encoding: .utf8) == secret)
    #expect(try fixture.snapshot() == before)
    #expect(try fixture.files() == ["notes.txt", "runmate.sqlite"])

    // --force replaces it, keeping its mode.
    let forced = try runmate(Self.export + ["--out", notes.path, "--force"], environment: fixture.environment)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try String(contentsOf: notes, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR\r\n"))
    #expect(try mode(of: notes) == 0o640)
  }

  @Test func aReportIsPrivateAndReplacesOnlyItself() throws {
    let fixture = try LogbookFixture.make()
    defer { fixture.remove() }
    let page = fixture.directory.appendingPathComponent("report.html")
    let first = try runmate(Self.report + ["--html", page.path], environment: fixture.environment)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr == "wrote \(page.path)\n")
    #expect(try mode(of: page) == 0o600)
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>\n<!-- RunningMate report: "))
    // The report it wrote is replaced without --force; a directory or a trailing slash is refused.
    #expect(try runmate(Self.report + ["--html", page.path], environment: fixture.environment).status == 0)
    let directory = try runmate(Self.report + ["--html", fixture.directory.path], environment: fixture.environment)
    #expect(directory.status == 73)
    #expect(directory.stderr == "runmate: \(fixture.directory.path): cannot write: it is a directory\n")
    #expect(try fixture.files() == ["report.html", "runmate.sqlite"])
  }

  func mode(of file: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }
}
