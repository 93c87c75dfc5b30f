import Foundation
import TrainingDomain

/// Where a PostgreSQL logbook lives: `postgres://user[:password]@host[:port]/database` (or `postgresql://`).
public struct PostgresLocation: Sendable, Hashable {
  /// The server's host name or address (an IPv6 address without its brackets).
  public var host: String
  /// The server's TCP port (5432 when the URL names none).
  public var port: Int
  /// The role to log in as.
  public var user: String
  /// The password, when the URL has one.
  public var password: String?
  /// The database on the server.
  public var database: String

  /// True when `location` names a PostgreSQL server (`postgres://` or `postgresql://`) rather than a file.
  public static func isServerURL(_ location: String) -> Bool {
    let lower = location.lowercased()
    return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
  }

  /// Reads a `postgres://` URL.
  /// - Throws: ``LogbookError/badLocation(location:detail:)`` naming what is missing or not allowed (the URL shown
  ///   without its password).
  public init(url text: String) throws(LogbookError) {
    let shown = PostgresLocation.redacted(text)
    func bad(_ detail: String) -> LogbookError { .badLocation(location: shown, detail: detail) }
    guard PostgresLocation.isServerURL(text), let components = URLComponents(string: text) else {
      throw bad("not a URL")
    }
    guard let host = components.host, !host.isEmpty else { throw bad("no host") }
    guard let user = components.user, !user.isEmpty else { throw bad("no user name before the @") }
    let database = String(components.path.drop(while: { $0 == "/" }))
    guard !database.isEmpty, !database.contains("/") else { throw bad("no database name after the host") }
    if let items = components.queryItems, let first = items.first {
      throw bad("the option '\(first.name)' is not supported (none is)")
    }
    if components.fragment != nil { throw bad("a URL fragment (#...) is not allowed") }
    let port = components.port ?? 5432
    guard (1...65535).contains(port) else { throw bad("port \(port) is not 1-65535") }
    self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    self.port = port
    // URLComponents gives them %-decoded.
    self.user = user
    self.password = components.password
    self.database = database
  }

  /// The URL as shown to the runner: the password, if any, replaced by `***`.
  public var shown: String {
    let hostPart = host.contains(":") ? "[\(host)]" : host
    return "postgres://\(user)\(password == nil ? "" : ":***")@\(hostPart):\(port)/\(database)"
  }

  /// `text` with the password of a `scheme://user:password@...` URL replaced by `***` (anything else as is).
  public static func redacted(_ text: String) -> String {
    guard let scheme = text.range(of: "://") else { return text }
    let rest = text[scheme.upperBound...]
    let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
      return text
    }
    return String(text[..<colon]) + ":***" + String(text[at...])
  }
}
