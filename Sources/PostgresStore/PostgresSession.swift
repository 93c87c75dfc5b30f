import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import TrainingDomain

/// One connection to the server, on an event-loop thread of its own, used from synchronous code: a transaction
/// holds the session's lock from BEGIN to COMMIT, and each statement is waited for from the caller's thread, never
/// from the loop's (which only the connection uses). A connection the server closed is opened again by the next
/// transaction.
final class PostgresSession: Sendable {
  /// The server and database.
  let location: PostgresLocation
  private let group: MultiThreadedEventLoopGroup
  private let connection: NIOLockedValueBox<PostgresConnection?>

  /// Quiet: the store reports its failures as ``LogbookError``s; nothing of PostgresNIO's logging reaches the runner.
  static let logger = Logger(label: "runmate.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
  /// The advisory lock every write transaction takes first (`RMAT` in ASCII, as the SQLite file's application id):
  /// one writer at a time per database, as SQLite's `BEGIN IMMEDIATE` does, so that a read-decide-write transaction
  /// (an import's twin check, a first profile becoming the default) cannot interleave with another process's.
  static let writeLock: Int64 = 0x524D_4154

  /// Connects to the server at `location`.
  /// - Throws: ``LogbookError/serverUnavailable(location:detail:)`` when it cannot be reached or refuses the login.
  init(location: PostgresLocation) throws(LogbookError) {
    self.location = location
    group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    connection = NIOLockedValueBox(nil)
    do {
      let opened = try PostgresSession.connect(location, on: group.next())
      connection.withLockedValue { $0 = opened }
    } catch {
      try? group.syncShutdownGracefully()
      throw error
    }
  }

  deinit {
    if let open = connection.withLockedValue({ $0 }) { try? open.close().wait() }
    try? group.syncShutdownGracefully()
  }

  private static func connect(_ location: PostgresLocation, on loop: any EventLoop) throws(LogbookError)
    -> PostgresConnection
  {
    var configuration = PostgresConnection.Configuration(
      host: location.host, port: location.port, username: location.user, password: location.password,
      database: location.database, tls: .disable)
    configuration.options.connectTimeout = .seconds(10)
    do {
      return try PostgresConnection.connect(on: loop, configuration: configuration, id: 1, logger: logger).wait()
    } catch {
      throw .serverUnavailable(location: location.shown, detail: PostgresSession.reason(error))
    }
  }

  /// Runs `body` in one transaction: a write takes ``writeLock`` first (READ COMMITTED, one writer at a time); a read
  /// sees one snapshot (REPEATABLE READ, READ ONLY). Rolled back when `body` or COMMIT throws; `body`'s own errors
  /// pass through unchanged.
  func transaction<T>(write: Bool, _ body: (PostgresTransaction) throws -> T) throws -> T {
    try connection.withLockedValue { current in
      if current == nil || current?.isClosed == true {
        current = try PostgresSession.connect(location, on: group.next())
      }
      guard let open = current else { throw LogbookError.database(detail: "no connection") }
      let transaction = PostgresTransaction(connection: open)
      if write {
        try transaction.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        try transaction.execute("SELECT pg_advisory_xact_lock(\(PostgresSession.writeLock))")
      } else {
        try transaction.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      }
      do {
        let value = try body(transaction)
        try transaction.execute("COMMIT")
        return value
      } catch {
        _ = try? transaction.execute("ROLLBACK")
        throw error
      }
    }
  }

  /// `error` as the runner reads it: what the store threw itself as is, the server's refusals and lost connections
  /// in words, with the URL shown without its password.
  func describe(_ error: any Error) -> LogbookError {
    if let error = error as? LogbookError { return error }
    let shown = location.shown
    if let error = error as? PSQLError {
      guard error.code == .server, let info = error.serverInfo else {
        return .serverUnavailable(location: shown, detail: PostgresSession.reason(error))
      }
      let state = info[.sqlState] ?? ""
      let message = info[.message] ?? "the server refused the statement"
      switch state {
      case "25006": return .readOnly(path: shown)
      case "53100": return .diskFull(path: shown)
      case "40P01", "55P03", "57014":
        return .busy(detail: "\(shown) stayed locked by another process; try again")
      case _ where state.hasPrefix("08") || state.hasPrefix("28") || state == "3D000" || state.hasPrefix("57P"):
        return .serverUnavailable(location: shown, detail: message)
      default: return .database(detail: "\(message) (SQLSTATE \(state))")
      }
    }
    if let error = error as? PostgresDecodingError {
      return .corrupt(path: shown, detail: "the column \(error.columnName) holds a value of the wrong type")
    }
    return .database(detail: "\(error)")
  }

  /// Why a connection failed, in a few words (PSQLError's own description hides everything).
  static func reason(_ error: any Error) -> String {
    guard let error = error as? PSQLError else { return "\(error)" }
    if let message = error.serverInfo?[.message] { return message }
    if let underlying = error.underlying {
      if let io = underlying as? IOError { return io.description }
      if let connect = underlying as? NIOConnectionError {
        if connect.dnsAError != nil || connect.dnsAAAAError != nil, connect.connectionErrors.isEmpty {
          return "the host name cannot be resolved"
        }
        if let first = connect.connectionErrors.first { return "\(first.error)" }
      }
      if underlying is ChannelError { return "the connection timed out or was closed" }
      return "\(underlying)"
    }
    switch error.code {
    case .serverClosedConnection, .clientClosedConnection: return "the server closed the connection"
    case .unsupportedAuthMechanism, .authMechanismRequiresPassword: return "the login needs a password in the URL"
    default: return "\(error.code)"
    }
  }
}

/// The statements of one transaction, each waited for (see ``PostgresSession``).
struct PostgresTransaction {
  let connection: PostgresConnection

  /// The rows `query` returns.
  func rows(_ query: PostgresQuery) throws -> PostgresQueryResult {
    try connection.query(query, logger: PostgresSession.logger).wait()
  }

  /// Runs `query` and returns how many rows it changed.
  @discardableResult
  func execute(_ query: PostgresQuery) throws -> Int {
    try rows(query).metadata.rows ?? 0
  }

  /// The first column of the first row, or nil when there is no row (or the value is NULL).
  func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) throws -> T?
  where T._DecodableType == T {
    guard let row = try rows(query).first else { return nil }
    return try row.decode(T?.self)
  }
}

/// A date as SQLite's store keeps it (to the millisecond, truncated), so both engines give back the same instant.
func stored(_ date: Date) -> Date {
  Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
}
