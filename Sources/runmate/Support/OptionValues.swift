import PlanEngine

/// Numbers and dates from the command line, checked where they are read: each bad value is one line naming the
/// option, the value as typed and what is allowed (exit 64). `nan`, `inf` and values past the range never reach
/// the plan engine, the scheduler or the database.
enum OptionValues {
  /// A decimal number in `range`, for example `--current-weekly-km`. `unit` follows the range in messages.
  static func number(_ text: String, option: String, range: ClosedRange<Double>, unit: String) throws -> Double {
    let allowed = "\(oneDecimal(range.lowerBound)) to \(oneDecimal(range.upperBound)) \(unit)"
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
      throw CLIError.invalidOption(option: option, value: text, allowed: allowed, suggestion: nil)
    }
    return value
  }

  /// `YYYY-MM-DD` within `window` (default: years 1900 to 2200).
  static func date(_ text: String, option: String, window: ClosedRange<CivilDate>? = nil) throws -> CivilDate {
    let window = window ?? everyDate
    guard let date = CivilDate(iso: text) else {
      throw CLIError.invalidOption(option: option, value: text, allowed: "a date YYYY-MM-DD", suggestion: nil)
    }
    guard window.contains(date) else {
      throw CLIError.invalidOption(option: option, value: text,
                                   allowed: "a date from \(window.lowerBound) to \(window.upperBound)", suggestion: nil)
    }
    return date
  }

  /// Every date the program accepts: 1900-01-01 (day -25567 of the Unix epoch) to 2200-12-31 (day 84370).
  static let everyDate = CivilDate(dayNumber: -25_567)...CivilDate(dayNumber: 84_370)

  /// The dates a plan may start or race on, seen from `today`: from a year back (a plan already under way)
  /// to five years ahead.
  static func planWindow(today: CivilDate) -> ClosedRange<CivilDate> {
    today.adding(days: -366)...today.adding(days: 5 * 366)
  }
}
