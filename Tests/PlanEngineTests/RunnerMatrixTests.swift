import Foundation
import PlanEngine
import RunMateTestSupport
import Testing

// The coach's review of issue 22 as properties: plans built from the runner. Over the matrix of runners (distance ×
// level × weeks × runs a week 3–7 × starting volume 10–110 km × longest recent run), every plan the engine makes
// starts from what the runner does, does not zigzag, has the runs asked for or says why in that week, reaches the
// long run the race needs, holds sessions worth doing, never puts a medium-long run between two hard days and has
// no run under about 20 minutes; every plan it refuses names the fix. Reads only the public `Plan` value.
//
// RUNNER_MATRIX_DUMP=1 prints every violation (`[rule] inputs | detail`), for a coach to read.

/// One runner of the matrix.
struct MatrixRunner: CustomStringConvertible, Sendable {
  let distance: RaceDistance
  let level: Level
  let weeks: Int
  let runs: Int
  let currentKm: Double
  let longestKm: Double

  var goal: Goal {
    RunMateTestSupport.goal(
      distance, level, weeks: weeks, runs: runs, currentKm: currentKm, longestKm: longestKm)
  }

  var description: String {
    "--distance \(distance.rawValue) --level \(level.rawValue) --weeks \(weeks) --runs-per-week \(runs) "
      + "--current-weekly-km \(formatted(currentKm)) --longest-recent-run-km \(formatted(longestKm))"
  }
}

private func formatted(_ km: Double) -> String {
  km == km.rounded() ? String(Int(km)) : String(format: "%.1f", km)
}

/// The matrix: every distance and level; the shortest, recommended and a long timeline; 3–7 runs; 10–110 km; a
/// short and a usual longest run for the volume.
func runnerMatrix() -> [MatrixRunner] {
  var runners: [MatrixRunner] = []
  for distance in RaceDistance.allCases {
    guard let rules = repositoryRules.rules(for: distance) else { continue }
    for level in Level.allCases {
      let minimum = rules.minimumWeeks[level]
      let timelines = Array(Set([minimum.absolute, minimum.recommended, max(minimum.recommended + 4, 16), 24]))
        .sorted()
      for weeks in timelines {
        for runs in 3...7 {
          for current in [10.0, 15, 25, 40, 60, 90, 110] {
            for share in [0.25, 0.4] {
              let longest = min(60, max(3, (current * share).rounded()))
              runners.append(
                MatrixRunner(
                  distance: distance, level: level, weeks: weeks, runs: runs, currentKm: current, longestKm: longest))
            }
          }
        }
      }
    }
  }
  return runners
}

/// The long run a race needs: the distance's shortest useful long run, at most the low end of the level's peak
/// long run (a long run the time cap holds shorter is written by time, and passes).
func raceNeedKm(_ plan: Plan) -> Double {
  guard let rules = repositoryRules.rules(for: plan.goal.distance) else { return 0 }
  return min(rules.longRun.minUsefulKm, rules.levels[plan.goal.level].peakLongRunKm.lower)
}

/// A run's minutes at its easy pace: the long-run time cap counts the whole run at easy pace, so a long run with a
/// faster race-pace finish takes less time than the cap and is still held by it.
func easyMinutes(_ run: Workout) -> Double {
  let easy = run.steps.filter { $0.zone == .easy && $0.distanceKm > 0 }
  let km = easy.map { $0.distanceKm * Double($0.repeat) }.reduce(0, +)
  let seconds = easy.map { Double($0.durationSeconds * $0.repeat) }.reduce(0, +)
  guard km > 0 else { return Double(run.durationMin) }
  return run.distanceKm * seconds / km / 60
}

