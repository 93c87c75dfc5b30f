import Foundation
import Ingest
import RunningCore
import TrainingDomain

/// The most runs one push carries (a year of runs is two or three; each request stays under the API's body limit).
public let maxPushedRuns = 200

/// The longest identity a pushed run may have, in UTF-8 bytes.
public let maxClientIDBytes = 128

/// The most identities of deleted runs one push carries.
public let maxDeletedRuns = 1000

/// The profile an athlete account is, for the athlete's own operations (`/api/v1/me/…`); a coach account has none
/// (``CoachViewError/noSuchAthlete(name:)``, the same answer as for an athlete it may not see).
public func ownAthlete(for account: Account, in store: any TrainingStore) throws -> Profile {
  guard account.role == .athlete, let profile = try store.profile(named: account.profileName) else {
    throw CoachViewError.noSuchAthlete(name: account.profileName)
  }
  return profile
}

/// Stores the runs an athlete account pushed from its own logbook for its assigned plan, matched to the plan's
/// workouts on their scheduled days; a run whose identity it pushed before is not stored again, and one that is the
/// same run as one the plan already counts is a twin (``PushOutcome``). Audited when anything is stored.
/// - Throws: ``CoachViewError/invalid(field:value:allowed:)`` naming the run (`runs[3].distance_km` in the API) before anything is
///   written; ``CoachViewError/noSuchAthlete(name:)`` for a coach account; ``CoachViewError/noPlan(athlete:)``.
public func pushRuns(
  _ runs: [PushedRun], deleted: [String] = [], by account: Account, in store: any TrainingStore, systemZone: String,
  now: Date
) throws -> PushOutcome {
  guard runs.count <= maxPushedRuns else {
    throw CoachViewError.invalid(
      field: .runs, value: "\(runs.count) runs",
      allowed: "1 to \(maxPushedRuns) runs a request; send the others in further requests")
  }
  guard deleted.count <= maxDeletedRuns else {
    throw CoachViewError.invalid(
      field: .deleted, value: "\(deleted.count) identities",
      allowed: "at most \(maxDeletedRuns) a request; send the others in further requests")
  }
  for (index, identity) in deleted.enumerated() where !(1...maxClientIDBytes).contains(identity.utf8.count) {
    throw CoachViewError.invalid(
      field: .deletedRun(index: index), value: String(identity.prefix(40)),
      allowed: "1 to \(maxClientIDBytes) bytes, a deleted run's identity on the athlete's side")
  }
  for (index, pushed) in runs.enumerated() {
    guard (1...maxClientIDBytes).contains(pushed.clientID.utf8.count) else {
      throw CoachViewError.invalid(
        field: .run(index: index, .clientID), value: String(pushed.clientID.prefix(40)),
        allowed: "1 to \(maxClientIDBytes) bytes, the run's identity on the athlete's side")
    }
    do {
      _ = try pushed.run.validatedAsSent()
    } catch {
      guard case .implausible(_, let field, let value, let allowed) = error else { throw error }
      throw CoachViewError.invalid(field: .run(index: index, .record(field)), value: value, allowed: allowed)
    }
  }
  let athlete = try ownAthlete(for: account, in: store)
  let state = try athleteState(athlete, in: store, systemZone: systemZone)
  // Each run for the plan in force on its day (the athlete's plan, or one it followed); deletions reach them all.
  let chain = try PlanChain.read(from: state, in: store, profile: athlete, systemZone: systemZone)
  var plans = chain.shares(of: runs) { $0.run.date }.map { share in
    PushPlan(planID: share.state.saved.id, slots: share.state.plannedSlots, runs: share.items)
  }
  if !deleted.isEmpty {
    for earlier in chain.states.dropFirst() where !plans.contains(where: { $0.planID == earlier.saved.id }) {
      plans.append(PushPlan(planID: earlier.saved.id, slots: earlier.plannedSlots, runs: []))
    }
  }
  return try store.pushRuns(plans, deleted: deleted, account: account, at: now)
}

/// The runs deleted from the local logbook that `runmate push` asks the server to remove (their identities): every
/// run deleted and not logged again since. Sent on every push (removing what is gone already removes nothing), so
/// a push that failed, or a second server, still hears of them.
public func deletionsToPush(in store: any TrainingStore) throws -> [String] {
  try store.deletedRunIdentities()
}

/// The runs of the local logbook that `runmate push` sends: every run (not cross-training), by date, each with its
/// ``Completion/identity`` (the one it was given when first stored, kept through merges and copies). The server
/// counts them for the plan it assigned the athlete.
public func runsToPush(in store: any TrainingStore) throws -> [PushedRun] {
  try store.completions().filter(\.isRun).map { PushedRun(clientID: $0.identity ?? recordIdentity(of: $0), run: $0) }
}

/// The plan of the local logbook that `runmate push` sends (as its `runmate.plan-share/1` document): the one named,
/// else the active one; nil for a logbook without plans, which sends its runs only.
public func planToPush(named name: String?, in store: any TrainingStore, now: Date) throws -> PlanFile? {
  if name == nil, try store.plans().isEmpty { return nil }
  return try store.planFile(named: name, exportedAt: now)
}

extension PlanFile {
  /// The revision of the plan this document carries, as the server computes it (``planRevision(_:settings:)`` of
  /// the plan and its settings as shared): `runmate push` keeps the revision it last sent or pulled, and sends the
  /// plan again only when it differs.
  public func revision() throws -> String {
    try planRevision(plan, settings: settings.map(PlanFile.shared))
  }
}
