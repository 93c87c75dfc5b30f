import Archive
import Foundation
import RunMateTestSupport
import Testing

/// Mutated gzip data (flipped bits, cut, spliced, garbage) never traps or hangs the decoder: each input is decoded
/// whole, in random pieces, or refused with one line. The corpus is written by the real `gzip` tool.
@Suite(.enabled(if: hasZipTools, "needs the zip and gzip tools (scripts/apt-packages.txt)"))
struct FuzzTests {
  @Test func mutatedGzipNeverTrapsAndIsRefusedInOneLine() throws {
    let corpus = [
      try GzipTests.gzipped(trackText(points: 300)).compressed,
      try GzipTests.gzipped("a").compressed + GzipTests.gzipped("second\n", name: "b.txt").compressed,
    ].map { [UInt8]($0) }
    let mutator = Mutator(
      garbage: Mutator.controlBytes + [[0x1F, 0x8B, 0x08], [0x1F, 0x8B, 0x08, 0xFF], [0, 0, 0, 0]])
    let run = fuzz("gzip", corpus: corpus, defaultSeed: 0x5EED_621F, mutator: mutator) { input, random in
      let decoder = GzipDecoder(name: "run.gpx.gz", limits: DecompressionLimits(maximumBytes: 64 << 20))
      var output = 0
      var offset = 0
      while offset < input.count {
        let end = min(input.count, offset + 1 + Int(random.next() % 512))
        let failure = input[offset..<end].withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> ArchiveError? in
          var sink = Data()
          defer { output += sink.count }
          return GzipTests.feed(decoder, bytes, into: &sink)
        }
        if let failure { throw failure }
        offset = end
      }
      try decoder.finish()
      return output <= 64 << 20 ? [] : ["\(output) bytes out past the limit"]
    }
    #expect(run.passed, "\(run.failures.prefix(5)) slowest \(run.slowest)")
  }
}
