import Foundation
import RunningCore
import XMLStream

/// Where the bytes of a GPX or TCX document come from.
enum ActivitySource {
  /// An open file descriptor (owned by the caller), read in ``XMLTokenizer/chunkBytes`` chunks.
  case descriptor(Int32)
  /// Bytes in memory, handed over in the same chunks.
  case bytes(Data)
}

/// What a GPX or TCX reader does with the elements it cares about; ``ActivityDocument`` feeds it.
protocol ActivityHandler {
  /// A start tag (an empty-element tag is followed by ``end(_:document:)`` at once).
  mutating func start(
    _ tag: ActivityTag, parent: ActivityTag?, element: XMLStartTag, document: inout ActivityDocument
  ) throws(ActivityError)
  /// An end tag.
  mutating func end(_ tag: ActivityTag, document: inout ActivityDocument) throws(ActivityError)
  /// The text of a value started with ``ActivityDocument/capture(_:)``, trimmed and not empty.
  mutating func value(
    _ capture: ActivityCapture, _ text: UnsafeBufferPointer<UInt8>, document: inout ActivityDocument
  ) throws(ActivityError)
  /// The summaries once the document has ended.
  func finish(document: ActivityDocument) throws(ActivityError) -> [ActivitySummary]
}

/// One GPX or TCX document being read through the ``XMLTokenizer``: the stack of open elements, the value
/// being collected, the point count, and the messages for what goes wrong. The tokenizer refuses a `<!DOCTYPE>`
/// internal subset, never reads an external DTD and never expands an entity.
struct ActivityDocument {
  let file: String
  let limits: ActivityLimits
  var tokenizer = XMLTokenizer(doctypePolicy: .refuseInternalSubset)
  private let source: ActivitySource
  private var offset = 0
  private var stack: [ActivityTag] = []
  /// Track points (`<trkpt>`, `<Trackpoint>`) met so far, timed or not: at most `limits.maximumPoints`.
  private var pointsSeen = 0
  private var capturing: ActivityCapture?
  private var captureDepth = 0
  /// The line of the element whose value is being collected.
  private(set) var captureLine = 0
  private var captureName: [UInt8] = []
  private var text: [UInt8] = []
  private var textIsFull = false

  /// The text of a value is kept up to this many UTF-8 bytes; the rest is dropped, so a hostile file cannot
  /// make memory grow through one huge element.
  static let valueLimit = 16_384

  private init(file: String, limits: ActivityLimits, source: ActivitySource) {
    self.file = file
    self.limits = limits
    self.source = source
  }

  /// Reads the document from `source` to its end.
  static func read(
    _ source: ActivitySource, file: String, limits: ActivityLimits = .standard
  ) throws(ActivityError) -> [ActivitySummary] {
    var document = ActivityDocument(file: file, limits: limits, source: source)
    // The prologue gives no events: the first one is the root element.
    while true {
      switch try document.nextEvent() {
      case .startElement(let root):
        switch ActivityTag(root.name.localName) {
        case .gpx:
          var handler = GPXHandler(limits: limits)
          return try document.run(&handler, root: root)
        case .trainingCenterDatabase:
          var handler = TCXHandler()
          return try document.run(&handler, root: root)
        default:
          throw .notActivityFile(file: file, rootElement: root.name.string)
        }
      case .endElement, .text, .needsInput:
        continue
      case .endOfDocument:
        throw .xml(file: file, line: document.tokenizer.line, column: 1, detail: "no root element")
      }
    }
  }

  /// Feeds the events to `handler` until the document ends.
  private mutating func run<Handler: ActivityHandler>(
    _ handler: inout Handler, root: XMLStartTag
  ) throws(ActivityError) -> [ActivitySummary] {
    var event = XMLEvent.startElement(root)
    while true {
      switch event {
      case .startElement(let element):
        let tag = ActivityTag(element.name.localName)
        let parent = stack.last
        stack.append(tag)
        if capturing == nil {  // markup inside a collected value: only its text counts
          try handler.start(tag, parent: parent, element: element, document: &self)
        }
        if element.isEmpty { try end(&handler) }
      case .endElement:
        try end(&handler)
      case .text(let run):
        collect(run)
      case .needsInput:
        break
      case .endOfDocument:
        return try handler.finish(document: self)
      }
      event = try nextEvent()
    }
  }

