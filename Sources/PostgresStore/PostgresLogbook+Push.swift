import Foundation
import Ingest
import PostgresNIO
import RunningCore
import TrainingDomain

extension PostgresLogbook {
  /// Stores the runs athlete `account` pushed, for plan `planID`, in one transaction
  /// (``TrainingDomain/applyPush(_:account:planID:slots:at:to:)``).
  public func pushRuns(_ runs: [PushedRun], account: Account, planID: String, slots: [PlannedSlot], at now: Date)
    throws(LogbookError) -> PushOutcome
  {
    for pushed in runs { _ = try pushed.run.validated() }
    return try write { tx in
      try applyPush(runs, account: account, planID: planID, slots: slots, at: now, to: PostgresPushWrites(tx: tx))
    }
  }
}

/// The database's rows for ``TrainingDomain/applyPush(_:account:planID:slots:at:to:)``, in a write transaction.
struct PostgresPushWrites: PushWrites {
  let tx: PostgresTransaction
  private var ingest: PostgresIngestWrites { PostgresIngestWrites(tx: tx) }

  func storedActivities() throws -> [Completion] { try ingest.storedActivities() }
  func planExists(id: String) throws -> Bool { try ingest.planExists(id: id) }
  func update(_ run: Completion) throws { try ingest.update(run) }
  func insert(_ run: Completion) throws -> Completion { try ingest.insert(run) }

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
