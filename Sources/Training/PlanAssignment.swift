import Foundation
import PlanEngine
import RunningCore
import Scheduling
import TrainingDomain
import TrainingProgress

extension SettingValues {
  /// The dates a plan may start or race on, seen from `today`: from a year back (a plan already under way) to five
  /// years ahead.
  public static func planWindow(today: CivilDate) -> ClosedRange<CivilDate> {
    today.adding(days: -366)...today.adding(days: 5 * 366)
  }
}

/// A plan a coach asks for an athlete: the goal and the athlete's days, as sent (checked by
/// ``goal(today:maxWeeks:profile:longRunDay:)``, each bad value a ``SettingError`` naming its field). What is not
/// given comes from the athlete's profile (level, run days, long-run day, time zone), as for `runmate plan`.
public struct PlanRequest: Sendable, Equatable {
  /// The race distance: `5k`, `10k`, `15k`, `10mi`, `half`, `marathon`, or a distance such as `21.1k`.
  public var distance: String
  /// beginner, intermediate or advanced (default: the profile's).
  public var level: String?
  /// The plan's length in weeks, race week included.
  public var weeks: Int?
  /// Race day, `YYYY-MM-DD`.
  public var raceDate: String?
  /// The first day of week 1, `YYYY-MM-DD` (default: the next Monday on the athlete's day).
  public var start: String?
  /// The goal time, `h:mm:ss` or `m:ss`.
  public var goalTime: String?
  /// The run days (`tue`, `thu`, …; default: the profile's).
  public var runDays: [String]?
  /// The long-run day (default: the profile's).
  public var longRunDay: String?
  /// Runs a week, 3 to 7.
  public var runsPerWeek: Int?
  /// The athlete's weekly volume now, km.
  public var currentWeeklyKm: Double?
  /// The athlete's longest run of the last 4 weeks, km.
  public var longestRecentRunKm: Double?
  /// A recent result, `5k=24:30`.
  public var recentRace: String?
  /// The saved plan's name (default: the athlete's name, the distance and the race date).
  public var name: String?
  /// The day weeks start on when no start is given (default: Monday).
  public var weekStart: String?
  /// Cross-training days a week, 0 to 2 (default 0).
  public var crossTrainingPerWeek: Int?
  /// Strength days a week, 0 to 2 (default 0).
  public var strengthPerWeek: Int?
  /// Whether the race date and start may be spoken (`next sunday`, `in 12 weeks`, as `runmate plan` takes them);
  /// else `YYYY-MM-DD` only (the API).
  public var spokenDates: Bool

  /// A request for `distance`; the rest as given.
  public init(
    distance: String, level: String? = nil, weeks: Int? = nil, raceDate: String? = nil, start: String? = nil,
    goalTime: String? = nil, runDays: [String]? = nil, longRunDay: String? = nil, runsPerWeek: Int? = nil,
    currentWeeklyKm: Double? = nil, longestRecentRunKm: Double? = nil, recentRace: String? = nil, name: String? = nil,
    weekStart: String? = nil, crossTrainingPerWeek: Int? = nil, strengthPerWeek: Int? = nil, spokenDates: Bool = false
  ) {
    self.weekStart = weekStart
    self.crossTrainingPerWeek = crossTrainingPerWeek
    self.strengthPerWeek = strengthPerWeek
    self.spokenDates = spokenDates
    self.distance = distance
    self.level = level
    self.weeks = weeks
    self.raceDate = raceDate
    self.start = start
    self.goalTime = goalTime
    self.runDays = runDays
    self.longRunDay = longRunDay
    self.runsPerWeek = runsPerWeek
    self.currentWeeklyKm = currentWeeklyKm
    self.longestRecentRunKm = longestRecentRunKm
    self.recentRace = recentRace
    self.name = name
  }

