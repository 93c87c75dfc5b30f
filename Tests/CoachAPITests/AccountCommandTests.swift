import Foundation
import RunMateTestSupport
import Testing
import Training
import TrainingDomain

/// `runmate account create`, the built binary: the password from standard input only, and each refusal one line
/// naming the option, exit 64, nothing stored.
@Suite(.timeLimit(.minutes(2)), .tags(.endToEnd)) struct AccountCommandTests {
  func create(_ arguments: [String], password: String, database: URL) throws -> RunmateOutcome {
    let process = try runmateProcess(["account", "create"] + arguments, database: database)
    let input = Pipe()
    process.standardInput = input
    input.fileHandleForWriting.write(Data(password.utf8))
    try input.fileHandleForWriting.close()
    return try runToEnd(process)
  }

  @Test func accountsAreCreatedFromStandardInputAndRefusalsAreOneLine() throws {
    let folder = try temporaryDirectory("account-command")
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("runmate.sqlite")
    #expect(try runRunmate(["profile", "init", "kim", "--coach"], database: database).status == 0)
    #expect(try runRunmate(["profile", "init", "ana"], database: database).status == 0)
    let secret = "a long enough password"

    let made = try create(
      ["--email", "Kim@Example.com", "--role", "coach", "--profile", "kim"], password: secret + "\n",
      database: database)
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stderr.contains("coach account 'Kim@Example.com' created for profile 'kim'"))
    #expect(!made.stdout.contains(secret) && !made.stderr.contains(secret))

    let refusals: [([String], String, String)] = [
      (
        ["--email", "kim@example.com", "--role", "athlete", "--profile", "ana"], secret,
        "runmate: --email: an account 'kim@example.com' exists; give another login name or e-mail address\n"
      ),
      (
        ["--email", "ana", "--role", "coach", "--profile", "ana"], secret,
        "runmate: --role: 'coach' needs a coach's profile, and 'ana' is not one; make it one with "
          + "`runmate profile set --profile ana --coach`, or give --role athlete\n"
      ),
      (
        ["--email", "ana", "--role", "boss", "--profile", "ana"], secret,
        "runmate: --role: 'boss' is not valid, allowed is coach or athlete\n"
      ),
      (
        ["--email", "a b", "--role", "athlete", "--profile", "ana"], secret,
        "runmate: --email: 'a b' is not valid, allowed is an e-mail address, or a login name of 3 to 64 letters, "
          + "digits, '.', '_' or '-' (e.g. kim.coach)\n"
      ),
      (
        ["--email", "ana", "--role", "athlete", "--profile", "ana"], "short\n",
        "runmate: the password (standard input): '5 bytes' is not valid, allowed is 10 to 72 bytes (bcrypt reads "
          + "no more), not only spaces\n"
      ),
      (
        ["--email", "ana", "--role", "athlete", "--profile", "nobody"], secret,
        "runmate: --profile: no profile named 'nobody'; profiles: ana, kim\n"
      ),
    ]
    for (arguments, password, message) in refusals {
      let refused = try create(arguments, password: password, database: database)
      #expect(refused.status == 64 && refused.stdout.isEmpty, "\(arguments)")
      #expect(refused.stderr == message)
    }
    // No option takes the password.
    #expect(try create(["--password", secret], password: "", database: database).status == 64)
    let store = try openStore(at: database.path)
    #expect(try store.account(login: "kim@example.com")?.profileName == "kim")
    #expect(try store.account(login: "ana") == nil)
    #expect(try store.auditLog(limit: 10).map(\.action) == [.accountCreated])
  }
}
