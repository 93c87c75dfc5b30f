import Foundation
import ICalendar

/// Where a time zone name came from: it decides what the message tells the runner to do.
public enum TimeZoneOrigin: Sendable, Equatable {
  /// Given now (an option, a field of a file being read in): the CLI names the option.
  case given
  /// Read back from the database (a plan's saved settings or a profile, written by an older version).
  case saved
}

/// A time zone name that no calendar can be written in: not an IANA name libical knows (`UTC+2`, which
/// Foundation reads as `GMT+0200`; `Mars/Olympus`; a zoneinfo path such as `posix/Europe/Berlin`).
public struct TimeZoneError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The name as written.
  public var value: String
  /// Where it came from.
  public var origin: TimeZoneOrigin
  /// A writable name that may have been meant (`Etc/GMT-2` for `UTC+2`), when one is close.
  public var suggestion: String?

  /// What is allowed, in words.
  public static let allowed =
    "an IANA name such as Europe/Berlin or Etc/GMT-2 (note the inverted sign: Etc/GMT-2 is UTC+2)"

  /// The message for a runner, without the option's name (the CLI puts `--tz: ` before a given name).
  public var description: String {
    let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    switch origin {
    case .given:
      return "'\(value)' is not a time zone, allowed is \(Self.allowed)\(hint)"
    case .saved:
      let fix = suggestion ?? "Europe/Berlin"
      return "the time zone '\(value)' saved in the database is not one a calendar can be written in\(hint); "
        + "set an IANA name with `runmate profile set --tz \(fix)` (the profile's zone) or "
        + "`runmate schedule --tz \(fix)` (the active plan's)"
    }
  }
}

/// The one check of a time zone name, wherever it enters (an option, a profile, a plan file, settings read back
/// from the database): an IANA name that libical can write a VTIMEZONE for (``isWritableTimeZone(_:)``, so that
/// every export, sync and feed can use it) and that Foundation can schedule in.
///
/// ```swift
/// try checkedTimeZone("Europe/Berlin")  // the zone
/// try checkedTimeZone("UTC+2")          // throws: did you mean 'Etc/GMT-2'?
/// ```
/// - Parameters:
///   - name: The name as written.
///   - origin: Where it came from, for the message.
/// - Returns: The zone.
/// - Throws: ``TimeZoneError`` with a suggestion when one is close.
@discardableResult
public func checkedTimeZone(_ name: String, origin: TimeZoneOrigin = .given) throws(TimeZoneError) -> TimeZone {
  guard isWritableTimeZone(name), let zone = TimeZone(identifier: name) else {
    throw TimeZoneError(value: name, origin: origin, suggestion: suggestedTimeZone(for: name))
  }
  return zone
}
