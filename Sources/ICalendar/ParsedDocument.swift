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
/// - Throws: ``ICalendarError`` for a text beyond ``ICalendarLimits`` (checked before libical reads it),
///   non-iCalendar, truncated or unreadable input, a date or time that does not exist (`20270230T250000Z`,
///   ``ICalendarError/Problem/invalidValue(component:field:value:reason:)``, unless `tolerating` accepts the
///   property), or from `body`.
/// The corresponding libical functions are `icalparser_parse_string` and `icalcomponent_free`.
func withParsedCalendars<Result>(
  _ text: String,
  tolerating: (_ property: String?, _ componentKind: String) -> Bool = { _, _ in false },
  _ body: ([OpaquePointer], SourceText) throws(ICalendarError) -> Result
) throws(ICalendarError) -> Result {
  // Only keeps the text: its lines are split when a message needs a line number.
  let source = SourceText(text)
  let checked = try checkLimits(text)
  cical_clear_errno()
  guard !containsNUL(text) else { throw source.whyUnparsable() }
  let parsed: OpaquePointer?
  if checked.needsFolding {
    // libical reads a long physical line in quadratic time, the same content folded in linear time.
    parsed = foldedForLibical(text).withUnsafeBufferPointer { bytes in
      bytes.baseAddress.flatMap { start in
        start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { icalparser_parse_string($0) }
      }
    }
  } else {
    // withCString lends the String's own bytes (a pointer argument made from a String is a copy).
    parsed = text.withCString { icalparser_parse_string($0) }
  }
  guard let root = parsed else { throw source.whyUnparsable() }
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
    if let invalid = firstImpossibleTime(in: root, tolerating: tolerating) {
      let located = source.locate(
        property: invalid.property, componentKind: invalid.componentKind, ordinal: invalid.ordinal)
      throw .libical(
        .invalidValue(
          component: invalid.component, field: invalid.property, value: invalid.value, reason: invalid.reason),
        operation: "icalparser_parse_string", line: located?.number)
    }
    return try body(calendars, source)
  }
}

// MARK: - Impossible dates and times

/// A DATE or DATE-TIME value libical read without complaint that is no real time (`20270230T250000Z`: libical
/// only checks the digits).
struct ImpossibleTime {
  /// `DTSTART`.
  var property: String
  /// `VEVENT`, `VALARM`, …
  var componentKind: String
  /// `VEVENT 'uid'`.
  var component: String
  /// The position of the component among those of its kind, in document order (0-based).
  var ordinal: Int
  /// The value as libical writes it.
  var value: String
  /// Why it is no time, e.g. `there is no such day`.
  var reason: String
}

/// The first DATE, DATE-TIME, PERIOD or absolute TRIGGER value in the tree (document order) with a field out of
/// range, skipping the properties `tolerating` accepts (by name and component kind); nil when there is none.
/// The corresponding libical functions are `icalproperty_get_value`, `icalvalue_isa` and the `icalvalue_get_*`
/// getters of the time types.
func firstImpossibleTime(
  in root: OpaquePointer, tolerating: (_ property: String?, _ componentKind: String) -> Bool
) -> ImpossibleTime? {
  var found: ImpossibleTime?
  forEachComponent(in: root) { component, position in
    guard found == nil else { return }
    var current = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
    while let property = current, found == nil {
      if icalproperty_isa(property) != ICAL_X_PROPERTY, let reason = impossibleTimeReason(of: property),
        let name = copyString(icalproperty_get_property_name(property))
      {
        let (kind, ordinal) = position()
        if !tolerating(name, kind) {
          let value = (try? valueText(of: property)) ?? ""
          found = ImpossibleTime(
            property: name, componentKind: kind, component: componentLabel(component), ordinal: ordinal,
            value: value, reason: reason)
          return
        }
      }
      current = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY)
    }
  }
  return found
}

/// Why a property's time value is no real time, or nil when it is one (or the property holds no time).
private func impossibleTimeReason(of property: OpaquePointer) -> String? {
  guard let value = icalproperty_get_value(property) else { return nil }
  /// Why one time is impossible; a null time (all fields 0) is allowed only where `optional`.
  func reason(_ time: icaltimetype, optional: Bool = false) -> String? {
    if optional && icaltime_is_null_time(time) != 0 { return nil }
    return time.is_date != 0 ? ICalDate(time).invalidReason : ICalDateTime(time).invalidReason
  }
  switch icalvalue_isa(value) {
  case ICAL_DATE_VALUE:
    return reason(icalvalue_get_date(value))
  case ICAL_DATETIME_VALUE:
    return reason(icalvalue_get_datetime(value))
  case ICAL_DATETIMEPERIOD_VALUE:
    let both = icalvalue_get_datetimeperiod(value)
    if icaltime_is_null_time(both.time) == 0 { return reason(both.time) }
    return reason(both.period.start) ?? reason(both.period.end, optional: true)
  case ICAL_PERIOD_VALUE:
    let period = icalvalue_get_period(value)
    return reason(period.start) ?? reason(period.end, optional: true)
  case ICAL_TRIGGER_VALUE:
    return reason(icalvalue_get_trigger(value).time, optional: true)
  default:
    return nil
  }
}

// MARK: - Walking the tree

