import FeedServer
import Foundation
import Logbook
import Logging
import RunMateTestSupport
import Testing
import TrainingDomain

#if canImport(Glibc)
  import Glibc
#endif

/// An IPv4 address of this machine that is not loopback (nil when it has none, as in a sandbox without a network).
let nonLoopbackIPv4: String? = {
  var list: UnsafeMutablePointer<ifaddrs>?
  guard getifaddrs(&list) == 0, let first = list else { return nil }
  defer { freeifaddrs(first) }
  var entry: UnsafeMutablePointer<ifaddrs>? = first
  while let current = entry {
    defer { entry = current.pointee.ifa_next }
    guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
    let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
    guard UInt32(bigEndian: ipv4.s_addr) >> 24 != 127 else { continue }
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    var raw = ipv4
    guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else { continue }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
  return nil
}()

/// `runmate serve` against hostile or careless clients, over real sockets on loopback: every answer bounded, logged
/// and counted, the server still serving afterwards, and the database file never served.
@Suite(.serialized, .tags(.endToEnd)) struct HardeningTests {
  @Test func pathTricksAre404AndTheDatabaseIsNeverServed() throws {
    let served = try ServedFeed()
    defer { served.close() }
    let (fixture, token, server) = (served.fixture, served.token, served.server)
    let name = fixture.database.lastPathComponent
    #expect(try rawHTTP(port: server.port, get("/feeds/\(token).ics")).status == 200)
    let paths = [
      "/feeds/../\(name)", "/feeds/..%2f\(name)", "/feeds/%2e%2e/\(name)", "/feeds/%2E%2E%2F\(name)",
      "/feeds/..%2F..%2F\(name)", "/feeds/%252e%252e/\(name)", "/feeds/%252f\(token).ics", "/\(name)",
      "/\(name)-wal", "/feeds/\(name)", "/feeds/\(token)%2F.ics", "/feeds/\(token).ics/../../\(name)",
      "/feeds/..\\\(name)", "/feeds/%00\(token).ics", "/feeds/\(token).ics%00", "/feeds/\(token)%2eics",
      "/feeds/./\(token).ics", "//feeds/\(token).ics", "/feeds//\(token).ics", "/feeds/%41\(token.dropFirst()).ics",
      "/feeds/", "/feeds", "/../../etc/passwd", "/healthz/../\(name)", "/metrics/..%2f\(name)",
      "http://127.0.0.1/../\(name)",
    ]
    for path in paths {
      let answer = try rawHTTP(port: server.port, get(path))
      #expect(answer.status == 404, "\(path): \(answer.status)")
      #expect(!answer.text.contains("SQLite format"), "\(path) served the database")
      #expect(!answer.text.contains("BEGIN:VCALENDAR"), "\(path) served the feed")
    }
    // A raw NUL in the request line never reaches a route: the HTTP parser refuses it.
    let nul = try rawHTTP(port: server.port, "GET /feeds/\u{0}\(token).ics HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(nul.status == 400)
    #expect(try rawHTTP(port: server.port, get("/healthz")).status == 200)
    #expect(!server.log().contains(token), "the token reached the log")
  }

  /// `/metrics` answers this machine only: the same server, reached on its loopback and on its network address.
  @Test(.enabled(if: nonLoopbackIPv4 != nil, "this machine has no IPv4 address besides loopback"))
  func metricsAnswerOnlyThisMachineUnlessOpened() throws {
    let address = try #require(nonLoopbackIPv4)
    for open in [false, true] {
      let served = try ServedFeed(["--host", "0.0.0.0"] + (open ? ["--metrics-from-any-peer"] : []))
      defer { served.close() }
      let port = served.server.port
      #expect(try rawHTTP(port: port, get("/healthz")).status == 200)
      let local = try rawHTTP(port: port, get("/metrics"))
      #expect(local.status == 200 && local.text.contains("runmate_http_requests_total"), "\(local.text)")
      let remote = try rawHTTP(port: port, host: address, get("/metrics"))
      #expect(remote.status == (open ? 200 : 404), "from \(address), open \(open): \(remote.status)")
      #expect(remote.text.contains("runmate_http_requests_total") == open)
      // The feeds and the health check answer every peer.
      #expect(try rawHTTP(port: port, host: address, get("/feeds/\(served.token).ics")).status == 200)
      #expect(try rawHTTP(port: port, host: address, get("/healthz")).status == 200)
    }
  }

  @Test func onlyGetAndHeadAreAnswered() throws {
    let served = try ServedFeed()
    defer { served.close() }
    let (token, server) = (served.token, served.server)
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "CONNECT"] {
      let answer = try rawHTTP(
        port: server.port, "\(method) /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(answer.status == 405, "\(method): \(answer.status)")
      #expect(RawAnswer(head: answer.text).header("Allow") == "GET, HEAD", "\(method)")
    }
    // HEAD: the GET's head (status, ETag, Content-Length), no body; the connection stays usable.
    let socket = try LoopbackSocket(port: server.port)
    socket.send("GET /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\n\r\n")
    let full = socket.readAnswer()
    #expect(full.status == 200)
    #expect(!full.body.isEmpty)
    socket.send("HEAD /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\n\r\n")
    let head = socket.readAnswer(headOnly: true)
    #expect(head.status == 200)
    #expect(head.header("ETag") == full.header("ETag"))
    #expect(head.header("Content-Length") == String(full.body.count))
    #expect(head.body.isEmpty)
    socket.send(get("/healthz", close: false))
    let after = socket.readAnswer()
    #expect(after.status == 200, "a body followed the HEAD answer: \(after.head)")
    #expect(String(decoding: after.body, as: UTF8.self) == "ok\n")
    #expect(
      try rawHTTP(port: server.port, "HEAD /feeds/\(FeedTokens.generate()).ics HTTP/1.1\r\nHost: x\r\n\r\n")
        .status == 404)
  }

  @Test func oversizedHeadsAreRefusedWhileRead() throws {
    let served = try ServedFeed()
    defer { served.close() }
    let server = served.server
    let big = String(repeating: "a", count: 100_000)
    let many = (0..<300).map { "X-H\($0): 1\r\n" }.joined()
    let requests = [
      "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n",  // one 100 KB header
      "GET /healthz?\(big) HTTP/1.1\r\nHost: x\r\n\r\n",  // a 100 KB request line
      "GET /healthz HTTP/1.1\r\nHost: x\r\n\(many)\r\n",  // 300 header fields
      "GET /healthz HTTP/1.1\r\nHost: x\r\n"
        + String(repeating: "X-Pad: \(String(repeating: "b", count: 900))\r\n", count: 20)
        + "\r\n",  // 20 fields of 900 bytes: 18 KB in all
    ]
    for request in requests {
      let socket = try LoopbackSocket(port: server.port)
      socket.send(request)
      let answer = socket.readAnswer()
      #expect(answer.status == 400, "\(request.prefix(40)): \(answer.head)")
      #expect(socket.closedByServer(within: 5), "the connection stayed open after a refused head")
    }
    // A head just under the limit is served.
    let fits = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "c", count: 12_000))\r\n\r\n"
    #expect(try rawHTTP(port: server.port, fits).status == 200)
    let metrics = try rawHTTP(port: server.port, get("/metrics")).text
    #expect(sample(metrics, "runmate_http_refused_total", "reason=\"head-too-large\"") == 4, "\(metrics)")
    // The log line is written by the server's own task: on a loaded machine it may land after the answers.
    let logged = ContinuousClock.now + .seconds(5)
    while !server.log().contains("request refused by the HTTP parser") && ContinuousClock.now < logged {
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(server.log().contains("request refused by the HTTP parser"))
  }

  @Test func bodiesAre413AndNeverRead() throws {
    let served = try ServedFeed()
    defer { served.close() }
    let (token, server) = (served.token, served.server)
    let tenMegabytes = 10 * 1024 * 1024
    let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)

    // A 10 MB body announced, 64 KB of it sent: the answer comes at once, and the connection is closed though
    // the rest never comes (the server does not wait for the body).
    let socket = try LoopbackSocket(port: server.port)
    socket.send("GET /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\nContent-Length: \(tenMegabytes)\r\n\r\n")
    socket.send(chunk)
    let answer = socket.readAnswer()
    #expect(answer.status == 413)
    #expect(answer.header("Connection") == "close")
    #expect(socket.closedByServer(within: 5))

    // All 10 MB sent by a writer while the answer is read: still 413, and the server goes on serving.
    let writer = try LoopbackSocket(port: server.port)
    writer.send("PUT /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\nContent-Length: \(tenMegabytes)\r\n\r\n")
    let body = [UInt8](repeating: 0x42, count: tenMegabytes)
    let sender = Thread { writer.send(body) }
    sender.start()
    #expect(writer.readAnswer().status == 405)
    #expect(writer.closedByServer(within: 10))

    // A chunked body: 413 as well.
    let chunked = try LoopbackSocket(port: server.port)
    chunked.send("GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10000\r\n")
    chunked.send(chunk)
    #expect(chunked.readAnswer().status == 413)
    #expect(chunked.closedByServer(within: 5))

    #expect(try rawHTTP(port: server.port, get("/feeds/\(token).ics")).status == 200)
    let metrics = try rawHTTP(port: server.port, get("/metrics")).text
    #expect(sample(metrics, "runmate_http_requests_total", "route=\"/feeds/{token}.ics\",status=\"413\"") == 1)
    #expect(sample(metrics, "runmate_http_requests_total", "route=\"/healthz\",status=\"413\"") == 1)
  }

  @Test func aSlowClientIsDroppedAfterTheIdleTimeout() throws {
    let served = try ServedFeed(["--idle-timeout", "1"])
    defer { served.close() }
    let (token, server) = (served.token, served.server)

    // Half a request head, then nothing.
    let stalled = try LoopbackSocket(port: server.port, timeout: 0.2)
    let start = Date()
    stalled.send("GET /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\n")
    #expect(stalled.closedByServer(within: 4))
    let waited = Date().timeIntervalSince(start)
    #expect(waited >= 0.9 && waited < 3, "closed after \(waited) s")

    // A slowloris: a byte every 200 ms keeps nothing alive (no whole head arrives).
    let dribbling = try LoopbackSocket(port: server.port, timeout: 0.2)
    let dribbleStart = Date()
    var closed = false
    for byte in "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8 where !closed {
      if dribbling.send([byte]) == 0 { break }
      closed = dribbling.closedByServer(within: 0.2)
    }
    closed = closed || dribbling.closedByServer(within: 3)
    #expect(closed)
    #expect(Date().timeIntervalSince(dribbleStart) < 3)

    // An idle keep-alive connection after an answer is closed too; a prompt client is served.
    let idle = try LoopbackSocket(port: server.port, timeout: 0.2)
    idle.send(get("/healthz", close: false))
    let answered = idle.readAnswer()
    #expect(answered.status == 200)
    #expect(idle.closedByServer(within: 4))
    #expect(try rawHTTP(port: server.port, get("/feeds/\(token).ics")).status == 200)

    let metrics = try rawHTTP(port: server.port, get("/metrics")).text
    #expect((sample(metrics, "runmate_http_dropped_connections_total") ?? 0) >= 2, "\(metrics)")
    #expect(server.log().contains("connection closed without a request"))
  }

  @Test func twoHundredConcurrentConnections() throws {
    let served = try ServedFeed(["--no-access-log"])
    defer { served.close() }
    let (token, server) = (served.token, served.server)
    let count = 200
    // All open at once, each request sent before any answer is read.
    let sockets = try (0..<count).map { _ in try LoopbackSocket(port: server.port, timeout: 20) }
    for socket in sockets { socket.send(get("/feeds/\(token).ics", close: false)) }
    let answers = sockets.map { $0.readAnswer() }
    // All still open (and this one too).
    let gauge = sample(try rawHTTP(port: server.port, get("/metrics")).text, "runmate_http_open_connections")
    #expect(gauge == Double(count + 1), "open connections: \(String(describing: gauge))")
    #expect(answers.filter { $0.status == 200 }.count == count)
    let etags = Set(answers.compactMap { $0.header("ETag") })
    #expect(etags.count == 1)
    #expect(Set(answers.map(\.body)).count == 1)
    // The same connections again, with If-None-Match: 304s.
    for socket in sockets {
      socket.send("GET /feeds/\(token).ics HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etags.first ?? "")\r\n\r\n")
    }
    #expect(sockets.map { $0.readAnswer().status }.allSatisfy { $0 == 304 })
    let metrics = try rawHTTP(port: server.port, get("/metrics")).text
    #expect(sample(metrics, "runmate_http_requests_total", "route=\"/feeds/{token}.ics\",status=\"200\"") == 200)
    #expect(sample(metrics, "runmate_http_requests_total", "route=\"/feeds/{token}.ics\",status=\"304\"") == 200)
    // One render, or one per event-loop thread when the first requests miss the cache together; the rest hits.
    let renders = try #require(sample(metrics, "runmate_feed_renders_total"))
    #expect(renders >= 1 && renders <= Double(ProcessInfo.processInfo.activeProcessorCount), "\(renders) renders")
    #expect(renders + (sample(metrics, "runmate_feed_cache_hits_total") ?? 0) == 400)
  }

  /// Two servers in one process, each with its own metrics (no process-wide bootstrap): each /metrics counts its
  /// own requests, exactly.
  @Test func metricsCountWhatEachServerServed() async throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let token = try fixture.createFeed()
    let first = try await InProcessServer.start(database: fixture.database)
    let second = try await InProcessServer.start(database: fixture.database)

    // The sockets are read on a thread of their own: blocking the test's task could starve the server's tasks.
    let (firstPort, secondPort) = (first.port, second.port)
    let (text, other) = try await offThePool {
      let feed = "/feeds/\(token).ics"
      let fetched = try rawHTTP(port: firstPort, get(feed))
      let etag = try #require(RawAnswer(head: fetched.text).header("ETag"))
      _ = try rawHTTP(port: firstPort, get(feed))
      _ = try rawHTTP(port: firstPort, "HEAD \(feed) HTTP/1.1\r\nHost: x\r\n\r\n")
      for _ in 0..<2 {
        _ = try rawHTTP(port: firstPort, "GET \(feed) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etag)\r\n\r\n")
      }
      _ = try rawHTTP(port: firstPort, get("/feeds/\(FeedTokens.generate()).ics"))
      _ = try rawHTTP(port: firstPort, get("/healthz"))
      _ = try rawHTTP(port: firstPort, "DELETE / HTTP/1.1\r\nHost: x\r\n\r\n")
      _ = try rawHTTP(port: secondPort, get("/healthz"))
      return (try rawHTTP(port: firstPort, get("/metrics")).text, try rawHTTP(port: secondPort, get("/metrics")).text)
    }
    let route = "route=\"/feeds/{token}.ics\""
    #expect(sample(text, "runmate_http_requests_total", "\(route),status=\"200\"") == 3, "\(text)")
    #expect(sample(text, "runmate_http_requests_total", "\(route),status=\"304\"") == 2)
    #expect(sample(text, "runmate_http_requests_total", "\(route),status=\"404\"") == 1)
    #expect(sample(text, "runmate_http_requests_total", "route=\"/healthz\",status=\"200\"") == 1)
    #expect(sample(text, "runmate_http_requests_total", "route=\"other\",status=\"405\"") == 1)
    #expect(sample(text, "runmate_feed_renders_total") == 1)
    #expect(sample(text, "runmate_feed_cache_hits_total") == 4)
    #expect(sample(text, "runmate_http_request_duration_seconds_count", route) == 6)
    #expect(sample(text, "runmate_http_request_duration_seconds_bucket", "\(route),le=\"+Inf\"") == 6)
    #expect(text.contains("# TYPE runmate_http_request_duration_seconds histogram"))

    #expect(sample(other, "runmate_http_requests_total", "route=\"/healthz\",status=\"200\"") == 1)
    #expect(sample(other, "runmate_http_requests_total", "\(route),status=\"200\"") == nil)
    #expect(sample(other, "runmate_feed_renders_total") == 0)
    await first.stop()
    await second.stop()
  }
}

