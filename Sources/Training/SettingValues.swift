import CalendarExport
import Logbook
import PlanEngine
import RunningCore
import Scheduling
import TrainingDomain
import TrainingProgress

/// A setting whose value is not one the program accepts: the field (or the option a front door named) that sets it,
/// the value, what is allowed and, where one exists, a suggestion.
public struct SettingError: FieldError, Sendable, Equatable {
  /// What sets it: a field (`.days`), or the name a front door gave (`--current-weekly`).
  public var option: FieldName
  /// The value as written.
  public var value: String
  /// What is allowed, in words; `{name}` stands for the field's name where an example needs it.
  public var allowed: FieldText
  /// A value that may have been meant, when one is close.
  public var suggestion: String?

  /// Creates the error for `value` of `option`.
  public init(option: FieldName, value: String, allowed: FieldText, suggestion: String? = nil) {
    self.option = option
    self.value = value
    self.allowed = allowed
    self.suggestion = suggestion
  }

  /// Creates the error for `value` of the field `field`.
  public init(field: InputField, value: String, allowed: FieldText, suggestion: String? = nil) {
    self.init(option: .field(field), value: value, allowed: allowed, suggestion: suggestion)
  }

  /// One line naming what is wrong and what is allowed, the field named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    "\(option.named(by: name)): '\(value)' is not valid, allowed is \(allowed.worded(by: name).replacing("{name}", with: option.named(by: name)))"
      + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
  }
}

/// The settings' values as written by the runner (`--at sat=08:00`, `--skip 2027-02-14..2027-02-20`), parsed. A
/// saved plan keeps them as written, so that the runner sees their own words back; they are parsed where used.
public enum SettingValues {
  /// Every date the program accepts: 1900-01-01 (day -25567 of the Unix epoch) to 2200-12-31 (day 84370).
  public static let everyDate = CivilDate(dayNumber: -25_567)...CivilDate(dayNumber: 84_370)

