import CalendarExport
import Foundation
import Logbook
import PlanEngine
import RunningCore
import Scheduling
import TrainingDomain
import TrainingProgress

/// A change the runner makes to the days of their saved plan, kept with its schedule settings so that every later
/// replan, export, feed and sync keeps it: `runmate move` and `runmate skip`.
public enum ScheduleChange: Sendable, Hashable {
  /// The workout on `from` goes to `to`.
  case move(from: CivilDate, to: CivilDate)
  /// The workouts on `days` are left out; `reason` as the runner gave it (may be empty).
  case skip(days: ClosedRange<CivilDate>, reason: String)
  /// The skips of `days` are undone: their workouts are back.
  case unskip(days: ClosedRange<CivilDate>)
}

/// A ``ScheduleChange`` worked out on the training state: what to save and what it does to the calendar.
public struct ScheduleChangeProposal: Sendable {
  /// The settings to save with the plan: the state's, with the move or skip added.
  public var settings: ScheduleSettings
  /// The plan on its days with them.
  public var schedule: Schedule
  /// The workouts the change moves or skips, on the days they had (none for an undone skip: see the schedule).
  public var affected: [DatedWorkout]
  /// Things the runner should know (a hard workout next to another hard day).
  public var warnings: [String]
  /// What the next export does to the calendar last exported; nil when there is none.
  public var calendarChanges: [ExportChange]?

  /// The plan's workouts on their days, as stored with the plan.
  public var datedWorkouts: [DatedWorkout] { schedule.datedWorkouts }
}

extension TrainingState {
  /// `move` and `skip`: works out `change` (``proposeChange(_:today:db:now:)``) and saves the plan with it, its dated
  /// workouts in the same transaction, as saved at `now`.
  public func makeChange(_ change: ScheduleChange, today: CivilDate, db: any TrainingStore, now: Date) throws
    -> ScheduleChangeProposal
  {
    let proposal = try proposeChange(change, today: today, db: db, now: now)
    _ = try db.savePlan(
      saved.plan, name: saved.name, activate: saved.active, schedule: (proposal.settings, proposal.datedWorkouts),
      savedAt: now)
    return proposal
  }
}

