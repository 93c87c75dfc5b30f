internal import CLibical

// The fast path of `VCalendar.serialized()`: each event written property by property as libical writes it.
//
// libical writes a component as its BEGIN line, `icalproperty_as_ical_string_r` of each property in order, each child
// component the same way, and its END line (taken from libical's text of an empty component, `ComponentFraming`),
// with nothing in between: `icalcomponent_as_ical_string_r` does no more than that. So instead of
// building the VEVENT tree and letting libical walk it, each property is made by its typed `icalproperty_new_*`
// constructor, written by `icalproperty_as_ical_string_r`, in the order the tree would hold it; the bytes are the
// same. Every line is still made by libical (folding, escaping, value formats). The properties that change with
// every event (UID, DTSTART, DTEND, SUMMARY, DESCRIPTION, LOCATION, a TRIGGER at a time) are made once per
// serialization and given each event's value by their typed `icalproperty_set_*` setter (`ReusableProperty`); the
// others are freed at once.
//
// A property's text depends only on its kind, parameters and value: properties that repeat from event to event
// with the same value (DTSTAMP, SEQUENCE, CATEGORIES, ACTION, a relative TRIGGER, TRANSP, STATUS, DURATION) are
// written by libical the first time and their text reused for the same value afterwards (`TextMemo`). The reference,
// `VCalendar.serializedThroughLibicalTree()`, builds the whole tree and lets libical write it; the tests compare
// the two byte for byte.

/// The text libical writes for a few recent values of one property.
///
/// Keys are compared with `==`, never hashed: a calendar repeats one or a few values, so a short linear search
/// finds them faster than a dictionary, and a miss only costs one libical call.
struct TextMemo<Key: Equatable> {
  /// The most values kept; the oldest is replaced beyond.
  static var capacity: Int { 16 }

  private var keys: [Key] = []
  private var texts: [[UInt8]] = []
  private var next = 0

  /// Appends the text for `key`: the kept one, or what `make` returns (then kept).
  mutating func append(
    _ key: Key, to bytes: inout [UInt8], make: () throws(ICalendarError) -> [UInt8]
  ) throws(ICalendarError) {
    if let index = keys.firstIndex(of: key) {
      bytes.append(contentsOf: texts[index])
      return
    }
    let text = try make()
    if keys.count < Self.capacity {
      keys.append(key)
      texts.append(text)
    } else {
      keys[next] = key
      texts[next] = text
      next = (next + 1) % Self.capacity
    }
    bytes.append(contentsOf: text)
  }
}

/// Writes the VEVENTs of one calendar (with their VALARMs) into one byte buffer, as libical writes them.
struct EventWriter {
  /// The text so far.
  var bytes: [UInt8] = []

  private let zones: ZoneTable
  /// The BEGIN and END lines of a VEVENT and of a VALARM, as libical writes them.
  private let eventLines: ComponentFraming
  private let alarmLines: ComponentFraming
  private var dtstamps = TextMemo<ICalDateTime>()
  private var durations = TextMemo<Int>()
  private var categories = TextMemo<CategoryKey>()
  private var sequences = TextMemo<Int>()
  private var statuses = TextMemo<VEvent.Status>()
  private var transparent = TextMemo<Bool>()
  private var actions = TextMemo<Bool>()
  private var triggers = TextMemo<VAlarm.Trigger>()
  private var uid: ReusableProperty?
  private var summary: ReusableProperty?
  private var description: ReusableProperty?
  private var location: ReusableProperty?
  /// TRIGGER with a time (relative triggers repeat and are kept in `triggers`).
  private var absoluteTrigger: ReusableProperty?
  /// DTSTART and DTEND properties by the TZID parameter they carry (nil: none).
  private var starts: [(tzid: String?, property: ReusableProperty)] = []
  private var ends: [(tzid: String?, property: ReusableProperty)] = []

