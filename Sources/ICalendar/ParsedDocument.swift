internal import CLibical

// Parsing an .ics text with libical, and turning what libical reports into ICalendarError.
//
// libical's parser rarely fails: it returns NULL only for truncated or non-iCalendar input (and leaves
// icalerrno at "no error" even then), and it replaces every line it cannot read with an X-LIC-ERROR
// property. So the checks here are: NULL → look at the text to say why; wrong root kind → not iCalendar;
// X-LIC-ERROR anywhere → the first one, located back in the text.

/// Parses `text` with libical and lends the VCALENDAR objects to `body`, then frees the tree.
/// - Parameters:
///   - text: The .ics text.
///   - tolerating: Returns true for X-LIC-ERROR problems the caller can live with (by the property they
///     name and the component they are in); the others throw.
///   - body: Gets the VCALENDAR components (one, or several when the text concatenates calendars) and
///     the source lines; the pointers must not escape.
/// - Returns: What `body` returns.
/// - Throws: ``ICalendarError`` for non-iCalendar, truncated or unreadable input, or from `body`.
/// The corresponding libical functions are `icalparser_parse_string` and `icalcomponent_free`.
func withParsedCalendars<Result>(
  _ text: String,
  tolerating: (_ property: String?, _ componentKind: String) -> Bool = { _, _ in false },
  _ body: ([OpaquePointer], SourceText) throws(ICalendarError) -> Result
) throws(ICalendarError) -> Result {
  let source = SourceText(text)
  cical_clear_errno()
  guard !text.contains("\0"), let root = icalparser_parse_string(text) else {
    throw source.whyUnparsable()
  }
  let tree = OwnedComponent(adopting: root)
  return try tree.withPointer { (root) throws(ICalendarError) in
    let calendars: [OpaquePointer]
    switch icalcomponent_isa(root) {
    case ICAL_VCALENDAR_COMPONENT:
      calendars = [root]
    case ICAL_XROOT_COMPONENT where !children(of: root, kind: ICAL_VCALENDAR_COMPONENT).isEmpty:
      calendars = children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
    default:
      throw .libical(
        .notICalendar(firstLine: source.firstLine?.text ?? ""), operation: "icalparser_parse_string",
        line: source.firstLine?.number)
    }
    let problems = libicalProblems(in: root).filter { !tolerating($0.property, $0.componentKind) }
    if let first = problems.first {
      let located = source.locate(property: first.property, componentKind: first.componentKind, ordinal: first.ordinal)
      throw .libical(
        .invalidProperty(
          property: first.property, component: first.component, text: first.text, more: problems.count - 1),
        operation: "icalparser_parse_string", line: located?.number, detail: located?.text)
    }
    return try body(calendars, source)
  }
}

// MARK: - X-LIC-ERROR

/// One X-LIC-ERROR property libical put into the tree.
struct LibicalProblem {
  /// The property libical names in its message (`DTSTART`), or nil.
  var property: String?
  /// `VEVENT`, `VALARM`, …
  var componentKind: String
  /// `VEVENT 'uid'`.
  var component: String
  /// The position of the component among those of its kind, in document order (0-based).
  var ordinal: Int
  /// libical's message.
  var text: String
}

/// Every X-LIC-ERROR property in the tree, in document order, at every level.
/// The corresponding libical function is `icalproperty_get_xlicerror`.
func libicalProblems(in root: OpaquePointer) -> [LibicalProblem] {
  var problems: [LibicalProblem] = []
  var counts: [String: Int] = [:]
  func visit(_ component: OpaquePointer) {
    let kind = kindName(icalcomponent_isa(component))
    let ordinal = counts[kind, default: 0]
    counts[kind] = ordinal + 1
    for property in properties(of: component, kind: ICAL_XLICERROR_PROPERTY) {
      let text = copyString(icalproperty_get_xlicerror(property)) ?? ""
      problems.append(
        LibicalProblem(
          property: propertyName(inLibicalMessage: text), componentKind: kind,
          component: componentLabel(component), ordinal: ordinal,
          text: text.trimmingSuffix(while: { $0 == " " || $0 == ":" })))
    }
    for child in children(of: component, kind: ICAL_ANY_COMPONENT) { visit(child) }
  }
  visit(root)
  return problems
}

