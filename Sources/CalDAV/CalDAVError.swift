import Foundation
import RunningCore

/// Why a CalDAV sync could not talk to the server. Each message is one line for a runner.
public enum CalDAVError: FieldError, Sendable, Equatable {
  /// The collection URL is not an absolute http(s) URL with a host.
  case badURL(url: String, reason: String)
  /// Plain http to a host that is not this machine (see ``Loopback``): the password would cross the network in clear.
  case insecure(url: String)
  /// Discovery was redirected to another origin (scheme, host or port) than the one `--caldav` names: the password
  /// is not sent there unasked.
  case redirectedElsewhere(from: String, to: String)
  /// A redirect from https to plain http: refused, the password would cross in clear.
  case insecureRedirect(from: String, to: String)
  /// 401 or 403 on the collection: the user name or the (app) password is wrong.
  case unauthorized(user: String, status: Int)
  /// No connection could be made (name resolution, refused, timed out, TLS).
  case unreachable(host: String, detail: String)
  /// The URL answers, but is not a calendar collection (404, a plain folder, a web page, a redirect).
  case notACalendar(url: String, detail: String)
  /// The server answered a request with a status this sync does not expect.
  case unexpected(method: String, resource: String, status: Int)
  /// The server did not send its whole answer (headers and body) within the deadline of one request.
  case tooSlow(host: String, seconds: Double)
  /// The server's answer could not be read (a malformed multistatus, a body over the limit).
  case malformedResponse(url: String, detail: String)
  /// `--calendar NAME` names none of the account's calendars (`available`: their names; `suggestion`: the closest).
  case noSuchCalendar(name: String, available: [String], suggestion: String?)
  /// The URL is not a calendar, but the account has calendars: which to sync to must be said.
  case chooseCalendar(url: String, available: [String])
  /// The collection URL answers 404, and the account it is under has these calendars (`available`: their names).
  case noSuchCollection(url: String, available: [String])

  /// The message for a runner: one line naming what is wrong and what to do.
  public func message(naming flag: (InputField) -> String) -> String {
    switch self {
    case .badURL(let url, let reason):
      return "\(flag(.caldav)) '\(url)': \(reason); give the calendar collection's URL, "
        + "e.g. https://host/remote.php/dav/calendars/USER/CAL/"
    case .insecure(let url):
      return
        "\(flag(.caldav)) '\(url)': plain http is allowed to this machine only (a loopback address such as 127.0.0.1 "
        + "or ::1, or a name that resolves only to one, such as localhost); use \(Self.https(url))"
    case .redirectedElsewhere(let from, let to):
      return "\(from) redirects to \(to), another server (scheme, host or port): the password goes only where "
        + "\(flag(.caldav)) points; if that server is yours, run again with \(flag(.caldav)) '\(to)'"
    case .insecureRedirect(let from, let to):
      return "\(from) redirects to plain http (\(to)): refused, the password would cross the network in clear; "
        + "give the https URL of the calendar with \(flag(.caldav))"
    case .unauthorized(let user, let status):
      return "the CalDAV server refused user \(user) (HTTP \(status)): check the app password"
    case .unreachable(let host, let detail):
      return "cannot reach the CalDAV server \(host): \(detail)"
    case .notACalendar(let url, let detail):
      return "\(url) is not a calendar collection: \(detail)"
    case .unexpected(let method, let resource, let status):
      return "the CalDAV server answered \(method) \(resource) with HTTP \(status)"
    case .tooSlow(let host, let seconds):
      let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
      return "the CalDAV server at \(host) sent its answer too slowly: no full answer in \(shown) s"
    case .malformedResponse(let url, let detail):
      return "the CalDAV server's answer for \(url) is unreadable: \(detail)"
    case .noSuchCalendar(let calendar, let available, let suggestion):
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return available.isEmpty
        ? "\(flag(.calendar)) '\(calendar)': the account has no calendar for events"
        : "\(flag(.calendar)) '\(calendar)': no such calendar; the account's calendars: \(Self.list(available))\(hint)"
    case .chooseCalendar(let url, let available):
      return "\(url) is the account, not one calendar: add \(flag(.calendar)) NAME with one of "
        + "\(Self.list(available)) (\(flag(.calendarList)) shows their URLs)"
    case .noSuchCollection(let url, let available):
      return "\(url) is not a calendar collection: \(Self.missingCollection); the account's calendars: "
        + "\(Self.list(available)) (\(flag(.calendar)) NAME picks one; \(flag(.calendarList)) shows their URLs)"
    }
  }

  /// The detail of a collection URL that answers 404.
  static let missingCollection = "HTTP 404, no such collection"

  /// Whether this is a collection URL the server does not have (404), rather than an account's URL.
  public var isMissingCollection: Bool {
    if case .notACalendar(_, let detail) = self { return detail == Self.missingCollection }
    return false
  }

  /// `url` with https for http (`http://host:8080/a/` → `https://host:8080/a/`).
  static func https(_ url: String) -> String {
    guard url.lowercased().hasPrefix("http://") else { return url }
    return "https://" + url.dropFirst("http://".count)
  }

  /// `'Running', 'Work'`.
  static func list(_ names: [String]) -> String {
    names.map { "'\($0)'" }.joined(separator: ", ")
  }
}

extension CalDAVError {
  /// What the runner gave (a URL, a calendar) is a bad input; a refusal of the credentials is not permitted; a server
  /// out of reach or too slow is unavailable; an answer that breaks the protocol is a protocol error.
  public var kind: FailureKind {
    switch self {
    case .badURL, .insecure, .redirectedElsewhere, .insecureRedirect, .notACalendar, .noSuchCalendar, .chooseCalendar,
      .noSuchCollection:
      .badInput
    case .unauthorized: .notPermitted
    case .unreachable, .tooSlow: .unavailable
    case .unexpected, .malformedResponse: .protocolError
    }
  }
}
