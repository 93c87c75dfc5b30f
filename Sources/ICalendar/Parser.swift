internal import CLibical

extension VCalendar {
  /// Parses an `.ics` text through libical.
  ///
  /// Reads the calendar header (PRODID, METHOD, `X-WR-CALNAME`, `REFRESH-INTERVAL`, `X-PUBLISHED-TTL`) and every VEVENT with the fields of
  /// ``VEvent``. Not read back: VTIMEZONE definitions (zoned times keep their TZID; libical's prefixed
  /// `/freeassociation.sourceforge.net/…` TZIDs become IANA names), EXDATE and RDATE, a second RRULE,
  /// ORGANIZER/ATTENDEE and other properties the model lacks, and of a VALARM everything but TRIGGER and
  /// DESCRIPTION (an AUDIO alarm reads as a reminder with an empty text). The RRULE is libical's spelling
  /// of the rule (`FREQ=WEEKLY;COUNT=6`), which can order the parts differently from the file.
  ///
  /// ```swift
  /// let calendar = try VCalendar.parse(String(decoding: data, as: UTF8.self))
  /// ```
  /// - Parameter text: The `.ics` text (CRLF or LF line ends).
  /// - Returns: The calendar.
  /// - Throws: ``ICalendarError``: ``ICalendarError/Problem/notICalendar(firstLine:)`` for text that is not
  ///   iCalendar, ``ICalendarError/Problem/truncated(component:openedOnLine:lastLine:)`` for a text cut
  ///   short, ``ICalendarError/Problem/invalidProperty(property:component:text:more:)`` for the first
  ///   `X-LIC-ERROR` libical inserted anywhere (with the line it came from when it can be found),
  ///   ``ICalendarError/Problem/multipleCalendars(count:)`` for more than one VCALENDAR, and
  ///   ``ICalendarError/Problem/missingProperty(component:property:)`` for a VEVENT without UID, DTSTAMP or
  ///   DTSTART, or a calendar without PRODID.
  ///
  /// The corresponding libical function is `icalparser_parse_string`. RFC 5545 §3.4, §3.6.1.
  public static func parse(_ text: String) throws(ICalendarError) -> VCalendar {
    try withParsedCalendars(text) { (calendars, source) throws(ICalendarError) in
      guard calendars.count == 1, let calendar = calendars.first else {
        throw .libical(.multipleCalendars(count: calendars.count), operation: "icalparser_parse_string")
      }
      return try readCalendar(calendar, source: source)
    }
  }

  /// Reads the header and the events of a parsed VCALENDAR.
  private static func readCalendar(_ calendar: OpaquePointer, source: SourceText) throws(ICalendarError) -> VCalendar {
    guard let prodIDProperty = firstProperty(of: calendar, kind: ICAL_PRODID_PROPERTY),
      let prodID = copyString(icalproperty_get_prodid(prodIDProperty))
    else {
      throw .libical(.missingProperty(component: "VCALENDAR", property: "PRODID"), operation: "icalproperty_get_prodid")
    }
    let method = firstProperty(of: calendar, kind: ICAL_METHOD_PROPERTY)
      .flatMap { copyString(icalproperty_method_to_string(icalproperty_get_method($0))) }
    var name: String?
    for property in properties(of: calendar, kind: ICAL_X_PROPERTY)
    where copyString(icalproperty_get_x_name(property))?.uppercased() == "X-WR-CALNAME" {
      name = textOfXProperty(property)
      break
    }
    var ttl: Int?
    for property in properties(of: calendar, kind: ICAL_X_PROPERTY)
    where copyString(icalproperty_get_x_name(property))?.uppercased() == "X-PUBLISHED-TTL" {
      if let text = textOfXProperty(property) {
        let duration = text.withCString { icaldurationtype_from_string($0) }
        if icaldurationtype_is_bad_duration(duration) == 0 { ttl = Int(icaldurationtype_as_int(duration)) }
      }
      break
    }
    let refresh = firstProperty(of: calendar, kind: ICAL_REFRESHINTERVAL_PROPERTY)
      .map { Int(icaldurationtype_as_int(icalproperty_get_refreshinterval($0))) }
    var events: [VEvent] = []
    events.reserveCapacity(Int(icalcomponent_count_components(calendar, ICAL_VEVENT_COMPONENT)))
    try forEachChild(of: calendar, kind: ICAL_VEVENT_COMPONENT) { (component) throws(ICalendarError) in
      events.append(try readEvent(component, ordinal: events.count, source: source))
    }
    return VCalendar(
      prodID: prodID, method: method, name: name, events: events, refreshIntervalSeconds: refresh,
      publishedTTLSeconds: ttl)
  }

