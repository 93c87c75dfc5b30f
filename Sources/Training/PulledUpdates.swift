import CalendarExport
import Foundation
import PlanEngine
import RunningCore
import TrainingDomain
import TrainingProgress

/// What a coach server has for the athlete since the last pull (``athleteUpdates(for:since:in:systemZone:now:)`` on
/// the server's side).
public struct PulledUpdates: Sendable {
  /// The coaches' new comments, oldest first.
  public var comments: [CoachComment]
  /// The athlete's plan on the server when it changed since the last pull.
  public var plan: PlanFile?
  /// The cursor to keep for the next pull.
  public var cursor: String

  /// Updates.
  public init(comments: [CoachComment], plan: PlanFile?, cursor: String) {
    self.comments = comments
    self.plan = plan
    self.cursor = cursor
  }
}

/// What `runmate pull` did to the athlete's own logbook: the plan it changed (if any), each workout changed on its
/// scheduled day, what the next export does to the calendar last exported, and the comments with their workouts.
public struct PullResult: Sendable {
  /// The local plan the coach's plan was applied to (or saved as); nil when the server sent no plan.
  public var planName: String?
  /// Whether the logbook's plan was saved (false when it already was the coach's).
  public var stored: Bool
  /// Whether the plan is new in the logbook (there was none, or the coach's is another block: ``following``).
  public var created: Bool
  /// When the coach's plan is another block than the logbook's plan under way (another race, or a block begun
  /// again): the name of that plan, kept as it was, which the new plan follows.
  public var following: String?
  /// The workouts changed, on their scheduled days, by date.
  public var changes: [WorkoutChange]
  /// What the next export does to the calendar last exported; nil when there is none.
  public var calendarChanges: [ExportChange]?
  /// The coaches' comments, each with the title of its workout (``commentsByWorkout(_:on:)``).
  public var comments: [CoachComment]
  /// How many of them the logbook did not have yet (pulled again, a comment is kept once).
  public var newComments = 0
  /// The revision (``PlanFile/revision()``) of the logbook's plan as `push` would send it, when the server sent a
  /// plan: the plan now matches the coach's, so the next push need not send it again.
  public var planRevision: String?

  /// Nothing saved and no comment: the logbook was up to date.
  public var upToDate: Bool { !stored && comments.isEmpty }
  /// The workouts changed and what the next export does to the calendar.
  public var changeSet: PlanChangeSet { PlanChangeSet(workoutChanges: changes, calendarChanges: calendarChanges) }
}

