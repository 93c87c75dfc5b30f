import Digest
import Foundation
import PlanEngine
import RunningCore
import TrainingDomain

/// The most comments one answer of `GET /api/v1/me/updates` carries; ``AthleteUpdates/more`` says when more follow.
public let maxUpdateComments = 200

/// Where an athlete's copy stands against the server (`runmate pull`'s cursor, opaque to the client): the last
/// comment it was given and the revision of the plan it holds. Written `u1.42.3f9a0c1d2e4b5a69` (`-` for no plan).
public struct UpdatesCursor: Sendable, Equatable {
  /// The number of the last comment given (``WorkoutComment/id`` grows with every comment); 0 for none.
  public var lastComment: Int64
  /// The ``planRevision(_:settings:)`` of the plan the athlete holds; nil for none.
  public var planRevision: String?

  /// A cursor: nothing seen yet by default.
  public init(lastComment: Int64 = 0, planRevision: String? = nil) {
    self.lastComment = lastComment
    self.planRevision = planRevision
  }

  /// The cursor as the client keeps it.
  public var text: String { "u1.\(lastComment).\(planRevision ?? "-")" }

  /// The cursor `text` names, as `field` (`since`, `base`) gave it.
  /// - Throws: ``CoachViewError/invalid(field:value:allowed:)`` for text that is not a cursor.
  public init(parsing text: String, field: RequestField) throws(CoachViewError) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "u1", let last = Int64(parts[1]), last >= 0,
      parts[2] == "-" || (parts[2].count == 16 && parts[2].allSatisfy(\.isHexDigit))
    else {
      throw .invalid(
        field: field, value: String(text.prefix(40)),
        allowed: "the cursor of the last answer of /api/v1/me/updates, or none for everything")
    }
    self.init(lastComment: last, planRevision: parts[2] == "-" ? nil : String(parts[2]))
  }
}

/// The revision of a plan with its schedule settings: 16 hex digits of the SHA-256 of its `runmate.plan-share/1`
/// document (without its name and export time), the same for the same plan and settings on every server.
public func planRevision(_ plan: Plan, settings: ScheduleSettings?) throws -> String {
  let text = try PlanFile(name: "plan", exportedAt: Date(timeIntervalSince1970: 0), plan: plan, settings: settings)
    .encoded()
  return String(SHA256.hex(Array(text.utf8)).prefix(16))
}

/// What changed for an athlete on the server since a cursor: the coaches' new comments and, when it changed, the
/// athlete's plan as a `runmate.plan-share/1` file.
public struct AthleteUpdates: Sendable {
  /// The athlete's profile name.
  public let athlete: String
  /// The coaches' comments after the cursor's, oldest first (the athlete's own are skipped: they wrote them).
  public let comments: [WorkoutComment]
  /// More comments follow: ask again with ``cursor``.
  public let more: Bool
  /// The athlete's plan with its settings when its revision is not the cursor's; nil when unchanged or none.
  public let plan: PlanFile?
  /// The plan's revision on the server (nil without a plan).
  public let planRevision: String?
  /// The cursor to pass next time.
  public let cursor: UpdatesCursor
}

/// The `GET /me/updates` use case: for an athlete account, the coaches' comments on its workouts after `since`
/// (at most ``maxUpdateComments``), and its assigned plan when the plan's revision is not the one `since` holds.
/// - Throws: ``CoachViewError/invalid(field:value:allowed:)`` for a cursor that is not one (`since`);
///   ``CoachViewError/noSuchAthlete(name:)`` for a coach account.
public func athleteUpdates(
  for account: Account, since: String?, in store: any TrainingStore, systemZone: String, now: Date
) throws -> AthleteUpdates {
  let cursor = try since.map { text throws(CoachViewError) in try UpdatesCursor(parsing: text, field: .since) }
  let athlete = try ownAthlete(for: account, in: store)
  guard let athleteID = athlete.id else { throw CoachViewError.noSuchAthlete(name: athlete.name) }
  let from = cursor ?? UpdatesCursor()
  let page = try store.comments(athleteID: athleteID, after: from.lastComment, limit: maxUpdateComments + 1)
  let given = page.prefix(maxUpdateComments)
  var plan: PlanFile?
  var revision: String?
  if let saved = try store.plans(ofProfile: athleteID).first {
    let settings = try store.scheduleSettings(ofPlan: saved.id)
    revision = try planRevision(saved.plan, settings: settings)
    if revision != from.planRevision {
      plan = PlanFile(name: saved.name, exportedAt: now, plan: saved.plan, settings: settings)
    }
  }
  return AthleteUpdates(
    athlete: athlete.name, comments: given.filter { $0.role == .coach }, more: page.count > maxUpdateComments,
    plan: plan, planRevision: revision,
    cursor: UpdatesCursor(lastComment: given.last?.id ?? from.lastComment, planRevision: revision))
}

