import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// One per connection, between the HTTP/1.1 codec and Hummingbird's request loop:
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

  private let metrics: FeedMetrics
  private let logger: Logger
  private var counted = false
  private var heads = 0
  private var refusedByParser = false
  private var closedMidRequest = false
  private var closeAfterResponse = false
  private var lingering = false
  private let openedAt = ContinuousClock.now

  init(metrics: FeedMetrics, logger: Logger) {
    self.metrics = metrics
    self.logger = logger
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { opened() }
  }

  func channelActive(context: ChannelHandlerContext) {
    opened()
    context.fireChannelActive()
  }

  private func opened() {
    guard !counted else { return }
    counted = true
    metrics.openConnections.increment()
  }

  func channelInactive(context: ChannelHandlerContext) {
    if counted {
      counted = false
      metrics.openConnections.decrement()
    }
    if heads == 0 || closedMidRequest, !refusedByParser {
      metrics.droppedConnections.increment()
      logger.info(
        "connection closed without a request",
        metadata: [
          "peer": "\(context.remoteAddress?.ipAddress ?? "-")",
          "seconds": "\(String(format: "%.1f", seconds(openedAt.duration(to: .now))))",
        ])
    }
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // A refused body, after its answer: read and dropped until the client stops or the linger time is up.
    if lingering {
      if case .end = unwrapInboundIn(data) { context.close(promise: nil) }
      return
    }
    if case .head = unwrapInboundIn(data) { heads += 1 }
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

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head):
      if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
      context.write(data, promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      guard closeAfterResponse else {
        context.write(data, promise: promise)
        return
      }
      closeAfterResponse = false
      lingering = true
      let written = promise ?? context.eventLoop.makePromise()
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
