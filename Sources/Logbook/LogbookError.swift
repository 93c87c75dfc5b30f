/// What can go wrong with the database, in words for a runner.
public enum LogbookError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file is not a RunningMate database (another program's SQLite file).
  case notOurs(path: String)
  /// The file is not a database at all, or is damaged.
  case corrupt(path: String, detail: String)
  /// A newer RunningMate wrote it.
  case newerSchema(path: String, migration: String)
  /// The database cannot be created or opened.
  case cannotOpen(path: String, detail: String)
  /// No saved plan by that name.
  case noSuchPlan(name: String, known: [String])
  /// No active plan, and none named.
  case noActivePlan
  /// A plan name already taken.
  case planNameTaken(name: String)
  /// No completion with that id.
  case noSuchCompletion(id: Int64)
  /// Nothing to undo.
  case nothingToUndo
  /// No profile by that name.
  case noSuchProfile(name: String, known: [String])
  /// The profile is not a coach.
  case notACoach(name: String)
  /// A value that cannot be true (a run of 1e21 km, a heart rate of 900): nothing of the write is stored.
  /// `record` says which run, day or measure; `field` names the value, `allowed` the plausible range.
  case implausible(record: String, field: String, value: String, allowed: String)
  /// No subscription feed with that number.
  case noSuchFeed(id: Int64, known: [Int64])
  /// A database error we did not expect.
  case database(detail: String)

  /// The message for a runner: one line naming what is wrong and what is allowed.
  public var description: String {
    switch self {
    case .notOurs(let path):
      return "\(path): this SQLite database belongs to another program, not RunningMate; give another --db path"
    case .corrupt(let path, let detail):
      return "\(path): not a readable RunningMate database (\(detail)); restore a backup or give another --db path"
    case .newerSchema(let path, let migration):
      return "\(path): written by a newer RunningMate (migration '\(migration)'); update runmate to use it"
    case .cannotOpen(let path, let detail):
      return "\(path): cannot open the database: \(detail)"
    case .noSuchPlan(let name, let known):
      let list =
        known.isEmpty
        ? "no plans are saved yet (runmate plan ... --save)" : "saved plans: \(known.joined(separator: ", "))"
      return "--plan: no saved plan named '\(name)'; \(list)"
    case .noActivePlan:
      return "no active plan: save one with `runmate plan ... --save`, or name one with --plan"
    case .planNameTaken(let name):
      return
        "--name: a plan named '\(name)' is already saved; choose another name or delete it with `runmate plans delete \(name)`"
    case .noSuchCompletion(let id):
      return "no logged run with id \(id); `runmate log list` shows the ids"
    case .nothingToUndo:
      return "nothing to undo: no run has been logged"
    case .noSuchProfile(let name, let known):
      let list =
        known.isEmpty ? "no profiles yet (runmate profile init NAME)" : "profiles: \(known.joined(separator: ", "))"
      return "--profile: no profile named '\(name)'; \(list)"
    case .notACoach(let name):
      return "'\(name)' is not a coach; make it one with `runmate profile set --profile \(name) --coach`"
    case .implausible(let record, let field, let value, let allowed):
      return "\(record): \(field) \(value) is not possible, allowed is \(allowed); nothing was stored"
    case .noSuchFeed(let id, let known):
      let list =
        known.isEmpty
        ? "no feeds yet (runmate feed create)" : "feeds: \(known.map(String.init).joined(separator: ", "))"
      return "no subscription feed number \(id); \(list) (runmate feed list)"
    case .database(let detail):
      return "database error: \(detail)"
    }
  }
}
