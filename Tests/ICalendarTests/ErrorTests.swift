import ICalendar
import RunMateTestSupport
import Testing

@Suite("Errors: exact messages")
struct ErrorTests {
  // MARK: Parsing

  @Test func truncatedFile() throws {
    // broken/truncated.ics is ics-check's bad-truncated.ics: it stops after line 74 ("CATEGORIES:Rest")
    // inside the VEVENT that begins on line 66, with neither END:VEVENT nor END:VCALENDAR.
    let text = try fixture("broken/truncated.ics")
    let error = try #require(caught { try VCalendar.parse(text) })
    #expect(error.problem == .truncated(component: "VEVENT", openedOnLine: 66, lastLine: 74))
    #expect(
      error.description
        == "truncated iCalendar file: VEVENT opened on line 66 is not closed before the text ends (line 74)")
    #expect(error.operation == "icalparser_parse_string")
    #expect(error.code == 0)  // libical returns NULL but leaves icalerrno at "no error"
    #expect(error.message == "NO: No error")
  }

  @Test func textThatIsNotICalendar() throws {
    let csvText = try fixture("broken/plan.csv")
    let csv = try #require(caught { try VCalendar.parse(csvText) })
    #expect(csv.description == "line 1: not an iCalendar file: expected BEGIN:VCALENDAR, found 'Date,Workout,Distance'")
    // libical does parse a vCard (as a component it calls "VCAR"): the root kind is checked too.
    let vcardText = try fixture("broken/not-icalendar.vcf")
    let vcard = try #require(caught { try VCalendar.parse(vcardText) })
    #expect(vcard.description == "line 1: not an iCalendar file: expected BEGIN:VCALENDAR, found 'BEGIN:VCARD'")
    #expect(caught { try VCalendar.parse("") }?.description == "not an iCalendar file: the text is empty")
    #expect(
      caught { try VCalendar.parse("BEGIN:VEVENT\r\nUID:x\r\nEND:VEVENT\r\n") }?.description
        == "line 1: not an iCalendar file: expected BEGIN:VCALENDAR, found 'BEGIN:VEVENT'")
  }

  @Test func malformedDateTimeBecomesXLICErrorWithItsLine() throws {
    // Line 40 of broken/malformed-datetime.ics is DTSTART;TZID=Europe/Berlin:2025-03-03T07:00:00. libical
    // drops the property and inserts an X-LIC-ERROR; it even misreads the value as "00" (it splits the
    // line at the last colon).
    let text = try fixture("broken/malformed-datetime.ics")
    let error = try #require(caught { try VCalendar.parse(text) })
    #expect(
      error.problem
        == .invalidProperty(
          property: "DTSTART", component: "VEVENT 'run-2025-03-03-easy@plan.example'",
          text: "Can't parse as DATE-TIME value in DTSTART property. Removing entire property: 00", more: 0))
    #expect(error.line == 40)
    #expect(error.detail == "DTSTART;TZID=Europe/Berlin:2025-03-03T07:00:00")
    #expect(
      error.description == """
        line 40: invalid DTSTART in VEVENT 'run-2025-03-03-easy@plan.example': Can't parse as DATE-TIME value \
        in DTSTART property. Removing entire property: 00 [DTSTART;TZID=Europe/Berlin:2025-03-03T07:00:00]
        """)
  }

  @Test func everyXLICErrorIsCountedAndTheFirstReported() throws {
    let text = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "BEGIN:VEVENT", "UID:a@tests",
      "DTSTAMP:20270101T000000Z", "DTSTART:20270101T0700", "DESCRIPTION:", "BEGIN:VALARM", "ACTION:DISPLAY",
      "TRIGGER:soon", "DESCRIPTION:x", "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    let error = try #require(caught { try VCalendar.parse(text) })
    #expect(
      error.description == """
        line 7: invalid DTSTART in VEVENT 'a@tests': Can't parse as DATE-TIME value in DTSTART property. \
        Removing entire property: 20270101T0700 [DTSTART:20270101T0700] (and 2 more libical errors in the file)
        """)
  }

  @Test func emptyDescriptionIsAnErrorForParse() throws {
    // libical writes what it cannot read back: an empty DESCRIPTION is dropped with an X-LIC-ERROR.
    let text = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "BEGIN:VEVENT", "UID:a@tests",
      "DTSTAMP:20270101T000000Z", "DTSTART:20270101T070000Z", "DESCRIPTION:", "END:VEVENT",
      "END:VCALENDAR", "",
    ].joined(separator: "\n")
    #expect(
      caught { try VCalendar.parse(text) }?.description
        == "line 8: invalid DESCRIPTION in VEVENT 'a@tests': No value for DESCRIPTION property. Removing entire property [DESCRIPTION:]"
    )
  }

  @Test func missingRequiredProperties() throws {
    func calendar(_ eventLines: [String]) -> String {
      (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "BEGIN:VEVENT"] + eventLines
        + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }
    #expect(
      caught { try VCalendar.parse(calendar(["DTSTAMP:20270101T000000Z", "DTSTART:20270101T070000Z"])) }?
        .description == "line 4: VEVENT #1 has no UID")
    #expect(
      caught { try VCalendar.parse(calendar(["UID:a@tests", "DTSTART:20270101T070000Z"])) }?
        .description == "line 4: VEVENT 'a@tests' has no DTSTAMP")
    #expect(
      caught { try VCalendar.parse(calendar(["UID:a@tests", "DTSTAMP:20270101T000000Z"])) }?
        .description == "line 4: VEVENT 'a@tests' has no DTSTART")
    #expect(
      caught { try VCalendar.parse("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n") }?
        .description == "VCALENDAR has no PRODID")
  }

  @Test func twoCalendarsInOneText() throws {
    let one = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nEND:VCALENDAR\r\n"
    #expect(
      caught { try VCalendar.parse(one + one) }?.description
        == "the text holds 2 VCALENDAR objects; expected exactly one")
  }

  // MARK: Serializing

  @Test func unknownTimeZoneOnSerialize() throws {
    func calendar(_ tzid: String) -> VCalendar {
      VCalendar(
        prodID: "-//tests//EN",
        events: [
          VEvent(
            uid: "a@tests", dtstamp: time(2027, 1, 1, 0, 0), start: .zoned(time(2027, 3, 5, 6, 30), tzid: tzid),
            summary: "Run")
        ])
    }
    let error = try #require(caught { try calendar("Europe/Berln").serialized() })
    #expect(error.problem == .unknownTimeZone(tzid: "Europe/Berln", suggestion: "Europe/Berlin"))
    #expect(error.description == "unknown time zone 'Europe/Berln' (did you mean Europe/Berlin?)")
    #expect(error.operation == "icaltimezone_get_builtin_timezone")
    #expect(
      caught { try calendar("america/new_york").serialized() }?.description
        == "unknown time zone 'america/new_york' (did you mean America/New_York?)")
    #expect(
      caught { try calendar("/freeassociation.sourceforge.net/Europe/Berlin").serialized() }?.description
        == "unknown time zone '/freeassociation.sourceforge.net/Europe/Berlin' (did you mean Europe/Berlin?)")
    #expect(
      caught { try calendar("Mars/Olympus_Mons").serialized() }?.description
        == "unknown time zone 'Mars/Olympus_Mons'")
  }

  @Test func valuesConsumersRejectAreRefusedBeforeWriting() throws {
    let stamp = time(2027, 1, 1, 0, 0)
    func message(_ event: VEvent, method: String? = nil) -> String? {
      caught { try VCalendar(prodID: "-//tests//EN", method: method, events: [event]).serialized() }?.description
    }
    let run = VEvent(uid: "a@tests", dtstamp: stamp, start: .date(day(2027, 3, 5)), summary: "Run")
    var event = run
    event.end = .date(day(2027, 3, 5))
    #expect(message(event) == "VEVENT 'a@tests': invalid DTEND '2027-03-05': DTEND must be after DTSTART (2027-03-05)")
    event.end = .utc(time(2027, 3, 5, 8, 0))
    #expect(
      message(event)
        == "VEVENT 'a@tests': invalid DTEND '2027-03-05 08:00:00 UTC': DTSTART is a DATE, so DTEND must be a DATE too")
    event = run
    event.start = .date(day(2027, 2, 29))
    #expect(message(event) == "VEVENT 'a@tests': invalid DTSTART '2027-02-29': there is no such day")
    event = run
    event.categories = ["Running, easy"]
    #expect(
      message(event)
        == "VEVENT 'a@tests': invalid CATEGORIES 'Running, easy': libical writes categories as a comma-separated list, so a category cannot contain a comma"
    )
    event = run
    event.end = .date(day(2027, 3, 6))
    event.durationSeconds = 3600
    #expect(message(event) == "VEVENT 'a@tests': invalid DURATION '3600': an event has DTEND or DURATION, not both")
    event = run
    event.recurrenceRule = "EVERY MONDAY"
    #expect(
      message(event) == "VEVENT 'a@tests': invalid RRULE 'EVERY MONDAY': libical cannot read this recurrence rule")
    event = run
    event.uid = ""
    #expect(message(event) == "VEVENT 'Run': invalid UID '': an event needs a UID")
    #expect(
      message(run, method: "PUBLISHED")
        == "VCALENDAR: invalid METHOD 'PUBLISHED': libical knows no such iTIP method (e.g. PUBLISH, REQUEST)")
    #expect(
      caught { try VCalendar(prodID: "-//tests//EN", events: [run, run]).serialized() }?.description
        == "VEVENT 'a@tests': invalid UID 'a@tests': two events share this UID (and RECURRENCE-ID)")
    #expect(
      caught { try VCalendar(prodID: "").serialized() }?.description
        == "VCALENDAR: invalid PRODID '': a calendar needs a product identifier")
  }

  @Test func errorsCarryLibicalState() throws {
    let error = try #require(caught { try VCalendar.parse("hello") })
    #expect(error.operation == "icalparser_parse_string")
    #expect(error.code == 0)
    #expect(error.line == 1)
  }
}

@Suite("Time zone names")
struct TimeZoneNameTests {
  @Test func knownZones() {
    #expect(isKnownTimeZone("Europe/Berlin"))
    #expect(isKnownTimeZone("America/New_York"))
    #expect(isKnownTimeZone("UTC"))
    #expect(!isKnownTimeZone("Europe/Berln"))
    #expect(!isKnownTimeZone("europe/berlin"))
    #expect(!isKnownTimeZone(""))
    #expect(!isKnownTimeZone("/freeassociation.sourceforge.net/Europe/Berlin"))
  }
}
