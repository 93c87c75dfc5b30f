import Foundation

/// The physical ranges every value read from a GPX or TCX file must fall in, and the work one file may
/// cause: the one place these numbers are chosen. A value outside its range is refused where it is parsed,
/// with ``ActivityError/outOfRange(file:line:field:value:allowed:)`` naming the line; a summary outside
/// them is refused with ``ActivityError/implausibleActivity(file:line:detail:)``.
///
/// | What | Allowed |
/// |---|---|
/// | a timestamp (`<time>`, `<Time>`, `Lap StartTime`) | 1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z |
/// | an elevation (`<ele>`, `<AltitudeMeters>`) | −1,000 to 10,000 m |
/// | a heart rate (`<hr>`, `<HeartRateBpm><Value>`) | 20 to 250 bpm (0 means "no reading" and is skipped) |
/// | a TCX `DistanceMeters` (trackpoint or lap) | 0 to 1,000,000 m |
/// | a TCX lap `TotalTimeSeconds` | 0 to 604,800 s (7 days) |
/// | an activity's distance | 0 to 1,000 km (0: no distance recorded) |
/// | an activity's elapsed time | 0 to 24 hours (a 100-mile race; longer is several recordings joined) |
/// | a gap between consecutive points | at most 12 hours: GPX tracks further apart are separate activities, a TCX or
///   FIT activity holding one is refused (recorded on different days) |
/// | a run's speed over any 30 s of track | at most 25 km/h (2:24 min/km), after GPS jumps are dropped |
/// | an activity's average speed | at most 1:30 min/km (11.1 m/s) for a run, 90 km/h for a ride, with 100 m of slack |
/// | an activity's elevation gain | at most 50,000 m (the hardest mountain ultras climb about 25,000 m) |
/// | track points per file | 2,000,000 (a 30-hour ultra at 1 Hz is 108,000) |
///
/// **GPS jumps.** A point that lies more than 100 m from the previous kept point of its segment, reached
/// faster than 15 m/s (a run; 40 m/s for a ride) within 30 s, or at the same instant or earlier, is a GPS
/// glitch: it is dropped (as trackers do) and counted in ``ActivitySummary/droppedPoints``. When at least
/// half of an activity's points are such jumps the file is refused: its positions cannot be trusted.
///
/// Rides are activities whose sport (TCX `Sport`, GPX `trk/type`) names biking, cycling or a ride; every
/// other sport, and none, is held to a runner's limits.
struct ActivityLimits: Sendable {
  /// The earliest timestamp accepted: 1900-01-01T00:00:00Z, in seconds since 1970.
  var earliestTime = -2_208_988_800.0
  /// The latest timestamp accepted: 2200-01-01T00:00:00Z, in seconds since 1970.
  var latestTime = 7_258_118_400.0
  /// Elevations accepted, metres.
  var elevation = -1_000.0...10_000.0
  /// Heart rates accepted, beats per minute (0 is read as "no reading").
  var heartRate = 20.0...250.0
  /// TCX `DistanceMeters` accepted, metres.
  var deviceDistance = 0.0...1_000_000.0
  /// TCX lap `TotalTimeSeconds` accepted.
  var lapSeconds = 0.0...604_800.0
  /// The longest activity, metres.
  var maximumDistance = 1_000_000.0
  /// The longest activity, seconds (24 hours).
  var maximumElapsed = 86_400.0
  /// The longest gap between consecutive points of one activity, seconds (12 hours): points further apart were
  /// recorded on different days.
  var maximumGap = 43_200.0
  /// The window, seconds, over which a run's speed is checked (``maximumSustainedRunSpeed``).
  var sustainedWindow = 30.0
  /// The fastest a run may go over any ``sustainedWindow`` of its track, m/s (25 km/h, 2:24 min/km).
  var maximumSustainedRunSpeed = 25 / 3.6
  /// The most climbing in one activity, metres.
  var maximumElevationGain = 50_000.0
  /// The fastest average speed of a run, m/s (1:30 min/km).
  var maximumRunSpeed = 1000.0 / 90
  /// The fastest average speed of a ride, m/s (90 km/h).
  var maximumRideSpeed = 25.0
  /// Distance allowed beyond what the average speed permits (GPS noise over a short activity), metres.
  var speedSlack = 100.0
  /// A jump between consecutive points at least this long, metres, may be a glitch.
  var glitchJump = 100.0
  /// The speed above which such a jump is a glitch in a run, m/s.
  var glitchRunSpeed = 15.0
  /// The speed above which such a jump is a glitch in a ride, m/s.
  var glitchRideSpeed = 40.0
  /// The most track points one file may hold.
  var maximumPoints = 2_000_000

  /// The limits used by ``readActivities(at:)``.
  static let standard = ActivityLimits()

