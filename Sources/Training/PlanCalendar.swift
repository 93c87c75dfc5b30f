import CalendarExport
import Foundation
import ICalendar
import Logbook
import PlanEngine
import RunningCore
import Scheduling
import TrainingDomain
import TrainingProgress

/// The calendar of `plan` on `schedule` with `settings` (reminders, units), against the `previous` export: what
/// `export` writes and what `replan` says the next export will change. One function, so the two never disagree.
/// Each event lists its workout's steps by `targets` (``stepTargets(for:)``: the runner's pace or heart-rate choice),
/// and ends with the coaches' `comments` on its workout (``commentsByWorkout(_:on:)``, ``TrainingStore/coachComments(of:)``),
/// one ``coachLine(_:)`` each: a comment changes its event, so the next export gives it a higher SEQUENCE.
public func planCalendar(
  _ plan: Plan, schedule: Schedule, settings: ScheduleSettings, previous: VCalendar?, comments: [CoachComment],
  now: Date, targets: StepTargets = .pace
) throws -> Export {
  var options = ExportOptions(
    reminders: try SettingValues.reminders(settings.reminders),
    identity: ExportOptions.identity(of: plan),
    calendarName: "RunningMate: \(plan.goal.distance.displayName) \(plan.goal.raceDate)",
    previous: previous, units: settings.units ?? .km, targets: targets)
  options.notes = commentsByWorkout(comments, on: schedule.datedWorkouts).mapValues { comments in
    comments.map(coachLine).joined(separator: "\n")
  }
  return try makeCalendar(for: schedule, options: options, now: now)
}

/// The last export of `plan`'s race kept in the database, parsed, with where it was written; nil when none.
public func lastExport(of plan: Plan, in db: any TrainingStore) throws -> (path: String, calendar: VCalendar)? {
  guard let last = try db.lastExport(identity: ExportOptions.identity(of: plan)) else { return nil }
  do {
    return (last.path, try VCalendar.parse(last.calendar))
  } catch {
    throw ExportError.unreadableCalendar(file: "the last export in \(db.path)", error)
  }
}

/// What `export` writes: the calendar's text, what changed against the previous version and which version that was,
/// and the counts the runner is told.
public struct CalendarExportResult: Sendable {
  /// The iCalendar text, serialised by libical.
  public var text: String
  /// Every event against the previous version (unchanged ones too).
  public var changes: [ExportChange]
  /// The previous version compared with: the file's path, or "the last export (PATH)"; nil when there was none.
  public var previousLabel: String?
  /// Events in the calendar.
  public var events: Int
  /// Reminders on them.
  public var alarms: Int

  /// What changed, as `export --diff` prints it (``ExportDiff``).
  public var diff: ExportDiff { ExportDiff(changes: changes) }
}

/// The `export` use case: `plan` on `schedule` as a calendar against its previous version: the .ics file at
/// `previousFile` when given, else the last export of the plan's race kept in `store` (when there is one). The
/// same calendar `replan` predicts (``planCalendar(_:schedule:settings:previous:comments:now:targets:)``).
public func exportCalendar(
  _ plan: Plan, schedule view: ScheduleView, settings: ScheduleSettings, previousFile: String?,
  store: (any TrainingStore)?, now: Date, targets: StepTargets = .pace
) throws -> CalendarExportResult {
  let schedule = view.schedule
  var previousLabel = previousFile
  var previous = try previousFile.map { try CalendarFiles.read($0) }
  if previous == nil, let store, let last = try lastExport(of: plan, in: store) {
    previous = last.calendar
    previousLabel = "the last export (\(last.path))"
  }
  let export = try planCalendar(
    plan, schedule: schedule, settings: settings, previous: previous,
    comments: try store?.coachComments(of: plan) ?? [], now: now, targets: targets)
  let text: String
  do {
    text = try export.calendar.serialized()
  } catch {
    throw ExportError.calendarLibrary(error)
  }
  return CalendarExportResult(
    text: text, changes: export.changes, previousLabel: previousLabel, events: export.calendar.events.count,
    alarms: export.calendar.events.map(\.alarms.count).reduce(0, +))
}

/// Keeps an export's text in `store` as the previous version of the next export of the same race.
public func recordExport(_ text: String, path: String, of plan: Plan, in store: any TrainingStore) throws {
  try store.recordExport(identity: ExportOptions.identity(of: plan), path: path, calendar: text)
}

