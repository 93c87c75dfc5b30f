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

/// The plan a command works on: made from the goal options when they are given, else the saved plan named
/// `name`, else the active plan.
func resolvePlan(
  goal: GoalOptions, templates: TemplateOptions, clock: ClockOptions, database: DatabaseOptions,
  name: String?, units: DistanceUnit, profile: Profile? = nil
) throws -> Plan {
  if goal.isGiven || (name == nil && !database.exists) {
    let rules = try templates.loadRules()
    return try makePlan(
      goal: goal.goal(today: try clock.today(), maxWeeks: rules.base.maxWeeks, profile: profile, units: units),
      rules: rules, units: units)
  }
  try goal.refuseOnSavedPlan()
  return try database.open().plan(named: name).plan
}

/// `--profile NAME`: whose defaults (level, time zone, run days, long-run day, reminders, units) a command uses.
struct ProfileOption: ParsableArguments {
  @Option(
    name: .customLong("profile"),
    help: ArgumentHelp(
      "The profile whose defaults apply (default: the default profile, when there is one).", valueName: "name"))
  var profile: String?

  /// The profile, or nil when there is none (no database yet, or no profile and none named).
  func load(_ database: DatabaseOptions) throws -> Profile? {
    if profile == nil && !database.exists { return nil }
    return try database.open().profile(named: profile)
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

  init(_ database: DatabaseOptions, plan: String?, clock: ClockOptions) throws {
    db = try database.open()
    saved = try db.plan(named: plan)
    profile = try db.profile(named: nil)
    state = try TrainingState.read(saved, db: db, profile: profile)
    today = try clock.today(inZone: localZone(profile: profile, state: state))
  }
}
