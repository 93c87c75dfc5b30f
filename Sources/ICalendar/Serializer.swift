internal import CLibical

extension VCalendar {
  /// Serializes the calendar through libical.
  ///
  /// The output is a VCALENDAR with `VERSION:2.0`, PRODID, `CALSCALE:GREGORIAN`, METHOD if set and
  /// `X-WR-CALNAME` if set; then one VTIMEZONE for every tzid used by any event (sorted by tzid), truncated
  /// to start on 1 January of the year before that zone's earliest event and carrying the plain IANA name
  /// as TZID; then the events in order. Every line is made by libical: CRLF line ends, folding at 75 octets
  /// without splitting UTF-8, TEXT escaping. The same value gives the same bytes (for a given tzdata).
  ///
  /// Per event: UID, DTSTAMP (UTC), DTSTART, DTEND or DURATION, RRULE, RECURRENCE-ID, SUMMARY, DESCRIPTION,
  /// LOCATION (the three TEXT properties only when not empty: libical cannot read an empty one back),
  /// CATEGORIES as one list, SEQUENCE (always), STATUS, `TRANSP:TRANSPARENT`, then the VALARMs
  /// (`ACTION:DISPLAY`, TRIGGER, DESCRIPTION). Zoned times are written as local wall-clock time with a
  /// `TZID=<IANA name>` parameter; a zoned time in `UTC` or `GMT` (zones without a VTIMEZONE) is written as
  /// a UTC time. No ORGANIZER is added, so `METHOD:PUBLISH` draws a warning from libical's iTIP rules.
  ///
  /// ```swift
  /// let text = try calendar.serialized()
  /// ```
  /// - Returns: The `.ics` text.
  /// - Throws: ``ICalendarError``: ``ICalendarError/Problem/unknownTimeZone(tzid:suggestion:)`` for a tzid
  ///   libical does not know; ``ICalendarError/Problem/invalidValue(component:field:value:reason:)`` for a
  ///   value consumers would reject (empty UID or PRODID, a duplicate UID, a date that does not exist, DTEND
  ///   not after DTSTART, a DATE mixed with a DATE-TIME, DTEND together with DURATION, a category with a
  ///   comma, an unknown METHOD, an RRULE libical cannot read); ``ICalendarError/Problem/libraryFailure`` when
  ///   a libical call fails.
  ///
  /// The corresponding libical functions are `icalcomponent_new`, `icalproperty_new_*`,
  /// `icalcomponent_add_property`, `icalcomponent_add_component`, `icalproperty_as_ical_string_r` and
  /// `icalcomponent_as_ical_string_r`.
  /// RFC 5545 §3.4, §3.6.1, §3.6.5, §3.6.6.
  public func serialized() throws(ICalendarError) -> String {
    String(decoding: try serializedUTF8(), as: UTF8.self)
  }

