import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// A coach's plan for an athlete on both engines: saved with its schedule as the athlete's only assigned plan (the
/// earlier one kept, unassigned), never made the active plan, with its line in the audit log, all in one
/// transaction; a name another plan holds is refused with nothing written.
@Suite(.timeLimit(.minutes(1))) struct AthletePlanStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000.123)

  @Test(arguments: Engine.available) func anAthletesPlanIsSavedAssignedAndAudited(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    var coachProfile = Profile(name: "kim")
    coachProfile.isCoach = true
    let kim = try #require(try db.createProfile(coachProfile).id)
    let anna = try #require(try db.createProfile(Profile(name: "anna")).id)
    let coach = try db.createAccount(login: "kim", role: .coach, profileID: kim, passwordHash: "h", at: now)
    let local = try db.savePlan(
      try makePlan(goal: goal(.fiveK, .beginner, weeks: 8), rules: repositoryRules), name: "mine", activate: true)
    let old = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "old", activate: false)
    try db.assignPlan(old.id, toProfile: anna)

    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules).owned(by: "anna")
    let dated = plan.workouts.prefix(3).map { workout in
      DatedWorkout(
        workoutID: workout.id, week: 1, date: workout.date, plannedDate: workout.date, startMinute: 390,
        timeZoneID: "Europe/Berlin", kind: workout.kind, distanceKm: workout.distanceKm)
    }
    let saved = try db.saveAthletePlan(
      plan, name: "anna-10k", schedule: (nil, Array(dated)), athleteID: anna, by: coach, action: .planAssigned,
      detail: "plan \(plan.id)", at: now)
    #expect(saved.id == plan.id && !saved.active)
    #expect(try db.plans(ofProfile: anna).map(\.id) == [plan.id])
    #expect(try db.plans().map(\.name).sorted() == ["anna-10k", "mine", "old"])
    #expect(try db.plan(named: nil).id == local.id, "the active plan stays the active plan")
    #expect(try db.scheduledWorkouts(ofPlan: plan.id).map(\.workoutID) == dated.map(\.workoutID))
    let entry = try #require(try db.auditLog(limit: 1).first)
    #expect(entry.action == .planAssigned && entry.login == "kim" && entry.athlete == "anna")
    #expect(entry.detail == "plan \(plan.id)")

    // Saved again (a rebuild): the same plan replaced, still the athlete's.
    _ = try db.saveAthletePlan(
      plan, name: "anna-10k", schedule: (nil, []), athleteID: anna, by: coach, action: .planRegenerated,
      detail: "rebuilt", at: now)
    #expect(try db.plans(ofProfile: anna).map(\.id) == [plan.id])
    #expect(try db.scheduledWorkouts(ofPlan: plan.id).isEmpty)

    // A name another plan holds: refused, nothing written.
    let other = try makePlan(goal: goal(.half, .beginner, weeks: 12), rules: repositoryRules).owned(by: "anna")
    #expect(throws: LogbookError.planNameTaken(name: "mine")) {
      try db.saveAthletePlan(
        other, name: "mine", schedule: (nil, []), athleteID: anna, by: coach, action: .planAssigned, detail: "x",
        at: now)
    }
    #expect(try db.plans(ofProfile: anna).map(\.id) == [plan.id])
    #expect(try db.auditLog(limit: 10).count == 3)
  }

  @Test func aPlanOwnedByTwoRunnersIsTwoPlans() throws {
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let anna = plan.owned(by: "anna")
    let ben = plan.owned(by: "ben")
    #expect(anna.id != ben.id && anna.id != plan.id && anna.id == plan.owned(by: "anna").id)
    #expect(anna.id.count == plan.id.count && anna.id.hasPrefix("rm-"))
    #expect(anna.workouts.allSatisfy { $0.id.hasPrefix(anna.id + "-") })
    #expect(anna.workouts.map(\.slot) == plan.workouts.map(\.slot))
    #expect(anna.workouts.map(\.distanceKm) == plan.workouts.map(\.distanceKm))
  }
}
