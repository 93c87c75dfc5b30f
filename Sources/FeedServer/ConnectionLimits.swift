import Foundation
import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// The connections a server holds, by peer, and who gets in: at most `perPeer` connections from one peer and `total`
/// in all.
///
/// A connection over a limit is let in by closing the connection that has waited longest for a request head (one
/// that sent nothing or half a head, or a kept-alive one idle between requests) among the peer's own connections
/// (over the peer's limit) or among all (over the total). Such connections cost nothing to drop, and their clients
/// lose nothing they had not been denied already: so a flood of half-open connections cannot starve a real request,
/// from another peer or from the flooding peer's own address (a health check on the same machine, clients behind the
/// same NAT), and one peer's flood only ever displaces its own connections until the total is reached. Only when
/// every connection in the way is in the middle of a request is the new one refused (answered 503 and closed): one
/// peer never holds more than `perPeer` connections.
///
/// A peer is an IPv4 address or an IPv6 /64 (one host's usual allotment: a host can change its address inside it at
/// will); an IPv4-mapped IPv6 address is its IPv4 address; a Unix socket (or an unknown peer) is one peer. Each
/// loopback address (127.0.0.1, 127.0.0.2, …) is a peer of its own, limited like any other: a reverse proxy on this
/// machine counts as one peer.
final class ConnectionLimits: @unchecked Sendable {
  /// Who a connection is from, as the limits count it.
  enum Peer: Hashable {
    case v4(UInt32)
    case v6Prefix(UInt64)
    case local

    init(_ address: SocketAddress?) {
      switch address {
      case .v4(let address)?:
        self = .v4(UInt32(bigEndian: address.address.sin_addr.s_addr))
      case .v6(let address)?:
        let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
        let mapped = bytes.prefix(12).elementsEqual([UInt8](repeating: 0, count: 10) + [0xff, 0xff])
        let word = { (range: Range<Int>) in bytes[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        self = mapped ? .v4(UInt32(word(12..<16))) : .v6Prefix(word(0..<8))
      case .unixDomainSocket?, nil:
        self = .local
      }
    }
  }

  /// Why a connection was not let in.
  enum Refusal: String {
    /// Its peer holds `perPeer` connections already, each in the middle of a request.
    case peerLimit = "peer-limit"
    /// The server holds `total` connections, each in the middle of a request.
    case connectionLimit = "connection-limit"
  }

  /// What `admit` decided.
  enum Admission {
    /// Let in; `displaced` (when not nil) is the connection to close to make room for it.
    case admitted(displaced: (any Channel)?)
    case refused(Refusal)
  }

  private struct Entry {
    let peer: Peer
    let channel: any Channel
    /// Whether it waits for a request head (nothing or part of one sent yet, or idle after an answer).
    var waiting = true
    /// When it started waiting, as an admission count (smaller: longer).
    var since: UInt64
  }

  let total: Int
  let perPeer: Int
  private let lock = NSLock()
  private var entries: [ObjectIdentifier: Entry] = [:]
  private var byPeer: [Peer: Int] = [:]
  private var clock: UInt64 = 0

  init(total: Int, perPeer: Int) {
    self.total = total
    self.perPeer = perPeer
  }

  /// Decides whether connection `id` on `channel` from `peer` is let in; when it is, it counts until `release(id)`.
  /// The caller closes the displaced connection (outside this lock: a close can run its handlers at once).
  func admit(_ id: ObjectIdentifier, peer: Peer, channel: any Channel) -> Admission {
    lock.withLock {
      var displaced: (any Channel)?
      let atPeerLimit = byPeer[peer, default: 0] >= perPeer
      if atPeerLimit || entries.count >= total {
        guard let oldest = longestWaiting(from: atPeerLimit ? peer : nil) else {
          return .refused(atPeerLimit ? .peerLimit : .connectionLimit)
        }
        remove(oldest.id)
        displaced = oldest.channel
      }
      clock += 1
      entries[id] = Entry(peer: peer, channel: channel, since: clock)
      byPeer[peer, default: 0] += 1
      return .admitted(displaced: displaced)
    }
  }

  /// Connection `id` sent a whole request head (`waiting` false) or was answered and waits for the next one.
  func setWaiting(_ id: ObjectIdentifier, _ waiting: Bool) {
    lock.withLock {
      guard entries[id] != nil else { return }
      entries[id]?.waiting = waiting
      if waiting {
        clock += 1
        entries[id]?.since = clock
      }
    }
  }

  /// Connection `id` closed (nothing when it was displaced or never let in).
  func release(_ id: ObjectIdentifier) {
    lock.withLock { remove(id) }
  }

  /// The connections counted now, in all and from `peer`.
  func count(from peer: Peer? = nil) -> Int {
    lock.withLock { peer.map { byPeer[$0, default: 0] } ?? entries.count }
  }

  /// The connection (from `peer`, or from anyone) that has waited longest for a request head: a scan without
  /// allocating, made only at a limit (the total is a few thousand).
  private func longestWaiting(from peer: Peer?) -> (id: ObjectIdentifier, channel: any Channel)? {
    var oldest: (id: ObjectIdentifier, since: UInt64, channel: any Channel)?
    for (id, entry) in entries where entry.waiting && (peer == nil || entry.peer == peer) {
      if oldest.map({ entry.since < $0.since }) ?? true { oldest = (id, entry.since, entry.channel) }
    }
    return oldest.map { ($0.id, $0.channel) }
  }

  private func remove(_ id: ObjectIdentifier) {
    guard let entry = entries.removeValue(forKey: id) else { return }
    let left = byPeer[entry.peer, default: 1] - 1
    byPeer[entry.peer] = left > 0 ? left : nil
  }
}

/// Raises this process's soft limit on open files to its hard limit (a shell's usual 1,024 is too few for a
/// thousand connections) and returns the soft limit now.
func raiseOpenFileLimit() -> Int {
  #if canImport(Glibc)
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0 else { return Int.max }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(resource, &raised) == 0 { limit = raised }
    }
    return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY (all ones) clamps to Int.max
  #else
    return Int.max
  #endif
}
