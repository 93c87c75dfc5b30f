import Foundation
import Logbook
import PlanEngine
import Scheduling

/// The settings a plan without saved ones is scheduled with: the profile's defaults (run days, long-run day, time
/// zone, reminders, units), else the plan's pattern in the system zone; and the line announcing the profile's
/// defaults that are used (those the command line does not override).
func profileSettings(_ profile: Profile?, options: ScheduleOptions? = nil, reminders: ReminderOptions? = nil,
                     unitsGiven: Bool = false) -> (settings: ScheduleSettings, announcement: String?) {
  let settings = ScheduleSettings(runDays: profile?.runDays.flatMap { $0.isEmpty ? nil : $0 },
                                  longRunDay: profile?.longRunDay,
                                  timeZone: profile?.timeZone ?? TimeZone.current.identifier,
                                  reminders: profile?.reminders.flatMap { $0.isEmpty ? nil : $0 },
                                  units: profile?.units)
  guard let profile else { return (settings, nil) }
  var used: [String] = []
  if let days = settings.runDays, options?.days == nil { used.append(dayList(days)) }
  if let day = profile.longRunDay, options?.longRunDay == nil { used.append("long run \(day.rawValue)") }
  if let zone = profile.timeZone, options?.timeZone == nil { used.append(zone) }
  if let texts = settings.reminders, reminders?.reminders.isEmpty ?? true, !(reminders?.noReminders ?? false) {
    used.append("reminders \(texts.joined(separator: " "))")
  }
  if let units = profile.units, !unitsGiven { used.append(units.rawValue) }
  guard !used.isEmpty else { return (settings, nil) }
  return (settings, "from profile '\(profile.name)': \(used.joined(separator: ", "))")
}

/// A goal whose runs a week fit the run days: more runs than run days is an error naming both values and the fix;
/// without `--runs-per-week`, a level's default above the run days is lowered to them.
func fittingRunDays(_ goal: Goal, plan: (Goal) throws -> Plan, settings: ScheduleSettings,
                    daysGiven: Bool, profile: Profile?) throws -> Plan {
  guard let days = settings.runDays else { return try plan(goal) }
  let source = daysGiven ? "--days" : profile.map { "profile '\($0.name)'" } ?? "the saved plan"
  if let runs = goal.runsPerWeek, runs > days.count {
    throw CLIError.invalidOption(
      option: "--runs-per-week", value: String(runs),
      allowed: "at most \(days.count), one run a day on the \(days.count) run days (\(dayList(days)) from \(source)); "
        + "give --days with \(runs) days or --runs-per-week \(days.count)", suggestion: nil)
  }
  let made = try plan(goal)
  guard made.goal.runsPerWeek > days.count else { return made }
  guard days.count >= 3 else {
    throw CLIError.invalidOption(
      option: "--days", value: dayList(days),
      allowed: "at least 3 run days (from \(source)): a plan has 3 to 7 runs a week; give --days with 3 or more days",
      suggestion: nil)
  }
  var fitted = goal
  fitted.runsPerWeek = days.count
  return try plan(fitted)
}

/// A saved plan whose runs a week do not fit the run days is an error naming both values and the fix.
func checkRunDays(_ plan: Plan, name: String, settings: ScheduleSettings, source: String) throws {
  guard let days = settings.runDays else { return }
  let most = plan.weeks.map(\.workouts.count).max() ?? 0
  if most > days.count {
    throw CLIError.invalidOption(
      option: "--days", value: dayList(days),
      allowed: "at least \(most) run days for plan '\(name)' (\(most) runs a week; days from \(source)); give --days "
        + "with \(most) days, or make the plan again with --runs-per-week \(days.count)", suggestion: nil)
  }
}

/// The schedule's workouts as stored with the plan.
func datedWorkouts(_ schedule: Schedule) -> [DatedWorkout] {
  schedule.weeks.flatMap { week in
    week.workouts.map { item in
      DatedWorkout(workoutID: item.workout.id, week: week.week.number, date: item.workout.date,
                   plannedDate: item.plannedDate ?? item.workout.date, startMinute: item.time?.minutes,
                   timeZoneID: schedule.timeZoneID, kind: item.workout.kind, distanceKm: item.workout.distanceKm)
    }
  }
}

/// A saved plan with the settings in effect and its workouts on their days: what `today`, `week`, `progress`,
/// `report` and `replan` read.
struct TrainingState {
  let saved: SavedPlan
  /// The settings in effect: the plan's saved ones, else the profile's defaults.
  let settings: ScheduleSettings
  /// The settings saved with the plan (nil: none, the old behaviour).
  let stored: ScheduleSettings?
  /// The workouts on their scheduled days.
  let workouts: [DatedWorkout]
  /// Where the settings came from, when from the profile (`from profile 'ana': …`).
  let announcement: String?

