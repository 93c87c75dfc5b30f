import Foundation
import ICalendar
import RunMateTestSupport
import Testing

/// A calendar of `count` timed Europe/Berlin events like the export's (folded DESCRIPTION, two alarms).
func largeCalendar(events count: Int, year: Int = 2027) -> VCalendar {
  let stamp = time(2026, 11, 21, 0, 0)
  var events: [VEvent] = []
  for index in 0..<count {
    let day = 1 + index % 28
    let month = 1 + (index / 28) % 12
    let year = year + index / (28 * 12)
    events.append(
      VEvent(
        uid: "run-\(index)@tests.runmate", dtstamp: stamp,
        start: .zoned(time(year, month, day, 6, 30), tzid: "Europe/Berlin"),
        end: .zoned(time(year, month, day, 7, 6), tzid: "Europe/Berlin"), summary: "Easy · \(index % 20 + 3) km",
        description: "7 km at 4:55-5:54/km, easy, RPE 3-4: you can talk in full sentences. Week \(index / 7 + 1)."
          + "\n\nPlan rm-cb104234dd038200 · RunningMate",
        categories: ["Running", "Easy"],
        alarms: [
          VAlarm(trigger: .relative(seconds: -1800, fromEnd: false), description: "Easy run at 06:30"),
          VAlarm(trigger: .absolute(time(year, month, day, 5, 0)), description: "Tomorrow: easy run"),
        ]))
  }
  return VCalendar(prodID: "-//RunningMate//Tests//EN", method: "PUBLISH", name: "large", events: events)
}

/// The physical lines of a CRLF text (the last, empty one after the final CRLF dropped).
private func physicalLines(_ text: String) -> [String] {
  var lines = text.components(separatedBy: "\r\n")
  if lines.last == "" { lines.removeLast() }
  return lines
}

/// The 1-based number of the `ordinal`-th (0-based) line equal to `line`.
private func number(of line: String, ordinal: Int = 0, in lines: [String]) -> Int? {
  lines.indices.filter { lines[$0] == line }.dropFirst(ordinal).first.map { $0 + 1 }
}

@Suite("Large inputs: line numbers and bytes")
struct LargeInputTests {
  /// How many times smaller the large files are: 1, or `RUNMATE_LARGE_INPUT_DIVISOR` (scripts/valgrind.sh sets 10:
  /// under valgrind a file of 2,000 events took 85 s, and 200 events run the same code over thousands of lines).
  static let divisor = max(1, Int(ProcessInfo.processInfo.environment["RUNMATE_LARGE_INPUT_DIVISOR"] ?? "") ?? 1)

  /// `count` events, `divisor` times fewer.
  static func scaled(_ count: Int) -> Int { count / divisor }