/// The property name in a libical parser message: `Can't parse as DATE-TIME value in DTSTART property.`,
/// `No value for DESCRIPTION property.` → `DTSTART`, `DESCRIPTION`.
func propertyName(inLibicalMessage text: String) -> String? {
  guard let match = text.firstMatch(of: /(?:in|for) ([A-Z][A-Z0-9-]*) property/) else { return nil }
  return String(match.1)
}

extension String {
  /// The string without trailing characters that match `predicate`.
  func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
    var result = Substring(self)
    while let last = result.last, predicate(last) { result = result.dropLast() }
    return String(result)
  }
}

// MARK: - The source text, for messages

/// The input's content lines (folded lines joined) with their line numbers, to put line numbers and
/// the offending line into messages. libical keeps no positions.
struct SourceText {
  /// One unfolded content line.
  struct Line {
    /// The 1-based number of its first physical line.
    var number: Int
    /// The content (continuation lines appended without their leading blank).
    var text: String
  }

  /// The content lines, blank lines dropped.
  let lines: [Line]
  /// The number of physical lines.
  let physicalLineCount: Int

  init(_ text: String) {
    var lines: [Line] = []
    var number = 0
    // CR LF and bare LF both occur. In Swift, CR LF is one Character, so split on either. A leading BOM
    // is skipped, as libical does.
    let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
    for line in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
      number += 1
      if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
        lines[lines.count - 1].text += line.dropFirst()
      } else if !line.isEmpty {
        lines.append(Line(number: number, text: String(line)))
      }
    }
    self.lines = lines
    physicalLineCount = body.last == "\r\n" || body.last == "\n" ? number - 1 : number
  }

  /// The first content line, or nil for an empty text.
  var firstLine: Line? { lines.first }

  /// Why libical returned nothing: not iCalendar at all, or truncated (a component never closed).
  func whyUnparsable() -> ICalendarError {
    guard let first = firstLine else {
      return .libical(.notICalendar(firstLine: ""), operation: "icalparser_parse_string")
    }
    guard first.text.uppercased() == "BEGIN:VCALENDAR" else {
      return .libical(
        .notICalendar(firstLine: String(first.text.prefix(60))), operation: "icalparser_parse_string",
        line: first.number)
    }
    var open: [(name: String, line: Int)] = []
    for line in lines {
      let upper = line.text.uppercased()
      if upper.hasPrefix("BEGIN:") {
        open.append((String(upper.dropFirst(6)), line.number))
      } else if upper.hasPrefix("END:"), let index = open.lastIndex(where: { $0.name == upper.dropFirst(4) }) {
        open.removeSubrange(index...)
      }
    }
    if let innermost = open.last {
      return .libical(
        .truncated(component: innermost.name, openedOnLine: innermost.line, lastLine: physicalLineCount),
        operation: "icalparser_parse_string")
    }
    return .libical(operation: "icalparser_parse_string", detail: "libical returned no component")
  }

  /// The line of a property inside the `ordinal`-th component of a kind (document order), not counting
  /// lines of nested components; nil when it cannot be found.
  func locate(property: String?, componentKind: String, ordinal: Int) -> Line? {
    let begin = "BEGIN:" + componentKind.uppercased()
    var seen = -1
    var depth = 0
    var inside = false
    for line in lines {
      let upper = line.text.uppercased()
      if !inside {
        if upper == begin {
          seen += 1
          if seen == ordinal {
            inside = true
            depth = 0
          }
        }
        continue
      }
      if upper.hasPrefix("BEGIN:") {
        depth += 1
      } else if upper.hasPrefix("END:") {
        if depth == 0 { return nil }
        depth -= 1
      } else if depth == 0, let property {
        let name = upper.prefix { $0 != ":" && $0 != ";" }
        if name == property { return line }
      }
    }
    return nil
  }
}
