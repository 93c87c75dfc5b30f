import Foundation
import RunMateTestSupport
import Testing

/// What `make install` puts next to the binary: shell completions that complete option values, a man page that
/// covers the whole command tree, and a one-line did-you-mean for a mistyped command.
@Suite(.tags(.endToEnd)) struct ShellIntegrationTests {
  // MARK: Completions

  struct CompletionCase: CustomTestStringConvertible, Sendable {
    /// The command line after `runmate`, up to the cursor.
    var line: String
    var expected: [String]
    var testDescription: String { "runmate \(line)<TAB>" }
  }

  static let completionCases: [CompletionCase] = [
    CompletionCase(line: "plan --distance ", expected: ["5k", "10k", "15k", "10mi", "half", "marathon"]),
    CompletionCase(line: "plan --distance ha", expected: ["half"]),
    CompletionCase(line: "export --level ", expected: ["beginner", "intermediate", "advanced"]),
    CompletionCase(line: "schedule --tz Europe/Be", expected: ["Europe/Belgrade", "Europe/Berlin"]),
    CompletionCase(line: "profile set --tz America/New_", expected: ["America/New_York"]),
    CompletionCase(line: "plan --days mon,w", expected: ["mon,wed"]),
    CompletionCase(line: "plan --long-run-day s", expected: ["sat", "sun"]),
    CompletionCase(line: "log add --kind cr", expected: ["cross-training"]),
    CompletionCase(line: "today --units ", expected: ["km", "mi"]),
    CompletionCase(line: "pl", expected: ["plan", "plans"]),
  ]

  /// Sources the generated bash script and calls its completion function as bash would on TAB.
  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash"),
    arguments: completionCases)
  func bashCompletesOptionValues(_ testCase: CompletionCase) throws {
    let script = try runmate(["--generate-completion-script", "bash"])
    #expect(script.status == 0)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let scriptFile = directory.appendingPathComponent("runmate.bash")
    try script.stdout.write(to: scriptFile, atomically: true, encoding: .utf8)
    let line = try runmateBinary().path + " " + testCase.line
    let driver = """
      source "$1"
      line="$2"
      read -ra COMP_WORDS <<< "$line"
      [[ "$line" == *" " ]] && COMP_WORDS+=("")
      COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMP_LINE="$line"
      COMP_POINT=${#line}
      _runmate runmate "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try run("/bin/bash", ["-c", driver, "bash", scriptFile.path, line], in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\n").map(String.init) == testCase.expected)
  }

  /// fish's own completion engine on the generated script (`complete -C`), where fish is installed. Lists only:
  /// the values computed by runmate (`--tz`, `--days`) read the interactive command line, which `-C` lacks.
  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "needs /usr/bin/fish"),
    arguments: completionCases.filter { !$0.line.contains("--tz") && !$0.line.contains("--days") })
  func fishCompletesOptionValues(_ testCase: CompletionCase) throws {
    let script = try runmate(["--generate-completion-script", "fish"])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let scriptFile = directory.appendingPathComponent("runmate.fish")
    try script.stdout.write(to: scriptFile, atomically: true, encoding: .utf8)
    let result = try run(
      "/usr/bin/fish",
      [
        "-N", "-c", "source $argv[1]; complete -C $argv[2]", scriptFile.path,
        "runmate " + testCase.line,
      ], in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    let words = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    #expect(words == testCase.expected)
  }

  /// The zsh and fish scripts hold the same lists and the same call back into runmate (CI has neither shell);
  /// that call is made here as they make it.
  @Test func zshAndFishScriptsCompleteTheSameValues() throws {
    let zsh = try runmate(["--generate-completion-script", "zsh"])
    #expect(zsh.status == 0)
    #expect(zsh.stdout.contains("___distance=('5k' '10k' '15k' '10mi' 'half' 'marathon')"))
    #expect(zsh.stdout.contains("___level=('beginner' 'intermediate' 'advanced')"))
    #expect(zsh.stdout.contains("__runmate_custom_complete ---completion plan -- --tz "))
    let fish = try runmate(["--generate-completion-script", "fish"])
    #expect(fish.status == 0)
    #expect(
      fish.stdout.contains(
        "-l 'distance' -d 'Race distance: 5k, 10k, 15k, 10mi, half, marathon.' "
          + "-rfka '5k 10k 15k 10mi half marathon'"))
    #expect(fish.stdout.contains("-rfka 'beginner intermediate advanced'"))
    #expect(fish.stdout.contains("__runmate_custom_completion ---completion plan -- --tz "))
    // The call back: the words so far, the index of the word under the cursor and the cursor's place in it.
    let zones = try runmate(["---completion", "plan", "--", "--tz", "3", "9", "runmate", "plan", "--tz", "Europe/Be"])
    #expect(zones.status == 0)
    #expect(zones.stdout == "Europe/Belgrade\nEurope/Berlin\n")
  }

  // MARK: Did you mean

  struct TypoCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let typoCases: [TypoCase] = [
    TypoCase(arguments: ["planz"], message: "runmate: unknown command 'planz'; did you mean 'plan'?"),
    TypoCase(
      arguments: ["schedul", "--weeks", "3"],
      message: "runmate: unknown command 'schedul'; did you mean 'schedule'?"),
    TypoCase(
      arguments: ["plans", "shwo", "x"],
      message: "runmate: unknown command 'plans shwo'; did you mean 'plans show'?"),
    TypoCase(
      arguments: ["templates", "chek"],
      message: "runmate: unknown command 'templates chek'; did you mean 'templates check'?"),
    TypoCase(
      arguments: ["xyzzy"],
      message: "runmate: unknown command 'xyzzy'; the commands are plan, schedule, export, plans, log, import, "
        + "progress, today, week, replan, pause, move, skip, report, paces, workouts, profile, coach, coaches, health, templates, lint, feed, serve, "
        + "sync, database, account, push, pull "
        + "(see 'runmate --help')"),
  ]

  @Test(arguments: typoCases)
  func aMistypedCommandGetsOneLineWithTheClosestName(_ testCase: TypoCase) throws {
    let result = try runmate(testCase.arguments)
    #expect(result.status == 64)
    #expect(result.stderr == testCase.message + "\n")
    #expect(result.stdout.isEmpty)
  }

  /// A negative number after an option is named as one (the parser alone takes `-5` for an option and says the
  /// value is missing); an option given no value at all keeps the parser's "Missing value".
  @Test func aNegativeNumberIsNamedAsOne() throws {
    let negative = try runmate(["plan", "--weeks", "-3"])
    #expect(negative.status == 64)
    #expect(
      negative.stderr
        == "runmate: --weeks -3: a negative number is not allowed; give a positive one (see 'runmate plan --help')\n")
    let missing = try runmate(["plan", "--weeks"])
    #expect(missing.status == 64)
    #expect(missing.stderr.hasPrefix("runmate: Missing value for '--weeks"), "\(missing.stderr)")
  }

  /// What the parser refuses is one line, its message alone (no `Help:` or `Usage:` lines), exit 64, whether the
  /// parser found it (a value that is no number) or an option group's own check did (`--no-remind` with `--remind`);
  /// help and the version go to standard output with exit 0. (`RunMate.refuse` reads these from one rendering of the
  /// library's text.)
  @Test func theParsersVerdictIsOneLineOrTheHelpItWasAskedFor() throws {
    let value = try runmate(["plan", "--distance", "10k", "--weeks", "nan"])
    #expect(value.status == 64)
    #expect(value.stderr == "runmate: The value 'nan' is invalid for '--weeks <n>' (see 'runmate plan --help')\n")
    #expect(value.stdout.isEmpty)
    let group = try runmate(["export", "--distance", "10k", "--out", "x.ics", "--no-remind", "--remind", "1h"])
    #expect(group.status == 64)
    #expect(group.stderr == "runmate: --no-remind and --remind exclude each other (see 'runmate export --help')\n")
    let version = try runmate(["--version"])
    #expect(version.status == 0 && version.stderr.isEmpty)
    #expect(version.stdout == "0.1.0\n")
    let help = try runmate(["help", "week"])
    #expect(help.status == 0 && help.stderr.isEmpty)
    #expect(help.stdout.hasPrefix("OVERVIEW: "), "\(help.stdout.prefix(200))")
    #expect(help.stdout.contains("USAGE: runmate week"))
  }
  /// `log` runs `log add` by default: a word that is no near miss of add/list/delete is its date argument.
  /// Its own database: `log` opens (creates) one before reading the date, and an export in this process finds a
  /// database and keeps its last export there (ExamplesTests would then see SEQUENCE:1).
  @Test func aDefaultSubcommandsArgumentIsNoUnknownCommand() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try runmate(
      ["log", "tody", "--distance", "5"],
      environment: ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path])
    #expect(result.status == 64)
    #expect(
      result.stderr
        == "runmate: DATE: 'tody' is not valid, allowed is a date YYYY-MM-DD, or today, tomorrow, yesterday, a weekday "
        + "(sunday, next sunday, last monday), in 3 weeks, 2 days ago (e.g. 'last sunday') (did you mean 'today'?)\n")
  }

  // MARK: Help and man page

  /// Every command's help at 80 columns keeps each example line whole: the lines of the discussion that start
  /// with `runmate` (and their `\` continuations) come out as they are at 1000 columns.
  @Test func helpExamplesDoNotWrapAt80Columns() throws {
    for path in try commandTree().keys.sorted(by: { $0.joined(separator: " ") < $1.joined(separator: " ") }) {
      let wide = try runmate(path + ["--help"], environment: ["COLUMNS": "1000"])
      let narrow = try runmate(path + ["--help"], environment: ["COLUMNS": "80"])
      #expect(wide.status == 0 && narrow.status == 0)
      let narrowLines = Set(narrow.stdout.split(separator: "\n", omittingEmptySubsequences: false))
      var continued = false
      for line in wide.stdout.split(separator: "\n") {
        guard !line.hasPrefix("USAGE:") else { break }
        let isExample = continued || line.trimmingCharacters(in: .whitespaces).hasPrefix("runmate ")
        continued = isExample && line.hasSuffix("\\")
        guard isExample else { continue }
        #expect(
          line.count <= 80 && narrowLines.contains(line),
          "runmate \(path.joined(separator: " ")) --help wraps '\(line)' at 80 columns")
      }
    }
  }

  /// man/runmate.1 (`make man`) names every command of the binary, and under each command every option it takes:
  /// a command or option added without regenerating the page fails here.
  @Test func theManPageCoversEveryCommandAndOption() throws {
    let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/runmate.1"), encoding: .utf8)
    let documented = manPageTree(page)
    let tree = try commandTree()
    #expect(Set(documented.keys) == Set(tree.keys))
    for (path, options) in tree {
      let missing = options.subtracting(documented[path] ?? [])
      #expect(missing.isEmpty, "man/runmate.1 lacks \(missing.sorted()) of 'runmate \(path.joined(separator: " "))'")
    }
  }

  /// The page renders without warnings in 80 columns, each example on its own lines (not filled into the text).
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "needs groff"))
  func theManPageRenders() throws {
    let page = repositoryRoot.appendingPathComponent("man/runmate.1").path
    let result = try run(
      "/usr/bin/groff", ["-mandoc", "-Tutf8", "-ww", "-rLL=80n", "-P-cbou", page],
      in: repositoryRoot)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let wide = lines.filter { $0.count > 80 }
    #expect(wide.isEmpty, "man/runmate.1 renders \(wide.count) lines wider than 80 columns, first: \(wide.first ?? "")")
    let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(trimmed.contains("runmate plan --distance half --level beginner --weeks 12"))
    #expect(trimmed.contains("runmate export --distance 10k --level intermediate \\"))
    #expect(trimmed.contains("--weeks 10 --at 06:30 --tz Europe/Berlin --remind 30m \\"))
  }

  // MARK: Helpers

  /// The binary's command tree (`--experimental-dump-help`): each command's path below `runmate` (the root is
  /// `[]`) and the long names of the options and flags it shows.
  func commandTree() throws -> [[String]: Set<String>] {
    let dump = try runmate(["--experimental-dump-help"])
    #expect(dump.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8))
    guard let root = (json as? [String: Any])?["command"] as? [String: Any] else { return [:] }
    var tree: [[String]: Set<String>] = [:]
    func walk(_ command: [String: Any], _ path: [String]) {
      var options: Set<String> = []
      for argument in command["arguments"] as? [[String: Any]] ?? [] {
        guard argument["shouldDisplay"] as? Bool ?? true, argument["kind"] as? String != "positional" else { continue }
        for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
          if let long = name["name"] as? String { options.insert(long) }
        }
      }
      tree[path] = options
      for sub in command["subcommands"] as? [[String: Any]] ?? [] {
        guard let name = sub["commandName"] as? String else { continue }
        walk(sub, path + [name])
      }
    }
    walk(root, [])
    return tree
  }

  /// The commands of an mdoc page from generate-manual, read from its nested lists in DESCRIPTION: `.It Em NAME`
  /// is a command inside the enclosing one, `.It Fl -NAME` an option of the command whose list it is in.
  func manPageTree(_ page: String) -> [[String]: Set<String>] {
    var tree: [[String]: Set<String>] = [[]: []]
    var owners: [[String]] = []
    var latest: [String] = []
    var inDescription = false
    for line in page.split(separator: "\n").map(String.init) {
      if line.hasPrefix(".Sh ") { inDescription = line == ".Sh DESCRIPTION" }
      guard inDescription else { continue }
      let words = line.split(separator: " ").map(String.init)
      switch words.first {
      case ".Bl": owners.append(latest)
      case ".El": owners.removeLast()
      case ".It" where words.count > 2 && words[1] == "Em":
        latest = (owners.last ?? []) + [words[2]]
        tree[latest, default: []] = []
      case ".It" where words.count > 2 && words[1] == "Fl":
        for word in words.dropFirst(2) where word.hasPrefix("-") && word.count > 2 {
          tree[owners.last ?? [], default: []].insert(String(word.dropFirst()))
        }
      default: break
      }
    }
    return tree
  }

  /// Runs `executable` with `arguments` in `directory`.
  func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> RunResult {
    try runProcess(URL(fileURLWithPath: executable), arguments, in: directory)
  }
}
