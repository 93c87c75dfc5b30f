import Foundation
import Logbook
import PlanEngine
import RunningCore
import TrainingProgress

/// JSON output: sorted keys, two-space indentation, a final newline (the `runmate.plan/1` and
/// `runmate.schedule/1` contracts).
enum JSONOutput {
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      let data = try encoder.encode(value)
      return String(decoding: data, as: UTF8.self) + "\n"
    } catch let EncodingError.invalidValue(value, context) {
      // JSON has no NaN or infinity: a value stored out of range (by hand, or by an older version) is named.
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      throw CLIError.notEncodable(field: path.hasPrefix(".") ? String(path.dropFirst()) : path, value: "\(value)")
    }
  }
}

// The `runmate.today/1`, `runmate.week/1` and `runmate.log/1` contracts: metric whatever the runner's unit,
// distances in km to 0.1, durations and paces in whole seconds, dates `YYYY-MM-DD`, null where a value is absent.

/// A distance in km to 0.1; nil (null) for a value no run can have.
func jsonKm(_ km: Double) -> Double? {
  km.isFinite ? (km * 10).rounded() / 10 : nil
}

/// Whole seconds; nil (null) for a value no run can have.
func jsonSeconds(_ seconds: Double) -> Int? {
  seconds.isFinite && abs(seconds) < 1e15 ? Int(seconds.rounded()) : nil
}

/// A planned workout on its scheduled day, with how it stands (``PlanStatus``: the one status rule).
struct WorkoutDayJSON: Encodable {
  let workout: Workout
  let dated: DatedWorkout?
  let status: WorkoutStatus
  /// The distance of the runs matched to it, km (nil: none).
  let doneKm: Double?
  let energyKcal: Int?

  init(_ workout: Workout, dated: DatedWorkout?, status book: PlanStatus, energyKcal: Int? = nil) {
    self.workout = workout
    self.dated = dated
    status = book.status(of: workout)
    doneKm = book.matched[workout.id] == nil ? nil : book.doneKm(of: workout)
    self.energyKcal = energyKcal
  }

  enum CodingKeys: String, CodingKey {
    case id, date, kind, title, description, hard, status
    case plannedDate = "planned_date"
    case start
    case distanceKm = "distance_km"
    case durationMin = "duration_min"
    case doneKm = "done_km"
    case energyKcal = "energy_kcal"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(workout.id, forKey: .id)
    try container.encode(workout.date.description, forKey: .date)
    let planned = dated.flatMap { $0.plannedDate == $0.date ? nil : $0.plannedDate.description }
    try container.encode(planned, forKey: .plannedDate)
    try container.encode(dated?.startText, forKey: .start)
    try container.encode(workout.kind.rawValue, forKey: .kind)
    try container.encode(workout.title, forKey: .title)
    try container.encode(workout.description, forKey: .description)
    try container.encode(workout.hard, forKey: .hard)
    try container.encode(jsonKm(workout.distanceKm), forKey: .distanceKm)
    try container.encode(workout.durationMin, forKey: .durationMin)
    try container.encode(status, forKey: .status)
    try container.encode(doneKm.flatMap(jsonKm), forKey: .doneKm)
    try container.encode(energyKcal, forKey: .energyKcal)
  }
}

/// `runmate today --format json`.
struct TodayJSON: Encodable {
  let saved: SavedPlan
  let today: CivilDate
  let workout: WorkoutDayJSON?
  let next: WorkoutDayJSON?

  enum CodingKeys: String, CodingKey {
    case schema, today, workout, next
    case planID = "plan_id"
    case planName = "plan_name"
    case planStart = "plan_start"
    case raceDate = "race_date"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.today/1", forKey: .schema)
    try container.encode(saved.id, forKey: .planID)
    try container.encode(saved.name, forKey: .planName)
    try container.encode(saved.plan.goal.start.description, forKey: .planStart)
    try container.encode(saved.plan.goal.raceDate.description, forKey: .raceDate)
    try container.encode(today.description, forKey: .today)
    try container.encode(workout, forKey: .workout)
    try container.encode(next, forKey: .next)
  }
}

/// `runmate week --format json`.
struct WeekJSON: Encodable {
  let saved: SavedPlan
  let today: CivilDate
  let week: PlanEngine.Week?
  let progress: WeekProgress?
  let workouts: [WorkoutDayJSON]

  enum CodingKeys: String, CodingKey {
    case schema, today, week
    case planID = "plan_id"
    case planName = "plan_name"
  }

