import ICalendar
import Testing

/// The zones a calendar can be written in: IANA names libical has a VTIMEZONE for, nothing else it would load.
@Suite struct WritableZoneTests {
  @Test func ianaNamesAreWritable() {
    for name in [
      "Europe/Berlin", "America/New_York", "Etc/GMT-2", "Etc/GMT+12", "UTC", "GMT", "Etc/UTC", "US/Eastern",
      "America/Argentina/Buenos_Aires", "Asia/Kolkata",
    ] {
      #expect(isWritableTimeZone(name), "\(name)")
    }
  }

  @Test func offsetsPathsAndTyposAreNot() {
    for name in [
      "UTC+2", "GMT+0200", "Mars/Olympus", "europe/berlin", "Europe/Berln", "posix/Europe/Berlin",
      "right/Europe/Berlin", "../zoneinfo/Europe/Berlin", "/usr/share/zoneinfo/Europe/Berlin", "Europe//Berlin",
      "localtime", "posixrules", "Factory", "", "Europe/Berlin\0", "Europe/Berlin ", String(repeating: "A", count: 65),
    ] {
      #expect(!isWritableTimeZone(name), "\(name)")
    }
  }

  @Test func suggestionsNameTheZoneMeant() {
    #expect(suggestedTimeZone(for: "UTC+2") == "Etc/GMT-2")
    #expect(suggestedTimeZone(for: "GMT+0200") == "Etc/GMT-2")
    #expect(suggestedTimeZone(for: "utc-05:00") == "Etc/GMT+5")
    #expect(suggestedTimeZone(for: "+14") == "Etc/GMT-14")
    #expect(suggestedTimeZone(for: "UTC+0") == "UTC")
    #expect(suggestedTimeZone(for: "Europe/Berln") == "Europe/Berlin")
    #expect(suggestedTimeZone(for: "europe/berlin") == "Europe/Berlin")
    #expect(suggestedTimeZone(for: "UTC+5:30").map(isWritableTimeZone) ?? true)
    #expect(suggestedTimeZone(for: "Mars/Olympus") == nil)
  }
}
