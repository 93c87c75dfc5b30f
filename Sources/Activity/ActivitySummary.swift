import Foundation
import RunningCore

/// What one recorded activity (a run, a ride, a walk) comes to: when it happened, how far, how long, how
/// much climbing and the heart rate, computed from a GPX 1.1 track or a TCX `Activity`.
///
/// The figures follow the rules of the project's reference (`gpx_stats.py`, see docs/references.md), except where
/// a property says otherwise:
/// - distance: haversine between consecutive points of a segment (Earth radius 6,371,008.8 m); for TCX the
///   device's own `DistanceMeters` when the file has it, the time always from the same source (``distanceSource``);
/// - moving time: intervals of at most 30 s covered at 0.894 m/s (30 min/mile) or faster; on a sparsely sampled
///   track (most intervals over 30 s) also longer intervals, up to 5 min, covered at that speed;
/// - elevation gain: climbs counted once they reach 3 m above the last low (hysteresis against GPS noise);
/// - heart rate: mean weighted by time.
public struct ActivitySummary: Sendable, Hashable, Codable {
  /// The file format an activity was read from.
  public enum Format: String, Sendable, Codable {
    /// GPX 1.1 (`<gpx>`): one summary per file, all tracks and segments together, except that points more than
    /// 12 hours apart (recorded on different days) start another summary.
    case gpx
    /// Garmin Training Center XML (`<TrainingCenterDatabase>`): one summary per `<Activity>`, including each leg
    /// (`<FirstSport>`, `<NextSport>`) of a `<MultiSportSession>`.
    case tcx
    /// A Garmin FIT activity file: one summary per session.
    case fit
  }

  /// Where ``distanceMeters`` and, with it, the time (``start``, ``end``, ``elapsedSeconds``) came from: always one
  /// source for both, so a distance is never paired with another source's time.
  public enum DistanceSource: String, Sendable, Codable {
    /// The device's cumulative distance on the points (TCX `Trackpoint/DistanceMeters`, FIT `record.distance`): the
    /// last point's minus the first's; time from the same points.
    case device
    /// The laps' totals (TCX `Lap/DistanceMeters` with `TotalTimeSeconds` and `StartTime`): used when the points
    /// carry no device distance and the laps cover the track (or there is no track); time from the laps.
    case laps
    /// The device's session totals (FIT `session.total_distance`, `total_elapsed_time`), for records without
    /// distance or position.
    case session
    /// Haversine between consecutive positions, time from the same points.
    case positions
    /// No distance recorded (times only): the distance is 0.
    case none
  }

  /// The format the summary was read from.
  public var format: Format
  /// Where the distance and time came from (see ``DistanceSource``); nil for a summary stored before this was
  /// recorded.
  public var distanceSource: DistanceSource?
  /// The sport as the file names it: the TCX `Activity Sport` attribute (`Running`, `Biking`, `Other`) or
  /// the GPX `trk/type` (`running`, or an app's own code); nil when the file names none.
  public var sport: String?
  /// A human name: the GPX `trk/name` (else `metadata/name`); for TCX the activity's `Notes`, else its `Id`
  /// unless that is only a timestamp (as devices write it); nil when there is none.
  public var name: String?
  /// The earliest timestamp of the activity (the first one in a well-formed file).
  public var start: Date
  /// The latest timestamp of the activity (the last one in a well-formed file).
  public var end: Date
  /// The distance in metres, from the source named by ``distanceSource``. TCX: the device's figure when the
  /// trackpoints carry it (last `DistanceMeters` minus the first, within the activity), else the laps' sum when
  /// the laps cover the track, else haversine; GPX: haversine over consecutive points within each segment,
  /// segments not joined.
  public var distanceMeters: Double
  /// `end − start`, in seconds, pauses included.
  public var elapsedSeconds: Double
  /// Seconds spent moving: the sum of intervals between consecutive points of a segment that last at most
  /// 30 s and cover at least 0.894 m/s. For TCX the speed uses the device's distances when both points
  /// have one. A TCX activity without trackpoints uses the sum of its laps' `TotalTimeSeconds`. Never more
  /// than ``elapsedSeconds`` (points out of time order cannot add moving time beyond it).
  public var movingSeconds: Double
  /// Total ascent in metres, counting a climb once it is at least 3 m above the last low; nil when no
  /// point has an elevation.
  public var elevationGainMeters: Double?
  /// Mean heart rate in beats per minute, each sample weighted by the time to the next point (intervals
  /// up to 30 s, as the reference does); the plain mean of the samples when no such interval exists; nil
  /// without any sample.
  public var averageHeartRate: Double?
  /// The highest heart-rate sample, rounded to whole beats per minute; nil without any sample.
  public var maxHeartRate: Int?
  /// The number of points used: track points with a time (GPX points whose Apple `hAcc` exceeds 50 m are
  /// dropped, as the reference does).
  public var pointCount: Int
  /// Points dropped as GPS jumps: more than 100 m from the previous point, reached faster than a runner
  /// can (15 m/s; 40 m/s for a ride). They are not in ``pointCount`` and add no distance.
  public var droppedPoints: Int
  /// The fastest 400 m, 1 km, 5 km, 10 km, half and marathon inside the track, shortest first, each of them one
  /// continuous stretch (no segment break, no pause; see ``TrackStatistics``) of the path the summary measures (the
  /// device's distance between points that carry it, else haversine), GPS jumps dropped; nil when the track has no
  /// stretch of 400 m (or the summary was stored before this was recorded).
  public var bestEfforts: [BestEffort]?

  /// Makes a summary from its parts (for callers that store summaries and read them back).
  /// - Parameters:
  ///   - format: The file format.
  ///   - sport: The sport as the file names it.
  ///   - name: A human name.
  ///   - start: The first timestamp.
  ///   - end: The last timestamp.
  ///   - distanceMeters: The distance in metres.
  ///   - elapsedSeconds: `end − start` in seconds.
  ///   - movingSeconds: Seconds spent moving.
  ///   - elevationGainMeters: Total ascent in metres, or nil.
  ///   - averageHeartRate: Mean heart rate, or nil.
  ///   - maxHeartRate: Highest heart rate, or nil.
  ///   - pointCount: The number of points used.
  ///   - droppedPoints: The number of points dropped as GPS jumps.
  ///   - distanceSource: Where the distance and time came from.
  ///   - bestEfforts: The fastest stretches of the standard distances, or nil.
  public init(
    format: Format, sport: String?, name: String?, start: Date, end: Date, distanceMeters: Double,
    elapsedSeconds: Double, movingSeconds: Double, elevationGainMeters: Double?, averageHeartRate: Double?,
    maxHeartRate: Int?, pointCount: Int, droppedPoints: Int = 0, distanceSource: DistanceSource? = nil,
    bestEfforts: [BestEffort]? = nil
  ) {
    self.format = format
    self.distanceSource = distanceSource
    self.sport = sport
    self.name = name
    self.start = start
    self.end = end
    self.distanceMeters = distanceMeters
    self.elapsedSeconds = elapsedSeconds
    self.movingSeconds = movingSeconds
    self.elevationGainMeters = elevationGainMeters
    self.averageHeartRate = averageHeartRate
    self.maxHeartRate = maxHeartRate
    self.pointCount = pointCount
    self.droppedPoints = droppedPoints
    self.bestEfforts = bestEfforts
  }
}
