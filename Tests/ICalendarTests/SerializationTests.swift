import Foundation
import ICalendar
import RunMateTestSupport
import Testing

/// A calendar that uses every feature the serializer supports: all-day, Europe/Berlin and
/// America/New_York (an event spanning the 2027-03-14 DST change, a weekly rule across Berlin's 2027-03-28
/// change), UTC, categories, escaped and non-ASCII text, relative/absolute/RELATED=END alarms, STATUS, SEQUENCE,
/// TRANSP, RRULE with a RECURRENCE-ID override, DURATION.
let sampleCalendar: VCalendar = {
  let stamp = time(2027, 2, 1, 12, 0)
  return VCalendar(
    prodID: "-//RunningMate//ICalendar tests//EN", method: "PUBLISH",
    name: "Läufer-Plan: 10 km, Frühling; 2027",
    events: [
      VEvent(
        uid: "rest-2027-03-02@tests.runmate", dtstamp: stamp, start: .date(day(2027, 3, 2)),
        end: .date(day(2027, 3, 3)), summary: "Rest day", description: "No running.\nMobility optional.",
        categories: ["Rest"], transparent: true,
        alarms: [VAlarm(trigger: .absolute(time(2027, 3, 1, 18, 0)), description: "Rest day tomorrow")]),
      VEvent(
        uid: "easy-2027-03-05@tests.runmate", dtstamp: stamp,
        start: .zoned(time(2027, 3, 5, 6, 30), tzid: "Europe/Berlin"),
        end: .zoned(time(2027, 3, 5, 7, 20), tzid: "Europe/Berlin"),
        summary: "Easy run · 8 km",
        description: "Läufer · 5 km, easy; keep HR < 145\nStretch afterwards: 10 min, \"calves\" \\ hamstrings.",
        location: "Tiergarten, Berlin; gate 2", categories: ["Running", "Easy"],
        alarms: [VAlarm(trigger: .relative(seconds: -1800, fromEnd: false), description: "Easy run in 30 minutes")]),
      VEvent(
        uid: "night-run-2027-03-14@tests.runmate", dtstamp: stamp,
        start: .zoned(time(2027, 3, 14, 1, 30), tzid: "America/New_York"),
        end: .zoned(time(2027, 3, 14, 3, 30), tzid: "America/New_York"),
        summary: "Night run across the clock change", categories: ["Running"], sequence: 1,
        status: .tentative),
      VEvent(
        uid: "tempo@tests.runmate", dtstamp: stamp,
        start: .zoned(time(2027, 3, 17, 18, 0), tzid: "Europe/Berlin"), summary: "Tempo run",
        categories: ["Running", "Tempo"],
        alarms: [VAlarm(trigger: .relative(seconds: -3600, fromEnd: false), description: "Tempo in an hour")],
        recurrenceRule: "FREQ=WEEKLY;COUNT=4", durationSeconds: 3600),
      VEvent(
        uid: "tempo@tests.runmate", dtstamp: stamp,
        start: .zoned(time(2027, 3, 24, 19, 0), tzid: "Europe/Berlin"), summary: "Tempo run (moved)",
        sequence: 2, recurrenceID: .zoned(time(2027, 3, 24, 18, 0), tzid: "Europe/Berlin"), durationSeconds: 3600),
      VEvent(
        uid: "race-2027-04-11@tests.runmate", dtstamp: stamp, start: .utc(time(2027, 4, 11, 7, 0)),
        end: .utc(time(2027, 4, 11, 11, 0)), summary: "Half marathon", location: "Start: Brandenburger Tor",
        categories: ["Race"], sequence: 3, status: .confirmed,
        alarms: [
          VAlarm(trigger: .relative(seconds: -86_400, fromEnd: false), description: "Race tomorrow"),
          VAlarm(trigger: .relative(seconds: 0, fromEnd: true), description: "Finished? Log it"),
        ]),
      VEvent(
        uid: "long-2027-03-21@tests.runmate", dtstamp: stamp,
        start: .zoned(time(2027, 3, 21, 9, 0), tzid: "Europe/Berlin"),
        end: .zoned(time(2027, 3, 21, 11, 0), tzid: "Europe/Berlin"), summary: "Long run 18 km",
        sequence: 3, status: .cancelled),
    ])
}()

