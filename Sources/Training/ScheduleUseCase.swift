import Foundation
import PlanEngine
import RunningCore
import Scheduling
import TrainingDomain

/// The schedule options as the runner gave them (text, checked when applied): run days, long-run day, start times,
/// time zone, blackouts, busy calendars, race start, reminders and display units.
public struct ScheduleRequest: Sendable, Equatable {
  /// Run days, `mon,wed,fri,sun`.
  public var days: String?
  /// The long-run day, `sat`.
  public var longRunDay: String?
  /// Start times, `06:30` or `sat=08:00`.
  public var times: [String]
  /// The time zone's name.
  public var timeZone: String?
  /// Blackout dates or ranges, in dates or words (`2027-02-14..2027-02-20`, `monday..friday`).
  public var skips: [String]
  /// `.ics` files of the runner's calendar: workouts go where they are free.
  public var busyFiles: [String]
  /// The race's start time.
  public var raceStart: String?
  /// Reminders (`30m`, `20:00-1d`).
  public var reminders: [String]
  /// No reminders at all.
  public var noReminders: Bool
  /// The units of the calendar's titles.
  public var units: DistanceUnit?

  /// A request of the options given.
  public init(
    days: String? = nil, longRunDay: String? = nil, times: [String] = [], timeZone: String? = nil,
    skips: [String] = [], busyFiles: [String] = [], raceStart: String? = nil, reminders: [String] = [],
    noReminders: Bool = false, units: DistanceUnit? = nil
  ) {
    self.days = days
    self.longRunDay = longRunDay
    self.times = times
    self.timeZone = timeZone
    self.skips = skips
    self.busyFiles = busyFiles
    self.raceStart = raceStart
    self.reminders = reminders
    self.noReminders = noReminders
    self.units = units
  }

  /// True when a schedule option is given (days to race start; reminders and units aside).
  public var schedulesGiven: Bool {
    days != nil || longRunDay != nil || !times.isEmpty || timeZone != nil || !skips.isEmpty || !busyFiles.isEmpty
      || raceStart != nil
  }

  /// True when anything is given, reminders and units included: settings the runner chose, saved with a plan.
  public var isGiven: Bool { schedulesGiven || noReminders || !reminders.isEmpty || units != nil }

  /// The profile's defaults that this request overrides.
  public var overrides: Overrides {
    Overrides(
      days: days != nil, longRunDay: longRunDay != nil, timeZone: timeZone != nil,
      reminders: noReminders || !reminders.isEmpty, units: units != nil, raceStart: raceStart != nil)
  }

  /// The long-run day as a weekday, nil when not given.
  public func parsedLongRunDay() throws(SettingError) -> Weekday? {
    try longRunDay.map { text throws(SettingError) in try SettingValues.weekday(text, option: .field(.longRunDay)) }
  }

  /// `base` with everything given applied (busy files read over `plan`'s span), and what changed, in words
  /// (`--at 06:30 (was all-day)`). Values are checked here; the whole result by `ScheduleSettings.preferences()`.
  /// Days said in words (`--skip tomorrow`) are read from `today` and kept as dates.
  public func apply(
    to base: ScheduleSettings, plan: Plan, today: CivilDate
  ) throws -> (settings: ScheduleSettings, changes: [FieldText]) {
    var settings = base
    var changes: [FieldText] = []
    func note(_ field: InputField, _ new: String, _ old: String) {
      if new != old { changes.append("\(field: field) \(new) (was \(old))") }
    }
    if let days {
      let parsed = try SettingValues.runDays(days)
      note(.days, SettingValues.dayList(parsed), settings.runDays.map(SettingValues.dayList) ?? "the plan's days")
      settings.runDays = parsed
    }
    if let day = try parsedLongRunDay() {
      note(.longRunDay, day.rawValue, settings.longRunDay?.rawValue ?? "the race weekday")
      settings.longRunDay = day
    }
    if !times.isEmpty {
      _ = try SettingValues.times(times)
      note(
        .at, times.joined(separator: " "), settings.times.isEmpty ? "all-day" : settings.times.joined(separator: " ")
      )
      settings.times = times
    }
    if let timeZone {
      try checkedTimeZone(timeZone)
      note(.timeZone, timeZone, settings.timeZone)
      settings.timeZone = timeZone
    }
    if !skips.isEmpty {
      let dates = try skips.map { text throws(SettingError) in
        let range = try SettingValues.dateRange(text, option: .field(.skip), today: today)
        return range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)..\(range.upperBound)"
      }
      note(
        .skip, dates.joined(separator: " "),
        settings.blackouts.isEmpty ? "none" : settings.blackouts.joined(separator: " "))
      settings.blackouts = dates
    }
    if let raceStart {
      _ = try SettingValues.raceStart(raceStart)
      note(.raceStart, raceStart, settings.raceStart ?? "all-day")
      settings.raceStart = raceStart
    }
    if !busyFiles.isEmpty {
      let busy = try CalendarFiles.busyTimes(in: busyFiles, over: plan, timeZoneID: settings.timeZone)
      changes.append("\(field: .busy) \(busyFiles.joined(separator: " ")) (\(busy.count) busy times read)")
      settings.busyFiles = busyFiles
      settings.busy = busy
    }
    if let runDays = settings.runDays, let longRun = settings.longRunDay, !runDays.contains(longRun) {
      throw SettingError(
        option: .field(.longRunDay), value: longRun.rawValue,
        allowed: "one of the run days (\(SettingValues.dayList(runDays)))")
    }
    if noReminders || !reminders.isEmpty {
      let old = settings.reminders.map { $0.isEmpty ? "none" : $0.joined(separator: " ") } ?? "the default ones"
      if noReminders {
        settings.reminders = []
        if old != "none" { changes.append("\(field: .noRemind) (was \(old))") }
      } else {
        _ = try SettingValues.reminders(reminders)
        settings.reminders = reminders
        note(.remind, reminders.joined(separator: " "), old)
      }
    }
    if let units {
      if units != (settings.units ?? .km) {
        changes.append("\(field: .units) \(units.rawValue) (was \((settings.units ?? .km).rawValue))")
      }
      settings.units = units
    }
    return (settings, changes)
  }
}

