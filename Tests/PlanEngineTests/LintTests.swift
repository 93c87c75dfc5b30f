import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// A week from `(day, km, kind)` sessions, Monday first.
private func week(_ runs: (Int, Double, LintKind)...) -> LintWeek {
  LintWeek(runs: runs.map { LintRun(day: $0.0, km: $0.1, kind: $0.2) })
}

/// Tue quality, Thu easy, Sun long: `quality + easy + long` km.
private func simple(_ quality: Double, _ easy: Double, _ long: Double) -> LintWeek {
  week((1, quality, .quality), (3, easy, .easy), (6, long, .long))
}

private func findings(_ weeks: [LintWeek], _ rule: LintRule, distance: RaceDistance? = nil, level: Level? = nil)
  -> [LintFinding]
{
  lint(LintPlan(name: "test", weeks: weeks, distance: distance, level: level), rules: repositoryRules)
    .filter { $0.rule == rule }
}

/// Each rule on a small plan that breaks it and one that does not.
@Suite("Lint: the rules")
struct LintRuleTests {
  @Test func rampIsMeasuredAgainstTheLastFullWeek() {
    // 30 → 40 km: +33 %, the ramp allows 33 km (+10 %, under 1.6 km × 3 runs).
    let broken = findings([simple(8, 6, 16), simple(10, 10, 20)], .ramp)
    #expect(broken.map(\.week) == [2])
    #expect(broken.first?.limit == 33)
    #expect(broken.first?.line.contains("the ramp allows 33.0 km") == true, "\(broken)")
    #expect(findings([simple(8, 6, 16), simple(9, 6, 18)], .ramp).isEmpty)
    // 30, 32, 24 (cut-back), 33: the week after the cut-back is measured against week 2, not week 3.
    #expect(findings([simple(8, 6, 16), simple(8, 7, 17), simple(6, 5, 13), simple(8, 7, 18)], .ramp).isEmpty)
  }

