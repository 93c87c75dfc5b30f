import Foundation
import RunningCore
import XMLStream

/// Unit conversion factors (the reference's tables for distance and energy).
enum Units {
  /// To kilometres.
  static func kilometres(_ unit: ByteSpan) -> Double? {
    if unit.equals("km") { return 1 }
    if unit.equals("m") { return 0.001 }
    if unit.equals("mi") { return Distance.kilometersPerMile }
    if unit.equals("ft") { return 0.0003048 }
    if unit.equals("yd") { return 0.0009144 }
    if unit.equals("cm") { return 0.00001 }
    return nil
  }

  /// To kilocalories.
  static func kilocalories(_ unit: ByteSpan) -> Double? {
    if unit.equals("kcal") || unit.equals("Cal") { return 1 }
    if unit.equals("kJ") { return 0.239005736 }
    if unit.equals("cal") { return 0.001 }
    if unit.equals("J") { return 0.000239005736 }
    return nil
  }

  /// To the unit of a body measure (cm, kg, beats per minute).
  static func measure(_ kind: MeasureKind, _ unit: ByteSpan) -> Double? {
    switch kind {
    case .heightCm:
      if unit.equals("cm") { return 1 }
      if unit.equals("m") { return 100 }
      if unit.equals("mm") { return 0.1 }
      if unit.equals("in") { return 2.54 }
      if unit.equals("ft") { return 30.48 }
    case .bodyMassKg:
      if unit.equals("kg") { return 1 }
      if unit.equals("g") { return 0.001 }
      if unit.equals("lb") { return 0.45359237 }
      if unit.equals("oz") { return 0.028349523125 }
      if unit.equals("st") { return 6.35029318 }
    case .restingHeartRate:
      if unit.equals("count/min") { return 1 }
      if unit.equals("count/s") { return 60 }
      if unit.equals("count/hr") || unit.equals("count/h") { return 1.0 / 60 }
    }
    return nil
  }

  /// To seconds (`durationUnit`).
  static func seconds(_ unit: ByteSpan) -> Double? {
    if unit.equals("min") { return 60 }
    if unit.equals("s") || unit.equals("sec") { return 1 }
    if unit.equals("hr") || unit.equals("h") { return 3600 }
    if unit.equals("ms") { return 0.001 }
    return nil
  }
}

/// A workout being read (its statistics arrive as children).
struct WorkoutDraft {
  var workout: HealthWorkout
  var statisticsDistance: Double?
  var statisticsEnergy: Double?
  var hasStatistics = false
  var hasRoute = false
  var order: Int

  /// How complete the record is, to choose between duplicates.
  var score: Int { (hasStatistics ? 4 : 0) + (hasRoute ? 2 : 0) + (workout.distanceKm != nil ? 1 : 0) }
}

/// Turns the elements of an Apple Health export into samples, measures and workouts.
///
/// Only top-level elements count (`HealthData` children): `Record`s nested in a `Correlation` repeat
/// top-level ones. For step, distance and active-energy records, a record is skipped (as the reference
/// does) when a date is not `yyyy-MM-dd HH:mm:ss ±hhmm`, the value is missing, negative or not finite, the
/// unit is unknown, or it ends before it starts. A usable value outside its physical range (see
/// `HealthLimits`) is an error naming the line, and so is a day whose total is.
struct ExportHandler {
  private enum RecordKind {
    case metric(Metric)
    case measure(MeasureKind)
  }

  private struct PendingSample {
    var metric: Metric
    var start: Int64
    var end: Int64
    var value: Double
    var source: Int32
    var name: [UInt8]
    var deviceIsWatch: Bool
    var deviceIsPhone: Bool
    var userEntered = false
  }

  let file: String
  private var sources: SourceTable
  private var aggregator: DayAggregator
  private var measures: [BodyMeasure] = []
  private var workouts: [WorkoutDraft] = []
  private var recordCount = 0
  /// Step, distance, energy and measure records left out for an unreadable date, value or unit.
  private var skippedRecords = 0
  private var skippedWorkouts: [SkippedWorkout] = []
  private var pending: PendingSample?
  private var pendingWorkout: WorkoutDraft?

  init(file: String, timeZone: TimeZone, priority: [String]) {
    self.file = file
    sources = SourceTable(priority: priority)
    aggregator = DayAggregator(zone: timeZone)
  }