  /// Whether `time` (seconds since 1970) is inside the accepted dates.
  func accepts(time: Double) -> Bool { time >= earliestTime && time <= latestTime }

  /// Whether a sport, as the file names it, is a ride (held to a ride's speeds).
  static func isRide(_ sport: String?) -> Bool {
    guard let sport = sport?.lowercased() else { return false }
    return sport.contains("bik") || sport.contains("cycl") || sport.contains("ride")
  }

  /// The glitch speed for a sport.
  func glitchSpeed(sport: String?) -> Double { Self.isRide(sport) ? glitchRideSpeed : glitchRunSpeed }

  /// The average-speed ceiling for a sport.
  func maximumSpeed(sport: String?) -> Double { Self.isRide(sport) ? maximumRideSpeed : maximumRunSpeed }

  /// Why `summary` cannot be a real activity, or nil when it can.
  func implausibility(of summary: ActivitySummary) -> String? {
    let distance = summary.distanceMeters
    let elapsed = summary.elapsedSeconds
    guard distance.isFinite, distance >= 0 else { return "distance \(distance) m" }
    guard elapsed.isFinite, elapsed >= 0 else { return "elapsed time \(elapsed) s" }
    if distance > maximumDistance {
      return "distance \(Self.kilometres(distance)) km is more than \(Int(maximumDistance / 1000)) km"
    }
    if elapsed > maximumElapsed {
      return "elapsed time \(Self.clock(elapsed)) is longer than \(Int(maximumElapsed / 3600)) hours"
    }
    if let gain = summary.elevationGainMeters, gain > maximumElevationGain {
      return "elevation gain \(Int(gain.rounded())) m is more than \(Int(maximumElevationGain)) m"
    }
    let ceiling = maximumSpeed(sport: summary.sport)
    if distance > ceiling * elapsed + speedSlack {
      let limit = Self.isRide(summary.sport) ? "\(Int(ceiling * 3.6)) km/h" : "1:30 min/km"
      return "\(Self.kilometres(distance)) km in \(Self.clock(elapsed)) is faster than \(limit)"
    }
    return nil
  }

  /// Why a track's points cannot be one activity (two of them more than ``maximumGap`` apart: recorded on
  /// different days), with the line (byte offset for FIT) of the later point; nil when they can.
  func differentDays(_ statistics: TrackStatistics) -> (detail: String, line: Int)? {
    if let gap = statistics.longestGap, gap.seconds > maximumGap {
      return (
        "points \(Self.clock(gap.seconds)) apart (\(Self.timestamp(gap.before)) to \(Self.timestamp(gap.after))): "
          + "recorded on different days, more than \(Int(maximumGap / 3600)) hours apart",
        gap.line
      )
    }
    return nil
  }

  /// Why a run's track is faster than a runner (over ``maximumSustainedRunSpeed`` for a ``sustainedWindow``), with
  /// the line (byte offset for FIT) where that stretch starts; nil when it is not, or the sport is not a run.
  func tooFastForARun(_ statistics: TrackStatistics, sport: String?) -> (detail: String, line: Int)? {
    if DeclaredSport(sport).isRun, let fastest = statistics.fastestWindow, fastest.speed > maximumSustainedRunSpeed {
      let kmh = Self.kilometres(fastest.speed * 3600)
      let seconds = Int((fastest.end - fastest.start).rounded())
      let limit = maximumSustainedRunSpeed
      return (
        "\(Self.pace(fastest.speed)) min/km (\(kmh) km/h) for \(seconds) s from \(Self.timestamp(fastest.start)) "
          + "is faster than a run (at most \(Self.pace(limit)) min/km, \(Self.kilometres(limit * 3600)) km/h)",
        fastest.line
      )
    }
    return nil
  }

  /// A speed in m/s as a pace, `M:SS` per kilometre, e.g. `2:24`.
  static func pace(_ metersPerSecond: Double) -> String {
    let seconds = 1000 / metersPerSecond
    guard seconds.isFinite, seconds < 1e9 else { return "-" }
    let total = Int(seconds.rounded())
    return "\(total / 60):\(total % 60 < 10 ? "0" : "")\(total % 60)"
  }

  /// Seconds since 1970 as an ISO 8601 UTC time, e.g. `2024-03-01T07:12:05Z`.
  static func timestamp(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds) s" }
    return ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
  }

  /// Metres as kilometres with one decimal, e.g. `20015.1`.
  static func kilometres(_ meters: Double) -> String {
    let tenths = (meters / 100).rounded()
    guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(meters / 1000)" }
    let whole = Int(tenths)
    return "\(whole / 10).\(abs(whole % 10))"
  }

  /// Seconds as `H:MM:SS`.
  static func clock(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return "\(seconds) s" }
    let total = Int(seconds.rounded())
    let minutes = (total / 60) % 60
    let rest = total % 60
    return "\(total / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest)"
  }
}
