import Foundation
import PlanEngine
import RunningCore

/// What the database accepts: values a person can produce, with room for ultras and odd devices. Everything
/// stored goes through these checks first, so that what is read back can be formatted and summed safely.
public enum Plausible {
  /// Days: 1900-01-01 to 2100-12-31.
  public static let days: ClosedRange<CivilDate> = CivilDate(dayNumber: -25_567)...CivilDate(dayNumber: 47_846)
  /// Instants: the same span as ``days`` (UTC).
  public static let instants: ClosedRange<Date> =
    Date(timeIntervalSince1970: -2_208_988_800)...Date(timeIntervalSince1970: 4_133_980_799)
  /// A run's distance, km (above 0).
  public static let runKm: ClosedRange<Double> = 0...1_000
  /// A run's elapsed or moving time, seconds (above 0): up to a week.
  public static let runSeconds: ClosedRange<Double> = 0...604_800
  /// The fastest pace, seconds per km (moving time when known): 0:10/km, 360 km/h. Imports hold rides too (a fast
  /// descent passes 90 km/h); a slow pace is odd (a watch left running) but possible.
  public static let fastestSecondsPerKm = 10.0
  /// The pace of a run logged by hand, seconds per km: 2:00 to 20:00 a kilometre (`log`, and a pushed run).
  public static let handLoggedSecondsPerKm: ClosedRange<Double> = 120...1200
  /// How far a run's start may be from noon (UTC) of its day, seconds: the day's own 24 hours in any zone of the
  /// world (UTC−12 to UTC+14).
  public static let startFromDaySeconds = 26.0 * 3600
  /// Perceived effort.
  public static let rpe: ClosedRange<Int> = 1...10
  /// Average heart rate, beats per minute.
  public static let heartRate: ClosedRange<Int> = 25...250
  /// Elevation gain of one run, metres.
  public static let elevationGainMeters: ClosedRange<Double> = 0...30_000
  /// Steps in one day.
  public static let daySteps: ClosedRange<Double> = 0...500_000
  /// Walking and running distance in one day, km.
  public static let dayKm: ClosedRange<Double> = 0...1_000
  /// Active energy in one day, kcal.
  public static let dayKcal: ClosedRange<Double> = 0...50_000
  /// The possible values of each body measure, in its kind's unit.
  public static func measure(_ kind: MeasureKind) -> ClosedRange<Double> {
    switch kind {
    case .heightCm: 30...300
    case .bodyMassKg: 1...700
    case .restingHeartRate: 20...250
    }
  }
}

/// `1e+21`, `nan`, `5.0`: a value as stored, for messages (never traps).
func valueText(_ value: Double) -> String { "\(value)" }

extension ClosedRange<Double> {
  /// `0 to 1000 km`.
  func text(_ unit: String, aboveLower: Bool = false) -> String {
    let low = lowerBound.rounded() == lowerBound ? "\(Int(lowerBound))" : "\(lowerBound)"
    let high = upperBound.rounded() == upperBound ? "\(Int(upperBound))" : "\(upperBound)"
    return (aboveLower ? "more than \(low) up to \(high)" : "\(low) to \(high)") + (unit.isEmpty ? "" : " \(unit)")
  }
}

extension Completion {
  /// Which run this is, for messages: `run on 2027-01-05 (morning.gpx)`.
  var label: String {
    "run on \(date)" + (sourceFile.map { " (\($0))" } ?? "")
  }

  /// The completion as another device sends it (a pushed run): ``validated()``, and its start on its day in some
  /// time zone (an import dates a run by its start; a start days away from its date is no run's).
  ///
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming the first impossible value.
  public func validatedAsSent() throws(LogbookError) -> Completion {
    if let startedAt {
      let noon = Double(date.dayNumber) * 86_400 + 43_200
      guard abs(startedAt.timeIntervalSince1970 - noon) <= Plausible.startFromDaySeconds else {
        throw .implausible(
          record: label, field: .startTime, value: "\(startedAt)",
          allowed: "an instant of the run's day \(date) in some time zone")
      }
    }
    return try validated()
  }

