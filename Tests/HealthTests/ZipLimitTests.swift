import Foundation
import RunMateTestSupport
import RunningCore
import Testing

@testable import Health

/// Zips that try to make the import work without end: a bomb stops early, a member cut short fails at once.
/// The zips are written by `Fixtures/zip/make-zips.py`, byte by byte, so their sizes can lie.
struct ZipLimitTests {
  /// Imports a fixture, returning its error's message and the time taken.
  static func attempt(_ path: String) throws -> (message: String?, elapsed: Duration) {
    let url = try fixtureURL(path)
    let berlin = try zone("Europe/Berlin")
    var message: String?
    let elapsed = ContinuousClock().measure {
      do {
        _ = try importHealth(at: url, timeZone: berlin)
      } catch {
        message = "\(error)"
      }
    }
    return (message, elapsed)
  }

  @Test func aZipBombIsRefusedWhileInflating() throws {
    // 32 MiB of blanks deflated ~1000:1; refused once 16 MiB are out, never inflated whole.
    let (message, elapsed) = try Self.attempt("zip/bomb.zip")
    #expect(
      message == "bomb.zip: refusing apple_health_export/export.xml: it inflates more than 200 times (a zip bomb?)")
    #expect(elapsed < .seconds(5))
  }

  @Test func aMemberDeclaringMoreThan16GiBIsRefusedBeforeInflating() throws {
    let (message, _) = try Self.attempt("zip/declares-17-gib.zip")
    #expect(
      message
        == "declares-17-gib.zip: refusing apple_health_export/export.xml: it declares more than 16 GiB (a zip bomb?)")
  }

  @Test func aZip64ExportImports() throws {
    let health = try importFixture("zip/zip64.zip")
    #expect(health.days == [HealthDay(date: day("2024-03-01"), steps: 1234, distanceKm: 0, activeEnergyKcal: 0)])
  }

  @Test(arguments: [
    // The directory says the whole deflated stream; only half is in the file.
    ("cut-at-end.zip", "apple_health_export/export.xml: the compressed data is cut short (truncated?)"),
    // The directory says the half that is there, but the deflate stream never ends: ZIPFoundation spun here.
    ("unterminated.zip", "apple_health_export/export.xml: the compressed data is cut short (truncated?)"),
    ("stored-past-end.zip", "apple_health_export/export.xml: the compressed data is cut short (truncated?)"),
  ])
  func aMemberCutShortFailsAtOnce(_ file: String, _ reason: String) throws {
    // On a thread of its own, so a hang fails the test (after 10 s) instead of stalling the suite.
    let outcome = OutcomeBox()
    let done = DispatchSemaphore(value: 0)
    let path = "zip/\(file)"
    Thread {
      outcome.set(try? Self.attempt(path))
      done.signal()
    }.start()
    try #require(done.wait(timeout: .now() + 10) == .success, "\(file) did not fail within 10 s")
    let (message, elapsed) = try #require(outcome.get())
    #expect(message == "\(file): cannot read the zip (\(reason))")
    #expect(elapsed < .seconds(2))
  }

  @Test func theRatioLimitWaitsFor16MiB() throws {
    // A small member may compress far better than 200:1 (a file of blanks); only past 16 MiB does the ratio
    // count. The handwritten export (23 records) still imports from its zip.
    let health = try importFixture("handwritten/export.zip")
    #expect(health.recordCount == 23)
  }
}

/// The result of an attempt made on another thread.
private final class OutcomeBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: (message: String?, elapsed: Duration)?

  func set(_ outcome: (message: String?, elapsed: Duration)?) { lock.withLock { value = outcome } }

  func get() -> (message: String?, elapsed: Duration)? { lock.withLock { value } }
}
