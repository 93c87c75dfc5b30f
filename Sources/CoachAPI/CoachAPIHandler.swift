import Digest
import Foundation
import HummingbirdBcrypt
import Logging
import OpenAPIRuntime
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// The coach API's operations: each one takes its input, calls one Training use case with the clock and the zone,
/// and renders the view it gets back (metric JSON: kilometres, seconds, `YYYY-MM-DD` days). Nothing is decided here.
struct CoachAPIHandler: APIProtocol {
  let store: any TrainingStore
  let configuration: CoachAPIConfiguration
  let throttle: LoginThrottle
  let logger: Logger
  /// The roster rows kept between requests (each under its athlete's fingerprint in the store).
  let rosterCache = RosterCache()
  /// A bcrypt hash checked against when the login is unknown, so that an unknown login takes as long as a wrong
  /// password.
  private let decoyHash: String

  init(store: any TrainingStore, configuration: CoachAPIConfiguration, throttle: LoginThrottle, logger: Logger) {
    self.store = store
    self.configuration = configuration
    self.throttle = throttle
    self.logger = logger
    decoyHash = Bcrypt.hash(SecretTokens.generate(), cost: configuration.passwordCost)
  }

  var systemZone: String { configuration.systemZone }

  /// The account the middleware found for the bearer token.
  func signedIn() throws -> Account {
    guard let account = APIRequest.account else { throw APIFailure.noAccount }
    return account
  }

  // MARK: - The document and sessions

  func getOpenAPIDocument(_ input: Operations.GetOpenAPIDocument.Input) async throws
    -> Operations.GetOpenAPIDocument.Output
  {
    .ok(.init(body: .yaml(HTTPBody(openAPIDocumentText))))
  }