/// The `pull` use case: the coach's plan in `updates` applied to the athlete's plan named `planName` (the active one
/// when nil) as `replan --apply` applies a rebuild: saved under the local plan's own id and name (so its calendar
/// events, feeds and matched runs stay its own and the next export updates them with a higher SEQUENCE), scheduled
/// with the local settings (times, zone, busy time, reminders, pauses kept) on the coach's run days; saved as a new
/// active plan when the logbook has none. A plan the logbook already has is not saved again. Logged runs are never
/// touched, and neither is a day before the runner's today: the plan applies from today on
/// (``PlanEngine/Plan/keepingPast(of:before:)``). The comments are kept in the logbook with its plan, each once
/// however often it is pulled (``TrainingStore/keepPulledComments(_:server:planID:)``), and get the title of their
/// workout.
/// - Throws: ``SettingError`` when the coach's plan does not fit the local run days; the store's errors.
public func applyUpdates(
  _ updates: PulledUpdates, to planName: String?, server: String, in db: any TrainingStore, profile: Profile?,
  systemZone: String, now: Date
) throws -> PullResult {
  var result = PullResult(
    planName: nil, stored: false, created: false, changes: [], calendarChanges: nil, comments: updates.comments)
  // The comments are kept with the logbook's plan (before it changes, so the calendar's changes said include them),
  // or with the plan saved from the server when the logbook had none.
  // No plan of that name (or none at all) is not an error here: the comments then wait for the plan saved below.
  // The store's other errors are.
  let local: SavedPlan?
  do {
    local = try db.plan(named: planName)
  } catch {
    switch error {
    case .noSuchPlan, .noActivePlan: local = nil
    default: throw error
    }
  }
  let newBlock = try updates.plan.flatMap { file in
    try local.flatMap { local in
      try isNewBlock(file.plan, after: local, in: db, profile: profile, systemZone: systemZone, now: now)
    }
  }
  if let local, newBlock == nil {
    result.newComments = try db.keepPulledComments(updates.comments, server: server, planID: local.id)
  }
  if let file = updates.plan {
    if let newBlock, let local {
      let saved = try saveNewBlock(
        file, following: local, state: newBlock.state, today: newBlock.today, in: db, server: server, now: now)
      result.planName = saved.name
      result.stored = true
      result.created = true
      result.following = local.name
      result.changes = workoutChanges(from: nil, to: saved.plan.scheduled(try db.scheduledWorkouts(of: saved)))
        .filter { ($0.newDate ?? $0.oldDate ?? newBlock.today) >= newBlock.today }
      result.newComments = try db.keepPulledComments(updates.comments, server: server, planID: saved.id)
    } else if planName == nil, try db.plans().isEmpty {
      let ready = try file.readyToSave(as: nil, from: "the plan from \(server)")
      let saved = try db.save(ready, activate: true, profile: profile, savedAt: now)
      let dated = try db.scheduledWorkouts(of: saved)
      result.planName = saved.name
      result.stored = true
      result.created = true
      result.changes = workoutChanges(from: nil, to: saved.plan.scheduled(dated))
    } else {
      let saved = try db.plan(named: planName)
      let state = try TrainingState.read(saved, db: db, profile: profile, systemZone: systemZone)
      // The coach's plan from the runner's today on: the days before it stay as the runner's plan had them (the
      // record its runs were matched to), whatever the coach's plan says of them.
      let today = civilDay(of: now, zone: profile?.timeZone ?? state.settings.timeZone, systemZone: systemZone)
      let plan = file.plan.identified(as: saved.id).keepingPast(of: saved.plan, before: today)
      // The runner's own settings stay; the days are the coach's (the plan's weeks are made for them).
      var settings = state.stored
      if let coach = file.settings {
        let days = coach.runDays ?? state.settings.runDays
        let longRunDay = coach.longRunDay ?? state.settings.longRunDay
        if days != state.settings.runDays || longRunDay != state.settings.longRunDay {
          var changed = settings ?? state.settings
          changed.runDays = days
          changed.longRunDay = longRunDay
          settings = changed
        }
      }
      let effective = settings ?? state.settings
      try checkRunDays(plan, name: saved.name, settings: effective, source: "the coach's plan")
      let schedule = try effective.schedule(plan)
      let dated = schedule.datedWorkouts
      result.planName = saved.name
      result.changes = workoutChanges(from: keyedAsEvents(state.plan), to: keyedAsEvents(plan.scheduled(dated)))
      if !result.changes.isEmpty || settings != state.stored {
        if let previous = try lastExport(of: plan, in: db) {
          result.calendarChanges =
            try planCalendar(
              plan, schedule: schedule, settings: effective, previous: previous.calendar,
              comments: try db.coachComments(of: plan), now: now,
              targets: stepTargets(for: profile)
            ).changes
        }
        _ = try db.savePlan(
          plan, name: saved.name, activate: saved.active, schedule: (settings, dated), savedAt: now)
        result.stored = true
      }
    }
  }
  if let name = result.planName {
    result.planRevision = try planToPush(named: name, in: db, now: now)?.revision()
  }
  let saved = try result.planName.map { try db.plan(named: $0) } ?? local
  if local == nil {
    result.newComments = try db.keepPulledComments(updates.comments, server: server, planID: saved?.id)
  }
  if !result.comments.isEmpty, let saved {
    let dated = try db.scheduledWorkouts(of: saved)
    let onWorkouts = commentsByWorkout(updates.comments, on: dated)
    var titles: [CoachComment: String] = [:]
    for workout in saved.plan.scheduled(dated).workouts {
      for comment in onWorkouts[workout.id] ?? [] where titles[comment] == nil { titles[comment] = workout.title }
    }
    for index in result.comments.indices { result.comments[index].workout = titles[updates.comments[index]] }
  }
  return result
}

/// Whether the coach's `plan` is another block than the logbook's plan `local`, and that plan's state and the
/// runner's today when it is: `local` has begun, the coach's plan is not `local` itself (a plan pulled or copied
/// from the server has the server's id) and is for another distance or begins on another day, as the server decides
/// a new plan (a coach's new goal for the block under way keeps its start and distance, and is applied over it; so
/// is any plan over one not begun, which has no past to keep).
private func isNewBlock(
  _ plan: Plan, after local: SavedPlan, in db: any TrainingStore, profile: Profile?, systemZone: String, now: Date
) throws -> (state: TrainingState, today: CivilDate)? {
  let state = try TrainingState.read(local, db: db, profile: profile, systemZone: systemZone)
  let today = civilDay(of: now, zone: profile?.timeZone ?? state.settings.timeZone, systemZone: systemZone)
  let was = local.plan.goal
  guard was.start <= today, plan.id != local.id,
    plan.goal.distance != was.distance || plan.goal.start != was.start
  else { return nil }
  return (state, today)
}

