import Foundation
import XMLStream

/// Garmin Training Center XML: one summary per `<Activity>` that has timed trackpoints or a lap with a start
/// time, the legs of a `<MultiSportSession>` (`<FirstSport>`, `<NextSport>`) each an activity of its own sport.
/// Distance and time come from one source (see ``TCXActivity/summary()``).
struct TCXHandler: ActivityHandler {
  private var activity: TCXActivity?
  private var summaries: [ActivitySummary] = []
  private var point = PendingPoint()
  private var inPoint = false

  mutating func start(
    _ tag: ActivityTag, parent: ActivityTag?, element: XMLStartTag, document: inout ActivityDocument
  ) throws(ActivityError) {
    let limits = document.limits
    switch tag {
    case .activity where parent == .activities || parent == .firstSport || parent == .nextSport:
      let sport = element.value(of: "Sport").flatMap { nonEmpty(document.string($0)) }
      activity = TCXActivity(sport: sport, line: document.tokenizer.line)
      activity?.statistics.glitchJump = limits.glitchJump
      activity?.statistics.glitchSpeed = limits.glitchSpeed(sport: sport)
      activity?.statistics.sustainedWindow = limits.sustainedWindow
    case .id where parent == .activity:
      document.capture(.activityID, element: element)
    case .notes where parent == .activity:
      document.capture(.activityNotes, element: element)
    case .lap where parent == .activity:
      var lapStart: Double?
      if let attribute = element.value(of: "StartTime") {
        let written = document.string(attribute)
        let line = document.tokenizer.line
        guard let parsed = ValueParsing.timestamp(written) else {
          throw document.invalid("<Lap> StartTime", written, .dateTime, line: line)
        }
        guard limits.accepts(time: parsed) else {
          throw document.outOfRange("<Lap> StartTime", written, ActivityDocument.dateRange, line: line)
        }
        lapStart = parsed
      }
      activity?.beginLap(start: lapStart)
    case .totalTimeSeconds where parent == .lap:
      document.capture(.lapTotalTime, element: element)
    case .distanceMeters where parent == .lap:
      document.capture(.lapDistance, element: element)
    case .track where parent == .lap:
      activity?.beginTrack()
    case .trackpoint where parent == .track:
      let line = document.tokenizer.line
      try document.countPoint(line: line)
      point = PendingPoint(line: line)
      inPoint = true
    case .tcxTime where parent == .trackpoint:
      document.capture(.pointTime, element: element)
    case .altitudeMeters where parent == .trackpoint:
      document.capture(.pointElevation, element: element)
    case .distanceMeters where parent == .trackpoint:
      document.capture(.pointDistance, element: element)
    case .latitudeDegrees where parent == .position && inPoint:
      document.capture(.pointLatitude, element: element)
    case .longitudeDegrees where parent == .position && inPoint:
      document.capture(.pointLongitude, element: element)
    case .value where parent == .heartRateBpm && inPoint:
      document.capture(.pointHeartRate, element: element)
    default:
      break
    }
  }

  mutating func end(_ tag: ActivityTag, document: inout ActivityDocument) throws(ActivityError) {
    switch tag {
    case .trackpoint:
      inPoint = false
      guard let time = point.time else { return }
      if point.latitude == nil || point.longitude == nil {
        point.latitude = nil
        point.longitude = nil
      }
      activity?.statistics.add(point.trackPoint(time: time))
    case .lap:
      activity?.endLap()
    case .activity:
      if let finished = activity, let summary = finished.summary() {
        if let problem = document.check(summary, finished.statistics, line: finished.line) { throw problem }
        summaries.append(summary)
      }
      activity = nil
    default:
      break
    }
  }

  mutating func value(
    _ capture: ActivityCapture, _ text: UnsafeBufferPointer<UInt8>, document: inout ActivityDocument
  ) throws(ActivityError) {
    let limits = document.limits
    switch capture {
    case .pointTime: point.time = try document.time(text)
    case .pointElevation: point.elevation = try document.measure(text, limits.elevation, "m")
    case .pointHeartRate:
      // Devices write 0 when the strap loses contact: no reading.
      if ValueParsing.number(bytes: text) == 0 { return }
      point.heartRate = try document.measure(text, limits.heartRate, "bpm")
    case .pointDistance: point.cumulativeDistance = try document.measure(text, limits.deviceDistance, "m")
    case .pointLatitude: point.latitude = try document.number(text, .latitude, in: -90...90)
    case .pointLongitude: point.longitude = try document.number(text, .longitude, in: -180...180)
    case .activityID: activity?.id = ActivityDocument.text(text)
    case .activityNotes: activity?.notes = ActivityDocument.text(text)
    case .lapTotalTime: activity?.lapSeconds = try document.measure(text, limits.lapSeconds, "s")
    case .lapDistance: activity?.addLapDistance(try document.measure(text, limits.deviceDistance, "m"))
    default:
      break
    }
  }

  func finish(document: ActivityDocument) throws(ActivityError) -> [ActivitySummary] {
    guard !summaries.isEmpty else { throw .noTimedPoints(file: document.file) }
    return summaries
  }
}

