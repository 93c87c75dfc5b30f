import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// Issue 45, "age is ignored": a profile with birth year 1966 gave a byte-identical plan. From 50 (base.yaml
/// `masters`) a plan has a cut-back week at least every 3rd week, lighter than the usual one, and says why.
@Suite struct MastersTests {
  static func plan(_ distance: RaceDistance, _ level: Level, weeks: Int, born: Int?) throws -> Plan {
    var goal = goal(distance, level, weeks: weeks, runs: 5, currentKm: 45, longestKm: 14)
    goal.birthYear = born
    return try makePlan(goal: goal, rules: repositoryRules)
  }

  @Test(arguments: [Level.beginner, .intermediate, .advanced])
  func fromFiftyEveryThirdWeekIsACutBack(level: Level) throws {
    for distance in [RaceDistance.tenK, .half, .marathon] {
      let plain = try Self.plan(distance, level, weeks: 20, born: nil)
      let masters = try Self.plan(distance, level, weeks: 20, born: 1966)
      #expect(plain.weeks != masters.weeks, "\(distance) \(level): the same weeks at 61")
      #expect(masters.goal.birthYear == 1966)
      #expect(masters.warnings.contains { $0.hasPrefix("age 61 (born 1966): a cut-back week every 3rd week") })
      #expect(plain.id != masters.id)
      var streak = 0
      for week in masters.weeks where week.phase != .taper && week.phase != .race {
        streak = week.cutback ? 0 : streak + 1
        // The week before the taper may skip its cut-back (the taper is the recovery).
        #expect(streak <= 3, "\(distance) \(level): week \(week.number), \(streak) full weeks in a row")
      }
      let plainCuts = plain.weeks.filter(\.cutback).count
      #expect(masters.weeks.filter(\.cutback).count >= plainCuts)
    }
  }

  @Test func underFiftyTheAgeChangesNothingButTheID() throws {
    let plain = try Self.plan(.half, .intermediate, weeks: 16, born: nil)
    let younger = try Self.plan(.half, .intermediate, weeks: 16, born: 1980)
    // The same weeks (the workouts' ids carry the plan's id, which hashes the birth year).
    func shape(_ plan: Plan) -> [[String]] {
      plan.weeks.map { week in week.workouts.map { "\($0.date) \($0.kind.rawValue) \($0.distanceKm) \($0.title)" } }
    }
    #expect(shape(plain) == shape(younger))
    #expect(plain.warnings == younger.warnings)
  }

  /// The issue's command 11: `plan --distance half --level intermediate --weeks 14` with birth year 1966.
  @Test func issueCommandElevenHalfAtSixtyOne() throws {
    var goal = goal(.half, .intermediate, weeks: 14)
    let plain = try makePlan(goal: goal, rules: repositoryRules)
    goal.birthYear = 1966
    let masters = try makePlan(goal: goal, rules: repositoryRules)
    #expect(plain.weeks != masters.weeks)
    #expect(masters.weeks.filter(\.cutback).count > plain.weeks.filter(\.cutback).count)
  }
}
