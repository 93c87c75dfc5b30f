// The public model: plain Swift values, no C. Everything that touches libical lives in the other files
// of this module (the Yams split: Node.swift versus Parser.swift/Emitter.swift).

/// A calendar date (all-day values).
///
/// Dates are proleptic Gregorian (`CALSCALE:GREGORIAN`); they carry no time zone. RFC 5545 §3.3.4.
public struct ICalDate: Sendable, Hashable, Comparable {
  /// The year, e.g. 2027.
  public var year: Int
  /// The month, 1 (January) to 12 (December).
  public var month: Int
  /// The day of the month, 1 to 31.
  public var day: Int

  /// Creates a date. The serializer checks that it exists (`2027-02-30` throws).
  /// - Parameters:
  ///   - year: The year, 1 to 9999.
  ///   - month: The month, 1 to 12.
  ///   - day: The day of the month.
  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// Orders dates chronologically.
  public static func < (lhs: ICalDate, rhs: ICalDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}

/// A wall-clock date-time (no zone by itself).
///
/// What it means depends on where it is used: ``EventTime/zoned(_:tzid:)`` gives it a zone,
/// ``EventTime/utc(_:)`` reads it as UTC, ``EventTime/floating(_:)`` leaves it floating. RFC 5545 §3.3.5.
public struct ICalDateTime: Sendable, Hashable, Comparable {
  /// The year, e.g. 2027.
  public var year: Int
  /// The month, 1 to 12.
  public var month: Int
  /// The day of the month, 1 to 31.
  public var day: Int
  /// The hour, 0 to 23.
  public var hour: Int
  /// The minute, 0 to 59.
  public var minute: Int
  /// The second, 0 to 60 (60 only for a leap second).
  public var second: Int

  /// Creates a wall-clock date-time. The serializer checks that the fields are in range.
  /// - Parameters:
  ///   - year: The year, 1 to 9999.
  ///   - month: The month, 1 to 12.
  ///   - day: The day of the month.
  ///   - hour: The hour, 0 to 23.
  ///   - minute: The minute, 0 to 59.
  ///   - second: The second, 0 to 60; 0 when omitted.
  public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// The date part.
  public var date: ICalDate { ICalDate(year: year, month: month, day: day) }

  /// Orders date-times by their fields (wall-clock order; no zone is involved).
  public static func < (lhs: ICalDateTime, rhs: ICalDateTime) -> Bool {
    (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
      < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
  }
}

/// When an event starts or ends (a DATE or DATE-TIME value, RFC 5545 §3.3.4, §3.3.5, §3.8.2.4).
public enum EventTime: Sendable, Hashable {
  /// An all-day value: `DTSTART;VALUE=DATE:20270305`.
  case date(ICalDate)
  /// A local time in a named zone: `DTSTART;TZID=Europe/Berlin:20270305T063000`. `tzid` is an IANA name
  /// (`Europe/Berlin`); the serializer adds a VTIMEZONE for it.
  case zoned(ICalDateTime, tzid: String)
  /// A UTC time: `DTSTART:20270305T053000Z`.
  case utc(ICalDateTime)
  /// A floating time (the same wall-clock time in every zone): `DTSTART:20270305T063000`.
  case floating(ICalDateTime)
}

/// A reminder (a VALARM component, RFC 5545 §3.6.6). The serializer always writes `ACTION:DISPLAY`.
public struct VAlarm: Sendable, Hashable {
  /// When the reminder fires (the TRIGGER property, RFC 5545 §3.8.6.3).
  public enum Trigger: Sendable, Hashable {
    /// Seconds relative to the event's start (or end when `fromEnd`); negative is before:
    /// `TRIGGER:-PT30M`, `TRIGGER;RELATED=END:PT0S`.
    case relative(seconds: Int, fromEnd: Bool)
    /// A fixed UTC instant: `TRIGGER;VALUE=DATE-TIME:20270304T170000Z`. Use this for all-day events: a
    /// relative trigger on an all-day event fires at midnight.
    case absolute(ICalDateTime)
  }

