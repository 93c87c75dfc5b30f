import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The `XMLParserDelegate` that turns GPX and TCX events into ``ActivitySummary`` values.
///
/// It keeps a stack of the open elements (for context and for the truncation message), collects the text
/// of the few leaf elements it needs, and folds each finished point into a ``TrackStatistics``. The first
/// problem wins: it is recorded, parsing is aborted, and every later event is ignored (libxml2 runs in
/// recovery mode and would otherwise keep reporting events after an error).
final class ActivityXMLReader: NSObject, XMLParserDelegate {
  /// Parses `stream` to the end and returns the summaries or the first problem.
  static func read(
    _ stream: GuardedInputStream, file: String, limits: ActivityLimits = .standard
  ) throws(ActivityError) -> [ActivitySummary] {
    let reader = ActivityXMLReader(file: file, stream: stream, limits: limits)
    let parser = XMLParser(stream: stream)
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    let succeeded = withExtendedLifetime(reader) { parser.parse() }
    stream.close()
    return try reader.finish(parser: parser, succeeded: succeeded)
  }

  // MARK: - State

  private let file: String
  private let stream: GuardedInputStream
  private let limits: ActivityLimits
  /// Track points (`<trkpt>`, `<Trackpoint>`) met so far, timed or not: at most `limits.maximumPoints`.
  private var pointsSeen = 0
  private var failure: ActivityError?
  private var format: ActivitySummary.Format?
  private var rootClosed = false
  private var stack: [OpenElement] = []
  private var lastLine = 1
  /// Element names seen so far and what they are: a file uses a dozen names, millions of times.
  private var tags: [String: Tag] = [:]
  /// At most this many names are remembered in `tags`.
  private static let tagCacheLimit = 256
  /// The text of a value (a time, a name, notes) is kept up to this many UTF-8 bytes; the rest is dropped,
  /// so a hostile file cannot make memory grow through one huge element.
  private static let valueLimit = 16_384

  private var capture: Capture?
  private var captureDepth = 0
  private var captureLine = 0
  private var text = ""

  private var point = PendingPoint()
  private var inPoint = false

  private var track = TrackStatistics()
  private var trackName: String?
  private var metadataName: String?
  private var trackType: String?

  private var activity: TCXActivity?
  private var summaries: [ActivitySummary] = []

  private init(file: String, stream: GuardedInputStream, limits: ActivityLimits) {
    self.file = file
    self.stream = stream
    self.limits = limits
    track.glitchJump = limits.glitchJump
    track.glitchSpeed = limits.glitchSpeed(sport: nil)
  }

