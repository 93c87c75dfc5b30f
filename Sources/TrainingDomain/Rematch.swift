import Ingest
import RunningCore

/// Matches the runs of plan `planID` in the weeks holding `days` again, the one way (``Ingest/canonicalMatches(_:identity:slots:)``),
/// inside the caller's write transaction, and rewrites each run whose workout or status changes: what a run holds
/// then depends on the week's runs only, not on the order they were logged, pushed or deleted in. `runs` holds at
/// least every run of the plan in those weeks (others are left alone). Returns the runs rewritten, as now stored.
public func rematchWeeks(
  holding days: [CivilDate], planID: String, slots: [PlannedSlot], among runs: [Completion],
  to store: some IngestWrites
) throws -> [Completion] {
  guard !days.isEmpty, !slots.isEmpty else { return [] }
  let weeks = Set(days.map { matchingWeek(of: $0, slots: slots) })
  let week = runs.filter {
    $0.planID == planID && $0.isRun && $0.id != nil && weeks.contains(matchingWeek(of: $0.date, slots: slots))
  }
  let matches = canonicalMatches(week, identity: { $0.identity ?? "" }, slots: slots)
  var rewritten: [Completion] = []
  for (run, match) in zip(week, matches)
  where run.workoutID != match?.slot.workoutID || run.status != match?.status {
    var changed = run
    changed.workoutID = match?.slot.workoutID
    changed.status = match?.status
    changed.bestEfforts = []  // kept as stored
    try store.update(changed)
    changed.bestEfforts = run.bestEfforts
    rewritten.append(changed)
  }
  return rewritten
}