  /// The goal, read on the athlete's `today`: the one reading of a goal, for `runmate plan`'s options and the API's
  /// fields, each bad value naming its field. With `weeks` and no race date the race is on `longRunDay` (else the
  /// profile's, else Sunday) in the last week.
  public func goal(today: CivilDate, maxWeeks: Int, profile: Profile?, longRunDay: Weekday?) throws -> Goal {
    guard let race = RaceDistance(parsing: distance) else {
      throw SettingError(
        field: .distance, value: distance, allowed: FieldText(RaceDistance.allowedList),
        suggestion: RaceDistance.suggestion(for: distance))
    }
    guard let levelText = level ?? profile?.level?.rawValue else {
      throw RequiredSettingError(field: .level, allowed: "beginner, intermediate, advanced")
    }
    let level = try SettingValues.level(levelText)
    func kilometres(_ value: Double?, _ field: InputField, _ range: ClosedRange<Double>) throws -> Double? {
      guard let value else { return nil }
      guard value.isFinite, range.contains(value) else {
        throw SettingError(
          field: field, value: "\(value)",
          allowed: "\(DistanceUnit.km.number(range.lowerBound)) to \(DistanceUnit.km.format(range.upperBound))")
      }
      return value
    }
    let weekly = try kilometres(currentWeeklyKm, .currentWeeklyKm, 5...250)
    let longest = try kilometres(longestRecentRunKm, .longestRecentRunKm, 3...60)
    let window = SettingValues.planWindow(today: today)
    let spoken = spokenDates
    func day(_ text: String, _ field: InputField) throws(SettingError) -> CivilDate {
      spoken
        ? try SettingValues.spokenDate(text, option: .field(field), today: today, window: window)
        : try SettingValues.date(text, option: .field(field), window: window)
    }
    let raceDay = try raceDate.map { text throws in try day(text, .raceDate) }
    let first = try start.map { text throws in try day(text, .start) }
    let recent = try recentRace.map { text throws -> RecentRace in
      guard let result = RecentRace(parsing: text) else {
        throw SettingError(
          field: .recentRace, value: text, allowed: "DISTANCE=TIME such as 5k=24:30, 10k=52:10, half=1:52:00")
      }
      return result
    }
    let goalSeconds = try goalTime.map { text throws -> Double in
      guard let seconds = parseRaceTime(text), seconds > 0 else {
        throw SettingError(
          field: .goalTime, value: text, allowed: "a time as h:mm:ss or m:ss, such as 1:50:00 or 24:30")
      }
      return seconds
    }
    let firstDay = try weekStart.map { text throws in try SettingValues.weekday(text, option: .field(.weekStart)) }
    let timeline = try Timeline.resolve(
      weeks: weeks, raceDate: raceDay, start: first, today: today, maxWeeks: maxWeeks, weekStart: firstDay ?? .monday,
      longRunDay: longRunDay ?? profile?.longRunDay ?? .sunday)
    return Goal(
      distance: race, level: level, timeline: timeline, runsPerWeek: runsPerWeek, currentWeeklyKm: weekly,
      longestRecentRunKm: longest, recentRace: recent, crossTrainingPerWeek: crossTrainingPerWeek ?? 0,
      strengthPerWeek: strengthPerWeek ?? 0, goalTimeSeconds: goalSeconds, birthYear: profile?.birthYear)
  }
}

/// One workout a new or rebuilt plan changes, on the athlete's scheduled days.
public struct PlanChange: Sendable, Equatable {
  /// `added`, `changed`, `moved` or `cancelled`.
  public let kind: WorkoutChangeKind
  /// The plan week (the new plan's; the old one's for a cancellation).
  public let week: Int
  /// The day (the new day for a move).
  public let date: CivilDate
  /// The workout (the one cancelled, for a cancellation): `Tempo 7.5 km`.
  public let title: String
  /// What it was, for a change (`Easy 6 km`) or a move (the old day).
  public let before: String?
}

/// What assigning or rebuilding an athlete's plan did: the plan as saved (or as it stands, when a rebuild changes
/// nothing), the workouts it changed, the basis a rebuild used, and the engine's warnings.
public struct PlanAssignment: Sendable {
  /// The athlete's profile name.
  public let athlete: String
  /// The athlete's plan.
  public let saved: SavedPlan
  /// Whether anything was saved (a rebuild that changes no workout saves nothing).
  public let stored: Bool
  /// The workouts changed, by day.
  public let changes: [PlanChange]
  /// A rebuild's starting point, in words; nil for a new plan.
  public let basis: String?
  /// What the engine says of the plan (the long run's share, a short timeline).
  public let warnings: [String]
}

