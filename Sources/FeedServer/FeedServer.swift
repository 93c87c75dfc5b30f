import CoachAPI
import Digest
import Foundation
import Hummingbird
import HummingbirdCore
import Logbook
import Logging
import NIOCore
import ServiceLifecycle
import Training
import TrainingDomain

/// What `runmate serve` listens on and serves.
public struct FeedServerConfiguration: Sendable {
  /// The address to bind (default loopback only).
  public var host: String
  /// The TCP port (0: any free port, reported through `onRunning`).
  public var port: Int
  /// The system time zone's identifier, for plans whose settings and profile name none.
  public var systemZone: String
  /// Whether each request is logged (one structured line, at info level).
  public var accessLog: Bool
  /// How long a connection may stay idle (no request head read, or nothing more after an answer) before it is
  /// closed: a client that sends half a request and stalls is dropped after this long.
  public var idleTimeout: Duration
  /// The most bytes a request head may have (request line and header fields together); more is refused with 400
  /// while it is read, so no more than this is kept.
  public var maxRequestHeadBytes: Int
  /// How long a new connection has to send a whole request head before it is closed (a client that sends nothing,
  /// or dribbles a head byte by byte), whatever the idle timeout.
  public var headTimeout: Duration
  /// How long a request may take from its head to its answer's head (its body read, the handler's work): past it the
  /// client is answered 503 with `Retry-After` and the connection closed, whatever the handler still does. Longer
  /// than the slowest body allowed (the coach API's 1 MiB plan at its minimum rate, 64 s).
  public var requestTimeout: Duration
  /// The most connections open at once (lowered to what the open-file limit allows): past it, the connection that has
  /// waited longest for a request head is closed to make room; when every connection is busy, the new one is
  /// answered 503. See ``ConnectionLimits``.
  public var maxConnections: Int
  /// The most connections open at once from one peer (an IPv4 address, an IPv6 /64): past it, the peer's connection
  /// that has waited longest for a request head is closed to make room; when all of them are busy, the new one is
  /// answered 503.
  public var maxConnectionsPerPeer: Int
  /// Whether SIGINT and SIGTERM stop the server gracefully (the command); tests stop it by cancelling its task.
  public var handlesSignals: Bool
  /// Whether `GET /metrics` answers any peer; by default only this machine (a loopback peer: Prometheus on the
  /// same host, or a proxy that serves it): others get the same 404 as any unknown path.
  public var metricsFromAnyPeer: Bool
  /// Whether the coach API (`/api/v1`, see CoachAPI) is served too: its methods (POST, PUT, DELETE) and JSON bodies
  /// are allowed under `/api/` only; nil serves the feeds alone.
  public var api: CoachAPIConfiguration?

  /// A configuration.
  public init(
    host: String = "127.0.0.1", port: Int = 8080, systemZone: String, accessLog: Bool = true,
    idleTimeout: Duration = .seconds(30), headTimeout: Duration = .seconds(10),
    requestTimeout: Duration = .seconds(120),
    maxRequestHeadBytes: Int = 16 * 1024,
    maxConnections: Int = 1000, maxConnectionsPerPeer: Int = 256, handlesSignals: Bool = true,
    metricsFromAnyPeer: Bool = false, api: CoachAPIConfiguration? = nil
  ) {
    self.host = host
    self.port = port
    self.systemZone = systemZone
    self.accessLog = accessLog
    self.idleTimeout = idleTimeout
    self.maxRequestHeadBytes = maxRequestHeadBytes
    self.headTimeout = headTimeout
    self.requestTimeout = requestTimeout
    self.maxConnections = maxConnections
    self.maxConnectionsPerPeer = maxConnectionsPerPeer
    self.handlesSignals = handlesSignals
    self.metricsFromAnyPeer = metricsFromAnyPeer
    self.api = api
  }
}

