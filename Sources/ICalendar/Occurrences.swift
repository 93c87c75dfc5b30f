internal import CLibical

extension VCalendar {
  /// Expands every event of an `.ics` text into concrete occurrences overlapping `[from, to)`.
  ///
  /// - RRULE (through libical's iterator; a DTSTART that does not match its rule is not an instance, as in
  ///   libical), RDATE (DATE, DATE-TIME or the start of a PERIOD), EXDATE (with its own TZID, or a DATE
  ///   that removes the instances on that local day).
  /// - RECURRENCE-ID overrides: an override replaces the instance it names, wherever either lies; a
  ///   cancelled override removes it; an override without DTEND and DURATION keeps the master's length.
  ///   `RANGE=THISANDFUTURE` is not applied. An override without a master is a single event.
  /// - Time zones: the file's own VTIMEZONE for a TZID, else libical's builtin zone for it (its prefixed
  ///   `/freeassociation.sourceforge.net/…` form or the plain IANA name). UTC times are UTC; floating times
  ///   are read in `floatingTimeZone` (UTC when nil).
  /// - Lengths: DTEND − DTSTART (exact), or DURATION (days nominal, so `P1D` spans a DST change as one
  ///   calendar day), else 1 day for all-day events and 0 for timed ones.
  /// - All-day events come back as dates (`allDay`, `start`/`end` 0); they overlap the window when their
  ///   days, taken as UTC days, do.
  /// - TRANSP:TRANSPARENT and STATUS:CANCELLED events are returned, flagged, so the caller can skip them.
  /// - Unlike ``parse(_:)``, `X-LIC-ERROR`s about properties that do not affect time (SUMMARY, DESCRIPTION,
  ///   LOCATION, …, X- properties, anything inside a VALARM) are tolerated: calendar exports often carry
  ///   an empty `DESCRIPTION:`, which libical rejects.
  /// - Several concatenated VCALENDAR objects are all read.
  ///
  /// The result is sorted by start (all-day events by their first day at 00:00 UTC), then end, UID, summary.
  ///
  /// ```swift
  /// let busy = try VCalendar.occurrences(in: text, from: 1_803_859_200, to: 1_804_464_000)
  ///   .filter { !$0.transparent && !$0.cancelled }
  /// ```
  /// - Parameters:
  ///   - text: The `.ics` text.
  ///   - from: The window's start, UTC epoch seconds (inclusive).
  ///   - to: The window's end, UTC epoch seconds (exclusive).
  ///   - floatingTimeZone: The IANA zone floating times are read in; UTC when nil.
  /// - Returns: The occurrences, sorted.
  /// - Throws: ``ICalendarError``: the parse errors of ``parse(_:)``,
  ///   ``ICalendarError/Problem/unknownTimeZone(tzid:suggestion:)`` for a TZID with neither a VTIMEZONE nor
  ///   a builtin zone, ``ICalendarError/Problem/missingProperty(component:property:)`` for a VEVENT without
  ///   DTSTART, ``ICalendarError/Problem/recurrenceTooLong(component:limit:)`` when a rule yields more than
  ///   100,000 instances before `to` (a daily rule covers 270 years; an hourly one 11).
  ///
  /// The corresponding libical functions are `icalparser_parse_string`, `icalrecur_iterator_new`,
  /// `icalrecur_iterator_next`, `icalcomponent_get_timezone` and `icaltime_as_timet_with_zone`.
  /// RFC 5545 §3.8.5 (recurrence), §3.8.4.4 (RECURRENCE-ID), §3.6.5 (VTIMEZONE).
  public static func occurrences(
    in text: String, from: Int64, to: Int64, floatingTimeZone: String? = nil
  ) throws(ICalendarError) -> [Occurrence] {
    var floatingZone = icaltimezone_get_utc_timezone()
    if let floatingTimeZone {
      cical_clear_errno()
      guard let zone = builtinZone(named: floatingTimeZone) else {
        throw unknownTimeZone(floatingTimeZone, operation: "icaltimezone_get_builtin_timezone")
      }
      floatingZone = zone
    }
    guard let floatingZone else { throw .libical(operation: "icaltimezone_get_utc_timezone") }
    return try withParsedCalendars(text, tolerating: Expansion.tolerates) {
      (calendars, source) throws(ICalendarError) in
      // An empty (or reversed) window still parses the text, so a broken file is reported either way.
      guard from < to else { return [] }
      var result: [Occurrence] = []
      var eventOrdinal = 0
      for calendar in calendars {
        var expansion = Expansion(
          calendar: calendar, floatingZone: floatingZone, window: from..<to, source: source,
          firstEventOrdinal: eventOrdinal)
        result += try expansion.run()
        eventOrdinal += children(of: calendar, kind: ICAL_VEVENT_COMPONENT).count
      }
      return result.sorted(by: Occurrence.chronologically)
    }
  }
}

