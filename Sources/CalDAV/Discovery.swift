import Foundation
import NIOHTTP1
import RunningCore

/// A calendar collection found on the server.
public struct DiscoveredCalendar: Sendable, Hashable {
  /// The collection's URL, ending in `/`.
  public var url: URL
  /// Its display name, nil when the server gave none.
  public var displayName: String?
  /// Whether it takes events (its supported components include VEVENT, or none are listed). A tasks-only list
  /// (VTODO) cannot hold a plan.
  public var takesEvents: Bool

  /// A calendar.
  public init(url: URL, displayName: String?, takesEvents: Bool) {
    self.url = url
    self.displayName = displayName
    self.takesEvents = takesEvents
  }

  /// The name a runner picks it by: the display name, else the last segment of its path.
  public var name: String {
    if let displayName { return displayName }
    return lastSegment.isEmpty ? url.absoluteString : lastSegment
  }

  /// The last segment of its path (`running` for `/ana/running/`), "" for none.
  var lastSegment: String {
    url.path(percentEncoded: false).split(separator: "/").last.map(String.init) ?? ""
  }
}

/// Where discovery found the calendars: the URL it was given is a calendar itself, or the account's calendar home.
public enum Discovery: Sendable, Hashable {
  /// The URL is a calendar collection.
  case calendar(DiscoveredCalendar)
  /// The calendars of the account's calendar home (RFC 4791 §6.2.1), in the server's order.
  case home(URL, calendars: [DiscoveredCalendar])
}

extension Discovery {
  /// The calendars found that take events.
  public var eventCalendars: [DiscoveredCalendar] {
    switch self {
    case .calendar(let calendar): calendar.takesEvents ? [calendar] : []
    case .home(_, let calendars): calendars.filter(\.takesEvents)
    }
  }

  /// The calendar a runner named: by display name or last path segment, case-blind; a URL is also accepted.
  /// - Throws: ``CalDAVError/noSuchCalendar(name:available:suggestion:)`` naming the calendars there are and the
  ///   closest to `name`.
  public func calendar(named name: String) throws(CalDAVError) -> DiscoveredCalendar {
    let calendars = eventCalendars
    let wanted = name.lowercased()
    if let exact = calendars.first(where: { $0.name.lowercased() == wanted })
      ?? calendars.first(where: { $0.lastSegment.lowercased() == wanted || $0.url.absoluteString == name })
    {
      return exact
    }
    let names = calendars.map(\.name)
    let suggestion = closestName(to: wanted, among: names.map { $0.lowercased() }).flatMap { close in
      names.first { $0.lowercased() == close }
    }
    throw .noSuchCalendar(name: name, available: names, suggestion: suggestion)
  }
}

extension CalDAVClient {
  /// The most redirects discovery follows (`/.well-known/caldav` usually answers one).
  static let maximumRedirects = 5

  /// Finds the account's calendars from any URL of the server (RFC 6764 §6, RFC 5397, RFC 4791 §6.2.1): the
  /// account's URL is tried as it is, then `/.well-known/caldav` on its host; its current-user-principal gives
  /// the calendar home, whose calendar collections are listed. Redirects are followed (at most five) on the
  /// origin `--caldav` names only (the same scheme, host and port): one to another origin is refused with the URL
  /// it points to, so that the password goes nowhere the runner did not name.
  /// - Throws: ``CalDAVError/unauthorized(user:status:)``, ``CalDAVError/unreachable(host:detail:)``,
  ///   ``CalDAVError/malformedResponse(url:detail:)``, or ``CalDAVError/notACalendar(url:detail:)`` when no
  ///   calendar home can be found.
  public func discover() async throws(CalDAVError) -> Discovery {
    let start = account.collection
    var (url, entry) = try await describe(start)
    if let entry, entry.isCalendar { return .calendar(Self.calendar(entry, at: url)) }
    if entry?.principal == nil, entry?.calendarHome == nil {
      // A server root or a web page: the well-known URL points at the DAV root.
      let wellKnown = URL(string: "/.well-known/caldav", relativeTo: start)?.absoluteURL
      if let wellKnown {
        do {
          let found = try await describe(wellKnown)
          if found.entry != nil { (url, entry) = found }
        } catch {
          // Not there is no answer; a redirect refused is one, with the URL to use.
          switch error {
          case .redirectedElsewhere, .insecureRedirect, .insecure: throw error
          default: break
          }
        }
      }
    }
    guard let entry else {
      throw .notACalendar(url: start.absoluteString, detail: "no CalDAV service found there or at /.well-known/caldav")
    }
    var home = entry.calendarHome
    if home == nil, let principal = entry.principal {
      guard let principalURL = URL(string: principal, relativeTo: url)?.absoluteURL else {
        throw .malformedResponse(url: url.absoluteString, detail: "the principal '\(principal)' is not a URL")
      }
      let (at, described) = try await describe(principalURL)
      home = described?.calendarHome
      url = at
    }
    guard let home, let homeURL = URL(string: home, relativeTo: url)?.absoluteURL else {
      throw .notACalendar(
        url: start.absoluteString,
        detail: "the server names no calendar home for user \(account.user) (give the calendar's own URL)")
    }
    try Self.checkTarget(homeURL)
    return .home(homeURL, calendars: try await calendars(in: homeURL))
  }

