import RunningCore

/// Parsers for the text values of GPX and TCX elements: ISO 8601 timestamps and decimal numbers. They work
/// on the UTF-8 bytes directly and allocate nothing, because they run once per track point.
enum ValueParsing {
  /// Seconds since 1970-01-01T00:00:00Z of an ISO 8601 / XML Schema date-time, or nil when `text` is not
  /// one (or names an impossible date such as February 30).
  ///
  /// Accepted: `YYYY-MM-DDTHH:MM:SS`, optional fraction (`.5`, `.123456789`, any number of digits), then
  /// `Z`, `±HH:MM`, `±HHMM`, `±HH` or nothing (read as UTC, which GPX prescribes). `t`, `z` and a space
  /// separator are accepted too; surrounding whitespace is ignored. Seconds may be 60 (a leap second
  /// becomes the next second's first instant).
  static func timestamp(_ text: String) -> Double? {
    var copy = text
    return copy.withUTF8 { timestamp(bytes: $0) }
  }

  /// ``timestamp(_:)`` on UTF-8 bytes.
  static func timestamp(bytes raw: UnsafeBufferPointer<UInt8>) -> Double? {
    let bytes = trimmed(raw)
    var index = 0

    func digits(_ count: Int) -> Int? {
      guard index + count <= bytes.count else { return nil }
      var value = 0
      for offset in 0..<count {
        let digit = Int(bytes[index + offset]) - 48
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      index += count
      return value
    }
    func expect(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
      let day = digits(2)
    else { return nil }
    guard index < bytes.count,
      bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t") || bytes[index] == UInt8(ascii: " ")
    else { return nil }
    index += 1
    guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
      let second = digits(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), hour <= 23,
      minute <= 59, second <= 60
    else { return nil }

    var fraction = 0.0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
      index += 1
      var scale = 0.1
      var count = 0
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        if count < 12 { fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale }
        scale /= 10
        count += 1
        index += 1
      }
      guard count > 0 else { return nil }
    }

    var offsetSeconds = 0
    if index < bytes.count {
      let sign = bytes[index]
      if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
        index += 1
      } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        index += 1
        guard let offsetHours = digits(2), offsetHours <= 23 else { return nil }
        var offsetMinutes = 0
        if index < bytes.count {
          _ = expect(UInt8(ascii: ":"))
          guard let minutes = digits(2), minutes <= 59 else { return nil }
          offsetMinutes = minutes
        }
        offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
      } else {
        return nil
      }
    }
    guard index == bytes.count else { return nil }

    let days = CivilDate.dayNumber(year: year, month: month, day: day)
    let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Double(whole) + fraction
  }

  /// A finite decimal number (`12`, `-3.5`, `1e3`), or nil. Surrounding whitespace is ignored; `nan` and
  /// `inf` are refused.
  static func number(_ text: String) -> Double? {
    var copy = text
    return copy.withUTF8 { number(bytes: $0) }
  }

  /// ``number(_:)`` on UTF-8 bytes.
  static func number(bytes raw: UnsafeBufferPointer<UInt8>) -> Double? {
    let bytes = trimmed(raw)
    guard !bytes.isEmpty else { return nil }
    // Only plain decimal notation: refuse `nan`, `inf`, hexadecimal floats.
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "e"), UInt8(ascii: "E"):
        continue
      default:
        return nil
      }
    }
    if let exact = fastDecimal(bytes) { return exact }
    guard let value = Double(Substring(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
    return value
  }

  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// A plain decimal (`-52.349857`: sign, digits, point, digits; at most 15 significant digits and 22 decimals)
  /// without a library call: the digits as an integer and the power of ten are both exact doubles, so one division
  /// rounds correctly, exactly as `strtod` does. Nil for anything else (the caller falls back to `strtod`).
  @inline(__always)
  private static func fastDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    var negative = false
    if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
      negative = bytes[0] == UInt8(ascii: "-")
      index = 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var decimals = 0
    var sawPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      let digit = byte &- UInt8(ascii: "0")
      if digit < 10 {
        if mantissa != 0 || digit != 0 { digits += 1 }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        if sawPoint { decimals += 1 }
      } else if byte == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
      } else {
        return nil
      }
      index += 1
    }
    let digitsBefore = index - (negative || bytes[0] == UInt8(ascii: "+") ? 1 : 0) - (sawPoint ? 1 : 0)
    guard digitsBefore > 0, digits <= 15, decimals <= 22 else { return nil }
    let value = Double(mantissa) / powersOfTen[decimals]
    return negative ? -value : value
  }

  /// A value as quoted in a message: at most 40 characters, control characters replaced by `?`, so the
  /// message stays on one line.
  static func shown(_ value: String) -> String {
    let cut = value.count > 40 ? value.prefix(40) + "…" : value
    return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
  }

  /// `text` without leading and trailing XML whitespace (space, tab, CR, LF); `text` itself when it has
  /// none, which is the common case and costs no copy.
  static func trimmed(_ text: String) -> String {
    let bytes = text.utf8
    guard let first = bytes.first, let last = bytes.last, isWhitespace(first) || isWhitespace(last) else {
      return text
    }
    guard let lower = bytes.firstIndex(where: { !isWhitespace($0) }),
      let upper = bytes.lastIndex(where: { !isWhitespace($0) })
    else { return "" }
    // Whitespace is ASCII, so both ends fall on scalar boundaries.
    return String(decoding: bytes[lower...upper], as: UTF8.self)
  }

  /// `raw` without leading and trailing XML whitespace (space, tab, CR, LF).
  static func trimmed(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var lower = 0
    var upper = raw.count
    while lower < upper, isWhitespace(raw[lower]) { lower += 1 }
    while upper > lower, isWhitespace(raw[upper - 1]) { upper -= 1 }
    return UnsafeBufferPointer(rebasing: raw[lower..<upper])
  }

  /// Whether `byte` is XML whitespace.
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
