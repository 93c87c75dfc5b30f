import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

// Race-specific long runs (half, marathon): peak long runs, step-back long runs, marathon-pace segments and fast
// finishes, and the marathon-pace budget. Like PlanInvariantTests, the checker reads only the public `Plan`, the
// `Goal` and the numbers of plan-templates/ (`repositoryRules`), never an engine internal.

/// Work at marathon pace in one week as the plan shows it: every non-easy work step of a long run (its
/// marathon-pace segment or fast finish), and the marathon-pace work of the sessions (for the marathon, goal-pace
/// work too, which is marathon pace); the race itself is not training.
func marathonPaceKm(of week: Week, goal: Goal) -> Double {
  var km = 0.0
  for workout in week.workouts where workout.kind != .race {
    for step in workout.steps where step.kind == .work && step.zone != .easy {
      let counts =
        workout.kind == .long || step.zone == .marathon || (goal.distance == .marathon && step.zone == .race)
      if counts { km += step.distanceKm * Double(step.repeat) }
    }
  }
  return km
}

/// A long run with work at pace (a marathon-pace segment or a fast finish).
private func isQualityLong(_ workout: Workout) -> Bool {
  workout.kind == .long && workout.steps.contains { $0.kind == .work && $0.zone != .easy }
}

/// Every long-run rule `plan` breaks, one line each.
func longRunViolations(of plan: Plan, goal: Goal) -> [String] {
  var out: [String] = []
  let rules = repositoryRules
  guard let distance = rules.rules(for: goal.distance) else { return ["no rules for \(goal.distance.rawValue)"] }
  let all = plan.workouts
  let longs = plan.weeks.compactMap { week in week.workouts.first { $0.kind == .long }.map { (week, $0) } }

  // Beginners, and distances without variants, have easy long runs only.
  let variantLevels = distance.longRun.variants?.levels ?? []
  if !variantLevels.contains(goal.level) {
    for (week, long) in longs where isQualityLong(long) {
      out.append("week \(week.number): \(long.title) has work at pace, the level/distance keeps easy long runs")
    }
  }

  if let peaks = distance.longRun.peaks {
    let longest = longs.map(\.1.distanceKm).max() ?? 0
    let band = (1 - peaks.withinOfLongest) * longest
    let peakWeeks = longs.filter { $0.1.distanceKm >= band - 1e-9 }
    if peakWeeks.count > peaks.maxCount {
      out.append(
        "[peaks] \(peakWeeks.count) peak long runs (within \(percent(peaks.withinOfLongest)) of \(fmt(longest)) km: weeks "
          + "\(peakWeeks.map(\.0.number))), at most \(peaks.maxCount)")
    }
    for (a, b) in zip(peakWeeks, peakWeeks.dropFirst()) where b.0.number - a.0.number == 1 {
      out.append("[peaks] peak long runs in consecutive weeks \(a.0.number) and \(b.0.number)")
    }
    // The peaks close the build: all of them in the window, the last one within a week of the earliest it may be
    // (2-3 weeks before a half, 3 before a marathon), the first no earlier than the window's start.
    let raceDate = goal.timeline.raceDate
    for (week, long) in peakWeeks
    where !(peaks.lastDaysBeforeRace...peaks.earliestDaysBeforeRace).contains(long.date.days(to: raceDate)) {
      out.append(
        "[peaks] week \(week.number): a peak long run \(long.date.days(to: raceDate)) days before race day, outside "
          + "\(peaks.lastDaysBeforeRace)-\(peaks.earliestDaysBeforeRace)")
    }
    if let last = peakWeeks.last, last.1.date.days(to: raceDate) > peaks.lastDaysBeforeRace + 7 {
      out.append(
        "[peaks] the last peak long run (week \(last.0.number)) is \(last.1.date.days(to: raceDate)) days before race "
          + "day, at most \(peaks.lastDaysBeforeRace + 7)")
    }
    // Between and after the peak long runs, the full weeks step back: to `stepBackOfPeak` of the longest, or to the
    // long run the week's runs need to hold its volume (every other run a third shorter, the day before the long run
    // at most half of it), 3 % over for the rounding of easy runs.
    func carry(_ week: Week, _ long: Workout) -> Double {
      let runs = goal.runsPerWeek ?? plan.goal.runsPerWeek
      let eve = week.workouts.contains { $0.kind.isRun && $0.date.adding(days: 1) == long.date }
      let others = Double(runs - 1 - (eve ? 1 : 0))
      let share =
        1 + others / rules.base.longRun.minRatioToOtherRuns + (eve ? rules.base.weekStructure.eveOfLongMaxOfLong : 0)
      return 1.03 * week.targetKm / share
    }
    if let first = peakWeeks.first?.0.number {
      for (week, long) in longs
      where week.number > first && !week.cutback && week.phase != .taper
        && !peakWeeks.contains(where: { $0.0.number == week.number })
        && long.distanceKm > max(peaks.stepBackOfPeak * longest, carry(week, long)) + 0.1
      {
        out.append(
          "[peaks] week \(week.number): long run \(fmt(long.distanceKm)) km after the first peak long run, over "
            + "\(percent(peaks.stepBackOfPeak)) of \(fmt(longest)) km and over what the week's "
            + "\(fmt(week.targetKm)) km needs")
      }
    }
  }

  let structure = rules.base.weekStructure
  for week in plan.weeks {
    // The marathon-pace budget.
    let budget = rules.base.intensity.maxMarathonPaceOfWeek * week.plannedKm
    let marathonPace = marathonPaceKm(of: week, goal: goal)
    if marathonPace > budget + 0.05 {
      out.append(
        "week \(week.number): \(fmt(marathonPace)) km at marathon pace, over "
          + "\(percent(rules.base.intensity.maxMarathonPaceOfWeek)) of \(fmt(week.plannedKm)) km (\(fmt(budget)))")
    }
    // The long run at most half its week (a week cut to two runs cannot hold it with the third-longer rule).
    if let long = week.workouts.first(where: { $0.kind == .long }), week.workouts.count >= 3,
      long.distanceKm > structure.longRunMaxOfWeek * week.plannedKm + 0.05
    {
      out.append("week \(week.number): long run \(fmt(long.distanceKm)) of \(fmt(week.plannedKm)) km")
    }
  }
  // A long run with work at pace never sits beside another hard day (across weeks too).
  for long in all where isQualityLong(long) {
    for other in all where other.id != long.id && other.hard && abs(long.date.days(to: other.date)) <= 1 {
      out.append("\(long.title) on \(long.date) beside \(other.title) on \(other.date)")
    }
  }
  return out
}

