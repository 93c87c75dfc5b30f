import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// The roster rows a server keeps (``RosterCache``) are used again only while the store's fingerprint of what they
/// were made from is the same: any write to an athlete's profile, plan, dated workouts or runs in the load window
/// shows at once, and a cached roster is the one worked out afresh.
@Suite(.timeLimit(.minutes(1))) struct RosterCacheTests {
  /// A day in the fifth week of the test plans (they start on `testStart`).
  let today = testStart.adding(days: 30)

  /// A coach with two athletes: one on a 12-week plan under way on `today`, one run logged for it; one without.
  func coachAndAthlete(_ db: any TrainingStore, today: CivilDate) throws -> SavedPlan {
    var coach = Profile(name: "kim")
    coach.isCoach = true
    _ = try db.saveProfile(coach)
    let ana = try db.saveProfile(Profile(name: "ana"))
    try db.addAthlete("ana", toCoach: "kim")
    // A second athlete without a plan, whose name sorts first in byte order (upper case first).
    _ = try db.saveProfile(Profile(name: "Bo"))
    try db.addAthlete("Bo", toCoach: "kim")
    let plan = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    let saved = try db.savePlan(plan, name: "ana-half", activate: true)
    try db.assignPlan(saved.id, toProfile: try #require(ana.id))
    _ = try db.addCompletions([
      Completion(date: today.adding(days: -2), distanceKm: 8, durationSeconds: 2_800, planID: saved.id)
    ])
    return saved
  }

  func roster(_ db: any TrainingStore, _ cache: RosterCache?, _ today: CivilDate) throws -> [String] {
    try coachRoster(coach: "kim", in: db, systemZone: "UTC", cache: cache) { _ in today }.athletes.map {
      "\($0.name) \($0.planID ?? "-") \($0.week?.done.kilometers ?? -1) \($0.week?.planned.kilometers ?? -1) \($0.load?.fitness ?? -1)"
    }
  }

  @Test(arguments: Engine.available) func fingerprintsMoveWithEveryWriteTheRowIsMadeFrom(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let saved = try coachAndAthlete(db, today: today)
    let window = today.adding(days: -rosterLoadDays - 1)
    let first = try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)
    guard engine == .postgres else {
      #expect(first == nil)  // SQLite keeps none: every row is worked out
      return
    }
    let start = try #require(first?["ana"])
    #expect(try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)?["ana"] == start)  // stable
    // A run long before the window leaves it; one inside moves it; deleting it moves it again.
    _ = try db.addCompletions([
      Completion(date: window.adding(days: -30), distanceKm: 5, durationSeconds: 1_800, planID: saved.id)
    ])
    #expect(try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)?["ana"] == start)
    let added = try db.addCompletions([
      Completion(date: today.adding(days: -1), distanceKm: 5, durationSeconds: 1_800, planID: saved.id)
    ])
    let withRun = try #require(try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)?["ana"])
    #expect(withRun != start)
    _ = try db.deleteCompletion(id: try #require(added.first?.id))
    let afterDelete = try #require(try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)?["ana"])
    #expect(afterDelete != withRun)
    // The profile, and the plan's schedule, move it too.
    _ = try db.updateProfile(named: "ana") { profile in
      var profile = profile
      profile.timeZone = "Europe/Berlin"
      return profile
    }
    let afterProfile = try #require(try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)?["ana"])
    #expect(afterProfile != afterDelete)
    try db.saveSchedule(planID: saved.id, settings: nil, workouts: [])
    #expect(try db.rosterFingerprints(ofCoach: "kim", runsFrom: window)?["ana"] != afterProfile)
  }

  @Test(arguments: Engine.available) func aCachedRosterIsTheRosterWorkedOutAfresh(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let saved = try coachAndAthlete(db, today: today)
    let cache = RosterCache()
    let fresh = try roster(db, nil, today)
    #expect(fresh.count == 2 && fresh[0].hasPrefix("Bo -"), "\(fresh)")
    #expect(try roster(db, cache, today) == fresh)
    #expect(try roster(db, cache, today) == fresh)  // from the cache on PostgreSQL
    // A run logged by another process (another store on the same database) shows at once.
    _ = try store.open().addCompletions([
      Completion(date: today.adding(days: -1), distanceKm: 6, durationSeconds: 2_100, planID: saved.id)
    ])
    let after = try roster(db, nil, today)
    #expect(after != fresh)
    #expect(try roster(db, cache, today) == after)
    // The next day is a new row (its week, its load).
    #expect(try roster(db, cache, today.adding(days: 1)) == roster(db, nil, today.adding(days: 1)))
  }
}
