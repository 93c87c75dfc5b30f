internal import CLibical
import RunningCore

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

// libical's builtin zones (built from /usr/share/zoneinfo on Debian). They live in libical's process-wide
// cache, behind its mutex: look them up per call, never free them, never keep them in globals.

/// True when libical knows this IANA zone name, so that ``EventTime/zoned(_:tzid:)`` can use it.
///
/// ```swift
/// isKnownTimeZone("Europe/Berlin")  // true
/// isKnownTimeZone("Europe/Berln")   // false
/// ```
/// Names are case-sensitive. `UTC` and `GMT` are known (the serializer writes them as UTC times).
/// libical's own prefixed TZIDs (`/freeassociation.sourceforge.net/Europe/Berlin`) are not IANA names
/// and are not accepted here.
/// - Parameter tzid: An IANA time zone name, e.g. `Europe/Berlin`.
/// - Returns: Whether libical has a builtin zone of that name.
/// The corresponding libical function is `icaltimezone_get_builtin_timezone`.
public func isKnownTimeZone(_ tzid: String) -> Bool {
  builtinZone(named: tzid) != nil
}

/// True when `name` is a time zone a calendar can be written in: an IANA name (letters, digits and `_+-` in
/// `/`-separated parts, as `Europe/Berlin`, `Etc/GMT-2`, `UTC`) for which libical has a VTIMEZONE to write, or
/// `UTC`/`GMT`. What ``isKnownTimeZone(_:)`` accepts beyond that is refused: libical also loads any file under
/// the zoneinfo folder (`posix/Europe/Berlin`, `right/…`, `../zoneinfo/…`, the machine's `localtime`), which is
/// no zone name another calendar knows.
///
/// ```swift
/// isWritableTimeZone("Europe/Berlin")  // true
/// isWritableTimeZone("UTC+2")          // false: offsets are written Etc/GMT-2 (inverted sign)
/// ```
/// The corresponding libical functions are `icaltimezone_get_builtin_timezone` and `icaltimezone_get_component`.
public func isWritableTimeZone(_ name: String) -> Bool {
  guard isIANAShaped(name), let zone = builtinZone(named: name) else { return false }
  return isUTC(zone) || builtinZones.withLock { icaltimezone_get_component(zone) != nil }
}

/// A writable zone name close to `name` for a did-you-mean, or nil: for a UTC offset of whole hours (`UTC+2`,
/// `GMT-05:00`, `+0200`) the `Etc/GMT` zone of that offset (`Etc/GMT-2`: the POSIX sign is inverted), else
/// the nearest builtin name (see ``suggestedZoneName(for:)``).
public func suggestedTimeZone(for name: String) -> String? {
  if let hours = wholeHourOffset(name) {
    return hours == 0 ? "UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
  }
  return suggestedZoneName(for: name).flatMap { isWritableTimeZone($0) ? $0 : nil }
}

/// The whole-hour offset east of UTC of `UTC+2`, `GMT+0200`, `UTC-05:00`, `+02`, `utc+2`; nil for anything
/// else (no Etc/GMT zone exists for offsets with minutes, or beyond -12…+14).
func wholeHourOffset(_ text: String) -> Int? {
  var rest = Substring(text.uppercased())
  for prefix in ["UTC", "GMT", "Z"] where rest.hasPrefix(prefix) {
    rest = rest.dropFirst(prefix.count)
    break
  }
  guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
  let digits = rest.dropFirst().filter { $0 != ":" }
  guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
  let hours: Int
  if digits.count <= 2 {
    hours = Int(digits) ?? 99
  } else {
    let value = Int(digits) ?? 9999
    guard value % 100 == 0 else { return nil }
    hours = value / 100
  }
  let signed = sign == "-" ? -hours : hours
  return (-12...14).contains(signed) ? signed : nil
}

