import Foundation

/// Turns decoded FIT messages into activity summaries, one per session (a multisport file gives one per leg).
///
/// **Sources.** Distance and time always come from one source:
/// - the records, when they carry the device's distance: distance is the last record's `distance` minus the
///   first's, time runs from the first record's timestamp to the last's;
/// - the records' positions (haversine), when records have positions but no distance;
/// - the session's totals (`start_time`, `total_elapsed_time`, `total_distance`, `total_timer_time` as moving time),
///   when the records carry neither (an indoor activity with heart rate only) or there are no records.
///
/// Moving time, heart rate and (when the session gives no `total_ascent`) elevation gain are folded from the records
/// through ``TrackStatistics``, the rules GPX and TCX use. The device's `total_ascent` is preferred: it comes from
/// its barometer with its own filtering.
///
/// **Legs.** The records up to a session message belong to that session (devices write a session at the end of each
/// leg); records after the last session form a leg of their own, named by the `sport` message. When several sessions
/// follow all the records (some multisport files), ``sessionRangesNeeded`` asks for a second pass in which each record
/// goes to the session that started last at or before it (legs follow one another): not to a session whose span
/// (`start_time` to `start_time + total_elapsed_time`) merely holds it, because spans overlap and leave gaps (a Garmin
/// multisport file gives its first, "generic" leg a span reaching 45 minutes into the legs after it, and a second
/// between two legs then held only by that span took the run's 2,245 m as the first leg's last distance). Records
/// before every session's `start_time` go to the earliest-starting session.
struct FITActivityBuilder {
  /// The most sessions one file may hold.
  static let maximumLegs = 1_000
  /// 1989-12-31T00:00:00Z, the FIT epoch, in seconds since 1970.
  static let epoch = 631_065_600.0

  let file: String
  let limits: ActivityLimits
  private var leg = Leg()
  private var summaries: [ActivitySummary] = []
  private var records = 0
  private var sessions = 0
  /// The `sport` message's values.
  private var fileSport: Int?
  private var fileSubSport: Int?
  private var sportName: String?
  /// The sum of the laps' `total_distance` since the last session.
  private var lapDistance: Double?

  /// The spans of the sessions, for the second pass; nil in the first.
  private let sessionRanges: [ClosedRange<Double>]?
  /// The legs of the second pass, one per session.
  private var rangeLegs: [Leg] = []
  /// The spans of the sessions seen, and whether a session closed without records while others had them.
  private var seenRanges: [ClosedRange<Double>] = []
  private var emptySessionAmongRecords = false

  init(file: String, limits: ActivityLimits, sessionRanges: [ClosedRange<Double>]? = nil) {
    self.file = file
    self.limits = limits
    self.sessionRanges = sessionRanges
    leg.statistics.glitchSpeed = limits.glitchRideSpeed
    leg.statistics.sustainedWindow = limits.sustainedWindow
    if let sessionRanges {
      rangeLegs = Array(repeating: leg, count: sessionRanges.count)
    }
  }

  /// The session spans to read the records against in a second pass, when the first found several sessions after
  /// the records they hold.
  var sessionRangesNeeded: [ClosedRange<Double>]? {
    sessionRanges == nil && seenRanges.count > 1 && emptySessionAmongRecords ? seenRanges : nil
  }

  /// One leg's records being folded.
  private struct Leg {
    var statistics = TrackStatistics()
    var firstDistance: Double?
    var lastDistance: Double?
    var positions = 0
    var records = 0
    var firstOffset: Int?
  }

  /// A session's totals.
  private struct Session {
    var start: Double?
    var elapsed: Double?
    var timer: Double?
    var distance: Double?
    var averageHeartRate: Double?
    var maximumHeartRate: Double?
    var ascent: Double?
    var sport: Int?
    var subSport: Int?
  }

  private func error(_ offset: Int, _ detail: String) -> ActivityError {
    .fit(file: file, offset: offset, detail: detail)
  }

  /// Takes one data message of a kind the summary reads.
  @inline(__always)
  mutating func message(
    _ definition: FITDefinition, _ values: FITValues, time: UInt32?, offset: Int
  ) throws(ActivityError) {
    switch definition.global {
    case FITMessage.record: try record(definition, values, time: time, offset: offset)
    case FITMessage.session: try session(definition, values, offset: offset)
    case FITMessage.lap:
      for plan in definition.plans where plan.field == .totalDistance {
        if let centimetres = values.number(plan) { lapDistance = (lapDistance ?? 0) + centimetres / 100 }
      }
    case FITMessage.sport:
      for plan in definition.plans {
        switch plan.field {
        case .sport: fileSport = values.number(plan).map { Int($0) }
        case .subSport: fileSubSport = values.number(plan).map { Int($0) }
        case .sportName: sportName = values.string(plan)
        default: break
        }
      }
      if leg.records == 0,
        FITSport.name(sport: fileSport, subSport: fileSubSport).map(DeclaredSport.init)?.isRun
          == true
      {
        leg.statistics.glitchSpeed = limits.glitchRunSpeed
      }
    case FITMessage.fileID:
      for plan in definition.plans where plan.field == .fileType {
        if let type = values.number(plan).map({ Int($0) }), type != 4 {
          let name = FITSport.fileTypes[type].map { " (\($0))" } ?? ""
          throw error(offset, "not an activity file: file_id type \(type)\(name), an activity is 4")
        }
      }
    default: break
    }
  }

