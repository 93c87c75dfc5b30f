import Foundation
import RunningCore
import XMLStream

/// The dates of an export as day numbers (days since 1970-01-01), through RunningCore's civil-date arithmetic.
enum ExportDate {
  /// Days from 1970-01-01 to the date (negative before), or nil when the date does not exist.
  @inline(__always)
  static func days(year: Int, month: Int, day: Int) -> Int? {
    guard month >= 1, month <= 12, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
      return nil
    }
    return CivilDate.dayNumber(year: year, month: month, day: day)
  }

  /// Days since 1970-01-01 of a `YYYY-MM-DD` text, or nil.
  static func days(fromISODate bytes: ByteSpan) -> Int? {
    guard bytes.count == 10, bytes.start[4] == UInt8(ascii: "-"), bytes.start[7] == UInt8(ascii: "-") else {
      return nil
    }
    guard let year = digits(bytes.start, 4), let month = digits(bytes.start + 5, 2),
      let day = digits(bytes.start + 8, 2)
    else { return nil }
    return days(year: year, month: month, day: day)
  }

  /// The value of `count` ASCII digits, or nil when one is not a digit.
  @inline(__always)
  static func digits(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    var value = 0
    for index in 0..<count {
      let digit = pointer[index] &- 48
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
    }
    return value
  }
}

/// The fixed-width timestamps of Apple Health exports, `yyyy-MM-dd HH:mm:ss ±hhmm`
/// (`2023-05-01 08:12:33 +0200`), parsed by position: no formatter, no locale, no allocation.
enum Timestamp {
  /// The largest UTC offset accepted, in seconds (±18:00, as ISO 8601 and Foundation allow).
  static let maximumOffset = 18 * 3600

  /// Seconds since 1970-01-01 UTC, or nil when the text is not such a timestamp (wrong shape, a date that
  /// does not exist, hour > 23, minute > 59, second > 60, offset beyond ±18:00).
  @inline(__always)
  static func parse(_ span: ByteSpan) -> Int64? {
    guard span.count == 25 else { return nil }
    let p = span.start
    guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: " "),
      p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: " ")
    else { return nil }
    let sign = p[20]
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
    guard let year = ExportDate.digits(p, 4), let month = ExportDate.digits(p + 5, 2),
      let day = ExportDate.digits(p + 8, 2), let hour = ExportDate.digits(p + 11, 2),
      let minute = ExportDate.digits(p + 14, 2), let second = ExportDate.digits(p + 17, 2),
      let offsetHours = ExportDate.digits(p + 21, 2), let offsetMinutes = ExportDate.digits(p + 23, 2)
    else { return nil }
    guard hour <= 23, minute <= 59, second <= 60, let days = ExportDate.days(year: year, month: month, day: day)
    else { return nil }
    let offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
    guard abs(offset) <= maximumOffset else { return nil }
    return Int64(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
  }
}

/// Decimal numbers as written in exports (`77.85`, `4520`, `1.2e-3`), parsed without allocating in the
/// common case: up to 19 significant digits with a power of ten up to 22 is exact (one correctly rounded
/// multiplication or division); anything else goes through the standard library's locale-independent parser.
enum DecimalNumber {
  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// The value, or nil when the bytes are not a number (NaN and infinities come back as such for the
  /// caller to refuse).
  static func parse(_ span: ByteSpan) -> Double? {
    let p = span.start
    let end = span.count
    var index = 0
    var negative = false
    if index < end, p[index] == UInt8(ascii: "-") || p[index] == UInt8(ascii: "+") {
      negative = p[index] == UInt8(ascii: "-")
      index += 1
    }
    var mantissa: UInt64 = 0
    var digitCount = 0
    var exponent = 0
    var sawDigit = false
    while index < end, case let digit = p[index] &- 48, digit < 10 {
      sawDigit = true
      if mantissa != 0 || digit != 0 { digitCount += 1 }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      index += 1
    }
    if index < end, p[index] == UInt8(ascii: ".") {
      index += 1
      while index < end, case let digit = p[index] &- 48, digit < 10 {
        sawDigit = true
        if mantissa != 0 || digit != 0 { digitCount += 1 }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        exponent -= 1
        index += 1
      }
    }
    if sawDigit, index < end, p[index] == UInt8(ascii: "e") || p[index] == UInt8(ascii: "E") {
      index += 1
      var exponentNegative = false
      if index < end, p[index] == UInt8(ascii: "-") || p[index] == UInt8(ascii: "+") {
        exponentNegative = p[index] == UInt8(ascii: "-")
        index += 1
      }
      var written = 0
      var sawExponentDigit = false
      while index < end, case let digit = p[index] &- 48, digit < 10 {
        sawExponentDigit = true
        if written < 100_000 { written = written * 10 + Int(digit) }
        index += 1
      }
      guard sawExponentDigit else { return slowParse(span) }
      exponent += exponentNegative ? -written : written
    }
    guard sawDigit, index == end, digitCount <= 19 else { return slowParse(span) }
    let mantissaIsExact = mantissa <= 1 << 53
    let value: Double
    if mantissa == 0 {
      value = 0
    } else if mantissaIsExact, exponent >= 0, exponent <= 22 {
      value = Double(mantissa) * powersOfTen[exponent]
    } else if mantissaIsExact, exponent < 0, exponent >= -22 {
      value = Double(mantissa) / powersOfTen[-exponent]
    } else {
      return slowParse(span)
    }
    return negative ? -value : value
  }

  /// The standard library's parser, on plain decimal notation only (digits, sign, point, exponent, with spaces or
  /// tabs around): a NUL would end the C string it reads (`81\0 23` read as 81), and hexadecimal floats are no
  /// export's numbers.
  private static func slowParse(_ span: ByteSpan) -> Double? {
    guard span.count > 0, span.count < 400 else { return nil }
    let plain = UnsafeBufferPointer(start: span.start, count: span.count).allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: " "), UInt8(ascii: "\t"):
        true
      default:
        false
      }
    }
    guard plain else { return nil }
    return Double(span.string.trimmingCharacters(in: .whitespaces))
  }
}
