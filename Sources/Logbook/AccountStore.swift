import Foundation
import GRDB
import RunningCore
import TrainingDomain

/// Adds the coach API's accounts, session tokens, workout comments and audit log, and an index that reads one plan's
/// runs by date (appended after the other migrations of the logbook; PostgresStore has the same one).
func registerAccountMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v11-accounts") { db in
    try db.create(table: "account") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("login", .text).notNull()
      // The login folded to lower case: one account per address whatever its case.
      t.column("loginKey", .text).notNull().unique()
      t.column("role", .text).notNull().check { ["coach", "athlete"].contains($0) }
      t.column("profileID", .integer).notNull().indexed().references("profile", onDelete: .cascade)
      t.column("passwordHash", .text).notNull()
      t.column("createdAt", .datetime).notNull()
    }
    try db.create(table: "sessionToken") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("accountID", .integer).notNull().indexed().references("account", onDelete: .cascade)
      t.column("tokenHash", .blob).notNull().unique().check { length($0) == 32 }
      t.column("createdAt", .datetime).notNull()
      t.column("expiresAt", .datetime).notNull()
      t.column("revokedAt", .datetime)
    }
    try db.create(table: "workoutComment") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("athleteID", .integer).notNull().references("profile", onDelete: .cascade)
      t.column("planID", .text).notNull().references("plan", onDelete: .cascade)
      t.column("date", .text).notNull()
      t.column("authorAccountID", .integer).notNull().references("account", onDelete: .cascade)
      t.column("text", .text).notNull()
      t.column("createdAt", .datetime).notNull()
    }
    try db.create(
      index: "workoutComment_on_athlete_plan_date", on: "workoutComment", columns: ["athleteID", "planID", "date"])
    // Who did what, kept when the account or the athlete is deleted (their names are copied).
    try db.create(table: "auditLog") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("accountID", .integer).references("account", onDelete: .setNull)
      t.column("login", .text)
      t.column("action", .text).notNull()
      t.column("athleteID", .integer).references("profile", onDelete: .setNull)
      t.column("athlete", .text)
      t.column("detail", .text).notNull()
      t.column("at", .datetime).notNull()
    }
    try db.create(index: "completion_on_plan_date", on: "completion", columns: ["planID", "date"])
    try db.create(index: "plan_on_profileID", on: "plan", columns: ["profileID"])
  }
}

/// The columns an account is read from, joined with its profile's name.
private let accountColumns = """
  account.id, account.login, account.role, account.profileID, profile.name, account.passwordHash, account.createdAt
  """

/// An account from a row of ``accountColumns``.
private func decodeAccount(_ row: Row) throws -> Account {
  let role: String = row[2]
  guard let role = AccountRole(rawValue: role) else {
    throw LogbookError.database(detail: "account \(row[0] as Int64) has the unknown role '\(role)'")
  }
  return Account(
    id: row[0], login: row[1], role: role, profileID: row[3], profileName: row[4], passwordHash: row[5],
    createdAt: row[6])
}

