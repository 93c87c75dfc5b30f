import Foundation
import GRDB
import TrainingDomain

/// The tables a plan's calendar is made from: a change to any of them moves the change counter.
private let watchedTables = ["plan", "scheduledWorkout", "export", "profile", "completion"]

/// Adds the feed tokens and the change counter (appended after the other migrations of the logbook).
func registerFeedMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v8-feed-tokens") { db in
    try db.create(table: "feedToken") { t in
      t.autoIncrementedPrimaryKey("id")
      t.column("planID", .text).notNull().indexed().references("plan", onDelete: .cascade)
      t.column("tokenHash", .blob).notNull().unique().check { length($0) == 32 }
      t.column("createdAt", .datetime).notNull()
      t.column("lastFetchAt", .datetime)
    }
    // One row: a counter the triggers below move on every write to the watched tables (cheaper to read than
    // the data, and unlike PRAGMA data_version the same on every connection of a pool).
    try db.create(table: "dataVersion") { t in
      t.primaryKey("id", .integer).check { $0 == 1 }
      t.column("version", .integer).notNull()
      t.column("changedAt", .datetime).notNull()
    }
    try db.execute(
      sql: "INSERT INTO dataVersion (id, version, changedAt) VALUES (1, 0, strftime('%Y-%m-%d %H:%M:%f', 'now'))")
    for table in watchedTables {
      for event in ["INSERT", "UPDATE", "DELETE"] {
        try db.execute(
          sql: """
            CREATE TRIGGER \(table)_\(event.lowercased())_moves_data_version AFTER \(event) ON \(table)
            BEGIN
              UPDATE dataVersion SET version = version + 1, changedAt = strftime('%Y-%m-%d %H:%M:%f', 'now');
            END
            """)
      }
    }
  }
}

extension LogbookDatabase {
  private func feedWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) throws(LogbookError) -> T {
    do {
      return try writer.write(body)
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Reads in a transaction, or without one when `unsafe` (one statement only: see GRDB's `unsafeRead`).
  private func feedRead<T: Sendable>(
    unsafe: Bool = false, _ body: @escaping @Sendable (Database) throws -> T
  ) throws(LogbookError) -> T {
    do {
      return try unsafe ? writer.unsafeRead(body) : writer.read(body)
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Stores a new feed for `planID` under the SHA-256 `tokenHash` of its secret token (32 bytes).
  /// - Throws: ``LogbookError`` when the hash is not 32 bytes or the plan is gone.
  public func createFeed(planID: String, tokenHash: [UInt8], at now: Date) throws(LogbookError) -> FeedSubscription {
    guard tokenHash.count == 32 else {
      throw .database(detail: "a feed token hash has 32 bytes, not \(tokenHash.count)")
    }
    let id = try feedWrite { db -> Int64 in
      try db.execute(
        sql: "INSERT INTO feedToken (planID, tokenHash, createdAt) VALUES (?, ?, ?)",
        arguments: [planID, Data(tokenHash), now])
      return db.lastInsertedRowID
    }
    return try feed(id: id)
  }

  /// The feed numbered `id`.
  /// - Throws: ``LogbookError/noSuchFeed(id:known:)`` when there is none.
  public func feed(id: Int64) throws(LogbookError) -> FeedSubscription {
    guard let found = try feeds().first(where: { $0.id == id }) else {
      throw .noSuchFeed(id: id, known: try feeds().map(\.id))
    }
    return found
  }

  /// Every feed (of the plan `planID` only, when given), by number.
  public func feeds(planID: String? = nil) throws(LogbookError) -> [FeedSubscription] {
    try feedRead { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT feedToken.id, feedToken.planID, plan.name, feedToken.createdAt, feedToken.lastFetchAt
          FROM feedToken JOIN plan ON plan.id = feedToken.planID
          WHERE ? IS NULL OR feedToken.planID = ?
          ORDER BY feedToken.id
          """, arguments: [planID, planID])
      return rows.map { row in
        FeedSubscription(
          id: row[0], planID: row[1], planName: row[2], createdAt: row[3], lastFetchAt: row[4])
      }
    }
  }

  /// Replaces the token of feed `id` by the one hashing to `tokenHash`: the old token stops working at once.
  /// - Throws: ``LogbookError/noSuchFeed(id:known:)`` when there is no such feed.
  public func rotateFeed(id: Int64, tokenHash: [UInt8], at now: Date) throws(LogbookError) -> FeedSubscription {
    guard tokenHash.count == 32 else {
      throw .database(detail: "a feed token hash has 32 bytes, not \(tokenHash.count)")
    }
    let changed = try feedWrite { db -> Int in
      try db.execute(
        sql: "UPDATE feedToken SET tokenHash = ?, createdAt = ?, lastFetchAt = NULL WHERE id = ?",
        arguments: [Data(tokenHash), now, id])
      return db.changesCount
    }
    guard changed == 1 else { throw .noSuchFeed(id: id, known: try feeds().map(\.id)) }
    return try feed(id: id)
  }

  /// Deletes feed `id`: its token stops working at once.
  /// - Throws: ``LogbookError/noSuchFeed(id:known:)`` when there is no such feed.
  public func revokeFeed(id: Int64) throws(LogbookError) -> FeedSubscription {
    let found = try feed(id: id)
    _ = try feedWrite { db -> Int in
      try db.execute(sql: "DELETE FROM feedToken WHERE id = ?", arguments: [id])
      return db.changesCount
    }
    return found
  }

  /// The feed whose token hashes to `tokenHash`, with the change counter, in one read; nil for no such feed.
  public func feedAccess(tokenHash: [UInt8]) throws(LogbookError) -> FeedAccess? {
    guard tokenHash.count == 32 else { return nil }
    let key = Data(tokenHash)
    // One statement on every feed request: read outside an explicit transaction (a single SELECT sees one
    // snapshot of both tables by itself) and from the connection's statement cache, so a request costs one step of
    // a prepared statement instead of BEGIN, a fresh compile and COMMIT.
    return try feedRead(unsafe: true) { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT feedToken.id, feedToken.planID, feedToken.tokenHash, feedToken.lastFetchAt,
            dataVersion.version, dataVersion.changedAt
          FROM feedToken, dataVersion WHERE feedToken.tokenHash = ?
          """)
      guard let row = try Row.fetchOne(statement, arguments: [key]) else { return nil }
      let stored: Data = row[2]
      return FeedAccess(
        feedID: row[0], planID: row[1], tokenHash: Array(stored), lastFetchAt: row[3], dataVersion: row[4],
        changedAt: row[5])
    }
  }

  /// The change counter and when it last moved (see ``FeedAccess/dataVersion``).
  public func dataVersion() throws(LogbookError) -> (version: Int64, changedAt: Date) {
    try feedRead { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT version, changedAt FROM dataVersion WHERE id = 1") else {
        throw LogbookError.database(detail: "the dataVersion row is missing")
      }
      return (row[0], row[1])
    }
  }

  /// Notes that a calendar fetched feed `id` at `now` (the feeds table is not watched: no feed is re-rendered).
  public func recordFeedFetch(id: Int64, at now: Date) throws(LogbookError) {
    try feedWrite { db in
      try db.execute(sql: "UPDATE feedToken SET lastFetchAt = ? WHERE id = ?", arguments: [now, id])
    }
  }
}
