import ICalendar
import Testing

@testable import CalendarExport

/// Timed events carry a DURATION; an earlier export's local DTEND counts as the same length only where no clock
/// change lies between start and end (so an upgrade does not bump every event, and a misread one is corrected).
@Suite struct DurationTests {
  func event(end: (hour: Int, minute: Int)?, duration: Int?) -> VEvent {
    VEvent(
      uid: "u@runningmate", dtstamp: ICalDateTime(year: 2027, month: 1, day: 1, hour: 0, minute: 0),
      start: .zoned(ICalDateTime(year: 2027, month: 11, day: 7, hour: 1, minute: 30), tzid: "America/New_York"),
      end: end.map {
        .zoned(ICalDateTime(year: 2027, month: 11, day: 7, hour: $0.hour, minute: $0.minute), tzid: "America/New_York")
      },
      summary: "W10 Long run · 12 km", description: nil, location: nil, categories: ["Running"], sequence: 0,
      status: nil, transparent: false, alarms: [], recurrenceRule: nil, recurrenceID: nil, durationSeconds: duration)
  }

  @Test func aDTENDOfTheSameWallClockLengthIsTheSameEvent() {
    #expect(sameContent(event(end: (2, 37), duration: nil), event(end: nil, duration: 67 * 60)))
    #expect(sameContent(event(end: nil, duration: 67 * 60), event(end: nil, duration: 67 * 60)))
  }

  @Test func aDTENDMisreadAcrossTheFallBackIsAChange() {
    // 01:30 EDT + 67 min is 01:37 EST, written 01:37 and read as 01:37 EDT: 7 minutes.
    #expect(!sameContent(event(end: (1, 37), duration: nil), event(end: nil, duration: 67 * 60)))
    #expect(!sameContent(event(end: nil, duration: 60 * 60), event(end: nil, duration: 67 * 60)))
  }
}
