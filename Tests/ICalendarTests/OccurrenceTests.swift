import ICalendar
import RunMateTestSupport
import Testing

// Expected occurrences are worked out by hand from the fixtures; the UTC instants come from `utc(...)`
// (Foundation), never from the code under test. Offsets used: Europe/Berlin CET = UTC+1, CEST = UTC+2
// (2025: from Sun 30 March 02:00; 2027: from Sun 28 March 02:00); America/New_York EST = UTC−5,
// EDT = UTC−4 (2026: EST from Sun 1 November; 2027: EDT from Sun 14 March 02:00).

@Suite("Occurrences")
struct OccurrenceTests {
  /// ics-check's good-recurring.ics (Europe/Berlin, with its VTIMEZONE), March and April 2025.
  @Test func goodRecurringFixture() throws {
    let text = try fixture("events/good-recurring.ics")
    let occurrences = try VCalendar.occurrences(in: text, from: utc(2025, 3, 1), to: utc(2025, 5, 1))
    #expect(
      occurrences == [
        // run-2025-03-03-easy: Mon 3 March 07:00–07:50 CET.
        timed("run-2025-03-03-easy@plan.example", "Easy run 8 km", utc(2025, 3, 3, 6, 0), utc(2025, 3, 3, 6, 50)),
        // rest-2025-03-04: all-day, DTEND 5 March exclusive → the single day 4 March; TRANSP:TRANSPARENT.
        allDay("rest-2025-03-04@plan.example", "Rest day", day(2025, 3, 4)...day(2025, 3, 4), transparent: true),
        // weekly-tempo: DTSTART Wed 5 March 18:00 CET, DURATION PT1H, FREQ=WEEKLY;COUNT=6 → 5, 12, 19, 26 March,
        // 2 and 9 April. EXDATE;TZID=Europe/Berlin removes 19 and 26 March.
        timed("weekly-tempo@plan.example", "Tempo run", utc(2025, 3, 5, 17, 0), utc(2025, 3, 5, 18, 0)),
        // The RECURRENCE-ID 12 March 18:00 override moves that instance to 19:00 CET (18:00Z), PT1H.
        timed("weekly-tempo@plan.example", "Tempo run (moved)", utc(2025, 3, 12, 18, 0), utc(2025, 3, 12, 19, 0)),
        // run-2025-03-30-long: Sun 30 March 09:30–11:30, already CEST (the change was at 02:00 that day).
        timed("run-2025-03-30-long@plan.example", "Long run 21 km", utc(2025, 3, 30, 7, 30), utc(2025, 3, 30, 9, 30)),
        // weekly-tempo in April: 18:00 CEST = 16:00Z.
        timed("weekly-tempo@plan.example", "Tempo run", utc(2025, 4, 2, 16, 0), utc(2025, 4, 2, 17, 0)),
        // race: UTC times as written.
        timed("race@plan.example", "Half marathon", utc(2025, 4, 6, 7, 0), utc(2025, 4, 6, 11, 0)),
        timed("weekly-tempo@plan.example", "Tempo run", utc(2025, 4, 9, 16, 0), utc(2025, 4, 9, 17, 0)),
      ])
  }

  @Test func exdatesAndOverridesRemoveInstancesWhateverTheWindow() throws {
    let text = try fixture("events/good-recurring.ics")
    // 19 and 26 March 17:00Z are EXDATEs: nothing in the week after the moved instance.
    #expect(try VCalendar.occurrences(in: text, from: utc(2025, 3, 13), to: utc(2025, 3, 29)) == [])
    // The original 12 March 17:00Z slot is empty; the moved one (18:00Z) overlaps a window that starts
    // inside it.
    #expect(try VCalendar.occurrences(in: text, from: utc(2025, 3, 12, 17, 0), to: utc(2025, 3, 12, 17, 59)) == [])
    #expect(
      try VCalendar.occurrences(in: text, from: utc(2025, 3, 12, 18, 30), to: utc(2025, 3, 12, 18, 45)).map(\.summary)
        == ["Tempo run (moved)"])
  }

  /// The busy calendar sample: "Team call" Mon/Wed 07:00–08:30 America/New_York from Mon 2 November 2026
  /// (its own VTIMEZONE, with RDATE lists), and "Holidays" 24–26 December 2026 (DTEND 27 exclusive).
  @Test func busySampleAcrossTheSpringDSTChange() throws {
    let text = try fixture("busy/busy-sample.ics")
    let occurrences = try VCalendar.occurrences(in: text, from: utc(2027, 3, 1), to: utc(2027, 3, 22))
    // Before Sun 14 March 2027: 07:00 EST = 12:00Z; after: 07:00 EDT = 11:00Z. Mon 22 March is outside.
    let expected: [(Int, Int)] = [(1, 12), (3, 12), (8, 12), (10, 12), (15, 11), (17, 11)]
    #expect(
      occurrences
        == expected.map { dayOfMonth, hour in
          timed(
            "gym-class@sample", "Team call", utc(2027, 3, dayOfMonth, hour, 0), utc(2027, 3, dayOfMonth, hour + 1, 30))
        })
  }

  @Test func busySampleOverTheHolidays() throws {
    let text = try fixture("busy/busy-sample.ics")
    let occurrences = try VCalendar.occurrences(in: text, from: utc(2026, 12, 20), to: utc(2027, 1, 1))
    #expect(
      occurrences == [
        timed("gym-class@sample", "Team call", utc(2026, 12, 21, 12, 0), utc(2026, 12, 21, 13, 30)),
        timed("gym-class@sample", "Team call", utc(2026, 12, 23, 12, 0), utc(2026, 12, 23, 13, 30)),
        allDay("holiday@sample", "Holidays", day(2026, 12, 24)...day(2026, 12, 26)),
        timed("gym-class@sample", "Team call", utc(2026, 12, 28, 12, 0), utc(2026, 12, 28, 13, 30)),
        timed("gym-class@sample", "Team call", utc(2026, 12, 30, 12, 0), utc(2026, 12, 30, 13, 30)),
      ])
    // The first instance is the DTSTART itself, the day after the autumn change: 07:00 EST = 12:00Z.
    let first = try VCalendar.occurrences(in: text, from: utc(2026, 10, 1), to: utc(2026, 11, 3))
    #expect(first == [timed("gym-class@sample", "Team call", utc(2026, 11, 2, 12, 0), utc(2026, 11, 2, 13, 30))])
  }

  /// libical's own prefixed TZID and no VTIMEZONE in the file: libical's builtin zone is used.
  @Test func freeassociationTZIDWithoutVTimezone() throws {
    let text = try fixture("timezones/freeassociation-berlin-no-vtimezone.ics")
    let occurrences = try VCalendar.occurrences(in: text, from: utc(2027, 3, 15), to: utc(2027, 4, 15))
    #expect(
      occurrences == [
        // Sat 20 and 27 March 08:00–09:30 CET; Sat 3 April 08:00–09:30 CEST (COUNT=3).
        timed("saturday-long-run@tests.example", "Long run", utc(2027, 3, 20, 7, 0), utc(2027, 3, 20, 8, 30)),
        // A plain IANA TZID without VTIMEZONE resolves too.
        timed("track-session@tests.example", "Track session", utc(2027, 3, 24, 17, 30), utc(2027, 3, 24, 18, 30)),
        timed("saturday-long-run@tests.example", "Long run", utc(2027, 3, 27, 7, 0), utc(2027, 3, 27, 8, 30)),
        timed("saturday-long-run@tests.example", "Long run", utc(2027, 4, 3, 6, 0), utc(2027, 4, 3, 7, 30)),
      ])
    // parse() reads the prefixed TZID back as the IANA name.
    let event = try #require(VCalendar.parse(text).events.first)
    #expect(event.start == .zoned(time(2027, 3, 20, 8, 0), tzid: "Europe/Berlin"))
  }

  /// The prefixed TZID with the file's own VTIMEZONE (ics-check's bad-interop-libical-default-tzid.ics).
  @Test func freeassociationTZIDWithVTimezone() throws {
    let text = try fixture("timezones/freeassociation-berlin-with-vtimezone.ics")
    let occurrences = try VCalendar.occurrences(in: text, from: utc(2025, 3, 1), to: utc(2025, 4, 1))
    #expect(
      occurrences == [
        timed("run-2025-03-03-easy@plan.example", "Easy run 8 km", utc(2025, 3, 3, 6, 0), utc(2025, 3, 3, 6, 50)),
        allDay("rest-2025-03-04@plan.example", "Rest day", day(2025, 3, 4)...day(2025, 3, 4), transparent: true),
        timed("run-2025-03-30-long@plan.example", "Long run 21 km", utc(2025, 3, 30, 7, 30), utc(2025, 3, 30, 9, 30)),
      ])
  }

  @Test func cancelledOverridesFlagsNominalDurationsAndFloatingTimes() throws {
    let text = try fixture("events/overrides-and-flags.ics")
    let march = try VCalendar.occurrences(in: text, from: utc(2027, 3, 1), to: utc(2027, 4, 1))
    #expect(
      march == [
        // Stand-up: Tuesdays 09:00Z until 30 March → 2, 9, 16, 23, 30 March. EXDATE removes 9 March; the
        // cancelled override removes 16 March; the 23 March override moved to 10 April (outside March).
        // Its empty DESCRIPTION (an X-LIC-ERROR) is tolerated here.
        timed("standup@tests.example", "Stand-up", utc(2027, 3, 2, 9, 0), utc(2027, 3, 2, 9, 15)),
        // A cancelled event is returned, flagged.
        timed(
          "dropped-meeting@tests.example", "Dropped meeting", utc(2027, 3, 3, 15, 0), utc(2027, 3, 3, 16, 0),
          cancelled: true),
        // Floating 08:00–10:00, read as UTC by default; TRANSP:TRANSPARENT.
        timed(
          "focus-time@tests.example", "Focus time (floating)", utc(2027, 3, 4, 8, 0), utc(2027, 3, 4, 10, 0),
          transparent: true),
        // DURATION:P1D is one calendar day: Sat 27 March 12:00 CET (11:00Z) to Sun 28 March 12:00 CEST
        // (10:00Z), 23 hours.
        timed(
          "offsite@tests.example", "Offsite across the DST change", utc(2027, 3, 27, 11, 0), utc(2027, 3, 28, 10, 0)),
        timed("standup@tests.example", "Stand-up", utc(2027, 3, 30, 9, 0), utc(2027, 3, 30, 9, 15)),
      ])
    // The moved instance keeps the master's 15 minutes (the override has neither DTEND nor DURATION).
    #expect(
      try VCalendar.occurrences(in: text, from: utc(2027, 4, 1), to: utc(2027, 5, 1)) == [
        timed("standup@tests.example", "Stand-up (moved to April)", utc(2027, 4, 10, 14, 0), utc(2027, 4, 10, 14, 15))
      ])
    // Floating times in the runner's zone: 08:00 CET = 07:00Z.
    let berlin = try VCalendar.occurrences(
      in: text, from: utc(2027, 3, 4), to: utc(2027, 3, 5), floatingTimeZone: "Europe/Berlin")
    #expect(berlin.map(\.start) == [utc(2027, 3, 4, 7, 0)])
  }

  @Test func ownExportExpandsWithDSTResolved() throws {
    let text = try sampleCalendar.serialized()
    let occurrences = try VCalendar.occurrences(in: text, from: utc(2027, 3, 14), to: utc(2027, 4, 8))
    let tempo = occurrences.filter { $0.uid == "tempo@tests.runmate" }
    // 17 March 18:00 CET; 24 March moved to 19:00 CET; 31 March and 7 April 18:00 CEST.
    #expect(
      tempo.map(\.start) == [
        utc(2027, 3, 17, 17, 0), utc(2027, 3, 24, 18, 0), utc(2027, 3, 31, 16, 0), utc(2027, 4, 7, 16, 0),
      ])
    #expect(tempo.allSatisfy { $0.end - $0.start == 3600 })
    // 01:30 EST → 03:30 EDT on the night of the change is one hour.
    let night = try #require(occurrences.first { $0.uid == "night-run-2027-03-14@tests.runmate" })
    #expect(night.start == utc(2027, 3, 14, 6, 30))
    #expect(night.end == utc(2027, 3, 14, 7, 30))
    let cancelled = try #require(occurrences.first { $0.uid == "long-2027-03-21@tests.runmate" })
    #expect(cancelled.cancelled)
  }

  @Test func zeroLengthAndWindowEdges() throws {
    let text = try fixture("events/good-recurring.ics")
    // [from, to): an event ending exactly at `from` or starting exactly at `to` is outside.
    #expect(try VCalendar.occurrences(in: text, from: utc(2025, 3, 3, 6, 50), to: utc(2025, 3, 3, 7, 0)) == [])
    #expect(try VCalendar.occurrences(in: text, from: utc(2025, 3, 3, 5, 0), to: utc(2025, 3, 3, 6, 0)) == [])
    #expect(try VCalendar.occurrences(in: text, from: utc(2025, 3, 3, 6, 49), to: utc(2025, 3, 3, 6, 50)).count == 1)
    #expect(try VCalendar.occurrences(in: text, from: utc(2025, 3, 5), to: utc(2025, 3, 1)) == [])
  }

  @Test func errors() throws {
    let text = try fixture("broken/unknown-tzid.ics")
    #expect(
      caught { try VCalendar.occurrences(in: text, from: utc(2025, 3, 1), to: utc(2025, 4, 1)) }?.description
        == "line 40: unknown time zone 'Europe/Berlinn' (did you mean Europe/Berlin?)")
    let good = try fixture("events/good-recurring.ics")
    #expect(
      caught { try VCalendar.occurrences(in: good, from: 0, to: 1, floatingTimeZone: "Berlin") }?.description
        == "unknown time zone 'Berlin' (did you mean Europe/Berlin?)")
    let malformed = try fixture("broken/malformed-datetime.ics")
    #expect(caught { try VCalendar.occurrences(in: malformed, from: 0, to: 1) }?.line == 40)
    let truncated = try fixture("broken/truncated.ics")
    #expect(
      caught { try VCalendar.occurrences(in: truncated, from: 0, to: 1) }?.problem
        == .truncated(component: "VEVENT", openedOnLine: 66, lastLine: 74))
  }
}