  // MARK: - XMLParserDelegate

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String]
  ) {
    guard failure == nil else { return }
    let line = parser.lineNumber
    lastLine = line
    let tag: Tag
    if let known = tags[elementName] {
      tag = known
    } else {
      tag = Tag(qualifiedName: elementName)
      if tags.count < Self.tagCacheLimit { tags[elementName] = tag }  // bounded: names can be made up
    }
    if stack.isEmpty {
      guard format == nil else {
        fail(
          parser,
          .xml(
            file: file, line: line, column: parser.columnNumber, detail: XMLDiagnostics.describe(5, openElement: nil)))
        return
      }
      switch tag {
      case .gpx: format = .gpx
      case .trainingCenterDatabase: format = .tcx
      default:
        fail(parser, .notActivityFile(file: file, rootElement: elementName))
        return
      }
    }
    let parent = stack.last?.tag
    stack.append(OpenElement(tag: tag, name: elementName, line: line))
    guard capture == nil else { return }  // markup inside a collected value: only its text counts
    switch format {
    case .gpx: startGPX(tag, parent: parent, attributes: attributeDict, line: line, parser: parser)
    case .tcx: startTCX(tag, parent: parent, attributes: attributeDict, line: line, parser: parser)
    case .fit, nil: break  // FIT is never read here
    }
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
  ) {
    guard failure == nil, let closing = stack.last else { return }
    lastLine = parser.lineNumber
    if let collected = capture, stack.count == captureDepth {
      capture = nil
      finishCapture(collected, element: closing.name, parser: parser)
      guard failure == nil else { return }
    }
    stack.removeLast()
    switch format {
    case .gpx: endGPX(closing.tag)
    case .tcx: endTCX(closing.tag, parser: parser)
    case .fit, nil: break  // FIT is never read here
    }
    if stack.isEmpty { rootClosed = true }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard capture != nil, failure == nil else { return }
    collect(string)
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    guard capture != nil, failure == nil else { return }
    collect(String(decoding: block, as: UTF8.self))
  }

  /// Appends to the value being collected, up to ``valueLimit`` bytes (cut between Unicode scalars).
  private func collect(_ string: String) {
    let room = Self.valueLimit - text.utf8.count
    guard room > 0 else { return }
    if string.utf8.count <= room {
      text += string
      return
    }
    var bytes = 0
    for scalar in string.unicodeScalars {
      bytes += UTF8.width(scalar)
      guard bytes <= room else { break }
      text.unicodeScalars.append(scalar)
    }
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    guard failure == nil else { return }
    let code = (parseError as NSError).code
    guard !XMLDiagnostics.isIgnorable(code) else { return }
    fail(parser, xmlError(code: code, parser: parser))
  }

  // MARK: - GPX

  private func startGPX(_ tag: Tag, parent: Tag?, attributes: [String: String], line: Int, parser: XMLParser) {
    switch tag {
    case .trk, .trkseg:
      track.startSegment()
    case .trkpt:
      guard countPoint(line: line, parser: parser) else { return }
      // A point with neither lat nor lon is a device's record before its GPS fix (GPX 1.1 requires both, but
      // watches write it): its time counts, it adds no distance. One of the two alone is a broken point.
      if attributes["lat"] == nil && attributes["lon"] == nil {
        point = PendingPoint(latitude: nil, longitude: nil, line: line)
        inPoint = true
        return
      }
      guard let latitude = coordinate("lat", of: "trkpt", in: attributes, line: line, parser: parser),
        let longitude = coordinate("lon", of: "trkpt", in: attributes, line: line, parser: parser)
      else { return }
      point = PendingPoint(latitude: latitude, longitude: longitude, line: line)
      inPoint = true
    case .time where parent == .trkpt:
      beginCapture(.pointTime, line: line)
    case .ele where parent == .trkpt:
      beginCapture(.pointElevation, line: line)
    case .hr where inPoint:
      beginCapture(.pointHeartRate, line: line)
    case .hAcc where inPoint:
      beginCapture(.pointHorizontalAccuracy, line: line)
    case .name where parent == .trk && trackName == nil:
      beginCapture(.trackName, line: line)
    case .name where parent == .metadata && metadataName == nil:
      beginCapture(.metadataName, line: line)
    case .type where parent == .trk && trackType == nil:
      beginCapture(.trackType, line: line)
    default:
      break
    }
  }

  private func endGPX(_ tag: Tag) {
    switch tag {
    case .trkpt:
      inPoint = false
      // Points without a time are skipped, and so are Apple's points with a horizontal accuracy worse than
      // 50 m, as the reference does.
      guard let time = point.time, (point.horizontalAccuracy ?? 0) <= 50 else { return }
      track.add(point.trackPoint(time: time))
    case .trk, .trkseg:
      track.startSegment()
    default:
      break
    }
  }

  // MARK: - TCX

  private func startTCX(_ tag: Tag, parent: Tag?, attributes: [String: String], line: Int, parser: XMLParser) {
    switch tag {
    case .activity where parent == .activities:
      let sport = nonEmpty(attributes["Sport"])
      activity = TCXActivity(sport: sport, line: line)
      activity?.statistics.glitchJump = limits.glitchJump
      activity?.statistics.glitchSpeed = limits.glitchSpeed(sport: sport)
    case .id where parent == .activity:
      beginCapture(.activityID, line: line)
    case .notes where parent == .activity:
      beginCapture(.activityNotes, line: line)
    case .lap where parent == .activity:
      var lapStart: Double?
      if let written = attributes["StartTime"] {
        guard let parsed = ValueParsing.timestamp(written) else {
          fail(parser, invalid("<Lap> StartTime", written, .dateTime, line: line))
          return
        }
        guard limits.accepts(time: parsed) else {
          fail(parser, outOfRange("<Lap> StartTime", written, Self.dateRange, line: line))
          return
        }
        lapStart = parsed
      }
      activity?.beginLap(start: lapStart)
    case .totalTimeSeconds where parent == .lap:
      beginCapture(.lapTotalTime, line: line)
    case .distanceMeters where parent == .lap:
      beginCapture(.lapDistance, line: line)
    case .track where parent == .lap:
      activity?.beginTrack()
    case .trackpoint where parent == .track:
      guard countPoint(line: line, parser: parser) else { return }
      point = PendingPoint(line: line)
      inPoint = true
    case .tcxTime where parent == .trackpoint:
      beginCapture(.pointTime, line: line)
    case .altitudeMeters where parent == .trackpoint:
      beginCapture(.pointElevation, line: line)
    case .distanceMeters where parent == .trackpoint:
      beginCapture(.pointDistance, line: line)
    case .latitudeDegrees where parent == .position && inPoint:
      beginCapture(.pointLatitude, line: line)
    case .longitudeDegrees where parent == .position && inPoint:
      beginCapture(.pointLongitude, line: line)
    case .value where parent == .heartRateBpm && inPoint:
      beginCapture(.pointHeartRate, line: line)
    default:
      break
    }
  }

  private func endTCX(_ tag: Tag, parser: XMLParser) {
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
        if let problem = check(summary, finished.statistics, line: finished.line) {
          fail(parser, problem)
          return
        }
        summaries.append(summary)
      }
      activity = nil
    default:
      break
    }
  }

  // MARK: - Values

  private func beginCapture(_ kind: Capture, line: Int) {
    capture = kind
    captureDepth = stack.count
    captureLine = line
    text = ""
  }

  private func finishCapture(_ kind: Capture, element: String, parser: XMLParser) {
    let value = ValueParsing.trimmed(text)
    text = ""
    guard !value.isEmpty else { return }  // an empty element is an absent value
    func number(_ expected: ActivityError.ExpectedValue = .number, in range: ClosedRange<Double>? = nil) -> Double? {
      guard let parsed = ValueParsing.number(value), range.map({ $0.contains(parsed) }) ?? true else {
        fail(parser, invalid("<\(element)>", value, expected, line: captureLine))
        return nil
      }
      return parsed
    }
    // A number that must also fall in its physical range (`ActivityLimits`).
    func measure(_ range: ClosedRange<Double>, _ unit: String) -> Double? {
      guard let parsed = number() else { return nil }
      guard range.contains(parsed) else {
        let allowed = "\(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound)) \(unit)"
        fail(parser, outOfRange("<\(element)>", value, allowed, line: captureLine))
        return nil
      }
      return parsed
    }
    switch kind {
    case .pointTime:
      guard let time = ValueParsing.timestamp(value) else {
        fail(parser, invalid("<\(element)>", value, .dateTime, line: captureLine))
        return
      }
      guard limits.accepts(time: time) else {
        fail(parser, outOfRange("<\(element)>", value, Self.dateRange, line: captureLine))
        return
      }
      point.time = time
    case .pointElevation: point.elevation = measure(limits.elevation, "m")
    case .pointHeartRate:
      // Devices write 0 when the strap loses contact: no reading.
      if ValueParsing.number(value) == 0 { return }
      point.heartRate = measure(limits.heartRate, "bpm")
    case .pointHorizontalAccuracy: point.horizontalAccuracy = number()
    case .pointDistance: point.cumulativeDistance = measure(limits.deviceDistance, "m")
    case .pointLatitude: point.latitude = number(.latitude, in: -90...90)
    case .pointLongitude: point.longitude = number(.longitude, in: -180...180)
    case .trackName: trackName = value
    case .metadataName: metadataName = value
    case .trackType:
      trackType = value
      track.glitchSpeed = limits.glitchSpeed(sport: value)
    case .activityID: activity?.id = value
    case .activityNotes: activity?.notes = value
    case .lapTotalTime: activity?.lapSeconds = measure(limits.lapSeconds, "s")
    case .lapDistance: activity?.addLapDistance(measure(limits.deviceDistance, "m"))
    }
  }

  private func coordinate(
    _ attribute: String, of element: String, in attributes: [String: String], line: Int, parser: XMLParser
  ) -> Double? {
    guard let written = attributes[attribute] else {
      fail(parser, .missingAttribute(file: file, line: line, element: element, attribute: attribute))
      return nil
    }
    let isLatitude = attribute == "lat"
    let limit = isLatitude ? 90.0 : 180.0
    guard let value = ValueParsing.number(written), abs(value) <= limit else {
      fail(parser, invalid("<\(element)> \(attribute)", written, isLatitude ? .latitude : .longitude, line: line))
      return nil
    }
    return value
  }

  private func invalid(
    _ field: String, _ value: String, _ expected: ActivityError.ExpectedValue, line: Int
  ) -> ActivityError {
    .invalidValue(file: file, line: line, field: field, value: Self.shown(value), expected: expected)
  }

  private func outOfRange(_ field: String, _ value: String, _ allowed: String, line: Int) -> ActivityError {
    .outOfRange(file: file, line: line, field: field, value: Self.shown(value), allowed: allowed)
  }

  /// The accepted dates, in words.
  private static let dateRange = "1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z"

  private static func shown(_ value: String) -> String { ValueParsing.shown(value) }

  /// A range bound without a needless `.0`.
  private static func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// Counts a track point; false (after failing) when the file holds more than the limit.
  private func countPoint(line: Int, parser: XMLParser) -> Bool {
    pointsSeen += 1
    guard pointsSeen <= limits.maximumPoints else {
      fail(parser, .tooManyPoints(file: file, line: line, limit: limits.maximumPoints))
      return false
    }
    return true
  }

  /// The problem with a finished activity, if any: mostly GPS jumps, or figures no activity can have.
  private func check(_ summary: ActivitySummary, _ statistics: TrackStatistics, line: Int) -> ActivityError? {
    if statistics.isMostlyGlitches {
      let total = statistics.droppedPoints + statistics.pointCount
      let speed = Self.plain(statistics.glitchSpeed)
      return .implausibleActivity(
        file: file, line: statistics.firstDroppedLine ?? line,
        detail: "\(statistics.droppedPoints) of \(total) track points are GPS jumps "
          + "(over \(Self.plain(statistics.glitchJump)) m faster than \(speed) m/s)")
    }
    if let detail = limits.implausibility(of: summary) {
      return .implausibleActivity(file: file, line: line, detail: detail)
    }
    return nil
  }

  // MARK: - Errors and the end

  private func fail(_ parser: XMLParser, _ error: ActivityError) {
    guard failure == nil else { return }
    failure = error
    parser.abortParsing()
  }

  /// The error for a libxml2 error `code` at the parser's position: a truncation when the input has ended
  /// with elements still open, else an XML error.
  private func xmlError(code: Int, parser: XMLParser) -> ActivityError {
    let line = parser.lineNumber
    if stream.reachedEnd, let open = stack.last {
      return .truncated(file: file, line: line, openElement: open.name)
    }
    if format == nil, code == 4 || code == 5 {
      // libxml2 says "Document is empty" or "Extra content at the end of the document" for a prologue with
      // no element after it.
      return .xml(file: file, line: line, column: parser.columnNumber, detail: "no root element")
    }
    let open = stack.last.map { (name: $0.name, line: $0.line) }
    return .xml(
      file: file, line: line, column: parser.columnNumber, detail: XMLDiagnostics.describe(code, openElement: open))
  }

  private func finish(parser: XMLParser, succeeded: Bool) throws(ActivityError) -> [ActivitySummary] {
    if let refusal = stream.refusal {
      switch refusal {
      case .internalSubset(let line): throw .documentTypeDeclaration(file: file, line: line)
      case .encoding(let name): throw .unsupportedEncoding(file: file, encoding: name)
      case .notXML: throw .notActivityFile(file: file, rootElement: nil)
      }
    }
    if let reason = stream.readError { throw .unreadable(file: file, reason: reason) }
    if let failure { throw failure }
    if stream.byteCount == 0 { throw .empty(file: file) }
    if !succeeded, let code = (parser.parserError as? NSError)?.code, !XMLDiagnostics.isIgnorable(code) {
      throw xmlError(code: code, parser: parser)
    }
    guard let format else {
      throw .xml(file: file, line: lastLine, column: 1, detail: "no root element")
    }
    if !rootClosed {
      throw .truncated(file: file, line: lastLine, openElement: stack.last?.name ?? "")
    }
    switch format {
    case .gpx:
      guard track.pointCount > 0 else { throw .noTimedPoints(file: file) }
      let summary = track.summary(
        format: .gpx, sport: trackType, name: trackName ?? metadataName, distance: track.haversineDistance)
      if let problem = check(summary, track, line: track.firstLine ?? 1) { throw problem }
      return [summary]
    case .tcx, .fit:  // FIT is never read here
      guard !summaries.isEmpty else { throw .noTimedPoints(file: file) }
      return summaries
    }
  }
}

