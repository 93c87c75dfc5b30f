import Foundation
import Ingest
import PlanEngine
import RunningCore
import TrainingDomain

/// What adding runs did (`log`, `import`): the plan they count for (nil: none saved), the workouts they were matched
/// against, the one ingest result (new runs with their matches, twins, runs left out), the runner's unit and the
/// personal bests the new runs set. The CLI words it (``matchDescription(_:distanceKm:in:units:)``,
/// ``twinDescription(_:units:)``).
public struct RunsAdded: Sendable {
  /// The plan the runs count for.
  public var plan: SavedPlan?
  /// Its planned workouts on their scheduled days.
  public var slots: [PlannedSlot]
  /// What the store did, in one transaction.
  public var result: IngestedRuns
  /// The runner's distance unit.
  public var units: DistanceUnit
  /// The bests before the new runs (from the logbook as read in the transaction, and the plan's longest recent run).
  public var bestsBefore: PersonalBests
  /// The bests with the new runs and the device records merged into hand-logged runs.
  public var bestsAfter: PersonalBests

  /// Every best the new runs improved, in `units` (longest run, fastest race distances, biggest week): what `log`
  /// announces for a run.
  public var newBests: [String] { PersonalBests.improvements(from: bestsBefore, to: bestsAfter, units: units) }

  /// The fastest times improved: what `import` announces, where a history of files would make each long run and
  /// week a "best" on its way in.
  public var newFastest: [String] { PersonalBests.fastestImprovements(from: bestsBefore, to: bestsAfter) }

  /// The match of a run found to be a twin of one stored: the workout and status it already has.
  public func storedMatch(of run: Completion) -> SlotMatch? { Training.storedMatch(run, slots: slots) }
}

extension TrainingStore {
  /// The plan runs count for: the one named, else the active one; nil when none is named and none is active.
  public func planForRuns(named name: String?) throws -> SavedPlan? {
    do { return try plan(named: name) } catch LogbookError.noActivePlan { return nil }
  }

  /// Adds runs from any source the one way: the plan chosen (``planForRuns(named:)``), its planned workouts, and
  /// ``TrainingStore/ingestRuns(_:planID:slots:)`` deciding twins and matches inside the write transaction (two
  /// `log`s or imports at once store each run once and never match one workout twice).
  ///
  /// A longest run counts as a best only past the runner's own longest recent run (the plan's), not only the
  /// logbook's.
  ///
  /// Without a plan named, each run counts for the plan in force on its day (``PlanChain``): the active plan, or for a
  /// day before it began, the plan it followed (a coach's plan for another race, pulled), each plan's runs stored in
  /// a transaction of their own.
  public func addRuns(_ runs: [Completion], plan name: String?) throws -> RunsAdded {
    let saved = try planForRuns(named: name)
    var slots = try plannedSlots(for: saved, in: self)
    var shares = [(planID: saved?.id, slots: slots, runs: runs)]
    if name == nil, let saved, try !planSuccessions().isEmpty {
      let state = try TrainingState.read(
        saved, db: self, profile: try profile(named: nil), systemZone: TimeZone.current.identifier)
      let chain = try PlanChain.read(
        from: state, in: self, profile: try profile(named: nil), systemZone: TimeZone.current.identifier)
      if chain.states.count > 1 {
        shares = chain.shares(of: runs) { $0.date }.map { ($0.state.saved.id, $0.state.plannedSlots, $0.items) }
        slots = shares.flatMap(\.slots)
      }
    }
    var result = IngestedRuns()
    for (index, share) in shares.enumerated() {
      let part = try ingestRuns(share.runs, planID: share.planID, slots: share.slots)
      if index == 0 { result.before = part.before }
      result.added += part.added
      result.twins += part.twins
      result.skipped += part.skipped
    }
    let units = try runnerUnit(plan: saved)
    let baseline = Distance(kilometers: saved?.plan.goal.longestRecentRunKm ?? 0)
    let measured = result.added.map(\.run) + result.twins.filter(\.merged).map(\.stored)
    return RunsAdded(
      plan: saved, slots: slots, result: result, units: units,
      bestsBefore: PersonalBests(result.before, baselineLongest: baseline),
      bestsAfter: PersonalBests(result.before + measured.filter(\.isRun), baselineLongest: baseline))
  }
}

extension TrainingStore {
  /// `runmate log delete ID`: deletes the run, its week matched again against its plan's workouts (a workout it
  /// held goes to another run of the week that can fulfil it, as a coach's server holding the same runs matches
  /// them), its identity kept for `runmate push`.
  /// - Throws: ``LogbookError/noSuchCompletion(id:)``.
  public func deleteRun(id: Int64) throws -> Completion {
    guard let run = try (completions() + crossTraining()).first(where: { $0.id == id }) else {
      throw LogbookError.noSuchCompletion(id: id)
    }
    let plan = try run.planID.flatMap { planID in try plans().first { $0.id == planID } }
    return try deleteCompletion(id: id, slots: try plannedSlots(for: plan, in: self))
  }

  /// `runmate log --undo`: deletes the activity logged last, as ``deleteRun(id:)`` does.
  /// - Throws: ``LogbookError/nothingToUndo``.
  public func undoLastRun() throws -> Completion {
    guard let last = try (completions() + crossTraining()).compactMap(\.id).max() else {
      throw LogbookError.nothingToUndo
    }
    return try deleteRun(id: last)
  }
}
