import Foundation
import RunMateTestSupport
import Testing

/// The decoded-templates cache of the real binary, in `$XDG_CACHE_HOME/runmate/`: the first plan writes an
/// entry, the next prints the same bytes from it, a corrupt entry is replaced, a changed template is read again,
/// and a cache that cannot be written changes nothing but the time.
@Suite(.tags(.endToEnd)) struct RulesCacheCommandTests {
  static let plan = ["plan", "--distance", "half", "--level", "beginner", "--weeks", "12", "--now", "2026-11-21"]

  /// The `rules-*.json` entries in `cache`.
  static func entries(_ cache: URL) -> [URL] {
    let directory = cache.appendingPathComponent("runmate")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasPrefix("rules-") && $0.hasSuffix(".json") }.sorted()
      .map { directory.appendingPathComponent($0) }
  }

  @Test func warmPlanIsByteIdenticalAndCorruptEntryIsReplaced() throws {
    let cache = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: cache) }
    let environment = ["XDG_CACHE_HOME": cache.path]
    let cold = try runmate(Self.plan + ["--format", "json"], environment: environment)
    #expect(cold.status == 0, "\(cold.stderr)")
    let entries = Self.entries(cache)
    #expect(entries.count == 1)
    let entry = try #require(entries.first)
    let written = try Data(contentsOf: entry)

    let warm = try runmate(Self.plan + ["--format", "json"], environment: environment)
    #expect(warm.status == 0)
    #expect(warm.stdout == cold.stdout)
    #expect(warm.stderr == cold.stderr)
    #expect(try Data(contentsOf: entry) == written, "a hit rewrote the entry")

    for corrupt in [Data(), Data("{\"format\": 1".utf8), Data(repeating: 0xFF, count: 100_000)] {
      try corrupt.write(to: entry)
      let again = try runmate(Self.plan + ["--format", "json"], environment: environment)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(again.stdout == cold.stdout)
      #expect(again.stderr.isEmpty)
      #expect(try Data(contentsOf: entry) == written, "the corrupt entry was not replaced")
    }
  }

  @Test func changedTemplateIsReadAgain() throws {
    let cache = try temporaryDirectory()
    let templates = try temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: cache)
      try? FileManager.default.removeItem(at: templates)
    }
    try copyTemplates(to: templates)
    let environment = ["XDG_CACHE_HOME": cache.path]
    let arguments = Self.plan + ["--templates", templates.path]
    let before = try runmate(arguments, environment: environment)
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.hasPrefix("Beginner half marathon plan"), "\(before.stdout)")

    let half = templates.appendingPathComponent("half.yaml")
    let text = try String(contentsOf: half, encoding: .utf8)
    #expect(text.contains("    peakWeeklyKm: 38"))
    try text.replacingOccurrences(of: "    peakWeeklyKm: 38", with: "    peakWeeklyKm: 30")
      .write(to: half, atomically: true, encoding: .utf8)
    let after = try runmate(arguments, environment: environment)
    let uncached = try runmate(arguments, environment: ["XDG_CACHE_HOME": "/dev/null/none", "HOME": "/dev/null/none"])
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout != before.stdout)
    #expect(after.stdout == uncached.stdout)
    #expect(Self.entries(cache).count == 2)

    // Broken now: the same message as without a cache, and no entry for it.
    try text.replacingOccurrences(of: "    peakWeeklyKm: 38", with: "    peakWeeklyKm: 900")
      .write(to: half, atomically: true, encoding: .utf8)
    let broken = try runmate(arguments, environment: environment)
    let brokenUncached = try runmate(
      arguments,
      environment: [
        "XDG_CACHE_HOME": "/dev/null/none",
        "HOME": "/dev/null/none",
      ])
    #expect(broken.status == 65)
    #expect(
      broken.stderr == "runmate: \(half.path): levels.beginner.peakWeeklyKm: '900' is wrong, allowed is km "
        + "from 20 to 250\n")
    #expect(broken.stderr == brokenUncached.stderr)
    #expect(Self.entries(cache).count == 2)
  }

  @Test func unwritableCacheChangesNothing() throws {
    let cache = try temporaryDirectory()
    let other = try temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: cache)
      try? FileManager.default.removeItem(at: other)
    }
    // The cache directory's place is a file: no entry can be written.
    let blocked = cache.appendingPathComponent("runmate")
    try Data("not a directory".utf8).write(to: blocked)
    let result = try runmate(Self.plan, environment: ["XDG_CACHE_HOME": cache.path])
    let reference = try runmate(Self.plan, environment: ["XDG_CACHE_HOME": other.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(result.stdout == reference.stdout)
    #expect(try Data(contentsOf: blocked) == Data("not a directory".utf8))
  }

  /// A FIFO where the entry belongs would block a plain read: it is passed over, and the plan printed.
  @Test(.timeLimit(.minutes(1))) func fifoInPlaceOfTheEntryIsPassedOver() throws {
    let cache = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: cache) }
    let environment = ["XDG_CACHE_HOME": cache.path]
    let cold = try runmate(Self.plan, environment: environment)
    let entry = try #require(Self.entries(cache).first)
    try FileManager.default.removeItem(at: entry)
    #expect(mkfifo(entry.path, 0o600) == 0)
    let result = try runmate(Self.plan, environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == cold.stdout)
  }
}
