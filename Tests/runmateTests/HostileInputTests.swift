import Foundation
import RunMateTestSupport
import Testing

/// Nothing a file, a typo or a second process can do breaks the logbook: every row runs the real `runmate` on real
/// files in its own directory and checks how it exits, that a failure is one `runmate: ` line (no trap, no
/// backtrace, no raw control characters), that the database's content is what it was (an `sqlite3 .dump` before
/// and after), and that the child stayed within its time and memory bounds (`wait4` rusage, see ``ProcessProbe``).
///
/// The rows are in `HostileTable.swift`, the files made for them in `HostileInputs.swift`. With
/// `HOSTILE_REPORT=FILE`, every row's verdict, problems and output are appended to FILE (one row a line).
@Suite(.serialized, .tags(.endToEnd)) struct HostileInputTests {
  /// The cases the probe of issue 8 found failing.
  @Test func probeFindings() throws {
    try HostileHarness.check(HostileTable.probeFindings)
  }

  /// Hostile values for every option of every command, bad files and databases, odd dates and times.
  @Test func broadTable() throws {
    try HostileHarness.check(HostileTable.broad)
  }

  /// Files the runner cannot read (chmod 000): root reads them anyway, so this needs an ordinary user.
  @Test(.enabled(if: geteuid() != 0, "root reads files whatever their mode"))
  func unreadableFiles() throws {
    try HostileHarness.check(HostileTable.unreadable)
  }

  /// The table itself: unique names, and as many rows as the issue asks for.
  @Test func tableIsBroad() {
    let all = HostileTable.probeFindings + HostileTable.broad + HostileTable.unreadable
    let repeated = Dictionary(grouping: all, by: \.name).filter { $0.value.count > 1 }.keys.sorted()
    #expect(repeated.isEmpty, "row names must be unique: \(repeated)")
    #expect(HostileTable.broad.count >= 300, "\(HostileTable.broad.count) rows")
  }

  /// The zip bomb generator makes a zip that `unzip` accepts and that inflates to what it says.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip")))
  func zipBombIsAValidZip() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let zip = directory.appendingPathComponent("bomb.zip")
    try HostileFiles.zipBomb(head: "<HealthData>", fill: 0x20, count: 50_000_000, tail: "</HealthData>\n")
      .write(to: zip)
    let result = try ProcessProbe.run(
      URL(fileURLWithPath: "/usr/bin/unzip"), ["-t", zip.path],
      environment: ["PATH": "/usr/bin:/bin"],
      limits: .init(seconds: 30, memoryMiB: 100))
    #expect(result.end == .exited(0), "\(result.stdoutText) \(result.stderrText)")
    #expect(result.stdoutText.contains("No errors detected"), "\(result.stdoutText)")
  }
}

// MARK: - Rows

/// One hostile command line and what must come of it.
struct HostileRow: Sendable {
  /// How the command must end.
  enum Expect: Sendable, CustomStringConvertible {
    /// Exactly this exit status.
    case exit(Int32)
    /// Any non-zero status below 128, with one `runmate: ` line (the exact code is not fixed yet).
    case fails
    /// Status 0.
    case succeeds
    /// Either status 0, or a clean failure (for values a runner may legitimately use).
    case either

    var description: String {
      switch self {
      case .exit(let code): "exit \(code)"
      case .fails: "a clean failure"
      case .succeeds: "exit 0"
      case .either: "exit 0 or a clean failure"
      }
    }
  }

  /// What is in the row's database file before the setup steps.
  enum Database: Sendable {
    /// No file.
    case none
    /// A copy of the seeded logbook: two profiles, an active plan, a run, a health day, an export.
    case seeded
  }

  /// A setup step, run in order in the row's directory.
  enum Step: Sendable {
    /// `runmate` with these arguments (placeholders expanded); it must exit 0.
    case runmate([String])
    /// SQL run by `sqlite3` on the row's database.
    case sql(String)
    /// Anything done to the row's directory.
    case files(@Sendable (URL) throws -> Void)
  }