  /// A writer for events whose zones are in `zones`, appending to `bytes`.
  /// - Throws: ``ICalendarError`` when libical cannot write an empty VEVENT or VALARM (see ``ComponentFraming``).
  init(zones: ZoneTable, bytes: [UInt8]) throws(ICalendarError) {
    self.zones = zones
    self.bytes = bytes
    eventLines = try ComponentFraming(kind: ICAL_VEVENT_COMPONENT)
    alarmLines = try ComponentFraming(kind: ICAL_VALARM_COMPONENT)
  }

  /// Appends one VEVENT with its VALARMs: the properties in the order `makeEventComponent` adds them.
  mutating func append(_ event: VEvent) throws(ICalendarError) {
    bytes.append(contentsOf: eventLines.begin)
    try Self.write(
      &uid, to: &bytes, "icalproperty_new_uid", detail: event.uid,
      make: { event.uid.withCString { icalproperty_new_uid($0) } },
      set: { property in event.uid.withCString { icalproperty_set_uid(property, $0) } })
    try dtstamps.append(event.dtstamp, to: &bytes) { () throws(ICalendarError) in
      let stamp = event.dtstamp.icalValue(zone: icaltimezone_get_utc_timezone())
      return text(of: try OwnedProperty("icalproperty_new_dtstamp") { icalproperty_new_dtstamp(stamp) })
    }
    try Self.write(
      event.start, in: &starts, zones: zones, to: &bytes, "icalproperty_new_dtstart",
      make: { icalproperty_new_dtstart($0) }, set: { icalproperty_set_dtstart($0, $1) })
    if let end = event.end {
      try Self.write(
        end, in: &ends, zones: zones, to: &bytes, "icalproperty_new_dtend",
        make: { icalproperty_new_dtend($0) }, set: { icalproperty_set_dtend($0, $1) })
    } else if let seconds = event.durationSeconds {
      try durations.append(seconds, to: &bytes) { () throws(ICalendarError) in
        let duration = icaldurationtype_from_int(Int32(clamping: seconds))
        return text(of: try OwnedProperty("icalproperty_new_duration") { icalproperty_new_duration(duration) })
      }
    }
    if let rule = event.recurrenceRule {
      appendText(of: try recurrenceRuleProperty(rule, event: event))
    }
    if let recurrenceID = event.recurrenceID {
      appendText(
        of: try zones.property(recurrenceID, "icalproperty_new_recurrenceid") { icalproperty_new_recurrenceid($0) })
    }
    if !event.summary.isEmpty {
      try Self.write(
        &summary, to: &bytes, "icalproperty_new_summary", detail: nil,
        make: { event.summary.withCString { icalproperty_new_summary($0) } },
        set: { property in event.summary.withCString { icalproperty_set_summary(property, $0) } })
    }
    if let text = event.description, !text.isEmpty {
      try writeDescription(text)
    }
    if let text = event.location, !text.isEmpty {
      try Self.write(
        &location, to: &bytes, "icalproperty_new_location", detail: nil,
        make: { text.withCString { icalproperty_new_location($0) } },
        set: { property in text.withCString { icalproperty_set_location(property, $0) } })
    }
    // Kept by the categories themselves: the list is only joined when libical has to write it.
    if event.categories.contains(where: { !$0.isEmpty }) {
      try categories.append(CategoryKey(event.categories), to: &bytes) { () throws(ICalendarError) in
        guard let list = categoryList(event.categories) else { return [] }
        return text(
          of: try OwnedProperty("icalproperty_new_categories", detail: list) {
            list.withCString { icalproperty_new_categories($0) }
          })
      }
    }
    try sequences.append(event.sequence, to: &bytes) { () throws(ICalendarError) in
      let sequence = Int32(clamping: event.sequence)
      return text(of: try OwnedProperty("icalproperty_new_sequence") { icalproperty_new_sequence(sequence) })
    }
    if let status = event.status {
      try statuses.append(status, to: &bytes) { () throws(ICalendarError) in
        let value = status.icalValue
        return text(of: try OwnedProperty("icalproperty_new_status") { icalproperty_new_status(value) })
      }
    }
    if event.transparent {
      try transparent.append(true, to: &bytes) { () throws(ICalendarError) in
        text(of: try OwnedProperty("icalproperty_new_transp") { icalproperty_new_transp(ICAL_TRANSP_TRANSPARENT) })
      }
    }
    for alarm in event.alarms {
      try append(alarm, summary: event.summary)
    }
    bytes.append(contentsOf: eventLines.end)
  }

