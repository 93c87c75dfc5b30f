import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `--format json` output: Training's one JSON form (``JSONText``), a value out of range named after the option.
enum JSONOutput {
  static func encode(_ value: some Encodable) throws -> String {
    do {
      return try JSONText.encode(value)
    } catch .notEncodable(let field, let value) {
      throw CLIError.notEncodable(field: field, value: value)
    }
  }
}

// The `runmate.log/1` contract: metric whatever the runner's unit, as `runmate.today/1` and `runmate.week/1`
// (Training's view models, with `jsonKm` and `jsonSeconds`).

/// `runmate log list --format json`.
struct LogJSON: Encodable {
  let runs: [Completion]
  /// The status of each run's workout by run id (``TrainingStore/runStatuses(of:)``); a run not in it keeps its stored one.
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
