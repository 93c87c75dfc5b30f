import ICalendar
import RunMateTestSupport
import Testing

/// A calendar with one event whose lines are `eventLines` (UID and DTSTAMP added), CRLF line ends.
private func calendar(_ eventLines: [String], extra: [String] = []) -> String {
  (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN"] + extra
    + ["BEGIN:VEVENT", "UID:a@tests", "DTSTAMP:20270101T000000Z"] + eventLines + ["END:VEVENT", "END:VCALENDAR"])
    .joined(separator: "\r\n") + "\r\n"
}

/// Texts beyond ``ICalendarLimits`` are refused before libical reads them, naming the line; long lines within
/// them are read in linear time; impossible dates and times are refused with their property and value.
@Suite("Limits and impossible values")
struct LimitTests {
  @Test func aContentLineOverOneMiBIsRefusedWithItsLine() throws {
    // Refused by the byte scan before libical reads it (libical alone takes seconds on one 8 MiB line: see the
    // README's benchmarks; no timing here, as these tests also run under valgrind).
    let text = "BEGIN:VCALENDAR\r\nX-A:" + String(repeating: "a", count: 8 << 20) + "\r\n"
    let refused = try #require(caught { try VCalendar.parse(text) })
    #expect(refused.problem == .overLimit(.contentLineBytes, found: (8 << 20) + 4))
    #expect(refused.description == "line 2: a content line of 8388612 bytes, longer than the 1 MiB a line may have")
    // The same for the occurrences, and for a line over the limit only once unfolded.
    #expect(caught { try VCalendar.occurrences(in: text, from: 0, to: 1) }?.line == 2)
    let folded = calendar([
      "SUMMARY:"
        + Array(repeating: String(repeating: "b", count: 70), count: 16_000)
        .joined(separator: "\r\n ")
    ])
    let foldedError = try #require(caught { try VCalendar.parse(folded) })
    #expect(foldedError.problem == .overLimit(.contentLineBytes, found: 8 + 70 * 16_000))
    #expect(foldedError.line == 7)
  }

  @Test func longLinesWithinTheLimitReadTheSame() throws {
    // Lines of 1 MiB less a little, with 2-byte characters: folded before libical reads them (so its parse stays
    // linear), only between characters, and unfolded back to the same value.
    let long = String(repeating: "é", count: 500_000) + "x"
    let text = calendar(["DTSTART:20270105T063000Z", "SUMMARY:" + long, "X-LONG:" + long])
    let parsed = try VCalendar.parse(text)
    #expect(parsed.events.first?.summary == long)
  }

  @Test func tooManyComponentsOrTooDeepANestingIsRefused() throws {
    let many =
      "BEGIN:VCALENDAR\r\nPRODID:x\r\n"
      + String(repeating: "BEGIN:VEVENT\r\nEND:VEVENT\r\n", count: ICalendarLimits.components) + "END:VCALENDAR\r\n"
    let manyError = try #require(caught { try VCalendar.parse(many) })
    #expect(manyError.problem == .overLimit(.components, found: ICalendarLimits.components + 1))
    #expect(manyError.line == 2 * ICalendarLimits.components + 1)
    let deep = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X-A\r\n", count: 100_000)
    let deepError = try #require(caught { try VCalendar.parse(deep) })
    #expect(deepError.description == "line 11: components nested more than 10 deep (BEGIN: inside BEGIN:)")
    // A folded BEGIN: counts too.
    let folded = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEG\r\n IN:X-A\r\n", count: 20)
    #expect(caught { try VCalendar.parse(folded) }?.problem == .overLimit(.nesting, found: 11))
  }

  @Test func aTextOverSixtyFourMiBIsRefused() throws {
    #expect(throws: Never.self) { try ICalendarLimits.check(byteCount: ICalendarLimits.bytes) }
    let error = try #require(caught { try ICalendarLimits.check(byteCount: ICalendarLimits.bytes + 1) })
    #expect(error.description == "the calendar is larger than the 64 MiB a calendar may have (at least 67108865 bytes)")
  }

  @Test func impossibleDatesAndTimesAreRefusedWithPropertyAndValue() throws {
    let text = calendar(["DTSTART:20270230T250000Z", "DTEND:99999999T000000Z"])
    let error = try #require(caught { try VCalendar.parse(text) })
    #expect(error.description == "line 7: VEVENT 'a@tests': invalid DTSTART '20270230T250000Z': there is no such day")
    let busy = try #require(caught { try VCalendar.occurrences(in: text, from: 0, to: 4_000_000_000) })
    #expect(busy.description == error.description)
    let cases: [(String, String)] = [
      (
        "DTEND:20271301T000000Z",
        "line 8: VEVENT 'a@tests': invalid DTEND '20271301T000000Z': the month must be between 1 and 12"
      ),
      ("DTEND;VALUE=DATE:20270431", "line 8: VEVENT 'a@tests': invalid DTEND '20270431': there is no such day"),
      (
        "EXDATE:20270105T246000Z",
        "line 8: VEVENT 'a@tests': invalid EXDATE '20270105T246000Z': the hour must be between 0 and 23"
      ),
      (
        "RDATE;VALUE=PERIOD:20270105T120000Z/20270105T130061Z",
        "line 8: VEVENT 'a@tests': invalid RDATE '20270105T120000Z/20270105T130061Z': "
          + "the second must be between 0 and 60"
      ),
      (
        "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER;VALUE=DATE-TIME:20270105T056000Z\r\nEND:VALARM",
        "line 11: VALARM: invalid TRIGGER '20270105T056000Z': the minute must be between 0 and 59"
      ),
    ]
    for (line, message) in cases {
      let refused = caught { try VCalendar.parse(calendar(["DTSTART:20270105T063000Z", line])) }
      #expect(refused?.description == message)
    }
    // libical refuses all zeros itself; year 0 with a month and day is ours to refuse.
    #expect(caught { try VCalendar.parse(calendar(["DTSTART:00000000T000000Z"])) }?.line == 7)
    let zero = caught { try VCalendar.parse(calendar(["DTSTART:00000101T000000Z"])) }
    #expect(
      zero?.description
        == "line 7: VEVENT 'a@tests': invalid DTSTART '00000101T000000Z': the year must be between 1 and 9999")
    // A leap day is a day; 23:59:60 a leap second.
    #expect(throws: Never.self) { try VCalendar.parse(calendar(["DTSTART:20280229T235960Z"])) }
  }

  @Test func occurrencesTolerateAnImpossibleStampAsTheyDoItsOtherErrors() throws {
    let text = calendar(["DTSTART:20270105T063000Z", "DTEND:20270105T073000Z", "LAST-MODIFIED:20271340T000000Z"])
    #expect(caught { try VCalendar.parse(text) }?.line == 9)
    let occurrences = try VCalendar.occurrences(in: text, from: 0, to: 4_000_000_000)
    #expect(occurrences.map(\.start) == [utc(2027, 1, 5, 6, 30)])
  }
}