/// What one group of plans showed: how many were checked, broke a rule, had variants or step-back long runs.
private struct LayoutTally: Sendable {
  var checked = 0
  var failing = 0
  var withVariants = 0
  var withStepBacks = 0
  var examples: [String] = []

  mutating func record(_ plan: Plan, _ asked: Goal, label: String) {
    checked += 1
    if plan.workouts.contains(where: isQualityLong) { withVariants += 1 }
    if plan.weeks.contains(where: {
      $0.rules.contains { $0.contains("step-back long run") || $0.contains("lead-in long run") }
    }) {
      withStepBacks += 1
    }
    let found = longRunViolations(of: plan, goal: asked)
    guard !found.isEmpty else { return }
    failing += 1
    if examples.count < 2 { examples.append("\(label): " + found.prefix(4).joined(separator: " | ")) }
  }
}

private func fmt(_ x: Double) -> String { String(format: "%.1f", x) }
private func percent(_ x: Double) -> String { "\(Int((x * 100).rounded())) %" }

@Suite("LongRuns: peak long runs, step-backs, marathon-pace segments and the marathon-pace budget")
struct LongRunTests {
  /// Every half and marathon plan, each level × length (absolute minimum … 24 weeks) × runs per week 3…7 × a few
  /// current volumes, obeys the long-run rules, the peak layout included, with no plan excused; intermediate and
  /// advanced plans do get race-specific long runs. One case per distance × level × runs per week, so that the 30
  /// cases (1,445 plans) run in parallel.
  @Test(arguments: [RaceDistance.half, .marathon], Level.allCases)
  func longRunRulesHoldEverywhere(distance: RaceDistance, level: Level) async throws {
    let rules = try #require(repositoryRules.rules(for: distance))
    let minimum = rules.minimumWeeks[level]
    let tallies = await withTaskGroup(of: LayoutTally.self) { group in
      for runs in 3...7 {
        group.addTask {
          var tally = LayoutTally()
          for weeks in minimum.absolute...max(minimum.absolute, 24) {
            for current: Double? in [nil, 30, 60] {
              let asked = goal(distance, level, weeks: weeks, runs: runs, currentKm: current)
              guard let plan = try? makePlan(goal: asked, rules: repositoryRules) else { continue }
              tally.record(plan, asked, label: "\(weeks)w runs=\(runs) current=\(current.map(fmt) ?? "-")")
            }
          }
          return tally
        }
      }
      var all: [LayoutTally] = []
      for await tally in group { all.append(tally) }
      return all
    }
    let checked = tallies.map(\.checked).reduce(0, +)
    let failing = tallies.map(\.failing).reduce(0, +)
    let withVariants = tallies.map(\.withVariants).reduce(0, +)
    let withStepBacks = tallies.map(\.withStepBacks).reduce(0, +)
    let examples = tallies.flatMap(\.examples).prefix(4)
    #expect(checked > 0)
    #expect(failing == 0, "\(failing) of \(checked) plans break long-run rules: \(Array(examples))")
    // Most plans hold long runs under the peak (step-back or lead-in); intermediate and advanced get variants.
    #expect(withStepBacks * 2 > checked, "\(withStepBacks) of \(checked) plans have step-back or lead-in long runs")
    if level == .beginner {
      #expect(withVariants == 0)
    } else {
      #expect(withVariants * 2 > checked, "\(withVariants) of \(checked) plans have race-specific long runs")
    }
  }

