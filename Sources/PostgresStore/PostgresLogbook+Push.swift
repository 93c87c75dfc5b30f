import Foundation
import Ingest
import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  /// Stores the runs athlete `account` pushed, each plan's share for that plan, in one transaction
  /// (``TrainingDomain/applyPush(_:deleted:account:at:to:)``).
  public func pushRuns(_ plans: [PushPlan], deleted: [String], account: Account, at now: Date) throws(LogbookError)
    -> PushOutcome
  {
    for pushed in plans.flatMap(\.runs) { _ = try pushed.run.validated() }
    return try write { tx in
      try applyPush(plans, deleted: deleted, account: account, at: now, to: PostgresPushWrites(tx: tx))
    }
  }

  /// Every plan succession recorded.
  public func planSuccessions() throws(LogbookError) -> [PlanSuccession] {
    try read { tx in
      try tx.rows("SELECT planID, followedBy, fromDay FROM planSuccession ORDER BY planID COLLATE \"C\"").compactMap {
        row in
        let (planID, followedBy, fromDay) = try row.decode((String, String, String).self)
        return CivilDate(iso: fromDay).map { PlanSuccession(planID: planID, followedBy: followedBy, fromDay: $0) }
      }
    }
  }

  /// The identities of the runs deleted from this logbook and not logged again, oldest first.
  public func deletedRunIdentities() throws(LogbookError) -> [String] {
    try read { tx in
      try tx.rows("SELECT identity FROM deletedRun ORDER BY deletedAt, identity COLLATE \"C\"").map {
        try $0.decode(String.self)
      }
    }
  }

  /// Records that `run` was deleted, in the deleting transaction (`runmate push` asks the server to remove it too),
  /// and returns it.
  static func recordDeleted(_ run: Completion, in tx: PostgresTransaction) throws -> Completion {
    if let identity = run.identity {
      try tx.execute(
        """
        INSERT INTO deletedRun (identity, deletedAt) VALUES (\(identity), \(stored(Date())))
        ON CONFLICT (identity) DO NOTHING
        """)
    }
    return run
  }
}

/// The database's rows for ``TrainingDomain/applyPush(_:deleted:account:at:to:)``, in a write transaction.
struct PostgresPushWrites: PushWrites {
  let tx: PostgresTransaction
  private var ingest: PostgresIngestWrites { PostgresIngestWrites(tx: tx) }

  func storedActivities() throws -> [Completion] { try ingest.storedActivities() }
  func planExists(id: String) throws -> Bool { try ingest.planExists(id: id) }
  func update(_ run: Completion) throws { try ingest.update(run) }
  func insert(_ run: Completion) throws -> Completion { try ingest.insert(run) }

  func recordSuccession(_ succession: PlanSuccession) throws {
    // The plan that follows is in force again: it no longer was followed by another (a plan assigned anew).
    try tx.execute("DELETE FROM planSuccession WHERE planID = \(succession.followedBy)")
    try tx.execute(
      """
      INSERT INTO planSuccession (planID, followedBy, fromDay)
      VALUES (\(succession.planID), \(succession.followedBy), \(succession.fromDay.description))
      ON CONFLICT (planID) DO UPDATE SET followedBy = excluded.followedBy, fromDay = excluded.fromDay
      """)
  }

  func activities(ofPlan planID: String, from: CivilDate, through: CivilDate) throws -> [Completion] {
    let runs = try tx.rows(
      """
      SELECT \(unescaped: PostgresLogbook.completionColumns) FROM completion WHERE planID = \(planID)
        AND date COLLATE "C" >= \(from.description) AND date COLLATE "C" <= \(through.description)
      ORDER BY date COLLATE "C", id
      """
    ).map(PostgresLogbook.completion)
    return try PostgresLogbook.withBestEfforts(runs, in: tx, onlyTheirs: true)
  }

  func pushedRuns(profileID: Int64, clientIDs: [String]) throws -> [String: Int64] {
    guard !clientIDs.isEmpty else { return [:] }
    var runs: [String: Int64] = [:]
    for row in try tx.rows(
      "SELECT clientID, completionID FROM pushedRun WHERE profileID = \(profileID) AND clientID = ANY(\(clientIDs))")
    {
      let (clientID, completionID) = try row.decode((String, Int64).self)
      runs[clientID] = completionID
    }
    return runs
  }

  func runIDs(ofPlan planID: String, identities: [String]) throws -> [Int64] {
    guard !identities.isEmpty else { return [] }
    return try tx.rows(
      "SELECT id FROM completion WHERE planID = \(planID) AND identity = ANY(\(identities)) ORDER BY id"
    ).map { try $0.decode(Int64.self) }
  }

  func pushedIdentities(profileID: Int64, completionIDs: [Int64]) throws -> [Int64: Set<String>] {
    guard !completionIDs.isEmpty else { return [:] }
    var claims: [Int64: Set<String>] = [:]
    for row in try tx.rows(
      """
      SELECT completionID, clientID FROM pushedRun
      WHERE profileID = \(profileID) AND completionID = ANY(\(completionIDs))
      """)
    {
      let (completionID, clientID) = try row.decode((Int64, String).self)
      claims[completionID, default: []].insert(clientID)
    }
    return claims
  }

  func forgetPushed(profileID: Int64, clientIDs: [String]) throws {
    guard !clientIDs.isEmpty else { return }
    try tx.execute("DELETE FROM pushedRun WHERE profileID = \(profileID) AND clientID = ANY(\(clientIDs))")
  }

  func deleteRun(id: Int64) throws -> CivilDate? {
    try tx.value("DELETE FROM completion WHERE id = \(id) RETURNING date", as: String.self).flatMap(
      CivilDate.init(iso:))
  }

  func recordPushed(profileID: Int64, clientID: String, completionID: Int64, at now: Date) throws {
    try tx.execute(
      """
      INSERT INTO pushedRun (profileID, clientID, completionID, pushedAt)
      VALUES (\(profileID), \(clientID), \(completionID), \(stored(now)))
      """)
  }

  func audit(account: Account, action: AuditEntry.Action, detail: String, at now: Date) throws {
    try tx.execute(
      """
      INSERT INTO auditLog (accountID, login, action, athleteID, athlete, detail, at)
      VALUES (\(account.id), \(account.login), \(action.rawValue), \(account.profileID), \(account.profileName),
        \(detail), \(stored(now)))
      """)
  }
}
