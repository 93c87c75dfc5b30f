import Foundation
import RunMateTestSupport
import Testing

/// Every `examples/**/NAME.cmd` is re-run with the real binary and compared byte for byte with `NAME.out`.
/// `RUNMATE_UPDATE_GOLDENS=1` rewrites the outputs instead (review the diff before committing).
@Suite(.tags(.endToEnd)) struct ExamplesTests {
  static let commands: [String] = {
    let examples = repositoryRoot.appendingPathComponent("examples")
    let enumerator = FileManager.default.enumerator(atPath: examples.path)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
      if path.hasSuffix(".cmd") { found.append(path) }
    }
    return found.sorted()
  }()

  @Test func thereAreExamples() {
    #expect(Self.commands.count >= 5)
  }

  @Test(arguments: commands)
  func exampleOutputIsCurrent(_ command: String) throws {
    let examples = repositoryRoot.appendingPathComponent("examples")
    let commandURL = examples.appendingPathComponent(command)
    let line = try String(contentsOf: commandURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let arguments = line.split(separator: " ").map(String.init)
    let result = try runmate(arguments)
    #expect(result.status == 0, "\(command): \(result.stderr)")
    // `NAME.cmd` prints `NAME.out`; `NAME.ics.cmd` prints `NAME.ics`.
    var outputURL = commandURL.deletingPathExtension()
    if outputURL.pathExtension.isEmpty { outputURL = outputURL.appendingPathExtension("out") }
    if ProcessInfo.processInfo.environment["RUNMATE_UPDATE_GOLDENS"] == "1" {
      try result.stdout.write(to: outputURL, atomically: true, encoding: .utf8)
      return
    }
    if outputURL.pathExtension == "ics" {
      // VTIMEZONE bytes come from the machine's tzdata: compare everything else byte for byte, and the zones by name.
      let expected = try String(contentsOf: outputURL, encoding: .utf8)
      expectSameText(
        withoutTimeZones(result.stdout), withoutTimeZones(expected),
        "\(command)'s output (VTIMEZONE blocks left out)")
      #expect(timeZoneIDs(result.stdout) == timeZoneIDs(expected))
      return
    }
    try expectMatchesGolden(result.stdout, outputURL)
  }

  /// The text with every VTIMEZONE block removed.
  func withoutTimeZones(_ ics: String) -> String {
    var keep: [Substring] = []
    var inside = false
    for line in ics.split(separator: "\r\n", omittingEmptySubsequences: false) {
      if line == "BEGIN:VTIMEZONE" { inside = true }
      if !inside { keep.append(line) }
      if line == "END:VTIMEZONE" { inside = false }
    }
    return keep.joined(separator: "\n")
  }

  /// The TZIDs of the VTIMEZONE blocks.
  func timeZoneIDs(_ ics: String) -> [String] {
    var ids: [String] = []
    var inside = false
    for line in ics.split(separator: "\r\n") {
      if line == "BEGIN:VTIMEZONE" { inside = true }
      if inside && line.hasPrefix("TZID:") { ids.append(String(line.dropFirst(5))) }
      if line == "END:VTIMEZONE" { inside = false }
    }
    return ids
  }
}

/// The same inputs give byte-identical output, run after run.
@Suite(.tags(.endToEnd)) struct DeterminismTests {
  @Test func sameInputsSameBytes() throws {
    let arguments = [
      "plan", "--distance", "marathon", "--level", "intermediate", "--weeks", "18", "--recent-race",
      "half=1:45:00", "--now", "2026-11-21", "--format", "json",
    ]
    let first = try runmate(arguments)
    let second = try runmate(arguments)
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    #expect(first.stdout.count > 10_000)
  }

  @Test func sourceDateEpochFixesToday() throws {
    // 1795219200 = 2026-11-21T00:00:00Z: the same plan as --now 2026-11-21.
    let arguments = ["plan", "--distance", "10k", "--level", "beginner", "--weeks", "10", "--format", "json"]
    let withEpoch = try runmate(arguments, environment: ["SOURCE_DATE_EPOCH": "1795219200"])
    let withNow = try runmate(arguments + ["--now", "2026-11-21"])
    #expect(withEpoch.status == 0)
    #expect(withEpoch.stdout == withNow.stdout)
  }

  @Test func jsonFollowsThePlanContract() throws {
    let result = try runmate([
      "plan", "--distance", "half", "--level", "beginner", "--weeks", "12", "--now", "2026-11-21",
      "--format", "json", "--units", "mi",
    ])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["schema"] as? String == "runmate.plan/1")
    #expect((json["id"] as? String)?.hasPrefix("rm-") == true)
    let goal = try #require(json["goal"] as? [String: Any])
    #expect(goal["distance"] as? String == "half")
    #expect(goal["distance_km"] as? Double == 21.0975)
    #expect(goal["level"] as? String == "beginner")
    #expect(goal["weeks"] as? Int == 12)
    #expect(goal["start"] as? String == "2026-11-23")
    #expect(goal["race_date"] as? String == "2027-02-14")
    #expect(goal["runs_per_week"] as? Int == 4)
    #expect(json["warnings"] is [String])
    let weeks = try #require(json["weeks"] as? [[String: Any]])
    #expect(weeks.count == 12)
    let week = weeks[0]
    for key in ["number", "phase", "start", "planned_km", "cutback", "rules", "workouts"] {
      #expect(week[key] != nil, "week key \(key)")
    }
    let workouts = try #require(week["workouts"] as? [[String: Any]])
    let plannedKm = try #require(week["planned_km"] as? Double)
    let sum = workouts.compactMap { $0["distance_km"] as? Double }.reduce(0, +)
    #expect(abs(sum - plannedKm) < 0.051)  // planned_km is the sum of the week's workouts, in km even with --units mi
    for workout in workouts {
      for key in ["id", "date", "kind", "distance_km", "duration_min", "hard", "title", "description", "steps"] {
        #expect(workout[key] != nil, "workout key \(key)")
      }
      let steps = try #require(workout["steps"] as? [[String: Any]])
      for step in steps {
        for key in ["kind", "distance_km", "duration_min", "repeat"] { #expect(step[key] != nil, "step key \(key)") }
        #expect(["warmup", "work", "recovery", "cooldown"].contains(step["kind"] as? String ?? ""))
      }
    }
  }
}