/// The coach's violations of one plan, each `[rule] detail`.
func coachViolations(_ plan: Plan, runner: MatrixRunner) -> [String] {
  var out: [String] = []
  let fullKinds: Set<Phase> = [.base, .build, .peak]
  let runsOf = { (week: Week) in week.workouts.filter { $0.kind.isRun } }
  // The start: the first full week is not far under what the runner does now.
  if let first = plan.weeks.first, fullKinds.contains(first.phase), !first.cutback {
    // What the week can hold: a long run of at most 1.10 × the runner's longest (the spike guard; the long-run time
    // cap may hold it shorter), the other runs a third shorter, the day before the long run half of it (patterns of
    // 4+ runs): a runner who asks for fewer runs than their volume and longest run need starts lower.
    let base = repositoryRules.base
    let longRun = runsOf(first).first { $0.kind == .long }
    let firstLong = longRun?.distanceKm ?? 0
    let maxMinutes =
      repositoryRules.rules(for: runner.distance)?.longRun.maxMinutes ?? base.longRun.maxMinutes
    let atTimeCap = longRun.map { easyMinutes($0) >= maxMinutes - 2 } ?? false
    let long = atTimeCap ? firstLong : base.longRun.spikeFactor * runner.longestKm
    let others = runner.runs >= 4 ? Double(runner.runs - 2) : Double(runner.runs - 1)
    let capacity =
      long * (1 + others / base.longRun.minRatioToOtherRuns) + (runner.runs >= 4 ? 0.5 * long : 0)
    if first.plannedKm < 0.9 * min(runner.currentKm, capacity) - 0.5 {
      out.append("[start] week 1 \(first.plannedKm) km, the runner runs \(formatted(runner.currentKm))")
    }
    if !atTimeCap && firstLong < 0.9 * runner.longestKm - 0.3 {
      out.append("[start] week 1 long run \(firstLong) km, the runner's longest is \(formatted(runner.longestKm))")
    }
  }
  // No zigzag: a full week is not under the full week before it, except by its long run stepping back between the
  // peak long runs (Pfitzinger's, Hansons' and Higdon's alternation): the rest of the week's running never falls.
  let full = plan.weeks.filter { fullKinds.contains($0.phase) && !$0.cutback }
  let longOf = { (week: Week) in runsOf(week).filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0 }
  for (a, b) in zip(full, full.dropFirst())
  where b.plannedKm < a.plannedKm - max(0, longOf(a) - longOf(b)) - max(1, 0.03 * a.plannedKm) {
    out.append("[zigzag] week \(b.number) \(b.plannedKm) km after week \(a.number) \(a.plannedKm) km")
  }
  // Runs a week: met, or said in that week.
  for week in plan.weeks where week.phase != .race {
    let count = runsOf(week).count
    if count != runner.runs && !week.rules.contains(where: { $0.contains("you asked for") }) {
      out.append("[runs] week \(week.number) has \(count) runs, \(runner.runs) asked, not said")
    }
  }
  // The long run the race needs.
  let longRuns = plan.weeks.filter { $0.phase != .race }.flatMap(runsOf).filter { $0.kind == .long }
  let peakLong = longRuns.map(\.distanceKm).max() ?? 0
  let need = raceNeedKm(plan)
  let maxMinutes =
    repositoryRules.rules(for: runner.distance)?.longRun.maxMinutes ?? repositoryRules.base.longRun.maxMinutes
  let byTime = longRuns.contains { $0.timeTarget != nil || Double($0.durationMin) >= maxMinutes - 2 }
  // What the time cap covers at the long runs' own pace (run/walk long runs are slower).
  let capKm = longRuns.map { maxMinutes * $0.distanceKm / Double(max(1, $0.durationMin)) }.min() ?? need
  let share = repositoryRules.base.longRun.refuseUnderShareOfNeed
  if peakLong < share * min(need, capKm) - 0.3 && !byTime {
    out.append("[long] peak long run \(peakLong) km, the race needs \(need)")
  }
  // Runs of about 20 minutes or more (race week aside; a week of three runs, the fewest a plan has, shortens them
  // when it cannot hold three such runs).
  for week in plan.weeks where week.phase != .race && runsOf(week).count > 3 {
    for run in runsOf(week) where run.durationMin < 19 {
      out.append(
        "[short] week \(week.number) \(run.date.shortLabel) \(run.kind.rawValue) \(run.distanceKm) km "
          + "\(run.durationMin) min")
    }
  }
  // A medium-long run never sits between two hard days.
  let hardDays = Set(plan.workouts.filter(\.hard).map(\.date))
  for run in plan.workouts where run.kind == .mediumLong {
    if hardDays.contains(run.date.adding(days: -1)) && hardDays.contains(run.date.adding(days: 1)) {
      out.append("[medium-long] \(run.date.shortLabel) \(run.distanceKm) km between two hard days")
    }
  }
  // The linter, with the same rules, finds nothing to say.
  for finding in lint(LintPlan(plan), rules: repositoryRules) {
    out.append("[lint] week \(finding.week): \(finding.rule.rawValue): \(finding.line)")
  }
  // Sessions worth doing, in full build and peak weeks.
  for week in full where week.phase == .build || week.phase == .peak {
    for session in week.workouts where session.kind == .tempo || session.kind == .intervals {
      let work = session.steps.filter { $0.kind == .work }
      let seconds = work.map { $0.durationSeconds * $0.repeat }.reduce(0, +)
      let km = work.map { $0.distanceKm * Double($0.repeat) }.reduce(0, +)
      let zone = work.first?.zone
      let floors = repositoryRules.base.levels[runner.level].sessionFloors
      if zone == .threshold && Double(seconds) < floors.thresholdMinutes * 60 - 1 {
        out.append("[floor] week \(week.number) \(session.title): \(seconds / 60) min at threshold")
      }
      if zone == .interval && km < floors.intervalKm - 0.05 {
        out.append("[floor] week \(week.number) \(session.title): \(String(format: "%.1f", km)) km of intervals")
      }
    }
    for session in week.workouts where session.kind == .hills {
      let reps = session.steps.filter { $0.kind == .work }.map(\.repeat).reduce(0, +)
      if reps < repositoryRules.base.levels[runner.level].sessionFloors.hillReps {
        out.append("[floor] week \(week.number) \(session.title): \(reps) hill repeats")
      }
    }
  }
  return out
}