  /// The value of an X- property, unescaped (libical types it X, or TEXT when the file says VALUE=TEXT).
  /// The corresponding libical functions are `icalvalue_get_text`, `icalproperty_get_x`.
  private static func textOfXProperty(_ property: OpaquePointer) -> String? {
    if let value = icalproperty_get_value(property), icalvalue_isa(value) == ICAL_TEXT_VALUE {
      return copyString(icalvalue_get_text(value))
    }
    return copyString(icalproperty_get_x(property))
  }

  /// Reads one VEVENT.
  private static func readEvent(_ event: OpaquePointer, ordinal: Int, source: SourceText) throws(ICalendarError)
    -> VEvent
  {
    func missing(_ property: String) -> ICalendarError {
      let label = componentLabel(event)
      let begin = source.lines.filter { $0.text.uppercased() == "BEGIN:VEVENT" }.dropFirst(ordinal).first
      return .libical(
        .missingProperty(component: label == "VEVENT" ? "VEVENT #\(ordinal + 1)" : label, property: property),
        operation: "icalcomponent_get_first_property", line: begin?.number)
    }
    // One walk over the event's properties instead of one search per kind.
    let found = EventProperties(event)
    guard let uidProperty = found.uid, let uid = copyString(icalproperty_get_uid(uidProperty)) else {
      throw missing("UID")
    }
    guard let stampProperty = found.dtstamp else { throw missing("DTSTAMP") }
    guard let startProperty = found.dtstart else { throw missing("DTSTART") }

    var result = VEvent(
      uid: uid,
      dtstamp: ICalDateTime(icalproperty_get_dtstamp(stampProperty)),
      start: WrittenTime(property: startProperty, value: icalproperty_get_dtstart(startProperty)).eventTime,
      summary: found.summary.flatMap { copyString(icalproperty_get_summary($0)) } ?? "")
    result.end = found.dtend.map { WrittenTime(property: $0, value: icalproperty_get_dtend($0)).eventTime }
    result.durationSeconds = found.duration.map { Int(icaldurationtype_as_int(icalproperty_get_duration($0))) }
    result.description = found.description.flatMap { copyString(icalproperty_get_description($0)) }
    result.location = found.location.flatMap { copyString(icalproperty_get_location($0)) }
    // libical splits `CATEGORIES:Running,Easy` into one property per value.
    result.categories = found.categories.compactMap { copyString(icalproperty_get_categories($0)) }
    result.sequence = found.sequence.map { Int(icalproperty_get_sequence($0)) } ?? 0
    result.status = found.status.flatMap { property in
      switch icalproperty_get_status(property) {
      case ICAL_STATUS_TENTATIVE: .tentative
      case ICAL_STATUS_CONFIRMED: .confirmed
      case ICAL_STATUS_CANCELLED: .cancelled
      default: nil
      }
    }
    result.transparent = found.transp.map(isTransparent) ?? false
    result.recurrenceRule = try found.rrule.map { (property) throws(ICalendarError) in try valueText(of: property) }
    result.recurrenceID = found.recurrenceID.map {
      WrittenTime(property: $0, value: icalproperty_get_recurrenceid($0)).eventTime
    }
    forEachChild(of: event, kind: ICAL_VALARM_COMPONENT) { alarm in
      if let value = readAlarm(alarm) { result.alarms.append(value) }
    }
    return result
  }