  /// Appends one VALARM: ACTION:DISPLAY, TRIGGER, DESCRIPTION (as `makeAlarmComponent` builds it).
  private mutating func append(_ alarm: VAlarm, summary: String) throws(ICalendarError) {
    bytes.append(contentsOf: alarmLines.begin)
    try actions.append(true, to: &bytes) { () throws(ICalendarError) in
      text(of: try OwnedProperty("icalproperty_new_action") { icalproperty_new_action(ICAL_ACTION_DISPLAY) })
    }
    switch alarm.trigger {
    case .absolute(let time):
      // A time of its own for nearly every alarm (`20:00 the day before`): one property given each value.
      // libical adds VALUE=DATE-TIME itself when it writes a TRIGGER holding a time.
      let value = icaltriggertype(
        time: time.icalValue(zone: icaltimezone_get_utc_timezone()), duration: icaldurationtype_null_duration())
      try Self.write(
        &absoluteTrigger, to: &bytes, "icalproperty_new_trigger", detail: nil,
        make: { icalproperty_new_trigger(value) }, set: { icalproperty_set_trigger($0, value) })
    case .relative:
      try triggers.append(alarm.trigger, to: &bytes) { () throws(ICalendarError) in
        text(of: try triggerProperty(alarm.trigger))
      }
    }
    try writeDescription(alarmDescription(alarm, summary: summary))
    bytes.append(contentsOf: alarmLines.end)
  }

  /// Appends a DESCRIPTION (of an event or an alarm).
  private mutating func writeDescription(_ text: String) throws(ICalendarError) {
    try Self.write(
      &description, to: &bytes, "icalproperty_new_description", detail: nil,
      make: { text.withCString { icalproperty_new_description($0) } },
      set: { property in text.withCString { icalproperty_set_description(property, $0) } })
  }

  /// Appends the text of a property kept in `slot`: made by `make` the first time, given its new value by `set`
  /// after.
  private static func write(
    _ slot: inout ReusableProperty?, to bytes: inout [UInt8], _ operation: String,
    detail: @autoclosure () -> String?, make: () -> OpaquePointer?, set: (OpaquePointer) -> Void
  ) throws(ICalendarError) {
    if let property = slot {
      try property.set(operation, detail: detail(), set)
      property.appendText(to: &bytes)
    } else {
      let property = ReusableProperty(try OwnedProperty(operation, detail: detail(), make))
      slot = property
      property.appendText(to: &bytes)
    }
  }

  /// Appends the text of a DTSTART or DTEND: a property kept per TZID parameter, made by `make` (and given the
  /// parameter) the first time, given its new value by `set` after.
  private static func write(
    _ time: EventTime, in slots: inout [(tzid: String?, property: ReusableProperty)], zones: ZoneTable,
    to bytes: inout [UInt8], _ operation: String, make: (icaltimetype) -> OpaquePointer?,
    set: (OpaquePointer, icaltimetype) -> Void
  ) throws(ICalendarError) {
    let (value, tzid) = zones.parts(time)
    if let slot = slots.first(where: { $0.tzid == tzid }) {
      try slot.property.set(operation, detail: time.text) { set($0, value) }
      slot.property.appendText(to: &bytes)
    } else {
      let property = ReusableProperty(try zones.property(time, operation, make))
      slots.append((tzid, property))
      property.appendText(to: &bytes)
    }
  }

  /// Appends libical's text of a property, then frees the property.
  private mutating func appendText(of property: consuming OwnedProperty) {
    property.withPointer { appendPropertyText(of: $0, to: &bytes) }
  }
}