@Suite("Plans built from the runner (issue 22)")
struct RunnerMatrixTests {
  @Test func theMatrixOfRunners() throws {
    let dump = ProcessInfo.processInfo.environment["RUNNER_MATRIX_DUMP"] != nil
    var made = 0
    var refused = 0
    var counts: [String: Int] = [:]
    var examples: [String: String] = [:]
    for runner in runnerMatrix() {
      let plan: Plan
      do {
        plan = try makePlan(goal: runner.goal, rules: repositoryRules)
      } catch {
        refused += 1
        // A refusal names the fix: what is allowed, or a suggestion.
        if !"\(error)".contains("allowed is") && !"\(error)".contains("; ") {
          counts["[refusal]", default: 0] += 1
          if examples["[refusal]"] == nil { examples["[refusal]"] = "\(runner) | \(error)" }
        }
        if dump { print("[refused] \(runner) | \(error)") }
        continue
      }
      made += 1
      for violation in coachViolations(plan, runner: runner) {
        let tag = String(violation.prefix { $0 != "]" }) + "]"
        counts[tag, default: 0] += 1
        if examples[tag] == nil { examples[tag] = "\(runner) | \(violation)" }
        if dump { print("\(tag) \(runner) | \(violation)") }
      }
    }
    print("[RunnerMatrix] made \(made), refused \(refused), violations \(counts.sorted { $0.key < $1.key })")
    #expect(made > 1000)
    // Every rule holds for every runner the engine plans for.
    #expect(
      counts.isEmpty, "\(counts)\n\(examples.values.sorted().joined(separator: "\n"))")
  }
}

/// The commands of issue 22's "Why", each as the coach read it, on the engine (`runmate plan … --now 2027-01-01`).
@Suite("Issue 22: the review's commands")
struct ReviewCommandTests {
  private func plan(
    _ distance: RaceDistance, _ level: Level, weeks: Int, runs: Int? = nil, current: Double? = nil,
    longest: Double? = nil
  ) throws -> Plan {
    try makePlan(
      goal: goal(distance, level, weeks: weeks, runs: runs, currentKm: current, longestKm: longest),
      rules: repositoryRules)
  }

  private func longRun(_ week: Week) -> Double {
    week.workouts.filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0
  }
  private func runs(_ week: Week) -> Int { week.workouts.filter(\.kind.isRun).count }

