import Foundation
import ICalendar
import RunMateTestSupport
import RunningCore
import Testing

@testable import CalendarExport

/// The export turns instants into wall-clock times (and reminder times into instants) without asking Foundation's
/// calendar each time; the answers must be the calendar's, also across and near every transition.
@Suite struct ZoneOffsetsTests {
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata", "UTC",
    "Pacific/Apia", "Africa/Casablanca", "America/Sao_Paulo",
  ]

  static func calendar(_ identifier: String) throws -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: identifier))
    return calendar
  }

  @Test(arguments: zones)
  func wallClockTimesAreTheCalendars(zone identifier: String) throws {
    let calendar = try Self.calendar(identifier)
    var offsets = ZoneOffsets(calendar: calendar)
    // Every 20 minutes from 2010 into 2013 (Samoa skipped 2011-12-30; Casablanca and Santiago change their rules),
    // forwards, then a few hundred instants in a scrambled order.
    let start = 1_262_304_000.0  // 2010-01-01T00:00:00Z
    var instants = stride(from: start, to: start + 3.2 * 365 * 86_400, by: 1200).map { $0 }
    var random = SplitMix(seed: 7)
    instants += (0..<400).map { _ in start + Double(random.next() % UInt64(40 * 365 * 86_400)) - 20 * 365 * 86_400 }
    for seconds in instants {
      let date = Date(timeIntervalSince1970: seconds)
      let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
      let expected = ICalDateTime(
        year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0, hour: c.hour ?? 0, minute: c.minute ?? 0,
        second: c.second ?? 0)
      let actual = offsets.dateTime(date)
      guard actual == expected else {
        Issue.record("\(identifier) at \(seconds): \(actual) but Foundation says \(expected)")
        return
      }
    }
  }

  @Test(arguments: zones)
  func instantsOfLocalTimesAreTheCalendars(zone identifier: String) throws {
    let calendar = try Self.calendar(identifier)
    var offsets = ZoneOffsets(calendar: calendar)
    guard let first = CivilDate(iso: "2010-01-01") else { return }
    // Every hour (and half hour) of every day of three years, gaps and repeated hours included.
    for day in 0..<(3 * 365) {
      let date = first.adding(days: day)
      for (hour, minute) in [(0, 0), (0, 30), (1, 30), (2, 0), (2, 30), (3, 0), (6, 30), (12, 0), (20, 0), (23, 30)] {
        let expected = calendar.date(
          from: DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute))
        let actual = offsets.instant(of: date, hour: hour, minute: minute)
        guard actual == expected else {
          Issue.record(
            "\(identifier) \(date) \(hour):\(minute): \(String(describing: actual)) vs \(String(describing: expected))")
          return
        }
      }
    }
  }
}
