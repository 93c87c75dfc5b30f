import Foundation

// A whole store as plain rows, for copying a logbook from one engine to the other (`runmate database copy`): the
// runner's SQLite file into a coach's PostgreSQL, or back. Both engines have the same schema (the same migrations);
// the tables and columns are written here once, and each engine reads and writes its own rows by them.

/// What a stored column holds.
public enum StoredKind: Sendable, Hashable {
  /// A whole number (ids, counts, minutes).
  case integer
  /// A floating-point number (kilometres, seconds).
  case real
  /// Text (dates as `yyyy-mm-dd`, JSON, names).
  case text
  /// Bytes (token and body hashes).
  case bytes
  /// True or false.
  case boolean
  /// An instant (milliseconds, as the stores keep it).
  case instant
}

/// One value of a row.
public enum StoredValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case bytes([UInt8])
  case boolean(Bool)
  /// Milliseconds since 1970 (the precision both stores keep; whole numbers, so the engines' snapshots compare
  /// equal where their dates differ by a rounding error).
  case instant(milliseconds: Int64)

  /// The instant `date`, to the nearest millisecond.
  public static func instant(_ date: Date) -> StoredValue {
    .instant(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }
}

/// A table of the schema: its name, its columns in order, and the column whose values a sequence hands out (reset
/// after a copy so the next row gets the next id).
public struct StoredTableShape: Sendable, Hashable {
  /// The table's name, as the migrations write it.
  public let name: String
  /// The columns and what each holds.
  public let columns: [StoredColumn]
  /// The id column numbered by the engine (nil when the key is the row's own values).
  public let serialColumn: String?

  /// The column names, comma-separated, for a statement.
  public var columnList: String { columns.map(\.name).joined(separator: ", ") }
}

/// A column of a stored table.
public struct StoredColumn: Sendable, Hashable {
  /// Its name.
  public let name: String
  /// What it holds.
  public let kind: StoredKind

  init(_ name: String, _ kind: StoredKind) {
    self.name = name
    self.kind = kind
  }
}

/// A table's rows, in the order of its shape's columns.
public struct StoredTable: Sendable, Hashable {
  /// The table.
  public let shape: StoredTableShape
  /// Its rows, each with one value per column.
  public var rows: [[StoredValue]]

  /// A table of `shape` holding `rows`.
  public init(shape: StoredTableShape, rows: [[StoredValue]]) {
    self.shape = shape
    self.rows = rows
  }
}

/// How many rows a table holds.
public struct TableCount: Sendable, Hashable {
  /// The table's name.
  public let table: String
  /// Its rows.
  public let rows: Int

  /// `rows` rows of `table`.
  public init(table: String, rows: Int) {
    self.table = table
    self.rows = rows
  }

  /// The rows in a runner's words: `1 profile`, `412 activities`.
  public var phrase: String {
    let (one, many) = Self.words[table] ?? (table + " row", table + " rows")
    return "\(rows) \(rows == 1 ? one : many)"
  }

  /// Each table's rows in a runner's words.
  static let words: [String: (String, String)] = [
    "profile": ("profile", "profiles"), "coachAthlete": ("coach link", "coach links"), "plan": ("plan", "plans"),
    "scheduledWorkout": ("scheduled workout", "scheduled workouts"), "completion": ("activity", "activities"),
    "bestEffort": ("best effort", "best efforts"), "export": ("export record", "export records"),
    "healthDay": ("health day", "health days"), "healthMeasure": ("body measure", "body measures"),
    "feedToken": ("feed", "feeds"), "caldavResource": ("CalDAV event", "CalDAV events"),
    "account": ("account", "accounts"), "sessionToken": ("session token", "session tokens"),
    "workoutComment": ("comment", "comments"), "auditLog": ("audit line", "audit lines"),
    "pushedRun": ("pushed run", "pushed runs"), "deletedRun": ("deleted run", "deleted runs"),
    "pulledComment": ("pulled comment", "pulled comments"),
    "planSuccession": ("plan succession", "plan successions"),
  ]
}

