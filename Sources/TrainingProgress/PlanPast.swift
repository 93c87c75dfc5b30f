import PlanEngine
import RunningCore

extension Plan {
  /// This plan applied from `today` on over `old`, the plan in force until now: the past is never rewritten. Every
  /// workout of `old` before `today` stays as it was planned then (its id, day and session: the record a run was
  /// matched to), in the week of this plan that holds its day; this plan's own workouts before `today` are dropped,
  /// and so is one of its later workouts whose week and slot a kept workout holds (as
  /// ``replan(_:completions:today:pause:rules:units:reason:savedPauses:paces:rebuild:)`` keeps a week partly done). A week's planned volume is summed again. Workouts of `old` before this plan's first
  /// week are not carried (the new plan starts later). The plan's id stays this plan's: give it `old`'s first
  /// (``identified(as:)``) to keep its runs and calendar events.
  public func keepingPast(of old: Plan, before today: CivilDate) -> Plan {
    var copy = self
    let kept = old.weeks.flatMap(\.workouts).filter { $0.date < today }
    for index in copy.weeks.indices {
      let start = copy.weeks[index].start
      let end = start.adding(days: 6)
      let past = kept.filter { start <= $0.date && $0.date <= end }
      let pastSlots = Set(past.map(\.slot))
      let later = copy.weeks[index].workouts.filter { $0.date >= today && !pastSlots.contains($0.slot) }
      let workouts = (past + later).sorted { ($0.date, $0.slot) < ($1.date, $1.slot) }
      guard workouts != copy.weeks[index].workouts else { continue }
      copy.weeks[index].workouts = workouts
      copy.weeks[index].plannedKm = (workouts.map(\.distanceKm).reduce(0, +) * 10).rounded() / 10
    }
    return copy
  }
}