  func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
    let body =
      switch input.body {
      case .json(let login): login
      }
    let now = configuration.now()
    let keys = ["login:" + body.login.lowercased(), "peer:" + APIRequest.peer]
    if let wait = await throttle.retryAfter(keys, at: now) {
      return .tooManyRequests(
        .init(
          headers: .init(retryAfter: wait),
          body: .json(.init(error: "too many failed logins: try again in \(wait) s"))))
    }
    let account = try store.account(login: body.login)
    let matches = await verifyOffThePool(body.password, hash: account?.passwordHash ?? decoyHash)
    guard let account, matches else {
      await throttle.fail(keys, at: now)
      logger.notice("login refused", metadata: ["peer": "\(APIRequest.peer)"])
      return .unauthorized(
        .init(headers: .init(wwwAuthenticate: "Bearer"), body: .json(.init(error: "wrong login or password"))))
    }
    let token = SecretTokens.generate()
    guard let hash = SecretTokens.hash(token) else { throw APIFailure.noAccount }
    let expires = now.addingTimeInterval(AccountRules.tokenLifetime)
    try store.createSessionToken(accountID: account.id, tokenHash: hash, at: now, expiresAt: expires)
    return .created(
      .init(body: .json(.init(token: token, expiresAt: expires, account: render(account)))))
  }

  func deleteSession(_ input: Operations.DeleteSession.Input) async throws -> Operations.DeleteSession.Output {
    guard let hash = APIRequest.tokenHash, try store.revokeSessionToken(tokenHash: hash, at: configuration.now())
    else {
      return .unauthorized(
        .init(headers: .init(wwwAuthenticate: "Bearer"), body: .json(.init(error: "the token is not valid"))))
    }
    return .noContent(.init())
  }

  // MARK: - Coaching

  func getRoster(_ input: Operations.GetRoster.Input) async throws -> Operations.GetRoster.Output {
    let account = try signedIn()
    do {
      let roster = try coachRoster(
        for: account, in: store, systemZone: systemZone, cache: rosterCache, now: configuration.now())
      return .ok(.init(body: .json(render(roster))))
    } catch let error as CoachViewError {
      return .notFound(notFound(apiMessage(error)))
    }
  }

  func getAthletePlan(_ input: Operations.GetAthletePlan.Input) async throws -> Operations.GetAthletePlan.Output {
    let account = try signedIn()
    do {
      let athlete = try visibleAthlete(named: input.path.athlete, for: account, in: store)
      let view = try athletePlan(athlete, in: store, systemZone: systemZone, now: configuration.now())
      return .ok(.init(body: .json(render(view))))
    } catch let error as CoachViewError {
      return .notFound(notFound(apiMessage(error)))
    }
  }

  func getAthleteWeeks(_ input: Operations.GetAthleteWeeks.Input) async throws -> Operations.GetAthleteWeeks.Output {
    let account = try signedIn()
    do {
      let athlete = try visibleAthlete(named: input.path.athlete, for: account, in: store)
      let view = try athletePlan(athlete, in: store, systemZone: systemZone, now: configuration.now())
      return .ok(
        .init(
          body: .json(
            .init(athlete: view.athlete, today: view.today.description, weeks: view.weeks.map(render)))))
    } catch let error as CoachViewError {
      return .notFound(notFound(apiMessage(error)))
    }
  }

  func listAthleteRuns(_ input: Operations.ListAthleteRuns.Input) async throws -> Operations.ListAthleteRuns.Output {
    let account = try signedIn()
    do {
      let from = try input.query.from.map { try day($0, field: .from) }
      let athlete = try visibleAthlete(named: input.path.athlete, for: account, in: store)
      let view = try athleteRuns(
        athlete, from: from, days: input.query.days, in: store, systemZone: systemZone, now: configuration.now())
      return .ok(
        .init(
          body: .json(
            .init(
              athlete: view.athlete, from: view.from.description, to: view.to.description,
              runs: view.runs.map(render)))))
    } catch let error as CoachViewError {
      if case .invalid = error { return .badRequest(badRequest(apiMessage(error))) }
      return .notFound(notFound(apiMessage(error)))
    }
  }

  func listWorkoutComments(_ input: Operations.ListWorkoutComments.Input) async throws
    -> Operations.ListWorkoutComments.Output
  {
    let account = try signedIn()
    do {
      let date = try day(input.path.date, field: .date)
      let athlete = try visibleAthlete(named: input.path.athlete, for: account, in: store)
      let comments = try workoutComments(athlete, on: date, in: store, systemZone: systemZone)
      return .ok(
        .init(
          body: .json(.init(athlete: athlete.name, date: date.description, comments: comments.map(render)))))
    } catch let error as CoachViewError {
      if case .invalid = error { return .badRequest(badRequest(apiMessage(error))) }
      return .notFound(notFound(apiMessage(error)))
    }
  }

  func createWorkoutComment(_ input: Operations.CreateWorkoutComment.Input) async throws
    -> Operations.CreateWorkoutComment.Output
  {
    let account = try signedIn()
    let body =
      switch input.body {
      case .json(let comment): comment
      }
    do {
      let date = try day(input.path.date, field: .date)
      let athlete = try visibleAthlete(named: input.path.athlete, for: account, in: store)
      let comment = try addWorkoutComment(
        body.text, by: account, to: athlete, on: date, in: store, systemZone: systemZone, now: configuration.now())
      return .created(.init(body: .json(render(comment))))
    } catch let error as CoachViewError {
      if case .invalid = error { return .badRequest(badRequest(apiMessage(error))) }
      return .notFound(notFound(apiMessage(error)))
    }
  }

  // MARK: - Directory

  func listTrainers(_ input: Operations.ListTrainers.Input) async throws -> Operations.ListTrainers.Output {
    _ = try signedIn()
    do {
      let trainers = try trainerDirectory(query: input.query.q, specialty: input.query.specialty, in: store)
      return .ok(.init(body: .json(.init(trainers: trainers.map(render)))))
    } catch let error as CoachViewError {
      return .badRequest(badRequest(apiMessage(error)))
    }
  }

  // MARK: - Helpers

  /// A day given as `YYYY-MM-DD`.
  private func day(_ text: String, field: RequestField) throws(CoachViewError) -> CivilDate {
    guard let date = CivilDate(iso: text) else {
      throw .invalid(field: field, value: String(text.prefix(40)), allowed: "a day as YYYY-MM-DD (2026-05-03)")
    }
    return date
  }

  func badRequest(_ message: String) -> Components.Responses.BadRequest {
    .init(body: .json(.init(error: message)))
  }

  func notFound(_ message: String) -> Components.Responses.NotFound {
    .init(body: .json(.init(error: message)))
  }
}

/// Whether `password` has the bcrypt `hash`, worked out on a Dispatch thread: a quarter of a second of hashing at
/// cost 12 does not hold one of the few threads of the concurrency pool that every request shares.
func verifyOffThePool(_ password: String, hash: String) async -> Bool {
  await withCheckedContinuation { continuation in
    DispatchQueue.global(qos: .userInitiated).async {
      continuation.resume(returning: Bcrypt.verify(password, hash: hash))
    }
  }
}

/// A handler reached without the middleware's account: a wiring fault, answered 500.
enum APIFailure: Error, CustomStringConvertible {
  case noAccount

  var description: String { "an API operation ran without a signed-in account" }
}
