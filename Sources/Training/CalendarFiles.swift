import CalendarExport
import Foundation
import ICalendar
import PlanEngine
import RunningCore
import TrainingDomain

/// Why an .ics file given to read (`--busy`, `--previous`, `--diff`) cannot be used.
public enum CalendarFileError: RunnerFacingError, Sendable, Equatable {
  /// Missing, a folder, or not readable.
  case unreadable(path: String, reason: String)
  /// It does not start with BEGIN:VCALENDAR (its bytes are never quoted).
  case notACalendar(path: String)

  /// `plan.ics: cannot read: no such file`.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .notACalendar(let path): "\(path): not an iCalendar file (it does not start with BEGIN:VCALENDAR)"
    }
  }

  /// A file that is not there or cannot be read is missing input; one that is not a calendar is bad data.
  public var kind: FailureKind {
    switch self {
    case .unreadable: .missingInput
    case .notACalendar: .badData
    }
  }
}

/// Reading .ics files (the CLI writes its outputs itself).
public enum CalendarFiles {
  /// True when `head` (the first bytes of a file) starts an iCalendar file: BEGIN:VCALENDAR after any byte-order mark
  /// and white space.
  public static func isCalendar(_ head: Data) -> Bool {
    let text = String(decoding: head, as: UTF8.self)
    let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
    return start.prefix(15).uppercased() == "BEGIN:VCALENDAR"
  }

  /// The text of an .ics file (`--busy`, `--previous`, `--diff`). A file that does not start with BEGIN:VCALENDAR
  /// is refused without quoting it: it may be anything (a key file, someone's notes) and its bytes stay off the
  /// terminal. A file larger than ``ICalendarLimits/bytes`` is refused before it is read, and at most one byte more
  /// than that is ever read (a device such as /dev/zero has no size).
  public static func readText(_ path: String) throws -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CalendarFileError.unreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
      throw CalendarFileError.unreadable(path: path, reason: "permission denied or not a file")
    }
    defer { try? handle.close() }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let data: Data
    do {
      try ICalendarLimits.check(byteCount: size)
      guard let read = try? handle.read(upToCount: ICalendarLimits.bytes + 1) else {
        throw CalendarFileError.unreadable(path: path, reason: "permission denied or not a file")
      }
      try ICalendarLimits.check(byteCount: read.count)
      data = read
    } catch let error as ICalendarError {
      throw ExportError.unreadableCalendar(file: path, error)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CalendarFileError.unreadable(path: path, reason: "not UTF-8 text")
    }
    guard isCalendar(Data(text.utf8.prefix(4_096))) else { throw CalendarFileError.notACalendar(path: path) }
    return text
  }

  /// A previous export, parsed by libical. Its events must also be writable again (an event no longer in the plan
  /// is exported once more, cancelled), so a value that cannot be written (an unknown time zone) is refused here,
  /// naming the file, rather than when the new calendar is written.
  public static func read(_ path: String) throws -> VCalendar {
    let text = try readText(path)
    do {
      let calendar = try VCalendar.parse(text)
      _ = try calendar.serialized()
      return calendar
    } catch {
      throw ExportError.unreadableCalendar(file: path, error)
    }
  }

  /// The events of the busy calendars at `paths` over `plan`'s span (the day before its start to two days after
  /// the race), read through libical, as busy times in `timeZoneID`.
  public static func busyTimes(in paths: [String], over plan: Plan, timeZoneID: String) throws -> [BusyTime] {
    guard !paths.isEmpty else { return [] }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: timeZoneID) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    let first = plan.goal.start.adding(days: -1)
    let last = plan.goal.raceDate.adding(days: 2)
    guard let from = calendar.date(from: DateComponents(year: first.year, month: first.month, day: first.day)),
      let to = calendar.date(from: DateComponents(year: last.year, month: last.month, day: last.day))
    else { return [] }
    var intervals: [BusyTime] = []
    for path in paths {
      let text = try readText(path)
      intervals += try CalendarExport.busyIntervals(ics: text, file: path, from: from, to: to, timeZoneID: timeZoneID)
    }
    return intervals
  }
}