/// The athlete named `name` if `account` is one of their coaches: assigning and rebuilding a plan is the coach's. Every
/// other account, the athlete's own included, gets ``CoachViewError/noSuchAthlete(name:)``, as for no such athlete.
public func coachedAthlete(named name: String, for account: Account, in store: any TrainingStore) throws -> Profile {
  guard account.role == .coach, name != account.profileName else { throw CoachViewError.noSuchAthlete(name: name) }
  return try visibleAthlete(named: name, for: account, in: store)
}

/// The `PUT plan` use case: a new plan for `athlete` made by the engine from `request` on the athlete's day at `now`
/// (as `runmate plan --save` makes one: the profile's defaults under what is given, the plan fitted to the run days),
/// made the athlete's own (``PlanEngine/Plan/owned(by:)``), scheduled, and saved as the athlete's plan by `account`
/// with its line in the audit log. The changes are the new plan's workouts against the old plan's, from the
/// athlete's today on, day by day.
///
/// A new goal for the block under way (the athlete's plan has begun and its race is ahead; the same distance; no
/// `start` given) edits that block, it does not start a blank page: the plan keeps its start (so a race day a few
/// weeks off is not "too short"), its id and name (its runs, comments and calendar events stay with it) and every day
/// before today as it was planned (``PlanEngine/Plan/keepingPast(of:before:)``); the weeks from today are rebuilt from
/// the runs logged for it by the engine that rebuilds a plan in `replan` (the spike guard from the longest run done,
/// ``TrainingProgress/replan(_:completions:today:pause:rules:units:reason:savedPauses:paces:rebuild:)``), towards the
/// new goal's build, and `basis` says from what.
public func assignPlan(
  _ request: PlanRequest, to athlete: Profile, by account: Account, in store: any TrainingStore, rules: PlanRules,
  systemZone: String, now: Date
) throws -> PlanAssignment {
  guard let athleteID = athlete.id else { throw CoachViewError.noSuchAthlete(name: athlete.name) }
  let today = civilDay(of: now, zone: athlete.timeZone, systemZone: systemZone)
  let old = try? athleteState(athlete, in: store, systemZone: systemZone)
  let block = old.flatMap { state in blockUnderWay(state, for: request, today: today) }
  var request = request
  if let block {
    let goal = block.saved.plan.goal
    // The block keeps its start: with a race day, the weeks are those from it (a start before it is a past no one ran).
    request.start = goal.start.description
    if request.raceDate != nil { request.weeks = nil }
    if request.weeks == nil && request.raceDate == nil { request.raceDate = goal.raceDate.description }
    // What the coach leaves out stays the block's: its level, runs a week, the state it began from and its goal
    // time (the weeks from today are rebuilt from the logs in any case).
    request.level = request.level ?? goal.level.rawValue
    request.runsPerWeek = request.runsPerWeek ?? goal.runsPerWeek
    request.currentWeeklyKm = request.currentWeeklyKm ?? goal.currentWeeklyKm
    request.longestRecentRunKm = request.longestRecentRunKm ?? goal.longestRecentRunKm
    if request.goalTime == nil, request.recentRace == nil, let seconds = goal.goalTimeSeconds {
      request.goalTime = formatRaceTime(Double(seconds))
    }
    request.crossTrainingPerWeek = request.crossTrainingPerWeek ?? goal.crossTrainingPerWeek
    request.strengthPerWeek = request.strengthPerWeek ?? goal.strengthPerWeek
  }
  let schedule = ScheduleRequest(days: request.runDays?.joined(separator: ","), longRunDay: request.longRunDay)
  let new = try newPlan(
    request: schedule, profile: athlete, rules: rules, units: athlete.units ?? .km, today: today,
    systemZone: systemZone
  ) { longRunDay in
    try request.goal(today: today, maxWeeks: rules.base.maxWeeks, profile: athlete, longRunDay: longRunDay)
  }
  var plan = new.plan.owned(by: athlete.name)
  if let name = request.name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 100 {
    throw SettingError(field: .name, value: String(name.prefix(40)), allowed: "1 to 100 characters")
  }
  // A name the coach gives is the athlete's own (`ana-spring`): plan names are one per server, so a bare one could
  // only be refused as taken by another coach's athlete, which would tell that athlete's plan names.
  let given = request.name.map { $0.hasPrefix("\(athlete.name)-") ? $0 : "\(athlete.name)-\($0)" }
  let name =
    given ?? block?.saved.name ?? "\(athlete.name)-\(plan.goal.distance.rawValue)-\(plan.goal.raceDate)"
  // A plan again under the name of the athlete's plan (the same race): it replaces that plan in place, keeping its
  // id, so the runs counted for it, its comments and the athlete's pulls stay with it.
  if let old, old.saved.name == name || block != nil { plan = plan.identified(as: old.saved.id) }
  var basis: String?
  var warnings = plan.warnings
  if let block {
    let start = block.saved.plan.goal.start
    let runs = try store.completions(planID: block.saved.id, from: start, through: max(start, today))
    let savedPauses = try SettingValues.pauses(block.settings.pauses ?? []).map(\.dates)
    let rebuilt = try replan(
      plan.keepingPast(of: block.saved.plan, before: today), completions: runs, today: today, pause: nil, rules: rules,
      units: athlete.units ?? .km, savedPauses: savedPauses, rebuild: true)
    plan = rebuilt.plan
    basis =
      "a new goal for the block under way since \(start): the days before \(today) kept as planned; "
      + rebuilt.basis
    warnings = rebuilt.plan.warnings
  }
  // Another block (another race, or one begun again): the athlete's plan is the record of every day before today,
  // so the new plan's days before today (a first week begun on Monday) keep its workouts, and their runs move with
  // them (``takeOverRuns``); the earlier days stay that plan's.
  if block == nil, let old { plan = plan.keepingPast(of: old.saved.plan, before: today) }
  let dated = try ScheduleView(plan, settings: new.settings).datedWorkouts
  let changes = dayChanges(from: old?.plan, to: plan.scheduled(dated), from: today)
  let goal = plan.goal
  let first = plan.weeks.first?.start ?? goal.start
  let last = (plan.weeks.last?.start ?? goal.raceDate).adding(days: 6)
  // Recorded as following the athlete's plan from its first day, so a run pushed later for an earlier day counts for
  // that plan (``PlanChain``).
  let takeover = old.flatMap { old in
    block == nil && old.saved.id != plan.id
      ? RunTakeover(fromPlanID: old.saved.id, days: first...max(first, last), slots: plannedSlots(of: plan, on: dated))
      : nil
  }
  let saved = try store.saveAthletePlan(
    plan, name: name, schedule: (new.settings, dated), athleteID: athleteID, by: account, action: .planAssigned,
    detail: "plan \(plan.id) '\(name)': \(goal.distance.rawValue) \(goal.level.rawValue), \(goal.weeks) weeks from "
      + "\(goal.start), race \(goal.raceDate)"
      + (old.map { " (was \($0.saved.id))" } ?? ""),
    takingOver: takeover, at: now)
  return PlanAssignment(
    athlete: athlete.name, saved: saved, stored: true, changes: changes, basis: basis, warnings: warnings)
}