@Suite("Occurrences: less common recurrence parts")
struct RecurrencePartTests {
  func calendar(_ eventLines: [String]) -> String {
    ([
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "BEGIN:VEVENT", "UID:r@tests",
      "DTSTAMP:20270101T000000Z", "SUMMARY:R",
    ] + eventLines + ["END:VEVENT", "END:VCALENDAR", ""])
    .joined(separator: "\r\n")
  }

  @Test func rdatesAddInstances() throws {
    // DTSTART Mon 1 March 2027 10:00 Berlin (09:00Z), 30 minutes; RDATE adds 3 March 10:00 Berlin and a
    // PERIOD value whose start (5 March 12:00Z) is used with the event's own length.
    let text = calendar([
      "DTSTART;TZID=Europe/Berlin:20270301T100000", "DTEND;TZID=Europe/Berlin:20270301T103000",
      "RDATE;TZID=Europe/Berlin:20270303T100000", "RDATE;VALUE=PERIOD:20270305T120000Z/PT2H",
    ])
    let starts = try VCalendar.occurrences(in: text, from: utc(2027, 3, 1), to: utc(2027, 4, 1)).map {
      [$0.start, $0.end]
    }
    #expect(
      starts == [
        [utc(2027, 3, 1, 9, 0), utc(2027, 3, 1, 9, 30)], [utc(2027, 3, 3, 9, 0), utc(2027, 3, 3, 9, 30)],
        [utc(2027, 3, 5, 12, 0), utc(2027, 3, 5, 12, 30)],
      ])
  }

  @Test func allDayRulesAndDateExdates() throws {
    // Every second day from Fri 5 March 2027, 2-day events (DTEND 7 March), COUNT=4: 5, 7, 9, 11 March;
    // EXDATE;VALUE=DATE removes 9 March.
    let text = calendar([
      "DTSTART;VALUE=DATE:20270305", "DTEND;VALUE=DATE:20270307", "RRULE:FREQ=DAILY;INTERVAL=2;COUNT=4",
      "EXDATE;VALUE=DATE:20270309",
    ])
    let days = try VCalendar.occurrences(in: text, from: utc(2027, 3, 1), to: utc(2027, 4, 1)).compactMap(\.allDay)
    #expect(
      days == [
        day(2027, 3, 5)...day(2027, 3, 6), day(2027, 3, 7)...day(2027, 3, 8), day(2027, 3, 11)...day(2027, 3, 12),
      ])
    // A window ending at 7 March 00:00Z keeps only the first (its last day, 6 March, is inside).
    #expect(try VCalendar.occurrences(in: text, from: utc(2027, 3, 6, 23, 0), to: utc(2027, 3, 7)).count == 1)
  }

  @Test func runawayRulesAreStopped() throws {
    let text = calendar(["DTSTART:20200101T000000Z", "RRULE:FREQ=MINUTELY"])
    let error = try #require(caught { try VCalendar.occurrences(in: text, from: utc(2027, 1, 1), to: utc(2027, 1, 2)) })
    #expect(
      error.description
        == "line 9: VEVENT 'r@tests': the RRULE yields more than 100000 instances before the end of the range")
  }
}
