import Foundation
import ICalendar
import RunMateTestSupport
import Testing

/// The text of a fixture under `Fixtures/` (e.g. `"busy/busy-sample.ics"`), byte for byte.
func fixture(_ path: String) throws -> String {
  try String(contentsOf: fixtureURL(path), encoding: .utf8)
}

/// UTC epoch seconds of a UTC wall-clock time, computed with Foundation (independently of libical and of
/// the module's own date arithmetic).
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
  let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
  return Int64(calendar.date(from: components)?.timeIntervalSince1970 ?? .nan)
}

/// A date.
func day(_ year: Int, _ month: Int, _ day: Int) -> ICalDate {
  ICalDate(year: year, month: month, day: day)
}

/// A wall-clock time.
func time(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> ICalDateTime {
  ICalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
}

/// A timed occurrence, for expectations.
func timed(
  _ uid: String, _ summary: String, _ start: Int64, _ end: Int64, transparent: Bool = false, cancelled: Bool = false
) -> Occurrence {
  Occurrence(
    uid: uid, summary: summary, start: start, end: end, allDay: nil, transparent: transparent, cancelled: cancelled)
}

/// An all-day occurrence, for expectations.
func allDay(_ uid: String, _ summary: String, _ days: ClosedRange<ICalDate>, transparent: Bool = false) -> Occurrence {
  Occurrence(uid: uid, summary: summary, start: 0, end: 0, allDay: days, transparent: transparent, cancelled: false)
}

/// The ICalendarError a throwing expression throws, or nil when it does not throw (another error is
/// recorded as an issue).
func caught<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> ICalendarError? {
  do {
    _ = try body()
    return nil
  } catch let error as ICalendarError {
    return error
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

// MARK: - The acceptance checker

/// `../shared/tools/ics-check/ics-check` next to the repository (this file is
/// `<repo>/Tests/ICalendarTests/Support.swift`).
let icsCheckPath: String = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("shared/tools/ics-check/ics-check").path

/// Whether ics-check and its consumers are installed (`ics-check --install` made its venv).
var icsCheckInstalled: Bool {
  let environment = ProcessInfo.processInfo.environment
  let home =
    environment["ICS_CHECK_HOME"]
    ?? (environment["HOME"].map { "\($0)/.cache/ics-check" } ?? "/root/.cache/ics-check")
  return FileManager.default.isExecutableFile(atPath: icsCheckPath)
    && FileManager.default.fileExists(atPath: "\(home)/venv")
}

/// Whether the tests run under valgrind (scripts/valgrind.sh): valgrind preloads its vgpreload_*.so into
/// the client. Foundation's `Process` cannot spawn there (EBADF on valgrind's reserved descriptors).
var runningUnderValgrind: Bool {
  ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("vgpreload") ?? false
}

/// Runs ics-check on a text (through a temporary file) and returns its exit status and output.
func runICSCheck(on text: String, arguments: [String] = []) throws -> (status: Int32, output: String) {
  let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("icalendar-tests-\(UUID().uuidString).ics")
  try Data(text.utf8).write(to: file)
  defer { try? FileManager.default.removeItem(at: file) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: icsCheckPath)
  process.arguments = arguments + [file.path]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}
