import Logbook
import RunningCore
import TrainingDomain

/// Opens the runner's store: where the data lives chooses the engine. Today that is a file path, the embedded
/// SQLite logbook (created when missing, migrated on open, read-only when the file cannot be written). Commands and
/// the server take the store through ``TrainingStore`` and never name an engine.
///
/// - Parameter afterRowWritten: a fault-injection hook for tests (``RowHook``); nil in normal use.
public func openStore(at location: String, afterRowWritten: RowHook? = nil) throws(LogbookError)
  -> any TrainingStore
{
  try LogbookDatabase(path: location, afterRowWritten: afterRowWritten)
}

extension TrainingStore {
  /// The runner's distance unit where a command has no `--units` (``DistanceUnit/display(chosen:profile:plan:)``):
  /// the default profile's, else the one `plan` (default: the active plan) was saved with, else km.
  public func runnerUnit(plan: SavedPlan? = nil) throws -> DistanceUnit {
    DistanceUnit.display(chosen: nil, profile: try profile(named: nil)?.units, plan: try planUnits(plan))
  }

  /// The unit `plan` (default: the active plan) was saved with; nil when none or no plan.
  public func planUnits(_ plan: SavedPlan? = nil) throws -> DistanceUnit? {
    let saved: SavedPlan? =
      try plan
      ?? {
        do { return try self.plan(named: nil) } catch LogbookError.noActivePlan { return nil }
      }()
    return try saved.flatMap { try scheduleSettings(ofPlan: $0.id)?.units }
  }
}
