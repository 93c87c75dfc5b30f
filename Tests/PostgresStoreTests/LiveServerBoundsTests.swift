import Foundation
import Logbook
import RunMateTestSupport
import RunningCore
import Synchronization
import Testing
import TrainingDomain

/// Issue 44's probes of bounds that only show against real processes: a burst of logins against a running `runmate
/// serve --api`, and `database copy` to a PostgreSQL server that crashes under it.
@Suite(.serialized, .timeLimit(.minutes(5)), .tags(.endToEnd)) struct LiveServerBoundsTests {
  /// 80 logins at once (unknown logins: each costs a bcrypt check against the decoy hash, as a wrong password does)
  /// stalled an authenticated request for 8 to 20 s when every check took a thread of the server's pool. The checks
  /// now run on threads of their own, one core less than the machine has, with a bounded queue: a coach's roster
  /// asked during the burst is answered as fast as without it, give or take a loaded machine.
  @Test func aBurstOfLoginsDoesNotStallAnAuthenticatedRequest() async throws {
    let folder = try temporaryDirectory("login-burst")
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("coach.sqlite").path
    let runmate = TwoServersTests().runmate
    try runmate(["profile", "init", "kim", "--coach"], database, "")
    try runmate(
      ["account", "create", "--email", "kim@example.org", "--role", "coach", "--profile", "kim"], database,
      "a long enough password\n")
    let server = try TwoServersTests.Server(database: database)
    defer { server.stop() }
    let login = try await server.send(
      .POST, "/api/v1/sessions", json: #"{"login":"kim@example.org","password":"a long enough password"}"#)
    let token = try #require(login.object["token"] as? String, "\(login)")

    // The roster without a burst: the reference, measured in the same run (the machine is shared and noisy).
    var quiet: [Double] = []
    for _ in 0..<5 { quiet.append(try await timed { try await server.send(.GET, "/api/v1/roster", token: token) }) }

    let burstStarted = Date()
    let port = server.port
    // Each login from an address of its own (127.0.0.10 to .89, all loopback), so that the per-address limit of
    // failed logins lets every one through to its password check, as 80 clients would be.
    async let logins = offPool { () -> [Int] in
      let statuses = Mutex<[Int]>([])
      let threads = (0..<80).map { guess in
        Thread {
          let body = #"{"login":"nobody\#(guess)@example.org","password":"guess \#(guess)"}"#
          let status: Int
          if let socket = try? LoopbackSocket(port: port, from: "127.0.0.\(10 + guess)", timeout: 120) {
            socket.send(
              "POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            status = socket.readAnswer().status
          } else {
            status = -1
          }
          statuses.withLock { $0.append(status) }
        }
      }
      for thread in threads { thread.start() }
      while statuses.withLock({ $0.count }) < 80 { Thread.sleep(forTimeInterval: 0.05) }
      return statuses.withLock { $0 }
    }
    // The roster asked while the checks are queued: a second in, then every second for five.
    try await Task.sleep(for: .seconds(1))
    var during = 0.0
    for _ in 0..<5 {
      let took = try await timed {
        let roster = try await server.send(.GET, "/api/v1/roster", token: token)
        #expect(roster.status == 200, "\(roster)")
      }
      during = max(during, took)
      try await Task.sleep(for: .seconds(1))
    }
    let statuses = try await logins
    let burstTook = Date().timeIntervalSince(burstStarted)
    // Every login is refused as a wrong login (401) or, past the queue, told to come back (503): none is a 500.
    #expect(statuses.count == 80)
    #expect(statuses.allSatisfy { $0 == 401 || $0 == 503 }, "\(statuses.sorted())")
    #expect(statuses.contains(401), "\(statuses.sorted())")
    let slowestQuiet = quiet.max() ?? 0
    print(
      "login burst: 80 logins in \(String(format: "%.1f", burstTook)) s (\(statuses.filter { $0 == 503 }.count) "
        + "answered 503); the roster took \(String(format: "%.3f", during)) s at worst during it, "
        + "\(String(format: "%.3f", slowestQuiet)) s at worst before it")
    // 8 to 20 s before on a quiet machine; a loaded one (the whole suite and a build beside it: 17 s for the quiet
    // roster once) gets its own slowness three times over.
    #expect(
      during < max(slowestQuiet * 3, slowestQuiet + 2),
      "the roster took \(during) s during the burst, \(slowestQuiet) s before")
  }

  /// `database copy` waited for ever when PostgreSQL stopped with `-m immediate` under it (the ROLLBACK on the
  /// dropped connection was never answered). A cluster of its own is crashed while a logbook of 40,000 runs is being
  /// copied: the copy exits 74 within seconds, saying the server went away.
  @Test func databaseCopyExits74WhenPostgresCrashes() async throws {
    guard Engine.available.contains(.postgres) else { return }
    let folder = try temporaryDirectory("copy-crash")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cluster = folder.appendingPathComponent("cluster").path
    let environment = ["RUNMATE_PG_DIR": cluster]
    defer { _ = TestPostgres.runScript(["stop"], environment: environment) }
    let started = TestPostgres.runScript(["start"], environment: environment)
    try #require(started.status == 0, "scripts/postgres.sh start: \(started.stderr)")
    let made = TestPostgres.runScript(["createdb", "copied"], environment: environment)
    try #require(made.status == 0, "scripts/postgres.sh createdb: \(made.stderr)")
    let target = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let source = folder.appendingPathComponent("runmate.sqlite")
    let store = try LogbookDatabase(path: source.path)
    let first = try #require(CivilDate(iso: "1970-01-01"))
    let runs = (0..<40_000).map { (index: Int) -> Completion in
      let long = Double(index % 2)
      let distance: Double = 5 + long * 3 + Double(index % 7) / 10
      return Completion(
        date: first.adding(days: index / 2), distanceKm: distance, durationSeconds: 1800 + long * 1200,
        note: "run \(index)")
    }
    _ = try store.ingestRuns(runs, planID: nil, slots: [])

    let copy = try runmateProcess(["database", "copy", "--to", target], database: source)
    let out = Pipe()
    let err = Pipe()
    copy.standardOutput = out
    copy.standardError = err
    try copy.run()
    let errors = ReadInBackground(err)
    let output = ReadInBackground(out)
    // Crashed once the copy is writing its rows (its last statement an INSERT): before that it reads the logbook,
    // which on a loaded machine takes long enough that the crash would only be met at its next statement.
    let deadline = Date().addingTimeInterval(120)
    let writing = """
      SELECT count(*) FROM pg_stat_activity WHERE datname = 'copied' AND pid <> pg_backend_pid() \
      AND query ILIKE 'INSERT%'
      """
    while TestPostgres.psql(target, writing).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0" {
      try #require(copy.isRunning && Date() < deadline, "the copy ended before it was seen: \(errors.text())")
      try await Task.sleep(for: .milliseconds(20))
    }
    try #require(copy.isRunning, "the copy ended before the crash: \(errors.text()) \(output.text())")
    let crashed = TestPostgres.runScript(["crash"], environment: environment)
    try #require(crashed.status == 0, "scripts/postgres.sh crash: \(crashed.stderr)")
    let crashedAt = Date()
    while copy.isRunning {
      try #require(
        Date().timeIntervalSince(crashedAt) < 150, "the copy still runs 150 s after the crash: \(errors.text())")
      try await Task.sleep(for: .milliseconds(50))
    }
    let took = Date().timeIntervalSince(crashedAt)
    let message = errors.wait()
    print(
      "database copy after the crash: exit \(copy.terminationStatus) in \(String(format: "%.2f", took)) s: \(message)")
    #expect(copy.terminationStatus == 74, "\(message)")
    #expect(message.contains("PostgreSQL"), "\(message)")
    #expect(message.split(separator: "\n").count == 1, "one line: \(message)")
    // At once on a quiet machine; within the statement deadline (120 s) at worst: with the whole suite beside it on
    // 2 cores, one run took over 60 s (not explained yet: the statement in flight was not failed at once).
    #expect(took < 130, "exited \(took) s after the crash")
  }
}

/// Seconds `body` takes.
private func timed(_ body: () async throws -> some Any) async rethrows -> Double {
  let start = Date()
  _ = try await body()
  return Date().timeIntervalSince(start)
}
