import ArgumentParser
import FeedServer
import Foundation
import Logbook
import Logging

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
      that sends half a request and stalls) is closed. One log line per request goes to standard error (the \
      token is never logged). Stops cleanly on SIGINT or SIGTERM. The CLI keeps working on the same database \
      meanwhile.

      Examples:
        runmate serve
        runmate serve --host 0.0.0.0 --port 8443
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
  @Flag(name: .customLong("no-access-log"), help: "Log only errors and the start and stop, not each request.")
  var noAccessLog = false
  @Flag(
    name: .customLong("metrics-from-any-peer"),
    help: "Answer GET /metrics to any client, not only to this machine (loopback).")
  var metricsFromAnyPeer = false
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    guard (0...65535).contains(port) else {
      throw CLIError.invalidOption(option: "--port", value: String(port), allowed: "0 to 65535", suggestion: nil)
    }
    guard idleTimeout > 0, idleTimeout <= 3600 else {
      throw CLIError.invalidOption(
        option: "--idle-timeout", value: String(idleTimeout), allowed: "above 0, at most 3600 seconds", suggestion: nil)
    }
    try database.requireExisting()
    let db = try database.open()
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = .info
      return handler
    }
    let logger = Logger(label: "runmate.serve")
    let configuration = FeedServerConfiguration(
      host: host, port: port, systemZone: TimeZone.current.identifier, accessLog: !noAccessLog,
      idleTimeout: .milliseconds(Int((idleTimeout * 1000).rounded())), metricsFromAnyPeer: metricsFromAnyPeer)
    let host = self.host
    let idleTimeout = self.idleTimeout
    let outcome = blockingRun {
      try await runFeedServer(db: db, configuration: configuration, logger: logger) { bound in
        logger.info(
          "listening",
          metadata: [
            "address": "http://\(host):\(bound)", "feeds": "/feeds/<token>.ics", "metrics": "/metrics",
            "idle_timeout_s": "\(idleTimeout)",
          ])
      }
    }
    if case .failure(let error) = outcome {
      throw CLIError.cannotWrite(path: "\(host):\(port)", reason: "the server stopped: \(error)")
    }
    logger.info("stopped")
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
