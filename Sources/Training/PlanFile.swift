import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

/// A saved plan with its schedule settings as a file to share (`runmate plans export`, `runmate plans import`):
/// the `runmate.plan-share/1` contract.
///
/// ```
/// {
///   "schema" : "runmate.plan-share/1",
///   "name" : "spring",
///   "exported_at" : "2027-01-04T00:00:00Z",
///   "schedule_settings" : { … } or null,
///   "plan" : { the runmate.plan/1 document }
/// }
/// ```
///
/// The keys come in this order (the schema first, so a later `--out` recognises the file in its first bytes);
/// inside `plan` and `schedule_settings` they are sorted, as in every `--format json` output. Busy time keeps its
/// intervals but not the events' titles (shown as `busy`), and busy calendars only their file names: a plan file
/// is meant to leave the machine.
public struct PlanFile: Sendable {
  /// The schema this version writes.
  public static let schema = "runmate.plan-share/1"
  static let schemaPrefix = "runmate.plan-share/"
  static let version = 1
  /// Files over this size are refused before they are read.
  static let maximumBytes = 16 * 1_024 * 1_024
  static let maximumWeeks = 60

  /// The plan's name.
  public var name: String
  /// When it was exported.
  public var exportedAt: Date
  /// The plan.
  public var plan: Plan
  /// Its schedule settings, nil when it has none.
  public var settings: ScheduleSettings?

  /// A plan file of these values.
  public init(name: String, exportedAt: Date, plan: Plan, settings: ScheduleSettings? = nil) {
    self.name = name
    self.exportedAt = exportedAt
    self.plan = plan
    self.settings = settings
  }

