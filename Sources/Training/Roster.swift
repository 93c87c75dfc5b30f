import Foundation
import Ingest
import PlanEngine
import RunningCore
import Synchronization
import TrainingDomain
import TrainingProgress

/// One athlete of a coach's roster: the plan and this week's progress (nil before the plan starts, or without a
/// plan).
public struct RosterRow: Sendable, Encodable {
  /// The athlete's profile name.
  public let name: String
  /// The athlete's plan, nil when none is assigned.
  public let plan: String?
  /// Its id.
  public let planID: String?
  /// This week on the athlete's local day, nil before the plan starts.
  public let week: WeekProgress?
  /// The week's compliance colour (none without a week).
  public var colour: ComplianceColour { ComplianceColour(percent: week?.compliancePercent) }
  /// The week lies in a pause with nothing run (``TrainingDomain/WeekProgress/isPaused``); false without a week.
  public var isPaused: Bool { week?.isPaused ?? false }
  /// The week's long runs, quality sessions and races whose day has passed with nothing run.
  public var missedKeyWorkouts: [Workout] = []
  /// Fitness, fatigue and form on the athlete's day (as `runmate progress` has them), from the plan's runs of the
  /// last ``rosterLoadDays`` days; nil without a run.
  public var load: (fitness: Double, fatigue: Double, form: Double)? = nil

  enum CodingKeys: String, CodingKey {
    case name, plan, week
    case planID = "plan_id"
    case weekStart = "week_start"
    case plannedKm = "planned_km"
    case doneKm = "done_km"
    case compliancePercent = "compliance_percent"
    case paused
  }

  /// Encodes the row flat, every key present (null when unset), distances in kilometres.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(plan, forKey: .plan)
    try container.encode(planID, forKey: .planID)
    try container.encode(week?.number, forKey: .week)
    try container.encode(week?.start, forKey: .weekStart)
    try container.encode(week?.planned.kilometers, forKey: .plannedKm)
    try container.encode(week?.done.kilometers, forKey: .doneKm)
    try container.encode(week?.compliancePercent, forKey: .compliancePercent)
    try container.encode(isPaused, forKey: .paused)
  }
}

/// A coach's athletes and how each one's week stands (`runmate.athletes/1`).
public struct Roster: Sendable, Encodable {
  /// The schema.
  public let schema = "runmate.athletes/1"
  /// The coach's profile name.
  public let coach: String
  /// The coach's day.
  public let today: CivilDate
  /// The athletes, as the coach added them.
  public let athletes: [RosterRow]
  /// The unit the coach reads distances in (not encoded: JSON is metric).
  public let units: DistanceUnit

  enum CodingKeys: String, CodingKey { case schema, coach, today, athletes }
}

/// The days of runs the roster's fitness, fatigue and form are worked out from (12 weeks): fitness is a 42-day
/// weighted average, so the runs before them weigh under 14 % of it (e^-2); a plan under 12 weeks old is read whole.
public let rosterLoadDays = 84

/// Roster rows a server keeps between requests: each athlete's last row, with the store's fingerprint of what it was
/// made from (``TrainingStore/rosterFingerprints(ofCoach:runsFrom:)``), the athlete's zone and day. A row is used
/// again only while the fingerprint and the day are the same, so a change by any process (a run pushed, a plan
/// assigned, a profile edited) is seen at once. One row per athlete is kept.
public final class RosterCache: Sendable {
  struct Kept: Sendable {
    let fingerprint: String
    let zone: String?
    let day: CivilDate
    let row: RosterRow
  }

  private let rows = Mutex<[String: Kept]>([:])

  /// An empty cache.
  public init() {}

  func kept(_ athlete: String) -> Kept? { rows.withLock { $0[athlete] } }

  func keep(_ kept: Kept, of athlete: String) { rows.withLock { $0[athlete] = kept } }
}

/// The roster of the coach `coach` (the default profile when nil): each athlete's assigned plan, and its current
/// week as the athlete's scheduled workouts have it on the athlete's own day (`today` of a zone: the athlete's,
/// else the coach's). With a `cache`, an athlete whose fingerprint and day are unchanged gets the row kept, and the
/// athletes' profiles are read only when a row must be worked out.
public func coachRoster(
  coach name: String?, in store: any TrainingStore, systemZone: String, cache: RosterCache? = nil,
  today: (String?) throws -> CivilDate
) throws -> Roster {
  let coach = try store.requiredProfile(named: name)
  let coachDay = try today(coach.timeZone)
  func roster(_ rows: [RosterRow]) -> Roster {
    Roster(coach: coach.name, today: coachDay, athletes: rows, units: coach.units ?? .km)
  }
  // The runs of every athlete's load window (a day either side for the athletes' zones).
  let fingerprints =
    try cache == nil
    ? nil : store.rosterFingerprints(ofCoach: coach.name, runsFrom: coachDay.adding(days: -rosterLoadDays - 1))
  var kept: [String: RosterRow] = [:]
  if let fingerprints, let cache {
    for (athlete, fingerprint) in fingerprints {
      guard let entry = cache.kept(athlete), entry.fingerprint == fingerprint,
        try entry.day == today(entry.zone ?? coach.timeZone)
      else { continue }
      kept[athlete] = entry.row
    }
    if kept.count == fingerprints.count {
      // By name in byte order, as the store lists a coach's athletes.
      let names = fingerprints.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      return roster(names.compactMap { kept[$0] })
    }
  }
  var rows: [RosterRow] = []
  for athlete in try store.athletes(ofCoach: coach.name) {
    if let row = kept[athlete.name] {
      rows.append(row)
      continue
    }
    let day = try today(athlete.timeZone ?? coach.timeZone)
    let row = try rosterRow(of: athlete, day: day, in: store, systemZone: systemZone)
    if let fingerprint = fingerprints?[athlete.name] {
      cache?.keep(.init(fingerprint: fingerprint, zone: athlete.timeZone, day: day, row: row), of: athlete.name)
    }
    rows.append(row)
  }
  return roster(rows)
}

/// One athlete's row of the coach's roster on the athlete's `day` (see ``coachRoster(coach:in:systemZone:cache:today:)``).
func rosterRow(of athlete: Profile, day: CivilDate, in store: any TrainingStore, systemZone: String) throws
  -> RosterRow
{
  guard let id = athlete.id, let saved = try store.plans(ofProfile: id).first else {
    return RosterRow(name: athlete.name, plan: nil, planID: nil, week: nil)
  }
  let state = try TrainingState.read(saved, db: store, profile: athlete, systemZone: systemZone)
  guard let current = state.plan.weeks.last(where: { $0.start <= day }) else {
    return RosterRow(name: athlete.name, plan: saved.name, planID: saved.id, week: nil)
  }
  // A bounded read of this plan's runs: this week's (its progress and statuses come from the runs dated in it) and
  // the weeks before it within the load window (fitness, fatigue and form), never the whole log.
  let first = max(state.saved.plan.goal.start, day.adding(days: 1 - rosterLoadDays))
  let runs = try store.completions(
    planID: saved.id, from: min(first, current.start), through: current.start.adding(days: 6))
  let report = state.progress(runs, today: day)
  let book = state.status(runs: runs, today: day)
  var row = RosterRow(
    name: athlete.name, plan: saved.name, planID: saved.id, week: report.weeks.first { $0.number == current.number })
  row.missedKeyWorkouts = current.workouts.filter { $0.kind.isHard && book.status(of: $0) == .missed }
  if let fitness = report.fitness, let fatigue = report.fatigue, let form = report.form {
    row.load = (fitness, fatigue, form)
  }
  return row
}
