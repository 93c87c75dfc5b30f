import CoachAPI
import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// Issue 44's new user, end to end: a runner's logbook copied to the coach's server (`database copy`), `account
/// login` and `push`, the coach's new goal time for the block under way (`PUT …/plan`), and the runner's `pull`. The
/// runs are not doubled, and no day before today changes, on the server or in the runner's logbook; the rebuilt
/// weeks ramp from the runs done.
@Suite(.serialized, .timeLimit(.minutes(4)), .tags(.endToEnd)) struct CoachAgreementTests {
  let commands = PushCommandTests()

  @Test func copyPushANewGoalTimeAndPullKeepOneTruth() async throws {
    let folder = try temporaryDirectory("coach-agreement")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The runner: a 12-week intermediate half, weeks 1 to 6 run as planned (one run a device's), today Wednesday of
    // week 7.
    let local = folder.appendingPathComponent("maya.sqlite")
    let athlete = try openStore(at: local.path)
    var profile = Profile(name: "maya")
    profile.timeZone = "UTC"
    _ = try athlete.createProfile(profile)
    let plan = try makePlan(
      goal: goal(.half, .intermediate, weeks: 12, currentKm: 40, longestKm: 14), rules: repositoryRules)
    let saved = try athlete.savePlan(plan, name: "spring", activate: true)
    let today = plan.weeks[6].start.adding(days: 2)
    let done = plan.weeks.prefix(6).flatMap(\.workouts).filter(\.kind.isRun)
    for (index, workout) in done.enumerated() {
      let device = index == 3
      let start = Date(timeIntervalSince1970: Double(workout.date.dayNumber) * 86400 + 7 * 3600)
      _ = try athlete.addRuns(
        [
          Completion(
            date: workout.date, startedAt: device ? start : nil, distanceKm: workout.distanceKm,
            durationSeconds: workout.distanceKm * 330, source: device ? .gpx : .manual)
        ], plan: "spring")
    }
    let runs = try athlete.completions()
    #expect(runs.count == done.count)
    let pastBefore = plan.weeks.flatMap(\.workouts).filter { $0.date < today }

    // The coach's server: the logbook copied whole, a coach and the two accounts.
    let serverPath = folder.appendingPathComponent("server.sqlite").path
    _ = try copyStore(from: local.path, to: serverPath)
    let store = try openStore(at: serverPath)
    var kim = Profile(name: "kim")
    kim.isCoach = true
    _ = try store.createProfile(kim)
    try store.addAthlete("maya", toCoach: "kim")
    let mayaID = try #require(try store.profile(named: "maya")?.id)
    try store.assignPlan(saved.id, toProfile: mayaID)
    let clock = Date(timeIntervalSince1970: Double(today.dayNumber) * 86400 + 12 * 3600)
    for (login, role, name) in [("kim", "coach", "kim"), ("maya", "athlete", "maya")] {
      _ = try createAccount(
        login: login, role: role, profile: name, password: password, in: store, now: clock, cost: 4)
    }
    let server = try await APIServer.start(store, now: { clock })
    let config = folder.appendingPathComponent("config")
    let env = ["RUNMATE_CONFIG_DIR": config.path]
    let url = "http://127.0.0.1:\(server.port)"
    let now = ["--now", clock.formatted(.iso8601)]

    // Push: every run is already there (the copy carried each identity); nothing doubled.
    let login = try await commands.login([url, "--email", "maya"], password: password, database: local, config: config)
    #expect(login.status == 0, "\(login.stderr)")
    let pushed = try await commands.cli(["push"], database: local, environment: env)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    #expect(
      pushed.stdout.hasSuffix("Pushed \(runs.count) runs to \(url) (\(runs.count) already there)\n"), "\(pushed.stdout)"
    )
    #expect(try store.completions().count == runs.count)

    // The coach's new goal time for the same race: the block is edited, not restarted.
    let kimToken = try await server.login("kim")
    let put = try await server.send(
      .PUT, "/api/v1/athletes/maya/plan", token: kimToken,
      json: #"{"distance":"half","race_date":"\#(plan.goal.raceDate)","goal_time":"1:45:00"}"#)
    #expect(put.status == 200, "\(put.text)")
    let answer = put.object
    let assigned = try #require(answer["plan"] as? [String: Any])
    #expect(assigned["plan_id"] as? String == saved.id, "the same plan: its runs and comments stay with it")
    let changes = try #require(answer["changes"] as? [[String: Any]])
    #expect(!changes.isEmpty)
    #expect(changes.allSatisfy { ($0["date"] as? String).flatMap(CivilDate.init(iso:)).map { $0 >= today } == true })
    let onServer = try store.plan(named: "spring")
    #expect(onServer.id == saved.id)
    #expect(onServer.plan.weeks.flatMap(\.workouts).filter { $0.date < today } == pastBefore)
    // The weeks from today ramp from the runs done: no long run jumps past the spike guard over the longest done.
    let longestDone = done.map(\.distanceKm).max() ?? 0
    let nextLong = try #require(
      onServer.plan.weeks.flatMap(\.workouts).first { $0.date >= today && $0.kind == .long })
    #expect(nextLong.distanceKm <= longestDone * 1.1 + 0.05, "\(nextLong.distanceKm) after \(longestDone)")

    // The coach's views count every run once, on its week.
    let weeks = try await server.send(.GET, "/api/v1/athletes/maya/weeks", token: kimToken)
    #expect(weeks.status == 200, "\(weeks.text)")

    // Pull: the runner's logbook takes the change from today on; the past and the runs are as they were.
    let pulled = try await commands.cli(["pull"] + now, database: local, environment: env)
    #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
    let localPlan = try athlete.plan(named: "spring")
    #expect(localPlan.id == saved.id)
    #expect(localPlan.plan.weeks.flatMap(\.workouts).filter { $0.date < today } == pastBefore)
    #expect(
      localPlan.plan.weeks.flatMap(\.workouts).filter { $0.date >= today }
        == onServer.plan.weeks.flatMap(\.workouts).filter { $0.date >= today })
    #expect(try athlete.completions() == runs)
    for line in pulled.stdout.split(separator: "\n") where line.hasPrefix("changed") || line.hasPrefix("added") {
      #expect(!line.contains(" W1 ") && !line.contains(" W6 "), "a past week changed: \(line)")
    }
    // A second push stores nothing: the athlete's and the coach's counts agree.
    let again = try await commands.cli(["push"], database: local, environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try store.completions().count == runs.count)
    await server.stop()
  }
}