  var name: String
  /// Arguments; `{db}`, `{dir}`, `{templates}`, `{activity}` (ActivityTests fixtures) and `{health}` (HealthTests
  /// fixtures) are replaced.
  var arguments: [String]
  var expect: Expect
  var database: Database = .seeded
  var setup: [Step] = []
  /// Text the `runmate: ` line must contain (an option's name, a file's).
  var mentions: [String] = []
  /// Text standard output must contain after a successful run (what was skipped, say).
  var prints: [String] = []
  /// Text no output may contain (the content of a file that must not be quoted).
  var neverPrints: [String] = []
  var limits = ProcessProbe.Limits(seconds: 10, memoryMiB: 200)
  /// Whether a successful run may change the database (a failed run never may).
  var writes = false
  /// The database file must stay byte-identical, with no `-wal` or `-shm` made (a file that is not ours).
  var untouched = false
  /// More checks: a problem, or nil.
  var checks: [@Sendable (URL, ProcessProbe.Result) -> String?] = []
}

// MARK: - Harness

enum HostileHarness {
  static let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/bin/sqlite3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }
  static let activityFixtures = repositoryRoot.appendingPathComponent("Tests/ActivityTests/Fixtures").path
  static let healthFixtures = repositoryRoot.appendingPathComponent("Tests/HealthTests/Fixtures").path
  static let templates = repositoryRoot.appendingPathComponent("plan-templates").path
  static let databaseName = "runmate.sqlite"
  static let plainPath = ["PATH": "/usr/bin:/bin"]
  /// Rows at once: children mostly start up and wait on the disk, so twice the cores keeps both busy.
  static let width = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)

  /// The seeded logbook every `.seeded` row copies, and the dumps to compare against.
  struct Seed: Sendable {
    var directory: URL
    var database: URL
    /// The dump of a logbook just made (what a failed first command may leave: schema, no content).
    var emptyDump: String
    /// The seeded logbook's state (its bytes and dump).
    var state: DatabaseState
  }

  nonisolated(unsafe) private static var seed: Result<Seed, any Error>?
  private static let seedLock = NSLock()

  /// Runs every row concurrently, each in its own directory, and records one issue per failing row.
  static func check(_ rows: [HostileRow], sourceLocation: SourceLocation = #_sourceLocation) throws {
    _ = try #require(HostileHarness.sqlite3, "sqlite3 is needed for the database dumps: run scripts/setup.sh")
    let seed = try seeded()
    let binary = try runmateBinary()
    let started = ContinuousClock.now
    let reports = ProcessProbe.concurrentMap(rows, width: width) { row in
      do {
        return try run(row, binary: binary, seed: seed)
      } catch {
        return RowReport(name: row.name, problems: ["harness: \(error)"], summary: "")
      }
    }
    let failing = reports.filter { !$0.problems.isEmpty }
    for report in failing {
      let text = "\(report.name): \(report.problems.joined(separator: "; "))\n    \(report.summary)"
      Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    }
    let elapsed = started.duration(to: .now)
    print("hostile inputs: \(rows.count) rows, \(failing.count) failing, \(elapsed)")
    if let path = ProcessInfo.processInfo.environment["HOSTILE_REPORT"] {
      let lines = reports.map { report in
        "\(report.problems.isEmpty ? "pass" : "FAIL") \(report.name)\t"
          + "\(report.problems.joined(separator: "; "))\t\(report.summary)"
      }
      let handle =
        FileHandle(forWritingAtPath: path)
        ?? {
          _ = FileManager.default.createFile(atPath: path, contents: nil)
          return FileHandle(forWritingAtPath: path)
        }()
      handle?.seekToEndOfFile()
      handle?.write(Data((lines.joined(separator: "\n") + "\n").utf8))
      try? handle?.close()
    }
  }

  struct RowReport: Sendable {
    var name: String
    var problems: [String]
    var summary: String
  }

  /// Makes (once per process) the seeded logbook through `runmate` itself.
  static func seeded() throws -> Seed {
    try seedLock.withLock {
      if let seed { return try seed.get() }
      let made = Result { try makeSeed() }
      seed = made
      return try made.get()
    }
  }

  private static func makeSeed() throws -> Seed {
    let directory = try temporaryDirectory()
    let binary = try runmateBinary()
    try HostileFiles.healthCSV(["2027-01-05,9000,7.1,400"])
      .write(to: directory.appendingPathComponent("days.csv"), atomically: true, encoding: .utf8)
    let database = directory.appendingPathComponent(databaseName)
    let steps: [[String]] = [
      [
        "profile", "init", "anna", "--level", "intermediate", "--tz", "UTC", "--days", "tue,thu,sat,sun",
        "--long-run-day", "sun", "--default",
      ],
      [
        "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--start", "2027-01-04",
        "--save", "--name", "spring",
      ],
      ["log", "2027-01-05", "--distance", "8.2km", "--time", "47:30", "--now", "2027-01-06", "--note", "first"],
      ["profile", "init", "carl", "--coach", "--specialty", "trail", "--bio", "Coach", "--email", "carl@example.com"],
      ["coach", "add-athlete", "anna", "--profile", "carl"],
      ["health", "import", "days.csv", "--tz", "UTC"],
      ["export", "--out", "seed.ics", "--now", "2027-01-01"],
    ]
    for step in steps {
      let result = try ProcessProbe.run(
        binary, step, in: directory, environment: environment(directory),
        limits: .init(seconds: 30, memoryMiB: 400))
      guard result.end == .exited(0) else {
        throw SeedFailed(step: step, output: result.stderrText)
      }
    }
    let fresh = directory.appendingPathComponent("fresh")
    try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
    _ = try ProcessProbe.run(
      binary, ["log", "list"], in: fresh, environment: environment(fresh),
      limits: .init(seconds: 30, memoryMiB: 400))
    let emptyDump = try state(of: fresh.appendingPathComponent(databaseName)).dump ?? ""
    return Seed(directory: directory, database: database, emptyDump: emptyDump, state: try state(of: database))
  }

  struct SeedFailed: Error, CustomStringConvertible {
    var step: [String]
    var output: String
    var description: String { "seeding the logbook failed at `runmate \(step.joined(separator: " "))`: \(output)" }
  }

  /// What the child sees: the row's directory as home and data directory, its database, the repository's
  /// templates, UTC, no backtracer (a trap is a trap; its report only slows the suite). The decoded-templates cache is
  /// the test process's, as in every other CLI test: no row is about the cache (RulesCacheCommandTests are), and a
  /// cold cache in each row's home had every row that reads the templates decode their YAML again (a tenth of the
  /// table's CPU time).
  static func environment(_ directory: URL) -> [String: String] {
    [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": directory.path,
      "XDG_DATA_HOME": directory.appendingPathComponent("xdg").path,
      "XDG_CACHE_HOME": testDataHome.appendingPathComponent("cache").path,
      "RUNMATE_DB": directory.appendingPathComponent(databaseName).path,
      "RUNMATE_TEMPLATES": templates,
      "TZ": "UTC",
      "LANG": "C.UTF-8",
      "SWIFT_BACKTRACE": "enable=no",
    ]
  }

  static func expand(_ text: String, _ directory: URL) -> String {
    text.replacingOccurrences(of: "{db}", with: directory.appendingPathComponent(databaseName).path)
      .replacingOccurrences(of: "{dir}", with: directory.path)
      .replacingOccurrences(of: "{templates}", with: templates)
      .replacingOccurrences(of: "{activity}", with: activityFixtures)
      .replacingOccurrences(of: "{health}", with: healthFixtures)
  }

  /// The database file as found: its bytes, its `-wal`/`-shm` companions, and its content as `sqlite3 .dump`.
  struct DatabaseState: Equatable, Sendable {
    var bytes: Data?
    var wal: Bool
    var shm: Bool
    var dump: String?
  }

  /// Dumps a copy (database and `-wal`), so that looking never changes what is looked at. The same bytes with no
  /// `-wal` as a `known` state have its dump (SQLite keeps all content in those two files).
  static func state(of database: URL, known: DatabaseState? = nil) throws -> DatabaseState {
    let manager = FileManager.default
    let bytes = manager.contents(atPath: database.path)
    let wal = manager.fileExists(atPath: database.path + "-wal")
    let shm = manager.fileExists(atPath: database.path + "-shm")
    if let known, let bytes, !wal, !known.wal, known.bytes == bytes {
      return DatabaseState(bytes: bytes, wal: wal, shm: shm, dump: known.dump)
    }
    guard let bytes, let sqlite3 else { return DatabaseState(bytes: bytes, wal: wal, shm: shm, dump: nil) }
    let scratch = manager.temporaryDirectory.appendingPathComponent("runmate-dump-\(UUID().uuidString)")
    try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: scratch) }
    let copy = scratch.appendingPathComponent("copy.sqlite")
    try bytes.write(to: copy)
    if wal, let log = manager.contents(atPath: database.path + "-wal") {
      try log.write(to: URL(fileURLWithPath: copy.path + "-wal"))
    }
    let result = try ProcessProbe.run(
      URL(fileURLWithPath: sqlite3), [copy.path, ".dump"], environment: plainPath,
      limits: .init(seconds: 20, memoryMiB: 500))
    let dump = result.end == .exited(0) ? result.stdoutText : "(sqlite3 cannot read it: \(result.stderrText))"
    return DatabaseState(bytes: bytes, wal: wal, shm: shm, dump: dump)
  }

  /// Sets the row up, runs it, and lists what is wrong.
  static func run(_ row: HostileRow, binary: URL, seed: Seed) throws -> RowReport {
    let manager = FileManager.default
    let directory = manager.temporaryDirectory.appendingPathComponent("runmate-hostile-\(UUID().uuidString)")
    try manager.createDirectory(at: directory, withIntermediateDirectories: true)
    defer {
      if (try? manager.removeItem(at: directory)) == nil {
        // A row made something unreadable (chmod 000): give it back, then remove.
        _ = try? ProcessProbe.run(
          URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+rwx", directory.path],
          environment: [:], limits: .init(seconds: 10, memoryMiB: 50))
        try? manager.removeItem(at: directory)
      }
    }
    let database = directory.appendingPathComponent(databaseName)
    let environment = environment(directory)
    if case .seeded = row.database { try manager.copyItem(at: seed.database, to: database) }
    try HostileFiles.healthCSV(["2027-01-06,8000,6.1,350"])
      .write(to: directory.appendingPathComponent("days.csv"), atomically: true, encoding: .utf8)
    for step in row.setup {
      switch step {
      case .runmate(let arguments):
        let result = try ProcessProbe.run(
          binary, arguments.map { expand($0, directory) }, in: directory,
          environment: environment, limits: .init(seconds: 30, memoryMiB: 400))
        guard result.end == .exited(0) else {
          return RowReport(
            name: row.name,
            problems: [
              "setup `\(arguments.joined(separator: " "))` failed: "
                + "\(result.end), \(result.stderrText.prefix(300))"
            ], summary: "")
        }
      case .sql(let sql):
        let result = try ProcessProbe.run(
          URL(fileURLWithPath: sqlite3 ?? "sqlite3"), [database.path, sql],
          environment: plainPath, limits: .init(seconds: 20, memoryMiB: 500))
        guard result.end == .exited(0) else {
          return RowReport(name: row.name, problems: ["setup SQL failed: \(result.stderrText)"], summary: "")
        }
      case .files(let make):
        try make(directory)
      }
    }

    let before = try state(of: database, known: seed.state)
    let arguments = row.arguments.map { expand($0, directory) }
    let result = try ProcessProbe.run(binary, arguments, in: directory, environment: environment, limits: row.limits)
    let after = try state(of: database, known: before)

    var problems: [String] = []
    let stderr = result.stderrText
    let stdout = result.stdoutText
    var failed = false
    switch result.end {
    case .exited(let code) where code >= 128:
      problems.append("exit \(code) (a signal's status)")
    case .exited(let code):
      failed = code != 0
      switch row.expect {
      case .exit(let expected) where code != expected: problems.append("exit \(code), expected \(expected)")
      case .fails where code == 0: problems.append("exit 0, expected a failure")
      case .succeeds where code != 0: problems.append("exit \(code), expected 0")
      default: break
      }
    case .signaled(let signal):
      failed = true
      problems.append("crashed (signal \(signal))")
    case .killedAfterTimeout:
      failed = true
      problems.append("still running after \(row.limits.seconds) s: killed")
    case .killedOverMemory:
      failed = true
      problems.append("over \(row.limits.memoryMiB) MiB: killed")
    }
    if result.peakRSSKiB > row.limits.memoryMiB * 1024 {
      problems.append("peak memory \(Int(result.peakRSSMiB)) MiB, bound \(row.limits.memoryMiB) MiB")
    }
    if failed, case .exited = result.end {
      let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
      if !(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("runmate: ")) {
        problems.append("stderr is not one `runmate: ` line")
      }
      if result.stderr.count > 2_000 { problems.append("a \(result.stderr.count)-byte message") }
      for text in row.mentions where !stderr.contains(expand(text, directory)) {
        problems.append("the message does not name '\(text)'")
      }
    } else {
      for text in row.prints where !stdout.contains(text) {
        problems.append("the output does not say '\(text)'")
      }
    }
    let crashMarkers = ["Fatal error", "Stack dump", "Backtrac", "Program crashed", "Thread 0"]
    for marker in crashMarkers where stderr.contains(marker) {
      problems.append("stderr shows '\(marker)'")
    }
    for (label, bytes) in [("stdout", result.stdout), ("stderr", result.stderr)] {
      if let raw = bytes.first(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }) {
        problems.append("\(label) carries a raw control character 0x\(String(raw, radix: 16))")
      }
    }
    for secret in row.neverPrints where stdout.contains(secret) || stderr.contains(secret) {
      problems.append("the output quotes '\(secret)'")
    }
    // The database: a failure (or a command that only reads) leaves its content as it was.
    if failed || !row.writes {
      if before.bytes == nil {
        if after.bytes != nil && after.dump != seed.emptyDump {
          problems.append("the database was created with content")
        }
      } else if before.dump != after.dump {
        problems.append("the database changed: \(firstDifference(before.dump ?? "", after.dump ?? ""))")
      }
    }
    if row.untouched {
      if before.bytes != after.bytes { problems.append("the database file's bytes changed") }
      if after.wal && !before.wal { problems.append("a -wal file was made") }
      if after.shm && !before.shm { problems.append("a -shm file was made") }
    }
    for check in row.checks { if let problem = check(directory, result) { problems.append(problem) } }

    let shown = failed ? stderr : (stderr.isEmpty ? String(stdout.prefix(160)) : stderr)
    let summary =
      "runmate \(arguments.map(quoted).joined(separator: " ")) -> \(result.end), "
      + String(format: "%.2f s, %d MiB: ", result.wallSeconds, Int(result.peakRSSMiB))
      + quoted(String(shown.prefix(400)))
    return RowReport(name: row.name, problems: problems, summary: summary)
  }

  /// Shell-like quoting with control characters made visible.
  static func quoted(_ text: String) -> String {
    let shown = visible(text.count > 80 ? String(text.prefix(60)) + "…(\(text.count) characters)" : text)
    return shown.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,{}+@".contains($0) }) && !shown.isEmpty
      ? shown : "'\(shown)'"
  }

  static func visible(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out += scalar == "\n" ? "\\n" : String(format: "\\x%02x", scalar.value)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func firstDifference(_ before: String, _ after: String) -> String {
    let old = before.split(separator: "\n")
    let new = after.split(separator: "\n")
    if let line = new.first(where: { !old.contains($0) }) { return "added \(quoted(String(line.prefix(120))))" }
    if let line = old.first(where: { !new.contains($0) }) { return "lost \(quoted(String(line.prefix(120))))" }
    return "reordered"
  }
}

