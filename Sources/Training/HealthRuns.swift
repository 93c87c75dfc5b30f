import Activity
import Foundation
import Health
import Logbook
import PlanEngine
import RunningCore
import TrainingDomain

/// The running workouts of a Health export as completed runs, on their local day in `timeZone`, and the running
/// workouts that cannot be runs (no distance: a treadmill run without a footpod, a watch without GPS), so that the
/// import can say what it left out instead of dropping them silently.
///
/// With `allSports`, workouts of other types with a distance (cycling, swimming, walking) are in `runs` too, as
/// cross-training: ``Completion/sport`` names the sport (as `import --all-sports` names it), never a run; other
/// types without a distance are left out (the logbook stores a distance). With `today`, a workout dated after it (a
/// device clock gone wrong) is left out and its day listed in `afterToday`, as `import` refuses such a run.
public func healthRuns(
  _ workouts: [HealthWorkout],
  timeZone: TimeZone,
  allSports: Bool = false,
  today: CivilDate? = nil
) -> (runs: [Completion], withoutDistance: [CivilDate], afterToday: [CivilDate]) {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = timeZone
  var runs: [Completion] = []
  var withoutDistance: [CivilDate] = []
  var afterToday: [CivilDate] = []
  for workout in workouts where (workout.isRunning || allSports) && workout.durationSeconds > 0 {
    let sport = workout.isRunning ? Sport.run : Sport(DeclaredSport(workout.activityType))
    guard let date = CivilDate(workout.start, in: calendar) else { continue }
    if let today, date > today {
      afterToday.append(date)
      continue
    }
    guard let km = workout.distanceKm, km > 0 else {
      if workout.isRunning { withoutDistance.append(date) }
      continue
    }
    runs.append(
      Completion(
        date: date, startedAt: workout.start, distanceKm: km,
        durationSeconds: workout.durationSeconds, source: .health,
        sourceFile: "Apple Health (\(workout.sourceName))", sport: sport))
  }
  return (runs, withoutDistance, afterToday)
}
