import Foundation

/// One track point as read from the file: a time (seconds since 1970), and whatever else it carries.
struct TrackPoint {
  /// Seconds since 1970-01-01T00:00:00Z.
  var time: Double
  /// Latitude in degrees, when the point has a position.
  var latitude: Double?
  /// Longitude in degrees, when the point has a position.
  var longitude: Double?
  /// Elevation in metres.
  var elevation: Double?
  /// Heart rate in beats per minute.
  var heartRate: Double?
  /// The device's cumulative distance in metres (TCX `Trackpoint/DistanceMeters`).
  var cumulativeDistance: Double?
  /// The line of the point in the file (for messages).
  var line = 0
}

/// The running totals of one activity, fed one point at a time so memory stays flat however long the
/// track is. The rules mirror the reference `gpx_stats.py` (see ``ActivitySummary``), with segments:
/// no interval is formed across ``startSegment()``.
struct TrackStatistics {
  /// Mean Earth radius (IUGG), metres.
  static let earthRadius = 6_371_008.8
  /// The slowest speed that counts as moving, m/s: 30 min/mile, Strava's running threshold.
  static let minimumMovingSpeed = 0.894
  /// The longest interval, seconds, that counts towards moving time and heart rate; longer ones are pauses.
  static let maximumGap = 30.0
  /// The longest interval, seconds, that counts as moving when it was covered at moving speed (sparse sampling).
  static let longestSampledInterval = 300.0
  /// The climb above the last low, metres, at which ascent is counted.
  static let elevationHysteresis = 3.0

  /// Points added.
  private(set) var pointCount = 0
  /// The earliest time seen (seconds since 1970); +∞ before the first point.
  private(set) var earliest = Double.infinity
  /// The latest time seen (seconds since 1970); −∞ before the first point.
  private(set) var latest = -Double.infinity
  /// Haversine distance within segments, metres.
  private(set) var haversineDistance = 0.0
  /// Moving time, seconds.
  /// Seconds moving: intervals of at most ``maximumGap`` covered at moving speed, plus, on a sparsely sampled track
  /// (most intervals longer than ``maximumGap``), longer ones covered at moving speed (``sparseMovingSeconds``).
  var movingSeconds: Double { denseMovingSeconds + (longIntervals > shortIntervals ? sparseMovingSeconds : 0) }
  private var denseMovingSeconds = 0.0
  /// Intervals longer than ``maximumGap`` (up to ``longestSampledInterval``) covered at moving speed.
  private var sparseMovingSeconds = 0.0
  /// Intervals (with time) of at most ``maximumGap``, and longer: which tells a sparsely sampled track.
  private var shortIntervals = 0
  private var longIntervals = 0
  /// The largest device cumulative distance seen, metres.
  private(set) var maximumCumulativeDistance: Double?
  /// The device cumulative distance of the first and the last point (in file order) that carry one, metres.
  private(set) var firstCumulativeDistance: Double?
  private(set) var lastCumulativeDistance: Double?
  /// Points that carry a device cumulative distance, and points that carry a position.
  private(set) var cumulativePoints = 0
  private(set) var positionedPoints = 0
  /// The time of the last point added (in file order, across segments).
  private(set) var lastTime: Double?
  /// The longest interval between consecutive points (in file order, across segments, either direction), with the
  /// times on both sides and the line of the later point.
  private(set) var longestGap: (seconds: Double, before: Double, after: Double, line: Int)?
  /// The fastest stretch of at least ``sustainedWindow`` seconds (and less than twice that) within a segment: its
  /// speed (device distance between points that both carry it, else haversine), its times and the line of its
  /// first point.
  private(set) var fastestWindow: (speed: Double, start: Double, end: Double, line: Int)?
  /// The shortest stretch, seconds, over which ``fastestWindow`` is measured.
  var sustainedWindow = ActivityLimits.standard.sustainedWindow
  /// The points of the current segment within the last ``sustainedWindow`` (and the one before): time, path
  /// travelled in the segment up to the point, line. `windowHead` is the first one still in use.
  private var window: [(time: Double, path: Double, line: Int)] = []
  private var windowHead = 0
  private var path = 0.0
  /// The fastest 400 m, 1 km, 5 km, 10 km, half and marathon within continuous stretches of the path (see
  /// ``BestEffortFinder``): a stretch ends at a segment break, at points out of time order, and at a pause (an
  /// interval longer than ``maximumGap`` unless it was covered at moving speed within ``longestSampledInterval``, the
  /// moving-time rule).
  private(set) var bestEfforts = BestEffortFinder()
  /// Points dropped as GPS jumps (see ``ActivityLimits``).
  private(set) var droppedPoints = 0
  /// The line of the first point dropped as a GPS jump.
  private(set) var firstDroppedLine: Int?
  /// The line of the first point added.
  private(set) var firstLine: Int?
  /// A jump longer than this, metres, reached faster than ``glitchSpeed`` is a GPS glitch.
  var glitchJump = ActivityLimits.standard.glitchJump
  /// The speed, m/s, above which a jump longer than ``glitchJump`` is a GPS glitch.
  var glitchSpeed = ActivityLimits.standard.glitchRunSpeed

