import Foundation
import PlanEngine
import RunningCore

/// How a saved plan is laid onto the runner's calendar, kept with the plan so that `schedule`, `export`, `today`,
/// `week` and `replan` all use the same days and times.
///
/// Values are kept as the runner gave them (`06:30`, `2027-02-14..2027-02-20`, `30m`); the CLI checked them when
/// they were given and reads them back the same way.
public struct ScheduleSettings: Sendable, Hashable, Codable {
  /// Run days; nil keeps the plan's weekly pattern.
  public var runDays: [Weekday]?
  /// The long-run day; nil keeps the plan's (the race weekday).
  public var longRunDay: Weekday?
  /// Start times, each as given to `--at`: `06:30` (every day) or `sat=08:00`. Empty: all-day workouts.
  public var times: [String]
  /// IANA time zone.
  public var timeZone: String
  /// Blackout dates or ranges, as given to `--skip`.
  public var blackouts: [String]
  /// The busy calendars given to `--busy`, for the record.
  public var busyFiles: [String]
  /// The busy time read from them over the plan's span, so a later export without the files schedules the same.
  public var busy: [BusyTime]
  /// Reminders as given to `--remind`; nil for the default ones, empty for none (`--no-remind`).
  public var reminders: [String]?
  /// Units for event titles and tables; nil for km.
  public var units: DistanceUnit?
  /// The race's start time (`09:00`); nil for an all-day race event (or the day's `--at` time).
  public var raceStart: String?
  /// Pauses saved by `pause` or `replan --pause … --apply`, as `FROM..TO REASON` (`2027-01-25..2027-01-27 ill`):
  /// their days stay without running in every later replan, export and feed. Nil: none (and older databases).
  public var pauses: [String]?
  /// The runner's moves (`runmate move`), as `FROM TO` (`2027-01-12 2027-01-13`): the workout scheduled on FROM is on
  /// TO instead, in every later replan, export and feed. Nil: none.
  public var moves: [String]?
  /// The runner's skips (`runmate skip`), as `DAY REASON` (`2027-01-12 ill`, the reason optional): the workout
  /// scheduled on DAY is left out. Nil: none.
  public var skips: [String]?

  /// Creates settings; everything but the time zone is optional.
  public init(
    runDays: [Weekday]? = nil, longRunDay: Weekday? = nil, times: [String] = [], timeZone: String,
    blackouts: [String] = [], busyFiles: [String] = [], busy: [BusyTime] = [], reminders: [String]? = nil,
    units: DistanceUnit? = nil, raceStart: String? = nil, pauses: [String]? = nil, moves: [String]? = nil,
    skips: [String]? = nil
  ) {
    self.moves = moves
    self.skips = skips
    self.runDays = runDays
    self.longRunDay = longRunDay
    self.times = times
    self.timeZone = timeZone
    self.blackouts = blackouts
    self.busyFiles = busyFiles
    self.busy = busy
    self.reminders = reminders
    self.units = units
    self.raceStart = raceStart
    self.pauses = pauses
  }
}

/// A planned workout on the day (and at the time) the schedule gave it: what `today`, `week`, `progress`, `report`,
/// matching and the calendar agree on.
public struct DatedWorkout: Sendable, Hashable {
  /// The plan workout's id (the same as ``Workout/id``).
  public var workoutID: String
  /// The plan week.
  public var week: Int
  /// The scheduled day, in the runner's time zone.
  public var date: CivilDate
  /// The day the plan had (equal to `date` unless the scheduler moved it).
  public var plannedDate: CivilDate
  /// The local start time in minutes after midnight; nil for an all-day workout.
  public var startMinute: Int?
  /// The time zone of `date` and `startMinute`.
  public var timeZoneID: String
  /// What kind of workout.
  public var kind: WorkoutKind
  /// Planned distance in km.
  public var distanceKm: Double

  /// Creates a dated workout.
  public init(
    workoutID: String, week: Int, date: CivilDate, plannedDate: CivilDate, startMinute: Int?,
    timeZoneID: String, kind: WorkoutKind, distanceKm: Double
  ) {
    self.workoutID = workoutID
    self.week = week
    self.date = date
    self.plannedDate = plannedDate
    self.startMinute = startMinute
    self.timeZoneID = timeZoneID
    self.kind = kind
    self.distanceKm = distanceKm
  }

  /// `06:30`, or nil for an all-day workout.
  public var startText: String? {
    guard let minute = startMinute else { return nil }
    let hour = minute / 60
    let rest = minute % 60
    return "\(hour < 10 ? "0" : "")\(hour):\(rest < 10 ? "0" : "")\(rest)"
  }
}

extension Plan {
  /// The plan as scheduled: every workout on its scheduled day, workouts the schedule dropped left out, each week's
  /// workouts in date order. Weeks, ids, texts and distances stay as they are.
  public func scheduled(_ dated: [DatedWorkout]) -> Plan {
    let days = Dictionary(dated.map { ($0.workoutID, $0.date) }, uniquingKeysWith: { first, _ in first })
    var copy = self
    copy.weeks = weeks.map { week in
      var week = week
      let before = week.workouts.count
      week.workouts = week.workouts.compactMap { workout -> Workout? in
        guard let day = days[workout.id] else { return nil }
        var moved = workout
        moved.date = day
        return moved
      }.sorted { ($0.date, $0.slot) < ($1.date, $1.slot) }
      if week.workouts.count != before {
        week.plannedKm = (week.workouts.map(\.distanceKm).reduce(0, +) * 10).rounded() / 10
      }
      return week
    }
    return copy
  }
}