  /// The text of ``serialized()`` as UTF-8 bytes, without making a `String` of it (which reads every byte again
  /// to check it): what a feed sends or a file holds.
  ///
  /// ```swift
  /// let body = try calendar.serializedUTF8()
  /// ```
  /// - Returns: The `.ics` text's UTF-8 bytes, the same bytes as `Array(try calendar.serialized().utf8)`.
  /// - Throws: ``ICalendarError``, as ``serialized()``.
  public func serializedUTF8() throws(ICalendarError) -> [UInt8] {
    // The checks below report problems of the values, not of libical: start from "no error".
    cical_clear_errno()
    try checkHeader()
    let zones = try ZoneTable(events: events)
    try checkEvents(zones: zones)

    // libical writes a component as BEGIN, its properties, each child as written alone, END. So the calendar's
    // own properties are written by libical, and its children are written one by one before its END line, which
    // gives the same bytes as writing the whole tree (serializedThroughLibicalTree, which the tests compare):
    // the VTIMEZONEs first, sorted by tzid (libical puts an added VTIMEZONE at the front of the children), then
    // the events in order. A child libical cannot write is left out, as libical does inside a tree.
    //
    // VTIMEZONE texts are made in reverse order (the order they are added to the tree, so the same one fails
    // first) and kept per process (see vtimezoneText).
    let calendar = try makeCalendarComponent()
    var zoneTexts: [[UInt8]] = []
    for entry in zones.withVTimezone.reversed() {
      zoneTexts.append(try vtimezoneText(tzid: entry.tzid, zone: entry.zone, firstYear: entry.firstYear))
    }
    var (head, end) = try calendar.icalTextSplitAtEnd(
      reserving: zoneTexts.reduce(0) { $0 + $1.count } + events.count * 1536 + 64)
    for text in zoneTexts.reversed() { head.append(contentsOf: text) }
    // Each event is written property by property straight into the buffer (see EventWriter).
    var writer = try EventWriter(zones: zones, bytes: head)
    // By index: the events are read in place, not copied (and their strings retained) one by one.
    for index in events.indices { try writer.append(events[index]) }
    writer.bytes.append(contentsOf: end)
    return writer.bytes
  }

  /// The same text as ``serialized()``, made the slow way: the whole VCALENDAR tree built with libical (VTIMEZONEs,
  /// VEVENTs, VALARMs) and written by one `icalcomponent_as_ical_string_r`. The reference the tests compare
  /// ``serialized()`` with, byte for byte.
  /// The corresponding libical functions are `icalcomponent_new`, `icalproperty_new_*`,
  /// `icalcomponent_add_property`, `icalcomponent_add_component` and `icalcomponent_as_ical_string_r`.
  func serializedThroughLibicalTree() throws(ICalendarError) -> String {
    cical_clear_errno()
    try checkHeader()
    let zones = try ZoneTable(events: events)
    try checkEvents(zones: zones)
    let calendar = try makeCalendarComponent()
    for entry in zones.withVTimezone.reversed() {
      calendar.add(try makeVTimezone(tzid: entry.tzid, zone: entry.zone, firstYear: entry.firstYear))
    }
    for event in events { calendar.add(try makeEventComponent(event, zones: zones)) }
    return try calendar.icalText()
  }

  /// The VCALENDAR with its own properties: VERSION, PRODID, CALSCALE, METHOD, X-WR-CALNAME.
  private func makeCalendarComponent() throws(ICalendarError) -> OwnedComponent {
    let calendar = try OwnedComponent(kind: ICAL_VCALENDAR_COMPONENT)
    calendar.add(try OwnedProperty("icalproperty_new_version") { icalproperty_new_version("2.0") })
    calendar.add(
      try OwnedProperty("icalproperty_new_prodid", detail: prodID) {
        prodID.withCString { icalproperty_new_prodid($0) }
      })
    calendar.add(try OwnedProperty("icalproperty_new_calscale") { icalproperty_new_calscale("GREGORIAN") })
    if let method {
      let value = method.withCString { icalproperty_string_to_method($0) }
      calendar.add(try OwnedProperty("icalproperty_new_method", detail: method) { icalproperty_new_method(value) })
    }
    if let name, !name.isEmpty {
      let property = try OwnedProperty("icalproperty_new_x", detail: name) {
        name.withCString { icalproperty_new_x($0) }
      }
      property.withPointer { icalproperty_set_x_name($0, "X-WR-CALNAME") }
      calendar.add(property)
    }
    if let seconds = refreshIntervalSeconds {
      let property = try OwnedProperty("icalproperty_new_refreshinterval") {
        icalproperty_new_refreshinterval(icaldurationtype_from_int(Int32(clamping: seconds)))
      }
      // RFC 7986 requires the VALUE parameter, which libical leaves out for a property's default type.
      property.withPointer { icalproperty_add_parameter($0, icalparameter_new_value(ICAL_VALUE_DURATION)) }
      calendar.add(property)
    }
    if let seconds = publishedTTLSeconds {
      let text = durationText(seconds)
      let property = try OwnedProperty("icalproperty_new_x", detail: text) {
        text.withCString { icalproperty_new_x($0) }
      }
      property.withPointer { icalproperty_set_x_name($0, "X-PUBLISHED-TTL") }
      calendar.add(property)
    }
    return calendar
  }