  /// `mon`, `Monday`, `tue`, `thurs`, `weds`, `su`: the day's English name or a beginning of it of two letters or more
  /// (`mondayxyz` or `montag` is no day).
  public static func weekday(_ text: String) -> Weekday? {
    let key = text.lowercased().trimmingCharacters(in: .whitespaces)
    guard key.count >= 2 else { return nil }
    if key == "weds" { return .wednesday }
    return Weekday.allCases.first { day in
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.index].hasPrefix(key)
    }
  }

  /// `tue/thu/sat/sun`, in week order.
  public static func dayList(_ days: [Weekday]) -> String {
    Weekday.allCases.filter(days.contains).map(\.rawValue).joined(separator: "/")
  }

  /// `--days mon,wed,fri`: at least two days, in week order.
  public static func runDays(_ text: String) throws(SettingError) -> [Weekday] {
    var set = Set<Weekday>()
    for part in text.split(separator: ",") { set.insert(try weekday(String(part), option: .field(.days))) }
    guard set.count >= 2 else {
      throw SettingError(option: .field(.days), value: text, allowed: "at least two run days")
    }
    return Weekday.allCases.filter(set.contains)
  }

  /// `--at 06:30 --at sat=08:00`: per-weekday times and the time for the other days.
  public static func times(_ texts: [String]) throws(SettingError)
    -> (perDay: [Weekday: LocalTime], defaultTime: LocalTime?)
  {
    var perDay: [Weekday: LocalTime] = [:]
    var defaultTime: LocalTime?
    for text in texts {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard let time = LocalTime(parsing: parts.last ?? text) else {
        throw SettingError(option: .field(.at), value: text, allowed: "HH:MM (06:30) or DAY=HH:MM (sat=08:00)")
      }
      if parts.count == 2 {
        guard let day = weekday(parts[0]) else {
          throw SettingError(
            option: .field(.at), value: text, allowed: "DAY=HH:MM with DAY one of mon … sun",
            suggestion: weekdaySuggestion(parts[0]).map { "\($0)=\(parts[1])" })
        }
        perDay[day] = time
      } else {
        defaultTime = time
      }
    }
    return (perDay, defaultTime)
  }

  /// A date `YYYY-MM-DD` within `window` (default: ``everyDate``), for `option`.
  public static func date(
    _ text: String, option: FieldName,
    window: ClosedRange<CivilDate>? = nil
  ) throws(SettingError) -> CivilDate {
    let window = window ?? everyDate
    guard let date = CivilDate(iso: text) else {
      throw SettingError(option: option, value: text, allowed: "a date YYYY-MM-DD")
    }
    guard window.contains(date) else {
      throw SettingError(
        option: option, value: text,
        allowed: "a date from \(window.lowerBound) to \(window.upperBound)")
    }
    return date
  }

  /// `--skip 2027-02-14` or `--skip 2027-02-14..2027-02-20`.
  public static func blackouts(_ texts: [String]) throws(SettingError) -> [ClosedRange<CivilDate>] {
    var blackouts: [ClosedRange<CivilDate>] = []
    for text in texts { blackouts.append(try dateRange(text, option: .field(.skip))) }
    return blackouts
  }

  /// A day or a range of days, `2027-02-01` or `2027-02-01..2027-02-07` (`--skip`, `replan --pause`). With `today`,
  /// days as people say them too (``SpokenDate``): `tomorrow`, `monday..friday`, `today..in 2 weeks`; a lone
  /// weekday after `..` is the first such day on or after the range's first day.
  /// - Throws: ``SettingError`` naming `option` for anything else, with the range turned round as the suggestion
  ///   when its first day is after its last.
  public static func dateRange(
    _ text: String, option: FieldName, today: CivilDate? = nil
  ) throws(SettingError) -> ClosedRange<CivilDate> {
    let parts = text.components(separatedBy: "..")
    func day(_ part: String, from origin: CivilDate?) -> CivilDate? {
      guard let origin else { return CivilDate(iso: part) }
      return SpokenDate.day(part, today: origin)
    }
    let first = parts.first.flatMap { day($0, from: today) }
    let last =
      parts.count == 2 ? day(parts[1], from: SpokenDate.isWeekdayName(parts[1]) ? first : today) : first
    guard (1...2).contains(parts.count), let first, let last else {
      let allowed: FieldText = "YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD"
      guard let today else { throw SettingError(option: option, value: text, allowed: allowed) }
      let fixed = parts.map { SpokenDate.suggestion(for: $0, today: today) ?? $0 }.joined(separator: "..")
      throw SettingError(
        option: option, value: text,
        allowed: allowed + ", or days as said (tomorrow, monday..friday, today..in 2 weeks; "
          + "e.g. {name} monday..friday)",
        suggestion: fixed != text && (try? dateRange(fixed, option: option, today: today)) != nil ? fixed : nil)
    }
    _ = try date(first.description, option: option)
    _ = try date(last.description, option: option)
    guard first <= last else {
      throw SettingError(
        option: option, value: text, allowed: "a range whose first day is not after its last",
        suggestion: "\(last)..\(first)")
    }
    return first...last
  }

  /// Saved pauses (``ScheduleSettings/pauses``): `FROM..TO REASON`.
  public static func pauses(_ texts: [String]) throws(SettingError) -> [(
    dates: ClosedRange<CivilDate>, reason: BreakReason
  )] {
    var pauses: [(dates: ClosedRange<CivilDate>, reason: BreakReason)] = []
    for text in texts {
      let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
      let dates = try dateRange(parts.first ?? "", option: "pause")
      pauses.append((dates, parts.count > 1 ? BreakReason(rawValue: parts[1]) ?? .illness : .illness))
    }
    return pauses
  }

  /// A saved pause (``ScheduleSettings/pauses``): `2027-01-25..2027-01-27 ill`.
  public static func pauseText(_ dates: ClosedRange<CivilDate>, reason: BreakReason) -> String {
    "\(dates.lowerBound)..\(dates.upperBound) \(reason.rawValue)"
  }

  /// One day, `2027-01-12` or as said (`today`, `tuesday`, ``SpokenDate``), for `option`.
  public static func day(_ text: String, option: FieldName, today: CivilDate) throws(SettingError) -> CivilDate {
    let range = try dateRange(text, option: option, today: today)
    guard range.lowerBound == range.upperBound else {
      throw SettingError(
        option: option, value: text, allowed: "one day, e.g. 2027-01-12 or tomorrow",
        suggestion: "\(range.lowerBound)")
    }
    return range.lowerBound
  }

  /// A skip's reason as saved with the plan: a word or two (`ill`, `busy`, `work trip`), letters, spaces and hyphens.
  public static func skipReason(_ text: String) throws(SettingError) -> String {
    let words = text.split(separator: " ").joined(separator: " ")
    guard words.count <= 40, words.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" }) else {
      throw SettingError(
        option: .field(.reason), value: text,
        allowed: "a word or two of letters, at most 40 characters (ill, busy, tired)")
    }
    return words
  }

  /// Saved moves (``ScheduleSettings/moves``): `FROM TO`, from the scheduled day to the new one.
  public static func moves(_ texts: [String]) throws(SettingError) -> [CivilDate: CivilDate] {
    var moves: [CivilDate: CivilDate] = [:]
    for text in texts {
      let parts = text.split(separator: " ").map(String.init)
      guard parts.count == 2, let from = CivilDate(iso: parts[0]), let to = CivilDate(iso: parts[1]) else {
        throw SettingError(option: "move", value: text, allowed: "FROM TO, two dates such as 2027-01-12 2027-01-13")
      }
      moves[from] = to
    }
    return moves
  }

  /// Saved skips (``ScheduleSettings/skips``): `DAY REASON`, the reason optional.
  public static func skips(_ texts: [String]) throws(SettingError) -> [CivilDate: String] {
    var skips: [CivilDate: String] = [:]
    for text in texts {
      let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
      guard let first = parts.first, let day = CivilDate(iso: first) else {
        throw SettingError(option: "skip", value: text, allowed: "a date and a reason such as 2027-01-12 ill")
      }
      skips[day] = parts.count > 1 ? parts[1] : ""
    }
    return skips
  }

  /// `--race-start 09:00`.
  public static func raceStart(_ text: String) throws(SettingError) -> LocalTime {
    guard let time = LocalTime(parsing: text) else {
      throw SettingError(option: .field(.raceStart), value: text, allowed: "HH:MM (09:00)")
    }
    return time
  }

  /// Reminders as saved: nil for the default ones, empty for none.
  public static func reminders(_ texts: [String]?) throws(SettingError) -> [Reminder] {
    guard let texts else { return ExportOptions.defaultReminders }
    var reminders: [Reminder] = []
    for text in texts {
      guard let reminder = Reminder(parsing: text) else {
        throw SettingError(
          option: .field(.remind), value: text,
          allowed: "30m, 2h, 1d (before a timed workout), 06:00 or 20:00-1d (a local time)")
      }
      reminders.append(reminder)
    }
    return reminders
  }
}