  /// Case 1: 7 runs from 25 km: the long run was 5.5 km in weeks 1–3 (under the runner's 8 km) and peaked at
  /// 12.4 km. Now the early weeks have fewer runs, each week saying so, and the long run grows from 8.8 km.
  @Test func marathonSevenRunsFromTwentyFiveKm() throws {
    let plan = try plan(.marathon, .advanced, weeks: 18, runs: 7, current: 25, longest: 8)
    #expect(longRun(plan.weeks[0]) >= 8)
    let fewer = plan.weeks.filter { $0.phase != .race && runs($0) < 7 }
    #expect(
      !fewer.isEmpty
        && fewer.allSatisfy { week in week.rules.contains { $0.hasPrefix("\(runs(week)) runs: you asked for 7") } })
    #expect(plan.warnings.contains { $0.contains("not the 7 you asked for") })
    #expect(plan.weeks.map(longRun).max() ?? 0 >= 24)
  }

  /// Case 1: half advanced, 5 runs from 15 km: 13.7 km a week, a 5.5 km long run for 18 weeks and no quality.
  @Test func halfFiveRunsFromFifteenKm() throws {
    let plan = try plan(.half, .advanced, weeks: 20, runs: 5, current: 15, longest: 6)
    let full = plan.weeks.filter { !$0.cutback && $0.phase != .taper && $0.phase != .race }
    let peak: Double = full.map(\.plannedKm).max() ?? 0
    #expect(peak >= 2 * 15)
    #expect((plan.weeks.map(longRun).max() ?? 0) >= 16)
    #expect(full.filter { $0.phase == .build || $0.phase == .peak }.allSatisfy { $0.workouts.contains(where: \.hard) })
  }

  /// Case 2: the default 10K beginner dropped a run in week 3 without a word.
  @Test func tenKBeginnerSaysWhyAWeekHasFewerRuns() throws {
    let plan = try plan(.tenK, .beginner, weeks: 16)
    for week in plan.weeks where week.phase != .race && runs(week) < plan.goal.runsPerWeek {
      #expect(week.rules.contains { $0.hasPrefix("\(runs(week)) runs: you asked for \(plan.goal.runsPerWeek)") })
    }
  }

  /// Case 3: a 60 km runner got 36–39 km in every full week of a 10K plan.
  @Test func tenKRunnerAtSixtyKmKeepsTheirVolume() throws {
    let plan = try plan(.tenK, .intermediate, weeks: 16, runs: 4, current: 60, longest: 16)
    let full = plan.weeks.filter { !$0.cutback && $0.phase != .taper && $0.phase != .race }
    #expect(full.allSatisfy { $0.plannedKm >= 0.85 * 60 }, "\(full.map(\.plannedKm))")
  }

  /// Case 4: the 5K intermediate sat at 26–28.5 km for 15 weeks with 2 × 800 m and 2 × 6 min at threshold.
  @Test func fiveKIntermediateBuildsWithSessionsWorthDoing() throws {
    let plan = try plan(.fiveK, .intermediate, weeks: 16)
    let full = plan.weeks.filter { !$0.cutback && $0.phase != .taper && $0.phase != .race }
    #expect((full.map(\.plannedKm).max() ?? 0) >= 35)
    let floors = repositoryRules.base.levels.intermediate.sessionFloors
    for week in full where week.phase != .base {
      for session in week.workouts where session.kind == .tempo || session.kind == .intervals {
        let work = session.steps.filter { $0.kind == .work }
        // Repetition-pace sessions (200-400 m at R) have no floor: Daniels caps R at 5 % of the week.
        if work.first?.zone == .repetition { continue }
        let seconds = work.map { Double($0.durationSeconds * $0.repeat) }.reduce(0, +)
        let km = work.map { $0.distanceKm * Double($0.repeat) }.reduce(0, +)
        #expect(
          work.first?.zone == .threshold ? seconds >= floors.thresholdMinutes * 60 - 1 : km >= floors.intervalKm - 0.05,
          "week \(week.number): \(session.title)")
      }
    }
  }

  /// Case 5: default marathon intermediate, week 7: Tue intervals, Wed 17.5 km, Thu tempo; cut-back weeks with
  /// 13–16 minute easy runs.
  @Test func marathonIntermediateHasNoMediumLongBetweenHardDaysNorShortRuns() throws {
    let plan = try plan(.marathon, .intermediate, weeks: 18)
    let hard = Set(plan.workouts.filter(\.hard).map(\.date))
    for run in plan.workouts where run.kind == .mediumLong {
      #expect(!(hard.contains(run.date.adding(days: -1)) && hard.contains(run.date.adding(days: 1))))
    }
    for week in plan.weeks where week.phase != .race {
      #expect(week.workouts.filter(\.kind.isRun).allSatisfy { $0.durationMin >= 19 }, "week \(week.number)")
    }
  }

  /// Case 1's refusal side: 12 weeks from a 10 km longest run cannot bring a marathoner's long run near 32 km; the
  /// refusal names a race date that does, and the plan for that date reaches it.
  @Test func aLongRunShortOfTheRaceIsRefusedWithADateThatWorks() throws {
    do {
      _ = try plan(.marathon, .advanced, weeks: 12, runs: 4, current: 40, longest: 10)
      Issue.record("a 12-week marathon from a 10 km longest run was made")
    } catch let error as PlanError {
      guard case .longRunShort(_, _, _, _, let need, let needed?, _, _, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(error.description.contains("allowed is a race on or after"))
      let later = try plan(.marathon, .advanced, weeks: needed, runs: 4, current: 40, longest: 10)
      #expect(
        (later.weeks.map(longRun).max() ?? 0) >= repositoryRules.base.longRun.refuseUnderShareOfNeed * need)
    }
  }

  /// Case 8: a beginner at 12 km a week asking for a marathon in 24 weeks gets a base phase first (the weeks the ramp
  /// needs to reach the 25 km a marathon plan starts from, before the shortest marathon plan), said in the header; a
  /// timeline without room for it is still refused with what is allowed.
  @Test func aMarathonFromTwelveKmInTwentyFourWeeksBuildsABaseFirst() throws {
    let plan = try plan(.marathon, .beginner, weeks: 24, current: 12, longest: 6)
    #expect(plan.warnings.contains { $0.contains("build that base") })
    let first = plan.weeks[0]
    #expect(first.plannedKm >= 0.9 * 12 && first.plannedKm <= 1.1 * 12 + 0.1)
    let peakWeek = plan.weeks.filter { $0.phase != .taper && $0.phase != .race }.map(\.plannedKm).max() ?? 0
    #expect(peakWeek >= 40, "the base grows into a marathon build: peak \(peakWeek) km")
    let need = raceNeedKm(plan)
    #expect((plan.weeks.map(longRun).max() ?? 0) >= repositoryRules.base.longRun.refuseUnderShareOfNeed * need)
    #expect(throws: PlanError.self) { try self.plan(.marathon, .beginner, weeks: 16, current: 12, longest: 6) }
  }

  /// A slow runner on 3 runs a week (7:54/km easy, run/walk long runs to 29.5 km): the other runs last at most 90
  /// minutes, so the week and its long run peak too low; the refusal names the number of runs a week that reaches
  /// it (more, here: fewer cannot be), and that plan does.
  @Test func aRefusalNamesMoreRunsAWeekWhenThatReachesTheLongRun() throws {
    let slow = RecentRace(distanceKm: 42.195, timeSeconds: 5 * 3600 + 45 * 60)
    func asked(runs: Int) -> Goal {
      goal(.marathon, .intermediate, weeks: 16, runs: runs, currentKm: 24, longestKm: 8.8, recentRace: slow)
    }
    let refusal: PlanError
    do {
      _ = try makePlan(goal: asked(runs: 3), rules: repositoryRules)
      Issue.record("a 16-week marathon on 3 runs from 24 km was made")
      return
    } catch {
      refusal = error
    }
    guard case .longRunShort(_, _, _, _, let need, _, _, let runs?, _) = refusal else {
      Issue.record("\(refusal)")
      return
    }
    #expect(runs > 3)
    #expect(refusal.description.contains("allowed is runs a week \(runs)"), "\(refusal)")
    let plan = try makePlan(goal: asked(runs: runs), rules: repositoryRules)
    #expect((plan.weeks.map(longRun).max() ?? 0) >= repositoryRules.base.longRun.refuseUnderShareOfNeed * need)
  }
}