/// The tables a copy carries, parents before children (so foreign keys hold as rows arrive). The change counter
/// (`dataVersion`) and each engine's migration record are not data: the target keeps its own.
public enum StoredSchema {
  /// Every table with the runner's data, in copy order.
  public static let tables: [StoredTableShape] = [
    table(
      "profile", serial: "id",
      [("id", .integer), ("name", .text), ("isCoach", .boolean), ("isDefault", .boolean), ("profileJSON", .text)]),
    table("coachAthlete", [("coachID", .integer), ("athleteID", .integer)]),
    table(
      "plan",
      [
        ("id", .text), ("name", .text), ("active", .boolean), ("savedAt", .instant), ("planJSON", .text),
        ("profileID", .integer), ("scheduleJSON", .text),
      ]),
    table(
      "scheduledWorkout",
      [
        ("planID", .text), ("workoutID", .text), ("week", .integer), ("date", .text), ("plannedDate", .text),
        ("startMinute", .integer), ("timeZone", .text), ("kind", .text), ("distanceKm", .real),
      ]),
    table(
      "completion", serial: "id",
      [
        ("id", .integer), ("date", .text), ("startedAt", .instant), ("distanceKm", .real),
        ("durationSeconds", .real), ("movingSeconds", .real), ("kind", .text), ("rpe", .integer),
        ("averageHeartRate", .integer), ("elevationGainMeters", .real), ("note", .text), ("source", .text),
        ("sourceFile", .text), ("planID", .text), ("workoutID", .text), ("status", .text), ("sport", .text),
        ("identity", .text),
      ]),
    table(
      "bestEffort",
      [("completionID", .integer), ("distanceMeters", .real), ("seconds", .real), ("startOffsetSeconds", .real)]),
    table(
      "export", serial: "id",
      [("id", .integer), ("identity", .text), ("path", .text), ("exportedAt", .instant), ("calendar", .text)]),
    table(
      "healthDay",
      [("profile", .text), ("date", .text), ("steps", .real), ("distanceKm", .real), ("activeKcal", .real)]),
    table("healthMeasure", [("profile", .text), ("kind", .text), ("date", .instant), ("value", .real)]),
    table(
      "feedToken", serial: "id",
      [
        ("id", .integer), ("planID", .text), ("tokenHash", .bytes), ("createdAt", .instant),
        ("lastFetchAt", .instant),
      ]),
    table(
      "caldavResource",
      [
        ("identity", .text), ("collection", .text), ("uid", .text), ("href", .text), ("etag", .text),
        ("bodyHash", .bytes), ("body", .text), ("label", .text), ("syncedAt", .instant),
      ]),
    // The coach server's (issue 26): accounts with their bcrypt hashes, session tokens' SHA-256, comments, the audit log.
    table(
      "account", serial: "id",
      [
        ("id", .integer), ("login", .text), ("loginKey", .text), ("role", .text), ("profileID", .integer),
        ("passwordHash", .text), ("createdAt", .instant),
      ]),
    table(
      "sessionToken", serial: "id",
      [
        ("id", .integer), ("accountID", .integer), ("tokenHash", .bytes), ("createdAt", .instant),
        ("expiresAt", .instant), ("revokedAt", .instant),
      ]),
    table(
      "workoutComment", serial: "id",
      [
        ("id", .integer), ("athleteID", .integer), ("planID", .text), ("date", .text), ("authorAccountID", .integer),
        ("text", .text), ("createdAt", .instant),
      ]),
    table(
      "auditLog", serial: "id",
      [
        ("id", .integer), ("accountID", .integer), ("login", .text), ("action", .text), ("athleteID", .integer),
        ("athlete", .text), ("detail", .text), ("at", .instant),
      ]),
    // The runs athletes pushed (`runmate push`): one per athlete and run identity.
    table(
      "pushedRun",
      [("profileID", .integer), ("clientID", .text), ("completionID", .integer), ("pushedAt", .instant)]),
    // The runs deleted from the logbook, for `runmate push` to remove on the coach's server.
    table("deletedRun", [("identity", .text), ("deletedAt", .instant)]),
    // The coaches' comments a runner pulled (`runmate pull`): one per server and comment number.
    table(
      "pulledComment",
      [
        ("server", .text), ("serverID", .integer), ("planID", .text), ("date", .text), ("author", .text),
        ("text", .text), ("createdAt", .instant),
      ]),
    // Which plan followed which from what day (a coach's plan for another race).
    table("planSuccession", [("planID", .text), ("followedBy", .text), ("fromDay", .text)]),
  ]

  /// Tables that are the engine's bookkeeping, not the runner's data: never copied.
  public static let bookkeeping: Set<String> = ["dataVersion", "grdb_migrations", "runmate_migrations"]

  static func table(_ name: String, serial: String? = nil, _ columns: [(String, StoredKind)]) -> StoredTableShape {
    StoredTableShape(name: name, columns: columns.map { StoredColumn($0.0, $0.1) }, serialColumn: serial)
  }

  /// The tables of a store with names (case ignored, as PostgreSQL folds them) outside the copy and the bookkeeping:
  /// a table this version cannot carry, so a copy must stop rather than leave its rows behind.
  public static func uncopied(_ names: [String]) -> [String] {
    let known = Set((tables.map(\.name) + bookkeeping).map { $0.lowercased() })
    return names.filter { !known.contains($0.lowercased()) }.sorted()
  }
}
