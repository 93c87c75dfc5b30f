import RunningCore

/// Why a health file could not be imported. Every case names the file (its last path component; for a zip,
/// problems inside the XML name the entry, e.g. `eksport.xml`) and, for problems inside the XML or CSV, the
/// line; ``description`` is the sentence to show a runner:
///
/// ```
/// export.xml:1234: the file ends before </HealthData> closes (truncated?)
/// xxe.xml:186: refusing the entity reference &xxe; (entities declared in the export's <!DOCTYPE> are never …)
/// export.zip: no Apple Health export XML in the zip (no .xml entry starts with <!DOCTYPE HealthData or <HealthData)
/// steps.csv: unsupported CSV header "day;steps" (expected date,steps,distance_km,active_kcal)
/// steps.csv:2: steps '1e19' is out of range (allowed 0 to 200000 steps)
/// export.zip: refusing apple_health_export/export.xml: it inflates more than 200 times (a zip bomb?)
/// ```
///
/// The ranges are chosen in one place, `HealthLimits` (see its documentation).
///
/// Nothing is imported when any of these is thrown: the import is all or nothing.
public enum HealthError: RunnerFacingError, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be opened or read; `reason` is the operating system's text (`No such file or
  /// directory`).
  case unreadable(file: String, reason: String)
  /// The file is not an Apple Health export or a daily-totals CSV: `reason` says what it is instead
  /// (`the file is empty`, `root element <gpx>`, `not XML, CSV or zip`).
  case notAnExport(file: String, reason: String)
  /// The XML is not well-formed at `line`; `detail` says how.
  case xml(file: String, line: Int, detail: String)
  /// The file ends at `line` while `openElement` (the innermost element still open) has not closed: a
  /// truncated download or copy.
  case truncated(file: String, line: Int, openElement: String)
  /// An entity reference other than `&amp; &lt; &gt; &quot; &apos;` and character references, on `line`.
  /// The export's `<!DOCTYPE>` internal subset is skipped unread, so no entity is ever expanded and no
  /// external entity fetched; `declaredInDocumentType` tells whether that subset declared entities (a
  /// billion-laughs or external-entity file) or the reference is simply undefined.
  case entityReference(file: String, line: Int, name: String, declaredInDocumentType: Bool)
  /// The zip archive cannot be read (not a zip, damaged, or a checksum mismatch).
  case unreadableZip(file: String, reason: String)
  /// The zip holds no `.xml` entry that starts like an Apple Health export.
  case noExportInZip(file: String)
  /// A CSV file whose first line is not `date,steps,distance_km,active_kcal`.
  case unsupportedCSVHeader(file: String, header: String)
  /// A CSV row on `line` that cannot be used; `detail` says why.
  case csv(file: String, line: Int, detail: String)
  /// A value on `line` (a record, a workout, a CSV row) outside the physical range of `field`: `value` as
  /// written, `allowed` the range in words (`0 to 200000 steps`, `1900-01-01 to 2200-01-01`).
  case outOfRange(file: String, line: Int, field: String, value: String, allowed: String)
  /// A day whose de-duplicated total cannot be real (`detail`: `250000 steps is more than 200000`).
  case implausibleDay(file: String, date: String, detail: String)
  /// A zip member refused before it is inflated whole: `detail` says which limit it passed (its size or
  /// its compression ratio).
  case zipBomb(file: String, member: String, detail: String)

  /// The sentence to show a runner, starting with the file name (and line).
  public var description: String {
    switch self {
    case .unreadable(let file, let reason):
      "\(file): cannot read the file (\(reason))"
    case .notAnExport(let file, let reason):
      "\(file): not an Apple Health export (\(reason))"
    case .xml(let file, let line, let detail):
      "\(file):\(line): XML error: \(detail)"
    case .truncated(let file, let line, let element):
      "\(file):\(line): the file ends before </\(element)> closes (truncated?)"
    case .entityReference(let file, let line, let name, true):
      "\(file):\(line): refusing the entity reference &\(name); "
        + "(entities declared in the export's <!DOCTYPE> are never expanded or fetched)"
    case .entityReference(let file, let line, let name, false):
      "\(file):\(line): XML error: undefined entity &\(name); "
        + "(only &amp; &lt; &gt; &quot; &apos; and character references are allowed)"
    case .unreadableZip(let file, let reason):
      "\(file): cannot read the zip (\(reason))"
    case .noExportInZip(let file):
      "\(file): no Apple Health export XML in the zip "
        + "(no .xml entry starts with <!DOCTYPE HealthData or <HealthData)"
    case .unsupportedCSVHeader(let file, let header):
      "\(file): unsupported CSV header \"\(header)\" (expected date,steps,distance_km,active_kcal)"
    case .csv(let file, let line, let detail):
      "\(file):\(line): \(detail)"
    case .outOfRange(let file, let line, let field, let value, let allowed):
      "\(file):\(line): \(field) '\(value)' is out of range (allowed \(allowed))"
    case .implausibleDay(let file, let date, let detail):
      "\(file): \(date): \(detail)"
    case .zipBomb(let file, let member, let detail):
      "\(file): refusing \(member): \(detail) (a zip bomb?)"
    }
  }
}

extension HealthError {
  /// The error with `line` in place of the 0 a handler leaves for the scanner to fill in.
  func at(line: Int) -> HealthError {
    switch self {
    case .outOfRange(let file, 0, let field, let value, let allowed):
      .outOfRange(file: file, line: line, field: field, value: value, allowed: allowed)
    default:
      self
    }
  }
}

extension HealthError {
  /// An export that cannot be read as one.
  public var kind: FailureKind { .badData }
}
