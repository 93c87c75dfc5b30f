import Logbook
import PlanEngine
import RunMateTestSupport
import Testing
import TrainingProgress

@Suite struct ReplanTests {
  func plan() throws -> Plan { try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules) }

  /// Runs exactly as planned up to (not including) `day`, except the dates in `skipped`.
  func log(_ plan: Plan, until day: CivilDate, skipping skipped: Set<CivilDate> = []) -> [Completion] {
    plan.workouts.filter { $0.date < day && !skipped.contains($0.date) }.map {
      Completion(date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360, planID: plan.id,
                 workoutID: $0.id)
    }
  }

  @Test func missedWeekRebuildsTheRestAndKeepsTheInvariants() throws {
    let plan = try plan()
    let today = plan.weeks[5].start  // Monday of week 6
    let missed = Set(plan.weeks[4].workouts.map(\.date))  // week 5 missed entirely
    let result = try replan(plan, completions: log(plan, until: today, skipping: missed), today: today, pause: nil,
                            rules: repositoryRules)
    let new = result.plan
    #expect(new.id == plan.id)
    #expect(new.weeks.count == plan.weeks.count)
    #expect(Array(new.weeks.prefix(5)) == Array(plan.weeks.prefix(5)))  // the past is kept
    #expect(new.workouts.last?.kind == .race)
    #expect(new.workouts.last?.date == plan.goal.raceDate)
    #expect(new.workouts.allSatisfy { $0.id.hasPrefix(plan.id + "-w") })
    #expect(Set(new.workouts.map(\.id)).count == new.workouts.count)
    // The first rebuilt week ramps from what was run (nothing in week 5, so the 70 % floor of weeks 4-5's plan).
    let floor = 0.7 * (plan.weeks[3].plannedKm + plan.weeks[4].plannedKm) / 2
    let ramp = min(0.1 * floor, 1.6 * Double(plan.goal.runsPerWeek))
    #expect(new.weeks[5].plannedKm <= floor + ramp + 0.05)
    #expect(new.weeks[5].plannedKm < plan.weeks[5].plannedKm)
    // Never two hard days in a row across the seam.
    let hard = new.workouts.filter(\.hard).map(\.date.dayNumber)
    for (a, b) in zip(hard, hard.dropFirst()) { #expect(b - a >= 2) }
    #expect(!result.changes.isEmpty)
    #expect(result.changes.allSatisfy { $0.number >= 6 })
  }

  @Test func pauseEmptiesItsDaysAndRestartsAfterIt() throws {
    let plan = try plan()
    let today = plan.weeks[3].start
    let pause = plan.weeks[3].start...plan.weeks[3].start.adding(days: 6)
    let result = try replan(plan, completions: log(plan, until: today), today: today, pause: pause, rules: repositoryRules)
    #expect(!result.plan.workouts.contains { pause.contains($0.date) })
    #expect(result.basis.hasPrefix("70 % of the week before the pause"))
    #expect(result.plan.workouts.last?.date == plan.goal.raceDate)
  }

  @Test func aPauseOverRaceDayIsRefused() throws {
    let plan = try plan()
    let race = plan.goal.raceDate
    #expect(throws: ReplanError.pauseOverlapsRace(pauseEnd: race, raceDate: race)) {
      try replan(plan, completions: [], today: plan.weeks[2].start, pause: race.adding(days: -3)...race,
                 rules: repositoryRules)
    }
  }
}
