import Ingest
import Logbook
import PlanEngine

/// The planned workouts runs are matched to: today, each workout on the plan's nominal day. The one place that
/// says which days count (the saved schedule's days will replace the nominal ones here).
func plannedSlots(for saved: SavedPlan) -> [PlannedSlot] {
  saved.plan.weeks.flatMap { week in
    week.workouts.map { workout in
      PlannedSlot(workoutID: workout.id, date: workout.date, kind: workout.kind, distanceKm: workout.distanceKm,
                  weekStart: week.start)
    }
  }
}