  /// The calendar collections directly inside `home` (PROPFIND, Depth 1).
  func calendars(in home: URL) async throws(CalDAVError) -> [DiscoveredCalendar] {
    let response = try await propfind(home, depth: "1")
    guard response.status == 207 else {
      throw .notACalendar(url: home.absoluteString, detail: "the calendar home answered HTTP \(response.status)")
    }
    let own = Self.normalized(home.path(percentEncoded: true))
    return try Self.entries(response.body, url: home).compactMap { entry in
      guard entry.isCalendar, Self.normalized(Self.path(of: entry.href)) != own,
        let url = URL(string: entry.href, relativeTo: home)?.absoluteURL
      else { return nil }
      return Self.calendar(entry, at: url)
    }
  }

  /// PROPFIND (Depth 0) of `url` for what discovery needs, following redirects; the final URL and its entry (nil
  /// for a 404, 405 or 501: nothing of DAV there).
  func describe(_ url: URL) async throws(CalDAVError) -> (url: URL, entry: DAVEntry?) {
    var target = url
    for _ in 0...Self.maximumRedirects {
      let response = try await propfind(target, depth: "0")
      switch response.status {
      case 207:
        let own = Self.normalized(target.path(percentEncoded: true))
        let entries = try Self.entries(response.body, url: target)
        return (target, entries.first { Self.normalized(Self.path(of: $0.href)) == own } ?? entries.first)
      case 301, 302, 303, 307, 308:
        guard let location = response.headers.first(name: "Location"),
          let next = URL(string: location, relativeTo: target)?.absoluteURL
        else {
          throw .notACalendar(url: target.absoluteString, detail: "HTTP \(response.status) without a Location")
        }
        try Self.checkRedirect(from: target, to: next, account: account.collection)
        target = next
      case 401, 403: throw .unauthorized(user: account.user, status: response.status)
      case 404, 405, 501: return (target, nil)
      default:
        throw .notACalendar(url: target.absoluteString, detail: "PROPFIND answered HTTP \(response.status)")
      }
    }
    throw .notACalendar(url: url.absoluteString, detail: "more than \(Self.maximumRedirects) redirects")
  }

  /// A home on another server is used only over https (or http on this machine): the password goes with every
  /// request.
  static func checkTarget(_ url: URL) throws(CalDAVError) {
    let scheme = url.scheme?.lowercased()
    guard scheme == "https" || (scheme == "http" && Loopback.isThisMachine(url.host ?? "")) else {
      throw .insecure(url: url.absoluteString)
    }
  }

  /// A redirect is followed only on the origin of the account's URL (`account`): never from https to http, never to
  /// another scheme, host or port (refused with the URL, rather than followed without the password: a server that
  /// answers 401 there would only confuse, while the runner who trusts it can name it with `--caldav`).
  static func checkRedirect(from: URL, to next: URL, account: URL) throws(CalDAVError) {
    if from.scheme?.lowercased() == "https" && next.scheme?.lowercased() != "https" {
      throw .insecureRedirect(from: from.absoluteString, to: next.absoluteString)
    }
    guard origin(of: next) == origin(of: account) else {
      throw .redirectedElsewhere(from: from.absoluteString, to: next.absoluteString)
    }
    try checkTarget(next)
  }

  /// Scheme, host and port (the scheme's default when none is written), case-blind.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
    return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
  }

  /// PROPFIND of `url` for the properties discovery reads.
  func propfind(_ url: URL, depth: String) async throws(CalDAVError) -> (
    status: Int, headers: HTTPHeaders, body: [UInt8]
  ) {
    let query = """
      <?xml version="1.0" encoding="utf-8"?>
      <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:resourcetype/>\
      <d:displayname/><d:current-user-principal/><c:calendar-home-set/><c:supported-calendar-component-set/>\
      </d:prop></d:propfind>
      """
    let response = try await send(
      "PROPFIND", url.absoluteString,
      headers: [("Depth", depth), ("Content-Type", "application/xml; charset=utf-8")], body: Array(query.utf8))
    return (response.status, response.headers, response.body)
  }

  /// The multistatus entries of `body`, the answer for `url`.
  static func entries(_ body: [UInt8], url: URL) throws(CalDAVError) -> [DAVEntry] {
    do {
      return try parseMultistatus(body)
    } catch {
      throw .malformedResponse(url: url.absoluteString, detail: "\(error)")
    }
  }

  /// The calendar an entry describes, at `url` (with its final `/`).
  static func calendar(_ entry: DAVEntry, at url: URL) -> DiscoveredCalendar {
    var text = url.absoluteString
    if !text.hasSuffix("/") { text += "/" }
    return DiscoveredCalendar(
      url: URL(string: text) ?? url, displayName: entry.displayName,
      takesEvents: entry.components.isEmpty || entry.components.contains { $0.uppercased() == "VEVENT" })
  }
}

extension CalDAVClient {
  /// The collection's members (see ``members()``). When the URL is the account's rather than a calendar's, and no
  /// calendar was picked by name (`calendarChosen`), the error lists the account's calendars to choose from.
  public func members(calendarChosen: Bool) async throws(CalDAVError) -> [String: DAVEntry] {
    do {
      return try await members()
    } catch {
      guard case .notACalendar(let url, _) = error, !calendarChosen,
        let discovery = try? await discover(), case .home = discovery, !discovery.eventCalendars.isEmpty
      else { throw error }
      let names = discovery.eventCalendars.map(\.name)
      if error.isMissingCollection {
        throw .noSuchCollection(url: url, available: names)
      }
      throw .chooseCalendar(url: account.collection.absoluteString, available: names)
    }
  }
}