  /// The settings as they leave the machine: busy titles and calendar paths dropped.
  static func shared(_ settings: ScheduleSettings) -> ScheduleSettings {
    var copy = settings
    copy.busyFiles = settings.busyFiles.map { path in
      path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
    copy.busy = settings.busy.map { BusyTime(start: $0.start, end: $0.end, summary: "busy") }
    return copy
  }

  // MARK: - Writing

  /// The document: the same inputs give the same bytes.
  public func encoded() throws -> String {
    let settingsText = try settings.map { try JSONText.encode(SharedSettings(PlanFile.shared($0))) } ?? "null\n"
    let planText = try JSONText.encode(plan)
    func indented(_ text: String) -> String {
      // Nested two spaces deeper; empty lines (inside an empty array) stay empty, without trailing blanks.
      text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .map { $0.offset == 0 || $0.element.isEmpty ? String($0.element) : "  " + $0.element }
        .joined(separator: "\n")
    }
    return "{\n"
      + "  \"schema\" : \(try PlanFile.jsonString(PlanFile.schema)),\n"
      + "  \"name\" : \(try PlanFile.jsonString(name)),\n"
      + "  \"exported_at\" : \(try PlanFile.jsonString(PlanFile.timestamp(exportedAt))),\n"
      + "  \"schedule_settings\" : \(indented(settingsText)),\n"
      + "  \"plan\" : \(indented(planText))\n"
      + "}\n"
  }

  static func jsonString(_ text: String) throws -> String {
    let data = try JSONEncoder.shared.encode(text)
    return String(decoding: data, as: UTF8.self)
  }

  /// `2027-01-04T06:30:00Z`: whole seconds, UTC.
  static func timestamp(_ date: Date) -> String {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
      .formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))
  }

  static func parseTimestamp(_ text: String) -> Date? {
    try? Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt).parse(text)
  }

  // MARK: - Reading

  /// The bytes of the regular file at `path`, at most ``maximumBytes``; else a ``PlanFileError`` naming the file.
  public static func readData(_ path: String) throws(PlanFileError) -> Data {
    func bad(_ problem: String) -> PlanFileError { .untrusted(path: path, problem: FieldText(problem)) }
    var info = stat()
    guard stat(path, &info) == 0 else { throw PlanFileError.missing(path: path) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw bad("it is not a regular file") }
    guard Int(info.st_size) <= maximumBytes else {
      throw bad("it has \(info.st_size) bytes, allowed is at most \(maximumBytes) (16 MiB)")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw PlanFileError.unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw PlanFileError.unreadable(path: path, reason: "\(error.localizedDescription)")
    }
    guard data.count <= maximumBytes else { throw bad("it has more than \(maximumBytes) bytes (16 MiB)") }
    return data
  }

  /// Reads and checks the file at `path`; every problem is a ``PlanFileError`` naming the file.
  public static func read(_ path: String) throws(PlanFileError) -> PlanFile {
    try parse(try readData(path), source: path)
  }

  /// Reads and checks a plan file's bytes (from a file, or from a coach server's answer); every problem is a
  /// ``PlanFileError`` naming `source`.
  public static func parse(_ data: Data, source path: String) throws(PlanFileError) -> PlanFile {
    func bad(_ problem: String) -> PlanFileError { .untrusted(path: path, problem: FieldText(problem)) }
    guard let object = try? JSONSerialization.jsonObject(with: data, options: []),
      let top = object as? [String: Any]
    else {
      throw bad("it is not JSON (a plan file from `runmate plans export` is a JSON object)")
    }
    guard let schema = top["schema"] as? String else {
      throw bad("it has no \"schema\"; expected \(PlanFile.schema) (from `runmate plans export`)")
    }
    if schema == "runmate.plan/1" {
      throw bad("it is a plan (runmate.plan/1) without its settings; share a saved plan with `runmate plans export`")
    }
    guard schema.hasPrefix(schemaPrefix), let number = Int(schema.dropFirst(schemaPrefix.count)), number >= 1 else {
      throw bad("its schema is '\(schema)', expected \(PlanFile.schema)")
    }
    guard number <= version else {
      throw bad("it is \(schema), from a newer runmate; this one reads \(PlanFile.schema): update runmate")
    }
    let document: Document
    do {
      document = try JSONDecoder().decode(Document.self, from: data)
    } catch let error as DecodingError {
      throw bad(PlanFile.describe(error))
    } catch {
      throw bad("it cannot be read: \(error)")
    }
    guard let exported = parseTimestamp(document.exportedAt) else {
      throw bad("exported_at is '\(document.exportedAt)', allowed is an ISO 8601 time such as 2027-01-04T06:30:00Z")
    }
    let file = PlanFile(
      name: document.name, exportedAt: exported, plan: document.plan,
      settings: document.scheduleSettings?.settings)
    if let problem = file.problem() { throw bad(problem) }
    return file
  }

  /// `plan.weeks[2].workouts[0].distance_km: missing`.
  static func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return text.hasPrefix(".") ? String(text.dropFirst()) : text.isEmpty ? "the document" : text
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing"
    case .valueNotFound(_, let context):
      return "\(path(context.codingPath)) is null, a value is required"
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) is not a \(type == String.self ? "string" : "\(type)")"
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "it cannot be read"
    }
  }

  /// The first thing a runner could not trust in the plan or its settings, in words; nil when all is plausible.
  public func problem() -> String? {
    let years = SettingValues.everyDate
    func badName(_ text: String) -> Bool {
      text.trimmingCharacters(in: .whitespaces).isEmpty || text.count > 100
        || text.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
    }
    func badDistance(_ value: Double, most: Double) -> Bool { !value.isFinite || value < 0 || value > most }
    func date(_ value: CivilDate, _ field: String) -> String? {
      years.contains(value) ? nil : "\(field) is \(value), allowed is a date from 1900 to 2200"
    }
    if badName(name) { return "name is '\(name)', allowed is 1 to 100 characters without control characters" }
    if plan.schema != "runmate.plan/1" { return "plan.schema is '\(plan.schema)', expected runmate.plan/1" }
    if badName(plan.id) || plan.id.contains("/") {
      return "plan.id is '\(plan.id)', allowed is 1 to 100 characters without control characters or /"
    }
    let goal = plan.goal
    if let text = date(goal.start, "plan.goal.start") ?? date(goal.raceDate, "plan.goal.race_date") { return text }
    if goal.raceDate < goal.start { return "plan.goal.race_date \(goal.raceDate) is before its start \(goal.start)" }
    if badDistance(goal.distanceKm, most: 500) || goal.distanceKm == 0 {
      return "plan.goal.distance_km is \(goal.distanceKm), allowed is more than 0 and at most 500"
    }
    if badDistance(goal.currentWeeklyKm, most: 1_000) || badDistance(goal.longestRecentRunKm, most: 500) {
      return "plan.goal's current_weekly_km \(goal.currentWeeklyKm) or longest_recent_run_km "
        + "\(goal.longestRecentRunKm) is out of range, allowed is 0 to 1000 and 0 to 500"
    }
    if !(1...7).contains(goal.runsPerWeek) {
      return "plan.goal.runs_per_week is \(goal.runsPerWeek), allowed is 1 to 7"
    }
    if plan.weeks.isEmpty || plan.weeks.count > PlanFile.maximumWeeks {
      return "plan.weeks has \(plan.weeks.count) weeks, allowed is 1 to \(PlanFile.maximumWeeks)"
    }
    // The goal says how long the plan is ("Week 3 of 10000" over 12 weeks otherwise).
    if goal.weeks != plan.weeks.count {
      return "plan.goal.weeks is \(goal.weeks), expected \(plan.weeks.count), the number of plan.weeks"
    }
    var ids = Set<String>()
    for (index, week) in plan.weeks.enumerated() {
      let field = "plan.weeks[\(index)]"
      if week.number != index + 1 { return "\(field).number is \(week.number), expected \(index + 1)" }
      if let text = date(week.start, "\(field).start") { return text }
      if badDistance(week.plannedKm, most: 1_000) || badDistance(week.targetKm, most: 1_000) {
        return "\(field).planned_km \(week.plannedKm) or target_km \(week.targetKm) is out of range, "
          + "allowed is 0 to 1000"
      }
      if week.workouts.count > 14 { return "\(field) has \(week.workouts.count) workouts, allowed is at most 14" }
      for (slot, workout) in week.workouts.enumerated() {
        let field = "\(field).workouts[\(slot)]"
        if badName(workout.id) { return "\(field).id is '\(workout.id)', allowed is 1 to 100 characters" }
        if !ids.insert(workout.id).inserted { return "\(field).id '\(workout.id)' is not unique" }
        if let text = date(workout.date, "\(field).date") { return text }
        if badDistance(workout.distanceKm, most: 500) {
          return "\(field).distance_km is \(workout.distanceKm), allowed is 0 to 500"
        }
        if !(0...(48 * 60)).contains(workout.durationMin) {
          return "\(field).duration_min is \(workout.durationMin), allowed is 0 to 2880"
        }
        for (number, step) in workout.steps.enumerated() {
          if badDistance(step.distanceKm, most: 500) || !(0...172_800).contains(step.durationSeconds)
            || !(0...1_000).contains(step.repeat)
          {
            return "\(field).steps[\(number)] has distance_km \(step.distanceKm), duration_s \(step.durationSeconds), "
              + "repeat \(step.repeat); allowed is 0 to 500 km, 0 to 172800 s, 0 to 1000 repetitions"
          }
        }
      }
    }
    guard let settings else { return nil }
    do {
      try checkedTimeZone(settings.timeZone)
    } catch {
      return "schedule_settings.time_zone \(error)"
    }
    if let days = settings.runDays, Set(days).count != days.count || days.count < 2 {
      return "schedule_settings.run_days is \(days.map(\.rawValue).joined(separator: ",")), allowed is 2 to 7 "
        + "different days"
    }
    if settings.busy.count > 10_000 {
      return "schedule_settings.busy has \(settings.busy.count) entries, allowed is at most 10000"
    }
    let instants = -2_208_988_800.0...7_258_118_400.0  // 1900-01-01 to 2200-01-01
    for (index, busy) in settings.busy.enumerated() {
      let start = busy.start.timeIntervalSince1970
      let end = busy.end.timeIntervalSince1970
      if !instants.contains(start) || !instants.contains(end) || end <= start {
        return "schedule_settings.busy[\(index)] runs from \(PlanFile.timestamp(busy.start)) to "
          + "\(PlanFile.timestamp(busy.end)), allowed is a start before its end, from 1900 to 2200"
      }
    }
    let texts =
      settings.times + settings.blackouts + settings.busyFiles + (settings.reminders ?? [])
      + [settings.raceStart].compactMap { $0 }
    if let text = texts.first(where: badName) {
      return "schedule_settings holds '\(text)', allowed is 1 to 100 characters without control characters"
    }
    return nil
  }

  /// The document as decoded, keys as in the file.
  struct Document: Decodable {
    var schema: String
    var name: String
    var exportedAt: String
    var scheduleSettings: SharedSettings?
    var plan: Plan

    enum CodingKeys: String, CodingKey {
      case schema, name, plan
      case exportedAt = "exported_at"
      case scheduleSettings = "schedule_settings"
    }
  }
}

