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
/// | an activity's elapsed time | 0 to 7 days |
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
  /// The longest activity, seconds.
  var maximumElapsed = 604_800.0
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
      return "elapsed time \(Self.clock(elapsed)) is longer than 7 days"
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
