import Foundation
import Ingest
import RunningCore
import TrainingDomain

/// The plan in force now and the plans it followed (a coach's plan for another race, pulled or assigned: each
/// ``PlanSuccession``), newest first: what a run of a given day counts for, on the athlete's side and the coach's
/// alike (``planInForce(on:current:successions:)``), so a run logged or pushed late for a day of an earlier block
/// counts for that block and is matched to its workouts.
struct PlanChain {
  /// The plan in force now, then the one it followed, and so on back.
  let states: [TrainingState]
  let successions: [PlanSuccession]

  /// The chain back from `current`: only the plans it followed are read.
  static func read(
    from current: TrainingState, in store: any TrainingStore, profile: Profile?, systemZone: String
  ) throws -> PlanChain {
    let successions = try store.planSuccessions()
    let earlier = plansFollowed(by: current.saved.id, successions: successions)
    guard !earlier.isEmpty else { return PlanChain(states: [current], successions: successions) }
    let plans = try store.plans()
    let states = try earlier.compactMap { id in
      try plans.first { $0.id == id }.map {
        try TrainingState.read($0, db: store, profile: profile, systemZone: systemZone)
      }
    }
    return PlanChain(states: [current] + states, successions: successions)
  }

  /// The plan in force on `day`: the current one, or an earlier one for a day before the plan that followed it.
  func state(on day: CivilDate) -> TrainingState {
    let id = planInForce(on: day, current: states[0].saved.id, successions: successions) { id, day in
      states.first { $0.saved.id == id }.map { state in
        let plan = state.saved.plan
        let first = plan.weeks.first?.start ?? plan.goal.start
        let last = (plan.weeks.last?.start ?? plan.goal.raceDate).adding(days: 6)
        return first <= day && day <= last
      } ?? false
    }
    return states.first { $0.saved.id == id } ?? states[0]
  }

  /// `items` shared out to the plans in force on their days, in the chain's order (the current plan first, with its
  /// share even when empty); each plan with its share.
  func shares<T>(of items: [T], day: (T) -> CivilDate) -> [(state: TrainingState, items: [T])] {
    var byPlan: [String: [T]] = [:]
    for item in items { byPlan[state(on: day(item)).saved.id, default: []].append(item) }
    return states.enumerated().compactMap { index, state in
      let share = byPlan[state.saved.id] ?? []
      return index == 0 || !share.isEmpty ? (state, share) : nil
    }
  }
}
