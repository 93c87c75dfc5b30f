import Foundation
import RunningCore
import Training
import TrainingDomain

// What `runmate pull` and the plan of `runmate push` call: the athlete's updates since a cursor, and the plan of the
// athlete's own logbook sent to the server. An athlete account on its own profile; a coach account gets 404.
extension CoachAPIHandler {
  func getMyUpdates(_ input: Operations.GetMyUpdates.Input) async throws -> Operations.GetMyUpdates.Output {
    let account = try signedIn()
    do {
      let updates = try athleteUpdates(
        for: account, since: input.query.since, in: store, systemZone: systemZone, now: configuration.now())
      return .ok(
        .init(
          body: .json(
            .init(
              athlete: updates.athlete, comments: updates.comments.map(render), more: updates.more,
              planRevision: updates.planRevision, planFile: try updates.plan?.encoded(),
              cursor: updates.cursor.text))))
    } catch let error as CoachViewError {
      if case .invalid = error { return .badRequest(badRequest(apiMessage(error))) }
      return .notFound(notFound(apiMessage(error)))
    }
  }

  func pushMyPlan(_ input: Operations.PushMyPlan.Input) async throws -> Operations.PushMyPlan.Output {
    let account = try signedIn()
    let body =
      switch input.body {
      case .json(let request): request
      }
    do {
      _ = try ownAthlete(for: account, in: store)  // a coach account: 404 before its body is read
      let file = try PlanFile.parse(Data(body.planFile.utf8), source: "plan_file")
      let outcome = try pushPlan(file, base: body.base, by: account, in: store, now: configuration.now())
      return .ok(.init(body: .json(.init(saved: outcome.stored, planId: outcome.planID, cursor: outcome.cursor.text))))
    } catch let error as CoachViewError {
      switch error {
      case .invalid: return .badRequest(badRequest(apiMessage(error)))
      case .planChanged: return .conflict(.init(body: .json(.init(error: apiMessage(error)))))
      default: return .notFound(notFound(apiMessage(error)))
      }
    } catch let error as any RunnerFacingError where error.kind == .badInput || error.kind == .badData {
      return .badRequest(badRequest(apiMessage(error)))
    }
  }
}
