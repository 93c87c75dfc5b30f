import Foundation
import Ingest
import RunningCore

/// A run an athlete pushes from their own logbook to the coach server, with the identity it has on the athlete's
/// side: the server keeps one run per athlete and identity, so a run sent twice is one run.
public struct PushedRun: Sendable, Hashable {
  /// The run's identity on the athlete's side (stable across pushes).
  public var clientID: String
  /// The run as the athlete logged it (no id, plan or match: the server decides those).
  public var run: Completion

  /// A run to push.
  public init(clientID: String, run: Completion) {
    self.clientID = clientID
    self.run = run
  }
}

/// What a push did, run by run counted.
public struct PushOutcome: Sendable, Hashable {
  /// Runs stored as new runs.
  public var added = 0
  /// Runs the server had from an earlier push (the same identity): nothing written.
  public var alreadyThere = 0
  /// Runs with a new identity that were the same run as one the athlete's plan already counted (Ingest's twins):
  /// recorded under the new identity, not stored twice.
  public var twins = 0
  /// Runs removed because the athlete deleted them from the logbook (``applyDeletions(_:account:planIDs:at:to:)``).
  public var removed = 0
  /// Runs the server had under their identity, rewritten because the athlete's record of them changed since (a
  /// watch's record merged into a hand-logged run, a note added).
  public var updated = 0

  /// An outcome.
  public init(added: Int = 0, alreadyThere: Int = 0, twins: Int = 0, removed: Int = 0, updated: Int = 0) {
    self.added = added
    self.alreadyThere = alreadyThere
    self.twins = twins
    self.removed = removed
    self.updated = updated
  }
}

/// The reads and writes an engine gives ``applyPush(_:deleted:account:at:to:)``, inside its one write
/// transaction, beside those of ``IngestWrites``.
public protocol PushWrites: IngestWrites {
  /// The activities counted for plan `planID` dated `from` through `through`, with their best efforts, by date, then
  /// id: read through the plan's date index, so a push costs its runs' weeks, not the athlete's whole history.
  func activities(ofPlan planID: String, from: CivilDate, through: CivilDate) throws -> [Completion]
  /// Which of `clientIDs` profile `profileID` pushed before: each identity and the completion it was stored as.
  func pushedRuns(profileID: Int64, clientIDs: [String]) throws -> [String: Int64]
  /// Records that profile `profileID` pushed the run `clientID`, stored as completion `completionID`.
  func recordPushed(profileID: Int64, clientID: String, completionID: Int64, at now: Date) throws
  /// Appends a line to the audit log.
  func audit(account: Account, action: AuditEntry.Action, detail: String, at now: Date) throws
  /// The ids of the runs of plan `planID` whose identity is one of `identities`.
  func runIDs(ofPlan planID: String, identities: [String]) throws -> [Int64]
  /// The identities profile `profileID` pushed that stand for each of the completions `completionIDs`.
  func pushedIdentities(profileID: Int64, completionIDs: [Int64]) throws -> [Int64: Set<String>]
  /// Forgets that profile `profileID` pushed `clientIDs` (a run deleted on the athlete's side may be pushed again).
  func forgetPushed(profileID: Int64, clientIDs: [String]) throws
  /// Deletes the completion `id` (its best efforts and pushed identities go with it) and returns its day.
  func deleteRun(id: Int64) throws -> CivilDate?
  /// Records that a plan was followed by another from a day on (one row per earlier plan: the latest replaces it).
  func recordSuccession(_ succession: PlanSuccession) throws
}

/// One plan's share of a push: the runs of its days and its workouts on their scheduled days.
public struct PushPlan: Sendable {
  /// The plan.
  public let planID: String
  /// Its planned workouts, the runs' matches.
  public let slots: [PlannedSlot]
  /// The pushed runs of the days it is in force (``planInForce(on:current:successions:)``).
  public let runs: [PushedRun]

  /// A plan's share.
  public init(planID: String, slots: [PlannedSlot], runs: [PushedRun]) {
    self.planID = planID
    self.slots = slots
    self.runs = runs
  }
}

/// A push over the plans in force on its runs' days (the athlete's plan, and the plans it followed), in the caller's
/// one write transaction: each plan's runs stored as ``storePush(_:removedDays:account:planID:slots:at:to:)`` stores
/// them, and the deletions applied to every one of the plans. The outcomes are summed.
public func applyPush(
  _ plans: [PushPlan], deleted: [String], account: Account, at now: Date, to store: some PushWrites
) throws -> PushOutcome {
  for plan in plans { for pushed in plan.runs { _ = try pushed.run.validated() } }
  // The deletions first, once for all the plans: a deleted run goes whichever plan it was stored under, and every
  // plan matches the weeks of the removed runs' days again (the freed workout may be an earlier plan's, and a plan's
  // share that came first must not take the removal from the plan whose week it changes).
  let removedDays = try applyDeletions(deleted, account: account, planIDs: plans.map(\.planID), at: now, to: store)
  var total = PushOutcome(removed: removedDays.count)
  for plan in plans {
    let outcome = try storePush(
      plan.runs, removedDays: removedDays, account: account, planID: plan.planID, slots: plan.slots, at: now,
      to: store)
    total.added += outcome.added
    total.alreadyThere += outcome.alreadyThere
    total.twins += outcome.twins
    total.updated += outcome.updated
  }
  return total
}

