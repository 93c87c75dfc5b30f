import Foundation
import PlanEngine
import RunMateTestSupport
import Testing

/// The decoded-templates cache (`PlanRules.load(files:directory:cached:key:)`): a hit gives the same rules and the
/// same plans as the YAML, anything that does not match the files byte for byte is ignored, and broken templates
/// fail as they do without a cache.
@Suite struct TemplateCacheTests {
  static let key = "runmate test build 1"

  /// The shipped templates' entry, made by a cold load.
  static func entry(files: [TemplateFile], key: String = key) throws -> Data {
    let cold = try PlanRules.load(files: files, cached: nil, key: key)
    #expect(!cold.fromCache)
    return try #require(cold.newEntry)
  }

  static func sameRules(_ a: PlanRules, _ b: PlanRules) -> Bool {
    a.base == b.base && a.workouts == b.workouts && a.distances == b.distances && a.sources == b.sources
  }

  /// One plan per distance × level, as JSON with sorted keys: the bytes the CLI would print.
  static func plans(_ rules: PlanRules) throws -> [Data] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var plans: [Data] = []
    for distance in RaceDistance.allCases {
      for level in Level.allCases {
        plans.append(try encoder.encode(makePlan(goal: goal(distance, level, weeks: 16), rules: rules)))
      }
    }
    return plans
  }

  @Test func hitGivesTheSameRulesAndByteIdenticalPlans() throws {
    let files = try templateFiles()
    let cold = try PlanRules.load(files: files, cached: nil, key: Self.key)
    let entry = try #require(cold.newEntry)
    let warm = try PlanRules.load(files: files, cached: entry, key: Self.key)
    #expect(warm.fromCache)
    #expect(warm.newEntry == nil)
    #expect(Self.sameRules(warm.rules, cold.rules))
    #expect(Self.sameRules(warm.rules, try PlanRules(files: files)))
    #expect(try Self.plans(warm.rules) == Self.plans(cold.rules))
    // The order the caller lists the files in does not matter.
    let reversed = try PlanRules.load(files: files.reversed(), cached: entry, key: Self.key)
    #expect(reversed.fromCache)
    #expect(
      PlanRules.cacheEntryName(files: files.reversed(), key: Self.key)
        == PlanRules.cacheEntryName(files: files, key: Self.key))
  }

  @Test func changedTemplateIsDecodedAgain() throws {
    let files = try templateFiles()
    let entry = try Self.entry(files: files)
    let index = try #require(files.firstIndex { $0.name.hasSuffix("/half.yaml") })
    var changed = files
    #expect(changed[index].text.contains("    peakWeeklyKm: 38"))
    changed[index].text = changed[index].text.replacingOccurrences(
      of: "    peakWeeklyKm: 38",
      with: "    peakWeeklyKm: 41")
    let loaded = try PlanRules.load(files: changed, cached: entry, key: Self.key)
    #expect(!loaded.fromCache)
    #expect(loaded.newEntry != nil)
    #expect(loaded.rules.distances["half"]?.levels.beginner.peakWeeklyKm == 41)
    #expect(
      PlanRules.cacheEntryName(files: changed, key: Self.key)
        != PlanRules.cacheEntryName(files: files, key: Self.key))

    // A comment changes no rule but still changes the bytes: decoded again.
    changed = files
    changed[index].text += "\n# a comment\n"
    #expect(!(try PlanRules.load(files: changed, cached: entry, key: Self.key)).fromCache)
    // So do a renamed file, a missing file and an extra file.
    changed = files
    changed[index].name = changed[index].name.replacingOccurrences(of: "half.yaml", with: "half-marathon.yaml")
    #expect(!(try PlanRules.load(files: changed, cached: entry, key: Self.key)).fromCache)
    changed = files
    changed.append(TemplateFile(name: "plan-templates/extra.yaml", text: files[index].text))
    #expect(!(try PlanRules.load(files: changed, cached: entry, key: Self.key)).fromCache)
    changed = files
    changed.remove(at: index)
    #expect(throws: TemplateError.missingFile(name: "half.yaml", directory: "plan-templates")) {
      try PlanRules.load(files: changed, cached: entry, key: Self.key)
    }
  }

  @Test func anotherKeyIsDecodedAgain() throws {
    let files = try templateFiles()
    let entry = try Self.entry(files: files)
    let loaded = try PlanRules.load(files: files, cached: entry, key: Self.key + " rebuilt")
    #expect(!loaded.fromCache)
    #expect(loaded.newEntry != nil)
    #expect(PlanRules.cacheEntryName(files: files, key: "a") != PlanRules.cacheEntryName(files: files, key: "b"))
  }

  @Test func corruptOrForeignEntriesAreIgnored() throws {
    let files = try templateFiles()
    let entry = try Self.entry(files: files)
    let text = String(decoding: entry, as: UTF8.self)
    let bad: [(String, Data)] = [
      ("empty", Data()),
      ("truncated", entry.prefix(entry.count / 2)),
      ("binary", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 151) })),
      ("other JSON", Data(#"{"format": 1, "key": "x"}"#.utf8)),
      ("a list", Data("[1, 2, 3]".utf8)),
      ("another format", Data(text.replacingOccurrences(of: #""format":1"#, with: #""format":2"#).utf8)),
      // Texts that match but rules outside the checked ranges (hand-edited): the checks run on a hit too.
      (
        "rules out of range",
        Data(text.replacingOccurrences(of: #""spikeFactor":1.1"#, with: #""spikeFactor":9"#).utf8)
      ),
    ]
    #expect(text.contains(#""format":1"#) && text.contains(#""spikeFactor":1.1"#), "entry layout changed; fix the test")
    let expected = try PlanRules(files: files)
    for (what, data) in bad {
      let loaded = try PlanRules.load(files: files, cached: data, key: Self.key)
      #expect(!loaded.fromCache, "\(what)")
      #expect(loaded.newEntry != nil, "\(what)")
      #expect(Self.sameRules(loaded.rules, expected), "\(what)")
    }
  }

  struct Broken: Sendable, CustomTestStringConvertible {
    var file: String
    var find: String
    var replace: String
    var testDescription: String { "\(file): \(replace)" }
  }

  static let broken: [Broken] = [
    Broken(file: "half.yaml", find: "    peakWeeklyKm: 38", replace: "    peakWeeklyKm: lots"),
    Broken(file: "half.yaml", find: "    peakWeeklyKm: 38", replace: "    peakWeeklyKm: 900"),
    Broken(file: "half.yaml", find: "    runsPerWeek: 4\n", replace: "    runsPerWeek: 4\n    runsPerWek: 4\n"),
    Broken(file: "base.yaml", find: "  spikeFactor: 1.10", replace: "  spikeFactor: 1.5"),
    Broken(
      file: "10k.yaml", find: "  beginner: {recommended: 8, absolute: 5}",
      replace: "  beginner: {recommended: 8, absolute: 5"),
  ]

  /// Broken templates throw what they throw without a cache, whatever entry is given, and leave no entry.
  @Test(arguments: broken)
  func brokenTemplatesFailAsWithoutCache(_ broken: Broken) throws {
    let files = try templateFiles()
    let entry = try Self.entry(files: files)
    let index = try #require(files.firstIndex { $0.name.hasSuffix("/\(broken.file)") })
    var edited = files
    #expect(edited[index].text.contains(broken.find))
    edited[index].text = edited[index].text.replacingOccurrences(of: broken.find, with: broken.replace)
    var uncached: TemplateError?
    do {
      _ = try PlanRules(files: edited)
    } catch {
      uncached = error
    }
    let expected = try #require(uncached)
    for cached in [nil, entry] {
      #expect(throws: expected) { try PlanRules.load(files: edited, cached: cached, key: Self.key) }
    }
  }
}
