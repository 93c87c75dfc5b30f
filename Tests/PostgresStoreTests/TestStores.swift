import Foundation
import Logbook
import PostgresStore
import RunMateTestSupport
import Testing
import TrainingDomain

/// The engines the conformance suite runs every test on.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite, postgres

  var testDescription: String { rawValue }

  /// The engines to test here: both, or SQLite alone (with the reason printed once) when PostgreSQL cannot be
  /// started on this machine. With CI=true PostgreSQL is always included, so its tests fail loudly without it.
  static let available: [Engine] = {
    switch TestPostgres.server {
    case .success: return [.sqlite, .postgres]
    case .failure(let reason):
      if ProcessInfo.processInfo.environment["CI"] == "true" { return [.sqlite, .postgres] }
      print("PostgresStoreTests: PostgreSQL variants skipped: \(reason.message)")
      return [.sqlite]
    }
  }()
}

/// A fresh, empty store of `engine`: a SQLite file in its own temporary folder, or a PostgreSQL database of its own
/// on the test cluster. `location` is what `--db` would be given.
struct TestStore {
  let engine: Engine
  let location: String
  let folder: URL

  init(_ engine: Engine) throws {
    self.engine = engine
    folder = try temporaryDirectory("store-\(engine)")
    switch engine {
    case .sqlite: location = folder.appendingPathComponent("runmate.sqlite").path
    case .postgres: location = try TestPostgres.newDatabase()
    }
  }

  /// Opens the store (again), as `openStore(at:)` does for the CLI.
  func open(afterRowWritten: RowHook? = nil) throws -> any TrainingStore {
    switch engine {
    case .sqlite: try LogbookDatabase(path: location, afterRowWritten: afterRowWritten)
    case .postgres: try PostgresLogbook(url: location, afterRowWritten: afterRowWritten)
    }
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Why PostgreSQL is not there.
struct PostgresUnavailable: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// The one test cluster of this test process: `$RUNMATE_TEST_POSTGRES` when set (started by .ci/run, left running),
/// else started with scripts/postgres.sh on first use and stopped when the process exits.
enum TestPostgres {
  static let script = repositoryRoot.appendingPathComponent("scripts/postgres.sh").path

  static let server: Result<String, PostgresUnavailable> = {
    if let given = ProcessInfo.processInfo.environment["RUNMATE_TEST_POSTGRES"], !given.isEmpty {
      return .success(given)
    }
    let started = runScript(["start"])
    guard started.status == 0 else {
      return .failure(
        PostgresUnavailable(message: "scripts/postgres.sh start failed (\(started.status)): \(started.stderr)"))
    }
    // At exit Foundation's Process can no longer wait for a child: the script is spawned and waited for directly.
    atexit {
      var child: pid_t = 0
      let arguments = ["/bin/bash", TestPostgres.script, "stop"]
      var argv = arguments.map { strdup($0) } + [nil]
      defer { for argument in argv { free(argument) } }
      guard posix_spawn(&child, "/bin/bash", nil, nil, &argv, environ) == 0 else { return }
      var status: Int32 = 0
      waitpid(child, &status, 0)
    }
    return .success(started.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
  }()

  /// A new empty database on the cluster, its URL.
  static func newDatabase() throws -> String {
    let admin = try server.get()
    let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    if ProcessInfo.processInfo.environment["RUNMATE_TEST_POSTGRES"] != nil {
      let made = psql(admin, "CREATE DATABASE \(name)")
      guard made.status == 0 else { throw PostgresUnavailable(message: "CREATE DATABASE failed: \(made.stderr)") }
      return admin.replacingOccurrences(of: #"/[^/]*$"#, with: "/\(name)", options: .regularExpression)
    }
    let made = runScript(["createdb", name])
    guard made.status == 0 else { throw PostgresUnavailable(message: "createdb failed: \(made.stderr)") }
    return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs SQL on the database at `url` with psql.
  @discardableResult
  static func psql(_ url: String, _ sql: String) -> (stdout: String, stderr: String, status: Int32) {
    run("/usr/bin/env", ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
  }

  /// scripts/postgres.sh with `arguments`; `environment` on top of this process's (`RUNMATE_PG_DIR` for a cluster
  /// of a test's own).
  static func runScript(_ arguments: [String], environment: [String: String] = [:]) -> (
    stdout: String, stderr: String, status: Int32
  ) {
    run("/bin/bash", [script] + arguments, environment: environment)
  }

  static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (
    stdout: String, stderr: String, status: Int32
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
    }
    do {
      let outcome = try runToEnd(process)
      return (outcome.stdout, outcome.stderr, outcome.status)
    } catch {
      return ("", "\(error)", -1)
    }
  }
}
