import Foundation
import PlanEngine
import RunningCore

/// A wall-clock time of day, `06:30`.
public struct LocalTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// 0…23.
  public var hour: Int
  /// 0…59.
  public var minute: Int

  /// Creates a time, or nil when out of range.
  public init?(hour: Int, minute: Int) {
    guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
    self.hour = hour
    self.minute = minute
  }

  /// Creates a time, clamping the fields into range.
  public init(clampingHour hour: Int, minute: Int) {
    self.hour = min(23, max(0, hour))
    self.minute = min(59, max(0, minute))
  }

  /// Parses `6:30`, `06:30`, `0630`, `18:00`.
  public init?(parsing text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let h = Int(parts[0]), let m = Int(parts[1])
    {
      self.init(hour: h, minute: m)
    } else if parts.count == 1, text.count == 4, let value = Int(text) {
      self.init(hour: value / 100, minute: value % 100)
    } else {
      return nil
    }
  }

  /// Minutes after midnight.
  public var minutes: Int { hour * 60 + minute }

  /// `06:30`.
  public var description: String { "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)" }

  /// Earlier first.
  public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutes < rhs.minutes }
}

/// How the runner wants the plan laid on real dates.
public struct SchedulingPreferences: Sendable, Hashable {
  /// The days the runner can run; nil keeps the plan's weekly pattern.
  public var runDays: Set<Weekday>?
  /// The long-run day; nil keeps the plan's (the race weekday).
  public var longRunDay: Weekday?
  /// Start time per weekday, overriding `defaultTime`.
  public var times: [Weekday: LocalTime]
  /// Start time for days without their own; nil (and no per-day time) means all-day events.
  public var defaultTime: LocalTime?
  /// The runner's time zone (IANA name).
  public var timeZoneID: String
  /// Days with no running (holidays, travel), inclusive ranges.
  public var blackouts: [ClosedRange<CivilDate>]
  /// All-day workouts need a free slot of their duration inside this window of the day.
  public var dayWindow: ClosedRange<LocalTime>
  /// The race's start time; nil for an all-day race (the `--at` times are for training, not the race).
  public var raceStart: LocalTime?
  /// The runner's own moves (`runmate move`): the workout the schedule puts on a day goes to another day instead.
  public var moves: [CivilDate: CivilDate] = [:]
  /// The runner's own skips (`runmate skip`): the workout the schedule puts on a day is left out, with the reason
  /// (empty for none).
  public var skips: [CivilDate: String] = [:]

  /// Creates preferences; everything but the time zone is optional.
  public init(
    runDays: Set<Weekday>? = nil, longRunDay: Weekday? = nil, times: [Weekday: LocalTime] = [:],
    defaultTime: LocalTime? = nil, timeZoneID: String, blackouts: [ClosedRange<CivilDate>] = [],
    dayWindow: ClosedRange<LocalTime>? = nil, raceStart: LocalTime? = nil
  ) {
    self.raceStart = raceStart
    self.runDays = runDays
    self.longRunDay = longRunDay
    self.times = times
    self.defaultTime = defaultTime
    self.timeZoneID = timeZoneID
    self.blackouts = blackouts
    self.dayWindow = dayWindow ?? LocalTime(clampingHour: 6, minute: 0)...LocalTime(clampingHour: 21, minute: 0)
  }

  /// The start time on `weekday`, or nil for an all-day workout.
  public func time(on weekday: Weekday) -> LocalTime? { times[weekday] ?? defaultTime }

  /// True when `date` falls in a blackout range.
  public func isBlackout(_ date: CivilDate) -> Bool { blackouts.contains { $0.contains(date) } }
}
