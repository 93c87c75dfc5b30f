import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// One per connection, between the HTTP/1.1 codec and Hummingbird's request loop:
/// - lets the connection in or not (see ``ConnectionLimits``): a connection over its peer's limit (or over the total)
///   displaces (closes) the peer's (or anyone's) connection that has waited longest for a request head, or, when
///   every such connection is in the middle of a request, is answered 503 with `Retry-After` and closed;
/// - closes a connection that has not sent a whole request head `headTimeout` after it opened (nothing sent, or a
///   head dribbled byte by byte), whatever the idle timeout;
/// - answers 503 with `Retry-After` and closes a connection whose request has no answer `requestTimeout` after its
///   head (a body read slowly, a handler held up by a store), whatever the handler writes after that;
/// - counts the open connections (`runmate_http_open_connections`);
/// - logs and counts what the HTTP parser refuses before any route sees it (a request head over the limit,
///   malformed requests): Hummingbird answers those 400 and closes the connection;
/// - logs and counts connections that close before sending a whole request head (a slow or idle client dropped at
///   the idle timeout, or a client that gave up);
/// - after a response that says `Connection: close` (a request with a body, which is refused and never read), shuts
///   down its side of the connection once the response is written, discards what the client still sends for at
///   most `lingerTime` (so that the client, still writing, reads the answer instead of a reset), then closes.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  /// How long a refused body is read and discarded after the answer, at most.
  static let lingerTime = TimeAmount.seconds(2)

  /// How long a refused client is told to wait before it tries again.
  static let retryAfterSeconds = 5

  private let metrics: FeedMetrics
  private let logger: Logger
  private let limits: ConnectionLimits
  private let headTimeout: TimeAmount
  private let requestTimeout: TimeAmount
  private var requestDeadline: Scheduled<Void>?
  /// The request was answered by its deadline: what the handler writes after that is dropped.
  private var answeredByDeadline = false
  private var counted = false
  private var refused = false
  private var displaced = false
  private var timedOut = false
  private var headDeadline: Scheduled<Void>?
  private var heads = 0
  private var answers = 0
  private var refusedByParser = false
  private var closedMidRequest = false
  private var closeAfterResponse = false
  private var lingering = false
  private let openedAt = ContinuousClock.now

  init(
    metrics: FeedMetrics, logger: Logger, limits: ConnectionLimits, headTimeout: TimeAmount,
    requestTimeout: TimeAmount = .seconds(120)
  ) {
    self.metrics = metrics
    self.logger = logger
    self.limits = limits
    self.headTimeout = headTimeout
    self.requestTimeout = requestTimeout
  }

  private var id: ObjectIdentifier { ObjectIdentifier(self) }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { opened(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    opened(context: context)
    context.fireChannelActive()
  }

  private func opened(context: ChannelHandlerContext) {
    guard !counted, !refused else { return }
    switch limits.admit(id, peer: ConnectionLimits.Peer(context.remoteAddress), channel: context.channel) {
    case .refused(let reason):
      refused = true
      refuse(context: context, reason: reason)
      return
    case .admitted(let other):
      if let other {
        metrics.displacedConnections.increment()
        other.pipeline.fireUserInboundEventTriggered(Displaced())
      }
    }
    counted = true
    metrics.openConnections.increment()
    headDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) {
      self.timedOut = true
      context.close(promise: nil)
    }
  }

  /// Answers 503 (with `Retry-After`) and closes, once the rest of the pipeline is set up.
  private func refuse(context: ChannelHandlerContext, reason: ConnectionLimits.Refusal) {
    metrics.recordRefusal(reason: reason.rawValue)
    logger.info(
      "connection refused",
      metadata: [
        "reason": "\(reason.rawValue)", "peer": "\(context.remoteAddress?.ipAddress ?? "-")", "status": "503",
      ])
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let message = reason == .peerLimit ? "too many connections from this address\n" : "too many connections\n"
    context.eventLoop.assumeIsolated().execute {
      let context = loopBound.value
      let head = HTTPResponse(
        status: .serviceUnavailable,
        headerFields: [
          .retryAfter: String(Self.retryAfterSeconds), .connection: "close",
          .contentType: "text/plain; charset=utf-8", .contentLength: String(message.utf8.count),
        ])
      context.write(self.wrapOutboundOut(.head(head)), promise: nil)
      context.write(self.wrapOutboundOut(.body(ByteBuffer(string: message))), promise: nil)
      context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
        loopBound.value.close(promise: nil)
      }
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is Displaced {
      displaced = true
      context.close(promise: nil)
    } else {
      context.fireUserInboundEventTriggered(event)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    headDeadline?.cancel()
    headDeadline = nil
    requestDeadline?.cancel()
    requestDeadline = nil
    limits.release(id)
    if counted {
      counted = false
      metrics.openConnections.decrement()
    }
    if heads == 0 || closedMidRequest || displaced, !refusedByParser, !refused {
      metrics.droppedConnections.increment()
      let waited = openedAt.duration(to: .now)
      let reason = displaced ? "displaced" : timedOut ? "head-timeout" : "idle-or-client"
      logger.info(
        "connection closed without a request",
        metadata: [
          "peer": "\(context.remoteAddress?.ipAddress ?? "-")", "reason": "\(reason)",
          "seconds": "\(String(format: "%.1f", seconds(waited)))",
        ])
    }
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // A refused connection: nothing it sends reaches a route (the 503 is on its way).
    if refused { return }
    // A refused body, after its answer: read and dropped until the client stops or the linger time is up.
    if lingering {
      if case .end = unwrapInboundIn(data) { context.close(promise: nil) }
      return
    }
    if answeredByDeadline { return }
    if case .head(let head) = unwrapInboundIn(data) {
      heads += 1
      headDeadline?.cancel()
      headDeadline = nil
      limits.setWaiting(id, false)
      // Logged without its query, and a feed's path without its token (a secret).
      let bare = (head.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
      let path = bare.hasPrefix("/feeds/") ? FeedRoute.feed.rawValue : String(bare.prefix(200))
      requestDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: requestTimeout) {
        self.answerByDeadline(context: context, path: path)
      }
    }
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let parserError = error as? HTTPParserError, parserError == .invalidEOFState {
      closedMidRequest = true  // the connection closed (idle timeout, or the client) in the middle of a request
    } else if let parserError = error as? HTTPParserError {
      refusedByParser = true
      let reason = parserError == .headerOverflow ? "head-too-large" : "malformed"
      metrics.recordRefusal(reason: reason)
      logger.warning(
        "request refused by the HTTP parser",
        metadata: ["reason": "\(reason)", "peer": "\(context.remoteAddress?.ipAddress ?? "-")", "status": "400"])
    }
    context.fireErrorCaught(error)
  }

  /// The request's deadline passed before its answer began: 503 with `Retry-After`, the connection closed once it is
  /// written; the handler's answer, should it come, is dropped. Logged with the path alone (no header, no body).
  private func answerByDeadline(context: ChannelHandlerContext, path: String) {
    requestDeadline = nil
    answeredByDeadline = true
    metrics.recordRefusal(reason: "request-timeout")
    logger.warning(
      "request not answered in time",
      metadata: [
        "path": "\(path)", "peer": "\(context.remoteAddress?.ipAddress ?? "-")", "status": "503",
        "seconds": "\(String(format: "%.1f", Double(requestTimeout.nanoseconds) / 1e9))",
      ])
    let message =
      #"{"error":"the server did not answer within \#(requestTimeout.nanoseconds / 1_000_000_000) s; try again in "#
      + #"\#(Self.retryAfterSeconds) s"}"# + "\n"
    let head = HTTPResponse(
      status: .serviceUnavailable,
      headerFields: [
        .retryAfter: String(Self.retryAfterSeconds), .connection: "close",
        .contentType: "application/json; charset=utf-8", .contentLength: String(message.utf8.count),
      ])
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(ByteBuffer(string: message))), promise: nil)
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
      loopBound.value.close(promise: nil)
    }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if answeredByDeadline {
      promise?.fail(ChannelError.ioOnClosedChannel)
      return
    }
    switch unwrapOutboundIn(data) {
    case .head(let head):
      requestDeadline?.cancel()
      requestDeadline = nil
      if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
      context.write(data, promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      // Waiting again (for the next head, so displaceable) once the whole answer has reached the socket, not while
      // a slow reader still has part of it to take.
      let written = promise ?? context.eventLoop.makePromise()
      written.futureResult.assumeIsolated().whenSuccess {
        self.answers += 1
        if self.answers == self.heads { self.limits.setWaiting(self.id, true) }
      }
      guard closeAfterResponse else {
        context.write(data, promise: written)
        return
      }
      closeAfterResponse = false
      lingering = true
      context.writeAndFlush(data, promise: written)
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      written.futureResult.whenComplete { _ in
        let context = loopBound.value
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) { context.close(promise: nil) }
      }
    }
  }
}

/// Sent to a connection's pipeline to close it to make room for a new one (see ``ConnectionLimits``).
struct Displaced: Sendable {}