  private mutating func end<Handler: ActivityHandler>(_ handler: inout Handler) throws(ActivityError) {
    guard let closing = stack.last else { return }
    if let collected = capturing, stack.count == captureDepth {
      capturing = nil
      tokenizer.reportsText = false
      try finishCapture(collected, &handler)
    }
    stack.removeLast()
    try handler.end(closing, document: &self)
  }

  /// The tokenizer's next event, reading more input when it needs it.
  private mutating func nextEvent() throws(ActivityError) -> XMLEvent {
    while true {
      let event: XMLEvent
      do {
        event = try tokenizer.next()
      } catch {
        throw Self.activityError(error, file: file)
      }
      guard case .needsInput = event else { return event }
      try fill()
    }
  }

  private mutating func fill() throws(ActivityError) {
    switch source {
    case .descriptor(let descriptor):
      if case .failed(let code) = tokenizer.fill(from: descriptor) {
        throw .unreadable(file: file, reason: String(cString: strerror(code)))
      }
    case .bytes(let data):
      guard offset < data.count else {
        tokenizer.endInput()
        return
      }
      let end = min(data.count, offset + XMLTokenizer.chunkBytes)
      let start = data.startIndex + offset
      offset += data[start..<(data.startIndex + end)].withUnsafeBytes { tokenizer.append($0) }
    }
  }

  // MARK: - Values

  /// Starts collecting the text of the element just opened, for `capture`.
  mutating func capture(_ capture: ActivityCapture, element: XMLStartTag) {
    capturing = capture
    captureDepth = stack.count
    captureLine = tokenizer.line
    captureName.removeAll(keepingCapacity: true)
    captureName.append(contentsOf: element.name.buffer)
    text.removeAll(keepingCapacity: true)
    textIsFull = false
    tokenizer.reportsText = true
  }

  /// The name of the element whose value is being read, as written: `<time>`.
  var captureField: String { "<\(String(decoding: captureName, as: UTF8.self))>" }

  /// Appends to the value being collected, up to ``valueLimit`` bytes (cut between Unicode scalars).
  private mutating func collect(_ run: XMLTextRun) {
    guard capturing != nil, !textIsFull else { return }
    XMLText.append(run.span, references: run.hasReferences, encoding: tokenizer.encoding, to: &text)
    guard text.count > Self.valueLimit else { return }
    var cut = Self.valueLimit
    while cut > 0, text[cut] & 0xC0 == 0x80 { cut -= 1 }
    text.removeSubrange(cut...)
    textIsFull = true
  }

  private mutating func finishCapture<Handler: ActivityHandler>(
    _ kind: ActivityCapture, _ handler: inout Handler
  ) throws(ActivityError) {
    let collected = text
    try collected.withUnsafeBufferPointer { (raw: UnsafeBufferPointer<UInt8>) throws(ActivityError) in
      let value = ValueParsing.trimmed(raw)
      guard !value.isEmpty else { return }  // an empty element is an absent value
      try handler.value(kind, value, document: &self)
    }
  }

