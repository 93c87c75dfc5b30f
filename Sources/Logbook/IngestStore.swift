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

  /// The body of ``ingestRuns(_:planID:slots:)``, inside the caller's write transaction; `wroteRow` is called after
  /// each row written.
  ///
  /// Runs and cross-training (other sports, ``Completion/isRun`` false) are ingested apart: runs are compared with
  /// the stored runs and matched to `slots`; cross-training only with stored cross-training, never matched to a
  /// planned run. ``IngestedRuns/before`` holds the stored runs.
  static func ingestRuns(
    _ candidates: [Completion], planID: String?, slots: [PlannedSlot], in db: Database,
    wroteRow: () -> Void
  ) throws -> IngestedRuns {
    let stored = try withBestEfforts(
      CompletionRecord.order(Column("date"), Column("id")).fetchAll(db).map(\.completion), in: db)
    var planID = planID
    if let id = planID, try !PlanRecord.exists(db, key: id) { planID = nil }
    let slots = planID == nil ? [] : slots
    var result = try ingestBatch(
      candidates.filter(\.isRun), stored: stored.filter(\.isRun), planID: planID, slots: slots, in: db,
      wroteRow: wroteRow)
    let others = candidates.filter { !$0.isRun }
    if !others.isEmpty {
      let crossTraining = try ingestBatch(
        others, stored: stored.filter { !$0.isRun }, planID: nil, slots: [], in: db, wroteRow: wroteRow)
      result.added += crossTraining.added
      result.twins += crossTraining.twins
      result.skipped += crossTraining.skipped
    }
    return result
  }

  /// Ingests `candidates` against `before` (all of one kind: runs, or cross-training).
  private static func ingestBatch(
    _ candidates: [Completion], stored before: [Completion], planID: String?, slots: [PlannedSlot],
    in db: Database, wroteRow: () -> Void
  ) throws -> IngestedRuns {
    let taken = Set(before.filter { $0.planID != nil && $0.planID == planID }.compactMap(\.workoutID))
    let outcome = ingest(candidates, stored: before, slots: slots, taken: taken)

    var result = IngestedRuns()
    result.before = before
    var current = before
    for duplicate in outcome.duplicates {
      guard case .stored(let index) = duplicate.twin, let merged = duplicate.merged else { continue }
      var run = merged
      run.id = before[index].id
      run.planID = before[index].planID
      run.workoutID = before[index].workoutID
      run.status = duplicate.status ?? before[index].status
      run.sport = before[index].sport
      try CompletionRecord(run).update(db)
      // The device's record brings its efforts; a hand-logged candidate has none and keeps the stored ones.
      if let id = run.id, !run.bestEfforts.isEmpty { try saveBestEfforts(run.bestEfforts, completionID: id, in: db) }
      wroteRow()
      current[index] = run
    }
    for added in outcome.added {
      var run = added.run
      run.planID = planID
      run.workoutID = added.match?.slot.workoutID
      run.status = added.match?.status
      var record = CompletionRecord(run)
      try record.insert(db)
      if let id = record.id { try saveBestEfforts(run.bestEfforts, completionID: id, in: db) }
      wroteRow()
      var stored = record.completion
      stored.bestEfforts = run.bestEfforts
      result.added.append(.init(run: stored, match: added.match))
    }
    for duplicate in outcome.duplicates {
      let candidate = candidates[duplicate.candidate]
      switch duplicate.twin {
      case .stored(let index):
        result.twins.append(
          .init(
            candidate: candidate, stored: current[index], wasStored: true,
            merged: duplicate.merged != nil))
      case .added(let index):
        result.twins.append(
          .init(
            candidate: candidate, stored: result.added[index].run, wasStored: false,
            merged: duplicate.merged != nil))
      }
    }
    result.skipped = outcome.skipped.map { .init(candidate: candidates[$0.candidate], reason: $0.reason) }
    return result
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
