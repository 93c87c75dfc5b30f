import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain
import TrainingProgress

/// Replan after real life, as a coach adapts (issue 24): a break brings the runner back over one or two easier weeks
/// and rejoins the original build, so the peak and the longest run are kept; a runner on track keeps the plan as it
/// is; weeks the change does not reach stay exactly as they were.
@Suite struct ComebackTests {
  /// The plan: a half marathon, intermediate, on Tue/Wed/Fri/Sun, race day 2027-03-07 (14 weeks).
  func plan() throws -> Plan {
    let race = try #require(CivilDate(iso: "2027-03-07"))
    let weeks = 14
    let goal = Goal(
      distance: .half, level: .intermediate,
      timeline: Timeline(start: race.adding(days: -(7 * weeks - 1)), raceDate: race, weeks: weeks),
      runDays: [.tuesday, .wednesday, .friday, .sunday], longRunDay: .sunday)
    return try makePlan(goal: goal, rules: repositoryRules)
  }

  /// Every workout before `day` run as planned, except on `skipped` days; `share` scales the distances.
  func log(
    _ plan: Plan, from: CivilDate? = nil, until day: CivilDate, skipping skipped: Set<CivilDate> = [], share: Double = 1
  )
    -> [Completion]
  {
    plan.workouts.filter { workout in
      workout.date < day && !skipped.contains(workout.date) && from.map { workout.date >= $0 } ?? true
    }
    .map {
      let km = ($0.distanceKm * share * 10).rounded() / 10
      return Completion(
        date: $0.date, distanceKm: km, durationSeconds: km * 360, planID: plan.id, workoutID: $0.id)
    }
  }

  /// Kept: within rounding (a tenth) of what it was.
  func kept(_ new: Double, _ old: Double) -> Bool { new >= old - 0.15 && new <= old + 0.05 }
  func peak(_ plan: Plan) -> Double {
    plan.weeks.filter { $0.phase != .taper && $0.phase != .race }.map(\.plannedKm).max() ?? 0
  }
  func longest(_ plan: Plan) -> Double {
    plan.workouts.filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0
  }

