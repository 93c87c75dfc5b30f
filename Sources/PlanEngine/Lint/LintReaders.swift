import Foundation
import RunningCore
import Yams

/// A file the linter cannot read as a plan: what was expected and what went wrong.
public struct LintReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in words.
  public var reason: String

  /// The one line: what the linter reads, and what went wrong.
  public var description: String {
    "not a plan the linter reads: expected a runmate plan (`runmate plan` as JSON, runmate.plan/1, or "
      + "`runmate plans export`, runmate.plan-share/1) or a calendar-hack YAML plan (units: mi or km, schedule: "
      + "weeks of 7 workouts); \(reason)"
  }
}

extension LintPlan {
  /// A runmate plan as the linter sees it: the engine's workout kinds, its dates, its distance and level.
  public init(_ plan: Plan) {
    let weeks = plan.weeks.map { week in
      LintWeek(
        runs: week.workouts.map {
          LintRun(
            day: week.start.days(to: $0.date), date: $0.date, km: $0.kind.isRun ? $0.distanceKm : 0,
            kind: LintKind($0.kind), title: $0.title, minutes: $0.durationMin)
        }, firstWeekday: week.start.weekday)
    }
    self.init(
      name: "\(plan.goal.distance.rawValue) \(plan.goal.level.rawValue) \(plan.goal.weeks) weeks", weeks: weeks,
      distance: plan.goal.distance, level: plan.goal.level, currentWeeklyKm: plan.goal.currentWeeklyKm,
      longestRecentRunKm: plan.goal.longestRecentRunKm)
  }

  /// Reads `text` as a runmate plan (JSON: `runmate.plan/1` or `runmate.plan-share/1`) or a calendar-hack plan
  /// (YAML, or the same as JSON); `distance` overrides the distance the plan names.
  public init(text: String, name: String, distance: RaceDistance? = nil) throws(LintReadError) {
    guard text.contains(where: { !$0.isWhitespace }) else { throw LintReadError(reason: "the file is empty") }
    let data = Data(text.utf8)
    if let head = text.first(where: { !$0.isWhitespace }), head == "{",
      let probe = try? JSONDecoder().decode(SchemaProbe.self, from: data),
      let schema = probe.schema, schema.hasPrefix("runmate.")
    {
      do {
        let plan =
          schema.hasPrefix("runmate.plan-share/")
          ? try JSONDecoder().decode(SharedPlan.self, from: data).plan
          : try JSONDecoder().decode(Plan.self, from: data)
        self.init(plan)
        if let distance { self.distance = distance }
        return
      } catch {
        throw LintReadError(reason: "the runmate plan (\(schema)) does not decode: \(describe(error))")
      }
    }
    // The templates' limits (``TemplateLimits``): the size as written, then as its aliases expand it, checked on the
    // composed tree before anything walks the expansion (a million aliases took 60 s and 475 MB to decode).
    let document: CalendarHackPlan
    do {
      try TemplateLimits.check(byteCount: text.utf8.count, file: name)
      guard let node = try Yams.compose(yaml: text) else { throw LintReadError(reason: "the file is empty") }
      try TemplateLimits.checkExpansion(of: node, file: name)
      document = try YAMLDecoder().decode(CalendarHackPlan.self, from: node)
    } catch let error as LintReadError {
      throw error
    } catch let error as TemplateError {
      throw LintReadError(reason: "as calendar-hack YAML: \(error)")
    } catch {
      throw LintReadError(reason: "as calendar-hack YAML: \(describe(error))")
    }
    self = try calendarHackPlan(document, name: name, distance: distance)
  }
}

extension LintKind {
  /// The linter's kind for an engine workout kind.
  public init(_ kind: WorkoutKind) {
    switch kind {
    case .long: self = .long
    case .tempo, .intervals, .hills, .fartlek: self = .quality
    case .race: self = .race
    case .easy, .recovery, .mediumLong, .strides: self = .easy
    case .crossTraining: self = .cross
    case .strength: self = .strength
    }
  }
}

private struct SchemaProbe: Decodable { var schema: String? }
private struct SharedPlan: Decodable { var plan: Plan }

/// calendar-hack's plan schema (`public/schema/plan-schema.json`): `units`, `type`, and `schedule`, weeks of seven
/// workouts (Monday to Sunday, the race on the last day), each a `title`, maybe a `distance` (a number, or a
/// `[low, high]` range) and `tags`.
struct CalendarHackPlan: Decodable {
  var id: String?
  var name: String?
  var units: String
  var type: String?
  var schedule: [Week]