/// `runmate export --diff`: what an export changes against the previous one, in words.
public struct ExportDiff: Sendable {
  /// Every event's change.
  public let changes: [ExportChange]

  /// The words for `changes`.
  public init(changes: [ExportChange]) { self.changes = changes }

  /// One line per moved, changed, cancelled and added event (in that order), then the ``summary()``.
  public func render() -> String {
    var lines: [String] = []
    for kind in EventChange.reportOrder {
      for change in changes where change.change == kind {
        lines.append(
          "\(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(change.summary)"
            + (change.detail.map { " (\($0))" } ?? ""))
      }
    }
    lines.append(summary())
    return lines.joined(separator: "\n") + "\n"
  }

  /// `2 moved, 0 changed, 0 cancelled, 0 added, 38 unchanged`.
  public func summary() -> String {
    (EventChange.reportOrder + [.unchanged]).map { kind in
      "\(changes.filter { $0.change == kind }.count) \(kind.rawValue)"
    }
    .joined(separator: ", ")
  }
}

extension EventChange {
  /// The changes a report lists, in its order.
  static let reportOrder: [EventChange] = [.moved, .changed, .cancelled, .added]
}

/// A replan worked out on the training state: the rebuilt plan and its changes, the plan on its days with the
/// state's settings (days, times, zone, blackouts, busy time, reminders all kept), and what it does to the calendar
/// last exported (nil when there is none).
public struct ReplanProposal: Sendable {
  /// The rebuilt plan, its week changes and its workout changes (on their scheduled days).
  public var replan: Replan
  /// The rebuilt plan on its days.
  public var schedule: Schedule
  /// The schedule's settings to save with it: the state's, with the new pause added.
  public var settings: ScheduleSettings
  /// What the next export does to the calendar last exported; nil when there is none.
  public var calendarChanges: [ExportChange]?
  /// The paces by the races logged since the plan began (``VDOTEstimate/forPlan(_:completions:rules:today:)``).
  public var paces: VDOTEstimate
  /// The paces put into the rebuilt plan (`updatePaces` and the estimate moved), else nil.
  public var paceUpdate: PaceUpdate?
  /// Whether the goal time is on track (a goal-time plan only).
  public var goalCheck: PacesReport.GoalCheck?
  /// The settings to save with the plan: the stored ones (nil when the runner never saved any: the profile's stay
  /// in charge) unless the replan adds a pause.
  public var settingsToSave: ScheduleSettings?
  /// The pause it was asked for (`replan --pause`, `pause`), added to the saved settings; nil without one.
  public var pause: ClosedRange<CivilDate>?

  /// The rebuilt plan's workouts on their days, as stored with the plan.
  public var datedWorkouts: [DatedWorkout] { schedule.datedWorkouts }

  /// The workouts it changes and what the next export does to the calendar.
  public var changeSet: PlanChangeSet {
    PlanChangeSet(workoutChanges: replan.workoutChanges, calendarChanges: calendarChanges)
  }
}

/// What a new version of a saved plan changes, as `replan` and `pull` say it: each workout changed on its scheduled
/// day, and what the next export does to the calendar last exported (nil when there is none).
public struct PlanChangeSet: Sendable {
  /// The workouts changed, by date.
  public var workoutChanges: [WorkoutChange]
  /// Every event against the last export; nil when there is none.
  public var calendarChanges: [ExportChange]?

  /// The workouts changed by kind, in the order a report lists them (moved, changed, cancelled, added).
  public var byKind: [(kind: WorkoutChangeKind, changes: [WorkoutChange])] { TrainingProgress.byKind(workoutChanges) }
  /// The next export's changes in words (`2 moved, 0 changed, …`); nil without a last export.
  public var calendarSummary: String? { calendarChanges.map { ExportDiff(changes: $0).summary() } }
}

extension TrainingState {
  /// `replan --apply`: saves the rebuilt plan of `proposal` with its dated workouts (the plan's settings kept, its
  /// pause added) in one transaction, as saved at `now`; nothing when it changes nothing (no workout, no pause, no
  /// paces).
  /// - Returns: Whether it saved.
  public func applyReplan(_ proposal: ReplanProposal, db: any TrainingStore, now: Date) throws -> Bool {
    guard !proposal.replan.workoutChanges.isEmpty || proposal.pause != nil || proposal.paceUpdate != nil else {
      return false
    }
    _ = try db.savePlan(
      proposal.replan.plan, name: saved.name, activate: saved.active,
      schedule: (proposal.settingsToSave, proposal.datedWorkouts), savedAt: now)
    return true
  }
}