@Suite("Serializing through libical")
struct SerializationTests {
  @Test func roundTripGivesBackTheSameValues() throws {
    let text = try sampleCalendar.serialized()
    let parsed = try VCalendar.parse(text)
    #expect(parsed.prodID == sampleCalendar.prodID)
    #expect(parsed.method == "PUBLISH")
    #expect(parsed.name == sampleCalendar.name)
    #expect(parsed.events.count == sampleCalendar.events.count)
    for (back, original) in zip(parsed.events, sampleCalendar.events) {
      #expect(back == original, "event \(original.uid)")
    }
    #expect(parsed == sampleCalendar)
  }

  @Test func floatingTimesAndSecondsRoundTrip() throws {
    let calendar = VCalendar(
      prodID: "-//tests//EN",
      events: [
        VEvent(
          uid: "floating@tests", dtstamp: time(2027, 1, 1, 0, 0, 59), start: .floating(time(2027, 5, 1, 7, 15, 30)),
          end: .floating(time(2027, 5, 1, 8, 0)), summary: "Floating run")
      ])
    #expect(try VCalendar.parse(calendar.serialized()) == calendar)
  }

  /// What does not survive a round trip, on purpose (documented on the properties).
  @Test func documentedLossesOnRoundTrip() throws {
    let calendar = VCalendar(
      prodID: "-//tests//EN",
      events: [
        VEvent(
          uid: "losses@tests", dtstamp: time(2027, 1, 1, 0, 0), start: .zoned(time(2027, 5, 1, 7, 0), tzid: "UTC"),
          summary: "Run", description: "", location: "", categories: ["", "Easy"],
          alarms: [VAlarm(trigger: .relative(seconds: -600, fromEnd: false), description: "")])
      ])
    let text = try calendar.serialized()
    let event = try #require(VCalendar.parse(text).events.first)
    #expect(event.start == .utc(time(2027, 5, 1, 7, 0)))  // UTC has no VTIMEZONE: written with Z
    #expect(event.description == nil)  // empty TEXT is not written
    #expect(event.location == nil)
    #expect(event.categories == ["Easy"])
    #expect(event.alarms == [VAlarm(trigger: .relative(seconds: -600, fromEnd: false), description: "Run")])
    #expect(!text.contains("VTIMEZONE"))
  }

