import ICalendar
import Testing

/// REFRESH-INTERVAL (RFC 7986 §5.7, with its required VALUE=DURATION) and X-PUBLISHED-TTL on a subscribed
/// calendar: written by libical, read back, and refused when not positive.
@Suite struct RefreshIntervalTests {
  @Test(arguments: [(3600, "PT1H"), (900, "PT15M"), (86_400, "P1D"), (5400, "PT1H30M")])
  func writtenAndReadBack(seconds: Int, text: String) throws {
    let calendar = VCalendar(
      prodID: "-//RunningMate//Tests//EN", name: "feed", refreshIntervalSeconds: seconds,
      publishedTTLSeconds: seconds)
    let ics = try calendar.serialized()
    #expect(ics.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:\(text)\r\n"))
    #expect(ics.contains("\r\nX-PUBLISHED-TTL:\(text)\r\n"))
    let parsed = try VCalendar.parse(ics)
    #expect(parsed.refreshIntervalSeconds == seconds)
    #expect(parsed.publishedTTLSeconds == seconds)
    #expect(parsed == calendar)
  }

  @Test func absentByDefault() throws {
    let ics = try VCalendar(prodID: "-//RunningMate//Tests//EN").serialized()
    #expect(!ics.contains("REFRESH-INTERVAL"))
    #expect(!ics.contains("X-PUBLISHED-TTL"))
    #expect(try VCalendar.parse(ics).refreshIntervalSeconds == nil)
  }

  @Test(arguments: [0, -60])
  func notPositiveIsRefused(seconds: Int) {
    #expect(throws: ICalendarError.self) {
      try VCalendar(prodID: "-//RunningMate//Tests//EN", refreshIntervalSeconds: seconds).serialized()
    }
    #expect(throws: ICalendarError.self) {
      try VCalendar(prodID: "-//RunningMate//Tests//EN", publishedTTLSeconds: seconds).serialized()
    }
  }
}
