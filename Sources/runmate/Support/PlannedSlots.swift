import Ingest
import Logbook
import PlanEngine

/// The planned workouts runs are matched to: each workout on its scheduled day (the training state's, so a
/// workout the scheduler moved matches on its new day and one it dropped never matches). The one place that says
/// which days count; none without a plan.
func plannedSlots(for saved: SavedPlan?, in db: LogbookDatabase) throws -> [PlannedSlot] {
  guard let saved else { return [] }
  let state = try TrainingState.read(saved, db: db, profile: try db.profile(named: nil))
  let weekStarts = Dictionary(saved.plan.weeks.map { ($0.number, $0.start) }, uniquingKeysWith: { first, _ in first })
  return state.workouts.map { workout in
    PlannedSlot(workoutID: workout.workoutID, date: workout.date, kind: workout.kind, distanceKm: workout.distanceKm,
                weekStart: weekStarts[workout.week])
  }
}
