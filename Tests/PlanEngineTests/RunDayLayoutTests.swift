import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

/// Plans laid on the runner's run days (issue 11, week structure): every run on a run day, the long run on the
/// long-run day, the week-structure rules on the real days, and the goal without run days unchanged.
@Suite("RunDayLayout: weeks laid on the runner's days")
struct RunDayLayoutTests {
  /// Run-day sets, awkward ones included.
  static let daySets: [[Weekday]] = [
    [.saturday, .sunday, .monday],
    [.monday, .tuesday, .wednesday, .thursday, .friday],
    Weekday.allCases,
    [.tuesday, .thursday, .saturday, .sunday],
    [.monday, .wednesday, .friday, .sunday],
    [.monday, .tuesday, .wednesday],
    [.wednesday, .thursday, .friday, .saturday, .sunday, .monday],
    [.monday, .tuesday, .thursday, .friday, .saturday],
  ]

  /// A short name for a failure message.
  static func label(_ goal: Goal) -> String {
    "\(goal.distance.rawValue) \(goal.level.rawValue) \(goal.timeline.weeks)w runs \(goal.runsPerWeek ?? 0) days "
      + "\((goal.runDays ?? []).map(\.rawValue).joined(separator: ",")) long \(goal.longRunDay?.rawValue ?? "-")"
  }

  /// The rules the layout promises, checked on the plan's own dates (no engine internals).
  static func layoutProblems(_ plan: Plan, _ asked: Goal) -> [String] {
    var problems: [String] = []
    let days = Set(asked.runDays ?? Weekday.allCases)
    let raceDate = plan.goal.raceDate
    if let wanted = asked.longRunDay, plan.goal.longRunWeekday != wanted {
      problems.append("long-run day \(plan.goal.longRunWeekday) instead of \(wanted)")
    }
    if !days.contains(plan.goal.longRunWeekday) { problems.append("long-run day \(plan.goal.longRunWeekday)") }
    for workout in plan.workouts where workout.kind.isRun {
      if workout.kind == .race {
        if workout.date != raceDate { problems.append("race on \(workout.date)") }
        continue
      }
      if !days.contains(workout.date.weekday) {
        problems.append("\(workout.id) on \(workout.date.shortLabel), not a run day")
      }
      if workout.kind == .long && workout.date.weekday != plan.goal.longRunWeekday {
        problems.append("\(workout.id) on \(workout.date.shortLabel), not the long-run day")
      }
    }
    // Hard days apart across the whole plan: kept, or a quality day given up with a warning naming the days.
    let hard = plan.workouts.filter(\.hard)
    for (a, b) in zip(hard, hard.dropFirst()) where a.date.days(to: b.date) <= 1 {
      problems.append("hard days \(a.id) and \(b.id) on consecutive days")
    }
    for week in plan.weeks {
      if week.workouts.filter(\.kind.isRun).count > max(plan.goal.runsPerWeek, 1) + (week.phase == .race ? 1 : 0) {
        problems.append("week \(week.number): more runs than \(plan.goal.runsPerWeek)")
      }
    }
    // Fewer quality days than the level asks for, on run days that would not allow them: a warning says so.
    let levelMax = Phase.allCases.map { repositoryRules.base.levels[asked.level].qualityPerWeek[$0] }.max() ?? 0
    let templateQuality =
      repositoryRules.base.weeklyPatterns.first { $0.runs == plan.goal.runsPerWeek }?.days
      .filter { $0.role == .quality }.count ?? 0
    let most = plan.weeks.map { $0.workouts.filter { $0.hard && $0.kind != .long && $0.kind != .race }.count }.max()
    if let most, most < min(levelMax, templateQuality, fewRunsCap(plan)),
      !plan.warnings.contains(where: { $0.contains("your run days") && $0.contains("quality") })
    {
      problems.append("at most \(most) quality sessions a week and no warning naming the run days")
    }
    return problems
  }