/// The athlete's plan when `request` is a new goal for it while it is under way: begun by `today`, its race ahead,
/// the same distance, and no start of its own asked for, or the block's own (another start is a new block).
private func blockUnderWay(_ state: TrainingState, for request: PlanRequest, today: CivilDate) -> TrainingState? {
  let goal = state.saved.plan.goal
  guard request.start.map({ CivilDate(iso: $0) == goal.start }) ?? true, goal.start <= today, today < goal.raceDate,
    RaceDistance(parsing: request.distance) == goal.distance
  else { return nil }
  return state
}

/// The `regenerate` use case: `athlete`'s plan rebuilt from the runs counted for it, on the athlete's day at `now`, as
/// `runmate replan --apply` rebuilds one (race day, week numbers and phases kept; the plan's settings kept), and
/// saved by `account` with its line in the audit log; nothing is saved when no workout changes.
public func regeneratePlan(
  of athlete: Profile, by account: Account, in store: any TrainingStore, rules: PlanRules, systemZone: String,
  now: Date
) throws -> PlanAssignment {
  guard let athleteID = athlete.id else { throw CoachViewError.noSuchAthlete(name: athlete.name) }
  let state = try athleteState(athlete, in: store, systemZone: systemZone)
  let today = civilDay(of: now, zone: athlete.timeZone ?? state.settings.timeZone, systemZone: systemZone)
  // The plan's own runs: in a database of many athletes, only those are the athlete's.
  let start = state.saved.plan.goal.start
  let runs = try store.completions(planID: state.saved.id, from: start, through: max(start, today))
  let proposal = try state.proposeReplan(
    completions: runs, today: today, pause: nil, rules: rules, db: store, now: now)
  let result = proposal.replan
  let changes = result.workoutChanges.map { change in
    PlanChange(
      kind: change.kind, week: change.week, date: change.newDate ?? change.oldDate ?? today, title: change.title,
      before: change.kind == .moved ? change.oldDate?.description : change.oldTitle)
  }
  guard !result.workoutChanges.isEmpty else {
    return PlanAssignment(
      athlete: athlete.name, saved: state.saved, stored: false, changes: [], basis: result.basis,
      warnings: result.plan.warnings)
  }
  let saved = try store.saveAthletePlan(
    result.plan, name: state.saved.name, schedule: (proposal.settingsToSave, proposal.datedWorkouts),
    athleteID: athleteID, by: account, action: .planRegenerated,
    detail: "plan \(result.plan.id) '\(state.saved.name)' rebuilt: \(changes.count) workouts changed", at: now)
  return PlanAssignment(
    athlete: athlete.name, saved: saved, stored: true, changes: changes, basis: result.basis,
    warnings: result.plan.warnings)
}

