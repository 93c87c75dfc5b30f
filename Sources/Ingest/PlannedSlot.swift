import PlanEngine
import RunningCore

/// A planned workout a run can fulfil: which one, on which day, what kind, how far.
///
/// Training makes these from the saved plan (`plannedSlots(for:in:)`); they are plain values so the rules here do not
/// depend on how or where the plan is stored.
public struct PlannedSlot: Sendable, Hashable, Codable {
  /// The planned workout's id.
  public var workoutID: String
  /// Its day, in the runner's time zone.
  public var date: CivilDate
  /// What kind of workout.
  public var kind: WorkoutKind
  /// Planned distance, km.
  public var distanceKm: Double
  /// The first day of the plan week it belongs to (nil when unknown: the calendar week, Monday to Sunday, stands
  /// in for it). A run moved to a rest day matches it only within that week.
  public var weekStart: CivilDate?

  /// Creates a slot.
  public init(workoutID: String, date: CivilDate, kind: WorkoutKind, distanceKm: Double, weekStart: CivilDate? = nil) {
    self.workoutID = workoutID
    self.date = date
    self.kind = kind
    self.distanceKm = distanceKm
    self.weekStart = weekStart
  }
}

/// How a run fulfilled its planned workout.
public enum MatchStatus: String, Sendable, Hashable, Codable, CaseIterable {
  /// Run as planned (at least ``IngestRules/partialBelow`` of the planned distance).
  case done
  /// Run, but much shorter than planned: the workout counts as started, not done.
  case partial
}
