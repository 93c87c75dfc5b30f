import Digest
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import PlanEngine
import RunningCore
import TrainingDomain

/// How the coach API runs: the clock, the zone of profiles that name none, and its limits.
public struct CoachAPIConfiguration: Sendable {
  /// The system time zone's identifier, for profiles and plans that name none.
  public var systemZone: String
  /// The largest request body, in bytes (413 above).
  public var maxBodyBytes: Int
  /// The largest plan an athlete sends (`PUT /api/v1/me/plan`: a marathon plan's document is over 64 KiB), in bytes.
  public var maxPlanBodyBytes: Int
  /// Failed logins allowed per account and per peer within a minute (429 past them).
  public var loginFailuresPerMinute: Int
  /// The bcrypt cost of the decoy hash an unknown login is checked against: the accounts' own, so that an unknown
  /// login takes as long as a wrong password (tests that make accounts at a low cost lower it too).
  public var passwordCost: UInt8
  /// The clock (tests fix it).
  public var now: @Sendable () -> Date
  /// The training rules plans are made with (`plan-templates/`); nil: assigning and rebuilding plans answer 503.
  public var rules: PlanRules?

  /// A configuration.
  public init(
    systemZone: String, maxBodyBytes: Int = 64 * 1024, maxPlanBodyBytes: Int = 1024 * 1024,
    loginFailuresPerMinute: Int = 5,
    passwordCost: UInt8 = AccountRules.defaultCost, now: @escaping @Sendable () -> Date = { Date() },
    rules: PlanRules? = nil
  ) {
    self.rules = rules
    self.systemZone = systemZone
    self.maxBodyBytes = maxBodyBytes
    self.maxPlanBodyBytes = maxPlanBodyBytes
    self.loginFailuresPerMinute = loginFailuresPerMinute
    self.passwordCost = passwordCost
    self.now = now
  }
}

/// The request's account and peer, set by ``CoachAPIMiddleware`` for the handlers.
enum APIRequest {
  /// The account the bearer token opened (nil on the public operations).
  @TaskLocal static var account: Account?
  /// The SHA-256 of the bearer token.
  @TaskLocal static var tokenHash: [UInt8]?
  /// The peer's address, for the login rate limit.
  @TaskLocal static var peer = "unknown"
}

/// Adds the coach API (`/api/v1`, as Sources/CoachAPI/openapi.yaml describes it) to `router`, over `store`.
public func addCoachAPI<Context: RemoteAddressRequestContext>(
  to router: Router<Context>, store: any TrainingStore, configuration: CoachAPIConfiguration, logger: Logger
) throws {
  let handler = CoachAPIHandler(
    store: store, configuration: configuration,
    throttle: LoginThrottle(limit: configuration.loginFailuresPerMinute), logger: logger)
  // The operations as the generated code registers them, first collected, so that the middleware knows every path
  // and its methods (405 with the path's own Allow) without a second list to keep in step with the document.
  let collector = RouteCollector()
  try handler.registerHandlers(on: collector)
  router.add(
    middleware: CoachAPIMiddleware(
      store: store, configuration: configuration, logger: logger, routes: collector.routes))
  try handler.registerHandlers(on: router)
}

/// An operation's path, as segments (`{athlete}` matches any one segment), and its method.
struct APIRoute: Sendable {
  let method: HTTPRequest.Method
  let segments: [String]

  /// Whether `path` has this route's shape.
  func matches(_ path: [Substring]) -> Bool {
    path.count == segments.count
      && zip(segments, path).allSatisfy { pattern, segment in
        pattern.hasPrefix("{") || pattern == segment
      }
  }
}

/// A transport that only notes what is registered on it.
final class RouteCollector: ServerTransport, @unchecked Sendable {
  private(set) var routes: [APIRoute] = []

