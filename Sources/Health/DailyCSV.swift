import Archive
import Foundation
import RunningCore
import XMLStream

/// Reads a CSV of daily totals, `date,steps,distance_km,active_kcal` (the header is required; column
/// names are matched without regard to case, quotes or surrounding spaces), one row per `YYYY-MM-DD`.
/// Empty numbers are 0; negative or non-numeric ones, values outside their physical range (`HealthLimits`:
/// dates 1900–2200, at most 200,000 steps, 1,000 km and 20,000 kcal a day), a date given twice, or a row
/// with another number of fields are errors naming the line. Streamed line by line (a line may be at most 64 KiB).
func importDailyCSV(_ url: URL, name: String, options: ImportOptions) throws(HealthError) -> HealthImport {
  let file = try openFile(url.path, name: name)
  let chunk = 256 << 10
  let maximumLine = 64 << 10
  var pending: [UInt8] = []
  pending.reserveCapacity(chunk + maximumLine)
  var reader = DailyCSVReader(file: name)
  let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 1)
  defer { buffer.deallocate() }
  var total: Int64 = 0
  while true {
    let count: Int
    do { count = try file.read(into: buffer, count: chunk) } catch { throw HealthError(reading: error, file: name) }
    if count == 0 { break }
    total += Int64(count)
    pending.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: count))
    var lineStart = 0
    while let newline = pending[lineStart...].firstIndex(of: 10) {
      try reader.line(pending[lineStart..<newline])
      lineStart = newline + 1
    }
    pending.removeSubrange(0..<lineStart)
    if pending.count > maximumLine {
      throw .csv(file: name, line: reader.lineNumber + 1, detail: "a line longer than 64 KiB")
    }
    options.progress?(total)
  }
  if !pending.isEmpty { try reader.line(pending[...]) }
  return try reader.result(bytesRead: total)
}

/// The rows of a daily CSV, line by line.
struct DailyCSVReader {
  static let header = ["date", "steps", "distance_km", "active_kcal"]
  /// The metric of each numeric column.
  static let metrics: [Metric] = [.steps, .distance, .activeEnergy]

  let file: String
  private(set) var lineNumber = 0
  private var sawHeader = false
  private var days: [Int: (totals: HealthDay, line: Int)] = [:]

  init(file: String) { self.file = file }

  /// Reads one line (without its `\n`).
  mutating func line(_ raw: ArraySlice<UInt8>) throws(HealthError) {
    lineNumber += 1
    var bytes = raw
    if bytes.last == 13 { bytes = bytes.dropLast() }
    if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let text = String(decoding: bytes, as: UTF8.self)
    if !sawHeader {
      let names = text.split(separator: ",", omittingEmptySubsequences: false).map { Self.clean($0).lowercased() }
      guard names == Self.header else {
        throw .unsupportedCSVHeader(file: file, header: HealthLimits.shown(text, limit: 80))
      }
      sawHeader = true
      return
    }
    guard !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { return }
    let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { Self.clean($0) }
    guard fields.count == 4 else {
      throw .csv(
        file: file, line: lineNumber,
        detail: "expected 4 fields (date,steps,distance_km,active_kcal), found \(fields.count)")
    }
    var dateBytes = Array(fields[0].utf8)
    let day = dateBytes.withUnsafeMutableBufferPointer { buffer -> Int? in
      guard let base = buffer.baseAddress else { return nil }
      return ExportDate.days(fromISODate: ByteSpan(start: base, count: buffer.count))
    }
    guard let day else {
      throw .csv(file: file, line: lineNumber, detail: "'\(HealthLimits.shown(fields[0]))' is not a date (YYYY-MM-DD)")
    }
    guard HealthLimits.accepts(time: Int64(day) * 86_400) else {
      throw .outOfRange(
        file: file, line: lineNumber, field: "date", value: fields[0], allowed: HealthLimits.dateRange)
    }
    if let earlier = days[day] {
      throw .csv(file: file, line: lineNumber, detail: "\(fields[0]) appears twice (first on line \(earlier.line))")
    }
    var values: [Double] = []
    for (index, field) in fields.enumerated().dropFirst() {
      if field.isEmpty {
        values.append(0)
        continue
      }
      var digits = Array(field.utf8)
      let value = digits.withUnsafeMutableBufferPointer { buffer -> Double? in
        guard let base = buffer.baseAddress else { return nil }
        return DecimalNumber.parse(ByteSpan(start: base, count: buffer.count))
      }
      if let control = field.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw .csv(
          file: file, line: lineNumber,
          detail: "\(Self.header[index]) '\(HealthLimits.shown(field))' holds a control character "
            + "(\(String(format: "0x%02X", control.value))), allowed is a non-negative number")
      }
      guard let value, value.isFinite, value >= 0 else {
        throw .csv(
          file: file, line: lineNumber,
          detail: "\(Self.header[index]) '\(HealthLimits.shown(field))' is not a non-negative number")
      }
      let (range, unit) = HealthLimits.range(of: Self.metrics[index - 1])
      guard range.contains(value) else {
        throw .outOfRange(
          file: file, line: lineNumber, field: Self.header[index], value: HealthLimits.shown(field),
          allowed: HealthLimits.words(range, unit))
      }
      values.append(value)
    }
    dateBytes.removeAll()
    days[day] = (
      HealthDay(
        date: CivilDate(dayNumber: day), steps: values[0], distanceKm: values[1],
        activeEnergyKcal: values[2]),
      lineNumber
    )
  }

  /// The days read, sorted.
  func result(bytesRead: Int64) throws(HealthError) -> HealthImport {
    guard sawHeader else { throw .notAnExport(file: file, reason: "the file is empty") }
    let sorted = days.keys.sorted().compactMap { days[$0]?.totals }
    return HealthImport(days: sorted, measures: [], workouts: [], recordCount: days.count, bytesRead: bytesRead)
  }

  private static func clean(_ field: Substring) -> String {
    var text = field.trimmingCharacters(in: .whitespaces)
    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
    return text.trimmingCharacters(in: .whitespaces)
  }
}
