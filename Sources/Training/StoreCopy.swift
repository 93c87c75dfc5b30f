import Foundation
import TrainingDomain

/// What a copy between stores did (`runmate database copy`): where from, where to, and the rows of each table.
public struct StoreCopy: Sendable, Hashable {
  /// The source as messages show it.
  public let source: String
  /// The target as messages show it (a URL without its password).
  public let target: String
  /// The rows copied, table by table (tables with none left out).
  public let copied: [TableCount]

  /// "2 profiles, 1 plan, 412 activities, …" (or "nothing: the source holds no data").
  public var summary: String {
    copied.isEmpty ? "nothing: the source holds no data" : copied.map(\.phrase).joined(separator: ", ")
  }
}

/// Copies every row of the store at `source` (which must exist) into the store at `target`: a PostgreSQL database
/// or a file, migrated on open, that holds none of the runner's data. Ids, dates and hashes are kept, so feeds,
/// CalDAV syncs and `log delete ID` go on working against the copy. The copy is one transaction in the target, read
/// back and compared row by row; a file the copy created is removed again when it fails.
/// - Throws: ``LogbookError/notEmpty(location:holding:)`` when the target holds data (nothing written), or the
///   engines' errors.
public func copyStore(from source: String, to target: String) throws -> StoreCopy {
  let createdFile = !isServerStore(target) && !FileManager.default.fileExists(atPath: target)
  do {
    let tables = try openStore(at: source).snapshot()
    let destination = try openStore(at: target)
    try destination.restore(tables)
    let copied = try destination.snapshot()
    if let differing = zip(tables, copied).first(where: { $0.0 != $0.1 }) {
      throw LogbookError.database(
        detail: "the copy's \(differing.0.shape.name) rows read back differently; drop \(shownStoreLocation(target)) "
          + "and copy again")
    }
    return StoreCopy(
      source: shownStoreLocation(source), target: shownStoreLocation(target),
      copied: tables.filter { !$0.rows.isEmpty }.map { TableCount(table: $0.shape.name, rows: $0.rows.count) })
  } catch {
    if createdFile {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
    }
    throw error
  }
}
