import Digest
import Foundation
import Hummingbird
import Logbook
import Logging
import NIOCore
import ServiceLifecycle

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

  /// A configuration.
  public init(host: String = "127.0.0.1", port: Int = 8080, systemZone: String, accessLog: Bool = true) {
    self.host = host
    self.port = port
    self.systemZone = systemZone
    self.accessLog = accessLog
  }
}

/// The subscription feed server: `GET /feeds/{token}.ics` and `GET /healthz`, over the logbook at `db`.
///
/// Runs until SIGINT or SIGTERM, then stops accepting, finishes the requests in flight and returns
/// (swift-service-lifecycle's graceful shutdown). `onRunning` gets the bound port once it listens.
public func runFeedServer(
  db: LogbookDatabase, configuration: FeedServerConfiguration, logger: Logger,
  onRunning: @escaping @Sendable (Int) -> Void = { _ in }
) async throws {
  let feeds = FeedRoutes(db: db, systemZone: configuration.systemZone, logger: logger)
  let router = Router()
  router.add(middleware: GuardAndLogMiddleware(logger: logger, accessLog: configuration.accessLog))
  router.get("/healthz") { _, _ in try feeds.health() }
  router.get("/feeds/:file") { request, context in
    try feeds.feed(file: context.parameters.get("file") ?? "", ifNoneMatch: request.headers[values: .ifNoneMatch])
  }
  let app = Application(
    router: router,
    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
    onServerRunning: { channel in onRunning(channel.localAddress?.port ?? configuration.port) },
    logger: logger)
  let group = ServiceGroup(
    configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
  try await group.run()
}

/// The handlers, with the database, the cache and the time zone they need.
struct FeedRoutes: Sendable {
  let db: LogbookDatabase
  let cache: FeedCache
  let logger: Logger
  /// Last-fetch times are written at most once a minute per feed, off the request path.
  private let fetchWrites = DispatchQueue(label: "runmate.feed.fetch-writes")

  init(db: LogbookDatabase, systemZone: String, logger: Logger) {
    self.db = db
    self.logger = logger
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

  /// The feed named by `file` (`TOKEN.ics`): 404 for a malformed, unknown, rotated or revoked token (one answer
  /// for all, so nothing tells them apart); 304 when `ifNoneMatch` holds the current ETag.
  func feed(file: String, ifNoneMatch: [String]) throws -> Response {
    guard file.hasSuffix(".ics"), let hash = FeedTokens.hash(file.dropLast(4)) else { return notFound() }
    guard let access = try db.feedAccess(tokenHash: hash), constantTimeEqual(access.tokenHash, hash) else {
      return notFound()
    }
    let feed = try cache.feed(planID: access.planID, dataVersion: access.dataVersion, changedAt: access.changedAt)
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

  private func notFound() -> Response {
    Response(
      status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: "no such feed\n")))
  }
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

/// Refuses path tricks before routing (400 for `..`, a backslash, or an encoded slash, backslash, dot or NUL), and
/// logs one structured line per request with the token replaced by `<token>`.
struct GuardAndLogMiddleware<Context: RequestContext>: RouterMiddleware {
  let logger: Logger
  let accessLog: Bool

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let start = ContinuousClock.now
    let path = request.uri.path
    var response: Response
    if isPathTrick(path) {
      response = Response(status: .badRequest)
    } else {
      do {
        response = try await next(request, context)
      } catch let error as HTTPError {
        response = Response(status: error.status)
      } catch {
        logger.error("request failed", metadata: ["path": "\(redacted(path))", "error": "\(error)"])
        response = Response(status: .internalServerError)
      }
    }
    if accessLog {
      let elapsed = start.duration(to: .now)
      let milliseconds =
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
      logger.info(
        "request",
        metadata: [
          "method": "\(request.method.rawValue)", "path": "\(redacted(path))",
          "status": "\(response.status.code)", "ms": "\(String(format: "%.2f", milliseconds))",
          "bytes": "\(response.body.contentLength.map(String.init) ?? "-")",
        ])
    }
    return response
  }
}

/// A path that tries to leave its directory or hide a separator: `..`, a backslash, `%2F`, `%5C`, `%2E`, `%00`.
func isPathTrick(_ path: String) -> Bool {
  let lowered = path.lowercased()
  return lowered.contains("..") || lowered.contains("\\")
    || ["%2f", "%5c", "%2e", "%00"].contains { lowered.contains($0) }
}

/// `path` with a feed token replaced by `<token>` (the token is the secret: it never reaches a log).
func redacted(_ path: String) -> String {
  guard path.hasPrefix("/feeds/") else { return path.count > 200 ? String(path.prefix(200)) + "…" : path }
  return "/feeds/<token>" + (path.hasSuffix(".ics") ? ".ics" : "")
}