/// A plan on its days, as the runner reads it: each week's workouts with their times and the days they moved from,
/// and the scheduler's notes. Encodes as the schedule's JSON (`runmate.schedule`).
public struct ScheduleView: Sendable, Encodable {
  /// One workout on its day.
  public struct Row: Sendable {
    /// The workout, on the day it is done.
    public let workout: Workout
    /// Its start time (`06:30`), nil for an all-day workout.
    public let time: String?
    /// The day the plan had it on, when the scheduler moved it.
    public let plannedDate: CivilDate?
  }

  /// One week's rows.
  public struct WeekRows: Sendable {
    /// The plan's week.
    public let week: Week
    /// Its workouts on their days.
    public let rows: [Row]
    /// The distance its workouts add up to.
    public var planned: Distance { rows.map(\.workout.distance).sum() }
  }

  /// One note of the scheduler: a workout moved, dropped or in conflict, or a start the clocks skip.
  public struct Note: Sendable {
    /// `moved`, `dropped`, `conflict` or `shifted`.
    public let kind: String
    /// What happened, in words (titles in kilometres).
    public let text: String
    /// True for a move from the plan's day onto one of the runner's run days.
    public let toRunDay: Bool
    /// True for a start time the clocks skip that day (moved past the gap).
    public let isShifted: Bool
  }

  let schedule: Schedule

  init(_ schedule: Schedule) { self.schedule = schedule }

  /// `plan` on its days with `settings`.
  public init(_ plan: Plan, settings: ScheduleSettings) throws { self.init(try settings.schedule(plan)) }

  /// The plan scheduled.
  public var plan: Plan { schedule.plan }
  /// The time zone the times are in.
  public var timeZoneID: String { schedule.timeZoneID }
  /// The weeks.
  public var weeks: [WeekRows] {
    schedule.weeks.map { week in
      WeekRows(
        week: week.week,
        rows: week.workouts.map { Row(workout: $0.workout, time: $0.time?.description, plannedDate: $0.plannedDate) })
    }
  }
  /// The scheduler's notes.
  public var notes: [Note] {
    schedule.notes.map {
      Note(kind: $0.kind.rawValue, text: $0.text, toRunDay: $0.toRunDay, isShifted: $0.kind == .shifted)
    }
  }
  /// The workouts as stored with the plan.
  public var datedWorkouts: [DatedWorkout] { schedule.datedWorkouts }

  /// Encodes the schedule (`runmate.schedule`).
  public func encode(to encoder: any Encoder) throws { try schedule.encode(to: encoder) }
}

/// What `plan`, `schedule` and `export` work on: the plan (new from a goal, or saved), the settings in effect, the
/// plan on its days, and the lines to tell the runner (the profile's defaults used, saved settings changed).
public struct ResolvedSchedule: Sendable {
  /// The plan.
  public let plan: Plan
  /// The saved plan, nil for a new one.
  public let saved: SavedPlan?
  /// The settings in effect.
  public let settings: ScheduleSettings
  /// The plan on its days.
  public let schedule: ScheduleView
  /// The profile's defaults used (`from profile 'ana': …`), to say once the command succeeded.
  public let announcement: String?
  /// What to store with the saved plan once the command's output is written (``commit(to:)``), and the line that
  /// says so; nil when nothing changed.
  public let pending: (settings: ScheduleSettings?, workouts: [DatedWorkout], message: FieldText?)?

  /// Stores the changed settings and dated workouts with the saved plan; the lines to say (where the settings came
  /// from, what changed).
  public func commit(to store: () throws -> any TrainingStore) throws -> [FieldText] {
    if let saved, let pending {
      try store().saveSchedule(planID: saved.id, settings: pending.settings, workouts: pending.workouts)
    }
    return [announcement.map { FieldText($0) }, pending?.message].compactMap { $0 }
  }
}

