import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing
import TrainingDomain
import TrainingProgress

@Suite struct ReplanTests {
  func plan() throws -> Plan { try makePlan(goal: goal(.half, .intermediate, weeks: 12), rules: repositoryRules) }

  /// Runs exactly as planned up to (not including) `day`, except the dates in `skipped`.
  func log(_ plan: Plan, until day: CivilDate, skipping skipped: Set<CivilDate> = []) -> [Completion] {
    plan.workouts.filter { $0.date < day && !skipped.contains($0.date) }.map {
      Completion(
        date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360, planID: plan.id,
        workoutID: $0.id)
    }
  }

  @Test func missedWeekRebuildsTheRestAndKeepsTheInvariants() throws {
    let plan = try plan()
    let today = plan.weeks[5].start  // Monday of week 6
    let missed = Set(plan.weeks[4].workouts.map(\.date))  // week 5 missed entirely
    let result = try replan(
      plan, completions: log(plan, until: today, skipping: missed), today: today, pause: nil,
      rules: repositoryRules)
    let new = result.plan
    #expect(new.id == plan.id)
    #expect(new.weeks.count == plan.weeks.count)
    #expect(Array(new.weeks.prefix(5)) == Array(plan.weeks.prefix(5)))  // the past is kept
    #expect(new.workouts.last?.kind == .race)
    #expect(new.workouts.last?.date == plan.goal.raceDate)
    #expect(new.workouts.allSatisfy { $0.id.hasPrefix(plan.id + "-w") })
    #expect(Set(new.workouts.map(\.id)).count == new.workouts.count)
    // The first rebuilt week ramps from what was run, by the rule (not the code): logs of weeks 5, 4, 3, 2
    // weighted 4:3:2:1; week 5 missed (one light week: a cut-back), week 4 a cut-back run as planned, so the floor
    // is week 3, the last full week run; the ramp adds at most what base.yaml's volume rules allow
    // (min(maxIncreasePercent of the week, maxIncreaseKmPerRun × runs)), read from the templates, not the code.
    let logged = [0, plan.weeks[3].plannedKm, plan.weeks[2].plannedKm, plan.weeks[1].plannedKm]
    let average = zip(logged, [4.0, 3, 2, 1]).map { $0 * $1 }.reduce(0, +) / 10
    #expect(plan.weeks[3].cutback && !plan.weeks[2].cutback)
    let start = max(average, plan.weeks[2].plannedKm)
    #expect(abs(result.weeklyKm - start) < 0.06)
    let volume = repositoryRules.base.volume
    let ramp = min(volume.maxIncreasePercent / 100 * start, volume.maxIncreaseKmPerRun * Double(plan.goal.runsPerWeek))
    #expect(new.weeks[5].plannedKm <= start + ramp + 0.05)
    #expect(new.weeks[5].plannedKm < plan.weeks[5].plannedKm)
    // Never two hard days in a row across the seam.
    let hard = new.workouts.filter(\.hard).map(\.date.dayNumber)
    for (a, b) in zip(hard, hard.dropFirst()) { #expect(b - a >= 2) }
    #expect(!result.changes.isEmpty)
    #expect(result.changes.allSatisfy { $0.number >= 6 })
  }

  @Test func oneShortWeekKeepsThePeak() throws {
    // The case: a half plan whose last week before the replan was run at half; the week before it was
    // full, and the week after a cut-back continues from the last full week, so the plan is not lowered.
    let plan = try plan()
    let today = plan.weeks[7].start
    var logs = log(plan, until: plan.weeks[6].start)
    logs += plan.weeks[6].workouts.prefix(2).map {
      Completion(date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360)
    }
    let result = try replan(plan, completions: logs, today: today, pause: nil, rules: repositoryRules)
    #expect(!plan.weeks[5].cutback)
    #expect(result.weeklyKm >= plan.weeks[5].plannedKm - 0.05)
    let peak = { (plan: Plan) in
      plan.weeks.filter { $0.phase == .peak || $0.phase == .build }.map(\.plannedKm).max() ?? 0
    }
    #expect(peak(result.plan) >= 0.9 * peak(plan))
    // One short week is a break: one easier week, then the build from the last full week run.
    #expect(result.basis.contains("1 week missed or short: back over 80 % of the "), "\(result.basis)")
  }

  /// A runner whose first week was short but who ran this week as planned up to its last day (the walk-through's
  /// case: Health runs from the start of week 1 missing) is not cut back: the week so far counts as the most recent
  /// week, stays as planned to its end, and the next week ramps from it. Judged by whole weeks only, the replan
  /// started from 30 km (the volume the plan was made from) and rebuilt the rest of this week.
  @Test func aWeekAheadOfTheLastIsNotCutBack() throws {
    let plan = try makePlan(goal: goal(.half, .intermediate, weeks: 16), rules: repositoryRules)
    let today = plan.weeks[1].start.adding(days: 6)  // Sunday of week 2
    var logs = plan.weeks[0].workouts.prefix(1).map {
      Completion(date: $0.date, distanceKm: $0.distanceKm, durationSeconds: $0.distanceKm * 360)
    }
    logs += log(plan, until: today).filter { $0.date >= plan.weeks[1].start }
    let result = try replan(plan, completions: logs, today: today, pause: nil, rules: repositoryRules)
    #expect(result.basis.contains(" this week ("), "\(result.basis)")
    #expect(result.plan.weeks[1] == plan.weeks[1])
    #expect(result.plan.weeks[2].plannedKm > plan.weeks[1].plannedKm)
    #expect(abs(result.weeklyKm - plan.weeks[1].plannedKm) < 0.06, "\(result.basis)")
    #expect(result.plan.weeks[2].rules[0].contains("over the volume judged from your logs ("))

    // Behind this week (one run of three so far), it is judged by whole weeks and rebuilt from today.
    let behind = try replan(
      plan, completions: log(plan, until: plan.weeks[1].start) + logs.suffix(1), today: today, pause: nil,
      rules: repositoryRules)
    #expect(!behind.basis.contains("this week ("), "\(behind.basis)")
  }

  /// The spike guard starts from what was run: a long run cut short (but done: 80 % or more) counts at
  /// its logged distance, one run at 90 % or more at its planned length. Four weeks off put it outside the look-back,
  /// so the plan's last long run done is the only long run the guard sees.
  @Test func aLongRunCutShortCountsAtWhatWasRun() throws {
    let plan = try plan()
    let today = plan.weeks[6].start  // Monday of week 7: weeks 3 to 6 not run
    let long = try #require(plan.weeks[1].workouts.first { $0.kind == .long })
    for (share, counted) in [(0.85, 0.85 * long.distanceKm), (0.93, long.distanceKm)] {
      let ran = (share * long.distanceKm * 10).rounded() / 10
      let logs = log(plan, until: plan.weeks[2].start).map { run in
        run.workoutID == long.id
          ? Completion(
            date: run.date, distanceKm: ran, durationSeconds: ran * 360, planID: plan.id, workoutID: long.id)
          : run
      }
      let result = try replan(plan, completions: logs, today: today, pause: nil, rules: repositoryRules)
      let expected = share < 0.9 ? ran : counted
      #expect(
        result.basis.contains(
          "the plan's last long run done (\(long.date.shortLabel)"
            + (share < 0.9 ? ", \(DistanceUnit.km.format(long.distanceKm)) planned" : "") + "): "
            + DistanceUnit.km.format(expected)), "\(share): \(result.basis)")
    }
  }

