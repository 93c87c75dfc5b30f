import Foundation
import RunningCore

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

/// A workout an import left out, and why: told in the import's summary, never dropped without a word.
public struct SkippedWorkout: Sendable, Hashable {
  /// The activity type as written, without its `HKWorkoutActivityType` prefix (`Running`).
  public var activityType: String
  /// The start as written (`2026-05-01 08:00:00 +0200`), or empty when the workout has none.
  public var start: String
  /// Why it was left out, in words (`its endDate 2026-05-01 07:00:00 +0200 is before its startDate`).
  public var reason: String

  /// Creates the record of a skipped workout.
  public init(activityType: String, start: String, reason: String) {
    self.activityType = activityType
    self.start = start
    self.reason = reason
  }
}

/// What an import found: daily totals, body measures and workouts.
public struct HealthImport: Sendable, Hashable {
  /// One entry per local day that has any step, distance or active-energy sample, sorted by date.
  public var days: [HealthDay]
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
  /// Workouts left out, each with its reason (an end before its start, a date that cannot be read), in file order.
  public var skippedWorkouts: [SkippedWorkout] = []

  /// Creates an import result.
  /// - Parameters:
  ///   - days: Daily totals, sorted by date.
  ///   - measures: Body measures, sorted by date.
  ///   - workouts: Workouts, sorted by start.
  ///   - recordCount: Records (or CSV rows) read.
  ///   - bytesRead: Bytes parsed.
  ///   - skippedRecords: Records left out for an unreadable date, value or unit.
  public init(
    days: [HealthDay], measures: [BodyMeasure], workouts: [HealthWorkout], recordCount: Int, bytesRead: Int64,
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