/// Whether `name` has the shape of an IANA zone name: 1 to 64 ASCII characters, `/`-separated parts of
/// letters, digits, `_`, `+` and `-`, each starting with a letter, and none of the zoneinfo folder's special
/// entries (`posix/`, `right/`, `localtime`, `posixrules`, `Factory`).
func isIANAShaped(_ name: String) -> Bool {
  guard (1...64).contains(name.utf8.count) else { return false }
  let parts = name.split(separator: "/", omittingEmptySubsequences: false)
  for part in parts {
    guard let first = part.utf8.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else {
      return false
    }
    let allowed = part.utf8.allSatisfy { byte in
      (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
    guard allowed else { return false }
  }
  let special: Set<Substring> = ["posix", "right", "localtime", "posixrules", "Factory"]
  return !special.contains(parts[0])
}

/// The builtin zone for an IANA name, or nil. The corresponding libical function is
/// `icaltimezone_get_builtin_timezone`.
func builtinZone(named tzid: String) -> OpaquePointer? {
  guard !tzid.isEmpty, !tzid.contains("\0") else { return nil }
  return builtinZones.withLock { loaded(tzid.withCString { icaltimezone_get_builtin_timezone($0) }) }
}

/// The builtin zone for a TZID in libical's prefixed form (`/freeassociation.sourceforge.net/Europe/Berlin`),
/// loaded, or nil. The corresponding libical function is `icaltimezone_get_builtin_timezone_from_tzid`.
func builtinZone(fromTZID tzid: String) -> OpaquePointer? {
  guard !tzid.isEmpty, !tzid.contains("\0") else { return nil }
  return builtinZones.withLock { loaded(tzid.withCString { icaltimezone_get_builtin_timezone_from_tzid($0) }) }
}

/// Serializes every lookup and load of libical's builtin zones in this module. libical 3.0 loads a builtin zone
/// lazily, on first use, and the load frees and replaces the zone's location string, while a lookup by name
/// (`icaltimezone_get_builtin_timezone`) reads every zone's location without libical's lock: a lookup running
/// beside another zone's load could miss a zone that exists (seen under valgrind: "Europe/Berlin" not found while
/// other tests loaded zones). So zones are looked up and loaded under this lock only, and handed out loaded, so
/// that no later libical call loads (and rewrites) them outside it.
private let builtinZones = Lock()

/// `zone` loaded (its VTIMEZONE read), so no later call loads it outside ``builtinZones``; call with that lock
/// held. UTC is not loaded: libical's UTC zone has no VTIMEZONE and needs none.
private func loaded(_ zone: OpaquePointer?) -> OpaquePointer? {
  if let zone, !isUTC(zone) { _ = icaltimezone_get_component(zone) }
  return zone
}

/// The location (IANA name) of a loaded builtin zone; call with ``builtinZones`` held. libical itself also loads
/// builtin zones, outside this module's lock: parsing a prefixed TZID (`/freeassociation.sourceforge.net/…`)
/// calls `icaltimezone_get_tzid`, which loads. That load sets the zone's component a moment before its new
/// location, so a reader that finds the zone loaded can still see no location for a few instructions (seen under
/// valgrind: `Europe/Berlin` missing from the did-you-mean names while a parse test ran). A missing location is
/// read again until that load finishes, for at most about 50 ms.
/// The corresponding libical function is `icaltimezone_get_location`.
private func location(of zone: OpaquePointer) -> String? {
  for attempt in 0..<500 {
    if let name = copyString(icaltimezone_get_location(zone)) { return name }
    if attempt < 20 { sched_yield() } else { usleep(100) }
  }
  return nil
}

/// Whether `zone` is libical's UTC zone (what `UTC` and `GMT` resolve to; it has no VTIMEZONE).
/// The corresponding libical function is `icaltimezone_get_utc_timezone`.
func isUTC(_ zone: OpaquePointer) -> Bool {
  zone == icaltimezone_get_utc_timezone()
}

/// The IANA name for a TZID as found in a file: libical's prefixed form
/// (`/freeassociation.sourceforge.net/Europe/Berlin`) becomes `Europe/Berlin`; anything else is returned
/// unchanged. The corresponding libical functions are `icaltimezone_get_builtin_timezone_from_tzid` and
/// `icaltimezone_get_location`.
func ianaName(forTZID tzid: String) -> String {
  // The location string is replaced when the zone loads lazily: `builtinZone(fromTZID:)` loads it first.
  guard tzid.hasPrefix("/"), let zone = builtinZone(fromTZID: tzid) else { return tzid }
  return builtinZones.withLock { location(of: zone) } ?? tzid
}

/// The error for a TZID libical does not know, with a suggestion from libical's builtin names.
func unknownTimeZone(_ tzid: String, operation: String, line: Int? = nil) -> ICalendarError {
  // Compute the suggestion first: the error reads icalerrno, and the lookups must not change it after.
  let suggestion = suggestedZoneName(for: tzid)
  return .libical(.unknownTimeZone(tzid: tzid, suggestion: suggestion), operation: operation, line: line)
}

/// A builtin zone name close to `tzid`, or nil: the IANA name of a prefixed libical TZID, else the product's one
/// zone did-you-mean over libical's builtin names (``TimeZoneNames``: other case, a city alone, a typo).
/// The corresponding libical function is `icaltimezone_get_builtin_timezones`.
func suggestedZoneName(for tzid: String) -> String? {
  guard tzid.count <= 64 else { return nil }  // no zone name is this long; edit distances would cost seconds
  if tzid.hasPrefix("/"), builtinZone(fromTZID: tzid) != nil {
    let name = ianaName(forTZID: tzid)
    if name != tzid { return name }
  }
  return builtinZoneNameIndex.suggestion(for: tzid)
}

/// The builtin zones' names as the suggestions compare them, read from libical once, on the first error that needs a
/// suggestion (it loads every zone: about 60 ms natively, seconds under valgrind).
private let builtinZoneNameIndex = TimeZoneNames(builtinZoneNames())

/// Every builtin zone's IANA name, sorted.
/// The corresponding libical functions are `icaltimezone_get_builtin_timezones`, `icalarray_element_at`,
/// `icaltimezone_get_component` and `icaltimezone_get_location`.
private func builtinZoneNames() -> [String] {
  builtinZones.withLock {
    guard let zones = icaltimezone_get_builtin_timezones() else { return [] }
    var names: [String] = []
    for index in 0..<zones.pointee.num_elements {
      guard let element = icalarray_element_at(zones, index) else { continue }
      // Load before reading the location (the lazy load replaces the string); about 60 ms for all zones,
      // on the error path only.
      if let zone = loaded(OpaquePointer(element)), let name = location(of: zone) {
        names.append(name)
      }
    }
    return names.sorted()
  }
}

/// A VTIMEZONE for a builtin zone, ready to add to a calendar: a clone of libical's definition (the original
/// belongs to libical's cache), its TZID renamed to the plain IANA name (the builtin
/// `/freeassociation.sourceforge.net/…` TZID crashes khal and is rejected by python `ical`), and truncated
/// to the transitions from 1 January of `firstYear` (UTC) on, so the file stays small.
/// - Parameters:
///   - tzid: The IANA name, used as the TZID.
///   - zone: The builtin zone for it.
///   - firstYear: The first year the calendar needs.
/// - Returns: The owned component.
/// - Throws: ``ICalendarError`` when libical has no definition or a call fails.
/// The corresponding libical functions are `icaltimezone_get_component`, `icalcomponent_new_clone`,
/// `icalproperty_set_tzid` and `icaltimezone_truncate_vtimezone`.
func makeVTimezone(tzid: String, zone: OpaquePointer, firstYear: Int) throws(ICalendarError) -> OwnedComponent {
  cical_clear_errno()
  guard let shared = builtinZones.withLock({ icaltimezone_get_component(zone) }) else {
    throw .libical(operation: "icaltimezone_get_component", detail: tzid)
  }
  guard let clone = icalcomponent_new_clone(shared) else {
    throw .libical(operation: "icalcomponent_new_clone", detail: tzid)
  }
  let vtimezone = OwnedComponent(adopting: clone)
  try vtimezone.withPointer { (pointer) throws(ICalendarError) in
    guard let tzidProperty = firstProperty(of: pointer, kind: ICAL_TZID_PROPERTY) else {
      throw .libical(operation: "icalcomponent_get_first_property", detail: "no TZID in the VTIMEZONE of \(tzid)")
    }
    tzid.withCString { icalproperty_set_tzid(tzidProperty, $0) }
    let start = ICalDateTime(year: firstYear, month: 1, day: 1, hour: 0, minute: 0)
      .icalValue(zone: icaltimezone_get_utc_timezone())
    icaltimezone_truncate_vtimezone(pointer, start, icaltime_null_time(), 0)
  }
  return vtimezone
}

/// The text of the VTIMEZONE ``makeVTimezone(tzid:zone:firstYear:)`` makes, as libical writes it.
///
/// Texts are kept per process by TZID (its bytes) and first year: a calendar per plan repeats the same
/// zone, and cloning and truncating libical's full definition (history back to 1893) costs as much as
/// writing dozens of events. The text depends only on the key and on libical's zone data, which libical
/// loads once per process and keeps, so a kept text is the text this function would make again. The
/// cache holds bytes, never libical pointers.
/// - Parameters:
///   - tzid: The IANA name, used as the TZID.
///   - zone: The builtin zone for it.
///   - firstYear: The first year the calendar needs.
/// - Returns: The VTIMEZONE's text (empty in the unlikely case libical cannot write it: libical then leaves
///   the component out of its parent's text).
/// - Throws: ``ICalendarError`` when libical has no definition or a call fails.
/// The corresponding libical function is `icalcomponent_as_ical_string_r`.
func vtimezoneText(tzid: String, zone: OpaquePointer, firstYear: Int) throws(ICalendarError) -> [UInt8] {
  let key = VTimezoneTexts.Key(tzid: Array(tzid.utf8), firstYear: firstYear)
  if let text = VTimezoneTexts.shared.text(for: key) { return text }
  let vtimezone = try makeVTimezone(tzid: tzid, zone: zone, firstYear: firstYear)
  // libical leaves a child it cannot write out of its parent's text: the same here (nothing written, nothing kept).
  guard let text = try? vtimezone.icalBytes() else { return [] }
  if !text.isEmpty { VTimezoneTexts.shared.store(text, for: key) }
  return text
}

/// The VTIMEZONE texts made so far in this process (see ``vtimezoneText(tzid:zone:firstYear:)``), behind a
/// lock; at most ``capacity`` of them (all are dropped when it is reached).
final class VTimezoneTexts: @unchecked Sendable {
  /// A TZID's bytes (not the String: two spellings that compare equal as Strings are different TZIDs) and
  /// the first year.
  struct Key: Hashable {
    var tzid: [UInt8]
    var firstYear: Int
  }

  /// The process-wide cache.
  static let shared = VTimezoneTexts()
  /// The most texts kept.
  static let capacity = 64

  private let lock = Lock()
  private var texts: [Key: [UInt8]] = [:]

  /// The kept text for a key, or nil.
  func text(for key: Key) -> [UInt8]? {
    lock.withLock { texts[key] }
  }

  /// Keeps a text.
  func store(_ text: [UInt8], for key: Key) {
    lock.withLock {
      if texts.count >= Self.capacity { texts.removeAll() }
      texts[key] = text
    }
  }
}
