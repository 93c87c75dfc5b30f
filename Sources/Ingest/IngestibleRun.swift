import Foundation
import PlanEngine
import RunningCore

/// What the ingest rules need to know about a run, whatever stores it (the logbook's `Completion` conforms).
public protocol IngestibleRun: Sendable {
  /// The local day it was run.
  var date: CivilDate { get }
  /// When it started (device records; nil for a run logged by hand).
  var startedAt: Date? { get }
  /// Distance, km.
  var distanceKm: Double { get }
  /// Elapsed time, seconds.
  var durationSeconds: Double { get }
  /// True for a run typed in by the runner; false for a device record (GPX, TCX, Apple Health).
  var isHandLogged: Bool { get }
  /// The kind the runner gave.
  var kind: WorkoutKind? { get set }
  /// Perceived effort, 1…10.
  var rpe: Int? { get set }
  /// Average heart rate.
  var averageHeartRate: Int? { get set }
  /// The runner's note.
  var note: String? { get set }
  /// The planned workout a stored run fulfils (nil: an extra run, or not stored yet).
  var workoutID: String? { get }
}

/// The thresholds of the ingest rules, in one place (documented in the README, "One run, whatever its source").
public enum IngestRules {
  /// Two device records are one run when they start at most this far apart (seconds)…
  public static let sameStartSeconds = 120.0
  /// …and their distances differ by at most this share of the longer one.
  public static let deviceDistanceShare = 0.03
  /// A hand-logged run and a device record are one run on the same local day when their distances differ by at
  /// most this share of the longer one…
  public static let handDistanceShare = 0.05
  /// …and their durations by at most this share of the longer one.
  public static let handDurationShare = 0.10
  /// A run shorter than this share of the planned distance is ``MatchStatus/partial`` (the compliance bands).
  public static let partialBelow = Compliance.doneFrom
  /// A run on a rest day fulfils a missed workout of the same week at most this many days earlier.
  public static let movedDayLimit = 3
  /// One record kept twice (``areSameRecord(_:_:)``) differs in distance by at most this many metres (a
  /// distance's rounding through JSON kilometres and a unit's conversion)…
  public static let sameRecordMeters = 5.0
  /// …and in duration by at most this many seconds.
  public static let sameRecordSeconds = 1.0
  /// A push compares its runs with the stored runs of their days and this many days either side (a twin is a day
  /// apart at most; a run fulfils a workout of its own week).
  public static let pushWindowDays = 7
}