  /// The value of an attribute as a string (references decoded, ISO-8859-1 converted).
  func string(_ attribute: XMLAttribute) -> String {
    var bytes: [UInt8] = []
    XMLText.append(attribute.value, references: attribute.hasReference, encoding: tokenizer.encoding, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A number in the collected value, else the error naming it.
  func number(
    _ value: UnsafeBufferPointer<UInt8>, _ expected: ActivityError.ExpectedValue = .number,
    in range: ClosedRange<Double>? = nil
  ) throws(ActivityError) -> Double {
    guard let parsed = ValueParsing.number(bytes: value), range.map({ $0.contains(parsed) }) ?? true else {
      throw invalid(captureField, Self.text(value), expected, line: captureLine)
    }
    return parsed
  }

  /// A number that must also fall in its physical range (`ActivityLimits`).
  func measure(
    _ value: UnsafeBufferPointer<UInt8>, _ range: ClosedRange<Double>, _ unit: String
  ) throws(ActivityError) -> Double {
    let parsed = try number(value)
    guard range.contains(parsed) else {
      let allowed = "\(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound)) \(unit)"
      throw outOfRange(captureField, Self.text(value), allowed, line: captureLine)
    }
    return parsed
  }

  /// A point's time, checked against the accepted dates.
  func time(_ value: UnsafeBufferPointer<UInt8>) throws(ActivityError) -> Double {
    guard let time = ValueParsing.timestamp(bytes: value) else {
      throw invalid(captureField, Self.text(value), .dateTime, line: captureLine)
    }
    guard limits.accepts(time: time) else {
      throw outOfRange(captureField, Self.text(value), Self.dateRange, line: captureLine)
    }
    return time
  }

  /// UTF-8 bytes as a string.
  static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

  /// Counts a track point; throws when the file holds more than the limit.
  mutating func countPoint(line: Int) throws(ActivityError) {
    pointsSeen += 1
    guard pointsSeen <= limits.maximumPoints else {
      throw .tooManyPoints(file: file, line: line, limit: limits.maximumPoints)
    }
  }

  // MARK: - Errors

  func invalid(_ field: String, _ value: String, _ expected: ActivityError.ExpectedValue, line: Int) -> ActivityError {
    .invalidValue(file: file, line: line, field: field, value: ValueParsing.shown(value), expected: expected)
  }

  func outOfRange(_ field: String, _ value: String, _ allowed: String, line: Int) -> ActivityError {
    .outOfRange(file: file, line: line, field: field, value: ValueParsing.shown(value), allowed: allowed)
  }

  /// The accepted dates, in words.
  static let dateRange = "1900-01-01T00:00:00Z to 2200-01-01T00:00:00Z"

  /// A range bound without a needless `.0`.
  static func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// The problem with a finished activity, if any: mostly GPS jumps, or figures no activity can have.
  func check(_ summary: ActivitySummary, _ statistics: TrackStatistics, line: Int) -> ActivityError? {
    if statistics.isMostlyGlitches {
      let total = statistics.droppedPoints + statistics.pointCount
      let speed = Self.plain(statistics.glitchSpeed)
      return .implausibleActivity(
        file: file, line: statistics.firstDroppedLine ?? line,
        detail: "\(statistics.droppedPoints) of \(total) track points are GPS jumps "
          + "(over \(Self.plain(statistics.glitchJump)) m faster than \(speed) m/s)")
    }
    // Points on different days first: they also make the activity too long, but this says why.
    if let problem = limits.differentDays(statistics) {
      return .implausibleActivity(file: file, line: problem.line, detail: problem.detail)
    }
    if let detail = limits.implausibility(of: summary) {
      return .implausibleActivity(file: file, line: line, detail: detail)
    }
    if let problem = limits.tooFastForARun(statistics, sport: summary.sport) {
      return .implausibleActivity(file: file, line: problem.line, detail: problem.detail)
    }
    return nil
  }

  /// The tokenizer's error in a runner's words (one line, with the file and line).
  static func activityError(_ error: XMLStreamError, file: String) -> ActivityError {
    switch error {
    case .empty: .empty(file: file)
    case .unsupportedEncoding(let name): .unsupportedEncoding(file: file, encoding: name)
    case .textBeforeRoot: .notActivityFile(file: file, rootElement: nil)
    case .noRootElement(let line): .xml(file: file, line: line, column: 1, detail: "no root element")
    case .truncated(let line, let element): .truncated(file: file, line: line, openElement: element)
    case .contentAfterRoot(let line, let column, _, _):
      .xml(file: file, line: line, column: column, detail: "extra content at the end of the document")
    case .internalSubset(let line): .documentTypeDeclaration(file: file, line: line)
    case .undefinedEntity(let line, let column, _, _, let external):
      .xml(
        file: file, line: line, column: column,
        detail: external
          ? "undefined entity (external DTDs are not loaded)"
          : "undefined entity (only &amp; &lt; &gt; &quot; &apos; are known)")
    case .mismatchedEndTag(let line, let column, _, let open, let openLine):
      .xml(
        file: file, line: line, column: column,
        detail: "the closing tag does not match <\(open)> (opened on line \(openLine))")
    case .malformed(let line, let column, let detail): .xml(file: file, line: line, column: column, detail: detail)
    }
  }
}

/// The elements the readers know, by local name (any namespace prefix removed).
enum ActivityTag {
  case gpx, metadata, trk, trkseg, trkpt, time, ele, name, type, hr, hAcc
  case trainingCenterDatabase, activities, firstSport, nextSport, activity, id, notes, lap, totalTimeSeconds,
    distanceMeters, track
  case trackpoint, tcxTime, position, latitudeDegrees, longitudeDegrees, altitudeMeters, heartRateBpm, value
  case other

  init(_ local: ByteSpan) {
    // The most frequent names first.
    if local.equals("trkpt") {
      self = .trkpt
    } else if local.equals("time") {
      self = .time
    } else if local.equals("ele") {
      self = .ele
    } else if local.equals("hr") {
      self = .hr
    } else if local.equals("hAcc") {
      self = .hAcc
    } else if local.equals("Trackpoint") {
      self = .trackpoint
    } else if local.equals("Time") {
      self = .tcxTime
    } else if local.equals("Position") {
      self = .position
    } else if local.equals("LatitudeDegrees") {
      self = .latitudeDegrees
    } else if local.equals("LongitudeDegrees") {
      self = .longitudeDegrees
    } else if local.equals("AltitudeMeters") {
      self = .altitudeMeters
    } else if local.equals("DistanceMeters") {
      self = .distanceMeters
    } else if local.equals("HeartRateBpm") {
      self = .heartRateBpm
    } else if local.equals("Value") {
      self = .value
    } else {
      self = Self.rare(local)
    }
  }

  private static func rare(_ local: ByteSpan) -> ActivityTag {
    if local.equals("trkseg") { return .trkseg }
    if local.equals("trk") { return .trk }
    if local.equals("name") { return .name }
    if local.equals("type") { return .type }
    if local.equals("metadata") { return .metadata }
    if local.equals("gpx") { return .gpx }
    if local.equals("Track") { return .track }
    if local.equals("Lap") { return .lap }
    if local.equals("TotalTimeSeconds") { return .totalTimeSeconds }
    if local.equals("Activity") { return .activity }
    if local.equals("Activities") { return .activities }
    if local.equals("FirstSport") { return .firstSport }
    if local.equals("NextSport") { return .nextSport }
    if local.equals("Id") { return .id }
    if local.equals("Notes") { return .notes }
    if local.equals("TrainingCenterDatabase") { return .trainingCenterDatabase }
    return .other
  }
}

/// Which leaf value is being collected.
enum ActivityCapture {
  case pointTime, pointElevation, pointHeartRate, pointHorizontalAccuracy, pointLatitude, pointLongitude
  case pointDistance, trackName, metadataName, trackType, activityID, activityNotes, lapTotalTime, lapDistance
}

/// The values of the point being read.
struct PendingPoint {
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

extension TrackStatistics {
  /// The summary of at least one point, with the distance chosen by the caller from `source`; the time always
  /// from these points.
  func summary(
    format: ActivitySummary.Format, sport: String?, name: String?, distance: Double,
    source: ActivitySummary.DistanceSource
  ) -> ActivitySummary {
    ActivitySummary(
      format: format, sport: sport, name: name, start: Date(timeIntervalSince1970: earliest),
      end: Date(timeIntervalSince1970: latest), distanceMeters: distance, elapsedSeconds: latest - earliest,
      movingSeconds: min(movingSeconds, latest - earliest), elevationGainMeters: elevationGain,
      averageHeartRate: averageHeartRate, maxHeartRate: maximumHeartRate, pointCount: pointCount,
      droppedPoints: droppedPoints, distanceSource: source, bestEfforts: efforts)
  }

  /// The best efforts found (nil when none), their starts from the earliest point.
  var efforts: [BestEffort]? {
    let found = bestEfforts.efforts(activityStart: earliest)
    return found.isEmpty ? nil : found
  }
}
