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
  /// `icalcomponent_add_property`, `icalcomponent_add_component` and `icalcomponent_as_ical_string_r`.
  /// RFC 5545 §3.4, §3.6.1, §3.6.5, §3.6.6.
  public func serialized() throws(ICalendarError) -> String {
    // The checks below report problems of the values, not of libical: start from "no error".
    cical_clear_errno()
    try checkHeader()
    let zones = try ZoneTable(events: events)
    try checkEvents(zones: zones)

    let calendar = try OwnedComponent(kind: ICAL_VCALENDAR_COMPONENT)
    calendar.add(try OwnedProperty("icalproperty_new_version") { icalproperty_new_version("2.0") })
    calendar.add(try OwnedProperty("icalproperty_new_prodid", detail: prodID) { icalproperty_new_prodid(prodID) })
    calendar.add(try OwnedProperty("icalproperty_new_calscale") { icalproperty_new_calscale("GREGORIAN") })
    if let method {
      let value = icalproperty_string_to_method(method)
      calendar.add(try OwnedProperty("icalproperty_new_method", detail: method) { icalproperty_new_method(value) })
    }
    if let name, !name.isEmpty {
      let property = try OwnedProperty("icalproperty_new_x", detail: name) { icalproperty_new_x(name) }
      property.withPointer { icalproperty_set_x_name($0, "X-WR-CALNAME") }
      calendar.add(property)
    }
    // libical puts an added VTIMEZONE at the *front* of the children (so zones precede events whatever the
    // order of the calls): add them in reverse to get them out in sorted order.
    for entry in zones.withVTimezone.reversed() {
      calendar.add(try makeVTimezone(tzid: entry.tzid, zone: entry.zone, firstYear: entry.firstYear))
    }
    for event in events {
      calendar.add(try makeEventComponent(event, zones: zones))
    }
    return try calendar.icalText()
  }

  /// Checks PRODID, METHOD and the calendar name before libical sees them.
  private func checkHeader() throws(ICalendarError) {
    if prodID.isEmpty {
      throw invalid("VCALENDAR", "PRODID", "", "a calendar needs a product identifier")
    }
    try checkText(prodID, field: "PRODID", component: "VCALENDAR")
    if let name { try checkText(name, field: "X-WR-CALNAME", component: "VCALENDAR") }
    if let method {
      try checkText(method, field: "METHOD", component: "VCALENDAR")
      if icalproperty_string_to_method(method) == ICAL_METHOD_NONE {
        throw invalid("VCALENDAR", "METHOD", method, "libical knows no such iTIP method (e.g. PUBLISH, REQUEST)")
      }
    }
  }

  /// Checks what consumers reject (see ics-check) before building anything.
  private func checkEvents(zones: ZoneTable) throws(ICalendarError) {
    var seen = Set<String>()
    for event in events {
      let label = event.label
      if event.uid.isEmpty { throw invalid("VEVENT '\(event.summary)'", "UID", "", "an event needs a UID") }
      try checkText(event.uid, field: "UID", component: label)
      let key = event.uid + "\u{0}" + (event.recurrenceID?.text ?? "")
      guard seen.insert(key).inserted else {
        throw invalid(label, "UID", event.uid, "two events share this UID (and RECURRENCE-ID)")
      }
      try checkTime(.utc(event.dtstamp), field: "DTSTAMP", component: label)
      try checkTime(event.start, field: "DTSTART", component: label)
      if let recurrenceID = event.recurrenceID {
        try checkTime(recurrenceID, field: "RECURRENCE-ID", component: label)
      }
      if let end = event.end {
        try checkTime(end, field: "DTEND", component: label)
        if event.durationSeconds != nil {
          throw invalid(label, "DURATION", "\(event.durationSeconds ?? 0)", "an event has DTEND or DURATION, not both")
        }
        if case .date = event.start, case .date = end {
        } else if case .date = event.start {
          throw invalid(label, "DTEND", end.text, "DTSTART is a DATE, so DTEND must be a DATE too")
        } else if case .date = end {
          throw invalid(label, "DTEND", end.text, "DTSTART is a DATE-TIME, so DTEND must be a DATE-TIME too")
        }
        if try zones.instant(end) <= zones.instant(event.start) {
          throw invalid(label, "DTEND", end.text, "DTEND must be after DTSTART (\(event.start.text))")
        }
      }
      if let seconds = event.durationSeconds, !(0...Int(Int32.max)).contains(seconds) {
        throw invalid(label, "DURATION", "\(seconds)", "the duration must be between 0 and \(Int32.max) seconds")
      }
      for (field, text) in [
        ("SUMMARY", event.summary), ("DESCRIPTION", event.description ?? ""),
        ("LOCATION", event.location ?? ""), ("RRULE", event.recurrenceRule ?? ""),
      ] {
        try checkText(text, field: field, component: label)
      }
      for category in event.categories {
        try checkText(category, field: "CATEGORIES", component: label)
        if category.contains(",") {
          throw invalid(
            label, "CATEGORIES", category,
            "libical writes categories as a comma-separated list, so a category cannot contain a comma")
        }
      }
      if !(0...Int(Int32.max)).contains(event.sequence) {
        throw invalid(label, "SEQUENCE", "\(event.sequence)", "the sequence must be between 0 and \(Int32.max)")
      }
      for alarm in event.alarms {
        try checkText(alarm.description, field: "VALARM DESCRIPTION", component: label)
        switch alarm.trigger {
        case .relative(let seconds, _):
          if !(Int(Int32.min)...Int(Int32.max)).contains(seconds) {
            throw invalid(label, "TRIGGER", "\(seconds)", "the offset is too large")
          }
        case .absolute(let time):
          try checkTime(.utc(time), field: "TRIGGER", component: label)
        }
      }
    }
  }

  /// Checks the fields of a time value.
  private func checkTime(_ time: EventTime, field: String, component: String) throws(ICalendarError) {
    let reason: String?
    switch time {
    case .date(let date): reason = date.invalidReason
    case .zoned(let value, _), .utc(let value), .floating(let value): reason = value.invalidReason
    }
    if let reason { throw invalid(component, field, time.text, reason) }
  }

  /// Rejects text libical would cut short (C strings end at NUL).
  private func checkText(_ text: String, field: String, component: String) throws(ICalendarError) {
    if text.contains("\0") {
      throw invalid(component, field, text.replacing("\0", with: "\\0"), "the text contains a NUL character")
    }
  }

  /// Builds one VEVENT with its VALARMs.
  private func makeEventComponent(_ event: VEvent, zones: ZoneTable) throws(ICalendarError) -> OwnedComponent {
    let component = try OwnedComponent(kind: ICAL_VEVENT_COMPONENT)
    component.add(try OwnedProperty("icalproperty_new_uid", detail: event.uid) { icalproperty_new_uid(event.uid) })
    let stamp = event.dtstamp.icalValue(zone: icaltimezone_get_utc_timezone())
    component.add(try OwnedProperty("icalproperty_new_dtstamp") { icalproperty_new_dtstamp(stamp) })
    component.add(try zones.property(event.start, "icalproperty_new_dtstart") { icalproperty_new_dtstart($0) })
    if let end = event.end {
      component.add(try zones.property(end, "icalproperty_new_dtend") { icalproperty_new_dtend($0) })
    } else if let seconds = event.durationSeconds {
      let duration = icaldurationtype_from_int(Int32(clamping: seconds))
      component.add(try OwnedProperty("icalproperty_new_duration") { icalproperty_new_duration(duration) })
    }
    if let rule = event.recurrenceRule {
      cical_clear_errno()
      let recurrence = icalrecurrencetype_from_string(rule)
      if recurrence.freq == ICAL_NO_RECURRENCE {
        throw .libical(
          .invalidValue(
            component: event.label, field: "RRULE", value: rule, reason: "libical cannot read this recurrence rule"),
          operation: "icalrecurrencetype_from_string")
      }
      component.add(try OwnedProperty("icalproperty_new_rrule", detail: rule) { icalproperty_new_rrule(recurrence) })
    }
    if let recurrenceID = event.recurrenceID {
      component.add(
        try zones.property(recurrenceID, "icalproperty_new_recurrenceid") { icalproperty_new_recurrenceid($0) })
    }
    if !event.summary.isEmpty {
      component.add(try OwnedProperty("icalproperty_new_summary") { icalproperty_new_summary(event.summary) })
    }
    if let description = event.description, !description.isEmpty {
      component.add(try OwnedProperty("icalproperty_new_description") { icalproperty_new_description(description) })
    }
    if let location = event.location, !location.isEmpty {
      component.add(try OwnedProperty("icalproperty_new_location") { icalproperty_new_location(location) })
    }
    let categories = event.categories.filter { !$0.isEmpty }
    if !categories.isEmpty {
      // libical splits this into a multi-value list: CATEGORIES:Running,Easy.
      let list = categories.joined(separator: ",")
      component.add(
        try OwnedProperty("icalproperty_new_categories", detail: list) { icalproperty_new_categories(list) })
    }
    let sequence = Int32(clamping: event.sequence)
    component.add(try OwnedProperty("icalproperty_new_sequence") { icalproperty_new_sequence(sequence) })
    if let status = event.status {
      let value: icalproperty_status =
        switch status {
        case .tentative: ICAL_STATUS_TENTATIVE
        case .confirmed: ICAL_STATUS_CONFIRMED
        case .cancelled: ICAL_STATUS_CANCELLED
        }
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
    var trigger = icaltriggertype(time: icaltime_null_time(), duration: icaldurationtype_null_duration())
    var fromEnd = false
    switch alarm.trigger {
    case .relative(let seconds, let related):
      trigger.duration = icaldurationtype_from_int(Int32(clamping: seconds))
      fromEnd = related
    case .absolute(let time):
      // libical adds VALUE=DATE-TIME itself.
      trigger.time = time.icalValue(zone: icaltimezone_get_utc_timezone())
    }
    let property = try OwnedProperty("icalproperty_new_trigger") { icalproperty_new_trigger(trigger) }
    if fromEnd {
      try property.addParameter("icalparameter_new_related") { icalparameter_new_related(ICAL_RELATED_END) }
    }
    component.add(property)
    // A DISPLAY alarm needs a DESCRIPTION, and libical cannot read an empty one back.
    let text = [alarm.description, event.summary].first { !$0.isEmpty } ?? "Reminder"
    component.add(try OwnedProperty("icalproperty_new_description") { icalproperty_new_description(text) })
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
private struct ZoneTable {
  /// A zone that gets a VTIMEZONE.
  struct Entry {
    var tzid: String
    var zone: OpaquePointer
    var firstYear: Int
  }

  /// Every tzid used, with its builtin zone (libical's cache owns it).
  private var zones: [String: OpaquePointer] = [:]
  /// The zones that get a VTIMEZONE (all but UTC/GMT), sorted by tzid.
  private(set) var withVTimezone: [Entry] = []

  /// Looks up every tzid the events use; the VTIMEZONE of each starts on 1 January of the year before the
  /// earliest time that uses it.
  init(events: [VEvent]) throws(ICalendarError) {
    var earliest: [String: Int] = [:]
    for event in events {
      for time in [event.start, event.end, event.recurrenceID].compactMap({ $0 }) {
        guard case .zoned(let value, let tzid) = time else { continue }
        earliest[tzid] = min(earliest[tzid] ?? value.year, value.year)
      }
    }
    for tzid in earliest.keys.sorted() {
      cical_clear_errno()
      guard let zone = builtinZone(named: tzid) else {
        throw unknownTimeZone(tzid, operation: "icaltimezone_get_builtin_timezone")
      }
      zones[tzid] = zone
      if !isUTC(zone) {
        withVTimezone.append(Entry(tzid: tzid, zone: zone, firstYear: max(1, (earliest[tzid] ?? 1) - 1)))
      }
    }
  }

  /// A DTSTART/DTEND/RECURRENCE-ID property for a time: DATE, UTC, floating, or local time plus a
  /// `TZID=<IANA name>` parameter (UTC for the UTC/GMT zones).
  func property(
    _ time: EventTime, _ operation: String, _ make: (icaltimetype) -> OpaquePointer?
  ) throws(ICalendarError) -> OwnedProperty {
    switch time {
    case .date(let date):
      return try OwnedProperty(operation, detail: time.text) { make(date.icalValue) }
    case .utc(let value):
      return try OwnedProperty(operation, detail: time.text) {
        make(value.icalValue(zone: icaltimezone_get_utc_timezone()))
      }
    case .floating(let value):
      return try OwnedProperty(operation, detail: time.text) { make(value.icalValue(zone: nil)) }
    case .zoned(let value, let tzid):
      if let zone = zones[tzid], isUTC(zone) {
        return try OwnedProperty(operation, detail: time.text) { make(value.icalValue(zone: zone)) }
      }
      let property = try OwnedProperty(operation, detail: time.text) { make(value.icalValue(zone: nil)) }
      try property.addParameter("icalparameter_new_tzid") { icalparameter_new_tzid(tzid) }
      return property
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
      guard let zone = zones[tzid] else { throw unknownTimeZone(tzid, operation: "icaltime_as_timet_with_zone") }
      return Int64(icaltime_as_timet_with_zone(value.icalValue(zone: nil), zone))
    }
  }
}
