import Foundation

/// A stretch of time the runner is busy, read from one of their own calendars: the scheduler keeps workouts out
/// of it, and the schedule settings keep it (the one busy-time value of every module).
public struct BusyTime: Sendable, Hashable, Codable {
  /// Start, inclusive.
  public var start: Date
  /// End, exclusive.
  public var end: Date
  /// What it is (the event's summary), for notes.
  public var summary: String

  /// Creates an interval.
  public init(start: Date, end: Date, summary: String) {
    self.start = start
    self.end = end
    self.summary = summary
  }
}
