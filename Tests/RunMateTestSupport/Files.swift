import Foundation
import Testing

// Files, binaries and numbers shared by the test targets.

/// The URL of a fixture under `Fixtures/` next to the calling test file (e.g. `"gpx/two-segments.gpx"` from
/// `Tests/ActivityTests/…`): the repository's own file, not a copy in a bundle.
public func fixtureURL(_ path: String, testFile: StaticString = #filePath) throws -> URL {
  let folder = URL(fileURLWithPath: "\(testFile)").deletingLastPathComponent().appendingPathComponent("Fixtures")
  try #require(FileManager.default.fileExists(atPath: folder.path), "no Fixtures/ beside \(testFile)")
  return folder.appendingPathComponent(path)
}

/// A fresh temporary directory (unique to the call, so tests running in parallel never share one), removed by the
/// caller.
public func temporaryDirectory(_ prefix: String = "runmate-tests") throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// The built `runmate`: `$RUNMATE_BIN`, else next to the test bundle, else `.build/debug/runmate`.
public func runmateBinary() throws -> URL {
  if let path = ProcessInfo.processInfo.environment["RUNMATE_BIN"] { return URL(fileURLWithPath: path) }
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("runmate"),
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("runmate"),
    repositoryRoot.appendingPathComponent(".build/debug/runmate"),
  ]
  guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
    throw RunmateNotBuilt(looked: candidates.map(\.path))
  }
  return found
}

/// `runmate` is not where ``runmateBinary()`` looked.
public struct RunmateNotBuilt: Error, CustomStringConvertible {
  /// Where it looked.
  public var looked: [String]
  /// What to do about it.
  public var description: String { "runmate is not built (run `swift build` first); looked in \(looked)" }
}

/// Whether `actual` is within `relative` (a fraction) of `expected`.
public func isClose(_ actual: Double, _ expected: Double, relative: Double) -> Bool {
  abs(actual - expected) <= relative * abs(expected)
}

/// Whether `actual` is within `absolute` of `expected` (false when there is no value).
public func isClose(_ actual: Double?, _ expected: Double, absolute: Double = 1e-9) -> Bool {
  guard let actual else { return false }
  return abs(actual - expected) <= absolute
}

/// A UTC instant from its calendar fields, computed with Foundation's `Calendar` (independently of the parsers under
/// test).
public func utc(
  _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
  nanosecond: Int = 0
) throws -> Date {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
  let components = DateComponents(
    year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  return try #require(calendar.date(from: components))
}

/// Whether `python3` is there to read SQLite files apart from GRDB (``sqliteRows(_:in:)``).
public let hasPython3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

/// The rows `sql` returns from the SQLite file at `path`, read by Python's own sqlite3 module (not GRDB): each row's
/// columns joined by a space.
public func sqliteRows(_ sql: String, in path: String) throws -> [String] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
  process.arguments = [
    "-c",
    "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
      + "print('\\n'.join(' '.join(str(v) for v in r) for r in c.execute(sys.argv[2])))",
    path, sql,
  ]
  // Read as every runmate child is (``runToEnd(_:)``): both pipes to their end, whatever signals arrive.
  let result = try runToEnd(process)
  #expect(result.status == 0, "python3 could not run \(sql) on \(path): \(result.stderr)")
  return result.stdout.split(separator: "\n").map(String.init)
}