// MARK: - Checks used by several rows

enum HostileChecks {
  /// The file at `name` (in the row's directory) has exactly `content`.
  static func fileIs(_ name: String, _ content: Data) -> @Sendable (URL, ProcessProbe.Result) -> String? {
    { directory, _ in
      FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) == content
        ? nil : "\(name) changed"
    }
  }

  /// No file at `path` (placeholders expanded).
  static func absent(_ path: String) -> @Sendable (URL, ProcessProbe.Result) -> String? {
    { directory, _ in
      let expanded = HostileHarness.expand(path, directory)
      return FileManager.default.fileExists(atPath: expanded) ? "\(path) exists" : nil
    }
  }

  /// The file's permission bits.
  static func mode(_ name: String, is expected: Int) -> @Sendable (URL, ProcessProbe.Result) -> String? {
    { directory, _ in
      let path = directory.appendingPathComponent(name).path
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
      guard mode != expected else { return nil }
      return "\(name) has mode \(String(mode, radix: 8)), expected \(String(expected, radix: 8))"
    }
  }

  /// No output line starts with `marker` (text smuggled in after a newline).
  static func noLineStarts(with marker: String) -> @Sendable (URL, ProcessProbe.Result) -> String? {
    { _, result in
      let lines = (result.stdoutText + "\n" + result.stderrText).split(separator: "\n")
      return lines.contains { $0.hasPrefix(marker) } ? "a line of output starts with '\(marker)'" : nil
    }
  }
}
