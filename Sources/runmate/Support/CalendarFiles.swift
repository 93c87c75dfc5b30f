import CalendarExport
import Foundation
import ICalendar

/// Reading .ics files for the CLI (writing is ``OutputFile``'s).
enum CalendarFiles {
  /// The text of an .ics file (`--busy`, `--previous`, `--diff`). A file that does not start with BEGIN:VCALENDAR
  /// is refused without quoting it: it may be anything (a key file, someone's notes) and its bytes stay off the
  /// terminal. A file larger than ``ICalendarLimits/bytes`` is refused before it is read, and at most one byte more
  /// than that is ever read (a device such as /dev/zero has no size).
  static func readText(_ path: String) throws -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CLIError.unreadable(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
      throw CLIError.unreadable(path: path, reason: "permission denied or not a file")
    }
    defer { try? handle.close() }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let data: Data
    do {
      try ICalendarLimits.check(byteCount: size)
      guard let read = try? handle.read(upToCount: ICalendarLimits.bytes + 1) else {
        throw CLIError.unreadable(path: path, reason: "permission denied or not a file")
      }
      try ICalendarLimits.check(byteCount: read.count)
      data = read
    } catch let error as ICalendarError {
      throw ExportError.unreadableCalendar(file: path, error)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CLIError.unreadable(path: path, reason: "not UTF-8 text")
    }
    guard OutputKind.calendar.recognizes(Data(text.utf8.prefix(4_096))) else { throw CLIError.notACalendar(path: path) }
    return text
  }

  /// A previous export, parsed by libical. Its events must also be writable again (an event no longer in the plan
  /// is exported once more, cancelled), so a value that cannot be written (an unknown time zone) is refused here,
  /// naming the file, rather than when the new calendar is written.
  static func read(_ path: String) throws -> VCalendar {
    let text = try readText(path)
    do {
      let calendar = try VCalendar.parse(text)
      _ = try calendar.serialized()
      return calendar
    } catch {
      throw ExportError.unreadableCalendar(file: path, error)
    }
  }
}
