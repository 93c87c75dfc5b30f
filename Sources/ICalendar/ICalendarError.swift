internal import CLibical

/// An error from the iCalendar layer: a libical call that failed, or a problem in the calendar data that
/// libical reported or that this module found before handing the data to libical.
///
/// Every instance is made in one place, ``libical(_:operation:line:detail:)``, which also records
/// libical's error state (`icalerrno`) at that moment; `description` is the sentence to show a runner:
///
/// ```
/// unknown time zone 'Europe/Berln' (did you mean Europe/Berlin?)
/// line 40: invalid DTSTART in VEVENT 'run-1@plan.example': Can't parse as DATE-TIME value in DTSTART property. …
/// ```
///
/// Modelled on GRDB's `DatabaseError`: `operation` names the libical function involved, `code` and
/// `message` are libical's (`icalerrorenum`, `icalerror_strerror`).
public struct ICalendarError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, with the values a caller needs to act on it.
  public enum Problem: Sendable, Hashable {
    /// A libical call returned NULL or an error code; `code`, `message` and `detail` say more.
    case libraryFailure
    /// The text is not an iCalendar object. `firstLine` is its first non-empty line ("" when empty).
    case notICalendar(firstLine: String)
    /// The text ends inside a component: `component` was opened on `openedOnLine` and never closed before
    /// the last line, `lastLine`.
    case truncated(component: String, openedOnLine: Int, lastLine: Int)
    /// The text holds more than one VCALENDAR object where exactly one is expected.
    case multipleCalendars(count: Int)
    /// libical could not read a line and replaced it by an `X-LIC-ERROR` property (it never rejects a
    /// file). `property` is the property the error names (nil when libical's text names none), `component`
    /// the component it sits in (`VEVENT 'uid'`), `text` libical's message. `more` counts further
    /// `X-LIC-ERROR` properties in the same file.
    case invalidProperty(property: String?, component: String, text: String, more: Int)
    /// A TZID that libical does not know, with a close builtin name when there is one.
    case unknownTimeZone(tzid: String, suggestion: String?)
    /// A value that cannot be written or used: `field` of `component` (e.g. `VEVENT 'uid'`) is `value`,
    /// and `reason` says why.
    case invalidValue(component: String, field: String, value: String, reason: String)
    /// A required property is absent.
    case missingProperty(component: String, property: String)
    /// A recurrence rule yields more than `limit` instances before the end of the requested range.
    case recurrenceTooLong(component: String, limit: Int)
    /// The text passes one of ``ICalendarLimits``: `found` is its size, or the count that passed the limit.
    case overLimit(Limit, found: Int)
  }

  /// Which of ``ICalendarLimits`` a text passes.
  public enum Limit: Sendable, Hashable {
    /// ``ICalendarLimits/bytes``.
    case bytes
    /// ``ICalendarLimits/contentLineBytes``.
    case contentLineBytes
    /// ``ICalendarLimits/contentLines``.
    case contentLines
    /// ``ICalendarLimits/components``.
    case components
    /// ``ICalendarLimits/nesting``.
    case nesting
  }

  /// What went wrong.
  public var problem: Problem
  /// The libical function involved, e.g. `icalparser_parse_string`.
  public var operation: String
  /// libical's error code (`icalerrorenum` raw value) when the error was made; 0 (`ICAL_NO_ERROR`) when
  /// libical did not set one, which is common: its parser reports through `X-LIC-ERROR` instead.
  public var code: Int
  /// libical's text for `code` (`icalerror_strerror`), e.g. `NO: No error`.
  public var message: String
  /// The line of the input the problem is on (1-based), when known.
  public var line: Int?
  /// More context: the input line as written, or the value libical was given.
  public var detail: String?

  /// Makes an error from a problem and libical's current error state. This is the only way errors are
  /// made in this module; it reads `icalerrno` before anything else can change it.
  /// - Parameters:
  ///   - problem: What went wrong.
  ///   - operation: The libical function involved.
  ///   - line: The input line, when known.
  ///   - detail: More context, when there is some.
  /// - Returns: The error, with `code` and `message` taken from libical.
  /// The corresponding libical functions are `icalerrno_return` and `icalerror_strerror`.
  static func libical(
    _ problem: Problem = .libraryFailure, operation: String, line: Int? = nil, detail: String? = nil
  ) -> ICalendarError {
    let code = cical_errno()
    let message = icalerror_strerror(code).map { String(cString: $0) } ?? "unknown libical error \(code.rawValue)"
    return ICalendarError(
      problem: problem, operation: operation, code: Int(code.rawValue), message: message, line: line,
      detail: detail)
  }

  /// The sentence to show a runner, e.g. `unknown time zone 'Europe/Berln' (did you mean Europe/Berlin?)`: one
  /// line, with any CR or LF quoted from the file shown as `\r` / `\n`.
  public var description: String {
    var text = ""
    for character in sentence {
      switch character {
      case "\r": text += "\\r"
      case "\n": text += "\\n"
      case "\r\n": text += "\\r\\n"
      default: text.append(character)
      }
    }
    return text
  }

  private var sentence: String {
    let prefix = line.map { "line \($0): " } ?? ""
    switch problem {
    case .libraryFailure:
      return "\(prefix)libical: \(operation) failed (\(message))" + (detail.map { ": \($0)" } ?? "")
    case .notICalendar(let firstLine):
      if firstLine.isEmpty { return "not an iCalendar file: the text is empty" }
      return "\(prefix)not an iCalendar file: expected BEGIN:VCALENDAR, found '\(firstLine)'"
    case .truncated(let component, let openedOnLine, let lastLine):
      return "truncated iCalendar file: \(component) opened on line \(openedOnLine) is not closed "
        + "before the text ends (line \(lastLine))"
    case .multipleCalendars(let count):
      return "the text holds \(count) VCALENDAR objects; expected exactly one"
    case .invalidProperty(let property, let component, let text, let more):
      let what = property.map { "invalid \($0)" } ?? "libical error"
      let source = detail.map { " [\($0)]" } ?? ""
      let others = more == 0 ? "" : " (and \(more) more libical error\(more == 1 ? "" : "s") in the file)"
      return "\(prefix)\(what) in \(component): \(text)\(source)\(others)"
    case .unknownTimeZone(let tzid, let suggestion):
      return "\(prefix)unknown time zone '\(tzid)'" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
    case .invalidValue(let component, let field, let value, let reason):
      return "\(prefix)\(component): invalid \(field) '\(value)': \(reason)"
    case .missingProperty(let component, let property):
      return "\(prefix)\(component) has no \(property)"
    case .recurrenceTooLong(let component, let limit):
      return "\(prefix)\(component): the RRULE yields more than \(limit) instances before the end of the range"
    case .overLimit(let limit, let found):
      switch limit {
      case .bytes:
        return "the calendar is larger than the \(ICalendarLimits.bytes >> 20) MiB a calendar may have "
          + "(at least \(found) bytes)"
      case .contentLineBytes:
        return "\(prefix)a content line of \(found) bytes, longer than the "
          + "\(ICalendarLimits.contentLineBytes >> 20) MiB a line may have"
      case .contentLines:
        return "\(prefix)more than \(ICalendarLimits.contentLines) content lines, the most a calendar may have"
      case .components:
        return "\(prefix)more than \(ICalendarLimits.components) components (BEGIN: lines), "
          + "the most a calendar may have"
      case .nesting:
        return "\(prefix)components nested more than \(ICalendarLimits.nesting) deep (BEGIN: inside BEGIN:)"
      }
    }
  }
}