/// The subscription feed server: `GET /feeds/{token}.ics`, `GET /healthz` and `GET /metrics` (HEAD too), over the
/// logbook at `db`, counting into `metrics` (its own registry: see ``FeedMetrics``).
///
/// Runs until SIGINT or SIGTERM (when `configuration.handlesSignals`) or until its task is cancelled, then stops
/// accepting, finishes the requests in flight and returns (swift-service-lifecycle's graceful shutdown).
/// `onRunning` gets the bound port once it listens.
public func runFeedServer(
  db: any TrainingStore, configuration: FeedServerConfiguration, logger: Logger, metrics: FeedMetrics = FeedMetrics(),
  onRunning: @escaping @Sendable (Int) -> Void = { _ in }
) async throws {
  let feeds = FeedRoutes(db: db, systemZone: configuration.systemZone, logger: logger, metrics: metrics)
  let router = Router(context: FeedRequestContext.self)
  let metricsFromAnyPeer = configuration.metricsFromAnyPeer
  router.add(
    middleware: GuardAndLogMiddleware(
      logger: logger, accessLog: configuration.accessLog, metrics: metrics, api: configuration.api != nil))
  // HEAD is routed as GET; the middleware sends the head alone.
  for method in [HTTPRequest.Method.get, .head] {
    router.on("/healthz", method: method) { _, _ in try feeds.health() }
    router.on("/metrics", method: method) { _, context in
      metricsFromAnyPeer || isLocalPeer(context.remoteAddress) ? feeds.metricsText() : notFound()
    }
    router.on("/feeds/:file", method: method) { request, context in
      try feeds.feed(file: context.parameters.get("file") ?? "", ifNoneMatch: request.headers[values: .ifNoneMatch])
    }
  }
  if let api = configuration.api { try addCoachAPI(to: router, store: db, configuration: api, logger: logger) }
  let headLimit = configuration.maxRequestHeadBytes
  let limits = ConnectionLimits(
    total: usableConnections(configuration.maxConnections, logger: logger),
    perPeer: configuration.maxConnectionsPerPeer)
  let headTimeout = TimeAmount(configuration.headTimeout)
  let http1 = HTTP1Channel.Configuration(
    additionalChannelHandlers: [
      ConnectionGuardHandler(
        metrics: metrics, logger: logger, limits: limits, headTimeout: headTimeout,
        requestTimeout: TimeAmount(configuration.requestTimeout))
    ],
    idleTimeout: TimeAmount(configuration.idleTimeout),
    httpDecoderConfiguration: .init(
      maxHeaderFieldSize: headLimit, maxHeaderListSize: headLimit, maxHeaderFieldCount: 100))
  let app = Application(
    router: router,
    server: .http1(configuration: http1),
    configuration: .init(
      address: .hostname(configuration.host, port: configuration.port), serverName: nil),
    onServerRunning: { channel in onRunning(channel.localAddress?.port ?? configuration.port) },
    logger: logger)
  let group = ServiceGroup(
    configuration: .init(
      services: [app], gracefulShutdownSignals: configuration.handlesSignals ? [.sigterm, .sigint] : [],
      logger: logger))
  try await group.run()
}

/// `wanted` connections, or fewer when the open-file limit (raised to its hard limit first) leaves no room for them
/// beside the database, the logs and the connections being refused: 64 files are kept for those.
func usableConnections(_ wanted: Int, logger: Logger) -> Int {
  let files = raiseOpenFileLimit()
  let room = files > 128 ? files - 64 : files / 2
  guard wanted > room else { return wanted }
  logger.warning(
    "fewer connections than asked: the open-file limit is too low",
    metadata: ["max_connections": "\(wanted)", "open_file_limit": "\(files)", "using": "\(room)"])
  return room
}

/// Hummingbird's basic request context with the peer's address (for `/metrics`, which answers this machine only).
struct FeedRequestContext: RequestContext, RemoteAddressRequestContext {
  var coreContext: CoreRequestContextStorage
  /// The peer, as the connection's channel has it.
  let remoteAddress: SocketAddress?

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}

/// Whether `peer` is this machine: an IPv4 loopback address (127.0.0.0/8), `::1`, an IPv4-mapped loopback
/// (`::ffff:127.x.x.x`) or a Unix socket. Unknown: no.
func isLocalPeer(_ peer: SocketAddress?) -> Bool {
  switch peer {
  case .v4(let address)?:
    return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
  case .v6(let address)?:
    let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
    if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
    return bytes.prefix(12).elementsEqual([UInt8](repeating: 0, count: 10) + [0xff, 0xff]) && bytes[12] == 127
  case .unixDomainSocket?:
    return true
  case nil:
    return false
  }
}

