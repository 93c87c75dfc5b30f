import PlanEngine
import RunningCore
import TrainingProgress

/// Values chosen from a fixed set (`--level`, `--units`, `--kind`, a weekday) and days as people say them, read with
/// the one suggestion helper (``closestName(to:among:within:)``): a typo gets "did you mean …?".
extension SettingValues {
  /// The weekday names a runner may write: `mon` … `sun`, `monday` … `sunday` (and any prefix of three letters or
  /// more, `tues`, `thurs`).
  public static let weekdaysAllowed = "mon, tue, wed, thu, fri, sat, sun"

  /// A weekday for `option` (`--long-run-day`, `--week-start`, one of `--days`).
  /// - Throws: ``SettingError`` with the closest day (`thr` → `thu`).
  public static func weekday(_ text: String, option: FieldName) throws(SettingError) -> Weekday {
    if let day = weekday(text) { return day }
    throw SettingError(
      option: option, value: text, allowed: FieldText(weekdaysAllowed), suggestion: weekdaySuggestion(text))
  }

  /// The short name of the weekday closest to a typo (`thr` → `thu`, `snday` → `sun`), or nil.
  static func weekdaySuggestion(_ text: String) -> String? {
    let spellings = Weekday.allCases.flatMap { day in
      [(day.rawValue, day.rawValue), (SpokenDate.weekdayName(day), day.rawValue)]
    }
    return suggestion(for: text, among: Dictionary(uniqueKeysWithValues: spellings))
  }

  /// `--level`: beginner, intermediate, advanced (or `beg`, `int`, `adv`, `novice`).
  /// - Throws: ``SettingError`` with the closest level (`begginer` → `beginner`).
  public static func level(_ text: String, option: FieldName = .field(.level)) throws(SettingError) -> Level {
    if let level = Level(parsing: text) { return level }
    throw SettingError(
      option: option, value: text, allowed: "beginner, intermediate, advanced",
      suggestion: suggestion(
        for: text,
        among: ["beginner": "beginner", "novice": "beginner", "intermediate": "intermediate", "advanced": "advanced"]))
  }

  /// `--units`: km or mi (also `kilometers`, `kilometres`, `miles`).
  /// - Throws: ``SettingError`` with the closest unit (`kn` → `km`, `mls` → `mi`).
  public static func units(_ text: String, option: FieldName = .field(.units)) throws(SettingError) -> DistanceUnit {
    let spellings = [
      "km": "km", "kms": "km", "kilometer": "km", "kilometers": "km", "kilometre": "km", "kilometres": "km",
      "mi": "mi", "mile": "mi", "miles": "mi",
    ]
    if let name = spellings[text.lowercased()], let unit = DistanceUnit(rawValue: name) { return unit }
    throw SettingError(
      option: option, value: text, allowed: "km, mi", suggestion: suggestion(for: text, among: spellings))
  }

  /// `--kind` of a logged run: easy, long, tempo, …
  /// - Throws: ``SettingError`` with the closest kind (`tmepo` → `tempo`).
  public static func workoutKind(_ text: String, option: FieldName = .field(.kind)) throws(SettingError) -> WorkoutKind
  {
    if let kind = WorkoutKind(rawValue: text.lowercased()) { return kind }
    let names = WorkoutKind.allCases.map(\.rawValue)
    throw SettingError(
      option: option, value: text, allowed: FieldText(names.joined(separator: ", ")),
      suggestion: suggestion(for: text, among: Dictionary(uniqueKeysWithValues: names.map { ($0, $0) })))
  }

  /// The reasons a runner gives for a pause (`missed` is what a replan sees without one).
  public static let breakReasons = [BreakReason.illness, .injury, .travel].map(\.rawValue)

  /// `replan --reason`: ill, injury or travel (also `illness`, `sick`, `injured`, `away`).
  /// - Throws: ``SettingError`` with the closest reason (`injyry` → `injury`).
  public static func breakReason(_ text: String, option: FieldName = .field(.reason)) throws(SettingError)
    -> BreakReason
  {
    let spellings = [
      "ill": "ill", "illness": "ill", "sick": "ill", "injury": "injury", "injured": "injury", "travel": "travel",
      "away": "travel",
    ]
    if let name = spellings[text.lowercased()], let reason = BreakReason(rawValue: name) { return reason }
    throw SettingError(
      option: option, value: text, allowed: FieldText(breakReasons.joined(separator: ", ")),
      suggestion: suggestion(for: text, among: spellings))
  }

  /// A day as people say it (``SpokenDate``) seen from `today`, within `window` (default: ``everyDate``).
  /// - Throws: ``SettingError`` naming `option`, with an example and the words corrected when that names a day.
  public static func spokenDate(
    _ text: String, option: FieldName, today: CivilDate, window: ClosedRange<CivilDate>? = nil
  ) throws(SettingError) -> CivilDate {
    guard let date = SpokenDate.day(text, today: today) else {
      // A date-shaped text that is no day (2027-02-30) is told as before; words get the forms and an example.
      if text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil {
        throw SettingError(option: option, value: text, allowed: "a date YYYY-MM-DD")
      }
      var example = "{name} 'next sunday'"
      if case .given(let name) = option, !name.hasPrefix("-") { example = "'last sunday'" }
      throw SettingError(
        option: option, value: text, allowed: "\(SpokenDate.allowed) (e.g. \(example))",
        suggestion: SpokenDate.suggestion(for: text, today: today))
    }
    return try self.date(date.description, option: option, window: window)
  }

  /// The canonical name of the spelling closest to `text` (case-blind), when it is a likely typo of one.
  /// - Parameter spellings: Each accepted spelling and the canonical name to suggest for it.
  public static func suggestion(for text: String, among spellings: [String: String]) -> String? {
    closestName(to: text.lowercased(), among: spellings.keys.sorted()).flatMap { spellings[$0] }
  }

  /// A distance such as `20mi`, `32km` or `3.1 mi` within `range` (km); a bare number is in `bare`, the runner's
  /// unit. A bound as the message writes it is allowed (5 km is shown as 3.1 mi; 3.1mi is 4.99 km).
  /// - Throws: ``SettingError`` naming `option`, the value as typed and what is allowed, in the runner's unit first.
  public static func distance(
    _ text: String, option: FieldName, range: ClosedRange<Double>, bare: DistanceUnit
  ) throws(SettingError) -> Double {
    let other: DistanceUnit = bare == .km ? .mi : .km
    func bounds(_ unit: DistanceUnit) -> String {
      "\(unit.number(range.lowerBound)) to \(unit.format(range.upperBound))"
    }
    let allowed =
      "\(bounds(bare)) (\(bounds(other))), written like \(bare == .km ? "32km or 20mi" : "20mi or 32km") (a bare "
      + "number is \(bare.rawValue))"
    guard let written = WrittenDistance(text) else {
      throw SettingError(
        option: option, value: text, allowed: FieldText(allowed), suggestion: WrittenDistance.suggestion(for: text))
    }
    let km = written.distance(bare: bare).kilometers
    // Half a tenth of the unit written, then the range.
    let slack = 0.05 * (written.kilometersPerUnit ?? bare.kilometers)
    guard (range.lowerBound - slack...range.upperBound + slack).contains(km) else {
      throw SettingError(option: option, value: text, allowed: FieldText(allowed))
    }
    return min(max(km, range.lowerBound), range.upperBound)
  }
}