  /// Whether at least half of the points offered were GPS jumps: the positions cannot be trusted.
  var isMostlyGlitches: Bool { droppedPoints > 0 && droppedPoints >= pointCount }

  private var gain = 0.0
  private var low: Double?
  private var heartRateWeightedSum = 0.0
  private var heartRateSeconds = 0.0
  private var heartRateSampleSum = 0.0
  private var heartRateSampleCount = 0
  private var heartRateMaximum: Double?
  private var previous: TrackPoint?

  /// Ascent in metres, or nil when no point had an elevation.
  var elevationGain: Double? { low == nil ? nil : gain }

  /// The time-weighted mean heart rate (the plain mean when no interval qualifies), or nil.
  var averageHeartRate: Double? {
    if heartRateSeconds > 0 { return heartRateWeightedSum / heartRateSeconds }
    return heartRateSampleCount > 0 ? heartRateSampleSum / Double(heartRateSampleCount) : nil
  }

  /// The highest heart-rate sample, rounded, or nil.
  var maximumHeartRate: Int? { heartRateMaximum.map { Int($0.rounded()) } }

  /// Starts a new segment: the next point forms no interval with the one before it.
  mutating func startSegment() {
    previous = nil
    window.removeAll(keepingCapacity: true)
    windowHead = 0
    path = 0
    bestEfforts.breakStretch()
  }