/// A fixture database with one feed, and `runmate serve` on it with `options`.
struct ServedFeed {
  let fixture: FeedFixture
  let token: String
  let server: ServeProcess

  init(_ options: [String] = []) throws {
    fixture = try FeedFixture()
    do {
      token = try fixture.createFeed()
      server = try ServeProcess(database: fixture.database, options)
    } catch {
      fixture.remove()
      throw error
    }
  }

  /// Stops the server and removes the database.
  func close() {
    server.stop()
    fixture.remove()
  }
}

/// A GET request line and Host (and `Connection: close` unless `close` is false).
func get(_ path: String, close: Bool = true) -> String {
  "GET \(path) HTTP/1.1\r\nHost: x\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n"
}

/// `runFeedServer` in this process on a free port, stopped by cancelling its task.
final class InProcessServer: Sendable {
  let port: Int
  let task: Task<Void, any Error>
  let database: LogbookDatabase

  private init(port: Int, task: Task<Void, any Error>, database: LogbookDatabase) {
    self.port = port
    self.task = task
    self.database = database
  }

  static func start(database url: URL) async throws -> InProcessServer {
    let database = try LogbookDatabase(path: url.path)
    var logger = Logger(label: "test.serve")
    logger.logLevel = .critical
    let configuration = FeedServerConfiguration(
      port: 0, systemZone: "UTC", accessLog: false, idleTimeout: .seconds(5), handlesSignals: false)
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task {
      try await runFeedServer(db: database, configuration: configuration, logger: logger) { port in
        continuation.yield(port)
      }
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw ServeDidNotStart(log: "no port") }
    return InProcessServer(port: port, task: task, database: database)
  }

  /// Cancels the server's task and waits for it to end.
  func stop() async {
    task.cancel()
    _ = await task.result
  }
}

/// Runs `body` on a thread of its own (not one of the Swift concurrency pool's few) and returns what it returns.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
