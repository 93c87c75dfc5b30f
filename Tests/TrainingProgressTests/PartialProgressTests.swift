import PlanEngine
import RunMateTestSupport
import Testing
import TrainingDomain
import TrainingProgress

@Suite struct PartialProgressTests {
  @Test func aPartialRunIsNeitherDoneNorMissedButItsKilometresCount() throws {
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let week1 = plan.weeks[0]
    let long = try #require(week1.workouts.last)
    let short = Completion(
      date: long.date, distanceKm: long.distanceKm / 2, durationSeconds: long.distanceKm * 200,
      planID: plan.id, workoutID: long.id, status: .partial)
    let report = makeProgress(plan: plan, completions: [short], today: plan.weeks[1].start.adding(days: 2))
    #expect(report.weeks[0].doneSessions == 0)
    #expect(report.weeks[0].missedSessions == week1.workouts.count - 1)
    #expect(report.weeks[0].extraRuns == 0)
    #expect(report.weeks[0].doneKm == long.distanceKm / 2)
  }
}