/// What sending the athlete's plan did: whether it was stored (false when the server had this plan already), and
/// the cursor the athlete keeps (the comments where they were, the plan's new revision).
public struct PlanPushOutcome: Sendable, Equatable {
  /// Whether the plan was stored.
  public let stored: Bool
  /// The plan's id on the server.
  public let planID: String
  /// The cursor to keep.
  public let cursor: UpdatesCursor
}

/// The `PUT /me/plan` use case: `file`, the plan of the athlete's own logbook, saved as the athlete's plan on the
/// server, under the id of the plan the server has for them (a new athlete's own id otherwise), so that the coach's
/// views, comments and runs stay with it. `base` is the cursor of the athlete's last pull: when the server's plan
/// changed since (a coach assigned or rebuilt it), nothing is written and the athlete must pull first, so that a
/// coach's change is never overwritten unseen. Sending the plan the server has changes nothing.
/// - Throws: ``CoachViewError/planChanged(athlete:)``; ``CoachViewError/invalid(field:value:allowed:)`` for a plan
///   whose days do not fit its settings (`plan_file`) or a bad `base`; ``CoachViewError/noSuchAthlete(name:)`` for
///   a coach account.
public func pushPlan(
  _ file: PlanFile, base: String?, by account: Account, in store: any TrainingStore, now: Date
) throws -> PlanPushOutcome {
  let from = try base.map { text throws(CoachViewError) in try UpdatesCursor(parsing: text, field: .base) }
  let athlete = try ownAthlete(for: account, in: store)
  guard let athleteID = athlete.id else { throw CoachViewError.noSuchAthlete(name: athlete.name) }
  let current = try store.plans(ofProfile: athleteID).first
  let plan = current.map { file.plan.identified(as: $0.id) } ?? file.plan.owned(by: athlete.name)
  let settings = file.settings.map(PlanFile.shared)
  let revision = try planRevision(plan, settings: settings)
  let cursor = UpdatesCursor(lastComment: from?.lastComment ?? 0, planRevision: revision)
  if let current {
    let was = try planRevision(current.plan, settings: try store.scheduleSettings(ofPlan: current.id))
    if was == revision { return PlanPushOutcome(stored: false, planID: current.id, cursor: cursor) }
    guard was == from?.planRevision else { throw CoachViewError.planChanged(athlete: athlete.name) }
  }
  let ready: PlanFileToSave
  do {
    ready = try PlanFile(name: file.name, exportedAt: now, plan: plan, settings: settings)
      .readyToSave(as: nil, from: "plan_file")
  } catch {
    throw CoachViewError.invalid(
      field: .planFile, value: file.name, allowed: "a plan its settings can schedule (\(error))")
  }
  let name = current?.name ?? "\(athlete.name)-\(file.name)"
  let goal = plan.goal
  let saved = try store.saveAthletePlan(
    plan, name: name, schedule: (settings, ready.dated), athleteID: athleteID, by: account, action: .planPushed,
    detail: "plan \(plan.id) '\(name)' from the athlete's logbook: \(goal.distance.rawValue) \(goal.level.rawValue), "
      + "\(goal.weeks) weeks from \(goal.start), race \(goal.raceDate)",
    at: now)
  return PlanPushOutcome(stored: true, planID: saved.id, cursor: cursor)
}
