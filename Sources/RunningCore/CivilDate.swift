/// A calendar day with no time and no time zone (ISO 8601 `YYYY-MM-DD`, proleptic Gregorian).
///
/// The plan engine lays workouts on days, not instants: time of day and time zones are the scheduler's
/// business. Arithmetic goes through a day number, so it needs no `Calendar` and reads no clock.
public struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The year (1900 to 2200 in what the program accepts).
  public let year: Int
  /// The month, 1 to 12.
  public let month: Int
  /// The day of the month, 1 to 31.
  public let day: Int

  /// Creates a date, or returns nil when the fields are not a real day (2027-02-30).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD`; nil for anything else.
  public init?(iso text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
    else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// The date `dayNumber` days after 1970-01-01 (negative before it).
  public init(dayNumber: Int) {
    (year, month, day) = CivilDate.fields(ofDayNumber: dayNumber)
  }

  /// Days since 1970-01-01.
  public var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

  /// Days from 1970-01-01 to a proleptic Gregorian year, month and day (Howard Hinnant's `days_from_civil`), with
  /// no check of the fields: for callers that validate their own (a timestamp parser, libical's values).
  @inlinable
  public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian year, month and day `dayNumber` days after 1970-01-01 (Howard Hinnant's
  /// `civil_from_days`).
  public static func fields(ofDayNumber dayNumber: Int) -> (year: Int, month: Int, day: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The weekday of this date.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let index = ((dayNumber % 7) + 7 + 3) % 7  // 0 = Monday
    return Weekday.allCases[index]
  }

  /// This date moved by `days` (negative moves back).
  public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

  /// Whole days from `self` to `other` (positive when `other` is later).
  public func days(to other: CivilDate) -> Int { other.dayNumber - dayNumber }

  /// The first `weekday` strictly after this date.
  public func next(_ weekday: Weekday) -> CivilDate {
    let delta = (weekday.index - self.weekday.index + 7) % 7
    return adding(days: delta == 0 ? 7 : delta)
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    func pad(_ n: Int, _ width: Int) -> String {
      let s = String(n)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  /// `Tue 5 Jan`, for tables.
  public var shortLabel: String {
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(weekday.shortName) \(day) \(months[month - 1])"
  }

  /// Earlier first.
  public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

  /// Decodes the value from its documented JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = CivilDate(iso: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a YYYY-MM-DD date")
    }
    self = date
  }

  /// Encodes the value in its documented JSON form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Whether `year` has a 29 February (proleptic Gregorian).
  @inlinable
  public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

  /// The number of days in `month` (1 to 12) of `year`.
  @inlinable
  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable {
  case monday = "mon"
  case tuesday = "tue"
  case wednesday = "wed"
  case thursday = "thu"
  case friday = "fri"
  case
    saturday = "sat"
  case sunday = "sun"

  /// 0 for Monday … 6 for Sunday.
  public var index: Int { Weekday.allCases.firstIndex(of: self) ?? 0 }

  /// `Mon`, `Tue`, …
  public var shortName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