/// The handlers, with the database, the cache and the time zone they need.
struct FeedRoutes: Sendable {
  let db: any TrainingStore
  let cache: FeedCache
  let logger: Logger
  let metrics: FeedMetrics
  /// Last-fetch times are written at most once a minute per feed, off the request path.
  private let fetchWrites = DispatchQueue(label: "runmate.feed.fetch-writes")

  init(db: any TrainingStore, systemZone: String, logger: Logger, metrics: FeedMetrics) {
    self.db = db
    self.logger = logger
    self.metrics = metrics
    cache = FeedCache { planID, version, changedAt in
      try renderFeed(planID: planID, db: db, dataVersion: version, changedAt: changedAt, systemZone: systemZone)
    }
  }

  /// 200 when the database answers, else 503.
  func health() throws -> Response {
    do {
      _ = try db.dataVersion()
      return Response(
        status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    } catch {
      logger.error("health check failed", metadata: ["error": "\(error)"])
      return Response(status: .serviceUnavailable)
    }
  }

  /// Every metric, in the Prometheus text format (version 0.0.4).
  func metricsText() -> Response {
    Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
  }

  /// The feed named by `file` (`TOKEN.ics`): 404 for a malformed, unknown, rotated or revoked token (one answer
  /// for all, so nothing tells them apart); 304 when `ifNoneMatch` holds the current ETag.
  func feed(file: String, ifNoneMatch: [String]) throws -> Response {
    guard file.hasSuffix(".ics"), let hash = FeedTokens.hash(file.dropLast(4)) else { return notFound() }
    guard let access = try db.feedAccess(tokenHash: hash), constantTimeEqual(access.tokenHash, hash) else {
      return notFound()
    }
    let feed: RenderedFeed
    let rendered: Bool
    do {
      (feed, rendered) = try cache.feed(
        planID: access.planID, dataVersion: access.dataVersion, changedAt: access.changedAt)
    } catch let error as TimeZoneError {
      // A zone saved by an older version that no calendar can be written in: the runner's to fix, and said so.
      logger.error("feed not rendered", metadata: ["error": "\(error)"])
      return Response(
        status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: "\(error)\n")))
    }
    (rendered ? metrics.renders : metrics.cacheHits).increment()
    noteFetch(access)
    var headers: HTTPFields = [
      .eTag: feed.etag, .lastModified: feed.lastModified, .cacheControl: "private, no-cache",
    ]
    if etagMatches(feed.etag, ifNoneMatch) {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = "text/calendar; charset=utf-8"
    headers[.contentDisposition] = "inline; filename=\"runningmate.ics\""
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: feed.body)))
  }

  private func noteFetch(_ access: FeedAccess) {
    let now = Date()
    if let last = access.lastFetchAt, now.timeIntervalSince(last) < 60 { return }
    let db = self.db
    let logger = self.logger
    fetchWrites.async {
      do {
        try db.recordFeedFetch(id: access.feedID, at: now)
      } catch {
        logger.warning("could not note the fetch", metadata: ["feed": "\(access.feedID)", "error": "\(error)"])
      }
    }
  }

}

/// The one 404: a malformed, unknown, rotated or revoked token, a path trick, or a path that is not served.
func notFound() -> Response {
  Response(
    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
    body: .init(byteBuffer: ByteBuffer(string: "no such feed\n")))
}

/// Whether an If-None-Match header (its field lines) names `etag`: `*`, or the tag itself, weak or not
/// (RFC 9110 §13.1.2 compares weakly).
func etagMatches(_ etag: String, _ fieldLines: [String]) -> Bool {
  for line in fieldLines {
    for candidate in line.split(separator: ",") {
      var tag = candidate.trimmingCharacters(in: .whitespaces)
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      if tag == etag { return true }
    }
  }
  return false
}

