import Foundation
import Ingest
import PlanEngine
import RunningCore

/// A run the runner did: logged by hand or imported from a GPX/TCX file; or, imported with `--all-sports`, an
/// activity of another sport (``sport`` not ``Sport/run``): cross-training, never counted as running.
public struct Completion: Sendable, Hashable, Codable {
  /// Where a completion came from.
  public enum Source: String, Sendable, Hashable, Codable { case manual, gpx, tcx, fit, health }

  /// The database id (nil before it is saved).
  public var id: Int64?
  /// The day it was run, in the runner's time zone.
  public var date: CivilDate
  /// When it started, for imports.
  public var startedAt: Date?
  /// Distance, kilometres.
  public var distanceKm: Double
  /// Elapsed time, seconds.
  public var durationSeconds: Double
  /// Moving time, seconds (imports).
  public var movingSeconds: Double?
  /// What kind of run, when the runner said so.
  public var kind: WorkoutKind?
  /// Perceived effort, 1…10.
  public var rpe: Int?
  /// Average heart rate.
  public var averageHeartRate: Int?
  /// Elevation gain, metres (imports).
  public var elevationGainMeters: Double?
  /// A note.
  public var note: String?
  /// Manual, GPX, TCX or an Apple Health workout.
  public var source: Source
  /// The imported file's name.
  public var sourceFile: String?
  /// The plan it counts for, and the planned workout it matched (nil: unplanned).
  public var planID: String?
  /// The matched planned workout's id.
  public var workoutID: String?
  /// How it fulfilled that workout: done, or partial (much shorter than planned); nil when unplanned.
  public var status: MatchStatus?
  /// The sport: ``Sport/run`` for a run, else another (`cycling`, `swimming`, `strength training`): cross-training,
  /// kept out of running volume, personal bests, progress and plan matching.
  public var sport: Sport
  /// The fastest 400 m, 1 km, 5 km, 10 km, half and marathon measured inside the run's track (imports), shortest
  /// first: evidence of fitness (a lower bound), never a race.
  public var bestEfforts: [BestEffort]

  /// True for a run; false for cross-training.
  public var isRun: Bool { sport.isRun }

  /// True for a race: a run logged as one (`log --race`, `--kind race`) or matched to a plan's race.
  public var isRace: Bool { isRun && (kind == .race || workoutID?.hasSuffix("-race") == true) }

  /// Creates a completion.
  public init(
    id: Int64? = nil, date: CivilDate, startedAt: Date? = nil, distanceKm: Double, durationSeconds: Double,
    movingSeconds: Double? = nil, kind: WorkoutKind? = nil, rpe: Int? = nil, averageHeartRate: Int? = nil,
    elevationGainMeters: Double? = nil, note: String? = nil, source: Source = .manual,
    sourceFile: String? = nil, planID: String? = nil, workoutID: String? = nil,
    status: MatchStatus? = nil, sport: Sport = .run, bestEfforts: [BestEffort] = []
  ) {
    self.id = id
    self.date = date
    self.startedAt = startedAt
    self.distanceKm = distanceKm
    self.durationSeconds = durationSeconds
    self.movingSeconds = movingSeconds
    self.kind = kind
    self.rpe = rpe
    self.averageHeartRate = averageHeartRate
    self.elevationGainMeters = elevationGainMeters
    self.note = note
    self.source = source
    self.sourceFile = sourceFile
    self.planID = planID
    self.workoutID = workoutID
    self.status = status ?? (workoutID == nil ? nil : .done)
    self.sport = sport
    self.bestEfforts = bestEfforts
  }

  /// Pace in seconds per kilometre (moving time when known).
  public var secondsPerKm: Double { (movingSeconds ?? durationSeconds) / max(distanceKm, 0.001) }

  /// The distance, as views show it (in the runner's unit, through ``DistanceUnit``).
  public var distance: Distance { Distance(kilometers: distanceKm) }

  /// The pace (moving time when known), as views show it.
  public var pace: Pace { Pace(secondsPerKilometer: secondsPerKm) }
}

/// A plan kept in the database.
public struct SavedPlan: Sendable, Hashable {
  /// The plan's id (from its inputs).
  public var id: String
  /// The runner's name for it (unique).
  public var name: String
  /// Export, logging and progress use the active plan unless told otherwise.
  public var active: Bool
  /// When it was saved.
  public var savedAt: Date
  /// The plan.
  public var plan: Plan

  /// A saved plan as the store returns it.
  public init(id: String, name: String, active: Bool, savedAt: Date, plan: Plan) {
    self.id = id
    self.name = name
    self.active = active
    self.savedAt = savedAt
    self.plan = plan
  }
}
