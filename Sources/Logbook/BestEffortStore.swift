import Foundation
import GRDB
import RunningCore
import TrainingDomain

/// The best efforts measured inside an imported run (issue 24): one row per completion and distance, deleted with
/// the completion.
func registerBestEffortMigration(in migrator: inout DatabaseMigrator) {
  migrator.registerMigration("v10-best-efforts") { db in
    try db.create(table: "bestEffort") { t in
      t.column("completionID", .integer).notNull().references("completion", onDelete: .cascade)
      t.column("distanceMeters", .double).notNull().check { $0 > 0 }
      t.column("seconds", .double).notNull().check { $0 > 0 }
      t.column("startOffsetSeconds", .double).notNull().check { $0 >= 0 }
      t.primaryKey(["completionID", "distanceMeters"])
    }
  }
}

extension LogbookDatabase {
  /// Replaces the best efforts stored for the completion `id` with `efforts`.
  static func saveBestEfforts(_ efforts: [BestEffort], completionID id: Int64, in db: Database) throws {
    try db.execute(sql: "DELETE FROM bestEffort WHERE completionID = ?", arguments: [id])
    for effort in efforts {
      try db.execute(
        sql: "INSERT INTO bestEffort (completionID, distanceMeters, seconds, startOffsetSeconds) VALUES (?, ?, ?, ?)",
        arguments: [id, effort.distanceMeters, effort.seconds, effort.startOffsetSeconds])
    }
  }

  /// `completions` with their stored best efforts, shortest first.
  static func withBestEfforts(_ completions: [Completion], in db: Database) throws -> [Completion] {
    var byCompletion: [Int64: [BestEffort]] = [:]
    let rows = try Row.fetchCursor(
      db,
      sql: "SELECT completionID, distanceMeters, seconds, startOffsetSeconds FROM bestEffort ORDER BY distanceMeters")
    while let row = try rows.next() {
      byCompletion[row["completionID"], default: []].append(
        BestEffort(
          distanceMeters: row["distanceMeters"], seconds: row["seconds"],
          startOffsetSeconds: row["startOffsetSeconds"]))
    }
    guard !byCompletion.isEmpty else { return completions }
    return completions.map { completion in
      var completion = completion
      if let id = completion.id, let efforts = byCompletion[id] { completion.bestEfforts = efforts }
      return completion
    }
  }
}
