import AsyncHTTPClient
import Foundation
import NIOHTTP1
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// A coach assigns and rebuilds an athlete's plan through the API (a real server and client on a SQLite file): the
/// engine's plan saved as the athlete's, the changes against the old plan, bad values refused with nothing written,
/// the audit log, and the roster's fitness, fatigue and form.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PlanAssignmentTests {
  static let half =
    #"{"distance":"half","level":"beginner","race_date":"2027-04-25","run_days":["tue","thu","sat","sun"],"#
    + #""long_run_day":"sun","goal_time":"2:05:00"}"#

  @Test func aCoachAssignsANewPlanMadeByTheEngine() async throws {
    try await withServedClub { club, server in
      let token = try await server.login("kim@example.com")
      let annaID = try #require(try club.store.profile(named: "anna")?.id)
      let before = try #require(try club.store.plans(ofProfile: annaID).first)

      let answer = try await server.send(.PUT, "/api/v1/athletes/anna/plan", token: token, json: Self.half)
      #expect(answer.status == 200, "\(answer.text)")
      let plan = try #require(answer.object["plan"] as? [String: Any])
      #expect(plan["distance"] as? String == "half" && plan["race_date"] as? String == "2027-04-25")
      #expect(plan["goal_time_s"] as? Int == 7500)
      #expect(answer.object["saved"] as? Bool == true)
      // The athlete's plan is the new one, as the engine makes it for these values on the athlete's day.
      let assigned = try club.store.plans(ofProfile: annaID)
      #expect(assigned.map(\.id) == [try #require(plan["plan_id"] as? String)])
      let saved = try #require(assigned.first)
      #expect(saved.plan.goal.runDays == [.tuesday, .thursday, .saturday, .sunday])
      let today = try #require(CivilDate(iso: "2027-01-06"))
      let engine = try makePlan(
        goal: Goal(
          distance: .half, level: .beginner,
          timeline: try Timeline.resolve(
            weeks: nil, raceDate: CivilDate(iso: "2027-04-25"), start: nil, today: today, maxWeeks: 40,
            longRunDay: .sunday),
          runDays: [.tuesday, .thursday, .saturday, .sunday], longRunDay: .sunday, goalTimeSeconds: 7500),
        rules: repositoryRules)
      #expect(saved.plan.weeks.map(\.plannedKm) == engine.weeks.map(\.plannedKm))
      #expect(saved.plan.id != engine.id, "the athlete's own plan, not the bare goal's")
      // The old plan's workouts from today on are cancelled or changed, the new ones added, by day.
      let changes = try #require(answer.object["changes"] as? [[String: Any]])
      let kinds = Set(changes.compactMap { $0["change"] as? String })
      #expect(kinds.isSuperset(of: ["added"]) && !kinds.isDisjoint(with: ["cancelled", "changed"]))
      let oldFuture = before.plan.workouts.filter { $0.date >= today }.count
      let replaced = changes.filter { ["cancelled", "changed"].contains($0["change"] as? String) }.count
      #expect(replaced <= oldFuture && replaced > 0)
      #expect(changes.allSatisfy { ($0["date"] as? String ?? "") >= "2027-01-06" })
      // Audited, by the coach, about the athlete.
      let entry = try #require(try club.store.auditLog(limit: 5).first)
      #expect(entry.action == .planAssigned && entry.login == "kim@example.com" && entry.athlete == "anna")
      #expect(entry.detail.contains(saved.id))
      // The other endpoints read it.
      let weeks = try await server.send(.GET, "/api/v1/athletes/anna/weeks", token: token)
      #expect((weeks.object["weeks"] as? [Any])?.count == saved.plan.weeks.count)

      // The same request again is the same plan: nothing changes.
      let again = try await server.send(.PUT, "/api/v1/athletes/anna/plan", token: token, json: Self.half)
      #expect(again.status == 200)
      #expect((again.object["plan"] as? [String: Any])?["plan_id"] as? String == saved.id)
      #expect((again.object["changes"] as? [Any])?.isEmpty == true)
    }
  }

  @Test func twoAthletesWithTheSameGoalHoldTwoPlans() async throws {
    let club = try Club()
    defer { club.remove() }
    try club.store.addAthlete("ben", toCoach: "kim")
    let server = try await APIServer.start(club.store)
    defer { Task { await server.stop() } }
    let token = try await server.login("kim@example.com")
    var ids: [String] = []
    for athlete in ["anna", "ben"] {
      let answer = try await server.send(.PUT, "/api/v1/athletes/\(athlete)/plan", token: token, json: Self.half)
      #expect(answer.status == 200, "\(answer.text)")
      ids.append(try #require((answer.object["plan"] as? [String: Any])?["plan_id"] as? String))
    }
    #expect(Set(ids).count == 2)
    for (athlete, id) in zip(["anna", "ben"], ids) {
      let profile = try #require(try club.store.profile(named: athlete)?.id)
      #expect(try club.store.plans(ofProfile: profile).map(\.id) == [id])
    }
  }

  @Test(arguments: [
    (
      #"{"distance":"7k","level":"beginner","weeks":8}"#,
      "distance: '7k' is not valid, allowed is 5k, 10k, 15k, 10mi, half (or half-marathon, 21.1k), marathon "
        + "(did you mean '5k'?)"
    ),
    (
      #"{"distance":"10k","level":"begginer","weeks":8}"#,
      "level: 'begginer' is not valid, allowed is beginner, intermediate, advanced (did you mean 'beginner'?)"
    ),
    (
      #"{"distance":"10k","level":"beginner","weeks":8,"run_days":["tue","thr","sun"]}"#,
      "run_days: 'thr' is not valid, allowed is mon, tue, wed, thu, fri, sat, sun (did you mean 'thu'?)"
    ),
    (
      #"{"distance":"10k","level":"beginner","race_date":"2027-02-30"}"#,
      "race_date: '2027-02-30' is not valid, allowed is a date YYYY-MM-DD"
    ),
    (
      #"{"distance":"10k","level":"beginner","weeks":8,"current_weekly_km":900}"#,
      "current_weekly_km: '900.0' is not valid, allowed is 5 to 250 km"
    ),
    (
      #"{"distance":"10k","level":"beginner","weeks":8,"goal_time":"fast"}"#,
      "goal_time: 'fast' is not valid, allowed is a time as h:mm:ss or m:ss, such as 1:50:00 or 24:30"
    ),
  ])
  func aBadValueIsRefusedNamingItsFieldWithNothingWritten(body: String, message: String) async throws {
    try await withServedClub { club, server in
      let token = try await server.login("kim@example.com")
      let annaID = try #require(try club.store.profile(named: "anna")?.id)
      let before = try club.store.plans(ofProfile: annaID).map(\.id)
      let answer = try await server.send(.PUT, "/api/v1/athletes/anna/plan", token: token, json: body)
      #expect(answer.status == 400)
      #expect(answer.object["error"] as? String == message)
      #expect(try club.store.plans(ofProfile: annaID).map(\.id) == before)
      #expect(try club.store.auditLog(limit: 10).allSatisfy { $0.action != .planAssigned })
    }
  }

  @Test func theEnginesOwnRefusalNamesTheField() async throws {
    try await withServedClub { club, server in
      let token = try await server.login("kim@example.com")
      let answer = try await server.send(
        .PUT, "/api/v1/athletes/anna/plan", token: token, json: #"{"distance":"half","level":"beginner","weeks":4}"#)
      #expect(answer.status == 400)
      let message = try #require(answer.object["error"] as? String)
      #expect(message.hasPrefix("weeks: 4 is too short for a beginner half marathon plan"), "\(message)")
    }
  }

  /// Issue 44: a new plan is a new version from today on. A coach gives anna a half marathon plan begun this Monday,
  /// on the Wednesday of week 3 of her 10K plan: Monday and Tuesday keep the 10K plan's workouts with the runs
  /// matched to them, those runs count for the new plan (its first week shows them done), and every earlier day
  /// stays the 10K plan's with its runs.
  @Test func aNewPlanBegunThisWeekKeepsItsPastDaysAndTakesOverTheirRuns() async throws {
    let club = try Club()
    defer { club.remove() }
    let monday = try #require(CivilDate(iso: "2027-01-18"))
    let today = try #require(CivilDate(iso: "2027-01-20"))
    let annaID = try #require(try club.store.profile(named: "anna")?.id)
    let old = try #require(try club.store.plans(ofProfile: annaID).first)
    let done = old.plan.workouts.filter { $0.kind.isRun && $0.date >= testStart.adding(days: 7) && $0.date < today }
    try #require(done.contains { $0.date >= monday } && done.contains { $0.date < monday }, "\(done.map(\.date))")
    _ = try club.store.addRuns(
      done.map { Completion(date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360) },
      plan: "anna-10k")
    let matchedBefore = try club.store.completions(planID: old.id, from: testStart, through: today)
    let server = try await APIServer.start(club.store) { testNow.addingTimeInterval(14 * 86400) }
    defer { Task { await server.stop() } }
    let token = try await server.login("kim@example.com")

    let answer = try await server.send(
      .PUT, "/api/v1/athletes/anna/plan", token: token,
      json: #"{"distance":"half","level":"beginner","weeks":12,"start":"2027-01-18","long_run_day":"sun"}"#)
    #expect(answer.status == 200, "\(answer.text)")
    let new = try #require(try club.store.plans(ofProfile: annaID).first)
    #expect(new.id != old.id && new.plan.goal.distance == .half && new.plan.goal.start == monday)
    // Monday and Tuesday are as the 10K plan had them: the same workouts, ids and all.
    let kept = { (plan: Plan) in
      plan.workouts.filter { monday <= $0.date && $0.date < today }.map { "\($0.id) \($0.date) \($0.title)" }
    }
    #expect(kept(new.plan) == kept(old.plan) && !kept(new.plan).isEmpty)
    // Their runs moved with them, still holding those workouts; the runs before Monday stay the 10K plan's.
    let moved = try club.store.completions(planID: new.id, from: monday, through: today)
    let stayed = try club.store.completions(planID: old.id, from: testStart, through: today)
    let before = { (runs: [Completion]) in
      runs.map { "\($0.date) \($0.workoutID ?? "-") \($0.status?.rawValue ?? "-")" }
    }
    #expect(before(moved) == before(matchedBefore.filter { $0.date >= monday }))
    #expect(before(stayed) == before(matchedBefore.filter { $0.date < monday }))
    #expect(moved.allSatisfy { $0.workoutID != nil })
    // The coach's changes are the days from today on only.
    let changes = try #require(answer.object["changes"] as? [[String: Any]])
    #expect(!changes.isEmpty && changes.allSatisfy { ($0["date"] as? String ?? "") >= today.description })
    // The new plan's first week shows those runs done.
    let weeks = try await server.send(.GET, "/api/v1/athletes/anna/weeks", token: token)
    let first = try #require((weeks.object["weeks"] as? [[String: Any]])?.first)
    let doneKm = moved.reduce(0) { $0 + $1.distanceKm }
    #expect(abs((first["done_km"] as? Double ?? -1) - doneKm) < 0.11, "\(first)")
    #expect(first["done_sessions"] as? Int == moved.count, "\(first)")
  }

  @Test func aRebuildFollowsTheAthletesRuns() async throws {
    let club = try Club()
    defer { club.remove() }
    // Two and a half weeks into anna's plan with one run logged: the rebuild lowers what follows.
    let later = testNow.addingTimeInterval(16 * 86400)
    let server = try await APIServer.start(club.store) { later }
    defer { Task { await server.stop() } }
    let token = try await server.login("kim@example.com")
    let annaID = try #require(try club.store.profile(named: "anna")?.id)
    let before = try #require(try club.store.plans(ofProfile: annaID).first)

    let answer = try await server.send(.POST, "/api/v1/athletes/anna/plan/regenerate", token: token)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.object["saved"] as? Bool == true)
    #expect((answer.object["basis"] as? String)?.isEmpty == false)
    let changes = try #require(answer.object["changes"] as? [[String: Any]])
    #expect(!changes.isEmpty)
    let after = try #require(try club.store.plans(ofProfile: annaID).first)
    #expect(after.id == before.id && after.plan.goal.raceDate == before.plan.goal.raceDate)
    let cut = try #require(CivilDate(iso: "2027-01-22"))
    let futureKm = { (plan: Plan) -> Double in plan.workouts.filter { $0.date >= cut }.reduce(0) { $0 + $1.distanceKm }
    }
    #expect(futureKm(after.plan) < futureKm(before.plan))
    let entry = try #require(try club.store.auditLog(limit: 5).first)
    #expect(entry.action == .planRegenerated && entry.athlete == "anna")
  }

  @Test func theRosterShowsFormFromThePlansRuns() async throws {
    try await withServedClub { club, server in
      let token = try await server.login("kim@example.com")
      let roster = try await server.send(.GET, "/api/v1/roster", token: token)
      let anna = try #require(
        (roster.object["athletes"] as? [[String: Any]])?.first { $0["name"] as? String == "anna" })
      // As `runmate progress` has it, from every run of the plan (all of them inside the window here).
      let profile = try #require(try club.store.profile(named: "anna"))
      let profileID = try #require(profile.id)
      let saved = try #require(try club.store.plans(ofProfile: profileID).first)
      let state = try TrainingState.read(saved, db: club.store, profile: profile, systemZone: "UTC")
      let runs = try club.store.completions(planID: saved.id, from: testStart, through: testStart.adding(days: 60))
      let report = state.progress(runs, today: try #require(CivilDate(iso: "2027-01-06")))
      let fitness = try #require(report.fitness)
      #expect(anna["fitness"] as? Double == fitness && anna["fatigue"] as? Double == report.fatigue)
      #expect(anna["form"] as? Double == report.form)
      #expect(fitness > 0)
    }
  }
}