  mutating func startElement(_ tag: XMLStartTag) throws(HealthError) {
    switch tag.depth {
    case 0:
      return
    case 1:
      if tag.name.equals("Record") {
        recordCount += 1
        try record(tag)
      } else if tag.name.equals("Workout") {
        try workout(tag)
      }
    default:
      if pending != nil {
        if tag.name.equals("MetadataEntry"), let key = tag.value(of: "key"), let value = tag.value(of: "value"),
          Self.withText(key, { $0.equals("HKWasUserEntered") }), Self.withText(value, { $0.equals("1") })
        {
          pending?.userEntered = true
        }
      } else if pendingWorkout != nil, tag.depth == 2 {
        if tag.name.equals("WorkoutStatistics") {
          workoutStatistics(tag)
        } else if tag.name.equals("WorkoutRoute") {
          pendingWorkout?.hasRoute = true
        }
      }
    }
  }

  mutating func endElement(depth: Int) throws(HealthError) {
    guard depth == 1 else { return }
    if let sample = pending {
      pending = nil
      try commit(sample)
    }
    if let draft = pendingWorkout {
      pendingWorkout = nil
      try finishWorkout(draft)
    }
  }

  /// The result, once the document has ended (releases the collected samples).
  /// - Throws: ``HealthError/implausibleDay(file:date:detail:)`` for a day whose total is out of range.
  mutating func makeImport(bytesRead: Int64) throws(HealthError) -> HealthImport {
    let days = aggregator.dayTotals(ranks: sources.ranks)
    for day in days {
      let totals: [(Metric, Double)] = [
        (.steps, day.steps), (.distance, day.distanceKm), (.activeEnergy, day.activeEnergyKcal),
      ]
      for (metric, total) in totals {
        let (range, unit) = HealthLimits.range(of: metric)
        guard range.contains(total) else {
          let limit = HealthLimits.plain(range.upperBound)
          throw .implausibleDay(
            file: file, date: day.date.description,
            detail: "\(HealthLimits.plain(total)) \(unit) in one day is more than \(limit)")
        }
      }
    }
    var seen = Set<BodyMeasure>()
    let measures = measures.enumerated()
      .sorted { lhs, rhs in
        let left = (lhs.element.date, lhs.element.kind.rawValue, lhs.offset)
        return left < (rhs.element.date, rhs.element.kind.rawValue, rhs.offset)
      }
      .map(\.element)
      .filter { seen.insert($0).inserted }
    var result = HealthImport(
      days: days, measures: measures, workouts: Self.deduplicated(workouts), recordCount: recordCount,
      bytesRead: bytesRead, skippedRecords: skippedRecords)
    result.skippedWorkouts = skippedWorkouts
    return result
  }

  // MARK: - Records

