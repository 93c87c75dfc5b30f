import Digest
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
  /// The run's identity, the same in the logbook, in a copy of it and on a coach's server: fixed when the run was
  /// first stored (``recordIdentity(of:)`` of the run as then recorded, or the identity it came with from another
  /// store) and kept when its record is rewritten (a watch's record merged into a hand-logged run). Nil before it is
  /// stored; a store returns every run with one.
  public var identity: String?

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
    status: MatchStatus? = nil, sport: Sport = .run, bestEfforts: [BestEffort] = [], identity: String? = nil
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
    self.identity = identity
  }

  /// Pace in seconds per kilometre (moving time when known).
  public var secondsPerKm: Double { (movingSeconds ?? durationSeconds) / max(distanceKm, 0.001) }

  /// The distance, as views show it (in the runner's unit, through ``DistanceUnit``).
  public var distance: Distance { Distance(kilometers: distanceKm) }

  /// The pace (moving time when known), as views show it.
  public var pace: Pace { Pace(secondsPerKilometer: secondsPerKm) }
}

/// A run's identity from its record: the SHA-256 (32 hex digits) of its day, start, source, file, distance (to the
/// metre) and duration (to the second). A run is given it when it is first stored (with `#2`, `#3` … after it for a
/// second run of the same record, two identical runs typed in on one day), and keeps it from then on; a run stored
/// before identities were (migration `v14-run-identity`) has this one, which is also the identity it was pushed with.
public func recordIdentity(of run: Completion) -> String {
  // Whole numbers as integers; a value no integer holds (a damaged row read back: 1e21, nan) as it is, never a trap.
  func whole(_ value: Double) -> String {
    let rounded = value.rounded()
    return abs(rounded) < 9e15 ? String(Int64(rounded)) : "\(value)"
  }
  let started = run.startedAt.map { whole($0.timeIntervalSince1970 * 1000) } ?? "-"
  let text = [
    run.date.description, started, run.source.rawValue, run.sourceFile ?? "-", whole(run.distanceKm * 1000),
    whole(run.durationSeconds),
  ].joined(separator: "|")
  return String(SHA256.hex(Array(text.utf8)).prefix(32))
}

/// The identity a new run is stored with: the one it brings, else ``recordIdentity(of:)``, made unique among
/// `taken` with a `#2`, `#3` … suffix (taken is updated).
public func newIdentity(for run: Completion, taken: inout Set<String>) -> String {
  let base = run.identity ?? recordIdentity(of: run)
  var identity = base
  var next = 2
  while taken.contains(identity) {
    identity = "\(base)#\(next)"
    next += 1
  }
  taken.insert(identity)
  return identity
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
