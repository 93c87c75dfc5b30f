import Foundation

/// Why a CalDAV sync could not talk to the server. Each message is one line for a runner.
public enum CalDAVError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The collection URL is not an absolute http(s) URL with a host.
  case badURL(url: String, reason: String)
  /// Plain http to a host that is not this machine: the password would cross the network in clear.
  case insecure(url: String)
  /// 401 or 403 on the collection: the user name or the (app) password is wrong.
  case unauthorized(user: String, status: Int)
  /// No connection could be made (name resolution, refused, timed out, TLS).
  case unreachable(host: String, detail: String)
  /// The URL answers, but is not a calendar collection (404, a plain folder, a web page, a redirect).
  case notACalendar(url: String, detail: String)
  /// The server answered a request with a status this sync does not expect.
  case unexpected(method: String, resource: String, status: Int)
  /// The server's answer could not be read (a malformed multistatus, a body over the limit).
  case malformedResponse(url: String, detail: String)

  /// The message for a runner: one line naming what is wrong and what to do.
  public var description: String {
    switch self {
    case .badURL(let url, let reason):
      return "--caldav '\(url)': \(reason); give the calendar collection's URL, "
        + "e.g. https://host/remote.php/dav/calendars/USER/CAL/"
    case .insecure(let url):
      return "--caldav '\(url)': plain http is allowed to this machine only (127.0.0.1, ::1, localhost); use https"
    case .unauthorized(let user, let status):
      return "the CalDAV server refused user \(user) (HTTP \(status)): check the app password"
    case .unreachable(let host, let detail):
      return "cannot reach the CalDAV server \(host): \(detail)"
    case .notACalendar(let url, let detail):
      return "\(url) is not a calendar collection: \(detail)"
    case .unexpected(let method, let resource, let status):
      return "the CalDAV server answered \(method) \(resource) with HTTP \(status)"
    case .malformedResponse(let url, let detail):
      return "the CalDAV server's answer for \(url) is unreadable: \(detail)"
    }
  }
}