  /// When the reminder fires.
  public var trigger: Trigger
  /// The text shown (DESCRIPTION). A DISPLAY alarm needs one: when empty, the serializer writes the
  /// event's summary (or "Reminder"), so an empty text does not round-trip.
  public var description: String

  /// Creates a display reminder.
  /// - Parameters:
  ///   - trigger: When the reminder fires.
  ///   - description: The text shown.
  public init(trigger: Trigger, description: String) {
    self.trigger = trigger
    self.description = description
  }
}

/// An event (a VEVENT component, RFC 5545 §3.6.1).
public struct VEvent: Sendable, Hashable {
  /// The STATUS of an event (RFC 5545 §3.8.1.11).
  public enum Status: String, Sendable {
    /// `STATUS:TENTATIVE`.
    case tentative = "TENTATIVE"
    /// `STATUS:CONFIRMED`.
    case confirmed = "CONFIRMED"
    /// `STATUS:CANCELLED`: send a removed event once more with this status and the same UID.
    case cancelled = "CANCELLED"
  }

  /// The stable identifier clients deduplicate by (UID, §3.8.4.7). Must not be empty.
  public var uid: String
  /// When this version of the event was written, in UTC (DTSTAMP, §3.8.7.2).
  public var dtstamp: ICalDateTime
  /// The start (DTSTART, §3.8.2.4).
  public var start: EventTime
  /// The end, exclusive (DTEND, §3.8.2.2): the next day for a one-day all-day event.
  public var end: EventTime?
  /// The title (SUMMARY); not written when empty.
  public var summary: String
  /// The notes (DESCRIPTION); not written when nil or empty.
  public var description: String?
  /// The place (LOCATION); not written when nil or empty.
  public var location: String?
  /// The categories, written as one comma-separated CATEGORIES list. A category must not contain a comma.
  public var categories: [String]
  /// The revision (SEQUENCE, §3.8.7.4); always written, 0 included. Raise it on every change.
  public var sequence: Int
  /// The status (STATUS), or nil for none.
  public var status: Status?
  /// Whether the event does not block time (`TRANSP:TRANSPARENT` when true, nothing when false).
  public var transparent: Bool
  /// The reminders, in order.
  public var alarms: [VAlarm]
  /// The recurrence rule (RRULE value, §3.8.5.3) in libical's spelling, e.g. `FREQ=WEEKLY;COUNT=6`.
  public var recurrenceRule: String?
  /// The instance this event overrides (RECURRENCE-ID, §3.8.4.4).
  public var recurrenceID: EventTime?
  /// The length in seconds (DURATION, §3.8.2.5), used when ``end`` is nil; the two exclude each other.
  public var durationSeconds: Int?