/// ``ScheduleSettings`` with snake_case keys, times as ISO 8601 text and every key present (null when unset): the
/// `schedule_settings` of `runmate.plan-share/1` and of `plans show --format json`.
public struct SharedSettings: Codable, Sendable {
  /// The settings.
  public var settings: ScheduleSettings

  /// The settings to encode.
  public init(_ settings: ScheduleSettings) { self.settings = settings }

  enum CodingKeys: String, CodingKey {
    case times, blackouts, busy, reminders, units
    case runDays = "run_days"
    case longRunDay = "long_run_day"
    case timeZone = "time_zone"
    case busyFiles = "busy_files"
    case raceStart = "race_start"
  }

  struct Busy: Codable {
    var start: String
    var end: String
    var summary: String
  }

  /// Encodes every key, null when unset.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(settings.runDays, forKey: .runDays)
    try container.encode(settings.longRunDay, forKey: .longRunDay)
    try container.encode(settings.times, forKey: .times)
    try container.encode(settings.timeZone, forKey: .timeZone)
    try container.encode(settings.blackouts, forKey: .blackouts)
    try container.encode(settings.busyFiles, forKey: .busyFiles)
    try container.encode(
      settings.busy.map {
        Busy(start: PlanFile.timestamp($0.start), end: PlanFile.timestamp($0.end), summary: $0.summary)
      }, forKey: .busy)
    try container.encode(settings.reminders, forKey: .reminders)
    try container.encode(settings.units, forKey: .units)
    try container.encode(settings.raceStart, forKey: .raceStart)
  }

  /// Decodes the settings, every key required.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let busy = try container.decode([Busy].self, forKey: .busy)
    var intervals: [BusyTime] = []
    for (index, item) in busy.enumerated() {
      guard let start = PlanFile.parseTimestamp(item.start), let end = PlanFile.parseTimestamp(item.end) else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: container.codingPath + [CodingKeys.busy, IndexKey(intValue: index)],
            debugDescription: "'\(item.start)'–'\(item.end)' are not ISO 8601 times such as 2027-01-04T06:30:00Z"))
      }
      intervals.append(BusyTime(start: start, end: end, summary: item.summary))
    }
    settings = ScheduleSettings(
      runDays: try container.decode([Weekday]?.self, forKey: .runDays),
      longRunDay: try container.decode(Weekday?.self, forKey: .longRunDay),
      times: try container.decode([String].self, forKey: .times),
      timeZone: try container.decode(String.self, forKey: .timeZone),
      blackouts: try container.decode([String].self, forKey: .blackouts),
      busyFiles: try container.decode([String].self, forKey: .busyFiles),
      busy: intervals,
      reminders: try container.decode([String]?.self, forKey: .reminders),
      units: try container.decode(DistanceUnit?.self, forKey: .units),
      raceStart: try container.decode(String?.self, forKey: .raceStart))
  }

  private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
  }
}