extension Occurrence {
  /// The order of ``VCalendar/occurrences(in:from:to:floatingTimeZone:)``.
  static func chronologically(_ a: Occurrence, _ b: Occurrence) -> Bool {
    (a.sortStart, a.sortEnd, a.uid, a.summary) < (b.sortStart, b.sortEnd, b.uid, b.summary)
  }

  private var sortStart: Int64 { allDay.map { $0.lowerBound.utcMidnight } ?? start }
  private var sortEnd: Int64 { allDay.map { $0.upperBound.adding(days: 1).utcMidnight } ?? end }
}

/// The expansion of one VCALENDAR's events. Holds borrowed pointers into the parsed tree: lives only
/// inside `withParsedCalendars`.
private struct Expansion {
  /// X-LIC-ERRORs that do not change when an event takes place.
  static func tolerates(property: String?, componentKind: String) -> Bool {
    if componentKind == "VALARM" { return true }
    guard let property else { return false }
    return property.hasPrefix("X-") || harmlessProperties.contains(property)
  }

  private static let harmlessProperties: Set<String> = [
    "SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CATEGORIES", "URL", "ATTENDEE", "ORGANIZER", "CONTACT",
    "ATTACH", "CLASS", "PRIORITY", "GEO", "RESOURCES", "RELATED-TO", "CREATED", "LAST-MODIFIED", "SEQUENCE",
    "DTSTAMP", "REQUEST-STATUS", "COLOR", "CONFERENCE", "IMAGE",
  ]

  /// At most this many instances per rule before the window's end.
  static let instanceLimit = 100_000

  let calendar: OpaquePointer
  let floatingZone: OpaquePointer
  let window: Range<Int64>
  let source: SourceText
  let firstEventOrdinal: Int
  private var zoneCache: [String: OpaquePointer] = [:]

  init(
    calendar: OpaquePointer, floatingZone: OpaquePointer, window: Range<Int64>, source: SourceText,
    firstEventOrdinal: Int
  ) {
    self.calendar = calendar
    self.floatingZone = floatingZone
    self.window = window
    self.source = source
    self.firstEventOrdinal = firstEventOrdinal
  }

  // MARK: Events

  /// What the expansion needs of one VEVENT.
  struct Event {
    var component: OpaquePointer
    var ordinal: Int
    var uid: String
    var summary: String
    var cancelled: Bool
    var transparent: Bool
    var start: WrittenTime
    var end: WrittenTime?
    var duration: icaldurationtype?
    var recurrenceID: WrittenTime?
    var label: String { uid.isEmpty ? "VEVENT" : "VEVENT '\(uid)'" }
  }

  /// A resolved start: a day, or a local time with its zone and its instant.
  enum Start {
    case day(ICalDate)
    case time(local: icaltimetype, epoch: Int64)
  }

  /// How long an instance lasts.
  enum Length {
    case days(Int)
    case exact(Int64)
    case nominal(days: Int, seconds: Int64)
  }

