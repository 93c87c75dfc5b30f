import XMLStream

/// GPX 1.1: one summary for the whole file (all tracks and segments), named by `trk/name` (else
/// `metadata/name`), with the sport from `trk/type`. Points without a time are skipped, and so are Apple's points
/// with a horizontal accuracy worse than 50 m, as the reference does.
///
/// **Different days.** A point more than ``ActivityLimits/maximumGap`` (12 hours) from the previous one (tracks
/// recorded on different days, joined into one file) ends the activity so far and starts another: the file gives
/// one summary per such stretch, each checked on its own, rather than one run of thousands of hours.
struct GPXHandler: ActivityHandler {
  private var track = TrackStatistics()
  private var summaries: [ActivitySummary] = []
  private var point = PendingPoint()
  private var inPoint = false
  private var trackName: String?
  private var metadataName: String?
  private var trackType: String?
  private let limits: ActivityLimits

  init(limits: ActivityLimits) {
    self.limits = limits
    track.glitchJump = limits.glitchJump
    track.glitchSpeed = limits.glitchSpeed(sport: nil)
    track.sustainedWindow = limits.sustainedWindow
  }

  mutating func start(
    _ tag: ActivityTag, parent: ActivityTag?, element: XMLStartTag, document: inout ActivityDocument
  ) throws(ActivityError) {
    switch tag {
    case .trk, .trkseg:
      track.startSegment()
    case .trkpt:
      let line = document.tokenizer.line
      try document.countPoint(line: line)
      // A point with neither lat nor lon is a device's record before its GPS fix (GPX 1.1 requires both, but
      // watches write it): its time counts, it adds no distance. One of the two alone is a broken point.
      let latitude = element.value(of: "lat")
      let longitude = element.value(of: "lon")
      if latitude == nil && longitude == nil {
        point = PendingPoint(latitude: nil, longitude: nil, line: line)
      } else {
        point = PendingPoint(
          latitude: try coordinate("lat", latitude, document: document, line: line),
          longitude: try coordinate("lon", longitude, document: document, line: line), line: line)
      }
      inPoint = true
    case .time where parent == .trkpt:
      document.capture(.pointTime, element: element)
    case .ele where parent == .trkpt:
      document.capture(.pointElevation, element: element)
    case .hr where inPoint:
      document.capture(.pointHeartRate, element: element)
    case .hAcc where inPoint:
      document.capture(.pointHorizontalAccuracy, element: element)
    case .name where parent == .trk && trackName == nil:
      document.capture(.trackName, element: element)
    case .name where parent == .metadata && metadataName == nil:
      document.capture(.metadataName, element: element)
    case .type where parent == .trk && trackType == nil:
      document.capture(.trackType, element: element)
    default:
      break
    }
  }

  private func coordinate(
    _ name: String, _ attribute: XMLAttribute?, document: ActivityDocument, line: Int
  ) throws(ActivityError) -> Double {
    guard let attribute else {
      throw .missingAttribute(file: document.file, line: line, element: "trkpt", attribute: name)
    }
    let isLatitude = name == "lat"
    let value =
      attribute.hasReference
      ? ValueParsing.number(document.string(attribute)) : ValueParsing.number(bytes: attribute.value.buffer)
    guard let value, abs(value) <= (isLatitude ? 90 : 180) else {
      throw document.invalid(
        "<trkpt> \(name)", document.string(attribute), isLatitude ? .latitude : .longitude, line: line)
    }
    return value
  }

  mutating func end(_ tag: ActivityTag, document: inout ActivityDocument) throws(ActivityError) {
    switch tag {
    case .trkpt:
      inPoint = false
      guard let time = point.time, (point.horizontalAccuracy ?? 0) <= 50 else { return }
      if let last = track.lastTime, abs(time - last) > limits.maximumGap {
        try closeActivity(document: document)
        var next = TrackStatistics()
        next.glitchJump = track.glitchJump
        next.glitchSpeed = track.glitchSpeed
        next.sustainedWindow = track.sustainedWindow
        track = next
      }
      track.add(point.trackPoint(time: time))
    case .trk, .trkseg:
      track.startSegment()
    default:
      break
    }
  }

  mutating func value(
    _ capture: ActivityCapture, _ text: UnsafeBufferPointer<UInt8>, document: inout ActivityDocument
  ) throws(ActivityError) {
    switch capture {
    case .pointTime: point.time = try document.time(text)
    case .pointElevation: point.elevation = try document.measure(text, limits.elevation, "m")
    case .pointHeartRate:
      // Devices write 0 when the strap loses contact: no reading.
      if ValueParsing.number(bytes: text) == 0 { return }
      point.heartRate = try document.measure(text, limits.heartRate, "bpm")
    case .pointHorizontalAccuracy: point.horizontalAccuracy = try document.number(text)
    case .trackName: trackName = ActivityDocument.text(text)
    case .metadataName: metadataName = ActivityDocument.text(text)
    case .trackType:
      let type = ActivityDocument.text(text)
      trackType = type
      track.glitchSpeed = limits.glitchSpeed(sport: type)
    default:
      break
    }
  }

  /// Summarizes the points read so far as one activity, checked on its own.
  private mutating func closeActivity(document: ActivityDocument) throws(ActivityError) {
    guard track.pointCount > 0 else { return }
    let source: ActivitySummary.DistanceSource = track.positionedPoints >= 2 ? .positions : .none
    let summary = track.summary(
      format: .gpx, sport: trackType, name: trackName ?? metadataName, distance: track.haversineDistance,
      source: source)
    if let problem = document.check(summary, track, line: track.firstLine ?? 1) { throw problem }
    summaries.append(summary)
  }

  func finish(document: ActivityDocument) throws(ActivityError) -> [ActivitySummary] {
    var handler = self
    try handler.closeActivity(document: document)
    guard !handler.summaries.isEmpty else { throw .noTimedPoints(file: document.file) }
    return handler.summaries
  }
}