/// A plan file that cannot be read or trusted: one line naming the file.
public enum PlanFileError: FieldError, Equatable {
  /// No file at the path.
  case missing(path: String)
  /// The file cannot be read.
  case unreadable(path: String, reason: String)
  /// The file reads, but is not a plan file this version can trust.
  case untrusted(path: String, problem: FieldText)

  /// One line naming the file, with each input named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    switch self {
    case .missing(let path): "\(path): no such file"
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .untrusted(let path, let problem): "\(path): not imported: \(problem.worded(by: name))"
    }
  }

  /// What kind of failure it is.
  public var kind: FailureKind {
    switch self {
    case .missing, .unreadable: .missingInput
    case .untrusted: .badData
    }
  }
}

extension JSONEncoder {
  /// A plain encoder for single values.
  fileprivate static var shared: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
  }
}

/// A plan file checked and ready to save (``PlanFile/readyToSave(as:from:)``): the name it is saved under and, when
/// it has settings, its workouts on their days.
public struct PlanFileToSave: Sendable {
  /// The file as read.
  public let file: PlanFile
  /// Where it was read from, for messages.
  public let path: String
  /// The name it is saved under.
  public let name: String
  /// Its workouts scheduled with its settings (empty without settings).
  public let dated: [DatedWorkout]
}