extension ScheduleSettings {
  /// The scheduler's preferences for these settings; every value is checked, naming its option, and the time zone
  /// as one read back (``checkedTimeZone(_:origin:)``: a zone given now was checked where it was given).
  /// - Throws: ``SettingError``, or ``TimeZoneError`` for a zone no calendar can be written in.
  public func preferences() throws -> SchedulingPreferences {
    try checkedTimeZone(timeZone, origin: .saved)
    let (perDay, defaultTime) = try SettingValues.times(times)
    var start: LocalTime?
    if let raceStart { start = try SettingValues.raceStart(raceStart) }
    var preferences = SchedulingPreferences(
      runDays: runDays.map(Set.init), longRunDay: longRunDay, times: perDay,
      defaultTime: defaultTime, timeZoneID: timeZone,
      blackouts: try SettingValues.blackouts(blackouts), raceStart: start)
    preferences.moves = try SettingValues.moves(moves ?? [])
    preferences.skips = try SettingValues.skips(skips ?? [])
    return preferences
  }

  /// `plan` on dated, timed days with these settings.
  public func schedule(_ plan: Plan) throws -> Schedule {
    try makeSchedule(plan, preferences: try preferences(), busy: busy)
  }
}

extension SettingError {
  /// A setting's value not allowed.
  public var kind: FailureKind { .badInput }
}