/// Removes from the server the runs the athlete deleted from the logbook (`runmate log delete`, `log undo`), inside
/// the caller's write transaction, before a push's runs are stored: each of `identities` (the deleted runs'
/// ``Completion/identity``) removes the run of the plans `planIDs` that has it and the run the athlete pushed under it,
/// unless another identity the athlete pushed still stands for that run (the same run kept on a second device).
/// Its pushed record goes too, so a run logged again later is stored again. Nothing but the athlete's own runs
/// (their plan's, or pushed by them) is ever removed; an identity the server never had removes nothing, so sending
/// the same deletions again is harmless. Returns the days of the runs removed.
///
/// The runs of any of `planIDs` count as the plan's (the athlete's plan and the plans it followed). One audit line
/// tells how many went.
public func applyDeletions(
  _ identities: [String], account: Account, planIDs: [String], at now: Date, to store: some PushWrites
) throws -> [CivilDate] {
  guard !identities.isEmpty else { return [] }
  let deleted = Set(identities)
  let pushed = try store.pushedRuns(profileID: account.profileID, clientIDs: identities)
  var candidates = Set(pushed.values)
  for planID in planIDs { candidates.formUnion(try store.runIDs(ofPlan: planID, identities: identities)) }
  let claims = try store.pushedIdentities(profileID: account.profileID, completionIDs: candidates.sorted())
  let removed = candidates.sorted().filter { claims[$0, default: []].subtracting(deleted).isEmpty }
  try store.forgetPushed(profileID: account.profileID, clientIDs: identities)
  let days = try removed.compactMap { try store.deleteRun(id: $0) }
  if !days.isEmpty {
    try store.audit(
      account: account, action: .runsPushed, detail: "\(days.count) runs removed (deleted by the athlete)", at: now)
  }
  return days
}

/// Stores an athlete's pushed runs the one way, inside the caller's write transaction, each run recognised by its
/// identity (``Completion/identity``, the `client_id`) before anything else:
/// - an identity the athlete pushed before, or one a run of plan `planID` already has (the athlete's logbook copied
///   to the server with `runmate database copy`, or pushed from another device), is **already there**: nothing is
///   written but the identity's record;
/// - a run with an identity the server does not know that is one of the plan's runs kept twice (``areSameRecord(_:_:)``,
///   a copy made before runs had identities) or the same run from another source (Ingest's ``areTwins(_:_:)``) is a
///   **twin**: recorded under its identity, not stored twice;
/// - any other goes through ``applyIngest(_:planID:slots:to:wroteRow:)`` against the runs of plan `planID` only
///   (another athlete's run on the same day is never a twin), matched to `slots`, and is stored with its identity.
/// The runs the athlete deleted are removed before, once for all the plans of the push
/// (``applyDeletions(_:account:planIDs:at:to:)``), and `removedDays` (their days) are this plan's weeks to match again
/// besides those of the runs stored. The runs are ``Completion/validated()`` by the caller.
func storePush(
  _ runs: [PushedRun], removedDays: [CivilDate], account: Account, planID: String, slots: [PlannedSlot],
  at now: Date, to store: some PushWrites
) throws -> PushOutcome {
  let days = runs.map(\.run.date) + removedDays
  guard let first = days.min(), let last = days.max() else { return PushOutcome() }
  let pushedBefore = try store.pushedRuns(profileID: account.profileID, clientIDs: runs.map(\.clientID))
  var known = Set(pushedBefore.keys)
  /// The stored runs a run of this push already stands for: not the twin of a second one (a double day of two
  /// identical runs is two runs on every device).
  var claimed = Set<Int64>()
  // The plan's runs of the pushed runs' weeks and a week either side: all a twin (a day apart at most) or a match
  // (a workout of the same week) can be, and where a run with the same identity is (it keeps its day).
  let window = (
    from: first.adding(days: -IngestRules.pushWindowDays), through: last.adding(days: IngestRules.pushWindowDays)
  )
  let planRuns = PlanRunWrites(
    base: store, planID: planID,
    runs: try store.activities(ofPlan: planID, from: window.from, through: window.through))
  var outcome = PushOutcome()
  /// The days whose weeks are matched again at the end: runs removed and rewritten (added runs are, as they go).
  var rematched = removedDays
  /// Records `clientID` as the stored run `id`, which now stands for it.
  func record(_ clientID: String, as id: Int64) throws {
    claimed.insert(id)
    try store.recordPushed(profileID: account.profileID, clientID: clientID, completionID: id, at: now)
  }
  /// Counts a run the server has: rewritten with the pushed record when the athlete's logbook changed it since
  /// (a watch's record merged into a hand-logged run, a note added), else already there.
  func alreadyHeld(_ pushed: PushedRun, as id: Int64?) throws {
    guard let stored = planRuns.runs.first(where: { $0.id == id && id != nil }),
      let refreshed = refreshed(stored, with: pushed.run, slots: slots)
    else {
      outcome.alreadyThere += 1
      return
    }
    try planRuns.update(refreshed)
    outcome.updated += 1
    rematched.append(refreshed.date)
  }
  for pushed in runs {
    guard known.insert(pushed.clientID).inserted else {
      try alreadyHeld(pushed, as: pushedBefore[pushed.clientID])
      continue
    }
    if let held = planRuns.runs.first(where: { $0.identity == pushed.clientID }), let id = held.id {
      try alreadyHeld(pushed, as: id)
      try record(pushed.clientID, as: id)
      continue
    }
    if let copy = planRuns.runs.first(where: { run in
      run.id.map { !claimed.contains($0) } == true && run.isRun && areSameRecord(run, pushed.run)
    }), let id = copy.id {
      outcome.twins += 1
      try record(pushed.clientID, as: id)
      continue
    }
    var run = pushed.run
    run.id = nil
    run.planID = nil
    run.workoutID = nil
    run.status = nil
    run.identity = pushed.clientID
    let result = try applyIngest([run], planID: planID, slots: slots, to: planRuns) {}
    if let stored = result.added.first?.run, let id = stored.id {
      outcome.added += 1
      try record(pushed.clientID, as: id)
    } else if let twin = result.twins.first, let id = twin.stored.id {
      outcome.twins += 1
      try record(pushed.clientID, as: id)
    }
  }
  _ = try rematchWeeks(holding: rematched, planID: planID, slots: slots, among: planRuns.runs, to: planRuns)
  if outcome.added + outcome.twins + outcome.updated > 0 {
    try store.audit(
      account: account, action: .runsPushed,
      detail: "\(outcome.added) runs added, \(outcome.twins) twins, \(outcome.updated) updated, "
        + "\(outcome.alreadyThere) already there", at: now)
  }
  return outcome
}

