import CoachClient

/// The session `runmate account login` saved, for the commands that talk to the coach server as the athlete
/// (`push`, `pull`, `account logout`): read once, each exchange run with a client for its server, and kept again
/// with where the logbook now stands.
struct SignedInSession {
  let file: SessionFile
  let session: CoachSession

  /// The saved session.
  /// - Throws: ``CoachClientError/notLoggedIn`` when there is none; the file's errors.
  init(file: SessionFile = .standard()) throws {
    guard let session = try file.read() else { throw CoachClientError.notLoggedIn }
    self.file = file
    self.session = session
  }

  /// The server's address.
  var server: String { session.server }

  /// `body` with a client for the session's server, on the concurrency pool; the command waits for it. Nil when the
  /// command was interrupted.
  func exchange<Value: Sendable>(
    _ body: @escaping @Sendable (CoachClient, CoachSession) async throws -> Value
  ) throws -> Value? {
    let session = session
    return try blockingValue { try await withCoachClient(server: session.server) { try await body($0, session) } }
  }

  /// Keeps the session with the server's `cursor` and, when given, the revision of the plan just sent or taken.
  func keep(cursor: String?, planRevision: String?) throws {
    var kept = session
    kept.cursor = cursor
    if let planRevision { kept.planRevision = planRevision }
    try file.write(kept)
  }
}