  /// The advanced half in 14 weeks once peaked in week 6 (56 days out) and stepped back to 17.3 km for weeks 9-12:
  /// its peak long runs now close the build, the last one in week 12 (14 days before race day).
  @Test func advancedHalfFourteenWeeksPeaksLate() throws {
    let asked = goal(.half, .advanced, weeks: 14)
    let plan = try makePlan(goal: asked, rules: repositoryRules)
    #expect(longRunViolations(of: plan, goal: asked).isEmpty, "\(longRunViolations(of: plan, goal: asked))")
    let longs = plan.workouts.filter { $0.kind == .long }
    let longest = try #require(longs.map(\.distanceKm).max())
    let peaks = longs.filter { $0.distanceKm >= 0.97 * longest }
    #expect(peaks.last.map { $0.date.days(to: asked.timeline.raceDate) } == 14)
    #expect(peaks.allSatisfy { $0.date.days(to: asked.timeline.raceDate) <= 49 }, "\(peaks.map(\.date))")
    // Nothing before the peaks comes near them: the longest earlier long run is under the peak band.
    let first = try #require(peaks.first)
    #expect(longs.filter { $0.date < first.date }.allSatisfy { $0.distanceKm < 0.97 * longest })
  }

  /// examples/5k-beginner, week 6 (a cut-back week with a 9.375 km ceiling): the minimum run left room for two runs
  /// and the long run only before the long run's rounding up (2.8 + 2.8 + 3.8 = 9.4 km), so an easy run was dropped
  /// and the long run was 58 % of a 6.6 km week. Every week with a long run keeps three runs or more, the long run at
  /// most half of it.
  @Test func smallWeeksKeepThreeRuns() throws {
    let share = repositoryRules.base.weekStructure.longRunMaxOfWeek
    var checked = 0
    for distance in [RaceDistance.fiveK, .tenK] {
      for weeks in 6...12 {
        for current: Double? in [nil, 8, 10, 12, 15] {
          let asked = goal(distance, .beginner, weeks: weeks, runs: 3, currentKm: current)
          guard let plan = try? makePlan(goal: asked, rules: repositoryRules) else { continue }
          checked += 1
          for week in plan.weeks {
            guard let long = week.workouts.first(where: { $0.kind == .long }) else { continue }
            #expect(
              week.workouts.count >= 3, "\(distance.rawValue) \(weeks)w current=\(current ?? 0): week \(week.number)")
            #expect(
              long.distanceKm <= share * week.plannedKm + 0.05,
              "\(distance.rawValue) \(weeks)w: week \(week.number) long \(long.distanceKm) of \(week.plannedKm)")
          }
        }
      }
    }
    #expect(checked > 20)
    let example = try makePlan(goal: goal(.fiveK, .beginner, weeks: 8), rules: repositoryRules)
    let week6 = try #require(example.weeks.first { $0.number == 6 })
    #expect(week6.cutback && week6.workouts.count == 3, "\(week6.workouts.map(\.distanceKm))")
  }

  /// Shorter distances keep easy long runs and no peak layout.
  @Test(arguments: [RaceDistance.fiveK, .tenK, .fifteenK], Level.allCases)
  func shorterDistancesKeepEasyLongRuns(distance: RaceDistance, level: Level) throws {
    let plan = try makePlan(goal: goal(distance, level, weeks: 16), rules: repositoryRules)
    #expect(!plan.workouts.contains(where: isQualityLong))
    #expect(
      !plan.weeks.contains {
        $0.rules.contains { $0.contains("a peak long run (") || $0.contains("step-back long run") }
      })
  }

  /// The intermediate marathon in 16 weeks, as a coach reads it: three peak long runs, the last 21 days before
  /// race day, step-backs between, marathon-pace long runs whose description names both paces from the VDOT.
  @Test func intermediateMarathonSixteenWeeks() throws {
    let race = RecentRace(distanceKm: 10, timeSeconds: 50 * 60)
    let asked = goal(.marathon, .intermediate, weeks: 16, recentRace: race)
    let plan = try makePlan(goal: asked, rules: repositoryRules)
    #expect(longRunViolations(of: plan, goal: asked).isEmpty)
    let longs = plan.workouts.filter { $0.kind == .long }
    let longest = try #require(longs.map(\.distanceKm).max())
    let peaks = longs.filter { $0.distanceKm >= 0.97 * longest }
    #expect(peaks.count == 3)
    #expect(peaks.last.map { $0.date.days(to: asked.timeline.raceDate) } == 21)
    let marathonPaceLongs = longs.filter { $0.steps.last?.zone == .marathon }
    #expect(!marathonPaceLongs.isEmpty)
    // The paces in the text are the VDOT's: easy range and marathon pace (an independent VDOT from the same race).
    let vdot = try VDOT(distanceMeters: 10_000, timeSeconds: 50 * 60)
    for long in marathonPaceLongs {
      let segment = try #require(long.steps.last)
      #expect(long.description.contains("at marathon pace (\(vdot.marathon.formatted(perMile: false))"))
      #expect(long.description.contains("easy (\(formatPaceRange(vdot.easy, perMile: false))"))
      #expect(long.title.contains("last \(DistanceUnit.km.format(segment.distanceKm)) at marathon pace"))
      #expect(abs(long.steps.map(\.distanceKm).reduce(0, +) - long.distanceKm) < 0.06)
    }
  }
}
