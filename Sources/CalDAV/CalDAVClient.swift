import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RunningCore

/// A calendar collection on a CalDAV server (RFC 4791) and the account that writes to it.
public struct CalDAVAccount: Sendable {
  /// The collection's URL, ending in `/`.
  public var collection: URL
  /// The user name for HTTP basic authentication.
  public var user: String
  /// The (app) password.
  public var password: String
  /// The longest one request may take, its answer's headers and body included (a server that drips its answer
  /// is cut there).
  public var requestDeadline: Duration

  /// The default ``requestDeadline``.
  public static let defaultRequestDeadline = Duration.seconds(60)

  /// Checks `url` (absolute http(s) with a host; plain http only to this machine, see ``Loopback``) and adds the
  /// final `/`.
  /// - Throws: ``CalDAVError/badURL(url:reason:)`` or ``CalDAVError/insecure(url:)``.
  public init(
    url: String, user: String, password: String, requestDeadline: Duration = CalDAVAccount.defaultRequestDeadline
  ) throws(CalDAVError) {
    guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host,
      !host.isEmpty
    else {
      throw .badURL(url: url, reason: "not an absolute URL with a host")
    }
    guard scheme == "https" || scheme == "http" else {
      throw .badURL(url: url, reason: "the scheme is \(scheme), not https")
    }
    guard parsed.user == nil, parsed.password == nil, parsed.query == nil, parsed.fragment == nil else {
      throw .badURL(url: url, reason: "a user, password, query or fragment in the URL is not allowed")
    }
    if scheme == "http" && !Loopback.isThisMachine(host) { throw .insecure(url: url) }
    var text = parsed.absoluteString
    if !text.hasSuffix("/") { text += "/" }
    guard let collection = URL(string: text) else { throw .badURL(url: url, reason: "not a URL") }
    self.collection = collection
    self.user = user
    self.password = password
    self.requestDeadline = requestDeadline
  }

  /// The collection's URL as the sync stores it (no trailing-slash or case differences in scheme and host).
  public var collectionKey: String { collection.absoluteString }

  /// The host (and port) for messages.
  var hostLabel: String {
    let host = collection.host ?? "?"
    return collection.port.map { "\(host):\($0)" } ?? host
  }

  /// The path of the resource named `name` (a file name, percent-encoded here) in the collection.
  public func href(forName name: String) -> String {
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~@")
    let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    return collection.path(percentEncoded: true) + encoded
  }
}

/// What a PUT or DELETE with a precondition did.
public enum WriteOutcome: Sendable, Equatable {
  /// Done; the resource's new ETag when the server gave one (never for a DELETE).
  case done(etag: String?)
  /// 412 Precondition Failed: the resource changed on the server since its ETag was stored (or, for a create,
  /// a resource of that name exists).
  case preconditionFailed
  /// 404 on a DELETE or an update: the resource is gone from the server.
  case gone
}

/// The precondition of a write (RFC 9110 §13.1).
public enum WritePrecondition: Sendable, Hashable {
  /// `If-None-Match: *`: only when no resource of that name exists.
  case create
  /// `If-Match: ETAG`: only when the resource still has this ETag.
  case match(String)
  /// None (`--force`).
  case none
}

/// An HTTP client for one calendar collection: PROPFIND, GET, PUT and DELETE with basic authentication, no
/// redirects followed (a redirect is reported with where it points), 30 s per request, bodies read up to 16 MiB.
public final class CalDAVClient: Sendable {
  /// The account.
  public let account: CalDAVAccount
  private let client: HTTPClient
  /// The longest response body read.
  static let maximumBody = 16 << 20

  /// A client for `account` (call ``shutdown()`` when done).
  public init(account: CalDAVAccount) {
    self.account = account
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(connect: .seconds(10), read: .seconds(30)))
    configuration.httpVersion = .http1Only
    // A sync sends its requests while a person waits: a refused connection is an answer (the server is down), not a
    // flake to retry with backoff until the deadline, as the coach client has it. A connect that hangs still waits
    // for the connect timeout.
    configuration.connectionPool.retryConnectionEstablishment = false
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  /// Closes the connections.
  public func shutdown() async {
    try? await client.shutdown()
  }

  private var authorization: String {
    "Basic " + Data("\(account.user):\(account.password)".utf8).base64EncodedString()
  }

  /// The URL of `href` (a path on the collection's server, or an absolute URL).
  func url(of href: String) -> String {
    if href.hasPrefix("http://") || href.hasPrefix("https://") { return href }
    var components = URLComponents(url: account.collection, resolvingAgainstBaseURL: false)
    components?.percentEncodedPath = href
    return components?.url?.absoluteString ?? account.collection.absoluteString
  }