  mutating func run() throws(ICalendarError) -> [Occurrence] {
    var events: [Event] = []
    for (index, component) in children(of: calendar, kind: ICAL_VEVENT_COMPONENT).enumerated() {
      events.append(try read(component, ordinal: firstEventOrdinal + index))
    }
    let overridesByUID = Dictionary(grouping: events.filter { $0.recurrenceID != nil }, by: \.uid)
    let masterUIDs = Set(events.filter { $0.recurrenceID == nil }.map(\.uid))
    var result: [Occurrence] = []
    for master in events where master.recurrenceID == nil {
      result += try expand(master, overrides: overridesByUID[master.uid] ?? [])
    }
    // Overrides without a master stand alone.
    for orphan in events where orphan.recurrenceID != nil && !masterUIDs.contains(orphan.uid) {
      let start = try resolve(orphan.start, event: orphan, property: "DTSTART")
      if let occurrence = occurrence(
        of: orphan, at: start, length: try length(of: orphan, from: start) ?? defaultLength(start))
      {
        result.append(occurrence)
      }
    }
    return result
  }

  /// Reads the fields of one VEVENT.
  private func read(_ component: OpaquePointer, ordinal: Int) throws(ICalendarError) -> Event {
    // One walk over the event's properties instead of one search per kind.
    let found = EventProperties(component)
    guard let startProperty = found.dtstart else {
      let begin = source.lines.filter { $0.text.uppercased() == "BEGIN:VEVENT" }.dropFirst(ordinal).first
      throw .libical(
        .missingProperty(component: componentLabel(component), property: "DTSTART"),
        operation: "icalcomponent_get_first_property", line: begin?.number)
    }
    let uid = found.uid.flatMap { copyString(icalproperty_get_uid($0)) } ?? ""
    let summary = found.summary.flatMap { copyString(icalproperty_get_summary($0)) } ?? ""
    let cancelled = found.status.map { icalproperty_get_status($0) == ICAL_STATUS_CANCELLED } ?? false
    return Event(
      component: component, ordinal: ordinal, uid: uid, summary: summary, cancelled: cancelled,
      transparent: found.transp.map(isTransparent) ?? false,
      start: WrittenTime(property: startProperty, value: icalproperty_get_dtstart(startProperty)),
      end: found.dtend.map { WrittenTime(property: $0, value: icalproperty_get_dtend($0)) },
      duration: found.duration.map { icalproperty_get_duration($0) },
      recurrenceID: found.recurrenceID.map { WrittenTime(property: $0, value: icalproperty_get_recurrenceid($0)) })
  }

  /// The occurrences of a master event and of its overrides.
  private mutating func expand(_ master: Event, overrides: [Event]) throws(ICalendarError) -> [Occurrence] {
    let base = try resolve(master.start, event: master, property: "DTSTART")
    let masterLength = try length(of: master, from: base) ?? defaultLength(base)

    // Instances removed from the master's set: EXDATEs, and every instance an override names.
    var removedInstants = Set<Int64>()
    var removedDays = Set<Int>()
    let allDay: Bool
    if case .day = base { allDay = true } else { allDay = false }
    // All-day masters and DATE values match by day (a DATE EXDATE on a timed event removes that local day).
    func remove(_ time: WrittenTime, property: String) throws(ICalendarError) {
      if allDay || time.form == .date {
        removedDays.insert(ICalDate(time.fields).dayNumber)
      } else if case .time(_, let epoch) = try resolve(time, event: master, property: property) {
        removedInstants.insert(epoch)
      }
    }
    for property in properties(of: master.component, kind: ICAL_EXDATE_PROPERTY) {
      try remove(WrittenTime(property: property, value: icalproperty_get_exdate(property)), property: "EXDATE")
    }
    for override in overrides {
      if let recurrenceID = override.recurrenceID { try remove(recurrenceID, property: "RECURRENCE-ID") }
    }

    var result: [Occurrence] = []
    var seen = Set<Int64>()
    for start in try instances(of: master, base: base) {
      let key: Int64
      switch start {
      case .day(let date):
        if removedDays.contains(date.dayNumber) { continue }
        key = date.utcMidnight
      case .time(let local, let epoch):
        if removedInstants.contains(epoch) || removedDays.contains(ICalDate(local).dayNumber) { continue }
        key = epoch
      }
      guard seen.insert(key).inserted else { continue }
      if let occurrence = occurrence(of: master, at: start, length: masterLength) { result.append(occurrence) }
    }
    for override in overrides where !override.cancelled {
      let start = try resolve(override.start, event: override, property: "DTSTART")
      if let occurrence = occurrence(
        of: override, at: start, length: try length(of: override, from: start) ?? masterLength)
      {
        result.append(occurrence)
      }
    }
    return result
  }

