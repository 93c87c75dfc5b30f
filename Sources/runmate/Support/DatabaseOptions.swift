import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `--db PATH|URL` (alias `--database`): the runner's database, a file or a PostgreSQL URL.
struct DatabaseOptions: ParsableArguments {
  @Option(
    name: [.customLong("db"), .customLong("database")],
    help: ArgumentHelp(
      "The database: a file, or postgres://user[:password]@host[:port]/database for PostgreSQL (default: "
        + "$RUNMATE_DATABASE, else $RUNMATE_DB, else $XDG_DATA_HOME/runmate/runmate.sqlite, else "
        + "~/.local/share/runmate/runmate.sqlite).", valueName: "path"), completion: Completions.databaseFile)
  var db: String?

  /// The database path or URL: --db (--database), $RUNMATE_DATABASE, $RUNMATE_DB, $XDG_DATA_HOME/runmate,
  /// ~/.local/share/runmate.
  var path: String {
    if let db { return db }
    let environment = ProcessInfo.processInfo.environment
    for name in ["RUNMATE_DATABASE", "RUNMATE_DB"] {
      if let env = environment[name], !env.isEmpty { return env }
    }
    let base =
      environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
    return (base as NSString).appendingPathComponent("runmate/runmate.sqlite")
  }

  /// True when there is a database to read: a server URL always, a file when it exists.
  var exists: Bool { isServerStore(path) || FileManager.default.fileExists(atPath: path) }

  /// The path or URL as messages show it (a URL without its password).
  var shown: String { shownStoreLocation(path) }

  /// Opens (or creates) the database.
  func open() throws -> any TrainingStore { try openStore(at: path, afterRowWritten: faultKillAfterRows) }

  /// Fault injection for tests: `RUNMATE_FAULT_KILL_AFTER_ROWS=N` kills the process (SIGKILL) once an import has
  /// written N rows inside its write transaction. Unset (normal use): no hook.
  var faultKillAfterRows: RowHook? {
    guard let text = ProcessInfo.processInfo.environment["RUNMATE_FAULT_KILL_AFTER_ROWS"], let rows = Int(text),
      rows > 0
    else { return nil }
    return { written in
      if written >= rows { kill(getpid(), SIGKILL) }
    }
  }
}

/// `--profile NAME`: whose defaults (level, time zone, run days, long-run day, reminders, units) a command uses.
struct ProfileOption: ParsableArguments {
  @Option(
    name: .customLong("profile"),
    help: ArgumentHelp(
      "The profile whose defaults apply (default: the default profile, when there is one).", valueName: "name"))
  var profile: String?

  /// The profile, or nil when there is none (no database yet, or no profile and none named), from the command's one
  /// store (opened, or created, only when there is a database or a name).
  func load(_ stores: OpenedStore) throws -> Profile? {
    if profile == nil && !stores.database.exists { return nil }
    return try stores.store().profile(named: profile)
  }
}

/// The database a command works on, opened once, when first needed: a command that reads the profile, the plan and
/// the last export and then records the new one opens one connection, not four (each costs a login on PostgreSQL).
final class OpenedStore {
  /// Where the database is.
  let database: DatabaseOptions
  private var opened: (any TrainingStore)?

  init(_ database: DatabaseOptions) { self.database = database }

  /// The store, opened (or created) on the first call.
  func store() throws -> any TrainingStore {
    if let opened { return opened }
    let store = try database.open()
    opened = store
    return store
  }

  /// The store when there is a database (a file that exists, or a server), nil otherwise: nothing is created.
  func existing() throws -> (any TrainingStore)? {
    opened != nil || database.exists ? try store() : nil
  }
}

/// One saved plan as its runner sees it: the database, the plan (`--plan`, else the active one), the default profile,
/// the training state, and the runner's today in their zone (``localZone(profile:state:)``). What every command that
/// reads one plan starts with.
struct RunnerPlan {
  let db: any TrainingStore
  let saved: SavedPlan
  let profile: Profile?
  let state: TrainingState
  let today: CivilDate

  init(_ database: DatabaseOptions, plan: PlanSelection, clock: ClockOptions) throws {
    try self.init(database, plan: plan) { try clock.today(inZone: $0) }
  }

  /// The plan with today in `--tz` when given (``ZoneOptions``), else in the runner's zone.
  init(_ database: DatabaseOptions, plan: PlanSelection, zone: ZoneOptions) throws {
    let given = try zone.given()  // a misspelt --tz is refused before the database is read
    try self.init(database, plan: plan) { try zone.clock.today(inZone: given ?? $0) }
  }

  private init(_ database: DatabaseOptions, plan: PlanSelection, today: (String?) throws -> CivilDate) throws {
    db = try database.open()
    saved = try plan.saved(in: db)
    profile = try db.profile(named: nil)
    state = try TrainingState.read(saved, db: db, profile: profile)
    self.today = try today(localZone(profile: profile, state: state))
  }
}
