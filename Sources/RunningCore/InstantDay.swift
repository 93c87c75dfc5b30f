import Foundation

extension CivilDate {
  /// The day `instant` falls on in `calendar`'s time zone; nil outside the days a civil date holds.
  public init?(_ instant: Date, in calendar: Calendar) {
    let parts = calendar.dateComponents([.year, .month, .day], from: instant)
    guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The day `instant` falls on in `zone` (the Gregorian calendar).
  public init?(_ instant: Date, in zone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    self.init(instant, in: calendar)
  }
}
