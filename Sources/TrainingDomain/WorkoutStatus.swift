import Foundation
import Ingest
import PlanEngine
import RunningCore

/// How a planned workout stands on `today`: the one rule `today`, `week`, `log list`, `progress` and the HTML report
/// read (through ``PlanStatus``).
public enum WorkoutStatus: String, Sendable, Hashable, Codable, CaseIterable {
  /// The runs matched to it cover the plan (``Compliance/done``: 80 % of its distance, or of its time for a workout
  /// set by time, or more); for a cross-training or strength day, an activity of its kind on its day.
  case done
  /// Runs were matched to it, short of the plan (under 80 %: TrainingPeaks' yellow and orange).
  case partial
  /// A run whose day has passed with no run matched.
  case missed
  /// Its day is today, nothing run for it yet.
  case today
  /// Its day is still to come.
  case upcoming
  /// A past cross-training or strength day with no such activity: optional, never missed.
  case notLogged = "not_logged"
  /// A past run with nothing logged, on a day of a pause the runner saved (ill, injured, away): excused, not missed.
  case paused
}

/// How a day of a plan stands: its workout's status, or what a day without one holds.
public enum DayStatus: String, Sendable, Hashable, Codable, CaseIterable {
  case done, partial, missed, today, upcoming, paused
  case notLogged = "not_logged"
  /// No workout now: the one planned that day was moved to another day.
  case moved
  /// No workout now: the one planned that day was dropped from the schedule.
  case skipped
  /// No workout, and a run that fulfils none of the plan's (an extra run).
  case extra
  /// No workout, no extra run.
  case rest

  /// The day status of a workout status.
  public init(_ status: WorkoutStatus) {
    switch status {
    case .done: self = .done
    case .partial: self = .partial
    case .missed: self = .missed
    case .today: self = .today
    case .upcoming: self = .upcoming
    case .notLogged: self = .notLogged
    case .paused: self = .paused
    }
  }
}

/// The status of every workout and day of a plan on `today`, from the runs matched to it: made once per view, read
/// by every view, so no two views can disagree.
public struct PlanStatus: Sendable {
  /// The plan, its workouts on their scheduled days.
  public let plan: Plan
  /// Today, in the runner's zone.
  public let today: CivilDate
  /// The runs matched to each of the plan's workouts.
  public let matched: [String: [Completion]]
  /// The runs of no workout of this plan, by day number.
  let extraDays: Set<Int>
  /// Cross-training and strength activities by day number.
  let activities: [Int: [Completion]]
  /// The day each workout was planned on, where the schedule moved it (workout id → planned day).
  let plannedDays: [String: CivilDate]
  /// Workouts of the plan left off the schedule (dropped), by their planned day.
  let droppedDays: Set<Int>
  /// The days of the runner's saved pauses.
  let paused: [ClosedRange<CivilDate>]

  /// - Parameters:
  ///   - plan: the plan with every workout on its scheduled day (``Logbook/Plan/scheduled(_:)``).
  ///   - runs: the logged runs (any plan's: a run counts for the workouts of this plan it was matched to).
  ///   - crossTraining: activities of other sports.
  ///   - today: the runner's local day.
  ///   - plannedDays: the plan's own day of each scheduled workout, where it differs.
  ///   - dropped: the plan's own days of workouts the schedule dropped.
  ///   - paused: the runner's saved pauses: a past run in one with nothing logged is paused, not missed.
  public init(
    plan: Plan, runs: [Completion], crossTraining: [Completion] = [], today: CivilDate,
    plannedDays: [String: CivilDate] = [:], dropped: [CivilDate] = [], paused: [ClosedRange<CivilDate>] = []
  ) {
    self.paused = paused
    self.plan = plan
    self.today = today
    let ids = Set(plan.workouts.map(\.id))
    let mine = runs.filter { $0.isRun && $0.planID == plan.id && $0.workoutID.map(ids.contains) == true }
    matched = Dictionary(grouping: mine) { $0.workoutID ?? "" }
    extraDays = Set(
      runs.filter { $0.isRun && ($0.planID != plan.id || $0.workoutID.map(ids.contains) != true) }.map(\.date.dayNumber)
    )
    activities = Dictionary(grouping: crossTraining.filter { !$0.isRun }) { $0.date.dayNumber }
    self.plannedDays = plannedDays
    droppedDays = Set(dropped.map(\.dayNumber))
  }

  /// The status of `workout` (one of the plan's, on its scheduled day).
  public func status(of workout: Workout) -> WorkoutStatus {
    guard workout.kind.isRun else {
      let kinds = (activities[workout.date.dayNumber] ?? []).compactMap { $0.sport.plannedKind }
      if kinds.contains(workout.kind) { return .done }
      return workout.date < today ? .notLogged : workout.date == today ? .today : .upcoming
    }
    let runs = matched[workout.id] ?? []
    guard !runs.isEmpty else {
      guard workout.date < today else { return workout.date == today ? .today : .upcoming }
      return paused.contains { $0.contains(workout.date) } ? .paused : .missed
    }
    return compliance(of: workout) == .done ? .done : .partial
  }

  /// How the runs matched to `workout` cover it: by time for a workout set by time, else by distance.
  public func compliance(of workout: Workout) -> Compliance {
    let runs = matched[workout.id] ?? []
    if let target = workout.timeTarget {
      let seconds = runs.map { $0.movingSeconds ?? $0.durationSeconds }.reduce(0, +)
      return Compliance(done: seconds / 60, planned: Double(target.minutes))
    }
    return Compliance(done: done(of: workout).kilometers, planned: workout.distanceKm)
  }

  /// The distance of the runs matched to `workout`.
  public func done(of workout: Workout) -> Distance {
    (matched[workout.id] ?? []).map(\.distance).sum()
  }

  /// The workouts scheduled on `day`.
  public func workouts(on day: CivilDate) -> [Workout] {
    plan.workouts.filter { $0.date == day }
  }

  /// The status of `day`: its run's status (the first run workout of the day, else its first workout), else moved,
  /// skipped, extra or rest.
  public func status(on day: CivilDate) -> DayStatus {
    let here = workouts(on: day)
    if let workout = here.first(where: \.kind.isRun) ?? here.first { return DayStatus(status(of: workout)) }
    if extraDays.contains(day.dayNumber) { return .extra }
    if paused.contains(where: { $0.contains(day) }) { return .paused }
    if plannedDays.values.contains(day) { return .moved }
    if droppedDays.contains(day.dayNumber) { return .skipped }
    return .rest
  }
}

/// The status of the workout each run fulfils (done or partial, by ``PlanStatus/status(of:)``), by run id, for the
/// runs matched to a workout of one of `plans`: what `log list` shows beside each run.
public func runStatuses(_ runs: [Completion], plans: [Plan]) -> [Int64: WorkoutStatus] {
  var statuses: [Int64: WorkoutStatus] = [:]
  for plan in plans {
    // A matched workout is done or partial whatever the day: `today` plays no part.
    let book = PlanStatus(plan: plan, runs: runs, today: plan.goal.start)
    let workouts = Dictionary(plan.workouts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for run in runs where run.planID == plan.id {
      guard let id = run.id, let workout = run.workoutID.flatMap({ workouts[$0] }) else { continue }
      statuses[id] = book.status(of: workout)
    }
  }
  return statuses
}