  /// The starts of a master event: the RRULE's instances up to the window's end (or DTSTART alone), plus
  /// RDATEs. The corresponding libical functions are `icalrecur_iterator_new`, `icalrecur_iterator_next`
  /// and `icalrecur_iterator_free`.
  private mutating func instances(of master: Event, base: Start) throws(ICalendarError) -> [Start] {
    var starts: [Start] = []
    if let ruleProperty = firstProperty(of: master.component, kind: ICAL_RRULE_PROPERTY) {
      let rule = icalproperty_get_rrule(ruleProperty)
      let first: icaltimetype
      switch base {
      case .day(let date): first = date.icalValue
      case .time(let local, _): first = local
      }
      cical_clear_errno()
      guard let iterator = icalrecur_iterator_new(rule, first) else {
        throw .libical(
          operation: "icalrecur_iterator_new", line: line(of: master, property: "RRULE"),
          detail: "\(master.label): \((try? valueText(of: ruleProperty)) ?? "RRULE")")
      }
      defer { icalrecur_iterator_free(iterator) }
      var count = 0
      iteration: while true {
        let next = icalrecur_iterator_next(iterator)
        if icaltime_is_null_time(next) != 0 { break }
        count += 1
        if count > Self.instanceLimit {
          throw .libical(
            .recurrenceTooLong(component: master.label, limit: Self.instanceLimit),
            operation: "icalrecur_iterator_next", line: line(of: master, property: "RRULE"))
        }
        switch base {
        case .day:
          let date = ICalDate(next)
          if date.utcMidnight >= window.upperBound { break iteration }
          starts.append(.day(date))
        case .time(let local, _):
          var instance = next
          instance.zone = local.zone
          instance.is_date = 0
          let epoch = Int64(icaltime_as_timet_with_zone(instance, local.zone))
          if epoch >= window.upperBound { break iteration }
          starts.append(.time(local: instance, epoch: epoch))
        }
      }
    } else {
      starts.append(base)
    }
    for property in properties(of: master.component, kind: ICAL_RDATE_PROPERTY) {
      let value = icalproperty_get_rdate(property)
      let time = icaltime_is_null_time(value.time) == 0 ? value.time : value.period.start
      guard icaltime_is_null_time(time) == 0 else { continue }
      starts.append(try resolve(WrittenTime(property: property, value: time), event: master, property: "RDATE"))
    }
    return starts
  }

  /// The occurrence of an event at a start, or nil when it does not overlap the window.
  private func occurrence(of event: Event, at start: Start, length: Length) -> Occurrence? {
    switch start {
    case .day(let first):
      let days: Int
      switch length {
      case .days(let count): days = count
      case .exact(let seconds): days = Int((seconds + 86_399) / 86_400)
      case .nominal(let count, let seconds): days = count + (seconds > 0 ? 1 : 0)
      }
      let last = first.adding(days: max(1, days) - 1)
      guard overlaps(first.utcMidnight, last.adding(days: 1).utcMidnight) else { return nil }
      return Occurrence(
        uid: event.uid, summary: event.summary, start: 0, end: 0, allDay: first...last,
        transparent: event.transparent, cancelled: event.cancelled)
    case .time(let local, let epoch):
      var end: Int64
      switch length {
      case .exact(let seconds): end = epoch + seconds
      case .days(let count): end = epoch + Int64(count) * 86_400
      case .nominal(let days, let seconds):
        var shifted = local
        icaltime_adjust(&shifted, Int32(clamping: days), 0, 0, 0)
        end = Int64(icaltime_as_timet_with_zone(shifted, local.zone)) + seconds
      }
      end = max(end, epoch)
      guard overlaps(epoch, end) else { return nil }
      return Occurrence(
        uid: event.uid, summary: event.summary, start: epoch, end: end, allDay: nil,
        transparent: event.transparent, cancelled: event.cancelled)
    }
  }

