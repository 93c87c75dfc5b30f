import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// Issue 45, race week as a share of the peak: runners at 100-130 km a week got race weeks of 23-29 % of their peak
/// (Pfitzinger's race weeks keep about 40 %; Bosquet et al. 2007: the taper cuts 41-60 %), and beginners got a
/// 5.9-6 km run three days before a 5K or 10K (Higdon's novice race weeks: 1.5-2 mile runs, rest before the race).
@Suite struct RaceWeekTests {
  /// The running of race week before race day (the race itself left out).
  static func beforeRace(_ plan: Plan) -> (km: Double, week: Week)? {
    guard let week = plan.weeks.last else { return nil }
    let km = week.workouts.filter { $0.kind != .race && $0.kind.isRun }.map(\.distanceKm).reduce(0, +)
    return (km, week)
  }

  @Test(arguments: [RaceDistance.fiveK, .tenK, .half, .marathon])
  func highVolumeRaceWeeksKeepAThirdOfThePeak(distance: RaceDistance) throws {
    var short: [String] = []
    for (current, runs) in [(90.0, 5), (90.0, 6), (105.0, 6), (124.0, 5), (120.0, 7), (130.0, 7)] {
      for weeks in [10, 14, 18] {
        let plan = try makePlan(
          goal: goal(distance, .advanced, weeks: weeks, runs: runs, currentKm: current, longestKm: 0.25 * current),
          rules: repositoryRules)
        let peak = plan.weeks.dropLast().map(\.plannedKm).max() ?? 0
        guard let (km, week) = Self.beforeRace(plan) else { continue }
        if km < 0.34 * peak - 0.5 {
          short.append("\(current) km \(runs) runs \(weeks) weeks: \(km) km of a \(peak) km peak")
        }
        // The runs stay race-week runs: none a long run (Pfitzinger's 18/85 race week: 10 miles at most, on the
        // Wednesday), the last three days short (6, 5 and 4 miles: under a tenth of the peak week each).
        for workout in week.workouts where workout.kind != .race {
          #expect(workout.distanceKm <= 16 + 0.05, "\(distance) \(current) km: \(workout.title)")
          if workout.date.days(to: plan.goal.raceDate) <= 3 {
            #expect(
              workout.distanceKm <= 0.09 * max(peak, current) + 0.1, "\(distance) \(current) km: \(workout.title)")
          }
        }
      }
    }
    #expect(short.isEmpty, "race week under 34 % of the peak: \(short)")
  }

  @Test(arguments: [RaceDistance.fiveK, .tenK])
  func beginnersRunNothingOverHalfTheRaceInTheLastThreeDays(distance: RaceDistance) throws {
    var long: [String] = []
    var planned = 0
    for weeks in [8, 12, 17, 24] {
      for runs in [3, 4, 5] {
        for current in [12.0, 17.0, 25.0, 35.0] where current >= Double(runs) * 3.5 {
          // A runner too far from the race for these weeks is refused (the refusal's own tests): no race week.
          guard
            let plan = try? makePlan(
              goal: goal(distance, .beginner, weeks: weeks, runs: runs, currentKm: current, longestKm: current / 3),
              rules: repositoryRules)
          else { continue }
          planned += 1
          let raceDate = plan.goal.raceDate
          for workout in plan.weeks.last?.workouts ?? []
          where workout.kind != .race && workout.date.days(to: raceDate) <= 3
            && workout.distanceKm > max(2, distance.kilometers / 2) + 0.05
          {
            long.append(
              "\(weeks) weeks \(runs) runs \(current) km: \(workout.distanceKm) km "
                + "\(workout.date.days(to: raceDate)) days before")
          }
        }
      }
    }
    #expect(planned >= 30, "\(distance): only \(planned) plans")
    #expect(long.isEmpty, "\(distance): \(long)")
  }

  /// The issue's command 12: a 4 km run three days before a beginner's 5K.
  @Test func issueCommandTwelveBeginnerFiveK() throws {
    let plan = try makePlan(
      goal: goal(.fiveK, .beginner, weeks: 17, runs: 4, currentKm: 17, longestKm: 5.3), rules: repositoryRules)
    let raceDate = plan.goal.raceDate
    let late = plan.weeks.last?.workouts.filter { $0.kind != .race && $0.date.days(to: raceDate) <= 3 } ?? []
    #expect(!late.isEmpty)
    for workout in late {
      #expect(
        workout.distanceKm <= 2.55, "a run of \(workout.distanceKm) km \(workout.date.days(to: raceDate)) days before")
    }
  }
}