/// The workouts of `new` against those of `old` (both on their scheduled days) from `today` on, day by day: a day
/// with a workout only in the new plan is `added`, only in the old one `cancelled`, in both but another session
/// `changed`. Days before `today` are the record of what was planned, and are not compared.
func dayChanges(from old: Plan?, to new: Plan, from today: CivilDate) -> [PlanChange] {
  func byDay(_ plan: Plan?) -> [CivilDate: [(week: Int, workout: Workout)]] {
    var days: [CivilDate: [(week: Int, workout: Workout)]] = [:]
    for week in plan?.weeks ?? [] {
      for workout in week.workouts where workout.date >= today {
        days[workout.date, default: []].append((week.number, workout))
      }
    }
    return days
  }
  let before = byDay(old)
  let after = byDay(new)
  var changes: [PlanChange] = []
  for day in Set(before.keys).union(after.keys).sorted() {
    let was = before[day] ?? []
    let now = after[day] ?? []
    for index in 0..<max(was.count, now.count) {
      switch (index < was.count ? was[index] : nil, index < now.count ? now[index] : nil) {
      case (nil, let added?):
        changes.append(PlanChange(kind: .added, week: added.week, date: day, title: added.workout.title, before: nil))
      case (let cancelled?, nil):
        changes.append(
          PlanChange(kind: .cancelled, week: cancelled.week, date: day, title: cancelled.workout.title, before: nil))
      case (let old?, let new?):
        if old.workout.title != new.workout.title || old.workout.kind != new.workout.kind
          || old.workout.distanceKm != new.workout.distanceKm
        {
          changes.append(
            PlanChange(kind: .changed, week: new.week, date: day, title: new.workout.title, before: old.workout.title))
        }
      case (nil, nil):
        break
      }
    }
  }
  return changes
}
