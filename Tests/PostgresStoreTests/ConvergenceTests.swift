import Foundation
import NIOHTTP1
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// Issue 44's convergence property: whatever order a runner and a coach do things in, after a final push and pull
/// they agree. A runner's SQLite logbook (a 14-week half, five weeks in) is copied to a coach's PostgreSQL database
/// served by two `runmate serve --api` processes; then a seeded random interleaving of the runner's `log`, GPX
/// `import` (some the watch's record of a run logged by hand), `log delete`, `push` and `pull`, and the coach's new
/// goal time (`PUT …/plan`), a new plan for another race begun this Monday (`PUT …/plan` with a `start`), rebuild
/// (`…/plan/regenerate`) and comments, each through either server. After a final
/// push and pull: every run is on both sides once, with the same identity, day and distance; every week's done
/// distance and sessions are the same in the runner's `progress`, the coach's `/weeks` and (this week) the roster;
/// every comment is in the runner's logbook once; and no day before today holds another workout than at the start,
/// on either side. Everything runs on the real clock (the servers have no other), so "today" is today.
@Suite(.serialized, .timeLimit(.minutes(10)), .tags(.endToEnd)) struct ConvergenceTests {
  typealias Server = TwoServersTests.Server

  enum Step: String, CaseIterable {
    case log, importGPX, delete, push, pull, coachGoal, newPlan, regenerate, comment
  }

  static let coachPassword = "the coach's long password"
  static let athletePassword = "the runner's long password"

  @Test(arguments: [UInt64(44), 4_401, 440_102, 7, 2_026, 11, 303, 9_001])
  func athleteAndCoachAgreeAfterAnyInterleaving(seed: UInt64)
    async throws
  {
    guard Engine.available.contains(.postgres) else { return }
    var random = SplitMix(seed: seed)
    let folder = try temporaryDirectory("convergence")
    defer { try? FileManager.default.removeItem(at: folder) }
    let local = folder.appendingPathComponent("maya.sqlite")
    let config = folder.appendingPathComponent("config")
    let database = try TestPostgres.newDatabase()
    var trail: [String] = []

    /// `runmate ARGUMENTS` on the runner's logbook; its outcome (the trail says what ran, for a failing seed).
    func athlete(_ arguments: [String], input: String = "", allowed: Set<Int32> = [0]) throws -> RunmateOutcome {
      trail.append(arguments.joined(separator: " "))
      let process = try runmateProcess(arguments, database: local, environment: ["RUNMATE_CONFIG_DIR": config.path])
      let stdin = Pipe()
      process.standardInput = stdin
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try stdin.fileHandleForWriting.close()
      let outcome = try runToEnd(process)
      let said =
        "seed \(seed), runmate \(arguments.joined(separator: " ")): \(outcome.stdout)\(outcome.stderr)\n"
        + trail.joined(separator: "\n")
      try #require(allowed.contains(outcome.status), "\(said)")
      return outcome
    }
    /// `runmate ARGUMENTS` on the coach's database.
    func onServer(_ arguments: [String], input: String = "") throws {
      try TwoServersTests().runmate(arguments, on: database, input: input)
    }

    // The runner: a 14-week half begun five weeks ago, a few runs logged.
    let utc = try #require(TimeZone(identifier: "UTC"))
    let today = try #require(CivilDate(Date(), in: utc))
    var start = today.adding(days: -35)
    while start.weekday != .monday { start = start.adding(days: -1) }
    _ = try athlete(["profile", "init", "maya", "--tz", "UTC", "--days", "tue,thu,sat,sun"])
    _ = try athlete([
      "plan", "--distance", "half", "--level", "intermediate", "--start", start.description, "--weeks", "14",
      "--save", "--name", "spring", "--current-weekly", "35", "--longest-recent-run", "12",
    ])
    let pastDays = (0..<today.dayNumber - start.dayNumber).map { start.adding(days: $0) }
    var gpxFiles = 0
    func logRun() throws {
      let day = pastDays.randomElement(using: &random)!
      let km = Double(Int.random(in: 40...140, using: &random)) / 10
      let seconds = Int(km * Double(Int.random(in: 300...390, using: &random)))
      _ = try athlete([
        "log", day.description, "--distance", "\(km)km", "--time",
        "\(seconds / 60):\(String(format: "%02d", seconds % 60))",
      ])
    }
    for _ in 0..<Int.random(in: 4...7, using: &random) { try logRun() }
    let pastBefore = try openStore(at: local.path).plan(named: "spring").plan.weeks.flatMap(\.workouts).filter {
      $0.date < today
    }

    // The coach's server: the logbook copied, a coach, both accounts, two servers; the runner logs in and pushes.
    _ = try athlete(["database", "copy", "--to", database])
    try onServer(["profile", "init", "kim", "--coach"])
    try onServer(["coach", "add-athlete", "maya", "--profile", "kim"])
    try onServer(
      ["account", "create", "--email", "kim", "--role", "coach", "--profile", "kim"], input: Self.coachPassword + "\n")
    try onServer(
      ["account", "create", "--email", "maya", "--role", "athlete", "--profile", "maya"],
      input: Self.athletePassword + "\n")
    let servers = [try Server(database: database), try Server(database: database)]
    defer { for server in servers { server.stop() } }
    _ = try athlete(
      ["account", "login", "http://127.0.0.1:\(servers[0].port)", "--email", "maya"],
      input: Self.athletePassword + "\n")
    _ = try athlete(["push"])
    let login = try await servers[1].send(
      .POST, "/api/v1/sessions", json: #"{"login":"kim","password":"\#(Self.coachPassword)"}"#)
    let token = try #require(login.object["token"] as? String, "\(login)")
    let assigned = try await servers[0].send(.GET, "/api/v1/athletes/maya/plan", token: token)
    let raceDate = try #require(assigned.object["race_date"] as? String, "\(assigned.object)")

    // The interleaving.
    for _ in 0..<16 {
      let server = servers.randomElement(using: &random)!
      switch Step.allCases.randomElement(using: &random)! {
      case .log:
        try logRun()
      case .importGPX:
        // Half the time the watch's record of a run logged by hand (a twin the logbook merges), else a new run.
        let runs = try openStore(at: local.path).completions().filter { $0.source == .manual }
        let twin = Bool.random(using: &random) ? runs.randomElement(using: &random) : nil
        let day = twin?.date ?? pastDays.randomElement(using: &random)!
        let km = (twin?.distanceKm ?? Double(Int.random(in: 50...120, using: &random)) / 10) * 1.01
        gpxFiles += 1
        let file = folder.appendingPathComponent("run-\(gpxFiles).gpx")
        try gpx(day: day, km: km, secondsPerKm: 330).write(to: file, atomically: true, encoding: .utf8)
        _ = try athlete(["import", file.path])
      case .delete:
        if let run = try openStore(at: local.path).completions().randomElement(using: &random), let id = run.id {
          _ = try athlete(["log", "delete", String(id)])
        }
      case .push:
        // Exit 69 when the coach changed the plan since the last pull: the runs are still sent.
        _ = try athlete(["push"], allowed: [0, 69])
      case .pull:
        _ = try athlete(["pull"])
      case .coachGoal:
        // A new goal time for the plan under way (the half, or the 10K of a new plan since).
        let current = try await server.send(.GET, "/api/v1/athletes/maya/plan", token: token).object
        let distance = current["distance"] as? String ?? "half"
        let race = current["race_date"] as? String ?? raceDate
        let goal =
          distance == "half"
          ? "1:\(Int.random(in: 38...55, using: &random)):00" : "\(Int.random(in: 42...52, using: &random)):00"
        trail.append("PUT plan \(distance) goal \(goal) via :\(server.port)")
        let put = try await server.send(
          .PUT, "/api/v1/athletes/maya/plan", token: token,
          json: #"{"distance":"\#(distance)","race_date":"\#(race)","goal_time":"\#(goal)"}"#)
        #expect(put.status == 200, "seed \(seed): PUT plan: \(put.object)")
      case .newPlan:
        // Another race, begun on this week's Monday: a new plan on both sides, its Monday to yesterday kept.
        var monday = today
        while monday.weekday != .monday { monday = monday.adding(days: -1) }
        let weeks = Int.random(in: 8...12, using: &random)
        trail.append("PUT plan 10k \(weeks) weeks from \(monday) via :\(server.port)")
        let put = try await server.send(
          .PUT, "/api/v1/athletes/maya/plan", token: token,
          json: #"{"distance":"10k","level":"intermediate","weeks":\#(weeks),"start":"\#(monday)"}"#)
        #expect(put.status == 200, "seed \(seed): PUT plan: \(put.object)")
      case .regenerate:
        trail.append("regenerate via :\(server.port)")
        let rebuilt = try await server.send(.POST, "/api/v1/athletes/maya/plan/regenerate", token: token)
        #expect(rebuilt.status == 200, "seed \(seed): regenerate: \(rebuilt.object)")
      case .comment:
        let day = today.adding(days: Int.random(in: -30...20, using: &random))
        trail.append("comment on \(day) via :\(server.port)")
        let posted = try await server.send(
          .POST, "/api/v1/athletes/maya/workouts/\(day)/comments", token: token,
          json: #"{"text":"Comment \#(trail.count)"}"#)
        // A day without a workout is refused (404): nothing to agree on.
        #expect([201, 404].contains(posted.status), "seed \(seed): comment: \(posted.object)")
      }
    }

    // The final push and pull (a push refused over a coach's change is pulled, then pushed again).
    if try athlete(["push"], allowed: [0, 69]).status == 69 {
      _ = try athlete(["pull"])
      _ = try athlete(["push"])
    }
    _ = try athlete(["pull"])
    let context = "seed \(seed):\n" + trail.joined(separator: "\n")

    // Every run on both sides once: the same identities, days and distances.
    let mine = try openStore(at: local.path).completions()
    let coachStore = try openStore(at: database)
    let theirs = try coachStore.completions()
    func key(_ run: Completion) -> String {
      "\(run.identity ?? "-") \(run.date) \(String(format: "%.3f", run.distanceKm))"
    }
    #expect(mine.count == theirs.count, "\(context)")
    #expect(mine.map(key).sorted() == theirs.map(key).sorted(), "\(context)")

    // Every week's planned and done distance: the runner's progress, the coach's weeks, the roster's week.
    let progress = try athlete(["progress", "--format", "json"]).stdout
    let runnerWeeks = try #require(
      (try JSONSerialization.jsonObject(with: Data(progress.utf8)) as? [String: Any])?["weeks"] as? [[String: Any]])
    let weeks = try await servers[1].send(.GET, "/api/v1/athletes/maya/weeks", token: token)
    let coachWeeks = try #require(weeks.object["weeks"] as? [[String: Any]])
    func km(_ value: Any?) -> String { String(format: "%.1f", (value as? Double) ?? Double(value as? Int ?? -1)) }
    func week(_ object: [String: Any]) -> String {
      "W\(object["number"] ?? "?") \(km(object["planned_km"])) planned, \(km(object["done_km"])) done"
    }
    #expect(runnerWeeks.map(week) == coachWeeks.map(week), "\(context)")
    let roster = try await servers[0].send(.GET, "/api/v1/roster", token: token)
    let entry = try #require((roster.object["athletes"] as? [[String: Any]])?.first { $0["name"] as? String == "maya" })
    let thisWeek = try #require(
      runnerWeeks.first { object in
        (object["start"] as? String).flatMap(CivilDate.init(iso:)).map { $0 <= today && today < $0.adding(days: 7) }
          == true
      })
    #expect(km(entry["done_km"]) == km(thisWeek["done_km"]), "\(context)")
    // Each run matched to the same workout, and so the same sessions done: matching is one function of a week's
    // runs (Ingest's canonicalMatches) on both sides, whatever order they were logged, pushed and deleted in (before,
    // seeds 44 and 4401 left a GPX run unmatched in the logbook and matched on the server: the workout a deleted
    // run freed was not offered again).
    func match(_ run: Completion) -> String {
      key(run) + " \(run.workoutID ?? "unmatched") \(run.status?.rawValue ?? "-")"
    }
    func sessions(_ object: [String: Any]) -> String { "W\(object["number"] ?? "?") \(object["done_sessions"] ?? "?")" }
    #expect(mine.map(match).sorted() == theirs.map(match).sorted(), "\(context)")
    #expect(runnerWeeks.map(sessions) == coachWeeks.map(sessions), "\(context)")
    #expect("\(entry["done_sessions"] ?? "?")" == "\(thisWeek["done_sessions"] ?? "?")", "\(context)")

    // No day before today holds another workout, on either side: the runner's first plan as it was, and the plan
    // in force (the same, or a new one since) with its days before today as that plan had them; the two plans of
    // today are one.
    let logbook = try openStore(at: local.path)
    #expect(
      try logbook.plan(named: "spring").plan.weeks.flatMap(\.workouts).filter { $0.date < today } == pastBefore,
      "\(context)")
    let localPlan = try logbook.plan(named: nil)
    let firstDay = localPlan.plan.weeks.first?.start ?? localPlan.plan.goal.start
    let pastInForce = pastBefore.filter { $0.date >= firstDay }
    #expect(localPlan.plan.weeks.flatMap(\.workouts).filter { $0.date < today } == pastInForce, "\(context)")
    let planID = try #require(
      (try await servers[0].send(.GET, "/api/v1/athletes/maya/plan", token: token)).object["plan_id"] as? String)
    #expect(planID == localPlan.id, "\(context)")
    let serverPlan = try #require(try coachStore.plans().first { $0.id == planID })
    #expect(serverPlan.plan.weeks.flatMap(\.workouts).filter { $0.date < today } == pastInForce, "\(context)")
    #expect(serverPlan.plan.weeks.flatMap(\.workouts) == localPlan.plan.weeks.flatMap(\.workouts), "\(context)")

    // Every comment is in the runner's logbook once, with whichever plan it was pulled for.
    let maya = try #require(try coachStore.profile(named: "maya")?.id)
    let written = try coachStore.comments(athleteID: maya, after: 0, limit: 1000)
    let kept = try logbook.plans().flatMap { plan in
      try logbook.pulledComments(planID: plan.id, from: start.adding(days: -7), through: start.adding(days: 7 * 30))
    }
    #expect(kept.map(\.text).sorted() == written.map(\.text).sorted(), "\(context)")
  }

  /// A GPX track of `km` at `secondsPerKm` on `day`, starting at 07:00 UTC: a point every 10 m, heading north.
  func gpx(day: CivilDate, km: Double, secondsPerKm: Double) -> String {
    let start = Date(timeIntervalSince1970: Double(day.dayNumber) * 86400 + 7 * 3600)
    let points = Int((km * 100).rounded())
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="convergence-test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

      """
    for index in 0...points {
      let latitude = 48.0 + Double(index) * 10 / 111_195
      let time = start.addingTimeInterval(Double(index) * secondsPerKm / 100)
      text +=
        "<trkpt lat=\"\(String(format: "%.7f", latitude))\" lon=\"11.5\"><ele>520</ele>"
        + "<time>\(time.formatted(.iso8601))</time></trkpt>\n"
    }
    return text + "</trkseg></trk></gpx>\n"
  }
}