  /// Adds the next point of the current segment, unless it is a GPS jump from the previous one: more than
  /// ``glitchJump`` metres away, reached faster than ``glitchSpeed`` within ``maximumGap`` seconds, or at
  /// the same instant or earlier. A jump is counted in ``droppedPoints`` and otherwise ignored (the next
  /// point is compared with the last one kept).
  mutating func add(_ point: TrackPoint) {
    // The haversine from the previous point, once: for the jump test here and the distance below.
    var geodesic: Double?
    if let before = previous, let lat0 = before.latitude, let lon0 = before.longitude, let lat1 = point.latitude,
      let lon1 = point.longitude
    {
      let meters = Self.haversine(lat0, lon0, lat1, lon1)
      geodesic = meters
      let seconds = point.time - before.time
      if meters > glitchJump, seconds <= 0 || (seconds <= Self.maximumGap && meters / seconds > glitchSpeed) {
        droppedPoints += 1
        if firstDroppedLine == nil { firstDroppedLine = point.line }
        return
      }
    }
    if firstLine == nil { firstLine = point.line }
    pointCount += 1
    earliest = min(earliest, point.time)
    latest = max(latest, point.time)
    if let last = lastTime {
      let gap = abs(point.time - last)
      if gap > longestGap?.seconds ?? 0 { longestGap = (gap, last, point.time, point.line) }
    }
    lastTime = point.time
    if point.latitude != nil, point.longitude != nil { positionedPoints += 1 }
    if let cumulative = point.cumulativeDistance {
      maximumCumulativeDistance = max(maximumCumulativeDistance ?? cumulative, cumulative)
      if firstCumulativeDistance == nil { firstCumulativeDistance = cumulative }
      cumulativePoints += 1
      lastCumulativeDistance = cumulative
    }
    if let heartRate = point.heartRate {
      heartRateSampleSum += heartRate
      heartRateSampleCount += 1
      heartRateMaximum = max(heartRateMaximum ?? heartRate, heartRate)
    }
    if let elevation = point.elevation {
      if let currentLow = low {
        if elevation < currentLow {
          low = elevation
        } else if elevation - currentLow >= Self.elevationHysteresis {
          gain += elevation - currentLow
          low = elevation
        }
      } else {
        low = elevation
      }
    }
    if let before = previous {
      let seconds = point.time - before.time
      if let meters = geodesic { haversineDistance += meters }
      let travelled: Double?
      if let from = before.cumulativeDistance, let to = point.cumulativeDistance {
        travelled = to - from
      } else {
        travelled = geodesic
      }
      let inInterval = seconds > 0 && seconds <= Self.maximumGap
      if seconds > 0 {
        if inInterval { shortIntervals += 1 } else { longIntervals += 1 }
      }
      // Moving by speed, not by gap: on a track sampled every second or few, a longer interval is a pause (or a
      // lost fix); a device sampling every 45 s (an open-water swim, a watch saving battery) moves between its
      // points, so there a longer interval counts when it was covered at moving speed.
      if seconds > 0, seconds <= Self.longestSampledInterval, let meters = travelled,
        meters / seconds >= Self.minimumMovingSpeed
      {
        if inInterval { denseMovingSeconds += seconds } else { sparseMovingSeconds += seconds }
      }
      if inInterval, let heartRate = before.heartRate {
        heartRateWeightedSum += heartRate * seconds
        heartRateSeconds += seconds
      }
      if seconds > 0 {
        path += max(0, travelled ?? 0)
        advanceWindow(point)
        let moving = seconds <= Self.longestSampledInterval && (travelled ?? 0) / seconds >= Self.minimumMovingSpeed
        if seconds > Self.maximumGap && !moving { bestEfforts.breakStretch() }
        bestEfforts.add(time: point.time, path: path)
      } else if seconds < 0 {
        bestEfforts.breakStretch()
        bestEfforts.add(time: point.time, path: path)
      }
    } else {
      window.append((point.time, path, point.line))
      bestEfforts.add(time: point.time, path: path)
    }
    previous = point
  }

  /// Adds `point` (later than the previous one) to the sliding window and measures the stretch ending at it.
  private mutating func advanceWindow(_ point: TrackPoint) {
    if let last = window.last, point.time <= last.time {
      // After points out of time order the window starts again here.
      window.removeAll(keepingCapacity: true)
      windowHead = 0
    }
    window.append((point.time, path, point.line))
    let from = point.time - sustainedWindow
    while window.count - windowHead >= 2, window[windowHead + 1].time <= from { windowHead += 1 }
    if windowHead > 4_096, windowHead * 2 > window.count {
      window.removeFirst(windowHead)
      windowHead = 0
    }
    let start = window[windowHead]
    let seconds = point.time - start.time
    guard seconds >= sustainedWindow, seconds < 2 * sustainedWindow else { return }
    let speed = (path - start.path) / seconds
    if speed > fastestWindow?.speed ?? 0 { fastestWindow = (speed, start.time, point.time, start.line) }
  }

  /// Great-circle distance in metres between two positions in degrees (haversine, ``earthRadius``).
  static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radiansPerDegree = Double.pi / 180
    let phi1 = lat1 * radiansPerDegree
    let phi2 = lat2 * radiansPerDegree
    let dPhi = phi2 - phi1
    let dLambda = (lon2 - lon1) * radiansPerDegree
    let sinHalfPhi = sin(dPhi / 2)
    let sinHalfLambda = sin(dLambda / 2)
    let a = sinHalfPhi * sinHalfPhi + cos(phi1) * cos(phi2) * sinHalfLambda * sinHalfLambda
    return 2 * earthRadius * asin(min(1, a.squareRoot()))
  }
}
