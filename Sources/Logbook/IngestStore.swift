import Foundation
import GRDB
import Ingest
import PlanEngine
import TrainingDomain

extension LogbookDatabase {
  /// Adds runs from any source (`log`, GPX/TCX `import`, `health import`) the one way: in ONE write transaction
  /// it reads the logbook, lets ``Ingest/ingest(_:stored:slots:taken:)`` decide (twins across sources, the
  /// planned workout each new run fulfils), and applies the decision: new runs inserted, stored twins rewritten
  /// with the richer record. Two processes adding the same runs at once therefore store them once and never match
  /// one planned workout twice.
  ///
  /// - Parameters:
  ///   - candidates: the runs read from a source, in order.
  ///   - planID: the saved plan they count for (nil: unplanned). If it was deleted meanwhile, the runs are stored
  ///     unplanned.
  ///   - slots: that plan's planned workouts.
  /// - Throws: ``LogbookError/implausible(record:field:value:allowed:)`` before anything is written when a value is
  ///   impossible; nothing is written when any write fails.
  public func ingestRuns(_ candidates: [Completion], planID: String?, slots: [PlannedSlot])
    throws(LogbookError) -> IngestedRuns
  {
    for candidate in candidates { _ = try candidate.validated() }
    do {
      return try writer.write { db in
        var rows = 0
        return try LogbookDatabase.ingestRuns(candidates, planID: planID, slots: slots, in: db) {
          rows += 1
          afterRowWritten?(rows)
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// The body of ``ingestRuns(_:planID:slots:)``, inside the caller's write transaction
  /// (``TrainingDomain/applyIngest(_:planID:slots:to:wroteRow:)``); `wroteRow` is called after each row written.
  static func ingestRuns(
    _ candidates: [Completion], planID: String?, slots: [PlannedSlot], in db: Database,
    wroteRow: () -> Void
  ) throws -> IngestedRuns {
    try applyIngest(candidates, planID: planID, slots: slots, to: SQLiteIngestWrites(db: db), wroteRow: wroteRow)
  }
}

/// The logbook's rows for ``TrainingDomain/applyIngest(_:planID:slots:to:wroteRow:)``, in a write transaction.
struct SQLiteIngestWrites: IngestWrites {
  let db: Database

  func storedActivities() throws -> [Completion] {
    try LogbookDatabase.withBestEfforts(
      CompletionRecord.order(Column("date"), Column("id")).fetchAll(db).map(\.completion), in: db)
  }

  func planExists(id: String) throws -> Bool { try PlanRecord.exists(db, key: id) }

  func update(_ run: Completion) throws {
    try CompletionRecord(run).update(db)
    if let id = run.id, !run.bestEfforts.isEmpty {
      try LogbookDatabase.saveBestEfforts(run.bestEfforts, completionID: id, in: db)
    }
  }

  func insert(_ run: Completion) throws -> Completion {
    var record = CompletionRecord(run)
    record.identity = run.identity ?? recordIdentity(of: run)
    try record.insert(db)
    // A run logged again after it was deleted is no longer one to remove from the coach's server.
    try db.execute(sql: "DELETE FROM deletedRun WHERE identity = ?", arguments: [record.identity])
    if let id = record.id { try LogbookDatabase.saveBestEfforts(run.bestEfforts, completionID: id, in: db) }
    var stored = record.completion
    stored.bestEfforts = run.bestEfforts
    return stored
  }
}

/// Adds the `status` column (done / partial) to completions: appended as the last migration of the logbook.
func registerIngestMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v6-ingest-status") { db in
    try db.alter(table: "completion") { t in
      t.add(column: "status", .text).check { $0 == nil || $0 == "done" || $0 == "partial" }
    }
    // Runs matched before are done: a partial status did not exist.
    try db.execute(sql: "UPDATE completion SET status = 'done' WHERE workoutID IS NOT NULL")
  }
}