  /// What a request's answer is: its status, headers and body.
  typealias Reply = (status: Int, headers: HTTPHeaders, body: [UInt8])

  /// Sends one request and reads its whole answer within ``CalDAVAccount/requestDeadline`` (headers and body: a
  /// server dripping its answer a byte at a time never trips the idle read timeout, so the deadline is the total).
  /// - Throws: ``CalDAVError/unreachable(host:detail:)`` for a failure to connect, ``CalDAVError/tooSlow(host:seconds:)``
  ///   past the deadline, ``CalDAVError/malformedResponse(url:detail:)`` for an answer cut short or over the limit.
  func send(
    _ method: String, _ href: String, headers: [(String, String)] = [], body: [UInt8]? = nil
  ) async throws(CalDAVError) -> Reply {
    var request = HTTPClientRequest(url: url(of: href))
    request.method = HTTPMethod(rawValue: method)
    request.headers.add(name: "Authorization", value: authorization)
    request.headers.add(name: "User-Agent", value: "runmate")
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
    let deadline = account.requestDeadline
    // The exchange races the deadline; the loser is cancelled (AsyncHTTPClient closes the connection).
    let outcome = await RunningCore.outcome(within: deadline) { [request] in
      try await self.exchange(request, deadline: deadline)
    }
    let tooSlow = CalDAVError.tooSlow(host: account.hostLabel, seconds: Self.seconds(deadline))
    switch outcome {
    case .success(let reply)?: return reply
    case nil: throw tooSlow
    case .failure(let error as HTTPClientError)? where error == .deadlineExceeded: throw tooSlow
    case .failure(let error as HTTPClientError)? where error == .bodyLengthMismatch || error == .remoteConnectionClosed:
      throw .malformedResponse(url: url(of: href), detail: "\(error)")
    case .failure(let error as NIOTooManyBytesError)?:
      throw .malformedResponse(url: url(of: href), detail: "a body over \(Self.maximumBody) bytes (\(error))")
    case .failure(let error)?:
      throw .unreachable(host: account.hostLabel, detail: Self.describe(error))
    }
  }

  /// The request sent and its answer read whole (the head within `deadline`, as AsyncHTTPClient counts it).
  private func exchange(_ request: HTTPClientRequest, deadline: Duration) async throws -> Reply {
    let response = try await client.execute(request, timeout: .nanoseconds(Int64(Self.seconds(deadline) * 1e9)))
    var buffer = try await response.body.collect(upTo: Self.maximumBody)
    let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
    return (Int(response.status.code), response.headers, bytes)
  }

  /// `60`, `2.5`: a duration in seconds, for messages.
  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// A short text for a connection error.
  static func describe(_ error: any Error) -> String {
    if let error = error as? HTTPClientError {
      if error == .connectTimeout || error == .readTimeout || error == .deadlineExceeded { return "timed out" }
      return "\(error)"
    }
    let text = "\(error)"
    let lower = text.lowercased()
    if lower.contains("connectionrefused") || lower.contains("connection refused") { return "connection refused" }
    if lower.contains("unknownhost") || lower.contains("nxdomain") || lower.contains("name or service not known") {
      return "unknown host"
    }
    if lower.contains("handshakefailed") || lower.contains("wrong_version_number") {
      return "the TLS handshake failed (not an https server on that port, or a certificate refused)"
    }
    if lower.contains("certificate") { return "its TLS certificate was refused" }
    return text.count > 160 ? String(text.prefix(160)) + "…" : text
  }

