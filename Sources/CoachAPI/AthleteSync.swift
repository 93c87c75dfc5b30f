import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

// The athlete's own operations (`/api/v1/me/…`, what `runmate push` and `pull` call): an athlete account on its own
// profile; a coach account gets 404, as for an athlete it may not see.
extension CoachAPIHandler {
  func getMyPlan(_ input: Operations.GetMyPlan.Input) async throws -> Operations.GetMyPlan.Output {
    let account = try signedIn()
    do {
      let athlete = try ownAthlete(for: account, in: store)
      let view = try athletePlan(athlete, in: store, systemZone: configuration.systemZone, now: configuration.now())
      return .ok(.init(body: .json(render(view))))
    } catch let error as CoachViewError {
      return .notFound(.init(body: .json(.init(error: apiMessage(error)))))
    }
  }

  func pushMyRuns(_ input: Operations.PushMyRuns.Input) async throws -> Operations.PushMyRuns.Output {
    let account = try signedIn()
    let body =
      switch input.body {
      case .json(let request): request
      }
    do {
      let runs = try body.runs.enumerated().map { index, run in try pushedRun(run, index: index) }
      let outcome = try pushRuns(
        runs, deleted: body.deleted ?? [], by: account, in: store, systemZone: configuration.systemZone,
        now: configuration.now())
      return .ok(
        .init(
          body: .json(
            .init(
              added: outcome.added, alreadyThere: outcome.alreadyThere, twins: outcome.twins,
              removed: outcome.removed, updated: outcome.updated))))
    } catch let error as CoachViewError {
      if case .invalid = error { return .badRequest(.init(body: .json(.init(error: apiMessage(error))))) }
      return .notFound(.init(body: .json(.init(error: apiMessage(error)))))
    }
  }

  /// A pushed run as Training takes it; a date or kind that is not one is refused naming the run.
  private func pushedRun(_ run: Components.Schemas.PushedRun, index: Int) throws(CoachViewError) -> PushedRun {
    guard let date = CivilDate(iso: run.date) else {
      throw .invalid(
        field: .run(index: index, .record(.date)), value: String(run.date.prefix(40)),
        allowed: "a day as YYYY-MM-DD (2026-05-03)")
    }
    var kind: WorkoutKind?
    if let text = run.kind {
      guard let known = WorkoutKind(rawValue: text) else {
        throw .invalid(
          field: .run(index: index, .kind), value: String(text.prefix(40)),
          allowed: WorkoutKind.allCases.map(\.rawValue).joined(separator: ", "))
      }
      kind = known
    }
    let source = run.source.flatMap { Completion.Source(rawValue: $0.rawValue) } ?? .manual
    return PushedRun(
      clientID: run.clientId,
      run: Completion(
        date: date, startedAt: run.startedAt, distanceKm: run.distanceKm, durationSeconds: run.durationS,
        movingSeconds: run.movingS, kind: kind, rpe: run.rpe, averageHeartRate: run.averageHeartRate,
        elevationGainMeters: run.elevationGainM, note: run.note, source: source))
  }
}