  func register(
    _ handler:
      @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
        HTTPResponse, HTTPBody?
      ),
    method: HTTPRequest.Method, path: String
  ) throws {
    routes.append(APIRoute(method: method, segments: path.split(separator: "/").map(String.init)))
  }
}

/// Whether `path` is the coach API's.
public func isCoachAPIPath(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") }

/// Before every `/api/` request: the body read whole up to the limit (413 above, JSON); the bearer token checked for
/// every operation but logging in and the document (401 with `WWW-Authenticate: Bearer` without a valid one); the
/// account and peer handed to the handlers; and every failure answered in JSON (404 for a path that is not the API's).
struct CoachAPIMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
  let store: any TrainingStore
  let configuration: CoachAPIConfiguration
  let logger: Logger
  /// Every operation of the API.
  let routes: [APIRoute]

  private static func isPublic(_ request: Request) -> Bool {
    (request.uri.path == "/api/v1/sessions" && request.method == .post) || request.uri.path == "/api/v1/openapi.yaml"
  }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard isCoachAPIPath(request.uri.path) else { return try await next(request, context) }
    var request = request
    let limit =
      request.uri.path == "/api/v1/me/plan" && request.method == .put
      ? configuration.maxPlanBodyBytes : configuration.maxBodyBytes
    let declared = request.headers[.contentLength].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    // Refused unread: the connection closes after the answer (the connection guard drops the rest).
    let tooLarge = problem(
      .contentTooLarge, "the request body is over \(limit) bytes", headers: [.connection: "close"])
    if let declared, declared > limit { return tooLarge }
    // Unread, the body is dropped with the connection: every answer given before reading it closes it.
    let hasBody = (declared ?? 0) > 0 || request.headers[.transferEncoding] != nil
    let unread: HTTPFields = hasBody ? [.connection: "close"] : [:]
    let peer = context.remoteAddress?.ipAddress ?? "unknown"
    // A path of the API with a method it does not have: 405 naming the path's methods; no path of the API: 404.
    let segments = request.uri.path.split(separator: "/")
    let methods = routes.filter { $0.matches(segments) }.map(\.method)
    if methods.isEmpty {
      return problem(
        .notFound, "no such path in the coach API: \(String(request.uri.path.prefix(200)))", headers: unread)
    }
    if !methods.contains(request.method) {
      var headers = unread
      headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
      return problem(.methodNotAllowed, "\(request.method.rawValue) is not allowed here", headers: headers)
    }
    do {
      if Self.isPublic(request) {
        if let refused = await readBody(&request, upTo: limit) { return refused }
        return try await APIRequest.$peer.withValue(peer) { try await next(request, context) }
      }
      // The token before the body: a request without a valid one is answered without reading what it sends.
      guard let hash = bearerTokenHash(request.headers[.authorization]),
        let account = try store.sessionAccount(tokenHash: hash, at: configuration.now())
      else {
        var answer = unauthorized("a valid bearer token is needed: POST /api/v1/sessions gives one")
        answer.headers.append(contentsOf: unread)
        return answer
      }
      if let refused = await readBody(&request, upTo: limit) { return refused }
      return try await APIRequest.$account.withValue(account) {
        try await APIRequest.$tokenHash.withValue(hash) {
          try await APIRequest.$peer.withValue(peer) { try await next(request, context) }
        }
      }
    } catch let error as ServerError where error.operationInput == nil {
      // The request did not decode as the document says (a body, a parameter or a content type): the client's fault.
      return problem(.badRequest, "the request does not match the API (\(error.causeDescription))")
    } catch let error as HTTPError where error.status == .notFound {
      return problem(.notFound, "no such path in the coach API: \(String(request.uri.path.prefix(200)))")
    } catch let error as HTTPError {
      return problem(error.status, error.body ?? error.status.reasonPhrase)
    } catch {
      return failureAnswer(error, path: request.uri.path, logger: logger)
    }
  }
}

/// How long a client waits before asking again after a 503 (a store that is down or locked), in seconds.
let storeRetryAfterSeconds = 5