extension PlanFile {
  /// Checks that the plan can be saved as `name` (default: the file's own name) and scheduled with its settings;
  /// a name or settings that cannot be used are refused naming the option or the file.
  public func readyToSave(as name: String?, from path: String) throws -> PlanFileToSave {
    if let name, PlanFile(name: name, exportedAt: exportedAt, plan: plan).problem() != nil {
      throw SettingError(option: .field(.name), value: name, allowed: "1 to 100 characters without control characters")
    }
    let planName = name ?? self.name
    var dated: [DatedWorkout] = []
    if let settings {
      do {
        try checkRunDays(plan, name: planName, settings: settings, source: "the file's settings")
        let schedule = try settings.schedule(plan)
        _ = try SettingValues.reminders(settings.reminders)
        dated = schedule.datedWorkouts
      } catch {
        throw PlanFileError.untrusted(path: path, problem: "schedule_settings cannot be used: \(error)")
      }
    }
    return PlanFileToSave(file: self, path: path, name: planName, dated: dated)
  }
}

extension TrainingStore {
  /// The saved plan named `name` (the active one when nil) with its schedule settings, as a file to share
  /// (`runmate plans export`) or to send to a coach server (`runmate push`).
  public func planFile(named name: String?, exportedAt: Date) throws -> PlanFile {
    let saved = try plan(named: name)
    return PlanFile(
      name: saved.name, exportedAt: exportedAt, plan: saved.plan, settings: try scheduleSettings(ofPlan: saved.id))
  }

  /// Saves a checked plan file (as the active plan when `activate`), assigned to `profile` when given. The same
  /// plan, or another one under this name, is refused inside the write transaction (two imports at once cannot
  /// both pass), naming the file and the way out.
  public func save(_ ready: PlanFileToSave, activate: Bool, profile: Profile?, savedAt: Date) throws -> SavedPlan {
    let saved: SavedPlan
    do {
      saved = try savePlan(
        ready.file.plan, name: ready.name, activate: activate,
        schedule: ready.file.settings.map { ($0, ready.dated) }, replacing: false, savedAt: savedAt)
    } catch {
      switch error {
      case .planAlreadySaved(let id, let same):
        throw PlanFileError.untrusted(
          path: ready.path,
          problem: "this plan (\(id)) is already saved as '\(same)'; delete it first with `runmate plans delete "
            + "\(same)` to replace it")
      case .planNameTaken:
        throw PlanFileError.untrusted(
          path: ready.path,
          problem: "a different plan is already saved as '\(ready.name)'; give another name with \(field: .name)")
      default: throw error
      }
    }
    if let id = profile?.id { try assignPlan(saved.id, toProfile: id) }
    return saved
  }
}
