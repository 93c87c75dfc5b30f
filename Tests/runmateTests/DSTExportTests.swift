import Foundation
import RunMateTestSupport
import Testing

/// Timed events across a clock change (issue 21): a run keeps its real length (a DURATION, never a local DTEND
/// that the repeated hour of a fall-back makes ambiguous), a start in the gap of a spring-forward is at the time
/// the clocks show (and every text says so, with one warning), and the calendars still pass every consumer.
@Suite(.tags(.endToEnd)) struct DSTExportTests {
  /// The VEVENT blocks of an export, each as its text.
  static func events(_ text: String) -> [String] {
    text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().map { $0.components(separatedBy: "END:VEVENT")[0] }
  }

  /// Seconds of a `DURATION:PT1H7M` line in `event`.
  static func duration(_ event: String) -> Int? {
    guard let line = event.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("DURATION:PT") }) else {
      return nil
    }
    var seconds = 0
    var number = 0
    for character in line.dropFirst("DURATION:PT".count) {
      if let digit = character.wholeNumberValue {
        number = number * 10 + digit
      } else {
        seconds += number * (character == "H" ? 3600 : character == "M" ? 60 : 1)
        number = 0
      }
    }
    return seconds
  }

  /// Runs ics-check on `file` when it is installed: every consumer must pass.
  static func expectEveryConsumerPasses(_ file: URL) throws {
    guard let checker = ExportCommandTests.checker else { return }
    let result = try runProcess(checker, [file.path], in: repositoryRoot)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
  }

  @Test func aRunAcrossTheFallBackKeepsItsLength() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("plan.ics")
    let result = try runmate([
      "export", "--now", "2027-08-01", "--distance", "half", "--level", "beginner", "--race-date", "2027-11-21",
      "--weeks", "12", "--at", "01:30", "--tz", "America/New_York", "--days", "tue,thu,sat,sun", "--out", file.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOf: file, encoding: .utf8)
    let events = Self.events(text)
    // 01:30 happens twice on Sun 7 Nov 2027: the run starts at the first (EDT, 05:30 UTC), written in UTC because
    // consumers read a local time in that hour either way (libical and khal: the second), and lasts as long as
    // planned: a local DTEND of 01:30 + its length would be read in EDT too (RFC 5545 §3.3.5), an hour short.
    let fallBack = try #require(events.first { $0.contains("DTSTART:20271107T053000Z\r\n") }, "\(text)")
    #expect(!fallBack.contains("DTEND"), "\(fallBack)")
    let seconds = try #require(Self.duration(fallBack), "\(fallBack)")
    #expect(seconds >= 60 * 60, "\(fallBack)")
    #expect(fallBack.contains(" at 01:30\r\n"), "\(fallBack)")
    // Every timed event has a DURATION and no DTEND; all-day ones keep their DATE DTEND.
    for event in events where event.contains("DTSTART;TZID=") {
      #expect(!event.contains("DTEND") && Self.duration(event) != nil, "\(event)")
    }
    try Self.expectEveryConsumerPasses(file)
  }

  @Test func aStartInTheSpringForwardGapIsAtTheRealTimeAndSaysSoOnce() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("plan.ics")
    let result = try runmate([
      "export", "--now", "2026-01-05", "--distance", "half", "--level", "beginner", "--race-date", "2026-04-19",
      "--weeks", "12", "--at", "02:30", "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun", "--remind", "30m",
      "--out", file.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let warning = "02:30 does not exist on Sun 29 Mar 2026 in Europe/Berlin (clocks go forward): the run is at 03:30"
    #expect(result.stderr.components(separatedBy: warning).count == 2, "\(result.stderr)")
    let text = try String(contentsOf: file, encoding: .utf8)
    let events = Self.events(text)
    let shifted = try #require(events.first { $0.contains("DTSTART;TZID=Europe/Berlin:20260329T033000\r\n") })
    #expect(shifted.contains(" at 03:30\r\n"), "\(shifted)")
    #expect(!shifted.contains("02:30"), "\(shifted)")
    // `schedule` says it on stderr too, and shows 03:30 that day.
    let schedule = try runmate([
      "schedule", "--now", "2026-01-05", "--distance", "half", "--level", "beginner", "--race-date", "2026-04-19",
      "--weeks", "12", "--at", "02:30", "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun",
    ])
    #expect(schedule.status == 0, "\(schedule.stderr)")
    #expect(schedule.stderr == "shifted: \(warning)\n", "\(schedule.stderr)")
    #expect(schedule.stdout.contains("Sun 29 Mar  03:30 "), "\(schedule.stdout)")
    // The other days keep 02:30 and say it.
    let other = try #require(events.first { $0.contains("DTSTART;TZID=Europe/Berlin:20260331T023000\r\n") })
    #expect(other.contains(" at 02:30\r\n"), "\(other)")
    try Self.expectEveryConsumerPasses(file)
  }
}
