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

/// Adds which plan followed which from what day (a coach's new plan for another race, pulled or assigned), so that a
/// run of an earlier block's day counts for that block (PostgresStore has the same one).
func registerPlanSuccessionMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v16-plan-succession") { db in
    try db.create(table: "planSuccession") { t in
      t.primaryKey("planID", .text)
      t.column("followedBy", .text).notNull()
      t.column("fromDay", .text).notNull()
    }
  }
}

/// Adds the identities of runs deleted from the logbook (`log delete`, `log undo`), which `runmate push` sends so
/// that the coach's server removes them too; a run logged again with the identity takes it off (PostgresStore has
/// the same one).
func registerDeletedRunMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v15-deleted-runs") { db in
    try db.create(table: "deletedRun") { t in
      t.primaryKey("identity", .text)
      t.column("deletedAt", .datetime).notNull()
    }
  }
}

extension LogbookDatabase {
  /// Stores the runs athlete `account` pushed, each plan's share for that plan, in one transaction
  /// (``TrainingDomain/applyPush(_:deleted:account:at:to:)``).
  public func pushRuns(_ plans: [PushPlan], deleted: [String], account: Account, at now: Date) throws(LogbookError)
    -> PushOutcome
  {
    for pushed in plans.flatMap(\.runs) { _ = try pushed.run.validated() }
    return try write { db in
      try applyPush(plans, deleted: deleted, account: account, at: now, to: SQLitePushWrites(db: db))
    }
  }

  /// Every plan succession recorded.
  public func planSuccessions() throws(LogbookError) -> [PlanSuccession] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT planID, followedBy, fromDay FROM planSuccession ORDER BY planID").compactMap {
        row in
        CivilDate(iso: row[2]).map { PlanSuccession(planID: row[0], followedBy: row[1], fromDay: $0) }
      }
    }
  }

  /// The identities of the runs deleted from this logbook and not logged again, oldest first.
  public func deletedRunIdentities() throws(LogbookError) -> [String] {
    try read { db in try String.fetchAll(db, sql: "SELECT identity FROM deletedRun ORDER BY deletedAt, identity") }
  }

  /// Records that the run `run` was deleted, in the deleting transaction: `runmate push` asks the server to remove
  /// it too.
  static func recordDeleted(_ run: Completion, in db: Database) throws {
    guard let identity = run.identity else { return }
    try db.execute(
      sql: "INSERT INTO deletedRun (identity, deletedAt) VALUES (?, ?) ON CONFLICT (identity) DO NOTHING",
      arguments: [identity, Date()])
  }
}

/// The logbook's rows for ``TrainingDomain/applyPush(_:deleted:account:at:to:)``, in a write transaction.
struct SQLitePushWrites: PushWrites {
  let db: Database
  private var ingest: SQLiteIngestWrites { SQLiteIngestWrites(db: db) }

  init(db: Database) { self.db = db }

  func storedActivities() throws -> [Completion] { try ingest.storedActivities() }
  func planExists(id: String) throws -> Bool { try ingest.planExists(id: id) }
  func update(_ run: Completion) throws { try ingest.update(run) }
  func insert(_ run: Completion) throws -> Completion { try ingest.insert(run) }

  func recordSuccession(_ succession: PlanSuccession) throws {
    // The plan that follows is in force again: it no longer was followed by another (a plan assigned anew).
    try db.execute(sql: "DELETE FROM planSuccession WHERE planID = ?", arguments: [succession.followedBy])
    try db.execute(
      sql: """
        INSERT INTO planSuccession (planID, followedBy, fromDay) VALUES (?, ?, ?)
        ON CONFLICT (planID) DO UPDATE SET followedBy = excluded.followedBy, fromDay = excluded.fromDay
        """, arguments: [succession.planID, succession.followedBy, succession.fromDay.description])
  }

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

  func runIDs(ofPlan planID: String, identities: [String]) throws -> [Int64] {
    guard !identities.isEmpty else { return [] }
    let marks = Array(repeating: "?", count: identities.count).joined(separator: ", ")
    return try Int64.fetchAll(
      db, sql: "SELECT id FROM completion WHERE planID = ? AND identity IN (\(marks)) ORDER BY id",
      arguments: StatementArguments([planID] + identities.map { $0 as (any DatabaseValueConvertible)? }))
  }

  func pushedIdentities(profileID: Int64, completionIDs: [Int64]) throws -> [Int64: Set<String>] {
    guard !completionIDs.isEmpty else { return [:] }
    var claims: [Int64: Set<String>] = [:]
    let marks = Array(repeating: "?", count: completionIDs.count).joined(separator: ", ")
    for row in try Row.fetchAll(
      db, sql: "SELECT completionID, clientID FROM pushedRun WHERE profileID = ? AND completionID IN (\(marks))",
      arguments: StatementArguments([profileID] + completionIDs.map { $0 as (any DatabaseValueConvertible)? }))
    {
      claims[row[0], default: []].insert(row[1])
    }
    return claims
  }

  func forgetPushed(profileID: Int64, clientIDs: [String]) throws {
    guard !clientIDs.isEmpty else { return }
    let marks = Array(repeating: "?", count: clientIDs.count).joined(separator: ", ")
    try db.execute(
      sql: "DELETE FROM pushedRun WHERE profileID = ? AND clientID IN (\(marks))",
      arguments: StatementArguments([profileID] + clientIDs.map { $0 as (any DatabaseValueConvertible)? }))
  }

  func deleteRun(id: Int64) throws -> CivilDate? {
    let day = try String.fetchOne(db, sql: "SELECT date FROM completion WHERE id = ?", arguments: [id])
    try db.execute(sql: "DELETE FROM completion WHERE id = ?", arguments: [id])
    return day.flatMap(CivilDate.init(iso:))
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
