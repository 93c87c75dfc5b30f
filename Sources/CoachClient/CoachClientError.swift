import Foundation
import RunningCore

/// What went wrong talking to a coach server (`runmate serve --api`), in one line for the runner.
public enum CoachClientError: FieldError, Equatable {
  /// The server's address is not an http(s) URL.
  case badURL(String)
  /// The server refused the login and password (401).
  case loginRefused(login: String, server: String)
  /// Too many failed logins: the server answers again after `seconds`.
  case rateLimited(server: String, seconds: Int)
  /// No answer from the server (refused, unknown host, timed out).
  case unreachable(server: String, detail: String)
  /// No saved session: `runmate account login` first.
  case notLoggedIn
  /// The server no longer takes the saved token (expired or revoked).
  case tokenRefused(server: String)
  /// The server answered something else: its status and message.
  case refused(server: String, status: Int, message: String)
  /// The saved session file cannot be read or written.
  case sessionFile(path: String, detail: String)
  /// The coach changed the plan on the server since the last pull: the local plan was not sent.
  case planChanged(server: String)
  /// The server kept saying more updates follow past `pages` answers or `bytes` of them: the pull stopped, nothing
  /// applied.
  case tooManyUpdates(server: String, pages: Int, bytes: Int)

  /// What kind of failure it is.
  public var kind: FailureKind {
    switch self {
    case .badURL, .loginRefused, .notLoggedIn, .tokenRefused: .badInput
    case .rateLimited, .unreachable: .unavailable
    case .refused: .badData
    case .planChanged: .unavailable
    case .tooManyUpdates: .badData
    case .sessionFile: .cannotCreate
    }
  }

  /// One line naming the value and what to do, inputs named by `name`.
  public func message(naming name: (InputField) -> String) -> String {
    switch self {
    case .badURL(let text):
      "URL: '\(text)' is not valid, allowed is the http:// or https:// address of a RunningMate coach server "
        + "(e.g. https://coach.example.org)"
    case .loginRefused(let login, let server):
      "\(name(.login)): \(server) refused the login '\(login)' with that password; check both (the password is read "
        + "from standard input)"
    case .rateLimited(let server, let seconds):
      "\(server) refuses logins for \(seconds) s after too many failed ones: try again then"
    case .unreachable(let server, let detail):
      "no answer from \(server) (\(detail)): is a RunningMate coach server running there?"
    case .notLoggedIn:
      "not logged in to a coach server: run `runmate account login URL \(name(.login)) LOGIN` first"
    case .tokenRefused(let server):
      "\(server) no longer takes this login (expired or revoked): run `runmate account login` again"
    case .refused(let server, let status, let message):
      "\(server) answered \(status): \(message)"
    case .sessionFile(let path, let detail):
      "the login cannot be saved in \(path): \(detail)"
    case .tooManyUpdates(let server, let pages, let bytes):
      "\(server) kept answering that more updates follow after \(pages) answers (\(bytes / 1024) KiB): stopped, nothing "
        + "was applied; a RunningMate server sends at most 200 comments an answer, so this one is not answering as one "
        + "should (ask its operator)"
    case .planChanged(let server):
      "your coach changed your plan on \(server) since your last pull, so yours was not sent: run `runmate pull`, "
        + "then `runmate push` again"
    }
  }
}
