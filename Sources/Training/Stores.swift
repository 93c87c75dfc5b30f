import Logbook
import PostgresStore
import RunningCore
import TrainingDomain

/// Opens the runner's store: where the data lives chooses the engine. A `postgres://user[:password]@host[:port]/db`
/// (or `postgresql://`) URL is a PostgreSQL database (connected, migrated on open); anything else is a file path, the
/// embedded SQLite logbook (created when missing, migrated on open, read-only when the file cannot be written).
/// Commands and the server take the store through ``TrainingStore`` and never name an engine.
///
/// - Parameter afterRowWritten: a fault-injection hook for tests (``RowHook``); nil in normal use.
public func openStore(at location: String, afterRowWritten: RowHook? = nil) throws(LogbookError)
  -> any TrainingStore
{
  if isServerStore(location) { return try PostgresLogbook(url: location, afterRowWritten: afterRowWritten) }
  return try LogbookDatabase(path: location, afterRowWritten: afterRowWritten)
}

/// True when `location` names a database server (a `postgres://` URL) rather than a file: such a store is always
/// there to open, where a file may not exist yet.
public func isServerStore(_ location: String) -> Bool { PostgresLocation.isServerURL(location) }

/// `location` as messages show it: a server URL without its password, a file path as is.
public func shownStoreLocation(_ location: String) -> String { PostgresLocation.redacted(location) }

extension TrainingStore {
  /// The runner's distance unit where a command has no `--units` (``DistanceUnit/display(chosen:profile:plan:)``):
  /// the default profile's, else the one `plan` (default: the active plan) was saved with, else km.
  public func runnerUnit(plan: SavedPlan? = nil) throws -> DistanceUnit {
    DistanceUnit.display(chosen: nil, profile: try profile(named: nil)?.units, plan: try planUnits(plan))
  }

  /// The unit `plan` (default: the active plan) was saved with; nil when none or no plan.
  public func planUnits(_ plan: SavedPlan? = nil) throws -> DistanceUnit? {
    let saved = try plan ?? planForRuns(named: nil)
    return try saved.flatMap { try scheduleSettings(ofPlan: $0.id)?.units }
  }
}