  /// Checks PRODID, METHOD and the calendar name before libical sees them.
  private func checkHeader() throws(ICalendarError) {
    if prodID.isEmpty {
      throw invalid("VCALENDAR", "PRODID", "", "a calendar needs a product identifier")
    }
    try checkText(prodID, field: "PRODID", component: "VCALENDAR")
    if let name { try checkText(name, field: "X-WR-CALNAME", component: "VCALENDAR") }
    for (field, seconds) in [("REFRESH-INTERVAL", refreshIntervalSeconds), ("X-PUBLISHED-TTL", publishedTTLSeconds)] {
      if let seconds, !(1...Int(Int32.max)).contains(seconds) {
        throw invalid("VCALENDAR", field, String(seconds), "a refresh interval is a positive number of seconds")
      }
    }
    if let method {
      try checkText(method, field: "METHOD", component: "VCALENDAR")
      if method.withCString({ icalproperty_string_to_method($0) }) == ICAL_METHOD_NONE {
        throw invalid("VCALENDAR", "METHOD", method, "libical knows no such iTIP method (e.g. PUBLISH, REQUEST)")
      }
    }
  }

  /// Checks what consumers reject (see ics-check) before building anything.
  ///
  /// One pass over the events that makes no strings for a valid event: texts are checked on their UTF-8
  /// bytes, and labels and value texts for messages are only made when an error is thrown.
  private func checkEvents(zones: ZoneTable) throws(ICalendarError) {
    // UID + NUL + RECURRENCE-ID text identifies an event. UIDs hold no NUL (checked first) and a
    // RECURRENCE-ID text is never empty, so events without RECURRENCE-ID can be keyed by their UID alone
    // (the concatenation is equal exactly when the UIDs are) and never collide with the others.
    var seenUIDs = Set<String>()
    var seenKeys = Set<String>()
    seenUIDs.reserveCapacity(events.count)
    for event in events {
      if event.uid.isEmpty { throw invalid("VEVENT '\(event.summary)'", "UID", "", "an event needs a UID") }
      try checkText(event.uid, field: "UID", component: event.label)
      let inserted =
        if let recurrenceID = event.recurrenceID {
          seenKeys.insert(event.uid + "\u{0}" + recurrenceID.text).inserted
        } else {
          seenUIDs.insert(event.uid).inserted
        }
      guard inserted else {
        throw invalid(event.label, "UID", event.uid, "two events share this UID (and RECURRENCE-ID)")
      }
      try checkTime(.utc(event.dtstamp), field: "DTSTAMP", component: event.label)
      try checkTime(event.start, field: "DTSTART", component: event.label)
      if let recurrenceID = event.recurrenceID {
        try checkTime(recurrenceID, field: "RECURRENCE-ID", component: event.label)
      }
      if let end = event.end {
        try checkTime(end, field: "DTEND", component: event.label)
        if event.durationSeconds != nil {
          throw invalid(
            event.label, "DURATION", "\(event.durationSeconds ?? 0)", "an event has DTEND or DURATION, not both")
        }
        if case .date = event.start, case .date = end {
        } else if case .date = event.start {
          throw invalid(event.label, "DTEND", end.text, "DTSTART is a DATE, so DTEND must be a DATE too")
        } else if case .date = end {
          throw invalid(event.label, "DTEND", end.text, "DTSTART is a DATE-TIME, so DTEND must be a DATE-TIME too")
        }
        if try zones.instant(end) <= zones.instant(event.start) {
          throw invalid(event.label, "DTEND", end.text, "DTEND must be after DTSTART (\(event.start.text))")
        }
      }
      if let seconds = event.durationSeconds, !(0...Int(Int32.max)).contains(seconds) {
        throw invalid(
          event.label, "DURATION", "\(seconds)", "the duration must be between 0 and \(Int32.max) seconds")
      }
      try checkText(event.summary, field: "SUMMARY", component: event.label)
      if let description = event.description {
        try checkText(description, field: "DESCRIPTION", component: event.label)
      }
      if let location = event.location { try checkText(location, field: "LOCATION", component: event.label) }
      if let rule = event.recurrenceRule { try checkText(rule, field: "RRULE", component: event.label) }
      for category in event.categories {
        try checkText(category, field: "CATEGORIES", component: event.label)
        // Bytes first; then Characters, as before (a comma followed by a combining mark is no comma).
        if category.utf8.contains(UInt8(ascii: ",")) && category.contains(",") {
          throw invalid(
            event.label, "CATEGORIES", category,
            "libical writes categories as a comma-separated list, so a category cannot contain a comma")
        }
      }
      if !(0...Int(Int32.max)).contains(event.sequence) {
        throw invalid(
          event.label, "SEQUENCE", "\(event.sequence)", "the sequence must be between 0 and \(Int32.max)")
      }
      for alarm in event.alarms {
        try checkText(alarm.description, field: "VALARM DESCRIPTION", component: event.label)
        switch alarm.trigger {
        case .relative(let seconds, _):
          if !(Int(Int32.min)...Int(Int32.max)).contains(seconds) {
            throw invalid(event.label, "TRIGGER", "\(seconds)", "the offset is too large")
          }
        case .absolute(let time):
          try checkTime(.utc(time), field: "TRIGGER", component: event.label)
        }
      }
    }
  }

