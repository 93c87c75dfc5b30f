import Foundation
import Ingest
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// Pushed runs on both engines: one run per athlete and identity, whatever the number of pushes; matched to the
/// plan's workouts; another athlete's run of the same day is not a twin; refused runs write nothing.
@Suite(.timeLimit(.minutes(1))) struct PushStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000.123)

  @Test(arguments: Engine.available) func aRunPushedTwiceIsOneRun(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let anna = try #require(try db.createProfile(Profile(name: "anna")).id)
    let ben = try #require(try db.createProfile(Profile(name: "ben")).id)
    let annaAccount = try db.createAccount(login: "anna", role: .athlete, profileID: anna, passwordHash: "h", at: now)
    let benAccount = try db.createAccount(login: "ben", role: .athlete, profileID: ben, passwordHash: "h", at: now)
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    let annaPlan = try db.savePlan(plan, name: "anna-10k", activate: true)
    try db.assignPlan(annaPlan.id, toProfile: anna)
    let benPlan = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 9), rules: repositoryRules), name: "ben-10k", activate: false)
    try db.assignPlan(benPlan.id, toProfile: ben)
    let workouts = plan.weeks[0].workouts.filter(\.kind.isRun)
    let slots = workouts.map {
      PlannedSlot(workoutID: $0.id, date: $0.date, kind: $0.kind, distanceKm: $0.distanceKm, weekStart: testStart)
    }
    let runs = workouts.prefix(3).enumerated().map { index, workout in
      PushedRun(
        clientID: "run-\(index)",
        run: Completion(date: workout.date, distanceKm: workout.distanceKm, durationSeconds: workout.distanceKm * 360))
    }

    let first = try db.pushRuns(runs, account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(first == PushOutcome(added: 3, alreadyThere: 0, twins: 0))
    let stored = try db.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 6))
    #expect(stored.map(\.workoutID) == workouts.prefix(3).map { Optional($0.id) })
    // The same runs again, and one more: only the new one is stored.
    let extra = PushedRun(
      clientID: "run-extra", run: Completion(date: testStart.adding(days: 6), distanceKm: 3, durationSeconds: 1100))
    let second = try db.pushRuns(runs + [extra], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(second == PushOutcome(added: 1, alreadyThere: 3, twins: 0))
    // The same run from a device, under another identity, is a twin of the hand-logged one, not a second run.
    var again = runs[0]
    again.clientID = "watch-0"
    again.run.source = .gpx
    let third = try db.pushRuns([again], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(third == PushOutcome(added: 0, alreadyThere: 0, twins: 1))
    #expect(try db.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 6)).count == 4)
    // Ben's run of the same day, with the same identity, is his: not a twin of Anna's, not already there.
    let bens = try db.pushRuns([runs[0]], account: benAccount, planID: benPlan.id, slots: [], at: now)
    #expect(bens == PushOutcome(added: 1, alreadyThere: 0, twins: 0))
    let audit = try db.auditLog(limit: 10).filter { $0.action == .runsPushed }
    #expect(audit.map(\.athlete) == ["ben", "anna", "anna", "anna"])

    // An impossible run refuses the whole push: nothing written.
    let bad = PushedRun(clientID: "bad", run: Completion(date: testStart, distanceKm: -1, durationSeconds: 60))
    let fresh = PushedRun(clientID: "fresh", run: Completion(date: testStart, distanceKm: 2, durationSeconds: 700))
    #expect(throws: LogbookError.self) {
      try db.pushRuns([fresh, bad], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    }
    #expect(try db.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 6)).count == 4)
    let retry = try db.pushRuns([fresh], account: annaAccount, planID: annaPlan.id, slots: slots, at: now)
    #expect(retry.added + retry.twins == 1)
  }
}