/// Guards every request before routing, then logs and counts it:
/// - with the coach API on, a request under `/api/` goes on to it whatever its method, body or path (its own
///   middleware answers 405 and 404 from the operations it has, and limits the body);
/// - a method other than GET or HEAD: 405 with `Allow: GET, HEAD`;
/// - a request with a body (a Content-Length above 0, or a Transfer-Encoding): 413, with `Connection: close`, the
///   body never read (``ConnectionGuardHandler`` closes the connection after the answer);
/// - a path trick (see ``isPathTrick(_:)``): 404, as for an unknown token;
/// then one structured access-log line (the token replaced by `<token>`) and the request counted by route and status
/// with its latency.
struct GuardAndLogMiddleware<Context: RequestContext>: RouterMiddleware {
  let logger: Logger
  let accessLog: Bool
  let metrics: FeedMetrics
  /// Whether the coach API is served (``FeedServerConfiguration/api``).
  var api = false

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let start = ContinuousClock.now
    let path = request.uri.path
    let isAPI = api && isCoachAPIPath(path)
    let hasBody = !isAPI && declaresBody(request.headers)
    var response: Response
    if isAPI {
      do {
        response = try await next(request, context)
      } catch {
        // Never the error whole: the OpenAPI runtime's describes the decoded request (token, password).
        response = failureAnswer(error, path: redacted(path), logger: logger)
      }
    } else if request.method != .get, request.method != .head {
      response = Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
    } else if hasBody {
      response = Response(status: .contentTooLarge)
    } else if isPathTrick(path) {
      response = notFound()
    } else {
      do {
        response = try await next(request, context)
      } catch let error as HTTPError {
        response = error.status == .notFound ? notFound() : Response(status: error.status)
      } catch {
        logger.error("request failed", metadata: ["path": "\(redacted(path))", "error": "\(error)"])
        response = Response(status: .internalServerError)
      }
    }
    if hasBody { response.headers[.connection] = "close" }
    if request.method == .head { response = response.createHeadResponse() }
    let elapsed = start.duration(to: .now)
    metrics.recordRequest(route: FeedRoute(path: path), status: Int(response.status.code), duration: elapsed)
    if accessLog {
      logger.info(
        "request",
        metadata: [
          "method": "\(request.method.rawValue)", "path": "\(redacted(path))",
          "status": "\(response.status.code)", "ms": "\(String(format: "%.2f", seconds(elapsed) * 1000))",
          "bytes": "\(response.body.contentLength.map(String.init) ?? "-")",
        ])
    }
    return response
  }
}

/// Whether a request says it carries a body: a Content-Length other than 0, or any Transfer-Encoding.
func declaresBody(_ headers: HTTPFields) -> Bool {
  if headers[.transferEncoding] != nil { return true }
  return headers[values: .contentLength].contains { $0.trimmingCharacters(in: .whitespaces) != "0" }
}

/// A path that is none of ours and tries something: any byte outside letters, digits and `-._~/` (so every
/// percent-encoding: `%2F`, `%2e%2e`, `%252e`, `%00`; a backslash; a NUL), a segment that starts with a dot (`.`,
/// `..`, hidden files), or an empty segment (`//`). The token alphabet is base64url, so no feed address contains any
/// of them.
func isPathTrick(_ path: String) -> Bool {
  if path.contains("/.") || path.contains("..") || path.contains("//") { return true }
  return !path.utf8.allSatisfy { byte in
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
      return true
    default:
      return false
    }
  }
}

/// `path` with every run of 16 or more token characters (base64url) replaced by `<token>`, wherever it stands
/// (`/feeds/<token>.ics`, `//feeds/<token>.ics`, `/feeds/%41<token>.ics`), cut at 200 characters: a token is the
/// secret, and it never reaches a log.
func redacted(_ path: String) -> String {
  var output = ""
  var run = ""
  func flush() {
    output += run.count >= 16 ? "<token>" : run
    run = ""
  }
  for character in path.prefix(200) {
    if character.isASCII, character.isLetter || character.isNumber || character == "-" || character == "_" {
      run.append(character)
    } else {
      flush()
      output.append(character)
    }
  }
  flush()
  return path.count > 200 ? output + "…" : output
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
