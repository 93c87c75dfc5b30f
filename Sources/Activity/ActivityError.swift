import RunningCore

/// Why a GPX or TCX file could not be read. Every case names the file (its last path component, or the
/// name given for in-memory data) and, for problems inside the XML, the line (and column when the XML
/// parser reports one); `description` is the sentence to show a runner:
///
/// ```
/// route.gpx:57: the file ends before </trkseg> closes (truncated?)
/// run.tcx:12:5: XML error: the closing tag does not match <Lap> (opened on line 9)
/// notes.txt: not a GPX or TCX file (root element <html>)
/// empty.gpx: no track points with times
/// run.tcx:11: <DistanceMeters> '1e21' is out of range (allowed 0 to 1000000 m)
/// antipodes.gpx:4: implausible activity: 1 of 2 track points are GPS jumps (over 100 m faster than 15 m/s)
/// ```
///
/// The ranges are listed in one place, `ActivityLimits` (see its documentation).
public enum ActivityError: RunnerFacingError, Sendable, Equatable, CustomStringConvertible {
  /// What a value in the file should have been.
  public enum ExpectedValue: Sendable, Equatable {
    /// An ISO 8601 date-time, e.g. `2021-01-03T16:53:49Z`.
    case dateTime
    /// A latitude in degrees, −90…90.
    case latitude
    /// A longitude in degrees, −180…180.
    case longitude
    /// A finite decimal number.
    case number

    /// The words used in messages ("an ISO 8601 date-time").
    var phrase: String {
      switch self {
      case .dateTime: "an ISO 8601 date-time"
      case .latitude: "a latitude (-90 to 90)"
      case .longitude: "a longitude (-180 to 180)"
      case .number: "a number"
      }
    }
  }

  /// The file could not be opened or read; `reason` is the operating system's text (`No such file or
  /// directory`, `Is a directory`).
  case unreadable(file: String, reason: String)
  /// The file has no bytes at all.
  case empty(file: String)
  /// The file is not GPX or TCX: its root element is `rootElement` (as written, with any prefix), or it is
  /// not XML at all when `rootElement` is nil.
  case notActivityFile(file: String, rootElement: String?)
  /// The file is in a text encoding this reader refuses (anything but UTF-8 and ASCII-compatible 8-bit
  /// encodings), because its prologue could not be checked for a document type declaration.
  case unsupportedEncoding(file: String, encoding: String)
  /// The file starts with a `<!DOCTYPE …[ … ]>` on `line` whose internal subset could declare entities
  /// (billion laughs, external entities): refused before the XML parser sees it, so nothing is expanded
  /// or fetched.
  case documentTypeDeclaration(file: String, line: Int)
  /// The XML is not well-formed at `line`:`column`; `detail` says how.
  case xml(file: String, line: Int, column: Int, detail: String)
  /// The file ends at `line` while `openElement` (the innermost element still open, as written) has not
  /// closed: a truncated download or copy.
  case truncated(file: String, line: Int, openElement: String)
  /// A value the summary needs is not usable: `field` (`<time>`, `<trkpt> lat`) holds `value` on `line`,
  /// which is not what `expected` says.
  case invalidValue(file: String, line: Int, field: String, value: String, expected: ExpectedValue)
  /// A required attribute is absent: `element` on `line` has no `attribute`.
  case missingAttribute(file: String, line: Int, element: String, attribute: String)
  /// A number or date on `line` is outside the physical range of `field`: `value` as written, `allowed`
  /// the range in words (`0 to 1000000 m`, `20 to 250 bpm`, `1900-01-01 to 2200-01-01`).
  case outOfRange(file: String, line: Int, field: String, value: String, allowed: String)
  /// The activity that starts on `line` cannot be real: too long, too far, too fast, or made mostly of GPS
  /// jumps; `detail` says which, with the figures.
  case implausibleActivity(file: String, line: Int, detail: String)
  /// The file holds more than `limit` track points (the point on `line` is the first one too many); the
  /// file is refused rather than read without end.
  case tooManyPoints(file: String, line: Int, limit: Int)
  /// The file is GPX or TCX but holds no track point with a time (and, for TCX, no lap with a start time),
  /// so there is no activity to summarize.
  case noTimedPoints(file: String)
  /// A FIT file is refused at byte `offset`: a wrong CRC, truncation, a declared size the file does not hold, an
  /// undefined local message type, a field size that does not fit its base type; `detail` says which.
  case fit(file: String, offset: Int, detail: String)

  /// The sentence to show a runner, starting with the file name (and line), e.g.
  /// `route.gpx:57: the file ends before </trkseg> closes (truncated?)`.
  public var description: String {
    switch self {
    case .unreadable(let file, let reason):
      "\(file): cannot read the file (\(reason))"
    case .empty(let file):
      "\(file): the file is empty"
    case .notActivityFile(let file, let root?):
      "\(file): not a GPX or TCX file (root element <\(root)>)"
    case .notActivityFile(let file, nil):
      "\(file): not a GPX or TCX file (not XML)"
    case .unsupportedEncoding(let file, let encoding):
      "\(file): unsupported text encoding \(encoding) (GPX and TCX files are read as UTF-8)"
    case .documentTypeDeclaration(let file, let line):
      "\(file):\(line): refusing a <!DOCTYPE> with an internal subset (entities are never expanded)"
    case .xml(let file, let line, let column, let detail):
      "\(file):\(line):\(column): XML error: \(detail)"
    case .truncated(let file, let line, let element):
      "\(file):\(line): the file ends before </\(element)> closes (truncated?)"
    case .invalidValue(let file, let line, let field, let value, let expected):
      "\(file):\(line): \(field) '\(value)' is not \(expected.phrase)"
    case .missingAttribute(let file, let line, let element, let attribute):
      "\(file):\(line): <\(element)> has no \(attribute) attribute"
    case .outOfRange(let file, let line, let field, let value, let allowed):
      "\(file):\(line): \(field) '\(value)' is out of range (allowed \(allowed))"
    case .implausibleActivity(let file, let line, let detail):
      "\(file):\(line): implausible activity: \(detail)"
    case .tooManyPoints(let file, let line, let limit):
      "\(file):\(line): more than \(limit) track points (the most one file may hold)"
    case .noTimedPoints(let file):
      "\(file): no track points with times"
    case .fit(let file, let offset, let detail):
      "\(file): byte \(offset): \(detail)"
    }
  }
}

extension ActivityError {
  /// An activity file that cannot be read as one.
  public var kind: FailureKind { .badData }
}
