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
  /// How long one statement may go unanswered before the connection is closed and the transaction fails
  /// (``LogbookError/serverUnavailable(location:detail:)``): a server gone without closing its sockets (stopped with
  /// `-m immediate`, a host that vanished) or a statement held past it is said, never waited for for ever.
  let statementDeadline: TimeAmount
  /// The default ``statementDeadline``: two minutes, far over any statement of RunningMate's.
  static let defaultStatementDeadline = TimeAmount.seconds(120)

  /// Quiet: the store reports its failures as ``LogbookError``s; nothing of PostgresNIO's logging reaches the runner.
  static let logger = Logger(label: "runmate.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
  /// The advisory lock every write transaction takes first (`RMAT` in ASCII, as the SQLite file's application id):
  /// one writer at a time per database, as SQLite's `BEGIN IMMEDIATE` does, so that a read-decide-write transaction
  /// (an import's twin check, a first profile becoming the default) cannot interleave with another process's.
  static let writeLock: Int64 = 0x524D_4154

  /// Connects to the server at `location`.
  /// - Throws: ``LogbookError/serverUnavailable(location:detail:)`` when it cannot be reached or refuses the login.
  init(location: PostgresLocation, statementDeadline: TimeAmount = PostgresSession.defaultStatementDeadline)
    throws(LogbookError)
  {
    self.location = location
    self.statementDeadline = statementDeadline
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
      let transaction = PostgresTransaction(connection: open, deadline: statementDeadline, shown: location.shown)
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
        if !open.isClosed { _ = try? transaction.execute("ROLLBACK") }
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
  /// How long a statement may go unanswered (``PostgresSession/statementDeadline``).
  let deadline: TimeAmount
  /// The server as messages show it.
  let shown: String

  /// The rows `query` returns; past ``deadline`` without an answer, the connection is closed (the next transaction
  /// opens another) and the statement fails as ``LogbookError/serverUnavailable(location:detail:)``. The caller waits
  /// for whichever comes first, the answer or the deadline: a statement on a connection the server dropped (a
  /// PostgreSQL stopped with `-m immediate`) was never answered nor failed, even once closed, and `database copy`
  /// waited for ever.
  func rows(_ query: PostgresQuery) throws -> PostgresQueryResult {
    let connection = self.connection
    let answer = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
    let timer = connection.eventLoop.scheduleTask(in: deadline) {
      answer.fail(DeadlinePassed())
      let closing: EventLoopFuture<Void> = connection.close()
      closing.whenComplete { _ in }
    }
    connection.query(query, logger: PostgresSession.logger).whenComplete { result in
      timer.cancel()
      answer.completeWith(result)  // ignored when the deadline came first
    }
    do {
      return try answer.futureResult.wait()
    } catch is DeadlinePassed {
      throw LogbookError.serverUnavailable(
        location: shown,
        detail: "no answer to a statement within \(deadline.nanoseconds / 1_000_000_000) s: the server went away or "
          + "holds the statement")
    }
  }

  /// The deadline of a statement passed before its answer.
  private struct DeadlinePassed: Error {}

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
