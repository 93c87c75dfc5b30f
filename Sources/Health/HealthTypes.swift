import Foundation

/// One local calendar day's activity totals, after overlapping sources have been de-duplicated (see
/// ``importHealth(at:timeZone:progress:)`` for the rule).
public struct DayTotals: Sendable, Hashable, Codable {
  /// The local calendar date, `YYYY-MM-DD`, in the time zone the import was asked for.
  public var date: String
  /// Steps (`HKQuantityTypeIdentifierStepCount`); fractional because samples crossing midnight are split
  /// in proportion to time.
  public var steps: Double
  /// Walking and running distance (`HKQuantityTypeIdentifierDistanceWalkingRunning`), in kilometres.
  public var distanceKm: Double
  /// Active energy (`HKQuantityTypeIdentifierActiveEnergyBurned`), in kilocalories.
  public var activeEnergyKcal: Double

  /// Creates a day's totals.
  /// - Parameters:
  ///   - date: `YYYY-MM-DD`.
  ///   - steps: Steps.
  ///   - distanceKm: Kilometres walked or run.
  ///   - activeEnergyKcal: Active kilocalories.
  public init(date: String, steps: Double, distanceKm: Double, activeEnergyKcal: Double) {
    self.date = date
    self.steps = steps
    self.distanceKm = distanceKm
    self.activeEnergyKcal = activeEnergyKcal
  }
}

/// A body measurement from the export (height, body mass, resting heart rate), in normalised units.
public struct BodyMeasure: Sendable, Hashable, Codable {
  /// What was measured, and so the unit of ``value``.
  public enum Kind: String, Sendable, Codable {
    /// Height in centimetres (`HKQuantityTypeIdentifierHeight`; cm, m, mm, in and ft are converted).
    case heightCm = "height_cm"
    /// Body mass in kilograms (`HKQuantityTypeIdentifierBodyMass`; kg, g, lb, oz and st are converted).
    case bodyMassKg = "body_mass_kg"
    /// Resting heart rate in beats per minute (`HKQuantityTypeIdentifierRestingHeartRate`; count/min,
    /// count/s and count/hr are converted).
    case restingHeartRate = "resting_heart_rate"
  }

  /// What was measured.
  public var kind: Kind
  /// When: the record's `startDate`.
  public var date: Date
  /// The value in the unit ``kind`` names: cm, kg or beats per minute.
  public var value: Double

  /// Creates a measurement.
  /// - Parameters:
  ///   - kind: What was measured.
  ///   - date: When.
  ///   - value: The value, in the unit `kind` names.
  public init(kind: Kind, date: Date, value: Double) {
    self.kind = kind
    self.date = date
    self.value = value
  }
}

/// A workout from the export (`<Workout>`), running or any other activity type.
public struct HealthWorkout: Sendable, Hashable, Codable {
  /// The activity type without HealthKit's `HKWorkoutActivityType` prefix: `Running`, `Walking`,
  /// `TraditionalStrengthTraining`, … (a value without that prefix is kept as written).
  public var activityType: String
  /// The start (`startDate`).
  public var start: Date
  /// The end (`endDate`); `end − start` is the elapsed time, pauses included.
  public var end: Date
  /// The active time in seconds (`duration` with its `durationUnit`, pauses excluded); the elapsed time
  /// when the export gives no duration.
  public var durationSeconds: Double
  /// The distance in kilometres: the `WorkoutStatistics` sum of a `…Distance…` type when there is one,
  /// else the legacy `totalDistance` attribute; nil when the export has neither.
  public var distanceKm: Double?
  /// The active energy in kilocalories: the `WorkoutStatistics` sum of `ActiveEnergyBurned` when there is
  /// one, else the legacy `totalEnergyBurned` attribute; nil when the export has neither.
  public var energyKcal: Double?
  /// The app or device that recorded it (`sourceName`), e.g. `Alex’s Apple Watch` or `Strava`.
  public var sourceName: String

  /// Creates a workout.
  /// - Parameters:
  ///   - activityType: The activity type without the `HKWorkoutActivityType` prefix.
  ///   - start: The start.
  ///   - end: The end.
  ///   - durationSeconds: Active seconds.
  ///   - distanceKm: Kilometres, if known.
  ///   - energyKcal: Active kilocalories, if known.
  ///   - sourceName: The recording app or device.
  public init(
    activityType: String, start: Date, end: Date, durationSeconds: Double, distanceKm: Double?,
    energyKcal: Double?, sourceName: String
  ) {
    self.activityType = activityType
    self.start = start
    self.end = end
    self.durationSeconds = durationSeconds
    self.distanceKm = distanceKm
    self.energyKcal = energyKcal
    self.sourceName = sourceName
  }

  /// Whether this is a run (`HKWorkoutActivityTypeRunning`).
  public var isRunning: Bool { activityType == "Running" }
}

/// What an import found: daily totals, body measures and workouts.
public struct HealthImport: Sendable, Hashable {
  /// One entry per local day that has any step, distance or active-energy sample, sorted by date.
  public var days: [DayTotals]
  /// Height, body mass and resting heart rate readings, sorted by date (exact repeats removed).
  public var measures: [BodyMeasure]
  /// Workouts of every activity type, sorted by start; the same workout written by two sources (the
  /// Watch's run and a copy from Strava) is kept once.
  public var workouts: [HealthWorkout]
  /// Top-level `<Record>` elements read (all types; records inside `<Correlation>` repeat top-level ones
  /// and are not counted), or CSV rows.
  public var recordCount: Int
  /// Bytes of XML or CSV parsed (for a zip, the uncompressed size of the export entry).
  public var bytesRead: Int64
  /// Step, distance, energy and body-measure records left out, as the reference aggregation does, because their
  /// date, value (missing, negative, `NaN`, `1e309`) or unit could not be read.
  public var skippedRecords: Int

  /// Creates an import result.
  /// - Parameters:
  ///   - days: Daily totals, sorted by date.
  ///   - measures: Body measures, sorted by date.
  ///   - workouts: Workouts, sorted by start.
  ///   - recordCount: Records (or CSV rows) read.
  ///   - bytesRead: Bytes parsed.
  ///   - skippedRecords: Records left out for an unreadable date, value or unit.
  public init(
    days: [DayTotals], measures: [BodyMeasure], workouts: [HealthWorkout], recordCount: Int, bytesRead: Int64,
    skippedRecords: Int = 0
  ) {
    self.skippedRecords = skippedRecords
    self.days = days
    self.measures = measures
    self.workouts = workouts
    self.recordCount = recordCount
    self.bytesRead = bytesRead
  }
}