/// The answer to a request that failed on the server's side, and its one log line, which never holds the request:
/// the OpenAPI runtime's `ServerError` describes the whole decoded request (the `Authorization` header, a
/// `LoginRequest`'s password), so only its cause is logged, and of that only what the store said in words or the
/// error's type. A store that cannot be reached or stayed locked is 503 with `Retry-After` (the request may go
/// through later); anything else is 500.
public func failureAnswer(_ error: any Error, path: String, logger: Logger) -> Response {
  let cause = (error as? ServerError)?.underlyingError ?? error
  let shownPath = String(path.prefix(200))
  if cause is PasswordChecks.Full {
    logger.notice("login refused: too many at once", metadata: ["path": "\(shownPath)"])
    return problem(
      .serviceUnavailable, "too many logins at once: try again in \(PasswordChecks.retryAfterSeconds) s",
      headers: [.retryAfter: String(PasswordChecks.retryAfterSeconds)])
  }
  if let store = cause as? LogbookError {
    switch store {
    case .busy, .serverUnavailable:
      logger.warning(
        "coach API store unavailable", metadata: ["path": "\(shownPath)", "reason": "\(store.description)"])
      return problem(
        .serviceUnavailable, "the server's database is unavailable or busy; try again in \(storeRetryAfterSeconds) s",
        headers: [.retryAfter: String(storeRetryAfterSeconds)])
    default:
      logger.error(
        "coach API request failed", metadata: ["path": "\(shownPath)", "error": "\(store.description)"])
    }
  } else {
    logger.error(
      "coach API request failed", metadata: ["path": "\(shownPath)", "error": "\(String(reflecting: type(of: cause)))"])
  }
  return problem(.internalServerError, "the server failed to answer; the error is in its log")
}

/// How long a request body may take to arrive: at least ``minimumBodyBytesPerSecond`` over its length, and never less
/// than ``bodyDeadlineFloor`` (a body dripped a byte at a time held a connection slot for ever).
let minimumBodyBytesPerSecond = 16 * 1024
/// See ``minimumBodyBytesPerSecond``.
let bodyDeadlineFloor = Duration.seconds(5)

extension CoachAPIMiddleware {
  /// Reads the body whole (up to `limit`) within its deadline (``minimumBodyBytesPerSecond``); nil when read, else
  /// the answer: 413 over the limit, 408 past the deadline, both closing the connection.
  func readBody(_ request: inout Request, upTo limit: Int) async -> Response? {
    let deadline = max(bodyDeadlineFloor, .seconds(Double(limit) / Double(minimumBodyBytesPerSecond)))
    let body = request.body
    let outcome = await RunningCore.outcome(within: deadline) { try await body.collect(upTo: limit) }
    switch outcome {
    case .some(.success(let buffer)):
      request.body = .init(buffer: buffer)
      return nil
    case .some(.failure):
      return problem(.contentTooLarge, "the request body is over \(limit) bytes", headers: [.connection: "close"])
    case .none:
      return problem(
        .requestTimeout,
        "the request body did not arrive within \(deadline) (at least \(minimumBodyBytesPerSecond) bytes a second)",
        headers: [.connection: "close"])
    }
  }
}

/// The SHA-256 of the token in an `Authorization: Bearer TOKEN` header, nil for anything else.
func bearerTokenHash(_ header: String?) -> [UInt8]? {
  guard let header else { return nil }
  let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
  guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
  return SecretTokens.hash(parts[1].trimmingCharacters(in: .whitespaces))
}

/// A JSON problem answer (`{"error": message}`).
func problem(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
  var headers = headers
  headers[.contentType] = "application/json; charset=utf-8"
  let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{}".utf8)
  return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
}

/// 401 with `WWW-Authenticate: Bearer`.
func unauthorized(_ message: String) -> Response {
  problem(.unauthorized, message, headers: [.wwwAuthenticate: "Bearer"])
}