  @Test func pauseEmptiesItsDaysAndRestartsAfterIt() throws {
    let plan = try plan()
    let today = plan.weeks[3].start
    let pause = plan.weeks[3].start...plan.weeks[3].start.adding(days: 6)
    let result = try replan(
      plan, completions: log(plan, until: today), today: today, pause: pause, rules: repositoryRules)
    #expect(!result.plan.workouts.contains { pause.contains($0.date) })
    // Back from a week off (ill, the default reason) over easier weeks at 60–80 % of the last full week before it
    // (docs/training-rules.md, "Returning after an interruption"); the basis names the pause and the shares.
    let before = try #require(plan.weeks.prefix(3).last { !$0.cutback })
    let back = result.plan.weeks[4].plannedKm / before.plannedKm
    #expect(
      (0.6...0.8).contains(back), "\(result.plan.weeks[4].plannedKm) km after the pause, \(before.plannedKm) before")
    #expect(result.basis.contains("a pause of 7 days (ill): back over "), "\(result.basis)")
    #expect(result.plan.workouts.last?.date == plan.goal.raceDate)
  }

  @Test func aPauseOverRaceDayIsRefused() throws {
    let plan = try plan()
    let race = plan.goal.raceDate
    #expect(throws: ReplanError.pauseOverlapsRace(pauseEnd: race, raceDate: race)) {
      try replan(
        plan, completions: [], today: plan.weeks[2].start, pause: race.adding(days: -3)...race,
        rules: repositoryRules)
    }
  }
}
