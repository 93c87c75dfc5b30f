import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// An HTTP client for a coach server's API (`runmate serve --api`, docs/api.md): logging in and out, and the
/// athlete's own operations. No redirects followed, 3 s to connect and no retry of a refused connection (a server
/// that is down is said at once), 60 s per request, answers read up to 1 MiB.
public final class CoachClient: Sendable {
  /// The server's address, as shown in messages (`https://coach.example.org`).
  public let server: String
  private let base: URL
  private let client: HTTPClient
  /// The longest answer read.
  static let maximumBody = 1 << 20

  /// A client for the server at `address` (call ``shutdown()`` when done).
  /// - Throws: ``CoachClientError/badURL(_:)`` for anything but an http(s) URL with a host.
  public init(server address: String) throws(CoachClientError) {
    let trimmed = address.trimmingCharacters(in: .whitespaces)
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
      let host = url.host, !host.isEmpty, url.query == nil, url.user == nil
    else { throw .badURL(String(trimmed.prefix(200))) }
    var shown = trimmed
    while shown.hasSuffix("/") { shown.removeLast() }
    server = shown
    base = url
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow, timeout: .init(connect: .seconds(3), read: .seconds(60)))
    configuration.httpVersion = .http1Only
    // A command sends a few requests and a person waits: a refused connection is an answer, not a flake to retry
    // with backoff until the connect timeout (10 s before).
    configuration.connectionPool.retryConnectionEstablishment = false
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  /// Closes the connections.
  public func shutdown() async {
    try? await client.shutdown()
  }

  /// An answer: its status, headers and body.
  struct Reply {
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    /// The `error` of a problem body, else a short form of the body.
    var message: String {
      if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
        let error = object["error"] as? String
      {
        return error
      }
      return String(String(decoding: body, as: UTF8.self).prefix(200))
    }
  }

  /// Sends one request to `path` (under the server's address) and reads the whole answer.
  func send(_ method: HTTPMethod, _ path: String, token: String? = nil, json: Data? = nil)
    async throws(CoachClientError) -> Reply
  {
    var request = HTTPClientRequest(url: server + path)
    request.method = method
    request.headers.add(name: "User-Agent", value: "runmate")
    request.headers.add(name: "Accept", value: "application/json")
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let json {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: json))
    }
    do {
      let response = try await client.execute(request, timeout: .seconds(60))
      let body = try await response.body.collect(upTo: Self.maximumBody)
      return Reply(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    } catch {
      throw .unreachable(server: server, detail: Self.describe(error))
    }
  }

  /// A short text for a connection error.
  static func describe(_ error: any Error) -> String {
    if let error = error as? HTTPClientError,
      error == .connectTimeout || error == .readTimeout || error == .deadlineExceeded
    {
      return "timed out"
    }
    let text = "\(error)"
    let lower = text.lowercased()
    if lower.contains("connectionrefused") || lower.contains("connection refused") { return "connection refused" }
    if lower.contains("unknownhost") || lower.contains("name or service not known") { return "unknown host" }
    return text.count > 160 ? String(text.prefix(160)) + "…" : text
  }

  /// Decodes a JSON answer of the API (snake_case keys, ISO 8601 instants).
  static func decode<T: Decodable>(_ type: T.Type, from reply: Reply, server: String) throws(CoachClientError) -> T {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    do {
      return try decoder.decode(type, from: reply.body)
    } catch {
      throw .refused(server: server, status: reply.status, message: "an answer that is not the API's (\(error))")
    }
  }

  /// The failure an answer other than the expected one is: 401 a token refused, else the server's message.
  func failure(_ reply: Reply) -> CoachClientError {
    reply.status == 401
      ? .tokenRefused(server: server)
      : .refused(
        server: server, status: reply.status, message: reply.message)
  }

  // MARK: - Sessions

  private struct LoginAnswer: Decodable {
    let token: String
    let expiresAt: Date
  }

  /// Logs in as `login` with `password` and returns the session.
  /// - Throws: ``CoachClientError/loginRefused(login:server:)`` (401), ``CoachClientError/rateLimited(server:seconds:)``
  ///   (429, with the server's wait), ``CoachClientError/unreachable(server:detail:)``.
  public func login(_ login: String, password: String) async throws(CoachClientError) -> CoachSession {
    let body: Data
    do {
      body = try JSONEncoder().encode(["login": login, "password": password])
    } catch {
      throw .refused(server: server, status: 0, message: "the login cannot be written as JSON")
    }
    let reply = try await send(.POST, "/api/v1/sessions", json: body)
    switch reply.status {
    case 201:
      let answer = try Self.decode(LoginAnswer.self, from: reply, server: server)
      return CoachSession(server: server, login: login, token: answer.token, expiresAt: answer.expiresAt)
    case 401: throw .loginRefused(login: login, server: server)
    case 429:
      throw .rateLimited(server: server, seconds: reply.headers.first(name: "Retry-After").flatMap { Int($0) } ?? 60)
    default: throw .refused(server: server, status: reply.status, message: reply.message)
    }
  }

  /// Revokes the session's token on the server.
  public func logout(_ session: CoachSession) async throws(CoachClientError) {
    let reply = try await send(.DELETE, "/api/v1/sessions/current", token: session.token)
    guard reply.status == 204 else { throw failure(reply) }
  }
}

/// Runs `body` with a client for the server at `address`, shut down after it whatever happens.
/// - Throws: ``CoachClientError/badURL(_:)``, and what `body` throws.
public func withCoachClient<T: Sendable>(
  server address: String, _ body: @Sendable (CoachClient) async throws -> T
) async throws -> T {
  let client = try CoachClient(server: address)
  do {
    let value = try await body(client)
    await client.shutdown()
    return value
  } catch {
    await client.shutdown()
    throw error
  }
}