  private mutating func record(_ tag: XMLStartTag) throws(HealthError) {
    var type: XMLAttribute?
    var unit: XMLAttribute?
    var value: XMLAttribute?
    var device: XMLAttribute?
    var startDate: XMLAttribute?
    var endDate: XMLAttribute?
    var sourceName: XMLAttribute?
    for attribute in tag.attributes {
      let name = attribute.name
      switch name.count {
      case 4:
        if name.equals("type") {
          type = attribute
        } else if name.equals("unit") {
          unit = attribute
        }
      case 5: if name.equals("value") { value = attribute }
      case 6: if name.equals("device") { device = attribute }
      case 7: if name.equals("endDate") { endDate = attribute }
      case 9: if name.equals("startDate") { startDate = attribute }
      case 10: if name.equals("sourceName") { sourceName = attribute }
      default: break
      }
    }
    guard let type, let kind = Self.classify(type) else { return }
    func skipped() { skippedRecords += 1 }
    guard let startDate, let start = Self.timestamp(startDate) else { return skipped() }
    guard let value, let number = Self.number(value), number.isFinite, number >= 0 else { return skipped() }
    try Self.checkDate(start, startDate, field: "<Record> startDate", file: file)
    switch kind {
    case .measure(let measureKind):
      guard number > 0, let unit, let factor = Self.withText(unit, { Units.measure(measureKind, $0) }) else {
        return skipped()
      }
      let (range, unitName) = HealthLimits.range(of: measureKind)
      guard range.contains(number * factor) else {
        throw .outOfRange(
          file: file, line: 0, field: "<Record> \(Self.string(type).dropFirst(24)) value",
          value: HealthLimits.shown("\(Self.string(value)) \(Self.string(unit))"),
          allowed: HealthLimits.words(range, unitName))
      }
      measures.append(
        BodyMeasure(kind: measureKind, date: Date(timeIntervalSince1970: TimeInterval(start)), value: number * factor))
    case .metric(let metric):
      guard let endDate, let end = Self.timestamp(endDate), end >= start else { return skipped() }
      try Self.checkDate(end, endDate, field: "<Record> endDate", file: file)
      var amount = number
      switch metric {
      case .steps:
        break
      case .distance:
        guard let unit, let factor = Self.withText(unit, Units.kilometres) else { return skipped() }
        amount *= factor
      case .activeEnergy:
        guard let unit, let factor = Self.withText(unit, Units.kilocalories) else { return skipped() }
        amount *= factor
      }
      let (range, unitName) = HealthLimits.range(of: metric)
      guard range.contains(amount) else {
        throw .outOfRange(
          file: file, line: 0, field: "<Record> \(Self.string(type).dropFirst(24)) value",
          value: HealthLimits.shown(Self.string(value) + (unit.map { " " + Self.string($0) } ?? "")),
          allowed: HealthLimits.words(range, unitName))
      }
      let source: Int32? = Self.withName(sourceName) { sources.find($0) }
      var sample = PendingSample(
        metric: metric, start: start, end: end, value: amount, source: source ?? -1, name: [],
        deviceIsWatch: false, deviceIsPhone: false)
      if source == nil {
        // A new source: what its rank needs (the record's end may come after a buffer refill, so copy).
        sample.name = Self.withName(sourceName) { Array($0) }
        sample.deviceIsWatch = device.map { $0.value.contains("name:Apple Watch") } ?? false
        sample.deviceIsPhone = device.map { $0.value.contains("name:iPhone") } ?? false
      }
      if tag.isEmpty {
        try commit(sample)
      } else {
        pending = sample
      }
    }
  }

  private mutating func commit(_ sample: PendingSample) throws(HealthError) {
    var source = sample.source
    if source < 0 {
      if let known = sample.name.withUnsafeBufferPointer({ sources.find($0) }) {
        source = known
      } else if let added = sources.add(
        name: sample.name, deviceIsWatch: sample.deviceIsWatch, deviceIsPhone: sample.deviceIsPhone,
        userEntered: sample.userEntered)
      {
        source = added
      } else {
        throw .notAnExport(file: file, reason: "more than \(SourceTable.capacity) data sources")
      }
    }
    aggregator.add(sample.metric, source: source, start: sample.start, end: sample.end, value: sample.value)
  }

  private static func classify(_ type: XMLAttribute) -> RecordKind? {
    withText(type) { span -> RecordKind? in
      guard span.hasPrefix("HKQuantityTypeIdentifier") else { return nil }
      let rest = span.dropFirst(24)
      if rest.equals("StepCount") { return .metric(.steps) }
      if rest.equals("DistanceWalkingRunning") { return .metric(.distance) }
      if rest.equals("ActiveEnergyBurned") { return .metric(.activeEnergy) }
      if rest.equals("Height") { return .measure(.heightCm) }
      if rest.equals("BodyMass") { return .measure(.bodyMassKg) }
      if rest.equals("RestingHeartRate") { return .measure(.restingHeartRate) }
      return nil
    }
  }

  // MARK: - Workouts

