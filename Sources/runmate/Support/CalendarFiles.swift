import CalendarExport
import Foundation
import ICalendar

/// Reading and writing .ics files for the CLI: whole files, atomic writes.
enum CalendarFiles {
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

  /// Writes to a temporary file next to `path`, then renames it over `path`: a failure leaves the old file whole.
  static func writeAtomically(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
      try Data(text.utf8).write(to: temporary, options: [.withoutOverwriting])
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw CLIError.cannotWrite(path: path, reason: (error as NSError).localizedDescription)
    }
    // rename(2) replaces the target atomically (FileManager.replaceItemAt loses the target on Linux when it fails).
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw CLIError.cannotWrite(path: path, reason: reason)
    }
  }
}
