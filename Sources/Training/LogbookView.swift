import Foundation
import RunningCore
import TrainingDomain

/// `log list`'s view: every logged run with the status of its workout by the one rule (the compliance bands, as
/// `week` and `progress` show it), and the cross-training sessions. Encodes as `runmate.log/1`.
public struct LogbookView: Sendable, Encodable {
  /// The runs, as stored.
  public let runs: [Completion]
  /// The status of each run's workout by run id (``TrainingStore/runStatuses(of:)``); a run not in it keeps its
  /// stored one.
  public let statuses: [Int64: WorkoutStatus]
  /// Other sports (`import --all-sports`): a `cross_training` list, written only when there is any.
  public let crossTraining: [Completion]

  /// What one line of the table says of an activity's place in the plan.
  public enum Place: Sendable, Equatable {
    /// A run matched to the workout `id`; `partial` when it covered only part of it.
    case planned(id: String, partial: Bool)
    /// A run matched to no workout.
    case unplanned
    /// Cross-training (its sport is the activity's), of so many minutes.
    case crossTraining(minutes: Int)
  }

  /// Runs and cross-training together by date (then id), each with its place in the plan.
  public var rows: [(activity: Completion, place: Place)] {
    (runs + crossTraining).sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }.map { run in
      guard run.isRun else {
        return (run, .crossTraining(minutes: crossTrainingMinutes(run.durationSeconds)))
      }
      guard let workout = run.workoutID else { return (run, .unplanned) }
      let status = run.id.flatMap { statuses[$0] } ?? (run.isPartial ? .partial : .done)
      return (run, .planned(id: workout, partial: status == .partial))
    }
  }

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

  /// Encodes `runmate.log/1`: the runs with their statuses, then the cross-training when there is any.
  public func encode(to encoder: any Encoder) throws {
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

extension TrainingStore {
  /// The `log list` use case: every logged run with its workout's status, and the cross-training.
  public func logbookView() throws -> LogbookView {
    let runs = try completions()
    return LogbookView(runs: runs, statuses: try runStatuses(of: runs), crossTraining: try crossTraining())
  }
}