/// A new plan for the goal `goal` makes (given the long-run day in effect), fitted to the run days in effect, and
/// the settings it is scheduled with: the request over the profile's defaults (the system zone where the profile
/// names none), the plan in `units`. Not yet on its days (``ScheduleView/init(_:settings:)``): `plan` without
/// `--save` prints the plan alone.
public func newPlan(
  request: ScheduleRequest, profile: Profile?, rules: PlanRules, units: DistanceUnit, today: CivilDate,
  systemZone: String, goal: (Weekday?) throws -> Goal
) throws -> (plan: Plan, settings: ScheduleSettings, announcement: String?) {
  let fromProfile = profileSettings(profile, overrides: request.overrides, systemZone: systemZone)
  var base = fromProfile.settings
  if let days = request.days { base.runDays = try SettingValues.runDays(days) }
  if let day = try request.parsedLongRunDay() { base.longRunDay = day }
  let plan = try fittingRunDays(
    try goal(base.longRunDay), plan: { try makePlan(goal: $0, rules: rules, units: units) }, settings: base,
    source: runDaysSource(given: request.days != nil, profile))
  let settings = try request.apply(to: fromProfile.settings, plan: plan, today: today).settings
  return (plan, settings, fromProfile.announcement)
}

/// A new plan (``newPlan(request:profile:rules:units:today:systemZone:goal:)``) on its days.
public func scheduleNewPlan(
  request: ScheduleRequest, profile: Profile?, rules: PlanRules, units: DistanceUnit, today: CivilDate,
  systemZone: String, goal: (Weekday?) throws -> Goal
) throws -> ResolvedSchedule {
  let new = try newPlan(
    request: request, profile: profile, rules: rules, units: units, today: today, systemZone: systemZone, goal: goal)
  return ResolvedSchedule(
    plan: new.plan, saved: nil, settings: new.settings, schedule: try ScheduleView(new.plan, settings: new.settings),
    announcement: new.announcement, pending: nil)
}

/// The saved plan `name` (the active plan when nil) on its days. The options given change its saved settings
/// (stored with the new schedule by ``ResolvedSchedule/commit(to:)``, and said); without options, its saved settings
/// (else the profile's defaults) are used as they are.
public func scheduleSavedPlan(
  named name: String?, request: ScheduleRequest, profile: Profile?, store: any TrainingStore, today: CivilDate,
  systemZone: String
) throws -> ResolvedSchedule {
  let saved = try store.plan(named: name)
  let inEffect = try settingsInEffect(
    of: saved, in: store, profile: profile, overrides: request.overrides, systemZone: systemZone)
  let stored = inEffect.stored
  let (settings, changes) = try request.apply(to: inEffect.settings, plan: saved.plan, today: today)
  let source: FieldText =
    stored != nil && request.days == nil ? "the plan's settings" : runDaysSource(given: request.days != nil, profile)
  try checkRunDays(saved.plan, name: saved.name, settings: settings, source: source)
  let schedule = try settings.schedule(saved.plan)
  let dated = schedule.datedWorkouts
  var pending: (settings: ScheduleSettings?, workouts: [DatedWorkout], message: FieldText?)?
  if !changes.isEmpty {
    let listed = changes.dropFirst().reduce(changes[0]) { $0 + ", " + $1 }
    pending = (settings, dated, "schedule settings of '\(saved.name)' updated: \(listed)")
  } else if Set(try store.scheduledWorkouts(of: saved)) != Set(dated) {
    pending = (stored, dated, nil)
  }
  return ResolvedSchedule(
    plan: saved.plan, saved: saved, settings: settings, schedule: ScheduleView(schedule),
    announcement: inEffect.announcement, pending: pending)
}

/// Where run days come from, for messages: the days field, `profile 'ana'` or the saved plan.
public func runDaysSource(given: Bool, _ profile: Profile?) -> FieldText {
  given ? "\(field: .days)" : profile.map { "profile '\($0.name)'" } ?? "the saved plan"
}

/// The `plan --save` use case: `plan` saved as `name` (default: its distance and race date) and made the active plan,
/// with its workouts on the days of `settings`, and assigned to `profile`. The settings are stored with it when they
/// were given (`settingsGiven`) or taken from the profile; without either, none are (the plan then follows the
/// defaults in effect, as before settings were saved).
/// `now` is when it is saved (which races count for it start from that day at the latest).
/// - Returns: The saved plan, and the plan on its days (its notes for the runner).
public func saveNewPlan(
  _ plan: Plan, name: String?, settings: ScheduleSettings, settingsGiven: Bool, profile: Profile?,
  in store: any TrainingStore, now: Date
) throws -> (saved: SavedPlan, schedule: ScheduleView) {
  let schedule = try ScheduleView(plan, settings: settings)
  let kept = settingsGiven || profile != nil ? settings : nil
  let saved = try store.savePlan(
    plan, name: name ?? "\(plan.goal.distance.rawValue)-\(plan.goal.raceDate)", activate: true,
    schedule: (kept, schedule.datedWorkouts), savedAt: now)
  if let id = profile?.id { try store.assignPlan(saved.id, toProfile: id) }
  return (saved, schedule)
}