extension TrainingState {
  /// Rebuilds the weeks from `today` (see ``replan(_:completions:today:pause:rules:units:)``), schedules them with
  /// the state's settings, and compares the calendar with the last export in `db`.
  public func proposeReplan(
    completions: [Completion], today: CivilDate, pause: ClosedRange<CivilDate>?, reason: BreakReason = .illness,
    rules: PlanRules, db: any TrainingStore, now: Date, updatePaces: Bool = false
  ) throws -> ReplanProposal {
    let savedPauses = try SettingValues.pauses(settings.pauses ?? []).map(\.dates)
    // A race logged since the plan began that moved the paces is said, whatever the replan does; with
    // `updatePaces`, the rebuilt workouts take them.
    let paces = VDOTEstimate.forPlan(saved, completions: completions, rules: rules.base, today: today)
    let paceUpdate =
      updatePaces && paces.moved ? paces.latestRace.map { PaceUpdate(vdot: paces.vdot, asOf: $0.date) } : nil
    var result = try replan(
      saved.plan, completions: completions, today: today, pause: pause, rules: rules,
      units: units, reason: reason, savedPauses: savedPauses, paces: paceUpdate)
    let schedule = try settings.schedule(result.plan)
    // The changes on the days the runner sees (the scheduled ones, before and after), as the calendar has them.
    let before = Dictionary(workouts.map { ($0.workoutID, $0.date) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(
      schedule.datedWorkouts.map { ($0.workoutID, $0.date) },
      uniquingKeysWith: { first, _ in first })
    result.workoutChanges = result.workoutChanges.compactMap { change in
      var seen = change
      seen.oldDate = change.oldDate.map { before[change.workoutID] ?? $0 }
      seen.newDate = change.newDate.map { after[change.workoutID] ?? $0 }
      switch change.kind {
      case .moved, .changed:
        if seen.oldDate != seen.newDate {
          seen.kind = .moved
        } else if seen.oldTitle != nil || change.kind == .changed {
          seen.kind = .changed
        } else {
          return nil  // moved in the plan's week, but scheduled on the day it had: nothing the runner sees changes
        }
      case .added, .cancelled:
        break
      }
      return seen
    }
    var changes: [ExportChange]?
    if let previous = try lastExport(of: result.plan, in: db) {
      changes = try planCalendar(
        result.plan, schedule: schedule, settings: settings, previous: previous.calendar,
        comments: try db.coachComments(of: result.plan), now: now, targets: stepTargets(for: try db.profile(named: nil))
      ).changes
    }
    var saving = stored ?? settings
    if let pause {
      let text = SettingValues.pauseText(pause, reason: reason)
      saving.pauses = (saving.pauses ?? []).filter { $0 != text } + [text]
    }
    let goalCheck = PacesReport.GoalCheck(saved, completions: completions, rules: rules.base, today: today)
    return ReplanProposal(
      replan: result, schedule: schedule, settings: saving, calendarChanges: changes, paces: paces,
      paceUpdate: paceUpdate, goalCheck: goalCheck, settingsToSave: pause == nil ? stored : saving, pause: pause)
  }
}

extension ResolvedSchedule {
  /// The `export` use case's last step: `export` written by `write` (to `path`), then kept in `store` (the database,
  /// when there is one) as the previous version of the next export, then the changed settings stored with the saved
  /// plan in the store `open` gives (``commit(to:)``). A read-only store that would have to keep changed settings
  /// is refused before anything is written; one that only misses the export's record does not stop the calendar.
  /// - Returns: Whether the export was kept (nil without a store, false in a read-only one), and the lines to say
  ///   about the settings (their source, what changed).
  public func deliver(
    _ export: CalendarExportResult, to path: String, store: (any TrainingStore)?,
    open: () throws -> any TrainingStore, write: (String) throws -> Void
  ) throws -> (kept: Bool?, lines: [FieldText]) {
    if let store, store.isReadOnly, saved != nil, pending != nil { throw LogbookError.readOnly(path: store.path) }
    try write(export.text)
    // Recorded only once the calendar is out: a failed write leaves the database as it was.
    let kept = store.map { !$0.isReadOnly }
    if let store, kept == true { try recordExport(export.text, path: path, of: plan, in: store) }
    return (kept, try commit(to: open))
  }
}
