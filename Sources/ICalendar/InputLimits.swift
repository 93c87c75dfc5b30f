#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

// What is checked before a text reaches libical, in one pass over its bytes.
//
// libical reads a long physical line in time quadratic in its length (8 MiB on one line: 5 s), its tree costs
// about 250 bytes per component, and it frees a tree (as this module walks one) recursively. So a text is
// refused, naming the line, when it is larger, has longer content lines, more of them, more components or deeper
// nesting than any calendar a runner has; and a long physical line within the limits is folded (RFC 5545 §3.1)
// before libical reads it, which it does in linear time.

/// The largest calendar texts this module reads. A text beyond one of them is refused with
/// ``ICalendarError/Problem/overLimit(_:found:)`` before libical sees it.
public enum ICalendarLimits {
  /// The most bytes of UTF-8 text (64 MiB).
  public static let bytes = 64 << 20
  /// The most bytes in one content line, folded lines joined (1 MiB).
  public static let contentLineBytes = 1 << 20
  /// The most content lines (a year of daily events with alarms is about 10,000).
  public static let contentLines = 1_000_000
  /// The most components (`BEGIN:` lines).
  public static let components = 200_000
  /// The deepest nesting of components (a VALARM in a VEVENT in a VCALENDAR is 3).
  public static let nesting = 10

  /// The longest physical line handed to libical; longer ones are folded first.
  static let physicalLineBytes = 4_096

  /// Refuses a byte count above ``bytes``, e.g. a file's size before it is read.
  /// - Parameter byteCount: The size of the text or file, in bytes.
  /// - Throws: ``ICalendarError/Problem/overLimit(_:found:)`` with ``ICalendarError/Limit/bytes``.
  public static func check(byteCount: Int) throws(ICalendarError) {
    if byteCount > bytes { throw .libical(.overLimit(.bytes, found: byteCount), operation: "icalparser_parse_string") }
  }
}

/// The result of scanning a text against ``ICalendarLimits``.
struct CheckedText {
  /// Whether a physical line is longer than ``ICalendarLimits/physicalLineBytes`` (the text must be folded).
  var needsFolding: Bool
}

/// Checks a text against ``ICalendarLimits`` in one pass (lines found with `memchr`), as libical will read it:
/// a leading BOM skipped, a line ending at LF (a CR before it belongs to the line end), a line starting with a
/// blank joined to the content line before it, empty lines skipped, `BEGIN:` opening and `END:` closing a
/// component (any name, as libical's parser).
/// - Throws: ``ICalendarError/Problem/overLimit(_:found:)`` for the first limit passed, with its line.
func checkLimits(_ text: String) throws(ICalendarError) -> CheckedText {
  try ICalendarLimits.check(byteCount: text.utf8.count)
  let result: Result<CheckedText, ICalendarError>? = text.utf8.withContiguousStorageIfAvailable { bytes in
    Result { () throws(ICalendarError) in try LimitScanner.scan(bytes) }
  }
  if let result { return try result.get() }
  return try Array(text.utf8).withUnsafeBufferPointer { (bytes) throws(ICalendarError) in
    try LimitScanner.scan(bytes)
  }
}

/// The state of one pass of ``checkLimits(_:)``.
private struct LimitScanner {
  /// The current content line: its first physical line, its length so far and its first bytes.
  var lineNumber = 0
  var length = 0
  var head: [UInt8] = []
  var contentLines = 0
  var components = 0
  var depth = 0
  var needsFolding = false

  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(ICalendarError) -> CheckedText {
    var scanner = LimitScanner()
    guard let base = bytes.baseAddress else { return CheckedText(needsFolding: false) }
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var number = 0
    while start < bytes.count {
      let end =
        memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
      number += 1
      var lineEnd = end
      if end < bytes.count && lineEnd > start && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      if lineEnd - start > ICalendarLimits.physicalLineBytes { scanner.needsFolding = true }
      if lineEnd > start {
        let first = bytes[start]
        if (first == UInt8(ascii: " ") || first == UInt8(ascii: "\t")) && scanner.lineNumber > 0 {
          scanner.length += lineEnd - start - 1
          scanner.extendHead(bytes[(start + 1)..<lineEnd])
        } else {
          try scanner.finishLine()
          scanner.lineNumber = number
          scanner.length = lineEnd - start
          scanner.head = []
          scanner.extendHead(bytes[start..<lineEnd])
          scanner.contentLines += 1
          if scanner.contentLines > ICalendarLimits.contentLines {
            throw scanner.over(.contentLines, found: scanner.contentLines)
          }
        }
        if scanner.length > ICalendarLimits.contentLineBytes {
          // The whole content line's length, for the message.
          var total = scanner.length
          var next = end + 1
          while next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") {
            let nextEnd =
              memchr(base + next, Int32(UInt8(ascii: "\n")), bytes.count - next)
              .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            var contentEnd = nextEnd
            if nextEnd < bytes.count && bytes[nextEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            total += contentEnd - next - 1
            next = nextEnd + 1
          }
          throw scanner.over(.contentLineBytes, found: total)
        }
      }
      start = end + 1
    }
    try scanner.finishLine()
    return CheckedText(needsFolding: scanner.needsFolding)
  }

  /// Keeps the first six bytes of the content line (enough for `BEGIN:`).
  mutating func extendHead(_ more: Slice<UnsafeBufferPointer<UInt8>>) {
    guard head.count < 6 else { return }
    head.append(contentsOf: more.prefix(6 - head.count))
  }

  /// Counts the content line just ended when it opens or closes a component.
  mutating func finishLine() throws(ICalendarError) {
    guard lineNumber > 0 else { return }
    let upper = head.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
    if upper.starts(with: Array("BEGIN:".utf8)) {
      components += 1
      depth += 1
      if components > ICalendarLimits.components { throw over(.components, found: components) }
      if depth > ICalendarLimits.nesting { throw over(.nesting, found: depth) }
    } else if upper.starts(with: Array("END:".utf8)) {
      depth = max(0, depth - 1)
    }
  }

  func over(_ limit: ICalendarError.Limit, found: Int) -> ICalendarError {
    .libical(.overLimit(limit, found: found), operation: "icalparser_parse_string", line: lineNumber)
  }
}

/// The text with every physical line longer than ``ICalendarLimits/physicalLineBytes`` folded (CRLF and a space
/// inserted before a UTF-8 character at most that many bytes in), which libical unfolds back to the same content
/// line, NUL-terminated. Other lines and line ends are kept as they are.
func foldedForLibical(_ text: String) -> [UInt8] {
  if let folded = text.utf8.withContiguousStorageIfAvailable({ fold($0) }) { return folded }
  return Array(text.utf8).withUnsafeBufferPointer { fold($0) }
}

private func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
  let limit = ICalendarLimits.physicalLineBytes
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count + bytes.count / limit * 3 + 1)
  guard let base = bytes.baseAddress else { return [0] }
  var start = 0
  while start < bytes.count {
    let end =
      memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
      .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
    var position = start
    while end - position > limit {
      var cut = position + limit
      // Not inside a UTF-8 sequence: back to the byte that starts the character.
      while cut > position + 1 && (bytes[cut] & 0xC0) == 0x80 { cut -= 1 }
      result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<cut]))
      result.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: " ")])
      position = cut
    }
    result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<min(end + 1, bytes.count)]))
    start = end + 1
  }
  result.append(0)
  return result
}
