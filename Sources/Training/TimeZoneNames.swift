import Foundation
import ICalendar
import RunningCore

/// Where a time zone name came from: it decides what the message tells the runner to do.
public enum TimeZoneOrigin: Sendable, Equatable {
  /// Given now (an option, a field of a file being read in): the CLI names the option.
  case given
  /// Read back from the database (a plan's saved settings or a profile, written by an older version).
  case saved
}

/// A time zone name that no calendar can be written in: not an IANA name libical knows (`UTC+2`, which
/// Foundation reads as `GMT+0200`; `Mars/Olympus`; a zoneinfo path such as `posix/Europe/Berlin`).
public struct TimeZoneError: FieldError, Sendable, Equatable {
  /// The name as written.
  public var value: String
  /// Where it came from.
  public var origin: TimeZoneOrigin
  /// A writable name that may have been meant (`Etc/GMT-2` for `UTC+2`), when one is close.
  public var suggestion: String?

  /// What is allowed, in words.
  public static let allowed =
    "an IANA name such as Europe/Berlin or Etc/GMT-2 (note the inverted sign: Etc/GMT-2 is UTC+2)"

  /// A zone given now is bad input; one read back from the database is bad data.
  public var kind: FailureKind { origin == .given ? .badInput : .badData }

  /// The message for a runner: a zone given now names its field (`--tz: 'UTC+2' is not …`); one read back from the
  /// database says how to set it again, with the field named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    switch origin {
    case .given:
      return "\(name(.timeZone)): \(problem)"
    case .saved:
      let fix = suggestion ?? "Europe/Berlin"
      return "\(problem); set an IANA name with `runmate profile set \(name(.timeZone)) \(fix)` (the profile's zone) "
        + "or `runmate schedule \(name(.timeZone)) \(fix)` (the active plan's)"
    }
  }

  /// The message without naming an input (a server's answer): what is wrong, and for a saved zone what to set.
  public var description: String {
    switch origin {
    case .given: problem
    case .saved:
      "\(problem); set an IANA name such as \(suggestion ?? "Europe/Berlin") as the profile's time zone "
        + "(`runmate profile set`) or the active plan's (`runmate schedule`)"
    }
  }

  /// What is wrong with the name.
  private var problem: String {
    let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    return switch origin {
    case .given: "'\(value)' is not a time zone, allowed is \(Self.allowed)\(hint)"
    case .saved: "the time zone '\(value)' saved in the database is not one a calendar can be written in\(hint)"
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