  /// Reads a VALARM's TRIGGER and DESCRIPTION; nil when it has no TRIGGER.
  /// The corresponding libical function is `icalproperty_get_trigger`.
  private static func readAlarm(_ alarm: OpaquePointer) -> VAlarm? {
    // The first TRIGGER and the first DESCRIPTION, in one pass.
    var triggerProperty: OpaquePointer?
    var descriptionProperty: OpaquePointer?
    var current = icalcomponent_get_first_property(alarm, ICAL_ANY_PROPERTY)
    while let property = current {
      switch icalproperty_isa(property) {
      case ICAL_TRIGGER_PROPERTY where triggerProperty == nil: triggerProperty = property
      case ICAL_DESCRIPTION_PROPERTY where descriptionProperty == nil: descriptionProperty = property
      default: break
      }
      current = icalcomponent_get_next_property(alarm, ICAL_ANY_PROPERTY)
    }
    guard let triggerProperty else { return nil }
    let value = icalproperty_get_trigger(triggerProperty)
    let trigger: VAlarm.Trigger
    if icaltime_is_null_time(value.time) == 0 {
      var time = value.time
      if let tzid = tzidParameter(of: triggerProperty), let zone = builtinZone(named: ianaName(forTZID: tzid)) {
        time = icaltime_convert_to_zone(time, zone)
      }
      if let zone = time.zone, !isUTC(zone) {
        time = icaltime_convert_to_zone(time, icaltimezone_get_utc_timezone())
      }
      trigger = .absolute(ICalDateTime(time))
    } else {
      let related =
        icalproperty_get_first_parameter(triggerProperty, ICAL_RELATED_PARAMETER)
        .map { icalparameter_get_related($0) == ICAL_RELATED_END } ?? false
      trigger = .relative(seconds: Int(icaldurationtype_as_int(value.duration)), fromEnd: related)
    }
    let text = descriptionProperty.flatMap { copyString(icalproperty_get_description($0)) } ?? ""
    return VAlarm(trigger: trigger, description: text)
  }
}

/// Whether a TRANSP property says TRANSPARENT.
/// The corresponding libical function is `icalproperty_get_transp`.
func isTransparent(_ property: OpaquePointer) -> Bool {
  let value = icalproperty_get_transp(property)
  return value == ICAL_TRANSP_TRANSPARENT || value == ICAL_TRANSP_TRANSPARENTNOCONFLICT
}

/// The first property of each kind a VEVENT is read for, and all its CATEGORIES in order, found in one pass
/// over its properties (the same ones `icalcomponent_get_first_property` per kind would find).
/// The corresponding libical functions are `icalcomponent_get_first_property`,
/// `icalcomponent_get_next_property` and `icalproperty_isa`.
struct EventProperties {
  var uid: OpaquePointer?
  var dtstamp: OpaquePointer?
  var dtstart: OpaquePointer?
  var dtend: OpaquePointer?
  var duration: OpaquePointer?
  var summary: OpaquePointer?
  var description: OpaquePointer?
  var location: OpaquePointer?
  var sequence: OpaquePointer?
  var status: OpaquePointer?
  var transp: OpaquePointer?
  var rrule: OpaquePointer?
  var recurrenceID: OpaquePointer?
  var categories: [OpaquePointer] = []

  init(_ event: OpaquePointer) {
    var current = icalcomponent_get_first_property(event, ICAL_ANY_PROPERTY)
    while let property = current {
      switch icalproperty_isa(property) {
      case ICAL_UID_PROPERTY: uid = uid ?? property
      case ICAL_DTSTAMP_PROPERTY: dtstamp = dtstamp ?? property
      case ICAL_DTSTART_PROPERTY: dtstart = dtstart ?? property
      case ICAL_DTEND_PROPERTY: dtend = dtend ?? property
      case ICAL_DURATION_PROPERTY: duration = duration ?? property
      case ICAL_SUMMARY_PROPERTY: summary = summary ?? property
      case ICAL_DESCRIPTION_PROPERTY: description = description ?? property
      case ICAL_LOCATION_PROPERTY: location = location ?? property
      case ICAL_SEQUENCE_PROPERTY: sequence = sequence ?? property
      case ICAL_STATUS_PROPERTY: status = status ?? property
      case ICAL_TRANSP_PROPERTY: transp = transp ?? property
      case ICAL_RRULE_PROPERTY: rrule = rrule ?? property
      case ICAL_RECURRENCEID_PROPERTY: recurrenceID = recurrenceID ?? property
      case ICAL_CATEGORIES_PROPERTY: categories.append(property)
      default: break
      }
      current = icalcomponent_get_next_property(event, ICAL_ANY_PROPERTY)
    }
  }
}

/// A property's value as libical writes it (e.g. an RRULE), copied and freed.
/// The corresponding libical functions are `icalproperty_get_value_as_string_r` and `icalmemory_free_buffer`.
func valueText(of property: OpaquePointer) throws(ICalendarError) -> String {
  cical_clear_errno()
  guard let buffer = icalproperty_get_value_as_string_r(property) else {
    throw .libical(operation: "icalproperty_get_value_as_string_r")
  }
  defer { icalmemory_free_buffer(buffer) }
  return String(cString: buffer)
}