  struct Week: Decodable {
    var workouts: [Workout]
  }

  struct Workout: Decodable {
    var title: String
    var distance: Distance?
    var tags: [String]?
  }

  /// A number or `[low, high]`: the linter takes the most the plan asks for.
  struct Distance: Decodable {
    var value: Double
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let number = try? container.decode(Double.self) {
        value = number
      } else {
        value = try container.decode([Double].self).max() ?? 0
      }
    }
  }
}

/// calendar-hack `type` values the engine has rules for.
private let calendarHackTypes: [String: RaceDistance] = [
  "marathon": .marathon, "half marathon": .half, "5k": .fiveK, "10k": .tenK, "15k/10m": .fifteenK,
]

/// Title words of quality sessions in published plans.
private let qualityWords = [
  "tempo", "speed", "interval", "hill", "strength", "fartlek", "repeat", "threshold", "pace", "@", " mp",
  "progression", "tune-up", "tune up", " x ", "×", "yasso", "lt ", "vo2",
]

private func calendarHackPlan(_ document: CalendarHackPlan, name: String, distance: RaceDistance?)
  throws(LintReadError) -> LintPlan
{
  let factor: Double
  switch document.units.lowercased() {
  case "mi": factor = Distance.kilometersPerMile
  case "km": factor = 1
  default: throw LintReadError(reason: "units is '\(document.units)', allowed is mi or km")
  }
  guard !document.schedule.isEmpty else { throw LintReadError(reason: "schedule has no weeks") }
  let race = distance ?? document.type.flatMap { calendarHackTypes[$0.lowercased()] }
  var weeks: [LintWeek] = []
  for (number, week) in document.schedule.enumerated() {
    guard week.workouts.count == 7 else {
      throw LintReadError(
        reason: "schedule[\(number)] has \(week.workouts.count) workouts, allowed is 7 (Monday to Sunday)")
    }
    let last = number == document.schedule.count - 1
    var runs = week.workouts.enumerated().map { day, workout in
      let km = (workout.distance?.value ?? 0) * factor
      return LintRun(
        day: day, km: km, kind: calendarHackKind(workout, km: km, raceKm: last ? race?.kilometers : nil),
        title: workout.title)
    }
    guard runs.allSatisfy({ $0.km.isFinite && $0.km >= 0 && $0.km <= 500 }) else {
      throw LintReadError(reason: "schedule[\(number)] has a distance outside 0 to 500 km")
    }
    if !runs.contains(where: { $0.kind == .long || $0.kind == .race }),
      let longest = runs.indices.filter({ runs[$0].kind == .easy }).max(by: { runs[$0].km <= runs[$1].km }),
      runs.filter({ $0.kind.isRun && $0.km > 0 }).count > 1
    {
      runs[longest].kind = .long
    }
    weeks.append(LintWeek(runs: runs, firstWeekday: .monday))
  }
  return LintPlan(name: document.name ?? document.id ?? name, weeks: weeks, distance: race)
}

/// A workout's kind from its tags, else its title and distance: no distance is rest or cross-training, the race
/// is the last week's run of the race distance, quality sessions are named by their words.
private func calendarHackKind(_ workout: CalendarHackPlan.Workout, km: Double, raceKm: Double?) -> LintKind {
  let tags = Set(workout.tags ?? [])
  let title = " " + workout.title.lowercased() + " "
  if tags.contains("Race") { return .race }
  if let raceKm, km > 0, abs(km - raceKm) <= 0.03 * raceKm { return .race }
  guard km > 0 else {
    if tags.contains("Cross Train") || (title.contains("cross") && !title.contains("rest")) { return .cross }
    return .rest
  }
  if tags.contains("Long Run") || title.contains("long") { return .long }
  if tags.contains("Speedwork") || tags.contains("Hills") { return .quality }
  if tags.contains("Easy Run") || tags.contains("Run") { return .easy }
  return qualityWords.contains { title.contains($0) } ? .quality : .easy
}

private func describe(_ error: any Error) -> String {
  switch error {
  case DecodingError.keyNotFound(let key, let context):
    return "\(path(context.codingPath + [key])) is missing"
  case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
    DecodingError.dataCorrupted(let context):
    return "\(path(context.codingPath)): \(context.debugDescription)"
  default:
    return "\(error)"
  }
}

private func path(_ keys: [any CodingKey]) -> String {
  let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
  return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "the document" : text)
}
