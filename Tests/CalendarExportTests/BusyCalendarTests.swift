import CalendarExport
import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing

/// Busy time from a real calendar file (a recurring Mon/Wed 07:00-08:30 New York call from 2026-11-02, and an
/// all-day "Holidays" event 24-26 Dec 2026), read through libical.
@Suite struct BusyCalendarTests {
  func sample() throws -> String {
    try String(contentsOf: fixtureURL("busy/busy-sample.ics"), encoding: .utf8)
  }

  func utc(_ text: String) throws -> Date { try #require(try? Date.ISO8601FormatStyle().parse(text)) }

  @Test func recurringAndAllDayEventsBecomeBusyTimes() throws {
    let intervals = try busyIntervals(
      ics: try sample(), file: "busy-sample.ics", from: try utc("2026-11-01T00:00:00Z"),
      to: try utc("2026-11-15T00:00:00Z"), timeZoneID: "America/New_York")
    // Mon 2 Nov, Wed 4, Mon 9, Wed 11 at 07:00 EST (UTC−5 after the 1 Nov change) = 12:00Z, for 90 minutes.
    let expected = ["2026-11-02", "2026-11-04", "2026-11-09", "2026-11-11"].map { "\($0)T12:00:00Z" }
    #expect(intervals.map(\.start) == (try expected.map(utc)))
    #expect(intervals.allSatisfy { $0.end.timeIntervalSince($0.start) == 5400 && $0.summary == "Team call" })
    // The holidays: local midnight 24 Dec to local midnight 27 Dec (DTEND exclusive), in New York.
    let holidays = try busyIntervals(
      ics: try sample(), file: "busy-sample.ics", from: try utc("2026-12-20T00:00:00Z"),
      to: try utc("2026-12-31T00:00:00Z"), timeZoneID: "America/New_York"
    )
    .filter { $0.summary == "Holidays" }
    #expect(holidays.count == 1)
    #expect(holidays.first?.start == (try utc("2026-12-24T05:00:00Z")))
    #expect(holidays.first?.end == (try utc("2026-12-27T05:00:00Z")))
  }

  @Test func scheduledWorkoutsAvoidTheCalendar() throws {
    let first = try #require(CivilDate(iso: "2026-11-30"))
    let plan = try makePlan(
      goal: Goal(
        distance: .tenK, level: .intermediate,
        timeline: Timeline(start: first, raceDate: first.adding(days: 69), weeks: 10)),
      rules: repositoryRules)
    let busy = try busyIntervals(
      ics: try sample(), file: "busy-sample.ics", from: try utc("2026-11-29T00:00:00Z"),
      to: try utc("2027-02-10T00:00:00Z"), timeZoneID: "America/New_York")
    let preferences = SchedulingPreferences(
      runDays: [.monday, .tuesday, .wednesday, .thursday, .saturday, .sunday],
      defaultTime: LocalTime(clampingHour: 7, minute: 0),
      timeZoneID: "America/New_York")
    let schedule = try makeSchedule(plan, preferences: preferences, busy: busy)
    for item in schedule.workouts {
      guard let start = item.start, let end = item.end else { continue }
      #expect(!busy.contains { $0.start < end && $0.end > start }, "\(item.workout.id) at \(start)")
    }
    // No run on Mondays and Wednesdays (the 07:00 call), nor 24-26 Dec (holidays).
    #expect(!schedule.workouts.contains { [.monday, .wednesday].contains($0.workout.date.weekday) && $0.start != nil })
    let holidays = try #require(CivilDate(iso: "2026-12-24"))...(try #require(CivilDate(iso: "2026-12-26")))
    #expect(!schedule.workouts.contains { holidays.contains($0.workout.date) })
  }
}

/// A busy calendar that cannot be used is refused with the file's name first.
@Suite struct UnusableBusyCalendarTests {
  func range() throws -> (Date, Date) {
    (
      try #require(try? Date.ISO8601FormatStyle().parse("2027-01-01T00:00:00Z")),
      try #require(try? Date.ISO8601FormatStyle().parse("2027-03-01T00:00:00Z"))
    )
  }

  @Test func impossibleDatesNameTheFileLinePropertyAndValue() throws {
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20270101T000000Z\r\n"
      + "DTSTART:20270230T250000Z\r\nDTEND:99999999T000000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let (from, to) = try range()
    let error = #expect(throws: ExportError.self) {
      try busyIntervals(ics: text, file: "work.ics", from: from, to: to, timeZoneID: "UTC")
    }
    #expect(
      error?.description
        == "work.ics: line 7: VEVENT 'a': invalid DTSTART '20270230T250000Z': there is no such day")
  }

  @Test func aLongLineNamesTheFileAndLine() throws {
    let text = "BEGIN:VCALENDAR\r\nX-A:" + String(repeating: "a", count: 2 << 20) + "\r\n"
    let (from, to) = try range()
    let error = #expect(throws: ExportError.self) {
      try busyIntervals(ics: text, file: "work.ics", from: from, to: to, timeZoneID: "UTC")
    }
    #expect(
      error?.description
        == "work.ics: line 2: a content line of 2097156 bytes, longer than the 1 MiB a line may have")
  }
}