  @inline(__always)
  private mutating func record(
    _ definition: FITDefinition, _ values: FITValues, time: UInt32?, offset: Int
  ) throws(ActivityError) {
    guard let time else { return }
    records += 1
    guard records <= limits.maximumPoints else {
      throw error(offset, "more than \(limits.maximumPoints) records (the most one file may hold)")
    }
    var point = TrackPoint(time: Double(time) + Self.epoch)
    point.line = offset
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var enhancedAltitude: Double?
    for plan in definition.plans {
      switch plan.field {
      case .latitude: latitude = values.number(plan)
      case .longitude: longitude = values.number(plan)
      case .distance: point.cumulativeDistance = values.number(plan).map { $0 / 100 }
      case .heartRate:
        if let rate = values.number(plan), limits.heartRate.contains(rate) { point.heartRate = rate }
      case .altitude: altitude = values.number(plan)
      case .enhancedAltitude: enhancedAltitude = values.number(plan)
      default: break  // speed, enhanced_speed, cadence: decoded on demand, not needed by the summary
      }
    }
    if let raw = enhancedAltitude ?? altitude {
      let meters = raw / 5 - 500
      if limits.elevation.contains(meters) { point.elevation = meters }
    }
    if let latitude, let longitude {
      let degrees = 180 / 2_147_483_648.0
      let lat = latitude * degrees
      let lon = longitude * degrees
      if abs(lat) <= 90, abs(lon) <= 180 {
        point.latitude = lat
        point.longitude = lon
      }
    }
    if let sessionRanges {
      // Second pass: the innermost session whose span holds the record (spans may overlap), else the last one that
      // started before it, else the first.
      let index = Self.session(holding: point.time, in: sessionRanges)
      swap(&leg, &rangeLegs[index])
      defer { swap(&leg, &rangeLegs[index]) }
      fold(point, offset: offset)
    } else {
      fold(point, offset: offset)
    }
  }

  /// The index of the session a record at `time` belongs to (see the type's "Legs"): the session that started
  /// last at or before `time` (on equal starts the shorter span), else the earliest-starting one.
  static func session(holding time: Double, in ranges: [ClosedRange<Double>]) -> Int {
    var best: Int?
    var earliest = 0
    for (index, range) in ranges.enumerated() {
      if range.lowerBound < ranges[earliest].lowerBound { earliest = index }
      guard range.lowerBound <= time else { continue }
      guard let current = best else {
        best = index
        continue
      }
      let start = ranges[current].lowerBound
      if range.lowerBound > start
        || (range.lowerBound == start && range.upperBound - range.lowerBound < ranges[current].upperBound - start)
      {
        best = index
      }
    }
    return best ?? earliest
  }

  private mutating func fold(_ point: TrackPoint, offset: Int) {
    if let distance = point.cumulativeDistance {
      if leg.firstDistance == nil { leg.firstDistance = distance }
      leg.lastDistance = distance
    }
    if point.latitude != nil { leg.positions += 1 }
    if leg.firstOffset == nil { leg.firstOffset = offset }
    leg.records += 1
    leg.statistics.add(point)
  }

  private mutating func session(_ definition: FITDefinition, _ values: FITValues, offset: Int) throws(ActivityError) {
    sessions += 1
    guard sessions <= Self.maximumLegs else {
      throw error(offset, "more than \(Self.maximumLegs) sessions (the most one file may hold)")
    }
    var totals = Session()
    for plan in definition.plans {
      let value = values.number(plan)
      switch plan.field {
      case .startTime: totals.start = value.map { $0 + Self.epoch }
      case .totalElapsedTime: totals.elapsed = value.map { $0 / 1000 }
      case .totalTimerTime: totals.timer = value.map { $0 / 1000 }
      case .totalDistance: totals.distance = value.map { $0 / 100 }
      // A session without a heart-rate sensor may write 0 rather than the invalid value: no heart rate, like the
      // records' readings outside the plausible range.
      case .averageHeartRate: totals.averageHeartRate = value.flatMap { limits.heartRate.contains($0) ? $0 : nil }
      case .maximumHeartRate: totals.maximumHeartRate = value.flatMap { limits.heartRate.contains($0) ? $0 : nil }
      case .totalAscent: totals.ascent = value
      case .sport: totals.sport = value.map { Int($0) }
      case .subSport: totals.subSport = value.map { Int($0) }
      default: break
      }
    }
    if totals.sport == nil {
      totals.sport = fileSport
      totals.subSport = totals.subSport ?? fileSubSport
    }
    if let start = totals.start {
      seenRanges.append(start...(start + max(0, totals.elapsed ?? totals.timer ?? 0)))
    }
    if leg.records == 0, records > 0 { emptySessionAmongRecords = true }
    if let sessionRanges, sessions <= sessionRanges.count {
      swap(&leg, &rangeLegs[sessions - 1])
    }
    try close(totals, offset: offset)
  }

