import Foundation
import Ingest
import Logbook
import PlanEngine
import RunningCore
import Scheduling
import TrainingDomain
import TrainingProgress

/// Which of a profile's defaults the command line overrides (they are not announced as used).
public struct Overrides: Sendable {
  /// `--days` given.
  public var days = false
  /// `--long-run-day` given.
  public var longRunDay = false
  /// `--tz` given.
  public var timeZone = false
  /// `--remind` or `--no-remind` given.
  public var reminders = false
  /// `--units` given.
  public var units = false
  /// `--race-start` given.
  public var raceStart = false

  /// Which defaults are overridden.
  public init(
    days: Bool = false, longRunDay: Bool = false, timeZone: Bool = false, reminders: Bool = false,
    units: Bool = false, raceStart: Bool = false
  ) {
    self.days = days
    self.longRunDay = longRunDay
    self.timeZone = timeZone
    self.reminders = reminders
    self.units = units
    self.raceStart = raceStart
  }
}

/// The settings a plan without saved ones is scheduled with: the profile's defaults (run days, long-run day, time
/// zone, reminders, units), else the plan's pattern in `systemZone`; and the line announcing the profile's defaults
/// that are used (those the command line does not override).
public func profileSettings(
  _ profile: Profile?, overrides: Overrides = Overrides(),
  systemZone: String
) -> (settings: ScheduleSettings, announcement: String?) {
  let settings = ScheduleSettings(
    runDays: profile?.runDays.flatMap { $0.isEmpty ? nil : $0 },
    longRunDay: profile?.longRunDay, timeZone: profile?.timeZone ?? systemZone,
    reminders: profile?.reminders.flatMap { $0.isEmpty ? nil : $0 },
    units: profile?.units, raceStart: profile?.raceStart)
  guard let profile else { return (settings, nil) }
  var used: [String] = []
  if let days = settings.runDays, !overrides.days { used.append(SettingValues.dayList(days)) }
  if let day = profile.longRunDay, !overrides.longRunDay { used.append("long run \(day.rawValue)") }
  if let zone = profile.timeZone, !overrides.timeZone { used.append(zone) }
  if let texts = settings.reminders, !overrides.reminders { used.append("reminders \(texts.joined(separator: " "))") }
  if let units = profile.units, !overrides.units { used.append(units.rawValue) }
  if let start = profile.raceStart, !overrides.raceStart { used.append("race start \(start)") }
  guard !used.isEmpty else { return (settings, nil) }
  return (settings, "from profile '\(profile.name)': \(used.joined(separator: ", "))")
}

/// The settings `saved` is scheduled with, the one rule for every command, the feed and sync: the settings saved
/// with it, else the profile's defaults (``profileSettings(_:overrides:systemZone:)``); `stored` is nil when it has
/// none, and `announcement` names the profile's defaults when they are used.
public func settingsInEffect(
  of saved: SavedPlan, in store: any TrainingStore, profile: Profile?, overrides: Overrides = Overrides(),
  systemZone: String
) throws -> (settings: ScheduleSettings, stored: ScheduleSettings?, announcement: String?) {
  let stored = try store.scheduleSettings(ofPlan: saved.id)
  if let stored { return (stored, stored, nil) }
  let fromProfile = profileSettings(profile, overrides: overrides, systemZone: systemZone)
  return (fromProfile.settings, nil, fromProfile.announcement)
}

/// The plan for `goal` laid on the run days and long-run day of `settings` (``Goal/runDays``, ``Goal/longRunDay``),
/// so that scheduling it moves nothing for run-day reasons. More runs than run days is an error naming both values
/// and the fix; without `--runs-per-week`, a level's default above the run days is lowered to them (by the engine).
/// `source` says where the run days came from (the days field, `profile 'ana'`).
public func fittingRunDays(
  _ goal: Goal, plan: (Goal) throws -> Plan, settings: ScheduleSettings,
  source: FieldText
) throws -> Plan {
  var goal = goal
  goal.longRunDay = settings.longRunDay
  guard let days = settings.runDays else { return try plan(goal) }
  let list = SettingValues.dayList(days)
  if let runs = goal.runsPerWeek, runs > days.count {
    throw SettingError(
      option: .field(.runsPerWeek), value: String(runs),
      allowed: "at most \(days.count), one run a day on the \(days.count) run days (\(list) from \(source)); "
        + "give \(field: .days) with \(runs) days or \(field: .runsPerWeek) \(days.count)")
  }
  guard days.count >= 3 else {
    throw SettingError(
      option: .field(.days), value: list,
      allowed:
        "at least 3 run days (from \(source)): a plan has 3 to 7 runs a week; give \(field: .days) with 3 or more days")
  }
  goal.runDays = days
  return try plan(goal)
}

/// A saved plan whose runs a week do not fit the run days is an error naming both values and the fix.
public func checkRunDays(
  _ plan: Plan, name: String, settings: ScheduleSettings,
  source: FieldText
) throws(SettingError) {
  guard let days = settings.runDays else { return }
  let most = plan.weeks.map { $0.workouts.filter(\.kind.isRun).count }.max() ?? 0
  if most > days.count {
    throw SettingError(
      option: .field(.days), value: SettingValues.dayList(days),
      allowed: "at least \(most) run days for plan '\(name)' (\(most) runs a week; days from \(source)); give "
        + "\(field: .days) with \(most) days, or make the plan again with \(field: .runsPerWeek) \(days.count)")
  }
}

