internal import CLibical
import RunningCore

// Conversions between the public time values and libical's `icaltimetype`, plus the calendar arithmetic
// the module needs (day numbers from RunningCore's CivilDate).

extension ICalDate {
  /// Days since 1970-01-01.
  var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

  /// The date `dayNumber` days after 1970-01-01.
  init(dayNumber: Int) {
    let fields = CivilDate.fields(ofDayNumber: dayNumber)
    self.init(year: fields.year, month: fields.month, day: fields.day)
  }

  /// The date `days` days later (earlier when negative).
  func adding(days: Int) -> ICalDate { ICalDate(dayNumber: dayNumber + days) }

  /// UTC epoch seconds of 00:00 on this day, UTC.
  var utcMidnight: Int64 { Int64(dayNumber) * 86_400 }

  /// Why the date cannot be written, or nil when it is a real date between years 1 and 9999.
  var invalidReason: String? {
    guard (1...9999).contains(year) else { return "the year must be between 1 and 9999" }
    guard (1...12).contains(month) else { return "the month must be between 1 and 12" }
    guard (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) else { return "there is no such day" }
    return nil
  }

  /// `2027-03-05`.
  var text: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

  /// A DATE value (`is_date` set, time fields 0).
  ///
  /// Not `icaltime_null_date()`: it sets hour, minute and second to -1, and `icalrecur_iterator_new` given
  /// such a date shifts the first instance by a day and ignores INTERVAL.
  /// The corresponding libical function is `icaltime_null_time`.
  var icalValue: icaltimetype {
    var value = icaltime_null_time()
    value.is_date = 1
    value.year = Int32(clamping: year)
    value.month = Int32(clamping: month)
    value.day = Int32(clamping: day)
    return value
  }

  /// The date fields of a libical time.
  init(_ value: icaltimetype) {
    self.init(year: Int(value.year), month: Int(value.month), day: Int(value.day))
  }
}

extension ICalDateTime {
  /// Why the value cannot be written, or nil when every field is in range.
  var invalidReason: String? {
    if let reason = date.invalidReason { return reason }
    guard (0...23).contains(hour) else { return "the hour must be between 0 and 23" }
    guard (0...59).contains(minute) else { return "the minute must be between 0 and 59" }
    guard (0...60).contains(second) else { return "the second must be between 0 and 60" }
    return nil
  }

  /// `2027-03-05 06:30:00`.
  var text: String { "\(date.text) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" }

  /// A DATE-TIME value in `zone` (nil: floating, or a TZID parameter added separately).
  /// The corresponding libical function is `icaltime_null_time`.
  func icalValue(zone: OpaquePointer?) -> icaltimetype {
    var value = icaltime_null_time()
    value.year = Int32(clamping: year)
    value.month = Int32(clamping: month)
    value.day = Int32(clamping: day)
    value.hour = Int32(clamping: hour)
    value.minute = Int32(clamping: minute)
    value.second = Int32(clamping: second)
    value.zone = zone
    return value
  }

  /// The wall-clock fields of a libical time (its zone is ignored).
  init(_ value: icaltimetype) {
    self.init(
      year: Int(value.year), month: Int(value.month), day: Int(value.day), hour: Int(value.hour),
      minute: Int(value.minute), second: Int(value.second))
  }
}

extension EventTime {
  /// `2027-03-05`, `2027-03-05 06:30:00 Europe/Berlin`, `… UTC`, `… (floating)`.
  var text: String {
    switch self {
    case .date(let date): date.text
    case .zoned(let time, let tzid): "\(time.text) \(tzid)"
    case .utc(let time): "\(time.text) UTC"
    case .floating(let time): "\(time.text) (floating)"
    }
  }
}

/// `value` in decimal, zero-padded to `width` digits.
private func pad(_ value: Int, _ width: Int) -> String {
  let digits = String(value)
  return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

// MARK: - Times as written in a parsed file

/// A DATE or DATE-TIME value as a property holds it: the wall-clock fields and how to read them.
struct WrittenTime {
  /// How the fields are to be read.
  enum Form: Equatable {
    case date
    case utc
    case zoned(tzid: String)
    case floating
  }

  /// The fields (`zone` cleared: the form says how to read them).
  var fields: icaltimetype
  /// How to read them.
  var form: Form

  /// Reads a property's time. A TZID parameter wins over the zone libical may have attached.
  /// - Parameters:
  ///   - property: The DTSTART, DTEND, EXDATE, … property.
  ///   - value: Its value, from the matching `icalproperty_get_*` getter.
  init(property: OpaquePointer, value: icaltimetype) {
    var fields = value
    fields.zone = nil
    self.fields = fields
    if value.is_date != 0 {
      form = .date
    } else if let tzid = tzidParameter(of: property) {
      form = .zoned(tzid: tzid)
    } else if icaltime_is_utc(value) != 0 {
      form = .utc
    } else {
      form = .floating
    }
  }

  /// The public value; a libical-prefixed TZID (`/freeassociation.sourceforge.net/Europe/Berlin`) becomes
  /// its IANA name.
  var eventTime: EventTime {
    switch form {
    case .date: .date(ICalDate(fields))
    case .utc: .utc(ICalDateTime(fields))
    case .zoned(let tzid): .zoned(ICalDateTime(fields), tzid: ianaName(forTZID: tzid))
    case .floating: .floating(ICalDateTime(fields))
    }
  }
}