  /// Checks the fields of a time value.
  private func checkTime(
    _ time: EventTime, field: String, component: @autoclosure () -> String
  ) throws(ICalendarError) {
    let reason: String?
    switch time {
    case .date(let date): reason = date.invalidReason
    case .zoned(let value, _), .utc(let value), .floating(let value): reason = value.invalidReason
    }
    if let reason { throw invalid(component(), field, time.text, reason) }
  }

  /// Rejects text libical would cut short (C strings end at NUL).
  private func checkText(
    _ text: String, field: String, component: @autoclosure () -> String
  ) throws(ICalendarError) {
    if containsNUL(text) {
      throw invalid(component(), field, text.replacing("\0", with: "\\0"), "the text contains a NUL character")
    }
  }

  /// Builds one VEVENT with its VALARMs.
  private func makeEventComponent(_ event: VEvent, zones: ZoneTable) throws(ICalendarError) -> OwnedComponent {
    let component = try OwnedComponent(kind: ICAL_VEVENT_COMPONENT)
    component.add(
      try OwnedProperty("icalproperty_new_uid", detail: event.uid) {
        event.uid.withCString { icalproperty_new_uid($0) }
      })
    let stamp = event.dtstamp.icalValue(zone: icaltimezone_get_utc_timezone())
    component.add(try OwnedProperty("icalproperty_new_dtstamp") { icalproperty_new_dtstamp(stamp) })
    component.add(try zones.property(event.start, "icalproperty_new_dtstart") { icalproperty_new_dtstart($0) })
    if let end = event.end {
      component.add(try zones.property(end, "icalproperty_new_dtend") { icalproperty_new_dtend($0) })
    } else if let seconds = event.durationSeconds {
      let duration = icaldurationtype_from_int(Int32(clamping: seconds))
      component.add(try OwnedProperty("icalproperty_new_duration") { icalproperty_new_duration(duration) })
    }
    if let rule = event.recurrenceRule { component.add(try recurrenceRuleProperty(rule, event: event)) }
    if let recurrenceID = event.recurrenceID {
      component.add(
        try zones.property(recurrenceID, "icalproperty_new_recurrenceid") { icalproperty_new_recurrenceid($0) })
    }
    if !event.summary.isEmpty {
      component.add(
        try OwnedProperty("icalproperty_new_summary") { event.summary.withCString { icalproperty_new_summary($0) } })
    }
    if let description = event.description, !description.isEmpty {
      component.add(
        try OwnedProperty("icalproperty_new_description") {
          description.withCString { icalproperty_new_description($0) }
        })
    }
    if let location = event.location, !location.isEmpty {
      component.add(
        try OwnedProperty("icalproperty_new_location") { location.withCString { icalproperty_new_location($0) } })
    }
    // Empty categories are left out; none left, no property.
    if let list = categoryList(event.categories) {
      component.add(
        try OwnedProperty("icalproperty_new_categories", detail: list) {
          list.withCString { icalproperty_new_categories($0) }
        })
    }
    let sequence = Int32(clamping: event.sequence)
    component.add(try OwnedProperty("icalproperty_new_sequence") { icalproperty_new_sequence(sequence) })
    if let status = event.status {
      let value = status.icalValue
      component.add(try OwnedProperty("icalproperty_new_status") { icalproperty_new_status(value) })
    }
    if event.transparent {
      component.add(try OwnedProperty("icalproperty_new_transp") { icalproperty_new_transp(ICAL_TRANSP_TRANSPARENT) })
    }
    for alarm in event.alarms {
      component.add(try makeAlarmComponent(alarm, event: event))
    }
    return component
  }