  @Test func xlicErrorDeepInALargeFileHasItsLine() throws {
    var lines = physicalLines(try largeCalendar(events: Self.scaled(2_000)).serialized())
    // Event 1,500 of 2,000 (0-based 1,499) gets a DTSTART libical cannot read.
    let broken = Self.scaled(1_500) - 1
    let begin = try #require(number(of: "BEGIN:VEVENT", ordinal: broken, in: lines))
    let start = try #require(lines[begin...].firstIndex { $0.hasPrefix("DTSTART") })
    lines[start] = "DTSTART;TZID=Europe/Berlin:2031-06-07T06:30:00"
    let error = try #require(caught { try VCalendar.parse(lines.joined(separator: "\r\n") + "\r\n") })
    #expect(error.line == start + 1)
    #expect(error.detail == "DTSTART;TZID=Europe/Berlin:2031-06-07T06:30:00")
    #expect(
      error.problem
        == .invalidProperty(
          property: "DTSTART", component: "VEVENT 'run-\(broken)@tests.runmate'",
          text: "Can't parse as DATE-TIME value in DTSTART property. Removing entire property: 00", more: 0))
    // The same line for the occurrences of the text (same parse, same checks).
    let expansionError = try #require(
      caught { try VCalendar.occurrences(in: lines.joined(separator: "\n"), from: 0, to: 4_000_000_000) })
    #expect(expansionError.line == start + 1)
  }

  @Test func missingUIDDeepInALargeFileNamesItsBeginLine() throws {
    var lines = physicalLines(try largeCalendar(events: Self.scaled(1_900)).serialized())
    let ordinal = Self.scaled(1_800)
    let begin = try #require(number(of: "BEGIN:VEVENT", ordinal: ordinal, in: lines))
    let uid = try #require(lines[begin...].firstIndex { $0.hasPrefix("UID:") })
    lines.remove(at: uid)
    let error = try #require(caught { try VCalendar.parse(lines.joined(separator: "\r\n") + "\r\n") })
    #expect(error.description == "line \(begin): VEVENT #\(ordinal + 1) has no UID")
  }

  @Test func truncatedLargeFile() throws {
    let lines = physicalLines(try largeCalendar(events: Self.scaled(1_200)).serialized())
    let lastBegin = try #require(lines.lastIndex(of: "BEGIN:VEVENT"))
    let cut = Array(lines[...(lastBegin + 3)])
    let error = try #require(caught { try VCalendar.parse(cut.joined(separator: "\r\n") + "\r\n") })
    #expect(error.problem == .truncated(component: "VEVENT", openedOnLine: lastBegin + 1, lastLine: cut.count))
    // Without the final line end, the last line still counts once.
    let unterminated = try #require(caught { try VCalendar.parse(cut.joined(separator: "\r\n")) })
    #expect(unterminated.problem == .truncated(component: "VEVENT", openedOnLine: lastBegin + 1, lastLine: cut.count))
  }

  @Test func unknownTimeZoneDeepInALargeFileHasItsLine() throws {
    var lines = physicalLines(try largeCalendar(events: Self.scaled(1_000)).serialized())
    let begin = try #require(number(of: "BEGIN:VEVENT", ordinal: Self.scaled(900), in: lines))
    let end = try #require(lines[begin...].firstIndex { $0.hasPrefix("DTEND") })
    lines[end] = "DTEND;TZID=Mars/Olympus_Mons:20300101T070000"
    let error = try #require(
      caught { try VCalendar.occurrences(in: lines.joined(separator: "\r\n"), from: 0, to: 4_000_000_000) })
    #expect(error.line == end + 1)
    #expect(error.problem == .unknownTimeZone(tzid: "Mars/Olympus_Mons", suggestion: nil))
  }

  @Test func linesAreSplitLikeCharacters() throws {
    // LF line ends, a BOM, a lone CR inside a line, a folded line with an ASCII continuation and one whose
    // continuation starts with a blank plus a combining mark (one Character, so no continuation for the
    // line numbers, while libical unfolds it).
    let text = [
      "\u{FEFF}BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "X-NOTE:a\rb", "BEGIN:VEVENT",
      "UID:a@tests", "DTSTAMP:20270101T000000Z", "DTSTART:2027", " 0101T0700", "END:VEVENT", "BEGIN:VEVENT",
      "UID:b@tests", "DTSTAMP:20270101T000000Z", "DTSTART:20270101T070000Z", "DTEND:2027", " \u{301}0101T0800",
      "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\n")
    let error = try #require(caught { try VCalendar.parse(text) })
    #expect(error.line == 8)
    #expect(error.detail == "DTSTART:20270101T0700")
    #expect(
      error.description == """
        line 8: invalid DTSTART in VEVENT 'a@tests': Can't parse as DATE-TIME value in DTSTART property. \
        Removing entire property: 20270101T0700 [DTSTART:20270101T0700] (and 1 more libical error in the file)
        """)
    // The second error is about the combining continuation: only its first line is the property's line.
    let second = text.replacingOccurrences(of: "DTSTART:2027\n 0101T0700", with: "DTSTART:20270101T070000Z")
    let secondError = try #require(caught { try VCalendar.parse(second) })
    #expect(secondError.line == 14)
    #expect(secondError.detail == "DTEND:2027")
  }

  @Test func bytesDoNotDependOnWhatWasWrittenBefore() throws {
    // VTIMEZONE texts are kept per process by zone and first year: a later calendar with the same zone and
    // year gets the same bytes, one with another first year a differently truncated VTIMEZONE.
    let early = largeCalendar(events: 30)
    let first = try early.serialized()
    let late = try largeCalendar(events: 30, year: 2031).serialized()
    #expect(try early.serialized() == first)
    func vtimezone(_ text: String) throws -> Substring {
      let start = try #require(text.range(of: "BEGIN:VTIMEZONE\r\n"))
      let end = try #require(text.range(of: "END:VTIMEZONE\r\n"))
      return text[start.lowerBound..<end.upperBound]
    }
    #expect(try vtimezone(first) != vtimezone(late))
    #expect(try vtimezone(first).contains("TZID:Europe/Berlin\r\n"))
    #expect(try vtimezone(late).contains("TZID:Europe/Berlin\r\n"))
    // One VCALENDAR, its VTIMEZONE before the events, the END line last.
    for text in [first, late] {
      #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
      #expect(text.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
      #expect(text.components(separatedBy: "END:VCALENDAR").count == 2)
      let zone = try #require(text.range(of: "BEGIN:VTIMEZONE"))
      let event = try #require(text.range(of: "BEGIN:VEVENT"))
      #expect(zone.lowerBound < event.lowerBound)
    }
    #expect(try VCalendar.parse(first) == early)
  }

  @Test func textChecksFollowCharacters() throws {
    let stamp = time(2027, 1, 1, 0, 0)
    let run = VEvent(uid: "a@tests", dtstamp: stamp, start: .date(day(2027, 3, 5)), summary: "Run")
    func serialize(_ events: [VEvent]) throws -> String {
      try VCalendar(prodID: "-//tests//EN", events: events).serialized()
    }
    // A comma followed by a combining mark is one Character, not a comma.
    var event = run
    event.categories = [",\u{301}"]
    #expect((try? serialize([event])) != nil)
    // A NUL anywhere in a text is refused, and shown escaped.
    event = run
    event.description = "Easy\0run"
    #expect(
      caught { try serialize([event]) }?.description
        == "VEVENT 'a@tests': invalid DESCRIPTION 'Easy\\0run': the text contains a NUL character")
    event = run
    event.alarms = [VAlarm(trigger: .relative(seconds: -60, fromEnd: false), description: "\0")]
    #expect(
      caught { try serialize([event]) }?.description
        == "VEVENT 'a@tests': invalid VALARM DESCRIPTION '\\0': the text contains a NUL character")
    // UIDs are compared as Strings: é written precomposed or decomposed is the same UID.
    var precomposed = run
    precomposed.uid = "caf\u{E9}@tests"
    var decomposed = run
    decomposed.uid = "cafe\u{301}@tests"
    #expect(
      caught { try serialize([precomposed, decomposed]) }?.description
        == "VEVENT 'cafe\u{301}@tests': invalid UID 'cafe\u{301}@tests': two events share this UID (and RECURRENCE-ID)")
    // The same UID with different RECURRENCE-IDs is fine; the same one twice is not.
    var override = run
    override.recurrenceID = .date(day(2027, 3, 12))
    #expect((try? serialize([run, override])) != nil)
    #expect(
      caught { try serialize([run, override, override]) }?.description
        == "VEVENT 'a@tests': invalid UID 'a@tests': two events share this UID (and RECURRENCE-ID)")
  }
}
