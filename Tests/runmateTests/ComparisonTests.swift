import Foundation
import RunMateTestSupport
import RunningCore
import Testing

/// The comparison with published plans (docs/comparison.md, moved there from the README): the published rows are
/// data typed in with their sources; the RunningMate rows are the engine's own numbers, regenerated here from
/// `runmate plan … --format json` and compared with the document cell by cell.
/// `RUNMATE_UPDATE_COMPARISON=1` rewrites the RunningMate rows in docs/comparison.md instead of comparing (check the
/// diff).
@Suite(.tags(.endToEnd)) struct ComparisonTests {
  /// One RunningMate row: the runner it plans for and the table it belongs to.
  struct Case: CustomStringConvertible, Sendable {
    /// The table: `half` or `marathon` (also the `--distance`).
    var distance: String
    var weeks: Int
    var runsPerWeek: Int
    var currentKm: Int
    /// `--longest-recent-run-km`, nil for the engine's own estimate.
    var longestRecentRunKm: Int?

    /// The first cell of the row.
    var label: String {
      "RunningMate from \(currentKm) km (\(DistanceUnit.mi.format(Double(currentKm))))"
        + (longestRecentRunKm.map { ", longest recent run \($0) km" } ?? "")
    }

    /// The command docs/comparison.md shows for this row, word for word.
    var command: String {
      "runmate plan --distance \(distance) --level intermediate --weeks \(weeks) --runs-per-week \(runsPerWeek)"
        + " --current-weekly-km \(currentKm)"
        + (longestRecentRunKm.map { " --longest-recent-run-km \($0)" } ?? "")
        + " --recent-race 10k=50:00 --format json"
    }

    var description: String { "\(distance): \(label)" }
  }

  /// Every RunningMate row of the two tables, in the document's order.
  static let cases: [Case] = [
    Case(distance: "half", weeks: 12, runsPerWeek: 5, currentKm: 27, longestRecentRunKm: nil),
    Case(distance: "half", weeks: 12, runsPerWeek: 5, currentKm: 50, longestRecentRunKm: 16),
    Case(distance: "marathon", weeks: 18, runsPerWeek: 5, currentKm: 39, longestRecentRunKm: nil),
    Case(distance: "marathon", weeks: 18, runsPerWeek: 5, currentKm: 53, longestRecentRunKm: 19),
  ]

  /// The part of `runmate plan --format json` the figures read.
  struct Plan: Decodable {
    struct Week: Decodable {
      var number: Int
      var plannedKm: Double
      var workouts: [Workout]
    }
    struct Workout: Decodable {
      var date: CivilDate
      var kind: String
      var distanceKm: Double?
      var hard: Bool
      var steps: [Step]?
    }
    struct Step: Decodable {
      var zone: String
    }
    var weeks: [Week]

    static func decode(_ json: String) throws -> Plan {
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      return try decoder.decode(Plan.self, from: Data(json.utf8))
    }
  }

  /// The figures of one row, defined as the document's method says, from a plan's weeks.
  struct Figures: Equatable {
    var runsPerWeek: ClosedRange<Int>
    var firstWeekKm: Double
    var peakKm: Double
    var peakWeek: Int
    var longestKm: Double
    var longestCount: Int
    var longestLastDaysBeforeRace: Int
    /// Long runs at or over each threshold (miles: 10 for the half; 16, 18, 20 for the marathon).
    var longRunsAtLeast: [Int]
    var topLongRunShare: Double
    var qualityPerWeek: ClosedRange<Int>
    var qualityTotal: Int
    var longRunsWithFasterRunning: Int
    /// The last weeks' volumes (the race not counted) over the peak week: 2 for the half, 3 for the marathon.
    var lastWeeksOfPeak: [Double]

    /// Thresholds in miles for the long-run count of a table.
    static func thresholds(_ distance: String) -> [Double] { distance == "half" ? [10] : [16, 18, 20] }

    init(_ plan: Plan, distance: String) throws {
      let race = try #require(plan.weeks.last?.workouts.first { $0.kind == "race" }, "the last week has no race")
      let raceKm = race.distanceKm ?? 0
      let volumes = plan.weeks.enumerated().map { index, week in
        index == plan.weeks.count - 1 ? week.plannedKm - raceKm : week.plannedKm
      }
      let training = plan.weeks.dropLast()
      let peak = try #require(training.map(\.plannedKm).max())
      let longRuns = plan.weeks.flatMap { week in week.workouts.filter { $0.kind == "long" }.map { (week, $0) } }
      let longestRun = try #require(longRuns.map { $0.1.distanceKm ?? 0 }.max())
      let longest = longRuns.filter { abs(($0.1.distanceKm ?? 0) - longestRun) < 0.05 }
      let quality = plan.weeks.map { week in
        week.workouts.count { $0.hard && $0.kind != "long" && $0.kind != "race" }
      }
      runsPerWeek = try Self.range(plan.weeks.map { week in week.workouts.count { ($0.distanceKm ?? 0) > 0 } })
      firstWeekKm = volumes[0]
      peakKm = peak
      peakWeek = try #require(training.first { $0.plannedKm == peak }).number
      longestKm = longestRun
      longestCount = longest.count
      longestLastDaysBeforeRace = try #require(longest.map(\.1.date).max()).days(to: race.date)
      longRunsAtLeast = Self.thresholds(distance).map { miles in
        longRuns.count { ($0.1.distanceKm ?? 0) >= miles * DistanceUnit.mi.kilometers - 0.05 }
      }
      topLongRunShare = try #require(longRuns.map { ($0.1.distanceKm ?? 0) / $0.0.plannedKm }.max())
      qualityPerWeek = try Self.range(Array(quality.dropLast()))
      qualityTotal = quality.reduce(0, +)
      longRunsWithFasterRunning = longRuns.count { run in (run.1.steps ?? []).contains { $0.zone != "E" } }
      lastWeeksOfPeak = volumes.suffix(distance == "half" ? 2 : 3).map { $0 / peak }
    }

    static func range(_ values: [Int]) throws -> ClosedRange<Int> {
      try #require(values.min())...#require(values.max())
    }

    /// `28.5 km (17.7 mi)`.
    static func km(_ value: Double) -> String { "\(oneDecimal(value)) km (\(DistanceUnit.mi.format(value)))" }

    /// `47 %`.
    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }

    static func span(_ range: ClosedRange<Int>) -> String {
      range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
    }

    /// The row's cells after its label, in the document's column order.
    var cells: [String] {
      [
        Self.span(runsPerWeek),
        Self.km(firstWeekKm),
        "\(Self.km(peakKm)), week \(peakWeek)",
        "\(Self.km(longestKm)) × \(longestCount), last \(longestLastDaysBeforeRace) days before",
        longRunsAtLeast.map(String.init).joined(separator: " / "),
        Self.percent(topLongRunShare),
        "\(Self.span(qualityPerWeek)) (\(qualityTotal))",
        "\(longRunsWithFasterRunning)",
        lastWeeksOfPeak.map { "\(Int(($0 * 100).rounded()))" }.joined(separator: " / ") + " %",
      ]
    }
  }

  /// The document's row of `testCase`, regenerated from the engine.
  static func row(_ testCase: Case) throws -> String {
    let words = testCase.command.split(separator: " ").map(String.init)
    let result = try runmate(
      Array(words.dropFirst()),
      environment: ["RUNMATE_TEMPLATES": repositoryRoot.appendingPathComponent("plan-templates").path])
    try #require(result.status == 0, "\(testCase.command) exited \(result.status): \(result.stderr)")
    let figures = try Figures(try Plan.decode(result.stdout), distance: testCase.distance)
    return "| " + ([testCase.label] + figures.cells).joined(separator: " | ") + " |"
  }

  /// The lines of the document's table for `distance`, between `<!-- comparison: DISTANCE -->` and
  /// `<!-- /comparison: DISTANCE -->`, with their indices in `lines`.
  static func table(_ distance: String, in lines: [String]) throws -> Range<Int> {
    let start = try #require(lines.firstIndex(of: "<!-- comparison: \(distance) -->"), "no table for \(distance)")
    let end = try #require(lines.firstIndex(of: "<!-- /comparison: \(distance) -->"), "no end of \(distance)")
    try #require(start < end)
    return (start + 1)..<end
  }

  /// Where the comparison lives.
  static let document = "docs/comparison.md"

  @Test func theComparisonRowsAreTheEnginesNumbers() throws {
    let readmeURL = repositoryRoot.appendingPathComponent(Self.document)
    let readme = try String(contentsOf: readmeURL, encoding: .utf8)
    var lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let update = ProcessInfo.processInfo.environment["RUNMATE_UPDATE_COMPARISON"] == "1"
    for testCase in Self.cases {
      let expected = try Self.row(testCase)
      let range = try Self.table(testCase.distance, in: lines)
      let index = try #require(
        lines[range].firstIndex { $0.hasPrefix("| \(testCase.label) |") },
        "\(Self.document) has no row \"\(testCase.label)\" in the \(testCase.distance) table")
      if update {
        lines[index] = expected
      } else {
        #expect(lines[index] == expected, "\(Self.document):\(index + 1): \(testCase) is now\n\(expected)")
      }
    }
    if update {
      try lines.joined(separator: "\n").write(to: readmeURL, atomically: true, encoding: .utf8)
    }
    for distance in ["half", "marathon"] {
      let ours = try lines[Self.table(distance, in: lines)].filter { $0.hasPrefix("| RunningMate") }
      let known = Self.cases.filter { $0.distance == distance }.map { "| \($0.label) |" }
      #expect(
        ours.allSatisfy { row in known.contains { row.hasPrefix($0) } },
        "the \(distance) table has a RunningMate row no case regenerates: \(ours)")
    }
  }

  @Test func theComparisonShowsTheCommandsItRuns() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent(Self.document), encoding: .utf8)
    for testCase in Self.cases {
      #expect(readme.contains(testCase.command), "\(Self.document) does not show `\(testCase.command)`")
    }
  }

  /// The figures of a small hand-made plan, worked out by hand: they check the definitions, not the engine.
  @Test func figuresFollowTheirDefinitions() throws {
    let json = """
      {"weeks": [
        {"number": 1, "planned_km": 30, "workouts": [
          {"date": "2026-01-06", "kind": "tempo", "distance_km": 8, "hard": true},
          {"date": "2026-01-08", "kind": "easy", "distance_km": 10, "hard": false},
          {"date": "2026-01-11", "kind": "long", "distance_km": 12, "hard": true,
           "steps": [{"zone": "E"}]}]},
        {"number": 2, "planned_km": 40, "workouts": [
          {"date": "2026-01-13", "kind": "intervals", "distance_km": 8, "hard": true},
          {"date": "2026-01-14", "kind": "hills", "distance_km": 6, "hard": true},
          {"date": "2026-01-15", "kind": "strides", "distance_km": 6, "hard": false},
          {"date": "2026-01-16", "kind": "cross-training", "hard": false},
          {"date": "2026-01-18", "kind": "long", "distance_km": 20, "hard": true,
           "steps": [{"zone": "E"}, {"zone": "M"}]}]},
        {"number": 3, "planned_km": 36, "workouts": [
          {"date": "2026-01-20", "kind": "easy", "distance_km": 8, "hard": false},
          {"date": "2026-01-25", "kind": "long", "distance_km": 20, "hard": true, "steps": [{"zone": "E"}]}]},
        {"number": 4, "planned_km": 30, "workouts": [
          {"date": "2026-01-27", "kind": "tempo", "distance_km": 6, "hard": true},
          {"date": "2026-02-01", "kind": "race", "distance_km": 21.1, "hard": true}]}
      ]}
      """
    let figures = try Figures(try Plan.decode(json), distance: "half")
    #expect(figures.runsPerWeek == 2...4)
    #expect(figures.firstWeekKm == 30)
    #expect(figures.peakKm == 40 && figures.peakWeek == 2)
    #expect(figures.longestKm == 20 && figures.longestCount == 2 && figures.longestLastDaysBeforeRace == 7)
    #expect(figures.longRunsAtLeast == [2])  // 10 mi is 16.1 km: the two 20 km runs
    #expect(isClose(figures.topLongRunShare, 20.0 / 36, relative: 1e-12))
    #expect(figures.qualityPerWeek == 0...2 && figures.qualityTotal == 4)
    #expect(figures.longRunsWithFasterRunning == 1)
    #expect(figures.lastWeeksOfPeak.count == 2)
    #expect(isClose(figures.lastWeeksOfPeak[0], 36.0 / 40, relative: 1e-12))
    #expect(isClose(figures.lastWeeksOfPeak[1], (30 - 21.1) / 40, relative: 1e-12))
    #expect(figures.cells[3] == "20 km (12.4 mi) × 2, last 7 days before")
    #expect(figures.cells[8] == "90 / 22 %")
  }
}
