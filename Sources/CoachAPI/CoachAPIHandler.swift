import Digest
import Foundation
import HummingbirdBcrypt
import Logging
import OpenAPIRuntime
import PlanEngine
import RunningCore
import Synchronization
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
  /// The logins' password checks, bounded.
  let passwordChecks = PasswordChecks()
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
    if let bad = TextRules.forbiddenInName(body.login) {
      return .badRequest(
        .init(
          body: .json(
            .init(
              error: "login: '\(TextRules.quoted(body.login))' is not valid, allowed is "
                + TextRules.nameAllowed(found: bad)))))
    }
    let keys = ["login:" + body.login.lowercased(), "peer:" + APIRequest.peer]
    if let wait = await throttle.attempt(keys, at: now) {
      return .tooManyRequests(
        .init(
          headers: .init(retryAfter: wait),
          body: .json(.init(error: "too many failed logins: try again in \(wait) s"))))
    }
    let account = try store.account(login: body.login)
    // bcrypt reads a password up to its first NUL: "secret\0guess" would pass for "secret". No account has one.
    let password = body.password.unicodeScalars.contains("\u{0}") ? SecretTokens.generate() : body.password
    guard let matches = await passwordChecks.verify(password, hash: account?.passwordHash ?? decoyHash) else {
      await throttle.forgive(keys, at: now)
      throw PasswordChecks.Full()
    }
    guard let account, matches else {
      logger.notice("login refused", metadata: ["peer": "\(APIRequest.peer)"])
      return .unauthorized(
        .init(headers: .init(wwwAuthenticate: "Bearer"), body: .json(.init(error: "wrong login or password"))))
    }
    await throttle.forgive(keys, at: now)
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

/// The password checks (bcrypt) of logins, never on the server's event loops or the concurrency pool: at most
/// ``width`` at once, on threads of their own, so that a burst of logins leaves a core to every other request (80
/// logins at once stalled an authenticated request for 8 to 20 s when each took a thread of the global pool); at
/// most ``maxWaiting`` wait for one, and a login past them is answered 503 with `Retry-After` at once.
final class PasswordChecks: Sendable {
  /// Seconds a login refused for the queue waits before trying again.
  static let retryAfterSeconds = 2
  /// Too many logins wait for a check: answered 503 with `Retry-After` (``failureAnswer(_:path:logger:)``).
  struct Full: Error {}
  /// Checks at once: one core less than the machine has, at least one.
  let width: Int
  /// Logins that may wait for a check.
  let maxWaiting: Int
  private let queue: OperationQueue
  private let pending = Mutex(0)

  init(width: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), maxWaiting: Int = 64) {
    self.width = width
    self.maxWaiting = maxWaiting
    let queue = OperationQueue()
    queue.name = "runmate.password-checks"
    queue.maxConcurrentOperationCount = width
    queue.qualityOfService = .utility
    self.queue = queue
  }

  /// Whether `password` matches `hash`; nil when too many logins wait already (nothing checked).
  func verify(_ password: String, hash: String) async -> Bool? {
    let admitted = pending.withLock { count in
      guard count < width + maxWaiting else { return false }
      count += 1
      return true
    }
    guard admitted else { return nil }
    return await withCheckedContinuation { continuation in
      queue.addOperation {
        let matches = Bcrypt.verify(password, hash: hash)
        self.pending.withLock { $0 -= 1 }
        continuation.resume(returning: matches)
      }
    }
  }
}

/// A handler reached without the middleware's account: a wiring fault, answered 500.
enum APIFailure: Error, CustomStringConvertible {
  case noAccount

  var description: String { "an API operation ran without a signed-in account" }
}
