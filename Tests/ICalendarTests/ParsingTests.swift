import ICalendar
import RunMateTestSupport
import Testing

@Suite("Parsing files written elsewhere")
struct ParsingTests {
  /// ics-check's good-recurring.ics, read field by field.
  @Test func goodRecurringFixture() throws {
    let calendar = try VCalendar.parse(try fixture("events/good-recurring.ics"))
    #expect(calendar.prodID == "-//libical-probe//Running Plan//EN")
    #expect(calendar.method == nil)
    #expect(calendar.name == nil)
    #expect(
      calendar.events.map(\.uid) == [
        "run-2025-03-03-easy@plan.example", "run-2025-03-30-long@plan.example", "rest-2025-03-04@plan.example",
        "weekly-tempo@plan.example", "weekly-tempo@plan.example", "race@plan.example",
      ])
    let easy = calendar.events[0]
    #expect(easy.dtstamp == time(2025, 2, 1, 12, 0))
    #expect(easy.start == .zoned(time(2025, 3, 3, 7, 0), tzid: "Europe/Berlin"))
    #expect(easy.end == .zoned(time(2025, 3, 3, 7, 50), tzid: "Europe/Berlin"))
    // Folded and escaped in the file: "Zone 2\, conversational pace.\nKeep HR < 145\; stretch \r\n afterwards\, 10 min."
    #expect(easy.description == "Zone 2, conversational pace.\nKeep HR < 145; stretch afterwards, 10 min.")
    #expect(easy.categories == ["Running", "Easy"])
    #expect(easy.sequence == 0)
    #expect(
      easy.alarms == [VAlarm(trigger: .relative(seconds: -1800, fromEnd: false), description: "Easy run in 30 minutes")]
    )

    let rest = calendar.events[2]
    #expect(rest.start == .date(day(2025, 3, 4)))
    #expect(rest.end == .date(day(2025, 3, 5)))
    #expect(rest.transparent)

    let tempo = calendar.events[3]
    #expect(tempo.end == nil)
    #expect(tempo.durationSeconds == 3600)
    #expect(tempo.recurrenceRule == "FREQ=WEEKLY;COUNT=6")
    #expect(tempo.alarms == [VAlarm(trigger: .absolute(time(2025, 3, 5, 16, 30)), description: "Tempo today")])

    let moved = calendar.events[4]
    #expect(moved.recurrenceID == .zoned(time(2025, 3, 12, 18, 0), tzid: "Europe/Berlin"))
    #expect(moved.start == .zoned(time(2025, 3, 12, 19, 0), tzid: "Europe/Berlin"))
    #expect(moved.summary == "Tempo run (moved)")

    let race = calendar.events[5]
    #expect(race.start == .utc(time(2025, 4, 6, 7, 0)))
    // The AUDIO alarm has no DESCRIPTION; REPEAT/DURATION are not modelled.
    #expect(
      race.alarms == [
        VAlarm(trigger: .relative(seconds: 0, fromEnd: true), description: ""),
        VAlarm(trigger: .relative(seconds: -86_400, fromEnd: false), description: "Race tomorrow"),
      ])
  }

  @Test func statusMethodAndCalendarName() throws {
    let text = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "METHOD:PUBLISH",
      "X-WR-CALNAME:Plan\\, spring", "BEGIN:VEVENT", "UID:a@tests", "DTSTAMP:20270101T000000Z",
      "DTSTART;VALUE=DATE:20270305", "STATUS:CANCELLED", "SEQUENCE:4", "CATEGORIES:Running", "CATEGORIES:Easy,Long",
      "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\n")
    let calendar = try VCalendar.parse(text)
    #expect(calendar.method == "PUBLISH")
    #expect(calendar.name == "Plan, spring")
    let event = try #require(calendar.events.first)
    #expect(event.status == .cancelled)
    #expect(event.sequence == 4)
    #expect(event.categories == ["Running", "Easy", "Long"])
    #expect(event.summary == "")
  }
}
