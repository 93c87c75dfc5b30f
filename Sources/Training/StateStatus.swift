import Logbook
import PlanEngine
import RunningCore
import TrainingDomain
import TrainingProgress

extension TrainingState {
  /// The days of the pauses saved with the plan (ill, injured, away): a past run there is paused, not missed.
  public var pauses: [ClosedRange<CivilDate>] {
    ((try? SettingValues.pauses(settings.pauses ?? [])) ?? []).map(\.dates)
  }

  /// The status of the plan's workouts and days on `today` (``PlanStatus``), with the workouts on their scheduled
  /// days, the days the schedule moved them from, and the days of those it dropped: what `today`, `week`,
  /// `log list`, `progress` and the report all read.
  public func status(runs: [Completion], crossTraining: [Completion] = [], today: CivilDate) -> PlanStatus {
    let scheduled = Set(workouts.map(\.workoutID))
    let moved = workouts.filter { $0.plannedDate != $0.date }
    return PlanStatus(
      plan: plan, runs: runs, crossTraining: crossTraining, today: today,
      plannedDays: Dictionary(moved.map { ($0.workoutID, $0.plannedDate) }, uniquingKeysWith: { first, _ in first }),
      dropped: saved.plan.workouts.filter { !scheduled.contains($0.id) }.map(\.date),
      paused: pauses)
  }
}

extension TrainingStore {
  /// The status of each of `runs` (the logbook's runs, as read) by run id, by the one rule (the compliance bands over
  /// every run matched to the same workout), for every saved plan: what `log list` shows beside each run.
  public func runStatuses(of runs: [Completion]) throws -> [Int64: WorkoutStatus] {
    TrainingDomain.runStatuses(runs, plans: try plans().map(\.plan))
  }
}
