import ArgumentParser
import CoachAPI
import FeedServer
import Foundation
import Logging
import TrainingDomain

/// `runmate serve`: the subscription feed server.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the plans' subscription feeds (`runmate feed create`) to calendar apps over HTTP.",
    discussion: """
      GET /feeds/TOKEN.ics answers the plan's calendar (what `runmate export` would write now, with the same \
      UIDs), re-rendered only when the plan or the log changes, with ETag / If-None-Match (304) and \
      Last-Modified; GET /healthz answers ok; GET /metrics answers the request counts by route and status, a \
      latency histogram and feed renders against cache hits in the Prometheus text format, to this machine \
      only unless --metrics-from-any-peer (other clients get 404). Unknown, rotated and \
      revoked tokens and path tricks answer 404; methods other than GET and HEAD 405; a request with a body 413 \
      (never read); a request head over 16 KiB 400. A connection idle for --idle-timeout seconds (a client \
      that sends half a request and stalls) is closed, and so is one that has not sent a whole request head \
      --head-timeout seconds after it opened (nothing sent, or a head dribbled byte by byte). A request not \
      answered --request-timeout seconds after its head (its body and the work on it) is answered 503 with \
      Retry-After and its connection closed. At most \
      --max-connections connections are open at once, at most --max-connections-per-peer of them from one \
      peer (an IPv4 address, an IPv6 /64; each loopback address is a peer of its own, so a reverse proxy on \
      this machine is one peer). A connection over its peer's limit closes that peer's connection that has \
      waited longest for a request head (nothing or half a head sent, or idle between requests), one over the \
      total anyone's, so a flood of half-open connections cannot starve real requests, even from the flooding \
      address; when every such connection is in the middle of a request, the new one is answered 503 with \
      Retry-After and closed. The open-file limit is raised to its hard limit at start. One log line per \
      request goes to standard error (the token is never logged). Stops cleanly on SIGINT or SIGTERM. The CLI \
      keeps working on the same database meanwhile.

      With --api, the coach API is served too, under /api/v1 (JSON, bearer tokens from POST /api/v1/sessions, \
      accounts made with runmate account create; its OpenAPI document at /api/v1/openapi.yaml, see docs/api.md): \
      there other methods are allowed and request bodies up to 64 KiB (413 above).

      Examples:
        runmate serve
        runmate serve --host 0.0.0.0 --port 8443
        runmate serve --max-connections-per-peer 64 --head-timeout 5
        runmate serve --api --database postgres://runmate@localhost/club
      """)

  @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "host"))
  var host = "127.0.0.1"
  @Option(name: .long, help: ArgumentHelp("The TCP port (0: any free port).", valueName: "port"))
  var port = 8080
  @Option(
    name: .customLong("idle-timeout"),
    help: ArgumentHelp(
      "Seconds a connection may stay idle or send half a request before it is closed.", valueName: "seconds"))
  var idleTimeout = 30.0
  @Option(
    name: .customLong("head-timeout"),
    help: ArgumentHelp(
      "Seconds a new connection has to send a whole request head before it is closed.", valueName: "seconds"))
  var headTimeout = 10.0
  @Option(
    name: .customLong("request-timeout"),
    help: ArgumentHelp(
      "Seconds a request may take from its head to its answer; past it, 503 with Retry-After and the connection closed.",
      valueName: "seconds"))
  var requestTimeout = 120.0
  @Option(
    name: .customLong("max-connections"),
    help: ArgumentHelp(
      "The most connections open at once; past it, the one waiting longest for a request head is closed.",
      valueName: "count"))
  var maxConnections = 1000
  @Option(
    name: .customLong("max-connections-per-peer"),
    help: ArgumentHelp(
      "The most connections open at once from one address (an IPv6 /64); past it, its longest-waiting one is closed.",
      valueName: "count"))
  var maxConnectionsPerPeer = 256
  @Flag(name: .customLong("no-access-log"), help: "Log only errors and the start and stop, not each request.")
  var noAccessLog = false
  @Flag(
    name: .customLong("metrics-from-any-peer"),
    help: "Answer GET /metrics to any client, not only to this machine (loopback).")
  var metricsFromAnyPeer = false
  @Flag(name: .customLong("api"), help: "Serve the coach API under /api/v1 too (see docs/api.md).")
  var api = false
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var templates: TemplateOptions

  /// The server's settings from the options, checked; with `--api`, the training rules, read once at start (the coach
  /// API makes plans: PUT athletes/{athlete}/plan).
  func configuration() throws -> FeedServerConfiguration {
    var settings = try FeedServerConfiguration.checked(
      host: host, port: port, systemZone: TimeZone.current.identifier, accessLog: !noAccessLog,
      idleTimeoutSeconds: idleTimeout, headTimeoutSeconds: headTimeout, requestTimeoutSeconds: requestTimeout,
      maxConnections: maxConnections,
      maxConnectionsPerPeer: maxConnectionsPerPeer, metricsFromAnyPeer: metricsFromAnyPeer)
    if api {
      settings.api = CoachAPIConfiguration(systemZone: TimeZone.current.identifier, rules: try templates.loadRules())
    }
    return settings
  }

  func run() throws {
    let configuration = try configuration()
    try database.requireExisting()
    let db = try database.open()
    let logger = ServeCommand.standardErrorLogger()
    let (host, metadata) = (host, startMetadata)
    let outcome = blockingRun {
      try await runFeedServer(db: db, configuration: configuration, logger: logger) { bound in
        logger.info("listening", metadata: metadata.merging(["address": "http://\(host):\(bound)"]) { $1 })
      }
    }
    if case .failure(let error) = outcome {
      throw CLIError.cannotWrite(path: "\(host):\(port)", reason: "the server stopped: \(error)")
    }
    logger.info("stopped")
  }

  /// What the start's log line says besides the address: the routes and the limits.
  var startMetadata: Logger.Metadata {
    [
      "feeds": "/feeds/<token>.ics", "metrics": "/metrics", "api": "\(api ? "/api/v1" : "off")",
      "idle_timeout_s": "\(idleTimeout)",
      "head_timeout_s": "\(headTimeout)", "request_timeout_s": "\(requestTimeout)",
      "max_connections": "\(maxConnections)",
      "max_connections_per_peer": "\(maxConnectionsPerPeer)",
    ]
  }

  /// The server's logger: info and above, one line each to standard error.
  static func standardErrorLogger() -> Logger {
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = .info
      return handler
    }
    return Logger(label: "runmate.serve")
  }
}

/// Runs `body` on the concurrency pool and waits for it on this (the main) thread.
func blockingRun(_ body: @escaping @Sendable () async throws -> Void) -> Result<Void, any Error> {
  final class Box: @unchecked Sendable {
    var result: Result<Void, any Error> = .success(())
  }
  let box = Box()
  let done = DispatchSemaphore(value: 0)
  Task {
    do {
      try await body()
    } catch {
      box.result = .failure(error)
    }
    done.signal()
  }
  done.wait()
  return box.result
}
