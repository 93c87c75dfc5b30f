import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain

/// The coach API's storage on both engines: accounts (one per login in any case), session tokens (valid until they
/// expire or are revoked), comments on workouts, the audit log written in the same transactions, and one plan's runs
/// read by date range.
@Suite(.timeLimit(.minutes(1))) struct AccountStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000.123)

  @Test(arguments: Engine.available) func accountsTokensCommentsAndTheAuditLog(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    var coachProfile = Profile(name: "kim")
    coachProfile.isCoach = true
    let kim = try #require(try db.createProfile(coachProfile).id)
    let anna = try #require(try db.createProfile(Profile(name: "anna")).id)

    let coach = try db.createAccount(
      login: "Kim@Example.com", role: .coach, profileID: kim, passwordHash: "$2b$x", at: now)
    #expect(coach.login == "Kim@Example.com" && coach.role == .coach && coach.profileName == "kim")
    #expect(throws: LogbookError.accountExists(login: "kim@example.COM")) {
      try db.createAccount(login: "kim@example.COM", role: .athlete, profileID: anna, passwordHash: "h", at: now)
    }
    #expect(try db.account(login: "KIM@example.com")?.id == coach.id)
    #expect(try db.account(login: "nobody") == nil)
    let athlete = try db.createAccount(login: "anna", role: .athlete, profileID: anna, passwordHash: "h", at: now)

    // A token opens its account until it expires or is revoked.
    let hash = [UInt8](repeating: 7, count: 32)
    try db.createSessionToken(accountID: coach.id, tokenHash: hash, at: now, expiresAt: now.addingTimeInterval(60))
    #expect(try store.open().sessionAccount(tokenHash: hash, at: now.addingTimeInterval(59))?.id == coach.id)
    #expect(try db.sessionAccount(tokenHash: hash, at: now.addingTimeInterval(61)) == nil)
    #expect(try db.sessionAccount(tokenHash: [UInt8](repeating: 8, count: 32), at: now) == nil)
    #expect(try db.revokeSessionToken(tokenHash: hash, at: now))
    #expect(try db.sessionAccount(tokenHash: hash, at: now) == nil)
    #expect(try !db.revokeSessionToken(tokenHash: hash, at: now))

    // Comments by workout day, oldest first, each with its line in the audit log.
    let saved = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "p", activate: true)
    let first = try db.addComment(
      athleteID: anna, planID: saved.id, date: testStart, author: coach, text: "Easy does it", at: now)
    _ = try db.addComment(athleteID: anna, planID: saved.id, date: testStart, author: athlete, text: "Done!", at: now)
    _ = try db.addComment(
      athleteID: anna, planID: saved.id, date: testStart.adding(days: 1), author: coach, text: "Other day", at: now)
    let comments = try db.comments(athleteID: anna, planID: saved.id, date: testStart)
    #expect(comments.map(\.text) == ["Easy does it", "Done!"])
    #expect(comments.map(\.author) == ["kim", "anna"] && comments.map(\.role) == [.coach, .athlete])
    #expect(comments.first == first && comments.allSatisfy { $0.athlete == "anna" && $0.date == testStart })
    // Every plan's comments by number after one (what `runmate pull` asks), with their plan and day.
    let since = try db.comments(athleteID: anna, after: first.id, limit: 10)
    #expect(since.map(\.text) == ["Done!", "Other day"])
    #expect(since.last?.planID == saved.id && since.last?.date == testStart.adding(days: 1))
    #expect(try db.comments(athleteID: anna, after: 0, limit: 2).map(\.text) == ["Easy does it", "Done!"])
    #expect(try db.comments(athleteID: anna, after: since.last?.id ?? 0, limit: 10).isEmpty)
    let audit = try db.auditLog(limit: 100)
    #expect(
      audit.map(\.action) == [
        .commentAdded, .commentAdded, .commentAdded, .sessionRevoked, .sessionCreated, .accountCreated,
        .accountCreated,
      ])
    #expect(audit.first?.login == "Kim@Example.com" && audit.first?.athlete == "anna")
    #expect(audit.last?.login == nil && audit.last?.athlete == "kim")
    #expect(try db.auditLog(limit: 2).count == 2)
  }

  @Test(arguments: Engine.available) func onePlansRunsAreReadByDateRange(engine: Engine) throws {
    let store = try TestStore(engine)
    defer { store.remove() }
    let db = try store.open()
    let plan = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules), name: "a", activate: true)
    let other = try db.savePlan(
      try makePlan(goal: goal(.tenK, .beginner, weeks: 10), rules: repositoryRules), name: "b", activate: false)
    func run(_ offset: Int, _ planID: String?, sport: Sport = .run) -> Completion {
      Completion(
        date: testStart.adding(days: offset), distanceKm: 5 + Double(offset), durationSeconds: 1800, planID: planID,
        sport: sport)
    }
    _ = try db.addCompletions([
      run(0, plan.id), run(3, plan.id), run(6, plan.id), run(7, plan.id), run(3, other.id), run(4, nil),
      run(5, plan.id, sport: .cycling),
    ])
    let week = try db.completions(planID: plan.id, from: testStart, through: testStart.adding(days: 6))
    #expect(week.map(\.date) == [0, 3, 6].map { testStart.adding(days: $0) })
    #expect(week.allSatisfy { $0.planID == plan.id && $0.isRun })
    #expect(try db.completions(planID: other.id, from: testStart, through: testStart.adding(days: 30)).count == 1)
    #expect(
      try db.completions(planID: plan.id, from: testStart.adding(days: 8), through: testStart.adding(days: 9)).isEmpty)
  }
}
