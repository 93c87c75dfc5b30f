import Foundation
import PlanEngine
import RunningCore

/// The planned workout a run fulfilled, and how.
public struct SlotMatch: Sendable, Hashable, Codable {
  /// How the run's day relates to the workout's.
  public enum Day: String, Sendable, Hashable, Codable {
    /// On its day.
    case sameDay = "same_day"
    /// A day or more after a workout not run yet (late, or moved to a rest day of the same week).
    case late
    /// The day before it.
    case early
  }

  /// The slot.
  public var slot: PlannedSlot
  /// Done, or partial (much shorter than planned).
  public var status: MatchStatus
  /// How the days relate.
  public var day: Day

  /// Creates a match.
  public init(slot: PlannedSlot, status: MatchStatus, day: Day) {
    self.slot = slot
    self.status = status
    self.day = day
  }
}

/// Done, or partial when `distanceKm` is below ``IngestRules/partialBelow`` of the slot's planned distance.
public func matchStatus(distanceKm: Double, for slot: PlannedSlot) -> MatchStatus {
  distanceKm < IngestRules.partialBelow * slot.distanceKm ? .partial : .done
}

/// Finds the planned workout a run fulfils among `slots` not in `taken` (a slot is never matched twice):
///
/// 1. Workouts one day either side or on the day (the race only on race day), scored by day, kind and distance:
///    the same day costs 0, a workout the day before (missed: not run yet) 1, the day after 2; a different kind
///    than the runner gave 0.5; the distance |ln(run / planned)|. So a missed workout of yesterday is preferred
///    over tomorrow's unless tomorrow's fits far better (e^1 ≈ 2.7 times closer in distance).
/// 2. Else, on a rest day (no workout planned that day), a workout not run yet earlier in the same week, at most
///    ``IngestRules/movedDayLimit`` days before (a runner who moves Tuesday's run to Thursday); the closest first.
/// 3. Else nothing: an extra run.
///
/// The status is ``MatchStatus/partial`` when the run is shorter than ``IngestRules/partialBelow`` of the plan.
public func matchSlot(
  date: CivilDate, distanceKm: Double, kind: WorkoutKind?, in slots: [PlannedSlot],
  taken: Set<String>
) -> SlotMatch? {
  func fit(_ slot: PlannedSlot) -> Double {
    let kindPenalty = kind.map { $0 == slot.kind ? 0.0 : 0.5 } ?? 0.0
    let ratio = distanceKm / max(slot.distanceKm, 0.1)
    return kindPenalty + (ratio > 0 ? abs(ratio.logarithm) : 10)
  }
  func dayPenalty(_ offset: Int) -> Double { offset == 0 ? 0 : (offset > 0 ? 1 : 2) }
  let open = slots.filter { !taken.contains($0.workoutID) }
  let near = open.filter { slot in
    let offset = slot.date.days(to: date)  // > 0: the workout was before the run
    return abs(offset) <= (slot.kind == .race ? 0 : 1)
  }
  if let best = near.min(by: { a, b in
    let left = dayPenalty(a.date.days(to: date)) + fit(a)
    let right = dayPenalty(b.date.days(to: date)) + fit(b)
    return (left, a.workoutID) < (right, b.workoutID)
  }) {
    let offset = best.date.days(to: date)
    return SlotMatch(
      slot: best, status: matchStatus(distanceKm: distanceKm, for: best),
      day: offset == 0 ? .sameDay : (offset > 0 ? .late : .early))
  }
  guard !slots.contains(where: { $0.date == date }) else { return nil }
  let moved = open.filter { slot in
    let offset = slot.date.days(to: date)
    return slot.kind != .race && offset >= 2 && offset <= IngestRules.movedDayLimit
      && sameWeek(slot, date)
  }
  guard
    let best = moved.min(by: { a, b in
      (a.date.days(to: date), fit(a), a.workoutID) < (b.date.days(to: date), fit(b), b.workoutID)
    })
  else { return nil }
  return SlotMatch(slot: best, status: matchStatus(distanceKm: distanceKm, for: best), day: .late)
}

/// True when `date` falls in `slot`'s week: the plan week when known, else the calendar week (Monday to Sunday).
func sameWeek(_ slot: PlannedSlot, _ date: CivilDate) -> Bool {
  let start = slot.weekStart ?? slot.date.adding(days: -slot.date.weekday.index)
  return start <= date && date < start.adding(days: 7)
}

extension Double {
  /// The natural logarithm.
  var logarithm: Double { Foundation.log(self) }
}