  /// The case: weeks 1–2 run as planned, week 3 ill, told on the Monday of week 4. Before: week 4 became
  /// 18.1 km and the peak fell from 55.0 to 42.2 km for the rest of the plan.
  @Test func aSickWeekToldAfterTheFactKeepsThePeakAndTheLongestRun() throws {
    let plan = try plan()
    let sick = plan.weeks[2].start...plan.weeks[2].start.adding(days: 6)
    let result = try replan(
      plan, completions: log(plan, until: sick.lowerBound), today: plan.weeks[3].start, pause: sick,
      rules: repositoryRules)
    let new = result.plan
    #expect(kept(peak(new), peak(plan)), "peak \(peak(new)) for \(peak(plan)): \(result.basis)")
    #expect(kept(longest(new), longest(plan)), "longest \(longest(new)) for \(longest(plan))")
    // Back over easier weeks, not cut to nothing: week 4 at least about 60 % of week 2, under it.
    #expect(new.weeks[3].plannedKm >= 0.6 * plan.weeks[1].plannedKm - 0.05, "\(new.weeks[3].plannedKm)")
    #expect(new.weeks[3].plannedKm < plan.weeks[1].plannedKm)
    #expect(new.weeks[3].rules.contains { $0.hasPrefix("Return week after a break") }, "\(new.weeks[3].rules)")
    // It rejoins the original build: from there on every workout is exactly as it was (same events).
    let rejoin = try #require(
      new.weeks.indices.dropFirst(4).first { new.weeks[$0...].map(\.workouts) == plan.weeks[$0...].map(\.workouts) })
    // The 10 % ramp from the last full week catches the original build where it levels off: at its peak, before the
    // taper.
    #expect(plan.weeks[rejoin].phase == .peak || plan.weeks[rejoin].phase == .build, "week \(rejoin + 1)")
    #expect(result.basis.contains("rejoins the original build in week \(rejoin + 1)"), "\(result.basis)")
    #expect(result.workoutChanges.allSatisfy { $0.week >= 4 && $0.week <= rejoin })
    // The sick week's days stay as they were (the past), the race is where it was.
    #expect(new.weeks.prefix(3) == plan.weeks.prefix(3))
    #expect(new.workouts.last?.date == plan.goal.raceDate)
  }

  /// After the sick week's replan, the runner runs the first return week as planned: the next replan finds them on
  /// track (the saved pause's week is excused) and keeps the second return week. Before, the paused week counted as a
  /// short week for four weeks and the rebuild skipped the second return week.
  @Test func aReturnWeekRunAsPlannedKeepsTheComeback() throws {
    let plan = try plan()
    let sick = plan.weeks[2].start...plan.weeks[2].start.adding(days: 6)
    let first = try replan(
      plan, completions: log(plan, until: sick.lowerBound), today: plan.weeks[3].start, pause: sick,
      rules: repositoryRules)
    let replanned = first.plan
    let runs = log(plan, until: sick.lowerBound) + log(replanned, from: plan.weeks[3].start, until: plan.weeks[4].start)
    let second = try replan(
      replanned, completions: runs, today: plan.weeks[4].start, pause: nil, rules: repositoryRules,
      savedPauses: [sick])
    #expect(second.workoutChanges.isEmpty, "\(second.basis): \(second.workoutChanges.map(\.title))")
    #expect(second.basis.contains("on track"), "\(second.basis)")
    // Without the saved pause the paused week reads as a short one.
    let forgotten = try replan(
      replanned, completions: runs, today: plan.weeks[4].start, pause: nil, rules: repositoryRules)
    #expect(!forgotten.basis.contains("on track"))
  }

  /// Ill from the end of week 2 (its last runs missed) through week 3, told on the Monday of week 4; asked again
  /// that Monday (or by `export` and `today` replanning behind it), the return weeks stand. Before, the short week
  /// before the pause set a floor of the last full week, and the rebuild put the runner back at the volume before
  /// the illness, with hills on the first day back.
  @Test func aSecondReplanRightAfterAnIllnessKeepsItsReturnWeeks() throws {
    let plan = try plan()
    let sick = plan.weeks[2].start...plan.weeks[2].start.adding(days: 6)
    let secondWeek = plan.weeks[1].workouts.map(\.date)
    let runs = log(plan, until: sick.lowerBound, skipping: Set(secondWeek.dropFirst()))
    let first = try replan(plan, completions: runs, today: plan.weeks[3].start, pause: sick, rules: repositoryRules)
    #expect(first.plan.weeks[3].rules.contains { $0.hasPrefix("Return week after a break") })
    // The first long run after the return weeks keeps the spike guard over the weeks before it as run (the sick
    // week's planned long run was never run, and counts for nothing).
    let longest = { (week: Week) in week.workouts.filter { $0.kind.isRun }.map(\.distanceKm).max() ?? 0 }
    let base = max(longest(plan.weeks[1]), longest(first.plan.weeks[3]), longest(first.plan.weeks[4]))
    #expect(longest(first.plan.weeks[5]) <= 1.1 * base + 0.05, "\(first.plan.weeks[5].rules)")
    let again = try replan(
      first.plan, completions: runs, today: plan.weeks[3].start, pause: nil, rules: repositoryRules,
      savedPauses: [sick])
    #expect(again.workoutChanges.isEmpty, "\(again.basis): \(again.workoutChanges.map(\.title))")
    #expect(again.basis.contains("no whole week run since the pause that ended"), "\(again.basis)")
    // The first return week run as planned: judged on that week alone, on track.
    let more = runs + log(first.plan, from: plan.weeks[3].start, until: plan.weeks[4].start)
    let later = try replan(
      first.plan, completions: more, today: plan.weeks[4].start, pause: nil, rules: repositoryRules,
      savedPauses: [sick])
    #expect(later.workoutChanges.isEmpty, "\(later.basis)")
    #expect(later.basis.contains("last week's log"), "\(later.basis)")
  }

  /// The same illness told ahead: the week is emptied, the runner comes back over easier weeks, and the build
  /// resumes with the same peak and longest run.
  @Test func theSameIllnessPausedAhead() throws {
    let plan = try plan()
    let sick = plan.weeks[2].start...plan.weeks[2].start.adding(days: 6)
    let today = plan.weeks[2].start.adding(days: -1)
    let result = try replan(
      plan, completions: log(plan, until: today), today: today, pause: sick, rules: repositoryRules)
    let new = result.plan
    #expect(!new.workouts.contains { sick.contains($0.date) })
    #expect(kept(peak(new), peak(plan)), "\(result.basis)")
    #expect(kept(longest(new), longest(plan)))
    #expect(new.weeks[3].plannedKm >= 0.6 * plan.weeks[1].plannedKm - 0.05)
    #expect(new.weeks[3].plannedKm < plan.weeks[1].plannedKm)
  }

  /// Travel comes back faster than illness: one pause, two reasons.
  @Test func illnessComesBackMoreGentlyThanTravel() throws {
    let plan = try plan()
    let away = plan.weeks[4].start...plan.weeks[4].start.adding(days: 6)
    let logs = log(plan, until: away.lowerBound)
    let ill = try replan(plan, completions: logs, today: plan.weeks[5].start, pause: away, rules: repositoryRules)
    let travel = try replan(
      plan, completions: logs, today: plan.weeks[5].start, pause: away, rules: repositoryRules, reason: .travel)
    #expect(ill.plan.weeks[5].plannedKm < travel.plan.weeks[5].plannedKm)
  }

  /// One missed easy run: the runner is on track, nothing changes (before: 32 workouts were rewritten).
  @Test func oneMissedEasyRunChangesNothing() throws {
    let plan = try plan()
    let easy = try #require(plan.weeks[1].workouts.first { $0.kind == .easy })
    let today = plan.weeks[2].start
    let result = try replan(
      plan, completions: log(plan, until: today, skipping: [easy.date]), today: today, pause: nil,
      rules: repositoryRules)
    #expect(result.workoutChanges.isEmpty, "\(result.workoutChanges.map(\.title))")
    #expect(result.plan.weeks == plan.weeks)
    #expect(result.basis.contains("on track"), "\(result.basis)")
  }

  /// A week run at 130 %: a strong runner is not held back (the plan stands, nothing is cut).
  @Test func aWeekAboveThePlanHoldsNothingBack() throws {
    let plan = try plan()
    let today = plan.weeks[3].start
    let logs = log(plan, until: plan.weeks[2].start) + log(plan, from: plan.weeks[2].start, until: today, share: 1.3)
    let result = try replan(plan, completions: logs, today: today, pause: nil, rules: repositoryRules)
    #expect(result.plan.weeks.map(\.plannedKm) == plan.weeks.map(\.plannedKm))
    #expect(peak(result.plan) >= peak(plan))
  }

  /// Two missed weeks without a pause: two easier weeks, then the build, and the original weeks where it rejoins.
  @Test func twoMissedWeeksComeBackOverTwoWeeks() throws {
    let plan = try plan()
    let today = plan.weeks[4].start
    let missed = Set(plan.weeks[2...3].flatMap(\.workouts).map(\.date))
    let result = try replan(
      plan, completions: log(plan, until: today, skipping: missed), today: today, pause: nil, rules: repositoryRules)
    let new = result.plan
    #expect(new.weeks[4].rules.contains { $0.hasPrefix("Return week after a break") }, "\(new.weeks[4].rules)")
    #expect(new.weeks[5].rules.contains { $0.hasPrefix("Return week after a break") }, "\(new.weeks[5].rules)")
    #expect(new.weeks[4].plannedKm < new.weeks[5].plannedKm)
    // The first full week back rejoins at the volume before the break (no ramp over it) and its long run is no
    // longer than the last one before the break; the ramp resumes the week after.
    let before = plan.weeks[0...1]
    #expect(new.weeks[6].rules.contains { $0.contains("back to the") }, "\(new.weeks[6].rules)")
    #expect(new.weeks[6].plannedKm <= before.map(\.plannedKm).max()! + 0.1, "\(new.weeks[6].plannedKm)")
    let longRun = { (week: Week) in week.workouts.filter { $0.kind == .long }.map(\.distanceKm).max() ?? 0 }
    #expect(longRun(new.weeks[6]) <= before.map(longRun).max()! + 0.05)
    #expect(new.weeks[7].plannedKm > new.weeks[6].plannedKm)
    // Its long run is easy: no step of it at marathon or goal race pace.
    let long = try #require(new.weeks[6].workouts.first { $0.kind == .long })
    #expect(long.steps.allSatisfy { $0.zone == .easy }, "\(long.title)")
    // A peak the shorter build no longer reaches is said, with the old and the new numbers.
    #expect(
      kept(peak(new), peak(plan)) || result.basis.contains("the plan now peaks at"), "\(result.basis)")
  }
}

