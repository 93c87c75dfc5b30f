import Foundation

/// A login to a coach server, as `runmate account login` saves it: the server, the login and its bearer token.
public struct CoachSession: Codable, Sendable, Equatable {
  /// The server's address (`https://coach.example.org`).
  public var server: String
  /// The account's login.
  public var login: String
  /// The bearer token (secret: kept in a 0600 file, never printed).
  public var token: String
  /// When the server stops taking the token.
  public var expiresAt: Date
  /// Where `runmate pull` stands on this server for this account: the cursor of its last pull (or the plan's last
  /// push); nil before the first. Kept with the session because it means nothing on another server or account.
  public var cursor: String?
  /// The revision (``Training/PlanFile/revision``) of the plan the logbook last sent to this server (`push`) or took
  /// from it (`pull`): `push` sends the plan only when it is not this one. Nil before the first, and for another
  /// server or account, as the cursor.
  public var planRevision: String?

  /// A session.
  public init(
    server: String, login: String, token: String, expiresAt: Date, cursor: String? = nil, planRevision: String? = nil
  ) {
    self.server = server
    self.login = login
    self.token = token
    self.expiresAt = expiresAt
    self.cursor = cursor
    self.planRevision = planRevision
  }
}

/// Where the session is kept: `$RUNMATE_CONFIG_DIR/coach-session.json`, else under `$XDG_CONFIG_HOME/runmate/`, else
/// `~/.config/runmate/`; the file is the user's alone (0600) and written whole (a temporary file renamed).
public struct SessionFile: Sendable {
  /// The file's path.
  public let path: String

  /// The file at `path`.
  public init(path: String) { self.path = path }

  /// The file the environment names.
  public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SessionFile {
    let folder: String
    if let dir = environment["RUNMATE_CONFIG_DIR"], !dir.isEmpty {
      folder = dir
    } else if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
      folder = (xdg as NSString).appendingPathComponent("runmate")
    } else {
      folder = (NSHomeDirectory() as NSString).appendingPathComponent(".config/runmate")
    }
    return SessionFile(path: (folder as NSString).appendingPathComponent("coach-session.json"))
  }

  /// The saved session, or nil when there is none.
  public func read() throws(CoachClientError) -> CoachSession? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    do {
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decode(CoachSession.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw .sessionFile(path: path, detail: "it cannot be read (\(error.localizedDescription)); log in again")
    }
  }

  /// Saves `session`, readable by the user only.
  public func write(_ session: CoachSession) throws(CoachClientError) {
    let folder = (path as NSString).deletingLastPathComponent
    let temporary = path + ".tmp"
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(session)
      // Created readable by the user only before the token is written into it, then renamed over the old one.
      guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
      else { throw CocoaError(.fileWriteNoPermission) }
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
      try handle.write(contentsOf: data)
      try handle.close()
      guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw .sessionFile(path: path, detail: error.localizedDescription)
    }
  }

  /// Removes the saved session (nothing when there is none).
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
