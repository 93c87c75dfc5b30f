import PlanEngine
import RunningCore
import Training

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

  /// `--units km|mi` (also kilometres, miles), with the closest unit for a typo (``SettingValues/units(_:option:)``).
  static func unit(_ text: String, option: String) throws -> DistanceUnit {
    try SettingValues.units(text, option: .given(option))
  }

  /// A distance such as `20mi`, `32km` or `3.1 mi` within `range` (km); a bare number is in `bare`, the runner's
  /// unit. A bad value names the option, the value as typed and what is allowed, in the runner's unit first.
  static func distance(
    _ text: String, option: String, range: ClosedRange<Double>, bare: DistanceUnit
  ) throws -> Double {
    try SettingValues.distance(text, option: .given(option), range: range, bare: bare)
  }

  /// `YYYY-MM-DD` within `window` (default: years 1900 to 2200).
  static func date(_ text: String, option: String, window: ClosedRange<CivilDate>? = nil) throws -> CivilDate {
    try SettingValues.date(text, option: .given(option), window: window)
  }

  /// Every date the program accepts (1900-01-01 to 2200-12-31).
  static let everyDate = SettingValues.everyDate

  /// The dates a plan may start or race on, seen from `today`: from a year back (a plan already under way)
  /// to five years ahead.
  static func planWindow(today: CivilDate) -> ClosedRange<CivilDate> { SettingValues.planWindow(today: today) }
}