/// Appends one line to the audit log.
func audit(
  _ db: Database, account: Account?, action: AuditEntry.Action, athleteID: Int64?, athlete: String?, detail: String,
  at now: Date
) throws {
  try db.execute(
    sql: """
      INSERT INTO auditLog (accountID, login, action, athleteID, athlete, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
    arguments: [account?.id, account?.login, action.rawValue, athleteID, athlete, detail, now])
}

extension LogbookDatabase {
  /// The runs counted for plan `planID` from `from` through `through`, by date.
  public func completions(planID: String, from: CivilDate, through: CivilDate) throws(LogbookError) -> [Completion] {
    try read { db in
      try LogbookDatabase.withBestEfforts(
        CompletionRecord.filter(
          Column("planID") == planID && Column("date") >= from.description && Column("date") <= through.description
            && Column("sport") == Sport.run.name
        ).order(Column("date"), Column("id")).fetchAll(db).map(\.completion), in: db)
    }
  }

  /// Creates an account and records it in the audit log, in one transaction.
  /// - Throws: ``LogbookError/accountExists(login:)`` when the login (in any case) is taken.
  public func createAccount(
    login: String, role: AccountRole, profileID: Int64, passwordHash: String, at now: Date
  ) throws(LogbookError) -> Account {
    try write { db in
      let key = login.lowercased()
      if try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE loginKey = ?", arguments: [key]) == true {
        throw LogbookError.accountExists(login: login)
      }
      try db.execute(
        sql: """
          INSERT INTO account (login, loginKey, role, profileID, passwordHash, createdAt) VALUES (?, ?, ?, ?, ?, ?)
          """, arguments: [login, key, role.rawValue, profileID, passwordHash, now])
      let id = db.lastInsertedRowID
      guard
        let row = try Row.fetchOne(
          db,
          sql:
            "SELECT \(accountColumns) FROM account JOIN profile ON profile.id = account.profileID WHERE account.id = ?",
          arguments: [id])
      else { throw LogbookError.noSuchProfile(name: "#\(profileID)", known: []) }
      let created = try decodeAccount(row)
      try audit(
        db, account: nil, action: .accountCreated, athleteID: profileID, athlete: created.profileName,
        detail: "\(role.rawValue) account '\(login)'", at: now)
      return created
    }
  }

  /// The account whose login is `login` in any case, or nil.
  public func account(login: String) throws(LogbookError) -> Account? {
    try read { db in
      try Row.fetchOne(
        db,
        sql: "SELECT \(accountColumns) FROM account JOIN profile ON profile.id = account.profileID WHERE loginKey = ?",
        arguments: [login.lowercased()]
      ).map(decodeAccount)
    }
  }

  /// Stores a session token's hash for an account and records the login, in one transaction.
  public func createSessionToken(
    accountID: Int64, tokenHash: [UInt8], at now: Date, expiresAt: Date
  ) throws(LogbookError) {
    guard tokenHash.count == 32 else { throw .database(detail: "a token hash has 32 bytes, not \(tokenHash.count)") }
    try write { db in
      try db.execute(
        sql: "INSERT INTO sessionToken (accountID, tokenHash, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
        arguments: [accountID, Data(tokenHash), now, expiresAt])
      let row = try Row.fetchOne(
        db,
        sql:
          "SELECT \(accountColumns) FROM account JOIN profile ON profile.id = account.profileID WHERE account.id = ?",
        arguments: [accountID])
      try audit(
        db, account: try row.map(decodeAccount), action: .sessionCreated, athleteID: nil, athlete: nil,
        detail: "logged in", at: now)
    }
  }

  /// The account a valid (known, unexpired, unrevoked) token's hash opens, or nil.
  public func sessionAccount(tokenHash: [UInt8], at now: Date) throws(LogbookError) -> Account? {
    guard tokenHash.count == 32 else { return nil }
    return try read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT \(accountColumns) FROM sessionToken JOIN account ON account.id = sessionToken.accountID
          JOIN profile ON profile.id = account.profileID
          WHERE sessionToken.tokenHash = ? AND sessionToken.revokedAt IS NULL AND sessionToken.expiresAt > ?
          """, arguments: [Data(tokenHash), now]
      ).map(decodeAccount)
    }
  }

  /// Revokes a valid token and records the logout; false when it was not valid.
  public func revokeSessionToken(tokenHash: [UInt8], at now: Date) throws(LogbookError) -> Bool {
    guard let holder = try sessionAccount(tokenHash: tokenHash, at: now) else { return false }
    return try write { db in
      try db.execute(
        sql: "UPDATE sessionToken SET revokedAt = ? WHERE tokenHash = ? AND revokedAt IS NULL",
        arguments: [now, Data(tokenHash)])
      guard db.changesCount == 1 else { return false }
      try audit(
        db, account: holder, action: .sessionRevoked, athleteID: nil, athlete: nil, detail: "logged out", at: now)
      return true
    }
  }

  /// Stores a comment on a workout and records it in the audit log, in one transaction.
  public func addComment(
    athleteID: Int64, planID: String, date: CivilDate, author: Account, text: String, at now: Date
  ) throws(LogbookError) -> WorkoutComment {
    try checkFreeText(text, record: "comment on \(date)", field: .text)
    return try write { db in
      try db.execute(
        sql: """
          INSERT INTO workoutComment (athleteID, planID, date, authorAccountID, text, createdAt)
          VALUES (?, ?, ?, ?, ?, ?)
          """, arguments: [athleteID, planID, date.description, author.id, text, now])
      let id = db.lastInsertedRowID
      let athlete = try String.fetchOne(db, sql: "SELECT name FROM profile WHERE id = ?", arguments: [athleteID])
      // As stored (to the millisecond), so that the comment returned equals the one read later.
      let createdAt =
        try Date.fetchOne(db, sql: "SELECT createdAt FROM workoutComment WHERE id = ?", arguments: [id]) ?? now
      try audit(
        db, account: author, action: .commentAdded, athleteID: athleteID, athlete: athlete,
        detail: "comment \(id) on the workout of \(date) (plan \(planID))", at: now)
      return WorkoutComment(
        id: id, athlete: athlete ?? "", planID: planID, date: date, author: author.profileName, role: author.role,
        text: text, createdAt: createdAt)
    }
  }

  /// The comments on a workout, oldest first.
  public func comments(athleteID: Int64, planID: String, date: CivilDate) throws(LogbookError) -> [WorkoutComment] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT workoutComment.id, athlete.name, author.name, account.role, workoutComment.text,
            workoutComment.createdAt
          FROM workoutComment JOIN profile AS athlete ON athlete.id = workoutComment.athleteID
          JOIN account ON account.id = workoutComment.authorAccountID
          JOIN profile AS author ON author.id = account.profileID
          WHERE workoutComment.athleteID = ? AND workoutComment.planID = ? AND workoutComment.date = ?
          ORDER BY workoutComment.id
          """, arguments: [athleteID, planID, date.description]
      ).map { row in
        WorkoutComment(
          id: row[0], athlete: row[1], planID: planID, date: date, author: row[2],
          role: AccountRole(rawValue: row[3]) ?? .athlete, text: row[4], createdAt: row[5])
      }
    }
  }

  /// The comments on an athlete's workouts numbered after `id`, oldest first, at most `limit`.
  public func comments(athleteID: Int64, after id: Int64, limit: Int) throws(LogbookError) -> [WorkoutComment] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT workoutComment.id, athlete.name, workoutComment.planID, workoutComment.date, author.name,
            account.role, workoutComment.text, workoutComment.createdAt
          FROM workoutComment JOIN profile AS athlete ON athlete.id = workoutComment.athleteID
          JOIN account ON account.id = workoutComment.authorAccountID
          JOIN profile AS author ON author.id = account.profileID
          WHERE workoutComment.athleteID = ? AND workoutComment.id > ?
          ORDER BY workoutComment.id LIMIT ?
          """, arguments: [athleteID, id, limit]
      ).compactMap { row in
        guard let date = CivilDate(iso: row[3]) else { return nil }
        return WorkoutComment(
          id: row[0], athlete: row[1], planID: row[2], date: date, author: row[4],
          role: AccountRole(rawValue: row[5]) ?? .athlete, text: row[6], createdAt: row[7])
      }
    }
  }

  /// The audit log, newest first, at most `limit` entries.
  public func auditLog(limit: Int) throws(LogbookError) -> [AuditEntry] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, login, action, athlete, detail, at FROM auditLog ORDER BY id DESC LIMIT ?",
        arguments: [limit]
      ).compactMap { row in
        guard let action = AuditEntry.Action(rawValue: row[2]) else { return nil }
        return AuditEntry(id: row[0], login: row[1], action: action, athlete: row[3], detail: row[4], at: row[5])
      }
    }
  }
}
