import Ingest
import RunningCore

/// The reads and writes an engine gives ``applyIngest(_:planID:slots:to:wroteRow:)``, all inside the engine's one
/// write transaction: each store (SQLite, PostgreSQL) writes rows its own way, and the rule of what to write is here
/// once.
public protocol IngestWrites {
  /// Every stored activity (runs and cross-training) with its best efforts, by date, then id.
  func storedActivities() throws -> [Completion]
  /// True when a saved plan has this id.
  func planExists(id: String) throws -> Bool
  /// Rewrites the stored activity `run.id` with `run`, and replaces its best efforts when `run` has some.
  func update(_ run: Completion) throws
  /// Inserts `run` with its best efforts and returns it as stored (with its id).
  func insert(_ run: Completion) throws -> Completion
}

/// Adds runs from any source the one way, inside the caller's write transaction: reads the stored activities, lets
/// ``Ingest/ingest(_:stored:slots:taken:)`` decide (twins across sources, the planned workout each new run fulfils)
/// and applies the decision through `store`: new runs inserted, stored twins rewritten with the richer record.
/// `wroteRow` is called after each row written.
///
/// Runs and cross-training (other sports, ``Completion/isRun`` false) are ingested apart: runs are compared with the
/// stored runs and matched to `slots`; cross-training only with stored cross-training, never matched to a planned
/// run. ``IngestedRuns/before`` holds the stored runs. A `planID` no longer saved stores the runs unplanned.
public func applyIngest(
  _ candidates: [Completion], planID: String?, slots: [PlannedSlot], to store: some IngestWrites,
  wroteRow: () -> Void
) throws -> IngestedRuns {
  let stored = try store.storedActivities()
  var planID = planID
  if let id = planID, try !store.planExists(id: id) { planID = nil }
  let slots = planID == nil ? [] : slots
  var result = try ingestBatch(
    candidates.filter(\.isRun), stored: stored.filter(\.isRun), planID: planID, slots: slots, to: store,
    wroteRow: wroteRow)
  let others = candidates.filter { !$0.isRun }
  if !others.isEmpty {
    let crossTraining = try ingestBatch(
      others, stored: stored.filter { !$0.isRun }, planID: nil, slots: [], to: store, wroteRow: wroteRow)
    result.added += crossTraining.added
    result.twins += crossTraining.twins
    result.skipped += crossTraining.skipped
  }
  return result
}

/// Ingests `candidates` against `before` (all of one kind: runs, or cross-training).
private func ingestBatch(
  _ candidates: [Completion], stored before: [Completion], planID: String?, slots: [PlannedSlot],
  to store: some IngestWrites, wroteRow: () -> Void
) throws -> IngestedRuns {
  let taken = Set(before.filter { $0.planID != nil && $0.planID == planID }.compactMap(\.workoutID))
  let outcome = ingest(candidates, stored: before, slots: slots, taken: taken)

  var result = IngestedRuns()
  result.before = before
  var current = before
  var identities = Set(before.compactMap(\.identity))
  for duplicate in outcome.duplicates {
    guard case .stored(let index) = duplicate.twin, let merged = duplicate.merged else { continue }
    var run = merged
    run.id = before[index].id
    run.identity = before[index].identity
    run.planID = before[index].planID
    run.workoutID = before[index].workoutID
    run.status = duplicate.status ?? before[index].status
    run.sport = before[index].sport
    // The device's record brings its efforts; a hand-logged candidate has none and keeps the stored ones.
    try store.update(run)
    wroteRow()
    current[index] = run
  }
  for added in outcome.added {
    var run = added.run
    run.planID = planID
    run.workoutID = added.match?.slot.workoutID
    run.status = added.match?.status
    run.identity = newIdentity(for: run, taken: &identities)
    let stored = try store.insert(run)
    wroteRow()
    result.added.append(.init(run: stored, match: added.match))
  }
  // The weeks the new and merged runs are in, matched again the one way: a run logged for an earlier day takes the
  // workout of its day from a later run that stood in for it, as it would have had it been logged first.
  if let planID {
    let days =
      result.added.map(\.run.date)
      + outcome.duplicates.compactMap { duplicate -> CivilDate? in
        guard case .stored(let index) = duplicate.twin, duplicate.merged != nil else { return nil }
        return current[index].date
      }
    let rewritten = try rematchWeeks(
      holding: days, planID: planID, slots: slots, among: current + result.added.map(\.run), to: store)
    for run in rewritten {
      if let index = current.firstIndex(where: { $0.id == run.id }) { current[index] = run }
      if let index = result.added.firstIndex(where: { $0.run.id == run.id }) {
        result.added[index].run = run
        result.added[index].match = run.workoutID.flatMap { id in
          slots.first { $0.workoutID == id }.map { slot in
            SlotMatch(
              slot: slot, status: run.status ?? .done, day: slot.date == run.date ? .sameDay : .late)
          }
        }
      }
    }
  }
  for duplicate in outcome.duplicates {
    let candidate = candidates[duplicate.candidate]
    switch duplicate.twin {
    case .stored(let index):
      result.twins.append(
        .init(candidate: candidate, stored: current[index], wasStored: true, merged: duplicate.merged != nil))
    case .added(let index):
      result.twins.append(
        .init(candidate: candidate, stored: result.added[index].run, wasStored: false, merged: duplicate.merged != nil))
    }
  }
  result.skipped = outcome.skipped.map { .init(candidate: candidates[$0.candidate], reason: $0.reason) }
  return result
}
