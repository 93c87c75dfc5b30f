import Foundation
import RunMateTestSupport
import Testing

/// `runmate lint FILE`, the real binary: plans the engine wrote, calendar-hack fixtures, broken and missing files.
@Suite(.tags(.endToEnd)) struct LintCommandTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/PlanEngineTests/Fixtures")

  @Test func aPlanTheEngineWrote() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try runmate([
      "plan", "--distance", "half", "--level", "intermediate", "--weeks", "12", "--start", "2027-01-04",
      "--now", "2027-01-01", "--format", "json",
    ])
    #expect(plan.status == 0, "\(plan.stderr)")
    let file = directory.appendingPathComponent("half.json")
    try plan.stdout.write(to: file, atomically: true, encoding: .utf8)
    let text = try runmate(["lint", file.path])
    #expect([0, 1].contains(text.status), "\(text.stderr)")
    let summary = try #require(text.stdout.split(separator: "\n").last.map(String.init))
    #expect(summary.hasPrefix("half intermediate 12 weeks: "), "\(text.stdout)")
    #expect((text.status == 0) == summary.contains("clean"))
    let json = try runmate(["lint", file.path, "--format", "json"])
    #expect(json.status == text.status)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["schema"] as? String == "runmate.lint/1")
    #expect(object["distance"] as? String == "half")
    #expect(object["weeks"] as? Int == 12)
    let findings = try #require(object["findings"] as? [[String: Any]])
    #expect(findings.count == text.stdout.split(separator: "\n").filter { $0.hasPrefix("week ") }.count)
  }

  @Test func anExportedPlan() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let env = try PlanShareTests.savedPlan(in: directory)
    let file = directory.appendingPathComponent("spring.json")
    let exported = try runmate(
      ["plans", "export", "spring", "--out", file.path, "--now", "2027-01-04T06:30:00Z"], environment: env)
    #expect(exported.status == 0, "\(exported.stderr)")
    let result = try runmate(["lint", file.path, "--format", "json"])
    #expect([0, 1].contains(result.status), "\(result.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["distance"] as? String == "10k")
    #expect(object["plan"] as? String == "10k intermediate 10 weeks")
  }

  @Test func aCalendarHackPlanWithFindings() throws {
    let result = try runmate(["lint", LintCommandTests.fixtures.appendingPathComponent("lint-10k-miles.yaml").path])
    #expect(result.status == 1, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix(
          "week 4 Sun: long run 8.9 km is 1.38 × the longest of the previous 3 weeks (6.4 km); the spike "
            + "guard allows 7.1 km")
      }, "\(result.stdout)")
    #expect(lines.contains { $0.hasPrefix("week 4: running 23.3 km is 12 % over the last full week (week 2") })
    #expect(lines.dropLast().last?.hasPrefix("Lint fixture: 10K in miles: ") == true, "\(result.stdout)")
    #expect(result.stderr.isEmpty)
  }

  @Test func aCleanCalendarHackPlan() throws {
    let result = try runmate(["lint", LintCommandTests.fixtures.appendingPathComponent("lint-half-km.yaml").path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == "Lint fixture: half in km: clean: 7 weeks, no findings\n")
  }

  @Test func filesThatAreNotPlans() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let notes = directory.appendingPathComponent("notes.txt")
    try "just some notes\n".write(to: notes, atomically: true, encoding: .utf8)
    let bad = try runmate(["lint", notes.path])
    #expect(bad.status == 65)
    #expect(bad.stdout.isEmpty)
    #expect(bad.stderr.hasPrefix("runmate: \(notes.path): not a plan the linter reads: expected a runmate plan"))
    #expect(bad.stderr.split(separator: "\n").count == 1)
    let missing = try runmate(["lint", directory.appendingPathComponent("nope.yaml").path])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("nope.yaml: no such file"), "\(missing.stderr)")
    let distance = try runmate(
      ["lint", LintCommandTests.fixtures.appendingPathComponent("lint-half-km.yaml").path, "--distance", "50k"])
    #expect(distance.status == 64, "\(distance.stderr)")
    #expect(distance.stderr.contains("--distance"))
  }
}