/// libical's text of a property (empty when libical cannot write it); the property is freed after.
private func text(of property: consuming OwnedProperty) -> [UInt8] {
  var bytes: [UInt8] = []
  property.withPointer { appendPropertyText(of: $0, to: &bytes) }
  return bytes
}

/// An event's categories as a ``TextMemo`` key: equal when their UTF-8 bytes are (String's `==` holds canonically
/// equivalent spellings equal, `é` and `e` + U+0301, which libical writes as different bytes).
struct CategoryKey: Equatable {
  let categories: [String]

  init(_ categories: [String]) {
    self.categories = categories
  }

  static func == (lhs: CategoryKey, rhs: CategoryKey) -> Bool {
    guard lhs.categories.count == rhs.categories.count else { return false }
    for index in lhs.categories.indices where !sameBytes(lhs.categories[index], rhs.categories[index]) {
      return false
    }
    return true
  }
}

/// Whether two strings have the same UTF-8 bytes (native strings: compared in place, lengths first).
private func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
  guard lhs.utf8.count == rhs.utf8.count else { return false }
  let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
    rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
  }
  return (inPlace ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
}

/// The CATEGORIES value of an event (empty categories left out), or nil when there is none.
func categoryList(_ categories: [String]) -> String? {
  guard categories.contains(where: { !$0.isEmpty }) else { return nil }
  // libical splits this into a multi-value list: CATEGORIES:Running,Easy.
  return categories.contains(where: \.isEmpty)
    ? categories.filter { !$0.isEmpty }.joined(separator: ",")
    : categories.joined(separator: ",")
}

/// The RRULE property of an event.
/// The corresponding libical functions are `icalrecurrencetype_from_string` and `icalproperty_new_rrule`.
func recurrenceRuleProperty(_ rule: String, event: VEvent) throws(ICalendarError) -> OwnedProperty {
  cical_clear_errno()
  let recurrence = rule.withCString { icalrecurrencetype_from_string($0) }
  if recurrence.freq == ICAL_NO_RECURRENCE {
    throw .libical(
      .invalidValue(
        component: event.label, field: "RRULE", value: rule, reason: "libical cannot read this recurrence rule"),
      operation: "icalrecurrencetype_from_string")
  }
  return try OwnedProperty("icalproperty_new_rrule", detail: rule) { icalproperty_new_rrule(recurrence) }
}

/// The TRIGGER property of an alarm (`RELATED=END` for a relative trigger from the end).
/// The corresponding libical functions are `icalproperty_new_trigger` and `icalparameter_new_related`.
func triggerProperty(_ trigger: VAlarm.Trigger) throws(ICalendarError) -> OwnedProperty {
  var value = icaltriggertype(time: icaltime_null_time(), duration: icaldurationtype_null_duration())
  var fromEnd = false
  switch trigger {
  case .relative(let seconds, let related):
    value.duration = icaldurationtype_from_int(Int32(clamping: seconds))
    fromEnd = related
  case .absolute(let time):
    // libical adds VALUE=DATE-TIME itself.
    value.time = time.icalValue(zone: icaltimezone_get_utc_timezone())
  }
  let property = try OwnedProperty("icalproperty_new_trigger") { icalproperty_new_trigger(value) }
  if fromEnd {
    try property.addParameter("icalparameter_new_related") { icalparameter_new_related(ICAL_RELATED_END) }
  }
  return property
}

/// The DESCRIPTION of a DISPLAY alarm: its text, else the event's summary, else "Reminder" (a DISPLAY alarm needs
/// a DESCRIPTION, and libical cannot read an empty one back).
func alarmDescription(_ alarm: VAlarm, summary: String) -> String {
  !alarm.description.isEmpty ? alarm.description : !summary.isEmpty ? summary : "Reminder"
}

extension VEvent.Status {
  /// libical's STATUS value.
  var icalValue: icalproperty_status {
    switch self {
    case .tentative: ICAL_STATUS_TENTATIVE
    case .confirmed: ICAL_STATUS_CONFIRMED
    case .cancelled: ICAL_STATUS_CANCELLED
    }
  }
}
