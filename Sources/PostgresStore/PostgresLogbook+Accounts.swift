import Foundation
import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  // MARK: - One plan's runs

  /// The runs counted for plan `planID` from `from` through `through`, by date (index `completion_on_plan_date`).
  public func completions(planID: String, from: CivilDate, through: CivilDate) throws(LogbookError) -> [Completion] {
    try read { tx in
      let runs = try tx.rows(
        """
        SELECT \(unescaped: Self.completionColumns) FROM completion
        WHERE planID = \(planID) AND date COLLATE "C" >= \(from.description)
          AND date COLLATE "C" <= \(through.description) AND sport = \(Sport.run.name)
        ORDER BY date COLLATE "C", id
        """
      ).map(Self.completion)
      return try Self.withBestEfforts(runs, in: tx, onlyTheirs: true)
    }
  }

  // MARK: - Accounts, session tokens, comments and the audit log

  /// The columns an account is read from, joined with its profile's name.
  private static let accountColumns = """
    account.id, account.login, account.role, account.profileID, profile.name, account.passwordHash, account.createdAt
    """

  private static func account(_ row: PostgresRow) throws -> Account {
    let (id, login, role, profileID, profileName, hash, createdAt) = try row.decode(
      (Int64, String, String, Int64, String, String, Date).self)
    guard let role = AccountRole(rawValue: role) else {
      throw LogbookError.database(detail: "account \(id) has the unknown role '\(role)'")
    }
    return Account(
      id: id, login: login, role: role, profileID: profileID, profileName: profileName, passwordHash: hash,
      createdAt: createdAt)
  }

  private static func account(id: Int64, in tx: PostgresTransaction) throws -> Account? {
    try tx.rows(
      """
      SELECT \(unescaped: accountColumns) FROM account JOIN profile ON profile.id = account.profileID
      WHERE account.id = \(id)
      """
    ).first.map(account)
  }

  /// Appends one line to the audit log.
  static func audit(
    _ tx: PostgresTransaction, account: Account?, action: AuditEntry.Action, athleteID: Int64?, athlete: String?,
    detail: String, at now: Date
  ) throws {
    try tx.execute(
      """
      INSERT INTO auditLog (accountID, login, action, athleteID, athlete, detail, at)
      VALUES (\(account?.id), \(account?.login), \(action.rawValue), \(athleteID), \(athlete), \(detail), \(stored(now)))
      """)
  }

  /// Creates an account and records it in the audit log, in one transaction.
  /// - Throws: ``LogbookError/accountExists(login:)`` when the login (in any case) is taken.
  public func createAccount(
    login: String, role: AccountRole, profileID: Int64, passwordHash: String, at now: Date
  ) throws(LogbookError) -> Account {
    try write { tx in
      let key = login.lowercased()
      if try tx.value("SELECT 1 FROM account WHERE loginKey = \(key)", as: Int32.self) != nil {
        throw LogbookError.accountExists(login: login)
      }
      guard
        let id = try tx.value(
          """
          INSERT INTO account (login, loginKey, role, profileID, passwordHash, createdAt)
          VALUES (\(login), \(key), \(role.rawValue), \(profileID), \(passwordHash), \(stored(now))) RETURNING id
          """, as: Int64.self),
        let created = try Self.account(id: id, in: tx)
      else { throw LogbookError.database(detail: "a new account got no number") }
      try Self.audit(
        tx, account: nil, action: .accountCreated, athleteID: profileID, athlete: created.profileName,
        detail: "\(role.rawValue) account '\(login)'", at: now)
      return created
    }
  }

  /// The account whose login is `login` in any case, or nil.
  public func account(login: String) throws(LogbookError) -> Account? {
    try read { tx in
      try tx.rows(
        """
        SELECT \(unescaped: Self.accountColumns) FROM account JOIN profile ON profile.id = account.profileID
        WHERE loginKey = \(login.lowercased())
        """
      ).first.map(Self.account)
    }
  }

  /// Stores a session token's hash for an account and records the login, in one transaction.
  public func createSessionToken(
    accountID: Int64, tokenHash: [UInt8], at now: Date, expiresAt: Date
  ) throws(LogbookError) {
    guard tokenHash.count == 32 else { throw .database(detail: "a token hash has 32 bytes, not \(tokenHash.count)") }
    try write { tx in
      try tx.execute(
        """
        INSERT INTO sessionToken (accountID, tokenHash, createdAt, expiresAt)
        VALUES (\(accountID), \(Data(tokenHash)), \(stored(now)), \(stored(expiresAt)))
        """)
      try Self.audit(
        tx, account: try Self.account(id: accountID, in: tx), action: .sessionCreated, athleteID: nil, athlete: nil,
        detail: "logged in", at: now)
    }
  }

  /// The account a valid (known, unexpired, unrevoked) token's hash opens, or nil.
  public func sessionAccount(tokenHash: [UInt8], at now: Date) throws(LogbookError) -> Account? {
    guard tokenHash.count == 32 else { return nil }
    return try read { tx in
      try tx.rows(
        """
        SELECT \(unescaped: Self.accountColumns) FROM sessionToken JOIN account ON account.id = sessionToken.accountID
        JOIN profile ON profile.id = account.profileID
        WHERE sessionToken.tokenHash = \(Data(tokenHash)) AND sessionToken.revokedAt IS NULL
          AND sessionToken.expiresAt > \(now)
        """
      ).first.map(Self.account)
    }
  }

  /// Revokes a valid token and records the logout; false when it was not valid.
  public func revokeSessionToken(tokenHash: [UInt8], at now: Date) throws(LogbookError) -> Bool {
    guard let holder = try sessionAccount(tokenHash: tokenHash, at: now) else { return false }
    return try write { tx in
      let changed = try tx.execute(
        """
        UPDATE sessionToken SET revokedAt = \(stored(now)) WHERE tokenHash = \(Data(tokenHash)) AND revokedAt IS NULL
        """)
      guard changed == 1 else { return false }
      try Self.audit(
        tx, account: holder, action: .sessionRevoked, athleteID: nil, athlete: nil, detail: "logged out", at: now)
      return true
    }
  }

  /// Stores a comment on a workout and records it in the audit log, in one transaction.
  public func addComment(
    athleteID: Int64, planID: String, date: CivilDate, author: Account, text: String, at now: Date
  ) throws(LogbookError) -> WorkoutComment {
    try checkFreeText(text, record: "comment on \(date)", field: .text)
    return try write { tx in
      guard
        let id = try tx.value(
          """
          INSERT INTO workoutComment (athleteID, planID, date, authorAccountID, text, createdAt)
          VALUES (\(athleteID), \(planID), \(date.description), \(author.id), \(text), \(stored(now))) RETURNING id
          """, as: Int64.self)
      else { throw LogbookError.database(detail: "a new comment got no number") }
      let athlete = try tx.value("SELECT name FROM profile WHERE id = \(athleteID)", as: String.self)
      try Self.audit(
        tx, account: author, action: .commentAdded, athleteID: athleteID, athlete: athlete,
        detail: "comment \(id) on the workout of \(date) (plan \(planID))", at: now)
      return WorkoutComment(
        id: id, athlete: athlete ?? "", planID: planID, date: date, author: author.profileName, role: author.role,
        text: text,
        createdAt: try tx.value("SELECT createdAt FROM workoutComment WHERE id = \(id)", as: Date.self) ?? now)
    }
  }

  /// The comments on a workout, oldest first.
  public func comments(athleteID: Int64, planID: String, date: CivilDate) throws(LogbookError) -> [WorkoutComment] {
    try read { tx in
      try tx.rows(
        """
        SELECT workoutComment.id, athlete.name, author.name, account.role, workoutComment.text,
          workoutComment.createdAt
        FROM workoutComment JOIN profile AS athlete ON athlete.id = workoutComment.athleteID
        JOIN account ON account.id = workoutComment.authorAccountID
        JOIN profile AS author ON author.id = account.profileID
        WHERE workoutComment.athleteID = \(athleteID) AND workoutComment.planID = \(planID)
          AND workoutComment.date = \(date.description)
        ORDER BY workoutComment.id
        """
      ).map { row in
        let (id, athlete, author, role, text, createdAt) = try row.decode(
          (Int64, String, String, String, String, Date).self)
        return WorkoutComment(
          id: id, athlete: athlete, planID: planID, date: date, author: author,
          role: AccountRole(rawValue: role) ?? .athlete, text: text, createdAt: createdAt)
      }
    }
  }

  /// The comments on an athlete's workouts numbered after `id`, oldest first, at most `limit`.
  ///
  /// A cursor of "the last number seen" misses nothing even with several servers writing: every write transaction
  /// takes the one advisory lock first (``PostgresSession``), so a comment's number is drawn and committed before the
  /// next writer draws one, and no comment with a lower number can commit after a reader has seen a higher one.
  public func comments(athleteID: Int64, after id: Int64, limit: Int) throws(LogbookError) -> [WorkoutComment] {
    try read { tx in
      try tx.rows(
        """
        SELECT workoutComment.id, athlete.name, workoutComment.planID, workoutComment.date, author.name, account.role,
          workoutComment.text, workoutComment.createdAt
        FROM workoutComment JOIN profile AS athlete ON athlete.id = workoutComment.athleteID
        JOIN account ON account.id = workoutComment.authorAccountID
        JOIN profile AS author ON author.id = account.profileID
        WHERE workoutComment.athleteID = \(athleteID) AND workoutComment.id > \(id)
        ORDER BY workoutComment.id LIMIT \(limit)
        """
      ).compactMap { row in
        let (number, athlete, planID, day, author, role, text, createdAt) = try row.decode(
          (Int64, String, String, String, String, String, String, Date).self)
        guard let date = CivilDate(iso: day) else { return nil }
        return WorkoutComment(
          id: number, athlete: athlete, planID: planID, date: date, author: author,
          role: AccountRole(rawValue: role) ?? .athlete, text: text, createdAt: createdAt)
      }
    }
  }

  /// The audit log, newest first, at most `limit` entries.
  public func auditLog(limit: Int) throws(LogbookError) -> [AuditEntry] {
    try read { tx in
      try tx.rows("SELECT id, login, action, athlete, detail, at FROM auditLog ORDER BY id DESC LIMIT \(limit)")
        .compactMap { row in
          let (id, login, action, athlete, detail, at) = try row.decode(
            (Int64, String?, String, String?, String, Date).self)
          guard let action = AuditEntry.Action(rawValue: action) else { return nil }
          return AuditEntry(id: id, login: login, action: action, athlete: athlete, detail: detail, at: at)
        }
    }
  }
}
