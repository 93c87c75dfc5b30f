import Ingest
import PlanEngine
import RunningCore
import TrainingDomain

// The words `log`, `import` and `health import` use for what the one ingest path did
// (`TrainingStore.ingestRuns`): matched, partial, extra, the same run as one logged already.

/// How a run's source is named to the runner.
func sourceLabel(_ source: Completion.Source) -> String {
  switch source {
  case .manual: "logged by hand"
  case .gpx: "GPX"
  case .tcx: "TCX"
  case .fit: "FIT"
  case .health: "Apple Health"
  }
}

/// "Matched Easy 5 km planned for Tue 5 Jan" or "Partial: Long run 16 km planned for Sun 10 Jan (6.2 of 16 km, under
/// 80 % of the plan)", in `units`; nil when the run matched nothing.
func matchDescription(
  _ match: SlotMatch?, distanceKm: Double, in saved: SavedPlan?,
  units: DistanceUnit = .km
) -> String? {
  guard let match else { return nil }
  let title = saved?.plan.workouts.first { $0.id == match.slot.workoutID }?.title(in: units) ?? match.slot.workoutID
  let day = match.slot.date.shortLabel
  switch match.status {
  case .done:
    return "Matched \(title) planned for \(day)"
  case .partial:
    return "Partial: \(title) planned for \(day) (\(units.number(distanceKm)) of "
      + "\(units.format(match.slot.distanceKm)), under \(Int(IngestRules.partialBelow * 100)) % of the plan)"
  }
}

/// The match of a run already stored (its workout and status), for a run found to be a twin.
func storedMatch(_ run: Completion, slots: [PlannedSlot]) -> SlotMatch? {
  guard let id = run.workoutID, let slot = slots.first(where: { $0.workoutID == id }) else { return nil }
  return SlotMatch(slot: slot, status: run.status ?? .done, day: slot.date == run.date ? .sameDay : .late)
}

/// "same run as run 3, logged by hand on Tue 5 Jan: ..." for a candidate that twins a run already known, saying
/// which record was kept, in `units`.
func twinDescription(_ twin: IngestedRuns.Twin, units: DistanceUnit = .km) -> String {
  let stored = twin.stored
  let deviceReplacedHand = twin.merged && !twin.candidate.isHandLogged
  let wasSource = deviceReplacedHand ? "logged by hand" : "from " + sourceLabel(stored.source)
  let which = twin.wasStored ? "run \(stored.id ?? 0), \(wasSource)" : "an earlier run of this batch"
  let line = "same run as \(which) on \(stored.date.shortLabel) (\(units.format(stored.distanceKm)))"
  if deviceReplacedHand {
    return line + ": one run kept, now with the \(sourceLabel(stored.source)) record and the note and effort you logged"
  }
  if twin.merged { return line + ": your note and effort were added to it" }
  return line + ": already in the logbook"
}

/// "3 runs: 2 matched (1 partial), 1 extra": how new runs counted for the plan (nil without a plan or new runs).
func matchSummary(_ result: IngestedRuns, plan saved: SavedPlan?) -> String? {
  // Cross-training never counts for the plan.
  let added = result.added.filter(\.run.isRun)
  guard saved != nil, !added.isEmpty else { return nil }
  let matched = added.filter { $0.match != nil }
  let partial = matched.filter { $0.match?.status == .partial }.count
  let runs = added.count == 1 ? "1 new run" : "\(added.count) new runs"
  return "\(runs) for '\(saved?.name ?? "")': \(matched.count) matched"
    + (partial > 0 ? " (\(partial) partial)" : "") + ", \(added.count - matched.count) extra"
}

/// Whole minutes of a cross-training activity (`45`), for `log list`, `week` and `report`.
func crossTrainingMinutes(_ seconds: Double) -> Int {
  guard seconds.isFinite, seconds > 0, seconds < 1e9 else { return 0 }
  return Int((seconds / 60).rounded())
}
