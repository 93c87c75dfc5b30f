import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a host is this machine, the only place plain http (and a password in clear) may go.
///
/// This machine is a literal loopback address (`127.0.0.0/8`, `::1`, `::ffff:127.x.x.x`), or a name that resolves
/// to loopback addresses only (`localhost`). A name is never judged by how it looks: `127.evil.example` is a name
/// like any other, and one that does not resolve, or resolves to any other address, is not this machine.
public enum Loopback {
  /// Whether `host` (a URL's host; IPv6 in brackets or not) is this machine, names resolved with getaddrinfo(3).
  public static func isThisMachine(_ host: String) -> Bool {
    isThisMachine(host, resolve: resolve)
  }

  /// The decision alone: `resolve` gives the numeric addresses a name resolves to (none when it does not).
  public static func isThisMachine(_ host: String, resolve: (String) -> [String]) -> Bool {
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    guard !bare.isEmpty else { return false }
    if let literal = address(bare) { return isLoopback(literal) }
    let addresses = resolve(bare)
    return !addresses.isEmpty && addresses.allSatisfy { address($0).map(isLoopback) ?? false }
  }

  /// The bytes of a numeric IPv4 (4 bytes) or IPv6 (16 bytes) address; nil for anything else (a name, a scoped
  /// IPv6 address).
  static func address(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
      return withUnsafeBytes(of: &v6) { Array($0) }
    }
    return nil
  }

  /// `127.0.0.0/8`, `::1` and `::ffff:127.0.0.0/104`.
  static func isLoopback(_ bytes: [UInt8]) -> Bool {
    switch bytes.count {
    case 4: return bytes[0] == 127
    case 16:
      if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
      return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
    default: return false
    }
  }

  /// Every address `name` resolves to (getaddrinfo, TCP), numeric; none when it does not resolve.
  static func resolve(_ name: String) -> [String] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
    defer { freeaddrinfo(first) }
    var addresses: [String] = []
    var node: UnsafeMutablePointer<addrinfo>? = first
    while let current = node {
      var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
      if let address = current.pointee.ai_addr,
        getnameinfo(
          address, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
      {
        addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
      }
      node = current.pointee.ai_next
    }
    return addresses
  }
}
