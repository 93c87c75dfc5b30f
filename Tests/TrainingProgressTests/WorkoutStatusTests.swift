import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain
import TrainingProgress

/// The one status rule (``PlanStatus``): done from 80 % of the plan, partial below, missed, and the day statuses.
@Suite struct WorkoutStatusTests {
  func plan() throws -> Plan {
    var plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    plan.id = "p1"
    return plan
  }

  func run(_ workout: Workout, km: Double, plan: Plan) -> Completion {
    Completion(
      date: workout.date, distanceKm: km, durationSeconds: km * 360, planID: plan.id, workoutID: workout.id,
      status: .done)
  }

  @Test func aLongRunCoveredUnder80PercentIsPartialWhateverItsStoredStatus() throws {
    let plan = try plan()
    let long = try #require(plan.weeks[0].workouts.first { $0.kind == .long })
    let after = plan.weeks[1].start
    // Stored as done (an older version, or another rule): the one rule says partial (43 %: 3.7 of 8.6 km).
    let short = run(long, km: long.distanceKm * 0.43, plan: plan)
    let status = PlanStatus(plan: plan, runs: [short], today: after)
    #expect(status.status(of: long) == .partial)
    #expect(status.status(on: long.date) == .partial)
    #expect(status.compliance(of: long) == .farShort)
    #expect(
      PlanStatus(plan: plan, runs: [run(long, km: long.distanceKm * 0.8, plan: plan)], today: after)
        .status(of: long) == .done)
    // Progress counts it as neither done nor missed: the same rule.
    let report = makeProgress(plan: plan, completions: [short], today: after)
    #expect(report.weeks[0].doneSessions == 0)
    #expect(report.weeks[0].missedSessions == plan.weeks[0].workouts.filter(\.kind.isRun).count - 1)
  }

  @Test func aRunOfAnotherPlanDoesNotTickOffAWorkoutOfTheSameID() throws {
    let plan = try plan()
    let first = try #require(plan.weeks[0].workouts.first)
    var other = run(first, km: first.distanceKm, plan: plan)
    other.planID = "another"
    let status = PlanStatus(plan: plan, runs: [other], today: plan.weeks[1].start)
    #expect(status.status(of: first) == .missed)
    #expect(status.status(on: first.date) == .missed)
  }

  @Test func daysWithoutAWorkoutAreExtraMovedSkippedOrRest() throws {
    let plan = try plan()
    let week = plan.weeks[0]
    let runDays = Set(week.workouts.map(\.date))
    let free = (0..<7).map { week.start.adding(days: $0) }.filter { !runDays.contains($0) }
    #expect(free.count >= 3)
    let extra = Completion(date: free[0], distanceKm: 5, durationSeconds: 1800)
    let status = PlanStatus(
      plan: plan, runs: [extra], today: plan.weeks[1].start, plannedDays: ["x": free[1]], dropped: [free[2]])
    #expect(status.status(on: free[0]) == .extra)
    #expect(status.status(on: free[1]) == .moved)
    #expect(status.status(on: free[2]) == .skipped)
    #expect(free.count < 4 || status.status(on: free[3]) == .rest)
  }

  @Test func aStrengthDayIsDoneByAStrengthSessionNotByARide() throws {
    var plan = try plan()
    let day = plan.weeks[0].start.adding(days: 6)
    var strength = try #require(plan.weeks[0].workouts.first)
    strength.id = "s1"
    strength.date = day
    strength.kind = .strength
    strength.distanceKm = 0
    plan.weeks[0].workouts.append(strength)
    func activity(_ sport: Sport) -> Completion {
      Completion(date: day, distanceKm: 0, durationSeconds: 1200, sport: sport)
    }
    let later = day.adding(days: 1)
    #expect(
      PlanStatus(plan: plan, runs: [], crossTraining: [activity(.cycling)], today: later).status(of: strength)
        == .notLogged)
    #expect(
      PlanStatus(plan: plan, runs: [], crossTraining: [activity(.strengthTraining)], today: later)
        .status(of: strength) == .done)
    #expect(PlanStatus(plan: plan, runs: [], today: day).status(of: strength) == .today)
  }
}