// MARK: - Supporting types

/// The elements the reader knows, by local name (any namespace prefix removed).
private enum Tag {
  case gpx, metadata, trk, trkseg, trkpt, time, ele, name, type, hr, hAcc
  case trainingCenterDatabase, activities, activity, id, notes, lap, totalTimeSeconds, distanceMeters, track
  case trackpoint, tcxTime, position, latitudeDegrees, longitudeDegrees, altitudeMeters, heartRateBpm, value
  case other

  init(qualifiedName: String) {
    let local: Substring
    if let colon = qualifiedName.utf8.lastIndex(of: UInt8(ascii: ":")) {
      local = qualifiedName[qualifiedName.utf8.index(after: colon)...]
    } else {
      local = qualifiedName[...]
    }
    switch local {
    case "trkpt": self = .trkpt
    case "time": self = .time
    case "ele": self = .ele
    case "hr": self = .hr
    case "hAcc": self = .hAcc
    case "trkseg": self = .trkseg
    case "trk": self = .trk
    case "name": self = .name
    case "type": self = .type
    case "metadata": self = .metadata
    case "gpx": self = .gpx
    case "Trackpoint": self = .trackpoint
    case "Time": self = .tcxTime
    case "Position": self = .position
    case "LatitudeDegrees": self = .latitudeDegrees
    case "LongitudeDegrees": self = .longitudeDegrees
    case "AltitudeMeters": self = .altitudeMeters
    case "DistanceMeters": self = .distanceMeters
    case "HeartRateBpm": self = .heartRateBpm
    case "Value": self = .value
    case "Track": self = .track
    case "Lap": self = .lap
    case "TotalTimeSeconds": self = .totalTimeSeconds
    case "Activity": self = .activity
    case "Activities": self = .activities
    case "Id": self = .id
    case "Notes": self = .notes
    case "TrainingCenterDatabase": self = .trainingCenterDatabase
    default: self = .other
    }
  }
}

