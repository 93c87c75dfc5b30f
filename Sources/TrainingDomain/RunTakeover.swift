import Ingest
import RunningCore

/// A new plan taking over the runs of the plan it follows on its own days: a coach's new plan (another race, or a
/// block begun again) whose first week began before today holds the days of that week already run, so the runs of
/// those days count for it, matched to its workouts of those days (the workouts of the plan they were run for, kept
/// by ``PlanEngine/Plan/keepingPast(of:before:)``), and every day before its first week stays the earlier plan's.
public struct RunTakeover: Sendable, Equatable {
  /// The plan the runs are counted for now.
  public let fromPlanID: String
  /// The new plan's first and last days: the runs of these days move.
  public let days: ClosedRange<CivilDate>
  /// The new plan's workouts on their scheduled days, to match the moved runs' weeks again.
  public let slots: [PlannedSlot]

  /// A takeover of `fromPlanID`'s runs on `days`, matched to `slots`.
  public init(fromPlanID: String, days: ClosedRange<CivilDate>, slots: [PlannedSlot]) {
    self.fromPlanID = fromPlanID
    self.days = days
    self.slots = slots
  }
}

/// Moves the activities of ``RunTakeover/fromPlanID`` dated within ``RunTakeover/days`` to plan `planID` and matches
/// their weeks again against the new plan's workouts (``rematchWeeks(holding:planID:slots:among:to:)``), inside the
/// caller's write transaction (the one saving the new plan). Returns how many moved. Nothing moves onto a plan from
/// itself.
public func takeOverRuns(_ takeover: RunTakeover, planID: String, to store: some PushWrites) throws -> Int {
  guard takeover.fromPlanID != planID else { return 0 }
  let moving = try store.activities(
    ofPlan: takeover.fromPlanID, from: takeover.days.lowerBound, through: takeover.days.upperBound)
  for run in moving {
    var moved = run
    moved.planID = planID
    // Matched again below, against the new plan's workouts; best efforts stay as stored.
    moved.workoutID = nil
    moved.status = nil
    moved.bestEfforts = []
    try store.update(moved)
  }
  guard !moving.isEmpty else { return 0 }
  let runs = try store.activities(ofPlan: planID, from: takeover.days.lowerBound, through: takeover.days.upperBound)
  _ = try rematchWeeks(holding: moving.map(\.date), planID: planID, slots: takeover.slots, among: runs, to: store)
  return moving.count
}
