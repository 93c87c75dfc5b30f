import Foundation
import RunMateTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A small hostile HTTP server on 127.0.0.1 that a test starts: each request's head is kept (so a test can count
/// the Authorization headers it received) and answered as `respond` says (connections kept open for the next
/// request, as HTTP/1.1 has them).
final class HostileServer: @unchecked Sendable {
  /// How a request is answered.
  enum Answer: Sendable {
    /// These bytes (a whole answer, with its Content-Length).
    case text(String)
    /// `head` at once, then one byte every `interval` seconds until the client goes away or the server stops.
    case drip(head: String, interval: Double)
  }

  let port: Int
  private let listener: Int32
  private let respond: @Sendable (_ head: String) -> Answer
  private let lock = NSLock()
  private var heads: [String] = []
  private var open: Set<Int32> = []
  private var stopped = false

  /// Listens on a free loopback port and answers each request with `respond(head)`.
  init(respond: @escaping @Sendable (_ head: String) -> Answer) throws {
    self.respond = respond
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    var address = loopbackAddress(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard bound == 0, named == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw CannotListen()
    }
    listener = fd
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  struct CannotListen: Error {}

  /// `http://127.0.0.1:PORT` + `path`.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// The heads of the requests received so far.
  var requests: [String] { lock.withLock { heads } }

  /// How many of the requests received carried an Authorization header.
  var authorizationHeaders: Int {
    requests.filter { head in
      head.split(separator: "\r\n").contains { $0.lowercased().hasPrefix("authorization:") }
    }.count
  }

  /// Stops listening and ends every connection.
  func stop() {
    let fds = lock.withLock {
      stopped = true
      return open
    }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        return
      }
      let admitted = lock.withLock {
        if stopped { return false }
        open.insert(fd)
        return true
      }
      guard admitted else {
        close(fd)
        return
      }
      Thread.detachNewThread { [self] in serve(fd) }
    }
  }

  private func serve(_ fd: Int32) {
    defer {
      lock.withLock { _ = open.remove(fd) }
      close(fd)
    }
    while let head = readRequest(fd) {
      lock.withLock { heads.append(head) }
      switch respond(head) {
      case .text(let text):
        guard write(fd, Array(text.utf8)) else { return }
      case .drip(let head, let interval):
        guard write(fd, Array(head.utf8)) else { return }
        while !lock.withLock({ stopped }) {
          Thread.sleep(forTimeInterval: interval)
          guard write(fd, [UInt8(ascii: "a")]) else { return }
        }
        return
      }
    }
  }

  /// The request's head (its body, by Content-Length, read and dropped); nil when the client went away first.
  private func readRequest(_ fd: Int32) -> String? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let end = Array("\r\n\r\n".utf8)
    while true {
      if let range = data.firstRange(of: end) {
        let head = String(decoding: data[..<range.lowerBound], as: UTF8.self)
        let length =
          head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
          .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = data.count - range.upperBound
        while body < length {
          let count = recv(fd, &buffer, buffer.count, 0)
          if count <= 0 { return nil }
          body += count
        }
        return head
      }
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      data += buffer[..<count]
    }
  }

  /// Writes all of `bytes`; false when the peer is gone (no SIGPIPE).
  private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count <= 0 { return false }
      sent += count
    }
    return true
  }
}
