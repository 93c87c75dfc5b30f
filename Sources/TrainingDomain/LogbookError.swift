import RunningCore

/// What can go wrong with the database, in words for a runner.
public enum LogbookError: FieldError, Sendable, Equatable {
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
  /// No profile named, and none is the default (`known`: the profiles there are).
  case noDefaultProfile(known: [String])
  /// The profile is not a coach.
  case notACoach(name: String)
  /// A value that cannot be true (a run of 1e21 km, a heart rate of 900): nothing of the write is stored.
  /// `record` says which run, day or measure; `field` names the value, `allowed` the plausible range.
  case implausible(record: String, field: RecordField, value: String, allowed: String)
  /// No subscription feed with that number.
  case noSuchFeed(id: Int64, known: [Int64])
  /// A profile by that name exists already (the database's UNIQUE constraint refused a second one).
  case profileExists(name: String)
  /// A plan with that id is saved already, under `name` (an import does not replace it).
  case planAlreadySaved(id: String, name: String)
  /// The database cannot be written (its file, its folder or its disk is read-only): nothing was written.
  case readOnly(path: String)
  /// The disk holding the database is full (SQLITE_FULL): the transaction was rolled back.
  case diskFull(path: String)
  /// Writing the database failed (SQLITE_IOERR: a full disk, a file size limit, a failing disk): rolled back.
  case writeFailed(path: String, detail: String)
  /// The database location looks like a server URL that cannot be used (`postgres://` without a host or database,
  /// an unknown option). `location` is shown with its password replaced by `***`.
  case badLocation(location: String, detail: String)
  /// The database server cannot be reached, or refused the login. `location` is shown without its password.
  case serverUnavailable(location: String, detail: String)
  /// A copy's target already holds the runner's data (`holding`: tables and their row counts): nothing was written.
  case notEmpty(location: String, holding: [TableCount])
  /// The database stayed locked by another writer (SQLite's busy timeout, PostgreSQL's lock or statement timeout):
  /// nothing was written, and the same command may go through later (a server answers 503 with `Retry-After`).
  case busy(detail: String)
  /// A database error we did not expect.
  case database(detail: String)
  /// An account with this login exists.
  case accountExists(login: String)

  /// The message for a runner: one line naming what is wrong and what is allowed.
  public func message(naming flag: (InputField) -> String) -> String {
    switch self {
    case .notOurs(let path):
      return
        "\(path): this SQLite database belongs to another program, not RunningMate; give another \(flag(.database)) path"
    case .corrupt(let path, let detail):
      return
        "\(path): not a readable RunningMate database (\(detail)); restore a backup or give another \(flag(.database)) path"
    case .newerSchema(let path, let migration):
      return "\(path): written by a newer RunningMate (migration '\(migration)'); update runmate to use it"
    case .cannotOpen(let path, let detail):
      return "\(path): cannot open the database: \(detail)"
    case .noSuchPlan(let name, let known):
      let list =
        known.isEmpty
        ? "no plans are saved yet (runmate plan ... \(flag(.save)))" : "saved plans: \(known.joined(separator: ", "))"
      return "\(flag(.plan)): no saved plan named '\(name)'; \(list)"
    case .noActivePlan:
      return "no active plan: save one with `runmate plan ... \(flag(.save))`, or name one with \(flag(.plan))"
    case .planNameTaken(let name):
      return
        "\(flag(.name)): a plan named '\(name)' is already saved; choose another name or delete it with `runmate plans delete \(name)`"
    case .noSuchCompletion(let id):
      return "no logged run with id \(id); `runmate log list` shows the ids"
    case .nothingToUndo:
      return "nothing to undo: no run has been logged"
    case .noSuchProfile(let name, let known):
      let list =
        known.isEmpty ? "no profiles yet (runmate profile init NAME)" : "profiles: \(known.joined(separator: ", "))"
      return "\(flag(.profile)): no profile named '\(name)'; \(list)"
    case .noDefaultProfile(let known):
      guard !known.isEmpty else {
        return "no profile yet: create one with `runmate profile init NAME` (the first is the default)"
      }
      return
        "no default profile among \(known.joined(separator: ", ")): name one with \(flag(.profile)) NAME, or make "
        + "one the default with `runmate profile set \(flag(.profile)) NAME \(flag(.makeDefault))`"
    case .notACoach(let name):
      return
        "'\(name)' is not a coach; make it one with `runmate profile set \(flag(.profile)) \(name) \(flag(.coach))`"
    case .implausible(let record, let field, let value, let allowed):
      return "\(record): \(field.label) \(value) is not possible, allowed is \(allowed); nothing was stored"
    case .noSuchFeed(let id, let known):
      let list =
        known.isEmpty
        ? "no feeds yet (runmate feed create)" : "feeds: \(known.map(String.init).joined(separator: ", "))"
      return "no subscription feed number \(id); \(list) (runmate feed list)"
    case .profileExists(let name):
      return "profile '\(name)' exists: `runmate profile set \(flag(.profile)) \(name) …` changes it"
    case .planAlreadySaved(let id, let name):
      return
        "this plan (\(id)) is already saved as '\(name)'; delete it first with `runmate plans delete \(name)` to "
        + "replace it"
    case .readOnly(let path):
      return
        "\(path): the database is read-only (its file, its folder or its disk cannot be written); nothing was "
        + "written: make it writable, or give another \(flag(.database))"
    case .diskFull(let path):
      return "the disk holding \(path) is full: free space and run the command again; nothing was written"
    case .writeFailed(let path, let detail):
      return
        "\(path): \(detail): the disk holding the database may be full, over a file size limit or failing; free "
        + "space and run the command again; nothing was written"
    case .badLocation(let location, let detail):
      return
        "\(flag(.database)): '\(location)' is not a database RunningMate can open (\(detail)); give "
        + "postgres://user[:password]@host[:port]/database (or postgresql://) for PostgreSQL, or a file path for SQLite"
    case .serverUnavailable(let location, let detail):
      return
        "\(flag(.database)): cannot reach the PostgreSQL server of \(location) (\(detail)); start it, check the host, "
        + "port, user, password and database name, or give a file path for SQLite"
    case .notEmpty(let location, let holding):
      let held = holding.map(\.phrase).joined(separator: ", ")
      return
        "\(location) already holds data (\(held)); copy only into a new, empty database: `createdb NAME` for "
        + "PostgreSQL, or a file path that does not exist yet"
    case .database(let detail), .busy(let detail):
      return "database error: \(detail)"
    case .accountExists(let login):
      return "\(flag(.login)): an account '\(login)' exists; give another login name or e-mail address"
    }
  }
}

extension LogbookError {
  /// A file that is not ours or holds the impossible is bad data; a file that cannot be opened or written cannot be
  /// created; a name that is not there is a bad input; the engine failing midway is I/O.
  public var kind: FailureKind {
    switch self {
    case .notOurs, .corrupt, .newerSchema, .implausible: .badData
    case .cannotOpen, .readOnly: .cannotCreate
    case .noSuchPlan, .noActivePlan, .planNameTaken, .noSuchCompletion, .nothingToUndo, .noSuchProfile,
      .noDefaultProfile, .notACoach, .noSuchFeed, .profileExists, .planAlreadySaved, .notEmpty, .accountExists:
      .badInput
    case .badLocation: .missingInput
    case .database, .busy, .diskFull, .writeFailed, .serverUnavailable: .io
    }
  }
}
