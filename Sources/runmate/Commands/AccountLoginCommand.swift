import ArgumentParser
import CoachClient
import Foundation

extension AccountCommand {
  /// `runmate account login URL --email LOGIN`: logs in to a coach server and keeps the token for `runmate push`
  /// and `pull`.
  struct Login: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "login",
      abstract: "Log in to a coach server (`runmate serve --api`), the password read from standard input.")
    @Argument(help: ArgumentHelp("The server's address (https://coach.example.org).", valueName: "URL"))
    var url: String
    @Option(
      name: .customLong("email"),
      help: ArgumentHelp("The login: an e-mail address, or a login name.", valueName: "address"))
    var login: String

    func run() throws {
      let password = Create.passwordFromStandardInput()
      let (url, login) = (url, login)
      let session = try blockingValue {
        try await withCoachClient(server: url) { try await $0.login(login, password: password) }
      }
      guard var session else { return }
      let file = SessionFile.standard()
      // Logging in again to the same account keeps where `runmate pull` stands and the plan last sent or taken.
      if let old = try? file.read(), old.server == session.server, old.login.lowercased() == session.login.lowercased()
      {
        session.cursor = old.cursor
        session.planRevision = old.planRevision
      }
      try file.write(session)
      writeStandardError(
        "logged in to \(terminalSafe(session.server)) as '\(terminalSafe(session.login))' until "
          + "\(session.expiresAt.formatted(.iso8601)); the token is in \(terminalSafe(file.path))")
    }
  }

  /// `runmate account logout`: revokes the saved token on the server and forgets it.
  struct Logout: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "logout", abstract: "Log out of the coach server: the saved token revoked and forgotten.")

    func run() throws {
      let signedIn = try SignedInSession()
      do {
        _ = try signedIn.exchange { try await $0.logout($1) }
      } catch CoachClientError.tokenRefused {
        // Already expired or revoked on the server: forgetting it is all that is left.
      }
      signedIn.file.remove()
      writeStandardError("logged out of \(terminalSafe(signedIn.server))")
    }
  }
}
