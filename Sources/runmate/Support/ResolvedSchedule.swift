import Foundation
import RunningCore
import Training
import TrainingDomain

extension TrainingState {
  /// The state of `saved`, in the system zone where neither the plan nor the profile names one.
  static func read(_ saved: SavedPlan, db: any TrainingStore, profile: Profile?) throws -> TrainingState {
    try read(saved, db: db, profile: profile, systemZone: TimeZone.current.identifier)
  }
}

/// What `schedule` and `export` work on: a new plan from the goal options given (or from the defaults when there is
/// no database yet and no --plan), else the saved plan, with `request` applied (``scheduleNewPlan``,
/// ``scheduleSavedPlan``). Today is the runner's day, in their profile's zone.
func resolveSchedule(
  goal: GoalOptions, request: ScheduleRequest, templates: TemplateOptions, clock: ClockOptions,
  stores: OpenedStore, name: String?, profile: Profile?
) throws -> ResolvedSchedule {
  let today = try clock.today(inZone: profile?.timeZone)
  if goal.isGiven || (name == nil && !stores.database.exists) {
    let rules = try templates.loadRules()
    return try scheduleNewPlan(
      request: request, profile: profile, rules: rules, units: request.units ?? profile?.units ?? .km, today: today,
      systemZone: TimeZone.current.identifier
    ) { longRunDay in
      try goal.goal(
        today: today, maxWeeks: rules.base.maxWeeks, profile: profile, longRunDay: longRunDay, units: request.units)
    }
  }
  try goal.refuseOnSavedPlan()
  return try scheduleSavedPlan(
    named: name, request: request, profile: profile, store: try stores.store(), today: today,
    systemZone: TimeZone.current.identifier)
}

extension ResolvedSchedule {
  /// Stores the changed settings with the saved plan, then says where the settings came from and what changed.
  func commit(to stores: OpenedStore) throws {
    for line in try commit(to: { try stores.store() }) { writeStandardError(line.worded(by: Flags.name)) }
  }
}