extension TrainingState {
  /// Works out `change` from `today`: the days must be today or later and before race day, a move goes to a day
  /// without a workout and outside the saved pauses, the race stays on its day.
  /// - Throws: ``SettingError`` naming the date argument and what is allowed, with a day that would work when one is
  ///   near.
  public func proposeChange(
    _ change: ScheduleChange, today: CivilDate, db: any TrainingStore, now: Date
  ) throws -> ScheduleChangeProposal {
    let raceDate = saved.plan.goal.raceDate
    let pauses = try SettingValues.pauses(settings.pauses ?? []).map(\.dates)
    var saving = stored ?? settings
    var moves = try SettingValues.moves(saving.moves ?? [])
    var skips = try SettingValues.skips(saving.skips ?? [])
    // The day the scheduler gave a workout before the runner's own moves (the key of a move or skip).
    let placedDay = { (day: CivilDate) in moves.first { $0.value == day }?.key ?? day }
    let trainingDays = workouts.filter { $0.kind != .race && $0.date >= today && $0.date < raceDate }
    func nextWorkoutDay(after day: CivilDate) -> String? {
      trainingDays.map(\.date).filter { $0 >= day }.min().map(\.description)
    }
    let affected: [DatedWorkout]
    var warnings: [String] = []
    switch change {
    case .move(let from, let to):
      let here = workouts.filter { $0.date == from }
      guard from >= today else {
        throw SettingError(
          option: "date", value: "\(from)", allowed: "today or a later day (a past run is logged, not moved)",
          suggestion: nextWorkoutDay(after: today))
      }
      guard !here.contains(where: { $0.kind == .race }) else {
        throw SettingError(option: "date", value: "\(from)", allowed: "a training day: the race stays on its day")
      }
      guard !here.isEmpty else {
        throw SettingError(
          option: "date", value: "\(from)", allowed: "a day with a workout", suggestion: nextWorkoutDay(after: from))
      }
      let free = { (day: CivilDate) in
        day >= today && day < raceDate && !workouts.contains { $0.date == day }
          && !pauses.contains { $0.contains(day) }
      }
      let nearest = (1...6).flatMap { [to.adding(days: $0), to.adding(days: -$0)] }.first(where: free)
      guard to >= today, to < raceDate else {
        throw SettingError(
          option: "to", value: "\(to)", allowed: "a day from today (\(today)) to the day before the race (\(raceDate))",
          suggestion: nearest?.description)
      }
      if let taken = workouts.first(where: { $0.date == to }) {
        throw SettingError(
          option: "to", value: "\(to)",
          allowed: "a day without a workout (it has \(taken.kind.rawValue) \(units.format(taken.distanceKm)): move or "
            + "skip that one first)", suggestion: nearest?.description)
      }
      guard !pauses.contains(where: { $0.contains(to) }) else {
        throw SettingError(
          option: "to", value: "\(to)", allowed: "a day outside your pauses", suggestion: nearest?.description)
      }
      let key = placedDay(from)
      moves[key] = key == to ? nil : to
      affected = here
      // Two hard days running are the runner's call, said once.
      let hardDays = Set(workouts.filter { $0.date != from && isHard($0) }.map(\.date))
      if here.contains(where: isHard),
        let next = [to.adding(days: -1), to.adding(days: 1)].first(where: hardDays.contains)
      {
        warnings.append(
          "note: \(to.shortLabel) is next to another hard day (\(next.shortLabel)); hard days are usually kept apart")
      }
    case .skip(let days, let reason):
      let text = days.lowerBound == days.upperBound ? "\(days.lowerBound)" : "\(days.lowerBound)..\(days.upperBound)"
      guard days.upperBound >= today else {
        throw SettingError(
          option: "dates", value: text,
          allowed: "today or later days (a missed run in the past needs no skip: replan reads it)")
      }
      let here = trainingDays.filter { days.contains($0.date) }
      guard !here.isEmpty else {
        throw SettingError(
          option: "dates", value: text, allowed: "days with a training workout from today on (not the race)",
          suggestion: nextWorkoutDay(after: max(today, days.lowerBound)))
      }
      for workout in here { skips[placedDay(workout.date)] = reason }
      affected = here
    case .unskip(let days):
      let undone = skips.keys.filter { days.contains(moves[$0] ?? $0) }
      guard !undone.isEmpty else {
        let text = days.lowerBound == days.upperBound ? "\(days.lowerBound)" : "\(days.lowerBound)..\(days.upperBound)"
        throw SettingError(
          option: "dates", value: text, allowed: "days you skipped",
          suggestion: skips.keys.filter { $0 >= today }.min().map(\.description))
      }
      for day in undone { skips[day] = nil }
      affected = []
    }
    saving.moves = moves.isEmpty ? nil : moves.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    saving.skips =
      skips.isEmpty
      ? nil : skips.sorted { $0.key < $1.key }.map { $0.value.isEmpty ? "\($0.key)" : "\($0.key) \($0.value)" }
    let schedule = try saving.schedule(saved.plan)
    var changes: [ExportChange]?
    if let previous = try lastExport(of: saved.plan, in: db) {
      changes = try planCalendar(
        saved.plan, schedule: schedule, settings: saving, previous: previous.calendar,
        comments: try db.coachComments(of: saved.plan), now: now,
        targets: stepTargets(for: try db.profile(named: nil))
      ).changes
    }
    return ScheduleChangeProposal(
      settings: saving, schedule: schedule, affected: affected, warnings: warnings, calendarChanges: changes)
  }

  /// What the runner changed on `day`, for a day left without a workout: `Easy 7 km moved to Thu 10 Dec`,
  /// `Easy 6.9 km skipped (busy)`, `paused (ill)`; nil when nothing was.
  public func changeNote(on day: CivilDate, units: DistanceUnit) -> String? {
    let titles = Dictionary(
      saved.plan.workouts.map { ($0.id, $0.title(in: units)) }, uniquingKeysWith: { first, _ in first })
    if let pause = (try? SettingValues.pauses(settings.pauses ?? []))?.first(where: { $0.dates.contains(day) }) {
      return "paused, \(pause.reason.rawValue)"
    }
    if let to = (try? SettingValues.moves(settings.moves ?? []))?[day] {
      let moved = workouts.first { $0.date == to }.flatMap { titles[$0.workoutID] } ?? "your workout"
      return "\(moved) moved to \(to.shortLabel)"
    }
    if let reason = (try? SettingValues.skips(settings.skips ?? []))?[day] {
      let scheduled = Set(workouts.map(\.workoutID))
      let skipped = saved.plan.workouts.first { $0.date == day && !scheduled.contains($0.id) }.flatMap { titles[$0.id] }
      return "\(skipped ?? "the workout") skipped" + (reason.isEmpty ? "" : ", \(reason)")
    }
    return nil
  }

  /// A hard workout of the plan (quality, long run, race), by its kind.
  private func isHard(_ workout: DatedWorkout) -> Bool {
    saved.plan.workouts.first { $0.id == workout.workoutID }?.hard ?? false
  }
}