  /// Builds one VALARM: ACTION:DISPLAY, TRIGGER, DESCRIPTION.
  private func makeAlarmComponent(_ alarm: VAlarm, event: VEvent) throws(ICalendarError) -> OwnedComponent {
    let component = try OwnedComponent(kind: ICAL_VALARM_COMPONENT)
    component.add(try OwnedProperty("icalproperty_new_action") { icalproperty_new_action(ICAL_ACTION_DISPLAY) })
    component.add(try triggerProperty(alarm.trigger))
    let text = alarmDescription(alarm, summary: event.summary)
    component.add(
      try OwnedProperty("icalproperty_new_description") { text.withCString { icalproperty_new_description($0) } })
    return component
  }
}

extension VEvent {
  /// `VEVENT 'uid'` for messages.
  var label: String { "VEVENT '\(uid)'" }
}

/// An ``ICalendarError/Problem/invalidValue(component:field:value:reason:)`` error.
private func invalid(_ component: String, _ field: String, _ value: String, _ reason: String) -> ICalendarError {
  .libical(
    .invalidValue(component: component, field: field, value: value, reason: reason), operation: "VCalendar.serialized")
}

// MARK: - Zones used by a calendar

/// The builtin zones a calendar's events use, looked up once per serialization.
struct ZoneTable {
  /// A zone that gets a VTIMEZONE.
  struct Entry {
    var tzid: String
    var zone: OpaquePointer
    var firstYear: Int
  }

  /// Every tzid used, with its builtin zone (libical's cache owns it), sorted by tzid. A calendar uses one
  /// or a few zones: a linear search with `==` finds the same entry as a dictionary would, faster.
  private var zones: [(tzid: String, zone: OpaquePointer)] = []
  /// The zones that get a VTIMEZONE (all but UTC/GMT), sorted by tzid.
  private(set) var withVTimezone: [Entry] = []

