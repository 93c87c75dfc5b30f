import Foundation

/// Text from outside the program (profile and coach names, bios, notes, plan names, contact handles, file names,
/// error details), made safe to print on a terminal: every control character is shown as a visible escape
/// instead of acting on the terminal.
///
/// Escaped as `\u{…}` (hexadecimal, upper case): C0 controls (U+0000–U+001F, so ESC and every terminal
/// sequence starting with it, CR and TAB too), DEL (U+007F), C1 controls (U+0080–U+009F, CSI and OSC among them)
/// and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what follows them.
/// A line feed is escaped as `\n`, so no value can start a line of its own (a bio cannot fake a `contact:` line),
/// except with `multiline`, for the few places that print several lines of one value on purpose.
func terminalSafe(_ text: String, multiline: Bool = false) -> String {
  guard text.unicodeScalars.contains(where: { needsEscape($0, multiline: multiline) }) else { return text }
  var result = ""
  for scalar in text.unicodeScalars {
    if scalar == "\n" && !multiline {
      result += "\\n"
    } else if needsEscape(scalar, multiline: multiline) {
      result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// True for the scalars ``terminalSafe(_:multiline:)`` escapes.
private func needsEscape(_ scalar: Unicode.Scalar, multiline: Bool) -> Bool {
  switch scalar.value {
  case 0x0A: !multiline
  case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
  default: false
  }
}

/// `text` with every word (a run of non-blank characters) longer than `limit` shortened to its start and end with
/// the full length named, so a 100,000-character option value or path cannot flood an error line.
func elidingLongWords(_ text: String, limit: Int = 120) -> String {
  guard text.count > limit else { return text }
  var result = ""
  var word = ""
  func flush() {
    if word.count > limit {
      result += word.prefix(limit / 2) + "…" + word.suffix(limit / 4) + " (\(word.count) characters)"
    } else {
      result += word
    }
    word = ""
  }
  for character in text {
    if character.isWhitespace {
      flush()
      result.append(character)
    } else {
      word.append(character)
    }
  }
  flush()
  return result
}

/// The one progress bar, on standard error, for terminals only: `[#####     ] 40 %`, or with a unit counted
/// `[#####     ] 120/1000 files`. Redrawn only when it moves, from any thread.
final class ProgressBar: @unchecked Sendable {
  private let unit: String?
  private let lock = NSLock()
  private var shown = -1

  /// A bar in percent of what ``update(_:of:)`` is given, or counting `unit` (`files`).
  init(counting unit: String? = nil) { self.unit = unit }

  /// Shows `done` of `total`.
  func update(_ done: Int64, of total: Int64) {
    lock.lock()
    defer { lock.unlock() }
    let permille = total > 0 ? Int(min(1000, max(0, done) * 1000 / total)) : 0
    let step = unit == nil ? permille / 10 : permille / 5
    guard step != shown else { return }
    shown = step
    let filled = permille * 30 / 1000
    let tail = unit.map { "\(done)/\(total) \($0)" } ?? "\(permille / 10) %"
    let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] " + tail
    FileHandle.standardError.write(Data(line.utf8))
  }

  /// ``update(_:of:)`` of `total`, for a reader that reports what it has done.
  func updates(of total: Int64) -> @Sendable (Int64) -> Void { { self.update($0, of: total) } }

  /// Clears the bar's line.
  func finish() { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }

  /// Runs `body` with a bar (counting `unit`) when standard error is a terminal, nil otherwise; the bar is cleared
  /// when `body` ends, however it ends.
  static func showing<T>(counting unit: String?, _ body: (ProgressBar?) throws -> T) rethrows -> T {
    let bar = isatty(STDERR_FILENO) == 1 ? ProgressBar(counting: unit) : nil
    defer { bar?.finish() }
    return try body(bar)
  }
}

/// `text` padded with spaces to `width` characters, on the right (or on the left, `left`); never cut.
func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
  let fill = String(repeating: " ", count: max(0, width - text.count))
  return left ? fill + text : text + fill
}

/// The one table layout of the terminal: each column as wide as its widest cell, two spaces between columns, the
/// last column unpadded, the columns in `rightAligned` (numbers) padded on the left.
struct Columns {
  /// Each column's width.
  let widths: [Int]
  let rightAligned: Set<Int>

  /// The layout of `rows` (the header among them).
  init(_ rows: [[String]], rightAligned: Set<Int> = []) {
    var widths: [Int] = []
    for row in rows {
      for (index, cell) in row.enumerated() {
        if index < widths.count { widths[index] = max(widths[index], cell.count) } else { widths.append(cell.count) }
      }
    }
    self.widths = widths
    self.rightAligned = rightAligned
  }

  /// One row laid out.
  func line(_ cells: [String]) -> String {
    cells.enumerated().map { index, cell in
      index == cells.count - 1 ? cell : pad(cell, widths[index], left: rightAligned.contains(index))
    }.joined(separator: "  ")
  }
}
