/// Secret tokens (subscription feeds, coach API sessions): 256 random bits from the system's cryptographic generator,
/// written as 43 base64url characters. Only their SHA-256 is stored.
public enum SecretTokens {
  /// The length of a token's text.
  public static let length = 43

  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// A new token: 32 bytes from `SystemRandomNumberGenerator` (getrandom(2) on Linux, arc4random on Apple
  /// systems: the kernel's CSPRNG), base64url without padding.
  public static func generate() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(33)
    for _ in 0..<4 {
      let word = generator.next() as UInt64
      for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    // 32 bytes are 256 bits: 42 characters of 6 bits and a 43rd carrying the last 4 bits.
    bytes.append(0)
    var text: [UInt8] = []
    text.reserveCapacity(length)
    var index = 0
    while text.count < length {
      let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] where text.count < length {
        text.append(alphabet[Int((chunk >> UInt32(shift)) & 0x3f)])
      }
      index += 3
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether `token` looks like one of ours (43 base64url characters); nothing else is looked up.
  public static func isWellFormed(_ token: some StringProtocol) -> Bool {
    token.utf8.count == length && token.utf8.allSatisfy { alphabet.contains($0) }
  }

  /// The SHA-256 of a well-formed token, as stored; nil for a malformed one.
  public static func hash(_ token: some StringProtocol) -> [UInt8]? {
    guard isWellFormed(token) else { return nil }
    return SHA256.digest(Array(token.utf8))
  }
}
