import Foundation
import PlanEngine

/// Finds the planned workout a completion fulfils: the same day first, else one day either side, preferring the
/// same kind and the closest distance. Workouts already matched are skipped; the race matches only on race day.
///
/// - Returns: the planned workout's id, or nil when the run was unplanned.
public func matchWorkout(for completion: Completion, in plan: Plan, alreadyMatched: Set<String>) -> String? {
  let candidates = plan.workouts.filter { workout in
    !alreadyMatched.contains(workout.id) && abs(workout.date.days(to: completion.date)) <= (workout.kind == .race ? 0 : 1)
  }
  func score(_ workout: Workout) -> Double {
    let dayPenalty = workout.date == completion.date ? 0.0 : 1.0
    let kindPenalty = completion.kind.map { $0 == workout.kind ? 0.0 : 0.5 } ?? 0.0
    let ratio = completion.distanceKm / max(workout.distanceKm, 0.1)
    let distancePenalty = ratio > 0 ? abs(Foundation.log(ratio)) : 10
    return dayPenalty + kindPenalty + distancePenalty
  }
  return candidates.min { (score($0), $0.id) < (score($1), $1.id) }?.id
}


/// True when two logged runs are the same run recorded twice (a file imported again, or the GPX and the TCX of one
/// activity): both have start times, within 2 minutes, and distances within 3 %.
public func isSameRun(_ a: Completion, _ b: Completion) -> Bool {
  guard let first = a.startedAt, let second = b.startedAt else { return false }
  return abs(first.timeIntervalSince(second)) <= 120
    && abs(a.distanceKm - b.distanceKm) <= 0.03 * max(a.distanceKm, b.distanceKm)
}