  /// The plan with every workout on its scheduled day.
  var plan: Plan { saved.plan.scheduled(workouts) }

  /// Reads the state of `saved`: its stored dated workouts, else the schedule worked out from its settings (or the
  /// profile's defaults), else the plan's own dates when the calendar leaves no room.
  static func read(_ saved: SavedPlan, db: LogbookDatabase, profile: Profile?) throws -> TrainingState {
    let stored = try db.scheduleSettings(ofPlan: saved.id)
    let fallback = profileSettings(profile)
    let settings = stored ?? fallback.settings
    var workouts = try db.scheduledWorkouts(of: saved)
    if workouts.isEmpty {
      if let schedule = try? makeSchedule(saved.plan, preferences: try preferences(from: settings),
                                          busy: busyIntervals(from: settings)) {
        workouts = datedWorkouts(schedule)
      } else {
        workouts = saved.plan.weeks.flatMap { week in
          week.workouts.map {
            DatedWorkout(workoutID: $0.id, week: week.number, date: $0.date, plannedDate: $0.date, startMinute: nil,
                         timeZoneID: settings.timeZone, kind: $0.kind, distanceKm: $0.distanceKm)
          }
        }
      }
    }
    return TrainingState(saved: saved, settings: settings, stored: stored, workouts: workouts,
                         announcement: stored == nil ? fallback.announcement : nil)
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
  static func resolve(goal: GoalOptions, options: ScheduleOptions, reminders: ReminderOptions?, units: String?,
                      templates: TemplateOptions, clock: ClockOptions, database: DatabaseOptions, name: String?,
                      profile: Profile?) throws -> ResolvedSchedule {
    let unit = try units.map { text throws -> DistanceUnit in
      guard let unit = DistanceUnit(rawValue: text.lowercased()) else {
        throw CLIError.invalidOption(option: "--units", value: text, allowed: "km, mi", suggestion: nil)
      }
      return unit
    }
    var messages: [String] = []
    let fromProfile = profileSettings(profile, options: options, reminders: reminders, unitsGiven: units != nil)
    if goal.isGiven || (name == nil && !FileManager.default.fileExists(atPath: database.path)) {
      var base = fromProfile.settings
      if let days = options.days { base.runDays = try parseRunDays(days) }
      let rules = try templates.loadRules()
      let resolvedGoal = try goal.goal(today: try clock.today(), maxWeeks: rules.base.maxWeeks, profile: profile)
      let plan = try fittingRunDays(resolvedGoal,
                                    plan: { try makePlan(goal: $0, rules: rules, units: unit ?? base.units ?? .km) },
                                    settings: base, daysGiven: options.days != nil, profile: profile)
      var settings = try options.apply(to: fromProfile.settings, plan: plan).settings
      if let reminders { settings = try reminders.apply(to: settings).settings }
      if let unit { settings.units = unit }
      if let line = fromProfile.announcement { messages.append(line) }
      let schedule = try makeSchedule(plan, preferences: try preferences(from: settings),
                                      busy: busyIntervals(from: settings))
      return ResolvedSchedule(plan: plan, saved: nil, settings: settings, schedule: schedule, messages: messages,
                              pending: nil)
    }
    try goal.refuseOnSavedPlan()
    let db = try database.open()
    let saved = try db.plan(named: name)
    let stored = try db.scheduleSettings(ofPlan: saved.id)
    if stored == nil, let line = fromProfile.announcement { messages.append(line) }
    var (settings, changes) = try options.apply(to: stored ?? fromProfile.settings, plan: saved.plan)
    if let reminders {
      let applied = try reminders.apply(to: settings)
      settings = applied.settings
      changes += applied.changes
    }
    if let unit, unit != (settings.units ?? .km) {
      changes.append("--units \(unit.rawValue) (was \((settings.units ?? .km).rawValue))")
    }
    if let unit { settings.units = unit }
    let source = options.days != nil ? "--days" : stored != nil ? "the plan's settings"
      : profile.map { "profile '\($0.name)'" } ?? "--days"
    try checkRunDays(saved.plan, name: saved.name, settings: settings, source: source)
    let schedule = try makeSchedule(saved.plan, preferences: try preferences(from: settings),
                                    busy: busyIntervals(from: settings))
    let dated = datedWorkouts(schedule)
    var pending: (settings: ScheduleSettings?, workouts: [DatedWorkout], message: String?)?
    if !changes.isEmpty {
      pending = (settings, dated, "schedule settings of '\(saved.name)' updated: \(changes.joined(separator: ", "))")
    } else if Set(try db.scheduledWorkouts(of: saved)) != Set(dated) {
      pending = (stored, dated, nil)
    }
    return ResolvedSchedule(plan: saved.plan, saved: saved, settings: settings, schedule: schedule, messages: messages,
                            pending: pending)
  }
}
