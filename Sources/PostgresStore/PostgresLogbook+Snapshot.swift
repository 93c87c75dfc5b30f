import Foundation
import PostgresNIO
import TrainingDomain

// The whole database as plain rows (``StoredSchema``), for `runmate database copy`.

extension PostgresLogbook {
  /// Every row of the runner's data, table by table in ``StoredSchema/tables`` order, in one read (one snapshot).
  /// Rows come in the order SQLite gives them (text compared byte by byte), so both engines' snapshots of the same
  /// data are equal.
  /// - Throws: ``LogbookError/database(detail:)`` when the database has a table this version cannot copy.
  public func snapshot() throws(LogbookError) -> [StoredTable] {
    try read { tx in
      var names: [String] = []
      for row in try tx.rows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()") {
        names.append(try row.decode(String.self))
      }
      if let table = StoredSchema.uncopied(names).first {
        throw LogbookError.database(detail: "table \(table) cannot be copied by this version of runmate")
      }
      return try StoredSchema.tables.map { shape in
        let order = shape.columns.map { $0.kind == .text ? "\($0.name) COLLATE \"C\"" : $0.name }
        let query = "SELECT \(shape.columnList) FROM \(shape.name) ORDER BY \(order.joined(separator: ", "))"
        var rows: [[StoredValue]] = []
        for row in try tx.rows(PostgresQuery(unsafeSQL: query)) {
          let cells = row.makeRandomAccess()
          rows.append(try shape.columns.indices.map { try Self.value(cells[$0], shape.columns[$0]) })
        }
        return StoredTable(shape: shape, rows: rows)
      }
    }
  }

  /// Writes `tables` (another store's ``snapshot()``) into this database, which must hold none of the runner's
  /// data, in one transaction: ids are kept, and each id sequence moves past the largest so the next row gets the
  /// next id.
  /// - Throws: ``LogbookError/notEmpty(location:holding:)`` when it holds data: nothing is written.
  public func restore(_ tables: [StoredTable]) throws(LogbookError) {
    let shown = session.location.shown
    try write { tx in
      var holding: [TableCount] = []
      for shape in StoredSchema.tables {
        let count = try tx.value(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(shape.name)"), as: Int64.self) ?? 0
        if count > 0 { holding.append(TableCount(table: shape.name, rows: Int(count))) }
      }
      guard holding.isEmpty else { throw LogbookError.notEmpty(location: shown, holding: holding) }
      for table in tables {
        try insert(table, in: tx)
        if let serial = table.shape.serialColumn {
          try tx.execute(
            PostgresQuery(
              unsafeSQL: """
                SELECT setval(pg_get_serial_sequence('\(table.shape.name)', '\(serial)'),
                  coalesce(max(\(serial)), 1), max(\(serial)) IS NOT NULL) FROM \(table.shape.name)
                """))
        }
      }
    }
  }

  /// Inserts `table`'s rows, many to a statement (within PostgreSQL's 65,535 parameters).
  private func insert(_ table: StoredTable, in tx: PostgresTransaction) throws {
    let width = table.shape.columns.count
    let perStatement = max(1, min(500, 60_000 / width))
    var start = 0
    while start < table.rows.count {
      let batch = table.rows[start..<min(start + perStatement, table.rows.count)]
      var binds = PostgresBindings(capacity: batch.count * width)
      var tuples: [String] = []
      for row in batch {
        let first = binds.count
        for value in row { try Self.bind(value, to: &binds) }
        tuples.append("(" + (1...width).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
      }
      try tx.execute(
        PostgresQuery(
          unsafeSQL:
            "INSERT INTO \(table.shape.name) (\(table.shape.columnList)) VALUES \(tuples.joined(separator: ", "))",
          binds: binds))
      start += perStatement
    }
  }

  /// `cell` read as `column` holds it.
  static func value(_ cell: PostgresCell, _ column: StoredColumn) throws -> StoredValue {
    let found: StoredValue? =
      switch column.kind {
      case .integer: try cell.decode(Int64?.self).map(StoredValue.integer)
      case .real: try cell.decode(Double?.self).map(StoredValue.real)
      case .text: try cell.decode(String?.self).map(StoredValue.text)
      case .bytes: try cell.decode(Data?.self).map { .bytes(Array($0)) }
      case .boolean: try cell.decode(Bool?.self).map(StoredValue.boolean)
      case .instant: try cell.decode(Date?.self).map { StoredValue.instant($0) }
      }
    return found ?? .null
  }

  /// Appends `value` to `binds`.
  static func bind(_ value: StoredValue, to binds: inout PostgresBindings) throws {
    switch value {
    case .null: binds.appendNull()
    case .integer(let number): binds.append(number)
    case .real(let number): binds.append(number)
    case .text(let text): binds.append(text)
    case .bytes(let bytes): try binds.append(Data(bytes))
    case .boolean(let flag): binds.append(flag)
    case .instant(let milliseconds): binds.append(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
  }
}
