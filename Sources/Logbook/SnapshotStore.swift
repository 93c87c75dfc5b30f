import Foundation
import GRDB
import RunningCore
import TrainingDomain

// The whole logbook as plain rows (``StoredSchema``), for `runmate database copy`.

extension LogbookDatabase {
  /// Every row of the runner's data, table by table in ``StoredSchema/tables`` order, in one read.
  /// - Throws: ``LogbookError/database(detail:)`` when the file has a table this version cannot copy.
  public func snapshot() throws(LogbookError) -> [StoredTable] {
    do {
      return try writer.read { db in
        let names = try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if let table = StoredSchema.uncopied(names).first {
          throw LogbookError.database(detail: "table \(table) cannot be copied by this version of runmate")
        }
        return try StoredSchema.tables.map { shape in
          let order = (1...shape.columns.count).map(String.init).joined(separator: ", ")
          let rows = try Row.fetchAll(db, sql: "SELECT \(shape.columnList) FROM \(shape.name) ORDER BY \(order)")
          return StoredTable(
            shape: shape,
            rows: try rows.map { row in
              try shape.columns.indices.map { try Self.value(row[$0] as DatabaseValue, shape.columns[$0]) }
            })
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// Writes `tables` (another store's ``snapshot()``) into this logbook, which must hold none of the runner's data,
  /// in one transaction: ids are kept, so the next row gets the next id.
  /// - Throws: ``LogbookError/notEmpty(location:holding:)`` when it holds data: nothing is written.
  public func restore(_ tables: [StoredTable]) throws(LogbookError) {
    let shown = path
    do {
      try writer.write { db in
        var holding: [TableCount] = []
        for shape in StoredSchema.tables {
          let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(shape.name)") ?? 0
          if count > 0 { holding.append(TableCount(table: shape.name, rows: count)) }
        }
        guard holding.isEmpty else { throw LogbookError.notEmpty(location: shown, holding: holding) }
        for table in tables {
          let marks = Array(repeating: "?", count: table.shape.columns.count).joined(separator: ", ")
          let statement = try db.makeStatement(
            sql: "INSERT INTO \(table.shape.name) (\(table.shape.columnList)) VALUES (\(marks))")
          for row in table.rows {
            try statement.execute(arguments: StatementArguments(row.map(Self.databaseValue)))
          }
        }
      }
    } catch {
      throw LogbookDatabase.describe(error, path: path)
    }
  }

  /// `value` read as `column` holds it.
  static func value(_ value: DatabaseValue, _ column: StoredColumn) throws -> StoredValue {
    if value.isNull { return .null }
    let found: StoredValue? =
      switch column.kind {
      case .integer: Int64.fromDatabaseValue(value).map(StoredValue.integer)
      case .real: Double.fromDatabaseValue(value).map(StoredValue.real)
      case .text: String.fromDatabaseValue(value).map(StoredValue.text)
      case .bytes: Data.fromDatabaseValue(value).map { .bytes(Array($0)) }
      case .boolean: Bool.fromDatabaseValue(value).map(StoredValue.boolean)
      case .instant: Date.fromDatabaseValue(value).map { StoredValue.instant($0) }
      }
    guard let found else {
      throw LogbookError.database(detail: "column \(column.name) holds \(value), not \(column.kind)")
    }
    return found
  }

  /// `value` as GRDB binds it (dates in its own format, as the records store them).
  static func databaseValue(_ value: StoredValue) -> DatabaseValue {
    switch value {
    case .null: .null
    case .integer(let number): number.databaseValue
    case .real(let number): number.databaseValue
    case .text(let text): text.databaseValue
    case .bytes(let bytes): Data(bytes).databaseValue
    case .boolean(let flag): flag.databaseValue
    case .instant(let milliseconds): grdbText(milliseconds: milliseconds).databaseValue
    }
  }

  /// An instant as GRDB stores dates (`yyyy-MM-dd HH:mm:ss.SSS`, UTC), its milliseconds written from the whole
  /// number: a Date made of them could format one millisecond short.
  static func grdbText(milliseconds: Int64) -> String {
    var (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    if fraction < 0 {
      seconds -= 1
      fraction += 1000
    }
    let (day, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let (days, time) = second < 0 ? (day - 1, second + 86_400) : (day, second)
    func padded(_ number: Int64, _ width: Int) -> String {
      let digits = String(number)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(CivilDate(dayNumber: Int(days))) \(padded(time / 3600, 2)):\(padded(time / 60 % 60, 2)):"
      + "\(padded(time % 60, 2)).\(padded(fraction, 3))"
  }
}
