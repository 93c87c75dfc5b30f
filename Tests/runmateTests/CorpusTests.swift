import Foundation
import RunMateTestSupport
import Testing

/// One file of the public test-file corpus (Tests/Corpus/manifest.tsv, written by scripts/corpus-reference.py from
/// independent readers: gpxpy, the TCX laps' totals, Garmin's FIT SDK).
struct CorpusFile: CustomTestStringConvertible, Sendable {
  /// The path under Tests/Corpus.
  var file: String
  /// `run`, `cross-training:<sport>`, `several:<kind>,<kind>…` (sorted) or `skipped:<reason>`.
  var expect: String
  /// The reference distance (km) and duration (s); nil when the file is to be skipped.
  var referenceKm: Double?
  var referenceSeconds: Double?
  /// Allowed relative differences.
  var kmTolerance: Double
  var secondsTolerance: Double
  /// `ok`, or `known-wrong: <why>`.
  var status: String

  var testDescription: String { file }
  var url: URL { CorpusTests.root.appendingPathComponent(file) }
  var isKnownWrong: Bool { status != "ok" }

  /// The rows of the manifest.
  static func load(_ manifest: URL) -> [CorpusFile] {
    guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count == 12 else { return nil }
      return CorpusFile(
        file: cells[0], expect: cells[5], referenceKm: Double(cells[6]), referenceSeconds: Double(cells[7]),
        kmTolerance: Double(cells[8]) ?? 0, secondsTolerance: Double(cells[9]) ?? 0, status: cells[11])
    }
  }
}

/// What `runmate import --all-sports` made of one file, read back with `log list --json`.
struct ImportOutcome: CustomStringConvertible {
  var kind: String
  var km: Double?
  var seconds: Double?
  var output: String

  var description: String {
    "\(kind)" + (km.map { " \($0) km" } ?? "") + (seconds.map { " \($0) s" } ?? "") + " [\(output)]"
  }
}

@Suite(.tags(.endToEnd)) struct CorpusTests {
  static let root = repositoryRoot.appendingPathComponent("Tests/Corpus")
  static let committed = CorpusFile.load(root.appendingPathComponent("manifest.tsv"))
  /// Files of projects whose licence does not let us commit them: present after scripts/fetch-corpus.sh.
  static let fetched = CorpusFile.load(root.appendingPathComponent("fetched-manifest.tsv")).filter {
    FileManager.default.fileExists(atPath: $0.url.path)
  }

  /// Imports `file` into a fresh logbook with `--all-sports` and reads back what was stored.
  static func importOutcome(_ file: CorpusFile) throws -> ImportOutcome {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = ["RUNMATE_DB": directory.appendingPathComponent("runmate.sqlite").path]
    let result = try runmate(["import", "--all-sports", file.url.path, "--tz", "UTC"], environment: env)
    let output = (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "\n", with: " | ")
    guard FileManager.default.fileExists(atPath: env["RUNMATE_DB"] ?? "") else {
      return ImportOutcome(kind: "skipped", output: output)
    }
    // Exact values, read with sqlite3 (the JSON rounds to 0.1 km).
    let query = try runProcess(
      URL(fileURLWithPath: sqlite3Path),
      ["-separator", "\t", env["RUNMATE_DB"] ?? "", "SELECT sport, distanceKm, durationSeconds FROM completion"],
      in: directory)
    let rows = query.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
    guard let stored = rows.first, stored.count == 3 else { return ImportOutcome(kind: "skipped", output: output) }
    let kinds = rows.map { $0.first == "run" ? "run" : "cross-training:\($0.first ?? "?")" }
    guard rows.count == 1 else {
      return ImportOutcome(kind: "several:" + kinds.sorted().joined(separator: ","), output: output)
    }
    return ImportOutcome(kind: kinds[0], km: Double(stored[1]), seconds: Double(stored[2]), output: output)
  }

  /// True when `outcome` is what the manifest expects, within its tolerances.
  static func agrees(_ outcome: ImportOutcome, _ file: CorpusFile) -> Bool {
    if file.expect.hasPrefix("skipped") { return outcome.kind == "skipped" }
    // A file of several activities: the kinds stored, one per activity.
    if file.expect.hasPrefix("several:") { return outcome.kind == file.expect }
    guard outcome.kind == file.expect, let km = outcome.km, let seconds = outcome.seconds,
      let referenceKm = file.referenceKm, let referenceSeconds = file.referenceSeconds
    else { return false }
    let kmOK = abs(km - referenceKm) <= max(file.kmTolerance * referenceKm, 0.0005)
    let secondsOK = abs(seconds - referenceSeconds) <= max(file.secondsTolerance * referenceSeconds, 1)
    return kmOK && secondsOK
  }

  static func check(_ file: CorpusFile) throws {
    let outcome = try importOutcome(file)
    let agreed = agrees(outcome, file)
    if file.isKnownWrong {
      #expect(
        !agreed,
        "\(file.file) now matches the reference (\(outcome)): mark it ok in Tests/Corpus/known-wrong.tsv")
    } else {
      #expect(
        agreed,
        """
        \(file.file): expected \(file.expect) \(file.referenceKm.map { "\($0) km" } ?? "") \
        \(file.referenceSeconds.map { "\($0) s" } ?? ""), got \(outcome)
        """)
    }
  }

  @Test func theManifestNamesEveryCommittedFileWithItsProvenance() throws {
    #expect(Self.committed.count >= 50)
    let text = try String(contentsOf: Self.root.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    for line in text.split(separator: "\n").dropFirst() {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
      #expect(cells.count == 12 && cells[3].count == 40, "\(line)")
      #expect(["MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "public domain"].contains(String(cells[4])))
    }
    for row in Self.committed { #expect(FileManager.default.fileExists(atPath: row.url.path), "\(row.file)") }
  }

  @Test(.enabled(if: hasSQLite3, "needs sqlite3"), arguments: committed) func committedFileImportsAsTheReferenceSays(
    _ file: CorpusFile
  ) throws {
    try Self.check(file)
  }

  @Test(
    .enabled(if: !fetched.isEmpty, "run scripts/fetch-corpus.sh first"), .enabled(if: hasSQLite3, "needs sqlite3"),
    arguments: fetched)
  func fetchedFileImportsAsTheReferenceSays(_ file: CorpusFile) throws {
    try Self.check(file)
  }
}
