import Archive
import Foundation
import RunMateTestSupport
import Testing

/// The gzip decoder on files written by the real `gzip` tool: the text comes back whole whatever the piece size;
/// several members, cut data, a wrong checksum and a bomb.
@Suite(.enabled(if: hasZipTools, "needs the zip and gzip tools (scripts/apt-packages.txt)"))
struct GzipTests {
  /// Decodes `data` fed in pieces of `piece` bytes; the text, or the error's message.
  static func decode(_ data: Data, piece: Int, limits: DecompressionLimits? = DecompressionLimits()) -> (
    Data, String?
  ) {
    let decoder = GzipDecoder(name: "run.gpx.gz", limits: limits)
    var output = Data()
    do throws(ArchiveError) {
      var offset = 0
      while offset < data.count {
        let end = min(data.count, offset + piece)
        let chunk = data.subdata(in: offset..<end)
        let failure = chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> ArchiveError? in
          Self.feed(decoder, bytes, into: &output)
        }
        if let failure { throw failure }
        offset = end
      }
      try decoder.finish()
    } catch {
      return (output, error.description)
    }
    return (output, nil)
  }

  /// Feeds `bytes`, appending what comes out to `output`; the error, if any.
  static func feed(_ decoder: GzipDecoder, _ bytes: UnsafeRawBufferPointer, into output: inout Data) -> ArchiveError? {
    do {
      try decoder.feed(bytes) { (plain) throws(Never) in output.append(contentsOf: plain) }
    } catch {
      switch error {
      case .archive(let error): return error
      }
    }
    return nil
  }

  static func gzipped(_ text: String, name: String = "run.gpx") throws -> (original: Data, compressed: Data) {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let original = Data(text.utf8)
    try original.write(to: directory.appendingPathComponent(name))
    try shell("gzip -9 \(name)", in: directory)
    return (original, try Data(contentsOf: directory.appendingPathComponent(name + ".gz")))
  }

  @Test(arguments: [1, 7, 4096, 1 << 20])
  func aGzipFileComesBackWholeWhateverThePieceSize(_ piece: Int) throws {
    let (original, compressed) = try Self.gzipped(trackText(points: 3_000))
    #expect(compressed.count < original.count / 3)
    let (output, error) = Self.decode(compressed, piece: piece)
    #expect(error == nil)
    #expect(output == original)
  }

  @Test func everyMemberOfAMultiMemberFileIsRead() throws {
    let first = try Self.gzipped(trackText(points: 100))
    let second = try Self.gzipped("second member\n", name: "b.txt")
    let (output, error) = Self.decode(first.compressed + second.compressed + Data(count: 16), piece: 333)
    #expect(error == nil)
    #expect(output == first.original + second.original)
  }

  @Test(arguments: [10, 100, -4, -1])
  func dataCutShortIsAClearError(_ cut: Int) throws {
    let (_, compressed) = try Self.gzipped(trackText(points: 2_000))
    let kept = cut > 0 ? cut : compressed.count + cut
    let (_, error) = Self.decode(compressed.prefix(kept), piece: 4096)
    #expect(error == "run.gpx.gz: cannot read the gzip data (the data ends inside a member (truncated?))")
  }

  @Test func aWrongChecksumIsRefused() throws {
    var (_, compressed) = try Self.gzipped(trackText(points: 500))
    compressed[compressed.count - 8] ^= 0xFF
    let (_, error) = Self.decode(compressed, piece: 4096)
    #expect(error == "run.gpx.gz: cannot read the gzip data (checksum mismatch: the data is damaged)")
  }

  @Test func somethingElseIsNotGzip() throws {
    let (_, error) = Self.decode(Data("<gpx></gpx>".utf8), piece: 4096)
    #expect(error == "run.gpx.gz: cannot read the gzip data (not gzip data: no gzip signature)")
    let (_, trailing) = Self.decode(try Self.gzipped("a").compressed + Data("junk".utf8), piece: 4096)
    #expect(trailing == "run.gpx.gz: cannot read the gzip data (data after the last member: no gzip signature)")
  }

  /// 64 MiB of zeros gzipped (about 1,000:1) stop once 16 MiB are out, in well under the time to inflate it all.
  @Test func aGzipBombStopsEarly() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try shell("head -c 67108864 /dev/zero | gzip -c > bomb.gpx.gz", in: directory)
    let path = directory.appendingPathComponent("bomb.gpx.gz").path
    var produced = 0
    var message: String?
    do {
      try gunzip(file: path, name: "bomb.gpx.gz") { (bytes) throws(Never) in produced += bytes.count }
    } catch {
      if case .archive(let error) = error { message = error.description }
    }
    #expect(message == "bomb.gpx.gz: refusing the gzip data: it inflates more than 200 times (a gzip bomb?)")
    #expect(produced <= (16 << 20) + (256 << 10))
    // A small limit on size is kept too.
    let small = DecompressionLimits(maximumBytes: 1 << 20)
    do {
      try gunzip(file: path, name: "bomb.gpx.gz", limits: small) { (_) throws(Never) in }
      Issue.record("no refusal")
    } catch {
      if case .archive(let error) = error {
        #expect(error.description.contains("it inflates to more than 1 MiB"), "\(error)")
      }
    }
  }
}