extension Schedule {
  /// The schedule's workouts as stored with the plan.
  public var datedWorkouts: [DatedWorkout] {
    weeks.flatMap { week in
      week.workouts.map { item in
        DatedWorkout(
          workoutID: item.workout.id, week: week.week.number, date: item.workout.date,
          plannedDate: item.plannedDate ?? item.workout.date, startMinute: item.time?.minutes,
          timeZoneID: timeZoneID, kind: item.workout.kind, distanceKm: item.workout.distanceKm)
      }
    }
  }
}

/// A saved plan with the settings in effect and its workouts on their days: what `today`, `week`, `progress`,
/// `report`, matching and `replan` read, so that the terminal and the calendar tell one story.
public struct TrainingState: Sendable {
  /// The saved plan (its workouts on the plan's own days).
  public let saved: SavedPlan
  /// The settings in effect: the plan's saved ones, else the profile's defaults.
  public let settings: ScheduleSettings
  /// The settings saved with the plan (nil: none, the old behaviour).
  public let stored: ScheduleSettings?
  /// The workouts on their scheduled days.
  public let workouts: [DatedWorkout]
  /// Where the settings came from, when from the profile (`from profile 'ana': …`).
  public let announcement: String?
  /// The profile's units, where it names them.
  public let profileUnits: DistanceUnit?
  /// The profile's resting and maximum heart rates, when it has both: runs with a heart rate are loaded by TRIMP.
  public var heartRates: HeartRates? = nil

  /// The plan with every workout on its scheduled day.
  public var plan: Plan { saved.plan.scheduled(workouts) }

  /// The units the plan speaks (the unit a replan writes its titles in): its saved settings', else the profile's,
  /// else km. Text output is in the display unit (`DistanceUnit.display`: `--units`, the profile's, the plan's, km),
  /// which re-renders the titles where the two differ.
  public var units: DistanceUnit { settings.units ?? profileUnits ?? .km }

  /// Reads the state of `saved`: its stored dated workouts, else the schedule worked out from its settings (or the
  /// profile's defaults), else the plan's own dates when the calendar leaves no room.
  public static func read(
    _ saved: SavedPlan, db: any TrainingStore, profile: Profile?,
    systemZone: String
  ) throws -> TrainingState {
    let (settings, stored, announcement) = try settingsInEffect(
      of: saved, in: db, profile: profile, systemZone: systemZone)
    var workouts = try db.scheduledWorkouts(of: saved)
    if workouts.isEmpty {
      // A zone no calendar can be written in is the runner's to fix (the error says how); no room falls back.
      try checkedTimeZone(settings.timeZone, origin: .saved)
      if let schedule = try? settings.schedule(saved.plan) {
        workouts = schedule.datedWorkouts
      } else {
        workouts = saved.plan.weeks.flatMap { week in
          week.workouts.map {
            DatedWorkout(
              workoutID: $0.id, week: week.number, date: $0.date, plannedDate: $0.date, startMinute: nil,
              timeZoneID: settings.timeZone, kind: $0.kind, distanceKm: $0.distanceKm)
          }
        }
      }
    }
    return TrainingState(
      saved: saved, settings: settings, stored: stored, workouts: workouts,
      announcement: announcement, profileUnits: profile?.units,
      heartRates: HeartRates(resting: profile?.restingHeartRate, maximum: profile?.maxHeartRate))
  }

  /// The progress of the plan on its scheduled days on `today` (``makeProgress(plan:completions:today:health:paused:
  /// heart:)``): the saved pauses excused, each run's load by the profile's heart rates when the run has one.
  public func progress(_ completions: [Completion], today: CivilDate, health: [HealthDay] = []) -> ProgressReport {
    makeProgress(
      plan: plan, completions: completions, today: today, health: health, paused: pauses, heart: heartRates)
  }

  /// The planned workouts runs are matched to: each workout on its scheduled day (so a workout the scheduler moved
  /// matches on its new day, and one it dropped never matches). Cross-training and strength days are not runs: a
  /// run never matches them, and a day that holds only one of them is a rest day for matching.
  public var plannedSlots: [PlannedSlot] { Training.plannedSlots(of: saved.plan, on: workouts) }
}

/// The planned workouts runs are matched to, of `plan` with its workouts on the days `workouts` give them
/// (``TrainingState/plannedSlots``).
public func plannedSlots(of plan: Plan, on workouts: [DatedWorkout]) -> [PlannedSlot] {
  let weekStarts = Dictionary(plan.weeks.map { ($0.number, $0.start) }, uniquingKeysWith: { first, _ in first })
  return workouts.filter(\.kind.isRun).map { workout in
    PlannedSlot(
      workoutID: workout.workoutID, date: workout.date, kind: workout.kind, distanceKm: workout.distanceKm,
      weekStart: weekStarts[workout.week])
  }
}