  /// Creates an event.
  /// - Parameters:
  ///   - uid: The stable identifier.
  ///   - dtstamp: When this version was written, UTC.
  ///   - start: The start.
  ///   - end: The exclusive end, or nil.
  ///   - summary: The title.
  ///   - description: The notes, or nil.
  ///   - location: The place, or nil.
  ///   - categories: The categories.
  ///   - sequence: The revision, 0 for the first.
  ///   - status: The status, or nil.
  ///   - transparent: Whether the event does not block time.
  ///   - alarms: The reminders.
  ///   - recurrenceRule: An RRULE value, or nil.
  ///   - recurrenceID: The overridden instance, or nil.
  ///   - durationSeconds: A DURATION in seconds (only when `end` is nil), or nil.
  public init(
    uid: String, dtstamp: ICalDateTime, start: EventTime, end: EventTime? = nil, summary: String,
    description: String? = nil, location: String? = nil, categories: [String] = [], sequence: Int = 0,
    status: Status? = nil, transparent: Bool = false, alarms: [VAlarm] = [], recurrenceRule: String? = nil,
    recurrenceID: EventTime? = nil, durationSeconds: Int? = nil
  ) {
    self.uid = uid
    self.dtstamp = dtstamp
    self.start = start
    self.end = end
    self.summary = summary
    self.description = description
    self.location = location
    self.categories = categories
    self.sequence = sequence
    self.status = status
    self.transparent = transparent
    self.alarms = alarms
    self.recurrenceRule = recurrenceRule
    self.recurrenceID = recurrenceID
    self.durationSeconds = durationSeconds
  }
}

/// A calendar (a VCALENDAR object, RFC 5545 §3.4, §3.6): what an `.ics` file holds.
///
/// ``serialized()``, ``parse(_:)`` and ``occurrences(in:from:to:floatingTimeZone:)`` are in the files that
/// talk to libical.
public struct VCalendar: Sendable, Hashable {
  /// The product identifier (PRODID, §3.7.3), e.g. `-//RunningMate//Plan//EN`. Must not be empty.
  public var prodID: String
  /// The iTIP method (METHOD, §3.7.2), e.g. `PUBLISH`, or nil.
  public var method: String?
  /// The calendar's display name (`X-WR-CALNAME`), or nil.
  public var name: String?
  /// The events, in file order.
  public var events: [VEvent]
  /// How often a subscriber should fetch the calendar again, in seconds (`REFRESH-INTERVAL;VALUE=DURATION`,
  /// RFC 7986 §5.7), or nil. Positive.
  public var refreshIntervalSeconds: Int?
  /// The same hint in the older spelling that Outlook and Apple Calendar read (`X-PUBLISHED-TTL`, a duration), in
  /// seconds, or nil. Positive.
  public var publishedTTLSeconds: Int?

  /// Creates a calendar.
  /// - Parameters:
  ///   - prodID: The product identifier.
  ///   - method: The iTIP method, or nil.
  ///   - name: The display name, or nil.
  ///   - events: The events.
  ///   - refreshIntervalSeconds: `REFRESH-INTERVAL` in seconds, or nil.
  ///   - publishedTTLSeconds: `X-PUBLISHED-TTL` in seconds, or nil.
  public init(
    prodID: String, method: String? = nil, name: String? = nil, events: [VEvent] = [],
    refreshIntervalSeconds: Int? = nil, publishedTTLSeconds: Int? = nil
  ) {
    self.prodID = prodID
    self.method = method
    self.name = name
    self.events = events
    self.refreshIntervalSeconds = refreshIntervalSeconds
    self.publishedTTLSeconds = publishedTTLSeconds
  }
}

/// One concrete occurrence of an event, from ``VCalendar/occurrences(in:from:to:floatingTimeZone:)``.
public struct Occurrence: Sendable, Hashable {
  /// The event's UID ("" when the file has none).
  public var uid: String
  /// The SUMMARY of the event or of the override that produced this occurrence ("" when absent).
  public var summary: String
  /// The start, UTC epoch seconds (timed events; 0 for all-day ones).
  public var start: Int64
  /// The end, exclusive, UTC epoch seconds (timed events; equal to `start` for zero-length ones; 0 for
  /// all-day ones).
  public var end: Int64
  /// For all-day events: the first and the last day (inclusive). nil for timed events.
  public var allDay: ClosedRange<ICalDate>?
  /// The event is `TRANSP:TRANSPARENT`: it does not block time.
  public var transparent: Bool
  /// The event is `STATUS:CANCELLED`.
  public var cancelled: Bool

  /// Creates an occurrence.
  /// - Parameters:
  ///   - uid: The event's UID.
  ///   - summary: The title.
  ///   - start: UTC epoch seconds (0 for all-day).
  ///   - end: UTC epoch seconds, exclusive (0 for all-day).
  ///   - allDay: The days for an all-day occurrence, or nil.
  ///   - transparent: Whether it does not block time.
  ///   - cancelled: Whether it is cancelled.
  public init(
    uid: String, summary: String, start: Int64, end: Int64, allDay: ClosedRange<ICalDate>? = nil,
    transparent: Bool = false, cancelled: Bool = false
  ) {
    self.uid = uid
    self.summary = summary
    self.start = start
    self.end = end
    self.allDay = allDay
    self.transparent = transparent
    self.cancelled = cancelled
  }
}
