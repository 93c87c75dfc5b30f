import Foundation
import GRDB
import Ingest
import RunningCore
import TrainingDomain

/// Adds the runs athletes pushed to the coach server (`runmate push`): one row per athlete and run identity, the
/// completion it was stored as (appended after the other migrations of the logbook; PostgresStore has the same one).
func registerPushMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v12-pushed-runs") { db in
    try db.create(table: "pushedRun") { t in
      t.column("profileID", .integer).notNull().references("profile", onDelete: .cascade)
      t.column("clientID", .text).notNull()
      t.column("completionID", .integer).notNull().indexed().references("completion", onDelete: .cascade)
      t.column("pushedAt", .datetime).notNull()
      t.primaryKey(["profileID", "clientID"])
    }
  }
}

extension LogbookDatabase {
  /// Stores the runs athlete `account` pushed, for plan `planID`, in one transaction
  /// (``TrainingDomain/applyPush(_:account:planID:slots:at:to:)``).
  public func pushRuns(_ runs: [PushedRun], account: Account, planID: String, slots: [PlannedSlot], at now: Date)
    throws(LogbookError) -> PushOutcome
  {
    for pushed in runs { _ = try pushed.run.validated() }
    return try write { db in
      try applyPush(runs, account: account, planID: planID, slots: slots, at: now, to: SQLitePushWrites(db: db))
    }
  }
}

/// The logbook's rows for ``TrainingDomain/applyPush(_:account:planID:slots:at:to:)``, in a write transaction.
struct SQLitePushWrites: PushWrites {
  let db: Database
  private var ingest: SQLiteIngestWrites { SQLiteIngestWrites(db: db) }

  init(db: Database) { self.db = db }

  func storedActivities() throws -> [Completion] { try ingest.storedActivities() }
  func planExists(id: String) throws -> Bool { try ingest.planExists(id: id) }
  func update(_ run: Completion) throws { try ingest.update(run) }
  func insert(_ run: Completion) throws -> Completion { try ingest.insert(run) }

  func activities(ofPlan planID: String, from: CivilDate, through: CivilDate) throws -> [Completion] {
    try LogbookDatabase.withBestEfforts(
      CompletionRecord.filter(
        Column("planID") == planID && Column("date") >= from.description && Column("date") <= through.description
      )
      .order(Column("date"), Column("id")).fetchAll(db).map(\.completion), in: db)
  }

  func pushedRuns(profileID: Int64, clientIDs: [String]) throws -> [String: Int64] {
    guard !clientIDs.isEmpty else { return [:] }
    var runs: [String: Int64] = [:]
    let marks = Array(repeating: "?", count: clientIDs.count).joined(separator: ", ")
    for row in try Row.fetchAll(
      db, sql: "SELECT clientID, completionID FROM pushedRun WHERE profileID = ? AND clientID IN (\(marks))",
      arguments: StatementArguments([profileID] + clientIDs.map { $0 as (any DatabaseValueConvertible)? }))
    {
      runs[row[0]] = row[1]
    }
    return runs
  }

  func recordPushed(profileID: Int64, clientID: String, completionID: Int64, at now: Date) throws {
    try db.execute(
      sql: "INSERT INTO pushedRun (profileID, clientID, completionID, pushedAt) VALUES (?, ?, ?, ?)",
      arguments: [profileID, clientID, completionID, now])
  }

  func audit(account: Account, action: AuditEntry.Action, detail: String, at now: Date) throws {
    try db.execute(
      sql: """
        INSERT INTO auditLog (accountID, login, action, athleteID, athlete, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [account.id, account.login, action.rawValue, account.profileID, account.profileName, detail, now])
  }
}
