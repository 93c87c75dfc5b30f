import Foundation
import PlanEngine
import RunningCore

/// Something the runner should know about how the plan met their calendar: a workout moved or dropped, a busy
/// race day. Recoverable outcomes are data; the CLI prints them.
public struct ScheduleNote: Sendable, Hashable, Codable {
  /// What happened.
  public enum Kind: String, Sendable, Hashable, Codable {
    case moved, dropped, conflict
    /// A start time that does not exist that day (a spring-forward gap): the run is at the time the clocks show.
    case shifted
  }
  /// What happened.
  public var kind: Kind
  /// The week.
  public var week: Int
  /// The workout's id, when the note is about one.
  public var workoutID: String?
  /// A sentence for the runner.
  public var text: String
  /// A move only because the plan's day is not one of the run days: expected whenever the run days differ from the
  /// plan's weekly pattern, so a command may count these instead of listing each.
  public var toRunDay = false

  enum CodingKeys: String, CodingKey {
    case kind, week, text
    case workoutID = "workout_id"
  }
}

/// A workout on its real day, with its start and end when it is timed.
public struct ScheduledWorkout: Sendable, Hashable {
  /// The planned workout; its `date` is the scheduled day.
  public var workout: Workout
  /// Start and end as local wall-clock times in the schedule's time zone; nil for all-day workouts.
  public var time: LocalTime?
  /// The start instant (timed workouts).
  public var start: Date?
  /// The end instant (timed workouts).
  public var end: Date?
  /// The day the plan had, when the scheduler moved it.
  public var plannedDate: CivilDate?
}

/// One week of the schedule.
public struct ScheduledWeek: Sendable, Hashable {
  /// The plan's week.
  public var week: Week
  /// Its workouts on their days, in date order (dropped workouts are gone).
  public var workouts: [ScheduledWorkout]
}

/// The plan laid onto the runner's calendar: the output of ``makeSchedule(_:preferences:busy:)``.
public struct Schedule: Sendable, Hashable {
  /// The plan it came from.
  public var plan: Plan
  /// IANA time zone of every time in it.
  public var timeZoneID: String
  /// The weeks.
  public var weeks: [ScheduledWeek]
  /// Moves, drops and conflicts, in week order.
  public var notes: [ScheduleNote]

  /// Every scheduled workout in date order.
  public var workouts: [ScheduledWorkout] { weeks.flatMap(\.workouts) }
}

// MARK: - JSON: the plan contract (`runmate.plan/1` fields) plus times and notes.

extension Schedule: Encodable {
  enum CodingKeys: String, CodingKey {
    case schema, id, goal, warnings, weeks, notes
    case timeZone = "time_zone"
  }

  /// Encodes the value in its documented JSON form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.schedule/1", forKey: .schema)
    try container.encode(plan.id, forKey: .id)
    try container.encode(plan.goal, forKey: .goal)
    try container.encode(plan.warnings, forKey: .warnings)
    try container.encode(timeZoneID, forKey: .timeZone)
    try container.encode(notes, forKey: .notes)
    try container.encode(weeks.map { ScheduledWeekJSON(week: $0, timeZoneID: timeZoneID) }, forKey: .weeks)
  }
}

private struct ScheduledWeekJSON: Encodable {
  let week: ScheduledWeek
  let timeZoneID: String

  enum CodingKeys: String, CodingKey {
    case number, phase, start, cutback, rules, workouts
    case targetKm = "target_km"
    case plannedKm = "planned_km"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(week.week.number, forKey: .number)
    try container.encode(week.week.phase, forKey: .phase)
    try container.encode(week.week.start, forKey: .start)
    try container.encode(week.week.cutback, forKey: .cutback)
    try container.encode(week.week.rules, forKey: .rules)
    try container.encode(week.week.targetKm, forKey: .targetKm)
    let planned = week.workouts.map(\.workout.distanceKm).reduce(0, +)
    try container.encode((planned * 10).rounded() / 10, forKey: .plannedKm)
    try container.encode(
      week.workouts.map { ScheduledWorkoutJSON(workout: $0, timeZoneID: timeZoneID) },
      forKey: .workouts)
  }
}

private struct ScheduledWorkoutJSON: Encodable {
  let workout: ScheduledWorkout
  let timeZoneID: String

  enum CodingKeys: String, CodingKey {
    case start, end
    case allDay = "all_day"
    case plannedDate = "planned_date"
  }

  func encode(to encoder: any Encoder) throws {
    try workout.workout.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(workout.start == nil, forKey: .allDay)
    try container.encodeIfPresent(workout.plannedDate, forKey: .plannedDate)
    if let start = workout.start, let end = workout.end, let zone = TimeZone(identifier: timeZoneID) {
      try container.encode(iso8601(start, zone), forKey: .start)
      try container.encode(iso8601(end, zone), forKey: .end)
    }
  }
}

/// `2027-03-05T06:30:00+01:00`: local time with its offset.
func iso8601(_ date: Date, _ zone: TimeZone) -> String {
  var style = Date.ISO8601FormatStyle(timeZone: zone)
  style = style.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .colon)
  return date.formatted(style)
}