  /// The collection and its members (PROPFIND, Depth 1): checks the credentials and that the URL is a calendar.
  /// - Returns: The members (not the collection itself), by the last segment of their href, percent-decoded.
  /// - Throws: ``CalDAVError/unauthorized(user:status:)``, ``CalDAVError/notACalendar(url:detail:)``,
  ///   ``CalDAVError/unreachable(host:detail:)``, ``CalDAVError/malformedResponse(url:detail:)``.
  public func members() async throws(CalDAVError) -> [String: DAVEntry] {
    let query = """
      <?xml version="1.0" encoding="utf-8"?>
      <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>
      """
    let collectionPath = account.collection.path(percentEncoded: true)
    let response = try await send(
      "PROPFIND", collectionPath,
      headers: [("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8")], body: Array(query.utf8))
    let shown = account.collection.absoluteString
    switch response.status {
    case 207: break
    case 401, 403: throw .unauthorized(user: account.user, status: response.status)
    case 404: throw .notACalendar(url: shown, detail: CalDAVError.missingCollection)
    case 300...399:
      let target = response.headers.first(name: "Location") ?? "elsewhere"
      throw .notACalendar(url: shown, detail: "HTTP \(response.status), redirected to \(target); use that URL")
    default:
      throw .notACalendar(url: shown, detail: "PROPFIND answered HTTP \(response.status) (not a WebDAV server?)")
    }
    let entries: [DAVEntry]
    do {
      entries = try parseMultistatus(response.body)
    } catch {
      throw .malformedResponse(url: shown, detail: "\(error)")
    }
    let own = Self.normalized(collectionPath)
    guard let collection = entries.first(where: { Self.normalized(Self.path(of: $0.href)) == own }) else {
      throw .notACalendar(url: shown, detail: "the server's answer does not describe this URL")
    }
    guard collection.isCalendar else {
      throw .notACalendar(
        url: shown,
        detail: collection.isCollection ? "a plain collection (a folder), not a calendar" : "not a collection")
    }
    var members: [String: DAVEntry] = [:]
    for entry in entries where Self.normalized(Self.path(of: entry.href)) != own && !entry.isCollection {
      let path = Self.path(of: entry.href)
      let name = String(path.split(separator: "/").last ?? "")
      members[name.removingPercentEncoding ?? name] = entry
    }
    return members
  }

  /// The path of an href (an absolute URL's path; a path as it is).
  static func path(of href: String) -> String {
    if let url = URL(string: href), url.scheme != nil { return url.path(percentEncoded: true) }
    return href
  }

  /// A path compared without percent-encoding differences and a trailing slash.
  static func normalized(_ path: String) -> String {
    let decoded = path.removingPercentEncoding ?? path
    return decoded.hasSuffix("/") ? String(decoded.dropLast()) : decoded
  }

  /// PUTs `body` (one calendar object) at `href` under `precondition`.
  /// - Throws: ``CalDAVError`` for an authentication failure, a refusal or a connection failure.
  public func put(_ body: [UInt8], at href: String, precondition: WritePrecondition) async throws(CalDAVError)
    -> WriteOutcome
  {
    var headers = [("Content-Type", "text/calendar; charset=utf-8")]
    switch precondition {
    case .create: headers.append(("If-None-Match", "*"))
    case .match(let etag): headers.append(("If-Match", etag))
    case .none: break
    }
    let response = try await send("PUT", href, headers: headers, body: body)
    switch response.status {
    case 200...299: return .done(etag: response.headers.first(name: "ETag"))
    case 412: return .preconditionFailed
    case 404: return .gone
    case 401, 403: throw .unauthorized(user: account.user, status: response.status)
    default: throw .unexpected(method: "PUT", resource: href, status: response.status)
    }
  }

  /// DELETEs `href`, only while it has `etag` when one is given.
  /// - Throws: ``CalDAVError`` for an authentication failure, a refusal or a connection failure.
  public func delete(_ href: String, etag: String?) async throws(CalDAVError) -> WriteOutcome {
    let response = try await send("DELETE", href, headers: etag.map { [("If-Match", $0)] } ?? [])
    switch response.status {
    case 200...299: return .done(etag: nil)
    case 412: return .preconditionFailed
    case 404, 410: return .gone
    case 401, 403: throw .unauthorized(user: account.user, status: response.status)
    default: throw .unexpected(method: "DELETE", resource: href, status: response.status)
    }
  }

  /// The resource at `href` and its ETag; nil when there is none.
  /// - Throws: ``CalDAVError`` for an authentication failure, a refusal or a connection failure.
  public func get(_ href: String) async throws(CalDAVError) -> (body: [UInt8], etag: String?)? {
    let response = try await send("GET", href)
    switch response.status {
    case 200: return (response.body, response.headers.first(name: "ETag"))
    case 404, 410: return nil
    case 401, 403: throw .unauthorized(user: account.user, status: response.status)
    default: throw .unexpected(method: "GET", resource: href, status: response.status)
    }
  }

  /// The ETag of `href` (PROPFIND, Depth 0), for servers that answer a PUT without one; nil when none.
  public func etag(of href: String) async throws(CalDAVError) -> String? {
    let query = """
      <?xml version="1.0" encoding="utf-8"?>
      <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>
      """
    let response = try await send(
      "PROPFIND", href, headers: [("Depth", "0"), ("Content-Type", "application/xml; charset=utf-8")],
      body: Array(query.utf8))
    guard response.status == 207 else { return nil }
    return (try? parseMultistatus(response.body))?.first?.etag
  }
}
