import Foundation
import RunMateTestSupport
import Testing

/// The README's tour, replayed verbatim: every ```console block from "## A tour" up to the next level-2 heading,
/// each `$ ` command (with `\` continuations) run in order by `/bin/sh` on ONE fresh database, in a fresh working
/// directory that holds `plan-templates/` and `examples/` as a clone does. What a command prints (stdout and
/// stderr, interleaved as on a terminal) must be the lines under it, with three documented normalisations:
/// - the database path is printed as `~/.local/share/runmate/runmate.sqlite` (the default a new user gets; the test
///   uses `RUNMATE_DB` in a temporary directory);
/// - a line `...` in the README stands for any number of lines (the rest of a long output, or a cut in the middle);
/// - a trailing `# comment` on a command line is the shell's: it is not part of the command;
/// - CRLF line ends (an `.ics` shown with `sed`) compare as LF, as the README shows them.
/// The system time zone is UTC (`TZ`); commands that depend on today's date pin it with `--now`.
/// `RUNMATE_UPDATE_TOUR=1` prints every command's real output instead of comparing (paste it after review).
@Suite(.tags(.endToEnd)) struct ReadmeTourTests {
  /// One `$ ` command of the tour and the lines the README shows under it.
  struct Step: CustomStringConvertible {
    var line: Int
    var command: String
    var expected: [String]
    var description: String { "README.md:\(line): $ \(command)" }
  }

  /// The tour's steps, in README order.
  static func steps(readme: String) -> [Step] {
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: "## A tour") else { return [] }
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
    var steps: [Step] = []
    var inConsole = false
    var index = start
    while index < end {
      let line = lines[index]
      if line.hasPrefix("```") {
        inConsole = !inConsole && line == "```console"
        index += 1
        continue
      }
      if inConsole, line.hasPrefix("$ ") {
        var command = String(line.dropFirst(2))
        let number = index + 1
        while command.hasSuffix("\\"), index + 1 < end {
          index += 1
          command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
        }
        steps.append(Step(line: number, command: command, expected: []))
      } else if inConsole, !steps.isEmpty {
        steps[steps.count - 1].expected.append(line)
      }
      index += 1
    }
    return steps
  }

  /// True when `actual` is `expected`, a line `...` in `expected` matching any number of lines.
  static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "..." {
      let rest = expected.dropFirst()
      if rest.isEmpty { return true }
      return actual.indices.contains { matches(rest, actual[$0...]) } || matches(rest, actual[actual.endIndex...])
    }
    guard let line = actual.first, line == first else { return false }
    return matches(expected.dropFirst(), actual.dropFirst())
  }

  @Test func theTourHasItsSteps() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let steps = Self.steps(readme: readme)
    #expect(steps.count >= 15)
    #expect(steps.allSatisfy { $0.command.hasPrefix("runmate ") || $0.command.hasPrefix("sed ") })
  }

  /// The README stays a front page (under 400 lines: what it is, the two commands, install, the tour, where to read
  /// more), and every relative link in it and in the documents it points to names a file of the repository: none
  /// leaves it (such as `../shared/…`, which a clone does not have).
  @Test func theReadmeIsShortAndItsLinksStayInTheRepository() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count < 400)
    let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("docs").path)
      .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
    let files = ["README.md", "plan-templates/README.md", "examples/README.md"] + docs.sorted()
    #expect(docs.count >= 8)
    let root = repositoryRoot.standardizedFileURL.path
    for file in files {
      let url = repositoryRoot.appendingPathComponent(file)
      let text = try String(contentsOf: url, encoding: .utf8)
      #expect(!text.contains("../shared"), "\(file) points outside the repository (../shared)")
      for match in text.matches(of: /\]\(([^)\s]+)\)/) {
        let target = String(match.1)
        guard !target.contains(":"), !target.hasPrefix("#") else { continue }
        let path = String(target.split(separator: "#", maxSplits: 1)[0])
        let resolved = url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
        #expect(resolved.hasPrefix(root + "/"), "\(file): \(target) leaves the repository")
        #expect(FileManager.default.fileExists(atPath: resolved), "\(file): \(target) does not exist")
      }
    }
  }

  @Test func elisionMatchesAnyNumberOfLines() {
    #expect(Self.matches(["a", "...", "d"], ["a", "b", "c", "d"]))
    #expect(Self.matches(["a", "...", "d"], ["a", "d"]))
    #expect(Self.matches(["a", "..."], ["a", "b"]))
    #expect(!Self.matches(["a", "...", "d"], ["a", "b", "c"]))
    #expect(!Self.matches(["a", "b"], ["a", "b", "c"]))
  }

  @Test func theTourRunsVerbatimOnAFreshDatabase() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let steps = Self.steps(readme: readme)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in ["plan-templates", "examples"] {
      try FileManager.default.createSymbolicLink(
        at: directory.appendingPathComponent(name),
        withDestinationURL: repositoryRoot.appendingPathComponent(name))
    }
    let database = directory.appendingPathComponent("runmate.sqlite").path
    let update = ProcessInfo.processInfo.environment["RUNMATE_UPDATE_TOUR"] == "1"
    for step in steps {
      let output = try Self.shell(step.command, in: directory, database: database)
        .replacingOccurrences(of: database, with: "~/.local/share/runmate/runmate.sqlite")
        .replacingOccurrences(of: "\r\n", with: "\n")
      var actual = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if actual.last == "" { actual.removeLast() }
      if update {
        print(([step.description] + actual).joined(separator: "\n"))
        continue
      }
      let shown = step.expected.joined(separator: "\n")
      #expect(
        Self.matches(step.expected[...], actual[...]),
        "\(step) prints:\n\(actual.joined(separator: "\n"))\nbut the README shows:\n\(shown)")
    }
  }

  /// Runs `command` with `/bin/sh -c` (the built `runmate` first on PATH) and returns stdout and stderr together.
  static func shell(_ command: String, in directory: URL, database: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    for key in ["RUNMATE_TEMPLATES", "SOURCE_DATE_EPOCH", "XDG_DATA_HOME", "TZ", "LC_ALL"] {
      environment[key] = nil
    }
    environment["RUNMATE_DB"] = database
    environment["HOME"] = directory.path
    environment["TZ"] = "UTC"
    let binaries = try runmateBinary().deletingLastPathComponent().path
    environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
