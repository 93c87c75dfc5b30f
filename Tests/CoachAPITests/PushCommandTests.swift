import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import Training
import TrainingDomain

/// `runmate account login`, `push` and `logout`, the built binary against a server in this process: the token kept in
/// a 0600 file and never shown, a push twice is one of each run, and each refusal (a bad URL, a wrong password, a
/// server that is down, a revoked token, no login) is one line with a non-zero exit.
@Suite(.serialized, .timeLimit(.minutes(3)), .tags(.endToEnd)) struct PushCommandTests {
  /// The runner's own logbook: anna's plan saved as `spring`, and week 1's first three runs logged.
  static func localLogbook(in folder: URL) throws -> (URL, [Workout]) {
    let database = folder.appendingPathComponent("local.sqlite")
    let store = try openStore(at: database.path)
    let plan = try makePlan(goal: goal(.tenK, .beginner, weeks: 8), rules: repositoryRules)
    _ = try store.savePlan(plan, name: "spring", activate: true)
    let workouts = Array(try #require(plan.weeks.first).workouts.filter(\.kind.isRun).prefix(3))
    _ = try store.addRuns(
      workouts.map { Completion(date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360) },
      plan: "spring")
    return (database, workouts)
  }

  /// Runs the built binary on a Dispatch thread: the server answering it runs on this process's concurrency pool,
  /// which a blocked test task would starve (2 threads on 2 cores).
  func cli(_ arguments: [String], database: URL, environment: [String: String]) async throws -> RunmateOutcome {
    try await offPool { try runRunmate(arguments, database: database, environment: environment) }
  }

  func login(_ arguments: [String], password: String, database: URL, config: URL) async throws -> RunmateOutcome {
    try await offPool { try loginNow(arguments, password: password, database: database, config: config) }
  }

  func loginNow(_ arguments: [String], password: String, database: URL, config: URL) throws -> RunmateOutcome {
    let process = try runmateProcess(
      ["account", "login"] + arguments, database: database, environment: ["RUNMATE_CONFIG_DIR": config.path])
    let input = Pipe()
    process.standardInput = input
    input.fileHandleForWriting.write(Data((password + "\n").utf8))
    try input.fileHandleForWriting.close()
    return try runToEnd(process)
  }

  @Test func anAthleteLogsInAndPushesEachRunOnce() async throws {
    try await withServedClub { club, server in
      let (database, workouts) = try Self.localLogbook(in: club.folder)
      let config = club.folder.appendingPathComponent("config")
      let env = ["RUNMATE_CONFIG_DIR": config.path]
      let url = "http://127.0.0.1:\(server.port)"
      let annaPlan = try club.store.plan(named: "anna-10k")
      let before = try club.store.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 60))

      let notYet = try await cli(["push"], database: database, environment: env)
      #expect(notYet.status == 64)
      #expect(notYet.stderr.hasPrefix("runmate: not logged in to a coach server"), "\(notYet.stderr)")

      let wrong = try await login(
        [url, "--email", "anna"], password: "not the password", database: database, config: config)
      #expect(wrong.status == 64)
      #expect(
        wrong.stderr == "runmate: --email: \(url) refused the login 'anna' with that password; check both (the "
          + "password is read from standard input)\n")
      let made = try await login(
        [url + "/", "--email", "anna"], password: password, database: database, config: config)
      #expect(made.status == 0, "\(made.stderr)")
      let file = config.appendingPathComponent("coach-session.json").path
      let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
      #expect(mode == 0o600)
      let saved = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
          as? [String: Any])
      let token = try #require(saved["token"] as? String)
      #expect(!made.stderr.contains(token) && !made.stdout.contains(token))

      // The server's own hand-logged run of week 1 is the same record as the first pushed one (day, distance and
      // time), so it has the same identity: one run, not two (issue 44).
      let first = try await cli(["push"], database: database, environment: env)
      #expect(first.status == 0, "\(first.stderr)")
      // The logbook's plan is the one the server assigned (the same goal): already there.
      #expect(first.stdout == "Plan 'spring' is already there\nPushed 3 runs to \(url) (1 already there)\n")
      let second = try await cli(["push"], database: database, environment: env)
      // The plan sent last time is not sent again.
      #expect(
        second.stdout
          == "Plan 'spring' unchanged since the last push or pull: not sent\nPushed 3 runs to \(url) (3 already there)\n"
      )
      let after = try club.store.completions(planID: annaPlan.id, from: testStart, through: testStart.adding(days: 60))
      #expect(after.count == before.count + 2)
      #expect(Set(after.compactMap(\.workoutID)) == Set(workouts.map(\.id)))

      // Logged out: the token is revoked on the server and forgotten here.
      #expect(try await cli(["account", "logout"], database: database, environment: env).status == 0)
      #expect(!FileManager.default.fileExists(atPath: file))
      #expect(try await server.send(.GET, "/api/v1/me/plan", token: token).status == 401)
    }
  }

  @Test func aRevokedTokenADownServerAndABadURLAreOneLine() async throws {
    try await withServedClub { club, server in
      let (database, _) = try Self.localLogbook(in: club.folder)
      let config = club.folder.appendingPathComponent("config")
      let env = ["RUNMATE_CONFIG_DIR": config.path]
      let url = "http://127.0.0.1:\(server.port)"

      let bad = try await login(
        ["ftp://example.org", "--email", "anna"], password: password, database: database, config: config)
      #expect(bad.status == 64)
      #expect(
        bad.stderr.hasPrefix("runmate: URL: 'ftp://example.org' is not valid, allowed is the http:// or https://"))
      let started = Date()
      let down = try await login(
        ["http://127.0.0.1:1", "--email", "anna"], password: password, database: database, config: config)
      // Said at once, not after retrying until a connect timeout (10 s before); the bound leaves room for a busy machine.
      #expect(Date().timeIntervalSince(started) < 5, "\(Date().timeIntervalSince(started)) s")
      #expect(down.status == 69)
      #expect(
        down.stderr == "runmate: no answer from http://127.0.0.1:1 (connection refused): is a RunningMate coach "
          + "server running there?\n", "\(down.stderr)")
      #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent("coach-session.json").path))

      // A coach account has no runs of its own to push: the server's 404, in one line.
      #expect(
        try await login([url, "--email", "kim@example.com"], password: password, database: database, config: config)
          .status == 0)
      let coach = try await cli(["push"], database: database, environment: env)
      #expect(coach.status != 0 && coach.stderr.hasPrefix("runmate: \(url) answered 404: "), "\(coach.stderr)")

      // A token revoked elsewhere (another logout): push says to log in again.
      #expect(
        try await login([url, "--email", "anna"], password: password, database: database, config: config).status == 0)
      let saved = try #require(
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: config.appendingPathComponent("coach-session.json"))) as? [String: Any])
      let token = try #require(saved["token"] as? String)
      #expect(try await server.send(.DELETE, "/api/v1/sessions/current", token: token).status == 204)
      let revoked = try await cli(["push"], database: database, environment: env)
      #expect(revoked.status == 64)
      #expect(
        revoked.stderr == "runmate: \(url) no longer takes this login (expired or revoked): run `runmate account "
          + "login` again\n")
    }
  }
}