  /// Looks up every tzid the events use; the VTIMEZONE of each starts on 1 January of the year before the
  /// earliest time that uses it.
  init(events: [VEvent]) throws(ICalendarError) {
    var earliest: [String: Int] = [:]
    // Consecutive times mostly share a tzid: keep a running minimum for the current one and fold it into
    // the dictionary when the tzid changes (the dictionary still decides which spelling is the key).
    var current: (tzid: String, year: Int)?
    func note(_ time: EventTime?) {
      guard case .zoned(let value, let tzid)? = time else { return }
      if let running = current, running.tzid == tzid {
        current = (running.tzid, min(running.year, value.year))
        return
      }
      if let running = current { earliest[running.tzid] = min(earliest[running.tzid] ?? running.year, running.year) }
      current = (tzid, value.year)
    }
    for event in events {
      note(event.start)
      note(event.end)
      note(event.recurrenceID)
    }
    if let running = current { earliest[running.tzid] = min(earliest[running.tzid] ?? running.year, running.year) }
    for tzid in earliest.keys.sorted() {
      cical_clear_errno()
      guard let zone = builtinZone(named: tzid) else {
        throw unknownTimeZone(tzid, operation: "icaltimezone_get_builtin_timezone")
      }
      zones.append((tzid, zone))
      if !isUTC(zone) {
        withVTimezone.append(Entry(tzid: tzid, zone: zone, firstYear: max(1, (earliest[tzid] ?? 1) - 1)))
      }
    }
  }

  /// The builtin zone of a tzid the events use, or nil.
  private func zone(_ tzid: String) -> OpaquePointer? {
    for entry in zones where entry.tzid == tzid { return entry.zone }
    return nil
  }

  /// A DTSTART/DTEND/RECURRENCE-ID property for a time: DATE, UTC, floating, or local time plus a
  /// `TZID=<IANA name>` parameter (UTC for the UTC/GMT zones).
  func property(
    _ time: EventTime, _ operation: String, _ make: (icaltimetype) -> OpaquePointer?
  ) throws(ICalendarError) -> OwnedProperty {
    let (value, tzid) = parts(time)
    let property = try OwnedProperty(operation, detail: time.text) { make(value) }
    if let tzid {
      try property.addParameter("icalparameter_new_tzid") { tzid.withCString { icalparameter_new_tzid($0) } }
    }
    return property
  }

  /// The libical value of a time and the TZID parameter it is written with (nil for none): DATE, UTC, floating,
  /// or local time plus the IANA name (UTC for the UTC/GMT zones).
  func parts(_ time: EventTime) -> (value: icaltimetype, tzid: String?) {
    switch time {
    case .date(let date):
      return (date.icalValue, nil)
    case .utc(let value):
      return (value.icalValue(zone: icaltimezone_get_utc_timezone()), nil)
    case .floating(let value):
      return (value.icalValue(zone: nil), nil)
    case .zoned(let value, let tzid):
      if let zone = zone(tzid), isUTC(zone) { return (value.icalValue(zone: zone), nil) }
      return (value.icalValue(zone: nil), tzid)
    }
  }

  /// An instant for comparisons: UTC epoch seconds (floating and DATE values read as UTC).
  /// The corresponding libical function is `icaltime_as_timet_with_zone`.
  func instant(_ time: EventTime) throws(ICalendarError) -> Int64 {
    switch time {
    case .date(let date):
      return date.utcMidnight
    case .utc(let value), .floating(let value):
      return Int64(icaltime_as_timet_with_zone(value.icalValue(zone: nil), icaltimezone_get_utc_timezone()))
    case .zoned(let value, let tzid):
      guard let zone = zone(tzid) else { throw unknownTimeZone(tzid, operation: "icaltime_as_timet_with_zone") }
      return Int64(icaltime_as_timet_with_zone(value.icalValue(zone: nil), zone))
    }
  }
}

/// `seconds` as an iCalendar DURATION (`PT1H`), spelled by libical.
/// The corresponding libical functions are `icaldurationtype_as_ical_string_r` and `icalmemory_free_buffer`.
private func durationText(_ seconds: Int) -> String {
  guard let text = icaldurationtype_as_ical_string_r(icaldurationtype_from_int(Int32(clamping: seconds))) else {
    return "PT" + String(seconds) + "S"
  }
  defer { icalmemory_free_buffer(text) }
  return String(cString: text)
}