/// One TCX `<Activity>` being read.
private struct TCXActivity {
  var sport: String?
  /// The line of the `<Activity>` start tag.
  var line: Int
  var id: String?
  var notes: String?
  var statistics = TrackStatistics()
  var lapSeconds: Double?
  private var lapStart: Double?
  private var lapDistance: Double?
  private var lapHasTrack = false
  /// Whether every lap so far has a start time, a `TotalTimeSeconds` and a `DistanceMeters`.
  private var lapsComplete = true
  private var lapDistanceSum: Double?
  private var lapSecondsSum: Double?
  private var earliestLapStart: Double?
  private var latestLapEnd: Double?

  init(sport: String?, line: Int) {
    self.sport = sport
    self.line = line
  }

  mutating func beginLap(start: Double?) {
    lapStart = start
    lapSeconds = nil
    lapDistance = nil
    lapHasTrack = false
  }

  /// A lap's first `<Track>` continues the previous lap's (laps are splits, not pauses); a further
  /// `<Track>` in the same lap follows a pause and starts a new segment.
  mutating func beginTrack() {
    if lapHasTrack { statistics.startSegment() }
    lapHasTrack = true
  }

  mutating func addLapDistance(_ meters: Double?) {
    guard let meters else { return }
    lapDistance = meters
    lapDistanceSum = (lapDistanceSum ?? 0) + meters
  }

  mutating func endLap() {
    if lapStart == nil || lapSeconds == nil || lapDistance == nil { lapsComplete = false }
    if let seconds = lapSeconds { lapSecondsSum = (lapSecondsSum ?? 0) + seconds }
    guard let start = lapStart else { return }
    earliestLapStart = min(earliestLapStart ?? start, start)
    let end = start + (lapSeconds ?? 0)
    latestLapEnd = max(latestLapEnd ?? end, end)
  }

  /// The name: the notes, else the `Id` unless it is only a timestamp (as devices write it).
  private var name: String? {
    if let notes { return notes }
    guard let id, ValueParsing.timestamp(id) == nil else { return nil }
    return id
  }

  /// How far the laps may start after the first trackpoint, or end before the last one, and still cover the track.
  static let lapCoverageSlack = 60.0

  /// The summary; nil for an activity with neither timed trackpoints nor a lap start time. Distance and time always
  /// come from the same source (``ActivitySummary/distanceSource``), the first that applies:
  /// 1. `device`: at least two trackpoints carry `DistanceMeters`: the last one's minus the first one's (a device
  ///    distance that starts at 42,014 m counts from there, not from 0), time from the trackpoints;
  /// 2. `laps`: every lap has `StartTime`, `TotalTimeSeconds` and `DistanceMeters`, and the laps cover the track
  ///    (from at most ``lapCoverageSlack`` after its first point to at most that before its last) or the track has
  ///    no positions: the laps' distances summed, time from the first lap's start to the last lap's end, moving time
  ///    the laps' `TotalTimeSeconds`;
  /// 3. `positions`: haversine over the trackpoints, time from them;
  /// 4. `none`: no distance at all (0), time from the trackpoints.
  func summary() -> ActivitySummary? {
    let lapTotals: (start: Double, end: Double, distance: Double, seconds: Double)?
    if lapsComplete, let start = earliestLapStart, let end = latestLapEnd, let distance = lapDistanceSum,
      let seconds = lapSecondsSum
    {
      lapTotals = (start, max(end, start), distance, seconds)
    } else {
      lapTotals = nil
    }
    if statistics.pointCount > 0 {
      if statistics.cumulativePoints >= 2, let first = statistics.firstCumulativeDistance,
        let last = statistics.lastCumulativeDistance
      {
        return statistics.summary(
          format: .tcx, sport: sport, name: name, distance: max(0, last - first), source: .device)
      }
      let hasPositions = statistics.positionedPoints >= 2
      if let laps = lapTotals,
        !hasPositions
          || (laps.start <= statistics.earliest + Self.lapCoverageSlack
            && laps.end >= statistics.latest - Self.lapCoverageSlack)
      {
        var summary = statistics.summary(format: .tcx, sport: sport, name: name, distance: laps.distance, source: .laps)
        summary.start = Date(timeIntervalSince1970: laps.start)
        summary.end = Date(timeIntervalSince1970: laps.end)
        summary.elapsedSeconds = laps.end - laps.start
        summary.movingSeconds = min(laps.seconds, laps.end - laps.start)
        return summary
      }
      if hasPositions {
        return statistics.summary(
          format: .tcx, sport: sport, name: name, distance: statistics.haversineDistance, source: .positions)
      }
      return statistics.summary(format: .tcx, sport: sport, name: name, distance: 0, source: .none)
    }
    guard let start = earliestLapStart else { return nil }
    let end = max(latestLapEnd ?? start, start)
    return ActivitySummary(
      format: .tcx, sport: sport, name: name, start: Date(timeIntervalSince1970: start),
      end: Date(timeIntervalSince1970: end), distanceMeters: lapDistanceSum ?? 0, elapsedSeconds: end - start,
      movingSeconds: min(lapSecondsSum ?? 0, end - start), elevationGainMeters: nil, averageHeartRate: nil,
      maxHeartRate: nil, pointCount: 0,
      distanceSource: lapDistanceSum == nil ? ActivitySummary.DistanceSource.none : .laps)
  }
}

/// `value` trimmed, or nil when that leaves nothing.
private func nonEmpty(_ value: String) -> String? {
  let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
  return trimmed.isEmpty ? nil : trimmed
}
