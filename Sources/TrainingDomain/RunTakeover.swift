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

/// That plan `planID` was followed by plan `followedBy` from `fromDay` (the new plan's first day) on: a run of a day
/// before that is the earlier plan's (``planInForce(on:current:successions:covers:)``).
public struct PlanSuccession: Sendable, Hashable {
  /// The earlier plan.
  public let planID: String
  /// The plan that followed it.
  public let followedBy: String
  /// The first day of the plan that followed.
  public let fromDay: CivilDate

  /// A succession.
  public init(planID: String, followedBy: String, fromDay: CivilDate) {
    self.planID = planID
    self.followedBy = followedBy
    self.fromDay = fromDay
  }
}

/// The plan in force on `day`, given the plan in force now (`current`): `current` from its first day on, and for an
/// earlier day the nearest of the plans it followed (and they, and so on back) whose own days hold `day` (`covers`),
/// so that a run logged or pushed late for a day of an earlier block counts for that block, on the athlete's side and
/// the coach's alike, whichever plans came in between; `current` when none does.
public func planInForce(
  on day: CivilDate, current: String, successions: [PlanSuccession], covers: (String, CivilDate) -> Bool
) -> String {
  var frontier = [current]
  var seen: Set<String> = [current]
  while !frontier.isEmpty {
    var next: [String] = []
    for plan in frontier {
      for earlier in successions where earlier.followedBy == plan && day < earlier.fromDay {
        guard seen.insert(earlier.planID).inserted else { continue }
        if covers(earlier.planID, day) { return earlier.planID }
        next.append(earlier.planID)
      }
    }
    frontier = next
  }
  return current
}

/// Every plan `current` followed, nearest first (breadth first, each once).
public func plansFollowed(by current: String, successions: [PlanSuccession]) -> [String] {
  var order: [String] = []
  var frontier = [current]
  var seen: Set<String> = [current]
  while !frontier.isEmpty {
    var next: [String] = []
    for plan in frontier {
      for earlier in successions where earlier.followedBy == plan && seen.insert(earlier.planID).inserted {
        order.append(earlier.planID)
        next.append(earlier.planID)
      }
    }
    frontier = next
  }
  return order
}

/// Records that ``RunTakeover/fromPlanID`` is followed by plan `planID` from the first of ``RunTakeover/days`` on
/// (``PlanSuccession``), then moves the activities of that plan dated within those days to plan `planID` and
/// matches their weeks again against the new plan's workouts (``rematchWeeks(holding:planID:slots:among:to:)``),
/// inside the caller's write transaction (the one saving the new plan). Returns how many moved. Nothing moves onto a
/// plan from itself.
public func takeOverRuns(_ takeover: RunTakeover, planID: String, to store: some PushWrites) throws -> Int {
  guard takeover.fromPlanID != planID else { return 0 }
  try store.recordSuccession(
    PlanSuccession(planID: takeover.fromPlanID, followedBy: planID, fromDay: takeover.days.lowerBound))
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