  /// The completion when every value is possible.
  ///
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming the first impossible value.
  public func validated() throws(LogbookError) -> Completion {
    func fail(_ field: RecordField, _ value: String, _ allowed: String) -> LogbookError {
      .implausible(record: label, field: field, value: value, allowed: allowed)
    }
    guard Plausible.days.contains(date) else { throw fail(.date, date.description, "1900-01-01 to 2100-12-31") }
    if let startedAt, !Plausible.instants.contains(startedAt) {
      throw fail(.startTime, "\(startedAt)", "between 1900 and 2100")
    }
    guard distanceKm > Plausible.runKm.lowerBound, Plausible.runKm.contains(distanceKm) else {
      throw fail(.distance, valueText(distanceKm) + " km", Plausible.runKm.text("km", aboveLower: true))
    }
    guard durationSeconds > 0, Plausible.runSeconds.contains(durationSeconds) else {
      throw fail(.time, valueText(durationSeconds) + " s", Plausible.runSeconds.text("seconds", aboveLower: true))
    }
    if let movingSeconds, !(movingSeconds > 0 && Plausible.runSeconds.contains(movingSeconds)) {
      throw fail(
        .movingTime, valueText(movingSeconds) + " s",
        Plausible.runSeconds.text("seconds", aboveLower: true))
    }
    guard secondsPerKm >= Plausible.fastestSecondsPerKm else {
      throw fail(.pace, Pace(secondsPerKilometer: secondsPerKm).formatted(), "0:10/km or slower")
    }
    if let movingSeconds, movingSeconds > durationSeconds + 1 {
      throw fail(
        .movingTime, valueText(movingSeconds) + " s",
        "at most the elapsed time (\(valueText(durationSeconds)) s): moving time is the part of it spent moving")
    }
    if source == .manual, isRun, !Plausible.handLoggedSecondsPerKm.contains(secondsPerKm) {
      throw fail(
        .pace, Pace(secondsPerKilometer: secondsPerKm).formatted(),
        "\(Pace(secondsPerKilometer: Plausible.handLoggedSecondsPerKm.lowerBound).formatted()) to "
          + "\(Pace(secondsPerKilometer: Plausible.handLoggedSecondsPerKm.upperBound).formatted()) for a run logged by hand"
      )
    }
    if let note, let bad = TextRules.forbiddenInText(note) {
      throw fail(.note, "'\(TextRules.quoted(note))'", TextRules.textAllowed(found: bad))
    }
    if let rpe, !Plausible.rpe.contains(rpe) { throw fail(.rpe, "\(rpe)", "1 to 10") }
    if let averageHeartRate, !Plausible.heartRate.contains(averageHeartRate) {
      throw fail(.averageHeartRate, "\(averageHeartRate) bpm", "25 to 250 bpm")
    }
    if let elevationGainMeters, !Plausible.elevationGainMeters.contains(elevationGainMeters) {
      throw fail(.elevationGain, valueText(elevationGainMeters) + " m", Plausible.elevationGainMeters.text("m"))
    }
    for effort in bestEfforts {
      guard effort.distanceMeters > 0, effort.distanceMeters <= distanceKm * 1000 + 1 else {
        throw fail(
          .bestEffort(name: effort.name), valueText(effort.distanceMeters) + " m",
          "more than 0 up to the run's distance")
      }
      guard effort.seconds > 0, effort.seconds <= durationSeconds + 1,
        effort.seconds / effort.distanceMeters * 1000 >= Plausible.fastestSecondsPerKm
      else {
        throw fail(
          .bestEffort(name: effort.name), valueText(effort.seconds) + " s", "0:10/km or slower, within the run's time")
      }
      guard effort.startOffsetSeconds >= 0, effort.startOffsetSeconds + effort.seconds <= durationSeconds + 1 else {
        throw fail(
          .bestEffortStart(name: effort.name), valueText(effort.startOffsetSeconds) + " s", "within the run's time")
      }
    }
    return self
  }
}

extension HealthDay {
  /// The day when every total is possible.
  ///
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` naming the first impossible total.
  public func validated() throws(LogbookError) -> HealthDay {
    func check(_ field: RecordField, _ value: Double, _ range: ClosedRange<Double>, _ unit: String) throws(LogbookError)
    {
      guard range.contains(value) else {
        throw .implausible(
          record: "health day \(date)", field: field,
          value: valueText(value) + (unit.isEmpty ? "" : " \(unit)"), allowed: range.text(unit))
      }
    }
    guard Plausible.days.contains(date) else {
      throw .implausible(
        record: "health day \(date)", field: .date, value: date.description,
        allowed: "1900-01-01 to 2100-12-31")
    }
    try check(.steps, steps, Plausible.daySteps, "")
    try check(.distance, distanceKm, Plausible.dayKm, "km")
    try check(.activeEnergy, activeEnergyKcal, Plausible.dayKcal, "kcal")
    return self
  }
}

extension BodyMeasure {
  /// The measure when its value and date are possible.
  ///
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)``.
  public func validated() throws(LogbookError) -> BodyMeasure {
    let record = "health measure \(kind.rawValue)"
    guard Plausible.instants.contains(date) else {
      throw .implausible(record: record, field: .date, value: "\(date)", allowed: "between 1900 and 2100")
    }
    let range = Plausible.measure(kind)
    guard range.contains(value) else {
      throw .implausible(
        record: record + " of \(date)", field: .measure(kind), value: valueText(value), allowed: range.text(""))
    }
    return self
  }
}
