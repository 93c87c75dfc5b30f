import Foundation
import RunMateTestSupport
import Testing

@testable import Health

/// The scanner keeps an incomplete tag, reference or declaration for the next chunk: any chunking of a file
/// gives the same result, and a file cut anywhere is refused (never half-imported, never a crash).
struct ChunkBoundaryTests {
  static func stream() throws -> ExportStream {
    ExportStream(file: "export.xml", options: ImportOptions(timeZone: try zone("Europe/Berlin"), priority: []))
  }

  static func feed(_ stream: inout ExportStream, _ bytes: ArraySlice<UInt8>) throws(HealthError) {
    var failure: HealthError?
    bytes.withUnsafeBytes { raw in
      do throws(HealthError) { try stream.feed(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  @Test(arguments: [1, 2, 3, 7, 64, 1000])
  func everyChunkSizeGivesTheSameResult(chunk: Int) throws {
    let bytes = [UInt8](try Data(contentsOf: fixtureURL("handwritten/export.xml")))
    let whole = try importFixture("handwritten/export.xml")
    var stream = try Self.stream()
    var offset = 0
    while offset < bytes.count {
      let end = min(offset + chunk, bytes.count)
      try Self.feed(&stream, bytes[offset..<end])
      offset = end
    }
    #expect(try stream.finish() == whole)
  }

  @Test func aFileCutAnywhereIsRefused() throws {
    let bytes = [UInt8](try Data(contentsOf: fixtureURL("handwritten/export.xml")))
    let closing = Array("</HealthData>".utf8)
    let rootEnd = try #require(
      (0...(bytes.count - closing.count)).last { Array(bytes[$0..<($0 + closing.count)]) == closing })
    for length in stride(from: 0, to: rootEnd + closing.count, by: 3) {
      var stream = try Self.stream()
      do {
        try Self.feed(&stream, bytes[0..<length])
        _ = try stream.finish()
        Issue.record("a file cut after \(length) bytes was imported")
      } catch {
        switch error {
        case .truncated, .notAnExport: break
        case .xml(_, _, let detail): #expect(detail.contains("ends inside the <!DOCTYPE>"), "\(length): \(error)")
        default: Issue.record("a file cut after \(length) bytes: \(error)")
        }
      }
    }
  }
}
