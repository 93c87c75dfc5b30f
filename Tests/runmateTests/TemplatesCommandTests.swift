import Foundation
import RunMateTestSupport
import Testing

/// `runmate templates check` on real files: the shipped ones pass, broken copies fail with the file, the key
/// path, the value and what is allowed (exit 65), and a plan made from a broken directory fails the same way.
@Suite(.tags(.endToEnd)) struct TemplatesCommandTests {
  @Test func shippedTemplatesPass() throws {
    let result = try runmate(["templates", "check", "plan-templates"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "ok: plan-templates: 7 files, 5 distances, 15 workouts\n")
  }

  @Test func listShowsEveryDistanceAndLevel() throws {
    let result = try runmate(["templates", "list", "--templates", "plan-templates"])
    #expect(result.status == 0)
    for distance in ["5k", "10k", "15k", "half", "marathon"] {
      #expect(result.stdout.contains("\n\(distance) "), "\(distance) missing")
    }
    #expect(result.stdout.contains("half      beginner      8/12"))
  }

  struct Broken: CustomTestStringConvertible, Sendable {
    var file: String
    var find: String
    var replace: String
    var message: String
    var testDescription: String { "\(file): \(replace)" }
  }

  static let broken: [Broken] = [
    Broken(
      file: "half.yaml", find: "    peakWeeklyKm: 38", replace: "    peakWeeklyKm: lots",
      message: "half.yaml: levels.beginner.peakWeeklyKm: 'lots' is wrong, allowed is a number"),
    Broken(
      file: "half.yaml", find: "    peakWeeklyKm: 38", replace: "    peakWeeklyKm: 900",
      message: "half.yaml: levels.beginner.peakWeeklyKm: '900' is wrong, allowed is km from 20 to 250"),
    Broken(
      file: "half.yaml", find: "    peakWeeklyKm: 38", replace: "    peakWeeklyKM: 38",
      message: "half.yaml: levels.beginner.peakWeeklyKm: missing, this key is required"),
    Broken(
      file: "half.yaml",
      find: "    runsPerWeek: 4\n    workouts:\n      base: [strides]\n      build: [tempo, fartlek, hills]",
      replace:
        "    runsPerWeek: 4\n    runsPerWek: 4\n    workouts:\n      base: [strides]\n      build: [tempo, fartlek, hills]",
      message: "half.yaml: levels.beginner.runsPerWek: unknown key (did you mean 'runsPerWeek'?)"),
    Broken(
      file: "half.yaml", find: "      build: [tempo, fartlek, hills]", replace: "      build: [tempo, fartleck, hills]",
      message:
        "half.yaml: levels.beginner.workouts.build[1]: 'fartleck' (did you mean 'fartlek'?) is wrong, allowed is "
        + "a workout id from workouts.yaml: cruise-intervals, easy-repetitions, fartlek, hills, intervals-1000, "
        + "intervals-800, marathon-pace, race-pace-long, race-pace-pickups, race-pace-short, race-pace-touches, "
        + "repetitions-200, repetitions-400, strides, tempo"),
    Broken(
      file: "5k.yaml", find: "      build: [easy-repetitions, fartlek, strides, tempo, hills]",
      replace: "      build: [intervals-800]",
      message:
        "5k.yaml: levels.beginner.workouts.build[0]: 'intervals-800' (intervals) is wrong, allowed is kinds allowed "
        + "for beginner in base.yaml: strides, fartlek, tempo, hills"),
    Broken(
      file: "base.yaml", find: "  spikeFactor: 1.10", replace: "  spikeFactor: 1.5",
      message: "base.yaml: longRun.spikeFactor: '1.5' is wrong, allowed is from 1 to 1.3"),
    Broken(
      file: "base.yaml", find: "      - {offset: -3, role: easy}\n      - {offset: 0, role: long}\n  - runs: 4",
      replace: "      - {offset: -1, role: quality}\n      - {offset: 0, role: long}\n  - runs: 4",
      message: "base.yaml: weeklyPatterns[0].days: hard days on offsets -1 and 0 is wrong, allowed is no two hard days "
        + "(long, quality) on consecutive days"),
    Broken(
      file: "workouts.yaml", find: "    recovery: {ofWork: 0.75}\n    purpose: raise VO2max\n  intervals-1000:",
      replace: "    recovery: {ofWork: 1.5}\n    purpose: raise VO2max\n  intervals-1000:",
      message:
        "workouts.yaml: workouts.intervals-800.recovery: a recovery longer than the work bout is wrong, allowed is "
        + "recoveries no longer than the work (ofWork ≤ 1, or the same unit and no more)"),
    Broken(
      file: "workouts.yaml", find: "    kind: tempo\n    zone: T\n    name: Tempo run",
      replace: "    kind: tempoo\n    zone: T\n    name: Tempo run",
      message:
        "workouts.yaml: workouts.tempo.kind: 'tempoo' is wrong, allowed is easy, recovery, long, medium-long, tempo, intervals, "
        + "hills, fartlek, strides, race, cross-training, strength"),
    Broken(
      file: "marathon.yaml", find: "schemaVersion: 1", replace: "schemaVersion: 2",
      message: "marathon.yaml: schemaVersion: '2' is wrong, allowed is 1"),
    Broken(
      file: "10k.yaml", find: "  beginner: {recommended: 8, absolute: 5}",
      replace: "  beginner: {recommended: 8, absolute: 5",
      message: "10k.yaml:6:15: YAML syntax error: while parsing a flow mapping did not find expected ',' or '}'"),
    // Yams describes a duplicate key in several lines quoting the document: one line here, at the first of the two.
    Broken(
      file: "base.yaml", find: "maxWeeks: 40", replace: "maxWeeks: 40\nschemaVersion: 1",
      message: "base.yaml:2:1: YAML syntax error: duplicate key 'schemaVersion' in this mapping, allowed is each "
        + "key once"),
    Broken(
      file: "10k.yaml", find: "  beginner: {recommended: 8, absolute: 5}",
      replace: "  beginner: {recommended: 8, absolute: 5, absolute: 6}",
      message: "10k.yaml:5:30: YAML syntax error: duplicate key 'absolute' in this mapping, allowed is each key "
        + "once"),
  ]

  @Test(arguments: broken)
  func brokenTemplatesAreReportedWithFileKeyPathValueAndAllowed(_ broken: Broken) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var edited = false
    try copyTemplates(to: directory, editing: broken.file) { text in
      edited = text.contains(broken.find)
      return text.replacingOccurrences(of: broken.find, with: broken.replace)
    }
    #expect(edited, "fixture text not found in \(broken.file)")
    let check = try runmate(["templates", "check", directory.path])
    #expect(check.status == 65)
    #expect(check.stderr == "runmate: \(directory.path)/\(broken.message)\n")
    #expect(check.stdout.isEmpty)

    let plan = try runmate([
      "plan", "--distance", "10k", "--level", "beginner", "--weeks", "10", "--now", "2026-11-21",
      "--templates", directory.path,
    ])
    #expect(plan.status == 65)
    #expect(plan.stderr == check.stderr)
  }

  @Test func missingFileIsNamed() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try copyTemplates(to: directory)
    try FileManager.default.removeItem(at: directory.appendingPathComponent("15k.yaml"))
    let result = try runmate(["templates", "check", directory.path])
    #expect(result.status == 66)
    #expect(result.stderr == "runmate: \(directory.path): 15k.yaml is missing, the rules need it\n")
  }
}