/// The coach's plan of another block saved as a plan of its own, made active, under its name on the server (with
/// its start after it when the logbook has a plan of that name): `following` stays as it was, and the days of the
/// new plan before today keep `following`'s workouts (``PlanEngine/Plan/keepingPast(of:before:)``) with the runs
/// of those days, which the new plan takes over in the same transaction (``TrainingDomain/takeOverRuns(_:planID:to:)``),
/// as the coach's server does when it assigns the plan. Scheduled as the pull applies a plan: the runner's own
/// settings on the coach's run days.
private func saveNewBlock(
  _ file: PlanFile, following local: SavedPlan, state: TrainingState, today: CivilDate, in db: any TrainingStore,
  server: String, now: Date
) throws -> SavedPlan {
  let plan = file.plan.keepingPast(of: local.plan, before: today)
  var settings = state.stored ?? state.settings
  if let coach = file.settings {
    settings.runDays = coach.runDays ?? settings.runDays
    settings.longRunDay = coach.longRunDay ?? settings.longRunDay
  }
  let names = Set(try db.plans().filter { $0.id != plan.id }.map(\.name))
  let name = names.contains(file.name) ? "\(file.name)-\(plan.goal.start)" : file.name
  try checkRunDays(plan, name: name, settings: settings, source: "the coach's plan")
  let dated = try settings.schedule(plan).datedWorkouts
  let first = plan.weeks.first?.start ?? plan.goal.start
  let last = (plan.weeks.last?.start ?? plan.goal.raceDate).adding(days: 6)
  return try db.savePlan(
    plan, name: name, activate: true, schedule: (settings, dated), replacing: true,
    takingOver: RunTakeover(
      fromPlanID: local.id, days: first...max(first, last), slots: plannedSlots(of: plan, on: dated)),
    savedAt: now)
}

// The `runmate.pull/1` contract (`runmate pull --format json`): the plan's changes in the words of `replan` and
// `export --diff`, the comments with their workouts, instants in ISO 8601 UTC.
extension PullResult: Encodable {
  private enum Keys: String, CodingKey {
    case schema, plan, saved, created, following, changes, calendar, comments
    case upToDate = "up_to_date"
  }

  private enum ChangeKeys: String, CodingKey {
    case change, week, date, title, before
  }

  private enum CommentKeys: String, CodingKey {
    case date, author, text, workout
    case createdAt = "created_at"
  }

  /// Encodes `runmate.pull/1`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode("runmate.pull/1", forKey: .schema)
    try container.encode(planName, forKey: .plan)
    try container.encode(stored, forKey: .saved)
    try container.encode(created, forKey: .created)
    try container.encodeIfPresent(following, forKey: .following)
    try container.encode(upToDate, forKey: .upToDate)
    var list = container.nestedUnkeyedContainer(forKey: .changes)
    for change in changes {
      var item = list.nestedContainer(keyedBy: ChangeKeys.self)
      try item.encode(change.kind.rawValue, forKey: .change)
      try item.encode(change.week, forKey: .week)
      try item.encode((change.newDate ?? change.oldDate)?.description, forKey: .date)
      try item.encode(change.title, forKey: .title)
      try item.encode(change.kind == .moved ? change.oldDate?.description : change.oldTitle, forKey: .before)
    }
    try container.encode(changeSet.calendarSummary, forKey: .calendar)
    var notes = container.nestedUnkeyedContainer(forKey: .comments)
    for comment in comments {
      var item = notes.nestedContainer(keyedBy: CommentKeys.self)
      try item.encode(comment.date.description, forKey: .date)
      try item.encode(comment.author, forKey: .author)
      try item.encode(comment.text, forKey: .text)
      try item.encode(comment.workout, forKey: .workout)
      try item.encode(PlanFile.timestamp(comment.createdAt), forKey: .createdAt)
    }
  }
}

/// `plan` with each workout identified as its calendar event is (weeks before race week and slot,
/// ``CalendarExport/ExportOptions/countdown(of:in:)``): a coach's plan of another length for the same race then
/// compares workout by workout as the next export updates the events, not week 1 against week 1.
private func keyedAsEvents(_ plan: Plan) -> Plan {
  var copy = plan
  for index in copy.weeks.indices {
    let countdown = ExportOptions.countdown(of: copy.weeks[index], in: plan)
    for slot in copy.weeks[index].workouts.indices {
      copy.weeks[index].workouts[slot].id = "r\(countdown)-\(copy.weeks[index].workouts[slot].slot)"
    }
  }
  return copy
}
