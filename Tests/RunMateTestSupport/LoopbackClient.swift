import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 (or another IPv4 address of this machine), from `source` when given (another
/// loopback address, 127.0.0.2 …: the server sees another peer): bytes sent exactly as given (no client normalizes a
/// path or refuses a header), the answer read as it arrives. Each read waits at most `timeout` seconds.
public final class LoopbackSocket: Sendable {
  /// The socket.
  public let fd: Int32

  /// Connects (see the type's documentation).
  public init(port: Int, host: String = "127.0.0.1", from source: String? = nil, timeout: Double = 5) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    if let source {
      var local = loopbackAddress(port: 0)
      try #require(inet_pton(AF_INET, source, &local.sin_addr) == 1, "not an IPv4 address: \(source)")
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      if bound != 0 { close(fd) }
      try #require(bound == 0, "bind to \(source): errno \(errno)")
    }
    var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var address = loopbackAddress(port: port)
    try #require(inet_pton(AF_INET, host, &address.sin_addr) == 1, "not an IPv4 address: \(host)")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if connected != 0 { close(fd) }
    try #require(connected == 0, "connect: errno \(errno)")
  }

  deinit { close(fd) }

  /// Sends all of `bytes` unless the server closes first; how many were sent.
  @discardableResult public func send(_ bytes: [UInt8]) -> Int {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count <= 0 { break }
      sent += count
    }
    return sent
  }

  /// Sends `text` as UTF-8.
  @discardableResult public func send(_ text: String) -> Int { send(Array(text.utf8)) }

  /// One read: nil when the peer closed (or reset) the connection or nothing came within the timeout.
  public func receive() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = recv(fd, &buffer, buffer.count, 0)
    return count > 0 ? Array(buffer[0..<count]) : nil
  }

  /// Reads one answer: its head, then a body of its Content-Length (none for HEAD, 1xx, 204 and 304). Status 0
  /// when the connection closed before a whole head came.
  public func readAnswer(headOnly: Bool = false) -> RawAnswer {
    var received: [UInt8] = []
    let separator = Array("\r\n\r\n".utf8)
    var headEnd = 0
    while headEnd == 0 {
      guard let chunk = receive() else { return RawAnswer(head: String(decoding: received, as: UTF8.self)) }
      received += chunk
      headEnd = received.firstRange(of: separator)?.upperBound ?? 0
    }
    let head = String(decoding: received[..<headEnd], as: UTF8.self)
    var answer = RawAnswer(head: head)
    let length = headOnly || answer.status == 304 ? 0 : Int(answer.header("Content-Length") ?? "0") ?? 0
    var body = Array(received[headEnd...])
    while body.count < length, let chunk = receive() { body += chunk }
    answer.body = body
    return answer
  }

  /// Waits for the server to close the connection, reading (and dropping) what it sends: true when it closed
  /// within `seconds`.
  public func closedByServer(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = recv(fd, &buffer, buffer.count, 0)
      if count == 0 { return true }
      if count < 0, errno != EAGAIN, errno != EWOULDBLOCK { return true }  // reset
    }
    return false
  }
}

/// An HTTP answer as read off the socket.
public struct RawAnswer {
  /// The status line and headers.
  public var head: String
  /// The body.
  public var body: [UInt8] = []

  /// An answer of `head`.
  public init(head: String) { self.head = head }

  /// The status code of the status line (0 when there is none).
  public var status: Int {
    head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
  }

  /// The first field named `name` (case-insensitive).
  public func header(_ name: String) -> String? {
    for line in head.split(separator: "\r\n").dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      if line[..<colon].caseInsensitiveCompare(name) == .orderedSame {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }

  /// The head and the body as text.
  public var text: String { head + String(decoding: body, as: UTF8.self) }
}

/// Sends `request` as it is on a new connection and reads one answer.
public func rawHTTP(port: Int, host: String = "127.0.0.1", _ request: String) throws -> (status: Int, text: String) {
  let socket = try LoopbackSocket(port: port, host: host)
  socket.send(request)
  let answer = socket.readAnswer(headOnly: request.hasPrefix("HEAD "))
  return (answer.status, answer.text)
}

/// The value of the Prometheus sample `name{labels}` in `exposition` (labels as written, e.g.
/// `route="/healthz",status="200"`; empty for none); nil when there is no such sample.
public func sample(_ exposition: String, _ name: String, _ labels: String = "") -> Double? {
  let key = labels.isEmpty ? name + " " : name + "{" + labels + "} "
  for line in exposition.split(separator: "\n") where line.hasPrefix(key) {
    return Double(line.dropFirst(key.count))
  }
  return nil
}