/// Calls `body` with every component of the tree in document order (parents before their children), and a
/// function giving the component's kind name and its position among the components of that name before it
/// (0-based), worked out only when called: nothing is allocated for components whose position is not asked for.
func forEachComponent(
  in root: OpaquePointer, _ body: (OpaquePointer, _ position: () -> (kind: String, ordinal: Int)) -> Void
) {
  // Components seen so far, by kind (raw value of `icalcomponent_kind`).
  var counts: [Int] = []
  func visit(_ component: OpaquePointer) {
    let kind = icalcomponent_isa(component)
    let raw = Int(kind.rawValue)
    if raw >= counts.count { counts.append(contentsOf: repeatElement(0, count: raw - counts.count + 1)) }
    body(component) {
      let name = kindName(kind)
      // The position among the components of the same *name* seen before (two kinds could share one, e.g.
      // the fallback "component").
      var ordinal = 0
      for (other, count) in counts.enumerated() where count > 0 {
        if kindName(icalcomponent_kind(rawValue: UInt32(other))) == name { ordinal += count }
      }
      return (name, ordinal)
    }
    counts[raw] += 1
    forEachChild(of: component, kind: ICAL_ANY_COMPONENT) { visit($0) }
  }
  visit(root)
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
///
/// This walks every component of every parse, so it allocates nothing for a component without X-LIC-ERROR:
/// components are counted per kind in an array, and names, labels and per-name ordinals are only made for a
/// component that has a problem.
/// The corresponding libical function is `icalproperty_get_xlicerror`.
func libicalProblems(in root: OpaquePointer) -> [LibicalProblem] {
  var problems: [LibicalProblem] = []
  forEachComponent(in: root) { component, position in
    guard icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY) != nil else { return }
    let (name, ordinal) = position()
    // Collected first: componentLabel moves the component's property cursor.
    let errors = properties(of: component, kind: ICAL_XLICERROR_PROPERTY)
    for property in errors {
      let text = copyString(icalproperty_get_xlicerror(property)) ?? ""
      problems.append(
        LibicalProblem(
          property: propertyName(inLibicalMessage: text), componentKind: name,
          component: componentLabel(component), ordinal: ordinal,
          text: text.trimmingSuffix(while: { $0 == " " || $0 == ":" })))
    }
  }
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
///
/// Making one only keeps the text: the lines are split (from the UTF-8 bytes) each time ``lines``,
/// ``firstLine`` or ``physicalLineCount`` is read, which happens only while an error is being reported.
struct SourceText {
  /// One unfolded content line.
  struct Line {
    /// The 1-based number of its first physical line.
    var number: Int
    /// The content (continuation lines appended without their leading blank).
    var text: String
  }

  /// The whole input.
  let text: String

  init(_ text: String) {
    self.text = text
  }

  /// The content lines, blank lines dropped.
  var lines: [Line] { split().lines }

  /// The number of physical lines.
  var physicalLineCount: Int { split().physicalLineCount }

  /// The first content line, or nil for an empty text.
  var firstLine: Line? {
    var first: Line?
    _ = forEachLine { line in
      first = line
      return false
    }
    return first
  }

  /// Splits the text into content lines and counts its physical lines.
  private func split() -> (lines: [Line], physicalLineCount: Int) {
    var lines: [Line] = []
    let count = forEachLine { line in
      lines.append(line)
      return true
    }
    return (lines, count)
  }

  /// Calls `body` with each content line in order, until it returns false.
  ///
  /// The same lines as splitting the text into Characters at `"\r\n"` and `"\n"` (a CR LF pair is one
  /// Character; LF always ends a Character), after a leading BOM, joining a line that starts with a blank to
  /// the previous content line and dropping empty ones, but done on the UTF-8 bytes: a line ends at every
  /// LF, and a CR just before that LF belongs to the line end.
  /// - Returns: The number of physical lines (a final line end does not start another line).
  private func forEachLine(_ body: (Line) -> Bool) -> Int {
    // A leading BOM is skipped, as libical does.
    let content = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
    if let count = content.utf8.withContiguousStorageIfAvailable({ Self.forEachLine(in: $0, body) }) {
      return count
    }
    return Array(content.utf8).withUnsafeBufferPointer { Self.forEachLine(in: $0, body) }
  }

  private static func forEachLine(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Line) -> Bool) -> Int {
    let newline = UInt8(ascii: "\n")
    let carriageReturn = UInt8(ascii: "\r")
    var pending: Line?
    var number = 0
    var start = 0
    var stopped = false
    while !stopped {
      var end = start
      while end < bytes.count && bytes[end] != newline { end += 1 }
      let isLast = end == bytes.count
      number += 1
      // The line's bytes, without its line end.
      var lineEnd = end
      if !isLast && lineEnd > start && bytes[lineEnd - 1] == carriageReturn { lineEnd -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[start..<lineEnd])
      if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), pending != nil {
        if line.count == 1 || line[1] < 0x80 {
          // An ASCII blank followed by ASCII (or nothing) is a Character of its own.
          pending?.text += String(decoding: UnsafeBufferPointer(rebasing: line[1...]), as: UTF8.self)
        } else {
          // A blank followed by a combining mark is one Character with it: decide on Characters, as before.
          let string = String(decoding: line, as: UTF8.self)
          if let character = string.first, character == " " || character == "\t" {
            pending?.text += string.dropFirst()
          } else if let done = pending {
            stopped = !body(done)
            pending = Line(number: number, text: string)
          }
        }
      } else if !line.isEmpty {
        if let done = pending { stopped = !body(done) }
        pending = Line(number: number, text: String(decoding: line, as: UTF8.self))
      }
      if isLast { break }
      start = end + 1
    }
    if !stopped, let done = pending { _ = body(done) }
    // A final line end does not start a line.
    return bytes.last == newline ? number - 1 : number
  }

  /// Why libical returned nothing: not iCalendar at all, or truncated (a component never closed).
  func whyUnparsable() -> ICalendarError {
    let (lines, physicalLineCount) = split()
    guard let first = lines.first else {
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
