import ArgumentParser
import CoachAPI
import Foundation
import TrainingDomain

/// `runmate account`: the coach API's accounts (`runmate serve --api`), made by the server's admin.
struct AccountCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "account",
    abstract: "Create accounts of the coach API (`runmate serve --api`) for coach and athlete profiles.",
    discussion: """
      An account logs in to the coach API (POST /api/v1/sessions) with its login and password and gets a \
      bearer token. A coach account sees its athletes (runmate coach add); an athlete account sees itself. The \
      password is read from standard input (its first line), never from an argument, and only its bcrypt hash is \
      stored. See docs/api.md.

      An athlete logs in to a coach's server with `account login URL`: the token is kept in \
      $XDG_CONFIG_HOME/runmate/coach-session.json (or ~/.config/runmate/, or $RUNMATE_CONFIG_DIR), readable by \
      the user only, for `runmate push` and `pull`; `account logout` revokes it.

      Examples (each reads the password from standard input):
        runmate account create --email kim --role coach --profile kim
        runmate account create --email ana --role athlete --profile ana
        runmate account login https://coach.example.org --email ana
      """,
    subcommands: [Create.self, Login.self, Logout.self])

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create",
      abstract: "Create an account for a profile, the password read from standard input.")
    @Option(
      name: .customLong("email"),
      help: ArgumentHelp("The login: an e-mail address, or a login name.", valueName: "address"))
    var login: String
    @Option(name: .long, help: ArgumentHelp("coach or athlete.", valueName: "role"))
    var role: String
    @Option(name: .long, help: ArgumentHelp("The profile the account is.", valueName: "name"))
    var profile: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.requireExisting()
      let account = try createAccount(
        login: login, role: role, profile: profile, password: Self.passwordFromStandardInput(),
        in: try database.open(), now: Date())
      writeStandardError(
        "\(account.role.rawValue) account '\(terminalSafe(account.login))' created for profile "
          + "'\(terminalSafe(account.profileName))': it logs in with POST /api/v1/sessions (runmate serve --api)")
    }

    /// The first line of standard input, without its line end, LF or CR LF (at most 1 KiB is read). Split on
    /// scalars: Swift reads CR LF as one Character, which a split on "\n" never finds.
    static func passwordFromStandardInput() -> String {
      let data = FileHandle.standardInput.readData(ofLength: 1024)
      let text = String(decoding: data, as: UTF8.self)
      var line = String.UnicodeScalarView()
      line.append(contentsOf: text.unicodeScalars.prefix { $0 != "\n" && $0 != "\r" })
      return String(line)
    }
  }
}
