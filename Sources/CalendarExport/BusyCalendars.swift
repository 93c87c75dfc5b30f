import Foundation
import ICalendar
import PlanEngine
import RunningCore
import Scheduling

/// Reads a runner's existing calendar (through libical) into busy time over a span: recurring events expanded
/// (RRULE, EXDATE, RECURRENCE-ID), all-day events as whole local days in `timeZoneID`, transparent (free) and
/// cancelled events left out.
///
/// - Parameters:
///   - text: the `.ics` file's text; `file` names it in errors.
///   - from: the start of the span (inclusive); `to`: its end (exclusive).
/// - Throws: ``ExportError/unreadableCalendar(file:_:)`` when libical cannot read it.
public func busyIntervals(
  ics text: String, file: String, from: Date, to: Date,
  timeZoneID: String
) throws(ExportError) -> [BusyTime] {
  let occurrences: [Occurrence]
  do {
    occurrences = try VCalendar.occurrences(
      in: text, from: Int64(from.timeIntervalSince1970.rounded(.down)),
      to: Int64(to.timeIntervalSince1970.rounded(.up)))
  } catch {
    throw .unreadableCalendar(file: file, error)
  }
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: timeZoneID) ?? calendar.timeZone
  var intervals: [BusyTime] = []
  for occurrence in occurrences where !occurrence.transparent && !occurrence.cancelled {
    if let days = occurrence.allDay {
      let first = days.lowerBound
      let last = days.upperBound
      guard let start = calendar.date(from: DateComponents(year: first.year, month: first.month, day: first.day)),
        let lastStart = calendar.date(from: DateComponents(year: last.year, month: last.month, day: last.day)),
        let end = calendar.date(byAdding: .day, value: 1, to: lastStart)
      else { continue }
      intervals.append(BusyTime(start: start, end: end, summary: occurrence.summary))
    } else {
      intervals.append(
        BusyTime(
          start: Date(timeIntervalSince1970: TimeInterval(occurrence.start)),
          end: Date(timeIntervalSince1970: TimeInterval(max(occurrence.end, occurrence.start))),
          summary: occurrence.summary))
    }
  }
  return intervals.sorted { ($0.start, $0.end, $0.summary) < ($1.start, $1.end, $1.summary) }
}
