import Foundation
import RunMateTestSupport
import Testing

/// Text from outside (names, bios, contact handles) never reaches the terminal raw, and contact links are built
/// only from values that pass a strict check.
@Suite(.tags(.endToEnd)) struct TerminalTextTests {
  /// The `sqlite3` shell, to plant values the commands themselves refuse (an old or hand-edited database).
  static let sqlite3: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/bin/sqlite3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  struct Refused: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let refused: [Refused] = [
    Refused(
      arguments: ["--email", "javascript:alert(1)@x.com"],
      message: "--email: 'javascript:alert(1)@x.com' is not valid, allowed is an address like name@example.com "
        + "(no spaces, quotes, brackets or colons; a domain name after the @)"),
    Refused(
      arguments: ["--email", "kim@example.com?body=hi"],
      message: "--email: 'kim@example.com?body=hi' is not valid, allowed is an address like name@example.com "
        + "(no spaces, quotes, brackets or colons; a domain name after the @)"),
    Refused(
      arguments: ["--email", "kim@localhost"],
      message: "--email: 'kim@localhost' is not valid, allowed is an address like name@example.com "
        + "(no spaces, quotes, brackets or colons; a domain name after the @)"),
    Refused(
      arguments: ["--telegram", "kim/../x"],
      message: "--telegram: 'kim/../x' is not valid, allowed is a username of 5 to 32 letters, digits or _, "
        + "starting with a letter"),
    Refused(
      arguments: ["--whatsapp", "49151x2345678"],
      message: "--whatsapp: '49151x2345678' is not valid, allowed is 8 to 15 digits with the country code, no '+' "
        + "or spaces (e.g. 4915112345678)"),
    Refused(
      arguments: ["--bio", "Coach\u{1B}[31m red"],
      message: "--bio: 'Coach\\u{1B}[31m red' is not valid, allowed is text without control characters other than "
        + "line breaks"),
    Refused(
      arguments: ["--specialty", "trail\nrunning"],
      message: "--specialty: 'trail\\nrunning' is not valid, allowed is one line of text without control "
        + "characters"),
  ]

  @Test(arguments: refused)
  func badContactsAndControlCharactersAreRefusedAtProfileSetTime(_ refused: Refused) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    #expect(try runmate(["profile", "init", "kim", "--coach"], environment: env).status == 0)
    let before = try runmate(["coach", "show", "--profile", "kim"], environment: env).stdout
    let result = try runmate(["profile", "set", "--profile", "kim"] + refused.arguments, environment: env)
    #expect(result.status == 64)
    #expect(result.stderr == "runmate: \(refused.message)\n")
    #expect(try runmate(["coach", "show", "--profile", "kim"], environment: env).stdout == before)
  }

  @Test func goodContactsBecomeEncodedLinks() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let created = try runmate(
      [
        "profile", "init", "kim", "--coach", "--bio", "Trail coach.\nTen years.",
        "--email", "kim+runs/club@mail.example.org", "--telegram", "@coach_kim",
        "--whatsapp", "+49 151 1234 5678",
      ], environment: env)
    #expect(created.status == 0, "\(created.stderr)")
    let shown = try runmate(["coach", "show", "--profile", "kim"], environment: env)
    #expect(
      shown.stdout == """
        kim (coach), default profile
          bio: Trail coach.\\nTen years.
          contact: https://wa.me/4915112345678
          contact: https://t.me/coach_kim
          contact: mailto:kim+runs%2Fclub@mail.example.org

        """)
  }

  @Test(.enabled(if: sqlite3 != nil, "needs the sqlite3 shell to plant hostile values"))
  func storedHostileTextIsEscapedAndBadLinksAreLeftOut() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = directory.appendingPathComponent("runmate.sqlite").path
    let env = ["RUNMATE_DB": db]
    #expect(try runmate(["profile", "init", "kim", "--coach", "--specialty", "trail"], environment: env).status == 0)
    // What an older version or a hand edit could have stored.
    let name = "kim' || char(27) || '[2J' || char(27) || ']0;owned' || char(7) || '"
    let sql = """
      UPDATE profile SET name = '\(name)', profileJSON = json_set(profileJSON,
        '$.name', '\(name)',
        '$.bio', 'Nice.' || char(10) || '  contact: https://evil.example',
        '$.specialty', 'trail' || char(155) || '31m' || char(8238) || 'gninnur',
        '$.email', 'javascript:alert(1)@x.com',
        '$.telegram', 'x' || char(10) || 'y');
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.sqlite3 ?? "/usr/bin/sqlite3")
    process.arguments = [db, sql]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)

    let commands = [
      ["coach", "show"], ["profile", "show"], ["profile", "list"], ["coaches"],
      ["coaches", "--search", "tr"], ["coach", "athletes", "--now", "2026-11-21"],
    ]
    for command in commands {
      let result = try runmate(command, environment: env)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      let bytes = Array(result.stdout.utf8)
      #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(command) printed a control character")
      #expect(!result.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
      #expect(!result.stdout.contains("mailto:") && !result.stdout.contains("t.me"), "\(command) built a bad link")
      #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("  contact: https://evil") })
    }
    let shown = try runmate(["coach", "show"], environment: env)
    #expect(
      shown.stdout == """
        kim\\u{1B}[2J\\u{1B}]0;owned\\u{7} (coach), default profile
          specialty: trail\\u{9B}31m\\u{202E}gninnur
          bio: Nice.\\n  contact: https://evil.example

        """)
    // Errors quoting such a name are escaped too.
    let missing = try runmate(["plans", "activate", "x\u{1B}[31m\nrunmate: fake"], environment: env)
    #expect(missing.status != 0)
    #expect(!missing.stderr.utf8.contains(0x1B))
    #expect(missing.stderr.split(separator: "\n").count == 1)
  }
}
