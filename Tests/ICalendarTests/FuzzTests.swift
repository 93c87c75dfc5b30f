import Foundation
import ICalendar
import RunMateTestSupport
import Testing

/// Seeded random mutations of real calendars through the busy-calendar path (``VCalendar/parse(_:)`` and
/// ``VCalendar/occurrences(in:from:to:floatingTimeZone:)``, as `runmate` reads busy calendars): libical must
/// never trap, and a refusal is an ``ICalendarError`` whose message is one line.
///
/// The campaign (``fuzz(_:corpus:defaultSeed:mutator:check:)`` in RunMateTestSupport) takes
/// `RUNMATE_FUZZ_SECONDS` (default 2) from the printed seed `RUNMATE_FUZZ_SEED`.
struct FuzzTests {
  static let fixtures = [
    "busy/busy-sample.ics", "events/good-recurring.ics", "events/overrides-and-flags.ics",
    "timezones/freeassociation-berlin-with-vtimezone.ics", "broken/unknown-tzid.ics",
  ]

  static let mutator = Mutator(
    garbage: Mutator.controlBytes + [
      Array("\r\n ".utf8),
      Array("\r\nBEGIN:VEVENT\r\n".utf8), Array("\r\nEND:VEVENT\r\n".utf8), Array("\r\nBEGIN:VCALENDAR\r\n".utf8),
      Array("\r\nRRULE:FREQ=SECONDLY\r\n".utf8), Array("\r\nRRULE:FREQ=MINUTELY;INTERVAL=1\r\n".utf8),
      Array("\r\nDTSTART:99991231T235959Z\r\n".utf8), Array("\r\nDTSTART;TZID=Nowhere/City:20250101T000000\r\n".utf8),
      Array(";X=\"".utf8), Array("\r\nEXDATE:".utf8), Array("\r\nBEGIN:VTIMEZONE\r\n".utf8), Array(":".utf8),
      Array("\r\nRECURRENCE-ID:20250102T000000Z\r\n".utf8), Array("\r\nDURATION:-P9999W\r\n".utf8),
    ])

  @Test func mutatedCalendarsNeverTrap() throws {
    let corpus = try Self.fixtures.map { Array(try fixture($0).utf8) }
    // Two months around the fixtures' events (2025-01-01 to 2025-03-01 UTC).
    let from: Int64 = 1_735_689_600
    let to: Int64 = 1_740_787_200
    let run = fuzz("ICalendar", corpus: corpus, defaultSeed: 0x5EED_1C5, mutator: Self.mutator) { input, _ in
      let text = String(decoding: input, as: UTF8.self)
      var problems: [String] = []
      do { _ = try VCalendar.parse(text) } catch { problems = refusalProblems(error) }
      let found = try VCalendar.occurrences(in: text, from: from, to: to, floatingTimeZone: "Europe/Berlin")
      return found.count <= 100_000 * max(1, text.count / 10) ? problems : problems + ["\(found.count) occurrences"]
    }
    // A line ending in a stray CR ("BEGIN:VEVENT\r\r\n") once kept it in the message: refusals are one line.
    #expect(run.passed, "\(run.failures.prefix(5)) slowest \(run.slowest)")
  }
}
