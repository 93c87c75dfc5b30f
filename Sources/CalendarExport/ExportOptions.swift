import Foundation
import ICalendar
import PlanEngine
import RunningCore
import Scheduling

/// A reminder before a workout (VALARM, RFC 5545 §3.6.6).
public enum Reminder: Sendable, Hashable, CustomStringConvertible {
  /// Minutes before the start: for timed workouts (on an all-day event it would fire at midnight).
  case before(minutes: Int)
  /// At a local time, `daysBefore` days before the workout's day: for all-day and timed workouts.
  case at(LocalTime, daysBefore: Int)

  /// Parses `30m`, `2h`, `1d` (relative), `06:00` (the same day) or `20:00-1d` (the day before).
  public init?(parsing text: String) {
    let lower = text.lowercased()
    if let time = LocalTime(parsing: lower) {
      self = .at(time, daysBefore: 0)
      return
    }
    if lower.contains(":") {
      let parts = lower.split(separator: "-", maxSplits: 1).map(String.init)
      guard parts.count == 2, let time = LocalTime(parsing: parts[0]), parts[1].hasSuffix("d"),
        let days = Int(parts[1].dropLast()), (0...7).contains(days)
      else { return nil }
      self = .at(time, daysBefore: days)
      return
    }
    let units: [(String, Int)] = [("m", 1), ("min", 1), ("h", 60), ("d", 1440)]
    for (suffix, factor) in units.reversed() where lower.hasSuffix(suffix) {
      // At most a week; the bound is checked before multiplying, so `9223372036854775807h` cannot overflow.
      guard let value = Int(lower.dropLast(suffix.count)), value > 0, value <= 7 * 1440 / factor else { return nil }
      self = .before(minutes: value * factor)
      return
    }
    return nil
  }

  /// A readable form of the value.
  public var description: String {
    switch self {
    case .before(let minutes):
      return minutes % 1440 == 0 ? "\(minutes / 1440)d" : minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes)m"
    case .at(let time, let days):
      return days == 0 ? "\(time)" : "\(time)-\(days)d"
    }
  }
}

/// How a schedule becomes a calendar.
public struct ExportOptions: Sendable {
  /// The reminders on every workout; empty for none.
  public var reminders: [Reminder]
  /// What identifies the plan across updates: UIDs are built from it, the week counted back from race day and
  /// the slot, so a changed plan for the same race updates its events instead of duplicating them.
  public var identity: String
  /// The calendar's name (X-WR-CALNAME).
  public var calendarName: String
  /// The calendar exported before, to keep SEQUENCE and DTSTAMP of unchanged events and cancel removed ones.
  public var previous: VCalendar?
  /// Units for summaries and texts.
  public var units: DistanceUnit
  /// What the steps listed in a description are prescribed by (pace, or the runner's heart-rate zones).
  public var targets: StepTargets = .pace
  /// A last paragraph for the descriptions of some workouts' events, by ``PlanEngine/Workout/id`` (a coach's
  /// comments); the events of the others are as without it.
  public var notes: [String: String] = [:]

  /// Creates options.
  public init(
    reminders: [Reminder], identity: String, calendarName: String, previous: VCalendar? = nil,
    units: DistanceUnit = .km, targets: StepTargets = .pace
  ) {
    self.targets = targets
    self.reminders = reminders
    self.identity = identity
    self.calendarName = calendarName
    self.previous = previous
    self.units = units
  }

  /// Reminders a runner expects when none are given: 30 minutes before a timed workout, 20:00 the evening before
  /// an all-day one.
  public static let defaultReminders: [Reminder] = [
    .before(minutes: 30), .at(LocalTime(clampingHour: 20, minute: 0), daysBefore: 1),
  ]

  /// The weeks from `week` to race week (0 for race week): with the slot, what identifies a workout's event across
  /// versions of the plan (its UID), so that a plan made longer or shorter for the same race updates the events of the
  /// same weeks before the race.
  public static func countdown(of week: Week, in plan: Plan) -> Int {
    plan.goal.weeks - week.number
  }

  /// The identity of a plan for export: its race (distance and date), so that changing the level, the weeks or the
  /// paces updates the same events.
  public static func identity(of plan: Plan) -> String {
    let text = "runmate-calendar|\(plan.goal.distance.rawValue)|\(plan.goal.raceDate)"
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "rm-" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// How an event differs from the previous export.
public enum EventChange: String, Sendable, Hashable, Codable {
  case added, moved, changed, cancelled, unchanged
}

/// One line of `runmate export --diff`.
public struct ExportChange: Sendable, Hashable {
  /// The event's UID.
  public var uid: String
  /// What happened to it.
  public var change: EventChange
  /// Its summary (the new one, or the old one for a cancellation).
  public var summary: String
  /// For moves: the old and new start, as text.
  public var detail: String?
}

/// What `makeCalendar` returns: the calendar, and how it differs from the previous export.
public struct Export: Sendable {
  /// The calendar to serialize.
  public var calendar: VCalendar
  /// Every event's change against the previous export (all `added` without one).
  public var changes: [ExportChange]
}
