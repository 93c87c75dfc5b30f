import Foundation
import GRDB
import TrainingDomain

/// Adds the CalDAV sync state (appended after the other migrations of the logbook).
func registerCalDAVMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v9-caldav-sync") { db in
    // Keyed by the plan's calendar identity (its race, as the export table is), so a plan saved again for the same
    // race keeps updating the same resources, and by the collection's URL.
    try db.create(table: "caldavResource") { t in
      t.column("identity", .text).notNull()
      t.column("collection", .text).notNull()
      t.column("uid", .text).notNull()
      t.column("href", .text).notNull()
      t.column("etag", .text)
      t.column("bodyHash", .blob).notNull().check { length($0) == 32 }
      t.column("body", .text).notNull()
      t.column("label", .text).notNull()
      t.column("syncedAt", .datetime).notNull()
      t.primaryKey(["identity", "collection", "uid"])
    }
  }
}

extension LogbookDatabase {
  /// What the syncs of the calendar `identity` left in the collection at `collection`, by UID.
  public func caldavRecords(identity: String, collection: String) throws(LogbookError) -> [CalDAVRecord] {
    do {
      return try writer.read { db in
        try Row.fetchAll(
          db,
          sql: """
            SELECT uid, href, etag, bodyHash, body, label FROM caldavResource
            WHERE identity = ? AND collection = ? ORDER BY uid
            """, arguments: [identity, collection]
        ).map { row in
          let hash: Data = row[3]
          return CalDAVRecord(
            uid: row[0], href: row[1], etag: row[2], bodyHash: Array(hash), body: row[4], label: row[5])
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// How many resources the syncs of each calendar identity left in the collection at `collection`.
  public func caldavIdentities(collection: String) throws(LogbookError) -> [String: Int] {
    do {
      return try writer.read { db in
        var counts: [String: Int] = [:]
        for row in try Row.fetchAll(
          db, sql: "SELECT identity, COUNT(*) FROM caldavResource WHERE collection = ? GROUP BY identity",
          arguments: [collection])
        {
          counts[row[0]] = row[1]
        }
        return counts
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Records a sync in one transaction: `stored` replace their records, the records of `removed` UIDs go.
  /// - Throws: ``LogbookError`` when a hash is not 32 bytes or the write fails (nothing is recorded then).
  public func recordCalDAVSync(
    identity: String, collection: String, stored: [CalDAVRecord], removed: [String], at now: Date
  ) throws(LogbookError) {
    if let bad = stored.first(where: { $0.bodyHash.count != 32 }) {
      throw .database(detail: "a CalDAV body hash has 32 bytes, not \(bad.bodyHash.count)")
    }
    do {
      try writer.write { db in
        for record in stored {
          try db.execute(
            sql: """
              INSERT OR REPLACE INTO caldavResource
                (identity, collection, uid, href, etag, bodyHash, body, label, syncedAt)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
              """,
            arguments: [
              identity, collection, record.uid, record.href, record.etag, Data(record.bodyHash), record.body,
              record.label, now,
            ])
        }
        for uid in removed {
          try db.execute(
            sql: "DELETE FROM caldavResource WHERE identity = ? AND collection = ? AND uid = ?",
            arguments: [identity, collection, uid])
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }
}