/// An element on the stack: what it is, its name as written, and the line its start tag ended on.
private struct OpenElement {
  var tag: Tag
  var name: String
  var line: Int
}

/// Which leaf value is being collected.
private enum Capture {
  case pointTime, pointElevation, pointHeartRate, pointHorizontalAccuracy, pointLatitude, pointLongitude
  case pointDistance, trackName, metadataName, trackType, activityID, activityNotes, lapTotalTime, lapDistance
}

/// The values of the point being read.
private struct PendingPoint {
  var latitude: Double?
  var longitude: Double?
  var time: Double?
  var elevation: Double?
  var heartRate: Double?
  var horizontalAccuracy: Double?
  var cumulativeDistance: Double?
  var line = 0

  func trackPoint(time: Double) -> TrackPoint {
    TrackPoint(
      time: time, latitude: latitude, longitude: longitude, elevation: elevation, heartRate: heartRate,
      cumulativeDistance: cumulativeDistance, line: line)
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
  private var lapHasTrack = false
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
    lapDistanceSum = (lapDistanceSum ?? 0) + meters
  }

  mutating func endLap() {
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

  /// The summary; nil for an activity with neither timed trackpoints nor a lap start time.
  func summary() -> ActivitySummary? {
    if statistics.pointCount > 0 {
      let distance = statistics.maximumCumulativeDistance ?? lapDistanceSum ?? statistics.haversineDistance
      return statistics.summary(format: .tcx, sport: sport, name: name, distance: distance)
    }
    guard let start = earliestLapStart else { return nil }
    let end = max(latestLapEnd ?? start, start)
    return ActivitySummary(
      format: .tcx, sport: sport, name: name, start: Date(timeIntervalSince1970: start),
      end: Date(timeIntervalSince1970: end), distanceMeters: lapDistanceSum ?? 0, elapsedSeconds: end - start,
      movingSeconds: min(lapSecondsSum ?? 0, end - start), elevationGainMeters: nil, averageHeartRate: nil,
      maxHeartRate: nil, pointCount: 0)
  }
}

extension TrackStatistics {
  /// The summary of at least one point, with the distance chosen by the caller.
  fileprivate func summary(
    format: ActivitySummary.Format, sport: String?, name: String?, distance: Double
  ) -> ActivitySummary {
    ActivitySummary(
      format: format, sport: sport, name: name, start: Date(timeIntervalSince1970: earliest),
      end: Date(timeIntervalSince1970: latest), distanceMeters: distance, elapsedSeconds: latest - earliest,
      movingSeconds: min(movingSeconds, latest - earliest), elevationGainMeters: elevationGain,
      averageHeartRate: averageHeartRate, maxHeartRate: maximumHeartRate, pointCount: pointCount,
      droppedPoints: droppedPoints)
  }
}

/// `value` trimmed, or nil when that leaves nothing.
private func nonEmpty(_ value: String?) -> String? {
  guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
  return trimmed
}