  @Test func longRunSpikeGuard() {
    let weeks = [simple(6, 6, 15), simple(6, 6, 15), simple(6, 6, 15), simple(6, 6, 15)]
    let broken = findings(weeks + [simple(7, 7, 19.3)], .longRunSpike)
    #expect(broken.count == 1)
    #expect(
      broken.first?.line
        == "week 5 Sun: long run 19.3 km is 1.29 × the longest of the previous 4 weeks (15.0 km); the spike guard "
        + "allows 16.5 km; cap it at 16.5 km and reach 19.3 km a week or two later")
    #expect(findings(weeks + [simple(7, 7, 16.5)], .longRunSpike).isEmpty)
    // A cut-back week and the week after it: 16, 16, 12, 17 is no spike (the lookback reaches the full weeks).
    #expect(findings([simple(6, 6, 16), simple(6, 6, 16), simple(5, 5, 12), simple(6, 6, 17)], .longRunSpike).isEmpty)
  }

  @Test func cutbackRhythm() {
    let rising = (0..<6).map { simple(8, 6, 14 + Double($0)) }
    let broken = findings(rising, .cutback, level: .intermediate)
    #expect(broken.map(\.week) == [5], "\(broken)")
    var rhythm = rising
    rhythm[3] = simple(6, 5, 12)
    #expect(findings(rhythm, .cutback, level: .intermediate).isEmpty)
    // Beginners cut back every third week.
    #expect(findings(Array(rising.prefix(4)), .cutback, level: .beginner).map(\.week) == [4])
  }

  @Test func taperShares() {
    // Marathon: [0.75, 0.6, 0.35] of the peak (40 km); race week counts the running before race day.
    let build = (0..<3).map { _ in simple(10, 10, 20) }
    let race = week((1, 6, .quality), (3, 5, .easy), (6, 42.2, .race))
    let flat = findings(build + [simple(10, 10, 20), simple(10, 10, 20), race], .taper, distance: .marathon)
    #expect(flat.map(\.week) == [4, 5], "\(flat)")
    #expect(flat.first?.limit == 0.75)
    let tapered = build + [simple(8, 6, 16), simple(6, 5, 13), race]
    #expect(findings(tapered, .taper, distance: .marathon).isEmpty)
    // No distance, no taper rule.
    #expect(findings(build + [simple(10, 10, 20), simple(10, 10, 20), race], .taper).isEmpty)
  }

  @Test func longRunAgainstTheOtherRuns() {
    let broken = findings([simple(8, 10, 12)], .longRunRatio)
    #expect(broken.count == 1 && broken.first?.day == "Sun", "\(broken)")
    #expect(findings([simple(8, 10, 14)], .longRunRatio).isEmpty)
  }

  @Test func longRunShareOfTheWeek() {
    #expect(findings([simple(3, 3, 14)], .longRunShare).map(\.week) == [1])
    #expect(findings([simple(8, 6, 14)], .longRunShare).isEmpty)
  }

  @Test func hardDaysBackToBack() {
    let saturday = findings([week((3, 6, .easy), (5, 8, .quality), (6, 16, .long))], .adjacentHardDays)
    #expect(saturday.map(\.day) == ["Sun"], "\(saturday)")
    #expect(findings([simple(8, 6, 16)], .adjacentHardDays).isEmpty)
    // Across weeks: Sunday's long run, then Monday's quality.
    let across = findings([simple(8, 6, 16), week((0, 8, .quality), (3, 6, .easy), (6, 16, .long))], .adjacentHardDays)
    #expect(across.map(\.week) == [2] && across.first?.day == "Mon", "\(across)")
  }

  @Test func mediumLongBetweenHardDays() {
    // The review's week 7: Tue 3 × 1 km, Wed 17.5 km, Thu tempo, Sun 28 km.
    let broken = week(
      (0, 8, .easy), (1, 10, .quality), (2, 17.5, .easy), (3, 11, .quality), (5, 6, .easy), (6, 28, .long))
    #expect(findings([broken], .mediumLongBetweenHardDays).map(\.day) == ["Wed"])
    let moved = week(
      (1, 10, .quality), (2, 8, .easy), (3, 11, .quality), (4, 17.5, .easy), (5, 6, .easy), (6, 28, .long))
    #expect(findings([moved], .mediumLongBetweenHardDays).isEmpty)
    // Under 12 km it is an easy run like the others.
    let short = week(
      (0, 8, .easy), (1, 10, .quality), (2, 11.5, .easy), (3, 11, .quality), (5, 6, .easy), (6, 28, .long))
    #expect(findings([short], .mediumLongBetweenHardDays).isEmpty)
  }

  @Test func runsUnderTheMinimum() {
    #expect(findings([week((1, 8, .quality), (3, 1.5, .easy), (6, 16, .long))], .shortRun).map(\.day) == ["Thu"])
    #expect(findings([week((1, 8, .quality), (3, 2, .easy), (6, 16, .long))], .shortRun).isEmpty)
  }
}

/// The readers: calendar-hack's YAML schema (our own fixtures) and runmate's plan JSON.
@Suite("Lint: reading plans")
struct LintReaderTests {
  @Test func calendarHackInMiles() throws {
    let text = try String(contentsOf: fixtureURL("lint-10k-miles.yaml"), encoding: .utf8)
    let plan = try LintPlan(text: text, name: "lint-10k-miles.yaml")
    #expect(plan.name == "Lint fixture: 10K in miles")
    #expect(plan.distance == .tenK)
    #expect(plan.weeks.count == 6)
    let first = plan.weeks[0]
    #expect(first.runs.map(\.kind) == [.rest, .easy, .cross, .quality, .rest, .easy, .long])
    #expect(abs(first.runningKm - 13 * 1.609344) < 0.001)
    #expect(plan.weeks[5].runs.last?.kind == .race)
    #expect(plan.weeks[2].runs[3].kind == .quality)
    let found = lint(plan, rules: repositoryRules)
    let spike = try #require(found.first { $0.rule == .longRunSpike })
    #expect(spike.week == 4 && spike.day == "Sun")
    #expect(spike.line.hasPrefix("week 4 Sun: long run 8.9 km is 1.38 × the longest of the previous 3 weeks (6.4 km)"))
  }