  /// The property tests' violations a plan warning does not name: quality work the run days do not allow (race-pace
  /// sessions in the taper), and a run the day before the long run held to the shortest run or a long run over its
  /// share of the week when the run days put a run there.
  static func unexcused(_ violations: [String], _ plan: Plan) -> [String] {
    let quality = plan.warnings.contains { $0.hasPrefix("your run days") && $0.contains("quality session") }
    let eve = plan.warnings.first { $0.hasPrefix("your run days") && $0.contains("the day before the long run") }
    // The weeks the warning names: the numbers after "week" / "weeks" in each of its clauses.
    let named = Set(
      (eve ?? "").split(separator: ";").flatMap { clause -> [Int] in
        guard let range = clause.range(of: " week") else { return [] }
        return clause[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "," })
          .compactMap { Int($0) }
      })
    return violations.filter { violation in
      if violation.hasPrefix("[8 taper race pace]") && quality { return false }
      guard violation.hasPrefix("[10a eve of long]") || violation.hasPrefix("[10d long share]"),
        let range = violation.range(of: "] week "),
        let week = Int(violation[range.upperBound...].prefix { $0.isNumber })
      else { return true }
      return !named.contains(week)
    }
  }

  /// The few-runs cap on quality sessions (a large number when it does not apply).
  static func fewRunsCap(_ plan: Plan) -> Int {
    let structure = repositoryRules.base.weekStructure
    return plan.goal.runsPerWeek <= structure.fewRunsAtMost ? structure.qualityAtFewRuns[plan.goal.level] : 99
  }

  /// Distance × level × runs a week 3–7 × run-day sets × long-run day (given or not): every workout on a run day,
  /// the long run on the long-run day, hard days apart, and every invariant of the plan property tests.
  @Test(arguments: [RaceDistance.fiveK, .tenK, .half, .marathon], Level.allCases)
  func everyRunOnARunDay(distance: RaceDistance, level: Level) throws {
    let weeks = ["5k": 8, "10k": 10, "half": 12, "marathon": 18][distance.rawValue] ?? 12
    var made = 0
    for runs in 3...7 {
      for (index, days) in Self.daySets.enumerated() where days.count >= runs {
        // The long-run day: not given, Sunday (when a run day) or the first run day.
        let longDays: [Weekday?] = [nil, days.contains(.sunday) ? .sunday : days[index % days.count]]
        for longDay in longDays {
          var asked = goal(distance, level, weeks: weeks, runs: runs)
          guard (try? makePlan(goal: asked, rules: repositoryRules)) != nil else { continue }
          asked.runDays = days
          asked.longRunDay = longDay
          let plan = try makePlan(goal: asked, rules: repositoryRules)
          made += 1
          let problems = Self.layoutProblems(plan, asked) + Self.unexcused(violations(of: plan, goal: asked), plan)
          #expect(problems.isEmpty, "\(Self.label(asked)): \(problems.prefix(4))")
        }
      }
    }
    #expect(made > 20)
  }

  /// Without run days the plan is the template's, id and all; with every day as run days and the race weekday as
  /// the long-run day the weeks are the same (the template fits) but the id differs: another layout request.
  @Test func noRunDaysKeepsThePlan() throws {
    let plain = goal(.half, .intermediate, weeks: 12)
    let plan = try makePlan(goal: plain, rules: repositoryRules)
    #expect(plan.goal.runDays == nil && plan.goal.longRunDay == nil)
    var everyDay = plain
    everyDay.runDays = Weekday.allCases
    let laid = try makePlan(goal: everyDay, rules: repositoryRules)
    #expect(laid.id != plan.id)
    #expect(laid.workouts.map(\.date) == plan.workouts.map(\.date))
    #expect(laid.workouts.map(\.distanceKm) == plan.workouts.map(\.distanceKm))
    #expect(laid.goal.longRunDay == plain.timeline.raceDate.weekday)
    // The same request gives the same plan, byte for byte.
    #expect(try makePlan(goal: everyDay, rules: repositoryRules) == laid)
  }

  /// Sat, Sun, Mon with the long run on Sunday: every other day is beside the long run, so the quality session is
  /// an easy run and a warning names the days and the rule.
  @Test func threeDaysInARowWarn() throws {
    var asked = goal(.tenK, .intermediate, weeks: 10, runs: 3)
    asked.runDays = [.saturday, .sunday, .monday]
    asked.longRunDay = .sunday
    let plan = try makePlan(goal: asked, rules: repositoryRules)
    let warning = try #require(plan.warnings.first { $0.contains("your run days") })
    #expect(warning.contains("Mon, Sat, Sun") && warning.contains("beside the long run (Sun)"), "\(warning)")
    #expect(!plan.workouts.contains { $0.hard && $0.kind != .long && $0.kind != .race })
    #expect(Self.layoutProblems(plan, asked).isEmpty)
  }

  /// Mon, Wed, Fri, Sun with the long run on Sunday (the template wants Tue and Thu): quality on Wednesday and
  /// Friday, Monday the easy day after the long run.
  @Test func derivedWeekKeepsQualityApart() throws {
    var asked = goal(.half, .advanced, weeks: 12, runs: 4)
    asked.runDays = [.monday, .wednesday, .friday, .sunday]
    let plan = try makePlan(goal: asked, rules: repositoryRules)
    #expect(plan.goal.longRunDay == .sunday)
    let week = try #require(plan.weeks.first { $0.phase == .build && !$0.cutback })
    let hard = week.workouts.filter { $0.hard && $0.kind != .long }.map(\.date.weekday)
    #expect(hard == [.wednesday, .friday], "\(week.workouts.map { "\($0.date.shortLabel) \($0.kind)" })")
    #expect(plan.warnings.allSatisfy { !$0.contains("your run days") })
  }

  /// A long-run day off the run days, and fewer than three run days, are refused naming the option.
  @Test func badRunDaysAreRefused() {
    var asked = goal(.tenK, .beginner, weeks: 10)
    asked.runDays = [.tuesday, .thursday, .saturday]
    asked.longRunDay = .sunday
    #expect(throws: PlanError.self) { try makePlan(goal: asked, rules: repositoryRules) }
    asked.runDays = [.tuesday, .sunday]
    asked.longRunDay = nil
    do {
      _ = try makePlan(goal: asked, rules: repositoryRules)
      Issue.record("two run days were accepted")
    } catch {
      #expect("\(error)".hasPrefix("days: "), "\(error)")
    }
  }

  /// A goal saved before run days (no such keys) decodes with none, and one with them round-trips.
  @Test func goalCodingKeepsOldGoals() throws {
    let old = try JSONEncoder().encode(goal(.half, .beginner, weeks: 12))
    #expect(!String(decoding: old, as: UTF8.self).contains("runDays"))
    #expect(try JSONDecoder().decode(Goal.self, from: old).runDays == nil)
    var asked = goal(.half, .beginner, weeks: 12)
    asked.runDays = [.sunday, .tuesday, .thursday]
    asked.longRunDay = .sunday
    let decoded = try JSONDecoder().decode(Goal.self, from: try JSONEncoder().encode(asked))
    #expect(decoded == asked && decoded.runDays == [.tuesday, .thursday, .sunday])
  }
}