  /// Ends the current leg with `totals` (nil: records after the last session).
  private mutating func close(_ totals: Session?, offset: Int) throws(ActivityError) {
    defer {
      leg = Leg()
      leg.statistics.glitchSpeed = limits.glitchRideSpeed
      leg.statistics.sustainedWindow = limits.sustainedWindow
      lapDistance = nil
    }
    let sport = FITSport.name(
      sport: totals?.sport ?? fileSport, subSport: totals == nil ? fileSubSport : totals?.subSport)
    let statistics = leg.statistics
    var summary: ActivitySummary
    if statistics.pointCount > 0, leg.firstDistance != nil || leg.positions > 1 || totals?.start == nil {
      // One source: the records (device distance, else haversine), time from their timestamps.
      let distance: Double
      let source: ActivitySummary.DistanceSource
      if let first = leg.firstDistance, let last = leg.lastDistance {
        distance = max(0, last - first)
        source = .device
      } else {
        distance = statistics.haversineDistance
        source = leg.positions > 1 ? .positions : .none
      }
      let elapsed = statistics.latest - statistics.earliest
      summary = ActivitySummary(
        format: .fit, sport: sport, name: sportName, start: Date(timeIntervalSince1970: statistics.earliest),
        end: Date(timeIntervalSince1970: statistics.latest), distanceMeters: distance, elapsedSeconds: elapsed,
        movingSeconds: min(statistics.movingSeconds, elapsed), elevationGainMeters: statistics.elevationGain,
        averageHeartRate: statistics.averageHeartRate, maxHeartRate: statistics.maximumHeartRate,
        pointCount: statistics.pointCount, droppedPoints: statistics.droppedPoints, distanceSource: source,
        bestEfforts: statistics.efforts)
    } else if let totals, let start = totals.start {
      // One source: the session's totals.
      let elapsed = totals.elapsed ?? totals.timer ?? 0
      summary = ActivitySummary(
        format: .fit, sport: sport, name: sportName, start: Date(timeIntervalSince1970: start),
        end: Date(timeIntervalSince1970: start + elapsed), distanceMeters: totals.distance ?? lapDistance ?? 0,
        elapsedSeconds: elapsed, movingSeconds: min(totals.timer ?? elapsed, elapsed),
        elevationGainMeters: statistics.elevationGain, averageHeartRate: statistics.averageHeartRate,
        maxHeartRate: statistics.maximumHeartRate, pointCount: statistics.pointCount,
        droppedPoints: statistics.droppedPoints, distanceSource: .session)
    } else {
      return
    }
    if let totals {
      summary.elevationGainMeters = totals.ascent ?? summary.elevationGainMeters
      summary.averageHeartRate = summary.averageHeartRate ?? totals.averageHeartRate
      summary.maxHeartRate = summary.maxHeartRate ?? totals.maximumHeartRate.map { Int($0) }
    }
    let at = leg.firstOffset ?? offset
    if statistics.isMostlyGlitches {
      let total = statistics.droppedPoints + statistics.pointCount
      throw error(
        statistics.firstDroppedLine ?? at,
        "implausible activity: \(statistics.droppedPoints) of \(total) records are GPS jumps "
          + "(over \(Int(statistics.glitchJump)) m faster than \(Int(statistics.glitchSpeed)) m/s)")
    }
    if let problem = limits.differentDays(statistics) {
      throw error(problem.line, "implausible activity: \(problem.detail)")
    }
    if let detail = limits.implausibility(of: summary) {
      throw error(at, "implausible activity: \(detail)")
    }
    if let problem = limits.tooFastForARun(statistics, sport: summary.sport) {
      throw error(problem.line, "implausible activity: \(problem.detail)")
    }
    summaries.append(summary)
  }

  /// The summaries, in file order, after the last message.
  mutating func finish() throws(ActivityError) -> [ActivitySummary] {
    if leg.records > 0 { try close(nil, offset: leg.firstOffset ?? 0) }
    guard !summaries.isEmpty else { throw .noTimedPoints(file: file) }
    return summaries
  }
}