/// Replan after any break keeps the plan's invariants, judged by the same linter that judges any plan: no finding in
/// the replanned weeks that the original plan did not have (the ramp against the last full week, the spike guard,
/// the cut-back rhythm, the taper, the shape of each week), the past untouched, the race pinned.
@Suite struct ComebackPropertyTests {
  static let cases: [(RaceDistance, Level, Int)] = [
    (.fiveK, .beginner, 10), (.tenK, .intermediate, 12), (.half, .intermediate, 14), (.half, .advanced, 16),
    (.marathon, .intermediate, 18),
  ]

  @Test(arguments: cases)
  func everyBreakKeepsTheLinterQuiet(distance: RaceDistance, level: Level, weeks: Int) throws {
    let plan = try makePlan(goal: goal(distance, level, weeks: weeks), rules: repositoryRules)
    let before = Set(lint(LintPlan(plan), rules: repositoryRules).map { "\($0.week) \($0.rule)" })
    for broken in 1..<(weeks - 2) {
      let today = plan.weeks[broken].start
      let week = plan.weeks[broken - 1]
      let sick = week.start...week.start.adding(days: 6)
      let asPlanned = plan.workouts.filter { $0.date < today && !sick.contains($0.date) }.map {
        Completion(
          date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360, planID: plan.id,
          workoutID: $0.id)
      }
      for (label, pause) in [("missed", nil), ("ill", sick)] as [(String, ClosedRange<CivilDate>?)] {
        let result = try replan(plan, completions: asPlanned, today: today, pause: pause, rules: repositoryRules)
        let new = result.plan
        let name = "\(distance.rawValue) \(level.rawValue) \(weeks) wk, week \(broken) \(label)"
        #expect(new.workouts.filter { $0.date < today } == plan.workouts.filter { $0.date < today }, "\(name)")
        #expect(new.workouts.last?.date == plan.goal.raceDate && new.workouts.last?.kind == .race, "\(name)")
        let findings = lint(LintPlan(new), rules: repositoryRules).filter {
          $0.week > broken && !before.contains("\($0.week) \($0.rule)")
        }
        #expect(findings.isEmpty, "\(name): \(findings.map(\.line)) — \(result.basis)")
      }
    }
  }
}