  /// `[start, end)` overlaps the window; a zero-length event overlaps when its instant lies in it.
  private func overlaps(_ start: Int64, _ end: Int64) -> Bool {
    start < window.upperBound && (end > window.lowerBound || (end == start && start >= window.lowerBound))
  }

  /// The length an event's own DTEND or DURATION gives, or nil when it has neither.
  private mutating func length(of event: Event, from start: Start) throws(ICalendarError) -> Length? {
    if let end = event.end {
      switch start {
      case .day(let first):
        return .days(ICalDate(end.fields).dayNumber - first.dayNumber)
      case .time(let local, let epoch):
        if end.form == .date {
          var midnight = end.fields
          midnight.is_date = 0
          return .exact(Int64(icaltime_as_timet_with_zone(midnight, local.zone)) - epoch)
        }
        guard case .time(_, let endEpoch) = try resolve(end, event: event, property: "DTEND") else { return nil }
        return .exact(endEpoch - epoch)
      }
    }
    if let duration = event.duration {
      let sign: Int64 = duration.is_neg != 0 ? -1 : 1
      let days = Int(duration.days) + 7 * Int(duration.weeks)
      let seconds = Int64(duration.hours) * 3600 + Int64(duration.minutes) * 60 + Int64(duration.seconds)
      if case .day = start {
        return .days(days + (seconds > 0 ? 1 : 0))
      }
      return .nominal(days: Int(sign) * days, seconds: sign * seconds)
    }
    return nil
  }

  /// 1 day for all-day events, 0 for timed ones.
  private func defaultLength(_ start: Start) -> Length {
    if case .day = start { return .days(1) }
    return .exact(0)
  }

  // MARK: Time zones

  /// Resolves a written time: a day, or a local time in its zone with its UTC instant.
  private mutating func resolve(_ time: WrittenTime, event: Event, property: String) throws(ICalendarError) -> Start {
    var local = time.fields
    switch time.form {
    case .date:
      return .day(ICalDate(time.fields))
    case .utc:
      local.zone = icaltimezone_get_utc_timezone()
    case .floating:
      local.zone = floatingZone
    case .zoned(let tzid):
      local.zone = try zone(forTZID: tzid, event: event, property: property)
    }
    return .time(local: local, epoch: Int64(icaltime_as_timet_with_zone(local, local.zone)))
  }

  /// The zone for a TZID: the file's VTIMEZONE, else libical's builtin zone (prefixed TZID or IANA name).
  /// The corresponding libical functions are `icalcomponent_get_timezone`,
  /// `icaltimezone_get_builtin_timezone_from_tzid` and `icaltimezone_get_builtin_timezone`.
  private mutating func zone(forTZID tzid: String, event: Event, property: String) throws(ICalendarError)
    -> OpaquePointer
  {
    if let zone = zoneCache[tzid] { return zone }
    cical_clear_errno()
    guard
      let zone = icalcomponent_get_timezone(calendar, tzid)
        ?? builtinZone(fromTZID: tzid) ?? builtinZone(named: tzid)
    else {
      throw unknownTimeZone(tzid, operation: "icalcomponent_get_timezone", line: line(of: event, property: property))
    }
    zoneCache[tzid] = zone
    return zone
  }

  /// The source line of a property of an event, for messages.
  private func line(of event: Event, property: String) -> Int? {
    source.locate(property: property, componentKind: "VEVENT", ordinal: event.ordinal)?.number
  }
}
