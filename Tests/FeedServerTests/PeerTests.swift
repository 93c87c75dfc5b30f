import NIOCore
import Testing

@testable import FeedServer

/// Which peers `/metrics` counts as this machine.
@Suite struct PeerTests {
  @Test func loopbackPeersAreLocalAndOthersAreNot() throws {
    let local = ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]
    let remote = ["192.0.2.2", "10.0.0.1", "128.0.0.1", "::2", "fe80::1", "::ffff:192.0.2.2", "::ffff:126.0.0.1"]
    for address in local {
      #expect(isLocalPeer(try SocketAddress(ipAddress: address, port: 4000)), "\(address)")
    }
    for address in remote {
      #expect(!isLocalPeer(try SocketAddress(ipAddress: address, port: 4000)), "\(address)")
    }
    #expect(isLocalPeer(try SocketAddress(unixDomainSocketPath: "/tmp/runmate.sock")))
    #expect(!isLocalPeer(nil))
  }
}
