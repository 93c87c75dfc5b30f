import Foundation
import NIOCore
import NIOEmbedded
import RunMateTestSupport
import Testing

@testable import FeedServer

#if canImport(Glibc)
  import Glibc
#endif

/// `runmate serve` against clients that hold connections without asking anything (half-open floods, slowloris), over
/// real sockets on loopback: each flood comes from other loopback addresses (127.0.0.2 …, other peers to the server)
/// than the real requests (127.0.0.1).
@Suite(.serialized) struct SlowClientTests {
  /// 1,100 half-open connections (half of them sent half a request line, the others nothing), more than the server's
  /// 1,000: `/healthz` and the feed keep answering within a second, during the flood and while it is held, from
  /// another address and from a flooding one.
  @Test(.tags(.endToEnd)) func halfOpenConnectionsDoNotStarveRealRequests() throws {
    let served = try ServedFeed(["--no-access-log"])
    defer { served.close() }
    let port = served.server.port
    let start = Date()
    var flood: [LoopbackSocket] = []
    var probes: [(status: Int, seconds: Double)] = []
    for index in 0..<1_100 {
      // Five peers of 220 connections: under the per-peer limit (256), over the total (1,000) together.
      let socket = try LoopbackSocket(port: port, from: "127.0.0.\(2 + index % 5)", timeout: 1)
      if index.isMultiple(of: 2) { socket.send("GET /feeds/") }
      flood.append(socket)
      if index % 100 == 99 { probes.append(timedGet(port: port, "/healthz")) }
    }
    for _ in 0..<10 {
      probes.append(timedGet(port: port, "/healthz"))
      usleep(50_000)
    }
    // From a flooding peer's own address too: its longest-waiting connection makes room.
    for _ in 0..<5 { probes.append(timedGet(port: port, "/healthz", from: "127.0.0.2")) }
    let feed = timedGet(port: port, "/feeds/\(served.token).ics")
    let slow = probes.filter { $0.status != 200 || $0.seconds >= 1 }
    #expect(probes.count == 26)
    #expect(slow.isEmpty, "probes not answered 200 within 1 s: \(slow)")
    #expect(feed.status == 200 && feed.seconds < 1, "feed: \(feed)")
    let metrics = try rawHTTP(port: port, get("/metrics")).text
    let open = try #require(sample(metrics, "runmate_http_open_connections"))
    #expect(open <= 1_000, "\(open) connections open")
    #expect((sample(metrics, "runmate_http_displaced_connections_total") ?? 0) >= 100, "\(metrics)")
    #expect(served.server.log().contains("reason=displaced"))
    #expect(Date().timeIntervalSince(start) < 20)
    withExtendedLifetime(flood) {}
  }

