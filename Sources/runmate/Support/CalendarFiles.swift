import CalendarExport
import Foundation
import ICalendar

/// Reading .ics files for the CLI (writing is ``OutputFile``'s).
enum CalendarFiles {
  /// The text of an .ics file (`--busy`, `--previous`, `--diff`). A file that does not start with BEGIN:VCALENDAR
  /// is refused without quoting it: it may be anything (a key file, someone's notes) and its bytes stay off the
  /// terminal.
  static func readText(_ path: String) throws -> String {
    guard FileManager.default.fileExists(atPath: path) else {
      throw CLIError.unreadable(path: path, reason: "no such file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError.unreadable(path: path, reason: "permission denied or not a file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CLIError.unreadable(path: path, reason: "not UTF-8 text")
    }
    guard OutputKind.calendar.recognizes(Data(text.utf8.prefix(4_096))) else { throw CLIError.notACalendar(path: path) }
    return text
  }

  /// A previous export, parsed by libical.
  static func read(_ path: String) throws -> VCalendar {
    let text = try readText(path)
    do {
      return try VCalendar.parse(text)
    } catch {
      throw ExportError.unreadableCalendar(file: path, error)
    }
  }
}
