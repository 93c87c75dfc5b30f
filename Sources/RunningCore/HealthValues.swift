import Foundation

/// One local calendar day's activity totals from a health export, after overlapping sources have been
/// de-duplicated: what Health reads and the logbook stores.
public struct HealthDay: Sendable, Hashable, Codable {
  /// The local day, in the time zone of the import.
  public var date: CivilDate
  /// Steps (`HKQuantityTypeIdentifierStepCount`); fractional because samples crossing midnight are split in
  /// proportion to time.
  public var steps: Double
  /// Walking and running distance (`HKQuantityTypeIdentifierDistanceWalkingRunning`), in kilometres.
  public var distanceKm: Double
  /// Active energy (`HKQuantityTypeIdentifierActiveEnergyBurned`), in kilocalories.
  public var activeEnergyKcal: Double

  /// The JSON keys of `runmate.health/1` (`activeKcal`, as the logbook's column).
  enum CodingKeys: String, CodingKey {
    case date, steps, distanceKm
    case activeEnergyKcal = "activeKcal"
  }

  /// Creates a day's totals.
  /// - Parameters:
  ///   - date: The local day.
  ///   - steps: Steps.
  ///   - distanceKm: Kilometres walked or run.
  ///   - activeEnergyKcal: Active kilocalories.
  public init(date: CivilDate, steps: Double, distanceKm: Double, activeEnergyKcal: Double) {
    self.date = date
    self.steps = steps
    self.distanceKm = distanceKm
    self.activeEnergyKcal = activeEnergyKcal
  }
}

/// What a body measure measures, and so its unit. The raw value is the name stored in the logbook.
public enum MeasureKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// Height in centimetres (`HKQuantityTypeIdentifierHeight`).
  case heightCm = "height_cm"
  /// Body mass in kilograms (`HKQuantityTypeIdentifierBodyMass`).
  case bodyMassKg = "body_mass_kg"
  /// Resting heart rate in beats per minute (`HKQuantityTypeIdentifierRestingHeartRate`).
  case restingHeartRate = "resting_heart_rate"
}

/// A body measurement (height, body mass, resting heart rate) in the unit its kind names.
public struct BodyMeasure: Sendable, Hashable, Codable {
  /// What was measured, and so the unit of ``value``.
  public var kind: MeasureKind
  /// When it was measured.
  public var date: Date
  /// The value in the unit ``kind`` names: cm, kg or beats per minute.
  public var value: Double

  /// Creates a measurement.
  /// - Parameters:
  ///   - kind: What was measured.
  ///   - date: When.
  ///   - value: The value, in the unit `kind` names.
  public init(kind: MeasureKind, date: Date, value: Double) {
    self.kind = kind
    self.date = date
    self.value = value
  }
}
