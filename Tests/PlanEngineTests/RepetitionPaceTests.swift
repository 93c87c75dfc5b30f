import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// Issue 45, "5K/10K plans lack speed": no repetition-pace session in any of the 149 plans a coach read. Over the
/// matrix of 5K and 10K plans of 8 to 20 weeks, every level, 3 to 6 runs a week: at least one session of 200-400 m
/// reps at R pace (Daniels' R: `repetitions-200`, `repetitions-400`, and for beginners `easy-repetitions` on an easy
/// run), each within Daniels' 5 % of the week.
@Suite struct RepetitionPaceTests {
  static let matrix: [(RaceDistance, Level, Int, Int)] = [RaceDistance.fiveK, .tenK].flatMap { distance in
    [Level.beginner, .intermediate, .advanced].flatMap { level in
      [8, 10, 12, 16, 20].flatMap { weeks in [3, 4, 5, 6].map { runs in (distance, level, weeks, runs) } }
    }
  }

  @Test func fiveAndTenKPlansHoldRepetitionPaceWithinDanielsCap() throws {
    var without: [String] = []
    for (distance, level, weeks, runs) in Self.matrix {
      // A runner who already runs the days asked for (7 km a run), so no combination is refused for volume.
      let plan = try makePlan(
        goal: goal(
          distance, level, weeks: weeks, runs: runs, currentKm: Double(runs * 7), longestKm: Double(runs * 2 + 3)),
        rules: repositoryRules)
      var sessions = 0
      for week in plan.weeks {
        for workout in week.workouts {
          let reps = workout.steps.filter {
            $0.kind == .work && $0.zone == .repetition && $0.distanceKm >= 0.15 && $0.distanceKm <= 0.45
              && $0.repeat >= 2
          }
          guard !reps.isEmpty else { continue }
          sessions += 1
          let repetitionKm = reps.map { $0.distanceKm * Double($0.repeat) }.reduce(0, +)
          #expect(
            repetitionKm <= 0.05 * week.plannedKm + 0.2,
            "\(distance) \(level) \(weeks) weeks, \(runs) runs, week \(week.number): \(repetitionKm) km at R of \(week.plannedKm)"
          )
        }
      }
      if sessions == 0 { without.append("\(distance) \(level) \(weeks) weeks \(runs) runs") }
    }
    #expect(without.isEmpty, "no repetition-pace session: \(without)")
  }
}