  enum WeekKeys: String, CodingKey {
    case number, weeks, phase, cutback, start, end, why, workouts
    case plannedKm = "planned_km"
    case doneKm = "done_km"
    case plannedSessions = "planned_sessions"
    case doneSessions = "done_sessions"
    case partialSessions = "partial_sessions"
    case missedSessions = "missed_sessions"
    case extraRuns = "extra_runs"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.week/1", forKey: .schema)
    try container.encode(saved.id, forKey: .planID)
    try container.encode(saved.name, forKey: .planName)
    try container.encode(today.description, forKey: .today)
    guard let week, let progress else { return try container.encodeNil(forKey: .week) }
    var nested = container.nestedContainer(keyedBy: WeekKeys.self, forKey: .week)
    try nested.encode(week.number, forKey: .number)
    try nested.encode(saved.plan.goal.weeks, forKey: .weeks)
    try nested.encode(week.phase.rawValue, forKey: .phase)
    try nested.encode(week.cutback, forKey: .cutback)
    try nested.encode(week.start.description, forKey: .start)
    try nested.encode(week.start.adding(days: 6).description, forKey: .end)
    try nested.encode(week.rules.first, forKey: .why)
    try nested.encode(jsonKm(week.plannedKm), forKey: .plannedKm)
    try nested.encode(jsonKm(progress.doneKm), forKey: .doneKm)
    try nested.encode(progress.plannedSessions, forKey: .plannedSessions)
    try nested.encode(progress.doneSessions, forKey: .doneSessions)
    try nested.encode(workouts.filter { $0.status == .partial }.count, forKey: .partialSessions)
    try nested.encode(progress.missedSessions, forKey: .missedSessions)
    try nested.encode(progress.extraRuns, forKey: .extraRuns)
    try nested.encode(workouts, forKey: .workouts)
  }
}

/// `runmate log list --format json`.
struct LogJSON: Encodable {
  let runs: [Completion]
  /// The status of each run's workout by run id (``runStatuses(_:plans:)``); a run not in it keeps its stored one.
  var statuses: [Int64: WorkoutStatus] = [:]
  /// Other sports (`import --all-sports`): a `cross_training` list, written only when there is any.
  var crossTraining: [Completion] = []

  enum CodingKeys: String, CodingKey {
    case schema, runs
    case crossTraining = "cross_training"
  }

  enum CrossTrainingKeys: String, CodingKey {
    case id, date, sport, source
    case distanceKm = "distance_km"
    case durationS = "duration_s"
    case sourceFile = "source_file"
  }

  enum RunKeys: String, CodingKey {
    case id, date, kind, rpe, note, source, status
    case distanceKm = "distance_km"
    case durationS = "duration_s"
    case movingS = "moving_s"
    case paceSPerKm = "pace_s_per_km"
    case averageHeartRate = "average_hr"
    case elevationGainM = "elevation_gain_m"
    case sourceFile = "source_file"
    case planID = "plan_id"
    case workoutID = "workout_id"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.log/1", forKey: .schema)
    var list = container.nestedUnkeyedContainer(forKey: .runs)
    for run in runs {
      var item = list.nestedContainer(keyedBy: RunKeys.self)
      try item.encode(run.id, forKey: .id)
      try item.encode(run.date.description, forKey: .date)
      try item.encode(jsonKm(run.distanceKm), forKey: .distanceKm)
      try item.encode(jsonSeconds(run.durationSeconds), forKey: .durationS)
      try item.encode(run.movingSeconds.flatMap(jsonSeconds), forKey: .movingS)
      try item.encode(jsonSeconds(run.secondsPerKm), forKey: .paceSPerKm)
      try item.encode(run.kind?.rawValue, forKey: .kind)
      try item.encode(run.rpe, forKey: .rpe)
      try item.encode(run.averageHeartRate, forKey: .averageHeartRate)
      try item.encode(run.elevationGainMeters.flatMap(jsonSeconds), forKey: .elevationGainM)
      try item.encode(run.note, forKey: .note)
      try item.encode(run.source.rawValue, forKey: .source)
      try item.encode(run.sourceFile, forKey: .sourceFile)
      try item.encode(run.planID, forKey: .planID)
      try item.encode(run.workoutID, forKey: .workoutID)
      try item.encode(run.id.flatMap { statuses[$0]?.rawValue } ?? run.status?.rawValue, forKey: .status)
    }
    guard !crossTraining.isEmpty else { return }
    var others = container.nestedUnkeyedContainer(forKey: .crossTraining)
    for activity in crossTraining {
      var item = others.nestedContainer(keyedBy: CrossTrainingKeys.self)
      try item.encode(activity.id, forKey: .id)
      try item.encode(activity.date.description, forKey: .date)
      try item.encode(activity.sport, forKey: .sport)
      try item.encode(jsonKm(activity.distanceKm), forKey: .distanceKm)
      try item.encode(jsonSeconds(activity.durationSeconds), forKey: .durationS)
      try item.encode(activity.source.rawValue, forKey: .source)
      try item.encode(activity.sourceFile, forKey: .sourceFile)
    }
  }
}
