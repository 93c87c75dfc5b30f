import Ingest
import PlanEngine
import RunningCore
import TrainingDomain

// The words `log`, `import` and `health import` use for what the one ingest path did
// (`TrainingStore.ingestRuns`): matched, partial, extra, the same run as one logged already. One wording for the
// three commands, so they never describe the same run two ways.

/// How a run's source is named to the runner.
public func sourceLabel(_ source: Completion.Source) -> String {
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
public func matchDescription(
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

/// What a coach says of a done workout run well over its planned distance (over ``Compliance/wellOverAbove``), or nil:
/// it counts as done, but the extra load is not what the plan ramps by.
func overshoot(of match: SlotMatch?, distanceKm: Double, units: DistanceUnit) -> String? {
  guard let match, match.status == .done, match.slot.kind != .race,
    let ratio = Compliance.wellOver(done: distanceKm, planned: match.slot.distanceKm)
  else { return nil }
  let why =
    match.slot.kind == .long
    ? "a long run far past the plan is the kind of jump that gets runners hurt"
    : "the plan builds by about 10 % a week, and the extra load tires the runs after it"
  return "\(units.format(distanceKm)) is \(Int((ratio * 100).rounded())) % of the planned "
    + "\(units.format(match.slot.distanceKm)), well over it: \(why); keep to the plan's distance next time."
}

/// The match of a run already stored (its workout and status), for a run found to be a twin.
public func storedMatch(_ run: Completion, slots: [PlannedSlot]) -> SlotMatch? {
  guard let id = run.workoutID, let slot = slots.first(where: { $0.workoutID == id }) else { return nil }
  return SlotMatch(slot: slot, status: run.status ?? .done, day: slot.date == run.date ? .sameDay : .late)
}

/// "same run as run 3, logged by hand on Tue 5 Jan: ..." for a candidate that twins a run already known, saying
/// which record was kept, in `units`.
public func twinDescription(_ twin: IngestedRuns.Twin, units: DistanceUnit = .km) -> String {
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
public func matchSummary(_ result: IngestedRuns, plan saved: SavedPlan?) -> String? {
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
public func crossTrainingMinutes(_ seconds: Double) -> Int {
  guard seconds.isFinite, seconds > 0, seconds < 1e9 else { return 0 }
  return Int((seconds / 60).rounded())
}

extension RunsAdded {
  /// What `log` says of the one run it was given, in `units`: the run logged, how it counted for the plan (matched;
  /// the day's workout done already, or of another kind; no workout that day; no plan) and the bests it set. For a
  /// run already in the logbook: which one, and the workout it counts for. Inputs are named by `flag`.
  public func logLines(units: DistanceUnit, naming flag: (InputField) -> String) -> [String] {
    if let twin = result.twins.first {
      let run = twin.stored
      var lines = ["Already in the logbook: " + twinDescription(twin, units: units) + "."]
      if let matched = matchDescription(storedMatch(of: run), distanceKm: run.distanceKm, in: plan, units: units) {
        lines.append(matched + ".")
      }
      return lines
    }
    guard let new = result.added.first else { return [] }
    let stored = new.run
    var lines = [
      "Logged run \(stored.id ?? 0): \(stored.date.shortLabel), \(units.format(stored.distanceKm)) "
        + "in \(formatRaceTime(stored.durationSeconds)) (\(units.pace(secondsPerKilometer: stored.secondsPerKm)))"
    ]
    if let matched = matchDescription(new.match, distanceKm: stored.distanceKm, in: plan, units: units) {
      lines.append(
        matched + ". " + (overshoot(of: new.match, distanceKm: stored.distanceKm, units: units) ?? "Nice work!"))
    } else if let own = slots.first(where: { $0.date == stored.date }) {
      // The day's workout was fulfilled by another run already, or is of a kind this run does not cover.
      let title = plan?.plan.workouts.first { $0.id == own.workoutID }?.title(in: units) ?? own.workoutID
      let done = result.before.contains { $0.planID == plan?.id && $0.workoutID == own.workoutID }
      lines.append(
        (done
          ? "\(title) of that day is done already"
          : "Not counted for \(title) of that day (another kind of run, short of it)")
          + ": logged as an extra run. Nice work!")
    } else if plan != nil {
      lines.append("No planned workout that day: logged as an extra run. Nice work!")
    } else {
      lines.append("Nice work! (no active plan: save one with `runmate plan ... \(flag(.save))` to track it)")
    }
    return lines + newBests.map { "New personal best: \($0)!" }
  }
}
