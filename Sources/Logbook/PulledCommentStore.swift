import Foundation
import GRDB
import RunningCore
import TrainingDomain

/// Adds the coaches' comments `runmate pull` keeps in the runner's own logbook: one row per server and comment
/// number, on the logbook's plan the pull applied to; writing them moves the change counter, as they are in the
/// plan's calendar (appended after the other migrations of the logbook; PostgresStore has the same one).
func registerPulledCommentMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v13-pulled-comments") { db in
    try db.create(table: "pulledComment") { t in
      t.column("server", .text).notNull()
      t.column("serverID", .integer).notNull()
      t.column("planID", .text).references("plan", onDelete: .cascade)
      t.column("date", .text).notNull()
      t.column("author", .text).notNull()
      t.column("text", .text).notNull()
      t.column("createdAt", .datetime).notNull()
      t.primaryKey(["server", "serverID"])
    }
    try db.create(index: "pulledComment_on_plan_date", on: "pulledComment", columns: ["planID", "date"])
    for event in ["INSERT", "UPDATE", "DELETE"] {
      try db.execute(
        sql: """
          CREATE TRIGGER pulledComment_\(event.lowercased())_moves_data_version AFTER \(event) ON pulledComment
          BEGIN
            UPDATE dataVersion SET version = version + 1, changedAt = strftime('%Y-%m-%d %H:%M:%f', 'now');
          END
          """)
    }
  }
}

extension LogbookDatabase {
  /// Keeps pulled comments, each once per server and number, in one transaction; returns how many were new.
  public func keepPulledComments(_ comments: [CoachComment], server: String, planID: String?) throws(LogbookError)
    -> Int
  {
    for comment in comments { try checkFreeText(comment.text, record: "comment on \(comment.date)", field: .text) }
    guard !comments.isEmpty else { return 0 }
    return try write { db in
      var added = 0
      for comment in comments {
        try db.execute(
          sql: """
            INSERT INTO pulledComment (server, serverID, planID, date, author, text, createdAt)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (server, serverID) DO NOTHING
            """,
          arguments: [
            server, comment.serverID, planID, comment.date.description, comment.author, comment.text,
            comment.createdAt,
          ])
        added += db.changesCount
      }
      return added
    }
  }

  /// The comments kept for a plan on a range of days, by date, then by their number on the server.
  public func pulledComments(planID: String, from: CivilDate, through: CivilDate) throws(LogbookError)
    -> [CoachComment]
  {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT serverID, date, author, text, createdAt FROM pulledComment
          WHERE planID = ? AND date >= ? AND date <= ? ORDER BY date, server, serverID
          """, arguments: [planID, from.description, through.description]
      ).compactMap { row in
        guard let date = CivilDate(iso: row[1]) else { return nil }
        return CoachComment(serverID: row[0], date: date, author: row[2], text: row[3], createdAt: row[4])
      }
    }
  }
}
