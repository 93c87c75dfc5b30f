import Foundation
import ICalendar
import RunningCore

/// Wall-clock times in one zone, with the answers Foundation's Gregorian `Calendar` gives, but without asking it
/// for every event: the zone's UTC offset is kept over the span between two transitions, and inside it a wall-clock
/// time is plain arithmetic. Outside a kept span, and near a transition or before 1900, Foundation answers.
///
/// Why the answers are Foundation's: Foundation's Gregorian calendar computes the wall-clock fields of an instant
/// as the proleptic Gregorian fields of `instant + zone.secondsFromGMT(for: instant)` (no Julian dates after
/// 1582), and within a span `secondsFromGMT` is the span's offset, since a span ends at the zone's next transition
/// (`nextDaylightSavingTimeTransition(after:)`, which reports every change of offset on Linux, where Foundation
/// asks ICU; a span is also at most 35 days long and kept only when its first and last second agree). A local time is turned into
/// an instant only where every instant within two days of it has the same offset: it then has exactly one instant,
/// the one Foundation returns. The tests compare both ways on every hour of several years in zones with
/// transitions.
struct ZoneOffsets {
  /// The calendar Foundation answers with (Gregorian, in the zone).
  let calendar: Calendar
  /// The kept span: instants in `from..<until` (seconds since 1970) have `offset`.
  private var span: (from: Double, until: Double, offset: Int)?

  /// Before this instant (1900-01-01, UTC) Foundation always answers (old local mean times, calendar reforms).
  private static let earliest: Double = -2_208_988_800
  /// How far back from an instant a new span starts looking for the previous transition.
  private static let lookBack: Double = 8 * 86_400
  /// The longest span kept (35 days).
  private static let longest: Double = 35 * 86_400
  /// Two days: no offset exceeds a day, so both instants of a local time are within this of each other.
  private static let margin: Double = 2 * 86_400

  /// Offsets in `calendar`'s zone.
  init(calendar: Calendar) {
    self.calendar = calendar
  }

  /// The wall-clock fields of `date` in the zone: `calendar.dateComponents` for year to second.
  mutating func dateTime(_ date: Date) -> ICalDateTime {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds == date.timeIntervalSince1970, let offset = offset(at: seconds) else {
      return foundationDateTime(date)
    }
    return utcFields(Int(seconds) + offset)
  }

  /// The instant of a wall-clock time in the zone: `calendar.date(from:)` for these fields, or nil when Foundation
  /// has none.
  mutating func instant(of day: CivilDate, hour: Int, minute: Int) -> Date? {
    let wall = Double(day.dayNumber * 86_400 + hour * 3600 + minute * 60)
    if let guessOffset = offset(at: wall) {
      let guess = wall - Double(guessOffset)
      if let window = offset(at: guess - Self.margin), let span, span.until > guess + Self.margin {
        return Date(timeIntervalSince1970: wall - Double(window))
      }
    }
    return calendar.date(
      from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute))
  }

  /// Whether the wall-clock time of `date` in the zone happens twice (the repeated hour of a fall-back): a local time
  /// with a TZID is then read as either instant (RFC 5545 §3.3.5 says the first; libical and khal take the second).
  /// Away from a transition (a kept span with a day to spare on both sides) the answer is no without asking.
  mutating func isRepeated(_ date: Date) -> Bool {
    let seconds = date.timeIntervalSince1970
    if offset(at: seconds.rounded(.down)) != nil, let span, span.from + Self.margin <= seconds,
      seconds + Self.margin < span.until
    {
      return false
    }
    let zone = calendar.timeZone
    let offset = zone.secondsFromGMT(for: date)
    let wall = seconds + Double(offset)
    for probe in [-Self.margin, Self.margin] {
      let other = zone.secondsFromGMT(for: date.addingTimeInterval(probe))
      guard other != offset else { continue }
      let twin = Date(timeIntervalSince1970: wall - Double(other))
      if zone.secondsFromGMT(for: twin) == other { return true }
    }
    return false
  }

  /// The offset at an instant (whole seconds), from the kept span or a new one; nil where Foundation must answer.
  private mutating func offset(at seconds: Double) -> Int? {
    guard seconds >= Self.earliest else { return nil }
    if let span, span.from <= seconds, seconds < span.until { return span.offset }
    let zone = calendar.timeZone
    // The span starts at the last transition at or before `seconds` (or `lookBack` before it when none is that
    // close), so that instants a little earlier are found in it too.
    var from = seconds - Self.lookBack
    var until = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: from))?.timeIntervalSince1970
    while let next = until, next <= seconds {
      from = next
      until = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: next))?.timeIntervalSince1970
    }
    // At most `longest` long, and kept only when Foundation gives the same offset at its start, at `seconds` and
    // at its last second (a zone whose transitions Foundation would not report is then asked every time).
    let end = min(until ?? .infinity, from + Self.longest)
    let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: from))
    let answer = zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
    let last = zone.secondsFromGMT(for: Date(timeIntervalSince1970: end - 1))
    span = offset == answer && answer == last ? (from, end, offset) : nil
    return answer
  }

  /// The fields Foundation gives.
  private func foundationDateTime(_ date: Date) -> ICalDateTime {
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return ICalDateTime(
      year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1, hour: c.hour ?? 0,
      minute: c.minute ?? 0, second: c.second ?? 0)
  }
}

/// The proleptic Gregorian fields of seconds since 1970-01-01T00:00:00 (UTC).
func utcFields(_ seconds: Int) -> ICalDateTime {
  let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  let rest = seconds - days * 86_400
  let day = CivilDate(dayNumber: days)
  return ICalDateTime(
    year: day.year, month: day.month, day: day.day, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
}
