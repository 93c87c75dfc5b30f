import Foundation
import PlanEngine
import RunningCore
import Scheduling
import Training
import TrainingDomain

/// The profile's defaults a plan without saved settings is scheduled with, and the line announcing those used
/// (the options given here override them; the system zone where the profile names none).
func profileDefaults(
  _ profile: Profile?, options: ScheduleOptions? = nil, reminders: ReminderOptions? = nil,
  unitsGiven: Bool = false
) -> (settings: ScheduleSettings, announcement: String?) {
  let overrides = Overrides(
    days: options?.days != nil, longRunDay: options?.longRunDay != nil,
    timeZone: options?.timeZone != nil,
    reminders: !(reminders?.reminders.isEmpty ?? true) || (reminders?.noReminders ?? false),
    units: unitsGiven, raceStart: options?.raceStart != nil)
  return Training.profileSettings(profile, overrides: overrides, systemZone: TimeZone.current.identifier)
}

extension TrainingState {
  /// The state of `saved`, in the system zone where neither the plan nor the profile names one.
  static func read(_ saved: SavedPlan, db: any TrainingStore, profile: Profile?) throws -> TrainingState {
    try read(saved, db: db, profile: profile, systemZone: TimeZone.current.identifier)
  }
}

/// What `schedule` and `export` work on: the plan (new from the goal options, or saved), the settings in effect and
/// the schedule, with the lines to tell the runner (profile defaults used, saved settings changed).
struct ResolvedSchedule {
  var plan: Plan
  var saved: SavedPlan?
  var settings: ScheduleSettings
  var schedule: Schedule
  /// Lines for standard error once the command succeeded (a failure is one line): the profile's defaults used.
  var messages: [String]
  /// What to store with the saved plan once the command's output is written (``commit(to:)``), and the line that
  /// says so.
  var pending: (settings: ScheduleSettings?, workouts: [DatedWorkout], message: String?)?

  /// Stores the changed settings and dated workouts with the saved plan, then says where the settings came from
  /// and what changed.
  func commit(to database: DatabaseOptions) throws {
    if let saved, let pending {
      try database.open().saveSchedule(planID: saved.id, settings: pending.settings, workouts: pending.workouts)
    }
    for line in messages { writeStandardError(line) }
    if let message = pending?.message { writeStandardError(message) }
  }

  /// Resolves the plan and its settings. For a saved plan, the options given change its saved settings (stored
  /// with the new schedule, and said); without options, its saved settings are used as they are.
  static func resolve(
    goal: GoalOptions, options: ScheduleOptions, reminders: ReminderOptions?, units: String?,
    templates: TemplateOptions, clock: ClockOptions, database: DatabaseOptions, name: String?,
    profile: Profile?
  ) throws -> ResolvedSchedule {
    let unit = try units.map { try OptionValues.unit($0, option: "--units") }
    var messages: [String] = []
    let fromProfile = profileDefaults(profile, options: options, reminders: reminders, unitsGiven: units != nil)
    if goal.isGiven || (name == nil && !database.exists) {
      var base = fromProfile.settings
      if let days = options.days { base.runDays = try SettingValues.runDays(days) }
      if let day = try options.parsedLongRunDay() { base.longRunDay = day }
      let rules = try templates.loadRules()
      let resolvedGoal = try goal.goal(
        today: try clock.today(), maxWeeks: rules.base.maxWeeks, profile: profile, longRunDay: base.longRunDay,
        units: unit)
      let plan = try fittingRunDays(
        resolvedGoal,
        plan: { try makePlan(goal: $0, rules: rules, units: unit ?? base.units ?? .km) },
        settings: base, source: runDaysSource(given: options.days != nil, profile))
      var settings = try options.apply(to: fromProfile.settings, plan: plan, today: try clock.today()).settings
      if let reminders { settings = try reminders.apply(to: settings).settings }
      if let unit { settings.units = unit }
      if let line = fromProfile.announcement { messages.append(line) }
      let schedule = try settings.schedule(plan)
      return ResolvedSchedule(
        plan: plan, saved: nil, settings: settings, schedule: schedule, messages: messages,
        pending: nil)
    }
    try goal.refuseOnSavedPlan()
    let db = try database.open()
    let saved = try db.plan(named: name)
    let stored = try db.scheduleSettings(ofPlan: saved.id)
    if stored == nil, let line = fromProfile.announcement { messages.append(line) }
    var (settings, changes) = try options.apply(
      to: stored ?? fromProfile.settings, plan: saved.plan, today: try clock.today())
    if let reminders {
      let applied = try reminders.apply(to: settings)
      settings = applied.settings
      changes += applied.changes
    }
    if let unit, unit != (settings.units ?? .km) {
      changes.append("--units \(unit.rawValue) (was \((settings.units ?? .km).rawValue))")
    }
    if let unit { settings.units = unit }
    let source =
      options.days != nil
      ? "--days"
      : stored != nil
        ? "the plan's settings"
        : profile.map { "profile '\($0.name)'" } ?? "--days"
    try checkRunDays(saved.plan, name: saved.name, settings: settings, source: source)
    let schedule = try settings.schedule(saved.plan)
    let dated = schedule.datedWorkouts
    var pending: (settings: ScheduleSettings?, workouts: [DatedWorkout], message: String?)?
    if !changes.isEmpty {
      pending = (settings, dated, "schedule settings of '\(saved.name)' updated: \(changes.joined(separator: ", "))")
    } else if Set(try db.scheduledWorkouts(of: saved)) != Set(dated) {
      pending = (stored, dated, nil)
    }
    return ResolvedSchedule(
      plan: saved.plan, saved: saved, settings: settings, schedule: schedule, messages: messages,
      pending: pending)
  }
}

/// Where run days come from, for messages: `--days`, `profile 'ana'` or the saved plan.
func runDaysSource(given: Bool, _ profile: Profile?) -> String {
  given ? "--days" : profile.map { "profile '\($0.name)'" } ?? "the saved plan"
}