  /// A connection that sends nothing, or dribbles a head a byte at a time, is closed at the head deadline although
  /// the idle timeout is far off; a kept-alive connection that asks again later is not.
  @Test(.tags(.endToEnd)) func aClientWithoutAWholeHeadIsDroppedAtTheHeadDeadline() throws {
    let served = try ServedFeed(["--head-timeout", "1", "--idle-timeout", "30"])
    defer { served.close() }
    let port = served.server.port

    let silent = try LoopbackSocket(port: port, timeout: 0.2)
    let start = Date()
    #expect(silent.closedByServer(within: 4))
    let waited = Date().timeIntervalSince(start)
    #expect(waited >= 0.9 && waited < 3, "closed after \(waited) s")

    let dribbling = try LoopbackSocket(port: port, timeout: 0.1)
    let dribbleStart = Date()
    var closed = false
    let head = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "s", count: 60))".utf8)
    for byte in head where !closed {
      if dribbling.send([byte]) == 0 { break }
      closed = dribbling.closedByServer(within: 0.1)
    }
    closed = closed || dribbling.closedByServer(within: 3)
    let dribbled = Date().timeIntervalSince(dribbleStart)
    #expect(closed)
    #expect(dribbled >= 0.9 && dribbled < 3, "closed after \(dribbled) s")

    // A prompt client keeps its connection past the head deadline and asks again.
    let keptAlive = try LoopbackSocket(port: port)
    keptAlive.send(get("/healthz", close: false))
    #expect(keptAlive.readAnswer().status == 200)
    usleep(1_500_000)
    keptAlive.send(get("/healthz", close: false))
    #expect(keptAlive.readAnswer().status == 200)

    #expect(served.server.log().contains("reason=head-timeout"))
    let metrics = try rawHTTP(port: port, get("/metrics")).text
    #expect((sample(metrics, "runmate_http_dropped_connections_total") ?? 0) >= 2, "\(metrics)")
  }

  /// A peer at its limit: a new connection closes that peer's own longest-waiting connection (so its real requests
  /// get through its own flood), never another peer's; when every connection of the peer is in the middle of a
  /// request, the new one is answered 503 with Retry-After. Other peers are served throughout.
  @Test(.tags(.endToEnd)) func aPeerAtItsLimitDisplacesItsOwnWaitingConnectionOrIsRefused() throws {
    let served = try ServedFeed(["--max-connections-per-peer", "4", "--no-access-log"])
    defer { served.close() }
    let port = served.server.port
    let other = try LoopbackSocket(port: port, from: "127.0.0.3", timeout: 0.2)
    var waiting: [LoopbackSocket] = []
    for _ in 0..<4 {
      waiting.append(try LoopbackSocket(port: port, from: "127.0.0.2", timeout: 0.2))
      usleep(50_000)
    }
    let real = try LoopbackSocket(port: port, from: "127.0.0.2")
    real.send(get("/healthz"))
    #expect(real.readAnswer().status == 200)
    #expect(waiting[0].closedByServer(within: 2))
    #expect(!waiting[1].closedByServer(within: 0.3))
    #expect(!other.closedByServer(within: 0.3), "another peer's connection was closed")

    // Four connections of the peer busy: each sends 300 feed requests at once and reads no answer (6.6 MB, more
    // than the sockets hold), so the server is still answering each. One more connection from the peer is refused.
    let pipelined = String(repeating: get("/feeds/\(served.token).ics", close: false), count: 300)
    let busy = try (0..<4).map { _ in try LoopbackSocket(port: port, from: "127.0.0.2") }
    for socket in busy { socket.send(pipelined) }
    usleep(300_000)
    let over = try LoopbackSocket(port: port, from: "127.0.0.2")
    over.send(get("/healthz"))
    let answer = over.readAnswer()
    #expect(answer.status == 503, "\(answer.head)")
    #expect(answer.header("Retry-After") == "5")
    #expect(over.closedByServer(within: 2))

    #expect(try rawHTTP(port: port, get("/healthz")).status == 200)
    #expect(try rawHTTP(port: port, get("/feeds/\(served.token).ics")).status == 200)
    let metrics = try rawHTTP(port: port, get("/metrics")).text
    #expect(sample(metrics, "runmate_http_refused_total", "reason=\"peer-limit\"") == 1, "\(metrics)")
    #expect((sample(metrics, "runmate_http_displaced_connections_total") ?? 0) >= 4, "\(metrics)")
    #expect(served.server.log().contains("reason=peer-limit"))
    withExtendedLifetime((waiting, busy, other)) {}
  }

  /// At the total, a new connection closes the one that has waited longest for a request head.
  @Test(.tags(.endToEnd)) func aFullServerClosesTheConnectionWaitingLongest() throws {
    let served = try ServedFeed(["--max-connections", "4", "--max-connections-per-peer", "4"])
    defer { served.close() }
    let port = served.server.port
    var waiting: [LoopbackSocket] = []
    for _ in 0..<4 {
      waiting.append(try LoopbackSocket(port: port, from: "127.0.0.2", timeout: 0.2))
      usleep(50_000)
    }
    #expect(try rawHTTP(port: port, get("/healthz")).status == 200)
    #expect(waiting[0].closedByServer(within: 2))
    #expect(!waiting[1].closedByServer(within: 0.3))
  }

  @Test func limitsOutOfRangeAreUsageErrors() throws {
    let fixture = try FeedFixture()
    defer { fixture.remove() }
    let cases: [([String], String)] = [
      (["--max-connections", "0"], "--max-connections"),
      (["--max-connections", "10", "--max-connections-per-peer", "11"], "--max-connections-per-peer"),
      (["--max-connections-per-peer", "0"], "--max-connections-per-peer"),
      (["--head-timeout", "0"], "--head-timeout"),
    ]
    for (options, option) in cases {
      let outcome = try runRunmate(["serve", "--port", "0"] + options, database: fixture.database)
      #expect(outcome.status == 64, "\(options): \(outcome.stderr)")
      #expect(outcome.stderr.contains(option), "\(options): \(outcome.stderr)")
    }
  }

  /// The same limits checked in-process, as every front door gets them: the field, the value, what is allowed, and
  /// the setting the per-peer limit depends on.
  @Test func limitsAreCheckedWhereTheServerIsConfigured() throws {
    func check(port: Int = 0, idle: Double = 30, head: Double = 10, total: Int = 1000, perPeer: Int = 256) throws {
      _ = try FeedServerConfiguration.checked(
        host: "127.0.0.1", port: port, systemZone: "UTC", accessLog: false, idleTimeoutSeconds: idle,
        headTimeoutSeconds: head, maxConnections: total, maxConnectionsPerPeer: perPeer, metricsFromAnyPeer: false)
    }
    try check()
    #expect(throws: ServerSettingError.self) { try check(port: 65536) }
    #expect(throws: ServerSettingError.self) { try check(idle: 0) }
    #expect(throws: ServerSettingError.self) { try check(head: 3601) }
    do {
      try check(total: 10, perPeer: 11)
      Issue.record("11 connections from one address of 10 in all was accepted")
    } catch let error as ServerSettingError {
      #expect(error.field == .maxConnectionsPerPeer)
      #expect(
        error.message(naming: { "<\($0.label)>" })
          == "<most connections from one address>: '11' is not valid, allowed is 1 to <most connections> (10)")
    }
  }

  /// Peers as the limits count them: an IPv4 address, an IPv6 /64, an IPv4-mapped address as its IPv4 address.
  @Test func peersAreAddressesAndIPv6Prefixes() throws {
    func peer(_ address: String) throws -> ConnectionLimits.Peer {
      ConnectionLimits.Peer(try SocketAddress(ipAddress: address, port: 4000))
    }
    #expect(try peer("127.0.0.1") != peer("127.0.0.2"))
    #expect(try peer("::ffff:192.0.2.2") == peer("192.0.2.2"))
    #expect(try peer("2001:db8:1:2::1") == peer("2001:db8:1:2:ffff::9"))
    #expect(try peer("2001:db8:1:2::1") != peer("2001:db8:1:3::1"))
    #expect(ConnectionLimits.Peer(try SocketAddress(unixDomainSocketPath: "/tmp/runmate.sock")) == .local)

    let limits = ConnectionLimits(total: 2, perPeer: 2)
    let channels = (0..<4).map { _ in EmbeddedChannel() }
    let ids = channels.map { ObjectIdentifier($0) }
    #expect(admitted(limits.admit(ids[0], peer: try peer("192.0.2.2"), channel: channels[0])) == .some(nil))
    #expect(admitted(limits.admit(ids[1], peer: try peer("192.0.2.3"), channel: channels[1])) == .some(nil))
    // Full, both waiting: the first is displaced. Then both busy: refused.
    #expect(admitted(limits.admit(ids[2], peer: try peer("192.0.2.3"), channel: channels[2])) == .some(ids[0]))
    limits.setWaiting(ids[1], false)
    limits.setWaiting(ids[2], false)
    guard case .refused(.connectionLimit) = limits.admit(ids[3], peer: try peer("192.0.2.4"), channel: channels[3])
    else {
      Issue.record("a full server of busy connections let one more in")
      return
    }
    guard case .refused(.peerLimit) = limits.admit(ids[3], peer: try peer("192.0.2.3"), channel: channels[3]) else {
      Issue.record("a peer over its limit was let in")
      return
    }
    limits.release(ids[1])
    let third = try peer("192.0.2.3")
    #expect(limits.count() == 1)
    #expect(limits.count(from: third) == 1)
  }
}

/// Whether `admission` let the connection in, and the connection it displaced (by identity).
private func admitted(_ admission: ConnectionLimits.Admission) -> ObjectIdentifier?? {
  guard case .admitted(let displaced) = admission else { return .none }
  return .some(displaced.map { ObjectIdentifier($0) })
}

/// GET `path` on a new connection from `source`, waiting at most a second for the answer: its status (0 when none
/// came) and how long it took.
private func timedGet(port: Int, _ path: String, from source: String = "127.0.0.1") -> (status: Int, seconds: Double) {
  let start = Date()
  guard let socket = try? LoopbackSocket(port: port, from: source, timeout: 1) else {
    return (0, Date().timeIntervalSince(start))
  }
  socket.send(get(path))
  let status = socket.readAnswer().status
  return (status, Date().timeIntervalSince(start))
}
