import Archive
import RunningCore

/// The physical ranges of what a health file may hold, and the work one zip may cause: the one place these
/// numbers are chosen. A value outside its range is refused where it is parsed, with
/// ``HealthError/outOfRange(file:line:field:value:allowed:)`` naming the line (the CSV row); a day whose
/// de-duplicated total is outside the range is refused with ``HealthError/implausibleDay(file:date:detail:)``.
///
/// | What | Allowed |
/// |---|---|
/// | a date (record, workout, CSV row) | 1900-01-01 to 2200-01-01 |
/// | steps (one record, one day) | 0 to 200,000 |
/// | walking and running distance (one record, one day) | 0 to 1,000 km |
/// | active energy (one record, one day, one workout) | 0 to 20,000 kcal |
/// | height | 50 to 260 cm |
/// | body mass | 20 to 400 kg |
/// | resting heart rate | 20 to 250 bpm |
/// | a workout | at most 7 days and 1,000 km; a run no faster than 1:30 min/km (with 100 m of slack) |
/// | a zip member | at most 16 GiB inflated, and at most 200:1 once more than 16 MiB are inflated |
///
/// Records the reference skips stay skipped (a missing, negative or non-finite value such as `NaN`,
/// `inf` or `1e309`, an unknown unit, an end before the start): they never reach a total.
enum HealthLimits {
  /// The earliest instant accepted, 1900-01-01T00:00:00Z, in seconds since 1970.
  static let earliestTime: Int64 = -2_208_988_800
  /// The latest instant accepted, 2200-01-01T00:00:00Z, in seconds since 1970.
  static let latestTime: Int64 = 7_258_118_400
  /// The accepted dates, in words.
  static let dateRange = "1900-01-01 to 2200-01-01"
  /// Steps in one record or one day.
  static let steps = 0.0...200_000
  /// Kilometres walked or run in one record or one day.
  static let distanceKm = 0.0...1_000
  /// Active kilocalories in one record, one day or one workout.
  static let activeEnergyKcal = 0.0...20_000
  /// The longest workout, seconds (7 days).
  static let maximumWorkoutSeconds = 604_800.0
  /// The fastest run, m/s (1:30 min/km).
  static let maximumRunSpeed = 1000.0 / 90
  /// Distance allowed beyond what the speed permits, metres.
  static let speedSlack = 100.0
  /// The most bytes one zip member may inflate to (16 GiB).
  static let maximumMemberBytes: Int64 = 16 << 30
  /// Inflated bytes after which the compression ratio is checked (16 MiB).
  static let ratioCheckedAfter: Int64 = 16 << 20
  /// The highest compression ratio accepted once ``ratioCheckedAfter`` bytes are inflated; a real export
  /// compresses 10 to 30 times, a bomb about 1,000 times.
  static let maximumRatio: Int64 = 200

  /// The limits of one zip member: 16 GiB, and 200:1 once 16 MiB are inflated.
  static let zipMember = DecompressionLimits(
    maximumBytes: maximumMemberBytes, ratioCheckedAfter: ratioCheckedAfter, maximumRatio: maximumRatio)

  /// The range of a body measure, in its normalised unit, and that unit's name.
  static func range(of kind: MeasureKind) -> (range: ClosedRange<Double>, unit: String) {
    switch kind {
    case .heightCm: (50...260, "cm")
    case .bodyMassKg: (20...400, "kg")
    case .restingHeartRate: (20...250, "bpm")
    }
  }

  /// The range of a summed metric and its unit's name.
  static func range(of metric: Metric) -> (range: ClosedRange<Double>, unit: String) {
    switch metric {
    case .steps: (steps, "steps")
    case .distance: (distanceKm, "km")
    case .activeEnergy: (activeEnergyKcal, "kcal")
    }
  }

  /// Whether `seconds` since 1970 is inside the accepted dates.
  static func accepts(time seconds: Int64) -> Bool { seconds >= earliestTime && seconds <= latestTime }

  /// `range` in words: `0 to 200000 steps`.
  static func words(_ range: ClosedRange<Double>, _ unit: String) -> String {
    "\(plain(range.lowerBound)) to \(plain(range.upperBound)) \(unit)"
  }

  /// A number without a needless `.0`, with at most 3 decimals.
  static func plain(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    if value == value.rounded() { return String(Int(value)) }
    let thousandths = (value * 1000).rounded()
    let text = String(Int(thousandths.magnitude) % 1000)
    let decimals = String(repeating: "0", count: 3 - text.count) + text
    let trimmed = decimals.reversed().drop { $0 == "0" }.reversed()
    return "\(value < 0 ? "-" : "")\(Int(thousandths.magnitude) / 1000).\(String(trimmed))"
  }

  /// `text` as quoted in a message: at most `limit` characters, control characters replaced by `?` (so the
  /// message stays one line).
  static func shown(_ text: String, limit: Int = 40) -> String {
    let cut = text.count > limit ? text.prefix(limit) + "…" : text
    return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
  }
}