  private mutating func workout(_ tag: XMLStartTag) throws(HealthError) {
    let startText = tag.value(of: "startDate").map { HealthLimits.shown(Self.string($0)) } ?? ""
    func skip(_ reason: String) {
      let typeText = tag.value(of: "workoutActivityType").map(Self.string) ?? ""
      let type = typeText.hasPrefix("HKWorkoutActivityType") ? String(typeText.dropFirst(21)) : typeText
      skippedWorkouts.append(
        SkippedWorkout(activityType: HealthLimits.shown(type), start: startText, reason: reason))
    }
    guard let startAttribute = tag.value(of: "startDate"), let start = Self.timestamp(startAttribute) else {
      return skip(startText.isEmpty ? "it has no startDate" : "its startDate is not a date")
    }
    guard let endAttribute = tag.value(of: "endDate"), let end = Self.timestamp(endAttribute) else {
      return skip("its endDate is missing or not a date")
    }
    guard end >= start else {
      return skip("its endDate \(HealthLimits.shown(Self.string(endAttribute))) is before its startDate")
    }
    try Self.checkDate(start, startAttribute, field: "<Workout> startDate", file: file)
    try Self.checkDate(end, endAttribute, field: "<Workout> endDate", file: file)
    guard Double(end - start) <= HealthLimits.maximumWorkoutSeconds else {
      throw .outOfRange(
        file: file, line: 0, field: "<Workout> endDate", value: Self.string(endAttribute),
        allowed: "at most 7 days after its startDate")
    }
    let typeText = tag.value(of: "workoutActivityType").map(Self.string) ?? ""
    let prefix = "HKWorkoutActivityType"
    let activityType = typeText.hasPrefix(prefix) ? String(typeText.dropFirst(prefix.count)) : typeText
    var duration = Double(end - start)
    if let durationAttribute = tag.value(of: "duration"), let written = Self.number(durationAttribute),
      written.isFinite, written >= 0
    {
      let factor = tag.value(of: "durationUnit").map { Self.withText($0, Units.seconds) } ?? 60
      if let factor { duration = written * factor }
      guard duration <= HealthLimits.maximumWorkoutSeconds else {
        throw .outOfRange(
          file: file, line: 0, field: "<Workout> duration", value: HealthLimits.shown(Self.string(durationAttribute)),
          allowed: "at most 7 days")
      }
    }
    let distance = Self.amount(tag.value(of: "totalDistance"), tag.value(of: "totalDistanceUnit"), Units.kilometres)
    let energy = Self.amount(
      tag.value(of: "totalEnergyBurned"), tag.value(of: "totalEnergyBurnedUnit"), Units.kilocalories)
    let workout = HealthWorkout(
      activityType: activityType, start: Date(timeIntervalSince1970: TimeInterval(start)),
      end: Date(timeIntervalSince1970: TimeInterval(end)), durationSeconds: duration, distanceKm: distance,
      energyKcal: energy, sourceName: tag.value(of: "sourceName").map(Self.string) ?? "")
    let draft = WorkoutDraft(workout: workout, order: workouts.count)
    if tag.isEmpty {
      try finishWorkout(draft)
    } else {
      pendingWorkout = draft
    }
  }

  private mutating func workoutStatistics(_ tag: XMLStartTag) {
    guard let type = tag.value(of: "type") else { return }
    pendingWorkout?.hasStatistics = true
    let isDistance = Self.withText(type) { $0.hasPrefix("HKQuantityTypeIdentifierDistance") }
    let isEnergy = Self.withText(type) { $0.equals("HKQuantityTypeIdentifierActiveEnergyBurned") }
    if isDistance, pendingWorkout?.statisticsDistance == nil {
      pendingWorkout?.statisticsDistance = Self.amount(tag.value(of: "sum"), tag.value(of: "unit"), Units.kilometres)
    } else if isEnergy, pendingWorkout?.statisticsEnergy == nil {
      pendingWorkout?.statisticsEnergy = Self.amount(tag.value(of: "sum"), tag.value(of: "unit"), Units.kilocalories)
    }
  }

  private mutating func finishWorkout(_ draft: WorkoutDraft) throws(HealthError) {
    var draft = draft
    if let distance = draft.statisticsDistance { draft.workout.distanceKm = distance }
    if let energy = draft.statisticsEnergy { draft.workout.energyKcal = energy }
    let workout = draft.workout
    if let distance = workout.distanceKm {
      guard HealthLimits.distanceKm.contains(distance) else {
        throw .outOfRange(
          file: file, line: 0, field: "<Workout> distance", value: HealthLimits.plain(distance) + " km",
          allowed: HealthLimits.words(HealthLimits.distanceKm, "km"))
      }
      let elapsed = workout.end.timeIntervalSince(workout.start)
      if workout.isRunning, distance * 1000 > HealthLimits.maximumRunSpeed * elapsed + HealthLimits.speedSlack {
        throw .outOfRange(
          file: file, line: 0, field: "<Workout> distance",
          value: "\(HealthLimits.plain(distance)) km in \(Int(elapsed)) s", allowed: "a run no faster than 1:30 min/km")
      }
    }
    if let energy = workout.energyKcal, !HealthLimits.activeEnergyKcal.contains(energy) {
      throw .outOfRange(
        file: file, line: 0, field: "<Workout> energy", value: HealthLimits.plain(energy) + " kcal",
        allowed: HealthLimits.words(HealthLimits.activeEnergyKcal, "kcal"))
    }
    workouts.append(draft)
  }