/// `stored` with the record of `pushed` (the same run as the athlete's logbook has it now), its id, identity, plan
/// and workout kept and its status measured again against that workout's slot; nil when the records agree (start
/// times to the second, as the API carries them).
func refreshed(_ stored: Completion, with pushed: Completion, slots: [PlannedSlot]) -> Completion? {
  func second(_ instant: Date?) -> Int64? { instant.map { Int64($0.timeIntervalSince1970.rounded(.down)) } }
  let same =
    stored.date == pushed.date && second(stored.startedAt) == second(pushed.startedAt)
    && stored.distanceKm == pushed.distanceKm && stored.durationSeconds == pushed.durationSeconds
    && stored.movingSeconds == pushed.movingSeconds && stored.kind == pushed.kind && stored.rpe == pushed.rpe
    && stored.averageHeartRate == pushed.averageHeartRate
    && stored.elevationGainMeters == pushed.elevationGainMeters && stored.note == pushed.note
    && stored.source == pushed.source
  if same { return nil }
  var run = pushed
  run.id = stored.id
  run.identity = stored.identity
  run.planID = stored.planID
  run.workoutID = stored.workoutID
  run.sport = stored.sport
  run.sourceFile = stored.sourceFile
  run.bestEfforts = []
  run.status =
    stored.workoutID.flatMap { id in slots.first { $0.workoutID == id } }.map {
      matchStatus(distanceKm: run.distanceKm, for: $0)
    } ?? stored.status
  return run
}

/// The runs of one plan as ``applyIngest(_:planID:slots:to:wroteRow:)`` sees them during a push: read once, kept
/// current as runs are inserted and rewritten, the writes passed to the engine.
private final class PlanRunWrites<Base: IngestWrites>: IngestWrites {
  let base: Base
  let planID: String
  var runs: [Completion]

  init(base: Base, planID: String, runs: [Completion]) {
    self.base = base
    self.planID = planID
    self.runs = runs
  }

  func storedActivities() throws -> [Completion] { runs }

  func planExists(id: String) throws -> Bool { id == planID }

  func update(_ run: Completion) throws {
    try base.update(run)
    if let index = runs.firstIndex(where: { $0.id == run.id }) { runs[index] = run }
  }

  func insert(_ run: Completion) throws -> Completion {
    let stored = try base.insert(run)
    runs.append(stored)
    return stored
  }
}
