import Foundation
import Health
import Ingest
import Logbook
import PlanEngine
import RunningCore
import TrainingDomain

/// What `runmate health import` did: the export read, what was stored, what was left out and why, and a new best
/// day. The CLI renders it.
public struct HealthImportReport: Sendable {
  /// The export as read (records, days, workouts, what could not be read).
  public let data: HealthImport
  /// What was stored: days, measures, runs (new, twins of runs already there).
  public let result: HealthImportResult
  /// The plan the runs count for (nil: none saved).
  public let plan: SavedPlan?
  /// The days of running workouts without a distance (not stored).
  public let withoutDistance: [CivilDate]
  /// The days of workouts after today (a device clock gone wrong: not stored).
  public let afterToday: [CivilDate]
  /// The runner's today.
  public let today: CivilDate
  /// The day with more steps than any before this import, when there is one (and there were earlier days).
  public var newBestDay: HealthDay? {
    guard let best = data.days.max(by: { $0.steps < $1.steps }), result.previousBestSteps > 0,
      best.steps > result.previousBestSteps
    else { return nil }
    return best
  }
}

/// The planned workouts runs are matched to (the training state's scheduled days, with the default profile's
/// settings); none without a plan. What `log`, `import` and `health import` match against.
public func plannedSlots(for saved: SavedPlan?, in db: any TrainingStore) throws -> [PlannedSlot] {
  guard let saved else { return [] }
  return try TrainingState.read(
    saved, db: db, profile: try db.profile(named: nil), systemZone: TimeZone.current.identifier
  ).plannedSlots
}

extension TrainingStore {
  /// Imports the Apple Health export at `url` (`export.zip`, `export.xml`, a CSV of daily totals) for `profile`'s
  /// days in `zone`: the days, measurements and running workouts (other sports with a distance too, as
  /// cross-training, with `allSports`) in one transaction; the runs join the logbook the one ingest way (a run
  /// already there is one run) and are matched to `planName`'s plan (default: the active one, none without one). A
  /// workout after `today` is left out.
  ///
  /// - Throws: the reader's and the store's errors.
  public func importHealthExport(
    at url: URL, profile: String, zone: TimeZone, today: CivilDate, planName: String?, allSports: Bool,
    progress: (@Sendable (Int64) -> Void)? = nil
  ) throws -> HealthImportReport {
    let saved: SavedPlan? = try {
      do { return try plan(named: planName) } catch LogbookError.noActivePlan { return nil }
    }()
    let data = try importHealth(at: url, timeZone: zone, progress: progress)
    let (runs, withoutDistance, afterToday) = healthRuns(
      data.workouts, timeZone: zone, allSports: allSports, today: today)
    let result = try saveHealth(
      days: data.days, measures: data.measures, runs: runs, profile: profile, planID: saved?.id,
      slots: try plannedSlots(for: saved, in: self))
    return HealthImportReport(
      data: data, result: result, plan: saved, withoutDistance: withoutDistance, afterToday: afterToday, today: today)
  }
}
