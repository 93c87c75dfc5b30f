import Foundation
import RunMateTestSupport
import Testing
import Training

/// The built `runmate` on both engines: the same commands print the same, apart from where the database is.
@Suite(.timeLimit(.minutes(1)), .tags(.endToEnd)) struct EngineCommandTests {
  /// profile → plan → log → week → export (and the log, progress and plans between), in order.
  static let commands: [[String]] = [
    ["profile", "init", "ana", "--level", "beginner", "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun"],
    ["profile", "set", "--long-run-day", "sun"],
    [
      "plan", "--distance", "10k", "--weeks", "8", "--start", "2027-01-04", "--at", "07:00", "--at", "sun=09:00",
      "--save", "--name", "spring", "--now", "2026-12-28",
    ],
    ["plans"],
    // A command that needs an existing database: on PostgreSQL the URL is always there (not a file to look for).
    ["feed", "list"],
    ["log", "2027-01-05", "--distance", "4km", "--time", "26:30", "--now", "2027-01-13"],
    ["log", "2027-01-09", "--distance", "3km", "--time", "18:00", "--now", "2027-01-13"],
    ["import", "examples/tour/saturday.gpx", "--now", "2027-01-14"],
    ["log", "2027-01-05", "--distance", "4km", "--time", "26:30", "--now", "2027-01-13"],
    ["log", "list"],
    ["week", "--now", "2027-01-14"],
    ["progress", "--weeks", "8", "--now", "2027-01-14", "--format", "json"],
    ["export", "--out", "-", "--now", "2027-01-14"],
    ["export", "--out", "-", "--now", "2027-01-15"],
  ]

  /// What each command printed (stdout, stderr, status), with the database's location as `DB`.
  func transcript(_ engine: Engine, environment: [String: String]) throws -> [String] {
    let store = try TestStore(engine)
    defer { store.remove() }
    var env = environment
    for (key, value) in env { env[key] = value.replacingOccurrences(of: "$LOCATION", with: store.location) }
    return try Self.commands.map { arguments in
      let outcome = try runRunmate(arguments, database: store.folder.appendingPathComponent("unused"), environment: env)
      return "$ \(arguments.joined(separator: " "))\n\(outcome.stdout)\(outcome.stderr)exit \(outcome.status)\n"
        .replacingOccurrences(of: store.location, with: "DB")
    }
  }

  @Test func theSameCommandsPrintTheSameOnSQLiteAndPostgreSQL() throws {
    guard Engine.available.contains(.postgres) else { return }
    let sqlite = try transcript(.sqlite, environment: ["RUNMATE_DB": "$LOCATION"])
    // PostgreSQL through the issue's variable name, which wins over RUNMATE_DB.
    let postgres = try transcript(
      .postgres, environment: ["RUNMATE_DATABASE": "$LOCATION", "RUNMATE_DB": "/nonexistent/runmate.sqlite"])
    #expect(sqlite.joined().contains("BEGIN:VCALENDAR"))
    #expect(sqlite.joined().contains("exit 0") && !sqlite.joined().contains("exit 6"))
    for (left, right) in zip(sqlite, postgres) { #expect(left == right) }
  }

  @Test func aLogbookCopiedToPostgreSQLTellsTheSameStory() throws {
    guard Engine.available.contains(.postgres) else { return }
    let (sqlite, postgres) = (try TestStore(.sqlite), try TestStore(.postgres))
    defer {
      sqlite.remove()
      postgres.remove()
    }
    let unused = sqlite.folder.appendingPathComponent("unused")
    func run(_ arguments: [String], on store: TestStore) throws -> String {
      let outcome = try runRunmate(arguments, database: unused, environment: ["RUNMATE_DATABASE": store.location])
      return "\(outcome.stdout)\(outcome.stderr)exit \(outcome.status)\n"
        .replacingOccurrences(of: shownStoreLocation(store.location), with: "DB")
    }
    for arguments in Self.commands.prefix(8) { _ = try run(arguments, on: sqlite) }
    let copied = try run(["database", "copy", "--to", postgres.location], on: sqlite)
    #expect(copied.hasPrefix("Copied DB to postgres://"), "\(copied)")
    #expect(copied.contains("1 profile, 1 plan, ") && copied.contains(" activities, ") && copied.hasSuffix("exit 0\n"))
    let reads: [[String]] = [
      ["log", "list"], ["week", "--now", "2027-01-14"], ["today", "--now", "2027-01-16"], ["plans"],
      ["progress", "--weeks", "8", "--now", "2027-01-14"], ["export", "--out", "-", "--now", "2027-01-15"],
    ]
    for arguments in reads {
      #expect(try run(arguments, on: postgres) == run(arguments, on: sqlite), "\(arguments)")
    }
    // Copied again, the target is refused and keeps what it has.
    let again = try run(["database", "copy", "--to", postgres.location], on: sqlite)
    #expect(again.contains("already holds data (1 profile, 1 plan, ") && again.hasSuffix("exit 64\n"), "\(again)")
    #expect(try run(["log", "list"], on: postgres) == run(["log", "list"], on: sqlite))
  }

  @Test func databaseIsAnAliasOfDb() throws {
    guard Engine.available.contains(.postgres) else { return }
    let store = try TestStore(.postgres)
    defer { store.remove() }
    let none = store.folder.appendingPathComponent("none.sqlite")
    let created = try runRunmate(["profile", "init", "kim", "--database", store.location], database: none)
    #expect(created.status == 0)
    let listed = try runRunmate(["profile", "show", "--db", store.location], database: none)
    #expect(listed.stdout.contains("kim"))
    #expect(!FileManager.default.fileExists(atPath: none.path))
  }

  @Test func aBadURLOrADeadServerIsOneLineNamingDbWithoutThePassword() throws {
    let dir = try temporaryDirectory("engine-errors")
    defer { try? FileManager.default.removeItem(at: dir) }
    let port = try freeLoopbackPort()
    let dead = try runRunmate(["plans", "--db", "postgres://ana:secret@127.0.0.1:\(port)/runs"], database: dir)
    #expect(dead.status == 74)
    #expect(dead.stderr.hasPrefix("runmate: --db: cannot reach the PostgreSQL server of postgres://ana:***@127.0.0.1"))
    let bad = try runRunmate(["plans"], database: dir, environment: ["RUNMATE_DB": "postgres://ana:secret@/runs"])
    #expect(bad.status == 66)
    #expect(bad.stderr.contains("--db: 'postgres://ana:***@/runs' is not a database RunningMate can open (no host)"))
    for outcome in [dead, bad] {
      #expect(!outcome.stderr.contains("secret"))
      #expect(outcome.stderr.split(separator: "\n").count == 1)
    }
  }

  /// A health import killed (SIGKILL) inside its write transaction on PostgreSQL keeps nothing: the server rolls the
  /// transaction back when the connection drops, and the next import stores it whole.
  @Test func anImportKilledInsideItsTransactionKeepsNothingOnPostgreSQL() throws {
    guard Engine.available.contains(.postgres) else { return }
    let store = try TestStore(.postgres)
    defer { store.remove() }
    let env = ["RUNMATE_DB": store.location]
    let unused = store.folder.appendingPathComponent("unused")
    let killed = try runRunmate(
      ["health", "import", "examples/tour/health.csv"], database: unused,
      environment: env.merging(["RUNMATE_FAULT_KILL_AFTER_ROWS": "3"]) { $1 })
    #expect(killed.status == SIGKILL, "not killed inside the transaction: \(killed.status) \(killed.stderr)")
    let count = { TestPostgres.psql(store.location, "SELECT count(*) FROM healthDay").stdout }
    #expect(count() == "0\n")
    let again = try runRunmate(["health", "import", "examples/tour/health.csv"], database: unused, environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(Int(count().trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 3)
  }
}