  @Test func writesTheHeaderInOrder() throws {
    let lines = try sampleCalendar.serialized().components(separatedBy: "\r\n")
    #expect(
      Array(lines.prefix(7)) == [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//RunningMate//ICalendar tests//EN", "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH", "X-WR-CALNAME:Läufer-Plan: 10 km, Frühling; 2027", "BEGIN:VTIMEZONE",
      ])
    #expect(lines.suffix(2) == ["END:VCALENDAR", ""])
  }

  @Test func usesPlainIANATimeZoneNamesWithOneTruncatedVTimezonePerZone() throws {
    let text = try sampleCalendar.serialized()
    #expect(!text.contains("freeassociation"))
    #expect(text.contains("\r\nDTSTART;TZID=Europe/Berlin:20270305T063000\r\n"))
    #expect(text.contains("\r\nDTEND;TZID=America/New_York:20270314T033000\r\n"))
    #expect(text.contains("\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270324T180000\r\n"))
    let lines = text.components(separatedBy: "\r\n")
    let zoneIDs = lines.indices.filter { lines[$0] == "BEGIN:VTIMEZONE" }.map { lines[$0 + 1] }
    #expect(zoneIDs == ["TZID:America/New_York", "TZID:Europe/Berlin"])
    #expect(lines.filter { $0 == "END:VTIMEZONE" }.count == 2)
    // Truncated at 1 January 2026 00:00 UTC (the year before the earliest event): the first observance
    // starts there, in local time, and nothing older is left; a few hundred bytes instead of about 3 KB.
    let blocks = text.components(separatedBy: "BEGIN:VTIMEZONE\r\n").dropFirst()
      .map { $0.components(separatedBy: "END:VTIMEZONE")[0] }
    let firstStarts = blocks.map { block in
      block.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART:") }.sorted().first
    }
    #expect(firstStarts == ["DTSTART:20251231T190000", "DTSTART:20260101T010000"])
    for block in blocks {
      #expect(block.utf8.count < 1200, "\(block)")
    }
  }

  @Test func writesWhatConsumersNeed() throws {
    let text = try sampleCalendar.serialized()
    #expect(text.contains("\r\nDTSTART;VALUE=DATE:20270302\r\nDTEND;VALUE=DATE:20270303\r\n"))
    #expect(text.contains("\r\nCATEGORIES:Running,Easy\r\n"))
    #expect(text.contains("\r\nSEQUENCE:0\r\n"))
    #expect(text.contains("\r\nSEQUENCE:3\r\nSTATUS:CANCELLED\r\n"))
    #expect(text.contains("\r\nDTSTAMP:20270201T120000Z\r\n"))
    #expect(text.contains("\r\nTRANSP:TRANSPARENT\r\n"))
    #expect(text.contains("\r\nDURATION:PT1H\r\n"))
    #expect(text.contains("\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\n"))
    #expect(text.contains("\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:20270301T180000Z\r\n"))
    #expect(text.contains("\r\nTRIGGER:-PT30M\r\n"))
    #expect(text.contains("\r\nTRIGGER;RELATED=END:PT0S\r\n"))
    #expect(text.contains("\r\nTRIGGER:-P1D\r\n"))
    #expect(text.contains("\r\nLOCATION:Tiergarten\\, Berlin\\; gate 2\r\n"))
    #expect(!text.contains("ORGANIZER"))
  }

  @Test func linesAreCRLFAndFoldedAt75Octets() throws {
    let text = try sampleCalendar.serialized()
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
    let lines = text.components(separatedBy: "\r\n")
    for line in lines {
      #expect(line.utf8.count <= 75, "\(line)")
    }
    // The long description was folded (continuation lines start with a space) without breaking UTF-8.
    #expect(lines.contains { $0.hasPrefix(" ") })
  }

  @Test func sameValueGivesSameBytes() throws {
    let first = try sampleCalendar.serialized()
    let second = try sampleCalendar.serialized()
    #expect(Array(first.utf8) == Array(second.utf8))
    let copy = sampleCalendar
    #expect(Array(try copy.serialized().utf8) == Array(first.utf8))
  }

  @Test func rendersFromConcurrentTasks() async throws {
    let expected = try sampleCalendar.serialized()
    let results = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<8 { group.addTask { try sampleCalendar.serialized() } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0 == expected })
  }

  @Test(
    .enabled(if: icsCheckInstalled, "ics-check is not installed: run ../shared/tools/ics-check/ics-check --install"),
    .enabled(if: !runningUnderValgrind, "under valgrind, Foundation.Process cannot start ics-check"),
    .timeLimit(.minutes(2)))
  func icsCheckAcceptsTheExport() throws {
    let result = try runICSCheck(on: try sampleCalendar.serialized())
    print(result.output)
    #expect(result.status == 0, "\(result.output)")
    let summary = try #require(result.output.split(separator: "\n").last { $0.hasPrefix("ics-check:") })
    // "ics-check: N passed, N failed, N skipped": nothing failed, and something was actually checked (a
    // consumer that is not installed is skipped; all six pass on a machine set up with --install).
    #expect(summary.contains(" 0 failed"), "\(summary)")
    let passed = summary.dropFirst("ics-check: ".count).prefix { $0.isNumber }
    #expect((Int(passed) ?? 0) > 0, "\(summary)")
  }
}