  @Test func calendarHackInKilometresWithTags() throws {
    let text = try String(contentsOf: fixtureURL("lint-half-km.yaml"), encoding: .utf8)
    let plan = try LintPlan(text: text, name: "lint-half-km.yaml")
    #expect(plan.distance == .half)
    #expect(plan.weeks[0].runs.map(\.kind) == [.rest, .easy, .quality, .easy, .rest, .cross, .long])
    #expect(plan.weeks[0].runs[3].km == 6)  // [5, 6]: the most the plan asks for
    #expect(plan.weeks[6].runs.last?.kind == .race)
    #expect(lint(plan, rules: repositoryRules) == [])
    // --distance overrides the plan's type.
    #expect(try LintPlan(text: text, name: "x", distance: .marathon).distance == .marathon)
  }

  @Test func badFilesNameWhatWasExpected() {
    #expect(throws: LintReadError.self) { try LintPlan(text: "hello: world\n", name: "x") }
    do {
      _ = try LintPlan(text: "units: yards\nschedule: []\n", name: "x")
      Issue.record("read")
    } catch {
      #expect(error.description.contains("units is 'yards', allowed is mi or km"), "\(error)")
    }
    do {
      _ = try LintPlan(text: "units: km\nschedule:\n- workouts:\n  - title: Rest\n", name: "x")
      Issue.record("read")
    } catch {
      #expect(error.description.contains("schedule[0] has 1 workouts, allowed is 7"), "\(error)")
    }
  }

  @Test func runmatePlanJSON() throws {
    let plan = try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(plan), as: UTF8.self)
    let read = try LintPlan(text: text, name: "half.json")
    #expect(read == LintPlan(plan))
    #expect(read.distance == .half && read.level == .intermediate)
    #expect(read.weeks.count == 12)
    let runs = plan.weeks[0].workouts.filter(\.kind.isRun).map(\.distanceKm).reduce(0, +)
    #expect(abs(read.weeks[0].runningKm - runs) < 0.001)
  }
}

/// The engine's default plans, one per distance × level, through the linter.
@Suite("Lint: the engine's default plans")
struct LintDefaultPlanTests {
  static func report() throws -> [String] {
    var lines: [String] = []
    for distance in RaceDistance.allCases {
      for level in Level.allCases {
        guard let rules = repositoryRules.rules(for: distance) else { continue }
        let weeks = rules.minimumWeeks[level].recommended
        let plan = try makePlan(goal: goal(distance, level, weeks: weeks), rules: repositoryRules)
        for finding in lint(LintPlan(plan), rules: repositoryRules) {
          lines.append(
            "\(distance.rawValue) \(level.rawValue) \(weeks) weeks: \(finding.rule.rawValue): \(finding.line)")
        }
      }
    }
    return lines
  }

  /// Every default plan (distance × level at its recommended length) is clean by the linter's rules.
  @Test
  func defaultPlansAreClean() throws {
    let lines = try Self.report()
    #expect(lines.isEmpty, "\(lines.count) findings:\n\(lines.joined(separator: "\n"))")
  }
}

/// Issue 44: a calendar-hack YAML plan gets the templates' limits (``TemplateLimits``), where a million aliases took
/// `lint` past 60 s and 475 MB.
@Suite struct LintLimitsTests {
  @Test(.timeLimit(.minutes(1))) func aCalendarHackAliasBombIsRefusedAtOnce() {
    // Ten levels of ten aliases each: 10^10 scalars once expanded, a few hundred bytes as written.
    var lines = ["a0: &a0 [\"x\"]"]
    for level in 1...10 {
      let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      lines.append("a\(level): &a\(level) [\(refs)]")
    }
    lines.append("units: km")
    lines.append("schedule: [{workouts: *a10}]")
    let started = ContinuousClock.now
    do {
      _ = try LintPlan(text: lines.joined(separator: "\n"), name: "bomb.yaml")
      Issue.record("an alias bomb was read")
    } catch {
      #expect(error.reason.contains("a YAML alias bomb?"), "\(error)")
    }
    #expect(started.duration(to: .now) < .seconds(5))
    let big = "units: km\n# " + String(repeating: "x", count: TemplateLimits.maximumFileBytes) + "\n"
    #expect(throws: LintReadError.self) { try LintPlan(text: big, name: "big.yaml") }
  }
}