  /// Refuses an instant outside the accepted dates (the handler's errors leave the line to the scanner).
  private static func checkDate(
    _ seconds: Int64, _ attribute: XMLAttribute, field: String, file: String
  ) throws(HealthError) {
    guard HealthLimits.accepts(time: seconds) else {
      let value = HealthLimits.shown(string(attribute))
      throw .outOfRange(file: file, line: 0, field: field, value: value, allowed: HealthLimits.dateRange)
    }
  }

  /// The workouts sorted by start, with duplicates removed: two workouts of the same activity type whose
  /// times overlap by at least half of the shorter one are one workout written by two sources (the Watch
  /// and Strava, say); the more complete is kept (statistics, then a route, then a distance; then the
  /// first in the file).
  static func deduplicated(_ drafts: [WorkoutDraft]) -> [HealthWorkout] {
    let sorted = drafts.sorted { ($0.workout.start, $0.order) < ($1.workout.start, $1.order) }
    var kept: [WorkoutDraft] = []
    for draft in sorted {
      let match = kept.indices.reversed().first { index in
        let other = kept[index].workout
        let this = draft.workout
        guard other.activityType == this.activityType else { return false }
        let overlap = min(other.end, this.end).timeIntervalSince(max(other.start, this.start))
        let shorter = min(other.end.timeIntervalSince(other.start), this.end.timeIntervalSince(this.start))
        return overlap >= 0 && overlap >= shorter / 2 && (shorter > 0 || other.start == this.start)
      }
      if let match {
        if draft.score > kept[match].score { kept[match] = draft }
      } else {
        kept.append(draft)
      }
    }
    return kept.map(\.workout).sorted { $0.start < $1.start }
  }

  // MARK: - Values

  /// Calls `body` with the attribute's value, decoded when it holds references.
  @inline(__always)
  static func withText<Result>(_ attribute: XMLAttribute, _ body: (ByteSpan) -> Result) -> Result {
    guard attribute.hasReference else { return body(attribute.value) }
    let decoded = Array(XMLText.decode(attribute.value).utf8)
    return decoded.withUnsafeBufferPointer { buffer in
      body(ByteSpan(start: buffer.baseAddress ?? attribute.value.start, count: buffer.count))
    }
  }

  private static let unnamedSource: [UInt8] = [UInt8(ascii: "?")]

  /// Calls `body` with the source name's bytes (`?` when absent, as the reference names it).
  @inline(__always)
  private static func withName<Result>(
    _ attribute: XMLAttribute?, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    guard let attribute else { return unnamedSource.withUnsafeBufferPointer(body) }
    return withText(attribute) { body(UnsafeBufferPointer(start: $0.start, count: $0.count)) }
  }

  static func string(_ attribute: XMLAttribute) -> String {
    attribute.hasReference ? XMLText.decode(attribute.value) : attribute.value.string
  }

  @inline(__always)
  private static func timestamp(_ attribute: XMLAttribute) -> Int64? {
    attribute.hasReference ? withText(attribute, Timestamp.parse) : Timestamp.parse(attribute.value)
  }

  @inline(__always)
  private static func number(_ attribute: XMLAttribute) -> Double? {
    attribute.hasReference ? withText(attribute, DecimalNumber.parse) : DecimalNumber.parse(attribute.value)
  }

  /// A value × the factor of its unit; nil when either is missing or unusable.
  private static func amount(
    _ value: XMLAttribute?, _ unit: XMLAttribute?, _ factor: (ByteSpan) -> Double?
  ) -> Double? {
    guard let value, let unit, let number = number(value), number.isFinite, number >= 0,
      let multiplier = withText(unit, factor)
    else { return nil }
    return number * multiplier
  }
}
