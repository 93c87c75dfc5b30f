import Foundation

/// Strava's `activities.csv` (in a bulk export): for each recorded file, the activity's name and type, so that an
/// import names runs as the runner did and leaves rides and swims out without reading their files.
///
/// The header names the columns (`Activity ID`, `Activity Date`, `Activity Name`, `Activity Type`, …, `Filename`);
/// only the first column of each name counts (Strava repeats some names). Fields are RFC 4180: quoted with `"`,
/// `""` inside quotes, commas and line breaks inside quotes. Rows without a `Filename` are activities entered by hand
/// on Strava: counted, not read.
struct StravaIndex: Sendable {
  /// One activity of the index.
  struct Entry: Sendable, Hashable {
    /// `Activity Name`.
    var name: String?
    /// `Activity Type` (`Run`, `Ride`, `Trail Run`, `Swim`).
    var type: String?
  }

  /// Entries by the file's path as written in `Filename` (`activities/123.gpx.gz`), lowercased.
  var entries: [String: Entry] = [:]
  /// Rows without a file.
  var withoutFile = 0

  /// The entry of the file at `path` (relative to the CSV's folder).
  func entry(for path: String) -> Entry? { entries[path.lowercased()] }

  /// Reads the CSV; nil when its header has no `Filename` column (not Strava's index).
  init?(csv data: [UInt8]) {
    var rows = CSVRows(data)
    guard let header = rows.next() else { return nil }
    let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    guard let fileColumn = names.firstIndex(of: "filename") else { return nil }
    let nameColumn = names.firstIndex(of: "activity name")
    let typeColumn = names.firstIndex(of: "activity type")
    while let row = rows.next() {
      guard row.count > fileColumn else { continue }
      let file = row[fileColumn].trimmingCharacters(in: .whitespaces)
      if file.isEmpty {
        if row.contains(where: { !$0.isEmpty }) { withoutFile += 1 }
        continue
      }
      func field(_ column: Int?) -> String? {
        guard let column, column < row.count else { return nil }
        let value = row[column].trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
      }
      entries[file.lowercased()] = Entry(name: field(nameColumn), type: field(typeColumn))
    }
  }
}

/// The rows of RFC 4180 CSV bytes (UTF-8, a leading BOM ignored), one array of fields each.
struct CSVRows: IteratorProtocol {
  private let bytes: [UInt8]
  private var position: Int

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  mutating func next() -> [String]? {
    guard position < bytes.count else { return nil }
    var fields: [String] = []
    var field: [UInt8] = []
    var quoted = false
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if quoted {
        if byte == UInt8(ascii: "\"") {
          if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            field.append(byte)
            position += 1
          } else {
            quoted = false
          }
        } else {
          field.append(byte)
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): quoted = true
      case UInt8(ascii: ","):
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
      case 10, 13:
        if byte == 13, position < bytes.count, bytes[position] == 10 { position += 1 }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
      default: field.append(byte)
      }
    }
    fields.append(String(decoding: field, as: UTF8.self))
    return fields
  }
}
