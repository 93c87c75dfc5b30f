import Foundation
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
    #expect(report.weeks[0].done.kilometers == long.distanceKm / 2)
  }

  /// A week paused whole (the runner was ill) with nothing run is excused: its runs count as paused, not missed, and
  /// it has no compliance; a week paused in part keeps its compliance and its missed runs.
  @Test func aWeekPausedWholeIsExcusedNotZeroPercent() throws {
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let week2 = plan.weeks[1]
    let today = plan.weeks[2].start.adding(days: 2)
    let whole = makeProgress(
      plan: plan, completions: [], today: today, paused: [week2.start...week2.start.adding(days: 6)])
    let runs = week2.workouts.filter(\.kind.isRun).count
    #expect(whole.weeks[1].pausedSessions == runs && whole.weeks[1].missedSessions == 0)
    #expect(whole.weeks[1].isPaused && whole.weeks[1].compliancePercent == nil)
    #expect(!whole.weeks[0].isPaused && whole.weeks[0].compliancePercent == 0, "the week before was missed")
    #expect(whole.weeks[1].standing == .paused && whole.weeks[0].standing == .percent(0))
    // runmate.progress/1 says it: `paused`, and no compliance_percent.
    let written = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(whole.weeks)) as? [[String: Any]])
    #expect(written.map { $0["paused"] as? Bool } == whole.weeks.map { $0.isPaused })
    #expect(written[1]["paused"] as? Bool == true && written[1]["compliance_percent"] == nil)

    let part = makeProgress(
      plan: plan, completions: [], today: today, paused: [week2.start...week2.start.adding(days: 2)])
    #expect(!part.weeks[1].isPaused && part.weeks[1].compliancePercent == 0)
    #expect(part.weeks[1].pausedSessions + part.weeks[1].missedSessions == runs)

    // A replan takes the paused week's workouts out of the plan: with none left, the week is still paused (not an
    // empty week with no compliance), and only when all its days are in pauses.
    var replanned = plan
    replanned.weeks[1].workouts = []
    let emptied = makeProgress(
      plan: replanned, completions: [], today: today,
      paused: [week2.start...week2.start.adding(days: 3), week2.start.adding(days: 4)...week2.start.adding(days: 6)])
    #expect(emptied.weeks[1].plannedSessions == 0 && emptied.weeks[1].isPaused && emptied.weeks[1].standing == .paused)
    let halfEmptied = makeProgress(
      plan: replanned, completions: [], today: today, paused: [week2.start...week2.start.adding(days: 5)])
    #expect(!halfEmptied.weeks[1].isPaused)
  }
}
